//! Hostile input on every engine (`host_driver::hostile`, `host_driver::stream`): the software
//! engine and the small simulated NIC agree packet by packet with the golden model on random
//! streams with every §6.3 malformed kind, and INVALID packets change nothing; a malformed first
//! packet, an oversize packet and a stream of several messages, each on every engine.

use hdl::cblt::decoder::Status;
use hdl::cblt::encoder::Encoder;
use hdl::cblt::header::{Header, Invalid};
use hdl::cblt::stimulus::Kind;
use hdl::cblt::receiver::{Receiver, RxRecord, RxResult};
use hdl::cblt::vectors::msg_b;
use hdl::cblt::HEADER_LEN;
use host_driver::device::Result;
use host_driver::hostile;
use host_driver::nic::FecNic;
use host_driver::stream::{decode_stream, Receive, RxConfig, SoftReceiver, StreamReport};
use rtl_sim::nic::NicBuild;

mod common;
use common::sim;

const SMALL: RxConfig = RxConfig { s: 64, k_max: 16 };

#[test]
fn property_holds_on_the_software_engine() {
    for (i, cfg) in [RxConfig { s: 1460, k_max: 64 }, SMALL, RxConfig { s: 16, k_max: 64 }].into_iter().enumerate() {
        let mut rx = SoftReceiver::new(cfg).unwrap();
        let c = hostile::run(&mut rx, 100 + i as u64, 300, |_, _| {}).unwrap_or_else(|e| panic!("{e}"));
        println!("soft S = {}: {}", cfg.s, hostile::summary(&c));
        // every reason the configuration can produce was produced, and every case of the issue
        let reachable = if cfg.k_max < 64 { 1..=9 } else { 1..=8 };
        for code in reachable {
            assert!(c.by_reason[code] > 0, "S = {}: no INVALID with reason {code}", cfg.s);
        }
        assert!(c.invalid_first > 30 && c.other_message > 10 && c.delivered > 100 && c.incomplete > 0, "{c:?}");
    }
}

#[test]
fn property_holds_on_the_small_nic() {
    let mut nic = sim(NicBuild::SMALL);
    let c = hostile::run(&mut nic, 7, 150, |_, _| {}).unwrap_or_else(|e| panic!("{e}"));
    println!("sim-small: {}", hostile::summary(&c));
    for code in 1..=9 {
        assert!(c.by_reason[code] > 0, "no INVALID with reason {code}");
    }
    assert!(c.invalid_first > 10 && c.other_message > 3 && c.delivered > 50, "{c:?}");
}

/// The bug this property was written for: a receiver that takes S from the first packet long
/// enough to have a payload (the software engine's old rule).
struct InferS {
    k_max: usize,
    rx: Option<Receiver>,
}

impl Receive for InferS {
    fn config(&self) -> RxConfig {
        RxConfig { s: 64, k_max: self.k_max }
    }
    fn clear(&mut self) -> Result<()> {
        self.rx = None;
        Ok(())
    }
    fn push(&mut self, p: &[u8]) -> Result<RxResult> {
        if self.rx.is_none() && p.len() > HEADER_LEN {
            self.rx = Some(Receiver::new((p.len() - HEADER_LEN).min(4095), self.k_max, 0).unwrap());
        }
        Ok(match self.rx.as_mut() {
            Some(r) => r.push_packet(p),
            None => Receiver::new(64, self.k_max, 0).unwrap().push_packet(p),
        })
    }
    fn take_delivery(&mut self) -> Result<(Vec<u8>, RxRecord)> {
        let r = self.rx.as_mut().unwrap();
        Ok((r.messages.remove(0), r.records.remove(0)))
    }
}

#[test]
fn the_property_catches_a_receiver_that_infers_s_from_traffic() {
    let e = hostile::run(&mut InferS { k_max: 16, rx: None }, 7, 200, |_, _| {}).expect_err("S taken from traffic must break the property");
    assert!(e.contains("engine") && e.contains("model"), "{e}");
}

/// Symbols of a message of `size` bytes at S = 64, id `id`, until one more than needed to
/// complete it (so the last one is AFTER_COMPLETE), from the golden decoder.
fn symbols_until_complete(size: usize, id: u8, seed: u32) -> (Vec<u8>, Vec<Vec<u8>>) {
    let msg = msg_b(size);
    let mut e = Encoder::with_default_table(&msg, SMALL.s, id, seed).unwrap();
    let mut d = Receiver::new(SMALL.s, SMALL.k_max, 0).unwrap();
    let mut out = vec![];
    while d.messages.is_empty() {
        out.push(e.next_symbol().to_bytes());
        d.push_packet(out.last().unwrap());
    }
    out.push(e.next_symbol().to_bytes());
    (msg, out)
}

fn both(packets: &[Vec<u8>]) -> (StreamReport, StreamReport) {
    let soft = decode_stream(&mut SoftReceiver::new(SMALL).unwrap(), packets).unwrap();
    let mut nic: FecNic = sim(NicBuild::SMALL);
    let hw = nic.decode(packets).unwrap();
    (soft, hw)
}

/// The first case: one malformed datagram at the head of a stream, of every kind
/// (a wrong length among them), loses nothing on either engine.
#[test]
fn a_malformed_first_packet_changes_nothing_on_every_engine() {
    let (msg, clean) = symbols_until_complete(900, 5, 0x1234);
    let mut nic = sim(NicBuild::SMALL);
    let mut r = hdl::cycle::Rng::new(1);
    let base = decode_stream(&mut SoftReceiver::new(SMALL).unwrap(), &clean).unwrap();
    for kind in Kind::ALL {
        let mut stream = vec![kind.apply(&clean[0], 15, SMALL.s, &mut r)];
        stream.extend(clean.iter().cloned());
        let soft = decode_stream(&mut SoftReceiver::new(SMALL).unwrap(), &stream).unwrap();
        let hw = nic.decode(&stream).unwrap();
        assert_eq!(soft, hw, "{kind:?}");
        assert_eq!(soft.packets[0].status, Status::Invalid(kind.reason(15)), "{kind:?}");
        assert_eq!(soft.packets[1..], base.packets[..], "{kind:?}");
        assert_eq!(soft.messages.len(), 1);
        assert_eq!(soft.messages[0].bytes.as_deref(), Some(&msg[..]), "{kind:?}");
        assert_eq!(soft.messages[0].record.as_ref().unwrap().invalid, 0, "{kind:?}: the context opened after it");
    }
}

/// A packet longer than any UDP payload (a long symbol-file line) is INVALID on every engine,
/// also while a context is open, never an error; and 2^16 + 12 + S bytes is not mistaken for
/// 12 + S by the NIC's 16-bit length register.
#[test]
fn an_oversize_packet_is_invalid_on_every_engine() {
    let (msg, clean) = symbols_until_complete(900, 6, 0x99);
    let mut stream = clean.clone();
    let mut alias = clean[1].clone();
    alias.resize(65_536 + HEADER_LEN + SMALL.s, 0);
    stream.insert(0, alias.clone());
    stream.insert(2, alias);
    let mut huge = clean[2].clone();
    huge.resize(200_000, 0x5A);
    stream.insert(3, huge);
    let (soft, hw) = both(&stream);
    assert_eq!(soft, hw);
    for i in [0, 2, 3] {
        assert_eq!(soft.packets[i].status, Status::Invalid(Invalid::PayloadLength), "packet {i}");
    }
    assert_eq!(soft.messages[0].bytes.as_deref(), Some(&msg[..]));
}

/// The second case: a stream with a second message after the first completed gives
/// one result per message (its k, size, bytes and STOP) on every engine, the first message's
/// late symbols AFTER_COMPLETE; a third message that never completes is reported as such.
#[test]
fn a_stream_of_several_messages_gives_one_result_per_message_on_every_engine() {
    let (m1, s1) = symbols_until_complete(900, 1, 11);
    let (m2, s2) = symbols_until_complete(130, 2, 22);
    let (_, s3) = symbols_until_complete(1000, 3, 33);
    let mut stream = s1.clone();
    stream.push(s1[0].clone());
    // message 3's first symbol while message 2 is open is INVALID (one context)
    stream.push(s2[0].clone());
    stream.push(s3[0].clone());
    stream.extend(s2[1..].iter().cloned());
    stream.extend(s3[1..4].iter().cloned());
    let (soft, hw) = both(&stream);
    assert_eq!(soft, hw);
    let at = s1.len() + 2;
    assert_eq!(soft.packets[at].status, Status::Invalid(Invalid::OtherMessage));
    let ms = &soft.messages;
    assert_eq!(ms.len(), 3);
    let want = [(1u8, 15usize, 900u32, Some(&m1)), (2, 3, 130, Some(&m2)), (3, 16, 1000, None)];
    for (m, (id, k, size, bytes)) in ms.iter().zip(want) {
        assert_eq!((m.header.msg_id, m.k(), m.header.msg_size), (id, k, size));
        assert_eq!(m.bytes.as_ref(), bytes);
        assert_eq!(m.stop(), bytes.map(|_| Header::new(k, size, id, 0)));
    }
    // s1's last symbol and s1[0] came after message 1 completed, s2's last one after message 2
    assert_eq!((ms[0].after_complete, ms[1].after_complete), (2, 1));
    assert_eq!(ms[0].record.as_ref().unwrap().seen as usize, s1.len() - 1);
    assert!(ms[2].rank >= 1 && ms[2].rank < 16 && !ms[2].delivered());
    assert!(!soft.all_delivered());
}
