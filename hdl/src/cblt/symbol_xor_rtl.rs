//! RTL of the CB-LT encoder's payload engine (CB-LT §6.5): the coded symbol of a mask is the
//! XOR of its source symbols, made one buffer word per clock from the message buffer. The model
//! is `super::encoder::Encoder::payload_for`.

use crate::rtl_util::{before_last_word, c, BlockRamRe, LowestOne};
use rust_hdl::prelude::*;

/// Two stages over the message buffer (`msg_ram`, 2^MA words of W bits; symbol i at word
/// `i·2^SA`) and an accumulator RAM of one symbol. Stage A walks the head mask's sources lowest
/// first and word by word and reads the buffer and the accumulator; stage B XORs and writes the
/// accumulator back, or, in the pass over the last source, sends the word out (`out_valid`,
/// `out_first`, `out_last`, `out_data`; `out_ready` low holds the beat, and `hold` says so). A
/// symbol of degree d takes exactly `d·⌈S/WB⌉` clocks and consecutive symbols follow with no gap.
///
/// The masks come from a FIFO (`head`, `head_v`, `head_new`: see `MaskFifo`); `pop` takes the
/// head. The buffer is written through `buf_*` only while no symbol is in flight (`active` and
/// `hold` low), a contract of the owner. A source spans ⌈S/WB⌉ words; with one word per symbol
/// (`one_word`) B may write the accumulator word A reads in the same clock, and the write data is
/// forwarded.
#[derive(LogicBlock)]
pub struct SymbolXor<const W: usize, const MA: usize, const SA: usize, const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub head: Signal<In, Bits<KM>>,
    pub head_v: Signal<In, Bit>,
    pub head_new: Signal<In, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub buf_we: Signal<In, Bit>,
    pub buf_addr: Signal<In, Bits<MA>>,
    pub buf_data: Signal<In, Bits<W>>,
    pub pop: Signal<Out, Bit>,
    pub hold: Signal<Out, Bit>,
    pub active: Signal<Out, Bit>,
    pub out_valid: Signal<Out, Bit>,
    pub out_first: Signal<Out, Bit>,
    pub out_last: Signal<Out, Bit>,
    pub out_data: Signal<Out, Bits<W>>,
    /// The word before a symbol's last (all ones with one-word symbols, which `a_w` never
    /// reaches): the next word is the last.
    last_word_m1: Constant<Bits<SA>>,
    one_word: Constant<Bit>,
    sa: Constant<Bits<MA>>,
    a_on: DFF<Bit>,
    a_i: DFF<Bits<6>>,
    a_w: DFF<Bits<SA>>,
    /// `a_w` is the symbol's last word, kept beside it (stage A's branches read a flip-flop).
    a_lastw: DFF<Bit>,
    a_rem: DFF<Bits<KM>>,
    /// `a_rem` is not empty, kept beside it (the pass's end reads a flip-flop, not a 64-input OR).
    a_more: DFF<Bit>,
    a_first: DFF<Bit>,
    /// The next source of A's symbol and of the FIFO's head, made a clock ahead from their
    /// registers: `r_*` from `a_rem`, `h_*` from the head (its lowest index, the rest, and
    /// whether any is left). A source spans ⌈S/WB⌉ ≥ 2 clocks, so `a_rem` has been still for a
    /// clock when A's last word reads `r_*`; the head has when `head_new` is low, and A waits a
    /// clock if not. A one-word symbol (`one_word`) takes both from `lo_rem` and `lo_head` in
    /// the same clock.
    r_i: DFF<Bits<6>>,
    r_rest: DFF<Bits<KM>>,
    r_more: DFF<Bit>,
    h_i: DFF<Bits<6>>,
    h_rest: DFF<Bits<KM>>,
    h_more: DFF<Bit>,
    lo_rem: LowestOne<KM>,
    lo_head: LowestOne<KM>,
    b_on: DFF<Bit>,
    b_first: DFF<Bit>,
    b_last: DFF<Bit>,
    /// `b_w` is the symbol's last word, registered with it (the output's last-beat flag is one
    /// LUT of flip-flops).
    b_lastw: DFF<Bit>,
    b_w: DFF<Bits<SA>>,
    /// Stage B's accumulator write forwarded to the word A reads. Only a one-word symbol reads
    /// the word B writes in the same clock (A is one word ahead of B within a pass and at word 0
    /// when B is at the last), so for ⌈S/WB⌉ ≥ 2 `one_word` is false and synthesis removes both.
    b_fwd: DFF<Bit>,
    b_fwd_data: DFF<Bits<W>>,
    /// A copy of "B holds a symbol's last pass" (`b_on` and `b_last`), from which the RAMs'
    /// read enables are made: the net to every RAM block has a gate of its own, and the hold
    /// that stalls the stages stays beside them.
    b_out: DFF<Bit>,
    /// The buffer and the accumulator are read at stage A's word; while the output holds, their
    /// read enables are low and their outputs keep stage B's word (no multiplexer on the address).
    msg_ram: BlockRamRe<W, MA>,
    acc_ram: BlockRamRe<W, SA>,
    /// Stage A's next state when it advances, and whether it takes the FIFO's head then.
    pop_go: Signal<Local, Bit>,
    na_on: Signal<Local, Bit>,
    na_i: Signal<Local, Bits<6>>,
    na_w: Signal<Local, Bits<SA>>,
    na_lastw: Signal<Local, Bit>,
    na_rem: Signal<Local, Bits<KM>>,
    na_more: Signal<Local, Bit>,
    na_first: Signal<Local, Bit>,
    /// A's next source in its symbol, or the head's first, and what remains after it.
    nr_i: Signal<Local, Bits<6>>,
    nr_rest: Signal<Local, Bits<KM>>,
    nr_more: Signal<Local, Bit>,
    nh_i: Signal<Local, Bits<6>>,
    nh_rest: Signal<Local, Bits<KM>>,
    nh_more: Signal<Local, Bit>,
    /// The head holds a mask A may take this clock.
    head_ok: Signal<Local, Bit>,
    accv: Signal<Local, Bits<W>>,
    acc_we: Signal<Local, Bit>,
    x: Signal<Local, Bits<W>>,
}

impl<const W: usize, const MA: usize, const SA: usize, const KM: usize> SymbolXor<W, MA, SA, KM> {
    /// Symbols of `words` buffer words (⌈S/WB⌉, at most 2^SA).
    pub fn new(words: usize) -> Self {
        assert!(SA >= 1 && (1..=1 << SA).contains(&words), "{words} words per symbol need SA ≥ {}", words.next_power_of_two().trailing_zeros());
        SymbolXor {
            clock: Default::default(),
            head: Default::default(),
            head_v: Default::default(),
            head_new: Default::default(),
            out_ready: Default::default(),
            buf_we: Default::default(),
            buf_addr: Default::default(),
            buf_data: Default::default(),
            pop: Default::default(),
            hold: Default::default(),
            active: Default::default(),
            out_valid: Default::default(),
            out_first: Default::default(),
            out_last: Default::default(),
            out_data: Default::default(),
            last_word_m1: before_last_word(words),
            one_word: Constant::new(words == 1),
            sa: c(SA as u64),
            a_on: Default::default(),
            a_i: Default::default(),
            a_w: Default::default(),
            a_lastw: Default::default(),
            a_rem: Default::default(),
            a_more: Default::default(),
            a_first: Default::default(),
            r_i: Default::default(),
            r_rest: Default::default(),
            r_more: Default::default(),
            h_i: Default::default(),
            h_rest: Default::default(),
            h_more: Default::default(),
            lo_rem: Default::default(),
            lo_head: Default::default(),
            b_on: Default::default(),
            b_first: Default::default(),
            b_last: Default::default(),
            b_lastw: Default::default(),
            b_w: Default::default(),
            b_fwd: Default::default(),
            b_fwd_data: Default::default(),
            b_out: Default::default(),
            msg_ram: Default::default(),
            acc_ram: Default::default(),
            pop_go: Default::default(),
            na_on: Default::default(),
            na_i: Default::default(),
            na_w: Default::default(),
            na_lastw: Default::default(),
            na_rem: Default::default(),
            na_more: Default::default(),
            na_first: Default::default(),
            nr_i: Default::default(),
            nr_rest: Default::default(),
            nr_more: Default::default(),
            nh_i: Default::default(),
            nh_rest: Default::default(),
            nh_more: Default::default(),
            head_ok: Default::default(),
            accv: Default::default(),
            acc_we: Default::default(),
            x: Default::default(),
        }
    }
}

impl<const W: usize, const MA: usize, const SA: usize, const KM: usize> Logic for SymbolXor<W, MA, SA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, b_out, a_on, a_i, a_w, a_lastw, a_rem, a_more, a_first, r_i, r_rest, r_more, h_i, h_rest, h_more, b_on, b_first, b_last, b_lastw, b_w, b_fwd, b_fwd_data);
        self.msg_ram.read_clock.next = self.clock.val();
        self.msg_ram.write_clock.next = self.clock.val();
        self.acc_ram.read_clock.next = self.clock.val();
        self.acc_ram.write_clock.next = self.clock.val();
        self.msg_ram.write_enable.next = self.buf_we.val();
        self.msg_ram.write_address.next = self.buf_addr.val();
        self.msg_ram.write_data.next = self.buf_data.val();
        self.active.next = self.a_on.q.val();

        self.hold.next = self.b_on.q.val() & self.b_last.q.val() & !self.out_ready.val();
        self.lo_rem.x.next = self.a_rem.q.val();
        self.lo_head.x.next = self.head.val();
        self.r_i.d.next = self.lo_rem.idx.val();
        self.r_rest.d.next = self.a_rem.q.val() & !self.lo_rem.oh.val();
        self.r_more.d.next = (self.a_rem.q.val() & !self.lo_rem.oh.val()).any();
        self.h_i.d.next = self.lo_head.idx.val();
        self.h_rest.d.next = self.head.val() & !self.lo_head.oh.val();
        self.h_more.d.next = (self.head.val() & !self.lo_head.oh.val()).any();
        self.nr_i.next = self.r_i.q.val();
        self.nr_rest.next = self.r_rest.q.val();
        self.nr_more.next = self.r_more.q.val();
        self.nh_i.next = self.h_i.q.val();
        self.nh_rest.next = self.h_rest.q.val();
        self.nh_more.next = self.h_more.q.val();
        self.head_ok.next = self.head_v.val() & !self.head_new.val();
        if self.one_word.val() {
            self.nr_i.next = self.lo_rem.idx.val();
            self.nr_rest.next = self.r_rest.d.val();
            self.nr_more.next = self.r_more.d.val();
            self.nh_i.next = self.lo_head.idx.val();
            self.nh_rest.next = self.h_rest.d.val();
            self.nh_more.next = self.h_more.d.val();
            self.head_ok.next = self.head_v.val();
        }
        // stage B: XOR with the accumulator (or the forwarded word being written to it)
        self.accv.next = self.acc_ram.read_data.val();
        if self.b_fwd.q.val() {
            self.accv.next = self.b_fwd_data.q.val();
        }
        self.x.next = self.msg_ram.read_data.val();
        if !self.b_first.q.val() {
            self.x.next = self.msg_ram.read_data.val() ^ self.accv.val();
        }
        self.acc_we.next = self.b_on.q.val() & !self.b_last.q.val();
        self.acc_ram.write_enable.next = self.acc_we.val();
        self.acc_ram.write_address.next = self.b_w.q.val();
        self.acc_ram.write_data.next = self.x.val();
        self.out_valid.next = self.b_on.q.val() & self.b_last.q.val();
        self.out_first.next = self.b_on.q.val() & self.b_last.q.val() & (self.b_w.q.val() == 0);
        self.out_last.next = self.b_on.q.val() & self.b_last.q.val() & self.b_lastw.q.val();
        self.out_data.next = self.x.val();
        // stage A: its next state if it advances (`na_*`, `pop_go`), from registers alone; the
        // output's hold then selects it or keeps A and B, one multiplexer after the ready
        self.pop_go.next = false;
        self.na_on.next = self.a_on.q.val();
        self.na_i.next = self.a_i.q.val();
        self.na_w.next = self.a_w.q.val();
        self.na_lastw.next = self.a_lastw.q.val();
        self.na_rem.next = self.a_rem.q.val();
        self.na_more.next = self.a_more.q.val();
        self.na_first.next = self.a_first.q.val();
        if self.a_on.q.val() {
            if self.a_lastw.q.val() {
                self.na_w.next = 0.into();
                self.na_lastw.next = self.one_word.val();
                if self.a_more.q.val() {
                    self.na_i.next = self.nr_i.val();
                    self.na_rem.next = self.nr_rest.val();
                    self.na_more.next = self.nr_more.val();
                    self.na_first.next = false;
                } else if self.head_ok.val() {
                    self.pop_go.next = true;
                } else {
                    self.na_on.next = false;
                }
            } else {
                self.na_w.next = self.a_w.q.val() + 1;
                self.na_lastw.next = self.a_w.q.val() == self.last_word_m1.val();
            }
        } else if self.head_ok.val() {
            self.pop_go.next = true;
        }
        if self.pop_go.val() {
            self.na_on.next = true;
            self.na_i.next = self.nh_i.val();
            self.na_rem.next = self.nh_rest.val();
            self.na_more.next = self.nh_more.val();
            self.na_w.next = 0.into();
            self.na_lastw.next = self.one_word.val();
            self.na_first.next = true;
        }
        self.pop.next = self.pop_go.val() & !self.hold.val();
        if !self.hold.val() {
            self.b_on.d.next = self.a_on.q.val();
            self.b_first.d.next = self.a_first.q.val();
            self.b_last.d.next = !self.a_more.q.val();
            self.b_out.d.next = self.a_on.q.val() & !self.a_more.q.val();
            self.b_w.d.next = self.a_w.q.val();
            self.b_lastw.d.next = self.a_lastw.q.val();
            self.b_fwd.d.next = self.one_word.val() & self.acc_we.val() & (self.b_w.q.val() == self.a_w.q.val());
            self.b_fwd_data.d.next = self.x.val();
            self.a_on.d.next = self.na_on.val();
            self.a_i.d.next = self.na_i.val();
            self.a_w.d.next = self.na_w.val();
            self.a_lastw.d.next = self.na_lastw.val();
            self.a_rem.d.next = self.na_rem.val();
            self.a_more.d.next = self.na_more.val();
            self.a_first.d.next = self.na_first.val();
        }
        // the buffer and accumulator read stage A's word, which B holds next clock; a hold keeps
        // B's word on their outputs (neither is written then: the buffer only while idle, the
        // accumulator not in a symbol's last pass, the only one that holds)
        self.msg_ram.read_address.next = (bit_cast::<MA, 6>(self.a_i.q.val()) << self.sa.val()) | bit_cast::<MA, SA>(self.a_w.q.val());
        self.acc_ram.read_address.next = self.a_w.q.val();
        self.msg_ram.read_enable.next = !self.b_out.q.val() | self.out_ready.val();
        self.acc_ram.read_enable.next = !self.b_out.q.val() | self.out_ready.val();
    }
}

/// The geometries `cblt_components` tests: 32-bit words, 16 symbols of 2^2 words, 16-bit
/// masks; three words per symbol, or one.
pub fn test_symbol_xor(words: usize) -> SymbolXor<32, 6, 2, 16> {
    SymbolXor::new(words)
}

crate::pin_io!(generic [const W: usize, const MA: usize, const SA: usize, const KM: usize] SymbolXor<W, MA, SA, KM>; in: head, head_v, head_new, out_ready, buf_we, buf_addr, buf_data; out: pop, hold, active, out_valid, out_first, out_last, out_data);
