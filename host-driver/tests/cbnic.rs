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
    // CB-LT §9 TV-E1, j = 0 and j = 5 (d = k: all-ones)
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

/// Encode `msg` at S = 16 into `n` symbols of MSG_ID `id` and return the file's lines.
fn encode_lines(name: &str, msg: &[u8], id: u8, seed: &str, n: usize) -> Vec<String> {
    let (m, s) = (tmp(&format!("{name}.bin")), tmp(&format!("{name}.jsonl")));
    std::fs::write(&m, msg).unwrap();
    let o = cbnic(&["encode", "-i", p(&m), "-o", p(&s), "--symbol-size", "16", "--msg-id", &id.to_string(), "--seed", seed, "--symbols", &n.to_string()]);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::read_to_string(&s).unwrap().lines().map(String::from).collect()
}

/// S comes from `--symbol-size` (default 1460), never from the first line: a first line of
/// the wrong length is INVALID and the message still decodes.
#[test]
fn decode_takes_s_from_configuration_not_from_the_first_line() {
    let lines = encode_lines("s-cfg", &msg_a(64), 42, "0x12345678", 12);
    let bad = r#"{"header":"0c00402a0000000000000003","bitset":"0x3","payload":"0102030405"}"#;
    let (s, out) = (tmp("s-cfg-bad.jsonl"), tmp("s-cfg.out"));
    std::fs::write(&s, format!("{bad}\n{}\n", lines.join("\n"))).unwrap();
    let o = cbnic(&["decode", "-i", p(&s), "-o", p(&out), "--symbol-size", "16"]);
    assert!(o.status.success(), "{}", text(&o));
    let so = String::from_utf8_lossy(&o.stdout);
    assert!(so.lines().next().unwrap().contains("INVALID (UDP payload is not 12 + S bytes) rank=0"), "{so}");
    assert!(so.lines().nth(6).unwrap().contains("COMPLETE rank=4"), "{so}");
    assert_eq!(std::fs::read(&out).unwrap(), msg_a(64));
    // without --symbol-size the stream is decoded as S = 1460: every line is INVALID
    std::fs::remove_file(&out).unwrap();
    let o = cbnic(&["decode", "-i", p(&s), "-o", p(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("no message: none of the 13 symbols was valid for S = 1460; nothing written"), "{}", text(&o));
    assert!(!out.exists());
    // a symbol line longer than any UDP payload is INVALID too, not an error
    let long = format!(r#"{{"header":"0c00402a0000000000000003","bitset":"0x3","payload":"{}"}}"#, "ab".repeat(70_000));
    std::fs::write(&s, format!("{}\n{long}\n{}\n", lines[0], lines[1..].join("\n"))).unwrap();
    let o = cbnic(&["decode", "-i", p(&s), "-o", p(&out), "--symbol-size", "16"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).lines().nth(1).unwrap().contains("INVALID (UDP payload is not 12 + S bytes) rank=1"), "{}", text(&o));
}

/// Two messages in one file: one result per message; `-o` writes the first and says so,
/// `--out-dir` writes each; `-o -` keeps standard output for the message bytes.
#[test]
fn decode_reports_and_writes_each_message_of_a_stream() {
    let (m1, m2) = (msg_a(64), msg_a(20));
    let mut lines = encode_lines("multi1", &m1, 42, "0x12345678", 8);
    lines.extend(encode_lines("multi2", &m2, 7, "0x9", 10));
    let (s, out, dir) = (tmp("multi.jsonl"), tmp("multi.out"), tmp("multi-dir"));
    std::fs::write(&s, lines.join("\n")).unwrap();
    let o = cbnic(&["decode", "-i", p(&s), "-o", p(&out), "--symbol-size", "16"]);
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    // TV-D1: message 1 completes on line 6; lines 7 and 8 get its STOP again
    assert!(err.contains("message 1 of 2: MSG_ID 42, k = 4, MSG_SIZE 64: delivered at line 6 (6 symbols, 2 redundant, 0 invalid while open; 2 after), STOP 0c00402a0000000000000000; written to"), "{err}");
    assert!(err.contains("message 2 of 2: MSG_ID 7, k = 2, MSG_SIZE 20: delivered at line"), "{err}");
    assert!(err.contains("STOP 040014070000000000000000; not written (-o takes the first delivered message; --out-dir DIR writes each)"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), m1);
    let o = cbnic(&["decode", "-i", p(&s), "--out-dir", p(&dir), "--symbol-size", "16"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(dir.join("msg-0-id42.bin")).unwrap(), m1);
    assert_eq!(std::fs::read(dir.join("msg-1-id7.bin")).unwrap(), m2);
    let o = cbnic(&["decode", "-i", p(&s), "-o", "-", "--symbol-size", "16"]);
    assert_eq!(o.stdout, m1, "standard output holds the message only");
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1 j=0: INNOVATIVE rank=1"));
    // message 1's symbol again after message 2 replaced its tombstone: it opens a context of
    // its own, which the file does not complete: a third result, and exit 1
    lines.push(lines[0].clone());
    std::fs::write(&s, lines.join("\n")).unwrap();
    let o = cbnic(&["decode", "-i", p(&s), "--out-dir", p(&dir), "--symbol-size", "16"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("message 3 of 3: MSG_ID 42, k = 4, MSG_SIZE 64: incomplete, rank 1 of 4"), "{}", text(&o));
}

#[test]
fn cli_rules_for_counts_engines_and_outputs() {
    let (m, s) = (tmp("rules.bin"), tmp("rules.jsonl"));
    std::fs::write(&m, msg_a(64)).unwrap();
    let o = cbnic(&["encode", "-i", p(&m), "-o", p(&s), "--symbols", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--symbols 0: a symbol file needs at least one symbol"), "{}", text(&o));
    assert!(!s.exists());
    let o = cbnic(&["decode", "-i", p(&s), "--engine", "nic"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("required arguments were not provided") && text(&o).contains("--output"), "{}", text(&o));
    let o = cbnic(&["encode", "-i", p(&m), "-o", p(&s), "--engine", "nic"]);
    assert!(text(&o).contains("unknown engine `nic`: soft, sim, sim-small, sim:MAILBOX, vfio:ADDR or mmap:PATH"), "{}", text(&o));
    for cmd in ["probe", "regs", "encode", "decode", "bench", "demo"] {
        let o = cbnic(&[cmd, "--help"]);
        assert!(String::from_utf8_lossy(&o.stdout).contains("sim-small"), "`{cmd} --help` lists sim-small");
    }
}
