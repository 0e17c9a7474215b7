//! Golden model of the REN counters (REN §1.6 per-cycle semantics, choices in `mod.rs`).
//!
//! The block judges a descriptor over two clocks (the README's *Latency*): every pin but
//! `deq_valid` and `deq_ecn` is taken a clock before the clock that judges, so each clock's
//! judgement is REN's on the last clock's early pins and this clock's late ones.

use super::{csr, RenIn, RenOut, DEFAULT_FLAGS, DEFAULT_MAX_LEN, DEFAULT_MSS, DEFAULT_PERIOD};
use crate::cycle::{CycleModel, LateCounters, Pin};

const SAT16: u64 = 0xFFFF;

/// Registers of one REN port block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ren {
    pub mode: u64,
    pub flags: u64,
    pub mss: u64,
    pub period: u64,
    pub max_len: u64,
    /// Clocks into the current period.
    pub cnt: u64,
    /// Whole MSS of idle this period, and the residue below MSS.
    pub ti_run: u64,
    pub resid: u64,
    pub over: u64,
    pub under: u64,
    pub over_iss: u64,
    pub under_iss: u64,
    pub ql_s: u64,
    pub ti_s: u64,
    /// over, under, full, pass, malformed, idle_clamped, csr_rejected; each counts its event at
    /// the edge after the clock that judged it.
    pub counters: LateCounters<7>,
    /// The last clock's pins, whose early ones (all but `deq_valid` and `deq_ecn`) this clock
    /// judges: the RTL's input stage.
    pub early: RenIn,
}

impl Default for Ren {
    fn default() -> Self {
        Ren {
            mode: 1,
            flags: DEFAULT_FLAGS,
            mss: DEFAULT_MSS,
            period: DEFAULT_PERIOD,
            max_len: DEFAULT_MAX_LEN,
            cnt: 0,
            ti_run: 0,
            resid: 0,
            over: 0,
            under: 0,
            over_iss: 0,
            under_iss: 0,
            ql_s: 0,
            ti_s: 0,
            counters: LateCounters::default(),
            early: RenIn::default(),
        }
    }
}

/// The local decision for one data packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Local {
    Over,
    Under,
    Full,
}

impl Ren {
    fn clear_state(&mut self) {
        self.cnt = 0;
        self.ti_run = 0;
        self.resid = 0;
        self.over = 0;
        self.under = 0;
        self.over_iss = 0;
        self.under_iss = 0;
        self.ql_s = 0;
        self.ti_s = 0;
    }

    /// Apply a register write; returns whether it was rejected, and a counter preset.
    fn csr_write(&mut self, addr: u64, data: u64) -> (bool, Option<(usize, u64)>) {
        let mut preset = None;
        let ok = match addr as u8 {
            csr::MODE if data <= 2 => {
                self.mode = data;
                true
            }
            csr::FLAGS => {
                self.flags = data & 3;
                true
            }
            csr::MSS if data & SAT16 != 0 => {
                self.mss = data & SAT16;
                true
            }
            csr::PERIOD if data != 0 => {
                self.period = data;
                true
            }
            csr::MAX_LEN if data & SAT16 != 0 => {
                self.max_len = data & SAT16;
                true
            }
            csr::STATE_CLEAR => {
                self.clear_state();
                true
            }
            a if (csr::CNT_BASE..csr::CNT_BASE + 7).contains(&a) => {
                preset = Some(((a - csr::CNT_BASE) as usize, data));
                true
            }
            _ => false,
        };
        (!ok, preset)
    }

    /// The state once the last clock's early pins are judged, with no descriptor leaving, and
    /// its events counted: what the registers hold after the next clock, less that clock's own
    /// early pins.
    pub fn settled(&self) -> Ren {
        let mut m = self.clone();
        m.step(&RenIn::default().to_vec());
        m.counters.edge([false; 7], None);
        m.early = RenIn::default();
        m
    }
}

impl CycleModel for Ren {
    const INPUTS: &'static [Pin] = RenIn::PINS;
    const OUTPUTS: &'static [Pin] = RenOut::PINS;

    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let now = RenIn::from_slice(inputs);
        let i = RenIn { deq_valid: now.deq_valid, deq_ecn: now.deq_ecn, ..self.early };
        self.early = now;
        let mut o = RenOut {
            ql_s: self.ql_s,
            ti_s: self.ti_s,
            over: self.over,
            under: self.under,
            over_iss: self.over_iss,
            under_iss: self.under_iss,
            cnt_over: self.counters[0],
            cnt_under: self.counters[1],
            cnt_full: self.counters[2],
            cnt_pass: self.counters[3],
            cnt_malformed: self.counters[4],
            cnt_idle_clamped: self.counters[5],
            cnt_csr_rejected: self.counters[6],
            ecn_out: i.deq_ecn,
            ..Default::default()
        };
        // this clock's events: over, under, full, pass, malformed, idle_clamped, csr_rejected
        let mut ev = [false; 7];
        let coh = self.flags & 2 != 0;
        let strict = self.flags & 1 != 0;

        // 1. marking, from the registers at the start of the clock
        let malformed = i.deq_valid == 1 && (i.deq_len == 0 || i.deq_len > self.max_len);
        let marks = i.deq_valid == 1 && !malformed && i.deq_is_data == 1 && i.deq_ecn != 3;
        let (mut take_over, mut take_under) = (false, false);
        if marks {
            let ql_now = i.q_pkts.min(SAT16);
            let local = if self.mode == 2 {
                if ql_now > self.ti_run && self.over_iss < ql_now - self.ti_run {
                    Local::Over
                } else if self.ti_run > ql_now && self.under_iss < self.ti_run - ql_now {
                    Local::Under
                } else {
                    Local::Full
                }
            } else if self.over > 0 {
                Local::Over
            } else if self.under > 0 {
                Local::Under
            } else {
                Local::Full
            };
            let code = match local {
                Local::Over => {
                    take_over = coh || i.deq_ecn < 2;
                    ev[0] = true;
                    2
                }
                Local::Under => {
                    take_under = coh || i.deq_ecn == 0;
                    ev[1] = true;
                    0
                }
                Local::Full => {
                    ev[2] = true;
                    1
                }
            };
            o.ecn_out = i.deq_ecn.max(code);
        } else if malformed {
            ev[4] = true;
            o.drop = 1;
        } else if i.deq_valid == 1 {
            ev[3] = true;
        }
        o.ecn_changed = (o.ecn_out != i.deq_ecn) as u64;
        let over_iss = if take_over { (self.over_iss + 1).min(SAT16) } else { self.over_iss };
        let under_iss = if take_under { (self.under_iss + 1).min(SAT16) } else { self.under_iss };

        // 2. idle accumulation: running quotient plus residue (no divider)
        let idle = if i.idle_bytes > self.mss {
            ev[5] = true;
            self.mss
        } else {
            i.idle_bytes
        };
        let acc = self.resid + idle;
        let carry = acc >= self.mss;
        let resid = if carry { acc - self.mss } else { acc };
        let ti_total = (self.ti_run + carry as u64).min(SAT16);

        // 3. boundary: latch, load budgets (overriding this clock's decrements), restart
        if self.cnt + 1 >= self.period {
            o.period_tick = 1;
            let ql = i.q_pkts.min(SAT16);
            let ti = if strict && resid == 0 && ti_total > 0 { ti_total - 1 } else { ti_total };
            let (mut over, mut under) = if ql > ti { (ql - ti, 0) } else { (0, ti - ql) };
            if self.mode == 1 {
                over -= over.min(over_iss);
                under -= under.min(under_iss);
            }
            self.over = over;
            self.under = under;
            self.ql_s = ql;
            self.ti_s = ti;
            self.cnt = 0;
            self.ti_run = 0;
            self.resid = 0;
            self.over_iss = 0;
            self.under_iss = 0;
        } else {
            if self.mode != 2 {
                self.over -= take_over as u64;
                self.under -= take_under as u64;
            }
            self.over_iss = over_iss;
            self.under_iss = under_iss;
            self.ti_run = ti_total;
            self.resid = resid;
            self.cnt += 1;
        }

        // register writes win over everything above
        let mut preset = None;
        if i.csr_we == 1 {
            (ev[6], preset) = self.csr_write(i.csr_addr, i.csr_wdata);
        }
        self.counters.edge(ev, preset);
        o.to_vec()
    }
}
