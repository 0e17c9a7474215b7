//! Golden model of the sojourn timestamp block (plain Rust, no rust-hdl).

/// The free-running tick counter with its prescaler, one call per clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timebase {
    /// Ticks since reset (or since the last load), modulo 2^32.
    pub now: u32,
    /// Clocks per tick; 0 and 1 both mean one tick per clock.
    pub clk_per_tick: u16,
    prescale: u16,
}

impl Timebase {
    /// Advance one clock edge. A load wins over counting: `now` holds the loaded value after the
    /// edge and the prescaler restarts.
    pub fn clock(&mut self, load: Option<u32>) {
        if let Some(v) = load {
            self.now = v;
            self.prescale = 0;
        } else if self.prescale.wrapping_add(1) >= self.clk_per_tick.max(1) {
            self.now = self.now.wrapping_add(1);
            self.prescale = 0;
        } else {
            self.prescale += 1;
        }
    }
}

/// Sojourn of a descriptor stamped `enq_ts`, dequeued at `now`: a modular difference, correct
/// across the counter wrap for any sojourn below 2^32 ticks (ECN♯ §1.4).
pub fn sojourn(now: u32, enq_ts: u32) -> u32 {
    now.wrapping_sub(enq_ts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sojourn_crosses_the_wrap() {
        assert_eq!(sojourn(5, u32::MAX - 4), 10);
        assert_eq!(sojourn(100, 100), 0);
    }

    #[test]
    fn prescaler_divides_the_clock() {
        let mut tb = Timebase { clk_per_tick: 3, ..Default::default() };
        let mut seen = vec![];
        for _ in 0..7 {
            tb.clock(None);
            seen.push(tb.now);
        }
        assert_eq!(seen, [0, 0, 1, 1, 1, 2, 2]);
        tb.clock(Some(u32::MAX));
        tb.clk_per_tick = 0;
        tb.clock(None);
        assert_eq!(tb.now, 0);
    }
}
