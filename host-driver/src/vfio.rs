//! The `vfio` backend: a real PCIe function bound to `vfio-pci`, through the `pci-driver`
//! crate: open by PCI address, reset, and 32-bit access to BAR0.
//!
//! Before handing the device to `pci-driver`, the backend checks what `pci-driver` would only
//! report as a bare I/O error: that the address is well formed and exists, that the function is
//! bound to `vfio-pci`, and that its IOMMU group's `/dev/vfio/N` can be opened. The roots of
//! sysfs and `/dev/vfio` are parameters so the tests can run those checks without hardware.

use crate::device::{check_access, open_error, Device, NicError, Result};
use pci_driver::backends::vfio::VfioPciDevice;
use pci_driver::device::PciDevice;
use pci_driver::regions::{OwningPciRegion, PciRegion};
use std::path::{Path, PathBuf};

/// A PCIe function bound to vfio-pci, its BAR0 mapped (`pci-driver`).
pub struct VfioDevice {
    addr: String,
    _dev: VfioPciDevice,
    bar0: OwningPciRegion,
}

/// `DDDD:BB:DD.F`, or `BB:DD.F` in domain 0; lower-case hex.
pub fn normalize_address(a: &str) -> Result<String> {
    let full = if a.matches(':').count() == 1 { format!("0000:{a}") } else { a.to_string() };
    let ok = full.len() == 12
        && full.char_indices().all(|(i, c)| match i {
            4 | 7 => c == ':',
            10 => c == '.',
            11 => ('0'..='7').contains(&c),
            _ => c.is_ascii_hexdigit(),
        });
    if !ok {
        return Err(NicError::BadInput(format!("`{a}` is not a PCI address (DDDD:BB:DD.F, e.g. 0000:01:00.0)")));
    }
    Ok(full.to_ascii_lowercase())
}

/// The checks before `pci-driver` opens the device; the device's sysfs folder.
pub fn preflight(sysfs_devices: &Path, dev_vfio: &Path, addr: &str) -> Result<PathBuf> {
    let addr = normalize_address(addr)?;
    let dir = sysfs_devices.join(&addr);
    if !dir.exists() {
        return Err(NicError::NoDevice(format!("no PCI device {addr} ({} does not exist; `lspci -D` lists the devices)", dir.display())));
    }
    let driver = std::fs::read_link(dir.join("driver")).ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    match driver.as_deref() {
        Some("vfio-pci") => {}
        Some(d) => {
            return Err(NicError::NoDevice(format!(
                "{addr} is bound to `{d}`, not vfio-pci: unbind it and bind vfio-pci (echo vfio-pci > {}/driver_override)",
                dir.display()
            )))
        }
        None => return Err(NicError::NoDevice(format!("{addr} has no driver: bind it to vfio-pci (echo vfio-pci > {}/driver_override)", dir.display()))),
    }
    let group = std::fs::read_link(dir.join("iommu_group"))
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .ok_or_else(|| NicError::NoDevice(format!("{addr} has no IOMMU group: enable the IOMMU (intel_iommu=on / amd_iommu=on)")))?;
    let node = dev_vfio.join(&group);
    std::fs::OpenOptions::new().read(true).write(true).open(&node).map_err(|e| open_error(&format!("{} (IOMMU group {group} of {addr})", node.display()), e))?;
    Ok(dir)
}

impl VfioDevice {
    /// Open the function at `addr` (`0000:01:00.0`), reset it and map BAR0.
    pub fn open(addr: &str) -> Result<VfioDevice> {
        Self::open_in(Path::new("/sys/bus/pci/devices"), Path::new("/dev/vfio"), addr)
    }

    /// [`VfioDevice::open`] with the sysfs and `/dev/vfio` roots given (the tests use fakes).
    pub fn open_in(sysfs_devices: &Path, dev_vfio: &Path, addr: &str) -> Result<VfioDevice> {
        let dir = preflight(sysfs_devices, dev_vfio, addr)?;
        let addr = normalize_address(addr)?;
        let dev = VfioPciDevice::open(&dir).map_err(|e| open_error(&format!("vfio device {addr}"), e))?;
        dev.reset().map_err(|e| NicError::Device(format!("{addr}: function reset failed: {e}")))?;
        let bar0 = dev.bar(0).ok_or_else(|| NicError::NoDevice(format!("{addr} has no BAR0")))?;
        let need = hdl::nic::BAR_SIZE as u64;
        if bar0.len() < need {
            return Err(NicError::BarTooSmall { what: format!("vfio:{addr}"), len: bar0.len(), need });
        }
        Ok(VfioDevice { addr, _dev: dev, bar0 })
    }
}

impl Device for VfioDevice {
    fn read32(&mut self, off: u32) -> Result<u32> {
        check_access(off, 1, self.bar0.len())?;
        self.bar0.read_le_u32(off as u64).map_err(|e| NicError::Device(format!("vfio:{} read at {off:#x}: {e}", self.addr)))
    }
    fn write32(&mut self, off: u32, v: u32) -> Result<()> {
        check_access(off, 1, self.bar0.len())?;
        self.bar0.write_le_u32(off as u64, v).map_err(|e| NicError::Device(format!("vfio:{} write at {off:#x}: {e}", self.addr)))
    }
    fn reset(&mut self) -> Result<()> {
        self._dev.reset().map_err(|e| NicError::Device(format!("{}: function reset failed: {e}", self.addr)))
    }
    fn describe(&self) -> String {
        format!("vfio:{}", self.addr)
    }
}
