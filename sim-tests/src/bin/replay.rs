//! `replay FILE... --engine model|rusthdl|verilator [--emit]`: run vector files through an
//! engine and print `N passed, N failed` (non-zero exit on any failure or malformed file).
//! The block is the name of the folder a file sits in (`testbench-vectors/aqm/…`).

use clap::Parser;
use hdl::aqm::vectors::{emit, replay, Op};
use hdl::vectors::{read_jsonl, to_jsonl, Tally};
use sim_tests::aqm::{aqm_engine, Engine};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "Replay packet vectors on the golden model, rust-hdl or Verilator")]
struct Args {
    /// Vector files (JSON Lines).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "verilator")]
    engine: Engine,
    /// Print the engine's outputs as vectors instead of checking them.
    #[arg(long)]
    emit: bool,
}

fn block_of(file: &std::path::Path) -> String {
    file.parent().and_then(|p| p.file_name()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut total = Tally::default();
    for file in &args.files {
        let block = block_of(file);
        if block != "aqm" {
            let Some(def) = sim_tests::blocks::block(&block) else {
                let known: Vec<_> = sim_tests::blocks::blocks().iter().map(|b| b.name).collect();
                eprintln!("{}: unknown block `{block}` (the folder names the block; known: aqm, {})", file.display(), known.join(", "));
                return ExitCode::from(2);
            };
            if args.emit {
                eprintln!("--emit is only implemented for aqm vectors; pin-level vectors are emitted by the model generator");
                return ExitCode::from(2);
            }
            match def.replay_file(file, args.engine) {
                Ok(t) => {
                    for f in &t.failures {
                        eprintln!("FAIL {f}");
                    }
                    eprintln!("{}: {} passed, {} failed", file.display(), t.passed, t.failed);
                    total.merge(t);
                }
                Err(e) => {
                    eprintln!("{e:#}");
                    return ExitCode::from(2);
                }
            }
            continue;
        }
        let ops = match read_jsonl::<Op>(file) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let mut dut = match aqm_engine(args.engine) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("cannot start the {:?} engine: {e:#}", args.engine);
                return ExitCode::from(2);
            }
        };
        if args.emit {
            let plain: Vec<Op> = ops.into_iter().map(|o| o.item).collect();
            match emit(&plain, dut.as_mut()) {
                Ok(out) => print!("{}", to_jsonl(&format!("{} on {:?}", file.display(), args.engine), &out)),
                Err(e) => {
                    eprintln!("{}: {e}", file.display());
                    return ExitCode::from(2);
                }
            }
            continue;
        }
        match replay(&file.display().to_string(), &ops, dut.as_mut()) {
            Ok(t) => {
                for f in &t.failures {
                    eprintln!("FAIL {f}");
                }
                eprintln!("{}: {} passed, {} failed", file.display(), t.passed, t.failed);
                total.merge(t);
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    }
    if !args.emit {
        println!("{} passed, {} failed", total.passed, total.failed);
        if total.failed > 0 {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
