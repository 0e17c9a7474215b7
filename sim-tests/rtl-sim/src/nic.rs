//! The FEC NIC top (`hdl::nic::rtl::NicTop`) on rust-hdl and Verilator behind one bus
//! interface, and the simulated device: the process that serves the shared-memory mailbox of
//! `host_driver::shm` with the Verilated NIC, cycle by cycle (`cbnic sim-serve` runs [`serve`]).
//!
//! Builds: [`NicBuild::FULL`] is the default CloudBurst size (S = 1460, k_max = 64) the `sim`
//! backend serves; [`NicBuild::SMALL`] (S = 64, k_max = 16) is small enough for rust-hdl's
//! simulator, and the tests run the same register sequences on both engines.

use anyhow::{bail, Context, Result};
use hdl::nic::rtl::NicTop;
use host_driver::shm::{self, op, state, status, word, Mailbox};
use hdl::nic::{BAR_SIZE, READ_LATENCY};
use rust_hdl::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::verilator::{PortId, VerilatedTop};

/// A NIC geometry with its generics (`NicTop<MA, SA, TA, KM>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NicBuild {
    pub s: usize,
    pub k_max: usize,
}

impl NicBuild {
    pub const FULL: NicBuild = NicBuild { s: 1460, k_max: 64 };
    pub const SMALL: NicBuild = NicBuild { s: 64, k_max: 16 };

    pub fn parse(name: &str) -> Result<NicBuild> {
        match name {
            "full" => Ok(NicBuild::FULL),
            "small" => Ok(NicBuild::SMALL),
            n => bail!("unknown NIC build `{n}`: full (S = 1460, k_max = 64) or small (S = 64, k_max = 16)"),
        }
    }

    pub fn name(&self) -> &'static str {
        if *self == NicBuild::FULL {
            "full"
        } else {
            "small"
        }
    }

    /// The Verilog of this build's top.
    pub fn verilog(&self) -> String {
        match *self {
            NicBuild::FULL => gen::<15, 9, 11, 64>(*self),
            NicBuild::SMALL => gen::<8, 4, 6, 16>(*self),
            b => panic!("no generics for {b:?}"),
        }
    }
}

fn gen<const MA: usize, const SA: usize, const TA: usize, const KM: usize>(b: NicBuild) -> String {
    let mut uut = NicTop::<MA, SA, TA, KM>::new(b.s, b.k_max);
    uut.connect_all();
    generate_verilog(&uut)
}

/// The NIC's memory bus, one word per clock; a read's word is on `bus_rdata`
/// [`READ_LATENCY`] edges after the read's own (the first of them).
pub trait NicBus {
    /// One clock: the bus inputs, then the edge (and the outputs settled after it).
    fn clock(&mut self, addr: u32, we: bool, re: bool, wdata: u32);
    /// `bus_rdata` after the last edge.
    fn rdata(&self) -> u32;
    /// The top's `active` output.
    fn active(&self) -> bool;
    /// Clocks so far.
    fn cycles(&self) -> u64;
    /// One write clock.
    fn write(&mut self, addr: u32, v: u32) {
        self.clock(addr, true, false, v);
    }
    /// One clock with an idle bus.
    fn idle(&mut self) {
        self.clock(0, false, false, 0);
    }
    /// `n` words from `addr` up, one read per clock as a bridge issues a burst, each taken
    /// `READ_LATENCY − 1` clocks after its own: `n + READ_LATENCY − 1` clocks.
    fn read_burst(&mut self, addr: u32, n: usize) -> Vec<u32> {
        let mut out = Vec::with_capacity(n);
        for i in 0..n + READ_LATENCY - 1 {
            if i < n {
                self.clock(addr + 4 * i as u32, false, true, 0);
            } else {
                self.idle();
            }
            if i + 1 >= READ_LATENCY {
                out.push(self.rdata());
            }
        }
        out
    }
    /// One word: `READ_LATENCY` clocks.
    fn read(&mut self, addr: u32) -> u32 {
        self.read_burst(addr, 1)[0]
    }
}

pub struct VerilatorNic {
    top: VerilatedTop,
    addr: PortId,
    we: PortId,
    re: PortId,
    wdata: PortId,
    rdata: PortId,
    active: PortId,
    cycles: u64,
}

impl VerilatorNic {
    pub fn new(b: NicBuild) -> Result<VerilatorNic> {
        let top = VerilatedTop::build(&format!("nic-{}", b.name()), &b.verilog())?;
        let p = |t: &VerilatedTop, n: &str| t.port(n);
        let (addr, we, re, wdata, rdata, active) = (
            p(&top, "bus_addr")?,
            p(&top, "bus_we")?,
            p(&top, "bus_re")?,
            p(&top, "bus_wdata")?,
            p(&top, "bus_rdata")?,
            p(&top, "active")?,
        );
        Ok(VerilatorNic { top, addr, we, re, wdata, rdata, active, cycles: 0 })
    }

    fn clock_with(&mut self, addr: u32, we: bool, re: bool, wdata: u32) {
        self.top.set(self.addr, addr as u64);
        self.top.set(self.we, we as u64);
        self.top.set(self.re, re as u64);
        self.top.set(self.wdata, wdata as u64);
        self.top.tick();
        // the bus reads (`bus_rdata`, `active`) are registered: settle after the edge
        self.top.eval();
        self.cycles += 1;
    }
}

impl NicBus for VerilatorNic {
    fn clock(&mut self, addr: u32, we: bool, re: bool, wdata: u32) {
        self.clock_with(addr, we, re, wdata);
    }
    fn rdata(&self) -> u32 {
        self.top.get(self.rdata) as u32
    }
    fn active(&self) -> bool {
        self.top.get(self.active) != 0
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
}

/// The small build on rust-hdl's simulator.
pub struct RustHdlNic {
    uut: NicTop<8, 4, 6, 16>,
    cycles: u64,
}

impl RustHdlNic {
    pub fn new() -> Result<RustHdlNic> {
        let b = NicBuild::SMALL;
        let mut uut = NicTop::<8, 4, 6, 16>::new(b.s, b.k_max);
        uut.connect_all();
        uut.clock.next = Clock { clk: false };
        if !simulate(&mut uut, 1000) {
            bail!("rust-hdl simulation did not converge");
        }
        Ok(RustHdlNic { uut, cycles: 0 })
    }

    fn clock_with(&mut self, addr: u32, we: bool, re: bool, wdata: u32) {
        let u = &mut self.uut;
        u.bus_addr.next = (addr as u64).into();
        u.bus_we.next = we;
        u.bus_re.next = re;
        u.bus_wdata.next = (wdata as u64).into();
        assert!(simulate(u, 1000), "rust-hdl simulation did not converge");
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 1000), "rust-hdl simulation did not converge");
        u.clock.next = Clock { clk: false };
        assert!(simulate(u, 1000), "rust-hdl simulation did not converge");
        self.cycles += 1;
    }
}

impl NicBus for RustHdlNic {
    fn clock(&mut self, addr: u32, we: bool, re: bool, wdata: u32) {
        self.clock_with(addr, we, re, wdata);
    }
    fn rdata(&self) -> u32 {
        self.uut.bus_rdata.val().to_u64() as u32
    }
    fn active(&self) -> bool {
        self.uut.active.val()
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
}

/// How the server was told to behave (tests use the faults).
#[derive(Clone, Debug, Default)]
pub struct ServeOptions {
    /// Exit without answering after this many requests (the "simulator gone" fault).
    pub die_after: Option<u64>,
}

/// Run one request on the bus; the status word.
pub fn execute(bus: &mut dyn NicBus, mb: &Mailbox, opcode: u32, addr: u32, count: usize) -> u32 {
    let in_bar = |n: usize| addr % 4 == 0 && (addr as u64 + 4 * n as u64) <= BAR_SIZE as u64;
    match opcode {
        op::READ | op::WRITE if count > shm::MAX_WORDS || !in_bar(count) => status::BAD_ADDRESS,
        op::READ => {
            let data = bus.read_burst(addr, count);
            mb.put_data(&data);
            status::OK
        }
        op::WRITE => {
            let mut data = vec![0u32; count];
            mb.get_data(&mut data);
            for (i, v) in data.iter().enumerate() {
                bus.write(addr + 4 * i as u32, *v);
            }
            status::OK
        }
        _ => status::BAD_OP,
    }
}

/// Serve the mailbox at `path` (created and sized by the driver) with the Verilated NIC of
/// `build` until SHUTDOWN, until the file is removed, or until the process that started the
/// server exits. While no request waits, the NIC is clocked as long as it is `active`.
pub fn serve(path: &Path, build: NicBuild, opts: &ServeOptions) -> Result<()> {
    let file = std::fs::OpenOptions::new().read(true).write(true).open(path).with_context(|| format!("cannot open the mailbox {}", path.display()))?;
    let len = file.metadata()?.len() as usize;
    if len < shm::FILE_BYTES {
        bail!("{} is {len} bytes, a mailbox is {}", path.display(), shm::FILE_BYTES);
    }
    // SAFETY: the file is the driver's mailbox; both sides access it only through Mailbox.
    let mut map = unsafe { memmap2::MmapMut::map_mut(&file)? };
    // SAFETY: the mapping is FILE_BYTES long, page-aligned, and outlives mb.
    let mb = unsafe { Mailbox::new(map.as_mut_ptr()) };
    if mb.get(word::MAGIC) != shm::MAGIC || mb.get(word::VERSION) != shm::VERSION {
        bail!("{} is not a version {} mailbox", path.display(), shm::VERSION);
    }
    mb.set(word::SERVER_PID, std::process::id());
    let mut nic = match VerilatorNic::new(build) {
        Ok(n) => n,
        Err(e) => {
            mb.set_error_text(&format!("{e:#}"));
            mb.set(word::STATE, state::FAILED);
            return Err(e);
        }
    };
    mb.set(word::STATE, state::READY);
    let parent = std::os::unix::process::parent_id();
    let mut served = 0u64;
    let mut last_check = Instant::now();
    let mut idle_since = Instant::now();
    loop {
        let req = mb.get(word::REQ_SEQ);
        if req != mb.get(word::RESP_SEQ) {
            if opts.die_after == Some(served) {
                std::process::exit(3);
            }
            served += 1;
            let (opcode, addr, count) = (mb.get(word::OP), mb.get(word::ADDR), mb.get(word::COUNT) as usize);
            let st = match opcode {
                op::SHUTDOWN => {
                    mb.set(word::STATE, state::EXITED);
                    mb.set(word::STATUS, status::OK);
                    mb.set(word::RESP_SEQ, req);
                    return Ok(());
                }
                op::RESET => {
                    drop(nic);
                    nic = VerilatorNic::new(build)?;
                    status::OK
                }
                _ => execute(&mut nic, &mb, opcode, addr, count),
            };
            mb.set_cycles(nic.cycles());
            mb.set(word::STATUS, st);
            mb.set(word::RESP_SEQ, req);
            idle_since = Instant::now();
            continue;
        }
        if last_check.elapsed() > Duration::from_millis(100) {
            last_check = Instant::now();
            if !path.exists() || std::os::unix::process::parent_id() != parent {
                mb.set(word::STATE, state::EXITED);
                return Ok(());
            }
        }
        if nic.active() {
            for _ in 0..64 {
                nic.idle();
            }
            continue;
        }
        // idle: spin briefly after a request (the driver is likely polling), then sleep
        if idle_since.elapsed() < Duration::from_micros(200) {
            std::hint::spin_loop();
        } else {
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}
