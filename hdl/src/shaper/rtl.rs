//! RTL of the token-bucket shaper; the golden model is `model.rs`, semantics in `mod.rs`.
//! Register addresses are the literals of [`super::csr`].

use crate::rtl_util::LateCounter;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `shaper/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::FILL == 0 && csr::SCALE == 1 && csr::DEPTH == 2 && csr::OVERHEAD == 3 && csr::MAX_LEN == 4
    && csr::FILL_FRAC == 5 && csr::CNT_BASE == 16 && csr::REGISTERS[csr::idx::CNT_BASE].count == 4
);

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
    pub wire_len: Signal<Out, Bits<16>>,
    pub tokens: Signal<Out, Bits<32>>,
    pub tokens_frac: Signal<Out, Bits<16>>,
    pub cnt_sent: Signal<Out, Bits<32>>,
    pub cnt_bad: Signal<Out, Bits<32>>,
    pub cnt_violation: Signal<Out, Bits<32>>,
    pub cnt_csr_rejected: Signal<Out, Bits<32>>,
    fill: DFFWithInit<Bits<32>>,
    fill_frac: DFFWithInit<Bits<16>>,
    scale: DFFWithInit<Bits<16>>,
    /// SCALE − FILL_FRAC (positive: the register checks keep FILL_FRAC < SCALE).
    frac_gap: DFFWithInit<Bits<16>>,
    depth: DFFWithInit<Bits<32>>,
    overhead: DFFWithInit<Bits<8>>,
    max_len: DFFWithInit<Bits<16>>,
    /// The bucket in mixed radix (mod.rs): whole wire bytes and the remainder below `scale`.
    bucket: DFFWithInit<Bits<32>>,
    bucket_frac: DFF<Bits<16>>,
    c_sent: LateCounter,
    c_bad: LateCounter,
    c_violation: LateCounter,
    c_rejected: LateCounter,
    wlen: Signal<Local, Bits<16>>,
    /// `len + OVERHEAD` unwrapped (its bit 16: the wire length wrapped past 16 bits).
    wsum: Signal<Local, Bits<17>>,
    /// `bucket − len − OVERHEAD`, 34-bit two's complement: the eligibility in one carry chain.
    room: Signal<Local, Bits<34>>,
    room_fits: Signal<Local, Bit>,
    /// `room`'s bits below 16, read by nothing (the lint's `unused` convention).
    unused_room: Signal<Local, Bit>,
    carry: Signal<Local, Bit>,
    refill: Signal<Local, Bits<33>>,
    bad: Signal<Local, Bit>,
    elig: Signal<Local, Bit>,
    after: Signal<Local, Bits<32>>,
    csr_ok: Signal<Local, Bit>,
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
            fill: DFFWithInit::new(super::DEFAULT_FILL.into()),
            fill_frac: DFFWithInit::new(super::DEFAULT_FILL_FRAC.into()),
            scale: DFFWithInit::new(super::DEFAULT_SCALE.into()),
            frac_gap: DFFWithInit::new((super::DEFAULT_SCALE - super::DEFAULT_FILL_FRAC).into()),
            depth: DFFWithInit::new(super::DEFAULT_DEPTH.into()),
            overhead: DFFWithInit::new(super::DEFAULT_OVERHEAD.into()),
            max_len: DFFWithInit::new(super::DEFAULT_MAX_LEN.into()),
            bucket: DFFWithInit::new(super::DEFAULT_DEPTH.into()),
            bucket_frac: Default::default(),
            c_sent: Default::default(),
            c_bad: Default::default(),
            c_violation: Default::default(),
            c_rejected: Default::default(),
            wlen: Default::default(),
            wsum: Default::default(),
            room: Default::default(),
            room_fits: Default::default(),
            unused_room: Default::default(),
            carry: Default::default(),
            refill: Default::default(),
            bad: Default::default(),
            elig: Default::default(),
            after: Default::default(),
            csr_ok: Default::default(),
        }
    }
}

impl Logic for TokenShaper {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fill, fill_frac, scale, frac_gap, depth, overhead, max_len, bucket, bucket_frac);
        clock!(self, clock, c_sent, c_bad, c_violation, c_rejected);
        self.wsum.next = bit_cast::<17, 16>(self.head_len.val()) + bit_cast::<17, 8>(self.overhead.q.val());
        self.wlen.next = self.wsum.val().get_bits::<16>(0);
        self.bad.next = self.head_valid.val() & (!self.head_len.val().any() | (self.head_len.val() > self.max_len.q.val()));
        // bucket ≥ wire length (16 bits, wrapped as the model's) in one chain beside the wire
        // length's: `room` ≥ 0, or, when the wire length wrapped (it is then 65,536 less), `room`
        // ≥ −65,536, which for a negative `room` is its bits 16 and up all ones
        self.room.next = bit_cast::<34, 32>(self.bucket.q.val()) - bit_cast::<34, 16>(self.head_len.val())
            - bit_cast::<34, 8>(self.overhead.q.val());
        self.room_fits.next = !self.room.val().get_bit(33)
            | (self.wsum.val().get_bit(16) & (self.room.val().get_bits::<18>(16) == 0x3FFFF));
        self.unused_room.next = self.room.val().get_bits::<16>(0).any();
        self.elig.next = self.head_valid.val() & !self.bad.val() & self.room_fits.val();
        self.eligible.next = self.elig.val();
        self.bad_head.next = self.bad.val();
        self.wire_len.next = self.wlen.val();
        self.tokens.next = self.bucket.q.val();
        self.tokens_frac.next = self.bucket_frac.q.val();

        // charge an eligible departure, then refill (the remainders carry a byte) and cap
        self.after.next = self.bucket.q.val();
        if self.deq.val() & self.elig.val() {
            self.after.next = self.bucket.q.val() - bit_cast::<32, 16>(self.wlen.val());
        }
        // the remainder carries a byte when frac + FILL_FRAC ≥ SCALE, i.e. frac ≥ SCALE − FILL_FRAC
        // (`frac_gap`, kept with the two registers): one compare and two subtractions side by side
        self.carry.next = self.bucket_frac.q.val() >= self.frac_gap.q.val();
        self.bucket_frac.d.next = self.bucket_frac.q.val() + self.fill_frac.q.val();
        if self.carry.val() {
            self.bucket_frac.d.next = self.bucket_frac.q.val() - self.frac_gap.q.val();
        }
        self.refill.next = bit_cast::<33, 32>(self.after.val())
            + bit_cast::<33, 32>(self.fill.q.val())
            + bit_cast::<33, 1>(self.carry.val().into());
        self.bucket.d.next = self.refill.val().get_bits::<32>(0);
        // at the cap the bucket is full: DEPTH bytes, no remainder
        if self.refill.val() >= bit_cast::<33, 32>(self.depth.q.val()) {
            self.bucket.d.next = self.depth.q.val();
            self.bucket_frac.d.next = 0.into();
        }
        self.c_sent.inc.next = self.deq.val() & self.elig.val();
        self.c_bad.inc.next = self.deq.val() & self.bad.val();
        self.c_violation.inc.next = self.deq.val() & !self.elig.val() & !self.bad.val();

        // register writes (csr module)
        // range checks test the high bits (a 32-bit compare with a constant is a carry chain in yosys)
        self.csr_ok.next = false;
        match self.csr_addr.val().index() {
            0 => self.csr_ok.next = true,
            1 => self.csr_ok.next = self.csr_wdata.val().get_bits::<16>(0) > self.fill_frac.q.val(),
            2 => self.csr_ok.next = true,
            3 => self.csr_ok.next = !self.csr_wdata.val().get_bits::<24>(8).any(),
            4 => self.csr_ok.next = self.csr_wdata.val().get_bits::<16>(0).any(),
            5 => self.csr_ok.next = !self.csr_wdata.val().get_bits::<16>(16).any() & (self.csr_wdata.val().get_bits::<16>(0) < self.scale.q.val()),
            _ => self.csr_ok.next = (self.csr_addr.val() >= 16) & (self.csr_addr.val() < 20),
        }
        if self.csr_we.val() & self.csr_ok.val() {
            match self.csr_addr.val().index() {
                0 => self.fill.d.next = self.csr_wdata.val(),
                1 => {
                    self.scale.d.next = self.csr_wdata.val().get_bits::<16>(0);
                    self.frac_gap.d.next = self.csr_wdata.val().get_bits::<16>(0) - self.fill_frac.q.val();
                    self.bucket.d.next = self.depth.q.val();
                    self.bucket_frac.d.next = 0.into();
                }
                2 => {
                    self.depth.d.next = self.csr_wdata.val();
                    self.bucket.d.next = self.csr_wdata.val();
                    self.bucket_frac.d.next = 0.into();
                }
                3 => self.overhead.d.next = self.csr_wdata.val().get_bits::<8>(0),
                4 => self.max_len.d.next = self.csr_wdata.val().get_bits::<16>(0),
                5 => {
                    self.fill_frac.d.next = self.csr_wdata.val().get_bits::<16>(0);
                    self.frac_gap.d.next = self.scale.q.val() - self.csr_wdata.val().get_bits::<16>(0);
                }
                _ => {}
            }
        }
        self.c_rejected.inc.next = self.csr_we.val() & !self.csr_ok.val();
        self.c_sent.load.next = self.csr_we.val() & (self.csr_addr.val() == 16);
        self.c_bad.load.next = self.csr_we.val() & (self.csr_addr.val() == 17);
        self.c_violation.load.next = self.csr_we.val() & (self.csr_addr.val() == 18);
        self.c_rejected.load.next = self.csr_we.val() & (self.csr_addr.val() == 19);
        self.c_sent.load_val.next = self.csr_wdata.val();
        self.c_bad.load_val.next = self.csr_wdata.val();
        self.c_violation.load_val.next = self.csr_wdata.val();
        self.c_rejected.load_val.next = self.csr_wdata.val();
        self.cnt_sent.next = self.c_sent.value.val();
        self.cnt_bad.next = self.c_bad.value.val();
        self.cnt_violation.next = self.c_violation.value.val();
        self.cnt_csr_rejected.next = self.c_rejected.value.val();
    }
}

crate::pin_io!(TokenShaper;
    in: csr_we, csr_addr, csr_wdata, head_valid, head_len, deq;
    out: eligible, bad_head, wire_len, tokens, tokens_frac, cnt_sent, cnt_bad, cnt_violation, cnt_csr_rejected);
