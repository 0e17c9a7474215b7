//! RTL of the decoder's book-keeping (CB-LT §7.4–§7.6): what a symbol's result does to the eight
//! statistics and to the open context's counts, the tombstone a delivered message leaves, and
//! the idle timer that fails a stalled context. The model is `receiver.rs`; the decoder's vectors
//! and fuzz check the book in place, `sim-tests/tests/cblt_components.rs` alone.

use crate::rtl_util::{AddSub, SatCounter};
use rust_hdl::prelude::*;

/// The decoder's book: its statistics, the open context's header and counts, the tombstone.
///
/// Events, each a pulse from the decoder's sequence:
/// - `commit` (pass 0 took its last word): if no context is bound, one opens a clock later with
///   `hdr` (the header then held by the header check) and zero counts;
/// - `result` (RESULT) with the symbol's `code` (`Status::code`) and `reason`: the statistics
///   count it (`REASON_FRAMING` as framing, not in the context), and the context counts it as
///   seen, redundant or invalid; a useful symbol (redundant or innovative) restarts its idle
///   count, AFTER_COMPLETE the tombstone's; COMPLETE makes the record a delivery;
/// - `free` (the record is taken): the context closes, and a delivered message leaves its
///   header, `rank` and `known` (the decoder's, as they are) as the tombstone;
/// - `tick_step` (TICK): with an `idle_limit`, the context's and the tombstone's idle counts
///   step; the context's reaching the limit is `expire` (this clock: the decoder records a
///   failure and the record is marked failed), the tombstone's forgets it;
/// - `clear`: no context, no tombstone (the statistics keep counting).
#[derive(LogicBlock, Default)]
pub struct DecoderBook<const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub commit: Signal<In, Bit>,
    pub hdr: Signal<In, Bits<32>>,
    pub result: Signal<In, Bit>,
    pub code: Signal<In, Bits<3>>,
    pub reason: Signal<In, Bits<4>>,
    pub free: Signal<In, Bit>,
    pub rank: Signal<In, Bits<7>>,
    pub known: Signal<In, Bits<KM>>,
    pub tick_step: Signal<In, Bit>,
    pub idle_limit: Signal<In, Bits<16>>,
    pub clear: Signal<In, Bit>,
    /// A context is open, with its header and counts.
    pub bound: Signal<Out, Bit>,
    pub ctx_hdr: Signal<Out, Bits<32>>,
    pub seen: Signal<Out, Bits<32>>,
    pub redundant: Signal<Out, Bits<32>>,
    pub invalid: Signal<Out, Bits<32>>,
    /// The record will say failed (the idle limit, not a delivery).
    pub failed: Signal<Out, Bit>,
    pub expire: Signal<Out, Bit>,
    pub tomb_v: Signal<Out, Bit>,
    pub tomb_hdr: Signal<Out, Bits<32>>,
    pub tomb_rank: Signal<Out, Bits<7>>,
    pub tomb_known: Signal<Out, Bits<KM>>,
    /// The context's rank and known rows (`rank`, `known`), else the tombstone's, else 0.
    pub live_rank: Signal<Out, Bits<7>>,
    pub live_known: Signal<Out, Bits<KM>>,
    /// The statistics (`decoder_rtl::COUNTERS`).
    pub cnt_symbols: Signal<Out, Bits<32>>,
    pub cnt_invalid: Signal<Out, Bits<32>>,
    pub cnt_framing: Signal<Out, Bits<32>>,
    pub cnt_redundant: Signal<Out, Bits<32>>,
    pub cnt_innovative: Signal<Out, Bits<32>>,
    pub cnt_after_complete: Signal<Out, Bits<32>>,
    pub cnt_complete: Signal<Out, Bits<32>>,
    pub cnt_failed: Signal<Out, Bits<32>>,
    open_r: DFF<Bit>,
    bound_r: DFF<Bit>,
    hdr_r: DFF<Bits<32>>,
    seen_r: DFF<Bits<32>>,
    red_r: DFF<Bits<32>>,
    inv_r: DFF<Bits<32>>,
    idle_r: DFF<Bits<16>>,
    fail_r: DFF<Bit>,
    tv_r: DFF<Bit>,
    th_r: DFF<Bits<32>>,
    trank_r: DFF<Bits<7>>,
    tknown_r: DFF<Bits<KM>>,
    tidle_r: DFF<Bits<16>>,
    cnt: [SatCounter; 8],
    /// `idle + 1 − idle_limit` and the same for the tombstone, each one carry chain (17 bits, so
    /// its sign is the compare): the step reaches the limit where it is not negative, and the
    /// count is not all ones (a 16-bit step from 65,535 wraps to 0, which reaches no limit).
    idle_due: AddSub<17>,
    tidle_due: AddSub<17>,
    due: Signal<Local, Bit>,
    tdue: Signal<Local, Bit>,
    /// The sums' bits that nothing reads (the lint's `unused` convention).
    unused_due: Signal<Local, Bit>,
}

impl<const KM: usize> Logic for DecoderBook<KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, open_r, bound_r, hdr_r, seen_r, red_r, inv_r, idle_r, fail_r, tv_r, th_r, trank_r, tknown_r, tidle_r
        );
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
        self.bound.next = self.bound_r.q.val();
        self.ctx_hdr.next = self.hdr_r.q.val();
        self.seen.next = self.seen_r.q.val();
        self.redundant.next = self.red_r.q.val();
        self.invalid.next = self.inv_r.q.val();
        self.failed.next = self.fail_r.q.val();
        self.tomb_v.next = self.tv_r.q.val();
        self.tomb_hdr.next = self.th_r.q.val();
        self.tomb_rank.next = self.trank_r.q.val();
        self.tomb_known.next = self.tknown_r.q.val();
        self.live_rank.next = 0.into();
        self.live_known.next = 0.into();
        if self.tv_r.q.val() {
            self.live_rank.next = self.trank_r.q.val();
            self.live_known.next = self.tknown_r.q.val();
        }
        if self.bound_r.q.val() {
            self.live_rank.next = self.rank.val();
            self.live_known.next = self.known.val();
        }

        // the context a commit opens, a clock after it (the commit decision is off these
        // registers; nothing reads them before the symbol's RESULT)
        self.open_r.d.next = self.commit.val() & !self.bound_r.q.val();
        if self.open_r.q.val() {
            self.bound_r.d.next = true;
            self.hdr_r.d.next = self.hdr.val();
            self.seen_r.d.next = 0.into();
            self.red_r.d.next = 0.into();
            self.inv_r.d.next = 0.into();
            self.idle_r.d.next = 0.into();
        }
        if self.result.val() {
            self.cnt[0].inc.next = true;
            if self.code.val() == 0 {
                self.cnt[1].inc.next = true;
                if self.reason.val() == 10 {
                    self.cnt[2].inc.next = true;
                } else if self.bound_r.q.val() {
                    self.seen_r.d.next = self.seen_r.q.val() + 1;
                    self.inv_r.d.next = self.inv_r.q.val() + 1;
                }
            }
            if self.code.val() == 1 {
                self.cnt[3].inc.next = true;
                self.seen_r.d.next = self.seen_r.q.val() + 1;
                self.red_r.d.next = self.red_r.q.val() + 1;
                self.idle_r.d.next = 0.into();
            }
            if (self.code.val() == 2) | (self.code.val() == 3) {
                self.cnt[4].inc.next = true;
                self.seen_r.d.next = self.seen_r.q.val() + 1;
                self.idle_r.d.next = 0.into();
            }
            if self.code.val() == 3 {
                self.cnt[6].inc.next = true;
                self.fail_r.d.next = false;
            }
            if self.code.val() == 4 {
                self.cnt[5].inc.next = true;
                self.tidle_r.d.next = 0.into();
            }
        }
        if self.free.val() {
            self.bound_r.d.next = false;
            if !self.fail_r.q.val() {
                self.tv_r.d.next = true;
                self.th_r.d.next = self.hdr_r.q.val();
                self.trank_r.d.next = self.rank.val();
                self.tknown_r.d.next = self.known.val();
                self.tidle_r.d.next = 0.into();
            }
        }
        self.idle_due.a.next = bit_cast::<17, 16>(self.idle_r.q.val());
        self.idle_due.b.next = 0.into();
        self.idle_due.sub.next = bit_cast::<17, 16>(self.idle_limit.val());
        self.idle_due.cin.next = true;
        self.tidle_due.a.next = bit_cast::<17, 16>(self.tidle_r.q.val());
        self.tidle_due.b.next = 0.into();
        self.tidle_due.sub.next = bit_cast::<17, 16>(self.idle_limit.val());
        self.tidle_due.cin.next = true;
        self.due.next = !self.idle_due.out.val().get_bit(16) & !self.idle_r.q.val().all();
        self.tdue.next = !self.tidle_due.out.val().get_bit(16) & !self.tidle_r.q.val().all();
        self.unused_due.next = self.idle_due.out.val().get_bits::<16>(0).any() | self.tidle_due.out.val().get_bits::<16>(0).any();
        self.expire.next = false;
        if self.tick_step.val() & self.idle_limit.val().any() {
            if self.bound_r.q.val() {
                self.idle_r.d.next = self.idle_r.q.val() + 1;
                if self.due.val() {
                    self.expire.next = true;
                    self.fail_r.d.next = true;
                    self.cnt[7].inc.next = true;
                }
            }
            if self.tv_r.q.val() {
                self.tidle_r.d.next = self.tidle_r.q.val() + 1;
                if self.tdue.val() {
                    self.tv_r.d.next = false;
                }
            }
        }
        if self.clear.val() {
            self.bound_r.d.next = false;
            self.tv_r.d.next = false;
            self.open_r.d.next = false;
        }
    }
}

/// The book of the decoder's 16-row test build, for its own test.
pub type TestBook = DecoderBook<16>;

crate::pin_io!(TestBook;
    in: commit, hdr, result, code, reason, free, rank, known, tick_step, idle_limit, clear;
    out: bound, ctx_hdr, seen, redundant, invalid, failed, expire, tomb_v, tomb_hdr, tomb_rank, tomb_known, live_rank, live_known,
        cnt_symbols, cnt_invalid, cnt_framing, cnt_redundant, cnt_innovative, cnt_after_complete, cnt_complete, cnt_failed);
