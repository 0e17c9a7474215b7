//! Host driver for the SmartNIC FEC core: `Device` backends (vfio, mmap, sim), `FecNic`, the
//! software CB-LT codec and the `cbnic` CLI. Not built yet: it arrives with the CB-LT codec and
//! NIC issues; the crate exists so the workspace has its fixed top level.
