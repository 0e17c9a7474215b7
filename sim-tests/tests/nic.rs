//! The FEC NIC top: lint, and the register map on rust-hdl and Verilator.

use hdl::nic::{reg, MAGIC};
use sim_tests::nic::{NicBuild, NicBus, RustHdlNic, VerilatorNic};

#[test]
fn nic_top_lints_clean() {
    for b in [NicBuild::SMALL, NicBuild::FULL] {
        sim_tests::verilator::lint(&b.verilog()).unwrap_or_else(|e| panic!("{b:?}: {e:#}"));
    }
}

#[test]
fn id_and_scratch_on_both_engines() {
    let mut engines: Vec<Box<dyn NicBus>> = vec![Box::new(RustHdlNic::new().unwrap()), Box::new(VerilatorNic::new(NicBuild::SMALL).unwrap())];
    for e in engines.iter_mut() {
        assert_eq!(e.read(reg::ID), MAGIC);
        e.write(reg::SCRATCH, 0xDEAD_BEEF);
        assert_eq!(e.read(reg::SCRATCH), 0xDEAD_BEEF);
    }
}
