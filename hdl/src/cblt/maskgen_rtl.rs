//! RTL of the CB-LT encoder's mask generator (CB-LT §6.4): degree and neighbour selection, at
//! most one xorshift32 draw per clock. The model is [`super::encoder::MaskGenerator`], with the
//! cumulative draw count of `super::encoder::CodedSymbol::draws`.

use crate::rtl_util::{c, BlockRam};
use rust_hdl::prelude::*;

use super::table::DegreeTable;

/// Masks for one message, one per `push`. The degree draw latches `u` and scans `T[1..k−1]` in
/// the table RAM, one entry per clock with the RAM's output registered before the compare, to
/// the first `u < T[j]` (else `d = k`: all-ones, no more draws); then top-`w`-bit index draws,
/// one per clock, rejecting `≥ k` and duplicates, until `d` bits are set.
///
/// Contract with the owner: `k`, `seed` and `limit` change only while `on` is low and no
/// `load_seed` clock runs; `load_seed` is high for the start's setup clocks (two or more), and
/// `start` in its last (the PRNG takes the seed in the setup and its first xorshift with `start`).
/// `room` says a push may be made this clock. A push carries the mask (`mask`), the message's
/// draw count up to it (`draws`) and the push's number mod 16 (`slot`). After `limit` pushes
/// (0: no limit) or a `stop`, `on` falls. The table RAM is written through `tbl_*` (entry 0 is
/// unused) and holds the default table of `k_max` from reset.
#[derive(LogicBlock)]
pub struct MaskGen<const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub k: Signal<In, Bits<7>>,
    pub seed: Signal<In, Bits<32>>,
    pub limit: Signal<In, Bits<32>>,
    pub load_seed: Signal<In, Bit>,
    pub start: Signal<In, Bit>,
    pub stop: Signal<In, Bit>,
    pub room: Signal<In, Bit>,
    pub tbl_we: Signal<In, Bit>,
    pub tbl_addr: Signal<In, Bits<6>>,
    pub tbl_data: Signal<In, Bits<17>>,
    pub on: Signal<Out, Bit>,
    pub push: Signal<Out, Bit>,
    pub mask: Signal<Out, Bits<KM>>,
    pub draws: Signal<Out, Bits<32>>,
    pub slot: Signal<Out, Bits<4>>,
    /// KM as a 7-bit value (masks are KM bits wide: source j is bit j).
    km: Constant<Bits<7>>,
    ones_m: Constant<Bits<KM>>,
    /// The degree table: `T[j]` at address j, read one entry per clock by the degree scan.
    deg_table: BlockRam<17, 6>,
    mg_on: DFF<Bit>,
    mg_index: DFF<Bit>,
    /// Degree scan: `u` of this symbol's degree draw, and the entry whose `T[j]` the table
    /// RAM returns this clock.
    mg_scan: DFF<Bit>,
    mg_u: DFF<Bits<17>>,
    mg_j: DFF<Bits<7>>,
    /// The scan's compare stage: entry `sc_j` taken from the table RAM's output (`sc_v`: it
    /// holds one), compared as it is taken: `sc_hit` is u < T[sc_j], `sc_end` is sc_j = k − 1,
    /// the last entry. The scan decides from these flip-flops while the RAM reads the next
    /// entry, so it still takes one entry per clock, one clock longer in all.
    sc_hit: DFF<Bit>,
    sc_end: DFF<Bit>,
    sc_j: DFF<Bits<7>>,
    sc_v: DFF<Bit>,
    /// The PRNG and the index each draw would take, a clock ahead.
    prng: IndexPrng<KM>,
    /// The next accepted index is the last the degree needs (`mg_have + 1 == mg_need`).
    mg_last: DFF<Bit>,
    /// The all-ones mask of k bits, derived from k while idle (a start takes at least one
    /// setup clock).
    full_r: DFF<Bits<KM>>,
    mg_mask: DFF<Bits<KM>>,
    mg_need: DFF<Bits<7>>,
    mg_have: DFF<Bits<7>>,
    mg_draws: DFF<Bits<32>>,
    mg_count: DFF<Bits<32>>,
    /// `limit − 1` and `limit ≠ 0`, registered: the push that reaches the limit is then an
    /// equality of two registers, not an increment and then a compare. `limit` changes only
    /// while idle, and a start pushes its first mask clocks after its setup.
    lim_m1: DFF<Bits<32>>,
    lim_on: DFF<Bit>,
    /// The PRNG steps this clock (a draw).
    step: Signal<Local, Bit>,
    j1: Signal<Local, Bits<7>>,
    have1: Signal<Local, Bits<7>>,
    have2: Signal<Local, Bits<7>>,
    full: Signal<Local, Bits<KM>>,
    mg_go: Signal<Local, Bit>,
}

impl<const KM: usize> MaskGen<KM> {
    /// A generator for k ≤ `k_max` ≤ KM ≤ 64, its table RAM holding `k_max`'s default table.
    pub fn new(k_max: usize) -> Self {
        assert!((1..=KM).contains(&k_max) && KM <= super::K_MAX, "k_max = {k_max} needs masks of KM ≥ k_max bits (KM = {KM}, at most 64)");
        let table = DegreeTable::default_for(k_max).expect("k_max in range");
        MaskGen {
            clock: Default::default(),
            k: Default::default(),
            seed: Default::default(),
            limit: Default::default(),
            load_seed: Default::default(),
            start: Default::default(),
            stop: Default::default(),
            room: Default::default(),
            tbl_we: Default::default(),
            tbl_addr: Default::default(),
            tbl_data: Default::default(),
            on: Default::default(),
            push: Default::default(),
            mask: Default::default(),
            draws: Default::default(),
            slot: Default::default(),
            km: c(KM as u64),
            ones_m: c(crate::cycle::mask(KM as u32)),
            deg_table: (0..64).map(|j| Bits::<17>::from(if j == 0 { 0 } else { table.entry(j) } as u64)).into(),
            mg_on: Default::default(),
            mg_index: Default::default(),
            mg_scan: Default::default(),
            mg_u: Default::default(),
            mg_j: Default::default(),
            sc_hit: Default::default(),
            sc_end: Default::default(),
            sc_j: Default::default(),
            sc_v: Default::default(),
            prng: Default::default(),
            mg_last: Default::default(),
            full_r: Default::default(),
            mg_mask: Default::default(),
            mg_need: Default::default(),
            mg_have: Default::default(),
            mg_draws: Default::default(),
            mg_count: Default::default(),
            lim_m1: Default::default(),
            lim_on: Default::default(),
            step: Default::default(),
            j1: Default::default(),
            have1: Default::default(),
            have2: Default::default(),
            full: Default::default(),
            mg_go: Default::default(),
        }
    }
}

impl<const KM: usize> Logic for MaskGen<KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, mg_on, mg_index, mg_scan, mg_u, mg_j, sc_hit, sc_end, sc_j, sc_v, mg_last, full_r,
            mg_mask, mg_need, mg_have, mg_draws, mg_count, lim_m1, lim_on
        );
        self.deg_table.read_clock.next = self.clock.val();
        self.deg_table.write_clock.next = self.clock.val();
        self.deg_table.write_enable.next = self.tbl_we.val();
        self.deg_table.write_address.next = self.tbl_addr.val();
        self.deg_table.write_data.next = self.tbl_data.val();
        self.on.next = self.mg_on.q.val();
        self.slot.next = self.mg_count.q.val().get_bits::<4>(0);
        self.prng.clock.next = self.clock.val();
        self.prng.k.next = self.k.val();
        self.prng.seed.next = self.seed.val();
        self.prng.load_seed.next = self.load_seed.val();
        self.prng.start.next = self.start.val();
        self.step.next = false;
        // degree: the first j in 1..k−1 with u < T[j], else k. The draw clock latches u and asks
        // the table RAM for T[1]; the scan then compares each entry a clock after the RAM returns
        // it, from a register, while the RAM reads the next (the payload XOR of a symbol takes
        // ⌈d·S/W⌉ clocks, so the scan hides behind it).
        self.j1.next = self.mg_j.q.val() + 1;
        self.have1.next = self.mg_have.q.val() + 1;
        self.have2.next = self.mg_have.q.val() + 2;
        self.full.next = self.ones_m.val();
        if self.k.val() != self.km.val() {
            self.full.next = !(self.ones_m.val() << self.k.val().get_bits::<6>(0));
        }
        self.full_r.d.next = self.full.val();
        self.mg_go.next = self.mg_on.q.val() & self.room.val();
        self.push.next = false;
        self.mask.next = self.full_r.q.val();
        self.draws.next = self.mg_draws.q.val() + 1;
        if self.mg_scan.q.val() {
            // a full mask from the scan: the degree draw was the last
            self.draws.next = self.mg_draws.q.val();
        }
        if self.mg_go.val() & self.mg_scan.q.val() {
            // scanning: T[mg_j] is on the RAM's output, T[sc_j] in the compare stage
            if self.sc_v.q.val() & self.sc_hit.q.val() {
                self.mg_scan.d.next = false;
                self.sc_v.d.next = false;
                self.mg_index.d.next = true;
                self.mg_mask.d.next = 0.into();
                self.mg_need.d.next = self.sc_j.q.val();
                self.mg_last.d.next = self.sc_j.q.val() == 1;
                self.mg_have.d.next = 0.into();
            } else if self.sc_v.q.val() & self.sc_end.q.val() {
                self.mg_scan.d.next = false;
                self.sc_v.d.next = false;
                self.push.next = true;
            } else {
                // take T[mg_j] into the compare stage and read the next entry
                self.sc_hit.d.next = self.mg_u.q.val() < self.deg_table.read_data.val();
                self.sc_end.d.next = self.j1.val() == self.k.val();
                self.sc_j.d.next = self.mg_j.q.val();
                self.sc_v.d.next = true;
                self.mg_j.d.next = self.j1.val();
            }
        }
        if self.mg_go.val() & !self.mg_scan.q.val() {
            self.step.next = true;
            self.mg_draws.d.next = self.mg_draws.q.val() + 1;
            if !self.mg_index.q.val() {
                // the degree draw: k = 1 has no entries to scan (degree k)
                if self.k.val() == 1 {
                    self.push.next = true;
                } else {
                    self.mg_scan.d.next = true;
                    self.mg_u.d.next = self.prng.u.val();
                    self.mg_j.d.next = 1.into();
                    self.sc_v.d.next = false;
                }
            } else if self.prng.fresh.val() {
                self.mg_mask.d.next = self.mg_mask.q.val() | self.prng.oh.val();
                self.mg_have.d.next = self.have1.val();
                self.mg_last.d.next = self.have2.val() == self.mg_need.q.val();
                self.mask.next = self.mg_mask.q.val() | self.prng.oh.val();
                if self.mg_last.q.val() {
                    self.push.next = true;
                    self.mg_index.d.next = false;
                }
            }
        }
        // the table RAM's address, whatever the scan decides: a scan that goes on reads the next
        // entry and one that stops leaves a read nobody takes; a stalled scan reads its entry
        // again; outside a scan it reads T[1], the first entry a scan compares
        self.deg_table.read_address.next = 1.into();
        if self.mg_scan.q.val() {
            self.deg_table.read_address.next = self.mg_j.q.val().get_bits::<6>(0);
            if self.mg_go.val() {
                self.deg_table.read_address.next = self.j1.val().get_bits::<6>(0);
            }
        }
        self.lim_m1.d.next = self.limit.val() - 1;
        self.lim_on.d.next = self.limit.val().any();
        if self.push.val() {
            self.mg_count.d.next = self.mg_count.q.val() + 1;
            if self.lim_on.q.val() & (self.mg_count.q.val() == self.lim_m1.q.val()) {
                self.mg_on.d.next = false;
            }
        }
        // the start (the PRNG takes the seed in its setup and its first xorshift with it)
        if self.start.val() {
            self.mg_on.d.next = true;
            self.mg_index.d.next = false;
            self.mg_scan.d.next = false;
            self.mg_draws.d.next = 0.into();
            self.mg_count.d.next = 0.into();
        }
        if self.stop.val() {
            self.mg_on.d.next = false;
            self.mg_index.d.next = false;
            self.mg_scan.d.next = false;
        }
        // the PRNG steps with a draw, and its duplicate test reads the mask as it will be
        self.prng.step.next = self.step.val();
        self.prng.mask_next.next = self.mg_mask.d.val();
    }
}

/// The encoder's xorshift32 (the codec's `prng`) with the index draw its next output gives,
/// made a clock ahead. In a clock with `step`, `u` is the draw (bits 31:16 of the output, as
/// the degree draw takes them), and `oh` and `fresh` are the index draw (top `w = ⌈log2 k⌉`
/// bits, one-hot, 0 past KM) and whether it is below k and not in the mask as it was at the
/// clock before (the mask is given as it will be, `mask_next`). The PRNG takes `seed` in every
/// `load_seed` clock and its first xorshift with `start` (the setup's last clock); `k` changes
/// only while no draw can follow in two clocks.
#[derive(LogicBlock)]
pub struct IndexPrng<const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub k: Signal<In, Bits<7>>,
    pub seed: Signal<In, Bits<32>>,
    pub load_seed: Signal<In, Bit>,
    pub start: Signal<In, Bit>,
    pub step: Signal<In, Bit>,
    pub mask_next: Signal<In, Bits<KM>>,
    pub u: Signal<Out, Bits<17>>,
    pub oh: Signal<Out, Bits<KM>>,
    pub fresh: Signal<Out, Bit>,
    one_m: Constant<Bits<KM>>,
    /// The PRNG's next output, xorshift32 of its state, kept in place of the state: a draw
    /// reads a register, and the next xorshift is computed off the draw's path.
    nx: DFF<Bits<32>>,
    /// The top six bits of `nx`'s xorshift (those an index draw takes), kept beside `nx`: a
    /// draw's next index comes from a register, not through a xorshift. Made from `nx` as it
    /// will be (its xorshift once or twice); after a start it is stale for two clocks, within
    /// the setup (`nx` takes the seed in the setup's first clock).
    nx_t6: DFF<Bits<6>>,
    /// The index `nx` draws as a one-hot (0 past KM) and whether it is below k: the draw's
    /// shifts and compare are made as `nx` is, a clock ahead of the acceptance test. They use k
    /// as it is now: k changes only while idle, and the first index draw comes clocks after
    /// the start's setup and the degree scan, by when both are current.
    nx_oh: DFF<Bits<KM>>,
    nx_lt: DFF<Bit>,
    /// The index in `nx_oh` is already in the mask (`mask_next & nx_oh` is not empty), made
    /// from both as they will be: the duplicate test is a flip-flop when the draw reads it.
    nx_dup: DFF<Bit>,
    /// The index the draw takes if the PRNG holds (`ix_hold`, from `nx`) and if it steps
    /// (`ix_step`, from `nx_t6`), each with its bound against k, registered from `nx` and
    /// `nx_t6` as they will be: the step selects one (`idx`) just before the one-hot.
    ix_hold: DFF<Bits<6>>,
    ix_step: DFF<Bits<6>>,
    lt_hold: DFF<Bit>,
    lt_step: DFF<Bit>,
    /// The index draw's shift (6 − w), registered from k: the draws' shifts read it a clock
    /// behind k, so k's compares are off their path. k changes only while idle and a start's
    /// own clock draws no index (see `nx_oh`), so the shift is current at the first draw.
    idx_sh_r: DFF<Bits<3>>,
    idx_sh: Signal<Local, Bits<3>>,
    x1: Signal<Local, Bits<32>>,
    x2: Signal<Local, Bits<32>>,
    x3: Signal<Local, Bits<32>>,
    /// The top six bits of `x3`'s xorshift, through bits 31:21 of its first step (`y1`; the
    /// second step leaves those bits as they are), and whether `nx` moves to `x3` this clock
    /// (a draw or the start).
    y1: Signal<Local, Bits<11>>,
    y3: Signal<Local, Bits<6>>,
    nx_adv: Signal<Local, Bit>,
    /// The next clock's `nx`.
    nx_next: Signal<Local, Bits<32>>,
    idx: Signal<Local, Bits<6>>,
}

impl<const KM: usize> Default for IndexPrng<KM> {
    fn default() -> Self {
        IndexPrng {
            clock: Default::default(),
            k: Default::default(),
            seed: Default::default(),
            load_seed: Default::default(),
            start: Default::default(),
            step: Default::default(),
            mask_next: Default::default(),
            u: Default::default(),
            oh: Default::default(),
            fresh: Default::default(),
            one_m: crate::rtl_util::c(1),
            nx: Default::default(),
            nx_t6: Default::default(),
            nx_oh: Default::default(),
            nx_lt: Default::default(),
            nx_dup: Default::default(),
            ix_hold: Default::default(),
            ix_step: Default::default(),
            lt_hold: Default::default(),
            lt_step: Default::default(),
            idx_sh_r: Default::default(),
            idx_sh: Default::default(),
            x1: Default::default(),
            x2: Default::default(),
            x3: Default::default(),
            y1: Default::default(),
            y3: Default::default(),
            nx_adv: Default::default(),
            nx_next: Default::default(),
            idx: Default::default(),
        }
    }
}

impl<const KM: usize> Logic for IndexPrng<KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, nx, nx_t6, nx_oh, nx_lt, nx_dup, ix_hold, ix_step, lt_hold, lt_step, idx_sh_r);
        self.u.next = bit_cast::<17, 16>(self.nx.q.val().get_bits::<16>(16));
        self.oh.next = self.nx_oh.q.val();
        self.fresh.next = self.nx_lt.q.val() & !self.nx_dup.q.val();
        // index draws keep the top w = ⌈log2 k⌉ bits: the top 6 shifted right by 6 − w
        self.idx_sh.next = 0.into();
        if self.k.val() <= 32 {
            self.idx_sh.next = 1.into();
        }
        if self.k.val() <= 16 {
            self.idx_sh.next = 2.into();
        }
        if self.k.val() <= 8 {
            self.idx_sh.next = 3.into();
        }
        if self.k.val() <= 4 {
            self.idx_sh.next = 4.into();
        }
        if self.k.val() <= 2 {
            self.idx_sh.next = 5.into();
        }
        self.idx_sh_r.d.next = self.idx_sh.val();
        self.x1.next = self.nx.q.val() ^ (self.nx.q.val() << 13);
        self.x2.next = self.x1.val() ^ (self.x1.val() >> 17);
        self.x3.next = self.x2.val() ^ (self.x2.val() << 5);
        // a step and the start move `nx` to its xorshift; the setup loads the seed (`nx` holds
        // it when the start comes, so its xorshift is the first output)
        self.nx_next.next = self.nx.q.val();
        if self.step.val() {
            self.nx_next.next = self.x3.val();
        }
        if self.load_seed.val() {
            self.nx_next.next = self.seed.val();
        }
        if self.start.val() {
            self.nx_next.next = self.x3.val();
        }
        self.nx_adv.next = self.step.val() | self.start.val();
        self.nx.d.next = self.nx_next.val();
        // xorshift32 on bits 31:21 only: x ^= x << 13 (bit i from i and i − 13), x ^= x >> 17
        // (no change above bit 14), x ^= x << 5 (bits 31:26 from 31:26 and 26:21). The
        // xorshift comes from a register, and the index precompute below selects only by
        // `step`, so the start stays off it.
        self.y1.next = self.x3.val().get_bits::<11>(21) ^ self.x3.val().get_bits::<11>(8);
        self.y3.next = self.y1.val().get_bits::<6>(5) ^ self.y1.val().get_bits::<6>(0);
        self.nx_t6.d.next = self.x3.val().get_bits::<6>(26);
        if self.nx_adv.val() {
            self.nx_t6.d.next = self.y3.val();
        }
        // the index draw's one-hot and bound, from `nx` as it will be. After a start they are
        // stale for one clock, which is the degree draw's (a step): no index is drawn there.
        self.ix_hold.d.next = self.nx.d.val().get_bits::<6>(26) >> self.idx_sh_r.q.val();
        self.ix_step.d.next = self.nx_t6.d.val() >> self.idx_sh_r.q.val();
        self.lt_hold.d.next = bit_cast::<7, 6>(self.ix_hold.d.val()) < self.k.val();
        self.lt_step.d.next = bit_cast::<7, 6>(self.ix_step.d.val()) < self.k.val();
        self.idx.next = self.ix_hold.q.val();
        self.nx_lt.d.next = self.lt_hold.q.val();
        if self.step.val() {
            self.idx.next = self.ix_step.q.val();
            self.nx_lt.d.next = self.lt_step.q.val();
        }
        self.nx_oh.d.next = self.one_m.val() << self.idx.val();
        self.nx_dup.d.next = (self.mask_next.val() & self.nx_oh.d.val()).any();
    }
}

/// The geometry `cblt_components` tests: masks of 64 bits, the table of k_max = 64.
pub fn test_mask_gen() -> MaskGen<64> {
    MaskGen::new(64)
}

crate::pin_io!(generic [const KM: usize] MaskGen<KM>; in: k, seed, limit, load_seed, start, stop, room, tbl_we, tbl_addr, tbl_data; out: on, push, mask, draws, slot);
