//! Verification of the hdl blocks on three engines: the golden model, rust-hdl's simulator and
//! the Verilated RTL. See the README for the commands.

pub mod aqm;
pub mod blocks;
pub mod cblt;
pub mod cblt_decoder;
pub mod fuzz;
pub mod netsim;
pub mod nic;
pub mod progress;
pub mod verilator;
