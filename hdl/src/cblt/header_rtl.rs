//! RTL of CB-LT §6.3's receive checks on one symbol's header: the decoder's header checker
//! (`decoder_rtl`'s SCREEN and CHECK clocks). The model is [`super::header::Header::check_data`]
//! with the decoder's own rules after it: k above the core's k_max (`KAboveCore`), and another
//! message than the open context's (`OtherMessage`), as `decoder::Decoder::push` ranks them.

use crate::rtl_util::c;
use rust_hdl::prelude::*;

use super::{HEADER_LEN, K_MAX};

/// The checks over two clocks. At the edge that ends a clock with `take`, the incoming header
/// (`in_hdr`, W0; `in_bitset`; the UDP payload length `in_len`) is registered with the rules of
/// the packet alone (truncation; size zero or too large; an empty bitset, the length, k above
/// the core; and `MSG_SIZE − NPKT·S − 1` with `NPKT·S` from a constant table, no multiply). In
/// the next clock NPKT's rule and bits at or above k (against k's mask, registered with the
/// header) are judged from those registers, and the header is compared with the decoder's
/// state (`tomb_v`/`tomb_id`: the tombstone's MSG_ID;
/// `bound`/`ctx_hdr`: the open context's W0), all registered. From the clock after that,
/// `trunc`, `tomb` and `reason` are the verdict: the first §6.3 reason in the model's order
/// (`Invalid::code`, 0 if none; 8 for another message), until the next `take`. `hdr` and
/// `bits` hold the taken header from the clock after its `take`. No table, add or compare is
/// in series with another.
#[derive(LogicBlock)]
pub struct HeaderCheck {
    pub clock: Signal<In, Clock>,
    pub take: Signal<In, Bit>,
    pub in_hdr: Signal<In, Bits<32>>,
    pub in_len: Signal<In, Bits<16>>,
    pub in_bitset: Signal<In, Bits<64>>,
    pub tomb_v: Signal<In, Bit>,
    pub tomb_id: Signal<In, Bits<8>>,
    pub bound: Signal<In, Bit>,
    pub ctx_hdr: Signal<In, Bits<32>>,
    pub hdr: Signal<Out, Bits<32>>,
    pub bits: Signal<Out, Bits<64>>,
    pub trunc: Signal<Out, Bit>,
    pub tomb: Signal<Out, Bit>,
    pub reason: Signal<Out, Bits<4>>,
    s24: Constant<Bits<24>>,
    /// `NPKT · S` for each NPKT: a 64-entry constant table (a few LUT levels; the multiply it
    /// replaces took a DSP block's delay on the ECP5).
    npkt_s: ROM<Bits<24>, 6>,
    len_ok: Constant<Bits<16>>,
    max_size: Constant<Bits<19>>,
    k_max: Constant<Bits<7>>,
    ones64: Constant<Bits<64>>,
    // taken with the header
    h_hdr: DFF<Bits<32>>,
    h_bits: DFF<Bits<64>>,
    h_trunc: DFF<Bit>,
    /// MSG_SIZE − NPKT·S − 1 (`h_sml`), the first reason ranked above NPKT's (`h_rhi`: size
    /// zero or too large) and the first of those ranked below it but bits beyond k (`h_rlo`:
    /// empty bitset, length, k above the core).
    h_sml: DFF<Bits<24>>,
    h_rhi: DFF<Bits<4>>,
    h_rlo: DFF<Bits<4>>,
    /// The taken header's k bits as a mask (bit i set for i < k), made from the incoming header
    /// so that the next clock's test of bits at or above k is an AND-OR on registers.
    h_full: DFF<Bits<64>>,
    // judged in the clock after: the first reason but another message's (`h_reason`), the
    // tombstone's MSG_ID (`h_tomb`), another message than the open context's (`h_other`)
    h_reason: DFF<Bits<4>>,
    h_tomb: DFF<Bit>,
    h_other: DFF<Bit>,
    npkt: Signal<Local, Bits<6>>,
    size: Signal<Local, Bits<18>>,
    kk: Signal<Local, Bits<7>>,
    ck_rhi: Signal<Local, Bits<4>>,
    ck_rlo: Signal<Local, Bits<4>>,
    size_m_lo: Signal<Local, Bits<24>>,
    /// The incoming header's k bits as a mask, and whether the taken bitset has a bit at k or
    /// above.
    full: Signal<Local, Bits<64>>,
    c_beyond: Signal<Local, Bit>,
    c_npkt: Signal<Local, Bit>,
}

impl HeaderCheck {
    /// The checks for symbols of `s` bytes and a core of `k_max` (≤ 64) rows.
    pub fn new(s: usize, k_max: usize) -> Self {
        assert!((1..=super::S_MAX).contains(&s) && (1..=K_MAX).contains(&k_max));
        HeaderCheck {
            clock: Default::default(),
            take: Default::default(),
            in_hdr: Default::default(),
            in_len: Default::default(),
            in_bitset: Default::default(),
            tomb_v: Default::default(),
            tomb_id: Default::default(),
            bound: Default::default(),
            ctx_hdr: Default::default(),
            hdr: Default::default(),
            bits: Default::default(),
            trunc: Default::default(),
            tomb: Default::default(),
            reason: Default::default(),
            s24: c(s as u64),
            npkt_s: (0..64u64).map(|n| Bits::<24>::from(n * s as u64)).into(),
            len_ok: c((HEADER_LEN + s) as u64),
            max_size: c((K_MAX * s) as u64),
            k_max: c(k_max as u64),
            ones64: c(u64::MAX),
            h_hdr: Default::default(),
            h_bits: Default::default(),
            h_trunc: Default::default(),
            h_sml: Default::default(),
            h_rhi: Default::default(),
            h_rlo: Default::default(),
            h_full: Default::default(),
            h_reason: Default::default(),
            h_tomb: Default::default(),
            h_other: Default::default(),
            npkt: Default::default(),
            size: Default::default(),
            kk: Default::default(),
            ck_rhi: Default::default(),
            ck_rlo: Default::default(),
            size_m_lo: Default::default(),
            full: Default::default(),
            c_beyond: Default::default(),
            c_npkt: Default::default(),
        }
    }
}

impl Logic for HeaderCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, h_hdr, h_bits, h_trunc, h_sml, h_rhi, h_rlo, h_full, h_reason, h_tomb, h_other);
        // ---- the packet alone, on the incoming header ----
        self.npkt.next = self.in_hdr.val().get_bits::<6>(26);
        self.size.next = self.in_hdr.val().get_bits::<18>(8);
        self.kk.next = bit_cast::<7, 6>(self.npkt.val()) + 1;
        self.npkt_s.address.next = self.npkt.val();
        self.ck_rlo.next = 0.into();
        if self.kk.val() > self.k_max.val() {
            self.ck_rlo.next = 9.into();
        }
        if self.in_len.val() != self.len_ok.val() {
            self.ck_rlo.next = 7.into();
        }
        if !self.in_bitset.val().any() {
            self.ck_rlo.next = 5.into();
        }
        self.ck_rhi.next = 0.into();
        if bit_cast::<19, 18>(self.size.val()) > self.max_size.val() {
            self.ck_rhi.next = 3.into();
        }
        if !self.size.val().any() {
            self.ck_rhi.next = 2.into();
        }
        // NPKT·S < MSG_SIZE ≤ NPKT·S + S, as one add and one compare with the constant S:
        // MSG_SIZE − NPKT·S − 1 < S in 24 bits (NPKT·S < 2^22 and MSG_SIZE < 2^18, so a
        // MSG_SIZE ≤ NPKT·S wraps to at least 2^24 − 2^22, above any S < 2^16); the add here,
        // the compare in the next clock
        self.size_m_lo.next = bit_cast::<24, 18>(self.size.val()) + !self.npkt_s.data.val();
        self.full.next = self.ones64.val();
        if self.npkt.val() != 63 {
            self.full.next = !(self.ones64.val() << self.kk.val());
        }
        if self.take.val() {
            self.h_hdr.d.next = self.in_hdr.val();
            self.h_bits.d.next = self.in_bitset.val();
            self.h_trunc.d.next = self.in_len.val() < 12;
            self.h_sml.d.next = self.size_m_lo.val();
            self.h_rhi.d.next = self.ck_rhi.val();
            self.h_rlo.d.next = self.ck_rlo.val();
            self.h_full.d.next = self.full.val();
        }
        // ---- the clock after: NPKT's rule (ranked between the size's and the bitset's), bits
        // at or above k (ranked below an empty bitset and above the rest), the decoder's state ----
        self.c_npkt.next = !(self.h_sml.q.val() < self.s24.val());
        self.c_beyond.next = (self.h_bits.q.val() & !self.h_full.q.val()).any();
        self.h_tomb.d.next = self.tomb_v.val() & (self.h_hdr.q.val().get_bits::<8>(0) == self.tomb_id.val());
        self.h_other.d.next = self.bound.val() & (self.h_hdr.q.val() != self.ctx_hdr.val());
        self.h_reason.d.next = self.h_rlo.q.val();
        // (an empty bitset, reason 5, has no bit beyond k)
        if self.c_beyond.val() {
            self.h_reason.d.next = 6.into();
        }
        if self.c_npkt.val() {
            self.h_reason.d.next = 4.into();
        }
        if self.h_rhi.q.val().any() {
            self.h_reason.d.next = self.h_rhi.q.val();
        }
        // ---- the verdict ----
        self.hdr.next = self.h_hdr.q.val();
        self.bits.next = self.h_bits.q.val();
        self.trunc.next = self.h_trunc.q.val();
        self.tomb.next = self.h_tomb.q.val();
        self.reason.next = self.h_reason.q.val();
        if !self.h_reason.q.val().any() & self.h_other.q.val() {
            self.reason.next = 8.into();
        }
    }
}

/// The instance the component's own test drives (`sim-tests/tests/cblt_components.rs`):
/// S = 64, k_max = 16, the small NIC's geometry.
pub fn test_header_check() -> HeaderCheck {
    HeaderCheck::new(64, 16)
}

crate::pin_io!(HeaderCheck; in: take, in_hdr, in_len, in_bitset, tomb_v, tomb_id, bound, ctx_hdr; out: hdr, bits, trunc, tomb, reason);
