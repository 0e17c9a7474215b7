//! # INT stamping at dequeue (hpcc-swift-vai-sf.md §1.6, §3.3, §3.5, §4.4)
//!
//! For every packet leaving the egress port the block produces the HPCC hop record: the egress
//! timestamp, the port's cumulative transmitted bytes *before* this packet, the bytes still
//! queued *after* removing it, and the link-rate code. The record is the artifact's 8-byte
//! `IntHop` (`int-header.h`), bit for bit, as two 32-bit words (`hop_lo` = bits 31:0):
//!
//! | bits | field | width | content |
//! |---|---|---|---|
//! | 2:0 | `lineRate` | 3 | `RATE` code: 0 25G, 1 50G, 2 100G (default), 3 200G, 4 400G |
//! | 26:3 | `time` | 24 | `now` (the time base mod 2^24 ns; wraps every 16.78 ms) |
//! | 46:27 | `bytes` | 20 | `(tx_bytes >> BYTE_SHIFT)` mod 2^20 |
//! | 63:47 | `qlen` | 17 | `min(qlen_after >> QLEN_SHIFT, 2^17 − 1)` |
//!
//! The fields are also output separately (`int_ts`, `int_bytes`, `int_qlen`, `int_rate`).
//! Receivers take differences modulo the field width (§3.4 item 8): ts and bytes wrap, by
//! design. `tx_bytes` is a 32-bit modular byte counter, so `bytes` stays consistent across its
//! wrap as long as `BYTE_SHIFT + 20 ≤ 32`.
//!
//! Choices where the spec is silent (model and RTL alike):
//! * Units are powers of two. The artifact's byte unit is `128 × INT_MULTI` (512 B at 100G,
//!   `BYTE_SHIFT` 9, the default); its qlen unit `80 × INT_MULTI` is not a power of two and would
//!   need a divider, so `qlen` uses `2^QLEN_SHIFT` bytes (default 8: 256 B, so 17 bits cover
//!   32 MiB). The host's CC engine scales by the unit it is told. qlen saturates, it never
//!   wraps (a queue length has no modular meaning).
//! * `tx_bytes` counts frame bytes as the descriptor gives them (the artifact counts
//!   `GetSize()`, no preamble/IFG); `TX_LOAD` sets it (tests cross the wrap).
//! * `now` is an input: the low 24 bits of the port's nanosecond time base.
//! * A descriptor with length 0 or above `MAX_LEN` is malformed: `drop` is raised, nothing is
//!   stamped and `tx_bytes` does not move; counted in `cnt_malformed`. Every dequeue lands in
//!   `cnt_stamped` or `cnt_malformed`.
//! * Register writes with an unknown address or invalid value (`RATE` 5–7, `BYTE_SHIFT` > 12,
//!   `QLEN_SHIFT` > 15, `MAX_LEN` 0) are ignored and counted in `cnt_csr_rejected`.

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    /// Link-rate code 0..=4 (25/50/100/200/400 Gb/s); default 2.
    pub const RATE: u8 = 0;
    /// log2 of the `bytes` field unit, 0..=12; default 9 (512 B).
    pub const BYTE_SHIFT: u8 = 1;
    /// log2 of the `qlen` field unit, 0..=15; default 8 (256 B).
    pub const QLEN_SHIFT: u8 = 2;
    /// Largest well-formed length in bytes (16 bits, default 9216).
    pub const MAX_LEN: u8 = 3;
    /// Load the cumulative byte counter.
    pub const TX_LOAD: u8 = 4;
    /// Counter presets in output order: stamped, malformed, csr_rejected.
    pub const CNT_BASE: u8 = 16;
}

pub const DEFAULT_RATE: u64 = 2;
pub const DEFAULT_BYTE_SHIFT: u64 = 9;
pub const DEFAULT_QLEN_SHIFT: u64 = 8;
pub const DEFAULT_MAX_LEN: u64 = 9216;

crate::pins! {
    /// INT stamper inputs.
    pub struct IntIn {
        csr_we: 1,
        csr_addr: 8,
        csr_wdata: 32,
        deq_valid: 1,
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
        stamp_valid: 1,
        drop: 1,
        hop_lo: 32,
        hop_hi: 32,
        int_ts: 24,
        int_bytes: 20,
        int_qlen: 17,
        int_rate: 3,
        tx_bytes: 32,
        cnt_stamped: 32,
        cnt_malformed: 32,
        cnt_csr_rejected: 32,
    }
}

/// Pack the artifact's `IntHop` word (bit layout in the module doc).
pub fn pack_hop(rate: u64, ts: u64, bytes: u64, qlen: u64) -> u64 {
    (rate & 7) | (ts & 0xFF_FFFF) << 3 | (bytes & 0xF_FFFF) << 27 | (qlen & 0x1_FFFF) << 47
}

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
        design_note: "The event a statistic counts (decoded from the inputs) enters that counter's 32-bit increment as \
                its carry-in, and the enable goes out on a global buffer. Counting the registered event a clock \
                later, or counting in two 16-bit halves with a registered carry between them, takes the decode and \
                half the chain out of the clock.",
        min_cells: 100,
        min_ram: 0,
    }
);
