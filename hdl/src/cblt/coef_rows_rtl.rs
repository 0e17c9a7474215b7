//! RTL of the decoder's coefficient rows (CB-LT §6.6, §7.4): the open context's rows over GF(2),
//! kept fully reduced (slot q holds the row whose lowest bit is q), and what a symbol does to
//! them: its mask reduced against the rows it touches, its pivot, the back-elimination (the
//! scanner, `scanner_rtl::ElimScanner`) and its install. The model is `decoder.rs`; the decoder's vectors and fuzz check the rows in
//! place, `sim-tests/tests/cblt_components.rs` alone.

use crate::rtl_util::{BlockRam, LowestOne};
use rust_hdl::prelude::*;

use super::scanner_rtl::ElimScanner;

/// The coefficient rows: a 64-row RAM of KM-bit masks read with a registered address, the rows
/// in use, the rows that are their pivot alone (`known`) and their count (`rank`).
///
/// Each input is a pulse or a level from the decoder's sequence:
/// - `load` with `bits`: a symbol's mask `m = bits`, its touched rows `bits ∧ valid` to reduce;
/// - `reduce` (REDUCE, a level): one touched row is picked per clock (lowest first), its read
///   address registered, and the row the RAM returns is XORed into `m` two clocks after the
///   pick; `reduced` says `m` is final (`m'`: no row left, none in flight) this clock;
/// - `decide` (DECIDE, `m' ≠ 0`): the pivot q is `m'`'s lowest one (`q_idx`, from the next
///   clock);
/// - `scan` (pass 0 took its last word): the back-elimination scans the valid rows (`scan_on`
///   until it is over, reading the RAM instead of the reduction) and XORs `m'` into every
///   row with bit q, lowest first (a pulse on `wr`, one-hot `wr_oh`, for each); a row written is known after if it is
///   its pivot alone, not known if not. Before the scan, `rem` holds the touched rows from the
///   clock after `load`, and `low_oh`/`low_idx` their lowest a clock later (pass 0's sources);
/// - `install` (INSTALL): `m'` is written at slot q and made valid (known if it is q alone),
///   and the rank steps;
/// - `free` (the record is taken) and `clear`: no row is valid, known or counted (`clear`
///   also stops a scan).
#[derive(LogicBlock, Default)]
pub struct CoefRows<const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub load: Signal<In, Bit>,
    pub bits: Signal<In, Bits<KM>>,
    pub reduce: Signal<In, Bit>,
    pub decide: Signal<In, Bit>,
    pub scan: Signal<In, Bit>,
    pub install: Signal<In, Bit>,
    pub free: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub reduced: Signal<Out, Bit>,
    pub m: Signal<Out, Bits<KM>>,
    pub q_idx: Signal<Out, Bits<6>>,
    pub scan_on: Signal<Out, Bit>,
    pub wr: Signal<Out, Bit>,
    pub wr_oh: Signal<Out, Bits<KM>>,
    pub rem: Signal<Out, Bits<KM>>,
    pub low_oh: Signal<Out, Bits<KM>>,
    pub low_idx: Signal<Out, Bits<6>>,
    pub known: Signal<Out, Bits<KM>>,
    pub rank: Signal<Out, Bits<7>>,
    /// The touched rows left to pick in REDUCE, then m' for DECIDE's pivot: the lowest-one unit
    /// reads this register alone (no multiplexer before its carry chain).
    red_rem: DFF<Bits<KM>>,
    /// A picked row's read is issued (its index in `ra`), and its row is on the RAM's output
    /// (`pend`, a clock later).
    iss: DFF<Bit>,
    pend: DFF<Bit>,
    /// The RAM's read address, registered: the lowest-one unit feeds a register, not the block
    /// RAM's address pins.
    ra: DFF<Bits<6>>,
    m_r: DFF<Bits<KM>>,
    q_oh_r: DFF<Bits<KM>>,
    q_idx_r: DFF<Bits<6>>,
    valid_r: DFF<Bits<KM>>,
    known_r: DFF<Bits<KM>>,
    rank_r: DFF<Bits<7>>,
    ram: BlockRam<KM, 6>,
    lo: LowestOne<KM>,
    sc: ElimScanner<KM>,
}

impl<const KM: usize> Logic for CoefRows<KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, red_rem, iss, pend, ra, m_r, q_oh_r, q_idx_r, valid_r, known_r, rank_r);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.sc.clock.next = self.clock.val();
        self.sc.load.next = self.load.val();
        self.sc.touched.next = self.bits.val() & self.valid_r.q.val();
        self.sc.start.next = self.scan.val();
        self.sc.valid.next = self.valid_r.q.val();
        self.sc.coef.next = self.ram.read_data.val();
        self.sc.m.next = self.m_r.q.val();
        self.sc.q_oh.next = self.q_oh_r.q.val();
        self.sc.clear.next = self.clear.val();
        self.scan_on.next = self.sc.on.val();
        self.wr.next = self.sc.wr.val();
        self.wr_oh.next = self.sc.wr_oh.val();
        self.rem.next = self.sc.rem.val();
        self.low_oh.next = self.sc.low_oh.val();
        self.low_idx.next = self.sc.low_idx.val();
        self.m.next = self.m_r.q.val();
        self.q_idx.next = self.q_idx_r.q.val();
        self.known.next = self.known_r.q.val();
        self.rank.next = self.rank_r.q.val();
        self.lo.x.next = self.red_rem.q.val();
        self.ra.d.next = self.lo.idx.val();
        if self.sc.on.val() {
            self.ra.d.next = self.sc.read_idx.val();
        }
        self.ram.read_address.next = self.ra.q.val();
        // the scanner's writes: a row with bit q gets m'
        self.ram.write_enable.next = self.sc.wr.val();
        self.ram.write_address.next = self.sc.wr_idx.val();
        self.ram.write_data.next = self.sc.wr_row.val();
        if self.sc.wr.val() {
            self.known_r.d.next = self.known_r.q.val() & !self.sc.wr_oh.val();
            if self.sc.wr_same.val() {
                self.known_r.d.next = self.known_r.q.val() | self.sc.wr_oh.val();
            }
        }
        if self.load.val() {
            self.red_rem.d.next = self.bits.val() & self.valid_r.q.val();
            self.m_r.d.next = self.bits.val();
            self.iss.d.next = false;
            self.pend.d.next = false;
        }
        // REDUCE: a row picked at one clock has its address registered at the edge, and the RAM
        // returns it at the next
        self.reduced.next = self.reduce.val() & !self.red_rem.q.val().any() & !self.iss.q.val() & !self.pend.q.val();
        if self.reduce.val() {
            if self.pend.q.val() {
                self.m_r.d.next = self.m_r.q.val() ^ self.ram.read_data.val();
            }
            self.iss.d.next = self.red_rem.q.val().any();
            self.pend.d.next = self.iss.q.val();
            if self.red_rem.q.val().any() {
                self.red_rem.d.next = self.red_rem.q.val() & !self.lo.oh.val();
            }
            if self.reduced.val() {
                // m' is final: DECIDE takes its lowest one from the same unit
                self.red_rem.d.next = self.m_r.q.val();
            }
        }
        if self.decide.val() {
            self.q_oh_r.d.next = self.lo.oh.val();
            self.q_idx_r.d.next = self.lo.idx.val();
        }
        if self.install.val() {
            self.ram.write_enable.next = true;
            self.ram.write_address.next = self.q_idx_r.q.val();
            self.ram.write_data.next = self.m_r.q.val();
            self.valid_r.d.next = self.valid_r.q.val() | self.q_oh_r.q.val();
            if self.m_r.q.val() == self.q_oh_r.q.val() {
                self.known_r.d.next = self.known_r.q.val() | self.q_oh_r.q.val();
            }
            self.rank_r.d.next = self.rank_r.q.val() + 1;
        }
        if self.free.val() | self.clear.val() {
            self.valid_r.d.next = 0.into();
            self.known_r.d.next = 0.into();
            self.rank_r.d.next = 0.into();
        }
    }
}

/// The instance the component's own test drives (`sim-tests/tests/cblt_components.rs`): rows of
/// 16 bits.
pub type TestCoefRows = CoefRows<16>;

crate::pin_io!(TestCoefRows; in: load, bits, reduce, decide, scan, install, free, clear;
    out: reduced, m, q_idx, scan_on, wr, wr_oh, rem, low_oh, low_idx, known, rank);
