//! A request/response service over CloudBurst: the client sends a request over three UDP paths,
//! the server answers each with the request upper-cased, sent back over three paths of its own.
//! Each side owns a `Sender` and a `Receiver`; the server runs in its own thread.
//!
//! ```text
//! cargo run --release -p host-driver --example request_response [-- ENGINE]
//! ```

use host_driver::cloudburst::{encoder, receiver, Receiver, Sender};
use std::time::Duration;

const REQUESTS: usize = 3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let engine = std::env::args().nth(1).unwrap_or_else(|| "soft".into());
    let mut client_rx = Receiver::bind(receiver(&engine)?, "127.0.0.1:0")?;
    let mut server_rx = Receiver::bind(receiver(&engine)?, "127.0.0.1:0")?;
    let mut client_tx = Sender::bind(encoder(&engine)?, 3, server_rx.local_addr()?)?;
    let mut server_tx = Sender::bind(encoder(&engine)?, 3, client_rx.local_addr()?)?;

    std::thread::scope(|s| {
        let server = s.spawn(move || -> Result<(), host_driver::device::NicError> {
            for _ in 0..REQUESTS {
                let req = server_rx.recv(Duration::from_secs(30))?;
                server_tx.send(&req.bytes.to_ascii_uppercase())?;
            }
            Ok(())
        });
        for i in 0..REQUESTS {
            // up to three quarters of the largest message the engine codes
            let size = client_tx.max_message() * (i + 1) / (REQUESTS + 1);
            let request: Vec<u8> = format!("request {i}: ").bytes().cycle().take(size).collect();
            client_tx.send(&request)?;
            let response = client_rx.recv(Duration::from_secs(30))?;
            assert_eq!(response.bytes, request.to_ascii_uppercase());
            println!("request {i}: {} bytes out, {} bytes back (k = {})", request.len(), response.bytes.len(), response.record.header.k());
        }
        server.join().unwrap()?;
        Ok(())
    })
}
