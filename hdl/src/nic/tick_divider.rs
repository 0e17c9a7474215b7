//! RTL of the NIC's idle-tick divider (`RX_TICK_DIV`): one tick every `div` core clocks for the
//! decoder's idle timers. `sim-tests/tests/nic_components.rs` tests it alone.

use rust_hdl::prelude::*;

/// `tick` is high one clock in every `div` (never while `div` is 0, the reset). A write (`we`
/// with `wdata`) sets `div` and restarts the period: the first tick is in the `div`-th clock
/// after the write's edge.
///
/// A down-count whose sign bit is the tick: `rem` starts at `div − 2` and reloads `div − 2`
/// (made from the write data, kept in `reload`) in the clock after each tick, so the loop is one
/// decrement selected by a flip-flop, and the tick itself comes straight from flip-flops. The
/// count is 33 bits so that no `div` up to 2^32 − 1 starts it negative.
#[derive(LogicBlock)]
pub struct TickDivider {
    pub clock: Signal<In, Clock>,
    pub we: Signal<In, Bit>,
    pub wdata: Signal<In, Bits<32>>,
    /// The divider as written (`RX_TICK_DIV` reads it).
    pub div: Signal<Out, Bits<32>>,
    pub tick: Signal<Out, Bit>,
    div_r: DFF<Bits<32>>,
    on: DFF<Bit>,
    reload: DFF<Bits<33>>,
    rem: DFF<Bits<33>>,
    /// `wdata − 2`, the count a write starts and reloads.
    start: Signal<Local, Bits<33>>,
}

impl Default for TickDivider {
    fn default() -> Self {
        TickDivider {
            clock: Default::default(),
            we: Default::default(),
            wdata: Default::default(),
            div: Default::default(),
            tick: Default::default(),
            div_r: Default::default(),
            on: Default::default(),
            reload: Default::default(),
            rem: Default::default(),
            start: Default::default(),
        }
    }
}

impl Logic for TickDivider {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, div_r, on, reload, rem);
        self.div.next = self.div_r.q.val();
        self.tick.next = self.on.q.val() & self.rem.q.val().get_bit(32);
        self.rem.d.next = self.rem.q.val() - 1;
        if self.rem.q.val().get_bit(32) {
            self.rem.d.next = self.reload.q.val();
        }
        self.start.next = bit_cast::<33, 32>(self.wdata.val()) - 2;
        if self.we.val() {
            self.div_r.d.next = self.wdata.val();
            self.on.d.next = self.wdata.val().any();
            self.reload.d.next = self.start.val();
            self.rem.d.next = self.start.val();
        }
    }
}

crate::pin_io!(TickDivider; in: we, wdata; out: div, tick);
