//! RTL of the AQM marker and of the AQM top (timestamp + marker); the golden model is
//! `model.rs`, the algorithm and design choices are documented in `mod.rs`. Register addresses
//! are the literals of [`super::csr`] (rust-hdl's `hdl_gen` cannot read Rust constants).

use super::pipe::{MarkerPipe, PipeQueueStates};
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
/// it divides by (the queue state's `law_inc`, `law_delta`, `idx2`) and the division is a table
/// read and a shift. Combinational.
///
/// A tree, not a chain of sixteen priority tests (which synthesis kept as LUTs in series
/// behind a chain): the leading non-zero nibble (`k`) takes the window of it and the nibble
/// below (`w`, less its lowest bit, which no index reads); the leading one in the window's
/// upper nibble (`q`) gives `msb = 4k + q` and `top`.
#[derive(LogicBlock, Default)]
pub struct LawIndex {
    pub c: Signal<In, Bits<16>>,
    pub idx: Signal<Out, Bits<7>>,
    k: Signal<Local, Bits<2>>,
    w: Signal<Local, Bits<7>>,
    q: Signal<Local, Bits<2>>,
    top: Signal<Local, Bits<3>>,
}

impl Logic for LawIndex {
    #[hdl_gen]
    fn update(&mut self) {
        // by constant bit selects only: a variable shift here would be a cell yosys's `share`
        // pass merges across the marker's dividers, behind a multiplexer on the decision
        self.k.next = 0.into();
        self.w.next = bit_cast::<7, 4>(self.c.val().get_bits::<4>(0)) << 3;
        if self.c.val().get_bits::<4>(4).any() {
            self.k.next = 1.into();
            self.w.next = self.c.val().get_bits::<7>(1);
        }
        if self.c.val().get_bits::<4>(8).any() {
            self.k.next = 2.into();
            self.w.next = self.c.val().get_bits::<7>(5);
        }
        if self.c.val().get_bits::<4>(12).any() {
            self.k.next = 3.into();
            self.w.next = self.c.val().get_bits::<7>(9);
        }
        self.q.next = 0.into();
        self.top.next = self.w.val().get_bits::<3>(0);
        if self.w.val().get_bit(4) {
            self.q.next = 1.into();
            self.top.next = self.w.val().get_bits::<3>(1);
        }
        if self.w.val().get_bit(5) {
            self.q.next = 2.into();
            self.top.next = self.w.val().get_bits::<3>(2);
        }
        if self.w.val().get_bit(6) {
            self.q.next = 3.into();
            self.top.next = self.w.val().get_bits::<3>(3);
        }
        self.idx.next = (bit_cast::<7, 2>(self.k.val()) << 5) | (bit_cast::<7, 2>(self.q.val()) << 3)
            | bit_cast::<7, 3>(self.top.val());
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
    /// The one queue's marker state.
    state: PipeQueueStates<1, 1>,
    clear: Signal<Local, Bit>,
    clk_per_tick: DFF<Bits<16>>,
}

impl Logic for AqmTop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, clk_per_tick);
        clock!(self, clock, stamp, marker, state);
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

        // STATE_CLEAR (csr::STATE_CLEAR, 7) zeroes the state and wins over the marker's write
        self.clear.next = self.csr_we.val() & (self.csr_addr.val() == 7);
        self.state.rsel.next = 0.into();
        self.state.wsel.next = 0.into();
        self.state.write.next = self.marker.write.val();
        self.state.clear.next = self.clear.val();
        self.state.n_ms.next = self.marker.n_ms.val();
        self.state.n_fv.next = self.marker.n_fv.val();
        self.state.n_dl.next = self.marker.n_dl.val();
        self.state.n_fat.next = self.marker.n_fat.val();
        self.state.n_cnt.next = self.marker.n_cnt.val();
        self.state.n_lc.next = self.marker.n_lc.val();
        self.state.n_base.next = self.marker.n_base.val();
        self.state.n_law.next = self.marker.n_law.val();
        self.state.n_law_inc.next = self.marker.n_law_inc.val();
        self.state.n_law_delta.next = self.marker.n_law_delta.val();
        self.state.n_idx2.next = self.marker.n_idx2.val();
        self.marker.r_ms.next = self.state.r_ms.val();
        self.marker.r_fv.next = self.state.r_fv.val();
        self.marker.r_dl.next = self.state.r_dl.val();
        self.marker.r_fat.next = self.state.r_fat.val();
        self.marker.r_cnt.next = self.state.r_cnt.val();
        self.marker.r_lc.next = self.state.r_lc.val();
        self.marker.r_base.next = self.state.r_base.val();
        self.marker.r_law.next = self.state.r_law.val();
        self.marker.r_law_inc.next = self.state.r_law_inc.val();
        self.marker.r_law_delta.next = self.state.r_law_delta.val();
        self.marker.r_idx2.next = self.state.r_idx2.val();
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
