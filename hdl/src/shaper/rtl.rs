//! RTL of the token-bucket shaper; the golden model is `model.rs`, semantics in `mod.rs`. The
//! registers, their checks and the write port are `ShaperRegs` (`regs.rs`).

use super::regs::ShaperRegs;
use crate::rtl_util::{AddSub, LateCounter};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

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
/// `FILL − DEPTH − OVERHEAD`) so that no outcome needs two chains in series. The cap's zero
/// remainder is a flag (`capped`) read where the remainder is read, so the remainder's
/// flip-flops are off the departure's path.
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
    /// The registers the switch port's eligibility look-ahead reads (`port::emu_ahead`); not
    /// pins of the block (its pins are `pin_io!`'s below).
    pub r_bucket: Signal<Out, Bits<20>>,
    pub r_carry: Signal<Out, Bit>,
    pub r_depth: Signal<Out, Bits<20>>,
    pub r_overhead: Signal<Out, Bits<8>>,
    pub r_max_len: Signal<Out, Bits<16>>,
    pub r_fill_less_ovh: Signal<Out, Bits<22>>,
    pub r_fill_less_depth: Signal<Out, Bits<22>>,
    pub r_fill_less_depth_ovh: Signal<Out, Bits<22>>,
    /// The registers, their checks and the differences kept with them (`regs.rs`).
    regs: ShaperRegs,
    /// The bucket in mixed radix (mod.rs): whole wire bytes and the remainder below `scale`.
    bucket: DFFWithInit<Bits<20>>,
    bucket_frac: DFF<Bits<16>>,
    /// The bucket was capped at the last edge, so the remainder is 0: it is zeroed where it is
    /// read (`frac`), and the flip-flops keep the refill's, off the departure's path (a
    /// synchronous reset of them is a net nextpnr-ice40 puts on a global buffer).
    capped: DFF<Bit>,
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
    /// A FILL_FRAC write's carry for the next clock: remainder + FILL_FRAC − SCALE ≥ 0.
    new_ff_carry: AddSub<18>,
    /// The next clock's carry without a write, for each way the remainder moves this clock:
    /// `frac + FILL_FRAC − gap` (no carry now) and `frac − 2·gap` (a carry now), their signs.
    carry_kept: AddSub<18>,
    carry_carried: AddSub<18>,
    /// ... and after a cap, which left no remainder: `FILL_FRAC − gap`.
    carry_capped: AddSub<18>,
    unused_carry_sums: Signal<Local, Bit>,
    unused_ff_carry: Signal<Local, Bit>,
    len22: Signal<Local, Bits<22>>,
    bucket22: Signal<Local, Bits<22>>,
    bad: Signal<Local, Bit>,
    elig: Signal<Local, Bit>,
    dep: Signal<Local, Bit>,
    /// The departure as the bucket takes it (none under a fill): `lead`, the head's length not
    /// above `MAX_LEN` and the eligibility's sign, so that the two chains on the head length
    /// meet in one gate.
    take: Signal<Local, Bit>,
    /// What of the departure needs no carry chain: a dequeue of a valid head of nonzero length,
    /// and no fill.
    lead: Signal<Local, Bit>,
    /// `head_len > MAX_LEN`.
    over_max: Signal<Local, Bit>,
    cap: Signal<Local, Bit>,
    /// The bucket's next value for each way the clock can end, made before the departure is
    /// known: without a departure (a fill wins; at the cap `DEPTH` and no remainder) and with
    /// one, each with its cap test. `take` only selects, the last gate after the chains on the
    /// head length.
    cap_kept: Signal<Local, Bit>,
    cap_charged: Signal<Local, Bit>,
    bucket_kept: Signal<Local, Bits<20>>,
    bucket_charged: Signal<Local, Bits<20>>,
    /// The next carry before the cap.
    carry_uncapped: Signal<Local, Bit>,
    /// The remainder after this clock's refill, uncapped (0 under a fill).
    frac_after: Signal<Local, Bits<16>>,
    /// The remainder: `bucket_frac`, or 0 after a cap.
    frac: Signal<Local, Bits<16>>,
    /// All ones, or 0 after a cap.
    frac_mask: Signal<Local, Bits<16>>,
    /// The sums' bits that nothing reads (the lint's `unused` convention).
    unused_sums: Signal<Local, Bit>,
}

impl Default for TokenShaper {
    fn default() -> Self {
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
            r_bucket: Default::default(),
            r_carry: Default::default(),
            r_depth: Default::default(),
            r_overhead: Default::default(),
            r_max_len: Default::default(),
            r_fill_less_ovh: Default::default(),
            r_fill_less_depth: Default::default(),
            r_fill_less_depth_ovh: Default::default(),
            regs: Default::default(),
            bucket: DFFWithInit::new(super::DEFAULT_DEPTH.into()),
            bucket_frac: Default::default(),
            capped: Default::default(),
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
            new_ff_carry: Default::default(),
            carry_kept: Default::default(),
            carry_carried: Default::default(),
            carry_capped: Default::default(),
            unused_carry_sums: Default::default(),
            unused_ff_carry: Default::default(),
            len22: Default::default(),
            bucket22: Default::default(),
            bad: Default::default(),
            elig: Default::default(),
            dep: Default::default(),
            take: Default::default(),
            lead: Default::default(),
            over_max: Default::default(),
            cap: Default::default(),
            cap_kept: Default::default(),
            cap_charged: Default::default(),
            bucket_kept: Default::default(),
            bucket_charged: Default::default(),
            carry_uncapped: Default::default(),
            frac_after: Default::default(),
            frac: Default::default(),
            frac_mask: Default::default(),
            unused_sums: Default::default(),
        }
    }
}

impl Logic for TokenShaper {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bucket, bucket_frac, capped, carry);
        clock!(self, clock, regs, c_sent, c_bad, c_violation, c_rejected);
        self.regs.csr_we.next = self.csr_we.val();
        self.regs.csr_addr.next = self.csr_addr.val();
        self.regs.csr_wdata.next = self.csr_wdata.val();
        self.len22.next = bit_cast::<22, 16>(self.head_len.val());
        self.bucket22.next = bit_cast::<22, 20>(self.bucket.q.val());
        self.wire_len.next = bit_cast::<17, 16>(self.head_len.val()) + bit_cast::<17, 8>(self.regs.overhead.val());
        self.over_max.next = self.head_len.val() > self.regs.max_len.val();
        self.bad.next = self.head_valid.val() & (!self.head_len.val().any() | self.over_max.val());
        // eligible: bucket − len − OVERHEAD ≥ 0, as bucket + !OVERHEAD + 1 − len
        self.room.a.next = self.bucket22.val();
        self.room.b.next = !bit_cast::<22, 8>(self.regs.overhead.val());
        self.room.sub.next = self.len22.val();
        self.room.cin.next = true;
        self.elig.next = self.head_valid.val() & !self.bad.val() & !self.room.out.val().get_bit(21);
        self.eligible.next = self.elig.val();
        self.bad_head.next = self.bad.val();
        self.tokens.next = bit_cast::<32, 20>(self.bucket.q.val());
        self.frac_mask.next = 0xFFFF.into();
        if self.capped.q.val() {
            self.frac_mask.next = 0.into();
        }
        self.frac.next = self.bucket_frac.q.val() & self.frac_mask.val();
        self.tokens_frac.next = self.frac.val();
        self.r_bucket.next = self.bucket.q.val();
        self.r_carry.next = self.carry.q.val();
        self.r_depth.next = self.regs.depth.val();
        self.r_overhead.next = self.regs.overhead.val();
        self.r_max_len.next = self.regs.max_len.val();
        self.r_fill_less_ovh.next = self.regs.fill_less_ovh.val();
        self.r_fill_less_depth.next = self.regs.fill_less_depth.val();
        self.r_fill_less_depth_ovh.next = self.regs.fill_less_depth_ovh.val();

        // every outcome of the refill (charge, then refill with the carry, then cap), side by side
        self.kept.a.next = self.bucket22.val();
        self.kept.b.next = bit_cast::<22, 20>(self.regs.fill.val());
        self.kept.sub.next = 0.into();
        self.kept.cin.next = self.carry.q.val();
        self.kept_cap.a.next = self.bucket22.val();
        self.kept_cap.b.next = self.regs.fill_less_depth.val();
        self.kept_cap.sub.next = 0.into();
        self.kept_cap.cin.next = self.carry.q.val();
        self.charged.a.next = self.bucket22.val();
        self.charged.b.next = self.regs.fill_less_ovh.val();
        self.charged.sub.next = self.len22.val();
        self.charged.cin.next = self.carry.q.val();
        self.charged_cap.a.next = self.bucket22.val();
        self.charged_cap.b.next = self.regs.fill_less_depth_ovh.val();
        self.charged_cap.sub.next = self.len22.val();
        self.charged_cap.cin.next = self.carry.q.val();
        self.unused_sums.next = self.kept.out.val().get_bits::<2>(20).any() | self.charged.out.val().get_bits::<2>(20).any()
            | self.kept_cap.out.val().get_bits::<21>(0).any() | self.charged_cap.out.val().get_bits::<21>(0).any()
            | self.room.out.val().get_bits::<21>(0).any();
        // each way the clock can end, capped (`bucket_kept`, `bucket_charged`); `take` selects
        self.cap_kept.next = !self.kept_cap.out.val().get_bit(21);
        self.cap_charged.next = !self.charged_cap.out.val().get_bit(21);
        self.bucket_kept.next = self.kept.out.val().get_bits::<20>(0);
        if self.cap_kept.val() {
            self.bucket_kept.next = self.regs.depth.val();
        }
        if self.regs.fills.val() {
            self.bucket_kept.next = self.regs.fill_to.val();
        }
        self.bucket_charged.next = self.charged.out.val().get_bits::<20>(0);
        if self.cap_charged.val() {
            self.bucket_charged.next = self.regs.depth.val();
        }
        self.dep.next = self.deq.val() & self.elig.val();
        self.lead.next = self.deq.val() & self.head_valid.val() & self.head_len.val().any() & !self.regs.fills.val();
        self.take.next = self.lead.val() & !self.over_max.val() & !self.room.out.val().get_bit(21);
        self.cap.next = self.cap_kept.val();
        self.bucket.d.next = self.bucket_kept.val();
        if self.take.val() {
            self.cap.next = self.cap_charged.val();
            self.bucket.d.next = self.bucket_charged.val();
        }
        // the remainder carries a byte when frac + FILL_FRAC ≥ SCALE, i.e. frac ≥ SCALE − FILL_FRAC
        // (`frac_gap`, kept with the two registers); a fill leaves none
        self.frac_after.next = self.bucket_frac.q.val() + self.regs.fill_frac.val();
        if self.carry.q.val() {
            self.frac_after.next = self.bucket_frac.q.val() - self.regs.frac_gap.val();
        }
        if self.capped.q.val() {
            self.frac_after.next = self.regs.fill_frac.val();
        }
        if self.regs.fills.val() {
            self.frac_after.next = 0.into();
        }
        self.c_sent.inc.next = self.dep.val();
        self.c_bad.inc.next = self.deq.val() & self.bad.val();
        self.c_violation.inc.next = self.deq.val() & !self.elig.val() & !self.bad.val();

        // the next clock's carry: the remainder after this refill against the next gap,
        // `SCALE − FILL_FRAC`, one chain for each way the remainder moves (`carry_kept`,
        // `carry_carried`: no chain behind `frac_after`'s), or, when a FILL_FRAC write changes the
        // gap, remainder + FILL_FRAC ≥ SCALE; 0 after a cap or a fill, which leave no remainder
        // (the gap is never 0)
        self.new_ff_carry.a.next = bit_cast::<18, 16>(self.frac_after.val());
        self.new_ff_carry.b.next = bit_cast::<18, 16>(self.regs.wdata.val().get_bits::<16>(0));
        self.new_ff_carry.sub.next = bit_cast::<18, 16>(self.regs.scale.val());
        self.new_ff_carry.cin.next = false;
        self.unused_ff_carry.next = self.new_ff_carry.out.val().get_bits::<17>(0).any();
        self.carry_kept.a.next = bit_cast::<18, 16>(self.bucket_frac.q.val());
        self.carry_kept.b.next = bit_cast::<18, 16>(self.regs.fill_frac.val());
        self.carry_kept.sub.next = bit_cast::<18, 16>(self.regs.frac_gap.val());
        self.carry_kept.cin.next = false;
        self.carry_carried.a.next = bit_cast::<18, 16>(self.bucket_frac.q.val());
        self.carry_carried.b.next = 0.into();
        self.carry_carried.sub.next = bit_cast::<18, 16>(self.regs.frac_gap.val()) << 1;
        self.carry_carried.cin.next = false;
        self.carry_capped.a.next = bit_cast::<18, 16>(self.regs.fill_frac.val());
        self.carry_capped.b.next = 0.into();
        self.carry_capped.sub.next = bit_cast::<18, 16>(self.regs.frac_gap.val());
        self.carry_capped.cin.next = false;
        self.unused_carry_sums.next = self.carry_kept.out.val().get_bits::<17>(0).any() | self.carry_carried.out.val().get_bits::<17>(0).any()
            | self.carry_capped.out.val().get_bits::<17>(0).any();
        self.carry_uncapped.next = !self.carry_kept.out.val().get_bit(17);
        if self.carry.q.val() {
            self.carry_uncapped.next = !self.carry_carried.out.val().get_bit(17);
        }
        if self.capped.q.val() {
            self.carry_uncapped.next = !self.carry_capped.out.val().get_bit(17);
        }
        if self.regs.frac_write.val() {
            self.carry_uncapped.next = !self.new_ff_carry.out.val().get_bit(17);
        }
        if self.regs.fills.val() {
            self.carry_uncapped.next = false;
        }
        self.carry.d.next = self.carry_uncapped.val() & !self.cap.val();
        self.capped.d.next = self.cap.val();
        self.bucket_frac.d.next = self.frac_after.val();

        // counters count a clock late; a preset lands with its write
        self.c_rejected.inc.next = self.regs.rejected.val();
        self.c_sent.load.next = self.regs.cnt_load.val().get_bit(0);
        self.c_bad.load.next = self.regs.cnt_load.val().get_bit(1);
        self.c_violation.load.next = self.regs.cnt_load.val().get_bit(2);
        self.c_rejected.load.next = self.regs.cnt_load.val().get_bit(3);
        self.c_sent.load_val.next = self.regs.wdata.val();
        self.c_bad.load_val.next = self.regs.wdata.val();
        self.c_violation.load_val.next = self.regs.wdata.val();
        self.c_rejected.load_val.next = self.regs.wdata.val();
        self.cnt_sent.next = self.c_sent.value.val();
        self.cnt_bad.next = self.c_bad.value.val();
        self.cnt_violation.next = self.c_violation.value.val();
        self.cnt_csr_rejected.next = self.c_rejected.value.val();
    }
}

crate::pin_io!(TokenShaper;
    in: csr_we, csr_addr, csr_wdata, head_valid, head_len, deq;
    out: eligible, bad_head, wire_len, tokens, tokens_frac, cnt_sent, cnt_bad, cnt_violation, cnt_csr_rejected);
