//! The CB-LT Wireshark dissector (`host-driver/wireshark/cblt.lua`) under tshark: on the
//! committed capture every field equals the header as `hdl::cblt` parses it, and a capture of
//! malformed packets raises the matching expert warnings.

use hdl::cblt::header::Header;
use hdl::cblt::pcap::{pcap_file, read_pcap, udp_frame, CBLT_UDP_PORT};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// tshark's fields for every packet of `pcap`, tab-separated, with the dissector loaded.
fn tshark(pcap: &Path, fields: &[&str], filter: Option<&str>) -> Vec<Vec<String>> {
    let lua = root().join("host-driver/wireshark/cblt.lua");
    let mut c = Command::new("tshark");
    c.arg("-X").arg(format!("lua_script:{}", lua.display())).arg("-r").arg(pcap).args(["-T", "fields"]);
    for f in fields {
        c.args(["-e", f]);
    }
    if let Some(y) = filter {
        c.args(["-Y", y]);
    }
    let o = c.output().expect("tshark (scripts/deps.sh installs it)");
    assert!(o.status.success(), "tshark: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap().lines().map(|l| l.split('\t').map(String::from).collect()).collect()
}

#[test]
fn tshark_shows_the_cblt_fields_of_the_committed_capture() {
    let pcap = root().join("testbench-vectors/cblt/tv_e6_4paths.pcap");
    let want: Vec<Vec<String>> = read_pcap(&std::fs::read(&pcap).unwrap())
        .unwrap()
        .iter()
        .map(|d| {
            let h = Header::parse(&d.payload).unwrap();
            let stop = h.is_stop();
            vec![
                h.msg_id.to_string(),
                h.k().to_string(),
                h.msg_size.to_string(),
                format!("{:#018x}", h.bitset),
                if stop { String::new() } else { h.bitset.count_ones().to_string() },
                if stop { "1" } else { "0" }.to_string(),
                if stop { String::new() } else { (d.payload.len() - 12).to_string() },
            ]
        })
        .collect();
    let got = tshark(&pcap, &["cblt.msg_id", "cblt.k", "cblt.msg_size", "cblt.bitset", "cblt.degree", "cblt.stop", "cblt.s"], None);
    assert_eq!(got.len(), 16);
    assert_eq!(got, want);
}

#[test]
fn tshark_flags_malformed_packets() {
    let (a, b) = (([2, 0, 0, 0, 0, 1], [10, 0, 0, 1]), ([2, 0, 0, 0, 0, 2], [10, 0, 0, 2]));
    let good = Header::new(4, 64, 42, 0x3).pack();
    let beyond = Header::new(4, 64, 42, 0x13).pack();
    let npkt = Header::new(5, 64, 42, 0x3).pack();
    let frames: Vec<(u64, Vec<u8>)> = [&good[..], &beyond[..], &npkt[..], &good[..7]]
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let mut p = h.to_vec();
            if h.len() == 12 {
                p.extend([0u8; 16]);
            }
            (1_000 * i as u64, udp_frame(a, b, 50000, CBLT_UDP_PORT, i as u16, &p))
        })
        .collect();
    let pcap = std::env::temp_dir().join(format!("cblt-malformed-{}.pcap", std::process::id()));
    std::fs::write(&pcap, pcap_file(&frames)).unwrap();
    let numbers = |filter: &str| tshark(&pcap, &["frame.number"], Some(filter)).into_iter().map(|r| r[0].clone()).collect::<Vec<_>>();
    assert_eq!(numbers("cblt"), ["1", "2", "3", "4"]);
    assert_eq!(numbers("cblt.bitset_beyond_k"), ["2"]);
    assert_eq!(numbers("cblt.npkt_mismatch"), ["3"]);
    assert_eq!(numbers("cblt.short"), ["4"]);
    std::fs::remove_file(&pcap).ok();
}
