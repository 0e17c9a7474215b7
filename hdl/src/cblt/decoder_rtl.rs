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
//!    the issue waits while R or B holds the word it would read. R, B and C with the
//!    accumulator are a component of their own (`payload_rtl::PayloadStages`).
//! 4. **Back-elimination**: a scanner reads the valid coef rows (during the passes), one per
//!    clock with the read address registered, checks each a clock after the RAM returns it, and
//!    for each with bit q writes `coef_p ⊕ m'` and marks the row; then one pass per marked row
//!    does `row_p ^= y'`.
//! 5. **Install** `m'` at slot q; INNOVATIVE, or COMPLETE at rank k.
//!
//! On COMPLETE the rows are streamed out in order (`msg_*`, `msg_bytes` valid bytes per beat:
//! each row is S bytes, the message is truncated to MSG_SIZE), then the completion record
//! (`rec_*`) is held until `rec_ready`; the context is then freed and tombstoned. A context
//! with no valid symbol for `idle_limit` ticks of `tick` fails with a FAILED record.
//!
//! Every symbol ends with one `res_valid` clock: status (`Status::code`), reason
//! (`Invalid::code`, 10 for a framing error), rank and known_mask, and the header a STOP echoes.

use crate::rtl_util::{before_last_word, c, BlockRam, BlockRamRe, LowestOne, SatCounter};
use rust_hdl::prelude::*;

use super::decoder::Status;
use super::header::Invalid;
use super::header_rtl::HeaderCheck;
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
    /// Rows of one or two words (`⌈S/WB⌉ ≤ 2`): the only geometries where a word can issue
    /// while R or B holds the same word (see `stall`); elsewhere the wait is constant false.
    short_rows: Constant<Bit>,
    /// Rows of one word (`pe_last` stays set), and the word before the last (all ones then,
    /// which `pe_w` never reaches).
    one_word: Constant<Bit>,
    last_word_m1: Constant<Bits<SA>>,
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
    // the context and the tombstone
    /// A commit opens the context: applied a clock later.
    ctx_open_r: DFF<Bit>,
    bound: DFF<Bit>,
    ctx_hdr: DFF<Bits<32>>,
    rank: DFF<Bits<7>>,
    valid: DFF<Bits<KM>>,
    known: DFF<Bits<KM>>,
    ctx_seen: DFF<Bits<32>>,
    ctx_red: DFF<Bits<32>>,
    ctx_inv: DFF<Bits<32>>,
    ctx_idle: DFF<Bits<16>>,
    tomb_v: DFF<Bit>,
    tomb_hdr: DFF<Bits<32>>,
    tomb_rank: DFF<Bits<7>>,
    tomb_known: DFF<Bits<KM>>,
    tomb_idle: DFF<Bits<16>>,
    tick_pend: DFF<Bit>,
    rec_fail: DFF<Bit>,
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
    // payload passes: the issue stage (pe_*), then `ps` (the row RAM's address in `rd_a`)
    pe_on: DFF<Bit>,
    pe_kind: DFF<Bits<2>>,
    pe_src: DFF<Bits<6>>,
    pe_has: DFF<Bit>,
    pe_rowq: DFF<Bit>,
    pe_w: DFF<Bits<SA>>,
    /// `pe_w` is the row's last word, kept beside it (the issue's branches read a flip-flop,
    /// not a compare).
    pe_last: DFF<Bit>,
    p_rem: DFF<Bits<KM>>,
    /// The passes after their issue: read (R), XOR (B) and write (C), with the accumulator.
    ps: PayloadStages<W, SA, RA>,
    /// The back-elimination scanner; before a scan it keeps the touched rows (pass 0's
    /// sources) and their lowest.
    sc: ElimScanner<KM>,
    /// The rows whose ELIM pass is still to come, and the next of them.
    er: ElimRows<KM>,
    /// The message readout (READ): its address walk and beats.
    ro: RowReadout<RA, SA>,
    /// The row RAM's read address, a register: `{pe_src, pe_w}` as a word issues (read stage
    /// R), the readout's `addr_next` in READ. The RAM's address pins
    /// (S = 1460 is 64 block RAMs on the ECP5) are driven by flip-flops, no multiplexer before.
    rd_a: DFF<Bits<RA>>,
    /// Read at `rd_a`; the read enable holds the readout's word while it waits.
    row_ram: BlockRamRe<W, RA>,
    coef_ram: BlockRam<KM, 6>,
    lo_a: LowestOne<KM>,
    /// The passes' own units, on a register each (the sources left, the rows to eliminate),
    /// so the state's multiplexer is not in series with their carry chains.
    lo_p: LowestOne<KM>,
    cnt: [SatCounter; 8],
    // combinational
    ctx_k: Signal<Local, Bits<7>>,
    live_rank: Signal<Local, Bits<7>>,
    live_known: Signal<Local, Bits<KM>>,
    stall: Signal<Local, Bit>,
    /// `pe_w + 1` is the last word.
    pw_next_last: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    fr_bad: Signal<Local, Bit>,
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
            short_rows: Constant::new(wps <= 2),
            one_word: Constant::new(wps == 1),
            last_word_m1: before_last_word(wps),
            sa: c(SA as u64),
            state: Default::default(),
            hc: HeaderCheck::new(s, k_max),
            st_code: Default::default(),
            st_reason: Default::default(),
            dr_check: Default::default(),
            dr_w: Default::default(),
            dr_over: Default::default(),
            ctx_open_r: Default::default(),
            bound: Default::default(),
            ctx_hdr: Default::default(),
            rank: Default::default(),
            valid: Default::default(),
            known: Default::default(),
            ctx_seen: Default::default(),
            ctx_red: Default::default(),
            ctx_inv: Default::default(),
            ctx_idle: Default::default(),
            tomb_v: Default::default(),
            tomb_hdr: Default::default(),
            tomb_rank: Default::default(),
            tomb_known: Default::default(),
            tomb_idle: Default::default(),
            tick_pend: Default::default(),
            rec_fail: Default::default(),
            red_rem: Default::default(),
            red_iss: Default::default(),
            red_pend: Default::default(),
            coef_ra: Default::default(),
            m: Default::default(),
            q_oh: Default::default(),
            q_idx: Default::default(),
            pe_on: Default::default(),
            pe_kind: Default::default(),
            pe_src: Default::default(),
            pe_has: Default::default(),
            pe_rowq: Default::default(),
            pe_w: Default::default(),
            pe_last: Default::default(),
            p_rem: Default::default(),
            sc: Default::default(),
            er: ElimRows::new(wps == 1),
            ps: Default::default(),
            rd_a: Default::default(),
            ro: RowReadout::new(s, wb),
            row_ram: Default::default(),
            coef_ram: Default::default(),
            lo_a: Default::default(),
            lo_p: Default::default(),
            cnt: Default::default(),
            ctx_k: Default::default(),
            live_rank: Default::default(),
            live_known: Default::default(),
            stall: Default::default(),
            pw_next_last: Default::default(),
            issue: Default::default(),
            fr_bad: Default::default(),
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
            self, clock, state, st_code, st_reason, dr_check, dr_w, dr_over, ctx_open_r, bound, ctx_hdr, rank,
            valid, known, ctx_seen, ctx_red, ctx_inv, ctx_idle, tomb_v, tomb_hdr, tomb_rank, tomb_known, tomb_idle,
            tick_pend, rec_fail, red_rem, red_iss, red_pend, coef_ra, m, q_oh, q_idx, pe_on, pe_kind, pe_src, pe_has, pe_rowq, pe_w, pe_last,
            p_rem, rd_a
        );
        self.row_ram.read_clock.next = self.clock.val();
        self.row_ram.write_clock.next = self.clock.val();
        self.coef_ram.read_clock.next = self.clock.val();
        self.coef_ram.write_clock.next = self.clock.val();
        for i in 0..8 {
            self.cnt[i].clock.next = self.clock.val();
            self.cnt[i].inc.next = false;
            self.cnt[i].load.next = false;
            self.cnt[i].load_val.next = 0.into();
        }
        self.cnt_symbols.next = self.cnt[0].value.val();
        self.cnt_invalid.next = self.cnt[1].value.val();
        self.cnt_framing.next = self.cnt[2].value.val();
        self.cnt_redundant.next = self.cnt[3].value.val();
        self.cnt_innovative.next = self.cnt[4].value.val();
        self.cnt_after_complete.next = self.cnt[5].value.val();
        self.cnt_complete.next = self.cnt[6].value.val();
        self.cnt_failed.next = self.cnt[7].value.val();
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
        self.hc.tomb_v.next = self.tomb_v.q.val();
        self.hc.tomb_id.next = self.tomb_hdr.q.val().get_bits::<8>(0);
        self.hc.bound.next = self.bound.q.val();
        self.hc.ctx_hdr.next = self.ctx_hdr.q.val();

        // ---- live view: the context, else the tombstone ----
        self.ctx_k.next = bit_cast::<7, 6>(self.ctx_hdr.q.val().get_bits::<6>(26)) + 1;
        self.live_rank.next = 0.into();
        self.live_known.next = 0.into();
        if self.tomb_v.q.val() {
            self.live_rank.next = self.tomb_rank.q.val();
            self.live_known.next = self.tomb_known.q.val();
        }
        if self.bound.q.val() {
            self.live_rank.next = self.rank.q.val();
            self.live_known.next = self.known.q.val();
        }
        self.ctx_open.next = self.bound.q.val();
        self.ctx_rank.next = self.live_rank.val();
        self.ctx_known.next = bit_cast::<64, KM>(self.live_known.val());
        self.busy.next = (self.state.q.val() != 0) | self.tick_pend.q.val();

        // ---- result, message and record outputs ----
        self.res_valid.next = self.state.q.val() == 8;
        self.res_status.next = self.st_code.q.val();
        self.res_reason.next = self.st_reason.q.val();
        self.res_rank.next = self.live_rank.val();
        self.res_known.next = bit_cast::<64, KM>(self.live_known.val());
        self.res_hdr.next = self.hc.hdr.val();
        if self.st_code.q.val() == 4 {
            self.res_rank.next = self.tomb_rank.q.val();
            self.res_known.next = bit_cast::<64, KM>(self.tomb_known.q.val());
            self.res_hdr.next = self.tomb_hdr.q.val();
        }
        self.msg_valid.next = self.ro.msg_valid.val();
        self.msg_data.next = self.row_ram.read_data.val();
        self.msg_bytes.next = self.ro.msg_bytes.val();
        self.msg_last.next = self.ro.msg_last.val();
        self.rec_valid.next = self.state.q.val() == 10;
        self.rec_failed.next = self.rec_fail.q.val();
        self.rec_hdr.next = self.ctx_hdr.q.val();
        self.rec_rank.next = self.rank.q.val();
        self.rec_known.next = bit_cast::<64, KM>(self.known.q.val());
        self.rec_seen.next = self.ctx_seen.q.val();
        self.rec_redundant.next = self.ctx_red.q.val();
        self.rec_invalid.next = self.ctx_inv.q.val();

        // ---- lowest-one units, each on one register (no multiplexer before its carry chain):
        // lo_a on `red_rem` (the touched rows in REDUCE, then m' for DECIDE's pivot), the
        // scanner's on its rows (the touched rows for pass 0's source in DECIDE, then the rows
        // to scan), lo_p on the passes' sources, `ElimRows`'s on the rows to eliminate ----
        self.lo_a.x.next = self.red_rem.q.val();
        self.lo_p.x.next = self.p_rem.q.val();
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

        // ---- payload passes: issue (read) ----
        // a word is read at the end of R, the clock after it issues: it waits while a word R or
        // B holds now, written at or after that edge, is the same (words only, whatever the row).
        // The issues walk the words in order, and R and B hold the issues of one and two clocks
        // ago, so word w issues again no sooner than ⌈S/WB⌉ clocks later: with three or more
        // words per row the wait never happens and is left out (`short_rows`)
        self.ps.clock.next = self.clock.val();
        self.stall.next = self.short_rows.val() & self.ps.same_word.val();
        self.issue.next =
            self.pe_on.q.val() & !self.stall.val() & ((self.pe_kind.q.val() != 0) | self.in_valid.val());
        self.in_ready.next = self.issue.val() & (self.pe_kind.q.val() == 0);
        self.fr_bad.next = (self.pe_kind.q.val() == 0) & (self.in_last.val() != self.pe_last.q.val());
        self.pw_next_last.next = self.pe_w.q.val() == self.last_word_m1.val();
        self.er.take.next = false;
        self.er.add.next = false;
        self.er.zero.next = false;
        self.ps.issue.next = self.issue.val();
        self.ps.kind.next = self.pe_kind.q.val();
        self.ps.w.next = self.pe_w.q.val();
        self.ps.src.next = self.pe_src.q.val();
        self.ps.has.next = self.pe_has.q.val();
        self.ps.rowq.next = self.pe_rowq.q.val();
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
        self.ro.size.next = bit_cast::<19, 18>(self.ctx_hdr.q.val().get_bits::<18>(8));
        self.ro.msg_ready.next = self.msg_ready.val();
        self.ro.clear.next = self.clear.val();
        self.row_ram.read_address.next = self.rd_a.q.val();
        // (the passes read every clock)
        self.row_ram.read_enable.next = self.msg_ready.val() | !self.ro.active.val();

        // ---- the context a commit opens, a clock after it (the commit decision is off the
        // context's registers; nothing reads them before the symbol's RESULT) ----
        self.ctx_open_r.d.next = false;
        if self.ctx_open_r.q.val() {
            self.bound.d.next = true;
            self.ctx_hdr.d.next = self.hc.hdr.val();
            self.ctx_seen.d.next = 0.into();
            self.ctx_red.d.next = 0.into();
            self.ctx_inv.d.next = 0.into();
            self.ctx_idle.d.next = 0.into();
        }

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
                self.pe_on.d.next = true;
                self.pe_kind.d.next = 0.into();
                self.pe_w.d.next = 0.into();
                self.pe_last.d.next = self.one_word.val();
                self.pe_has.d.next = self.sc.rem.val().any();
                self.pe_src.d.next = self.sc.low_idx.val();
                self.p_rem.d.next = self.sc.rem.val() & !self.sc.low_oh.val();
                self.pe_rowq.d.next = !(self.sc.rem.val() & !self.sc.low_oh.val()).any();
                self.er.zero.next = true;
                self.state.d.next = 4.into();
            }
        }
        if (self.state.q.val() == 4) | (self.state.q.val() == 5) {
            // PASS and ELIM: the issue stage walks words, then sources
            if self.issue.val() {
                if self.pe_last.q.val() {
                    self.pe_w.d.next = 0.into();
                    self.pe_last.d.next = self.one_word.val();
                    if self.pe_kind.q.val() == 2 {
                        // the next row to eliminate, if any (taking from none changes nothing)
                        self.er.take.next = true;
                        if self.er.next_any.val() {
                            self.pe_src.d.next = self.er.next_idx.val();
                        } else {
                            self.pe_on.d.next = false;
                        }
                    } else if self.p_rem.q.val().any() {
                        self.pe_kind.d.next = 1.into();
                        self.pe_src.d.next = self.lo_p.idx.val();
                        self.pe_has.d.next = true;
                        self.p_rem.d.next = self.p_rem.q.val() & !self.lo_p.oh.val();
                        self.pe_rowq.d.next = !(self.p_rem.q.val() & !self.lo_p.oh.val()).any();
                    } else {
                        self.pe_on.d.next = false;
                        self.state.d.next = 5.into();
                    }
                } else {
                    self.pe_w.d.next = self.pe_w.q.val() + 1;
                    self.pe_last.d.next = self.pw_next_last.val();
                }
                if self.pe_kind.q.val() == 0 {
                    if self.fr_bad.val() {
                        // beats disagree with the length: nothing is committed
                        self.pe_on.d.next = false;
                        self.st_code.d.next = 0.into();
                        self.st_reason.d.next = 10.into();
                        self.state.d.next = 7.into();
                        if self.in_last.val() {
                            self.state.d.next = 8.into();
                        }
                    } else if self.pe_last.q.val() {
                        // commit: open the context (a clock later) and start the scanner
                        self.ctx_open_r.d.next = !self.bound.q.val();
                        self.sc.start.next = true;
                    }
                }
            }
            if (self.state.q.val() == 5) & !self.pe_on.q.val() & !self.sc.on.val() & self.er.ok.val() {
                self.er.take.next = true;
                if self.er.next_any.val() {
                    self.pe_on.d.next = true;
                    self.pe_kind.d.next = 2.into();
                    self.pe_has.d.next = true;
                    self.pe_w.d.next = 0.into();
                    self.pe_last.d.next = self.one_word.val();
                    self.pe_src.d.next = self.er.next_idx.val();
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
            // RESULT (res_valid): counters, then the readout on COMPLETE
            self.cnt[0].inc.next = true;
            self.state.d.next = 0.into();
            if self.st_code.q.val() == 0 {
                self.cnt[1].inc.next = true;
                if self.st_reason.q.val() == 10 {
                    self.cnt[2].inc.next = true;
                } else if self.bound.q.val() {
                    self.ctx_seen.d.next = self.ctx_seen.q.val() + 1;
                    self.ctx_inv.d.next = self.ctx_inv.q.val() + 1;
                }
            }
            if self.st_code.q.val() == 1 {
                self.cnt[3].inc.next = true;
                self.ctx_seen.d.next = self.ctx_seen.q.val() + 1;
                self.ctx_red.d.next = self.ctx_red.q.val() + 1;
                self.ctx_idle.d.next = 0.into();
            }
            if (self.st_code.q.val() == 2) | (self.st_code.q.val() == 3) {
                self.cnt[4].inc.next = true;
                self.ctx_seen.d.next = self.ctx_seen.q.val() + 1;
                self.ctx_idle.d.next = 0.into();
            }
            if self.st_code.q.val() == 3 {
                self.cnt[6].inc.next = true;
                self.ro.start.next = true;
                self.rec_fail.d.next = false;
                self.state.d.next = 9.into();
            }
            if self.st_code.q.val() == 4 {
                self.cnt[5].inc.next = true;
                self.tomb_idle.d.next = 0.into();
            }
        }
        if self.ro.done.val() {
            // READ: rows 0..k−1 in order, MSG_SIZE bytes in all, until the last beat is taken
            self.state.d.next = 10.into();
        }
        if self.state.q.val() == 10 {
            // RECORD (rec_valid) until taken; then free the context (tombstone if delivered)
            if self.rec_ready.val() {
                self.bound.d.next = false;
                self.valid.d.next = 0.into();
                self.known.d.next = 0.into();
                self.rank.d.next = 0.into();
                if !self.rec_fail.q.val() {
                    self.tomb_v.d.next = true;
                    self.tomb_hdr.d.next = self.ctx_hdr.q.val();
                    self.tomb_rank.d.next = self.rank.q.val();
                    self.tomb_known.d.next = self.known.q.val();
                    self.tomb_idle.d.next = 0.into();
                }
                self.state.d.next = 0.into();
            }
        }
        if self.state.q.val() == 11 {
            // TICK of the idle timer
            self.tick_pend.d.next = self.tick.val();
            self.state.d.next = 0.into();
            if self.idle_limit.val().any() {
                if self.bound.q.val() {
                    self.ctx_idle.d.next = self.ctx_idle.q.val() + 1;
                    if (self.ctx_idle.q.val() + 1) >= self.idle_limit.val() {
                        self.rec_fail.d.next = true;
                        self.cnt[7].inc.next = true;
                        self.state.d.next = 10.into();
                    }
                }
                if self.tomb_v.q.val() {
                    self.tomb_idle.d.next = self.tomb_idle.q.val() + 1;
                    if (self.tomb_idle.q.val() + 1) >= self.idle_limit.val() {
                        self.tomb_v.d.next = false;
                    }
                }
            }
        }
        if self.clear.val() {
            self.state.d.next = 0.into();
            self.bound.d.next = false;
            self.valid.d.next = 0.into();
            self.known.d.next = 0.into();
            self.rank.d.next = 0.into();
            self.tomb_v.d.next = false;
            self.tick_pend.d.next = false;
            self.pe_on.d.next = false;
            self.ctx_open_r.d.next = false;
        }
        // the row RAM's address for the next clock: the word the passes issue now (read in R),
        // or the readout's
        self.rd_a.d.next = (bit_cast::<RA, 6>(self.pe_src.q.val()) << self.sa.val()) | bit_cast::<RA, SA>(self.pe_w.q.val());
        if self.ro.active_next.val() {
            self.rd_a.d.next = self.ro.addr_next.val();
        }
    }
}
