#![doc = include_str!("README.md")]

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    crate::regmap! { u8;
        MODE @ 0 : Wo, "Budget mode: 0 A, 1 A_NET (reset), 2 B; other values are rejected.";
        FLAGS @ 1 : Wo, "Options (reset `0b10`)."
            { ti_strict[0 +: 1] "TI_STRICT: `ti` is one less when the period's idle bytes are an exact multiple of MSS",
              consume_on_higher[1 +: 1] "CONSUME_ON_HIGHER: an over/under decision uses its budget even when the packet already carries a higher code" };
        MSS @ 2 : Wo, "Bytes per packet transmission time, 16 bits (reset 1500; 0 rejected).";
        PERIOD @ 3 : Wo, "Sampling period in clocks (reset 7500: 48 µs at 156.25 MHz; 0 rejected).";
        MAX_LEN @ 4 : Wo, "Largest well-formed descriptor length in bytes, 16 bits (reset 9216; 0 rejected).";
        STATE_CLEAR @ 5 : Cmd, "Any write restarts the period with all state at 0 (counters kept).";
        CNT_BASE @ 16 x 7 : Wo, "Counter presets, in output order: over, under, full, pass, malformed, idle_clamped, csr_rejected.";
    }
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
    /// REN block inputs. All but `deq_valid` and `deq_ecn` are early: the clock before the one
    /// that judges the descriptor (the README's *Latency*).
    pub struct RenIn {
        /// Register write strobe (early: in force for the next clock's early pins).
        csr_we: 1,
        /// Register address (the table above).
        csr_addr: 8,
        /// Register write data.
        csr_wdata: 32,
        /// Idle wire byte slots this clock (≤ MSS); early.
        idle_bytes: 8,
        /// Packets waiting in the port's queue (excluding the one on the wire); early.
        q_pkts: 20,
        /// A descriptor leaves the port this clock (late: its length and class came the clock before).
        deq_valid: 1,
        /// It is a data packet (grants pass untouched); early.
        deq_is_data: 1,
        /// Its code as it arrives (the two ECN bits); late.
        deq_ecn: 2,
        /// Its length in bytes; early.
        deq_len: 16,
    }
}

crate::pins! {
    /// REN block outputs; the state values are those at the start of the clock. The code and
    /// `drop` are the verdict on this clock's late pins and the last clock's early ones.
    pub struct RenOut {
        /// The code it leaves with: `max(in, local)`.
        ecn_out: 2,
        /// The code was raised.
        ecn_changed: 1,
        /// Malformed: the port drops it.
        drop: 1,
        /// This clock ends a sampling period.
        period_tick: 1,
        /// `ql` latched at the last boundary.
        ql_s: 16,
        /// `ti` latched at the last boundary.
        ti_s: 16,
        /// Over budget left.
        over: 16,
        /// Under budget left.
        under: 16,
        /// Over marks issued this period.
        over_iss: 16,
        /// Under marks issued this period.
        under_iss: 16,
        /// Data packets coded over.
        cnt_over: 32,
        /// Data packets coded under.
        cnt_under: 32,
        /// Data packets coded full.
        cnt_full: 32,
        /// Grants and code-11 packets passed untouched.
        cnt_pass: 32,
        /// Malformed descriptors (length 0 or above `MAX_LEN`).
        cnt_malformed: 32,
        /// Clocks whose `idle_bytes` exceeded MSS (clamped).
        cnt_idle_clamped: 32,
        /// Register writes ignored (unknown address or invalid value).
        cnt_csr_rejected: 32,
    }
}

crate::readme_tables!(RenIn, RenOut);

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
        design_note: "An input stage, so the decision reads flip-flops: a descriptor's length and class, the \
                queue count, the idle bytes and the register write come a clock before the clock that \
                judges it, its valid and code in that clock (the README's Latency). In the early pins' \
                clock the length is checked, the period timer and the idle accumulator run a clock ahead, \
                and mode B's compares are made for every value the sums can take after it, one carry chain \
                each (`ModeBAhead`); the counters count a clock late (`LateCounter`). The decision's fan-out \
                is cut: the budgets' nonzero tests are flip-flops, set at a boundary from tests of the \
                budgets to come made in the boundary clock (`BoundaryTerms`, one chain per threshold on \
                registered operands) and at a spend from the spent budget's `>= 2`; a mark reaches the \
                tallies a clock late (the pending mark). Before the input stage the length check, the \
                decision and the issued marks' enable were the slowest path (67.74 MHz, 1,947 cells); \
                with it, the clock after a boundary (81.61 MHz). What is left is about one carry chain and \
                its routing per clock: a `PERIOD` write's 32-bit move of the period timer, or a boundary \
                test's 19-bit chain from the queue count through the picks into a nonzero flag (the \
                README, Toward 100 MHz).",
        min_cells: 100,
        min_ram: 0,
        fits_hx8k: true,
        ice40_synth_flags: "",
    }
);
