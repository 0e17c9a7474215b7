//! `nic-sim`: the simulated FEC NIC, a process serving a shared-memory mailbox with the Verilated
//! NIC top one bus word per clock (`rtl_sim::nic::serve`). The host driver's `sim` backend
//! starts it (it looks beside its own program, or at `$CBNIC_SIM_SERVER`). Started by hand with
//! a path that does not exist, it creates the mailbox (and removes it when it exits, Ctrl-C and
//! SIGTERM included); attach
//! with `cbnic … --engine sim:PATH`.
//!
//! ```text
//! nic-sim --mailbox PATH [--build full|small]
//! ```

use anyhow::{Context, Result};
use clap::Parser;
use host_driver::shm::{self, Mailbox};
use rtl_sim::nic::{serve, NicBuild, ServeOptions};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "nic-sim", version, about = "Serve a simulator mailbox with the Verilated FEC NIC")]
struct Cli {
    #[arg(long)]
    mailbox: PathBuf,
    /// `full` (S = 1460, k_max = 64) or `small` (S = 64, k_max = 16).
    #[arg(long, default_value = "full")]
    build: String,
    /// Fault injection for tests: exit without answering request N (0-based).
    #[arg(long, hide = true)]
    die_after: Option<u64>,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let build = NicBuild::parse(&cli.build)?;
    let create = !cli.mailbox.exists();
    if create {
        let f = std::fs::File::options().read(true).write(true).create_new(true).open(&cli.mailbox).with_context(|| format!("cannot create {}", cli.mailbox.display()))?;
        f.set_len(shm::FILE_BYTES as u64)?;
        // SAFETY: a file just created; the map lives until init returns.
        let mut map = unsafe { memmap2::MmapMut::map_mut(&f)? };
        // SAFETY: FILE_BYTES long and page-aligned.
        unsafe { Mailbox::new(map.as_mut_ptr()) }.init();
        eprintln!("nic-sim: serving {} ({} build); attach with --engine sim:{}", cli.mailbox.display(), build.name(), cli.mailbox.display());
        let path = cli.mailbox.clone();
        ctrlc::set_handler(move || {
            std::fs::remove_file(&path).ok();
            std::process::exit(130);
        })?;
    }
    let r = serve(&cli.mailbox, build, &ServeOptions { die_after: cli.die_after });
    if create {
        std::fs::remove_file(&cli.mailbox).ok();
    }
    r
}
