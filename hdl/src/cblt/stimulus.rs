//! Receive-side stimulus shared by the decoder fuzz (`sim-tests`) and the driver's
//! every-engine property (`host-driver`, `hostile`): random messages, two streams interleaved,
//! and every way a received packet can break §6.3's validity rules (CB-LT §6.3,
//! §7.5) as a mutation of a valid data symbol ([`Kind`]).
//!
//! Each kind, applied to a valid symbol of a message of `k` symbols of `S` bytes, gives a packet
//! that a receiver with symbol size S must report INVALID (with the reason [`Kind::reason`])
//! unless its MSG_ID is a tombstoned message's, where §6.6 step 1 (AFTER_COMPLETE) comes first.

use super::header::Invalid;
use super::HEADER_LEN;
use crate::cycle::Rng;

/// A random message for a receiver of symbol size `s` built for `k_max`: k is 1 one time in
/// six, the largest k one time in six (k_max + 2 when k_max < 64: above the core), else uniform;
/// the size is uniform among those of that k, the bytes random.
pub fn random_message(r: &mut Rng, s: usize, k_max: usize) -> Vec<u8> {
    let k_top = if k_max < 64 { k_max + 2 } else { 64 };
    let k = match r.below(6) {
        0 => 1,
        1 => k_top,
        _ => 1 + r.below(k_top as u64) as usize,
    };
    let size = (k - 1) * s + 1 + r.below(s as u64) as usize;
    (0..size).map(|_| r.next() as u8).collect()
}

/// Two streams merged at random, each in its own order.
pub fn interleave<T>(r: &mut Rng, a: Vec<T>, b: Vec<T>) -> Vec<T> {
    let (mut ia, mut ib) = (a.into_iter(), b.into_iter());
    let mut mixed = vec![];
    loop {
        let x = if r.chance(50) { ia.next().or_else(|| ib.next()) } else { ib.next().or_else(|| ia.next()) };
        match x {
            Some(p) => mixed.push(p),
            None => return mixed,
        }
    }
}

/// One §6.3 violation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 0..=11 bytes: no header.
    Truncated,
    /// 12 + (0..S) bytes.
    ShortPayload,
    /// 12 + S + (1..=S) bytes.
    LongPayload,
    /// Longer than any UDP payload (65,535 bytes): a symbol file can hold such a line.
    OversizeLine,
    MsgSizeZero,
    /// MSG_SIZE = 2^18 − 1, above 64·S for every S ≤ 4095.
    MsgSizeTooLarge,
    /// NPKT changed, so NPKT + 1 ≠ ceil(MSG_SIZE / S).
    NpktMismatch,
    /// BITSET = 0 (a STOP sent to the receiver).
    EmptyBitset,
    /// Bit k set (for k < 64; at k = 64 no bit is beyond k, so this is [`Kind::EmptyBitset`]).
    BitsetBeyondK,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Truncated,
        Kind::ShortPayload,
        Kind::LongPayload,
        Kind::OversizeLine,
        Kind::MsgSizeZero,
        Kind::MsgSizeTooLarge,
        Kind::NpktMismatch,
        Kind::EmptyBitset,
        Kind::BitsetBeyondK,
    ];

    /// The reason a receiver reports for this kind applied to a symbol of a `k`-symbol message.
    pub fn reason(self, k: usize) -> Invalid {
        match self {
            Kind::Truncated => Invalid::Truncated,
            Kind::ShortPayload | Kind::LongPayload | Kind::OversizeLine => Invalid::PayloadLength,
            Kind::MsgSizeZero => Invalid::MsgSizeZero,
            Kind::MsgSizeTooLarge => Invalid::MsgSizeTooLarge,
            Kind::NpktMismatch => Invalid::NpktMismatch,
            Kind::EmptyBitset => Invalid::EmptyBitset,
            Kind::BitsetBeyondK if k < 64 => Invalid::BitsetBeyondK,
            Kind::BitsetBeyondK => Invalid::EmptyBitset,
        }
    }

    /// This violation applied to `p`, a valid data symbol (header ‖ S bytes) of a `k`-symbol
    /// message; `r` picks lengths and filler.
    pub fn apply(self, p: &[u8], k: usize, s: usize, r: &mut Rng) -> Vec<u8> {
        let mut q = p.to_vec();
        let w0 = |q: &mut Vec<u8>, f: &dyn Fn(u32) -> u32| {
            let v = f(u32::from_be_bytes(q[..4].try_into().unwrap()));
            q[..4].copy_from_slice(&v.to_be_bytes());
        };
        match self {
            Kind::Truncated => q.truncate(r.below(HEADER_LEN as u64) as usize),
            Kind::ShortPayload => q.truncate(HEADER_LEN + r.below(s as u64) as usize),
            Kind::LongPayload => q.resize(HEADER_LEN + s + 1 + r.below(s as u64) as usize, r.next() as u8),
            Kind::OversizeLine => q.resize(65_536 + r.below(4 * s as u64 + 1) as usize, r.next() as u8),
            Kind::MsgSizeZero => w0(&mut q, &|v| v & !(0x3_FFFF << 8)),
            Kind::MsgSizeTooLarge => w0(&mut q, &|v| v | 0x3_FFFF << 8),
            Kind::NpktMismatch => w0(&mut q, &|v| v ^ (1 + (v >> 26) % 63) << 26),
            Kind::EmptyBitset => q[4..12].fill(0),
            Kind::BitsetBeyondK if k < 64 => q[4 + 7 - k / 8] |= 1 << (k % 8),
            Kind::BitsetBeyondK => q[4..12].fill(0),
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cblt::decoder::{Decoder, Status};
    use crate::cblt::encoder::Encoder;

    /// Each kind is INVALID with its reason on a fresh decoder and (k > 1) on one holding a
    /// context, at k = 1, 5 and 64, and leaves the decoder as it was.
    #[test]
    fn every_kind_is_invalid_with_its_reason_and_changes_nothing() {
        let mut r = Rng::new(3);
        for (k, s) in [(1usize, 16usize), (5, 16), (64, 20)] {
            let msg: Vec<u8> = (0..k * s - 1).map(|i| i as u8).collect();
            let mut e = Encoder::with_default_table(&msg, s, 7, 99).unwrap();
            let (a, b) = (e.next_symbol().to_bytes(), e.next_symbol().to_bytes());
            for kind in Kind::ALL {
                let bad = kind.apply(&b, k, s, &mut r);
                let mut fresh = Decoder::new(s).unwrap();
                assert_eq!(fresh.push_packet(&bad), Status::Invalid(kind.reason(k)), "{kind:?} k={k}");
                assert_eq!((fresh.rank(), fresh.k()), (0, None), "{kind:?} k={k}");
                if k == 1 {
                    continue; // one symbol completes k = 1: nothing stays open
                }
                let mut open = Decoder::new(s).unwrap();
                open.push_packet(&a);
                let before = (open.rank(), open.known_mask(), open.key());
                assert_eq!(open.push_packet(&bad), Status::Invalid(kind.reason(k)), "{kind:?} k={k}");
                assert_eq!((open.rank(), open.known_mask(), open.key()), before, "{kind:?} k={k}");
            }
        }
    }
}
