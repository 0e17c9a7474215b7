//! The CB-LT decoder RTL against the golden model: the committed vectors on every engine,
//! differential fuzz on every build, framing errors and hostile input (counted, dropped, no
//! state change, no hang), and lint.

use hdl::cblt::encoder::Encoder;
use hdl::cblt::vectors::msg_b;
use sim_tests::aqm::Engine;
use sim_tests::cblt_decoder::*;
use sim_tests::verilator::lint;

fn replay(name: &str, engine: Engine) {
    let t = replay_decoder_file(&sim_tests::cblt::vector_file(name), engine).unwrap().expect("not skipped");
    println!("{name} on {engine:?}: {} passed, {} failed", t.passed, t.failed);
    assert_eq!(t.failed, 0, "{:#?}", t.failures);
    assert!(t.passed >= 300, "only {} checks", t.passed);
}

sim_tests::codec_vector_tests!(replay, s16: ["decode_spec_s16.jsonl", "decode_messy_s16.jsonl"], s1460: "decode_spec_s1460.jsonl");

#[test]
fn fuzz_against_the_model_on_verilator() {
    for (b, n) in [((16, 32, 64), 60), ((1460, 32, 64), 12), ((100, 64, 64), 40), ((16, 32, 8), 40), ((4, 32, 16), 40), ((8, 32, 16), 40)] {
        let st = fuzz_decoder(Engine::Verilator, b, 11, n).unwrap();
        println!("{b:?}: {st:?}");
        assert!(st.delivered >= 2 && st.failed >= 1 && st.packets > 100, "{b:?}: {st:?}");
    }
}

#[test]
fn fuzz_against_the_model_on_rusthdl() {
    let st = fuzz_decoder(Engine::Rusthdl, (16, 32, 64), 12, 6).unwrap();
    println!("{st:?}");
    assert!(st.delivered >= 1 && st.packets > 50, "{st:?}");
}

/// A packet whose beats disagree with its (correct) length is INVALID with the framing reason,
/// counted, and changes nothing, innovative or redundant; so is a redundant symbol with a
/// corrupted payload harmless. The stream then decodes exactly as the model says.
#[test]
fn framing_errors_and_garbage_change_nothing() {
    for engine in [Engine::Verilator, Engine::Rusthdl] {
        let mut drv = RxDriver::new(decoder(engine, 16, 32, 64).unwrap(), 5);
        drv.stalls = Stalls { in_gap: 100, msg_stall: 300, rec_stall: 300 };
        let mut model = model_for(drv.io.as_ref(), 0);
        let msg = msg_b(16 * 20 - 3);
        let mut e = Encoder::with_default_table(&msg, 16, 77, 0xFEED).unwrap();
        let mut r = hdl::cycle::Rng::new(9);
        let mut framing = 0;
        let mut sent: Vec<Vec<u8>> = vec![];
        while model.messages.is_empty() {
            let p = e.next_symbol().to_bytes();
            let good = frame(&p, 4);
            // early last (a beat short), late last (a beat more), and a lone last on beat 1
            let mut short = good[..good.len() - 1].to_vec();
            short.last_mut().unwrap().last = true;
            let mut long = good.clone();
            long.last_mut().unwrap().last = false;
            long.push(Beat { last: true, ..good[0].clone() });
            let mut lone = good[..1].to_vec();
            lone[0].last = true;
            let bad = [short, long, lone];
            let b = &bad[r.below(3) as usize];
            let res = drv.push_beats(b).unwrap();
            assert_eq!((res.status, res.reason), (0, hdl::cblt::decoder_rtl::REASON_FRAMING), "{engine:?}");
            framing += 1;
            // a symbol already in the span with garbage payload: redundant, rows untouched
            if let Some(old) = sent.get(r.below(sent.len() as u64 + 1) as usize) {
                let mut g = old.clone();
                g[12..].iter_mut().for_each(|x| *x = r.next() as u8);
                let res = drv.push(&g).unwrap();
                let want = model_result(&model.push_packet(&g));
                assert_eq!((res.status, res.reason, res.rank, res.known), want, "{engine:?}");
            }
            let res = drv.push(&p).unwrap();
            let want = model_result(&model.push_packet(&p));
            assert_eq!((res.status, res.reason, res.rank, res.known), want, "{engine:?}");
            sent.push(p);
        }
        assert!(drv.messages.len() == 1 && drv.messages[0] == msg, "{engine:?}: the message was not delivered intact");
        assert_eq!(drv.records, model.records, "{engine:?}");
        assert_eq!(drv.last.counters.to_vec(), model_counters(&model.counts, framing).to_vec(), "{engine:?}");
    }
}

/// A long run of hostile packets (random lengths up to 3 KB, random headers, random beats)
/// around a message: every packet gets one result, nothing hangs, the counters add up, and
/// the message still decodes to its bytes.
#[test]
fn hostile_streams_are_counted_and_harmless() {
    let mut drv = RxDriver::new(decoder(Engine::Verilator, 1460, 32, 64).unwrap(), 6);
    let mut model = model_for(drv.io.as_ref(), 0);
    let mut r = hdl::cycle::Rng::new(21);
    let msg = msg_b(1460 * 9 + 100);
    let mut e = Encoder::with_default_table(&msg, 1460, 3, 0xC0FFEE).unwrap();
    let mut framing = 0;
    let mut hostile = 0;
    while model.messages.is_empty() {
        for _ in 0..3 {
            let len = if r.chance(30) { 12 + 1460 } else { r.below(3000) as usize };
            let mut p: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
            if len >= 12 && r.chance(50) {
                // a header of this message: a wrong length, or beats cut short below
                p[..12].copy_from_slice(&e.next_symbol().to_bytes()[..12]);
            }
            let mut beats = frame(&p, 4);
            let before = model.clone();
            let want = model_result(&model.push_packet(&p));
            if want.0 >= 1 {
                // the model would take it (a header of this message, random payload): cut its
                // beats short instead, so no wrong payload gets in
                beats.truncate(1 + r.below(beats.len() as u64 - 1) as usize);
                beats.last_mut().unwrap().last = true;
                model = before;
                let res = drv.push_beats(&beats).unwrap();
                assert_eq!((res.status, res.reason), (0, hdl::cblt::decoder_rtl::REASON_FRAMING));
                framing += 1;
                continue;
            }
            let res = drv.push_beats(&beats).unwrap();
            assert_eq!((res.status, res.reason, res.rank, res.known), want, "hostile packet of {len} bytes");
            hostile += 1;
        }
        let p = e.next_symbol().to_bytes();
        let res = drv.push(&p).unwrap();
        assert_eq!((res.status, res.reason, res.rank, res.known), model_result(&model.push_packet(&p)));
    }
    assert!(hostile > 20 && framing > 0, "{hostile} hostile, {framing} framing");
    assert!(drv.messages.len() == 1 && drv.messages[0] == msg, "the message was not delivered intact");
    assert_eq!(drv.last.counters.to_vec(), model_counters(&model.counts, framing).to_vec());
}

#[test]
fn decoder_verilog_is_lint_clean() {
    lint(&decoder_verilog::<32, 8, 2, 64>(16, 64)).unwrap();
    lint(&decoder_verilog::<64, 10, 4, 64>(100, 64)).unwrap();
    lint(&decoder_verilog::<32, 5, 2, 8>(16, 8)).unwrap();
}

/// §10.5 loopback: the RTL encoder's symbols, a third lost and the rest shuffled, into the RTL
/// decoder, which completes within 4k + 50 received symbols with the message's bytes.
#[test]
fn rtl_encoder_to_rtl_decoder_loopback() {
    use hdl::cblt::table::DegreeTable;
    use sim_tests::cblt::{encoder, run_job, EncodeJob};
    let mut r = hdl::cycle::Rng::new(31);
    for (s, ks) in [(16, vec![1, 2, 5, 14, 35, 64]), (1460, vec![64])] {
        let mut enc = encoder(Engine::Verilator, s, 32).unwrap();
        let mut drv = RxDriver::new(decoder(Engine::Verilator, s, 32, 64).unwrap(), 2);
        for k in ks {
            let msg: Vec<u8> = (0..(k - 1) * s + 1 + r.below(s as u64) as usize).map(|_| r.next() as u8).collect();
            let n = 4 * k + 50;
            let job = EncodeJob { msg: &msg, msg_id: k as u8, seed: r.next() as u32 | 1, table: DegreeTable::default_for(k).unwrap(), symbols: n * 3 / 2 };
            let mut syms: Vec<Vec<u8>> = run_job(enc.as_mut(), &job, |_| true).unwrap().into_iter().map(|x| x.bytes).filter(|_| r.below(3) != 0).collect();
            for i in (1..syms.len()).rev() {
                syms.swap(i, r.below(i as u64 + 1) as usize);
            }
            drv.clear().unwrap();
            drv.messages.clear();
            let received = syms.iter().take(n).position(|p| drv.push(p).unwrap().status == 3).map(|i| i + 1);
            assert!(received.is_some(), "S = {s}, k = {k}: no COMPLETE within {n} received symbols");
            assert!(drv.messages.len() == 1 && drv.messages[0] == msg, "S = {s}, k = {k}: wrong bytes");
            println!("S = {s}, k = {k}: complete after {} received symbols", received.unwrap());
        }
    }
}
