//! RTL of the decoder's message readout (CB-LT §6.6: a complete message is delivered as rows
//! 0..k−1 in order, truncated to MSG_SIZE bytes): the address walk over the row RAM and the
//! beats' byte counts, as two stages. The model is `receiver.rs`'s delivery; the decoder's
//! vectors and fuzz check it in place, `sim-tests/tests/cblt_components.rs` alone.

use crate::rtl_util::c;
use rust_hdl::prelude::*;

/// The readout of one message from a row RAM of 2^RA words, row q at word `q·2^SA`.
///
/// `start` begins it (row 0, word 0, `size` bytes in all); from the clock after, `active` is
/// high until the clock its last beat is taken (`done`). Each clock, `addr_next` is the word the
/// RAM should read at the edge that ends the clock (the owner loads it into the RAM's address
/// register while `active_next`), and the owner holds the RAM's output (its read enable low)
/// while `msg_ready` is low in `active`: the readout's stages advance only while `msg_ready` is
/// high, beat or not, so a sink must raise it without waiting for `msg_valid`. A beat
/// (`msg_valid`) is the RAM's word with `msg_bytes` valid bytes: WB for each word but a row's
/// last, which carries the constant `S − (⌈S/WB⌉ − 1)·WB`, and what is left in the message's
/// last (`msg_last`). `clear` stops it.
#[derive(LogicBlock)]
pub struct RowReadout<const RA: usize, const SA: usize> {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub size: Signal<In, Bits<19>>,
    pub msg_ready: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub active: Signal<Out, Bit>,
    pub active_next: Signal<Out, Bit>,
    pub addr_next: Signal<Out, Bits<RA>>,
    pub done: Signal<Out, Bit>,
    pub msg_valid: Signal<Out, Bit>,
    pub msg_bytes: Signal<Out, Bits<8>>,
    pub msg_last: Signal<Out, Bit>,
    last_word: Constant<Bits<SA>>,
    sa: Constant<Bits<RA>>,
    wb: Constant<Bits<19>>,
    /// Bytes in a row's last word.
    s_last: Constant<Bits<19>>,
    /// The readout is on, as a flip-flop of its own: its stages are enabled by one register.
    st_read: DFF<Bit>,
    // issue stage (ra_*) and output stage (ob_*, its word on the RAM's output, which holds it
    // while the output waits)
    ra_on: DFF<Bit>,
    ra_slot: DFF<Bits<6>>,
    ra_w: DFF<Bits<SA>>,
    ra_left: DFF<Bits<19>>,
    ob_on: DFF<Bit>,
    ob_bytes: DFF<Bits<8>>,
    ob_last: DFF<Bit>,
    hold: Signal<Local, Bit>,
    /// The issued word is its row's last; the bytes it carries if the message goes on (`nbr`);
    /// what is left fits it (`ra_fits`); the bytes it carries (`nb`).
    ra_lastw: Signal<Local, Bit>,
    na_slot: Signal<Local, Bits<6>>,
    na_w: Signal<Local, Bits<SA>>,
    ra_addr: Signal<Local, Bits<RA>>,
    na_addr: Signal<Local, Bits<RA>>,
    nbr: Signal<Local, Bits<19>>,
    ra_fits: Signal<Local, Bit>,
    nb: Signal<Local, Bits<8>>,
    ra_go_on: Signal<Local, Bit>,
    ra_go_left: Signal<Local, Bits<19>>,
    ra_go_w: Signal<Local, Bits<SA>>,
    ra_go_slot: Signal<Local, Bits<6>>,
}

impl<const RA: usize, const SA: usize> RowReadout<RA, SA> {
    /// The readout of rows of `s` bytes in words of `wb` bytes (`⌈s/wb⌉ ≤ 2^SA`).
    pub fn new(s: usize, wb: usize) -> Self {
        let wps = s.div_ceil(wb);
        assert!(wps >= 1 && wps <= 1 << SA && wb <= 128, "rows of {s} bytes in {wb}-byte words");
        RowReadout {
            clock: Default::default(),
            start: Default::default(),
            size: Default::default(),
            msg_ready: Default::default(),
            clear: Default::default(),
            active: Default::default(),
            active_next: Default::default(),
            addr_next: Default::default(),
            done: Default::default(),
            msg_valid: Default::default(),
            msg_bytes: Default::default(),
            msg_last: Default::default(),
            last_word: c(wps as u64 - 1),
            sa: c(SA as u64),
            wb: c(wb as u64),
            s_last: c((s - (wps - 1) * wb) as u64),
            st_read: Default::default(),
            ra_on: Default::default(),
            ra_slot: Default::default(),
            ra_w: Default::default(),
            ra_left: Default::default(),
            ob_on: Default::default(),
            ob_bytes: Default::default(),
            ob_last: Default::default(),
            hold: Default::default(),
            ra_lastw: Default::default(),
            na_slot: Default::default(),
            na_w: Default::default(),
            ra_addr: Default::default(),
            na_addr: Default::default(),
            nbr: Default::default(),
            ra_fits: Default::default(),
            nb: Default::default(),
            ra_go_on: Default::default(),
            ra_go_left: Default::default(),
            ra_go_w: Default::default(),
            ra_go_slot: Default::default(),
        }
    }
}

impl<const RA: usize, const SA: usize> Logic for RowReadout<RA, SA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st_read, ra_on, ra_slot, ra_w, ra_left, ob_on, ob_bytes, ob_last);
        // the hold is the ready pin itself, with no logic before the RAM's read enable and the
        // stages' clock enables
        self.hold.next = !self.msg_ready.val();
        // the message ends in this beat when what is left fits it (two compares with constants
        // side by side, not a subtract, two compares and two multiplexers in series)
        self.ra_lastw.next = self.ra_w.q.val() == self.last_word.val();
        // the next row and word if it advances, and the address now and then
        self.na_slot.next = self.ra_slot.q.val();
        self.na_w.next = self.ra_w.q.val() + 1;
        if self.ra_lastw.val() {
            self.na_slot.next = self.ra_slot.q.val() + 1;
            self.na_w.next = 0.into();
        }
        self.ra_addr.next = (bit_cast::<RA, 6>(self.ra_slot.q.val()) << self.sa.val()) | bit_cast::<RA, SA>(self.ra_w.q.val());
        self.na_addr.next = (bit_cast::<RA, 6>(self.na_slot.val()) << self.sa.val()) | bit_cast::<RA, SA>(self.na_w.val());
        self.nbr.next = self.wb.val();
        self.ra_fits.next = self.ra_left.q.val() <= self.wb.val();
        if self.ra_lastw.val() {
            self.nbr.next = self.s_last.val();
            self.ra_fits.next = self.ra_left.q.val() <= self.s_last.val();
        }
        self.nb.next = self.nbr.val().get_bits::<8>(0);
        if self.ra_fits.val() {
            self.nb.next = self.ra_left.q.val().get_bits::<8>(0);
        }
        // the next state when it advances, from registers alone; the hold then only enables the
        // registers (their clock enable), in series with nothing else
        self.ra_go_on.next = false;
        self.ra_go_left.next = self.ra_left.q.val();
        self.ra_go_w.next = self.ra_w.q.val();
        self.ra_go_slot.next = self.ra_slot.q.val();
        if self.ra_on.q.val() {
            self.ra_go_left.next = self.ra_left.q.val() - self.nbr.val();
            self.ra_go_on.next = !self.ra_fits.val();
            self.ra_go_w.next = self.na_w.val();
            self.ra_go_slot.next = self.na_slot.val();
        }
        if self.start.val() {
            self.ra_on.d.next = true;
            self.ra_slot.d.next = 0.into();
            self.ra_w.d.next = 0.into();
            self.ra_left.d.next = self.size.val();
            self.ob_on.d.next = false;
            self.st_read.d.next = true;
        }
        self.done.next = false;
        if self.st_read.q.val() {
            if !self.hold.val() {
                self.ob_on.d.next = self.ra_on.q.val();
                self.ob_bytes.d.next = self.nb.val();
                self.ob_last.d.next = self.ra_fits.val();
                self.ra_on.d.next = self.ra_go_on.val();
                self.ra_left.d.next = self.ra_go_left.val();
                self.ra_w.d.next = self.ra_go_w.val();
                self.ra_slot.d.next = self.ra_go_slot.val();
            }
            if self.ob_on.q.val() & self.ob_last.q.val() & self.msg_ready.val() {
                self.done.next = true;
                self.st_read.d.next = false;
            }
        }
        if self.clear.val() {
            self.ra_on.d.next = false;
            self.ob_on.d.next = false;
            self.st_read.d.next = false;
        }
        self.active.next = self.st_read.q.val();
        self.active_next.next = self.st_read.d.val();
        // row 0 word 0 as it starts; then the issued word, or the next one when it advances
        self.addr_next.next = 0.into();
        if self.st_read.q.val() {
            self.addr_next.next = self.ra_addr.val();
            if !self.hold.val() & self.ra_on.q.val() {
                self.addr_next.next = self.na_addr.val();
            }
        }
        self.msg_valid.next = self.ob_on.q.val();
        self.msg_bytes.next = self.ob_bytes.q.val();
        self.msg_last.next = self.ob_last.q.val();
    }
}

/// The instance the component's own test drives (`sim-tests/tests/cblt_components.rs`): rows of
/// 10 bytes in 4-byte words (three words, the last of 2 bytes), the readout's address register
/// and a RAM whose word is its own address, read and held as the decoder's row RAM is.
#[derive(LogicBlock)]
pub struct TestReadout {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub size: Signal<In, Bits<19>>,
    pub msg_ready: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    /// What the address register loads while the readout is off (the decoder's passes).
    pub other_addr: Signal<In, Bits<8>>,
    pub active: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    pub msg_valid: Signal<Out, Bit>,
    pub msg_data: Signal<Out, Bits<8>>,
    pub msg_bytes: Signal<Out, Bits<8>>,
    pub msg_last: Signal<Out, Bit>,
    ro: RowReadout<8, 2>,
    rd_a: DFF<Bits<8>>,
    ram_out: DFF<Bits<8>>,
}

impl Default for TestReadout {
    fn default() -> Self {
        TestReadout {
            clock: Default::default(),
            start: Default::default(),
            size: Default::default(),
            msg_ready: Default::default(),
            clear: Default::default(),
            other_addr: Default::default(),
            active: Default::default(),
            done: Default::default(),
            msg_valid: Default::default(),
            msg_data: Default::default(),
            msg_bytes: Default::default(),
            msg_last: Default::default(),
            ro: RowReadout::new(10, 4),
            rd_a: Default::default(),
            ram_out: Default::default(),
        }
    }
}

impl Logic for TestReadout {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rd_a, ram_out);
        clock!(self, clock, ro);
        self.ro.start.next = self.start.val();
        self.ro.size.next = self.size.val();
        self.ro.msg_ready.next = self.msg_ready.val();
        self.ro.clear.next = self.clear.val();
        self.rd_a.d.next = self.other_addr.val();
        if self.ro.active_next.val() {
            self.rd_a.d.next = self.ro.addr_next.val();
        }
        // the RAM: its word is its address, read at the edge unless held
        if self.msg_ready.val() | !self.ro.active.val() {
            self.ram_out.d.next = self.rd_a.q.val();
        }
        self.active.next = self.ro.active.val();
        self.done.next = self.ro.done.val();
        self.msg_valid.next = self.ro.msg_valid.val();
        self.msg_data.next = self.ram_out.q.val();
        self.msg_bytes.next = self.ro.msg_bytes.val();
        self.msg_last.next = self.ro.msg_last.val();
    }
}

crate::pin_io!(TestReadout; in: start, size, msg_ready, clear, other_addr; out: active, done, msg_valid, msg_data, msg_bytes, msg_last);
