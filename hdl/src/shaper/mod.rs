#![doc = include_str!("README.md")]

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    crate::regmap! { u8;
        FILL @ 0 : Wo, "Whole wire bytes added per clock (reset 0).";
        SCALE @ 1 : Wo, "Remainder units (1/`SCALE` byte) per wire byte, 16 bits (low half of the write); accepted only when the low half is above `FILL_FRAC`; refills the bucket (reset 1622).";
        DEPTH @ 2 : Wo, "Bucket depth in wire bytes (reset 168); a write also fills the bucket.";
        OVERHEAD @ 3 : Wo, "Wire bytes added to each frame length: preamble + IFG, 8 bits (reset 20).";
        MAX_LEN @ 4 : Wo, "Largest well-formed frame length, 16 bits (reset 9216; 0 rejected).";
        FILL_FRAC @ 5 : Wo, "Fractional fill per clock in 1/`SCALE` byte; accepted only below `SCALE` (reset 672).";
        CNT_BASE @ 16 x 4 : Wo, "Counter presets, in output order: sent, bad, violation, csr_rejected.";
    }
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
        /// Register write strobe.
        csr_we: 1,
        /// Register address (the table above).
        csr_addr: 8,
        /// Register write data.
        csr_wdata: 32,
        /// The emulation queue has a head.
        head_valid: 1,
        /// Its length in bytes.
        head_len: 16,
        /// The scheduler takes the head this clock.
        deq: 1,
    }
}

crate::pins! {
    /// Shaper outputs (state values at the start of the clock).
    pub struct ShaperOut {
        /// The head may depart (well-formed and `TOKENS ≥ wire_len`).
        eligible: 1,
        /// The head is malformed.
        bad_head: 1,
        /// `head_len + OVERHEAD`.
        wire_len: 16,
        /// Whole wire bytes in the bucket.
        tokens: 32,
        /// The remainder, in 1/`SCALE` byte.
        tokens_frac: 16,
        /// Frames sent.
        cnt_sent: 32,
        /// Malformed heads dropped.
        cnt_bad: 32,
        /// Dequeues of a head that was not eligible (ignored).
        cnt_violation: 32,
        /// Register writes ignored (unknown address or invalid value).
        cnt_csr_rejected: 32,
    }
}

crate::readme_tables!(ShaperIn, ShaperOut);

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
        design_note: "The remainder's carry is one compare against `SCALE − FILL_FRAC` (kept with the registers), \
                counters count a clock late, and the eligibility is one carry chain, `bucket − len − OVERHEAD`, \
                beside the wire length's (whose wrap past 16 bits it reads from the top bits of the same \
                difference). What is left is the bucket's update after the decision: the charge and refill \
                `bucket − wire + FILL + carry` and the cap compare against `DEPTH`, two 33-bit chains in series \
                behind the eligibility and `deq`. Tried on 2026-11-26 and not kept: `FILL − DEPTH` (and + 1) and \
                `FILL + 1` kept with the registers, so that each (charged, carry) outcome's cap test and refill is \
                one carry chain through a carry-save layer, side by side: faster, but far from 100 MHz and for \
                more cells than the HX8K port has room for. 100 MHz needs the 32-bit bucket out of the decision: \
                a narrower bucket (`DEPTH` below 2^20) or the charge a clock late with the eligibility judged on \
                the bucket less the charge in flight.",
        min_cells: 100,
        min_ram: 0,
        fits_hx8k: true,
    }
);
