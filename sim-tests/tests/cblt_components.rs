//! The CB-LT decoder's sub-blocks on their own, on rust-hdl and Verilator:
//! `hdl::cblt::header_rtl::HeaderCheck` (§6.3's receive checks) against the golden model's
//! `Header::check_data` and the decoder's own rules after it, as `decoder::Decoder::push` ranks
//! them; `hdl::cblt::scanner_rtl::ElimScanner` (back-elimination) against a coefficient RAM
//! modelled in the test, and `ElimRows` (the rows to eliminate) against a set; `hdl::cblt::readout_rtl::RowReadout` (the message readout) against
//! the row layout.

use hdl::cblt::header::Header;
use hdl::cblt::header_rtl::{test_header_check, HeaderCheck};
use hdl::cblt::{full_mask, HEADER_LEN, K_MAX};
use hdl::cycle::{Dut, Pin, Rng};
use hdl::rtl_util::PinIo;
use rust_hdl::prelude::*;
use sim_tests::blocks::{RustHdlDut, VerilatorDut};

const HC_IN: &[Pin] = &[
    Pin { name: "take", width: 1 },
    Pin { name: "in_hdr", width: 32 },
    Pin { name: "in_len", width: 16 },
    Pin { name: "in_bitset", width: 64 },
    Pin { name: "tomb_v", width: 1 },
    Pin { name: "tomb_id", width: 8 },
    Pin { name: "bound", width: 1 },
    Pin { name: "ctx_hdr", width: 32 },
];
const HC_OUT: &[Pin] = &[
    Pin { name: "hdr", width: 32 },
    Pin { name: "bits", width: 64 },
    Pin { name: "trunc", width: 1 },
    Pin { name: "tomb", width: 1 },
    Pin { name: "reason", width: 4 },
];
/// `test_header_check`'s geometry.
const S: usize = 64;
const K_CORE: usize = 16;

fn engines() -> Vec<Box<dyn Dut>> {
    let mut uut = test_header_check();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    assert_eq!(<HeaderCheck as PinIo>::INPUT_NAMES.len(), HC_IN.len());
    vec![Box::new(RustHdlDut::of(test_header_check()).unwrap()), Box::new(VerilatorDut::new("header_check", &verilog, HC_IN, HC_OUT).unwrap())]
}

/// A taken header: W0, the bitset and the UDP payload length.
#[derive(Clone, Copy, Default)]
struct Taken {
    w0: u32,
    bitset: u64,
    len: u64,
}

/// The model's first reason for `t` (`Invalid::code`, 0 if none), with the decoder's state: the
/// packet's rules (`check_data`), then k above the core, then another message than the open one.
fn model_reason(t: &Taken, ctx: Option<u32>) -> u64 {
    let h = Header { npkt: (t.w0 >> 26) as u8, msg_size: (t.w0 >> 8) & 0x3_FFFF, msg_id: t.w0 as u8, bitset: t.bitset };
    match h.check_data(S, t.len as usize) {
        Err(why) => why.code() as u64,
        Ok(()) if h.k() > K_CORE => 9,
        Ok(()) if ctx.is_some_and(|c| c != t.w0) => 8,
        Ok(()) => 0,
    }
}

/// A header near the rules' edges: a valid one for k in 1..=20 (some above the core's 16),
/// then at random one field broken (size zero, too large, off its NPKT by one, an empty bitset,
/// a bit at k, the length off by one or truncated).
fn stimulus(r: &mut Rng) -> Taken {
    let k = 1 + r.below(20) as usize;
    let mut size = ((k - 1) * S + 1 + r.below(S as u64) as usize) as u64;
    let mut bitset = (r.next() & full_mask(k)).max(1);
    let mut len = (HEADER_LEN + S) as u64;
    match r.below(12) {
        0 => size = 0,
        1 => size = (K_MAX * S) as u64 + 1 + r.below(1000),
        2 => size = ((k - 1) * S) as u64,
        3 => size = (k * S + 1) as u64,
        4 => bitset = 0,
        5 if k < 64 => bitset |= 1 << (k + r.below((64 - k) as u64) as usize),
        6 => len = len.wrapping_add(if r.chance(50) { 1 } else { u64::MAX }),
        7 => len = r.below(HEADER_LEN as u64 + 1),
        _ => {}
    }
    let w0 = ((k as u32 - 1) << 26) | ((size as u32 & 0x3_FFFF) << 8) | r.below(256) as u32;
    Taken { w0, bitset, len }
}

/// Headers taken at random (back to back or a few clocks apart) while the tombstone and the open
/// context change every clock: `hdr`, `bits` and `trunc` are the last header taken, and from the
/// clock after that, `tomb` and `reason` are the model's verdict on the header taken two clocks
/// or more ago, against the state of the clock before.
#[test]
fn header_check_is_the_models_rules_in_its_order() {
    for mut dut in engines() {
        let mut r = Rng::new(23);
        // the header taken at the last edge (h1) and at the one before (h2)
        let (mut h1, mut h2) = (Taken::default(), Taken::default());
        let mut last_state: (Option<u8>, Option<u32>) = (None, None);
        let mut seen = [0u32; 10];
        for t in 0..30_000u64 {
            let take = t == 0 || r.chance(40);
            let x = stimulus(&mut r);
            // the tombstone and the context: none, the header's own, or another
            let tomb = match r.below(3) {
                0 => None,
                1 => Some(h1.w0 as u8),
                _ => Some(r.below(256) as u8),
            };
            let ctx = match r.below(3) {
                0 => None,
                1 => Some(h1.w0),
                _ => Some(stimulus(&mut r).w0),
            };
            let pins = [take as u64, x.w0 as u64, x.len, x.bitset, tomb.is_some() as u64, tomb.unwrap_or(0) as u64, ctx.is_some() as u64, ctx.unwrap_or(0) as u64];
            let o = dut.eval(&pins).to_vec();
            dut.edge();
            if t >= 2 {
                assert_eq!((o[0], o[1], o[2]), (h1.w0 as u64, h1.bitset, (h1.len < 12) as u64), "the held header at clock {t}");
                let want_tomb = last_state.0.is_some_and(|id| id == h2.w0 as u8);
                let want = model_reason(&h2, last_state.1);
                assert_eq!((o[3], o[4]), (want_tomb as u64, want), "the verdict at clock {t} (W0 {:#010x}, bitset {:#x}, length {})", h2.w0, h2.bitset, h2.len);
                seen[want as usize] += 1;
            }
            h2 = h1;
            if take {
                h1 = x;
            }
            last_state = (tomb, ctx);
        }
        // every reason the checker gives (1, truncation, is `trunc`'s) is reached
        for code in [0, 2, 3, 4, 5, 6, 7, 8, 9] {
            assert!(seen[code] > 200, "reason {code} reached {} times: {seen:?}", seen[code]);
        }
    }
}

const RO_IN: &[Pin] = &[
    Pin { name: "start", width: 1 },
    Pin { name: "size", width: 19 },
    Pin { name: "msg_ready", width: 1 },
    Pin { name: "clear", width: 1 },
    Pin { name: "other_addr", width: 8 },
];
const RO_OUT: &[Pin] = &[
    Pin { name: "active", width: 1 },
    Pin { name: "done", width: 1 },
    Pin { name: "msg_valid", width: 1 },
    Pin { name: "msg_data", width: 8 },
    Pin { name: "msg_bytes", width: 8 },
    Pin { name: "msg_last", width: 1 },
];

/// The beats of a message of `size` bytes from rows of `s` bytes in `wb`-byte words, row q at
/// word `q·2^sa`: (the word's address, its valid bytes, whether it is the last).
fn readout_beats(size: usize, s: usize, wb: usize, sa: u32) -> Vec<(u64, u64, bool)> {
    let wps = s.div_ceil(wb);
    let mut beats = Vec::new();
    let mut left = size;
    for i in 0.. {
        let (row, w) = (i / wps, i % wps);
        let n = if w == wps - 1 { s - (wps - 1) * wb } else { wb };
        let last = left <= n;
        beats.push((((row as u64) << sa) | w as u64, n.min(left) as u64, last));
        if last {
            return beats;
        }
        left -= n;
    }
    unreachable!()
}

/// Messages of random sizes (one byte to 64 rows) read out under a sink that is ready at
/// random, some cleared midway: every beat taken is the next word in row order with its byte
/// count, the last carries `msg_last` and raises `done` as it is taken, a held beat keeps its
/// word, and a cleared readout gives no beat until the next start.
#[test]
fn row_readout_walks_the_rows_in_order_under_back_pressure() {
    use hdl::cblt::readout_rtl::TestReadout;
    let mut uut = TestReadout::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let duts: Vec<Box<dyn Dut>> = vec![Box::new(RustHdlDut::<TestReadout>::new().unwrap()), Box::new(VerilatorDut::new("row_readout", &verilog, RO_IN, RO_OUT).unwrap())];
    for mut dut in duts {
        let mut r = Rng::new(31);
        let (mut messages, mut cleared, mut held) = (0, 0, 0);
        for _ in 0..300 {
            let size = 1 + r.below(64 * 10) as usize;
            let beats = readout_beats(size, 10, 4, 2);
            let clear_at = if r.chance(15) { Some(r.below(beats.len() as u64 + 3)) } else { None };
            let ready_pct = [100, 70, 30][r.below(3) as usize];
            // start, then read until done (or the clear)
            let o = dut.eval(&[1, size as u64, r.chance(50) as u64, 0, r.below(256)]).to_vec();
            assert_eq!((o[0], o[2]), (0, 0), "idle before the start");
            dut.edge();
            let (mut next, mut t, mut last_beat) = (0usize, 0u64, None);
            loop {
                let ready = r.chance(ready_pct);
                let clear = clear_at == Some(t);
                let o = dut.eval(&[0, 0, ready as u64, clear as u64, r.below(256)]).to_vec();
                dut.edge();
                assert_eq!(o[0], 1, "active until done, at clock {t} of a {size}-byte message");
                if o[2] == 1 {
                    let beat = (o[3], o[4], o[5] == 1);
                    assert_eq!(beat, beats[next], "beat {next} of a {size}-byte message");
                    if last_beat == Some(next) {
                        held += 1;
                    }
                    last_beat = Some(next);
                    if ready {
                        next += 1;
                    }
                }
                assert_eq!(o[1] == 1, o[2] == 1 && o[5] == 1 && ready, "done is the last beat taken");
                if clear {
                    cleared += 1;
                    break;
                }
                if o[1] == 1 {
                    assert_eq!(next, beats.len());
                    messages += 1;
                    break;
                }
                t += 1;
                assert!(t < 10_000, "the readout of a {size}-byte message did not end");
            }
            // off until the next start, whatever the sink does
            for _ in 0..r.below(3) + 1 {
                let o = dut.eval(&[0, 0, r.chance(50) as u64, r.chance(10) as u64, r.below(256)]).to_vec();
                dut.edge();
                assert_eq!((o[0], o[2]), (0, 0), "no beat after the end or a clear");
            }
        }
        assert!(messages > 200 && cleared > 20 && held > 1000, "messages {messages}, cleared {cleared}, held beats {held}");
    }
}

const SC_IN: &[Pin] = &[
    Pin { name: "load", width: 1 },
    Pin { name: "touched", width: 16 },
    Pin { name: "start", width: 1 },
    Pin { name: "valid", width: 16 },
    Pin { name: "coef", width: 16 },
    Pin { name: "m", width: 16 },
    Pin { name: "q_oh", width: 16 },
    Pin { name: "clear", width: 1 },
];
const SC_OUT: &[Pin] = &[
    Pin { name: "on", width: 1 },
    Pin { name: "rem", width: 16 },
    Pin { name: "low_oh", width: 16 },
    Pin { name: "low_idx", width: 6 },
    Pin { name: "read_idx", width: 6 },
    Pin { name: "wr", width: 1 },
    Pin { name: "wr_idx", width: 6 },
    Pin { name: "wr_row", width: 16 },
    Pin { name: "wr_oh", width: 16 },
    Pin { name: "wr_same", width: 1 },
];

/// Scans of random row sets against a coefficient RAM modelled in the test as the decoder's is
/// (the read address registered, the word a clock after it, no read-during-write bypass),
/// some cleared midway: every valid row with bit q, and no other, is written once, lowest first,
/// with m XORed in, `wr_same` exactly when the new row is its pivot alone; the scan ends; and
/// `load` keeps the touched rows, with their lowest two clocks later.
#[test]
fn elim_scanner_xors_m_into_every_row_with_bit_q() {
    use hdl::cblt::scanner_rtl::TestScanner;
    let mut uut = TestScanner::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let duts: Vec<Box<dyn Dut>> = vec![Box::new(RustHdlDut::<TestScanner>::new().unwrap()), Box::new(VerilatorDut::new("elim_scanner", &verilog, SC_IN, SC_OUT).unwrap())];
    for mut dut in duts {
        let mut r = Rng::new(41);
        let mut mem = [0u64; 64];
        let (mut scans, mut writes, mut same, mut cleared) = (0, 0, 0, 0);
        for _ in 0..400 {
            // the touched rows, kept by `load`
            let touched = r.next() & 0xFFFF;
            dut.eval(&[1, touched, 0, 0, 0, 0, 0, 0]);
            dut.edge();
            let o = dut.eval(&[0; 8]).to_vec();
            dut.edge();
            assert_eq!(o[1], touched, "load keeps {touched:#x}");
            let o = dut.eval(&[0; 8]).to_vec();
            dut.edge();
            let low = if touched == 0 { 0 } else { touched.trailing_zeros() as u64 };
            assert_eq!((o[1], o[2], o[3]), (touched, touched & touched.wrapping_neg(), low), "load keeps {touched:#x}");
            // a scan: pivot q outside the valid rows, m with bit q
            let q = r.below(16) as u32;
            let valid = r.next() & 0xFFFF & !(1 << q);
            let m = (r.next() & 0xFFFF) | (1 << q);
            for (i, row) in mem.iter_mut().enumerate().take(16) {
                *row = r.next() & 0xFFFF;
                if r.chance(10) {
                    *row = (1 << i) ^ m; // becomes its pivot alone
                }
            }
            let before = mem;
            let clear_at = if r.chance(10) { Some(r.below(20)) } else { None };
            let (mut addr_q, mut ram_out) = (0usize, 0u64);
            let mut written = Vec::new();
            let mut t = 0u64;
            loop {
                let start = t == 0;
                let clear = clear_at == Some(t);
                let o = dut.eval(&[0, 0, start as u64, valid, ram_out, m, 1 << q, clear as u64]).to_vec();
                dut.edge();
                // the RAM at this edge: its output takes the word at the registered address, as
                // it was before this edge's write, and the address register takes `read_idx`
                ram_out = mem[addr_q];
                addr_q = o[4] as usize;
                if o[5] == 1 {
                    let p = o[6] as usize;
                    assert_eq!(o[8], 1 << p, "wr_oh names row {p}");
                    assert_eq!(o[7], before[p] ^ m, "row {p} gets m");
                    assert_eq!(o[9] == 1, before[p] ^ m == 1 << p, "wr_same for row {p}");
                    same += (o[9] == 1) as u32;
                    written.push(p);
                    mem[p] = o[7];
                }
                if clear {
                    cleared += 1;
                    break;
                }
                if t > 0 && o[0] == 0 {
                    let want: Vec<usize> = (0..16).filter(|&p| valid >> p & 1 == 1 && before[p] >> q & 1 == 1).collect();
                    assert_eq!(written, want, "the rows written, valid {valid:#x}, q {q}");
                    scans += 1;
                    writes += written.len();
                    break;
                }
                t += 1;
                assert!(t < 100, "the scan did not end");
            }
            if clear_at.is_some() {
                // a clear leaves no scan on
                let o = dut.eval(&[0; 8]).to_vec();
                dut.edge();
                assert_eq!(o[0], 0, "off after a clear");
            }
        }
        assert!(scans > 300 && writes > 1000 && same > 50 && cleared > 20, "scans {scans}, writes {writes}, same {same}, cleared {cleared}");
    }
}

const ER_IN: &[Pin] = &[Pin { name: "take", width: 1 }, Pin { name: "add", width: 1 }, Pin { name: "add_oh", width: 16 }, Pin { name: "zero", width: 1 }];
const ER_OUT: &[Pin] = &[Pin { name: "next_idx", width: 6 }, Pin { name: "next_any", width: 1 }, Pin { name: "ok", width: 1 }];

/// Random adds, takes (while `ok`) and zeroes on the rows to eliminate, built for rows of several
/// words: `ok` is low exactly the clock after a change,
/// and while it is high `next_idx`/`next_any` are the set's lowest row; a take removes the
/// lowest, a take from none changes nothing.
#[test]
fn elim_rows_name_the_lowest_row_a_clock_ahead() {
    use hdl::cblt::scanner_rtl::TestElimRows;
    let mut uut = TestElimRows::new(false);
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let duts: Vec<Box<dyn Dut>> = vec![Box::new(RustHdlDut::of(TestElimRows::new(false)).unwrap()), Box::new(VerilatorDut::new("elim_rows", &verilog, ER_IN, ER_OUT).unwrap())];
    for mut dut in duts {
        let mut r = Rng::new(43);
        let (mut set, mut changed) = (0u64, false);
        let (mut takes, mut checked) = (0, 0);
        for t in 0..20_000 {
            let op = r.below(10);
            // takes only while `ok`, as the decoder makes them
            let (take, add, zero) = (op < 3 && !changed, (3..8).contains(&op), op == 8 && r.chance(20));
            let oh = 1u64 << r.below(16);
            let o = dut.eval(&[take as u64, add as u64, oh, zero as u64]).to_vec();
            dut.edge();
            assert_eq!(o[2] == 0, changed, "ok at clock {t}");
            if !changed {
                assert_eq!(o[1] == 1, set != 0, "next_any at clock {t}");
                if set != 0 {
                    assert_eq!(o[0], set.trailing_zeros() as u64, "next_idx at clock {t} (set {set:#x})");
                }
                checked += 1;
            }
            let before = set;
            if take {
                set &= set.wrapping_sub(1);
                takes += (before != 0) as u32;
            }
            if add {
                set |= oh;
            }
            if zero {
                set = 0;
            }
            // a take from none is no change
            changed = (take && before != 0) || add || zero;
        }
        assert!(takes > 1000 && checked > 5000, "takes {takes}, clocks checked {checked}");
    }
}
