//! `cargo run --release -p bitstreams -- [TOP...]`: synthesize, place, route and pack board tops
//! for the Alchitry Cu and print logic cells, RAM blocks, PLLs and Fmax at `--freq 100`.
//! Tops: `aqm` (sojourn timestamp + AQM marker, its own LFSR board), the switch blocks `dwrr`,
//! `ren`, `seldrop`, `shaper`, `intstamp`, and the switch port `port` (2 queues × 256), all in
//! the generic harness (bitstreams/src/harness.rs), and the CB-LT encoder `cblt-encoder` and
//! decoder `cblt-decoder` (S = 64, k_max = 64, W = 32) in the same harness. Outputs go to `target/bitstreams/<top>/`.

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "Open-toolchain synthesis for the Alchitry Cu (iCE40HX8K-CB132)")]
struct Args {
    /// Tops to build (default: all).
    tops: Vec<String>,
}

/// Every top, built by default.
const TOPS: &[&str] = &["aqm", "dwrr", "ren", "seldrop", "shaper", "intstamp", "port", "cblt-encoder", "cblt-decoder"];

fn main() -> ExitCode {
    let a = Args::parse();
    let tops: Vec<String> = if a.tops.is_empty() { TOPS.iter().map(|s| s.to_string()).collect() } else { a.tops };
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bitstreams");
    for t in &tops {
        let harnessed = bitstreams::harness::switch_block_tops().into_iter().find(|(n, _)| n == t);
        let mut harness = String::new();
        let verilog = match t.as_str() {
            "aqm" => bitstreams::tops::verilog_of(bitstreams::tops::AqmBoard::default()),
            "cblt-encoder" | "cblt-decoder" => {
                let b = if t == "cblt-encoder" {
                    bitstreams::harness::cblt_encoder_board()
                } else {
                    bitstreams::harness::cblt_decoder_board()
                };
                harness = format!(" (harness included: {} flip-flops)", b.harness_flops);
                b.verilog
            }
            _ if harnessed.is_some() => {
                let b = (harnessed.unwrap().1)();
                harness = format!(" (harness included: {} flip-flops)", b.harness_flops);
                b.verilog
            }
            other => {
                eprintln!("unknown top `{other}`; known: {}", TOPS.join(", "));
                return ExitCode::from(2);
            }
        };
        eprintln!("{t}: yosys, nextpnr-ice40 --hx8k --package cb132 --freq 100, icepack ...");
        match bitstreams::build(t, &verilog, &out.join(t), true) {
            Ok(r) => println!(
                "{t}: {} / {} logic cells{harness}, {} RAM blocks, {} PLLs, Fmax {:.2} MHz ({} 100 MHz), bitstream {}",
                r.logic_cells, r.logic_cells_avail, r.ram_blocks, r.plls, r.fmax_mhz,
                if r.fmax_mhz >= 100.0 { "meets" } else { "misses" },
                r.bitstream.map(|p| p.display().to_string()).unwrap_or_default()
            ),
            Err(e) => {
                eprintln!("{t}: {e:#}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
