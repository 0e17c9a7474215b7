//! The slot arithmetic of the NIC's two record queues, the TX queue and the completion queue:
//! four record slots in block RAM, each record several words (`TX_SLOTS` = `CQ_DEPTH` = 4).

use rust_hdl::prelude::*;

/// A ring of four slots. `push` fills the tail slot and `pop` frees the head slot (the owner
/// pushes only while not `full` and pops only while `count` > 0); `clear` empties the ring and
/// wins. `full` is registered from the count's next value, so no path runs from a push into the
/// producer's ready. `head_next` is the head slot after this clock's pop: the RAM's read
/// address, so the head record's words are out of the RAM in the next clock.
#[derive(LogicBlock, Default)]
pub struct SlotRing {
    pub clock: Signal<In, Clock>,
    pub push: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub head_next: Signal<Out, Bits<2>>,
    pub tail: Signal<Out, Bits<2>>,
    pub count: Signal<Out, Bits<3>>,
    pub full: Signal<Out, Bit>,
    head_r: DFF<Bits<2>>,
    tail_r: DFF<Bits<2>>,
    count_r: DFF<Bits<3>>,
    full_r: DFF<Bit>,
    count_n: Signal<Local, Bits<3>>,
}

impl Logic for SlotRing {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head_r, tail_r, count_r, full_r);
        self.tail.next = self.tail_r.q.val();
        self.count.next = self.count_r.q.val();
        self.full.next = self.full_r.q.val();
        if self.push.val() {
            self.tail_r.d.next = self.tail_r.q.val() + 1;
        }
        if self.pop.val() {
            self.head_r.d.next = self.head_r.q.val() + 1;
        }
        self.count_n.next = self.count_r.q.val();
        if self.push.val() & !self.pop.val() {
            self.count_n.next = self.count_r.q.val() + 1;
        }
        if !self.push.val() & self.pop.val() {
            self.count_n.next = self.count_r.q.val() - 1;
        }
        if self.clear.val() {
            self.head_r.d.next = 0.into();
            self.tail_r.d.next = 0.into();
            self.count_n.next = 0.into();
        }
        self.count_r.d.next = self.count_n.val();
        self.full_r.d.next = self.count_n.val() == 4;
        self.head_next.next = self.head_r.d.val();
    }
}

// pins for the ring's own test (sim-tests/tests/nic_components.rs)
crate::pin_io!(SlotRing; in: push, pop, clear; out: head_next, tail, count, full);
