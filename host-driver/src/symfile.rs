//! Symbol files: one JSON object per line,
//! `{"j":0,"header":"0c00402a0000000000000003","bitset":"0x0000000000000003","payload":"50b0…"}`.
//! `header` is the 12-byte wire header in hex (CB-LT §6.3), `bitset` repeats its
//! BITSET for readers, `payload` is the S-byte symbol in hex, `j` the stream index (optional on
//! input). Blank lines and `#` lines are ignored.

use hdl::cblt::encoder::CodedSymbol;
use hdl::cblt::header::Header;
use hdl::cblt::vectors::{hex, unhex};
use hdl::cblt::HEADER_LEN;
use serde::{Deserialize, Serialize};

/// One line of a symbol file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymbolLine {
    /// The symbol's index in its stream (optional on input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub j: Option<u64>,
    /// The 12-byte header in hex.
    pub header: String,
    /// The header's BITSET again, `0x` and 16 hex digits, for readers.
    pub bitset: String,
    /// The S payload bytes in hex.
    pub payload: String,
}

impl SymbolLine {
    /// The line for coded symbol `c`, index `j`.
    pub fn from_symbol(j: u64, c: &CodedSymbol) -> SymbolLine {
        SymbolLine {
            j: Some(j),
            header: hex(&c.header.pack()),
            bitset: format!("{:#018x}", c.header.bitset),
            payload: hex(&c.payload),
        }
    }

    /// A line for a coded packet (header ‖ payload) as a NIC emits it.
    pub fn from_packet(j: u64, packet: &[u8]) -> Result<SymbolLine, String> {
        let h = Header::parse(packet).map_err(|e| format!("symbol {j}: {}", e.as_str()))?;
        Ok(SymbolLine { j: Some(j), header: hex(&packet[..HEADER_LEN]), bitset: format!("{:#018x}", h.bitset), payload: hex(&packet[HEADER_LEN..]) })
    }

    /// The UDP payload this line stands for (header ‖ payload). The header is not validated
    /// here: a decoder reports an invalid one as INVALID, which is not a file error.
    pub fn packet(&self) -> Result<Vec<u8>, String> {
        let h = unhex(&self.header).map_err(|e| format!("header: {e}"))?;
        if h.len() != HEADER_LEN {
            return Err(format!("header has {} bytes, not {HEADER_LEN}", h.len()));
        }
        let bits = Header::parse(&h).map_err(|e| format!("header: {}", e.as_str()))?.bitset;
        let field = self.bitset.strip_prefix("0x").unwrap_or(&self.bitset);
        let b = u64::from_str_radix(field, 16).map_err(|_| format!("bitset `{}` is not a hex u64", self.bitset))?;
        if b != bits {
            return Err(format!("bitset {} disagrees with the header's {bits:#018x}", self.bitset));
        }
        let mut p = h;
        p.extend(unhex(&self.payload).map_err(|e| format!("payload: {e}"))?);
        Ok(p)
    }
}

/// Write symbol lines.
pub fn to_text(lines: &[SymbolLine]) -> String {
    lines.iter().map(|l| serde_json::to_string(l).expect("serializes") + "\n").collect()
}

/// One symbol read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedSymbol {
    /// 1-based line number.
    pub line: usize,
    /// Its `j`, when the line had one.
    pub j: Option<u64>,
    /// Header ‖ payload, as a UDP payload.
    pub packet: Vec<u8>,
}

/// Parse a symbol file; the first malformed line is an error naming its line.
pub fn parse(name: &str, text: &str) -> Result<Vec<ParsedSymbol>, String> {
    let mut out = vec![];
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let line: SymbolLine = serde_json::from_str(l).map_err(|e| format!("{name}:{}: malformed symbol line: {e}", i + 1))?;
        let p = line.packet().map_err(|e| format!("{name}:{}: malformed symbol line: {e}", i + 1))?;
        out.push(ParsedSymbol { line: i + 1, j: line.j, packet: p });
    }
    if out.is_empty() {
        return Err(format!("{name}: no symbols in the file"));
    }
    Ok(out)
}
