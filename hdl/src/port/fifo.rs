//! One queue of the switch port: a FIFO of `2^DB` entries in block RAM whose head is valid in
//! the clock after the push that brought it, so the scheduler sees every head in the clock it
//! decides and a queue can be served on consecutive clocks.
//!
//! An entry is two words (`WA` and `WB` bits, one RAM each: the port's descriptor and its
//! enqueue stamp). The RAMs are read one entry ahead, at the read pointer after this clock's
//! pop; a push to the entry being read at the same edge (which the RAM returns as neither word)
//! is forwarded from a bypass register. The owner pushes only when `count` is below the depth
//! and pops only when it is above 0.

use crate::rtl_util::BlockRam;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct BypassFifo<const WA: usize, const WB: usize, const DB: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    pub push: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub in_a: Signal<In, Bits<WA>>,
    pub in_b: Signal<In, Bits<WB>>,
    /// The head entry (undefined while `count` is 0).
    pub head_a: Signal<Out, Bits<WA>>,
    pub head_b: Signal<Out, Bits<WB>>,
    /// Entries held (`CB = DB + 1` bits: 0 to the depth).
    pub count: Signal<Out, Bits<CB>>,
    pub nonempty: Signal<Out, Bit>,
    ram_a: BlockRam<WA, DB>,
    ram_b: BlockRam<WB, DB>,
    wr_ptr: DFF<Bits<DB>>,
    rd_ptr: DFF<Bits<DB>>,
    n: DFF<Bits<CB>>,
    ne: DFF<Bit>,
    byp_v: DFF<Bit>,
    byp_a: DFF<Bits<WA>>,
    byp_b: DFF<Bits<WB>>,
    rd_next: Signal<Local, Bits<DB>>,
    /// The write pointer is the read pointer, or the one after it: with this clock's pop, the
    /// push lands in the entry being read (both compares on registers; the pop selects).
    at_rd: Signal<Local, Bit>,
    at_rd1: Signal<Local, Bit>,
    rd_inc: Signal<Local, Bits<DB>>,
    /// The count is 1 (a pop without a push empties the queue).
    last: Signal<Local, Bit>,
}

impl<const WA: usize, const WB: usize, const DB: usize, const CB: usize> Logic for BypassFifo<WA, WB, DB, CB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd_ptr, n, ne, byp_v, byp_a, byp_b);
        self.ram_a.read_clock.next = self.clock.val();
        self.ram_a.write_clock.next = self.clock.val();
        self.ram_b.read_clock.next = self.clock.val();
        self.ram_b.write_clock.next = self.clock.val();
        self.count.next = self.n.q.val();
        self.nonempty.next = self.ne.q.val();
        self.last.next = self.n.q.val() == 1;
        self.ne.d.next = self.push.val() | (self.ne.q.val() & !(self.pop.val() & self.last.val()));
        self.byp_v.d.next = false;
        self.head_a.next = self.ram_a.read_data.val();
        self.head_b.next = self.ram_b.read_data.val();
        if self.byp_v.q.val() {
            self.head_a.next = self.byp_a.q.val();
            self.head_b.next = self.byp_b.q.val();
        }
        // read one ahead: the pointer after this clock's pop
        self.rd_inc.next = self.rd_ptr.q.val() + 1;
        self.at_rd.next = self.wr_ptr.q.val() == self.rd_ptr.q.val();
        self.at_rd1.next = self.wr_ptr.q.val() == self.rd_inc.val();
        self.rd_next.next = self.rd_ptr.q.val();
        if self.pop.val() {
            self.rd_next.next = self.rd_inc.val();
        }
        self.rd_ptr.d.next = self.rd_next.val();
        self.ram_a.read_address.next = self.rd_next.val();
        self.ram_b.read_address.next = self.rd_next.val();
        self.ram_a.write_address.next = self.wr_ptr.q.val();
        self.ram_b.write_address.next = self.wr_ptr.q.val();
        self.ram_a.write_data.next = self.in_a.val();
        self.ram_b.write_data.next = self.in_b.val();
        self.ram_a.write_enable.next = self.push.val();
        self.ram_b.write_enable.next = self.push.val();
        // the bypass holds this clock's input, valid for the next clock only; it loads every
        // clock, so its 49 flip-flops need no enable (which nextpnr-ice40 would put on a global)
        self.byp_a.d.next = self.in_a.val();
        self.byp_b.d.next = self.in_b.val();
        if self.push.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + 1;
            if (!self.pop.val() & self.at_rd.val()) | (self.pop.val() & self.at_rd1.val()) {
                self.byp_v.d.next = true;
            }
        }
        if self.push.val() & !self.pop.val() {
            self.n.d.next = self.n.q.val() + 1;
        }
        if !self.push.val() & self.pop.val() {
            self.n.d.next = self.n.q.val() - 1;
        }
    }
}

/// The instance the component's own test drives (`sim-tests/tests/port_components.rs`): 8 entries of
/// 5 + 7 bits.
pub type TestFifo = BypassFifo<5, 7, 3, 4>;

crate::pin_io!(TestFifo; in: push, pop, in_a, in_b; out: head_a, head_b, count, nonempty);
