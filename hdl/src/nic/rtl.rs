//! RTL of the FEC NIC top: the register map of `mod.rs` on a 32-bit memory bus (what a PCIe
//! BAR0 bridge drives), the CB-LT encoder and decoder, a TX symbol queue, an RX staging buffer
//! and feeder, an RX message buffer and a completion queue.
//!
//! `NicTop<MA, SA, TA, KM>` with `TA = SA + 2` and the encoder's masks KM ≥ k_max bits wide: symbols of S bytes in slots of 2^SA words, messages
//! of up to k_max symbols in 2^MA words, all with a 32-bit data path (one bus word per beat).
//!
//! Bus: `bus_addr` is a byte address (bits 1..0 ignored). A write (`bus_we`) takes effect at the
//! clock edge, or a clock later for the encoder's writes, the RX staging writes and the queue
//! commands (registered, so the bus decode is off their logic; a read in the next clock still
//! sees them); a read (`bus_re`) returns `bus_rdata` in the second clock after that edge
//! ([`super::READ_LATENCY`]), the registers as they are after that edge; reads pipeline.
//! The address decode is generated from [`REGISTERS`]: a constant
//! offset and mask per register; `update` names the registers by their index, which the
//! const assert below ties to the table.

use rust_hdl::prelude::*;

use super::bus_read::{RegisterRead, WindowRead};
use super::completion_queue::CompletionQueue;
use super::msg_capture::MsgCapture;
use super::refusal::{decode_span, WriteRefusal};
use super::rx_feeder::RxFeeder;
use super::tick_divider::TickDivider;
use super::tx_queue::TxQueue;
use super::{caps_words, idx, MAGIC, REGISTERS, TX_SLOTS, CQ_DEPTH, VERSION};
use crate::cblt::decoder_rtl::LtDecoder;
use crate::cblt::encoder_csr::csr;
use crate::cblt::encoder_rtl::LtEncoder;
use crate::rtl_util::c;

/// Registers in the map (the decode arrays' length; `update` loops over `0..58`).
pub const NREG: usize = 58;

const _: () = assert!(
    REGISTERS.len() == NREG
        && TX_SLOTS == 4
        && CQ_DEPTH == 4
        && idx::ID == 0 && idx::VERSION == 1 && idx::CAPS == 2 && idx::LAYOUT == 3 && idx::CYCLES_LO == 4
        && idx::CYCLES_HI == 5 && idx::SCRATCH == 6 && idx::CTRL == 7 && idx::BUS_REFUSED == 8
        && idx::ENC_CTRL == 9 && idx::ENC_K == 10 && idx::ENC_MSG_SIZE == 11 && idx::ENC_MSG_ID == 12
        && idx::ENC_SEED == 13 && idx::ENC_SYMBOL_LIMIT == 14 && idx::ENC_STATUS == 15 && idx::ENC_SYMBOLS == 16
        && idx::ENC_REFUSED == 17 && idx::ENC_WRITES_REFUSED == 18 && idx::TX_HDR == 19 && idx::TX_BITSET_HI == 20
        && idx::TX_BITSET_LO == 21 && idx::TX_POP == 22 && idx::ENC_TABLE == 23 && idx::RX_HDR == 24
        && idx::RX_BITSET_HI == 25 && idx::RX_BITSET_LO == 26 && idx::RX_LEN == 27 && idx::RX_PUSH == 28
        && idx::RX_STATUS == 29 && idx::RX_RESULT == 30 && idx::RX_KNOWN_LO == 31 && idx::RX_KNOWN_HI == 32
        && idx::RX_STOP_HDR == 33 && idx::RX_IDLE_LIMIT == 34 && idx::RX_TICK_DIV == 35 && idx::RX_CTX == 36
        && idx::RX_CTX_KNOWN_LO == 37 && idx::RX_CTX_KNOWN_HI == 38 && idx::RX_MSG_BYTES == 39
        && idx::RX_MSG_ACK == 40 && idx::RX_CNT_SYMBOLS == 41 && idx::RX_CNT_FAILED == 48 && idx::CQ_HEAD == 49
        && idx::CQ_HDR == 50 && idx::CQ_KNOWN_LO == 51 && idx::CQ_KNOWN_HI == 52 && idx::CQ_SEEN == 53
        && idx::CQ_REDUNDANT == 54 && idx::CQ_INVALID == 55 && idx::CQ_POP == 56 && idx::ENC_DRAWS == 57
);
// The encoder's CSR n is at ENC_CTRL + 4n: `update` passes `(addr − 0x100) / 4` through.
const _: () = assert!(
    super::reg::ENC_CTRL == 0x100
        && super::reg::ENC_K == 0x100 + 4 * csr::K as u32
        && super::reg::ENC_MSG_SIZE == 0x100 + 4 * csr::MSG_SIZE as u32
        && super::reg::ENC_MSG_ID == 0x100 + 4 * csr::MSG_ID as u32
        && super::reg::ENC_SEED == 0x100 + 4 * csr::SEED as u32
        && super::reg::ENC_SYMBOL_LIMIT == 0x100 + 4 * csr::SYMBOL_LIMIT as u32
        && super::reg::ENC_TABLE == 0x100 + 4 * csr::TABLE as u32
        && csr::CTRL == 0
);
// Window decode by the address's top bits (`update` uses these as literals).
const _: () = assert!(
    super::RX_STAGE.offset == 0x1_0000 && super::RX_STAGE.size == 0x8000
        && super::TX_SYMBOL.offset == 0x1_8000 && super::TX_SYMBOL.size == 0x8000
        && super::TX_MESSAGE.offset == 0x2_0000 && super::TX_MESSAGE.size == 0x2_0000
        && super::RX_MESSAGE.offset == 0x4_0000 && super::RX_MESSAGE.size == 0x2_0000
        && super::REG_SPACE == 0x1000
);

#[derive(LogicBlock)]
pub struct NicTop<const MA: usize, const SA: usize, const TA: usize, const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub bus_addr: Signal<In, Bits<20>>,
    pub bus_we: Signal<In, Bit>,
    pub bus_re: Signal<In, Bit>,
    pub bus_wdata: Signal<In, Bits<32>>,
    pub bus_rdata: Signal<Out, Bits<32>>,
    /// The core has work it can make progress on (the simulator clocks it while this is high).
    pub active: Signal<Out, Bit>,
    enc: LtEncoder<32, MA, SA, KM>,
    dec: LtDecoder<32, MA, SA, KM>,
    /// The encoder's symbols for the host, the host's packets for the decoder, the decoder's
    /// message and its records (each a component with its own test).
    txq: TxQueue<SA, TA>,
    feeder: RxFeeder<SA>,
    capture: MsgCapture<MA, SA>,
    cq: CompletionQueue,
    /// BUS_REFUSED's count.
    refusal: WriteRefusal,
    // the decode, from REGISTERS
    raddr: [Constant<Bits<12>>; 58],
    rmask: [Constant<Bits<12>>; 58],
    id_c: Constant<Bits<32>>,
    version_c: Constant<Bits<32>>,
    caps_c: Constant<Bits<32>>,
    layout_c: Constant<Bits<32>>,
    all32: Constant<Bits<32>>,
    // bus
    /// The read, two clocks from its edge to its data (`READ_LATENCY`), every path between
    /// registers: the registers' half and the windows' half, ORed. The window RAMs' addresses
    /// are registered at the read's edge. A register reads as it is after the read's edge.
    rd: RegisterRead<58>,
    rd_win: WindowRead,
    cyc_lo: DFF<Bits<32>>,
    cyc_hi: DFF<Bits<32>>,
    cyc_latch: DFF<Bits<32>>,
    /// CYCLES_LO was read at the last edge.
    cyc_read: DFF<Bit>,
    scratch: DFF<Bits<32>>,
    draws: DFF<Bits<32>>,
    // the last result
    res_seq: DFF<Bits<16>>,
    res_word: DFF<Bits<32>>,
    res_known: DFF<Bits<64>>,
    res_stop: DFF<Bits<32>>,
    idle_limit: DFF<Bits<16>>,
    /// `RX_TICK_DIV` and the decoder's idle ticks.
    ticks: TickDivider,
    // combinational
    a12: Signal<Local, Bits<12>>,
    in_regs: Signal<Local, Bit>,
    hit: [Signal<Local, Bit>; 58],
    rv: [Signal<Local, Bits<32>>; 58],
    we_reg: Signal<Local, Bit>,
    w_stage: Signal<Local, Bit>,
    w_txmsg: Signal<Local, Bit>,
    r_txsym: Signal<Local, Bit>,
    r_rxmsg: Signal<Local, Bit>,
    wa: Signal<Local, Bits<20>>,
    csr_off: Signal<Local, Bits<8>>,
    r_txmeta: Signal<Local, Bit>,
    r_cq: Signal<Local, Bit>,
    rx_clear: Signal<Local, Bit>,
    /// CTRL's RX clear, applied a clock after its write (the bus decode is off the many resets
    /// it drives); a read sees it, as a read returns the registers after its edge.
    rx_clear_r: DFF<Bit>,
    /// The TX and CQ pops and the TX flush, registered like the RX clear: each takes effect a
    /// clock after its write, and the RAMs' read addresses follow the heads' next values, so a
    /// read in the next clock still sees it.
    tx_pop_r: DFF<Bit>,
    tx_flush_r: DFF<Bit>,
    cq_pop_r: DFF<Bit>,
    /// The encoder's register and buffer writes, registered: they reach it a clock after the
    /// bus write, in the order they came (the bus decode is off the encoder's write logic).
    ew_cfg: DFF<Bit>,
    ew_caddr: DFF<Bits<8>>,
    ew_buf: DFF<Bit>,
    ew_baddr: DFF<Bits<MA>>,
    ew_data: DFF<Bits<32>>,
    /// The RX staging writes (its window, `RX_HDR` ..= `RX_PUSH`), registered the same way: they
    /// reach the feeder a clock after the bus write, with `ew_baddr` and `ew_data` as their
    /// address and data, and a write refused while a push is in flight is judged as it lands.
    rw_stage: DFF<Bit>,
    rw_we: DFF<Bit>,
    rw_hdr: DFF<Bit>,
    rw_bhi: DFF<Bit>,
    rw_blo: DFF<Bit>,
    rw_len: DFF<Bit>,
    rw_push: DFF<Bit>,
    f_ebusy: Signal<Local, Bits<32>>,
    f_fd: Signal<Local, Bits<32>>,
    f_dbusy: Signal<Local, Bits<32>>,
    f_open: Signal<Local, Bits<32>>,
    f_mfull: Signal<Local, Bits<32>>,
}

impl<const MA: usize, const SA: usize, const TA: usize, const KM: usize> NicTop<MA, SA, TA, KM> {
    /// A NIC for symbols of `s` bytes and messages of up to `k_max` symbols. Panics when the
    /// geometry does not fit: `⌈S/4⌉ ≤ 2^SA`, `k_max·2^SA ≤ 2^MA ≤ 2^15`, `TA = SA + 2`.
    pub fn new(s: usize, k_max: usize) -> Self {
        assert!(TA == SA + 2, "TA = {TA} must be SA + 2 = {}", SA + 2);
        assert!(s > 8, "a symbol must span 3 bus words or more: its header and bitset are written with the first three");
        assert!(MA <= 15 && SA <= 13, "the windows hold 2^15 message words and 2^13 symbol words");
        let (caps, layout) = caps_words(s, k_max, 4, SA);
        NicTop {
            clock: Default::default(),
            bus_addr: Default::default(),
            bus_we: Default::default(),
            bus_re: Default::default(),
            bus_wdata: Default::default(),
            bus_rdata: Default::default(),
            active: Default::default(),
            enc: LtEncoder::new(s, k_max),
            dec: LtDecoder::new(s, k_max),
            txq: Default::default(),
            feeder: Default::default(),
            capture: MsgCapture::new(s.div_ceil(4)),
            cq: Default::default(),
            refusal: Default::default(),
            raddr: std::array::from_fn(|i| c(decode_span(&REGISTERS[i]).0)),
            rmask: std::array::from_fn(|i| c(decode_span(&REGISTERS[i]).1)),
            id_c: c(MAGIC as u64),
            version_c: c(VERSION as u64),
            caps_c: c(caps as u64),
            layout_c: c(layout as u64),
            all32: c(0xFFFF_FFFF),
            rd: Default::default(),
            rd_win: Default::default(),
            cyc_lo: Default::default(),
            cyc_hi: Default::default(),
            cyc_latch: Default::default(),
            cyc_read: Default::default(),
            scratch: Default::default(),
            draws: Default::default(),
            res_seq: Default::default(),
            res_word: Default::default(),
            res_known: Default::default(),
            res_stop: Default::default(),
            idle_limit: Default::default(),
            ticks: Default::default(),
            a12: Default::default(),
            in_regs: Default::default(),
            hit: std::array::from_fn(|_| Default::default()),
            rv: std::array::from_fn(|_| Default::default()),
            we_reg: Default::default(),
            w_stage: Default::default(),
            w_txmsg: Default::default(),
            r_txsym: Default::default(),
            r_rxmsg: Default::default(),
            wa: Default::default(),
            csr_off: Default::default(),
            r_txmeta: Default::default(),
            r_cq: Default::default(),
            rx_clear: Default::default(),
            rx_clear_r: Default::default(),
            tx_pop_r: Default::default(),
            tx_flush_r: Default::default(),
            cq_pop_r: Default::default(),
            ew_cfg: Default::default(),
            ew_caddr: Default::default(),
            ew_buf: Default::default(),
            ew_baddr: Default::default(),
            ew_data: Default::default(),
            rw_stage: Default::default(),
            rw_we: Default::default(),
            rw_hdr: Default::default(),
            rw_bhi: Default::default(),
            rw_blo: Default::default(),
            rw_len: Default::default(),
            rw_push: Default::default(),
            f_ebusy: Default::default(),
            f_fd: Default::default(),
            f_dbusy: Default::default(),
            f_open: Default::default(),
            f_mfull: Default::default(),
        }
    }
}

impl<const MA: usize, const SA: usize, const TA: usize, const KM: usize> Logic for NicTop<MA, SA, TA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, rx_clear_r, tx_pop_r, tx_flush_r, cq_pop_r, ew_cfg, ew_caddr, ew_buf, ew_baddr, ew_data, rw_stage, rw_we, rw_hdr, rw_bhi, rw_blo,
            rw_len, rw_push, cyc_lo, cyc_hi, cyc_latch, cyc_read, scratch, draws,
            res_seq, res_word, res_known, res_stop, idle_limit
        );
        self.enc.clock.next = self.clock.val();
        self.dec.clock.next = self.clock.val();
        self.txq.clock.next = self.clock.val();
        self.feeder.clock.next = self.clock.val();
        self.capture.clock.next = self.clock.val();
        self.cq.clock.next = self.clock.val();
        self.refusal.clock.next = self.clock.val();

        // ---- address decode: the register block and the four windows ----
        self.a12.next = self.bus_addr.val().get_bits::<12>(0);
        self.in_regs.next = self.bus_addr.val().get_bits::<8>(12) == 0;
        self.wa.next = self.bus_addr.val() >> 2;
        for i in 0..58 {
            self.hit[i].next = self.in_regs.val() & ((self.a12.val() & self.rmask[i].val()) == self.raddr[i].val());
            self.rv[i].next = 0.into();
        }
        self.we_reg.next = self.bus_we.val() & self.in_regs.val();
        self.w_stage.next = self.bus_we.val() & (self.bus_addr.val().get_bits::<5>(15) == 2);
        self.r_txsym.next = self.bus_addr.val().get_bits::<5>(15) == 3;
        self.w_txmsg.next = self.bus_we.val() & (self.bus_addr.val().get_bits::<3>(17) == 1);
        self.r_rxmsg.next = self.bus_addr.val().get_bits::<3>(17) == 2;
        self.rx_clear_r.d.next = self.we_reg.val() & self.hit[7].val() & self.bus_wdata.val().get_bit(0);
        self.rx_clear.next = self.rx_clear_r.q.val();

        // ---- free-running cycle counter and scratch ----
        self.cyc_lo.d.next = self.cyc_lo.q.val() + 1;
        if self.cyc_lo.q.val() == self.all32.val() {
            self.cyc_hi.d.next = self.cyc_hi.q.val() + 1;
        }
        // CYCLES_HI is latched as CYCLES_LO is read, both as they are after the read's edge
        self.cyc_read.d.next = self.bus_re.val() & self.hit[4].val();
        if self.cyc_read.q.val() {
            self.cyc_latch.d.next = self.cyc_hi.q.val();
        }
        if self.we_reg.val() & self.hit[6].val() {
            self.scratch.d.next = self.bus_wdata.val();
        }

        // ---- encoder: CSR writes, message buffer writes ----
        self.csr_off.next = self.bus_addr.val().get_bits::<8>(2) - 64;
        self.ew_cfg.d.next = self.we_reg.val()
            & (self.hit[9].val()
                | self.hit[10].val()
                | self.hit[11].val()
                | self.hit[12].val()
                | self.hit[13].val()
                | self.hit[14].val()
                | self.hit[23].val());
        self.ew_caddr.d.next = self.csr_off.val();
        self.ew_buf.d.next = self.w_txmsg.val();
        self.ew_baddr.d.next = bit_cast::<MA, 20>(self.wa.val());
        self.ew_data.d.next = self.bus_wdata.val();
        self.enc.cfg_we.next = self.ew_cfg.q.val();
        self.enc.cfg_addr.next = self.ew_caddr.q.val();
        self.enc.cfg_wdata.next = self.ew_data.q.val();
        self.enc.buf_we.next = self.ew_buf.q.val();
        self.enc.buf_addr.next = self.ew_baddr.q.val();
        self.enc.buf_wdata.next = self.ew_data.q.val();

        // ---- TX queue: the encoder's beats into the tail slot, the host reads the head ----
        self.enc.out_ready.next = self.txq.ready.val();
        self.txq.beat_valid.next = self.enc.out_valid.val();
        self.txq.beat_first.next = self.enc.out_first.val();
        self.txq.beat_last.next = self.enc.out_last.val();
        self.txq.beat_data.next = self.enc.out_data.val();
        self.txq.hdr.next = self.enc.out_hdr.val();
        self.txq.bitset.next = self.enc.out_bitset.val();
        if self.txq.take.val() {
            self.draws.d.next = self.enc.out_draws.val();
        }
        self.tx_pop_r.d.next = self.we_reg.val() & self.hit[22].val();
        self.tx_flush_r.d.next = self.we_reg.val() & self.hit[7].val() & self.bus_wdata.val().get_bit(1);
        self.txq.pop.next = self.tx_pop_r.q.val();
        self.txq.flush.next = self.tx_flush_r.q.val();
        self.txq.rd_addr.next = bit_cast::<SA, 20>(self.wa.val());
        self.r_txmeta.next = self.hit[19].val() | self.hit[20].val() | self.hit[21].val();

        // ---- RX staging and feeder: host writes (a clock later) while no push is in flight ----
        self.rw_stage.d.next = self.w_stage.val();
        self.rw_we.d.next = self.we_reg.val();
        self.rw_hdr.d.next = self.hit[24].val();
        self.rw_bhi.d.next = self.hit[25].val();
        self.rw_blo.d.next = self.hit[26].val();
        self.rw_len.d.next = self.hit[27].val();
        self.rw_push.d.next = self.hit[28].val();
        self.feeder.stage_we.next = self.rw_stage.q.val();
        self.feeder.addr.next = bit_cast::<SA, MA>(self.ew_baddr.q.val());
        self.feeder.wdata.next = self.ew_data.q.val();
        self.feeder.reg_we.next = self.rw_we.q.val();
        self.feeder.hit_hdr.next = self.rw_hdr.q.val();
        self.feeder.hit_bhi.next = self.rw_bhi.q.val();
        self.feeder.hit_blo.next = self.rw_blo.q.val();
        self.feeder.hit_len.next = self.rw_len.q.val();
        self.feeder.hit_push.next = self.rw_push.q.val();
        self.feeder.in_ready.next = self.dec.in_ready.val();
        self.dec.in_valid.next = self.feeder.in_valid.val();
        self.dec.in_last.next = self.feeder.in_last.val();
        self.dec.in_data.next = self.feeder.in_data.val();
        self.dec.in_len.next = self.feeder.len.val();
        self.dec.in_hdr.next = self.feeder.hdr.val();
        self.dec.in_bitset.next = (bit_cast::<64, 32>(self.feeder.bitset_hi.val()) << 32) | bit_cast::<64, 32>(self.feeder.bitset_lo.val());

        // ---- refused writes (counted from the write's registered copy, a clock later) ----
        self.refusal.bus_we.next = self.bus_we.val();
        self.refusal.bus_addr.next = self.bus_addr.val();
        self.refusal.busy.next = self.feeder.on.val();

        // ---- results, idle ticks, clear ----
        if self.dec.res_valid.val() {
            self.res_seq.d.next = self.res_seq.q.val() + 1;
            self.res_word.d.next = bit_cast::<32, 3>(self.dec.res_status.val())
                | (bit_cast::<32, 4>(self.dec.res_reason.val()) << 4)
                | (bit_cast::<32, 7>(self.dec.res_rank.val()) << 8);
            self.res_known.d.next = self.dec.res_known.val();
            self.res_stop.d.next = self.dec.res_hdr.val();
        }
        if self.we_reg.val() & self.hit[34].val() {
            self.idle_limit.d.next = self.bus_wdata.val().get_bits::<16>(0);
        }
        self.ticks.clock.next = self.clock.val();
        self.ticks.we.next = self.we_reg.val() & self.hit[35].val();
        self.ticks.wdata.next = self.bus_wdata.val();
        self.dec.tick.next = self.ticks.tick.val();
        self.dec.idle_limit.next = self.idle_limit.q.val();
        self.dec.clear.next = self.rx_clear.val();

        // ---- RX message capture, and the completion queue ----
        self.capture.msg_valid.next = self.dec.msg_valid.val();
        self.capture.msg_data.next = self.dec.msg_data.val();
        self.capture.msg_bytes.next = self.dec.msg_bytes.val();
        self.capture.msg_last.next = self.dec.msg_last.val();
        self.capture.free.next = (self.we_reg.val() & self.hit[40].val()) | self.rx_clear.val();
        self.capture.rd_addr.next = bit_cast::<MA, 20>(self.wa.val());
        self.dec.msg_ready.next = self.capture.msg_ready.val();
        self.cq.rec_valid.next = self.dec.rec_valid.val();
        self.cq.rec_failed.next = self.dec.rec_failed.val();
        self.cq.rec_rank.next = self.dec.rec_rank.val();
        self.cq.rec_hdr.next = self.dec.rec_hdr.val();
        self.cq.rec_known.next = self.dec.rec_known.val();
        self.cq.rec_seen.next = self.dec.rec_seen.val();
        self.cq.rec_redundant.next = self.dec.rec_redundant.val();
        self.cq.rec_invalid.next = self.dec.rec_invalid.val();
        self.dec.rec_ready.next = self.cq.rec_ready.val();
        self.cq_pop_r.d.next = self.we_reg.val() & self.hit[56].val();
        self.cq.pop.next = self.cq_pop_r.q.val();
        self.cq.clear.next = self.rx_clear.val();
        self.cq.rd_word.next = bit_cast::<3, 20>(self.wa.val());
        self.r_cq.next = self.hit[49].val()
            | self.hit[50].val()
            | self.hit[51].val()
            | self.hit[52].val()
            | self.hit[53].val()
            | self.hit[54].val()
            | self.hit[55].val();

        // ---- read values, by register index ----
        self.f_ebusy.next = 0.into();
        if self.enc.busy.val() {
            self.f_ebusy.next = 1.into();
        }
        self.f_fd.next = 0.into();
        if self.feeder.on.val() {
            self.f_fd.next = 1.into();
        }
        self.f_dbusy.next = 0.into();
        if self.dec.busy.val() {
            self.f_dbusy.next = 1.into();
        }
        self.f_open.next = 0.into();
        if self.dec.ctx_open.val() {
            self.f_open.next = 1.into();
        }
        self.f_mfull.next = 0.into();
        if self.capture.full.val() {
            self.f_mfull.next = 1.into();
        }
        self.rv[0].next = self.id_c.val();
        self.rv[1].next = self.version_c.val();
        self.rv[2].next = self.caps_c.val();
        self.rv[3].next = self.layout_c.val();
        self.rv[4].next = self.cyc_lo.q.val();
        self.rv[5].next = self.cyc_latch.q.val();
        self.rv[6].next = self.scratch.q.val();
        self.rv[8].next = self.refusal.refused.val();
        self.rv[15].next = self.f_ebusy.val() | (bit_cast::<32, 3>(self.txq.count.val()) << 8);
        self.rv[16].next = self.enc.symbols.val();
        self.rv[17].next = self.enc.starts_refused.val();
        self.rv[18].next = self.enc.cfg_rejected.val() + self.enc.buf_rejected.val();
        self.rv[24].next = self.feeder.hdr.val();
        self.rv[25].next = self.feeder.bitset_hi.val();
        self.rv[26].next = self.feeder.bitset_lo.val();
        self.rv[27].next = bit_cast::<32, 16>(self.feeder.len.val());
        self.rv[29].next = self.f_fd.val()
            | (self.f_dbusy.val() << 1)
            | (self.f_open.val() << 2)
            | (self.f_mfull.val() << 3)
            | (bit_cast::<32, 3>(self.cq.count.val()) << 8)
            | (bit_cast::<32, 16>(self.res_seq.q.val()) << 16);
        self.rv[30].next = self.res_word.q.val();
        self.rv[31].next = self.res_known.q.val().get_bits::<32>(0);
        self.rv[32].next = self.res_known.q.val().get_bits::<32>(32);
        self.rv[33].next = self.res_stop.q.val();
        self.rv[34].next = bit_cast::<32, 16>(self.idle_limit.q.val());
        self.rv[35].next = self.ticks.div.val();
        self.rv[36].next = bit_cast::<32, 7>(self.dec.ctx_rank.val()) | (self.f_open.val() << 8);
        self.rv[37].next = self.dec.ctx_known.val().get_bits::<32>(0);
        self.rv[38].next = self.dec.ctx_known.val().get_bits::<32>(32);
        self.rv[39].next = self.capture.bytes.val();
        self.rv[41].next = self.dec.cnt_symbols.val();
        self.rv[42].next = self.dec.cnt_invalid.val();
        self.rv[43].next = self.dec.cnt_framing.val();
        self.rv[44].next = self.dec.cnt_redundant.val();
        self.rv[45].next = self.dec.cnt_innovative.val();
        self.rv[46].next = self.dec.cnt_after_complete.val();
        self.rv[47].next = self.dec.cnt_complete.val();
        self.rv[48].next = self.dec.cnt_failed.val();
        self.rv[57].next = self.draws.q.val();

        // ---- the read path (`RegisterRead`, `WindowRead`) ----
        self.rd.clock.next = self.clock.val();
        self.rd.re.next = self.bus_re.val();
        for i in 0..58 {
            self.rd.hit[i].next = self.hit[i].val();
            self.rd.value[i].next = self.rv[i].val();
        }
        self.rd_win.clock.next = self.clock.val();
        self.rd_win.re.next = self.bus_re.val();
        self.rd_win.txsym.next = self.r_txsym.val();
        self.rd_win.rxmsg.next = self.r_rxmsg.val();
        self.rd_win.cq.next = self.r_cq.val();
        self.rd_win.txmeta.next = self.r_txmeta.val();
        self.rd_win.cq_empty_head.next = self.hit[49].val() & (self.cq.count.val() == 0);
        self.rd_win.tx_data.next = self.txq.data.val();
        self.rd_win.rx_data.next = self.capture.rdata.val();
        self.rd_win.cq_data.next = self.cq.rdata.val();
        self.rd_win.tx_meta.next = self.txq.meta.val();
        self.bus_rdata.next = self.rd.data.val() | self.rd_win.data.val();
        self.active.next = (self.enc.busy.val() & self.txq.ready.val())
            | self.feeder.on.val()
            | (self.dec.busy.val() & self.capture.msg_ready.val() & !(self.dec.rec_valid.val() & self.cq.full.val()));
    }
}
