//! The driver end to end over the `sim` backend (a simulator process running the Verilated NIC
//! top), against the software codec; the two-NIC demo; and every device fault with its message.

use hdl::cblt::decoder::Status;
use hdl::cblt::vectors::msg_b;
use hdl::nic::{fields, reg, BAR_SIZE, MAGIC, VERSION};
use host_driver::demo::{self, DemoConfig};
use host_driver::device::{Device, NicError};
use host_driver::mmap::MmapDevice;
use host_driver::nic::FecNic;
use host_driver::sim::SimDevice;
use host_driver::soft::{self, EncodeParams};
use host_driver::stream::RxConfig;
use host_driver::vfio::{preflight, VfioDevice};
use rtl_sim::nic::{NicBuild, NicBus, RustHdlNic, VerilatorNic};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod common;
use common::{built, sim, tmp};

/// A lossy, duplicating, reordering receive stream with two malformed packets in it.
fn rough_stream(pkts: &[Vec<u8>], seed: u64) -> Vec<Vec<u8>> {
    let mut rng = hdl::cycle::Rng::new(seed);
    let mut out: Vec<Vec<u8>> = vec![];
    for p in pkts {
        if rng.below(100) < 25 {
            continue;
        }
        out.push(p.clone());
        if rng.below(100) < 10 {
            out.push(p.clone());
        }
    }
    for i in (1..out.len()).rev() {
        if rng.below(100) < 30 {
            out.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
    let mut short = pkts[0].clone();
    short.truncate(pkts[0].len() - 1);
    out.insert(out.len() / 3, short);
    out.insert(out.len() / 2, pkts[1][..7].to_vec());
    out
}

/// Encode and decode through the NIC and through the software codec: the same bytes, the same
/// statuses, ranks, known masks, message and STOP.
fn check_against_soft(nic: &mut FecNic, sizes: &[usize]) {
    let s = nic.caps.s;
    for (i, &size) in sizes.iter().enumerate() {
        let msg = msg_b(size);
        let p = EncodeParams { s, msg_id: 40 + i as u8, seed: 0x2468_ACE1 ^ (i as u32 * 0x9E37), table: None };
        let k = size.div_ceil(s);
        let n = 3 * k + 12;
        let hw = nic.encode(&msg, &p, n).unwrap();
        let sw: Vec<Vec<u8>> = soft::encode(&msg, &p, n).unwrap().iter().map(|c| c.to_bytes()).collect();
        assert_eq!(hw.len(), sw.len());
        for (j, (a, b)) in hw.iter().zip(&sw).enumerate() {
            assert!(a == b, "size {size}: symbol {j} differs");
        }
        let stream = rough_stream(&sw, size as u64);
        let h = nic.decode(&stream).unwrap();
        let w = soft::decode(&stream, RxConfig { s, k_max: nic.caps.k_max }).unwrap();
        assert_eq!(h, w, "size {size}");
        assert_eq!(w.messages.len(), 1, "size {size}");
        assert_eq!(w.messages[0].bytes.as_deref(), Some(&msg[..]), "size {size}: the stream should decode");
        assert!(h.packets.iter().any(|o| matches!(o.status, Status::Invalid(_))));
    }
}

/// A NIC engine in this process as a `Device`, recording every word it reads.
struct BusDevice<B: NicBus> {
    bus: B,
    name: &'static str,
    trace: std::sync::Arc<std::sync::Mutex<Vec<(u32, u32)>>>,
}

impl<B: NicBus + Send> Device for BusDevice<B> {
    fn read32(&mut self, off: u32) -> Result<u32, NicError> {
        let v = self.bus.read(off);
        self.trace.lock().unwrap().push((off, v));
        Ok(v)
    }
    fn write32(&mut self, off: u32, v: u32) -> Result<(), NicError> {
        self.bus.write(off, v);
        Ok(())
    }
    fn reset(&mut self) -> Result<(), NicError> {
        Ok(())
    }
    fn describe(&self) -> String {
        self.name.into()
    }
}

/// The driver on rust-hdl's simulation and on the Verilated RTL in this process: both agree
/// with the software codec, and read the same word at every step (cycle for cycle, as the
/// polls and the CYCLES register are in the trace).
#[test]
fn rusthdl_and_verilator_nics_agree_cycle_for_cycle() {
    let t_rh = std::sync::Arc::new(std::sync::Mutex::new(vec![]));
    let t_vl = std::sync::Arc::new(std::sync::Mutex::new(vec![]));
    let rh = BusDevice { bus: RustHdlNic::new().unwrap(), name: "rust-hdl", trace: t_rh.clone() };
    let vl = BusDevice { bus: VerilatorNic::new(NicBuild::SMALL).unwrap(), name: "verilator", trace: t_vl.clone() };
    for dev in [Box::new(rh) as Box<dyn Device>, Box::new(vl)] {
        let mut nic = FecNic::open(dev).unwrap();
        nic.timeout = Duration::from_secs(600);
        check_against_soft(&mut nic, &[130, 450]);
    }
    let (a, b) = (t_rh.lock().unwrap(), t_vl.lock().unwrap());
    assert!(a.len() > 1000);
    if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
        panic!("read {i}: rust-hdl {:x?}, verilator {:x?}", a[i], b[i]);
    }
    assert_eq!(a.len(), b.len());
}

/// `RX_STATUS`'s flags and `RX_CTX` say what the receive side is doing, as the register table
/// words them: `ctx_open` and `RX_CTX.open` while a message is being decoded (from its first
/// symbol until it completes), `RX_CTX.rank` its rank (the software codec's) while open (the
/// table says nothing of a closed context's rank, so it is not read then), `msg_ready` while a
/// decoded message waits, until it is taken; `busy` is seen while the decoder works on a symbol
/// and drops once it has (the driver's polls are in the trace); `feeding` drops once the staged
/// packet is in. Each symbol's status and rank come from the software codec.
#[test]
fn rx_status_and_ctx_follow_the_decoder() {
    use fields::{RX_CTX, RX_STATUS};
    let trace = std::sync::Arc::new(std::sync::Mutex::new(vec![]));
    let rh = BusDevice { bus: RustHdlNic::new().unwrap(), name: "rust-hdl", trace: trace.clone() };
    let vl = BusDevice { bus: VerilatorNic::new(NicBuild::SMALL).unwrap(), name: "verilator", trace: trace.clone() };
    for dev in [Box::new(rh) as Box<dyn Device>, Box::new(vl)] {
        let name = dev.describe();
        let mut nic = FecNic::open(dev).unwrap();
        nic.timeout = Duration::from_secs(600);
        let s = nic.caps.s;
        // once the decoder has settled: (feeding, ctx_open, msg_ready), RX_CTX.open, its rank if open
        let settled = |nic: &mut FecNic| {
            for _ in 0..10_000 {
                let st = nic.device().read32(reg::RX_STATUS).unwrap();
                if RX_STATUS::busy.get(st) == 0 {
                    let ctx = nic.device().read32(reg::RX_CTX).unwrap();
                    let f = [RX_STATUS::feeding.get(st), RX_STATUS::ctx_open.get(st), RX_STATUS::msg_ready.get(st)];
                    let open = RX_CTX::open.get(ctx);
                    return (f, open, if open == 1 { RX_CTX::rank.get(ctx) } else { 0 });
                }
            }
            panic!("{name}: the decoder stays busy");
        };
        assert_eq!(settled(&mut nic), ([0, 0, 0], 0, 0), "{name}: after reset");
        let msg = msg_b(4 * s);
        let p = EncodeParams { s, msg_id: 21, seed: 0x0F1E_2D3C, table: None };
        // the stream up to its COMPLETE, and each symbol's outcome from the software codec
        let mut stream: Vec<Vec<u8>> = soft::encode(&msg, &p, 40).unwrap().iter().map(|c| c.to_bytes()).collect();
        let want = soft::decode(&stream, RxConfig { s, k_max: nic.caps.k_max }).unwrap().packets;
        let n = want.iter().position(|r| r.status == Status::Complete).expect("the software codec completes the message") + 1;
        stream.truncate(n);
        let mut complete = false;
        for (pkt, w) in stream.iter().zip(&want) {
            trace.lock().unwrap().clear();
            assert_eq!(nic.push(pkt).unwrap().status, w.status, "{name}");
            let busy_seen = trace.lock().unwrap().iter().any(|&(a, v)| a == reg::RX_STATUS && RX_STATUS::busy.get(v) == 1);
            assert!(busy_seen, "{name}: no poll saw the decoder busy on a symbol");
            complete |= w.status == Status::Complete;
            let open = !complete as u32;
            assert_eq!(settled(&mut nic), ([0, open, complete as u32], open, open * w.rank as u32), "{name}: after a symbol ({:?}, rank {})", w.status, w.rank);
        }
        assert!(complete, "{name}: the message did not complete");
        let (bytes, _) = nic.take_message().unwrap();
        assert_eq!(bytes, msg, "{name}");
        assert_eq!(settled(&mut nic), ([0, 0, 0], 0, 0), "{name}: after the message is taken");
    }
}

/// The NIC's own idle timer (`FecNic::set_idle_expiry`: `RX_TICK_DIV`, `RX_IDLE_LIMIT`) on both
/// engines: a message whose sender stops after three symbols is failed by the hardware, its
/// record (rank 3, three seen) coming more than `LIMIT − 1` tick periods after its last symbol
/// went in (the first tick after it may come at once) and within `LIMIT` periods plus one for
/// the push and the driver's polls. A limit without ticks is refused.
#[test]
fn the_nic_idle_timer_fails_a_message_whose_sender_stopped() {
    const DIV: u32 = 100;
    const LIMIT: u32 = 5;
    let trace = std::sync::Arc::new(std::sync::Mutex::new(vec![]));
    let rh = BusDevice { bus: RustHdlNic::new().unwrap(), name: "rust-hdl", trace: trace.clone() };
    let vl = BusDevice { bus: VerilatorNic::new(NicBuild::SMALL).unwrap(), name: "verilator", trace };
    for dev in [Box::new(rh) as Box<dyn Device>, Box::new(vl)] {
        let name = dev.describe();
        let mut nic = FecNic::open(dev).unwrap();
        nic.timeout = Duration::from_secs(600);
        let s = nic.caps.s;
        let p = EncodeParams { s, msg_id: 9, seed: 0x1357_9BDF, table: None };
        let sw = soft::encode(&msg_b(10 * s), &p, 3).unwrap();
        nic.clear_rx().unwrap();
        assert!(matches!(nic.set_idle_expiry(0, 3), Err(NicError::BadInput(_))), "{name}: a limit without ticks");
        nic.set_idle_expiry(DIV, LIMIT as u16).unwrap();
        // the clock count just before the last symbol goes in: its idle time starts after
        let mut c0 = 0;
        for c in &sw {
            c0 = nic.cycles().unwrap();
            assert_eq!(nic.push(&c.to_bytes()).unwrap().status, Status::Innovative, "{name}");
        }
        let rec = nic.take_record().unwrap();
        let idle = nic.cycles().unwrap() - c0;
        assert!(rec.failed && rec.rank == 3 && rec.seen == 3, "{name}: {rec:?}");
        let (lo, hi) = (((LIMIT - 1) * DIV + 1) as u64, ((LIMIT + 1) * DIV) as u64);
        assert!((lo..=hi).contains(&idle), "{name}: failed {idle} clocks after the last symbol, not within {lo}..={hi}");
    }
}

#[test]
fn registers_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("REGISTERS.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == hdl::nic::markdown(),
        "{} is stale: run `cargo run -p host-driver --bin cbnic -- regs --markdown > host-driver/REGISTERS.md`",
        path.display()
    );
}

#[test]
fn small_nic_matches_the_software_codec() {
    let mut nic = sim(NicBuild::SMALL);
    assert_eq!((nic.caps.s, nic.caps.k_max), (64, 16));
    check_against_soft(&mut nic, &[1, 64, 65, 450, 1000, 1024]);
}

#[test]
fn full_nic_matches_the_software_codec() {
    let mut nic = sim(NicBuild::FULL);
    assert_eq!((nic.caps.s, nic.caps.k_max), (1460, 64));
    check_against_soft(&mut nic, &[10, 20_000, 93_440]);
}

fn demo_cfg(loss: f64, cut: Option<usize>) -> DemoConfig {
    DemoConfig { paths: 4, loss, cut, msg_size: 20_000, messages: 2, seed: 7, timeout: Duration::from_secs(120) }
}

#[test]
fn demo_recovers_messages_with_20_percent_loss_and_with_a_cut_path() {
    for cfg in [demo_cfg(0.2, None), demo_cfg(0.0, Some(2))] {
        let reps = demo::run(Box::new(sim(NicBuild::FULL)), Box::new(sim(NicBuild::FULL)), &cfg).unwrap();
        let table = demo::table(&reps, &cfg);
        println!("{table}");
        assert_eq!(reps.len(), 2);
        for r in &reps {
            assert!(r.verified && r.completion.is_some(), "{table}");
            // (how many arrive depends on thread timing: the receiver's socket can overflow)
            assert!(r.dropped > 0 && r.received >= r.k as u64 && r.innovative == r.k as u64, "{table}");
        }
    }
}

#[test]
fn nic_bench_measures_the_simulated_nic() {
    let mut nic = sim(NicBuild::SMALL);
    let rtt = host_driver::nic_bench::round_trip(&mut nic, 50).unwrap();
    assert!(rtt > 0.0);
    let r = host_driver::nic_bench::loopback(&mut nic, 900, 2).unwrap();
    assert_eq!(r.k, 15);
    assert!(r.symbols_per_msg >= 15.0 && r.enc_cycles > 0.0 && r.dec_cycles > 0.0);
    // the simulator counts the bus words, which are part of the cycles
    assert!(r.enc_bus_words.unwrap() < r.enc_cycles && r.dec_bus_words.unwrap() < r.dec_cycles);
}

// ---- faults: each with its message ----

fn err<T>(r: Result<T, NicError>) -> NicError {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

fn bar_file(name: &str, len: u64, regs: &[(u32, u32)]) -> PathBuf {
    let p = tmp(name);
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(len).unwrap();
    drop(f);
    if !regs.is_empty() {
        let mut d = MmapDevice::open(&p).unwrap();
        for &(o, v) in regs {
            d.write32(o, v).unwrap();
        }
    }
    p
}

#[test]
fn fault_no_device() {
    let e = err(MmapDevice::open(Path::new("/nonexistent/resource0")));
    assert_eq!(e.to_string(), "no device: /nonexistent/resource0 does not exist");
    let e = err(VfioDevice::open("0000:7f:1f.7"));
    assert!(e.to_string().starts_with("no device: no PCI device 0000:7f:1f.7"), "{e}");
    let e = err(VfioDevice::open("01:00"));
    assert_eq!(e.to_string(), "`01:00` is not a PCI address (DDDD:BB:DD.F, e.g. 0000:01:00.0)");
}

#[test]
fn fault_vfio_preflight_without_hardware() {
    let root = tmp("sysfs");
    let dev = tmp("devvfio");
    std::fs::create_dir_all(&dev).unwrap();
    let d = root.join("0000:03:00.0");
    std::fs::create_dir_all(&d).unwrap();
    let e = err(preflight(&root, &dev, "03:00.0"));
    assert!(e.to_string().contains("0000:03:00.0 has no driver: bind it to vfio-pci"), "{e}");
    std::fs::create_dir_all(root.join("drivers/ixgbe")).unwrap();
    std::os::unix::fs::symlink(root.join("drivers/ixgbe"), d.join("driver")).unwrap();
    let e = err(preflight(&root, &dev, "0000:03:00.0"));
    assert!(e.to_string().contains("is bound to `ixgbe`, not vfio-pci"), "{e}");
    std::fs::remove_file(d.join("driver")).unwrap();
    std::fs::create_dir_all(root.join("drivers/vfio-pci")).unwrap();
    std::os::unix::fs::symlink(root.join("drivers/vfio-pci"), d.join("driver")).unwrap();
    let e = err(preflight(&root, &dev, "0000:03:00.0"));
    assert!(e.to_string().contains("has no IOMMU group"), "{e}");
    std::fs::create_dir_all(root.join("groups/17")).unwrap();
    std::os::unix::fs::symlink(root.join("groups/17"), d.join("iommu_group")).unwrap();
    let e = err(preflight(&root, &dev, "0000:03:00.0"));
    assert!(e.to_string().contains("devvfio/17 (IOMMU group 17 of 0000:03:00.0) does not exist"), "{e}");
    std::fs::write(dev.join("17"), b"").unwrap();
    assert_eq!(preflight(&root, &dev, "0000:03:00.0").unwrap(), d);
}

#[test]
fn fault_bar_smaller_than_the_register_map() {
    let p = bar_file("small-bar", 4096, &[]);
    let e = err(MmapDevice::open(&p));
    assert!(e.to_string().ends_with(&format!("BAR0 is 4096 bytes, smaller than the register map ({BAR_SIZE} bytes): not an FEC NIC, or the wrong BAR")), "{e}");
}

#[test]
fn fault_wrong_id_register() {
    let p = bar_file("zero-bar", BAR_SIZE as u64, &[]);
    let e = err(FecNic::open(Box::new(MmapDevice::open(&p).unwrap())));
    assert!(e.to_string().contains("ID register reads 0x00000000, not 0x43424c54 (\"CBLT\")"), "{e}");
}

/// A file standing in for BAR0 with the ID block of a small NIC: it opens, but nothing behind it
/// ever answers.
fn dead_nic() -> FecNic {
    let (caps, layout) = hdl::nic::caps_words(64, 16, 4, 4);
    let p = bar_file("dead-bar", BAR_SIZE as u64, &[(reg::ID, MAGIC), (reg::VERSION, VERSION), (reg::CAPS, caps), (reg::LAYOUT, layout)]);
    let mut nic = FecNic::open(Box::new(MmapDevice::open(&p).unwrap())).unwrap();
    nic.timeout = Duration::from_millis(200);
    nic
}

#[test]
fn fault_a_completion_that_never_comes() {
    let mut nic = dead_nic();
    let pkts: Vec<Vec<u8>> = soft::encode(&msg_b(100), &EncodeParams { s: 64, msg_id: 1, seed: 9, table: None }, 1).unwrap().iter().map(|c| c.to_bytes()).collect();
    let e = err(nic.push(&pkts[0]));
    assert!(e.to_string().starts_with("timed out after 0.2 s waiting for the decoder's result on mmap:"), "{e}");
}

#[test]
fn fault_simulator_gone_mid_operation() {
    built(NicBuild::SMALL);
    let dev = SimDevice::start_with("small", &["--die-after", "12"]).unwrap();
    let mut nic = FecNic::open(Box::new(dev)).unwrap();
    let e = err(nic.encode(&msg_b(500), &EncodeParams { s: 64, msg_id: 1, seed: 9, table: None }, 20));
    assert!(e.to_string().starts_with("the simulator process is gone: process") && e.to_string().contains("exited"), "{e}");
}

#[test]
fn fault_oversize_message() {
    let mut nic = sim(NicBuild::SMALL);
    let e = err(nic.encode(&msg_b(1025), &EncodeParams { s: 64, msg_id: 1, seed: 9, table: None }, 4));
    assert_eq!(e.to_string(), "message of 1025 bytes is larger than this NIC's k_max·S = 1024 bytes (split it into several messages, §6.8)");
}

fn cbnic(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_cbnic")).args(args).output().unwrap();
    (o.status.code(), format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
}

#[test]
fn cli_faults_exit_2_with_the_message() {
    built(NicBuild::SMALL);
    let big = tmp("big.bin");
    std::fs::write(&big, msg_b(2000)).unwrap();
    let zero = bar_file("cli-zero-bar", BAR_SIZE as u64, &[]);
    let small = bar_file("cli-small-bar", 100, &[]);
    let out = tmp("o.jsonl");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["probe".into(), "--engine".into(), "mmap:/nonexistent/resource0".into()], "cbnic: no device: /nonexistent/resource0 does not exist"),
        (vec!["probe".into(), "--engine".into(), format!("mmap:{}", zero.display())], "ID register reads 0x00000000"),
        (vec!["regs".into(), "--engine".into(), format!("mmap:{}", small.display())], "BAR0 is 100 bytes, smaller than the register map"),
        (vec!["probe".into(), "--engine".into(), "vfio:0000:7f:1f.7".into()], "no PCI device 0000:7f:1f.7"),
        (
            vec!["encode".into(), "--engine".into(), "sim-small".into(), "-i".into(), big.display().to_string(), "-o".into(), out.display().to_string()],
            "message of 2000 bytes is larger than this NIC's k_max·S = 1024 bytes",
        ),
    ];
    for (args, want) in cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, text) = cbnic(&a);
        assert_eq!(code, Some(2), "{a:?}: {text}");
        assert!(text.contains(want), "{a:?}: `{text}` lacks `{want}`");
    }
    assert!(!out.exists());
}

#[test]
fn cli_permission_denied() {
    let p = bar_file("root-only-bar", BAR_SIZE as u64, &[]);
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let engine = format!("mmap:{}", p.display());
    // root opens any file: run the CLI as `nobody` then
    let root = std::fs::read_to_string("/proc/self/status").unwrap().lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    let o = if root {
        std::fs::set_permissions(p.parent().unwrap(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        Command::new("setpriv").args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_cbnic"), "probe", "--engine", &engine]).output().unwrap()
    } else {
        std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
        Command::new(env!("CARGO_BIN_EXE_cbnic")).args(["probe", "--engine", &engine]).output().unwrap()
    };
    let text = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(text.contains(&format!("cbnic: permission denied: cannot open {} (run as root, or give your user access to it)", p.display())), "{text}");
}

#[test]
fn cli_demo_on_the_small_sim() {
    built(NicBuild::SMALL);
    let (code, text) = cbnic(&["demo", "--engine", "sim-small", "--msg-size", "900", "--messages", "2", "--loss", "0.2", "--cut", "1"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("2 of 2 message(s) recovered and verified"), "{text}");
}

/// `cbnic decode` on the small NIC prints what the software engine prints, line for line, for a
/// file with a malformed first line, a line longer than any UDP payload and two messages; a
/// `--symbol-size` the NIC was not built with is refused.
#[test]
fn cli_decode_on_the_small_sim_matches_the_software_engine() {
    built(NicBuild::SMALL);
    let enc = |name: &str, size: usize, id: &str| -> Vec<String> {
        let (m, s) = (tmp(&format!("{name}.bin")), tmp(&format!("{name}.jsonl")));
        std::fs::write(&m, msg_b(size)).unwrap();
        let (code, text) = cbnic(&["encode", "-i", m.to_str().unwrap(), "-o", s.to_str().unwrap(), "--symbol-size", "64", "--msg-id", id, "--seed", "5"]);
        assert_eq!(code, Some(0), "{text}");
        std::fs::read_to_string(&s).unwrap().lines().map(String::from).collect()
    };
    let mut lines = vec![r#"{"header":"380384010000000000000001","bitset":"0x1","payload":"00"}"#.to_string()];
    lines.extend(enc("cli-a", 900, "1"));
    lines.insert(3, format!(r#"{{"header":"38038401000000000000000f","bitset":"0xf","payload":"{}"}}"#, "5a".repeat(66_000)));
    lines.extend(enc("cli-b", 300, "2"));
    let file = tmp("cli-two.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let run = |engine: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_cbnic")).args(["decode", "--engine", engine, "-i", file.to_str().unwrap(), "--out-dir", tmp(engine).to_str().unwrap(), "--symbol-size", "64"]).output().unwrap();
        let err: Vec<String> = String::from_utf8_lossy(&o.stderr).lines().map(|l| l.split("; written to").next().unwrap().to_string()).collect();
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), err)
    };
    let (soft, hw) = (run("soft"), run("sim-small"));
    assert_eq!(soft.0, Some(0), "{soft:?}");
    assert_eq!(soft, hw);
    assert!(soft.1.lines().next().unwrap().contains("INVALID (UDP payload is not 12 + S bytes) rank=0"), "{}", soft.1);
    assert!(soft.1.lines().nth(3).unwrap().contains("INVALID (UDP payload is not 12 + S bytes)"), "{}", soft.1);
    assert_eq!(soft.2.iter().filter(|l| l.contains(": delivered at line")).count(), 2, "{:?}", soft.2);
    for d in ["soft", "sim-small"] {
        assert_eq!(std::fs::read(tmp(d).join("msg-0-id1.bin")).unwrap(), msg_b(900));
        assert_eq!(std::fs::read(tmp(d).join("msg-1-id2.bin")).unwrap(), msg_b(300));
    }
    let (code, text) = cbnic(&["decode", "--engine", "sim-small", "-i", file.to_str().unwrap(), "-o", "-", "--symbol-size", "16"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--symbol-size 16: this NIC decodes S = 64 bytes"), "{text}");
}

fn mailboxes_of(pid: u32) -> Vec<PathBuf> {
    std::fs::read_dir("/dev/shm")
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&format!("cbnic-sim-{pid}-"))).collect())
        .unwrap_or_default()
}

/// No simulator mailbox survives Ctrl-C during `cbnic demo`, nor a server that cannot start.
#[test]
fn no_mailbox_survives_a_signal_or_a_missing_server() {
    built(NicBuild::SMALL);
    let mut child = Command::new(env!("CARGO_BIN_EXE_cbnic"))
        .args(["demo", "--engine", "sim-small", "--msg-size", "1000", "--messages", "200", "--loss", "0.3"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let t0 = std::time::Instant::now();
    while mailboxes_of(pid).len() < 2 {
        assert!(t0.elapsed() < Duration::from_secs(120), "the demo made no mailboxes");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap().success());
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(130));
    assert!(mailboxes_of(pid).is_empty(), "{:?}", mailboxes_of(pid));

    let c = Command::new(env!("CARGO_BIN_EXE_cbnic"))
        .args(["probe", "--engine", "sim-small"])
        .env("CBNIC_SIM_SERVER", "/nonexistent/nic-sim")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = c.id();
    let o = c.wait_with_output().unwrap();
    assert!(mailboxes_of(pid).is_empty(), "{:?}", mailboxes_of(pid));
    let text = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(text.contains("cannot start the simulator /nonexistent/nic-sim"), "{text}");
    let o = Command::new(env!("CARGO_BIN_EXE_cbnic")).args(["--version"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), format!("cbnic {}", env!("CARGO_PKG_VERSION")));
}
