//! The switch port's sub-blocks on their own, on rust-hdl and Verilator, against plain models:
//! `hdl::port::fifo::BypassFifo` (a queue) against a `VecDeque`,
//! `hdl::aqm::pipe::PipeQueueStates` (the marker state of every queue) against an array,
//! `hdl::port::pacer::LinkPacer` (of two queues) against the port model's `Pacer`, and
//! `hdl::shaper::regs::ShaperRegs` (the shaper's register file) against the shaper model.

use hdl::aqm::pipe::TestQueueStates;
use hdl::cycle::{Dut, Rng};
use hdl::port::fifo::TestFifo;
use hdl::port::model::Pacer;
use hdl::port::pacer::TestPacer;
use std::collections::VecDeque;

fn engines<T: Default + hdl::rtl_util::PinIo + 'static>(name: &str) -> Vec<Box<dyn Dut>> {
    sim_tests::blocks::both_engines(T::default, name).unwrap()
}

/// Pushes and pops at random (in phases that fill and drain it, with pushes and pops in the
/// same clock, pushes that become the head, and pushes into the entry after the head, which
/// the RAM is reading at that edge): the head is the oldest entry from the clock after its
/// push, the second entry's length is the next oldest's, and the count and the flags are exact.
#[test]
fn bypass_fifo_is_a_fifo_whose_head_is_valid_the_clock_after_its_push() {
    const DEPTH: usize = 8;
    for mut dut in engines::<TestFifo>("bypass_fifo") {
        let (mut r, mut q) = (Rng::new(7), VecDeque::new());
        let (mut full, mut same_clock, mut into_head, mut into_second) = (0, 0, 0, 0);
        for t in 0..20_000u64 {
            let push_pct = [80, 50, 20][(t / 500 % 3) as usize];
            let push = q.len() < DEPTH && r.chance(push_pct);
            let pop = !q.is_empty() && r.chance(50);
            let (l, m, b) = (r.below(8), r.below(4), r.below(128));
            let o = dut.eval(&[push as u64, pop as u64, l, m, b]).to_vec();
            dut.edge();
            assert_eq!(o[3], q.len() as u64, "count at clock {t}");
            assert_eq!(o[4], !q.is_empty() as u64, "nonempty at clock {t}");
            assert_eq!(o[5], (q.len() == 1) as u64, "last at clock {t}");
            if let Some(&head) = q.front() {
                assert_eq!((o[0], o[1], o[2]), head, "head (length, rest, stamp) at clock {t}");
            }
            if let Some(&(second_len, _, _)) = q.get(1) {
                assert_eq!(o[6], second_len, "the second entry's length at clock {t}");
            }
            full += (q.len() == DEPTH) as u32;
            same_clock += (push && pop) as u32;
            into_head += (push && q.len() == pop as usize) as u32;
            into_second += (push && q.len() == 1 + pop as usize) as u32;
            if pop {
                q.pop_front();
            }
            if push {
                q.push_back((l, m, b));
            }
        }
        assert!(
            full > 100 && same_clock > 1000 && into_head > 500 && into_second > 500,
            "the stimulus reaches full ({full}), push and pop together ({same_clock}), a push that becomes the head ({into_head}), a push into the entry after the head ({into_second})"
        );
    }
}

const STATE_WIDTHS: [u32; 11] = [1, 1, 1, 32, 16, 16, 32, 24, 7, 7, 7];

/// Random queues written, read and cleared, the queue read (`rsel`) and the queue written
/// (`wsel`) apart: `r_*` is always the read queue's last write (or 0 after a clear), and a
/// clear wins over a write in the same clock.
#[test]
fn aqm_queue_states_keep_one_set_per_queue() {
    for mut dut in engines::<TestQueueStates>("aqm_queue_states") {
        let (mut r, mut states) = (Rng::new(11), [[0u64; 11]; 4]);
        let mut clears_with_write = 0;
        for t in 0..20_000 {
            let (rsel, wsel, write, clear) = (r.below(4) as usize, r.below(4) as usize, r.chance(50), r.chance(2));
            let n: Vec<u64> = STATE_WIDTHS.iter().map(|&w| r.next() & ((1u64 << w) - 1)).collect();
            let mut pins = vec![rsel as u64, wsel as u64, write as u64, clear as u64];
            pins.extend(&n);
            let o = dut.eval(&pins).to_vec();
            dut.edge();
            assert_eq!(o, states[rsel], "queue {rsel} at clock {t}");
            if clear {
                clears_with_write += write as u32;
                states = [[0; 11]; 4];
            } else if write {
                states[wsel].copy_from_slice(&n);
            }
        }
        assert!(clears_with_write > 50);
    }
}

/// Departures while the link is free at rates from far below to above one byte per clock (and
/// rate changes mid-run), from either of two queues whose heads both change every clock: `ready`
/// and the idle slots follow the model every clock.
#[test]
fn link_pacer_follows_the_model() {
    for mut dut in engines::<TestPacer>("link_pacer") {
        let (mut r, mut m) = (Rng::new(3), Pacer::default());
        let (mut rate, mut overhead) = (0u64, 20u64);
        let (mut busy, mut idle_slots) = (0, 0);
        for t in 0..20_000 {
            if t % 1000 == 0 {
                rate = [1, 100, 255, 256, 4000, 16_000, 70_000, 0xFF_FFFF, r.below(1 << 24)][r.below(9) as usize];
                overhead = r.below(256);
            }
            let sent = m.ready() && r.chance(60);
            let q = r.below(2) as usize;
            let lens: [u64; 2] = std::array::from_fn(|_| if r.chance(5) { 16_383 } else { 1 + r.below(1500) });
            let len = lens[q];
            let o = dut.eval(&[rate, overhead, (sent && q == 0) as u64, (sent && q == 1) as u64, lens[0], lens[1]]).to_vec();
            dut.edge();
            assert_eq!(o, [m.ready() as u64, m.idle], "clock {t}, rate {rate}, overhead {overhead}");
            busy += !m.ready() as u32;
            idle_slots += (m.idle > 0) as u32;
            m.clock(rate, overhead, sent.then_some(len));
        }
        assert!(busy > 1000 && idle_slots > 1000, "the link is busy ({busy}) and idle ({idle_slots}) often");
    }
}

/// Random writes near every rule's edge (`SCALE` and `FILL_FRAC` near each other and near a
/// write still held, back to back), to the counter presets and to unknown addresses: every
/// clock the registers and the differences kept with them are the shaper model's, and the write
/// landing at the edge is judged as the model's `csr_write` judges it on the registers it lands on.
#[test]
fn shaper_regs_keep_the_models_registers_and_judge_each_write_as_it_lands() {
    use hdl::cycle::CycleModel;
    use hdl::shaper::{csr, model::Shaper, regs::ShaperRegs, ShaperIn};
    for mut dut in engines::<ShaperRegs>("shaper_regs") {
        let (mut r, mut m) = (Rng::new(29), Shaper::default());
        let (mut fills, mut fracs, mut rejected, mut presets) = (0, 0, 0, 0);
        for t in 0..100_000 {
            let addr = match r.below(10) {
                0..=6 => r.below(6),
                7 => 16 + r.below(4),
                8 => 6 + r.below(10),
                _ => 20 + r.below(236),
            };
            // a value within two of one of `at`
            let edge = |r: &mut Rng, at: &[u64]| at[r.below(at.len() as u64) as usize].wrapping_add(r.below(5)).wrapping_sub(2) & 0xFFFF_FFFF;
            let held = m.csr.held.map_or(0, |(_, d)| d & 0xFFFF);
            let data = match addr {
                0 | 2 if r.chance(30) => r.below(1 << 20),
                0 | 2 => edge(&mut r, &[0, 168, 1 << 20]),
                1 | 5 if r.chance(10) => edge(&mut r, &[0x1_0000, 0x1_0000 + m.scale]),
                1 | 5 => edge(&mut r, &[m.fill_frac, m.scale, held, 1622, 672]),
                3 => edge(&mut r, &[0, 20, 255]),
                4 => edge(&mut r, &[0, 9216, 0x1_0000]),
                _ => r.next() & 0xFFFF_FFFF,
            };
            let we = r.chance(60);
            // the write landing at this clock's edge, judged on the registers it lands on
            let landing = m.csr.held;
            let verdict = landing.map(|(a, d)| m.clone().csr_write(a, d));
            let lands = |reg: u8| matches!((landing, verdict), (Some((a, _)), Some(Ok(_))) if a == reg as u64);
            let o = dut.eval(&[we as u64, addr, data]).to_vec();
            dut.edge();
            let w22 = |v: i64| v as u64 & ((1 << 22) - 1);
            let (fill, depth, ovh) = (m.fill as i64, m.depth as i64, m.overhead as i64);
            let regs = [m.fill, m.fill_frac, m.scale, m.scale - m.fill_frac, m.depth, m.overhead, m.max_len, w22(fill - depth), w22(fill - ovh), w22(fill - depth - ovh)];
            assert_eq!(o[..10], regs, "registers at clock {t}");
            m.step(&ShaperIn { csr_we: we as u64, csr_addr: addr, csr_wdata: data, ..Default::default() }.to_vec());
            let fill_now = lands(csr::SCALE) || lands(csr::DEPTH);
            assert_eq!(o[10], fill_now as u64, "fills at clock {t}");
            assert_eq!(o[11], m.depth, "the DEPTH after the edge at clock {t}");
            assert_eq!(o[12], lands(csr::FILL_FRAC) as u64, "FILL_FRAC write at clock {t}");
            if let Some((_, d)) = landing {
                assert_eq!(o[13], d, "held data at clock {t}");
            }
            assert_eq!(o[14], matches!(verdict, Some(Err(()))) as u64, "rejected at clock {t}");
            let load = match verdict {
                Some(Ok(Some((i, _)))) => 1 << i,
                _ => 0,
            };
            assert_eq!(o[15], load, "counter preset at clock {t}");
            fills += fill_now as u32;
            fracs += lands(csr::FILL_FRAC) as u32;
            rejected += o[14] as u32;
            presets += (load != 0) as u32;
        }
        assert!(fills > 1000 && fracs > 1000 && rejected > 1000 && presets > 1000, "{fills} fills, {fracs} FILL_FRAC writes, {rejected} rejected, {presets} presets");
    }
}


/// The emulation queue's eligibility judged a clock ahead (`hdl::port::emu_ahead::EmuShaper`,
/// always enabled) against the shaper model's test on the head it sees (`Shaper`, stepped in
/// lockstep with the same writes, head and departures), every clock: a
/// queue of lengths pushed and popped at random (a pop only while eligible, as the port grants),
/// shaper registers rewritten now and then (small buckets that cap and run dry, refills larger
/// than the bucket, heads longer than the bucket, `OVERHEAD` and `MAX_LEN` that make heads too
/// long). The look-ahead must equal the shaper's test on every
/// clock but the one after a shaper write lands, where it must be 0; the shaper's RTL test beside
/// it must equal the model's on every clock.
#[test]
fn emu_ahead_is_the_shapers_test_a_clock_early() {
    use hdl::cycle::CycleModel;
    use hdl::port::emu_ahead::EmuShaper;
    use hdl::shaper::{csr, model::Shaper, ShaperIn, ShaperOut};
    for mut dut in engines::<EmuShaper>("emu_shaper") {
        let (mut r, mut q, mut m) = (Rng::new(41), VecDeque::<u64>::new(), Shaper::default());
        let (mut landing, mut stale) = (false, false);
        let (mut eligible, mut pop_second, mut pop_to_head, mut push_to_empty, mut stale_clocks) = (0, 0, 0, 0, 0);
        for t in 0..60_000u64 {
            // a write every ~50 clocks, to a register the look-ahead reads
            let (we, addr, data) = if r.chance(2) {
                match r.below(6) {
                    0 => (1, csr::FILL, r.below(4000)),
                    1 => (1, csr::DEPTH, [1600, 3000, 20_000, 1 << 19][r.below(4) as usize] + r.below(2000)),
                    2 => (1, csr::OVERHEAD, r.below(256)),
                    3 => (1, csr::MAX_LEN, [1500, 9000, 0xFFFF, 0xFFFF][r.below(4) as usize]),
                    4 => (1, csr::FILL_FRAC, r.below(1000)),
                    _ => (1, csr::SCALE, 1000 + r.below(2000)),
                }
            } else {
                (0, 0, 0)
            };
            // (the port never pushes a length of 0: it drops it as malformed)
            let in_len = match r.below(100) {
                0..=2 => [16_383, 9000][r.below(2) as usize],
                // (longer than a small bucket holds, shorter than one refill with it)
                3..=15 => 1500 + r.below(2500),
                _ => 1 + r.below(1500),
            };
            let push = q.len() < 64 && r.chance([70, 40][(t / 2000 % 2) as usize]);
            let head = q.front().copied().unwrap_or(0);
            let second = q.get(1).copied().unwrap_or(0);
            let mut pins = [we, addr as u64, data, 1, head, second, !q.is_empty() as u64, (q.len() == 1) as u64, push as u64, in_len, 0, 0];
            let now = dut.eval(&pins).to_vec();
            let pop = now[0] == 1 && r.chance(70);
            pins[10] = pop as u64;
            let o = dut.eval(&pins).to_vec();
            dut.edge();
            let want = ShaperOut::from_slice(&m.step(
                &ShaperIn { csr_we: we, csr_addr: addr as u64, csr_wdata: data, head_valid: !q.is_empty() as u64, head_len: head, deq: pop as u64 }.to_vec(),
            ))
            .eligible;
            assert_eq!(o[1], want, "the shaper's RTL test at clock {t}");
            assert_eq!(o[0], (want == 1 && !stale) as u64, "eligible at clock {t} (the model's {want}, a write landed {stale})");
            eligible += o[0] as u32;
            stale_clocks += stale as u32;
            pop_second += (pop && q.len() >= 2) as u32;
            pop_to_head += (pop && q.len() == 1 && push) as u32;
            push_to_empty += (push && q.is_empty()) as u32;
            if pop {
                q.pop_front();
            }
            if push {
                q.push_back(in_len);
            }
            // a write presented this clock lands at the next edge: the clock after that is stale
            (stale, landing) = (landing, we == 1);
        }
        assert!(
            eligible > 5000 && pop_second > 2000 && pop_to_head > 200 && push_to_empty > 500 && stale_clocks > 500,
            "the stimulus reaches eligible heads ({eligible}), pops behind a second entry ({pop_second}), pops whose push becomes the head ({pop_to_head}), pushes into an empty queue ({push_to_empty}), clocks after a write ({stale_clocks})"
        );
    }
}
