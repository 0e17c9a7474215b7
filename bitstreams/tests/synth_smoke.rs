//! Synthesis smoke: every board top that fits (the AQM, the switch blocks, one per-system port,
//! the CB-LT encoder and decoder, the small NIC) goes through yosys and nextpnr-ice40 for the
//! HX8K, fits, and reports a clock, so CI catches a block that stops synthesizing; the full 2 ×
//! 256 port, which does not fit, is reported as not fitting; one small top goes
//! through the whole flow to a bitstream; the committed report is current (each top's record
//! measured the Verilog it has today, and the report is what the records render to). The full flow
//! is `cargo run --release -p bitstreams`. Two tops go through the ECP5 flow on one seed (one on
//! the board clock, one behind the PLL); the committed ECP5 report is current.
//! `rtl_util::BlockRam` maps to block RAM with no read-during-write bypass (against rust-hdl's
//! `RAM`, which gets one).

use bitstreams::record;
use std::path::Path;

/// Pass 1 of the flow (yosys, nextpnr-ice40 at 100 MHz, no packing) on the top `name` of
/// `tops::all()`: it fits the HX8K with at least `min_cells` cells and `min_ram` block RAMs,
/// and nextpnr reports a clock. Returns its logic cells and, of those, the block's own (one cell
/// less per harness flip-flop, as in the report).
fn synthesizes(name: &str, min_cells: u32, min_ram: u32) -> (u32, u32) {
    let top = bitstreams::tops::all().into_iter().find(|t| t.name == name).unwrap();
    let dir = std::env::temp_dir().join(format!("synth-smoke-{name}-{}", std::process::id()));
    let r = bitstreams::build(name, &(top.board)().verilog, &dir, &[1], false, &|_: &str| {}).unwrap();
    println!("{name}: {} / {} logic cells, {} RAM blocks, Fmax {:.2} MHz at --freq 100", r.logic_cells, r.logic_cells_avail, r.ram_blocks, r.fmax_mhz);
    assert!(r.fits && r.logic_cells >= min_cells && r.logic_cells <= r.logic_cells_avail, "{r:?}");
    assert!(r.ram_blocks >= min_ram, "{r:?}");
    assert!(r.fmax_mhz > 0.0, "{r:?}");
    std::fs::remove_dir_all(&dir).ok();
    (r.logic_cells, r.logic_cells - (top.board)().harness_flops)
}

/// A top marked as not fitting the HX8K goes through yosys and stops at placement, which the
/// flow reports as a result (its cells against the part's), not as a tool failure.
fn does_not_fit(name: &str) {
    let top = bitstreams::tops::all().into_iter().find(|t| t.name == name).unwrap();
    assert!(!top.fits);
    let dir = std::env::temp_dir().join(format!("synth-smoke-{name}-{}", std::process::id()));
    let r = bitstreams::build(name, &(top.board)().verilog, &dir, &[1], false, &|_: &str| {}).unwrap();
    println!("{name}: does not fit, {} / {} logic cells", r.logic_cells, r.logic_cells_avail);
    assert!(!r.fits && r.logic_cells > r.logic_cells_avail, "{r:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn aqm_marker_synthesizes_for_the_hx8k() {
    synthesizes("aqm", 300, 0);
}

/// Every switch block's board top (`hdl::for_each_switch_block!`), one test each, with its
/// floor of cells and block RAMs (the port's 2 × 256 FIFOs in block RAM).
macro_rules! switch_block_smoke {
    ($($n:ident: $b:ty),*) => {
        mod switch_block_synthesizes_for_the_hx8k {
            use hdl::blocks::SwitchBlock;
            $(
                #[test]
                fn $n() {
                    let info = <$b as SwitchBlock>::BOARD;
                    if info.fits_hx8k {
                        super::synthesizes(<$b as SwitchBlock>::NAME, info.min_cells, info.min_ram);
                    } else {
                        super::does_not_fit(<$b as SwitchBlock>::NAME);
                    }
                }
            )*
        }
    };
}
hdl::for_each_switch_block!(switch_block_smoke);

/// A per-system port is the port without the other systems' blocks, and synthesis removes them:
/// the HPCC port (INT stamping only) takes about a third of the HX8K, where the full port needs
/// more than all of it.
#[test]
fn per_system_port_synthesizes_without_the_other_blocks() {
    let (cells, _) = synthesizes("port-hpcc", 1000, 8);
    assert!(cells < 4_000, "the HPCC port takes {cells} logic cells: are the absent blocks still built?");
}

/// The encoder keeps fitting with its 1,024-byte message buffer in block RAM, within its budget
/// of 1,500 logic cells of its own.
#[test]
fn cblt_encoder_synthesizes_for_the_hx8k() {
    let (_, own) = synthesizes("cblt-encoder", 1000, 4);
    assert!(own <= 1_500, "the encoder takes {own} logic cells of its own, over its budget of 1,500");
}

/// The decoder keeps fitting with its 16 rows of 64 bytes in block RAM, within its budget of
/// 2,500 logic cells of its own.
#[test]
fn cblt_decoder_synthesizes_for_the_hx8k() {
    let (_, own) = synthesizes("cblt-decoder", 1000, 4);
    assert!(own <= 2_500, "the decoder takes {own} logic cells of its own, over its budget of 2,500");
}

/// The small NIC (S = 64, k_max = 16) keeps fitting the HX8K within its budget of 6,500 logic
/// cells (85 %), its buffers and completion queue in block RAM.
#[test]
fn nic_synthesizes_for_the_hx8k() {
    let (cells, _) = synthesizes("nic", 5000, 12);
    assert!(cells <= 6_500, "the small NIC takes {cells} logic cells, over its budget of 6,500");
}

/// The whole flow on a small top: pass 1, the PLL build when it misses 100 MHz (which must pass
/// timing at its clock), and `icepack` to a full-size HX8K bitstream; its record names the
/// Verilog it measured and reads back as written.
#[test]
fn int_stamper_goes_through_the_whole_flow_to_a_bitstream() {
    let top = bitstreams::tops::all().into_iter().find(|t| t.name == "intstamp").unwrap();
    let dir = std::env::temp_dir().join(format!("synth-flow-intstamp-{}", std::process::id()));
    let tools = vec!["the smoke test's".to_string()];
    let rec = bitstreams::report::build_top(&top, &dir, &[1], &tools, true, &|m: &str| eprintln!("[intstamp] {m}")).unwrap();
    assert_eq!(rec.verilog_fnv1a, record::fingerprint(&(top.board)().verilog));
    record::write(&dir, record::ICE40, &rec).unwrap();
    let back: record::Record<record::Ice40> = record::read(&dir, record::ICE40, "intstamp").unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), serde_json::to_string(&rec).unwrap(), "a record reads back as written");
    let row = bitstreams::report::Row::new(&top, rec);
    let r = &row.report;
    println!("{}", row.summary());
    assert!(r.fits && r.fmax_mhz > 0.0 && r.critical.as_ref().is_some_and(|p| p.cells > 1), "{r:?}");
    if r.meets_target() {
        assert_eq!((r.plls, r.board_clock_mhz), (0, 100.0), "{r:?}");
    } else {
        assert_eq!(r.plls, 1, "{r:?}");
        assert!(r.board_clock_mhz <= 0.9 * r.fmax_mhz && r.board_clock_mhz >= 16.0, "{r:?}");
    }
    assert!(r.board_fmax_mhz >= r.board_clock_mhz, "the board build passes timing at its clock: {r:?}");
    let bin = std::fs::metadata(r.bitstream.as_ref().unwrap()).unwrap();
    assert_eq!(bin.len(), 135_100, "an iCE40HX8K bitstream is 135,100 bytes");
    std::fs::remove_dir_all(&dir).ok();
}

/// The tops of `tops` whose board Verilog today is not the one their record in `family`
/// measured (a top without a record fails with the command that makes it).
/// `bitstreams --trial intstamp` places the top's seeds as a full run does and prints its figures
/// beside the committed record's, and writes nothing under `bitstreams/`: the record, the
/// bitstream and the report are byte for byte what they were.
#[test]
fn a_trial_prints_the_figures_and_writes_nothing() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let kept = ["measured/ice40/intstamp.json", "bin/intstamp.bin", "REPORT.md", "REPORT-ECP5.md"];
    let before: Vec<Vec<u8>> = kept.iter().map(|f| std::fs::read(crate_dir.join(f)).unwrap()).collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bitstreams")).args(["--trial", "intstamp"]).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let committed: record::Record<record::Ice40> = record::read(crate_dir, record::ICE40, "intstamp").unwrap();
    assert!(stdout.starts_with("intstamp: ") && stdout.contains("median of 5 seeds") && stdout.contains("not packed (a trial)"), "{stdout}");
    assert!(stdout.contains("Critical path: `"), "{stdout}");
    let r = &committed.measured.report;
    let (lo, hi) = bitstreams::spread(&r.fmax_by_seed);
    assert!(stdout.contains(&format!("committed ({}): ", committed.date)) && stdout.contains(&format!("Fmax {:.2} MHz ({lo:.2}–{hi:.2})", r.fmax_mhz)), "{stdout}");
    assert!(stderr.contains("a trial: nothing under"), "{stderr}");
    for (f, b) in kept.iter().zip(&before) {
        assert!(&std::fs::read(crate_dir.join(f)).unwrap() == b, "a trial wrote {f}");
    }
}

fn stale_records(tops: &[bitstreams::tops::Top], family: &str) -> Vec<&'static str> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    tops.iter()
        .filter(|t| {
            let rec: record::Record<serde_json::Value> = record::read(dir, family, t.name).unwrap_or_else(|e| panic!("{e:#}"));
            rec.verilog_fnv1a != record::fingerprint(&(t.board)().verilog)
        })
        .map(|t| t.name)
        .collect()
}

/// REPORT.md is current: every top's record measured the Verilog the top has today, the report
/// is what the records render to, and `bin/` holds a bitstream for each top that fits and
/// nothing else. A change to a top's RTL fails here until the top is rebuilt.
#[test]
fn committed_report_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tops = bitstreams::tops::all();
    let stale = stale_records(&tops, record::ICE40);
    assert!(stale.is_empty(), "the RTL of {stale:?} changed since their records: rebuild with `cargo run --release -p bitstreams -- {}`", stale.join(" "));
    let report = std::fs::read_to_string(dir.join("REPORT.md")).unwrap();
    assert!(report == bitstreams::report::markdown(&record::ice40_rows(dir, &tops).unwrap()), "REPORT.md is not what its records render: run `cargo run --release -p bitstreams -- --render`");
    for t in &tops {
        let row = report.lines().find(|l| l.starts_with(&format!("| `{}` | ", t.name))).unwrap();
        let bin = dir.join("bin").join(format!("{}.bin", t.name));
        if t.fits {
            assert!(row.contains(&format!("(bin/{}.bin)", t.name)), "{row}");
            assert_eq!(std::fs::metadata(&bin).map(|m| m.len()).ok(), Some(135_100), "{}", bin.display());
        } else {
            assert!(row.contains("does not fit") && !bin.exists(), "{row}");
        }
    }
    let bins = std::fs::read_dir(dir.join("bin")).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "bin")).count();
    assert_eq!(bins, tops.iter().filter(|t| t.fits).count(), "stale files in bitstreams/bin/");
}

/// An ECP5 bitstream for the board's part: its header names the part, then the preamble.
fn is_board_bitstream(bit: &[u8]) -> bool {
    let part = b"Part: LFE5UM5G-85F-8CABGA381";
    bit.windows(part.len()).any(|w| w == part) && bit.windows(4).any(|w| w == [0xFF, 0xFF, 0xBD, 0xB3])
}

/// The ECP5 flow on one seed: yosys synth_ecp5, nextpnr-ecp5 (YoWASP), the board build behind an
/// EHXPLLL from the board's 12 MHz that must pass timing, ecppack. The full flow (five seeds, every top) is `cargo run --release -p bitstreams --
/// --family ecp5`.
fn ecp5_flow(name: &str) -> bitstreams::ecp5::Ecp5Report {
    let top = bitstreams::tops::ecp5_all().into_iter().find(|t| t.name == name).unwrap();
    let dir = std::env::temp_dir().join(format!("synth-ecp5-{name}-{}", std::process::id()));
    let r = bitstreams::ecp5::build(name, &(top.board)().verilog, &dir, &[1], true, &|m: &str| eprintln!("[{name}] {m}")).unwrap();
    println!("{r:?}");
    assert!(r.luts.0 > 100 && r.luts.1 == 83_640 && r.ram.1 == 208, "{r:?}");
    assert!(r.critical.as_ref().is_some_and(|p| p.cells > 1 && !p.from.is_empty() && !p.to.is_empty()), "{r:?}");
    let bit = std::fs::read(r.bitstream.as_ref().unwrap()).unwrap();
    // 1,927,728 bytes is the part's uncompressed bitstream (`ecppack` without `--compress`)
    assert!(is_board_bitstream(&bit) && bit.len() < 1_927_728, "a compressed bitstream for the board's part");
    // the build behind the PLL passed at the PLL's clock, not at nextpnr's default of 12 MHz
    let pll_log = std::fs::read_to_string(dir.join(format!("{name}-pll.nextpnr.log"))).unwrap();
    let checked = pll_log.lines().filter(|l| l.contains("Max frequency for clock")).last().unwrap();
    let at: f64 = checked.split(" at ").nth(1).and_then(|x| x.split_whitespace().next()?.parse().ok()).unwrap();
    assert!(checked.contains("(PASS at") && (at - r.board_clock_mhz).abs() < 0.01 * r.board_clock_mhz, "{checked} ({r:?})");
    std::fs::remove_dir_all(&dir).ok();
    r
}

#[test]
fn int_stamper_goes_through_the_ecp5_flow_at_the_target() {
    let r = ecp5_flow("intstamp");
    assert!(r.fmax_by_seed[0] * 0.9 >= bitstreams::ecp5::TARGET_MHZ, "{r:?}");
    assert!(r.plls == 1 && r.board_clock_mhz <= bitstreams::ecp5::TARGET_MHZ && r.board_clock_mhz > 145.0, "{r:?}");
}

#[test]
fn aqm_goes_through_the_ecp5_flow_behind_the_pll() {
    let r = ecp5_flow("aqm");
    // the PLL path is taken by a top that misses the ECP5 target: the AQM places near 100 MHz
    // (its seed 1 on either side of it as the netlist changes), short of 150
    assert!(
        r.fmax_by_seed[0] < bitstreams::ecp5::TARGET_MHZ,
        "the AQM met the ECP5 target: pick another top for the PLL path {r:?}"
    );
    assert_eq!(r.plls, 1, "{r:?}");
    assert!(r.board_clock_mhz <= 0.9 * r.fmax_by_seed[0] * 1.01 && r.board_clock_mhz > 10.0, "{r:?}");
}

/// REPORT-ECP5.md is current, as [`committed_report_is_current`] checks REPORT.md, and
/// `bin/ecp5/` holds a bitstream for the board's part for each top.
#[test]
fn committed_ecp5_report_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tops = bitstreams::tops::ecp5_all();
    let stale = stale_records(&tops, record::ECP5);
    assert!(stale.is_empty(), "the RTL of {stale:?} changed since their records: rebuild with `cargo run --release -p bitstreams -- --family ecp5 {}`", stale.join(" "));
    let report = std::fs::read_to_string(dir.join("REPORT-ECP5.md")).unwrap();
    assert!(report == bitstreams::report_ecp5::markdown(&record::ecp5_rows(dir, &tops).unwrap()), "REPORT-ECP5.md is not what its records render: run `cargo run --release -p bitstreams -- --render`");
    for t in &tops {
        let row = report.lines().find(|l| l.starts_with(&format!("| `{}` | ", t.name))).unwrap();
        let bit = dir.join("bin/ecp5").join(format!("{}.bit", t.name));
        if t.fits {
            assert!(row.contains(&format!("(bin/ecp5/{}.bit)", t.name)), "{row}");
            assert!(is_board_bitstream(&std::fs::read(&bit).unwrap()), "{}", t.name);
        } else {
            assert!(row.contains("does not fit") && !bit.exists(), "{row}");
        }
    }
    assert_eq!(std::fs::read_dir(dir.join("bin/ecp5")).unwrap().count(), tops.iter().filter(|t| t.fits).count(), "stale files in bitstreams/bin/ecp5/");
}

/// `rtl_util::BlockRam` maps to block RAM alone, where rust-hdl's `RAM` (read and written on one
/// clock) gets yosys's read-during-write bypass: the figures the RAM's documentation quotes
/// (16 × 32 words, `synth_ice40 -abc9`), printed here.
#[test]
fn block_ram_has_no_read_during_write_bypass() {
    use rust_hdl::prelude::*;
    use rust_hdl::widgets::prelude::RAM;
    macro_rules! one_clock {
        ($name:ident, $ram:ty) => {
            #[derive(LogicBlock, Default)]
            struct $name {
                clock: Signal<In, Clock>,
                ra: Signal<In, Bits<4>>,
                wa: Signal<In, Bits<4>>,
                wd: Signal<In, Bits<32>>,
                we: Signal<In, Bit>,
                rd: Signal<Out, Bits<32>>,
                ram: $ram,
            }
            impl Logic for $name {
                #[hdl_gen]
                fn update(&mut self) {
                    self.ram.read_clock.next = self.clock.val();
                    self.ram.write_clock.next = self.clock.val();
                    self.ram.read_address.next = self.ra.val();
                    self.ram.write_address.next = self.wa.val();
                    self.ram.write_data.next = self.wd.val();
                    self.ram.write_enable.next = self.we.val();
                    self.rd.next = self.ram.read_data.val();
                }
            }
        };
    }
    one_clock!(WithBlockRam, hdl::rtl_util::BlockRam<32, 4>);
    one_clock!(WithRam, RAM<Bits<32>, 4>);
    // (flip-flops, LUT4, block RAMs) after `synth_ice40 -abc9`
    fn cells(name: &str, verilog: &str) -> (u32, u32, u32) {
        let dir = std::env::temp_dir().join(format!("ram-bypass-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (v, stat) = (dir.join("top.v"), dir.join("stat.txt"));
        std::fs::write(&v, verilog).unwrap();
        let out = std::process::Command::new("yosys")
            .arg("-q")
            .arg("-p")
            .arg(format!("read_verilog {}; synth_ice40 -top top -abc9; tee -q -o {} stat", v.display(), stat.display()))
            .output()
            .expect("yosys: run scripts/deps.sh");
        assert!(out.status.success(), "yosys failed: {}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&stat).unwrap();
        let count = |prefix: &str| -> u32 {
            text.lines()
                .filter_map(|l| l.trim().strip_prefix(prefix))
                .filter_map(|r| r.split_whitespace().last()?.parse::<u32>().ok())
                .sum()
        };
        std::fs::remove_dir_all(&dir).ok();
        (count("SB_DFF"), count("SB_LUT4"), count("SB_RAM40_4K"))
    }
    fn verilog<T: Block + Default>() -> String {
        let mut uut = T::default();
        uut.connect_all();
        generate_verilog(&uut)
    }
    let block_ram = cells("block-ram", &verilog::<WithBlockRam>());
    let ram = cells("ram", &verilog::<WithRam>());
    println!("16 × 32 RAM: BlockRam {block_ram:?}, rust-hdl RAM {ram:?} (flip-flops, LUT4, SB_RAM40_4K)");
    assert_eq!((block_ram.0, block_ram.2), (0, 2), "BlockRam is two block RAMs and nothing else: {block_ram:?}");
    assert!(block_ram.1 <= 2, "{block_ram:?}");
    assert!(ram.2 == 2 && ram.0 >= 32, "rust-hdl's RAM gets the bypass this widget avoids: {ram:?}");
}

/// Every board top of both families names only what it declares: yosys reads its Verilog with
/// `-noautowire`, as the flow does, so a name `hdl_gen` copied from a Rust constant (which
/// Verilog would otherwise take as an undriven one-bit wire) fails here, before a synthesis run.
/// `hierarchy -check` also fails on a module used and not defined.
#[test]
fn every_top_declares_every_name() {
    let dir = std::env::temp_dir().join(format!("declared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut tops = bitstreams::tops::all();
    tops.extend(bitstreams::tops::ecp5_all().into_iter().filter(|t| matches!(t.name, "port-8x1024" | "nic-full")));
    for t in &tops {
        let v = dir.join(format!("{}.v", t.name));
        std::fs::write(&v, (t.board)().verilog).unwrap();
        let out = std::process::Command::new("yosys")
            .arg("-q")
            .arg("-p")
            .arg(format!("read_verilog -noautowire {}; hierarchy -check -top top", v.display()))
            .output()
            .expect("yosys: run scripts/deps.sh");
        assert!(out.status.success(), "{}: {}{}", t.name, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    }
    std::fs::remove_dir_all(&dir).ok();
}
