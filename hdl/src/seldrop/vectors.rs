//! Selective-drop vectors: GEMINI/FlashPass §5.2 tables S1–S7 row by row, the low-priority
//! label, malformed and inconsistent inputs, and the random stimulus of the differential fuzz.

use super::model::{Decision, SelDrop};
use super::{csr, SelDropIn, SelDropOut};
use crate::cycle::{Op, Rng, Script};
use std::collections::VecDeque;

pub type SelDropScript = Script<SelDrop>;

/// One row of a §5.2 table.
#[derive(Clone, Copy, Debug)]
pub enum Row {
    /// An arrival: ECN codepoint, length, low-priority label.
    Arrive(u64, u64, bool),
    /// "dequeue head".
    Deq,
}

/// Program unit, K, CAP and DROP_NON_ECT.
pub fn setup(s: &mut SelDropScript, bytes: bool, k: u64, cap: u64, drop_non_ect: bool) {
    s.csr(csr::UNIT, bytes as u64);
    s.csr(csr::K, k);
    s.csr(csr::CAP, cap);
    s.csr(csr::FLAGS, drop_non_ect as u64);
}

/// Run table rows back to back, one clock each, and an idle clock after them. The block decides
/// an arrival in the clock after it is presented (README *Latency*), so a row's decision and the
/// occupancy after it are read a clock after the row. The admitted lengths are kept in a FIFO so
/// a dequeue removes the head's length. Returns, per row, the decision (None for a dequeue), the
/// ECN out and the occupancy after the row in the configured unit.
pub fn run_rows(s: &mut SelDropScript, q: &mut VecDeque<u64>, rows: &[Row]) -> Vec<(Option<Decision>, u64, u64)> {
    let mut out = vec![];
    // the row presented last clock, decided in this one
    let mut staged: Option<SelDropIn> = None;
    for r in rows.iter().map(Some).chain([None]) {
        let i = match r {
            Some(&Row::Arrive(ecn, len, low)) => SelDropIn { arr_valid: 1, arr_ecn: ecn, arr_len: len, arr_low_prio: low as u64, ..Default::default() },
            Some(Row::Deq) => SelDropIn { deq_valid: 1, deq_len: q.pop_front().unwrap_or(0), ..Default::default() },
            None => SelDropIn::default(),
        };
        let decision = staged.filter(|p| p.arr_valid == 1).map(|p| s.model().core.decide(p.arr_len, p.arr_ecn, p.arr_low_prio == 1));
        let o = SelDropOut::from_slice(&s.cycle(i.to_vec(), 1));
        if let Some(p) = staged {
            if o.admit == 1 {
                q.push_back(p.arr_len);
            }
            let m = &s.model().core;
            out.push((decision, o.ecn_out, if m.bytes_unit { m.occ_bytes } else { m.occ_pkts }));
        }
        staged = Some(i);
    }
    out
}

/// Run `steps` back to back (per clock: the inputs, and whether a dequeue of the head goes with
/// them, its length taken from `q`) and an idle clock, keeping the admitted lengths in `q` as
/// `run_rows` does. Returns the outputs of the last clock: the decision on the last arrival.
pub fn run_steps(s: &mut SelDropScript, q: &mut VecDeque<u64>, steps: &[(SelDropIn, bool)]) -> SelDropOut {
    let mut staged: Option<u64> = None;
    let mut last = SelDropOut::default();
    for &(mut i, deq) in steps.iter().chain([&(SelDropIn::default(), false)]) {
        if deq {
            (i.deq_valid, i.deq_len) = (1, q.pop_front().unwrap_or(0));
        }
        let o = SelDropOut::from_slice(&s.cycle(i.to_vec(), 1));
        if let (Some(len), 1) = (staged, o.admit) {
            q.push_back(len);
        }
        staged = (i.arr_valid == 1).then_some(i.arr_len);
        last = o;
    }
    last
}

/// An ECT arrival of `len` bytes.
fn ect(len: u64) -> SelDropIn {
    SelDropIn { arr_valid: 1, arr_ecn: 2, arr_len: len, ..Default::default() }
}

/// The byte compares' boundaries after each outcome of the clock before (held, dequeued,
/// admitted, both), on an empty queue: `CAP` met exactly, then by one byte more; `K` met
/// exactly, then by one byte more. The queue holds two arrivals of `a` bytes when the probe
/// comes (a first one of 1,000 bytes dequeued where the case needs a dequeue), `a` 1,000 and
/// then 65,000, so `K` and `CAP` are above 2^16 and the outcome before the probe moves the byte
/// count's high half (README, *Byte count in halves*). Returns, per
/// case, (`a`, `CAP` case, one byte more, outcome, the probe's decision: admitted, marked,
/// tail-dropped).
pub fn boundaries(s: &mut SelDropScript, q: &mut VecDeque<u64>) -> Vec<(u64, bool, u64, usize, (u64, u64, u64))> {
    let mut out = vec![];
    s.csr(csr::MAX_LEN, 65_535);
    for a in [1000, 65_000] {
        for (cap, k, probe_k) in [(2 * a + 1000, 10 * a, false), (100 * a, 2 * a, true)] {
            setup(s, true, k, cap, true);
            for extra in [0, 1] {
                // (arrival length, dequeue of the head) per clock; the last arrival is the probe
                let b = if probe_k { a + extra } else { a };
                let probe = if probe_k { 64 } else { 1000 + extra };
                let idle = SelDropIn::default();
                let cases: [Vec<(SelDropIn, bool)>; 4] = [
                    vec![(ect(a), false), (ect(b), false), (idle, false), (ect(probe), false)],
                    vec![(ect(1000), false), (ect(a), false), (ect(b), false), (idle, true), (ect(probe), false)],
                    vec![(ect(a), false), (ect(b), false), (ect(probe), false)],
                    vec![(ect(1000), false), (ect(a), false), (ect(b), true), (ect(probe), false)],
                ];
                for (outcome, steps) in cases.iter().enumerate() {
                    let n = q.len();
                    run_rows(s, q, &vec![Row::Deq; n]);
                    let o = run_steps(s, q, steps);
                    out.push((a, !probe_k, extra, outcome, (o.admit, (o.ecn_out == 3) as u64, o.drop_full)));
                }
            }
        }
    }
    s.csr(csr::MAX_LEN, super::DEFAULT_MAX_LEN);
    out
}

/// `CAP` and `K` lowered far below the byte count (six arrivals of 60,000 bytes, five times
/// 2^16 and more): after a dequeue of 60,000 bytes an arrival is still tail-dropped (`CAP`
/// 40,000), then still marked (`K` 40,000), and two dequeues of 60,000 in a row both apply.
/// These are the cases where the low halves' sums are furthest below zero while the high
/// halves are furthest apart (README, *Byte count in halves*). Returns the probes' (admitted,
/// marked, tail-dropped) and the dequeues counted.
pub fn far_above(s: &mut SelDropScript, q: &mut VecDeque<u64>) -> Vec<(u64, u64, u64)> {
    let n = q.len();
    run_rows(s, q, &vec![Row::Deq; n]);
    setup(s, true, 1_000_000, 1_000_000, true);
    s.csr(csr::MAX_LEN, 65_535);
    let idle = SelDropIn::default();
    let fill = |s: &mut SelDropScript, q: &mut VecDeque<u64>| {
        let have = q.len();
        run_steps(s, q, &vec![(ect(60_000), false); 6 - have]);
    };
    fill(s, q);
    let mut out = vec![];
    s.csr(csr::CAP, 40_000);
    let o = run_steps(s, q, &[(idle, true), (ect(64), false)]);
    out.push((o.admit, (o.ecn_out == 3) as u64, o.drop_full));
    s.csr(csr::CAP, 1_000_000);
    fill(s, q);
    s.csr(csr::K, 40_000);
    let o = run_steps(s, q, &[(idle, true), (ect(64), false)]);
    out.push((o.admit, (o.ecn_out == 3) as u64, o.drop_full));
    let before = SelDropOut::from_slice(&s.cycle(idle.to_vec(), 1)).cnt_deq;
    run_steps(s, q, &[(idle, true), (idle, true)]);
    // the counters count a clock after the dequeue's clock (README, *Latency*)
    let after = SelDropOut::from_slice(&s.cycle(idle.to_vec(), 2)).cnt_deq;
    out.push((after - before, 0, 0));
    s.csr(csr::MAX_LEN, super::DEFAULT_MAX_LEN);
    out
}

/// A `K` or `CAP` write presented in the clock after the byte count's high half moved (1,000
/// bytes, then 65,000 more: 66,000), probed by the next arrival of 64 bytes: `K` 65,999 marks
/// it and 66,000 does not; `CAP` 66,063 tail-drops it and 66,064 does not. Returns the probes'
/// (admitted, marked, tail-dropped).
pub fn write_after_carry(s: &mut SelDropScript, q: &mut VecDeque<u64>) -> Vec<(u64, u64, u64)> {
    let idle = SelDropIn::default();
    let mut out = vec![];
    for (addr, value) in [(csr::K, 65_999), (csr::K, 66_000), (csr::CAP, 66_063), (csr::CAP, 66_064)] {
        let n = q.len();
        run_rows(s, q, &vec![Row::Deq; n]);
        setup(s, true, 1_000_000, 1_000_000, true);
        s.csr(csr::MAX_LEN, 65_535);
        let write = SelDropIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: value, ..idle };
        let o = run_steps(s, q, &[(ect(1000), false), (ect(65_000), false), (idle, false), (write, false), (ect(64), false)]);
        out.push((o.admit, (o.ecn_out == 3) as u64, o.drop_full));
    }
    s.csr(csr::MAX_LEN, super::DEFAULT_MAX_LEN);
    out
}

/// The byte count's 32-bit limit, in the packet unit with room for 100,000 packets: 65,537
/// arrivals of 65,535 bytes fill it to 2^32 − 1 exactly; then, after each outcome of the clock
/// before (held, a dequeue, an admission, both), an arrival that would pass 2^32 − 1 by one
/// byte is tail-dropped and one that meets it is admitted. Returns the probes' (admitted,
/// tail-dropped), in pairs: one byte too many, then exactly enough.
pub fn byte_limit(s: &mut SelDropScript, q: &mut VecDeque<u64>) -> Vec<(u64, u64)> {
    let n = q.len();
    run_rows(s, q, &vec![Row::Deq; n]);
    setup(s, false, 0xFFFF_FFFF, 100_000, false);
    s.csr(csr::MAX_LEN, 65_535);
    s.cycle(ect(65_535).to_vec(), 65_537);
    s.cycle(SelDropIn::default().to_vec(), 1);
    assert_eq!(s.model().core.occ_bytes, 0xFFFF_FFFF);
    let deq = |len| SelDropIn { deq_valid: 1, deq_len: len, ..Default::default() };
    let with_deq = |mut i: SelDropIn, len| {
        (i.deq_valid, i.deq_len) = (1, len);
        i
    };
    let idle = SelDropIn::default();
    // (clocks before the probe, the probe's length), the occupancy 2^32 − 1 before each case;
    // the probe is presented in a clock that holds, applies a dequeue, admits, or both
    let cases: [(Vec<SelDropIn>, u64); 10] = [
        (vec![deq(1), idle], 2),
        (vec![deq(1), idle], 1),
        (vec![deq(1)], 2),
        (vec![deq(1)], 1),
        (vec![deq(3), ect(1)], 3),
        (vec![deq(3), ect(1)], 2),
        (vec![deq(1000), with_deq(ect(500), 1000)], 1501),
        (vec![deq(1000), with_deq(ect(500), 1000)], 1500),
        // the high half moved down, then up, in the two clocks before the probe's
        (vec![deq(0xFFF0), deq(0x20), ect(0x20), idle], 0xFFF1),
        (vec![deq(0xFFF0), deq(0x20), ect(0x20), idle], 0xFFF0),
    ];
    let mut out = vec![];
    for (before, probe) in cases {
        for i in before {
            s.cycle(i.to_vec(), 1);
        }
        s.cycle(ect(probe).to_vec(), 1);
        let o = SelDropOut::from_slice(&s.cycle(idle.to_vec(), 1));
        out.push((o.admit, o.drop_full));
        // back to 2^32 − 1: the dequeues were applied, what was admitted is topped up
        let top = 0xFFFF_FFFF - s.model().core.occ_bytes;
        if top > 0 {
            s.cycle(ect(top).to_vec(), 1);
            s.cycle(idle.to_vec(), 1);
        }
        assert_eq!(s.model().core.occ_bytes, 0xFFFF_FFFF);
    }
    out
}

fn a(ecn: u64) -> Row {
    Row::Arrive(ecn, 84, false)
}
fn ab(ecn: u64, len: u64) -> Row {
    Row::Arrive(ecn, len, false)
}

/// A §5.2 table: name, (bytes, K, CAP, DROP_NON_ECT), rows.
pub struct Table {
    pub name: &'static str,
    pub cfg: (bool, u64, u64, bool),
    pub rows: Vec<Row>,
}

pub fn spec_tables() -> Vec<Table> {
    let emu = (false, 2, 8, true);
    vec![
        Table { name: "S1 alternating ordinary/over-provisioned, no dequeue", cfg: emu, rows: (0..12).map(|k| a(if k % 2 == 0 { 2 } else { 0 })).collect() },
        Table { name: "S2 10 ordinary packets", cfg: emu, rows: vec![a(2); 10] },
        Table { name: "S3 10 over-provisioned packets", cfg: emu, rows: vec![a(0); 10] },
        Table {
            name: "S4 mixed codepoints with dequeues",
            cfg: emu,
            rows: vec![a(2), a(1), a(0), a(3), a(0), Row::Deq, a(0), Row::Deq, a(0), a(0), Row::Deq, Row::Deq, a(0), a(2)],
        },
        Table { name: "S5a GEMINI port K=50 cap=450 drop_non_ect=1", cfg: (false, 50, 450, true), rows: [vec![a(2); 51], vec![a(0), a(3), a(0)]].concat() },
        Table { name: "S5b mark-only K=50 cap=450 drop_non_ect=0", cfg: (false, 50, 450, false), rows: [vec![a(2); 51], vec![a(0), a(3), a(0)]].concat() },
        Table {
            name: "S6 byte mode, K=3076 B, cap=200000 B",
            cfg: (true, 3076, 200_000, true),
            rows: vec![ab(2, 1538), ab(0, 1538), ab(0, 64), ab(0, 1538), ab(2, 1538), Row::Deq, Row::Deq, ab(0, 1538), ab(2, 64)],
        },
        Table { name: "S7 full buffer beats marking", cfg: emu, rows: [vec![a(2); 8], vec![a(2), a(0), a(3), Row::Deq, a(1), a(0)]].concat() },
        Table {
            name: "low-priority label: an ECT packet labelled low priority is dropped above K like Not-ECT",
            cfg: emu,
            rows: vec![a(2), a(2), a(2), Row::Arrive(2, 84, true), Row::Arrive(3, 84, true), a(1), Row::Deq, Row::Deq, Row::Deq, Row::Arrive(2, 84, true)],
        },
        Table {
            name: "low-priority label with DROP_NON_ECT=0: marked, not dropped",
            cfg: (false, 2, 8, false),
            rows: vec![a(2), a(2), a(2), Row::Arrive(2, 84, true), Row::Arrive(0, 84, true)],
        },
    ]
}

fn spec_file() -> Vec<Op> {
    let mut s = SelDropScript::default();
    for t in spec_tables() {
        s.note(t.name);
        let (bytes, k, cap, dne) = t.cfg;
        setup(&mut s, bytes, k, cap, dne);
        let mut q = VecDeque::new();
        run_rows(&mut s, &mut q, &t.rows);
        // drain so the next table starts empty
        let n = q.len();
        run_rows(&mut s, &mut q, &vec![Row::Deq; n]);
    }
    s.ops
}

fn robustness_file() -> Vec<Op> {
    let mut s = SelDropScript::default();
    s.note("malformed arrivals (length 0, above MAX_LEN) are dropped and counted; they change nothing");
    setup(&mut s, false, 2, 8, true);
    s.csr(csr::MAX_LEN, 1538);
    let mut q = VecDeque::new();
    run_rows(&mut s, &mut q, &[ab(2, 0), ab(2, 1539), ab(2, 1538), ab(0, 65535)]);
    s.note("inconsistent dequeues: empty queue, zero length, more bytes than queued; ignored and counted");
    s.cycle(SelDropIn { deq_valid: 1, deq_len: 0, ..Default::default() }.to_vec(), 1);
    s.cycle(SelDropIn { deq_valid: 1, deq_len: 2000, ..Default::default() }.to_vec(), 1);
    run_rows(&mut s, &mut q, &[Row::Deq]);
    s.cycle(SelDropIn { deq_valid: 1, deq_len: 10, ..Default::default() }.to_vec(), 1);
    s.note("an arrival and a dequeue in the same clock: the arrival sees the occupancy before the dequeue");
    run_rows(&mut s, &mut q, &[a(2), a(2), a(2)]);
    s.cycle(SelDropIn { arr_valid: 1, arr_ecn: 0, arr_len: 84, deq_valid: 1, deq_len: 84, ..Default::default() }.to_vec(), 1);
    s.cycle(SelDropIn { arr_valid: 1, arr_ecn: 2, arr_len: 84, deq_valid: 1, deq_len: 84, ..Default::default() }.to_vec(), 1);
    s.note("CAP lowered below the occupancy: every arrival is tail-dropped until the queue drains");
    s.csr(csr::CAP, 1);
    let mut q: VecDeque<u64> = VecDeque::from(vec![84; s.model().core.occ_pkts as usize]);
    run_rows(&mut s, &mut q, &[a(2), a(0), Row::Deq, a(2), Row::Deq, a(2), a(2)]);
    s.note("unit switch keeps the queue: byte thresholds apply to the bytes already queued");
    setup(&mut s, true, 100, 300, true);
    run_rows(&mut s, &mut q, &[a(0), a(2), a(0), a(2), a(2)]);
    s.note("writes in flight: K, CAP and MAX_LEN written while arrivals come back to back, on an empty queue; an arrival presented in a write's clock is judged by the old value, the next one by the new (README, Latency)");
    setup(&mut s, false, 2, 8, true);
    let n = q.len();
    run_rows(&mut s, &mut q, &vec![Row::Deq; n]);
    assert_eq!((s.model().core.occ_pkts, s.model().core.occ_bytes), (0, 0), "the queue is drained");
    for (addr, data) in [(csr::K, 0), (csr::K, 2), (csr::CAP, 1), (csr::CAP, 8), (csr::MAX_LEN, 100), (csr::MAX_LEN, 9216)] {
        let written = SelDropIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..ect(120) };
        run_steps(&mut s, &mut q, &[(ect(84), false), (written, false), (ect(120), false)]);
        let n = q.len();
        run_rows(&mut s, &mut q, &vec![Row::Deq; n]);
    }
    s.note("boundaries after each outcome of the clock before (held, dequeued, admitted, both): bytes that meet CAP exactly fit and one more byte does not; bytes at K are not above it and one more byte is");
    boundaries(&mut s, &mut q);
    s.note("CAP and K lowered far below a byte count of five times 2^16 and more: after a large dequeue an arrival is still tail-dropped, then still marked, and two large dequeues in a row both apply");
    far_above(&mut s, &mut q);
    s.note("K and CAP written in the clock after the byte count's high half moved, then probed");
    write_after_carry(&mut s, &mut q);
    s.note("the byte count's 32-bit limit: 65,537 arrivals of 65,535 bytes fill it to 2^32 - 1; after each outcome of the clock before, one byte more is tail-dropped and exactly enough is admitted");
    byte_limit(&mut s, &mut q);
    s.note("rejected register writes: UNIT 2, MAX_LEN 0, unknown addresses");
    for (addr, v) in [(csr::UNIT, 2), (csr::MAX_LEN, 0x1_0000), (5, 1), (15, 1), (24, 1), (255, 7)] {
        s.csr(addr, v);
    }
    s.note("counters saturate at 2^32 - 1 (presets through CNT_* writes)");
    for k in 0..8u8 {
        s.csr(csr::CNT_BASE + k, 0xFFFF_FFFE);
    }
    setup(&mut s, false, 0, 3, true);
    let rows: Vec<Row> = [ab(2, 64), ab(2, 64), ab(0, 64), ab(2, 64), ab(2, 64), ab(2, 0), ab(2, 0)].to_vec();
    run_rows(&mut s, &mut q, &rows);
    for _ in 0..4 {
        run_rows(&mut s, &mut q, &[Row::Deq]);
    }
    s.cycle(SelDropIn { deq_valid: 1, deq_len: 1, ..Default::default() }.to_vec(), 3);
    s.csr(24, 0);
    s.csr(24, 0);
    s.ops
}

pub fn render() -> Vec<(&'static str, String)> {
    crate::cycle::render_files("Selective-drop", "hdl/src/seldrop/vectors.rs", vec![("spec_tables.jsonl", spec_file()), ("robustness.jsonl", robustness_file())])
}

/// A threshold near a multiple of 2^16 (1 to 6 of them, within 2,048 bytes), where the byte
/// count's halves meet (`next_state.rs`).
fn near_half(r: &mut Rng) -> u64 {
    ((1 + r.below(6)) << 16) + r.below(4096) - 2048
}

/// One clock of fuzz stimulus: arrivals in half the clocks, dequeues in 40 %, small thresholds
/// so every row of the table is reached, thresholds above 2^16 so the byte count's high half
/// moves against them, occasional (valid and invalid) register writes.
pub fn random_cycle(r: &mut Rng) -> Vec<u64> {
    let mut i = SelDropIn::default();
    if r.chance(50) {
        i.arr_valid = 1;
        i.arr_ecn = r.below(4);
        i.arr_low_prio = r.chance(20) as u64;
        // lengths in multiples of 64 a third of the time, and `K` and `CAP` a fifth, so a byte
        // count meets `K` or `CAP` exactly (the compares' boundaries)
        i.arr_len = if r.chance(3) { [0, 9217, 65535][r.below(3) as usize] } else if r.chance(33) { 64 * (1 + r.below(23)) } else { 64 + r.below(1475) };
    }
    if r.chance(40) {
        i.deq_valid = 1;
        i.deq_len = if r.chance(10) { 65_535 - r.below(16) } else if r.chance(5) { r.below(65536) } else if r.chance(33) { 64 * (1 + r.below(23)) } else { 64 + r.below(1475) };
    }
    (i.csr_we, i.csr_addr, i.csr_wdata) = r.csr_write(8, |r, choice| {
        Some(match choice {
            0 => (csr::UNIT, r.below(3)),
            1 => (csr::K, [r.below(10), r.below(20_000), 64 * r.below(300), near_half(r), r.below(1 << 18)][r.below(5) as usize]),
            2 => (csr::CAP, [r.below(16), r.below(40_000), 64 * r.below(600), near_half(r), r.below(1 << 20)][r.below(5) as usize]),
            3 => (csr::FLAGS, r.below(4)),
            4 => (csr::MAX_LEN, r.below(10_000)),
            5 => r.counter_near_wrap(csr::CNT_BASE, 8),
            _ => return None,
        })
    });
    i.to_vec()
}

#[cfg(test)]
mod spec_tests {
    use super::*;
    use crate::cycle::CycleModel;
    use Decision::*;

    fn table(name: &str) -> Vec<(Option<Decision>, u64, u64)> {
        let t = spec_tables().into_iter().find(|t| t.name.starts_with(name)).unwrap();
        let mut s = SelDropScript::default();
        let (b, k, c, d) = t.cfg;
        setup(&mut s, b, k, c, d);
        run_rows(&mut s, &mut VecDeque::new(), &t.rows)
    }
    fn decisions(v: &[(Option<Decision>, u64, u64)]) -> Vec<Option<Decision>> {
        v.iter().map(|r| r.0).collect()
    }
    fn occ(v: &[(Option<Decision>, u64, u64)]) -> Vec<u64> {
        v.iter().map(|r| r.2).collect()
    }

    #[test]
    fn s1_s2_s3() {
        let s1 = table("S1");
        let want: Vec<_> = [Enq, Enq, Enq, DropSel, Mark, DropSel, Mark, DropSel, Mark, DropSel, Mark, DropSel].map(Some).to_vec();
        assert_eq!(decisions(&s1), want);
        assert_eq!(occ(&s1), vec![1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
        assert_eq!(s1[4].1, 3, "marked packets leave as CE");
        let s2 = table("S2");
        assert_eq!(decisions(&s2), [Enq, Enq, Enq, Mark, Mark, Mark, Mark, Mark, DropFull, DropFull].map(Some).to_vec());
        assert_eq!(occ(&s2), vec![1, 2, 3, 4, 5, 6, 7, 8, 8, 8]);
        let s3 = table("S3");
        assert_eq!(decisions(&s3), [vec![Some(Enq); 3], vec![Some(DropSel); 7]].concat());
        assert_eq!(occ(&s3), [vec![1, 2], vec![3; 8]].concat());
    }

    #[test]
    fn s4_mixed_with_dequeues() {
        let s4 = table("S4");
        let want = vec![Some(Enq), Some(Enq), Some(Enq), Some(Mark), Some(DropSel), None, Some(DropSel), None, Some(Enq), Some(DropSel), None, None, Some(Enq), Some(Enq)];
        assert_eq!(decisions(&s4), want);
        assert_eq!(occ(&s4), vec![1, 2, 3, 4, 4, 3, 3, 2, 3, 3, 2, 1, 2, 3]);
        assert_eq!(s4[3].1, 3);
    }

    #[test]
    fn s5_s6_s7() {
        let s5a = table("S5a");
        assert_eq!(decisions(&s5a[47..]), [Enq, Enq, Enq, Enq, DropSel, Mark, DropSel].map(Some).to_vec());
        assert_eq!(occ(&s5a[47..]), vec![48, 49, 50, 51, 51, 52, 52]);
        let s5b = table("S5b");
        assert_eq!(decisions(&s5b[47..]), [Enq, Enq, Enq, Enq, Enq, Mark, Enq].map(Some).to_vec());
        assert_eq!(occ(&s5b[47..]), vec![48, 49, 50, 51, 52, 53, 54]);
        let s6 = table("S6");
        assert_eq!(decisions(&s6), vec![Some(Enq), Some(Enq), Some(Enq), Some(DropSel), Some(Mark), None, None, Some(Enq), Some(Mark)]);
        assert_eq!(occ(&s6), vec![1538, 3076, 3140, 3140, 4678, 3140, 1602, 3140, 3204]);
        let s7 = table("S7");
        assert_eq!(decisions(&s7[7..]), vec![Some(Mark), Some(DropFull), Some(DropFull), Some(DropFull), None, Some(Mark), Some(DropFull)]);
        assert_eq!(occ(&s7[7..]), vec![8, 8, 8, 8, 7, 8, 8]);
    }

    #[test]
    fn low_priority_label() {
        let t = table("low-priority label: ");
        assert_eq!(t[3].0, Some(DropSel));
        assert_eq!(t[4].0, Some(DropSel), "a CE packet labelled low priority is droppable too");
        assert_eq!(t[5].0, Some(Mark));
        assert_eq!(t[9].0, Some(Enq), "below K the label does not matter");
        let t = table("low-priority label with");
        assert_eq!((t[3].0, t[4].0), (Some(Mark), Some(Enq)));
    }

    /// The latency rule (README, *Latency*): a decision comes a clock after its arrival, and
    /// a write applies to the arrivals presented after its clock, not to the one beside it.
    #[test]
    fn a_write_applies_from_the_next_arrival() {
        for (addr, data, last) in [(csr::K, 0, Mark), (csr::CAP, 1, DropFull), (csr::MAX_LEN, 100, DropBad)] {
            let mut m = SelDrop::default();
            let written = SelDropIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..ect(120) };
            let outs: Vec<SelDropOut> = [ect(84), written, ect(120), SelDropIn::default()]
                .iter()
                .map(|i| SelDropOut::from_slice(&m.step(&i.to_vec())))
                .collect();
            let decided: Vec<_> = outs.iter().map(|o| (o.admit, o.ecn_out, o.drop_full, o.drop_bad)).collect();
            assert_eq!(decided[0], (0, 0, 0, 0), "nothing is decided in the arrival's own clock");
            assert_eq!(&decided[1..3], &[(1, 2, 0, 0), (1, 2, 0, 0)], "register {addr}: the arrival beside the write is judged by the old value");
            let want = match last {
                Mark => (1, 3, 0, 0),
                DropFull => (0, 2, 1, 0),
                _ => (0, 2, 0, 1),
            };
            assert_eq!(decided[3], want, "register {addr}: the next arrival is judged by the new value");
        }
    }

    /// The boundaries of the byte compares, after each outcome of the clock before: the
    /// probe fits when the bytes meet `CAP` exactly and is tail-dropped one byte over; it is
    /// not marked at `K` exactly and is marked one byte over.
    #[test]
    fn byte_boundaries_after_every_outcome() {
        let mut s = SelDropScript::default();
        let cases = boundaries(&mut s, &mut VecDeque::new());
        assert_eq!(cases.len(), 32);
        for (a, cap_case, extra, outcome, decided) in cases {
            let want = match (cap_case, extra) {
                (true, 0) => (1, 0, 0),
                (true, _) => (0, 0, 1),
                (false, 0) => (1, 0, 0),
                (false, _) => (1, 1, 0),
            };
            assert_eq!(decided, want, "a = {a}, CAP case {cap_case}, one byte more: {extra}, outcome {outcome}");
        }
    }

    #[test]
    fn far_above_cap_and_k() {
        let mut s = SelDropScript::default();
        assert_eq!(far_above(&mut s, &mut VecDeque::new()), [(0, 0, 1), (1, 1, 0), (2, 0, 0)]);
    }

    #[test]
    fn a_write_lands_on_a_moving_high_half() {
        let mut s = SelDropScript::default();
        assert_eq!(write_after_carry(&mut s, &mut VecDeque::new()), [(1, 1, 0), (1, 0, 0), (0, 0, 1), (1, 0, 0)]);
    }

    /// An arrival that would pass 2^32 − 1 bytes is tail-dropped whatever the unit, and one that
    /// meets it is admitted, after each outcome of the clock before.
    #[test]
    fn the_byte_count_stops_at_its_32_bit_limit() {
        let mut s = SelDropScript::default();
        let probes = byte_limit(&mut s, &mut VecDeque::new());
        assert_eq!(probes, [(0, 1), (1, 0)].repeat(5));
    }

    /// Conservation over a long random run: arrivals = enq + drops, occupancy = enq − deq.
    #[test]
    fn fuzz_conserves_arrivals() {
        let mut m = SelDrop::default();
        let mut r = Rng::new(3);
        // an arrival is decided a clock after it is presented and the counters count a decision
        // at the edge after its clock: they match the arrivals of three clocks before and the
        // occupancy of one clock before
        let (mut arrivals, mut last_arrivals, mut last_occ) = (0, [0u64; 2], 0);
        for _ in 0..100_000 {
            let mut i = SelDropIn::from_slice(&random_cycle(&mut r));
            if (csr::CNT_BASE..csr::CNT_BASE + 8).contains(&(i.csr_addr as u8)) {
                i.csr_we = 0;
            }
            let o = SelDropOut::from_slice(&m.step(&i.to_vec()));
            assert_eq!(o.cnt_enq + o.cnt_drop_sel + o.cnt_drop_full + o.cnt_malformed, arrivals);
            assert_eq!(last_occ, o.cnt_enq - o.cnt_deq);
            arrivals += last_arrivals[1];
            (last_arrivals, last_occ) = ([i.arr_valid, last_arrivals[0]], o.occ_pkts);
        }
        let c = &m.core.counters;
        assert!(c[1] > 100 && c[2] > 100 && c[3] > 100, "{:?}", c);
    }

    #[test]
    fn committed_vectors_are_fresh() {
        crate::cycle::assert_fresh("seldrop", render());
    }
}
