//! RTL of the CB-LT decoder (CB-LT §6.6, §7.4–§7.6); the golden model is
//! `receiver.rs` (one context, tombstone, idle expiry) around `decoder.rs` (the GF(2) rows).
//!
//! `LtDecoder<W, RA, SA>`: a W-bit data path, `k_max` payload rows of 2^SA words in one block
//! RAM of 2^RA words (row q at word `q·2^SA`), a 64 × 64-bit coefficient RAM, and a one-row
//! accumulator RAM. Rows are kept fully reduced (RREF): slot q holds the row whose lowest bit
//! is q. Per symbol:
//!
//! 1. **Check** (SCREEN and CHECK, two clocks): §6.3's rules on the header beside the first
//!    beat, in the model's order; a tombstoned MSG_ID is AFTER_COMPLETE; another message while a
//!    context is open is INVALID. A rejected symbol is drained and changes nothing. The rules on
//!    the packet alone (length, size, the bitset against k) are evaluated on the incoming header
//!    and registered with it, as is `NPKT · S` (a constant table); SCREEN applies NPKT's rule and
//!    compares the header with the tombstone and the open context; CHECK decides from those
//!    registers. No table, add or compare is in series with another or with the state machine.
//!    The checks are a component of their own (`header_rtl::HeaderCheck`).
//! 2. **Reduce the mask**: `m' = m ⊕ coef_p` over the touched pivots `T = m ∧ valid`, one coef
//!    read per clock; the read address is a register, so a row is XORed two clocks after it is
//!    picked. `m' = 0` is REDUNDANT: the payload is drained with no RAM write.
//! 3. **Payload passes**, one word per clock: pass 0 takes the payload from the input and XORs
//!    the first touched row, the next passes XOR the other touched rows into the accumulator;
//!    the last of them also writes `y'` to row q (free, as slot q is not valid). Until pass 0
//!    has seen its last beat nothing but the accumulator and the free row q is written, so a
//!    framing error (beats disagree with the length) aborts with no state change. A word is
//!    issued, read (R, from a registered address), XORed (B) and written (C) in four stages;
//!    the issue waits while R or B holds the word it would read. The issue is a component of
//!    its own (`pass_issue_rtl::PassIssue`), as are R, B and C with the accumulator
//!    (`payload_rtl::PayloadStages`).
//! 4. **Back-elimination**: a scanner reads the valid coef rows (during the passes), one per
//!    clock with the read address registered, checks each a clock after the RAM returns it, and
//!    for each with bit q writes `coef_p ⊕ m'` and marks the row; then one pass per marked row
//!    does `row_p ^= y'`.
//! 5. **Install** `m'` at slot q; INNOVATIVE, or COMPLETE at rank k.
//!
//! What a result does to the statistics, the open context's counts and the tombstone, and the
//! idle timer, are a component of their own (`book_rtl::DecoderBook`). So are the state
//! machine that takes a symbol through these steps (`sequence_rtl::DecoderSequence`) and the
//! coefficient rows with their reduction, pivot, scan and install (`coef_rows_rtl::CoefRows`);
//! `LtDecoder` joins the components and owns the row RAM.
//!
//! On COMPLETE the rows are streamed out in order (`msg_*`, `msg_bytes` valid bytes per beat:
//! each row is S bytes, the message is truncated to MSG_SIZE), then the completion record
//! (`rec_*`) is held until `rec_ready`; the context is then freed and tombstoned. A context
//! with no valid symbol for `idle_limit` ticks of `tick` fails with a FAILED record.
//!
//! Every symbol ends with one `res_valid` clock: status (`Status::code`), reason
//! (`Invalid::code`, 10 for a framing error), rank and known_mask, and the header a STOP echoes.

use crate::rtl_util::{c, BlockRamRe};
use rust_hdl::prelude::*;

use super::book_rtl::DecoderBook;
use super::coef_rows_rtl::CoefRows;
use super::decoder::Status;
use super::header::Invalid;
use super::header_rtl::HeaderCheck;
use super::pass_issue_rtl::PassIssue;
use super::payload_rtl::PayloadStages;
use super::readout_rtl::RowReadout;
use super::scanner_rtl::ElimRows;
use super::sequence_rtl::DecoderSequence;
use super::{HEADER_LEN, K_MAX};

/// `res_reason` of a symbol whose beats disagree with its length (an RTL-only error).
pub const REASON_FRAMING: u8 = 10;

// `update` here and `sequence_rtl::DecoderSequence` use these status and reason codes as
// literals (hdl_gen takes no paths).
const _: () = assert!(
    Status::Invalid(Invalid::Truncated).code() == 0
        && Status::Redundant.code() == 1
        && Status::Innovative.code() == 2
        && Status::Complete.code() == 3
        && Status::AfterComplete.code() == 4
        && Invalid::Truncated.code() == 1
        && Invalid::MsgSizeZero.code() == 2
        && Invalid::MsgSizeTooLarge.code() == 3
        && Invalid::NpktMismatch.code() == 4
        && Invalid::EmptyBitset.code() == 5
        && Invalid::BitsetBeyondK.code() == 6
        && Invalid::PayloadLength.code() == 7
        && Invalid::OtherMessage.code() == 8
        && Invalid::KAboveCore.code() == 9
        && REASON_FRAMING == 10
        && HEADER_LEN == 12
        && K_MAX == 64
);

/// Counter outputs, in the order of [`LtDecoder::counters`].
pub const COUNTERS: [&str; 8] =
    ["symbols", "invalid", "framing", "redundant", "innovative", "after_complete", "complete", "failed"];

#[derive(LogicBlock)]
pub struct LtDecoder<const W: usize, const RA: usize, const SA: usize, const KM: usize> {
    pub clock: Signal<In, Clock>,
    /// RX symbols: one beat per payload word (little-endian bytes), `in_last` on the last;
    /// the UDP payload length, W0 and the bitset beside the first beat. A packet of 12 bytes or
    /// fewer is one beat.
    pub in_valid: Signal<In, Bit>,
    pub in_last: Signal<In, Bit>,
    pub in_data: Signal<In, Bits<W>>,
    pub in_len: Signal<In, Bits<16>>,
    pub in_hdr: Signal<In, Bits<32>>,
    pub in_bitset: Signal<In, Bits<64>>,
    pub in_ready: Signal<Out, Bit>,
    pub res_valid: Signal<Out, Bit>,
    pub res_status: Signal<Out, Bits<3>>,
    pub res_reason: Signal<Out, Bits<4>>,
    pub res_rank: Signal<Out, Bits<7>>,
    pub res_known: Signal<Out, Bits<64>>,
    pub res_hdr: Signal<Out, Bits<32>>,
    /// The message sink is ready: a beat is taken with `msg_valid`. The readout advances only
    /// while it is high, beat or not, so a sink must raise it without waiting for `msg_valid`.
    pub msg_ready: Signal<In, Bit>,
    pub msg_valid: Signal<Out, Bit>,
    pub msg_data: Signal<Out, Bits<W>>,
    pub msg_bytes: Signal<Out, Bits<8>>,
    pub msg_last: Signal<Out, Bit>,
    pub rec_ready: Signal<In, Bit>,
    pub rec_valid: Signal<Out, Bit>,
    pub rec_failed: Signal<Out, Bit>,
    pub rec_hdr: Signal<Out, Bits<32>>,
    pub rec_rank: Signal<Out, Bits<7>>,
    pub rec_known: Signal<Out, Bits<64>>,
    pub rec_seen: Signal<Out, Bits<32>>,
    pub rec_redundant: Signal<Out, Bits<32>>,
    pub rec_invalid: Signal<Out, Bits<32>>,
    /// Idle timer: one tick per pulse (merged while a symbol is in progress); 0 = never expire.
    pub tick: Signal<In, Bit>,
    pub idle_limit: Signal<In, Bits<16>>,
    /// Forget the context and the tombstone (counters keep counting).
    pub clear: Signal<In, Bit>,
    pub busy: Signal<Out, Bit>,
    pub ctx_open: Signal<Out, Bit>,
    pub ctx_rank: Signal<Out, Bits<7>>,
    pub ctx_known: Signal<Out, Bits<64>>,
    pub cnt_symbols: Signal<Out, Bits<32>>,
    pub cnt_invalid: Signal<Out, Bits<32>>,
    pub cnt_framing: Signal<Out, Bits<32>>,
    pub cnt_redundant: Signal<Out, Bits<32>>,
    pub cnt_innovative: Signal<Out, Bits<32>>,
    pub cnt_after_complete: Signal<Out, Bits<32>>,
    pub cnt_complete: Signal<Out, Bits<32>>,
    pub cnt_failed: Signal<Out, Bits<32>>,
    // parameters
    sa: Constant<Bits<RA>>,
    /// The state machine, the symbol's status and the drain.
    seq: DecoderSequence<SA>,
    /// §6.3's checks on the taken header, over SCREEN and CHECK; it holds the header.
    hc: HeaderCheck,
    /// The context's coefficient rows (RREF): the mask's reduction against them, the pivot,
    /// the back-elimination scan (before a scan it keeps the touched rows, pass 0's sources)
    /// and the install.
    rows: CoefRows<KM>,
    /// The statistics, the open context's header and counts, the tombstone, the idle timer.
    book: DecoderBook<KM>,
    /// Payload passes: the issue stage (which word of which row next), then `ps` (the row
    /// RAM's address in `rd_a`).
    pi: PassIssue<SA, KM>,
    /// The passes after their issue: read (R), XOR (B) and write (C), with the accumulator.
    ps: PayloadStages<W, SA, RA>,
    /// The rows whose ELIM pass is still to come, and the next of them.
    er: ElimRows<KM>,
    /// The message readout (READ): its address walk and beats.
    ro: RowReadout<RA, SA>,
    /// The row RAM's read address, a register: `{src, w}` of `pi` as a word issues (read stage
    /// R), the readout's `addr_next` in READ. The RAM's address pins
    /// (S = 1460 is 64 block RAMs on the ECP5) are driven by flip-flops, no multiplexer before.
    rd_a: DFF<Bits<RA>>,
    /// Read at `rd_a`; the read enable holds the readout's word while it waits.
    row_ram: BlockRamRe<W, RA>,
    // combinational
    ctx_k: Signal<Local, Bits<7>>,
}

impl<const W: usize, const RA: usize, const SA: usize, const KM: usize> LtDecoder<W, RA, SA, KM> {
    /// A decoder for symbols of `s` bytes and messages of up to `k_max` (≤ 64) symbols.
    /// Panics when the rows do not fit: `⌈S/(W/8)⌉ ≤ 2^SA` and `k_max·2^SA ≤ 2^RA`; W/8 must
    /// be a power of two.
    pub fn new(s: usize, k_max: usize) -> Self {
        let wb = W / 8;
        assert!(W.is_multiple_of(8) && wb.is_power_of_two() && wb <= 128, "W = {W}: W/8 must be a power of two up to 128");
        assert!((1..=super::S_MAX).contains(&s) && (1..=K_MAX).contains(&k_max));
        assert!(k_max <= KM && KM <= K_MAX, "k_max = {k_max} needs masks of KM ≥ k_max bits (KM = {KM}, at most 64)");
        let wps = s.div_ceil(wb);
        assert!(SA >= 1 && wps <= 1 << SA, "S = {s} at W = {W} needs {wps} words per row: SA = {SA} is too small");
        assert!(k_max << SA <= 1 << RA, "{k_max} rows of 2^{SA} words do not fit 2^{RA} words (RA)");
        LtDecoder {
            clock: Default::default(),
            in_valid: Default::default(),
            in_last: Default::default(),
            in_data: Default::default(),
            in_len: Default::default(),
            in_hdr: Default::default(),
            in_bitset: Default::default(),
            in_ready: Default::default(),
            res_valid: Default::default(),
            res_status: Default::default(),
            res_reason: Default::default(),
            res_rank: Default::default(),
            res_known: Default::default(),
            res_hdr: Default::default(),
            msg_ready: Default::default(),
            msg_valid: Default::default(),
            msg_data: Default::default(),
            msg_bytes: Default::default(),
            msg_last: Default::default(),
            rec_ready: Default::default(),
            rec_valid: Default::default(),
            rec_failed: Default::default(),
            rec_hdr: Default::default(),
            rec_rank: Default::default(),
            rec_known: Default::default(),
            rec_seen: Default::default(),
            rec_redundant: Default::default(),
            rec_invalid: Default::default(),
            tick: Default::default(),
            idle_limit: Default::default(),
            clear: Default::default(),
            busy: Default::default(),
            ctx_open: Default::default(),
            ctx_rank: Default::default(),
            ctx_known: Default::default(),
            cnt_symbols: Default::default(),
            cnt_invalid: Default::default(),
            cnt_framing: Default::default(),
            cnt_redundant: Default::default(),
            cnt_innovative: Default::default(),
            cnt_after_complete: Default::default(),
            cnt_complete: Default::default(),
            cnt_failed: Default::default(),
            sa: c(SA as u64),
            seq: DecoderSequence::new(wps),
            hc: HeaderCheck::new(s, k_max),
            rows: Default::default(),
            book: Default::default(),
            pi: PassIssue::new(wps),
            er: ElimRows::new(wps == 1),
            ps: Default::default(),
            rd_a: Default::default(),
            ro: RowReadout::new(s, wb),
            row_ram: Default::default(),
            ctx_k: Default::default(),
        }
    }

    /// The counter outputs in [`COUNTERS`] order (for the test engines).
    pub fn counters(&self) -> [u64; 8] {
        [
            self.cnt_symbols.val().to_u64(),
            self.cnt_invalid.val().to_u64(),
            self.cnt_framing.val().to_u64(),
            self.cnt_redundant.val().to_u64(),
            self.cnt_innovative.val().to_u64(),
            self.cnt_after_complete.val().to_u64(),
            self.cnt_complete.val().to_u64(),
            self.cnt_failed.val().to_u64(),
        ]
    }
}

impl<const W: usize, const RA: usize, const SA: usize, const KM: usize> Logic for LtDecoder<W, RA, SA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rd_a);
        clock!(self, clock, seq, hc, rows, book, pi, ps, er, ro);
        self.row_ram.read_clock.next = self.clock.val();
        self.row_ram.write_clock.next = self.clock.val();
        self.ctx_k.next = bit_cast::<7, 6>(self.book.ctx_hdr.val().get_bits::<6>(26)) + 1;

        // ---- the sequence (`DecoderSequence`): the other components' flags move it ----
        self.seq.in_valid.next = self.in_valid.val();
        self.seq.in_last.next = self.in_last.val();
        self.seq.tick.next = self.tick.val();
        self.seq.clear.next = self.clear.val();
        self.seq.hc_trunc.next = self.hc.trunc.val();
        self.seq.hc_tomb.next = self.hc.tomb.val();
        self.seq.hc_reason.next = self.hc.reason.val();
        self.seq.reduced.next = self.rows.reduced.val();
        self.seq.m_any.next = self.rows.m.val().any();
        self.seq.pass_elim_take.next = self.pi.elim_take.val();
        self.seq.pass_done.next = self.pi.passes_done.val();
        self.seq.pass_on.next = self.pi.on.val();
        self.seq.misframed.next = self.pi.misframed.val();
        self.seq.pass_commit.next = self.pi.commit.val();
        self.seq.scan_on.next = self.rows.scan_on.val();
        self.seq.er_ok.next = self.er.ok.val();
        self.seq.er_any.next = self.er.next_any.val();
        self.seq.stages_busy.next = self.ps.busy.val();
        self.seq.completes.next = (self.rows.rank.val() + 1) == self.ctx_k.val();
        self.seq.ro_done.next = self.ro.done.val();
        self.seq.rec_ready.next = self.rec_ready.val();
        self.seq.expire.next = self.book.expire.val();
        self.busy.next = self.seq.busy.val();

        // ---- §6.3 checks (`HeaderCheck`): the packet's first beat is taken in IDLE, judged
        // against the tombstone and the open context in SCREEN, decided in CHECK ----
        self.hc.take.next = self.seq.take.val();
        self.hc.in_hdr.next = self.in_hdr.val();
        self.hc.in_len.next = self.in_len.val();
        self.hc.in_bitset.next = self.in_bitset.val();
        self.hc.tomb_v.next = self.book.tomb_v.val();
        self.hc.tomb_id.next = self.book.tomb_hdr.val().get_bits::<8>(0);
        self.hc.bound.next = self.book.bound.val();
        self.hc.ctx_hdr.next = self.book.ctx_hdr.val();

        // ---- the book (`DecoderBook`): its events come from the sequence ----
        self.book.commit.next = self.seq.commit.val();
        self.book.hdr.next = self.hc.hdr.val();
        self.book.result.next = self.seq.result.val();
        self.book.code.next = self.seq.code.val();
        self.book.reason.next = self.seq.reason.val();
        self.book.free.next = self.seq.free.val();
        self.book.rank.next = self.rows.rank.val();
        self.book.known.next = self.rows.known.val();
        self.book.tick_step.next = self.seq.tick_step.val();
        self.book.idle_limit.next = self.idle_limit.val();
        self.book.clear.next = self.clear.val();
        self.ctx_open.next = self.book.bound.val();
        self.ctx_rank.next = self.book.live_rank.val();
        self.ctx_known.next = bit_cast::<64, KM>(self.book.live_known.val());
        self.cnt_symbols.next = self.book.cnt_symbols.val();
        self.cnt_invalid.next = self.book.cnt_invalid.val();
        self.cnt_framing.next = self.book.cnt_framing.val();
        self.cnt_redundant.next = self.book.cnt_redundant.val();
        self.cnt_innovative.next = self.book.cnt_innovative.val();
        self.cnt_after_complete.next = self.book.cnt_after_complete.val();
        self.cnt_complete.next = self.book.cnt_complete.val();
        self.cnt_failed.next = self.book.cnt_failed.val();

        // ---- result and record outputs ----
        self.res_valid.next = self.seq.result.val();
        self.res_status.next = self.seq.code.val();
        self.res_reason.next = self.seq.reason.val();
        self.res_rank.next = self.book.live_rank.val();
        self.res_known.next = bit_cast::<64, KM>(self.book.live_known.val());
        self.res_hdr.next = self.hc.hdr.val();
        if self.seq.code.val() == 4 {
            self.res_rank.next = self.book.tomb_rank.val();
            self.res_known.next = bit_cast::<64, KM>(self.book.tomb_known.val());
            self.res_hdr.next = self.book.tomb_hdr.val();
        }
        self.rec_valid.next = self.seq.record.val();
        self.rec_failed.next = self.book.failed.val();
        self.rec_hdr.next = self.book.ctx_hdr.val();
        self.rec_rank.next = self.rows.rank.val();
        self.rec_known.next = bit_cast::<64, KM>(self.rows.known.val());
        self.rec_seen.next = self.book.seen.val();
        self.rec_redundant.next = self.book.redundant.val();
        self.rec_invalid.next = self.book.invalid.val();

        // ---- the rows (`CoefRows`): reduced in REDUCE, scanned for back-elimination during
        // the passes (`ElimRows` keeps the rows it writes for ELIM) ----
        self.rows.load.next = self.seq.load.val();
        self.rows.bits.next = bit_cast::<KM, 64>(self.hc.bits.val());
        self.rows.reduce.next = self.seq.reduce.val();
        self.rows.decide.next = self.seq.decide.val();
        self.rows.scan.next = self.seq.commit.val();
        self.rows.install.next = self.seq.install.val();
        self.rows.free.next = self.seq.free.val();
        self.rows.clear.next = self.clear.val();
        self.er.add.next = self.rows.wr.val();
        self.er.add_oh.next = self.rows.wr_oh.val();
        self.er.take.next = self.seq.er_take.val();
        self.er.zero.next = self.seq.decide.val();

        // ---- payload passes: issue (`PassIssue`), then read, XOR and write (`PayloadStages`) ----
        self.pi.start.next = self.seq.decide.val();
        self.pi.rem.next = self.rows.rem.val();
        self.pi.low_oh.next = self.rows.low_oh.val();
        self.pi.low_idx.next = self.rows.low_idx.val();
        self.pi.start_elim.next = self.seq.start_elim.val();
        self.pi.elim_any.next = self.er.next_any.val();
        self.pi.elim_idx.next = self.er.next_idx.val();
        self.pi.in_valid.next = self.in_valid.val();
        self.pi.in_last.next = self.in_last.val();
        self.pi.same_word.next = self.ps.same_word.val();
        self.pi.clear.next = self.clear.val();
        self.in_ready.next = self.pi.take_beat.val() | self.seq.drain.val();
        self.ps.issue.next = self.pi.issue.val();
        self.ps.kind.next = self.pi.kind.val();
        self.ps.w.next = self.pi.w.val();
        self.ps.src.next = self.pi.src.val();
        self.ps.has.next = self.pi.has.val();
        self.ps.rowq.next = self.pi.rowq.val();
        self.ps.in_data.next = self.in_data.val();
        self.ps.q_idx.next = self.rows.q_idx.val();
        self.ps.row_word.next = self.row_ram.read_data.val();
        self.ps.clear.next = self.clear.val();
        self.row_ram.write_enable.next = self.ps.row_we.val();
        self.row_ram.write_address.next = self.ps.row_addr.val();
        self.row_ram.write_data.next = self.ps.row_data.val();

        // ---- readout (`RowReadout`): its stages advance while the sink is ready; the row RAM
        // holds its word (read enable low) while it waits (the passes read every clock) ----
        self.ro.start.next = self.seq.ro_start.val();
        self.ro.size.next = bit_cast::<19, 18>(self.book.ctx_hdr.val().get_bits::<18>(8));
        self.ro.msg_ready.next = self.msg_ready.val();
        self.ro.clear.next = self.clear.val();
        self.msg_valid.next = self.ro.msg_valid.val();
        self.msg_data.next = self.row_ram.read_data.val();
        self.msg_bytes.next = self.ro.msg_bytes.val();
        self.msg_last.next = self.ro.msg_last.val();
        self.row_ram.read_address.next = self.rd_a.q.val();
        self.row_ram.read_enable.next = self.msg_ready.val() | !self.ro.active.val();
        // the row RAM's address for the next clock: the word the passes issue now (read in R),
        // or the readout's
        self.rd_a.d.next = (bit_cast::<RA, 6>(self.pi.src.val()) << self.sa.val()) | bit_cast::<RA, SA>(self.pi.w.val());
        if self.ro.active_next.val() {
            self.rd_a.d.next = self.ro.addr_next.val();
        }
    }
}
