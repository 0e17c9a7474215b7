//! The AQM top on all three engines: every committed vector, the differential fuzz (100,000
//! dequeues per mode on Verilator, 12,500 on rust-hdl), lint, and a check that the checker
//! itself catches a wrong expectation.

use hdl::aqm::vectors::{replay, Op};
use hdl::aqm::Mode;
use hdl::vectors::{parse_jsonl, read_jsonl};
use sim_tests::aqm::{aqm_engine, aqm_verilog, Engine};
use sim_tests::fuzz::lockstep;
use std::path::{Path, PathBuf};

fn vector_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench-vectors/aqm");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "jsonl")).collect();
    v.sort();
    assert!(v.len() >= 7, "vector files missing in {}", dir.display());
    v
}

fn replay_all(engine: Engine) {
    let mut passed = 0;
    for f in vector_files() {
        let ops = read_jsonl::<Op>(&f).unwrap();
        let mut dut = aqm_engine(engine).unwrap();
        let t = replay(&f.display().to_string(), &ops, dut.as_mut()).unwrap();
        assert_eq!(t.failed, 0, "{engine:?} {}: {:#?}", f.display(), t.failures);
        passed += t.passed;
    }
    println!("{engine:?}: {passed} passed, 0 failed");
    assert!(passed > 15_000);
}

#[test]
fn vectors_pass_on_the_model() {
    replay_all(Engine::Model);
}

#[test]
fn vectors_pass_on_rusthdl() {
    replay_all(Engine::Rusthdl);
}

#[test]
fn vectors_pass_on_verilator() {
    replay_all(Engine::Verilator);
}

/// The checker is not vacuous: one flipped expectation is reported as a failure.
#[test]
fn a_wrong_expectation_fails() {
    let f = vector_files().into_iter().find(|p| p.ends_with("ecn_sharp_paper.jsonl")).unwrap();
    let text = std::fs::read_to_string(&f).unwrap();
    let mutated = text.replacen("\"pst\":true", "\"pst\":false", 1);
    let ops = parse_jsonl::<Op>(&f, &mutated).unwrap();
    let mut dut = aqm_engine(Engine::Verilator).unwrap();
    let t = replay("mutated", &ops, dut.as_mut()).unwrap();
    assert_eq!(t.failed, 1);
}

#[test]
fn malformed_vector_names_file_and_line() {
    let err = parse_jsonl::<Op>(Path::new("bad.jsonl"), "{\"op\":\"config\",\"cfg\":{}}\n{\"op\":\"deq\",\"t\":5}\n").unwrap_err();
    assert!(err.to_string().starts_with("bad.jsonl:2: malformed vector"), "{err}");
    let err = parse_jsonl::<Op>(Path::new("bad.jsonl"), "{\"op\":\"config\",\"cfg\":{\"mode\":\"fast\"}}\n").unwrap_err();
    assert!(err.to_string().contains("bad.jsonl:1:"), "{err}");
}

/// Dequeues per mode in the suite: 100,000 on Verilator, a quarter on rust-hdl's simulator, the
/// slow engine; `cargo run --release -p sim-tests --bin fuzz` runs longer.
fn suite_dequeues(engine: Engine) -> u64 {
    match engine {
        Engine::Rusthdl => 12_500,
        _ => 100_000,
    }
}

fn fuzz_engine(engine: Engine, seed_base: u64) {
    let dequeues = suite_dequeues(engine);
    for (k, mode) in Mode::ALL.iter().enumerate() {
        let seed = seed(seed_base, k);
        let mut dut = aqm_engine(engine).unwrap();
        let cycles = lockstep(*mode, dequeues, seed, dut.as_mut()).unwrap_or_else(|e| panic!("{e}"));
        println!("{engine:?} {mode:?}: {dequeues} dequeues in {cycles} cycles, seed {seed:#x}, 0 mismatches");
    }
}

/// The suite's fuzz stimulus (both engines' seeds and lengths) reaches every case of the
/// two-clock marker's forwarding: a dequeue right after a due mark (and a clamped one), an entry,
/// CoDel's re-entry, an exit, and the tracker's start; and the tracker's own edge, a dequeue
/// whose age is exactly the interval (which the tracker's component test covered before the
/// marker became two stages).
#[test]
fn fuzz_reaches_every_forwarded_outcome() {
    use sim_tests::fuzz::{hazards, Hazards};
    let mut all = Hazards::default();
    for (engine, seed_base) in [(Engine::Verilator, VERILATOR_SEEDS), (Engine::Rusthdl, RUSTHDL_SEEDS)] {
        for (k, mode) in Mode::ALL.iter().enumerate() {
            let h = hazards(*mode, suite_dequeues(engine), seed(seed_base, k));
            all.after_step += h.after_step;
            all.after_clamped_step += h.after_clamped_step;
            all.after_entry += h.after_entry;
            all.after_reentry += h.after_reentry;
            all.after_exit += h.after_exit;
            all.after_tracker_start += h.after_tracker_start;
            all.age_on_interval += h.age_on_interval;
        }
    }
    println!("{all:?}");
    let Hazards { after_step, after_clamped_step, after_entry, after_reentry, after_exit, after_tracker_start, age_on_interval } = all;
    assert!(after_step > 3000 && after_entry > 200 && after_exit > 100 && after_tracker_start > 1000, "{all:?}");
    assert!(age_on_interval >= 10, "{all:?}");
    assert!(after_clamped_step >= 5 && after_reentry >= 10, "{all:?}");
}

const VERILATOR_SEEDS: u64 = 0xA0A0_0001;
const RUSTHDL_SEEDS: u64 = 0xB0B0_0002;

fn seed(base: u64, mode_index: usize) -> u64 {
    base ^ (mode_index as u64 * 0x9E37_79B9)
}

#[test]
fn fuzz_verilator_against_model() {
    fuzz_engine(Engine::Verilator, VERILATOR_SEEDS);
}

#[test]
fn fuzz_rusthdl_against_model() {
    fuzz_engine(Engine::Rusthdl, RUSTHDL_SEEDS);
}

#[test]
fn generated_verilog_passes_lint() {
    sim_tests::verilator::lint(&aqm_verilog()).unwrap();
}

/// `CountIndices` (stage `A`'s counts and table indices) against the model's count arithmetic,
/// for every outcome of `B` it selects on: for each pair of counts near 0, near 65,535 (where
/// every sum saturates) and at random, the count and indices a due mark writes on the counts
/// `B` leaves, and those an entry reads.
#[test]
fn count_indices_component_matches_the_count_arithmetic() {
    use hdl::aqm::lut::{lut_index, LawKind};
    use hdl::aqm::pipe::CountIndices;
    use hdl::cycle::Rng;
    let ix = |c: u16| {
        let (a, e) = lut_index(LawKind::Harmonic, c);
        (8 * e as usize + a - 8) as u64
    };
    let sat = |x: u32| x.min(0xFFFF) as u16;
    let mut counts: Vec<u16> = (0..10).chain(0x7FFE..0x8002).chain(0xFFF0..=0xFFFF).collect();
    let mut r = Rng::new(11);
    counts.extend((0..40).map(|_| r.below(1 << 16) as u16));
    let mut checked = 0u64;
    for mut dut in sim_tests::blocks::both_engines(CountIndices::default, "count_indices").unwrap() {
        for &cnt in &counts {
            for &lc in &counts {
                // B's outcome: (fwd, step, entry), and CoDel's re-entry flag and mode under it
                for outcome in 0..16u32 {
                    let (fwd, step, entry) = [(false, false, false), (true, false, false), (true, true, false), (true, false, true)][(outcome & 3) as usize];
                    let (reentry, codel) = (outcome & 4 != 0, outcome & 8 != 0);
                    let o = dut.eval(&[cnt as u64, lc as u64, fwd as u64, step as u64, entry as u64, reentry as u64, codel as u64]).to_vec();
                    dut.edge();
                    let delta = cnt.wrapping_sub(lc);
                    let (c, l) = match (fwd, step, entry) {
                        (true, true, _) => (sat(cnt as u32 + 1), lc),
                        (true, _, true) if codel && reentry => (delta, delta),
                        (true, _, true) if codel => (1, 1),
                        (true, _, true) => (1, lc),
                        _ => (cnt, lc),
                    };
                    let inc = sat(c as u32 + 1);
                    let want = [
                        delta as u64,
                        ix(sat(delta as u32 + 1)),
                        ix(sat(delta as u32 + 2)),
                        ix(1u16.wrapping_sub(lc)),
                        inc as u64,
                        ix(sat(c as u32 + 3)),
                        ix(inc.wrapping_sub(l)),
                    ];
                    assert_eq!(o, want, "cnt {cnt} lastcount {lc} fwd {fwd} step {step} entry {entry} reentry {reentry} codel {codel}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 2 * 16 * (counts.len() * counts.len()) as u64);
}

/// The control law's divider (`rtl::ControlLaw`, a component of the marker) against the table
/// model (`LawLut::eval`): every count 1..=65535 on Verilator and every 97th on rust-hdl, for
/// both laws over intervals from the spec's worked tables to the 16-bit maximum, including a
/// shift bias that reaches 32 and empties the result.
#[test]
fn control_law_component_matches_the_table_model() {
    use hdl::aqm::lut::{LawIn, LawKind, LawLut, LawOut};
    use hdl::aqm::rtl::ControlLaw;
    use hdl::cycle::Dut;
    use rust_hdl::prelude::*;
    use sim_tests::blocks::{RustHdlDut, VerilatorDut};
    let mut uut = ControlLaw::default();
    uut.connect_all();
    let mut engines: Vec<(Box<dyn Dut>, u16)> = vec![
        (Box::new(VerilatorDut::new("control_law", &generate_verilog(&uut), LawIn::PINS, LawOut::PINS).unwrap()), 1),
        (Box::new(RustHdlDut::<ControlLaw>::new().unwrap()), 97),
    ];
    let mut checked = 0u64;
    for kind in [LawKind::Harmonic, LawKind::Sqrt] {
        for p in [1u16, 85, 195, 200, 1000, 4096, 65535] {
            let mut lut = LawLut::for_law(kind, p);
            if p == 1 {
                lut.shift_bias = 40; // every shift ≥ 32: the result is 0
            }
            for (dut, step) in engines.iter_mut() {
                for c in (1..=65535u16).step_by(*step as usize) {
                    let got = LawOut::from_slice(dut.eval(&lut.pins(c).to_vec())).val;
                    dut.edge();
                    assert_eq!(got, lut.eval(c) as u64, "{kind:?} P={p} c={c} (step {step})");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 14 * 65535);
}
