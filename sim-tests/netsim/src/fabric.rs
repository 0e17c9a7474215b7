//! The one network simulator of the closed loops: hosts with line-rate NICs, one or more switch
//! egress ports (each the port's golden model or its Verilated RTL, two queues), and an
//! application (the transport under test) that owns every end-host rule. Closed loop I's TCP
//! flows through one bottleneck (`net.rs`) are one such app; REN, HPCC/Swift, FlashPass and
//! CloudBurst are the others.
//!
//! ```text
//! app ─send(host, pkt)─► host NIC (FIFO) ─ to_port ─► ingress ─► PORT[pkt.path] ─ from_port ─► app.arrive(pkt)
//!  ▲                                                                                               │
//!  └───────────────── app events (grants, credits, ACKs, timers: the app picks the delays) ◄───────┘
//! ```
//!
//! * Every tick is one clock of every port. The port decides every admission, drop, ECN/REN
//!   code and INT record; the fabric keeps a shadow of each queue (packet identities in FIFO
//!   order) to know which packet a grant and a departure refer to, and stops the run if a
//!   departure's length differs from the shadow's.
//! * A departing packet carries the port's `out_ecn`, INT hop record and sojourn time. It
//!   occupies the port's link for `(len + overhead) / rate` and reaches the app `from_port`
//!   later (store-and-forward). It is timed from the clock after its pop (`grant`): the port's
//!   pipeline after that (`D2`, the port README's *Latency*) is a few nanoseconds of hardware,
//!   which a tick (50 ns at 10 Gb/s) would inflate, so the fabric counts it in `from_port` and
//!   the closed loops do not change with the RTL's pipeline depth. The scheduler's pick, a clock
//!   before the pop, is not taken out: behind a busy link the pick waits and the pop comes when
//!   the link frees, as the grant did before the pick had its own clock, but into an idle port
//!   it costs a tick. Likewise on
//!   the way in: the port admits a packet in the clock after it is presented (its input stage),
//!   so the fabric presents it a tick before its propagation to the port ends, and the port
//!   admits it in the tick it arrives. Host NICs serialize at their own rate, one FIFO per class, served
//!   round-robin.
//! * Reverse paths (grants, credits, ACKs, STOPs) are the app's business: it schedules its
//!   own events with the propagation delay it models (they are not queued).
//! * Each port logs its decisions (arrival drops, departure drops, changed codes) and folds its
//!   INT records into a digest, so that the model and the RTL can be compared run by run.

use super::bottleneck::Bottleneck;
use super::cc::Cc;
use anyhow::{bail, Result};
use hdl::port::{drop, PortIn};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// One port clock.
pub type Tick = u64;

/// The CE codepoint (a port's AQM mark).
pub const CE: u8 = 3;

/// A flow of an app on the fabric, for every app: its sending host, start time and size, and
/// what some transports also take from it.
#[derive(Clone, Debug)]
pub struct FlowSpec {
    pub host: usize,
    pub start_us: f64,
    pub bytes: u64,
    /// Its own propagation RTT, µs, where the app gives each flow one (the TCP flows of
    /// `net.rs`); elsewhere the app's topology sets it.
    pub rtt_us: Option<f64>,
    /// Its congestion control, where each flow picks one (TCP).
    pub cc: Option<Cc>,
    /// When it stops sending new data (REN's bursts).
    pub stop_us: Option<f64>,
    /// Record its delivered bytes at every sample.
    pub track: bool,
}

impl FlowSpec {
    pub fn new(host: usize, start_us: f64, bytes: u64) -> Self {
        FlowSpec { host, start_us, bytes, rtt_us: None, cc: None, stop_us: None, track: false }
    }
    /// A TCP flow with its propagation RTT and window rule.
    pub fn tcp(self, rtt_us: f64, cc: Cc) -> Self {
        FlowSpec { rtt_us: Some(rtt_us), cc: Some(cc), ..self }
    }
    pub fn stop(self, stop_us: Option<f64>) -> Self {
        FlowSpec { stop_us, ..self }
    }
    pub fn tracked(self, track: bool) -> Self {
        FlowSpec { track, ..self }
    }
}

/// What became of a flow, for every app: each fills in what it measures and keeps what only it
/// measures beside it (FlashPass's credit counts, REN's stalled flows).
#[derive(Clone, Debug, Default)]
pub struct FlowOut {
    pub bytes: u64,
    pub start_us: f64,
    pub fct_us: Option<f64>,
    pub timeouts: u32,
    pub retransmits: u32,
    /// Payload bytes delivered (each packet once) by the end of the run.
    pub delivered: u64,
    /// Delivered bytes at each sample, for a tracked flow (`FlowSpec::track`).
    pub trace: Vec<u64>,
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
    /// Departure whose ECN field the port changed to this value, other than a CE mark (REN's
    /// codes).
    Code(u8),
    /// A port's digest of every INT record, sojourn and code it sent (end of run).
    Digest(u64),
}

/// Queues per port (`SwitchPort2x256`).
pub const QUEUES: usize = 2;

/// A packet: what the app sets, then what the port stamps on it at departure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pkt {
    pub flow: u32,
    pub seq: u32,
    /// Frame bytes (the port's descriptor length; the wire adds the overhead).
    pub len: u16,
    pub ecn: u8,
    /// Traffic class: queue `class mod 2` of the port.
    pub class: u8,
    pub low_prio: bool,
    pub data: bool,
    /// Which port (path) the packet crosses.
    pub path: u8,
    /// Tick the app sent it.
    pub sent: Tick,
    /// App-defined (a credit timestamp, a symbol index, ...).
    pub tag: u64,
    /// Set at departure: the INT hop record (`out_hop_hi:out_hop_lo`) and the sojourn, clocks.
    pub hop: u64,
    pub sojourn: u32,
}

/// The network around the ports.
#[derive(Clone, Debug)]
pub struct FabricConfig {
    pub tick_ns: f64,
    /// Host NIC rate, bytes per tick.
    pub nic_bytes_per_tick: f64,
    pub hosts: usize,
    /// Preamble and gap per frame on every link (the ports' `OVERHEAD`).
    pub overhead: u64,
    /// Host → port and port → receiver propagation, ticks.
    pub to_port: Tick,
    pub from_port: Tick,
    /// Extra host → port propagation per host (a WAN distance), ticks; empty for none.
    pub host_delay: Vec<Tick>,
    pub sample: Tick,
}

impl FabricConfig {
    pub fn ticks(&self, us: f64) -> Tick {
        (us * 1000.0 / self.tick_ns).round() as Tick
    }
    pub fn us(&self, t: Tick) -> f64 {
        t as f64 * self.tick_ns / 1000.0
    }
}

/// One egress port: the engine, its link rate and what the host programs.
pub struct PortSpec {
    pub engine: Box<dyn Bottleneck>,
    pub bytes_per_tick: f64,
    /// Register writes `(addr, data)` after `RATE` and `OVERHEAD`.
    pub writes: Vec<(u16, u64)>,
}

/// Per-port measurements.
#[derive(Clone, Debug, Default)]
pub struct PortLog {
    /// Occupancy of each queue at each sample, packets.
    pub queue: [Vec<u64>; QUEUES],
    /// Bytes resident in each queue at each sample.
    pub queue_bytes: [Vec<u64>; QUEUES],
    /// Departures in the period before each sample, Gb/s, per queue.
    pub gbps: [Vec<f64>; QUEUES],
    pub decisions: Vec<Decision>,
    pub arrivals: u64,
    pub departures: u64,
    pub drops: u64,
    /// The deepest the ingress FIFO got (arrivals in the same tick wait there, one a clock).
    pub max_ingress: usize,
    /// FNV-1a over every departure's INT record, sojourn and code.
    pub digest: u64,
}

struct PortState {
    spec: PortSpec,
    ingress: VecDeque<Pkt>,
    /// The packet in the port's input stage: presented last clock, admitted or dropped now.
    staged: Option<Pkt>,
    shadow: [VecDeque<Pkt>; QUEUES],
    bytes: [u64; QUEUES],
    /// The packets between the pop and the departure (the port's `D1` and `D2`), each with
    /// the tick it leaves at in the fabric's timing (the clock after its pop).
    d1: Option<(Pkt, Tick)>,
    d2: Option<(Pkt, Tick)>,
    sent: [u64; QUEUES],
    log: PortLog,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev<E> {
    NicFree(u32),
    AtPort(Pkt),
    Arrive(Pkt),
    App(E),
}

/// A host NIC: one FIFO per traffic class, served round-robin (two TX queues).
struct Nic {
    fifo: [VecDeque<Pkt>; QUEUES],
    next: usize,
    busy: bool,
}

/// The transport under test: end hosts, receivers and their feedback paths.
pub trait App {
    type Ev: Copy + Ord + std::fmt::Debug;
    /// Called once at tick 0.
    fn start(&mut self, f: &mut Fabric<Self::Ev>);
    fn event(&mut self, f: &mut Fabric<Self::Ev>, e: Self::Ev);
    /// A packet left its port and reached its receiver.
    fn arrive(&mut self, f: &mut Fabric<Self::Ev>, p: Pkt);
    /// The run may end early once this holds.
    fn finished(&self) -> bool;
    /// Called at every sample tick (after the ports' samples).
    fn sample(&mut self, _f: &Fabric<Self::Ev>) {}
}

/// The network state the app acts on.
pub struct Fabric<E> {
    pub cfg: FabricConfig,
    pub now: Tick,
    seq: u64,
    events: BinaryHeap<Reverse<(Tick, u64, Ev<E>)>>,
    nics: Vec<Nic>,
    ports: Vec<PortState>,
}

impl<E: Copy + Ord + std::fmt::Debug> Fabric<E> {
    fn push(&mut self, t: Tick, e: Ev<E>) {
        self.seq += 1;
        self.events.push(Reverse((t.max(self.now), self.seq, e)));
    }
    /// Schedule an app event at tick `t` (not before now).
    pub fn at(&mut self, t: Tick, e: E) {
        self.push(t, Ev::App(e));
    }
    pub fn after(&mut self, dt: Tick, e: E) {
        self.push(self.now + dt, Ev::App(e));
    }
    /// Ticks to serialize `len` frame bytes at `bytes_per_tick`.
    pub fn ser(&self, len: u64, bytes_per_tick: f64) -> Tick {
        ((len + self.cfg.overhead) as f64 / bytes_per_tick).ceil() as Tick
    }
    /// Queue `p` on its host's NIC (stamped with the send tick).
    pub fn send(&mut self, host: usize, mut p: Pkt) {
        p.sent = self.now;
        self.nics[host].fifo[p.class as usize % QUEUES].push_back(p);
        if !self.nics[host].busy {
            self.nic_next(host as u32);
        }
    }
    /// Packets of `class` waiting in a host's NIC (the one on the wire excluded).
    pub fn nic_backlog(&self, host: usize, class: u8) -> usize {
        self.nics[host].fifo[class as usize % QUEUES].len()
    }
    pub fn ports(&self) -> usize {
        self.ports.len()
    }
    /// Packets resident in `queue` of `port` (the shadow).
    pub fn queue_len(&self, port: usize, queue: usize) -> usize {
        self.ports[port].shadow[queue].len()
    }

    fn nic_next(&mut self, h: u32) {
        let nic = &mut self.nics[h as usize];
        let Some(p) = (0..QUEUES).find_map(|i| nic.fifo[(nic.next + i) % QUEUES].pop_front()) else {
            nic.busy = false;
            return;
        };
        nic.next = (p.class as usize + 1) % QUEUES;
        nic.busy = true;
        let done = self.now + self.ser(p.len as u64, self.cfg.nic_bytes_per_tick);
        self.push(done, Ev::NicFree(h));
        let extra = self.cfg.host_delay.get(h as usize).copied().unwrap_or(0);
        // a tick early: the port admits a packet in the clock after it is presented (its input
        // stage), so it is admitted at `done + to_port + extra`, as if it had no input stage
        self.push(done + self.cfg.to_port + extra - 1, Ev::AtPort(p));
    }

    fn clock_port(&mut self, i: usize) -> Result<()> {
        let now = self.now;
        let st = &mut self.ports[i];
        st.log.max_ingress = st.log.max_ingress.max(st.ingress.len());
        let presented = st.ingress.pop_front();
        let inp = match presented {
            Some(p) => PortIn { in_valid: 1, in_class: p.class as u64, in_len: p.len as u64, in_ecn: p.ecn as u64, in_low_prio: p.low_prio as u64, in_is_data: p.data as u64, ..Default::default() },
            None => PortIn::default(),
        };
        let o = st.spec.engine.clock(&inp);
        let mut arrive = None;
        if let Some((mut p, dep)) = std::mem::replace(&mut st.d2, st.d1.take()) {
            let q = (p.class as usize) % QUEUES;
            if o.out_valid == 1 {
                if o.out_len != p.len as u64 {
                    bail!("port {i}, tick {now}: the port sent a {}-byte descriptor where flow {} seq {} ({} bytes) was due", o.out_len, p.flow, p.seq, p.len);
                }
                if o.out_ecn as u8 != p.ecn {
                    let kind = if o.out_ecn as u8 == CE { DecisionKind::Mark } else { DecisionKind::Code(o.out_ecn as u8) };
                    st.log.decisions.push(Decision { tick: dep, kind });
                }
                p.ecn = o.out_ecn as u8;
                p.hop = o.out_hop_lo | o.out_hop_hi << 32;
                p.sojourn = o.out_sojourn as u32;
                for w in [p.hop, p.sojourn as u64, p.ecn as u64] {
                    st.log.digest = (st.log.digest ^ w).wrapping_mul(0x100_0000_01b3);
                }
                st.log.departures += 1;
                st.sent[q] += p.len as u64;
                let t = dep + ((p.len as u64 + self.cfg.overhead) as f64 / st.spec.bytes_per_tick).ceil() as Tick + self.cfg.from_port;
                arrive = Some((t, p));
            } else {
                st.log.drops += 1;
                st.log.decisions.push(Decision { tick: dep, kind: DecisionKind::DepartureDrop });
            }
        }
        if o.grant == 1 {
            let q = o.grant_q as usize;
            let Some(p) = st.shadow.get_mut(q).and_then(|s| s.pop_front()) else { bail!("port {i}, tick {now}: grant to empty queue {}", o.grant_q) };
            st.bytes[q] -= p.len as u64;
            st.d1 = Some((p, now + 1));
        }
        if let Some(p) = std::mem::replace(&mut st.staged, presented) {
            st.log.arrivals += 1;
            if o.in_admit == 1 {
                let q = (p.class as usize) % QUEUES;
                st.bytes[q] += p.len as u64;
                st.shadow[q].push_back(p);
            } else {
                if o.in_drop == drop::NONE {
                    bail!("port {i}, tick {now}: arrival neither admitted nor dropped");
                }
                st.log.drops += 1;
                st.log.decisions.push(Decision { tick: now, kind: DecisionKind::Drop(o.in_drop) });
            }
        }
        if let Some((t, p)) = arrive {
            self.push(t, Ev::Arrive(p));
        }
        Ok(())
    }
}

/// What a run leaves besides the app's own state.
#[derive(Clone, Debug, Default)]
pub struct FabricRun {
    pub t_us: Vec<f64>,
    pub ports: Vec<PortLog>,
    pub ticks: Tick,
}

impl FabricRun {
    /// Every port's decisions, then its INT digest, for the model-against-RTL comparison.
    pub fn decisions(&self) -> Vec<Decision> {
        let mut v = vec![];
        for p in &self.ports {
            v.extend_from_slice(&p.decisions);
            v.push(Decision { tick: self.ticks, kind: DecisionKind::Digest(p.digest) });
        }
        v
    }
}

/// Program the ports, start the app and run until it finishes or `until` ticks pass.
pub fn run<A: App>(cfg: FabricConfig, ports: Vec<PortSpec>, app: &mut A, until: Tick) -> Result<FabricRun> {
    let mut f = Fabric {
        now: 0,
        seq: 0,
        events: BinaryHeap::new(),
        nics: (0..cfg.hosts).map(|_| Nic { fifo: Default::default(), next: 0, busy: false }).collect(),
        ports: vec![],
        cfg,
    };
    for mut spec in ports {
        use hdl::port::csr;
        let wr = |addr: u16, data: u64| PortIn { csr_we: 1, csr_addr: addr as u64, csr_wdata: data, ..Default::default() };
        let mut w = vec![wr(csr::RATE, (spec.bytes_per_tick * 256.0).round() as u64), wr(csr::OVERHEAD, f.cfg.overhead)];
        w.extend(spec.writes.iter().map(|&(a, d)| wr(a, d)));
        for x in &w {
            spec.engine.clock(x);
        }
        f.ports.push(PortState { spec, ingress: VecDeque::new(), staged: None, shadow: Default::default(), bytes: [0; QUEUES], d1: None, d2: None, sent: [0; QUEUES], log: PortLog::default() });
    }
    let mut out = FabricRun::default();
    app.start(&mut f);
    let period = f.cfg.sample.max(1);
    while f.now < until && !app.finished() {
        while let Some(Reverse((t, _, e))) = f.events.peek().copied() {
            if t > f.now {
                break;
            }
            f.events.pop();
            match e {
                Ev::NicFree(h) => f.nic_next(h),
                Ev::AtPort(p) => {
                    let Some(st) = f.ports.get_mut(p.path as usize) else { bail!("flow {} sent on path {} of {}", p.flow, p.path, f.ports.len()) };
                    st.ingress.push_back(p);
                }
                Ev::Arrive(p) => app.arrive(&mut f, p),
                Ev::App(e) => app.event(&mut f, e),
            }
        }
        for i in 0..f.ports.len() {
            f.clock_port(i)?;
        }
        f.now += 1;
        if f.now % period == 0 {
            out.t_us.push(f.cfg.us(f.now));
            let ns = f.cfg.us(period) * 1e3;
            for st in &mut f.ports {
                for q in 0..QUEUES {
                    st.log.queue[q].push(st.shadow[q].len() as u64);
                    st.log.queue_bytes[q].push(st.bytes[q]);
                    st.log.gbps[q].push(st.sent[q] as f64 * 8.0 / ns);
                    st.sent[q] = 0;
                }
            }
            app.sample(&f);
        }
    }
    out.ticks = f.now;
    out.ports = f.ports.into_iter().map(|p| p.log).collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bottleneck::{build, PortEngine};

    /// Sends `n` packets of `len` bytes from host 0 at tick 0 and keeps when each reached its
    /// receiver.
    struct Burst {
        n: u32,
        len: u16,
        got: Vec<(Tick, Pkt)>,
    }

    impl App for Burst {
        type Ev = ();
        fn start(&mut self, f: &mut Fabric<()>) {
            for seq in 0..self.n {
                f.send(0, Pkt { seq, len: self.len, ecn: 2, data: true, ..Default::default() });
            }
        }
        fn event(&mut self, _f: &mut Fabric<()>, _e: ()) {}
        fn arrive(&mut self, f: &mut Fabric<()>, p: Pkt) {
            self.got.push((f.now, p));
        }
        fn finished(&self) -> bool {
            self.got.len() == self.n as usize
        }
    }

    /// The fabric's timing (the module's notes), on each engine: a packet is admitted in the
    /// tick it reaches the port, though the port admits a clock after it is presented (its
    /// input stage); it is picked in the next tick, pops in the one after, and its departure is
    /// timed from the tick after its pop. The arrival ticks are worked from those rules, not read from a run.
    #[test]
    fn a_packet_is_admitted_in_the_tick_it_reaches_the_port() {
        for engine in [PortEngine::Model, PortEngine::Verilator] {
            let (len, overhead, to_port, from_port) = (100u16, 20u64, 7, 5);
            let cfg = FabricConfig { tick_ns: 10.0, nic_bytes_per_tick: 60.0, hosts: 1, overhead, to_port, from_port, host_delay: vec![], sample: 1000 };
            // the port's link: 30 bytes per tick, so 120 wire bytes take 4 ticks
            let port = PortSpec { engine: build(engine, hdl::port::features::INT).unwrap(), bytes_per_tick: 30.0, writes: vec![] };
            let mut app = Burst { n: 2, len, got: vec![] };
            let run = run(cfg, vec![port], &mut app, 1000).unwrap();
            // host NIC: 120 wire bytes at 60 per tick, back to back: on the wire until ticks 2 and 4
            let reach = [2 + to_port, 4 + to_port];
            // admitted at `reach`, picked a tick later and popped the tick after (the link is
            // free: the port's pacer lets the second go 4 ticks after the first, later than it
            // reaches the port), out from the tick after its pop, then 4 ticks on the port's link
            // and `from_port`
            let first_out = reach[0] + 3;
            let second_out = (reach[1] + 3).max(first_out + 4);
            let expect = [first_out + 4 + from_port, second_out + 4 + from_port];
            assert_eq!(app.got.iter().map(|g| g.0).collect::<Vec<_>>(), expect, "{engine:?}");
            // each waited in its queue from its admission to its pop: two clocks, and the AQM
            // judges it a clock after its pop
            assert_eq!(app.got[0].1.sojourn, 3, "{engine:?}");
            assert_eq!(run.ports[0].arrivals, 2);
            assert!(run.ports[0].decisions.is_empty(), "{engine:?}: {:?}", run.ports[0].decisions);
        }
    }
}
