//! `bitstreams/REPORT-ECP5.md`: the ECP5 flow's figures ([`crate::ecp5`]), every one from the
//! tools' logs of the run that built its top, kept in the top's measurement record
//! ([`crate::record`]).

use crate::ecp5::{self, Ecp5Report};
use crate::record::{self, Record};
use crate::tops::Top;
use crate::Progress;
use anyhow::Result;
use std::fmt::Write;
use std::path::Path;

/// A top's row of the ECP5 report: the top as the code says today, and its record.
pub struct Ecp5Row {
    pub name: &'static str,
    pub block: &'static str,
    pub params: String,
    pub design_note: &'static str,
    pub report: Ecp5Report,
    pub date: String,
    pub tools: Vec<String>,
}

/// Build one top for the ECP5: synthesis, the placement of each of `seeds` (a full run's are
/// `ecp5::SEEDS`), and with `pack` the board bitstream (without, a trial). Returns its record,
/// measured with `tools` (the bitstream's path is in `measured.bitstream`).
pub fn build_top(top: &Top, dir: &Path, seeds: &[u64], tools: &[String], pack: bool, progress: Progress) -> Result<Record<Ecp5Report>> {
    let board = (top.board)();
    let report = ecp5::build(top.name, &board.verilog, dir, seeds, pack, progress)?;
    if report.fits != top.fits {
        anyhow::bail!("{}: expected to {}fit the ECP5 part, and it {}", top.name, if top.fits { "" } else { "not " }, if report.fits { "fits" } else { "does not" });
    }
    Ok(Record { top: top.name.into(), verilog_fnv1a: record::fingerprint(&board.verilog), date: crate::report::today(), tools: tools.to_vec(), measured: report })
}

impl Ecp5Row {
    pub fn new(top: &Top, rec: Record<Ecp5Report>) -> Ecp5Row {
        Ecp5Row { name: top.name, block: top.block, params: top.params.clone(), design_note: top.design_note, report: rec.measured, date: rec.date, tools: rec.tools }
    }

    /// One line for the terminal.
    pub fn summary(&self) -> String {
        let r = &self.report;
        if !r.fits {
            return format!("{}: does not fit: {} / {} LUT4, {} / {} DP16KD", self.name, r.luts.0, r.luts.1, r.ram.0, r.ram.1);
        }
        let (lo, hi) = r.spread_mhz();
        format!(
            "{}: {} LUT4, {} FF, {} DP16KD; Fmax median {:.2} MHz ({lo:.2}–{hi:.2} over {} seeds); {}",
            self.name,
            r.luts.0,
            r.ffs.0,
            r.ram.0,
            r.median_mhz(),
            r.fmax_by_seed.len(),
            crate::bitstream_clock(r.board_clock_mhz, r.plls)
        )
    }

    /// A trial's lines for the terminal: the summary, the critical path and the mapping, and the
    /// committed record's figures beside them (`committed`: that record, if the top has one).
    pub fn trial(&self, committed: Option<&Record<Ecp5Report>>) -> String {
        let mut s = self.summary();
        if let Some(p) = &self.report.critical {
            let _ = write!(s, "\n  critical path: `{}` → `{}`, {} cells, {:.1} ns logic + {:.1} ns routing", p.from, p.to, p.cells, p.logic_ns, p.routing_ns);
        }
        if let Some(m) = crate::mapping_note(self.report.mapping, self.report.board_mapping) {
            let _ = write!(s, "\n  {m}");
        }
        let _ = match committed {
            None => write!(s, "\n  no committed record"),
            Some(c) if !c.measured.fits => write!(s, "\n  committed ({}): does not fit, {} LUT4", c.date, c.measured.luts.0),
            Some(c) => {
                let (lo, hi) = c.measured.spread_mhz();
                write!(s, "\n  committed ({}): {} LUT4, Fmax {:.2} MHz ({lo:.2}–{hi:.2})", c.date, c.measured.luts.0, c.measured.median_mhz())
            }
        };
        s
    }
}

/// The Markdown of REPORT-ECP5.md.
pub fn markdown(rows: &[Ecp5Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Bitstreams for the {} ({})\n", ecp5::BOARD, ecp5::PART);
    let _ = writeln!(
        s,
        "Rendered by `cargo run --release -p bitstreams -- --family ecp5` from the measurement records in \
         `measured/ecp5/`; do not edit. A run over some tops (`-- --family ecp5 TOP...`) rebuilds those and keeps the \
         other rows; a run over none rebuilds every top. Every figure comes from the tools' logs of the run that built \
         its top (`target/bitstreams-ecp5/<top>/`), on the date in the parameters table; a test fails when a top's \
         Verilog differs from the one its record measured. The iCE40 report is [`REPORT.md`](REPORT.md).\n"
    );
    let _ = writeln!(s, "{}\n", record::toolchains(rows.iter().map(|r| (r.name, &r.tools[..]))));
    let _ = writeln!(
        s,
        "Flow: `yosys synth_ecp5 -abc9`, then `nextpnr-ecp5 {} --freq {} --seed N` for N = {} (two at a time), \
         `ecppack` on seed {}'s placement. A netlist on which yosys 0.23's abc9 stops with \"{}\" is mapped with \
         `-abc9 -dff` instead, and its top's section says so. The part is sold in speed grade 8 only, so these are its slowest-grade \
         figures. Fmax is the median over the seeds with the lowest and highest beside it. The target is {} MHz: \
         one descriptor per clock at 100GbE's minimum-frame rate (148.8 Mpps). The board's fabric clock is {} MHz \
         (the FTDI chip's, jumper JP2 fitted): the bitstream runs the top behind an EHXPLLL (made by `ecppll`) at \
         or below the target and 90 % of seed {}'s Fmax, a build that must pass timing. Why this board: a PCIe x1 \
         edge connector for the NIC, and the 208 block RAMs the full NIC needs (the 45F of the ECP5-5G Versa has \
         108). Tops sit in the same LFSR/LED harness as on the iCE40.\n",
        ecp5::DEVICE_ARGS.join(" "),
        ecp5::TARGET_MHZ,
        ecp5::SEEDS.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "),
        ecp5::SEEDS[0],
        crate::ABC9_BOX_ORDER_FAULT,
        ecp5::TARGET_MHZ,
        ecp5::BOARD_MHZ,
        ecp5::SEEDS[0],
    );
    let _ = writeln!(s, "| top | LUT4 | FF | DP16KD | Fmax median (min–max) | {} MHz | board clock | bitstream |", ecp5::TARGET_MHZ);
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for row in rows {
        let r = &row.report;
        if !r.fits {
            let over = |(u, a): (u32, u32)| if u > a { format!("**{u} / {a} ({:.0} %, does not fit)**", 100.0 * u as f64 / a as f64) } else { format!("{u} / {a}") };
            let _ = writeln!(s, "| `{}` | {} | {} | {} | – | no | – | – |", row.name, over(r.luts), r.ffs.0, over(r.ram));
            continue;
        }
        let (lo, hi) = r.spread_mhz();
        let _ = writeln!(
            s,
            "| `{}` | {} / {} | {} | {} / {} | {:.2} MHz ({lo:.2}–{hi:.2}) | {} | {:.3} MHz{} | [`bin/ecp5/{}.bit`](bin/ecp5/{}.bit) |",
            row.name,
            r.luts.0,
            r.luts.1,
            r.ffs.0,
            r.ram.0,
            r.ram.1,
            r.median_mhz(),
            if r.median_mhz() >= ecp5::TARGET_MHZ { "meets" } else { "misses" },
            r.board_clock_mhz,
            if r.plls > 0 { " (PLL)" } else { "" },
            row.name,
            row.name
        );
    }
    let _ = writeln!(s, "\n## Parameters\n\n| top | block | parameters | measured |\n|---|---|---|---|");
    for row in rows {
        let _ = writeln!(s, "| `{}` | {} | {} | {} |", row.name, row.block, row.params, row.date);
    }
    let _ = writeln!(s, "\n## What limits each top\n\nMeasured: seed {}'s post-route critical path. The design note (the same as for the iCE40) says what cuts it.\n", ecp5::SEEDS[0]);
    for row in rows {
        let r = &row.report;
        let _ = write!(s, "### `{}`\n\n", row.name);
        if !r.fits {
            let _ = write!(s, "Does not fit the {}: it needs {} of the {} block RAMs (DP16KD) and {} of the {} LUT4s. ", ecp5::PART, r.ram.0, r.ram.1, r.luts.0, r.luts.1);
        }
        if let Some(p) = &r.critical {
            let _ = write!(
                s,
                "Critical path: `{}` → `{}`, {} cells, {:.1} ns logic + {:.1} ns routing ({:.2} ns against the {:.2} ns of {} MHz). ",
                p.from,
                p.to,
                p.cells,
                p.logic_ns,
                p.routing_ns,
                p.logic_ns + p.routing_ns,
                1000.0 / ecp5::TARGET_MHZ,
                ecp5::TARGET_MHZ
            );
        }
        if let Some(m) = crate::mapping_note(r.mapping, r.board_mapping) {
            let _ = write!(s, "{m} ");
        }
        let _ = writeln!(s, "{}\n", row.design_note);
    }
    s
}

/// Keep a top as soon as it is built, so a run stopped later loses only the tops still
/// building: write its record and copy its bitstream to `crate_dir/bin/ecp5/`.
pub fn keep(rec: &Record<Ecp5Report>, crate_dir: &Path) -> Result<()> {
    record::write(crate_dir, record::ECP5, rec)?;
    crate::report::keep_bitstream(&crate_dir.join("bin/ecp5"), &rec.top, "bit", rec.measured.bitstream.as_deref())
}

/// After a run: remove the records and bitstreams of tops that are gone, and render the report
/// from every record.
pub fn publish(tops: &[Top], crate_dir: &Path) -> Result<()> {
    let bin = crate_dir.join("bin/ecp5");
    record::remove_stale(crate_dir, record::ECP5, tops)?;
    crate::report::remove_stale_bitstreams(&bin, "bit", tops)?;
    std::fs::write(crate_dir.join("REPORT-ECP5.md"), markdown(&record::ecp5_rows(crate_dir, tops)?))?;
    Ok(())
}
