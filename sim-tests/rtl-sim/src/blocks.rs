//! Every pin-level block (hdl::cycle) on the three engines behind one `Dut` trait, and the
//! registry the replay tool, the fuzz tool and the tests share.

use anyhow::{bail, Result};
use hdl::blocks::SwitchBlock;
use hdl::cycle::{replay, CycleModel, Dut, ModelDut, Op, Pin, Rng};
use hdl::vectors::{read_jsonl, Tally};
use std::path::{Path, PathBuf};
use hdl::rtl_util::PinIo;
use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_dump, write_vcd_header, VCDProbe};
use rust_hdl::prelude::*;

use crate::Engine;
use crate::verilator::{PortId, VerilatedTop};

/// rust-hdl's own simulator: inputs set, then `update_all` until nothing changes (what its
/// `Simulation` does between events), without the thread-per-testbench machinery. With
/// `$WAVES` set it writes rust-hdl's VCD of every signal to `$WAVES/<block>-rusthdl-<n>.vcd`,
/// one time step per settle (as the Verilator bridge: two per clock).
pub struct RustHdlDut<T: PinIo> {
    uut: T,
    vcd: Option<(VCDProbe<std::io::BufWriter<std::fs::File>>, u64)>,
    out: Vec<u64>,
}

impl<T: PinIo + Default> RustHdlDut<T> {
    pub fn new() -> Result<Self> {
        Self::of(T::default())
    }
}

impl<T: PinIo> RustHdlDut<T> {
    /// The simulator on a block made with parameters (a component whose `new` takes them).
    pub fn of(mut uut: T) -> Result<Self> {
        uut.connect_all();
        let vcd = match crate::verilator::waves_dir() {
            Some(dir) => {
                let name = std::any::type_name::<T>().rsplit("::").next().unwrap_or("top").to_lowercase();
                let path = crate::verilator::next_wave_file(&dir, &format!("{name}-rusthdl"))?;
                let f = std::io::BufWriter::new(std::fs::File::create(&path)?);
                let probe = write_vcd_header(f, &uut);
                Some((write_vcd_dump(probe, &uut), 0))
            }
            None => None,
        };
        let mut me = RustHdlDut { uut, vcd, out: vec![] };
        me.uut.set_clock(false);
        me.settle()?;
        Ok(me)
    }

    fn settle(&mut self) -> Result<()> {
        if !simulate(&mut self.uut, 1000) {
            bail!("rust-hdl simulation did not converge");
        }
        if let Some((probe, t)) = self.vcd.take() {
            let mut probe = probe;
            probe.timestamp(t)?;
            self.vcd = Some((write_vcd_change(probe, &self.uut), t + 1));
        }
        Ok(())
    }
}

/// A component on both engines, rust-hdl's simulator and Verilator (its Verilog named `name`),
/// driven in `PinIo`'s order with the widths its signals declare: how a component's own test
/// runs it.
pub fn both_engines<T: PinIo + 'static>(make: impl Fn() -> T, name: &str) -> Result<Vec<Box<dyn Dut>>> {
    let mut uut = make();
    uut.connect_all();
    let (inputs, outputs) = uut.pins();
    let verilog = generate_verilog(&uut);
    Ok(vec![Box::new(RustHdlDut::of(make())?), Box::new(VerilatorDut::new(name, &verilog, &inputs, &outputs)?)])
}

impl<T: PinIo> Dut for RustHdlDut<T> {
    fn eval(&mut self, inputs: &[u64]) -> &[u64] {
        self.uut.set_clock(false);
        self.uut.set_inputs(inputs);
        self.settle().expect("rust-hdl simulation did not converge");
        self.out = self.uut.outputs();
        &self.out
    }
    fn edge(&mut self) {
        self.uut.set_clock(true);
        self.settle().expect("rust-hdl simulation did not converge");
        self.uut.set_clock(false);
        self.settle().expect("rust-hdl simulation did not converge");
    }
}

/// A Verilated top driven by pin tables; every pin must exist with the model's width.
pub struct VerilatorDut {
    top: VerilatedTop,
    inputs: Vec<PortId>,
    outputs: Vec<PortId>,
    out: Vec<u64>,
}

impl VerilatorDut {
    pub fn new(name: &str, verilog: &str, inputs: &[Pin], outputs: &[Pin]) -> Result<Self> {
        let top = VerilatedTop::build(name, verilog)?;
        let find = |p: &Pin, input: bool| -> Result<PortId> {
            let Some(port) = top.ports().iter().find(|q| q.name == p.name) else {
                bail!("{name}: the Verilog has no port `{}`", p.name)
            };
            if port.width != p.width || port.input != input {
                bail!("{name}: port `{}` is {} bits ({}) in the Verilog, the model says {} bits", p.name, port.width, if port.input { "input" } else { "output" }, p.width);
            }
            top.port(p.name)
        };
        let inputs = inputs.iter().map(|p| find(p, true)).collect::<Result<Vec<_>>>()?;
        let outputs = outputs.iter().map(|p| find(p, false)).collect::<Result<Vec<_>>>()?;
        let out = vec![0; outputs.len()];
        Ok(VerilatorDut { top, inputs, outputs, out })
    }
}

impl Dut for VerilatorDut {
    fn eval(&mut self, inputs: &[u64]) -> &[u64] {
        self.top.set_many(&self.inputs, inputs);
        self.top.eval();
        self.top.get_many(&self.outputs, &mut self.out);
        &self.out
    }
    fn edge(&mut self) {
        self.top.tick();
    }
}

/// A pin-level block: its name (= its vector folder), pin tables and engine constructors.
pub struct BlockDef {
    pub name: &'static str,
    pub inputs: &'static [Pin],
    pub outputs: &'static [Pin],
    /// The RTL's input and output pins, names and widths, as its signals declare them.
    pub rtl_pins: fn() -> (Vec<Pin>, Vec<Pin>),
    model: fn() -> Box<dyn Dut>,
    rusthdl: fn() -> Result<Box<dyn Dut>>,
    pub verilog: fn() -> String,
    /// One clock of random fuzz stimulus (pin order).
    pub random_cycle: fn(&mut Rng) -> Vec<u64>,
    /// Inputs whose 1s are descriptor events (dequeues, arrivals) for the fuzz event count.
    pub event_pins: &'static [&'static str],
}

fn def<B: SwitchBlock>() -> BlockDef {
    def_of::<B::Model, B::Rtl>(B::NAME, B::random_cycle, B::EVENT_PINS)
}

fn def_of<M: CycleModel + Default + 'static, R: PinIo + Default + 'static>(
    name: &'static str,
    random_cycle: fn(&mut Rng) -> Vec<u64>,
    event_pins: &'static [&'static str],
) -> BlockDef {
    BlockDef {
        name,
        inputs: M::INPUTS,
        outputs: M::OUTPUTS,
        rtl_pins: || R::default().pins(),
        model: || Box::new(ModelDut::new(M::default())),
        rusthdl: || Ok(Box::new(RustHdlDut::<R>::new()?)),
        verilog: || {
            let mut uut = R::default();
            uut.connect_all();
            generate_verilog(&uut)
        },
        random_cycle,
        event_pins,
    }
}

/// Every pin-level block, by vector folder name (`hdl::for_each_switch_block!`).
pub fn blocks() -> Vec<BlockDef> {
    macro_rules! defs {
        ($($n:ident: $b:ty),*) => { vec![$(def::<$b>()),*] };
    }
    hdl::for_each_switch_block!(defs)
}

/// The port built with the blocks `F` at the size the HX8K and the closed loops use (2 queues of
/// 256), under its per-system name: the port's fuzz stimulus, no vector files of its own. (Its
/// Verilated build is the closed loops' `bottleneck::RtlPort`: same name, same Verilog.)
fn port_def<const F: usize>() -> BlockDef {
    use hdl::port::{model::PortModel, rtl::SwitchPort2x256, system_of, vectors::random_cycle};
    let name = system_of(F).expect("a per-system port").name;
    def_of::<PortModel<2, 8, F>, SwitchPort2x256<F>>(name, random_cycle, &["in_valid"])
}

/// The per-system ports (`hdl::port::SYSTEMS`), in that order.
pub fn port_systems() -> Vec<BlockDef> {
    struct Def;
    impl hdl::port::FeatureVisitor for Def {
        type Out = BlockDef;
        fn visit<const F: usize>(self) -> BlockDef {
            port_def::<F>()
        }
    }
    hdl::port::SYSTEMS.iter().map(|s| hdl::port::with_features(s.features, Def).expect("every system's port is instantiated")).collect()
}

/// The block whose vectors live in `testbench-vectors/<name>/`, or a per-system port.
pub fn block(name: &str) -> Option<BlockDef> {
    blocks().into_iter().chain(port_systems()).find(|b| b.name == name)
}

impl BlockDef {
    pub fn engine(&self, e: Engine) -> Result<Box<dyn Dut>> {
        Ok(match e {
            Engine::Model => (self.model)(),
            Engine::Rusthdl => (self.rusthdl)()?,
            Engine::Verilator => Box::new(VerilatorDut::new(self.name, &(self.verilog)(), self.inputs, self.outputs)?),
        })
    }
}

/// Outcome of a lockstep fuzz run.
#[derive(Debug, Default)]
pub struct FuzzStats {
    pub cycles: u64,
    pub events: u64,
}

impl BlockDef {
    /// The committed vector files of this block, sorted.
    pub fn vector_files(&self) -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testbench-vectors").join(self.name);
        let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "jsonl")).collect())
            .unwrap_or_default();
        v.sort();
        v
    }

    /// Replay one vector file on a fresh engine.
    pub fn replay_file(&self, file: &Path, e: Engine) -> Result<Tally> {
        let ops = read_jsonl::<Op>(file)?;
        let mut dut = self.engine(e)?;
        replay(&file.display().to_string(), self.inputs, self.outputs, &ops, dut.as_mut()).map_err(anyhow::Error::msg)
    }

    /// Drive `cycles` clocks of random stimulus through the model and `engine` in lockstep,
    /// comparing every output on every clock. The error names the seed, the cycle and the pins.
    pub fn fuzz(&self, engine: Engine, seed: u64, cycles: u64) -> Result<FuzzStats> {
        let mut model = self.engine(Engine::Model)?;
        let mut dut = self.engine(engine)?;
        let mut r = Rng::new(seed);
        let ev: Vec<usize> = self.event_pins.iter().map(|n| self.inputs.iter().position(|p| p.name == *n).expect("event pin exists")).collect();
        let mut stats = FuzzStats::default();
        for c in 0..cycles {
            let inp = (self.random_cycle)(&mut r);
            let want = model.eval(&inp).to_vec();
            let got = dut.eval(&inp);
            if want != got {
                let diff: Vec<String> = self
                    .outputs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| want[*i] != got[*i])
                    .map(|(i, p)| format!("{} model {} {engine:?} {}", p.name, want[i], got[i]))
                    .collect();
                bail!("{} fuzz seed {seed}, cycle {c}: {}", self.name, diff.join(", "));
            }
            stats.events += ev.iter().map(|&i| inp[i]).sum::<u64>();
            model.edge();
            dut.edge();
            stats.cycles += 1;
        }
        Ok(stats)
    }
}
