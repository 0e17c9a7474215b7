//! Closed loop I: TCP flows through one switch egress port, the bottleneck, as an app on the
//! fabric (`fabric.rs`, one tick = one port clock).
//!
//! ```text
//! flows ─► host NIC (FIFO, line rate) ─ hop ─► ingress ─► PORT (model or RTL) ─ hop ─► receiver
//!   ▲                                                                                    │
//!   └────────────────────── ACK (per packet, ECN-Echo, RTT_f − 2·hop) ◄──────────────────┘
//! ```
//!
//! * Every link runs at the bottleneck's rate; a packet of `len` bytes occupies a link for
//!   `len + 20` bytes (preamble and gap, the port's `OVERHEAD`). Links are store-and-forward.
//! * Each flow has its own propagation RTT (`FlowSpec::rtt_us`); the reverse path carries what
//!   the two 1-µs forward hops do not. ACKs are not queued (the reverse path is uncongested).
//! * Every packet is in class 0 (the port's queue 0), ECN-capable (ECT(0)).
//! * The transport is the one TCP (`tcp.rs`, NewReno with the flow's [`Cc`]); the first RTO is
//!   max(min RTO, 3 × the flow's propagation RTT).
//! * The fabric keeps the port's shadow queue and decision log; the port decides every drop
//!   and every mark.

use super::bottleneck::{Bottleneck, PORT_DEPTH};
use super::fabric::{self, App, Fabric, FabricConfig, Pkt, PortSpec};
use super::tcp::{AckIn, Conn, Do};
use anyhow::{bail, Context, Result};
use hdl::port::csr;

pub use super::fabric::{Decision, DecisionKind, FlowOut, FlowSpec, Tick, CE};

/// Bytes of preamble and inter-frame gap per packet on every link (the port's `OVERHEAD`).
pub const WIRE_OVERHEAD: u64 = 20;
/// Header bytes per packet on top of the payload.
pub const HEADER: u64 = 40;
/// The ECT(0) codepoint every packet leaves its host with.
pub const ECT0: u8 = 2;

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
    /// What the host programs after the rate and overhead: the buffer, then the marker on
    /// every queue.
    pub fn port_writes(&self) -> Vec<(u16, u64)> {
        let mut v = vec![(csr::QCAP, self.qcap.min(PORT_DEPTH))];
        v.extend(self.aqm.csr_writes().into_iter().map(|(a, d)| (csr::BLOCK_AQM | a as u16, d as u64)));
        v
    }
    /// A time of `us` as the port's tick count (for AQM parameters).
    pub fn aqm_ticks(&self, us: f64) -> u32 {
        self.ticks(us) as u32
    }
}

/// Everything a run measured.
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    /// Each flow's outcome; `delivered` and `trace` count cumulatively acknowledged bytes.
    pub flows: Vec<FlowOut>,
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
enum Ev {
    Start(u32),
    Ack(u32, AckIn),
    Rto { flow: u32, gen: u32 },
}

struct Flow {
    spec: FlowSpec,
    rtt_us: f64,
    conn: Conn,
    res: FlowOut,
}

/// The app: every flow's TCP end points.
struct Flows<'a> {
    cfg: &'a NetConfig,
    flows: Vec<Flow>,
    /// Flows whose last ACK has not arrived.
    unfinished: usize,
    timeouts: u64,
    todo: Vec<Do>,
}

impl Flows<'_> {
    fn pkt_len(&self, fi: u32, seq: u32) -> u64 {
        let f = &self.flows[fi as usize];
        let payload = if seq + 1 == f.conn.npkts { f.spec.bytes - self.cfg.mss * (f.conn.npkts as u64 - 1) } else { self.cfg.mss };
        payload + HEADER
    }

    /// Carry out what flow `fi`'s connection asked, in order.
    fn carry_out(&mut self, f: &mut Fabric<Ev>, fi: u32) {
        for d in std::mem::take(&mut self.todo) {
            match d {
                Do::Send { seq, retx } => {
                    let p = Pkt { flow: fi, seq, len: self.pkt_len(fi, seq) as u16, ecn: ECT0, data: true, tag: retx as u64, ..Default::default() };
                    f.send(self.flows[fi as usize].spec.host, p);
                }
                Do::Arm { gen, after } => f.after(after, Ev::Rto { flow: fi, gen }),
            }
        }
    }
}

impl App for Flows<'_> {
    type Ev = Ev;
    fn start(&mut self, f: &mut Fabric<Ev>) {
        for (i, fl) in self.flows.iter().enumerate() {
            f.at(self.cfg.ticks(fl.spec.start_us), Ev::Start(i as u32));
        }
    }
    fn event(&mut self, f: &mut Fabric<Ev>, e: Ev) {
        let fi = match e {
            Ev::Start(fi) => {
                self.flows[fi as usize].conn.pump(&mut self.todo);
                fi
            }
            Ev::Ack(fi, a) => {
                let fl = &mut self.flows[fi as usize];
                if fl.conn.on_ack(a, f.now, self.cfg.tick_ns, &mut self.todo) {
                    fl.res.fct_us = Some(self.cfg.us(f.now) - fl.spec.start_us);
                    self.unfinished -= 1;
                }
                fi
            }
            Ev::Rto { flow, gen } => {
                if self.flows[flow as usize].conn.on_rto(gen, &mut self.todo) {
                    self.timeouts += 1;
                }
                flow
            }
        };
        self.carry_out(f, fi);
    }
    fn arrive(&mut self, f: &mut Fabric<Ev>, p: Pkt) {
        let fl = &mut self.flows[p.flow as usize];
        let cum = fl.conn.receive(p.seq);
        let back = self.cfg.ticks((fl.rtt_us - 2.0 * self.cfg.hop_us).max(0.0));
        f.after(back, Ev::Ack(p.flow, AckIn { cum, ece: p.ecn == CE, echo: p.sent, retx: p.tag == 1 }));
    }
    fn finished(&self) -> bool {
        self.unfinished == 0
    }
    fn sample(&mut self, _f: &Fabric<Ev>) {
        for fl in self.flows.iter_mut().filter(|fl| fl.spec.track) {
            fl.res.trace.push((fl.conn.snd_una as u64 * self.cfg.mss).min(fl.spec.bytes));
        }
    }
}

/// Program the port, then simulate `flows` (each with its RTT and window rule) until every
/// flow finishes or `until_us` passes.
pub fn run(cfg: &NetConfig, flows: Vec<FlowSpec>, port: Box<dyn Bottleneck>, until_us: f64) -> Result<RunResult> {
    let hop = cfg.ticks(cfg.hop_us);
    let fcfg = FabricConfig { tick_ns: cfg.tick_ns, nic_bytes_per_tick: cfg.bytes_per_tick(), hosts: cfg.hosts, overhead: WIRE_OVERHEAD, to_port: hop, from_port: hop, host_delay: vec![], sample: cfg.ticks(cfg.sample_us) };
    let mut app = Flows { cfg, flows: vec![], unfinished: flows.len(), timeouts: 0, todo: vec![] };
    for (i, spec) in flows.into_iter().enumerate() {
        if spec.host >= cfg.hosts {
            bail!("flow {i} is on host {} of {}", spec.host, cfg.hosts);
        }
        let (Some(rtt_us), Some(cc)) = (spec.rtt_us, spec.cc.clone()) else { bail!("flow {i} has no RTT or no congestion control (FlowSpec::tcp)") };
        let min_rto = cfg.ticks(cfg.min_rto_us);
        let conn = Conn::new(spec.bytes.div_ceil(cfg.mss) as u32, cc, min_rto, min_rto.max(3 * cfg.ticks(rtt_us)));
        let res = FlowOut { bytes: spec.bytes, start_us: spec.start_us, ..Default::default() };
        app.flows.push(Flow { spec, rtt_us, conn, res });
    }
    let port = PortSpec { engine: port, bytes_per_tick: cfg.bytes_per_tick(), writes: cfg.port_writes() };
    let run = fabric::run(fcfg, vec![port], &mut app, cfg.ticks(until_us)).context("the TCP flows' fabric")?;
    let log = &run.ports[0];
    Ok(RunResult {
        flows: app.flows.into_iter().map(|f| FlowOut { timeouts: f.conn.timeouts, retransmits: f.conn.retransmits, delivered: (f.conn.snd_una as u64 * cfg.mss).min(f.spec.bytes), ..f.res }).collect(),
        t_us: run.t_us.clone(),
        queue: log.queue[0].clone(),
        gbps: log.gbps[0].clone(),
        decisions: log.decisions.clone(),
        arrivals: log.arrivals,
        departures: log.departures,
        marks: log.decisions.iter().filter(|d| d.kind == DecisionKind::Mark).count() as u64,
        drops: log.drops,
        timeouts: app.timeouts,
        max_ingress: log.max_ingress,
        ticks: run.ticks,
    })
}
