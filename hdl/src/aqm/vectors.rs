//! AQM vectors: the op format, the cycle-level driver every engine shares, the model engine,
//! and the generator of `testbench-vectors/aqm/` (format in testbench-vectors/README.md).

use super::model::Marker;
use super::{csr, Config, Counters, Decision, Law, Mode, State};
use crate::ecn;
use crate::sojourn::model::{sojourn, Timebase};
use crate::cycle::{CycleModel, Dut, LateCounters, Pin};
use crate::vectors::{Located, Tally};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One line of an AQM vector file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Op {
    /// A comment that travels with the vectors (names the spec vector a run reproduces).
    Note { text: String },
    /// Program every marker register from `cfg` and clear the per-queue state.
    Config { cfg: Config },
    /// One raw register write (counter presets, prescaler, state clear).
    Csr { addr: u8, data: u32 },
    /// Stamp a descriptor at tick `t`; later dequeues refer to it by `id`.
    Enq {
        t: u32,
        id: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expect_ts: Option<u32>,
    },
    /// Dequeue at tick `t` (and `repeat − 1` more on the following ticks, one per clock). The
    /// descriptor's stamp is `t − soj` (sideband) or the stamp of enqueue `id`.
    Deq {
        t: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        soj: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u32>,
        ecn: u8,
        #[serde(default)]
        qlen: u32,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        repeat: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expect: Option<DeqExpect>,
    },
    /// Check the counters (and optionally the state) with no dequeue.
    Check {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counters: Option<Counters>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<State>,
    },
}

fn one() -> u32 {
    1
}
fn is_one(x: &u32) -> bool {
    *x == 1
}

/// Expected outputs of the last dequeue of a `deq` op, and the state and counters after it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeqExpect {
    pub soj: u32,
    pub ins: bool,
    pub det: bool,
    pub pst: bool,
    pub ecn: u8,
    pub drop: bool,
    pub state: State,
    pub counters: Counters,
}

/// The pins of the AQM top for one clock (what rust-hdl and Verilator drive).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleIn {
    pub csr_we: bool,
    pub csr_addr: u8,
    pub csr_wdata: u32,
    /// Marks a cycle whose `enq_ts` output the driver records; not an RTL pin (the stamp is always on `enq_ts`).
    pub enq: bool,
    pub deq: bool,
    pub deq_ts: u32,
    pub deq_ecn: u8,
    pub deq_qlen: u32,
}

/// The outputs of the AQM top, sampled before the clock edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub now: u32,
    pub enq_ts: u32,
    pub sojourn: u32,
    pub ins: bool,
    pub det: bool,
    pub pst: bool,
    pub ecn_out: u8,
    pub drop: bool,
    pub state: State,
    pub counters: Counters,
}

crate::pins! {
    /// The input pins of the AQM top (`rtl::AqmTop`), in the order every engine drives them.
    pub struct AqmIn {
        csr_we: 1, csr_addr: 6, csr_wdata: 32, deq: 1, deq_ts: 32, deq_ecn: 2, deq_qlen: 32,
    }
}

crate::pins! {
    /// The output pins of the AQM top.
    pub struct AqmOut {
        now: 32, enq_ts: 32, sojourn: 32, ins: 1, det: 1, pst: 1, ecn_out: 2, drop: 1,
        st_ms: 1, st_fat_valid: 1, st_det_latched: 1, st_fat: 32, st_cnt: 16, st_lastcount: 16, st_next: 32,
        cnt_marked: 32, cnt_fired_inst: 32, cnt_fired_pers: 32, cnt_dropped: 32,
    }
}

impl CycleIn {
    /// The pins this cycle drives (`enq` is the driver's own mark, not a pin).
    pub fn pins(&self) -> AqmIn {
        AqmIn {
            csr_we: self.csr_we as u64,
            csr_addr: self.csr_addr as u64 & 0x3f,
            csr_wdata: self.csr_wdata as u64,
            deq: self.deq as u64,
            deq_ts: self.deq_ts as u64,
            deq_ecn: self.deq_ecn as u64 & 3,
            deq_qlen: self.deq_qlen as u64,
        }
    }
}

impl From<&AqmOut> for Outputs {
    fn from(o: &AqmOut) -> Outputs {
        Outputs {
            now: o.now as u32,
            enq_ts: o.enq_ts as u32,
            sojourn: o.sojourn as u32,
            ins: o.ins != 0,
            det: o.det != 0,
            pst: o.pst != 0,
            ecn_out: o.ecn_out as u8,
            drop: o.drop != 0,
            state: State {
                ms: o.st_ms != 0,
                fat_valid: o.st_fat_valid != 0,
                fat: o.st_fat as u32,
                det_latched: o.st_det_latched != 0,
                cnt: o.st_cnt as u16,
                lastcount: o.st_lastcount as u16,
                next: o.st_next as u32,
            },
            counters: Counters {
                marked: o.cnt_marked as u32,
                fired_inst: o.cnt_fired_inst as u32,
                fired_pers: o.cnt_fired_pers as u32,
                dropped: o.cnt_dropped as u32,
            },
        }
    }
}

impl From<&Outputs> for AqmOut {
    fn from(o: &Outputs) -> AqmOut {
        let (s, c) = (&o.state, &o.counters);
        AqmOut {
            now: o.now as u64,
            enq_ts: o.enq_ts as u64,
            sojourn: o.sojourn as u64,
            ins: o.ins as u64,
            det: o.det as u64,
            pst: o.pst as u64,
            ecn_out: o.ecn_out as u64,
            drop: o.drop as u64,
            st_ms: s.ms as u64,
            st_fat_valid: s.fat_valid as u64,
            st_det_latched: s.det_latched as u64,
            st_fat: s.fat as u64,
            st_cnt: s.cnt as u64,
            st_lastcount: s.lastcount as u64,
            st_next: s.next as u64,
            cnt_marked: c.marked as u64,
            cnt_fired_inst: c.fired_inst as u64,
            cnt_fired_pers: c.fired_pers as u64,
            cnt_dropped: c.dropped as u64,
        }
    }
}

/// One clock of `dut` with `i` (no edge): the typed view of [`Dut::eval`].
pub fn eval(dut: &mut dyn Dut, i: &CycleIn) -> Outputs {
    Outputs::from(&AqmOut::from_slice(dut.eval(&i.pins().to_vec())))
}

/// The golden model of the whole top: timebase + marker, cycle by cycle. The marker takes two
/// clocks (`pipe::MarkerPipe`): a dequeue's verdict, and the state it was judged on, show on the
/// pins in the clock after it. The pins show the marker's statistics as the RTL's
/// `LateCounter`s hold them: each event counts at the edge after the clock its verdict shows
/// in, so a dequeue's count shows three clocks after it is presented.
#[derive(Clone, Debug, Default)]
pub struct ModelTop {
    pub tb: Timebase,
    pub marker: Marker,
    /// `marked`, `fired_inst`, `fired_pers`, `dropped`.
    pub counters: LateCounters<4>,
    /// Last clock's dequeue, judged: what the pins show this clock.
    pub judged: Judged,
}

/// A dequeue's verdict (with no dequeue, `ecn_out` is the pins' code) and the marker state it
/// was judged on, with the statistics' events.
#[derive(Clone, Debug, Default)]
pub struct Judged {
    pub verdict: Decision,
    pub state: State,
    /// `marked`, `fired_inst`, `fired_pers`, `dropped`.
    pub events: [bool; 4],
}

impl CycleModel for ModelTop {
    const INPUTS: &'static [Pin] = AqmIn::PINS;
    const OUTPUTS: &'static [Pin] = AqmOut::PINS;
    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let p = AqmIn::from_slice(inputs);
        let i = CycleIn {
            csr_we: p.csr_we != 0,
            csr_addr: p.csr_addr as u8,
            csr_wdata: p.csr_wdata as u32,
            enq: false,
            deq: p.deq != 0,
            deq_ts: p.deq_ts as u32,
            deq_ecn: p.deq_ecn as u8,
            deq_qlen: p.deq_qlen as u32,
        };
        let o = self.clock(&i);
        AqmOut::from(&o).to_vec()
    }
}

impl ModelTop {
    /// This clock's outputs for `i`; `self` becomes the state after the clock edge.
    pub fn clock(&mut self, i: &CycleIn) -> Outputs {
        let now = self.tb.now;
        let soj = sojourn(now, i.deq_ts);
        let (j, v) = (&self.judged, &self.judged.verdict);
        let o = Outputs {
            now,
            enq_ts: now,
            sojourn: soj,
            ins: v.ins,
            det: v.det,
            pst: v.pst,
            ecn_out: v.ecn_out,
            drop: v.drop,
            state: j.state,
            counters: Counters {
                marked: self.counters[0] as u32,
                fired_inst: self.counters[1] as u32,
                fired_pers: self.counters[2] as u32,
                dropped: self.counters[3] as u32,
            },
        };
        let events = j.events;
        let mut judged = Judged { state: self.marker.state, ..Default::default() };
        judged.verdict.ecn_out = i.deq_ecn & 3;
        if i.deq && !i.csr_we {
            let d = self.marker.dequeue(now, soj, i.deq_ecn, i.deq_qlen);
            judged.events = [d.ecn_out == ecn::CE && ecn::is_ect(i.deq_ecn & 3), d.ins, d.pst, d.drop];
            judged.verdict = d;
        }
        self.judged = judged;
        let preset = [csr::CNT_MARKED, csr::CNT_FIRED_INST, csr::CNT_FIRED_PERS, csr::CNT_DROPPED]
            .iter()
            .position(|&a| i.csr_we && i.csr_addr == a)
            .map(|k| (k, i.csr_wdata as u64));
        self.counters.edge(events, preset);
        if i.csr_we {
            self.marker.write_csr(i.csr_addr, i.csr_wdata);
        }
        let load = (i.csr_we && i.csr_addr == csr::TIME_LOAD).then_some(i.csr_wdata);
        self.tb.clock(load);
        // a register write takes effect from the next clock, like every register
        if i.csr_we && i.csr_addr == csr::CLK_PER_TICK {
            self.tb.clk_per_tick = i.csr_wdata as u16;
        }
        o
    }
}

/// Ticks a `goto` walks clock by clock before it loads the counter instead.
const MAX_WALK_TICKS: u32 = 64;

/// Drives an engine through vector ops.
pub struct Driver<'a> {
    pub dut: &'a mut dyn Dut,
    stamps: HashMap<u32, u32>,
    pub cycles: u64,
}

impl<'a> Driver<'a> {
    pub fn new(dut: &'a mut dyn Dut) -> Self {
        Driver { dut, stamps: HashMap::new(), cycles: 0 }
    }

    fn step(&mut self, i: &CycleIn) -> Outputs {
        let o = eval(self.dut, i);
        self.dut.edge();
        self.cycles += 1;
        o
    }

    pub fn csr(&mut self, addr: u8, data: u32) {
        self.step(&CycleIn { csr_we: true, csr_addr: addr, csr_wdata: data, ..Default::default() });
    }

    fn peek(&mut self) -> Outputs {
        eval(self.dut, &CycleIn::default())
    }

    /// Bring `now` to `t`: walk idle clocks when `t` is a little ahead, load the counter otherwise.
    pub fn goto(&mut self, t: u32) {
        let mut walked = 0u64;
        loop {
            let now = self.peek().now;
            if now == t {
                return;
            }
            if t.wrapping_sub(now) <= MAX_WALK_TICKS && walked < (MAX_WALK_TICKS as u64 + 1) << 16 {
                self.dut.edge();
                self.cycles += 1;
                walked += 1;
            } else {
                self.csr(csr::TIME_LOAD, t);
            }
        }
    }

    /// Run one op; with `fill`, write the engine's outputs into its expectations, otherwise
    /// check them into `tally`.
    pub fn run(&mut self, op: &mut Op, fill: bool, tally: &mut Tally, at: &str) -> Result<(), String> {
        match op {
            Op::Note { .. } => {}
            Op::Config { cfg } => {
                cfg.validate().map_err(|e| format!("{at}: invalid config: {e}"))?;
                for (a, d) in cfg.csr_writes() {
                    self.csr(a, d);
                }
            }
            Op::Csr { addr, data } => self.csr(*addr, *data),
            Op::Enq { t, id, expect_ts } => {
                self.goto(*t);
                let o = self.step(&CycleIn { enq: true, ..Default::default() });
                self.stamps.insert(*id, o.enq_ts);
                if fill {
                    *expect_ts = Some(o.enq_ts);
                } else if let Some(e) = expect_ts {
                    let got = o.enq_ts;
                    tally.check(got == *e, || format!("{at}: enq stamp {got}, expected {e}"));
                }
            }
            Op::Deq { t, soj, id, ecn, qlen, repeat, expect } => {
                if *ecn > 3 {
                    return Err(format!("{at}: ecn must be 0..=3, got {ecn}"));
                }
                if *repeat == 0 {
                    return Err(format!("{at}: repeat must be at least 1"));
                }
                let mut last = Outputs::default();
                for k in 0..*repeat {
                    let tk = t.wrapping_add(k);
                    self.goto(tk);
                    let ts = match (*soj, *id) {
                        (Some(s), None) => tk.wrapping_sub(s),
                        (None, Some(i)) => *self
                            .stamps
                            .get(&i)
                            .ok_or_else(|| format!("{at}: dequeue of id {i}, which was never enqueued"))?,
                        _ => return Err(format!("{at}: a deq needs exactly one of soj and id")),
                    };
                    last = self.step(&CycleIn {
                        deq: true,
                        deq_ts: ts,
                        deq_ecn: *ecn,
                        deq_qlen: *qlen,
                        ..Default::default()
                    });
                }
                // the verdict shows a clock later, and the state it leaves a clock after that
                let verdict = self.step(&CycleIn::default());
                let after = self.peek();
                let got = DeqExpect {
                    soj: last.sojourn,
                    ins: verdict.ins,
                    det: verdict.det,
                    pst: verdict.pst,
                    ecn: verdict.ecn_out,
                    drop: verdict.drop,
                    state: after.state,
                    counters: after.counters,
                };
                if fill {
                    *expect = Some(got);
                } else if let Some(e) = expect {
                    tally.check(got == *e, || format!("{at}: deq at t={t}\n   got      {got:?}\n   expected {e:?}"));
                }
            }
            Op::Check { counters, state } => {
                // the pins show the state at the start of the clock before
                self.step(&CycleIn::default());
                let o = self.peek();
                if fill {
                    *counters = Some(o.counters);
                    *state = Some(o.state);
                } else {
                    if let Some(c) = counters {
                        tally.check(o.counters == *c, || format!("{at}: counters {:?}, expected {c:?}", o.counters));
                    }
                    if let Some(s) = state {
                        tally.check(o.state == *s, || format!("{at}: state {:?}, expected {s:?}", o.state));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Check an engine against a parsed vector file.
pub fn replay(name: &str, ops: &[Located<Op>], dut: &mut dyn Dut) -> Result<Tally, String> {
    let mut tally = Tally::default();
    let mut d = Driver::new(dut);
    for op in ops {
        let mut item = op.item.clone();
        d.run(&mut item, false, &mut tally, &format!("{name}:{}", op.line))?;
    }
    Ok(tally)
}

/// Run ops through an engine and return them with the engine's outputs as expectations.
pub fn emit(ops: &[Op], dut: &mut dyn Dut) -> Result<Vec<Op>, String> {
    let mut d = Driver::new(dut);
    let mut tally = Tally::default();
    let mut out = ops.to_vec();
    for (i, op) in out.iter_mut().enumerate() {
        d.run(op, true, &mut tally, &format!("op {i}"))?;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Generator: the scenarios of testbench-vectors/aqm/, expectations filled by the golden model.

fn deq(t: u32, soj: u32, ecn: u8) -> Op {
    Op::Deq { t, soj: Some(soj), id: None, ecn, qlen: 0, repeat: 1, expect: None }
}

fn deq_q(t: u32, soj: u32, ecn: u8, qlen: u32) -> Op {
    Op::Deq { t, soj: Some(soj), id: None, ecn, qlen, repeat: 1, expect: None }
}

fn deq_run(t: u32, soj: u32, ecn: u8, repeat: u32) -> Op {
    Op::Deq { t, soj: Some(soj), id: None, ecn, qlen: 0, repeat, expect: None }
}

fn note(s: &str) -> Op {
    Op::Note { text: s.into() }
}

fn cfg(c: Config) -> Op {
    Op::Config { cfg: c }
}

/// A scenario's start: its note, then its configuration.
fn scenario(v: &mut Vec<Op>, label: &str, c: Config) {
    v.push(note(label));
    v.push(cfg(c));
}

/// ECT(0) dequeues at the given (tick, sojourn) pairs.
fn deqs_ect0(v: &mut Vec<Op>, at: &[(u32, u32)]) {
    v.extend(at.iter().map(|&(t, s)| deq(t, s, ecn::ECT0)));
}

fn check() -> Op {
    Op::Check { counters: None, state: None }
}

/// ECN♯ with the paper's testbed parameters (ECN♯ §6 conventions).
pub fn ecn_sharp(law: Law, due_ge: bool) -> Config {
    Config { mode: Mode::EcnSharp, law, due_ge, ..Config::default() }
}

/// Soj = 100 every 10 ticks from 1000 to `until` (the V3/V6 prefix).
fn persistent_prefix(ops: &mut Vec<Op>, until: u32) {
    let mut t = 1000;
    while t <= until {
        ops.push(deq(t, 100, ecn::ECT0));
        t += 10;
    }
}

/// The spec's ECN♯ vectors V1–V13 (ECN♯ §6) under one law/compare setting.
fn ecn_sharp_scenarios(law: Law, due_ge: bool) -> Vec<Op> {
    let c = ecn_sharp(law, due_ge);
    let mut v = vec![];
    scenario(&mut v, "V1: no queue, never mark", c);
    deqs_ect0(&mut v, &[(100, 0), (101, 1), (102, 84), (103, 0)]);
    scenario(&mut v, "V2: instantaneous threshold boundary (strict >)", c);
    deqs_ect0(&mut v, &[(1000, 199), (1001, 0), (1002, 200), (1003, 0), (1004, 201), (1005, 0), (1006, 5000), (1007, 0)]);
    scenario(&mut v, "V3: persistent detection boundary; the detecting packet is marked", c);
    persistent_prefix(&mut v, 1200);
    v.push(deq(1201, 100, ecn::ECT0));
    v.push(deq(1202, 100, ecn::ECT0));
    scenario(&mut v, "V4/V5: marking cadence, one dequeue per tick 1000..3000, soj 100", c);
    for t in 1000..=3000 {
        v.push(deq(t, 100, ecn::ECT0));
    }
    v.push(check());
    scenario(&mut v, "V6: exit and re-entry", c);
    persistent_prefix(&mut v, 1200);
    deqs_ect0(&mut v, &[(1201, 100), (1300, 100), (1402, 100), (1410, 84), (1420, 100), (1500, 100), (1620, 100), (1621, 100), (1700, 100), (1822, 100)]);
    scenario(&mut v, "V7: target boundary (85 counts as above, 84 resets)", c);
    deqs_ect0(&mut v, &[(1000, 85), (1100, 85), (1200, 85), (1201, 85), (1250, 84), (1260, 85), (1461, 85)]);
    scenario(&mut v, "V8: instantaneous and persistent together; ECN codepoints", c);
    let mut t = 1000;
    while t <= 1200 {
        v.push(deq(t, 150, ecn::ECT0));
        t += 50;
    }
    for (t, s, e) in [(1201, 250, ecn::ECT0), (1300, 250, ecn::NOT_ECT), (1402, 150, ecn::NOT_ECT), (1450, 250, ecn::CE), (1502, 150, ecn::ECT1)] {
        v.push(deq(t, s, e));
    }
    scenario(&mut v, "V9: idle gap resets through the low sojourn", c);
    persistent_prefix(&mut v, 1200);
    deqs_ect0(&mut v, &[(1201, 100), (1402, 100), (5000, 0), (5001, 0), (5002, 100)]);
    scenario(&mut v, "V10: dequeue stall with backlog (catch-up burst under the paper law)", c);
    persistent_prefix(&mut v, 1200);
    v.push(deq(1201, 100, ecn::ECT0));
    v.push(deq(1402, 100, ecn::ECT0));
    for t in 2500..2520 {
        v.push(deq(t, 150, ecn::ECT0));
    }
    for (label, off) in [("V11a: wrap inside the detection window", 0u32.wrapping_sub(1100)), ("V11b: wrap between marks", 0u32.wrapping_sub(1300)), ("V12: first above-target dequeue at now = 0 (valid bit)", 0u32.wrapping_sub(1000))] {
        scenario(&mut v, label, c);
        for t in 1000..=1600u32 {
            v.push(deq(t.wrapping_add(off), 100, ecn::ECT0));
        }
    }
    scenario(&mut v, "V13b at 32 bits: zero increments, then dequeues 2^28 ticks apart; marking must go on", c);
    v.push(deq_run(1000, 100, ecn::ECT0, 3000));
    for k in 1..=40u32 {
        v.push(deq(4000u32.wrapping_add(k << 28), 100, ecn::ECT0));
    }
    // the clamp reads the lag before the step (the RTL adds the law a clock later): here the
    // lag is 2^30 + 50 and the law 100, so the step starts from `now − 2^30` (the lag after
    // the step alone would not clamp)
    scenario(&mut v, "V13c: a mark due 2^30 + 50 ticks late: the lag clamp judged before the step", c);
    persistent_prefix(&mut v, 1200);
    v.push(deq(1201, 100, ecn::ECT0));
    let late = 1401u32 + (1 << 30) + 50;
    for k in 0..40u32 {
        v.push(deq(late + 10 * k, 100, ecn::ECT0));
    }
    v.push(check());
    v
}

fn codel_scenarios() -> Vec<Op> {
    let c = Config { mode: Mode::Codel, codel_min_qlen: 1500, ..Config::default() };
    let mut v = vec![note("CoDel, testbed parameters target 85 / interval 200 ticks, minBytes guard 1500")];
    v.push(cfg(c));
    v.push(note("detection needs sojourn >= target for >= interval (non-strict, RFC 8289)"));
    let mut t = 1000;
    while t <= 1200 {
        v.push(deq_q(t, 85, ecn::ECT0, 30_000));
        t += 10;
    }
    v.push(note("then marks at interval/sqrt(count) from drop_next, one per dequeue at most"));
    for t in 1201..=3000 {
        v.push(deq_q(t, 120, ecn::ECT0, 30_000));
    }
    v.push(note("a small queue (qlen <= minBytes) counts as good and exits"));
    v.push(deq_q(3001, 120, ecn::ECT0, 1000));
    v.push(note("re-entry soon after: count restarts from count - lastcount (Linux rule)"));
    for t in 3002..=3600 {
        v.push(deq_q(t, 120, ecn::ECT1, 30_000));
    }
    scenario(&mut v, "Not-ECT with drop_non_ect: dropped and counted", Config { drop_non_ect: true, ..c });
    for t in 5000..=5600 {
        v.push(deq_q(t, 100, if t % 2 == 0 { ecn::NOT_ECT } else { ecn::CE }, 30_000));
    }
    v.push(check());
    v
}

fn threshold_scenarios() -> Vec<Op> {
    let mut v = vec![note("queue-length K (GEMINI DC switch: K = 50 pkts/Gbps at 1 Gb/s, strict >)")];
    let k = Config { mode: Mode::QueueLen, k: 50, ..Config::default() };
    v.push(cfg(k));
    for (i, q) in [0u32, 49, 50, 51, 52, 450, 50].iter().enumerate() {
        v.push(deq_q(100 + i as u32, 10_000, ecn::ECT0, *q));
    }
    for (i, e) in [ecn::NOT_ECT, ecn::ECT1, ecn::CE].iter().enumerate() {
        v.push(deq_q(200 + i as u32, 0, *e, 51));
    }
    scenario(&mut v, "K in bytes with Not-ECT dropped (RED/ECN style)", Config { mode: Mode::QueueLen, k: 3076, drop_non_ect: true, ..Config::default() });
    for (i, (q, e)) in [(3076, ecn::NOT_ECT), (3077, ecn::NOT_ECT), (3077, ecn::ECT0), (0, ecn::NOT_ECT)].iter().enumerate() {
        v.push(deq_q(300 + i as u32, 0, *e, *q));
    }
    scenario(&mut v, "TCN: sojourn > 150 ticks (the multi-queue experiment's threshold)", Config { mode: Mode::Tcn, ins_target: 150, ..Config::default() });
    for (i, s) in [0u32, 149, 150, 151, 100_000, u32::MAX].iter().enumerate() {
        v.push(deq_q(1000 + i as u32, *s, ecn::ECT0, 1_000_000));
    }
    scenario(&mut v, "off: nothing fires whatever the sojourn and queue", Config { mode: Mode::Off, ..Config::default() });
    v.push(deq_q(2000, 100_000, ecn::ECT0, u32::MAX));
    v.push(note("reserved mode encodings read as off"));
    v.push(Op::Csr { addr: csr::MODE, data: 7 });
    v.push(deq_q(2001, 100_000, ecn::ECT0, u32::MAX));
    v.push(check());
    v
}

fn counter_scenarios() -> Vec<Op> {
    let c = Config { mode: Mode::Tcn, ins_target: 10, drop_non_ect: true, ..Config::default() };
    let mut v = vec![note("counters saturate at 2^32 - 1 and never wrap")];
    v.push(cfg(c));
    for (a, d) in [(csr::CNT_MARKED, u32::MAX - 2), (csr::CNT_FIRED_INST, u32::MAX - 2), (csr::CNT_DROPPED, u32::MAX - 1)] {
        v.push(Op::Csr { addr: a, data: d });
    }
    v.push(check());
    v.push(deq_run(100, 50, ecn::ECT0, 5));
    v.push(deq_run(200, 50, ecn::NOT_ECT, 3));
    v.push(check());
    scenario(&mut v, "marking_count saturates at 65535 (V13a at 16 bits): persistent marks go on", ecn_sharp(Law::PaperHarmonic, false));
    v.push(Op::Csr { addr: csr::CNT_FIRED_PERS, data: 0 });
    v.push(deq_run(1000, 100, ecn::ECT0, 70_000));
    v.push(check());
    v
}

fn timestamp_scenarios() -> Vec<Op> {
    let mut v = vec![note("stamps at enqueue, sojourn at dequeue, across the 32-bit wrap")];
    v.push(cfg(Config { mode: Mode::Tcn, ins_target: 20, ..Config::default() }));
    let base = 0u32.wrapping_sub(40);
    for i in 0..8u32 {
        v.push(Op::Enq { t: base.wrapping_add(i * 7), id: i, expect_ts: None });
    }
    for i in 0..8u32 {
        v.push(Op::Deq { t: base.wrapping_add(56 + i * 3), soj: None, id: Some(i), ecn: ecn::ECT0, qlen: 0, repeat: 1, expect: None });
    }
    v.push(note("prescaler: 4 clocks per tick"));
    v.push(Op::Csr { addr: csr::CLK_PER_TICK, data: 4 });
    v.push(Op::Enq { t: 500, id: 100, expect_ts: None });
    v.push(Op::Enq { t: 530, id: 101, expect_ts: None });
    v.push(Op::Deq { t: 540, soj: None, id: Some(100), ecn: ecn::ECT0, qlen: 0, repeat: 1, expect: None });
    v.push(Op::Deq { t: 541, soj: None, id: Some(101), ecn: ecn::ECT0, qlen: 0, repeat: 1, expect: None });
    v.push(Op::Csr { addr: csr::CLK_PER_TICK, data: 1 });
    v
}

fn ns3_scenarios() -> Vec<Op> {
    let mut v = ecn_sharp_scenarios(Law::Ns3Sqrt, true);
    v.insert(0, note("ECN# with the public ns-3 law: next = now + P/sqrt(count), due when now >= next"));
    v
}

/// Every generated file: name and ops with expectations from the golden model.
pub fn generate() -> Vec<(&'static str, Vec<Op>)> {
    let files: Vec<(&'static str, Vec<Op>)> = vec![
        ("ecn_sharp_paper.jsonl", ecn_sharp_scenarios(Law::PaperHarmonic, false)),
        ("ecn_sharp_paper_ge.jsonl", ecn_sharp_scenarios(Law::PaperHarmonic, true)),
        ("ecn_sharp_ns3.jsonl", ns3_scenarios()),
        ("codel.jsonl", codel_scenarios()),
        ("threshold.jsonl", threshold_scenarios()),
        ("counters.jsonl", counter_scenarios()),
        ("timestamp.jsonl", timestamp_scenarios()),
    ];
    files
        .into_iter()
        .map(|(name, ops)| {
            let mut model = crate::cycle::ModelDut::new(ModelTop::default());
            (name, emit(&ops, &mut model).expect("generator scenarios are well formed"))
        })
        .collect()
}

/// The generated files as text, exactly as committed.
pub fn render() -> Vec<(&'static str, String)> {
    crate::cycle::render_files("AQM marker", "hdl/src/aqm/vectors.rs", generate())
}

#[cfg(test)]
mod tests {
    /// The committed vectors are what the model generates today.
    #[test]
    fn committed_vectors_are_fresh() {
        crate::cycle::assert_fresh("aqm", super::render());
    }
}
