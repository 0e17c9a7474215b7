//! `replay FILE... --engine model|rusthdl|verilator [--emit]`: run vector files through an
//! engine and print `N passed, N failed` (non-zero exit on any failure or malformed file).
//! The block is the name of the folder a file sits in (`testbench-vectors/aqm/…`).
//! A file that fails on Verilator or rust-hdl is run again traced and its waveform written to
//! `target/waves/<block>-<file>/<top>-<n>.vcd` (named in the output); with `$WAVES=DIR` set,
//! every simulated top of the run is traced into DIR.

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

/// Replay (or, for aqm with `--emit`, print) one file. `Ok(None)` means emitted; an error is a
/// malformed file or an engine that cannot start, reported with exit code 2.
fn run_file(file: &std::path::Path, args: &Args) -> Result<Option<Tally>, String> {
    let block = block_of(file);
    if block == "cblt" {
        if args.emit {
            return Err("--emit is only implemented for aqm vectors; CB-LT vectors come from the software codec".into());
        }
        let is_decode = file.file_name().is_some_and(|n| n.to_string_lossy().starts_with("decode_"));
        if !is_decode {
            return sim_tests::cblt::replay_encoder_file(file, args.engine).map(Some).map_err(|e| format!("{e:#}"));
        }
        return sim_tests::cblt_decoder::replay_decoder_file(file, args.engine).map_err(|e| format!("{e:#}"));
    }
    if block != "aqm" {
        let Some(def) = sim_tests::blocks::block(&block) else {
            let known: Vec<_> = sim_tests::blocks::blocks().iter().map(|b| b.name).collect();
            return Err(format!("{}: unknown block `{block}` (the folder names the block; known: aqm, cblt, {})", file.display(), known.join(", ")));
        };
        if args.emit {
            return Err("--emit is only implemented for aqm vectors; pin-level vectors are emitted by the model generator".into());
        }
        return def.replay_file(file, args.engine).map(Some).map_err(|e| format!("{e:#}"));
    }
    let ops = read_jsonl::<Op>(file).map_err(|e| e.to_string())?;
    let mut dut = aqm_engine(args.engine).map_err(|e| format!("cannot start the {:?} engine: {e:#}", args.engine))?;
    if args.emit {
        let plain: Vec<Op> = ops.into_iter().map(|o| o.item).collect();
        let out = emit(&plain, dut.as_mut()).map_err(|e| format!("{}: {e}", file.display()))?;
        print!("{}", to_jsonl(&format!("{} on {:?}", file.display(), args.engine), &out));
        return Ok(None);
    }
    replay(&file.display().to_string(), &ops, dut.as_mut()).map(Some)
}

/// Run a failing file again traced (a Verilator build with `--trace`, or rust-hdl's VCD writer)
/// and name its VCD files (a run with
/// `$WAVES` set is traced already: `main` names its files at the end).
fn dump_waves(file: &std::path::Path, args: &Args) {
    if sim_tests::verilator::waves_dir().is_some() {
        return;
    }
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = sim_tests::verilator::target_dir().join("waves").join(format!("{}-{stem}", block_of(file)));
    std::fs::remove_dir_all(&dir).ok();
    let before = sim_tests::verilator::waves_written().len();
    std::env::set_var("WAVES", &dir);
    let _ = run_file(file, args);
    std::env::remove_var("WAVES");
    for w in &sim_tests::verilator::waves_written()[before..] {
        eprintln!("waveform of {}: {} (open it with gtkwave)", file.display(), w.display());
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut total = Tally::default();
    for file in &args.files {
        match run_file(file, &args) {
            Ok(Some(t)) => {
                for f in &t.failures {
                    eprintln!("FAIL {f}");
                }
                eprintln!("{}: {} passed, {} failed", file.display(), t.passed, t.failed);
                if t.failed > 0 && args.engine != Engine::Model {
                    dump_waves(file, &args);
                }
                total.merge(t);
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    }
    for w in sim_tests::verilator::waves_written().iter().filter(|_| sim_tests::verilator::waves_dir().is_some()) {
        eprintln!("waveform: {} (open it with gtkwave)", w.display());
    }
    if !args.emit {
        println!("{} passed, {} failed", total.passed, total.failed);
        if total.failed > 0 {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
