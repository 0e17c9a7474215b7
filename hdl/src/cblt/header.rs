//! The 12-byte CB-LT header, big-endian, directly after the UDP header (CB-LT
//! §6.3):
//!
//! ```text
//! byte 0..3 : W0 = NPKT[31:26] | MSG_SIZE[25:8] | MSG_ID[7:0]   (NPKT = k − 1)
//! byte 4..11: BITSET (u64); bit i set <=> x_i is XORed in
//! byte 12.. : payload, exactly S bytes (none for a STOP: BITSET = 0)
//! ```

use super::{full_mask, HEADER_LEN, K_MAX};

/// The header fields as they are on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// 0..=63, `k − 1`.
    pub npkt: u8,
    /// 18 bits.
    pub msg_size: u32,
    pub msg_id: u8,
    pub bitset: u64,
}

/// Why a received data symbol is INVALID (§6.3); such a symbol is dropped and counted and never
/// changes decoder state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// Fewer than 12 bytes: no header.
    Truncated,
    MsgSizeZero,
    /// `MSG_SIZE > 64·S`.
    MsgSizeTooLarge,
    /// `NPKT + 1 ≠ ceil(MSG_SIZE / S)`.
    NpktMismatch,
    /// `BITSET = 0`: a STOP, not a data symbol.
    EmptyBitset,
    /// A bit at or above k.
    BitsetBeyondK,
    /// UDP payload length ≠ 12 + S.
    PayloadLength,
    /// Valid on its own but of another message than the decoder's context (MSG_ID, MSG_SIZE).
    OtherMessage,
    /// `k` above the decoder's `k_max` (a core built with fewer than 64 rows).
    KAboveCore,
}

impl Invalid {
    pub fn as_str(&self) -> &'static str {
        match self {
            Invalid::Truncated => "truncated (under 12 bytes)",
            Invalid::MsgSizeZero => "MSG_SIZE is 0",
            Invalid::MsgSizeTooLarge => "MSG_SIZE above 64 x S",
            Invalid::NpktMismatch => "NPKT + 1 differs from ceil(MSG_SIZE / S)",
            Invalid::EmptyBitset => "BITSET is 0 (a STOP)",
            Invalid::BitsetBeyondK => "BITSET has a bit at or above k",
            Invalid::PayloadLength => "UDP payload is not 12 + S bytes",
            Invalid::OtherMessage => "belongs to another message than the decoder's",
            Invalid::KAboveCore => "k above the decoder's k_max",
        }
    }

    /// The reason code the decoder RTL reports (`res_reason`); 0 is "valid" and 10 is the
    /// RTL's framing error (beats disagree with the length), which the byte-level model cannot see.
    pub const fn code(&self) -> u8 {
        match self {
            Invalid::Truncated => 1,
            Invalid::MsgSizeZero => 2,
            Invalid::MsgSizeTooLarge => 3,
            Invalid::NpktMismatch => 4,
            Invalid::EmptyBitset => 5,
            Invalid::BitsetBeyondK => 6,
            Invalid::PayloadLength => 7,
            Invalid::OtherMessage => 8,
            Invalid::KAboveCore => 9,
        }
    }

    /// The reason of a code, the inverse of [`Invalid::code`] (`None` for 0, 10 and others).
    pub fn from_code(c: u8) -> Option<Invalid> {
        [
            Invalid::Truncated,
            Invalid::MsgSizeZero,
            Invalid::MsgSizeTooLarge,
            Invalid::NpktMismatch,
            Invalid::EmptyBitset,
            Invalid::BitsetBeyondK,
            Invalid::PayloadLength,
            Invalid::OtherMessage,
            Invalid::KAboveCore,
        ]
        .into_iter()
        .find(|r| r.code() == c)
    }
}

impl Header {
    /// A data or STOP header for a message of `k` symbols (1..=64).
    pub fn new(k: usize, msg_size: u32, msg_id: u8, bitset: u64) -> Header {
        assert!((1..=K_MAX).contains(&k) && msg_size < 1 << 18);
        Header { npkt: (k - 1) as u8, msg_size, msg_id, bitset }
    }
    pub fn k(&self) -> usize {
        self.npkt as usize + 1
    }
    pub fn is_stop(&self) -> bool {
        self.bitset == 0
    }
    /// The STOP for this message: the same header with `BITSET = 0`.
    pub fn stop(&self) -> Header {
        Header { bitset: 0, ..*self }
    }

    pub fn pack(&self) -> [u8; HEADER_LEN] {
        let w0 = (self.npkt as u32) << 26 | (self.msg_size & 0x3_FFFF) << 8 | self.msg_id as u32;
        let mut b = [0u8; HEADER_LEN];
        b[..4].copy_from_slice(&w0.to_be_bytes());
        b[4..].copy_from_slice(&self.bitset.to_be_bytes());
        b
    }

    /// The fields of the first 12 bytes, unchecked (every bit pattern is some header).
    pub fn parse(bytes: &[u8]) -> Result<Header, Invalid> {
        if bytes.len() < HEADER_LEN {
            return Err(Invalid::Truncated);
        }
        let w0 = u32::from_be_bytes(bytes[..4].try_into().unwrap());
        Ok(Header {
            npkt: (w0 >> 26) as u8,
            msg_size: (w0 >> 8) & 0x3_FFFF,
            msg_id: w0 as u8,
            bitset: u64::from_be_bytes(bytes[4..12].try_into().unwrap()),
        })
    }

    /// Every receive-side rule of §6.3 for a data symbol of a stream with symbol size `s`, whose
    /// UDP payload (header included) is `udp_payload_len` bytes.
    pub fn check_data(&self, s: usize, udp_payload_len: usize) -> Result<(), Invalid> {
        let size = self.msg_size as usize;
        if size == 0 {
            return Err(Invalid::MsgSizeZero);
        }
        if size > K_MAX * s {
            return Err(Invalid::MsgSizeTooLarge);
        }
        if self.k() != size.div_ceil(s) {
            return Err(Invalid::NpktMismatch);
        }
        if self.bitset == 0 {
            return Err(Invalid::EmptyBitset);
        }
        if self.bitset & !full_mask(self.k()) != 0 {
            return Err(Invalid::BitsetBeyondK);
        }
        if udp_payload_len != HEADER_LEN + s {
            return Err(Invalid::PayloadLength);
        }
        Ok(())
    }
}
