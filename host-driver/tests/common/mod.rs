//! What the driver's integration tests share: simulator NICs and a scratch folder.
#![allow(dead_code)]

use host_driver::nic::FecNic;
use host_driver::sim::SimDevice;
use rtl_sim::nic::{NicBuild, VerilatorNic};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Build the simulator program and verilate a build once in this process before servers
/// start, so parallel tests do not each compile it.
pub fn built(b: NicBuild) {
    server();
    static FULL: OnceLock<()> = OnceLock::new();
    static SMALL: OnceLock<()> = OnceLock::new();
    let cell = if b == NicBuild::FULL { &FULL } else { &SMALL };
    cell.get_or_init(|| {
        VerilatorNic::new(b).expect("verilate the NIC");
    });
}

/// The simulator program, built now (another crate's program is not built for this one's
/// tests, and a stale one would simulate stale RTL), in this test's profile.
pub fn server() -> PathBuf {
    static S: OnceLock<PathBuf> = OnceLock::new();
    S.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>/deps/<test>").to_path_buf();
        let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        c.args(["build", "-q", "-p", "rtl-sim", "--bin", host_driver::sim::SERVER]).current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            c.arg("--release");
        }
        assert!(c.status().expect("run cargo").success(), "building {}", host_driver::sim::SERVER);
        let p = profile_dir.join(host_driver::sim::SERVER);
        std::env::set_var("CBNIC_SIM_SERVER", &p);
        p
    })
    .clone()
}

/// A simulator process running the Verilated NIC `b`, opened by the driver.
pub fn sim(b: NicBuild) -> FecNic {
    built(b);
    FecNic::open(Box::new(SimDevice::start(b.name()).expect("start the simulator"))).expect("open the simulated NIC")
}

/// A file in this test process's scratch folder.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cbnic-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}
