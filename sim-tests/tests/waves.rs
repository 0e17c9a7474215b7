//! Waveforms on failure: a deliberately broken vector fails `replay` on Verilator and on
//! rust-hdl, which run the file again traced and name the VCD, and the VCD is well formed (what GTKWave
//! reads: a header, the top's signals, time steps in order with values of the declared widths).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Check a VCD's structure; returns (signals by name → width, time steps).
fn parse_vcd(text: &str) -> (HashMap<String, u32>, usize) {
    let (head, body) = text.split_once("$enddefinitions $end").expect("a VCD header");
    // Verilator names the top's scope `top`, rust-hdl `uut`
    assert!(head.contains("$timescale") && (head.contains("$scope module top $end") || head.contains("$scope module uut $end")), "header: {}", &head[..head.len().min(300)]);
    let mut widths: HashMap<String, u32> = HashMap::new(); // by identifier code
    let mut names = HashMap::new();
    for l in head.lines().map(str::trim).filter(|l| l.starts_with("$var")) {
        let f: Vec<&str> = l.split_whitespace().collect();
        let w: u32 = f[2].parse().unwrap();
        widths.insert(f[3].to_string(), w);
        names.insert(f[4].to_string(), w);
    }
    let (mut steps, mut last) = (0usize, None::<u64>);
    for l in body.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('$')) {
        if let Some(t) = l.strip_prefix('#') {
            let t: u64 = t.parse().unwrap();
            assert!(last.is_none_or(|p| t > p), "time {t} after {last:?}");
            last = Some(t);
            steps += 1;
        } else if let Some(v) = l.strip_prefix('b') {
            let (bits, id) = v.split_once(' ').expect("b<bits> <id>");
            assert!(bits.chars().all(|c| matches!(c, '0' | '1' | 'x' | 'z')), "{l}");
            assert!(bits.len() as u32 <= widths[id], "{l}: wider than declared");
        } else if let Some(v) = l.strip_prefix('s') {
            // a string value (rust-hdl's enum states)
            let (_, id) = v.split_once(' ').expect("s<text> <id>");
            assert!(widths.contains_key(id), "{l}");
        } else {
            let (v, id) = l.split_at(1);
            assert!(matches!(v, "0" | "1" | "x" | "z") && widths[id] == 1, "{l}");
        }
    }
    (names, steps)
}

#[test]
fn a_broken_vector_leaves_a_waveform_named_in_the_failure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dir = std::env::temp_dir().join(format!("waves-test-{}", std::process::id())).join("dwrr");
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read_to_string(root.join("testbench-vectors/dwrr/corners.jsonl")).unwrap();
    let line = good.lines().position(|l| l.contains(r#""grant":0,"grant_q":0"#)).unwrap();
    let broken: Vec<String> = good.lines().enumerate().map(|(i, l)| if i == line { l.replacen(r#""grant":0"#, r#""grant":1"#, 1) } else { l.to_string() }).collect();
    let file = dir.join("corners.jsonl");
    std::fs::write(&file, broken.join("\n") + "\n").unwrap();
    let cycles = good.lines().filter(|l| l.contains(r#""op":"cycle""#)).count();
    for engine in ["verilator", "rusthdl"] {
        let o = Command::new(env!("CARGO_BIN_EXE_replay")).arg(&file).args(["--engine", engine]).env_remove("WAVES").output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(&format!("corners.jsonl:{}: grant expected 1 got 0", line + 1)), "{err}");
        let vcd: PathBuf = err.lines().find_map(|l| l.strip_prefix(&format!("waveform of {}: ", file.display()))).expect("the failure names a waveform").trim_end_matches(" (open it with gtkwave)").into();
        let (signals, steps) = parse_vcd(&std::fs::read_to_string(&vcd).unwrap());
        assert_eq!(signals.get("clock"), Some(&1), "{engine}");
        assert_eq!(signals.get("grant_q"), Some(&3), "{engine}");
        assert!(steps >= 2 * cycles, "{engine}: {steps} time steps for {cycles} clocks");
    }
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}
