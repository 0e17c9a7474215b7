//! # Priority selective drop (gemini-flashpass.md §2.5, §2.6, §4 M2, §5.1)
//!
//! A single-threshold RED/ECN discipline at admission, as FlashPass repurposes it for its
//! over-provisioned emulation packets and Aeolus for first-RTT (unscheduled) data. Per arrival,
//! with `occ` the queue occupancy at the start of the clock, evaluated in this order:
//!
//! | condition | ECN-capable, not low-priority | Not-ECT or low-priority label |
//! |---|---|---|
//! | malformed (length 0 or above `MAX_LEN`) | drop (`drop_bad`) | drop (`drop_bad`) |
//! | no room: `occ + size > CAP` | tail drop (`drop_full`) | tail drop (`drop_full`) |
//! | `occ > K` | enqueue with CE (`marked`) | drop (`drop_sel`) if `DROP_NON_ECT`, else enqueue unchanged (an ECT packet is still marked) |
//! | otherwise | enqueue unchanged | enqueue unchanged |
//!
//! Stored packets are never pushed out. `K` and `CAP` are in packets (`UNIT` 0, default:
//! K = 2, CAP = 8, the emulation queue of §2.8) or bytes (`UNIT` 1; lengths as the descriptor
//! gives them). CE arrivals count as ECN-capable (RFC 3168) and stay CE.
//!
//! Choices where the spec is silent (model and RTL alike):
//! * The block keeps the occupancy itself, in packets and bytes, from its admissions and the
//!   dequeues it is told about (`deq_valid`, `deq_len`). A dequeue in the same clock as an
//!   arrival does not lower the `occ` that arrival sees (§4 M1).
//! * A dequeue of an empty queue, of length 0, or of more bytes than are queued is ignored and
//!   counted in `cnt_bad_deq`; occupancy never wraps. The byte count also tail-drops an
//!   arrival that would overflow 32 bits, whatever the unit.
//! * Register writes with an unknown address or an invalid value (`UNIT` > 1, `MAX_LEN` 0) are
//!   ignored and counted in `cnt_csr_rejected`. Changing `UNIT`, `K` or `CAP` keeps the queued
//!   packets; a `CAP` below the occupancy tail-drops every arrival until the queue drains.
//! * Conservation: every arrival lands in exactly one of `cnt_enq`, `cnt_drop_sel`,
//!   `cnt_drop_full`, `cnt_malformed`, and `occ_pkts = cnt_enq − cnt_deq`. Counters are 32
//!   bits, saturate, and can be preset (`CNT_*`).

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    /// 0 packets (default), 1 bytes.
    pub const UNIT: u8 = 0;
    /// Marking / selective-drop threshold: act when `occ > K` (default 2).
    pub const K: u8 = 1;
    /// Queue capacity (default 8).
    pub const CAP: u8 = 2;
    /// bit 0 `DROP_NON_ECT` (default 1): drop Not-ECT and low-priority arrivals above K.
    pub const FLAGS: u8 = 3;
    /// Largest well-formed length in bytes (16 bits, default 9216).
    pub const MAX_LEN: u8 = 4;
    /// Counter presets in output order: enq, marked, drop_sel, drop_full, malformed, deq,
    /// bad_deq, csr_rejected.
    pub const CNT_BASE: u8 = 16;
}

pub const DEFAULT_K: u64 = 2;
pub const DEFAULT_CAP: u64 = 8;
pub const DEFAULT_MAX_LEN: u64 = 9216;

crate::pins! {
    /// Selective-drop inputs.
    pub struct SelDropIn {
        csr_we: 1,
        csr_addr: 8,
        csr_wdata: 32,
        arr_valid: 1,
        arr_len: 16,
        arr_ecn: 2,
        /// High dropping priority (over-provisioned / unscheduled) label.
        arr_low_prio: 1,
        deq_valid: 1,
        deq_len: 16,
    }
}

crate::pins! {
    /// Selective-drop outputs: the decision on this clock's arrival, and the state at the start
    /// of the clock.
    pub struct SelDropOut {
        admit: 1,
        ecn_out: 2,
        drop_sel: 1,
        drop_full: 1,
        drop_bad: 1,
        occ_pkts: 32,
        occ_bytes: 32,
        cnt_enq: 32,
        cnt_marked: 32,
        cnt_drop_sel: 32,
        cnt_drop_full: 32,
        cnt_malformed: 32,
        cnt_deq: 32,
        cnt_bad_deq: 32,
        cnt_csr_rejected: 32,
    }
}

#[cfg(feature = "rtl")]
crate::switch_block!(
    "seldrop",
    model: crate::seldrop::model::SelDrop,
    rtl: crate::seldrop::rtl::SelectiveDrop,
    board: crate::seldrop::model::SelDrop, crate::seldrop::rtl::SelectiveDrop,
    events: ["arr_valid", "deq_valid"],
    crate::blocks::BoardInfo {
        title: "priority selective drop (single-threshold RED/ECN)",
        params: "occupancy in packets and bytes, 16-bit lengths, K and CAP registers",
        design_note: "The unit bit selects the occupancy, then `CAP − occ − size` and the compare write it back. \
                Keeping the free room `CAP − occ` as its own register, updated by the same admissions and \
                dequeues, takes one carry chain off the path.",
        min_cells: 100,
        min_ram: 0,
    }
);
