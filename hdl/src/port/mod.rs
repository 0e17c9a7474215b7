//! # Switch egress port (ARCHITECTURE.md "Switch egress port")
//!
//! The blocks composed into one port that takes a descriptor per clock and sends one per clock
//! when the link allows it:
//!
//! ```text
//! desc in ─► classify ─► admit ─────────────────► per-queue FIFO ─► shaper (emulation queue)
//!            CLASS_MAP   malformed / tail drop /   block RAM, enq ts      │ eligible
//!                        selective drop (SEL_Q)                           ▼
//! desc out ◄─ INT stamp ◄─ REN code ◄─ AQM marker (one per queue) ◄─ D1 ◄─ DWRR / SP ◄─ pacer
//! ```
//!
//! Per clock (model and RTL alike):
//! * **Arrival** (combinational on the inputs, committed at the edge): the queue is
//!   `CLASS_MAP[class]` (3 bits per class, low `log2 N` bits used). In order: length 0 or above
//!   `MAX_LEN` is *malformed*; a queue holding `QCAP` (≤ depth) descriptors at the start of the
//!   clock is *tail* dropped; arrivals to `SEL_Q` then go through the selective-drop block
//!   (gemini-flashpass.md §2.6: above `K` ECT is marked CE and Not-ECT / low-priority is
//!   dropped, its own `CAP` tail-drops). An admitted descriptor is written to its queue's FIFO
//!   with `enq_ts = now` (ecn-sharp.md §1.4). `in_admit` / `in_drop` report the decision.
//! * **Scheduling**: queue `q` is servable when its FIFO is not empty and, for the emulation
//!   queue `EMU_Q`, the token-bucket shaper finds the head eligible (gemini-flashpass.md §2.8).
//!   The DWRR / strict-priority scheduler (ecn-sharp.md §3) grants one queue when the pacer
//!   says the link is free; the head is popped into the register `D1`.
//! * **Link pacer**: a credit in 1/256 bytes. Free when `credit ≥ 0`; a departure charges
//!   `(len + OVERHEAD) × 256` and every clock adds `RATE` (bytes per clock, 16.8 fixed point);
//!   after a departure the credit is capped at `RATE`. A free clock with no departure is idle:
//!   the credit restarts from 0 (an idle link banks nothing) and `min(RATE >> 8, 255)` idle
//!   byte slots go to REN on the next clock.
//! * **Departure** (from `D1`, one clock after the grant): the dequeued queue's AQM marker judges
//!   the sojourn `now − enq_ts` (and `qlen` = that queue's FIFO occupancy, in packets); a
//!   marker drop (Not-ECT with `drop_non_ect`) removes it. REN merges its code into the ECN
//!   field (`q_pkts` = packets resident, idle slots from the pacer); the INT stamper builds the
//!   hop record (`now` low 24 bits, `qlen_after` = bytes resident). A descriptor either leaves
//!   on `out_*` or is counted in exactly one drop counter.
//!
//! Conservation, checked on every clock of every test and fuzz run:
//! `in = enq + drop_malformed + drop_tail + drop_sel` and
//! `enq = out + drop_aqm + drop_ren + drop_int + resident + in_flight` (`in_flight` = `D1`).
//!
//! Choices where the issue is silent:
//! * One register space, 12-bit addresses: bits 11:8 select the block ([`csr::BLOCK_PORT`]
//!   ...), bits 7:0 are the block's own register (the AQM writes go to every queue's marker,
//!   so all queues share one configuration and keep their own state; ecn-sharp.md §5 item 13).
//!   Counters are read through `csr_raddr` → `csr_rdata` ([`rd`]), combinationally.
//! * `QCAP` counts packets, is compared with the occupancy at the start of the clock (a
//!   departure in the same clock frees its slot for the next one) and is clamped to the FIFO
//!   depth. `MAX_LEN` is at most 16,383 (the FIFO stores 14 bits of length).
//! * The time base `now` counts clocks (1 tick = 1 clock) and can be loaded (`TIME_LOAD`);
//!   the INT record carries its low 24 bits.
//! * `EMU_Q` and `SEL_Q` are off by default (bit 4 enables, bits 2:0 the queue). The emulation
//!   queue is usually also a strict-priority queue (`PRIO_MASK` of the DWRR).
//! * Defaults: class `c` → queue `c mod N`, `QCAP` = depth, `MAX_LEN` 9216, `RATE` 0xFFFFFF
//!   (the link never limits: one descriptor per clock), `OVERHEAD` 20.

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register space: `addr[11:8]` selects the block, `addr[7:0]` its register.
pub mod csr {
    pub const BLOCK_PORT: u16 = 0x000;
    pub const BLOCK_DWRR: u16 = 0x100;
    pub const BLOCK_AQM: u16 = 0x200;
    pub const BLOCK_SELDROP: u16 = 0x300;
    pub const BLOCK_SHAPER: u16 = 0x400;
    pub const BLOCK_REN: u16 = 0x500;
    pub const BLOCK_INT: u16 = 0x600;
    /// Port registers.
    pub const CLASS_MAP: u16 = 0;
    pub const QCAP: u16 = 1;
    pub const MAX_LEN: u16 = 2;
    /// Link rate in bytes per clock, 16.8 fixed point (24 bits).
    pub const RATE: u16 = 3;
    pub const OVERHEAD: u16 = 4;
    /// bit 4 enable, bits 2:0 queue.
    pub const EMU_Q: u16 = 5;
    pub const SEL_Q: u16 = 6;
    pub const TIME_LOAD: u16 = 7;
}

/// Read addresses of `csr_raddr`.
pub mod rd {
    pub const IN: u64 = 0;
    pub const ENQ: u64 = 1;
    pub const DROP_MALFORMED: u64 = 2;
    pub const DROP_TAIL: u64 = 3;
    pub const DROP_SEL: u64 = 4;
    pub const DEQ: u64 = 5;
    pub const OUT: u64 = 6;
    pub const DROP_AQM: u64 = 7;
    pub const DROP_REN: u64 = 8;
    pub const DROP_INT: u64 = 9;
    pub const MARKED_AQM: u64 = 10;
    pub const RESIDENT_PKTS: u64 = 11;
    pub const RESIDENT_BYTES: u64 = 12;
    pub const NOW: u64 = 13;
    pub const IN_FLIGHT: u64 = 14;
    /// Occupancy of queue `q` at `QLEN0 + q`.
    pub const QLEN0: u64 = 16;
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
        csr_we: 1,
        csr_addr: 12,
        csr_wdata: 32,
        csr_raddr: 8,
        in_valid: 1,
        in_class: 3,
        in_len: 16,
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
        in_admit: 1,
        in_drop: 2,
        grant: 1,
        grant_q: 3,
        out_valid: 1,
        out_q: 3,
        out_len: 16,
        out_ecn: 2,
        out_is_data: 1,
        out_sojourn: 32,
        out_hop_lo: 32,
        out_hop_hi: 32,
        csr_rdata: 32,
    }
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
        design_note: "The departing queue's number selects that queue's AQM state, the AQM decision chain follows \
                (see `aqm`) and the state is written back in the same clock. The AQM pipeline above with \
                per-queue forwarding is the fix; at 95 % of the HX8K's cells, the pipelined port also needs \
                an UP5K- or ECP5-class part, or fewer features per port.",
        min_cells: 1000,
        min_ram: 8,
    }
);
