//! Line plots for the scenario reports: linear or log x, linear y, round ticks with one number
//! format per axis, the legend inside the frame where it hides the fewest points, a marker on
//! every point of a sparse series (a distinct shape per series, so the figure reads in grey),
//! written as SVG and rendered to PNG and PDF beside it.

use std::fmt::Write;

pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Half-widths of vertical error bars, one per point (empty: none), e.g. 95 % confidence
    /// intervals over seeds.
    pub err: Vec<f64>,
}

pub struct Plot {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub series: Vec<Series>,
}

const COLORS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const W: f64 = 640.0;
const H: f64 = 420.0;
// Margins: left, right, top, bottom (the legend sits inside the frame).
const L: f64 = 70.0;
const R: f64 = 20.0;
const T: f64 = 40.0;
const B: f64 = 50.0;
/// A series with at most this many points gets a marker on each (sparse data).
const MARK_MAX: usize = 40;

/// Round tick positions covering `[lo, hi]`, and the step between them.
fn ticks(lo: f64, hi: f64) -> (Vec<f64>, f64) {
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
    (v, step)
}

/// Tick labels of one axis, all with the same number of decimals (those the step needs).
fn labels(v: &[f64], step: f64) -> Vec<String> {
    let big = v.iter().any(|x| x.abs() >= 1e5);
    let decimals = if step >= 1.0 { 0 } else { (-step.log10()).ceil() as usize };
    v.iter()
        .map(|&x| if big { format!("{x:.0e}") } else { format!("{:.*}", decimals, if x.abs() < step * 1e-9 { 0.0 } else { x }) })
        .collect()
}

/// A marker of shape `i` (circle, square, triangle, diamond, …) centred on (x, y).
fn marker(i: usize, x: f64, y: f64, c: &str) -> String {
    match i % 4 {
        0 => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{c}"/>"#),
        1 => format!(r#"<rect x="{:.1}" y="{:.1}" width="7" height="7" fill="{c}"/>"#, x - 3.5, y - 3.5),
        2 => format!(r#"<polygon points="{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{c}"/>"#, y - 4.5, x - 4.0, y + 3.5, x + 4.0, y + 3.5),
        _ => format!(r#"<polygon points="{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}" fill="{c}"/>"#, y - 4.5, x + 4.5, y + 4.5, x - 4.5),
    }
}

impl Plot {
    pub fn svg(&self) -> String {
        let fx = |x: f64| if self.log_x { x.max(1e-12).log10() } else { x };
        let keep = |p: &&(f64, f64)| p.0.is_finite() && p.1.is_finite() && (!self.log_x || p.0 > 0.0);
        let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0f64);
        for se in &self.series {
            for (i, &(x, y)) in se.points.iter().enumerate() {
                if keep(&&(x, y)) {
                    let top = y + se.err.get(i).copied().filter(|e| e.is_finite()).unwrap_or(0.0);
                    (x0, x1, y1) = (x0.min(fx(x)), x1.max(fx(x)), y1.max(top));
                }
            }
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
        let _ = writeln!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, sans-serif" font-size="12">"#);
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/><text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#, (L + W - R) / 2.0, esc(&self.title));
        let (xt, xl): (Vec<f64>, Vec<String>) = if self.log_x {
            let e: Vec<f64> = (x0 as i64..=x1 as i64).map(|e| 10f64.powi(e as i32)).collect();
            let l = e.iter().map(|&x| if (1e-2..1e5).contains(&x) { labels(&[x], if x >= 1.0 { 1.0 } else { x }).remove(0) } else { format!("{x:.0e}") }).collect();
            (e, l)
        } else {
            let (v, step) = ticks(x0, x1);
            let l = labels(&v, step);
            (v, l)
        };
        for (x, l) in xt.iter().zip(&xl) {
            let px = sx(*x);
            let _ = writeln!(s, r##"<line x1="{px:.1}" y1="{}" x2="{px:.1}" y2="{T}" stroke="#e4e4e4"/><line x1="{px:.1}" y1="{}" x2="{px:.1}" y2="{}" stroke="black"/><text x="{px:.1}" y="{}" text-anchor="middle">{l}</text>"##, H - B, H - B, H - B + 5.0, H - B + 18.0);
        }
        let (yt, ystep) = ticks(0.0, y1);
        for (y, l) in yt.iter().zip(labels(&yt, ystep)) {
            let py = sy(*y);
            let _ = writeln!(s, r##"<line x1="{L}" y1="{py:.1}" x2="{}" y2="{py:.1}" stroke="#e4e4e4"/><line x1="{}" y1="{py:.1}" x2="{L}" y2="{py:.1}" stroke="black"/><text x="{}" y="{:.1}" text-anchor="end">{l}</text>"##, W - R, L - 5.0, L - 8.0, py + 4.0);
        }
        let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#, (L + W - R) / 2.0, H - 12.0, esc(&self.x_label));
        let _ = writeln!(s, r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"#, (T + H - B) / 2.0, esc(&self.y_label));
        let _ = writeln!(s, r#"<clipPath id="frame"><rect x="{L}" y="{T}" width="{}" height="{}"/></clipPath>"#, W - L - R, H - T - B);
        for (i, se) in self.series.iter().enumerate() {
            let c = COLORS[i % COLORS.len()];
            let pts: Vec<(f64, f64)> = se.points.iter().filter(keep).map(|&(x, y)| (sx(x), sy(y))).collect();
            let path: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = writeln!(s, r#"<polyline clip-path="url(#frame)" fill="none" stroke="{c}" stroke-width="1.6" points="{}"/>"#, path.join(" "));
            if pts.len() <= MARK_MAX {
                for &(x, y) in &pts {
                    s.push_str(&marker(i, x, y, c));
                }
                s.push('\n');
            }
            // error bars: a vertical line with caps at y ± err
            for (&(x, y), &e) in se.points.iter().zip(&se.err).filter(|(p, e)| keep(p) && e.is_finite() && **e > 0.0) {
                let (px, lo, hi) = (sx(x), sy((y - e).max(0.0)), sy(y + e));
                let _ = writeln!(
                    s,
                    r#"<path clip-path="url(#frame)" d="M{px:.1},{lo:.1}V{hi:.1}M{:.1},{lo:.1}h8M{:.1},{hi:.1}h8" stroke="{c}" stroke-width="1.2" fill="none"/>"#,
                    px - 4.0,
                    px - 4.0
                );
            }
        }
        s.push_str(&self.legend(&sx, &sy));
        let _ = writeln!(s, r#"<rect x="{L}" y="{T}" width="{}" height="{}" fill="none" stroke="black"/>"#, W - L - R, H - T - B);
        s.push_str("</svg>\n");
        s
    }

    /// The legend, inside the frame, in the corner where the fewest points would sit under it.
    fn legend(&self, sx: &dyn Fn(f64) -> f64, sy: &dyn Fn(f64) -> f64) -> String {
        if self.series.is_empty() {
            return String::new();
        }
        let longest = self.series.iter().map(|s| s.name.chars().count()).max().unwrap_or(0) as f64;
        let (w, h) = (44.0 + 7.0 * longest, 8.0 + 18.0 * self.series.len() as f64);
        let corners = [(W - R - w - 8.0, T + 8.0), (L + 8.0, T + 8.0), (W - R - w - 8.0, H - B - h - 8.0), (L + 8.0, H - B - h - 8.0)];
        let under = |&(cx, cy): &(f64, f64)| {
            self.series
                .iter()
                .flat_map(|s| s.points.iter())
                .filter(|p| p.0.is_finite() && p.1.is_finite() && (!self.log_x || p.0 > 0.0))
                .filter(|p| (cx..cx + w).contains(&sx(p.0)) && (cy..cy + h).contains(&sy(p.1)))
                .count()
        };
        let (x, y) = corners.iter().copied().min_by_key(|c| under(c)).expect("four corners");
        let mut s = format!(r##"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="white" fill-opacity="0.9" stroke="#888"/>"##);
        s.push('\n');
        for (i, se) in self.series.iter().enumerate() {
            let c = COLORS[i % COLORS.len()];
            let ly = y + 13.0 + 18.0 * i as f64;
            let _ = write!(s, r#"<line x1="{:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{c}" stroke-width="2.5"/>"#, x + 8.0, x + 32.0);
            if se.points.len() <= MARK_MAX {
                s.push_str(&marker(i, x + 20.0, ly, c));
            }
            let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, x + 38.0, ly + 4.0, esc(&se.name));
        }
        s
    }

    /// The figure as SVG, PNG and PDF: `stem.svg` written here, the PNG (2× scale) and the PDF
    /// rendered from it by `rsvg-convert` (librsvg, installed by `scripts/deps.sh`), with
    /// `SOURCE_DATE_EPOCH=0` so the PDF is the same bytes every time.
    pub fn write(&self, dir: &std::path::Path, svg_name: &str) -> anyhow::Result<()> {
        use anyhow::Context;
        let svg = dir.join(svg_name);
        std::fs::write(&svg, self.svg())?;
        for (fmt, ext, zoom) in [("png", "png", "2"), ("pdf", "pdf", "1")] {
            let out = svg.with_extension(ext);
            let st = std::process::Command::new("rsvg-convert")
                .env("SOURCE_DATE_EPOCH", "0")
                .args(["-f", fmt, "-z", zoom, "-o"])
                .arg(&out)
                .arg(&svg)
                .status()
                .context("rsvg-convert is not installed: run scripts/deps.sh (apt-get install librsvg2-bin)")?;
            anyhow::ensure!(st.success(), "rsvg-convert failed on {} ({st})", svg.display());
        }
        Ok(())
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
        assert_eq!(ticks(0.0, 10.0).0, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(0.0, 183.0).0, vec![0.0, 50.0, 100.0, 150.0]);
        let (v, step) = ticks(0.0, 1.05);
        assert_eq!(labels(&v, step), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        let svg = Plot { title: "q <t>".into(), x_label: "x".into(), y_label: "y".into(), log_x: true, series: vec![Series { err: vec![], name: "a".into(), points: cdf_points(&[3.0, 1.0, 100.0]) }] }.svg();
        assert!(svg.contains("q &lt;t&gt;") && svg.contains("<polyline") && svg.ends_with("</svg>\n"));
        assert_eq!(cdf_points(&[3.0, 1.0]), vec![(1.0, 0.5), (3.0, 1.0)]);
    }

    /// Error bars are drawn for the points that have them and widen the y range.
    #[test]
    fn error_bars() {
        let s = Series { name: "a".into(), points: vec![(1.0, 10.0), (2.0, 20.0)], err: vec![5.0, 0.0] };
        let svg = Plot { title: "t".into(), x_label: "x".into(), y_label: "y".into(), log_x: false, series: vec![s] }.svg();
        assert_eq!(svg.matches("h8M").count(), 1, "one bar (the zero one is not drawn)");
    }

    /// A sparse series gets markers, a dense one none; the legend is inside the frame; the
    /// figure is written as SVG, PNG and PDF (their magic bytes), the PDF the same bytes twice.
    #[test]
    fn figures_are_written_in_three_formats() {
        let sparse = Series { err: vec![], name: "sparse".into(), points: (0..10).map(|i| (i as f64, (i * i) as f64)).collect() };
        let dense = Series { err: vec![], name: "dense".into(), points: (0..500).map(|i| (i as f64 / 50.0, 50.0)).collect() };
        let p = Plot { title: "t".into(), x_label: "x".into(), y_label: "y".into(), log_x: false, series: vec![sparse, dense] };
        let svg = p.svg();
        assert_eq!(svg.matches("<circle").count(), 10 + 1, "10 points and the legend's sample");
        assert_eq!(svg.matches("width=\"7\"").count(), 0, "the dense series (squares) has no markers");
        let dir = std::env::temp_dir().join(format!("plot-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        p.write(&dir, "f.svg").unwrap();
        let pdf1 = std::fs::read(dir.join("f.pdf")).unwrap();
        assert!(std::fs::read(dir.join("f.png")).unwrap().starts_with(b"\x89PNG") && pdf1.starts_with(b"%PDF"));
        p.write(&dir, "f.svg").unwrap();
        assert_eq!(std::fs::read(dir.join("f.pdf")).unwrap(), pdf1);
        std::fs::remove_dir_all(&dir).ok();
    }
}
