//! The shaper's register file (`ShaperRegs`): the write port's pipeline register, each write's
//! check, the registers and the differences the bucket's outcomes read, so that no check or
//! difference shares a clock with the bucket (`rtl.rs`). Register addresses are the literals of
//! [`super::csr`]; the rules are the golden model's (`Shaper::csr_write`), which the component
//! test (`sim-tests/tests/port_components.rs`) checks clock by clock.

use crate::rtl_util::{AddSub, CsrStage};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

use super::csr;
const _: () = assert!(
    csr::FILL == 0 && csr::SCALE == 1 && csr::DEPTH == 2 && csr::OVERHEAD == 3 && csr::MAX_LEN == 4
    && csr::FILL_FRAC == 5 && csr::CNT_BASE == 16 && csr::REGISTERS[csr::idx::CNT_BASE].count == 4
);

/// A write is checked in the clock it is presented and applied at the edge that ends the next
/// one (`CsrStage`). The checks that compare `SCALE` and `FILL_FRAC` read the write held in the
/// stage where it sets the other, so a write is judged against the values it is applied over.
/// Beside the registers it keeps `SCALE − FILL_FRAC` (the remainder's carry threshold) and
/// `FILL − DEPTH`, `FILL − OVERHEAD`, `FILL − DEPTH − OVERHEAD` (22-bit two's complement), each
/// write's new difference its own carry chain from the write data, selected by the write's
/// decode, which is made as the write is presented and held with it (`kind`). Range checks test
/// the high bits (a 32-bit compare with a constant is a carry chain in yosys).
#[derive(LogicBlock)]
pub struct ShaperRegs {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub fill: Signal<Out, Bits<20>>,
    pub fill_frac: Signal<Out, Bits<16>>,
    pub scale: Signal<Out, Bits<16>>,
    /// `SCALE − FILL_FRAC` (positive: the checks keep `FILL_FRAC` below `SCALE`).
    pub frac_gap: Signal<Out, Bits<16>>,
    pub depth: Signal<Out, Bits<20>>,
    pub overhead: Signal<Out, Bits<8>>,
    pub max_len: Signal<Out, Bits<16>>,
    pub fill_less_depth: Signal<Out, Bits<22>>,
    pub fill_less_ovh: Signal<Out, Bits<22>>,
    pub fill_less_depth_ovh: Signal<Out, Bits<22>>,
    /// A `SCALE` or `DEPTH` write lands at this clock's edge: the bucket fills to `fill_to`
    /// (the `DEPTH` after the edge).
    pub fills: Signal<Out, Bit>,
    pub fill_to: Signal<Out, Bits<20>>,
    /// A `FILL_FRAC` write lands at this clock's edge; its value is `wdata`'s low half.
    pub frac_write: Signal<Out, Bit>,
    /// The held write's data (the new `FILL_FRAC`, a counter's preset).
    pub wdata: Signal<Out, Bits<32>>,
    /// The held write is rejected (unknown address or value out of range).
    pub rejected: Signal<Out, Bit>,
    /// Bit i: the held write presets counter i (sent, bad, violation, csr_rejected).
    pub cnt_load: Signal<Out, Bits<4>>,
    fill_r: DFFWithInit<Bits<20>>,
    fill_frac_r: DFFWithInit<Bits<16>>,
    scale_r: DFFWithInit<Bits<16>>,
    frac_gap_r: DFFWithInit<Bits<16>>,
    depth_r: DFFWithInit<Bits<20>>,
    overhead_r: DFFWithInit<Bits<8>>,
    max_len_r: DFFWithInit<Bits<16>>,
    fill_less_depth_r: DFFWithInit<Bits<22>>,
    fill_less_ovh_r: DFFWithInit<Bits<22>>,
    fill_less_depth_ovh_r: DFFWithInit<Bits<22>>,
    /// `FILL − DEPTH − OVERHEAD` after a FILL or a DEPTH write (`FILL + !DEPTH + 1 − OVERHEAD`).
    fdo_fill: AddSub<22>,
    fdo_depth: AddSub<22>,
    csr: CsrStage<8>,
    /// Which register the held write is for, decoded as it is presented (bit i: FILL, SCALE,
    /// DEPTH, OVERHEAD, MAX_LEN, FILL_FRAC at i = 0..6, a counter's preset at 6..10), so that no
    /// address compare stands in front of a register's select.
    kind: DFF<Bits<10>>,
    kind_next: Signal<Local, Bits<10>>,
    /// The stage's address, which `kind` replaces (the lint's `unused` convention).
    unused_q_addr: Signal<Local, Bit>,
    held: Signal<Local, Bits<32>>,
    /// FILL_FRAC and SCALE as a write presented this clock is checked against.
    fill_frac_fwd: Signal<Local, Bits<16>>,
    scale_fwd: Signal<Local, Bits<16>>,
    we_fill: Signal<Local, Bit>,
    we_scale: Signal<Local, Bit>,
    we_depth: Signal<Local, Bit>,
    we_overhead: Signal<Local, Bit>,
    we_max_len: Signal<Local, Bit>,
    we_fill_frac: Signal<Local, Bit>,
    d_fill: Signal<Local, Bits<20>>,
    d_depth: Signal<Local, Bits<20>>,
    d_overhead: Signal<Local, Bits<8>>,
    wdata22: Signal<Local, Bits<22>>,
    wdata8_22: Signal<Local, Bits<22>>,
    fill22: Signal<Local, Bits<22>>,
    depth22: Signal<Local, Bits<22>>,
    ovh22: Signal<Local, Bits<22>>,
}

impl Default for ShaperRegs {
    fn default() -> Self {
        use super::*;
        let c22 = |v: i64| DFFWithInit::new(((v as u64) & ((1 << 22) - 1)).into());
        let (fill, depth, ovh) = (DEFAULT_FILL as i64, DEFAULT_DEPTH as i64, DEFAULT_OVERHEAD as i64);
        ShaperRegs {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            fill: Default::default(),
            fill_frac: Default::default(),
            scale: Default::default(),
            frac_gap: Default::default(),
            depth: Default::default(),
            overhead: Default::default(),
            max_len: Default::default(),
            fill_less_depth: Default::default(),
            fill_less_ovh: Default::default(),
            fill_less_depth_ovh: Default::default(),
            fills: Default::default(),
            fill_to: Default::default(),
            frac_write: Default::default(),
            wdata: Default::default(),
            rejected: Default::default(),
            cnt_load: Default::default(),
            fill_r: DFFWithInit::new(DEFAULT_FILL.into()),
            fill_frac_r: DFFWithInit::new(DEFAULT_FILL_FRAC.into()),
            scale_r: DFFWithInit::new(DEFAULT_SCALE.into()),
            frac_gap_r: DFFWithInit::new((DEFAULT_SCALE - DEFAULT_FILL_FRAC).into()),
            depth_r: DFFWithInit::new(DEFAULT_DEPTH.into()),
            overhead_r: DFFWithInit::new(DEFAULT_OVERHEAD.into()),
            max_len_r: DFFWithInit::new(DEFAULT_MAX_LEN.into()),
            fill_less_depth_r: c22(fill - depth),
            fill_less_ovh_r: c22(fill - ovh),
            fill_less_depth_ovh_r: c22(fill - depth - ovh),
            fdo_fill: Default::default(),
            fdo_depth: Default::default(),
            csr: Default::default(),
            kind: Default::default(),
            kind_next: Default::default(),
            unused_q_addr: Default::default(),
            held: Default::default(),
            fill_frac_fwd: Default::default(),
            scale_fwd: Default::default(),
            we_fill: Default::default(),
            we_scale: Default::default(),
            we_depth: Default::default(),
            we_overhead: Default::default(),
            we_max_len: Default::default(),
            we_fill_frac: Default::default(),
            d_fill: Default::default(),
            d_depth: Default::default(),
            d_overhead: Default::default(),
            wdata22: Default::default(),
            wdata8_22: Default::default(),
            fill22: Default::default(),
            depth22: Default::default(),
            ovh22: Default::default(),
        }
    }
}

impl Logic for ShaperRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fill_r, fill_frac_r, scale_r, frac_gap_r, depth_r, overhead_r, max_len_r,
            fill_less_depth_r, fill_less_ovh_r, fill_less_depth_ovh_r, kind);
        clock!(self, clock, csr);
        self.fill.next = self.fill_r.q.val();
        self.fill_frac.next = self.fill_frac_r.q.val();
        self.scale.next = self.scale_r.q.val();
        self.frac_gap.next = self.frac_gap_r.q.val();
        self.depth.next = self.depth_r.q.val();
        self.overhead.next = self.overhead_r.q.val();
        self.max_len.next = self.max_len_r.q.val();
        self.fill_less_depth.next = self.fill_less_depth_r.q.val();
        self.fill_less_ovh.next = self.fill_less_ovh_r.q.val();
        self.fill_less_depth_ovh.next = self.fill_less_depth_ovh_r.q.val();

        // the check, in the clock the write is presented
        self.csr.we.next = self.csr_we.val();
        self.csr.addr.next = self.csr_addr.val();
        self.csr.wdata.next = self.csr_wdata.val();
        self.kind_next.next = 0.into();
        if self.csr_we.val() & (self.csr_addr.val() == 0) {
            self.kind_next.next = 1.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 1) {
            self.kind_next.next = 2.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 2) {
            self.kind_next.next = 4.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 3) {
            self.kind_next.next = 8.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 4) {
            self.kind_next.next = 16.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 5) {
            self.kind_next.next = 32.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 16) {
            self.kind_next.next = 64.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 17) {
            self.kind_next.next = 128.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 18) {
            self.kind_next.next = 256.into();
        }
        if self.csr_we.val() & (self.csr_addr.val() == 19) {
            self.kind_next.next = 512.into();
        }
        self.kind.d.next = self.kind_next.val();
        self.unused_q_addr.next = self.csr.q_addr.val().any();
        self.fill_frac_fwd.next = self.fill_frac_r.q.val();
        if self.kind.q.val().get_bit(5) & self.csr.q_ok.val() {
            self.fill_frac_fwd.next = self.csr.q_wdata.val().get_bits::<16>(0);
        }
        self.scale_fwd.next = self.scale_r.q.val();
        if self.kind.q.val().get_bit(1) & self.csr.q_ok.val() {
            self.scale_fwd.next = self.csr.q_wdata.val().get_bits::<16>(0);
        }
        self.csr.ok.next = ((self.csr_addr.val() == 0) & !self.csr_wdata.val().get_bits::<12>(20).any())
            | ((self.csr_addr.val() == 1) & (self.csr_wdata.val().get_bits::<16>(0) > self.fill_frac_fwd.val()))
            | ((self.csr_addr.val() == 2) & !self.csr_wdata.val().get_bits::<12>(20).any())
            | ((self.csr_addr.val() == 3) & !self.csr_wdata.val().get_bits::<24>(8).any())
            | ((self.csr_addr.val() == 4) & self.csr_wdata.val().get_bits::<16>(0).any())
            | ((self.csr_addr.val() == 5) & !self.csr_wdata.val().get_bits::<16>(16).any()
                & (self.csr_wdata.val().get_bits::<16>(0) < self.scale_fwd.val()))
            | ((self.csr_addr.val() >= 16) & (self.csr_addr.val() < 20));

        // the held write: one enable per register, decoded from flip-flops
        self.held.next = self.csr.q_wdata.val();
        self.wdata.next = self.held.val();
        self.rejected.next = self.csr.q_we.val() & !self.csr.q_ok.val();
        self.cnt_load.next = self.kind.q.val().get_bits::<4>(6);
        self.we_fill.next = self.kind.q.val().get_bit(0) & self.csr.q_ok.val();
        self.we_scale.next = self.kind.q.val().get_bit(1) & self.csr.q_ok.val();
        self.we_depth.next = self.kind.q.val().get_bit(2) & self.csr.q_ok.val();
        self.we_overhead.next = self.kind.q.val().get_bit(3) & self.csr.q_ok.val();
        self.we_max_len.next = self.kind.q.val().get_bit(4) & self.csr.q_ok.val();
        self.we_fill_frac.next = self.kind.q.val().get_bit(5) & self.csr.q_ok.val();
        self.fills.next = self.we_scale.val() | self.we_depth.val();
        self.frac_write.next = self.we_fill_frac.val();
        self.d_fill.next = self.fill_r.q.val();
        if self.we_fill.val() {
            self.d_fill.next = self.held.val().get_bits::<20>(0);
        }
        self.d_depth.next = self.depth_r.q.val();
        if self.we_depth.val() {
            self.d_depth.next = self.held.val().get_bits::<20>(0);
        }
        self.fill_to.next = self.d_depth.val();
        self.d_overhead.next = self.overhead_r.q.val();
        if self.we_overhead.val() {
            self.d_overhead.next = self.held.val().get_bits::<8>(0);
        }
        self.frac_gap_r.d.next = self.frac_gap_r.q.val();
        if self.we_scale.val() {
            self.scale_r.d.next = self.held.val().get_bits::<16>(0);
            self.frac_gap_r.d.next = self.held.val().get_bits::<16>(0) - self.fill_frac_r.q.val();
        }
        if self.we_max_len.val() {
            self.max_len_r.d.next = self.held.val().get_bits::<16>(0);
        }
        if self.we_fill_frac.val() {
            self.fill_frac_r.d.next = self.held.val().get_bits::<16>(0);
            self.frac_gap_r.d.next = self.scale_r.q.val() - self.held.val().get_bits::<16>(0);
        }
        self.fill_r.d.next = self.d_fill.val();
        self.depth_r.d.next = self.d_depth.val();
        self.overhead_r.d.next = self.d_overhead.val();

        // the differences' new values: each write's outcome is its own carry chain from the write
        // data and the registers, and the write's decode only selects (it is as deep as a chain)
        self.wdata22.next = bit_cast::<22, 20>(self.held.val().get_bits::<20>(0));
        self.wdata8_22.next = bit_cast::<22, 8>(self.held.val().get_bits::<8>(0));
        self.fill22.next = bit_cast::<22, 20>(self.fill_r.q.val());
        self.depth22.next = bit_cast::<22, 20>(self.depth_r.q.val());
        self.ovh22.next = bit_cast::<22, 8>(self.overhead_r.q.val());
        self.fdo_fill.a.next = self.wdata22.val();
        self.fdo_fill.b.next = !self.depth22.val();
        self.fdo_fill.sub.next = self.ovh22.val();
        self.fdo_fill.cin.next = true;
        self.fdo_depth.a.next = self.fill22.val();
        self.fdo_depth.b.next = !self.wdata22.val();
        self.fdo_depth.sub.next = self.ovh22.val();
        self.fdo_depth.cin.next = true;
        self.fill_less_depth_r.d.next = self.fill_less_depth_r.q.val();
        self.fill_less_ovh_r.d.next = self.fill_less_ovh_r.q.val();
        self.fill_less_depth_ovh_r.d.next = self.fill_less_depth_ovh_r.q.val();
        if self.we_fill.val() {
            self.fill_less_depth_r.d.next = self.wdata22.val() - self.depth22.val();
            self.fill_less_ovh_r.d.next = self.wdata22.val() - self.ovh22.val();
            self.fill_less_depth_ovh_r.d.next = self.fdo_fill.out.val();
        }
        if self.we_depth.val() {
            self.fill_less_depth_r.d.next = self.fill22.val() - self.wdata22.val();
            self.fill_less_depth_ovh_r.d.next = self.fdo_depth.out.val();
        }
        if self.we_overhead.val() {
            self.fill_less_ovh_r.d.next = self.fill22.val() - self.wdata8_22.val();
            self.fill_less_depth_ovh_r.d.next = self.fill_less_depth_r.q.val() - self.wdata8_22.val();
        }
    }
}

crate::pin_io!(ShaperRegs;
    in: csr_we, csr_addr, csr_wdata;
    out: fill, fill_frac, scale, frac_gap, depth, overhead, max_len, fill_less_depth, fill_less_ovh,
        fill_less_depth_ovh, fills, fill_to, frac_write, wdata, rejected, cnt_load);
