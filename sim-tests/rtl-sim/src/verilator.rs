//! The Verilator bridge: verilate the Verilog rust-hdl generates for a top, link it with a
//! generated C ABI shim into a shared library, load it with `libloading`, and poke its ports
//! through pointers to the model's port members.
//!
//! Why this route (README, "Verilator bridge"): the `verilated` 0.1.2 crate does not build
//! against Verilator 5 and `marlin` needs ≥ 5.025, while Debian 12 ships 5.006. The shim is the
//! only C++ the project writes; it is generated per top from the port list parsed out of the
//! Verilog header, so any rust-hdl top works, wide ports included (`VlWide` words).
//! Builds are cached under `target/verilated/<top>-<hash>` and reused while the Verilog is the
//! same; a build goes to a temporary folder renamed into place, so parallel tests are safe.
//! Verilator's own runtime is compiled once into `target/verilated/runtime-<hash>/` and linked
//! into every build.

use anyhow::{anyhow, bail, Context, Result};
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Lint waivers for rust-hdl's Verilog, each justified:
/// * `WIDTH`: rust-hdl 0.46 writes every integer literal as `32'hN` and relies on Verilog's
///   context-width rules; the cross-engine fuzz checks that the semantics match its simulator.
/// * `DECLFILENAME`: rust-hdl writes every submodule into one file named after the top.
/// * `UNOPTFLAT`: rust-hdl writes a module's combinational logic as one `always @(*)` block, so
///   a composed top (the switch port) that drives a child's inputs and reads its outputs in that
///   block looks circular at Verilator's block granularity, though no signal depends on itself.
///   Verilator then settles the block by iteration; the fuzz against the model checks results.
pub const LINT_WAIVERS: &[&str] = &["-Wno-WIDTH", "-Wno-DECLFILENAME", "-Wno-UNOPTFLAT"];

pub use hdl::rtl_util::Port;

/// Parse the ports of `module top(...)` from rust-hdl's Verilog ([`hdl::rtl_util::parse_ports`]).
pub fn parse_ports(verilog: &str) -> Result<Vec<Port>> {
    hdl::rtl_util::parse_ports(verilog).map_err(anyhow::Error::msg)
}

/// The Verilog that is verilated: rust-hdl's `top` renamed `vb_dut`, under a new `top` with the
/// same ports plus `vb_load`, whose inputs go through registers loaded by `vb_load`.
///
/// Why: Verilator settles a design's combinational logic in its input region on every `eval`,
/// whatever changed. With the inputs driven straight into rust-hdl's logic, a clock took three
/// settles: the new inputs, the same inputs again on the clock edge's `eval`, and the logic
/// after the edge. With registered inputs no logic depends on a top-level input, so the input
/// region is empty, and one `eval` takes the previous clock's edge and loads the new inputs
/// together, after which the logic settles once ([`VerilatedTop::eval`], the shim's `vb_present`).
///
/// For speed (`both_edges`), every rust-hdl register (`always @(posedge clock)`, and the RAMs'
/// `read_clock`/`write_clock`, which rust-hdl wires from `clock`) and the input registers take
/// both edges, so a clock is one toggle and one `eval`; without it (waveform builds) they keep
/// rising edges, and a clock is two `eval`s and two time steps in the VCD, as a testbench draws
/// it: the edge, then the inputs with the clock low. A combinational top (no `clock` port, a
/// component under test) gets a `clock` of the wrapper's own.
pub fn registered_inputs_wrapper(verilog: &str, ports: &[Port], both_edges: bool) -> Result<String> {
    let clocked = ports.iter().any(|p| p.name == "clock");
    if clocked && !ports.iter().any(|p| p.name == "clock" && p.input && p.width == 1) {
        bail!("the top's `clock` is not a 1-bit input");
    }
    if verilog.contains("module vb_dut(") || ports.iter().any(|p| p.name == "vb_load") {
        bail!("the names `vb_dut` and `vb_load` are the bridge's own");
    }
    let mut v = verilog.replacen("module top(", "module vb_dut(", 1);
    if both_edges {
        for clk in ["clock", "read_clock", "write_clock"] {
            v = v.replace(&format!("always @(posedge {clk})"), &format!("always @(posedge {clk} or negedge {clk})"));
        }
    }
    let range = |w: u32| if w > 1 { format!("[{}:0] ", w - 1) } else { String::new() };
    // a combinational top gets a `clock` of the wrapper's own, which the shim drives
    let mut names: Vec<&str> = if clocked { vec![] } else { vec!["clock"] };
    names.extend(ports.iter().map(|p| p.name.as_str()));
    v.push_str(&format!(
        "\n// Added by sim-tests/rtl-sim/src/verilator.rs: registered inputs (see registered_inputs_wrapper).\nmodule top({}, vb_load);\n    input wire vb_load;\n{}",
        names.join(", "),
        if clocked { "" } else { "    input wire clock;\n" }
    ));
    let mut load = String::new();
    let mut conn = vec![];
    for p in ports {
        if p.input {
            v.push_str(&format!("    input wire {}{};\n", range(p.width), p.name));
            if p.name == "clock" {
                conn.push(".clock(clock)".to_string());
            } else {
                v.push_str(&format!("    reg {}{}_vbq;\n", range(p.width), p.name));
                load.push_str(&format!("        {0}_vbq <= {0};\n", p.name));
                conn.push(format!(".{0}({0}_vbq)", p.name));
            }
        } else {
            v.push_str(&format!("    output wire {}{};\n", range(p.width), p.name));
            conn.push(format!(".{0}({0})", p.name));
        }
    }
    let event = if both_edges { "posedge vb_load or negedge vb_load" } else { "posedge vb_load" };
    v.push_str(&format!("    always @({event}) begin\n{load}    end\n    vb_dut dut({});\nendmodule\n", conn.join(", ")));
    Ok(v)
}

/// The shim; a traced one (`verilator --trace`) dumps every `eval` as one VCD time step.
/// `vb_present(edge)`: take a clock edge if `edge`, load the inputs, settle (see
/// [`registered_inputs_wrapper`] for the two forms).
fn shim_source(ports: &[Port], traced: bool) -> String {
    let mut s = String::from(
        "// Generated by sim-tests/rtl-sim/src/verilator.rs: C ABI over the Verilated top.\n\
         #include \"Vtop.h\"\n#include \"verilated.h\"\n",
    );
    if traced {
        s.push_str(
            "#include \"verilated_vcd_c.h\"\n\
             struct Handle { VerilatedContext* ctx; Vtop* top; VerilatedVcdC* vcd; };\n\
             extern \"C\" {\n\
             void* vb_new() { auto* h = new Handle; h->ctx = new VerilatedContext; h->ctx->traceEverOn(true); h->top = new Vtop{h->ctx, \"top\"}; h->vcd = nullptr; return h; }\n\
             void vb_trace(void* p, const char* path) { auto* h = (Handle*)p; h->vcd = new VerilatedVcdC; h->top->trace(h->vcd, 99); h->vcd->open(path); }\n\
             void vb_delete(void* p) { auto* h = (Handle*)p; h->top->final(); if (h->vcd) { h->vcd->close(); delete h->vcd; } delete h->top; delete h->ctx; delete h; }\n\
             static void eval_dump(Handle* h) { h->top->eval(); if (h->vcd) { h->vcd->dump(h->ctx->time()); h->ctx->timeInc(1); } }\n\
             void vb_present(void* p, int edge) { auto* h = (Handle*)p; if (edge) { h->top->clock = 1; eval_dump(h); h->top->clock = 0; } h->top->vb_load = 1; eval_dump(h); h->top->vb_load = 0; }\n",
        );
    } else {
        s.push_str(
            "struct Handle { VerilatedContext* ctx; Vtop* top; };\n\
             extern \"C\" {\n\
             void* vb_new() { auto* h = new Handle; h->ctx = new VerilatedContext; h->top = new Vtop{h->ctx, \"top\"}; return h; }\n\
             void vb_delete(void* p) { auto* h = (Handle*)p; h->top->final(); delete h->top; delete h->ctx; delete h; }\n\
             void vb_present(void* p, int edge) { Vtop* t = ((Handle*)p)->top; if (edge) t->clock = !t->clock; t->vb_load = !t->vb_load; t->eval(); }\n",
        );
    }
    s.push_str("void* vb_port(void* p, int idx) {\n  Vtop* t = ((Handle*)p)->top;\n  switch (idx) {\n");
    for (i, p) in ports.iter().enumerate() {
        s.push_str(&format!("    case {i}: return (void*)&(t->{});\n", p.name));
    }
    s.push_str("    default: return nullptr;\n  }\n}\n}\n");
    s
}

/// FNV-1a, stable across Rust versions (the cache key).
fn fnv1a(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in data {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The cargo target folder (`$CARGO_TARGET_DIR` or the workspace's `target`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// Where Verilator is, or a message that says what to install.
pub fn verilator_root() -> Result<PathBuf> {
    let out = Command::new("verilator").arg("--getenv").arg("VERILATOR_ROOT").output().map_err(|_| {
        anyhow!("verilator is not installed: run `sudo apt-get install verilator` (Debian 12 ships 5.006), or the README's test command, which installs it")
    })?;
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

fn run(cmd: &mut Command, what: &str, log: &Path) -> Result<()> {
    let out = cmd.output().with_context(|| format!("cannot start {what}"))?;
    let mut text = out.stdout.clone();
    text.extend_from_slice(&out.stderr);
    std::fs::write(log, &text).ok();
    if !out.status.success() {
        bail!("{what} failed ({}):\n{}", out.status, String::from_utf8_lossy(&text));
    }
    Ok(())
}

/// Run `verilator --lint-only -Wall` with the project's waivers; Ok when it is clean.
pub fn lint(verilog: &str) -> Result<()> {
    lint_with(verilog, &[])
}

/// [`lint`] with extra waivers for one top (each caller justifies its own).
pub fn lint_with(verilog: &str, extra_waivers: &[&str]) -> Result<()> {
    verilator_root()?;
    let dir = std::env::temp_dir().join(format!("vlint-{}-{:x}", std::process::id(), fnv1a(verilog.as_bytes())));
    std::fs::create_dir_all(&dir)?;
    let v = dir.join("top.v");
    std::fs::write(&v, verilog)?;
    let r = run(
        Command::new("verilator").args(["--lint-only", "-Wall", "--top-module", "top"]).args(LINT_WAIVERS).args(extra_waivers).arg(&v),
        "verilator --lint-only -Wall",
        &dir.join("lint.log"),
    );
    std::fs::remove_dir_all(&dir).ok();
    r
}

/// Where waveforms go: `$WAVES` (a folder), when set.
pub fn waves_dir() -> Option<PathBuf> {
    std::env::var_os("WAVES").filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// Every VCD file this process opened, in order.
static WAVES_WRITTEN: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// The VCD files this process has written (with `$WAVES` set), in order.
pub fn waves_written() -> Vec<PathBuf> {
    WAVES_WRITTEN.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The next waveform file in `dir` for `name` (`<name>-<n>.vcd`, n counting this process's
/// files), recorded for [`waves_written`].
pub fn next_wave_file(dir: &Path, name: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut written = WAVES_WRITTEN.lock().unwrap_or_else(|e| e.into_inner());
    let path = dir.join(format!("{name}-{}.vcd", written.len()));
    written.push(path.clone());
    Ok(path)
}

fn build_library(name: &str, verilog: &str, ports: &[Port], traced: bool) -> Result<PathBuf> {
    let root = verilator_root()?;
    let key = fnv1a(format!("{verilog}\n{}\n{}", shim_source(ports, traced), VERILATOR_FLAGS.join(" ")).as_bytes());
    let dir = target_dir().join("verilated").join(format!("{name}{}-{key:016x}", if traced { "-trace" } else { "" }));
    cached(&dir, "libvtop.so", "the Verilated build", |tmp| {
        std::fs::write(tmp.join("top.v"), verilog)?;
        std::fs::write(tmp.join("shim.cpp"), shim_source(ports, traced))?;
        let spin = crate::progress::spinner(format!("verilating {name}{} (once: the build is cached in target/verilated/)", if traced { " with --trace" } else { "" }));
        let built = compile(tmp, &root, traced);
        crate::progress::done(spin);
        built
    })
}

/// `dir/product`, built once: when it is missing, `build` makes it in a temporary folder beside
/// `dir` that is then renamed into place (unique per build: tests in one process, or several
/// processes, may build the same thing in parallel, and the first rename wins).
fn cached(dir: &Path, product: &str, what: &str, build: impl FnOnce(&Path) -> Result<()>) -> Result<PathBuf> {
    let out = dir.join(product);
    if out.exists() {
        return Ok(out);
    }
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.with_extension(format!("tmp{}-{seq}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    if let Err(e) = build(&tmp) {
        std::fs::remove_dir_all(&tmp).ok();
        return Err(e);
    }
    match std::fs::rename(&tmp, dir) {
        Ok(()) => {}
        Err(_) if out.exists() => {
            std::fs::remove_dir_all(&tmp).ok();
        }
        Err(e) => return Err(e).with_context(|| format!("cannot move {what} into place")),
    }
    Ok(out)
}

/// Verilator's optimisation flags, part of the cache key. Verilator's makefile compiles the
/// model's hot code with `OPT_FAST` (`-Os` by default, after `-CFLAGS`, so it wins): it is set
/// to `-O3` here, which is most of the Verilated speed.
const VERILATOR_FLAGS: &[&str] =
    &["-O3", "--x-assign", "fast", "--x-initial", "fast", "-CFLAGS", "-fPIC", "-MAKEFLAGS", "OPT_FAST=-O3", "-MAKEFLAGS", "OPT_GLOBAL=-O2", "-MAKEFLAGS", "OPT_SLOW=-O1"];

/// Verilate `top.v` in `tmp` and link it with `shim.cpp` into `libvtop.so`.
fn compile(tmp: &Path, root: &Path, traced: bool) -> Result<()> {
    let jobs = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).to_string();
    let trace: &[&str] = if traced { &["--trace"] } else { &[] };
    run(
        Command::new("verilator")
            .current_dir(tmp)
            .args(["--cc", "top.v", "--top-module", "top", "--prefix", "Vtop", "--Mdir", "obj", "--build", "-j", &jobs])
            .args(VERILATOR_FLAGS)
            .args(trace)
            .args(LINT_WAIVERS),
        "verilator --cc --build",
        &tmp.join("verilator.log"),
    )?;
    let inc = root.join("include");
    let runtime = runtime_library(root)?;
    run(
        Command::new("g++")
            .current_dir(tmp)
            .args(["-shared", "-fPIC", "-O2", "-std=c++17", "-o", "libvtop.so", "shim.cpp"])
            .arg("-Iobj")
            .arg(format!("-I{}", inc.display()))
            .arg(format!("-I{}", inc.join("vltstd").display()))
            .args(["obj/Vtop__ALL.a"])
            .arg(&runtime)
            .args(["-pthread", "-latomic"]),
        "g++ (linking the Verilated model)",
        &tmp.join("link.log"),
    )
}

/// Verilator's runtime sources every model links (the VCD writer is linked only by a traced
/// build that uses it).
const RUNTIME_SOURCES: &[&str] = &["verilated.cpp", "verilated_threads.cpp", "verilated_vcd_c.cpp"];

/// Verilator's runtime compiled once (about 10 s of CPU) into a static archive under
/// `target/verilated/runtime-<hash>/`, keyed by its sources, and linked into every model after.
fn runtime_library(root: &Path) -> Result<PathBuf> {
    let inc = root.join("include");
    let mut sources = String::new();
    for f in RUNTIME_SOURCES {
        let p = inc.join(f);
        sources += &std::fs::read_to_string(&p).with_context(|| format!("cannot read Verilator's {}", p.display()))?;
    }
    let dir = target_dir().join("verilated").join(format!("runtime-{:016x}", fnv1a(sources.as_bytes())));
    cached(&dir, "libverilated.a", "Verilator's runtime", |tmp| {
        let mut objects = Vec::new();
        for f in RUNTIME_SOURCES {
            let o = Path::new(f).with_extension("o");
            run(
                Command::new("g++")
                    .current_dir(tmp)
                    .args(["-c", "-fPIC", "-O2", "-std=c++17"])
                    .arg(format!("-I{}", inc.display()))
                    .arg(format!("-I{}", inc.join("vltstd").display()))
                    .arg(inc.join(f))
                    .arg("-o")
                    .arg(&o),
                "g++ (Verilator's runtime)",
                &tmp.join("runtime.log"),
            )?;
            objects.push(o);
        }
        run(Command::new("ar").current_dir(tmp).arg("rcs").arg("libverilated.a").args(&objects), "ar (Verilator's runtime)", &tmp.join("ar.log"))
    })
}

/// A Verilated top loaded in this process.
pub struct VerilatedTop {
    handle: *mut c_void,
    present_fn: unsafe extern "C" fn(*mut c_void, i32),
    delete_fn: unsafe extern "C" fn(*mut c_void),
    /// Per port, what `set`/`get` need on every clock, in one place.
    slots: Vec<Slot>,
    ports: Vec<Port>,
    /// A clock edge asked for by [`Self::tick`] and not yet taken (it is taken with the next
    /// inputs, in one settle).
    pending_edge: bool,
    /// An input was written since the last [`Self::eval`].
    dirty: bool,
    _lib: libloading::Library,
}

// SAFETY: a VerilatedTop owns its model and library handle outright; the model is driven from
// one thread at a time (moving it is fine, sharing it is not: no Sync).
unsafe impl Send for VerilatedTop {}

#[derive(Clone, Copy)]
struct Slot {
    ptr: *mut u8,
    width: u32,
    /// An input other than `clock` (which the bridge drives).
    drivable: bool,
}

/// Index of a port of a [`VerilatedTop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortId(usize);

/// A struct of a top's ports by name: `named_ports!(EncPorts { cfg_we, cfg_addr })` declares
/// `EncPorts` with one [`PortId`] field per port and `EncPorts::find(&top)`, which fails naming
/// the first port the top does not have. The driver then writes `top.set(p.cfg_we, 1)`: no
/// positional index to keep in step with a list.
#[macro_export]
macro_rules! named_ports {
    ($name:ident { $($port:ident),* $(,)? }) => {
        #[derive(Clone, Copy)]
        struct $name {
            $($port: $crate::verilator::PortId,)*
        }
        impl $name {
            fn find(top: &$crate::verilator::VerilatedTop) -> anyhow::Result<Self> {
                Ok($name { $($port: top.port(stringify!($port))?,)* })
            }
        }
    };
}

impl VerilatedTop {
    /// Verilate `verilog` (rust-hdl output with `module top`) or reuse the cached build. With
    /// `$WAVES` set to a folder, the build is traced and the run is dumped to
    /// `$WAVES/<name>-<n>.vcd` (n counts this process's waveform files), two time steps per
    /// clock (the rising edge, then the next inputs with the clock low); [`waves_written`]
    /// lists the files.
    pub fn build(name: &str, verilog: &str) -> Result<VerilatedTop> {
        let ports = parse_ports(verilog)?;
        let waves = waves_dir();
        let wrapped = registered_inputs_wrapper(verilog, &ports, waves.is_none())?;
        let lib_path = build_library(name, &wrapped, &ports, waves.is_some())?;
        // SAFETY: the library is the one just built from the generated shim, whose exported
        // symbols have exactly these signatures.
        unsafe {
            let lib = libloading::Library::new(&lib_path).with_context(|| format!("loading {}", lib_path.display()))?;
            let new_fn: libloading::Symbol<unsafe extern "C" fn() -> *mut c_void> = lib.get(b"vb_new")?;
            let present_fn = *lib.get::<unsafe extern "C" fn(*mut c_void, i32)>(b"vb_present")?;
            let delete_fn = *lib.get::<unsafe extern "C" fn(*mut c_void)>(b"vb_delete")?;
            let port_fn = *lib.get::<unsafe extern "C" fn(*mut c_void, i32) -> *mut c_void>(b"vb_port")?;
            let handle = new_fn();
            if let Some(dir) = waves {
                let trace_fn = *lib.get::<unsafe extern "C" fn(*mut c_void, *const std::ffi::c_char)>(b"vb_trace")?;
                let path = next_wave_file(&dir, name)?;
                let c = std::ffi::CString::new(path.to_string_lossy().as_bytes())?;
                trace_fn(handle, c.as_ptr());
            }
            let slots = ports
                .iter()
                .enumerate()
                .map(|(i, p)| Slot { ptr: port_fn(handle, i as i32) as *mut u8, width: p.width, drivable: p.input && p.name != "clock" })
                .collect::<Vec<_>>();
            if slots.iter().any(|s| s.ptr.is_null()) {
                bail!("the shim returned no address for a port");
            }
            let mut top = VerilatedTop { handle, present_fn, delete_fn, slots, ports, pending_edge: false, dirty: true, _lib: lib };
            top.eval();
            Ok(top)
        }
    }

    pub fn ports(&self) -> &[Port] {
        &self.ports
    }

    pub fn port(&self, name: &str) -> Result<PortId> {
        self.ports.iter().position(|p| p.name == name).map(PortId).ok_or_else(|| anyhow!("the top has no port `{name}`"))
    }

    /// Write a port of up to 64 bits (the value is masked to the port width); it reaches the
    /// logic at the next [`Self::eval`]. `clock` is the bridge's: [`Self::tick`] drives it.
    #[inline(always)]
    pub fn set(&mut self, id: PortId, v: u64) {
        self.set_many(std::slice::from_ref(&id), &[v]);
    }

    /// Read a port of up to 64 bits (the low 64 bits of a wider one), as of the last
    /// [`Self::eval`]; reading across a pending [`Self::tick`] is a caller's bug and panics.
    #[inline(always)]
    pub fn get(&self, id: PortId) -> u64 {
        let mut v = [0];
        self.get_many(std::slice::from_ref(&id), &mut v);
        v[0]
    }

    /// Write many ports of up to 64 bits (each value masked to its port's width).
    #[inline(always)]
    pub fn set_many(&mut self, ids: &[PortId], values: &[u64]) {
        for (id, &v) in ids.iter().zip(values) {
            let s = self.slots[id.0];
            if !s.drivable {
                self.not_drivable(*id);
            }
            if s.width > 64 {
                self.set_wide(*id, v);
                continue;
            }
            let v = if s.width == 64 { v } else { v & ((1u64 << s.width) - 1) };
            // SAFETY: the slot's pointer is the Verilated member of the width class of this
            // port (CData ≤ 8, SData ≤ 16, IData ≤ 32, QData ≤ 64 bits).
            unsafe {
                match s.width {
                    0..=8 => *s.ptr = v as u8,
                    9..=16 => *(s.ptr as *mut u16) = v as u16,
                    17..=32 => *(s.ptr as *mut u32) = v as u32,
                    _ => *(s.ptr as *mut u64) = v,
                }
            }
        }
        self.dirty = true;
    }

    /// Read many ports (as [`Self::get`], the pending-edge check once per call).
    #[inline(always)]
    pub fn get_many(&self, ids: &[PortId], out: &mut [u64]) {
        assert!(!self.pending_edge, "VerilatedTop: a pin read after tick: call eval first");
        for (o, id) in out.iter_mut().zip(ids) {
            let s = self.slots[id.0];
            // SAFETY: as in `set_many`.
            *o = unsafe {
                match s.width {
                    0..=8 => *s.ptr as u64,
                    9..=16 => *(s.ptr as *const u16) as u64,
                    17..=32 => *(s.ptr as *const u32) as u64,
                    33..=64 => *(s.ptr as *const u64),
                    _ => self.get_wide_low(*id),
                }
            };
        }
    }

    #[cold]
    fn not_drivable(&self, id: PortId) -> ! {
        panic!("{} is not an input the caller drives (outputs are read, `clock` is driven by tick)", self.ports[id.0].name)
    }

    #[cold]
    fn set_wide(&mut self, id: PortId, v: u64) {
        let mut words = vec![0u32; self.ports[id.0].width.div_ceil(32) as usize];
        words[0] = v as u32;
        words[1] = (v >> 32) as u32;
        self.set_words(id, &words);
    }

    #[cold]
    fn get_wide_low(&self, id: PortId) -> u64 {
        let w = self.get_words(id);
        w[0] as u64 | (w[1] as u64) << 32
    }

    /// Write a port of any width as little-endian 32-bit words.
    pub fn set_words(&mut self, id: PortId, words: &[u32]) {
        let p = &self.ports[id.0];
        if !self.slots[id.0].drivable {
            self.not_drivable(id);
        }
        self.dirty = true;
        let n = p.width.div_ceil(32) as usize;
        if p.width <= 64 {
            let v = words.first().copied().unwrap_or(0) as u64 | (words.get(1).copied().unwrap_or(0) as u64) << 32;
            return self.set(id, v);
        }
        let top_mask = if p.width % 32 == 0 { u32::MAX } else { (1u32 << (p.width % 32)) - 1 };
        // SAFETY: a port over 64 bits is a VlWide<n>, whose storage is n EData (u32) words.
        unsafe {
            let dst = self.slots[id.0].ptr as *mut u32;
            for i in 0..n {
                let mut w = words.get(i).copied().unwrap_or(0);
                if i == n - 1 {
                    w &= top_mask;
                }
                *dst.add(i) = w;
            }
        }
    }

    /// Read a port of any width as little-endian 32-bit words.
    pub fn get_words(&self, id: PortId) -> Vec<u32> {
        assert!(!self.pending_edge, "VerilatedTop::get_words after tick: call eval first");
        let p = &self.ports[id.0];
        if p.width <= 64 {
            let v = self.get(id);
            return if p.width <= 32 { vec![v as u32] } else { vec![v as u32, (v >> 32) as u32] };
        }
        let n = p.width.div_ceil(32) as usize;
        // SAFETY: as in `set_words`.
        unsafe { (0..n).map(|i| *(self.slots[id.0].ptr as *const u32).add(i)).collect() }
    }

    /// Take the pending clock edge, if any, then present the inputs written since and settle:
    /// the outputs are then those of this clock. One Verilator `eval` (two in a waveform
    /// build); the logic settles once (see [`registered_inputs_wrapper`]).
    #[inline]
    pub fn eval(&mut self) {
        // SAFETY: handle came from vb_new of the same library and is live until drop.
        unsafe { (self.present_fn)(self.handle, self.pending_edge as i32) }
        self.pending_edge = false;
        self.dirty = false;
    }

    /// A rising clock edge with the inputs of the last [`Self::eval`] (or, if inputs were written
    /// since, with those). The edge is taken by the next `eval`, together with that clock's
    /// inputs, so read outputs after an `eval`: [`Self::get`] refuses to read across a pending
    /// edge.
    #[inline]
    pub fn tick(&mut self) {
        if self.pending_edge || self.dirty {
            self.eval();
        }
        self.pending_edge = true;
    }
}

impl Drop for VerilatedTop {
    fn drop(&mut self) {
        // SAFETY: the handle is live and deleted once.
        unsafe { (self.delete_fn)(self.handle) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_are_parsed_with_widths() {
        let v = "module top(clock,a,y);\n    // Module arguments\n    input wire  clock;\n    input wire  [95:0] a;\n    output reg  [1:0] y;\n    \n    // Stub signals\n";
        let p = parse_ports(v).unwrap();
        assert_eq!(p, vec![
            Port { name: "clock".into(), width: 1, input: true },
            Port { name: "a".into(), width: 96, input: true },
            Port { name: "y".into(), width: 2, input: false },
        ]);
    }

    #[test]
    fn the_wrapper_registers_every_input_but_the_clock() {
        let v = "module top(clock,a,y);\n    input wire  clock;\n    input wire  [95:0] a;\n    output reg  [1:0] y;\nalways @(posedge clock) y <= a[1:0];\nendmodule\n";
        let p = parse_ports(v).unwrap();
        let fast = registered_inputs_wrapper(v, &p, true).unwrap();
        assert!(fast.contains("module vb_dut(clock,a,y);") && fast.contains("module top(clock, a, y, vb_load);"));
        assert!(fast.contains("    reg [95:0] a_vbq;\n") && fast.contains("a_vbq <= a;") && !fast.contains("clock_vbq"));
        assert!(fast.contains("vb_dut dut(.clock(clock), .a(a_vbq), .y(y));"));
        assert!(fast.contains("always @(posedge clock or negedge clock) y") && fast.contains("always @(posedge vb_load or negedge vb_load)"));
        let traced = registered_inputs_wrapper(v, &p, false).unwrap();
        assert!(traced.contains("always @(posedge clock) y") && traced.contains("always @(posedge vb_load)"));
        let comb = "module top(a,y);\n    input wire  a;\n    output reg  y;\n";
        let w = registered_inputs_wrapper(comb, &parse_ports(comb).unwrap(), true).unwrap();
        assert!(w.contains("module top(clock, a, y, vb_load);") && w.contains("    input wire clock;\n") && w.contains("vb_dut dut(.a(a_vbq), .y(y));"));
    }

    #[test]
    fn shim_names_every_port() {
        let ports = vec![Port { name: "x".into(), width: 3, input: true }];
        assert!(shim_source(&ports, false).contains("case 0: return (void*)&(t->x);"));
        assert!(shim_source(&ports, true).contains("vb_trace") && !shim_source(&ports, false).contains("vb_trace"));
    }
}
