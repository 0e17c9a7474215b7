#![doc = include_str!("README.md")]

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    crate::regmap! { u8;
        QUANTUM0 @ 0 x 8 : Wo, "Quantum of queue `q` in bytes at `QUANTUM0 + q`, 16 bits (reset 1500; a write above 65,535 is ignored).";
        PRIO_MASK @ 32 : Wo, "Bit `q` set: queue `q` is a strict-priority queue, served before DWRR, lowest index first (reset 0).";
    }
}

pub const DEFAULT_QUANTUM: u64 = 1500;
/// Queues of the stand-alone block (the port takes its own count as a generic).
pub const N: usize = 8;

crate::pins! {
    /// Scheduler inputs (N = 8).
    pub struct DwrrIn {
        /// Register write strobe.
        csr_we: 1,
        /// Register address (the table above).
        csr_addr: 8,
        /// Register write data.
        csr_wdata: 32,
        /// The link can take a descriptor this clock.
        grant_en: 1,
        /// Bit `q`: queue `q` has a servable head.
        head_valid: 8,
        /// Head length of queue 0 in bytes.
        head_len0: 16,
        /// Head length of queue 1 in bytes.
        head_len1: 16,
        /// Head length of queue 2 in bytes.
        head_len2: 16,
        /// Head length of queue 3 in bytes.
        head_len3: 16,
        /// Head length of queue 4 in bytes.
        head_len4: 16,
        /// Head length of queue 5 in bytes.
        head_len5: 16,
        /// Head length of queue 6 in bytes.
        head_len6: 16,
        /// Head length of queue 7 in bytes.
        head_len7: 16,
    }
}

crate::pins! {
    /// Scheduler outputs: this clock's grant, and the round state at the start of the clock.
    pub struct DwrrOut {
        /// A queue is granted this clock.
        grant: 1,
        /// The granted queue.
        grant_q: 3,
        /// The DWRR round pointer at the start of the clock.
        cur: 3,
        /// Deficit of queue 0 at the start of the clock.
        deficit0: 16,
        /// Deficit of queue 1 at the start of the clock.
        deficit1: 16,
        /// Deficit of queue 2 at the start of the clock.
        deficit2: 16,
        /// Deficit of queue 3 at the start of the clock.
        deficit3: 16,
        /// Deficit of queue 4 at the start of the clock.
        deficit4: 16,
        /// Deficit of queue 5 at the start of the clock.
        deficit5: 16,
        /// Deficit of queue 6 at the start of the clock.
        deficit6: 16,
        /// Deficit of queue 7 at the start of the clock.
        deficit7: 16,
    }
}

crate::readme_tables!(DwrrIn, DwrrOut);

#[cfg(feature = "rtl")]
crate::switch_block!(
    "dwrr",
    model: crate::dwrr::model::Dwrr,
    rtl: crate::dwrr::rtl::Dwrr8,
    board: crate::dwrr::model::Dwrr, crate::dwrr::rtl::Dwrr8,
    events: ["grant_en"],
    crate::blocks::BoardInfo {
        title: "DWRR / strict-priority scheduler",
        params: "8 queues, 16-bit lengths, quanta and deficits",
        design_note: "The round-robin pick is two lowest-set-bit units side by side (the backlogged queues after \
                `cur`, and all of them), with no rotate, encoder or add, and each queue's compares against its \
                own deficit (the head fits, the deficit refilled by the quantum, the head fits that, the new \
                deficits) are made beside it (`DwrrLane`), so the decision is an AND-OR over one-hots. What is \
                left is the head length's 16-bit compare against the current queue's deficit deciding `stay`, \
                which enables every deficit register (nextpnr puts that enable on a global buffer). Tried on \
                2026-11-26 and not kept: each queue's refill kept a clock ahead in a register (every next refill \
                through a carry-save layer): the Fmax did not move and the cells more than doubled, the path \
                then the compare, `stay` and its fan-out. 100 MHz needs the compare out of the decision's clock: \
                per queue, whether the head fits the deficit and the refill, computed a clock ahead for each \
                outcome from the head, the queue's second entry and the next deficits, and selected by the \
                registered outcome; the FIFO then shows two entries and a new head is servable a clock after it \
                appears.",
        min_cells: 100,
        min_ram: 0,
    }
);
