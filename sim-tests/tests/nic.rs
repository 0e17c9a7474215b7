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
/// single reads return), and a read sees a write of the clock before (an RX staging register,
/// and a TX pop that has moved the head, its header words and the count), except BUS_REFUSED, which counts a refused write from
/// the second clock after it.
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
        // the RX staging registers take their write a clock late, and the next clock's read
        // still sees it
        e.write(reg::RX_HDR, 0x0A0B_0C0D);
        assert_eq!(e.read(reg::RX_HDR), 0x0A0B_0C0D, "RX_HDR read right after its write");
        let before = e.read(reg::BUS_REFUSED);
        e.write(reg::ID, 1);
        assert_eq!(e.read(reg::BUS_REFUSED), before, "counted in the clock after the write");
        assert_eq!(e.read(reg::BUS_REFUSED), before + 1, "not counted two clocks after the write");
        // a pop takes effect a clock after its write: the next clock's reads see the new head
        // (its count, its header words from the slot RAM) as reads many clocks later do
        e.write(reg::ENC_SYMBOL_LIMIT, 3);
        e.write(reg::ENC_CTRL, 1);
        let tx_count = |v: u32| (v >> 8) & 7;
        for _ in 0..2000 {
            if tx_count(e.read(reg::ENC_STATUS)) == 3 {
                break;
            }
        }
        assert_eq!(tx_count(e.read(reg::ENC_STATUS)), 3, "the encoder did not queue three symbols");
        // (TX_BITSET_LO: the bitsets of a k = 16 message have no higher bits)
        let head = |e: &mut Box<dyn NicBus>| e.read_burst(reg::TX_BITSET_LO, 1)[0];
        e.write(reg::TX_POP, 1);
        let head_now = head(e);
        (0..8).for_each(|_| e.idle());
        assert_eq!(head_now, head(e), "the head read right after a pop");
        e.write(reg::TX_POP, 1);
        assert_eq!(tx_count(e.read(reg::ENC_STATUS)), 1, "the count read right after a pop");
    }
}
