//! The port's arrival, over two clocks. The input stage registers the descriptor in the clock
//! it arrives, with its queue (`CLASS_MAP`, one flag per queue) and its length check (0 or
//! above `MAX_LEN`: malformed) judged there, on that clock's registers. In the next clock the
//! admission drops it when malformed or when its queue holds `QCAP`, lets the selective-drop
//! block judge it when its queue is the selective-drop queue, and gives the FIFO what to push:
//! the descriptor {is_data, ecn, len} with the code selective drop gave it. So the class map's
//! selection and the length's carry chain are not in front of the push (the port README,
//! *Latency*). Each queue's `QCAP` test is a flip-flop too, made in the arrival's clock for
//! the count after its edge, against that clock's `QCAP`: the compares read registers only, and
//! the push and the pop select among them.

use crate::seldrop::rtl::SelectiveDropCore;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Admission<const NQ: usize, const QB: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    /// The register space's block (`addr[11:8]`) and register (`addr[7:0]`).
    pub block: Signal<In, Bits<4>>,
    pub sub_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub in_valid: Signal<In, Bit>,
    pub in_class: Signal<In, Bits<3>>,
    pub in_len: Signal<In, Bits<16>>,
    pub in_ecn: Signal<In, Bits<2>>,
    pub in_low_prio: Signal<In, Bit>,
    pub in_is_data: Signal<In, Bit>,
    // the port's registers
    pub class_map: Signal<In, Bits<24>>,
    pub qcap: Signal<In, Bits<CB>>,
    pub max_len: Signal<In, Bits<16>>,
    pub sel_en: Signal<In, Bit>,
    pub sel: Signal<In, Bits<QB>>,
    /// Every queue's occupancy, and its pop this clock.
    pub counts: [Signal<In, Bits<CB>>; NQ],
    pub pops: [Signal<In, Bit>; NQ],
    /// This clock's pop (selective drop counts a departure of its queue).
    pub g: Signal<In, Bit>,
    pub gq: Signal<In, Bits<QB>>,
    /// The selective-drop queue's head length: what leaves when that queue pops (chosen by the
    /// `SEL_Q` register, not by the pop, so the block's dequeue arithmetic is ready before the
    /// pop, which only says whether it happens).
    pub sel_head_len: Signal<In, Bits<16>>,
    /// A descriptor is in the input stage: it is admitted or dropped this clock.
    pub arrived: Signal<Out, Bit>,
    /// Its length.
    pub len: Signal<Out, Bits<16>>,
    /// The descriptor is admitted to queue `q`, as `enq_meta`.
    pub admit: Signal<Out, Bit>,
    /// The same, one flag per queue, each made from that queue's own compares (the FIFO pushes
    /// and DWRR's arrivals take these, not `admit` and `q`, which are a mux later).
    pub push: [Signal<Out, Bit>; NQ],
    pub q: Signal<Out, Bits<QB>>,
    pub enq_meta: Signal<Out, Bits<17>>,
    /// Why it was dropped (`drop` codes in `mod.rs`), 0 when admitted or when nothing arrived.
    pub drop_code: Signal<Out, Bits<2>>,
    seldrop: SelectiveDropCore,
    // the input stage: the arrival as it came, its queue and its length check
    a_valid: DFF<Bit>,
    a_len: DFF<Bits<16>>,
    a_ecn: DFF<Bits<2>>,
    a_low_prio: DFF<Bit>,
    a_is_data: DFF<Bit>,
    a_malformed: DFF<Bit>,
    a_q: DFF<Bits<QB>>,
    /// The arrival's class maps to queue i (the class map's low `QB` bits, as `a_q`).
    a_hit: [DFF<Bit>; NQ],
    qsel: Signal<Local, Bits<3>>,
    /// Queue i holds `QCAP`: made last clock for this clock's count, against last clock's `QCAP`
    /// (the arrival's); the arrival selects one.
    full_q: [DFF<Bit>; NQ],
    /// The count after this clock's edge holds `QCAP`: held, pushed (`count + 1`), popped
    /// (`count − 1`, i.e. `count > QCAP`). Each is a compare on registers.
    at_cap: [Signal<Local, Bit>; NQ],
    at_cap_pushed: [Signal<Local, Bit>; NQ],
    at_cap_popped: [Signal<Local, Bit>; NQ],
    qhit: [Signal<Local, Bit>; NQ],
    qid3: [Constant<Bits<3>>; NQ],
    qmask: Constant<Bits<3>>,
    malformed: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    sel_applies: Signal<Local, Bit>,
    code: Signal<Local, Bits<2>>,
}

impl<const NQ: usize, const QB: usize, const CB: usize> Default for Admission<NQ, QB, CB> {
    fn default() -> Self {
        Admission {
            clock: Default::default(),
            csr_we: Default::default(),
            block: Default::default(),
            sub_addr: Default::default(),
            csr_wdata: Default::default(),
            in_valid: Default::default(),
            in_class: Default::default(),
            in_len: Default::default(),
            in_ecn: Default::default(),
            in_low_prio: Default::default(),
            in_is_data: Default::default(),
            class_map: Default::default(),
            qcap: Default::default(),
            max_len: Default::default(),
            sel_en: Default::default(),
            sel: Default::default(),
            counts: std::array::from_fn(|_| Default::default()),
            pops: std::array::from_fn(|_| Default::default()),
            g: Default::default(),
            gq: Default::default(),
            sel_head_len: Default::default(),
            arrived: Default::default(),
            len: Default::default(),
            admit: Default::default(),
            push: std::array::from_fn(|_| Default::default()),
            q: Default::default(),
            enq_meta: Default::default(),
            drop_code: Default::default(),
            seldrop: Default::default(),
            a_valid: Default::default(),
            a_len: Default::default(),
            a_ecn: Default::default(),
            a_low_prio: Default::default(),
            a_is_data: Default::default(),
            a_malformed: Default::default(),
            a_q: Default::default(),
            a_hit: std::array::from_fn(|_| Default::default()),
            qsel: Default::default(),
            full_q: std::array::from_fn(|_| Default::default()),
            at_cap: std::array::from_fn(|_| Default::default()),
            at_cap_pushed: std::array::from_fn(|_| Default::default()),
            at_cap_popped: std::array::from_fn(|_| Default::default()),
            qhit: std::array::from_fn(|_| Default::default()),
            qid3: std::array::from_fn(|i| Constant::new((i as u64).into())),
            qmask: Constant::new(((1u64 << QB) - 1).into()),
            malformed: Default::default(),
            full: Default::default(),
            sel_applies: Default::default(),
            code: Default::default(),
        }
    }
}

impl<const NQ: usize, const QB: usize, const CB: usize> Logic for Admission<NQ, QB, CB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, a_valid, a_len, a_ecn, a_low_prio, a_is_data, a_malformed, a_q);
        clock!(self, clock, seldrop);
        // --- input stage: classify and check the length on this clock's registers
        self.qsel.next = 0.into();
        for c in 0..8 {
            if self.in_class.val().index() == c {
                self.qsel.next = self.class_map.val().get_bits::<3>(3 * c);
            }
        }
        for i in 0..NQ {
            self.qhit[i].next = false;
            for c in 0..8 {
                if (self.in_class.val().index() == c) & ((self.class_map.val().get_bits::<3>(3 * c) & self.qmask.val()) == self.qid3[i].val()) {
                    self.qhit[i].next = true;
                }
            }
            self.a_hit[i].clock.next = self.clock.val();
            self.a_hit[i].d.next = self.qhit[i].val();
        }
        self.a_valid.d.next = self.in_valid.val();
        self.a_len.d.next = self.in_len.val();
        self.a_ecn.d.next = self.in_ecn.val();
        self.a_low_prio.d.next = self.in_low_prio.val();
        self.a_is_data.d.next = self.in_is_data.val();
        self.a_malformed.d.next = !self.in_len.val().any() | (self.in_len.val() > self.max_len.val());
        self.a_q.d.next = bit_cast::<QB, 3>(self.qsel.val());

        // --- admission of last clock's arrival
        self.arrived.next = self.a_valid.q.val();
        self.len.next = self.a_len.q.val();
        self.q.next = self.a_q.q.val();
        self.full.next = false;
        for i in 0..NQ {
            if self.a_hit[i].q.val() & self.full_q[i].q.val() {
                self.full.next = true;
            }
        }
        self.malformed.next = self.a_malformed.q.val();
        self.sel_applies.next = self.sel_en.val() & (self.sel.val() == self.a_q.q.val());
        self.seldrop.csr_we.next = self.csr_we.val() & (self.block.val() == 3);
        self.seldrop.csr_addr.next = self.sub_addr.val();
        self.seldrop.csr_wdata.next = self.csr_wdata.val();
        self.seldrop.arr_valid.next = self.a_valid.q.val() & !self.malformed.val() & !self.full.val() & self.sel_applies.val();
        self.seldrop.arr_ecn.next = self.a_ecn.q.val();
        self.seldrop.arr_low_prio.next = self.a_low_prio.q.val();
        self.seldrop.deq_valid.next = self.sel_en.val() & self.g.val() & (self.gq.val() == self.sel.val());
        self.seldrop.deq_len.next = self.sel_head_len.val();
        // the input stage above is the block's: its flags are made for the length arriving now
        self.seldrop.next_len.next = self.in_len.val();
        self.code.next = 0.into();
        if self.malformed.val() {
            self.code.next = 1.into();
        } else if self.full.val() {
            self.code.next = 2.into();
        } else if self.sel_applies.val() & !self.seldrop.admit.val() {
            if self.seldrop.drop_sel.val() {
                self.code.next = 3.into();
            } else if self.seldrop.drop_full.val() {
                self.code.next = 2.into();
            } else {
                self.code.next = 1.into();
            }
        }
        self.admit.next = self.a_valid.q.val() & (self.code.val() == 0);
        for i in 0..NQ {
            self.push[i].next = self.a_valid.q.val() & self.a_hit[i].q.val() & !self.malformed.val() & !self.full_q[i].q.val()
                & !(self.sel_en.val() & (self.sel.val().index() == i) & !self.seldrop.admit.val());
        }
        // --- each queue's QCAP test for the next clock: this clock's QCAP, the count after the
        // edge (the count moves by this clock's push and pop)
        for i in 0..NQ {
            self.at_cap[i].next = self.counts[i].val() >= self.qcap.val();
            self.at_cap_pushed[i].next = (self.counts[i].val() + 1) >= self.qcap.val();
            self.at_cap_popped[i].next = self.counts[i].val() > self.qcap.val();
            self.full_q[i].clock.next = self.clock.val();
            self.full_q[i].d.next = self.at_cap[i].val();
            if self.push[i].val() & !self.pops[i].val() {
                self.full_q[i].d.next = self.at_cap_pushed[i].val();
            }
            if !self.push[i].val() & self.pops[i].val() {
                self.full_q[i].d.next = self.at_cap_popped[i].val();
            }
        }
        self.drop_code.next = 0.into();
        if self.a_valid.q.val() {
            self.drop_code.next = self.code.val();
        }
        self.enq_meta.next = bit_cast::<17, 14>(self.a_len.q.val().get_bits::<14>(0))
            | (bit_cast::<17, 2>(self.a_ecn.q.val()) << 14);
        if self.sel_applies.val() {
            self.enq_meta.next = bit_cast::<17, 14>(self.a_len.q.val().get_bits::<14>(0))
                | (bit_cast::<17, 2>(self.seldrop.ecn_out.val()) << 14);
        }
        if self.a_is_data.q.val() {
            self.enq_meta.next = self.enq_meta.val() | 0x1_0000;
        }
    }
}
