//! The bottleneck: the switch egress port (`hdl::port`, 2 queues × 256 descriptors, the
//! configuration that fits the HX8K) on the golden model or the Verilated RTL. One call of
//! [`Bottleneck::clock`] is one clock edge: inputs applied, outputs read, state advanced.

use rtl_sim::blocks::{RustHdlDut, VerilatorDut};
use anyhow::Result;
use hdl::aqm;
use hdl::cycle::Dut;
use hdl::port::{csr, model::PortModel, rtl::SwitchPort2x256, PortIn, PortOut};
use rust_hdl::prelude::*;

pub type Port2x256 = PortModel<2, 8>;

/// Descriptors per queue of the simulated port.
pub const PORT_DEPTH: u64 = 256;

pub trait Bottleneck {
    fn clock(&mut self, i: &PortIn) -> PortOut;
}

/// The port's golden model.
#[derive(Default)]
pub struct ModelPort(pub Port2x256);

impl Bottleneck for ModelPort {
    fn clock(&mut self, i: &PortIn) -> PortOut {
        use hdl::cycle::CycleModel;
        PortOut::from_slice(&self.0.step(&i.to_vec()))
    }
}

/// `SwitchPort2x256` Verilated.
pub struct RtlPort(VerilatorDut);

impl RtlPort {
    pub fn new() -> Result<Self> {
        let mut uut = SwitchPort2x256::default();
        uut.connect_all();
        Ok(RtlPort(VerilatorDut::new("port2x256", &generate_verilog(&uut), PortIn::PINS, PortOut::PINS)?))
    }
}

impl Bottleneck for RtlPort {
    fn clock(&mut self, i: &PortIn) -> PortOut {
        let o = PortOut::from_slice(self.0.eval(&i.to_vec()));
        self.0.edge();
        o
    }
}

/// `SwitchPort2x256` on rust-hdl's simulator (slow: for short runs and cross-checks).
pub struct RustHdlPort(RustHdlDut<SwitchPort2x256>);

impl Bottleneck for RustHdlPort {
    fn clock(&mut self, i: &PortIn) -> PortOut {
        let o = PortOut::from_slice(self.0.eval(&i.to_vec()));
        self.0.edge();
        o
    }
}

/// Which engine decides the marks and drops ([`rtl_sim::Engine`]).
pub use rtl_sim::Engine as PortEngine;

/// The port on `engine`.
pub fn build(engine: PortEngine) -> Result<Box<dyn Bottleneck>> {
    Ok(match engine {
        PortEngine::Model => Box::new(ModelPort::default()),
        PortEngine::Rusthdl => Box::new(RustHdlPort(RustHdlDut::new()?)),
        PortEngine::Verilator => Box::new(RtlPort::new()?),
    })
}

/// What the host programs before traffic starts.
#[derive(Clone, Copy, Debug)]
pub struct PortSetup {
    /// Link rate, bytes per clock.
    pub bytes_per_clock: f64,
    /// Buffer of the data queue, packets (≤ [`PORT_DEPTH`]).
    pub qcap: u64,
    pub aqm: aqm::Config,
}

impl PortSetup {
    /// The register writes, one per clock: rate, buffer, then the marker (every queue).
    pub fn writes(&self) -> Vec<PortIn> {
        let wr = |addr: u16, data: u64| PortIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..Default::default() };
        let mut v = vec![wr(csr::RATE, (self.bytes_per_clock * 256.0).round() as u64), wr(csr::QCAP, self.qcap.min(PORT_DEPTH))];
        v.extend(self.aqm.csr_writes().into_iter().map(|(a, d)| wr(csr::BLOCK_AQM | a as u16, d as u64)));
        v
    }
}
