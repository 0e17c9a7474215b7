//! Long differential fuzz runs: `cargo run --release -p sim-tests --bin fuzz -- --dequeues 10000000`
//! (AQM), or `-- --block ren|seldrop|shaper|intstamp|dwrr|port --dequeues N` (N clocks of random
//! stimulus per seed for a pin-level block; `port-ecnsharp` and the other per-system ports of
//! `hdl::port::SYSTEMS` too), `-- --block cblt-encoder --dequeues N` (N random
//! messages per encoder build and seed, Verilator), or `-- --block cblt-decoder --dequeues N`
//! (N random scenarios per decoder build and seed, against the Receiver model; `--engine
//! rusthdl` runs the S = 16 build only). `--shard i/n` runs one shard of the seeds.

use clap::Parser;
use hdl::aqm::Mode;
use sim_tests::aqm::{aqm_engine, Engine};
use sim_tests::fuzz::lockstep;
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "Differential fuzz of an RTL engine against the golden model")]
struct Args {
    /// `aqm`, or a pin-level block (the name of its vector folder), or a per-system port
    /// (`port-ecnsharp`, `port-ren`, `port-flashpass`, `port-hpcc`).
    #[arg(long, default_value = "aqm")]
    block: String,
    #[arg(long, value_enum, default_value = "verilator")]
    engine: Engine,
    /// Dequeues per mode and seed (aqm), clocks per seed (pin-level blocks), messages per
    /// build and seed (cblt-encoder), or scenarios per build and seed (cblt-decoder).
    #[arg(long, default_value_t = 1_000_000)]
    dequeues: u64,
    /// Seeds to run (seed, seed+1, …).
    #[arg(long, default_value_t = 4)]
    seeds: u64,
    /// First seed (a failure prints the seed to pass here).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run only shard i of n of the seeds (the k-th seed when k mod n = i), so a long campaign
    /// spreads over machines or a Slurm job array as the sweeps do.
    #[arg(long)]
    shard: Option<sim_tests::netsim::sweep::Shard>,
}

fn main() -> ExitCode {
    let a = Args::parse();
    let seeds = a.shard.unwrap_or(sim_tests::netsim::sweep::Shard::ALL).of(&(a.seed..a.seed + a.seeds).collect::<Vec<u64>>());
    let mut runs = 0;
    if a.block == "cblt-encoder" {
        let n = a.dequeues as usize;
        for &s in &seeds {
            match sim_tests::progress::during(format!("cblt-encoder seed {s}"), || sim_tests::cblt::fuzz_encoder(s, [n; 4])) {
                Ok(syms) => println!("cblt-encoder seed {s}: {n} messages per build, {syms} symbols bit-exact with the codec"),
                Err(e) => {
                    eprintln!("{e:#}\nreplay with (WAVES=DIR in the environment dumps every Verilated top as DIR/<top>-<n>.vcd): --block cblt-encoder --dequeues {n} --seed {s} --seeds 1");
                    println!("{runs} passed, 1 failed");
                    return ExitCode::FAILURE;
                }
            }
            runs += 1;
        }
        println!("{runs} passed, 0 failed");
        return ExitCode::SUCCESS;
    }
    if a.block == "cblt-decoder" {
        use sim_tests::cblt_decoder::{fuzz_decoder, BUILDS};
        let n = a.dequeues as usize;
        let builds: Vec<_> = if a.engine == Engine::Rusthdl { vec![BUILDS[0]] } else { BUILDS.to_vec() };
        for &s in &seeds {
            for &b in &builds {
                match sim_tests::progress::during(format!("cblt-decoder {b:?} seed {s}"), || fuzz_decoder(a.engine, b, s, n)) {
                    Ok(st) => println!(
                        "cblt-decoder {:?} (S, W, k_max) = {b:?} seed {s}: {n} scenarios, {} packets, {} delivered, {} failed, {} clocks, all equal to the model",
                        a.engine, st.packets, st.delivered, st.failed, st.clocks
                    ),
                    Err(e) => {
                        eprintln!("{e:#}\nreplay with (WAVES=DIR in the environment dumps every Verilated top as DIR/<top>-<n>.vcd): --block cblt-decoder --engine {} --dequeues {n} --seed {s} --seeds 1", format!("{:?}", a.engine).to_lowercase());
                        println!("{runs} passed, 1 failed");
                        return ExitCode::FAILURE;
                    }
                }
                runs += 1;
            }
        }
        println!("{runs} passed, 0 failed");
        return ExitCode::SUCCESS;
    }
    if a.block != "aqm" {
        let Some(def) = sim_tests::blocks::block(&a.block) else {
            eprintln!("unknown block `{}`", a.block);
            return ExitCode::from(2);
        };
        for &s in &seeds {
            match sim_tests::progress::during(format!("{} {:?} seed {s}", a.block, a.engine), || def.fuzz(a.engine, s, a.dequeues)) {
                Ok(st) => println!("{} {:?} seed {s}: {} clocks, {} events, 0 mismatches", a.block, a.engine, st.cycles, st.events),
                Err(e) => {
                    eprintln!("{e:#}\nreplay with (WAVES=DIR in the environment dumps every Verilated top as DIR/<top>-<n>.vcd): --block {} --engine {:?} --seed {s} --seeds 1", a.block, a.engine);
                    println!("{runs} passed, 1 failed");
                    return ExitCode::FAILURE;
                }
            }
            runs += 1;
        }
        println!("{runs} passed, 0 failed");
        return ExitCode::SUCCESS;
    }
    for &s in &seeds {
        for mode in Mode::ALL {
            let mut dut = match aqm_engine(a.engine) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("cannot start the engine: {e:#}");
                    return ExitCode::from(2);
                }
            };
            match sim_tests::progress::during(format!("aqm {:?} {mode:?} seed {s}", a.engine), || lockstep(mode, a.dequeues, s, dut.as_mut())) {
                Ok(c) => println!("{:?} {mode:?} seed {s}: {} dequeues, {c} cycles, 0 mismatches", a.engine, a.dequeues),
                Err(e) => {
                    eprintln!("{e}\nreplay with (WAVES=DIR in the environment dumps every Verilated top as DIR/<top>-<n>.vcd): --engine {:?} --seed {s} --seeds 1", a.engine);
                    println!("{runs} passed, 1 failed");
                    return ExitCode::FAILURE;
                }
            }
            runs += 1;
        }
    }
    println!("{runs} passed, 0 failed");
    ExitCode::SUCCESS
}
