//! The closed-loop scenarios (sim-tests/src/netsim/scenarios.rs):
//! `cargo run --release -p sim-tests --bin scenarios -- NAME [--engine verilator] [--short]`
//! (closed loop I in `netsim/scenarios.rs`; REN, fastconv, FlashPass and CloudBurst in their
//! own `netsim/` modules).
//! Each writes `README.md` (tables, the paper's numbers beside ours) and SVG plots under
//! `sim-tests/results/NAME/` (or `--out DIR`), and prints the Markdown.

use anyhow::{Context, Result};
use clap::{Parser, ValueEnum};
use sim_tests::netsim::bottleneck::PortEngine;
use sim_tests::netsim::scenarios::{self, Opts, Outcome};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Name {
    /// ECN♯ against queue-length K, TCN and CoDel under 70–210 µs RTTs (ECN♯ §4.4).
    RttVariation,
    /// Synchronous query flows on top of long flows (ECN♯ §4.6).
    Incast,
    /// Intra- and cross-DC flows on one DC port (GEMINI/FlashPass §1.7).
    Gemini,
    /// REN's grants driven by the port's REN codes, bursts and short flows (REN §3, §6).
    Ren,
    /// HPCC and Swift with VAI and SF, INT from the port (HPCC/Swift §2, §4).
    Fastconv,
    /// FlashPass emulation, Algorithm 2 and over-provisioning on the port (GEMINI/FlashPass §2).
    Flashpass,
    /// CB-LT messages sprayed over four ports against single-path DCTCP (CB-LT §4).
    Cloudburst,
    /// All of them.
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    Model,
    Verilator,
    /// Both, checking that every run's marks and drops are identical; the model's report is kept.
    Both,
}

#[derive(Parser)]
struct Args {
    name: Name,
    /// What decides the marks and drops: the port's golden model, the Verilated RTL, or both.
    #[arg(long, value_enum, default_value = "model")]
    engine: EngineArg,
    /// The test suite's short version.
    #[arg(long)]
    short: bool,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where the results go.
    #[arg(long)]
    out: Option<PathBuf>,
}

fn main() -> Result<()> {
    let a = Args::parse();
    let engines: Vec<PortEngine> = match a.engine {
        EngineArg::Model => vec![PortEngine::Model],
        EngineArg::Verilator => vec![PortEngine::Verilator],
        EngineArg::Both => vec![PortEngine::Model, PortEngine::Verilator],
    };
    let out = a.out.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results"));
    let names: Vec<Name> = match a.name {
        Name::All => vec![Name::RttVariation, Name::Incast, Name::Gemini, Name::Ren, Name::Fastconv, Name::Flashpass, Name::Cloudburst],
        n => vec![n],
    };
    for n in names {
        let mut outcomes: Vec<Box<dyn Outcome>> = vec![];
        for &engine in &engines {
            let t0 = Instant::now();
            let o = Opts { engine, short: a.short, seed: a.seed };
            let spin = sim_tests::progress::spinner(format!("{n:?} on {engine:?}"));
            outcomes.push(match n {
                Name::RttVariation => Box::new(scenarios::rtt_variation(o)?),
                Name::Incast => Box::new(scenarios::incast(o)?),
                Name::Gemini => Box::new(scenarios::gemini(o)?),
                Name::Ren => Box::new(sim_tests::netsim::ren::ren(o)?),
                Name::Fastconv => Box::new(sim_tests::netsim::fastconv::fastconv(o)?),
                Name::Flashpass => Box::new(sim_tests::netsim::flashpass::flashpass(o)?),
                Name::Cloudburst => Box::new(sim_tests::netsim::cloudburst::cloudburst(o)?),
                Name::All => unreachable!(),
            });
            sim_tests::progress::done(spin);
            eprintln!("{n:?} on {engine:?}: {:.1} s", t0.elapsed().as_secs_f64());
        }
        if let [model, rtl] = &outcomes[..] {
            let (runs, decisions) = scenarios::compare_decisions(model.as_ref(), rtl.as_ref()).with_context(|| format!("{n:?}: the model and the Verilated RTL disagree"))?;
            eprintln!("{n:?}: model and Verilated RTL identical over {runs} runs, {decisions} decisions (drops, marks and codes, INT digests)");
        }
        let report = outcomes[0].report();
        report.write(&out)?;
        println!("{}", report.markdown);
        eprintln!("{}: written to {}", report.name, out.join(report.name).display());
    }
    Ok(())
}
