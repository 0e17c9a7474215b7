//! Golden model of the selective-drop admission block (table, choices and latency in the README): the
//! decision stage [`SelDropCore`] (what the switch port instantiates, behind its own input
//! stage) and the block [`SelDrop`], that stage behind an input stage of one clock.

use super::{csr, SelDropIn, SelDropOut, DEFAULT_CAP, DEFAULT_K, DEFAULT_MAX_LEN};
use crate::cycle::{CsrStage, CycleModel, LateCounters, Pin};

const MAX32: u64 = 0xFFFF_FFFF;

/// The decision stage: it decides the arrival it is given against the occupancy at the start of
/// the clock, applies the dequeue given a clock before (its own input stage, README *Latency*),
/// and applies a register write at the edge that ends the clock after the write's (`CsrStage`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelDropCore {
    pub bytes_unit: bool,
    pub k: u64,
    pub cap: u64,
    pub drop_non_ect: bool,
    pub max_len: u64,
    pub occ_pkts: u64,
    pub occ_bytes: u64,
    /// The dequeue presented last clock (its length), applied in this one.
    pub deq: Option<u64>,
    pub csr: CsrStage,
    /// enq, marked, drop_sel, drop_full, malformed, deq, bad_deq, csr_rejected (each counts its
    /// event a clock later).
    pub counters: LateCounters<8>,
}

impl Default for SelDropCore {
    fn default() -> Self {
        SelDropCore {
            bytes_unit: false,
            k: DEFAULT_K,
            cap: DEFAULT_CAP,
            drop_non_ect: true,
            max_len: DEFAULT_MAX_LEN,
            occ_pkts: 0,
            occ_bytes: 0,
            deq: None,
            csr: CsrStage::default(),
            counters: LateCounters::default(),
        }
    }
}

/// What happened to an arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Enq,
    Mark,
    DropSel,
    DropFull,
    DropBad,
}

impl SelDropCore {
    /// The admission decision for an arrival against the state at the start of the clock.
    pub fn decide(&self, len: u64, ecn: u64, low_prio: bool) -> Decision {
        if len == 0 || len > self.max_len {
            return Decision::DropBad;
        }
        let (occ, size) = if self.bytes_unit { (self.occ_bytes, len) } else { (self.occ_pkts, 1) };
        if occ > self.cap || size > self.cap - occ || len > MAX32 - self.occ_bytes {
            return Decision::DropFull;
        }
        if occ > self.k {
            if (ecn == 0 || low_prio) && self.drop_non_ect {
                return Decision::DropSel;
            }
            if ecn != 0 {
                return Decision::Mark;
            }
        }
        Decision::Enq
    }

    /// A register write; `Err` when it is rejected, `Ok(Some(..))` when it presets a counter.
    fn csr_write(&mut self, addr: u64, data: u64) -> Result<Option<(usize, u64)>, ()> {
        let mut preset = None;
        let ok = match addr as u8 {
            csr::UNIT if data <= 1 => {
                self.bytes_unit = data == 1;
                true
            }
            csr::K => {
                self.k = data;
                true
            }
            csr::CAP => {
                self.cap = data;
                true
            }
            csr::FLAGS => {
                self.drop_non_ect = data & 1 == 1;
                true
            }
            csr::MAX_LEN if data & 0xFFFF != 0 => {
                self.max_len = data & 0xFFFF;
                true
            }
            a if (csr::CNT_BASE..csr::CNT_BASE + 8).contains(&a) => {
                preset = Some(((a - csr::CNT_BASE) as usize, data));
                true
            }
            _ => false,
        };
        if ok { Ok(preset) } else { Err(()) }
    }

    /// One clock: the decision on `i`'s arrival, the dequeue presented last clock applied, and
    /// `i`'s dequeue and register write held for the next clock. Outputs show the state at the
    /// start of the clock.
    pub fn clock(&mut self, i: &SelDropIn) -> SelDropOut {
        let c = &self.counters;
        let mut o = SelDropOut {
            ecn_out: i.arr_ecn,
            occ_pkts: self.occ_pkts,
            occ_bytes: self.occ_bytes,
            cnt_enq: c[0],
            cnt_marked: c[1],
            cnt_drop_sel: c[2],
            cnt_drop_full: c[3],
            cnt_malformed: c[4],
            cnt_deq: c[5],
            cnt_bad_deq: c[6],
            cnt_csr_rejected: c[7],
            ..Default::default()
        };
        let mut ev = [false; 8];
        let (mut add_p, mut add_b) = (0, 0);
        if i.arr_valid == 1 {
            match self.decide(i.arr_len, i.arr_ecn, i.arr_low_prio == 1) {
                d @ (Decision::Enq | Decision::Mark) => {
                    o.admit = 1;
                    (add_p, add_b) = (1, i.arr_len);
                    ev[0] = true;
                    if d == Decision::Mark {
                        o.ecn_out = 3;
                        ev[1] = true;
                    }
                }
                Decision::DropSel => {
                    o.drop_sel = 1;
                    ev[2] = true;
                }
                Decision::DropFull => {
                    o.drop_full = 1;
                    ev[3] = true;
                }
                Decision::DropBad => {
                    o.drop_bad = 1;
                    ev[4] = true;
                }
            }
        }
        // a dequeue of an empty queue, of length 0 or of more bytes than queued is ignored
        let (mut sub_p, mut sub_b) = (0, 0);
        if let Some(len) = self.deq {
            if self.occ_pkts == 0 || len == 0 || len > self.occ_bytes {
                ev[6] = true;
            } else {
                (sub_p, sub_b) = (1, len);
                ev[5] = true;
            }
        }
        self.deq = (i.deq_valid == 1).then_some(i.deq_len);
        self.occ_pkts = self.occ_pkts + add_p - sub_p;
        self.occ_bytes = self.occ_bytes + add_b - sub_b;
        let write = match self.csr.edge(i.csr_we, i.csr_addr, i.csr_wdata) {
            Some((addr, data)) => self.csr_write(addr, data),
            None => Ok(None),
        };
        ev[7] = write.is_err();
        self.counters.edge(ev, write.unwrap_or(None));
        o
    }
}

/// The block: an input stage registers the arrival, and the decision stage decides it in the
/// next clock; a dequeue goes straight to the stage, which holds it a clock itself, so an
/// arrival and a dequeue presented in one clock meet in the next one, the arrival judged
/// on the occupancy before the dequeue (§4 M1), as without the stage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SelDrop {
    pub core: SelDropCore,
    /// The arrival presented last clock: (length, ECN, low priority).
    pub arrival: Option<(u64, u64, u64)>,
}

impl CycleModel for SelDrop {
    const INPUTS: &'static [Pin] = SelDropIn::PINS;
    const OUTPUTS: &'static [Pin] = SelDropOut::PINS;
    const WRITE_DELAY: usize = 1;

    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let i = SelDropIn::from_slice(inputs);
        let (len, ecn, low) = self.arrival.unwrap_or_default();
        let staged = SelDropIn { arr_valid: self.arrival.is_some() as u64, arr_len: len, arr_ecn: ecn, arr_low_prio: low, ..i };
        self.arrival = (i.arr_valid == 1).then_some((i.arr_len, i.arr_ecn, i.arr_low_prio));
        self.core.clock(&staged).to_vec()
    }
}

