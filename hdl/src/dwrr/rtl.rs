//! RTL of the DWRR / strict-priority scheduler; the golden model is `model.rs`, semantics in
//! `mod.rs`. `N` queues (a power of two), `QB = log2(N)` bits of queue index. Register
//! addresses are the literals of [`super::csr`].

use crate::rtl_util::AddSub;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `dwrr/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::QUANTUM0 == 0 && csr::PRIO_MASK == 32 && csr::REGISTERS[csr::idx::QUANTUM0].count == 8
);

/// One queue's next deficits, each one carry chain from its registers and head length, made
/// side by side so the decision only selects. The lane keeps the *negated* deficit `neg = −d`
/// (17-bit two's complement; 0 after reset and while the queue is empty), so that "the deficit
/// is positive" is its sign bit, a register. For the current queue, served: `neg + len`. For
/// the next queue, refilled: `neg − quantum`, and refilled and served: `neg + len − quantum`
/// (`AddSub`, one chain).
///
/// The refill test ("refilled, the deficit is positive", the sign of `neg − quantum`) is kept a
/// clock ahead in the parent (`rp_r`), so the lane also makes it for each deficit the lane can
/// have after the edge: held (`refill_pos`), served (`rp_served`, the sign of
/// `neg + len − quantum`), refilled (`rp_refilled`, of `neg − 2·quantum`), refilled and served
/// (`rp_refilled_served`, of `neg + len − 2·quantum`), emptied (`quantum_nz`). Each sign is
/// taken on 18 or 19 bits, wide enough for every deficit and quantum.
#[derive(LogicBlock, Default)]
pub struct DwrrLane {
    pub neg: Signal<In, Bits<17>>,
    pub quantum: Signal<In, Bits<16>>,
    pub len: Signal<In, Bits<16>>,
    pub served: Signal<Out, Bits<17>>,
    pub refilled: Signal<Out, Bits<17>>,
    /// The refilled deficit is positive: the queue is served if it is the next one.
    pub refill_pos: Signal<Out, Bit>,
    pub refilled_served: Signal<Out, Bits<17>>,
    pub rp_served: Signal<Out, Bit>,
    pub rp_refilled: Signal<Out, Bit>,
    pub rp_refilled_served: Signal<Out, Bit>,
    pub quantum_nz: Signal<Out, Bit>,
    /// The deficit itself, `−neg`, for the outputs.
    pub deficit: Signal<Out, Bits<17>>,
    len17: Signal<Local, Bits<17>>,
    /// `neg` sign-extended, and the lengths and quanta zero-extended, to 18 and 19 bits.
    neg18: Signal<Local, Bits<18>>,
    len18: Signal<Local, Bits<18>>,
    quantum18: Signal<Local, Bits<18>>,
    neg19: Signal<Local, Bits<19>>,
    len19: Signal<Local, Bits<19>>,
    twice19: Signal<Local, Bits<19>>,
    refilled18: Signal<Local, Bits<18>>,
    refilled_twice: Signal<Local, Bits<19>>,
    both: AddSub<18>,
    both_twice: AddSub<19>,
    /// The low bits of the two 19-bit chains, of which only the signs are used.
    unused_sums: Signal<Local, Bit>,
}

impl Logic for DwrrLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.len17.next = bit_cast::<17, 16>(self.len.val());
        self.neg18.next = bit_cast::<18, 17>(self.neg.val());
        self.neg19.next = bit_cast::<19, 17>(self.neg.val());
        if self.neg.val().get_bit(16) {
            self.neg18.next = bit_cast::<18, 17>(self.neg.val()) | 0x2_0000;
            self.neg19.next = bit_cast::<19, 17>(self.neg.val()) | 0x6_0000;
        }
        self.len18.next = bit_cast::<18, 16>(self.len.val());
        self.quantum18.next = bit_cast::<18, 16>(self.quantum.val());
        self.len19.next = bit_cast::<19, 16>(self.len.val());
        self.twice19.next = bit_cast::<19, 16>(self.quantum.val()) << 1;
        self.served.next = self.neg.val() + self.len17.val();
        self.refilled18.next = self.neg18.val() - self.quantum18.val();
        self.refilled.next = self.refilled18.val().get_bits::<17>(0);
        self.refill_pos.next = self.refilled18.val().get_bit(17);
        self.both.a.next = self.neg18.val();
        self.both.b.next = self.len18.val();
        self.both.sub.next = self.quantum18.val();
        self.both.cin.next = false;
        self.refilled_served.next = self.both.out.val().get_bits::<17>(0);
        self.rp_served.next = self.both.out.val().get_bit(17);
        self.refilled_twice.next = self.neg19.val() - self.twice19.val();
        self.rp_refilled.next = self.refilled_twice.val().get_bit(18);
        self.both_twice.a.next = self.neg19.val();
        self.both_twice.b.next = self.len19.val();
        self.both_twice.sub.next = self.twice19.val();
        self.both_twice.cin.next = false;
        self.rp_refilled_served.next = self.both_twice.out.val().get_bit(18);
        self.unused_sums.next = self.refilled_twice.val().get_bits::<18>(0).any() | self.both_twice.out.val().get_bits::<18>(0).any();
        self.quantum_nz.next = self.quantum.val().any();
        self.deficit.next = Bits::<17>::from(0) - self.neg.val();
    }
}

/// DWRR's round-robin pick, made a clock ahead: for each queue X, the next queue after X in
/// round-robin order (X itself last) among `backlog`, as the lowest set bit of a doubled request
/// vector (the queues after X in bits 0..N, every queue in bits N..2N; one carry chain); then
/// the picks after the two queues that can be current in the next clock (one-hot or 0).
#[derive(LogicBlock)]
pub struct RoundRobinPick<const N: usize> {
    /// The DWRR queues backlogged now or from the next clock.
    pub backlog: Signal<In, Bits<N>>,
    /// The queue the round moves to this clock (one-hot or 0), and the current one.
    pub j_oh: Signal<In, Bits<N>>,
    pub cur_oh: Signal<In, Bits<N>>,
    pub after_j: Signal<Out, Bits<N>>,
    pub after_cur: Signal<Out, Bits<N>>,
    /// Bit i alone.
    bit: [Constant<Bits<N>>; N],
    /// The queues after queue i in index order.
    above: [Constant<Bits<N>>; N],
    /// Bit i, and bit N + i, of the doubled request vector.
    bit2: [Constant<Bits<16>>; N],
    bit2_hi: [Constant<Bits<16>>; N],
    req2: [Signal<Local, Bits<16>>; N],
    low2: [Signal<Local, Bits<16>>; N],
    /// For each queue X, one-hot of the next queue after X (0 if none is backlogged).
    pick: [Signal<Local, Bits<N>>; N],
}

impl<const N: usize> Default for RoundRobinPick<N> {
    fn default() -> Self {
        // N ≤ 8: the doubled request vector is 16 bits
        assert!(N <= 8);
        RoundRobinPick {
            backlog: Default::default(),
            j_oh: Default::default(),
            cur_oh: Default::default(),
            after_j: Default::default(),
            after_cur: Default::default(),
            bit: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
            above: std::array::from_fn(|i| Constant::new(((1u64 << N) - (2u64 << i)).into())),
            bit2: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
            bit2_hi: std::array::from_fn(|i| Constant::new((1u64 << (N + i)).into())),
            req2: std::array::from_fn(|_| Default::default()),
            low2: std::array::from_fn(|_| Default::default()),
            pick: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const N: usize> Logic for RoundRobinPick<N> {
    #[hdl_gen]
    fn update(&mut self) {
        for x in 0..N {
            self.req2[x].next = 0.into();
            for i in 0..N {
                if self.backlog.val().get_bit(i) & self.above[x].val().get_bit(i) {
                    self.req2[x].next = self.req2[x].val() | self.bit2[i].val();
                }
                if self.backlog.val().get_bit(i) {
                    self.req2[x].next = self.req2[x].val() | self.bit2_hi[i].val();
                }
            }
            self.low2[x].next = self.req2[x].val() & (Bits::<16>::from(0) - self.req2[x].val());
            self.pick[x].next = 0.into();
            for i in 0..N {
                if (self.low2[x].val() & (self.bit2[i].val() | self.bit2_hi[i].val())).any() {
                    self.pick[x].next = self.pick[x].val() | self.bit[i].val();
                }
            }
        }
        self.after_j.next = 0.into();
        self.after_cur.next = 0.into();
        for x in 0..N {
            if self.j_oh.val().get_bit(x) {
                self.after_j.next = self.after_j.val() | self.pick[x].val();
            }
            if self.cur_oh.val().get_bit(x) {
                self.after_cur.next = self.after_cur.val() | self.pick[x].val();
            }
        }
    }
}

#[derive(LogicBlock)]
pub struct Dwrr<const N: usize, const QB: usize> {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub grant_en: Signal<In, Bit>,
    pub head_valid: Signal<In, Bits<N>>,
    /// Bit q: queue q receives a descriptor this clock (backlogged from the next).
    pub arrive: Signal<In, Bits<N>>,
    pub head_len: [Signal<In, Bits<16>>; N],
    pub grant: Signal<Out, Bit>,
    pub grant_q: Signal<Out, Bits<QB>>,
    pub cur: Signal<Out, Bits<QB>>,
    pub deficit: [Signal<Out, Bits<17>>; N],
    quantum: [DFFWithInit<Bits<16>>; N],
    /// Each queue's negated deficit (`DwrrLane`).
    neg_r: [DFF<Bits<17>>; N],
    prio: DFF<Bits<N>>,
    /// The round's current queue, as an index (for `cur`) and one-hot.
    cur_r: DFFWithInit<Bits<QB>>,
    cur_oh: DFFWithInit<Bits<N>>,
    qid: [Constant<Bits<QB>>; N],
    /// Bit i alone.
    bit: [Constant<Bits<N>>; N],
    sp: Signal<Local, Bits<N>>,
    sp_low: Signal<Local, Bits<N>>,
    sp_q: Signal<Local, Bits<QB>>,
    dw: Signal<Local, Bits<N>>,
    /// The round-robin pick, from the DWRR queues backlogged now or from the next clock.
    pick: RoundRobinPick<N>,
    /// The next queue after `cur` in the previous clock's backlog, registered: the pick is
    /// made a clock ahead.
    next_r: DFF<Bits<N>>,
    /// The current queue if its deficit is positive and it is a DWRR queue (`cur_oh & pos &
    /// !prio`), kept as a register: made at each edge from the lanes' outcomes.
    cur_pos_r: DFF<Bits<N>>,
    cur_pos_next: Signal<Local, Bits<N>>,
    /// `next_r` if its queue is still backlogged.
    j_oh: Signal<Local, Bits<N>>,
    j: Signal<Local, Bits<QB>>,
    stay: Signal<Local, Bit>,
    fits_j: Signal<Local, Bit>,
    lane: [DwrrLane; N],
    /// Each lane's refill test (`DwrrLane`), kept a clock ahead: exact for every queue whose
    /// quantum was not written in the last clock (`stale`); such a queue is not the next one
    /// in this clock (`j_oh` leaves it out), so the round waits a clock for it.
    rp_r: DFF<Bits<N>>,
    stale: DFF<Bits<N>>,
    /// The queues whose quantum this clock's write sets, and the refill tests after the edge.
    quantum_write: Signal<Local, Bits<N>>,
    rp_next: Signal<Local, Bits<N>>,
    /// The round moves on this clock (DWRR's turn, and the current queue does not stay).
    advance: Signal<Local, Bit>,
}

impl<const N: usize, const QB: usize> Default for Dwrr<N, QB> {
    fn default() -> Self {
        // N ≤ 8: the doubled request vector of the round-robin pick is 16 bits
        assert!(N.is_power_of_two() && N == 1 << QB && QB >= 1 && N <= 8);
        Dwrr {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            grant_en: Default::default(),
            head_valid: Default::default(),
            arrive: Default::default(),
            head_len: std::array::from_fn(|_| Default::default()),
            grant: Default::default(),
            grant_q: Default::default(),
            cur: Default::default(),
            deficit: std::array::from_fn(|_| Default::default()),
            quantum: std::array::from_fn(|_| DFFWithInit::new(super::DEFAULT_QUANTUM.into())),
            neg_r: std::array::from_fn(|_| Default::default()),
            prio: Default::default(),
            cur_r: DFFWithInit::new(((N - 1) as u64).into()),
            cur_oh: DFFWithInit::new((1u64 << (N - 1)).into()),
            qid: std::array::from_fn(|i| Constant::new((i as u64).into())),
            bit: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
            sp: Default::default(),
            sp_low: Default::default(),
            sp_q: Default::default(),
            dw: Default::default(),
            pick: Default::default(),
            next_r: Default::default(),
            cur_pos_r: Default::default(),
            cur_pos_next: Default::default(),
            j_oh: Default::default(),
            j: Default::default(),
            stay: Default::default(),
            fits_j: Default::default(),
            lane: std::array::from_fn(|_| Default::default()),
            rp_r: Default::default(),
            stale: Default::default(),
            quantum_write: Default::default(),
            rp_next: Default::default(),
            advance: Default::default(),
        }
    }
}

// Timing (bitstreams/REPORT.md): whether a queue is served is a flip-flop, kept a clock ahead,
// for the current queue (`cur_pos_r`) and for the next one (its refill test, `rp_r`); every next
// deficit and every next refill test is ready in its lane; the round-robin pick is made a clock
// ahead (`next_r`). What depends on this clock's heads is a few gates: whether `cur` stays and
// whether `next_r`'s queue is still backlogged, then each deficit register's own enable.
impl<const N: usize, const QB: usize> Logic for Dwrr<N, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, prio, cur_r, cur_oh, next_r, cur_pos_r, rp_r, stale);
        self.quantum_write.next = 0.into();
        for i in 0..N {
            self.quantum[i].clock.next = self.clock.val();
            self.quantum[i].d.next = self.quantum[i].q.val();
            self.neg_r[i].clock.next = self.clock.val();
            self.neg_r[i].d.next = self.neg_r[i].q.val();
            self.deficit[i].next = self.lane[i].deficit.val();
            self.lane[i].neg.next = self.neg_r[i].q.val();
            self.lane[i].quantum.next = self.quantum[i].q.val();
            self.lane[i].len.next = self.head_len[i].val();
        }
        self.cur.next = self.cur_r.q.val();
        self.sp.next = self.head_valid.val() & self.prio.q.val();
        self.dw.next = self.head_valid.val() & !self.prio.q.val();
        self.pick.backlog.next = (self.head_valid.val() | self.arrive.val()) & !self.prio.q.val();
        // strict priority: the lowest set bit of `sp` (isolated as sp & -sp, then encoded)
        self.sp_low.next = self.sp.val() & (Bits::<N>::from(0) - self.sp.val());
        // DWRR round robin: the first backlogged queue after `cur`, else the first one at all
        // (which is `cur` itself when it is the only one). The pick is made a clock ahead, for
        // every queue that can be `cur` then, from this clock's backlog and arrivals; the one
        // after `cur` counts if its queue is still backlogged.
        self.j_oh.next = self.next_r.q.val() & self.dw.val() & !self.stale.q.val();
        self.pick.j_oh.next = self.j_oh.val();
        self.pick.cur_oh.next = self.cur_oh.q.val();
        self.sp_q.next = 0.into();
        self.j.next = 0.into();
        for i in 0..N {
            if self.sp_low.val().get_bit(i) {
                self.sp_q.next = self.sp_q.val() | self.qid[i].val();
            }
            if self.j_oh.val().get_bit(i) {
                self.j.next = self.j.val() | self.qid[i].val();
            }
        }
        // the current queue stays while its deficit is positive (a register bit); the next one
        // is served if its refill makes it positive
        self.stay.next = (self.head_valid.val() & self.cur_pos_r.q.val()).any();
        self.fits_j.next = (self.j_oh.val() & self.rp_r.q.val()).any();
        self.advance.next = self.grant_en.val() & !self.sp.val().any() & self.j_oh.val().any() & !self.stay.val();

        self.grant.next = false;
        self.grant_q.next = 0.into();
        if self.grant_en.val() & self.sp.val().any() {
            self.grant.next = true;
            self.grant_q.next = self.sp_q.val();
        } else if self.grant_en.val() & self.dw.val().any() {
            if self.stay.val() {
                self.grant.next = true;
                self.grant_q.next = self.cur_r.q.val();
            } else if self.fits_j.val() {
                self.grant.next = true;
                self.grant_q.next = self.j.val();
            }
        }
        // the pick for the next clock: after the queue that is `cur` then
        // (both ready before the decision, which only selects)
        self.next_r.d.next = self.pick.after_cur.val();
        if self.advance.val() {
            self.next_r.d.next = self.pick.after_j.val();
            self.cur_r.d.next = self.j.val();
            self.cur_oh.d.next = self.j_oh.val();
        }
        self.rp_next.next = 0.into();
        self.cur_pos_next.next = 0.into();
        for i in 0..N {
            // an empty queue holds 0; the current one, served, is charged its head; the next
            // one is refilled (and charged if that makes it positive). A backlogged queue with
            // `cur_pos_r` is the one that stays, so the lane's value is known from registers and
            // only its enable waits for the decision. The refill test after the edge is the
            // sign the lane made for the same outcome.
            if !self.dw.val().get_bit(i) {
                self.neg_r[i].d.next = 0.into();
                if self.lane[i].quantum_nz.val() {
                    self.rp_next.next = self.rp_next.val() | self.bit[i].val();
                }
            } else if self.grant_en.val() & !self.sp.val().any()
                & (self.cur_pos_r.q.val().get_bit(i) | (self.j_oh.val().get_bit(i) & !self.stay.val()))
            {
                if self.cur_pos_r.q.val().get_bit(i) {
                    self.neg_r[i].d.next = self.lane[i].served.val();
                    if self.lane[i].rp_served.val() {
                        self.rp_next.next = self.rp_next.val() | self.bit[i].val();
                    }
                    if self.lane[i].served.val().get_bit(16) {
                        self.cur_pos_next.next = self.cur_pos_next.val() | self.bit[i].val();
                    }
                } else if self.rp_r.q.val().get_bit(i) {
                    self.neg_r[i].d.next = self.lane[i].refilled_served.val();
                    if self.lane[i].rp_refilled_served.val() {
                        self.rp_next.next = self.rp_next.val() | self.bit[i].val();
                    }
                    if self.lane[i].refilled_served.val().get_bit(16) {
                        self.cur_pos_next.next = self.cur_pos_next.val() | self.bit[i].val();
                    }
                } else {
                    self.neg_r[i].d.next = self.lane[i].refilled.val();
                    if self.lane[i].rp_refilled.val() {
                        self.rp_next.next = self.rp_next.val() | self.bit[i].val();
                    }
                }
            } else {
                // held: the current queue keeps its flag (a backlogged current queue with a
                // positive deficit is served unless the link or strict priority holds it)
                if self.lane[i].refill_pos.val() {
                    self.rp_next.next = self.rp_next.val() | self.bit[i].val();
                }
                if self.cur_pos_r.q.val().get_bit(i) {
                    self.cur_pos_next.next = self.cur_pos_next.val() | self.bit[i].val();
                }
            }
            // register writes (csr module): quanta at 0..N, 16 bits, tested on the high bits (a
            // 32-bit compare with a constant is a carry chain in yosys)
            if self.csr_we.val() & (self.csr_addr.val().index() == i) & !self.csr_wdata.val().get_bits::<16>(16).any() {
                self.quantum[i].d.next = self.csr_wdata.val().get_bits::<16>(0);
                self.quantum_write.next = self.quantum_write.val() | self.bit[i].val();
            }
        }
        self.rp_r.d.next = self.rp_next.val();
        if self.csr_we.val() & (self.csr_addr.val() == 32) {
            self.prio.d.next = self.csr_wdata.val().get_bits::<N>(0);
        }
        // `cur_oh & pos & !prio` after the edge: the queue served as the current one or
        // refilled as the next one (which becomes current) with its new deficit's sign, the
        // current one held with its flag; a queue becoming strict-priority drops it
        self.cur_pos_r.d.next = self.cur_pos_next.val() & !self.prio.d.val();
        // a quantum write leaves that queue's refill test stale for a clock (the lanes' signs
        // are made with the quantum before the edge): it is not the next queue then
        self.stale.d.next = self.quantum_write.val();
    }
}

/// The stand-alone 8-queue block the vectors and the fuzz drive, with one named port per queue
/// (rust-hdl would name array ports `head_len$0`, which Verilator mangles).
#[derive(LogicBlock, Default)]
pub struct Dwrr8 {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub grant_en: Signal<In, Bit>,
    pub head_valid: Signal<In, Bits<8>>,
    pub arrive: Signal<In, Bits<8>>,
    pub head_len0: Signal<In, Bits<16>>,
    pub head_len1: Signal<In, Bits<16>>,
    pub head_len2: Signal<In, Bits<16>>,
    pub head_len3: Signal<In, Bits<16>>,
    pub head_len4: Signal<In, Bits<16>>,
    pub head_len5: Signal<In, Bits<16>>,
    pub head_len6: Signal<In, Bits<16>>,
    pub head_len7: Signal<In, Bits<16>>,
    pub grant: Signal<Out, Bit>,
    pub grant_q: Signal<Out, Bits<3>>,
    pub cur: Signal<Out, Bits<3>>,
    pub deficit0: Signal<Out, Bits<17>>,
    pub deficit1: Signal<Out, Bits<17>>,
    pub deficit2: Signal<Out, Bits<17>>,
    pub deficit3: Signal<Out, Bits<17>>,
    pub deficit4: Signal<Out, Bits<17>>,
    pub deficit5: Signal<Out, Bits<17>>,
    pub deficit6: Signal<Out, Bits<17>>,
    pub deficit7: Signal<Out, Bits<17>>,
    dwrr: Dwrr<8, 3>,
}

impl Logic for Dwrr8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.dwrr.clock.next = self.clock.val();
        self.dwrr.csr_we.next = self.csr_we.val();
        self.dwrr.csr_addr.next = self.csr_addr.val();
        self.dwrr.csr_wdata.next = self.csr_wdata.val();
        self.dwrr.grant_en.next = self.grant_en.val();
        self.dwrr.head_valid.next = self.head_valid.val();
        self.dwrr.arrive.next = self.arrive.val();
        self.dwrr.head_len[0].next = self.head_len0.val();
        self.dwrr.head_len[1].next = self.head_len1.val();
        self.dwrr.head_len[2].next = self.head_len2.val();
        self.dwrr.head_len[3].next = self.head_len3.val();
        self.dwrr.head_len[4].next = self.head_len4.val();
        self.dwrr.head_len[5].next = self.head_len5.val();
        self.dwrr.head_len[6].next = self.head_len6.val();
        self.dwrr.head_len[7].next = self.head_len7.val();
        self.grant.next = self.dwrr.grant.val();
        self.grant_q.next = self.dwrr.grant_q.val();
        self.cur.next = self.dwrr.cur.val();
        self.deficit0.next = self.dwrr.deficit[0].val();
        self.deficit1.next = self.dwrr.deficit[1].val();
        self.deficit2.next = self.dwrr.deficit[2].val();
        self.deficit3.next = self.dwrr.deficit[3].val();
        self.deficit4.next = self.dwrr.deficit[4].val();
        self.deficit5.next = self.dwrr.deficit[5].val();
        self.deficit6.next = self.dwrr.deficit[6].val();
        self.deficit7.next = self.dwrr.deficit[7].val();
    }
}

crate::pin_io!(Dwrr8;
    in: csr_we, csr_addr, csr_wdata, grant_en, head_valid, arrive, head_len0, head_len1, head_len2, head_len3, head_len4, head_len5, head_len6, head_len7;
    out: grant, grant_q, cur, deficit0, deficit1, deficit2, deficit3, deficit4, deficit5, deficit6, deficit7);
