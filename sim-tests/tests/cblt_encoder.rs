//! The CB-LT encoder RTL against the software codec: the committed vectors on every engine,
//! differential fuzz of (k, S, W, seed, table, sink stalls) on Verilator, back-to-back timing,
//! and bad host input (refused, counted, stream untouched).

use hdl::cblt::encoder::CodedSymbol;
use hdl::cblt::encoder_csr::{csr, words_per_symbol};
use hdl::cblt::table::DegreeTable;
use hdl::cblt::vectors::msg_a;
use hdl::vectors::Tally;
use sim_tests::aqm::Engine;
use sim_tests::cblt::*;
use sim_tests::verilator::lint;

fn replay(name: &str, engine: Engine) {
    let t = replay_encoder_file(&sim_tests::cblt::vector_file(name), engine).unwrap();
    println!("{name} on {engine:?}: {} passed, {} failed", t.passed, t.failed);
    assert_eq!(t.failed, 0, "{:#?}", t.failures);
    assert!(t.passed >= 100, "only {} checks", t.passed);
}

sim_tests::codec_vector_tests!(replay, s16: ["encode_spec_s16.jsonl", "encode_edges_s16.jsonl"], s1460: "encode_spec_s1460.jsonl");

fn model(job: &EncodeJob, s: usize) -> Vec<CodedSymbol> {
    model_symbols(job, s).unwrap()
}

#[test]
fn fuzz_against_the_codec_on_verilator() {
    let n: usize = (1..=2).map(|seed| fuzz_encoder(seed, [60, 12, 40, 40]).unwrap()).sum();
    println!("fuzz: {n} symbols bit-exact with the software encoder");
    assert!(n > 1000);
}

/// With the sink always ready, symbol j ends exactly d_j·⌈S/WB⌉ clocks after symbol j−1:
/// no gap between passes or symbols (the mask generator keeps ahead at S = 1460).
#[test]
fn symbols_follow_back_to_back() {
    let mut io = encoder(Engine::Verilator, 1460, 32).unwrap();
    let msg = hdl::cblt::vectors::msg_b(50000);
    let job = EncodeJob { msg: &msg, msg_id: 1, seed: 0x2468ACE1, table: DegreeTable::default_for(35).unwrap(), symbols: 40 };
    let rtl = run_job(io.as_mut(), &job, |_| true).unwrap();
    let m = model(&job, 1460);
    let wps = words_per_symbol(1460, 4) as u64;
    for j in 1..rtl.len() {
        assert_eq!(rtl[j].done_at - rtl[j - 1].done_at, m[j].degree as u64 * wps, "symbol {j}");
    }
}

fn write(io: &mut dyn EncoderIo, a: u8, d: u32) -> EncOut {
    io.step(&EncIn { cfg: Some((a, d)), out_ready: true, ..Default::default() })
}

fn idle(io: &mut dyn EncoderIo) -> EncOut {
    io.step(&EncIn { out_ready: true, ..Default::default() })
}

/// Refused writes and starts are counted and change nothing; a stop ends the stream on a
/// symbol boundary; writes during encoding leave the stream bit-exact.
fn bad_input_on(engine: Engine) {
    let mut io = encoder(engine, 16, 32).unwrap();
    let io = io.as_mut();
    let msg = msg_a(64);
    let job = EncodeJob { msg: &msg, msg_id: 0x2A, seed: 0x12345678, table: DegreeTable::default_for(4).unwrap(), symbols: 0 };
    idle(io);
    // out-of-range values and unknown addresses: refused at the write
    for (a, d) in [(csr::K, 0), (csr::K, 65), (csr::MSG_ID, 256), (csr::TABLE, 5), (csr::TABLE + 1, 65537), (128, 1), (6, 1), (csr::CTRL, 0)] {
        let before = idle(io).cfg_rejected;
        write(io, a, d);
        // counted a clock after the write
        assert_eq!(idle(io).cfg_rejected, before, "write {d} to {a} was counted in its own clock");
        assert_eq!(idle(io).cfg_rejected, before + 1, "write {d} to {a} was not refused");
    }
    // a first message loads the buffer and the table
    let want = model(&EncodeJob { symbols: 12, ..job.clone() }, 16);
    let first = run_job(io, &EncodeJob { symbols: 3, ..job.clone() }, |_| true).unwrap();
    let mut t = Tally::default();
    compare("first message", &first, &want[..3], &mut t);
    // starts that cannot run: refused and counted, never busy, nothing sent
    let cases = [(csr::SEED, 0), (csr::MSG_SIZE, 0), (csr::MSG_SIZE, 16 * 64 + 1), (csr::MSG_SIZE, 65), (csr::K, 5)];
    for (a, d) in cases {
        for (ra, rd) in [(csr::K, 4), (csr::MSG_SIZE, 64), (csr::SEED, 0x12345678), (a, d)] {
            write(io, ra, rd);
        }
        let before = idle(io).starts_refused;
        write(io, csr::CTRL, csr::CTRL_START);
        for c in 0..80 {
            let o = idle(io);
            assert!(!o.valid, "the start with register {a} = {d} sent a beat");
            if c == 79 {
                assert!(!o.busy && o.starts_refused == before + 1, "the start with register {a} = {d} was not refused: {o:?}");
            }
        }
    }
    for (ra, rd) in [(csr::K, 4), (csr::MSG_SIZE, 64), (csr::SEED, 0x12345678)] {
        write(io, ra, rd);
    }

    // a run with writes thrown at it: stream unchanged, writes refused and counted
    write(io, csr::SYMBOL_LIMIT, 0);
    let before = idle(io);
    write(io, csr::CTRL, csr::CTRL_START);
    let mut col = Collector::new(io);
    let (mut stopped_at, mut c) = (None, 0u64);
    let mut garbage = 0;
    loop {
        let mut i = EncIn { out_ready: c % 5 != 1, ..Default::default() };
        if c % 3 == 0 && stopped_at.is_none() {
            i.cfg = Some((csr::K, 2));
            i.buf = Some(((c % 16) as u32, vec![0xFFFF_FFFF]));
            garbage += 1;
        }
        if col.symbols.len() == 9 && stopped_at.is_none() {
            if i.cfg.is_some() {
                garbage -= 1;
            }
            i.cfg = Some((csr::CTRL, csr::CTRL_STOP));
            i.buf = None;
            stopped_at = Some(c);
        }
        let o = io.step(&i);
        col.feed(&o, i.out_ready, c).unwrap();
        c += 1;
        if stopped_at.is_some() && !o.busy {
            assert!(!col.mid_symbol());
            assert_eq!(o.symbols as usize, col.symbols.len());
            assert_eq!(o.cfg_rejected, before.cfg_rejected + garbage);
            assert_eq!(o.buf_rejected, before.buf_rejected + garbage);
            break;
        }
        assert!(c < 10_000, "the encoder did not stop");
    }
    let n = col.symbols.len();
    assert!((9..=12).contains(&n), "{n} symbols after a stop at symbol 9");
    compare("writes during encoding", &col.symbols, &want[..n], &mut t);
    assert_eq!(t.failed, 0, "{:#?}", t.failures);
    // and the next message starts from its seed again
    let again = run_job(io, &EncodeJob { symbols: 5, ..job.clone() }, |_| true).unwrap();
    compare("after a stop", &again, &want[..5], &mut t);
    assert_eq!(t.failed, 0, "{:#?}", t.failures);
}

#[test]
fn bad_input_is_refused_on_rusthdl() {
    bad_input_on(Engine::Rusthdl);
}

#[test]
fn bad_input_is_refused_on_verilator() {
    bad_input_on(Engine::Verilator);
}

/// The checker is not vacuous: a symbol with one flipped payload bit fails.
#[test]
fn compare_catches_a_flipped_bit() {
    let mut io = encoder(Engine::Verilator, 16, 32).unwrap();
    let msg = msg_a(64);
    let job = EncodeJob { msg: &msg, msg_id: 0x2A, seed: 0x12345678, table: DegreeTable::default_for(4).unwrap(), symbols: 3 };
    let mut rtl = run_job(io.as_mut(), &job, |_| true).unwrap();
    rtl[1].bytes[20] ^= 4;
    let mut t = Tally::default();
    compare("flipped", &rtl, &model(&job, 16), &mut t);
    assert_eq!(t.failed, 1);
}

#[test]
fn encoder_verilog_is_lint_clean() {
    lint(&encoder_verilog::<32, 8, 2>(16)).unwrap();
    lint(&encoder_verilog::<64, 10, 4>(100)).unwrap();
}
