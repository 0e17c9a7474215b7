//! The software engine: encode a message into a symbol stream and decode a stream back, with
//! the statuses, rank and known_mask of CB-LT §6.6 for every symbol.

use crate::stream::{decode_stream, RxConfig, SoftReceiver, StreamReport};
use hdl::cblt::decoder::Status;
use hdl::cblt::encoder::{CodedSymbol, Encoder};
use hdl::cblt::table::DegreeTable;
use hdl::cblt::{symbols_for, CbltError};

/// Encoder parameters beyond the message.
#[derive(Clone, Debug)]
pub struct EncodeParams {
    /// Symbol size S in bytes.
    pub s: usize,
    /// The message's MSG_ID.
    pub msg_id: u8,
    /// xorshift32 seed, nonzero.
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

/// Decode UDP payloads (header ‖ payload) in order on a receiver built for `cfg`: the report
/// every engine gives ([`crate::stream`]).
pub fn decode(packets: &[Vec<u8>], cfg: RxConfig) -> Result<StreamReport, CbltError> {
    let mut rx = SoftReceiver::new(cfg)?;
    Ok(decode_stream(&mut rx, packets).expect("the software receiver does not fail"))
}
