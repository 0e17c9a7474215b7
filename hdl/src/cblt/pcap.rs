//! A coded CB-LT exchange as a pcap file Wireshark opens (`testbench-vectors/cblt/*.pcap`):
//! Ethernet II / IPv4 / UDP frames whose UDP payload is the 12-byte header ‖ S-byte symbol
//! (§6.3), sprayed over several paths by UDP source port (§6.5: path `j mod NUM_PATHS`), and
//! the receiver's STOP coming back. Nanosecond pcap (magic `a1b23c4d`), link type 1.
//!
//! Choices (the spec names no port or addresses): UDP destination port [`CBLT_UDP_PORT`],
//! sender 10.0.0.1 with source ports `50000 + path`, receiver 10.0.0.2, locally administered
//! MACs, and both checksums filled in. Symbols are paced as §6.5's example, 4 paths at half of
//! 10 Gb/s: one 1514-byte frame every 2,422.4 ns.

use super::decoder::{Decoder, Status};
use super::encoder::Encoder;
use super::vectors::msg_b;

/// UDP destination port of CB-LT traffic in our captures (no IANA assignment exists).
pub const CBLT_UDP_PORT: u16 = 47000;
const SENDER: ([u8; 6], [u8; 4]) = ([0x02, 0, 0, 0, 0, 1], [10, 0, 0, 1]);
const RECEIVER: ([u8; 6], [u8; 4]) = ([0x02, 0, 0, 0, 0, 2], [10, 0, 0, 2]);

/// One's-complement sum of 16-bit big-endian words (odd tail padded with 0).
fn ones_sum(mut acc: u32, data: &[u8]) -> u32 {
    for c in data.chunks(2) {
        acc += u32::from(c[0]) << 8 | u32::from(*c.get(1).unwrap_or(&0));
    }
    acc
}

fn fold(mut s: u32) -> u16 {
    while s > 0xFFFF {
        s = (s & 0xFFFF) + (s >> 16);
    }
    s as u16
}

/// An Ethernet II / IPv4 / UDP frame carrying `payload`.
pub fn udp_frame(src: ([u8; 6], [u8; 4]), dst: ([u8; 6], [u8; 4]), sport: u16, dport: u16, ip_id: u16, payload: &[u8]) -> Vec<u8> {
    let udp_len = 8 + payload.len();
    let ip_len = 20 + udp_len;
    let mut f = Vec::with_capacity(14 + ip_len);
    f.extend_from_slice(&dst.0);
    f.extend_from_slice(&src.0);
    f.extend_from_slice(&0x0800u16.to_be_bytes());
    let mut ip = vec![0x45, 0];
    ip.extend_from_slice(&(ip_len as u16).to_be_bytes());
    ip.extend_from_slice(&ip_id.to_be_bytes());
    ip.extend_from_slice(&0x4000u16.to_be_bytes()); // DF
    ip.extend_from_slice(&[64, 17, 0, 0]);
    ip.extend_from_slice(&src.1);
    ip.extend_from_slice(&dst.1);
    let c = !fold(ones_sum(0, &ip));
    ip[10..12].copy_from_slice(&c.to_be_bytes());
    f.extend_from_slice(&ip);
    let mut udp = vec![];
    udp.extend_from_slice(&sport.to_be_bytes());
    udp.extend_from_slice(&dport.to_be_bytes());
    udp.extend_from_slice(&(udp_len as u16).to_be_bytes());
    udp.extend_from_slice(&[0, 0]);
    udp.extend_from_slice(payload);
    let mut pseudo = src.1.to_vec();
    pseudo.extend_from_slice(&dst.1);
    pseudo.extend_from_slice(&[0, 17]);
    pseudo.extend_from_slice(&(udp_len as u16).to_be_bytes());
    let mut c = !fold(ones_sum(ones_sum(0, &pseudo), &udp));
    if c == 0 {
        c = 0xFFFF;
    }
    udp[6..8].copy_from_slice(&c.to_be_bytes());
    f.extend_from_slice(&udp);
    f
}

/// A nanosecond pcap file of `(timestamp ns, frame)` records.
pub fn pcap_file(frames: &[(u64, Vec<u8>)]) -> Vec<u8> {
    let mut b = vec![];
    b.extend_from_slice(&0xa1b23c4du32.to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&4u16.to_le_bytes());
    b.extend_from_slice(&[0; 8]);
    b.extend_from_slice(&65535u32.to_le_bytes());
    b.extend_from_slice(&1u32.to_le_bytes());
    for (t, f) in frames {
        b.extend_from_slice(&((t / 1_000_000_000) as u32).to_le_bytes());
        b.extend_from_slice(&((t % 1_000_000_000) as u32).to_le_bytes());
        b.extend_from_slice(&(f.len() as u32).to_le_bytes());
        b.extend_from_slice(&(f.len() as u32).to_le_bytes());
        b.extend_from_slice(f);
    }
    b
}

/// A UDP datagram read back from a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Datagram {
    pub t_ns: u64,
    pub src_ip: [u8; 4],
    pub sport: u16,
    pub dport: u16,
    pub payload: Vec<u8>,
}

/// Read a nanosecond pcap of Ethernet/IPv4/UDP frames, checking both checksums.
pub fn read_pcap(b: &[u8]) -> Result<Vec<Datagram>, String> {
    if b.len() < 24 || b[..4] != 0xa1b23c4du32.to_le_bytes() {
        return Err("not a little-endian nanosecond pcap".into());
    }
    let (mut at, mut out) = (24, vec![]);
    while at < b.len() {
        let word = |o: usize| u32::from_le_bytes(b[at + o..at + o + 4].try_into().unwrap());
        if at + 16 > b.len() {
            return Err(format!("truncated record header at byte {at}"));
        }
        let (sec, ns, len) = (word(0) as u64, word(4) as u64, word(8) as usize);
        let f = b.get(at + 16..at + 16 + len).ok_or(format!("truncated frame at byte {at}"))?;
        at += 16 + len;
        if f.len() < 42 || f[12..14] != [0x08, 0x00] || f[14] != 0x45 || f[23] != 17 {
            return Err(format!("frame at {sec}.{ns:09} is not Ethernet/IPv4/UDP"));
        }
        let ip = &f[14..34];
        if fold(ones_sum(0, ip)) != 0xFFFF {
            return Err(format!("bad IPv4 header checksum at {sec}.{ns:09}"));
        }
        let udp = &f[34..];
        let udp_len = u16::from_be_bytes([udp[4], udp[5]]) as usize;
        if udp_len != udp.len() {
            return Err(format!("UDP length {udp_len} but {} bytes follow", udp.len()));
        }
        let mut pseudo = ip[12..20].to_vec();
        pseudo.extend_from_slice(&[0, 17]);
        pseudo.extend_from_slice(&(udp_len as u16).to_be_bytes());
        if fold(ones_sum(ones_sum(0, &pseudo), udp)) != 0xFFFF {
            return Err(format!("bad UDP checksum at {sec}.{ns:09}"));
        }
        out.push(Datagram {
            t_ns: sec * 1_000_000_000 + ns,
            src_ip: ip[12..16].try_into().unwrap(),
            sport: u16::from_be_bytes([udp[0], udp[1]]),
            dport: u16::from_be_bytes([udp[2], udp[3]]),
            payload: udp[8..].to_vec(),
        });
    }
    Ok(out)
}

/// TV-E6 (k = 14, S = 1460, msg_b(20000)) over 4 paths: symbols until the receiver's decoder
/// completes, then its STOP. Returns the capture.
pub fn tv_e6_capture() -> Vec<u8> {
    const PATHS: u64 = 4;
    const GAP_NS_X10: u64 = 24_224; // 4 · 1514 B · 8 / (0.5 · 10 Gb/s) / 4 paths, in 0.1 ns
    let t0 = 1_767_225_600_000_000_000u64; // 2026-01-01T00:00:00Z
    let msg = msg_b(20000);
    let mut enc = Encoder::with_default_table(&msg, 1460, 0x14, 0x13579BDF).expect("TV-E6 is valid");
    let mut dec = Decoder::new(1460).expect("S is valid");
    let mut frames = vec![];
    let mut j = 0u64;
    loop {
        let c = enc.next_symbol();
        let t = t0 + j * GAP_NS_X10 / 10;
        let sport = 50000 + (j % PATHS) as u16;
        frames.push((t, udp_frame(SENDER, RECEIVER, sport, CBLT_UDP_PORT, j as u16, &c.to_bytes())));
        j += 1;
        if dec.push(&c.header, &c.payload) == Status::Complete {
            let stop = dec.stop().expect("a complete decoder has a STOP").pack();
            frames.push((t + 5_000, udp_frame(RECEIVER, SENDER, CBLT_UDP_PORT, 50000, 0, &stop)));
            return pcap_file(&frames);
        }
    }
}

/// The committed capture files.
pub fn render() -> Vec<(&'static str, Vec<u8>)> {
    vec![("tv_e6_4paths.pcap", tv_e6_capture())]
}

#[cfg(test)]
mod tests {
    use super::super::header::Header;
    use super::*;

    /// The capture read back: checksums hold, 4 source ports, and the data frames decode to
    /// TV-E6's message on a fresh decoder, with the STOP last.
    #[test]
    fn capture_decodes_to_the_message() {
        let d = read_pcap(&tv_e6_capture()).unwrap();
        let (stop, data) = d.split_last().unwrap();
        let mut dec = Decoder::new(1460).unwrap();
        for g in data {
            assert_eq!((g.src_ip, g.dport, g.payload.len()), ([10, 0, 0, 1], CBLT_UDP_PORT, 12 + 1460));
            dec.push_packet(&g.payload);
        }
        assert_eq!(dec.message().unwrap(), msg_b(20000));
        // §9 TV-E6: in order, COMPLETE after 15 symbols
        assert_eq!(data.len(), 15);
        let ports: std::collections::BTreeSet<u16> = data.iter().map(|g| g.sport).collect();
        assert_eq!(ports.into_iter().collect::<Vec<_>>(), vec![50000, 50001, 50002, 50003]);
        let h = Header::parse(&stop.payload).unwrap();
        assert!(h.is_stop() && stop.payload.len() == 12 && stop.src_ip == [10, 0, 0, 2]);
        assert!(d.windows(2).all(|w| w[0].t_ns < w[1].t_ns));
    }

    /// A flipped payload byte is caught by the UDP checksum (the checker is not vacuous).
    #[test]
    fn corrupted_capture_is_refused() {
        let mut c = tv_e6_capture();
        let n = c.len();
        c[n - 100] ^= 1;
        assert!(read_pcap(&c).unwrap_err().contains("UDP checksum"));
    }
}
