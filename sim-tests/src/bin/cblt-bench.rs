//! RTL encoder and decoder cycles per symbol against their bounds, measured on Verilator:
//! `cargo run --release -p sim-tests --bin cblt-bench [-- --symbols 200] [--part encoder|decoder]`.
//!
//! **Encoder.**
//! For k = 4, 14, 35, 64 (msg_b, the default table) at S = 1460 with W = 32, 64, 128 bits and at
//! the Cu NIC's S = 64 with W = 32, the encoder streams `--symbols` symbols into an always-ready sink. The bound of symbol j is
//! ⌈d_j·S/W⌉ clocks: one buffer word read per clock. "Steady" counts from the end of symbol 0
//! to the end of the last; "startup" is the clocks from the start write to the end of symbol 0
//! beyond its bound (the k·S check, the first degree scan and mask, the pipeline).
//!
//! **Decoder.** For each W and k = 14, 35, 64 (S = 1460, msg_b, the default table, every
//! symbol received, input always valid) the decoder takes symbols until COMPLETE. The clocks
//! run from the first beat to COMPLETE's result (the readout is reported apart). The bound of
//! symbol i is the payload XORs it needs, `x_i` whole rows of ⌈S/W⌉ words (the software
//! decoder's count: touched rows plus back-eliminated rows), where receiving the payload is
//! itself one pass: `max(1, x_i)·⌈S/W⌉`. The XOR-only bound `Σ x_i·⌈S/W⌉` is printed too.

use clap::Parser;
use hdl::cblt::table::DegreeTable;
use hdl::cblt::vectors::msg_b;
use sim_tests::aqm::Engine;
use sim_tests::cblt::{encoder, model_symbols, run_job, EncodeJob};

#[derive(Parser)]
struct Args {
    /// Encoder symbols per (W, k).
    #[arg(long, default_value_t = 200)]
    symbols: usize,
    /// Decoder messages per (W, k), each with its own seed.
    #[arg(long, default_value_t = 5)]
    messages: u32,
    /// `encoder`, `decoder`, or both when left out.
    #[arg(long)]
    part: Option<String>,
}

fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    match a.part.as_deref() {
        None => {
            encoder_bench(&a)?;
            println!();
            decoder_bench(&a)
        }
        Some("encoder") => encoder_bench(&a),
        Some("decoder") => decoder_bench(&a),
        Some(p) => anyhow::bail!("--part {p}: expected `encoder` or `decoder`"),
    }
}

fn decoder_bench(a: &Args) -> anyhow::Result<()> {
    use hdl::cblt::decoder::{Decoder, Status};
    use hdl::cblt::encoder::Encoder;
    use sim_tests::cblt_decoder::{decoder, RxDriver};
    let s = 1460;
    println!("| W (bits) | k | messages | symbols received | payload XORs | clocks/symbol | bound max(1,x)·⌈S/W⌉ /symbol | ratio | XOR-only bound /symbol | ratio | readout clocks/message | k·⌈S/W⌉ |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for w in [32, 64, 128] {
        let mut drv = RxDriver::new(decoder(Engine::Verilator, s, w, 64)?, 1);
        let beats = s.div_ceil(w / 8) as u64;
        for k in [14, 35, 64] {
            let msg = msg_b(k * s);
            let (mut n, mut bound, mut xor_bound, mut xors, mut clocks, mut readout) =
                (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
            for m in 0..a.messages {
                let mut e = Encoder::with_default_table(&msg, s, k as u8, 0x2468_ACE1 + m)?;
                let mut model = Decoder::new(s)?;
                drv.clear()?;
                drv.messages.clear();
                let start = drv.clock;
                let mut done_at = 0;
                while drv.messages.is_empty() {
                    let p = e.next_symbol().to_bytes();
                    let before = model.payload_xors;
                    let st = model.push_packet(&p);
                    let x = model.payload_xors - before;
                    bound += x.max(1) * beats;
                    xor_bound += x * beats;
                    n += 1;
                    let r = drv.push(&p)?;
                    anyhow::ensure!(
                        r.status == st.code(),
                        "W = {w}, k = {k}: status {} against the model's {st:?}",
                        r.status
                    );
                    if st == Status::Complete {
                        done_at = drv.res_at;
                    }
                }
                anyhow::ensure!(drv.messages[0] == msg, "W = {w}, k = {k}: wrong message");
                clocks += done_at - start;
                readout += drv.clock - done_at;
                xors += model.payload_xors;
            }
            let per = |x: u64| x as f64 / n as f64;
            println!(
                "| {w} | {k} | {} | {n} | {xors} | {:.1} | {:.1} | {:.3} | {:.1} | {:.3} | {:.0} | {} |",
                a.messages,
                per(clocks),
                per(bound),
                clocks as f64 / bound as f64,
                per(xor_bound),
                clocks as f64 / xor_bound as f64,
                readout as f64 / a.messages as f64,
                k as u64 * beats
            );
        }
    }
    Ok(())
}

fn encoder_bench(a: &Args) -> anyhow::Result<()> {
    println!("| S | W (bits) | k | symbols | mean degree | steady clocks/symbol | bound ⌈d·S/W⌉/symbol | ratio | overhead clocks/symbol | startup clocks |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    // S = 1460 at three widths, and the Cu NIC's S = 64, where a degree-1 symbol is 16 clocks of
    // XOR and the degree scan and index draws must still keep ahead
    for (s, w) in [(1460, 32), (1460, 64), (1460, 128), (64, 32)] {
        let mut io = encoder(Engine::Verilator, s, w)?;
        for k in [4, 14, 35, 64] {
            let msg = msg_b(k * s);
            let job = EncodeJob {
                msg: &msg,
                msg_id: 1,
                seed: 0x0BAD_F00D,
                table: DegreeTable::default_for(k)?,
                symbols: a.symbols,
            };
            let rtl = run_job(io.as_mut(), &job, |_| true)?;
            let model = model_symbols(&job, s)?;
            anyhow::ensure!(
                rtl.iter().zip(&model).all(|(r, m)| r.bytes == m.to_bytes()),
                "W = {w}, k = {k}: the RTL differs from the codec"
            );
            let bound = |d: usize| (d * s).div_ceil(w / 8) as u64;
            let n = (a.symbols - 1) as f64;
            let steady = (rtl[a.symbols - 1].done_at - rtl[0].done_at) as f64 / n;
            let steady_bound = model[1..].iter().map(|m| bound(m.degree)).sum::<u64>() as f64 / n;
            // done_at counts from the clock after the start write
            let startup = rtl[0].done_at + 2 - bound(model[0].degree);
            let mean_d = model.iter().map(|m| m.degree).sum::<usize>() as f64 / a.symbols as f64;
            println!(
                "| {s} | {w} | {k} | {} | {mean_d:.2} | {steady:.1} | {steady_bound:.1} | {:.4} | {:.2} | {startup} |",
                a.symbols,
                steady / steady_bound,
                steady - steady_bound
            );
        }
    }
    Ok(())
}
