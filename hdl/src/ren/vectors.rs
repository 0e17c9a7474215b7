//! REN vectors: the spec's block vectors (REN §5) as timelines, run in every budget mode,
//! and the random stimulus of the differential fuzz. The generator writes
//! `testbench-vectors/ren/`; the spec tests below check the model against the printed values.

use super::model::Ren;
use super::{csr, Mode, RenIn, RenOut};
use crate::cycle::{Op, Rng, Script};

pub type RenScript = Script<Ren>;

/// Program a configuration and restart the period: the next clock is cycle 0 of period 0.
pub fn setup(s: &mut RenScript, mode: Mode, mss: u64, period: u64, flags: u64) {
    s.csr(csr::MODE, mode as u64);
    s.csr(csr::FLAGS, flags);
    s.csr(csr::MSS, mss);
    s.csr(csr::PERIOD, period);
    s.csr(csr::STATE_CLEAR, 0);
}

/// A dequeue in a timeline: cycle, data (else grant), incoming code, length.
#[derive(Clone, Copy, Debug)]
pub struct Deq {
    pub t: u64,
    pub data: bool,
    pub ecn: u64,
    pub len: u64,
}

pub fn d(t: u64, ecn: u64) -> Deq {
    Deq { t, data: true, ecn, len: 100 }
}
pub fn g(t: u64) -> Deq {
    Deq { t, data: false, ecn: 0, len: 64 }
}

/// Drive cycles `0..cycles` of a timeline: `q(t)` packets queued, `idle(t)` idle bytes, and the
/// dequeues. The block judges over two clocks (the README's *Latency*), so clock `t` presents
/// cycle `t`'s early pins (all but `deq_valid` and `deq_ecn`) with cycle `t − 1`'s late ones,
/// and cycle `t`'s outputs show at clock `t + 1`; a timeline whose last cycle has outputs to
/// read ends with one clock more, of zero pins. Runs of identical clocks become one op; every
/// clock that shows a dequeue's outputs or a period's first cycle ends its op. Returns the
/// outputs of the dequeue cycles in order, and the outputs of the first cycle of each period
/// after the first (the latched values).
pub fn timeline(
    s: &mut RenScript,
    cycles: u64,
    period: u64,
    q: impl Fn(u64) -> u64,
    idle: impl Fn(u64) -> u64,
    deqs: &[Deq],
) -> (Vec<RenOut>, Vec<RenOut>) {
    let deq = |t: u64| deqs.iter().find(|x| x.t == t);
    let latched_at = |t: u64| t > 0 && t % period == 0;
    // cycle t's outputs are read at clock t + 1
    let read = |c: u64| c > 0 && (deq(c - 1).is_some() || latched_at(c - 1));
    let clock = |c: u64| {
        let mut i = RenIn::default();
        if c < cycles {
            (i.q_pkts, i.idle_bytes) = (q(c), idle(c));
            if let Some(x) = deq(c) {
                (i.deq_is_data, i.deq_len) = (x.data as u64, x.len);
            }
        }
        if let Some(x) = c.checked_sub(1).and_then(deq) {
            (i.deq_valid, i.deq_ecn) = (1, x.ecn);
        }
        i
    };
    let clocks = if read(cycles) { cycles + 1 } else { cycles };
    let (mut codes, mut latched) = (vec![], vec![]);
    let mut c = 0;
    while c < clocks {
        let i = clock(c);
        let mut n = 1;
        while !read(c + n - 1) && c + n < clocks && clock(c + n) == i {
            n += 1;
        }
        let out = RenOut::from_slice(&s.cycle(i.to_vec(), n as u32));
        let t = c + n - 1;
        if read(t) && deq(t - 1).is_some() {
            codes.push(out);
        }
        if read(t) && latched_at(t - 1) {
            latched.push(out);
        }
        c += n;
    }
    (codes, latched)
}

/// Config U (REN §5): BPC 1, MSS 100 B, period 1000 cycles.
pub const U_MSS: u64 = 100;
pub const U_PERIOD: u64 = 1000;

/// A config-U scenario: name, cycles, queue, idle, dequeues.
pub struct Scenario {
    pub name: &'static str,
    pub cycles: u64,
    pub q: Box<dyn Fn(u64) -> u64>,
    pub idle: Box<dyn Fn(u64) -> u64>,
    pub deqs: Vec<Deq>,
}

fn every(from: u64, to: u64, step: u64, ecn: u64) -> Vec<Deq> {
    (from..to).step_by(step as usize).map(|t| d(t, ecn)).collect()
}

/// The config-U vectors of REN §5 (V1–V13 except the structural ones).
pub fn config_u_scenarios() -> Vec<Scenario> {
    let busy_in = |a: u64, b: u64| move |t: u64| if (a..b).contains(&t) { 0 } else { 1 };
    vec![
        Scenario { name: "V1 idle then under", cycles: 2000, q: Box::new(|_| 0), idle: Box::new(busy_in(1000, 1300)), deqs: every(1000, 1300, 100, 0) },
        Scenario { name: "V2 full, no queue", cycles: 2000, q: Box::new(|_| 0), idle: Box::new(|_| 0), deqs: every(0, 2000, 100, 0) },
        Scenario { name: "V3 standing queue", cycles: 2000, q: Box::new(|_| 4), idle: Box::new(|_| 0), deqs: every(0, 2000, 100, 0) },
        Scenario {
            name: "V4 idle then burst",
            cycles: 2000,
            q: Box::new(|t| if t < 300 { 0 } else { 11u64.saturating_sub((t - 300) / 100) }),
            idle: Box::new(|t| if (300..1500).contains(&t) { 0 } else { 1 }),
            deqs: every(300, 1500, 100, 0),
        },
        Scenario {
            name: "V4b short burst",
            cycles: 1000,
            q: Box::new(|t| if t < 600 { 0 } else { 5 - (t - 600) / 100 }),
            idle: Box::new(|t| (t < 600) as u64),
            deqs: every(600, 1000, 100, 0),
        },
        Scenario {
            name: "V5 drain then idle",
            cycles: 1000,
            q: Box::new(|t| if t < 400 { 3 - t / 100 } else { 0 }),
            idle: Box::new(|t| (t >= 400) as u64),
            deqs: every(0, 400, 100, 0),
        },
        Scenario {
            name: "V6 ql equals ti",
            cycles: 2000,
            q: Box::new(|t| if t < 300 { 0 } else { 9u64.saturating_sub((t - 300) / 100) }),
            idle: Box::new(|t| if (300..1300).contains(&t) { 0 } else { 1 }),
            deqs: every(300, 1300, 100, 0),
        },
        Scenario {
            name: "V7 rounding: 299/300/301 idle cycles",
            cycles: 3000,
            q: Box::new(|_| 0),
            idle: Box::new(|t| ((t % 1000) < 299 + t / 1000) as u64),
            deqs: vec![],
        },
        Scenario { name: "V8 sum of gaps", cycles: 2000, q: Box::new(|_| 0), idle: Box::new(|t| (t % 125 >= 100) as u64), deqs: every(0, 2000, 125, 0) },
        Scenario {
            name: "V9a a grant is busy time",
            cycles: 1000,
            q: Box::new(|_| 0),
            idle: Box::new(|t| (t >= 964) as u64),
            deqs: every(0, 900, 100, 0).into_iter().chain([g(900)]).collect(),
        },
        Scenario {
            name: "V9b grants are not marked",
            cycles: 2000,
            q: Box::new(|t| if t < 1000 { 2 } else { 0 }),
            idle: Box::new(|_| 0),
            deqs: vec![g(1000), d(1064, 0), g(1164), d(1228, 0), d(1328, 0)],
        },
        Scenario {
            name: "V10 merge table, over budget",
            cycles: 2000,
            q: Box::new(|t| if t < 1000 { 4 } else { 0 }),
            idle: Box::new(|_| 0),
            deqs: vec![d(1000, 0), d(1100, 1), d(1200, 2), d(1300, 3)],
        },
        Scenario {
            name: "V10 merge table, under budget",
            cycles: 2000,
            q: Box::new(|_| 0),
            idle: Box::new(|t| (t < 1000) as u64),
            deqs: vec![d(1000, 0), d(1100, 1), d(1200, 2), d(1300, 3)],
        },
        Scenario {
            name: "V10 merge table, no budget",
            cycles: 2000,
            q: Box::new(|_| 0),
            idle: Box::new(|_| 0),
            deqs: vec![d(1000, 0), d(1100, 1), d(1200, 2), d(1300, 3)],
        },
        Scenario {
            name: "V10b consume on higher",
            cycles: 2000,
            q: Box::new(|t| if t < 1000 { 2 } else { 0 }),
            idle: Box::new(|_| 0),
            deqs: vec![d(1000, 2), d(1100, 0), d(1200, 0)],
        },
        Scenario {
            name: "V11 leftover budget discarded",
            cycles: 2100,
            q: Box::new(|t| if t < 1000 { 5 } else { 0 }),
            idle: Box::new(|t| if t < 1000 || (2000..2100).contains(&t) { 0 } else { (t >= 1200) as u64 }),
            deqs: vec![d(1000, 0), d(1100, 0), d(2000, 0)],
        },
        Scenario { name: "V12 no carry across idle periods", cycles: 3100, q: Box::new(|_| 0), idle: Box::new(|t| (t < 3000) as u64), deqs: vec![d(3000, 0)] },
        Scenario {
            name: "V13 dequeue in the boundary cycle",
            cycles: 2100,
            q: Box::new(|t| (t < 1000) as u64),
            idle: Box::new(|t| if t < 1000 || t >= 1999 { 0 } else { 1 }),
            deqs: vec![d(1999, 0), d(2000, 0)],
        },
    ]
}

/// Run one config-U scenario in `mode` on a fresh script segment; returns dequeue codes and the
/// latched outputs of each later period's first cycle.
pub fn run_u(s: &mut RenScript, sc: &Scenario, mode: Mode, flags: u64) -> (Vec<RenOut>, Vec<RenOut>) {
    s.note(format!("{} (config U, mode {mode:?}, flags {flags:#b})", sc.name));
    setup(s, mode, U_MSS, U_PERIOD, flags);
    timeline(s, sc.cycles, U_PERIOD, &sc.q, &sc.idle, &sc.deqs)
}

const MODES: [Mode; 3] = [Mode::A, Mode::ANet, Mode::B];

fn spec_file() -> Vec<Op> {
    let mut s = RenScript::default();
    for mode in MODES {
        for sc in config_u_scenarios() {
            run_u(&mut s, &sc, mode, super::DEFAULT_FLAGS);
        }
    }
    // V7 with TI_STRICT, V10b without CONSUME_ON_HIGHER
    for sc in config_u_scenarios().iter().filter(|sc| sc.name.starts_with("V7") || sc.name.starts_with("V10")) {
        run_u(&mut s, sc, Mode::A, if sc.name.starts_with("V7") { 0b11 } else { 0b00 });
    }
    s.ops
}

/// V14 (config TB10), V15 (Ethernet overhead, scaled), V18 (state clear), V19 (saturation at
/// the RTL's 16 bits), malformed descriptors, clamped idle input, rejected register writes,
/// counter presets and saturation.
fn structural_file() -> Vec<Op> {
    let mut s = RenScript::default();
    s.note("V14 config TB10: BPC 8, MSS 1500, period 7500; idle 187/188/375/7500 cycles give ti 0/1/2/40");
    setup(&mut s, Mode::ANet, 1500, 7500, super::DEFAULT_FLAGS);
    let idle_cycles = [187u64, 188, 375, 7500];
    timeline(&mut s, 7500 * 4 + 1, 7500, |_| 0, |t| if (t % 7500) < idle_cycles[(t / 7500).min(3) as usize] { 8 } else { 0 }, &[]);

    s.note("V15 scaled: BPC 2, MSS 1500, a 125,000-byte period; 1518 B frames back to back with 20 B preamble+IFG reported busy give ti 0");
    setup(&mut s, Mode::ANet, 1500, 62_500, super::DEFAULT_FLAGS);
    let frames: Vec<Deq> = (0..62_500 + 1).step_by(769).map(|t| Deq { t, data: true, ecn: 0, len: 1518 }).collect();
    timeline(&mut s, 62_501, 62_500, |_| 0, |_| 0, &frames);
    s.note("V15 contrast: the same frames with the 20 B gap wrongly reported idle give ti 1 per 125,000 B (10 per 1,250,000 B)");
    setup(&mut s, Mode::ANet, 1500, 62_500, super::DEFAULT_FLAGS);
    timeline(&mut s, 62_501, 62_500, |_| 0, |t| if t % 769 >= 759 { 2 } else { 0 }, &frames);

    s.note("V18 state clear mid-period: 300 idle bytes and over = 3, clear at cycle 500, next data packet is 01");
    setup(&mut s, Mode::A, U_MSS, U_PERIOD, super::DEFAULT_FLAGS);
    timeline(&mut s, 1000, U_PERIOD, |_| 3, |_| 0, &[]);
    timeline(&mut s, 500, U_PERIOD, |_| 0, |t| (t < 300) as u64, &[]);
    s.csr(csr::STATE_CLEAR, 0);
    timeline(&mut s, 1000, U_PERIOD, |_| 0, |_| 0, &[d(10, 0)]);

    s.note("V19 at 16 bits: MSS 1, period 70,000, all idle: ti saturates at 65,535");
    setup(&mut s, Mode::A, 1, 70_000, super::DEFAULT_FLAGS);
    timeline(&mut s, 70_001, 70_000, |_| 0, |_| 1, &[]);
    s.note("V19 at 16 bits: q 300,000 packets: ql saturates at 65,535 and so does the over budget");
    setup(&mut s, Mode::A, 1, 1000, super::DEFAULT_FLAGS);
    timeline(&mut s, 1001, 1000, |_| 300_000, |_| 0, &[]);

    s.note("V19 in mode B: ti climbs to its 65,535 ceiling while data packets leave a queue of 300,000 (ql 65,535): over until ti + the over marks reach 65,535, then full");
    mode_b_ceiling(&mut s);

    s.note("malformed descriptors (length 0, length above MAX_LEN) are dropped, counted, and consume no budget");
    setup(&mut s, Mode::A, U_MSS, U_PERIOD, super::DEFAULT_FLAGS);
    s.csr(csr::MAX_LEN, 1500);
    let bad = [Deq { t: 1000, data: true, ecn: 0, len: 0 }, Deq { t: 1001, data: true, ecn: 0, len: 1501 }, Deq { t: 1002, data: true, ecn: 0, len: 1500 }, d(1003, 0)];
    timeline(&mut s, 1100, U_PERIOD, |t| (t < 1000) as u64, |_| 0, &bad);

    s.note("idle input above MSS is clamped to MSS and counted");
    setup(&mut s, Mode::A, 2, 10, super::DEFAULT_FLAGS);
    timeline(&mut s, 11, 10, |_| 0, |t| if t < 5 { 3 } else { 2 }, &[]);

    s.note("rejected register writes: MODE 3, MSS 0, PERIOD 0, MAX_LEN 0, unknown address; each counted, nothing changes");
    for (a, v) in [(csr::MODE, 3), (csr::MSS, 0), (csr::PERIOD, 0), (csr::MAX_LEN, 0x1_0000), (9, 1), (23, 5)] {
        s.csr(a, v);
    }
    timeline(&mut s, 10, 10, |_| 1, |_| 0, &[d(3, 0)]);

    s.note("counters saturate at 2^32 - 1 (presets through CNT_* writes)");
    for k in 0..7u8 {
        s.csr(csr::CNT_BASE + k, 0xFFFF_FFFE);
    }
    setup(&mut s, Mode::A, U_MSS, 4, super::DEFAULT_FLAGS);
    let many: Vec<Deq> = (0..8).map(|t| Deq { t, data: t % 2 == 0, ecn: 0, len: if t == 7 { 0 } else { 64 } }).collect();
    timeline(&mut s, 12, 4, |t| if t < 4 { 0 } else { 9 }, |t| 200 * (t < 2) as u64, &many);
    s.ops
}

/// Mode B at the 16-bit ceiling (MSS 1, all idle, a 70,000-clock period): from cycle 65,525 a
/// data packet leaves every cycle from a queue of 300,000. Returns their codes.
fn mode_b_ceiling(s: &mut RenScript) -> Vec<u64> {
    setup(s, Mode::B, 1, 70_000, super::DEFAULT_FLAGS);
    let deqs: Vec<Deq> = (65_525..65_545).map(|t| d(t, 0)).collect();
    let (c, _) = timeline(s, 65_550, 70_000, |t| if t >= 65_525 { 300_000 } else { 0 }, |_| 1, &deqs);
    c.iter().map(|o| o.ecn_out).collect()
}

/// The generated files, exactly as committed.
pub fn render() -> Vec<(&'static str, String)> {
    crate::cycle::render_files("REN counter", "hdl/src/ren/vectors.rs", vec![("spec_config_u.jsonl", spec_file()), ("structural.jsonl", structural_file())])
}

/// One clock of random stimulus for the differential fuzz: dequeues in 40 % of clocks (data,
/// grants, every codepoint, now and then malformed), random idle and queue, occasional register
/// writes (valid and invalid) that keep periods short enough for boundaries to be frequent.
pub fn random_cycle(r: &mut Rng) -> Vec<u64> {
    let idle_max = if r.chance(95) { 9 } else { 256 };
    let mut i = RenIn { idle_bytes: if r.chance(50) { 0 } else { r.below(idle_max) }, ..Default::default() };
    i.q_pkts = match r.below(10) {
        0 => r.below(1 << 20),
        1..=3 => 0,
        _ => r.below(20),
    };
    if r.chance(40) {
        i.deq_valid = 1;
        i.deq_is_data = r.chance(80) as u64;
        i.deq_ecn = r.below(4);
        i.deq_len = if r.chance(3) { [0, 65535, 9217][r.below(3) as usize] } else { 64 + r.below(1500) };
    }
    (i.csr_we, i.csr_addr, i.csr_wdata) = r.csr_write(10, |r, choice| {
        Some(match choice {
            0 => (csr::MODE, r.below(4)),
            1 => (csr::FLAGS, r.below(4)),
            // small MSS values land the residue on exact multiples (TI_STRICT's case) often
            2 => (csr::MSS, if r.chance(10) { 0 } else if r.chance(40) { 1 + r.below(8) } else { 1 + r.below(300) }),
            // short periods put marks in and right after boundary clocks (the budgets' two-clock load)
            3 => (csr::PERIOD, if r.chance(10) { 0 } else if r.chance(50) { 1 + r.below(16) } else { 1 + r.below(400) }),
            4 => (csr::MAX_LEN, r.below(2000)),
            5 => (csr::STATE_CLEAR, 0),
            6 => r.counter_near_wrap(csr::CNT_BASE, 7),
            _ => return None,
        })
    });
    i.to_vec()
}

/// Conservation on the outputs: every dequeue so far is in exactly one counter.
pub fn counted(o: &RenOut) -> u64 {
    o.cnt_over + o.cnt_under + o.cnt_full + o.cnt_pass + o.cnt_malformed
}

#[cfg(test)]
mod spec_tests {
    use super::*;
    use crate::cycle::{CycleModel, ModelDut, Dut};

    fn codes(v: &[RenOut]) -> Vec<u64> {
        v.iter().map(|o| o.ecn_out).collect()
    }
    fn lat(o: &RenOut) -> (u64, u64, u64, u64) {
        (o.ql_s, o.ti_s, o.over, o.under)
    }
    fn scenario(name: &str) -> Scenario {
        config_u_scenarios().into_iter().find(|s| s.name.starts_with(name)).unwrap()
    }
    fn run(name: &str, mode: Mode) -> (Vec<u64>, Vec<(u64, u64, u64, u64)>) {
        run_flags(name, mode, super::super::DEFAULT_FLAGS)
    }
    fn run_flags(name: &str, mode: Mode, flags: u64) -> (Vec<u64>, Vec<(u64, u64, u64, u64)>) {
        let mut s = RenScript::default();
        let (c, l) = run_u(&mut s, &scenario(name), mode, flags);
        // the last period's latch is visible in the state after the run
        let m = s.model().settled();
        let mut lats: Vec<_> = l.iter().map(lat).collect();
        if lats.len() < (scenario(name).cycles / U_PERIOD) as usize {
            lats.push((m.ql_s, m.ti_s, m.over, m.under));
        }
        (codes(&c), lats)
    }

    #[test]
    fn v1_to_v6() {
        let (c, l) = run("V1", Mode::A);
        assert_eq!(l, vec![(0, 10, 0, 10), (0, 7, 0, 7)]);
        assert_eq!(c, vec![0, 0, 0]);
        assert_eq!(run("V1", Mode::ANet).1[1], (0, 7, 0, 4));
        assert_eq!(run("V1", Mode::B).0, vec![1, 1, 1]);

        let (c, l) = run("V2", Mode::A);
        assert_eq!(l, vec![(0, 0, 0, 0); 2]);
        assert!(c.iter().all(|&x| x == 1));

        let (c, l) = run("V3", Mode::A);
        assert_eq!(l, vec![(4, 0, 4, 0); 2]);
        assert_eq!(c, [vec![1; 10], vec![2; 4], vec![1; 6]].concat());
        assert_eq!(run("V3", Mode::ANet).1[1], (4, 0, 0, 0));
        assert_eq!(run("V3", Mode::B).0, [vec![2; 4], vec![1; 6], vec![2; 4], vec![1; 6]].concat());

        let (c, l) = run("V4 ", Mode::A);
        assert_eq!(l, vec![(5, 3, 2, 0), (0, 5, 0, 5)]);
        assert_eq!(c, vec![1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1]);
        assert_eq!(run("V4 ", Mode::B).0[..7], [2, 2, 2, 2, 1, 1, 1]);

        let (c, l) = run("V4b", Mode::A);
        assert_eq!(l, vec![(2, 6, 0, 4)]);
        assert_eq!(c, vec![1; 4]);
        assert_eq!(run("V4b", Mode::B).0, vec![0; 4]);

        let (c, l) = run("V5", Mode::A);
        assert_eq!(l, vec![(0, 6, 0, 6)]);
        assert_eq!(c, vec![1; 4]);
        assert_eq!(run("V5", Mode::B).0, vec![2, 2, 1, 1]);

        let (c, l) = run("V6", Mode::A);
        assert_eq!(l[0], (3, 3, 0, 0));
        assert_eq!(c[7..], [1, 1, 1]);
    }

    #[test]
    fn v7_rounding_floor_and_strict() {
        let ti = |flags| run_flags("V7", Mode::A, flags).1.iter().map(|l| l.1).collect::<Vec<_>>();
        assert_eq!(ti(0b10), vec![2, 3, 3]);
        assert_eq!(ti(0b11), vec![2, 2, 3]);
    }

    #[test]
    fn v8_to_v13() {
        let (c, l) = run("V8", Mode::A);
        assert_eq!(l, vec![(0, 2, 0, 2); 2]);
        assert_eq!(c[8..], [0, 0, 1, 1, 1, 1, 1, 1]);
        assert_eq!(run("V8", Mode::ANet).1[1], (0, 2, 0, 0));

        let (c, l) = run("V9a", Mode::A);
        assert_eq!(l, vec![(0, 0, 0, 0)]);
        assert_eq!(c[9], 0, "the grant passes unchanged");

        assert_eq!(run("V9b", Mode::A).0, vec![0, 2, 0, 2, 1]);
        assert_eq!(run("V9b", Mode::A).1[0], (2, 0, 2, 0));

        assert_eq!(run("V10 merge table, over", Mode::A).0, vec![2, 2, 2, 3]);
        assert_eq!(run("V10 merge table, under", Mode::A).0, vec![0, 1, 2, 3]);
        assert_eq!(run("V10 merge table, no", Mode::A).0, vec![1, 1, 2, 3]);
        assert_eq!(run("V10b", Mode::A).0, vec![2, 2, 1]);
        assert_eq!(run_flags("V10b", Mode::A, 0).0, vec![2, 2, 2]);

        let (c, l) = run("V11", Mode::A);
        assert_eq!(c, vec![2, 2, 0]);
        assert_eq!(l[1], (0, 8, 0, 8));

        let (c, l) = run("V12", Mode::A);
        assert_eq!(l, vec![(0, 10, 0, 10); 3]);
        assert_eq!(c, vec![0]);

        let (c, l) = run("V13", Mode::A);
        assert_eq!(c, vec![2, 0]);
        assert_eq!(l[1], (0, 9, 0, 9));
        assert_eq!(run("V13", Mode::B).0, vec![0, 1]);
    }

    /// V16: three switches in series (Fig. 7 analogue): S0 under = 10, S1 no budget, S2 over = 1.
    #[test]
    fn v16_multi_hop_priority() {
        let mut hops = vec![];
        for (q, idle) in [(0, 1), (0, 0), (1, 0)] {
            let mut s = RenScript::default();
            setup(&mut s, Mode::A, U_MSS, U_PERIOD, super::super::DEFAULT_FLAGS);
            timeline(&mut s, 1000, U_PERIOD, |_| q, |_| idle, &[]);
            hops.push(ModelDut::new(s.model().clone()));
        }
        let mut sent = 0;
        for _ in 0..4 {
            let mut code = 0;
            for h in hops.iter_mut() {
                // the descriptor's early pins, then its valid and code (README, *Latency*)
                h.eval(&RenIn { deq_is_data: 1, deq_len: 100, ..Default::default() }.to_vec());
                h.edge();
                code = RenOut::from_slice(h.eval(&RenIn { deq_valid: 1, deq_ecn: code, ..Default::default() }.to_vec())).ecn_out;
                h.edge();
            }
            sent += [2, 1, 0, 0][code as usize];
        }
        assert_eq!(sent, 3, "the sender reduces its rate by one packet");
    }

    /// V17: two ports never share state.
    #[test]
    fn v17_ports_are_isolated() {
        let (mut a, mut b) = (RenScript::default(), RenScript::default());
        setup(&mut a, Mode::A, U_MSS, U_PERIOD, 2);
        setup(&mut b, Mode::A, U_MSS, U_PERIOD, 2);
        timeline(&mut a, 1000, U_PERIOD, |_| 0, |_| 1, &[]);
        timeline(&mut b, 1000, U_PERIOD, |_| 4, |_| 0, &[]);
        let (a, b) = (a.model().settled(), b.model().settled());
        assert_eq!((a.ti_s, a.under), (10, 10));
        assert_eq!((b.ql_s, b.over), (4, 4));
    }

    #[test]
    fn v18_state_clear() {
        let mut s = RenScript::default();
        setup(&mut s, Mode::A, U_MSS, U_PERIOD, 2);
        timeline(&mut s, 1000, U_PERIOD, |_| 3, |_| 0, &[]);
        timeline(&mut s, 500, U_PERIOD, |_| 0, |t| (t < 300) as u64, &[]);
        let m = s.model().settled();
        assert_eq!((m.over, m.resid, m.ti_run), (3, 0, 3));
        s.csr(csr::STATE_CLEAR, 0);
        let m = s.model().settled();
        assert_eq!((m.cnt, m.over, m.under, m.ti_run, m.resid, m.ql_s, m.ti_s), (0, 0, 0, 0, 0, 0, 0));
        let (c, _) = timeline(&mut s, 20, U_PERIOD, |_| 0, |_| 0, &[d(10, 0)]);
        assert_eq!(codes(&c), vec![1]);
    }

    #[test]
    fn v14_non_integer_mss_time() {
        let mut s = RenScript::default();
        setup(&mut s, Mode::A, 1500, 7500, 2);
        let idle_cycles = [187u64, 188, 375, 7500];
        let (_, l) = timeline(&mut s, 7500 * 4 + 1, 7500, |_| 0, |t| if (t % 7500) < idle_cycles[(t / 7500).min(3) as usize] { 8 } else { 0 }, &[]);
        assert_eq!(l.iter().map(|o| o.ti_s).collect::<Vec<_>>(), vec![0, 1, 2, 40]);
    }

    #[test]
    fn v19_saturation() {
        let mut s = RenScript::default();
        setup(&mut s, Mode::A, 1, 70_000, 2);
        let (_, l) = timeline(&mut s, 70_001, 70_000, |_| 0, |_| 1, &[]);
        assert_eq!((l[0].ti_s, l[0].under), (65_535, 65_535));
        let mut s = RenScript::default();
        setup(&mut s, Mode::A, 1, 1000, 2);
        let (_, l) = timeline(&mut s, 1001, 1000, |_| 300_000, |_| 0, &[]);
        assert_eq!((l[0].ql_s, l[0].over), (65_535, 65_535));
    }

    #[test]
    fn v19_mode_b_at_the_ceiling() {
        // at cycle 65,525 + j, ti_run = 65,525 + j and j over marks were issued: over while
        // 65,535 > 65,525 + 2j, five packets, then full (ql is not above the sum; q ≥ d_under)
        let c = mode_b_ceiling(&mut RenScript::default());
        assert_eq!(c, [vec![2; 5], vec![1; 15]].concat());
    }

    #[test]
    fn malformed_and_rejected_inputs_touch_no_state() {
        let mut s = RenScript::default();
        setup(&mut s, Mode::A, U_MSS, U_PERIOD, 2);
        s.csr(csr::MAX_LEN, 1500);
        timeline(&mut s, 1000, U_PERIOD, |_| 2, |_| 0, &[]);
        let before = s.model().settled();
        let bad = |t, len| Deq { t, data: true, ecn: 0, len };
        let (o, _) = timeline(&mut s, 3, U_PERIOD, |_| 2, |_| 0, &[bad(0, 0), bad(1, 1501)]);
        assert_eq!(o.iter().map(|o| (o.drop, o.ecn_out)).collect::<Vec<_>>(), vec![(1, 0), (1, 0)]);
        let m = s.model().settled();
        assert_eq!((m.over, m.over_iss, m.counters[4]), (before.over, before.over_iss, 2));
        let mut m2 = s.model().clone();
        for (a, v) in [(csr::MODE, 3), (csr::MSS, 0), (csr::PERIOD, 0), (csr::MAX_LEN, 0), (7, 1)] {
            m2.step(&RenIn { csr_we: 1, csr_addr: a as u64, csr_wdata: v, ..Default::default() }.to_vec());
        }
        let m2 = m2.settled();
        assert_eq!((m2.mode, m2.mss, m2.period, m2.max_len, m2.counters[6]), (0, 100, 1000, 1500, 5));
    }

    #[test]
    fn fuzz_conserves_dequeues() {
        let mut m = Ren::default();
        let mut r = Rng::new(7);
        // a dequeue judged in a clock is counted at the edge after the next
        let (mut deqs, mut last) = (0, 0);
        for _ in 0..50_000 {
            let mut ii = RenIn::from_slice(&random_cycle(&mut r));
            if (csr::CNT_BASE..csr::CNT_BASE + 7).contains(&(ii.csr_addr as u8)) {
                ii.csr_we = 0; // presets re-base the counters; the vectors cover them
            }
            let o = RenOut::from_slice(&m.step(&ii.to_vec()));
            assert_eq!(counted(&o), deqs - last);
            deqs += ii.deq_valid;
            last = ii.deq_valid;
        }
        assert!(deqs > 15_000);
    }

    #[test]
    fn committed_vectors_are_fresh() {
        crate::cycle::assert_fresh("ren", render());
    }
}
