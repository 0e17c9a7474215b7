//! Control-law divider tables: `P / c` (ECN♯ paper law) and `P / √c` (CoDel, ECN♯ ns-3 law)
//! without a divider in the datapath.
//!
//! The datapath keeps the top four significant bits of `c` (`a ∈ 8..=15`) and its exponent
//! `shift_val = ⌊log2 c⌋`, reads one 8-bit entry from a 16-entry table that the host programs
//! from `P`, and shifts it. This is Algorithm 3 of the ECN♯ paper (ECN♯ §2.4) with the
//! generalised table `Table_i = ⌈8·P / (i·2^scale)⌉`, extended to the square-root law:
//!
//! * harmonic (1/c): `entry = H[a]`, result `= entry · 2^(scale − shift_val)`;
//!   `H[a] = ⌈8P / (a·2^scale)⌉` for `a ∈ 8..=15` (entries 0..=7 unused), `scale` the smallest
//!   integer with `P ≤ 127·2^scale` (the paper's line 3). Bit-exact with the Tofino parity
//!   vectors (V4-LUT, V15).
//! * square root (1/√c): with `shift_val = 2h + p`, `entry = R[8p + a − 8]`, result
//!   `= entry · 2^(scale − h)`; `R_p[a] = ⌊P · 2^((3−p)/2) / (√a · 2^scale)⌋`, `scale` the smallest
//!   integer with `P ≤ 255·2^scale`. Floor entries make the result exactly `⌊P/√c⌋` whenever `c`
//!   has at most four significant bits and `P ≤ 255`; otherwise the mantissa truncation
//!   over-estimates `P/√c` by at most `√(9/8) − 1 ≈ 6.1 %` (a documented approximation).
//!
//! In hardware the shift is `(entry << 16) >> (e + shift_bias)` with `shift_bias = 16 − scale`
//! and `e = shift_val` (harmonic) or `h` (square root); shifts of 32 or more give 0.

/// Which control law a table serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LawKind {
    /// `P / c`: the ECN♯ paper law (`marking_next += pst_interval / marking_count`).
    Harmonic,
    /// `P / √c`: CoDel and the ECN♯ ns-3 law.
    Sqrt,
}

/// A programmed table: what the host writes into the marker's LUT registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LawLut {
    pub kind: LawKind,
    pub entries: [u8; 16],
    /// `16 − scale`, in `0..=63`.
    pub shift_bias: u8,
}

/// Smallest integer `s` with `p ≤ max_entry · 2^s`.
fn scale_for(p: u16, max_entry: u64) -> i32 {
    let p = p as u64;
    let mut s: i32 = -16;
    while !fits(p, max_entry, s) {
        s += 1;
    }
    s
}

fn fits(p: u64, max_entry: u64, s: i32) -> bool {
    if s >= 0 {
        p <= max_entry << s
    } else {
        p << (-s) <= max_entry
    }
}

impl LawLut {
    /// The table for `P / c` (Algorithm 3, generalised table).
    pub fn harmonic(p: u16) -> LawLut {
        let scale = scale_for(p, 127);
        let mut entries = [0u8; 16];
        for i in 8..16u64 {
            // ceil(8P / (i * 2^scale))
            let (num, den) = if scale >= 0 {
                (8 * p as u64, i << scale)
            } else {
                ((8 * p as u64) << (-scale), i)
            };
            entries[i as usize] = num.div_ceil(den) as u8;
        }
        LawLut { kind: LawKind::Harmonic, entries, shift_bias: (16 - scale) as u8 }
    }

    /// The table for `P / √c`.
    pub fn sqrt(p: u16) -> LawLut {
        let scale = scale_for(p, 255);
        let mut entries = [0u8; 16];
        for par in 0..2u32 {
            for a in 8..16u64 {
                // floor( sqrt( P^2 * 2^(3-p) / (a * 4^scale) ) )
                let mut num = (p as u128) * (p as u128) << (3 - par);
                let mut den = a as u128;
                if scale >= 0 {
                    den <<= 2 * scale as u32;
                } else {
                    num <<= 2 * (-scale) as u32;
                }
                entries[(8 * par) as usize + (a - 8) as usize] = isqrt_floor(num / den) as u8;
            }
        }
        LawLut { kind: LawKind::Sqrt, entries, shift_bias: (16 - scale) as u8 }
    }

    /// The table a control law needs for interval `p`.
    pub fn for_law(kind: LawKind, p: u16) -> LawLut {
        match kind {
            LawKind::Harmonic => LawLut::harmonic(p),
            LawKind::Sqrt => LawLut::sqrt(p),
        }
    }

    /// The four 32-bit register words holding the 16 entries (entry `4j + b` at bits `8b..8b+8`).
    pub fn words(&self) -> [u32; 4] {
        let mut w = [0u32; 4];
        for (i, e) in self.entries.iter().enumerate() {
            w[i / 4] |= (*e as u32) << (8 * (i % 4));
        }
        w
    }

    /// The approximated `P / c` or `P / √c` for `c ≥ 1` (`c = 0` is treated as 1).
    pub fn eval(&self, c: u16) -> u32 {
        let (idx, e) = lut_index(self.kind, c);
        lut_shift(self.entries[idx], e, self.shift_bias)
    }
}

crate::pins! {
    /// The pins of the divider's RTL component (`rtl::ControlLaw`): the count, the law, the
    /// table as [`LawLut::words`] and `shift_bias`.
    pub struct LawIn { c: 16, harmonic: 1, lut0: 32, lut1: 32, lut2: 32, lut3: 32, lut_bias: 6 }
}

crate::pins! {
    /// The divider's result, [`LawLut::eval`].
    pub struct LawOut { val: 32 }
}

impl LawLut {
    /// The component's inputs for count `c` under this table.
    pub fn pins(&self, c: u16) -> LawIn {
        let w = self.words();
        LawIn {
            c: c as u64,
            harmonic: (self.kind == LawKind::Harmonic) as u64,
            lut0: w[0] as u64,
            lut1: w[1] as u64,
            lut2: w[2] as u64,
            lut3: w[3] as u64,
            lut_bias: self.shift_bias as u64,
        }
    }
}

/// Table index and exponent for count `c`, as the datapath computes them.
pub fn lut_index(kind: LawKind, c: u16) -> (usize, u32) {
    let c = c.max(1);
    let shift_val = 15 - c.leading_zeros();
    let a = if shift_val >= 3 { c >> (shift_val - 3) } else { c << (3 - shift_val) } as usize;
    match kind {
        LawKind::Harmonic => (a, shift_val),
        LawKind::Sqrt => (8 * (shift_val as usize & 1) + a - 8, shift_val >> 1),
    }
}

/// `(entry << 16) >> (e + bias)` on 32 bits, 0 when the amount reaches 32.
pub fn lut_shift(entry: u8, e: u32, bias: u8) -> u32 {
    let amount = e + bias as u32;
    if amount >= 32 {
        0
    } else {
        ((entry as u32) << 16) >> amount
    }
}

fn isqrt_floor(x: u128) -> u128 {
    if x == 0 {
        return 0;
    }
    let mut r = (x as f64).sqrt() as u128;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// Exact `⌊P / c⌋` and `⌊P / √c⌋`: the reference arithmetic of the spec's exact vectors.
/// The RTL uses [`LawLut`]; the model offers both so the spec's exact vectors check its logic.
pub fn exact(kind: LawKind, p: u16, c: u16) -> u32 {
    let c = c.max(1) as u128;
    match kind {
        LawKind::Harmonic => (p as u128 / c) as u32,
        LawKind::Sqrt => isqrt_floor((p as u128 * p as u128) / c) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // ECN♯ §2.4 worked tables.
    #[test]
    fn harmonic_tables_match_spec() {
        assert_eq!(&LawLut::harmonic(1000).entries[8..], &[125, 112, 100, 91, 84, 77, 72, 67]);
        assert_eq!(&LawLut::harmonic(200).entries[8..], &[100, 89, 80, 73, 67, 62, 58, 54]);
        assert_eq!(&LawLut::harmonic(195).entries[8..], &[98, 87, 78, 71, 65, 60, 56, 52]);
    }

    // ECN♯ §2.4 approximate-vs-exact table and V15.
    #[test]
    fn harmonic_eval_matches_spec_v15() {
        let cs = [1u16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 17, 19, 20, 127, 128, 200, 255, 256];
        let p1000 = [1000, 500, 336, 250, 200, 168, 144, 125, 112, 100, 62, 62, 56, 50, 8, 7, 5, 4, 3];
        let p200 = [200, 100, 67, 50, 40, 33, 29, 25, 22, 20, 12, 12, 11, 10, 1, 1, 1, 0, 0];
        let l1000 = LawLut::harmonic(1000);
        let l200 = LawLut::harmonic(200);
        for (i, c) in cs.iter().enumerate() {
            assert_eq!(l1000.eval(*c), p1000[i], "P=1000 c={c}");
            assert_eq!(l200.eval(*c), p200[i], "P=200 c={c}");
        }
        assert_eq!(l200.eval(1000), 0);
        assert_eq!(l1000.eval(1000), 1);
    }

    #[test]
    fn harmonic_overestimates_by_at_most_an_eighth() {
        for p in [1u16, 10, 85, 195, 200, 1000, 20000, 65535] {
            let lut = LawLut::harmonic(p);
            for c in 1..=u16::MAX {
                let approx = lut.eval(c) as f64;
                let real = p as f64 / c as f64;
                assert!(approx <= real * 1.125 + 2f64.powi(lut_scale(&lut)), "p={p} c={c}");
            }
        }
    }

    fn lut_scale(l: &LawLut) -> i32 {
        16 - l.shift_bias as i32
    }

    #[test]
    fn sqrt_is_exact_for_four_significant_bits() {
        for p in [1u16, 10, 85, 200, 255] {
            let lut = LawLut::sqrt(p);
            for c in 1..=u16::MAX {
                // at most four significant bits
                if (c >> c.trailing_zeros()) < 16 {
                    assert_eq!(lut.eval(c), exact(LawKind::Sqrt, p, c), "p={p} c={c}");
                }
            }
        }
    }

    #[test]
    fn sqrt_error_is_bounded() {
        for p in [10u16, 200, 240, 1000, 20000, 65535] {
            let lut = LawLut::sqrt(p);
            let step = 2f64.powi(lut_scale(&lut).max(0));
            for c in 1..=u16::MAX {
                let approx = lut.eval(c) as f64;
                let real = p as f64 / (c as f64).sqrt();
                assert!(approx <= real * 1.0607 + 1.0, "p={p} c={c} {approx} {real}");
                assert!(approx >= real - 1.0 - step * 2.0, "p={p} c={c} {approx} {real}");
            }
        }
    }

    #[test]
    fn words_pack_little_endian() {
        let l = LawLut::harmonic(200);
        let w = l.words();
        assert_eq!(w[0], 0);
        assert_eq!(w[2] & 0xFF, 100);
        assert_eq!(w[3] >> 24, 54);
    }
}
