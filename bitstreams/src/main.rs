//! `cargo run --release -p bitstreams -- [TOP...]`: synthesize, place, route and pack the board
//! tops for the Alchitry Cu (every top by default; the list is `bitstreams::tops::all`).
//! Outputs and tool logs go to `target/bitstreams/<top>/`. Each top gets its measurement record
//! (`bitstreams/measured/ice40/<top>.json`) and its bitstream (`bitstreams/bin/<top>.bin`) as soon
//! as it is built, so a run stopped early keeps the tops it finished; at the end
//! `bitstreams/REPORT.md` is rendered from every top's record.
//!
//! `-- --family ecp5 [TOP...]`: the same for Lattice's ECP5-5G Evaluation Board (`bitstreams::ecp5`, the
//! list `tops::ecp5_all`), five seeds per top, into `target/bitstreams-ecp5/`,
//! `bitstreams/measured/ecp5/`, `bitstreams/bin/ecp5/<top>.bit` and `bitstreams/REPORT-ECP5.md`.
//!
//! `-- --render`: render both reports from the records without building (after a design note
//! changes).
//!
//! `-- --stale`: list the tops of both families whose RTL changed since their records (the
//! ones a commit must rebuild; a full port on the ECP5 takes about 35 minutes), and exit 1 if
//! there are any.
//!
//! `-- --trial TOP...` (either family): measure an RTL change without keeping it. The seeds are
//! placed as in a full run, but nothing is packed and nothing under `bitstreams/` is written (no
//! record, bitstream or report); each top's figures, what limits it and its committed record's
//! figures are printed. `--seeds N` places seeds 1 to N instead of the full run's five: one top's
//! medians move by a few MHz from one set of five seeds to another, so a change worth a few MHz
//! needs more seeds to be told from that noise (iCE40); on the ECP5, where a large top's seed
//! takes minutes, fewer seeds make a quick estimate.

use bitstreams::tops::{self, Top};
use bitstreams::{record, report};
use clap::Parser;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Parser)]
#[command(about = "Open-toolchain synthesis for the Alchitry Cu (iCE40HX8K-CB132) and the ECP5-5G Evaluation Board: bitstreams and reports")]
struct Args {
    /// FPGA family: ice40 (the Alchitry Cu, REPORT.md) or ecp5 (the ECP5-5G Evaluation Board, REPORT-ECP5.md).
    #[arg(long, default_value = "ice40", value_parser = ["ice40", "ecp5"])]
    family: String,
    /// Tops to build (default: all). Their records and bitstreams are replaced and the family's report re-rendered.
    tops: Vec<String>,
    /// Build nothing: render REPORT.md and REPORT-ECP5.md from the committed records (after a design note changes).
    #[arg(long, conflicts_with_all = ["tops", "family"])]
    render: bool,
    /// Build nothing: list the tops of both families whose RTL (or iCE40 synthesis flags) changed
    /// since their records, with the commands that rebuild them; exit 1 when there are any.
    #[arg(long, conflicts_with_all = ["tops", "family", "render", "trial"])]
    stale: bool,
    /// Measure without keeping: place the seeds, pack nothing, write no record, bitstream or
    /// report, and print each top's figures beside its committed record's.
    #[arg(long, conflicts_with = "render")]
    trial: bool,
    /// With --trial: place seeds 1 to N instead of the full run's five, to tell a change of a few
    /// MHz from the seeds' spread (iCE40) or to estimate a large top quickly (ECP5).
    #[arg(long, requires = "trial", value_parser = clap::value_parser!(u64).range(1..=64))]
    seeds: Option<u64>,
    /// Tops built at once (each tool is single-threaded).
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    jobs: usize,
}

fn main() -> ExitCode {
    let a = Args::parse();
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    if a.render {
        let ice40 = record::ice40_rows(crate_dir, &tops::all()).map(|rows| report::markdown(&rows));
        let ecp5 = record::ecp5_rows(crate_dir, &tops::ecp5_all()).map(|rows| bitstreams::report_ecp5::markdown(&rows));
        let written = ice40
            .and_then(|m| Ok(std::fs::write(crate_dir.join("REPORT.md"), m)?))
            .and_then(|()| Ok(std::fs::write(crate_dir.join("REPORT-ECP5.md"), ecp5?)?));
        return match written {
            Ok(()) => {
                eprintln!("rendered {} and {}", crate_dir.join("REPORT.md").display(), crate_dir.join("REPORT-ECP5.md").display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("rendering the reports: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    if a.stale {
        return stale_main(crate_dir);
    }
    let all = if a.family == "ecp5" { tops::ecp5_all() } else { tops::all() };
    let chosen: Vec<&Top> = if a.tops.is_empty() {
        all.iter().collect()
    } else {
        let mut v = Vec::new();
        for t in &a.tops {
            match all.iter().find(|x| x.name == t) {
                Some(x) => v.push(x),
                None => {
                    let known: Vec<&str> = all.iter().map(|x| x.name).collect();
                    eprintln!("unknown top `{t}`; known: {}", known.join(", "));
                    return ExitCode::from(2);
                }
            }
        }
        v
    };
    let full_run = if a.family == "ecp5" { bitstreams::ecp5::SEEDS.to_vec() } else { bitstreams::SEEDS.to_vec() };
    let seeds: Vec<u64> = match a.seeds {
        Some(n) => (1..=n).collect(),
        None => full_run,
    };
    if a.family == "ecp5" {
        return ecp5_main(&chosen, &all, crate_dir, &seeds, a.trial);
    }
    let out = crate_dir.join("../target/bitstreams");
    let t0 = std::time::Instant::now();
    eprintln!("building {} tops, {} at a time; logs in {}", chosen.len(), a.jobs.max(1), out.display());

    let tools = report::ice40_tools();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<record::Record<record::Ice40>>>> = Mutex::new((0..chosen.len()).map(|_| None).collect());
    let failed = Mutex::new(Vec::<String>::new());
    std::thread::scope(|s| {
        for _ in 0..a.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(top) = chosen.get(i) else { break };
                match report::build_top(top, &out.join(top.name), &seeds, &tools, !a.trial, &|m: &str| eprintln!("[{}] {m}", top.name)) {
                    Ok(rec) => {
                        let row = report::Row::new(top, rec.clone());
                        if a.trial {
                            println!("{}", row.trial(record::read(crate_dir, record::ICE40, top.name).ok().as_ref()));
                        } else {
                            println!("{}", row.summary());
                            if let Err(e) = report::keep(&rec, crate_dir) {
                                eprintln!("[{}] FAILED to keep its record: {e:#}", top.name);
                                failed.lock().unwrap().push(top.name.to_string());
                            }
                        }
                        results.lock().unwrap()[i] = Some(rec);
                    }
                    Err(e) => {
                        eprintln!("[{}] FAILED: {e:#}", top.name);
                        failed.lock().unwrap().push(top.name.to_string());
                    }
                }
            });
        }
    });
    let built: Vec<_> = results.into_inner().unwrap().into_iter().flatten().collect();
    eprintln!("{} tops built in {:.0} s", built.len(), t0.elapsed().as_secs_f64());
    let published = if a.trial { Ok(()) } else { report::publish(&all, crate_dir) };
    finish(published, &failed.into_inner().unwrap(), &crate_dir.join("REPORT.md"), &out, a.trial)
}

/// `--stale`: each family's tops whose records no longer measure them, and the command that
/// rebuilds them (the test `committed_*_report_is_current` fails until it has run).
fn stale_main(crate_dir: &Path) -> ExitCode {
    let mut any = false;
    for (family, label, flag, all) in [(record::ICE40, "iCE40", "", tops::all()), (record::ECP5, "ECP5", "--family ecp5 ", tops::ecp5_all())] {
        match record::stale(crate_dir, family, &all) {
            Ok(names) if names.is_empty() => println!("{label}: every record is current"),
            Ok(names) => {
                any = true;
                println!("{label}: stale {}\n  rebuild: cargo run --release -p bitstreams -- {flag}{}", names.join(" "), names.join(" "));
            }
            Err(e) => {
                eprintln!("{label}: {e:#}");
                return ExitCode::from(2);
            }
        }
    }
    if any {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Report what was kept and what failed: the tops that built are kept even when others fail.
fn finish(published: anyhow::Result<()>, failed: &[String], report: &Path, logs: &Path, trial: bool) -> ExitCode {
    let mut ok = true;
    match published {
        Ok(()) if trial => eprintln!("a trial: nothing under {} was written; logs in {}", report.parent().unwrap_or(report).display(), logs.display()),
        Ok(()) => eprintln!("rendered {} (records in {})", report.display(), report.with_file_name("measured").display()),
        Err(e) => {
            eprintln!("keeping the results: {e:#}");
            ok = false;
        }
    }
    if !failed.is_empty() {
        eprintln!("failed: {} (logs above and in {}); their rows are from their last records", failed.join(", "), logs.display());
        ok = false;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The ECP5 flow: one top at a time (each runs two placements at once).
fn ecp5_main(chosen: &[&Top], all: &[Top], crate_dir: &Path, seeds: &[u64], trial: bool) -> ExitCode {
    use bitstreams::report_ecp5;
    let out = crate_dir.join("../target/bitstreams-ecp5");
    let t0 = std::time::Instant::now();
    eprintln!("building {} tops for the ECP5, {} seeds each; logs in {}", chosen.len(), seeds.len(), out.display());
    let tools = report::ecp5_tools();
    let mut built = Vec::new();
    let mut failed = Vec::new();
    for top in chosen {
        match report_ecp5::build_top(top, &out.join(top.name), seeds, &tools, !trial, &|m: &str| eprintln!("[{}] {m}", top.name)) {
            Ok(rec) => {
                let row = report_ecp5::Ecp5Row::new(top, rec.clone());
                if trial {
                    println!("{}", row.trial(record::read(crate_dir, record::ECP5, top.name).ok().as_ref()));
                } else {
                    println!("{}", row.summary());
                    if let Err(e) = report_ecp5::keep(&rec, crate_dir) {
                        eprintln!("[{}] FAILED to keep its record: {e:#}", top.name);
                        failed.push(top.name.to_string());
                    }
                }
                built.push(rec);
            }
            Err(e) => {
                eprintln!("[{}] FAILED: {e:#}", top.name);
                failed.push(top.name.to_string());
            }
        }
    }
    eprintln!("{} tops built in {:.0} s", built.len(), t0.elapsed().as_secs_f64());
    let published = if trial { Ok(()) } else { report_ecp5::publish(all, crate_dir) };
    finish(published, &failed, &crate_dir.join("REPORT-ECP5.md"), &out, trial)
}
