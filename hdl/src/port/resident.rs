//! The descriptors and bytes resident in the port's queues (read at `RES_PKTS` / `RES_BYTES`,
//! and INT's queue length): an arrival admitted adds one and its length, a pop takes one and
//! its length off.
//!
//! Timing: every outcome is made side by side before the admission and the pop decide
//! (for each queue whose head may leave, with and without the arrival), so they only select
//! one: no carry chain follows either decision.

use crate::rtl_util::AddSub;
use rust_hdl::prelude::*;

/// The resident bytes after one queue's head leaves: `res − len` and, with the arrival,
/// `res + in_len − len` (`AddSub`: one carry chain, sharing no sum with the arrival-only
/// outcome).
#[derive(LogicBlock, Default)]
pub struct ResidentLane {
    pub res: Signal<In, Bits<32>>,
    pub in32: Signal<In, Bits<32>>,
    pub len: Signal<In, Bits<16>>,
    pub out: Signal<Out, Bits<32>>,
    pub in_out: Signal<Out, Bits<32>>,
    len32: Signal<Local, Bits<32>>,
    both: AddSub<32>,
}

impl Logic for ResidentLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.len32.next = bit_cast::<32, 16>(self.len.val());
        self.out.next = self.res.val() - self.len32.val();
        self.both.a.next = self.res.val();
        self.both.b.next = self.in32.val();
        self.both.sub.next = self.len32.val();
        self.both.cin.next = false;
        self.in_out.next = self.both.out.val();
    }
}

#[derive(LogicBlock)]
pub struct Resident<const NQ: usize> {
    pub clock: Signal<In, Clock>,
    /// This clock's arrival is admitted, with `in_len` bytes.
    pub admit: Signal<In, Bit>,
    pub in_len: Signal<In, Bits<16>>,
    /// Queue i's head (of `lens[i]` bytes) departs in this clock (one-hot or none).
    pub pop: [Signal<In, Bit>; NQ],
    pub lens: [Signal<In, Bits<16>>; NQ],
    pub pkts: Signal<Out, Bits<32>>,
    pub bytes: Signal<Out, Bits<32>>,
    res_pkts: DFF<Bits<32>>,
    res_bytes: DFF<Bits<32>>,
    sent: Signal<Local, Bit>,
    pkts_up: Signal<Local, Bits<32>>,
    pkts_down: Signal<Local, Bits<32>>,
    bytes_in: Signal<Local, Bits<32>>,
    in32: Signal<Local, Bits<32>>,
    /// Queue i's head leaves, without and with the arrival.
    lane: [ResidentLane; NQ],
}

impl<const NQ: usize> Default for Resident<NQ> {
    fn default() -> Self {
        Resident {
            clock: Default::default(),
            admit: Default::default(),
            in_len: Default::default(),
            pop: std::array::from_fn(|_| Default::default()),
            lens: std::array::from_fn(|_| Default::default()),
            pkts: Default::default(),
            bytes: Default::default(),
            res_pkts: Default::default(),
            res_bytes: Default::default(),
            sent: Default::default(),
            pkts_up: Default::default(),
            pkts_down: Default::default(),
            bytes_in: Default::default(),
            in32: Default::default(),
            lane: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const NQ: usize> Logic for Resident<NQ> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, res_pkts, res_bytes);
        self.pkts.next = self.res_pkts.q.val();
        self.bytes.next = self.res_bytes.q.val();
        self.pkts_up.next = self.res_pkts.q.val() + 1;
        self.pkts_down.next = self.res_pkts.q.val() - 1;
        self.in32.next = bit_cast::<32, 16>(self.in_len.val());
        self.bytes_in.next = self.res_bytes.q.val() + self.in32.val();
        self.sent.next = false;
        for i in 0..NQ {
            self.sent.next = self.sent.val() | self.pop[i].val();
            self.lane[i].res.next = self.res_bytes.q.val();
            self.lane[i].in32.next = self.in32.val();
            self.lane[i].len.next = self.lens[i].val();
        }
        if self.admit.val() & !self.sent.val() {
            self.res_pkts.d.next = self.pkts_up.val();
            self.res_bytes.d.next = self.bytes_in.val();
        }
        if !self.admit.val() & self.sent.val() {
            self.res_pkts.d.next = self.pkts_down.val();
        }
        for i in 0..NQ {
            if self.pop[i].val() {
                self.res_bytes.d.next = self.lane[i].out.val();
                if self.admit.val() {
                    self.res_bytes.d.next = self.lane[i].in_out.val();
                }
            }
        }
    }
}
