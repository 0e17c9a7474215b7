//! `cbnic`: CloudBurst coding from the command line.
//!
//! ```text
//! cbnic probe  [--engine sim|sim-small|sim:MAILBOX|vfio:ADDR|mmap:PATH]
//! cbnic regs   [--engine …] [--markdown]
//! cbnic encode [--engine soft|sim|…] -i MESSAGE -o SYMBOLS.jsonl [--symbol-size 1460] [--msg-id N]
//!              [--seed N] [--symbols N] [--table default|uniform|fixed:D]
//! cbnic decode [--engine soft|sim|…] -i SYMBOLS.jsonl (-o MESSAGE | --out-dir DIR) [--symbol-size 1460]
//! cbnic bench  [--engine soft|sim|…] [--ks 4,14,35,64] [--symbol-size 1460] [--min-secs 0.5]
//! cbnic demo   [--engine sim|…] [--paths 4] [--loss 0.2] [--cut P] [--messages 3] [--msg-size 20000]
//! ```
//!
//! Engines: `soft` is the software codec; `sim` starts a simulator process running the
//! Verilated NIC (`sim-small`: the S = 64 build; the program `nic-sim` from the `rtl-sim`
//! crate, found beside `cbnic`), `sim:MAILBOX` attaches to a running `nic-sim`, `vfio:ADDR`
//! opens a PCIe function bound to vfio-pci, `mmap:PATH` maps a
//! BAR's sysfs `resourceN` file.
//!
//! Exit codes: 0 done; 1 `decode` found no message, or ran out of symbols before a message
//! was complete (its rank and known_mask are printed, nothing is written for it), or `demo` lost
//! a message; 2 bad input, usage, or a device fault (no device, permission, wrong ID, simulator
//! gone, timeout).

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use hdl::cblt::table::{DegreeTable, Profile};
use hdl::cblt::{symbols_for, DEFAULT_S};
use host_driver::device::Engine;
use host_driver::nic::FecNic;
use host_driver::soft::{self, status_name, EncodeParams};
use host_driver::stream::RxConfig;
use host_driver::symfile::{self, SymbolLine};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "cbnic", version, about = "CloudBurst LT coding (CB-LT) on the host or the FEC NIC")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Find the NIC, check its ID, and print its capabilities.
    Probe {
        /// `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR` or `mmap:PATH`.
        #[arg(long, default_value = "sim")]
        engine: String,
    },
    /// Dump the NIC's readable registers, decoded; `--markdown` prints the register map.
    Regs {
        /// `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR` or `mmap:PATH`.
        #[arg(long, default_value = "sim")]
        engine: String,
        /// Print host-driver/REGISTERS.md (from the register table; no device needed).
        #[arg(long)]
        markdown: bool,
    },
    /// Encode a message file into coded symbols (JSON Lines).
    Encode {
        /// `soft` (the software codec) or a NIC: `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR`,
        /// `mmap:PATH`.
        #[arg(long, default_value = "soft")]
        engine: String,
        /// The message (1 to 64·S bytes).
        #[arg(short, long)]
        input: PathBuf,
        /// Where the symbols go (`-` for standard output).
        #[arg(short, long)]
        output: PathBuf,
        /// Symbol size; a NIC codes its own S (CAPS), which this must match when given.
        #[arg(long)]
        symbol_size: Option<usize>,
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
    /// Decode coded symbols (JSON Lines) back into messages, reporting every symbol and every
    /// message. One message is decoded at a time: symbols of another message while one is open
    /// are INVALID; after a message completes, the next one's symbols open a fresh context.
    Decode {
        /// `soft` (the software codec) or a NIC: `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR`,
        /// `mmap:PATH`.
        #[arg(long, default_value = "soft")]
        engine: String,
        /// The symbols (`-` for standard input).
        #[arg(short, long)]
        input: PathBuf,
        /// Where the first delivered message goes (`-` for standard output; the symbol lines
        /// then go to standard error). Use --out-dir when the stream carries several messages.
        #[arg(short, long, required_unless_present = "out_dir", conflicts_with = "out_dir")]
        output: Option<PathBuf>,
        /// Write every delivered message, as DIR/msg-N-idM.bin (N counts deliveries from 0, M is
        /// the MSG_ID); DIR is created if missing.
        #[arg(long)]
        out_dir: Option<PathBuf>,
        /// The symbol size S the stream was encoded with (default 1460, as `encode`). Never taken
        /// from the packets: a packet that is not 12 + S bytes is INVALID. A NIC decodes its own
        /// S (CAPS), which this must match when given.
        #[arg(long)]
        symbol_size: Option<usize>,
    },
    /// `soft`: software encode/decode throughput beside the raptorq crate. A NIC: register
    /// round trip, messages per second and cycles per message.
    Bench {
        /// `soft` or a NIC: `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR`, `mmap:PATH`.
        #[arg(long, default_value = "soft")]
        engine: String,
        #[arg(long, value_delimiter = ',', default_values_t = [4usize, 14, 35, 64])]
        ks: Vec<usize>,
        #[arg(long, default_value_t = DEFAULT_S)]
        symbol_size: usize,
        /// Minimum seconds per measurement (soft).
        #[arg(long, default_value_t = 0.5)]
        min_secs: f64,
        /// Messages per k (NIC).
        #[arg(long, default_value_t = 3)]
        messages: usize,
    },
    /// Two NICs: messages through one's encoder, over UDP paths on loopback with loss and a cut
    /// path, into the other's decoder, STOP back; every message is checked.
    Demo {
        /// The sending engine: a NIC (`sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR`, `mmap:PATH`)
        /// or `soft`.
        #[arg(long, default_value = "sim")]
        engine: String,
        /// The receiving engine (default: a second one like --engine).
        #[arg(long)]
        rx_engine: Option<String>,
        #[arg(long, default_value_t = 4)]
        paths: usize,
        /// Loss probability per symbol, 0 ≤ loss < 1.
        #[arg(long, default_value_t = 0.2)]
        loss: f64,
        /// A path (0-based) that drops everything.
        #[arg(long)]
        cut: Option<usize>,
        #[arg(long, default_value_t = 3)]
        messages: usize,
        #[arg(long, default_value_t = 20000)]
        msg_size: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds before a message is given up (the sender's t).
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
    },
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    v.map_err(|_| format!("`{s}` is not a 32-bit number (decimal or 0x hex)"))
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
        Cmd::Probe { engine } => {
            let mut nic = FecNic::open_engine(&engine)?;
            let c = nic.caps;
            // a write must reach the device: SCRATCH reads back what was written
            let probe = random_seed();
            let dev = nic.device();
            dev.write32(hdl::nic::reg::SCRATCH, probe)?;
            let back = dev.read32(hdl::nic::reg::SCRATCH)?;
            if back != probe {
                bail!("{}: SCRATCH reads {back:#010x} after writing {probe:#010x}: writes do not reach the device", nic.describe());
            }
            println!("{}: FEC NIC, register map {:#010x}", nic.describe(), nic.device().read32(hdl::nic::reg::VERSION)?);
            println!("S = {} bytes, k_max = {}, W = {} bits, messages up to {} bytes", c.s, c.k_max, 8 * c.word_bytes, c.max_message());
            println!("symbol slot 2^{} words, TX queue {} symbols, completion queue {} records", c.sa, c.tx_slots, c.cq_depth);
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Regs { engine, markdown } => {
            if markdown {
                print!("{}", hdl::nic::markdown());
                return Ok(ExitCode::SUCCESS);
            }
            let mut nic = FecNic::open_engine(&engine)?;
            println!("{}", nic.describe());
            for (r, v) in nic.dump()? {
                println!("{:#06x} {:<22} {}", r.offset, r.name, r.decode(v));
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Encode { engine, input, output, symbol_size, msg_id, seed, symbols, table } => {
            let e = Engine::parse(&engine)?;
            let mut nic = if e == Engine::Soft { None } else { Some(FecNic::open(e.open()?)?) };
            let s = match (&nic, symbol_size) {
                (Some(n), Some(s)) if s != n.caps.s => bail!("--symbol-size {s}: this NIC codes S = {} bytes", n.caps.s),
                (Some(n), _) => n.caps.s,
                (None, s) => s.unwrap_or(DEFAULT_S),
            };
            let msg = read_input(&input)?;
            if let Some(n) = &nic {
                if msg.len() > n.caps.max_message() {
                    return Err(host_driver::device::NicError::MessageTooLarge { size: msg.len(), max: n.caps.max_message() }.into());
                }
            }
            let k = symbols_for(msg.len(), s).map_err(|e| anyhow!("{}: {e}", input.display()))?;
            let table = parse_table(&table, k)?;
            table.validate(k)?;
            let seed = seed.unwrap_or_else(random_seed);
            let n = symbols.unwrap_or(2 * k + 20);
            if n == 0 {
                bail!("--symbols 0: a symbol file needs at least one symbol");
            }
            let p = EncodeParams { s, msg_id, seed, table: Some(table) };
            let pkts: Vec<Vec<u8>> = match nic.as_mut() {
                Some(nic) => nic.encode(&msg, &p, n)?,
                None => soft::encode(&msg, &p, n)?.iter().map(|c| c.to_bytes()).collect(),
            };
            let lines = pkts.iter().enumerate().map(|(j, b)| SymbolLine::from_packet(j as u64, b)).collect::<Result<Vec<_>, _>>().map_err(|e| anyhow!(e))?;
            write_output(&output, symfile::to_text(&lines).as_bytes())?;
            eprintln!("encoded {} bytes on {engine}: k = {k}, S = {s}, MSG_ID = {msg_id}, seed = {seed:#010x}, {n} symbols", msg.len());
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Decode { engine, input, output, out_dir, symbol_size } => decode(&engine, &input, output.as_ref(), out_dir.as_ref(), symbol_size),
        Cmd::Bench { engine, ks, symbol_size, min_secs, messages } => {
            for &k in &ks {
                if !(1..=64).contains(&k) {
                    bail!("k = {k} is outside 1..=64");
                }
            }
            if Engine::parse(&engine)? == Engine::Soft {
                let rows: Vec<_> = ks.iter().map(|&k| host_driver::bench::measure(k, symbol_size, min_secs)).collect();
                print!("{}", host_driver::bench::table(&rows, symbol_size));
                return Ok(ExitCode::SUCCESS);
            }
            let mut nic = FecNic::open_engine(&engine)?;
            let rtt = host_driver::nic_bench::round_trip(&mut nic, 2000)?;
            let mut rows = vec![];
            for &k in &ks {
                if k > nic.caps.k_max {
                    bail!("k = {k} is above this NIC's k_max = {}", nic.caps.k_max);
                }
                let bytes = (k - 1) * nic.caps.s + nic.caps.s / 2 + 1;
                rows.push(host_driver::nic_bench::loopback(&mut nic, bytes, messages)?);
            }
            print!("{}", host_driver::nic_bench::table(&rows, rtt, &nic.describe()));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Demo { engine, rx_engine, paths, loss, cut, messages, msg_size, seed, timeout } => {
            if !(timeout > 0.0) {
                bail!("--timeout must be positive");
            }
            let tx = host_driver::cloudburst::encoder(&engine)?;
            let rx = host_driver::cloudburst::receiver(rx_engine.as_deref().unwrap_or(&engine))?;
            let cfg = host_driver::demo::DemoConfig { paths, loss, cut, msg_size, messages, seed, timeout: Duration::from_secs_f64(timeout) };
            let spin = indicatif::ProgressBar::new_spinner().with_finish(indicatif::ProgressFinish::AndClear);
            spin.set_message(format!("demo: {messages} message(s) of {msg_size} B over {paths} path(s)"));
            spin.enable_steady_tick(Duration::from_millis(120));
            let reports = host_driver::demo::run(tx, rx, &cfg);
            drop(spin);
            let reports = reports?;
            print!("{}", host_driver::demo::table(&reports, &cfg));
            let ok = reports.iter().filter(|r| r.verified).count();
            println!("{ok} of {} message(s) recovered and verified", reports.len());
            Ok(if ok == reports.len() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
    }
}

/// `cbnic decode`: every symbol's line, then one summary per message (standard error), each
/// delivered message written; the rules are `host_driver::stream`'s.
fn decode(engine: &str, input: &PathBuf, output: Option<&PathBuf>, out_dir: Option<&PathBuf>, symbol_size: Option<usize>) -> Result<ExitCode> {
    let e = Engine::parse(engine)?;
    let text = String::from_utf8(read_input(input)?).map_err(|_| anyhow!("{}: not UTF-8 text", input.display()))?;
    let parsed = symfile::parse(&input.display().to_string(), &text).map_err(|e| anyhow!(e))?;
    let packets: Vec<Vec<u8>> = parsed.iter().map(|p| p.packet.clone()).collect();
    let (r, s) = if e == Engine::Soft {
        let s = symbol_size.unwrap_or(DEFAULT_S);
        hdl::cblt::check_symbol_size(s).map_err(|e| anyhow!("--symbol-size: {e}"))?;
        (soft::decode(&packets, RxConfig { s, k_max: hdl::cblt::K_MAX })?, s)
    } else {
        let mut nic = FecNic::open(e.open()?)?;
        if let Some(s) = symbol_size.filter(|&s| s != nic.caps.s) {
            bail!("--symbol-size {s}: this NIC decodes S = {} bytes", nic.caps.s);
        }
        (nic.decode(&packets)?, nic.caps.s)
    };
    // the message on standard output: every status line goes to standard error
    let to_stdout = output.is_some_and(|o| o.as_os_str() == "-");
    let mut lines = String::new();
    for (p, o) in parsed.iter().zip(&r.packets) {
        let j = p.j.map(|j| j.to_string()).unwrap_or_else(|| "-".into());
        lines.push_str(&format!("line {} j={j}: {} rank={} known_mask={:#018x}\n", p.line, status_name(&o.status), o.rank, o.known_mask));
    }
    if to_stdout {
        eprint!("{lines}");
    } else {
        print!("{lines}");
    }
    if let Some(d) = out_dir {
        std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
    }
    let total = r.messages.len();
    let mut written = 0;
    for (i, m) in r.messages.iter().enumerate() {
        let h = &m.header;
        let what = format!("message {} of {total}: MSG_ID {}, k = {}, MSG_SIZE {}", i + 1, h.msg_id, h.k(), h.msg_size);
        let (Some(bytes), Some(rec), Some(at)) = (&m.bytes, &m.record, m.completed_at) else {
            eprintln!("{what}: incomplete, rank {} of {}, known_mask {:#018x}; nothing written", m.rank, h.k(), m.known_mask);
            continue;
        };
        let dest = match (out_dir, output) {
            (Some(d), _) => Some(d.join(format!("msg-{written}-id{}.bin", h.msg_id))),
            (None, Some(o)) if written == 0 => Some(o.clone()),
            _ => None,
        };
        if let Some(d) = &dest {
            write_output(d, bytes)?;
        }
        let to = match &dest {
            Some(d) if d.as_os_str() == "-" => "written to standard output".to_string(),
            Some(d) => format!("written to {}", d.display()),
            None => "not written (-o takes the first delivered message; --out-dir DIR writes each)".into(),
        };
        eprintln!(
            "{what}: delivered at line {} ({} symbols, {} redundant, {} invalid while open; {} after), STOP {}; {to}",
            parsed[at].line,
            rec.seen,
            rec.redundant,
            rec.invalid,
            m.after_complete,
            hdl::cblt::vectors::hex(&h.pack())
        );
        written += 1;
    }
    let invalid = r.packets.iter().filter(|o| matches!(o.status, hdl::cblt::decoder::Status::Invalid(_))).count();
    if total == 0 {
        eprintln!("no message: none of the {} symbols was valid for S = {}; nothing written", r.packets.len(), s);
    } else if invalid > 0 {
        eprintln!("{invalid} of {} symbols INVALID (dropped, nothing changed)", r.packets.len());
    }
    Ok(if r.all_delivered() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn main() -> ExitCode {
    // Ctrl-C or SIGTERM: no simulator mailbox may survive (the servers exit once it is gone)
    host_driver::sim::remove_mailboxes_on_signal();
    match run(Cli::parse()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cbnic: {e:#}");
            ExitCode::from(2)
        }
    }
}
