//! Port vectors: a descriptor per clock through the default port, the V16 DWRR 2:1:1 split
//! behind a paced link, admission (malformed, tail, selective drop), the shaped strict-priority
//! emulation queue, per-queue AQM state, REN and INT on the departing descriptor, and the
//! random stimulus of the differential fuzz.

use super::model::PortModel;
use super::{csr, rd, PortIn, PortOut};
use crate::cycle::{Op, Rng, Script};
use crate::{aqm, dwrr, seldrop, shaper};

/// The configuration the vectors and the fuzz use: 8 queues of 16 descriptors.
pub type Port8x16 = PortModel<8, 4>;
pub type PortScript = Script<Port8x16>;

/// One register write (12-bit address: block | register).
pub fn wr(s: &mut PortScript, addr: u16, data: u64) {
    s.cycle(PortIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..Default::default() }.to_vec(), 1);
}

/// An arriving descriptor.
pub fn desc(class: u64, len: u64, ecn: u64) -> PortIn {
    PortIn { in_valid: 1, in_class: class, in_len: len, in_ecn: ecn, in_is_data: 1, ..Default::default() }
}

/// Run `n` clocks of `f(clock)` and return the outputs of every clock.
pub fn run(s: &mut PortScript, n: usize, mut f: impl FnMut(usize) -> PortIn) -> Vec<PortOut> {
    (0..n).map(|t| PortOut::from_slice(&s.cycle(f(t).to_vec(), 1))).collect()
}

/// Read every port counter through the read port (one clock each).
pub fn read_counters(s: &mut PortScript) {
    for a in (rd::IN..=rd::IN_FLIGHT).chain(rd::QLEN0..rd::QLEN0 + 8) {
        s.cycle(PortIn { csr_raddr: a, ..Default::default() }.to_vec(), 1);
    }
}

/// Link rate in bytes per clock as the 16.8 fixed-point `RATE` register.
pub fn rate(bytes_per_clock: f64) -> u64 {
    (bytes_per_clock * 256.0).round() as u64
}

fn basic_file() -> Vec<Op> {
    let mut s = PortScript::default();
    s.note("default port: one descriptor per clock in, admitted in the clock after it arrives (the input stage), picked in the next, popped in the one after, out two clocks after its pop");
    run(&mut s, 40, |t| desc(t as u64 % 8, 64 + 37 * t as u64, (t % 4) as u64));
    run(&mut s, 4, |_| PortIn::default());
    s.note("a burst into one class queues behind the link: RATE 84 B/clock, 64-B frames (84 wire bytes) leave one per clock, 1518-B ones one per 19 clocks");
    wr(&mut s, csr::RATE, rate(84.0));
    run(&mut s, 12, |_| desc(3, 64, 2));
    run(&mut s, 6, |_| desc(3, 1518, 2));
    run(&mut s, 140, |_| PortIn::default());
    s.note("CLASS_MAP sends every class to queue 5; counters read back");
    wr(&mut s, csr::CLASS_MAP, 0o55555555);
    run(&mut s, 10, |t| desc(t as u64 % 8, 100, 1));
    run(&mut s, 30, |_| PortIn::default());
    read_counters(&mut s);
    s.ops
}

fn dwrr_file() -> Vec<Op> {
    let mut s = PortScript::default();
    s.note("V16 at the port: quanta 3000/1500/1500, 1500-B descriptors into classes 0-2 every clock, link 380 B/clock (one 1520-B wire frame per 4 clocks): Q0 Q0 Q1 Q2 per round, tail drops at depth 16");
    for (q, v) in [(0u16, 3000), (1, 1500), (2, 1500)] {
        wr(&mut s, csr::BLOCK_DWRR | (dwrr::csr::QUANTUM0 as u16 + q), v);
    }
    wr(&mut s, csr::RATE, rate(380.0));
    run(&mut s, 400, |t| desc(t as u64 % 3, 1500, 2));
    s.note("strict priority on queue 7 (PRIO_MASK bit 7) preempts the DWRR round");
    wr(&mut s, csr::BLOCK_DWRR | dwrr::csr::PRIO_MASK as u16, 0x80);
    run(&mut s, 80, |t| if t % 10 == 0 { desc(7, 200, 2) } else { desc(t as u64 % 3, 1500, 2) });
    run(&mut s, 200, |_| PortIn::default());
    read_counters(&mut s);
    s.ops
}

fn admission_file() -> Vec<Op> {
    let mut s = PortScript::default();
    s.note("malformed (length 0, above MAX_LEN) and tail drop at QCAP 4 with a slow link");
    wr(&mut s, csr::RATE, rate(10.0));
    wr(&mut s, csr::QCAP, 4);
    wr(&mut s, csr::MAX_LEN, 1518);
    run(&mut s, 12, |t| desc(1, [0, 1519, 100, 100, 100, 100, 100, 100, 100, 64, 64, 64][t], 2));
    s.note("the input stage judges an arrival by the CLASS_MAP, MAX_LEN and QCAP of its own clock: writes in that clock apply to the next arrival");
    wr(&mut s, csr::QCAP, 16);
    wr(&mut s, csr::MAX_LEN, 9216);
    wr(&mut s, csr::RATE, rate(2000.0));
    let staged = |addr: u16, data: u64, d: PortIn| PortIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..d };
    run(&mut s, 6, |t| match t {
        0 => staged(csr::CLASS_MAP, 0o66666666, desc(1, 2000, 2)),
        1 => staged(csr::MAX_LEN, 1000, desc(1, 2000, 2)),
        2 => desc(1, 2000, 2),
        _ => PortIn::default(),
    });
    wr(&mut s, csr::CLASS_MAP, 0o76543210);
    wr(&mut s, csr::MAX_LEN, 1518);
    wr(&mut s, csr::RATE, rate(10.0));
    wr(&mut s, csr::QCAP, 4);
    run(&mut s, 5, |t| match t {
        0 => desc(3, 100, 2),
        1 => staged(csr::QCAP, 1, desc(3, 100, 2)),
        2 => desc(3, 100, 2),
        _ => PortIn::default(),
    });
    wr(&mut s, csr::QCAP, 4);
    s.note("MAX_LEN above 16383 is refused (the FIFO keeps 14 bits of length)");
    wr(&mut s, csr::MAX_LEN, 16384);
    run(&mut s, 2, |_| desc(2, 1519, 2));
    s.note("selective drop on queue 2 (SEL_Q): K = 2 packets, CAP 8: above K ECT is marked CE at enqueue and Not-ECT / low-priority is dropped");
    wr(&mut s, csr::QCAP, 16);
    wr(&mut s, csr::SEL_Q, 0x12);
    run(&mut s, 14, |t| PortIn { in_low_prio: (t % 5 == 4) as u64, ..desc(2, 84, [2, 0, 1, 2, 0, 2, 1][t % 7]) });
    run(&mut s, 120, |_| PortIn::default());
    wr(&mut s, csr::BLOCK_SELDROP | seldrop::csr::K as u16, 0);
    run(&mut s, 6, |t| desc(2, 84, [0, 2][t % 2]));
    run(&mut s, 60, |_| PortIn::default());
    read_counters(&mut s);
    s.ops
}

fn emulation_file() -> Vec<Op> {
    let mut s = PortScript::default();
    s.note("FlashPass emulation queue 7: shaped to 84/1622 of an 8 B/clock link (shaper FILL_FRAC 672 of SCALE 1622) and strict priority over data queues 0-1");
    wr(&mut s, csr::RATE, rate(8.0));
    wr(&mut s, csr::EMU_Q, 0x17);
    wr(&mut s, csr::BLOCK_DWRR | dwrr::csr::PRIO_MASK as u16, 0x80);
    for (a, v) in shaper::rate_writes(672, 1622, 168) {
        wr(&mut s, csr::BLOCK_SHAPER | a as u16, v);
    }
    run(&mut s, 1200, |t| match t % 6 {
        0 | 3 => desc(7, 64, 2),
        1 => desc(0, 1500, 2),
        4 => desc(1, 700, 2),
        _ => PortIn::default(),
    });
    run(&mut s, 1500, |_| PortIn::default());
    read_counters(&mut s);
    s.ops
}

fn aqm_file() -> Vec<Op> {
    let mut s = PortScript::default();
    s.note("per-queue AQM (TCN, ins_target 40 ticks; drop_non_ect): queue 0 builds a standing queue behind a 50 B/clock link and marks, queue 1 stays empty and never marks");
    wr(&mut s, csr::RATE, rate(50.0));
    wr(&mut s, csr::BLOCK_AQM | aqm::csr::INS_TARGET as u16, 40);
    wr(&mut s, csr::BLOCK_AQM | aqm::csr::MODE as u16, aqm::Mode::Tcn.bits() as u64 | 1 << 6);
    run(&mut s, 300, |t| match t % 10 {
        0..=5 => desc(0, 400, [2, 1, 0][t % 3]),
        7 => desc(1, 64, 2),
        _ => PortIn::default(),
    });
    run(&mut s, 200, |_| PortIn::default());
    s.note("ECN# mode with the paper's law (pst_target 20, pst_interval 100, ins_target 400): persistent marks on queue 3 only");
    let cfg = aqm::Config { mode: aqm::Mode::EcnSharp, ins_target: 400, pst_target: 20, pst_interval: 100, ..Default::default() };
    for (a, d) in cfg.csr_writes() {
        wr(&mut s, csr::BLOCK_AQM | a as u16, d as u64);
    }
    run(&mut s, 600, |t| if t % 3 == 0 { desc(4, 200, 2) } else { desc(3, 120, 1) });
    run(&mut s, 200, |_| PortIn::default());
    read_counters(&mut s);
    s.ops
}

fn ren_int_file() -> Vec<Op> {
    let mut s = PortScript::default();
    s.note("REN (period 200 clocks, MSS 100) codes departing data packets from the port's idle gaps and backlog; INT stamps ts/bytes/qlen; the time base is loaded near its wrap");
    wr(&mut s, csr::BLOCK_REN | crate::ren::csr::PERIOD as u16, 200);
    wr(&mut s, csr::BLOCK_REN | crate::ren::csr::MSS as u16, 100);
    wr(&mut s, csr::TIME_LOAD, 0xFFFF_FF00);
    wr(&mut s, csr::RATE, rate(20.0));
    run(&mut s, 900, |t| match (t / 150) % 3 {
        0 => PortIn::default(),
        1 => desc((t % 2) as u64, 60 + (t % 7) as u64 * 10, [1, 2][t % 2]),
        _ => if t % 8 == 0 { PortIn { in_is_data: 0, ..desc(2, 64, 0) } } else { PortIn::default() },
    });
    read_counters(&mut s);
    s.ops
}

pub fn render() -> Vec<(&'static str, String)> {
    crate::cycle::render_files(
        "Switch port",
        "hdl/src/port/vectors.rs",
        vec![
            ("basic.jsonl", basic_file()),
            ("dwrr.jsonl", dwrr_file()),
            ("admission.jsonl", admission_file()),
            ("emulation.jsonl", emulation_file()),
            ("aqm.jsonl", aqm_file()),
            ("ren_int.jsonl", ren_int_file()),
        ],
    )
}

/// One clock of fuzz stimulus: an arrival in most clocks (some malformed, some low priority),
/// a random read address, and register writes to every block, biased to the ones that change
/// the dataflow (rate, capacity, emulation and selective-drop queues, quanta, AQM mode).
pub fn random_cycle(r: &mut Rng) -> Vec<u64> {
    let mut i = PortIn { csr_raddr: r.below(26), ..Default::default() };
    if r.chance(85) {
        i = PortIn { csr_raddr: i.csr_raddr, ..desc(r.below(8), 1 + r.below(1600), r.below(4)) };
        i.in_low_prio = r.chance(20) as u64;
        i.in_is_data = r.chance(90) as u64;
        if r.chance(2) {
            i.in_len = [0, 9217, 16383, 65535][r.below(4) as usize];
        }
    }
    if r.chance(1) {
        i.csr_we = 1;
        let (a, d): (u16, u64) = match r.below(16) {
            0 | 1 => (csr::RATE, [rate(1.0), rate(50.0), rate(200.0), rate(1700.0), r.below(1 << 24)][r.below(5) as usize]),
            2 => (csr::QCAP, r.below(20)),
            3 => (csr::EMU_Q, r.below(32)),
            4 => (csr::SEL_Q, r.below(32)),
            5 => (csr::CLASS_MAP, r.next() & 0xFF_FFFF),
            6 => (csr::MAX_LEN, [1518, 9216, 16383, 20000][r.below(4) as usize]),
            7 => (csr::TIME_LOAD, r.next() & 0xFFFF_FFFF),
            8 => (csr::BLOCK_DWRR | r.below(8) as u16, 1 + r.below(4000)),
            9 => (csr::BLOCK_DWRR | dwrr::csr::PRIO_MASK as u16, r.below(256) & r.below(256)),
            10 => (csr::BLOCK_AQM | aqm::csr::MODE as u16, r.below(128)),
            11 => (csr::BLOCK_AQM | r.below(8) as u16, r.below(300)),
            12 => (csr::BLOCK_SELDROP | (1 + r.below(2)) as u16, r.below(12)),
            13 => (csr::BLOCK_SHAPER | shaper::csr::FILL_FRAC as u16, r.below(2000)),
            14 => (csr::BLOCK_REN | [0, 2, 3][r.below(3) as usize], 1 + r.below(2000)),
            _ => (r.below(0x1000) as u16, r.next() & 0xFFFF_FFFF),
        };
        (i.csr_addr, i.csr_wdata) = (a as u64, d);
    }
    i.to_vec()
}

#[cfg(test)]
mod spec_tests {
    use super::*;
    use crate::cycle::CycleModel;
    use crate::port::drop;

    /// Conservation on every clock: in = enq + drops at admission, enq = out + drops at
    /// departure + resident + in flight; and the resident byte count matches the FIFOs.
    fn assert_conserved(m: &Port8x16) {
        let c = &m.cnt;
        assert_eq!(c.input, c.enq + c.drop_malformed + c.drop_tail + c.drop_sel, "{c:?}");
        assert_eq!(c.enq, c.out + c.drop_aqm + c.drop_ren + c.drop_int + m.resident_pkts() + m.d1.is_some() as u64 + m.d2.is_some() as u64, "{c:?}");
        assert_eq!(c.enq, c.deq + m.resident_pkts());
        assert_eq!(m.resident_bytes, m.fifo.iter().flatten().map(|d| d.len).sum::<u64>());
        assert!(m.fifo.iter().all(|f| f.len() <= 16));
    }

    /// The input stage (the README's *Arrival*): an arrival is classified and its length checked
    /// with the registers of the clock it arrives in, and admitted in the next clock; a write in
    /// its clock applies to the arrivals after it. Expected values worked from that rule.
    #[test]
    fn the_input_stage_judges_an_arrival_by_the_registers_of_its_clock() {
        let mut m = Port8x16::default();
        let with_write = |addr: u16, data: u64, d: PortIn| PortIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..d };
        let mut step = |i: PortIn| PortOut::from_slice(&m.step(&i.to_vec()));
        // clock 0: class 1 (default map: queue 1) arrives as CLASS_MAP sends every class to queue 6
        let o = step(with_write(csr::CLASS_MAP, 0o66666666, desc(1, 2000, 2)));
        assert_eq!((o.in_admit, o.in_drop, o.grant), (0, 0, 0), "nothing is admitted in the clock it arrives");
        // clock 1: the first is admitted to queue 1; the second arrives (queue 6) as MAX_LEN drops to 1000
        let o = step(with_write(csr::MAX_LEN, 1000, desc(1, 2000, 2)));
        assert_eq!((o.in_admit, o.in_drop, o.grant), (1, drop::NONE, 0));
        // clock 2: the second is admitted (its length was checked against 9216), the first is
        // picked; the third arrives
        let o = step(desc(1, 2000, 2));
        assert_eq!((o.in_admit, o.in_drop, o.grant), (1, drop::NONE, 0));
        // clock 3: the third is malformed (2000 > 1000); the first, in queue 1, pops
        let o = step(PortIn::default());
        assert_eq!((o.in_admit, o.in_drop, o.grant, o.grant_q), (0, drop::MALFORMED, 1, 1), "the first, in queue 1, pops");
        let o = step(PortIn::default());
        assert_eq!((o.in_admit, o.in_drop, o.grant, o.grant_q), (0, drop::NONE, 1, 6), "the second went to queue 6");
        let o = step(PortIn::default());
        assert_eq!((o.in_admit, o.in_drop, o.grant), (0, drop::NONE, 0));
        assert_eq!((m.cnt.input, m.cnt.enq, m.cnt.drop_malformed, m.cnt.deq), (3, 2, 1, 2));
    }

    /// The same rule for `QCAP`: an arrival's queue is tested against the `QCAP` of its arrival's
    /// clock, with the occupancy of its admission's clock. Expected values worked from that rule
    /// (none depends on whether the slow link grants the first descriptor in the window).
    #[test]
    fn the_qcap_test_reads_the_qcap_of_the_arrival_clock() {
        let mut m = Port8x16::default();
        let with_write = |addr: u16, data: u64, d: PortIn| PortIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..d };
        let mut step = |i: PortIn| PortOut::from_slice(&m.step(&i.to_vec()));
        step(with_write(csr::RATE, rate(10.0), PortIn::default()));
        step(with_write(csr::QCAP, 2, PortIn::default()));
        // clock 2: the first arrives (queue 1, empty), QCAP 2
        step(desc(1, 100, 2));
        // clock 3: the first is admitted; the second arrives as QCAP drops to 1
        let o = step(with_write(csr::QCAP, 1, desc(1, 100, 2)));
        assert_eq!((o.in_admit, o.in_drop), (1, drop::NONE));
        // clock 4: the second meets a count of 1 against its clock's QCAP 2: admitted
        let o = step(desc(1, 100, 2));
        assert_eq!((o.in_admit, o.in_drop), (1, drop::NONE), "the QCAP write of the arrival's clock is not its test's");
        // clock 5: the third meets a count of 1 or 2 against QCAP 1: tail drop
        let o = step(PortIn::default());
        assert_eq!((o.in_admit, o.in_drop), (0, drop::TAIL));
    }

    /// The port's counters count an event at the edge after its clock (`LateCounter`), so the
    /// read port shows it from the second clock after it. Expected values worked from that rule.
    #[test]
    fn a_counter_shows_its_event_from_the_second_clock_after_it() {
        let mut m = Port8x16::default();
        let read = |a: u64, d: PortIn| PortIn { csr_raddr: a, ..d };
        let mut step = |i: PortIn| PortOut::from_slice(&m.step(&i.to_vec()));
        // clock 0: an arrival; clock 1: its admission (the IN and ENQ events)
        assert_eq!(step(read(rd::IN, desc(1, 100, 2))).csr_rdata, 0);
        let o = step(read(rd::IN, PortIn::default()));
        assert_eq!((o.in_admit, o.csr_rdata), (1, 0));
        // clock 2: it is picked; IN still shows 0, counted at the edge that ends clock 1
        let o = step(read(rd::IN, PortIn::default()));
        assert_eq!((o.grant, o.csr_rdata), (0, 0));
        // clock 3: it pops (the DEQ event)
        let o = step(read(rd::ENQ, PortIn::default()));
        assert_eq!((o.grant, o.csr_rdata), (1, 1), "clock 3: ENQ shows the admission");
        assert_eq!(step(read(rd::DEQ, PortIn::default())).csr_rdata, 0, "clock 4");
        assert_eq!(step(read(rd::DEQ, PortIn::default())).csr_rdata, 1, "clock 5: DEQ shows the pop");
        // clock 5 is `D2`'s (the OUT event): OUT shows it from clock 7
        assert_eq!(step(read(rd::OUT, PortIn::default())).csr_rdata, 0, "clock 6");
        assert_eq!(step(read(rd::OUT, PortIn::default())).csr_rdata, 1, "clock 7");
    }

    #[test]
    fn fuzz_conserves_descriptors() {
        let mut m = Port8x16::default();
        let mut r = Rng::new(3);
        for _ in 0..200_000 {
            m.step(&random_cycle(&mut r));
            assert_conserved(&m);
        }
        let c = &m.cnt;
        assert!(c.out > 10_000 && c.drop_tail > 1000 && c.drop_malformed > 100 && c.drop_sel > 10, "{c:?}");
        assert!(c.drop_aqm > 0 && c.marked_aqm > 0, "{c:?}");
    }

    /// With the default (unlimited) link every arrival is admitted in the next clock (its input
    /// stage) and leaves five clocks after it arrived (picked in the clock after its admission,
    /// popped in the next, judged by the AQM in `D1`, out from `D2`).
    #[test]
    fn one_descriptor_per_clock_in_and_out() {
        let mut m = Port8x16::default();
        let mut r = Rng::new(1);
        let n = 100_000;
        let (mut admitted, mut out) = (0, 0);
        for t in 0..n {
            let o = PortOut::from_slice(&m.step(&desc(r.below(8), 64 + r.below(1437), 2).to_vec()));
            admitted += o.in_admit;
            out += o.out_valid;
            assert_eq!(o.in_admit, (t >= 1) as u64, "clock {t}");
            assert_eq!(o.grant, (t >= 3) as u64, "clock {t}");
            assert_eq!(o.out_valid, (t >= 5) as u64, "clock {t}");
        }
        assert_eq!((admitted, out), (n - 1, n - 5));
        assert_conserved(&m);
    }

    /// V16 at the port: with quanta 3000/1500/1500 and the link the bottleneck, the three
    /// saturated queues get 50/25/25 % of the departing bytes within 1 %.
    #[test]
    fn dwrr_2_1_1_share_behind_a_paced_link() {
        let mut m = Port8x16::default();
        for (q, v) in [(0, 3000), (1, 1500), (2, 1500)] {
            m.dwrr.quantum[q] = v;
        }
        m.rate = rate(300.0);
        let mut r = Rng::new(9);
        let mut bytes = [0u64; 3];
        for t in 0..300_000u64 {
            let o = PortOut::from_slice(&m.step(&desc(t % 3, 64 + r.below(1437), 2).to_vec()));
            if o.out_valid == 1 {
                bytes[o.out_q as usize] += o.out_len;
            }
        }
        let total: u64 = bytes.iter().sum();
        for (q, want) in [(0, 0.5), (1, 0.25), (2, 0.25)] {
            let got = bytes[q] as f64 / total as f64;
            assert!((got - want).abs() < 0.01, "queue {q}: {got}");
        }
    }

    /// A port built without a block shows no trace of it on the fuzz stimulus (no drop, mark or
    /// selective drop of its own, a zero INT record) while the blocks it has act, and it
    /// conserves descriptors.
    fn blocks_act_only_where_built<const F: usize>() {
        use crate::port::features::*;
        let mut m = PortModel::<8, 4, F>::default();
        let mut r = Rng::new(5);
        let mut stamped = false;
        for _ in 0..200_000 {
            let o = PortOut::from_slice(&m.step(&random_cycle(&mut r)));
            stamped |= o.out_hop_lo | o.out_hop_hi != 0;
        }
        let (c, has) = (&m.cnt, |f: usize| F & f != 0);
        // (the stimulus seldom makes a descriptor malformed for INT alone: its drops are only absent)
        assert!(stamped == has(INT) && (has(INT) || c.drop_int == 0), "INT, blocks {F:#x}: {c:?}");
        assert_eq!((c.drop_aqm > 0, c.marked_aqm > 0), (has(AQM), has(AQM)), "AQM, blocks {F:#x}: {c:?}");
        assert_eq!(c.drop_ren > 0, has(REN), "REN, blocks {F:#x}: {c:?}");
        assert_eq!(c.drop_sel > 0, has(SELDROP), "selective drop, blocks {F:#x}: {c:?}");
        assert_eq!(c.input, c.enq + c.drop_malformed + c.drop_tail + c.drop_sel, "{c:?}");
        assert_eq!(c.enq, c.out + c.drop_aqm + c.drop_ren + c.drop_int + m.resident_pkts() + m.d1.is_some() as u64 + m.d2.is_some() as u64, "{c:?}");
    }

    #[test]
    fn per_system_ports_have_only_their_blocks() {
        use crate::port::{features, with_features, FeatureVisitor, SYSTEMS};
        struct Check;
        impl FeatureVisitor for Check {
            type Out = ();
            fn visit<const F: usize>(self) {
                blocks_act_only_where_built::<F>()
            }
        }
        with_features(features::ALL, Check).expect("the full port");
        for s in SYSTEMS {
            with_features(s.features, Check).unwrap_or_else(|| panic!("{} is not instantiated", s.name));
        }
        // every block is in some system's port, and no two systems share a name
        assert_eq!(SYSTEMS.iter().fold(0, |a, s| a | s.features), features::ALL);
        let mut names: Vec<_> = SYSTEMS.iter().map(|s| s.name).collect();
        names.dedup();
        assert_eq!(names.len(), SYSTEMS.len());
        assert!(with_features(features::AQM | features::REN, Check).is_none(), "an unbuilt set is refused");
    }

    #[test]
    fn committed_vectors_are_fresh() {
        crate::cycle::assert_fresh("port", render());
    }
}
