//! RTL of the NIC's receive half: the RX staging registers and their feeder, the CB-LT decoder,
//! the RX message capture, the completion queue, the last result, the idle timer's registers
//! and the RX clear, joined. `NicTop` (`rtl.rs`) decodes the bus for it and reads its values
//! into the register map; the NIC's tests drive it through the bus (`sim-tests/tests/nic.rs`,
//! `host-driver/tests/nic.rs`), and each part it joins has its own test.

use rust_hdl::prelude::*;

use super::completion_queue::CompletionQueue;
use super::msg_capture::MsgCapture;
use super::rx_feeder::RxFeeder;
use super::tick_divider::TickDivider;
use crate::cblt::decoder_rtl::LtDecoder;

/// The receive half for symbols in slots of 2^SA words, messages of 2^MA words and masks of KM
/// bits. Its inputs are the bus decode's strobes for its registers:
/// - the RX staging writes (`stage_we` into the window, `reg_we` with `hit_*` to `RX_HDR` ..=
///   `RX_PUSH`) reach the feeder a clock after the bus write, with the bus stage's registered
///   address and data (`waddr`, `wdata_r`), so a write refused while a push is in flight is
///   judged as it lands;
/// - `RX_IDLE_LIMIT` (`idle_we`) and `RX_TICK_DIV` (`div_we`) take `wdata` at the write's edge;
/// - CTRL's RX clear (`clear_we`) and `CQ_POP` (`pop_we`) take effect a clock after their write,
///   and the RAMs' read addresses follow the heads' next values, so a read in the next clock
///   still sees them; `RX_MSG_ACK` (`ack_we`) frees the message window at the write's edge;
/// - `rd_addr` is the bus word address, for the message window and the queue's record.
///
/// Its outputs are the values of its registers (`RX_*`, `CQ_*`), the window words, `feeding`
/// (a push is in flight: writes to the staging registers are refused) and `active` (the
/// receive half has work it can make progress on).
#[derive(LogicBlock)]
pub struct NicRx<const MA: usize, const SA: usize, const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub stage_we: Signal<In, Bit>,
    pub reg_we: Signal<In, Bit>,
    pub hit_hdr: Signal<In, Bit>,
    pub hit_bhi: Signal<In, Bit>,
    pub hit_blo: Signal<In, Bit>,
    pub hit_len: Signal<In, Bit>,
    pub hit_push: Signal<In, Bit>,
    pub waddr: Signal<In, Bits<SA>>,
    pub wdata_r: Signal<In, Bits<32>>,
    pub wdata: Signal<In, Bits<32>>,
    pub idle_we: Signal<In, Bit>,
    pub div_we: Signal<In, Bit>,
    pub clear_we: Signal<In, Bit>,
    pub ack_we: Signal<In, Bit>,
    pub pop_we: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<20>>,
    pub feeding: Signal<Out, Bit>,
    pub active: Signal<Out, Bit>,
    /// `RX_HDR`, `RX_BITSET_HI`, `RX_BITSET_LO`, `RX_LEN`.
    pub hdr: Signal<Out, Bits<32>>,
    pub bitset_hi: Signal<Out, Bits<32>>,
    pub bitset_lo: Signal<Out, Bits<32>>,
    pub len: Signal<Out, Bits<32>>,
    /// `RX_STATUS`, `RX_RESULT`, `RX_KNOWN_LO`, `RX_KNOWN_HI`, `RX_STOP_HDR`.
    pub status: Signal<Out, Bits<32>>,
    pub result: Signal<Out, Bits<32>>,
    pub known_lo: Signal<Out, Bits<32>>,
    pub known_hi: Signal<Out, Bits<32>>,
    pub stop: Signal<Out, Bits<32>>,
    /// `RX_IDLE_LIMIT`, `RX_TICK_DIV`.
    pub idle_limit: Signal<Out, Bits<32>>,
    pub tick_div: Signal<Out, Bits<32>>,
    /// `RX_CTX`, `RX_CTX_KNOWN_LO`, `RX_CTX_KNOWN_HI`, `RX_MSG_BYTES`.
    pub ctx: Signal<Out, Bits<32>>,
    pub ctx_known_lo: Signal<Out, Bits<32>>,
    pub ctx_known_hi: Signal<Out, Bits<32>>,
    pub msg_bytes: Signal<Out, Bits<32>>,
    /// `RX_CNT_*`, in `decoder_rtl::COUNTERS` order.
    pub cnt: [Signal<Out, Bits<32>>; 8],
    /// The completion queue is empty; the message window's and the queue's words at `rd_addr`.
    pub cq_empty: Signal<Out, Bit>,
    pub msg_rdata: Signal<Out, Bits<32>>,
    pub cq_rdata: Signal<Out, Bits<32>>,
    feeder: RxFeeder<SA>,
    dec: LtDecoder<32, MA, SA, KM>,
    capture: MsgCapture<MA, SA>,
    cq: CompletionQueue,
    /// `RX_TICK_DIV` and the decoder's idle ticks.
    ticks: TickDivider,
    /// The staging writes, a clock after the bus write.
    rw_stage: DFF<Bit>,
    rw_we: DFF<Bit>,
    rw_hdr: DFF<Bit>,
    rw_bhi: DFF<Bit>,
    rw_blo: DFF<Bit>,
    rw_len: DFF<Bit>,
    rw_push: DFF<Bit>,
    /// The RX clear and the queue's pop, a clock after their write (the bus decode is off the
    /// many resets the clear drives).
    clear_r: DFF<Bit>,
    pop_r: DFF<Bit>,
    idle_limit_r: DFF<Bits<16>>,
    // the last result
    res_seq: DFF<Bits<16>>,
    res_word: DFF<Bits<32>>,
    res_known: DFF<Bits<64>>,
    res_stop: DFF<Bits<32>>,
}

impl<const MA: usize, const SA: usize, const KM: usize> NicRx<MA, SA, KM> {
    /// The receive half for symbols of `s` bytes and messages of up to `k_max` symbols.
    pub fn new(s: usize, k_max: usize) -> Self {
        NicRx {
            clock: Default::default(),
            stage_we: Default::default(),
            reg_we: Default::default(),
            hit_hdr: Default::default(),
            hit_bhi: Default::default(),
            hit_blo: Default::default(),
            hit_len: Default::default(),
            hit_push: Default::default(),
            waddr: Default::default(),
            wdata_r: Default::default(),
            wdata: Default::default(),
            idle_we: Default::default(),
            div_we: Default::default(),
            clear_we: Default::default(),
            ack_we: Default::default(),
            pop_we: Default::default(),
            rd_addr: Default::default(),
            feeding: Default::default(),
            active: Default::default(),
            hdr: Default::default(),
            bitset_hi: Default::default(),
            bitset_lo: Default::default(),
            len: Default::default(),
            status: Default::default(),
            result: Default::default(),
            known_lo: Default::default(),
            known_hi: Default::default(),
            stop: Default::default(),
            idle_limit: Default::default(),
            tick_div: Default::default(),
            ctx: Default::default(),
            ctx_known_lo: Default::default(),
            ctx_known_hi: Default::default(),
            msg_bytes: Default::default(),
            cnt: Default::default(),
            cq_empty: Default::default(),
            msg_rdata: Default::default(),
            cq_rdata: Default::default(),
            feeder: Default::default(),
            dec: LtDecoder::new(s, k_max),
            capture: MsgCapture::new(s.div_ceil(4)),
            cq: Default::default(),
            ticks: Default::default(),
            rw_stage: Default::default(),
            rw_we: Default::default(),
            rw_hdr: Default::default(),
            rw_bhi: Default::default(),
            rw_blo: Default::default(),
            rw_len: Default::default(),
            rw_push: Default::default(),
            clear_r: Default::default(),
            pop_r: Default::default(),
            idle_limit_r: Default::default(),
            res_seq: Default::default(),
            res_word: Default::default(),
            res_known: Default::default(),
            res_stop: Default::default(),
        }
    }
}

impl<const MA: usize, const SA: usize, const KM: usize> Logic for NicRx<MA, SA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, rw_stage, rw_we, rw_hdr, rw_bhi, rw_blo, rw_len, rw_push, clear_r, pop_r, idle_limit_r, res_seq, res_word, res_known, res_stop
        );
        clock!(self, clock, feeder, dec, capture, cq, ticks);

        // ---- RX staging and feeder: host writes (a clock later) while no push is in flight ----
        self.rw_stage.d.next = self.stage_we.val();
        self.rw_we.d.next = self.reg_we.val();
        self.rw_hdr.d.next = self.hit_hdr.val();
        self.rw_bhi.d.next = self.hit_bhi.val();
        self.rw_blo.d.next = self.hit_blo.val();
        self.rw_len.d.next = self.hit_len.val();
        self.rw_push.d.next = self.hit_push.val();
        self.feeder.stage_we.next = self.rw_stage.q.val();
        self.feeder.addr.next = self.waddr.val();
        self.feeder.wdata.next = self.wdata_r.val();
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

        // ---- results, idle ticks, clear ----
        if self.dec.res_valid.val() {
            self.res_seq.d.next = self.res_seq.q.val() + 1;
            self.res_word.d.next = bit_cast::<32, 3>(self.dec.res_status.val())
                | (bit_cast::<32, 4>(self.dec.res_reason.val()) << 4)
                | (bit_cast::<32, 7>(self.dec.res_rank.val()) << 8);
            self.res_known.d.next = self.dec.res_known.val();
            self.res_stop.d.next = self.dec.res_hdr.val();
        }
        if self.idle_we.val() {
            self.idle_limit_r.d.next = self.wdata.val().get_bits::<16>(0);
        }
        self.ticks.we.next = self.div_we.val();
        self.ticks.wdata.next = self.wdata.val();
        self.dec.tick.next = self.ticks.tick.val();
        self.dec.idle_limit.next = self.idle_limit_r.q.val();
        self.clear_r.d.next = self.clear_we.val();
        self.dec.clear.next = self.clear_r.q.val();

        // ---- RX message capture, and the completion queue ----
        self.capture.msg_valid.next = self.dec.msg_valid.val();
        self.capture.msg_data.next = self.dec.msg_data.val();
        self.capture.msg_bytes.next = self.dec.msg_bytes.val();
        self.capture.msg_last.next = self.dec.msg_last.val();
        self.capture.free.next = self.ack_we.val() | self.clear_r.q.val();
        self.capture.rd_addr.next = bit_cast::<MA, 20>(self.rd_addr.val());
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
        self.pop_r.d.next = self.pop_we.val();
        self.cq.pop.next = self.pop_r.q.val();
        self.cq.clear.next = self.clear_r.q.val();
        self.cq.rd_word.next = bit_cast::<3, 20>(self.rd_addr.val());

        // ---- the values of its registers and windows ----
        self.feeding.next = self.feeder.on.val();
        self.active.next =
            self.feeder.on.val() | (self.dec.busy.val() & self.capture.msg_ready.val() & !(self.dec.rec_valid.val() & self.cq.full.val()));
        self.hdr.next = self.feeder.hdr.val();
        self.bitset_hi.next = self.feeder.bitset_hi.val();
        self.bitset_lo.next = self.feeder.bitset_lo.val();
        self.len.next = bit_cast::<32, 16>(self.feeder.len.val());
        self.status.next = ((bit_cast::<32, 3>(self.cq.count.val()) << 8) | (bit_cast::<32, 16>(self.res_seq.q.val()) << 16))
            .replace_bit(0, self.feeder.on.val())
            .replace_bit(1, self.dec.busy.val())
            .replace_bit(2, self.dec.ctx_open.val())
            .replace_bit(3, self.capture.full.val());
        self.result.next = self.res_word.q.val();
        self.known_lo.next = self.res_known.q.val().get_bits::<32>(0);
        self.known_hi.next = self.res_known.q.val().get_bits::<32>(32);
        self.stop.next = self.res_stop.q.val();
        self.idle_limit.next = bit_cast::<32, 16>(self.idle_limit_r.q.val());
        self.tick_div.next = self.ticks.div.val();
        self.ctx.next = bit_cast::<32, 7>(self.dec.ctx_rank.val()).replace_bit(8, self.dec.ctx_open.val());
        self.ctx_known_lo.next = self.dec.ctx_known.val().get_bits::<32>(0);
        self.ctx_known_hi.next = self.dec.ctx_known.val().get_bits::<32>(32);
        self.msg_bytes.next = self.capture.bytes.val();
        self.cnt[0].next = self.dec.cnt_symbols.val();
        self.cnt[1].next = self.dec.cnt_invalid.val();
        self.cnt[2].next = self.dec.cnt_framing.val();
        self.cnt[3].next = self.dec.cnt_redundant.val();
        self.cnt[4].next = self.dec.cnt_innovative.val();
        self.cnt[5].next = self.dec.cnt_after_complete.val();
        self.cnt[6].next = self.dec.cnt_complete.val();
        self.cnt[7].next = self.dec.cnt_failed.val();
        self.cq_empty.next = self.cq.count.val() == 0;
        self.msg_rdata.next = self.capture.rdata.val();
        self.cq_rdata.next = self.cq.rdata.val();
    }
}
