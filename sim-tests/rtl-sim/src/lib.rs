//! The Verilator bridge (`verilator`) and the engine adapters: every block on its golden model,
//! rust-hdl's simulator and the Verilated RTL behind one interface (`aqm`, `blocks`, `cblt`,
//! `cblt_decoder`, `nic`), lockstep fuzz against the model (`fuzz`), and the simulated NIC's
//! server (`nic::serve`, the `nic-sim` program). The host driver's sim backend talks to
//! `nic-sim` through `host_driver::shm`.

pub mod aqm;
pub mod blocks;
pub mod cblt;
pub mod cblt_decoder;
pub mod fuzz;
pub mod nic;
pub mod progress;
pub mod verilator;

/// What runs a block: its golden model, rust-hdl's simulator or the Verilated RTL. One type for
/// every vector replay, fuzz run, benchmark and closed loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    Model,
    Rusthdl,
    Verilator,
}
