//! The software engine: encode a message into a symbol stream and decode a stream back, with
//! the statuses, rank and known_mask of cloudburst-cblt.md §6.6 for every symbol.

use hdl::cblt::decoder::{Decoder, Status};
use hdl::cblt::encoder::{CodedSymbol, Encoder};
use hdl::cblt::header::Header;
use hdl::cblt::table::DegreeTable;
use hdl::cblt::{symbols_for, CbltError, HEADER_LEN};

/// Encoder parameters beyond the message.
#[derive(Clone, Debug)]
pub struct EncodeParams {
    pub s: usize,
    pub msg_id: u8,
    pub seed: u32,
    /// The table; `None` is the default robust soliton table for the message's k.
    pub table: Option<DegreeTable>,
}

/// The first `n` symbols of the message's stream. Refuses an empty or oversize message, a bad
/// S, a zero seed and a table that can never decode.
pub fn encode(msg: &[u8], p: &EncodeParams, n: usize) -> Result<Vec<CodedSymbol>, CbltError> {
    let k = symbols_for(msg.len(), p.s)?;
    let table = match &p.table {
        Some(t) => t.clone(),
        None => DegreeTable::default_for(k)?,
    };
    let mut e = Encoder::new(msg, p.s, p.msg_id, p.seed, table)?;
    Ok((0..n).map(|_| e.next_symbol()).collect())
}

/// The name of a status as the CLI prints it.
pub fn status_name(s: &Status) -> String {
    match s {
        Status::Invalid(why) => format!("INVALID ({})", why.as_str()),
        Status::Redundant => "REDUNDANT".into(),
        Status::Innovative => "INNOVATIVE".into(),
        Status::Complete => "COMPLETE".into(),
        Status::AfterComplete => "AFTER_COMPLETE".into(),
    }
}

/// One decoded symbol's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub status: Status,
    pub rank: usize,
    pub known_mask: u64,
}

/// A decode run: every symbol's outcome, the message if complete, and where it stopped.
#[derive(Clone, Debug)]
pub struct DecodeReport {
    pub outcomes: Vec<Outcome>,
    pub message: Option<Vec<u8>>,
    pub k: Option<usize>,
    pub rank: usize,
    pub known_mask: u64,
    pub stop: Option<Header>,
}

/// Decode UDP payloads (header ‖ payload) in order. S is the payload length of the first
/// packet long enough to have one; a packet of another length is INVALID.
pub fn decode(packets: &[Vec<u8>]) -> Result<DecodeReport, CbltError> {
    let s = packets.iter().map(|p| p.len()).find(|&l| l > HEADER_LEN).map(|l| l - HEADER_LEN).unwrap_or(1);
    let mut d = Decoder::new(s)?;
    let outcomes = packets
        .iter()
        .map(|p| {
            let status = d.push_packet(p);
            Outcome { status, rank: d.rank(), known_mask: d.known_mask() }
        })
        .collect();
    Ok(DecodeReport { outcomes, message: d.message(), k: d.k(), rank: d.rank(), known_mask: d.known_mask(), stop: d.stop() })
}
