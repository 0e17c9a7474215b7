//! RTL of the CB-LT encoder's mask FIFO (CB-LT §6.4: mask generation decoupled from the
//! payload XOR): two entries between `MaskGen` and `SymbolXor`.

use rust_hdl::prelude::*;

/// Two masks in a ring. A `push` writes the entry at the write pointer, a `pop` frees the head;
/// an entry's enable is the push's alone, so the consumer's hold, which gates the pop, reaches
/// three flip-flops and not the masks. `clear` empties the FIFO (after this clock's push and
/// pop). Contract with the owner: a push only with `room`, a pop only with `head_v`.
/// `head_new` says the head changed at the last edge (a pop, or a push into the empty FIFO).
#[derive(LogicBlock, Default)]
pub struct MaskFifo<const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub push: Signal<In, Bit>,
    pub mask: Signal<In, Bits<KM>>,
    pub pop: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub head: Signal<Out, Bits<KM>>,
    pub head_v: Signal<Out, Bit>,
    pub head_new: Signal<Out, Bit>,
    /// A push may be made (an entry is free), and some entry holds a mask.
    pub room: Signal<Out, Bit>,
    pub any: Signal<Out, Bit>,
    f_v0: DFF<Bit>,
    f_v1: DFF<Bit>,
    f_m0: DFF<Bits<KM>>,
    f_m1: DFF<Bits<KM>>,
    f_wp: DFF<Bit>,
    f_rp: DFF<Bit>,
    h_new: DFF<Bit>,
}

impl<const KM: usize> Logic for MaskFifo<KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, f_v0, f_v1, f_m0, f_m1, f_wp, f_rp, h_new);
        self.head.next = self.f_m0.q.val();
        self.head_v.next = self.f_v0.q.val();
        if self.f_rp.q.val() {
            self.head.next = self.f_m1.q.val();
            self.head_v.next = self.f_v1.q.val();
        }
        self.head_new.next = self.h_new.q.val();
        self.room.next = !(self.f_v0.q.val() & self.f_v1.q.val());
        self.any.next = self.f_v0.q.val() | self.f_v1.q.val();
        self.h_new.d.next = self.pop.val() | (self.push.val() & (self.f_wp.q.val() == self.f_rp.q.val()));
        if self.pop.val() {
            self.f_rp.d.next = !self.f_rp.q.val();
            if self.f_rp.q.val() {
                self.f_v1.d.next = false;
            } else {
                self.f_v0.d.next = false;
            }
        }
        if self.push.val() {
            self.f_wp.d.next = !self.f_wp.q.val();
            if self.f_wp.q.val() {
                self.f_v1.d.next = true;
                self.f_m1.d.next = self.mask.val();
            } else {
                self.f_v0.d.next = true;
                self.f_m0.d.next = self.mask.val();
            }
        }
        if self.clear.val() {
            self.f_v0.d.next = false;
            self.f_v1.d.next = false;
            self.f_wp.d.next = false;
            self.f_rp.d.next = false;
        }
    }
}

crate::pin_io!(generic [const KM: usize] MaskFifo<KM>; in: push, mask, pop, clear; out: head, head_v, head_new, room, any);
