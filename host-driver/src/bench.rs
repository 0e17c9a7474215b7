//! `cbnic bench`: software CB-LT encode and decode throughput beside the `raptorq` crate
//! (RFC 6330) on the same messages, measured in one run. Both sides get the same work:
//!
//! * **encode**: build the encoder for a message of k symbols of S bytes and produce 1.5·k
//!   packets (RaptorQ: its k source packets and k/2 repair packets, which needs its whole
//!   precode; CB-LT: 1.5·k coded symbols);
//! * **decode**: build the decoder and feed it the packets in sending order with one third of
//!   them lost (the same loss pattern for both) until it returns the message.
//!
//! Throughput is message bytes per second of wall time, the mean over repetitions that fill at
//! least `min_secs`. RaptorQ uses S-byte symbols too (alignment 4, one source block).

use hdl::cblt::decoder::Decoder;
use hdl::cblt::encoder::Encoder;
use hdl::cblt::vectors::msg_b;
use raptorq::{EncodingPacket, ObjectTransmissionInformation};
use std::time::Instant;

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Row {
    /// Source symbols per message.
    pub k: usize,
    /// Message bytes, k·S.
    pub bytes: usize,
    /// CB-LT encode throughput, MB/s of message.
    pub cblt_enc: f64,
    /// RaptorQ encode throughput, MB/s of message.
    pub rq_enc: f64,
    /// CB-LT decode throughput, MB/s of message.
    pub cblt_dec: f64,
    /// RaptorQ decode throughput, MB/s of message.
    pub rq_dec: f64,
}

/// Run `f` until `min_secs` have passed (at least 3 times); mean seconds per run.
fn time_it(min_secs: f64, mut f: impl FnMut()) -> f64 {
    let t0 = Instant::now();
    let mut n = 0u32;
    while n < 3 || t0.elapsed().as_secs_f64() < min_secs {
        f();
        n += 1;
    }
    t0.elapsed().as_secs_f64() / n as f64
}

/// The loss pattern: packet i is lost when a hash of i is 0 mod 3 (a third, deterministic).
fn lost(i: usize) -> bool {
    ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33).is_multiple_of(3)
}

/// Measure both codecs at k symbols of `s` bytes, each for at least `min_secs`.
pub fn measure(k: usize, s: usize, min_secs: f64) -> Row {
    let bytes = k * s;
    let msg = msg_b(bytes);
    let n_enc = k + k.div_ceil(2);
    let cfg = ObjectTransmissionInformation::new(bytes as u64, s as u16, 1, 1, 4);

    let cblt_enc = time_it(min_secs, || {
        let mut e = Encoder::with_default_table(&msg, s, 1, 0x1234_5678).unwrap();
        for _ in 0..n_enc {
            std::hint::black_box(e.next_symbol());
        }
    });
    let rq_enc = time_it(min_secs, || {
        let e = raptorq::Encoder::new(&msg, cfg);
        std::hint::black_box(e.get_encoded_packets(k.div_ceil(2) as u32));
    });

    // decode inputs, generated once: enough packets to survive the loss
    let mut e = Encoder::with_default_table(&msg, s, 1, 0x1234_5678).unwrap();
    let cblt_pkts: Vec<_> = (0..4 * k + 100).map(|_| e.next_symbol()).enumerate().filter(|(i, _)| !lost(*i)).map(|(_, c)| c).collect();
    let rq_pkts: Vec<EncodingPacket> = raptorq::Encoder::new(&msg, cfg)
        .get_encoded_packets(3 * k as u32 + 100)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !lost(*i))
        .map(|(_, p)| p)
        .collect();
    let cblt_dec = time_it(min_secs, || {
        let mut d = Decoder::new(s).unwrap();
        for c in &cblt_pkts {
            d.push(&c.header, &c.payload);
            if d.is_complete() {
                break;
            }
        }
        assert_eq!(d.message().as_deref(), Some(&msg[..]), "CB-LT did not decode");
    });
    let rq_dec = time_it(min_secs, || {
        let mut d = raptorq::Decoder::new(cfg);
        let mut out = None;
        for p in &rq_pkts {
            out = d.decode(p.clone());
            if out.is_some() {
                break;
            }
        }
        assert_eq!(out.as_deref(), Some(&msg[..]), "RaptorQ did not decode");
    });
    let mbps = |secs: f64| bytes as f64 / secs / 1e6;
    Row { k, bytes, cblt_enc: mbps(cblt_enc), rq_enc: mbps(rq_enc), cblt_dec: mbps(cblt_dec), rq_dec: mbps(rq_dec) }
}

/// The table as Markdown.
pub fn table(rows: &[Row], s: usize) -> String {
    let mut t = format!(
        "| k | message bytes (S = {s}) | CB-LT encode MB/s | RaptorQ encode MB/s | ratio | CB-LT decode MB/s | RaptorQ decode MB/s | ratio |\n|---|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        t += &format!(
            "| {} | {} | {:.0} | {:.0} | {:.2} | {:.0} | {:.0} | {:.2} |\n",
            r.k,
            r.bytes,
            r.cblt_enc,
            r.rq_enc,
            r.cblt_enc / r.rq_enc,
            r.cblt_dec,
            r.rq_dec,
            r.cblt_dec / r.rq_dec
        );
    }
    t
}
