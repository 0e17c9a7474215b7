//! The CB-LT cores' sub-blocks on their own, on rust-hdl and Verilator.
//!
//! The decoder's: `hdl::cblt::book_rtl::DecoderBook` (the statistics, the context's counts,
//! the tombstone and the idle timer) and `pass_issue_rtl::PassIssue` (the payload passes'
//! issue stage) against references stated here; `sequence_rtl::DecoderSequence` (the state
//! machine) with the components around it played here from its strobes, against the result
//! its doc states for each symbol; `coef_rows_rtl::CoefRows` (the coefficient rows, their
//! reduction and back-elimination) against rows kept fully reduced here;
//! `hdl::cblt::header_rtl::HeaderCheck` (§6.3's receive checks) against the
//! golden model's `Header::check_data` and the decoder's own rules after it, as
//! `decoder::Decoder::push` ranks them; `hdl::cblt::scanner_rtl::ElimScanner` (back-elimination)
//! against a coefficient RAM modelled in the test, and `ElimRows` (the rows to eliminate)
//! against a set; `hdl::cblt::readout_rtl::RowReadout` (the message readout) against the row
//! layout; `payload_rtl::PayloadStages` (the passes' read, XOR and write stages) against an
//! accumulator and a row RAM modelled in the test.
//!
//! The encoder's: `maskgen_rtl::MaskGen` against the codec's `encoder::MaskGenerator`;
//! `mask_fifo_rtl::MaskFifo` against a queue; `symbol_xor_rtl::SymbolXor` against the XOR of
//! each mask's sources; `encoder_cfg_rtl::EncoderCfg` against the register rules stated here.

use hdl::cblt::header::Header;
use hdl::cblt::header_rtl::test_header_check;
use hdl::cblt::{full_mask, HEADER_LEN, K_MAX};
use hdl::cycle::Rng;
use sim_tests::blocks::both_engines;

/// `test_header_check`'s geometry.
const S: usize = 64;
const K_CORE: usize = 16;

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
    for mut dut in both_engines(test_header_check, "header_check").unwrap() {
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
    for mut dut in both_engines(TestReadout::default, "row_readout").unwrap() {
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

/// Scans of random row sets against a coefficient RAM modelled in the test as the decoder's is
/// (the read address registered, the word a clock after it, no read-during-write bypass),
/// some cleared midway: every valid row with bit q, and no other, is written once, lowest first,
/// with m XORed in, `wr_same` exactly when the new row is its pivot alone; the scan ends; and
/// `load` keeps the touched rows, with their lowest two clocks later.
#[test]
fn elim_scanner_xors_m_into_every_row_with_bit_q() {
    use hdl::cblt::scanner_rtl::TestScanner;
    for mut dut in both_engines(TestScanner::default, "elim_scanner").unwrap() {
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

/// Random adds, takes (while `ok`) and zeroes on the rows to eliminate, built for rows of several
/// words: `ok` is low exactly the clock after a change,
/// and while it is high `next_idx`/`next_any` are the set's lowest row; a take removes the
/// lowest, a take from none changes nothing.
#[test]
fn elim_rows_name_the_lowest_row_a_clock_ahead() {
    use hdl::cblt::scanner_rtl::TestElimRows;
    for mut dut in both_engines(|| TestElimRows::new(false), "elim_rows").unwrap() {
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

/// The book-keeping's reference: §7.4–§7.6 as `DecoderBook`'s doc states them, one clock at a
/// time (every read is of the state before the edge).
#[derive(Clone, Default)]
struct Book {
    open: bool,
    bound: bool,
    hdr: u64,
    seen: u64,
    red: u64,
    inv: u64,
    idle: u64,
    failed: bool,
    /// The tombstone is valid; its header, rank and known rows stay when it is not.
    tv: bool,
    tomb: (u64, u64, u64),
    tidle: u64,
    cnt: [u64; 8],
}

/// One clock's events for the book (the inputs of `TestBook`, in its order).
struct BookIn {
    commit: bool,
    hdr: u64,
    result: Option<(u64, u64)>,
    free: bool,
    rank: u64,
    known: u64,
    tick_step: bool,
    limit: u64,
    clear: bool,
}

impl Book {
    /// The outputs before the edge, then the state after it.
    fn clock(&mut self, e: &BookIn) -> Vec<u64> {
        let s = self.clone();
        let expire = e.tick_step && e.limit != 0 && s.bound && (s.idle + 1) & 0xFFFF >= e.limit;
        let (tv, (th, tr, tk)) = (s.tv, s.tomb);
        let live = if s.bound { (e.rank, e.known) } else if tv { (tr, tk) } else { (0, 0) };
        let mut out = vec![s.bound as u64, s.hdr, s.seen, s.red, s.inv, s.failed as u64, expire as u64, tv as u64, th, tr, tk, live.0, live.1];
        out.extend(s.cnt);
        self.open = e.commit && !s.bound;
        if s.open {
            (self.bound, self.hdr, self.seen, self.red, self.inv, self.idle) = (true, e.hdr, 0, 0, 0, 0);
        }
        if let Some((code, reason)) = e.result {
            self.cnt[0] += 1;
            match code {
                0 => {
                    self.cnt[1] += 1;
                    if reason == 10 {
                        self.cnt[2] += 1;
                    } else if s.bound {
                        (self.seen, self.inv) = (s.seen + 1, s.inv + 1);
                    }
                }
                1 => (self.cnt[3], self.seen, self.red, self.idle) = (s.cnt[3] + 1, s.seen + 1, s.red + 1, 0),
                2 | 3 => (self.cnt[4], self.seen, self.idle) = (s.cnt[4] + 1, s.seen + 1, 0),
                _ => (self.cnt[5], self.tidle) = (s.cnt[5] + 1, 0),
            }
            if code == 3 {
                (self.cnt[6], self.failed) = (s.cnt[6] + 1, false);
            }
        }
        if e.free {
            self.bound = false;
            if !s.failed {
                (self.tv, self.tomb, self.tidle) = (true, (s.hdr, e.rank, e.known), 0);
            }
        }
        if e.tick_step && e.limit != 0 {
            if s.bound {
                self.idle = (s.idle + 1) & 0xFFFF;
                if expire {
                    (self.failed, self.cnt[7]) = (true, s.cnt[7] + 1);
                }
            }
            if tv {
                self.tidle = (s.tidle + 1) & 0xFFFF;
                if self.tidle >= e.limit {
                    self.tv = false;
                }
            }
        }
        if e.clear {
            (self.bound, self.tv, self.open) = (false, false, false);
        }
        out
    }
}

/// Random events, as the decoder's sequence can make them and beyond (a result with any code
/// and reason, a free or a tick in any clock, clears): every output, every clock, is the
/// reference's; contexts open, count, expire, are delivered into tombstones and forgotten.
#[test]
fn decoder_book_counts_results_opens_contexts_and_keeps_the_tombstone() {
    use hdl::cblt::book_rtl::TestBook;
    for mut dut in both_engines(TestBook::default, "decoder_book").unwrap() {
        let mut r = Rng::new(47);
        let mut book = Book::default();
        let (mut opened, mut expired, mut tombs, mut tomb_expired) = (0, 0, 0, 0);
        for t in 0..30_000 {
            let e = BookIn {
                commit: r.chance(8),
                hdr: r.next() & 0xFFFF_FFFF,
                result: r.chance(5).then(|| (r.below(5), if r.chance(25) { 10 } else { r.below(10) })),
                free: r.chance(12),
                rank: r.below(17),
                known: r.next() & 0xFFFF,
                tick_step: r.chance(10),
                limit: r.below(6),
                clear: r.below(200) == 0,
            };
            let (was_bound, had_tomb) = (book.bound, book.tv);
            let want = book.clock(&e);
            let inputs = [
                e.commit as u64,
                e.hdr,
                e.result.is_some() as u64,
                e.result.map_or(0, |x| x.0),
                e.result.map_or(0, |x| x.1),
                e.free as u64,
                e.rank,
                e.known,
                e.tick_step as u64,
                e.limit,
                e.clear as u64,
            ];
            let got = dut.eval(&inputs).to_vec();
            dut.edge();
            assert_eq!(got, want, "clock {t}");
            opened += (!was_bound && book.bound) as u32;
            expired += want[6] as u32;
            tombs += (e.free && want[5] == 0 && was_bound) as u32;
            tomb_expired += (had_tomb && !book.tv && !e.clear) as u32;
        }
        assert!(opened > 500 && expired > 100 && tombs > 100 && tomb_expired > 50, "{opened} {expired} {tombs} {tomb_expired}");
    }
}

/// The issue stage's reference, as `PassIssue`'s doc states it, for rows of `wps` words.
#[derive(Clone, Default)]
struct Issue {
    wps: u64,
    on: bool,
    kind: u64,
    src: u64,
    has: bool,
    rowq: bool,
    w: u64,
    rem: u64,
}

impl Issue {
    /// The outputs before the edge (`PassIssue`'s order), then the state after it. `x`: start,
    /// rem, start_elim, elim_any, elim_idx, in_valid, in_last, same_word, clear.
    fn clock(&mut self, x: [u64; 9]) -> Vec<u64> {
        let [start, rem, start_elim, elim_any, _, in_valid, in_last, same_word, clear] = x.map(|v| v != 0);
        let (rem_v, elim_idx) = (x[1], x[4]);
        let s = self.clone();
        let last = s.w == s.wps - 1;
        let issue = s.on && !(s.wps <= 2 && same_word) && (s.kind != 0 || in_valid);
        let take_beat = issue && s.kind == 0;
        let abort = take_beat && in_last != last;
        let commit = take_beat && !abort && last;
        let (mut done, mut elim_take) = (false, false);
        if start {
            let low = rem_v & rem_v.wrapping_neg();
            (self.on, self.kind, self.w, self.has) = (true, 0, 0, rem);
            (self.src, self.rem, self.rowq) = (low.trailing_zeros() as u64 % 64, rem_v & !low, rem_v & !low == 0);
        }
        if issue && !last {
            self.w = s.w + 1;
        } else if issue && s.kind == 2 {
            (self.w, elim_take) = (0, true);
            if elim_any {
                self.src = elim_idx;
            } else {
                self.on = false;
            }
        } else if issue && s.rem != 0 {
            let low = s.rem & s.rem.wrapping_neg();
            (self.w, self.kind, self.src, self.has) = (0, 1, low.trailing_zeros() as u64, true);
            (self.rem, self.rowq) = (s.rem & !low, s.rem & !low == 0);
        } else if issue {
            (self.w, self.on, done) = (0, false, true);
        }
        if abort {
            self.on = false;
        }
        if start_elim {
            (self.on, self.kind, self.has, self.w, self.src) = (true, 2, true, 0, elim_idx);
        }
        if clear {
            self.on = false;
        }
        let b = |v: bool| v as u64;
        vec![b(s.on), s.kind, s.src, b(s.has), b(s.rowq), s.w, b(issue), b(take_beat), b(abort), b(commit), b(done), b(elim_take)]
    }
}

/// Random starts of pass 0 and of ELIM passes, beats that end early, late or on time, the
/// read stages' wait, clears, for rows of one to four words: every output, every clock, is the
/// reference's; passes of every kind run to their end, and aborts and commits both happen.
#[test]
fn pass_issue_walks_words_then_sources() {
    use hdl::cblt::pass_issue_rtl::TestPassIssue;
    for wps in 1..=4u64 {
        for mut dut in both_engines(|| TestPassIssue::new(wps as usize), "pass_issue").unwrap() {
            let mut r = Rng::new(53 + wps);
            let mut m = Issue { wps, ..Default::default() };
            let (mut done, mut elims, mut aborts, mut commits) = (0, 0, 0, 0);
            for t in 0..40_000 {
                let rem = r.next() & r.next() & 0xFFFF;
                let low = rem & rem.wrapping_neg();
                let start = r.chance(3) as u64;
                let x = [start, rem, r.chance(3) as u64, r.chance(60) as u64, r.below(64), r.chance(80) as u64, r.chance(40) as u64, r.chance(20) as u64, (r.below(300) == 0) as u64];
                let inputs = [x[0], x[1], low, low.trailing_zeros() as u64 % 64, x[2], x[3], x[4], x[5], x[6], x[7], x[8]];
                let want = m.clock(x);
                let got = dut.eval(&inputs).to_vec();
                dut.edge();
                assert_eq!(got, want, "clock {t}, {wps} words per row");
                (done, elims, aborts, commits) = (done + want[10], elims + want[11], aborts + want[8], commits + want[9]);
            }
            assert!(done > 50 && elims > 50 && aborts > 50 && commits > 50, "{wps}: {done} {elims} {aborts} {commits}");
        }
    }
}

// ---- the encoder's components ----

/// Messages of random k (1 to 64) and seed, each after its table is written through the table
/// port, pushed with `room` at random: every push is the golden model's next mask
/// (`encoder::MaskGenerator`) with the draws up to it and its number mod 16; `on` is high from
/// the start to the `limit`th push or a `stop`, and no push comes after.
#[test]
fn mask_gen_pushes_the_models_masks() {
    use hdl::cblt::encoder::MaskGenerator;
    use hdl::cblt::maskgen_rtl::test_mask_gen;
    use hdl::cblt::table::DegreeTable;
    for mut dut in both_engines(test_mask_gen, "mask_gen").unwrap() {
        let mut r = Rng::new(47);
        let (mut masks, mut limited, mut stopped, mut full) = (0, 0, 0, 0);
        for _ in 0..120 {
            let k = if r.chance(10) { 1 } else { 1 + r.below(64) };
            let seed = (r.next() as u32).max(1);
            let table = DegreeTable::default_for(k as usize).unwrap();
            let limit = if r.chance(50) { 1 + r.below(20) } else { 0 };
            let room_pct = [100, 60, 20][r.below(3) as usize];
            // pins: k, seed, limit, load_seed, start, stop, room, tbl_we, tbl_addr, tbl_data
            let cfg = |load: bool, start: bool, stop: bool, room: bool| [k, seed as u64, limit, load as u64, start as u64, stop as u64, room as u64, 0, 0, 0];
            for j in 1..64 {
                let mut p = cfg(false, false, false, false);
                (p[7], p[8], p[9]) = (1, j as u64, table.entry(j) as u64);
                dut.eval(&p);
                dut.edge();
            }
            // the setup: the seed for two or more clocks, the start in the last
            let setup = 2 + r.below(4);
            for i in 0..setup {
                let o = dut.eval(&cfg(true, i + 1 == setup, false, false)).to_vec();
                dut.edge();
                assert_eq!(o[0], 0, "off before the start");
            }
            let mut model = MaskGenerator::new(k as usize, seed, table).unwrap();
            let stop_at = if limit == 0 { Some(20 + r.below(400)) } else { None };
            let (mut pushes, mut draws, mut on) = (0u64, 0u32, true);
            for t in 0..5_000u64 {
                let stop = stop_at == Some(t);
                let o = dut.eval(&cfg(false, false, stop, r.chance(room_pct))).to_vec();
                dut.edge();
                assert_eq!(o[0] == 1, on, "on at clock {t} (k {k}, seed {seed:#x}, {pushes} pushes)");
                if o[1] == 1 {
                    assert!(on, "a push while off");
                    let (mask, d, n) = model.next_mask();
                    draws += n;
                    assert_eq!((o[2], o[3], o[4]), (mask, draws as u64, pushes % 16), "push {pushes} (k {k}, seed {seed:#x})");
                    full += (d == k as usize) as u32;
                    pushes += 1;
                    masks += 1;
                    if limit != 0 && pushes == limit {
                        on = false;
                    }
                }
                if stop {
                    on = false;
                    stopped += 1;
                }
                if !on && t > stop_at.unwrap_or(0) + 3 {
                    break;
                }
            }
            assert!(!on, "k {k}: the message did not end ({pushes} pushes, limit {limit})");
            limited += (limit != 0) as u32;
        }
        assert!(masks > 1500 && limited > 40 && stopped > 40 && full > 50, "masks {masks}, limited {limited}, stopped {stopped}, full {full}");
    }
}

/// Pushes (with `room`), pops (with `head_v`) and clears at random against a queue: the head,
/// its valid bit, `room` and `any` are the queue's, and `head_new` is high after a pop or a push
/// into the empty FIFO.
#[test]
fn mask_fifo_is_a_two_entry_queue() {
    use hdl::cblt::mask_fifo_rtl::MaskFifo;
    for mut dut in both_engines(MaskFifo::<64>::default, "mask_fifo").unwrap() {
        let mut r = Rng::new(53);
        let mut q = std::collections::VecDeque::new();
        let (mut new_after, mut pops, mut clears) = (false, 0, 0);
        for t in 0..20_000 {
            let push = q.len() < 2 && r.chance(50);
            let pop = !q.is_empty() && r.chance(50);
            let clear = r.chance(3);
            let mask = r.next();
            let o = dut.eval(&[push as u64, mask, pop as u64, clear as u64]).to_vec();
            dut.edge();
            let head = q.front().copied();
            assert_eq!((o[1] == 1, o[3] == 1, o[4] == 1, o[2] == 1), (head.is_some(), q.len() < 2, !q.is_empty(), new_after), "clock {t}");
            if let Some(h) = head {
                assert_eq!(o[0], h, "the head at clock {t}");
            }
            new_after = pop || (push && q.is_empty());
            if pop {
                q.pop_front();
                pops += 1;
            }
            if push {
                q.push_back(mask);
            }
            if clear {
                q.clear();
                clears += 1;
            }
        }
        assert!(pops > 5000 && clears > 300, "pops {pops}, clears {clears}");
    }
}

/// Symbols of three words and of one (the accumulator write forwarded) from a buffer written
/// through the buffer port, masks fed as a two-entry FIFO would, the sink ready at random: every
/// symbol's beats are the XOR of its sources word by word, first and last flagged, a held beat
/// is `hold`; and with the sink always ready and masks waiting, a symbol of degree d follows the
/// one before with no gap (its first beat d·words clocks after the last's).
#[test]
fn symbol_xor_sends_the_xor_of_each_masks_sources() {
    use hdl::cblt::symbol_xor_rtl::test_symbol_xor;
    for words in [3usize, 1] {
        for mut dut in both_engines(|| test_symbol_xor(words), "symbol_xor").unwrap() {
            let mut r = Rng::new(59 + words as u64);
            let buf: Vec<u64> = (0..64).map(|_| r.next() & 0xFFFF_FFFF).collect();
            for (a, &w) in buf.iter().enumerate() {
                dut.eval(&[0, 0, 0, 1, 1, a as u64, w]);
                dut.edge();
            }
            let xor_of = |mask: u64, w: usize| (0..16).filter(|i| mask >> i & 1 == 1).fold(0, |x, i| x ^ buf[(i << 2) | w]);
            // the masks fed (a FIFO of two), the ones sent, the beat being sent
            let mut fifo = std::collections::VecDeque::new();
            let mut sent = std::collections::VecDeque::new();
            let (mut beat, mut head_new, mut symbols, mut gaps) = (0usize, false, 0, 0);
            let mut last_end: Option<u64> = None;
            for t in 0..30_000u64 {
                let eager = t >= 15_000;
                if fifo.len() < 2 && (eager || r.chance(30)) {
                    let mask = (r.next() & 0xFFFF).max(1);
                    head_new |= fifo.is_empty();
                    fifo.push_back(mask);
                }
                let ready = eager || r.chance(60);
                let head = fifo.front().copied();
                let o = dut.eval(&[head.unwrap_or(0), head.is_some() as u64, head_new as u64, ready as u64, 0, 0, 0]).to_vec();
                dut.edge();
                head_new = false;
                if o[0] == 1 {
                    sent.push_back(fifo.pop_front().expect("a pop from an empty FIFO"));
                    head_new = true;
                }
                assert_eq!(o[1] == 1, o[3] == 1 && !ready, "hold at clock {t}");
                if o[3] == 1 {
                    let mask = *sent.front().expect("a beat with no symbol");
                    assert_eq!((o[6], o[4] == 1, o[5] == 1), (xor_of(mask, beat), beat == 0, beat + 1 == words), "beat {beat} of mask {mask:#x} at clock {t}");
                    if eager && beat == 0 {
                        if let Some(end) = last_end.filter(|&e| e > 15_100) {
                            assert_eq!(t - end, (mask.count_ones() as usize * words - words + 1) as u64, "the gap before mask {mask:#x}");
                            gaps += 1;
                        }
                    }
                    if ready {
                        beat += 1;
                        if beat == words {
                            (beat, last_end) = (0, Some(t));
                            sent.pop_front();
                            symbols += 1;
                        }
                    }
                }
            }
            assert!(symbols > 1000 && gaps > 500, "{words} words: symbols {symbols}, gaps checked {gaps}");
        }
    }
}

/// The encoder's register rules (`encoder_csr::csr`) as the test states them, for S = 64 and
/// k_max = 16: what each write sets, which it refuses, and the start's setup of k + 2 clocks
/// that ends in a start exactly when `K = ⌈MSG_SIZE/S⌉`.
#[derive(Clone, Copy)]
struct CfgModel {
    k: u64,
    size: u64,
    id: u64,
    seed: u64,
    limit: u64,
    /// K ≤ k_max, MSG_SIZE in 1..=k_max·S, SEED ≠ 0, as last written.
    ok: [bool; 3],
    /// Clocks of the setup left, this one included.
    setup: u64,
    rejected: bool,
    tbl: Option<(u64, u64)>,
}

impl CfgModel {
    /// The outputs in a clock with this write (`EC_OUT`'s order), and the state after its edge.
    fn clock(&mut self, we: bool, addr: u64, data: u64, busy: bool) -> [u64; 14] {
        const S: u64 = 64;
        let busy_now = busy || self.setup > 0;
        let last = self.setup == 1;
        let fits = self.size <= self.k * S && self.size + S > self.k * S;
        let (tbl_we, tbl_addr, tbl_data) = self.tbl.map_or((0, 0, 0), |(a, d)| (1, a, d));
        let mut out = [self.k, self.size, self.id, self.seed, self.limit, (self.setup > 0) as u64, (last && fits) as u64, (last && !fits) as u64, self.rejected as u64, 0, busy_now as u64, tbl_we, tbl_addr, tbl_data];
        self.setup = self.setup.saturating_sub(1);
        let (mut reject, mut tbl) = (false, None);
        if we {
            match addr {
                0 if data & 2 != 0 => {
                    out[9] = 1;
                    self.setup = 0;
                }
                0 if data & 1 != 0 => {
                    if !busy_now && self.ok.iter().all(|&b| b) {
                        self.setup = self.k + 2;
                    } else {
                        out[7] = 1;
                    }
                }
                0 => reject = true,
                _ if busy_now => reject = true,
                1 if (1..=64).contains(&data) => (self.k, self.ok[0]) = (data, data <= 16),
                2 if data < 1 << 19 => (self.size, self.ok[1]) = (data, (1..=16 * S).contains(&data)),
                3 if data <= 255 => self.id = data,
                4 => (self.seed, self.ok[2]) = (data, data != 0),
                5 => self.limit = data,
                65..=127 if data <= 65_536 => tbl = Some((addr & 63, data & 0x1_FFFF)),
                _ => reject = true,
            }
        }
        (self.rejected, self.tbl) = (reject, tbl);
        out
    }
}

/// Random writes near every rule's edge, to every register, the table and unknown addresses,
/// with the owner busy at random: each clock's outputs are the model's.
#[test]
fn encoder_cfg_keeps_the_register_rules_and_checks_the_start() {
    use hdl::cblt::encoder_cfg_rtl::test_encoder_cfg;
    for mut dut in both_engines(test_encoder_cfg, "encoder_cfg").unwrap() {
        let mut r = Rng::new(61);
        let mut m = CfgModel { k: 16, size: 1024, id: 0, seed: 1, limit: 0, ok: [true; 3], setup: 0, rejected: false, tbl: None };
        let (mut starts, mut refused, mut rejected, mut tables) = (0, 0, 0, 0);
        for t in 0..100_000 {
            let addr = match r.below(10) {
                0..=1 => 0,
                2..=6 => 1 + r.below(5),
                7 => 64 + r.below(64),
                8 => 6 + r.below(58),
                _ => 128 + r.below(128),
            };
            // a value within two of one of `at`
            let edge = |r: &mut Rng, at: &[u64]| at[r.below(at.len() as u64) as usize].wrapping_add(r.below(5)).wrapping_sub(2) & 0xFFFF_FFFF;
            let data = match addr {
                0 => r.below(5),
                1 if r.chance(50) => 1 + r.below(16),
                1 => edge(&mut r, &[1, 16, 64]),
                // a size that fits k half of the time
                2 if r.chance(50) => (m.k.max(1) - 1) * 64 + 1 + r.below(64),
                2 => edge(&mut r, &[1, 1024, 1 << 19]),
                3 => edge(&mut r, &[255]),
                4 => if r.chance(20) { 0 } else { r.next() & 0xFFFF_FFFF },
                64..=127 => edge(&mut r, &[65_536]),
                _ => r.next() & 0xFFFF_FFFF,
            };
            let (we, busy) = (r.chance(50), r.chance(15));
            let want = m.clock(we, addr, data, busy);
            let mut o = dut.eval(&[we as u64, addr, data, busy as u64]).to_vec();
            dut.edge();
            if o[11] == 0 {
                // the table's address and data are read only with its write enable
                (o[12], o[13]) = (0, 0);
            }
            assert_eq!(o, want, "clock {t}: write {we} of {data:#x} at {addr}, busy {busy}");
            (starts, refused, rejected, tables) = (starts + o[6], refused + o[7], rejected + o[8], tables + o[11]);
        }
        assert!(starts > 150 && refused > 800 && rejected > 5000 && tables > 800, "starts {starts}, refused {refused}, rejected {rejected}, table writes {tables}");
    }
}

/// A word in the payload stages, as the test follows it: what was issued, the accumulator and
/// row words read at the end of R, and B's XOR.
#[derive(Clone, Copy, Default)]
struct PassWord {
    kind: u64,
    w: usize,
    src: usize,
    has: bool,
    rowq: bool,
    input: u64,
    q: usize,
    acc: u64,
    row: u64,
    x: u64,
}

impl PassWord {
    /// The row word it writes (row, word), if any.
    fn row_write(&self) -> Option<(usize, usize)> {
        match (self.kind, self.rowq) {
            (2, _) => Some((self.src, self.w)),
            (_, true) => Some((self.q, self.w)),
            _ => None,
        }
    }
}

/// Words of the three pass kinds issued at random (never a word R or B holds, as the decoder
/// waits), against an accumulator and a row RAM modelled in the test (read at the end of R,
/// written at the end of C), with clears: every row write is the pass's XOR at its row and
/// word, `same_word` and `busy` follow the stages, and the accumulator's writes show in the
/// later words that read it.
#[test]
fn payload_stages_xor_each_word_into_the_accumulator_or_its_row() {
    use hdl::cblt::payload_rtl::TestPayloadStages;
    for mut dut in both_engines(TestPayloadStages::default, "payload_stages").unwrap() {
        let mut r = Rng::new(89);
        let mut rows = [[0u64; 4]; 64];
        for row in rows.iter_mut() {
            row.iter_mut().for_each(|x| *x = r.next() & 0xFFFF_FFFF);
        }
        let mut acc = [0u64; 4];
        let (mut st_r, mut st_b, mut st_c): (Option<PassWord>, Option<PassWord>, Option<PassWord>) = (None, None, None);
        let (mut row_writes, mut clears, mut q_now) = (0, 0, 0usize);
        for t in 0..40_000 {
            // the free row q: the decoder's register, read as a word is in B
            if r.chance(5) {
                q_now = r.below(64) as usize;
            }
            let mut e = PassWord { kind: r.below(3), w: r.below(4) as usize, src: r.below(64) as usize, has: r.chance(70), rowq: r.chance(30), input: r.next() & 0xFFFF_FFFF, ..Default::default() };
            let same = st_r.is_some_and(|p| p.w == e.w) || st_b.is_some_and(|p| p.w == e.w);
            // the row B writes at the end of R's clock is not read then (the RAM's collision)
            let b_writes = |src: usize, w: usize| st_b.is_some_and(|p| PassWord { q: q_now, ..p }.row_write() == Some((src, w)));
            if b_writes(e.src, e.w) {
                e.has = false;
            }
            if e.kind == 2 {
                e.has = true;
                if b_writes(e.src, e.w) {
                    e.src = (e.src + 1) % 64;
                }
            }
            let issue = !same && r.chance(70);
            let clear = r.chance(1);
            let b_row = st_b.map_or(0, |p| p.row);
            let pins = [issue as u64, e.kind, e.w as u64, e.src as u64, e.has as u64, e.rowq as u64, e.input, q_now as u64, b_row, clear as u64];
            let o = dut.eval(&pins).to_vec();
            dut.edge();
            assert_eq!((o[0] == 1, o[1] == 1), (same, st_r.is_some() || st_b.is_some() || st_c.is_some()), "same_word and busy at clock {t}");
            let want = st_c.and_then(|p| p.row_write().map(|(row, w)| (row * 4 + w, p.x)));
            assert_eq!(o[2] == 1, want.is_some(), "row write at clock {t}");
            if let Some((addr, x)) = want {
                assert_eq!((o[3] as usize, o[4]), (addr, x), "the row write at clock {t}");
                row_writes += 1;
            }
            // the edge: R reads, C writes, the stages move
            if let Some(p) = st_r.as_mut() {
                (p.acc, p.row) = (acc[p.w], rows[p.src][p.w]);
            }
            if let Some(p) = st_c {
                if p.kind != 2 {
                    acc[p.w] = p.x;
                }
                if let Some((row, w)) = p.row_write() {
                    rows[row][w] = p.x;
                }
            }
            st_c = st_b.map(|mut p| {
                p.x = if p.kind == 0 { p.input } else { p.acc } ^ if p.has { p.row } else { 0 };
                p.q = q_now;
                p
            });
            st_b = st_r;
            st_r = if issue { Some(e) } else { None };
            if clear {
                (st_r, st_b, st_c, clears) = (None, None, None, clears + 1);
            }
        }
        assert!(row_writes > 8000 && clears > 200, "row writes {row_writes}, clears {clears}");
    }
}

/// Symbols through the rows as the decoder's sequence drives them (load, reduce, decide, scan,
/// install; frees and clears between and inside), against rows kept fully reduced here (CB-LT
/// §6.6): each m' is the mask with the touched rows XORed in, its pivot is its lowest one, the
/// scan writes every row with bit q once, lowest first, and the known rows and the rank follow.
#[test]
fn coef_rows_reduce_each_mask_and_keep_the_rows_fully_reduced() {
    use hdl::cblt::coef_rows_rtl::TestCoefRows;
    // inputs: load, bits, reduce, decide, scan, install, free, clear
    fn pins(load: bool, bits: u64, reduce: bool, decide: bool, scan: bool, install: bool, free: bool, clear: bool) -> [u64; 8] {
        [load as u64, bits, reduce as u64, decide as u64, scan as u64, install as u64, free as u64, clear as u64]
    }
    for mut dut in both_engines(TestCoefRows::default, "coef_rows").unwrap() {
        let mut r = Rng::new(53);
        let mut rows: [Option<u64>; 16] = [None; 16];
        let (mut innovative, mut redundant, mut writes, mut frees, mut clears, mut full) = (0, 0, 0, 0, 0, 0);
        for sym in 0..3000 {
            let valid = (0..16).filter(|&p| rows[p].is_some()).fold(0u64, |v, p| v | 1 << p);
            // a mask of a few bits, or a sum of rows (redundant)
            let bits = if valid != 0 && r.chance(20) {
                (0..16).filter(|&p| valid >> p & 1 == 1 && r.chance(50)).fold(0, |m, p| m ^ rows[p].unwrap())
            } else {
                (0..1 + r.below(4)).fold(0u64, |m, _| m | 1 << r.below(16))
            };
            if bits == 0 {
                continue;
            }
            let touched = bits & valid;
            let want_m = (0..16).filter(|&p| touched >> p & 1 == 1).fold(bits, |m, p| m ^ rows[p].unwrap());
            dut.eval(&pins(true, bits, false, false, false, false, false, false));
            dut.edge();
            let mut t = 0;
            let m = loop {
                let o = dut.eval(&pins(false, 0, true, false, false, false, false, false)).to_vec();
                dut.edge();
                assert_eq!(o[6], touched, "rem keeps the touched rows (symbol {sym})");
                if o[0] == 1 {
                    break o[1];
                }
                t += 1;
                assert!(t < 60, "the reduction did not end (symbol {sym})");
            };
            assert_eq!(m, want_m, "m' of {bits:#x} over rows {rows:x?}");
            if m == 0 {
                redundant += 1;
                continue;
            }
            let o = dut.eval(&pins(false, 0, false, true, false, false, false, false)).to_vec();
            dut.edge();
            if touched != 0 {
                assert_eq!((o[7], o[8]), (touched & touched.wrapping_neg(), touched.trailing_zeros() as u64), "pass 0's source");
            }
            let q = m.trailing_zeros() as usize;
            // the scan, with a clear in it now and then
            let clear_at = r.chance(3).then(|| r.below(12));
            let mut written = Vec::new();
            let mut t = 0;
            loop {
                let clear = clear_at == Some(t);
                let o = dut.eval(&pins(false, 0, false, false, t == 0, false, false, clear)).to_vec();
                dut.edge();
                assert_eq!(o[2], q as u64, "the pivot of {m:#x}");
                if o[4] == 1 {
                    written.push(o[5].trailing_zeros() as usize);
                    assert_eq!(o[5].count_ones(), 1, "wr_oh is one-hot");
                }
                if clear {
                    break;
                }
                if t > 0 && o[3] == 0 {
                    break;
                }
                t += 1;
                assert!(t < 100, "the scan did not end");
            }
            if clear_at.is_some_and(|c| c <= t) {
                rows = [None; 16];
                clears += 1;
                continue;
            }
            let want: Vec<usize> = (0..16).filter(|&p| rows[p].is_some_and(|row| row >> q & 1 == 1)).collect();
            assert_eq!(written, want, "the rows with bit {q}");
            writes += written.len();
            for p in want {
                *rows[p].as_mut().unwrap() ^= m;
            }
            rows[q] = Some(m);
            innovative += 1;
            let free = r.chance(4);
            dut.eval(&pins(false, 0, false, false, false, true, false, false));
            dut.edge();
            let o = dut.eval(&pins(false, 0, false, false, false, false, free, false)).to_vec();
            dut.edge();
            let known = (0..16).filter(|&p| rows[p] == Some(1 << p)).fold(0u64, |k, p| k | 1 << p);
            let rank = rows.iter().flatten().count() as u64;
            assert_eq!((o[9], o[10]), (known, rank), "known rows and rank after symbol {sym}");
            full += (rank == 16) as u32;
            if free || rank == 16 {
                if !free {
                    dut.eval(&pins(false, 0, false, false, false, false, true, false));
                    dut.edge();
                }
                rows = [None; 16];
                frees += 1;
            }
        }
        assert!(innovative > 1500 && redundant > 500 && writes > 1000 && frees > 100 && clears > 20 && full > 20,
            "innovative {innovative}, redundant {redundant}, writes {writes}, frees {frees}, clears {clears}, full {full}");
    }
}

/// One symbol as the components around the decoder's sequence see it.
#[derive(Clone, Copy, Debug)]
struct SeqSymbol {
    /// The header check's verdict: truncated, a tombstoned message, a reason, or passed (0).
    trunc: bool,
    tomb: bool,
    reason: u64,
    /// The packet's beats (3 is its length; 7 wraps the drain's 2-bit count onto the last word), clocks of REDUCE, m' ≠ 0, clocks of pass 0, pass
    /// 0 misframed (with its last beat or not), rows to eliminate, the rank reaching k.
    beats: u64,
    reduce: u64,
    m_any: bool,
    pass0: u64,
    misframed: Option<bool>,
    elim: u64,
    completes: bool,
}

impl SeqSymbol {
    /// The result the sequence reports: `(code, reason)`, as `DecoderSequence`'s doc states.
    fn result(&self) -> (u64, u64) {
        match () {
            _ if self.trunc => (0, 1),
            _ if self.tomb => (4, 0),
            _ if self.reason != 0 => (0, self.reason),
            _ if !self.m_any => if self.beats == 3 { (1, 0) } else { (0, 10) },
            _ if self.misframed.is_some() => (0, 10),
            _ => (if self.completes { 3 } else { 2 }, 0),
        }
    }
}

/// Random symbols through the sequence, with the components around it played here from its
/// strobes (each flag only in the state that reads it, as the decoder's components make them),
/// ticks at any clock and clears now and then: every symbol reports the result its doc states,
/// with its strobes in order (take, load, reduce, decide, commit, install, result, readout,
/// record, free); a pending tick is stepped before a packet is taken; busy follows.
#[test]
fn decoder_sequence_takes_each_symbol_to_its_result() {
    use hdl::cblt::sequence_rtl::TestSequence;
    for mut dut in both_engines(|| TestSequence::new(3), "decoder_sequence").unwrap() {
        let mut r = Rng::new(59);
        let new_symbol = |r: &mut Rng| SeqSymbol {
            trunc: r.chance(5),
            tomb: r.chance(5),
            reason: if r.chance(10) { 2 + r.below(8) } else { 0 },
            beats: if r.chance(80) { 3 } else { 1 + r.below(8) },
            reduce: r.below(4),
            m_any: r.chance(85),
            pass0: 1 + r.below(4),
            misframed: r.chance(8).then(|| r.chance(50)),
            elim: r.below(3),
            completes: r.chance(30),
        };
        let mut sym = new_symbol(&mut r);
        // the world: what the components are doing
        let (mut offered, mut started, mut beat) = (false, false, 0u64);
        let (mut reducing, mut red_left, mut deciding) = (None::<u64>, 0, false);
        let (mut pass_left, mut passes_done_next, mut elim_phase, mut elim_left, mut scan_left) = (0u64, false, false, 0u64, 0u64);
        let (mut draining, mut reading, mut recording) = (false, 0u64, false);
        let mut tick_pend = false;
        let mut seen: Vec<&str> = Vec::new();
        let (mut results, mut completes, mut ticks, mut expired, mut clears, mut framing) = (0, 0, 0, 0, 0, 0);
        let mut last_move = 0;
        for t in 0..200_000u64 {
            assert!(t - last_move < 500, "stuck at clock {t}: {sym:?} {seen:?} offered {offered} started {started} reducing {reducing:?} pass_left {pass_left} elim {elim_phase} {elim_left} draining {draining} reading {reading} recording {recording}");
            let tick = r.chance(1);
            let clear = r.below(2000) == 0;
            let in_valid = offered || (draining && r.chance(80));
            let in_last = draining && beat + 1 == sym.beats || pass_left == 1 && sym.misframed == Some(true);
            let reduced = reducing == Some(0);
            let pass_on = pass_left > 0;
            let misframed = pass_left == 1 && sym.misframed.is_some() && !elim_phase;
            let pass_commit = pass_left == 1 && sym.misframed.is_none() && !elim_phase;
            let er_ok = r.chance(80);
            let stages_busy = r.chance(30);
            let ro_done = reading == 1;
            let rec_ready = recording && r.chance(40);
            // (read in TICK only)
            let expire = r.chance(30);
            let inputs = [
                in_valid, in_last, tick, clear, sym.trunc, sym.tomb, sym.reason != 0, reduced, sym.m_any, pass_on && r.chance(20),
                passes_done_next, pass_on, misframed, pass_commit, scan_left > 0, er_ok, elim_left > 0, stages_busy, sym.completes,
                ro_done, rec_ready, expire,
            ]
            .map(|b| b as u64);
            let mut inputs = inputs.to_vec();
            inputs[6] = sym.reason;
            let o = dut.eval(&inputs).to_vec();
            dut.edge();
            // outputs: take, load, reduce, decide, er_take, commit, start_elim, install, drain,
            // result, ro_start, record, free, tick_step, busy, code, reason
            let on = |i: usize| o[i] == 1;
            if on(13) {
                assert!(tick_pend, "a tick step with no tick pending at clock {t}");
                ticks += 1;
            }
            if on(0) {
                assert!(!tick_pend, "a packet taken with a tick pending at clock {t}");
                assert!(offered && !started, "take at clock {t}");
                (offered, started, beat) = (false, true, 0);
                seen = vec!["take"];
                // a rejected header is drained (its beats wait while it is judged)
                draining = sym.trunc || sym.tomb || sym.reason != 0;
            }
            if on(1) {
                assert_eq!(seen, ["take"], "load at clock {t}");
                assert!(!sym.trunc && !sym.tomb && sym.reason == 0, "load of a rejected header at clock {t}");
                seen.push("load");
                (reducing, red_left) = (Some(sym.reduce), sym.reduce);
            }
            // the passes are done (the clock after their last word), then a pass's words
            let done_now = passes_done_next;
            passes_done_next = false;
            if done_now {
                elim_phase = true;
                elim_left = sym.elim;
            }
            if pass_left > 0 {
                pass_left -= 1;
                if pass_left == 0 && misframed {
                    elim_phase = false;
                    draining = !in_last;
                    framing += 1;
                } else if pass_left == 0 && !elim_phase {
                    passes_done_next = true;
                }
            }
            if on(2) {
                assert!(reducing.is_some(), "reduce at clock {t}");
                if reduced {
                    (reducing, deciding) = (None, true);
                } else {
                    red_left -= 1;
                    reducing = Some(red_left);
                }
            } else {
                assert!(reducing.is_none() || seen.last() == Some(&"load") && reducing == Some(sym.reduce), "REDUCE left at clock {t}");
            }
            if deciding && !on(2) {
                deciding = false;
                if on(3) {
                    assert!(sym.m_any, "a pivot for m' = 0 at clock {t}");
                    seen.push("decide");
                    pass_left = sym.pass0;
                } else {
                    assert!(!sym.m_any, "no pivot for m' ≠ 0 at clock {t}");
                    draining = true;
                }
            }
            if on(5) {
                seen.push("commit");
                scan_left = 1 + r.below(5);
            }
            scan_left = scan_left.saturating_sub(1);
            if on(6) {
                assert!(elim_phase && elim_left > 0 && on(4), "an elimination pass at clock {t}");
                elim_left -= 1;
                pass_left = 1 + r.below(3);
            }
            if on(7) {
                assert!(elim_phase && elim_left == 0, "install at clock {t}");
                seen.push("install");
                elim_phase = false;
            }
            if on(8) && in_valid {
                beat += 1;
                if in_last {
                    draining = false;
                }
            }
            if on(9) {
                assert_eq!((o[15], o[16]), sym.result(), "the result of {sym:?} at clock {t}");
                assert!(!draining && pass_left == 0, "a result before the packet's end at clock {t}: {sym:?}, {seen:?}, beat {beat}");
                results += 1;
                last_move = t;
                if sym.result().0 == 3 {
                    assert!(on(10), "a complete message is read out");
                    reading = 1 + r.below(6);
                    completes += 1;
                }
                started = false;
                sym = new_symbol(&mut r);
            }
            if reading > 0 && !on(10) {
                reading -= 1;
                if reading == 0 {
                    recording = true;
                }
            }
            if on(11) {
                assert!(recording, "record at clock {t}");
                if on(12) {
                    recording = false;
                    last_move = t;
                }
            } else {
                assert!(!on(12), "free outside RECORD at clock {t}");
            }
            if on(13) && expire {
                recording = true;
                expired += 1;
            }
            tick_pend = if on(13) { tick } else { tick_pend || tick };
            if clear {
                tick_pend = false;
                (offered, started, reducing, deciding, pass_left, passes_done_next, elim_phase) = (false, false, None, false, 0, false, false);
                (elim_left, scan_left, draining, reading, recording) = (0, 0, false, 0, false);
                sym = new_symbol(&mut r);
                clears += 1;
                last_move = t;
                let o = dut.eval(&[0; 22]).to_vec();
                dut.edge();
                assert_eq!(o[14], 0, "busy after a clear");
                continue;
            }
            if !started && !offered && !recording && reading == 0 && r.chance(30) {
                offered = true;
            }
        }
        // the coverage (`-- --nocapture` prints it)
        eprintln!("decoder_sequence: results {results}, completes {completes}, ticks {ticks}, expired {expired}, clears {clears}, framing {framing}");
        assert!(results > 5000 && completes > 300 && ticks > 1000 && expired > 200 && clears > 50 && framing > 100,
            "results {results}, completes {completes}, ticks {ticks}, expired {expired}, clears {clears}, framing {framing}");
    }
}
