//! RTL of the decoder's back-elimination scanner (CB-LT §6.6: rows are kept fully reduced, so
//! once m' is installed at pivot q every other valid row with bit q gets m' XORed in). The
//! model is `decoder.rs`'s elimination loop; the decoder's vectors and fuzz check it in place,
//! `sim-tests/tests/cblt_components.rs` alone.

use crate::rtl_util::LowestOne;
use rust_hdl::prelude::*;

/// The scanner over a coefficient RAM of 64 rows of KM bits, read with a registered address.
///
/// `start` begins a scan of the rows in `valid` (lowest first): each clock it issues the next
/// row (`read_idx`, which the owner registers into the RAM's read address), the RAM returns it
/// two clocks later on `coef`, and a clock after that it is checked from registers: a row with
/// bit q (`q_oh`) is a write request (`wr`): `wr_row` (the row with `m` XORed in) at `wr_idx`
/// (one-hot `wr_oh`), and `wr_same` says the new row is its pivot alone (the row is now known).
/// `on` is high from the clock after `start` until every issued row has been checked. Before a
/// scan, `load` keeps `touched` (the rows a symbol touches) for the owner: `rem` holds them
/// from the clock after, and `low_oh`/`low_idx` are their lowest from the clock after that
/// (registered every clock, off the carry chain). `clear` stops a scan.
#[derive(LogicBlock, Default)]
pub struct ElimScanner<const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub load: Signal<In, Bit>,
    pub touched: Signal<In, Bits<KM>>,
    pub start: Signal<In, Bit>,
    pub valid: Signal<In, Bits<KM>>,
    pub coef: Signal<In, Bits<KM>>,
    pub m: Signal<In, Bits<KM>>,
    pub q_oh: Signal<In, Bits<KM>>,
    pub clear: Signal<In, Bit>,
    pub on: Signal<Out, Bit>,
    pub rem: Signal<Out, Bits<KM>>,
    pub low_oh: Signal<Out, Bits<KM>>,
    pub low_idx: Signal<Out, Bits<6>>,
    pub read_idx: Signal<Out, Bits<6>>,
    pub wr: Signal<Out, Bit>,
    pub wr_idx: Signal<Out, Bits<6>>,
    pub wr_row: Signal<Out, Bits<KM>>,
    pub wr_oh: Signal<Out, Bits<KM>>,
    pub wr_same: Signal<Out, Bit>,
    s_on: DFF<Bit>,
    /// The touched rows from `load` to the scan (the owner's), then the rows left to scan.
    s_rem: DFF<Bits<KM>>,
    s_low_oh: DFF<Bits<KM>>,
    s_low_idx: DFF<Bits<6>>,
    /// A read issued (row `s_ipidx`, one-hot `s_ipoh`), then on the RAM's output (`s_pend`,
    /// row `s_pidx`, one-hot `s_poh`).
    s_iss: DFF<Bit>,
    s_ipoh: DFF<Bits<KM>>,
    s_ipidx: DFF<Bits<6>>,
    s_pend: DFF<Bit>,
    s_poh: DFF<Bits<KM>>,
    s_pidx: DFF<Bits<6>>,
    /// The row read, checked a clock after the RAM returns it (`s_chk`): whether it has bit q
    /// (`s_hit`), the row with m' XORed in (`s_cnew`), the row (`s_cpidx`, `s_cpoh`). The RAM's
    /// output only reaches registers.
    s_chk: DFF<Bit>,
    s_hit: DFF<Bit>,
    s_cnew: DFF<Bits<KM>>,
    s_cpoh: DFF<Bits<KM>>,
    s_cpidx: DFF<Bits<6>>,
    lo_s: LowestOne<KM>,
}

impl<const KM: usize> Logic for ElimScanner<KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s_on, s_rem, s_low_oh, s_low_idx, s_iss, s_ipoh, s_ipidx, s_pend, s_poh, s_pidx, s_chk, s_hit, s_cnew, s_cpoh, s_cpidx);
        self.lo_s.x.next = self.s_rem.q.val();
        self.s_low_oh.d.next = self.lo_s.oh.val();
        self.s_low_idx.d.next = self.lo_s.idx.val();
        if self.s_on.q.val() {
            self.s_iss.d.next = self.s_rem.q.val().any();
            self.s_pend.d.next = self.s_iss.q.val();
            self.s_poh.d.next = self.s_ipoh.q.val();
            self.s_pidx.d.next = self.s_ipidx.q.val();
            if self.s_rem.q.val().any() {
                self.s_rem.d.next = self.s_rem.q.val() & !self.lo_s.oh.val();
                self.s_ipoh.d.next = self.lo_s.oh.val();
                self.s_ipidx.d.next = self.lo_s.idx.val();
            } else if !self.s_iss.q.val() & !self.s_pend.q.val() & !self.s_chk.q.val() {
                self.s_on.d.next = false;
            }
            self.s_chk.d.next = self.s_pend.q.val();
            self.s_hit.d.next = (self.coef.val() & self.q_oh.val()).any();
            self.s_cnew.d.next = self.coef.val() ^ self.m.val();
            self.s_cpoh.d.next = self.s_poh.q.val();
            self.s_cpidx.d.next = self.s_pidx.q.val();
        }
        if self.load.val() {
            self.s_rem.d.next = self.touched.val();
        }
        if self.start.val() {
            self.s_on.d.next = true;
            self.s_rem.d.next = self.valid.val();
            self.s_iss.d.next = false;
            self.s_pend.d.next = false;
            self.s_chk.d.next = false;
        }
        if self.clear.val() {
            self.s_on.d.next = false;
        }
        self.on.next = self.s_on.q.val();
        self.rem.next = self.s_rem.q.val();
        self.low_oh.next = self.s_low_oh.q.val();
        self.low_idx.next = self.s_low_idx.q.val();
        self.read_idx.next = self.lo_s.idx.val();
        self.wr.next = self.s_on.q.val() & self.s_chk.q.val() & self.s_hit.q.val();
        self.wr_idx.next = self.s_cpidx.q.val();
        self.wr_row.next = self.s_cnew.q.val();
        self.wr_oh.next = self.s_cpoh.q.val();
        // compared from the registered row (the RAM's output reaches only `s_cnew`)
        self.wr_same.next = self.s_cnew.q.val() == self.s_cpoh.q.val();
    }
}

/// The instance the component's own test drives (`sim-tests/tests/cblt_components.rs`): rows of
/// 16 bits.
pub type TestScanner = ElimScanner<16>;

crate::pin_io!(TestScanner; in: load, touched, start, valid, coef, m, q_oh, clear; out: on, rem, low_oh, low_idx, read_idx, wr, wr_idx, wr_row, wr_oh, wr_same);
