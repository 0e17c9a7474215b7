//! The two-NIC demo (`cbnic demo`), a thin user of [`crate::cloudburst`]: messages go through
//! one engine's encoder (a NIC, or the software codec), out over several UDP paths on loopback
//! (one socket, so one source port, per path), with random loss and optionally one path cut,
//! into a second engine's decoder; the receiver answers COMPLETE and AFTER_COMPLETE with a STOP
//! on the path the symbol came from (§1.5: burst until STOP), and the sender stops its encoder
//! when the STOP arrives. Every recovered message is compared with the original.
//!
//! Paths follow §6.5: symbol j goes out on path `j mod paths`. Loss is decided per symbol by a
//! seeded SplitMix64, so the loss pattern is repeatable; the STOP direction is lossless.

use crate::cloudburst::{Encode, Receive, Receiver, SendOptions, SendReport, Sender};
use crate::device::{NicError, Result};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What the demo runs.
#[derive(Clone, Debug)]
pub struct DemoConfig {
    /// UDP paths (sockets) from the sender.
    pub paths: usize,
    /// Loss probability per symbol on every path, 0..1.
    pub loss: f64,
    /// A path that drops everything.
    pub cut: Option<usize>,
    /// Bytes per message.
    pub msg_size: usize,
    /// Messages to send, one after the other.
    pub messages: usize,
    /// Seeds the message bytes, the loss draws, the MSG_IDs and the coding seeds.
    pub seed: u64,
    /// Give up on a message after this long (the sender's `t`, §6.5).
    pub timeout: Duration,
}

/// What happened to one message.
#[derive(Clone, Debug, Default)]
pub struct MessageReport {
    /// Its MSG_ID.
    pub msg_id: u8,
    /// Its source symbols.
    pub k: usize,
    /// Symbols the encoder produced and the sender put on a path.
    pub sent: u64,
    /// Of those, dropped by loss or by the cut path.
    pub dropped: u64,
    /// Symbols of this message the receiving NIC decoded, by status.
    pub received: u64,
    /// Of those, INNOVATIVE or COMPLETE.
    pub innovative: u64,
    /// Of those, REDUNDANT.
    pub redundant: u64,
    /// Of those, AFTER_COMPLETE (each answered with a STOP).
    pub after_complete: u64,
    /// Of those, INVALID.
    pub invalid: u64,
    /// From the first symbol to the STOP at the sender.
    pub completion: Option<Duration>,
    /// The decoded message equals the original.
    pub verified: bool,
}

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// The message bytes of message `m` (a seeded pattern, so the receiver's check is independent).
pub fn message_bytes(seed: u64, m: usize, len: usize) -> Vec<u8> {
    let mut x = seed ^ (m as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len).map(|_| (xorshift(&mut x) >> 24) as u8).collect()
}

/// Run the demo with `tx` encoding and `rx` decoding (any engines, `cloudburst::encoder` /
/// `cloudburst::receiver`): a [`Sender`] and a [`Receiver`] on loopback, the receiver in its
/// own thread.
pub fn run(tx: Box<dyn Encode>, rx: Box<dyn Receive + Send>, cfg: &DemoConfig) -> Result<Vec<MessageReport>> {
    let s = tx.symbol_size();
    if rx.config().s != s {
        return Err(NicError::BadInput(format!("the engines code different symbol sizes ({s} and {})", rx.config().s)));
    }
    if cfg.msg_size == 0 || cfg.msg_size > tx.max_message() {
        return Err(NicError::MessageTooLarge { size: cfg.msg_size, max: tx.max_message() });
    }
    let mut receiver = Receiver::bind(rx, "127.0.0.1:0")?;
    receiver.idle_timeout = cfg.timeout;
    let mut sender = Sender::bind(tx, cfg.paths, receiver.local_addr()?)?;
    sender.options = SendOptions { deadline: cfg.timeout, gap: None, loss: cfg.loss, cut: cfg.cut, seed: cfg.seed };
    let done = AtomicBool::new(false);
    let (sent, received) = std::thread::scope(|sc| {
        let rxt = sc.spawn(|| {
            let mut delivered: HashMap<u8, Vec<u8>> = HashMap::new();
            while !done.load(Ordering::Acquire) {
                match receiver.recv(Duration::from_millis(50)) {
                    Ok(d) => {
                        delivered.insert(d.msg_id, d.bytes);
                    }
                    Err(NicError::Timeout { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
            Ok((receiver, delivered))
        });
        let mut sent: Result<Vec<(SendReport, Vec<u8>)>> = Ok(vec![]);
        for m in 0..cfg.messages {
            // a receiver that failed ends the demo (its error is reported below)
            if rxt.is_finished() {
                break;
            }
            let msg = message_bytes(cfg.seed, m, cfg.msg_size);
            match sender.spray(&msg) {
                Ok(r) => sent.as_mut().expect("no error yet").push((r, msg)),
                Err(e) => {
                    sent = Err(e);
                    break;
                }
            }
        }
        // let the receiver finish the symbols in flight
        std::thread::sleep(Duration::from_millis(100));
        done.store(true, Ordering::Release);
        let r = rxt.join().expect("the receiver thread");
        (sent, r)
    });
    let (sent, (receiver, delivered)) = (sent?, received?);
    Ok(sent
        .into_iter()
        .map(|(r, msg)| {
            let c = receiver.counts(r.msg_id);
            MessageReport {
                msg_id: r.msg_id,
                k: r.k,
                sent: r.sent,
                dropped: r.dropped,
                received: c.received,
                innovative: c.innovative,
                redundant: c.redundant,
                after_complete: c.after_complete,
                invalid: c.invalid,
                completion: r.stopped.map(|(t, _)| t),
                verified: delivered.get(&r.msg_id) == Some(&msg),
            }
        })
        .collect())
}

/// The demo's table, one line per message.
pub fn table(reports: &[MessageReport], cfg: &DemoConfig) -> String {
    let mut s = format!(
        "{} message(s) of {} B over {} UDP path(s), loss {:.0} %{}\n",
        reports.len(),
        cfg.msg_size,
        cfg.paths,
        cfg.loss * 100.0,
        cfg.cut.map(|c| format!(", path {c} cut")).unwrap_or_default()
    );
    s.push_str("msg_id  k   sent  dropped  received  innovative  redundant  after_complete  completion  verified\n");
    for r in reports {
        let t = r.completion.map(|d| format!("{:.1} ms", d.as_secs_f64() * 1e3)).unwrap_or_else(|| "none".into());
        s.push_str(&format!(
            "{:>6} {:>2} {:>6} {:>8} {:>9} {:>11} {:>10} {:>15} {:>11}  {}\n",
            r.msg_id, r.k, r.sent, r.dropped, r.received, r.innovative, r.redundant, r.after_complete, t, if r.verified { "yes" } else { "NO" }
        ));
    }
    s
}
