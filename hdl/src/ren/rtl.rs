//! RTL of the REN counters; the golden model is `model.rs`, the choices are in `mod.rs`.
//! Register addresses are the literals of [`super::csr`] (`hdl_gen` cannot read constants).

use crate::rtl_util::{AddSub, CsrStage, LateCounter};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `ren/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::MODE == 0 && csr::FLAGS == 1 && csr::MSS == 2 && csr::PERIOD == 3 && csr::MAX_LEN == 4
    && csr::STATE_CLEAR == 5 && csr::CNT_BASE == 16 && csr::REGISTERS[csr::idx::CNT_BASE].count == 7
);

/// The sampling period's clock count, kept as the clocks left: `left = PERIOD − 2 − cnt`
/// (two's complement). `boundary`, the period's last clock (`cnt + 1 ≥ PERIOD`, so a shortened
/// `PERIOD` ends the period at once), is its sign bit: a flip-flop, not a compare. After a
/// boundary, or at `restart` (`STATE_CLEAR`), the count restarts (`left = PERIOD − 2`); a valid
/// `PERIOD` write (`period_wr`) moves `left` by the difference, so the new length counts from the
/// next clock as in the model: `left + wdata − (PERIOD + 1)`, one carry chain (`AddSub`) with
/// `PERIOD + 1` kept as a register of its own (`period_p1`, written with `PERIOD`).
///
/// The block runs it a clock ahead of its decision (the README's *Latency*): in each clock it
/// makes the boundary of the clock after, from the pins of this one. So its reset state is the
/// model's after one clock (`cnt = 1`: `left = PERIOD − 3`).
#[derive(LogicBlock)]
pub struct PeriodTimer {
    pub clock: Signal<In, Clock>,
    pub period: Signal<In, Bits<32>>,
    pub period_wr: Signal<In, Bit>,
    pub wdata: Signal<In, Bits<32>>,
    pub restart: Signal<In, Bit>,
    pub boundary: Signal<Out, Bit>,
    left: DFFWithInit<Bits<34>>,
    period_p1: DFFWithInit<Bits<34>>,
    moved: AddSub<34>,
}

impl Default for PeriodTimer {
    fn default() -> Self {
        PeriodTimer {
            clock: Default::default(),
            period: Default::default(),
            period_wr: Default::default(),
            wdata: Default::default(),
            restart: Default::default(),
            boundary: Default::default(),
            left: DFFWithInit::new((super::DEFAULT_PERIOD - 3).into()),
            period_p1: DFFWithInit::new((super::DEFAULT_PERIOD + 1).into()),
            moved: Default::default(),
        }
    }
}

impl Logic for PeriodTimer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, left, period_p1);
        self.boundary.next = self.left.q.val().get_bit(33);
        self.left.d.next = self.left.q.val() - 1;
        // PERIOD' − 2 − (cnt + 1) = left + PERIOD' − (PERIOD + 1)
        self.moved.a.next = self.left.q.val();
        self.moved.b.next = bit_cast::<34, 32>(self.wdata.val());
        self.moved.sub.next = self.period_p1.q.val();
        self.moved.cin.next = false;
        if self.period_wr.val() {
            self.left.d.next = self.moved.out.val();
            self.period_p1.d.next = bit_cast::<34, 32>(self.wdata.val()) + 1;
        }
        if self.boundary.val() | self.restart.val() {
            self.left.d.next = bit_cast::<34, 32>(self.period.val()) - 2;
            if self.period_wr.val() {
                self.left.d.next = bit_cast::<34, 32>(self.wdata.val()) - 2;
            }
        }
    }
}

/// Idle bytes as a running quotient of whole MSS (`ti_run`, saturating at 65,535) and a residue
/// below MSS (REN §4 item 3: no divider). `idle_bytes` above MSS counts as MSS (`clamp`).
/// `inc` says the quotient steps this clock (`ti_total = ti_run + inc`) and `resid_zero` that the
/// residue is 0 after this clock's bytes; `restart` (the period boundary or `STATE_CLEAR`) starts
/// both at 0 at the edge. The residue with and without one MSS taken off, and the clamp, are
/// three carry chains side by side; the carry selects between them.
#[derive(LogicBlock, Default)]
pub struct IdleAccumulator {
    pub clock: Signal<In, Clock>,
    pub idle_bytes: Signal<In, Bits<8>>,
    pub mss: Signal<In, Bits<16>>,
    pub restart: Signal<In, Bit>,
    pub clamp: Signal<Out, Bit>,
    pub ti_run: Signal<Out, Bits<16>>,
    pub inc: Signal<Out, Bit>,
    pub resid_zero: Signal<Out, Bit>,
    ti_q: DFF<Bits<16>>,
    resid: DFF<Bits<16>>,
    /// `resid + idle`, and `resid + idle − MSS` (17-bit two's complement, one chain: `AddSub`).
    /// Without a clamp they fit: `idle ≤ MSS`.
    acc: Signal<Local, Bits<16>>,
    less_sum: AddSub<17>,
    less: Signal<Local, Bits<17>>,
    carry: Signal<Local, Bit>,
}

impl Logic for IdleAccumulator {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ti_q, resid);
        self.ti_run.next = self.ti_q.q.val();
        self.clamp.next = bit_cast::<16, 8>(self.idle_bytes.val()) > self.mss.val();
        self.acc.next = self.resid.q.val() + bit_cast::<16, 8>(self.idle_bytes.val());
        self.less_sum.a.next = bit_cast::<17, 16>(self.resid.q.val());
        self.less_sum.b.next = bit_cast::<17, 8>(self.idle_bytes.val());
        self.less_sum.sub.next = bit_cast::<17, 16>(self.mss.val());
        self.less_sum.cin.next = false;
        self.less.next = self.less_sum.out.val();
        // a clamped clock adds exactly MSS: one more quotient, the residue unchanged
        self.carry.next = self.clamp.val() | !self.less.val().get_bit(16);
        self.inc.next = self.carry.val() & !self.ti_q.q.val().all();
        self.resid.d.next = self.acc.val();
        self.resid_zero.next = !self.resid.q.val().any() & !self.idle_bytes.val().any();
        if !self.less.val().get_bit(16) {
            self.resid.d.next = self.less.val().get_bits::<16>(0);
            self.resid_zero.next = !self.less.val().any();
        }
        if self.clamp.val() {
            self.resid.d.next = self.resid.q.val();
            self.resid_zero.next = !self.resid.q.val().any();
        }
        self.ti_q.d.next = self.ti_q.q.val();
        if self.inc.val() {
            self.ti_q.d.next = self.ti_q.q.val() + 1;
        }
        if self.restart.val() {
            self.ti_q.d.next = 0.into();
            self.resid.d.next = 0.into();
        }
    }
}

/// The marks issued this period (saturating at 65,535) and, beside them, the two sums mode B
/// compares the queue with: `s_over = ti_run + over_iss` (over while `ql > s_over`) and
/// `d_under = ti_run − under_iss` (18-bit two's complement; under while `ql < d_under`). A mark
/// is added a clock late: the clock that takes it only registers it (`p_*`), so no chain of the
/// tallies hangs on the decision; the sums step by the quotient step `inc_ti` in its clock.
/// So the registers `s_over` and `d_under` are the sums less the pending mark (`+ p_over`,
/// `− p_under` make them whole: `ModeBAhead` and `BoundaryTerms` fold that into their
/// constants), and `over_iss`/`under_iss` are the whole counts. `step_*` are the marks that
/// count (a taken mark below saturation); `restart` zeroes everything, the pending marks too.
#[derive(LogicBlock, Default)]
pub struct MarkTallies {
    pub clock: Signal<In, Clock>,
    pub restart: Signal<In, Bit>,
    pub inc_ti: Signal<In, Bit>,
    pub take_over: Signal<In, Bit>,
    pub take_under: Signal<In, Bit>,
    pub over_iss: Signal<Out, Bits<16>>,
    pub under_iss: Signal<Out, Bits<16>>,
    pub s_over: Signal<Out, Bits<17>>,
    pub d_under: Signal<Out, Bits<18>>,
    /// The registers' values at the next clock.
    pub s_over_next: Signal<Out, Bits<17>>,
    pub d_under_next: Signal<Out, Bits<18>>,
    pub p_over: Signal<Out, Bit>,
    pub p_under: Signal<Out, Bit>,
    pub step_over: Signal<Out, Bit>,
    pub step_under: Signal<Out, Bit>,
    iss_over: DFF<Bits<16>>,
    iss_under: DFF<Bits<16>>,
    sum_over: DFF<Bits<17>>,
    diff_under: DFF<Bits<18>>,
    pend_over: DFF<Bit>,
    pend_under: DFF<Bit>,
    /// The whole counts are 65,535.
    full_over: Signal<Local, Bit>,
    full_under: Signal<Local, Bit>,
}

impl Logic for MarkTallies {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, iss_over, iss_under, sum_over, diff_under, pend_over, pend_under);
        self.s_over.next = self.sum_over.q.val();
        self.d_under.next = self.diff_under.q.val();
        self.p_over.next = self.pend_over.q.val();
        self.p_under.next = self.pend_under.q.val();
        self.over_iss.next = self.iss_over.q.val();
        self.full_over.next = self.iss_over.q.val().all();
        if self.pend_over.q.val() {
            self.over_iss.next = self.iss_over.q.val() + 1;
            self.full_over.next = self.iss_over.q.val() == 0xFFFE;
        }
        self.under_iss.next = self.iss_under.q.val();
        self.full_under.next = self.iss_under.q.val().all();
        if self.pend_under.q.val() {
            self.under_iss.next = self.iss_under.q.val() + 1;
            self.full_under.next = self.iss_under.q.val() == 0xFFFE;
        }
        self.step_over.next = self.take_over.val() & !self.full_over.val();
        self.step_under.next = self.take_under.val() & !self.full_under.val();
        self.pend_over.d.next = self.step_over.val();
        self.pend_under.d.next = self.step_under.val();
        // the last clock's marks, and this clock's quotient step
        self.iss_over.d.next = self.over_iss.val();
        self.iss_under.d.next = self.under_iss.val();
        self.s_over_next.next = self.sum_over.q.val();
        if self.inc_ti.val() ^ self.pend_over.q.val() {
            self.s_over_next.next = self.sum_over.q.val() + 1;
        }
        if self.inc_ti.val() & self.pend_over.q.val() {
            self.s_over_next.next = self.sum_over.q.val() + 2;
        }
        self.d_under_next.next = self.diff_under.q.val();
        if self.inc_ti.val() & !self.pend_under.q.val() {
            self.d_under_next.next = self.diff_under.q.val() + 1;
        }
        if !self.inc_ti.val() & self.pend_under.q.val() {
            self.d_under_next.next = self.diff_under.q.val() - 1;
        }
        if self.restart.val() {
            self.iss_over.d.next = 0.into();
            self.iss_under.d.next = 0.into();
            self.s_over_next.next = 0.into();
            self.d_under_next.next = 0.into();
            self.pend_over.d.next = false;
            self.pend_under.d.next = false;
        }
        self.sum_over.d.next = self.s_over_next.val();
        self.diff_under.d.next = self.d_under_next.val();
    }
}

/// REN's input stage (the README's *Latency*): every pin but `deq_valid` and `deq_ecn`, taken a
/// clock before the decision that reads it. The period timer and the idle accumulator run a
/// clock ahead on them: each clock makes the next clock's boundary and quotient step, with this
/// clock's `STATE_CLEAR` and the `MSS` and `PERIOD` in force at the next (their registers take a
/// write at its own edge, the decision's registers a clock later). The length check is made
/// here against the `MAX_LEN` in force at the next clock. Every output is a flip-flop.
#[derive(LogicBlock)]
pub struct RenInputStage {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub idle_bytes: Signal<In, Bits<8>>,
    pub q_pkts: Signal<In, Bits<20>>,
    pub deq_is_data: Signal<In, Bit>,
    pub deq_len: Signal<In, Bits<16>>,
    /// The last clock's: the period's last clock, the idle accumulator's outputs
    /// (`IdleAccumulator`), the length check (0 or above `MAX_LEN`), the data flag, `min(q, 65535)`.
    pub boundary: Signal<Out, Bit>,
    pub inc: Signal<Out, Bit>,
    pub resid_zero: Signal<Out, Bit>,
    pub clamp: Signal<Out, Bit>,
    pub ti_run: Signal<Out, Bits<16>>,
    /// `ti_run` at the next clock, and `ti_run > 0` (a flip-flop).
    pub ti_run_next: Signal<Out, Bits<16>>,
    pub ti_nz: Signal<Out, Bit>,
    pub bad: Signal<Out, Bit>,
    pub is_data: Signal<Out, Bit>,
    pub ql: Signal<Out, Bits<16>>,
    mss: DFFWithInit<Bits<16>>,
    period: DFFWithInit<Bits<32>>,
    max_len: DFFWithInit<Bits<16>>,
    timer: PeriodTimer,
    idle: IdleAccumulator,
    r_boundary: DFF<Bit>,
    r_inc: DFF<Bit>,
    r_resid_zero: DFF<Bit>,
    r_clamp: DFF<Bit>,
    r_ti_run: DFF<Bits<16>>,
    r_ti_nz: DFF<Bit>,
    /// The zero pins of reset are a malformed length.
    r_bad: DFFWithInit<Bit>,
    r_data: DFF<Bit>,
    r_ql: DFF<Bits<16>>,
    clear: Signal<Local, Bit>,
}

impl Default for RenInputStage {
    fn default() -> Self {
        RenInputStage {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            idle_bytes: Default::default(),
            q_pkts: Default::default(),
            deq_is_data: Default::default(),
            deq_len: Default::default(),
            boundary: Default::default(),
            inc: Default::default(),
            resid_zero: Default::default(),
            clamp: Default::default(),
            ti_run: Default::default(),
            ti_run_next: Default::default(),
            ti_nz: Default::default(),
            bad: Default::default(),
            is_data: Default::default(),
            ql: Default::default(),
            mss: DFFWithInit::new((super::DEFAULT_MSS).into()),
            period: DFFWithInit::new((super::DEFAULT_PERIOD).into()),
            max_len: DFFWithInit::new((super::DEFAULT_MAX_LEN).into()),
            timer: Default::default(),
            idle: Default::default(),
            r_boundary: Default::default(),
            r_inc: Default::default(),
            r_resid_zero: Default::default(),
            r_clamp: Default::default(),
            r_ti_run: Default::default(),
            r_ti_nz: Default::default(),
            r_bad: DFFWithInit::new(true),
            r_data: Default::default(),
            r_ql: Default::default(),
            clear: Default::default(),
        }
    }
}

impl Logic for RenInputStage {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, mss, period, max_len, r_boundary, r_inc, r_resid_zero, r_clamp, r_ti_run, r_ti_nz, r_bad, r_data, r_ql);
        clock!(self, clock, timer, idle);
        self.clear.next = self.csr_we.val() & (self.csr_addr.val() == 5);
        self.timer.period.next = self.period.q.val();
        self.timer.period_wr.next = self.csr_we.val() & (self.csr_addr.val() == 3) & self.csr_wdata.val().any();
        self.timer.wdata.next = self.csr_wdata.val();
        self.timer.restart.next = self.clear.val();
        self.idle.idle_bytes.next = self.idle_bytes.val();
        self.idle.mss.next = self.mss.q.val();
        self.idle.restart.next = self.timer.boundary.val() | self.clear.val();
        self.r_boundary.d.next = self.timer.boundary.val();
        self.r_inc.d.next = self.idle.inc.val();
        self.r_resid_zero.d.next = self.idle.resid_zero.val();
        self.r_clamp.d.next = self.idle.clamp.val();
        self.r_ti_run.d.next = self.idle.ti_run.val();
        self.ti_run_next.next = self.idle.ti_run.val();
        self.r_ti_nz.d.next = self.idle.ti_run.val().any();
        self.r_bad.d.next = !self.deq_len.val().any() | (self.deq_len.val() > self.max_len.q.val());
        self.r_data.d.next = self.deq_is_data.val();
        self.r_ql.d.next = self.q_pkts.val().get_bits::<16>(0);
        if self.q_pkts.val().get_bits::<4>(16).any() {
            self.r_ql.d.next = 0xFFFF.into();
        }
        // MSS, PERIOD and MAX_LEN writes (0 is rejected), in force at the next clock
        if self.csr_we.val() & (self.csr_addr.val() == 2) & self.csr_wdata.val().get_bits::<16>(0).any() {
            self.mss.d.next = self.csr_wdata.val().get_bits::<16>(0);
        }
        if self.csr_we.val() & (self.csr_addr.val() == 3) & self.csr_wdata.val().any() {
            self.period.d.next = self.csr_wdata.val();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 4) & self.csr_wdata.val().get_bits::<16>(0).any() {
            self.max_len.d.next = self.csr_wdata.val().get_bits::<16>(0);
        }
        self.boundary.next = self.r_boundary.q.val();
        self.inc.next = self.r_inc.q.val();
        self.resid_zero.next = self.r_resid_zero.q.val();
        self.clamp.next = self.r_clamp.q.val();
        self.ti_run.next = self.r_ti_run.q.val();
        self.ti_nz.next = self.r_ti_nz.q.val();
        self.bad.next = self.r_bad.q.val();
        self.is_data.next = self.r_data.q.val();
        self.ql.next = self.r_ql.q.val();
    }
}

/// Mode B's two compares a clock ahead of the decision that reads them (the README's
/// *Latency*). In the clock a descriptor's queue count `q` comes in, the sums it will be compared
/// with at the next are the registers `s_over` and `d_under` (`MarkTallies`) moved by the pending
/// marks (`p_*`), this clock's quotient step and this clock's marks: `s_over + k` (k = 0…3) and
/// `d_under + k` (k = −2…1). Each compare is made here for every k, one carry chain each; the
/// registers' part of k picks two of them, and this clock's mark picks the one registered
/// (`q > 0` and false after a `restart`). So the decision reads flip-flops: `b_over` is
/// `min(q, 65535) > s_over` and `b_under` is `q < d_under` for the whole sums at that clock.
#[derive(LogicBlock)]
pub struct ModeBAhead {
    pub clock: Signal<In, Clock>,
    pub q: Signal<In, Bits<20>>,
    pub s_over: Signal<In, Bits<17>>,
    pub d_under: Signal<In, Bits<18>>,
    /// The pending marks, this clock's quotient step and marks, and a restart (both sums to 0).
    pub p_over: Signal<In, Bit>,
    pub p_under: Signal<In, Bit>,
    pub inc: Signal<In, Bit>,
    pub step_over: Signal<In, Bit>,
    pub step_under: Signal<In, Bit>,
    pub restart: Signal<In, Bit>,
    pub b_over: Signal<Out, Bit>,
    pub b_under: Signal<Out, Bit>,
    r_over: DFF<Bit>,
    r_under: DFF<Bit>,
    /// `q − s_over − k − 1` (k = 0…3) and `d_under + k − 1 − q` (k = −2…1; 22-bit two's
    /// complement), whose sign says the compare is false.
    c_over: [AddSub<22>; 4],
    c_under: [AddSub<22>; 4],
    k_over: [Constant<Bits<22>>; 4],
    k_under: [Constant<Bits<22>>; 4],
    q22: Signal<Local, Bits<22>>,
    s22: Signal<Local, Bits<22>>,
    d22: Signal<Local, Bits<22>>,
    /// `s_over + k < 65535`: `min(q, 65535)` can be above it.
    below: [Signal<Local, Bit>; 4],
    s_top: Signal<Local, Bit>,
    over_k: [Signal<Local, Bit>; 4],
    under_k: [Signal<Local, Bit>; 4],
    /// The compares for this clock's mark absent (`[0]`) and present (`[1]`).
    pre_over: [Signal<Local, Bit>; 2],
    pre_under: [Signal<Local, Bit>; 2],
    /// The chains' bits below their signs, read by nothing (the lint's `unused` convention).
    unused_chains: Signal<Local, Bit>,
}

impl Default for ModeBAhead {
    fn default() -> Self {
        const M: u64 = (1 << 22) - 1;
        ModeBAhead {
            clock: Default::default(),
            q: Default::default(),
            s_over: Default::default(),
            d_under: Default::default(),
            p_over: Default::default(),
            p_under: Default::default(),
            inc: Default::default(),
            step_over: Default::default(),
            step_under: Default::default(),
            restart: Default::default(),
            b_over: Default::default(),
            b_under: Default::default(),
            r_over: Default::default(),
            r_under: Default::default(),
            c_over: Default::default(),
            c_under: Default::default(),
            // −(k + 1) for k = 0…3, and k − 1 for k = −2…1 (index k + 2)
            k_over: std::array::from_fn(|k| Constant::new((M - k as u64).into())),
            k_under: std::array::from_fn(|i| Constant::new(((i as u64 + M - 2) & M).into())),
            q22: Default::default(),
            s22: Default::default(),
            d22: Default::default(),
            below: Default::default(),
            s_top: Default::default(),
            over_k: Default::default(),
            under_k: Default::default(),
            pre_over: Default::default(),
            pre_under: Default::default(),
            unused_chains: Default::default(),
        }
    }
}

impl Logic for ModeBAhead {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_over, r_under);
        self.b_over.next = self.r_over.q.val();
        self.b_under.next = self.r_under.q.val();
        self.q22.next = bit_cast::<22, 20>(self.q.val());
        self.s22.next = bit_cast::<22, 17>(self.s_over.val());
        self.d22.next = bit_cast::<22, 18>(self.d_under.val());
        if self.d_under.val().get_bit(17) {
            self.d22.next = bit_cast::<22, 18>(self.d_under.val()) | Bits::<22>::from(0x3C_0000);
        }
        // s_over + k < 65535, k = 0…3: no chain, the top 15 bits and the low two
        self.s_top.next = self.s_over.val().get_bits::<14>(2).all();
        self.below[0].next = !self.s_over.val().get_bit(16) & !(self.s_top.val() & self.s_over.val().get_bits::<2>(0).all());
        self.below[1].next = !self.s_over.val().get_bit(16) & !(self.s_top.val() & self.s_over.val().get_bit(1));
        self.below[2].next = !self.s_over.val().get_bit(16) & !(self.s_top.val() & self.s_over.val().get_bits::<2>(0).any());
        self.below[3].next = !self.s_over.val().get_bit(16) & !self.s_top.val();
        self.unused_chains.next = false;
        for k in 0..4 {
            self.c_over[k].a.next = self.q22.val();
            self.c_over[k].b.next = self.k_over[k].val();
            self.c_over[k].sub.next = self.s22.val();
            self.c_over[k].cin.next = false;
            self.c_under[k].a.next = self.d22.val();
            self.c_under[k].b.next = self.k_under[k].val();
            self.c_under[k].sub.next = self.q22.val();
            self.c_under[k].cin.next = false;
            self.over_k[k].next = !self.c_over[k].out.val().get_bit(21) & self.below[k].val();
            self.under_k[k].next = !self.c_under[k].out.val().get_bit(21);
            self.unused_chains.next = self.unused_chains.val()
                | self.c_over[k].out.val().get_bits::<21>(0).any()
                | self.c_under[k].out.val().get_bits::<21>(0).any();
        }
        // over: k = p_over + inc (+ this clock's mark); under: k = inc − p_under (− its mark)
        self.pre_over[0].next = self.over_k[0].val();
        self.pre_over[1].next = self.over_k[1].val();
        if self.p_over.val() ^ self.inc.val() {
            self.pre_over[0].next = self.over_k[1].val();
            self.pre_over[1].next = self.over_k[2].val();
        }
        if self.p_over.val() & self.inc.val() {
            self.pre_over[0].next = self.over_k[2].val();
            self.pre_over[1].next = self.over_k[3].val();
        }
        self.pre_under[0].next = self.under_k[2].val();
        self.pre_under[1].next = self.under_k[1].val();
        if self.inc.val() & !self.p_under.val() {
            self.pre_under[0].next = self.under_k[3].val();
            self.pre_under[1].next = self.under_k[2].val();
        }
        if !self.inc.val() & self.p_under.val() {
            self.pre_under[0].next = self.under_k[1].val();
            self.pre_under[1].next = self.under_k[0].val();
        }
        self.r_over.d.next = self.pre_over[0].val();
        if self.step_over.val() {
            self.r_over.d.next = self.pre_over[1].val();
        }
        self.r_under.d.next = self.pre_under[0].val();
        if self.step_under.val() {
            self.r_under.d.next = self.pre_under[1].val();
        }
        if self.restart.val() {
            self.r_over.d.next = self.q.val().any();
            self.r_under.d.next = false;
        }
    }
}

/// The boundary clock's half of the budgets (`RenBudgets`). The budgets a boundary sets are
/// `wide − k`: the wide part `ql − X` (over) and `X' − ql` (under), with `X` and `X'` the
/// registers `s_over` and `d_under` (`MarkTallies`) in A_NET and `ti_run` otherwise, and the small
/// part `k = e + t_over` (over) and `k = t_under − e` (under), −1…3, where `e` is this clock's
/// quotient step less the `TI_STRICT` correction and `t` the marks the registers lack in A_NET:
/// the pending one (`p_*`) and this clock's. Every clock registers the wide parts (19-bit two's
/// complement: none wraps) and the rests `−k` and `−k − 1` (3-bit) for the next clock to add.
/// Beside them it tests the budgets to come, `≥ 1` and `≥ 2` (`ge1_*`, `ge2_*`): `wide − k ≥ c`
/// is `wide ≥ c + k`, one carry chain per threshold `m = c + k` (0…5) on the registers, picked
/// by the part of k known before the decision and then by its mark.
#[derive(LogicBlock)]
pub struct BoundaryTerms {
    pub clock: Signal<In, Clock>,
    pub strict: Signal<In, Bit>,
    pub ql: Signal<In, Bits<16>>,
    /// `ti_run > 0` (a flip-flop: `RenInputStage`), so `e` is one LUT on flip-flops.
    pub ti_nz: Signal<In, Bit>,
    pub inc_ti: Signal<In, Bit>,
    pub resid_zero: Signal<In, Bit>,
    /// The A_NET flag (`MODE` = 1), and `X` and `X'` (flip-flops: `RenBudgets`).
    pub anet: Signal<In, Bit>,
    pub x_over: Signal<In, Bits<19>>,
    pub x_under: Signal<In, Bits<19>>,
    pub p_over: Signal<In, Bit>,
    pub p_under: Signal<In, Bit>,
    pub step_over: Signal<In, Bit>,
    pub step_under: Signal<In, Bit>,
    /// The last clock's wide parts and rests.
    pub wide_over: Signal<Out, Bits<19>>,
    pub wide_under: Signal<Out, Bits<19>>,
    pub rest_over: Signal<Out, Bits<3>>,
    pub rest_over1: Signal<Out, Bits<3>>,
    pub rest_under: Signal<Out, Bits<3>>,
    pub rest_under1: Signal<Out, Bits<3>>,
    /// This clock's: the budgets a boundary now would set are ≥ 1, ≥ 2; and `e` (+1, −1).
    pub ge1_over: Signal<Out, Bit>,
    pub ge2_over: Signal<Out, Bit>,
    pub ge1_under: Signal<Out, Bit>,
    pub ge2_under: Signal<Out, Bit>,
    pub e_pos: Signal<Out, Bit>,
    pub e_neg: Signal<Out, Bit>,
    r_wide_over: DFF<Bits<19>>,
    r_wide_under: DFF<Bits<19>>,
    r_rest_over: DFF<Bits<3>>,
    r_rest_over1: DFF<Bits<3>>,
    r_rest_under: DFF<Bits<3>>,
    r_rest_under1: DFF<Bits<3>>,
    /// `wide − m` for m = 1…5, one chain each (`AddSub`, the constant `−m` as its `b`).
    ge_over: [AddSub<19>; 5],
    ge_under: [AddSub<19>; 5],
    minus_m: [Constant<Bits<19>>; 5],
    /// `wide ≥ m`, m = 0…5, and `wide ≥ 1 + k0 + j` (j = 0, 1, 2) for `k0`, the part of `k`
    /// known before the decision (`e` and the pending mark), `i_* = k0 + 1`; `−k0` is `n_*`.
    wge_over: [Signal<Local, Bit>; 6],
    wge_under: [Signal<Local, Bit>; 6],
    i_over: Signal<Local, Bits<2>>,
    i_under: Signal<Local, Bits<2>>,
    n_over: Signal<Local, Bits<3>>,
    n_under: Signal<Local, Bits<3>>,
    pick_over: [Signal<Local, Bit>; 3],
    pick_under: [Signal<Local, Bit>; 3],
    wide_over_now: Signal<Local, Bits<19>>,
    wide_under_now: Signal<Local, Bits<19>>,
    adj: Signal<Local, Bit>,
    tp_over: Signal<Local, Bit>,
    tp_under: Signal<Local, Bit>,
    t_over: Signal<Local, Bit>,
    t_under: Signal<Local, Bit>,
    /// The chains' bits below their signs, read by nothing (the lint's `unused` convention).
    unused_chains: Signal<Local, Bit>,
}

impl Default for BoundaryTerms {
    fn default() -> Self {
        BoundaryTerms {
            clock: Default::default(),
            strict: Default::default(),
            ql: Default::default(),
            ti_nz: Default::default(),
            inc_ti: Default::default(),
            resid_zero: Default::default(),
            anet: Default::default(),
            x_over: Default::default(),
            x_under: Default::default(),
            p_over: Default::default(),
            p_under: Default::default(),
            step_over: Default::default(),
            step_under: Default::default(),
            wide_over: Default::default(),
            wide_under: Default::default(),
            rest_over: Default::default(),
            rest_over1: Default::default(),
            rest_under: Default::default(),
            rest_under1: Default::default(),
            ge1_over: Default::default(),
            ge2_over: Default::default(),
            ge1_under: Default::default(),
            ge2_under: Default::default(),
            e_pos: Default::default(),
            e_neg: Default::default(),
            r_wide_over: Default::default(),
            r_wide_under: Default::default(),
            r_rest_over: Default::default(),
            r_rest_over1: Default::default(),
            r_rest_under: Default::default(),
            r_rest_under1: Default::default(),
            ge_over: Default::default(),
            ge_under: Default::default(),
            // −m for m = 1…5
            minus_m: std::array::from_fn(|m| Constant::new(((1u64 << 19) - 1 - m as u64).into())),
            wge_over: Default::default(),
            wge_under: Default::default(),
            i_over: Default::default(),
            i_under: Default::default(),
            n_over: Default::default(),
            n_under: Default::default(),
            pick_over: Default::default(),
            pick_under: Default::default(),
            wide_over_now: Default::default(),
            wide_under_now: Default::default(),
            adj: Default::default(),
            tp_over: Default::default(),
            tp_under: Default::default(),
            t_over: Default::default(),
            t_under: Default::default(),
            unused_chains: Default::default(),
        }
    }
}

impl Logic for BoundaryTerms {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_wide_over, r_wide_under, r_rest_over, r_rest_over1, r_rest_under, r_rest_under1);
        self.wide_over.next = self.r_wide_over.q.val();
        self.wide_under.next = self.r_wide_under.q.val();
        self.rest_over.next = self.r_rest_over.q.val();
        self.rest_over1.next = self.r_rest_over1.q.val();
        self.rest_under.next = self.r_rest_under.q.val();
        self.rest_under1.next = self.r_rest_under1.q.val();
        self.adj.next = self.strict.val() & self.resid_zero.val() & (self.inc_ti.val() | self.ti_nz.val());
        self.e_pos.next = self.inc_ti.val() & !self.adj.val();
        self.e_neg.next = self.adj.val() & !self.inc_ti.val();
        self.tp_over.next = self.anet.val() & self.p_over.val();
        self.tp_under.next = self.anet.val() & self.p_under.val();
        self.t_over.next = self.anet.val() & self.step_over.val();
        self.t_under.next = self.anet.val() & self.step_under.val();
        self.wide_over_now.next = bit_cast::<19, 16>(self.ql.val()) - self.x_over.val();
        self.wide_under_now.next = self.x_under.val() - bit_cast::<19, 16>(self.ql.val());
        self.r_wide_over.d.next = self.wide_over_now.val();
        self.r_wide_under.d.next = self.wide_under_now.val();
        // k's part known before the decision, k0 (over e + tp, under tp − e): −k0 and k0 + 1
        self.n_over.next = 0.into();
        self.i_over.next = 1.into();
        self.n_under.next = 0.into();
        self.i_under.next = 1.into();
        if self.e_pos.val() {
            self.n_over.next = 7.into();
            self.i_over.next = 2.into();
            self.n_under.next = 1.into();
            self.i_under.next = 0.into();
        }
        if self.e_neg.val() {
            self.n_over.next = 1.into();
            self.i_over.next = 0.into();
            self.n_under.next = 7.into();
            self.i_under.next = 2.into();
        }
        if self.tp_over.val() {
            self.n_over.next = self.n_over.val() - 1;
            self.i_over.next = self.i_over.val() + 1;
        }
        if self.tp_under.val() {
            self.n_under.next = self.n_under.val() - 1;
            self.i_under.next = self.i_under.val() + 1;
        }
        // the rests −k and −k − 1, this clock's mark taking one more
        self.r_rest_over.d.next = self.n_over.val();
        self.r_rest_over1.d.next = self.n_over.val() - 1;
        if self.t_over.val() {
            self.r_rest_over.d.next = self.n_over.val() - 1;
            self.r_rest_over1.d.next = self.n_over.val() - 2;
        }
        self.r_rest_under.d.next = self.n_under.val();
        self.r_rest_under1.d.next = self.n_under.val() - 1;
        if self.t_under.val() {
            self.r_rest_under.d.next = self.n_under.val() - 1;
            self.r_rest_under1.d.next = self.n_under.val() - 2;
        }
        // `wide ≥ m`: the wide part's sign (m = 0), and `wide − m` for m = 1…5
        self.unused_chains.next = false;
        for m in 0..5 {
            self.ge_over[m].a.next = bit_cast::<19, 16>(self.ql.val());
            self.ge_over[m].b.next = self.minus_m[m].val();
            self.ge_over[m].sub.next = self.x_over.val();
            self.ge_over[m].cin.next = false;
            self.ge_under[m].a.next = self.x_under.val();
            self.ge_under[m].b.next = self.minus_m[m].val();
            self.ge_under[m].sub.next = bit_cast::<19, 16>(self.ql.val());
            self.ge_under[m].cin.next = false;
            self.unused_chains.next = self.unused_chains.val()
                | self.ge_over[m].out.val().get_bits::<18>(0).any()
                | self.ge_under[m].out.val().get_bits::<18>(0).any();
        }
        self.wge_over[0].next = !self.wide_over_now.val().get_bit(18);
        self.wge_under[0].next = !self.wide_under_now.val().get_bit(18);
        self.wge_over[1].next = !self.ge_over[0].out.val().get_bit(18);
        self.wge_over[2].next = !self.ge_over[1].out.val().get_bit(18);
        self.wge_over[3].next = !self.ge_over[2].out.val().get_bit(18);
        self.wge_over[4].next = !self.ge_over[3].out.val().get_bit(18);
        self.wge_over[5].next = !self.ge_over[4].out.val().get_bit(18);
        self.wge_under[1].next = !self.ge_under[0].out.val().get_bit(18);
        self.wge_under[2].next = !self.ge_under[1].out.val().get_bit(18);
        self.wge_under[3].next = !self.ge_under[2].out.val().get_bit(18);
        self.wge_under[4].next = !self.ge_under[3].out.val().get_bit(18);
        self.wge_under[5].next = !self.ge_under[4].out.val().get_bit(18);
        // the budget `wide − k` is ≥ c when `wide ≥ c + k`: picked by k0, then by the mark
        self.pick_over[0].next = self.wge_over[0].val();
        self.pick_over[1].next = self.wge_over[1].val();
        self.pick_over[2].next = self.wge_over[2].val();
        match self.i_over.val().index() {
            1 => {
                self.pick_over[0].next = self.wge_over[1].val();
                self.pick_over[1].next = self.wge_over[2].val();
                self.pick_over[2].next = self.wge_over[3].val();
            }
            2 => {
                self.pick_over[0].next = self.wge_over[2].val();
                self.pick_over[1].next = self.wge_over[3].val();
                self.pick_over[2].next = self.wge_over[4].val();
            }
            3 => {
                self.pick_over[0].next = self.wge_over[3].val();
                self.pick_over[1].next = self.wge_over[4].val();
                self.pick_over[2].next = self.wge_over[5].val();
            }
            _ => {}
        }
        self.pick_under[0].next = self.wge_under[0].val();
        self.pick_under[1].next = self.wge_under[1].val();
        self.pick_under[2].next = self.wge_under[2].val();
        match self.i_under.val().index() {
            1 => {
                self.pick_under[0].next = self.wge_under[1].val();
                self.pick_under[1].next = self.wge_under[2].val();
                self.pick_under[2].next = self.wge_under[3].val();
            }
            2 => {
                self.pick_under[0].next = self.wge_under[2].val();
                self.pick_under[1].next = self.wge_under[3].val();
                self.pick_under[2].next = self.wge_under[4].val();
            }
            3 => {
                self.pick_under[0].next = self.wge_under[3].val();
                self.pick_under[1].next = self.wge_under[4].val();
                self.pick_under[2].next = self.wge_under[5].val();
            }
            _ => {}
        }
        self.ge1_over.next = self.pick_over[0].val();
        self.ge2_over.next = self.pick_over[1].val();
        if self.t_over.val() {
            self.ge1_over.next = self.pick_over[1].val();
            self.ge2_over.next = self.pick_over[2].val();
        }
        self.ge1_under.next = self.pick_under[0].val();
        self.ge2_under.next = self.pick_under[1].val();
        if self.t_under.val() {
            self.ge1_under.next = self.pick_under[1].val();
            self.ge2_under.next = self.pick_under[2].val();
        }
    }
}

/// The over/under budgets and the values latched at the last boundary.
///
/// At a `boundary` the budgets are `over = max(ql − ti − Io, 0)` and `under = max(ti − ql − Iu,
/// 0)`, with `ti = ti_run + e` (`e` = this clock's quotient step less the `TI_STRICT` correction)
/// and `Io`/`Iu` the marks of the same kind issued this period, this clock's included, in mode 1
/// (A_NET) and 0 otherwise. The boundary clock (`BoundaryTerms`) registers only the wide part
/// and the small rest apart; the next clock adds the two (one carry chain) while it marks
/// (`pend`), and stores the result with that clock's spend. So the budgets take the value and
/// the effect the model gives them at the boundary's next clock; only their arithmetic is split
/// over the two clocks. Otherwise a spend (`dec_*`, modes A and A_NET) takes one.
///
/// The decision reads the budgets' nonzero tests (`nz_*`) from flip-flops: a boundary sets them
/// from `BoundaryTerms`' tests of the budgets to come, and a spend makes them the test `≥ 2` of
/// the budget it spends (its register's bits, or in the clock after a boundary the sum's test
/// registered with it). `clear` (`STATE_CLEAR`) zeroes everything and wins.
#[derive(LogicBlock)]
pub struct RenBudgets {
    pub clock: Signal<In, Clock>,
    pub boundary: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub strict: Signal<In, Bit>,
    pub ql: Signal<In, Bits<16>>,
    pub ti_run: Signal<In, Bits<16>>,
    pub ti_nz: Signal<In, Bit>,
    pub inc_ti: Signal<In, Bit>,
    pub resid_zero: Signal<In, Bit>,
    /// `BoundaryTerms`' next values of the A_NET flag, `ti_run` and the tallies' registers.
    pub anet_next: Signal<In, Bit>,
    pub ti_run_next: Signal<In, Bits<16>>,
    pub s_over_next: Signal<In, Bits<17>>,
    pub d_under_next: Signal<In, Bits<18>>,
    pub p_over: Signal<In, Bit>,
    pub p_under: Signal<In, Bit>,
    pub step_over: Signal<In, Bit>,
    pub step_under: Signal<In, Bit>,
    pub dec_over: Signal<In, Bit>,
    pub dec_under: Signal<In, Bit>,
    pub over: Signal<Out, Bits<16>>,
    pub under: Signal<Out, Bits<16>>,
    /// `over > 0` and `under > 0`: flip-flops.
    pub nz_over: Signal<Out, Bit>,
    pub nz_under: Signal<Out, Bit>,
    pub ql_s: Signal<Out, Bits<16>>,
    pub ti_s: Signal<Out, Bits<16>>,
    terms: BoundaryTerms,
    /// `BoundaryTerms`' `X` and `X'` (`s_over` and `d_under` in A_NET, else `ti_run`) and the
    /// A_NET flag, registered from their next values so that its chains start at flip-flops.
    x_over: DFF<Bits<19>>,
    x_under: DFF<Bits<19>>,
    anet: DFFWithInit<Bit>,
    bud_over: DFF<Bits<16>>,
    bud_under: DFF<Bits<16>>,
    lat_ql: DFF<Bits<16>>,
    lat_ti: DFF<Bits<16>>,
    /// The boundary's budgets are still the sums below (the clock after a boundary).
    pend: DFF<Bit>,
    /// The nonzero tests, and in the clock after a boundary the sums' tests `≥ 2`.
    g_over: DFF<Bit>,
    g_under: DFF<Bit>,
    h_over: DFF<Bit>,
    h_under: DFF<Bit>,
    /// The rests sign-extended, and the sums `wide + rest` and `wide + rest − 1`.
    ext_over: Signal<Local, Bits<19>>,
    ext_over1: Signal<Local, Bits<19>>,
    ext_under: Signal<Local, Bits<19>>,
    ext_under1: Signal<Local, Bits<19>>,
    sum_over: Signal<Local, Bits<19>>,
    sum_over1: Signal<Local, Bits<19>>,
    sum_under: Signal<Local, Bits<19>>,
    sum_under1: Signal<Local, Bits<19>>,
    /// The sums' bits above the value, read by nothing but the budget's clamp (the lint's
    /// `unused` convention): the sign is bit 18 so that no sum wraps.
    unused_sums: Signal<Local, Bit>,
}

impl Default for RenBudgets {
    fn default() -> Self {
        RenBudgets {
            clock: Default::default(),
            boundary: Default::default(),
            clear: Default::default(),
            strict: Default::default(),
            ql: Default::default(),
            ti_run: Default::default(),
            ti_nz: Default::default(),
            inc_ti: Default::default(),
            resid_zero: Default::default(),
            anet_next: Default::default(),
            ti_run_next: Default::default(),
            s_over_next: Default::default(),
            d_under_next: Default::default(),
            p_over: Default::default(),
            p_under: Default::default(),
            step_over: Default::default(),
            step_under: Default::default(),
            dec_over: Default::default(),
            dec_under: Default::default(),
            over: Default::default(),
            under: Default::default(),
            nz_over: Default::default(),
            nz_under: Default::default(),
            ql_s: Default::default(),
            ti_s: Default::default(),
            terms: Default::default(),
            x_over: Default::default(),
            x_under: Default::default(),
            // MODE resets to 1 (A_NET)
            anet: DFFWithInit::new(true),
            bud_over: Default::default(),
            bud_under: Default::default(),
            lat_ql: Default::default(),
            lat_ti: Default::default(),
            pend: Default::default(),
            g_over: Default::default(),
            g_under: Default::default(),
            h_over: Default::default(),
            h_under: Default::default(),
            ext_over: Default::default(),
            ext_over1: Default::default(),
            ext_under: Default::default(),
            ext_under1: Default::default(),
            sum_over: Default::default(),
            sum_over1: Default::default(),
            sum_under: Default::default(),
            sum_under1: Default::default(),
            unused_sums: Default::default(),
        }
    }
}

impl Logic for RenBudgets {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, x_over, x_under, anet, bud_over, bud_under, lat_ql, lat_ti, pend, g_over, g_under, h_over, h_under);
        clock!(self, clock, terms);
        self.ql_s.next = self.lat_ql.q.val();
        self.ti_s.next = self.lat_ti.q.val();
        self.terms.strict.next = self.strict.val();
        self.terms.ql.next = self.ql.val();
        self.terms.ti_nz.next = self.ti_nz.val();
        self.terms.inc_ti.next = self.inc_ti.val();
        self.terms.resid_zero.next = self.resid_zero.val();
        self.terms.anet.next = self.anet.q.val();
        self.terms.x_over.next = self.x_over.q.val();
        self.terms.x_under.next = self.x_under.q.val();
        self.anet.d.next = self.anet_next.val();
        self.x_over.d.next = bit_cast::<19, 16>(self.ti_run_next.val());
        self.x_under.d.next = bit_cast::<19, 16>(self.ti_run_next.val());
        if self.anet_next.val() {
            self.x_over.d.next = bit_cast::<19, 17>(self.s_over_next.val());
            self.x_under.d.next = bit_cast::<19, 18>(self.d_under_next.val());
            if self.d_under_next.val().get_bit(17) {
                self.x_under.d.next = bit_cast::<19, 18>(self.d_under_next.val()) | Bits::<19>::from(0x40000);
            }
        }
        self.terms.p_over.next = self.p_over.val();
        self.terms.p_under.next = self.p_under.val();
        self.terms.step_over.next = self.step_over.val();
        self.terms.step_under.next = self.step_under.val();

        // --- the clock after a boundary: the budgets are the sums (sign-extended rests)
        self.ext_over.next = bit_cast::<19, 3>(self.terms.rest_over.val());
        if self.terms.rest_over.val().get_bit(2) {
            self.ext_over.next = bit_cast::<19, 3>(self.terms.rest_over.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.ext_over1.next = bit_cast::<19, 3>(self.terms.rest_over1.val());
        if self.terms.rest_over1.val().get_bit(2) {
            self.ext_over1.next = bit_cast::<19, 3>(self.terms.rest_over1.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.ext_under.next = bit_cast::<19, 3>(self.terms.rest_under.val());
        if self.terms.rest_under.val().get_bit(2) {
            self.ext_under.next = bit_cast::<19, 3>(self.terms.rest_under.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.ext_under1.next = bit_cast::<19, 3>(self.terms.rest_under1.val());
        if self.terms.rest_under1.val().get_bit(2) {
            self.ext_under1.next = bit_cast::<19, 3>(self.terms.rest_under1.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.sum_over.next = self.terms.wide_over.val() + self.ext_over.val();
        self.sum_over1.next = self.terms.wide_over.val() + self.ext_over1.val();
        self.sum_under.next = self.terms.wide_under.val() + self.ext_under.val();
        self.sum_under1.next = self.terms.wide_under.val() + self.ext_under1.val();
        self.unused_sums.next = self.sum_over.val().get_bits::<2>(16).any()
            | self.sum_over1.val().get_bits::<3>(16).any()
            | self.sum_under.val().get_bits::<2>(16).any()
            | self.sum_under1.val().get_bits::<3>(16).any();

        self.over.next = self.bud_over.q.val();
        self.under.next = self.bud_under.q.val();
        self.nz_over.next = self.g_over.q.val();
        self.nz_under.next = self.g_under.q.val();
        if self.pend.q.val() {
            self.over.next = 0.into();
            if !self.sum_over.val().get_bit(18) {
                self.over.next = self.sum_over.val().get_bits::<16>(0);
            }
            self.under.next = 0.into();
            if !self.sum_under.val().get_bit(18) {
                self.under.next = self.sum_under.val().get_bits::<16>(0);
            }
        }

        // --- the budgets' registers: a spend takes one (from the sum while pending), and
        // leaves a nonzero budget if it spent one of at least 2
        self.bud_over.d.next = self.over.val();
        if self.dec_over.val() {
            self.bud_over.d.next = self.bud_over.q.val() - 1;
            self.g_over.d.next = self.bud_over.q.val().get_bits::<15>(1).any();
            if self.pend.q.val() {
                self.bud_over.d.next = self.sum_over1.val().get_bits::<16>(0);
                self.g_over.d.next = self.h_over.q.val();
            }
        }
        self.bud_under.d.next = self.under.val();
        if self.dec_under.val() {
            self.bud_under.d.next = self.bud_under.q.val() - 1;
            self.g_under.d.next = self.bud_under.q.val().get_bits::<15>(1).any();
            if self.pend.q.val() {
                self.bud_under.d.next = self.sum_under1.val().get_bits::<16>(0);
                self.g_under.d.next = self.h_under.q.val();
            }
        }
        self.pend.d.next = false;
        if self.boundary.val() {
            self.bud_over.d.next = 0.into();
            self.bud_under.d.next = 0.into();
            self.g_over.d.next = self.terms.ge1_over.val();
            self.h_over.d.next = self.terms.ge2_over.val();
            self.g_under.d.next = self.terms.ge1_under.val();
            self.h_under.d.next = self.terms.ge2_under.val();
            self.pend.d.next = true;
            self.lat_ql.d.next = self.ql.val();
            self.lat_ti.d.next = self.ti_run.val();
            if self.terms.e_pos.val() {
                self.lat_ti.d.next = self.ti_run.val() + 1;
            }
            if self.terms.e_neg.val() {
                self.lat_ti.d.next = self.ti_run.val() - 1;
            }
        }
        if self.clear.val() {
            self.bud_over.d.next = 0.into();
            self.bud_under.d.next = 0.into();
            self.g_over.d.next = false;
            self.g_under.d.next = false;
            self.pend.d.next = false;
            self.lat_ql.d.next = 0.into();
            self.lat_ti.d.next = 0.into();
        }
    }
}

#[derive(LogicBlock)]
pub struct RenCounters {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub idle_bytes: Signal<In, Bits<8>>,
    pub q_pkts: Signal<In, Bits<20>>,
    pub deq_valid: Signal<In, Bit>,
    pub deq_is_data: Signal<In, Bit>,
    pub deq_ecn: Signal<In, Bits<2>>,
    pub deq_len: Signal<In, Bits<16>>,
    pub ecn_out: Signal<Out, Bits<2>>,
    pub ecn_changed: Signal<Out, Bit>,
    pub drop: Signal<Out, Bit>,
    pub period_tick: Signal<Out, Bit>,
    pub ql_s: Signal<Out, Bits<16>>,
    pub ti_s: Signal<Out, Bits<16>>,
    pub over: Signal<Out, Bits<16>>,
    pub under: Signal<Out, Bits<16>>,
    pub over_iss: Signal<Out, Bits<16>>,
    pub under_iss: Signal<Out, Bits<16>>,
    pub cnt_over: Signal<Out, Bits<32>>,
    pub cnt_under: Signal<Out, Bits<32>>,
    pub cnt_full: Signal<Out, Bits<32>>,
    pub cnt_pass: Signal<Out, Bits<32>>,
    pub cnt_malformed: Signal<Out, Bits<32>>,
    pub cnt_idle_clamped: Signal<Out, Bits<32>>,
    pub cnt_csr_rejected: Signal<Out, Bits<32>>,
    // configuration the decision reads (reset values: mod.rs), written from `stage` a clock
    // after the input stage's registers, as the counter presets and `STATE_CLEAR` are
    mode: DFFWithInit<Bits<2>>,
    flags: DFFWithInit<Bits<2>>,
    /// The register write, checked in its clock, applied to the decision's side a clock later.
    stage: CsrStage<8>,
    in_stage: RenInputStage,
    mode_b: ModeBAhead,
    // the decision's period state
    tallies: MarkTallies,
    budgets: RenBudgets,
    c_over: LateCounter,
    c_under: LateCounter,
    c_full: LateCounter,
    c_pass: LateCounter,
    c_malformed: LateCounter,
    c_clamped: LateCounter,
    c_rejected: LateCounter,
    // wires
    malformed: Signal<Local, Bit>,
    marks: Signal<Local, Bit>,
    loc_over: Signal<Local, Bit>,
    loc_under: Signal<Local, Bit>,
    loc_code: Signal<Local, Bits<2>>,
    take_over: Signal<Local, Bit>,
    take_under: Signal<Local, Bit>,
    restart: Signal<Local, Bit>,
    clear: Signal<Local, Bit>,
    csr_ok: Signal<Local, Bit>,
    /// The staged write (`stage`'s outputs).
    w_we: Signal<Local, Bit>,
    w_addr: Signal<Local, Bits<8>>,
    w_data: Signal<Local, Bits<32>>,
}

impl Default for RenCounters {
    fn default() -> Self {
        RenCounters {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            idle_bytes: Default::default(),
            q_pkts: Default::default(),
            deq_valid: Default::default(),
            deq_is_data: Default::default(),
            deq_ecn: Default::default(),
            deq_len: Default::default(),
            ecn_out: Default::default(),
            ecn_changed: Default::default(),
            drop: Default::default(),
            period_tick: Default::default(),
            ql_s: Default::default(),
            ti_s: Default::default(),
            over: Default::default(),
            under: Default::default(),
            over_iss: Default::default(),
            under_iss: Default::default(),
            cnt_over: Default::default(),
            cnt_under: Default::default(),
            cnt_full: Default::default(),
            cnt_pass: Default::default(),
            cnt_malformed: Default::default(),
            cnt_idle_clamped: Default::default(),
            cnt_csr_rejected: Default::default(),
            mode: DFFWithInit::new(1.into()),
            flags: DFFWithInit::new((super::DEFAULT_FLAGS).into()),
            stage: Default::default(),
            in_stage: Default::default(),
            mode_b: Default::default(),
            tallies: Default::default(),
            budgets: Default::default(),
            c_over: Default::default(),
            c_under: Default::default(),
            c_full: Default::default(),
            c_pass: Default::default(),
            c_malformed: Default::default(),
            c_clamped: Default::default(),
            c_rejected: Default::default(),
            malformed: Default::default(),
            marks: Default::default(),
            loc_over: Default::default(),
            loc_under: Default::default(),
            loc_code: Default::default(),
            take_over: Default::default(),
            take_under: Default::default(),
            restart: Default::default(),
            clear: Default::default(),
            csr_ok: Default::default(),
            w_we: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
        }
    }
}

impl Logic for RenCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, mode, flags);
        clock!(self, clock, stage, in_stage, mode_b, tallies, budgets, c_over, c_under, c_full, c_pass, c_malformed, c_clamped, c_rejected);
        self.in_stage.csr_we.next = self.csr_we.val();
        self.in_stage.csr_addr.next = self.csr_addr.val();
        self.in_stage.csr_wdata.next = self.csr_wdata.val();
        self.in_stage.idle_bytes.next = self.idle_bytes.val();
        self.in_stage.q_pkts.next = self.q_pkts.val();
        self.in_stage.deq_is_data.next = self.deq_is_data.val();
        self.in_stage.deq_len.next = self.deq_len.val();

        // --- the decision's clock: the input stage's registers, this clock's `deq_valid` and `deq_ecn`,
        // and the write staged last clock. STATE_CLEAR restarts the period with every budget,
        // latch and accumulator at 0.
        self.w_we.next = self.stage.q_we.val();
        self.w_addr.next = self.stage.q_addr.val();
        self.w_data.next = self.stage.q_wdata.val();
        self.clear.next = self.w_we.val() & (self.w_addr.val() == 5);
        self.period_tick.next = self.in_stage.boundary.val();
        self.restart.next = self.in_stage.boundary.val() | self.clear.val();
        self.ql_s.next = self.budgets.ql_s.val();
        self.ti_s.next = self.budgets.ti_s.val();
        self.over.next = self.budgets.over.val();
        self.under.next = self.budgets.under.val();
        self.over_iss.next = self.tallies.over_iss.val();
        self.under_iss.next = self.tallies.under_iss.val();
        // mode B's compares for the next clock's sums, on this clock's queue count
        self.mode_b.q.next = self.q_pkts.val();
        self.mode_b.s_over.next = self.tallies.s_over.val();
        self.mode_b.d_under.next = self.tallies.d_under.val();
        self.mode_b.p_over.next = self.tallies.p_over.val();
        self.mode_b.p_under.next = self.tallies.p_under.val();
        self.mode_b.inc.next = self.in_stage.inc.val();
        self.mode_b.step_over.next = self.tallies.step_over.val();
        self.mode_b.step_under.next = self.tallies.step_under.val();
        self.mode_b.restart.next = self.restart.val();

        // --- marking from the registers at the start of the clock
        self.malformed.next = self.deq_valid.val() & self.in_stage.bad.val();
        self.marks.next = self.deq_valid.val() & !self.in_stage.bad.val() & self.in_stage.is_data.val() & (self.deq_ecn.val() != 3);
        // mode 2 (B): min(q, 65535) > s_over, else q < d_under (`ModeBAhead`)
        if self.mode.q.val() == 2 {
            self.loc_over.next = self.mode_b.b_over.val();
            self.loc_under.next = !self.mode_b.b_over.val() & self.mode_b.b_under.val();
        } else {
            self.loc_over.next = self.budgets.nz_over.val();
            self.loc_under.next = !self.budgets.nz_over.val() & self.budgets.nz_under.val();
        }
        self.loc_code.next = 1.into();
        if self.loc_over.val() {
            self.loc_code.next = 2.into();
        }
        if self.loc_under.val() {
            self.loc_code.next = 0.into();
        }
        self.take_over.next =
            self.marks.val() & self.loc_over.val() & (self.flags.q.val().get_bit(1) | (self.deq_ecn.val() < 2));
        self.take_under.next =
            self.marks.val() & self.loc_under.val() & (self.flags.q.val().get_bit(1) | !self.deq_ecn.val().any());
        self.ecn_out.next = self.deq_ecn.val();
        if self.marks.val() & (self.loc_code.val() > self.deq_ecn.val()) {
            self.ecn_out.next = self.loc_code.val();
        }
        self.ecn_changed.next = self.marks.val() & (self.loc_code.val() > self.deq_ecn.val());
        self.drop.next = self.malformed.val();

        // --- marks issued, and the budgets: loaded at the boundary, spent by the marks
        self.tallies.restart.next = self.restart.val();
        self.tallies.inc_ti.next = self.in_stage.inc.val();
        self.tallies.take_over.next = self.take_over.val();
        self.tallies.take_under.next = self.take_under.val();
        self.budgets.boundary.next = self.in_stage.boundary.val();
        self.budgets.clear.next = self.clear.val();
        self.budgets.strict.next = self.flags.q.val().get_bit(0);
        self.budgets.ql.next = self.in_stage.ql.val();
        self.budgets.ti_run.next = self.in_stage.ti_run.val();
        self.budgets.ti_nz.next = self.in_stage.ti_nz.val();
        self.budgets.inc_ti.next = self.in_stage.inc.val();
        self.budgets.resid_zero.next = self.in_stage.resid_zero.val();
        self.budgets.ti_run_next.next = self.in_stage.ti_run_next.val();
        self.budgets.s_over_next.next = self.tallies.s_over_next.val();
        self.budgets.d_under_next.next = self.tallies.d_under_next.val();
        self.budgets.p_over.next = self.tallies.p_over.val();
        self.budgets.p_under.next = self.tallies.p_under.val();
        self.budgets.step_over.next = self.tallies.step_over.val();
        self.budgets.step_under.next = self.tallies.step_under.val();
        self.budgets.dec_over.next = self.take_over.val() & (self.mode.q.val() != 2);
        self.budgets.dec_under.next = self.take_under.val() & (self.mode.q.val() != 2);

        // --- counters: every dequeue lands in exactly one
        self.c_over.inc.next = self.marks.val() & self.loc_over.val();
        self.c_under.inc.next = self.marks.val() & self.loc_under.val();
        self.c_full.inc.next = self.marks.val() & !self.loc_over.val() & !self.loc_under.val();
        self.c_pass.inc.next = self.deq_valid.val() & !self.in_stage.bad.val() & !self.marks.val();
        self.c_malformed.inc.next = self.malformed.val();
        self.c_clamped.inc.next = self.in_stage.clamp.val();

        // --- register writes, checked in their clock (range checks test the high bits: a 32-bit
        // compare with a constant is a carry chain in yosys; the input stage takes its own at
        // this edge), applied to the decision's side from the stage at the next, winning over
        // the above
        self.csr_ok.next = (self.csr_addr.val() >= 16) & (self.csr_addr.val() < 23);
        match self.csr_addr.val().index() {
            0 => self.csr_ok.next = !self.csr_wdata.val().get_bits::<30>(2).any() & !(self.csr_wdata.val().get_bit(1) & self.csr_wdata.val().get_bit(0)),
            1 => self.csr_ok.next = true,
            2 => self.csr_ok.next = self.csr_wdata.val().get_bits::<16>(0).any(),
            3 => self.csr_ok.next = self.csr_wdata.val().any(),
            4 => self.csr_ok.next = self.csr_wdata.val().get_bits::<16>(0).any(),
            5 => self.csr_ok.next = true,
            _ => {}
        }
        self.stage.we.next = self.csr_we.val();
        self.stage.addr.next = self.csr_addr.val();
        self.stage.wdata.next = self.csr_wdata.val();
        self.stage.ok.next = self.csr_ok.val();
        self.c_rejected.inc.next = self.w_we.val() & !self.stage.q_ok.val();
        self.c_over.load.next = self.w_we.val() & (self.w_addr.val() == 16);
        self.c_under.load.next = self.w_we.val() & (self.w_addr.val() == 17);
        self.c_full.load.next = self.w_we.val() & (self.w_addr.val() == 18);
        self.c_pass.load.next = self.w_we.val() & (self.w_addr.val() == 19);
        self.c_malformed.load.next = self.w_we.val() & (self.w_addr.val() == 20);
        self.c_clamped.load.next = self.w_we.val() & (self.w_addr.val() == 21);
        self.c_rejected.load.next = self.w_we.val() & (self.w_addr.val() == 22);
        self.c_over.load_val.next = self.w_data.val();
        self.c_under.load_val.next = self.w_data.val();
        self.c_full.load_val.next = self.w_data.val();
        self.c_pass.load_val.next = self.w_data.val();
        self.c_malformed.load_val.next = self.w_data.val();
        self.c_clamped.load_val.next = self.w_data.val();
        self.c_rejected.load_val.next = self.w_data.val();
        // the next clock's A_NET flag (`BoundaryTerms` registers it)
        self.budgets.anet_next.next = self.mode.q.val() == 1;
        if self.w_we.val() & self.stage.q_ok.val() & (self.w_addr.val() == 0) {
            self.budgets.anet_next.next = self.w_data.val().get_bits::<2>(0) == 1;
        }
        if self.w_we.val() & self.stage.q_ok.val() {
            match self.w_addr.val().index() {
                0 => self.mode.d.next = self.w_data.val().get_bits::<2>(0),
                1 => self.flags.d.next = self.w_data.val().get_bits::<2>(0),
                _ => {}
            }
        }
        self.cnt_over.next = self.c_over.value.val();
        self.cnt_under.next = self.c_under.value.val();
        self.cnt_full.next = self.c_full.value.val();
        self.cnt_pass.next = self.c_pass.value.val();
        self.cnt_malformed.next = self.c_malformed.value.val();
        self.cnt_idle_clamped.next = self.c_clamped.value.val();
        self.cnt_csr_rejected.next = self.c_rejected.value.val();
    }
}

crate::pin_io!(RenCounters;
    in: csr_we, csr_addr, csr_wdata, idle_bytes, q_pkts, deq_valid, deq_is_data, deq_ecn, deq_len;
    out: ecn_out, ecn_changed, drop, period_tick, ql_s, ti_s, over, under, over_iss, under_iss,
        cnt_over, cnt_under, cnt_full, cnt_pass, cnt_malformed, cnt_idle_clamped, cnt_csr_rejected);
