//! The CB-LT encoder RTL on rust-hdl and Verilator, a host-like driver that loads a message,
//! starts it and collects the coded symbols, and the replay of `testbench-vectors/cblt/`.
//!
//! Builds: `S = 16` at W = 32 (both engines), `S = 1460` at W = 32 and `S = 100` at W = 64 (a
//! symbol that ends inside a word) on Verilator. rust-hdl runs the S = 16 vectors only: its
//! 64-bit signals are bit vectors, too slow for 200 symbols of 1460 bytes.

use anyhow::{anyhow, bail, Context, Result};
use hdl::cblt::encoder::CodedSymbol;
use hdl::cblt::encoder_csr::{buffer_image, start_writes, words_per_symbol};
use hdl::cblt::encoder_rtl::LtEncoder;
use hdl::cblt::header::Header;
use hdl::cblt::encoder::Encoder;
use hdl::cblt::table::{DegreeTable, Profile};
use hdl::cycle::Rng;
use hdl::cblt::vectors::{hex, model_stream, sha256_hex, stream_digest, EncRecord, StreamSpec};
use hdl::vectors::{read_jsonl, Tally};
use rust_hdl::prelude::*;
use std::path::Path;

use crate::aqm::Engine;
use crate::verilator::VerilatedTop;

/// A file of `testbench-vectors/cblt/`.
pub fn vector_file(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testbench-vectors/cblt").join(name)
}

/// Inputs of one clock.
#[derive(Clone, Debug, Default)]
pub struct EncIn {
    pub cfg: Option<(u8, u32)>,
    /// Word address and the word as little-endian u32s.
    pub buf: Option<(u32, Vec<u32>)>,
    pub out_ready: bool,
}

/// Outputs of one clock (before its edge).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncOut {
    pub valid: bool,
    pub first: bool,
    pub last: bool,
    pub data: Vec<u32>,
    pub hdr: u32,
    pub bitset: u64,
    pub draws: u32,
    pub busy: bool,
    pub symbols: u32,
    pub cfg_rejected: u32,
    pub buf_rejected: u32,
    pub starts_refused: u32,
}

/// An encoder engine: drive one clock's inputs, read the outputs, clock.
pub trait EncoderIo {
    /// Symbol size and data-path width in bytes of this build.
    fn geometry(&self) -> (usize, usize, usize);
    fn step(&mut self, i: &EncIn) -> EncOut;
}

/// The builds the tests use: (S, W bits). S = 4 at W = 32 is a one-word symbol, the only
/// geometry where the payload engine forwards its accumulator write to the next read.
pub const BUILDS: [(usize, usize); 4] = [(16, 32), (1460, 32), (100, 64), (4, 32)];

/// An encoder of symbol size `s` at width `w` bits on `engine` (one of [`BUILDS`]).
pub fn encoder(engine: Engine, s: usize, w: usize) -> Result<Box<dyn EncoderIo>> {
    match (engine, s, w) {
        (Engine::Rusthdl, 16, 32) => Ok(Box::new(RustHdlEncoder::<32, 8, 2>::new(16)?)),
        (Engine::Verilator, 16, 32) => Ok(Box::new(VerilatorEncoder::new::<32, 8, 2>(16)?)),
        (Engine::Verilator, 1460, 32) => Ok(Box::new(VerilatorEncoder::new::<32, 15, 9>(1460)?)),
        (Engine::Verilator, 100, 64) => Ok(Box::new(VerilatorEncoder::new::<64, 10, 4>(100)?)),
        (Engine::Verilator, 4, 32) => Ok(Box::new(VerilatorEncoder::new::<32, 7, 1>(4)?)),
        // the small geometry (the Cu's NIC) and wider data paths for the cycles-per-symbol benchmark
        (Engine::Verilator, 64, 32) => Ok(Box::new(VerilatorEncoder::new::<32, 10, 4>(64)?)),
        (Engine::Verilator, 1460, 64) => Ok(Box::new(VerilatorEncoder::new::<64, 14, 8>(1460)?)),
        (Engine::Verilator, 1460, 128) => Ok(Box::new(VerilatorEncoder::new::<128, 13, 7>(1460)?)),
        _ => bail!("no {engine:?} build of the encoder for S = {s}, W = {w} (builds: {BUILDS:?}, and S = 64 at W = 32, S = 1460 at W = 64, 128 on Verilator; rust-hdl: S = 16 only)"),
    }
}

/// The Verilog of an encoder build.
pub fn encoder_verilog<const W: usize, const MA: usize, const SA: usize>(s: usize) -> String {
    let mut uut = LtEncoder::<W, MA, SA, 64>::new(s, 64);
    uut.connect_all();
    generate_verilog(&uut)
}

pub struct RustHdlEncoder<const W: usize, const MA: usize, const SA: usize> {
    uut: LtEncoder<W, MA, SA, 64>,
    s: usize,
}

impl<const W: usize, const MA: usize, const SA: usize> RustHdlEncoder<W, MA, SA> {
    pub fn new(s: usize) -> Result<Self> {
        assert!(W <= 64, "the rust-hdl driver moves words as u64");
        let mut uut = LtEncoder::<W, MA, SA, 64>::new(s, 64);
        uut.connect_all();
        uut.clock.next = Clock { clk: false };
        if !simulate(&mut uut, 1000) {
            bail!("rust-hdl simulation did not converge");
        }
        Ok(RustHdlEncoder { uut, s })
    }

    fn settle(&mut self) {
        assert!(simulate(&mut self.uut, 1000), "rust-hdl simulation did not converge");
    }
}

fn words_u64(w: &[u32]) -> u64 {
    w.first().copied().unwrap_or(0) as u64 | (w.get(1).copied().unwrap_or(0) as u64) << 32
}

impl<const W: usize, const MA: usize, const SA: usize> EncoderIo for RustHdlEncoder<W, MA, SA> {
    fn geometry(&self) -> (usize, usize, usize) {
        (self.s, W / 8, SA)
    }
    fn step(&mut self, i: &EncIn) -> EncOut {
        let u = &mut self.uut;
        u.clock.next = Clock { clk: false };
        u.cfg_we.next = i.cfg.is_some();
        let (a, d) = i.cfg.unwrap_or((0, 0));
        u.cfg_addr.next = (a as u64).into();
        u.cfg_wdata.next = (d as u64).into();
        u.buf_we.next = i.buf.is_some();
        let (ba, bw) = i.buf.clone().unwrap_or((0, vec![0]));
        u.buf_addr.next = (ba as u64).into();
        u.buf_wdata.next = words_u64(&bw).into();
        u.out_ready.next = i.out_ready;
        self.settle();
        let u = &self.uut;
        let data = u.out_data.val().to_u64();
        let o = EncOut {
            valid: u.out_valid.val(),
            first: u.out_first.val(),
            last: u.out_last.val(),
            data: if W > 32 { vec![data as u32, (data >> 32) as u32] } else { vec![data as u32] },
            hdr: u.out_hdr.val().to_u32(),
            bitset: u.out_bitset.val().to_u64(),
            draws: u.out_draws.val().to_u32(),
            busy: u.busy.val(),
            symbols: u.symbols.val().to_u32(),
            cfg_rejected: u.cfg_rejected.val().to_u32(),
            buf_rejected: u.buf_rejected.val().to_u32(),
            starts_refused: u.starts_refused.val().to_u32(),
        };
        self.uut.clock.next = Clock { clk: true };
        self.settle();
        self.uut.clock.next = Clock { clk: false };
        self.settle();
        o
    }
}

pub struct VerilatorEncoder {
    top: VerilatedTop,
    s: usize,
    wb: usize,
    sa: usize,
    p: EncPorts,
}

crate::named_ports!(EncPorts {
    cfg_we, cfg_addr, cfg_wdata, buf_we, buf_addr, buf_wdata, out_ready, out_valid, out_first, out_last, out_data,
    out_hdr, out_bitset, out_draws, busy, symbols, cfg_rejected, buf_rejected, starts_refused,
});

impl VerilatorEncoder {
    pub fn new<const W: usize, const MA: usize, const SA: usize>(s: usize) -> Result<Self> {
        let top = VerilatedTop::build(&format!("cblt-encoder-s{s}-w{W}"), &encoder_verilog::<W, MA, SA>(s))?;
        let p = EncPorts::find(&top)?;
        Ok(VerilatorEncoder { top, s, wb: W / 8, sa: SA, p })
    }
}

impl EncoderIo for VerilatorEncoder {
    fn geometry(&self) -> (usize, usize, usize) {
        (self.s, self.wb, self.sa)
    }
    fn step(&mut self, i: &EncIn) -> EncOut {
        let p = self.p;
        let t = &mut self.top;
        let (a, d) = i.cfg.unwrap_or((0, 0));
        t.set(p.cfg_we, i.cfg.is_some() as u64);
        t.set(p.cfg_addr, a as u64);
        t.set(p.cfg_wdata, d as u64);
        let (ba, bw) = i.buf.clone().unwrap_or((0, vec![0]));
        t.set(p.buf_we, i.buf.is_some() as u64);
        t.set(p.buf_addr, ba as u64);
        t.set_words(p.buf_wdata, &bw);
        t.set(p.out_ready, i.out_ready as u64);
        t.eval();
        let o = EncOut {
            valid: t.get(p.out_valid) != 0,
            first: t.get(p.out_first) != 0,
            last: t.get(p.out_last) != 0,
            data: t.get_words(p.out_data),
            hdr: t.get(p.out_hdr) as u32,
            bitset: t.get(p.out_bitset),
            draws: t.get(p.out_draws) as u32,
            busy: t.get(p.busy) != 0,
            symbols: t.get(p.symbols) as u32,
            cfg_rejected: t.get(p.cfg_rejected) as u32,
            buf_rejected: t.get(p.buf_rejected) as u32,
            starts_refused: t.get(p.starts_refused) as u32,
        };
        t.tick();
        o
    }
}

/// One symbol as the RTL sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtlSymbol {
    /// Header ‖ payload (12 + S bytes).
    pub bytes: Vec<u8>,
    /// PRNG draws of this symbol (from the running `out_draws`).
    pub draws: u32,
    /// Clock of the symbol's last beat, counted from the `CTRL` start write.
    pub done_at: u64,
}

/// What the host asks for.
#[derive(Clone, Debug)]
pub struct EncodeJob<'a> {
    pub msg: &'a [u8],
    pub msg_id: u8,
    pub seed: u32,
    pub table: DegreeTable,
    pub symbols: usize,
}

/// Assembles beats into symbols and checks the stream protocol (`out_first` on the first
/// beat, `out_last` on beat ⌈S/WB⌉, header steady within a symbol).
pub struct Collector {
    s: usize,
    wb: usize,
    wps: usize,
    beats: Vec<Vec<u32>>,
    hdr: (u32, u64),
    last_draws: u32,
    pub symbols: Vec<RtlSymbol>,
}

impl Collector {
    pub fn new(io: &dyn EncoderIo) -> Self {
        let (s, wb, _) = io.geometry();
        Collector { s, wb, wps: words_per_symbol(s, wb), beats: vec![], hdr: (0, 0), last_draws: 0, symbols: vec![] }
    }

    /// Take clock `c`'s outputs with the sink's `ready`.
    pub fn feed(&mut self, o: &EncOut, ready: bool, c: u64) -> Result<()> {
        if !(o.valid && ready) {
            return Ok(());
        }
        let n = self.symbols.len();
        if o.first != self.beats.is_empty() {
            bail!("symbol {n}: out_first is {} on beat {}", o.first, self.beats.len());
        }
        if self.beats.is_empty() {
            self.hdr = (o.hdr, o.bitset);
        } else if self.hdr != (o.hdr, o.bitset) {
            bail!("symbol {n}: the header changed within the symbol");
        }
        self.beats.push(o.data.clone());
        if o.last != (self.beats.len() == self.wps) {
            bail!("symbol {n}: out_last is {} on beat {} of {}", o.last, self.beats.len(), self.wps);
        }
        if o.last {
            let mut bytes = self.hdr.0.to_be_bytes().to_vec();
            bytes.extend_from_slice(&self.hdr.1.to_be_bytes());
            let wb = self.wb;
            bytes.extend(self.beats.iter().flat_map(|w| w.iter().flat_map(|x| x.to_le_bytes()).take(wb)).take(self.s));
            self.symbols.push(RtlSymbol { bytes, draws: o.draws - self.last_draws, done_at: c });
            self.last_draws = o.draws;
            self.beats.clear();
        }
        Ok(())
    }

    /// True between the beats of one symbol.
    pub fn mid_symbol(&self) -> bool {
        !self.beats.is_empty()
    }
}

/// Write the message into the buffer and the start sequence into the registers (one clock
/// each, sink ready).
pub fn start_job(io: &mut dyn EncoderIo, job: &EncodeJob) -> Result<()> {
    let (s, wb, sa) = io.geometry();
    let k = job.msg.len().div_ceil(s);
    for (addr, words) in buffer_image(job.msg, s, wb, sa) {
        io.step(&EncIn { buf: Some((addr, words)), out_ready: true, ..Default::default() });
    }
    for (a, d) in start_writes(k, job.msg.len(), job.msg_id, job.seed, &job.table, job.symbols as u32) {
        if io.step(&EncIn { cfg: Some((a, d)), out_ready: true, ..Default::default() }).valid {
            bail!("the encoder sent a beat before it was started");
        }
    }
    Ok(())
}

/// Load the message, start it with a symbol limit, and collect every symbol; `ready(c)` is
/// the sink's `out_ready` on clock c. Fails on a protocol error or when the encoder stalls.
pub fn run_job(io: &mut dyn EncoderIo, job: &EncodeJob, mut ready: impl FnMut(u64) -> bool) -> Result<Vec<RtlSymbol>> {
    start_job(io, job)?;
    let (s, wb, _) = io.geometry();
    let k = job.msg.len().div_ceil(s);
    // clocks the sink was ready: a stalled sink stalls the encoder, so only these count
    let budget = 1000 + job.symbols as u64 * (k * words_per_symbol(s, wb) + 400) as u64 * 4;
    let (mut col, mut ready_clocks) = (Collector::new(io), 0);
    for c in 0.. {
        if ready_clocks == budget {
            break;
        }
        let r = ready(c);
        ready_clocks += r as u64;
        let o = io.step(&EncIn { out_ready: r, ..Default::default() });
        if c > 0 && !o.busy && !o.valid {
            let got = col.symbols.len();
            if got != job.symbols || o.symbols as usize != got || col.mid_symbol() {
                bail!("the encoder went idle after {got} symbols (counter {}), {} asked", o.symbols, job.symbols);
            }
            return Ok(col.symbols);
        }
        col.feed(&o, r, c)?;
    }
    bail!("the encoder did not finish {} symbols in {budget} clocks with the sink ready ({} sent)", job.symbols, col.symbols.len())
}

/// The software encoder's stream for a job (the expectation the RTL is compared with).
pub fn model_symbols(job: &EncodeJob, s: usize) -> Result<Vec<CodedSymbol>> {
    let mut e = Encoder::new(job.msg, s, job.msg_id, job.seed, job.table.clone())?;
    Ok((0..job.symbols).map(|_| e.next_symbol()).collect())
}

/// Compare RTL symbols with the software encoder's; every difference named.
pub fn compare(name: &str, rtl: &[RtlSymbol], model: &[CodedSymbol], tally: &mut Tally) {
    for (j, (r, m)) in rtl.iter().zip(model).enumerate() {
        let want = m.to_bytes();
        tally.check(r.bytes == want, || {
            let at = r.bytes.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
            format!("{name} j={j}: first differing byte {at} (RTL {} model {})", hex(&r.bytes[..12.min(r.bytes.len())]), hex(&want[..12]))
        });
        tally.check(r.draws == m.draws, || format!("{name} j={j}: {} PRNG draws, the model {}", r.draws, m.draws));
    }
    tally.check(rtl.len() == model.len(), || format!("{name}: {} symbols, the model {}", rtl.len(), model.len()));
}

/// The sink's `out_ready` in vector replays: ready except every 7th clock, so holds are covered.
pub fn replay_ready(c: u64) -> bool {
    c % 7 != 3
}

/// Replay one encoder vector file: the expectations are the file's, the stream the engine's
/// (`Engine::Model` runs the software encoder, checking that the file matches the codec).
pub fn replay_encoder_file(file: &Path, engine: Engine) -> Result<Tally> {
    let recs = read_jsonl::<EncRecord>(file)?;
    let mut tally = Tally::default();
    let mut builds: Vec<(usize, Box<dyn EncoderIo>)> = vec![];
    let mut i = 0;
    while i < recs.len() {
        let EncRecord::Message(StreamSpec { name, s, msg_id, seed, table, message, message_sha256, symbols }) = &recs[i].item else {
            i += 1;
            continue;
        };
        let at = format!("{}:{}", file.display(), recs[i].line);
        let msg = message.checked_bytes(message_sha256).map_err(|e| anyhow!("{at}: {e}"))?;
        let model = model_stream(&msg, *s, *msg_id, *seed, table, *symbols).map_err(|e| anyhow!("{at}: {e}"))?;
        let got: Vec<(Vec<u8>, u32)> = if engine == Engine::Model {
            model.iter().map(|c| (c.to_bytes(), c.draws)).collect()
        } else {
            if !builds.iter().any(|(bs, _)| bs == s) {
                builds.push((*s, encoder(engine, *s, 32).with_context(|| at.clone())?));
            }
            let io = &mut builds.iter_mut().find(|(bs, _)| bs == s).unwrap().1;
            let t = DegreeTable::from_entries(table).map_err(|e| anyhow!("{at}: {e}"))?;
            let job = EncodeJob { msg: &msg, msg_id: *msg_id, seed: *seed, table: t, symbols: *symbols };
            let rtl = run_job(io.as_mut(), &job, replay_ready).with_context(|| format!("{at} ({name})"))?;
            rtl.into_iter().map(|r| (r.bytes, r.draws)).collect()
        };
        i += 1;
        while i < recs.len() && !matches!(recs[i].item, EncRecord::Message(_) | EncRecord::Note { .. }) {
            let at = format!("{}:{} ({name})", file.display(), recs[i].line);
            match &recs[i].item {
                EncRecord::Symbol { j, header, degree, draws, payload, payload_sha256 } => {
                    let Some((bytes, d)) = got.get(*j) else {
                        tally.check(false, || format!("{at}: no symbol {j}"));
                        i += 1;
                        continue;
                    };
                    let h = Header::parse(&bytes[..12]).map_err(|e| anyhow!("{at}: {}", e.as_str()))?;
                    let pay = &bytes[12..];
                    let mut bad = vec![];
                    if hex(&bytes[..12]) != *header {
                        bad.push(format!("header {} expected {header}", hex(&bytes[..12])));
                    }
                    if h.bitset.count_ones() as usize != *degree || *d != *draws {
                        bad.push(format!("degree {} draws {d}, expected {degree} and {draws}", h.bitset.count_ones()));
                    }
                    if payload.as_ref().is_some_and(|p| hex(pay) != *p) || payload_sha256.as_ref().is_some_and(|p| sha256_hex(pay) != *p) {
                        bad.push("payload differs".into());
                    }
                    tally.check(bad.is_empty(), || format!("{at}: j={j}: {}", bad.join("; ")));
                }
                EncRecord::Digest { symbols: n, sha256 } => {
                    let syms: Vec<CodedSymbol> = got
                        .iter()
                        .take(*n)
                        .map(|(b, _)| {
                            let h = Header::parse(&b[..12]).expect("checked above");
                            CodedSymbol { header: h, payload: b[12..].to_vec(), degree: 0, draws: 0 }
                        })
                        .collect();
                    tally.check(stream_digest(&syms) == *sha256, || format!("{at}: the {n}-symbol stream digest differs"));
                }
                _ => {}
            }
            i += 1;
        }
    }
    Ok(tally)
}

/// A random decodable table for k: the default, uniform 1..5, or a fixed odd degree (the
/// default where that one can never decode at k).
fn random_table(r: &mut Rng, k: usize) -> DegreeTable {
    let t = match r.below(4) {
        0 => Profile::Uniform1To5.table(k).unwrap(),
        1 => Profile::Fixed(1 + 2 * r.below(3) as usize).table(k).unwrap(),
        _ => DegreeTable::default_for(k).unwrap(),
    };
    if t.validate(k).is_ok() {
        t
    } else {
        DegreeTable::default_for(k).unwrap()
    }
}

/// Differential fuzz on Verilator: `jobs_per_build[b]` random messages on build `BUILDS[b]`
/// (one engine instance per build, reused across messages): k ∈ 1..=64 (1 and 64 often),
/// random size within k, bytes, MSG_ID, seed and table, 1..40 symbols (1..6 at S = 1460), and
/// a sink ready 100, 95, 50 or 10 % of clocks. Returns the symbols compared; the error names
/// the seed and the job.
pub fn fuzz_encoder(seed: u64, jobs_per_build: [usize; 4]) -> Result<usize> {
    let mut r = Rng::new(seed);
    let mut compared = 0;
    for (&(s, w), &jobs) in BUILDS.iter().zip(&jobs_per_build) {
        let mut io = encoder(Engine::Verilator, s, w)?;
        for n in 0..jobs {
            let k = match r.below(6) {
                0 => 1,
                1 => 64,
                _ => 1 + r.below(64) as usize,
            };
            let size = (k - 1) * s + 1 + r.below(s as u64) as usize;
            let msg: Vec<u8> = (0..size).map(|_| r.next() as u8).collect();
            let max_syms = if s > 1000 { 6 } else { 40 };
            let job = EncodeJob {
                msg: &msg,
                msg_id: r.next() as u8,
                seed: (r.next() as u32).max(1),
                table: random_table(&mut r, k),
                symbols: 1 + r.below(max_syms) as usize,
            };
            let p = [100, 95, 50, 10][r.below(4) as usize];
            let mut rr = Rng::new(r.next());
            let what = format!("fuzz seed {seed} S={s} W={w} job {n}: k={k} size={size} seed={:#x} p_ready={p}", job.seed);
            let rtl = run_job(io.as_mut(), &job, |_| rr.chance(p)).with_context(|| what.clone())?;
            let mut t = Tally::default();
            compare(&what, &rtl, &model_symbols(&job, s)?, &mut t);
            if t.failed > 0 {
                bail!("{}", t.failures.join("\n"));
            }
            compared += rtl.len();
        }
    }
    Ok(compared)
}
