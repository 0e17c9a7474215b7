#![doc = include_str!("README.md")]

#[cfg(feature = "rtl")]
pub mod admission;
#[cfg(feature = "rtl")]
pub mod departure;
#[cfg(feature = "rtl")]
pub mod fifo;
pub mod model;
#[cfg(feature = "rtl")]
pub mod pacer;
#[cfg(feature = "rtl")]
pub mod regs;
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
        IN @ 0 : Ro, "Descriptors offered (`in_valid`).";
        ENQ @ 1 : Ro, "Descriptors admitted into a queue.";
        DROP_MALFORMED @ 2 : Ro, "Arrivals dropped as malformed (length 0 or above `MAX_LEN`).";
        DROP_TAIL @ 3 : Ro, "Arrivals tail-dropped (queue at `QCAP`).";
        DROP_SEL @ 4 : Ro, "Arrivals dropped by selective drop (on `SEL_Q`).";
        DEQ @ 5 : Ro, "Descriptors granted by the scheduler.";
        OUT @ 6 : Ro, "Descriptors sent on `out_*`.";
        DROP_AQM @ 7 : Ro, "Departures dropped by the AQM (Not-ECT with `drop_non_ect`).";
        DROP_REN @ 8 : Ro, "Departures dropped by REN (malformed for it).";
        DROP_INT @ 9 : Ro, "Departures dropped by the INT stamper (malformed for it).";
        MARKED_AQM @ 10 : Ro, "Departures the AQM marked CE.";
        RESIDENT_PKTS @ 11 : Ro, "Descriptors in the queues.";
        RESIDENT_BYTES @ 12 : Ro, "Bytes in the queues.";
        NOW @ 13 : Ro, "The time base (clocks).";
        IN_FLIGHT @ 14 : Ro, "Descriptors between grant and departure (the register D1): 0 or 1.";
        QLEN0 @ 16 x 8 : Ro, "Occupancy of queue `q` in packets at `QLEN0 + q`.";
    }
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
    /// Port outputs: the arrival's fate, the scheduler's grant, the departing descriptor (one
    /// clock after its grant) and the register read port.
    pub struct PortOut {
        /// The arrival is enqueued.
        in_admit: 1,
        /// Why not: 0 none, 1 malformed, 2 tail, 3 selective.
        in_drop: 2,
        /// The scheduler grants a queue this clock.
        grant: 1,
        /// The granted queue.
        grant_q: 3,
        /// A descriptor leaves (one clock after its grant).
        out_valid: 1,
        /// Its queue.
        out_q: 3,
        /// Its length.
        out_len: 16,
        /// Its codepoint after the AQM and REN.
        out_ecn: 2,
        /// It is a data packet.
        out_is_data: 1,
        /// Its sojourn in clocks.
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
        design_note: "Three paths of one clock each cross blocks, and which one is longest changes with the \
                placement: REN's budgets at a period boundary (see `ren`); a head read from the FIFO's block \
                RAM through the shaper's eligibility, the DWRR grant and the resident byte count into the \
                selective drop's admission; and the departing queue's AQM state through the marker and back \
                (see `aqm`). Each block's own fix is in its note: REN's budgets over a few clocks, the \
                shaper's bucket out of the decision, the admission registered, the AQM pipelined. The \
                two-queue port fills the HX8K, and the AQM's side-by-side outcomes took the last of its room, \
                so the pipelined port also needs an ECP5-class part or fewer features per port.",
        min_cells: 1000,
        min_ram: 8,
    }
);
