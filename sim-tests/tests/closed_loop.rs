//! Closed loop (issue 9): the port on its golden model and on the Verilated RTL makes the same
//! marks and drops in the same scenario, and the short run of each scenario reproduces the
//! direction of the paper's result. Full runs: `cargo run --release -p sim-tests --bin
//! scenarios -- all` (README).

use sim_tests::netsim::bottleneck::PortEngine;
use sim_tests::netsim::net::DecisionKind;
use sim_tests::netsim::scenarios::{self, compare_decisions, Opts, Outcome};

fn opts(engine: PortEngine) -> Opts {
    Opts { engine, short: true, seed: 1 }
}

fn counts(o: &dyn Outcome) -> (usize, usize) {
    let all: Vec<_> = o.decisions().into_iter().flat_map(|(_, d)| d.iter().copied()).collect();
    (all.iter().filter(|d| d.kind == DecisionKind::Mark).count(), all.iter().filter(|d| d.kind != DecisionKind::Mark).count())
}

#[test]
fn model_and_rtl_make_identical_marks_and_drops() {
    let both = |f: &dyn Fn(Opts) -> Box<dyn Outcome>, min_drops: usize| {
        let (m, v) = (f(opts(PortEngine::Model)), f(opts(PortEngine::Verilator)));
        let (marks, drops) = counts(m.as_ref());
        assert!(marks > 1000 && drops >= min_drops, "{}: the scenario must exercise marks and drops ({marks}, {drops})", m.report().name);
        compare_decisions(m.as_ref(), v.as_ref()).unwrap_or_else(|e| panic!("{}: {e:#}", m.report().name));
    };
    both(&|o| Box::new(scenarios::incast(o).unwrap()), 100);
    both(&|o| Box::new(scenarios::gemini(o).unwrap()), 0);
    // The long-flow half of rtt-variation with every scheme (the web-search half runs on the
    // RTL in `scenarios rtt-variation --engine both`).
    let cfg = scenarios::net_10g();
    let schemes = scenarios::testbed_schemes(&cfg);
    let run = |e| scenarios::standing_queue(&cfg, &schemes, 8, 20_000.0, 8_000.0, e).unwrap();
    let (m, v) = (run(PortEngine::Model), run(PortEngine::Verilator));
    for (a, b) in m.iter().zip(&v) {
        assert!(!a.run.decisions.is_empty());
        assert_eq!(a.run.decisions, b.run.decisions, "{}", a.scheme);
        assert_eq!(a.run.queue, b.run.queue, "{}: queue trace", a.scheme);
    }
}

#[test]
fn rtt_variation_ecn_sharp_removes_the_standing_queue_and_speeds_short_flows() {
    let r = scenarios::rtt_variation(opts(PortEngine::Model)).unwrap();
    let s = |name: &str| r.standing.iter().find(|s| s.scheme.starts_with(name)).unwrap();
    let (tail, tcn, sharp) = (s("DCTCP-K Tail"), s("TCN"), s("ECN♯"));
    // ECN♯ §4.6/§4.8: the high-percentile threshold leaves a standing queue near it
    // (167 packets); ECN♯ holds it near pst_target (85 µs ≈ 70 packets) at equal throughput.
    assert!(tail.queue_mean > 140.0 && tcn.queue_mean > 140.0, "{} {}", tail.queue_mean, tcn.queue_mean);
    assert!(sharp.queue_mean < 0.6 * tail.queue_mean && sharp.queue_mean < 0.6 * tcn.queue_mean, "{}", sharp.queue_mean);
    assert!(sharp.gbps > 0.99 * tail.gbps && tail.gbps > 9.5, "{} {}", sharp.gbps, tail.gbps);
    // §4.4: lower short-flow FCT than the high-percentile threshold at 90 % load.
    let f = &r.fct[0].2;
    let (ftail, fsharp) = (&f[0], &f[4]);
    assert!(ftail.scheme.starts_with("DCTCP-K Tail") && fsharp.scheme.starts_with("ECN♯"));
    assert!(fsharp.short_avg < 0.95 * ftail.short_avg, "{} {}", fsharp.short_avg, ftail.short_avg);
    assert!(fsharp.short_p99 < ftail.short_p99, "{} {}", fsharp.short_p99, ftail.short_p99);
    assert!(f.iter().all(|x| x.unfinished == 0), "every flow completes");
}

/// §4.6: CoDel starts losing at 100 senders, ECN♯ at 175. One seed's incast is a draw of the
/// background flows' phase (`scenarios::incast_start_us`: a tick's shift moves how many senders
/// ECN♯ absorbs on a seed), so the claim is checked on three: at 100 senders ECN♯ drops fewer
/// than CoDel on each, and its query flows time out less over the three.
#[test]
fn incast_ecn_sharp_absorbs_more_senders_than_codel() {
    let (mut sharp_timeouts, mut codel_timeouts) = (0, 0);
    for seed in 1..=3 {
        let r = scenarios::incast(Opts { seed, ..opts(PortEngine::Model) }).unwrap();
        let at100 = |name: &str| r.runs.iter().find(|x| x.senders == 100 && x.scheme.starts_with(name)).unwrap();
        let (sharp, codel) = (at100("ECN♯"), at100("CoDel"));
        assert!(sharp.drops < codel.drops, "seed {seed}: drops {} {}", sharp.drops, codel.drops);
        assert!(codel.timeouts > 0, "seed {seed}: CoDel loses queries at 100 senders");
        (sharp_timeouts, codel_timeouts) = (sharp_timeouts + sharp.timeouts, codel_timeouts + codel.timeouts);
    }
    assert!(sharp_timeouts < codel_timeouts, "query timeouts at 100 senders over three seeds: {sharp_timeouts} {codel_timeouts}");
}

#[test]
fn gemini_keeps_the_dc_queue_low_and_shares_fairly_across_rtts() {
    let r = scenarios::gemini(opts(PortEngine::Model)).unwrap();
    let (g, d) = (r.runs.iter().find(|x| x.cc == "GEMINI").unwrap(), r.runs.iter().find(|x| x.cc == "DCTCP").unwrap());
    // Fig. 3.12: GEMINI shares equally across an 8× RTT spread, DCTCP in proportion to 1/RTT.
    let (gr, dr) = (g.inter_gbps / g.intra_gbps, d.inter_gbps / d.intra_gbps);
    assert!((0.75..1.33).contains(&gr), "GEMINI inter/intra {gr}");
    assert!(dr < 0.5, "DCTCP inter/intra {dr}");
    assert!(g.jain > 0.98 && g.jain > d.jain + 0.1, "{} {}", g.jain, d.jain);
    // Low DC queue near K = 50, no loss, full link.
    assert!(g.queue_mean < 60.0 && g.drops == 0, "{} {}", g.queue_mean, g.drops);
    assert!(g.per_flow.iter().sum::<f64>() > 0.95, "{:?}", g.per_flow);
}
