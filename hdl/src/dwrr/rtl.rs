//! RTL of the DWRR / strict-priority scheduler; the golden model is `model.rs`, semantics in
//! `mod.rs`. `N` queues (a power of two), `QB = log2(N)` bits of queue index. Register
//! addresses are the literals of [`super::csr`].

use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `dwrr/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::QUANTUM0 == 0 && csr::PRIO_MASK == 32 && csr::REGISTERS[csr::idx::QUANTUM0].count == 8
);

/// One queue's compares against its own deficit, made side by side from registers and the
/// head length, so the round-robin pick only selects among them: the head fits the deficit
/// (`le`, with `deficit − len`), the deficit refilled by the quantum (saturating at 65,535), and
/// the head fits the refilled deficit (`fits`, with `refilled − len`).
#[derive(LogicBlock, Default)]
pub struct DwrrLane {
    pub deficit: Signal<In, Bits<16>>,
    pub quantum: Signal<In, Bits<16>>,
    pub len: Signal<In, Bits<16>>,
    pub le: Signal<Out, Bit>,
    pub def_less: Signal<Out, Bits<16>>,
    pub refilled: Signal<Out, Bits<16>>,
    pub fits: Signal<Out, Bit>,
    pub new_less: Signal<Out, Bits<16>>,
    diff: Signal<Local, Bits<17>>,
    sum: Signal<Local, Bits<17>>,
    dnew: Signal<Local, Bits<16>>,
    diff_new: Signal<Local, Bits<17>>,
}

impl Logic for DwrrLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.diff.next = bit_cast::<17, 16>(self.deficit.val()) - bit_cast::<17, 16>(self.len.val());
        self.sum.next = bit_cast::<17, 16>(self.deficit.val()) + bit_cast::<17, 16>(self.quantum.val());
        self.dnew.next = self.sum.val().get_bits::<16>(0);
        if self.sum.val().get_bit(16) {
            self.dnew.next = 0xFFFF.into();
        }
        self.diff_new.next = bit_cast::<17, 16>(self.dnew.val()) - bit_cast::<17, 16>(self.len.val());
        self.le.next = !self.diff.val().get_bit(16);
        self.def_less.next = self.diff.val().get_bits::<16>(0);
        self.refilled.next = self.dnew.val();
        self.fits.next = !self.diff_new.val().get_bit(16);
        self.new_less.next = self.diff_new.val().get_bits::<16>(0);
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
    pub head_len: [Signal<In, Bits<16>>; N],
    pub grant: Signal<Out, Bit>,
    pub grant_q: Signal<Out, Bits<QB>>,
    pub cur: Signal<Out, Bits<QB>>,
    pub deficit: [Signal<Out, Bits<16>>; N],
    quantum: [DFFWithInit<Bits<16>>; N],
    def_r: [DFF<Bits<16>>; N],
    prio: DFF<Bits<N>>,
    cur_r: DFFWithInit<Bits<QB>>,
    qid: [Constant<Bits<QB>>; N],
    /// Bit i alone.
    bit: [Constant<Bits<N>>; N],
    sp: Signal<Local, Bits<N>>,
    sp_low: Signal<Local, Bits<N>>,
    sp_q: Signal<Local, Bits<QB>>,
    dw: Signal<Local, Bits<N>>,
    /// Bit i: queue i comes after `cur` in index order (decoded from the register).
    after_cur: Signal<Local, Bits<N>>,
    cur_oh: Signal<Local, Bits<N>>,
    dw_hi: Signal<Local, Bits<N>>,
    hi_low: Signal<Local, Bits<N>>,
    dw_low: Signal<Local, Bits<N>>,
    /// One-hot of the next backlogged queue in round-robin order (cur itself last).
    j_oh: Signal<Local, Bits<N>>,
    j: Signal<Local, Bits<QB>>,
    stay: Signal<Local, Bit>,
    fits_j: Signal<Local, Bit>,
    lane: [DwrrLane; N],
    le: Signal<Local, Bits<N>>,
    fits: Signal<Local, Bits<N>>,
}

impl<const N: usize, const QB: usize> Default for Dwrr<N, QB> {
    fn default() -> Self {
        assert!(N.is_power_of_two() && N == 1 << QB && QB >= 1);
        Dwrr {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            grant_en: Default::default(),
            head_valid: Default::default(),
            head_len: std::array::from_fn(|_| Default::default()),
            grant: Default::default(),
            grant_q: Default::default(),
            cur: Default::default(),
            deficit: std::array::from_fn(|_| Default::default()),
            quantum: std::array::from_fn(|_| DFFWithInit::new(super::DEFAULT_QUANTUM.into())),
            def_r: std::array::from_fn(|_| Default::default()),
            prio: Default::default(),
            cur_r: DFFWithInit::new(((N - 1) as u64).into()),
            qid: std::array::from_fn(|i| Constant::new((i as u64).into())),
            bit: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
            sp: Default::default(),
            sp_low: Default::default(),
            sp_q: Default::default(),
            dw: Default::default(),
            after_cur: Default::default(),
            cur_oh: Default::default(),
            dw_hi: Default::default(),
            hi_low: Default::default(),
            dw_low: Default::default(),
            j_oh: Default::default(),
            j: Default::default(),
            stay: Default::default(),
            fits_j: Default::default(),
            lane: std::array::from_fn(|_| Default::default()),
            le: Default::default(),
            fits: Default::default(),
        }
    }
}

// Timing (bitstreams/REPORT.md): the decision is an AND-OR over one-hots. The round-robin pick
// is two lowest-set-bit units side by side (the backlogged queues after `cur`, and all of them)
// instead of a rotate, a priority encoder and an add, and every queue's compares against its
// own deficit are made beside it (`DwrrLane`), so the pick only selects.
impl<const N: usize, const QB: usize> Logic for Dwrr<N, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, prio, cur_r);
        self.cur_oh.next = 0.into();
        self.le.next = 0.into();
        self.fits.next = 0.into();
        for i in 0..N {
            self.quantum[i].clock.next = self.clock.val();
            self.quantum[i].d.next = self.quantum[i].q.val();
            self.def_r[i].clock.next = self.clock.val();
            self.def_r[i].d.next = self.def_r[i].q.val();
            self.deficit[i].next = self.def_r[i].q.val();
            if self.qid[i].val() == self.cur_r.q.val() {
                self.cur_oh.next = self.cur_oh.val() | self.bit[i].val();
            }
            self.lane[i].deficit.next = self.def_r[i].q.val();
            self.lane[i].quantum.next = self.quantum[i].q.val();
            self.lane[i].len.next = self.head_len[i].val();
            if self.lane[i].le.val() {
                self.le.next = self.le.val() | self.bit[i].val();
            }
            if self.lane[i].fits.val() {
                self.fits.next = self.fits.val() | self.bit[i].val();
            }
        }
        // the queues after `cur`: neither `cur` nor below it
        self.after_cur.next = !(self.cur_oh.val() | (self.cur_oh.val() - 1));
        self.cur.next = self.cur_r.q.val();
        self.sp.next = self.head_valid.val() & self.prio.q.val();
        self.dw.next = self.head_valid.val() & !self.prio.q.val();
        // strict priority: the lowest set bit of `sp` (isolated as sp & -sp, then encoded)
        self.sp_low.next = self.sp.val() & (Bits::<N>::from(0) - self.sp.val());
        // DWRR round robin: the first backlogged queue after `cur`, else the first one at all
        // (which is `cur` itself when it is the only one)
        self.dw_hi.next = self.dw.val() & self.after_cur.val();
        self.hi_low.next = self.dw_hi.val() & (Bits::<N>::from(0) - self.dw_hi.val());
        self.dw_low.next = self.dw.val() & (Bits::<N>::from(0) - self.dw.val());
        self.j_oh.next = self.dw_low.val();
        if self.dw_hi.val().any() {
            self.j_oh.next = self.hi_low.val();
        }
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
        // the current queue stays while its head fits its deficit
        self.stay.next = (self.cur_oh.val() & self.dw.val() & self.le.val()).any();
        self.fits_j.next = (self.j_oh.val() & self.fits.val()).any();

        self.grant.next = false;
        self.grant_q.next = 0.into();
        if self.grant_en.val() & self.sp.val().any() {
            self.grant.next = true;
            self.grant_q.next = self.sp_q.val();
        } else if self.grant_en.val() & self.dw.val().any() {
            if self.stay.val() {
                self.grant.next = true;
                self.grant_q.next = self.cur_r.q.val();
            } else {
                self.cur_r.d.next = self.j.val();
                if self.fits_j.val() {
                    self.grant.next = true;
                    self.grant_q.next = self.j.val();
                }
            }
        }
        for i in 0..N {
            if !self.dw.val().get_bit(i) {
                self.def_r[i].d.next = 0.into();
            } else if self.grant_en.val() & !self.sp.val().any() {
                if self.stay.val() & self.cur_oh.val().get_bit(i) {
                    self.def_r[i].d.next = self.lane[i].def_less.val();
                }
                if !self.stay.val() & self.j_oh.val().get_bit(i) {
                    self.def_r[i].d.next = self.lane[i].refilled.val();
                    if self.lane[i].fits.val() {
                        self.def_r[i].d.next = self.lane[i].new_less.val();
                    }
                }
            }
            // register writes (csr module): quanta at 0..N, 16 bits, tested on the high bits (a
            // 32-bit compare with a constant is a carry chain in yosys)
            if self.csr_we.val() & (self.csr_addr.val().index() == i) & !self.csr_wdata.val().get_bits::<16>(16).any() {
                self.quantum[i].d.next = self.csr_wdata.val().get_bits::<16>(0);
            }
        }
        if self.csr_we.val() & (self.csr_addr.val() == 32) {
            self.prio.d.next = self.csr_wdata.val().get_bits::<N>(0);
        }
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
    pub deficit0: Signal<Out, Bits<16>>,
    pub deficit1: Signal<Out, Bits<16>>,
    pub deficit2: Signal<Out, Bits<16>>,
    pub deficit3: Signal<Out, Bits<16>>,
    pub deficit4: Signal<Out, Bits<16>>,
    pub deficit5: Signal<Out, Bits<16>>,
    pub deficit6: Signal<Out, Bits<16>>,
    pub deficit7: Signal<Out, Bits<16>>,
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
    in: csr_we, csr_addr, csr_wdata, grant_en, head_valid, head_len0, head_len1, head_len2, head_len3, head_len4, head_len5, head_len6, head_len7;
    out: grant, grant_q, cur, deficit0, deficit1, deficit2, deficit3, deficit4, deficit5, deficit6, deficit7);
