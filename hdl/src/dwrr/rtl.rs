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
    sp: Signal<Local, Bits<N>>,
    sp_low: Signal<Local, Bits<N>>,
    sp_q: Signal<Local, Bits<QB>>,
    dw: Signal<Local, Bits<N>>,
    len_c: Signal<Local, Bits<16>>,
    def_c: Signal<Local, Bits<16>>,
    valid_c: Signal<Local, Bit>,
    stay: Signal<Local, Bit>,
    shift: Signal<Local, Bits<QB>>,
    neg_shift: Signal<Local, Bits<QB>>,
    rot: Signal<Local, Bits<N>>,
    rot_low: Signal<Local, Bits<N>>,
    k: Signal<Local, Bits<QB>>,
    j: Signal<Local, Bits<QB>>,
    len_j: Signal<Local, Bits<16>>,
    def_j: Signal<Local, Bits<16>>,
    quant_j: Signal<Local, Bits<16>>,
    sum_j: Signal<Local, Bits<17>>,
    dnew: Signal<Local, Bits<16>>,
    fits_j: Signal<Local, Bit>,
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
            sp: Default::default(),
            sp_low: Default::default(),
            sp_q: Default::default(),
            dw: Default::default(),
            len_c: Default::default(),
            def_c: Default::default(),
            valid_c: Default::default(),
            stay: Default::default(),
            shift: Default::default(),
            neg_shift: Default::default(),
            rot: Default::default(),
            rot_low: Default::default(),
            k: Default::default(),
            j: Default::default(),
            len_j: Default::default(),
            def_j: Default::default(),
            quant_j: Default::default(),
            sum_j: Default::default(),
            dnew: Default::default(),
            fits_j: Default::default(),
        }
    }
}

impl<const N: usize, const QB: usize> Logic for Dwrr<N, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, prio, cur_r);
        for i in 0..N {
            self.quantum[i].clock.next = self.clock.val();
            self.quantum[i].d.next = self.quantum[i].q.val();
            self.def_r[i].clock.next = self.clock.val();
            self.def_r[i].d.next = self.def_r[i].q.val();
            self.deficit[i].next = self.def_r[i].q.val();
        }
        self.cur.next = self.cur_r.q.val();
        self.sp.next = self.head_valid.val() & self.prio.q.val();
        self.dw.next = self.head_valid.val() & !self.prio.q.val();
        // strict priority: the lowest set bit of `sp` (isolated as sp & -sp, then encoded)
        self.sp_low.next = self.sp.val() & (Bits::<N>::from(0) - self.sp.val());
        // DWRR: the current queue's head against its deficit
        // rotation so bit k of `rot` is queue (cur + 1 + k) mod N; the first set bit is the
        // next backlogged queue in round-robin order (cur itself last)
        self.shift.next = self.cur_r.q.val() + 1;
        // (a local, so Verilog's 32-bit literal arithmetic is truncated to QB bits here)
        self.neg_shift.next = Bits::<QB>::from(0) - self.shift.val();
        self.rot.next = (self.dw.val() >> self.shift.val()) | (self.dw.val() << self.neg_shift.val());
        self.rot_low.next = self.rot.val() & (Bits::<N>::from(0) - self.rot.val());
        self.sp_q.next = 0.into();
        self.k.next = 0.into();
        self.len_c.next = 0.into();
        self.def_c.next = 0.into();
        self.valid_c.next = false;
        self.len_j.next = 0.into();
        self.def_j.next = 0.into();
        self.quant_j.next = 0.into();
        for i in 0..N {
            if self.sp_low.val().get_bit(i) {
                self.sp_q.next = self.qid[i].val();
            }
            if self.rot_low.val().get_bit(i) {
                self.k.next = self.qid[i].val();
            }
        }
        self.j.next = self.shift.val() + self.k.val();
        for i in 0..N {
            if self.cur_r.q.val().index() == i {
                self.len_c.next = self.head_len[i].val();
                self.def_c.next = self.def_r[i].q.val();
                self.valid_c.next = self.dw.val().get_bit(i);
            }
            if self.j.val().index() == i {
                self.len_j.next = self.head_len[i].val();
                self.def_j.next = self.def_r[i].q.val();
                self.quant_j.next = self.quantum[i].q.val();
            }
        }
        self.stay.next = self.valid_c.val() & (self.len_c.val() <= self.def_c.val());
        self.sum_j.next = bit_cast::<17, 16>(self.def_j.val()) + bit_cast::<17, 16>(self.quant_j.val());
        self.dnew.next = self.sum_j.val().get_bits::<16>(0);
        if self.sum_j.val().get_bit(16) {
            self.dnew.next = 0xFFFF.into();
        }
        self.fits_j.next = self.len_j.val() <= self.dnew.val();

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
                if self.stay.val() & (self.cur_r.q.val().index() == i) {
                    self.def_r[i].d.next = self.def_c.val() - self.len_c.val();
                }
                if !self.stay.val() & (self.j.val().index() == i) {
                    self.def_r[i].d.next = self.dnew.val();
                    if self.fits_j.val() {
                        self.def_r[i].d.next = self.dnew.val() - self.len_j.val();
                    }
                }
            }
            // register writes (csr module): quanta at 0..N, 16 bits
            if self.csr_we.val() & (self.csr_addr.val().index() == i) & (self.csr_wdata.val() <= 0xFFFF) {
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
