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
/// next clock as in the model.
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
        }
    }
}

impl Logic for PeriodTimer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, left);
        self.boundary.next = self.left.q.val().get_bit(33);
        self.left.d.next = self.left.q.val() - 1;
        if self.period_wr.val() {
            // PERIOD' − 2 − (cnt + 1) = left + PERIOD' − PERIOD − 1
            self.left.d.next = self.left.q.val() + bit_cast::<34, 32>(self.wdata.val())
                - bit_cast::<34, 32>(self.period.val())
                - 1;
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
    /// `resid + idle`, and `resid + idle − MSS` (17-bit two's complement) and the same less one,
    /// whose sign says the one before is 0. Without a clamp they fit: `idle ≤ MSS`.
    acc: Signal<Local, Bits<16>>,
    less: Signal<Local, Bits<17>>,
    less1: Signal<Local, Bits<17>>,
    carry: Signal<Local, Bit>,
    /// The bits of `less1` below its sign, read by nothing (the lint's `unused` convention).
    unused_less1: Signal<Local, Bit>,
}

impl Logic for IdleAccumulator {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ti_q, resid);
        self.ti_run.next = self.ti_q.q.val();
        self.clamp.next = bit_cast::<16, 8>(self.idle_bytes.val()) > self.mss.val();
        self.acc.next = self.resid.q.val() + bit_cast::<16, 8>(self.idle_bytes.val());
        self.less.next = bit_cast::<17, 16>(self.resid.q.val()) + bit_cast::<17, 8>(self.idle_bytes.val())
            - bit_cast::<17, 16>(self.mss.val());
        self.less1.next = bit_cast::<17, 16>(self.resid.q.val()) + bit_cast::<17, 8>(self.idle_bytes.val())
            - bit_cast::<17, 16>(self.mss.val())
            - 1;
        self.unused_less1.next = self.less1.val().get_bits::<16>(0).any();
        // a clamped clock adds exactly MSS: one more quotient, the residue unchanged
        self.carry.next = self.clamp.val() | !self.less.val().get_bit(16);
        self.inc.next = self.carry.val() & !self.ti_q.q.val().all();
        self.resid.d.next = self.acc.val();
        self.resid_zero.next = !self.resid.q.val().any() & !self.idle_bytes.val().any();
        if !self.less.val().get_bit(16) {
            self.resid.d.next = self.less.val().get_bits::<16>(0);
            self.resid_zero.next = self.less1.val().get_bit(16);
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
/// compares the queue with, kept as registers so its decision is one compare:
/// `s_over = ti_run + over_iss` (over while `ql > s_over`) and `d_under = ti_run − under_iss`
/// (18-bit two's complement; under while `ql < d_under`). Each sum steps by this clock's quotient
/// step `inc_ti` and mark; `restart` zeroes all four. `step_over`/`step_under` are the marks that
/// count (a taken mark below saturation).
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
    pub step_over: Signal<Out, Bit>,
    pub step_under: Signal<Out, Bit>,
    iss_over: DFF<Bits<16>>,
    iss_under: DFF<Bits<16>>,
    sum_over: DFF<Bits<17>>,
    diff_under: DFF<Bits<18>>,
}

impl Logic for MarkTallies {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, iss_over, iss_under, sum_over, diff_under);
        self.over_iss.next = self.iss_over.q.val();
        self.under_iss.next = self.iss_under.q.val();
        self.s_over.next = self.sum_over.q.val();
        self.d_under.next = self.diff_under.q.val();
        self.step_over.next = self.take_over.val() & !self.iss_over.q.val().all();
        self.step_under.next = self.take_under.val() & !self.iss_under.q.val().all();
        self.iss_over.d.next = self.iss_over.q.val();
        if self.step_over.val() {
            self.iss_over.d.next = self.iss_over.q.val() + 1;
        }
        self.iss_under.d.next = self.iss_under.q.val();
        if self.step_under.val() {
            self.iss_under.d.next = self.iss_under.q.val() + 1;
        }
        self.sum_over.d.next = self.sum_over.q.val();
        if self.inc_ti.val() ^ self.step_over.val() {
            self.sum_over.d.next = self.sum_over.q.val() + 1;
        }
        if self.inc_ti.val() & self.step_over.val() {
            self.sum_over.d.next = self.sum_over.q.val() + 2;
        }
        self.diff_under.d.next = self.diff_under.q.val();
        if self.inc_ti.val() & !self.step_under.val() {
            self.diff_under.d.next = self.diff_under.q.val() + 1;
        }
        if !self.inc_ti.val() & self.step_under.val() {
            self.diff_under.d.next = self.diff_under.q.val() - 1;
        }
        if self.restart.val() {
            self.iss_over.d.next = 0.into();
            self.iss_under.d.next = 0.into();
            self.sum_over.d.next = 0.into();
            self.diff_under.d.next = 0.into();
        }
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
        dff_setup!(self, clock, mss, period, max_len, r_boundary, r_inc, r_resid_zero, r_clamp, r_ti_run, r_bad, r_data, r_ql);
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
        self.bad.next = self.r_bad.q.val();
        self.is_data.next = self.r_data.q.val();
        self.ql.next = self.r_ql.q.val();
    }
}

/// Mode B's two compares a clock ahead of the decision that reads them (the README's
/// *Latency*). In the clock a descriptor's queue count `q` comes in, the sums it will be compared
/// with are this clock's (`s_over`, `d_under`) moved by this clock's steps, which the decision of
/// this clock makes: so each compare is made here for every value the sums can take, `s_over + k`
/// (k = 0, 1, 2) and `d_under + k` (k = −1, 0, 1), one carry chain each, and the next clock picks
/// one by the steps this clock registered (`0` after a `restart`). The decision then reads
/// flip-flops: `b_over` is `min(q, 65535) > s_over` and `b_under` is `q < d_under` at that clock.
#[derive(LogicBlock)]
pub struct ModeBAhead {
    pub clock: Signal<In, Clock>,
    pub q: Signal<In, Bits<20>>,
    pub s_over: Signal<In, Bits<17>>,
    pub d_under: Signal<In, Bits<18>>,
    /// This clock's steps of the sums: the quotient's, the marks', and a restart (both to 0).
    pub inc: Signal<In, Bit>,
    pub step_over: Signal<In, Bit>,
    pub step_under: Signal<In, Bit>,
    pub restart: Signal<In, Bit>,
    pub b_over: Signal<Out, Bit>,
    pub b_under: Signal<Out, Bit>,
    over_k: [DFF<Bit>; 3],
    under_k: [DFF<Bit>; 3],
    q_pos: DFF<Bit>,
    /// Which `k` the sums moved by: `inc + step_over`, and `1 + inc − step_under`.
    sel_over: DFF<Bits<2>>,
    sel_under: DFF<Bits<2>>,
    rst: DFF<Bit>,
    /// `q − s_over − k − 1` and `d_under + k − 1 − q` (22-bit two's complement), whose sign
    /// says the compare is false.
    c_over: [AddSub<22>; 3],
    c_under: [AddSub<22>; 3],
    k_over: [Constant<Bits<22>>; 3],
    k_under: [Constant<Bits<22>>; 3],
    q22: Signal<Local, Bits<22>>,
    s22: Signal<Local, Bits<22>>,
    d22: Signal<Local, Bits<22>>,
    /// `s_over + k < 65535`: `min(q, 65535)` can be above it.
    below: [Signal<Local, Bit>; 3],
    s_top: Signal<Local, Bit>,
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
            inc: Default::default(),
            step_over: Default::default(),
            step_under: Default::default(),
            restart: Default::default(),
            b_over: Default::default(),
            b_under: Default::default(),
            over_k: Default::default(),
            under_k: Default::default(),
            q_pos: Default::default(),
            sel_over: Default::default(),
            sel_under: Default::default(),
            rst: Default::default(),
            c_over: Default::default(),
            c_under: Default::default(),
            // −(k + 1), and k − 2 (for d_under + (k − 1) − 1)
            k_over: std::array::from_fn(|k| Constant::new((M - k as u64).into())),
            k_under: std::array::from_fn(|k| Constant::new(((k as u64 + M - 1) & M).into())),
            q22: Default::default(),
            s22: Default::default(),
            d22: Default::default(),
            below: Default::default(),
            s_top: Default::default(),
            unused_chains: Default::default(),
        }
    }
}

impl Logic for ModeBAhead {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, q_pos, sel_over, sel_under, rst);
        self.q22.next = bit_cast::<22, 20>(self.q.val());
        self.s22.next = bit_cast::<22, 17>(self.s_over.val());
        self.d22.next = bit_cast::<22, 18>(self.d_under.val());
        if self.d_under.val().get_bit(17) {
            self.d22.next = bit_cast::<22, 18>(self.d_under.val()) | Bits::<22>::from(0x3C_0000);
        }
        // s_over + k < 65535, k = 0, 1, 2: no chain, the top 15 bits and the low two
        self.s_top.next = self.s_over.val().get_bits::<14>(2).all();
        self.below[0].next = !self.s_over.val().get_bit(16) & !(self.s_top.val() & self.s_over.val().get_bits::<2>(0).all());
        self.below[1].next = !self.s_over.val().get_bit(16) & !(self.s_top.val() & self.s_over.val().get_bit(1));
        self.below[2].next = !self.s_over.val().get_bit(16) & !(self.s_top.val() & self.s_over.val().get_bits::<2>(0).any());
        self.unused_chains.next = false;
        for k in 0..3 {
            self.over_k[k].clock.next = self.clock.val();
            self.under_k[k].clock.next = self.clock.val();
            self.c_over[k].a.next = self.q22.val();
            self.c_over[k].b.next = self.k_over[k].val();
            self.c_over[k].sub.next = self.s22.val();
            self.c_over[k].cin.next = false;
            self.c_under[k].a.next = self.d22.val();
            self.c_under[k].b.next = self.k_under[k].val();
            self.c_under[k].sub.next = self.q22.val();
            self.c_under[k].cin.next = false;
            self.over_k[k].d.next = !self.c_over[k].out.val().get_bit(21) & self.below[k].val();
            self.under_k[k].d.next = !self.c_under[k].out.val().get_bit(21);
            self.unused_chains.next = self.unused_chains.val()
                | self.c_over[k].out.val().get_bits::<21>(0).any()
                | self.c_under[k].out.val().get_bits::<21>(0).any();
        }
        self.q_pos.d.next = self.q.val().any();
        self.sel_over.d.next = 0.into();
        if self.inc.val() ^ self.step_over.val() {
            self.sel_over.d.next = 1.into();
        }
        if self.inc.val() & self.step_over.val() {
            self.sel_over.d.next = 2.into();
        }
        self.sel_under.d.next = 1.into();
        if !self.inc.val() & self.step_under.val() {
            self.sel_under.d.next = 0.into();
        }
        if self.inc.val() & !self.step_under.val() {
            self.sel_under.d.next = 2.into();
        }
        self.rst.d.next = self.restart.val();
        // the next clock: the compare for the sums it has
        self.b_over.next = self.over_k[0].q.val();
        if self.sel_over.q.val() == 1 {
            self.b_over.next = self.over_k[1].q.val();
        }
        if self.sel_over.q.val() == 2 {
            self.b_over.next = self.over_k[2].q.val();
        }
        self.b_under.next = self.under_k[1].q.val();
        if self.sel_under.q.val() == 0 {
            self.b_under.next = self.under_k[0].q.val();
        }
        if self.sel_under.q.val() == 2 {
            self.b_under.next = self.under_k[2].q.val();
        }
        if self.rst.q.val() {
            self.b_over.next = self.q_pos.q.val();
            self.b_under.next = false;
        }
    }
}

/// The over/under budgets and the values latched at the last boundary.
///
/// At a `boundary` the budgets are `over = max(ql − ti − Io, 0)` and `under = max(ti − ql − Iu,
/// 0)`, with `ti = ti_run + e` (`e` = this clock's quotient step less the `TI_STRICT` correction)
/// and `Io`/`Iu` the marks of the same kind issued this period, this clock's included, in mode 1
/// (A_NET) and 0 otherwise. The boundary clock registers only the wide part, `ql − X` with
/// `X = s_over` (A_NET) or `ti_run`, and the small rest `e + step` (−1…2) apart; the next clock
/// adds the two (one carry chain) while it marks (`pend`), and stores the result with that clock's
/// spend. So the budgets take the value and the effect the model gives them at the boundary's
/// next clock; only their arithmetic is split over the two clocks. Otherwise a spend (`dec_*`,
/// modes A and A_NET) takes one. `clear` (`STATE_CLEAR`) zeroes everything and wins.
#[derive(LogicBlock, Default)]
pub struct RenBudgets {
    pub clock: Signal<In, Clock>,
    pub boundary: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub mode: Signal<In, Bits<2>>,
    pub strict: Signal<In, Bit>,
    pub ql: Signal<In, Bits<16>>,
    pub ti_run: Signal<In, Bits<16>>,
    pub inc_ti: Signal<In, Bit>,
    pub resid_zero: Signal<In, Bit>,
    pub s_over: Signal<In, Bits<17>>,
    pub d_under: Signal<In, Bits<18>>,
    pub step_over: Signal<In, Bit>,
    pub step_under: Signal<In, Bit>,
    pub dec_over: Signal<In, Bit>,
    pub dec_under: Signal<In, Bit>,
    pub over: Signal<Out, Bits<16>>,
    pub under: Signal<Out, Bits<16>>,
    pub nz_over: Signal<Out, Bit>,
    pub nz_under: Signal<Out, Bit>,
    pub ql_s: Signal<Out, Bits<16>>,
    pub ti_s: Signal<Out, Bits<16>>,
    bud_over: DFF<Bits<16>>,
    bud_under: DFF<Bits<16>>,
    lat_ql: DFF<Bits<16>>,
    lat_ti: DFF<Bits<16>>,
    /// The boundary's budgets are still the sums below (the clock after a boundary).
    pend: DFF<Bit>,
    /// `ql − X` and `X' − ql` (19-bit two's complement) and the rests to add: `−k` and `−k − 1`
    /// (3-bit two's complement), whose sums say the budget and whether it is above 0.
    wide_over: DFF<Bits<19>>,
    wide_under: DFF<Bits<19>>,
    rest_over: DFF<Bits<3>>,
    rest_over1: DFF<Bits<3>>,
    rest_under: DFF<Bits<3>>,
    rest_under1: DFF<Bits<3>>,
    anet: Signal<Local, Bit>,
    adj: Signal<Local, Bit>,
    e_pos: Signal<Local, Bit>,
    e_neg: Signal<Local, Bit>,
    t_over: Signal<Local, Bit>,
    t_under: Signal<Local, Bit>,
    x_over: Signal<Local, Bits<19>>,
    x_under: Signal<Local, Bits<19>>,
    ext_over: Signal<Local, Bits<19>>,
    ext_over1: Signal<Local, Bits<19>>,
    ext_under: Signal<Local, Bits<19>>,
    ext_under1: Signal<Local, Bits<19>>,
    sum_over: Signal<Local, Bits<19>>,
    sum_over1: Signal<Local, Bits<19>>,
    sum_under: Signal<Local, Bits<19>>,
    sum_under1: Signal<Local, Bits<19>>,
    /// The sums' bits between the value and the sign, read by nothing (the lint's `unused`
    /// convention): the sign is bit 18 so that no sum wraps.
    unused_sums: Signal<Local, Bit>,
}

impl Logic for RenBudgets {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, bud_over, bud_under, lat_ql, lat_ti, pend, wide_over, wide_under, rest_over, rest_over1,
            rest_under, rest_under1
        );
        self.ql_s.next = self.lat_ql.q.val();
        self.ti_s.next = self.lat_ti.q.val();

        // --- the boundary clock: the wide differences and the small rests
        self.anet.next = self.mode.val() == 1;
        self.adj.next = self.strict.val() & self.resid_zero.val() & (self.inc_ti.val() | self.ti_run.val().any());
        self.e_pos.next = self.inc_ti.val() & !self.adj.val();
        self.e_neg.next = self.adj.val() & !self.inc_ti.val();
        self.t_over.next = self.anet.val() & self.step_over.val();
        self.t_under.next = self.anet.val() & self.step_under.val();
        self.x_over.next = bit_cast::<19, 16>(self.ti_run.val());
        self.x_under.next = bit_cast::<19, 16>(self.ti_run.val());
        if self.anet.val() {
            self.x_over.next = bit_cast::<19, 17>(self.s_over.val());
            self.x_under.next = bit_cast::<19, 18>(self.d_under.val());
            if self.d_under.val().get_bit(17) {
                self.x_under.next = bit_cast::<19, 18>(self.d_under.val()) | Bits::<19>::from(0x40000);
            }
        }
        self.wide_over.d.next = bit_cast::<19, 16>(self.ql.val()) - self.x_over.val();
        self.wide_under.d.next = self.x_under.val() - bit_cast::<19, 16>(self.ql.val());
        // over: −k with k = e + t_over (−1…2); −k − 1 beside it
        self.rest_over.d.next = 0.into();
        self.rest_over1.d.next = 7.into();
        if self.e_neg.val() & !self.t_over.val() {
            self.rest_over.d.next = 1.into();
            self.rest_over1.d.next = 0.into();
        }
        if (self.e_pos.val() & !self.t_over.val()) | (!self.e_pos.val() & !self.e_neg.val() & self.t_over.val()) {
            self.rest_over.d.next = 7.into();
            self.rest_over1.d.next = 6.into();
        }
        if self.e_pos.val() & self.t_over.val() {
            self.rest_over.d.next = 6.into();
            self.rest_over1.d.next = 5.into();
        }
        // under: −k with k = t_under − e (−2…1)
        self.rest_under.d.next = 0.into();
        self.rest_under1.d.next = 7.into();
        if self.e_pos.val() & !self.t_under.val() {
            self.rest_under.d.next = 1.into();
            self.rest_under1.d.next = 0.into();
        }
        if (self.e_neg.val() & !self.t_under.val()) | (!self.e_pos.val() & !self.e_neg.val() & self.t_under.val()) {
            self.rest_under.d.next = 7.into();
            self.rest_under1.d.next = 6.into();
        }
        if self.e_neg.val() & self.t_under.val() {
            self.rest_under.d.next = 6.into();
            self.rest_under1.d.next = 5.into();
        }

        // --- the clock after: the budgets are the sums (sign-extended rests)
        self.ext_over.next = bit_cast::<19, 3>(self.rest_over.q.val());
        if self.rest_over.q.val().get_bit(2) {
            self.ext_over.next = bit_cast::<19, 3>(self.rest_over.q.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.ext_over1.next = bit_cast::<19, 3>(self.rest_over1.q.val());
        if self.rest_over1.q.val().get_bit(2) {
            self.ext_over1.next = bit_cast::<19, 3>(self.rest_over1.q.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.ext_under.next = bit_cast::<19, 3>(self.rest_under.q.val());
        if self.rest_under.q.val().get_bit(2) {
            self.ext_under.next = bit_cast::<19, 3>(self.rest_under.q.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.ext_under1.next = bit_cast::<19, 3>(self.rest_under1.q.val());
        if self.rest_under1.q.val().get_bit(2) {
            self.ext_under1.next = bit_cast::<19, 3>(self.rest_under1.q.val()) | Bits::<19>::from(0x7FFF8);
        }
        self.sum_over.next = self.wide_over.q.val() + self.ext_over.val();
        self.sum_over1.next = self.wide_over.q.val() + self.ext_over1.val();
        self.sum_under.next = self.wide_under.q.val() + self.ext_under.val();
        self.sum_under1.next = self.wide_under.q.val() + self.ext_under1.val();
        self.unused_sums.next = self.sum_over.val().get_bits::<2>(16).any()
            | self.sum_over1.val().get_bits::<2>(16).any()
            | self.sum_under.val().get_bits::<2>(16).any()
            | self.sum_under1.val().get_bits::<2>(16).any();

        self.over.next = self.bud_over.q.val();
        self.under.next = self.bud_under.q.val();
        self.nz_over.next = self.bud_over.q.val().any();
        self.nz_under.next = self.bud_under.q.val().any();
        if self.pend.q.val() {
            self.over.next = 0.into();
            if !self.sum_over.val().get_bit(18) {
                self.over.next = self.sum_over.val().get_bits::<16>(0);
            }
            self.under.next = 0.into();
            if !self.sum_under.val().get_bit(18) {
                self.under.next = self.sum_under.val().get_bits::<16>(0);
            }
            self.nz_over.next = !self.sum_over1.val().get_bit(18);
            self.nz_under.next = !self.sum_under1.val().get_bit(18);
        }

        // --- the budgets' registers: a spend takes one (from the sum while pending)
        self.bud_over.d.next = self.over.val();
        if self.dec_over.val() {
            self.bud_over.d.next = self.bud_over.q.val() - 1;
            if self.pend.q.val() {
                self.bud_over.d.next = self.sum_over1.val().get_bits::<16>(0);
            }
        }
        self.bud_under.d.next = self.under.val();
        if self.dec_under.val() {
            self.bud_under.d.next = self.bud_under.q.val() - 1;
            if self.pend.q.val() {
                self.bud_under.d.next = self.sum_under1.val().get_bits::<16>(0);
            }
        }
        self.pend.d.next = false;
        if self.boundary.val() {
            self.bud_over.d.next = 0.into();
            self.bud_under.d.next = 0.into();
            self.pend.d.next = true;
            self.lat_ql.d.next = self.ql.val();
            self.lat_ti.d.next = self.ti_run.val();
            if self.e_pos.val() {
                self.lat_ti.d.next = self.ti_run.val() + 1;
            }
            if self.e_neg.val() {
                self.lat_ti.d.next = self.ti_run.val() - 1;
            }
        }
        if self.clear.val() {
            self.bud_over.d.next = 0.into();
            self.bud_under.d.next = 0.into();
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
        self.budgets.mode.next = self.mode.q.val();
        self.budgets.strict.next = self.flags.q.val().get_bit(0);
        self.budgets.ql.next = self.in_stage.ql.val();
        self.budgets.ti_run.next = self.in_stage.ti_run.val();
        self.budgets.inc_ti.next = self.in_stage.inc.val();
        self.budgets.resid_zero.next = self.in_stage.resid_zero.val();
        self.budgets.s_over.next = self.tallies.s_over.val();
        self.budgets.d_under.next = self.tallies.d_under.val();
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
