//! `decode-property`: the hostile-input property (`host_driver::hostile`) on many random streams.
//!
//! ```text
//! decode-property [--engine soft|sim|sim-small|sim:MAILBOX|vfio:ADDR|mmap:PATH] [--streams N] [--seed N]
//!                 [--symbol-size S --k-max K]
//! ```
//!
//! `soft` runs a third of the streams on each of three receivers (S = 1460 / k_max = 64,
//! S = 64 / k_max = 16 as the small NIC, S = 16 / k_max = 64) unless `--symbol-size` picks one;
//! a NIC runs them all on its own build (`CAPS`). Prints the coverage; exit 1 at the first
//! stream that breaks the property (which one, and how), 2 on bad usage or a device fault.

use anyhow::{bail, Result};
use clap::Parser;
use host_driver::device::Engine;
use host_driver::hostile::{self, Coverage};
use host_driver::nic::FecNic;
use host_driver::stream::{Receive, RxConfig, SoftReceiver};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "decode-property", about = "Every engine agrees with the golden model on hostile streams, and INVALID packets change nothing")]
struct Cli {
    /// `soft`, or a NIC: `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR`, `mmap:PATH`.
    #[arg(long, default_value = "soft")]
    engine: String,
    #[arg(long, default_value_t = 1000)]
    streams: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `soft` only: one receiver with this S (and --k-max) instead of the three.
    #[arg(long)]
    symbol_size: Option<usize>,
    #[arg(long, default_value_t = 64)]
    k_max: usize,
}

fn run(cli: Cli) -> Result<ExitCode> {
    let e = Engine::parse(&cli.engine)?;
    let mut engines: Vec<Box<dyn Receive>> = vec![];
    if e == Engine::Soft {
        let cfgs = match cli.symbol_size {
            Some(s) => vec![RxConfig { s, k_max: cli.k_max }],
            None => vec![RxConfig { s: 1460, k_max: 64 }, RxConfig { s: 64, k_max: 16 }, RxConfig { s: 16, k_max: 64 }],
        };
        for c in cfgs {
            engines.push(Box::new(SoftReceiver::new(c)?));
        }
    } else {
        if cli.symbol_size.is_some() {
            bail!("--symbol-size is for the soft engine: a NIC decodes its own S (CAPS)");
        }
        engines.push(Box::new(FecNic::open(e.open()?)?));
    }
    let t0 = Instant::now();
    let mut total = Coverage::default();
    let n = engines.len() as u64;
    for (i, rx) in engines.iter_mut().enumerate() {
        let cfg = rx.config();
        let share = cli.streams / n + u64::from((i as u64) < cli.streams % n);
        let mut last = Instant::now();
        let seed = cli.seed.wrapping_add(i as u64 * 0x9E37_79B9);
        let res = hostile::run(rx.as_mut(), seed, share, |done, c| {
            if last.elapsed().as_secs() >= 10 {
                eprintln!("  S = {} k_max = {}: {done} of {share} streams, {} packets, {:.0} s", cfg.s, cfg.k_max, c.packets, t0.elapsed().as_secs_f64());
                last = Instant::now();
            }
        });
        match res {
            Ok(c) => {
                println!("{} S = {} k_max = {}: {}", cli.engine, cfg.s, cfg.k_max, hostile::summary(&c));
                total.add(&c);
            }
            Err(why) => {
                eprintln!("decode-property: {} breaks the property: {why}", cli.engine);
                return Ok(ExitCode::from(1));
            }
        }
    }
    println!("all: {}", hostile::summary(&total));
    println!("property held on every stream ({:.1} s)", t0.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    // Ctrl-C or SIGTERM: no simulator mailbox may survive (the servers exit once it is gone)
    host_driver::sim::remove_mailboxes_on_signal();
    match run(Cli::parse()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("decode-property: {e:#}");
            ExitCode::from(2)
        }
    }
}
