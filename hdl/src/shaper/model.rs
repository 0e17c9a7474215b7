//! Golden model of the token-bucket shaper (semantics and choices in `mod.rs`).

use super::*;
use crate::cycle::{CsrStage, CycleModel, LateCounters, Pin};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shaper {
    pub fill: u64,
    pub fill_frac: u64,
    pub scale: u64,
    pub depth: u64,
    pub overhead: u64,
    pub max_len: u64,
    /// The bucket: `tokens × scale + frac` scaled tokens, `frac < scale`.
    pub tokens: u64,
    pub frac: u64,
    /// sent, bad, violation, csr_rejected (each counts its event a clock later).
    pub counters: LateCounters<4>,
    /// The write port's register (a write applies at the edge after its clock's).
    pub csr: CsrStage,
}

impl Default for Shaper {
    fn default() -> Self {
        Shaper {
            fill: DEFAULT_FILL,
            fill_frac: DEFAULT_FILL_FRAC,
            scale: DEFAULT_SCALE,
            depth: DEFAULT_DEPTH,
            overhead: DEFAULT_OVERHEAD,
            max_len: DEFAULT_MAX_LEN,
            tokens: DEFAULT_DEPTH,
            frac: 0,
            counters: LateCounters::default(),
            csr: CsrStage::default(),
        }
    }
}

impl Shaper {
    /// Wire bytes of a frame of `len` bytes (up to 65,790: 17 bits).
    pub fn wire_len(&self, len: u64) -> u64 {
        len + self.overhead
    }
    pub fn bad(&self, len: u64) -> bool {
        len == 0 || len > self.max_len
    }
    /// Would a head of `len` bytes depart if dequeued this clock?
    pub fn eligible(&self, len: u64) -> bool {
        !self.bad(len) && self.tokens >= self.wire_len(len)
    }
    /// The bucket in M3's scaled tokens.
    pub fn scaled_tokens(&self) -> u64 {
        self.tokens * self.scale + self.frac
    }

    fn refill_full(&mut self) {
        self.tokens = self.depth;
        self.frac = 0;
    }

    /// A register write as it lands (a clock after it is presented, `CsrStage`); `Err` when it
    /// is rejected, `Ok(Some(..))` when it presets a counter.
    pub fn csr_write(&mut self, addr: u64, data: u64) -> Result<Option<(usize, u64)>, ()> {
        let mut preset = None;
        let ok = match addr as u8 {
            csr::FILL if data < BUCKET_LIMIT => {
                self.fill = data;
                true
            }
            csr::SCALE if data & 0xFFFF > self.fill_frac => {
                self.scale = data & 0xFFFF;
                self.refill_full();
                true
            }
            csr::DEPTH if data < BUCKET_LIMIT => {
                self.depth = data;
                self.refill_full();
                true
            }
            csr::OVERHEAD if data <= 255 => {
                self.overhead = data;
                true
            }
            csr::MAX_LEN if data & 0xFFFF != 0 => {
                self.max_len = data & 0xFFFF;
                true
            }
            csr::FILL_FRAC if data < self.scale => {
                self.fill_frac = data;
                true
            }
            a if (csr::CNT_BASE..csr::CNT_BASE + 4).contains(&a) => {
                preset = Some(((a - csr::CNT_BASE) as usize, data));
                true
            }
            _ => false,
        };
        if ok { Ok(preset) } else { Err(()) }
    }
}

impl CycleModel for Shaper {
    const INPUTS: &'static [Pin] = ShaperIn::PINS;
    const OUTPUTS: &'static [Pin] = ShaperOut::PINS;
    const WRITE_DELAY: usize = 1;

    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let i = ShaperIn::from_slice(inputs);
        let bad = i.head_valid == 1 && self.bad(i.head_len);
        let eligible = i.head_valid == 1 && self.eligible(i.head_len);
        let o = ShaperOut {
            eligible: eligible as u64,
            bad_head: bad as u64,
            wire_len: self.wire_len(i.head_len),
            tokens: self.tokens,
            tokens_frac: self.frac,
            cnt_sent: self.counters[0],
            cnt_bad: self.counters[1],
            cnt_violation: self.counters[2],
            cnt_csr_rejected: self.counters[3],
        };
        let mut ev = [false; 4];
        let mut after = self.tokens;
        if i.deq == 1 {
            if eligible {
                after -= o.wire_len;
                ev[0] = true;
            } else if bad {
                ev[1] = true;
            } else {
                ev[2] = true;
            }
        }
        // refill after the departure decision, then cap (SH): the remainders carry into a byte
        let frac = self.frac + self.fill_frac;
        let carry = frac >= self.scale;
        let sum = after + self.fill + carry as u64;
        if sum >= self.depth {
            self.refill_full();
        } else {
            self.tokens = sum;
            self.frac = if carry { frac - self.scale } else { frac };
        }
        let write = match self.csr.edge(i.csr_we, i.csr_addr, i.csr_wdata) {
            Some((addr, data)) => self.csr_write(addr, data),
            None => Ok(None),
        };
        ev[3] = write.is_err();
        self.counters.edge(ev, write.unwrap_or(None));
        o.to_vec()
    }
}
