//! The message-level API (`host_driver::cloudburst`) end to end on loopback UDP: the software
//! codec, the simulated NIC, a NIC sender with a software receiver; its rules (deadline,
//! oversize messages, a stuck message that must not block the next); and every example program.

use hdl::cblt::vectors::msg_b;
use host_driver::cloudburst::{encoder, receiver, Receiver, SendOptions, Sender, SoftEncoder, SoftReceiver};
use host_driver::device::NicError;
use host_driver::stream::RxConfig;
use rtl_sim::nic::NicBuild;
use std::process::Command;
use std::time::Duration;

mod common;
use common::{built, sim};

/// One message from `tx` to `rx` over four paths with 20 % loss.
fn round_trip(tx: Box<dyn host_driver::cloudburst::Encode>, rx: Box<dyn host_driver::cloudburst::Receive + Send>, msg: &[u8]) {
    let mut r = Receiver::bind(rx, "127.0.0.1:0").unwrap();
    let mut s = Sender::bind(tx, 4, r.local_addr().unwrap()).unwrap();
    s.options = SendOptions { loss: 0.2, seed: 3, ..Default::default() };
    let (sent, got) = std::thread::scope(|sc| {
        let got = sc.spawn(|| r.recv(Duration::from_secs(60)));
        (s.send(msg).unwrap(), got.join().unwrap().unwrap())
    });
    assert_eq!(got.bytes, msg);
    assert_eq!((got.msg_id, got.record.header.k()), (sent.msg_id, sent.k));
    assert!(sent.dropped > 0 && sent.sent >= sent.k as u64 && sent.stopped.is_some(), "{sent:?}");
    let c = r.counts(sent.msg_id);
    assert_eq!(c.innovative, sent.k as u64);
}

#[test]
fn a_message_over_four_lossy_paths_on_every_engine() {
    round_trip(encoder("soft").unwrap(), receiver("soft").unwrap(), &msg_b(60_000));
    round_trip(Box::new(sim(NicBuild::FULL)), Box::new(sim(NicBuild::FULL)), &msg_b(60_000));
    // a NIC sends, the software codec receives: they are bit-exact
    round_trip(Box::new(sim(NicBuild::SMALL)), Box::new(SoftReceiver::new(RxConfig { s: 64, k_max: 16 }).unwrap()), &msg_b(1000));
}

#[test]
fn sender_rules_deadline_oversize_and_bad_options() {
    // nobody answers: the deadline passes
    let quiet = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut s = Sender::bind(Box::new(SoftEncoder::new(64).unwrap()), 2, quiet.local_addr().unwrap()).unwrap();
    s.options.deadline = Duration::from_millis(100);
    s.options.gap = Some(Duration::from_millis(1));
    match s.send(&msg_b(500)) {
        Err(NicError::Timeout { what, .. }) => assert!(what.contains("the STOP of message") && what.contains("k = 8"), "{what}"),
        r => panic!("{r:?}"),
    }
    let r = s.spray(&msg_b(500)).unwrap();
    assert!(r.stopped.is_none() && r.sent > 10, "{r:?}");
    match s.send(&msg_b(64 * 64 + 1)) {
        Err(NicError::MessageTooLarge { size: 4097, max: 4096 }) => {}
        r => panic!("{r:?}"),
    }
    s.options.cut = Some(2);
    assert!(matches!(s.send(b"x"), Err(NicError::BadInput(_))));
}

/// A message whose sender vanished must not block the receiver: after its idle timeout the
/// next message decodes.
#[test]
fn a_stuck_message_does_not_block_the_next() {
    let mut r = Receiver::bind(Box::new(SoftReceiver::new(RxConfig { s: 64, k_max: 64 }).unwrap()), "127.0.0.1:0").unwrap();
    r.idle_timeout = Duration::from_millis(200);
    let to = r.local_addr().unwrap();
    // three symbols of a 20-symbol message, then its sender is gone
    let stuck = host_driver::soft::encode(&msg_b(1280), &host_driver::soft::EncodeParams { s: 64, msg_id: 1, seed: 5, table: None }, 3).unwrap();
    let sock = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    for c in &stuck {
        sock.send_to(&c.to_bytes(), to).unwrap();
    }
    let mut s = Sender::bind(Box::new(SoftEncoder::new(64).unwrap()), 2, to).unwrap();
    s.options.gap = Some(Duration::from_millis(2));
    let msg = msg_b(700);
    let got = std::thread::scope(|sc| {
        let got = sc.spawn(|| r.recv(Duration::from_secs(20)));
        s.send(&msg).unwrap();
        got.join().unwrap().unwrap()
    });
    assert_eq!(got.bytes, msg);
    assert!(r.counts(1).innovative == 3);
    assert!(r.counts(got.msg_id).invalid > 0, "the new message's first symbols met the stuck context");
}

fn example(name: &str, args: &[&str]) -> String {
    built(NicBuild::SMALL);
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.args(["run", "-q", "-p", "host-driver", "--example", name]).current_dir(env!("CARGO_MANIFEST_DIR"));
    if std::env::current_exe().unwrap().parent().and_then(|d| d.parent()).is_some_and(|d| d.ends_with("release")) {
        c.arg("--release");
    }
    let o = c.arg("--").args(args).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "example {name} {args:?}: {text}");
    text
}

#[test]
fn the_examples_run() {
    let file = common::tmp("example-file.bin");
    std::fs::write(&file, msg_b(50_000)).unwrap();
    let f = file.to_str().unwrap();
    assert!(example("send_file", &[f]).contains("50000 bytes in k = 35 symbols"));
    assert!(example("send_file", &[f, "sim"]).contains("50000 bytes in k = 35 symbols"));
    assert_eq!(example("request_response", &[]).lines().count(), 3);
    assert!(example("request_response", &["sim-small"]).contains("request 2: 768 bytes out, 768 bytes back (k = 12)"));
    assert!(example("decode_on_nic", &[]).contains("768 bytes, k = 12, complete after"));
}
