//! RTL of the selective-drop admission block; the golden model is `model.rs`, the table and
//! the choices are in `mod.rs`. Register addresses are the literals of [`super::csr`].

use crate::rtl_util::LateCounter;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `seldrop/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::UNIT == 0 && csr::K == 1 && csr::CAP == 2 && csr::FLAGS == 3 && csr::MAX_LEN == 4
    && csr::CNT_BASE == 16 && csr::REGISTERS[csr::idx::CNT_BASE].count == 8
);

#[derive(LogicBlock)]
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
    // configuration (reset values: mod.rs)
    bytes_unit: DFF<Bit>,
    k: DFFWithInit<Bits<32>>,
    cap: DFFWithInit<Bits<32>>,
    drop_non_ect: DFFWithInit<Bit>,
    max_len: DFFWithInit<Bits<16>>,
    // The state, kept twice: `_n` as it is if the last clock's arrival was not admitted, `_a`
    // if it was; `admitted` picks. The decision's loop through the state is then one register
    // (README, Latency); the flags and the room are computed a clock ahead, for the `K`/`CAP`
    // of that clock.
    admitted: DFF<Bit>,
    /// `!admitted`, a second register (inverted so that yosys keeps it) for the decision's own
    /// choice: `admitted` fans out to every state bit.
    not_picked: DFFWithInit<Bit>,
    pkts_n: DFF<Bit32>,
    pkts_a: DFF<Bit32>,
    bytes_n: DFF<Bit32>,
    bytes_a: DFF<Bit32>,
    /// `CAP − q_bytes`, 34-bit two's complement: the bytes an arrival may bring.
    room_n: DFFWithInit<Bit34>,
    room_a: DFF<Bit34>,
    /// `q_pkts ≥ CAP`.
    full_p_n: DFF<Bit>,
    full_p_a: DFF<Bit>,
    /// `q_pkts > K`.
    above_p_n: DFF<Bit>,
    above_p_a: DFF<Bit>,
    /// `q_bytes > K`.
    above_b_n: DFF<Bit>,
    above_b_a: DFF<Bit>,
    c_enq: LateCounter,
    c_marked: LateCounter,
    c_sel: LateCounter,
    c_full: LateCounter,
    c_bad: LateCounter,
    c_deq: LateCounter,
    c_bad_deq: LateCounter,
    c_rejected: LateCounter,
    // wires: the state at the start of the clock
    q_pkts: Signal<Local, Bit32>,
    q_bytes: Signal<Local, Bit32>,
    // wires: the decision
    len32: Signal<Local, Bit32>,
    bad: Signal<Local, Bit>,
    full_b_n: Signal<Local, Bit>,
    full_b_a: Signal<Local, Bit>,
    overflow_n: Signal<Local, Bit>,
    overflow_a: Signal<Local, Bit>,
    full_n: Signal<Local, Bit>,
    full_a: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    above: Signal<Local, Bit>,
    droppable: Signal<Local, Bit>,
    sel: Signal<Local, Bit>,
    mark: Signal<Local, Bit>,
    enq: Signal<Local, Bit>,
    deq_ok: Signal<Local, Bit>,
    // wires: the next state for each outcome. `*_if_enq` when the arrival is admitted,
    // `*_if_not` when it is not, each already with this clock's dequeue
    cap34: Signal<Local, Bit34>,
    k34: Signal<Local, Bit34>,
    qp34: Signal<Local, Bit34>,
    qb34: Signal<Local, Bit34>,
    len34: Signal<Local, Bit34>,
    deq34: Signal<Local, Bit34>,
    pkts_if_enq: Signal<Local, Bit32>,
    pkts_if_not: Signal<Local, Bit32>,
    bytes_if_enq: Signal<Local, Bit32>,
    bytes_if_not: Signal<Local, Bit32>,
    room_if_enq: Signal<Local, Bit34>,
    room_if_not: Signal<Local, Bit34>,
    /// `CAP − 1 − q_pkts'` and `K − q_pkts'` for the next packet count: negative when full,
    /// when above.
    fullp_if_enq: Signal<Local, Bit34>,
    fullp_if_not: Signal<Local, Bit34>,
    abovep_if_enq: Signal<Local, Bit34>,
    abovep_if_not: Signal<Local, Bit34>,
    /// `K − q_bytes'`: negative when above.
    aboveb_if_enq: Signal<Local, Bit34>,
    aboveb_if_not: Signal<Local, Bit34>,
    /// 2^33: a 34-bit value at or above it is negative (compared whole so every bit is read;
    /// yosys reduces it to the sign bit).
    negative: Constant<Bit34>,
    csr_ok: Signal<Local, Bit>,
}

type Bit32 = Bits<32>;
type Bit34 = Bits<34>;

impl Default for SelectiveDrop {
    fn default() -> Self {
        SelectiveDrop {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            arr_valid: Default::default(),
            arr_len: Default::default(),
            arr_ecn: Default::default(),
            arr_low_prio: Default::default(),
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
            bytes_unit: Default::default(),
            k: DFFWithInit::new(super::DEFAULT_K.into()),
            cap: DFFWithInit::new(super::DEFAULT_CAP.into()),
            drop_non_ect: DFFWithInit::new(true),
            max_len: DFFWithInit::new(super::DEFAULT_MAX_LEN.into()),
            admitted: Default::default(),
            not_picked: DFFWithInit::new(true),
            pkts_n: Default::default(),
            pkts_a: Default::default(),
            bytes_n: Default::default(),
            bytes_a: Default::default(),
            room_n: DFFWithInit::new(super::DEFAULT_CAP.into()),
            room_a: Default::default(),
            full_p_n: Default::default(),
            full_p_a: Default::default(),
            above_p_n: Default::default(),
            above_p_a: Default::default(),
            above_b_n: Default::default(),
            above_b_a: Default::default(),
            c_enq: Default::default(),
            c_marked: Default::default(),
            c_sel: Default::default(),
            c_full: Default::default(),
            c_bad: Default::default(),
            c_deq: Default::default(),
            c_bad_deq: Default::default(),
            c_rejected: Default::default(),
            q_pkts: Default::default(),
            q_bytes: Default::default(),
            len32: Default::default(),
            bad: Default::default(),
            full_b_n: Default::default(),
            full_b_a: Default::default(),
            overflow_n: Default::default(),
            overflow_a: Default::default(),
            full_n: Default::default(),
            full_a: Default::default(),
            full: Default::default(),
            above: Default::default(),
            droppable: Default::default(),
            sel: Default::default(),
            mark: Default::default(),
            enq: Default::default(),
            deq_ok: Default::default(),
            cap34: Default::default(),
            k34: Default::default(),
            qp34: Default::default(),
            qb34: Default::default(),
            len34: Default::default(),
            deq34: Default::default(),
            pkts_if_enq: Default::default(),
            pkts_if_not: Default::default(),
            bytes_if_enq: Default::default(),
            bytes_if_not: Default::default(),
            room_if_enq: Default::default(),
            room_if_not: Default::default(),
            fullp_if_enq: Default::default(),
            fullp_if_not: Default::default(),
            abovep_if_enq: Default::default(),
            abovep_if_not: Default::default(),
            aboveb_if_enq: Default::default(),
            aboveb_if_not: Default::default(),
            negative: Constant::new((1u64 << 33).into()),
            csr_ok: Default::default(),
        }
    }
}

impl Logic for SelectiveDrop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bytes_unit, k, cap, drop_non_ect, max_len, admitted, not_picked, pkts_n, pkts_a, bytes_n,
            bytes_a, room_n, room_a, full_p_n, full_p_a, above_p_n, above_p_a, above_b_n, above_b_a);
        clock!(self, clock, c_enq, c_marked, c_sel, c_full, c_bad, c_deq, c_bad_deq, c_rejected);
        self.q_pkts.next = self.pkts_n.q.val();
        self.q_bytes.next = self.bytes_n.q.val();
        if self.admitted.q.val() {
            self.q_pkts.next = self.pkts_a.q.val();
            self.q_bytes.next = self.bytes_a.q.val();
        }
        self.occ_pkts.next = self.q_pkts.val();
        self.occ_bytes.next = self.q_bytes.val();

        // --- admission decision, in the table's order, on flags that are registers and two
        // 16-bit compares with this clock's length (its loop through the occupancy is one short
        // chain, a few LUTs and the select below)
        self.len32.next = bit_cast::<32, 16>(self.arr_len.val());
        self.bad.next = !self.arr_len.val().any() | (self.arr_len.val() > self.max_len.q.val());
        // Each test on both copies of the state, side by side; `pick` (`admitted` again, for the
        // few LUTs here) chooses after the compares.
        // bytes: no room when CAP − q_bytes < len. Below 2^16 of room only its low half can
        // be short of a 16-bit length.
        self.full_b_n.next = self.room_n.q.val().get_bit(33)
            | (!self.room_n.q.val().get_bits::<18>(16).any()
                & (self.arr_len.val() > self.room_n.q.val().get_bits::<16>(0)));
        self.full_b_a.next = self.room_a.q.val().get_bit(33)
            | (!self.room_a.q.val().get_bits::<18>(16).any()
                & (self.arr_len.val() > self.room_a.q.val().get_bits::<16>(0)));
        // the byte count would pass 2^32 − 1 (in bytes the CAP test already covers it): only when
        // its high half is all ones
        self.overflow_n.next = self.bytes_n.q.val().get_bits::<16>(16).all()
            & (self.arr_len.val() > !self.bytes_n.q.val().get_bits::<16>(0));
        self.overflow_a.next = self.bytes_a.q.val().get_bits::<16>(16).all()
            & (self.arr_len.val() > !self.bytes_a.q.val().get_bits::<16>(0));
        self.full_n.next = self.full_p_n.q.val() | self.overflow_n.val();
        self.full_a.next = self.full_p_a.q.val() | self.overflow_a.val();
        self.above.next = self.above_p_n.q.val();
        if self.bytes_unit.q.val() {
            self.full_n.next = self.full_b_n.val();
            self.full_a.next = self.full_b_a.val();
            self.above.next = self.above_b_n.q.val();
        }
        self.full.next = self.full_n.val();
        if !self.not_picked.q.val() {
            self.full.next = self.full_a.val();
            self.above.next = self.above_p_a.q.val();
            if self.bytes_unit.q.val() {
                self.above.next = self.above_b_a.q.val();
            }
        }
        self.droppable.next = !self.arr_ecn.val().any() | self.arr_low_prio.val();
        self.sel.next = self.arr_valid.val() & !self.bad.val() & !self.full.val()
            & self.above.val() & self.droppable.val() & self.drop_non_ect.q.val();
        self.enq.next = self.arr_valid.val() & !self.bad.val() & !self.full.val()
            & !(self.above.val() & self.droppable.val() & self.drop_non_ect.q.val());
        self.mark.next = self.enq.val() & self.above.val() & self.arr_ecn.val().any();
        self.admit.next = self.enq.val();
        self.ecn_out.next = self.arr_ecn.val();
        if self.mark.val() {
            self.ecn_out.next = 3.into();
        }
        self.drop_sel.next = self.sel.val();
        self.drop_full.next = self.arr_valid.val() & !self.bad.val() & self.full.val();
        self.drop_bad.next = self.arr_valid.val() & self.bad.val();

        // --- the next state: admissions in, dequeues out (a bad dequeue is ignored). Every value
        // is computed for each (admitted, dequeued) pair on registers and this clock's inputs
        // beside the decision, with this clock's K and CAP; `enq` only selects.
        self.deq_ok.next = self.deq_valid.val()
            & self.q_pkts.val().any()
            & self.deq_len.val().any()
            & (bit_cast::<32, 16>(self.deq_len.val()) <= self.q_bytes.val());
        self.cap34.next = bit_cast::<34, 32>(self.cap.q.val());
        self.k34.next = bit_cast::<34, 32>(self.k.q.val());
        self.qp34.next = bit_cast::<34, 32>(self.q_pkts.val());
        self.qb34.next = bit_cast::<34, 32>(self.q_bytes.val());
        self.len34.next = bit_cast::<34, 16>(self.arr_len.val());
        self.deq34.next = bit_cast::<34, 16>(self.deq_len.val());
        self.pkts_if_enq.next = self.q_pkts.val() + 1;
        self.pkts_if_not.next = self.q_pkts.val();
        self.bytes_if_enq.next = self.q_bytes.val() + self.len32.val();
        self.bytes_if_not.next = self.q_bytes.val();
        self.room_if_enq.next = self.cap34.val() - self.qb34.val() - self.len34.val();
        self.room_if_not.next = self.cap34.val() - self.qb34.val();
        self.fullp_if_enq.next = self.cap34.val() - self.qp34.val() - 2;
        self.fullp_if_not.next = self.cap34.val() - self.qp34.val() - 1;
        self.abovep_if_enq.next = self.k34.val() - self.qp34.val() - 1;
        self.abovep_if_not.next = self.k34.val() - self.qp34.val();
        self.aboveb_if_enq.next = self.k34.val() - self.qb34.val() - self.len34.val();
        self.aboveb_if_not.next = self.k34.val() - self.qb34.val();
        if self.deq_ok.val() {
            self.pkts_if_enq.next = self.q_pkts.val();
            self.pkts_if_not.next = self.q_pkts.val() - 1;
            self.bytes_if_enq.next = self.q_bytes.val() + self.len32.val() - bit_cast::<32, 16>(self.deq_len.val());
            self.bytes_if_not.next = self.q_bytes.val() - bit_cast::<32, 16>(self.deq_len.val());
            self.room_if_enq.next = self.cap34.val() - self.qb34.val() - self.len34.val() + self.deq34.val();
            self.room_if_not.next = self.cap34.val() - self.qb34.val() + self.deq34.val();
            self.fullp_if_enq.next = self.cap34.val() - self.qp34.val() - 1;
            self.fullp_if_not.next = self.cap34.val() - self.qp34.val();
            self.abovep_if_enq.next = self.k34.val() - self.qp34.val();
            self.abovep_if_not.next = self.k34.val() - self.qp34.val() + 1;
            self.aboveb_if_enq.next = self.k34.val() - self.qb34.val() - self.len34.val() + self.deq34.val();
            self.aboveb_if_not.next = self.k34.val() - self.qb34.val() + self.deq34.val();
        }
        self.admitted.d.next = self.enq.val();
        self.not_picked.d.next = !self.enq.val();
        self.pkts_n.d.next = self.pkts_if_not.val();
        self.pkts_a.d.next = self.pkts_if_enq.val();
        self.bytes_n.d.next = self.bytes_if_not.val();
        self.bytes_a.d.next = self.bytes_if_enq.val();
        self.room_n.d.next = self.room_if_not.val();
        self.room_a.d.next = self.room_if_enq.val();
        self.full_p_n.d.next = self.fullp_if_not.val() >= self.negative.val();
        self.full_p_a.d.next = self.fullp_if_enq.val() >= self.negative.val();
        self.above_p_n.d.next = self.abovep_if_not.val() >= self.negative.val();
        self.above_p_a.d.next = self.abovep_if_enq.val() >= self.negative.val();
        self.above_b_n.d.next = self.aboveb_if_not.val() >= self.negative.val();
        self.above_b_a.d.next = self.aboveb_if_enq.val() >= self.negative.val();

        // --- counters
        self.c_enq.inc.next = self.enq.val();
        self.c_marked.inc.next = self.mark.val();
        self.c_sel.inc.next = self.sel.val();
        self.c_full.inc.next = self.drop_full.val();
        self.c_bad.inc.next = self.drop_bad.val();
        self.c_deq.inc.next = self.deq_ok.val();
        self.c_bad_deq.inc.next = self.deq_valid.val() & !self.deq_ok.val();

        // --- register writes (csr module)
        // range checks test the high bits (a 32-bit compare with a constant is a carry chain in yosys)
        self.csr_ok.next = false;
        match self.csr_addr.val().index() {
            0 => self.csr_ok.next = !self.csr_wdata.val().get_bits::<31>(1).any(),
            1 => self.csr_ok.next = true,
            2 => self.csr_ok.next = true,
            3 => self.csr_ok.next = true,
            4 => self.csr_ok.next = self.csr_wdata.val().get_bits::<16>(0).any(),
            _ => self.csr_ok.next = (self.csr_addr.val() >= 16) & (self.csr_addr.val() < 24),
        }
        if self.csr_we.val() & self.csr_ok.val() {
            match self.csr_addr.val().index() {
                0 => self.bytes_unit.d.next = self.csr_wdata.val().get_bit(0),
                1 => self.k.d.next = self.csr_wdata.val(),
                2 => self.cap.d.next = self.csr_wdata.val(),
                3 => self.drop_non_ect.d.next = self.csr_wdata.val().get_bit(0),
                4 => self.max_len.d.next = self.csr_wdata.val().get_bits::<16>(0),
                _ => {}
            }
        }
        self.c_rejected.inc.next = self.csr_we.val() & !self.csr_ok.val();
        self.c_enq.load.next = self.csr_we.val() & (self.csr_addr.val() == 16);
        self.c_marked.load.next = self.csr_we.val() & (self.csr_addr.val() == 17);
        self.c_sel.load.next = self.csr_we.val() & (self.csr_addr.val() == 18);
        self.c_full.load.next = self.csr_we.val() & (self.csr_addr.val() == 19);
        self.c_bad.load.next = self.csr_we.val() & (self.csr_addr.val() == 20);
        self.c_deq.load.next = self.csr_we.val() & (self.csr_addr.val() == 21);
        self.c_bad_deq.load.next = self.csr_we.val() & (self.csr_addr.val() == 22);
        self.c_rejected.load.next = self.csr_we.val() & (self.csr_addr.val() == 23);
        self.c_enq.load_val.next = self.csr_wdata.val();
        self.c_marked.load_val.next = self.csr_wdata.val();
        self.c_sel.load_val.next = self.csr_wdata.val();
        self.c_full.load_val.next = self.csr_wdata.val();
        self.c_bad.load_val.next = self.csr_wdata.val();
        self.c_deq.load_val.next = self.csr_wdata.val();
        self.c_bad_deq.load_val.next = self.csr_wdata.val();
        self.c_rejected.load_val.next = self.csr_wdata.val();
        self.cnt_enq.next = self.c_enq.value.val();
        self.cnt_marked.next = self.c_marked.value.val();
        self.cnt_drop_sel.next = self.c_sel.value.val();
        self.cnt_drop_full.next = self.c_full.value.val();
        self.cnt_malformed.next = self.c_bad.value.val();
        self.cnt_deq.next = self.c_deq.value.val();
        self.cnt_bad_deq.next = self.c_bad_deq.value.val();
        self.cnt_csr_rejected.next = self.c_rejected.value.val();
    }
}

crate::pin_io!(SelectiveDrop;
    in: csr_we, csr_addr, csr_wdata, arr_valid, arr_len, arr_ecn, arr_low_prio, deq_valid, deq_len;
    out: admit, ecn_out, drop_sel, drop_full, drop_bad, occ_pkts, occ_bytes, cnt_enq, cnt_marked,
        cnt_drop_sel, cnt_drop_full, cnt_malformed, cnt_deq, cnt_bad_deq, cnt_csr_rejected);
