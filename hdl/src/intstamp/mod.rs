#![doc = include_str!("README.md")]

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    crate::regmap! { u8;
        RATE @ 0 : Wo, "Link-rate code 0..=4 (25/50/100/200/400 Gb/s; reset 2).";
        BYTE_SHIFT @ 1 : Wo, "log2 of the `bytes` field unit, 0..=12 (reset 9: 512 B).";
        QLEN_SHIFT @ 2 : Wo, "log2 of the `qlen` field unit, 0..=15 (reset 8: 256 B).";
        MAX_LEN @ 3 : Wo, "Largest well-formed length in bytes, 16 bits (reset 9216; 0 rejected).";
        TX_LOAD @ 4 : Wo, "Load the cumulative transmitted-byte counter.";
        CNT_BASE @ 16 x 3 : Wo, "Counter presets, in output order: stamped, malformed, csr_rejected.";
    }
}

pub const DEFAULT_RATE: u64 = 2;
pub const DEFAULT_BYTE_SHIFT: u64 = 9;
pub const DEFAULT_QLEN_SHIFT: u64 = 8;
pub const DEFAULT_MAX_LEN: u64 = 9216;

crate::pins! {
    /// INT stamper inputs.
    pub struct IntIn {
        /// Register write strobe.
        csr_we: 1,
        /// Register address (the table above).
        csr_addr: 8,
        /// Register write data.
        csr_wdata: 32,
        /// A descriptor leaves the port this clock.
        deq_valid: 1,
        /// Its length in bytes.
        deq_len: 16,
        /// The port's time base in ns (the 24 bits the record carries).
        now: 24,
        /// Bytes still queued on this egress after removing this packet.
        qlen_after: 32,
    }
}

crate::pins! {
    /// INT stamper outputs.
    pub struct IntOut {
        /// A record is stamped this clock.
        stamp_valid: 1,
        /// Malformed: the port drops it.
        drop: 1,
        /// The hop record, bits 31:0.
        hop_lo: 32,
        /// The hop record, bits 63:32.
        hop_hi: 32,
        /// Its `time` field.
        int_ts: 24,
        /// Its `bytes` field.
        int_bytes: 20,
        /// Its `qlen` field.
        int_qlen: 17,
        /// Its `lineRate` field.
        int_rate: 3,
        /// Bytes sent before this packet (32-bit, modular).
        tx_bytes: 32,
        /// Records stamped.
        cnt_stamped: 32,
        /// Malformed descriptors (length 0 or above `MAX_LEN`).
        cnt_malformed: 32,
        /// Register writes ignored (unknown address or invalid value).
        cnt_csr_rejected: 32,
    }
}

/// Pack the artifact's `IntHop` word (bit layout in the module doc).
pub fn pack_hop(rate: u64, ts: u64, bytes: u64, qlen: u64) -> u64 {
    (rate & 7) | (ts & 0xFF_FFFF) << 3 | (bytes & 0xF_FFFF) << 27 | (qlen & 0x1_FFFF) << 47
}

crate::readme_tables!(IntIn, IntOut);

#[cfg(feature = "rtl")]
crate::switch_block!(
    "intstamp",
    model: crate::intstamp::model::IntStamp,
    rtl: crate::intstamp::rtl::IntStamper,
    board: crate::intstamp::model::IntStamp, crate::intstamp::rtl::IntStamper,
    events: ["deq_valid"],
    crate::blocks::BoardInfo {
        title: "INT stamping at dequeue (HPCC hop record)",
        params: "24-bit time, 32-bit byte counter, 32-bit queue length",
        design_note: "Pipelined for 100 MHz: register writes are checked in their clock and applied in the next \
                (`CsrStage`), counters count their event a clock later with a registered saturation flag \
                (`LateCounter`), and the qlen field saturates on a mask kept with `QLEN_SHIFT` beside the shifter. \
                What is left in one clock is the record's own decision: the 16-bit length check against `MAX_LEN` \
                selecting the 32-bit `tx_bytes` update.",
        min_cells: 100,
        min_ram: 0,
        fits_hx8k: true,
        ice40_synth_flags: "",
    }
);
