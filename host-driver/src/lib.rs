#![deny(missing_docs)]
//! Host side of the SmartNIC FEC core: CloudBurst (CB-LT) coding from an application, on the
//! software codec or on the NIC.
//!
//! Start with [`cloudburst`]: a [`cloudburst::Sender`] sprays a message over several UDP paths
//! until the receiver's STOP, a [`cloudburst::Receiver`] yields whole messages; `examples/`
//! has a file sent over four paths, a request/response service and a decode on the NIC.
//!
//! * [`cloudburst`]: the message-level API (sender, receiver, the coding engines behind
//!   `Encode` and `Receive`).
//! * [`symfile`]: coded symbols as JSON Lines (hex header, bitset, payload), the format
//!   `cbnic encode` writes and `cbnic decode` reads, so any independent tool can check them.
//! * [`soft`]: the software engine (`--engine soft`): the CB-LT codec of `hdl::cblt`, which
//!   is plain Rust and bit-exact with the RTL encoder.
//! * [`bench`](mod@bench): software encode/decode throughput beside the `raptorq` crate.
//! * [`device`]: the `Device` trait (32-bit BAR0 access) and the driver's errors, with three
//!   backends: [`vfio`] (`pci-driver`), [`mmap`] (a sysfs `resourceN` file, `memmap2`) and
//!   [`sim`] (a mailbox file served by the simulator process running the Verilated NIC).
//! * [`stream`]: what decoding a stream returns on every engine (S from configuration, one
//!   context, per-message results, INVALID changes nothing), and the software receiver.
//! * [`hostile`]: the hostile-input property every engine must hold, and its random streams.
//! * [`nic`]: `FecNic`, encode/decode on the NIC with the software codec's results.
//! * [`demo`]: two NICs, UDP paths on loopback with loss and a cut path, STOP back.

pub mod bench;
pub mod cloudburst;
pub mod demo;
pub mod device;
pub mod hostile;
pub mod mmap;
pub mod nic;
pub mod shm;
pub mod nic_bench;
pub mod sim;
pub mod soft;
pub mod stream;
pub mod symfile;
pub mod vfio;

/// The CB-LT types this API hands out (from the `hdl` crate's codec, re-exported so a user
/// needs no other dependency): a packet's [`Status`] and INVALID reason, the wire [`Header`],
/// a packet's [`RxResult`] and a message's completion [`RxRecord`].
pub use hdl::cblt::{
    decoder::Status,
    header::{Header, Invalid},
    receiver::{RxRecord, RxResult},
    CbltError,
};
