//! # Emulation-queue shaper (gemini-flashpass.md §2.8, §4 M3, §5.2 SH)
//!
//! A token bucket that limits one queue to a fixed fraction of the link with no division in the
//! datapath: tokens are scaled so that the rate is exact. For FlashPass's emulation queue at
//! 84/(84+1538) of the link, the bucket gains `FILL = 84 × (link bytes per clock)` tokens per
//! clock and a frame costs `SCALE × wire bytes` with `SCALE = 84 + 1538 = 1622`, so the
//! long-run rate is exactly `FILL / SCALE = 84/1622` of the link's bytes per clock (42/811;
//! the 5 % shortcut would under-rate it by 3.45 %).
//!
//! Per clock, with the scheduler's view of the queue head (`head_valid`, `head_len`):
//! * `cost = (head_len + OVERHEAD) × SCALE` (wire bytes: preamble + IFG `OVERHEAD`, default
//!   20, so a 64-B frame is 84 wire bytes and costs 136,248), one 16×16 multiply;
//! * `eligible = head_valid ∧ well-formed ∧ tokens ≥ cost`;
//! * on `deq` of an eligible head, the cost is charged; then the bucket refills by `FILL` and is
//!   capped at `DEPTH` ("refill after the departure decision, then cap", SH). At most one
//!   departure per clock.
//!
//! Defaults are the SH vector's 10 Gb/s at 156.25 MHz (8 B/clock): `FILL` 672, `SCALE` 1622,
//! `DEPTH` 272,496 = 2 × 84 × 1622 (a two-frame burst, the [PROJECT-CHOICE] of §2.8). The
//! bucket starts full; writing `DEPTH` refills it to the new depth.
//!
//! Choices where the spec is silent (model and RTL alike):
//! * A head with length 0 or above `MAX_LEN` is malformed: never eligible, `bad_head` is raised,
//!   and a `deq` of it drops it (counted in `cnt_bad`) without charging tokens.
//! * A `deq` of a head that is not eligible (or of no head) is ignored and counted in
//!   `cnt_violation`: the shaper never goes into debt.
//! * `DEPTH` must be at least the largest frame's cost or that frame never departs; the block
//!   does not check it. Invalid writes (`SCALE` 0, `OVERHEAD` > 255, `MAX_LEN` 0, unknown
//!   address) are ignored and counted in `cnt_csr_rejected`.

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    /// Tokens added per clock (default 672 = 8 B/clock × 84).
    pub const FILL: u8 = 0;
    /// Tokens per wire byte (16 bits, default 1622).
    pub const SCALE: u8 = 1;
    /// Bucket depth in tokens (default 272,496); a write also fills the bucket.
    pub const DEPTH: u8 = 2;
    /// Wire bytes added to each frame length: preamble + IFG (8 bits, default 20).
    pub const OVERHEAD: u8 = 3;
    /// Largest well-formed frame length (16 bits, default 9216).
    pub const MAX_LEN: u8 = 4;
    /// Counter presets in output order: sent, bad, violation, csr_rejected.
    pub const CNT_BASE: u8 = 16;
}

pub const DEFAULT_FILL: u64 = 672;
pub const DEFAULT_SCALE: u64 = 1622;
pub const DEFAULT_DEPTH: u64 = 272_496;
pub const DEFAULT_OVERHEAD: u64 = 20;
pub const DEFAULT_MAX_LEN: u64 = 9216;

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
        cost: 32,
        tokens: 32,
        cnt_sent: 32,
        cnt_bad: 32,
        cnt_violation: 32,
        cnt_csr_rejected: 32,
    }
}
