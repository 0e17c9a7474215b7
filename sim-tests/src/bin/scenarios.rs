//! The closed-loop scenarios (sim-tests/netsim/src/scenarios.rs):
//! `cargo run --release -p sim-tests --bin scenarios -- NAME [--engine verilator] [--short]
//! [--port full|both]`
//! (closed loop I in `netsim/scenarios.rs`; REN, fastconv, FlashPass and CloudBurst in their
//! own `netsim/` modules).
//! Each writes `README.md` (tables, the paper's numbers beside ours) and SVG plots under
//! `sim-tests/results/NAME/` (or `--out DIR`), and prints the Markdown.
//!
//! `scenarios sweep run|merge|slurm SWEEP …`: a sweep over an axis × seeds with 95 % confidence
//! intervals (`netsim/sweep.rs`), run here (`run`, optionally one `--shard i/n`), or as a Slurm
//! job array (`slurm`), merged into `sim-tests/results/sweep-SWEEP/`.

use anyhow::{Context, Result};
use clap::{Parser, ValueEnum};
use sim_tests::netsim::bottleneck::PortEngine;
use sim_tests::netsim::scenarios::{self, Opts, Outcome};
use sim_tests::netsim::sweep;
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

/// Which switch port a scenario runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PortArg {
    /// Its system's (`hdl::port::SYSTEMS`; CloudBurst's paths use the full port).
    System,
    /// The full port, every block built in.
    Full,
    /// Both, checking that every run's decisions are identical (the other blocks are inert);
    /// the system port's report is kept.
    Both,
}

#[derive(Parser)]
struct Args {
    name: Name,
    /// What decides the marks and drops: the port's golden model, the Verilated RTL, or both.
    #[arg(long, value_enum, default_value = "model")]
    engine: EngineArg,
    /// The port: the system's, the full one, or both (one engine only).
    #[arg(long, value_enum, default_value = "system")]
    port: PortArg,
    /// The test suite's short version.
    #[arg(long)]
    short: bool,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where the results go.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Parser)]
#[command(name = "scenarios sweep", about = "Sweeps over an axis × seeds, with 95 % confidence intervals, here or on Slurm")]
struct SweepArgs {
    #[command(subcommand)]
    cmd: SweepCmd,
}

#[derive(clap::Args, Clone)]
struct PlanArgs {
    /// The sweep: fct-load (ECN♯ FCT against load), incast (timeouts against senders),
    /// rtt-spread (FCT against the base-RTT spread) or cloudburst (message completion time
    /// against request rate, with path faults).
    sweep: String,
    /// Seeds per point (1..=N).
    #[arg(long, default_value_t = 10)]
    seeds: u64,
    /// The suite's short version (two points, shorter runs).
    #[arg(long)]
    short: bool,
    /// The port's golden model, the Verilated RTL, or rust-hdl's simulator (slow).
    #[arg(long, value_enum, default_value = "model")]
    engine: PortEngine,
    /// The results folder (default sim-tests/results/sweep-SWEEP): job files in jobs/, the report beside.
    #[arg(long)]
    out: Option<PathBuf>,
}


#[derive(clap::Subcommand)]
enum SweepCmd {
    /// Run the plan's jobs here on every core (jobs already done are skipped), then merge; with
    /// --shard i/n, only shard i's jobs and no merge.
    Run {
        #[command(flatten)]
        plan: PlanArgs,
        #[arg(long)]
        shard: Option<sweep::Shard>,
    },
    /// Merge the job files of a results folder into its report.
    Merge {
        /// The results folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// Submit the plan as a Slurm job array of N shards (`sbatch --wait`, with the SLURM_CONF of
    /// the environment), then merge.
    Slurm {
        #[command(flatten)]
        plan: PlanArgs,
        /// Array tasks.
        #[arg(long, default_value_t = 4)]
        shards: usize,
        /// CPUs per task.
        #[arg(long, default_value_t = 1)]
        cpus_per_task: usize,
    },
}

fn sweep_out(p: &PlanArgs) -> PathBuf {
    p.out.clone().unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results").join(format!("sweep-{}", p.sweep)))
}


/// Merge the job files in `out` into its README.md and figures.
fn merge_into(out: &std::path::Path) -> Result<()> {
    let results = sweep::read_results(out)?;
    let first = &results.first().context("no job results")?.job;
    let seeds = results.iter().map(|r| r.job.seed).max().unwrap_or(0);
    let command = format!(
        "cargo run --release -p sim-tests --bin scenarios -- sweep run {} --seeds {seeds}{}",
        first.sweep,
        if first.short { " --short" } else { "" }
    );
    let report = sweep::merge(&results, &command)?;
    std::fs::write(out.join("README.md"), &report.markdown)?;
    for (file, p) in &report.plots {
        p.write(out, file)?;
    }
    println!("{}", report.markdown);
    eprintln!("merged {} job files into {}", results.len(), out.join("README.md").display());
    Ok(())
}

fn sweep_main(argv: Vec<String>) -> Result<()> {
    let a = SweepArgs::parse_from(std::iter::once("scenarios sweep".to_string()).chain(argv));
    match a.cmd {
        SweepCmd::Run { plan, shard } => {
            let spec = sweep::Spec::new(&plan.sweep, plan.seeds, plan.short)?;
            let out = sweep_out(&plan);
            let jobs = shard.unwrap_or(sweep::Shard::ALL).of(&spec.plan());
            let t0 = Instant::now();
            let spin = sim_tests::progress::spinner(format!("sweep {}: {} jobs", plan.sweep, jobs.len()));
            let ran = sweep::run_local(&jobs, plan.engine, &out)?;
            sim_tests::progress::done(spin);
            eprintln!("sweep {}: {ran} jobs run ({} already done) in {:.1} s", plan.sweep, jobs.len() - ran, t0.elapsed().as_secs_f64());
            if shard.is_none() {
                merge_into(&out)?;
            }
            Ok(())
        }
        SweepCmd::Merge { out } => merge_into(&out),
        SweepCmd::Slurm { plan, shards, cpus_per_task } => {
            anyhow::ensure!(shards >= 1, "--shards must be at least 1");
            let _ = sweep::Spec::new(&plan.sweep, plan.seeds, plan.short)?;
            let out = sweep_out(&plan);
            std::fs::create_dir_all(out.join("slurm"))?;
            let out = out.canonicalize()?;
            let exe = std::env::current_exe().context("the path of this program")?;
            let mut args = vec!["sweep".to_string(), "run".into(), plan.sweep.clone(), "--seeds".into(), plan.seeds.to_string()];
            if plan.short {
                args.push("--short".into());
            }
            args.extend(["--engine".into(), format!("{:?}", plan.engine).to_lowercase()]);
            let script = out.join("slurm/sweep.sbatch");
            std::fs::write(&script, sweep::sbatch_script(&exe, &args, &out, shards, cpus_per_task))?;
            let t0 = Instant::now();
            eprintln!("sbatch --wait {} ({shards} array tasks)", script.display());
            // sbatch's own output goes to standard error: standard output is the report
            let o = std::process::Command::new("sbatch")
                .arg("--wait")
                .arg(&script)
                .stderr(std::process::Stdio::inherit())
                .output()
                .context("sbatch is not installed (Debian: slurm-client; scripts/slurm-local.sh starts a one-node Slurm)")?;
            eprint!("{}", String::from_utf8_lossy(&o.stdout));
            anyhow::ensure!(o.status.success(), "the Slurm job array failed ({}); task logs in {}", o.status, out.join("slurm").display());
            eprintln!("Slurm job array done in {:.1} s", t0.elapsed().as_secs_f64());
            merge_into(&out)
        }
    }
}

fn main() -> Result<()> {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().is_some_and(|a| a == "sweep") {
        return sweep_main(argv[1..].to_vec());
    }
    let a = Args::parse();
    let engines: Vec<PortEngine> = match a.engine {
        EngineArg::Model => vec![PortEngine::Model],
        EngineArg::Verilator => vec![PortEngine::Verilator],
        EngineArg::Both => vec![PortEngine::Model, PortEngine::Verilator],
    };
    let full_port: Vec<bool> = match a.port {
        PortArg::System => vec![false],
        PortArg::Full => vec![true],
        PortArg::Both if engines.len() == 1 => vec![false, true],
        PortArg::Both => anyhow::bail!("--port both compares two ports on one engine: pick --engine model or verilator"),
    };
    let out = a.out.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results"));
    let names: Vec<Name> = match a.name {
        Name::All => vec![Name::RttVariation, Name::Incast, Name::Gemini, Name::Ren, Name::Fastconv, Name::Flashpass, Name::Cloudburst],
        n => vec![n],
    };
    for n in names {
        let mut outcomes: Vec<Box<dyn Outcome>> = vec![];
        for (engine, full) in engines.iter().flat_map(|&e| full_port.iter().map(move |&f| (e, f))) {
            sim_tests::netsim::bottleneck::use_full_port_everywhere(full);
            let on = format!("{engine:?}{}", if full { ", full port" } else { "" });
            let t0 = Instant::now();
            let o = Opts { engine, short: a.short, seed: a.seed };
            let spin = sim_tests::progress::spinner(format!("{n:?} on {on}"));
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
            eprintln!("{n:?} on {on}: {:.1} s", t0.elapsed().as_secs_f64());
        }
        if let [first, second] = &outcomes[..] {
            if full_port.len() == 2 {
                let (runs, decisions) = scenarios::compare_ports(first.as_ref(), second.as_ref())
                    .with_context(|| format!("{n:?}: its system's port and the full port disagree"))?;
                eprintln!("{n:?}: its system's port and the full port identical over {runs} runs, {decisions} decisions (drops, marks and codes) and the report");
            } else {
                let (runs, decisions) = scenarios::compare_decisions(first.as_ref(), second.as_ref())
                    .with_context(|| format!("{n:?}: the model and the Verilated RTL disagree"))?;
                eprintln!("{n:?}: model and Verilated RTL identical over {runs} runs, {decisions} decisions (drops, marks and codes, INT digests)");
            }
        }
        let report = outcomes[0].report();
        report.write(&out)?;
        println!("{}", report.markdown);
        eprintln!("{}: written to {}", report.name, out.join(report.name).display());
    }
    Ok(())
}
