//! RTL encoder cycles per coded symbol against the memory bound, measured on Verilator:
//! `cargo run --release -p sim-tests --bin cblt-bench [-- --symbols 200]`.
//!
//! For each data-path width W and k = 4, 14, 35, 64 (S = 1460, msg_b, the default table) the
//! encoder streams `--symbols` symbols into an always-ready sink. The bound of symbol j is
//! ⌈d_j·S/W⌉ clocks: one buffer word read per clock. "Steady" counts from the end of symbol 0
//! to the end of the last; "startup" is the clocks from the start write to the end of symbol 0
//! beyond its bound (the k·S check, the first mask, the pipeline).

use clap::Parser;
use hdl::cblt::table::DegreeTable;
use hdl::cblt::vectors::msg_b;
use sim_tests::aqm::Engine;
use sim_tests::cblt::{encoder, model_symbols, run_job, EncodeJob};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value_t = 200)]
    symbols: usize,
}

fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    let s = 1460;
    println!("| W (bits) | k | symbols | mean degree | steady clocks/symbol | bound ⌈d·S/W⌉/symbol | ratio | overhead clocks/symbol | startup clocks |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for w in [32, 64, 128] {
        let mut io = encoder(Engine::Verilator, s, w)?;
        for k in [4, 14, 35, 64] {
            let msg = msg_b(k * s);
            let job = EncodeJob { msg: &msg, msg_id: 1, seed: 0x0BAD_F00D, table: DegreeTable::default_for(k)?, symbols: a.symbols };
            let rtl = run_job(io.as_mut(), &job, |_| true)?;
            let model = model_symbols(&job, s)?;
            anyhow::ensure!(rtl.iter().zip(&model).all(|(r, m)| r.bytes == m.to_bytes()), "W = {w}, k = {k}: the RTL differs from the codec");
            let bound = |d: usize| (d * s).div_ceil(w / 8) as u64;
            let n = (a.symbols - 1) as f64;
            let steady = (rtl[a.symbols - 1].done_at - rtl[0].done_at) as f64 / n;
            let steady_bound = model[1..].iter().map(|m| bound(m.degree)).sum::<u64>() as f64 / n;
            // done_at counts from the clock after the start write
            let startup = rtl[0].done_at + 2 - bound(model[0].degree);
            let mean_d = model.iter().map(|m| m.degree).sum::<usize>() as f64 / a.symbols as f64;
            println!(
                "| {w} | {k} | {} | {mean_d:.2} | {steady:.1} | {steady_bound:.1} | {:.4} | {:.2} | {startup} |",
                a.symbols,
                steady / steady_bound,
                steady - steady_bound
            );
        }
    }
    Ok(())
}
