//! Sweeps (`netsim/sweep.rs`) through the `scenarios` program: the short `fct-load` sweep runs
//! here and merges into a report with confidence intervals; then the same plan runs as a Slurm
//! job array on a one-node Slurm this test starts (`scripts/slurm-local.sh`, Debian's slurmctld,
//! slurmd and munge), and its merged report must be the same bytes as the local one.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scenarios() -> Command {
    Command::new(env!("CARGO_BIN_EXE_scenarios"))
}

fn run(c: &mut Command) -> String {
    let o = c.output().expect("run scenarios");
    assert!(o.status.success(), "{c:?} failed:\n{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sweep-test-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    d
}

/// The one-node Slurm, stopped when the test ends, whatever happens.
struct LocalSlurm {
    dir: PathBuf,
    conf: String,
}

impl LocalSlurm {
    fn start(dir: &Path) -> LocalSlurm {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/slurm-local.sh");
        let o = Command::new(&script).arg("start").arg(dir).output().expect("scripts/slurm-local.sh");
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let s = LocalSlurm { dir: dir.to_path_buf(), conf: out.trim().strip_prefix("export SLURM_CONF=").unwrap_or("").to_string() };
        assert!(o.status.success() && !s.conf.is_empty(), "one-node Slurm did not start:\n{out}{}", String::from_utf8_lossy(&o.stderr));
        s
    }
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/slurm-local.sh");
        let _ = Command::new(script).arg("stop").arg(&self.dir).status();
        std::thread::sleep(std::time::Duration::from_secs(1));
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

#[test]
fn a_sweep_runs_here_and_on_slurm_and_merges_to_the_same_report() {
    // here, on every core
    let local = tmp("local");
    let md = run(scenarios().args(["sweep", "run", "fct-load", "--seeds", "2", "--short", "--out"]).arg(&local));
    assert!(md.contains("# Sweep `fct-load`: mean ± 95 % confidence interval over 2 seeds"), "{md}");
    let row = md.lines().find(|l| l.starts_with("| ECN♯ (200/85/200 µs) |")).expect("an ECN♯ row");
    assert_eq!(row.matches(" ± ").count(), 2, "a mean ± CI per load: {row}");
    for f in ["fct_short_avg_vs_load", "fct_short_p99_vs_load", "fct_large_avg_vs_load"] {
        let svg = std::fs::read_to_string(local.join(format!("{f}.svg"))).unwrap();
        assert!(svg.contains("h8M"), "{f}.svg has error bars");
        assert!(local.join(format!("{f}.png")).exists() && local.join(format!("{f}.pdf")).exists());
    }
    let jobs = std::fs::read_dir(local.join("jobs")).unwrap().count();
    assert_eq!(jobs, 2 * 2, "one file per load and seed");
    // a second run finds every job done and merges the same report
    assert_eq!(run(scenarios().args(["sweep", "run", "fct-load", "--seeds", "2", "--short", "--out"]).arg(&local)), md);

    // a shard runs only its jobs and does not merge
    let shard = tmp("shard");
    run(scenarios().args(["sweep", "run", "fct-load", "--seeds", "2", "--short", "--shard", "1/3", "--out"]).arg(&shard));
    assert_eq!(std::fs::read_dir(shard.join("jobs")).unwrap().count(), 1, "jobs 1 of 0..4 with j mod 3 = 1");
    assert!(!shard.join("README.md").exists());

    // as a Slurm job array of two tasks
    let slurm = LocalSlurm::start(&tmp("slurm-state"));
    let remote = tmp("slurm");
    let md2 = run(scenarios().env("SLURM_CONF", &slurm.conf).args(["sweep", "slurm", "fct-load", "--seeds", "2", "--short", "--shards", "2", "--out"]).arg(&remote));
    assert_eq!(md2, md, "the Slurm run merges to the same report");
    assert_eq!(std::fs::read(remote.join("README.md")).unwrap(), std::fs::read(local.join("README.md")).unwrap());
    assert!(remote.join("slurm/task-0.out").exists() && remote.join("slurm/task-1.out").exists());
    drop(slurm);
    for d in [local, shard, remote] {
        std::fs::remove_dir_all(d).ok();
    }
}
