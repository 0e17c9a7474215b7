//! # CB-LT: CloudBurst's LT code as this project implements it (CB-LT §6)
//!
//! The software codec: the host's fallback encoder and decoder and the golden model the RTL
//! encoder and decoder are checked against. Plain Rust, no rust-hdl (the host driver uses it
//! with `default-features = false`).
//!
//! * [`prng`]: xorshift32 (13, 17, 5), one stream per message (§6.4).
//! * [`table`]: 64-entry × 17-bit degree tables: robust soliton (c = 0.1, δ = 0.5 by default),
//!   the spec's experiment profiles, and validation that rejects a table that can never decode
//!   (§1.3's exact condition).
//! * [`header`]: the 12-byte big-endian header and every receive-side validity rule (§6.3);
//!   `header_rtl` (feature `rtl`): the decoder's header checker, the same rules in RTL.
//! * [`encoder`]: message → k zero-padded source symbols → the coded stream (§6.2, §6.4, §6.5).
//! * [`encoder_csr`] and `encoder_rtl` (feature `rtl`): the RTL encoder and how a host drives it.
//! * [`pcap`]: a coded UDP exchange as a capture Wireshark opens.
//! * [`decoder_vectors`]: the decoder vector files, made by the software decoder.
//! * [`vectors`]: the encoder vector files (testbench-vectors/cblt) and §9's message patterns.
//! * [`decoder`]: the online fully-reduced GF(2) decoder with the statuses, rank and
//!   `known_mask` of §6.6.
//! * [`receiver`]: one decoder context with its tombstone, idle expiry and records: the model
//!   of the decoder RTL (`decoder_rtl`, feature `rtl`, with its components `sequence_rtl`,
//!   `header_rtl`, `coef_rows_rtl`, `scanner_rtl`, `pass_issue_rtl`, `payload_rtl`,
//!   `readout_rtl` and `book_rtl`).
//! * [`stimulus`]: random messages, interleaved streams and every §6.3 violation as a mutation
//!   of a valid symbol: the receive-side fuzz stimulus.

#[cfg(feature = "rtl")]
pub mod book_rtl;
#[cfg(feature = "rtl")]
pub mod coef_rows_rtl;
pub mod decoder;
#[cfg(feature = "rtl")]
pub mod decoder_rtl;
pub mod decoder_vectors;
pub mod encoder;
#[cfg(feature = "rtl")]
pub mod encoder_cfg_rtl;
pub mod encoder_csr;
#[cfg(feature = "rtl")]
pub mod encoder_rtl;
pub mod header;
#[cfg(feature = "rtl")]
pub mod header_rtl;
#[cfg(feature = "rtl")]
pub mod mask_fifo_rtl;
#[cfg(feature = "rtl")]
pub mod maskgen_rtl;
#[cfg(feature = "rtl")]
pub mod pass_issue_rtl;
#[cfg(feature = "rtl")]
pub mod payload_rtl;
pub mod pcap;
pub mod prng;
#[cfg(feature = "rtl")]
pub mod readout_rtl;
pub mod receiver;
#[cfg(feature = "rtl")]
pub mod scanner_rtl;
#[cfg(feature = "rtl")]
pub mod sequence_rtl;
pub mod stimulus;
#[cfg(feature = "rtl")]
pub mod symbol_xor_rtl;
pub mod table;
pub mod vectors;
#[cfg(test)]
mod spec_tests;

/// Largest number of source symbols per message (§6.1).
pub const K_MAX: usize = 64;
/// Header bytes directly after the UDP header (§6.3).
pub const HEADER_LEN: usize = 12;
/// Default symbol size (§6.1).
pub const DEFAULT_S: usize = 1460;
/// Largest symbol size: `K_MAX × S` must fit the header's 18-bit `MSG_SIZE`.
pub const S_MAX: usize = 4095;

/// Why a message, a parameter or a table is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CbltError {
    EmptyMessage,
    MessageTooLarge { size: usize, max: usize },
    SymbolSize(usize),
    ZeroSeed,
    KOutOfRange(usize),
    /// A table entry above 65536 or a decreasing pair.
    MalformedTable(String),
    /// The table's degree set can never reach full rank at this k (§1.3).
    Undecodable { k: usize, why: String },
}

impl std::fmt::Display for CbltError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CbltError::EmptyMessage => write!(f, "empty message: CB-LT needs at least 1 byte"),
            CbltError::MessageTooLarge { size, max } => {
                write!(f, "message of {size} bytes exceeds the {max}-byte maximum (64 symbols of S bytes)")
            }
            CbltError::SymbolSize(s) => write!(f, "symbol size {s} is outside 1..={S_MAX}"),
            CbltError::ZeroSeed => write!(f, "the xorshift32 seed must be nonzero"),
            CbltError::KOutOfRange(k) => write!(f, "k = {k} is outside 1..={K_MAX}"),
            CbltError::MalformedTable(why) => write!(f, "malformed degree table: {why}"),
            CbltError::Undecodable { k, why } => write!(f, "degree table can never decode at k = {k}: {why}"),
        }
    }
}

impl std::error::Error for CbltError {}

/// Check a symbol size.
pub fn check_symbol_size(s: usize) -> Result<(), CbltError> {
    if (1..=S_MAX).contains(&s) {
        Ok(())
    } else {
        Err(CbltError::SymbolSize(s))
    }
}

/// `k = ceil(msg_size / S)`, after checking the message size (§6.2).
pub fn symbols_for(msg_size: usize, s: usize) -> Result<usize, CbltError> {
    check_symbol_size(s)?;
    if msg_size == 0 {
        return Err(CbltError::EmptyMessage);
    }
    if msg_size > K_MAX * s {
        return Err(CbltError::MessageTooLarge { size: msg_size, max: K_MAX * s });
    }
    Ok(msg_size.div_ceil(s))
}

/// Decode overhead (§8): symbols received until rank = k, minus k, for trial `t` at `k` with
/// the default table and §8's seed `(t·2654435761 + 977) mod 2^32` (no loss: loss that is
/// independent of content leaves the count of received symbols unchanged). The payload plays
/// no part in the rank, so the message is k bytes of 1-byte symbols.
pub fn extra_symbols(k: usize, t: u64) -> usize {
    let seed = ((t * 2_654_435_761 + 977) % (1 << 32)) as u32;
    let msg = vec![0u8; k];
    let mut enc = encoder::Encoder::with_default_table(&msg, 1, 0, seed.max(1)).expect("k in range");
    let mut dec = decoder::Decoder::new(1).expect("S = 1 is valid");
    let mut n = 0;
    while !dec.is_complete() {
        let c = enc.next_symbol();
        dec.push(&c.header, &c.payload);
        n += 1;
    }
    n - k
}

/// `2^k − 1` without overflowing at k = 64.
pub fn full_mask(k: usize) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}
