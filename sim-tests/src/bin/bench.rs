//! Simulation speed, measured in one run: `cargo run --release -p sim-tests --bin bench`.
//! 1. The AQM top, Verilator against rust-hdl: both engines run the same fuzz stimulus
//!    (lockstep with the model, whose cost is measured alone and subtracted).
//! 2. The closed loop on the Verilated port against the port's golden model: the same run
//!    (8 long-lived DCTCP flows through the ECN♯-configured 2 × 256 port for `--loop-ms`),
//!    wall time on each engine, and their ratio.

use clap::Parser;
use hdl::aqm::vectors::ModelTop;
use hdl::aqm::Mode;
use sim_tests::aqm::{aqm_engine, Engine};
use sim_tests::fuzz::lockstep;
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
    let timed = |dut: &mut dyn hdl::aqm::vectors::AqmDut| -> anyhow::Result<(u64, f64)> {
        let t0 = Instant::now();
        let cycles = lockstep(Mode::EcnSharp, a.dequeues, 7, dut).map_err(anyhow::Error::msg)?;
        Ok((cycles, t0.elapsed().as_secs_f64()))
    };
    let (_, t_model) = timed(&mut ModelTop::default())?;
    let mut rates = vec![];
    for e in [Engine::Verilator, Engine::Rusthdl] {
        let mut dut = aqm_engine(e)?;
        let (cycles, t) = timed(dut.as_mut())?;
        let rate = cycles as f64 / (t - t_model).max(1e-9);
        println!("{e:?}: {cycles} cycles in {:.3} s (model share {:.3} s) = {:.0} cycles/s", t, t_model, rate);
        rates.push(rate);
    }
    println!("Verilator / rust-hdl speed ratio: {:.1}x", rates[0] / rates[1]);

    use sim_tests::netsim::bottleneck::PortEngine;
    use sim_tests::netsim::scenarios::{long_flows, net_10g, simulate, testbed_schemes};
    let cfg = net_10g();
    let scheme = testbed_schemes(&cfg).pop().expect("ECN♯ is the last testbed scheme");
    let mut secs = vec![];
    for engine in [PortEngine::Model, PortEngine::Verilator] {
        sim_tests::netsim::bottleneck::build(engine)?; // a Verilated model is built (or loaded from the cache) outside the timing
        let t0 = Instant::now();
        let r = simulate(&cfg, &scheme, long_flows(8, cfg.init_cwnd), engine, a.loop_ms * 1000.0)?;
        let t = t0.elapsed().as_secs_f64();
        println!("closed loop on {engine:?}: {} port clocks in {t:.3} s = {:.0} clocks/s ({} marks)", cfg.ticks(a.loop_ms * 1000.0), cfg.ticks(a.loop_ms * 1000.0) as f64 / t, r.marks);
        secs.push(t);
    }
    println!("closed loop, Verilated port / model time: {:.2}x", secs[1] / secs[0]);
    Ok(())
}
