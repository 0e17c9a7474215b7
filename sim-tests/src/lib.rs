//! Verification of the hdl blocks on three engines (the golden model, rust-hdl's simulator and
//! the Verilated RTL) and the closed loops: the tests (`tests/`) and tools (`src/bin/`) over two
//! crates beside this one, `rtl-sim` (the Verilator bridge, the engine adapters and the
//! simulated NIC) and `netsim` (the network simulator, the scenarios and the sweeps). Their
//! modules are re-exported here under the paths the tests use. See the README for the commands.

pub use netsim;
pub use rtl_sim::{aqm, blocks, cblt, cblt_decoder, fuzz, nic, progress, verilator};

/// The three vector tests of a codec block: every file on the model and on Verilator, the
/// S = 16 files on rust-hdl (the S = 1460 streams take minutes there). `replay(file, engine)`
/// asserts one file.
#[macro_export]
macro_rules! codec_vector_tests {
    ($replay:ident, s16: $s16:expr, s1460: $s1460:expr) => {
        #[test]
        fn vectors_pass_on_the_model() {
            for f in $s16.iter().chain(&[$s1460]) {
                $replay(f, Engine::Model);
            }
        }

        #[test]
        fn s16_vectors_pass_on_rusthdl() {
            for f in $s16 {
                $replay(f, Engine::Rusthdl);
            }
        }

        #[test]
        fn vectors_pass_on_verilator() {
            for f in $s16.iter().chain(&[$s1460]) {
                $replay(f, Engine::Verilator);
            }
        }
    };
}
