//! CloudBurst messaging over UDP, the way an application uses it: a [`Sender`] sprays a
//! message's coded symbols over several UDP paths until the receiver's STOP arrives or a
//! deadline passes, and a [`Receiver`] yields whole messages, each with its report.
//!
//! The coding engine is a choice behind two traits, [`Encode`] and [`Receive`]: the software
//! codec ([`SoftEncoder`], [`SoftReceiver`]) or a NIC ([`FecNic`], on the simulated NIC, VFIO or
//! a mapped BAR); [`encoder`] and [`receiver`] open one by its `cbnic` engine name.
//!
//! ```
//! use host_driver::cloudburst::{Receiver, Sender};
//! use std::time::Duration;
//!
//! let mut rx = Receiver::bind(host_driver::cloudburst::receiver("soft")?, "127.0.0.1:0")?;
//! let mut tx = Sender::bind(host_driver::cloudburst::encoder("soft")?, 4, rx.local_addr()?)?;
//! tx.options.loss = 0.2; // emulated loss on every path, for the example
//! let message = b"hello over four paths".repeat(500);
//! std::thread::scope(|s| {
//!     let got = s.spawn(|| rx.recv(Duration::from_secs(10)));
//!     let sent = tx.send(&message)?;
//!     let got = got.join().unwrap()?;
//!     assert_eq!(got.bytes, message);
//!     println!("k = {}, {} symbols sent, {} lost", sent.k, sent.sent, sent.dropped);
//!     Ok::<_, host_driver::device::NicError>(())
//! })?;
//! # Ok::<(), host_driver::device::NicError>(())
//! ```
//!
//! Rules (CB-LT §1.5, §6.5, §6.6, and [`crate::stream`] for the receive side):
//! * **Paths**: symbol j goes out on path `j mod n`; each path is its own UDP socket (its own
//!   source port, so ECMP spreads them). The receiver answers every COMPLETE and AFTER_COMPLETE
//!   with a STOP (the 12-byte header with BITSET = 0) to the address the symbol came from.
//! * **Until STOP or deadline**: [`Sender::send`] returns when a STOP for its message arrives on
//!   any path, or fails with [`NicError::Timeout`] at [`SendOptions::deadline`]. No congestion
//!   control (§7.7); [`SendOptions::gap`] paces it.
//! * **Back-pressure**: a full socket buffer makes the sender wait and retry the same symbol
//!   (never drop it); a receiver that falls behind loses symbols in its socket buffer, which the
//!   code absorbs.
//! * **MSG_ID**: each sender counts them up from a random start; the receiver decodes one
//!   message at a time and drops an open message after [`Receiver::idle_timeout`] with no valid
//!   symbol (as the NIC's idle timer does), so a lost sender cannot block it.
//! * Messages above the engine's `k_max · S` are refused ([`NicError::MessageTooLarge`]).

use crate::device::{Engine, NicError, Result};
use crate::nic::FecNic;
use crate::soft::EncodeParams;
pub use crate::stream::{Receive, RxConfig, SoftReceiver};
use hdl::cblt::decoder::Status;
use hdl::cblt::encoder::Encoder;
use hdl::cblt::header::Header;
pub use hdl::cblt::receiver::RxRecord;
use hdl::cblt::{symbols_for, DEFAULT_S, HEADER_LEN, K_MAX};
use std::collections::HashMap;
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::time::{Duration, Instant};

/// The sending half of a coding engine.
pub trait Encode: Send {
    /// S in bytes.
    fn symbol_size(&self) -> usize;
    /// The largest message, `k_max · S`.
    fn max_message(&self) -> usize;
    /// Start coding `msg` as message `msg_id` with the xorshift32 `seed` (nonzero) and the
    /// default degree table; returns k.
    fn start(&mut self, msg: &[u8], msg_id: u8, seed: u32) -> Result<usize>;
    /// The next coded symbol as its UDP payload (header ‖ S bytes).
    fn next_symbol(&mut self) -> Result<Vec<u8>>;
    /// Stop coding the current message.
    fn stop(&mut self) -> Result<()>;
}

/// The software encoder (`hdl::cblt::encoder`), bit-exact with the NIC's.
pub struct SoftEncoder {
    s: usize,
    enc: Option<Encoder>,
}

impl SoftEncoder {
    /// An encoder for symbols of `s` bytes (1..=4095).
    pub fn new(s: usize) -> Result<SoftEncoder> {
        hdl::cblt::check_symbol_size(s).map_err(|e| NicError::BadInput(e.to_string()))?;
        Ok(SoftEncoder { s, enc: None })
    }
}

impl Encode for SoftEncoder {
    fn symbol_size(&self) -> usize {
        self.s
    }
    fn max_message(&self) -> usize {
        K_MAX * self.s
    }
    fn start(&mut self, msg: &[u8], msg_id: u8, seed: u32) -> Result<usize> {
        let e = Encoder::with_default_table(msg, self.s, msg_id, seed).map_err(|e| NicError::BadInput(e.to_string()))?;
        let k = e.k();
        self.enc = Some(e);
        Ok(k)
    }
    fn next_symbol(&mut self) -> Result<Vec<u8>> {
        Ok(self.enc.as_mut().ok_or_else(|| NicError::BadInput("no message started".into()))?.next_symbol().to_bytes())
    }
    fn stop(&mut self) -> Result<()> {
        self.enc = None;
        Ok(())
    }
}

impl Encode for FecNic {
    fn symbol_size(&self) -> usize {
        self.caps.s
    }
    fn max_message(&self) -> usize {
        self.caps.max_message()
    }
    fn start(&mut self, msg: &[u8], msg_id: u8, seed: u32) -> Result<usize> {
        self.start_encode(msg, &EncodeParams { s: self.caps.s, msg_id, seed, table: None }, 0)
    }
    fn next_symbol(&mut self) -> Result<Vec<u8>> {
        FecNic::next_symbol(self)?.ok_or_else(|| NicError::Device("the encoder stopped by itself".into()))
    }
    fn stop(&mut self) -> Result<()> {
        self.stop_encode()
    }
}

/// The sending half of engine `name` (`soft` with S = 1460, or a NIC: `sim`, `sim-small`,
/// `sim:MAILBOX`, `vfio:ADDR`, `mmap:PATH`).
pub fn encoder(name: &str) -> Result<Box<dyn Encode>> {
    match Engine::parse(name)? {
        Engine::Soft => Ok(Box::new(SoftEncoder::new(DEFAULT_S)?)),
        _ => Ok(Box::new(FecNic::open_engine(name)?)),
    }
}

/// The receiving half of engine `name` (as [`encoder`]).
pub fn receiver(name: &str) -> Result<Box<dyn Receive + Send>> {
    match Engine::parse(name)? {
        Engine::Soft => Ok(Box::new(SoftReceiver::new(RxConfig::default()).map_err(|e| NicError::BadInput(e.to_string()))?)),
        _ => Ok(Box::new(FecNic::open_engine(name)?)),
    }
}

fn io(what: &str) -> impl Fn(std::io::Error) -> NicError + '_ {
    move |e| NicError::Device(format!("{what}: {e}"))
}

/// How a [`Sender`] sends.
#[derive(Clone, Debug)]
pub struct SendOptions {
    /// Give up on a message this long after its first symbol (the sender's `t`).
    pub deadline: Duration,
    /// Wait this long between symbols (none: as fast as the engine and the sockets go).
    pub gap: Option<Duration>,
    /// Emulated loss for experiments: drop each symbol with this probability before it reaches
    /// its socket (0 in real use).
    pub loss: f64,
    /// Emulated path fault for experiments: drop everything on this path.
    pub cut: Option<usize>,
    /// Seeds the loss draws and the first MSG_ID and coding seed.
    pub seed: u64,
}

impl Default for SendOptions {
    fn default() -> Self {
        SendOptions { deadline: Duration::from_secs(10), gap: None, loss: 0.0, cut: None, seed: 1 }
    }
}

/// What sending one message did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendReport {
    /// The MSG_ID the message went out with.
    pub msg_id: u8,
    /// Its source symbols.
    pub k: usize,
    /// Symbols the engine coded and the sender put on a path (dropped ones included).
    pub sent: u64,
    /// Of those, dropped by the emulated loss or the cut path.
    pub dropped: u64,
    /// From the first symbol to the STOP, and the path it came back on; `None` when the
    /// deadline passed first.
    pub stopped: Option<(Duration, usize)>,
}

/// SplitMix64, for the loss draws, MSG_IDs and seeds.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Sends messages to one receiver over several UDP paths.
pub struct Sender {
    enc: Box<dyn Encode>,
    paths: Vec<UdpSocket>,
    peer: SocketAddr,
    next_id: u8,
    mix: Mix,
    /// How the next messages are sent; change it between messages.
    pub options: SendOptions,
}

impl Sender {
    /// A sender on the given path sockets (each its own source port) to `peer`.
    pub fn new(enc: Box<dyn Encode>, paths: Vec<UdpSocket>, peer: SocketAddr) -> Result<Sender> {
        if paths.is_empty() {
            return Err(NicError::BadInput("a sender needs at least one path".into()));
        }
        for p in &paths {
            p.set_nonblocking(true).map_err(io("a path socket"))?;
        }
        let options = SendOptions::default();
        let mut mix = Mix(options.seed);
        let next_id = mix.next() as u8;
        Ok(Sender { enc, paths, peer, next_id, mix, options })
    }

    /// A sender with `n` path sockets bound to ephemeral ports on the unspecified address of
    /// `peer`'s family.
    pub fn bind(enc: Box<dyn Encode>, n: usize, peer: impl ToSocketAddrs) -> Result<Sender> {
        let peer = peer.to_socket_addrs().map_err(io("the peer address"))?.next().ok_or_else(|| NicError::BadInput("no peer address".into()))?;
        let any = if peer.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" };
        let paths = (0..n).map(|_| UdpSocket::bind(any)).collect::<std::io::Result<Vec<_>>>().map_err(io("binding a path socket"))?;
        Sender::new(enc, paths, peer)
    }

    /// The engine's symbol size S.
    pub fn symbol_size(&self) -> usize {
        self.enc.symbol_size()
    }
    /// The largest message the engine codes, k_max · S.
    pub fn max_message(&self) -> usize {
        self.enc.max_message()
    }

    /// Send one message: spray its symbols over the paths until its STOP arrives;
    /// [`NicError::Timeout`] when [`SendOptions::deadline`] passes first.
    pub fn send(&mut self, msg: &[u8]) -> Result<SendReport> {
        let r = self.spray(msg)?;
        match r.stopped {
            Some(_) => Ok(r),
            None => Err(NicError::Timeout {
                what: format!("the STOP of message {} (k = {}, {} symbols sent, {} dropped)", r.msg_id, r.k, r.sent, r.dropped),
                after: self.options.deadline,
            }),
        }
    }

    /// [`Sender::send`], but a deadline that passes is a report (`stopped: None`), not an error.
    pub fn spray(&mut self, msg: &[u8]) -> Result<SendReport> {
        let o = self.options.clone();
        if !(0.0..1.0).contains(&o.loss) || o.cut.is_some_and(|c| c >= self.paths.len() || self.paths.len() == 1) {
            return Err(NicError::BadInput(format!("need 0 ≤ loss < 1 and a cut path below {} that leaves another", self.paths.len())));
        }
        if msg.len() > self.enc.max_message() {
            return Err(NicError::MessageTooLarge { size: msg.len(), max: self.enc.max_message() });
        }
        let k = symbols_for(msg.len(), self.enc.symbol_size()).map_err(|e| NicError::BadInput(e.to_string()))?;
        let msg_id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let seed = (self.mix.next() as u32).max(1);
        let stop = Header::new(k, msg.len() as u32, msg_id, 0);
        self.enc.start(msg, msg_id, seed)?;
        let r = self.until_stop(stop, o);
        self.enc.stop()?;
        r
    }

    fn until_stop(&mut self, stop: Header, o: SendOptions) -> Result<SendReport> {
        let mut rep = SendReport { msg_id: stop.msg_id, k: stop.k(), sent: 0, dropped: 0, stopped: None };
        let t0 = Instant::now();
        let mut buf = [0u8; 64];
        for j in 0.. {
            // a STOP for this message on any path ends it
            for (i, p) in self.paths.iter().enumerate() {
                while let Ok((n, _)) = p.recv_from(&mut buf) {
                    if n == HEADER_LEN && Header::parse(&buf[..n]) == Ok(stop) {
                        rep.stopped = Some((t0.elapsed(), i));
                        return Ok(rep);
                    }
                }
            }
            if t0.elapsed() > o.deadline {
                return Ok(rep);
            }
            let sym = self.enc.next_symbol()?;
            let path = j % self.paths.len();
            rep.sent += 1;
            if o.cut == Some(path) || (o.loss > 0.0 && self.mix.unit() < o.loss) {
                rep.dropped += 1;
            } else {
                loop {
                    match self.paths[path].send_to(&sym, self.peer) {
                        Ok(_) => break,
                        // back-pressure: the socket buffer is full, wait and send it again
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_micros(50)),
                        Err(e) => return Err(io("sending a symbol")(e)),
                    }
                }
            }
            if let Some(g) = o.gap {
                std::thread::sleep(g);
            }
        }
        unreachable!("the loop returns")
    }
}

/// A delivered message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Its MSG_ID.
    pub msg_id: u8,
    /// The message, MSG_SIZE bytes.
    pub bytes: Vec<u8>,
    /// The completion record: symbols the message's context took, redundant and invalid ones.
    pub record: RxRecord,
    /// Where its completing symbol came from (one of the sender's paths).
    pub from: SocketAddr,
    /// From its first valid symbol to its completion.
    pub elapsed: Duration,
}

/// Per-MSG_ID counts of what a [`Receiver`] received (by the header's MSG_ID byte).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RxCounts {
    /// Packets that carried this MSG_ID.
    pub received: u64,
    /// INNOVATIVE and COMPLETE.
    pub innovative: u64,
    /// Dependent or duplicate symbols.
    pub redundant: u64,
    /// Symbols after the message was delivered (each answered with its STOP).
    pub after_complete: u64,
    /// Symbols dropped as INVALID.
    pub invalid: u64,
}

/// Receives messages on one UDP socket.
pub struct Receiver {
    rx: Box<dyn Receive + Send>,
    sock: UdpSocket,
    buf: Vec<u8>,
    /// An open message with no valid symbol for this long is dropped (default 1 s).
    pub idle_timeout: Duration,
    open_since: Option<(Instant, Instant)>,
    counts: HashMap<u8, RxCounts>,
}

impl Receiver {
    /// A receiver on `sock` decoding with `rx` (cleared first).
    pub fn new(mut rx: Box<dyn Receive + Send>, sock: UdpSocket) -> Result<Receiver> {
        rx.clear()?;
        Ok(Receiver { rx, sock, buf: vec![0; 65_536], idle_timeout: Duration::from_secs(1), open_since: None, counts: HashMap::new() })
    }

    /// A receiver on a socket bound to `addr`.
    pub fn bind(rx: Box<dyn Receive + Send>, addr: impl ToSocketAddrs) -> Result<Receiver> {
        Receiver::new(rx, UdpSocket::bind(addr).map_err(io("binding the receiver's socket"))?)
    }

    /// The address senders send to.
    pub fn local_addr(&self) -> Result<SocketAddr> {
        self.sock.local_addr().map_err(io("the receiver's socket"))
    }

    /// What arrived for message `msg_id` so far.
    pub fn counts(&self, msg_id: u8) -> RxCounts {
        self.counts.get(&msg_id).copied().unwrap_or_default()
    }

    /// The next whole message; [`NicError::Timeout`] when none completes within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Result<Delivery> {
        let t0 = Instant::now();
        loop {
            let left = timeout.saturating_sub(t0.elapsed());
            if left.is_zero() {
                return Err(NicError::Timeout { what: "a whole message".into(), after: timeout });
            }
            if let Some((_, last)) = self.open_since {
                if last.elapsed() > self.idle_timeout {
                    // what the NIC's idle timer does: the message fails, the receiver moves on
                    self.rx.clear()?;
                    self.open_since = None;
                }
            }
            self.sock.set_read_timeout(Some(left.min(Duration::from_millis(50)))).map_err(io("the receiver's socket"))?;
            let (n, from) = match self.sock.recv_from(&mut self.buf) {
                Ok(x) => x,
                Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => continue,
                Err(e) => return Err(io("receiving")(e)),
            };
            let r = self.rx.push(&self.buf[..n])?;
            let c = self.counts.entry(if n >= HEADER_LEN { self.buf[3] } else { 0 }).or_default();
            c.received += 1;
            match r.status {
                Status::Innovative | Status::Complete => c.innovative += 1,
                Status::Redundant => c.redundant += 1,
                Status::AfterComplete => c.after_complete += 1,
                Status::Invalid(_) => c.invalid += 1,
            }
            if let Some(stop) = r.stop {
                self.sock.send_to(&stop.pack(), from).map_err(io("sending a STOP"))?;
            }
            let now = Instant::now();
            match r.status {
                Status::Innovative | Status::Redundant => {
                    self.open_since = Some((self.open_since.map_or(now, |o| o.0), now));
                }
                Status::Complete => {
                    let (bytes, record) = self.rx.take_delivery()?;
                    let since = self.open_since.take().map_or(now, |o| o.0);
                    return Ok(Delivery { msg_id: record.header.msg_id, bytes, record, from, elapsed: now - since });
                }
                _ => {}
            }
        }
    }
}
