//! The CB-LT decoder RTL on rust-hdl and Verilator, a NIC-like driver that frames UDP payloads
//! into beats and collects results, messages and records, the replay of the decoder vectors,
//! and the differential fuzz against the golden model (`hdl::cblt::receiver::Receiver`).
//!
//! Builds (S, W, k_max): S = 16 at W = 32 on both engines (rust-hdl's 64-bit signals are bit
//! vectors, too slow for S = 1460), and on Verilator S = 1460 at W = 32, S = 100 at W = 64 (a
//! row ends inside a word), S = 16 with k_max = 8 (messages above the core's rows), and
//! S = 1460 at W = 64 and 128 for the benchmark.

use anyhow::{anyhow, bail, Result};
use hdl::cblt::decoder::Status;
use hdl::cblt::decoder_rtl::LtDecoder;
use hdl::cblt::decoder_vectors::DecoderEngine;
use hdl::cblt::stimulus::{interleave, random_message, Kind};
use hdl::cblt::receiver::{Receiver, RxCounts, RxRecord};
use hdl::cblt::header::Header;
use hdl::cblt::HEADER_LEN;
use rust_hdl::prelude::*;

use crate::aqm::Engine;
use crate::verilator::{PortId, VerilatedTop};

/// One input beat: a payload word, with the packet's length and header beside it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Beat {
    pub last: bool,
    /// Little-endian u32s of the W-bit word.
    pub data: Vec<u32>,
    pub len: u16,
    pub hdr: u32,
    pub bitset: u64,
}

/// Inputs of one clock.
#[derive(Clone, Debug, Default)]
pub struct DecIn {
    pub beat: Option<Beat>,
    pub msg_ready: bool,
    pub rec_ready: bool,
    pub tick: bool,
    pub idle_limit: u16,
    pub clear: bool,
}

/// A symbol's result (`res_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecResult {
    pub status: u8,
    pub reason: u8,
    pub rank: usize,
    pub known: u64,
    pub hdr: u32,
}

/// Outputs of one clock (before its edge).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecOut {
    pub in_ready: bool,
    pub res: Option<DecResult>,
    /// (data words, valid bytes, last) of a message beat.
    pub msg: Option<(Vec<u32>, usize, bool)>,
    pub rec: Option<RxRecord>,
    pub busy: bool,
    pub ctx_open: bool,
    pub ctx_rank: usize,
    pub ctx_known: u64,
    pub counters: [u64; 8],
}

/// A decoder engine: drive one clock's inputs, read the outputs, clock.
pub trait DecoderIo {
    /// (S, W/8, k_max) of this build.
    fn geometry(&self) -> (usize, usize, usize);
    fn step(&mut self, i: &DecIn) -> DecOut;
}

/// The builds the tests use: (S, W bits, k_max). S = 4 and 8 at W = 32 are rows of one and two
/// words, where consecutive passes read the words the write stages still hold.
pub const BUILDS: [(usize, usize, usize); 6] = [(16, 32, 64), (1460, 32, 64), (100, 64, 64), (16, 32, 8), (4, 32, 16), (8, 32, 16)];

/// A decoder build on `engine`.
pub fn decoder(engine: Engine, s: usize, w: usize, k_max: usize) -> Result<Box<dyn DecoderIo>> {
    match (engine, s, w, k_max) {
        (Engine::Rusthdl, 16, 32, 64) => Ok(Box::new(RustHdlDecoder::<32, 8, 2, 64>::new(16, 64)?)),
        (Engine::Verilator, 16, 32, 64) => Ok(Box::new(VerilatorDecoder::new::<32, 8, 2, 64>(16, 64)?)),
        (Engine::Verilator, 16, 32, 8) => Ok(Box::new(VerilatorDecoder::new::<32, 5, 2, 8>(16, 8)?)),
        (Engine::Verilator, 4, 32, 16) => Ok(Box::new(VerilatorDecoder::new::<32, 5, 1, 16>(4, 16)?)),
        (Engine::Verilator, 8, 32, 16) => Ok(Box::new(VerilatorDecoder::new::<32, 5, 1, 16>(8, 16)?)),
        (Engine::Verilator, 1460, 32, 64) => Ok(Box::new(VerilatorDecoder::new::<32, 15, 9, 64>(1460, 64)?)),
        (Engine::Verilator, 100, 64, 64) => Ok(Box::new(VerilatorDecoder::new::<64, 10, 4, 64>(100, 64)?)),
        (Engine::Verilator, 1460, 64, 64) => Ok(Box::new(VerilatorDecoder::new::<64, 14, 8, 64>(1460, 64)?)),
        (Engine::Verilator, 1460, 128, 64) => Ok(Box::new(VerilatorDecoder::new::<128, 13, 7, 64>(1460, 64)?)),
        _ => bail!(
            "no {engine:?} build of the decoder for S = {s}, W = {w}, k_max = {k_max} (builds: {BUILDS:?} and S = 1460 at W = 64, 128 on Verilator; rust-hdl: S = 16 only)"
        ),
    }
}

/// The Verilog of a decoder build (masks of KM ≥ k_max bits).
pub fn decoder_verilog<const W: usize, const RA: usize, const SA: usize, const KM: usize>(s: usize, k_max: usize) -> String {
    let mut uut = LtDecoder::<W, RA, SA, KM>::new(s, k_max);
    uut.connect_all();
    generate_verilog(&uut)
}

fn words_u128(w: &[u32]) -> u128 {
    w.iter().enumerate().fold(0u128, |a, (i, x)| a | (*x as u128) << (32 * i))
}

pub struct RustHdlDecoder<const W: usize, const RA: usize, const SA: usize, const KM: usize> {
    uut: LtDecoder<W, RA, SA, KM>,
    s: usize,
    k_max: usize,
}

impl<const W: usize, const RA: usize, const SA: usize, const KM: usize> RustHdlDecoder<W, RA, SA, KM> {
    pub fn new(s: usize, k_max: usize) -> Result<Self> {
        assert!(W <= 64, "the rust-hdl driver moves words as u64");
        let mut uut = LtDecoder::<W, RA, SA, KM>::new(s, k_max);
        uut.connect_all();
        uut.clock.next = Clock { clk: false };
        if !simulate(&mut uut, 1000) {
            bail!("rust-hdl simulation did not converge");
        }
        Ok(RustHdlDecoder { uut, s, k_max })
    }
    fn settle(&mut self) {
        assert!(simulate(&mut self.uut, 1000), "rust-hdl simulation did not converge");
    }
}

impl<const W: usize, const RA: usize, const SA: usize, const KM: usize> DecoderIo for RustHdlDecoder<W, RA, SA, KM> {
    fn geometry(&self) -> (usize, usize, usize) {
        (self.s, W / 8, self.k_max)
    }
    fn step(&mut self, i: &DecIn) -> DecOut {
        let u = &mut self.uut;
        u.clock.next = Clock { clk: false };
        let b = i.beat.clone().unwrap_or_default();
        u.in_valid.next = i.beat.is_some();
        u.in_last.next = b.last;
        u.in_data.next = (words_u128(&b.data) as u64).into();
        u.in_len.next = (b.len as u64).into();
        u.in_hdr.next = (b.hdr as u64).into();
        u.in_bitset.next = b.bitset.into();
        u.msg_ready.next = i.msg_ready;
        u.rec_ready.next = i.rec_ready;
        u.tick.next = i.tick;
        u.idle_limit.next = (i.idle_limit as u64).into();
        u.clear.next = i.clear;
        self.settle();
        let u = &self.uut;
        let split = |v: u64| if W > 32 { vec![v as u32, (v >> 32) as u32] } else { vec![v as u32] };
        let o = DecOut {
            in_ready: u.in_ready.val(),
            res: u.res_valid.val().then(|| DecResult {
                status: u.res_status.val().to_u64() as u8,
                reason: u.res_reason.val().to_u64() as u8,
                rank: u.res_rank.val().to_u64() as usize,
                known: u.res_known.val().to_u64(),
                hdr: u.res_hdr.val().to_u32(),
            }),
            msg: u.msg_valid.val().then(|| (split(u.msg_data.val().to_u64()), u.msg_bytes.val().to_u64() as usize, u.msg_last.val())),
            rec: u.rec_valid.val().then(|| {
                record(
                    u.rec_failed.val(),
                    u.rec_hdr.val().to_u32(),
                    u.rec_rank.val().to_u64(),
                    u.rec_known.val().to_u64(),
                    [u.rec_seen.val().to_u64(), u.rec_redundant.val().to_u64(), u.rec_invalid.val().to_u64()],
                )
            }),
            busy: u.busy.val(),
            ctx_open: u.ctx_open.val(),
            ctx_rank: u.ctx_rank.val().to_u64() as usize,
            ctx_known: u.ctx_known.val().to_u64(),
            counters: u.counters(),
        };
        self.uut.clock.next = Clock { clk: true };
        self.settle();
        self.uut.clock.next = Clock { clk: false };
        self.settle();
        o
    }
}

fn parse_hdr(w0: u32) -> Header {
    Header { npkt: (w0 >> 26) as u8, msg_size: (w0 >> 8) & 0x3_FFFF, msg_id: w0 as u8, bitset: 0 }
}

fn record(failed: bool, hdr: u32, rank: u64, known: u64, c: [u64; 3]) -> RxRecord {
    RxRecord { failed, header: parse_hdr(hdr), rank: rank as usize, known_mask: known, seen: c[0], redundant: c[1], invalid: c[2] }
}

pub struct VerilatorDecoder {
    top: VerilatedTop,
    geo: (usize, usize, usize),
    p: DecPorts,
}

crate::named_ports!(DecPorts {
    in_valid, in_last, in_data, in_len, in_hdr, in_bitset, msg_ready, rec_ready, tick, idle_limit, clear, in_ready,
    res_valid, res_status, res_reason, res_rank, res_known, res_hdr, msg_valid, msg_data, msg_bytes, msg_last,
    rec_valid, rec_failed, rec_hdr, rec_rank, rec_known, rec_seen, rec_redundant, rec_invalid, busy, ctx_open,
    ctx_rank, ctx_known, cnt_symbols, cnt_invalid, cnt_framing, cnt_redundant, cnt_innovative, cnt_after_complete,
    cnt_complete, cnt_failed,
});

impl VerilatorDecoder {
    pub fn new<const W: usize, const RA: usize, const SA: usize, const KM: usize>(s: usize, k_max: usize) -> Result<Self> {
        let top = VerilatedTop::build(&format!("cblt-decoder-s{s}-w{W}-k{k_max}"), &decoder_verilog::<W, RA, SA, KM>(s, k_max))?;
        let p = DecPorts::find(&top)?;
        Ok(VerilatorDecoder { top, geo: (s, W / 8, k_max), p })
    }
}

impl DecoderIo for VerilatorDecoder {
    fn geometry(&self) -> (usize, usize, usize) {
        self.geo
    }
    fn step(&mut self, i: &DecIn) -> DecOut {
        let p = self.p;
        let t = &mut self.top;
        let b = i.beat.clone().unwrap_or_default();
        t.set(p.in_valid, i.beat.is_some() as u64);
        t.set(p.in_last, b.last as u64);
        let words = if b.data.is_empty() { vec![0] } else { b.data.clone() };
        t.set_words(p.in_data, &words);
        t.set(p.in_len, b.len as u64);
        t.set(p.in_hdr, b.hdr as u64);
        t.set(p.in_bitset, b.bitset);
        t.set(p.msg_ready, i.msg_ready as u64);
        t.set(p.rec_ready, i.rec_ready as u64);
        t.set(p.tick, i.tick as u64);
        t.set(p.idle_limit, i.idle_limit as u64);
        t.set(p.clear, i.clear as u64);
        t.eval();
        let g = |k: PortId| t.get(k);
        let o = DecOut {
            in_ready: g(p.in_ready) != 0,
            res: (g(p.res_valid) != 0).then(|| DecResult {
                status: g(p.res_status) as u8,
                reason: g(p.res_reason) as u8,
                rank: g(p.res_rank) as usize,
                known: g(p.res_known),
                hdr: g(p.res_hdr) as u32,
            }),
            msg: (g(p.msg_valid) != 0).then(|| (t.get_words(p.msg_data), g(p.msg_bytes) as usize, g(p.msg_last) != 0)),
            rec: (g(p.rec_valid) != 0).then(|| {
                record(g(p.rec_failed) != 0, g(p.rec_hdr) as u32, g(p.rec_rank), g(p.rec_known), [g(p.rec_seen), g(p.rec_redundant), g(p.rec_invalid)])
            }),
            busy: g(p.busy) != 0,
            ctx_open: g(p.ctx_open) != 0,
            ctx_rank: g(p.ctx_rank) as usize,
            ctx_known: g(p.ctx_known),
            counters: [
                g(p.cnt_symbols),
                g(p.cnt_invalid),
                g(p.cnt_framing),
                g(p.cnt_redundant),
                g(p.cnt_innovative),
                g(p.cnt_after_complete),
                g(p.cnt_complete),
                g(p.cnt_failed),
            ],
        };
        t.tick();
        o
    }
}

/// How the driver's neighbours behave: the chance (‰) of an input gap and of a stalled
/// message / record sink on a clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stalls {
    pub in_gap: u32,
    pub msg_stall: u32,
    pub rec_stall: u32,
}

/// Drives a decoder like a NIC receive path: frames packets into beats, keeps `idle_limit`,
/// collects results, delivered messages and records, and fails instead of hanging.
pub struct RxDriver {
    pub io: Box<dyn DecoderIo>,
    pub idle_limit: u16,
    pub stalls: Stalls,
    rng: hdl::cycle::Rng,
    /// Clocks stepped so far, and the clock of the last result.
    pub clock: u64,
    pub res_at: u64,
    pub messages: Vec<Vec<u8>>,
    pub records: Vec<RxRecord>,
    msg_acc: Vec<u8>,
    /// The outputs of the last clock.
    pub last: DecOut,
}

impl RxDriver {
    pub fn new(io: Box<dyn DecoderIo>, seed: u64) -> Self {
        RxDriver {
            io,
            idle_limit: 0,
            stalls: Stalls::default(),
            rng: hdl::cycle::Rng::new(seed),
            clock: 0,
            res_at: 0,
            messages: vec![],
            records: vec![],
            msg_acc: vec![],
            last: DecOut::default(),
        }
    }

    fn chance(&mut self, permille: u32) -> bool {
        permille > 0 && self.rng.below(1000) < permille as u64
    }

    /// One clock with a beat (or none); returns whether the beat was taken.
    fn clock_once(&mut self, beat: Option<&Beat>, tick: bool, clear: bool) -> Result<bool> {
        let msg_ready = !self.chance(self.stalls.msg_stall);
        let rec_ready = !self.chance(self.stalls.rec_stall);
        let i = DecIn { beat: beat.cloned(), msg_ready, rec_ready, tick, idle_limit: self.idle_limit, clear };
        let o = self.io.step(&i);
        self.clock += 1;
        if let (Some((words, n, last)), true) = (&o.msg, msg_ready) {
            let wb = self.io.geometry().1;
            if *n == 0 || *n > wb {
                bail!("msg_bytes = {n} outside 1..={wb}");
            }
            self.msg_acc.extend(words.iter().flat_map(|w| w.to_le_bytes()).take(*n));
            if *last {
                self.messages.push(std::mem::take(&mut self.msg_acc));
            }
        }
        if let (Some(r), true) = (&o.rec, rec_ready) {
            self.records.push(r.clone());
        }
        if o.res.is_some() {
            self.res_at = self.clock;
        }
        let taken = beat.is_some() && o.in_ready;
        self.last = o;
        Ok(taken)
    }

    /// Step until the core is idle (results of a finished packet, readout, records, ticks).
    fn settle(&mut self, budget: u64) -> Result<Option<DecResult>> {
        let mut res = None;
        for _ in 0..budget {
            self.clock_once(None, false, false)?;
            if let Some(r) = self.last.res {
                res = Some(r);
            }
            if !self.last.busy {
                return Ok(res);
            }
        }
        bail!("the decoder stayed busy for {budget} clocks")
    }

    fn budget(&self) -> u64 {
        let (s, wb, _) = self.io.geometry();
        // worst case: 64 touched rows, 64 back-eliminations and a full readout, all stalled
        let words = s.div_ceil(wb) as u64;
        (2000 + 200 * words * 64) * if self.stalls.msg_stall + self.stalls.rec_stall > 0 { 20 } else { 1 }
    }

    /// Push raw beats (one packet as the NIC framed it) and wait for its result.
    pub fn push_beats(&mut self, beats: &[Beat]) -> Result<DecResult> {
        let budget = self.budget();
        let mut res = None;
        let (mut k, mut spent) = (0, 0u64);
        while k < beats.len() {
            spent += 1;
            if spent > budget {
                bail!("the decoder took {k} of {} beats in {budget} clocks", beats.len());
            }
            let gap = self.chance(self.stalls.in_gap);
            if self.clock_once((!gap).then(|| &beats[k]), false, false)? {
                k += 1;
            }
            if let Some(r) = self.last.res {
                if res.replace(r).is_some() {
                    bail!("two results for one packet");
                }
            }
        }
        if let Some(r) = self.settle(budget)? {
            if res.replace(r).is_some() {
                bail!("two results for one packet");
            }
        }
        res.ok_or_else(|| anyhow!("no result for a packet of {} beats", beats.len()))
    }

    /// Push a UDP payload (header ‖ payload) framed as the NIC would.
    pub fn push(&mut self, packet: &[u8]) -> Result<DecResult> {
        let beats = frame(packet, self.io.geometry().1);
        self.push_beats(&beats)
    }

    /// One tick of the idle timer, processed.
    pub fn tick(&mut self) -> Result<()> {
        self.clock_once(None, true, false)?;
        let b = self.budget();
        self.settle(b)?;
        Ok(())
    }

    /// Forget the context and the tombstone.
    pub fn clear(&mut self) -> Result<()> {
        self.clock_once(None, false, true)?;
        self.msg_acc.clear();
        self.settle(10)?;
        Ok(())
    }
}

/// Frame a UDP payload into beats: the length, W0 and bitset (zero-filled when the packet is
/// shorter) beside the first beat, the payload after the 12-byte header in W/8-byte words,
/// at least one beat.
pub fn frame(packet: &[u8], wb: usize) -> Vec<Beat> {
    let mut h = [0u8; HEADER_LEN];
    let n = packet.len().min(HEADER_LEN);
    h[..n].copy_from_slice(&packet[..n]);
    let hdr = u32::from_be_bytes(h[..4].try_into().unwrap());
    let bitset = u64::from_be_bytes(h[4..].try_into().unwrap());
    let payload = &packet[n..];
    let chunks: Vec<&[u8]> = if payload.is_empty() { vec![&[]] } else { payload.chunks(wb).collect() };
    let nb = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let mut bytes = c.to_vec();
            bytes.resize(wb.max(4), 0);
            Beat {
                last: i + 1 == nb,
                data: bytes.chunks(4).map(|q| u32::from_le_bytes(q.try_into().unwrap())).collect(),
                len: packet.len().min(u16::MAX as usize) as u16,
                hdr,
                bitset,
            }
        })
        .collect()
}

/// A status letter from `res_status`.
pub fn letter(code: u8) -> char {
    match code {
        0 => 'X',
        1 => 'R',
        2 => 'I',
        3 => 'C',
        4 => 'A',
        _ => '?',
    }
}

/// The model's result as the RTL reports it: (status, reason, rank, known_mask).
pub fn model_result(r: &hdl::cblt::receiver::RxResult) -> (u8, u8, usize, u64) {
    let reason = match r.status {
        Status::Invalid(w) => w.code(),
        _ => 0,
    };
    (r.status.code(), reason, r.rank, r.known_mask)
}

/// The RTL as a [`DecoderEngine`] for the vector replay.
pub struct RtlDecoderEngine {
    pub drv: RxDriver,
}

impl DecoderEngine for RtlDecoderEngine {
    fn reset(&mut self, s: usize) -> Result<(), String> {
        let geo = self.drv.io.geometry();
        if geo.0 != s {
            return Err(format!("this build decodes S = {}, the file asks for S = {s}", geo.0));
        }
        self.drv.clear().map_err(|e| e.to_string())?;
        self.drv.messages.clear();
        self.drv.records.clear();
        Ok(())
    }
    fn push(&mut self, packet: &[u8]) -> Result<(char, usize, u64), String> {
        let r = self.drv.push(packet).map_err(|e| e.to_string())?;
        Ok((letter(r.status), r.rank, r.known))
    }
    fn done(&mut self) -> Result<(bool, usize, u64, Option<Vec<u8>>), String> {
        let m = self.drv.messages.last().cloned();
        let o = &self.drv.last;
        Ok((m.is_some(), o.ctx_rank, o.ctx_known, m))
    }
}

/// Counters as the RTL orders them, from the model's.
pub fn model_counters(c: &RxCounts, framing: u64) -> [u64; 8] {
    [c.symbols + framing, c.invalid + framing, framing, c.redundant, c.innovative, c.after_complete, c.complete, c.failed]
}

/// The model for a build.
pub fn model_for(io: &dyn DecoderIo, idle_limit: u16) -> Receiver {
    let (s, _, k_max) = io.geometry();
    Receiver::new(s, k_max, idle_limit as u32).expect("builds have valid geometry")
}

/// Replay one decoder vector file on `engine` (the model: the software decoder; the RTL: the
/// W = 32 build of the file's S). `None`: skipped, as rust-hdl runs S = 16 only.
pub fn replay_decoder_file(file: &std::path::Path, engine: Engine) -> Result<Option<hdl::vectors::Tally>> {
    use hdl::cblt::decoder_vectors::{replay, DecRecord, ModelDecoder};
    let recs = hdl::vectors::read_jsonl::<DecRecord>(file)?;
    let name = file.display().to_string();
    if engine == Engine::Model {
        return replay(&name, &recs, &mut ModelDecoder::default()).map(Some).map_err(|e| anyhow!(e));
    }
    let s = recs
        .iter()
        .find_map(|r| match r.item {
            DecRecord::Reset { s } => Some(s),
            _ => None,
        })
        .ok_or_else(|| anyhow!("{name}: no reset record"))?;
    if engine == Engine::Rusthdl && s != 16 {
        eprintln!("{name}: skipped on rust-hdl, which runs the S = 16 decoder only (too slow at S = {s})");
        return Ok(None);
    }
    let mut eng = RtlDecoderEngine { drv: RxDriver::new(decoder(engine, s, 32, 64)?, 1) };
    replay(&name, &recs, &mut eng).map(Some).map_err(|e| anyhow!(e))
}

/// A malformed or foreign variant of a valid symbol packet `p` of a message of `k` symbols
/// (each kind of §6.3, a random header, or corrupted payload bytes, which are valid).
fn mutate(r: &mut hdl::cycle::Rng, p: &[u8], k: usize, s: usize) -> Vec<u8> {
    let mut q = p.to_vec();
    match r.below(10) {
        0 => return Kind::Truncated.apply(p, k, s, r),
        // any length up to 2S + 13 (sometimes the right one)
        1 => q.resize(HEADER_LEN + r.below(2 * s as u64 + 2) as usize, 0xA5),
        2 => return Kind::MsgSizeZero.apply(p, k, s, r),
        3 => return Kind::MsgSizeTooLarge.apply(p, k, s, r),
        4 => return Kind::NpktMismatch.apply(p, k, s, r),
        5 => return Kind::EmptyBitset.apply(p, k, s, r),
        6 if k < 64 => return Kind::BitsetBeyondK.apply(p, k, s, r),
        // a random W0
        7 => q[..4].copy_from_slice(&(r.next() as u32).to_be_bytes()),
        8 => q.iter_mut().for_each(|b| *b = r.next() as u8),
        _ => {
            let i = HEADER_LEN + r.below(s as u64) as usize;
            q[i] ^= 1 << r.below(8);
        }
    }
    q
}

/// One fuzz scenario's symbol stream: 1..3 messages (an ID sometimes reused), each with loss,
/// duplicates, local reordering and mutated packets, sometimes interleaved.
fn scenario(r: &mut hdl::cycle::Rng, s: usize, k_max: usize, max_msgs: u64) -> Vec<Option<Vec<u8>>> {
    use hdl::cblt::encoder::Encoder;
    let mut streams: Vec<Vec<Option<Vec<u8>>>> = vec![];
    let base_id = r.next() as u8;
    for m in 0..1 + r.below(max_msgs) {
        let msg = random_message(r, s, k_max);
        let k = msg.len().div_ceil(s);
        let id = if r.chance(20) { base_id } else { base_id.wrapping_add(m as u8) };
        let mut e = Encoder::with_default_table(&msg, s, id, (r.next() as u32).max(1)).expect("valid job");
        let n = k + r.below(k as u64 + 12) as usize;
        let (loss, dup, bad) = (r.below(60), r.below(15), r.below(15));
        let mut out: Vec<Option<Vec<u8>>> = vec![];
        for _ in 0..n {
            let p = e.next_symbol().to_bytes();
            if r.chance(bad) {
                out.push(Some(mutate(r, &p, k, s)));
            }
            if r.chance(loss) {
                continue;
            }
            if r.chance(dup) {
                out.push(Some(p.clone()));
            }
            out.push(Some(p));
            if r.chance(3) {
                out.push(None); // an idle-timer tick
            }
        }
        // local reordering: swap neighbours within a window of 4
        for i in 0..out.len() {
            if r.chance(20) {
                let j = (i + 1 + r.below(3) as usize).min(out.len() - 1);
                out.swap(i, j);
            }
        }
        streams.push(out);
    }
    // messages one after the other, or two of them interleaved
    if streams.len() >= 2 && r.chance(30) {
        let b = streams.pop().unwrap();
        let a = streams.pop().unwrap();
        streams.push(interleave(r, a, b));
    }
    streams.concat()
}

/// What a fuzz run covered.
#[derive(Clone, Copy, Debug, Default)]
pub struct DecFuzzStats {
    pub packets: u64,
    pub delivered: u64,
    pub failed: u64,
    pub clocks: u64,
}

/// Differential fuzz of one build against the golden model ([`Receiver`]): `scenarios`
/// random scenarios (see `scenario`), each after a `clear`, with idle_limit 0, 2 or 6 ticks
/// and random input gaps and sink stalls. After every packet the status, reason, rank,
/// known_mask and STOP header must match, and so must the delivered messages and records; at
/// the end of each scenario the counters and the live context.
pub fn fuzz_decoder(engine: Engine, build: (usize, usize, usize), seed: u64, scenarios: usize) -> Result<DecFuzzStats> {
    let (s, w, k_max) = build;
    let mut r = hdl::cycle::Rng::new(seed);
    let mut drv = RxDriver::new(decoder(engine, s, w, k_max)?, r.next());
    let mut st = DecFuzzStats::default();
    let max_msgs = if s > 1000 { 2 } else { 3 };
    for n in 0..scenarios {
        let what = |i: usize| {
            let at = if i == usize::MAX { "end".to_string() } else { format!("packet {i}") };
            format!("fuzz {engine:?} S={s} W={w} k_max={k_max} seed {seed} scenario {n} {at}")
        };
        drv.idle_limit = [0, 2, 6][r.below(3) as usize];
        drv.stalls = Stalls {
            in_gap: [0, 100, 500][r.below(3) as usize],
            msg_stall: [0, 200, 800][r.below(3) as usize],
            rec_stall: [0, 500][r.below(2) as usize],
        };
        drv.clear()?;
        drv.messages.clear();
        drv.records.clear();
        let counts_base = drv.last.counters;
        let mut model = model_for(drv.io.as_ref(), drv.idle_limit);
        for (i, p) in scenario(&mut r, s, k_max, max_msgs).into_iter().enumerate() {
            let Some(p) = p else {
                drv.tick().map_err(|e| anyhow!("{}: tick: {e:#}", what(i)))?;
                model.tick();
                continue;
            };
            let got = drv.push(&p).map_err(|e| anyhow!("{}: {e:#}", what(i)))?;
            let want = model.push_packet(&p);
            let (ws, wr, wk, wm) = model_result(&want);
            let g = (got.status, got.reason, got.rank, got.known);
            if g != (ws, wr, wk, wm) {
                bail!("{}: RTL {} reason {} rank {} known {:#x}; model {} reason {} rank {} known {:#x} ({} bytes, header {})",
                    what(i), letter(g.0), g.1, g.2, g.3, letter(ws), wr, wk, wm, p.len(), hdl::cblt::vectors::hex(&p[..p.len().min(12)]));
            }
            if let Some(h) = want.stop {
                let w0 = u32::from_be_bytes(h.pack()[..4].try_into().unwrap());
                if got.hdr != w0 {
                    bail!("{}: STOP header {:#010x}, the model's {w0:#010x}", what(i), got.hdr);
                }
            }
            if drv.messages != model.messages {
                bail!("{}: delivered {} messages, the model {} (or their bytes differ)", what(i), drv.messages.len(), model.messages.len());
            }
            if drv.records != model.records {
                bail!("{}: records {:?}\n the model's {:?}", what(i), drv.records, model.records);
            }
            st.packets += 1;
        }
        // expire whatever is left, as a receiver's timer would
        if drv.idle_limit > 0 {
            for _ in 0..drv.idle_limit {
                drv.tick()?;
                model.tick();
            }
            if drv.records != model.records {
                bail!("{}: records after expiry {:?}\n the model's {:?}", what(usize::MAX), drv.records, model.records);
            }
        }
        let o = &drv.last;
        let got: Vec<u64> = o.counters.iter().zip(&counts_base).map(|(a, b)| a - b).collect();
        let want = model_counters(&model.counts, got[2]);
        if got != want || got[2] != 0 {
            bail!("{}: counters {got:?}, the model's {want:?} ({:?})", what(usize::MAX), hdl::cblt::decoder_rtl::COUNTERS);
        }
        let (rank, known) = model.rank_known();
        if (o.ctx_open, o.ctx_rank, o.ctx_known) != (model.is_open(), rank, known) {
            bail!("{}: live context {:?}, the model's {:?}", what(usize::MAX), (o.ctx_open, o.ctx_rank, o.ctx_known), (model.is_open(), rank, known));
        }
        st.delivered += model.counts.complete;
        st.failed += model.counts.failed;
    }
    st.clocks = drv.clock;
    Ok(st)
}
