//! The codec against every check value of CB-LT §6.4 and §9.

use super::decoder::{Decoder, Status};
use super::encoder::{CodedSymbol, Encoder, MaskGenerator};
use super::header::{Header, Invalid};
use super::prng::XorShift32;
use super::table::{DegreeTable, Profile};
use super::*;
use super::vectors::{hex, msg_a, msg_b, sha256_hex};

fn sha(b: &[u8]) -> String {
    sha256_hex(b)
}
fn stream(msg: &[u8], s: usize, id: u8, seed: u32, n: usize) -> Vec<CodedSymbol> {
    let mut e = Encoder::with_default_table(msg, s, id, seed).unwrap();
    (0..n).map(|_| e.next_symbol()).collect()
}
/// Push symbols `js` of `syms`; the status letters with the rank after each, `j:Lr`.
fn decode(syms: &[CodedSymbol], js: &[usize], s: usize) -> (Vec<String>, Decoder) {
    let mut d = Decoder::new(s).unwrap();
    let log = js
        .iter()
        .map(|&j| {
            let st = d.push_packet(&syms[j].to_bytes());
            format!("{j}:{}{}", st.letter(), d.rank())
        })
        .collect();
    (log, d)
}
fn split(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn prng_check_values() {
    assert_eq!(XorShift32::new(2463534242).unwrap().next(), 723471715);
    let mut r = XorShift32::new(0x12345678).unwrap();
    let got: Vec<u32> = (0..8).map(|_| r.next()).collect();
    assert_eq!(got, [0x87985aa5, 0x155b24a3, 0x4820f4c4, 0x81b3ac98, 0x703a0788, 0x29a8e24d, 0x89ca4f1d, 0xc5186e29]);
    assert_eq!(XorShift32::new(0), Err(CbltError::ZeroSeed));
}

#[test]
fn default_tables_match_the_checksum_and_the_printed_rows() {
    assert_eq!(sha(DegreeTable::canonical_text().as_bytes()), "6f1a76a42a91b6d68ba4bda12aed66ae1f769748bb5e721c8bcf43232ddc196a");
    let rows: [(usize, &[u32]); 5] = [
        (2, &[35693]),
        (3, &[24780, 56081]),
        (4, &[19484, 49867, 60949]),
        (5, &[16308, 45992, 56811, 62682]),
        (8, &[11258, 38972, 49034, 54478, 57991, 60499, 62408]),
    ];
    for (k, want) in rows {
        let t = DegreeTable::default_for(k).unwrap();
        assert_eq!(&t.entries()[..k - 1], want, "k = {k}");
        assert!(t.entries()[k - 1..].iter().all(|&v| v == 65536));
    }
    let mean = |k: usize| {
        let t = DegreeTable::default_for(k).unwrap();
        let mut prev = 0.0;
        (1..=k).map(|d| {
            let c = if d == k { 65536.0 } else { t.entry(d) as f64 };
            let p = (c - prev) / 65536.0;
            prev = c;
            p * d as f64
        }).sum::<f64>()
    };
    for (k, m) in [(4, 2.01), (7, 2.68), (14, 3.75), (35, 4.87), (64, 5.77)] {
        assert!((mean(k) - m).abs() < 0.006, "k {k}: mean degree {}", mean(k));
    }
}

#[test]
fn table_validation_rejects_what_can_never_decode() {
    // TV-F1 (fixed degree 2) and TV-F2 (fixed 5 at k = 4), fixed 4 everywhere
    assert!(matches!(Profile::Fixed(2).table(8).unwrap().validate(8), Err(CbltError::Undecodable { .. })));
    assert!(matches!(Profile::Fixed(5).table(4).unwrap().validate(4), Err(CbltError::Undecodable { .. })));
    for k in 2..=64 {
        assert!(Profile::Fixed(4).table(k).unwrap().validate(k).is_err(), "fixed 4 at k {k}");
        assert!(DegreeTable::default_for(k).unwrap().validate(k).is_ok());
        assert!(Profile::Uniform1To5.table(k).unwrap().validate(k).is_ok());
    }
    // §8: fixed 5 never decodes at k = 4 but does at 7 (odd d < k)
    assert!(Profile::Fixed(5).table(7).unwrap().validate(7).is_ok());
    // {2, k} with k odd reaches full rank; with k even it cannot
    let two_or_k = DegreeTable::from_entries(&[0, 30000]).unwrap();
    assert!(two_or_k.validate(3).is_ok());
    assert!(DegreeTable::from_entries(&[0, 30000, 30000]).unwrap().validate(4).is_err());
    assert!(DegreeTable::from_entries(&[5, 4]).is_err());
    assert!(DegreeTable::from_entries(&[70000]).is_err());
    assert_eq!(Profile::DEFAULT.table(65), Err(CbltError::KOutOfRange(65)));
}

#[test]
fn headers_pack_parse_and_validate() {
    let h = Header::new(4, 64, 0x2A, 0x3);
    assert_eq!(hex(&h.pack()), "0c00402a0000000000000003");
    assert_eq!(hex(&Header::new(64, 93440, 0xFF, 0x0400000000000000).pack()), "fd6d00ff0400000000000000");
    assert_eq!(Header::parse(&h.pack()).unwrap(), h);
    assert_eq!(Header::parse(&[0; 11]), Err(Invalid::Truncated));
    let ok = |h: Header| h.check_data(16, 28);
    assert_eq!(ok(h), Ok(()));
    assert_eq!(ok(Header { msg_size: 0, ..h }), Err(Invalid::MsgSizeZero));
    assert_eq!(ok(Header { msg_size: 64 * 16 + 1, npkt: 63, ..h }), Err(Invalid::MsgSizeTooLarge));
    assert_eq!(ok(Header { msg_size: 65, ..h }), Err(Invalid::NpktMismatch));
    assert_eq!(ok(h.stop()), Err(Invalid::EmptyBitset));
    assert_eq!(ok(Header { bitset: 0x10, ..h }), Err(Invalid::BitsetBeyondK));
    assert_eq!(h.check_data(16, 27), Err(Invalid::PayloadLength));
    assert_eq!(Header::new(64, 93440, 1, u64::MAX).check_data(1460, 1472), Ok(()));
}

#[test]
fn tv_e1_encode() {
    let syms = stream(&msg_a(64), 16, 0x2A, 0x12345678, 12);
    let want = "0x3 2 3 50b0f0b070d0d050b0f0b050d0d070b0|0x3 2 3 50b0f0b070d0d050b0f0b050d0d070b0|\
        0x9 2 4 f0101010107030f01010103070301010|0xa 2 3 a0a0e0a060a0e0a0a0e0a060a0e060a0|\
        0x4 1 2 abd0f51a3f6489aed3f81d42678cb1d6|0xf 4 1 004040c0c00080004040c0800080c040|\
        0xb 3 5 ab90b5daff6409ae93b8ddc2670c7196|0xd 3 6 5bc0e50a2f14b95ec3e80d7217bca1c6|\
        0xa 2 3 a0a0e0a060a0e0a0a0e0a060a0e060a0|0x8 1 2 fb20456a8fb4d9fe23486d92b7dc0126|\
        0xc 2 3 50f0b070b0d05050f0b070d0d050b0f0|0xc 2 3 50f0b070b0d05050f0b070d0d050b0f0";
    let got: Vec<String> =
        syms.iter().map(|c| format!("{:#x} {} {} {}", c.header.bitset, c.degree, c.draws, hex(&c.payload))).collect();
    assert_eq!(got.join("|"), want);
    assert_eq!(hex(&syms[0].header.pack()), "0c00402a0000000000000003");
    let e = Encoder::with_default_table(&msg_a(64), 16, 0x2A, 0x12345678).unwrap();
    assert_eq!(hex(e.source(0)), "0b30557a9fc4e90e33587da2c7ec1136");
    assert_eq!(hex(e.source(3)), "fb20456a8fb4d9fe23486d92b7dc0126");
}

#[test]
fn tv_d1_to_d6_decode() {
    let syms = stream(&msg_a(64), 16, 0x2A, 0x12345678, 12);
    let a4: String = (6..12).map(|j| format!(" {j}:A4")).collect();
    let (log, d) = decode(&syms, &(0..12).collect::<Vec<_>>(), 16);
    assert_eq!(log, split(&format!("0:I1 1:R1 2:I2 3:R2 4:I3 5:C4{a4}")));
    assert_eq!(d.message().unwrap(), msg_a(64));
    assert_eq!(d.stop().unwrap().pack()[..4], syms[0].header.pack()[..4]);
    let (log, d) = decode(&syms, &(3..12).collect::<Vec<_>>(), 16);
    assert_eq!(log, split("3:I1 4:I2 5:I3 6:R3 7:C4 8:A4 9:A4 10:A4 11:A4"));
    assert_eq!(d.message().unwrap(), msg_a(64));
    let (log, d) = decode(&syms, &[0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 16);
    assert_eq!(log, split(&format!("0:I1 0:R1 1:R1 1:R1 2:I2 2:R2 3:R2 4:I3 5:C4{a4}")));
    assert_eq!(d.message().unwrap(), msg_a(64));
    let (log, d) = decode(&syms, &(0..12).rev().collect::<Vec<_>>(), 16);
    assert_eq!(log, split("11:I1 10:R1 9:I2 8:I3 7:C4 6:A4 5:A4 4:A4 3:A4 2:A4 1:A4 0:A4"));
    assert_eq!(d.message().unwrap(), msg_a(64));
    // D5a: rank 3, nothing known, the reference RREF rows
    let (log, d) = decode(&syms, &[0, 1, 3, 8, 10, 11], 16);
    assert_eq!(log, split("0:I1 1:R1 3:I2 8:R2 10:I3 11:R3"));
    assert_eq!((d.rank(), d.known_mask(), d.message()), (3, 0, None));
    let rows: Vec<String> = (0..3).map(|q| d.row(q).map(|(c, y)| format!("{c:#x} {}", hex(y))).unwrap()).collect();
    assert_eq!(rows, ["0x9 f0101010107030f01010103070301010", "0xa a0a0e0a060a0e0a0a0e0a060a0e060a0", "0xc 50f0b070b0d05050f0b070d0d050b0f0"]);
    // D5b: x_2, x_3 known
    let (log, d) = decode(&syms, &[0, 4, 9], 16);
    assert_eq!(log, split("0:I1 4:I2 9:I3"));
    assert_eq!((d.rank(), d.known_mask()), (3, 0xc));
    // D6: invalid symbols never change state
    let mut d = Decoder::new(16).unwrap();
    let bad = |m: u64| CodedSymbol { header: Header { bitset: m, ..syms[0].header }, ..syms[0].clone() };
    for m in [0x10, 0] {
        assert!(matches!(d.push_packet(&bad(m).to_bytes()), Status::Invalid(_)));
        assert_eq!((d.rank(), d.k()), (0, None));
    }
    assert_eq!(d.invalid, 2);
}

#[test]
fn tv_e2_padding_and_e3_k1() {
    let syms = stream(&msg_a(70), 16, 1, 0xCAFEBABE, 12);
    let got: Vec<String> = syms.iter().map(|c| format!("{:#x}/{}/{}", c.header.bitset, c.degree, c.draws)).collect();
    assert_eq!(
        got.join(" "),
        "0x14/2/5 0x2/1/4 0x3/2/3 0x14/2/3 0xa/2/4 0x6/2/4 0xd/3/11 0x3/2/4 0x13/3/10 0x3/2/4 0x7/3/6 0x1f/5/1"
    );
    assert_eq!(hex(&syms[8].payload), "1bc0650aafd4d050b0f0b050d0d070b0");
    assert_eq!(hex(&syms[11].payload), "4b30d57a1f0480004040c0800080c040");
    let (log, d) = decode(&syms, &(0..12).collect::<Vec<_>>(), 16);
    let a5: String = (6..12).map(|j| format!(" {j}:A5")).collect();
    assert_eq!(log, split(&format!("0:I1 1:I2 2:I3 3:R3 4:I4 5:C5{a5}")));
    assert_eq!(d.message().unwrap(), msg_a(70));
    let msg: Vec<u8> = (0..10).collect();
    for c in stream(&msg, 16, 1, 1, 20) {
        assert_eq!((c.header.bitset, c.degree, c.draws, hex(&c.payload)), (1, 1, 1, "00010203040506070809000000000000".into()));
    }
}

#[test]
fn tv_f1_f2_undecodable_tables_saturate() {
    let t = Profile::Fixed(2).table(8).unwrap();
    assert!(Encoder::new(&msg_a(128), 16, 1, 0x9E3779B9, t.clone()).is_err());
    let mut e = Encoder::new_unvalidated(&msg_a(128), 16, 1, 0x9E3779B9, t).unwrap();
    let syms: Vec<CodedSymbol> = (0..200).map(|_| e.next_symbol()).collect();
    let first: Vec<u64> = syms[..10].iter().map(|c| c.header.bitset).collect();
    assert_eq!(first, [0x88, 0xa0, 0x21, 0xc, 0x5, 0x81, 0x28, 0x22, 0x84, 0x30]);
    let (_, d) = decode(&syms, &(0..200).collect::<Vec<_>>(), 16);
    assert_eq!((d.rank(), d.redundant, d.is_complete()), (7, 193, false));
    let mut g = MaskGenerator::new_unvalidated(4, 0x12345678, Profile::Fixed(5).table(4).unwrap()).unwrap();
    let mut e = Encoder::new_unvalidated(&msg_a(64), 16, 1, 0x12345678, Profile::Fixed(5).table(4).unwrap()).unwrap();
    let syms: Vec<CodedSymbol> = (0..50).map(|_| e.next_symbol()).collect();
    assert!((0..50).all(|_| g.next_mask() == (0xf, 4, 1)));
    let (_, d) = decode(&syms, &(0..50).collect::<Vec<_>>(), 16);
    assert_eq!(d.rank(), 1);
}

/// TV-E4/E5/E6: the 200-symbol stream digests, draws, and the decode patterns.
#[test]
fn tv_e4_e5_e6_big_streams() {
    struct Big {
        k: usize,
        size: usize,
        seed: u32,
        msg_sha: &'static str,
        y0_sha: &'static str,
        digest: &'static str,
        /// (pattern, complete at j, symbols used, redundant) for in order, drop j%4==1, drop j%3==0
        patterns: [(usize, u64); 3],
        /// reverse of the in-order prefix: COMPLETE at this j
        reverse_at: usize,
        partial: (usize, u64),
    }
    let cases = [
        Big { k: 64, size: 93440, seed: 0x0BADF00D, msg_sha: "7659b25f15bfd38a6d97d2f339621fa22eb141ce518fedf029c0aded725d8888",
            y0_sha: "bfeb562ab04cbf88b909bdba5f12229824cd8729f255d3a0c1267ae9cd81a6ed",
            digest: "741fd17162b246844b9aae01de2d4ba88952b51a0cecb840348da80f4336841e",
            patterns: [(66, 67), (92, 70), (97, 65)], reverse_at: 0, partial: (63, 0xf5df2beedcf9f4d3) },
        Big { k: 35, size: 50000, seed: 0x2468ACE1, msg_sha: "6d635d7faf915407d6965ac6d317bd2e1534c96a3b3c4719115d82891e6b36f3",
            y0_sha: "14c25999e8131bdc1c2885f0b00706cf450cd6cf66734637c9f09b54015fcf8e",
            digest: "34ee1380e36ae826bdfdc2e694ac1b8aea2a957d4af08456f1f514df822f9d61",
            patterns: [(37, 38), (51, 39), (58, 39)], reverse_at: 1, partial: (34, 0x69d3b7870) },
        Big { k: 14, size: 20000, seed: 0x13579BDF, msg_sha: "382cf6be4536fa0fd86b6e5c341e5dd6b64d084c4078c10db2e00203aa1cf2a8",
            y0_sha: "61851678e3167d11a06df3337e74eeee132e3bc565da01ad3fb94d04b0699f37",
            digest: "8864ddcc523466e5fcf9b0cefeef6a323e56386ee0a9af0377698c8457f3c4af",
            patterns: [(14, 15), (22, 17), (25, 17)], reverse_at: 0, partial: (13, 0xda3) },
    ];
    for c in cases {
        let msg = msg_b(c.size);
        assert_eq!(sha(&msg), c.msg_sha);
        let id = if c.k == 64 { 0xFF } else { 1 };
        let syms = stream(&msg, 1460, id, c.seed, 200);
        assert_eq!(sha(&syms[0].payload), c.y0_sha);
        let mut cat = vec![];
        for s in &syms {
            cat.extend_from_slice(&s.header.bitset.to_be_bytes());
            cat.extend_from_slice(&s.payload);
        }
        assert_eq!(sha(&cat), c.digest, "k {}", c.k);
        let orders: [Vec<usize>; 3] = [
            (0..200).collect(),
            (0..200).filter(|j| j % 4 != 1).collect(),
            (0..200).filter(|j| j % 3 != 0).collect(),
        ];
        for (order, (at, used)) in orders.iter().zip(c.patterns) {
            let mut d = Decoder::new(1460).unwrap();
            let mut done = None;
            for (n, &j) in order.iter().enumerate() {
                if d.push_packet(&syms[j].to_bytes()) == Status::Complete {
                    done = Some((j, n + 1));
                    break;
                }
            }
            assert_eq!(done, Some((at, used as usize)), "k {}", c.k);
            assert_eq!(d.message().unwrap(), msg);
        }
        // reverse of the in-order prefix completes at the spec's j with the same bytes
        let prefix = c.patterns[0].0;
        let (log, d) = decode(&syms, &(0..=prefix).rev().collect::<Vec<_>>(), 1460);
        let done: Vec<&String> = log.iter().filter(|l| l.contains(":C")).collect();
        assert_eq!(done, [&format!("{}:C{}", c.reverse_at, c.k)], "k {}", c.k);
        assert_eq!(d.message().unwrap(), msg);
        let (_, d) = decode(&syms, &(0..prefix).collect::<Vec<_>>(), 1460);
        assert_eq!((d.rank(), d.known_mask()), c.partial, "k {}", c.k);
    }
    // TV-E4's draws and the first masks
    let mut g = MaskGenerator::new(64, 0x0BADF00D, DegreeTable::default_for(64).unwrap()).unwrap();
    let first: Vec<(u64, usize, u32)> = (0..200).map(|_| g.next_mask()).collect();
    assert_eq!(first.iter().map(|m| m.2 as u64).sum::<u64>(), 1559);
    assert_eq!(first[4], (0x7d5e0137ac6a6843, 31, 46));
    assert_eq!(first[10], (0x01009889204222b8, 16, 19));
}

#[test]
fn bad_messages_and_parameters_are_refused() {
    let t = || DegreeTable::default_for(4).unwrap();
    assert_eq!(Encoder::new(&[], 16, 1, 1, t()).err(), Some(CbltError::EmptyMessage));
    assert_eq!(Encoder::with_default_table(&vec![0; 93441], 1460, 1, 1).err(), Some(CbltError::MessageTooLarge { size: 93441, max: 93440 }));
    assert!(Encoder::with_default_table(&vec![0; 93440], 1460, 1, 1).is_ok());
    assert_eq!(Encoder::new(&[1; 64], 16, 1, 0, t()).err(), Some(CbltError::ZeroSeed));
    assert_eq!(Encoder::new(&[1; 64], 0, 1, 1, t()).err(), Some(CbltError::SymbolSize(0)));
    assert_eq!(Decoder::new(4096).err(), Some(CbltError::SymbolSize(4096)));
    // S and S + 1 bytes: no padding, a 1-byte tail
    for n in [16, 17] {
        let syms = stream(&msg_a(n), 16, 1, 7, 40);
        let mut d = Decoder::new(16).unwrap();
        syms.iter().for_each(|s| {
            d.push_packet(&s.to_bytes());
        });
        assert_eq!(d.message().unwrap(), msg_a(n));
    }
}

/// §8's mean extra symbols, from 1,000 of its trials per k (deterministic seeds): within 0.5 of
/// the 20,000-trial figures (the standard error at 1,000 trials is about 0.1).
#[test]
fn decode_overhead_matches_section_8() {
    for (k, spec) in [(4, 1.25), (7, 1.95), (14, 2.79), (35, 4.09), (64, 4.65)] {
        let mean = (0..1000).map(|t| extra_symbols(k, t)).sum::<usize>() as f64 / 1000.0;
        assert!((mean - spec).abs() < 0.5, "k {k}: mean extra {mean}, §8 {spec}");
    }
}
