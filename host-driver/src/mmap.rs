//! The `mmap` backend: a BAR through its sysfs `resourceN` file
//! (`/sys/bus/pci/devices/ADDR/resource0`), mapped with `memmap2`. Any file of BAR0's size
//! works the same way, which is how the tests exercise it.

use crate::device::{check_access, open_error, Device, NicError, Result};
use std::path::{Path, PathBuf};

/// BAR0 as a mapped file (`/sys/bus/pci/devices/…/resource0`, or a plain file in tests).
pub struct MmapDevice {
    path: PathBuf,
    map: memmap2::MmapMut,
}

impl MmapDevice {
    /// Map the file at `path`; it must be at least the register map's size.
    pub fn open(path: &Path) -> Result<MmapDevice> {
        let what = path.display().to_string();
        let file = std::fs::OpenOptions::new().read(true).write(true).open(path).map_err(|e| open_error(&what, e))?;
        let len = file.metadata().map_err(|e| NicError::Device(format!("{what}: {e}")))?.len();
        let need = hdl::nic::BAR_SIZE as u64;
        // sysfs resource files report the BAR's size as their length
        if len < need {
            return Err(NicError::BarTooSmall { what, len, need });
        }
        // SAFETY: a device BAR (or a file standing in for one); all accesses are volatile and
        // inside the mapping, which lives as long as self.
        let map = unsafe { memmap2::MmapOptions::new().len(need as usize).map_mut(&file) }.map_err(|e| open_error(&what, e))?;
        Ok(MmapDevice { path: path.to_path_buf(), map })
    }
}

impl Device for MmapDevice {
    fn read32(&mut self, off: u32) -> Result<u32> {
        check_access(off, 1, self.map.len() as u64)?;
        // SAFETY: aligned and in bounds (checked); volatile because it is device memory.
        Ok(u32::from_le(unsafe { std::ptr::read_volatile(self.map.as_ptr().add(off as usize) as *const u32) }))
    }
    fn write32(&mut self, off: u32, v: u32) -> Result<()> {
        check_access(off, 1, self.map.len() as u64)?;
        // SAFETY: as in read32.
        unsafe { std::ptr::write_volatile(self.map.as_mut_ptr().add(off as usize) as *mut u32, v.to_le()) };
        Ok(())
    }
    /// A BAR mapped through sysfs has no reset of its own; the caller resets the core through
    /// its registers.
    fn reset(&mut self) -> Result<()> {
        Ok(())
    }
    fn describe(&self) -> String {
        format!("mmap:{}", self.path.display())
    }
}
