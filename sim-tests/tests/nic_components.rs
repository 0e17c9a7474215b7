//! The FEC NIC's sub-blocks on their own, on rust-hdl and Verilator: `hdl::nic::ring::SlotRing`
//! against counters, `tx_queue::TxQueue` and `completion_queue::CompletionQueue` against queues
//! of records, `rx_feeder::RxFeeder` against the staged packet's beats,
//! `msg_capture::MsgCapture` against the message's rows, `bus_read::RegisterRead` and
//! `bus_read::WindowRead` against the read timing the register map states, and
//! `tick_divider::TickDivider` against its period.

use hdl::cycle::Rng;
use sim_tests::blocks::both_engines;
use std::collections::VecDeque;

/// `SlotRing`, the slot arithmetic of the TX queue and the completion queue, against plain
/// counters on both engines: random pushes (while not full), pops (while not empty) and clears
/// (winning over both); `full` is the count's flag and `head_next` the head after the clock.
#[test]
fn slot_ring_counts_slots_on_both_engines() {
    use hdl::nic::ring::SlotRing;
    for mut dut in both_engines(SlotRing::default, "slot_ring").unwrap() {
        let (mut r, mut head, mut tail, mut count) = (Rng::new(5), 0u64, 0u64, 0u64);
        let mut wraps = 0;
        let mut fulls = 0;
        for t in 0..20_000 {
            let push = count < 4 && r.chance([70, 30][t / 300 % 2]);
            let pop = count > 0 && r.chance(50);
            let clear = r.chance(1);
            let (mut h, mut tl, mut c) = (head, tail, count);
            if push {
                (tl, c) = ((tl + 1) % 4, c + 1);
            }
            if pop {
                (h, c) = ((h + 1) % 4, c - 1);
            }
            if clear {
                (h, tl, c) = (0, 0, 0);
            }
            let o = dut.eval(&[push as u64, pop as u64, clear as u64]).to_vec();
            dut.edge();
            assert_eq!(o, [h, tail, count, (count == 4) as u64], "clock {t}");
            fulls += (count == 4) as u32;
            wraps += (h < head) as u32;
            (head, tail, count) = (h, tl, c);
        }
        assert!(fulls > 500 && wraps > 500, "the ring is full ({fulls}) and its head wraps ({wraps}) often");
    }
}

/// A coded symbol as the queue holds it.
#[derive(Clone)]
struct Symbol {
    words: Vec<u64>,
    hdr: u64,
    bitset: u64,
}

/// Symbols of 3 to 16 beats from a producer that is ready at random, pops and (between symbols)
/// flushes from the host, and a read at a random word every clock: `ready` and `count` are the
/// queue's, a beat is taken exactly while ready, and the head symbol's word and header words
/// (`TX_HDR`, `TX_BITSET_HI`, `TX_BITSET_LO` by the address's low bits) come out the clock after
/// the read, as they are after that clock's pop.
#[test]
fn tx_queue_holds_whole_symbols_for_the_host() {
    use hdl::nic::tx_queue::TestTxQueue;
    for mut dut in both_engines(TestTxQueue::default, "tx_queue").unwrap() {
        let mut r = Rng::new(67);
        let mut q: VecDeque<Symbol> = VecDeque::new();
        let new_symbol = |r: &mut Rng| {
            let n = 3 + r.below(14) as usize;
            Symbol { words: (0..n).map(|_| r.next() & 0xFFFF_FFFF).collect(), hdr: r.next() & 0xFFFF_FFFF, bitset: r.next() }
        };
        let (mut sending, mut beat) = (new_symbol(&mut r), 0usize);
        // the word the host read at the last edge, if the head was whole before it
        let mut expect: Option<(u64, u64)> = None;
        let (mut checked, mut popped, mut flushed) = (0, 0, 0);
        for t in 0..40_000 {
            let valid = r.chance(70);
            let pop = r.chance(if q.len() == 4 { 40 } else { 15 });
            // a flush between symbols, with no beat (the host flushes an idle encoder's queue)
            let flush = beat == 0 && !valid && r.chance(3);
            let rd = r.below(16);
            let pins = [valid as u64, (beat == 0) as u64, (beat + 1 == sending.words.len()) as u64, sending.words[beat], sending.hdr, sending.bitset, pop as u64, flush as u64, rd];
            let o = dut.eval(&pins).to_vec();
            dut.edge();
            assert_eq!((o[0] == 1, o[2]), (q.len() < 4, q.len() as u64), "ready and count at clock {t}");
            assert_eq!(o[1] == 1, valid && q.len() < 4, "take at clock {t}");
            if let Some((data, meta)) = expect {
                assert_eq!((o[3], o[4]), (data, meta), "the head's word read at clock {}", t - 1);
                checked += 1;
            }
            if pop && !q.is_empty() {
                q.pop_front();
                popped += 1;
            }
            // the read's word, from the head after the pop (a symbol pushed now is not read yet)
            expect = q.front().filter(|_| !flush).map(|h| {
                let meta = [h.hdr, h.bitset >> 32, h.bitset & 0xFFFF_FFFF];
                (if (rd as usize) < h.words.len() { h.words[rd as usize] } else { u64::MAX }, meta.get(rd as usize & 3).copied().unwrap_or(u64::MAX))
            });
            // a word past the symbol, or the fourth meta word, is not the host's to read
            expect = expect.filter(|&(d, m)| d != u64::MAX && m != u64::MAX);
            if o[1] == 1 {
                beat += 1;
                if beat == sending.words.len() {
                    q.push_back(std::mem::replace(&mut sending, new_symbol(&mut r)));
                    beat = 0;
                }
            }
            if flush {
                q.clear();
                flushed += 1;
            }
        }
        assert!(checked > 5000 && popped > 1000 && flushed > 30, "reads checked {checked}, pops {popped}, flushes {flushed}");
    }
}

/// Records offered as the decoder offers them (held until taken), pops and clears from the host,
/// a read of a random word every clock: a record is taken after its seven words are written,
/// `count` and `full` are the queue's, and the head record's words read back in the registers'
/// order (`CQ_HEAD`: valid, failed, rank; header; known low, high; seen, redundant, invalid).
#[test]
fn completion_queue_keeps_the_records_in_order() {
    use hdl::nic::completion_queue::CompletionQueue;
    for mut dut in both_engines(CompletionQueue::default, "completion_queue").unwrap() {
        let mut r = Rng::new(71);
        let mut q: VecDeque<[u64; 7]> = VecDeque::new();
        let new_record = |r: &mut Rng| -> (bool, u64, [u64; 7]) {
            let (failed, rank) = (r.chance(30), r.below(65));
            let known = r.next();
            let w = [1 | (failed as u64) << 1 | rank << 8, r.next() & 0xFFFF_FFFF, known & 0xFFFF_FFFF, known >> 32, r.below(1000), r.below(1000), r.below(1000)];
            (failed, known, w)
        };
        let mut offer: Option<(bool, u64, [u64; 7])> = None;
        // clocks the offered record has been written for
        let mut written = 0;
        let mut expect: Option<u64> = None;
        let (mut taken, mut checked, mut clears) = (0, 0, 0);
        for t in 0..40_000 {
            if offer.is_none() && r.chance(20) {
                offer = Some(new_record(&mut r));
            }
            let pop = r.chance(if q.len() == 4 { 30 } else { 10 });
            let clear = r.chance(1);
            let rd = r.below(7);
            let (failed, known, w) = offer.unwrap_or((false, 0, [0; 7]));
            let pins = [offer.is_some() as u64, failed as u64, w[0] >> 8, w[1], known, w[4], w[5], w[6], pop as u64, clear as u64, rd];
            let o = dut.eval(&pins).to_vec();
            dut.edge();
            assert_eq!((o[1], o[2] == 1), (q.len() as u64, q.len() == 4), "count and full at clock {t}");
            assert_eq!(o[0] == 1, q.len() < 4 && written == 6, "rec_ready at clock {t}");
            if let Some(word) = expect {
                assert_eq!(o[3], word, "the head's word read at clock {}", t - 1);
                checked += 1;
            }
            if pop && !q.is_empty() {
                q.pop_front();
            }
            expect = q.front().filter(|_| !clear).map(|h| h[rd as usize]);
            if offer.is_some() && o[2] == 0 {
                // a word is written whenever the queue is not full (its registered flag)
                if o[0] == 1 {
                    q.push_back(w);
                    (offer, written, taken) = (None, 0, taken + 1);
                } else {
                    written += 1;
                }
            }
            if clear {
                (written, clears) = (0, clears + 1);
                q.clear();
            }
        }
        assert!(taken > 2000 && checked > 10_000 && clears > 200, "records {taken}, reads checked {checked}, clears {clears}");
    }
}

/// Packets staged (words and registers written at random, lengths 0 to 76 bytes) and pushed, fed
/// to a decoder that is ready at random, with writes tried while a push is in flight: the beats
/// are the staged words in order, `max(1, ⌈(len − 12)/4⌉)` of them with `in_last` on the last,
/// the header registers beside them, and a write made while `on` changes nothing.
#[test]
fn rx_feeder_feeds_the_staged_packet() {
    use hdl::nic::rx_feeder::TestRxFeeder;
    for mut dut in both_engines(TestRxFeeder::default, "rx_feeder").unwrap() {
        let mut r = Rng::new(73);
        let (mut stage, mut regs) = ([0u64; 16], [0u64; 4]);
        let (mut packets, mut refused_writes) = (0, 0);
        for _ in 0..600 {
            // stage: a few words and registers, one write per clock
            for _ in 0..r.below(12) {
                let (reg, a, v) = (r.chance(40), r.below(16), r.next() & 0xFFFF_FFFF);
                let mut pins = [0u64; 10];
                if reg {
                    let which = r.below(4) as usize;
                    let v = if which == 3 { r.below(77) } else { v };
                    (pins[3], pins[4 + which], pins[2]) = (1, 1, v);
                    regs[which] = if which == 3 { v & 0xFFFF } else { v };
                } else {
                    (pins[0], pins[1], pins[2]) = (1, a, v);
                    stage[a as usize] = v;
                }
                let o = dut.eval(&pins).to_vec();
                dut.edge();
                assert_eq!(o[0], 0, "off while staging");
            }
            // the push
            let mut pins = [0u64; 10];
            (pins[3], pins[8]) = (1, 1);
            dut.eval(&pins);
            dut.edge();
            let len = regs[3] as usize;
            let beats = if len > 12 { (len - 12).div_ceil(4) } else { 1 };
            let mut next = 0;
            for t in 0.. {
                let ready = r.chance(60);
                // a write while on: to the staging RAM or a register, refused
                let mut pins = [0u64; 10];
                if next < beats && r.chance(30) {
                    let which = r.below(5) as usize;
                    (pins[0], pins[1], pins[2]) = ((which == 4) as u64, r.below(16), r.next() & 0xFFFF_FFFF);
                    if which < 4 {
                        (pins[3], pins[4 + which]) = (1, 1);
                    }
                    refused_writes += 1;
                }
                pins[9] = ready as u64;
                let o = dut.eval(&pins).to_vec();
                dut.edge();
                if next == beats {
                    assert_eq!(o[0], 0, "off after the last beat ({beats} beats, length {len})");
                    break;
                }
                assert_eq!((o[0], o[1], o[2] == 1, o[3]), (1, 1, next + 1 == beats, stage[next]), "beat {next} of {beats} (length {len}) at clock {t}");
                assert_eq!((o[4], o[5], o[6], o[7]), (regs[0], regs[1], regs[2], regs[3]), "the header beside the beats");
                next += ready as usize;
            }
            packets += 1;
        }
        assert!(packets == 600 && refused_writes > 1000, "packets {packets}, writes tried while on {refused_writes}");
    }
}

/// Messages of random length (1 to 192 beats, rows of three words) offered at random, some freed
/// midway: a beat is taken while not full, the last one fills the buffer and holds the decoder
/// off, `bytes` counts what was taken, and every word reads back at its row's slot (row i, word
/// w at `4i + w`) until the buffer is freed.
#[test]
fn msg_capture_keeps_the_message_by_rows() {
    use hdl::nic::msg_capture::test_msg_capture;
    for mut dut in both_engines(test_msg_capture, "msg_capture").unwrap() {
        let mut r = Rng::new(79);
        let (mut messages, mut freed_midway, mut reads) = (0, 0, 0);
        for _ in 0..200 {
            let n = 1 + r.below(192) as usize;
            let words: Vec<u64> = (0..n).map(|_| r.next() & 0xFFFF_FFFF).collect();
            let free_at = if r.chance(15) { Some(r.below(n as u64)) } else { None };
            let (mut next, mut bytes) = (0usize, 0u64);
            let mut freed = false;
            for t in 0u64.. {
                let valid = r.chance(70);
                let free = free_at == Some(t);
                let nb = 1 + r.below(4);
                let o = dut.eval(&[valid as u64, words[next], nb, (next + 1 == n) as u64, free as u64, 0]).to_vec();
                dut.edge();
                assert_eq!((o[0], o[1], o[2]), (1, 0, bytes), "taking beat {next} of {n}");
                if free {
                    freed = true;
                    break;
                }
                if valid {
                    (next, bytes) = (next + 1, bytes + nb);
                    if next == n {
                        break;
                    }
                }
            }
            if freed {
                freed_midway += 1;
                continue;
            }
            // full: the decoder is held off, and the rows read back (after the last write lands)
            for i in 0..n + 2 {
                let rd = if i < 2 { 0 } else { i - 2 };
                let addr = ((rd / 3) << 2 | rd % 3) as u64;
                let o = dut.eval(&[r.chance(50) as u64, 0, 0, 0, 0, addr]).to_vec();
                dut.edge();
                assert_eq!((o[0], o[1], o[2]), (0, 1, bytes), "held full");
                if i >= 2 {
                    let o = dut.eval(&[0, 0, 0, 0, 0, 0]).to_vec();
                    assert_eq!(o[3], words[rd], "word {rd} of {n} at address {addr:#x}");
                    reads += 1;
                }
            }
            dut.eval(&[0, 0, 0, 0, 1, 0]);
            dut.edge();
            messages += 1;
        }
        assert!(messages > 150 && freed_midway > 15 && reads > 10_000, "messages {messages}, freed midway {freed_midway}, words read {reads}");
    }
}

/// Whether the NIC refuses a write to `addr` (`BUS_REFUSED`), from the register table and the
/// windows as `hdl::nic` documents them.
fn write_refused(addr: u32, busy: bool) -> bool {
    use hdl::nic::{idx, Access, REGISTERS, RX_STAGE, TX_MESSAGE};
    let within = |a: u32, off: u32, size: u32| (off..off + size).contains(&a);
    if addr < 0x1000 {
        let a = addr & !3;
        let hit = REGISTERS.iter().position(|r| within(a, r.offset, 4 * r.count));
        return match hit {
            None => true,
            Some(i) => REGISTERS[i].access == Access::Ro || (busy && (idx::RX_HDR..=idx::RX_PUSH).contains(&i)),
        };
    }
    if within(addr, RX_STAGE.offset, RX_STAGE.size) {
        return busy;
    }
    !within(addr, TX_MESSAGE.offset, TX_MESSAGE.size)
}

/// Writes at random over the registers (every register, gaps, the RX staging registers while
/// busy) and the windows, judged with `busy` as it is in the clock after the write (when the
/// NIC applies an RX staging write): the count is the writes the table says are refused, three
/// clocks after each.
#[test]
fn write_refusal_counts_the_writes_that_change_nothing() {
    use hdl::nic::refusal::WriteRefusal;
    use hdl::nic::REGISTERS;
    for mut dut in both_engines(WriteRefusal::default, "write_refusal").unwrap() {
        let mut r = Rng::new(83);
        let mut counts = VecDeque::from([0u64; 2]);
        let (mut total, mut writes, mut last) = (0u64, 0, None);
        for t in 0..30_000 {
            let we = r.chance(60);
            let addr = match r.below(4) {
                0 => REGISTERS[r.below(REGISTERS.len() as u64) as usize].offset + r.below(4) as u32,
                1 => r.below(0x1000) as u32,
                2 => 0x800 + r.below(0x20) as u32,
                _ => r.below(1 << 20) as u32,
            };
            let busy = r.chance(30);
            let o = dut.eval(&[we as u64, addr as u64, busy as u64]).to_vec();
            dut.edge();
            assert_eq!(o[0], counts.pop_front().unwrap(), "the count at clock {t}");
            // the write of the clock before, judged with this clock's busy
            if let Some(a) = last.take() {
                total += write_refused(a, busy) as u64;
            }
            last = we.then_some(addr);
            writes += we as u32;
            counts.push_back(total);
        }
        assert!(total > 5000 && (total as u32) < writes - 3000, "refused {total} of {writes} writes");
    }
}

/// `RegisterRead` (ten registers, two groups) on both engines: random reads and hits (register
/// index 0..15, so some hit none), with the values changing every clock. A read's data is on
/// `data` two clocks after its edge: the hit register's value as it is after that edge, 0 for
/// no hit.
#[test]
fn register_read_returns_the_register_two_clocks_later() {
    use hdl::nic::bus_read::TestRegisterRead;
    for mut dut in both_engines(TestRegisterRead::default, "register_read").unwrap() {
        let mut r = Rng::new(61);
        // the register hit by the read registered at the last edge
        let mut stage: Option<usize> = None;
        let mut want_data = 0u64;
        let mut reads = 0;
        for t in 0..20_000 {
            let re = r.chance(60);
            let (hit_any, hit_idx) = (r.chance(70), r.below(16) as usize);
            let base = r.next() & 0xFFFF_FFFF;
            let o = dut.eval(&[re as u64, hit_any as u64, hit_idx as u64, base]).to_vec();
            dut.edge();
            assert_eq!(o[0], want_data, "data at clock {t}");
            // the read of the last edge completes at this one: its data shows next clock
            want_data = stage.map_or(0, |i| base ^ TestRegisterRead::key(i));
            reads += stage.is_some() as u32;
            stage = (re && hit_any && hit_idx < 10).then_some(hit_idx);
        }
        assert!(reads > 3000, "{reads} register reads");
    }
}

/// `WindowRead` on both engines: random reads, windows (several at once: the last of TX
/// symbol, RX message, completion queue, TX meta wins) and words changing every clock. A read's
/// data is on `data` two clocks after its edge: the window's word as it is at the next edge
/// (the completion queue's head with bit 0 cleared when it was empty at the read), 0 for a read
/// in no window.
#[test]
fn window_read_returns_the_word_two_clocks_later() {
    use hdl::nic::bus_read::WindowRead;
    for mut dut in both_engines(WindowRead::default, "window_read").unwrap() {
        let mut r = Rng::new(67);
        // the read registered at the last edge: (window, empty CQ head)
        let mut stage: (u64, bool) = (0, false);
        let mut want_data = 0u64;
        let mut reads = [0u32; 5];
        for t in 0..20_000 {
            let re = r.chance(60);
            let win = [r.chance(15), r.chance(15), r.chance(15), r.chance(15)];
            let cq_empty = r.chance(30);
            let w = [r.next() & 0xFFFF_FFFF, r.next() & 0xFFFF_FFFF, r.next() & 0xFFFF_FFFF, r.next() & 0xFFFF_FFFF];
            let inputs = [re as u64, win[0] as u64, win[1] as u64, win[2] as u64, win[3] as u64, cq_empty as u64, w[0], w[1], w[2], w[3]];
            let o = dut.eval(&inputs).to_vec();
            dut.edge();
            assert_eq!(o[0], want_data, "data at clock {t}");
            want_data = match stage {
                (1, _) => w[0],
                (2, _) => w[1],
                (3, true) => w[2] & !1,
                (3, false) => w[2],
                (4, _) => w[3],
                _ => 0,
            };
            reads[stage.0 as usize] += 1;
            let src = if !re { 0 } else { (1..=4).rev().find(|&k| win[k as usize - 1]).unwrap_or(0) };
            stage = (src, if re { cq_empty } else { stage.1 });
        }
        assert!(reads[1..].iter().all(|&n| n > 500), "reads per window {reads:?}");
    }
}

/// `TickDivider` on both engines against its definition: after a write of `div`, a tick in
/// every clock whose distance from the write's edge is a multiple of `div`, none while `div` is
/// 0. Writes come at random, mostly of small periods (so ticks are many and a write often lands
/// at a tick or just before one), sometimes of periods past 2^31 (the count must not tick).
#[test]
fn tick_divider_ticks_every_div_clocks_from_the_write() {
    use hdl::nic::tick_divider::TickDivider;
    for mut dut in both_engines(TickDivider::default, "tick_divider").unwrap() {
        let mut r = Rng::new(71);
        let (mut div, mut since) = (0u64, 0u64);
        let (mut ticks, mut writes) = (0u32, 0u32);
        for t in 0..30_000 {
            let we = r.chance(2);
            let wdata = match r.below(8) {
                0 => 0,
                1 => 0x8000_0000 + r.below(1 << 31),
                2 => r.below(300),
                _ => r.below(8),
            };
            let o = dut.eval(&[we as u64, wdata]).to_vec();
            dut.edge();
            since += 1;
            let tick = div != 0 && since % div == 0;
            assert_eq!(o, [div, tick as u64], "clock {t} ({since} clocks after the write of {div})");
            ticks += tick as u32;
            if we {
                (div, since) = (wdata, 0);
                writes += 1;
            }
        }
        assert!(ticks > 3000 && writes > 400, "{ticks} ticks, {writes} writes");
    }
}
