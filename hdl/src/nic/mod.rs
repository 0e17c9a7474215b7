#![doc = include_str!("README.md")]

#[cfg(feature = "rtl")]
pub mod bus_read;
#[cfg(feature = "rtl")]
pub mod completion_queue;
#[cfg(feature = "rtl")]
pub mod msg_capture;
#[cfg(feature = "rtl")]
pub mod refusal;
#[cfg(feature = "rtl")]
pub mod ring;
#[cfg(feature = "rtl")]
pub mod rtl;
#[cfg(feature = "rtl")]
pub mod rx_feeder;
#[cfg(feature = "rtl")]
pub mod rx_path;
#[cfg(feature = "rtl")]
pub mod tick_divider;
#[cfg(feature = "rtl")]
pub mod tx_path;
#[cfg(feature = "rtl")]
pub mod tx_queue;

pub use crate::regmap::{Access, Field, Register};

/// Byte offsets of the registers in BAR0, their positions ([`idx`]), fields ([`fields`]) and
/// the table ([`REGISTERS`]).
pub mod reg {
    crate::regmap! { u32;
        ID @ 0x000 : Ro, "Identifies the core: always `0x43424C54` (\"CBLT\").";
        VERSION @ 0x004 : Ro, "Register-map version." { minor[0 +: 16] "compatible additions", major[16 +: 16] "incompatible changes" };
        CAPS @ 0x008 : Ro, "What this build was made with."
            { s[0 +: 16] "symbol size in bytes", k_max[16 +: 7] "most source symbols per message", word_bytes[24 +: 8] "bytes per clock of the data path (W/8)" };
        LAYOUT @ 0x00C : Ro, "Buffer geometry: source symbol i starts at word `i·2^sa` of the message windows."
            { sa[0 +: 8] "log2 of the words per symbol slot", tx_slots[8 +: 8] "TX queue depth in symbols", cq_depth[16 +: 8] "completion queue depth" };
        CYCLES_LO @ 0x010 : Ro, "Core clock cycles since reset, low word; reading it latches CYCLES_HI.";
        CYCLES_HI @ 0x014 : Ro, "High word of the cycle counter, as latched by the last CYCLES_LO read.";
        SCRATCH @ 0x018 : Rw, "Free for the host (the driver's probe writes and reads it back).";
        CTRL @ 0x01C : Cmd, "Commands."
            { rx_clear[0 +: 1] "forget the decoder's context and tombstone, release the RX message buffer, empty the completion queue",
              tx_flush[1 +: 1] "empty the TX symbol queue (write it once the encoder is idle)" };
        BUS_REFUSED @ 0x020 : Ro, "Writes refused because their target was busy (the RX staging window while a push is in flight, a push while one is) or had no writable register.";
        ENC_CTRL @ 0x100 : Cmd, "Encoder command (encoder_csr CTRL)."
            { start[0 +: 1] "start a message with the ENC_* registers (refused while busy or out of range: ENC_REFUSED)",
              stop[1 +: 1] "stop after the symbol being sent" };
        ENC_K @ 0x104 : Wo, "k, 1..=k_max.";
        ENC_MSG_SIZE @ 0x108 : Wo, "MSG_SIZE in bytes, (k−1)·S < MSG_SIZE ≤ k·S.";
        ENC_MSG_ID @ 0x10C : Wo, "MSG_ID, 0..=255.";
        ENC_SEED @ 0x110 : Wo, "xorshift32 seed, nonzero.";
        ENC_SYMBOL_LIMIT @ 0x114 : Wo, "Symbols to send before stopping by itself; 0 sends until ENC_CTRL stop.";
        ENC_STATUS @ 0x118 : Ro, "Encoder state."
            { busy[0 +: 1] "a message is being encoded", tx_count[8 +: 8] "coded symbols waiting in the TX queue" };
        ENC_SYMBOLS @ 0x11C : Ro, "Coded symbols the encoder has emitted since reset.";
        ENC_REFUSED @ 0x120 : Ro, "Starts refused (busy, or K / MSG_SIZE / SEED out of range) since reset.";
        ENC_WRITES_REFUSED @ 0x124 : Ro, "Configuration and message-buffer writes the encoder refused because it was busy.";
        TX_HDR @ 0x140 : Ro, "Header word W0 (big-endian on the wire) of the TX queue's head symbol.";
        TX_BITSET_HI @ 0x144 : Ro, "Bits 63..32 of the head symbol's bitset.";
        TX_BITSET_LO @ 0x148 : Ro, "Bits 31..0 of the head symbol's bitset.";
        TX_POP @ 0x14C : Cmd, "Drop the head symbol (its payload is in the TX symbol window until then)." { pop[0 +: 1] "pop" };
        ENC_TABLE @ 0x200 x 64 : Wo, "Degree table: `T[j]` at `ENC_TABLE + 4j` for j = 1..=63, values 0..=65536 (§6.4).";
        RX_HDR @ 0x800 : Rw, "Staged RX packet: header word W0 (as received, big-endian on the wire).";
        RX_BITSET_HI @ 0x804 : Rw, "Staged RX packet: bitset bits 63..32.";
        RX_BITSET_LO @ 0x808 : Rw, "Staged RX packet: bitset bits 31..0.";
        RX_LEN @ 0x80C : Rw, "Staged RX packet: UDP payload length in bytes, header included (12 + S for a data symbol).";
        RX_PUSH @ 0x810 : Cmd, "Feed the staged packet to the decoder (refused while a push is in flight)." { push[0 +: 1] "push" };
        RX_STATUS @ 0x814 : Ro, "Receive-side state."
            { feeding[0 +: 1] "the staged packet is being fed: do not touch the staging window", busy[1 +: 1] "the decoder is working",
              ctx_open[2 +: 1] "a message is being decoded", msg_ready[3 +: 1] "a decoded message waits in the RX message window",
              cq_count[8 +: 8] "completion records waiting", result_seq[16 +: 16] "counts decoder results: it moves when RX_RESULT is new" };
        RX_RESULT @ 0x818 : Ro, "The last symbol's outcome (§6.6)."
            { status[0 +: 3] "0 INVALID, 1 REDUNDANT, 2 INNOVATIVE, 3 COMPLETE, 4 AFTER_COMPLETE", reason[4 +: 4] "INVALID reason (header::Invalid::code; 10 = framing)", rank[8 +: 7] "rank after the symbol" };
        RX_KNOWN_LO @ 0x81C : Ro, "known_mask after the last symbol, bits 31..0.";
        RX_KNOWN_HI @ 0x820 : Ro, "known_mask after the last symbol, bits 63..32.";
        RX_STOP_HDR @ 0x824 : Ro, "W0 of the STOP to send back after COMPLETE / AFTER_COMPLETE.";
        RX_IDLE_LIMIT @ 0x828 : Rw, "Ticks without a valid symbol before an open context fails (0 = never).";
        RX_TICK_DIV @ 0x82C : Rw, "Core cycles per idle tick (0 = no ticks); a write restarts the period.";
        RX_CTX @ 0x830 : Ro, "The open context." { rank[0 +: 7] "rank", open[8 +: 1] "open" };
        RX_CTX_KNOWN_LO @ 0x834 : Ro, "The open context's known_mask, bits 31..0.";
        RX_CTX_KNOWN_HI @ 0x838 : Ro, "The open context's known_mask, bits 63..32.";
        RX_MSG_BYTES @ 0x83C : Ro, "Bytes of the decoded message in the RX message window (valid with msg_ready).";
        RX_MSG_ACK @ 0x840 : Cmd, "Release the RX message window for the next message." { ack[0 +: 1] "ack" };
        RX_CNT_SYMBOLS @ 0x850 : Ro, "Decoder counter: symbols received.";
        RX_CNT_INVALID @ 0x854 : Ro, "Decoder counter: INVALID.";
        RX_CNT_FRAMING @ 0x858 : Ro, "Decoder counter: of those, framing errors.";
        RX_CNT_REDUNDANT @ 0x85C : Ro, "Decoder counter: REDUNDANT.";
        RX_CNT_INNOVATIVE @ 0x860 : Ro, "Decoder counter: INNOVATIVE (COMPLETE included).";
        RX_CNT_AFTER_COMPLETE @ 0x864 : Ro, "Decoder counter: AFTER_COMPLETE.";
        RX_CNT_COMPLETE @ 0x868 : Ro, "Decoder counter: messages delivered.";
        RX_CNT_FAILED @ 0x86C : Ro, "Decoder counter: contexts expired.";
        CQ_HEAD @ 0x880 : Ro, "Completion queue head." { valid[0 +: 1] "there is a record", failed[1 +: 1] "FAILED (expired) rather than delivered", rank[8 +: 7] "rank" };
        CQ_HDR @ 0x884 : Ro, "The record's message header W0 (MSG_ID, MSG_SIZE, NPKT).";
        CQ_KNOWN_LO @ 0x888 : Ro, "The record's known_mask, bits 31..0.";
        CQ_KNOWN_HI @ 0x88C : Ro, "The record's known_mask, bits 63..32.";
        CQ_SEEN @ 0x890 : Ro, "Symbols the context saw.";
        CQ_REDUNDANT @ 0x894 : Ro, "Of those, REDUNDANT.";
        CQ_INVALID @ 0x898 : Ro, "INVALID symbols while the context was open.";
        CQ_POP @ 0x89C : Cmd, "Drop the head record." { pop[0 +: 1] "pop" };
        ENC_DRAWS @ 0x128 : Ro, "PRNG draws of the current message up to the last symbol the encoder emitted (§9 lists them per vector).";
    }
}
pub use reg::{fields, idx, REGISTERS};

/// `ID`'s value.
pub const MAGIC: u32 = 0x4342_4C54;
/// `VERSION`'s value: 1.0.
pub const VERSION: u32 = 0x0001_0000;
/// BAR0's size in bytes: the register block and the windows.
pub const BAR_SIZE: u32 = 0x8_0000;
/// Clocks from a read's edge (`bus_re`) to the edge where `bus_rdata` holds its word: the read
/// is registered at its edge and its data at the next, so `bus_rdata` is valid in the second
/// clock after the read's edge. Reads pipeline, one per clock.
pub const READ_LATENCY: usize = 2;
/// The register block's size (every register is below it).
pub const REG_SPACE: u32 = 0x1000;
/// TX queue depth in symbols.
pub const TX_SLOTS: usize = 4;
/// Completion queue depth.
pub const CQ_DEPTH: usize = 4;

/// A buffer window in BAR0.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub name: &'static str,
    pub offset: u32,
    pub size: u32,
    pub access: Access,
    pub doc: &'static str,
}

/// The RX staging window: the staged packet's payload, word w at `+4w`.
pub const RX_STAGE: Window = Window { name: "RX_STAGE", offset: 0x1_0000, size: 0x8000, access: Access::Wo, doc: "payload of the staged RX packet (the bytes after the 12-byte header), word w at +4w for w < 2^sa (higher words alias)" };
/// The TX symbol window: the TX queue head's payload, word w at `+4w`.
pub const TX_SYMBOL: Window = Window { name: "TX_SYMBOL", offset: 0x1_8000, size: 0x8000, access: Access::Ro, doc: "payload of the TX queue's head symbol, word w at +4w for w < 2^sa (higher words alias)" };
/// The TX message window: the encoder's message buffer (symbol i, word w at `+4(i·2^sa + w)`).
pub const TX_MESSAGE: Window = Window { name: "TX_MESSAGE", offset: 0x2_0000, size: 0x2_0000, access: Access::Wo, doc: "the encoder's message buffer: source symbol i, word w at +4(i·2^sa + w); writes refused while the encoder is busy" };
/// The RX message window: the decoded message, laid out as [`TX_MESSAGE`].
pub const RX_MESSAGE: Window = Window { name: "RX_MESSAGE", offset: 0x4_0000, size: 0x2_0000, access: Access::Ro, doc: "the decoded message, laid out as TX_MESSAGE (valid while RX_STATUS.msg_ready)" };
pub const WINDOWS: [Window; 4] = [RX_STAGE, TX_SYMBOL, TX_MESSAGE, RX_MESSAGE];

/// The register whose span holds byte offset `off`.
pub fn register_at(off: u32) -> Option<&'static Register> {
    REGISTERS.iter().find(|r| off >= r.offset && off < r.offset + 4 * r.count)
}

/// The register called `name` (any case).
pub fn register_by_name(name: &str) -> Option<&'static Register> {
    REGISTERS.iter().find(|r| r.name.eq_ignore_ascii_case(name))
}

/// `(CAPS, LAYOUT)` for a build with symbols of `s` bytes, `k_max` symbols, `word_bytes` per
/// clock and `2^sa` words per symbol slot.
pub fn caps_words(s: usize, k_max: usize, word_bytes: usize, sa: usize) -> (u32, u32) {
    (
        s as u32 | (k_max as u32) << 16 | (word_bytes as u32) << 24,
        sa as u32 | (TX_SLOTS as u32) << 8 | (CQ_DEPTH as u32) << 16,
    )
}

/// `host-driver/REGISTERS.md`, generated from [`REGISTERS`] and [`WINDOWS`].
pub fn markdown() -> String {
    let mut s = String::from(
        "# FEC NIC register map\n\n\
         Generated from `hdl/src/nic/mod.rs` by `cargo run -p host-driver --bin cbnic -- regs --markdown`; \
         `cargo test -p host-driver` fails when this file is stale. Do not edit by hand.\n\n",
    );
    s.push_str(&format!(
        "BAR0 is {} KiB. Every access is one aligned little-endian 32-bit word. `ID` reads `{MAGIC:#010x}`, \
         `VERSION` reads `{VERSION:#010x}`.\n\n",
        BAR_SIZE / 1024
    ));
    s.push_str("## Registers\n\n");
    s.push_str(&crate::regmap::markdown_table(REGISTERS, 4, 6));
    s.push_str("\n## Buffer windows\n\n| offset | size | name | access | description |\n|---|---|---|---|---|\n");
    for w in WINDOWS {
        s.push_str(&format!("| `{:#07x}` | {} KiB | `{}` | {} | {} |\n", w.offset, w.size / 1024, w.name, w.access.as_str(), w.doc));
    }
    s.push_str(
        "\n## Sequences\n\n\
         * **Encode**: write the message into `TX_MESSAGE` (`encoder_csr::buffer_image`), the table into \
         `ENC_TABLE`, then `ENC_K`, `ENC_MSG_SIZE`, `ENC_MSG_ID`, `ENC_SEED`, `ENC_SYMBOL_LIMIT`, and `ENC_CTRL` = 1. \
         For each symbol: wait for `ENC_STATUS.tx_count` > 0, read `TX_HDR`, `TX_BITSET_HI`, `TX_BITSET_LO` and \
         ⌈S/4⌉ words of `TX_SYMBOL`, write `TX_POP`. The wire packet is W0 ‖ bitset (big-endian) ‖ S payload bytes.\n\
         * **Decode**: wait for `RX_STATUS.feeding` = 0, write the payload into `RX_STAGE`, the header into \
         `RX_HDR`/`RX_BITSET_*`, the length into `RX_LEN`, then `RX_PUSH`; wait for `RX_STATUS.result_seq` to move \
         and read `RX_RESULT` (and `RX_STOP_HDR` for a STOP). After COMPLETE, wait for `msg_ready`, read \
         `RX_MSG_BYTES` bytes from `RX_MESSAGE`, write `RX_MSG_ACK`, then pop the record from the completion queue.\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_are_aligned_disjoint_and_inside_the_register_block() {
        for r in REGISTERS {
            assert_eq!(r.offset % 4, 0, "{}", r.name);
            assert!(r.offset + 4 * r.count <= REG_SPACE, "{}", r.name);
            for f in r.fields {
                assert!(f.lsb + f.width <= 32, "{}.{}", r.name, f.name);
            }
        }
        assert_eq!(crate::regmap::overlaps(REGISTERS, 4), vec![]);
        let mut w: Vec<_> = WINDOWS.iter().map(|w| (w.offset, w.offset + w.size)).collect();
        w.sort();
        assert!(w[0].0 >= REG_SPACE && w.windows(2).all(|p| p[0].1 <= p[1].0) && w[3].1 <= BAR_SIZE);
    }

    #[test]
    fn lookups_and_field_decoding() {
        assert_eq!(register_at(reg::ENC_TABLE + 4 * 63).unwrap().name, "ENC_TABLE");
        assert!(register_at(0x0FFC).is_none());
        let (caps, _) = caps_words(1460, 64, 4, 9);
        let r = register_by_name("caps").unwrap();
        assert_eq!(r.decode(caps), format!("{caps:#010x} [s=1460 k_max=64 word_bytes=4]"));
        assert_eq!(REGISTERS[idx::CQ_POP].offset, reg::CQ_POP);
        // the typed fields are the table's
        assert_eq!(fields::CAPS::k_max.get(caps), 64);
        assert_eq!(fields::CTRL::tx_flush.set(1), 2);
        assert_eq!(fields::RX_STATUS::result_seq.set(0x1_2345), 0x2345 << 16);
        for r in REGISTERS {
            for f in r.fields {
                assert_eq!(f.set(u32::MAX) >> f.lsb, if f.width >= 32 { u32::MAX } else { (1 << f.width) - 1 }, "{}.{}", r.name, f.name);
            }
        }
    }
}
