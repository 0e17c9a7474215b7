//! Minimal SVG line plots for the scenario reports (no plotting dependency): linear or log x,
//! linear y, ticks on both axes, a legend.

use std::fmt::Write;

pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

pub struct Plot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub series: Vec<Series>,
}

const COLORS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const W: f64 = 720.0;
const H: f64 = 420.0;
// Margins: left, right (legend), top, bottom.
const L: f64 = 70.0;
const R: f64 = 160.0;
const T: f64 = 40.0;
const B: f64 = 50.0;

/// Round tick positions covering `[lo, hi]`.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-12);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * mag).find(|s| span / s <= 6.0).unwrap_or(10.0 * mag);
    let mut v = vec![];
    let mut t = (lo / step).ceil() * step;
    while t <= hi + step * 1e-9 {
        v.push(t);
        t += step;
    }
    v
}

fn fmt(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e5 || v.abs() < 1e-2) {
        format!("{v:.0e}")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}").trim_end_matches('0').to_string()
    }
}

impl Plot {
    pub fn svg(&self) -> String {
        let fx = |x: f64| if self.log_x { x.max(1e-12).log10() } else { x };
        let pts = self.series.iter().flat_map(|s| s.points.iter()).filter(|p| p.0.is_finite() && p.1.is_finite() && (!self.log_x || p.0 > 0.0));
        let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0f64);
        for &(x, y) in pts {
            (x0, x1, y1) = (x0.min(fx(x)), x1.max(fx(x)), y1.max(y));
        }
        if !x0.is_finite() {
            (x0, x1) = (0.0, 1.0);
        }
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        if self.log_x {
            (x0, x1) = (x0.floor(), x1.ceil());
        }
        let y1 = if y1 > 0.0 { y1 * 1.05 } else { 1.0 };
        let sx = |x: f64| L + (fx(x) - x0) / (x1 - x0) * (W - L - R);
        let sy = |y: f64| H - B - y / y1 * (H - T - B);
        let mut s = String::new();
        let _ = writeln!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">"#);
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/><text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#, (L + W - R) / 2.0, esc(&self.title));
        let _ = writeln!(s, r#"<rect x="{L}" y="{T}" width="{}" height="{}" fill="none" stroke="black"/>"#, W - L - R, H - T - B);
        let xt: Vec<f64> = if self.log_x { (x0 as i64..=x1 as i64).map(|e| 10f64.powi(e as i32)).collect() } else { ticks(x0, x1) };
        for x in xt {
            let px = sx(x);
            let _ = writeln!(s, r##"<line x1="{px:.1}" y1="{}" x2="{px:.1}" y2="{T}" stroke="#ddd"/><text x="{px:.1}" y="{}" text-anchor="middle">{}</text>"##, H - B, H - B + 16.0, fmt(x));
        }
        for y in ticks(0.0, y1) {
            let py = sy(y);
            let _ = writeln!(s, r##"<line x1="{L}" y1="{py:.1}" x2="{}" y2="{py:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##, W - R, L - 6.0, py + 4.0, fmt(y));
        }
        let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#, (L + W - R) / 2.0, H - 12.0, esc(&self.x_label));
        let _ = writeln!(s, r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"#, (T + H - B) / 2.0, esc(&self.y_label));
        for (i, se) in self.series.iter().enumerate() {
            let c = COLORS[i % COLORS.len()];
            let path: Vec<String> = se.points.iter().filter(|p| p.1.is_finite() && (!self.log_x || p.0 > 0.0)).map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y))).collect();
            let _ = writeln!(s, r#"<polyline fill="none" stroke="{c}" stroke-width="1.5" points="{}"/>"#, path.join(" "));
            let ly = T + 14.0 + 18.0 * i as f64;
            let _ = writeln!(s, r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{c}" stroke-width="3"/><text x="{}" y="{}">{}</text>"#, W - R + 10.0, W - R + 30.0, W - R + 36.0, ly + 4.0, esc(&se.name));
        }
        s.push_str("</svg>\n");
        s
    }
}

fn esc(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The empirical CDF of `v` as plot points.
pub fn cdf_points(v: &[f64]) -> Vec<(f64, f64)> {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    s.into_iter().enumerate().map(|(i, x)| (x, (i + 1) as f64 / n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(0.0, 183.0), vec![0.0, 50.0, 100.0, 150.0]);
        let svg = Plot { title: "q <t>".into(), x_label: "x".into(), y_label: "y".into(), log_x: true, series: vec![Series { name: "a".into(), points: cdf_points(&[3.0, 1.0, 100.0]) }] }.svg();
        assert!(svg.contains("q &lt;t&gt;") && svg.contains("<polyline") && svg.ends_with("</svg>\n"));
        assert_eq!(cdf_points(&[3.0, 1.0]), vec![(1.0, 0.5), (3.0, 1.0)]);
    }
}
