//! Simulation speed, measured in one run: `cargo run --release -p sim-tests --bin bench`.
//! 1. The AQM top, Verilator against rust-hdl: the fuzz stimulus is recorded from the model
//!    first, then each engine replays it alone from reset (drive every input, read every
//!    output, edge) under the clock; in one more pass, untimed, each engine's outputs must fold
//!    to the model's digest, or the run fails.
//! 2. The closed loop on the Verilated port against the port's golden model: the same run
//!    (8 long-lived DCTCP flows through the ECN♯-configured 2 × 256 port for `--loop-ms`),
//!    wall time on each engine, and their ratio.

use clap::Parser;
use hdl::aqm::vectors::AqmIn;
use hdl::aqm::Mode;
use sim_tests::aqm::{aqm_engine, Engine};
use sim_tests::fuzz::{digest, recorded};
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// Dequeues per engine (about 1.46 cycles each).
    #[arg(long, default_value_t = 1_000_000)]
    dequeues: u64,
    /// Simulated milliseconds of the closed-loop run.
    #[arg(long, default_value_t = 100.0)]
    loop_ms: f64,
}

fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    let (stimulus, want) = recorded(Mode::EcnSharp, a.dequeues, 7);
    let cycles = stimulus.len();
    let stimulus: Vec<u64> = stimulus.iter().flat_map(AqmIn::to_vec).collect();
    let clocks = || stimulus.chunks_exact(AqmIn::PINS.len());
    let mut rates = vec![];
    // Timed: drive every input pin, read every output pin, clock, from reset. Verilator's pass
    // is short (about 0.1 s), so it is timed five times and the median taken; rust-hdl's (about
    // 10 s) once. Then, untimed, one more pass per engine folds its output pins, which must be
    // the model's.
    for (e, passes) in [(Engine::Verilator, 5), (Engine::Rusthdl, 1)] {
        let mut secs = vec![];
        for _ in 0..passes {
            let mut dut = aqm_engine(e)?;
            let t0 = Instant::now();
            for i in clocks() {
                std::hint::black_box(dut.eval(i));
                dut.edge();
            }
            secs.push(t0.elapsed().as_secs_f64());
        }
        let mut dut = aqm_engine(e)?;
        let h = clocks().fold(0, |h, i| {
            let h = digest(h, dut.eval(i));
            dut.edge();
            h
        });
        anyhow::ensure!(h == want, "{e:?}: the outputs differ from the model's on the recorded stimulus");
        secs.sort_by(f64::total_cmp);
        let t = secs[secs.len() / 2];
        let rate = cycles as f64 / t;
        println!("{e:?}: {cycles} cycles in {t:.3} s (median of {passes}) = {rate:.0} cycles/s, output digest equal to the model's");
        rates.push(rate);
    }
    println!("Verilator / rust-hdl speed ratio: {:.1}x", rates[0] / rates[1]);

    use sim_tests::netsim::bottleneck::PortEngine;
    use sim_tests::netsim::scenarios::{long_flows, net_10g, simulate, testbed_schemes};
    let cfg = net_10g();
    let scheme = testbed_schemes(&cfg).pop().expect("ECN♯ is the last testbed scheme");
    let mut secs = vec![];
    for engine in [PortEngine::Model, PortEngine::Verilator] {
        sim_tests::netsim::bottleneck::build(engine, hdl::port::features::AQM)?; // the ECN♯ port: a Verilated model is built (or loaded from the cache) outside the timing
        let t0 = Instant::now();
        let r = simulate(&cfg, &scheme, long_flows(8, cfg.init_cwnd), engine, a.loop_ms * 1000.0)?;
        let t = t0.elapsed().as_secs_f64();
        println!("closed loop on {engine:?}: {} port clocks in {t:.3} s = {:.0} clocks/s ({} marks)", cfg.ticks(a.loop_ms * 1000.0), cfg.ticks(a.loop_ms * 1000.0) as f64 / t, r.marks);
        secs.push(t);
    }
    println!("closed loop, Verilated port / model time: {:.2}x", secs[1] / secs[0]);
    Ok(())
}
