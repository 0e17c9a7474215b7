//! The AQM top on the two RTL engines, behind the same `AqmDut` trait as the golden model.

use anyhow::{bail, Result};
use hdl::aqm::rtl::AqmTop;
use hdl::aqm::vectors::{AqmDut, CycleIn, ModelTop, Outputs};
use hdl::aqm::{Counters, State};
use rust_hdl::prelude::*;

use crate::verilator::{PortId, VerilatedTop};

/// The Verilog of the AQM top, as rust-hdl generates it.
pub fn aqm_verilog() -> String {
    let mut uut = AqmTop::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// rust-hdl's own simulator: inputs set, then `update_all` until nothing changes (what
/// `Simulation` does between events), without its thread-per-testbench machinery.
pub struct RustHdlAqm {
    uut: AqmTop,
}

impl RustHdlAqm {
    pub fn new() -> Result<Self> {
        let mut uut = AqmTop::default();
        uut.connect_all();
        let mut me = RustHdlAqm { uut };
        me.settle()?;
        Ok(me)
    }

    fn settle(&mut self) -> Result<()> {
        if !simulate(&mut self.uut, 1000) {
            bail!("rust-hdl simulation did not converge");
        }
        Ok(())
    }
}

impl AqmDut for RustHdlAqm {
    fn eval(&mut self, i: &CycleIn) -> Outputs {
        let u = &mut self.uut;
        u.clock.next = Clock { clk: false };
        u.csr_we.next = i.csr_we;
        u.csr_addr.next = (i.csr_addr as u64).into();
        u.csr_wdata.next = (i.csr_wdata as u64).into();
        u.deq.next = i.deq;
        u.deq_ts.next = (i.deq_ts as u64).into();
        u.deq_ecn.next = (i.deq_ecn as u64 & 3).into();
        u.deq_qlen.next = (i.deq_qlen as u64).into();
        self.settle().expect("rust-hdl settles");
        let u = &self.uut;
        Outputs {
            now: u.now.val().to_u32(),
            enq_ts: u.enq_ts.val().to_u32(),
            sojourn: u.sojourn.val().to_u32(),
            ins: u.ins.val(),
            det: u.det.val(),
            pst: u.pst.val(),
            ecn_out: u.ecn_out.val().to_u8(),
            drop: u.drop.val(),
            state: State {
                ms: u.st_ms.val(),
                fat_valid: u.st_fat_valid.val(),
                fat: u.st_fat.val().to_u32(),
                det_latched: u.st_det_latched.val(),
                cnt: u.st_cnt.val().to_u16(),
                lastcount: u.st_lastcount.val().to_u16(),
                next: u.st_next.val().to_u32(),
            },
            counters: Counters {
                marked: u.cnt_marked.val().to_u32(),
                fired_inst: u.cnt_fired_inst.val().to_u32(),
                fired_pers: u.cnt_fired_pers.val().to_u32(),
                dropped: u.cnt_dropped.val().to_u32(),
            },
        }
    }

    fn edge(&mut self) {
        self.uut.clock.next = Clock { clk: true };
        self.settle().expect("rust-hdl settles");
        self.uut.clock.next = Clock { clk: false };
        self.settle().expect("rust-hdl settles");
    }
}

/// Port handles of the Verilated AQM top.
struct Pins {
    csr_we: PortId,
    csr_addr: PortId,
    csr_wdata: PortId,
    deq: PortId,
    deq_ts: PortId,
    deq_ecn: PortId,
    deq_qlen: PortId,
    out: [PortId; 19],
}

const OUT_NAMES: [&str; 19] = [
    "now", "enq_ts", "sojourn", "ins", "det", "pst", "ecn_out", "drop", "st_ms", "st_fat_valid",
    "st_fat", "st_det_latched", "st_cnt", "st_lastcount", "st_next", "cnt_marked",
    "cnt_fired_inst", "cnt_fired_pers", "cnt_dropped",
];

/// The same top verilated.
pub struct VerilatorAqm {
    top: VerilatedTop,
    pins: Pins,
}

impl VerilatorAqm {
    pub fn new() -> Result<Self> {
        let top = VerilatedTop::build("aqm_top", &aqm_verilog())?;
        let mut out = [top.port("now")?; 19];
        for (i, n) in OUT_NAMES.iter().enumerate() {
            out[i] = top.port(n)?;
        }
        let pins = Pins {
            csr_we: top.port("csr_we")?,
            csr_addr: top.port("csr_addr")?,
            csr_wdata: top.port("csr_wdata")?,
            deq: top.port("deq")?,
            deq_ts: top.port("deq_ts")?,
            deq_ecn: top.port("deq_ecn")?,
            deq_qlen: top.port("deq_qlen")?,
            out,
        };
        Ok(VerilatorAqm { top, pins })
    }
}

impl AqmDut for VerilatorAqm {
    fn eval(&mut self, i: &CycleIn) -> Outputs {
        let (t, p) = (&mut self.top, &self.pins);
        t.set(p.csr_we, i.csr_we as u64);
        t.set(p.csr_addr, i.csr_addr as u64);
        t.set(p.csr_wdata, i.csr_wdata as u64);
        t.set(p.deq, i.deq as u64);
        t.set(p.deq_ts, i.deq_ts as u64);
        t.set(p.deq_ecn, i.deq_ecn as u64);
        t.set(p.deq_qlen, i.deq_qlen as u64);
        t.eval();
        let g = |k: usize| t.get(p.out[k]);
        Outputs {
            now: g(0) as u32,
            enq_ts: g(1) as u32,
            sojourn: g(2) as u32,
            ins: g(3) != 0,
            det: g(4) != 0,
            pst: g(5) != 0,
            ecn_out: g(6) as u8,
            drop: g(7) != 0,
            state: State {
                ms: g(8) != 0,
                fat_valid: g(9) != 0,
                fat: g(10) as u32,
                det_latched: g(11) != 0,
                cnt: g(12) as u16,
                lastcount: g(13) as u16,
                next: g(14) as u32,
            },
            counters: Counters {
                marked: g(15) as u32,
                fired_inst: g(16) as u32,
                fired_pers: g(17) as u32,
                dropped: g(18) as u32,
            },
        }
    }

    fn edge(&mut self) {
        self.top.tick();
    }
}

pub use crate::Engine;

/// Build an engine running the AQM top.
pub fn aqm_engine(e: Engine) -> Result<Box<dyn AqmDut>> {
    Ok(match e {
        Engine::Model => Box::new(ModelTop::default()),
        Engine::Rusthdl => Box::new(RustHdlAqm::new()?),
        Engine::Verilator => Box::new(VerilatorAqm::new()?),
    })
}
