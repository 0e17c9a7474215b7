//! One queue of the switch port: a FIFO of `2^DB` entries in block RAM whose head is valid in
//! the clock after the push that brought it, so the scheduler sees every head in the clock it
//! decides and a queue can be served on consecutive clocks.
//!
//! An entry is three words, one RAM each: the descriptor's length (`WL` bits), the rest of the
//! descriptor (`WM` bits) and its enqueue stamp (`WB` bits). The length is what the scheduling
//! reads in the clock it decides (DWRR, the shaper, the pacer, the resident counts, selective
//! drop), so the head's length is a register (`head_len`) and those paths start at a flip-flop
//! rather than at a RAM's output. The other two words only go to the departure register, and
//! are read as before: the RAM read one entry ahead, at the head's entry after this clock's pop.
//!
//! - The length RAM is read one entry behind the head: its output is the entry after the head
//!   (the *second* entry), which a pop loads into `head_len`. A push that becomes the head (into
//!   an empty queue, or into a queue whose one entry leaves) loads `head_len` from the input.
//!   `head_len`'s enable has `WL` ≤ 15 flip-flops, so nextpnr-ice40 keeps it off a global.
//! - The other RAMs are read at the head's entry (`head_meta`, `head_b`).
//! - A push into the entry a RAM is reading at the same edge (which it returns as neither word)
//!   is forwarded from a bypass register: the second entry's for the length, the head's for the
//!   other words. The bypasses load every clock, so they need no enable.
//!
//! The owner pushes only when `count` is below the depth and pops only when it is above 0.

use crate::rtl_util::BlockRam;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

#[derive(LogicBlock)]
pub struct BypassFifo<const WL: usize, const WM: usize, const WB: usize, const DB: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    pub push: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub in_len: Signal<In, Bits<WL>>,
    pub in_meta: Signal<In, Bits<WM>>,
    pub in_b: Signal<In, Bits<WB>>,
    /// The head entry (undefined while `count` is 0). Its length is a register, zero-extended
    /// to 16 bits here (rust-hdl's `bit_cast` cannot widen an array element in the port's loops).
    pub head_len: Signal<Out, Bits<16>>,
    pub head_meta: Signal<Out, Bits<WM>>,
    pub head_b: Signal<Out, Bits<WB>>,
    /// Entries held (`CB = DB + 1` bits: 0 to the depth).
    pub count: Signal<Out, Bits<CB>>,
    pub nonempty: Signal<Out, Bit>,
    /// The count is 1 (a pop without a push empties the queue).
    pub last: Signal<Out, Bit>,
    /// The length of the entry after the head, zero-extended (undefined while `count` < 2): the
    /// head's length after a pop, which the shaper's look-ahead judges a clock early.
    pub second_len: Signal<Out, Bits<16>>,
    ram_l: BlockRam<WL, DB>,
    ram_m: BlockRam<WM, DB>,
    ram_b: BlockRam<WB, DB>,
    wr_ptr: DFF<Bits<DB>>,
    /// The head's entry and the two after it; a pop moves each to the next, so every read
    /// address is a select between two registers.
    rd0: DFF<Bits<DB>>,
    rd1: DFFWithInit<Bits<DB>>,
    rd2: DFFWithInit<Bits<DB>>,
    n: DFF<Bits<CB>>,
    ne: DFF<Bit>,
    h_len: DFF<Bits<WL>>,
    /// The bypass of the second entry's length, and of the head's other words.
    byp_s_v: DFF<Bit>,
    byp_l: DFF<Bits<WL>>,
    byp_h_v: DFF<Bit>,
    byp_m: DFF<Bits<WM>>,
    byp_b: DFF<Bits<WB>>,
    /// The second entry's length: the RAM's output, or the bypass when it was written at the
    /// edge that read it.
    second: Signal<Local, Bits<WL>>,
    /// The count is 1, or 2: flip-flops, each made from the count's compares and this clock's
    /// push and pop, so no compare on the count stands between a pop and the head's enable,
    /// the bypass's flag or `last`.
    one: DFF<Bit>,
    two: DFF<Bit>,
    /// The count is 2 or 3 now: the flags' next values when a pop or a push moves the count.
    eq2: Signal<Local, Bit>,
    eq3: Signal<Local, Bit>,
    /// This clock's push becomes the head.
    to_head: Signal<Local, Bit>,
}

impl<const WL: usize, const WM: usize, const WB: usize, const DB: usize, const CB: usize> Default
    for BypassFifo<WL, WM, WB, DB, CB>
{
    fn default() -> Self {
        assert!(DB >= 2 && CB == DB + 1 && WL <= 15);
        BypassFifo {
            clock: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            in_len: Default::default(),
            in_meta: Default::default(),
            in_b: Default::default(),
            head_len: Default::default(),
            head_meta: Default::default(),
            head_b: Default::default(),
            count: Default::default(),
            nonempty: Default::default(),
            last: Default::default(),
            second_len: Default::default(),
            ram_l: Default::default(),
            ram_m: Default::default(),
            ram_b: Default::default(),
            wr_ptr: Default::default(),
            rd0: Default::default(),
            rd1: DFFWithInit::new(1u64.into()),
            rd2: DFFWithInit::new(2u64.into()),
            n: Default::default(),
            ne: Default::default(),
            h_len: Default::default(),
            byp_s_v: Default::default(),
            byp_l: Default::default(),
            byp_h_v: Default::default(),
            byp_m: Default::default(),
            byp_b: Default::default(),
            second: Default::default(),
            one: Default::default(),
            two: Default::default(),
            eq2: Default::default(),
            eq3: Default::default(),
            to_head: Default::default(),
        }
    }
}

impl<const WL: usize, const WM: usize, const WB: usize, const DB: usize, const CB: usize> Logic
    for BypassFifo<WL, WM, WB, DB, CB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd0, rd1, rd2, n, ne, one, two, h_len, byp_s_v, byp_l, byp_h_v, byp_m, byp_b);
        self.ram_l.read_clock.next = self.clock.val();
        self.ram_l.write_clock.next = self.clock.val();
        self.ram_m.read_clock.next = self.clock.val();
        self.ram_m.write_clock.next = self.clock.val();
        self.ram_b.read_clock.next = self.clock.val();
        self.ram_b.write_clock.next = self.clock.val();
        self.count.next = self.n.q.val();
        self.nonempty.next = self.ne.q.val();
        self.eq2.next = self.n.q.val() == 2;
        self.eq3.next = self.n.q.val() == 3;
        self.ne.d.next = self.push.val() | (self.ne.q.val() & !(self.pop.val() & self.one.q.val()));
        self.to_head.next = self.push.val() & (!self.ne.q.val() | (self.pop.val() & self.one.q.val()));
        // the head's length: a register, the second entry's after a pop, the input's when the
        // push becomes the head
        self.head_len.next = bit_cast::<16, WL>(self.h_len.q.val());
        self.second.next = self.ram_l.read_data.val();
        if self.byp_s_v.q.val() {
            self.second.next = self.byp_l.q.val();
        }
        self.second_len.next = bit_cast::<16, WL>(self.second.val());
        self.last.next = self.one.q.val();
        if self.pop.val() {
            self.h_len.d.next = self.second.val();
        }
        if self.to_head.val() {
            self.h_len.d.next = self.in_len.val();
        }
        // the head's other words, from their RAMs or the bypass
        self.head_meta.next = self.ram_m.read_data.val();
        self.head_b.next = self.ram_b.read_data.val();
        if self.byp_h_v.q.val() {
            self.head_meta.next = self.byp_m.q.val();
            self.head_b.next = self.byp_b.q.val();
        }
        // the reads as the pointers are after this clock's pop: the length RAM one entry
        // behind the head, the others at the head
        self.ram_l.read_address.next = self.rd1.q.val();
        self.ram_m.read_address.next = self.rd0.q.val();
        self.ram_b.read_address.next = self.rd0.q.val();
        if self.pop.val() {
            self.ram_l.read_address.next = self.rd2.q.val();
            self.ram_m.read_address.next = self.rd1.q.val();
            self.ram_b.read_address.next = self.rd1.q.val();
            self.rd0.d.next = self.rd1.q.val();
            self.rd1.d.next = self.rd2.q.val();
            self.rd2.d.next = self.rd2.q.val() + 1;
        }
        self.ram_l.write_address.next = self.wr_ptr.q.val();
        self.ram_m.write_address.next = self.wr_ptr.q.val();
        self.ram_b.write_address.next = self.wr_ptr.q.val();
        self.ram_l.write_data.next = self.in_len.val();
        self.ram_m.write_data.next = self.in_meta.val();
        self.ram_b.write_data.next = self.in_b.val();
        self.ram_l.write_enable.next = self.push.val();
        self.ram_m.write_enable.next = self.push.val();
        self.ram_b.write_enable.next = self.push.val();
        // the bypasses hold this clock's input, valid for the next clock only, when the push
        // lands in the entry being read: the second one after this clock's pop (the count 1
        // without a pop, 2 with one), or the head (the push becomes the head)
        self.byp_l.d.next = self.in_len.val();
        self.byp_m.d.next = self.in_meta.val();
        self.byp_b.d.next = self.in_b.val();
        self.byp_s_v.d.next = self.push.val() & ((!self.pop.val() & self.one.q.val()) | (self.pop.val() & self.two.q.val()));
        self.byp_h_v.d.next = self.to_head.val();
        if self.push.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + 1;
        }
        if self.push.val() & !self.pop.val() {
            self.n.d.next = self.n.q.val() + 1;
            self.one.d.next = !self.ne.q.val();
            self.two.d.next = self.one.q.val();
        }
        if !self.push.val() & self.pop.val() {
            self.n.d.next = self.n.q.val() - 1;
            self.one.d.next = self.eq2.val();
            self.two.d.next = self.eq3.val();
        }
    }
}

/// The instance the component's own test drives (`sim-tests/tests/port_components.rs`): 8 entries of
/// 3 + 2 + 7 bits.
pub type TestFifo = BypassFifo<3, 2, 7, 3, 4>;

crate::pin_io!(TestFifo; in: push, pop, in_len, in_meta, in_b; out: head_len, head_meta, head_b, count, nonempty, last, second_len);
