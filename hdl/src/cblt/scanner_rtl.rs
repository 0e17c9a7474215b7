//! RTL of the decoder's back-elimination (CB-LT §6.6: rows are kept fully reduced, so once m'
//! is installed at pivot q every other valid row with bit q gets m' XORed in, and y' into its
//! payload): the scanner that finds those rows ([`ElimScanner`]) and the set of rows whose
//! payload pass is still to come ([`ElimRows`]). The model is `decoder.rs`'s elimination loop;
//! the decoder's vectors and fuzz check them in place, `sim-tests/tests/cblt_components.rs`
//! alone.

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

/// The rows whose payload pass is still to come, changed by three requests that never meet in
/// one clock: `add` the row `add_oh`, `take` the lowest (a pass begins on it; taking from none
/// changes nothing; made only while `ok`), `zero` (a new symbol). `next_idx`/`next_any` name the lowest row and
/// whether there is one, made a clock ahead from the set: they are current while `ok`, which is
/// low for the clock after a change. Built for rows of one word (`one_word`), they come from the
/// set in the same clock and `ok` is always high; with longer rows a pass spans two clocks or
/// more, so they are current at its last word, when the next pass is taken.
#[derive(LogicBlock)]
pub struct ElimRows<const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub take: Signal<In, Bit>,
    pub add: Signal<In, Bit>,
    pub add_oh: Signal<In, Bits<KM>>,
    pub zero: Signal<In, Bit>,
    pub next_idx: Signal<Out, Bits<6>>,
    pub next_any: Signal<Out, Bit>,
    pub ok: Signal<Out, Bit>,
    one_word: Constant<Bit>,
    elim: DFF<Bits<KM>>,
    e_i: DFF<Bits<6>>,
    e_any: DFF<Bit>,
    /// The set changed at the last edge.
    e_new: DFF<Bit>,
    lo_e: LowestOne<KM>,
    clr_m: Signal<Local, Bits<KM>>,
    add_m: Signal<Local, Bits<KM>>,
}

impl<const KM: usize> ElimRows<KM> {
    pub fn new(one_word: bool) -> Self {
        ElimRows {
            clock: Default::default(),
            take: Default::default(),
            add: Default::default(),
            add_oh: Default::default(),
            zero: Default::default(),
            next_idx: Default::default(),
            next_any: Default::default(),
            ok: Default::default(),
            one_word: Constant::new(one_word),
            elim: Default::default(),
            e_i: Default::default(),
            e_any: Default::default(),
            e_new: Default::default(),
            lo_e: Default::default(),
            clr_m: Default::default(),
            add_m: Default::default(),
        }
    }
}

impl<const KM: usize> Logic for ElimRows<KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, elim, e_i, e_any, e_new);
        self.lo_e.x.next = self.elim.q.val();
        self.e_i.d.next = self.lo_e.idx.val();
        self.e_any.d.next = self.elim.q.val().any();
        self.next_idx.next = self.e_i.q.val();
        self.next_any.next = self.e_any.q.val();
        self.ok.next = !self.e_new.q.val();
        if self.one_word.val() {
            self.next_idx.next = self.lo_e.idx.val();
            self.next_any.next = self.elim.q.val().any();
            self.ok.next = true;
        }
        // each bit is one LUT of six inputs
        self.clr_m.next = 0.into();
        if self.take.val() {
            self.clr_m.next = self.lo_e.oh.val();
        }
        self.add_m.next = 0.into();
        if self.add.val() {
            self.add_m.next = self.add_oh.val();
        }
        self.elim.d.next = (self.elim.q.val() & !self.clr_m.val()) | self.add_m.val();
        if self.zero.val() {
            self.elim.d.next = 0.into();
        }
        self.e_new.d.next = (self.take.val() & self.next_any.val()) | self.add.val() | self.zero.val();
    }
}

/// The instances the components' own tests drive (`sim-tests/tests/cblt_components.rs`): rows
/// of 16 bits; the rows to eliminate are built for rows of several words
/// (`ElimRows::new(false)`).
pub type TestScanner = ElimScanner<16>;
pub type TestElimRows = ElimRows<16>;

crate::pin_io!(TestElimRows; in: take, add, add_oh, zero; out: next_idx, next_any, ok);
crate::pin_io!(TestScanner; in: load, touched, start, valid, coef, m, q_oh, clear; out: on, rem, low_oh, low_idx, read_idx, wr, wr_idx, wr_row, wr_oh, wr_same);
