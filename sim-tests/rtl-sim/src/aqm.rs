//! The AQM top on the three engines, behind the pin-level `Dut` trait every block shares
//! (`hdl::cycle`); `hdl::aqm::vectors` drives it through its typed view (`CycleIn`, `Outputs`).

use anyhow::Result;
use hdl::aqm::rtl::AqmTop;
use hdl::aqm::vectors::{AqmIn, AqmOut, ModelTop};
use hdl::cycle::{Dut, ModelDut};
use rust_hdl::prelude::*;

use crate::blocks::{RustHdlDut, VerilatorDut};
pub use crate::Engine;

/// The Verilog of the AQM top, as rust-hdl generates it.
pub fn aqm_verilog() -> String {
    let mut uut = AqmTop::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// Build an engine running the AQM top.
pub fn aqm_engine(e: Engine) -> Result<Box<dyn Dut>> {
    Ok(match e {
        Engine::Model => Box::new(ModelDut::new(ModelTop::default())),
        Engine::Rusthdl => Box::new(RustHdlDut::<AqmTop>::new()?),
        Engine::Verilator => Box::new(VerilatorDut::new("aqm_top", &aqm_verilog(), AqmIn::PINS, AqmOut::PINS)?),
    })
}
