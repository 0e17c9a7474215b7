//! RTL of the INT stamper; the golden model is `model.rs`, layout and choices in `mod.rs`.
//! Register addresses are the literals of [`super::csr`].

use crate::rtl_util::{CsrStage, LateCounter};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

// The register addresses this RTL decodes as literals (rust-hdl's `#[hdl_gen]` takes no paths)
// are the register map's: a change to `intstamp/mod.rs`'s map must come with the RTL's.
use super::csr;
const _: () = assert!(
    csr::RATE == 0 && csr::BYTE_SHIFT == 1 && csr::QLEN_SHIFT == 2 && csr::MAX_LEN == 3
    && csr::TX_LOAD == 4 && csr::CNT_BASE == 16 && csr::REGISTERS[csr::idx::CNT_BASE].count == 3
);

#[derive(LogicBlock)]
pub struct IntStamper {
    pub clock: Signal<In, Clock>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub deq_valid: Signal<In, Bit>,
    pub deq_len: Signal<In, Bits<16>>,
    pub now: Signal<In, Bits<24>>,
    pub qlen_after: Signal<In, Bits<32>>,
    pub stamp_valid: Signal<Out, Bit>,
    pub drop: Signal<Out, Bit>,
    pub hop_lo: Signal<Out, Bits<32>>,
    pub hop_hi: Signal<Out, Bits<32>>,
    pub int_ts: Signal<Out, Bits<24>>,
    pub int_bytes: Signal<Out, Bits<20>>,
    pub int_qlen: Signal<Out, Bits<17>>,
    pub int_rate: Signal<Out, Bits<3>>,
    pub tx_bytes: Signal<Out, Bits<32>>,
    pub cnt_stamped: Signal<Out, Bits<32>>,
    pub cnt_malformed: Signal<Out, Bits<32>>,
    pub cnt_csr_rejected: Signal<Out, Bits<32>>,
    /// The write port's register: writes are decoded a clock after they are presented.
    csr: CsrStage<8>,
    rate: DFFWithInit<Bits<3>>,
    byte_shift: DFFWithInit<Bits<4>>,
    qlen_shift: DFFWithInit<Bits<4>>,
    /// Bits of `qlen_after` that saturate the qlen field: all-ones << (17 + QLEN_SHIFT).
    sat_mask: DFFWithInit<Bits<32>>,
    all_ones: Constant<Bits<32>>,
    max_len: DFFWithInit<Bits<16>>,
    txb: DFF<Bits<32>>,
    c_stamped: LateCounter,
    c_malformed: LateCounter,
    c_rejected: LateCounter,
    malformed: Signal<Local, Bit>,
    stamp: Signal<Local, Bit>,
    bytes_f: Signal<Local, Bits<20>>,
    qlen_f: Signal<Local, Bits<17>>,
    csr_ok: Signal<Local, Bit>,
}

impl Default for IntStamper {
    fn default() -> Self {
        IntStamper {
            clock: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            deq_valid: Default::default(),
            deq_len: Default::default(),
            now: Default::default(),
            qlen_after: Default::default(),
            stamp_valid: Default::default(),
            drop: Default::default(),
            hop_lo: Default::default(),
            hop_hi: Default::default(),
            int_ts: Default::default(),
            int_bytes: Default::default(),
            int_qlen: Default::default(),
            int_rate: Default::default(),
            tx_bytes: Default::default(),
            cnt_stamped: Default::default(),
            cnt_malformed: Default::default(),
            cnt_csr_rejected: Default::default(),
            csr: Default::default(),
            rate: DFFWithInit::new(super::DEFAULT_RATE.into()),
            byte_shift: DFFWithInit::new(super::DEFAULT_BYTE_SHIFT.into()),
            qlen_shift: DFFWithInit::new(super::DEFAULT_QLEN_SHIFT.into()),
            sat_mask: DFFWithInit::new((0xFFFF_FFFFu64 << (17 + super::DEFAULT_QLEN_SHIFT) & 0xFFFF_FFFF).into()),
            all_ones: Constant::new(0xFFFF_FFFFu64.into()),
            max_len: DFFWithInit::new(super::DEFAULT_MAX_LEN.into()),
            txb: Default::default(),
            c_stamped: Default::default(),
            c_malformed: Default::default(),
            c_rejected: Default::default(),
            malformed: Default::default(),
            stamp: Default::default(),
            bytes_f: Default::default(),
            qlen_f: Default::default(),
            csr_ok: Default::default(),
        }
    }
}

impl Logic for IntStamper {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rate, byte_shift, qlen_shift, sat_mask, max_len, txb);
        clock!(self, clock, csr, c_stamped, c_malformed, c_rejected);
        self.csr.we.next = self.csr_we.val();
        self.csr.addr.next = self.csr_addr.val();
        self.csr.wdata.next = self.csr_wdata.val();
        self.malformed.next =
            self.deq_valid.val() & (!self.deq_len.val().any() | (self.deq_len.val() > self.max_len.q.val()));
        self.stamp.next = self.deq_valid.val() & !self.malformed.val();
        self.stamp_valid.next = self.stamp.val();
        self.drop.next = self.malformed.val();

        // fields: ts and bytes wrap, qlen saturates
        self.bytes_f.next = bit_cast::<20, 32>(self.txb.q.val() >> self.byte_shift.q.val());
        self.qlen_f.next = bit_cast::<17, 32>(self.qlen_after.val() >> self.qlen_shift.q.val());
        // saturation without a compare after the shifter: `qlen_after` has a bit at or above
        // 17 + QLEN_SHIFT (`sat_mask`, kept with QLEN_SHIFT), checked beside the shift
        if (self.qlen_after.val() & self.sat_mask.q.val()).any() {
            self.qlen_f.next = 0x1_FFFF.into();
        }
        self.int_ts.next = self.now.val();
        self.int_bytes.next = self.bytes_f.val();
        self.int_qlen.next = self.qlen_f.val();
        self.int_rate.next = self.rate.q.val();
        self.tx_bytes.next = self.txb.q.val();
        // the artifact's IntHop word: rate 2:0, time 26:3, bytes 46:27, qlen 63:47
        self.hop_lo.next = bit_cast::<32, 3>(self.rate.q.val())
            | (bit_cast::<32, 24>(self.now.val()) << 3)
            | (bit_cast::<32, 20>(self.bytes_f.val()) << 27);
        self.hop_hi.next = (bit_cast::<32, 20>(self.bytes_f.val()) >> 5) | (bit_cast::<32, 17>(self.qlen_f.val()) << 15);

        if self.stamp.val() {
            self.txb.d.next = self.txb.q.val() + bit_cast::<32, 16>(self.deq_len.val());
        }
        self.c_stamped.inc.next = self.stamp.val();
        self.c_malformed.inc.next = self.malformed.val();

        // register writes (csr module): checked in the clock they are presented, applied in the next.
        // The checks stay 32-bit compares here: as high-bit tests (as in the other blocks) the
        // stamper took fewer cells but placed at 98.9 MHz (median of five seeds) instead of 103.2,
        // its paths into the stamp then the longest.
        self.csr_ok.next = false;
        match self.csr_addr.val().index() {
            0 => self.csr_ok.next = self.csr_wdata.val() <= 4,
            1 => self.csr_ok.next = self.csr_wdata.val() <= 12,
            2 => self.csr_ok.next = self.csr_wdata.val() <= 15,
            3 => self.csr_ok.next = self.csr_wdata.val().get_bits::<16>(0).any(),
            4 => self.csr_ok.next = true,
            _ => self.csr_ok.next = (self.csr_addr.val() >= 16) & (self.csr_addr.val() < 19),
        }
        self.csr.ok.next = self.csr_ok.val();
        if self.csr.q_we.val() & self.csr.q_ok.val() {
            match self.csr.q_addr.val().index() {
                0 => self.rate.d.next = self.csr.q_wdata.val().get_bits::<3>(0),
                1 => self.byte_shift.d.next = self.csr.q_wdata.val().get_bits::<4>(0),
                2 => {
                    self.qlen_shift.d.next = self.csr.q_wdata.val().get_bits::<4>(0);
                    self.sat_mask.d.next = self.all_ones.val() << (bit_cast::<32, 4>(self.csr.q_wdata.val().get_bits::<4>(0)) + 17);
                }
                3 => self.max_len.d.next = self.csr.q_wdata.val().get_bits::<16>(0),
                4 => self.txb.d.next = self.csr.q_wdata.val(),
                _ => {}
            }
        }
        self.c_rejected.inc.next = self.csr.q_we.val() & !self.csr.q_ok.val();
        self.c_stamped.load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == 16);
        self.c_malformed.load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == 17);
        self.c_rejected.load.next = self.csr.q_we.val() & (self.csr.q_addr.val() == 18);
        self.c_stamped.load_val.next = self.csr.q_wdata.val();
        self.c_malformed.load_val.next = self.csr.q_wdata.val();
        self.c_rejected.load_val.next = self.csr.q_wdata.val();
        self.cnt_stamped.next = self.c_stamped.value.val();
        self.cnt_malformed.next = self.c_malformed.value.val();
        self.cnt_csr_rejected.next = self.c_rejected.value.val();
    }
}

crate::pin_io!(IntStamper;
    in: csr_we, csr_addr, csr_wdata, deq_valid, deq_len, now, qlen_after;
    out: stamp_valid, drop, hop_lo, hop_hi, int_ts, int_bytes, int_qlen, int_rate, tx_bytes,
        cnt_stamped, cnt_malformed, cnt_csr_rejected);
