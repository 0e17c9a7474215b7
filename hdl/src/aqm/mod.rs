#![doc = include_str!("README.md")]

pub mod lut;
pub mod model;
#[cfg(feature = "rtl")]
pub mod pipe;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;
#[cfg(test)]
mod spec_tests;

use lut::{LawKind, LawLut};

/// Register addresses of the marker's write port (32-bit data). Reads are the block's outputs.
pub mod csr {
    crate::regmap! { u8;
        MODE @ 0 : Wo, "Marking mode and options (reset: off)."
            { mode[0 +: 3] "0 off, 1 queue_len, 2 tcn, 3 codel, 4 ecn_sharp",
              ns3_law[4 +: 1] "ECN♯'s persistent law: 0 the paper's `pst_interval/n`, 1 ns-3's `pst_interval/√n` from now",
              due_ge[5 +: 1] "`now ≥ marking_next` (1) rather than `>` (0) for \"a mark is due\"",
              drop_non_ect[6 +: 1] "drop a Not-ECT packet when a rule fires (else it passes unmarked)" };
        INS_TARGET @ 1 : Wo, "Instantaneous sojourn threshold in ticks (TCN, ECN♯).";
        K @ 2 : Wo, "Queue-length threshold: mark when `qlen > K` (queue_len mode), in the port's occupancy unit.";
        PST_TARGET @ 3 : Wo, "Persistent sojourn target in ticks (CoDel target, ECN♯ pst_target).";
        PST_INTERVAL @ 4 : Wo, "Persistent interval in ticks, 16 bits (CoDel interval, ECN♯ pst_interval).";
        CODEL_MIN_QLEN @ 5 : Wo, "CoDel's guard: no persistent marking while `qlen ≤ CODEL_MIN_QLEN`.";
        LUT_SHIFT @ 6 : Wo, "`16 − scale` of the control-law table, 6 bits (written by `Config::csr_writes`).";
        STATE_CLEAR @ 7 : Cmd, "Any write clears every queue's marking state (counters are kept).";
        TIME_LOAD @ 8 : Wo, "Time base: load `now` (handled by the top around the marker).";
        CLK_PER_TICK @ 9 : Wo, "Time base: clocks per tick, 16 bits (0 and 1: every clock).";
        LUT0 @ 16 x 4 : Wo, "Control-law table: entry `4j + b` in bits `8b+7..8b` of word `LUT0 + j`.";
        CNT_MARKED @ 24 : Wo, "Preset of the `marked` counter (ECT packets turned CE).";
        CNT_FIRED_INST @ 25 : Wo, "Preset of `fired_inst` (packets on which the instantaneous rule fired).";
        CNT_FIRED_PERS @ 26 : Wo, "Preset of `fired_pers` (packets on which the persistent rule fired).";
        CNT_DROPPED @ 27 : Wo, "Preset of `dropped` (Not-ECT packets dropped by a rule).";
    }
    /// The last word of the control-law table.
    pub const LUT3: u8 = LUT0 + 3;
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

/// ECN♯ control law (ECN♯ §1.8).
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
    /// The paper's testbed values in 1 µs ticks (ECN♯ §4.4), marker off.
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

    /// Problems that make a configuration meaningless (ECN♯ §5 items 10, 12).
    pub fn validate(&self) -> Result<(), String> {
        match self.mode {
            Mode::EcnSharp | Mode::Codel if self.pst_target == 0 => {
                Err("pst_target must be > 0 ticks (ECN♯ §5 item 10)".into())
            }
            Mode::EcnSharp | Mode::Codel if self.pst_interval == 0 => {
                Err("pst_interval must be > 0 ticks".into())
            }
            Mode::EcnSharp if self.pst_target > self.ins_target => Err(format!(
                "pst_target ({}) must not exceed ins_target ({}) (ECN♯ §5 item 12)",
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

/// Per-queue marker state (ECN♯ Table 2, §2.5; CoDel shares the registers).
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
