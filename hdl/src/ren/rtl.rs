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

/// The sampling period's clock count: `boundary` in the period's last clock (`cnt + 1 ≥ PERIOD`,
/// so a shortened `PERIOD` ends the period at once), after which the count restarts; `restart`
/// (`STATE_CLEAR`) restarts it too.
#[derive(LogicBlock, Default)]
pub struct PeriodTimer {
    pub clock: Signal<In, Clock>,
    pub period: Signal<In, Bits<32>>,
    pub restart: Signal<In, Bit>,
    pub boundary: Signal<Out, Bit>,
    cnt: DFF<Bits<32>>,
}

impl Logic for PeriodTimer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cnt);
        self.boundary.next = (self.cnt.q.val() + 1) >= self.period.val();
        self.cnt.d.next = self.cnt.q.val() + 1;
        if self.boundary.val() | self.restart.val() {
            self.cnt.d.next = 0.into();
        }
    }
}

/// Idle bytes as a running quotient of whole MSS (`ti_run`, saturating at 65,535) and a residue
/// below MSS (REN §4 item 3: no divider). `idle_bytes` above MSS counts as MSS (`clamp`).
/// `ti_total` and `resid_zero` are the quotient and whether the residue is 0 after this clock's
/// bytes; `restart` (the period boundary or `STATE_CLEAR`) starts both at 0 at the edge.
#[derive(LogicBlock, Default)]
pub struct IdleAccumulator {
    pub clock: Signal<In, Clock>,
    pub idle_bytes: Signal<In, Bits<8>>,
    pub mss: Signal<In, Bits<16>>,
    pub restart: Signal<In, Bit>,
    pub clamp: Signal<Out, Bit>,
    pub ti_run: Signal<Out, Bits<16>>,
    pub ti_total: Signal<Out, Bits<16>>,
    pub resid_zero: Signal<Out, Bit>,
    ti_q: DFF<Bits<16>>,
    resid: DFF<Bits<16>>,
    idle_c: Signal<Local, Bits<17>>,
    acc: Signal<Local, Bits<17>>,
    carry: Signal<Local, Bit>,
    resid_n: Signal<Local, Bits<17>>,
}

impl Logic for IdleAccumulator {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ti_q, resid);
        self.ti_run.next = self.ti_q.q.val();
        self.clamp.next = bit_cast::<16, 8>(self.idle_bytes.val()) > self.mss.val();
        self.idle_c.next = bit_cast::<17, 8>(self.idle_bytes.val());
        if self.clamp.val() {
            self.idle_c.next = bit_cast::<17, 16>(self.mss.val());
        }
        self.acc.next = bit_cast::<17, 16>(self.resid.q.val()) + self.idle_c.val();
        self.carry.next = self.acc.val() >= bit_cast::<17, 16>(self.mss.val());
        self.resid_n.next = self.acc.val();
        if self.carry.val() {
            self.resid_n.next = self.acc.val() - bit_cast::<17, 16>(self.mss.val());
        }
        self.resid_zero.next = !self.resid_n.val().any();
        self.ti_total.next = self.ti_q.q.val();
        if self.carry.val() & !self.ti_q.q.val().all() {
            self.ti_total.next = self.ti_q.q.val() + 1;
        }
        self.ti_q.d.next = self.ti_total.val();
        self.resid.d.next = self.resid_n.val().get_bits::<16>(0);
        if self.restart.val() {
            self.ti_q.d.next = 0.into();
            self.resid.d.next = 0.into();
        }
    }
}

/// The over/under budgets, the marks issued this period and the values latched at the last
/// boundary. At a `boundary` it latches `ql` and `ti` (one less under `strict` when the residue is
/// 0), loads the budgets `|ql − ti|` (less the marks of the same kind issued this period, this
/// clock's included, in mode 1, A_NET) and restarts the issued counts; otherwise a taken mark
/// spends its budget (modes 0 and 1) and counts as issued (saturating). `clear` (`STATE_CLEAR`)
/// zeroes everything and wins.
#[derive(LogicBlock, Default)]
pub struct RenBudgets {
    pub clock: Signal<In, Clock>,
    pub boundary: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub mode: Signal<In, Bits<2>>,
    pub strict: Signal<In, Bit>,
    pub take_over: Signal<In, Bit>,
    pub take_under: Signal<In, Bit>,
    pub ql: Signal<In, Bits<16>>,
    pub ti_total: Signal<In, Bits<16>>,
    pub resid_zero: Signal<In, Bit>,
    pub over: Signal<Out, Bits<16>>,
    pub under: Signal<Out, Bits<16>>,
    pub over_iss: Signal<Out, Bits<16>>,
    pub under_iss: Signal<Out, Bits<16>>,
    pub ql_s: Signal<Out, Bits<16>>,
    pub ti_s: Signal<Out, Bits<16>>,
    bud_over: DFF<Bits<16>>,
    bud_under: DFF<Bits<16>>,
    iss_over: DFF<Bits<16>>,
    iss_under: DFF<Bits<16>>,
    lat_ql: DFF<Bits<16>>,
    lat_ti: DFF<Bits<16>>,
    iss_over_n: Signal<Local, Bits<16>>,
    iss_under_n: Signal<Local, Bits<16>>,
    ti: Signal<Local, Bits<16>>,
    over_a: Signal<Local, Bits<16>>,
    under_a: Signal<Local, Bits<16>>,
}

impl Logic for RenBudgets {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bud_over, bud_under, iss_over, iss_under, lat_ql, lat_ti);
        self.over.next = self.bud_over.q.val();
        self.under.next = self.bud_under.q.val();
        self.over_iss.next = self.iss_over.q.val();
        self.under_iss.next = self.iss_under.q.val();
        self.ql_s.next = self.lat_ql.q.val();
        self.ti_s.next = self.lat_ti.q.val();
        self.iss_over_n.next = self.iss_over.q.val();
        if self.take_over.val() & !self.iss_over.q.val().all() {
            self.iss_over_n.next = self.iss_over.q.val() + 1;
        }
        self.iss_under_n.next = self.iss_under.q.val();
        if self.take_under.val() & !self.iss_under.q.val().all() {
            self.iss_under_n.next = self.iss_under.q.val() + 1;
        }
        self.ti.next = self.ti_total.val();
        if self.strict.val() & self.resid_zero.val() & self.ti_total.val().any() {
            self.ti.next = self.ti_total.val() - 1;
        }
        self.over_a.next = 0.into();
        self.under_a.next = 0.into();
        if self.ql.val() > self.ti.val() {
            self.over_a.next = self.ql.val() - self.ti.val();
        } else {
            self.under_a.next = self.ti.val() - self.ql.val();
        }
        if self.boundary.val() {
            self.bud_over.d.next = self.over_a.val();
            self.bud_under.d.next = self.under_a.val();
            if self.mode.val() == 1 {
                self.bud_over.d.next = 0.into();
                if self.over_a.val() > self.iss_over_n.val() {
                    self.bud_over.d.next = self.over_a.val() - self.iss_over_n.val();
                }
                self.bud_under.d.next = 0.into();
                if self.under_a.val() > self.iss_under_n.val() {
                    self.bud_under.d.next = self.under_a.val() - self.iss_under_n.val();
                }
            }
            self.lat_ql.d.next = self.ql.val();
            self.lat_ti.d.next = self.ti.val();
            self.iss_over.d.next = 0.into();
            self.iss_under.d.next = 0.into();
        } else {
            if self.mode.val() != 2 {
                if self.take_over.val() {
                    self.bud_over.d.next = self.bud_over.q.val() - 1;
                }
                if self.take_under.val() {
                    self.bud_under.d.next = self.bud_under.q.val() - 1;
                }
            }
            self.iss_over.d.next = self.iss_over_n.val();
            self.iss_under.d.next = self.iss_under_n.val();
        }
        if self.clear.val() {
            self.bud_over.d.next = 0.into();
            self.bud_under.d.next = 0.into();
            self.iss_over.d.next = 0.into();
            self.iss_under.d.next = 0.into();
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
            clear: Default::default(),
            csr_ok: Default::default(),
        }
    }
}

impl Logic for RenCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, mode, flags, mss, period, max_len);
        clock!(self, clock, timer, idle, budgets, c_over, c_under, c_full, c_pass, c_malformed, c_clamped, c_rejected);
        // STATE_CLEAR restarts the period with every budget, latch and accumulator at 0
        self.clear.next = self.csr_we.val() & (self.csr_addr.val() == 5);
        self.timer.period.next = self.period.q.val();
        self.timer.restart.next = self.clear.val();
        self.period_tick.next = self.timer.boundary.val();
        self.idle.idle_bytes.next = self.idle_bytes.val();
        self.idle.mss.next = self.mss.q.val();
        self.idle.restart.next = self.timer.boundary.val() | self.clear.val();
        self.ql_s.next = self.budgets.ql_s.val();
        self.ti_s.next = self.budgets.ti_s.val();
        self.over.next = self.budgets.over.val();
        self.under.next = self.budgets.under.val();
        self.over_iss.next = self.budgets.over_iss.val();
        self.under_iss.next = self.budgets.under_iss.val();

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
        // mode 2 (B): against the idle so far and the marks issued this period
        self.b_over.next = (self.ql_now.val() > self.idle.ti_run.val())
            & (self.budgets.over_iss.val() < (self.ql_now.val() - self.idle.ti_run.val()));
        self.b_under.next = (self.idle.ti_run.val() > self.ql_now.val())
            & (self.budgets.under_iss.val() < (self.idle.ti_run.val() - self.ql_now.val()));
        if self.mode.q.val() == 2 {
            self.loc_over.next = self.b_over.val();
            self.loc_under.next = !self.b_over.val() & self.b_under.val();
        } else {
            self.loc_over.next = self.budgets.over.val().any();
            self.loc_under.next = !self.budgets.over.val().any() & self.budgets.under.val().any();
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

        // --- budgets: latched at the boundary, spent by the marks
        self.budgets.boundary.next = self.timer.boundary.val();
        self.budgets.clear.next = self.clear.val();
        self.budgets.mode.next = self.mode.q.val();
        self.budgets.strict.next = self.flags.q.val().get_bit(0);
        self.budgets.take_over.next = self.take_over.val();
        self.budgets.take_under.next = self.take_under.val();
        self.budgets.ql.next = self.ql_now.val();
        self.budgets.ti_total.next = self.idle.ti_total.val();
        self.budgets.resid_zero.next = self.idle.resid_zero.val();

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
