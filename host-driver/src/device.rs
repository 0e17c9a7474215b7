//! The `Device` trait (32-bit register access to BAR0 and its buffer windows), the driver's
//! error type, and the engine names the CLI takes (`soft`, `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR`,
//! `mmap:PATH`).

use std::fmt;
use std::time::Duration;

/// Everything the driver can fail with; each says what was wrong and what to do.
#[derive(Debug)]
pub enum NicError {
    /// Nothing at the given address or path.
    NoDevice(String),
    /// The device exists but this user may not open it.
    PermissionDenied(String),
    /// The BAR (or the file standing in for it) is smaller than the register map.
    BarTooSmall {
        /// The device.
        what: String,
        /// Its size in bytes.
        len: u64,
        /// The register map's size.
        need: u64,
    },
    /// The ID register does not hold the core's magic: not this core, or not a working device.
    WrongId {
        /// The device.
        what: String,
        /// What its ID register reads.
        id: u32,
    },
    /// A register-map version this driver does not speak.
    Version {
        /// The device.
        what: String,
        /// Its VERSION register.
        found: u32,
    },
    /// The simulator process exited, or stopped answering.
    SimulatorGone(String),
    /// A wait ran out: what was awaited, and for how long.
    Timeout {
        /// What was awaited.
        what: String,
        /// How long.
        after: Duration,
    },
    /// A message above the engine's k_max · S (split it into several messages, §6.8).
    MessageTooLarge {
        /// Its bytes.
        size: usize,
        /// The engine's largest message.
        max: usize,
    },
    /// A request the device or the codec refuses (bad parameters, bad engine name).
    BadInput(String),
    /// The device answered something that cannot happen with a working core.
    Device(String),
}

impl fmt::Display for NicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NicError::NoDevice(s) => write!(f, "no device: {s}"),
            NicError::PermissionDenied(s) => write!(f, "permission denied: {s}"),
            NicError::BarTooSmall { what, len, need } => {
                write!(f, "{what}: BAR0 is {len} bytes, smaller than the register map ({need} bytes): not an FEC NIC, or the wrong BAR")
            }
            NicError::WrongId { what, id } => write!(
                f,
                "{what}: ID register reads {id:#010x}, not {:#010x} (\"CBLT\"): not an FEC NIC, or the device is not answering",
                hdl::nic::MAGIC
            ),
            NicError::Version { what, found } => {
                write!(f, "{what}: register map version {}.{} is not {}.x, which this driver speaks", found >> 16, found & 0xFFFF, hdl::nic::VERSION >> 16)
            }
            NicError::SimulatorGone(s) => write!(f, "the simulator process is gone: {s}"),
            NicError::Timeout { what, after } => write!(f, "timed out after {:.1} s waiting for {what}", after.as_secs_f64()),
            NicError::MessageTooLarge { size, max } => {
                write!(f, "message of {size} bytes is larger than this NIC's k_max·S = {max} bytes (split it into several messages, §6.8)")
            }
            NicError::BadInput(s) => write!(f, "{s}"),
            NicError::Device(s) => write!(f, "device error: {s}"),
        }
    }
}

impl std::error::Error for NicError {}

/// The driver's result type.
pub type Result<T> = std::result::Result<T, NicError>;

/// 32-bit access to a NIC's BAR0: registers and buffer windows, byte offsets, aligned words.
pub trait Device: Send {
    /// The 32-bit word at byte offset `off`.
    fn read32(&mut self, off: u32) -> Result<u32>;
    /// Write the 32-bit word at byte offset `off`.
    fn write32(&mut self, off: u32, v: u32) -> Result<()>;
    /// Consecutive words from `off` (a window); backends with bursts override it.
    fn read_block(&mut self, off: u32, out: &mut [u32]) -> Result<()> {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.read32(off + 4 * i as u32)?;
        }
        Ok(())
    }
    /// Consecutive words from `off` (a window); backends with bursts override it.
    fn write_block(&mut self, off: u32, data: &[u32]) -> Result<()> {
        for (i, v) in data.iter().enumerate() {
            self.write32(off + 4 * i as u32, *v)?;
        }
        Ok(())
    }
    /// Bring the device to its power-on state (a function-level reset where there is one).
    fn reset(&mut self) -> Result<()>;
    /// What the device is, for messages (`vfio:0000:01:00.0`, `sim (pid 123)`).
    fn describe(&self) -> String;
    /// Bus words moved so far (one clock each), where the backend counts them (the simulator does).
    fn bus_words(&self) -> Option<u64> {
        None
    }
}

/// Checks an access against BAR0's size and alignment.
pub fn check_access(off: u32, words: usize, bar_len: u64) -> Result<()> {
    if off % 4 != 0 || off as u64 + 4 * words as u64 > bar_len {
        return Err(NicError::BadInput(format!("access of {words} word(s) at {off:#x} is outside BAR0 ({bar_len} bytes) or unaligned")));
    }
    Ok(())
}

/// An `--engine` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The software codec.
    Soft,
    /// A simulator process started by the driver (`build` is `full` or `small`).
    Sim {
        /// `full` (S = 1460, k_max = 64) or `small` (S = 64, k_max = 16).
        build: String,
    },
    /// A running `nic-sim --mailbox PATH`.
    SimAttach(String),
    /// A PCIe function bound to vfio-pci (`0000:01:00.0`).
    Vfio(String),
    /// A BAR's sysfs `resourceN` file, or any file standing in for BAR0.
    Mmap(String),
}

impl Engine {
    /// An `--engine` value: `soft`, `sim`, `sim-small`, `sim:MAILBOX`, `vfio:ADDR`, `mmap:PATH`.
    pub fn parse(s: &str) -> Result<Engine> {
        let bad = || NicError::BadInput(format!("unknown engine `{s}`: soft, sim, sim-small, sim:MAILBOX, vfio:ADDR or mmap:PATH"));
        Ok(match s {
            "soft" => Engine::Soft,
            "sim" => Engine::Sim { build: "full".into() },
            "sim-small" => Engine::Sim { build: "small".into() },
            _ => match s.split_once(':') {
                Some(("sim", p)) if !p.is_empty() => Engine::SimAttach(p.into()),
                Some(("vfio", a)) if !a.is_empty() => Engine::Vfio(a.into()),
                Some(("mmap", p)) if !p.is_empty() => Engine::Mmap(p.into()),
                _ => return Err(bad()),
            },
        })
    }

    /// Open the device behind a hardware engine (not `soft`).
    pub fn open(&self) -> Result<Box<dyn Device>> {
        Ok(match self {
            Engine::Soft => return Err(NicError::BadInput("the soft engine has no device".into())),
            Engine::Sim { build } => Box::new(crate::sim::SimDevice::start(build)?),
            Engine::SimAttach(p) => Box::new(crate::sim::SimDevice::attach(p.as_ref())?),
            Engine::Vfio(a) => Box::new(crate::vfio::VfioDevice::open(a)?),
            Engine::Mmap(p) => Box::new(crate::mmap::MmapDevice::open(p.as_ref())?),
        })
    }
}

/// An `io::Error` from opening `what`, as the driver's error.
pub fn open_error(what: &str, e: std::io::Error) -> NicError {
    match e.kind() {
        std::io::ErrorKind::NotFound => NicError::NoDevice(format!("{what} does not exist")),
        std::io::ErrorKind::PermissionDenied => NicError::PermissionDenied(format!("cannot open {what} (run as root, or give your user access to it)")),
        _ => NicError::Device(format!("cannot open {what}: {e}")),
    }
}
