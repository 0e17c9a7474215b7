//! What the driver's integration tests share: simulator NICs and a scratch folder.
#![allow(dead_code)]

use host_driver::nic::FecNic;
use host_driver::sim::SimDevice;
use sim_tests::nic::{NicBuild, VerilatorNic};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Verilate a build once in this process before servers start, so parallel tests do not each
/// compile it.
pub fn built(b: NicBuild) {
    static FULL: OnceLock<()> = OnceLock::new();
    static SMALL: OnceLock<()> = OnceLock::new();
    let cell = if b == NicBuild::FULL { &FULL } else { &SMALL };
    cell.get_or_init(|| {
        VerilatorNic::new(b).expect("verilate the NIC");
    });
}

/// A simulator process running the Verilated NIC `b`, opened by the driver.
pub fn sim(b: NicBuild) -> FecNic {
    built(b);
    std::env::set_var("CBNIC_SIM_SERVER", env!("CARGO_BIN_EXE_cbnic"));
    FecNic::open(Box::new(SimDevice::start(b.name()).expect("start the simulator"))).expect("open the simulated NIC")
}

/// A file in this test process's scratch folder.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cbnic-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}
