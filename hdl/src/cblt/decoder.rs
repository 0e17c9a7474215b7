//! The online fully-reduced GF(2) decoder (CB-LT §6.6). It keeps only innovative
//! rows, in reduced row-echelon form: slot q holds a row whose lowest set bit is q and which is
//! zero at every other pivot column. A new row is reduced with one masked XOR over the pivots
//! it touches, so a redundant symbol is found before any payload work.

use super::encoder::xor_into;
use super::header::{Header, Invalid};
use super::{check_symbol_size, CbltError, HEADER_LEN, K_MAX};

/// What a data symbol did (§6.6); the decoder's rank after it is [`Decoder::rank`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Invalid(Invalid),
    Redundant,
    Innovative,
    Complete,
    /// The message is already complete: send STOP again.
    AfterComplete,
}

impl Status {
    /// The letter of §9 (I, R, C, A, X).
    pub fn letter(&self) -> char {
        match self {
            Status::Invalid(_) => 'X',
            Status::Redundant => 'R',
            Status::Innovative => 'I',
            Status::Complete => 'C',
            Status::AfterComplete => 'A',
        }
    }

    /// The decoder RTL's `res_status` code.
    pub const fn code(&self) -> u8 {
        match self {
            Status::Invalid(_) => 0,
            Status::Redundant => 1,
            Status::Innovative => 2,
            Status::Complete => 3,
            Status::AfterComplete => 4,
        }
    }
}

/// The context of one message. The first valid symbol fixes k, `MSG_SIZE` and `MSG_ID`.
#[derive(Clone, Debug)]
pub struct Decoder {
    s: usize,
    k_max: usize,
    /// (k, msg_size, msg_id) once known.
    ctx: Option<(usize, usize, u8)>,
    rank: usize,
    valid: u64,
    coef: [u64; K_MAX],
    /// Slot payloads back to back, 64 × S bytes.
    payload: Vec<u8>,
    complete: bool,
    /// Symbols pushed, redundant ones, invalid ones, payload XORs (informative).
    pub seen: u64,
    pub redundant: u64,
    pub invalid: u64,
    pub payload_xors: u64,
}

impl Decoder {
    pub fn new(s: usize) -> Result<Decoder, CbltError> {
        Decoder::with_k_max(s, K_MAX)
    }

    /// A decoder with room for `k_max` rows: messages of more symbols are INVALID
    /// ([`Invalid::KAboveCore`]), as on an RTL core built with a smaller `k_max`.
    pub fn with_k_max(s: usize, k_max: usize) -> Result<Decoder, CbltError> {
        check_symbol_size(s)?;
        if !(1..=K_MAX).contains(&k_max) {
            return Err(CbltError::KOutOfRange(k_max));
        }
        Ok(Decoder {
            s,
            k_max,
            ctx: None,
            rank: 0,
            valid: 0,
            coef: [0; K_MAX],
            payload: vec![0; K_MAX * s],
            complete: false,
            seen: 0,
            redundant: 0,
            invalid: 0,
            payload_xors: 0,
        })
    }

    pub fn rank(&self) -> usize {
        self.rank
    }
    pub fn k(&self) -> Option<usize> {
        self.ctx.map(|c| c.0)
    }
    /// (k, MSG_SIZE, MSG_ID) of the message, once a valid symbol fixed them.
    pub fn key(&self) -> Option<(usize, usize, u8)> {
        self.ctx
    }
    pub fn is_complete(&self) -> bool {
        self.complete
    }
    /// `{i : e_i ∈ rowspace}`: in RREF, the slots whose row is exactly `e_i`.
    pub fn known_mask(&self) -> u64 {
        (0..K_MAX).filter(|&i| self.valid >> i & 1 == 1 && self.coef[i] == 1 << i).fold(0, |m, i| m | 1 << i)
    }
    /// Slot `q`'s row (coefficients, payload) if valid: the reference RREF rows of §9.
    pub fn row(&self, q: usize) -> Option<(u64, &[u8])> {
        (self.valid >> q & 1 == 1).then(|| (self.coef[q], &self.payload[q * self.s..(q + 1) * self.s]))
    }
    /// The STOP header to send once complete.
    pub fn stop(&self) -> Option<Header> {
        match self.ctx {
            Some((k, size, id)) if self.complete => Some(Header::new(k, size as u32, id, 0)),
            _ => None,
        }
    }

    /// A received UDP payload (header ‖ payload).
    pub fn push_packet(&mut self, udp_payload: &[u8]) -> Status {
        match Header::parse(udp_payload) {
            Ok(h) => self.push(&h, &udp_payload[HEADER_LEN.min(udp_payload.len())..]),
            Err(why) => self.reject(why),
        }
    }

    fn reject(&mut self, why: Invalid) -> Status {
        self.seen += 1;
        self.invalid += 1;
        Status::Invalid(why)
    }

    /// A data symbol: its header and its payload (S bytes).
    pub fn push(&mut self, h: &Header, payload: &[u8]) -> Status {
        if self.complete {
            self.seen += 1;
            return Status::AfterComplete;
        }
        if let Err(why) = h.check_data(self.s, HEADER_LEN + payload.len()) {
            return self.reject(why);
        }
        if h.k() > self.k_max {
            return self.reject(Invalid::KAboveCore);
        }
        let this = (h.k(), h.msg_size as usize, h.msg_id);
        if self.ctx.is_some_and(|c| c != this) {
            return self.reject(Invalid::OtherMessage);
        }
        self.ctx = Some(this);
        self.seen += 1;
        // reduce against the pivots the row touches (one masked XOR in RREF)
        let touched = h.bitset & self.valid;
        let mut m = h.bitset;
        let mut t = touched;
        while t != 0 {
            m ^= self.coef[t.trailing_zeros() as usize];
            t &= t - 1;
        }
        if m == 0 {
            self.redundant += 1;
            return Status::Redundant;
        }
        let s = self.s;
        let q = m.trailing_zeros() as usize;
        let mut y = payload.to_vec();
        let mut t = touched;
        while t != 0 {
            let p = t.trailing_zeros() as usize;
            xor_into(&mut y, &self.payload[p * s..(p + 1) * s]);
            self.payload_xors += 1;
            t &= t - 1;
        }
        // back-eliminate column q from every row that has it, then install at slot q
        for p in 0..K_MAX {
            if self.valid >> p & 1 == 1 && self.coef[p] >> q & 1 == 1 {
                self.coef[p] ^= m;
                xor_into(&mut self.payload[p * s..(p + 1) * s], &y);
                self.payload_xors += 1;
            }
        }
        self.coef[q] = m;
        self.payload[q * s..(q + 1) * s].copy_from_slice(&y);
        self.valid |= 1 << q;
        self.rank += 1;
        if self.rank == this.0 {
            self.complete = true;
            Status::Complete
        } else {
            Status::Innovative
        }
    }

    /// The message once complete: `x_0 ‖ … ‖ x_{k−1}` truncated to `MSG_SIZE`.
    pub fn message(&self) -> Option<Vec<u8>> {
        let (k, size, _) = self.ctx?;
        self.complete.then(|| self.payload[..k * self.s][..size].to_vec())
    }
}
