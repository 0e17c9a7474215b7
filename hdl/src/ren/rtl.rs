//! RTL of the REN counters; the golden model is `model.rs`, the choices are in `mod.rs`.
//! Register addresses are the literals of [`super::csr`] (`hdl_gen` cannot read constants).

use crate::rtl_util::SatCounter;
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
            left: DFFWithInit::new((super::DEFAULT_PERIOD - 2).into()),
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
    // configuration (reset values: mod.rs)
    mode: DFFWithInit<Bits<2>>,
    flags: DFFWithInit<Bits<2>>,
    mss: DFFWithInit<Bits<16>>,
    period: DFFWithInit<Bits<32>>,
    max_len: DFFWithInit<Bits<16>>,
    // period state
    timer: PeriodTimer,
    idle: IdleAccumulator,
    tallies: MarkTallies,
    budgets: RenBudgets,
    c_over: SatCounter,
    c_under: SatCounter,
    c_full: SatCounter,
    c_pass: SatCounter,
    c_malformed: SatCounter,
    c_clamped: SatCounter,
    c_rejected: SatCounter,
    // wires
    malformed: Signal<Local, Bit>,
    marks: Signal<Local, Bit>,
    ql_now: Signal<Local, Bits<16>>,
    b_over: Signal<Local, Bit>,
    b_under: Signal<Local, Bit>,
    loc_over: Signal<Local, Bit>,
    loc_under: Signal<Local, Bit>,
    loc_code: Signal<Local, Bits<2>>,
    take_over: Signal<Local, Bit>,
    take_under: Signal<Local, Bit>,
    restart: Signal<Local, Bit>,
    clear: Signal<Local, Bit>,
    csr_ok: Signal<Local, Bit>,
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
            mss: DFFWithInit::new((super::DEFAULT_MSS).into()),
            period: DFFWithInit::new((super::DEFAULT_PERIOD).into()),
            max_len: DFFWithInit::new((super::DEFAULT_MAX_LEN).into()),
            timer: Default::default(),
            idle: Default::default(),
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
            ql_now: Default::default(),
            b_over: Default::default(),
            b_under: Default::default(),
            loc_over: Default::default(),
            loc_under: Default::default(),
            loc_code: Default::default(),
            take_over: Default::default(),
            take_under: Default::default(),
            restart: Default::default(),
            clear: Default::default(),
            csr_ok: Default::default(),
        }
    }
}

impl Logic for RenCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, mode, flags, mss, period, max_len);
        clock!(self, clock, timer, idle, tallies, budgets, c_over, c_under, c_full, c_pass, c_malformed, c_clamped, c_rejected);
        // STATE_CLEAR restarts the period with every budget, latch and accumulator at 0
        self.clear.next = self.csr_we.val() & (self.csr_addr.val() == 5);
        self.timer.period.next = self.period.q.val();
        self.timer.period_wr.next = self.csr_we.val() & (self.csr_addr.val() == 3) & self.csr_wdata.val().any();
        self.timer.wdata.next = self.csr_wdata.val();
        self.timer.restart.next = self.clear.val();
        self.period_tick.next = self.timer.boundary.val();
        self.restart.next = self.timer.boundary.val() | self.clear.val();
        self.idle.idle_bytes.next = self.idle_bytes.val();
        self.idle.mss.next = self.mss.q.val();
        self.idle.restart.next = self.restart.val();
        self.ql_s.next = self.budgets.ql_s.val();
        self.ti_s.next = self.budgets.ti_s.val();
        self.over.next = self.budgets.over.val();
        self.under.next = self.budgets.under.val();
        self.over_iss.next = self.tallies.over_iss.val();
        self.under_iss.next = self.tallies.under_iss.val();

        // --- marking from the registers at the start of the clock
        self.malformed.next =
            self.deq_valid.val() & (!self.deq_len.val().any() | (self.deq_len.val() > self.max_len.q.val()));
        self.marks.next = self.deq_valid.val()
            & !self.malformed.val()
            & self.deq_is_data.val()
            & (self.deq_ecn.val() != 3);
        self.ql_now.next = self.q_pkts.val().get_bits::<16>(0);
        if self.q_pkts.val().get_bits::<4>(16).any() {
            self.ql_now.next = 0xFFFF.into();
        }
        // mode 2 (B): ql − ti_run against the marks issued this period, as one compare each:
        // min(q, 65535) > s_over, and q < d_under (which is at most 65,535)
        self.b_over.next = (self.q_pkts.val() > bit_cast::<20, 17>(self.tallies.s_over.val()))
            & !self.tallies.s_over.val().get_bit(16)
            & !self.tallies.s_over.val().get_bits::<16>(0).all();
        self.b_under.next = !self.tallies.d_under.val().get_bit(17)
            & (self.q_pkts.val() < bit_cast::<20, 16>(self.tallies.d_under.val().get_bits::<16>(0)));
        if self.mode.q.val() == 2 {
            self.loc_over.next = self.b_over.val();
            self.loc_under.next = !self.b_over.val() & self.b_under.val();
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
        self.tallies.inc_ti.next = self.idle.inc.val();
        self.tallies.take_over.next = self.take_over.val();
        self.tallies.take_under.next = self.take_under.val();
        self.budgets.boundary.next = self.timer.boundary.val();
        self.budgets.clear.next = self.clear.val();
        self.budgets.mode.next = self.mode.q.val();
        self.budgets.strict.next = self.flags.q.val().get_bit(0);
        self.budgets.ql.next = self.ql_now.val();
        self.budgets.ti_run.next = self.idle.ti_run.val();
        self.budgets.inc_ti.next = self.idle.inc.val();
        self.budgets.resid_zero.next = self.idle.resid_zero.val();
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
        self.c_pass.inc.next = self.deq_valid.val() & !self.malformed.val() & !self.marks.val();
        self.c_malformed.inc.next = self.malformed.val();
        self.c_clamped.inc.next = self.idle.clamp.val();

        // --- register writes (csr module); they win over everything above
        // range checks test the high bits (a 32-bit compare with a constant is a carry chain in yosys)
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
        self.c_rejected.inc.next = self.csr_we.val() & !self.csr_ok.val();
        self.c_over.load.next = self.csr_we.val() & (self.csr_addr.val() == 16);
        self.c_under.load.next = self.csr_we.val() & (self.csr_addr.val() == 17);
        self.c_full.load.next = self.csr_we.val() & (self.csr_addr.val() == 18);
        self.c_pass.load.next = self.csr_we.val() & (self.csr_addr.val() == 19);
        self.c_malformed.load.next = self.csr_we.val() & (self.csr_addr.val() == 20);
        self.c_clamped.load.next = self.csr_we.val() & (self.csr_addr.val() == 21);
        self.c_rejected.load.next = self.csr_we.val() & (self.csr_addr.val() == 22);
        self.c_over.load_val.next = self.csr_wdata.val();
        self.c_under.load_val.next = self.csr_wdata.val();
        self.c_full.load_val.next = self.csr_wdata.val();
        self.c_pass.load_val.next = self.csr_wdata.val();
        self.c_malformed.load_val.next = self.csr_wdata.val();
        self.c_clamped.load_val.next = self.csr_wdata.val();
        self.c_rejected.load_val.next = self.csr_wdata.val();
        if self.csr_we.val() & self.csr_ok.val() {
            match self.csr_addr.val().index() {
                0 => self.mode.d.next = self.csr_wdata.val().get_bits::<2>(0),
                1 => self.flags.d.next = self.csr_wdata.val().get_bits::<2>(0),
                2 => self.mss.d.next = self.csr_wdata.val().get_bits::<16>(0),
                3 => self.period.d.next = self.csr_wdata.val(),
                4 => self.max_len.d.next = self.csr_wdata.val().get_bits::<16>(0),
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
