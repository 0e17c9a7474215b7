//! RustHDL blocks for the in-network and NIC halves of datacenter congestion control.
//!
//! One folder per block: its golden model (`model.rs`, plain Rust), its RTL (`rtl.rs`, behind
//! the `rtl` feature), its vector generator (`vectors.rs`) and its tests, side by side.
//! Each folder's `README.md` is its module documentation: behaviour, register map and pins
//! (generated, [`block_docs`]), latency, choices, tests. Comments cite sections of the project's
//! per-system design notes (`ECN♯ §x`, `REN §x`, `GEMINI/FlashPass §x`, `HPCC/Swift §x`,
//! `CB-LT §x`); the README of the system's block (`aqm`, `ren`, `seldrop`, `intstamp`, `cblt`)
//! says what each cited section fixes and where it is restated.

pub mod aqm;
pub mod block_docs;
#[cfg(feature = "rtl")]
pub mod blocks;
pub mod cblt;
pub mod cycle;
pub mod dwrr;
pub mod intstamp;
pub mod nic;
pub mod port;
pub mod ren;
pub mod regmap;
#[cfg(feature = "rtl")]
pub mod rtl_util;
pub mod seldrop;
pub mod shaper;
pub mod sojourn;
pub mod vectors;

/// ECN codepoints (RFC 3168).
pub mod ecn {
    pub const NOT_ECT: u8 = 0b00;
    pub const ECT1: u8 = 0b01;
    pub const ECT0: u8 = 0b10;
    pub const CE: u8 = 0b11;

    /// ECT(0) or ECT(1): the codepoints a marker may turn into CE.
    pub fn is_ect(ecn: u8) -> bool {
        ecn == ECT0 || ecn == ECT1
    }
}
