//! Golden model of the AQM marker (plain Rust, no rust-hdl). One call per dequeued descriptor.
//!
//! The RTL in `rtl.rs` implements exactly this, with `time_bits = 32`, `count_bits = 16` and
//! [`Division::Lut`]; the other settings exist to check the spec's hazard and exact-division
//! vectors (ECN♯ §6 V4-exact, V5, V13).

use super::csr;
use super::lut::{exact, LawKind, LawLut};
use super::{Config, Counters, Decision, Law, Mode, State};
use crate::ecn;

/// How the control law divides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Division {
    /// The hardware's table (`LawLut`) as programmed through the LUT registers.
    Lut,
    /// Exact `⌊P/c⌋` / `⌊P/√c⌋`: reference arithmetic only, for the spec's exact vectors.
    Exact,
}

/// Register widths. The RTL is `Widths::RTL`; narrower widths reproduce the spec's hazards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Widths {
    pub time_bits: u32,
    pub count_bits: u32,
}

impl Widths {
    pub const RTL: Widths = Widths { time_bits: 32, count_bits: 16 };
}

/// One queue's marker: configuration registers, state, counters.
#[derive(Clone, Debug)]
pub struct Marker {
    pub cfg: Config,
    pub lut_words: [u32; 4],
    pub lut_shift_bias: u8,
    pub state: State,
    pub counters: Counters,
    pub widths: Widths,
    pub division: Division,
    /// With the lag clamp off, the model shows the V13b hazard of a narrow clock.
    pub lag_clamp: bool,
}

impl Default for Marker {
    fn default() -> Self {
        Marker::new(Widths::RTL, Division::Lut)
    }
}

impl Marker {
    pub fn new(widths: Widths, division: Division) -> Marker {
        Marker {
            cfg: Config::RESET,
            lut_words: [0; 4],
            lut_shift_bias: 0,
            state: State::default(),
            counters: Counters::default(),
            widths,
            division,
            lag_clamp: true,
        }
    }

    /// A marker programmed with `cfg` through its registers, as the host driver does.
    pub fn configured(cfg: &Config) -> Marker {
        let mut m = Marker::default();
        for (a, d) in cfg.csr_writes() {
            m.write_csr(a, d);
        }
        m
    }

    /// The register write port; the same decode as the RTL (see [`csr`]).
    pub fn write_csr(&mut self, addr: u8, data: u32) {
        match addr {
            csr::MODE => self.cfg.set_mode_word(data),
            csr::INS_TARGET => self.cfg.ins_target = data,
            csr::K => self.cfg.k = data,
            csr::PST_TARGET => self.cfg.pst_target = data,
            csr::PST_INTERVAL => self.cfg.pst_interval = data as u16,
            csr::CODEL_MIN_QLEN => self.cfg.codel_min_qlen = data,
            csr::LUT_SHIFT => self.lut_shift_bias = (data & 0x3F) as u8,
            csr::STATE_CLEAR => self.state = State::default(),
            csr::LUT0..=csr::LUT3 => self.lut_words[(addr - csr::LUT0) as usize] = data,
            csr::CNT_MARKED => self.counters.marked = data,
            csr::CNT_FIRED_INST => self.counters.fired_inst = data,
            csr::CNT_FIRED_PERS => self.counters.fired_pers = data,
            csr::CNT_DROPPED => self.counters.dropped = data,
            _ => {}
        }
    }

    fn mask(&self) -> u64 {
        (1u64 << self.widths.time_bits) - 1
    }

    /// `a − b` modulo the clock width.
    fn diff(&self, a: u32, b: u32) -> u64 {
        (a as u64).wrapping_sub(b as u64) & self.mask()
    }

    /// Signed `a − b > 0` on the clock width (wrap-safe "a after b").
    fn after(&self, a: u32, b: u32) -> bool {
        let d = self.diff(a, b);
        d != 0 && d < (1u64 << (self.widths.time_bits - 1))
    }

    fn after_eq(&self, a: u32, b: u32) -> bool {
        self.diff(a, b) < (1u64 << (self.widths.time_bits - 1))
    }

    fn add(&self, a: u32, b: u32) -> u32 {
        ((a as u64 + b as u64) & self.mask()) as u32
    }

    fn sat_inc(&self, c: u16) -> u16 {
        let max = ((1u32 << self.widths.count_bits) - 1) as u16;
        if c >= max {
            max
        } else {
            c + 1
        }
    }

    /// `P / c` or `P / √c` as the configured division computes it.
    fn law(&self, kind: LawKind, c: u16) -> u32 {
        match self.division {
            Division::Exact => exact(kind, self.cfg.pst_interval, c),
            Division::Lut => {
                let mut entries = [0u8; 16];
                for (i, e) in entries.iter_mut().enumerate() {
                    *e = (self.lut_words[i / 4] >> (8 * (i % 4))) as u8;
                }
                LawLut { kind, entries, shift_bias: self.lut_shift_bias }.eval(c)
            }
        }
    }

    /// The base a due mark adds its law to: `next`, or `now − 2^(W−2)` when `next` trails
    /// `now` by more than that. So `marking_next` never trails `now` by more than 2^(W−2)
    /// ticks after a mark, and a frozen `next` (zero increments, ECN♯ §5 item 8) can never flip
    /// the wrap-safe comparison (V13b). The test reads the lag before the step, not after it:
    /// the RTL keeps `next` as a base and the law it adds, and makes the sum a clock later.
    fn step_base(&self, now: u32, next: u32) -> u32 {
        let limit = 1u64 << (self.widths.time_bits - 2);
        if self.lag_clamp && self.after(now, next) && self.diff(now, next) > limit {
            ((now as u64).wrapping_sub(limit) & self.mask()) as u32
        } else {
            next
        }
    }

    /// One dequeue decision at tick `now` for a descriptor with `sojourn`, ECN codepoint `ecn`
    /// and `qlen` (queue occupancy left behind, in the port's unit).
    pub fn dequeue(&mut self, now: u32, sojourn: u32, ecn_in: u8, qlen: u32) -> Decision {
        let now = (now as u64 & self.mask()) as u32;
        let cfg = self.cfg;
        let (ins, det, pst) = match cfg.mode {
            Mode::Off => (false, false, false),
            Mode::QueueLen => (qlen > cfg.k, false, false),
            Mode::Tcn => (sojourn > cfg.ins_target, false, false),
            Mode::EcnSharp => {
                let (det, pst) = self.ecn_sharp(now, sojourn);
                (sojourn > cfg.ins_target, det, pst)
            }
            Mode::Codel => {
                let (det, pst) = self.codel(now, sojourn, qlen);
                (false, det, pst)
            }
        };
        let fire = ins || pst;
        let ecn_in = ecn_in & 3;
        let mut d = Decision { ins, det, pst, ecn_out: ecn_in, drop: false };
        if fire {
            if ecn::is_ect(ecn_in) {
                d.ecn_out = ecn::CE;
                self.counters.marked = self.counters.marked.saturating_add(1);
            } else if ecn_in == ecn::NOT_ECT && cfg.drop_non_ect {
                d.drop = true;
                self.counters.dropped = self.counters.dropped.saturating_add(1);
            }
        }
        if ins {
            self.counters.fired_inst = self.counters.fired_inst.saturating_add(1);
        }
        if pst {
            self.counters.fired_pers = self.counters.fired_pers.saturating_add(1);
        }
        d
    }

    /// Whether a dequeue is below target for the tracker: the sojourn under `PST_TARGET`, and
    /// for CoDel also a queue of at most `CODEL_MIN_QLEN`.
    pub fn below_target(&self, sojourn: u32, qlen: u32, codel: bool) -> bool {
        sojourn < self.cfg.pst_target || (codel && qlen <= self.cfg.codel_min_qlen)
    }

    /// The above-target tracker shared by ECN♯ and CoDel (`strict`: ECN♯'s "more than the
    /// interval"), on a dequeue the persistent rules see: returns `detected`.
    /// `fat` holds the time the sojourn first reached the target; the latch keeps detection
    /// once it fired, so `fat` aging past 2^(W−1) cannot undo it (§5 item 8).
    pub fn track_above(&mut self, now: u32, below: bool, strict: bool) -> bool {
        let p = self.cfg.pst_interval as u64;
        let s = &mut self.state;
        if below {
            s.fat_valid = false;
            s.det_latched = false;
            return false;
        }
        if !s.fat_valid {
            s.fat_valid = true;
            s.fat = now;
            return false;
        }
        let age = self.diff(now, self.state.fat);
        let det = self.state.det_latched || if strict { age > p } else { age >= p };
        self.state.det_latched = det;
        det
    }

    /// ECN♯ Algorithm 1 (ECN♯ §1.5), evaluated on every dequeue.
    fn ecn_sharp(&mut self, now: u32, sojourn: u32) -> (bool, bool) {
        let cfg = self.cfg;
        let det = self.track_above(now, self.below_target(sojourn, 0, false), true);
        let p = cfg.pst_interval as u32;
        let pst = if self.state.ms {
            if !det {
                self.state.ms = false;
                false
            } else {
                let due = if cfg.due_ge {
                    self.after_eq(now, self.state.next)
                } else {
                    self.after(now, self.state.next)
                };
                if due {
                    let cnt = self.sat_inc(self.state.cnt);
                    self.state.cnt = cnt;
                    self.state.next = match cfg.law {
                        Law::PaperHarmonic => self.add(self.step_base(now, self.state.next), self.law(LawKind::Harmonic, cnt)),
                        Law::Ns3Sqrt => self.add(now, self.law(LawKind::Sqrt, cnt)),
                    };
                }
                due
            }
        } else if det {
            self.state.ms = true;
            self.state.cnt = 1;
            self.state.next = self.add(now, p);
            true
        } else {
            false
        };
        (det, pst)
    }

    /// CoDel in ECN mode (RFC 8289 §5 with the Linux re-entry rule), at dequeue. A mark takes
    /// the place of a drop: one per dequeue at most, `drop_next` advanced from itself.
    fn codel(&mut self, now: u32, sojourn: u32, qlen: u32) -> (bool, bool) {
        let cfg = self.cfg;
        let ok = self.track_above(now, self.below_target(sojourn, qlen, true), false);
        let p = cfg.pst_interval as u32;
        let pst = if self.state.ms {
            if !ok {
                self.state.ms = false;
                false
            } else {
                let due = self.after_eq(now, self.state.next);
                if due {
                    let cnt = self.sat_inc(self.state.cnt);
                    self.state.cnt = cnt;
                    self.state.next = self.add(self.step_base(now, self.state.next), self.law(LawKind::Sqrt, cnt));
                }
                due
            }
        } else if ok {
            self.state.ms = true;
            // (mod 2^16, as the RTL's chain: a mode write can leave `lastcount` above `cnt`)
            let delta = self.state.cnt.wrapping_sub(self.state.lastcount);
            // "recently": now − drop_next < 16·interval, signed on the clock width.
            let recent = !self.after_eq(now, self.state.next)
                || self.diff(now, self.state.next) < 16 * p as u64;
            let cnt = if delta > 1 && recent { delta } else { 1 };
            self.state.cnt = cnt;
            self.state.lastcount = cnt;
            self.state.next = self.add(now, self.law(LawKind::Sqrt, cnt));
            true
        } else {
            false
        };
        (ok, pst)
    }
}

impl Config {
    /// Decode the MODE register word.
    pub fn set_mode_word(&mut self, w: u32) {
        self.mode = Mode::from_bits(w & 7);
        self.law = if w & (1 << 4) != 0 { Law::Ns3Sqrt } else { Law::PaperHarmonic };
        self.due_ge = w & (1 << 5) != 0;
        self.drop_non_ect = w & (1 << 6) != 0;
    }
}
