//! Decoding a stream of received packets: the one definition of what every engine returns
//! (`soft`, `sim`, `sim-small`, `vfio`, `mmap`), for streams that carry any number of messages
//! and any amount of hostile input (CB-LT §6.3, §6.6, §7.5).
//!
//! The rules, which are those of the decoder core (`hdl::cblt::receiver::Receiver` is their
//! golden model and the software engine runs it):
//!
//! * **S and k_max are configuration**: the NIC's `CAPS`, or [`RxConfig`] for the software
//!   engine (the CLI's `--symbol-size`, default 1460). Nothing is inferred from traffic: a
//!   packet whose length is not 12 + S is INVALID (`PayloadLength`) wherever it is, the first
//!   packet included.
//! * **INVALID changes nothing.** An INVALID packet is reported with its reason and counted;
//!   no other packet's status, rank or `known_mask` depends on it.
//! * **One context.** The first valid symbol while no message is open opens one (k, MSG_SIZE,
//!   MSG_ID); a symbol of another message while it is open is INVALID (`OtherMessage`); the core
//!   decodes one message at a time.
//! * **Delivery.** COMPLETE delivers the message and frees the context; its MSG_ID is
//!   tombstoned, so later symbols carrying it are AFTER_COMPLETE (send its STOP again; §6.6
//!   step 1 comes before validation) until another message completes. Then the next message's
//!   symbols open a fresh context.
//! * **No expiry.** A stream decode has no idle timer (a file has no time): a message whose
//!   symbols run out is reported `delivered: false` with its rank and `known_mask`.
//!
//! [`decode_stream`] turns an engine's per-packet results into a [`StreamReport`]: every
//! packet's [`RxResult`], and one [`MessageResult`] per message that opened a context, in the
//! order they opened.

use crate::device::{NicError, Result};
use hdl::cblt::decoder::Status;
use hdl::cblt::header::Header;
use hdl::cblt::receiver::{Receiver, RxRecord, RxResult};
use hdl::cblt::{CbltError, DEFAULT_S, K_MAX};

/// What a receiver is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RxConfig {
    /// Symbol size in bytes: a data packet is 12 + S bytes.
    pub s: usize,
    /// The most source symbols per message (a larger k is INVALID, `KAboveCore`).
    pub k_max: usize,
}

impl Default for RxConfig {
    fn default() -> Self {
        RxConfig { s: DEFAULT_S, k_max: K_MAX }
    }
}

/// A receive engine: the software decoder or a NIC's decoder core.
pub trait Receive {
    /// What the receiver was built for.
    fn config(&self) -> RxConfig;
    /// Forget every context, tombstone and undelivered message; no idle expiry from here on.
    fn clear(&mut self) -> Result<()>;
    /// One received UDP payload (header ‖ payload).
    fn push(&mut self, packet: &[u8]) -> Result<RxResult>;
    /// After a COMPLETE: the delivered message and its completion record.
    fn take_delivery(&mut self) -> Result<(Vec<u8>, RxRecord)>;
}

/// One message of a stream: the one that opened a context at packet `opened_at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageResult {
    /// k, MSG_SIZE and MSG_ID, with `BITSET = 0`: the STOP this message's receiver sends.
    pub header: Header,
    /// The packet that opened its context.
    pub opened_at: usize,
    /// The packet that completed it.
    pub completed_at: Option<usize>,
    /// Rank and known_mask after its last symbol (k and all ones once delivered).
    pub rank: usize,
    /// known_mask after its last symbol.
    pub known_mask: u64,
    /// The message bytes (MSG_SIZE of them) once delivered.
    pub bytes: Option<Vec<u8>>,
    /// The completion record (symbols seen, redundant, invalid while open) once delivered.
    pub record: Option<RxRecord>,
    /// Symbols after delivery that got its STOP again.
    pub after_complete: u64,
}

impl MessageResult {
    /// Its bytes were delivered.
    pub fn delivered(&self) -> bool {
        self.bytes.is_some()
    }
    /// Its number of source symbols.
    pub fn k(&self) -> usize {
        self.header.k()
    }
    /// The STOP to send back, once delivered.
    pub fn stop(&self) -> Option<Header> {
        self.delivered().then_some(self.header)
    }
}

/// A whole stream's decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamReport {
    /// Every packet's outcome, in order.
    pub packets: Vec<RxResult>,
    /// Every message that opened a context, in the order they opened.
    pub messages: Vec<MessageResult>,
}

impl StreamReport {
    /// The delivered messages, in order.
    pub fn delivered(&self) -> impl Iterator<Item = &MessageResult> {
        self.messages.iter().filter(|m| m.delivered())
    }
    /// Every message that opened was delivered, and there was at least one.
    pub fn all_delivered(&self) -> bool {
        !self.messages.is_empty() && self.messages.iter().all(MessageResult::delivered)
    }
}

/// Decode `packets` in order on `rx`, from a clear receiver.
pub fn decode_stream(rx: &mut dyn Receive, packets: &[Vec<u8>]) -> Result<StreamReport> {
    rx.clear()?;
    let mut rep = StreamReport { packets: Vec::with_capacity(packets.len()), messages: vec![] };
    let mut open: Option<usize> = None;
    for (i, p) in packets.iter().enumerate() {
        let r = rx.push(p)?;
        let opens = open.is_none() && matches!(r.status, Status::Innovative | Status::Complete);
        if opens {
            // a valid symbol: its header parses and names the message
            let h = Header::parse(p).map_err(|_| NicError::Device(format!("packet {i} of {} bytes opened a context", p.len())))?;
            rep.messages.push(MessageResult {
                header: h.stop(),
                opened_at: i,
                completed_at: None,
                rank: 0,
                known_mask: 0,
                bytes: None,
                record: None,
                after_complete: 0,
            });
            open = Some(rep.messages.len() - 1);
        }
        match r.status {
            Status::Innovative | Status::Redundant | Status::Complete => {
                let m = open.map(|o| &mut rep.messages[o]).ok_or_else(|| NicError::Device(format!("packet {i}: {:?} with no message open", r.status)))?;
                (m.rank, m.known_mask) = (r.rank, r.known_mask);
                if r.status == Status::Complete {
                    let (bytes, record) = rx.take_delivery()?;
                    if record.header != m.header || r.stop != Some(m.header) || bytes.len() != m.header.msg_size as usize {
                        return Err(NicError::Device(format!(
                            "packet {i}: the delivery ({} bytes, record {:?}, STOP {:?}) is not of the message that opened at packet {} ({:?})",
                            bytes.len(),
                            record.header,
                            r.stop,
                            m.opened_at,
                            m.header
                        )));
                    }
                    m.completed_at = Some(i);
                    (m.bytes, m.record) = (Some(bytes), Some(record));
                    open = None;
                }
            }
            Status::AfterComplete => {
                if let Some(m) = rep.messages.iter_mut().rev().find(|m| m.delivered() && Some(m.header) == r.stop) {
                    m.after_complete += 1;
                }
            }
            Status::Invalid(_) => {}
        }
        rep.packets.push(r);
    }
    Ok(rep)
}

/// The software engine's receiver: the golden model itself.
pub struct SoftReceiver {
    cfg: RxConfig,
    rx: Receiver,
}

impl SoftReceiver {
    /// A software receiver for `cfg` (S and k_max checked).
    pub fn new(cfg: RxConfig) -> std::result::Result<SoftReceiver, CbltError> {
        Ok(SoftReceiver { cfg, rx: Receiver::new(cfg.s, cfg.k_max, 0)? })
    }
}

impl Receive for SoftReceiver {
    fn config(&self) -> RxConfig {
        self.cfg
    }
    fn clear(&mut self) -> Result<()> {
        self.rx = Receiver::new(self.cfg.s, self.cfg.k_max, 0).expect("checked in new");
        Ok(())
    }
    fn push(&mut self, packet: &[u8]) -> Result<RxResult> {
        Ok(self.rx.push_packet(packet))
    }
    fn take_delivery(&mut self) -> Result<(Vec<u8>, RxRecord)> {
        if self.rx.messages.is_empty() || self.rx.records.is_empty() {
            return Err(NicError::Device("no delivered message to take".into()));
        }
        Ok((self.rx.messages.remove(0), self.rx.records.remove(0)))
    }
}
