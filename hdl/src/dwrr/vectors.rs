//! DWRR vectors: ECN♯ §6 V16 (quanta 3000/1500/1500, the Q0 Q0 Q1 Q2 pattern and the
//! two-queue 2/3 : 1/3 split), mixed sizes, quanta below the packet size (the overdraft paid
//! back), strict priority, empty-queue deficit reset, the deficit's extremes, and the random
//! stimulus of the differential fuzz.

use super::model::Dwrr;
use super::{csr, DwrrIn, DwrrOut, N};
use crate::cycle::{Op, Rng, Script};
use std::collections::VecDeque;

pub type DwrrScript = Script<Dwrr>;

/// Backlogs per queue (head lengths in order) served by the scheduler, one clock per op.
#[derive(Clone, Default)]
pub struct Backlog(pub [VecDeque<u64>; N]);

impl Backlog {
    pub fn fill(q: &[(usize, u64, usize)]) -> Backlog {
        let mut b = Backlog::default();
        for &(queue, len, count) in q {
            b.0[queue].extend(std::iter::repeat_n(len, count));
        }
        b
    }
    fn inputs(&self, grant_en: bool) -> DwrrIn {
        let h = |q: usize| self.0[q].front().copied().unwrap_or(0);
        DwrrIn {
            grant_en: grant_en as u64,
            head_valid: (0..N).filter(|&q| !self.0[q].is_empty()).map(|q| 1 << q).sum(),
            head_len0: h(0),
            head_len1: h(1),
            head_len2: h(2),
            head_len3: h(3),
            head_len4: h(4),
            head_len5: h(5),
            head_len6: h(6),
            head_len7: h(7),
            ..Default::default()
        }
    }
}

/// Serve `b` for `clocks` clocks with the link always ready; returns the granted queues.
pub fn serve(s: &mut DwrrScript, b: &mut Backlog, clocks: usize) -> Vec<Option<usize>> {
    (0..clocks)
        .map(|_| {
            let o = DwrrOut::from_slice(&s.cycle(b.inputs(true).to_vec(), 1));
            (o.grant == 1).then(|| {
                b.0[o.grant_q as usize].pop_front();
                o.grant_q as usize
            })
        })
        .collect()
}

/// One clock of `b` served with a register write in the same clock; returns the granted queue.
pub fn serve_writing(s: &mut DwrrScript, b: &mut Backlog, addr: u8, data: u64) -> Option<usize> {
    let mut i = b.inputs(true);
    (i.csr_we, i.csr_addr, i.csr_wdata) = (1, addr as u64, data);
    let o = DwrrOut::from_slice(&s.cycle(i.to_vec(), 1));
    (o.grant == 1).then(|| {
        b.0[o.grant_q as usize].pop_front();
        o.grant_q as usize
    })
}

pub fn set_quanta(s: &mut DwrrScript, quanta: &[u64]) {
    for (q, &v) in quanta.iter().enumerate() {
        s.csr(csr::QUANTUM0 + q as u8, v);
    }
}

fn v16_file() -> Vec<Op> {
    let mut s = DwrrScript::default();
    s.note("V16: quanta 3000/1500/1500, 1500-B packets, queues 0-2 backlogged: Q0 Q0 Q1 Q2 per round (50/25/25 %)");
    set_quanta(&mut s, &[3000, 1500, 1500]);
    serve(&mut s, &mut Backlog::fill(&[(0, 1500, 40), (1, 1500, 20), (2, 1500, 20)]), 80);
    s.note("V16: only queues 0 and 1 backlogged: 2/3 and 1/3");
    serve(&mut s, &mut Backlog::fill(&[(0, 1500, 40), (1, 1500, 20)]), 60);
    s.note("mixed sizes (64..1500 B) with quanta 3000/1500/1500 >= every packet: a grant on every clock");
    let mut b = Backlog::default();
    for k in 0..60u64 {
        for q in 0..3 {
            b.0[q].push_back([64, 1500, 576, 1024, 200][((k + q as u64) % 5) as usize]);
        }
    }
    serve(&mut s, &mut b, 200);
    s.ops
}

fn corner_file() -> Vec<Op> {
    let mut s = DwrrScript::default();
    s.note("quantum 500 below 1500-B heads: a refill to 500 serves the head and overdraws to -1000, which the next two visits pay back without a grant");
    set_quanta(&mut s, &[500, 500]);
    serve(&mut s, &mut Backlog::fill(&[(0, 1500, 3), (1, 1500, 3)]), 30);
    s.note("queue 4 alone with quantum 700 and heads of 300, 1000, 1000, 200 B: the round comes straight back to it, so the refill test kept a clock ahead follows its last deficit (served as the current queue, refilled, refilled and served)");
    s.csr(csr::QUANTUM0 + 4, 700);
    let mut b = Backlog::default();
    for k in 0..16 {
        b.0[4].push_back([300, 1000, 1000, 200][k % 4]);
    }
    serve(&mut s, &mut b, 30);
    s.note("a queue's quantum written in the clock before the round visits it: its refill test is a clock stale, so the round waits a clock (no grant), then refills it with the new quantum (3000: two heads)");
    set_quanta(&mut s, &[1500, 1500]);
    let mut b = Backlog::fill(&[(0, 1500, 6), (1, 1500, 6)]);
    let g = serve(&mut s, &mut b, 2);
    // the round alternates: the queue granted second is visited again after the write clock
    let next = g[1].expect("the second clock grants");
    assert_eq!(serve_writing(&mut s, &mut b, csr::QUANTUM0 + next as u8, 3000), Some(1 - next));
    assert_eq!(serve(&mut s, &mut b, 4), [None, Some(next), Some(next), Some(1 - next)]);
    serve(&mut s, &mut b, 4);
    s.note("an emptied queue's deficit is reset to 0 and it re-enters with one quantum");
    set_quanta(&mut s, &[4000, 4000]);
    serve(&mut s, &mut Backlog::fill(&[(0, 1000, 1), (1, 1000, 6)]), 8);
    serve(&mut s, &mut Backlog::fill(&[(0, 1000, 6), (1, 1000, 2)]), 10);
    s.note("grant_en low freezes the round: no grant, deficits of backlogged queues and cur are kept");
    let mut b = Backlog::fill(&[(2, 700, 4), (5, 900, 4)]);
    serve(&mut s, &mut b, 2);
    s.cycle(b.inputs(false).to_vec(), 5);
    serve(&mut s, &mut b, 8);
    s.note("strict priority: queues 6 and 3 in PRIO_MASK preempt DWRR, lowest index first, and leave the round untouched");
    s.csr(csr::PRIO_MASK, 0b0100_1000);
    serve(&mut s, &mut Backlog::fill(&[(0, 1500, 4), (1, 1500, 4), (3, 64, 3), (6, 64, 3)]), 16);
    s.note("PRIO_MASK all ones: plain strict priority over all eight queues");
    s.csr(csr::PRIO_MASK, 0xFF);
    serve(&mut s, &mut Backlog::fill(&[(7, 64, 2), (4, 64, 2), (1, 64, 2)]), 8);
    s.csr(csr::PRIO_MASK, 0);
    s.note("the deficit's extremes: 65535 after a refill from 0, and -65534 after a 65535-B head on a deficit of 1");
    set_quanta(&mut s, &[65_535]);
    let mut b = Backlog::fill(&[(0, 65_534, 1), (0, 65_535, 3)]);
    serve(&mut s, &mut b, 8);
    s.note("quantum writes above 65535 are ignored; quantum 0 never serves the queue");
    s.csr(csr::QUANTUM0 + 1, 0x1_0000);
    s.csr(csr::QUANTUM0 + 2, 0);
    serve(&mut s, &mut Backlog::fill(&[(1, 1500, 3), (2, 64, 2)]), 8);
    s.ops
}

pub fn render() -> Vec<(&'static str, String)> {
    crate::cycle::render_files("DWRR", "hdl/src/dwrr/vectors.rs", vec![("v16.jsonl", v16_file()), ("corners.jsonl", corner_file())])
}

/// One clock of fuzz stimulus: random backlogs and lengths (including 0 and 65535), a quarter
/// of the clocks one queue alone (the round then returns to the queue it just served, which
/// reads the refill test the RTL keeps a clock ahead), the link ready 80 % of the time,
/// occasional quantum and PRIO_MASK writes (small quanta included).
pub fn random_cycle(r: &mut Rng) -> Vec<u64> {
    let mut i = DwrrIn {
        grant_en: r.chance(80) as u64,
        head_valid: r.next() & r.next() & 0xFF | r.next() & 0xFF,
        arrive: r.next() & r.next() & 0xFF,
        ..Default::default()
    };
    // a quarter of the clocks: queue 5 alone, so the round comes straight back to it
    if r.chance(25) {
        (i.head_valid, i.arrive) = (1 << 5, 1 << 5);
    }
    let mut len = || if r.chance(2) { [0, 65535][r.below(2) as usize] } else { 1 + r.below(9216) };
    (i.head_len0, i.head_len1, i.head_len2, i.head_len3) = (len(), len(), len(), len());
    (i.head_len4, i.head_len5, i.head_len6, i.head_len7) = (len(), len(), len(), len());
    if r.chance(2) {
        i.csr_we = 1;
        (i.csr_addr, i.csr_wdata) = match r.below(6) {
            0 => (csr::PRIO_MASK as u64, r.next() & 0xFFFF_FFFF & if r.chance(50) { 0 } else { 0xFF }),
            1 => (r.below(256), r.next() & 0xFFFF_FFFF),
            _ => (r.below(N as u64), if r.chance(20) { r.below(0x2_0000) } else { 1 + r.below(20_000) }),
        };
    }
    i.to_vec()
}

#[cfg(test)]
mod spec_tests {
    use super::*;
    use crate::cycle::CycleModel;

    fn shares(grants: &[Option<usize>], lens: impl Fn(usize) -> u64) -> [u64; N] {
        let mut bytes = [0; N];
        for q in grants.iter().flatten() {
            bytes[*q] += lens(*q);
        }
        bytes
    }

    #[test]
    fn v16_pattern_and_shares() {
        let mut s = DwrrScript::default();
        set_quanta(&mut s, &[3000, 1500, 1500]);
        let g = serve(&mut s, &mut Backlog::fill(&[(0, 1500, 400), (1, 1500, 400), (2, 1500, 400)]), 401);
        // the round-robin pick sees a backlog from the clock after it appears
        assert_eq!(g[0], None);
        assert_eq!(&g[1..9], &[Some(0), Some(0), Some(1), Some(2), Some(0), Some(0), Some(1), Some(2)]);
        assert!(g[1..].iter().all(|x| x.is_some()), "a grant every clock");
        assert_eq!(&shares(&g, |_| 1500)[..3], &[200 * 1500, 100 * 1500, 100 * 1500]);
        let g = serve(&mut s, &mut Backlog::fill(&[(0, 1500, 400), (1, 1500, 400)]), 300);
        assert_eq!(&shares(&g, |_| 1500)[..2], &[200 * 1500, 100 * 1500]);
    }

    /// Mixed sizes, weights 2:1:1 with quanta >= the largest packet: byte shares within 1 % of
    /// 50/25/25 over a long backlog, and a grant on every clock.
    #[test]
    fn weighted_byte_shares_with_mixed_sizes() {
        let mut m = Dwrr::default();
        m.quantum[..3].copy_from_slice(&[3000, 1500, 1500]);
        let mut r = Rng::new(7);
        let mut heads = [0u64; 3].map(|_| 64 + r.below(1437));
        let mut bytes = [0u64; 3];
        // the first clock only shows the pick the backlog
        assert_eq!(m.clock(0b111, &[heads[0], heads[1], heads[2], 0, 0, 0, 0, 0], true), None);
        for _ in 0..200_000 {
            let mut lens = [0; N];
            lens[..3].copy_from_slice(&heads);
            let q = m.clock(0b111, &lens, true).expect("grant every clock");
            bytes[q] += heads[q];
            heads[q] = 64 + r.below(1437);
        }
        let total: u64 = bytes.iter().sum();
        for (q, want) in [(0, 0.5), (1, 0.25), (2, 0.25)] {
            let got = bytes[q] as f64 / total as f64;
            assert!((got - want).abs() < 0.01, "queue {q}: {got}");
        }
    }

    /// Random backlogs: only backlogged queues are granted, strict-priority queues win, a ready
    /// clock with a backlog grants unless the round ends it with `cur`'s deficit at or below 0
    /// (the current queue could not stay, and the pick found no queue still backlogged, or one
    /// whose quantum was written in the clock before, or refilled one to at most 0), an empty
    /// or strict-priority queue holds deficit 0, and the
    /// deficit stays in its 17 bits. (A grant on every clock when quanta
    /// cover every head: `v16_pattern_and_shares`, `weighted_byte_shares_with_mixed_sizes`.)
    #[test]
    fn fuzz_grants_are_legal() {
        let mut m = Dwrr::default();
        let mut r = Rng::new(11);
        for _ in 0..100_000 {
            let i = DwrrIn::from_slice(&random_cycle(&mut r));
            let lens = [i.head_len0, i.head_len1, i.head_len2, i.head_len3, i.head_len4, i.head_len5, i.head_len6, i.head_len7];
            let before = m.clone();
            let o = DwrrOut::from_slice(&m.step(&i.to_vec()));
            if o.grant == 1 {
                assert!(i.grant_en == 1 && i.head_valid >> o.grant_q & 1 == 1);
                let sp = i.head_valid & before.prio_mask;
                if sp != 0 {
                    assert_eq!(o.grant_q, sp.trailing_zeros() as u64);
                }
                // a DWRR grant charges the whole head to a positive deficit, the current one or
                // the one refilled this clock
                let q = o.grant_q as usize;
                let charged = m.deficit[q] + lens[q] as i64;
                if sp == 0 {
                    assert!(charged > 0 && (charged == before.deficit[q] || charged == before.deficit[q] + before.quantum[q] as i64));
                }
            } else if i.grant_en == 1 && i.head_valid != 0 {
                // no grant: only a DWRR visit whose refill leaves the deficit at or below 0, or
                // a round that waits (no next queue, or one written in the clock before)
                assert_eq!(i.head_valid & before.prio_mask, 0, "a strict-priority head was not served");
                let j = m.cur;
                assert!(m.deficit[j] <= 0, "queue {j} had a positive deficit but was not granted");
            }
            for q in 0..N {
                if (i.head_valid & !before.prio_mask) >> q & 1 == 0 {
                    assert_eq!(m.deficit[q], 0);
                }
                assert!((-65_534..=65_535).contains(&m.deficit[q]), "deficit {} out of its 17 bits", m.deficit[q]);
            }
        }
    }

    /// A quantum write to the queue the round visits next makes it wait a clock (the RTL's
    /// refill test for that queue is a clock stale); the new quantum then applies.
    #[test]
    fn a_quantum_write_delays_the_next_queue_a_clock() {
        let mut m = Dwrr::default();
        let lens = [1500; N];
        let mut g = vec![];
        for clock in 0..6 {
            g.push(m.clock(0b11, &lens, true));
            if clock == 1 {
                m.csr_write(csr::QUANTUM0 as u64 + 1, 3000);
            }
        }
        // the first clock shows the pick the backlog; queue 1 waits a clock after the write,
        // then its 3000-B quantum serves two heads
        assert_eq!(g, [None, Some(0), None, Some(1), Some(1), Some(0)]);
        let mut m = Dwrr::default();
        let g: Vec<_> = (0..6).map(|_| m.clock(0b11, &lens, true)).collect();
        assert_eq!(g, [None, Some(0), Some(1), Some(0), Some(1), Some(0)], "without the write");
    }

    #[test]
    fn committed_vectors_are_fresh() {
        crate::cycle::assert_fresh("dwrr", render());
    }
}
