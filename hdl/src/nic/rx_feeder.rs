//! RTL of the NIC's RX staging and feeder: the host stages one received packet (`RX_STAGE`
//! window, `RX_HDR`, `RX_BITSET_HI`, `RX_BITSET_LO`, `RX_LEN`) and pushes it (`RX_PUSH`) into the
//! decoder, one payload word per beat.

use rust_hdl::prelude::*;

use crate::rtl_util::BlockRam;

/// The staging RAM (2^SA words) and the staged header registers, written while no push is in
/// flight (`on` low; the owner refuses and counts the writes made while it is high): a stage
/// write (`stage_we`) at `addr`, or a register write (`reg_we` with one of `hit_*`). A push
/// (`reg_we` with `hit_push`, while not `on`) feeds the packet to the decoder's input
/// (`in_valid`, `in_last`, `in_data`, advancing with `in_ready`) in `max(1, ⌈(len − 12)/4⌉)`
/// beats, with the header, bitset and length beside them. The RAM's read is registered, so
/// its address leads the beat by one, and `in_last` is a flip-flop set with the push and as the
/// feeder advances.
#[derive(LogicBlock, Default)]
pub struct RxFeeder<const SA: usize> {
    pub clock: Signal<In, Clock>,
    pub stage_we: Signal<In, Bit>,
    pub addr: Signal<In, Bits<SA>>,
    pub wdata: Signal<In, Bits<32>>,
    pub reg_we: Signal<In, Bit>,
    pub hit_hdr: Signal<In, Bit>,
    pub hit_bhi: Signal<In, Bit>,
    pub hit_blo: Signal<In, Bit>,
    pub hit_len: Signal<In, Bit>,
    pub hit_push: Signal<In, Bit>,
    pub in_ready: Signal<In, Bit>,
    pub on: Signal<Out, Bit>,
    pub in_valid: Signal<Out, Bit>,
    pub in_last: Signal<Out, Bit>,
    pub in_data: Signal<Out, Bits<32>>,
    pub hdr: Signal<Out, Bits<32>>,
    pub bitset_hi: Signal<Out, Bits<32>>,
    pub bitset_lo: Signal<Out, Bits<32>>,
    pub len: Signal<Out, Bits<16>>,
    stage_ram: BlockRam<32, SA>,
    rx_hdr: DFF<Bits<32>>,
    rx_bhi: DFF<Bits<32>>,
    rx_blo: DFF<Bits<32>>,
    rx_len: DFF<Bits<16>>,
    fd_on: DFF<Bit>,
    fd_w: DFF<Bits<16>>,
    /// The packet's last beat, `max(1, ⌈(len − 12)/4⌉) − 1`, set with the push.
    fd_lw: DFF<Bits<16>>,
    /// The beat on the decoder's input is the last (`fd_w == fd_lw`).
    fd_lst: DFF<Bit>,
    fd_next: Signal<Local, Bits<16>>,
    pl: Signal<Local, Bits<16>>,
}

impl<const SA: usize> Logic for RxFeeder<SA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rx_hdr, rx_bhi, rx_blo, rx_len, fd_on, fd_w, fd_lw, fd_lst);
        self.stage_ram.read_clock.next = self.clock.val();
        self.stage_ram.write_clock.next = self.clock.val();
        self.stage_ram.write_enable.next = self.stage_we.val() & !self.fd_on.q.val();
        self.stage_ram.write_address.next = self.addr.val();
        self.stage_ram.write_data.next = self.wdata.val();
        if !self.fd_on.q.val() & self.reg_we.val() {
            if self.hit_hdr.val() {
                self.rx_hdr.d.next = self.wdata.val();
            }
            if self.hit_bhi.val() {
                self.rx_bhi.d.next = self.wdata.val();
            }
            if self.hit_blo.val() {
                self.rx_blo.d.next = self.wdata.val();
            }
            if self.hit_len.val() {
                self.rx_len.d.next = self.wdata.val().get_bits::<16>(0);
            }
        }
        // beats = max(1, ⌈(len − 12)/4⌉), the last one `(len − 13) >> 2` for len > 12
        self.pl.next = self.rx_len.q.val() - 13;
        self.fd_next.next = self.fd_w.q.val();
        if self.fd_on.q.val() & self.in_ready.val() {
            self.fd_next.next = self.fd_w.q.val() + 1;
            self.fd_w.d.next = self.fd_w.q.val() + 1;
            self.fd_lst.d.next = (self.fd_w.q.val() + 1) == self.fd_lw.q.val();
            if self.fd_lst.q.val() {
                self.fd_on.d.next = false;
            }
        }
        if !self.fd_on.q.val() {
            self.fd_next.next = 0.into();
            if self.reg_we.val() & self.hit_push.val() {
                self.fd_on.d.next = true;
                self.fd_w.d.next = 0.into();
                self.fd_lw.d.next = 0.into();
                self.fd_lst.d.next = true;
                if self.rx_len.q.val() > 12 {
                    self.fd_lw.d.next = self.pl.val() >> 2;
                    self.fd_lst.d.next = (self.pl.val() >> 2) == 0;
                }
            }
        }
        self.stage_ram.read_address.next = bit_cast::<SA, 16>(self.fd_next.val());
        self.on.next = self.fd_on.q.val();
        self.in_valid.next = self.fd_on.q.val();
        self.in_last.next = self.fd_lst.q.val();
        self.in_data.next = self.stage_ram.read_data.val();
        self.hdr.next = self.rx_hdr.q.val();
        self.bitset_hi.next = self.rx_bhi.q.val();
        self.bitset_lo.next = self.rx_blo.q.val();
        self.len.next = self.rx_len.q.val();
    }
}

/// The geometry the NIC's tests use: a staging buffer of 2^4 words.
pub type TestRxFeeder = RxFeeder<4>;

crate::pin_io!(generic [const SA: usize] RxFeeder<SA>; in: stage_we, addr, wdata, reg_we, hit_hdr, hit_bhi, hit_blo, hit_len, hit_push, in_ready; out: on, in_valid, in_last, in_data, hdr, bitset_hi, bitset_lo, len);
