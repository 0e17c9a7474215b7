//! Simulation speed of the AQM top, Verilator against rust-hdl, measured in one run:
//! `cargo run --release -p sim-tests --bin bench [-- --cycles N]`.
//! Both engines run the same fuzz stimulus (lockstep with the model, whose cost is measured
//! alone and subtracted).

use clap::Parser;
use hdl::aqm::vectors::ModelTop;
use hdl::aqm::Mode;
use sim_tests::aqm::{aqm_engine, Engine};
use sim_tests::fuzz::lockstep;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// Dequeues per engine (about 1.46 cycles each).
    #[arg(long, default_value_t = 200_000)]
    dequeues: u64,
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
    Ok(())
}
