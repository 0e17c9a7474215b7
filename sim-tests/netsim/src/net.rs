//! The network: sender hosts, links and flows as discrete events, and one switch egress port
//! clocked every tick as the bottleneck (one tick = one port clock).
//!
//! ```text
//! flows ─► host NIC (FIFO, line rate) ─ d_host ─► ingress ─► PORT (model or RTL) ─ d_rcv ─► receiver
//!   ▲                                                                                          │
//!   └──────────────────────────── ACK (per packet, ECN-Echo, RTT_f − d_host − d_rcv) ◄─────────┘
//! ```
//!
//! * Every link runs at the bottleneck's rate; a packet of `len` bytes occupies a link for
//!   `len + 20` bytes (preamble and gap, the port's `OVERHEAD`). Links are store-and-forward.
//! * Each flow has its own propagation RTT (`FlowSpec::rtt_us`); the reverse path carries what
//!   the two 1-µs forward hops do not. ACKs are not queued (the reverse path is uncongested).
//! * The port takes one descriptor per clock. Packets reaching it in the same tick wait in an
//!   ingress FIFO in arrival order (a tick is short against a packet time, so this FIFO stays
//!   a few entries deep; its maximum is reported as `max_ingress`).
//! * The simulator keeps a shadow of each port queue (packet identities in FIFO order) to
//!   know which packet an admission, a grant and a departure refer to; the port itself decides
//!   every drop and every mark. A departure's length must match the shadow's or the run stops.
//! * Transport: per-packet ACKs, NewReno loss recovery (three duplicate ACKs, partial ACKs
//!   retransmit the next hole), RTO = max(min RTO, SRTT + 4·RTTVAR) with back-off, go-back-N
//!   after a timeout; the window rule is the flow's [`Cc`].

use super::bottleneck::{Bottleneck, PortSetup};
use super::cc::{Ack, Cc};
use anyhow::{bail, Result};
use hdl::port::{drop, PortIn};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, VecDeque};

pub type Tick = u64;

/// Bytes of preamble and inter-frame gap per packet on every link (the port's `OVERHEAD`).
pub const WIRE_OVERHEAD: u64 = 20;
/// Header bytes per packet on top of the payload.
pub const HEADER: u64 = 40;
/// ECN codepoints.
pub const ECT0: u8 = 2;
pub const CE: u8 = 3;

/// The network around the port.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// One port clock, ns.
    pub tick_ns: f64,
    /// Every link's rate (the port's `RATE` is derived from it).
    pub gbps: f64,
    pub hosts: usize,
    /// Payload per full packet.
    pub mss: u64,
    pub init_cwnd: f64,
    pub min_rto_us: f64,
    /// Host → switch and switch → receiver propagation, µs.
    pub hop_us: f64,
    pub qcap: u64,
    pub aqm: hdl::aqm::Config,
    /// Queue and throughput sampling period, µs.
    pub sample_us: f64,
}

impl NetConfig {
    pub fn ticks(&self, us: f64) -> Tick {
        (us * 1000.0 / self.tick_ns).round() as Tick
    }
    pub fn us(&self, t: Tick) -> f64 {
        t as f64 * self.tick_ns / 1000.0
    }
    pub fn bytes_per_tick(&self) -> f64 {
        self.gbps * self.tick_ns / 8.0
    }
    /// Ticks to serialize `len` bytes (plus the wire overhead) at line rate.
    pub fn ser(&self, len: u64) -> Tick {
        ((len + WIRE_OVERHEAD) as f64 / self.bytes_per_tick()).ceil() as Tick
    }
    pub fn port_setup(&self) -> PortSetup {
        PortSetup { bytes_per_clock: self.bytes_per_tick(), qcap: self.qcap, aqm: self.aqm }
    }
    /// A time of `us` as the port's tick count (for AQM parameters).
    pub fn aqm_ticks(&self, us: f64) -> u32 {
        self.ticks(us) as u32
    }
}

/// One flow to simulate.
#[derive(Clone, Debug)]
pub struct FlowSpec {
    pub host: usize,
    pub start_us: f64,
    pub bytes: u64,
    /// Propagation RTT, µs.
    pub rtt_us: f64,
    pub cc: Cc,
    /// Record its delivered bytes at every sample (for per-flow throughput).
    pub track: bool,
}

/// What became of a flow.
#[derive(Clone, Debug)]
pub struct FlowResult {
    pub bytes: u64,
    pub start_us: f64,
    pub rtt_us: f64,
    pub fct_us: Option<f64>,
    pub timeouts: u32,
    pub retransmits: u32,
    /// Delivered (cumulatively acknowledged) bytes at each sample, if tracked.
    pub delivered: Vec<u64>,
}

/// A port decision, in tick order: what the model and the RTL must agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub tick: Tick,
    pub kind: DecisionKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// Arrival refused (`in_drop` code).
    Drop(u64),
    /// Departure marked CE by the port.
    Mark,
    /// Departure removed after its grant (AQM / REN / INT drop).
    DepartureDrop,
    /// Departure whose ECN field the port changed (REN codes, CE marks), to this value.
    Code(u8),
    /// A port's digest of every INT record, sojourn and code it sent (end of run).
    Digest(u64),
}

/// Everything a run measured.
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    pub flows: Vec<FlowResult>,
    /// Sample times, µs.
    pub t_us: Vec<f64>,
    /// Port data-queue occupancy at each sample, packets.
    pub queue: Vec<u64>,
    /// Bottleneck departures in the period before each sample, Gb/s.
    pub gbps: Vec<f64>,
    pub decisions: Vec<Decision>,
    pub arrivals: u64,
    pub departures: u64,
    pub marks: u64,
    pub drops: u64,
    pub timeouts: u64,
    pub max_ingress: usize,
    pub ticks: Tick,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Pkt {
    flow: u32,
    seq: u32,
    len: u16,
    ecn: u8,
    retx: bool,
    sent: Tick,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    Start(u32),
    NicFree(u32),
    AtSwitch(Pkt),
    AtReceiver(Pkt),
    AtSender { flow: u32, cum: u32, ece: bool, echo: Tick, retx: bool },
    Rto { flow: u32, gen: u32 },
}

struct Flow {
    spec: FlowSpec,
    npkts: u32,
    snd_una: u32,
    snd_nxt: u32,
    dupacks: u32,
    recover: Option<u32>,
    srtt: f64,
    rttvar: f64,
    backoff: u32,
    rto_gen: u32,
    rto_armed: bool,
    rcv_nxt: u32,
    ooo: BTreeSet<u32>,
    res: FlowResult,
}

struct Host {
    nic: VecDeque<Pkt>,
    busy: bool,
}

/// The simulator state between ticks.
struct Sim<'a> {
    cfg: &'a NetConfig,
    now: Tick,
    seq: u64,
    events: BinaryHeap<Reverse<(Tick, u64, Ev)>>,
    flows: Vec<Flow>,
    hosts: Vec<Host>,
    ingress: VecDeque<Pkt>,
    shadow: VecDeque<Pkt>,
    d1: Option<Pkt>,
    min_rto: Tick,
    /// Flows whose last ACK has not arrived.
    unfinished: usize,
    res: RunResult,
}

impl Sim<'_> {
    fn at(&mut self, t: Tick, e: Ev) {
        self.seq += 1;
        self.events.push(Reverse((t, self.seq, e)));
    }

    fn pkt_len(&self, f: &Flow, seq: u32) -> u64 {
        let payload = if seq + 1 == f.npkts { f.spec.bytes - self.cfg.mss * (f.npkts as u64 - 1) } else { self.cfg.mss };
        payload + HEADER
    }

    fn send(&mut self, fi: u32, seq: u32, retx: bool) {
        let f = &self.flows[fi as usize];
        let p = Pkt { flow: fi, seq, len: self.pkt_len(f, seq) as u16, ecn: ECT0, retx, sent: self.now };
        let h = f.spec.host;
        self.hosts[h].nic.push_back(p);
        if !self.hosts[h].busy {
            self.nic_next(h as u32);
        }
        if !self.flows[fi as usize].rto_armed {
            self.arm_rto(fi);
        }
    }

    /// Start serializing the host's next packet, if any.
    fn nic_next(&mut self, h: u32) {
        let Some(p) = self.hosts[h as usize].nic.pop_front() else {
            self.hosts[h as usize].busy = false;
            return;
        };
        self.hosts[h as usize].busy = true;
        let done = self.now + self.cfg.ser(p.len as u64);
        self.at(done, Ev::NicFree(h));
        self.at(done + self.cfg.ticks(self.cfg.hop_us), Ev::AtSwitch(p));
    }

    fn arm_rto(&mut self, fi: u32) {
        let f = &mut self.flows[fi as usize];
        f.rto_gen += 1;
        f.rto_armed = true;
        let rto = if f.srtt > 0.0 { (f.srtt + 4.0 * f.rttvar).max(self.min_rto as f64) as Tick } else { self.min_rto.max(3 * self.cfg.ticks(f.spec.rtt_us)) };
        let (gen, t) = (f.rto_gen, self.now + (rto << f.backoff.min(6)));
        self.at(t, Ev::Rto { flow: fi, gen });
    }

    /// Send what the window allows.
    fn pump(&mut self, fi: u32) {
        loop {
            let f = &self.flows[fi as usize];
            let wnd = f.spec.cc.cwnd().floor().max(1.0) as u32;
            if f.snd_nxt >= f.npkts || f.snd_nxt - f.snd_una >= wnd {
                return;
            }
            let seq = f.snd_nxt;
            self.flows[fi as usize].snd_nxt += 1;
            self.send(fi, seq, false);
        }
    }

    fn receive(&mut self, p: Pkt) {
        let f = &mut self.flows[p.flow as usize];
        if p.seq == f.rcv_nxt {
            f.rcv_nxt += 1;
            while f.ooo.remove(&f.rcv_nxt) {
                f.rcv_nxt += 1;
            }
        } else if p.seq > f.rcv_nxt {
            f.ooo.insert(p.seq);
        }
        let back = self.cfg.ticks((f.spec.rtt_us - 2.0 * self.cfg.hop_us).max(0.0));
        let ev = Ev::AtSender { flow: p.flow, cum: f.rcv_nxt, ece: p.ecn == CE, echo: p.sent, retx: p.retx };
        self.at(self.now + back, ev);
    }

    fn on_ack(&mut self, fi: u32, cum: u32, ece: bool, echo: Tick, retx: bool) {
        let now_us = self.cfg.us(self.now);
        let tick_us = self.cfg.tick_ns / 1000.0;
        let f = &mut self.flows[fi as usize];
        if f.res.fct_us.is_some() {
            return;
        }
        let mut rtt_us = None;
        let mut newly = 0;
        if cum > f.snd_una {
            newly = cum - f.snd_una;
            f.snd_una = cum;
            f.snd_nxt = f.snd_nxt.max(cum);
            f.dupacks = 0;
            f.backoff = 0;
            if !retx {
                let r = (self.now - echo) as f64;
                if f.srtt == 0.0 {
                    (f.srtt, f.rttvar) = (r, r / 2.0);
                } else {
                    f.rttvar = 0.75 * f.rttvar + 0.25 * (f.srtt - r).abs();
                    f.srtt = 0.875 * f.srtt + 0.125 * r;
                }
                rtt_us = Some(r * tick_us);
            }
        } else if f.snd_nxt > f.snd_una {
            f.dupacks += 1;
        }
        let ack = Ack { now_us, ece, rtt_us, newly_acked: newly, snd_una: f.snd_una, snd_nxt: f.snd_nxt, srtt_us: f.srtt * tick_us };
        f.spec.cc.on_ack(&ack);
        if f.snd_una >= f.npkts {
            f.res.fct_us = Some(now_us - f.spec.start_us);
            f.rto_armed = false;
            f.rto_gen += 1;
            self.unfinished -= 1;
            return;
        }
        let una = f.snd_una;
        if newly > 0 {
            if let Some(r) = f.recover {
                if una >= r {
                    f.recover = None;
                } else {
                    f.res.retransmits += 1;
                    self.send(fi, una, true);
                }
            }
            self.arm_rto(fi);
        } else if f.dupacks == 3 && f.recover.is_none() {
            f.recover = Some(f.snd_nxt);
            f.spec.cc.on_fast_retransmit();
            f.res.retransmits += 1;
            self.send(fi, una, true);
        }
        self.pump(fi);
    }

    fn on_rto(&mut self, fi: u32, gen: u32) {
        let f = &mut self.flows[fi as usize];
        if gen != f.rto_gen || f.res.fct_us.is_some() {
            return;
        }
        f.rto_armed = false;
        if f.snd_una >= f.snd_nxt {
            return;
        }
        f.res.timeouts += 1;
        f.spec.cc.on_timeout();
        f.snd_nxt = f.snd_una;
        f.dupacks = 0;
        f.recover = None;
        f.backoff += 1;
        self.res.timeouts += 1;
        self.pump(fi);
    }

    fn event(&mut self, e: Ev) {
        match e {
            Ev::Start(fi) => self.pump(fi),
            Ev::NicFree(h) => self.nic_next(h),
            Ev::AtSwitch(p) => self.ingress.push_back(p),
            Ev::AtReceiver(p) => self.receive(p),
            Ev::AtSender { flow, cum, ece, echo, retx } => self.on_ack(flow, cum, ece, echo, retx),
            Ev::Rto { flow, gen } => self.on_rto(flow, gen),
        }
    }

    /// One port clock with this tick's arrival.
    fn clock_port(&mut self, port: &mut dyn Bottleneck) -> Result<u64> {
        let arrival = self.ingress.pop_front();
        let inp = match arrival {
            Some(p) => PortIn { in_valid: 1, in_len: p.len as u64, in_ecn: p.ecn as u64, in_is_data: 1, ..Default::default() },
            None => PortIn::default(),
        };
        let o = port.clock(&inp);
        let mut sent_bytes = 0;
        if let Some(mut p) = self.d1.take() {
            if o.out_valid == 1 {
                if o.out_len != p.len as u64 {
                    bail!("tick {}: the port sent a {}-byte descriptor where flow {} seq {} ({} bytes) was due", self.now, o.out_len, p.flow, p.seq, p.len);
                }
                if o.out_ecn as u8 == CE && p.ecn != CE {
                    self.res.marks += 1;
                    self.res.decisions.push(Decision { tick: self.now, kind: DecisionKind::Mark });
                }
                p.ecn = o.out_ecn as u8;
                self.res.departures += 1;
                sent_bytes = p.len as u64;
                let t = self.now + self.cfg.ser(p.len as u64) + self.cfg.ticks(self.cfg.hop_us);
                self.at(t, Ev::AtReceiver(p));
            } else {
                self.res.drops += 1;
                self.res.decisions.push(Decision { tick: self.now, kind: DecisionKind::DepartureDrop });
            }
        }
        if o.grant == 1 {
            if o.grant_q != 0 {
                bail!("tick {}: grant to queue {} which no class maps to", self.now, o.grant_q);
            }
            let Some(p) = self.shadow.pop_front() else { bail!("tick {}: the port granted an empty queue", self.now) };
            self.d1 = Some(p);
        }
        if let Some(p) = arrival {
            self.res.arrivals += 1;
            if o.in_admit == 1 {
                self.shadow.push_back(p);
            } else {
                if o.in_drop == drop::NONE {
                    bail!("tick {}: arrival neither admitted nor dropped", self.now);
                }
                self.res.drops += 1;
                self.res.decisions.push(Decision { tick: self.now, kind: DecisionKind::Drop(o.in_drop) });
            }
        }
        Ok(sent_bytes)
    }
}

/// Program the port, then simulate `flows` until every flow finishes or `until_us` passes.
pub fn run(cfg: &NetConfig, flows: Vec<FlowSpec>, port: &mut dyn Bottleneck, until_us: f64) -> Result<RunResult> {
    for w in cfg.port_setup().writes() {
        port.clock(&w);
    }
    let mut sim = Sim {
        cfg,
        now: 0,
        seq: 0,
        events: BinaryHeap::new(),
        flows: vec![],
        hosts: (0..cfg.hosts).map(|_| Host { nic: VecDeque::new(), busy: false }).collect(),
        ingress: VecDeque::new(),
        shadow: VecDeque::new(),
        d1: None,
        min_rto: cfg.ticks(cfg.min_rto_us),
        unfinished: 0,
        res: RunResult::default(),
    };
    for (i, spec) in flows.into_iter().enumerate() {
        if spec.host >= cfg.hosts {
            bail!("flow {i} is on host {} of {}", spec.host, cfg.hosts);
        }
        let npkts = spec.bytes.div_ceil(cfg.mss).max(1) as u32;
        let res = FlowResult { bytes: spec.bytes, start_us: spec.start_us, rtt_us: spec.rtt_us, fct_us: None, timeouts: 0, retransmits: 0, delivered: vec![] };
        sim.at(cfg.ticks(spec.start_us), Ev::Start(i as u32));
        sim.flows.push(Flow { spec, npkts, snd_una: 0, snd_nxt: 0, dupacks: 0, recover: None, srtt: 0.0, rttvar: 0.0, backoff: 0, rto_gen: 0, rto_armed: false, rcv_nxt: 0, ooo: BTreeSet::new(), res });
    }
    let (until, period) = (cfg.ticks(until_us), cfg.ticks(cfg.sample_us).max(1));
    sim.unfinished = sim.flows.len();
    let mut bytes = 0u64;
    while sim.now < until && sim.unfinished > 0 {
        while let Some(Reverse((t, _, e))) = sim.events.peek().copied() {
            if t > sim.now {
                break;
            }
            sim.events.pop();
            sim.event(e);
        }
        sim.res.max_ingress = sim.res.max_ingress.max(sim.ingress.len());
        bytes += sim.clock_port(port)?;
        sim.now += 1;
        if sim.now % period == 0 {
            sim.res.t_us.push(cfg.us(sim.now));
            sim.res.queue.push(sim.shadow.len() as u64);
            sim.res.gbps.push(bytes as f64 * 8.0 / (cfg.us(period) * 1e3));
            bytes = 0;
            for f in sim.flows.iter_mut().filter(|f| f.spec.track) {
                let d = (f.snd_una as u64 * cfg.mss).min(f.spec.bytes);
                f.res.delivered.push(d);
            }
        }
    }
    let mut res = sim.res;
    res.ticks = sim.now;
    res.flows = sim.flows.into_iter().map(|f| f.res).collect();
    Ok(res)
}
