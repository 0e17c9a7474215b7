//! Golden model of the INT stamper (layout and choices in `mod.rs`).

use super::*;
use crate::cycle::{CsrStage, CycleModel, LateCounters, Pin};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntStamp {
    pub rate: u64,
    pub byte_shift: u64,
    pub qlen_shift: u64,
    pub max_len: u64,
    pub tx_bytes: u64,
    /// stamped, malformed, csr_rejected (each counts its event a clock later).
    pub counters: LateCounters<3>,
    /// The write port's register (a write applies at the edge after its clock's).
    pub csr: CsrStage,
}

impl Default for IntStamp {
    fn default() -> Self {
        IntStamp {
            rate: DEFAULT_RATE,
            byte_shift: DEFAULT_BYTE_SHIFT,
            qlen_shift: DEFAULT_QLEN_SHIFT,
            max_len: DEFAULT_MAX_LEN,
            tx_bytes: 0,
            counters: LateCounters::default(),
            csr: CsrStage::default(),
        }
    }
}

impl IntStamp {
    /// A register write; `Err` when it is rejected, `Ok(Some(..))` when it presets a counter.
    fn csr_write(&mut self, addr: u64, data: u64) -> Result<Option<(usize, u64)>, ()> {
        let mut preset = None;
        let ok = match addr as u8 {
            csr::RATE if data <= 4 => {
                self.rate = data;
                true
            }
            csr::BYTE_SHIFT if data <= 12 => {
                self.byte_shift = data;
                true
            }
            csr::QLEN_SHIFT if data <= 15 => {
                self.qlen_shift = data;
                true
            }
            csr::MAX_LEN if data & 0xFFFF != 0 => {
                self.max_len = data & 0xFFFF;
                true
            }
            csr::TX_LOAD => {
                self.tx_bytes = data;
                true
            }
            a if (csr::CNT_BASE..csr::CNT_BASE + 3).contains(&a) => {
                preset = Some(((a - csr::CNT_BASE) as usize, data));
                true
            }
            _ => false,
        };
        if ok { Ok(preset) } else { Err(()) }
    }
}

impl CycleModel for IntStamp {
    const INPUTS: &'static [Pin] = IntIn::PINS;
    const OUTPUTS: &'static [Pin] = IntOut::PINS;
    const WRITE_DELAY: usize = 1;

    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let i = IntIn::from_slice(inputs);
        let malformed = i.deq_valid == 1 && (i.deq_len == 0 || i.deq_len > self.max_len);
        let stamp = i.deq_valid == 1 && !malformed;
        let ts = i.now;
        let bytes = (self.tx_bytes >> self.byte_shift) & 0xF_FFFF;
        let qlen = (i.qlen_after >> self.qlen_shift).min(0x1_FFFF);
        let hop = pack_hop(self.rate, ts, bytes, qlen);
        let o = IntOut {
            stamp_valid: stamp as u64,
            drop: malformed as u64,
            hop_lo: hop & 0xFFFF_FFFF,
            hop_hi: hop >> 32,
            int_ts: ts,
            int_bytes: bytes,
            int_qlen: qlen,
            int_rate: self.rate,
            tx_bytes: self.tx_bytes,
            cnt_stamped: self.counters[0],
            cnt_malformed: self.counters[1],
            cnt_csr_rejected: self.counters[2],
        };
        if stamp {
            self.tx_bytes = (self.tx_bytes + i.deq_len) & 0xFFFF_FFFF;
        }
        let write = match self.csr.edge(i.csr_we, i.csr_addr, i.csr_wdata) {
            Some((addr, data)) => self.csr_write(addr, data),
            None => Ok(None),
        };
        let preset = write.unwrap_or(None);
        self.counters.edge([stamp, malformed, write.is_err()], preset);
        o.to_vec()
    }
}
