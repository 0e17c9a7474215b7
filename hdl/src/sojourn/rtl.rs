//! RTL of the sojourn timestamp block; the golden model is `model.rs`.

use rust_hdl::prelude::*;

/// Free-running tick counter with prescaler and load, enqueue stamp and dequeue sojourn.
#[derive(LogicBlock, Default)]
pub struct SojournStamp {
    pub clock: Signal<In, Clock>,
    /// Load `load_value` into `now` at this edge (restarts the prescaler).
    pub load: Signal<In, Bit>,
    pub load_value: Signal<In, Bits<32>>,
    /// Clocks per tick; 0 and 1 both mean every clock.
    pub clk_per_tick: Signal<In, Bits<16>>,
    /// Stamp of the descriptor being dequeued.
    pub deq_ts: Signal<In, Bits<32>>,
    pub now: Signal<Out, Bits<32>>,
    /// The stamp for a descriptor enqueued this cycle.
    pub enq_ts: Signal<Out, Bits<32>>,
    /// `now − deq_ts` modulo 2^32.
    pub sojourn: Signal<Out, Bits<32>>,
    count: DFF<Bits<32>>,
    prescale: DFF<Bits<16>>,
    /// `prescale + 1` on 16 bits (kept explicit: Verilog would widen the sum to 32 bits).
    prescale_inc: Signal<Local, Bits<16>>,
}

impl Logic for SojournStamp {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, prescale);
        self.now.next = self.count.q.val();
        self.enq_ts.next = self.count.q.val();
        self.sojourn.next = self.count.q.val() - self.deq_ts.val();
        self.prescale_inc.next = self.prescale.q.val() + 1;
        if self.load.val() {
            self.count.d.next = self.load_value.val();
            self.prescale.d.next = 0.into();
        } else if self.prescale_inc.val() >= self.clk_per_tick.val() {
            self.count.d.next = self.count.q.val() + 1;
            self.prescale.d.next = 0.into();
        } else {
            self.prescale.d.next = self.prescale_inc.val();
        }
    }
}
