//! The simulated device's mailbox: the layout of the shared-memory file that the host driver's
//! `sim` backend and the simulator process (`nic-sim`) both map. Plain Rust over a raw
//! mapping, so each side maps the file its own way (both use `memmap2`).
//!
//! One request at a time. The driver fills `OP`, `ADDR`, `COUNT` and the data, then stores
//! `REQ_SEQ + 1` (release); the server runs the request on the NIC's bus, one bus word per
//! clock, writes `STATUS`, `CYCLES` and the data, then stores `RESP_SEQ = REQ_SEQ` (release).
//! The server sets `STATE` = failed with a message in the error area when it cannot start; the
//! driver watches the server's process while it waits.

use std::sync::atomic::{AtomicU32, Ordering};

/// Word offsets (u32) in the file.
pub mod word {
    /// [`MAGIC`](super::MAGIC), written last by the creator.
    pub const MAGIC: usize = 0;
    /// The layout's [`VERSION`](super::VERSION).
    pub const VERSION: usize = 1;
    /// The serving process.
    pub const SERVER_PID: usize = 2;
    /// The server's [`state`](super::state).
    pub const STATE: usize = 3;
    /// Bumped by the driver to post a request.
    pub const REQ_SEQ: usize = 4;
    /// Set to `REQ_SEQ` by the server when the request is done.
    pub const RESP_SEQ: usize = 5;
    /// The request's [`op`](super::op).
    pub const OP: usize = 6;
    /// The first BAR0 byte address.
    pub const ADDR: usize = 7;
    /// Words to move.
    pub const COUNT: usize = 8;
    /// The response's [`status`](super::status).
    pub const STATUS: usize = 9;
    /// NIC clock cycles since reset, low word.
    pub const CYCLES_LO: usize = 10;
    /// High word.
    pub const CYCLES_HI: usize = 11;
    /// The data area starts here.
    pub const DATA: usize = 16;
}

/// `word::MAGIC`'s value: "CBSM".
pub const MAGIC: u32 = 0x4D53_4243;
/// The layout version.
pub const VERSION: u32 = 1;
/// Most words one request moves.
pub const MAX_WORDS: usize = 16384;
/// Bytes of the error text area after the data.
pub const ERROR_BYTES: usize = 1024;
/// The file's size.
pub const FILE_BYTES: usize = 4 * (word::DATA + MAX_WORDS) + ERROR_BYTES;

/// The server's states (`word::STATE`).
pub mod state {
    /// Created, the server not yet serving.
    pub const STARTING: u32 = 0;
    /// Serving requests.
    pub const READY: u32 = 1;
    /// The server could not start (the reason is in the error text).
    pub const FAILED: u32 = 2;
    /// The server has exited.
    pub const EXITED: u32 = 3;
}

/// Request operations (`word::OP`).
pub mod op {
    /// `COUNT` words from `ADDR`, `ADDR + 4`, …
    pub const READ: u32 = 1;
    /// `COUNT` words to `ADDR`, `ADDR + 4`, …
    pub const WRITE: u32 = 2;
    /// A fresh NIC (power-on state).
    pub const RESET: u32 = 3;
    /// The server exits.
    pub const SHUTDOWN: u32 = 4;
}

/// Response statuses (`word::STATUS`).
pub mod status {
    /// Done.
    pub const OK: u32 = 0;
    /// An address outside BAR0, an unaligned one, or too many words.
    pub const BAD_ADDRESS: u32 = 1;
    /// An unknown operation.
    pub const BAD_OP: u32 = 2;
}

/// A view of a mapped mailbox file. The mapping must be `FILE_BYTES` long, 4-byte aligned and
/// live as long as the view.
pub struct Mailbox {
    base: *mut u32,
}

// SAFETY: every access goes through atomics or volatile copies ordered by them.
unsafe impl Send for Mailbox {}

impl Mailbox {
    /// # Safety
    /// `base` points to a mapping of at least [`FILE_BYTES`] bytes, 4-byte aligned, that
    /// outlives the `Mailbox`.
    pub unsafe fn new(base: *mut u8) -> Mailbox {
        assert_eq!(base as usize % 4, 0, "the mailbox mapping must be 4-byte aligned");
        Mailbox { base: base as *mut u32 }
    }

    /// Make a fresh mailbox (zeroed, as a new file is) ready for a server: magic, version and
    /// the STARTING state.
    pub fn init(&self) {
        self.set(word::STATE, state::STARTING);
        self.set(word::VERSION, VERSION);
        self.set(word::MAGIC, MAGIC);
    }

    fn atom(&self, w: usize) -> &AtomicU32 {
        assert!(w < word::DATA);
        // SAFETY: in bounds (new's contract) and aligned; shared memory is only accessed atomically here.
        unsafe { AtomicU32::from_ptr(self.base.add(w)) }
    }

    /// Word `w` of the header (acquire).
    pub fn get(&self, w: usize) -> u32 {
        self.atom(w).load(Ordering::Acquire)
    }

    /// Store word `w` of the header (release).
    pub fn set(&self, w: usize, v: u32) {
        self.atom(w).store(v, Ordering::Release)
    }

    /// Add one to word `w` of the header; returns the new value.
    pub fn bump(&self, w: usize) -> u32 {
        self.atom(w).fetch_add(1, Ordering::AcqRel).wrapping_add(1)
    }

    /// Copy words into the data area (before the releasing store that publishes them).
    pub fn put_data(&self, data: &[u32]) {
        assert!(data.len() <= MAX_WORDS);
        for (i, &v) in data.iter().enumerate() {
            // SAFETY: in bounds by the assert and new's contract.
            unsafe { std::ptr::write_volatile(self.base.add(word::DATA + i), v) }
        }
    }

    /// Copy words out of the data area (after the acquiring load that published them).
    pub fn get_data(&self, out: &mut [u32]) {
        assert!(out.len() <= MAX_WORDS);
        for (i, o) in out.iter_mut().enumerate() {
            // SAFETY: as in put_data.
            *o = unsafe { std::ptr::read_volatile(self.base.add(word::DATA + i)) };
        }
    }

    /// The NIC's cycle count as the server last wrote it.
    pub fn cycles(&self) -> u64 {
        self.get(word::CYCLES_LO) as u64 | (self.get(word::CYCLES_HI) as u64) << 32
    }

    /// Publish the NIC's cycle count.
    pub fn set_cycles(&self, c: u64) {
        self.set(word::CYCLES_LO, c as u32);
        self.set(word::CYCLES_HI, (c >> 32) as u32);
    }

    /// The server's error text (empty when none).
    pub fn error_text(&self) -> String {
        let mut b = vec![0u8; ERROR_BYTES];
        // SAFETY: the error area is inside the mapping (FILE_BYTES).
        unsafe {
            let p = self.base.add(word::DATA + MAX_WORDS) as *const u8;
            for (i, x) in b.iter_mut().enumerate() {
                *x = std::ptr::read_volatile(p.add(i));
            }
        }
        let n = b.iter().position(|&c| c == 0).unwrap_or(ERROR_BYTES);
        String::from_utf8_lossy(&b[..n]).into_owned()
    }

    /// Write the error text (truncated, NUL-terminated).
    pub fn set_error_text(&self, t: &str) {
        let b = t.as_bytes();
        let n = b.len().min(ERROR_BYTES - 1);
        // SAFETY: as in error_text.
        unsafe {
            let p = self.base.add(word::DATA + MAX_WORDS) as *mut u8;
            for (i, &x) in b[..n].iter().enumerate() {
                std::ptr::write_volatile(p.add(i), x);
            }
            std::ptr::write_volatile(p.add(n), 0);
        }
    }
}
