//! The closed-loop scenarios (sim-tests/src/netsim/scenarios.rs):
//! `cargo run --release -p sim-tests --bin scenarios -- NAME [--engine verilator] [--short]`.
//! Each writes `README.md` (tables, the paper's numbers beside ours) and SVG plots under
//! `sim-tests/results/NAME/` (or `--out DIR`), and prints the Markdown.

use anyhow::Result;
use clap::{Parser, ValueEnum};
use sim_tests::netsim::bottleneck::PortEngine;
use sim_tests::netsim::scenarios::{self, Opts, Report};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Name {
    /// ECN♯ against queue-length K, TCN and CoDel under 70–210 µs RTTs (ecn-sharp.md §4.4).
    RttVariation,
    /// Synchronous query flows on top of long flows (ecn-sharp.md §4.6).
    Incast,
    /// Intra- and cross-DC flows on one DC port (gemini-flashpass.md §1.7).
    Gemini,
    /// All three.
    All,
}

#[derive(Parser)]
struct Args {
    name: Name,
    /// What decides the marks and drops: the port's golden model or the Verilated RTL.
    #[arg(long, value_enum, default_value = "model")]
    engine: PortEngine,
    /// The test suite's short version.
    #[arg(long)]
    short: bool,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Offered load of the web-search FCT runs (rtt-variation).
    #[arg(long, default_value_t = 0.9)]
    load: f64,
    /// Where the results go.
    #[arg(long)]
    out: Option<PathBuf>,
}

fn main() -> Result<()> {
    let a = Args::parse();
    if !(a.load > 0.0 && a.load < 1.0) {
        anyhow::bail!("--load must be between 0 and 1 (exclusive), got {}", a.load);
    }
    let o = Opts { engine: a.engine, short: a.short, seed: a.seed };
    let out = a.out.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results"));
    let names: Vec<Name> = match a.name {
        Name::All => vec![Name::RttVariation, Name::Incast, Name::Gemini],
        n => vec![n],
    };
    for n in names {
        let t0 = Instant::now();
        let report: Report = match n {
            Name::RttVariation => scenarios::rtt_variation(o, a.load)?.report,
            Name::Incast => scenarios::incast(o)?.report,
            Name::Gemini => scenarios::gemini(o)?.report,
            Name::All => unreachable!(),
        };
        report.write(&out)?;
        println!("{}", report.markdown);
        eprintln!("{}: {:.1} s, written to {}", report.name, t0.elapsed().as_secs_f64(), out.join(report.name).display());
    }
    Ok(())
}
