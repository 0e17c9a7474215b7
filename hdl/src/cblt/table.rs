//! Degree tables (CB-LT §6.4): `T[1..64]`, 17-bit values in [0, 65536],
//! non-decreasing. With `u` the top 16 bits of one PRNG draw, the degree is the smallest
//! `j ∈ [1, k−1]` with `u < T[j]`, else `k`; entries `T[j]` for `j ≥ k` are ignored.

use super::{CbltError, K_MAX};

/// One table: `t[j − 1]` is `T[j]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DegreeTable {
    t: [u32; K_MAX],
}

/// The experiment profiles of §6.4 (plus the default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Profile {
    /// Robust soliton with parameters `c`, `δ` (default 0.1, 0.5).
    RobustSoliton { c: f64, delta: f64 },
    /// "Uniform 1..5": `T[j] = floor(65536·j/5)` for j < 5, then 65536.
    Uniform1To5,
    /// Every symbol has degree `d` (clamped to k): `T[j] = 0` for j < d, then 65536.
    Fixed(usize),
}

impl Profile {
    pub const DEFAULT: Profile = Profile::RobustSoliton { c: 0.1, delta: 0.5 };

    /// The table of this profile for messages of `k` symbols.
    pub fn table(&self, k: usize) -> Result<DegreeTable, CbltError> {
        if !(1..=K_MAX).contains(&k) {
            return Err(CbltError::KOutOfRange(k));
        }
        let mut t = [65536u32; K_MAX];
        match *self {
            Profile::RobustSoliton { c, delta } => {
                if !(c > 0.0 && delta > 0.0 && delta < 1.0) {
                    return Err(CbltError::MalformedTable(format!("robust soliton needs c > 0 and 0 < δ < 1 (c = {c}, δ = {delta})")));
                }
                let cdf = robust_soliton_cdf(k, c, delta);
                for d in 1..k {
                    t[d - 1] = (65536.0 * cdf[d - 1] + 0.5).floor() as u32;
                }
            }
            Profile::Uniform1To5 => {
                for j in 1..5 {
                    t[j - 1] = (65536 * j / 5) as u32;
                }
            }
            Profile::Fixed(d) => {
                for j in 1..d.min(K_MAX + 1) {
                    t[j - 1] = 0;
                }
            }
        }
        Ok(DegreeTable { t })
    }
}

/// CDF of the robust soliton distribution over 1..=k, summed left to right in f64 (§6.4).
fn robust_soliton_cdf(k: usize, c: f64, delta: f64) -> Vec<f64> {
    let kf = k as f64;
    let r = c * (kf / delta).ln() * kf.sqrt();
    let ds = ((kf / r).floor() as usize).clamp(1, k);
    let weight = |d: usize| {
        let rho = if d == 1 { 1.0 / kf } else { 1.0 / (d as f64 * (d as f64 - 1.0)) };
        let tau = if d < ds {
            r / (d as f64 * kf)
        } else if d == ds {
            (r * (r / delta).ln() / kf).max(0.0)
        } else {
            0.0
        };
        rho + tau
    };
    let w: Vec<f64> = (1..=k).map(weight).collect();
    let total: f64 = w.iter().sum();
    let mut acc = 0.0;
    w.iter()
        .map(|x| {
            acc += x / total;
            acc
        })
        .collect()
}

impl DegreeTable {
    /// The default table (robust soliton, c = 0.1, δ = 0.5) for `k` symbols.
    pub fn default_for(k: usize) -> Result<DegreeTable, CbltError> {
        Profile::DEFAULT.table(k)
    }

    /// A table from explicit entries `T[1..=n]` (n ≤ 64; missing entries are 65536).
    pub fn from_entries(entries: &[u32]) -> Result<DegreeTable, CbltError> {
        if entries.len() > K_MAX {
            return Err(CbltError::MalformedTable(format!("{} entries, at most {K_MAX}", entries.len())));
        }
        let mut t = [65536u32; K_MAX];
        t[..entries.len()].copy_from_slice(entries);
        for (j, w) in t.windows(2).enumerate() {
            if w[0] > w[1] {
                return Err(CbltError::MalformedTable(format!("T[{}] = {} > T[{}] = {}", j + 1, w[0], j + 2, w[1])));
            }
        }
        if let Some(j) = t.iter().position(|&v| v > 65536) {
            return Err(CbltError::MalformedTable(format!("T[{}] = {} exceeds 65536", j + 1, t[j])));
        }
        Ok(DegreeTable { t })
    }

    /// `T[j]`, 1 ≤ j ≤ 64.
    pub fn entry(&self, j: usize) -> u32 {
        self.t[j - 1]
    }

    /// All 64 entries (`T[1]` first), as the RTL's table registers hold them.
    pub fn entries(&self) -> &[u32; K_MAX] {
        &self.t
    }

    /// The degree for draw `u` (top 16 bits of a PRNG output) at `k` symbols.
    pub fn degree(&self, u: u32, k: usize) -> usize {
        (1..k).find(|&j| u < self.t[j - 1]).unwrap_or(k)
    }

    /// The degrees with nonzero probability at `k` (bit d − 1 set for degree d).
    pub fn support(&self, k: usize) -> u64 {
        let mut prev = 0;
        let mut set = 0u64;
        for d in 1..=k {
            let cum = if d == k { 65536 } else { self.t[d - 1].min(65536) };
            if cum > prev {
                set |= 1 << (d - 1);
            }
            prev = prev.max(cum);
        }
        set
    }

    /// Refuse a table that can never reach full rank at `k` (§1.3 \[INF\], exact): with k ≥ 2 the
    /// degree set must contain an odd d < k, or k must be odd, in the set, with some d < k too.
    /// (Every even-degree row is orthogonal to all-ones; d = k rows are all-ones.)
    pub fn validate(&self, k: usize) -> Result<(), CbltError> {
        if !(1..=K_MAX).contains(&k) {
            return Err(CbltError::KOutOfRange(k));
        }
        if k == 1 {
            return Ok(());
        }
        let s = self.support(k);
        let below_k = s & super::full_mask(k - 1);
        let odd_below = (1..k).step_by(2).any(|d| below_k >> (d - 1) & 1 == 1);
        let k_in = s >> (k - 1) & 1 == 1;
        if odd_below || (k % 2 == 1 && k_in && below_k != 0) {
            return Ok(());
        }
        let degrees: Vec<usize> = (1..=k).filter(|d| s >> (d - 1) & 1 == 1).collect();
        let why = if below_k == 0 {
            format!("every symbol has degree {k} = k (all-ones rows: rank 1)")
        } else {
            format!("degrees {degrees:?}: no odd degree below k, so every row is orthogonal to all-ones (rank ≤ k − 1)")
        };
        Err(CbltError::Undecodable { k, why })
    }

    /// The canonical text of the default tables whose SHA-256 §6.4 prints: one line per
    /// k = 1..64, `"k:T1,...,T64\n"` (`T[d]` = 65536 for d ≥ k).
    pub fn canonical_text() -> String {
        let mut s = String::new();
        for k in 1..=K_MAX {
            let t = DegreeTable::default_for(k).expect("k in range");
            let row: Vec<String> = t.t.iter().map(|v| v.to_string()).collect();
            s.push_str(&format!("{k}:{}\n", row.join(",")));
        }
        s
    }
}
