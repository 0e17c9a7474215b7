#![doc = include_str!("README.md")]

#[cfg(feature = "rtl")]
pub mod admission;
#[cfg(feature = "rtl")]
pub mod departure;
#[cfg(feature = "rtl")]
pub mod emu_ahead;
#[cfg(feature = "rtl")]
pub mod fifo;
pub mod model;
#[cfg(feature = "rtl")]
pub mod pacer;
#[cfg(feature = "rtl")]
pub mod regs;
/// The resident descriptors and bytes.
#[cfg(feature = "rtl")]
pub mod resident;
#[cfg(feature = "rtl")]
pub mod rtl;
#[cfg(feature = "rtl")]
pub mod scheduler;
pub mod vectors;

/// Register space: `addr[11:8]` selects the block, `addr[7:0]` its register.
pub mod csr {
    /// Block selects (`addr[11:8]`).
    pub const BLOCK_PORT: u16 = 0x000;
    pub const BLOCK_DWRR: u16 = 0x100;
    pub const BLOCK_AQM: u16 = 0x200;
    pub const BLOCK_SELDROP: u16 = 0x300;
    pub const BLOCK_SHAPER: u16 = 0x400;
    pub const BLOCK_REN: u16 = 0x500;
    pub const BLOCK_INT: u16 = 0x600;
    crate::regmap! { u16;
        CLASS_MAP @ 0 : Wo, "Queue of class `c` in bits `3c+2..3c` (the low log2 N bits are used; reset: class c → queue c mod N).";
        QCAP @ 1 : Wo, "Tail-drop capacity of every queue in packets, clamped to the FIFO depth (reset: the depth).";
        MAX_LEN @ 2 : Wo, "Largest well-formed length in bytes, at most 16,383 (reset 9216; larger writes are ignored).";
        RATE @ 3 : Wo, "Link rate in bytes per clock, 16.8 fixed point, 24 bits (reset 0xFFFFFF: the link never limits).";
        OVERHEAD @ 4 : Wo, "Wire bytes charged per departure on top of its length, 8 bits (reset 20).";
        EMU_Q @ 5 : Wo, "The shaped emulation queue (reset off)." { queue[0 +: 3] "queue", enable[4 +: 1] "enable" };
        SEL_Q @ 6 : Wo, "The queue whose arrivals go through selective drop (reset off)." { queue[0 +: 3] "queue", enable[4 +: 1] "enable" };
        TIME_LOAD @ 7 : Wo, "Load the time base `now` (clocks).";
    }
}

/// Read addresses of `csr_raddr`.
pub mod rd {
    crate::regmap! { u64;
        IN @ 0 : Ro, "Descriptors offered (`in_valid`), counted in the clock after, when they are admitted or dropped.";
        ENQ @ 1 : Ro, "Descriptors admitted into a queue.";
        DROP_MALFORMED @ 2 : Ro, "Arrivals dropped as malformed (length 0 or above `MAX_LEN`).";
        DROP_TAIL @ 3 : Ro, "Arrivals tail-dropped (queue at `QCAP`).";
        DROP_SEL @ 4 : Ro, "Arrivals dropped by selective drop (on `SEL_Q`).";
        DEQ @ 5 : Ro, "Descriptors popped by the scheduler (each in the clock after its pick).";
        OUT @ 6 : Ro, "Descriptors sent on `out_*`.";
        DROP_AQM @ 7 : Ro, "Departures dropped by the AQM (Not-ECT with `drop_non_ect`).";
        DROP_REN @ 8 : Ro, "Departures dropped by REN (malformed for it).";
        DROP_INT @ 9 : Ro, "Departures dropped by the INT stamper (malformed for it).";
        MARKED_AQM @ 10 : Ro, "Departures the AQM marked CE.";
        RESIDENT_PKTS @ 11 : Ro, "Descriptors in the queues.";
        RESIDENT_BYTES @ 12 : Ro, "Bytes in the queues.";
        NOW @ 13 : Ro, "The time base (clocks).";
        IN_FLIGHT @ 14 : Ro, "Descriptors between pop and departure (the registers D1 and D2): 0, 1 or 2.";
        QLEN0 @ 16 x 8 : Ro, "Occupancy of queue `q` in packets at `QLEN0 + q`.";
    }
}

/// The blocks a port is built with: the `F` of [`model::PortModel`] and `rtl::SwitchPort`, a set
/// of these bits (the README's *Per-system ports*). A port built without a block behaves as if
/// that block never acted: no mark, code or drop of its own, a zero INT record, no shaped
/// emulation queue (`EMU_Q` is ignored) and no selective drop (`SEL_Q` is ignored). Its
/// registers still take writes, which change nothing. Timestamping, the FIFOs, DWRR / strict
/// priority and the pacer are in every port.
pub mod features {
    /// The AQM marker (one state per queue): ECN♯, TCN, CoDel, queue-length K.
    pub const AQM: usize = 1 << 0;
    /// REN's gap/queue counters and codes.
    pub const REN: usize = 1 << 1;
    /// INT stamping (the HPCC hop record).
    pub const INT: usize = 1 << 2;
    /// Selective drop on `SEL_Q` (FlashPass's threshold marking and selective drop).
    pub const SELDROP: usize = 1 << 3;
    /// The token-bucket shaper of the emulation queue `EMU_Q` (FlashPass).
    pub const SHAPER: usize = 1 << 4;
    /// Every block: the full port.
    pub const ALL: usize = AQM | REN | INT | SELDROP | SHAPER;
}

/// A port built for one system's switch half: the HX8K holds each with room for its blocks'
/// pipelines, where the full port nearly fills it (the synthesis report's `port-*` tops; the
/// closed loops run on these).
#[derive(Clone, Copy, Debug)]
pub struct System {
    /// The board top's name.
    pub name: &'static str,
    /// Its blocks ([`features`]).
    pub features: usize,
    /// What it is, for the synthesis report.
    pub title: &'static str,
}

/// The per-system ports, one per system the project builds a switch half for.
pub const SYSTEMS: [System; 4] = [
    System {
        name: "port-ecnsharp",
        features: features::AQM,
        title: "switch egress port for ECN♯, TCN, CoDel and GEMINI's queue-length K (timestamp, AQM marker per queue, DWRR)",
    },
    System { name: "port-ren", features: features::REN, title: "switch egress port for REN (gap/queue counters, DWRR)" },
    System {
        name: "port-flashpass",
        features: features::SELDROP | features::SHAPER,
        title: "switch egress port for FlashPass (selective drop, shaped emulation queue, DWRR)",
    },
    System { name: "port-hpcc", features: features::INT, title: "switch egress port for HPCC and Swift (INT stamping, DWRR)" },
];

/// The per-system port built with the blocks `f`, if one is.
pub fn system_of(f: usize) -> Option<&'static System> {
    SYSTEMS.iter().find(|s| s.features == f)
}

/// Something built for a port's blocks `F` as a type parameter (the model's and the RTL's `F`):
/// [`with_features`] calls `visit::<F>()` for a set known at run time.
pub trait FeatureVisitor {
    type Out;
    fn visit<const F: usize>(self) -> Self::Out;
}

/// `v.visit::<F>()` with `F = f`, for the full port and every per-system port ([`SYSTEMS`]); `None`
/// for a set no port is built with. The one list of the block sets that are instantiated.
pub fn with_features<V: FeatureVisitor>(f: usize, v: V) -> Option<V::Out> {
    const ALL: usize = features::ALL;
    const AQM: usize = features::AQM;
    const REN: usize = features::REN;
    const INT: usize = features::INT;
    const FLASHPASS: usize = features::SELDROP | features::SHAPER;
    Some(match f {
        ALL => v.visit::<ALL>(),
        AQM => v.visit::<AQM>(),
        REN => v.visit::<REN>(),
        INT => v.visit::<INT>(),
        FLASHPASS => v.visit::<FLASHPASS>(),
        _ => return None,
    })
}

/// Arrival outcome on `in_drop`.
pub mod drop {
    pub const NONE: u64 = 0;
    pub const MALFORMED: u64 = 1;
    pub const TAIL: u64 = 2;
    pub const SELECTIVE: u64 = 3;
}

pub const DEFAULT_MAX_LEN: u64 = 9216;
pub const DEFAULT_RATE: u64 = 0xFF_FFFF;
pub const DEFAULT_OVERHEAD: u64 = 20;

crate::pins! {
    /// Port inputs: register write and read ports, and one arriving descriptor.
    pub struct PortIn {
        /// Register write strobe.
        csr_we: 1,
        /// Register address: block in bits 11:8, register in 7:0.
        csr_addr: 12,
        /// Register write data.
        csr_wdata: 32,
        /// Read-port address (the read table above).
        csr_raddr: 8,
        /// A descriptor arrives this clock.
        in_valid: 1,
        /// Its traffic class (`CLASS_MAP` picks the queue).
        in_class: 3,
        /// Its length in bytes.
        in_len: 16,
        /// Its ECN codepoint.
        in_ecn: 2,
        /// High dropping priority (over-provisioned / unscheduled), for selective drop.
        in_low_prio: 1,
        /// Data packet (REN codes data packets only).
        in_is_data: 1,
    }
}

crate::pins! {
    /// Port outputs: the fate of last clock's arrival, the scheduler's pop, the departing descriptor (two
    /// clocks after its pop) and the register read port.
    pub struct PortOut {
        /// The descriptor that arrived last clock is enqueued (the input stage, *Latency*).
        in_admit: 1,
        /// Why not: 0 none, 1 malformed, 2 tail, 3 selective (for the descriptor that arrived
        /// last clock).
        in_drop: 2,
        /// A queue pops this clock: the scheduler's pick of an earlier clock (the last, unless it
        /// waited for the link).
        grant: 1,
        /// The popping queue (0 when none pops).
        grant_q: 3,
        /// A descriptor leaves (two clocks after its pop).
        out_valid: 1,
        /// Its queue.
        out_q: 3,
        /// Its length.
        out_len: 16,
        /// Its codepoint after the AQM and REN.
        out_ecn: 2,
        /// It is a data packet.
        out_is_data: 1,
        /// Its sojourn in clocks, as the AQM judged it (a clock before it leaves).
        out_sojourn: 32,
        /// Its INT hop record, bits 31:0.
        out_hop_lo: 32,
        /// Its INT hop record, bits 63:32.
        out_hop_hi: 32,
        /// The register `csr_raddr` selects, this clock.
        csr_rdata: 32,
    }
}

/// The generated part of the port's README ([`crate::block_docs`]): its two maps and its pins.
pub fn readme_tables() -> String {
    use crate::block_docs::registers;
    registers(
        "Port registers (block 0)",
        "`csr_addr[11:8]` selects the block (0 port, 1 DWRR, 2 AQM (every queue's marker), 3 selective drop, \
         4 shaper, 5 REN, 6 INT), `csr_addr[7:0]` is the register in that block's own map (its README).\n\n",
        csr::REGISTERS,
        1,
        4,
    ) + &registers(
        "Read port",
        "`csr_raddr` selects, `csr_rdata` returns in the same clock (32-bit counters saturate).\n\n",
        rd::REGISTERS,
        1,
        4,
    ) + &crate::pins_of!(PortIn, PortOut)
}

#[cfg(feature = "rtl")]
crate::switch_block!(
    "port",
    model: crate::port::vectors::Port8x16,
    rtl: crate::port::rtl::SwitchPort8x16,
    board: crate::port::model::PortModel<2, 8>, crate::port::rtl::SwitchPort2x256,
    events: ["in_valid"],
    crate::blocks::BoardInfo {
        title: "composed switch egress port (timestamp, AQM, REN, selective drop, DWRR, shaper, INT)",
        params: "2 queues × 256 descriptors (one block RAM deep), one descriptor per clock",
        design_note: "The full two-queue port does not fit the HX8K: REN's budgets finished in the clock after a \
                boundary (see `ren`) took the last cells after the AQM's side-by-side outcomes, and the \
                port's per-queue outcomes (see `port-hpcc`) and selective drop's flags for each outcome (see \
                `seldrop`) took more. So the HX8K is built with one port per system (the `port-*` tops), each \
                with room for its blocks' pipelines, and the full port's line-rate target is the ECP5's \
                (`REPORT-ECP5.md`). There its paths cross blocks, and each cut so far took one wall down: the \
                arrival takes two clocks (an input stage registers its queue and length check; selective \
                drop's flags are made there), each queue's `QCAP` test is a flip-flop, the counters count a \
                clock late, REN judges over two clocks, the departure takes two (the AQM's stage `A` in `D1`, \
                stage `B` with REN and INT in `D2`), and since 2026-11-30 the scheduler picks a clock ahead of \
                the pop (DWRR's pick a register; the pops, the link pacer, the resident counts and the \
                departure start at flip-flops) and the AQM's state is selected in the pop's clock into \
                registers (`aqm`): 98.16 MHz against 82.08 before those two, the estimate their timing scratch \
                gave (98.50; the port README has every step). What is left, about 10 ns on each placement and \
                three quarters routing, is three walls of one height: the admission's push (selective drop's \
                flags, a queue's `QCAP` flag) into DWRR's round-robin pick made a clock ahead (`next_r`, \
                through the pick's carry chain on the backlog with the arrival) on two placements; the AQM's \
                own arithmetic on two (a count index from a read-ahead register into stage `B`'s \
                `ix_delta_due`, and the divider from `B`'s re-entry index into its law `b_law_r`); and the \
                emulation queue's look-ahead from a FIFO's block-RAM output through the shaper's bucket chain \
                on one. They must come down together: DWRR's pick made for both outcomes of the admission, with \
                its lanes made for both heads of a popping queue, takes DWRR off every placement's path but \
                gives 95.57 MHz on two seeds (a trial, the port README), the AQM and the link pacer's credit \
                then the slowest. So the next cuts are the AQM's division over two clocks (see `aqm`) and the \
                pacer's credit made a clock ahead, with those two.",
        min_cells: 1000,
        min_ram: 8,
        fits_hx8k: false,
        ice40_synth_flags: "",
    }
);
