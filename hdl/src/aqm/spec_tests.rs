//! The golden model against the numbers printed in ECN♯ §6 (V1–V13) and RFC 8289.
//! Expected values here are copied from the spec, never from an engine.

use super::model::{Division, Marker, Widths};
use super::vectors::ecn_sharp;
use super::{Config, Law, Mode};
use crate::ecn::*;

fn marker(law: Law, ge: bool, div: Division, widths: Widths) -> Marker {
    let mut m = Marker::new(widths, div);
    for (a, d) in ecn_sharp(law, ge).csr_writes() {
        m.write_csr(a, d);
    }
    m
}

fn paper(div: Division) -> Marker {
    marker(Law::PaperHarmonic, false, div, Widths::RTL)
}

/// Times of persistent marks over one dequeue per tick at soj = 100, t in `range`.
fn cadence(m: &mut Marker, range: std::ops::RangeInclusive<u32>) -> Vec<(u32, u16)> {
    let mut marks = vec![];
    for t in range {
        if m.dequeue(t, 100, ECT0, 0).pst {
            marks.push((t, m.state.cnt));
        }
    }
    marks
}

fn prefix(m: &mut Marker) {
    for t in (1000..=1200).step_by(10) {
        assert!(!m.dequeue(t, 100, ECT0, 0).pst);
    }
}

#[test]
fn v2_instantaneous_boundary() {
    let mut m = paper(Division::Lut);
    let want = [(1000, 199, false), (1001, 0, false), (1002, 200, false), (1003, 0, false), (1004, 201, true), (1005, 0, false), (1006, 5000, true), (1007, 0, false)];
    for (t, s, mark) in want {
        let d = m.dequeue(t, s, ECT0, 0);
        assert_eq!(d.ins, mark, "t={t}");
        assert_eq!(d.ecn_out, if mark { CE } else { ECT0 });
        assert_eq!(m.state.fat_valid, s != 0);
    }
}

#[test]
fn v3_detection_boundary() {
    let mut m = paper(Division::Lut);
    prefix(&mut m);
    let d = m.dequeue(1201, 100, ECT0, 0);
    assert!(d.det && d.pst);
    assert_eq!((m.state.ms, m.state.cnt, m.state.next), (true, 1, 1401));
    let d = m.dequeue(1202, 100, ECT0, 0);
    assert!(d.det && !d.pst);
}

#[test]
fn v4_paper_law_exact_division() {
    let mut m = paper(Division::Exact);
    let marks = cadence(&mut m, 1000..=3000);
    let first: Vec<u32> = marks.iter().take(16).map(|x| x.0).collect();
    assert_eq!(first, [1201, 1402, 1502, 1568, 1618, 1658, 1691, 1719, 1744, 1766, 1786, 1804, 1820, 1835, 1849, 1862]);
    assert_eq!(marks[39], (2039, 40));
    assert_eq!(marks.len(), 901);
    assert!(marks.iter().any(|m| m.0 == 2200) && (2200..=3000).all(|t| marks.iter().any(|m| m.0 == t)));
}

#[test]
fn v4_paper_law_lut_division() {
    let mut m = paper(Division::Lut);
    let marks = cadence(&mut m, 1000..=3000);
    let first: Vec<u32> = marks.iter().take(20).map(|x| x.0).collect();
    assert_eq!(first, [1201, 1402, 1502, 1569, 1619, 1659, 1692, 1721, 1746, 1768, 1788, 1806, 1822, 1837, 1851, 1864, 1876, 1888, 1899, 1910]);
    assert_eq!(marks[39], (2048, 40));
    assert_eq!(marks.len(), 880);
}

#[test]
fn v4_paper_law_ge_compare() {
    let mut m = marker(Law::PaperHarmonic, true, Division::Exact, Widths::RTL);
    let marks = cadence(&mut m, 1000..=3000);
    let first: Vec<u32> = marks.iter().take(10).map(|x| x.0).collect();
    assert_eq!(first, [1201, 1401, 1501, 1567, 1617, 1657, 1690, 1718, 1743, 1765]);
    assert_eq!(marks.len(), 902);
}

#[test]
fn v5_ns3_law_exact() {
    let mut m = marker(Law::Ns3Sqrt, true, Division::Exact, Widths::RTL);
    let marks: Vec<u32> = cadence(&mut m, 1000..=3000).iter().map(|x| x.0).collect();
    assert_eq!(marks, [1201, 1401, 1542, 1657, 1757, 1846, 1927, 2002, 2072, 2138, 2201, 2261, 2318, 2373, 2426, 2477, 2527, 2575, 2622, 2667, 2711, 2754, 2796, 2837, 2877, 2917, 2956, 2994]);
}

#[test]
fn v5_ns3_law_lut_agrees_while_count_has_four_bits() {
    // The square-root table is exact for counts with at most four significant bits (lut.rs).
    let mut m = marker(Law::Ns3Sqrt, true, Division::Lut, Widths::RTL);
    let marks: Vec<u32> = cadence(&mut m, 1000..=3000).iter().map(|x| x.0).collect();
    assert_eq!(marks[..16], [1201, 1401, 1542, 1657, 1757, 1846, 1927, 2002, 2072, 2138, 2201, 2261, 2318, 2373, 2426, 2477]);
}

#[test]
fn v6_exit_and_reentry() {
    let mut m = paper(Division::Lut);
    prefix(&mut m);
    // (t, soj, det, pst, ms, cnt, next, fat)
    let rows = [
        (1201, 100, true, true, true, 1, 1401, Some(1000)),
        (1300, 100, true, false, true, 1, 1401, Some(1000)),
        (1402, 100, true, true, true, 2, 1501, Some(1000)),
        (1410, 84, false, false, false, 2, 1501, None),
        (1420, 100, false, false, false, 2, 1501, Some(1420)),
        (1500, 100, false, false, false, 2, 1501, Some(1420)),
        (1620, 100, false, false, false, 2, 1501, Some(1420)),
        (1621, 100, true, true, true, 1, 1821, Some(1420)),
        (1700, 100, true, false, true, 1, 1821, Some(1420)),
        (1822, 100, true, true, true, 2, 1921, Some(1420)),
    ];
    for (t, s, det, pst, ms, cnt, next, fat) in rows {
        let d = m.dequeue(t, s, ECT0, 0);
        assert_eq!((d.det, d.pst, m.state.ms, m.state.cnt, m.state.next), (det, pst, ms, cnt, next), "t={t}");
        assert_eq!(m.state.fat_valid.then_some(m.state.fat), fat, "t={t}");
    }
}

#[test]
fn v7_target_boundary() {
    let mut m = paper(Division::Lut);
    let mut marked = vec![];
    for (t, s) in [(1000, 85), (1100, 85), (1200, 85), (1201, 85), (1250, 84), (1260, 85), (1461, 85)] {
        if m.dequeue(t, s, ECT0, 0).pst {
            marked.push((t, m.state.cnt, m.state.next));
        }
        if t == 1260 {
            assert_eq!((m.state.fat_valid, m.state.fat, m.state.ms), (true, 1260, false));
        }
    }
    assert_eq!(marked, [(1201, 1, 1401), (1461, 1, 1661)]);
}

#[test]
fn v8_codepoints() {
    // The spec's `next` column uses exact division (1501 + 200/3 = 1567).
    let mut m = paper(Division::Exact);
    for t in (1000..=1200).step_by(50) {
        m.dequeue(t, 150, ECT0, 0);
    }
    // (t, soj, ecn_in, ins, pst, ecn_out, cnt, next)
    let rows = [
        (1201, 250, ECT0, true, true, CE, 1, 1401),
        (1300, 250, NOT_ECT, true, false, NOT_ECT, 1, 1401),
        (1402, 150, NOT_ECT, false, true, NOT_ECT, 2, 1501),
        (1450, 250, CE, true, false, CE, 2, 1501),
        (1502, 150, ECT1, false, true, CE, 3, 1567),
    ];
    for (t, s, e, ins, pst, out, cnt, next) in rows {
        let d = m.dequeue(t, s, e, 0);
        assert_eq!((d.ins, d.pst, d.ecn_out, d.drop, m.state.cnt, m.state.next), (ins, pst, out, false, cnt, next), "t={t}");
    }
}

#[test]
fn v9_idle_gap() {
    let mut m = paper(Division::Lut);
    prefix(&mut m);
    m.dequeue(1201, 100, ECT0, 0);
    m.dequeue(1402, 100, ECT0, 0);
    let d = m.dequeue(5000, 0, ECT0, 0);
    assert!(!d.det && !m.state.ms && !m.state.fat_valid);
    m.dequeue(5001, 0, ECT0, 0);
    let d = m.dequeue(5002, 100, ECT0, 0);
    assert!(!d.pst && m.state.fat_valid && m.state.fat == 5002);
}

#[test]
fn v10_catch_up() {
    for (law, want) in [(Law::PaperHarmonic, 20), (Law::Ns3Sqrt, 1)] {
        let mut m = marker(law, law == Law::Ns3Sqrt, Division::Exact, Widths::RTL);
        prefix(&mut m);
        m.dequeue(1201, 100, ECT0, 0);
        m.dequeue(1402, 100, ECT0, 0);
        let marks: Vec<u32> = (2500..2520).filter(|t| m.dequeue(*t, 150, ECT0, 0).pst).collect();
        assert_eq!(marks.len(), want, "{law:?}");
        if law == Law::PaperHarmonic {
            assert_eq!((m.state.cnt, m.state.next), (22, 1933));
        } else {
            assert_eq!(marks, [2500]);
        }
    }
}

#[test]
fn v11_v12_wrap_invariance() {
    let reference: Vec<u32> = cadence(&mut paper(Division::Exact), 1000..=1600).iter().map(|x| x.0).collect();
    for off in [0u32.wrapping_sub(1100), 0u32.wrapping_sub(1300), 0u32.wrapping_sub(1000)] {
        let mut m = paper(Division::Exact);
        let mut marks = vec![];
        for t in 1000..=1600u32 {
            if m.dequeue(t.wrapping_add(off), 100, ECT0, 0).pst {
                marks.push(t.wrapping_add(off));
            }
        }
        let shifted: Vec<u32> = reference.iter().map(|t| t.wrapping_add(off)).collect();
        assert_eq!(marks, shifted);
    }
    let mut m = paper(Division::Exact);
    let first: Vec<u32> = (1000..=1600u32).filter(|t| m.dequeue(t.wrapping_add(0u32.wrapping_sub(1100)), 100, ECT0, 0).pst).map(|t| t.wrapping_sub(1100)).take(4).collect();
    assert_eq!(first, [101, 302, 402, 468]);
}

#[test]
fn v13a_count_saturates_at_eight_bits() {
    let mut m = marker(Law::PaperHarmonic, false, Division::Exact, Widths { time_bits: 32, count_bits: 8 });
    let marks = cadence(&mut m, 1000..=5000);
    assert_eq!(m.state.cnt, 255);
    assert!(marks.iter().all(|x| x.1 != 0));
    assert!((4000..=5000).all(|t| marks.iter().any(|x| x.0 == t)), "every packet marked once P/255 = 0");
}

#[test]
fn v13b_narrow_clock_hazard_and_the_clamp() {
    let w16 = Widths { time_bits: 16, count_bits: 16 };
    let mut naive = marker(Law::PaperHarmonic, false, Division::Exact, w16);
    naive.lag_clamp = false;
    let last_naive = (1000..60000u32).filter(|t| naive.dequeue(*t, 100, ECT0, 0).pst).last();
    assert_eq!(naive.state.next, 2299);
    assert_eq!(last_naive, Some(35066), "naive compare stops marking at t = 35067");
    let mut clamped = marker(Law::PaperHarmonic, false, Division::Exact, w16);
    assert!((1000..60000u32).filter(|t| clamped.dequeue(*t, 100, ECT0, 0).pst).any(|t| t == 59999));
}

#[test]
fn codel_detects_non_strict_and_marks_at_inverse_sqrt() {
    let c = Config { mode: Mode::Codel, ..Config::default() };
    let mut m = Marker::new(Widths::RTL, Division::Exact);
    for (a, d) in c.csr_writes() {
        m.write_csr(a, d);
    }
    assert!(!m.dequeue(1000, 85, ECT0, 10).det);
    assert!(!m.dequeue(1199, 85, ECT0, 10).det);
    let d = m.dequeue(1200, 85, ECT0, 10);
    assert!(d.det && d.pst, "now - first_above >= interval fires (RFC 8289 uses >=)");
    assert_eq!((m.state.cnt, m.state.next), (1, 1400));
    let marks: Vec<u32> = (1201..=1800).filter(|t| m.dequeue(*t, 100, ECT0, 10).pst).collect();
    // drop_next += interval/sqrt(count): 1400, +141 = 1541, +115 = 1656, +100 = 1756
    assert_eq!(marks[..4], [1400, 1541, 1656, 1756]);
    // exit, then re-entry within 16 intervals restarts at count - lastcount
    let cnt = m.state.cnt;
    m.dequeue(1801, 10, ECT0, 10);
    m.dequeue(1802, 100, ECT0, 10);
    let d = m.dequeue(2002, 100, ECT0, 10);
    assert!(d.pst);
    assert_eq!(m.state.cnt, cnt - 1, "Linux re-entry: count = count - lastcount");
}

#[test]
fn config_validation() {
    assert!(ecn_sharp(Law::PaperHarmonic, false).validate().is_ok());
    let bad = Config { mode: Mode::EcnSharp, pst_target: 300, ins_target: 200, ..Config::default() };
    assert!(bad.validate().unwrap_err().contains("must not exceed"));
    let zero = Config { mode: Mode::Codel, pst_target: 0, ..Config::default() };
    assert!(zero.validate().is_err());
}
