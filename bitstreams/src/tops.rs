//! Board tops for the Alchitry Cu. A block with more ports than the package has pins is wrapped:
//! on-chip LFSRs drive every input, every output is folded into the LEDs through registers, so
//! nothing is optimised away and the timing measured is the block's own.

use hdl::aqm::rtl::AqmTop;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

/// 32-bit Galois LFSR (taps 32, 22, 2, 1).
const LFSR_TAPS: u64 = 0x8020_0003;

#[derive(LogicBlock)]
pub struct AqmBoard {
    pub clock: Signal<In, Clock>,
    pub leds: Signal<Out, Bits<8>>,
    dut: AqmTop,
    lfsr_a: DFFWithInit<Bits<32>>,
    lfsr_b: DFFWithInit<Bits<32>>,
    lfsr_c: DFFWithInit<Bits<32>>,
    fold: DFF<Bits<32>>,
    out: DFF<Bits<8>>,
}

impl Default for AqmBoard {
    fn default() -> Self {
        AqmBoard {
            clock: Default::default(),
            leds: Default::default(),
            dut: Default::default(),
            lfsr_a: DFFWithInit::new(0x1234_5678.into()),
            lfsr_b: DFFWithInit::new(0x0BAD_CAFE.into()),
            lfsr_c: DFFWithInit::new(0x7E57_0001.into()),
            fold: Default::default(),
            out: Default::default(),
        }
    }
}

impl Logic for AqmBoard {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, lfsr_a, lfsr_b, lfsr_c, fold, out);
        clock!(self, clock, dut);
        self.lfsr_a.d.next = self.lfsr_a.q.val() >> 1;
        if self.lfsr_a.q.val().get_bit(0) {
            self.lfsr_a.d.next = (self.lfsr_a.q.val() >> 1) ^ LFSR_TAPS;
        }
        self.lfsr_b.d.next = self.lfsr_b.q.val() >> 1;
        if self.lfsr_b.q.val().get_bit(0) {
            self.lfsr_b.d.next = (self.lfsr_b.q.val() >> 1) ^ LFSR_TAPS;
        }
        self.lfsr_c.d.next = self.lfsr_c.q.val() >> 1;
        if self.lfsr_c.q.val().get_bit(0) {
            self.lfsr_c.d.next = (self.lfsr_c.q.val() >> 1) ^ LFSR_TAPS;
        }
        // stimulus: a register write in 1/32 cycles, otherwise a dequeue in 1/2
        self.dut.csr_we.next = self.lfsr_c.q.val().get_bits::<5>(0) == 0;
        self.dut.csr_addr.next = self.lfsr_c.q.val().get_bits::<6>(8);
        self.dut.csr_wdata.next = self.lfsr_a.q.val();
        self.dut.deq.next = self.lfsr_c.q.val().get_bit(20);
        self.dut.deq_ts.next = self.lfsr_a.q.val() ^ self.lfsr_b.q.val();
        self.dut.deq_ecn.next = self.lfsr_c.q.val().get_bits::<2>(21);
        self.dut.deq_qlen.next = self.lfsr_b.q.val();
        // every output reaches the LEDs
        self.fold.d.next = self.dut.now.val()
            ^ self.dut.enq_ts.val()
            ^ self.dut.sojourn.val()
            ^ self.dut.st_fat.val()
            ^ self.dut.st_next.val()
            ^ self.dut.cnt_marked.val()
            ^ self.dut.cnt_fired_inst.val()
            ^ self.dut.cnt_fired_pers.val()
            ^ self.dut.cnt_dropped.val()
            ^ (bit_cast::<32, 16>(self.dut.st_cnt.val()) << 16)
            ^ bit_cast::<32, 16>(self.dut.st_lastcount.val())
            ^ bit_cast::<32, 2>(self.dut.ecn_out.val());
        self.out.d.next = self.fold.q.val().get_bits::<8>(0)
            ^ self.fold.q.val().get_bits::<8>(8)
            ^ self.fold.q.val().get_bits::<8>(16)
            ^ self.fold.q.val().get_bits::<8>(24);
        if self.dut.ins.val() ^ self.dut.det.val() ^ self.dut.pst.val() ^ self.dut.drop.val() {
            self.out.d.next = !(self.fold.q.val().get_bits::<8>(0)
                ^ self.fold.q.val().get_bits::<8>(8)
                ^ self.fold.q.val().get_bits::<8>(16)
                ^ self.fold.q.val().get_bits::<8>(24));
        }
        if self.dut.st_ms.val() ^ self.dut.st_fat_valid.val() ^ self.dut.st_det_latched.val() {
            self.out.d.next = self.fold.q.val().get_bits::<8>(4);
        }
        self.leds.next = self.out.q.val();
    }
}

/// The Verilog of a board top.
pub fn verilog_of<B: Block>(mut b: B) -> String {
    b.connect_all();
    generate_verilog(&b)
}
