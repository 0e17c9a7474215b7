//! # Emulation-queue shaper (gemini-flashpass.md §2.8, §4 M3, §5.2 SH)
//!
//! A token bucket that limits one queue to a fixed fraction of the link, exactly and with no
//! division or multiplication in the datapath. M3 scales tokens by `SCALE` (1622 = 84 + 1538 for
//! FlashPass's 84/(84+1538) of the link): a clock adds `84 × (link bytes per clock)` tokens and a
//! frame costs `SCALE × wire bytes`, so the rate is exactly 42/811 of the link (the 5 % shortcut
//! would under-rate it by 3.45 %).
//!
//! The bucket holds those scaled tokens in mixed radix, `tokens = TOKENS × SCALE + TOKENS_FRAC`
//! with `0 ≤ TOKENS_FRAC < SCALE`: whole wire bytes plus a remainder in 1/`SCALE` byte. Since
//! the remainder is below one byte, `tokens ≥ wire × SCALE` is exactly `TOKENS ≥ wire`, a frame is
//! charged by subtracting its wire bytes from `TOKENS`, and the refill adds the fill's whole
//! bytes plus one when the remainders carry. This is M3's bucket step for step (the model
//! checks it against the scaled form in `spec_tests`), and it needs no 16×16 multiplier, which
//! the HX8K would build from about 700 logic cells.
//!
//! Per clock, with the scheduler's view of the queue head (`head_valid`, `head_len`):
//! * `wire_len = head_len + OVERHEAD` (preamble + IFG, default 20: a 64-B frame is 84 wire
//!   bytes, 16 bits);
//! * `eligible = head_valid ∧ well-formed ∧ TOKENS ≥ wire_len`;
//! * on `deq` of an eligible head `wire_len` is charged; then the bucket refills by
//!   `FILL + FILL_FRAC/SCALE` bytes and is capped at `DEPTH` bytes ("refill after the departure
//!   decision, then cap", SH; at the cap the remainder is 0). At most one departure per clock.
//!
//! Defaults are the SH vector's 10 Gb/s at 156.25 MHz (8 B/clock): `FILL` 0, `FILL_FRAC` 672 =
//! 8 × 84, `SCALE` 1622, `DEPTH` 168 bytes = two 84-B frames (M3's 272,496 scaled tokens, the
//! [PROJECT-CHOICE] of §2.8). The bucket starts full; writing `DEPTH` or `SCALE` refills it.
//! [`rate_writes`] turns M3's scaled figures into the register writes, in an order that is
//! always accepted.
//!
//! Choices where the spec is silent (model and RTL alike):
//! * A head with length 0 or above `MAX_LEN` is malformed: never eligible, `bad_head` is raised,
//!   and a `deq` of it drops it (counted in `cnt_bad`) without charging tokens.
//! * A `deq` of a head that is not eligible (or of no head) is ignored and counted in
//!   `cnt_violation`: the shaper never goes into debt.
//! * `DEPTH` must be at least the largest wire frame or that frame never departs; the block
//!   does not check it. Invalid writes (`SCALE` not above `FILL_FRAC`, `FILL_FRAC` not below
//!   `SCALE`, `OVERHEAD` > 255, `MAX_LEN` 0, unknown address) are ignored and counted in
//!   `cnt_csr_rejected`.

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    /// Whole wire bytes added per clock (default 0).
    pub const FILL: u8 = 0;
    /// Remainder units (1/`SCALE` byte) per clock; 16 bits (low half of a 32-bit write).
    /// Accepted only if the low half is ≠ 0 and above `FILL_FRAC`; refills the bucket.
    pub const SCALE: u8 = 1;
    /// Bucket depth in wire bytes (default 168); a write also fills the bucket.
    pub const DEPTH: u8 = 2;
    /// Wire bytes added to each frame length: preamble + IFG (8 bits, default 20).
    pub const OVERHEAD: u8 = 3;
    /// Largest well-formed frame length (16 bits, default 9216).
    pub const MAX_LEN: u8 = 4;
    /// Fractional fill per clock in 1/`SCALE` byte; accepted only below `SCALE` (default 672).
    pub const FILL_FRAC: u8 = 5;
    /// Counter presets in output order: sent, bad, violation, csr_rejected.
    pub const CNT_BASE: u8 = 16;
}

pub const DEFAULT_FILL: u64 = 0;
pub const DEFAULT_FILL_FRAC: u64 = 672;
pub const DEFAULT_SCALE: u64 = 1622;
pub const DEFAULT_DEPTH: u64 = 168;
pub const DEFAULT_OVERHEAD: u64 = 20;
pub const DEFAULT_MAX_LEN: u64 = 9216;

/// The register writes that set M3's scaled bucket: `fill_tokens` scaled tokens per clock
/// (e.g. 84 × link bytes per clock), `scale` tokens per wire byte (1..=65535), `depth_bytes` wire
/// bytes. `FILL_FRAC` is cleared first, so the `SCALE` write is accepted whatever came before.
pub fn rate_writes(fill_tokens: u64, scale: u64, depth_bytes: u64) -> [(u8, u64); 5] {
    assert!((1..=0xFFFF).contains(&scale), "SCALE is 1..=65535");
    [
        (csr::FILL_FRAC, 0),
        (csr::SCALE, scale),
        (csr::FILL, fill_tokens / scale),
        (csr::FILL_FRAC, fill_tokens % scale),
        (csr::DEPTH, depth_bytes),
    ]
}

crate::pins! {
    /// Shaper inputs: register port, the queue head as the scheduler sees it, and its dequeue.
    pub struct ShaperIn {
        csr_we: 1,
        csr_addr: 8,
        csr_wdata: 32,
        head_valid: 1,
        head_len: 16,
        deq: 1,
    }
}

crate::pins! {
    /// Shaper outputs (state values at the start of the clock).
    pub struct ShaperOut {
        eligible: 1,
        bad_head: 1,
        wire_len: 16,
        tokens: 32,
        tokens_frac: 16,
        cnt_sent: 32,
        cnt_bad: 32,
        cnt_violation: 32,
        cnt_csr_rejected: 32,
    }
}

#[cfg(feature = "rtl")]
crate::switch_block!(
    "shaper",
    model: crate::shaper::model::Shaper,
    rtl: crate::shaper::rtl::TokenShaper,
    board: crate::shaper::model::Shaper, crate::shaper::rtl::TokenShaper,
    events: ["deq"],
    crate::blocks::BoardInfo {
        title: "token-bucket shaper of the emulation queue",
        params: "mixed-radix bucket (bytes + 1/SCALE remainder), 16-bit lengths",
        design_note: "Remainder carry, refill add, cap compare and the bucket update run in one clock. The refill \
                is the same every clock between register writes, so precomputing it into a register leaves \
                one add and one compare.",
        min_cells: 100,
        min_ram: 0,
    }
);
