//! Differential fuzz: random register writes and dequeue streams, every output of an engine
//! compared with the golden model on every cycle. A failure names the seed, so it replays.

use hdl::aqm::vectors::{eval, AqmIn, AqmOut, CycleIn, ModelTop, Outputs};
use hdl::cycle::Dut;
use hdl::aqm::{csr, Config, Law, Mode, State};

pub use hdl::cycle::Rng;

/// A random valid configuration of `mode`, small enough that every rule fires often.
pub fn random_config(mode: Mode, r: &mut Rng) -> Config {
    let ins_target = 1 + r.below(400) as u32;
    Config {
        mode,
        law: if r.chance(50) { Law::PaperHarmonic } else { Law::Ns3Sqrt },
        due_ge: r.chance(50),
        drop_non_ect: r.chance(50),
        ins_target,
        k: r.below(120) as u32,
        pst_target: 1 + r.below(ins_target as u64) as u32,
        pst_interval: if r.chance(5) { r.below(65536).max(1) as u16 } else { 1 + r.below(300) as u16 },
        codel_min_qlen: r.below(40) as u32,
    }
}

/// One cycle of random stimulus around configuration `cfg`. In a `burst` the queue stands above
/// the persistent target: a dequeue nearly every clock, nearly all of them above it, so the
/// marker enters, marks on consecutive clocks (once the law is below a tick, on every one),
/// catches up after a clock jump under the lag clamp, and leaves and re-enters on the short
/// dips (CoDel's re-entry): the back-to-back cases the two-clock marker forwards.
fn random_cycle(cfg: &Config, r: &mut Rng, now_hint: u32, burst: bool) -> CycleIn {
    let roll = r.below(1000);
    if roll < 4 {
        // reconfigure with a fresh random config of the same mode
        let c = random_config(cfg.mode, r);
        let w = c.csr_writes();
        let (a, d) = w[r.below(w.len() as u64) as usize];
        return CycleIn { csr_we: true, csr_addr: a, csr_wdata: d, ..Default::default() };
    }
    if roll < 6 {
        let addr = [csr::CNT_MARKED, csr::CNT_FIRED_INST, csr::CNT_FIRED_PERS, csr::CNT_DROPPED][r.below(4) as usize];
        return CycleIn { csr_we: true, csr_addr: addr, csr_wdata: u32::MAX - r.below(3) as u32, ..Default::default() };
    }
    if roll < 7 {
        // jump the clock: near the wrap, or far ahead
        let t = if r.chance(50) { 0u32.wrapping_sub(r.below(600) as u32) } else { now_hint.wrapping_add(r.next() as u32) };
        return CycleIn { csr_we: true, csr_addr: csr::TIME_LOAD, csr_wdata: t, ..Default::default() };
    }
    if roll < 8 {
        let addr = if r.chance(50) { csr::STATE_CLEAR } else { csr::CLK_PER_TICK };
        return CycleIn { csr_we: true, csr_addr: addr, csr_wdata: r.below(4) as u32, ..Default::default() };
    }
    if roll < 9 {
        // a raw write anywhere in the address space (unmapped and reserved values included)
        return CycleIn { csr_we: true, csr_addr: r.below(64) as u8, csr_wdata: r.next() as u32, ..Default::default() };
    }
    if roll < if burst { 20 } else { 300 } {
        return CycleIn::default();
    }
    let soj = match r.below(if burst { 0 } else { 10 }) {
        _ if burst && r.below(3 * cfg.pst_interval as u64 + 10) == 0 => r.below(cfg.pst_target as u64) as u32,
        _ if burst => cfg.pst_target + r.below(cfg.ins_target as u64 + 1) as u32,
        0 => r.next() as u32,
        1..=5 => r.below(cfg.pst_target as u64 * 2 + 2) as u32,
        _ => r.below(cfg.ins_target as u64 * 2 + 2) as u32,
    };
    CycleIn {
        // a dequeue in a write cycle must be ignored: keep a few to check it
        csr_we: r.chance(1),
        csr_addr: 63,
        deq: true,
        deq_ts: now_hint.wrapping_sub(soj),
        deq_ecn: r.below(4) as u8,
        deq_qlen: if burst {
            cfg.codel_min_qlen.saturating_add(1 + r.below(100) as u32)
        } else if r.chance(5) {
            r.next() as u32
        } else {
            r.below(cfg.k as u64 * 2 + 60) as u32
        },
        ..Default::default()
    }
}

/// Run `dequeues` random dequeues of `mode` through `dut` and the model in lockstep.
/// Returns the number of clock cycles run.
pub fn lockstep(mode: Mode, dequeues: u64, seed: u64, dut: &mut dyn Dut) -> Result<u64, String> {
    drive(mode, dequeues, seed, |cycle, i, want, _, _| {
        let got = eval(dut, i);
        dut.edge();
        if got != *want {
            return Err(format!(
                "mode {mode:?} seed {seed:#x}: mismatch at cycle {cycle} on {i:?}\n   engine {got:?}\n   model  {want:?}"
            ));
        }
        Ok(())
    })
}

/// The stimulus [`lockstep`] drives for these arguments as pins, and the model's output pins
/// folded with [`digest`]: what `bench` replays on each engine alone, to time it without the
/// model.
pub fn recorded(mode: Mode, dequeues: u64, seed: u64) -> (Vec<AqmIn>, u64) {
    let (mut stim, mut h) = (vec![], 0);
    drive(mode, dequeues, seed, |_, i, want, _, _| {
        stim.push(i.pins());
        h = digest(h, &AqmOut::from(want).to_vec());
        Ok(())
    })
    .expect("the model alone cannot mismatch");
    (stim, h)
}

/// Fold one clock's output pins into a running digest.
pub fn digest(h: u64, pins: &[u64]) -> u64 {
    let x = pins.iter().enumerate().fold(0u64, |x, (k, w)| x ^ w.rotate_left(7 * k as u32));
    h.rotate_left(5) ^ x
}

/// How often [`lockstep`]'s stimulus for these arguments presents a dequeue in the clock right
/// after a dequeue of the kind named: the cases in which the two-clock marker (`hdl::aqm::pipe`)
/// judges a dequeue on its stage `B`'s outcome for the one before, forwarded. Counted on the
/// model, whose state before and after each dequeue names what it did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hazards {
    /// After a due mark, and after one from `now − 2^30` (the lag clamp).
    pub after_step: u64,
    pub after_clamped_step: u64,
    /// After an entry into the marking state, and after CoDel's re-entry with its old count.
    pub after_entry: u64,
    pub after_reentry: u64,
    pub after_exit: u64,
    /// After the dequeue that started the tracker's age (`first_above_time`).
    pub after_tracker_start: u64,
    /// Not a forwarding case but the tracker's edge: a dequeue above the target whose age is
    /// exactly the interval before detection (CoDel's `≥` detects, ECN♯'s `>` does not).
    pub age_on_interval: u64,
}

pub fn hazards(mode: Mode, dequeues: u64, seed: u64) -> Hazards {
    let mut h = Hazards::default();
    let mut last: Option<[bool; 6]> = None;
    drive(mode, dequeues, seed, |_, i, want, (before, after), cfg| {
        let deq = i.deq && !i.csr_we;
        h.age_on_interval += (deq && before.fat_valid && !before.det_latched && after.fat_valid
            && want.now.wrapping_sub(before.fat) == cfg.pst_interval as u32) as u64;
        if deq {
            if let Some(k) = last {
                let n = [&mut h.after_step, &mut h.after_clamped_step, &mut h.after_entry, &mut h.after_reentry, &mut h.after_exit, &mut h.after_tracker_start];
                for (c, hit) in n.into_iter().zip(k) {
                    *c += hit as u64;
                }
            }
        }
        last = deq.then(|| {
            let step = before.ms && after.ms && (after.next != before.next || after.cnt != before.cnt);
            let lag = want.now.wrapping_sub(before.next);
            let entry = !before.ms && after.ms;
            [
                step,
                step && lag > 1 << 30 && lag < 1 << 31,
                entry,
                entry && mode == Mode::Codel && after.cnt > 1,
                before.ms && !after.ms,
                !before.fat_valid && after.fat_valid,
            ]
        });
        Ok(())
    })
    .expect("the model alone cannot mismatch");
    h
}

/// The fuzz loop: random configurations and cycles of `mode`, each cycle's inputs handed to
/// `each` with the model's outputs for them and its marker state before and after the clock,
/// until `dequeues` dequeues have been driven (and the configuration the clock ran under).
fn drive(mode: Mode, dequeues: u64, seed: u64, mut each: impl FnMut(u64, &CycleIn, &Outputs, (&State, &State), &Config) -> Result<(), String>) -> Result<u64, String> {
    let mut r = Rng::new(seed);
    let mut model = ModelTop::default();
    let mut cfg = random_config(mode, &mut r);
    let mut prog = cfg.csr_writes();
    prog.push((csr::CLK_PER_TICK, 1));
    let mut cycles = 0u64;
    let mut deqs = 0u64;
    let mut now = 0u32;
    let mut burst = 0u32;
    while deqs < dequeues {
        if burst == 0 && r.chance(1) && r.chance(10) {
            burst = 500 + r.below(3000) as u32;
        }
        burst = burst.saturating_sub(1);
        let i = if let Some(&(a, d)) = prog.first() {
            prog.remove(0);
            CycleIn { csr_we: true, csr_addr: a, csr_wdata: d, ..Default::default() }
        } else {
            if r.chance(1) && r.chance(10) {
                cfg = random_config(mode, &mut r);
                prog = cfg.csr_writes();
            }
            random_cycle(&model.marker.cfg, &mut r, now, burst > 0)
        };
        let (before, cfg_before) = (model.marker.state, model.marker.cfg);
        let want = model.clock(&i);
        each(cycles, &i, &want, (&before, &model.marker.state), &cfg_before)?;
        now = want.now;
        cycles += 1;
        if i.deq && !i.csr_we {
            deqs += 1;
        }
    }
    Ok(cycles)
}
