//! The FEC NIC top: lint, and the register map on rust-hdl and Verilator.

use hdl::nic::{reg, MAGIC, READ_LATENCY};
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

/// Reads pipeline one per clock with `READ_LATENCY` clocks to their data (a burst returns what
/// single reads return), a read sees a write of the clock before, and a refused write is
/// counted by the time the next clock's read samples BUS_REFUSED.
#[test]
fn bus_reads_pipeline_and_see_the_writes_before_them() {
    let mut engines: Vec<Box<dyn NicBus>> = vec![Box::new(RustHdlNic::new().unwrap()), Box::new(VerilatorNic::new(NicBuild::SMALL).unwrap())];
    for e in engines.iter_mut() {
        let single: Vec<u32> = [reg::ID, reg::VERSION, reg::CAPS, reg::LAYOUT].iter().map(|&a| e.read(a)).collect();
        assert_eq!(single[0], MAGIC);
        assert_eq!(e.read_burst(reg::ID, 4), single);
        let c0 = e.cycles();
        e.read_burst(reg::ID, 10);
        assert_eq!(e.cycles() - c0, 10 + READ_LATENCY as u64 - 1);
        e.write(reg::SCRATCH, 0x1234_5678);
        assert_eq!(e.read(reg::SCRATCH), 0x1234_5678);
        let before = e.read(reg::BUS_REFUSED);
        e.write(reg::ID, 1);
        assert_eq!(e.read(reg::BUS_REFUSED), before + 1);
    }
}
