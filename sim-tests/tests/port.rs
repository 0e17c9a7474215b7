//! The switch port on the Verilated RTL: one descriptor per clock in and out over a million
//! clocks, the DWRR 2:1:1 share behind a paced link (ECN♯ §6 V16), and conservation
//! read back through the port's counter read port after each run; and each per-system port
//! (`hdl::port::SYSTEMS`) against its golden model on both RTL engines.

use hdl::cycle::{Dut, Rng};
use hdl::port::vectors::{desc, rate};
use hdl::port::{csr, rd, PortIn, PortOut};
use sim_tests::aqm::Engine;
use sim_tests::blocks::block;

fn verilated_port() -> Box<dyn Dut> {
    block("port").unwrap().engine(Engine::Verilator).unwrap()
}

fn clock(dut: &mut dyn Dut, i: PortIn) -> PortOut {
    let o = PortOut::from_slice(dut.eval(&i.to_vec()));
    dut.edge();
    o
}

fn write(dut: &mut dyn Dut, addr: u16, data: u64) {
    clock(dut, PortIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..Default::default() });
}

fn read(dut: &mut dyn Dut, addr: u64) -> u64 {
    clock(dut, PortIn { csr_raddr: addr, ..Default::default() }).csr_rdata
}

/// Drain the port (no arrivals until nothing is resident or in flight), then check
/// in = enq + admission drops and enq = out + departure drops (+ resident + in flight, both 0
/// once drained, so the counters are read while nothing moves). Returns (in, out).
fn assert_conserved(dut: &mut dyn Dut) -> (u64, u64) {
    let mut idle = 0;
    while read(dut, rd::RESIDENT_PKTS) + read(dut, rd::IN_FLIGHT) > 0 {
        idle += 1;
        assert!(idle < 1_000_000, "the port does not drain");
    }
    let mut c = |a| read(dut, a);
    let (input, enq, mal, tail, sel) = (c(rd::IN), c(rd::ENQ), c(rd::DROP_MALFORMED), c(rd::DROP_TAIL), c(rd::DROP_SEL));
    let (out, aqm, ren, int) = (c(rd::OUT), c(rd::DROP_AQM), c(rd::DROP_REN), c(rd::DROP_INT));
    let (resident, flight) = (c(rd::RESIDENT_PKTS), c(rd::IN_FLIGHT));
    assert_eq!(input, enq + mal + tail + sel, "admission conservation");
    assert_eq!(enq, out + aqm + ren + int + resident + flight, "departure conservation");
    (input, out)
}

#[test]
fn sustains_one_descriptor_per_clock_for_a_million_clocks() {
    let mut dut = verilated_port();
    let mut r = Rng::new(1);
    let n = 1_000_000u64;
    let (mut admitted, mut out, mut grants) = (0u64, 0u64, 0u64);
    for _ in 0..n {
        let o = clock(dut.as_mut(), desc(r.below(8), 64 + r.below(1437), 1 + r.below(2)));
        admitted += o.in_admit;
        grants += o.grant;
        out += o.out_valid;
    }
    let in_run = grants;
    for _ in 0..5 {
        let o = clock(dut.as_mut(), PortIn::default());
        admitted += o.in_admit;
        grants += o.grant;
        out += o.out_valid;
    }
    println!(
        "Verilated port, {n} clocks of back-to-back arrivals: {:.6} descriptors/clock in, {:.6} out (the same number of clocks, five later) ({} admitted, {} granted, {} out)",
        admitted as f64 / n as f64,
        out as f64 / n as f64,
        admitted,
        grants,
        out
    );
    assert_eq!((admitted, out), (n, n), "every descriptor admitted and sent, one per clock");
    assert_eq!(grants, n, "every descriptor granted");
    assert_eq!(in_run, n - 3, "a queue popped on every clock after the third (the first arrival is admitted in the second and picked in the third)");
    assert_eq!(assert_conserved(dut.as_mut()), (n, n));
}

#[test]
fn dwrr_2_1_1_gets_50_25_25_of_a_paced_link() {
    let mut dut = verilated_port();
    for (q, v) in [(0u16, 3000), (1, 1500), (2, 1500)] {
        write(dut.as_mut(), csr::BLOCK_DWRR | q, v);
    }
    write(dut.as_mut(), csr::RATE, rate(300.0));
    let mut r = Rng::new(2);
    let mut bytes = [0u64; 3];
    for t in 0..1_000_000u64 {
        let o = clock(dut.as_mut(), desc(t % 3, 64 + r.below(1437), 2));
        if o.out_valid == 1 {
            bytes[o.out_q as usize] += o.out_len;
        }
    }
    let total: u64 = bytes.iter().sum();
    let share: Vec<f64> = bytes.iter().map(|b| *b as f64 / total as f64).collect();
    println!("DWRR 2:1:1 on the Verilated port, 1,000,000 clocks, link 300 B/clock: shares {:.4} / {:.4} / {:.4}", share[0], share[1], share[2]);
    for (q, want) in [(0, 0.5), (1, 0.25), (2, 0.25)] {
        assert!((share[q] - want).abs() < 0.01, "queue {q}: {}", share[q]);
    }
    let (input, out) = assert_conserved(dut.as_mut());
    assert!(out > 100_000 && input == 1_000_000, "{input} {out}");
}

/// Every per-system port, built with only its system's blocks, has its model's pins and matches
/// its golden model on every output of every clock of the port's fuzz stimulus (which writes
/// every block's registers, `EMU_Q` and `SEL_Q` included): 200,000 clocks on Verilator, 5,000
/// on rust-hdl.
#[test]
fn per_system_ports_match_their_models() {
    let systems = sim_tests::blocks::port_systems();
    let names: Vec<_> = systems.iter().map(|b| b.name).collect();
    assert_eq!(names, hdl::port::SYSTEMS.iter().map(|s| s.name).collect::<Vec<_>>());
    for b in &systems {
        let (inputs, outputs) = (b.rtl_pins)();
        assert_eq!((inputs.as_slice(), outputs.as_slice()), (b.inputs, b.outputs), "{}: the RTL's pins, names and widths, are the model's", b.name);
        for (engine, clocks) in [(Engine::Verilator, 200_000), (Engine::Rusthdl, 5_000)] {
            let s = b.fuzz(engine, 1, clocks).unwrap_or_else(|e| panic!("{e:#}"));
            println!("{} on {engine:?}: {} clocks, {} arrivals, 0 mismatches", b.name, s.cycles, s.events);
            assert_eq!(s.cycles, clocks);
        }
    }
}
