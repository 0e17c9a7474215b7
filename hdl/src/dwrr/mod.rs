//! # DWRR / strict-priority scheduler (ecn-sharp.md §3 "DWRR", §6 V16)
//!
//! One scheduling decision per clock over `N` queues (a power of two; 8 here, the port takes
//! it as a generic). Each clock the scheduler sees which queues have a servable head
//! (`head_valid`, one bit per queue) and the head lengths, and, when the link lets a
//! descriptor go (`grant_en`), grants at most one queue:
//!
//! 1. **Strict priority first.** Queues whose bit is set in `PRIO_MASK` are served before any
//!    DWRR queue, lowest index first. `PRIO_MASK` all ones is plain strict priority; the
//!    port uses one bit for the FlashPass emulation queue (gemini-flashpass.md §2.8,
//!    [PROJECT-CHOICE] "a shaped strict-priority queue ... data classes sit below it").
//! 2. **DWRR among the rest** (deficit round robin, Shreedhar–Varghese; the ns-3 behaviour of
//!    ecn-sharp.md §3): the current queue `cur` is served while its head fits its deficit
//!    (`deficit -= len`). Otherwise the scheduler moves to the next backlogged queue after
//!    `cur` in round-robin order (`cur` itself last), adds that queue's quantum to its deficit
//!    and serves it in the same clock if the head now fits.
//!
//! Consequences, all tested: with every quantum at least the largest packet, a grant issues on
//! every clock that has a backlogged queue and `grant_en` (the port's one descriptor per
//! clock); quanta 3000/1500/1500 with 1500-B packets give the V16 pattern Q0, Q0, Q1, Q2 per
//! round (50/25/25 % of the bytes). A quantum below the head length makes that visit grant
//! nothing and the deficit carries to the next visit (classic DRR), so the link idles for that
//! clock.
//!
//! Choices where the spec is silent (model and RTL alike):
//! * A queue that is not backlogged (or is a strict-priority queue) has its deficit held at 0
//!   on every clock, so an empty queue never receives service and re-enters with exactly one
//!   quantum (ns-3: "deficit set to quantum when the class becomes active").
//! * Deficits are 16 bits and saturate; quanta are 16 bits (a write above 65,535 is ignored).
//! * After reset `cur = N − 1`, so the first round starts at queue 0. Default quanta 1500 B.
//! * `grant_en` low freezes the round (deficits of backlogged queues and `cur` are kept).

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    /// Quantum of queue `q` in bytes is at `QUANTUM0 + q` (16 bits).
    pub const QUANTUM0: u8 = 0;
    /// Bit `q` set: queue `q` is a strict-priority queue (served before DWRR, low index first).
    pub const PRIO_MASK: u8 = 32;
}

pub const DEFAULT_QUANTUM: u64 = 1500;
/// Queues of the stand-alone block (the port takes its own count as a generic).
pub const N: usize = 8;

crate::pins! {
    /// Scheduler inputs (N = 8).
    pub struct DwrrIn {
        csr_we: 1,
        csr_addr: 8,
        csr_wdata: 32,
        /// The link can take a descriptor this clock.
        grant_en: 1,
        /// Bit `q`: queue `q` has a servable head.
        head_valid: 8,
        head_len0: 16,
        head_len1: 16,
        head_len2: 16,
        head_len3: 16,
        head_len4: 16,
        head_len5: 16,
        head_len6: 16,
        head_len7: 16,
    }
}

crate::pins! {
    /// Scheduler outputs: this clock's grant, and the round state at the start of the clock.
    pub struct DwrrOut {
        grant: 1,
        grant_q: 3,
        cur: 3,
        deficit0: 16,
        deficit1: 16,
        deficit2: 16,
        deficit3: 16,
        deficit4: 16,
        deficit5: 16,
        deficit6: 16,
        deficit7: 16,
    }
}

#[cfg(feature = "rtl")]
crate::switch_block!(
    "dwrr",
    model: crate::dwrr::model::Dwrr,
    rtl: crate::dwrr::rtl::Dwrr8,
    board: crate::dwrr::model::Dwrr, crate::dwrr::rtl::Dwrr8,
    events: ["grant_en"],
    crate::blocks::BoardInfo {
        title: "DWRR / strict-priority scheduler",
        params: "8 queues, 16-bit lengths, 32-bit quanta and deficits",
        design_note: "Rotate, priority-encode and add the deficit in one clock. Computing the next eligible queue a \
                clock ahead (the head set changes by at most one queue per clock) and adding the deficit in a \
                second stage splits the path in two.",
        min_cells: 100,
        min_ram: 0,
    }
);
