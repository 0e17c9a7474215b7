//! The two-NIC demo (`cbnic demo`): messages go through one NIC's encoder, out over several UDP
//! paths on loopback (one socket, so one source port, per path), with random loss and
//! optionally one path cut, into a second NIC's decoder; the receiver answers COMPLETE and
//! AFTER_COMPLETE with a STOP on the path the symbol came from (§1.5: burst until STOP), and the
//! sender stops its encoder when the STOP arrives. Every recovered message is compared with
//! the original.
//!
//! Paths follow §6.5: symbol j goes out on path `j mod paths`. Loss is decided per symbol by a
//! seeded xorshift, so a run is repeatable; the STOP direction is lossless.

use crate::device::{NicError, Result};
use crate::nic::FecNic;
use crate::soft::EncodeParams;
use hdl::cblt::decoder::Status;
use hdl::cblt::header::Header;
use hdl::cblt::HEADER_LEN;
use std::collections::HashMap;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct DemoConfig {
    pub paths: usize,
    /// Loss probability per symbol on every path, 0..1.
    pub loss: f64,
    /// A path that drops everything.
    pub cut: Option<usize>,
    pub msg_size: usize,
    pub messages: usize,
    pub seed: u64,
    /// Give up on a message after this long (the sender's `t`, §6.5).
    pub timeout: Duration,
}

/// What happened to one message.
#[derive(Clone, Debug, Default)]
pub struct MessageReport {
    pub msg_id: u8,
    pub k: usize,
    /// Symbols the encoder produced and the sender put on a path.
    pub sent: u64,
    /// Of those, dropped by loss or by the cut path.
    pub dropped: u64,
    /// Symbols of this message the receiving NIC decoded, by status.
    pub received: u64,
    pub innovative: u64,
    pub redundant: u64,
    pub after_complete: u64,
    pub invalid: u64,
    /// From the first symbol to the STOP at the sender.
    pub completion: Option<Duration>,
    /// The decoded message equals the original.
    pub verified: bool,
}

#[derive(Default)]
struct RxSide {
    by_id: HashMap<u8, MessageReport>,
    delivered: HashMap<u8, Vec<u8>>,
    error: Option<String>,
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

fn io(e: std::io::Error, what: &str) -> NicError {
    NicError::Device(format!("{what}: {e}"))
}

/// Run the demo with `tx` encoding and `rx` decoding.
pub fn run(tx: &mut FecNic, rx: &mut FecNic, cfg: &DemoConfig) -> Result<Vec<MessageReport>> {
    if cfg.paths == 0 || cfg.cut.is_some_and(|c| c >= cfg.paths) || !(0.0..1.0).contains(&cfg.loss) {
        return Err(NicError::BadInput(format!("need paths ≥ 1, a cut path below {}, and 0 ≤ loss < 1", cfg.paths)));
    }
    if cfg.cut.is_some() && cfg.paths == 1 {
        return Err(NicError::BadInput("cutting the only path leaves nothing to deliver on".into()));
    }
    let s = tx.caps.s;
    if rx.caps.s != s {
        return Err(NicError::BadInput(format!("the NICs code different symbol sizes ({s} and {})", rx.caps.s)));
    }
    let rx_sock = UdpSocket::bind("127.0.0.1:0").map_err(|e| io(e, "binding the receiver's socket"))?;
    rx_sock.set_read_timeout(Some(Duration::from_millis(50))).map_err(|e| io(e, "socket"))?;
    let rx_addr = rx_sock.local_addr().map_err(|e| io(e, "socket"))?;
    let paths: Vec<UdpSocket> = (0..cfg.paths)
        .map(|_| {
            let p = UdpSocket::bind("127.0.0.1:0")?;
            p.set_nonblocking(true)?;
            Ok(p)
        })
        .collect::<std::io::Result<_>>()
        .map_err(|e| io(e, "binding a path socket"))?;
    let done = AtomicBool::new(false);
    let side = Mutex::new(RxSide::default());
    rx.clear_rx()?;

    let reports = std::thread::scope(|sc| {
        sc.spawn(|| receive(rx, &rx_sock, &done, &side));
        let r = send_all(tx, &paths, rx_addr, cfg, &side);
        done.store(true, Ordering::Release);
        r
    })?;
    let side = side.into_inner().unwrap();
    if let Some(e) = side.error {
        return Err(NicError::Device(format!("receiver: {e}")));
    }
    Ok(reports
        .into_iter()
        .map(|mut r| {
            if let Some(rs) = side.by_id.get(&r.msg_id) {
                r.received = rs.received;
                r.innovative = rs.innovative;
                r.redundant = rs.redundant;
                r.after_complete = rs.after_complete;
                r.invalid = rs.invalid;
            }
            let want = message_bytes(cfg.seed, r.msg_id as usize, cfg.msg_size);
            r.verified = side.delivered.get(&r.msg_id).is_some_and(|m| *m == want);
            r
        })
        .collect())
}

fn send_all(tx: &mut FecNic, paths: &[UdpSocket], to: SocketAddr, cfg: &DemoConfig, side: &Mutex<RxSide>) -> Result<Vec<MessageReport>> {
    // splitmix64 of the seed, so small seeds start the xorshift well mixed
    let mut rng = {
        let mut z = cfg.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) | 1
    };
    let mut out = vec![];
    for m in 0..cfg.messages {
        let msg = message_bytes(cfg.seed, m, cfg.msg_size);
        let msg_id = m as u8;
        let seed = (xorshift(&mut rng) as u32).max(1);
        let p = EncodeParams { s: tx.caps.s, msg_id, seed, table: None };
        let k = tx.start_encode(&msg, &p, 0)?;
        let mut r = MessageReport { msg_id, k, ..Default::default() };
        let t0 = Instant::now();
        let mut j = 0usize;
        'sending: loop {
            if side.lock().unwrap().error.is_some() {
                break;
            }
            if t0.elapsed() > cfg.timeout {
                break;
            }
            let Some(sym) = tx.next_symbol()? else { break };
            let path = j % paths.len();
            j += 1;
            r.sent += 1;
            let lost = ((xorshift(&mut rng) >> 11) as f64 / (1u64 << 53) as f64) < cfg.loss;
            if cfg.cut == Some(path) || lost {
                r.dropped += 1;
            } else {
                paths[path].send_to(&sym, to).map_err(|e| io(e, "sending a symbol"))?;
            }
            // a STOP for this message on any path ends it
            let mut buf = [0u8; 64];
            for ps in paths {
                while let Ok((n, _)) = ps.recv_from(&mut buf) {
                    if n == HEADER_LEN {
                        if let Ok(h) = Header::parse(&buf[..n]) {
                            if h.is_stop() && h.msg_id == msg_id {
                                r.completion = Some(t0.elapsed());
                                break 'sending;
                            }
                        }
                    }
                }
            }
        }
        tx.stop_encode()?;
        out.push(r);
    }
    // let the receiver finish the symbols in flight
    std::thread::sleep(Duration::from_millis(100));
    Ok(out)
}

fn receive(rx: &mut FecNic, sock: &UdpSocket, done: &AtomicBool, side: &Mutex<RxSide>) {
    let mut buf = vec![0u8; 65536];
    while !done.load(Ordering::Acquire) {
        let (n, from) = match sock.recv_from(&mut buf) {
            Ok(x) => x,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => continue,
            Err(e) => {
                side.lock().unwrap().error = Some(format!("receiving: {e}"));
                return;
            }
        };
        let pkt = &buf[..n];
        let res = rx.push(pkt).and_then(|o| {
            let delivered = if o.status == Status::Complete { Some(rx.take_message()?.0) } else { None };
            Ok((o, delivered))
        });
        let (o, delivered) = match res {
            Ok(x) => x,
            Err(e) => {
                side.lock().unwrap().error = Some(e.to_string());
                return;
            }
        };
        let id = if n >= HEADER_LEN { pkt[3] } else { 0 };
        let mut g = side.lock().unwrap();
        let st = g.by_id.entry(id).or_insert_with(|| MessageReport { msg_id: id, ..Default::default() });
        st.received += 1;
        match o.status {
            Status::Innovative | Status::Complete => st.innovative += 1,
            Status::Redundant => st.redundant += 1,
            Status::AfterComplete => st.after_complete += 1,
            Status::Invalid(_) => st.invalid += 1,
        }
        if let Some(m) = delivered {
            g.delivered.insert(id, m);
        }
        drop(g);
        if let Some(stop) = o.stop {
            sock.send_to(&stop.pack(), from).ok();
        }
    }
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
