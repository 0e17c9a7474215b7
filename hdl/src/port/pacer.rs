//! The port's link pacer, the RTL of [`super::model::Pacer`] (the README's *Link pacer*): a
//! 32-bit credit in 1/256 bytes, the link free (`ready`) while it is not negative. The owner
//! sends only while `ready` (the scheduler's grant enable), so the credit stays within
//! −(65,535 + 255)·256 … `RATE`, and `sent_len + overhead` fits 16 bits (the port's lengths are
//! at most 16,383).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
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
    /// The departure's length and the overhead, each × 256.
    len256: Signal<Local, Bits<32>>,
    ovh256: Signal<Local, Bits<32>>,
    credit_after: Signal<Local, Bits<32>>,
    /// `credit − charge − 1`: not negative when the credit after a departure exceeds `RATE`.
    cap_test: Signal<Local, Bits<32>>,
    minus_one: Constant<Bits<32>>,
}

impl Default for LinkPacer {
    fn default() -> Self {
        LinkPacer {
            clock: Default::default(),
            rate: Default::default(),
            overhead: Default::default(),
            sent: Default::default(),
            sent_len: Default::default(),
            ready: Default::default(),
            idle: Default::default(),
            credit: Default::default(),
            idle_r: Default::default(),
            rate_int: Default::default(),
            rate32: Default::default(),
            len256: Default::default(),
            ovh256: Default::default(),
            credit_after: Default::default(),
            cap_test: Default::default(),
            minus_one: Constant::new(0xFFFF_FFFFu64.into()),
        }
    }
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
        // The charge (len + OVERHEAD)·256 is two operands of one sum each, so the granted length
        // reaches the credit through one carry chain (after a carry-save layer), not an add, a sum
        // and a compare in series. A departure needs `ready` (credit ≥ 0) and the credit is
        // at most RATE < 2^24, so nothing here overflows 32 bits, and the credit after it exceeds
        // RATE exactly when credit − charge > 0.
        self.len256.next = bit_cast::<32, 16>(self.sent_len.val()) << 8;
        self.ovh256.next = bit_cast::<32, 8>(self.overhead.val()) << 8;
        self.credit_after.next = self.credit.q.val() + self.rate32.val() - self.len256.val() - self.ovh256.val();
        self.cap_test.next = self.credit.q.val() - self.len256.val() - self.ovh256.val() + self.minus_one.val();
        if self.sent.val() {
            // a departure leaves at most one clock of credit (no banking beyond the line rate)
            self.credit.d.next = self.credit_after.val();
            if !self.cap_test.val().get_bit(31) {
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
