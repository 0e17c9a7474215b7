//! The port's scheduling stage, over two clocks. DWRR / strict priority picks a queue into a
//! register (`pend`); in the next clock, while the link is ready, that queue pops and its head
//! (the descriptor and its enqueue stamp) leaves for the departure stage, and while it is not,
//! the pick waits. DWRR picks from every queue as it stands after this clock's pop: the popping
//! queue by its second entry (not at all when it pops its last), the emulation queue only while
//! the shaper finds its head eligible and not while it pops (the shaper charges a pick at its
//! pop) or a shaper write lands. So the pops, the link pacer, the resident counts and the
//! departure start at flip-flops, and no path runs from DWRR's choice into them.

use super::emu_ahead::EmuShaper;
use crate::dwrr::rtl::Dwrr;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Scheduler<const NQ: usize, const QB: usize> {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    /// The register space's block (`addr[11:8]`) and register (`addr[7:0]`).
    pub block: Signal<In, Bits<4>>,
    pub sub_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    /// Every queue holds a descriptor (a register of its FIFO), and its head: the length (a
    /// register of its FIFO), the descriptor and its enqueue stamp.
    pub nonempty: [Signal<In, Bit>; NQ],
    pub heads_len: [Signal<In, Bits<16>>; NQ],
    pub heads_meta: [Signal<In, Bits<3>>; NQ],
    /// Every queue holds one entry, and its second entry's length; the length this clock's
    /// arrival is pushed with (the emulation queue's eligibility is judged a clock ahead).
    pub lasts: [Signal<In, Bit>; NQ],
    pub seconds_len: [Signal<In, Bits<16>>; NQ],
    pub enq_len: Signal<In, Bits<16>>,
    pub heads_b: [Signal<In, Bits<32>>; NQ],
    /// The emulation queue (shaped) is enabled, and which it is.
    pub emu_en: Signal<In, Bit>,
    pub emu: Signal<In, Bits<QB>>,
    /// The link can take a descriptor this clock.
    pub ready: Signal<In, Bit>,
    /// This clock's arrival is admitted to queue i (DWRR's pick, made a clock ahead, counts
    /// the queue it fills).
    pub arr_push: [Signal<In, Bit>; NQ],
    pub g: Signal<Out, Bit>,
    pub gq: Signal<Out, Bits<QB>>,
    pub g_meta: Signal<Out, Bits<17>>,
    pub g_ts: Signal<Out, Bits<32>>,
    pub pop: [Signal<Out, Bit>; NQ],
    /// The popping queue, 0 when none pops (the port's `grant_q`).
    pub pop_q: Signal<Out, Bits<QB>>,
    dwrr: Dwrr<NQ, QB>,
    /// Last clock's pick: one flag per queue, any, and its queue.
    pend: [DFF<Bit>; NQ],
    pend_v: DFF<Bit>,
    pend_q: DFF<Bits<QB>>,
    /// DWRR may pick this clock: no pick waits for the link, and `EMU_Q` is not written.
    pick_en: Signal<Local, Bit>,
    emu_q_write: Signal<Local, Bit>,
    /// The emulation queue's shaper, its eligibility judged a clock ahead.
    shaper: EmuShaper,
    onehot: [Constant<Bits<NQ>>; NQ],
    servable: [Signal<Local, Bit>; NQ],
    /// Servable heads, accumulated bit by bit: `hv[i]` holds queues 0..=i.
    hv: [Signal<Local, Bits<NQ>>; NQ],
    emu_len: Signal<Local, Bits<16>>,
    /// The granted head's length and the rest of its descriptor (`g_meta` joins them).
    g_len: Signal<Local, Bits<16>>,
    g_rest: Signal<Local, Bits<3>>,
    emu_backlog: Signal<Local, Bit>,
    /// The queue this clock's admission fills, one-hot.
    arrive: Signal<Local, Bits<NQ>>,
}

impl<const NQ: usize, const QB: usize> Default for Scheduler<NQ, QB> {
    fn default() -> Self {
        Scheduler {
            clock: Default::default(),
            csr_we: Default::default(),
            block: Default::default(),
            sub_addr: Default::default(),
            csr_wdata: Default::default(),
            nonempty: std::array::from_fn(|_| Default::default()),
            heads_len: std::array::from_fn(|_| Default::default()),
            heads_meta: std::array::from_fn(|_| Default::default()),
            lasts: std::array::from_fn(|_| Default::default()),
            seconds_len: std::array::from_fn(|_| Default::default()),
            enq_len: Default::default(),
            heads_b: std::array::from_fn(|_| Default::default()),
            emu_en: Default::default(),
            emu: Default::default(),
            ready: Default::default(),
            arr_push: std::array::from_fn(|_| Default::default()),
            g: Default::default(),
            gq: Default::default(),
            g_meta: Default::default(),
            g_ts: Default::default(),
            pop: std::array::from_fn(|_| Default::default()),
            pop_q: Default::default(),
            dwrr: Default::default(),
            pend: std::array::from_fn(|_| Default::default()),
            pend_v: Default::default(),
            pend_q: Default::default(),
            pick_en: Default::default(),
            emu_q_write: Default::default(),
            shaper: Default::default(),
            onehot: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
            servable: std::array::from_fn(|_| Default::default()),
            hv: std::array::from_fn(|_| Default::default()),
            emu_len: Default::default(),
            g_len: Default::default(),
            g_rest: Default::default(),
            emu_backlog: Default::default(),
            arrive: Default::default(),
        }
    }
}

impl<const NQ: usize, const QB: usize> Logic for Scheduler<NQ, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, dwrr, shaper);
        dff_setup!(self, clock, pend_v, pend_q);
        // last clock's pick pops while the link is ready
        self.g.next = self.pend_v.q.val() & self.ready.val();
        self.gq.next = self.pend_q.q.val();
        self.pop_q.next = 0.into();
        if self.g.val() {
            self.pop_q.next = self.pend_q.q.val();
        }
        for i in 0..NQ {
            self.pend[i].clock.next = self.clock.val();
            self.pop[i].next = self.pend[i].q.val() & self.ready.val();
        }
        // the shaper sees the emulation queue's head, and what its next one can be
        self.emu_len.next = 0.into();
        self.emu_backlog.next = false;
        self.shaper.last.next = false;
        self.shaper.second_len.next = 0.into();
        self.shaper.push.next = false;
        for i in 0..NQ {
            if self.emu.val().index() == i {
                self.emu_len.next = self.heads_len[i].val();
                self.emu_backlog.next = self.nonempty[i].val();
                self.shaper.last.next = self.lasts[i].val();
                self.shaper.second_len.next = self.seconds_len[i].val();
                self.shaper.push.next = self.arr_push[i].val();
            }
        }
        self.shaper.csr_we.next = self.csr_we.val() & (self.block.val() == 4);
        self.shaper.csr_addr.next = self.sub_addr.val();
        self.shaper.csr_wdata.next = self.csr_wdata.val();
        self.shaper.en.next = self.emu_en.val();
        self.shaper.head_len.next = self.emu_len.val();
        self.shaper.nonempty.next = self.emu_backlog.val();
        self.shaper.in_len.next = self.enq_len.val();
        // `EMU_Q` (port register 5) is applied at its own clock's edge
        self.emu_q_write.next = self.csr_we.val() & (self.block.val() == 0) & (self.sub_addr.val() == 5);
        self.shaper.queue_write.next = self.emu_q_write.val();
        self.shaper.deq.next = self.emu_en.val() & self.g.val() & (self.gq.val() == self.emu.val());
        self.dwrr.csr_we.next = self.csr_we.val() & (self.block.val() == 1);
        self.dwrr.csr_addr.next = self.sub_addr.val();
        self.dwrr.csr_wdata.next = self.csr_wdata.val();
        self.pick_en.next = (!self.pend_v.q.val() | self.ready.val()) & !self.emu_q_write.val();
        self.dwrr.grant_en.next = self.pick_en.val();
        // every queue as after this clock's pop
        self.arrive.next = 0.into();
        for i in 0..NQ {
            if self.arr_push[i].val() {
                self.arrive.next = self.arrive.val() | self.onehot[i].val();
            }
            self.dwrr.head_len[i].next = 0.into();
            self.servable[i].next = false;
            if self.nonempty[i].val() & !(self.pop[i].val() & self.lasts[i].val()) {
                self.dwrr.head_len[i].next = self.heads_len[i].val();
                if self.pop[i].val() {
                    self.dwrr.head_len[i].next = self.seconds_len[i].val();
                }
                self.servable[i].next = !(self.emu_en.val()
                    & (self.emu.val().index() == i)
                    & (!self.shaper.eligible.val() | self.pop[i].val() | self.shaper.write_lands.val()));
            }
        }
        self.hv[0].next = 0.into();
        if self.servable[0].val() {
            self.hv[0].next = self.onehot[0].val();
        }
        for i in 1..NQ {
            self.hv[i].next = self.hv[i - 1].val();
            if self.servable[i].val() {
                self.hv[i].next = self.hv[i - 1].val() | self.onehot[i].val();
            }
            self.dwrr.head_valid.next = self.hv[i].val();
        }
        self.dwrr.arrive.next = self.arrive.val();
        // the pick: made while DWRR may pick, held while it waits for the link
        self.pend_v.d.next = self.pend_v.q.val() & !self.ready.val();
        self.pend_q.d.next = self.pend_q.q.val();
        if self.pick_en.val() {
            self.pend_v.d.next = self.dwrr.grant.val();
            self.pend_q.d.next = self.dwrr.grant_q.val();
        }
        for i in 0..NQ {
            self.pend[i].d.next = self.pend[i].q.val() & !self.ready.val();
            if self.pick_en.val() {
                self.pend[i].d.next = self.dwrr.grant.val() & (self.dwrr.grant_q.val().index() == i);
            }
        }
        self.g_len.next = 0.into();
        self.g_rest.next = 0.into();
        self.g_ts.next = 0.into();
        for i in 0..NQ {
            self.pop[i].next = self.g.val() & (self.gq.val().index() == i);
            if self.pop[i].val() {
                self.g_len.next = self.heads_len[i].val();
                self.g_rest.next = self.heads_meta[i].val();
                self.g_ts.next = self.heads_b[i].val();
            }
        }
        self.g_meta.next = (bit_cast::<17, 3>(self.g_rest.val()) << 14) | (bit_cast::<17, 16>(self.g_len.val()) & 0x3FFF);
    }
}
