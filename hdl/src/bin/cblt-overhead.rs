//! `cargo run --release -p hdl --bin cblt-overhead -- [TRIALS]` (default 2000): the mean number
//! of extra symbols the CB-LT decoder needs at k = 4, 7, 14, 35, 64 with the default table,
//! beside CB-LT §8's 20,000-trial figures.

fn main() {
    let trials: u64 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 2000,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: cblt-overhead [TRIALS]  (TRIALS a positive integer)");
            std::process::exit(2);
        }
    };
    println!("| k | mean extra ({trials} trials) | spec §8 (20,000 trials) | p50 | p99 | max |");
    println!("|---|---|---|---|---|---|");
    for (k, spec) in [(4, 1.25), (7, 1.95), (14, 2.79), (35, 4.09), (64, 4.65)] {
        let mut x: Vec<usize> = (0..trials).map(|t| hdl::cblt::extra_symbols(k, t)).collect();
        x.sort();
        let mean = x.iter().sum::<usize>() as f64 / trials as f64;
        let q = |p: f64| x[((trials as f64 - 1.0) * p) as usize];
        println!("| {k} | {mean:.2} | {spec:.2} | {} | {} | {} |", q(0.5), q(0.99), x[x.len() - 1]);
    }
}
