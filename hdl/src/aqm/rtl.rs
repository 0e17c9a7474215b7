//! RTL of the AQM marker and of the AQM top (timestamp + marker); the golden model is
//! `model.rs`, the algorithm and design choices are documented in `mod.rs`. Register addresses
//! are the literals of [`super::csr`] (rust-hdl's `hdl_gen` cannot read Rust constants).

use crate::rtl_util::{AddSub, LateCounter, WrapDiffAbove};
use super::pipe::MarkerPipe;
use crate::sojourn::rtl::SojournStamp;
use rust_hdl::prelude::*;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `aqm/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::MODE == 0 && csr::INS_TARGET == 1 && csr::K == 2 && csr::PST_TARGET == 3
    && csr::PST_INTERVAL == 4 && csr::CODEL_MIN_QLEN == 5 && csr::LUT_SHIFT == 6
    && csr::STATE_CLEAR == 7 && csr::TIME_LOAD == 8 && csr::CLK_PER_TICK == 9 && csr::LUT0 == 16
    && csr::CNT_MARKED == 24 && csr::CNT_FIRED_INST == 25 && csr::CNT_FIRED_PERS == 26
    && csr::CNT_DROPPED == 27 && csr::REGISTERS[csr::idx::LUT0].count == 4
);

/// The control law's table index of a count `c` (`lut.rs`, ECN♯ §2.4): `⌊log2 c⌋` (`msb`, 0
/// for c = 0) and the three bits below the leading one (`top`), as `idx = {msb, top}`. A pure
/// function of the count, with no register in it, so the marker keeps it beside each count
/// it divides by (`AqmCore`'s `s_law_*`) and the division is a table read and a shift.
/// Combinational.
#[derive(LogicBlock, Default)]
pub struct LawIndex {
    pub c: Signal<In, Bits<16>>,
    pub idx: Signal<Out, Bits<7>>,
    msb: Signal<Local, Bits<4>>,
    top: Signal<Local, Bits<3>>,
}

impl Logic for LawIndex {
    #[hdl_gen]
    fn update(&mut self) {
        // ⌊log2 c⌋ (a priority encoder; c = 0 reads as 0) and the three bits below the leading
        // one, both by constant bit selects: a variable shift here would be a cell yosys's
        // `share` pass merges across the marker's dividers, behind a multiplexer on the
        // decision, which puts the decision in front of the division
        self.msb.next = 0.into();
        self.top.next = 0.into();
        if self.c.val().get_bit(1) {
            self.msb.next = 1.into();
            self.top.next = bit_cast::<3, 1>(self.c.val().get_bits::<1>(0)) << 2;
        }
        if self.c.val().get_bit(2) {
            self.msb.next = 2.into();
            self.top.next = bit_cast::<3, 2>(self.c.val().get_bits::<2>(0)) << 1;
        }
        if self.c.val().get_bit(3) {
            self.msb.next = 3.into();
            self.top.next = self.c.val().get_bits::<3>(0);
        }
        if self.c.val().get_bit(4) {
            self.msb.next = 4.into();
            self.top.next = self.c.val().get_bits::<3>(1);
        }
        if self.c.val().get_bit(5) {
            self.msb.next = 5.into();
            self.top.next = self.c.val().get_bits::<3>(2);
        }
        if self.c.val().get_bit(6) {
            self.msb.next = 6.into();
            self.top.next = self.c.val().get_bits::<3>(3);
        }
        if self.c.val().get_bit(7) {
            self.msb.next = 7.into();
            self.top.next = self.c.val().get_bits::<3>(4);
        }
        if self.c.val().get_bit(8) {
            self.msb.next = 8.into();
            self.top.next = self.c.val().get_bits::<3>(5);
        }
        if self.c.val().get_bit(9) {
            self.msb.next = 9.into();
            self.top.next = self.c.val().get_bits::<3>(6);
        }
        if self.c.val().get_bit(10) {
            self.msb.next = 10.into();
            self.top.next = self.c.val().get_bits::<3>(7);
        }
        if self.c.val().get_bit(11) {
            self.msb.next = 11.into();
            self.top.next = self.c.val().get_bits::<3>(8);
        }
        if self.c.val().get_bit(12) {
            self.msb.next = 12.into();
            self.top.next = self.c.val().get_bits::<3>(9);
        }
        if self.c.val().get_bit(13) {
            self.msb.next = 13.into();
            self.top.next = self.c.val().get_bits::<3>(10);
        }
        if self.c.val().get_bit(14) {
            self.msb.next = 14.into();
            self.top.next = self.c.val().get_bits::<3>(11);
        }
        if self.c.val().get_bit(15) {
            self.msb.next = 15.into();
            self.top.next = self.c.val().get_bits::<3>(12);
        }
        self.idx.next = (bit_cast::<7, 4>(self.msb.val()) << 3) | bit_cast::<7, 3>(self.top.val());
    }
}

/// The control law's value from a table index (`LawIndex`): `P / c` (`harmonic`) or `P / √c`
/// from a 16-entry table of 8-bit entries the host programs from `P` (four words
/// `lut0..lut3`, entry `4j + b` at bits `8b+7..8b` of word j) and `lut_bias = 16 − scale`.
/// `top` picks the entry (the square root's table has a second half for odd exponents), the
/// exponent shifts it: `(entry << 16) >> (e + bias)`, 0 when that shift is 32 or more.
/// Combinational.
#[derive(LogicBlock, Default)]
pub struct LawValue {
    pub idx: Signal<In, Bits<7>>,
    pub harmonic: Signal<In, Bit>,
    pub lut0: Signal<In, Bits<32>>,
    pub lut1: Signal<In, Bits<32>>,
    pub lut2: Signal<In, Bits<32>>,
    pub lut3: Signal<In, Bits<32>>,
    pub lut_bias: Signal<In, Bits<6>>,
    /// At most `0xFF_0000` (an 8-bit entry shifted left by 16 at most).
    pub val: Signal<Out, Bits<24>>,
    msb: Signal<Local, Bits<4>>,
    entry_idx: Signal<Local, Bits<4>>,
    word: Signal<Local, Bits<32>>,
    entry: Signal<Local, Bits<8>>,
    e: Signal<Local, Bits<7>>,
    amt: Signal<Local, Bits<7>>,
    sh0: Signal<Local, Bits<24>>,
    sh1: Signal<Local, Bits<24>>,
    sh2: Signal<Local, Bits<24>>,
    sh3: Signal<Local, Bits<24>>,
}

impl Logic for LawValue {
    #[hdl_gen]
    fn update(&mut self) {
        self.msb.next = self.idx.val().get_bits::<4>(3);
        self.entry_idx.next = bit_cast::<4, 7>(self.idx.val() & 7);
        if self.harmonic.val() | self.msb.val().get_bit(0) {
            self.entry_idx.next = bit_cast::<4, 7>(self.idx.val() & 7) | 8;
        }
        self.word.next = self.lut0.val();
        if self.entry_idx.val().get_bits::<2>(2) == 1 {
            self.word.next = self.lut1.val();
        }
        if self.entry_idx.val().get_bits::<2>(2) == 2 {
            self.word.next = self.lut2.val();
        }
        if self.entry_idx.val().get_bits::<2>(2) == 3 {
            self.word.next = self.lut3.val();
        }
        // the entry and the shift by constant bit selects and multiplexers (no variable shift:
        // see `LawIndex`)
        self.entry.next = self.word.val().get_bits::<8>(0);
        if self.entry_idx.val().get_bits::<2>(0) == 1 {
            self.entry.next = self.word.val().get_bits::<8>(8);
        }
        if self.entry_idx.val().get_bits::<2>(0) == 2 {
            self.entry.next = self.word.val().get_bits::<8>(16);
        }
        if self.entry_idx.val().get_bits::<2>(0) == 3 {
            self.entry.next = self.word.val().get_bits::<8>(24);
        }
        // the exponent: ⌊log2 c⌋ for 1/c, half of it for 1/√c
        self.e.next = bit_cast::<7, 4>(self.msb.val() >> 1);
        if self.harmonic.val() {
            self.e.next = bit_cast::<7, 4>(self.msb.val());
        }
        self.amt.next = self.e.val() + bit_cast::<7, 6>(self.lut_bias.val());
        // (entry << 16) >> amt, 0 when amt ≥ 32: five stages of a constant shift
        self.sh0.next = bit_cast::<24, 8>(self.entry.val()) << 16;
        if self.amt.val().get_bit(0) {
            self.sh0.next = bit_cast::<24, 8>(self.entry.val()) << 15;
        }
        self.sh1.next = self.sh0.val();
        if self.amt.val().get_bit(1) {
            self.sh1.next = self.sh0.val() >> 2;
        }
        self.sh2.next = self.sh1.val();
        if self.amt.val().get_bit(2) {
            self.sh2.next = self.sh1.val() >> 4;
        }
        self.sh3.next = self.sh2.val();
        if self.amt.val().get_bit(3) {
            self.sh3.next = self.sh2.val() >> 8;
        }
        self.val.next = self.sh3.val();
        if self.amt.val().get_bit(4) {
            self.val.next = self.sh3.val() >> 16;
        }
        if self.amt.val().get_bits::<2>(5).any() {
            self.val.next = 0.into();
        }
    }
}

/// The control law's divider on a count: [`LawIndex`] then [`LawValue`] (`val = P/c` or
/// `P/√c` as `LawLut::eval` computes it). The marker uses the two halves apart; this
/// composition is what the divider's own test drives. Combinational.
#[derive(LogicBlock, Default)]
pub struct ControlLaw {
    pub c: Signal<In, Bits<16>>,
    pub harmonic: Signal<In, Bit>,
    pub lut0: Signal<In, Bits<32>>,
    pub lut1: Signal<In, Bits<32>>,
    pub lut2: Signal<In, Bits<32>>,
    pub lut3: Signal<In, Bits<32>>,
    pub lut_bias: Signal<In, Bits<6>>,
    pub val: Signal<Out, Bits<32>>,
    index: LawIndex,
    value: LawValue,
}

impl Logic for ControlLaw {
    #[hdl_gen]
    fn update(&mut self) {
        self.index.c.next = self.c.val();
        self.value.idx.next = self.index.idx.val();
        self.value.harmonic.next = self.harmonic.val();
        self.value.lut0.next = self.lut0.val();
        self.value.lut1.next = self.lut1.val();
        self.value.lut2.next = self.lut2.val();
        self.value.lut3.next = self.lut3.val();
        self.value.lut_bias.next = self.lut_bias.val();
        self.val.next = bit_cast::<32, 24>(self.value.val.val());
    }
}

crate::pin_io!(ControlLaw; comb; in: c, harmonic, lut0, lut1, lut2, lut3, lut_bias; out: val);

/// The marker's counts and its control law (`lut.rs`, ECN♯ §2.4) for one queue's state:
/// the counts the state can move to, the table indices of the counts after them (`ix_*`, kept
/// with the state as `law_inc` and `law_delta`), and the law three times side by side, each
/// from an index that is a register: `P/c` or `P/√c` of `cnt + 1` (`law_inc`), and CoDel's
/// two re-entry laws `P/√delta` and `P/√1` (never the harmonic law). Combinational.
#[derive(LogicBlock, Default)]
pub struct MarkerCounts {
    pub s_cnt: Signal<In, Bits<16>>,
    pub s_lastcount: Signal<In, Bits<16>>,
    /// The indices of `cnt + 1` (saturating) and of `cnt − lastcount`, from the state.
    pub s_law_inc: Signal<In, Bits<7>>,
    pub s_law_delta: Signal<In, Bits<7>>,
    pub harmonic: Signal<In, Bit>,
    pub lut0: Signal<In, Bits<32>>,
    pub lut1: Signal<In, Bits<32>>,
    pub lut2: Signal<In, Bits<32>>,
    pub lut3: Signal<In, Bits<32>>,
    pub lut_bias: Signal<In, Bits<6>>,
    /// `cnt + 1`, saturating at 65,535.
    pub cnt_inc: Signal<Out, Bits<16>>,
    /// `cnt − lastcount` (modulo 2^16) and whether it is above 1.
    pub delta: Signal<Out, Bits<16>>,
    pub delta_gt1: Signal<Out, Bit>,
    pub law_inc: Signal<Out, Bits<24>>,
    pub law_delta: Signal<Out, Bits<24>>,
    pub law_one: Signal<Out, Bits<24>>,
    /// The indices of `cnt + 2` (a due mark), `delta + 1` (CoDel's re-entry),
    /// `cnt + 1 − lastcount` (a due mark) and `1 − lastcount` (ECN♯'s entry).
    pub ix_inc2: Signal<Out, Bits<7>>,
    pub ix_entry_inc: Signal<Out, Bits<7>>,
    pub ix_delta_due: Signal<Out, Bits<7>>,
    pub ix_delta_sharp: Signal<Out, Bits<7>>,
    v_inc: LawValue,
    v_delta: LawValue,
    v_one: LawValue,
    i_inc2: LawIndex,
    i_entry_inc: LawIndex,
    i_delta_due: LawIndex,
    i_delta_sharp: LawIndex,
    cnt_inc2: Signal<Local, Bits<16>>,
    delta_inc: Signal<Local, Bits<16>>,
}

impl Logic for MarkerCounts {
    #[hdl_gen]
    fn update(&mut self) {
        self.cnt_inc.next = self.s_cnt.val() + 1;
        if self.s_cnt.val().all() {
            self.cnt_inc.next = self.s_cnt.val();
        }
        self.delta.next = self.s_cnt.val() - self.s_lastcount.val();
        // delta > 1 exactly when its index's exponent is not 0
        self.delta_gt1.next = self.s_law_delta.val().get_bits::<4>(3).any();
        self.cnt_inc2.next = self.s_cnt.val() + 2;
        if self.s_cnt.val().get_bits::<15>(1).all() {
            self.cnt_inc2.next = 0xFFFF.into();
        }
        self.delta_inc.next = self.delta.val() + 1;
        if self.delta.val().all() {
            self.delta_inc.next = self.delta.val();
        }
        self.i_inc2.c.next = self.cnt_inc2.val();
        self.i_entry_inc.c.next = self.delta_inc.val();
        self.i_delta_due.c.next = self.cnt_inc.val() - self.s_lastcount.val();
        self.i_delta_sharp.c.next = bits::<16>(1) - self.s_lastcount.val();
        self.ix_inc2.next = self.i_inc2.idx.val();
        self.ix_entry_inc.next = self.i_entry_inc.idx.val();
        self.ix_delta_due.next = self.i_delta_due.idx.val();
        self.ix_delta_sharp.next = self.i_delta_sharp.idx.val();
        self.v_inc.idx.next = self.s_law_inc.val();
        self.v_inc.harmonic.next = self.harmonic.val();
        self.v_delta.idx.next = self.s_law_delta.val();
        self.v_delta.harmonic.next = false;
        // the index of 1
        self.v_one.idx.next = 0.into();
        self.v_one.harmonic.next = false;
        self.v_inc.lut0.next = self.lut0.val();
        self.v_inc.lut1.next = self.lut1.val();
        self.v_inc.lut2.next = self.lut2.val();
        self.v_inc.lut3.next = self.lut3.val();
        self.v_inc.lut_bias.next = self.lut_bias.val();
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
        self.law_inc.next = self.v_inc.val.val();
        self.law_delta.next = self.v_delta.val.val();
        self.law_one.next = self.v_one.val.val();
    }
}

/// The marker's `marking_next` for each outcome of a decision, and the two tests on
/// `now − next`: whether a mark is due, and CoDel's "recently" for its re-entry.
///
/// The state keeps `marking_next` as a sum, `base + law` (`s_base`, `s_law`): a decision that
/// moves it stores the law it adds (`law` is the divider's value, at most `0xFF_0000`, or the
/// 16-bit interval) beside the base it adds it to, and the addition is made at the next
/// decision, from registers, beside the tests that read the sum. So no carry chain follows the
/// divider in the clock that divides. A due mark moves `next` to `next + law` (the paper,
/// CoDel) or to `now + law` (ns-3); the first is the one that can trail `now`, so when `next`
/// already trails `now` by more than 2^30 ticks the step starts from `now − 2^30` instead (the
/// lag clamp, ECN♯ §5 item 8): a test on the sum's lag alone, not on the law. Combinational.
#[derive(LogicBlock, Default)]
pub struct MarkingNext {
    pub now: Signal<In, Bits<32>>,
    /// `marking_next` as the state keeps it: `s_base + s_law`.
    pub s_base: Signal<In, Bits<32>>,
    pub s_law: Signal<In, Bits<24>>,
    pub interval32: Signal<In, Bits<32>>,
    pub is_sharp: Signal<In, Bit>,
    pub due_ge: Signal<In, Bit>,
    /// `cnt − lastcount > 1` (`MarkerCounts`).
    pub delta_gt1: Signal<In, Bit>,
    pub law_delta: Signal<In, Bits<24>>,
    pub law_one: Signal<In, Bits<24>>,
    /// `marking_next` (`s_base + s_law`).
    pub next_sum: Signal<Out, Bits<32>>,
    /// A mark is due (`now > next`, or `≥` under CoDel and `due_ge`).
    pub due: Signal<Out, Bit>,
    /// CoDel re-enters with `delta` (not 1): `delta > 1` and `now − next < 16 · interval`.
    pub reentry: Signal<Out, Bit>,
    /// The base a due mark of the paper's law or CoDel's adds its law to: `next`, or
    /// `now − 2^30` when `next` trails `now` by more than 2^30 ticks.
    pub step_base: Signal<Out, Bits<32>>,
    /// CoDel's entry law: `P/√delta` on a re-entry, else `P/√1` (added to `now`).
    pub entry_law: Signal<Out, Bits<24>>,
    lag: AddSub<32>,
}

impl Logic for MarkingNext {
    #[hdl_gen]
    fn update(&mut self) {
        self.next_sum.next = self.s_base.val() + bit_cast::<32, 24>(self.s_law.val());
        // `now − base − law` in one chain (`now + !base − law + 1`)
        self.lag.a.next = self.now.val();
        self.lag.b.next = !self.s_base.val();
        self.lag.sub.next = bit_cast::<32, 24>(self.s_law.val());
        self.lag.cin.next = true;
        self.due.next = !self.lag.out.val().get_bit(31);
        if self.is_sharp.val() & !self.due_ge.val() {
            self.due.next = !self.lag.out.val().get_bit(31) & self.lag.out.val().any();
        }
        self.reentry.next = self.delta_gt1.val()
            & (self.lag.out.val().get_bit(31) | (self.lag.out.val() < (self.interval32.val() << 4)));
        // the lag is more than 2^30 and less than 2^31 (`now` after `next`)
        self.step_base.next = self.next_sum.val();
        if !self.lag.out.val().get_bit(31) & self.lag.out.val().get_bit(30) & self.lag.out.val().get_bits::<30>(0).any() {
            self.step_base.next = self.now.val() - 0x4000_0000;
        }
        self.entry_law.next = self.law_one.val();
        if self.reentry.val() {
            self.entry_law.next = self.law_delta.val();
        }
    }
}

/// The marker's configuration registers behind the register port (addresses: `csr`), with the
/// mode word decoded: `QueueLen` 1, `Tcn` 2, `Codel` 3, `EcnSharp` 4 (`mod.rs`).
#[derive(LogicBlock, Default)]
pub struct MarkerConfig {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<6>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub mode_sel: Signal<Out, Bits<3>>,
    /// Mode word bit 4: ns-3's law, `next = now + P/√c` (ECN♯)
    pub ns3_law: Signal<Out, Bit>,
    /// Bit 5: a mark is due at `now = next` too (ECN♯)
    pub due_ge: Signal<Out, Bit>,
    /// Bit 6: a not-ECT packet that fires is dropped
    pub drop_non_ect: Signal<Out, Bit>,
    pub is_codel: Signal<Out, Bit>,
    pub is_sharp: Signal<Out, Bit>,
    /// ECN♯ with the paper's harmonic law (P/c), not ns-3's P/√c
    pub harmonic: Signal<Out, Bit>,
    pub ins_target: Signal<Out, Bits<32>>,
    pub k: Signal<Out, Bits<32>>,
    pub pst_target: Signal<Out, Bits<32>>,
    pub interval32: Signal<Out, Bits<32>>,
    pub codel_min_qlen: Signal<Out, Bits<32>>,
    pub lut_bias: Signal<Out, Bits<6>>,
    pub lut0: Signal<Out, Bits<32>>,
    pub lut1: Signal<Out, Bits<32>>,
    pub lut2: Signal<Out, Bits<32>>,
    pub lut3: Signal<Out, Bits<32>>,
    mode_r: DFF<Bits<8>>,
    is_codel_r: DFF<Bit>,
    is_sharp_r: DFF<Bit>,
    harmonic_r: DFF<Bit>,
    ins_target_r: DFF<Bits<32>>,
    k_r: DFF<Bits<32>>,
    pst_target_r: DFF<Bits<32>>,
    pst_interval_r: DFF<Bits<16>>,
    codel_min_qlen_r: DFF<Bits<32>>,
    lut_bias_r: DFF<Bits<6>>,
    lut0_r: DFF<Bits<32>>,
    lut1_r: DFF<Bits<32>>,
    lut2_r: DFF<Bits<32>>,
    lut3_r: DFF<Bits<32>>,
}

impl Logic for MarkerConfig {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, mode_r, is_codel_r, is_sharp_r, harmonic_r, ins_target_r, k_r, pst_target_r, pst_interval_r, codel_min_qlen_r, lut_bias_r, lut0_r, lut1_r,
            lut2_r, lut3_r
        );
        self.ns3_law.next = self.mode_r.q.val().get_bit(4);
        self.due_ge.next = self.mode_r.q.val().get_bit(5);
        self.drop_non_ect.next = self.mode_r.q.val().get_bit(6);
        self.mode_sel.next = self.mode_r.q.val().get_bits::<3>(0);
        // the mode's decoded bits are registers of their own, decoded from the written word
        self.is_codel.next = self.is_codel_r.q.val();
        self.is_sharp.next = self.is_sharp_r.q.val();
        self.harmonic.next = self.harmonic_r.q.val();
        self.ins_target.next = self.ins_target_r.q.val();
        self.k.next = self.k_r.q.val();
        self.pst_target.next = self.pst_target_r.q.val();
        self.interval32.next = bit_cast::<32, 16>(self.pst_interval_r.q.val());
        self.codel_min_qlen.next = self.codel_min_qlen_r.q.val();
        self.lut_bias.next = self.lut_bias_r.q.val();
        self.lut0.next = self.lut0_r.q.val();
        self.lut1.next = self.lut1_r.q.val();
        self.lut2.next = self.lut2_r.q.val();
        self.lut3.next = self.lut3_r.q.val();
        if self.csr_we.val() {
            match self.csr_addr.val().index() {
                0 => {
                    self.mode_r.d.next = self.csr_wdata.val().get_bits::<8>(0);
                    self.is_codel_r.d.next = self.csr_wdata.val().get_bits::<3>(0) == 3;
                    self.is_sharp_r.d.next = self.csr_wdata.val().get_bits::<3>(0) == 4;
                    self.harmonic_r.d.next = (self.csr_wdata.val().get_bits::<3>(0) == 4) & !self.csr_wdata.val().get_bit(4);
                }
                1 => self.ins_target_r.d.next = self.csr_wdata.val(),
                2 => self.k_r.d.next = self.csr_wdata.val(),
                3 => self.pst_target_r.d.next = self.csr_wdata.val(),
                4 => self.pst_interval_r.d.next = self.csr_wdata.val().get_bits::<16>(0),
                5 => self.codel_min_qlen_r.d.next = self.csr_wdata.val(),
                6 => self.lut_bias_r.d.next = self.csr_wdata.val().get_bits::<6>(0),
                16 => self.lut0_r.d.next = self.csr_wdata.val(),
                17 => self.lut1_r.d.next = self.csr_wdata.val(),
                18 => self.lut2_r.d.next = self.csr_wdata.val(),
                19 => self.lut3_r.d.next = self.csr_wdata.val(),
                _ => {}
            }
        }
    }
}

/// The above-target tracker that ECN♯ and CoDel share (model: `track_above`; ECN♯ Algorithm 1's
/// `first_above_time`). It finds the sojourn below target (for CoDel also when the queue holds
/// at most `CODEL_MIN_QLEN`), or above it since `fat` for longer than the interval (`det`;
/// ECN♯: more than, CoDel: at least; the age is `now − fat` on the 32-bit clock, so it wraps
/// with it). On a dequeue the persistent rules see (`track`) the state moves: below clears it,
/// the first dequeue above target starts the age, later ones latch `det` until the sojourn
/// goes below.
#[derive(LogicBlock, Default)]
pub struct AboveTracker {
    pub track: Signal<In, Bit>,
    pub now: Signal<In, Bits<32>>,
    /// The dequeued descriptor's enqueue stamp: its sojourn is `now − ts`.
    pub ts: Signal<In, Bits<32>>,
    pub qlen: Signal<In, Bits<32>>,
    pub is_codel: Signal<In, Bit>,
    pub pst_target: Signal<In, Bits<32>>,
    pub interval32: Signal<In, Bits<32>>,
    pub codel_min_qlen: Signal<In, Bits<32>>,
    pub s_fat_valid: Signal<In, Bit>,
    pub s_det_latched: Signal<In, Bit>,
    pub s_fat: Signal<In, Bits<32>>,
    /// Above target for longer than the interval (this dequeue's `det`).
    pub det: Signal<Out, Bit>,
    pub n_fat_valid: Signal<Out, Bit>,
    pub n_det_latched: Signal<Out, Bit>,
    pub n_fat: Signal<Out, Bits<32>>,
    below: Signal<Local, Bit>,
    /// The sojourn at or above `PST_TARGET`, and the age `now − fat` beyond the interval
    /// (`≥` for CoDel), each one carry chain on registers and inputs.
    at_target: WrapDiffAbove,
    aged: WrapDiffAbove,
}

impl Logic for AboveTracker {
    #[hdl_gen]
    fn update(&mut self) {
        self.at_target.a.next = self.now.val();
        self.at_target.b.next = self.ts.val();
        self.at_target.c.next = self.pst_target.val();
        self.at_target.ge.next = true;
        self.below.next = !self.at_target.above.val();
        if self.is_codel.val() & (self.qlen.val() <= self.codel_min_qlen.val()) {
            self.below.next = true;
        }
        self.aged.a.next = self.now.val();
        self.aged.b.next = self.s_fat.val();
        self.aged.c.next = self.interval32.val();
        self.aged.ge.next = self.is_codel.val();
        self.det.next = false;
        if !self.below.val() & self.s_fat_valid.val() {
            self.det.next = self.s_det_latched.val() | self.aged.above.val();
        }
        self.n_fat_valid.next = self.s_fat_valid.val();
        self.n_det_latched.next = self.s_det_latched.val();
        self.n_fat.next = self.s_fat.val();
        if self.track.val() {
            if self.below.val() {
                self.n_fat_valid.next = false;
                self.n_det_latched.next = false;
            } else if !self.s_fat_valid.val() {
                self.n_fat_valid.next = true;
                self.n_fat.next = self.now.val();
            } else {
                self.n_det_latched.next = self.det.val();
            }
        }
    }
}

/// [`AboveTracker`] with its state in registers, as one queue's marker keeps it: the instance
/// the component's own test drives (`sim-tests/tests/port_components.rs`).
#[derive(LogicBlock, Default)]
pub struct TestAboveTracker {
    pub clock: Signal<In, Clock>,
    pub track: Signal<In, Bit>,
    pub now: Signal<In, Bits<32>>,
    pub sojourn: Signal<In, Bits<32>>,
    pub qlen: Signal<In, Bits<32>>,
    pub is_codel: Signal<In, Bit>,
    pub pst_target: Signal<In, Bits<32>>,
    pub interval32: Signal<In, Bits<32>>,
    pub codel_min_qlen: Signal<In, Bits<32>>,
    pub det: Signal<Out, Bit>,
    pub fat_valid: Signal<Out, Bit>,
    pub fat: Signal<Out, Bits<32>>,
    tracker: AboveTracker,
    fat_valid_r: DFF<Bit>,
    det_latched_r: DFF<Bit>,
    fat_r: DFF<Bits<32>>,
}

impl Logic for TestAboveTracker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fat_valid_r, det_latched_r, fat_r);
        self.tracker.track.next = self.track.val();
        self.tracker.now.next = self.now.val();
        self.tracker.ts.next = self.now.val() - self.sojourn.val();
        self.tracker.qlen.next = self.qlen.val();
        self.tracker.is_codel.next = self.is_codel.val();
        self.tracker.pst_target.next = self.pst_target.val();
        self.tracker.interval32.next = self.interval32.val();
        self.tracker.codel_min_qlen.next = self.codel_min_qlen.val();
        self.tracker.s_fat_valid.next = self.fat_valid_r.q.val();
        self.tracker.s_det_latched.next = self.det_latched_r.q.val();
        self.tracker.s_fat.next = self.fat_r.q.val();
        self.fat_valid_r.d.next = self.tracker.n_fat_valid.val();
        self.det_latched_r.d.next = self.tracker.n_det_latched.val();
        self.fat_r.d.next = self.tracker.n_fat.val();
        self.det.next = self.tracker.det.val();
        self.fat_valid.next = self.fat_valid_r.q.val();
        self.fat.next = self.fat_r.q.val();
    }
}

crate::pin_io!(TestAboveTracker;
    in: track, now, sojourn, qlen, is_codel, pst_target, interval32, codel_min_qlen;
    out: det, fat_valid, fat);

/// The marker's registers, counters and decision logic, with the per-queue state outside
/// (`s_*` in, `n_*` out): [`AqmTop`] keeps one queue's state in registers, the switch port
/// keeps one set per queue and serves them all with one core (ECN♯ §2.5, §5 item 13). The
/// state's owner also shows it and clears it on `STATE_CLEAR` (a clear wins over `n_*`).
/// The decision is combinational on the dequeue inputs; the state updates at the edge, and the
/// statistics count each event at the edge after its clock (`LateCounter`), so no decision reaches
/// a counter's carry chain.
#[derive(LogicBlock, Default)]
pub struct AqmCore {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<6>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub deq: Signal<In, Bit>,
    pub now: Signal<In, Bits<32>>,
    /// The dequeued descriptor's enqueue stamp: its sojourn is `now − ts` (mod 2^32).
    pub ts: Signal<In, Bits<32>>,
    pub ecn_in: Signal<In, Bits<2>>,
    pub qlen: Signal<In, Bits<32>>,
    /// The queue's state at the start of the clock (from the owner's registers).
    pub s_ms: Signal<In, Bit>,
    pub s_fat_valid: Signal<In, Bit>,
    pub s_det_latched: Signal<In, Bit>,
    pub s_fat: Signal<In, Bits<32>>,
    pub s_cnt: Signal<In, Bits<16>>,
    pub s_lastcount: Signal<In, Bits<16>>,
    /// `marking_next` as `base + law` (`MarkingNext`).
    pub s_next_base: Signal<In, Bits<32>>,
    pub s_next_law: Signal<In, Bits<24>>,
    /// The control law's table index (`LawIndex`) of `cnt + 1` (saturating) and of
    /// `cnt − lastcount`: kept with the state so that the division starts from registers.
    /// Zero after a clear, like the counts (the index of 0 and of 1 is 0).
    pub s_law_inc: Signal<In, Bits<7>>,
    pub s_law_delta: Signal<In, Bits<7>>,
    pub ins: Signal<Out, Bit>,
    pub det: Signal<Out, Bit>,
    pub pst: Signal<Out, Bit>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop: Signal<Out, Bit>,
    pub cnt_marked: Signal<Out, Bits<32>>,
    pub cnt_fired_inst: Signal<Out, Bits<32>>,
    pub cnt_fired_pers: Signal<Out, Bits<32>>,
    pub cnt_dropped: Signal<Out, Bits<32>>,
    /// The queue's state after the clock edge (to the owner's registers).
    pub n_ms: Signal<Out, Bit>,
    pub n_fat_valid: Signal<Out, Bit>,
    pub n_det_latched: Signal<Out, Bit>,
    pub n_fat: Signal<Out, Bits<32>>,
    pub n_cnt: Signal<Out, Bits<16>>,
    pub n_lastcount: Signal<Out, Bits<16>>,
    pub n_next_base: Signal<Out, Bits<32>>,
    pub n_next_law: Signal<Out, Bits<24>>,
    pub n_law_inc: Signal<Out, Bits<7>>,
    pub n_law_delta: Signal<Out, Bits<7>>,
    /// `marking_next` at the start of the clock (`s_next_base + s_next_law`), for the owner
    /// to show.
    pub marking_next: Signal<Out, Bits<32>>,
    cfg: MarkerConfig,
    /// The counts, their table indices and the control law, side by side.
    counts: MarkerCounts,
    /// `marking_next` for each outcome, and the due and re-entry tests.
    marking: MarkingNext,
    c_marked: LateCounter,
    c_inst: LateCounter,
    c_pers: LateCounter,
    c_dropped: LateCounter,
    /// Whether the sojourn has been above target for an interval (`AboveTracker`).
    tracker: AboveTracker,
    /// The sojourn above `INS_TARGET`, one carry chain from `now` and the stamp.
    ins_above: WrapDiffAbove,
    // wires
    det_w: Signal<Local, Bit>,
    cnt_entry: Signal<Local, Bits<16>>,
    ins_w: Signal<Local, Bit>,
    pst_w: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    is_ect: Signal<Local, Bit>,
}

impl Logic for AqmCore {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, cfg, c_marked, c_inst, c_pers, c_dropped);
        self.cfg.csr_we.next = self.csr_we.val();
        self.cfg.csr_addr.next = self.csr_addr.val();
        self.cfg.csr_wdata.next = self.csr_wdata.val();
        // the state is kept unless a dequeue or a register write changes it
        self.n_ms.next = self.s_ms.val();
        self.n_cnt.next = self.s_cnt.val();
        self.n_lastcount.next = self.s_lastcount.val();
        self.n_next_base.next = self.s_next_base.val();
        self.n_next_law.next = self.s_next_law.val();
        self.is_ect.next = (self.ecn_in.val() == 1) | (self.ecn_in.val() == 2);

        // --- above-target tracker shared by ECN♯ and CoDel; its state moves on every dequeue
        // the persistent rules see
        self.tracker.track.next = self.deq.val() & (self.cfg.is_sharp.val() | self.cfg.is_codel.val());
        self.tracker.now.next = self.now.val();
        self.tracker.ts.next = self.ts.val();
        self.tracker.qlen.next = self.qlen.val();
        self.tracker.is_codel.next = self.cfg.is_codel.val();
        self.tracker.pst_target.next = self.cfg.pst_target.val();
        self.tracker.interval32.next = self.cfg.interval32.val();
        self.tracker.codel_min_qlen.next = self.cfg.codel_min_qlen.val();
        self.tracker.s_fat_valid.next = self.s_fat_valid.val();
        self.tracker.s_det_latched.next = self.s_det_latched.val();
        self.tracker.s_fat.next = self.s_fat.val();
        self.n_fat_valid.next = self.tracker.n_fat_valid.val();
        self.n_det_latched.next = self.tracker.n_det_latched.val();
        self.n_fat.next = self.tracker.n_fat.val();
        self.det_w.next = self.tracker.det.val();

        // --- counts and the control law (`MarkerCounts`): each division starts from a table
        // index kept with the state
        self.counts.s_cnt.next = self.s_cnt.val();
        self.counts.s_lastcount.next = self.s_lastcount.val();
        self.counts.s_law_inc.next = self.s_law_inc.val();
        self.counts.s_law_delta.next = self.s_law_delta.val();
        self.counts.harmonic.next = self.cfg.harmonic.val();
        self.counts.lut0.next = self.cfg.lut0.val();
        self.counts.lut1.next = self.cfg.lut1.val();
        self.counts.lut2.next = self.cfg.lut2.val();
        self.counts.lut3.next = self.cfg.lut3.val();
        self.counts.lut_bias.next = self.cfg.lut_bias.val();
        self.n_law_inc.next = self.s_law_inc.val();
        self.n_law_delta.next = self.s_law_delta.val();
        // --- `marking_next` for each outcome (`MarkingNext`)
        self.marking.now.next = self.now.val();
        self.marking.s_base.next = self.s_next_base.val();
        self.marking.s_law.next = self.s_next_law.val();
        self.marking_next.next = self.marking.next_sum.val();
        self.marking.interval32.next = self.cfg.interval32.val();
        self.marking.is_sharp.next = self.cfg.is_sharp.val();
        self.marking.due_ge.next = self.cfg.due_ge.val();
        self.marking.delta_gt1.next = self.counts.delta_gt1.val();
        self.marking.law_delta.next = self.counts.law_delta.val();
        self.marking.law_one.next = self.counts.law_one.val();
        // CoDel's re-entry count (the Linux rule)
        self.cnt_entry.next = 1.into();
        if self.marking.reentry.val() {
            self.cnt_entry.next = self.counts.delta.val();
        }

        // --- instantaneous rules
        self.ins_w.next = false;
        if self.cfg.mode_sel.val() == 1 {
            self.ins_w.next = self.qlen.val() > self.cfg.k.val();
        }
        self.ins_above.a.next = self.now.val();
        self.ins_above.b.next = self.ts.val();
        self.ins_above.c.next = self.cfg.ins_target.val();
        self.ins_above.ge.next = false;
        if (self.cfg.mode_sel.val() == 2) | self.cfg.is_sharp.val() {
            self.ins_w.next = self.ins_above.above.val();
        }
        self.pst_w.next = false;
        // --- persistent rules: ECN♯ Algorithm 1 / CoDel, state advances on every dequeue
        if self.tracker.track.val() {
            if self.s_ms.val() {
                if !self.det_w.val() {
                    self.n_ms.next = false;
                } else {
                    self.pst_w.next = self.marking.due.val();
                    if self.marking.due.val() {
                        self.n_cnt.next = self.counts.cnt_inc.val();
                        self.n_law_inc.next = self.counts.ix_inc2.val();
                        self.n_law_delta.next = self.counts.ix_delta_due.val();
                        // `next + law` (`now − 2^30 + law` under the clamp) or ns-3's `now + law`,
                        // summed at the next decision (`MarkingNext`)
                        self.n_next_law.next = self.counts.law_inc.val();
                        self.n_next_base.next = self.marking.step_base.val();
                        if self.cfg.is_sharp.val() & self.cfg.ns3_law.val() {
                            self.n_next_base.next = self.now.val();
                        }
                    }
                }
            } else if self.det_w.val() {
                self.n_ms.next = true;
                self.pst_w.next = true;
                if self.cfg.is_codel.val() {
                    self.n_cnt.next = self.cnt_entry.val();
                    self.n_lastcount.next = self.cnt_entry.val();
                    self.n_next_base.next = self.now.val();
                    self.n_next_law.next = self.marking.entry_law.val();
                    // the index of cnt_entry + 1 (of 2 when cnt_entry is 1); delta is now 0
                    self.n_law_inc.next = 8.into();
                    if self.marking.reentry.val() {
                        self.n_law_inc.next = self.counts.ix_entry_inc.val();
                    }
                    self.n_law_delta.next = 0.into();
                } else {
                    self.n_cnt.next = 1.into();
                    self.n_law_inc.next = 8.into();
                    self.n_law_delta.next = self.counts.ix_delta_sharp.val();
                    self.n_next_base.next = self.now.val();
                    self.n_next_law.next = self.cfg.interval32.val().get_bits::<24>(0);
                }
            }
        }
        // --- decision and counters
        self.fire.next = self.deq.val() & (self.ins_w.val() | self.pst_w.val());
        self.ins.next = self.deq.val() & self.ins_w.val();
        self.det.next = self.deq.val() & (self.cfg.is_sharp.val() | self.cfg.is_codel.val()) & self.det_w.val();
        self.pst.next = self.pst_w.val();
        self.ecn_out.next = self.ecn_in.val();
        self.drop.next = false;
        if self.fire.val() & self.is_ect.val() {
            self.ecn_out.next = 3.into();
        }
        if self.fire.val() & (self.ecn_in.val() == 0) & self.cfg.drop_non_ect.val() {
            self.drop.next = true;
        }
        self.c_marked.inc.next = self.fire.val() & self.is_ect.val();
        self.c_dropped.inc.next = self.drop.val();
        self.c_inst.inc.next = self.ins.val();
        self.c_pers.inc.next = self.pst_w.val();

        // --- counter presets (addresses: csr module); a preset wins over the count
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

/// The marker state of every queue of a port whose queues share one [`AqmCore`] (ECN♯ §2.5):
/// `NQ` sets of registers. `s_*` is queue `sel`'s set (the core's `s_*`); `write` stores the
/// core's `n_*` into it at the edge; `clear` (the core's `STATE_CLEAR`) zeroes every set and
/// wins.
#[derive(LogicBlock)]
pub struct AqmQueueStates<const NQ: usize, const QB: usize> {
    pub clock: Signal<In, Clock>,
    pub sel: Signal<In, Bits<QB>>,
    pub write: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub n_ms: Signal<In, Bit>,
    pub n_fat_valid: Signal<In, Bit>,
    pub n_det_latched: Signal<In, Bit>,
    pub n_fat: Signal<In, Bits<32>>,
    pub n_cnt: Signal<In, Bits<16>>,
    pub n_lastcount: Signal<In, Bits<16>>,
    pub n_next_base: Signal<In, Bits<32>>,
    pub n_next_law: Signal<In, Bits<24>>,
    pub n_law_inc: Signal<In, Bits<7>>,
    pub n_law_delta: Signal<In, Bits<7>>,
    pub s_ms: Signal<Out, Bit>,
    pub s_fat_valid: Signal<Out, Bit>,
    pub s_det_latched: Signal<Out, Bit>,
    pub s_fat: Signal<Out, Bits<32>>,
    pub s_cnt: Signal<Out, Bits<16>>,
    pub s_lastcount: Signal<Out, Bits<16>>,
    pub s_next_base: Signal<Out, Bits<32>>,
    pub s_next_law: Signal<Out, Bits<24>>,
    pub s_law_inc: Signal<Out, Bits<7>>,
    pub s_law_delta: Signal<Out, Bits<7>>,
    ms: [DFF<Bit>; NQ],
    fat_valid: [DFF<Bit>; NQ],
    det_latched: [DFF<Bit>; NQ],
    fat: [DFF<Bits<32>>; NQ],
    cnt: [DFF<Bits<16>>; NQ],
    lastcount: [DFF<Bits<16>>; NQ],
    next_base: [DFF<Bits<32>>; NQ],
    next_law: [DFF<Bits<24>>; NQ],
    law_inc: [DFF<Bits<7>>; NQ],
    law_delta: [DFF<Bits<7>>; NQ],
}

impl<const NQ: usize, const QB: usize> Default for AqmQueueStates<NQ, QB> {
    fn default() -> Self {
        AqmQueueStates {
            clock: Default::default(),
            sel: Default::default(),
            write: Default::default(),
            clear: Default::default(),
            n_ms: Default::default(),
            n_fat_valid: Default::default(),
            n_det_latched: Default::default(),
            n_fat: Default::default(),
            n_cnt: Default::default(),
            n_lastcount: Default::default(),
            n_next_base: Default::default(),
            n_next_law: Default::default(),
            n_law_inc: Default::default(),
            n_law_delta: Default::default(),
            s_ms: Default::default(),
            s_fat_valid: Default::default(),
            s_det_latched: Default::default(),
            s_fat: Default::default(),
            s_cnt: Default::default(),
            s_lastcount: Default::default(),
            s_next_base: Default::default(),
            s_next_law: Default::default(),
            s_law_inc: Default::default(),
            s_law_delta: Default::default(),
            ms: std::array::from_fn(|_| Default::default()),
            fat_valid: std::array::from_fn(|_| Default::default()),
            det_latched: std::array::from_fn(|_| Default::default()),
            fat: std::array::from_fn(|_| Default::default()),
            cnt: std::array::from_fn(|_| Default::default()),
            lastcount: std::array::from_fn(|_| Default::default()),
            next_base: std::array::from_fn(|_| Default::default()),
            next_law: std::array::from_fn(|_| Default::default()),
            law_inc: std::array::from_fn(|_| Default::default()),
            law_delta: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const NQ: usize, const QB: usize> Logic for AqmQueueStates<NQ, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.s_ms.next = false;
        self.s_fat_valid.next = false;
        self.s_det_latched.next = false;
        self.s_fat.next = 0.into();
        self.s_cnt.next = 0.into();
        self.s_lastcount.next = 0.into();
        self.s_next_base.next = 0.into();
        self.s_next_law.next = 0.into();
        self.s_law_inc.next = 0.into();
        self.s_law_delta.next = 0.into();
        for i in 0..NQ {
            self.ms[i].clock.next = self.clock.val();
            self.ms[i].d.next = self.ms[i].q.val();
            self.fat_valid[i].clock.next = self.clock.val();
            self.fat_valid[i].d.next = self.fat_valid[i].q.val();
            self.det_latched[i].clock.next = self.clock.val();
            self.det_latched[i].d.next = self.det_latched[i].q.val();
            self.fat[i].clock.next = self.clock.val();
            self.fat[i].d.next = self.fat[i].q.val();
            self.cnt[i].clock.next = self.clock.val();
            self.cnt[i].d.next = self.cnt[i].q.val();
            self.lastcount[i].clock.next = self.clock.val();
            self.lastcount[i].d.next = self.lastcount[i].q.val();
            self.next_base[i].clock.next = self.clock.val();
            self.next_base[i].d.next = self.next_base[i].q.val();
            self.next_law[i].clock.next = self.clock.val();
            self.next_law[i].d.next = self.next_law[i].q.val();
            self.law_inc[i].clock.next = self.clock.val();
            self.law_inc[i].d.next = self.law_inc[i].q.val();
            self.law_delta[i].clock.next = self.clock.val();
            self.law_delta[i].d.next = self.law_delta[i].q.val();
            if self.sel.val().index() == i {
                self.s_ms.next = self.ms[i].q.val();
                self.s_fat_valid.next = self.fat_valid[i].q.val();
                self.s_det_latched.next = self.det_latched[i].q.val();
                self.s_fat.next = self.fat[i].q.val();
                self.s_cnt.next = self.cnt[i].q.val();
                self.s_lastcount.next = self.lastcount[i].q.val();
                self.s_next_base.next = self.next_base[i].q.val();
                self.s_next_law.next = self.next_law[i].q.val();
                self.s_law_inc.next = self.law_inc[i].q.val();
                self.s_law_delta.next = self.law_delta[i].q.val();
            }
            if self.write.val() & (self.sel.val().index() == i) {
                self.ms[i].d.next = self.n_ms.val();
                self.fat_valid[i].d.next = self.n_fat_valid.val();
                self.det_latched[i].d.next = self.n_det_latched.val();
                self.fat[i].d.next = self.n_fat.val();
                self.cnt[i].d.next = self.n_cnt.val();
                self.lastcount[i].d.next = self.n_lastcount.val();
                self.next_base[i].d.next = self.n_next_base.val();
                self.next_law[i].d.next = self.n_next_law.val();
                self.law_inc[i].d.next = self.n_law_inc.val();
                self.law_delta[i].d.next = self.n_law_delta.val();
            }
            if self.clear.val() {
                self.ms[i].d.next = false;
                self.fat_valid[i].d.next = false;
                self.det_latched[i].d.next = false;
                self.fat[i].d.next = 0.into();
                self.cnt[i].d.next = 0.into();
                self.lastcount[i].d.next = 0.into();
                self.next_base[i].d.next = 0.into();
                self.next_law[i].d.next = 0.into();
                self.law_inc[i].d.next = 0.into();
                self.law_delta[i].d.next = 0.into();
            }
        }
    }
}

/// The instance the component's own test drives (`sim-tests/tests/port_components.rs`): 4 queues.
pub type TestQueueStates = AqmQueueStates<4, 2>;

crate::pin_io!(TestQueueStates;
    in: sel, write, clear, n_ms, n_fat_valid, n_det_latched, n_fat, n_cnt, n_lastcount, n_next_base, n_next_law,
        n_law_inc, n_law_delta;
    out: s_ms, s_fat_valid, s_det_latched, s_fat, s_cnt, s_lastcount, s_next_base, s_next_law, s_law_inc,
        s_law_delta);

/// One marker serving `NQ` queues (ECN♯ §2.5): the dequeued queue's state goes from
/// [`AqmQueueStates`] through the [`AqmCore`] and back at the edge; `STATE_CLEAR` (address 7)
/// clears every queue's state. The switch port's AQM.
#[derive(LogicBlock, Default)]
pub struct QueueMarker<const NQ: usize, const QB: usize> {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<6>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub deq: Signal<In, Bit>,
    /// The dequeued queue.
    pub q: Signal<In, Bits<QB>>,
    pub now: Signal<In, Bits<32>>,
    /// The dequeued descriptor's enqueue stamp.
    pub ts: Signal<In, Bits<32>>,
    pub ecn_in: Signal<In, Bits<2>>,
    pub qlen: Signal<In, Bits<32>>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop: Signal<Out, Bit>,
    core: AqmCore,
    states: AqmQueueStates<NQ, QB>,
}

impl<const NQ: usize, const QB: usize> Logic for QueueMarker<NQ, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, core, states);
        self.core.csr_we.next = self.csr_we.val();
        self.core.csr_addr.next = self.csr_addr.val();
        self.core.csr_wdata.next = self.csr_wdata.val();
        self.core.deq.next = self.deq.val();
        self.core.now.next = self.now.val();
        self.core.ts.next = self.ts.val();
        self.core.ecn_in.next = self.ecn_in.val();
        self.core.qlen.next = self.qlen.val();
        self.ecn_out.next = self.core.ecn_out.val();
        self.drop.next = self.core.drop.val();
        self.states.sel.next = self.q.val();
        self.states.write.next = self.deq.val();
        self.states.clear.next = self.csr_we.val() & (self.csr_addr.val() == 7);
        self.core.s_ms.next = self.states.s_ms.val();
        self.core.s_fat_valid.next = self.states.s_fat_valid.val();
        self.core.s_det_latched.next = self.states.s_det_latched.val();
        self.core.s_fat.next = self.states.s_fat.val();
        self.core.s_cnt.next = self.states.s_cnt.val();
        self.core.s_lastcount.next = self.states.s_lastcount.val();
        self.core.s_next_base.next = self.states.s_next_base.val();
        self.core.s_next_law.next = self.states.s_next_law.val();
        self.core.s_law_inc.next = self.states.s_law_inc.val();
        self.core.s_law_delta.next = self.states.s_law_delta.val();
        self.states.n_ms.next = self.core.n_ms.val();
        self.states.n_fat_valid.next = self.core.n_fat_valid.val();
        self.states.n_det_latched.next = self.core.n_det_latched.val();
        self.states.n_fat.next = self.core.n_fat.val();
        self.states.n_cnt.next = self.core.n_cnt.val();
        self.states.n_lastcount.next = self.core.n_lastcount.val();
        self.states.n_next_base.next = self.core.n_next_base.val();
        self.states.n_next_law.next = self.core.n_next_law.val();
        self.states.n_law_inc.next = self.core.n_law_inc.val();
        self.states.n_law_delta.next = self.core.n_law_delta.val();
    }
}

/// The tested top of the foundation: sojourn timestamp + one marker behind one register port.
/// The marker is the two-clock one (`pipe::MarkerPipe`) around one queue's state registers, so
/// every dequeue after another is one `A` sees through `B`'s forwarding. Pins are what
/// `hdl::aqm::vectors::CycleIn`/`Outputs` describe: the verdict and the state it was judged on
/// show a clock after the dequeue.
#[derive(LogicBlock, Default)]
pub struct AqmTop {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<6>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub deq: Signal<In, Bit>,
    pub deq_ts: Signal<In, Bits<32>>,
    pub deq_ecn: Signal<In, Bits<2>>,
    pub deq_qlen: Signal<In, Bits<32>>,
    pub now: Signal<Out, Bits<32>>,
    pub enq_ts: Signal<Out, Bits<32>>,
    pub sojourn: Signal<Out, Bits<32>>,
    pub ins: Signal<Out, Bit>,
    pub det: Signal<Out, Bit>,
    pub pst: Signal<Out, Bit>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub drop: Signal<Out, Bit>,
    pub st_ms: Signal<Out, Bit>,
    pub st_fat_valid: Signal<Out, Bit>,
    pub st_det_latched: Signal<Out, Bit>,
    pub st_fat: Signal<Out, Bits<32>>,
    pub st_cnt: Signal<Out, Bits<16>>,
    pub st_lastcount: Signal<Out, Bits<16>>,
    pub st_next: Signal<Out, Bits<32>>,
    pub cnt_marked: Signal<Out, Bits<32>>,
    pub cnt_fired_inst: Signal<Out, Bits<32>>,
    pub cnt_fired_pers: Signal<Out, Bits<32>>,
    pub cnt_dropped: Signal<Out, Bits<32>>,
    stamp: SojournStamp,
    marker: MarkerPipe,
    clear: Signal<Local, Bit>,
    // the one queue's marker state
    ms: DFF<Bit>,
    fat_valid: DFF<Bit>,
    det_latched: DFF<Bit>,
    fat: DFF<Bits<32>>,
    cnt: DFF<Bits<16>>,
    lastcount: DFF<Bits<16>>,
    next_base: DFF<Bits<32>>,
    next_law: DFF<Bits<24>>,
    law_inc: DFF<Bits<7>>,
    law_delta: DFF<Bits<7>>,
    idx2: DFF<Bits<7>>,
    clk_per_tick: DFF<Bits<16>>,
}

impl Logic for AqmTop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, clk_per_tick, ms, fat_valid, det_latched, fat, cnt, lastcount, next_base, next_law, law_inc, law_delta, idx2);
        clock!(self, clock, stamp, marker);
        // timebase registers: csr::TIME_LOAD (8) and csr::CLK_PER_TICK (9)
        self.stamp.load.next = self.csr_we.val() & (self.csr_addr.val() == 8);
        self.stamp.load_value.next = self.csr_wdata.val();
        if self.csr_we.val() & (self.csr_addr.val() == 9) {
            self.clk_per_tick.d.next = self.csr_wdata.val().get_bits::<16>(0);
        }
        self.stamp.clk_per_tick.next = self.clk_per_tick.q.val();
        self.stamp.deq_ts.next = self.deq_ts.val();
        self.now.next = self.stamp.now.val();
        self.enq_ts.next = self.stamp.enq_ts.val();
        self.sojourn.next = self.stamp.sojourn.val();

        self.marker.r_ms.next = self.ms.q.val();
        self.marker.r_fv.next = self.fat_valid.q.val();
        self.marker.r_dl.next = self.det_latched.q.val();
        self.marker.r_fat.next = self.fat.q.val();
        self.marker.r_cnt.next = self.cnt.q.val();
        self.marker.r_lc.next = self.lastcount.q.val();
        self.marker.r_base.next = self.next_base.q.val();
        self.marker.r_law.next = self.next_law.q.val();
        self.marker.r_law_inc.next = self.law_inc.q.val();
        self.marker.r_law_delta.next = self.law_delta.q.val();
        self.marker.r_idx2.next = self.idx2.q.val();
        // STATE_CLEAR (csr::STATE_CLEAR, 7) zeroes the state and wins over the marker's write
        self.clear.next = self.csr_we.val() & (self.csr_addr.val() == 7);
        if self.marker.write.val() & !self.clear.val() {
            self.ms.d.next = self.marker.n_ms.val();
            self.fat_valid.d.next = self.marker.n_fv.val();
            self.det_latched.d.next = self.marker.n_dl.val();
            self.fat.d.next = self.marker.n_fat.val();
            self.cnt.d.next = self.marker.n_cnt.val();
            self.lastcount.d.next = self.marker.n_lc.val();
            self.next_base.d.next = self.marker.n_base.val();
            self.next_law.d.next = self.marker.n_law.val();
            self.law_inc.d.next = self.marker.n_law_inc.val();
            self.law_delta.d.next = self.marker.n_law_delta.val();
            self.idx2.d.next = self.marker.n_idx2.val();
        }
        if self.clear.val() {
            self.ms.d.next = false;
            self.fat_valid.d.next = false;
            self.det_latched.d.next = false;
            self.fat.d.next = 0.into();
            self.cnt.d.next = 0.into();
            self.lastcount.d.next = 0.into();
            self.next_base.d.next = 0.into();
            self.next_law.d.next = 0.into();
            self.law_inc.d.next = 0.into();
            self.law_delta.d.next = 0.into();
            self.idx2.d.next = 0.into();
        }
        self.marker.csr_we.next = self.csr_we.val();
        self.marker.csr_addr.next = self.csr_addr.val();
        self.marker.csr_wdata.next = self.csr_wdata.val();
        // a register write cycle carries no dequeue; the one queue is always the same
        self.marker.deq.next = self.deq.val() & !self.csr_we.val();
        self.marker.same_q.next = true;
        self.marker.cancel.next = self.clear.val();
        self.marker.now.next = self.stamp.now.val();
        self.marker.ts.next = self.deq_ts.val();
        self.marker.ecn_in.next = self.deq_ecn.val();
        self.marker.qlen.next = self.deq_qlen.val();
        self.ins.next = self.marker.ins.val();
        self.det.next = self.marker.det.val();
        self.pst.next = self.marker.pst.val();
        self.ecn_out.next = self.marker.ecn_out.val();
        self.drop.next = self.marker.drop.val();
        self.st_ms.next = self.marker.st_ms.val();
        self.st_fat_valid.next = self.marker.st_fv.val();
        self.st_det_latched.next = self.marker.st_dl.val();
        self.st_fat.next = self.marker.st_fat.val();
        self.st_cnt.next = self.marker.st_cnt.val();
        self.st_lastcount.next = self.marker.st_lc.val();
        self.st_next.next = self.marker.st_next.val();
        self.cnt_marked.next = self.marker.cnt_marked.val();
        self.cnt_fired_inst.next = self.marker.cnt_fired_inst.val();
        self.cnt_fired_pers.next = self.marker.cnt_fired_pers.val();
        self.cnt_dropped.next = self.marker.cnt_dropped.val();
    }
}

crate::pin_io!(AqmTop;
    in: csr_we, csr_addr, csr_wdata, deq, deq_ts, deq_ecn, deq_qlen;
    out: now, enq_ts, sojourn, ins, det, pst, ecn_out, drop, st_ms, st_fat_valid, st_det_latched, st_fat,
        st_cnt, st_lastcount, st_next, cnt_marked, cnt_fired_inst, cnt_fired_pers, cnt_dropped);
