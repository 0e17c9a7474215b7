//! The port's departure, over two clocks. `D1` holds the descriptor popped last clock, and its
//! queue's AQM marker takes it there (its queue's state, its sojourn `now − stamp`, its queue's
//! occupancy): the marker's stage `A` makes every carry chain and division of the judgement.
//! `D2` holds it a clock later, where the marker's stage `B` decides from those registers, and
//! REN and INT stamping take it there on the marker's verdict, in that order, and it leaves on
//! `out_*`. A block that drops it stops it for the blocks after. So the marker's chains and
//! REN's are in different clocks (the port README, *Latency*). A block the port is built
//! without (`F`, `features` in `mod.rs`) has its outputs replaced by what passes it untouched,
//! so synthesis removes it.

use crate::aqm::pipe::PipeQueueMarker;
use crate::intstamp::rtl::IntStamper;
use crate::ren::rtl::RenCounters;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Departure<const NQ: usize, const QB: usize, const CB: usize, const F: usize> {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    /// The register space's block (`addr[11:8]`) and register (`addr[7:0]`).
    pub block: Signal<In, Bits<4>>,
    pub sub_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    /// This clock's pop (the scheduler's pick of an earlier clock): it departs at the next clock.
    pub g: Signal<In, Bit>,
    pub gq: Signal<In, Bits<QB>>,
    /// The popped descriptor {is_data, ecn, len} and its enqueue stamp.
    pub g_meta: Signal<In, Bits<17>>,
    pub g_ts: Signal<In, Bits<32>>,
    pub now: Signal<In, Bits<32>>,
    /// Every queue's occupancy (the departing queue's, left behind, is the AQM's `qlen`).
    pub counts: [Signal<In, Bits<CB>>; NQ],
    pub idle_bytes: Signal<In, Bits<8>>,
    pub res_pkts: Signal<In, Bits<32>>,
    pub res_bytes: Signal<In, Bits<32>>,
    /// Descriptors between the pop and `out_*` (`D1` and `D2`): 0, 1 or 2.
    pub in_flight: Signal<Out, Bits<2>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_q: Signal<Out, Bits<3>>,
    pub out_len: Signal<Out, Bits<16>>,
    pub out_ecn: Signal<Out, Bits<2>>,
    pub out_is_data: Signal<Out, Bit>,
    pub out_sojourn: Signal<Out, Bits<32>>,
    pub out_hop_lo: Signal<Out, Bits<32>>,
    pub out_hop_hi: Signal<Out, Bits<32>>,
    /// The fate of `D2`'s descriptor: dropped by the AQM, by REN, by INT.
    pub drop_aqm: Signal<Out, Bit>,
    pub drop_ren: Signal<Out, Bit>,
    pub drop_int: Signal<Out, Bit>,
    /// The AQM marked `D2`'s descriptor (ECT) CE.
    pub marked_aqm: Signal<Out, Bit>,
    aqm: PipeQueueMarker<NQ, QB>,
    ren: RenCounters,
    int_stamp: IntStamper,
    d1_valid: DFF<Bit>,
    d1_q: DFF<Bits<QB>>,
    d1_meta: DFF<Bits<17>>,
    d1_ts: DFF<Bits<32>>,
    d1_ecn: Signal<Local, Bits<2>>,
    d1_count: Signal<Local, Bits<CB>>,
    sojourn: Signal<Local, Bits<32>>,
    /// `D2`: the descriptor the AQM took last clock, and the AQM's code, drop and mark on it.
    d2_valid: DFF<Bit>,
    d2_q: DFF<Bits<QB>>,
    d2_meta: DFF<Bits<17>>,
    d2_sojourn: DFF<Bits<32>>,
    d2_ecn_in: Signal<Local, Bits<2>>,
    d2_ecn: Signal<Local, Bits<2>>,
    d2_drop_aqm: Signal<Local, Bit>,
    d2_len: Signal<Local, Bits<16>>,
    d2_on: Signal<Local, Bit>,
    has_aqm: Constant<Bit>,
    has_ren: Constant<Bit>,
    has_int: Constant<Bit>,
}

impl<const NQ: usize, const QB: usize, const CB: usize, const F: usize> Default for Departure<NQ, QB, CB, F> {
    fn default() -> Self {
        Departure {
            clock: Default::default(),
            csr_we: Default::default(),
            block: Default::default(),
            sub_addr: Default::default(),
            csr_wdata: Default::default(),
            g: Default::default(),
            gq: Default::default(),
            g_meta: Default::default(),
            g_ts: Default::default(),
            now: Default::default(),
            counts: std::array::from_fn(|_| Default::default()),
            idle_bytes: Default::default(),
            res_pkts: Default::default(),
            res_bytes: Default::default(),
            in_flight: Default::default(),
            out_valid: Default::default(),
            out_q: Default::default(),
            out_len: Default::default(),
            out_ecn: Default::default(),
            out_is_data: Default::default(),
            out_sojourn: Default::default(),
            out_hop_lo: Default::default(),
            out_hop_hi: Default::default(),
            drop_aqm: Default::default(),
            drop_ren: Default::default(),
            drop_int: Default::default(),
            marked_aqm: Default::default(),
            aqm: Default::default(),
            ren: Default::default(),
            int_stamp: Default::default(),
            d1_valid: Default::default(),
            d1_q: Default::default(),
            d1_meta: Default::default(),
            d1_ts: Default::default(),
            d1_ecn: Default::default(),
            d1_count: Default::default(),
            sojourn: Default::default(),
            d2_valid: Default::default(),
            d2_q: Default::default(),
            d2_meta: Default::default(),
            d2_sojourn: Default::default(),
            d2_ecn_in: Default::default(),
            d2_ecn: Default::default(),
            d2_drop_aqm: Default::default(),
            d2_len: Default::default(),
            d2_on: Default::default(),
            has_aqm: Constant::new(F & super::features::AQM != 0),
            has_ren: Constant::new(F & super::features::REN != 0),
            has_int: Constant::new(F & super::features::INT != 0),
        }
    }
}

impl<const NQ: usize, const QB: usize, const CB: usize, const F: usize> Logic for Departure<NQ, QB, CB, F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, d1_valid, d1_q, d1_meta, d1_ts, d2_valid, d2_q, d2_meta, d2_sojourn);
        clock!(self, clock, aqm, ren, int_stamp);
        self.d1_valid.d.next = self.g.val();
        // the pick's queue holds while it waits for the link; an empty `D1` keeps queue 0
        self.d1_q.d.next = 0.into();
        if self.g.val() {
            self.d1_q.d.next = self.gq.val();
        }
        self.d1_meta.d.next = self.g_meta.val();
        self.d1_ts.d.next = self.g_ts.val();
        self.in_flight.next = bit_cast::<2, 1>(self.d1_valid.q.val().into()) + bit_cast::<2, 1>(self.d2_valid.q.val().into());
        // --- D1: the AQM marker's stage A
        self.d1_ecn.next = self.d1_meta.q.val().get_bits::<2>(14);
        self.sojourn.next = 0.into();
        if self.d1_valid.q.val() {
            self.sojourn.next = self.now.val() - self.d1_ts.q.val();
        }
        // (bit_cast cannot take a loop-indexed argument in hdl_gen: mux first, then widen)
        self.d1_count.next = 0.into();
        for i in 0..NQ {
            if self.d1_q.q.val().index() == i {
                self.d1_count.next = self.counts[i].val();
            }
        }
        self.aqm.csr_we.next = self.csr_we.val() & (self.block.val() == 2) & (self.sub_addr.val() < 64);
        self.aqm.csr_addr.next = self.sub_addr.val().get_bits::<6>(0);
        self.aqm.csr_wdata.next = self.csr_wdata.val();
        self.aqm.deq.next = self.d1_valid.q.val();
        self.aqm.q.next = self.d1_q.q.val();
        self.aqm.q_next.next = self.gq.val();
        self.aqm.now.next = self.now.val();
        self.aqm.ts.next = self.d1_ts.q.val();
        self.aqm.ecn_in.next = self.d1_ecn.val();
        self.aqm.qlen.next = bit_cast::<32, CB>(self.d1_count.val());
        self.d2_valid.d.next = self.d1_valid.q.val();
        self.d2_q.d.next = self.d1_q.q.val();
        self.d2_meta.d.next = self.d1_meta.q.val();
        self.d2_sojourn.d.next = self.sojourn.val();
        // --- D2: the AQM marker's stage B decides from registers; then REN, then INT stamping,
        // on what the AQM passed
        self.d2_ecn_in.next = self.d2_meta.q.val().get_bits::<2>(14);
        self.d2_ecn.next = self.d2_ecn_in.val();
        if self.has_aqm.val() {
            self.d2_ecn.next = self.aqm.ecn_out.val();
        }
        self.d2_drop_aqm.next = self.d2_valid.q.val() & self.aqm.drop.val() & self.has_aqm.val();
        self.d2_len.next = bit_cast::<16, 14>(self.d2_meta.q.val().get_bits::<14>(0));
        self.d2_on.next = self.d2_valid.q.val() & !self.d2_drop_aqm.val();
        self.drop_aqm.next = self.d2_drop_aqm.val();
        self.marked_aqm.next = self.d2_valid.q.val()
            & ((self.d2_ecn_in.val() == 1) | (self.d2_ecn_in.val() == 2))
            & (self.d2_ecn.val() == 3);
        self.ren.csr_we.next = self.csr_we.val() & (self.block.val() == 5);
        self.ren.csr_addr.next = self.sub_addr.val();
        self.ren.csr_wdata.next = self.csr_wdata.val();
        self.ren.idle_bytes.next = self.idle_bytes.val();
        self.ren.q_pkts.next = self.res_pkts.val().get_bits::<20>(0);
        self.ren.deq_valid.next = self.d2_on.val();
        // REN's input stage takes `D1`'s descriptor (its README's *Latency*), its verdict `D2`'s
        self.ren.deq_is_data.next = self.d1_meta.q.val().get_bit(16);
        self.ren.deq_ecn.next = self.d2_ecn.val();
        self.ren.deq_len.next = bit_cast::<16, 14>(self.d1_meta.q.val().get_bits::<14>(0));
        self.drop_ren.next = self.d2_on.val() & self.ren.drop.val() & self.has_ren.val();
        self.int_stamp.csr_we.next = self.csr_we.val() & (self.block.val() == 6);
        self.int_stamp.csr_addr.next = self.sub_addr.val();
        self.int_stamp.csr_wdata.next = self.csr_wdata.val();
        self.int_stamp.deq_valid.next = self.d2_on.val() & !self.drop_ren.val();
        self.int_stamp.deq_len.next = self.d2_len.val();
        self.int_stamp.now.next = self.now.val().get_bits::<24>(0);
        self.int_stamp.qlen_after.next = self.res_bytes.val();
        self.drop_int.next = self.d2_on.val() & !self.drop_ren.val() & self.int_stamp.drop.val() & self.has_int.val();
        self.out_valid.next = self.d2_on.val() & !self.drop_ren.val() & !self.drop_int.val();
        self.out_q.next = bit_cast::<3, QB>(self.d2_q.q.val());
        self.out_len.next = self.d2_len.val();
        self.out_ecn.next = self.d2_ecn.val();
        if self.has_ren.val() {
            self.out_ecn.next = self.ren.ecn_out.val();
        }
        self.out_is_data.next = self.d2_meta.q.val().get_bit(16);
        self.out_sojourn.next = self.d2_sojourn.q.val();
        self.out_hop_lo.next = 0.into();
        self.out_hop_hi.next = 0.into();
        if self.has_int.val() {
            self.out_hop_lo.next = self.int_stamp.hop_lo.val();
            self.out_hop_hi.next = self.int_stamp.hop_hi.val();
        }
    }
}
