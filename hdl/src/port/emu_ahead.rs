//! The emulation queue's eligibility judged a clock ahead (GEMINI/FlashPass §2.8: the shaped
//! queue is servable while the token bucket holds its head's wire length).
//!
//! The shaper's own test (`TokenShaper::eligible`) is a carry chain on the head's length, and in
//! the port it sat in front of DWRR's choice and the grant's fanout: the slowest path of the
//! FlashPass port. Here the test for the next clock is made in this one, for every way the
//! clock can end, each a carry chain on registers and on the arrival's length, and the clock's
//! outcome selects one into a flip-flop (`eligible`):
//!
//! - the bucket after the edge: refilled (`bucket + FILL + carry`) or, when the queue departs,
//!   charged its head and refilled, each capped at `DEPTH` (`TokenShaper`'s refill);
//! - the head after the edge: the same head, or the entry after it when the queue departs, or
//!   the arrival when it becomes the head (into an empty queue, or behind a last departing one);
//! - the head is good (not 0, not above the shaper's `MAX_LEN`) and the bucket holds its length
//!   plus `OVERHEAD`.
//!
//! What it cannot see a clock ahead is a register write landing at the edge: a shaper write
//! (which may change `DEPTH`, `OVERHEAD`, `MAX_LEN` or refill the bucket) or an `EMU_Q` write.
//! The clock after one (`stale`), the emulation queue is not servable; the port's model does the
//! same (`model.rs`, `emu_stale`). The result equals the shaper's own test on every other clock:
//! `EmuShaper` (the shaper with its look-ahead, as the port's scheduler holds it) shows both,
//! and its component test compares them with the shaper's golden model on every clock.

use crate::rtl_util::AddSub;
use crate::shaper::rtl::TokenShaper;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct EmuAhead {
    pub clock: Signal<In, Clock>,
    /// The shaper's registers (`TokenShaper`'s `r_*`).
    pub bucket: Signal<In, Bits<20>>,
    pub carry: Signal<In, Bit>,
    pub depth: Signal<In, Bits<20>>,
    pub overhead: Signal<In, Bits<8>>,
    pub max_len: Signal<In, Bits<16>>,
    pub fill_less_ovh: Signal<In, Bits<22>>,
    pub fill_less_depth: Signal<In, Bits<22>>,
    pub fill_less_depth_ovh: Signal<In, Bits<22>>,
    /// The emulation queue: enabled, its head's and second entry's lengths, non-empty, holding
    /// one entry, and this clock's push (with the arrival's length) and pop.
    pub en: Signal<In, Bit>,
    pub head_len: Signal<In, Bits<16>>,
    pub second_len: Signal<In, Bits<16>>,
    pub nonempty: Signal<In, Bit>,
    pub last: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub in_len: Signal<In, Bits<16>>,
    pub pop: Signal<In, Bit>,
    /// A register write lands at this clock's edge that the look-ahead cannot see.
    pub stale: Signal<In, Bit>,
    /// The emulation queue's head is eligible this clock (a flip-flop).
    pub eligible: Signal<Out, Bit>,
    elig: DFF<Bit>,
    b22: Signal<Local, Bits<22>>,
    h22: Signal<Local, Bits<22>>,
    s22: Signal<Local, Bits<22>>,
    i22: Signal<Local, Bits<22>>,
    n_ovh: Signal<Local, Bits<22>>,
    d22: Signal<Local, Bits<22>>,
    /// The refill reaches `DEPTH`: without the departure, and with it.
    cap_kept: AddSub<22>,
    cap_charged: AddSub<22>,
    /// The refilled bucket less a head's wire length (the same head, the arrival).
    kept_h: AddSub<22>,
    kept_i: AddSub<22>,
    /// `DEPTH` less a head's wire length (the same head, the second entry, the arrival).
    full_h: AddSub<22>,
    full_s: AddSub<22>,
    full_i: AddSub<22>,
    /// The charged and refilled bucket less the next head's wire length: two carry-save layers
    /// (the departing head, `OVERHEAD` twice) shared by the second entry's chain and the
    /// arrival's.
    csa1_sum: Signal<Local, Bits<22>>,
    csa1_carry: Signal<Local, Bits<22>>,
    csa2_sum: Signal<Local, Bits<22>>,
    csa2_carry: Signal<Local, Bits<22>>,
    charged_s: AddSub<22>,
    charged_i: AddSub<22>,
    /// A head length is bad (0 or above `MAX_LEN`).
    bad_h: Signal<Local, Bit>,
    bad_s: Signal<Local, Bit>,
    bad_i: Signal<Local, Bit>,
    /// Each way the clock can end: the next head is good and the bucket holds it.
    ok_h: Signal<Local, Bit>,
    ok_kept_i: Signal<Local, Bit>,
    ok_s: Signal<Local, Bit>,
    ok_charged_i: Signal<Local, Bit>,
    /// The arrival becomes the head; the queue is non-empty after the edge.
    to_head: Signal<Local, Bit>,
    ne_next: Signal<Local, Bit>,
    /// The sums' bits that nothing reads (the lint's `unused` convention).
    unused_sums: Signal<Local, Bit>,
}

impl Logic for EmuAhead {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, elig);
        self.eligible.next = self.elig.q.val();
        self.b22.next = bit_cast::<22, 20>(self.bucket.val());
        self.h22.next = bit_cast::<22, 16>(self.head_len.val());
        self.s22.next = bit_cast::<22, 16>(self.second_len.val());
        self.i22.next = bit_cast::<22, 16>(self.in_len.val());
        self.n_ovh.next = !bit_cast::<22, 8>(self.overhead.val());
        self.d22.next = bit_cast::<22, 20>(self.depth.val());
        // caps: bucket + FILL + carry − DEPTH ≥ 0, and less the departing head's wire length
        self.cap_kept.a.next = self.b22.val();
        self.cap_kept.b.next = self.fill_less_depth.val();
        self.cap_kept.sub.next = 0.into();
        self.cap_kept.cin.next = self.carry.val();
        self.cap_charged.a.next = self.b22.val();
        self.cap_charged.b.next = self.fill_less_depth_ovh.val();
        self.cap_charged.sub.next = self.h22.val();
        self.cap_charged.cin.next = self.carry.val();
        // no departure: bucket + (FILL − OVERHEAD) + carry − len
        self.kept_h.a.next = self.b22.val();
        self.kept_h.b.next = self.fill_less_ovh.val();
        self.kept_h.sub.next = self.h22.val();
        self.kept_h.cin.next = self.carry.val();
        self.kept_i.a.next = self.b22.val();
        self.kept_i.b.next = self.fill_less_ovh.val();
        self.kept_i.sub.next = self.i22.val();
        self.kept_i.cin.next = self.carry.val();
        // at the cap: DEPTH + !OVERHEAD + 1 − len
        self.full_h.a.next = self.d22.val();
        self.full_h.b.next = self.n_ovh.val();
        self.full_h.sub.next = self.h22.val();
        self.full_h.cin.next = true;
        self.full_s.a.next = self.d22.val();
        self.full_s.b.next = self.n_ovh.val();
        self.full_s.sub.next = self.s22.val();
        self.full_s.cin.next = true;
        self.full_i.a.next = self.d22.val();
        self.full_i.b.next = self.n_ovh.val();
        self.full_i.sub.next = self.i22.val();
        self.full_i.cin.next = true;
        // departure: bucket + (FILL − OVERHEAD) + carry − head − OVERHEAD − len, as
        // bucket + (FILL − OVERHEAD) + !head + 1 + !OVERHEAD + 1 − len + carry (each carry word's
        // free bit 0 takes one of the 1s)
        self.csa1_sum.next = self.b22.val() ^ self.fill_less_ovh.val() ^ !self.h22.val();
        self.csa1_carry.next = (((self.b22.val() & self.fill_less_ovh.val()) | (self.b22.val() & !self.h22.val())
            | (self.fill_less_ovh.val() & !self.h22.val())) << 1) | 1;
        self.csa2_sum.next = self.csa1_sum.val() ^ self.csa1_carry.val() ^ self.n_ovh.val();
        self.csa2_carry.next = (((self.csa1_sum.val() & self.csa1_carry.val()) | (self.csa1_sum.val() & self.n_ovh.val())
            | (self.csa1_carry.val() & self.n_ovh.val())) << 1) | 1;
        self.charged_s.a.next = self.csa2_sum.val();
        self.charged_s.b.next = self.csa2_carry.val();
        self.charged_s.sub.next = self.s22.val();
        self.charged_s.cin.next = self.carry.val();
        self.charged_i.a.next = self.csa2_sum.val();
        self.charged_i.b.next = self.csa2_carry.val();
        self.charged_i.sub.next = self.i22.val();
        self.charged_i.cin.next = self.carry.val();
        self.unused_sums.next = self.cap_kept.out.val().get_bits::<21>(0).any() | self.cap_charged.out.val().get_bits::<21>(0).any()
            | self.kept_h.out.val().get_bits::<21>(0).any() | self.kept_i.out.val().get_bits::<21>(0).any()
            | self.full_h.out.val().get_bits::<21>(0).any() | self.full_s.out.val().get_bits::<21>(0).any()
            | self.full_i.out.val().get_bits::<21>(0).any() | self.charged_s.out.val().get_bits::<21>(0).any()
            | self.charged_i.out.val().get_bits::<21>(0).any();
        // a head is bad when 0 or above MAX_LEN
        self.bad_h.next = !self.head_len.val().any() | (self.head_len.val() > self.max_len.val());
        self.bad_s.next = !self.second_len.val().any() | (self.second_len.val() > self.max_len.val());
        self.bad_i.next = !self.in_len.val().any() | (self.in_len.val() > self.max_len.val());
        // each outcome: the head good and the bucket after the edge (capped or not) holding it
        self.ok_h.next = !self.bad_h.val() & !self.kept_h.out.val().get_bit(21);
        self.ok_kept_i.next = !self.bad_i.val() & !self.kept_i.out.val().get_bit(21);
        if !self.cap_kept.out.val().get_bit(21) {
            self.ok_h.next = !self.bad_h.val() & !self.full_h.out.val().get_bit(21);
            self.ok_kept_i.next = !self.bad_i.val() & !self.full_i.out.val().get_bit(21);
        }
        self.ok_s.next = !self.bad_s.val() & !self.charged_s.out.val().get_bit(21);
        self.ok_charged_i.next = !self.bad_i.val() & !self.charged_i.out.val().get_bit(21);
        if !self.cap_charged.out.val().get_bit(21) {
            self.ok_s.next = !self.bad_s.val() & !self.full_s.out.val().get_bit(21);
            self.ok_charged_i.next = !self.bad_i.val() & !self.full_i.out.val().get_bit(21);
        }
        // the clock's outcome selects
        self.to_head.next = self.push.val() & (!self.nonempty.val() | (self.pop.val() & self.last.val()));
        self.ne_next.next = self.push.val() | (self.nonempty.val() & !(self.pop.val() & self.last.val()));
        self.elig.d.next = self.ok_h.val();
        if self.to_head.val() {
            self.elig.d.next = self.ok_kept_i.val();
        }
        if self.pop.val() {
            self.elig.d.next = self.ok_s.val();
            if self.to_head.val() {
                self.elig.d.next = self.ok_charged_i.val();
            }
        }
        if !self.en.val() | !self.ne_next.val() | self.stale.val() {
            self.elig.d.next = false;
        }
    }
}

/// The emulation queue's shaper with its look-ahead: the token bucket (`TokenShaper`) judges
/// and charges the head it is given, `EmuAhead` judges the next clock's head from the
/// bucket's registers, and the look-ahead is stale the clock after a shaper write lands (a
/// write presented in the last clock) or the queue is redefined (`queue_write`, the port's
/// `EMU_Q` write). The scheduler serves the queue on `eligible`; the component test
/// (`sim-tests/tests/port_components.rs`) checks it, and `shaper_eligible` (the shaper's own
/// test on this clock's head), against the shaper's golden model.
#[derive(LogicBlock, Default)]
pub struct EmuShaper {
    pub clock: Signal<In, Clock>,
    /// The shaper's register port (its block's writes only).
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    /// The emulation queue is enabled, and its state and this clock's events (`EmuAhead`).
    pub en: Signal<In, Bit>,
    pub head_len: Signal<In, Bits<16>>,
    pub second_len: Signal<In, Bits<16>>,
    pub nonempty: Signal<In, Bit>,
    pub last: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub in_len: Signal<In, Bits<16>>,
    /// The queue's head departs this clock.
    pub deq: Signal<In, Bit>,
    /// `EMU_Q` is written this clock.
    pub queue_write: Signal<In, Bit>,
    pub eligible: Signal<Out, Bit>,
    pub shaper_eligible: Signal<Out, Bit>,
    /// A shaper write lands at this clock's edge (a flip-flop).
    pub write_lands: Signal<Out, Bit>,
    shaper: TokenShaper,
    ahead: EmuAhead,
    /// A shaper write was presented last clock: it lands at this clock's edge.
    we_r: DFF<Bit>,
}

impl Logic for EmuShaper {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, shaper, ahead);
        dff_setup!(self, clock, we_r);
        self.shaper.csr_we.next = self.csr_we.val();
        self.shaper.csr_addr.next = self.csr_addr.val();
        self.shaper.csr_wdata.next = self.csr_wdata.val();
        self.shaper.head_valid.next = self.en.val() & self.nonempty.val();
        self.shaper.head_len.next = self.head_len.val();
        self.shaper.deq.next = self.deq.val();
        self.ahead.bucket.next = self.shaper.r_bucket.val();
        self.ahead.carry.next = self.shaper.r_carry.val();
        self.ahead.depth.next = self.shaper.r_depth.val();
        self.ahead.overhead.next = self.shaper.r_overhead.val();
        self.ahead.max_len.next = self.shaper.r_max_len.val();
        self.ahead.fill_less_ovh.next = self.shaper.r_fill_less_ovh.val();
        self.ahead.fill_less_depth.next = self.shaper.r_fill_less_depth.val();
        self.ahead.fill_less_depth_ovh.next = self.shaper.r_fill_less_depth_ovh.val();
        self.ahead.en.next = self.en.val();
        self.ahead.head_len.next = self.head_len.val();
        self.ahead.second_len.next = self.second_len.val();
        self.ahead.nonempty.next = self.nonempty.val();
        self.ahead.last.next = self.last.val();
        self.ahead.push.next = self.push.val();
        self.ahead.in_len.next = self.in_len.val();
        self.ahead.pop.next = self.deq.val();
        self.we_r.d.next = self.csr_we.val();
        // stale after a write, and after a pop the shaper did not charge (a violation: a write
        // landed while the pick waited for the link)
        self.ahead.stale.next = self.we_r.q.val() | self.queue_write.val() | (self.deq.val() & !self.shaper.eligible.val());
        self.write_lands.next = self.we_r.q.val();
        self.eligible.next = self.ahead.eligible.val();
        self.shaper_eligible.next = self.shaper.eligible.val();
    }
}

crate::pin_io!(EmuShaper;
    in: csr_we, csr_addr, csr_wdata, en, head_len, second_len, nonempty, last, push, in_len, deq, queue_write;
    out: eligible, shaper_eligible);
