//! RustHDL blocks for the in-network and NIC halves of datacenter congestion control.
//!
//! One folder per block: its golden model (`model.rs`, plain Rust), its RTL (`rtl.rs`, behind
//! the `rtl` feature), its vector generator (`vectors.rs`) and its tests, side by side.
//! Comments cite sections (`§`) of the project's per-system design notes, which this repository
//! does not ship: what each cited section fixes is restated where it is used, in the block's
//! `mod.rs` (behaviour, choices, register map) and, for CB-LT, `cblt/README.md`.

pub mod aqm;
#[cfg(feature = "rtl")]
pub mod blocks;
pub mod cblt;
pub mod cycle;
pub mod dwrr;
pub mod intstamp;
pub mod nic;
pub mod port;
pub mod ren;
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
