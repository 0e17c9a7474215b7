//! Send a file to a receiver over four UDP paths on loopback, with 20 % emulated loss on every
//! path, and get it back whole.
//!
//! ```text
//! cargo run --release -p host-driver --example send_file -- FILE [ENGINE]
//! ```
//!
//! ENGINE is `soft` (the software codec, the default) or a NIC (`sim`, `sim-small`,
//! `vfio:ADDR`, `mmap:PATH`); a NIC sends and a second NIC of the same kind receives. The file
//! must fit one message (k_max · S bytes: 93,440 at S = 1460).

use host_driver::cloudburst::{encoder, receiver, Receiver, Sender};
use std::time::Duration;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let file = std::fs::read(args.get(1).ok_or("usage: send_file FILE [ENGINE]")?)?;
    let engine = args.get(2).map_or("soft", String::as_str);

    let mut rx = Receiver::bind(receiver(engine)?, "127.0.0.1:0")?;
    let mut tx = Sender::bind(encoder(engine)?, 4, rx.local_addr()?)?;
    tx.options.loss = 0.2;
    let (sent, got) = std::thread::scope(|s| {
        let got = s.spawn(|| rx.recv(Duration::from_secs(30)));
        (tx.send(&file), got.join().unwrap())
    });
    let (sent, got) = (sent?, got?);

    assert_eq!(got.bytes, file);
    println!("{} bytes in k = {} symbols: {} sent over 4 paths, {} lost, STOP after {:?}", file.len(), sent.k, sent.sent, sent.dropped, sent.stopped.unwrap().0);
    Ok(())
}
