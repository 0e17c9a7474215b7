//! Shaper vectors: GEMINI/FlashPass §5.2 SH (three link/clock configurations, 8 frames
//! backlogged), burst and depth behaviour, malformed heads and protocol violations, and the
//! random stimulus of the differential fuzz.

use super::model::Shaper;
use super::{csr, ShaperIn, BUCKET_LIMIT};
use crate::cycle::{CycleModel, Op, Rng, Script};

pub type ShaperScript = Script<Shaper>;

/// Program M3's scaled bucket (`fill` tokens per clock, `scale` tokens per wire byte, `depth`
/// wire bytes) through [`super::rate_writes`]; the DEPTH write fills the bucket, and the next
/// clock is cycle 0.
pub fn setup(s: &mut ShaperScript, fill: u64, scale: u64, depth: u64) {
    for (a, v) in super::rate_writes(fill, scale, depth) {
        s.csr(a, v);
    }
}

/// Serve a backlog of frames (`lens`, frame bytes) as a greedy scheduler would: dequeue the
/// head whenever it is eligible. Waiting clocks are one op each stretch. Returns the departure
/// cycles counted from the first clock.
pub fn serve(s: &mut ShaperScript, lens: &[u64], until: u64) -> Vec<u64> {
    let mut t = 0;
    let mut out = vec![];
    let mut k = 0;
    while t < until {
        let head = lens.get(k).copied();
        let idle = ShaperIn { head_valid: head.is_some() as u64, head_len: head.unwrap_or(0), ..Default::default() };
        if head.is_some_and(|l| s.model().eligible(l)) {
            s.cycle(ShaperIn { deq: 1, ..idle }.to_vec(), 1);
            out.push(t);
            k += 1;
            t += 1;
            continue;
        }
        // clocks until the head becomes eligible (or `until`)
        let mut m = s.model().clone();
        let mut n = 0;
        while t + n < until && !head.is_some_and(|l| m.eligible(l)) {
            m.step(&idle.to_vec());
            n += 1;
        }
        if n > 0 {
            s.cycle(idle.to_vec(), n as u32);
        }
        t += n;
    }
    out
}

/// The SH configurations: (label, fill per clock).
pub const SH: [(&str, u64); 3] = [
    ("10 Gb/s at 156.25 MHz, 8 B/clock", 672),
    ("10 Gb/s at 312.5 MHz, 4 B/clock", 336),
    ("100 Gb/s at 390.625 MHz, 32 B/clock", 2688),
];

fn spec_file() -> Vec<Op> {
    let mut s = ShaperScript::default();
    for (label, fill) in SH {
        s.note(format!("SH {label}: fill {fill}/clock, cost 136248 per 84-B wire frame (64 B + 20 B overhead), depth 272496 (168 wire bytes), 8 frames backlogged"));
        setup(&mut s, fill, 1622, 168);
        serve(&mut s, &[64; 8], 2500);
    }
    s.note("1538-B wire frames (1518 B + 20) at 8 B/clock with depth 2 x 1538 x 1622: long-run rate 84/1622 of the link");
    setup(&mut s, 672, 1622, 2 * 1538);
    serve(&mut s, &[1518; 12], 40_000);
    s.note("mixed sizes, then an idle gap refills the bucket to DEPTH and no further");
    setup(&mut s, 672, 1622, 168);
    serve(&mut s, &[64, 200, 1518, 64, 64], 9000);
    s.cycle(ShaperIn::default().to_vec(), 1000);
    serve(&mut s, &[64; 3], 10);
    s.ops
}

fn robustness_file() -> Vec<Op> {
    let mut s = ShaperScript::default();
    s.note("malformed heads (length 0, above MAX_LEN) are never eligible; dequeuing one drops it without charging tokens");
    s.csr(csr::MAX_LEN, 1518);
    for len in [0, 1519, 65535] {
        s.cycle(ShaperIn { head_valid: 1, head_len: len, ..Default::default() }.to_vec(), 1);
        s.cycle(ShaperIn { head_valid: 1, head_len: len, deq: 1, ..Default::default() }.to_vec(), 1);
    }
    s.note("a dequeue of an ineligible head, or of no head, is ignored and counted");
    serve(&mut s, &[1518, 1518], 3);
    s.cycle(ShaperIn { head_valid: 1, head_len: 1518, deq: 1, ..Default::default() }.to_vec(), 3);
    s.cycle(ShaperIn { deq: 1, ..Default::default() }.to_vec(), 2);
    s.note("OVERHEAD changes the wire length; a SCALE write refills the bucket; invalid writes (SCALE 0 or not above FILL_FRAC, FILL_FRAC not below SCALE, OVERHEAD 256, MAX_LEN 0, FILL or DEPTH 2^20, unknown) are rejected");
    s.csr(csr::OVERHEAD, 0);
    s.csr(csr::SCALE, 1000);
    s.cycle(ShaperIn { head_valid: 1, head_len: 84, ..Default::default() }.to_vec(), 1);
    for (a, v) in [
        (csr::SCALE, 0x1_0000),
        (csr::SCALE, 672),
        (csr::FILL_FRAC, 1000),
        (csr::FILL_FRAC, 0x1_0000),
        (csr::OVERHEAD, 256),
        (csr::MAX_LEN, 0),
        (csr::FILL, BUCKET_LIMIT),
        (csr::DEPTH, BUCKET_LIMIT),
        (6, 0),
        (20, 1),
        (200, 3),
    ] {
        s.csr(a, v);
    }
    s.cycle(ShaperIn { head_valid: 1, head_len: 84, ..Default::default() }.to_vec(), 1);
    s.note("the remainder carries a whole byte when it reaches SCALE (FILL_FRAC 999 of 1000)");
    s.csr(csr::FILL_FRAC, 999);
    serve(&mut s, &[84, 84, 84, 84], 400);
    s.note("a DEPTH below the current tokens refills to exactly the new depth; FILL 0 freezes the bucket");
    s.csr(csr::FILL, 0);
    s.csr(csr::FILL_FRAC, 0);
    s.csr(csr::DEPTH, 200);
    serve(&mut s, &[84, 84, 84], 20);
    s.note("FILL and DEPTH at their largest (2^20 - 1): full after every clock");
    s.csr(csr::FILL, BUCKET_LIMIT - 1);
    s.csr(csr::DEPTH, BUCKET_LIMIT - 1);
    serve(&mut s, &[9216; 6], 8);
    s.note("counters saturate at 2^32 - 1 (presets through CNT_* writes)");
    for k in 0..4u8 {
        s.csr(csr::CNT_BASE + k, 0xFFFF_FFFE);
    }
    serve(&mut s, &[64; 3], 4);
    s.cycle(ShaperIn { head_valid: 1, head_len: 0, deq: 1, ..Default::default() }.to_vec(), 3);
    s.csr(21, 0);
    s.csr(21, 0);
    s.note("a FILL_FRAC write takes the next clock's carry against the new SCALE - FILL_FRAC: the remainder plus FILL_FRAC one below SCALE (no carry), then exactly SCALE (a carry)");
    for ff in [399, 400] {
        for (a, v) in [(csr::FILL_FRAC, 0), (csr::SCALE, 1000), (csr::FILL, 0), (csr::FILL_FRAC, 300), (csr::DEPTH, 1000)] {
            s.csr(a, v);
        }
        s.cycle(ShaperIn { head_valid: 1, head_len: 500, deq: 1, ..Default::default() }.to_vec(), 1);
        // the write is applied at the end of the clock after it is presented: present it in the
        // clock before the remainder is 300
        let idle = ShaperIn::default().to_vec();
        while {
            let mut m = s.model().clone();
            m.step(&idle);
            m.frac != 300
        } {
            s.cycle(idle.clone(), 1);
        }
        s.cycle(ShaperIn { csr_we: 1, csr_addr: csr::FILL_FRAC as u64, csr_wdata: ff, ..Default::default() }.to_vec(), 1);
        assert_eq!(s.model().frac, 300, "the FILL_FRAC write is applied on remainder 300");
        s.cycle(idle, 3);
    }
    s.note("back-to-back writes of FILL_FRAC and SCALE: each is checked against the other as the one before it leaves it (FILL_FRAC 700 then SCALE 500: rejected; SCALE 800 then FILL_FRAC 900: rejected; FILL_FRAC 100 then SCALE 200: accepted)");
    s.csr(csr::CNT_BASE + 3, 0);
    for pair in [[(csr::FILL_FRAC, 700), (csr::SCALE, 500)], [(csr::SCALE, 800), (csr::FILL_FRAC, 900)], [(csr::FILL_FRAC, 100), (csr::SCALE, 200)]] {
        s.csr(csr::SCALE, 1000);
        s.csr(csr::FILL_FRAC, 300);
        for (a, v) in pair {
            s.cycle(ShaperIn { csr_we: 1, csr_addr: a as u64, csr_wdata: v, ..Default::default() }.to_vec(), 1);
        }
        s.cycle(ShaperIn::default().to_vec(), 3);
    }
    assert_eq!((s.model().scale, s.model().fill_frac, s.model().counters[3]), (200, 100, 2));
    s.note("a refill lands exactly on DEPTH only through the remainder's carry, after a departure and without one: the bucket is full, remainder 0");
    for a_departure in [true, false] {
        for (a, v) in [(csr::FILL_FRAC, 0), (csr::SCALE, 1000), (csr::OVERHEAD, 0), (csr::FILL, 100), (csr::FILL_FRAC, 600)] {
            s.csr(a, v);
        }
        // DEPTH 1000 fills the bucket at the end of the clock after it; that clock presents FILL
        // 49 in the case without a departure, which is applied a clock later still
        let write = |addr: u8, data: u64, we: bool| ShaperIn { csr_we: we as u64, csr_addr: addr as u64, csr_wdata: data, ..Default::default() };
        s.cycle(write(csr::DEPTH, 1000, true).to_vec(), 1);
        s.cycle(write(csr::FILL, 49, !a_departure).to_vec(), 1);
        // 1000 - 150 + 100 = 950 tokens, remainder 600: the next clock carries; then a departure
        // of 51 (950 - 51 + 100 + 1), or FILL 49 and no departure (950 + 49 + 1)
        s.cycle(ShaperIn { head_valid: 1, head_len: 150, deq: 1, ..Default::default() }.to_vec(), 1);
        assert_eq!((s.model().tokens, s.model().frac, s.model().fill), (950, 600, if a_departure { 100 } else { 49 }));
        s.cycle(ShaperIn { head_valid: a_departure as u64, head_len: 51, deq: a_departure as u64, ..Default::default() }.to_vec(), 1);
        assert_eq!((s.model().tokens, s.model().frac), (1000, 0), "the refill lands on DEPTH through the carry");
        s.cycle(ShaperIn::default().to_vec(), 1);
        s.cycle(ShaperIn::default().to_vec(), 1);
    }
    s.ops
}

pub fn render() -> Vec<(&'static str, String)> {
    crate::cycle::render_files("Shaper", "hdl/src/shaper/vectors.rs", vec![("spec_sh.jsonl", spec_file()), ("robustness.jsonl", robustness_file())])
}

/// One clock of fuzz stimulus: a head most of the time, dequeues in 60 % of clocks (so some are
/// violations), small buckets so the eligibility edge is crossed constantly.
pub fn random_cycle(r: &mut Rng) -> Vec<u64> {
    let mut i = ShaperIn::default();
    if r.chance(85) {
        i.head_valid = 1;
        // now and then a length whose wire length passes 16 bits (MAX_LEN 65,535 below)
        i.head_len = match r.below(100) {
            0..=2 => [0, 9217, 65535, 65535 - r.below(300)][r.below(4) as usize],
            3..=32 => 1 + r.below(64),
            _ => 1 + r.below(1600),
        };
    }
    i.deq = r.chance(60) as u64;
    (i.csr_we, i.csr_addr, i.csr_wdata) = r.csr_write(8, |r, choice| {
        Some(match choice {
            // now and then FILL or DEPTH at the bucket's limit (the bucket's widest sums), or just
            // above it (rejected); FILL, DEPTH and lengths of the same small size make a refill
            // land exactly on the cap, with or without the remainder's carry
            0 => (csr::FILL, match r.below(20) {
                0 => BUCKET_LIMIT - 2 + r.below(4),
                1..=3 => r.below(64),
                4..=6 => r.below(2000),
                _ => r.below(3),
            }),
            1 => (csr::SCALE, r.below(3000)),
            2 => (csr::DEPTH, match r.below(10) {
                0 => BUCKET_LIMIT - 2 + r.below(4),
                1..=3 => r.below(300),
                _ => r.below(2500),
            }),
            7 => (csr::FILL_FRAC, r.below(3000)),
            3 => (csr::OVERHEAD, if r.chance(40) { r.below(8) } else { r.below(300) }),
            4 => (csr::MAX_LEN, if r.chance(30) { 65_535 } else { r.below(10_000) }),
            5 => r.counter_near_wrap(csr::CNT_BASE, 4),
            _ => return None,
        })
    });
    i.to_vec()
}

#[cfg(test)]
mod spec_tests {
    use super::*;
    use crate::cycle::CycleModel;
    use crate::shaper::ShaperOut;

    #[test]
    fn sh_departure_cycles() {
        let want: [Vec<u64>; 3] = [
            vec![0, 1, 203, 406, 609, 811, 1014, 1217],
            vec![0, 1, 406, 811, 1217, 1622, 2028, 2433],
            vec![0, 1, 51, 102, 153, 203, 254, 305],
        ];
        for ((_, fill), want) in SH.iter().zip(want) {
            let mut s = ShaperScript::default();
            setup(&mut s, *fill, 1622, 168);
            assert_eq!(serve(&mut s, &[64; 8], 2500), want, "fill {fill}");
        }
    }

    /// The long-run rate is exactly FILL/SCALE bytes per clock: over a million clocks of backlog
    /// the bytes sent are within one bucket depth plus one frame of 84/1622 of the link.
    #[test]
    fn long_run_rate_is_84_over_1622() {
        let mut m = Shaper::default();
        let (fill, depth, clocks) = (672u64, 168 * 1622u64, 1_000_000u64);
        let mut wire_bytes = 0;
        for c in 0..clocks {
            let len = [64u64, 1518, 300, 9000][(c % 4) as usize];
            let el = m.eligible(len);
            m.step(&ShaperIn { head_valid: 1, head_len: len, deq: el as u64, ..Default::default() }.to_vec());
            if el {
                wire_bytes += len + 20;
            }
        }
        let ideal = clocks * fill; // tokens granted = wire bytes × 1622 at the ideal rate
        let sent = wire_bytes * 1622;
        assert!(sent <= ideal + depth, "{sent} > {ideal} + depth");
        assert!(sent + depth + 9020 * 1622 >= ideal, "{sent} too far below {ideal}");
        let link = (clocks * 8) as f64;
        let share = wire_bytes as f64 / link;
        assert!((share - 84.0 / 1622.0).abs() < 1e-3, "share {share}");
    }

    #[test]
    fn malformed_heads_and_violations_cost_nothing() {
        let mut m = Shaper::default();
        let full = m.tokens;
        let o = ShaperOut::from_slice(&m.step(&ShaperIn { head_valid: 1, head_len: 0, deq: 1, ..Default::default() }.to_vec()));
        assert_eq!((o.eligible, o.bad_head, m.tokens), (0, 1, full));
        m.tokens = 5;
        m.step(&ShaperIn { head_valid: 1, head_len: 64, deq: 1, ..Default::default() }.to_vec());
        assert_eq!(m.scaled_tokens(), 5 * 1622 + 672);
        // the counters count an event at the edge after its clock
        m.step(&ShaperIn::default().to_vec());
        assert_eq!((m.counters[0], m.counters[1], m.counters[2]), (0, 1, 1));
    }

    /// Conservation: every dequeue is sent, dropped as malformed or refused as a violation,
    /// and the bucket never exceeds its depth.
    #[test]
    fn fuzz_conserves_dequeues() {
        let mut m = Shaper::default();
        let mut r = Rng::new(5);
        // dequeues before the last clock: the counters count an event at the edge after its clock
        let (mut deqs, mut last) = (0, 0);
        for _ in 0..100_000 {
            let mut i = ShaperIn::from_slice(&random_cycle(&mut r));
            if (csr::CNT_BASE..csr::CNT_BASE + 4).contains(&(i.csr_addr as u8)) {
                i.csr_we = 0;
            }
            let o = ShaperOut::from_slice(&m.step(&i.to_vec()));
            assert_eq!(o.cnt_sent + o.cnt_bad + o.cnt_violation, deqs);
            assert!(m.tokens <= m.depth);
            deqs += last;
            last = i.deq;
        }
        assert!(m.counters[0] > 1000 && m.counters[1] > 100 && m.counters[2] > 1000, "{:?}", m.counters);
    }

    /// M3's bucket in scaled tokens, as the spec states it: the mixed-radix bucket must match it
    /// step for step (eligibility and the scaled token count) under random heads, dequeues and
    /// reprogramming through `rate_writes`.
    #[test]
    fn mixed_radix_is_the_scaled_bucket() {
        struct Scaled {
            fill: u64,
            scale: u64,
            depth: u64,
            tokens: u64,
        }
        let mut r = Rng::new(11);
        let mut m = Shaper::default();
        let mut z = Scaled { fill: 672, scale: 1622, depth: 168 * 1622, tokens: 168 * 1622 };
        let mut departures = 0;
        for c in 0..300_000u64 {
            if c % 20_000 == 0 {
                let (scale, depth) = (1 + r.below(3000), 1600 + r.below(30_000));
                z = Scaled { fill: r.below(40 * scale), scale, depth: depth * scale, tokens: depth * scale };
                for (a, v) in crate::shaper::rate_writes(z.fill, scale, depth) {
                    m.step(&ShaperIn { csr_we: 1, csr_addr: a as u64, csr_wdata: v, ..Default::default() }.to_vec());
                }
                m.step(&ShaperIn::default().to_vec()); // the DEPTH write lands
            }
            let len = 1 + r.below(1518);
            let cost = (len + 20) * z.scale;
            let el = z.tokens >= cost;
            assert_eq!(m.eligible(len), el, "clock {c}");
            let deq = r.chance(70);
            m.step(&ShaperIn { head_valid: 1, head_len: len, deq: deq as u64, ..Default::default() }.to_vec());
            let after = if deq && el { z.tokens - cost } else { z.tokens };
            z.tokens = (after + z.fill).min(z.depth);
            departures += (deq && el) as u64;
            assert_eq!(m.scaled_tokens(), z.tokens, "clock {c}");
        }
        assert!(departures > 10_000, "{departures}");
    }

    /// `rate_writes` refuses a rate or depth the block would reject, at 2^20 and not below.
    #[test]
    fn rate_writes_stay_below_the_bucket_limit() {
        let limit = BUCKET_LIMIT;
        assert_eq!(crate::shaper::rate_writes(limit * 1000 - 1, 1000, limit - 1)[2], (csr::FILL, limit - 1));
        let depth = std::panic::catch_unwind(|| crate::shaper::rate_writes(672, 1622, limit));
        let fill = std::panic::catch_unwind(|| crate::shaper::rate_writes(limit * 1000, 1000, 168));
        assert!(depth.is_err() && fill.is_err());
    }

    #[test]
    fn committed_vectors_are_fresh() {
        crate::cycle::assert_fresh("shaper", render());
    }
}
