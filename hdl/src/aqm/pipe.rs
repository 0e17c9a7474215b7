//! The AQM marker over two clocks (the block README, *Structure*): stage `A` makes every carry
//! chain and every division of a dequeue from registers and inputs, stage `B` decides from `A`'s
//! registered results and writes the queue's state. Its decisions are the golden model's
//! (`model.rs`), a clock later.
//!
//! The state `A` reads is the queue's registers (`r_*`), except when `B` holds a dequeue of the
//! same queue whose write is still to land: then `A`'s dequeue must see `B`'s outcome. Each
//! quantity of `A` that depends on the state is made for every outcome `B` can reach, and `B`'s
//! decision selects among them into `A`'s registers. That works because `B` judged its dequeue
//! on the state now in the registers (the registers of a queue `B` holds have taken every write
//! before `B`'s), so each outcome is a function of `r_*` and of `B`'s own registers.

use super::rtl::{LawIndex, LawValue, MarkerConfig};
use crate::rtl_util::{AddSub, LateCounter, WrapDiffAbove};
use rust_hdl::prelude::*;

/// `now − x − y` (mod 2^32), one carry chain (`AddSub`: `now + !x + 1 − y`); one less without
/// `cin`.
#[derive(LogicBlock, Default)]
pub struct Lag3 {
    pub now: Signal<In, Bits<32>>,
    pub x: Signal<In, Bits<32>>,
    pub y: Signal<In, Bits<32>>,
    pub cin: Signal<In, Bit>,
    pub out: Signal<Out, Bits<32>>,
    chain: AddSub<32>,
}

impl Logic for Lag3 {
    #[hdl_gen]
    fn update(&mut self) {
        self.chain.a.next = self.now.val();
        self.chain.b.next = !self.x.val();
        self.chain.sub.next = self.y.val();
        self.chain.cin.next = self.cin.val();
        self.out.next = self.chain.out.val();
    }
}

/// The tests on a lag `d = now − next` (mod 2^32) that a decision reads, from `d` and `d − 1`
/// (`m1`), each a sign or the top two bits of a chain, so no test ORs 32 bits after it: a mark
/// is due (`d > 0` on the wrapping clock, or `d ≥ 0` when `ge`), and the lag clamp applies
/// (`2^30 < d < 2^31`). Combinational.
#[derive(LogicBlock, Default)]
pub struct LagTest {
    pub d: Signal<In, Bits<32>>,
    pub m1: Signal<In, Bits<32>>,
    pub ge: Signal<In, Bit>,
    pub due: Signal<Out, Bit>,
    pub clamp: Signal<Out, Bit>,
    d_neg: Signal<Local, Bit>,
}

impl Logic for LagTest {
    #[hdl_gen]
    fn update(&mut self) {
        // (the bits through masks, which yosys reduces to the bits: the lint wants every bit read)
        self.d_neg.next = (self.d.val() & 0x8000_0000u64) != 0;
        self.due.next = !self.d_neg.val() & (self.ge.val() | ((self.m1.val() & 0x8000_0000u64) == 0));
        self.clamp.next = !self.d_neg.val() & ((self.m1.val() & 0xC000_0000u64) == 0x4000_0000u64);
    }
}

/// `now − x − y − z` (mod 2^32), one carry chain: a carry-save layer folds `now`, `!x` and `!y`
/// into two words, and `AddSub` subtracts `z` from their sum (`now + !x + 1 + !y + 1 − z`); one
/// less without `cin`.
#[derive(LogicBlock, Default)]
pub struct Lag4 {
    pub now: Signal<In, Bits<32>>,
    pub x: Signal<In, Bits<32>>,
    pub y: Signal<In, Bits<32>>,
    pub z: Signal<In, Bits<32>>,
    pub cin: Signal<In, Bit>,
    pub out: Signal<Out, Bits<32>>,
    nx: Signal<Local, Bits<32>>,
    ny: Signal<Local, Bits<32>>,
    csa_sum: Signal<Local, Bits<32>>,
    csa_carry: Signal<Local, Bits<32>>,
    chain: AddSub<32>,
}

impl Logic for Lag4 {
    #[hdl_gen]
    fn update(&mut self) {
        self.nx.next = !self.x.val();
        self.ny.next = !self.y.val();
        self.csa_sum.next = self.now.val() ^ self.nx.val() ^ self.ny.val();
        // the carry word's free bit 0 takes one of the two 1s
        self.csa_carry.next = (((self.now.val() & self.nx.val()) | (self.now.val() & self.ny.val())
            | (self.nx.val() & self.ny.val())) << 1) | 1;
        self.chain.a.next = self.csa_sum.val();
        self.chain.b.next = self.csa_carry.val();
        self.chain.sub.next = self.z.val();
        self.chain.cin.next = self.cin.val();
        self.out.next = self.chain.out.val();
    }
}

/// The control law's values stage `A` makes (`LawValue`, from registers only): for the law a
/// due mark of `A`'s dequeue adds, one per table index its queue's `law_inc` can hold after `B`
/// (`r_law_inc`; `r_idx2` when `B` marks; 8, the index of 2, when `B` enters; `b_ix_reinc`
/// when `B` re-enters CoDel), and CoDel's two entry laws `P/√delta` and `P/√1`. Combinational.
#[derive(LogicBlock, Default)]
pub struct LawCandidates {
    pub r_law_inc: Signal<In, Bits<7>>,
    pub r_idx2: Signal<In, Bits<7>>,
    pub r_law_delta: Signal<In, Bits<7>>,
    pub b_ix_reinc: Signal<In, Bits<7>>,
    pub harmonic: Signal<In, Bit>,
    pub lut0: Signal<In, Bits<32>>,
    pub lut1: Signal<In, Bits<32>>,
    pub lut2: Signal<In, Bits<32>>,
    pub lut3: Signal<In, Bits<32>>,
    pub lut_bias: Signal<In, Bits<6>>,
    pub lv_inc: Signal<Out, Bits<24>>,
    pub lv_idx2: Signal<Out, Bits<24>>,
    pub lv_two: Signal<Out, Bits<24>>,
    pub lv_re: Signal<Out, Bits<24>>,
    pub lv_delta: Signal<Out, Bits<24>>,
    pub lv_one: Signal<Out, Bits<24>>,
    v_inc: LawValue,
    v_idx2: LawValue,
    v_two: LawValue,
    v_re: LawValue,
    v_delta: LawValue,
    v_one: LawValue,
}

impl Logic for LawCandidates {
    #[hdl_gen]
    fn update(&mut self) {
        self.v_inc.idx.next = self.r_law_inc.val();
        self.v_idx2.idx.next = self.r_idx2.val();
        self.v_two.idx.next = 8.into();
        self.v_re.idx.next = self.b_ix_reinc.val();
        self.v_delta.idx.next = self.r_law_delta.val();
        self.v_one.idx.next = 0.into();
        self.v_inc.harmonic.next = self.harmonic.val();
        self.v_idx2.harmonic.next = self.harmonic.val();
        self.v_two.harmonic.next = self.harmonic.val();
        self.v_re.harmonic.next = self.harmonic.val();
        self.v_delta.harmonic.next = false;
        self.v_one.harmonic.next = false;
        self.v_inc.lut0.next = self.lut0.val();
        self.v_inc.lut1.next = self.lut1.val();
        self.v_inc.lut2.next = self.lut2.val();
        self.v_inc.lut3.next = self.lut3.val();
        self.v_inc.lut_bias.next = self.lut_bias.val();
        self.v_idx2.lut0.next = self.lut0.val();
        self.v_idx2.lut1.next = self.lut1.val();
        self.v_idx2.lut2.next = self.lut2.val();
        self.v_idx2.lut3.next = self.lut3.val();
        self.v_idx2.lut_bias.next = self.lut_bias.val();
        self.v_two.lut0.next = self.lut0.val();
        self.v_two.lut1.next = self.lut1.val();
        self.v_two.lut2.next = self.lut2.val();
        self.v_two.lut3.next = self.lut3.val();
        self.v_two.lut_bias.next = self.lut_bias.val();
        self.v_re.lut0.next = self.lut0.val();
        self.v_re.lut1.next = self.lut1.val();
        self.v_re.lut2.next = self.lut2.val();
        self.v_re.lut3.next = self.lut3.val();
        self.v_re.lut_bias.next = self.lut_bias.val();
        self.v_delta.lut0.next = self.lut0.val();
        self.v_delta.lut1.next = self.lut1.val();
        self.v_delta.lut2.next = self.lut2.val();
        self.v_delta.lut3.next = self.lut3.val();
        self.v_delta.lut_bias.next = self.lut_bias.val();
        self.v_one.lut0.next = self.lut0.val();
        self.v_one.lut1.next = self.lut1.val();
        self.v_one.lut2.next = self.lut2.val();
        self.v_one.lut3.next = self.lut3.val();
        self.v_one.lut_bias.next = self.lut_bias.val();
        self.lv_inc.next = self.v_inc.val.val();
        self.lv_idx2.next = self.v_idx2.val.val();
        self.lv_two.next = self.v_two.val.val();
        self.lv_re.next = self.v_re.val.val();
        self.lv_delta.next = self.v_delta.val.val();
        self.lv_one.next = self.v_one.val.val();
    }
}

/// The counts and table indices a dequeue in `A` can need, each from one carry chain on its
/// queue's registers (`r_cnt`, `r_lc`) and a saturation test beside it (every sum saturates at
/// 65,535 as the count does), made for every outcome of `B` and selected by it, so `B` writes
/// them from registers. Combinational.
///
/// - For an entry of `A`'s dequeue, from the registers alone (a queue enters only when it is
///   not marking, and then `B` has not moved its counts): `delta = cnt − lastcount`, and the
///   indices of `delta + 1`, `delta + 2` (CoDel's re-entry) and `1 − lastcount` (ECN♯'s entry).
/// - For a due mark of `A`'s dequeue: the count after it, `cnt + 1`, and the indices of
///   `cnt + 3` and `cnt + 1 − lastcount`, on the counts `B` leaves: the registers' (`B` did not
///   move them), after `B`'s due mark (`cnt + 1`), after `B`'s entry (count 1, and `lastcount`
///   1 under CoDel), after `B`'s CoDel re-entry (both `delta`).
#[derive(LogicBlock, Default)]
pub struct CountIndices {
    pub r_cnt: Signal<In, Bits<16>>,
    pub r_lc: Signal<In, Bits<16>>,
    /// `B`'s outcome for the same queue (`fwd`), as `PipeAhead` reads it.
    pub fwd: Signal<In, Bit>,
    pub out_step: Signal<In, Bit>,
    pub out_entry: Signal<In, Bit>,
    pub reentry: Signal<In, Bit>,
    pub b_codel: Signal<In, Bit>,
    pub delta: Signal<Out, Bits<16>>,
    pub ix_reinc: Signal<Out, Bits<7>>,
    pub ix_reinc2: Signal<Out, Bits<7>>,
    pub ix_sharp: Signal<Out, Bits<7>>,
    pub cnt_inc: Signal<Out, Bits<16>>,
    pub ix_after: Signal<Out, Bits<7>>,
    pub ix_delta_due: Signal<Out, Bits<7>>,
    /// `cnt + k − lastcount`, one chain each (`AddSub`).
    d1: AddSub<16>,
    d2: AddSub<16>,
    d3: AddSub<16>,
    c1: Signal<Local, Bits<16>>,
    c2: Signal<Local, Bits<16>>,
    d1_sat: Signal<Local, Bit>,
    i_lc_inv: LawIndex,
    i_d1: LawIndex,
    i_d2: LawIndex,
    i_d3: LawIndex,
    i_c3: LawIndex,
    i_c4: LawIndex,
    i_sharp1: LawIndex,
    i_sharp2: LawIndex,
}

impl Logic for CountIndices {
    #[hdl_gen]
    fn update(&mut self) {
        self.d1.a.next = self.r_cnt.val();
        self.d1.b.next = 0.into();
        self.d1.sub.next = self.r_lc.val();
        self.d1.cin.next = true;
        self.d2.a.next = self.r_cnt.val();
        self.d2.b.next = 2.into();
        self.d2.sub.next = self.r_lc.val();
        self.d2.cin.next = false;
        self.d3.a.next = self.r_cnt.val();
        self.d3.b.next = 3.into();
        self.d3.sub.next = self.r_lc.val();
        self.d3.cin.next = false;
        self.delta.next = self.r_cnt.val() - self.r_lc.val();
        self.i_lc_inv.c.next = !self.r_lc.val();
        self.i_d1.c.next = self.d1.out.val();
        self.i_d2.c.next = self.d2.out.val();
        self.i_d3.c.next = self.d3.out.val();
        self.i_c3.c.next = self.r_cnt.val() + 3;
        self.i_c4.c.next = self.r_cnt.val() + 4;
        self.i_sharp1.c.next = bits::<16>(1) - self.r_lc.val();
        self.i_sharp2.c.next = bits::<16>(2) - self.r_lc.val();
        // an entry of `A`'s dequeue; `delta + k` saturates where it wraps below `k`, and the
        // index of 65,535 is 127
        self.d1_sat.next = !self.d1.out.val().any();
        self.ix_reinc.next = self.i_d1.idx.val();
        if self.d1_sat.val() {
            self.ix_reinc.next = 127.into();
        }
        self.ix_reinc2.next = self.i_d2.idx.val();
        if !self.d2.out.val().get_bits::<15>(1).any() {
            self.ix_reinc2.next = 127.into();
        }
        self.ix_sharp.next = self.i_sharp1.idx.val();
        // a due mark of `A`'s dequeue: `cnt + k` saturates from `65,536 − k`, read on `cnt`
        self.c1.next = self.r_cnt.val() + 1;
        if self.r_cnt.val().all() {
            self.c1.next = self.r_cnt.val();
        }
        self.c2.next = self.r_cnt.val() + 2;
        if self.r_cnt.val().get_bits::<15>(1).all() {
            self.c2.next = 0xFFFF.into();
        }
        // on the registers' counts (`sat(cnt + 1) − lastcount` is `!lastcount` at 65,535)
        self.cnt_inc.next = self.c1.val();
        self.ix_after.next = self.i_c3.idx.val();
        if self.r_cnt.val() >= 0xFFFD {
            self.ix_after.next = 127.into();
        }
        self.ix_delta_due.next = self.i_d1.idx.val();
        if self.r_cnt.val().all() {
            self.ix_delta_due.next = self.i_lc_inv.idx.val();
        }
        if self.fwd.val() & self.out_step.val() {
            // after `B`'s due mark: the count is `sat(cnt + 1)`
            self.cnt_inc.next = self.c2.val();
            self.ix_after.next = self.i_c4.idx.val();
            if self.r_cnt.val().get_bits::<14>(2).all() {
                self.ix_after.next = 127.into();
            }
            self.ix_delta_due.next = self.i_d2.idx.val();
            if self.r_cnt.val().get_bits::<15>(1).all() {
                self.ix_delta_due.next = self.i_lc_inv.idx.val();
            }
        }
        if self.fwd.val() & self.out_entry.val() {
            // after `B`'s entry: the count is 1 (`cnt + 1` is 2, `cnt + 3` is 4, index 16);
            // `lastcount` is 1 under CoDel (index of 1: 0) and unchanged under ECN♯
            self.cnt_inc.next = 2.into();
            self.ix_after.next = 16.into();
            self.ix_delta_due.next = self.i_sharp2.idx.val();
            if self.b_codel.val() {
                self.ix_delta_due.next = 0.into();
                if self.reentry.val() {
                    // after CoDel's re-entry: count and `lastcount` are `delta`, so the index
                    // of `sat(delta + 1) − delta` (1, or 0 at 65,535) is 0
                    self.cnt_inc.next = self.d1.out.val();
                    if self.d1_sat.val() {
                        self.cnt_inc.next = 0xFFFF.into();
                    }
                    self.ix_after.next = self.i_d3.idx.val();
                    if !self.d3.out.val().get_bits::<14>(2).any() & (self.d3.out.val().get_bits::<2>(0) != 3) {
                        self.ix_after.next = 127.into();
                    }
                }
            }
        }
    }
}

crate::pin_io!(CountIndices; comb;
    in: r_cnt, r_lc, fwd, out_step, out_entry, reentry, b_codel;
    out: delta, ix_reinc, ix_reinc2, ix_sharp, cnt_inc, ix_after, ix_delta_due);

/// Stage `B`'s decision, from registers only (`s_*`: the state `A` saw, with `B`'s outcome for
/// the dequeue before forwarded; `b_*`: `A`'s results), and the state it leaves (`n_*`). Its
/// outcomes (`out_*`) select `A`'s candidates for the next dequeue. Combinational.
#[derive(LogicBlock, Default)]
pub struct PipeDecide {
    pub b_deq: Signal<In, Bit>,
    pub b_track: Signal<In, Bit>,
    pub b_below: Signal<In, Bit>,
    pub b_aged: Signal<In, Bit>,
    pub b_ins: Signal<In, Bit>,
    pub b_ecn: Signal<In, Bits<2>>,
    pub b_now: Signal<In, Bits<32>>,
    /// A mark is due, and the lag clamp applies, on the state `A` saw (`LagTest`).
    pub b_due: Signal<In, Bit>,
    pub b_clamp: Signal<In, Bit>,
    pub b_recent: Signal<In, Bit>,
    pub b_delta_gt1: Signal<In, Bit>,
    pub b_delta: Signal<In, Bits<16>>,
    pub b_law: Signal<In, Bits<24>>,
    pub b_law_delta_v: Signal<In, Bits<24>>,
    pub b_law_one_v: Signal<In, Bits<24>>,
    pub b_ix_reinc: Signal<In, Bits<7>>,
    pub b_ix_reinc2: Signal<In, Bits<7>>,
    pub b_ix_sharp: Signal<In, Bits<7>>,
    pub b_codel: Signal<In, Bit>,
    pub b_sharp: Signal<In, Bit>,
    pub b_ns3: Signal<In, Bit>,
    pub b_drop_non_ect: Signal<In, Bit>,
    pub b_interval: Signal<In, Bits<16>>,
    pub s_ms: Signal<In, Bit>,
    pub s_fv: Signal<In, Bit>,
    pub s_dl: Signal<In, Bit>,
    pub s_fat: Signal<In, Bits<32>>,
    pub s_cnt: Signal<In, Bits<16>>,
    pub s_lc: Signal<In, Bits<16>>,
    pub s_base: Signal<In, Bits<32>>,
    pub s_law: Signal<In, Bits<24>>,
    pub s_law_inc: Signal<In, Bits<7>>,
    pub s_law_delta: Signal<In, Bits<7>>,
    pub s_idx2: Signal<In, Bits<7>>,
    /// A due mark's count and indices on the state `A` saw (`A`'s `CountIndices`).
    pub cnt_inc: Signal<In, Bits<16>>,
    pub ix_after: Signal<In, Bits<7>>,
    pub ix_delta_due: Signal<In, Bits<7>>,
    pub n_ms: Signal<Out, Bit>,
    pub n_fv: Signal<Out, Bit>,
    pub n_dl: Signal<Out, Bit>,
    pub n_fat: Signal<Out, Bits<32>>,
    pub n_cnt: Signal<Out, Bits<16>>,
    pub n_lc: Signal<Out, Bits<16>>,
    pub n_base: Signal<Out, Bits<32>>,
    pub n_law: Signal<Out, Bits<24>>,
    pub n_law_inc: Signal<Out, Bits<7>>,
    pub n_law_delta: Signal<Out, Bits<7>>,
    pub n_idx2: Signal<Out, Bits<7>>,
    pub out_step: Signal<Out, Bit>,
    pub out_entry: Signal<Out, Bit>,
    pub out_setfat: Signal<Out, Bit>,
    pub clamp: Signal<Out, Bit>,
    pub reentry: Signal<Out, Bit>,
    /// `marking_next` of `s_*` (`s_base + s_law`).
    pub next_sum: Signal<Out, Bits<32>>,
    pub ins: Signal<Out, Bit>,
    pub det: Signal<Out, Bit>,
    pub pst: Signal<Out, Bit>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop: Signal<Out, Bit>,
    pub ev_marked: Signal<Out, Bit>,
    det_w: Signal<Local, Bit>,
    due: Signal<Local, Bit>,
    pst_w: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    is_ect: Signal<Local, Bit>,
}

impl Logic for PipeDecide {
    #[hdl_gen]
    fn update(&mut self) {
        self.n_ms.next = self.s_ms.val();
        self.n_fv.next = self.s_fv.val();
        self.n_dl.next = self.s_dl.val();
        self.n_fat.next = self.s_fat.val();
        self.n_cnt.next = self.s_cnt.val();
        self.n_lc.next = self.s_lc.val();
        self.n_base.next = self.s_base.val();
        self.n_law.next = self.s_law.val();
        self.n_law_inc.next = self.s_law_inc.val();
        self.n_law_delta.next = self.s_law_delta.val();
        self.n_idx2.next = self.s_idx2.val();
        self.next_sum.next = self.s_base.val() + bit_cast::<32, 24>(self.s_law.val());
        self.due.next = self.b_due.val();
        self.clamp.next = self.b_clamp.val();
        self.reentry.next = self.b_delta_gt1.val() & self.b_recent.val();
        // --- the above-target tracker
        self.det_w.next = !self.b_below.val() & self.s_fv.val() & (self.s_dl.val() | self.b_aged.val());
        self.out_setfat.next = self.b_track.val() & !self.b_below.val() & !self.s_fv.val();
        if self.b_track.val() {
            if self.b_below.val() {
                self.n_fv.next = false;
                self.n_dl.next = false;
            } else if !self.s_fv.val() {
                self.n_fv.next = true;
                self.n_fat.next = self.b_now.val();
            } else {
                self.n_dl.next = self.det_w.val();
            }
        }
        // --- the persistent rules (ECN♯ Algorithm 1, CoDel)
        self.pst_w.next = false;
        self.out_step.next = false;
        self.out_entry.next = false;
        if self.b_track.val() {
            if self.s_ms.val() {
                if !self.det_w.val() {
                    self.n_ms.next = false;
                } else if self.due.val() {
                    self.pst_w.next = true;
                    self.out_step.next = true;
                    self.n_cnt.next = self.cnt_inc.val();
                    self.n_law_inc.next = self.s_idx2.val();
                    self.n_idx2.next = self.ix_after.val();
                    self.n_law_delta.next = self.ix_delta_due.val();
                    self.n_law.next = self.b_law.val();
                    self.n_base.next = self.next_sum.val();
                    if self.clamp.val() {
                        self.n_base.next = self.b_now.val() - 0x4000_0000;
                    }
                    if self.b_sharp.val() & self.b_ns3.val() {
                        self.n_base.next = self.b_now.val();
                    }
                }
            } else if self.det_w.val() {
                self.n_ms.next = true;
                self.pst_w.next = true;
                self.out_entry.next = true;
                self.n_base.next = self.b_now.val();
                if self.b_codel.val() {
                    self.n_cnt.next = 1.into();
                    self.n_lc.next = 1.into();
                    self.n_law.next = self.b_law_one_v.val();
                    self.n_law_inc.next = 8.into();
                    self.n_idx2.next = 12.into();
                    if self.reentry.val() {
                        self.n_cnt.next = self.b_delta.val();
                        self.n_lc.next = self.b_delta.val();
                        self.n_law.next = self.b_law_delta_v.val();
                        self.n_law_inc.next = self.b_ix_reinc.val();
                        self.n_idx2.next = self.b_ix_reinc2.val();
                    }
                    self.n_law_delta.next = 0.into();
                } else {
                    self.n_cnt.next = 1.into();
                    self.n_law_inc.next = 8.into();
                    self.n_idx2.next = 12.into();
                    self.n_law_delta.next = self.b_ix_sharp.val();
                    self.n_law.next = bit_cast::<24, 16>(self.b_interval.val());
                }
            }
        }
        // --- the verdict
        self.is_ect.next = (self.b_ecn.val() == 1) | (self.b_ecn.val() == 2);
        self.fire.next = self.b_deq.val() & (self.b_ins.val() | self.pst_w.val());
        self.ins.next = self.b_deq.val() & self.b_ins.val();
        self.det.next = self.b_track.val() & self.det_w.val();
        self.pst.next = self.pst_w.val();
        self.ecn_out.next = self.b_ecn.val();
        self.drop.next = false;
        if self.fire.val() & self.is_ect.val() {
            self.ecn_out.next = 3.into();
        }
        if self.fire.val() & (self.b_ecn.val() == 0) & self.b_drop_non_ect.val() {
            self.drop.next = true;
        }
        self.ev_marked.next = self.fire.val() & self.is_ect.val();
    }
}


/// Stage `A`: every carry chain and division on the dequeue's inputs and its queue's registers,
/// each state-dependent one for every outcome of `B` (`fwd` and `out_*`: `B` holds a dequeue of
/// the same queue, and what it decides), but the counts' (`CountIndices`, beside it in
/// `MarkerPipe`). Combinational; its outputs load `B`'s registers.
#[derive(LogicBlock, Default)]
pub struct PipeAhead {
    pub deq: Signal<In, Bit>,
    pub now: Signal<In, Bits<32>>,
    pub ts: Signal<In, Bits<32>>,
    pub qlen: Signal<In, Bits<32>>,
    pub mode_sel: Signal<In, Bits<3>>,
    pub is_codel: Signal<In, Bit>,
    pub is_sharp: Signal<In, Bit>,
    pub harmonic: Signal<In, Bit>,
    pub due_ge: Signal<In, Bit>,
    pub ins_target: Signal<In, Bits<32>>,
    pub k: Signal<In, Bits<32>>,
    pub pst_target: Signal<In, Bits<32>>,
    pub interval32: Signal<In, Bits<32>>,
    pub codel_min_qlen: Signal<In, Bits<32>>,
    pub lut0: Signal<In, Bits<32>>,
    pub lut1: Signal<In, Bits<32>>,
    pub lut2: Signal<In, Bits<32>>,
    pub lut3: Signal<In, Bits<32>>,
    pub lut_bias: Signal<In, Bits<6>>,
    pub r_fat: Signal<In, Bits<32>>,
    pub r_base: Signal<In, Bits<32>>,
    pub r_law: Signal<In, Bits<24>>,
    pub r_law_inc: Signal<In, Bits<7>>,
    pub r_law_delta: Signal<In, Bits<7>>,
    pub r_idx2: Signal<In, Bits<7>>,
    pub b_now: Signal<In, Bits<32>>,
    pub b_law: Signal<In, Bits<24>>,
    pub b_law_delta_v: Signal<In, Bits<24>>,
    pub b_law_one_v: Signal<In, Bits<24>>,
    pub b_ix_reinc: Signal<In, Bits<7>>,
    pub b_codel: Signal<In, Bit>,
    pub b_sharp: Signal<In, Bit>,
    pub b_ns3: Signal<In, Bit>,
    pub b_interval: Signal<In, Bits<16>>,
    pub fwd: Signal<In, Bit>,
    pub out_step: Signal<In, Bit>,
    pub out_entry: Signal<In, Bit>,
    pub out_setfat: Signal<In, Bit>,
    pub clamp: Signal<In, Bit>,
    pub reentry: Signal<In, Bit>,
    pub track: Signal<Out, Bit>,
    pub below: Signal<Out, Bit>,
    pub ins_w: Signal<Out, Bit>,
    pub aged: Signal<Out, Bit>,
    /// A due mark and the lag clamp (`LagTest`) on the `marking_next` this dequeue sees.
    pub due: Signal<Out, Bit>,
    pub lag_clamp: Signal<Out, Bit>,
    pub recent: Signal<Out, Bit>,
    /// The law a due mark of this dequeue adds (`P/c` or `P/√c` of the count after it).
    pub law: Signal<Out, Bits<24>>,
    pub lv_delta: Signal<Out, Bits<24>>,
    pub lv_one: Signal<Out, Bits<24>>,
    laws: LawCandidates,
    ins_above: WrapDiffAbove,
    at_target: WrapDiffAbove,
    aged_r: WrapDiffAbove,
    aged_n: WrapDiffAbove,
    /// `now − marking_next` (and one less, `*_1`) for each `marking_next` the queue can hold
    /// after `B`: its registers' (`lag_r`), after a due mark from `next` (`lag_s`), from `B`'s
    /// `now` (`lag_n`, ns-3's law; under the lag clamp, from `now − 2^30`, it is `lag_n + 2^30`,
    /// whose tests read `lag_n`'s top bits), after an entry (`lag_e`).
    lag_r: Lag3,
    lag_r1: Lag3,
    lag_s: Lag4,
    lag_s1: Lag4,
    lag_n: Lag3,
    lag_n1: Lag3,
    lag_e: Lag3,
    lag_e1: Lag3,
    t_r: LagTest,
    t_s: LagTest,
    t_n: LagTest,
    t_e: LagTest,
    /// `lag_r − 16 · interval` (mod 2^32), for CoDel's "recently".
    lag_16i: Lag4,
    ge: Signal<Local, Bit>,
    c_neg: Signal<Local, Bit>,
    c_due: Signal<Local, Bit>,
    c_clamp: Signal<Local, Bit>,
    entry_law: Signal<Local, Bits<24>>,
}

impl Logic for PipeAhead {
    #[hdl_gen]
    fn update(&mut self) {
        self.track.next = self.deq.val() & (self.is_sharp.val() | self.is_codel.val());
        // the sojourn against the targets, one chain each from `now` and the stamp
        self.at_target.a.next = self.now.val();
        self.at_target.b.next = self.ts.val();
        self.at_target.c.next = self.pst_target.val();
        self.at_target.ge.next = true;
        self.below.next = !self.at_target.above.val();
        if self.is_codel.val() & (self.qlen.val() <= self.codel_min_qlen.val()) {
            self.below.next = true;
        }
        self.ins_above.a.next = self.now.val();
        self.ins_above.b.next = self.ts.val();
        self.ins_above.c.next = self.ins_target.val();
        self.ins_above.ge.next = false;
        self.ins_w.next = false;
        if self.mode_sel.val() == 1 {
            self.ins_w.next = self.qlen.val() > self.k.val();
        }
        if (self.mode_sel.val() == 2) | self.is_sharp.val() {
            self.ins_w.next = self.ins_above.above.val();
        }
        // the tracker's age: from its registers, or from `B`'s `now` when `B` starts it
        self.aged_r.a.next = self.now.val();
        self.aged_r.b.next = self.r_fat.val();
        self.aged_r.c.next = self.interval32.val();
        self.aged_r.ge.next = self.is_codel.val();
        self.aged_n.a.next = self.now.val();
        self.aged_n.b.next = self.b_now.val();
        self.aged_n.c.next = self.interval32.val();
        self.aged_n.ge.next = self.is_codel.val();
        self.aged.next = self.aged_r.above.val();
        if self.fwd.val() & self.out_setfat.val() {
            self.aged.next = self.aged_n.above.val();
        }
        // the lag for each `marking_next` after `B`, and its tests
        self.lag_r.now.next = self.now.val();
        self.lag_r.x.next = self.r_base.val();
        self.lag_r.y.next = bit_cast::<32, 24>(self.r_law.val());
        self.lag_r.cin.next = true;
        self.lag_r1.now.next = self.now.val();
        self.lag_r1.x.next = self.r_base.val();
        self.lag_r1.y.next = bit_cast::<32, 24>(self.r_law.val());
        self.lag_r1.cin.next = false;
        self.lag_s.now.next = self.now.val();
        self.lag_s.x.next = self.r_base.val();
        self.lag_s.y.next = bit_cast::<32, 24>(self.r_law.val());
        self.lag_s.z.next = bit_cast::<32, 24>(self.b_law.val());
        self.lag_s.cin.next = true;
        self.lag_s1.now.next = self.now.val();
        self.lag_s1.x.next = self.r_base.val();
        self.lag_s1.y.next = bit_cast::<32, 24>(self.r_law.val());
        self.lag_s1.z.next = bit_cast::<32, 24>(self.b_law.val());
        self.lag_s1.cin.next = false;
        self.lag_n.now.next = self.now.val();
        self.lag_n.x.next = self.b_now.val();
        self.lag_n.y.next = bit_cast::<32, 24>(self.b_law.val());
        self.lag_n.cin.next = true;
        self.lag_n1.now.next = self.now.val();
        self.lag_n1.x.next = self.b_now.val();
        self.lag_n1.y.next = bit_cast::<32, 24>(self.b_law.val());
        self.lag_n1.cin.next = false;
        self.entry_law.next = bit_cast::<24, 16>(self.b_interval.val());
        if self.b_codel.val() {
            self.entry_law.next = self.b_law_one_v.val();
            if self.reentry.val() {
                self.entry_law.next = self.b_law_delta_v.val();
            }
        }
        self.lag_e.now.next = self.now.val();
        self.lag_e.x.next = self.b_now.val();
        self.lag_e.y.next = bit_cast::<32, 24>(self.entry_law.val());
        self.lag_e.cin.next = true;
        self.lag_e1.now.next = self.now.val();
        self.lag_e1.x.next = self.b_now.val();
        self.lag_e1.y.next = bit_cast::<32, 24>(self.entry_law.val());
        self.lag_e1.cin.next = false;
        // `now ≥ next` is due, or `now > next` for ECN♯ without `due_ge`
        self.ge.next = !(self.is_sharp.val() & !self.due_ge.val());
        self.t_r.d.next = self.lag_r.out.val();
        self.t_r.m1.next = self.lag_r1.out.val();
        self.t_r.ge.next = self.ge.val();
        self.t_s.d.next = self.lag_s.out.val();
        self.t_s.m1.next = self.lag_s1.out.val();
        self.t_s.ge.next = self.ge.val();
        self.t_n.d.next = self.lag_n.out.val();
        self.t_n.m1.next = self.lag_n1.out.val();
        self.t_n.ge.next = self.ge.val();
        self.t_e.d.next = self.lag_e.out.val();
        self.t_e.m1.next = self.lag_e1.out.val();
        self.t_e.ge.next = self.ge.val();
        // the clamped step's lag is `lag_n + 2^30`: its top two bits are `lag_n`'s plus one
        self.c_neg.next = ((self.lag_n.out.val() & 0xC000_0000u64) == 0x4000_0000u64)
            | ((self.lag_n.out.val() & 0xC000_0000u64) == 0x8000_0000u64);
        self.c_due.next = !self.c_neg.val()
            & (self.ge.val() | ((self.lag_n1.out.val() & 0xC000_0000u64) == 0)
                | ((self.lag_n1.out.val() & 0xC000_0000u64) == 0xC000_0000u64));
        self.c_clamp.next = !self.c_neg.val() & ((self.lag_n1.out.val() & 0xC000_0000u64) == 0);
        self.due.next = self.t_r.due.val();
        self.lag_clamp.next = self.t_r.clamp.val();
        if self.fwd.val() & self.out_step.val() {
            self.due.next = self.t_s.due.val();
            self.lag_clamp.next = self.t_s.clamp.val();
            if self.clamp.val() {
                self.due.next = self.c_due.val();
                self.lag_clamp.next = self.c_clamp.val();
            }
            if self.b_sharp.val() & self.b_ns3.val() {
                self.due.next = self.t_n.due.val();
                self.lag_clamp.next = self.t_n.clamp.val();
            }
        }
        if self.fwd.val() & self.out_entry.val() {
            self.due.next = self.t_e.due.val();
            self.lag_clamp.next = self.t_e.clamp.val();
        }
        // "recently" (CoDel): only an entry reads it, and only a queue not marking enters,
        // whose `marking_next` `B` has not moved
        self.lag_16i.now.next = self.now.val();
        self.lag_16i.x.next = self.r_base.val();
        self.lag_16i.y.next = bit_cast::<32, 24>(self.r_law.val());
        self.lag_16i.z.next = self.interval32.val() << 4;
        self.lag_16i.cin.next = true;
        // (its sign through a mask, which yosys reduces to the bit: the lint wants every bit read)
        self.recent.next = self.lag_r.out.val().get_bit(31) | ((self.lag_16i.out.val() & 0x8000_0000u64) != 0);
        // the control law
        self.laws.r_law_inc.next = self.r_law_inc.val();
        self.laws.r_idx2.next = self.r_idx2.val();
        self.laws.r_law_delta.next = self.r_law_delta.val();
        self.laws.b_ix_reinc.next = self.b_ix_reinc.val();
        self.laws.harmonic.next = self.harmonic.val();
        self.laws.lut0.next = self.lut0.val();
        self.laws.lut1.next = self.lut1.val();
        self.laws.lut2.next = self.lut2.val();
        self.laws.lut3.next = self.lut3.val();
        self.laws.lut_bias.next = self.lut_bias.val();
        self.law.next = self.laws.lv_inc.val();
        if self.fwd.val() & self.out_step.val() {
            self.law.next = self.laws.lv_idx2.val();
        }
        if self.fwd.val() & self.out_entry.val() {
            self.law.next = self.laws.lv_two.val();
            if self.b_codel.val() & self.reentry.val() {
                self.law.next = self.laws.lv_re.val();
            }
        }
        self.lv_delta.next = self.laws.lv_delta.val();
        self.lv_one.next = self.laws.lv_one.val();
    }
}

/// Stage `B`: `A`'s results in registers (`a_*` in, loaded every clock), the state `A` saw
/// (`r_*`, or `B`'s own outcome when `fwd`), and the decision (`PipeDecide`).
#[derive(LogicBlock, Default)]
pub struct PipeStageB {
    pub clock: Signal<In, Clock>,
    pub a_deq: Signal<In, Bit>,
    pub a_cancel: Signal<In, Bit>,
    pub a_track: Signal<In, Bit>,
    pub a_below: Signal<In, Bit>,
    pub a_aged: Signal<In, Bit>,
    pub a_ins: Signal<In, Bit>,
    pub a_ecn: Signal<In, Bits<2>>,
    pub a_now: Signal<In, Bits<32>>,
    pub a_due: Signal<In, Bit>,
    pub a_clamp: Signal<In, Bit>,
    pub a_recent: Signal<In, Bit>,
    pub a_law: Signal<In, Bits<24>>,
    pub a_law_delta_v: Signal<In, Bits<24>>,
    pub a_law_one_v: Signal<In, Bits<24>>,
    pub a_codel: Signal<In, Bit>,
    pub a_sharp: Signal<In, Bit>,
    pub a_ns3: Signal<In, Bit>,
    pub a_drop_non_ect: Signal<In, Bit>,
    pub a_interval: Signal<In, Bits<16>>,
    pub a_delta: Signal<In, Bits<16>>,
    pub a_ix_reinc: Signal<In, Bits<7>>,
    pub a_ix_reinc2: Signal<In, Bits<7>>,
    pub a_ix_sharp: Signal<In, Bits<7>>,
    pub a_cnt_inc: Signal<In, Bits<16>>,
    pub a_ix_after: Signal<In, Bits<7>>,
    pub a_ix_delta_due: Signal<In, Bits<7>>,
    pub same_q: Signal<In, Bit>,
    pub r_ms: Signal<In, Bit>,
    pub r_fv: Signal<In, Bit>,
    pub r_dl: Signal<In, Bit>,
    pub r_fat: Signal<In, Bits<32>>,
    pub r_cnt: Signal<In, Bits<16>>,
    pub r_lc: Signal<In, Bits<16>>,
    pub r_base: Signal<In, Bits<32>>,
    pub r_law: Signal<In, Bits<24>>,
    pub r_law_inc: Signal<In, Bits<7>>,
    pub r_law_delta: Signal<In, Bits<7>>,
    pub r_idx2: Signal<In, Bits<7>>,
    pub fwd: Signal<Out, Bit>,
    pub write: Signal<Out, Bit>,
    pub b_now: Signal<Out, Bits<32>>,
    pub b_law: Signal<Out, Bits<24>>,
    pub b_law_delta_v: Signal<Out, Bits<24>>,
    pub b_law_one_v: Signal<Out, Bits<24>>,
    pub b_ix_reinc: Signal<Out, Bits<7>>,
    pub b_codel: Signal<Out, Bit>,
    pub b_sharp: Signal<Out, Bit>,
    pub b_ns3: Signal<Out, Bit>,
    pub b_interval: Signal<Out, Bits<16>>,
    pub st_ms: Signal<Out, Bit>,
    pub st_fv: Signal<Out, Bit>,
    pub st_dl: Signal<Out, Bit>,
    pub st_fat: Signal<Out, Bits<32>>,
    pub st_cnt: Signal<Out, Bits<16>>,
    pub st_lc: Signal<Out, Bits<16>>,
    /// `PipeDecide`'s outputs.
    pub n_ms: Signal<Out, Bit>,
    pub n_fv: Signal<Out, Bit>,
    pub n_dl: Signal<Out, Bit>,
    pub n_fat: Signal<Out, Bits<32>>,
    pub n_cnt: Signal<Out, Bits<16>>,
    pub n_lc: Signal<Out, Bits<16>>,
    pub n_base: Signal<Out, Bits<32>>,
    pub n_law: Signal<Out, Bits<24>>,
    pub n_law_inc: Signal<Out, Bits<7>>,
    pub n_law_delta: Signal<Out, Bits<7>>,
    pub n_idx2: Signal<Out, Bits<7>>,
    pub out_step: Signal<Out, Bit>,
    pub out_entry: Signal<Out, Bit>,
    pub out_setfat: Signal<Out, Bit>,
    pub clamp: Signal<Out, Bit>,
    pub reentry: Signal<Out, Bit>,
    pub next_sum: Signal<Out, Bits<32>>,
    pub ins: Signal<Out, Bit>,
    pub det: Signal<Out, Bit>,
    pub pst: Signal<Out, Bit>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop: Signal<Out, Bit>,
    pub ev_marked: Signal<Out, Bit>,
    decide: PipeDecide,
    b_deq: DFF<Bit>,
    b_cancel: DFF<Bit>,
    b_track: DFF<Bit>,
    b_below: DFF<Bit>,
    b_aged: DFF<Bit>,
    b_ins: DFF<Bit>,
    b_ecn: DFF<Bits<2>>,
    b_now_r: DFF<Bits<32>>,
    b_due: DFF<Bit>,
    b_clamp: DFF<Bit>,
    b_recent: DFF<Bit>,
    b_delta_gt1: DFF<Bit>,
    b_delta: DFF<Bits<16>>,
    b_law_r: DFF<Bits<24>>,
    b_law_delta_r: DFF<Bits<24>>,
    b_law_one_r: DFF<Bits<24>>,
    b_ix_reinc_r: DFF<Bits<7>>,
    b_ix_reinc2: DFF<Bits<7>>,
    b_ix_sharp: DFF<Bits<7>>,
    b_codel_r: DFF<Bit>,
    b_sharp_r: DFF<Bit>,
    b_ns3_r: DFF<Bit>,
    b_drop_non_ect: DFF<Bit>,
    b_interval_r: DFF<Bits<16>>,
    b_cnt_inc: DFF<Bits<16>>,
    b_ix_after: DFF<Bits<7>>,
    b_ix_delta_due: DFF<Bits<7>>,
    s_ms: DFF<Bit>,
    s_fv: DFF<Bit>,
    s_dl: DFF<Bit>,
    s_fat: DFF<Bits<32>>,
    s_cnt: DFF<Bits<16>>,
    s_lc: DFF<Bits<16>>,
    s_base: DFF<Bits<32>>,
    s_law: DFF<Bits<24>>,
    s_law_inc: DFF<Bits<7>>,
    s_law_delta: DFF<Bits<7>>,
    s_idx2: DFF<Bits<7>>,
}

impl Logic for PipeStageB {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, b_deq, b_cancel, b_track, b_below, b_aged, b_ins, b_ecn, b_now_r, b_due, b_clamp, b_recent, b_delta_gt1, b_delta, b_law_r,
            b_law_delta_r, b_law_one_r, b_ix_reinc_r, b_ix_reinc2, b_ix_sharp, b_codel_r, b_sharp_r, b_ns3_r, b_drop_non_ect,
            b_interval_r, b_cnt_inc, b_ix_after, b_ix_delta_due, s_ms, s_fv, s_dl, s_fat, s_cnt, s_lc, s_base, s_law, s_law_inc, s_law_delta, s_idx2
        );
        self.b_deq.d.next = self.a_deq.val();
        self.b_cancel.d.next = self.a_cancel.val();
        self.b_track.d.next = self.a_track.val();
        self.b_below.d.next = self.a_below.val();
        self.b_aged.d.next = self.a_aged.val();
        self.b_ins.d.next = self.a_ins.val();
        self.b_ecn.d.next = self.a_ecn.val();
        self.b_now_r.d.next = self.a_now.val();
        self.b_due.d.next = self.a_due.val();
        self.b_clamp.d.next = self.a_clamp.val();
        self.b_recent.d.next = self.a_recent.val();
        self.b_law_r.d.next = self.a_law.val();
        self.b_law_delta_r.d.next = self.a_law_delta_v.val();
        self.b_law_one_r.d.next = self.a_law_one_v.val();
        self.b_codel_r.d.next = self.a_codel.val();
        self.b_sharp_r.d.next = self.a_sharp.val();
        self.b_ns3_r.d.next = self.a_ns3.val();
        self.b_drop_non_ect.d.next = self.a_drop_non_ect.val();
        self.b_interval_r.d.next = self.a_interval.val();
        self.b_delta.d.next = self.a_delta.val();
        self.b_delta_gt1.d.next = self.r_law_delta.val().get_bits::<4>(3).any();
        self.b_ix_reinc_r.d.next = self.a_ix_reinc.val();
        self.b_ix_reinc2.d.next = self.a_ix_reinc2.val();
        self.b_ix_sharp.d.next = self.a_ix_sharp.val();
        self.b_cnt_inc.d.next = self.a_cnt_inc.val();
        self.b_ix_after.d.next = self.a_ix_after.val();
        self.b_ix_delta_due.d.next = self.a_ix_delta_due.val();
        // the decision
        self.decide.b_deq.next = self.b_deq.q.val();
        self.decide.b_track.next = self.b_track.q.val();
        self.decide.b_below.next = self.b_below.q.val();
        self.decide.b_aged.next = self.b_aged.q.val();
        self.decide.b_ins.next = self.b_ins.q.val();
        self.decide.b_ecn.next = self.b_ecn.q.val();
        self.decide.b_now.next = self.b_now_r.q.val();
        self.decide.b_due.next = self.b_due.q.val();
        self.decide.b_clamp.next = self.b_clamp.q.val();
        self.decide.b_recent.next = self.b_recent.q.val();
        self.decide.b_delta_gt1.next = self.b_delta_gt1.q.val();
        self.decide.b_delta.next = self.b_delta.q.val();
        self.decide.b_law.next = self.b_law_r.q.val();
        self.decide.b_law_delta_v.next = self.b_law_delta_r.q.val();
        self.decide.b_law_one_v.next = self.b_law_one_r.q.val();
        self.decide.b_ix_reinc.next = self.b_ix_reinc_r.q.val();
        self.decide.b_ix_reinc2.next = self.b_ix_reinc2.q.val();
        self.decide.b_ix_sharp.next = self.b_ix_sharp.q.val();
        self.decide.b_codel.next = self.b_codel_r.q.val();
        self.decide.b_sharp.next = self.b_sharp_r.q.val();
        self.decide.b_ns3.next = self.b_ns3_r.q.val();
        self.decide.b_drop_non_ect.next = self.b_drop_non_ect.q.val();
        self.decide.b_interval.next = self.b_interval_r.q.val();
        self.decide.s_ms.next = self.s_ms.q.val();
        self.decide.s_fv.next = self.s_fv.q.val();
        self.decide.s_dl.next = self.s_dl.q.val();
        self.decide.s_fat.next = self.s_fat.q.val();
        self.decide.s_cnt.next = self.s_cnt.q.val();
        self.decide.s_lc.next = self.s_lc.q.val();
        self.decide.s_base.next = self.s_base.q.val();
        self.decide.s_law.next = self.s_law.q.val();
        self.decide.s_law_inc.next = self.s_law_inc.q.val();
        self.decide.s_law_delta.next = self.s_law_delta.q.val();
        self.decide.s_idx2.next = self.s_idx2.q.val();
        self.decide.cnt_inc.next = self.b_cnt_inc.q.val();
        self.decide.ix_after.next = self.b_ix_after.q.val();
        self.decide.ix_delta_due.next = self.b_ix_delta_due.q.val();
        self.write.next = self.b_deq.q.val() & !self.b_cancel.q.val();
        self.b_now.next = self.b_now_r.q.val();
        self.b_law.next = self.b_law_r.q.val();
        self.b_law_delta_v.next = self.b_law_delta_r.q.val();
        self.b_law_one_v.next = self.b_law_one_r.q.val();
        self.b_ix_reinc.next = self.b_ix_reinc_r.q.val();
        self.b_codel.next = self.b_codel_r.q.val();
        self.b_sharp.next = self.b_sharp_r.q.val();
        self.b_ns3.next = self.b_ns3_r.q.val();
        self.b_interval.next = self.b_interval_r.q.val();
        self.st_ms.next = self.s_ms.q.val();
        self.st_fv.next = self.s_fv.q.val();
        self.st_dl.next = self.s_dl.q.val();
        self.st_fat.next = self.s_fat.q.val();
        self.st_cnt.next = self.s_cnt.q.val();
        self.st_lc.next = self.s_lc.q.val();
        // the state the next dequeue sees: the queue's registers, or this clock's outcome
        self.fwd.next = self.b_deq.q.val() & self.same_q.val() & !self.b_cancel.q.val();
        self.s_ms.d.next = self.r_ms.val();
        self.s_fv.d.next = self.r_fv.val();
        self.s_dl.d.next = self.r_dl.val();
        self.s_fat.d.next = self.r_fat.val();
        self.s_cnt.d.next = self.r_cnt.val();
        self.s_lc.d.next = self.r_lc.val();
        self.s_base.d.next = self.r_base.val();
        self.s_law.d.next = self.r_law.val();
        self.s_law_inc.d.next = self.r_law_inc.val();
        self.s_law_delta.d.next = self.r_law_delta.val();
        self.s_idx2.d.next = self.r_idx2.val();
        if self.fwd.val() {
            self.s_ms.d.next = self.decide.n_ms.val();
            self.s_fv.d.next = self.decide.n_fv.val();
            self.s_dl.d.next = self.decide.n_dl.val();
            self.s_fat.d.next = self.decide.n_fat.val();
            self.s_cnt.d.next = self.decide.n_cnt.val();
            self.s_lc.d.next = self.decide.n_lc.val();
            self.s_base.d.next = self.decide.n_base.val();
            self.s_law.d.next = self.decide.n_law.val();
            self.s_law_inc.d.next = self.decide.n_law_inc.val();
            self.s_law_delta.d.next = self.decide.n_law_delta.val();
            self.s_idx2.d.next = self.decide.n_idx2.val();
        }
        self.n_ms.next = self.decide.n_ms.val();
        self.n_fv.next = self.decide.n_fv.val();
        self.n_dl.next = self.decide.n_dl.val();
        self.n_fat.next = self.decide.n_fat.val();
        self.n_cnt.next = self.decide.n_cnt.val();
        self.n_lc.next = self.decide.n_lc.val();
        self.n_base.next = self.decide.n_base.val();
        self.n_law.next = self.decide.n_law.val();
        self.n_law_inc.next = self.decide.n_law_inc.val();
        self.n_law_delta.next = self.decide.n_law_delta.val();
        self.n_idx2.next = self.decide.n_idx2.val();
        self.out_step.next = self.decide.out_step.val();
        self.out_entry.next = self.decide.out_entry.val();
        self.out_setfat.next = self.decide.out_setfat.val();
        self.clamp.next = self.decide.clamp.val();
        self.reentry.next = self.decide.reentry.val();
        self.next_sum.next = self.decide.next_sum.val();
        self.ins.next = self.decide.ins.val();
        self.det.next = self.decide.det.val();
        self.pst.next = self.decide.pst.val();
        self.ecn_out.next = self.decide.ecn_out.val();
        self.drop.next = self.decide.drop.val();
        self.ev_marked.next = self.decide.ev_marked.val();
    }
}

/// The marker over two clocks, with the queue state outside (`r_*` in: the registers of the
/// queue `A` dequeues; `n_*` out with `write`: the state of `B`'s queue after the edge), so one
/// marker serves any number of queues. `same_q`: `A` dequeues the queue `B` holds. `cancel`: a
/// `STATE_CLEAR` in `A`'s clock (the owner clears at that edge, and the dequeue in `A` must
/// neither write its outcome over the clear a clock later nor forward it). The verdict shows a
/// clock after the dequeue (`ins` … `drop`; `st_*` is the state that dequeue saw), and the
/// statistics count a clock after that (`LateCounter`). A dequeue is judged under the
/// configuration in force in its clock in `A`: `B` reads the mode and the interval from
/// registers `A` loads.
#[derive(LogicBlock, Default)]
pub struct MarkerPipe {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<6>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub deq: Signal<In, Bit>,
    pub same_q: Signal<In, Bit>,
    pub cancel: Signal<In, Bit>,
    pub now: Signal<In, Bits<32>>,
    /// The dequeued descriptor's enqueue stamp: its sojourn is `now − ts` (mod 2^32).
    pub ts: Signal<In, Bits<32>>,
    pub ecn_in: Signal<In, Bits<2>>,
    pub qlen: Signal<In, Bits<32>>,
    pub r_ms: Signal<In, Bit>,
    pub r_fv: Signal<In, Bit>,
    pub r_dl: Signal<In, Bit>,
    pub r_fat: Signal<In, Bits<32>>,
    pub r_cnt: Signal<In, Bits<16>>,
    pub r_lc: Signal<In, Bits<16>>,
    pub r_base: Signal<In, Bits<32>>,
    pub r_law: Signal<In, Bits<24>>,
    /// The table indices of `cnt + 1`, `cnt − lastcount` and `cnt + 2` (saturating; the last
    /// is read only while the queue is marking, so a cleared state's 0 stands for it).
    pub r_law_inc: Signal<In, Bits<7>>,
    pub r_law_delta: Signal<In, Bits<7>>,
    pub r_idx2: Signal<In, Bits<7>>,
    pub write: Signal<Out, Bit>,
    pub n_ms: Signal<Out, Bit>,
    pub n_fv: Signal<Out, Bit>,
    pub n_dl: Signal<Out, Bit>,
    pub n_fat: Signal<Out, Bits<32>>,
    pub n_cnt: Signal<Out, Bits<16>>,
    pub n_lc: Signal<Out, Bits<16>>,
    pub n_base: Signal<Out, Bits<32>>,
    pub n_law: Signal<Out, Bits<24>>,
    pub n_law_inc: Signal<Out, Bits<7>>,
    pub n_law_delta: Signal<Out, Bits<7>>,
    pub n_idx2: Signal<Out, Bits<7>>,
    pub ins: Signal<Out, Bit>,
    pub det: Signal<Out, Bit>,
    pub pst: Signal<Out, Bit>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop: Signal<Out, Bit>,
    pub st_ms: Signal<Out, Bit>,
    pub st_fv: Signal<Out, Bit>,
    pub st_dl: Signal<Out, Bit>,
    pub st_fat: Signal<Out, Bits<32>>,
    pub st_cnt: Signal<Out, Bits<16>>,
    pub st_lc: Signal<Out, Bits<16>>,
    pub st_next: Signal<Out, Bits<32>>,
    pub cnt_marked: Signal<Out, Bits<32>>,
    pub cnt_fired_inst: Signal<Out, Bits<32>>,
    pub cnt_fired_pers: Signal<Out, Bits<32>>,
    pub cnt_dropped: Signal<Out, Bits<32>>,
    cfg: MarkerConfig,
    ahead: PipeAhead,
    counts: CountIndices,
    b: PipeStageB,
    stats: MarkerStats,
}

impl Logic for MarkerPipe {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, cfg, b, stats);
        self.cfg.csr_we.next = self.csr_we.val();
        self.cfg.csr_addr.next = self.csr_addr.val();
        self.cfg.csr_wdata.next = self.csr_wdata.val();
        self.stats.csr_we.next = self.csr_we.val();
        self.stats.csr_addr.next = self.csr_addr.val();
        self.stats.csr_wdata.next = self.csr_wdata.val();
        self.stats.ev_marked.next = self.b.ev_marked.val();
        self.stats.ev_inst.next = self.b.ins.val();
        self.stats.ev_pers.next = self.b.pst.val();
        self.stats.ev_dropped.next = self.b.drop.val();
        // --- A
        self.ahead.deq.next = self.deq.val();
        self.ahead.now.next = self.now.val();
        self.ahead.ts.next = self.ts.val();
        self.ahead.qlen.next = self.qlen.val();
        self.ahead.mode_sel.next = self.cfg.mode_sel.val();
        self.ahead.is_codel.next = self.cfg.is_codel.val();
        self.ahead.is_sharp.next = self.cfg.is_sharp.val();
        self.ahead.harmonic.next = self.cfg.harmonic.val();
        self.ahead.due_ge.next = self.cfg.due_ge.val();
        self.ahead.ins_target.next = self.cfg.ins_target.val();
        self.ahead.k.next = self.cfg.k.val();
        self.ahead.pst_target.next = self.cfg.pst_target.val();
        self.ahead.interval32.next = self.cfg.interval32.val();
        self.ahead.codel_min_qlen.next = self.cfg.codel_min_qlen.val();
        self.ahead.lut0.next = self.cfg.lut0.val();
        self.ahead.lut1.next = self.cfg.lut1.val();
        self.ahead.lut2.next = self.cfg.lut2.val();
        self.ahead.lut3.next = self.cfg.lut3.val();
        self.ahead.lut_bias.next = self.cfg.lut_bias.val();
        self.ahead.r_fat.next = self.r_fat.val();
        self.ahead.r_base.next = self.r_base.val();
        self.ahead.r_law.next = self.r_law.val();
        self.ahead.r_law_inc.next = self.r_law_inc.val();
        self.ahead.r_law_delta.next = self.r_law_delta.val();
        self.ahead.r_idx2.next = self.r_idx2.val();
        self.ahead.b_now.next = self.b.b_now.val();
        self.ahead.b_law.next = self.b.b_law.val();
        self.ahead.b_law_delta_v.next = self.b.b_law_delta_v.val();
        self.ahead.b_law_one_v.next = self.b.b_law_one_v.val();
        self.ahead.b_ix_reinc.next = self.b.b_ix_reinc.val();
        self.ahead.b_codel.next = self.b.b_codel.val();
        self.ahead.b_sharp.next = self.b.b_sharp.val();
        self.ahead.b_ns3.next = self.b.b_ns3.val();
        self.ahead.b_interval.next = self.b.b_interval.val();
        self.ahead.fwd.next = self.b.fwd.val();
        self.ahead.out_step.next = self.b.out_step.val();
        self.ahead.out_entry.next = self.b.out_entry.val();
        self.ahead.out_setfat.next = self.b.out_setfat.val();
        self.ahead.clamp.next = self.b.clamp.val();
        self.ahead.reentry.next = self.b.reentry.val();
        // --- A's results into B
        self.b.a_deq.next = self.deq.val();
        self.b.a_cancel.next = self.cancel.val();
        self.b.a_track.next = self.ahead.track.val();
        self.b.a_below.next = self.ahead.below.val();
        self.b.a_aged.next = self.ahead.aged.val();
        self.b.a_ins.next = self.ahead.ins_w.val();
        self.b.a_ecn.next = self.ecn_in.val();
        self.b.a_now.next = self.now.val();
        self.b.a_due.next = self.ahead.due.val();
        self.b.a_clamp.next = self.ahead.lag_clamp.val();
        self.b.a_recent.next = self.ahead.recent.val();
        self.b.a_law.next = self.ahead.law.val();
        self.b.a_law_delta_v.next = self.ahead.lv_delta.val();
        self.b.a_law_one_v.next = self.ahead.lv_one.val();
        self.b.a_codel.next = self.cfg.is_codel.val();
        self.b.a_sharp.next = self.cfg.is_sharp.val();
        self.b.a_ns3.next = self.cfg.ns3_law.val();
        self.b.a_drop_non_ect.next = self.cfg.drop_non_ect.val();
        self.b.a_interval.next = self.cfg.interval32.val().get_bits::<16>(0);
        // A's counts and their table indices, for each outcome of B
        self.counts.r_cnt.next = self.r_cnt.val();
        self.counts.r_lc.next = self.r_lc.val();
        self.counts.fwd.next = self.b.fwd.val();
        self.counts.out_step.next = self.b.out_step.val();
        self.counts.out_entry.next = self.b.out_entry.val();
        self.counts.reentry.next = self.b.reentry.val();
        self.counts.b_codel.next = self.b.b_codel.val();
        self.b.a_delta.next = self.counts.delta.val();
        self.b.a_ix_reinc.next = self.counts.ix_reinc.val();
        self.b.a_ix_reinc2.next = self.counts.ix_reinc2.val();
        self.b.a_ix_sharp.next = self.counts.ix_sharp.val();
        self.b.a_cnt_inc.next = self.counts.cnt_inc.val();
        self.b.a_ix_after.next = self.counts.ix_after.val();
        self.b.a_ix_delta_due.next = self.counts.ix_delta_due.val();
        self.b.same_q.next = self.same_q.val();
        self.b.r_ms.next = self.r_ms.val();
        self.b.r_fv.next = self.r_fv.val();
        self.b.r_dl.next = self.r_dl.val();
        self.b.r_fat.next = self.r_fat.val();
        self.b.r_cnt.next = self.r_cnt.val();
        self.b.r_lc.next = self.r_lc.val();
        self.b.r_base.next = self.r_base.val();
        self.b.r_law.next = self.r_law.val();
        self.b.r_law_inc.next = self.r_law_inc.val();
        self.b.r_law_delta.next = self.r_law_delta.val();
        self.b.r_idx2.next = self.r_idx2.val();
        // --- B's verdict and the state it writes
        self.write.next = self.b.write.val();
        self.n_ms.next = self.b.n_ms.val();
        self.n_fv.next = self.b.n_fv.val();
        self.n_dl.next = self.b.n_dl.val();
        self.n_fat.next = self.b.n_fat.val();
        self.n_cnt.next = self.b.n_cnt.val();
        self.n_lc.next = self.b.n_lc.val();
        self.n_base.next = self.b.n_base.val();
        self.n_law.next = self.b.n_law.val();
        self.n_law_inc.next = self.b.n_law_inc.val();
        self.n_law_delta.next = self.b.n_law_delta.val();
        self.n_idx2.next = self.b.n_idx2.val();
        self.ins.next = self.b.ins.val();
        self.det.next = self.b.det.val();
        self.pst.next = self.b.pst.val();
        self.ecn_out.next = self.b.ecn_out.val();
        self.drop.next = self.b.drop.val();
        self.st_ms.next = self.b.st_ms.val();
        self.st_fv.next = self.b.st_fv.val();
        self.st_dl.next = self.b.st_dl.val();
        self.st_fat.next = self.b.st_fat.val();
        self.st_cnt.next = self.b.st_cnt.val();
        self.st_lc.next = self.b.st_lc.val();
        self.st_next.next = self.b.next_sum.val();
        self.cnt_marked.next = self.stats.cnt_marked.val();
        self.cnt_fired_inst.next = self.stats.cnt_fired_inst.val();
        self.cnt_fired_pers.next = self.stats.cnt_fired_pers.val();
        self.cnt_dropped.next = self.stats.cnt_dropped.val();
    }
}

/// The marker's four statistics (`LateCounter`: each event counts at the edge after its clock),
/// with their presets at register addresses `0x18`–`0x1b` (a preset wins over an event).
#[derive(LogicBlock, Default)]
pub struct MarkerStats {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<6>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub ev_marked: Signal<In, Bit>,
    pub ev_inst: Signal<In, Bit>,
    pub ev_pers: Signal<In, Bit>,
    pub ev_dropped: Signal<In, Bit>,
    pub cnt_marked: Signal<Out, Bits<32>>,
    pub cnt_fired_inst: Signal<Out, Bits<32>>,
    pub cnt_fired_pers: Signal<Out, Bits<32>>,
    pub cnt_dropped: Signal<Out, Bits<32>>,
    c_marked: LateCounter,
    c_inst: LateCounter,
    c_pers: LateCounter,
    c_dropped: LateCounter,
}

impl Logic for MarkerStats {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, c_marked, c_inst, c_pers, c_dropped);
        self.c_marked.inc.next = self.ev_marked.val();
        self.c_inst.inc.next = self.ev_inst.val();
        self.c_pers.inc.next = self.ev_pers.val();
        self.c_dropped.inc.next = self.ev_dropped.val();
        self.c_marked.load.next = self.csr_we.val() & (self.csr_addr.val() == 24);
        self.c_inst.load.next = self.csr_we.val() & (self.csr_addr.val() == 25);
        self.c_pers.load.next = self.csr_we.val() & (self.csr_addr.val() == 26);
        self.c_dropped.load.next = self.csr_we.val() & (self.csr_addr.val() == 27);
        self.c_marked.load_val.next = self.csr_wdata.val();
        self.c_inst.load_val.next = self.csr_wdata.val();
        self.c_pers.load_val.next = self.csr_wdata.val();
        self.c_dropped.load_val.next = self.csr_wdata.val();
        self.cnt_marked.next = self.c_marked.value.val();
        self.cnt_fired_inst.next = self.c_inst.value.val();
        self.cnt_fired_pers.next = self.c_pers.value.val();
        self.cnt_dropped.next = self.c_dropped.value.val();
    }
}

/// The marker state of every queue of a port whose queues share one [`MarkerPipe`] (ECN♯ §2.5):
/// `NQ` sets of registers. `r_*` is queue `rsel`'s set (what stage `A` reads); `write` stores
/// `n_*` into queue `wsel`'s at the edge (stage `B`'s outcome); `clear` (`STATE_CLEAR`) zeroes
/// every set and wins.
#[derive(LogicBlock)]
pub struct PipeQueueStates<const NQ: usize, const QB: usize> {
    pub clock: Signal<In, Clock>,
    pub rsel: Signal<In, Bits<QB>>,
    pub wsel: Signal<In, Bits<QB>>,
    pub write: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub n_ms: Signal<In, Bit>,
    pub n_fv: Signal<In, Bit>,
    pub n_dl: Signal<In, Bit>,
    pub n_fat: Signal<In, Bits<32>>,
    pub n_cnt: Signal<In, Bits<16>>,
    pub n_lc: Signal<In, Bits<16>>,
    pub n_base: Signal<In, Bits<32>>,
    pub n_law: Signal<In, Bits<24>>,
    pub n_law_inc: Signal<In, Bits<7>>,
    pub n_law_delta: Signal<In, Bits<7>>,
    pub n_idx2: Signal<In, Bits<7>>,
    pub r_ms: Signal<Out, Bit>,
    pub r_fv: Signal<Out, Bit>,
    pub r_dl: Signal<Out, Bit>,
    pub r_fat: Signal<Out, Bits<32>>,
    pub r_cnt: Signal<Out, Bits<16>>,
    pub r_lc: Signal<Out, Bits<16>>,
    pub r_base: Signal<Out, Bits<32>>,
    pub r_law: Signal<Out, Bits<24>>,
    pub r_law_inc: Signal<Out, Bits<7>>,
    pub r_law_delta: Signal<Out, Bits<7>>,
    pub r_idx2: Signal<Out, Bits<7>>,
    ms: [DFF<Bit>; NQ],
    fv: [DFF<Bit>; NQ],
    dl: [DFF<Bit>; NQ],
    fat: [DFF<Bits<32>>; NQ],
    cnt: [DFF<Bits<16>>; NQ],
    lc: [DFF<Bits<16>>; NQ],
    base: [DFF<Bits<32>>; NQ],
    law: [DFF<Bits<24>>; NQ],
    law_inc: [DFF<Bits<7>>; NQ],
    law_delta: [DFF<Bits<7>>; NQ],
    idx2: [DFF<Bits<7>>; NQ],
}

impl<const NQ: usize, const QB: usize> Default for PipeQueueStates<NQ, QB> {
    fn default() -> Self {
        PipeQueueStates {
            clock: Default::default(),
            rsel: Default::default(),
            wsel: Default::default(),
            write: Default::default(),
            clear: Default::default(),
            n_ms: Default::default(),
            n_fv: Default::default(),
            n_dl: Default::default(),
            n_fat: Default::default(),
            n_cnt: Default::default(),
            n_lc: Default::default(),
            n_base: Default::default(),
            n_law: Default::default(),
            n_law_inc: Default::default(),
            n_law_delta: Default::default(),
            n_idx2: Default::default(),
            r_ms: Default::default(),
            r_fv: Default::default(),
            r_dl: Default::default(),
            r_fat: Default::default(),
            r_cnt: Default::default(),
            r_lc: Default::default(),
            r_base: Default::default(),
            r_law: Default::default(),
            r_law_inc: Default::default(),
            r_law_delta: Default::default(),
            r_idx2: Default::default(),
            ms: std::array::from_fn(|_| Default::default()),
            fv: std::array::from_fn(|_| Default::default()),
            dl: std::array::from_fn(|_| Default::default()),
            fat: std::array::from_fn(|_| Default::default()),
            cnt: std::array::from_fn(|_| Default::default()),
            lc: std::array::from_fn(|_| Default::default()),
            base: std::array::from_fn(|_| Default::default()),
            law: std::array::from_fn(|_| Default::default()),
            law_inc: std::array::from_fn(|_| Default::default()),
            law_delta: std::array::from_fn(|_| Default::default()),
            idx2: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const NQ: usize, const QB: usize> Logic for PipeQueueStates<NQ, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.r_ms.next = false;
        self.r_fv.next = false;
        self.r_dl.next = false;
        self.r_fat.next = 0.into();
        self.r_cnt.next = 0.into();
        self.r_lc.next = 0.into();
        self.r_base.next = 0.into();
        self.r_law.next = 0.into();
        self.r_law_inc.next = 0.into();
        self.r_law_delta.next = 0.into();
        self.r_idx2.next = 0.into();
        for i in 0..NQ {
            self.ms[i].clock.next = self.clock.val();
            self.ms[i].d.next = self.ms[i].q.val();
            self.fv[i].clock.next = self.clock.val();
            self.fv[i].d.next = self.fv[i].q.val();
            self.dl[i].clock.next = self.clock.val();
            self.dl[i].d.next = self.dl[i].q.val();
            self.fat[i].clock.next = self.clock.val();
            self.fat[i].d.next = self.fat[i].q.val();
            self.cnt[i].clock.next = self.clock.val();
            self.cnt[i].d.next = self.cnt[i].q.val();
            self.lc[i].clock.next = self.clock.val();
            self.lc[i].d.next = self.lc[i].q.val();
            self.base[i].clock.next = self.clock.val();
            self.base[i].d.next = self.base[i].q.val();
            self.law[i].clock.next = self.clock.val();
            self.law[i].d.next = self.law[i].q.val();
            self.law_inc[i].clock.next = self.clock.val();
            self.law_inc[i].d.next = self.law_inc[i].q.val();
            self.law_delta[i].clock.next = self.clock.val();
            self.law_delta[i].d.next = self.law_delta[i].q.val();
            self.idx2[i].clock.next = self.clock.val();
            self.idx2[i].d.next = self.idx2[i].q.val();
            if self.rsel.val().index() == i {
                self.r_ms.next = self.ms[i].q.val();
                self.r_fv.next = self.fv[i].q.val();
                self.r_dl.next = self.dl[i].q.val();
                self.r_fat.next = self.fat[i].q.val();
                self.r_cnt.next = self.cnt[i].q.val();
                self.r_lc.next = self.lc[i].q.val();
                self.r_base.next = self.base[i].q.val();
                self.r_law.next = self.law[i].q.val();
                self.r_law_inc.next = self.law_inc[i].q.val();
                self.r_law_delta.next = self.law_delta[i].q.val();
                self.r_idx2.next = self.idx2[i].q.val();
            }
            if self.write.val() & (self.wsel.val().index() == i) {
                self.ms[i].d.next = self.n_ms.val();
                self.fv[i].d.next = self.n_fv.val();
                self.dl[i].d.next = self.n_dl.val();
                self.fat[i].d.next = self.n_fat.val();
                self.cnt[i].d.next = self.n_cnt.val();
                self.lc[i].d.next = self.n_lc.val();
                self.base[i].d.next = self.n_base.val();
                self.law[i].d.next = self.n_law.val();
                self.law_inc[i].d.next = self.n_law_inc.val();
                self.law_delta[i].d.next = self.n_law_delta.val();
                self.idx2[i].d.next = self.n_idx2.val();
            }
            if self.clear.val() {
                self.ms[i].d.next = false;
                self.fv[i].d.next = false;
                self.dl[i].d.next = false;
                self.fat[i].d.next = 0.into();
                self.cnt[i].d.next = 0.into();
                self.lc[i].d.next = 0.into();
                self.base[i].d.next = 0.into();
                self.law[i].d.next = 0.into();
                self.law_inc[i].d.next = 0.into();
                self.law_delta[i].d.next = 0.into();
                self.idx2[i].d.next = 0.into();
            }
        }
    }
}

/// The instance the component's own test drives (`sim-tests/tests/port_components.rs`): 4 queues.
pub type TestQueueStates = PipeQueueStates<4, 2>;

crate::pin_io!(TestQueueStates;
    in: rsel, wsel, write, clear, n_ms, n_fv, n_dl, n_fat, n_cnt, n_lc, n_base, n_law, n_law_inc, n_law_delta, n_idx2;
    out: r_ms, r_fv, r_dl, r_fat, r_cnt, r_lc, r_base, r_law, r_law_inc, r_law_delta, r_idx2);

/// One two-clock marker serving `NQ` queues (ECN♯ §2.5), the switch port's AQM: stage `A`
/// dequeues queue `q` and reads its state from [`PipeQueueStates`]; stage `B` writes the
/// outcome into the queue it holds (`q` of the clock before) and shows the verdict. Register
/// address 7 (`STATE_CLEAR`) clears every queue's state.
///
/// The state stage `A` reads is selected a clock ahead, by the queue dequeued in the next clock
/// (`q_next`), into registers (`rr_*`), with stage `B`'s write at the same edge forwarded (and a
/// clear winning): so stage `A` starts from flip-flops, not from an `NQ`-way select on `q`, and
/// reads the same set as a select in its own clock would.
#[derive(LogicBlock, Default)]
pub struct PipeQueueMarker<const NQ: usize, const QB: usize> {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<6>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub deq: Signal<In, Bit>,
    /// The dequeued queue, and the one dequeued in the next clock (any value when none is).
    pub q: Signal<In, Bits<QB>>,
    pub q_next: Signal<In, Bits<QB>>,
    pub now: Signal<In, Bits<32>>,
    /// The dequeued descriptor's enqueue stamp.
    pub ts: Signal<In, Bits<32>>,
    pub ecn_in: Signal<In, Bits<2>>,
    pub qlen: Signal<In, Bits<32>>,
    /// The verdict on the dequeue of the clock before.
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop: Signal<Out, Bit>,
    core: MarkerPipe,
    states: PipeQueueStates<NQ, QB>,
    b_q: DFF<Bits<QB>>,
    clear: Signal<Local, Bit>,
    /// Stage `B` writes the queue `q_next` names at this edge.
    fwd: Signal<Local, Bit>,
    /// The set stage `A` reads this clock, selected in the last (`PipeQueueStates`' `r_*`).
    rr_ms: DFF<Bit>,
    rr_fv: DFF<Bit>,
    rr_dl: DFF<Bit>,
    rr_fat: DFF<Bits<32>>,
    rr_cnt: DFF<Bits<16>>,
    rr_lc: DFF<Bits<16>>,
    rr_base: DFF<Bits<32>>,
    rr_law: DFF<Bits<24>>,
    rr_law_inc: DFF<Bits<7>>,
    rr_law_delta: DFF<Bits<7>>,
    rr_idx2: DFF<Bits<7>>,
}

impl<const NQ: usize, const QB: usize> Logic for PipeQueueMarker<NQ, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, b_q, rr_ms, rr_fv, rr_dl, rr_fat, rr_cnt, rr_lc, rr_base, rr_law, rr_law_inc, rr_law_delta, rr_idx2);
        clock!(self, clock, core, states);
        self.clear.next = self.csr_we.val() & (self.csr_addr.val() == 7);
        self.b_q.d.next = self.q.val();
        self.core.csr_we.next = self.csr_we.val();
        self.core.csr_addr.next = self.csr_addr.val();
        self.core.csr_wdata.next = self.csr_wdata.val();
        self.core.deq.next = self.deq.val();
        self.core.same_q.next = self.q.val() == self.b_q.q.val();
        self.core.cancel.next = self.clear.val();
        self.core.now.next = self.now.val();
        self.core.ts.next = self.ts.val();
        self.core.ecn_in.next = self.ecn_in.val();
        self.core.qlen.next = self.qlen.val();
        self.ecn_out.next = self.core.ecn_out.val();
        self.drop.next = self.core.drop.val();
        // the next clock's set, with this edge's write forwarded and a clear winning
        self.states.rsel.next = self.q_next.val();
        self.states.wsel.next = self.b_q.q.val();
        self.fwd.next = self.core.write.val() & (self.b_q.q.val() == self.q_next.val());
        self.rr_ms.d.next = self.states.r_ms.val();
        self.rr_fv.d.next = self.states.r_fv.val();
        self.rr_dl.d.next = self.states.r_dl.val();
        self.rr_fat.d.next = self.states.r_fat.val();
        self.rr_cnt.d.next = self.states.r_cnt.val();
        self.rr_lc.d.next = self.states.r_lc.val();
        self.rr_base.d.next = self.states.r_base.val();
        self.rr_law.d.next = self.states.r_law.val();
        self.rr_law_inc.d.next = self.states.r_law_inc.val();
        self.rr_law_delta.d.next = self.states.r_law_delta.val();
        self.rr_idx2.d.next = self.states.r_idx2.val();
        if self.fwd.val() {
            self.rr_ms.d.next = self.core.n_ms.val();
            self.rr_fv.d.next = self.core.n_fv.val();
            self.rr_dl.d.next = self.core.n_dl.val();
            self.rr_fat.d.next = self.core.n_fat.val();
            self.rr_cnt.d.next = self.core.n_cnt.val();
            self.rr_lc.d.next = self.core.n_lc.val();
            self.rr_base.d.next = self.core.n_base.val();
            self.rr_law.d.next = self.core.n_law.val();
            self.rr_law_inc.d.next = self.core.n_law_inc.val();
            self.rr_law_delta.d.next = self.core.n_law_delta.val();
            self.rr_idx2.d.next = self.core.n_idx2.val();
        }
        if self.clear.val() {
            self.rr_ms.d.next = false;
            self.rr_fv.d.next = false;
            self.rr_dl.d.next = false;
            self.rr_fat.d.next = 0.into();
            self.rr_cnt.d.next = 0.into();
            self.rr_lc.d.next = 0.into();
            self.rr_base.d.next = 0.into();
            self.rr_law.d.next = 0.into();
            self.rr_law_inc.d.next = 0.into();
            self.rr_law_delta.d.next = 0.into();
            self.rr_idx2.d.next = 0.into();
        }
        self.states.write.next = self.core.write.val();
        self.states.clear.next = self.clear.val();
        self.core.r_ms.next = self.rr_ms.q.val();
        self.core.r_fv.next = self.rr_fv.q.val();
        self.core.r_dl.next = self.rr_dl.q.val();
        self.core.r_fat.next = self.rr_fat.q.val();
        self.core.r_cnt.next = self.rr_cnt.q.val();
        self.core.r_lc.next = self.rr_lc.q.val();
        self.core.r_base.next = self.rr_base.q.val();
        self.core.r_law.next = self.rr_law.q.val();
        self.core.r_law_inc.next = self.rr_law_inc.q.val();
        self.core.r_law_delta.next = self.rr_law_delta.q.val();
        self.core.r_idx2.next = self.rr_idx2.q.val();
        self.states.n_ms.next = self.core.n_ms.val();
        self.states.n_fv.next = self.core.n_fv.val();
        self.states.n_dl.next = self.core.n_dl.val();
        self.states.n_fat.next = self.core.n_fat.val();
        self.states.n_cnt.next = self.core.n_cnt.val();
        self.states.n_lc.next = self.core.n_lc.val();
        self.states.n_base.next = self.core.n_base.val();
        self.states.n_law.next = self.core.n_law.val();
        self.states.n_law_inc.next = self.core.n_law_inc.val();
        self.states.n_law_delta.next = self.core.n_law_delta.val();
        self.states.n_idx2.next = self.core.n_idx2.val();
    }
}
