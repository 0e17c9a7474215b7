//! Sweeps: a scenario over one axis (load, senders) × seeds, as a plan of independent jobs,
//! each reproducible from its seed, merged into a report with the mean and the 95 % confidence
//! interval over seeds, and the papers' figures redrawn as curves with error bars.
//!
//! A job writes one JSON file (`jobs/<id>.json`) and nothing else, so a plan runs the same
//! anywhere: all on this machine (`run`), a shard of it (`run --shard i/n`), or as a Slurm job
//! array whose task i runs shard i (`slurm`); `merge` reads whatever files are there. The merged
//! report depends only on the job files, so a local run and a Slurm run give the same bytes.
//!
//! Sweeps:
//! * `fct-load` (ECN♯ §4.4, the paper's FCT-against-load figures): web-search flows on the
//!   10 Gb/s port at each load, the five testbed schemes on the same flows; short-flow mean and
//!   p99 FCT, overall mean, large-flow mean, timeouts.
//! * `incast` (ECN♯ §4.6): N synchronous query flows over four long flows, the three deep-dive
//!   schemes; query-flow timeouts and p99 FCT against N.
//! * `rtt-spread` (ECN♯ §4.4, the paper's premise): the same web-search flows at 80 % load with
//!   the base-RTT spread scaled from none (every flow 70 µs) to 5× (70–350 µs), the five testbed
//!   schemes with their thresholds for the 3× network; short-flow FCT against the spread.
//! * `cloudburst` (CB-LT §4): messages of 5–93 KB at a request rate, CloudBurst's four-path
//!   spraying against single-path DCTCP, with four healthy paths, one degraded and one cut;
//!   p99 and mean message completion time against the rate.
//!
//! * `gemini` (GEMINI/FlashPass §1.7, Fig. 3.12): the GEMINI scenario's 4 intra-DC and 4
//!   inter-DC long flows at each inter/intra RTT ratio, GEMINI against DCTCP, with what the
//!   scenario fixes drawn from the seed: each flow's start in the first 10 ms and its base RTT
//!   within ±10 % of its class's; the inter/intra throughput ratio and Jain's index against the
//!   RTT ratio.

use super::bottleneck::PortEngine;
use super::net::NetConfig;
use super::plot::{Plot, Series};
use super::scenarios::{self, deep_dive_schemes, fct_run, incast_flows, net_10g, par_map, simulate, testbed_schemes, web_search_flows};
use super::workload::uniform;
use super::{mean, percentile};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The sweeps there are.
pub const SWEEPS: [&str; 5] = ["fct-load", "incast", "rtt-spread", "cloudburst", "gemini"];

/// One run of a sweep: a point on its axis and a seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub sweep: String,
    /// The axis value: the load (0..1) for `fct-load`, the number of senders for `incast`.
    pub x: f64,
    pub seed: u64,
    /// The suite's short version (shorter runs).
    pub short: bool,
}

impl Job {
    /// The job's file name, unique in its plan.
    pub fn id(&self) -> String {
        format!("{}-x{}-seed{}{}", self.sweep, self.x, self.seed, if self.short { "-short" } else { "" })
    }
}

/// What a job measured: per scheme, named figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobResult {
    pub job: Job,
    pub rows: Vec<(String, BTreeMap<String, f64>)>,
}

/// A sweep's axis and seeds.
#[derive(Clone, Debug)]
pub struct Spec {
    pub sweep: String,
    pub xs: Vec<f64>,
    pub seeds: Vec<u64>,
    pub short: bool,
}

impl Spec {
    /// The default axis of `sweep` (the papers' points), or the suite's short one.
    pub fn new(sweep: &str, seeds: u64, short: bool) -> Result<Spec> {
        let xs = match (sweep, short) {
            ("fct-load", false) => vec![0.5, 0.6, 0.7, 0.8, 0.9],
            ("fct-load", true) => vec![0.5, 0.8],
            ("incast", false) => vec![25.0, 50.0, 100.0, 150.0, 200.0, 250.0, 300.0],
            ("incast", true) => vec![50.0, 100.0],
            ("rtt-spread", false) => vec![1.0, 2.0, 3.0, 4.0, 5.0],
            ("rtt-spread", true) => vec![1.0, 3.0],
            ("cloudburst", false) => vec![1000.0, 2000.0, 3000.0, 4000.0],
            ("cloudburst", true) => vec![1000.0, 2000.0],
            ("gemini", false) => vec![4.0, 8.0, 16.0, 32.0],
            ("gemini", true) => vec![8.0],
            _ => bail!("unknown sweep `{sweep}`; known: {}", SWEEPS.join(", ")),
        };
        Ok(Spec { sweep: sweep.into(), xs, seeds: (1..=seeds).collect(), short })
    }

    /// Every job of the plan, in a fixed order.
    pub fn plan(&self) -> Vec<Job> {
        self.xs
            .iter()
            .flat_map(|&x| self.seeds.iter().map(move |&seed| Job { sweep: self.sweep.clone(), x, seed, short: self.short }))
            .collect()
    }
}

/// `i/n`: this shard takes the plan's jobs `j` with `j mod n = i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or_else(|| format!("`{s}`: a shard is i/n, e.g. 0/4"))?;
        let (index, count): (usize, usize) = (i.parse().map_err(|_| format!("`{i}` is not a number"))?, n.parse().map_err(|_| format!("`{n}` is not a number"))?);
        if count == 0 || index >= count {
            return Err(format!("`{s}`: need 0 ≤ i < n"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    pub const ALL: Shard = Shard { index: 0, count: 1 };
    /// The jobs of `plan` in this shard.
    pub fn of<T: Clone>(&self, plan: &[T]) -> Vec<T> {
        plan.iter().enumerate().filter(|(j, _)| j % self.count == self.index).map(|(_, t)| t.clone()).collect()
    }
}

/// Web-search flows at `load` on the 10 Gb/s port, their base RTTs stretched by `stretch` about
/// the 70 µs floor (1 keeps the 3× distribution), through the five testbed schemes.
fn fct_job(job: &Job, load: f64, stretch: f64, engine: PortEngine) -> Result<Vec<(String, BTreeMap<String, f64>)>> {
    let cfg = net_10g();
    let (arrivals_us, drain_us) = if job.short { (100_000.0, 200_000.0) } else { (1_000_000.0, 500_000.0) };
    let mut flows = web_search_flows(job.seed, load, cfg.gbps, arrivals_us, cfg.init_cwnd);
    for f in &mut flows {
        f.rtt_us = f.rtt_us.map(|r| (RTT_FLOOR_US + (r - RTT_FLOOR_US) * stretch).round());
    }
    Ok(fct_run(&cfg, &testbed_schemes(&cfg), &flows, arrivals_us + drain_us, engine)?
        .into_iter()
        .map(|f| {
            let m = BTreeMap::from([
                ("short_avg_us".to_string(), f.short_avg),
                ("short_p99_us".to_string(), f.short_p99),
                ("short_flows".to_string(), f.short_fcts.len() as f64),
                ("overall_avg_us".to_string(), f.overall_avg),
                ("large_avg_us".to_string(), f.large_avg),
                ("timeouts".to_string(), f.timeouts as f64),
                ("unfinished".to_string(), f.unfinished as f64),
            ]);
            (f.scheme, m)
        })
        .collect())
}

/// Run one job on `engine`.
pub fn run_job(job: &Job, engine: PortEngine) -> Result<JobResult> {
    let rows: Vec<(String, BTreeMap<String, f64>)> = match job.sweep.as_str() {
        "fct-load" => fct_job(job, job.x, 1.0, engine)?,
        // the 3× distribution (70–210 µs) stretched about its 70 µs floor to a spread of x×
        "rtt-spread" => fct_job(job, 0.8, (job.x - 1.0) / 2.0, engine)?,
        "incast" => {
            let cfg = NetConfig { min_rto_us: 1000.0, ..net_10g() };
            let (t0, tail, background) = (scenarios::incast_start_us(job.seed), 60_000.0, 4);
            let n = job.x as usize;
            deep_dive_schemes(&cfg)
                .iter()
                .map(|s| -> Result<(String, BTreeMap<String, f64>)> {
                    let r = simulate(&cfg, s, incast_flows(job.seed, n, t0, background, 1.0), engine, t0 + tail)?;
                    let query = &r.flows[background..];
                    let fcts: Vec<f64> = query.iter().map(|f| f.fct_us.unwrap_or(f64::INFINITY)).collect();
                    let m = BTreeMap::from([
                        ("timeouts".to_string(), query.iter().map(|f| f.timeouts as f64).sum()),
                        ("query_p99_us".to_string(), percentile(&fcts, 99.0)),
                        ("query_flows".to_string(), query.len() as f64),
                        ("query_unfinished".to_string(), query.iter().filter(|f| f.fct_us.is_none()).count() as f64),
                    ]);
                    Ok((s.name.clone(), m))
                })
                .collect::<Result<_>>()?
        }
        "cloudburst" => {
            use super::cloudburst::{messages, simulate as cb_simulate, Fault, Scheme as CbScheme};
            let dur = if job.short { 100_000.0 } else { 500_000.0 };
            let msgs = messages(job.seed, job.x, dur);
            let runs: Vec<(Fault, CbScheme)> =
                [Fault::Healthy, Fault::Degraded, Fault::Cut].into_iter().flat_map(|f| [CbScheme::Dctcp, CbScheme::CloudBurst].map(move |s| (f, s))).collect();
            par_map(&runs, |&(fault, scheme)| -> Result<(String, BTreeMap<String, f64>)> {
                let r = cb_simulate(scheme, fault, &msgs, engine, job.seed, dur + 200_000.0)?;
                let mct: Vec<f64> = r.msgs.iter().filter_map(|m| m.mct_us).collect();
                let m = BTreeMap::from([
                    ("mct_p99_us".to_string(), percentile(&mct, 99.0)),
                    ("mct_avg_us".to_string(), mean(&mct)),
                    ("messages".to_string(), r.msgs.len() as f64),
                    ("failed".to_string(), r.msgs.iter().filter(|m| m.mct_us.is_none()).count() as f64),
                ]);
                Ok((format!("{}, {}", scheme.name(), fault.name()), m))
            })
            .into_iter()
            .collect::<Result<_>>()?
        }
        "gemini" => {
            use super::scenarios::{gemini_flows, gemini_measure, gemini_net};
            let gbps = gemini_net().0.gbps;
            // the same draws for both senders: one seed, one set of starts and RTTs
            let mut r = hdl::cycle::Rng::new(job.seed);
            let draws: Vec<(f64, f64)> = (0..8).map(|_| (10_000.0 * uniform(&mut r), 0.9 + 0.2 * uniform(&mut r))).collect();
            par_map(&[true, false], |&g| -> Result<(String, BTreeMap<String, f64>)> {
                let mut flows = gemini_flows(g, job.x, gbps);
                for (f, &(start, stretch)) in flows.iter_mut().zip(&draws) {
                    f.start_us = start.round();
                    f.rtt_us = f.rtt_us.map(|r| (r * stretch).round());
                }
                let run = gemini_measure(g, job.x, flows, engine, job.short)?;
                let m = BTreeMap::from([
                    ("inter_intra_pct".to_string(), 100.0 * run.inter_gbps / run.intra_gbps),
                    ("jain_pct".to_string(), 100.0 * run.jain),
                    ("intra_mbps".to_string(), 1000.0 * run.intra_gbps),
                    ("inter_mbps".to_string(), 1000.0 * run.inter_gbps),
                    ("queue_mean_pkts".to_string(), run.queue_mean),
                    ("drops".to_string(), run.drops as f64),
                ]);
                Ok((run.cc.to_string(), m))
            })
            .into_iter()
            .collect::<Result<_>>()?
        }
        other => bail!("unknown sweep `{other}`; known: {}", SWEEPS.join(", ")),
    };
    // JSON has no NaN or infinity: a figure that is not a number (a mean of no flows, a p99
    // over unfinished ones) is left out, and the merge counts the seeds that have it.
    let rows = rows.into_iter().map(|(s, m)| (s, m.into_iter().filter(|(_, v)| v.is_finite()).collect())).collect();
    Ok(JobResult { job: job.clone(), rows })
}

/// The base-RTT floor of the 3× distribution (`sim-tests/data/rtt_3x.cdf`), µs.
const RTT_FLOOR_US: f64 = 70.0;

/// The folder of a sweep's job files.
pub fn jobs_dir(out: &Path) -> PathBuf {
    out.join("jobs")
}

/// Run `jobs` here, on every core, each writing its file under `out/jobs/` (a job whose file is
/// there already is skipped, so an interrupted run resumes). Returns how many ran.
pub fn run_local(jobs: &[Job], engine: PortEngine, out: &Path) -> Result<usize> {
    let dir = jobs_dir(out);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let todo: Vec<Job> = jobs.iter().filter(|j| !dir.join(format!("{}.json", j.id())).exists()).cloned().collect();
    let done = par_map(&todo, |j| -> Result<()> {
        let r = run_job(j, engine).with_context(|| format!("job {}", j.id()))?;
        let file = dir.join(format!("{}.json", j.id()));
        let tmp = file.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_string(&r)?)?;
        std::fs::rename(&tmp, &file)?;
        Ok(())
    });
    done.into_iter().collect::<Result<Vec<()>>>()?;
    Ok(todo.len())
}

/// Read every job file under `out/jobs/`.
pub fn read_results(out: &Path) -> Result<Vec<JobResult>> {
    let dir = jobs_dir(out);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("no job results in {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    files.retain(|p| p.extension().is_some_and(|x| x == "json"));
    files.sort();
    files
        .iter()
        .map(|p| -> Result<JobResult> { serde_json::from_str(&std::fs::read_to_string(p)?).with_context(|| format!("reading {}", p.display())) })
        .collect()
}

/// Two-sided 95 % quantile of Student's t with `df` degrees of freedom.
pub fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
        2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        d if d <= 30 => T[d - 1],
        d if d <= 60 => 2.000 + (2.042 - 2.000) * (60 - d) as f64 / 30.0,
        _ => 1.96,
    }
}

/// Mean and half-width of the 95 % confidence interval of `v` (the t interval; NaN half-width
/// for one value). Non-finite values are left out.
pub fn mean_ci(v: &[f64]) -> (f64, f64, usize) {
    let v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    let n = v.len();
    let m = mean(&v);
    if n < 2 {
        return (m, f64::NAN, n);
    }
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
    (m, t95(n - 1) * (var / n as f64).sqrt(), n)
}

/// `scheme`'s `metric` against `base`'s at axis point `x`, in %, computed within each seed's runs
/// (the same flows for both) and then as mean ± 95 % interval over the seeds.
fn paired_change(results: &[JobResult], x: u64, metric: &str, scheme: &str, base: &str) -> String {
    let v: Vec<f64> = results
        .iter()
        .filter(|r| x_key(r.job.x) == x)
        .filter_map(|r| {
            let get = |n: &str| r.rows.iter().find(|(s, _)| s == n).and_then(|(_, m)| m.get(metric).copied());
            Some(100.0 * (get(scheme)? / get(base)? - 1.0))
        })
        .collect();
    match mean_ci(&v) {
        (_, _, 0) => "–".into(),
        (m, ci, _) if ci.is_finite() => format!("{m:+.1} ± {ci:.1}"),
        (m, _, _) => format!("{m:+.1}"),
    }
}

/// The merged figures: per (scheme, x, metric), the values over seeds.
type Table = BTreeMap<(String, String), BTreeMap<u64, Vec<f64>>>;

fn x_key(x: f64) -> u64 {
    (x * 1000.0).round() as u64
}

/// Merge `results` into the sweep's report (README.md and plots), written by the caller.
pub fn merge(results: &[JobResult], command: &str) -> Result<scenarios::Report> {
    let Some(first) = results.first() else { bail!("no job results to merge") };
    let sweep = first.job.sweep.clone();
    anyhow::ensure!(results.iter().all(|r| r.job.sweep == sweep && r.job.short == first.job.short), "job files of different sweeps in one folder");
    let mut schemes: Vec<String> = vec![];
    let mut table: Table = BTreeMap::new();
    let mut seeds = std::collections::BTreeSet::new();
    for r in results {
        seeds.insert(r.job.seed);
        for (scheme, m) in &r.rows {
            if !schemes.contains(scheme) {
                schemes.push(scheme.clone());
            }
            for (k, v) in m {
                table.entry((scheme.clone(), k.clone())).or_default().entry(x_key(r.job.x)).or_default().push(*v);
            }
        }
    }
    let xs: Vec<u64> = table.values().flat_map(|m| m.keys().copied()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    let cell = |scheme: &str, metric: &str, x: u64| -> (f64, f64, usize) {
        table.get(&(scheme.to_string(), metric.to_string())).and_then(|m| m.get(&x)).map_or((f64::NAN, f64::NAN, 0), |v| mean_ci(v))
    };
    let (axis, x_label, metrics, fig): (&str, &str, Vec<(&str, &str)>, Vec<(&str, &str, &str)>) = match sweep.as_str() {
        "fct-load" => (
            "load",
            "load (%)",
            vec![("short_avg_us", "short-flow mean FCT (µs)"), ("short_p99_us", "short-flow p99 FCT (µs)"), ("overall_avg_us", "overall mean FCT (µs)"), ("large_avg_us", "large-flow mean FCT (µs)"), ("timeouts", "timeouts")],
            vec![
                ("fct_short_avg_vs_load.svg", "short_avg_us", "Short-flow (< 100 KB) mean FCT against load"),
                ("fct_short_p99_vs_load.svg", "short_p99_us", "Short-flow (< 100 KB) p99 FCT against load"),
                ("fct_large_avg_vs_load.svg", "large_avg_us", "Large-flow (> 10 MB) mean FCT against load"),
            ],
        ),
        "incast" => (
            "senders",
            "synchronous senders",
            vec![("timeouts", "query-flow timeouts"), ("query_p99_us", "query-flow p99 FCT (µs)")],
            vec![("timeouts_vs_senders.svg", "timeouts", "Query-flow timeouts against incast degree"), ("query_p99_vs_senders.svg", "query_p99_us", "Query-flow p99 FCT against incast degree")],
        ),
        "rtt-spread" => (
            "spread",
            "base-RTT spread (max/min)",
            vec![("short_avg_us", "short-flow mean FCT (µs)"), ("short_p99_us", "short-flow p99 FCT (µs)"), ("overall_avg_us", "overall mean FCT (µs)"), ("timeouts", "timeouts")],
            vec![
                ("fct_short_avg_vs_spread.svg", "short_avg_us", "Short-flow mean FCT against RTT spread, 80 % load"),
                ("fct_short_p99_vs_spread.svg", "short_p99_us", "Short-flow p99 FCT against RTT spread, 80 % load"),
            ],
        ),
        "cloudburst" => (
            "rate",
            "requests per second",
            vec![("mct_p99_us", "p99 message completion time (µs)"), ("mct_avg_us", "mean message completion time (µs)"), ("failed", "messages not completed")],
            vec![("mct_p99_vs_rate.svg", "mct_p99_us", "p99 message completion time against request rate"), ("mct_avg_vs_rate.svg", "mct_avg_us", "Mean message completion time against request rate")],
        ),
        "gemini" => (
            "ratio",
            "inter/intra-DC RTT ratio",
            vec![
                ("inter_intra_pct", "inter-DC / intra-DC flow throughput (%)"),
                ("jain_pct", "Jain's index over the 8 flows (%)"),
                ("inter_mbps", "inter-DC flow throughput (Mb/s)"),
                ("intra_mbps", "intra-DC flow throughput (Mb/s)"),
                ("queue_mean_pkts", "mean DC queue (packets)"),
                ("drops", "drops"),
            ],
            vec![
                ("throughput_ratio_vs_rtt_ratio.svg", "inter_intra_pct", "Inter-DC / intra-DC throughput against the RTT ratio"),
                ("jain_vs_rtt_ratio.svg", "jain_pct", "Jain's index against the RTT ratio"),
            ],
        ),
        other => bail!("unknown sweep `{other}`"),
    };
    let show_x = |x: u64| match axis {
        "load" => format!("{:.0} %", x as f64 / 10.0),
        "spread" | "ratio" => format!("{}×", x / 1000),
        _ => format!("{}", x / 1000),
    };
    let plot_x = |x: u64| if axis == "load" { x as f64 / 10.0 } else { x as f64 / 1000.0 };
    let fmt = |(m, ci, n): (f64, f64, usize)| {
        if n == 0 {
            "–".to_string()
        } else if ci.is_finite() {
            format!("{m:.1} ± {ci:.1}")
        } else {
            format!("{m:.1}")
        }
    };

    let mut md = String::new();
    let _ = writeln!(md, "# Sweep `{sweep}`: mean ± 95 % confidence interval over {} seeds\n", seeds.len());
    let _ = writeln!(md, "Generated by `{command}` from {} job files (`jobs/`); do not edit. Each cell is the mean over seeds ± the half-width of the 95 % t interval; every seed is an independent run (its flows and arrivals drawn from it), the same for every scheme.\n", results.len());
    match sweep.as_str() {
        "fct-load" => {
            let _ = writeln!(md, "Setup (ECN♯ §4.4): web-search flows with Poisson arrivals over {} s on 7 senders into one 10 Gb/s port (the ECN♯ port `port-ecnsharp` on its golden model), base RTTs 70–210 µs, DCTCP; short flows < 100 KB, large > 10 MB. The paper plots FCT against load (its Figs. 9–11); its testbed has one seed per point.\n", if first.job.short { "0.1" } else { "1" });
        }
        "rtt-spread" => {
            let _ = writeln!(md, "Setup (ECN♯ §4.4): the fct-load sweep's network at 80 % load, every flow's base RTT from `rtt_3x.cdf` (70–210 µs) stretched about its 70 µs floor, so a spread of 1× gives every flow 70 µs and 5× gives 70–350 µs; the schemes keep the thresholds set for the 3× network (TCN and ECN♯ at its p90 RTT). ECN♯'s premise: a fixed queue-length or instantaneous threshold fits one RTT, so its cost grows with the spread.\n");
        }
        "cloudburst" => {
            let _ = writeln!(md, "Setup (CB-LT §4): Poisson requests at the rate over {} s between racks, sizes uniform over 5, 10, 20, 50 and 93 KB, four 1 Gb/s paths of switch ports (golden model) with long-lived DCTCP background flows; CloudBurst sprays CB-LT symbols over the four paths into a 4-frame queue, DCTCP takes one ECMP path. Faults: path 3 at 100 Mb/s (degraded) or removed (cut). The paper reports the p99 MCT 63.69 % lower than DCTCP at 2000 r/s on its testbed. Messages per run: about the rate × the duration, so the p99 is a tail of hundreds to thousands of messages.\n", if first.job.short { "0.1" } else { "0.5" });
        }
        "gemini" => {
            let _ = writeln!(md, "Setup (GEMINI/FlashPass §1.7, Fig. 3.12): the `gemini` scenario's 1 Gb/s DC port marking CE above K = 50 packets, 4 intra-DC flows (base RTT 200 µs) and 4 inter-DC flows (ratio × 200 µs), long-lived, GEMINI (Table 3.4's defaults) against DCTCP. The scenario starts the flows 100 µs apart at exactly those RTTs; here the seed draws each flow's start in the first 10 ms and its base RTT within ±10 % of its class's, the same draws for both senders. Throughput is measured from {} s to {} s. The thesis plots the ratio against the RTT ratio (GEMINI ≈ 100 %, DCTCP falling as 1/RTT).\n", if first.job.short { "0.3" } else { "1" }, if first.job.short { "0.6" } else { "3" });
        }
        _ => {
            let _ = writeln!(md, "Setup (ECN♯ §4.6): N query flows of 3–60 KB start together at 20 ms plus a time drawn per seed in [0, 5 ms) over four long-lived DCTCP flows on one 10 Gb/s port (buffer 256 packets), initial window 1, min RTO 1 ms. The paper reports the largest N each scheme absorbs without timeouts.\n");
        }
    }
    let counts: Vec<f64> = table.iter().filter(|((_, k), _)| k == "short_flows").flat_map(|(_, m)| m.values().flatten().copied()).collect();
    if !counts.is_empty() {
        let least = counts.iter().copied().fold(f64::INFINITY, f64::min);
        let _ = writeln!(md, "Short flows per run: at least {least:.0}{}.\n", if least < 100.0 { ", fewer than 100, so the p99 is the largest or second-largest short FCT of a run: read it as a tail, not a percentile" } else { ", so the p99 is not the maximum" });
    }
    for (metric, title) in &metrics {
        let _ = writeln!(md, "## {title}\n");
        let _ = write!(md, "| scheme |");
        for &x in &xs {
            let _ = write!(md, " {} |", show_x(x));
        }
        let _ = writeln!(md, "\n|---|{}", "---|".repeat(xs.len()));
        for s in &schemes {
            let _ = write!(md, "| {s} |");
            for &x in &xs {
                let _ = write!(md, " {} |", fmt(cell(s, metric, x)));
            }
            let _ = writeln!(md);
        }
        let _ = writeln!(md);
    }
    // Paired figures: per seed, computed within one seed's runs (same flows for every scheme),
    // then the mean and interval over seeds.
    match sweep.as_str() {
        "fct-load" | "rtt-spread" if schemes.len() > 1 => {
            let base = &schemes[0];
            for (metric, title) in [("short_avg_us", "short-flow mean FCT"), ("short_p99_us", "short-flow p99 FCT")] {
                let _ = writeln!(md, "## {title}: change against {base}, paired by seed (%)\n");
                let _ = write!(md, "| scheme |");
                for &x in &xs {
                    let _ = write!(md, " {} |", show_x(x));
                }
                let _ = writeln!(md, "\n|---|{}", "---|".repeat(xs.len()));
                for sc in &schemes[1..] {
                    let _ = write!(md, "| {sc} |");
                    for &x in &xs {
                        let _ = write!(md, " {} |", paired_change(results, x, metric, sc, base));
                    }
                    let _ = writeln!(md);
                }
                let _ = writeln!(md);
            }
        }
        "cloudburst" => {
            let _ = writeln!(md, "## p99 message completion time, CloudBurst against DCTCP, paired by seed (%)\n");
            let _ = write!(md, "| paths |");
            for &x in &xs {
                let _ = write!(md, " {} r/s |", show_x(x));
            }
            let _ = writeln!(md, "\n|---|{}", "---|".repeat(xs.len()));
            for fault in [super::cloudburst::Fault::Healthy, super::cloudburst::Fault::Degraded, super::cloudburst::Fault::Cut] {
                let (cb, tcp) = (
                    format!("{}, {}", super::cloudburst::Scheme::CloudBurst.name(), fault.name()),
                    format!("{}, {}", super::cloudburst::Scheme::Dctcp.name(), fault.name()),
                );
                let _ = write!(md, "| {} |", fault.name());
                for &x in &xs {
                    let _ = write!(md, " {} |", paired_change(results, x, "mct_p99_us", &cb, &tcp));
                }
                let _ = writeln!(md);
            }
            let _ = writeln!(md, "\nThe paper: −63.69 % at 2000 r/s on four healthy paths (its testbed).\n");
        }
        "incast" => {
            let _ = writeln!(md, "## Senders absorbed without a query-flow timeout (per seed: the largest N with no timeout at N or below)\n");
            let _ = writeln!(md, "| scheme | senders absorbed |\n|---|---|");
            let seeds: Vec<u64> = results.iter().map(|r| r.job.seed).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
            for sc in &schemes {
                let v: Vec<f64> = seeds
                    .iter()
                    .map(|&seed| {
                        let mut mine: Vec<(u64, f64)> = results
                            .iter()
                            .filter(|r| r.job.seed == seed)
                            .filter_map(|r| Some((x_key(r.job.x), r.rows.iter().find(|(s, _)| s == sc)?.1.get("timeouts").copied()?)))
                            .collect();
                        mine.sort_by_key(|p| p.0);
                        mine.iter().take_while(|p| p.1 == 0.0).last().map_or(0.0, |p| p.0 as f64 / 1000.0)
                    })
                    .collect();
                let _ = writeln!(md, "| {sc} | {} |", fmt(mean_ci(&v)));
            }
            let _ = writeln!(md);
        }
        _ => {}
    }
    let _ = writeln!(md, "Figures: {}.", fig.iter().map(|(f, _, _)| format!("[`{f}`]({f})")).collect::<Vec<_>>().join(", "));
    // Each scheme's points are shifted a little along x (a dodge of at most ±10 % of the
    // narrowest step), so error bars at the same x do not hide one another.
    let step = xs.windows(2).map(|w| plot_x(w[1]) - plot_x(w[0])).fold(f64::INFINITY, f64::min);
    let dodge = |i: usize| if step.is_finite() && schemes.len() > 1 { 0.2 * step * (i as f64 / (schemes.len() - 1) as f64 - 0.5) } else { 0.0 };
    let plots = fig
        .iter()
        .map(|&(file, metric, title)| {
            let series = schemes
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let pts: Vec<(u64, (f64, f64, usize))> = xs.iter().map(|&x| (x, cell(s, metric, x))).filter(|(_, c)| c.2 > 0).collect();
                    Series { name: s.clone(), points: pts.iter().map(|(x, c)| (plot_x(*x) + dodge(i), c.0)).collect(), err: pts.iter().map(|(_, c)| c.1).collect() }
                })
                .collect();
            let y_label = metrics.iter().find(|(m, _)| *m == metric).map_or(metric, |(_, t)| t);
            (file, Plot { title: title.into(), x_label: x_label.into(), y_label: (*y_label).into(), log_x: false, series })
        })
        .collect();
    let name: &'static str = match sweep.as_str() {
        "fct-load" => "sweep-fct-load",
        "rtt-spread" => "sweep-rtt-spread",
        "incast" => "sweep-incast",
        "cloudburst" => "sweep-cloudburst",
        "gemini" => "sweep-gemini",
        other => bail!("unknown sweep `{other}`"),
    };
    Ok(scenarios::Report { name, markdown: md, plots })
}

/// The Slurm batch script of a sweep as a job array: task i runs shard i of `n` with the same
/// binary and arguments, writing its job files into `out`; `sbatch --wait` returns when every
/// task has ended (non-zero if one failed).
pub fn sbatch_script(exe: &Path, run_args: &[String], out: &Path, shards: usize, cpus: usize) -> String {
    let args: Vec<String> = run_args.iter().map(|a| shell_quote(a)).collect();
    format!(
        "#!/bin/bash\n\
         #SBATCH --job-name=cc-sweep\n\
         #SBATCH --array=0-{}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --output={}/slurm/task-%a.out\n\
         set -euo pipefail\n\
         exec {} {} --out {} --shard \"$SLURM_ARRAY_TASK_ID/{shards}\"\n",
        shards - 1,
        shell_quote(&out.display().to_string()),
        shell_quote(&exe.display().to_string()),
        args.join(" "),
        shell_quote(&out.display().to_string()),
    )
}

fn shell_quote(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_shards_and_intervals() {
        let s = Spec::new("fct-load", 3, true).unwrap();
        let plan = s.plan();
        assert_eq!(plan.len(), 2 * 3);
        let shards: Vec<Vec<Job>> = (0..4).map(|i| Shard { index: i, count: 4 }.of(&plan)).collect();
        assert_eq!(shards.iter().map(Vec::len).sum::<usize>(), plan.len(), "the shards cover the plan");
        let mut ids: Vec<String> = shards.iter().flatten().map(Job::id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), plan.len(), "no job in two shards");
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err() && "x".parse::<Shard>().is_err());
        assert!(Spec::new("nope", 1, true).is_err());
        // mean and t interval: 1, 2, 3 → mean 2, sd 1, half-width 4.303 / √3
        let (m, ci, n) = mean_ci(&[1.0, 2.0, 3.0]);
        assert_eq!((m, n), (2.0, 3));
        assert!((ci - 4.303 / 3f64.sqrt()).abs() < 1e-9);
        assert!(mean_ci(&[5.0]).1.is_nan());
        assert_eq!(t95(1000), 1.96);
        let script = sbatch_script(Path::new("/x/scenarios"), &["sweep".into(), "run".into(), "fct-load".into()], Path::new("/o d"), 3, 2);
        assert!(script.contains("#SBATCH --array=0-2") && script.contains("--shard \"$SLURM_ARRAY_TASK_ID/3\"") && script.contains("'/o d'"), "{script}");
    }

    /// The GEMINI sweep draws its starts and RTTs from the seed (two seeds, two runs), and at
    /// 8× GEMINI gives the inter-DC flows a larger share than DCTCP does on the same draws.
    #[test]
    fn gemini_sweep_is_seeded_and_gemini_is_fairer() {
        let plan = Spec::new("gemini", 2, true).unwrap().plan();
        assert_eq!(plan.len(), 2);
        let runs: Vec<JobResult> = plan.iter().map(|j| run_job(j, PortEngine::Model).unwrap()).collect();
        let ratio = |r: &JobResult, cc: &str| r.rows.iter().find(|(s, _)| s == cc).unwrap().1["inter_intra_pct"];
        assert_ne!(ratio(&runs[0], "GEMINI"), ratio(&runs[1], "GEMINI"), "the seed changes the run");
        for r in &runs {
            assert!(ratio(r, "GEMINI") > ratio(r, "DCTCP") + 10.0, "{:?}", r.rows);
        }
        assert_eq!(merge(&runs, "test").unwrap().name, "sweep-gemini");
    }
}
