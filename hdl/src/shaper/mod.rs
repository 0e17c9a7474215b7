#![doc = include_str!("README.md")]

pub mod model;
#[cfg(feature = "rtl")]
pub mod regs;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    crate::regmap! { u8;
        FILL @ 0 : Wo, "Whole wire bytes added per clock, below 2^20 (reset 0; a larger write is rejected).";
        SCALE @ 1 : Wo, "Remainder units (1/`SCALE` byte) per wire byte, 16 bits (low half of the write); accepted only when the low half is above `FILL_FRAC`; refills the bucket (reset 1622).";
        DEPTH @ 2 : Wo, "Bucket depth in wire bytes, below 2^20 (reset 168; a larger write is rejected); a write also fills the bucket.";
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
/// `FILL` and `DEPTH` are below 2^20 bytes (1 MiB), so the bucket is 20 bits wide.
pub const BUCKET_BITS: usize = 20;
pub const BUCKET_LIMIT: u64 = 1 << BUCKET_BITS;

/// The register writes that set M3's scaled bucket: `fill_tokens` scaled tokens per clock
/// (e.g. 84 × link bytes per clock), `scale` tokens per wire byte (1..=65535), `depth_bytes` wire
/// bytes. `FILL_FRAC` is cleared first, so the `SCALE` write is accepted whatever came before.
/// Panics on a rate or depth the registers cannot hold (the block would reject the write).
pub fn rate_writes(fill_tokens: u64, scale: u64, depth_bytes: u64) -> [(u8, u64); 5] {
    assert!((1..=0xFFFF).contains(&scale), "SCALE is 1..=65535");
    assert!(fill_tokens / scale < BUCKET_LIMIT, "FILL (whole bytes per clock) is below 2^20");
    assert!(depth_bytes < BUCKET_LIMIT, "DEPTH is below 2^20 bytes");
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
        wire_len: 17,
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
        params: "mixed-radix bucket (20-bit bytes + 1/SCALE remainder), 16-bit lengths",
        design_note: "The bucket is 20 bits (`FILL` and `DEPTH` below 2^20) and every outcome of a clock is one 22-bit \
                carry chain from registers and the head length, side by side: the eligibility `bucket − len − OVERHEAD`, \
                and the refill with and without the departure, each with its cap test against `DEPTH` \
                (`rtl_util::AddSub`: a carry-save layer and one chain). The bucket's next value is made for both ways \
                the clock can end, each capped, before the departure selects; the departure (`take`) is one gate on \
                the two checks of the head length (its `MAX_LEN` and the eligibility) and a flag of the inputs alone. \
                What that takes: the remainder's carry a register (made a clock ahead, one chain for each way the \
                remainder moves), the cap's zero remainder a flag (`capped`) applied where the remainder is read, so \
                the remainder's flip-flops are off the departure's path (a synchronous reset of them is a net \
                nextpnr-ice40 0.4 puts behind a global buffer), and `FILL − DEPTH`, `FILL − OVERHEAD` and \
                `FILL − DEPTH − OVERHEAD` kept with the registers, each write's outcome its own chain from the write \
                data, selected by the write's decode. Register writes are checked a clock before they are applied \
                (`rtl_util::CsrStage`; a check against the other of `SCALE` and `FILL_FRAC` reads a write held in \
                the stage, and the held write's register is decoded as it is presented, `kind`), so no check \
                shares a clock with the bucket. Counters count a clock late. Over 20 seeds (`--trial --seeds 20 \
                shaper`) this is 92.14 MHz (86.58–94.80) for 1,853 cells, against 89.65 (81.91–93.31) for 1,762 \
                with the cap applied after the departure's select and the remainder zeroed in its next value \
                (the RTL before this one). What is left is the next carry (three placements, from the gap or \
                `FILL_FRAC`): the remainder's sum, its select and a `FILL_FRAC` write's carry chain in series; and \
                the cap flag (two): the bucket through a cap test's chain and the departure's select. \
                Tried and not kept: a `FILL_FRAC` write's carry made from the flip-flops for each way the \
                remainder moves (three chains with a carry-save layer, none behind another), 83.27 MHz \
                (76.93–89.67) over 20 seeds, its own chains and selects then the slowest path; `bucket − OVERHEAD` \
                kept as a register so the eligibility is `− len` alone (abc then put four LUT levels after that \
                chain); and the block with every input registered and its eligibility judged a clock ahead from \
                the registered head and the next one at the pins (`port::emu_ahead`'s look-ahead; a clock of \
                latency): 79.38 MHz (76.91–85.95, `--trial shaper` on scratch RTL), the bucket's own refill from \
                its registers, the look-ahead's chain and the register writes' checks then each as long as the \
                loop was. The switch port judges the eligibility a clock ahead (`port::emu_ahead`), on the heads it \
                knows a clock ahead; the block alone, given its head in the clock it decides, still closes this \
                loop in one clock.",
        min_cells: 100,
        min_ram: 0,
        fits_hx8k: true,
        ice40_synth_flags: "",
    }
);
