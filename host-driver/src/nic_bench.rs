//! `cbnic bench --engine sim|vfio:…|mmap:…`: the NIC through its driver, measured in one run.
//!
//! * **register round trip**: the mean wall time of one `SCRATCH` read;
//! * **messages per second**: loopback on one NIC: encode a message, feed each symbol back to
//!   the same NIC's decoder until COMPLETE, take the message (checked against the original);
//! * **cycles per message** from the NIC's own `CYCLES` counter: encode (start to the last
//!   symbol popped) and decode (the pushes and the message read back). Both include the bus
//!   words the host moved in those spans, one per clock, which the sim backend counts and the
//!   table prints beside them (`-` on hardware, where the bus is not the core's clock).

use crate::device::{NicError, Result};
use crate::nic::FecNic;
use crate::soft::EncodeParams;
use hdl::cblt::decoder::Status;
use hdl::nic::reg;
use std::time::Instant;

/// One k of the NIC benchmark.
#[derive(Clone, Debug)]
pub struct NicBenchRow {
    /// Source symbols per message.
    pub k: usize,
    /// Message bytes.
    pub bytes: usize,
    /// Messages measured.
    pub messages: usize,
    /// Encode-and-decode loopbacks per second of wall time.
    pub msgs_per_sec: f64,
    /// Symbols the decoder needed per message.
    pub symbols_per_msg: f64,
    /// NIC cycles per message spent encoding.
    pub enc_cycles: f64,
    /// Of those, bus words the host moved (where the backend counts them).
    pub enc_bus_words: Option<f64>,
    /// NIC cycles per message spent decoding.
    pub dec_cycles: f64,
    /// Of those, bus words the host moved.
    pub dec_bus_words: Option<f64>,
}

/// Mean seconds of one register read over `n` reads.
pub fn round_trip(nic: &mut FecNic, n: usize) -> Result<f64> {
    let t0 = Instant::now();
    for _ in 0..n {
        nic.device().read32(reg::SCRATCH)?;
    }
    Ok(t0.elapsed().as_secs_f64() / n as f64)
}

/// Loopback `messages` messages of `bytes` bytes.
pub fn loopback(nic: &mut FecNic, bytes: usize, messages: usize) -> Result<NicBenchRow> {
    let s = nic.caps.s;
    let (mut enc_c, mut dec_c, mut syms) = (0u64, 0u64, 0usize);
    let (mut enc_w, mut dec_w) = (Some(0u64), Some(0u64));
    let mut k = 0;
    let t0 = Instant::now();
    for m in 0..messages {
        let msg = crate::demo::message_bytes(0xBE7C, m, bytes);
        let p = EncodeParams { s, msg_id: m as u8, seed: 0x1234_5678 ^ m as u32, table: None };
        nic.clear_rx()?;
        let c_start = nic.cycles()?;
        let w_start = nic.device().bus_words();
        k = nic.start_encode(&msg, &p, 0)?;
        let mut n = 0usize;
        let mut delivered = None;
        // the encoder runs ahead into its queue; symbols are taken until the decoder completes
        let (mut c_enc, mut c_dec) = (0u64, 0u64);
        let (mut w_enc, mut w_dec) = (Some(0u64), Some(0u64));
        let mut c_mark = c_start;
        let mut w_mark = w_start;
        while delivered.is_none() {
            let sym = nic.next_symbol()?.ok_or_else(|| NicError::Device("the encoder stopped by itself".into()))?;
            let (c1, w1) = (nic.cycles()?, nic.device().bus_words());
            c_enc += c1 - c_mark;
            w_enc = w_enc.zip(w1.zip(w_mark)).map(|(a, (b, c))| a + b - c);
            let o = nic.push(&sym)?;
            if o.status == Status::Complete {
                delivered = Some(nic.take_message()?.0);
            }
            let (c2, w2) = (nic.cycles()?, nic.device().bus_words());
            c_dec += c2 - c1;
            w_dec = w_dec.zip(w2.zip(w1)).map(|(a, (b, c))| a + b - c);
            (c_mark, w_mark) = (c2, w2);
            n += 1;
            if n > 40 * k + 200 {
                return Err(NicError::Device(format!("no COMPLETE after {n} symbols of k = {k}")));
            }
        }
        nic.stop_encode()?;
        if delivered.as_deref() != Some(&msg[..]) {
            return Err(NicError::Device(format!("message {m} came back different")));
        }
        syms += n;
        enc_c += c_enc;
        dec_c += c_dec;
        enc_w = enc_w.zip(w_enc).map(|(a, b)| a + b);
        dec_w = dec_w.zip(w_dec).map(|(a, b)| a + b);
    }
    let secs = t0.elapsed().as_secs_f64();
    let mf = messages as f64;
    Ok(NicBenchRow {
        k,
        bytes,
        messages,
        msgs_per_sec: mf / secs,
        symbols_per_msg: syms as f64 / mf,
        enc_cycles: enc_c as f64 / mf,
        enc_bus_words: enc_w.map(|w| w as f64 / mf),
        dec_cycles: dec_c as f64 / mf,
        dec_bus_words: dec_w.map(|w| w as f64 / mf),
    })
}

/// The benchmark as a Markdown table, with the register round trip `rtt` (µs).
pub fn table(rows: &[NicBenchRow], rtt: f64, what: &str) -> String {
    let mut s = format!("NIC {what}: register round trip {:.2} µs (mean of SCRATCH reads)\n", rtt * 1e6);
    s.push_str("   k    bytes  msgs   msg/s  symbols/msg  enc cycles/msg (bus words)  dec cycles/msg (bus words)\n");
    for r in rows {
        s.push_str(&format!(
            "{:>4} {:>8} {:>5} {:>7.2} {:>12.1} {:>15.0} ({:>8}) {:>17.0} ({:>8})\n",
            r.k,
            r.bytes,
            r.messages,
            r.msgs_per_sec,
            r.symbols_per_msg,
            r.enc_cycles,
            words(r.enc_bus_words),
            r.dec_cycles,
            words(r.dec_bus_words)
        ));
    }
    s
}

fn words(w: Option<f64>) -> String {
    w.map(|w| format!("{w:.0}")).unwrap_or_else(|| "-".into())
}
