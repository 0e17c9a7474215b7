//! Closed-loop network simulation around the switch egress port, on its golden model or the
//! Verilated RTL: one network (`fabric.rs`: hosts, NICs, ports clocked every tick, shadow
//! queues, decision logs) that runs apps, one TCP (`tcp.rs`, NewReno with a window rule from
//! `cc.rs`: DCTCP, GEMINI), the apps (`net.rs`: TCP flows through one bottleneck, closed loop
//! I; `ren.rs`, `fastconv.rs`, `flashpass.rs`, `cloudburst.rs`), workloads from data files
//! (`workload.rs`), SVG plots (`plot.rs`), the paper scenarios (`scenarios.rs`, run by
//! `cargo run --release -p sim-tests --bin scenarios -- NAME`) and sweeps over seeds with
//! confidence intervals, locally or on Slurm (`sweep.rs`).

pub mod bottleneck;
pub mod cc;
pub mod cloudburst;
pub mod fabric;
pub mod fastconv;
pub mod flashpass;
pub mod net;
pub mod plot;
pub mod ren;
pub mod scenarios;
pub mod sweep;
pub mod tcp;
pub mod workload;

/// Mean of `v` (NaN when empty).
pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The `p`-th percentile (0–100) by nearest rank (NaN when empty).
pub fn percentile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * s.len() as f64).ceil().max(1.0) as usize;
    s[rank.min(s.len()) - 1]
}

/// Jain's fairness index of `x`: (Σx)² / (n·Σx²).
pub fn jain(x: &[f64]) -> f64 {
    let (s, s2) = x.iter().fold((0.0, 0.0), |(a, b), v| (a + v, b + v * v));
    if s2 == 0.0 {
        return 1.0;
    }
    s * s / (x.len() as f64 * s2)
}

#[cfg(test)]
mod tests {
    #[test]
    fn statistics() {
        use super::*;
        assert_eq!(percentile(&[5.0, 1.0, 3.0, 2.0, 4.0], 50.0), 3.0);
        assert_eq!(percentile(&(1..=100).map(f64::from).collect::<Vec<_>>(), 99.0), 99.0);
        assert_eq!(jain(&[1.0, 1.0, 1.0, 1.0]), 1.0);
        assert_eq!(jain(&[1.0, 0.0, 0.0, 0.0]), 0.25);
        assert_eq!(mean(&[1.0, 2.0]), 1.5);
    }
}
