//! RTL of the switch egress port; the golden model is `model.rs`, the dataflow and the choices
//! are in `mod.rs`. `NQ` queues (power of two, `QB = log2 NQ`), FIFO depth `2^DB` per queue
//! (`CB = DB + 1` bits of occupancy), built with the blocks `F` (`features` in `mod.rs`). Each
//! queue is a [`BypassFifo`] of 17-bit descriptors and 32-bit enqueue stamps whose head is valid
//! in the clock after its push, so the scheduler sees every head in the clock it decides and a
//! queue can be served on consecutive clocks. The port's registers, each stage, the link pacer
//! and the resident counts are components of their own ([`PortRegisters`], [`Admission`],
//! [`Scheduler`], [`Departure`], [`LinkPacer`], [`Resident`]; the README's *Structure*).

use super::admission::Admission;
use super::departure::Departure;
use super::fifo::BypassFifo;
use super::pacer::LinkPacer;
use super::resident::Resident;
use super::regs::PortRegisters;
use super::scheduler::Scheduler;
use crate::rtl_util::LateCounter;
use rust_hdl::prelude::*;

// The register addresses this RTL and its stages (`regs.rs`, `admission.rs`, `scheduler.rs`,
// `departure.rs`) decode as literals (rust-hdl's `#[hdl_gen]` takes no paths) are the register
// map's: a change to `port/mod.rs`'s map must come with the RTL's.
use super::{csr, features, rd};
const _: () = assert!(
    csr::CLASS_MAP == 0 && csr::QCAP == 1 && csr::MAX_LEN == 2 && csr::RATE == 3
    && csr::OVERHEAD == 4 && csr::EMU_Q == 5 && csr::SEL_Q == 6 && csr::TIME_LOAD == 7
    && csr::BLOCK_PORT == 0 && csr::BLOCK_DWRR == 0x100 && csr::BLOCK_AQM == 0x200
    && csr::BLOCK_SELDROP == 0x300 && csr::BLOCK_SHAPER == 0x400 && csr::BLOCK_REN == 0x500
    && csr::BLOCK_INT == 0x600 && rd::QLEN0 == 16 && rd::REGISTERS[rd::idx::QLEN0].count == 8
    && rd::IN == 0 && rd::ENQ == 1 && rd::DROP_MALFORMED == 2 && rd::DROP_TAIL == 3
    && rd::DROP_SEL == 4 && rd::DEQ == 5 && rd::OUT == 6 && rd::DROP_AQM == 7 && rd::DROP_REN == 8
    && rd::DROP_INT == 9 && rd::MARKED_AQM == 10 && rd::RESIDENT_PKTS == 11
    && rd::RESIDENT_BYTES == 12 && rd::NOW == 13 && rd::IN_FLIGHT == 14
);

/// Port counters, in `rd` order (0..=10).
const N_CNT: usize = 11;

#[derive(LogicBlock)]
pub struct SwitchPort<const NQ: usize, const QB: usize, const DB: usize, const CB: usize, const F: usize> {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<12>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub csr_raddr: Signal<In, Bits<8>>,
    pub in_valid: Signal<In, Bit>,
    pub in_class: Signal<In, Bits<3>>,
    pub in_len: Signal<In, Bits<16>>,
    pub in_ecn: Signal<In, Bits<2>>,
    pub in_low_prio: Signal<In, Bit>,
    pub in_is_data: Signal<In, Bit>,
    pub in_admit: Signal<Out, Bit>,
    pub in_drop: Signal<Out, Bits<2>>,
    pub grant: Signal<Out, Bit>,
    pub grant_q: Signal<Out, Bits<3>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_q: Signal<Out, Bits<3>>,
    pub out_len: Signal<Out, Bits<16>>,
    pub out_ecn: Signal<Out, Bits<2>>,
    pub out_is_data: Signal<Out, Bit>,
    pub out_sojourn: Signal<Out, Bits<32>>,
    pub out_hop_lo: Signal<Out, Bits<32>>,
    pub out_hop_hi: Signal<Out, Bits<32>>,
    pub csr_rdata: Signal<Out, Bits<32>>,
    // blocks
    /// DWRR / strict priority over the heads, the emulation queue shaped.
    scheduler: Scheduler<NQ, QB>,
    /// The arrival: classify, admit (selective drop on its queue).
    admission: Admission<NQ, QB, CB>,
    /// The popped descriptor's next clocks: AQM, REN, INT.
    departure: Departure<NQ, QB, CB, F>,
    // per-queue FIFOs: descriptor {is_data:1, ecn:2, len:14} (the length apart) and enqueue stamp
    fifo: [BypassFifo<14, 3, 32, DB, CB>; NQ],
    regs: PortRegisters<NQ, QB, DB, CB, F>,
    pacer: LinkPacer<NQ>,
    resident: Resident<NQ>,
    cnt: [LateCounter; N_CNT],
    rd_count: Signal<Local, Bits<CB>>,
    // wires
    block: Signal<Local, Bits<4>>,
    sub_addr: Signal<Local, Bits<8>>,
    // departure
    // scheduling
    // arrival
}

impl<const NQ: usize, const QB: usize, const DB: usize, const CB: usize, const F: usize> Default
    for SwitchPort<NQ, QB, DB, CB, F>
{
    fn default() -> Self {
        assert!(NQ == 1 << QB && QB >= 1 && QB <= 3 && CB == DB + 1);
        SwitchPort {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            csr_raddr: Default::default(),
            in_valid: Default::default(),
            in_class: Default::default(),
            in_len: Default::default(),
            in_ecn: Default::default(),
            in_low_prio: Default::default(),
            in_is_data: Default::default(),
            in_admit: Default::default(),
            in_drop: Default::default(),
            grant: Default::default(),
            grant_q: Default::default(),
            out_valid: Default::default(),
            out_q: Default::default(),
            out_len: Default::default(),
            out_ecn: Default::default(),
            out_is_data: Default::default(),
            out_sojourn: Default::default(),
            out_hop_lo: Default::default(),
            out_hop_hi: Default::default(),
            csr_rdata: Default::default(),
            scheduler: Default::default(),
            admission: Default::default(),
            departure: Default::default(),
            fifo: std::array::from_fn(|_| Default::default()),
            regs: Default::default(),
            pacer: Default::default(),
            resident: Default::default(),
            cnt: std::array::from_fn(|_| Default::default()),
            rd_count: Default::default(),
            block: Default::default(),
            sub_addr: Default::default(),
        }
    }
}

impl<const NQ: usize, const QB: usize, const DB: usize, const CB: usize, const F: usize> Logic
    for SwitchPort<NQ, QB, DB, CB, F>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, regs, scheduler, departure, admission, pacer, resident);
        self.block.next = self.csr_addr.val().get_bits::<4>(8);
        self.sub_addr.next = self.csr_addr.val().get_bits::<8>(0);
        self.regs.we.next = self.csr_we.val() & (self.block.val() == 0);
        self.regs.addr.next = self.sub_addr.val();
        self.regs.wdata.next = self.csr_wdata.val();
        for i in 0..N_CNT {
            self.cnt[i].clock.next = self.clock.val();
            self.cnt[i].inc.next = false;
            self.cnt[i].load.next = false;
            self.cnt[i].load_val.next = 0.into();
        }

        // --- departure of the descriptor popped last clock: AQM → REN → INT
        self.departure.csr_we.next = self.csr_we.val();
        self.departure.block.next = self.block.val();
        self.departure.sub_addr.next = self.sub_addr.val();
        self.departure.csr_wdata.next = self.csr_wdata.val();
        self.departure.now.next = self.regs.now.val();
        for i in 0..NQ {
            self.fifo[i].clock.next = self.clock.val();
            self.departure.counts[i].next = self.fifo[i].count.val();
        }
        self.departure.idle_bytes.next = self.pacer.idle.val();
        self.departure.res_pkts.next = self.resident.pkts.val();
        self.departure.res_bytes.next = self.resident.bytes.val();
        self.out_valid.next = self.departure.out_valid.val();
        self.out_q.next = self.departure.out_q.val();
        self.out_len.next = self.departure.out_len.val();
        self.out_ecn.next = self.departure.out_ecn.val();
        self.out_is_data.next = self.departure.out_is_data.val();
        self.out_sojourn.next = self.departure.out_sojourn.val();
        self.out_hop_lo.next = self.departure.out_hop_lo.val();
        self.out_hop_hi.next = self.departure.out_hop_hi.val();
        // counters 6..=10: out, drop_aqm, drop_ren, drop_int, marked_aqm
        self.cnt[6].inc.next = self.departure.out_valid.val();
        self.cnt[7].inc.next = self.departure.drop_aqm.val();
        self.cnt[8].inc.next = self.departure.drop_ren.val();
        self.cnt[9].inc.next = self.departure.drop_int.val();
        self.cnt[10].inc.next = self.departure.marked_aqm.val();

        // --- scheduling: shaper eligibility (emulation queue), DWRR / SP, pacer
        self.scheduler.csr_we.next = self.csr_we.val();
        self.scheduler.block.next = self.block.val();
        self.scheduler.sub_addr.next = self.sub_addr.val();
        self.scheduler.csr_wdata.next = self.csr_wdata.val();
        for i in 0..NQ {
            self.scheduler.nonempty[i].next = self.fifo[i].nonempty.val();
            self.scheduler.heads_len[i].next = self.fifo[i].head_len.val();
            self.scheduler.heads_meta[i].next = self.fifo[i].head_meta.val();
            self.scheduler.lasts[i].next = self.fifo[i].last.val();
            self.scheduler.seconds_len[i].next = self.fifo[i].second_len.val();
            self.scheduler.heads_b[i].next = self.fifo[i].head_b.val();
        }
        self.scheduler.enq_len.next = bit_cast::<16, 14>(self.admission.enq_meta.val().get_bits::<14>(0));
        self.scheduler.emu_en.next = self.regs.emu_en.val();
        self.scheduler.emu.next = self.regs.emu.val();
        self.scheduler.ready.next = self.pacer.ready.val();
        self.grant.next = self.scheduler.g.val();
        self.grant_q.next = bit_cast::<3, QB>(self.scheduler.pop_q.val());
        self.departure.g.next = self.scheduler.g.val();
        self.departure.gq.next = self.scheduler.gq.val();
        self.departure.g_meta.next = self.scheduler.g_meta.val();
        self.departure.g_ts.next = self.scheduler.g_ts.val();
        self.cnt[5].inc.next = self.scheduler.g.val();
        self.pacer.rate.next = self.regs.rate.val();
        self.pacer.overhead.next = self.regs.overhead.val();
        for i in 0..NQ {
            self.pacer.pop[i].next = self.scheduler.pop[i].val();
            self.pacer.lens[i].next = self.fifo[i].head_len.val();
        }

        // --- arrival: classified in the input stage, admitted (or dropped) a clock later
        self.admission.csr_we.next = self.csr_we.val();
        self.admission.block.next = self.block.val();
        self.admission.sub_addr.next = self.sub_addr.val();
        self.admission.csr_wdata.next = self.csr_wdata.val();
        self.admission.in_valid.next = self.in_valid.val();
        self.admission.in_class.next = self.in_class.val();
        self.admission.in_len.next = self.in_len.val();
        self.admission.in_ecn.next = self.in_ecn.val();
        self.admission.in_low_prio.next = self.in_low_prio.val();
        self.admission.in_is_data.next = self.in_is_data.val();
        self.admission.class_map.next = self.regs.class_map.val();
        self.admission.qcap.next = self.regs.qcap.val();
        self.admission.max_len.next = self.regs.max_len.val();
        self.admission.sel_en.next = self.regs.sel_en.val();
        self.admission.sel.next = self.regs.sel.val();
        for i in 0..NQ {
            self.admission.counts[i].next = self.fifo[i].count.val();
            self.admission.pops[i].next = self.scheduler.pop[i].val();
        }
        self.admission.g.next = self.scheduler.g.val();
        self.admission.gq.next = self.scheduler.gq.val();
        self.admission.sel_head_len.next = 0.into();
        for i in 0..NQ {
            if self.regs.sel.val().index() == i {
                self.admission.sel_head_len.next = self.fifo[i].head_len.val();
            }
        }
        self.in_admit.next = self.admission.admit.val();
        self.in_drop.next = self.admission.drop_code.val();
        self.cnt[0].inc.next = self.admission.arrived.val();
        self.cnt[1].inc.next = self.admission.admit.val();
        self.cnt[2].inc.next = self.admission.drop_code.val() == 1;
        self.cnt[3].inc.next = self.admission.drop_code.val() == 2;
        self.cnt[4].inc.next = self.admission.drop_code.val() == 3;

        // --- FIFO updates: push the admitted descriptor with its stamp, pop the picked one
        for i in 0..NQ {
            self.scheduler.arr_push[i].next = self.admission.push[i].val();
            self.fifo[i].push.next = self.admission.push[i].val();
            self.fifo[i].pop.next = self.scheduler.pop[i].val();
            self.fifo[i].in_len.next = self.admission.enq_meta.val().get_bits::<14>(0);
            self.fifo[i].in_meta.next = self.admission.enq_meta.val().get_bits::<3>(14);
            self.fifo[i].in_b.next = self.regs.now.val();
        }
        // resident descriptors and bytes
        self.resident.admit.next = self.admission.admit.val();
        self.resident.in_len.next = self.admission.len.val();
        for i in 0..NQ {
            self.resident.pop[i].next = self.scheduler.pop[i].val();
            self.resident.lens[i].next = self.fifo[i].head_len.val();
        }

        // --- register read port (rd module)
        self.csr_rdata.next = 0.into();
        for i in 0..N_CNT {
            if self.csr_raddr.val().index() == i {
                self.csr_rdata.next = self.cnt[i].value.val();
            }
        }
        self.rd_count.next = 0.into();
        for i in 0..NQ {
            if self.csr_raddr.val().index() == 16 + i {
                self.rd_count.next = self.fifo[i].count.val();
            }
        }
        if (self.csr_raddr.val() >= 16) & (self.csr_raddr.val() < 24) {
            self.csr_rdata.next = bit_cast::<32, CB>(self.rd_count.val());
        }
        match self.csr_raddr.val().index() {
            11 => self.csr_rdata.next = self.resident.pkts.val(),
            12 => self.csr_rdata.next = self.resident.bytes.val(),
            13 => self.csr_rdata.next = self.regs.now.val(),
            14 => self.csr_rdata.next = bit_cast::<32, 2>(self.departure.in_flight.val()),
            _ => {}
        }
    }
}

crate::pin_io!(generic [const NQ: usize, const QB: usize, const DB: usize, const CB: usize, const F: usize]
    SwitchPort<NQ, QB, DB, CB, F>;
    in: csr_we, csr_addr, csr_wdata, csr_raddr, in_valid, in_class, in_len, in_ecn, in_low_prio, in_is_data;
    out: in_admit, in_drop, grant, grant_q, out_valid, out_q, out_len, out_ecn, out_is_data, out_sojourn,
        out_hop_lo, out_hop_hi, csr_rdata);

/// The configuration the vectors, the fuzz and the throughput run drive: 8 queues of 16, built
/// with the blocks `F` (the full port by default).
pub type SwitchPort8x16<const F: usize = { features::ALL }> = SwitchPort<8, 3, 4, 5, F>;

/// The configuration the synthesis flow builds for the iCE40HX8K and the closed loops run: 2
/// queues of 256 (one block RAM deep); its size is in the README, "Measured". On the HX8K it is
/// built per system ([`super::SYSTEMS`]).
pub type SwitchPort2x256<const F: usize = { features::ALL }> = SwitchPort<2, 1, 8, 9, F>;

/// The full port the ECP5 flow builds: 8 queues of 1,024 descriptors, every block.
pub type SwitchPort8x1024 = SwitchPort<8, 3, 10, 11, { features::ALL }>;
