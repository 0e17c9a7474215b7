//! Workloads: empirical distributions shipped as data files (`sim-tests/data/*.cdf`, "value
//! cumulative-probability" per line, linearly interpolated like the ns-3 code the papers used,
//! ECN♯ §4.3) and Poisson flow arrivals at a target load.

use anyhow::{bail, Context, Result};
use hdl::cycle::Rng;

/// A piecewise-linear CDF: points `(value, p)` with `p` rising from 0 to 1.
#[derive(Clone, Debug)]
pub struct Cdf {
    pub name: &'static str,
    points: Vec<(f64, f64)>,
}

impl Cdf {
    pub fn parse(name: &'static str, text: &str) -> Result<Cdf> {
        let mut points = vec![];
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<f64> = line.split_whitespace().map(str::parse).collect::<Result<_, _>>().with_context(|| format!("{name} line {}: `{line}`", n + 1))?;
            let [v, p] = f[..] else { bail!("{name} line {}: expected `value probability`, got `{line}`", n + 1) };
            if let Some(&(v0, p0)) = points.last() {
                if v < v0 || p < p0 {
                    bail!("{name} line {}: values and probabilities must not decrease", n + 1);
                }
            }
            points.push((v, p));
        }
        match (points.first(), points.last()) {
            (Some(&(_, 0.0)), Some(&(_, p))) if p == 1.0 && points.len() >= 2 => Ok(Cdf { name, points }),
            _ => bail!("{name}: a CDF needs at least two points, starting at probability 0 and ending at 1"),
        }
    }

    /// Inverse-transform sample with `u` in [0, 1).
    pub fn quantile(&self, u: f64) -> f64 {
        let i = self.points.partition_point(|&(_, p)| p <= u).clamp(1, self.points.len() - 1);
        let ((v0, p0), (v1, p1)) = (self.points[i - 1], self.points[i]);
        if p1 == p0 {
            v1
        } else {
            v0 + (v1 - v0) * (u - p0) / (p1 - p0)
        }
    }

    pub fn sample(&self, r: &mut Rng) -> f64 {
        self.quantile(uniform(r))
    }

    /// Exact mean of the interpolated distribution (each segment contributes its midpoint).
    pub fn mean(&self) -> f64 {
        self.points.windows(2).map(|w| (w[1].1 - w[0].1) * (w[0].0 + w[1].0) / 2.0).sum()
    }
}

/// Uniform in [0, 1) from 53 random bits.
pub fn uniform(r: &mut Rng) -> f64 {
    (r.next() >> 11) as f64 / (1u64 << 53) as f64
}

/// Exponential with the given mean.
pub fn exponential(r: &mut Rng, mean: f64) -> f64 {
    -mean * (1.0 - uniform(r)).ln()
}

pub fn web_search() -> Cdf {
    Cdf::parse("web_search.cdf", include_str!("../../data/web_search.cdf")).expect("shipped CDF parses")
}

/// Facebook Hadoop (HPCC/Swift §2.2).
pub fn hadoop() -> Cdf {
    Cdf::parse("hadoop.cdf", include_str!("../../data/hadoop.cdf")).expect("the shipped CDF parses")
}

pub fn data_mining() -> Cdf {
    Cdf::parse("data_mining.cdf", include_str!("../../data/data_mining.cdf")).expect("shipped CDF parses")
}

/// Base RTTs in µs with 3× variation, 70–210 µs (ECN♯ §4.4).
pub fn rtt_3x() -> Cdf {
    Cdf::parse("rtt_3x.cdf", include_str!("../../data/rtt_3x.cdf")).expect("shipped CDF parses")
}

/// Poisson arrival times (µs) in `[0, duration_us)` of flows whose sizes average `mean_bytes`,
/// offering `load` of a `gbps` link.
pub fn poisson_arrivals(r: &mut Rng, load: f64, gbps: f64, mean_bytes: f64, duration_us: f64) -> Vec<f64> {
    let mean_gap_us = mean_bytes * 8.0 / (load * gbps * 1e3);
    let mut t = 0.0;
    let mut v = vec![];
    loop {
        t += exponential(r, mean_gap_us);
        if t >= duration_us {
            return v;
        }
        v.push(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_cdfs_interpolate_linearly() {
        let w = web_search();
        assert_eq!(w.quantile(0.0), 0.0);
        assert_eq!(w.quantile(0.15), 10000.0);
        let near = |a: f64, b: f64| (a - b).abs() < 1e-6 * b;
        assert!(near(w.quantile(0.175), 15000.0));
        assert!(near(w.quantile(0.985), 20_000_000.0));
        let m = data_mining();
        assert_eq!(m.quantile(0.5), 1100.0);
        let rtt = rtt_3x();
        assert_eq!((rtt.quantile(0.0), rtt.quantile(0.9)), (70.0, 195.0));
        assert!((rtt.mean() - 117.25).abs() < 1e-9);
        // web search: ~1.7 MB per flow (sum of segment midpoints)
        assert!((w.mean() - 1_711_250.0).abs() < 1e-6, "{}", w.mean());
    }

    #[test]
    fn sampling_matches_the_mean_and_arrivals_the_load() {
        let mut r = Rng::new(1);
        let w = web_search();
        let n = 200_000;
        let avg = (0..n).map(|_| w.sample(&mut r)).sum::<f64>() / n as f64;
        assert!((avg / w.mean() - 1.0).abs() < 0.03, "{avg}");
        let a = poisson_arrivals(&mut r, 0.5, 10.0, 1e6, 1e6);
        // 0.5 × 10 Gb/s over 1 s of 1-MB flows = 625 flows
        assert!((a.len() as f64 - 625.0).abs() < 80.0, "{}", a.len());
    }

    #[test]
    fn malformed_cdf_files_are_refused() {
        assert!(Cdf::parse("x", "0 0\n10 0.5").is_err());
        assert!(Cdf::parse("x", "0 0\n10 0.7\n5 1").is_err());
        assert!(Cdf::parse("x", "0 0\nten 1").is_err());
        assert!(Cdf::parse("x", "0 0 1\n1 1").is_err());
    }
}
