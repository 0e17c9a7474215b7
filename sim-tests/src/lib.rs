//! Verification of the hdl blocks on three engines (the golden model, rust-hdl's simulator and
//! the Verilated RTL) and the closed loops: the tests (`tests/`) and tools (`src/bin/`) over two
//! crates beside this one, `rtl-sim` (the Verilator bridge, the engine adapters and the
//! simulated NIC) and `netsim` (the network simulator, the scenarios and the sweeps). Their
//! modules are re-exported here under the paths the tests use. See the README for the commands.

pub use netsim;
pub use rtl_sim::{aqm, blocks, cblt, cblt_decoder, fuzz, nic, progress, verilator};
