//! Host side of the SmartNIC FEC core.
//!
//! * [`symfile`]: coded symbols as JSON Lines (hex header, bitset, payload), the format
//!   `cbnic encode` writes and `cbnic decode` reads, so any independent tool can check them.
//! * [`soft`]: the software engine (`--engine soft`): the CB-LT codec of `hdl::cblt`, which
//!   is plain Rust and bit-exact with the RTL encoder.
//! * [`bench`]: software encode/decode throughput beside the `raptorq` crate.
//!
//! The `Device` backends (vfio, mmap, sim) and `FecNic` come with the NIC top.

pub mod bench;
pub mod soft;
pub mod symfile;
