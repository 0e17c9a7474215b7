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
    // occupancy
    q_pkts: DFF<Bits<32>>,
    q_bytes: DFF<Bits<32>>,
    c_enq: LateCounter,
    c_marked: LateCounter,
    c_sel: LateCounter,
    c_full: LateCounter,
    c_bad: LateCounter,
    c_deq: LateCounter,
    c_bad_deq: LateCounter,
    c_rejected: LateCounter,
    // wires
    len32: Signal<Local, Bits<32>>,
    sum_b: Signal<Local, Bits<33>>,
    /// CAP − occupancy − length in bytes, 34-bit two's complement: negative when it does not fit.
    room_b: Signal<Local, Bits<34>>,
    full_b: Signal<Local, Bit>,
    room_negative: Constant<Bits<34>>,
    bad: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    above: Signal<Local, Bit>,
    droppable: Signal<Local, Bit>,
    sel: Signal<Local, Bit>,
    mark: Signal<Local, Bit>,
    enq: Signal<Local, Bit>,
    deq_ok: Signal<Local, Bit>,
    bytes_if_enq: Signal<Local, Bits<32>>,
    bytes_if_not: Signal<Local, Bits<32>>,
    pkts_if_enq: Signal<Local, Bits<32>>,
    pkts_if_not: Signal<Local, Bits<32>>,
    csr_ok: Signal<Local, Bit>,
}

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
            q_pkts: Default::default(),
            q_bytes: Default::default(),
            c_enq: Default::default(),
            c_marked: Default::default(),
            c_sel: Default::default(),
            c_full: Default::default(),
            c_bad: Default::default(),
            c_deq: Default::default(),
            c_bad_deq: Default::default(),
            c_rejected: Default::default(),
            len32: Default::default(),
            sum_b: Default::default(),
            room_b: Default::default(),
            full_b: Default::default(),
            room_negative: Constant::new((1u64 << 33).into()),
            bad: Default::default(),
            full: Default::default(),
            above: Default::default(),
            droppable: Default::default(),
            sel: Default::default(),
            mark: Default::default(),
            enq: Default::default(),
            deq_ok: Default::default(),
            bytes_if_enq: Default::default(),
            bytes_if_not: Default::default(),
            pkts_if_enq: Default::default(),
            pkts_if_not: Default::default(),
            csr_ok: Default::default(),
        }
    }
}

impl Logic for SelectiveDrop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bytes_unit, k, cap, drop_non_ect, max_len, q_pkts, q_bytes);
        clock!(self, clock, c_enq, c_marked, c_sel, c_full, c_bad, c_deq, c_bad_deq, c_rejected);
        self.occ_pkts.next = self.q_pkts.q.val();
        self.occ_bytes.next = self.q_bytes.q.val();

        // --- admission decision, in the table's order. Every compare is one carry chain on the
        // registers and this clock's inputs, side by side; the occupancy updates are computed for
        // every outcome beside them and the decision only selects (the critical path is one chain,
        // the mode select, and the final select).
        self.len32.next = bit_cast::<32, 16>(self.arr_len.val());
        self.bad.next = !self.arr_len.val().any() | (self.arr_len.val() > self.max_len.q.val());
        // full: occ + size > CAP, or the byte count would pass 2^32 - 1 (`sum_b`'s carry)
        self.sum_b.next = bit_cast::<33, 32>(self.q_bytes.q.val()) + bit_cast::<33, 32>(self.len32.val());
        self.room_b.next = bit_cast::<34, 32>(self.cap.q.val()) - bit_cast::<34, 32>(self.q_bytes.q.val())
            - bit_cast::<34, 32>(self.len32.val());
        // negative: bit 33 (written as a compare with 2^33 so the whole word is used; yosys
        // reduces it to the bit)
        self.full_b.next = self.room_b.val() >= self.room_negative.val();
        self.full.next = self.q_pkts.q.val() >= self.cap.q.val();
        if self.bytes_unit.q.val() {
            self.full.next = self.full_b.val();
        }
        self.full.next = self.full.val() | self.sum_b.val().get_bit(32);
        self.above.next = self.q_pkts.q.val() > self.k.q.val();
        if self.bytes_unit.q.val() {
            self.above.next = self.q_bytes.q.val() > self.k.q.val();
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

        // --- occupancy: admissions in, dequeues out (a bad dequeue is ignored). The next value
        // for each (admitted, dequeued) pair is ready before the decision; `enq` picks.
        self.deq_ok.next = self.deq_valid.val()
            & self.q_pkts.q.val().any()
            & self.deq_len.val().any()
            & (bit_cast::<32, 16>(self.deq_len.val()) <= self.q_bytes.q.val());
        self.bytes_if_enq.next = self.sum_b.val().get_bits::<32>(0);
        self.bytes_if_not.next = self.q_bytes.q.val();
        self.pkts_if_enq.next = self.q_pkts.q.val() + 1;
        self.pkts_if_not.next = self.q_pkts.q.val();
        if self.deq_ok.val() {
            self.bytes_if_enq.next = self.q_bytes.q.val() + self.len32.val() - bit_cast::<32, 16>(self.deq_len.val());
            self.bytes_if_not.next = self.q_bytes.q.val() - bit_cast::<32, 16>(self.deq_len.val());
            self.pkts_if_enq.next = self.q_pkts.q.val();
            self.pkts_if_not.next = self.q_pkts.q.val() - 1;
        }
        self.q_bytes.d.next = self.bytes_if_not.val();
        self.q_pkts.d.next = self.pkts_if_not.val();
        if self.enq.val() {
            self.q_bytes.d.next = self.bytes_if_enq.val();
            self.q_pkts.d.next = self.pkts_if_enq.val();
        }

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
