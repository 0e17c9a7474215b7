//! The CB-LT decoder RTL against the golden model: vectors, differential fuzz, framing and
//! hostile input, on rust-hdl (S = 16) and Verilator.

use sim_tests::aqm::Engine;
use sim_tests::cblt_decoder::*;

#[test]
fn fuzz_verilator_s16() {
    let st = fuzz_decoder(Engine::Verilator, (16, 32, 64), 1, 40).unwrap();
    println!("{st:?}");
    assert!(st.delivered > 10 && st.failed > 0, "{st:?}");
}

#[test]
fn fuzz_other_builds() {
    for (b, n) in [((1460, 32, 64), 4), ((100, 64, 64), 30), ((16, 32, 8), 40)] {
        let t = std::time::Instant::now();
        let st = fuzz_decoder(Engine::Verilator, b, 2, n).unwrap();
        println!("{b:?} {st:?} {:?}", t.elapsed());
    }
    let t = std::time::Instant::now();
    let st = fuzz_decoder(Engine::Rusthdl, (16, 32, 64), 3, 4).unwrap();
    println!("rust-hdl {st:?} {:?}", t.elapsed());
}
