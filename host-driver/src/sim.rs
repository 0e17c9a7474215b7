//! The `sim` backend: a shared-memory mailbox file (`crate::shm`) mapped with `memmap2` and
//! served by a simulator process that runs the Verilated NIC top, one bus word per clock
//! (`nic-sim`, the `rtl-sim` crate's program around `rtl_sim::nic::serve`).
//!
//! [`SimDevice::start`] creates the mailbox, starts the server and waits for it (the first run
//! verilates the NIC, which takes a minute; later runs reuse the build). [`SimDevice::attach`]
//! uses a server someone else started. Every request has a deadline, and while it waits the
//! driver checks that the server process is still there.

use crate::device::{check_access, Device, NicError, Result};
use crate::shm::{self, op, state, status, word, Mailbox};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long one bus request may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a server may take to start (the first start verilates and compiles the NIC).
pub const START_TIMEOUT: Duration = Duration::from_secs(900);

/// A simulated NIC: a mailbox file and the `nic-sim` process serving it.
pub struct SimDevice {
    path: PathBuf,
    _map: memmap2::MmapMut,
    mb: Mailbox,
    child: Option<Child>,
    pid: u32,
    cycles: u64,
    words: u64,
    /// The mailbox is ours to remove.
    owned: bool,
}

/// The simulator program's name (`sim-tests/rtl-sim/src/bin/nic-sim.rs`).
pub const SERVER: &str = "nic-sim";

/// The program that serves the mailbox: `$CBNIC_SIM_SERVER`, else `nic-sim` beside this
/// program or one folder up (cargo's `target/<profile>/deps` layout).
pub fn server_program() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("CBNIC_SIM_SERVER") {
        return Ok(PathBuf::from(p));
    }
    let me = std::env::current_exe().map_err(|e| NicError::Device(format!("cannot find this program: {e}")))?;
    let dir = me.parent().unwrap_or(Path::new("."));
    for d in [Some(dir), dir.parent()].into_iter().flatten() {
        let c = d.join(SERVER);
        if c.exists() {
            return Ok(c);
        }
    }
    Err(NicError::NoDevice(format!(
        "cannot find the simulator program `{SERVER}` beside {}: build it with `cargo build --release -p rtl-sim --bin {SERVER}` \
         (it lands beside cbnic in target/release), or set CBNIC_SIM_SERVER to its path",
        me.display()
    )))
}

/// Mailboxes this process created and has not removed yet.
static OWNED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Remove every mailbox this process created: for a signal handler (`cbnic` calls it on
/// Ctrl-C), as a process that exits on a signal runs no destructors. The servers exit when their
/// mailbox is gone.
pub fn remove_mailboxes() {
    let mut owned = OWNED.lock().unwrap_or_else(|e| e.into_inner());
    for p in owned.drain(..) {
        std::fs::remove_file(p).ok();
    }
}

/// For a program's `main`: on Ctrl-C or SIGTERM, remove this process's mailboxes and exit
/// with 130 (a process killed by a signal runs no destructors).
pub fn remove_mailboxes_on_signal() {
    ctrlc::set_handler(|| {
        remove_mailboxes();
        std::process::exit(130);
    })
    .ok();
}

fn mailbox_dir() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && std::fs::read_to_string(format!("/proc/{pid}/stat")).map(|s| !s.contains(") Z ")).unwrap_or(false)
}

/// Create and initialize a mailbox file.
pub fn create_mailbox(path: &Path) -> Result<memmap2::MmapMut> {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
        .map_err(|e| crate::device::open_error(&path.display().to_string(), e))?;
    f.set_len(shm::FILE_BYTES as u64).map_err(|e| NicError::Device(format!("{}: {e}", path.display())))?;
    // SAFETY: a file we just created; accessed only through Mailbox.
    let mut map = unsafe { memmap2::MmapMut::map_mut(&f) }.map_err(|e| NicError::Device(format!("cannot map {}: {e}", path.display())))?;
    // SAFETY: FILE_BYTES long, page-aligned, and the map outlives the view.
    unsafe { Mailbox::new(map.as_mut_ptr()) }.init();
    Ok(map)
}

fn forget_mailbox(path: &Path) {
    std::fs::remove_file(path).ok();
    OWNED.lock().unwrap_or_else(|e| e.into_inner()).retain(|p| p != path);
}

impl SimDevice {
    /// Start a simulator process for `build` (`full` or `small`) and wait until it serves.
    pub fn start(build: &str) -> Result<SimDevice> {
        Self::start_with(build, &[])
    }

    /// [`SimDevice::start`] with extra `nic-sim` arguments (the tests' fault injection).
    pub fn start_with(build: &str, extra: &[&str]) -> Result<SimDevice> {
        static SEQ: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = mailbox_dir().join(format!("cbnic-sim-{}-{n}.shm", std::process::id()));
        let prog = server_program()?;
        let mut map = create_mailbox(&path)?;
        OWNED.lock().unwrap_or_else(|e| e.into_inner()).push(path.clone());
        // SAFETY: as in create_mailbox.
        let mb = unsafe { Mailbox::new(map.as_mut_ptr()) };
        let child = Command::new(&prog)
            .arg("--mailbox")
            .arg(&path)
            .args(["--build", build])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| NicError::NoDevice(format!("cannot start the simulator {}: {e}", prog.display())));
        let child = match child {
            Ok(c) => c,
            Err(e) => {
                forget_mailbox(&path);
                return Err(e);
            }
        };
        let pid = child.id();
        let mut dev = SimDevice { path, _map: map, mb, child: Some(child), pid, cycles: 0, words: 0, owned: true };
        dev.wait_ready(START_TIMEOUT)?;
        Ok(dev)
    }

    /// Use the server already serving the mailbox at `path` (`nic-sim --mailbox PATH`).
    pub fn attach(path: &Path) -> Result<SimDevice> {
        let what = path.display().to_string();
        let f = std::fs::OpenOptions::new().read(true).write(true).open(path).map_err(|e| crate::device::open_error(&what, e))?;
        let len = f.metadata().map_err(|e| NicError::Device(format!("{what}: {e}")))?.len();
        if len < shm::FILE_BYTES as u64 {
            return Err(NicError::NoDevice(format!("{what} is {len} bytes: not a simulator mailbox")));
        }
        // SAFETY: as in create_mailbox.
        let mut map = unsafe { memmap2::MmapMut::map_mut(&f) }.map_err(|e| NicError::Device(format!("cannot map {what}: {e}")))?;
        // SAFETY: as in create_mailbox.
        let mb = unsafe { Mailbox::new(map.as_mut_ptr()) };
        if mb.get(word::MAGIC) != shm::MAGIC {
            return Err(NicError::NoDevice(format!("{what} is not a simulator mailbox")));
        }
        let pid = mb.get(word::SERVER_PID);
        let mut dev = SimDevice { path: path.to_path_buf(), _map: map, mb, child: None, pid, cycles: 0, words: 0, owned: false };
        dev.wait_ready(Duration::from_secs(5))?;
        Ok(dev)
    }

    fn wait_ready(&mut self, limit: Duration) -> Result<()> {
        let t0 = Instant::now();
        loop {
            match self.mb.get(word::STATE) {
                state::READY => {
                    self.pid = self.mb.get(word::SERVER_PID);
                    return Ok(());
                }
                state::FAILED => return Err(NicError::SimulatorGone(format!("it could not start: {}", self.mb.error_text()))),
                state::EXITED => return Err(NicError::SimulatorGone("it has exited".into())),
                _ => {}
            }
            self.check_alive()?;
            if t0.elapsed() > limit {
                return Err(NicError::Timeout { what: "the simulator to start".into(), after: limit });
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn check_alive(&mut self) -> Result<()> {
        if let Some(c) = self.child.as_mut() {
            if let Ok(Some(st)) = c.try_wait() {
                return Err(NicError::SimulatorGone(format!("process {} exited ({st})", self.pid)));
            }
            return Ok(());
        }
        if self.pid != 0 && !alive(self.pid) {
            return Err(NicError::SimulatorGone(format!("process {} no longer exists", self.pid)));
        }
        if self.mb.get(word::STATE) == state::EXITED {
            return Err(NicError::SimulatorGone("it has exited".into()));
        }
        Ok(())
    }

    /// One request: put `data` (writes), wait for the answer, get `out` (reads).
    fn call(&mut self, opcode: u32, addr: u32, data: &[u32], out: &mut [u32]) -> Result<()> {
        let count = data.len().max(out.len());
        self.mb.set(word::OP, opcode);
        self.mb.set(word::ADDR, addr);
        self.mb.set(word::COUNT, count as u32);
        self.mb.put_data(data);
        let seq = self.mb.bump(word::REQ_SEQ);
        let t0 = Instant::now();
        let mut spins = 0u32;
        while self.mb.get(word::RESP_SEQ) != seq {
            spins += 1;
            if spins < 2000 {
                std::hint::spin_loop();
                continue;
            }
            if spins % 64 == 0 {
                self.check_alive()?;
                if t0.elapsed() > REQUEST_TIMEOUT {
                    return Err(NicError::Timeout { what: format!("the simulator to answer a bus request at {addr:#x}"), after: REQUEST_TIMEOUT });
                }
            }
            std::thread::yield_now();
        }
        match self.mb.get(word::STATUS) {
            status::OK => {}
            status::BAD_ADDRESS => return Err(NicError::BadInput(format!("the simulator refused {count} word(s) at {addr:#x}: outside BAR0"))),
            s => return Err(NicError::Device(format!("the simulator refused request {opcode} (status {s})"))),
        }
        self.mb.get_data(out);
        self.cycles = self.mb.cycles();
        if opcode == op::READ || opcode == op::WRITE {
            self.words += count as u64;
        }
        Ok(())
    }

    /// The mailbox file.
    pub fn mailbox(&self) -> &Path {
        &self.path
    }

    /// The serving process's id.
    pub fn server_pid(&self) -> u32 {
        self.pid
    }
}

impl Device for SimDevice {
    fn read32(&mut self, off: u32) -> Result<u32> {
        let mut v = [0u32];
        self.read_block(off, &mut v)?;
        Ok(v[0])
    }
    fn write32(&mut self, off: u32, v: u32) -> Result<()> {
        self.write_block(off, &[v])
    }
    fn read_block(&mut self, off: u32, out: &mut [u32]) -> Result<()> {
        check_access(off, out.len(), hdl::nic::BAR_SIZE as u64)?;
        for (i, chunk) in out.chunks_mut(shm::MAX_WORDS).enumerate() {
            self.call(op::READ, off + (4 * shm::MAX_WORDS * i) as u32, &[], chunk)?;
        }
        Ok(())
    }
    fn write_block(&mut self, off: u32, data: &[u32]) -> Result<()> {
        check_access(off, data.len(), hdl::nic::BAR_SIZE as u64)?;
        for (i, chunk) in data.chunks(shm::MAX_WORDS).enumerate() {
            self.call(op::WRITE, off + (4 * shm::MAX_WORDS * i) as u32, chunk, &mut [])?;
        }
        Ok(())
    }
    fn reset(&mut self) -> Result<()> {
        self.call(op::RESET, 0, &[], &mut [])
    }
    fn describe(&self) -> String {
        format!("sim (pid {}, mailbox {})", self.pid, self.path.display())
    }
    fn bus_words(&self) -> Option<u64> {
        Some(self.words)
    }
}

impl Drop for SimDevice {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // ask politely, then make sure
            if matches!(c.try_wait(), Ok(None)) {
                self.mb.set(word::OP, op::SHUTDOWN);
                self.mb.bump(word::REQ_SEQ);
                let t0 = Instant::now();
                // the server answers, then exits
                while t0.elapsed() < Duration::from_secs(2) && matches!(c.try_wait(), Ok(None)) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                if matches!(c.try_wait(), Ok(None)) {
                    c.kill().ok();
                }
            }
            c.wait().ok();
        }
        if self.owned {
            forget_mailbox(&self.path);
        }
    }
}
