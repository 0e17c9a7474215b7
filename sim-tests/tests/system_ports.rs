//! The closed loops run on their system's port (`hdl::port::SYSTEMS`); this checks, on the
//! golden model, that the full port decides the same in each short scenario: every drop, mark and
//! code, and the printed report (`scenarios::compare_ports`). So the blocks a system does not
//! use stay inert, and the results committed for the full port hold for the system's port.
//! Full runs: `cargo run --release -p sim-tests --bin scenarios -- all --port both`.
//!
//! Its own test binary: the port choice is process-wide (`use_full_port_everywhere`).

use sim_tests::netsim::bottleneck::{use_full_port_everywhere, PortEngine};
use sim_tests::netsim::scenarios::{self, compare_ports, Opts, Outcome};

#[test]
fn each_system_port_decides_as_the_full_port() {
    let o = Opts { engine: PortEngine::Model, short: true, seed: 1 };
    let runs: [(&str, fn(Opts) -> Box<dyn Outcome>); 5] = [
        ("incast", |o| Box::new(scenarios::incast(o).unwrap())),
        ("gemini", |o| Box::new(scenarios::gemini(o).unwrap())),
        ("ren", |o| Box::new(sim_tests::netsim::ren::ren(o).unwrap())),
        ("fastconv", |o| Box::new(sim_tests::netsim::fastconv::fastconv(o).unwrap())),
        ("flashpass", |o| Box::new(sim_tests::netsim::flashpass::flashpass(o).unwrap())),
    ];
    for (name, run) in runs {
        use_full_port_everywhere(false);
        let system = run(o);
        use_full_port_everywhere(true);
        let full = run(o);
        let (n, decisions) = compare_ports(system.as_ref(), full.as_ref()).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert!(n > 0, "{name}: no runs");
        println!("{name}: {n} runs, {decisions} decisions, the same on both ports");
    }
    use_full_port_everywhere(false);
}
