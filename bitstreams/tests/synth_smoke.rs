//! Synthesis smoke: every board top that fits (the AQM, the switch blocks, the 2 × 256 switch
//! port, the CB-LT encoder and decoder) goes through yosys and nextpnr-ice40 for the HX8K, fits,
//! and reports a clock, so CI catches a block that stops synthesizing; one small top goes
//! through the whole flow to a bitstream; the committed report covers every top. The full flow
//! is `cargo run --release -p bitstreams`.

use std::path::Path;

#[test]
fn aqm_marker_synthesizes_for_the_hx8k() {
    let v = bitstreams::tops::verilog_of(bitstreams::tops::AqmBoard::default());
    let dir = std::env::temp_dir().join(format!("synth-smoke-{}", std::process::id()));
    let r = bitstreams::build("aqm", &v, &dir, false, &|_: &str| {}).unwrap();
    println!("aqm marker: {} / {} logic cells, {} RAM blocks, Fmax {:.2} MHz at --freq 100", r.logic_cells, r.logic_cells_avail, r.ram_blocks, r.fmax_mhz);
    assert!(r.logic_cells > 300 && r.logic_cells <= r.logic_cells_avail, "{r:?}");
    assert!(r.fmax_mhz > 0.0);
    std::fs::remove_dir_all(&dir).ok();
}

fn synth_block(name: &str) {
    let (_, verilog) = bitstreams::harness::switch_block_tops().into_iter().find(|(n, _)| *n == name).unwrap();
    let dir = std::env::temp_dir().join(format!("synth-smoke-{name}-{}", std::process::id()));
    let r = bitstreams::build(name, &verilog().verilog, &dir, false, &|_: &str| {}).unwrap();
    println!("{name}: {} / {} logic cells, {} RAM blocks, Fmax {:.2} MHz at --freq 100", r.logic_cells, r.logic_cells_avail, r.ram_blocks, r.fmax_mhz);
    assert!(r.logic_cells > 100 && r.logic_cells <= r.logic_cells_avail, "{r:?}");
    assert!(r.fmax_mhz > 0.0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ren_counters_synthesize_for_the_hx8k() {
    synth_block("ren");
}

#[test]
fn selective_drop_synthesizes_for_the_hx8k() {
    synth_block("seldrop");
}

#[test]
fn shaper_synthesizes_for_the_hx8k() {
    synth_block("shaper");
}

#[test]
fn int_stamper_synthesizes_for_the_hx8k() {
    synth_block("intstamp");
}

#[test]
fn dwrr_synthesizes_for_the_hx8k() {
    synth_block("dwrr");
}

/// The whole port, 2 queues of 256 (README, "Measured"): it must keep fitting the HX8K.
#[test]
fn switch_port_synthesizes_for_the_hx8k() {
    synth_block("port");
}

/// Synthesize a CB-LT board top (S = 64, k_max = 64, W = 32, in the harness): it keeps fitting
/// the HX8K with its `what` in block RAM.
fn synth_cblt(top: &str, board: bitstreams::harness::Board, what: &str) {
    let dir = std::env::temp_dir().join(format!("synth-smoke-{top}-{}", std::process::id()));
    let r = bitstreams::build(top, &board.verilog, &dir, false, &|_: &str| {}).unwrap();
    println!("{top}: {} / {} logic cells, {} RAM blocks, Fmax {:.2} MHz at --freq 100", r.logic_cells, r.logic_cells_avail, r.ram_blocks, r.fmax_mhz);
    assert!(r.logic_cells > 1000 && r.logic_cells <= r.logic_cells_avail, "{r:?}");
    assert!(r.ram_blocks >= 8, "{what} must be in block RAM: {r:?}");
    assert!(r.fmax_mhz > 0.0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cblt_encoder_synthesizes_for_the_hx8k() {
    synth_cblt("cblt-encoder", bitstreams::harness::cblt_encoder_board(), "the 4,096-byte message buffer");
}

#[test]
fn cblt_decoder_synthesizes_for_the_hx8k() {
    synth_cblt("cblt-decoder", bitstreams::harness::cblt_decoder_board(), "the 64 rows of 64 bytes");
}

/// The whole flow on a small top: pass 1, the PLL build when it misses 100 MHz (which must pass
/// timing at its clock), and `icepack` to a full-size HX8K bitstream.
#[test]
fn int_stamper_goes_through_the_whole_flow_to_a_bitstream() {
    let top = bitstreams::tops::all().into_iter().find(|t| t.name == "intstamp").unwrap();
    let dir = std::env::temp_dir().join(format!("synth-flow-intstamp-{}", std::process::id()));
    let row = bitstreams::report::build_top(&top, &dir, &|m: &str| eprintln!("[intstamp] {m}")).unwrap();
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

/// REPORT.md has a row for every top, and `bin/` holds a bitstream for each top that fits and
/// nothing else: a top added without regenerating the report fails here.
#[test]
fn committed_report_covers_every_top() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let report = std::fs::read_to_string(dir.join("REPORT.md")).expect("bitstreams/REPORT.md: run `cargo run --release -p bitstreams`");
    let tops = bitstreams::tops::all();
    for t in &tops {
        let row = report.lines().find(|l| l.starts_with(&format!("| `{}` | ", t.name)));
        let row = row.unwrap_or_else(|| panic!("REPORT.md has no row for `{}`: regenerate it", t.name));
        let bin = dir.join("bin").join(format!("{}.bin", t.name));
        if t.fits {
            assert!(row.contains(&format!("(bin/{}.bin)", t.name)), "{row}");
            assert_eq!(std::fs::metadata(&bin).map(|m| m.len()).ok(), Some(135_100), "{}", bin.display());
        } else {
            assert!(row.contains("does not fit") && !bin.exists(), "{row}");
        }
    }
    let bins = std::fs::read_dir(dir.join("bin")).unwrap().count();
    assert_eq!(bins, tops.iter().filter(|t| t.fits).count(), "stale files in bitstreams/bin/");
}
