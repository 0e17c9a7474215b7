#![doc = include_str!("README.md")]

pub mod model;
#[cfg(feature = "rtl")]
mod next_state;
#[cfg(feature = "rtl")]
pub mod rtl;
pub mod vectors;

/// Register addresses (write port, 32-bit data).
pub mod csr {
    crate::regmap! { u8;
        UNIT @ 0 : Wo, "Occupancy unit: 0 packets (reset), 1 bytes; other values are rejected.";
        K @ 1 : Wo, "Marking / selective-drop threshold: act when `occ > K` (reset 2).";
        CAP @ 2 : Wo, "Queue capacity: tail drop when the arrival does not fit (reset 8).";
        FLAGS @ 3 : Wo, "Options (reset 1)."
            { drop_non_ect[0 +: 1] "DROP_NON_ECT: drop Not-ECT and low-priority arrivals above K" };
        MAX_LEN @ 4 : Wo, "Largest well-formed length in bytes, 16 bits (reset 9216; 0 rejected).";
        CNT_BASE @ 16 x 8 : Wo, "Counter presets, in output order: enq, marked, drop_sel, drop_full, malformed, deq, bad_deq, csr_rejected.";
    }
}

pub const DEFAULT_K: u64 = 2;
pub const DEFAULT_CAP: u64 = 8;
pub const DEFAULT_MAX_LEN: u64 = 9216;

crate::pins! {
    /// Selective-drop inputs.
    pub struct SelDropIn {
        /// Register write strobe.
        csr_we: 1,
        /// Register address (the table above).
        csr_addr: 8,
        /// Register write data.
        csr_wdata: 32,
        /// A descriptor arrives this clock.
        arr_valid: 1,
        /// Its length in bytes.
        arr_len: 16,
        /// Its ECN codepoint.
        arr_ecn: 2,
        /// High dropping priority (over-provisioned / unscheduled) label.
        arr_low_prio: 1,
        /// The queue sends a descriptor this clock (applied next clock, README *Latency*).
        deq_valid: 1,
        /// Its length in bytes.
        deq_len: 16,
    }
}

crate::pins! {
    /// Selective-drop outputs: the decision on last clock's arrival, and the state at the start
    /// of the clock.
    pub struct SelDropOut {
        /// Last clock's arrival is enqueued.
        admit: 1,
        /// Its codepoint as enqueued (CE when marked).
        ecn_out: 2,
        /// Selectively dropped (above K, Not-ECT or low priority).
        drop_sel: 1,
        /// Tail-dropped (no room).
        drop_full: 1,
        /// Dropped as malformed.
        drop_bad: 1,
        /// Occupancy in packets at the start of the clock.
        occ_pkts: 32,
        /// Occupancy in bytes at the start of the clock.
        occ_bytes: 32,
        /// Arrivals enqueued.
        cnt_enq: 32,
        /// Arrivals marked CE.
        cnt_marked: 32,
        /// Selective drops.
        cnt_drop_sel: 32,
        /// Tail drops.
        cnt_drop_full: 32,
        /// Malformed descriptors (length 0 or above `MAX_LEN`).
        cnt_malformed: 32,
        /// Dequeues.
        cnt_deq: 32,
        /// Dequeues ignored (empty queue, length 0, more bytes than queued).
        cnt_bad_deq: 32,
        /// Register writes ignored (unknown address or invalid value).
        cnt_csr_rejected: 32,
    }
}

crate::readme_tables!(SelDropIn, SelDropOut);

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
        design_note: "An input stage (a clock of latency; the switch port's arrival stage is the same one): \
                the decision reads flip-flops only. In the clock an arrival comes in, every flag it will be judged \
                by (the fit against `CAP` in bytes and packets, the byte count's overflow, `K` in bytes and packets, \
                the next dequeue's check) is made for each of the four outcomes of the decision in that clock \
                (admitted or not, dequeued or not), each one carry chain from registers and the arriving length \
                (`next_state.rs`), and that decision selects one set; `K` and `CAP` are kept as they will be in force \
                next clock, other register writes pass a `CsrStage`, and counters count a clock late. Since \
                2026-11-30 the byte count is kept in 16-bit halves, so no chain is longer than 20 bits: a byte flag \
                is the sign of one chain whose low sixteen bits are the low half and whose top four are the high \
                difference (`Bh − Kh`, `Bh − Ch`, ...) clamped to −4..4, which is all the low sums can move it by. \
                The high half takes the decided outcome's carry a clock late (the decision only registers the carry, \
                and the next clock folds it in from flip-flops), with the clamps made for each carry that can be \
                pending. On the HX8K, before the halves the byte count went through a 34-bit chain into its flag's \
                select on every placement: 77.85 MHz (75.74–79.28), 2,859 cells; before the input stage 68.11 (66.30–70.34), 1,610. \
                Now 84.73 MHz (80.08–88.44), 3,241 cells. What is left there, 11.3 to 12.5 ns each and 63 to 76 % routing: \
                the decision into the byte flags' select (two placements), a byte flag's 20-bit chain into its select \
                (one), a `K` or `CAP` write through `Bh − W` into the clamps (one), and the pending carry's clamp select \
                in front of the dequeue check's chain (one). 100 MHz needs them all shorter. The unit's select folded \
                into the flags a clock ahead takes a LUT off the decision but puts it behind each byte flag's chain, \
                and measured worse (77.63 MHz, `--trial`); a write's clamps made a clock after the write is the next \
                cut (`seldrop/README.md`, Toward 100 MHz).",
        min_cells: 100,
        min_ram: 0,
        fits_hx8k: true,
        ice40_synth_flags: "",
    }
);
