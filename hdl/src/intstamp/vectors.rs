//! INT stamping vectors (HPCC/Swift §4.4): stamps across the 24-bit ts wrap and the
//! 20-bit bytes wrap, qLen as the bytes left after removal and its saturation, every rate code,
//! unit shifts, malformed descriptors and rejected writes; and the fuzz stimulus.

use super::model::IntStamp;
use super::{csr, IntIn};
use crate::cycle::{Op, Rng, Script};

pub type IntScript = Script<IntStamp>;

/// Dequeue `lens` one per clock from a queue holding `queued` bytes in total (this packet
/// included), at `now`, `now + step`, ...; qlen_after is what is left after each removal.
pub fn drain(s: &mut IntScript, lens: &[u64], mut queued: u64, mut now: u64, step: u64) -> Vec<u64> {
    let mut hops = vec![];
    for &len in lens {
        queued -= len;
        let o = s.cycle(IntIn { deq_valid: 1, deq_len: len, now: now & 0xFF_FFFF, qlen_after: queued, ..Default::default() }.to_vec(), 1);
        hops.push(o[2] | o[3] << 32);
        now += step;
    }
    hops
}

fn spec_file() -> Vec<Op> {
    let mut s = IntScript::default();
    s.note("a queue of mixed packets drained at 100G: qlen_after is the sum of the bytes still queued, tx_bytes the bytes sent before");
    let lens = [1000u64, 64, 1500, 9000, 256, 1000, 1000];
    let total: u64 = lens.iter().sum();
    drain(&mut s, &lens, total + 40_000, 1_000, 80);
    s.note("the 24-bit ts field wraps at 2^24 ns (16.78 ms)");
    drain(&mut s, &[1000; 4], 4000, (1 << 24) - 100, 80);
    s.note("the 20-bit bytes field wraps: BYTE_SHIFT 0 and tx_bytes loaded just below 2^20, then just below 2^32");
    s.csr(csr::BYTE_SHIFT, 0);
    s.csr(csr::TX_LOAD, (1 << 20) - 1500);
    drain(&mut s, &[1000; 3], 3000, 0, 10);
    s.csr(csr::BYTE_SHIFT, 12);
    s.csr(csr::TX_LOAD, (1 << 32) - 5000);
    drain(&mut s, &[4000; 3], 12_000, 0, 10);
    s.note("qlen saturates at 2^17 - 1 units, never wraps; QLEN_SHIFT 0 and 15");
    s.csr(csr::QLEN_SHIFT, 0);
    drain(&mut s, &[1000; 2], 0x1_FFFF + 2000, 0, 10);
    drain(&mut s, &[1000], 0x2_0000 + 1000, 0, 10);
    s.csr(csr::QLEN_SHIFT, 15);
    drain(&mut s, &[1000; 2], 0xFFFF_F000, 0, 10);
    s.note("200 packets of pseudo-random length back to back at 100G (8 ns per 100 B), default units");
    s.csr(csr::BYTE_SHIFT, 9);
    s.csr(csr::QLEN_SHIFT, 8);
    let mut r = Rng::new(11);
    let lens: Vec<u64> = (0..200).map(|_| 64 + r.below(1455)).collect();
    let queued: u64 = lens.iter().sum::<u64>() + 100_000;
    drain(&mut s, &lens, queued, 123_456, 96);
    s.note("every rate code 0..4 (25/50/100/200/400 G)");
    for code in 0..5 {
        s.csr(csr::RATE, code);
        drain(&mut s, &[64], 64, 5, 0);
    }
    s.ops
}

fn robustness_file() -> Vec<Op> {
    let mut s = IntScript::default();
    s.note("malformed descriptors (length 0, above MAX_LEN) are dropped, not stamped, and tx_bytes does not move");
    s.csr(csr::MAX_LEN, 1518);
    drain(&mut s, &[100], 100, 7, 0);
    for len in [0, 1519, 65535] {
        s.cycle(IntIn { deq_valid: 1, deq_len: len, now: 9, qlen_after: 500, ..Default::default() }.to_vec(), 1);
    }
    drain(&mut s, &[1518], 1518, 11, 0);
    s.note("rejected register writes: RATE 5..7 (reserved codes), BYTE_SHIFT 13, QLEN_SHIFT 16, MAX_LEN 0, unknown addresses");
    for (a, v) in [(csr::RATE, 5), (csr::RATE, 7), (csr::BYTE_SHIFT, 13), (csr::QLEN_SHIFT, 16), (csr::MAX_LEN, 0), (5, 0), (19, 1), (255, 1)] {
        s.csr(a, v);
    }
    drain(&mut s, &[64], 64, 13, 0);
    s.note("counters saturate at 2^32 - 1 (presets through CNT_* writes)");
    for k in 0..3u8 {
        s.csr(csr::CNT_BASE + k, 0xFFFF_FFFE);
    }
    drain(&mut s, &[64; 3], 192, 0, 1);
    s.cycle(IntIn { deq_valid: 1, deq_len: 0, ..Default::default() }.to_vec(), 3);
    s.csr(19, 0);
    s.csr(19, 0);
    s.cycle(IntIn::default().to_vec(), 1);
    s.ops
}

pub fn render() -> Vec<(&'static str, String)> {
    crate::cycle::render_files("INT stamping", "hdl/src/intstamp/vectors.rs", vec![("spec_fields.jsonl", spec_file()), ("robustness.jsonl", robustness_file())])
}

/// One clock of fuzz stimulus: dequeues in 70 % of clocks, random times and queue lengths
/// (large ones reach the qlen saturation), occasional register writes and byte-counter loads.
pub fn random_cycle(r: &mut Rng) -> Vec<u64> {
    let mut i = IntIn { now: r.next() & 0xFF_FFFF, qlen_after: if r.chance(20) { r.next() & 0xFFFF_FFFF } else { r.below(1 << 20) }, ..Default::default() };
    if r.chance(70) {
        i.deq_valid = 1;
        i.deq_len = if r.chance(3) { [0, 9217, 65535][r.below(3) as usize] } else { 1 + r.below(9216) };
    }
    (i.csr_we, i.csr_addr, i.csr_wdata) = r.csr_write(8, |r, choice| {
        Some(match choice {
            0 => (csr::RATE, r.below(8)),
            1 => (csr::BYTE_SHIFT, r.below(16)),
            2 => (csr::QLEN_SHIFT, r.below(17)),
            3 => (csr::MAX_LEN, r.below(10_000)),
            4 => (csr::TX_LOAD, r.next() & 0xFFFF_FFFF),
            5 => r.counter_near_wrap(csr::CNT_BASE, 3),
            _ => return None,
        })
    });
    i.to_vec()
}

#[cfg(test)]
mod spec_tests {
    use super::*;
    use crate::intstamp::model::IntStamp;
    use crate::intstamp::{pack_hop, IntOut};

    fn field(hop: u64, lo: u32, width: u32) -> u64 {
        (hop >> lo) & ((1 << width) - 1)
    }

    /// The record is the artifact's IntHop bit layout: lineRate:3, time:24, bytes:20, qlen:17
    /// from bit 0 up.
    #[test]
    fn hop_layout_matches_the_artifact() {
        let hop = pack_hop(4, 0xABCDEF, 0x12345, 0x1ABCD);
        assert_eq!((field(hop, 0, 3), field(hop, 3, 24), field(hop, 27, 20), field(hop, 47, 17)), (4, 0xABCDEF, 0x12345, 0x1ABCD));
    }

    /// §4.4: qLen equals the bytes queued after removal, txBytes is the total before this
    /// packet, and receivers recover Δbytes and τ modulo the field widths across both wraps.
    #[test]
    fn differences_survive_the_wraps() {
        let mut s = IntScript::default();
        s.csr(csr::BYTE_SHIFT, 0);
        s.csr(csr::QLEN_SHIFT, 0);
        s.csr(csr::TX_LOAD, (1 << 20) - 1500);
        let lens = [1000u64, 700, 1200, 64];
        let hops = drain(&mut s, &lens, 2964 + 5000, (1 << 24) - 100, 80);
        for k in 1..hops.len() {
            let dbytes = (field(hops[k], 27, 20) + (1 << 20) - field(hops[k - 1], 27, 20)) % (1 << 20);
            let dts = (field(hops[k], 3, 24) + (1 << 24) - field(hops[k - 1], 3, 24)) % (1 << 24);
            assert_eq!((dbytes, dts), (lens[k - 1], 80));
        }
        assert_eq!(field(hops[0], 47, 17), 2964 + 5000 - 1000);
        assert_eq!(field(hops[3], 47, 17), 5000);
    }

    #[test]
    fn malformed_descriptors_change_nothing() {
        let mut s = IntScript::default();
        drain(&mut s, &[100], 100, 0, 0);
        let before = s.model().clone();
        let o = IntOut::from_slice(&s.cycle(IntIn { deq_valid: 1, deq_len: 0, ..Default::default() }.to_vec(), 1));
        assert_eq!((o.drop, o.stamp_valid), (1, 0));
        assert_eq!(s.model().tx_bytes, before.tx_bytes);
        // the drop is counted at the next edge (the counters count a clock late)
        let o = IntOut::from_slice(&s.cycle(IntIn::default().to_vec(), 2));
        assert_eq!((o.cnt_stamped, o.cnt_malformed), (before.counters[0] + 1, 1));
    }

    /// Conservation: every dequeue is stamped or dropped as malformed, and tx_bytes moves by
    /// exactly the stamped lengths (mod 2^32) between byte-counter loads.
    #[test]
    fn fuzz_conserves_dequeues() {
        use crate::cycle::CycleModel;
        let mut m = IntStamp::default();
        let mut r = Rng::new(9);
        // dequeues before the last clock: the counters count an event at the edge after its clock
        let (mut deqs, mut last) = (0, 0);
        for _ in 0..100_000 {
            let mut i = IntIn::from_slice(&random_cycle(&mut r));
            if (csr::CNT_BASE..csr::CNT_BASE + 3).contains(&(i.csr_addr as u8)) || i.csr_addr == csr::TX_LOAD as u64 {
                i.csr_we = 0;
            }
            let before = m.tx_bytes;
            let o = IntOut::from_slice(&m.step(&i.to_vec()));
            assert_eq!(o.cnt_stamped + o.cnt_malformed, deqs);
            assert_eq!(m.tx_bytes, (before + o.stamp_valid * i.deq_len) & 0xFFFF_FFFF);
            deqs += last;
            last = i.deq_valid;
        }
        assert!(m.counters[1] > 1000, "{:?}", m.counters);
    }

    #[test]
    fn committed_vectors_are_fresh() {
        crate::cycle::assert_fresh("intstamp", render());
    }
}
