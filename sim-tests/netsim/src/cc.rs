//! End-host congestion control: DCTCP (ECN-proportional cut) and GEMINI (GEMINI/FlashPass
//! §1.2–§1.4, Algorithm 1). Windows are in packets; times in µs. The update rules are plain
//! functions so the tables of the spec test them directly (§5.2 G-F, G-h, G-step, G-α, G-T).

/// What one ACK tells the sender.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ack {
    pub now_us: f64,
    /// The acknowledged packet carried CE (ECN-Echo).
    pub ece: bool,
    /// RTT sample, absent for an ACK of a retransmission (Karn).
    pub rtt_us: Option<f64>,
    /// Packets the cumulative ACK newly covers (0 for a duplicate).
    pub newly_acked: u32,
    pub snd_una: u32,
    pub snd_nxt: u32,
    /// The sender's smoothed RTT after this sample.
    pub srtt_us: f64,
}

/// DCTCP's marked-fraction EWMA, updated once per window: `α ← (1 − g)α + g·M`.
pub fn ewma(alpha: f64, g: f64, marked: u32, total: u32) -> f64 {
    (1.0 - g) * alpha + g * marked as f64 / total.max(1) as f64
}

/// Per-window ECN bookkeeping shared by DCTCP and GEMINI: the window ends when `snd_una`
/// passes the `snd_nxt` recorded at its start.
#[derive(Clone, Debug)]
pub struct EcnWindow {
    pub alpha: f64,
    pub g: f64,
    acked: u32,
    marked: u32,
    /// The window ends when `snd_una` reaches this; set by the first ACK.
    end: Option<u32>,
}

impl EcnWindow {
    /// α₀ = 1, g = 1/16 (the DCTCP and tcp_ear.c defaults, GEMINI/FlashPass §1.3 item 2).
    pub fn new() -> Self {
        EcnWindow { alpha: 1.0, g: 1.0 / 16.0, acked: 0, marked: 0, end: None }
    }
    /// Count one ACK; true when it closed a window (α updated).
    pub fn on_ack(&mut self, a: &Ack) -> bool {
        self.acked += 1;
        self.marked += a.ece as u32;
        let end = *self.end.get_or_insert(a.snd_nxt);
        if a.snd_una >= end {
            self.alpha = ewma(self.alpha, self.g, self.marked, self.acked);
            (self.acked, self.marked, self.end) = (0, 0, Some(a.snd_nxt));
            return true;
        }
        false
    }
}

/// DCTCP (Alizadeh et al.; the transport of ECN♯ §4.3): slow start, +1/cwnd per ACK,
/// and on ECN-Echo at most one cut per window, `cwnd ← cwnd·(1 − α/2)`; halve on a fast
/// retransmit, 1 packet after a timeout. Floor 2 packets (Linux).
#[derive(Clone, Debug)]
pub struct Dctcp {
    pub cwnd: f64,
    pub ssthresh: f64,
    pub win: EcnWindow,
    cwr_end: u32,
}

impl Dctcp {
    pub fn new(init_cwnd: f64) -> Self {
        Dctcp { cwnd: init_cwnd, ssthresh: f64::INFINITY, win: EcnWindow::new(), cwr_end: 0 }
    }

    /// The ECN cut: `cwnd·(1 − α/2)`, at least 2.
    pub fn cut(cwnd: f64, alpha: f64) -> f64 {
        (cwnd * (1.0 - alpha / 2.0)).max(2.0)
    }

    pub fn on_ack(&mut self, a: &Ack) {
        self.win.on_ack(a);
        if a.ece {
            if a.snd_una >= self.cwr_end {
                self.cwnd = Self::cut(self.cwnd, self.win.alpha);
                self.ssthresh = self.cwnd;
                self.cwr_end = a.snd_nxt;
            }
        } else if a.newly_acked > 0 {
            grow(&mut self.cwnd, self.ssthresh, a.newly_acked, 1.0);
        }
    }
}

/// Slow start below `ssthresh`, else `+inc/cwnd` per newly acknowledged packet.
fn grow(cwnd: &mut f64, ssthresh: f64, newly: u32, inc: f64) {
    for _ in 0..newly {
        *cwnd += if *cwnd < ssthresh { 1.0 } else { inc / *cwnd };
    }
}

/// GEMINI's parameters (Table 3.4) and the project's guards (§1.3, §1.9).
#[derive(Clone, Copy, Debug)]
pub struct GeminiParams {
    /// ECN threshold at the DC switch, packets (50 per Gb/s).
    pub k_pkts: f64,
    /// Delay threshold T, µs.
    pub t_us: f64,
    pub beta: f64,
    /// H, per (bit/s · s).
    pub h_coeff: f64,
    /// Bottleneck capacity C, bit/s.
    pub c_bps: f64,
    /// Packet size for C·RTT in packets.
    pub mss_bytes: f64,
    pub h_min: f64,
    pub h_max: f64,
    /// Clamp of the reduction factor (project choice, §1.3 item 6).
    pub f_cap: f64,
    pub cwnd_min: f64,
}

impl GeminiParams {
    /// Table 3.4 at capacity `gbps`: K = 50 pkts/Gbps, T = 5 ms, β = 0.2, H = 1.2e-7.
    pub fn defaults(gbps: f64) -> Self {
        GeminiParams { k_pkts: 50.0 * gbps, t_us: 5000.0, beta: 0.2, h_coeff: 1.2e-7, c_bps: gbps * 1e9, mss_bytes: 1500.0, h_min: 0.1, h_max: 5.0, f_cap: 1.0, cwnd_min: 2.0 }
    }
    /// F = 4K / (C·RTT_base + K), C·RTT in packets (G-F).
    pub fn scale_f(&self, rtt_base_us: f64) -> f64 {
        let bdp = self.c_bps * rtt_base_us * 1e-6 / (8.0 * self.mss_bytes);
        4.0 * self.k_pkts / (bdp + self.k_pkts)
    }
    /// h = clamp(H·C·RTT_base, 0.1, 5) MSS per RTT (G-h).
    pub fn h(&self, rtt_base_us: f64) -> f64 {
        (self.h_coeff * self.c_bps * rtt_base_us * 1e-6).clamp(self.h_min, self.h_max)
    }
}

/// Which branch of Algorithm 1 an ACK took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    Inc,
    Dec,
    /// Congested, but the last cut was within one RTT: neither cut nor grow (§1.3 item 5).
    Hold,
}

/// Lines 4–12 of Algorithm 1 for one ACK in congestion avoidance: the new cwnd and the branch.
/// `since_cut_us` is the time since the last reduction, compared strictly with `rtt_ref_us`.
pub fn gemini_step(p: &GeminiParams, cwnd: f64, alpha: f64, dcn: bool, wan: bool, since_cut_us: f64, rtt_ref_us: f64, rtt_base_us: f64) -> (f64, Branch) {
    if dcn || wan {
        if since_cut_us > rtt_ref_us {
            let f_dcn = alpha * p.scale_f(rtt_base_us) * dcn as u8 as f64;
            let f_wan = p.beta * wan as u8 as f64;
            let f = f_dcn.max(f_wan).min(p.f_cap);
            ((cwnd * (1.0 - f)).max(p.cwnd_min), Branch::Dec)
        } else {
            (cwnd, Branch::Hold)
        }
    } else {
        (cwnd + p.h(rtt_base_us) / cwnd, Branch::Inc)
    }
}

/// The WAN signal: the previous window's minimum RTT exceeds RTT_base + T, strictly (G-T).
pub fn wan_congested(rtt_min_prev_us: f64, rtt_base_us: f64, t_us: f64) -> bool {
    rtt_min_prev_us > rtt_base_us + t_us
}

/// A GEMINI sender. Choices where the thesis is silent (§1.9), all documented in the README:
/// RTT_base is the minimum RTT over the flow's life (its propagation RTT here), the hold-off
/// RTT is the smoothed RTT, standard slow start below ssthresh (as tcp_ear.c), g = 1/16,
/// α₀ = 1, f_cap = 1, cwnd_min = 2, no pacing.
#[derive(Clone, Debug)]
pub struct Gemini {
    pub p: GeminiParams,
    pub cwnd: f64,
    pub ssthresh: f64,
    pub win: EcnWindow,
    pub rtt_base_us: f64,
    rtt_min_cur: f64,
    rtt_min_prev: f64,
    last_cut_us: f64,
}

impl Gemini {
    pub fn new(p: GeminiParams, init_cwnd: f64) -> Self {
        Gemini { p, cwnd: init_cwnd, ssthresh: f64::INFINITY, win: EcnWindow::new(), rtt_base_us: f64::INFINITY, rtt_min_cur: f64::INFINITY, rtt_min_prev: f64::INFINITY, last_cut_us: f64::NEG_INFINITY }
    }

    pub fn on_ack(&mut self, a: &Ack) {
        if let Some(r) = a.rtt_us {
            self.rtt_base_us = self.rtt_base_us.min(r);
            self.rtt_min_cur = self.rtt_min_cur.min(r);
        }
        if self.win.on_ack(a) {
            self.rtt_min_prev = self.rtt_min_cur;
            self.rtt_min_cur = f64::INFINITY;
        }
        if !self.rtt_base_us.is_finite() {
            return;
        }
        let wan = self.rtt_min_prev.is_finite() && wan_congested(self.rtt_min_prev, self.rtt_base_us, self.p.t_us);
        let (cwnd, branch) = gemini_step(&self.p, self.cwnd, self.win.alpha, a.ece, wan, a.now_us - self.last_cut_us, a.srtt_us, self.rtt_base_us);
        match branch {
            Branch::Dec => {
                self.cwnd = cwnd;
                self.ssthresh = cwnd;
                self.last_cut_us = a.now_us;
            }
            Branch::Inc if a.newly_acked > 0 => {
                let h = self.p.h(self.rtt_base_us);
                grow(&mut self.cwnd, self.ssthresh, a.newly_acked, h);
            }
            _ => {}
        }
    }
}

/// A sender's congestion control.
#[derive(Clone, Debug)]
pub enum Cc {
    Dctcp(Dctcp),
    Gemini(Gemini),
}

impl Cc {
    pub fn cwnd(&self) -> f64 {
        match self {
            Cc::Dctcp(c) => c.cwnd,
            Cc::Gemini(c) => c.cwnd,
        }
    }
    fn state(&mut self) -> (&mut f64, &mut f64) {
        match self {
            Cc::Dctcp(c) => (&mut c.cwnd, &mut c.ssthresh),
            Cc::Gemini(c) => (&mut c.cwnd, &mut c.ssthresh),
        }
    }
    pub fn on_ack(&mut self, a: &Ack) {
        match self {
            Cc::Dctcp(c) => c.on_ack(a),
            Cc::Gemini(c) => c.on_ack(a),
        }
    }
    /// Fast retransmit (three duplicate ACKs): halve, as TCP's fast recovery (GEMINI keeps
    /// TCP's, §1.3 item 8).
    pub fn on_fast_retransmit(&mut self) {
        let (cwnd, ssthresh) = self.state();
        *cwnd = (*cwnd / 2.0).max(2.0);
        *ssthresh = *cwnd;
    }
    /// Retransmission timeout: restart from one packet.
    pub fn on_timeout(&mut self) {
        let (cwnd, ssthresh) = self.state();
        *ssthresh = (*cwnd / 2.0).max(2.0);
        *cwnd = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6 * b.abs().max(1.0)
    }

    /// GEMINI/FlashPass §5.2 G-F.
    #[test]
    fn scale_factor_table_g_f() {
        for (gbps, rtt_ms, k, f) in [
            (1.0, 0.2, 50.0, 3.0),
            (1.0, 1.0, 50.0, 1.5),
            (1.0, 8.0, 50.0, 12.0 / 43.0),
            (1.0, 10.0, 50.0, 12.0 / 53.0),
            (1.0, 100.0, 50.0, 12.0 / 503.0),
            (10.0, 0.2, 500.0, 3.0),
            (10.0, 10.0, 500.0, 12.0 / 53.0),
            (1.0, 0.2, 300.0, 72.0 / 19.0),
            (1.0, 10.0, 300.0, 18.0 / 17.0),
        ] {
            let p = GeminiParams { k_pkts: k, ..GeminiParams::defaults(gbps) };
            assert!(close(p.scale_f(rtt_ms * 1000.0), f), "{gbps} G {rtt_ms} ms K {k}: {}", p.scale_f(rtt_ms * 1000.0));
        }
    }

    /// G-h.
    #[test]
    fn increase_step_table_g_h() {
        for (gbps, rtt_ms, h) in [(1.0, 0.2, 0.1), (1.0, 8.0, 0.96), (1.0, 10.0, 1.2), (1.0, 40.0, 4.8), (1.0, 100.0, 5.0), (10.0, 0.2, 0.24), (10.0, 10.0, 5.0)] {
            assert!(close(GeminiParams::defaults(gbps).h(rtt_ms * 1000.0), h), "{gbps} G {rtt_ms} ms");
        }
    }

    /// G-step: one ACK through Algorithm 1 (1 Gb/s, β 0.2, T 5 ms, f_cap 1, cwnd_min 2).
    #[test]
    fn one_ack_table_g_step() {
        use Branch::*;
        #[rustfmt::skip]
        let rows = [
            ("G1", 20.0, 0.0, false, false, 1000.0, 0.2, 50.0, 0.2, Inc, 4001.0 / 200.0),
            ("G2", 100.0, 0.0, false, false, 1000.0, 10.0, 50.0, 10.0, Inc, 25003.0 / 250.0),
            ("G3", 1000.0, 0.0, false, false, 1000.0, 100.0, 50.0, 100.0, Inc, 200001.0 / 200.0),
            ("G4", 100.0, 0.25, true, false, 20.0, 10.0, 50.0, 10.0, Dec, 5000.0 / 53.0),
            ("G5", 20.0, 0.25, true, false, 1.0, 0.2, 50.0, 0.2, Dec, 5.0),
            ("G6", 20.0, 0.5, true, false, 1.0, 0.2, 50.0, 0.2, Dec, 2.0),
            ("G7", 100.0, 0.25, false, true, 20.0, 10.0, 50.0, 10.0, Dec, 80.0),
            ("G8", 100.0, 0.25, true, true, 20.0, 10.0, 50.0, 10.0, Dec, 80.0),
            ("G9", 100.0, 0.25, true, true, 20.0, 10.0, 300.0, 10.0, Dec, 1250.0 / 17.0),
            ("G10", 100.0, 0.25, true, false, 5.0, 10.0, 50.0, 10.0, Hold, 100.0),
            ("G11", 100.0, 0.25, true, false, 10.0, 10.0, 50.0, 10.0, Hold, 100.0),
            ("G12", 2.0, 1.0, true, false, 20.0, 10.0, 300.0, 10.0, Dec, 2.0),
        ];
        for (id, cwnd, alpha, dcn, wan, since_ms, ref_ms, k, base_ms, branch, want) in rows {
            let p = GeminiParams { k_pkts: k, ..GeminiParams::defaults(1.0) };
            let (got, b) = gemini_step(&p, cwnd, alpha, dcn, wan, since_ms * 1000.0, ref_ms * 1000.0, base_ms * 1000.0);
            assert_eq!(b, branch, "{id}");
            assert!(close(got, want), "{id}: {got} want {want}");
        }
    }

    /// G-α: the EWMA from α₀ = 1 with g = 1/16, and DCTCP's once-per-window update.
    #[test]
    fn alpha_table_g_alpha() {
        let rows = [(0, 100, 15.0 / 16.0), (0, 100, 225.0 / 256.0), (10, 100, 17003.0 / 20480.0), (100, 100, 55105.0 / 65536.0), (0, 100, 826575.0 / 1048576.0)];
        let mut alpha = 1.0;
        for (m, t, want) in rows {
            alpha = ewma(alpha, 1.0 / 16.0, m, t);
            assert!(close(alpha, want), "{alpha} {want}");
        }
        // The same through EcnWindow: ACK `una` carries snd_nxt = the next multiple of 100
        // above it, so each window is 100 ACKs.
        let mut w = EcnWindow::new();
        for (j, (m, t, want)) in rows.into_iter().enumerate() {
            for i in 1..=t {
                let una = 100 * j as u32 + i;
                let closed = w.on_ack(&Ack { ece: i <= m, newly_acked: 1, snd_una: una, snd_nxt: (una / 100 + 1) * 100, ..Default::default() });
                assert_eq!(closed, i == t, "window boundary at snd_una {una}");
            }
            assert!(close(w.alpha, want), "window {j}: {} want {want}", w.alpha);
        }
    }

    /// G-T: the WAN boundary is strict.
    #[test]
    fn wan_signal_table_g_t() {
        assert!(!wan_congested(14_999.0, 10_000.0, 5000.0));
        assert!(!wan_congested(15_000.0, 10_000.0, 5000.0));
        assert!(wan_congested(15_001.0, 10_000.0, 5000.0));
    }

    /// DCTCP's rules: the cut is cwnd·(1 − α/2) floored at 2, at most once per window; growth
    /// is +1 per ACK in slow start and +1/cwnd after.
    #[test]
    fn dctcp_rules() {
        for (cwnd, alpha, want) in [(100.0, 1.0, 50.0), (100.0, 0.0, 100.0), (100.0, 0.25, 87.5), (3.0, 1.0, 2.0)] {
            assert!(close(Dctcp::cut(cwnd, alpha), want));
        }
        let mut d = Dctcp::new(10.0);
        let ack = |una, nxt, ece| Ack { ece, newly_acked: 1, snd_una: una, snd_nxt: nxt, ..Default::default() };
        d.on_ack(&ack(1, 10, false));
        assert_eq!(d.cwnd, 11.0, "slow start");
        d.on_ack(&ack(2, 11, true));
        assert_eq!((d.cwnd, d.ssthresh), (5.5, 5.5), "α₀ = 1 halves on the first mark");
        d.on_ack(&ack(3, 12, true));
        assert_eq!(d.cwnd, 5.5, "one cut per window: snd_una 3 < the cut's snd_nxt 11");
        d.on_ack(&ack(4, 12, false));
        assert!(close(d.cwnd, 5.5 + 1.0 / 5.5), "congestion avoidance");
        d.on_ack(&ack(11, 12, true));
        assert!(d.cwnd < 5.5, "a mark after the window cuts again");
    }
}
