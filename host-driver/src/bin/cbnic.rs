//! `cbnic`: CloudBurst coding from the command line.
//!
//! ```text
//! cbnic encode --engine soft -i MESSAGE -o SYMBOLS.jsonl [--symbol-size 1460] [--msg-id N]
//!              [--seed N] [--symbols N] [--table default|uniform|fixed:D]
//! cbnic decode --engine soft -i SYMBOLS.jsonl -o MESSAGE
//! cbnic bench  [--ks 4,14,35,64] [--symbol-size 1460] [--min-secs 0.5]
//! ```
//!
//! Exit codes: 0 done; 1 `decode` ran out of symbols before the message was complete (the
//! rank and known_mask are printed, nothing is written); 2 bad input or usage.

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use hdl::cblt::table::{DegreeTable, Profile};
use hdl::cblt::{symbols_for, DEFAULT_S};
use host_driver::soft::{self, status_name, EncodeParams};
use host_driver::symfile::{self, SymbolLine};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "cbnic", about = "CloudBurst LT coding (CB-LT) on the host or the FEC NIC")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Encode a message file into coded symbols (JSON Lines).
    Encode {
        /// Coding engine: `soft` (the NIC engines `sim`, `vfio:ADDR` and `mmap:PATH` come with
        /// the NIC top).
        #[arg(long, default_value = "soft")]
        engine: String,
        /// The message (1 to 64·S bytes).
        #[arg(short, long)]
        input: PathBuf,
        /// Where the symbols go (`-` for standard output).
        #[arg(short, long)]
        output: PathBuf,
        #[arg(long, default_value_t = DEFAULT_S)]
        symbol_size: usize,
        #[arg(long, default_value_t = 0)]
        msg_id: u8,
        /// xorshift32 seed, nonzero (default: drawn at random and printed).
        #[arg(long, value_parser = parse_u32)]
        seed: Option<u32>,
        /// Symbols to write (default 2k + 20: §8's worst case over 20,000 trials was k + 84 at
        /// k = 64, so this decodes without loss in practice).
        #[arg(long)]
        symbols: Option<usize>,
        /// Degree table: `default` (robust soliton c = 0.1, δ = 0.5), `uniform` (1..5) or
        /// `fixed:D`. Tables that can never decode are refused.
        #[arg(long, default_value = "default")]
        table: String,
    },
    /// Decode coded symbols (JSON Lines) back into the message, reporting every symbol.
    Decode {
        #[arg(long, default_value = "soft")]
        engine: String,
        /// The symbols (`-` for standard input).
        #[arg(short, long)]
        input: PathBuf,
        /// Where the recovered message goes.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Software encode/decode throughput beside the raptorq crate.
    Bench {
        #[arg(long, value_delimiter = ',', default_values_t = [4usize, 14, 35, 64])]
        ks: Vec<usize>,
        #[arg(long, default_value_t = DEFAULT_S)]
        symbol_size: usize,
        /// Minimum seconds per measurement.
        #[arg(long, default_value_t = 0.5)]
        min_secs: f64,
    },
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    v.map_err(|_| format!("`{s}` is not a 32-bit number (decimal or 0x hex)"))
}

fn check_engine(engine: &str) -> Result<()> {
    match engine {
        "soft" => Ok(()),
        e if e == "sim" || e.starts_with("vfio:") || e.starts_with("mmap:") => {
            bail!("engine `{e}` needs the NIC top, which this build does not have yet; use --engine soft")
        }
        e => bail!("unknown engine `{e}`: soft, sim, vfio:ADDR or mmap:PATH"),
    }
}

fn read_input(p: &PathBuf) -> Result<Vec<u8>> {
    if p.as_os_str() == "-" {
        let mut b = vec![];
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)?;
        return Ok(b);
    }
    std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))
}

fn write_output(p: &PathBuf, b: &[u8]) -> Result<()> {
    if p.as_os_str() == "-" {
        return std::io::Write::write_all(&mut std::io::stdout(), b).map_err(Into::into);
    }
    std::fs::write(p, b).with_context(|| format!("cannot write {}", p.display()))
}

fn parse_table(spec: &str, k: usize) -> Result<DegreeTable> {
    let profile = match spec {
        "default" => Profile::DEFAULT,
        "uniform" => Profile::Uniform1To5,
        f => match f.strip_prefix("fixed:").map(str::parse::<usize>) {
            Some(Ok(d)) if d >= 1 => Profile::Fixed(d),
            _ => bail!("unknown table `{f}`: default, uniform or fixed:D (D ≥ 1)"),
        },
    };
    Ok(profile.table(k)?)
}

/// A nonzero seed from the clock and the process id.
fn random_seed() -> u32 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(1);
    let mut x = (t as u64 ^ (std::process::id() as u64) << 32).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 29;
    (x as u32).max(1)
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.cmd {
        Cmd::Encode { engine, input, output, symbol_size, msg_id, seed, symbols, table } => {
            check_engine(&engine)?;
            let msg = read_input(&input)?;
            let k = symbols_for(msg.len(), symbol_size).map_err(|e| anyhow!("{}: {e}", input.display()))?;
            let table = parse_table(&table, k)?;
            table.validate(k)?;
            let seed = seed.unwrap_or_else(random_seed);
            let n = symbols.unwrap_or(2 * k + 20);
            let p = EncodeParams { s: symbol_size, msg_id, seed, table: Some(table) };
            let syms = soft::encode(&msg, &p, n)?;
            let lines: Vec<SymbolLine> = syms.iter().enumerate().map(|(j, c)| SymbolLine::from_symbol(j as u64, c)).collect();
            write_output(&output, symfile::to_text(&lines).as_bytes())?;
            eprintln!("encoded {} bytes: k = {k}, S = {symbol_size}, MSG_ID = {msg_id}, seed = {seed:#010x}, {n} symbols", msg.len());
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Decode { engine, input, output } => {
            check_engine(&engine)?;
            let text = String::from_utf8(read_input(&input)?).map_err(|_| anyhow!("{}: not UTF-8 text", input.display()))?;
            let parsed = symfile::parse(&input.display().to_string(), &text).map_err(|e| anyhow!(e))?;
            let packets: Vec<Vec<u8>> = parsed.iter().map(|p| p.packet.clone()).collect();
            let r = soft::decode(&packets)?;
            for (p, o) in parsed.iter().zip(&r.outcomes) {
                let j = p.j.map(|j| j.to_string()).unwrap_or_else(|| "-".into());
                println!("line {} j={j}: {} rank={} known_mask={:#018x}", p.line, status_name(&o.status), o.rank, o.known_mask);
            }
            match &r.message {
                Some(m) => {
                    write_output(&output, m)?;
                    eprintln!("complete: {} bytes, k = {}, STOP {}", m.len(), r.k.unwrap_or(0), hdl::cblt::vectors::hex(&r.stop.unwrap().pack()));
                    Ok(ExitCode::SUCCESS)
                }
                None => {
                    let k = r.k.map(|k| k.to_string()).unwrap_or_else(|| "unknown (no valid symbol)".into());
                    eprintln!("incomplete: rank {} of k = {k}, known_mask {:#018x}; nothing written", r.rank, r.known_mask);
                    Ok(ExitCode::from(1))
                }
            }
        }
        Cmd::Bench { ks, symbol_size, min_secs } => {
            for &k in &ks {
                if !(1..=64).contains(&k) {
                    bail!("k = {k} is outside 1..=64");
                }
            }
            let rows: Vec<_> = ks.iter().map(|&k| host_driver::bench::measure(k, symbol_size, min_secs)).collect();
            print!("{}", host_driver::bench::table(&rows, symbol_size));
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cbnic: {e:#}");
            ExitCode::from(2)
        }
    }
}
