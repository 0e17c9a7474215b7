//! # REN gap/queue counters (ren.md §1.6, §4, §5)
//!
//! One instance per egress port. Each clock it is told how many wire byte slots went idle
//! (`idle_bytes`; preamble, IFG and FCS are busy) and the port's queue occupancy (`q_pkts`); at
//! the end of every sampling period it latches `ql` and `ti = floor(idle bytes / MSS)` and sets
//! the over/under budgets. Data packets leaving the port get `out = max(in, local)` where the
//! local code is over (10) while over budget lasts, under (00) while under budget lasts, and
//! full (01) otherwise; a switch never lowers a code. Grants (non-data) and code 11 pass
//! untouched and consume nothing.
//!
//! Budget modes (ren.md §1.5), register `MODE`:
//! * `A_NET` (default): budgets at a boundary are `|ql − ti|` minus the marks of the same kind
//!   issued during the period that just ended (the boundary cycle included). The paper's rule
//!   counts a standing queue twice because marks act one period late; A_NET does not.
//! * `A` (paper-literal, §3.2.3 read verbatim): budgets `|ql − ti|`, leftovers overwritten.
//!   Kept for the paper regression; in closed loop it stalls flows (ren.md §6.3).
//! * `B` (online): each data departure compares `q_pkts − ti_so_far` with the marks issued
//!   this period. The boundary still latches `ql`, `ti` and the A budgets for observation.
//!
//! Choices where the spec is silent (model and RTL alike):
//! * Idle is counted in bytes with a running quotient and a residue below `MSS` (§4 item 3), so
//!   there is no divider; this needs `idle_bytes ≤ MSS` per clock. A larger value is clamped to
//!   `MSS` and counted in `cnt_idle_clamped`.
//! * `ql`, `ti`, budgets and issued counts are 16 bits and saturate (§4 items 7–8); the idle
//!   quotient saturates at 65,535 MSS per period. `TI_STRICT` subtracts one when the residue is
//!   0, i.e. exactly on a multiple of MSS (its exactness test uses the residue even when the
//!   quotient saturated).
//! * A boundary is any cycle with `cnt ≥ PERIOD − 1`, so shortening `PERIOD` below the current
//!   count ends the period at once instead of waiting for a 32-bit wrap.
//! * A descriptor with length 0 or above `MAX_LEN` is malformed: `drop` is raised, it is
//!   counted in `cnt_malformed` and it touches no budget.
//! * Register writes with an unknown address or an invalid value (MODE 3, MSS/PERIOD/MAX_LEN
//!   0) are ignored and counted in `cnt_csr_rejected`. Writing `STATE_CLEAR` restarts the
//!   period with every budget, latch and accumulator at 0 (V18); counters are kept.
//! * Every dequeue lands in exactly one counter: `cnt_over`, `cnt_under`, `cnt_full` (the local
//!   decision for a data packet), `cnt_pass` (grants and code 11) or `cnt_malformed`. Counters
//!   are 32 bits, saturate, and can be preset through `CNT_*` writes.

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    /// 0 A, 1 A_NET (default), 2 B.
    pub const MODE: u8 = 0;
    /// bit 0 `TI_STRICT` (default 0); bit 1 `CONSUME_ON_HIGHER` (default 1).
    pub const FLAGS: u8 = 1;
    /// Bytes per packet transmission time (16 bits, default 1500).
    pub const MSS: u8 = 2;
    /// Sampling period in clocks (default 7500: 48 µs at 156.25 MHz).
    pub const PERIOD: u8 = 3;
    /// Largest well-formed descriptor length in bytes (16 bits, default 9216).
    pub const MAX_LEN: u8 = 4;
    /// Any write: restart the period with all state at 0 (counters kept).
    pub const STATE_CLEAR: u8 = 5;
    /// Counter presets, in output order: over, under, full, pass, malformed, idle_clamped,
    /// csr_rejected.
    pub const CNT_BASE: u8 = 16;
}

/// Budget modes (register `MODE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    A = 0,
    ANet = 1,
    B = 2,
}

pub const DEFAULT_MSS: u64 = 1500;
pub const DEFAULT_PERIOD: u64 = 7500;
pub const DEFAULT_MAX_LEN: u64 = 9216;
/// FLAGS reset value: CONSUME_ON_HIGHER.
pub const DEFAULT_FLAGS: u64 = 0b10;

crate::pins! {
    /// REN block inputs.
    pub struct RenIn {
        csr_we: 1,
        csr_addr: 8,
        csr_wdata: 32,
        /// Idle wire byte slots this clock (≤ MSS).
        idle_bytes: 8,
        /// Packets waiting in the port's queue (excluding the one on the wire).
        q_pkts: 20,
        deq_valid: 1,
        deq_is_data: 1,
        deq_ecn: 2,
        deq_len: 16,
    }
}

crate::pins! {
    /// REN block outputs; the state values are those at the start of the clock.
    pub struct RenOut {
        ecn_out: 2,
        ecn_changed: 1,
        drop: 1,
        period_tick: 1,
        ql_s: 16,
        ti_s: 16,
        over: 16,
        under: 16,
        over_iss: 16,
        under_iss: 16,
        cnt_over: 32,
        cnt_under: 32,
        cnt_full: 32,
        cnt_pass: 32,
        cnt_malformed: 32,
        cnt_idle_clamped: 32,
        cnt_csr_rejected: 32,
    }
}

#[cfg(feature = "rtl")]
crate::switch_block!(
    "ren",
    model: crate::ren::model::Ren,
    rtl: crate::ren::rtl::RenCounters,
    board: crate::ren::model::Ren, crate::ren::rtl::RenCounters,
    events: ["deq_valid"],
    crate::blocks::BoardInfo {
        title: "REN gap/queue counters",
        params: "one port, 20-bit queue length, 8-bit idle bytes per clock, 32-bit counters",
        design_note: "The MSS register feeds the idle-residue carry chains and then the budgets in one clock. \
                Period boundaries are rare, so computing ti and the budgets over two or three clocks after \
                the boundary, with the old budgets held, cuts the chain.",
        min_cells: 100,
        min_ram: 0,
    }
);
