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
        /// Bit `q`: queue `q` receives a descriptor this clock (it has a head from the next one;
        /// the round-robin pick, made a clock ahead, counts it).
        arrive: 8,
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
        /// Deficit of queue 0 in bytes at the start of the clock (two's complement).
        deficit0: 17,
        /// Deficit of queue 1 in bytes at the start of the clock (two's complement).
        deficit1: 17,
        /// Deficit of queue 2 in bytes at the start of the clock (two's complement).
        deficit2: 17,
        /// Deficit of queue 3 in bytes at the start of the clock (two's complement).
        deficit3: 17,
        /// Deficit of queue 4 in bytes at the start of the clock (two's complement).
        deficit4: 17,
        /// Deficit of queue 5 in bytes at the start of the clock (two's complement).
        deficit5: 17,
        /// Deficit of queue 6 in bytes at the start of the clock (two's complement).
        deficit6: 17,
        /// Deficit of queue 7 in bytes at the start of the clock (two's complement).
        deficit7: 17,
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
        params: "8 queues, 16-bit lengths and quanta, 17-bit signed deficits",
        design_note: "DRR in the form FQ-CoDel uses (serve while the deficit is positive, charge the whole head): \
                each queue's lane keeps its negated deficit and makes every next deficit in one carry chain; the \
                round-robin pick is one lowest-set-bit chain over the doubled request vector, made a clock ahead for \
                every queue that can be current (`DwrrLane`, `RoundRobinPick`, `next_r`). The decision reads two flags kept a \
                clock ahead: the current queue with a positive deficit (`cur_pos_r`, from the sign of the deficit its \
                lane loads) and each queue's refill test (`rp_r`: each lane makes the test for every deficit it can \
                have after the edge, held, served, refilled, refilled and served, emptied, and its outcome selects \
                one); a quantum write marks that queue stale for a clock, in which it is not the next queue, so no \
                write reaches a chain. Before the flags the refill test's chain into the grant and the `cur` test into \
                the deficit registers' enable limited the block (91.01 MHz); with only the first flag, 91.11 (a \
                trial). With both, the decision into the deficit registers' enable was left, with nextpnr-ice40 0.4 \
                putting that enable (17 flip-flops) behind a global buffer, since it promotes the widest enables of \
                more than 15: 93.62 MHz (88.46–99.21), three placements of five ending at a deficit's enable. So this \
                top's build adds `-nodffe` to `synth_ice40 -abc9`: no register has a clock enable, each loads \
                through the LUT in front of it, and the decision reaches the deficits as data (116 more logic cells). \
                The flag is this top's alone: on the INT stamper and the shaper it loses (`--trial` with the flag, \
                see the DWRR README). What is left, each about 10 ns, is the flags' next values: a queue's \
                non-empty flag through `stay` and the grant into the select of a refill flag `rp_r` (two placements), \
                a deficit through its lane's chain into `rp_r` (two), and the priority mask into `cur_pos_r` (one).",
        min_cells: 100,
        min_ram: 0,
        fits_hx8k: true,
        ice40_synth_flags: "-nodffe",
    }
);
