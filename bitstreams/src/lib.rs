//! Synthesis for the Alchitry Cu (iCE40HX8K-CB132): rust-hdl Verilog → `yosys synth_ice40 -abc9` →
//! `nextpnr-ice40 --hx8k --package cb132 --freq 100` → `icepack`. Every tool's exit code is
//! checked and its log shown on failure (rust-hdl-bsp-alchitry-cu ignores both and passes no
//! `--freq`, so the flow is run here directly; its pin names are used in `ALCHITRY_CU_PCF`).

pub mod harness;
pub mod tops;

use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Pins of the Alchitry Cu: the 100 MHz clock and the eight LEDs.
pub const ALCHITRY_CU_PCF: &str = "set_io clock P7\n\
set_io leds[0] J11\nset_io leds[1] K11\nset_io leds[2] K12\nset_io leds[3] K14\n\
set_io leds[4] L12\nset_io leds[5] L14\nset_io leds[6] M12\nset_io leds[7] N14\n";

/// What synthesis and place-and-route report for one top.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub top: String,
    pub logic_cells: u32,
    pub logic_cells_avail: u32,
    pub ram_blocks: u32,
    pub plls: u32,
    pub fmax_mhz: f64,
    pub bitstream: Option<PathBuf>,
}

fn tool(cmd: &mut Command, what: &str, log: &Path) -> Result<String> {
    let out = cmd.output().map_err(|_| {
        anyhow!("{what} is not installed: run `sudo apt-get install yosys nextpnr-ice40 fpga-icestorm`, or the README's test command, which installs them")
    })?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    std::fs::write(log, &text).ok();
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(40).collect();
        bail!("{what} failed ({}); log {}:\n{}", out.status, log.display(), tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
    }
    Ok(text)
}

/// `N/ M` after `key:` in a nextpnr utilisation line.
fn utilisation(log: &str, key: &str) -> (u32, u32) {
    for l in log.lines() {
        let t = l.trim_start_matches("Info:").trim();
        if let Some(rest) = t.strip_prefix(key) {
            let rest = rest.trim_start_matches(':').trim();
            let mut it = rest.split('/');
            let used = it.next().and_then(|x| x.trim().parse().ok()).unwrap_or(0);
            let avail = it.next().and_then(|x| x.split_whitespace().next()).and_then(|x| x.parse().ok()).unwrap_or(0);
            return (used, avail);
        }
    }
    (0, 0)
}

/// The last "Max frequency for clock" figure (the one after routing).
fn fmax(log: &str) -> Option<f64> {
    log.lines()
        .filter(|l| l.contains("Max frequency for clock"))
        .filter_map(|l| l.split(": ").nth(2).or_else(|| l.rsplit(": ").next()))
        .filter_map(|x| x.split_whitespace().next()?.parse().ok())
        .last()
}

/// Synthesize, place and route `verilog` (module `top`, ports `clock` and `leds[7:0]`) in
/// `dir`; with `pack`, also write `<name>.bin`.
pub fn build(name: &str, verilog: &str, dir: &Path, pack: bool) -> Result<Report> {
    std::fs::create_dir_all(dir)?;
    let v = dir.join(format!("{name}.v"));
    std::fs::write(&v, verilog)?;
    std::fs::write(dir.join("alchitry_cu.pcf"), ALCHITRY_CU_PCF)?;
    let json = dir.join(format!("{name}.json"));
    let asc = dir.join(format!("{name}.asc"));
    tool(
        Command::new("yosys").arg("-q").arg("-l").arg(dir.join(format!("{name}.yosys.log"))).arg("-p").arg(format!(
            "read_verilog {}; synth_ice40 -top top -abc9 -json {}",
            v.display(),
            json.display()
        )),
        "yosys",
        &dir.join(format!("{name}.yosys.out")),
    )?;
    let log = tool(
        Command::new("nextpnr-ice40")
            .args(["--hx8k", "--package", "cb132", "--freq", "100", "--seed", "1", "--timing-allow-fail"])
            .arg("--json").arg(&json)
            .arg("--pcf").arg(dir.join("alchitry_cu.pcf"))
            .arg("--asc").arg(&asc),
        "nextpnr-ice40",
        &dir.join(format!("{name}.nextpnr.log")),
    )?;
    let (lc, lc_avail) = utilisation(&log, "ICESTORM_LC");
    let (ram, _) = utilisation(&log, "ICESTORM_RAM");
    let (pll, _) = utilisation(&log, "ICESTORM_PLL");
    let f = fmax(&log).context("nextpnr reported no Fmax")?;
    let mut bitstream = None;
    if pack {
        let bin = dir.join(format!("{name}.bin"));
        tool(Command::new("icepack").arg(&asc).arg(&bin), "icepack", &dir.join(format!("{name}.icepack.log")))?;
        bitstream = Some(bin);
    }
    Ok(Report { top: name.into(), logic_cells: lc, logic_cells_avail: lc_avail, ram_blocks: ram, plls: pll, fmax_mhz: f, bitstream })
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_nextpnr_figures() {
        let log = "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  1234/ 7680    16%\nInfo: \t        ICESTORM_RAM:     2/   32     6%\n\
                   Info: Max frequency for clock 'clock$SB_IO_IN_$glb_clk': 55.10 MHz (PASS at 12.00 MHz)\n\
                   Info: Max frequency for clock 'clock$SB_IO_IN_$glb_clk': 61.87 MHz (FAIL at 100.00 MHz)\n";
        assert_eq!(super::utilisation(log, "ICESTORM_LC"), (1234, 7680));
        assert_eq!(super::utilisation(log, "ICESTORM_RAM"), (2, 32));
        assert_eq!(super::fmax(log), Some(61.87));
    }
}
