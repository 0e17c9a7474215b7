//! RTL pieces every block shares: pin access by position (for the engines of `sim-tests`) and a
//! saturating counter with a host preset.

use rust_hdl::prelude::*;

/// A `Bits<N>` constant from a `u64` (the blocks' constructors build their parameters with it).
pub fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

/// A port value as the `u64` the cycle framework exchanges.
pub trait PinValue {
    fn from_pin(v: u64) -> Self;
    fn to_pin(&self) -> u64;
}

impl<const N: usize> PinValue for Bits<N> {
    fn from_pin(v: u64) -> Self {
        v.into()
    }
    fn to_pin(&self) -> u64 {
        self.to_u64()
    }
}

impl PinValue for bool {
    fn from_pin(v: u64) -> Self {
        v & 1 != 0
    }
    fn to_pin(&self) -> u64 {
        *self as u64
    }
}

/// A rust-hdl block driven pin by pin, in the order of its golden model's pin tables.
pub trait PinIo: Block {
    const INPUT_NAMES: &'static [&'static str];
    const OUTPUT_NAMES: &'static [&'static str];
    fn set_clock(&mut self, high: bool);
    fn set_inputs(&mut self, v: &[u64]);
    fn outputs(&self) -> Vec<u64>;
}

/// Implement [`PinIo`] for a block whose clock is `clock` and whose pins are the listed fields.
/// The lists must follow the model's pin tables; `sim-tests` checks that they do.
#[macro_export]
macro_rules! pin_io {
    ($t:ty; in: $($i:ident),* ; out: $($o:ident),* $(,)?) => {
        impl $crate::rtl_util::PinIo for $t {
            const INPUT_NAMES: &'static [&'static str] = &[$(stringify!($i)),*];
            const OUTPUT_NAMES: &'static [&'static str] = &[$(stringify!($o)),*];
            fn set_clock(&mut self, high: bool) {
                self.clock.next = rust_hdl::prelude::Clock { clk: high };
            }
            fn set_inputs(&mut self, v: &[u64]) {
                let mut it = v.iter().copied();
                $(self.$i.next = $crate::rtl_util::PinValue::from_pin(it.next().unwrap_or(0));)*
            }
            fn outputs(&self) -> Vec<u64> {
                vec![$($crate::rtl_util::PinValue::to_pin(&self.$o.val())),*]
            }
        }
    };
}

/// 32-bit event counter that saturates at all-ones; `load` (a host preset) wins over `inc`.
#[derive(LogicBlock, Default)]
pub struct SatCounter {
    pub clock: Signal<In, Clock>,
    pub inc: Signal<In, Bit>,
    pub load: Signal<In, Bit>,
    pub load_val: Signal<In, Bits<32>>,
    pub value: Signal<Out, Bits<32>>,
    count: DFF<Bits<32>>,
    /// `count + 1` with its carry out: bit 32 is set only at all-ones, so saturation costs no
    /// separate all-ones compare (it is the end of the increment's carry chain). A registered
    /// all-ones flag instead was tried for the clock enable: yosys folds the enable into the
    /// increment's carry-in either way, and the flag cost cells, so the carry-out form stays.
    plus1: Signal<Local, Bits<33>>,
}

impl Logic for SatCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        self.value.next = self.count.q.val();
        self.plus1.next = bit_cast::<33, 32>(self.count.q.val()) + 1;
        if self.inc.val() & !self.plus1.val().get_bit(32) {
            self.count.d.next = self.plus1.val().get_bits::<32>(0);
        }
        if self.load.val() {
            self.count.d.next = self.load_val.val();
        }
    }
}

// pins for the counter's own test (sim-tests/tests/sat_counter.rs)
crate::pin_io!(SatCounter; in: inc, load, load_val; out: value);
