//! RTL of the decoder's payload-pass issue stage (CB-LT §6.6's payload side): which word of
//! which row the passes read next. The decoder's vectors and fuzz check it in place,
//! `sim-tests/tests/cblt_components.rs` alone.

use crate::rtl_util::{before_last_word, LowestOne};
use rust_hdl::prelude::*;

/// The issue stage: one word per clock, in the decoder's three kinds of pass.
///
/// - `start` (DECIDE): pass 0 (`kind` 0), which takes the symbol's payload from the input, one
///   word per beat, with the lowest of the touched rows `rem` (`low_oh`/`low_idx`, the
///   scanner's) as its source if there is one (`has`). The other touched rows follow as passes
///   of kind 1, lowest first; `rowq` marks the last pass, which also writes row q.
/// - `start_elim` (ELIM): a pass of kind 2 over row `elim_idx`; at its last word the next row
///   to eliminate follows if `elim_any` (`elim_take` then takes it), else the stage stops.
///
/// A word issues (`issue`) while the stage is on, the input has a beat for pass 0, and the
/// read stages do not hold the same word (`same_word`, which only rows of one or two words can
/// meet). Pass 0's beats must end with its last word: a beat that disagrees is `misframed` (the
/// stage stops, nothing is committed), and the last word issued whole is `commit`.
/// `passes_done` is the last word of the last pass of the symbol (not of an ELIM pass).
/// `clear` stops the stage.
#[derive(LogicBlock)]
pub struct PassIssue<const SA: usize, const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub rem: Signal<In, Bits<KM>>,
    pub low_oh: Signal<In, Bits<KM>>,
    pub low_idx: Signal<In, Bits<6>>,
    pub start_elim: Signal<In, Bit>,
    pub elim_any: Signal<In, Bit>,
    pub elim_idx: Signal<In, Bits<6>>,
    pub in_valid: Signal<In, Bit>,
    pub in_last: Signal<In, Bit>,
    pub same_word: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub on: Signal<Out, Bit>,
    pub kind: Signal<Out, Bits<2>>,
    pub src: Signal<Out, Bits<6>>,
    pub has: Signal<Out, Bit>,
    pub rowq: Signal<Out, Bit>,
    pub w: Signal<Out, Bits<SA>>,
    pub issue: Signal<Out, Bit>,
    /// A beat of pass 0 is taken.
    pub take_beat: Signal<Out, Bit>,
    pub misframed: Signal<Out, Bit>,
    pub commit: Signal<Out, Bit>,
    pub passes_done: Signal<Out, Bit>,
    pub elim_take: Signal<Out, Bit>,
    /// Rows of one or two words (`⌈S/WB⌉ ≤ 2`): the only geometries where a word can issue
    /// while R or B holds the same word; elsewhere the wait is constant false.
    short_rows: Constant<Bit>,
    /// Rows of one word (`pe_last` stays set), and the word before the last (all ones then,
    /// which `pe_w` never reaches).
    one_word: Constant<Bit>,
    last_word_m1: Constant<Bits<SA>>,
    pe_on: DFF<Bit>,
    pe_kind: DFF<Bits<2>>,
    pe_src: DFF<Bits<6>>,
    pe_has: DFF<Bit>,
    pe_rowq: DFF<Bit>,
    pe_w: DFF<Bits<SA>>,
    /// `pe_w` is the row's last word, kept beside it (the branches read a flip-flop, not a
    /// compare).
    pe_last: DFF<Bit>,
    /// The touched rows whose pass is still to come, with their own lowest-one unit (on a
    /// register, no multiplexer before its carry chain).
    p_rem: DFF<Bits<KM>>,
    lo_p: LowestOne<KM>,
    /// `pe_w + 1` is the last word.
    pw_next_last: Signal<Local, Bit>,
    fr_bad: Signal<Local, Bit>,
}

impl<const SA: usize, const KM: usize> PassIssue<SA, KM> {
    /// The stage for rows of `wps` words (1 ≤ `wps` ≤ 2^SA).
    pub fn new(wps: usize) -> Self {
        assert!(wps >= 1 && wps <= 1 << SA, "{wps} words per row do not fit SA = {SA}");
        PassIssue {
            clock: Default::default(),
            start: Default::default(),
            rem: Default::default(),
            low_oh: Default::default(),
            low_idx: Default::default(),
            start_elim: Default::default(),
            elim_any: Default::default(),
            elim_idx: Default::default(),
            in_valid: Default::default(),
            in_last: Default::default(),
            same_word: Default::default(),
            clear: Default::default(),
            on: Default::default(),
            kind: Default::default(),
            src: Default::default(),
            has: Default::default(),
            rowq: Default::default(),
            w: Default::default(),
            issue: Default::default(),
            take_beat: Default::default(),
            misframed: Default::default(),
            commit: Default::default(),
            passes_done: Default::default(),
            elim_take: Default::default(),
            short_rows: Constant::new(wps <= 2),
            one_word: Constant::new(wps == 1),
            last_word_m1: before_last_word(wps),
            pe_on: Default::default(),
            pe_kind: Default::default(),
            pe_src: Default::default(),
            pe_has: Default::default(),
            pe_rowq: Default::default(),
            pe_w: Default::default(),
            pe_last: Default::default(),
            p_rem: Default::default(),
            lo_p: Default::default(),
            pw_next_last: Default::default(),
            fr_bad: Default::default(),
        }
    }
}

impl<const SA: usize, const KM: usize> Logic for PassIssue<SA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pe_on, pe_kind, pe_src, pe_has, pe_rowq, pe_w, pe_last, p_rem);
        self.lo_p.x.next = self.p_rem.q.val();
        self.on.next = self.pe_on.q.val();
        self.kind.next = self.pe_kind.q.val();
        self.src.next = self.pe_src.q.val();
        self.has.next = self.pe_has.q.val();
        self.rowq.next = self.pe_rowq.q.val();
        self.w.next = self.pe_w.q.val();
        // a word is read at the end of R, the clock after it issues: it waits while a word R or
        // B holds now, written at or after that edge, is the same (words only, whatever the row).
        // The issues walk the words in order, and R and B hold the issues of one and two clocks
        // ago, so word w issues again no sooner than ⌈S/WB⌉ clocks later: with three or more
        // words per row the wait never happens and is left out (`short_rows`)
        self.issue.next = self.pe_on.q.val()
            & !(self.short_rows.val() & self.same_word.val())
            & ((self.pe_kind.q.val() != 0) | self.in_valid.val());
        self.take_beat.next = self.issue.val() & (self.pe_kind.q.val() == 0);
        self.fr_bad.next = self.in_last.val() != self.pe_last.q.val();
        self.misframed.next = self.take_beat.val() & self.fr_bad.val();
        self.commit.next = self.take_beat.val() & !self.fr_bad.val() & self.pe_last.q.val();
        self.passes_done.next = false;
        self.elim_take.next = false;
        self.pw_next_last.next = self.pe_w.q.val() == self.last_word_m1.val();

        if self.start.val() {
            self.pe_on.d.next = true;
            self.pe_kind.d.next = 0.into();
            self.pe_w.d.next = 0.into();
            self.pe_last.d.next = self.one_word.val();
            self.pe_has.d.next = self.rem.val().any();
            self.pe_src.d.next = self.low_idx.val();
            self.p_rem.d.next = self.rem.val() & !self.low_oh.val();
            self.pe_rowq.d.next = !(self.rem.val() & !self.low_oh.val()).any();
        }
        if self.issue.val() {
            if self.pe_last.q.val() {
                self.pe_w.d.next = 0.into();
                self.pe_last.d.next = self.one_word.val();
                if self.pe_kind.q.val() == 2 {
                    // the next row to eliminate, if any (taking from none changes nothing)
                    self.elim_take.next = true;
                    if self.elim_any.val() {
                        self.pe_src.d.next = self.elim_idx.val();
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
                    self.passes_done.next = true;
                }
            } else {
                self.pe_w.d.next = self.pe_w.q.val() + 1;
                self.pe_last.d.next = self.pw_next_last.val();
            }
        }
        if self.misframed.val() {
            // beats disagree with the length: nothing is committed
            self.pe_on.d.next = false;
        }
        if self.start_elim.val() {
            self.pe_on.d.next = true;
            self.pe_kind.d.next = 2.into();
            self.pe_has.d.next = true;
            self.pe_w.d.next = 0.into();
            self.pe_last.d.next = self.one_word.val();
            self.pe_src.d.next = self.elim_idx.val();
        }
        if self.clear.val() {
            self.pe_on.d.next = false;
        }
    }
}

/// The stage of the decoder's 16-row test build (rows of up to four words), for its own test.
pub type TestPassIssue = PassIssue<2, 16>;

crate::pin_io!(TestPassIssue;
    in: start, rem, low_oh, low_idx, start_elim, elim_any, elim_idx, in_valid, in_last, same_word, clear;
    out: on, kind, src, has, rowq, w, issue, take_beat, misframed, commit, passes_done, elim_take);
