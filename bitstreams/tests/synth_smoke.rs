//! Synthesis smoke: every board top (the AQM, the switch blocks, the 2 × 256 switch port) goes
//! through yosys and nextpnr-ice40 for the HX8K, fits, and reports a clock; CI catches a block that stops synthesizing. The full flow with packing
//! is `cargo run --release -p bitstreams`.

#[test]
fn aqm_marker_synthesizes_for_the_hx8k() {
    let v = bitstreams::tops::verilog_of(bitstreams::tops::AqmBoard::default());
    let dir = std::env::temp_dir().join(format!("synth-smoke-{}", std::process::id()));
    let r = bitstreams::build("aqm", &v, &dir, false).unwrap();
    println!("aqm marker: {} / {} logic cells, {} RAM blocks, Fmax {:.2} MHz at --freq 100", r.logic_cells, r.logic_cells_avail, r.ram_blocks, r.fmax_mhz);
    assert!(r.logic_cells > 300 && r.logic_cells <= r.logic_cells_avail, "{r:?}");
    assert!(r.fmax_mhz > 0.0);
    std::fs::remove_dir_all(&dir).ok();
}

fn synth_block(name: &str) {
    let (_, verilog) = bitstreams::harness::switch_block_tops().into_iter().find(|(n, _)| *n == name).unwrap();
    let dir = std::env::temp_dir().join(format!("synth-smoke-{name}-{}", std::process::id()));
    let r = bitstreams::build(name, &verilog().verilog, &dir, false).unwrap();
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
    let r = bitstreams::build(top, &board.verilog, &dir, false).unwrap();
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
