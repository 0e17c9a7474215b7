//! The outcomes of the decision stage's clock (README, *Latency*): for each, the occupancy after
//! it and the flags the next arrival and the next dequeue are judged by in it, side by side; the
//! decision then selects one outcome's set.
//!
//! The byte count is kept in halves, `B = Bh·2^16 + Bl`, so no chain is 34 bits long (README,
//! *Byte count in halves*). A byte flag is the sign of `X·2^16 + Bl + (changes)`, where the
//! changes (an outcome's `δ`, the next lengths, `K`'s or `CAP`'s low half) move the low part by
//! less than three times 2^16 either way, so only whether the high difference `X` (`Bh − Kh`,
//! `Bh − Ch`, `Bh − 2^16` or `Bh`) is below −4, in −4..3, or above 3 matters: `X` clamped to
//! −4..4 is the chain's top four bits, and each flag is one 20-bit chain
//! ([`NextBytes`]). [`HighHalf`] keeps `Bh`, `Bh − Ch` and `Bh − Kh` exactly, each moved by the
//! decided outcome's carry out of the low half. [`ByteDeltas`] is the input stage's part: each
//! outcome's `δ` with `K`'s and `CAP`'s low halves folded in. Packets: the count moves by 0, +1
//! or −1, so [`NextPkts`] compares it with `K` and `CAP` and their neighbours, kept as registers.

use crate::rtl_util::AddSub;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

/// The input stage's byte changes, registered in the clock the lengths are presented, for the
/// decision stage's four outcomes `e·2 + d` (admitted `e`, dequeued `d`; all 20-bit two's
/// complement): `δ` (0, `−Z`, `L`, `L − Z`), `−δ`, and `δ − Cl − 1` and `δ − Kl − 1` kept
/// negated, with `Cl`, `Kl` the low halves of `CAP` and `K` in force in the clock after the
/// next (the flags the decision stage makes next clock are for the one after). A `K` or `CAP`
/// write presented this clock is in force then: its chains are made from the write's data
/// beside the ones from the registers, and the write's decode selects after them.
#[derive(LogicBlock, Default)]
pub struct ByteDeltas {
    pub clock: Signal<In, Clock>,
    pub next_len: Signal<In, Bits<16>>,
    pub deq_len: Signal<In, Bits<16>>,
    /// `K`'s and `CAP`'s low halves in force next clock; a write of either presented this
    /// clock, and its data's low half.
    pub k_low: Signal<In, Bits<16>>,
    pub cap_low: Signal<In, Bits<16>>,
    pub k_write: Signal<In, Bit>,
    pub cap_write: Signal<In, Bit>,
    pub w_low: Signal<In, Bits<16>>,
    /// `δ`, `−δ`, `Cl + 1 − δ`, `Kl + 1 − δ` per outcome, registered.
    pub d: [Signal<Out, Bits<20>>; 4],
    pub nd: [Signal<Out, Bits<20>>; 4],
    pub ne_cap: [Signal<Out, Bits<20>>; 4],
    pub ne_k: [Signal<Out, Bits<20>>; 4],
    d_r: [DFF<Bits<20>>; 4],
    nd_r: [DFF<Bits<20>>; 4],
    ne_cap_r: [DFF<Bits<20>>; 4],
    ne_k_r: [DFF<Bits<20>>; 4],
    /// `Cl + 1 − δ`, `Kl + 1 − δ` and `W + 1 − δ` (the write's).
    cap_ad: [AddSub<20>; 4],
    k_ad: [AddSub<20>; 4],
    w_ad: [AddSub<20>; 4],
    l20: Signal<Local, Bits<20>>,
    z20: Signal<Local, Bits<20>>,
}

impl Logic for ByteDeltas {
    #[hdl_gen]
    fn update(&mut self) {
        self.l20.next = bit_cast::<20, 16>(self.next_len.val());
        self.z20.next = bit_cast::<20, 16>(self.deq_len.val());
        for o in 0..4 {
            self.d_r[o].clock.next = self.clock.val();
            self.nd_r[o].clock.next = self.clock.val();
            self.ne_cap_r[o].clock.next = self.clock.val();
            self.ne_k_r[o].clock.next = self.clock.val();
            self.d[o].next = self.d_r[o].q.val();
            self.nd[o].next = self.nd_r[o].q.val();
            self.ne_cap[o].next = self.ne_cap_r[o].q.val();
            self.ne_k[o].next = self.ne_k_r[o].q.val();
            self.cap_ad[o].a.next = bit_cast::<20, 16>(self.cap_low.val());
            self.k_ad[o].a.next = bit_cast::<20, 16>(self.k_low.val());
            self.w_ad[o].a.next = bit_cast::<20, 16>(self.w_low.val());
            self.cap_ad[o].cin.next = true;
            self.k_ad[o].cin.next = true;
            self.w_ad[o].cin.next = true;
            // `− δ`: plus `Z` when the outcome dequeues, minus `L` when it admits
            self.cap_ad[o].b.next = 0.into();
            self.k_ad[o].b.next = 0.into();
            self.w_ad[o].b.next = 0.into();
            self.cap_ad[o].sub.next = 0.into();
            self.k_ad[o].sub.next = 0.into();
            self.w_ad[o].sub.next = 0.into();
            if (o & 1) == 1 {
                self.cap_ad[o].b.next = self.z20.val();
                self.k_ad[o].b.next = self.z20.val();
                self.w_ad[o].b.next = self.z20.val();
            }
            if o >= 2 {
                self.cap_ad[o].sub.next = self.l20.val();
                self.k_ad[o].sub.next = self.l20.val();
                self.w_ad[o].sub.next = self.l20.val();
            }
            self.ne_cap_r[o].d.next = self.cap_ad[o].out.val();
            self.ne_k_r[o].d.next = self.k_ad[o].out.val();
            if self.cap_write.val() {
                self.ne_cap_r[o].d.next = self.w_ad[o].out.val();
            }
            if self.k_write.val() {
                self.ne_k_r[o].d.next = self.w_ad[o].out.val();
            }
        }
        self.d_r[0].d.next = 0.into();
        self.nd_r[0].d.next = 0.into();
        self.d_r[1].d.next = !self.z20.val() + 1;
        self.nd_r[1].d.next = self.z20.val();
        self.d_r[2].d.next = self.l20.val();
        self.nd_r[2].d.next = !self.l20.val() + 1;
        self.d_r[3].d.next = self.l20.val() - self.z20.val();
        self.nd_r[3].d.next = self.z20.val() - self.l20.val();
    }
}

/// One outcome's low half and byte flags: each flag is the sign of one 20-bit chain whose top
/// four bits are a clamped high difference (`HighHalf`) and whose low sixteen are `Bl`.
#[derive(LogicBlock, Default)]
pub struct NextBytes {
    /// The low half now, and the high differences clamped: `Bh − Ch`, `Bh − Kh`, `Bh − 2^16`,
    /// `Bh` (`Ch`, `Kh` the high halves in force next clock).
    pub bl: Signal<In, Bits<16>>,
    pub cl_cap: Signal<In, Bits<4>>,
    pub cl_k: Signal<In, Bits<4>>,
    pub cl_ovf: Signal<In, Bits<4>>,
    pub cl_deq: Signal<In, Bits<4>>,
    /// The outcome's `δ`, `−δ`, `Cl + 1 − δ`, `Kl + 1 − δ` (`ByteDeltas`).
    pub d: Signal<In, Bits<20>>,
    pub nd: Signal<In, Bits<20>>,
    pub ne_cap: Signal<In, Bits<20>>,
    pub ne_k: Signal<In, Bits<20>>,
    /// The lengths of the arrival and the dequeue presented this clock.
    pub next_len: Signal<In, Bits<16>>,
    pub next_deq_len: Signal<In, Bits<16>>,
    /// The low half after the outcome, and its carry into the high half (0, +1 as `01`, −1 as
    /// `11`).
    pub bl_out: Signal<Out, Bits<16>>,
    pub carry: Signal<Out, Bits<2>>,
    /// The next arrival: bytes with it `> CAP`, bytes `> K`, bytes with it `≥ 2^32`.
    pub full: Signal<Out, Bit>,
    pub above: Signal<Out, Bit>,
    pub overflow: Signal<Out, Bit>,
    /// The next dequeue's length is at most the bytes queued.
    pub deq_fits: Signal<Out, Bit>,
    bl20: Signal<Local, Bits<20>>,
    l20: Signal<Local, Bits<20>>,
    lo: Signal<Local, Bits<20>>,
    /// `B + δ + L − CAP − 1`, `B + δ − K − 1`, `B + δ + L − 2^32`, `B + δ − Z` (high parts
    /// clamped): a flag is set when its sum is not negative.
    cap_sum: AddSub<20>,
    k_sum: Signal<Local, Bits<20>>,
    ovf_sum: AddSub<20>,
    deq_sum: AddSub<20>,
    /// The chains' bits that are not read (Verilator's lint wants them read).
    unused_bits: Signal<Local, Bit>,
}

impl Logic for NextBytes {
    #[hdl_gen]
    fn update(&mut self) {
        self.bl20.next = bit_cast::<20, 16>(self.bl.val());
        self.l20.next = bit_cast::<20, 16>(self.next_len.val());
        self.lo.next = self.bl20.val() + self.d.val();
        self.bl_out.next = self.lo.val().get_bits::<16>(0);
        self.carry.next = self.lo.val().get_bits::<2>(16);
        self.cap_sum.a.next = (bit_cast::<20, 4>(self.cl_cap.val()) << 16) | self.bl20.val();
        self.cap_sum.b.next = self.l20.val();
        self.cap_sum.sub.next = self.ne_cap.val();
        self.cap_sum.cin.next = false;
        self.full.next = !self.cap_sum.out.val().get_bit(19);
        self.k_sum.next = ((bit_cast::<20, 4>(self.cl_k.val()) << 16) | self.bl20.val()) - self.ne_k.val();
        self.above.next = !self.k_sum.val().get_bit(19);
        self.ovf_sum.a.next = (bit_cast::<20, 4>(self.cl_ovf.val()) << 16) | self.bl20.val();
        self.ovf_sum.b.next = self.l20.val();
        self.ovf_sum.sub.next = self.nd.val();
        self.ovf_sum.cin.next = false;
        self.overflow.next = !self.ovf_sum.out.val().get_bit(19);
        self.deq_sum.a.next = (bit_cast::<20, 4>(self.cl_deq.val()) << 16) | self.bl20.val();
        self.deq_sum.b.next = self.d.val();
        self.deq_sum.sub.next = bit_cast::<20, 16>(self.next_deq_len.val());
        self.deq_sum.cin.next = false;
        self.deq_fits.next = !self.deq_sum.out.val().get_bit(19);
        self.unused_bits.next = self.lo.val().get_bits::<2>(18).any() | self.cap_sum.out.val().get_bits::<19>(0).any()
            | self.k_sum.val().get_bits::<19>(0).any() | self.ovf_sum.out.val().get_bits::<19>(0).any()
            | self.deq_sum.out.val().get_bits::<19>(0).any();
    }
}

/// `clamp4(x + pend + p)` for `p` = −1, 0, +1, where `x` is 17-bit two's complement, `pend`
/// a carry (0, +1 as `01`, −1 as `11`) and `clamp4(v)` is `v` in −4..3, else 4 or −4 by its
/// sign (4-bit two's complement). With `x` in −16..15 the sum is made on six bits, else it is
/// ±4 by `x`'s sign: no chain longer than six bits. Combinational.
#[derive(LogicBlock)]
pub struct Clamps {
    pub x: Signal<In, Bits<17>>,
    pub pend: Signal<In, Bits<2>>,
    /// Indexed by `p + 1`.
    pub out: [Signal<Out, Bits<4>>; 3],
    near_zero: Signal<Local, Bit>,
    /// `x`'s low six bits plus `pend`, then plus each `p`.
    x6: Signal<Local, Bits<6>>,
    v: [Signal<Local, Bits<6>>; 3],
    /// −1, 0, +1 (6-bit two's complement).
    adds: [Constant<Bits<6>>; 3],
}

impl Default for Clamps {
    fn default() -> Self {
        Clamps {
            x: Default::default(),
            pend: Default::default(),
            out: Default::default(),
            near_zero: Default::default(),
            x6: Default::default(),
            v: Default::default(),
            adds: [Constant::new(0x3F.into()), Constant::new(0.into()), Constant::new(1.into())],
        }
    }
}

impl Logic for Clamps {
    #[hdl_gen]
    fn update(&mut self) {
        self.near_zero.next = !self.x.val().get_bits::<13>(4).any() | self.x.val().get_bits::<13>(4).all();
        self.x6.next = self.x.val().get_bits::<6>(0) + bit_cast::<6, 2>(self.pend.val());
        if self.pend.val().get_bit(1) {
            self.x6.next = self.x.val().get_bits::<6>(0) - 1;
        }
        for p in 0..3 {
            self.v[p].next = self.x6.val() + self.adds[p].val();
            self.out[p].next = self.v[p].val().get_bits::<4>(0);
            // at least 4, at most −5 (six-bit two's complement)
            if !self.v[p].val().get_bit(5) & self.v[p].val().get_bits::<3>(2).any() {
                self.out[p].next = 0x4.into();
            }
            if self.v[p].val().get_bit(5) & !self.v[p].val().get_bits::<3>(2).all() {
                self.out[p].next = 0xC.into();
            }
            if !self.near_zero.val() {
                self.out[p].next = 0x4.into();
                if self.x.val().get_bit(16) {
                    self.out[p].next = 0xC.into();
                }
            }
        }
    }
}

/// The byte count's high half `Bh`, and `Bh − Ch` and `Bh − Kh` (17-bit two's complement, `Ch`
/// and `Kh` the high halves of `CAP` and `K` in force next clock), with the decided outcome's
/// carry applied a clock late: the decision only registers its carry (`pend`), each value is
/// kept as `stored + pend`, and the next clock folds `pend` into `stored`, a chain on
/// flip-flops. So no decision reaches a chain or these registers' enables. A `CAP` or `K` write
/// presented this clock remakes its difference from the write's high half. The clamps
/// `NextBytes` reads are registers made for each value `pend` can take next clock (`Clamps`,
/// from the stored values and this clock's `pend`, or from `Bh − W` for a write), `pend`
/// selecting.
#[derive(LogicBlock)]
pub struct HighHalf {
    pub clock: Signal<In, Clock>,
    /// The decided outcome's carry (`NextBytes::carry`).
    pub carry: Signal<In, Bits<2>>,
    /// A `CAP` or `K` write presented this clock, and its data's high half.
    pub cap_write: Signal<In, Bit>,
    pub k_write: Signal<In, Bit>,
    pub wdata_hi: Signal<In, Bits<16>>,
    pub bh: Signal<Out, Bits<16>>,
    pub cl_cap: Signal<Out, Bits<4>>,
    pub cl_k: Signal<Out, Bits<4>>,
    pub cl_ovf: Signal<Out, Bits<4>>,
    pub cl_deq: Signal<Out, Bits<4>>,
    pend: DFF<Bits<2>>,
    bh_s: DFF<Bits<16>>,
    dc_s: DFF<Bits<17>>,
    dk_s: DFF<Bits<17>>,
    /// The clamps of `Bh − Ch`, `Bh − Kh`, `Bh − 2^16` and `Bh` for each `pend` (−1, 0, +1).
    c_cap: [DFF<Bits<4>>; 3],
    c_k: [DFF<Bits<4>>; 3],
    c_ovf: [DFFWithInit<Bits<4>>; 3],
    c_deq: [DFF<Bits<4>>; 3],
    clamp_cap: Clamps,
    clamp_k: Clamps,
    clamp_w: Clamps,
    clamp_ovf: Clamps,
    clamp_deq: Clamps,
    pend16: Signal<Local, Bits<16>>,
    pend17: Signal<Local, Bits<17>>,
    bh17: Signal<Local, Bits<17>>,
    w17: Signal<Local, Bits<17>>,
    /// `Bh` now; for a write, `Bh − W` after the edge and before `pend` is folded in.
    bh_now: Signal<Local, Bits<16>>,
    w_diff: AddSub<17>,
    w_diff_held: Signal<Local, Bits<17>>,
}

impl Default for HighHalf {
    fn default() -> Self {
        HighHalf {
            clock: Default::default(),
            carry: Default::default(),
            cap_write: Default::default(),
            k_write: Default::default(),
            wdata_hi: Default::default(),
            bh: Default::default(),
            cl_cap: Default::default(),
            cl_k: Default::default(),
            cl_ovf: Default::default(),
            cl_deq: Default::default(),
            pend: Default::default(),
            bh_s: Default::default(),
            dc_s: Default::default(),
            dk_s: Default::default(),
            c_cap: Default::default(),
            c_k: Default::default(),
            // `Bh − 2^16` is −65,536 at reset: clamped, −4
            c_ovf: std::array::from_fn(|_| DFFWithInit::new(0xC.into())),
            c_deq: Default::default(),
            clamp_cap: Default::default(),
            clamp_k: Default::default(),
            clamp_w: Default::default(),
            clamp_ovf: Default::default(),
            clamp_deq: Default::default(),
            pend16: Default::default(),
            pend17: Default::default(),
            bh17: Default::default(),
            w17: Default::default(),
            bh_now: Default::default(),
            w_diff: Default::default(),
            w_diff_held: Default::default(),
        }
    }
}

impl Logic for HighHalf {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pend, bh_s, dc_s, dk_s);
        for p in 0..3 {
            self.c_cap[p].clock.next = self.clock.val();
            self.c_k[p].clock.next = self.clock.val();
            self.c_ovf[p].clock.next = self.clock.val();
            self.c_deq[p].clock.next = self.clock.val();
        }
        // `pend` sign-extended
        self.pend16.next = bit_cast::<16, 2>(self.pend.q.val());
        self.pend17.next = bit_cast::<17, 2>(self.pend.q.val());
        if self.pend.q.val().get_bit(1) {
            self.pend16.next = 0xFFFF.into();
            self.pend17.next = 0x1FFFF.into();
        }
        self.bh_now.next = self.bh_s.q.val() + self.pend16.val();
        self.bh.next = self.bh_now.val();
        self.bh17.next = bit_cast::<17, 16>(self.bh_s.q.val());
        self.w17.next = bit_cast::<17, 16>(self.wdata_hi.val());
        // fold `pend` in; the decision's carry waits in `pend`; a write's difference
        self.pend.d.next = self.carry.val();
        self.bh_s.d.next = self.bh_now.val();
        self.dc_s.d.next = self.dc_s.q.val() + self.pend17.val();
        self.dk_s.d.next = self.dk_s.q.val() + self.pend17.val();
        self.w_diff.a.next = self.bh17.val();
        self.w_diff.b.next = self.pend17.val();
        self.w_diff.sub.next = self.w17.val();
        self.w_diff.cin.next = false;
        if self.cap_write.val() {
            self.dc_s.d.next = self.w_diff.out.val();
        }
        if self.k_write.val() {
            self.dk_s.d.next = self.w_diff.out.val();
        }
        // the clamps after the edge, for each carry that can be pending then
        self.w_diff_held.next = self.bh17.val() - self.w17.val();
        self.clamp_cap.x.next = self.dc_s.q.val();
        self.clamp_k.x.next = self.dk_s.q.val();
        self.clamp_w.x.next = self.w_diff_held.val();
        self.clamp_ovf.x.next = self.bh17.val() | 0x10000;
        self.clamp_deq.x.next = self.bh17.val();
        self.clamp_cap.pend.next = self.pend.q.val();
        self.clamp_k.pend.next = self.pend.q.val();
        self.clamp_w.pend.next = self.pend.q.val();
        self.clamp_ovf.pend.next = self.pend.q.val();
        self.clamp_deq.pend.next = self.pend.q.val();
        for p in 0..3 {
            self.c_cap[p].d.next = self.clamp_cap.out[p].val();
            self.c_k[p].d.next = self.clamp_k.out[p].val();
            if self.cap_write.val() {
                self.c_cap[p].d.next = self.clamp_w.out[p].val();
            }
            if self.k_write.val() {
                self.c_k[p].d.next = self.clamp_w.out[p].val();
            }
            self.c_ovf[p].d.next = self.clamp_ovf.out[p].val();
            self.c_deq[p].d.next = self.clamp_deq.out[p].val();
        }
        // the clamps now: the ones for the pending carry
        self.cl_cap.next = self.c_cap[1].q.val();
        self.cl_k.next = self.c_k[1].q.val();
        self.cl_ovf.next = self.c_ovf[1].q.val();
        self.cl_deq.next = self.c_deq[1].q.val();
        if self.pend.q.val() == 1 {
            self.cl_cap.next = self.c_cap[2].q.val();
            self.cl_k.next = self.c_k[2].q.val();
            self.cl_ovf.next = self.c_ovf[2].q.val();
            self.cl_deq.next = self.c_deq[2].q.val();
        }
        if self.pend.q.val() == 3 {
            self.cl_cap.next = self.c_cap[0].q.val();
            self.cl_k.next = self.c_k[0].q.val();
            self.cl_ovf.next = self.c_ovf[0].q.val();
            self.cl_deq.next = self.c_deq[0].q.val();
        }
    }
}

/// The packet count's flags for each outcome `e·2 + d` (admitted `e`, dequeued `d`): the count
/// moves by 0, −1, +1, 0, so each flag is a compare of the count now with `K`, `CAP` or a
/// neighbour of theirs (`K + 1`, `CAP − 1` saturated at 0, registers), one chain each.
#[derive(LogicBlock, Default)]
pub struct NextPkts {
    pub pkts: Signal<In, Bits<32>>,
    /// `K`, `K + 1`, `CAP` and `CAP − 1` (0 when `CAP` is 0), in force next clock.
    pub k: Signal<In, Bits<32>>,
    pub k_plus_1: Signal<In, Bits<33>>,
    pub cap: Signal<In, Bits<32>>,
    pub cap_minus_1: Signal<In, Bits<32>>,
    /// The count after the outcome.
    pub next: [Signal<Out, Bits<32>>; 4],
    /// The next arrival: the count `≥ CAP`, `> K`.
    pub full: [Signal<Out, Bit>; 4],
    pub above: [Signal<Out, Bit>; 4],
    /// The count after the outcome is not 0 (the next dequeue has a packet to take).
    pub nonzero: [Signal<Out, Bit>; 4],
    held_full: Signal<Local, Bit>,
    held_above: Signal<Local, Bit>,
    held_nonzero: Signal<Local, Bit>,
}

impl Logic for NextPkts {
    #[hdl_gen]
    fn update(&mut self) {
        // held (0, and 3: one in, one out): the count as it is
        self.held_full.next = self.pkts.val() >= self.cap.val();
        self.held_above.next = self.pkts.val() > self.k.val();
        self.held_nonzero.next = self.pkts.val().any();
        self.next[0].next = self.pkts.val();
        self.full[0].next = self.held_full.val();
        self.above[0].next = self.held_above.val();
        self.nonzero[0].next = self.held_nonzero.val();
        self.next[3].next = self.pkts.val();
        self.full[3].next = self.held_full.val();
        self.above[3].next = self.held_above.val();
        self.nonzero[3].next = self.held_nonzero.val();
        // dequeued (1): count − 1, and the count is at least 1
        self.next[1].next = self.pkts.val() - 1;
        self.full[1].next = self.pkts.val() > self.cap.val();
        self.above[1].next = bit_cast::<33, 32>(self.pkts.val()) > self.k_plus_1.val();
        self.nonzero[1].next = self.pkts.val() != 1;
        // admitted (2): count + 1 (never wraps: the byte count would first)
        self.next[2].next = self.pkts.val() + 1;
        self.full[2].next = self.pkts.val() >= self.cap_minus_1.val();
        self.above[2].next = self.pkts.val() >= self.k.val();
        self.nonzero[2].next = true;
    }
}
