//! # AQM marker
//!
//! One marking decision per dequeued descriptor per clock, with the mode chosen at run time
//! through the register port (ecn-sharp.md §1, §3, §5; gemini-flashpass.md §1.6):
//!
//! | mode | rule that fires | spec |
//! |---|---|---|
//! | `off` | none | |
//! | `queue_len` | `qlen > K` (DCTCP single threshold, GEMINI DC switch, K = 50 pkts/Gbps) | gemini §1.6, ecn-sharp §3 |
//! | `tcn` | `sojourn > ins_target` | ecn-sharp §3 |
//! | `codel` | CoDel: sojourn ≥ target for ≥ interval, then marks at `interval/√n` | ecn-sharp §3, RFC 8289 |
//! | `ecn_sharp` | `sojourn > ins_target`, or persistent: sojourn ≥ `pst_target` for > `pst_interval`, then marks at `pst_interval/n` (paper law) or `pst_interval/√n` from now (ns-3 law) | ecn-sharp §1.5–§1.8 |
//!
//! When a rule fires: ECT(0)/ECT(1) become CE (and count in `marked`), CE stays CE, Not-ECT is
//! dropped if `drop_non_ect` is set and passes unmarked otherwise (counted in `dropped`).
//! `fired_inst` and `fired_pers` count the packets on which each rule fired, whatever their
//! codepoint, so marks per rule are visible even when no CE could be set.
//!
//! Design choices where the spec leaves room (all in the model and the RTL alike):
//! * `qlen` is the occupancy the dequeue leaves behind, in the unit the port counts (bytes or
//!   packets); `K` is in the same unit and the compare is strict, like GEMINI's "occupancy
//!   before the arrival exceeds K".
//! * Time is a 32-bit tick counter with wrap-safe compares: the detection age is an unsigned
//!   modular difference plus a `detected` latch; `marking_next` never lags `now` by more than
//!   2^30 ticks (lag clamp, §5 item 8, V13b). `first_above_time` has a valid bit (§5 item 9).
//! * `marking_count` is 16 bits and saturates (§5 item 6); the control law divides with a
//!   16-entry table the host programs from `pst_interval` ([`lut`]), Tofino parity for the
//!   paper law and a documented approximation for `1/√n`.
//! * The persistent state advances on every dequeue, including Not-ECT and already-CE packets
//!   (§5 item 11). Nothing resets on an empty queue (§5 item 10).
//! * CoDel's `minBytes` guard is `qlen ≤ codel_min_qlen` (RFC 8289's `bytes ≤ maxpacket`).

pub mod lut;
pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;
#[cfg(test)]
mod spec_tests;

use lut::{LawKind, LawLut};

/// Register addresses of the marker's write port (32-bit data). Reads are the block's outputs.
pub mod csr {
    /// bits 2:0 mode (0 off, 1 queue_len, 2 tcn, 3 codel, 4 ecn_sharp); bit 4 ns-3 law;
    /// bit 5 `>=` for the ECN♯ "mark due" compare; bit 6 drop Not-ECT when a rule fires.
    pub const MODE: u8 = 0;
    pub const INS_TARGET: u8 = 1;
    pub const K: u8 = 2;
    pub const PST_TARGET: u8 = 3;
    /// 16 bits, in ticks.
    pub const PST_INTERVAL: u8 = 4;
    pub const CODEL_MIN_QLEN: u8 = 5;
    /// `16 − scale` of the control-law table (6 bits).
    pub const LUT_SHIFT: u8 = 6;
    /// Any write clears the per-queue state (counters are kept).
    pub const STATE_CLEAR: u8 = 7;
    /// Timebase: load `now` (handled by the top, not the marker).
    pub const TIME_LOAD: u8 = 8;
    /// Timebase: clocks per tick (16 bits; 0 and 1 mean every clock).
    pub const CLK_PER_TICK: u8 = 9;
    /// Control-law table, entry `4j + b` in bits `8b..8b+8` of word `LUT0 + j`.
    pub const LUT0: u8 = 16;
    pub const LUT3: u8 = 19;
    /// Counter presets (a write sets the counter).
    pub const CNT_MARKED: u8 = 24;
    pub const CNT_FIRED_INST: u8 = 25;
    pub const CNT_FIRED_PERS: u8 = 26;
    pub const CNT_DROPPED: u8 = 27;
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Off,
    QueueLen,
    Tcn,
    Codel,
    EcnSharp,
}

impl Mode {
    pub fn bits(self) -> u32 {
        match self {
            Mode::Off => 0,
            Mode::QueueLen => 1,
            Mode::Tcn => 2,
            Mode::Codel => 3,
            Mode::EcnSharp => 4,
        }
    }
    /// Reserved encodings (5..7) read as `off`, in the model and the RTL alike.
    pub fn from_bits(b: u32) -> Mode {
        match b {
            1 => Mode::QueueLen,
            2 => Mode::Tcn,
            3 => Mode::Codel,
            4 => Mode::EcnSharp,
            _ => Mode::Off,
        }
    }
    pub const ALL: [Mode; 5] = [Mode::Off, Mode::QueueLen, Mode::Tcn, Mode::Codel, Mode::EcnSharp];
}

/// ECN♯ control law (ecn-sharp.md §1.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Law {
    /// `marking_next += pst_interval / marking_count` (the paper).
    #[default]
    PaperHarmonic,
    /// `marking_next = now + pst_interval / √marking_count` (the public ns-3 code).
    Ns3Sqrt,
}

/// Marker configuration, as written through the register port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub mode: Mode,
    pub law: Law,
    /// ECN♯ "mark due" compare: `now >= marking_next` instead of the paper's `>`.
    pub due_ge: bool,
    pub drop_non_ect: bool,
    /// Ticks; TCN threshold and ECN♯ `ins_target`.
    pub ins_target: u32,
    /// Queue-length threshold, in the unit of `qlen`.
    pub k: u32,
    /// Ticks; ECN♯ `pst_target`, CoDel `target`.
    pub pst_target: u32,
    /// Ticks; ECN♯ `pst_interval`, CoDel `interval`.
    pub pst_interval: u16,
    pub codel_min_qlen: u32,
}

impl Default for Config {
    /// The paper's testbed values in 1 µs ticks (ecn-sharp.md §4.4), marker off.
    fn default() -> Self {
        Config {
            mode: Mode::Off,
            law: Law::PaperHarmonic,
            due_ge: false,
            drop_non_ect: false,
            ins_target: 200,
            k: 0,
            pst_target: 85,
            pst_interval: 200,
            codel_min_qlen: 0,
        }
    }
}

impl Config {
    /// The registers after reset (all zero, marker off): what the RTL holds before the host
    /// writes a configuration, and so what the model starts from.
    pub const RESET: Config = Config {
        mode: Mode::Off,
        law: Law::PaperHarmonic,
        due_ge: false,
        drop_non_ect: false,
        ins_target: 0,
        k: 0,
        pst_target: 0,
        pst_interval: 0,
        codel_min_qlen: 0,
    };

    pub fn mode_word(&self) -> u32 {
        self.mode.bits()
            | (matches!(self.law, Law::Ns3Sqrt) as u32) << 4
            | (self.due_ge as u32) << 5
            | (self.drop_non_ect as u32) << 6
    }

    /// The control-law table this configuration needs.
    pub fn lut(&self) -> LawLut {
        let kind = match (self.mode, self.law) {
            (Mode::EcnSharp, Law::PaperHarmonic) => LawKind::Harmonic,
            _ => LawKind::Sqrt,
        };
        LawLut::for_law(kind, self.pst_interval)
    }

    /// Problems that make a configuration meaningless (ecn-sharp.md §5 items 10, 12).
    pub fn validate(&self) -> Result<(), String> {
        match self.mode {
            Mode::EcnSharp | Mode::Codel if self.pst_target == 0 => {
                Err("pst_target must be > 0 ticks (ecn-sharp.md §5 item 10)".into())
            }
            Mode::EcnSharp | Mode::Codel if self.pst_interval == 0 => {
                Err("pst_interval must be > 0 ticks".into())
            }
            Mode::EcnSharp if self.pst_target > self.ins_target => Err(format!(
                "pst_target ({}) must not exceed ins_target ({}) (ecn-sharp.md §5 item 12)",
                self.pst_target, self.ins_target
            )),
            _ => Ok(()),
        }
    }

    /// The register writes that program this configuration, state cleared last.
    pub fn csr_writes(&self) -> Vec<(u8, u32)> {
        let lut = self.lut();
        let mut w = vec![
            (csr::MODE, self.mode_word()),
            (csr::INS_TARGET, self.ins_target),
            (csr::K, self.k),
            (csr::PST_TARGET, self.pst_target),
            (csr::PST_INTERVAL, self.pst_interval as u32),
            (csr::CODEL_MIN_QLEN, self.codel_min_qlen),
            (csr::LUT_SHIFT, lut.shift_bias as u32),
        ];
        for (j, word) in lut.words().iter().enumerate() {
            w.push((csr::LUT0 + j as u8, *word));
        }
        w.push((csr::STATE_CLEAR, 0));
        w
    }
}

/// Per-queue marker state (ecn-sharp.md Table 2, §2.5; CoDel shares the registers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// ECN♯ `marking_state` / CoDel `dropping`.
    pub ms: bool,
    pub fat_valid: bool,
    /// `first_above_time` (meaningful when `fat_valid`).
    pub fat: u32,
    pub det_latched: bool,
    /// `marking_count` / CoDel `count`, saturating.
    pub cnt: u16,
    /// CoDel `lastcount`.
    pub lastcount: u16,
    /// `marking_next` / CoDel `drop_next`.
    pub next: u32,
}

/// Saturating 32-bit event counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counters {
    pub marked: u32,
    pub fired_inst: u32,
    pub fired_pers: u32,
    pub dropped: u32,
}

/// What the marker decided for one dequeue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// Instantaneous rule (K, TCN, ECN♯ `ins`).
    pub ins: bool,
    /// Persistent condition detected (ECN♯ `detected`, CoDel `ok_to_drop`).
    pub det: bool,
    /// Persistent rule marked this packet.
    pub pst: bool,
    pub ecn_out: u8,
    pub drop: bool,
}
