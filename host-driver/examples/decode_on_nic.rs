//! Decode on the NIC: code a message with the software encoder, lose a third of its symbols,
//! feed the rest to the NIC's decoder and read the message back; the NIC reports every symbol
//! as the software decoder does.
//!
//! ```text
//! cargo run --release -p host-driver --example decode_on_nic [-- ENGINE]
//! ```
//!
//! ENGINE is a NIC (`sim-small` by default, S = 64; `sim`, `vfio:ADDR`, `mmap:PATH`).

use host_driver::nic::FecNic;
use host_driver::soft::{self, EncodeParams};
use host_driver::stream::RxConfig;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let engine = std::env::args().nth(1).unwrap_or_else(|| "sim-small".into());
    let mut nic = FecNic::open_engine(&engine)?;
    let message: Vec<u8> = (0..nic.caps.max_message() * 3 / 4).map(|i| (i * 7) as u8).collect();
    let params = EncodeParams { s: nic.caps.s, msg_id: 9, seed: 0x2468_ACE1, table: None };
    let symbols: Vec<Vec<u8>> = soft::encode(&message, &params, 120)?.iter().map(|c| c.to_bytes()).collect();
    let received: Vec<Vec<u8>> = symbols.into_iter().enumerate().filter(|(j, _)| j % 3 != 2).map(|(_, p)| p).collect();

    let on_nic = nic.decode(&received)?;
    let in_software = soft::decode(&received, RxConfig { s: nic.caps.s, k_max: nic.caps.k_max })?;
    assert_eq!(on_nic, in_software);
    let m = &on_nic.messages[0];
    assert_eq!(m.bytes.as_deref(), Some(&message[..]));
    println!("{}: {} bytes, k = {}, complete after {} of {} symbols, the same statuses as the software decoder", nic.describe(), message.len(), m.k(), m.completed_at.unwrap() + 1, received.len());
    Ok(())
}
