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
//! idle timer, are a component of their own (`book_rtl::DecoderBook`).
//!
//! On COMPLETE the rows are streamed out in order (`msg_*`, `msg_bytes` valid bytes per beat:
//! each row is S bytes, the message is truncated to MSG_SIZE), then the completion record
//! (`rec_*`) is held until `rec_ready`; the context is then freed and tombstoned. A context
//! with no valid symbol for `idle_limit` ticks of `tick` fails with a FAILED record.
//!
//! Every symbol ends with one `res_valid` clock: status (`Status::code`), reason
//! (`Invalid::code`, 10 for a framing error), rank and known_mask, and the header a STOP echoes.

use crate::rtl_util::{c, BlockRam, BlockRamRe, LowestOne};
use rust_hdl::prelude::*;

use super::book_rtl::DecoderBook;
use super::decoder::Status;
use super::header::Invalid;
use super::header_rtl::HeaderCheck;
use super::pass_issue_rtl::PassIssue;
use super::payload_rtl::PayloadStages;
use super::readout_rtl::RowReadout;
use super::scanner_rtl::{ElimRows, ElimScanner};
use super::{HEADER_LEN, K_MAX};

/// `res_reason` of a symbol whose beats disagree with its length (an RTL-only error).
pub const REASON_FRAMING: u8 = 10;

// `update` uses these status and reason codes as literals (hdl_gen takes no paths).
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
    last_word: Constant<Bits<SA>>,
    sa: Constant<Bits<RA>>,
    // the symbol in progress
    state: DFF<Bits<4>>,
    /// §6.3's checks on the taken header, over SCREEN and CHECK; it holds the header.
    hc: HeaderCheck,
    st_code: DFF<Bits<3>>,
    st_reason: DFF<Bits<4>>,
    dr_check: DFF<Bit>,
    dr_w: DFF<Bits<SA>>,
    dr_over: DFF<Bit>,
    // the context's rows
    rank: DFF<Bits<7>>,
    valid: DFF<Bits<KM>>,
    known: DFF<Bits<KM>>,
    /// The statistics, the open context's header and counts, the tombstone, the idle timer.
    book: DecoderBook<KM>,
    tick_pend: DFF<Bit>,
    // mask reduction
    /// The touched rows left to XOR in REDUCE, then m' in DECIDE.
    red_rem: DFF<Bits<KM>>,
    /// A touched row's read is issued (its index in `coef_ra`), and its row is on the coefficient
    /// RAM's output (`red_pend`, a clock later).
    red_iss: DFF<Bit>,
    red_pend: DFF<Bit>,
    /// The coefficient RAM's read address, registered: the lowest-one units feed a register, not
    /// the block RAM's address pins, so a read takes two clocks from the set to the row.
    coef_ra: DFF<Bits<6>>,
    m: DFF<Bits<KM>>,
    q_oh: DFF<Bits<KM>>,
    q_idx: DFF<Bits<6>>,
    /// Payload passes: the issue stage (which word of which row next), then `ps` (the row
    /// RAM's address in `rd_a`).
    pi: PassIssue<SA, KM>,
    /// The passes after their issue: read (R), XOR (B) and write (C), with the accumulator.
    ps: PayloadStages<W, SA, RA>,
    /// The back-elimination scanner; before a scan it keeps the touched rows (pass 0's
    /// sources) and their lowest.
    sc: ElimScanner<KM>,
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
    coef_ram: BlockRam<KM, 6>,
    lo_a: LowestOne<KM>,
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
            last_word: c(wps as u64 - 1),
            sa: c(SA as u64),
            state: Default::default(),
            hc: HeaderCheck::new(s, k_max),
            st_code: Default::default(),
            st_reason: Default::default(),
            dr_check: Default::default(),
            dr_w: Default::default(),
            dr_over: Default::default(),
            rank: Default::default(),
            valid: Default::default(),
            known: Default::default(),
            book: Default::default(),
            tick_pend: Default::default(),
            red_rem: Default::default(),
            red_iss: Default::default(),
            red_pend: Default::default(),
            coef_ra: Default::default(),
            m: Default::default(),
            q_oh: Default::default(),
            q_idx: Default::default(),
            pi: PassIssue::new(wps),
            sc: Default::default(),
            er: ElimRows::new(wps == 1),
            ps: Default::default(),
            rd_a: Default::default(),
            ro: RowReadout::new(s, wb),
            row_ram: Default::default(),
            coef_ram: Default::default(),
            lo_a: Default::default(),
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

// States.
// 0 IDLE, 1 SCREEN, 12 CHECK, 2 REDUCE, 3 DECIDE, 4 PASS, 5 ELIM, 6 INSTALL, 7 DRAIN, 8 RESULT,
// 9 READ, 10 RECORD, 11 TICK.

impl<const W: usize, const RA: usize, const SA: usize, const KM: usize> Logic for LtDecoder<W, RA, SA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, st_code, st_reason, dr_check, dr_w, dr_over, rank, valid, known, tick_pend, red_rem, red_iss, red_pend, coef_ra, m, q_oh, q_idx, rd_a
        );
        self.row_ram.read_clock.next = self.clock.val();
        self.row_ram.write_clock.next = self.clock.val();
        self.coef_ram.read_clock.next = self.clock.val();
        self.coef_ram.write_clock.next = self.clock.val();
        self.cnt_symbols.next = self.book.cnt_symbols.val();
        self.cnt_invalid.next = self.book.cnt_invalid.val();
        self.cnt_framing.next = self.book.cnt_framing.val();
        self.cnt_redundant.next = self.book.cnt_redundant.val();
        self.cnt_innovative.next = self.book.cnt_innovative.val();
        self.cnt_after_complete.next = self.book.cnt_after_complete.val();
        self.cnt_complete.next = self.book.cnt_complete.val();
        self.cnt_failed.next = self.book.cnt_failed.val();
        if self.tick.val() {
            self.tick_pend.d.next = true;
        }

        // ---- §6.3 checks (`HeaderCheck`): the packet's first beat is taken in IDLE, judged
        // against the tombstone and the open context in SCREEN, decided in CHECK ----
        self.hc.clock.next = self.clock.val();
        self.hc.take.next = (self.state.q.val() == 0) & !self.tick_pend.q.val() & self.in_valid.val();
        self.hc.in_hdr.next = self.in_hdr.val();
        self.hc.in_len.next = self.in_len.val();
        self.hc.in_bitset.next = self.in_bitset.val();
        self.hc.tomb_v.next = self.book.tomb_v.val();
        self.hc.tomb_id.next = self.book.tomb_hdr.val().get_bits::<8>(0);
        self.hc.bound.next = self.book.bound.val();
        self.hc.ctx_hdr.next = self.book.ctx_hdr.val();

        // ---- the book (`DecoderBook`): its events come from the sequence below ----
        self.book.clock.next = self.clock.val();
        self.book.commit.next = false;
        self.book.hdr.next = self.hc.hdr.val();
        self.book.result.next = self.state.q.val() == 8;
        self.book.code.next = self.st_code.q.val();
        self.book.reason.next = self.st_reason.q.val();
        self.book.free.next = (self.state.q.val() == 10) & self.rec_ready.val();
        self.book.rank.next = self.rank.q.val();
        self.book.known.next = self.known.q.val();
        self.book.tick_step.next = self.state.q.val() == 11;
        self.book.idle_limit.next = self.idle_limit.val();
        self.book.clear.next = self.clear.val();
        self.ctx_k.next = bit_cast::<7, 6>(self.book.ctx_hdr.val().get_bits::<6>(26)) + 1;
        self.ctx_open.next = self.book.bound.val();
        self.ctx_rank.next = self.book.live_rank.val();
        self.ctx_known.next = bit_cast::<64, KM>(self.book.live_known.val());
        self.busy.next = (self.state.q.val() != 0) | self.tick_pend.q.val();

        // ---- result, message and record outputs ----
        self.res_valid.next = self.state.q.val() == 8;
        self.res_status.next = self.st_code.q.val();
        self.res_reason.next = self.st_reason.q.val();
        self.res_rank.next = self.book.live_rank.val();
        self.res_known.next = bit_cast::<64, KM>(self.book.live_known.val());
        self.res_hdr.next = self.hc.hdr.val();
        if self.st_code.q.val() == 4 {
            self.res_rank.next = self.book.tomb_rank.val();
            self.res_known.next = bit_cast::<64, KM>(self.book.tomb_known.val());
            self.res_hdr.next = self.book.tomb_hdr.val();
        }
        self.msg_valid.next = self.ro.msg_valid.val();
        self.msg_data.next = self.row_ram.read_data.val();
        self.msg_bytes.next = self.ro.msg_bytes.val();
        self.msg_last.next = self.ro.msg_last.val();
        self.rec_valid.next = self.state.q.val() == 10;
        self.rec_failed.next = self.book.failed.val();
        self.rec_hdr.next = self.book.ctx_hdr.val();
        self.rec_rank.next = self.rank.q.val();
        self.rec_known.next = bit_cast::<64, KM>(self.known.q.val());
        self.rec_seen.next = self.book.seen.val();
        self.rec_redundant.next = self.book.redundant.val();
        self.rec_invalid.next = self.book.invalid.val();

        // ---- lowest-one units, each on one register (no multiplexer before its carry chain):
        // lo_a on `red_rem` (the touched rows in REDUCE, then m' for DECIDE's pivot), the
        // scanner's on its rows (the touched rows for pass 0's source in DECIDE, then the rows
        // to scan), `PassIssue`'s on the passes' sources, `ElimRows`'s on the rows to eliminate ----
        self.lo_a.x.next = self.red_rem.q.val();
        self.er.clock.next = self.clock.val();
        self.er.add_oh.next = self.sc.wr_oh.val();
        self.sc.clock.next = self.clock.val();
        self.sc.load.next = false;
        self.sc.touched.next = bit_cast::<KM, 64>(self.hc.bits.val()) & self.valid.q.val();
        self.sc.start.next = false;
        self.sc.valid.next = self.valid.q.val();
        self.sc.coef.next = self.coef_ram.read_data.val();
        self.sc.m.next = self.m.q.val();
        self.sc.q_oh.next = self.q_oh.q.val();
        self.sc.clear.next = self.clear.val();
        self.coef_ra.d.next = self.lo_a.idx.val();
        if self.sc.on.val() {
            self.coef_ra.d.next = self.sc.read_idx.val();
        }
        self.coef_ram.read_address.next = self.coef_ra.q.val();
        self.coef_ram.write_enable.next = false;
        self.coef_ram.write_address.next = self.sc.wr_idx.val();
        self.coef_ram.write_data.next = self.sc.wr_row.val();

        // ---- payload passes: issue (`PassIssue`), then read, XOR and write (`PayloadStages`) ----
        self.pi.clock.next = self.clock.val();
        self.pi.start.next = false;
        self.pi.rem.next = self.sc.rem.val();
        self.pi.low_oh.next = self.sc.low_oh.val();
        self.pi.low_idx.next = self.sc.low_idx.val();
        self.pi.start_elim.next = false;
        self.pi.elim_any.next = self.er.next_any.val();
        self.pi.elim_idx.next = self.er.next_idx.val();
        self.pi.in_valid.next = self.in_valid.val();
        self.pi.in_last.next = self.in_last.val();
        self.pi.same_word.next = self.ps.same_word.val();
        self.pi.clear.next = self.clear.val();
        self.in_ready.next = self.pi.take_beat.val();
        self.er.take.next = false;
        self.er.add.next = false;
        self.er.zero.next = false;
        self.ps.clock.next = self.clock.val();
        self.ps.issue.next = self.pi.issue.val();
        self.ps.kind.next = self.pi.kind.val();
        self.ps.w.next = self.pi.w.val();
        self.ps.src.next = self.pi.src.val();
        self.ps.has.next = self.pi.has.val();
        self.ps.rowq.next = self.pi.rowq.val();
        self.ps.in_data.next = self.in_data.val();
        self.ps.q_idx.next = self.q_idx.q.val();
        self.ps.row_word.next = self.row_ram.read_data.val();
        self.ps.clear.next = self.clear.val();
        self.row_ram.write_enable.next = self.ps.row_we.val();
        self.row_ram.write_address.next = self.ps.row_addr.val();
        self.row_ram.write_data.next = self.ps.row_data.val();

        // ---- back-elimination scanner: coef rows with bit q get m' XORed in ----
        if self.sc.wr.val() {
            self.er.add.next = true;
            self.coef_ram.write_enable.next = true;
            self.known.d.next = self.known.q.val() & !self.sc.wr_oh.val();
            if self.sc.wr_same.val() {
                self.known.d.next = self.known.q.val() | self.sc.wr_oh.val();
            }
        }

        // ---- readout (`RowReadout`): its stages advance while the sink is ready; the row RAM
        // holds its word (read enable low) while it waits ----
        self.ro.clock.next = self.clock.val();
        self.ro.start.next = false;
        self.ro.size.next = bit_cast::<19, 18>(self.book.ctx_hdr.val().get_bits::<18>(8));
        self.ro.msg_ready.next = self.msg_ready.val();
        self.ro.clear.next = self.clear.val();
        self.row_ram.read_address.next = self.rd_a.q.val();
        // (the passes read every clock)
        self.row_ram.read_enable.next = self.msg_ready.val() | !self.ro.active.val();

        // ---- the sequence ----
        if self.state.q.val() == 0 {
            // IDLE: a pending tick first, then the next packet's first beat (not taken yet)
            if self.tick_pend.q.val() {
                self.state.d.next = 11.into();
            } else if self.in_valid.val() {
                // (`hc` takes the header)
                self.dr_check.d.next = false;
                self.dr_w.d.next = 0.into();
                self.dr_over.d.next = false;
                self.st_reason.d.next = 0.into();
                self.state.d.next = 1.into();
            }
        }
        if self.state.q.val() == 1 {
            // SCREEN: `hc` judges the header
            self.state.d.next = 12.into();
        }
        if self.state.q.val() == 12 {
            // CHECK
            self.state.d.next = 7.into();
            if self.hc.trunc.val() {
                self.st_code.d.next = 0.into();
                self.st_reason.d.next = 1.into();
            } else if self.hc.tomb.val() {
                self.st_code.d.next = 4.into();
            } else if self.hc.reason.val().any() {
                self.st_code.d.next = 0.into();
                self.st_reason.d.next = self.hc.reason.val();
            } else {
                // the header check has passed: no bit at or above k ≤ k_max ≤ KM is set
                self.sc.load.next = true;
                self.red_rem.d.next = bit_cast::<KM, 64>(self.hc.bits.val()) & self.valid.q.val();
                self.m.d.next = bit_cast::<KM, 64>(self.hc.bits.val());
                self.red_iss.d.next = false;
                self.red_pend.d.next = false;
                self.state.d.next = 2.into();
            }
        }
        if self.state.q.val() == 2 {
            // REDUCE: one touched coef row per clock, XORed in two clocks after it is picked
            if self.red_pend.q.val() {
                self.m.d.next = self.m.q.val() ^ self.coef_ram.read_data.val();
            }
            self.red_iss.d.next = self.red_rem.q.val().any();
            self.red_pend.d.next = self.red_iss.q.val();
            if self.red_rem.q.val().any() {
                self.red_rem.d.next = self.red_rem.q.val() & !self.lo_a.oh.val();
            } else if !self.red_iss.q.val() & !self.red_pend.q.val() {
                // m' is final: DECIDE takes its lowest one from `red_rem`'s unit
                self.red_rem.d.next = self.m.q.val();
                self.state.d.next = 3.into();
            }
        }
        if self.state.q.val() == 3 {
            // DECIDE: redundant, or pivot q and pass 0
            if !self.m.q.val().any() {
                self.st_code.d.next = 1.into();
                self.dr_check.d.next = true;
                self.state.d.next = 7.into();
            } else {
                self.q_oh.d.next = self.lo_a.oh.val();
                self.q_idx.d.next = self.lo_a.idx.val();
                self.pi.start.next = true;
                self.er.zero.next = true;
                self.state.d.next = 4.into();
            }
        }
        if (self.state.q.val() == 4) | (self.state.q.val() == 5) {
            // PASS and ELIM: the issue stage walks words, then sources
            if self.pi.elim_take.val() {
                self.er.take.next = true;
            }
            if self.pi.passes_done.val() {
                self.state.d.next = 5.into();
            }
            if self.pi.misframed.val() {
                // pass 0's beats disagree with the length: nothing is committed
                self.st_code.d.next = 0.into();
                self.st_reason.d.next = 10.into();
                self.state.d.next = 7.into();
                if self.in_last.val() {
                    self.state.d.next = 8.into();
                }
            }
            if self.pi.commit.val() {
                // open the context (a clock later) and start the scanner
                self.book.commit.next = true;
                self.sc.start.next = true;
            }
            if (self.state.q.val() == 5) & !self.pi.on.val() & !self.sc.on.val() & self.er.ok.val() {
                self.er.take.next = true;
                if self.er.next_any.val() {
                    self.pi.start_elim.next = true;
                } else if !self.ps.busy.val() {
                    self.state.d.next = 6.into();
                }
            }
        }
        if self.state.q.val() == 6 {
            // INSTALL m' at slot q
            self.coef_ram.write_enable.next = true;
            self.coef_ram.write_address.next = self.q_idx.q.val();
            self.coef_ram.write_data.next = self.m.q.val();
            self.valid.d.next = self.valid.q.val() | self.q_oh.q.val();
            if self.m.q.val() == self.q_oh.q.val() {
                self.known.d.next = self.known.q.val() | self.q_oh.q.val();
            }
            self.rank.d.next = self.rank.q.val() + 1;
            self.st_code.d.next = 2.into();
            if (self.rank.q.val() + 1) == self.ctx_k.val() {
                self.st_code.d.next = 3.into();
            }
            self.state.d.next = 8.into();
        }
        if self.state.q.val() == 7 {
            // DRAIN to the packet's last beat (a redundant symbol's beats are checked)
            self.in_ready.next = true;
            if self.in_valid.val() {
                self.dr_w.d.next = self.dr_w.q.val() + 1;
                if (self.dr_w.q.val() == self.last_word.val()) & !self.in_last.val() {
                    self.dr_over.d.next = true;
                }
                if self.in_last.val() {
                    self.state.d.next = 8.into();
                    if self.dr_check.q.val() & (self.dr_over.q.val() | (self.dr_w.q.val() != self.last_word.val())) {
                        self.st_code.d.next = 0.into();
                        self.st_reason.d.next = 10.into();
                    }
                }
            }
        }
        if self.state.q.val() == 8 {
            // RESULT (res_valid; the book counts it), then the readout on COMPLETE
            self.state.d.next = 0.into();
            if self.st_code.q.val() == 3 {
                self.ro.start.next = true;
                self.state.d.next = 9.into();
            }
        }
        if self.ro.done.val() {
            // READ: rows 0..k−1 in order, MSG_SIZE bytes in all, until the last beat is taken
            self.state.d.next = 10.into();
        }
        if self.state.q.val() == 10 {
            // RECORD (rec_valid) until taken; then free the context (the book keeps the
            // tombstone if delivered)
            if self.rec_ready.val() {
                self.valid.d.next = 0.into();
                self.known.d.next = 0.into();
                self.rank.d.next = 0.into();
                self.state.d.next = 0.into();
            }
        }
        if self.state.q.val() == 11 {
            // TICK of the idle timer (the book's): an expired context's record fails
            self.tick_pend.d.next = self.tick.val();
            self.state.d.next = 0.into();
            if self.book.expire.val() {
                self.state.d.next = 10.into();
            }
        }
        if self.clear.val() {
            self.state.d.next = 0.into();
            self.valid.d.next = 0.into();
            self.known.d.next = 0.into();
            self.rank.d.next = 0.into();
            self.tick_pend.d.next = false;
        }
        // the row RAM's address for the next clock: the word the passes issue now (read in R),
        // or the readout's
        self.rd_a.d.next = (bit_cast::<RA, 6>(self.pi.src.val()) << self.sa.val()) | bit_cast::<RA, SA>(self.pi.w.val());
        if self.ro.active_next.val() {
            self.rd_a.d.next = self.ro.addr_next.val();
        }
    }
}
