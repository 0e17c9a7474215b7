//! RTL of the decoder's sequence (CB-LT §6.3, §6.6, §7.4–§7.6): the state machine that takes a
//! symbol through its checks, reduction, passes, back-elimination and install, reports its
//! result, reads a complete message out and steps the idle timer. It holds the state, the
//! symbol's status and the drain's beat count; every other register is a component's, which
//! it drives with pulses. The model is `receiver.rs` around `decoder.rs`; the decoder's vectors
//! and fuzz check the sequence in place, `sim-tests/tests/cblt_components.rs` alone.

use crate::rtl_util::c;
use rust_hdl::prelude::*;

/// The decoder's sequence. States: 0 IDLE, 1 SCREEN, 12 CHECK, 2 REDUCE, 3 DECIDE, 4 PASS,
/// 5 ELIM, 6 INSTALL, 7 DRAIN, 8 RESULT, 9 READ, 10 RECORD, 11 TICK.
///
/// - IDLE: a pending `tick` steps the idle timer first (TICK, `tick_step`; `expire` goes to
///   RECORD), else a packet's first beat is taken (`take`) and judged in SCREEN and CHECK:
///   truncated (`code` 0, `reason` 1), AFTER_COMPLETE (code 4, `hc_tomb`), invalid (code 0,
///   `hc_reason`), each then drained; else `load` the mask.
/// - REDUCE until `reduced`; DECIDE: `m_any` low is REDUNDANT (code 1, drained with its beats
///   checked), else `decide` (the pivot, pass 0 starts).
/// - PASS, then ELIM: the payload passes' flags (`pass_*`) and the rows to eliminate (`er_*`)
///   move it on; `misframed` (pass 0's beats disagree with the length) is reason 10, drained
///   to the last beat; `commit` opens the context. ELIM ends when no pass, scan or row is left.
/// - INSTALL: code 2, or 3 (COMPLETE) when `completes` (the rank reaches k).
/// - DRAIN takes beats to the last (`drain`); a drain with its beats checked sets reason 10
///   where they disagree with the length (`last_word`, the row's last word).
/// - RESULT (`result`, one clock); COMPLETE goes on to READ (`ro_start`) until `ro_done`, then
///   RECORD (`record`) until `rec_ready` (`free`).
/// - `clear` returns to IDLE and forgets a pending tick.
///
/// `code` is `Status::code` and `reason` `Invalid::code` (10 a framing error), written here as
/// literals: the const assert in `decoder_rtl.rs` ties them to the codec's.
#[derive(LogicBlock)]
pub struct DecoderSequence<const SA: usize> {
    pub clock: Signal<In, Clock>,
    pub in_valid: Signal<In, Bit>,
    pub in_last: Signal<In, Bit>,
    pub tick: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub hc_trunc: Signal<In, Bit>,
    pub hc_tomb: Signal<In, Bit>,
    pub hc_reason: Signal<In, Bits<4>>,
    pub reduced: Signal<In, Bit>,
    pub m_any: Signal<In, Bit>,
    pub pass_elim_take: Signal<In, Bit>,
    pub pass_done: Signal<In, Bit>,
    pub pass_on: Signal<In, Bit>,
    pub misframed: Signal<In, Bit>,
    pub pass_commit: Signal<In, Bit>,
    pub scan_on: Signal<In, Bit>,
    pub er_ok: Signal<In, Bit>,
    pub er_any: Signal<In, Bit>,
    pub stages_busy: Signal<In, Bit>,
    pub completes: Signal<In, Bit>,
    pub ro_done: Signal<In, Bit>,
    pub rec_ready: Signal<In, Bit>,
    pub expire: Signal<In, Bit>,
    pub take: Signal<Out, Bit>,
    pub load: Signal<Out, Bit>,
    pub reduce: Signal<Out, Bit>,
    pub decide: Signal<Out, Bit>,
    pub er_take: Signal<Out, Bit>,
    pub commit: Signal<Out, Bit>,
    pub start_elim: Signal<Out, Bit>,
    pub install: Signal<Out, Bit>,
    pub drain: Signal<Out, Bit>,
    pub result: Signal<Out, Bit>,
    pub ro_start: Signal<Out, Bit>,
    pub record: Signal<Out, Bit>,
    pub free: Signal<Out, Bit>,
    pub tick_step: Signal<Out, Bit>,
    pub busy: Signal<Out, Bit>,
    pub code: Signal<Out, Bits<3>>,
    pub reason: Signal<Out, Bits<4>>,
    last_word: Constant<Bits<SA>>,
    state: DFF<Bits<4>>,
    code_r: DFF<Bits<3>>,
    reason_r: DFF<Bits<4>>,
    tick_pend: DFF<Bit>,
    /// The drain checks its beats (a redundant symbol's), counts them, and has seen one past
    /// the last word.
    dr_check: DFF<Bit>,
    dr_w: DFF<Bits<SA>>,
    dr_over: DFF<Bit>,
}

impl<const SA: usize> DecoderSequence<SA> {
    /// The sequence for rows of `words` words (`1 ≤ words ≤ 2^SA`).
    pub fn new(words: usize) -> Self {
        assert!((1..=1 << SA).contains(&words), "{words} words per row need SA ≥ log2 of it (SA = {SA})");
        DecoderSequence {
            clock: Default::default(),
            in_valid: Default::default(),
            in_last: Default::default(),
            tick: Default::default(),
            clear: Default::default(),
            hc_trunc: Default::default(),
            hc_tomb: Default::default(),
            hc_reason: Default::default(),
            reduced: Default::default(),
            m_any: Default::default(),
            pass_elim_take: Default::default(),
            pass_done: Default::default(),
            pass_on: Default::default(),
            misframed: Default::default(),
            pass_commit: Default::default(),
            scan_on: Default::default(),
            er_ok: Default::default(),
            er_any: Default::default(),
            stages_busy: Default::default(),
            completes: Default::default(),
            ro_done: Default::default(),
            rec_ready: Default::default(),
            expire: Default::default(),
            take: Default::default(),
            load: Default::default(),
            reduce: Default::default(),
            decide: Default::default(),
            er_take: Default::default(),
            commit: Default::default(),
            start_elim: Default::default(),
            install: Default::default(),
            drain: Default::default(),
            result: Default::default(),
            ro_start: Default::default(),
            record: Default::default(),
            free: Default::default(),
            tick_step: Default::default(),
            busy: Default::default(),
            code: Default::default(),
            reason: Default::default(),
            last_word: c(words as u64 - 1),
            state: Default::default(),
            code_r: Default::default(),
            reason_r: Default::default(),
            tick_pend: Default::default(),
            dr_check: Default::default(),
            dr_w: Default::default(),
            dr_over: Default::default(),
        }
    }
}

impl<const SA: usize> Logic for DecoderSequence<SA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, code_r, reason_r, tick_pend, dr_check, dr_w, dr_over);
        self.take.next = (self.state.q.val() == 0) & !self.tick_pend.q.val() & self.in_valid.val();
        self.load.next = false;
        self.reduce.next = self.state.q.val() == 2;
        self.decide.next = (self.state.q.val() == 3) & self.m_any.val();
        self.er_take.next = false;
        self.commit.next = false;
        self.start_elim.next = false;
        self.install.next = self.state.q.val() == 6;
        self.drain.next = self.state.q.val() == 7;
        self.result.next = self.state.q.val() == 8;
        self.ro_start.next = false;
        self.record.next = self.state.q.val() == 10;
        self.free.next = (self.state.q.val() == 10) & self.rec_ready.val();
        self.tick_step.next = self.state.q.val() == 11;
        self.busy.next = (self.state.q.val() != 0) | self.tick_pend.q.val();
        self.code.next = self.code_r.q.val();
        self.reason.next = self.reason_r.q.val();
        if self.tick.val() {
            self.tick_pend.d.next = true;
        }
        if self.state.q.val() == 0 {
            // IDLE: a pending tick first, then the next packet's first beat (`take`)
            if self.tick_pend.q.val() {
                self.state.d.next = 11.into();
            } else if self.in_valid.val() {
                self.dr_check.d.next = false;
                self.dr_w.d.next = 0.into();
                self.dr_over.d.next = false;
                self.reason_r.d.next = 0.into();
                self.state.d.next = 1.into();
            }
        }
        if self.state.q.val() == 1 {
            // SCREEN: the header check judges the header
            self.state.d.next = 12.into();
        }
        if self.state.q.val() == 12 {
            // CHECK
            self.state.d.next = 7.into();
            if self.hc_trunc.val() {
                self.code_r.d.next = 0.into();
                self.reason_r.d.next = 1.into();
            } else if self.hc_tomb.val() {
                self.code_r.d.next = 4.into();
            } else if self.hc_reason.val().any() {
                self.code_r.d.next = 0.into();
                self.reason_r.d.next = self.hc_reason.val();
            } else {
                self.load.next = true;
                self.state.d.next = 2.into();
            }
        }
        if self.reduced.val() {
            // REDUCE is over: m' is final
            self.state.d.next = 3.into();
        }
        if self.state.q.val() == 3 {
            // DECIDE: redundant, or pivot q and pass 0
            self.state.d.next = 4.into();
            if !self.m_any.val() {
                self.code_r.d.next = 1.into();
                self.dr_check.d.next = true;
                self.state.d.next = 7.into();
            }
        }
        if (self.state.q.val() == 4) | (self.state.q.val() == 5) {
            // PASS and ELIM: the issue stage walks words, then sources
            self.er_take.next = self.pass_elim_take.val();
            if self.pass_done.val() {
                self.state.d.next = 5.into();
            }
            if self.misframed.val() {
                // pass 0's beats disagree with the length: nothing is committed
                self.code_r.d.next = 0.into();
                self.reason_r.d.next = 10.into();
                self.state.d.next = 7.into();
                if self.in_last.val() {
                    self.state.d.next = 8.into();
                }
            }
            self.commit.next = self.pass_commit.val();
            if (self.state.q.val() == 5) & !self.pass_on.val() & !self.scan_on.val() & self.er_ok.val() {
                self.er_take.next = true;
                if self.er_any.val() {
                    self.start_elim.next = true;
                } else if !self.stages_busy.val() {
                    self.state.d.next = 6.into();
                }
            }
        }
        if self.state.q.val() == 6 {
            // INSTALL m' at slot q
            self.code_r.d.next = 2.into();
            if self.completes.val() {
                self.code_r.d.next = 3.into();
            }
            self.state.d.next = 8.into();
        }
        if self.drain.val() & self.in_valid.val() {
            // DRAIN to the packet's last beat (a redundant symbol's beats are checked)
            self.dr_w.d.next = self.dr_w.q.val() + 1;
            if (self.dr_w.q.val() == self.last_word.val()) & !self.in_last.val() {
                self.dr_over.d.next = true;
            }
            if self.in_last.val() {
                self.state.d.next = 8.into();
                if self.dr_check.q.val() & (self.dr_over.q.val() | (self.dr_w.q.val() != self.last_word.val())) {
                    self.code_r.d.next = 0.into();
                    self.reason_r.d.next = 10.into();
                }
            }
        }
        if self.result.val() {
            // RESULT, then the readout on COMPLETE
            self.state.d.next = 0.into();
            if self.code_r.q.val() == 3 {
                self.ro_start.next = true;
                self.state.d.next = 9.into();
            }
        }
        if self.ro_done.val() {
            // READ ends when its last beat is taken
            self.state.d.next = 10.into();
        }
        if self.free.val() {
            // RECORD is taken
            self.state.d.next = 0.into();
        }
        if self.tick_step.val() {
            // TICK of the idle timer: an expired context's record fails
            self.tick_pend.d.next = self.tick.val();
            self.state.d.next = 0.into();
            if self.expire.val() {
                self.state.d.next = 10.into();
            }
        }
        if self.clear.val() {
            self.state.d.next = 0.into();
            self.tick_pend.d.next = false;
        }
    }
}

/// The instance the component's own test drives (`sim-tests/tests/cblt_components.rs`): rows of
/// three words.
pub type TestSequence = DecoderSequence<2>;

crate::pin_io!(TestSequence; in: in_valid, in_last, tick, clear, hc_trunc, hc_tomb, hc_reason, reduced, m_any, pass_elim_take, pass_done,
    pass_on, misframed, pass_commit, scan_on, er_ok, er_any, stages_busy, completes, ro_done, rec_ready, expire;
    out: take, load, reduce, decide, er_take, commit, start_elim, install, drain, result, ro_start, record, free, tick_step, busy, code, reason);
