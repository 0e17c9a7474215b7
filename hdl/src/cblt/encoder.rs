//! The CB-LT encoder (CB-LT §6.2, §6.4, §6.5): the message is cut into k source
//! symbols of S bytes (the last zero-padded); symbol j of the stream draws its degree and
//! neighbours from the message's one xorshift32 stream and carries the XOR of those symbols.

use super::header::Header;
use super::prng::XorShift32;
use super::table::DegreeTable;
use super::{full_mask, symbols_for, CbltError};

/// One coded symbol: its header, payload (S bytes), and for tests the degree and PRNG draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodedSymbol {
    pub header: Header,
    pub payload: Vec<u8>,
    pub degree: usize,
    pub draws: u32,
}

impl CodedSymbol {
    /// The UDP payload: header ‖ payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = self.header.pack().to_vec();
        b.extend_from_slice(&self.payload);
        b
    }
}

/// Degree and neighbour selection alone (what the RTL's mask generator does): one draw for the
/// degree, then top-`w`-bit index draws with rejection of `≥ k` and of duplicates.
#[derive(Clone, Debug)]
pub struct MaskGenerator {
    k: usize,
    w: u32,
    table: DegreeTable,
    prng: XorShift32,
}

impl MaskGenerator {
    pub fn new(k: usize, seed: u32, table: DegreeTable) -> Result<Self, CbltError> {
        table.validate(k)?;
        Self::new_unvalidated(k, seed, table)
    }

    /// Without the decodability check: only for showing what an undecodable table does
    /// (TV-F1, TV-F2). `k` must still be in 1..=64.
    pub fn new_unvalidated(k: usize, seed: u32, table: DegreeTable) -> Result<Self, CbltError> {
        if !(1..=super::K_MAX).contains(&k) {
            return Err(CbltError::KOutOfRange(k));
        }
        let w = if k <= 1 { 0 } else { usize::BITS - (k - 1).leading_zeros() };
        Ok(MaskGenerator { k, w, table, prng: XorShift32::new(seed)? })
    }

    /// The next (mask, degree, draws).
    pub fn next_mask(&mut self) -> (u64, usize, u32) {
        let u = self.prng.next() >> 16;
        let d = self.table.degree(u, self.k);
        if d == self.k {
            return (full_mask(self.k), d, 1);
        }
        let (mut mask, mut draws) = (0u64, 1);
        while (mask.count_ones() as usize) < d {
            let idx = (self.prng.next() >> (32 - self.w)) as usize;
            draws += 1;
            if idx < self.k {
                mask |= 1 << idx;
            }
        }
        (mask, d, draws)
    }
}

/// The encoder stream of one message.
#[derive(Clone, Debug)]
pub struct Encoder {
    k: usize,
    s: usize,
    msg_size: usize,
    msg_id: u8,
    /// Source symbols back to back, `k × S` bytes, zero-padded.
    source: Vec<u8>,
    masks: MaskGenerator,
}

impl Encoder {
    /// Refuses an empty or oversize message, a bad symbol size, a zero seed and a table that
    /// can never decode at this k.
    pub fn new(msg: &[u8], s: usize, msg_id: u8, seed: u32, table: DegreeTable) -> Result<Encoder, CbltError> {
        let k = symbols_for(msg.len(), s)?;
        table.validate(k)?;
        Self::new_unvalidated(msg, s, msg_id, seed, table)
    }

    /// Without the decodability check (TV-F1, TV-F2 only).
    pub fn new_unvalidated(msg: &[u8], s: usize, msg_id: u8, seed: u32, table: DegreeTable) -> Result<Encoder, CbltError> {
        let k = symbols_for(msg.len(), s)?;
        let masks = MaskGenerator::new_unvalidated(k, seed, table)?;
        let mut source = msg.to_vec();
        source.resize(k * s, 0);
        Ok(Encoder { k, s, msg_size: msg.len(), msg_id, source, masks })
    }

    /// With the default (robust soliton) table for the message's k.
    pub fn with_default_table(msg: &[u8], s: usize, msg_id: u8, seed: u32) -> Result<Encoder, CbltError> {
        let k = symbols_for(msg.len(), s)?;
        Encoder::new(msg, s, msg_id, seed, DegreeTable::default_for(k)?)
    }

    pub fn k(&self) -> usize {
        self.k
    }
    pub fn symbol_size(&self) -> usize {
        self.s
    }
    /// Source symbol `i` (S bytes, padded).
    pub fn source(&self, i: usize) -> &[u8] {
        &self.source[i * self.s..(i + 1) * self.s]
    }
    pub fn header(&self, bitset: u64) -> Header {
        Header::new(self.k, self.msg_size as u32, self.msg_id, bitset)
    }

    /// The payload for an explicit bitset (the debug mode of §6.5).
    pub fn payload_for(&self, mask: u64) -> Vec<u8> {
        let mut y = vec![0u8; self.s];
        xor_sources(&mut y, &self.source, self.s, mask);
        y
    }

    /// The next symbol of the stream.
    pub fn next_symbol(&mut self) -> CodedSymbol {
        let (mask, degree, draws) = self.masks.next_mask();
        CodedSymbol { header: self.header(mask), payload: self.payload_for(mask), degree, draws }
    }
}

/// `y ^= x_i` for every set bit i of `mask`; 8 bytes at a time.
fn xor_sources(y: &mut [u8], source: &[u8], s: usize, mask: u64) {
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        xor_into(y, &source[i * s..(i + 1) * s]);
    }
}

/// `dst ^= src` (same length).
pub fn xor_into(dst: &mut [u8], src: &[u8]) {
    let mut d = dst.chunks_exact_mut(8);
    let mut s = src.chunks_exact(8);
    for (a, b) in (&mut d).zip(&mut s) {
        let v = u64::from_ne_bytes(a.try_into().unwrap()) ^ u64::from_ne_bytes(b.try_into().unwrap());
        a.copy_from_slice(&v.to_ne_bytes());
    }
    for (a, b) in d.into_remainder().iter_mut().zip(s.remainder()) {
        *a ^= b;
    }
}
