//! One outcome of the decision stage's clock (README, *Latency*): the occupancy after it, the
//! room `R = CAP⁺ − bytes` after it, and the flags the next arrival and the next dequeue are
//! judged by in it. The stage has one per outcome (admitted or not, dequeued or not), each an
//! adder or a three-operand chain (`AddSub`) from registers and the next lengths, side by side;
//! the decision then selects one. Widths: 34 bits, two's complement, so every sum and
//! difference of 32-bit values and 17-bit deltas is exact; a flag is a sign.

use crate::rtl_util::AddSub;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct NextState {
    /// The occupancy in packets and bytes, zero-extended.
    pub pkts: Signal<In, Bits<34>>,
    pub bytes: Signal<In, Bits<34>>,
    /// `CAP⁺ − bytes`: the room against the `CAP` in force in the next clock.
    pub room: Signal<In, Bits<34>>,
    /// `K` and `CAP` in force in the next clock, zero-extended.
    pub k: Signal<In, Bits<34>>,
    pub cap: Signal<In, Bits<34>>,
    /// A `CAP` write presented this clock (in force the clock after next): its data.
    pub cap_write: Signal<In, Bits<34>>,
    /// This outcome's change of the packet count (0, +1 or −1) and its negation.
    pub d_pkts: Signal<In, Bits<34>>,
    pub nd_pkts: Signal<In, Bits<34>>,
    /// This outcome's change of the byte count (0, the arrival's length, minus the dequeue's,
    /// or their difference; registers of the input stage) and its negation.
    pub d_bytes: Signal<In, Bits<34>>,
    pub nd_bytes: Signal<In, Bits<34>>,
    /// The lengths of the arrival and the dequeue presented this clock, zero-extended.
    pub next_len: Signal<In, Bits<34>>,
    pub next_deq_len: Signal<In, Bits<34>>,
    pub pkts_out: Signal<Out, Bits<32>>,
    pub bytes_out: Signal<Out, Bits<32>>,
    /// The room after this outcome, without and with the `CAP` write.
    pub room_out: Signal<Out, Bits<34>>,
    pub room_written: Signal<Out, Bits<34>>,
    /// The next arrival: packets `≥ CAP`, packets `> K`, bytes with it `> CAP`, bytes `> K`,
    /// bytes with it `≥ 2^32`.
    pub full_pkts: Signal<Out, Bit>,
    pub above_pkts: Signal<Out, Bit>,
    pub full_bytes: Signal<Out, Bit>,
    pub above_bytes: Signal<Out, Bit>,
    pub overflow: Signal<Out, Bit>,
    /// The next dequeue: a packet is queued and its length is at most the bytes queued.
    pub deq_fits: Signal<Out, Bit>,
    /// `pkts + d − CAP`, `K − pkts − d`, `room − d − len`, `K − bytes − d`, `bytes + len + d`,
    /// `bytes + d − deq_len`, `pkts + d − 1`, `cap_write − bytes − d`.
    full_p: AddSub<34>,
    above_p: AddSub<34>,
    full_b: AddSub<34>,
    above_b: AddSub<34>,
    sum_b: AddSub<34>,
    deq_b: AddSub<34>,
    deq_p: AddSub<34>,
    written: AddSub<34>,
    pkts_sum: Signal<Local, Bits<34>>,
    bytes_sum: Signal<Local, Bits<34>>,
    one: Constant<Bits<34>>,
    /// The chains' bits below the sign (Verilator's lint wants them read).
    unused_bits: Signal<Local, Bit>,
}

impl Default for NextState {
    fn default() -> Self {
        NextState {
            pkts: Default::default(),
            bytes: Default::default(),
            room: Default::default(),
            k: Default::default(),
            cap: Default::default(),
            cap_write: Default::default(),
            d_pkts: Default::default(),
            nd_pkts: Default::default(),
            d_bytes: Default::default(),
            nd_bytes: Default::default(),
            next_len: Default::default(),
            next_deq_len: Default::default(),
            pkts_out: Default::default(),
            bytes_out: Default::default(),
            room_out: Default::default(),
            room_written: Default::default(),
            full_pkts: Default::default(),
            above_pkts: Default::default(),
            full_bytes: Default::default(),
            above_bytes: Default::default(),
            overflow: Default::default(),
            deq_fits: Default::default(),
            full_p: Default::default(),
            above_p: Default::default(),
            full_b: Default::default(),
            above_b: Default::default(),
            sum_b: Default::default(),
            deq_b: Default::default(),
            deq_p: Default::default(),
            written: Default::default(),
            pkts_sum: Default::default(),
            bytes_sum: Default::default(),
            one: Constant::new(1u64.into()),
            unused_bits: Default::default(),
        }
    }
}

impl Logic for NextState {
    #[hdl_gen]
    fn update(&mut self) {
        self.pkts_sum.next = self.pkts.val() + self.d_pkts.val();
        self.bytes_sum.next = self.bytes.val() + self.d_bytes.val();
        self.pkts_out.next = self.pkts_sum.val().get_bits::<32>(0);
        self.bytes_out.next = self.bytes_sum.val().get_bits::<32>(0);
        self.room_out.next = self.room.val() + self.nd_bytes.val();
        self.written.a.next = self.cap_write.val();
        self.written.b.next = self.nd_bytes.val();
        self.written.sub.next = self.bytes.val();
        self.written.cin.next = false;
        self.room_written.next = self.written.out.val();
        self.full_p.a.next = self.pkts.val();
        self.full_p.b.next = self.d_pkts.val();
        self.full_p.sub.next = self.cap.val();
        self.full_p.cin.next = false;
        self.full_pkts.next = !self.full_p.out.val().get_bit(33);
        self.above_p.a.next = self.k.val();
        self.above_p.b.next = self.nd_pkts.val();
        self.above_p.sub.next = self.pkts.val();
        self.above_p.cin.next = false;
        self.above_pkts.next = self.above_p.out.val().get_bit(33);
        self.full_b.a.next = self.room.val();
        self.full_b.b.next = self.nd_bytes.val();
        self.full_b.sub.next = self.next_len.val();
        self.full_b.cin.next = false;
        self.full_bytes.next = self.full_b.out.val().get_bit(33);
        self.above_b.a.next = self.k.val();
        self.above_b.b.next = self.nd_bytes.val();
        self.above_b.sub.next = self.bytes.val();
        self.above_b.cin.next = false;
        self.above_bytes.next = self.above_b.out.val().get_bit(33);
        self.sum_b.a.next = self.bytes.val();
        self.sum_b.b.next = self.next_len.val();
        self.sum_b.sub.next = self.nd_bytes.val();
        self.sum_b.cin.next = false;
        self.overflow.next = self.sum_b.out.val().get_bit(32);
        self.deq_b.a.next = self.bytes.val();
        self.deq_b.b.next = self.d_bytes.val();
        self.deq_b.sub.next = self.next_deq_len.val();
        self.deq_b.cin.next = false;
        self.deq_p.a.next = self.pkts.val();
        self.deq_p.b.next = self.d_pkts.val();
        self.deq_p.sub.next = self.one.val();
        self.deq_p.cin.next = false;
        self.deq_fits.next = !self.deq_b.out.val().get_bit(33) & !self.deq_p.out.val().get_bit(33);
        self.unused_bits.next = self.full_p.out.val().get_bits::<33>(0).any() | self.above_p.out.val().get_bits::<33>(0).any()
            | self.full_b.out.val().get_bits::<33>(0).any() | self.above_b.out.val().get_bits::<33>(0).any()
            | self.sum_b.out.val().get_bits::<32>(0).any() | self.sum_b.out.val().get_bit(33)
            | self.deq_b.out.val().get_bits::<33>(0).any() | self.deq_p.out.val().get_bits::<33>(0).any()
            | self.pkts_sum.val().get_bits::<2>(32).any() | self.bytes_sum.val().get_bits::<2>(32).any();
    }
}
