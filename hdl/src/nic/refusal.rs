//! RTL of the NIC's refused-write count (`BUS_REFUSED`): the bus writes that change nothing.

use rust_hdl::prelude::*;

use super::{Access, Register, REGISTERS};
use crate::rtl_util::{c, SatCounter};

/// Registers in the map.
const NREG: usize = REGISTERS.len();

/// A register's span as the decode compares it: its offset, and the mask of the address bits
/// that name it. Each register is aligned to its own size, so a masked compare hits exactly its
/// span; the map has no overlaps (`nic::tests`), so at most one register is hit.
pub fn decode_span(r: &Register) -> (u64, u64) {
    assert!(r.count.is_power_of_two() && r.offset % (4 * r.count) == 0, "{}", r.name);
    (r.offset as u64, (0xFFF & !(4 * r.count - 1)) as u64)
}

/// Counts a bus write (`bus_we` at `bus_addr`) that is refused: to a register address with no
/// writable register, to an address in no window the host writes (`RX_STAGE`, `TX_MESSAGE`),
/// and to the RX staging window or registers (`RX_HDR` .. `RX_PUSH`) while a push is in flight
/// (`busy`, in the clock after the write: the NIC applies those writes a clock late). The write
/// is decided a clock after it, from its registered copy, with a decode of its own (the bus
/// decode is off this logic), and counted at the edge after that: `refused` shows it from the
/// third clock after its write.
#[derive(LogicBlock)]
pub struct WriteRefusal {
    pub clock: Signal<In, Clock>,
    pub bus_we: Signal<In, Bit>,
    pub bus_addr: Signal<In, Bits<20>>,
    pub busy: Signal<In, Bit>,
    pub refused: Signal<Out, Bits<32>>,
    raddr: [Constant<Bits<12>>; NREG],
    rmask: [Constant<Bits<12>>; NREG],
    rwr: [Constant<Bit>; NREG],
    count: SatCounter,
    refuse_r: DFF<Bit>,
    rf_we: DFF<Bit>,
    rf_addr: DFF<Bits<20>>,
    rf_regs: Signal<Local, Bit>,
    rf_stage: Signal<Local, Bit>,
    rf_txmsg: Signal<Local, Bit>,
    rf_wr_ok: Signal<Local, Bit>,
    rf_rx_reg: Signal<Local, Bit>,
}

impl Default for WriteRefusal {
    fn default() -> Self {
        WriteRefusal {
            clock: Default::default(),
            bus_we: Default::default(),
            bus_addr: Default::default(),
            busy: Default::default(),
            refused: Default::default(),
            raddr: std::array::from_fn(|i| c(decode_span(&REGISTERS[i]).0)),
            rmask: std::array::from_fn(|i| c(decode_span(&REGISTERS[i]).1)),
            rwr: std::array::from_fn(|i| Constant::new(REGISTERS[i].access != Access::Ro)),
            count: Default::default(),
            refuse_r: Default::default(),
            rf_we: Default::default(),
            rf_addr: Default::default(),
            rf_regs: Default::default(),
            rf_stage: Default::default(),
            rf_txmsg: Default::default(),
            rf_wr_ok: Default::default(),
            rf_rx_reg: Default::default(),
        }
    }
}

// The windows' decode by the address's top bits, and the RX staging registers' indices
// (`RX_HDR` ..= `RX_PUSH`), as literals in `update`.
const _: () = assert!(super::idx::RX_HDR == 24 && super::idx::RX_PUSH == 28 && super::RX_STAGE.offset == 0x1_0000 && super::RX_STAGE.size == 0x8000 && super::TX_MESSAGE.offset == 0x2_0000 && super::TX_MESSAGE.size == 0x2_0000);

impl Logic for WriteRefusal {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, refuse_r, rf_we, rf_addr);
        self.count.clock.next = self.clock.val();
        self.count.load.next = false;
        self.count.load_val.next = 0.into();
        self.rf_we.d.next = self.bus_we.val();
        self.rf_addr.d.next = self.bus_addr.val();
        self.rf_regs.next = self.rf_addr.q.val().get_bits::<8>(12) == 0;
        self.rf_stage.next = self.rf_addr.q.val().get_bits::<5>(15) == 2;
        self.rf_txmsg.next = self.rf_addr.q.val().get_bits::<3>(17) == 1;
        self.rf_wr_ok.next = false;
        for i in 0..NREG {
            if self.rwr[i].val() & ((self.rf_addr.q.val().get_bits::<12>(0) & self.rmask[i].val()) == self.raddr[i].val()) {
                self.rf_wr_ok.next = true;
            }
        }
        self.rf_rx_reg.next = false;
        for i in 24..29 {
            if (self.rf_addr.q.val().get_bits::<12>(0) & self.rmask[i].val()) == self.raddr[i].val() {
                self.rf_rx_reg.next = true;
            }
        }
        self.refuse_r.d.next = self.rf_we.q.val()
            & ((self.rf_regs.val() & (!self.rf_wr_ok.val() | (self.busy.val() & self.rf_rx_reg.val())))
                | (!self.rf_regs.val() & !self.rf_stage.val() & !self.rf_txmsg.val())
                | (self.busy.val() & self.rf_stage.val()));
        self.count.inc.next = self.refuse_r.q.val();
        self.refused.next = self.count.value.val();
    }
}

crate::pin_io!(WriteRefusal; in: bus_we, bus_addr, busy; out: refused);
