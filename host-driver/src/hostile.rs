//! The hostile-input property every receive engine must hold, and the random streams that test
//! it (`tests/hostile_input.rs` runs it short; `decode-property` runs it long).
//!
//! A stream carries 1–3 messages (MSG_IDs sometimes reused, never with the same size, which
//! would be one message on the wire; k sometimes above the engine's k_max; two messages
//! sometimes interleaved) with loss, duplicates and local reordering, and every malformed kind of §6.3 ([`hdl::cblt::stimulus::Kind`]) injected at random positions;
//! one stream in four starts with a malformed packet. For each stream, on an engine:
//!
//! 1. **Agreement**: every packet's status (with its INVALID reason), rank, `known_mask` and
//!    STOP equal the golden model's (`Receiver`, fed directly), and so do the delivered
//!    messages and their records; every delivered message is byte for byte the one that was
//!    encoded.
//! 2. **INVALID changes nothing**: the stream with every INVALID packet removed, decoded on the
//!    same engine, gives every other packet the same status, rank, `known_mask` and STOP, and
//!    delivers the same messages.

use crate::stream::{decode_stream, Receive, RxConfig, StreamReport};
use hdl::cblt::decoder::Status;
use hdl::cblt::encoder::Encoder;
use hdl::cblt::header::Header;
use hdl::cblt::stimulus::{interleave, random_message, Kind};
use hdl::cblt::receiver::{Receiver, RxResult};
use hdl::cycle::Rng;

/// A random stream and the messages in it.
#[derive(Clone, Debug)]
pub struct Case {
    /// The packets, in order.
    pub packets: Vec<Vec<u8>>,
    /// Every message that was encoded into the stream: (its STOP header, its bytes).
    pub messages: Vec<(Header, Vec<u8>)>,
}

/// A random stream for a receiver built for `cfg` (see the module doc).
pub fn random_case(r: &mut Rng, cfg: RxConfig) -> Case {
    let s = cfg.s;
    let mut streams: Vec<Vec<Vec<u8>>> = vec![];
    let mut messages = vec![];
    let base_id = r.next() as u8;
    for m in 0..1 + r.below(3) {
        let msg = random_message(r, s, cfg.k_max);
        let (size, k) = (msg.len(), msg.len().div_ceil(s));
        let mut id = if r.below(5) == 0 { base_id } else { base_id.wrapping_add(m as u8) };
        // a reused ID with the same k and size is the same message on the wire: a sender must
        // not reuse an ID in flight (§6.6), so such a pair is not a test of the receiver
        if messages.iter().any(|(h, _): &(Header, Vec<u8>)| h.msg_id == id && h.msg_size as usize == size) {
            id = base_id.wrapping_add(m as u8);
        }
        let mut e = Encoder::with_default_table(&msg, s, id, (r.next() as u32).max(1)).expect("a valid message");
        messages.push((Header::new(k, size as u32, id, 0), msg));
        let (loss, dup, bad) = (r.below(40), r.below(15), 5 + r.below(20));
        let mut out: Vec<Vec<u8>> = vec![];
        for _ in 0..k + r.below(k as u64 + 12) as usize {
            let p = e.next_symbol().to_bytes();
            if r.below(100) < bad {
                let kind = Kind::ALL[r.below(Kind::ALL.len() as u64) as usize];
                out.push(kind.apply(&p, k, s, r));
            }
            if r.below(100) < loss {
                continue;
            }
            if r.below(100) < dup {
                out.push(p.clone());
            }
            out.push(p);
        }
        for i in 0..out.len() {
            if r.below(5) == 0 {
                let j = (i + 1 + r.below(3) as usize).min(out.len() - 1);
                out.swap(i, j);
            }
        }
        streams.push(out);
    }
    // two messages interleaved: the second one's symbols are INVALID while the first is open
    if streams.len() >= 2 && r.below(3) == 0 {
        let b = streams.pop().unwrap();
        let a = streams.pop().unwrap();
        streams.push(interleave(r, a, b));
    }
    let mut packets = streams.concat();
    if r.below(4) == 0 {
        let (h, msg) = &messages[0];
        let mut e = Encoder::with_default_table(msg, s, h.msg_id, 1).expect("a valid message");
        let kind = Kind::ALL[r.below(Kind::ALL.len() as u64) as usize];
        packets.insert(0, kind.apply(&e.next_symbol().to_bytes(), h.k(), s, r));
    }
    Case { packets, messages }
}

/// What the property covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Streams checked.
    pub streams: u64,
    /// Packets in them.
    pub packets: u64,
    /// INVALID packets among them (by the golden model).
    pub invalid: u64,
    /// Streams whose first packet was INVALID.
    pub invalid_first: u64,
    /// INVALID packets by reason code (index = `Invalid::code`).
    pub by_reason: [u64; 10],
    /// Messages delivered.
    pub delivered: u64,
    /// Messages left incomplete when their stream ended.
    pub incomplete: u64,
    /// Streams where two messages' symbols mixed (an OtherMessage INVALID).
    pub other_message: u64,
}

impl Coverage {
    /// Sum `o` into this coverage.
    pub fn add(&mut self, o: &Coverage) {
        self.streams += o.streams;
        self.packets += o.packets;
        self.invalid += o.invalid;
        self.invalid_first += o.invalid_first;
        for (a, b) in self.by_reason.iter_mut().zip(o.by_reason) {
            *a += b;
        }
        self.delivered += o.delivered;
        self.incomplete += o.incomplete;
        self.other_message += o.other_message;
    }
}

fn show(r: &RxResult) -> String {
    format!("{:?} rank {} known {:#x} stop {:?}", r.status, r.rank, r.known_mask, r.stop.map(|h| h.pack()))
}

fn len_hint(p: &[u8]) -> String {
    format!("{} bytes, header {}", p.len(), hdl::cblt::vectors::hex(&p[..p.len().min(12)]))
}

/// Check both halves of the property for `packets` on `rx`; the error says which packet and how.
pub fn check(rx: &mut dyn Receive, case: &Case) -> Result<Coverage, String> {
    let cfg = rx.config();
    let packets = &case.packets;
    let mut model = Receiver::new(cfg.s, cfg.k_max, 0).map_err(|e| e.to_string())?;
    let want: Vec<RxResult> = packets.iter().map(|p| model.push_packet(p)).collect();
    let got: StreamReport = decode_stream(rx, packets).map_err(|e| e.to_string())?;
    for (i, (g, w)) in got.packets.iter().zip(&want).enumerate() {
        if g != w {
            return Err(format!("packet {i} ({}): engine {}, model {}", len_hint(&packets[i]), show(g), show(w)));
        }
    }
    if got.packets.len() != want.len() {
        return Err(format!("{} results for {} packets", got.packets.len(), want.len()));
    }
    let delivered: Vec<&Vec<u8>> = got.delivered().filter_map(|m| m.bytes.as_ref()).collect();
    if delivered != model.messages.iter().collect::<Vec<_>>() {
        return Err(format!("delivered {} messages, the model {} (or their bytes differ)", delivered.len(), model.messages.len()));
    }
    let records: Vec<_> = got.delivered().filter_map(|m| m.record.clone()).collect();
    if records != model.records {
        return Err(format!("records {records:?}, the model's {:?}", model.records));
    }
    for m in got.delivered() {
        if !case.messages.iter().any(|(h, b)| *h == m.header && Some(b) == m.bytes.as_ref()) {
            return Err(format!("delivered message {:?} (opened at packet {}) is none of the encoded messages", m.header, m.opened_at));
        }
    }
    // INVALID changes nothing: decode the stream without them on the same engine
    let keep: Vec<usize> = (0..packets.len()).filter(|&i| !matches!(want[i].status, Status::Invalid(_))).collect();
    let clean: Vec<Vec<u8>> = keep.iter().map(|&i| packets[i].clone()).collect();
    let again = decode_stream(rx, &clean).map_err(|e| e.to_string())?;
    for (n, &i) in keep.iter().enumerate() {
        if again.packets[n] != got.packets[i] {
            return Err(format!(
                "packet {i} ({}): {} with the INVALID packets in the stream, {} without them",
                len_hint(&packets[i]),
                show(&got.packets[i]),
                show(&again.packets[n])
            ));
        }
    }
    let bytes = |r: &StreamReport| r.delivered().map(|m| (m.header, m.bytes.clone())).collect::<Vec<_>>();
    if bytes(&again) != bytes(&got) {
        return Err("the stream without its INVALID packets delivers other messages".into());
    }
    let mut c = Coverage { streams: 1, packets: packets.len() as u64, ..Default::default() };
    for w in &want {
        if let Status::Invalid(why) = w.status {
            c.invalid += 1;
            c.by_reason[why.code() as usize] += 1;
        }
    }
    c.invalid_first = matches!(want.first().map(|w| w.status), Some(Status::Invalid(_))) as u64;
    c.other_message = (c.by_reason[hdl::cblt::header::Invalid::OtherMessage.code() as usize] > 0) as u64;
    c.delivered = got.delivered().count() as u64;
    c.incomplete = got.messages.len() as u64 - c.delivered;
    Ok(c)
}

/// Run the property on `n` random streams from `seed`; stop at the first failure.
pub fn run(rx: &mut dyn Receive, seed: u64, n: u64, mut progress: impl FnMut(u64, &Coverage)) -> Result<Coverage, String> {
    let mut r = Rng::new(seed);
    let cfg = rx.config();
    let mut total = Coverage::default();
    for i in 0..n {
        let case = random_case(&mut r, cfg);
        let c = check(rx, &case).map_err(|e| format!("S = {}, k_max = {}, seed {seed}, stream {i}: {e}", cfg.s, cfg.k_max))?;
        total.add(&c);
        progress(i + 1, &total);
    }
    Ok(total)
}

/// The coverage as one line per figure.
pub fn summary(c: &Coverage) -> String {
    use hdl::cblt::header::Invalid;
    let reasons: Vec<String> = (1..10u8).filter_map(|code| Invalid::from_code(code).map(|r| format!("{}: {}", r.as_str(), c.by_reason[code as usize]))).collect();
    format!(
        "{} streams, {} packets, {} INVALID ({} streams starting with one; {} with two messages mixed), {} messages delivered, {} left incomplete\nINVALID by reason: {}",
        c.streams,
        c.packets,
        c.invalid,
        c.invalid_first,
        c.other_message,
        c.delivered,
        c.incomplete,
        reasons.join("; ")
    )
}
