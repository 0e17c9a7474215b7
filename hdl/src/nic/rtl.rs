//! RTL of the FEC NIC top: the register map of `mod.rs` on a 32-bit memory bus (what a PCIe
//! BAR0 bridge drives), its transmit half (`tx_path::NicTx`: the CB-LT encoder and a TX symbol
//! queue) and its receive half (`rx_path::NicRx`: an RX staging buffer and feeder, the CB-LT
//! decoder, an RX message buffer and a completion queue). The top decodes the bus, registers
//! the writes that reach the halves a clock later, and reads every register's value.
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
use super::refusal::{decode_span, WriteRefusal};
use super::rx_path::NicRx;
use super::tx_path::NicTx;
use super::{caps_words, idx, MAGIC, REGISTERS, TX_SLOTS, CQ_DEPTH, VERSION};
use crate::cblt::encoder_csr::csr;
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
    /// The transmit half (the encoder and the TX symbol queue) and the receive half (the RX
    /// staging and feeder, the decoder, the message capture, the completion queue, the last
    /// result, the idle timer), each with its parts as components with their own tests.
    tx: NicTx<MA, SA, TA, KM>,
    rx: NicRx<MA, SA, KM>,
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
    /// The encoder's register and buffer writes, registered: they reach it a clock after the
    /// bus write, in the order they came (the bus decode is off the encoder's write logic). The
    /// RX staging writes use the same registered address and data, and `NicRx` registers their
    /// strobes, so they too reach the feeder a clock after the bus write. CTRL's clear and
    /// flush and the two pops are registered by the half they reach: each takes effect a clock
    /// after its write.
    ew_cfg: DFF<Bit>,
    ew_caddr: DFF<Bits<8>>,
    ew_buf: DFF<Bit>,
    ew_baddr: DFF<Bits<MA>>,
    ew_data: DFF<Bits<32>>,
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
            tx: NicTx::new(s, k_max),
            rx: NicRx::new(s, k_max),
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
            ew_cfg: Default::default(),
            ew_caddr: Default::default(),
            ew_buf: Default::default(),
            ew_baddr: Default::default(),
            ew_data: Default::default(),
        }
    }
}

impl<const MA: usize, const SA: usize, const TA: usize, const KM: usize> Logic for NicTop<MA, SA, TA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ew_cfg, ew_caddr, ew_buf, ew_baddr, ew_data, cyc_lo, cyc_hi, cyc_latch, cyc_read, scratch);
        clock!(self, clock, tx, rx, refusal, rd, rd_win);

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
        self.r_txmeta.next = self.hit[19].val() | self.hit[20].val() | self.hit[21].val();
        self.r_cq.next = self.hit[49].val() | self.hit[50].val() | self.hit[51].val() | self.hit[52].val() | self.hit[53].val() | self.hit[54].val()
            | self.hit[55].val();

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

        // ---- the bus write stage: the encoder's register and buffer writes, registered ----
        self.csr_off.next = self.bus_addr.val().get_bits::<8>(2) - 64;
        self.ew_cfg.d.next = self.we_reg.val()
            & (self.hit[9].val() | self.hit[10].val() | self.hit[11].val() | self.hit[12].val() | self.hit[13].val() | self.hit[14].val() | self.hit[23].val());
        self.ew_caddr.d.next = self.csr_off.val();
        self.ew_buf.d.next = self.w_txmsg.val();
        self.ew_baddr.d.next = bit_cast::<MA, 20>(self.wa.val());
        self.ew_data.d.next = self.bus_wdata.val();

        // ---- the transmit half (`NicTx`) ----
        self.tx.cfg_we.next = self.ew_cfg.q.val();
        self.tx.cfg_addr.next = self.ew_caddr.q.val();
        self.tx.buf_we.next = self.ew_buf.q.val();
        self.tx.buf_addr.next = self.ew_baddr.q.val();
        self.tx.wdata.next = self.ew_data.q.val();
        self.tx.pop_we.next = self.we_reg.val() & self.hit[22].val();
        self.tx.flush_we.next = self.we_reg.val() & self.hit[7].val() & self.bus_wdata.val().get_bit(1);
        self.tx.rd_addr.next = self.wa.val();

        // ---- the receive half (`NicRx`) ----
        self.rx.stage_we.next = self.w_stage.val();
        self.rx.reg_we.next = self.we_reg.val();
        self.rx.hit_hdr.next = self.hit[24].val();
        self.rx.hit_bhi.next = self.hit[25].val();
        self.rx.hit_blo.next = self.hit[26].val();
        self.rx.hit_len.next = self.hit[27].val();
        self.rx.hit_push.next = self.hit[28].val();
        self.rx.waddr.next = bit_cast::<SA, MA>(self.ew_baddr.q.val());
        self.rx.wdata_r.next = self.ew_data.q.val();
        self.rx.wdata.next = self.bus_wdata.val();
        self.rx.idle_we.next = self.we_reg.val() & self.hit[34].val();
        self.rx.div_we.next = self.we_reg.val() & self.hit[35].val();
        self.rx.clear_we.next = self.we_reg.val() & self.hit[7].val() & self.bus_wdata.val().get_bit(0);
        self.rx.ack_we.next = self.we_reg.val() & self.hit[40].val();
        self.rx.pop_we.next = self.we_reg.val() & self.hit[56].val();
        self.rx.rd_addr.next = self.wa.val();

        // ---- refused writes (counted from the write's registered copy, a clock later) ----
        self.refusal.bus_we.next = self.bus_we.val();
        self.refusal.bus_addr.next = self.bus_addr.val();
        self.refusal.busy.next = self.rx.feeding.val();

        // ---- read values, by register index ----
        self.rv[0].next = self.id_c.val();
        self.rv[1].next = self.version_c.val();
        self.rv[2].next = self.caps_c.val();
        self.rv[3].next = self.layout_c.val();
        self.rv[4].next = self.cyc_lo.q.val();
        self.rv[5].next = self.cyc_latch.q.val();
        self.rv[6].next = self.scratch.q.val();
        self.rv[8].next = self.refusal.refused.val();
        self.rv[15].next = self.tx.status.val();
        self.rv[16].next = self.tx.symbols.val();
        self.rv[17].next = self.tx.starts_refused.val();
        self.rv[18].next = self.tx.writes_refused.val();
        self.rv[24].next = self.rx.hdr.val();
        self.rv[25].next = self.rx.bitset_hi.val();
        self.rv[26].next = self.rx.bitset_lo.val();
        self.rv[27].next = self.rx.len.val();
        self.rv[29].next = self.rx.status.val();
        self.rv[30].next = self.rx.result.val();
        self.rv[31].next = self.rx.known_lo.val();
        self.rv[32].next = self.rx.known_hi.val();
        self.rv[33].next = self.rx.stop.val();
        self.rv[34].next = self.rx.idle_limit.val();
        self.rv[35].next = self.rx.tick_div.val();
        self.rv[36].next = self.rx.ctx.val();
        self.rv[37].next = self.rx.ctx_known_lo.val();
        self.rv[38].next = self.rx.ctx_known_hi.val();
        self.rv[39].next = self.rx.msg_bytes.val();
        self.rv[41].next = self.rx.cnt[0].val();
        self.rv[42].next = self.rx.cnt[1].val();
        self.rv[43].next = self.rx.cnt[2].val();
        self.rv[44].next = self.rx.cnt[3].val();
        self.rv[45].next = self.rx.cnt[4].val();
        self.rv[46].next = self.rx.cnt[5].val();
        self.rv[47].next = self.rx.cnt[6].val();
        self.rv[48].next = self.rx.cnt[7].val();
        self.rv[57].next = self.tx.draws.val();

        // ---- the read path (`RegisterRead`, `WindowRead`) ----
        self.rd.re.next = self.bus_re.val();
        for i in 0..58 {
            self.rd.hit[i].next = self.hit[i].val();
            self.rd.value[i].next = self.rv[i].val();
        }
        self.rd_win.re.next = self.bus_re.val();
        self.rd_win.txsym.next = self.r_txsym.val();
        self.rd_win.rxmsg.next = self.r_rxmsg.val();
        self.rd_win.cq.next = self.r_cq.val();
        self.rd_win.txmeta.next = self.r_txmeta.val();
        self.rd_win.cq_empty_head.next = self.hit[49].val() & self.rx.cq_empty.val();
        self.rd_win.tx_data.next = self.tx.data.val();
        self.rd_win.rx_data.next = self.rx.msg_rdata.val();
        self.rd_win.cq_data.next = self.rx.cq_rdata.val();
        self.rd_win.tx_meta.next = self.tx.meta.val();
        self.bus_rdata.next = self.rd.data.val() | self.rd_win.data.val();
        self.active.next = self.tx.active.val() | self.rx.active.val();
    }
}
