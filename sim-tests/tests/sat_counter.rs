//! The saturating counter every block's statistics use (`hdl::rtl_util::SatCounter`) against
//! its definition, `count = min(count + 1, 2^32 − 1)` with a load winning, on rust-hdl's
//! simulator: random increments and loads, most of them next to the saturation point.

use hdl::cycle::{Dut, Rng};
use hdl::rtl_util::SatCounter;
use sim_tests::blocks::RustHdlDut;

#[test]
fn sat_counter_matches_its_definition_around_saturation() {
    let mut dut = RustHdlDut::<SatCounter>::new().unwrap();
    let mut rng = Rng::new(0x5A7C);
    let mut model: u64 = 0;
    let mut saturated_incs = 0;
    for step in 0..20_000 {
        let load = rng.below(8) == 0;
        let inc = rng.below(4) != 0;
        let load_val = match rng.below(4) {
            0 => 0xFFFF_FFFF,
            1 => 0xFFFF_FFFF - rng.below(4),
            2 => rng.below(8),
            _ => rng.below(1 << 32),
        };
        let out = dut.eval(&[inc as u64, load as u64, load_val]);
        assert_eq!(out[0], model, "step {step}");
        dut.edge();
        if load {
            model = load_val;
        } else if inc {
            saturated_incs += (model == 0xFFFF_FFFF) as u32;
            model = (model + 1).min(0xFFFF_FFFF);
        }
    }
    assert!(saturated_incs > 100, "the run must increment at saturation: {saturated_incs}");
}

/// `LateCounter` (the statistics of the pipelined blocks) against `cycle::LateCounters`: an event
/// is counted at the edge after its clock, a preset at its own edge drops the waiting event.
#[test]
fn late_counter_counts_a_clock_late_and_matches_its_model() {
    use hdl::cycle::LateCounters;
    use hdl::rtl_util::LateCounter;
    let mut dut = RustHdlDut::<LateCounter>::new().unwrap();
    let mut rng = Rng::new(0x1A7E);
    let mut model = LateCounters::<1>::default();
    let (mut saturated, mut dropped_by_preset) = (0, 0);
    for step in 0..20_000 {
        let load = rng.below(8) == 0;
        let inc = rng.below(4) != 0;
        let load_val = if rng.below(2) == 0 { 0xFFFF_FFFF - rng.below(4) } else { rng.below(1 << 32) };
        let out = dut.eval(&[inc as u64, load as u64, load_val]);
        assert_eq!(out[0], model[0], "step {step}");
        dut.edge();
        saturated += (model[0] == 0xFFFF_FFFF) as u32;
        dropped_by_preset += (load && inc) as u32;
        model.edge([inc], load.then_some((0, load_val)));
    }
    assert!(saturated > 100 && dropped_by_preset > 100, "{saturated} {dropped_by_preset}");
    // the lag itself, from the definition: one event shows two clocks after the clock it is in
    let mut dut = RustHdlDut::<LateCounter>::new().unwrap();
    let seen: Vec<u64> = [1, 0, 0].iter().map(|&inc| {
        let v = dut.eval(&[inc, 0, 0])[0];
        dut.edge();
        v
    }).collect();
    assert_eq!(seen, [0, 0, 1]);
}
