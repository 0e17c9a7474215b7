//! The port's link pacer, the RTL of [`super::model::Pacer`] (the README's *Link pacer*): a
//! 32-bit credit in 1/256 bytes, the link free (`ready`) while it is not negative. The owner
//! sends only while `ready` (the scheduler's pop enable), so the credit stays within
//! −(65,535 + 255)·256 … `RATE`, and `len + overhead` fits 16 bits (the port's lengths are at
//! most 16,383).
//!
//! Timing: the credit after a departure is made for every queue's head before the pop
//! (`CreditAfter`, side by side), so the pop only selects one: no carry chain follows it.

use rust_hdl::prelude::*;

/// The credit after one queue's head departs: `credit + RATE − (len + OVERHEAD)·256`, capped at
/// `RATE` (no banking beyond the line rate).
#[derive(LogicBlock, Default)]
pub struct CreditAfter {
    pub credit: Signal<In, Bits<32>>,
    pub rate32: Signal<In, Bits<32>>,
    /// The overhead × 256.
    pub ovh256: Signal<In, Bits<32>>,
    pub len: Signal<In, Bits<16>>,
    pub credit_next: Signal<Out, Bits<32>>,
    len256: Signal<Local, Bits<32>>,
    after: Signal<Local, Bits<32>>,
    /// `credit − charge − 1`: not negative when the credit after the departure exceeds `RATE`.
    cap_test: Signal<Local, Bits<32>>,
}

impl Logic for CreditAfter {
    #[hdl_gen]
    fn update(&mut self) {
        // The charge is two operands of one sum, so each chain follows a carry-save layer. A
        // departure needs `ready` (credit ≥ 0) and the credit is at most RATE < 2^24, so
        // nothing overflows 32 bits, and the credit after it exceeds RATE exactly when
        // credit − charge > 0.
        self.len256.next = bit_cast::<32, 16>(self.len.val()) << 8;
        self.after.next = self.credit.val() + self.rate32.val() - self.len256.val() - self.ovh256.val();
        self.cap_test.next = self.credit.val() - self.len256.val() - self.ovh256.val() - Bits::<32>::from(1);
        self.credit_next.next = self.after.val();
        if !self.cap_test.val().get_bit(31) {
            self.credit_next.next = self.rate32.val();
        }
    }
}

#[derive(LogicBlock)]
pub struct LinkPacer<const NQ: usize> {
    pub clock: Signal<In, Clock>,
    /// Bytes per clock, 16.8 fixed point.
    pub rate: Signal<In, Bits<24>>,
    /// Wire bytes charged per departure on top of its length.
    pub overhead: Signal<In, Bits<8>>,
    /// Queue i's head departs in this clock (one-hot or none), and every queue's head length.
    pub pop: [Signal<In, Bit>; NQ],
    pub lens: [Signal<In, Bits<16>>; NQ],
    pub ready: Signal<Out, Bit>,
    /// Idle byte slots of the last clock (for REN).
    pub idle: Signal<Out, Bits<8>>,
    credit: DFF<Bits<32>>,
    idle_r: DFF<Bits<8>>,
    charge: [CreditAfter; NQ],
    sent: Signal<Local, Bit>,
    rate_int: Signal<Local, Bits<16>>,
    rate32: Signal<Local, Bits<32>>,
    ovh256: Signal<Local, Bits<32>>,
}

impl<const NQ: usize> Default for LinkPacer<NQ> {
    fn default() -> Self {
        LinkPacer {
            clock: Default::default(),
            rate: Default::default(),
            overhead: Default::default(),
            pop: std::array::from_fn(|_| Default::default()),
            lens: std::array::from_fn(|_| Default::default()),
            ready: Default::default(),
            idle: Default::default(),
            credit: Default::default(),
            idle_r: Default::default(),
            charge: std::array::from_fn(|_| Default::default()),
            sent: Default::default(),
            rate_int: Default::default(),
            rate32: Default::default(),
            ovh256: Default::default(),
        }
    }
}

impl<const NQ: usize> Logic for LinkPacer<NQ> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, credit, idle_r);
        self.ready.next = !self.credit.q.val().get_bit(31);
        self.idle.next = self.idle_r.q.val();
        self.rate32.next = bit_cast::<32, 24>(self.rate.val());
        self.ovh256.next = bit_cast::<32, 8>(self.overhead.val()) << 8;
        self.sent.next = false;
        for i in 0..NQ {
            self.charge[i].credit.next = self.credit.q.val();
            self.charge[i].rate32.next = self.rate32.val();
            self.charge[i].ovh256.next = self.ovh256.val();
            self.charge[i].len.next = self.lens[i].val();
            self.sent.next = self.sent.val() | self.pop[i].val();
        }
        // an idle free clock gives min(RATE >> 8, 255) byte slots to the next
        self.rate_int.next = self.rate.val().get_bits::<16>(8);
        self.idle_r.d.next = 0.into();
        if self.ready.val() & !self.sent.val() {
            self.idle_r.d.next = 255.into();
            if self.rate_int.val() < 255 {
                self.idle_r.d.next = self.rate_int.val().get_bits::<8>(0);
            }
        }
        // a free clock without a departure banks nothing; a busy one gains RATE; a departure
        // takes its queue's credit-after
        self.credit.d.next = self.credit.q.val() + self.rate32.val();
        if self.ready.val() {
            self.credit.d.next = 0.into();
        }
        for i in 0..NQ {
            if self.pop[i].val() {
                self.credit.d.next = self.charge[i].credit_next.val();
            }
        }
    }
}

/// The pacer of a two-queue port with one named pin per queue, for its own test
/// (`sim-tests/tests/port_components.rs`; rust-hdl names array ports `pop$0`, which Verilator
/// mangles).
#[derive(LogicBlock, Default)]
pub struct TestPacer {
    pub clock: Signal<In, Clock>,
    pub rate: Signal<In, Bits<24>>,
    pub overhead: Signal<In, Bits<8>>,
    pub pop0: Signal<In, Bit>,
    pub pop1: Signal<In, Bit>,
    pub len0: Signal<In, Bits<16>>,
    pub len1: Signal<In, Bits<16>>,
    pub ready: Signal<Out, Bit>,
    pub idle: Signal<Out, Bits<8>>,
    pacer: LinkPacer<2>,
}

impl Logic for TestPacer {
    #[hdl_gen]
    fn update(&mut self) {
        self.pacer.clock.next = self.clock.val();
        self.pacer.rate.next = self.rate.val();
        self.pacer.overhead.next = self.overhead.val();
        self.pacer.pop[0].next = self.pop0.val();
        self.pacer.pop[1].next = self.pop1.val();
        self.pacer.lens[0].next = self.len0.val();
        self.pacer.lens[1].next = self.len1.val();
        self.ready.next = self.pacer.ready.val();
        self.idle.next = self.pacer.idle.val();
    }
}

crate::pin_io!(TestPacer; in: rate, overhead, pop0, pop1, len0, len1; out: ready, idle);
