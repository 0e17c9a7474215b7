//! The port's link pacer, the RTL of [`super::model::Pacer`] (the README's *Link pacer*): a
//! 32-bit credit in 1/256 bytes, the link free (`ready`) while it is not negative. The owner
//! sends only while `ready` (the scheduler's grant enable), so the credit stays within
//! −(65,535 + 255)·256 … `RATE`, and `sent_len + overhead` fits 16 bits (the port's lengths are
//! at most 16,383).

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct LinkPacer {
    pub clock: Signal<In, Clock>,
    /// Bytes per clock, 16.8 fixed point.
    pub rate: Signal<In, Bits<24>>,
    /// Wire bytes charged per departure on top of its length.
    pub overhead: Signal<In, Bits<8>>,
    /// A descriptor of `sent_len` bytes leaves in this clock.
    pub sent: Signal<In, Bit>,
    pub sent_len: Signal<In, Bits<16>>,
    pub ready: Signal<Out, Bit>,
    /// Idle byte slots of the last clock (for REN).
    pub idle: Signal<Out, Bits<8>>,
    credit: DFF<Bits<32>>,
    idle_r: DFF<Bits<8>>,
    rate_int: Signal<Local, Bits<16>>,
    rate32: Signal<Local, Bits<32>>,
    credit_after: Signal<Local, Bits<32>>,
}

impl Logic for LinkPacer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, credit, idle_r);
        self.ready.next = !self.credit.q.val().get_bit(31);
        self.idle.next = self.idle_r.q.val();
        // an idle free clock gives min(RATE >> 8, 255) byte slots to the next
        self.rate_int.next = self.rate.val().get_bits::<16>(8);
        self.idle_r.d.next = 0.into();
        if self.ready.val() & !self.sent.val() {
            self.idle_r.d.next = 255.into();
            if self.rate_int.val() < 255 {
                self.idle_r.d.next = self.rate_int.val().get_bits::<8>(0);
            }
        }
        self.rate32.next = bit_cast::<32, 24>(self.rate.val());
        self.credit_after.next =
            self.credit.q.val() - (bit_cast::<32, 16>(self.sent_len.val() + bit_cast::<16, 8>(self.overhead.val())) << 8) + self.rate32.val();
        if self.sent.val() {
            // a departure leaves at most one clock of credit (no banking beyond the line rate)
            self.credit.d.next = self.credit_after.val();
            if !self.credit_after.val().get_bit(31) & (self.credit_after.val() > self.rate32.val()) {
                self.credit.d.next = self.rate32.val();
            }
        } else if self.ready.val() {
            self.credit.d.next = 0.into();
        } else {
            self.credit.d.next = self.credit.q.val() + self.rate32.val();
        }
    }
}

// pins for the pacer's own test (sim-tests/tests/port_components.rs)
crate::pin_io!(LinkPacer; in: rate, overhead, sent, sent_len; out: ready, idle);
