//! Golden model of the switch egress port (dataflow and choices in `mod.rs`). It composes the
//! golden models of the blocks the RTL instantiates, driven pin by pin exactly as the RTL
//! drives them, plus the port's own FIFOs, pacer, registers and counters.

use super::*;
use crate::aqm::model::Marker;
use crate::cycle::{inc32, CycleModel, Pin};
use crate::dwrr::model::Dwrr;
use crate::intstamp::{model::IntStamp, IntIn, IntOut};
use crate::ren::{model::Ren, RenIn, RenOut};
use crate::seldrop::{model::SelDropCore, SelDropIn};
use crate::shaper::{model::Shaper, ShaperIn};
use std::collections::VecDeque;

/// A queued descriptor as the FIFO stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Desc {
    pub len: u64,
    pub ecn: u64,
    pub is_data: bool,
    pub ts: u64,
}

/// A descriptor in `D2`: judged by its queue's AQM marker last clock, on its way through REN and
/// INT stamping (the port README, *Latency*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    pub q: usize,
    pub desc: Desc,
    /// The code the AQM passed on (CE when it marked).
    pub ecn: u64,
    pub aqm_drop: bool,
    /// The AQM marked an ECT descriptor CE.
    pub marked: bool,
    pub sojourn: u64,
}

/// An arrival in the input stage: registered in the clock it arrives, with its queue and its
/// length check judged by the `CLASS_MAP` and `MAX_LEN` of that clock; admitted or dropped in
/// the next, its queue's occupancy tested against the `QCAP` of its arrival's clock (the port
/// README, *Arrival*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrival {
    pub q: usize,
    pub malformed: bool,
    pub qcap: u64,
    pub len: u64,
    pub ecn: u64,
    pub low_prio: bool,
    pub is_data: bool,
}

/// Port counters (saturating), in `rd` order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub input: u64,
    pub enq: u64,
    pub drop_malformed: u64,
    pub drop_tail: u64,
    pub drop_sel: u64,
    pub deq: u64,
    pub out: u64,
    pub drop_aqm: u64,
    pub drop_ren: u64,
    pub drop_int: u64,
    pub marked_aqm: u64,
}

/// The link pacer (the README's *Link pacer*): a credit in 1/256 bytes, the link free while it
/// is not negative. A departure charges `(len + OVERHEAD) × 256` and every clock adds `RATE`
/// (bytes per clock, 16.8 fixed point); after a departure the credit is capped at `RATE`. A free
/// clock with no departure is idle: the credit restarts from 0 (an idle link banks nothing) and
/// `min(RATE >> 8, 255)` idle byte slots go to REN on the next clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pacer {
    /// Credit in 1/256 bytes (signed).
    pub credit: i64,
    /// Idle byte slots of the last clock, for REN.
    pub idle: u64,
}

impl Pacer {
    /// The link is free this clock.
    pub fn ready(&self) -> bool {
        self.credit >= 0
    }
    /// The edge: `sent` is the length of the descriptor granted in this clock, if any.
    pub fn clock(&mut self, rate: u64, overhead: u64, sent: Option<u64>) {
        let ready = self.ready();
        self.idle = if ready && sent.is_none() { (rate >> 8).min(255) } else { 0 };
        self.credit = match sent {
            Some(len) => (self.credit - (((len + overhead) << 8) as i64) + rate as i64).min(rate as i64),
            None if ready => 0,
            None => self.credit + rate as i64,
        };
    }
}

/// The port with `NQ` queues of `2^DB` descriptors each, built with the blocks `F`
/// ([`features`]; the full port by default).
#[derive(Clone, Debug)]
pub struct PortModel<const NQ: usize, const DB: usize, const F: usize = { features::ALL }> {
    pub class_map: u64,
    pub qcap: u64,
    pub max_len: u64,
    pub rate: u64,
    pub overhead: u64,
    pub emu_q: u64,
    pub sel_q: u64,
    pub now: u64,
    pub fifo: Vec<VecDeque<Desc>>,
    pub resident_bytes: u64,
    pub pacer: Pacer,
    /// The descriptor that arrived last clock, classified then; admitted this clock.
    pub arrival: Option<Arrival>,
    /// The queue DWRR picked last clock: its head pops in this clock if the link is free, and
    /// waits (the pick holding) while it is not (the README, *Scheduling*).
    pub pick: Option<usize>,
    /// The descriptor popped last clock: (queue, descriptor).
    pub d1: Option<(usize, Desc)>,
    /// The descriptor the AQM judged last clock.
    pub d2: Option<Judged>,
    pub dwrr: Dwrr,
    pub aqm: Vec<Marker>,
    pub seldrop: SelDropCore,
    pub shaper: Shaper,
    /// A shaper register write landed at the last edge, `EMU_Q` was written in the last clock,
    /// or the emulation queue popped a head its shaper did not find eligible (a violation, not
    /// charged): the emulation queue is not servable this clock (the RTL judges its eligibility
    /// a clock ahead, for a charged pop, and cannot see those writes, `emu_ahead.rs`).
    pub emu_stale: bool,
    pub ren: Ren,
    pub int: IntStamp,
    /// Every event counted, up to this clock.
    pub cnt: Counters,
    /// The counters as the read port shows them: a clock behind `cnt`, since each counts its
    /// event at the edge after the event's clock (the RTL's `LateCounter`s).
    pub shown: Counters,
}

impl<const NQ: usize, const DB: usize, const F: usize> Default for PortModel<NQ, DB, F> {
    fn default() -> Self {
        PortModel {
            class_map: (0..8u64).map(|c| (c % NQ as u64) << (3 * c)).sum(),
            qcap: 1 << DB,
            max_len: DEFAULT_MAX_LEN,
            rate: DEFAULT_RATE,
            overhead: DEFAULT_OVERHEAD,
            emu_q: 0,
            sel_q: 0,
            now: 0,
            fifo: vec![VecDeque::new(); NQ],
            resident_bytes: 0,
            pacer: Pacer::default(),
            arrival: None,
            pick: None,
            d1: None,
            d2: None,
            dwrr: Dwrr::new(NQ),
            aqm: vec![Marker::default(); NQ],
            seldrop: SelDropCore::default(),
            shaper: Shaper::default(),
            emu_stale: false,
            ren: Ren::default(),
            int: IntStamp::default(),
            cnt: Counters::default(),
            shown: Counters::default(),
        }
    }
}

/// The enabled queue of an `EMU_Q` / `SEL_Q` register.
fn enabled(reg: u64) -> Option<usize> {
    (reg & 0x10 != 0).then_some((reg & 7) as usize)
}

impl<const NQ: usize, const DB: usize, const F: usize> PortModel<NQ, DB, F> {
    pub const DEPTH: usize = 1 << DB;

    /// The port is built with the block `f` ([`features`]).
    pub const fn has(f: usize) -> bool {
        F & f != 0
    }

    pub fn resident_pkts(&self) -> u64 {
        self.fifo.iter().map(|f| f.len() as u64).sum()
    }

    pub fn queue_of(&self, class: u64) -> usize {
        ((self.class_map >> (3 * class)) & 7) as usize & (NQ - 1)
    }

    /// The register read port.
    pub fn read(&self, addr: u64) -> u64 {
        let c = &self.shown;
        match addr {
            rd::IN => c.input,
            rd::ENQ => c.enq,
            rd::DROP_MALFORMED => c.drop_malformed,
            rd::DROP_TAIL => c.drop_tail,
            rd::DROP_SEL => c.drop_sel,
            rd::DEQ => c.deq,
            rd::OUT => c.out,
            rd::DROP_AQM => c.drop_aqm,
            rd::DROP_REN => c.drop_ren,
            rd::DROP_INT => c.drop_int,
            rd::MARKED_AQM => c.marked_aqm,
            rd::RESIDENT_PKTS => self.resident_pkts(),
            rd::RESIDENT_BYTES => self.resident_bytes,
            rd::NOW => self.now,
            rd::IN_FLIGHT => self.d1.is_some() as u64 + self.d2.is_some() as u64,
            a if a >= rd::QLEN0 && a < rd::QLEN0 + NQ as u64 => self.fifo[(a - rd::QLEN0) as usize].len() as u64,
            _ => 0,
        }
    }

    fn write_port_csr(&mut self, reg: u64, data: u64) {
        match reg as u16 {
            csr::CLASS_MAP => self.class_map = data & 0xFF_FFFF,
            csr::QCAP => self.qcap = data,
            csr::MAX_LEN if data <= 0x3FFF => self.max_len = data,
            csr::RATE => self.rate = data & 0xFF_FFFF,
            csr::OVERHEAD => self.overhead = data & 0xFF,
            csr::EMU_Q => self.emu_q = data & 0x17,
            csr::SEL_Q => self.sel_q = data & 0x17,
            _ => {}
        }
    }
}

impl<const NQ: usize, const DB: usize, const F: usize> CycleModel for PortModel<NQ, DB, F> {
    const INPUTS: &'static [Pin] = PortIn::PINS;
    const OUTPUTS: &'static [Pin] = PortOut::PINS;

    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let i = PortIn::from_slice(inputs);
        let block = i.csr_addr >> 8;
        let reg = i.csr_addr & 0xFF;
        let we = |b: u64| (i.csr_we == 1 && block == b) as u64;
        let mut o = PortOut { csr_rdata: self.read(i.csr_raddr), ..Default::default() };
        // the counters as they stand now (events up to the last clock) show from the next
        let counted = self.cnt;
        let counts: Vec<u64> = self.fifo.iter().map(|f| f.len() as u64).collect();
        let resident_pkts: u64 = counts.iter().sum();

        // --- D2, the descriptor the AQM judged last clock: REN → INT, out
        let now = self.now;
        let (d2v, j) = match self.d2 {
            Some(j) => (true, j),
            None => (false, Judged::default()),
        };
        let on = d2v && !j.aqm_drop;
        // a port without REN passes the code on; without INT its record is 0. REN judges over
        // two clocks (its README's *Latency*): it takes `D1`'s descriptor, the resident count, the
        // idle bytes and its register writes a clock ahead, and the AQM's verdict in `D2`.
        let ren = if !Self::has(features::REN) {
            RenOut { ecn_out: j.ecn, ..Default::default() }
        } else {
            let d1 = self.d1.map(|(_, d)| d).unwrap_or_default();
            RenOut::from_slice(&self.ren.step(&RenIn {
                csr_we: we(5),
                csr_addr: reg,
                csr_wdata: i.csr_wdata,
                idle_bytes: self.pacer.idle,
                q_pkts: resident_pkts,
                deq_valid: on as u64,
                deq_is_data: d1.is_data as u64,
                deq_ecn: j.ecn,
                deq_len: d1.len,
            }
            .to_vec()))
        };
        let ren_drop = on && ren.drop == 1;
        let int = if !Self::has(features::INT) {
            IntOut::default()
        } else {
            IntOut::from_slice(&self.int.step(&IntIn {
                csr_we: we(6),
                csr_addr: reg,
                csr_wdata: i.csr_wdata,
                deq_valid: (on && !ren_drop) as u64,
                deq_len: j.desc.len,
                now: now & 0xFF_FFFF,
                qlen_after: self.resident_bytes,
            }
            .to_vec()))
        };
        let int_drop = on && !ren_drop && int.drop == 1;
        let out_valid = on && !ren_drop && !int_drop;
        (o.out_valid, o.out_q, o.out_len, o.out_ecn, o.out_is_data) = (out_valid as u64, j.q as u64, j.desc.len, ren.ecn_out, j.desc.is_data as u64);
        (o.out_sojourn, o.out_hop_lo, o.out_hop_hi) = (j.sojourn, int.hop_lo, int.hop_hi);
        if d2v {
            if j.marked {
                inc32(&mut self.cnt.marked_aqm);
            }
            let c = &mut self.cnt;
            inc32(if j.aqm_drop {
                &mut c.drop_aqm
            } else if ren_drop {
                &mut c.drop_ren
            } else if int_drop {
                &mut c.drop_int
            } else {
                &mut c.out
            });
        }

        // --- D1, the descriptor granted last clock: its queue's AQM marker
        self.d2 = self.d1.map(|(q, d)| {
            let sojourn = now.wrapping_sub(d.ts) & 0xFFFF_FFFF;
            let (mut ecn, mut aqm_drop) = (d.ecn, false);
            if Self::has(features::AQM) {
                let dec = self.aqm[q].dequeue(now as u32, sojourn as u32, d.ecn as u8, counts[q] as u32);
                (ecn, aqm_drop) = (dec.ecn_out as u64, dec.drop);
            }
            Judged { q, desc: d, ecn, aqm_drop, marked: crate::ecn::is_ect(d.ecn as u8) && ecn == 3, sojourn }
        });
        if i.csr_we == 1 && block == 2 && reg < 64 {
            for m in &mut self.aqm {
                m.write_csr(reg as u8, i.csr_wdata as u32);
            }
        }

        // --- scheduling: last clock's pick pops while the link is free; DWRR picks the next
        // from every queue as it stands after that pop (the README, *Scheduling*)
        let head = |q: usize| self.fifo[q].front().map(|d| d.len).unwrap_or(0);
        let lens: Vec<u64> = (0..NQ).map(head).collect();
        let ready = self.pacer.ready();
        let pop = self.pick.filter(|_| ready);
        let view_lens: Vec<u64> =
            (0..NQ).map(|q| if pop == Some(q) { self.fifo[q].get(1).map(|d| d.len).unwrap_or(0) } else { lens[q] }).collect();
        let emu = enabled(self.emu_q).filter(|&q| q < NQ && Self::has(features::SHAPER));
        let mut valid: u64 = (0..NQ).filter(|&q| counts[q] > (pop == Some(q)) as u64).map(|q| 1 << q).sum();
        let shaper_write_lands = self.shaper.csr.held.is_some();
        if let Some(e) = emu {
            // the shaper charges a pick at its pop, a clock later: the emulation queue is not
            // picked while its last pick pops, nor when a shaper write lands in between
            if pop == Some(e) || shaper_write_lands || self.emu_stale || !self.shaper.eligible(lens[e]) {
                valid &= !(1 << e);
            }
        }
        let emu_q_write = we(0) == 1 && reg == csr::EMU_Q as u64;
        let pick_en = (self.pick.is_none() || ready) && !emu_q_write;
        let pick = self.dwrr.clock(valid, &view_lens, pick_en);
        // a register write landing while a pick waits for the link can leave the emulation
        // queue's head ineligible at its pop: the shaper counts a violation and does not charge
        let violation = emu.is_some_and(|e| pop == Some(e) && !self.shaper.eligible(lens[e]));
        self.shaper.step(
            &ShaperIn {
                csr_we: we(4),
                csr_addr: reg,
                csr_wdata: i.csr_wdata,
                head_valid: emu.is_some_and(|e| counts[e] > 0) as u64,
                head_len: emu.map(|e| lens[e]).unwrap_or(0),
                deq: (emu.is_some() && pop == emu) as u64,
            }
            .to_vec(),
        );
        let popped = pop.map(|q| {
            let d = self.fifo[q].pop_front().expect("a picked queue is backlogged");
            self.resident_bytes -= d.len;
            inc32(&mut self.cnt.deq);
            (q, d)
        });
        (o.grant, o.grant_q) = (pop.is_some() as u64, pop.unwrap_or(0) as u64);
        self.pacer.clock(self.rate, self.overhead, popped.map(|(_, d)| d.len));
        self.d1 = popped;
        // a pick waits while the link is busy; no pick is made in the clock of an `EMU_Q` write
        self.pick = if pick_en { pick } else if ready { None } else { self.pick };

        // --- admission of last clock's arrival: QCAP, selective drop, enqueue with the time stamp
        let a = self.arrival.unwrap_or_default();
        let av = self.arrival.is_some();
        let q = a.q;
        let full = counts[q] >= a.qcap || counts[q] as usize >= Self::DEPTH;
        let sel = enabled(self.sel_q).filter(|&s| s < NQ && Self::has(features::SELDROP));
        let sel_applies = sel == Some(q);
        let sd = self.seldrop.clock(&SelDropIn {
            csr_we: we(3),
            csr_addr: reg,
            csr_wdata: i.csr_wdata,
            arr_valid: (av && !a.malformed && !full && sel_applies) as u64,
            arr_len: a.len,
            arr_ecn: a.ecn,
            arr_low_prio: a.low_prio as u64,
            deq_valid: (sel.is_some() && popped.map(|p| p.0) == sel) as u64,
            deq_len: popped.map(|p| p.1.len).unwrap_or(0),
        });
        if av {
            inc32(&mut self.cnt.input);
            o.in_drop = if a.malformed {
                drop::MALFORMED
            } else if full {
                drop::TAIL
            } else if !sel_applies || sd.admit == 1 {
                drop::NONE
            } else if sd.drop_sel == 1 {
                drop::SELECTIVE
            } else if sd.drop_full == 1 {
                drop::TAIL
            } else {
                drop::MALFORMED
            };
            let c = &mut self.cnt;
            inc32(match o.in_drop {
                drop::MALFORMED => &mut c.drop_malformed,
                drop::TAIL => &mut c.drop_tail,
                drop::SELECTIVE => &mut c.drop_sel,
                _ => &mut c.enq,
            });
            if o.in_drop == drop::NONE {
                o.in_admit = 1;
                let ecn = if sel_applies { sd.ecn_out } else { a.ecn };
                self.fifo[q].push_back(Desc { len: a.len, ecn, is_data: a.is_data, ts: now });
                self.resident_bytes += a.len;
                // DWRR's pick for the next clock counts the queue this admission fills
                self.dwrr.arrivals(1 << q);
            }
        }

        // --- input stage: this clock's arrival classified with this clock's registers
        self.arrival = (i.in_valid == 1).then(|| Arrival {
            q: self.queue_of(i.in_class),
            malformed: i.in_len == 0 || i.in_len > self.max_len,
            qcap: self.qcap,
            len: i.in_len,
            ecn: i.in_ecn,
            low_prio: i.in_low_prio == 1,
            is_data: i.in_is_data == 1,
        });
        if we(1) == 1 {
            self.dwrr.csr_write(reg, i.csr_wdata);
        }

        self.emu_stale = shaper_write_lands || emu_q_write || violation;

        // --- time base and port registers
        self.now = if we(0) == 1 && reg == csr::TIME_LOAD as u64 { i.csr_wdata } else { (now + 1) & 0xFFFF_FFFF };
        if we(0) == 1 {
            self.write_port_csr(reg, i.csr_wdata);
        }
        self.shown = counted;
        o.to_vec()
    }
}
