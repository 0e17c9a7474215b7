//! Measurement records: what one run of the flow measured for one top on one family, kept in
//! `bitstreams/measured/<family>/<top>.json` and committed with the top's bitstream. The reports
//! are rendered from the records, so a run over some tops updates their rows and keeps every
//! other row with the run that measured it. A record carries the fingerprint of the board
//! Verilog it measured: once a top's RTL changes, its record no longer matches ([`stale`]), and
//! the test `committed_*_report_is_current` (`tests/synth_smoke.rs`) and `-- --stale` name the
//! top to rebuild.

use crate::report::Row;
use crate::tops::Top;
use anyhow::{Context, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One top's measurement on one family.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record<M> {
    pub top: String,
    /// [`fingerprint`] of the board Verilog the run synthesized.
    pub verilog_fnv1a: String,
    /// The day of the run (UTC, YYYY-MM-DD).
    pub date: String,
    /// The tools that measured it, with their versions.
    pub tools: Vec<String>,
    pub measured: M,
}

/// The iCE40 flow's measurement of one top: the two passes' report, the harness's flip-flops
/// (which `block's own` subtracts) and, for a top that does not fit, its LUTs per part.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Ice40 {
    pub report: crate::Report,
    pub harness_flops: u32,
    pub luts_by_part: Vec<(String, u32)>,
}

/// The families, by the name of their folder under `measured/`.
pub const ICE40: &str = "ice40";
pub const ECP5: &str = "ecp5";

/// FNV-1a (64-bit) of `verilog`, in hex: stable across Rust releases, unlike `std`'s hasher.
pub fn fingerprint(verilog: &str) -> String {
    let h = verilog.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{h:016x}")
}

/// `bitstreams/measured/<family>/`.
pub fn dir(crate_dir: &Path, family: &str) -> PathBuf {
    crate_dir.join("measured").join(family)
}

pub fn write<M: Serialize>(crate_dir: &Path, family: &str, rec: &Record<M>) -> Result<()> {
    let d = dir(crate_dir, family);
    std::fs::create_dir_all(&d)?;
    let p = d.join(format!("{}.json", rec.top));
    std::fs::write(&p, serde_json::to_string_pretty(rec)? + "\n").with_context(|| format!("writing {}", p.display()))
}

/// The record of `top`, or an error that says how to make it.
pub fn read<M: DeserializeOwned>(crate_dir: &Path, family: &str, top: &str) -> Result<Record<M>> {
    let p = dir(crate_dir, family).join(format!("{top}.json"));
    let flag = if family == ECP5 { "--family ecp5 " } else { "" };
    let text = std::fs::read_to_string(&p)
        .with_context(|| format!("no record for `{top}` ({}): build it with `cargo run --release -p bitstreams -- {flag}{top}`", p.display()))?;
    serde_json::from_str(&text).with_context(|| format!("reading {}", p.display()))
}

/// Remove the records of tops not in `tops` (a top renamed or dropped). Returns their names.
pub fn remove_stale(crate_dir: &Path, family: &str, tops: &[Top]) -> Result<Vec<String>> {
    let mut gone = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir(crate_dir, family)) else { return Ok(gone) };
    for e in entries {
        let p = e?.path();
        let Some(stem) = p.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
        if p.extension().is_some_and(|x| x == "json") && !tops.iter().any(|t| t.name == stem) {
            std::fs::remove_file(&p)?;
            gone.push(stem);
        }
    }
    Ok(gone)
}

/// The tops of `tops` whose record no longer measures them: the board Verilog changed since the
/// run that measured it, or (iCE40) the synthesis flags the top adds did. These are the tops a
/// commit must rebuild (`cargo run --release -p bitstreams -- --stale` lists them for both
/// families); a missing record is an error that says how to make it.
pub fn stale(crate_dir: &Path, family: &str, tops: &[Top]) -> Result<Vec<&'static str>> {
    let mut names = Vec::new();
    for t in tops {
        let rec: Record<serde_json::Value> = read(crate_dir, family, t.name)?;
        // an iCE40 record also names the flags its synthesis added (none: not written)
        let flags = rec.measured["report"]["synth_flags"].as_str().unwrap_or("");
        if rec.verilog_fnv1a != fingerprint(&(t.board)().verilog) || (family == ICE40 && flags != t.ice40_synth_flags) {
            names.push(t.name);
        }
    }
    Ok(names)
}

/// The iCE40 report's rows: each top of `tops` with its record.
pub fn ice40_rows(crate_dir: &Path, tops: &[Top]) -> Result<Vec<Row>> {
    tops.iter().map(|t| Ok(Row::new(t, read(crate_dir, ICE40, t.name)?))).collect()
}

/// The ECP5 report's rows.
pub fn ecp5_rows(crate_dir: &Path, tops: &[Top]) -> Result<Vec<crate::report_ecp5::Ecp5Row>> {
    tops.iter().map(|t| Ok(crate::report_ecp5::Ecp5Row::new(t, read(crate_dir, ECP5, t.name)?))).collect()
}

/// The toolchain line of a report: one list when every row was measured with the same tools,
/// else each list with the tops it measured.
pub fn toolchains<'a>(rows: impl Iterator<Item = (&'a str, &'a [String])>) -> String {
    let mut groups: Vec<(&[String], Vec<&str>)> = Vec::new();
    for (name, tools) in rows {
        match groups.iter_mut().find(|(t, _)| *t == tools) {
            Some((_, names)) => names.push(name),
            None => groups.push((tools, vec![name])),
        }
    }
    if groups.len() == 1 {
        return format!("Toolchain: {}.", groups[0].0.join("; "));
    }
    let each: Vec<String> = groups.iter().map(|(t, n)| format!("{} (for {})", t.join("; "), n.iter().map(|x| format!("`{x}`")).collect::<Vec<_>>().join(", "))).collect();
    format!("Toolchains: {}.", each.join(" — "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn fingerprint_is_fnv1a_64() {
        // FNV-1a's published test values
        assert_eq!(super::fingerprint(""), "cbf29ce484222325");
        assert_eq!(super::fingerprint("a"), "af63dc4c8601ec8c");
        assert_eq!(super::fingerprint("foobar"), "85944171f73967e8");
    }

    #[test]
    fn toolchains_group_the_tops() {
        let a = vec!["yosys 1".to_string()];
        let b = vec!["yosys 2".to_string()];
        assert_eq!(super::toolchains([("x", &a[..]), ("y", &a[..])].into_iter()), "Toolchain: yosys 1.");
        assert_eq!(super::toolchains([("x", &a[..]), ("y", &b[..]), ("z", &a[..])].into_iter()), "Toolchains: yosys 1 (for `x`, `z`) — yosys 2 (for `y`).");
    }
}
