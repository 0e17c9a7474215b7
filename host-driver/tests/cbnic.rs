//! The `cbnic` binary end to end: round trips, the spec's TV-E1 on the wire format, and every
//! kind of bad input (clear message, non-zero exit, nothing written).

use hdl::cblt::vectors::msg_a;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cbnic-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn cbnic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cbnic")).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn p(x: &Path) -> &str {
    x.to_str().unwrap()
}

#[test]
fn tv_e1_round_trip_on_the_wire_format() {
    let (m, s, out) = (tmp("e1.bin"), tmp("e1.jsonl"), tmp("e1.out"));
    std::fs::write(&m, msg_a(64)).unwrap();
    let o = cbnic(&["encode", "--engine", "soft", "-i", p(&m), "-o", p(&s), "--symbol-size", "16", "--msg-id", "42", "--seed", "0x12345678", "--symbols", "12"]);
    assert!(o.status.success(), "{}", text(&o));
    let lines: Vec<String> = std::fs::read_to_string(&s).unwrap().lines().map(String::from).collect();
    assert_eq!(lines.len(), 12);
    // cloudburst-cblt.md §9 TV-E1, j = 0 and j = 5 (d = k: all-ones)
    assert_eq!(lines[0], r#"{"j":0,"header":"0c00402a0000000000000003","bitset":"0x0000000000000003","payload":"50b0f0b070d0d050b0f0b050d0d070b0"}"#);
    assert!(lines[5].contains(r#""bitset":"0x000000000000000f","payload":"004040c0c00080004040c0800080c040""#));
    let o = cbnic(&["decode", "--engine", "soft", "-i", p(&s), "-o", p(&out), "--symbol-size", "16"]);
    assert!(o.status.success(), "{}", text(&o));
    // TV-D1: 0:I1 1:R1 2:I2 3:R2 4:I3 5:C4 6..11:A4
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let statuses: Vec<&str> = stdout.lines().map(|l| l.split(' ').nth(3).unwrap()).collect();
    assert_eq!(statuses[..7], ["INNOVATIVE", "REDUNDANT", "INNOVATIVE", "REDUNDANT", "INNOVATIVE", "COMPLETE", "AFTER_COMPLETE"]);
    assert_eq!(std::fs::read(&out).unwrap(), msg_a(64));
}

#[test]
fn default_stream_decodes_a_random_message() {
    let (m, s, out) = (tmp("r.bin"), tmp("r.jsonl"), tmp("r.out"));
    let msg: Vec<u8> = (0..93_440u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&m, &msg).unwrap();
    let o = cbnic(&["encode", "-i", p(&m), "-o", p(&s)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("k = 64") && text(&o).contains("seed = 0x"), "{}", text(&o));
    let o = cbnic(&["decode", "-i", p(&s), "-o", p(&out)]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(&out).unwrap(), msg);
}

/// An INVALID line (a bit beyond k) is reported and changes nothing; too few symbols exit 1
/// with the rank and known_mask and write no message.
#[test]
fn invalid_symbols_and_too_few_symbols() {
    let (m, s, out) = (tmp("f.bin"), tmp("f.jsonl"), tmp("f.out"));
    std::fs::write(&m, msg_a(64)).unwrap();
    let o = cbnic(&["encode", "-i", p(&m), "-o", p(&s), "--symbol-size", "16", "--msg-id", "42", "--seed", "0x12345678", "--symbols", "5"]);
    assert!(o.status.success());
    let mut t = std::fs::read_to_string(&s).unwrap();
    let bad = r#"{"header":"0c00402a0000000000000010","bitset":"0x10","payload":"00000000000000000000000000000000"}"#;
    t = format!("{bad}\n{t}");
    std::fs::write(&s, t).unwrap();
    let o = cbnic(&["decode", "-i", p(&s), "-o", p(&out), "--symbol-size", "16"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let so = String::from_utf8_lossy(&o.stdout);
    assert!(so.lines().next().unwrap().contains("INVALID (BITSET has a bit at or above k) rank=0"), "{so}");
    // TV-D1's first five statuses are unchanged by the invalid line: I1 R1 I2 R2 I3
    assert!(so.lines().nth(5).unwrap().contains("INNOVATIVE rank=3"), "{so}");
    assert!(text(&o).contains("message 1 of 1: MSG_ID 42, k = 4, MSG_SIZE 64: incomplete, rank 3 of 4, known_mask 0x"), "{}", text(&o));
    assert!(!out.exists());
}

#[test]
fn bad_input_gets_a_clear_error() {
    let (m, big, s, out) = (tmp("b.bin"), tmp("big.bin"), tmp("b.jsonl"), tmp("b.out"));
    std::fs::write(&m, b"").unwrap();
    std::fs::write(&big, vec![1u8; 93_441]).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["encode", "-i", p(&m), "-o", p(&s)], "empty message"),
        (vec!["encode", "-i", p(&big), "-o", p(&s)], "exceeds the 93440-byte maximum"),
        (vec!["encode", "-i", p(&big), "-o", p(&s), "--symbol-size", "0"], "symbol size 0"),
        (vec!["encode", "-i", p(&big), "-o", p(&s), "--table", "fixed:2", "--symbol-size", "4000"], "can never decode"),
        (vec!["encode", "-i", p(&big), "-o", p(&s), "--table", "bogus", "--symbol-size", "2000"], "unknown table"),
        (vec!["encode", "-i", p(&big), "-o", p(&s), "--seed", "0", "--symbol-size", "2000"], "seed must be nonzero"),
        (vec!["encode", "-i", p(&big), "-o", p(&s), "--engine", "vfio:0000:7f:1f.7"], "no PCI device 0000:7f:1f.7"),
        (vec!["encode", "-i", p(&big), "-o", p(&s), "--engine", "pcie:1"], "unknown engine `pcie:1`"),
        (vec!["encode", "-i", "/nonexistent/m", "-o", p(&s)], "cannot read"),
    ];
    for (args, want) in cases {
        let o = cbnic(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{args:?}: `{}` lacks `{want}`", text(&o));
    }
    for (body, want) in [
        ("{\"header\":\"0c00402a00000000000000\",\"bitset\":\"0x3\",\"payload\":\"00\"}\n", ":1: malformed symbol line: header has 11 bytes"),
        ("\n{\"header\":\"0c00402a0000000000000003\",\"bitset\":\"0x2\",\"payload\":\"00\"}\n", ":2: malformed symbol line: bitset 0x2 disagrees"),
        ("{\"header\":\"0c00402a0000000000000003\",\"bitset\":\"0x3\",\"payload\":\"0g\"}\n", "payload: not hex"),
        ("{\"header\":\"0c00402a0000000000000003\",\"bitset\":\"0x3\"}\n", "missing field `payload`"),
        ("# nothing\n", "no symbols in the file"),
    ] {
        std::fs::write(&s, body).unwrap();
        let o = cbnic(&["decode", "-i", p(&s), "-o", p(&out)]);
        assert_eq!(o.status.code(), Some(2), "{body}: {}", text(&o));
        assert!(text(&o).contains(want), "`{}` lacks `{want}`", text(&o));
        assert!(!out.exists());
    }
}

/// The benchmark runs both codecs to completion (its decoders assert the message).
#[test]
fn bench_measures_both_codecs() {
    let r = host_driver::bench::measure(4, 1460, 0.0);
    assert!(r.cblt_enc > 0.0 && r.rq_enc > 0.0 && r.cblt_dec > 0.0 && r.rq_dec > 0.0);
    assert!(host_driver::bench::table(&[r], 1460).contains("| 4 | 5840 |"));
}
