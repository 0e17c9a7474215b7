//! Every pin-level switch block (sim_tests::blocks) on all three engines: the committed
//! vectors, the differential fuzz (≥ 100,000 descriptor events per block on Verilator, ≥ 12,500
//! on rust-hdl's simulator), the RTL's pin lists against the model's, lint, and a check that the
//! checker catches a wrong value.

use hdl::cycle::Op;
use hdl::vectors::{parse_jsonl, read_jsonl};
use sim_tests::aqm::Engine;
use sim_tests::blocks::{blocks, BlockDef};
use sim_tests::verilator::lint_with;
use std::path::Path;

fn replay_block(b: &BlockDef, engine: Engine) {
    let files = b.vector_files();
    assert!(!files.is_empty(), "{}: no vector files", b.name);
    let mut passed = 0;
    for f in files {
        let t = b.replay_file(&f, engine).unwrap();
        assert_eq!(t.failed, 0, "{engine:?} {}: {:#?}", f.display(), t.failures);
        passed += t.passed;
    }
    println!("{} on {engine:?}: {passed} passed, 0 failed", b.name);
    assert!(passed > 100, "{}: only {passed} checks", b.name);
}

/// Descriptor events the suite fuzzes per block on `engine`, and clocks per seed: rust-hdl's
/// simulator is the slow engine (the full port's 100,000 events took 140 s on it), so it runs an
/// eighth of Verilator's; `cargo run --release -p sim-tests --bin fuzz` runs millions on either.
fn suite_fuzz(engine: Engine) -> (u64, u64) {
    match engine {
        Engine::Rusthdl => (12_500, 12_500),
        _ => (100_000, 50_000),
    }
}

fn fuzz_block(b: &BlockDef, engine: Engine) {
    let (target, clocks) = suite_fuzz(engine);
    let mut events = 0;
    let mut seed = 1;
    while events < target {
        let s = b.fuzz(engine, seed, clocks).unwrap_or_else(|e| panic!("{e:#}"));
        events += s.events;
        seed += 1;
    }
    println!("{} fuzz on {engine:?}: {events} events, 0 mismatches", b.name);
}

fn pins_follow_the_model(b: &BlockDef) {
    let (inputs, outputs) = (b.rtl_pins)();
    assert_eq!(inputs, b.inputs, "{} inputs (names and widths)", b.name);
    assert_eq!(outputs, b.outputs, "{} outputs (names and widths)", b.name);
}

fn lint_block(b: &BlockDef) {
    // The port composes the blocks and uses only the outputs it needs; their diagnostic
    // outputs (state, per-block counters) are unused there by design.
    let extra: &[&str] = if b.name == "port" { &["-Wno-UNUSEDSIGNAL"] } else { &[] };
    lint_with(&(b.verilog)(), extra).unwrap_or_else(|e| panic!("{}: {e:#}", b.name));
}

/// The checker is not vacuous: one changed expectation fails.
fn wrong_expectation_fails(b: &BlockDef) {
    let f = &b.vector_files()[0];
    let mut ops = read_jsonl::<Op>(f).unwrap();
    let (k, v) = ops
        .iter_mut()
        .rev()
        .find_map(|o| match &mut o.item {
            Op::Cycle { expect, .. } => expect.iter_mut().find(|(_, v)| **v > 0).map(|(k, v)| (k.clone(), v)),
            _ => None,
        })
        .unwrap();
    *v ^= 1;
    let mut dut = b.engine(Engine::Model).unwrap();
    let t = hdl::cycle::replay("mutated", b.inputs, b.outputs, &ops, dut.as_mut()).unwrap();
    assert_eq!(t.failed, 1, "{}: flipping `{k}` must fail exactly one check", b.name);
}

/// One module of tests per switch block (`hdl::for_each_switch_block!`, the one list), so
/// `cargo test -p sim-tests --test blocks dwrr::` runs one block's.
macro_rules! block_tests {
    ($($b:ident: $ty:ty),*) => {
        $(
            mod $b {
                use super::*;
                fn def() -> BlockDef {
                    sim_tests::blocks::block(stringify!($b)).expect("a registered block")
                }
                #[test]
                fn vectors_pass_on_the_model() {
                    replay_block(&def(), Engine::Model);
                }
                #[test]
                fn vectors_pass_on_rusthdl() {
                    replay_block(&def(), Engine::Rusthdl);
                }
                #[test]
                fn vectors_pass_on_verilator() {
                    replay_block(&def(), Engine::Verilator);
                }
                #[test]
                fn fuzz_rusthdl_against_the_model() {
                    fuzz_block(&def(), Engine::Rusthdl);
                }
                #[test]
                fn fuzz_verilator_against_the_model() {
                    fuzz_block(&def(), Engine::Verilator);
                }
                #[test]
                fn rtl_pins_follow_the_model() {
                    pins_follow_the_model(&def());
                }
                #[test]
                fn verilog_passes_lint() {
                    lint_block(&def());
                }
                #[test]
                fn a_wrong_expectation_fails() {
                    wrong_expectation_fails(&def());
                }
            }
        )*

    };
}

hdl::for_each_switch_block!(block_tests);

#[test]
fn malformed_vector_files_are_errors() {
    for b in blocks() {
        let bad = parse_jsonl::<Op>(Path::new("x.jsonl"), "{\"op\":\"cycle\",\"n\":}\n").unwrap_err();
        assert!(bad.to_string().starts_with("x.jsonl:1: malformed vector"));
        let ops = parse_jsonl::<Op>(Path::new("y.jsonl"), "{\"op\":\"cycle\",\"set\":{\"nope\":1}}\n").unwrap();
        let mut dut = b.engine(Engine::Model).unwrap();
        let e = hdl::cycle::replay("y.jsonl", b.inputs, b.outputs, &ops, dut.as_mut()).unwrap_err();
        assert!(e.contains("y.jsonl:1: unknown input pin `nope`"), "{e}");
    }
}
