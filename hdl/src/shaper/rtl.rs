//! RTL of the token-bucket shaper; the golden model is `model.rs`, semantics in `mod.rs`.
//! Register addresses are the literals of [`super::csr`].

use crate::rtl_util::{AddSub, CsrStage, LateCounter};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `shaper/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::FILL == 0 && csr::SCALE == 1 && csr::DEPTH == 2 && csr::OVERHEAD == 3 && csr::MAX_LEN == 4
    && csr::FILL_FRAC == 5 && csr::CNT_BASE == 16 && csr::REGISTERS[csr::idx::CNT_BASE].count == 4
);

// The bucket's width (`BUCKET_BITS`) as the literals below: 20-bit bucket, `FILL` and `DEPTH`,
// and 22-bit two's complement sums (a sum is at most `bucket + FILL + 1` < 2^21, at least
// `−DEPTH − 255 − 65,535` > −2^21).
const _: () = assert!(super::BUCKET_BITS == 20);

/// The token bucket. The bucket's update is a loop (bucket → eligibility → charge, refill, cap →
/// bucket), so it is built for a short one: every outcome of the clock (charged or not, capped
/// or not) is one 22-bit carry chain from registers and the head length, side by side
/// (`AddSub`), and the decision only selects among them. What that takes: the bucket 20 bits
/// wide (`FILL`, `DEPTH` < 2^20), the remainder's carry a register (computed a clock ahead),
/// and three differences kept with the registers (`FILL − DEPTH`, `FILL − OVERHEAD`,
/// `FILL − DEPTH − OVERHEAD`) so that no outcome needs two chains in series.
#[derive(LogicBlock)]
pub struct TokenShaper {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub head_valid: Signal<In, Bit>,
    pub head_len: Signal<In, Bits<16>>,
    pub deq: Signal<In, Bit>,
    pub eligible: Signal<Out, Bit>,
    pub bad_head: Signal<Out, Bit>,
    pub wire_len: Signal<Out, Bits<17>>,
    pub tokens: Signal<Out, Bits<32>>,
    pub tokens_frac: Signal<Out, Bits<16>>,
    pub cnt_sent: Signal<Out, Bits<32>>,
    pub cnt_bad: Signal<Out, Bits<32>>,
    pub cnt_violation: Signal<Out, Bits<32>>,
    pub cnt_csr_rejected: Signal<Out, Bits<32>>,
    fill: DFFWithInit<Bits<20>>,
    fill_frac: DFFWithInit<Bits<16>>,
    scale: DFFWithInit<Bits<16>>,
    /// SCALE − FILL_FRAC (positive: the register checks keep FILL_FRAC < SCALE).
    frac_gap: DFFWithInit<Bits<16>>,
    depth: DFFWithInit<Bits<20>>,
    overhead: DFFWithInit<Bits<8>>,
    max_len: DFFWithInit<Bits<16>>,
    /// `FILL − DEPTH`, `FILL − OVERHEAD` and `FILL − DEPTH − OVERHEAD` (22-bit two's
    /// complement), written with the registers they come from.
    fill_less_depth: DFFWithInit<Bits<22>>,
    fill_less_ovh: DFFWithInit<Bits<22>>,
    fill_less_depth_ovh: DFFWithInit<Bits<22>>,
    /// The bucket in mixed radix (mod.rs): whole wire bytes and the remainder below `scale`.
    bucket: DFFWithInit<Bits<20>>,
    bucket_frac: DFF<Bits<16>>,
    /// The remainder carries a byte this clock (`bucket_frac ≥ SCALE − FILL_FRAC`), made a clock
    /// ahead.
    carry: DFF<Bit>,
    c_sent: LateCounter,
    c_bad: LateCounter,
    c_violation: LateCounter,
    c_rejected: LateCounter,
    /// `bucket − len − OVERHEAD`: its sign is the eligibility.
    room: AddSub<22>,
    /// The refill without a departure and its cap test (`bucket + FILL + carry − DEPTH`)...
    kept: AddSub<22>,
    kept_cap: AddSub<22>,
    /// ... and with one (`bucket + FILL + carry − len − OVERHEAD`, less `DEPTH` for the test).
    charged: AddSub<22>,
    charged_cap: AddSub<22>,
    /// `FILL − DEPTH − OVERHEAD` after a FILL or a DEPTH write (`FILL + !DEPTH + 1 − OVERHEAD`).
    fdo_fill: AddSub<22>,
    fdo_depth: AddSub<22>,
    wdata22: Signal<Local, Bits<22>>,
    wdata8_22: Signal<Local, Bits<22>>,
    fill22: Signal<Local, Bits<22>>,
    depth22: Signal<Local, Bits<22>>,
    ovh22: Signal<Local, Bits<22>>,
    d_fill: Signal<Local, Bits<20>>,
    d_depth: Signal<Local, Bits<20>>,
    d_overhead: Signal<Local, Bits<8>>,
    /// A FILL_FRAC write's carry for the next clock: remainder + FILL_FRAC − SCALE ≥ 0.
    new_ff_carry: AddSub<18>,
    unused_ff_carry: Signal<Local, Bit>,
    we_fill: Signal<Local, Bit>,
    we_scale: Signal<Local, Bit>,
    we_depth: Signal<Local, Bit>,
    we_overhead: Signal<Local, Bit>,
    we_max_len: Signal<Local, Bit>,
    we_fill_frac: Signal<Local, Bit>,
    len22: Signal<Local, Bits<22>>,
    bucket22: Signal<Local, Bits<22>>,
    bad: Signal<Local, Bit>,
    elig: Signal<Local, Bit>,
    dep: Signal<Local, Bit>,
    cap: Signal<Local, Bit>,
    /// The remainder after this clock's refill, uncapped.
    frac_after: Signal<Local, Bits<16>>,
    /// A SCALE or DEPTH write fills the bucket (remainder 0).
    fills: Signal<Local, Bit>,
    /// The register-write port's pipeline register.
    csr: CsrStage<8>,
    /// The held write passed its check (it is applied this clock); its data.
    held_ok: Signal<Local, Bit>,
    wdata: Signal<Local, Bits<32>>,
    /// FILL_FRAC and SCALE as a write presented this clock is checked against (the held
    /// write's value where it sets them).
    fill_frac_fwd: Signal<Local, Bits<16>>,
    scale_fwd: Signal<Local, Bits<16>>,
    /// The sums' bits that nothing reads (the lint's `unused` convention).
    unused_sums: Signal<Local, Bit>,
}

impl Default for TokenShaper {
    fn default() -> Self {
        use super::*;
        let c22 = |v: i64| DFFWithInit::new(((v as u64) & ((1 << 22) - 1)).into());
        let (fill, depth, ovh) = (DEFAULT_FILL as i64, DEFAULT_DEPTH as i64, DEFAULT_OVERHEAD as i64);
        TokenShaper {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            head_valid: Default::default(),
            head_len: Default::default(),
            deq: Default::default(),
            eligible: Default::default(),
            bad_head: Default::default(),
            wire_len: Default::default(),
            tokens: Default::default(),
            tokens_frac: Default::default(),
            cnt_sent: Default::default(),
            cnt_bad: Default::default(),
            cnt_violation: Default::default(),
            cnt_csr_rejected: Default::default(),
            fill: DFFWithInit::new(DEFAULT_FILL.into()),
            fill_frac: DFFWithInit::new(DEFAULT_FILL_FRAC.into()),
            scale: DFFWithInit::new(DEFAULT_SCALE.into()),
            frac_gap: DFFWithInit::new((DEFAULT_SCALE - DEFAULT_FILL_FRAC).into()),
            depth: DFFWithInit::new(DEFAULT_DEPTH.into()),
            overhead: DFFWithInit::new(DEFAULT_OVERHEAD.into()),
            max_len: DFFWithInit::new(DEFAULT_MAX_LEN.into()),
            fill_less_depth: c22(fill - depth),
            fill_less_ovh: c22(fill - ovh),
            fill_less_depth_ovh: c22(fill - depth - ovh),
            bucket: DFFWithInit::new(DEFAULT_DEPTH.into()),
            bucket_frac: Default::default(),
            carry: Default::default(),
            c_sent: Default::default(),
            c_bad: Default::default(),
            c_violation: Default::default(),
            c_rejected: Default::default(),
            room: Default::default(),
            kept: Default::default(),
            kept_cap: Default::default(),
            charged: Default::default(),
            charged_cap: Default::default(),
            fdo_fill: Default::default(),
            fdo_depth: Default::default(),
            wdata22: Default::default(),
            wdata8_22: Default::default(),
            fill22: Default::default(),
            depth22: Default::default(),
            ovh22: Default::default(),
            d_fill: Default::default(),
            d_depth: Default::default(),
            d_overhead: Default::default(),
            new_ff_carry: Default::default(),
            unused_ff_carry: Default::default(),
            we_fill: Default::default(),
            we_scale: Default::default(),
            we_depth: Default::default(),
            we_overhead: Default::default(),
            we_max_len: Default::default(),
            we_fill_frac: Default::default(),
            len22: Default::default(),
            bucket22: Default::default(),
            bad: Default::default(),
            elig: Default::default(),
            dep: Default::default(),
            cap: Default::default(),
            frac_after: Default::default(),
            fills: Default::default(),
            csr: Default::default(),
            held_ok: Default::default(),
            wdata: Default::default(),
            fill_frac_fwd: Default::default(),
            scale_fwd: Default::default(),
            unused_sums: Default::default(),
        }
    }
}

impl Logic for TokenShaper {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fill, fill_frac, scale, frac_gap, depth, overhead, max_len, fill_less_depth,
            fill_less_ovh, fill_less_depth_ovh, bucket, bucket_frac, carry);
        clock!(self, clock, csr, c_sent, c_bad, c_violation, c_rejected);
        self.len22.next = bit_cast::<22, 16>(self.head_len.val());
        self.bucket22.next = bit_cast::<22, 20>(self.bucket.q.val());
        self.wire_len.next = bit_cast::<17, 16>(self.head_len.val()) + bit_cast::<17, 8>(self.overhead.q.val());
        self.bad.next = self.head_valid.val() & (!self.head_len.val().any() | (self.head_len.val() > self.max_len.q.val()));
        // eligible: bucket − len − OVERHEAD ≥ 0, as bucket + !OVERHEAD + 1 − len
        self.room.a.next = self.bucket22.val();
        self.room.b.next = !bit_cast::<22, 8>(self.overhead.q.val());
        self.room.sub.next = self.len22.val();
        self.room.cin.next = true;
        self.elig.next = self.head_valid.val() & !self.bad.val() & !self.room.out.val().get_bit(21);
        self.eligible.next = self.elig.val();
        self.bad_head.next = self.bad.val();
        self.tokens.next = bit_cast::<32, 20>(self.bucket.q.val());
        self.tokens_frac.next = self.bucket_frac.q.val();

        // every outcome of the refill (charge, then refill with the carry, then cap), side by side
        self.kept.a.next = self.bucket22.val();
        self.kept.b.next = bit_cast::<22, 20>(self.fill.q.val());
        self.kept.sub.next = 0.into();
        self.kept.cin.next = self.carry.q.val();
        self.kept_cap.a.next = self.bucket22.val();
        self.kept_cap.b.next = self.fill_less_depth.q.val();
        self.kept_cap.sub.next = 0.into();
        self.kept_cap.cin.next = self.carry.q.val();
        self.charged.a.next = self.bucket22.val();
        self.charged.b.next = self.fill_less_ovh.q.val();
        self.charged.sub.next = self.len22.val();
        self.charged.cin.next = self.carry.q.val();
        self.charged_cap.a.next = self.bucket22.val();
        self.charged_cap.b.next = self.fill_less_depth_ovh.q.val();
        self.charged_cap.sub.next = self.len22.val();
        self.charged_cap.cin.next = self.carry.q.val();
        self.unused_sums.next = self.kept.out.val().get_bits::<2>(20).any() | self.charged.out.val().get_bits::<2>(20).any()
            | self.kept_cap.out.val().get_bits::<21>(0).any() | self.charged_cap.out.val().get_bits::<21>(0).any()
            | self.room.out.val().get_bits::<21>(0).any();
        // the decision selects: an eligible departure takes the charged outcome; at the cap
        // (the sum ≥ DEPTH) the bucket is full, DEPTH bytes and no remainder
        self.dep.next = self.deq.val() & self.elig.val();
        self.cap.next = !self.kept_cap.out.val().get_bit(21);
        self.bucket.d.next = self.kept.out.val().get_bits::<20>(0);
        if self.dep.val() {
            self.cap.next = !self.charged_cap.out.val().get_bit(21);
            self.bucket.d.next = self.charged.out.val().get_bits::<20>(0);
        }
        // the remainder carries a byte when frac + FILL_FRAC ≥ SCALE, i.e. frac ≥ SCALE − FILL_FRAC
        // (`frac_gap`, kept with the two registers)
        self.frac_after.next = self.bucket_frac.q.val() + self.fill_frac.q.val();
        if self.carry.q.val() {
            self.frac_after.next = self.bucket_frac.q.val() - self.frac_gap.q.val();
        }
        self.bucket_frac.d.next = self.frac_after.val();
        if self.cap.val() {
            self.bucket.d.next = self.depth.q.val();
            self.bucket_frac.d.next = 0.into();
        }
        self.c_sent.inc.next = self.dep.val();
        self.c_bad.inc.next = self.deq.val() & self.bad.val();
        self.c_violation.inc.next = self.deq.val() & !self.elig.val() & !self.bad.val();

        // register writes (csr module) in two clocks (`CsrStage`): a write is checked in the clock
        // it is presented and applied in the next, so the checks' compares (SCALE and FILL_FRAC
        // against each other) stay off the bucket's path. A check reads the write held in the
        // stage where it sets the register compared against, so a write is judged as it is
        // applied. Range checks test the high bits (a 32-bit compare with a constant is a carry
        // chain in yosys).
        self.csr.we.next = self.csr_we.val();
        self.csr.addr.next = self.csr_addr.val();
        self.csr.wdata.next = self.csr_wdata.val();
        self.held_ok.next = self.csr.q_we.val() & self.csr.q_ok.val();
        self.fill_frac_fwd.next = self.fill_frac.q.val();
        if self.held_ok.val() & (self.csr.q_addr.val() == 5) {
            self.fill_frac_fwd.next = self.csr.q_wdata.val().get_bits::<16>(0);
        }
        self.scale_fwd.next = self.scale.q.val();
        if self.held_ok.val() & (self.csr.q_addr.val() == 1) {
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
        self.wdata.next = self.csr.q_wdata.val();
        self.we_fill.next = self.held_ok.val() & (self.csr.q_addr.val() == 0);
        self.we_scale.next = self.held_ok.val() & (self.csr.q_addr.val() == 1);
        self.we_depth.next = self.held_ok.val() & (self.csr.q_addr.val() == 2);
        self.we_overhead.next = self.held_ok.val() & (self.csr.q_addr.val() == 3);
        self.we_max_len.next = self.held_ok.val() & (self.csr.q_addr.val() == 4);
        self.we_fill_frac.next = self.held_ok.val() & (self.csr.q_addr.val() == 5);
        self.d_fill.next = self.fill.q.val();
        if self.we_fill.val() {
            self.d_fill.next = self.wdata.val().get_bits::<20>(0);
        }
        self.d_depth.next = self.depth.q.val();
        if self.we_depth.val() {
            self.d_depth.next = self.wdata.val().get_bits::<20>(0);
        }
        self.d_overhead.next = self.overhead.q.val();
        if self.we_overhead.val() {
            self.d_overhead.next = self.wdata.val().get_bits::<8>(0);
        }
        self.frac_gap.d.next = self.frac_gap.q.val();
        if self.we_scale.val() {
            self.scale.d.next = self.wdata.val().get_bits::<16>(0);
            self.frac_gap.d.next = self.wdata.val().get_bits::<16>(0) - self.fill_frac.q.val();
        }
        if self.we_max_len.val() {
            self.max_len.d.next = self.wdata.val().get_bits::<16>(0);
        }
        if self.we_fill_frac.val() {
            self.fill_frac.d.next = self.wdata.val().get_bits::<16>(0);
            self.frac_gap.d.next = self.scale.q.val() - self.wdata.val().get_bits::<16>(0);
        }
        self.fill.d.next = self.d_fill.val();
        self.depth.d.next = self.d_depth.val();
        self.overhead.d.next = self.d_overhead.val();
        // the differences' new values: each write's outcome is its own carry chain from the write
        // data and the registers, and the write's decode only selects (it is as deep as a chain)
        self.wdata22.next = bit_cast::<22, 20>(self.wdata.val().get_bits::<20>(0));
        self.wdata8_22.next = bit_cast::<22, 8>(self.wdata.val().get_bits::<8>(0));
        self.fill22.next = bit_cast::<22, 20>(self.fill.q.val());
        self.depth22.next = bit_cast::<22, 20>(self.depth.q.val());
        self.ovh22.next = bit_cast::<22, 8>(self.overhead.q.val());
        self.fdo_fill.a.next = self.wdata22.val();
        self.fdo_fill.b.next = !self.depth22.val();
        self.fdo_fill.sub.next = self.ovh22.val();
        self.fdo_fill.cin.next = true;
        self.fdo_depth.a.next = self.fill22.val();
        self.fdo_depth.b.next = !self.wdata22.val();
        self.fdo_depth.sub.next = self.ovh22.val();
        self.fdo_depth.cin.next = true;
        self.fill_less_depth.d.next = self.fill_less_depth.q.val();
        self.fill_less_ovh.d.next = self.fill_less_ovh.q.val();
        self.fill_less_depth_ovh.d.next = self.fill_less_depth_ovh.q.val();
        if self.we_fill.val() {
            self.fill_less_depth.d.next = self.wdata22.val() - self.depth22.val();
            self.fill_less_ovh.d.next = self.wdata22.val() - self.ovh22.val();
            self.fill_less_depth_ovh.d.next = self.fdo_fill.out.val();
        }
        if self.we_depth.val() {
            self.fill_less_depth.d.next = self.fill22.val() - self.wdata22.val();
            self.fill_less_depth_ovh.d.next = self.fdo_depth.out.val();
        }
        if self.we_overhead.val() {
            self.fill_less_ovh.d.next = self.fill22.val() - self.wdata8_22.val();
            self.fill_less_depth_ovh.d.next = self.fill_less_depth.q.val() - self.wdata8_22.val();
        }
        // the next clock's carry: the remainder after this refill against the next gap,
        // `SCALE − FILL_FRAC`, which a FILL_FRAC write changes (then: remainder + FILL_FRAC ≥
        // SCALE, one chain); 0 after a cap or a fill, which leave no remainder (the gap is never 0)
        self.fills.next = self.we_scale.val() | self.we_depth.val();
        self.new_ff_carry.a.next = bit_cast::<18, 16>(self.frac_after.val());
        self.new_ff_carry.b.next = bit_cast::<18, 16>(self.wdata.val().get_bits::<16>(0));
        self.new_ff_carry.sub.next = bit_cast::<18, 16>(self.scale.q.val());
        self.new_ff_carry.cin.next = false;
        self.unused_ff_carry.next = self.new_ff_carry.out.val().get_bits::<17>(0).any();
        self.carry.d.next = self.frac_after.val() >= self.frac_gap.q.val();
        if self.we_fill_frac.val() {
            self.carry.d.next = !self.new_ff_carry.out.val().get_bit(17);
        }
        if self.cap.val() | self.fills.val() {
            self.carry.d.next = false;
        }
        if self.fills.val() {
            self.bucket.d.next = self.d_depth.val();
            self.bucket_frac.d.next = 0.into();
        }
        self.c_rejected.inc.next = self.csr.q_we.val() & !self.csr.q_ok.val();
        self.c_sent.load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == 16);
        self.c_bad.load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == 17);
        self.c_violation.load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == 18);
        self.c_rejected.load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == 19);
        self.c_sent.load_val.next = self.wdata.val();
        self.c_bad.load_val.next = self.wdata.val();
        self.c_violation.load_val.next = self.wdata.val();
        self.c_rejected.load_val.next = self.wdata.val();
        self.cnt_sent.next = self.c_sent.value.val();
        self.cnt_bad.next = self.c_bad.value.val();
        self.cnt_violation.next = self.c_violation.value.val();
        self.cnt_csr_rejected.next = self.c_rejected.value.val();
    }
}

crate::pin_io!(TokenShaper;
    in: csr_we, csr_addr, csr_wdata, head_valid, head_len, deq;
    out: eligible, bad_head, wire_len, tokens, tokens_frac, cnt_sent, cnt_bad, cnt_violation, cnt_csr_rejected);
