//! The bottleneck: the switch egress port (`hdl::port`, 2 queues × 256 descriptors, the
//! configuration the HX8K is built with) on the golden model or the Verilated RTL, built with the
//! blocks its scenario needs (`hdl::port::features`: the per-system ports of the synthesis report,
//! or the full port). One call of [`Bottleneck::clock`] is one clock edge: inputs applied, outputs
//! read, state advanced.

use rtl_sim::blocks::{RustHdlDut, VerilatorDut};
use anyhow::{bail, Result};
use hdl::aqm;
use hdl::cycle::Dut;
use hdl::port::{csr, model::PortModel, rtl::SwitchPort2x256, with_features, FeatureVisitor, PortIn, PortOut};
use rust_hdl::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

pub type Port2x256<const F: usize> = PortModel<2, 8, F>;

/// Descriptors per queue of the simulated port.
pub const PORT_DEPTH: u64 = 256;

pub trait Bottleneck {
    fn clock(&mut self, i: &PortIn) -> PortOut;
}

/// The port's golden model.
#[derive(Default)]
pub struct ModelPort<const F: usize>(pub Port2x256<F>);

impl<const F: usize> Bottleneck for ModelPort<F> {
    fn clock(&mut self, i: &PortIn) -> PortOut {
        use hdl::cycle::CycleModel;
        PortOut::from_slice(&self.0.step(&i.to_vec()))
    }
}

/// `SwitchPort2x256` Verilated.
pub struct RtlPort(VerilatorDut);

impl RtlPort {
    pub fn new<const F: usize>() -> Result<Self> {
        let mut uut = SwitchPort2x256::<F>::default();
        uut.connect_all();
        // named as the per-system port's fuzz names it (`rtl_sim::blocks::port_systems`), which
        // shares this build
        let name = hdl::port::system_of(F).map_or("port2x256", |s| s.name);
        Ok(RtlPort(VerilatorDut::new(name, &generate_verilog(&uut), PortIn::PINS, PortOut::PINS)?))
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
pub struct RustHdlPort<const F: usize>(RustHdlDut<SwitchPort2x256<F>>);

impl<const F: usize> Bottleneck for RustHdlPort<F> {
    fn clock(&mut self, i: &PortIn) -> PortOut {
        let o = PortOut::from_slice(self.0.eval(&i.to_vec()));
        self.0.edge();
        o
    }
}

/// Which engine decides the marks and drops ([`rtl_sim::Engine`]).
pub use rtl_sim::Engine as PortEngine;

fn build_with<const F: usize>(engine: PortEngine) -> Result<Box<dyn Bottleneck>> {
    Ok(match engine {
        PortEngine::Model => Box::new(ModelPort::<F>::default()),
        PortEngine::Rusthdl => Box::new(RustHdlPort::<F>(RustHdlDut::new()?)),
        PortEngine::Verilator => Box::new(RtlPort::new::<F>()?),
    })
}

/// Set by `scenarios --port full`: every scenario runs on the full port, not on its system's,
/// to check that the blocks its system does not use stay inert (the decisions must not change).
static FULL_PORT_EVERYWHERE: AtomicBool = AtomicBool::new(false);

/// Build the full port wherever a scenario asks for its system's port (`on`), or not.
pub fn use_full_port_everywhere(on: bool) {
    FULL_PORT_EVERYWHERE.store(on, Ordering::Relaxed);
}

/// The port built with the blocks `f` on `engine`: the full port (`hdl::port::features::ALL`) or
/// one of the per-system ports (`hdl::port::SYSTEMS`); always the full port after
/// [`use_full_port_everywhere`].
pub fn build(engine: PortEngine, f: usize) -> Result<Box<dyn Bottleneck>> {
    let f = if FULL_PORT_EVERYWHERE.load(Ordering::Relaxed) { hdl::port::features::ALL } else { f };
    struct Build(PortEngine);
    impl FeatureVisitor for Build {
        type Out = Result<Box<dyn Bottleneck>>;
        fn visit<const F: usize>(self) -> Self::Out {
            build_with::<F>(self.0)
        }
    }
    match with_features(f, Build(engine)) {
        Some(port) => port,
        None => bail!("no port is built with the blocks {f:#04x}: the full port or one of hdl::port::SYSTEMS"),
    }
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
