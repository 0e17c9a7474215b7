//! The outcomes of the decision stage's clock (README, *Latency*): for each, the occupancy after
//! it and the flags the next arrival and the next dequeue are judged by in it, each an adder or
//! one carry chain from registers and the lengths presented in the clock, side by side; the
//! decision then selects one outcome's set. Bytes: a [`NextBytes`] per outcome. Packets: the
//! count moves by 0, +1 or −1, so [`NextPkts`] compares the count with `K` and `CAP` and their
//! neighbours, kept as registers, and needs no sum before a compare.

use crate::rtl_util::AddSub;
use rust_hdl::prelude::*;

/// One outcome's byte count and byte flags, 34-bit two's complement (every sum of 32-bit
/// values and 17-bit changes is exact; a flag is a sign or the carry into bit 32).
#[derive(LogicBlock, Default)]
pub struct NextBytes {
    /// The byte count now, and `K` and `CAP` as they will be in force next clock (zero-extended).
    pub bytes: Signal<In, Bits<34>>,
    pub k: Signal<In, Bits<34>>,
    pub cap: Signal<In, Bits<34>>,
    /// The outcome's change of the byte count (0, the arrival's length, minus the dequeue's, or
    /// their difference: registers of the input stage) and its negation.
    pub d_bytes: Signal<In, Bits<34>>,
    pub nd_bytes: Signal<In, Bits<34>>,
    /// The lengths of the arrival and the dequeue presented this clock (zero-extended).
    pub next_len: Signal<In, Bits<34>>,
    pub next_deq_len: Signal<In, Bits<34>>,
    pub bytes_out: Signal<Out, Bits<32>>,
    /// The next arrival: bytes with it `> CAP`, bytes `> K`, bytes with it `≥ 2^32`.
    pub full: Signal<Out, Bit>,
    pub above: Signal<Out, Bit>,
    pub overflow: Signal<Out, Bit>,
    /// The next dequeue's length is at most the bytes queued.
    pub deq_fits: Signal<Out, Bit>,
    /// `CAP − bytes − d − len`, four operands: two carry-save layers (each a LUT per bit, each
    /// adding a 1 in its carry word's free bit 0) and one chain, `s2 + c2 + 1`; with every
    /// operand but `CAP` complemented, the three 1s complete the three negations.
    nb: Signal<Local, Bits<34>>,
    nd: Signal<Local, Bits<34>>,
    nl: Signal<Local, Bits<34>>,
    s1: Signal<Local, Bits<34>>,
    c1: Signal<Local, Bits<34>>,
    s2: Signal<Local, Bits<34>>,
    c2: Signal<Local, Bits<34>>,
    room_left: Signal<Local, Bits<34>>,
    /// `K − bytes − d`, `bytes + len + d`, `bytes + d − deq_len`.
    above_k: AddSub<34>,
    sum: AddSub<34>,
    deq: AddSub<34>,
    next: Signal<Local, Bits<34>>,
    /// The chains' bits that are not read (Verilator's lint wants them read).
    unused_bits: Signal<Local, Bit>,
}

impl Logic for NextBytes {
    #[hdl_gen]
    fn update(&mut self) {
        self.next.next = self.bytes.val() + self.d_bytes.val();
        self.bytes_out.next = self.next.val().get_bits::<32>(0);
        self.nb.next = !self.bytes.val();
        self.nd.next = !self.d_bytes.val();
        self.nl.next = !self.next_len.val();
        self.s1.next = self.cap.val() ^ self.nb.val() ^ self.nd.val();
        self.c1.next = (((self.cap.val() & self.nb.val()) | (self.cap.val() & self.nd.val()) | (self.nb.val() & self.nd.val())) << 1) | 1;
        self.s2.next = self.s1.val() ^ self.c1.val() ^ self.nl.val();
        self.c2.next = (((self.s1.val() & self.c1.val()) | (self.s1.val() & self.nl.val()) | (self.c1.val() & self.nl.val())) << 1) | 1;
        self.room_left.next = self.s2.val() - !self.c2.val();
        self.full.next = self.room_left.val().get_bit(33);
        self.above_k.a.next = self.k.val();
        self.above_k.b.next = self.nd_bytes.val();
        self.above_k.sub.next = self.bytes.val();
        self.above_k.cin.next = false;
        self.above.next = self.above_k.out.val().get_bit(33);
        self.sum.a.next = self.bytes.val();
        self.sum.b.next = self.next_len.val();
        self.sum.sub.next = self.nd_bytes.val();
        self.sum.cin.next = false;
        self.overflow.next = self.sum.out.val().get_bit(32);
        self.deq.a.next = self.bytes.val();
        self.deq.b.next = self.d_bytes.val();
        self.deq.sub.next = self.next_deq_len.val();
        self.deq.cin.next = false;
        self.deq_fits.next = !self.deq.out.val().get_bit(33);
        self.unused_bits.next = self.next.val().get_bits::<2>(32).any() | self.room_left.val().get_bits::<33>(0).any()
            | self.above_k.out.val().get_bits::<33>(0).any() | self.sum.out.val().get_bits::<32>(0).any()
            | self.sum.out.val().get_bit(33) | self.deq.out.val().get_bits::<33>(0).any();
    }
}

/// The packet count's flags for each outcome `e·2 + d` (admitted `e`, dequeued `d`): the count
/// moves by 0, −1, +1, 0, so each flag is a compare of the count now with `K`, `CAP` or a
/// neighbour of theirs (`K + 1`, `CAP − 1` saturated at 0, registers), one chain each.
#[derive(LogicBlock, Default)]
pub struct NextPkts {
    pub pkts: Signal<In, Bits<32>>,
    /// `K`, `K + 1`, `CAP` and `CAP − 1` (0 when `CAP` is 0), in force next clock.
    pub k: Signal<In, Bits<32>>,
    pub k_plus_1: Signal<In, Bits<33>>,
    pub cap: Signal<In, Bits<32>>,
    pub cap_minus_1: Signal<In, Bits<32>>,
    /// The count after the outcome.
    pub next: [Signal<Out, Bits<32>>; 4],
    /// The next arrival: the count `≥ CAP`, `> K`.
    pub full: [Signal<Out, Bit>; 4],
    pub above: [Signal<Out, Bit>; 4],
    /// The count after the outcome is not 0 (the next dequeue has a packet to take).
    pub nonzero: [Signal<Out, Bit>; 4],
    held_full: Signal<Local, Bit>,
    held_above: Signal<Local, Bit>,
    held_nonzero: Signal<Local, Bit>,
}

impl Logic for NextPkts {
    #[hdl_gen]
    fn update(&mut self) {
        // held (0, and 3: one in, one out): the count as it is
        self.held_full.next = self.pkts.val() >= self.cap.val();
        self.held_above.next = self.pkts.val() > self.k.val();
        self.held_nonzero.next = self.pkts.val().any();
        self.next[0].next = self.pkts.val();
        self.full[0].next = self.held_full.val();
        self.above[0].next = self.held_above.val();
        self.nonzero[0].next = self.held_nonzero.val();
        self.next[3].next = self.pkts.val();
        self.full[3].next = self.held_full.val();
        self.above[3].next = self.held_above.val();
        self.nonzero[3].next = self.held_nonzero.val();
        // dequeued (1): count − 1, and the count is at least 1
        self.next[1].next = self.pkts.val() - 1;
        self.full[1].next = self.pkts.val() > self.cap.val();
        self.above[1].next = bit_cast::<33, 32>(self.pkts.val()) > self.k_plus_1.val();
        self.nonzero[1].next = self.pkts.val() != 1;
        // admitted (2): count + 1 (never wraps: the byte count would first)
        self.next[2].next = self.pkts.val() + 1;
        self.full[2].next = self.pkts.val() >= self.cap_minus_1.val();
        self.above[2].next = self.pkts.val() >= self.k.val();
        self.nonzero[2].next = true;
    }
}
