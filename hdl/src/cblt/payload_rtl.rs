//! RTL of the CB-LT decoder's payload passes after their issue (CB-LT §6.6): one payload word
//! per clock through the read (R), XOR (B) and write (C) stages, with the accumulator RAM.

use crate::rtl_util::{c, BlockRam};
use rust_hdl::prelude::*;

/// The decoder issues one word per clock (`issue`, with its pass's `kind`, word `w`, source row
/// `src`, whether it has one (`has`), whether it is the symbol's last source (`rowq`), and the
/// input beat `in_data` for pass 0); the row RAM, which the decoder owns and addresses, returns
/// that word's row word on `row_word` at the end of R. Per pass kind:
///
/// * 0, the input pass: `acc[w] = in_data ⊕ (has ? row[src][w] : 0)`;
/// * 1, a reduction pass: `acc[w] = acc[w] ⊕ row[src][w]`;
/// * 2, a back-elimination pass: `row[src][w] = acc[w] ⊕ row[src][w]` (the accumulator holds m').
///
/// A kind-0 or kind-1 word of the symbol's last source (`rowq`) also goes to row `q_idx` (the
/// decoder's free row, read as the word is in B). B's
/// XOR is registered in C and written from there, to the accumulator and to a row (`row_we`,
/// `row_addr`, `row_data`), so a RAM's output reaches a register and a RAM's input comes from
/// one. `same_word` says R or B holds word `w` (the decoder waits before it issues a word that
/// is still in flight: the accumulator has no bypass), and `busy` that a stage holds a word.
/// `clear` empties the stages.
#[derive(LogicBlock)]
pub struct PayloadStages<const W: usize, const SA: usize, const RA: usize> {
    pub clock: Signal<In, Clock>,
    pub issue: Signal<In, Bit>,
    pub kind: Signal<In, Bits<2>>,
    pub w: Signal<In, Bits<SA>>,
    pub src: Signal<In, Bits<6>>,
    pub has: Signal<In, Bit>,
    pub rowq: Signal<In, Bit>,
    pub in_data: Signal<In, Bits<W>>,
    pub q_idx: Signal<In, Bits<6>>,
    pub row_word: Signal<In, Bits<W>>,
    pub clear: Signal<In, Bit>,
    pub same_word: Signal<Out, Bit>,
    pub busy: Signal<Out, Bit>,
    pub row_we: Signal<Out, Bit>,
    pub row_addr: Signal<Out, Bits<RA>>,
    pub row_data: Signal<Out, Bits<W>>,
    sa: Constant<Bits<RA>>,
    /// The read stage: the word issued a clock ago, whose row word the RAM reads at this
    /// clock's edge, and the input beat.
    r_on: DFF<Bit>,
    r_kind: DFF<Bits<2>>,
    r_w: DFF<Bits<SA>>,
    r_src: DFF<Bits<6>>,
    r_has: DFF<Bit>,
    r_rowq: DFF<Bit>,
    r_in: DFF<Bits<W>>,
    b_on: DFF<Bit>,
    b_kind: DFF<Bits<2>>,
    b_w: DFF<Bits<SA>>,
    b_src: DFF<Bits<6>>,
    b_has: DFF<Bit>,
    b_rowq: DFF<Bit>,
    b_in: DFF<Bits<W>>,
    /// The write stage: B's XOR registered, written to the accumulator (`c_acc`) and to a row
    /// (`c_row`, at `c_ra`) a clock later. `c_on`: it holds a word.
    c_on: DFF<Bit>,
    c_acc: DFF<Bit>,
    c_row: DFF<Bit>,
    c_w: DFF<Bits<SA>>,
    c_ra: DFF<Bits<RA>>,
    c_x: DFF<Bits<W>>,
    acc_ram: BlockRam<W, SA>,
    av: Signal<Local, Bits<W>>,
    bv: Signal<Local, Bits<W>>,
    x: Signal<Local, Bits<W>>,
}

impl<const W: usize, const SA: usize, const RA: usize> Default for PayloadStages<W, SA, RA> {
    fn default() -> Self {
        assert!(RA > SA, "the row RAM's address holds a row and a word");
        PayloadStages {
            clock: Default::default(),
            issue: Default::default(),
            kind: Default::default(),
            w: Default::default(),
            src: Default::default(),
            has: Default::default(),
            rowq: Default::default(),
            in_data: Default::default(),
            q_idx: Default::default(),
            row_word: Default::default(),
            clear: Default::default(),
            same_word: Default::default(),
            busy: Default::default(),
            row_we: Default::default(),
            row_addr: Default::default(),
            row_data: Default::default(),
            sa: c(SA as u64),
            r_on: Default::default(),
            r_kind: Default::default(),
            r_w: Default::default(),
            r_src: Default::default(),
            r_has: Default::default(),
            r_rowq: Default::default(),
            r_in: Default::default(),
            b_on: Default::default(),
            b_kind: Default::default(),
            b_w: Default::default(),
            b_src: Default::default(),
            b_has: Default::default(),
            b_rowq: Default::default(),
            b_in: Default::default(),
            c_on: Default::default(),
            c_acc: Default::default(),
            c_row: Default::default(),
            c_w: Default::default(),
            c_ra: Default::default(),
            c_x: Default::default(),
            acc_ram: Default::default(),
            av: Default::default(),
            bv: Default::default(),
            x: Default::default(),
        }
    }
}

impl<const W: usize, const SA: usize, const RA: usize> Logic for PayloadStages<W, SA, RA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_on, r_kind, r_w, r_src, r_has, r_rowq, r_in, b_on, b_kind, b_w, b_src, b_has, b_rowq, b_in, c_on, c_acc, c_row, c_w, c_ra, c_x);
        self.acc_ram.read_clock.next = self.clock.val();
        self.acc_ram.write_clock.next = self.clock.val();
        self.same_word.next = (self.r_on.q.val() & (self.r_w.q.val() == self.w.val())) | (self.b_on.q.val() & (self.b_w.q.val() == self.w.val()));
        self.busy.next = self.r_on.q.val() | self.b_on.q.val() | self.c_on.q.val();
        // R: the row RAM reads the word at this clock's edge, the accumulator too
        self.r_on.d.next = self.issue.val();
        self.r_kind.d.next = self.kind.val();
        self.r_w.d.next = self.w.val();
        self.r_src.d.next = self.src.val();
        self.r_has.d.next = self.has.val();
        self.r_rowq.d.next = self.rowq.val();
        self.r_in.d.next = self.in_data.val();
        self.acc_ram.read_address.next = self.r_w.q.val();
        // B: the XOR
        self.b_on.d.next = self.r_on.q.val();
        self.b_kind.d.next = self.r_kind.q.val();
        self.b_w.d.next = self.r_w.q.val();
        self.b_src.d.next = self.r_src.q.val();
        self.b_has.d.next = self.r_has.q.val();
        self.b_rowq.d.next = self.r_rowq.q.val();
        self.b_in.d.next = self.r_in.q.val();
        self.av.next = self.acc_ram.read_data.val();
        if self.b_kind.q.val() == 0 {
            self.av.next = self.b_in.q.val();
        }
        self.bv.next = 0.into();
        if self.b_has.q.val() {
            self.bv.next = self.row_word.val();
        }
        self.x.next = self.av.val() ^ self.bv.val();
        // C: the writes
        self.c_on.d.next = self.b_on.q.val();
        self.c_acc.d.next = self.b_on.q.val() & (self.b_kind.q.val() != 2);
        self.c_row.d.next = self.b_on.q.val() & ((self.b_kind.q.val() == 2) | self.b_rowq.q.val());
        self.c_w.d.next = self.b_w.q.val();
        self.c_x.d.next = self.x.val();
        self.c_ra.d.next = (bit_cast::<RA, 6>(self.q_idx.val()) << self.sa.val()) | bit_cast::<RA, SA>(self.b_w.q.val());
        if self.b_kind.q.val() == 2 {
            self.c_ra.d.next = (bit_cast::<RA, 6>(self.b_src.q.val()) << self.sa.val()) | bit_cast::<RA, SA>(self.b_w.q.val());
        }
        self.acc_ram.write_enable.next = self.c_acc.q.val();
        self.acc_ram.write_address.next = self.c_w.q.val();
        self.acc_ram.write_data.next = self.c_x.q.val();
        self.row_we.next = self.c_row.q.val();
        self.row_addr.next = self.c_ra.q.val();
        self.row_data.next = self.c_x.q.val();
        if self.clear.val() {
            self.r_on.d.next = false;
            self.b_on.d.next = false;
            self.c_on.d.next = false;
            self.c_acc.d.next = false;
            self.c_row.d.next = false;
        }
    }
}

/// The geometry `cblt_components` tests: 32-bit words, rows of 2^2 words, 64 rows.
pub type TestPayloadStages = PayloadStages<32, 2, 8>;

crate::pin_io!(generic [const W: usize, const SA: usize, const RA: usize] PayloadStages<W, SA, RA>; in: issue, kind, w, src, has, rowq, in_data, q_idx, row_word, clear; out: same_word, busy, row_we, row_addr, row_data);
