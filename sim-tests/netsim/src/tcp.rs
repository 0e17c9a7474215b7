//! The one TCP of the closed loops: a NewReno sender and its receiver's cumulative ACK, with the
//! window rule a [`Cc`] (DCTCP or GEMINI). Every app that needs TCP (closed loop I's flows,
//! CloudBurst's DCTCP baseline and background flows) keeps one [`Conn`] per connection and
//! carries out what it asks ([`Do`]) on its own network, in order.
//!
//! * Loss recovery: three duplicate ACKs retransmit `snd_una` and enter recovery until
//!   `snd_una` passes the `snd_nxt` of that moment; a partial ACK in recovery retransmits the
//!   next hole. A timeout goes back to `snd_una` (go-back-N).
//! * RTO = max(min RTO, SRTT + 4·RTTVAR) (RFC 6298), `first_rto` before the first sample,
//!   doubled per back-off (at most 2⁶). The timer runs while data is outstanding; a sample
//!   comes from every new cumulative ACK except one of a retransmission (Karn).

use super::cc::{Ack, Cc};
use super::fabric::Tick;
use std::collections::BTreeSet;

/// What a connection asks its app to do, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Do {
    /// Send packet `seq` (a retransmission if `retx`).
    Send { seq: u32, retx: bool },
    /// Schedule [`Conn::on_rto`]`(gen)` after `after` ticks (an earlier timer is void).
    Arm { gen: u32, after: Tick },
}

/// An ACK as the receiver sent it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AckIn {
    /// The receiver's next expected packet.
    pub cum: u32,
    /// The acknowledged packet carried CE.
    pub ece: bool,
    /// The send tick of the packet it acknowledges, and whether that was a retransmission.
    pub echo: Tick,
    pub retx: bool,
}

/// One TCP connection: sender and receiver state.
#[derive(Clone, Debug)]
pub struct Conn {
    pub cc: Cc,
    /// Packets in the flow.
    pub npkts: u32,
    pub snd_una: u32,
    pub snd_nxt: u32,
    dupacks: u32,
    recover: Option<u32>,
    /// Smoothed RTT and its variation, ticks.
    srtt: f64,
    rttvar: f64,
    backoff: u32,
    rto_gen: u32,
    rto_armed: bool,
    min_rto: Tick,
    first_rto: Tick,
    rcv_nxt: u32,
    ooo: BTreeSet<u32>,
    /// Every packet acknowledged.
    pub done: bool,
    pub timeouts: u32,
    pub retransmits: u32,
}

impl Conn {
    /// A connection of `npkts` packets; `first_rto` is the timeout before the first RTT sample.
    pub fn new(npkts: u32, cc: Cc, min_rto: Tick, first_rto: Tick) -> Self {
        Conn { cc, npkts: npkts.max(1), snd_una: 0, snd_nxt: 0, dupacks: 0, recover: None, srtt: 0.0, rttvar: 0.0, backoff: 0, rto_gen: 0, rto_armed: false, min_rto, first_rto, rcv_nxt: 0, ooo: BTreeSet::new(), done: false, timeouts: 0, retransmits: 0 }
    }

    fn send(&mut self, seq: u32, retx: bool, out: &mut Vec<Do>) {
        out.push(Do::Send { seq, retx });
        if !self.rto_armed {
            self.arm(out);
        }
    }

    fn arm(&mut self, out: &mut Vec<Do>) {
        self.rto_gen += 1;
        self.rto_armed = true;
        let rto = if self.srtt > 0.0 { (self.srtt + 4.0 * self.rttvar).max(self.min_rto as f64) as Tick } else { self.first_rto };
        out.push(Do::Arm { gen: self.rto_gen, after: rto << self.backoff.min(6) });
    }

    /// Send what the window allows.
    pub fn pump(&mut self, out: &mut Vec<Do>) {
        loop {
            let wnd = self.cc.cwnd().floor().max(1.0) as u32;
            if self.done || self.snd_nxt >= self.npkts || self.snd_nxt - self.snd_una >= wnd {
                return;
            }
            self.snd_nxt += 1;
            self.send(self.snd_nxt - 1, false, out);
        }
    }

    /// The receiver takes packet `seq`; returns the cumulative ACK it sends back.
    pub fn receive(&mut self, seq: u32) -> u32 {
        if seq == self.rcv_nxt {
            self.rcv_nxt += 1;
            while self.ooo.remove(&self.rcv_nxt) {
                self.rcv_nxt += 1;
            }
        } else if seq > self.rcv_nxt {
            self.ooo.insert(seq);
        }
        self.rcv_nxt
    }

    /// An ACK reaches the sender at tick `now` (a tick is `tick_ns`, for the window rule's
    /// times). Returns true when it completes the flow.
    pub fn on_ack(&mut self, a: AckIn, now: Tick, tick_ns: f64, out: &mut Vec<Do>) -> bool {
        if self.done {
            return false;
        }
        let tick_us = tick_ns / 1000.0;
        let mut rtt_us = None;
        let mut newly = 0;
        if a.cum > self.snd_una {
            newly = a.cum - self.snd_una;
            self.snd_una = a.cum;
            self.snd_nxt = self.snd_nxt.max(a.cum);
            self.dupacks = 0;
            self.backoff = 0;
            if !a.retx {
                let r = (now - a.echo) as f64;
                if self.srtt == 0.0 {
                    (self.srtt, self.rttvar) = (r, r / 2.0);
                } else {
                    self.rttvar = 0.75 * self.rttvar + 0.25 * (self.srtt - r).abs();
                    self.srtt = 0.875 * self.srtt + 0.125 * r;
                }
                rtt_us = Some(r * tick_us);
            }
        } else if self.snd_nxt > self.snd_una {
            self.dupacks += 1;
        }
        let ack = Ack { now_us: now as f64 * tick_ns / 1000.0, ece: a.ece, rtt_us, newly_acked: newly, snd_una: self.snd_una, snd_nxt: self.snd_nxt, srtt_us: self.srtt * tick_us };
        self.cc.on_ack(&ack);
        if self.snd_una >= self.npkts {
            self.done = true;
            self.rto_armed = false;
            self.rto_gen += 1;
            return true;
        }
        let una = self.snd_una;
        if newly > 0 {
            if let Some(r) = self.recover {
                if una >= r {
                    self.recover = None;
                } else {
                    self.retransmits += 1;
                    self.send(una, true, out);
                }
            }
            self.arm(out);
        } else if self.dupacks == 3 && self.recover.is_none() {
            self.recover = Some(self.snd_nxt);
            self.cc.on_fast_retransmit();
            self.retransmits += 1;
            self.send(una, true, out);
        }
        self.pump(out);
        false
    }

    /// The timer `gen` fires. Returns true when it was a timeout (data outstanding).
    pub fn on_rto(&mut self, gen: u32, out: &mut Vec<Do>) -> bool {
        if gen != self.rto_gen || self.done {
            return false;
        }
        self.rto_armed = false;
        if self.snd_una >= self.snd_nxt {
            return false;
        }
        self.timeouts += 1;
        self.cc.on_timeout();
        self.snd_nxt = self.snd_una;
        self.dupacks = 0;
        self.recover = None;
        self.backoff += 1;
        self.pump(out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::Dctcp;

    fn conn(npkts: u32) -> Conn {
        Conn::new(npkts, Cc::Dctcp(Dctcp::new(2.0)), 100, 300)
    }

    fn ack(c: &mut Conn, cum: u32, now: Tick, out: &mut Vec<Do>) -> bool {
        c.on_ack(AckIn { cum, ece: false, echo: 0, retx: false }, now, 1000.0, out)
    }

    #[test]
    fn sends_the_window_then_arms_one_timer() {
        let (mut c, mut out) = (conn(10), vec![]);
        c.pump(&mut out);
        assert_eq!(out, [Do::Send { seq: 0, retx: false }, Do::Arm { gen: 1, after: 300 }, Do::Send { seq: 1, retx: false }]);
    }

    #[test]
    fn three_duplicates_retransmit_once_and_partial_acks_fill_the_holes() {
        let (mut c, mut out) = (conn(20), vec![]);
        c.pump(&mut out);
        ack(&mut c, 1, 50, &mut out);
        ack(&mut c, 2, 50, &mut out);
        out.clear();
        // Packet 2 lost, 3.. arrive: duplicates of cum = 2.
        for _ in 0..3 {
            ack(&mut c, 2, 60, &mut out);
        }
        assert_eq!(out.iter().filter(|d| matches!(d, Do::Send { seq: 2, retx: true })).count(), 1, "{out:?}");
        ack(&mut c, 2, 61, &mut out);
        assert_eq!(c.retransmits, 1, "a fourth duplicate does not retransmit again");
        out.clear();
        ack(&mut c, 4, 70, &mut out);
        assert_eq!(out[0], Do::Send { seq: 4, retx: true }, "a partial ACK retransmits the next hole");
        assert_eq!(c.retransmits, 2);
    }

    #[test]
    fn a_timeout_goes_back_to_the_first_unacknowledged_packet_with_back_off() {
        let (mut c, mut out) = (conn(5), vec![]);
        c.pump(&mut out);
        assert!(!c.on_rto(7, &mut out), "a stale timer is void");
        out.clear();
        assert!(c.on_rto(1, &mut out));
        assert_eq!((c.timeouts, c.snd_una), (1, 0));
        assert_eq!(out, [Do::Send { seq: 0, retx: false }, Do::Arm { gen: 2, after: 600 }], "go-back-N from snd_una, the timer doubled");
    }

    #[test]
    fn the_receiver_acknowledges_cumulatively_across_a_hole() {
        let mut c = conn(5);
        assert_eq!(c.receive(0), 1);
        assert_eq!(c.receive(2), 1);
        assert_eq!(c.receive(3), 1);
        assert_eq!(c.receive(1), 4);
    }

    #[test]
    fn the_last_ack_completes_the_flow_and_stops_the_timer() {
        let (mut c, mut out) = (conn(2), vec![]);
        c.pump(&mut out);
        assert!(!ack(&mut c, 1, 10, &mut out));
        assert!(ack(&mut c, 2, 12, &mut out));
        out.clear();
        assert!(!c.on_rto(2, &mut out) && out.is_empty());
    }
}
