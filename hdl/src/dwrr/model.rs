//! Golden model of the DWRR / strict-priority scheduler (semantics and choices in `mod.rs`).

use super::*;
use crate::cycle::{CycleModel, Pin};

/// Scheduler state for any power-of-two queue count (the port model uses it with its own `N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dwrr {
    pub quantum: Vec<u64>,
    pub prio_mask: u64,
    pub cur: usize,
    /// Deficits in bytes; a served queue may overdraw, so they are signed (−65,534 to 65,535,
    /// 17 bits: a refill only ever lands on a deficit ≤ 0).
    pub deficit: Vec<i64>,
    /// The DWRR queues backlogged in the previous clock or receiving a descriptor in it: the
    /// round-robin pick is made a clock ahead, so it sees these (and the queue it picks must
    /// still be backlogged).
    pub seen: u64,
    /// The queues whose quantum was written in the previous clock: none of them is the next
    /// queue in this clock (the RTL keeps each refill test a clock ahead, made with the quantum
    /// before the write), so the round waits a clock instead of refilling it.
    pub written: u64,
}

impl Default for Dwrr {
    fn default() -> Self {
        Dwrr::new(N)
    }
}

impl Dwrr {
    pub fn new(n: usize) -> Self {
        assert!(n.is_power_of_two() && n >= 2, "queue count must be a power of two");
        Dwrr { quantum: vec![DEFAULT_QUANTUM; n], prio_mask: 0, cur: n - 1, deficit: vec![0; n], seen: 0, written: 0 }
    }

    pub fn n(&self) -> usize {
        self.quantum.len()
    }

    /// One clock: `valid` bit q = queue q has a servable head of `len[q]` bytes. Returns the
    /// granted queue and moves to the state after the edge. The current queue is served while
    /// its deficit is positive, and the head is charged whole (RFC 8290 §4.2: the deficit may go
    /// negative); otherwise the next queue in round-robin order among those backlogged in the
    /// previous clock or receiving a descriptor in it ([`Dwrr::arrivals`]), if it is still
    /// backlogged, gets its quantum and is served in the same clock if that makes its deficit
    /// positive. A queue whose quantum was written in the previous clock is not that next queue:
    /// the round waits a clock.
    pub fn clock(&mut self, valid: u64, len: &[u64], grant_en: bool) -> Option<usize> {
        let n = self.n();
        let sp = valid & self.prio_mask;
        let dw = valid & !self.prio_mask;
        let mut grant = None;
        if grant_en && sp != 0 {
            grant = Some(sp.trailing_zeros() as usize);
        } else if grant_en && dw != 0 {
            let c = self.cur;
            let seen = self.seen;
            if dw >> c & 1 == 1 && self.deficit[c] > 0 {
                self.deficit[c] -= len[c] as i64;
                grant = Some(c);
            } else if let Some(j) = (1..=n)
                .map(|k| (c + k) % n)
                .find(|&j| seen >> j & 1 == 1)
                .filter(|&j| dw >> j & 1 == 1 && self.written >> j & 1 == 0)
            {
                self.cur = j;
                debug_assert!(self.deficit[j] <= 0, "a refill lands on a deficit <= 0");
                self.deficit[j] += self.quantum[j] as i64;
                if self.deficit[j] > 0 {
                    self.deficit[j] -= len[j] as i64;
                    grant = Some(j);
                }
            }
        }
        for q in 0..n {
            if dw >> q & 1 == 0 {
                self.deficit[q] = 0;
            }
        }
        self.seen = dw;
        self.written = 0;
        grant
    }

    /// The queues receiving a descriptor this clock (after `clock`, before `csr_write`): the
    /// pick made this clock for the next one counts them.
    pub fn arrivals(&mut self, arrive: u64) {
        self.seen |= arrive & !self.prio_mask & crate::cycle::mask(self.n() as u32);
    }

    pub fn csr_write(&mut self, addr: u64, data: u64) {
        let n = self.n() as u64;
        if addr < n && data <= 0xFFFF {
            self.quantum[addr as usize] = data;
            self.written |= 1 << addr;
        } else if addr == csr::PRIO_MASK as u64 {
            self.prio_mask = data & crate::cycle::mask(n as u32);
        }
    }
}

impl CycleModel for Dwrr {
    const INPUTS: &'static [Pin] = DwrrIn::PINS;
    const OUTPUTS: &'static [Pin] = DwrrOut::PINS;

    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let i = DwrrIn::from_slice(inputs);
        // two's complement in the pin's 17 bits
        let d: Vec<u64> = self.deficit.iter().map(|&x| x as u64 & crate::cycle::mask(17)).collect();
        let mut o = DwrrOut {
            cur: self.cur as u64,
            deficit0: d[0],
            deficit1: d[1],
            deficit2: d[2],
            deficit3: d[3],
            deficit4: d[4],
            deficit5: d[5],
            deficit6: d[6],
            deficit7: d[7],
            ..Default::default()
        };
        let len = [i.head_len0, i.head_len1, i.head_len2, i.head_len3, i.head_len4, i.head_len5, i.head_len6, i.head_len7];
        if let Some(q) = self.clock(i.head_valid, &len, i.grant_en == 1) {
            o.grant = 1;
            o.grant_q = q as u64;
        }
        self.arrivals(i.arrive);
        if i.csr_we == 1 {
            self.csr_write(i.csr_addr, i.csr_wdata);
        }
        o.to_vec()
    }
}
