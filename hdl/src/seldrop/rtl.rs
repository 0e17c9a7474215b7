//! RTL of the selective-drop admission block: the decision stage [`SelectiveDropCore`] (the
//! switch port's, behind the port's own input stage) and the block [`SelectiveDrop`], that stage
//! behind an input stage of one clock. The golden model is `model.rs`, the table, the choices and
//! the latency are in the README. Register addresses are the literals of [`super::csr`].

use super::next_state::{ByteDeltas, HighHalf, NextBytes, NextPkts};
use crate::rtl_util::{CsrStage, LateCounter};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `seldrop/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::UNIT == 0 && csr::K == 1 && csr::CAP == 2 && csr::FLAGS == 3 && csr::MAX_LEN == 4
    && csr::CNT_BASE == 16 && csr::REGISTERS[csr::idx::CNT_BASE].count == 8
);
// `HighHalf` resets `Bh − Kh` and `Bh − Ch` to 0: the reset `K` and `CAP` are below 2^16.
const _: () = assert!(super::DEFAULT_K < 1 << 16 && super::DEFAULT_CAP < 1 << 16);

/// The decision stage. It decides the arrival on `arr_valid`/`arr_ecn`/`arr_low_prio`, whose
/// length was given a clock before on `next_len`, and it reads flip-flops only: in the clock
/// before, every flag the decision needs was made for each outcome of that clock's decision
/// (`next_state.rs`), with the next length, and that decision selected one. A dequeue is held a
/// clock (its length's flags are made in the clock it is presented). Register writes pass a
/// `CsrStage`; `K` and `CAP` are kept as they will be in force in the next clock (`k_next`,
/// `cap_next` and their neighbours, written from the write's own clock: an address decode, no
/// check), since the flags made in this clock are for the next one.
#[derive(LogicBlock)]
pub struct SelectiveDropCore {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    /// The arrival decided this clock (its length came on `next_len` last clock).
    pub arr_valid: Signal<In, Bit>,
    pub arr_ecn: Signal<In, Bits<2>>,
    pub arr_low_prio: Signal<In, Bit>,
    /// The length of the arrival decided next clock.
    pub next_len: Signal<In, Bits<16>>,
    /// A dequeue, applied next clock.
    pub deq_valid: Signal<In, Bit>,
    pub deq_len: Signal<In, Bits<16>>,
    pub admit: Signal<Out, Bit>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop_sel: Signal<Out, Bit>,
    pub drop_full: Signal<Out, Bit>,
    pub drop_bad: Signal<Out, Bit>,
    pub occ_pkts: Signal<Out, Bits<32>>,
    pub occ_bytes: Signal<Out, Bits<32>>,
    pub cnt_enq: Signal<Out, Bits<32>>,
    pub cnt_marked: Signal<Out, Bits<32>>,
    pub cnt_drop_sel: Signal<Out, Bits<32>>,
    pub cnt_drop_full: Signal<Out, Bits<32>>,
    pub cnt_malformed: Signal<Out, Bits<32>>,
    pub cnt_deq: Signal<Out, Bits<32>>,
    pub cnt_bad_deq: Signal<Out, Bits<32>>,
    pub cnt_csr_rejected: Signal<Out, Bits<32>>,
    csr: CsrStage<8>,
    // configuration in force (reset values: mod.rs), and K and CAP as they will be next clock
    bytes_unit: DFF<Bit>,
    drop_non_ect: DFFWithInit<Bit>,
    max_len: DFFWithInit<Bits<16>>,
    k_next: DFFWithInit<Bits<32>>,
    k_next_p1: DFFWithInit<Bits<33>>,
    cap_next: DFFWithInit<Bits<32>>,
    cap_next_m1: DFFWithInit<Bits<32>>,
    // the occupancy: packets, and bytes in halves (the high half in `high`)
    q_pkts: DFF<Bits<32>>,
    q_bl: DFF<Bits<16>>,
    high: HighHalf,
    // the input stage: the dequeue, the next arrival's length check, and each outcome's change
    // of the byte count
    d_valid: DFF<Bit>,
    a_bad: DFF<Bit>,
    deltas: ByteDeltas,
    // the flags the decision reads
    f_full_p: DFF<Bit>,
    f_above_p: DFF<Bit>,
    f_full_b: DFF<Bit>,
    f_above_b: DFF<Bit>,
    f_ovf: DFF<Bit>,
    f_deq: DFF<Bit>,
    /// Outcome `e·2 + d` (admitted `e`, dequeued `d`).
    next: [NextBytes; 4],
    next_pkts: NextPkts,
    /// enq, marked, drop_sel, drop_full, malformed, deq, bad_deq, csr_rejected (`CNT_BASE` order).
    counters: [LateCounter; 8],
    cnt_addr: [Constant<Bits<8>>; 8],
    // wires
    carry: Signal<Local, Bits<2>>,
    ml_written: Signal<Local, Bit>,
    k_write: Signal<Local, Bit>,
    cap_write: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    above: Signal<Local, Bit>,
    droppable: Signal<Local, Bit>,
    sel: Signal<Local, Bit>,
    mark: Signal<Local, Bit>,
    enq: Signal<Local, Bit>,
    deq_ok: Signal<Local, Bit>,
    csr_ok: Signal<Local, Bit>,
    applies: Signal<Local, Bit>,
}

impl Default for SelectiveDropCore {
    fn default() -> Self {
        SelectiveDropCore {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            arr_valid: Default::default(),
            arr_ecn: Default::default(),
            arr_low_prio: Default::default(),
            next_len: Default::default(),
            deq_valid: Default::default(),
            deq_len: Default::default(),
            admit: Default::default(),
            ecn_out: Default::default(),
            drop_sel: Default::default(),
            drop_full: Default::default(),
            drop_bad: Default::default(),
            occ_pkts: Default::default(),
            occ_bytes: Default::default(),
            cnt_enq: Default::default(),
            cnt_marked: Default::default(),
            cnt_drop_sel: Default::default(),
            cnt_drop_full: Default::default(),
            cnt_malformed: Default::default(),
            cnt_deq: Default::default(),
            cnt_bad_deq: Default::default(),
            cnt_csr_rejected: Default::default(),
            csr: Default::default(),
            bytes_unit: Default::default(),
            drop_non_ect: DFFWithInit::new(true),
            max_len: DFFWithInit::new(super::DEFAULT_MAX_LEN.into()),
            k_next: DFFWithInit::new(super::DEFAULT_K.into()),
            k_next_p1: DFFWithInit::new((super::DEFAULT_K + 1).into()),
            cap_next: DFFWithInit::new(super::DEFAULT_CAP.into()),
            cap_next_m1: DFFWithInit::new((super::DEFAULT_CAP - 1).into()),
            q_pkts: Default::default(),
            q_bl: Default::default(),
            high: Default::default(),
            d_valid: Default::default(),
            a_bad: Default::default(),
            deltas: Default::default(),
            f_full_p: Default::default(),
            f_above_p: Default::default(),
            f_full_b: Default::default(),
            f_above_b: Default::default(),
            f_ovf: Default::default(),
            f_deq: Default::default(),
            next: std::array::from_fn(|_| Default::default()),
            next_pkts: Default::default(),
            counters: std::array::from_fn(|_| Default::default()),
            cnt_addr: std::array::from_fn(|i| Constant::new((16 + i as u64).into())),
            carry: Default::default(),
            ml_written: Default::default(),
            k_write: Default::default(),
            cap_write: Default::default(),
            full: Default::default(),
            above: Default::default(),
            droppable: Default::default(),
            sel: Default::default(),
            mark: Default::default(),
            enq: Default::default(),
            deq_ok: Default::default(),
            csr_ok: Default::default(),
            applies: Default::default(),
        }
    }
}

impl Logic for SelectiveDropCore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bytes_unit, drop_non_ect, max_len, k_next, k_next_p1, cap_next, cap_next_m1, q_pkts, q_bl, d_valid,
            a_bad, f_full_p, f_above_p, f_full_b, f_above_b, f_ovf, f_deq);
        clock!(self, clock, csr, high, deltas);
        self.occ_pkts.next = self.q_pkts.q.val();
        self.occ_bytes.next = (bit_cast::<32, 16>(self.high.bh.val()) << 16) | bit_cast::<32, 16>(self.q_bl.q.val());

        // --- the decision, in the table's order, on flip-flops
        self.full.next = self.f_full_p.q.val();
        self.above.next = self.f_above_p.q.val();
        if self.bytes_unit.q.val() {
            self.full.next = self.f_full_b.q.val();
            self.above.next = self.f_above_b.q.val();
        }
        self.full.next = self.full.val() | self.f_ovf.q.val();
        self.droppable.next = !self.arr_ecn.val().any() | self.arr_low_prio.val();
        self.sel.next = self.arr_valid.val() & !self.a_bad.q.val() & !self.full.val()
            & self.above.val() & self.droppable.val() & self.drop_non_ect.q.val();
        self.enq.next = self.arr_valid.val() & !self.a_bad.q.val() & !self.full.val()
            & !(self.above.val() & self.droppable.val() & self.drop_non_ect.q.val());
        self.mark.next = self.enq.val() & self.above.val() & self.arr_ecn.val().any();
        self.admit.next = self.enq.val();
        self.ecn_out.next = self.arr_ecn.val();
        if self.mark.val() {
            self.ecn_out.next = 3.into();
        }
        self.drop_sel.next = self.sel.val();
        self.drop_full.next = self.arr_valid.val() & !self.a_bad.q.val() & self.full.val();
        self.drop_bad.next = self.arr_valid.val() & self.a_bad.q.val();
        self.deq_ok.next = self.d_valid.q.val() & self.f_deq.q.val();

        // --- the input stage: the next arrival's length check against the `MAX_LEN` in force
        // next clock (a write held in the stage lands at this edge), and the byte deltas with
        // the low halves of `K` and `CAP` as they will be in force the clock after
        self.ml_written.next = self.csr.q_we.val() & self.csr.q_ok.val() & (self.csr.q_addr.val() == 4);
        self.a_bad.d.next = !self.next_len.val().any() | (self.next_len.val() > self.max_len.q.val());
        if self.ml_written.val() {
            self.a_bad.d.next = !self.next_len.val().any() | (self.next_len.val() > self.csr.q_wdata.val().get_bits::<16>(0));
        }
        self.d_valid.d.next = self.deq_valid.val();
        self.deltas.next_len.next = self.next_len.val();
        self.deltas.deq_len.next = self.deq_len.val();

        // --- every outcome's next state and flags, then the decision selects (the dequeue
        // first: it is ready before the admission)
        self.next_pkts.pkts.next = self.q_pkts.q.val();
        self.next_pkts.k.next = self.k_next.q.val();
        self.next_pkts.k_plus_1.next = self.k_next_p1.q.val();
        self.next_pkts.cap.next = self.cap_next.q.val();
        self.next_pkts.cap_minus_1.next = self.cap_next_m1.q.val();
        self.carry.next = self.next[0].carry.val();
        for o in 0..4 {
            self.next[o].bl.next = self.q_bl.q.val();
            self.next[o].cl_cap.next = self.high.cl_cap.val();
            self.next[o].cl_k.next = self.high.cl_k.val();
            self.next[o].cl_ovf.next = self.high.cl_ovf.val();
            self.next[o].cl_deq.next = self.high.cl_deq.val();
            self.next[o].d.next = self.deltas.d[o].val();
            self.next[o].nd.next = self.deltas.nd[o].val();
            self.next[o].ne_cap.next = self.deltas.ne_cap[o].val();
            self.next[o].ne_k.next = self.deltas.ne_k[o].val();
            self.next[o].next_len.next = self.next_len.val();
            self.next[o].next_deq_len.next = self.deq_len.val();
            if (self.enq.val() == (o >= 2)) & (self.deq_ok.val() == ((o & 1) == 1)) {
                self.q_pkts.d.next = self.next_pkts.next[o].val();
                self.q_bl.d.next = self.next[o].bl_out.val();
                self.carry.next = self.next[o].carry.val();
                self.f_full_p.d.next = self.next_pkts.full[o].val();
                self.f_above_p.d.next = self.next_pkts.above[o].val();
                self.f_full_b.d.next = self.next[o].full.val();
                self.f_above_b.d.next = self.next[o].above.val();
                self.f_ovf.d.next = self.next[o].overflow.val();
                self.f_deq.d.next = self.next[o].deq_fits.val() & self.next_pkts.nonzero[o].val() & self.deq_len.val().any();
            }
        }

        // --- counters
        self.counters[0].inc.next = self.enq.val();
        self.counters[1].inc.next = self.mark.val();
        self.counters[2].inc.next = self.sel.val();
        self.counters[3].inc.next = self.drop_full.val();
        self.counters[4].inc.next = self.drop_bad.val();
        self.counters[5].inc.next = self.deq_ok.val();
        self.counters[6].inc.next = self.d_valid.q.val() & !self.deq_ok.val();

        // --- register writes: checked as presented, applied a clock later (`CsrStage`); `K` and
        // `CAP` also kept as they will be in force (range checks test the high bits: a 32-bit
        // compare with a constant is a carry chain in yosys)
        self.k_write.next = self.csr_we.val() & (self.csr_addr.val() == 1);
        self.cap_write.next = self.csr_we.val() & (self.csr_addr.val() == 2);
        self.high.carry.next = self.carry.val();
        self.high.k_write.next = self.k_write.val();
        self.high.cap_write.next = self.cap_write.val();
        self.high.wdata_hi.next = self.csr_wdata.val().get_bits::<16>(16);
        if self.k_write.val() {
            self.k_next.d.next = self.csr_wdata.val();
            self.k_next_p1.d.next = bit_cast::<33, 32>(self.csr_wdata.val()) + 1;
        }
        if self.cap_write.val() {
            self.cap_next.d.next = self.csr_wdata.val();
            self.cap_next_m1.d.next = 0.into();
            if self.csr_wdata.val().any() {
                self.cap_next_m1.d.next = self.csr_wdata.val() - 1;
            }
        }
        self.deltas.k_low.next = self.k_next.q.val().get_bits::<16>(0);
        self.deltas.cap_low.next = self.cap_next.q.val().get_bits::<16>(0);
        self.deltas.k_write.next = self.k_write.val();
        self.deltas.cap_write.next = self.cap_write.val();
        self.deltas.w_low.next = self.csr_wdata.val().get_bits::<16>(0);
        self.csr_ok.next = false;
        match self.csr_addr.val().index() {
            0 => self.csr_ok.next = !self.csr_wdata.val().get_bits::<31>(1).any(),
            1 => self.csr_ok.next = true,
            2 => self.csr_ok.next = true,
            3 => self.csr_ok.next = true,
            4 => self.csr_ok.next = self.csr_wdata.val().get_bits::<16>(0).any(),
            _ => self.csr_ok.next = (self.csr_addr.val() >= 16) & (self.csr_addr.val() < 24),
        }
        self.csr.we.next = self.csr_we.val();
        self.csr.addr.next = self.csr_addr.val();
        self.csr.wdata.next = self.csr_wdata.val();
        self.csr.ok.next = self.csr_ok.val();
        self.applies.next = self.csr.q_we.val() & self.csr.q_ok.val();
        if self.applies.val() {
            match self.csr.q_addr.val().index() {
                0 => self.bytes_unit.d.next = self.csr.q_wdata.val().get_bit(0),
                3 => self.drop_non_ect.d.next = self.csr.q_wdata.val().get_bit(0),
                4 => self.max_len.d.next = self.csr.q_wdata.val().get_bits::<16>(0),
                _ => {}
            }
        }
        self.counters[7].inc.next = self.csr.q_we.val() & !self.csr.q_ok.val();
        for i in 0..8 {
            self.counters[i].clock.next = self.clock.val();
            self.counters[i].load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == self.cnt_addr[i].val());
            self.counters[i].load_val.next = self.csr.q_wdata.val();
        }
        self.cnt_enq.next = self.counters[0].value.val();
        self.cnt_marked.next = self.counters[1].value.val();
        self.cnt_drop_sel.next = self.counters[2].value.val();
        self.cnt_drop_full.next = self.counters[3].value.val();
        self.cnt_malformed.next = self.counters[4].value.val();
        self.cnt_deq.next = self.counters[5].value.val();
        self.cnt_bad_deq.next = self.counters[6].value.val();
        self.cnt_csr_rejected.next = self.counters[7].value.val();
    }
}

/// The block: an input stage of one clock registers the arrival, and the decision stage
/// decides it in the next clock, its length having reached the stage's flags in the clock it
/// came (README, *Latency*).
#[derive(LogicBlock, Default)]
pub struct SelectiveDrop {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub arr_valid: Signal<In, Bit>,
    pub arr_len: Signal<In, Bits<16>>,
    pub arr_ecn: Signal<In, Bits<2>>,
    pub arr_low_prio: Signal<In, Bit>,
    pub deq_valid: Signal<In, Bit>,
    pub deq_len: Signal<In, Bits<16>>,
    pub admit: Signal<Out, Bit>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop_sel: Signal<Out, Bit>,
    pub drop_full: Signal<Out, Bit>,
    pub drop_bad: Signal<Out, Bit>,
    pub occ_pkts: Signal<Out, Bits<32>>,
    pub occ_bytes: Signal<Out, Bits<32>>,
    pub cnt_enq: Signal<Out, Bits<32>>,
    pub cnt_marked: Signal<Out, Bits<32>>,
    pub cnt_drop_sel: Signal<Out, Bits<32>>,
    pub cnt_drop_full: Signal<Out, Bits<32>>,
    pub cnt_malformed: Signal<Out, Bits<32>>,
    pub cnt_deq: Signal<Out, Bits<32>>,
    pub cnt_bad_deq: Signal<Out, Bits<32>>,
    pub cnt_csr_rejected: Signal<Out, Bits<32>>,
    core: SelectiveDropCore,
    a_valid: DFF<Bit>,
    a_ecn: DFF<Bits<2>>,
    a_low_prio: DFF<Bit>,
}

impl Logic for SelectiveDrop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, a_valid, a_ecn, a_low_prio);
        clock!(self, clock, core);
        self.a_valid.d.next = self.arr_valid.val();
        self.a_ecn.d.next = self.arr_ecn.val();
        self.a_low_prio.d.next = self.arr_low_prio.val();
        self.core.csr_we.next = self.csr_we.val();
        self.core.csr_addr.next = self.csr_addr.val();
        self.core.csr_wdata.next = self.csr_wdata.val();
        self.core.arr_valid.next = self.a_valid.q.val();
        self.core.arr_ecn.next = self.a_ecn.q.val();
        self.core.arr_low_prio.next = self.a_low_prio.q.val();
        self.core.next_len.next = self.arr_len.val();
        self.core.deq_valid.next = self.deq_valid.val();
        self.core.deq_len.next = self.deq_len.val();
        self.admit.next = self.core.admit.val();
        self.ecn_out.next = self.core.ecn_out.val();
        self.drop_sel.next = self.core.drop_sel.val();
        self.drop_full.next = self.core.drop_full.val();
        self.drop_bad.next = self.core.drop_bad.val();
        self.occ_pkts.next = self.core.occ_pkts.val();
        self.occ_bytes.next = self.core.occ_bytes.val();
        self.cnt_enq.next = self.core.cnt_enq.val();
        self.cnt_marked.next = self.core.cnt_marked.val();
        self.cnt_drop_sel.next = self.core.cnt_drop_sel.val();
        self.cnt_drop_full.next = self.core.cnt_drop_full.val();
        self.cnt_malformed.next = self.core.cnt_malformed.val();
        self.cnt_deq.next = self.core.cnt_deq.val();
        self.cnt_bad_deq.next = self.core.cnt_bad_deq.val();
        self.cnt_csr_rejected.next = self.core.cnt_csr_rejected.val();
    }
}

crate::pin_io!(SelectiveDrop;
    in: csr_we, csr_addr, csr_wdata, arr_valid, arr_len, arr_ecn, arr_low_prio, deq_valid, deq_len;
    out: admit, ecn_out, drop_sel, drop_full, drop_bad, occ_pkts, occ_bytes, cnt_enq, cnt_marked,
        cnt_drop_sel, cnt_drop_full, cnt_malformed, cnt_deq, cnt_bad_deq, cnt_csr_rejected);
