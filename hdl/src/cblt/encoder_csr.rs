//! How a host drives the RTL encoder (`encoder_rtl.rs`): its configuration registers, the
//! layout of the message buffer, and the write sequence that starts one message. Plain Rust, so
//! the vector generator, the testbenches and the host driver share one definition.
//!
//! Buffer layout: source symbol `i` (S bytes, zero-padded, §6.2) occupies the words
//! `i·2^SA .. i·2^SA + ⌈S/WB⌉` of WB bytes each; byte `b` of a word is its bits `8b+7..8b`
//! (lane 0 lowest, the AXI-Stream convention). Bytes of a word past S are never transmitted.

use super::table::DegreeTable;
use super::K_MAX;

/// Configuration register addresses (8-bit address, 32-bit data). Writes other than `CTRL`
/// are refused while the encoder is busy; refused writes are counted in `cfg_rejected`, a clock
/// after the write.
pub mod csr {
    crate::regmap! { u8;
        CTRL @ 0 : Cmd, "Commands."
            { start[0 +: 1] "start a message with the current registers (refused while busy, when `K`, `MSG_SIZE` or `SEED` is out of range, or when `K ≠ ⌈MSG_SIZE/S⌉`; counted in `starts_refused`)",
              stop[1 +: 1] "stop on a symbol boundary (after the symbol being sent, or after one that starts in the same clock)" };
        K @ 1 : Wo, "k, 1..=K_MAX (reset: K_MAX).";
        MSG_SIZE @ 2 : Wo, "MSG_SIZE in bytes, 1..=K_MAX·S (reset: K_MAX·S).";
        MSG_ID @ 3 : Wo, "MSG_ID, 0..=255.";
        SEED @ 4 : Wo, "xorshift32 seed, nonzero (reset: 1).";
        SYMBOL_LIMIT @ 5 : Wo, "Symbols to send before stopping by itself; 0 = until `CTRL` stop.";
        TABLE @ 64 x 64 : Wo, "`T[j]` is at `TABLE + j` for j = 1..=63, values 0..=65536 (reset: the default table of k = K_MAX).";
    }
    /// `CTRL` values.
    pub const CTRL_START: u32 = fields::CTRL::start.set(1);
    pub const CTRL_STOP: u32 = fields::CTRL::stop.set(1);
}

/// The register writes that configure a message and start it (`CTRL` start last).
pub fn start_writes(k: usize, msg_size: usize, msg_id: u8, seed: u32, table: &DegreeTable, limit: u32) -> Vec<(u8, u32)> {
    let mut w = vec![
        (csr::K, k as u32),
        (csr::MSG_SIZE, msg_size as u32),
        (csr::MSG_ID, msg_id as u32),
        (csr::SEED, seed),
        (csr::SYMBOL_LIMIT, limit),
    ];
    for (j, &t) in table.entries().iter().enumerate().take(K_MAX - 1) {
        w.push((csr::TABLE + j as u8 + 1, t));
    }
    w.push((csr::CTRL, csr::CTRL_START));
    w
}

/// Words per symbol: `⌈S/WB⌉`.
pub fn words_per_symbol(s: usize, word_bytes: usize) -> usize {
    s.div_ceil(word_bytes)
}

/// The buffer writes for a message: `(word address, word as little-endian u32s)` for every
/// word of the k source symbols, padding included, so no stale byte reaches the wire.
pub fn buffer_image(msg: &[u8], s: usize, word_bytes: usize, sa: usize) -> Vec<(u32, Vec<u32>)> {
    let k = msg.len().div_ceil(s).max(1);
    let wps = words_per_symbol(s, word_bytes);
    assert!(wps <= 1 << sa, "S = {s} needs {wps} words per symbol, more than 2^{sa}");
    let mut out = vec![];
    for i in 0..k {
        for w in 0..wps {
            let mut bytes = vec![0u8; word_bytes.div_ceil(4) * 4];
            for (b, byte) in bytes.iter_mut().enumerate().take(word_bytes) {
                let in_sym = w * word_bytes + b;
                let at = i * s + in_sym;
                if in_sym < s && at < msg.len() {
                    *byte = msg[at];
                }
            }
            let words = bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
            out.push((((i << sa) | w) as u32, words));
        }
    }
    out
}
