//! RTL of the NIC's RX message buffer: the decoder's delivered message, row by row, for the host
//! to read (`RX_MESSAGE` window, `RX_MSG_BYTES`, `RX_MSG_ACK`).

use rust_hdl::prelude::*;

use crate::rtl_util::{c, BlockRam};

/// Takes the decoder's message beats (`msg_valid`, `msg_data`, `msg_bytes`, `msg_last`) while
/// not `full`, row i's word w at `i·2^SA + w` of a 2^MA-word RAM (rows of `words` words), and
/// counts the bytes (`bytes`). The last beat sets `full`, which holds the decoder off
/// (`msg_ready`) until `free` (the host's acknowledgement, or a clear) empties the buffer. A
/// beat is written a clock after it is taken, from registers (the RAM's blocks at S = 1460 are
/// far apart); the host reads the window (`rd_addr`, its word on `rdata` in the next clock) only
/// after `full`, later still.
#[derive(LogicBlock)]
pub struct MsgCapture<const MA: usize, const SA: usize> {
    pub clock: Signal<In, Clock>,
    pub msg_valid: Signal<In, Bit>,
    pub msg_data: Signal<In, Bits<32>>,
    pub msg_bytes: Signal<In, Bits<8>>,
    pub msg_last: Signal<In, Bit>,
    pub free: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<MA>>,
    pub msg_ready: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    pub bytes: Signal<Out, Bits<32>>,
    pub rdata: Signal<Out, Bits<32>>,
    sa: Constant<Bits<MA>>,
    last_word: Constant<Bits<SA>>,
    ram: BlockRam<32, MA>,
    m_full: DFF<Bit>,
    m_row: DFF<Bits<6>>,
    m_w: DFF<Bits<SA>>,
    m_bytes: DFF<Bits<32>>,
    mw_en: DFF<Bit>,
    mw_addr: DFF<Bits<MA>>,
    mw_data: DFF<Bits<32>>,
    take: Signal<Local, Bit>,
}

impl<const MA: usize, const SA: usize> MsgCapture<MA, SA> {
    /// Rows of `words` (≤ 2^SA) words.
    pub fn new(words: usize) -> Self {
        assert!((1..=1 << SA).contains(&words) && SA <= MA);
        MsgCapture {
            clock: Default::default(),
            msg_valid: Default::default(),
            msg_data: Default::default(),
            msg_bytes: Default::default(),
            msg_last: Default::default(),
            free: Default::default(),
            rd_addr: Default::default(),
            msg_ready: Default::default(),
            full: Default::default(),
            bytes: Default::default(),
            rdata: Default::default(),
            sa: c(SA as u64),
            last_word: c(words as u64 - 1),
            ram: Default::default(),
            m_full: Default::default(),
            m_row: Default::default(),
            m_w: Default::default(),
            m_bytes: Default::default(),
            mw_en: Default::default(),
            mw_addr: Default::default(),
            mw_data: Default::default(),
            take: Default::default(),
        }
    }
}

impl<const MA: usize, const SA: usize> Logic for MsgCapture<MA, SA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, m_full, m_row, m_w, m_bytes, mw_en, mw_addr, mw_data);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.msg_ready.next = !self.m_full.q.val();
        self.full.next = self.m_full.q.val();
        self.bytes.next = self.m_bytes.q.val();
        self.take.next = self.msg_valid.val() & !self.m_full.q.val();
        self.mw_en.d.next = self.take.val();
        self.mw_addr.d.next = (bit_cast::<MA, 6>(self.m_row.q.val()) << self.sa.val()) | bit_cast::<MA, SA>(self.m_w.q.val());
        self.mw_data.d.next = self.msg_data.val();
        self.ram.write_enable.next = self.mw_en.q.val();
        self.ram.write_address.next = self.mw_addr.q.val();
        self.ram.write_data.next = self.mw_data.q.val();
        self.ram.read_address.next = self.rd_addr.val();
        self.rdata.next = self.ram.read_data.val();
        if self.take.val() {
            self.m_bytes.d.next = self.m_bytes.q.val() + bit_cast::<32, 8>(self.msg_bytes.val());
            self.m_w.d.next = self.m_w.q.val() + 1;
            if self.m_w.q.val() == self.last_word.val() {
                self.m_w.d.next = 0.into();
                self.m_row.d.next = self.m_row.q.val() + 1;
            }
            if self.msg_last.val() {
                self.m_full.d.next = true;
                self.m_w.d.next = 0.into();
                self.m_row.d.next = 0.into();
            }
        }
        if self.free.val() {
            self.m_full.d.next = false;
            self.m_bytes.d.next = 0.into();
            self.m_w.d.next = 0.into();
            self.m_row.d.next = 0.into();
        }
    }
}

/// The geometry the NIC's tests use: 64 rows of 3 words in slots of 2^2.
pub fn test_msg_capture() -> MsgCapture<8, 2> {
    MsgCapture::new(3)
}

crate::pin_io!(generic [const MA: usize, const SA: usize] MsgCapture<MA, SA>; in: msg_valid, msg_data, msg_bytes, msg_last, free, rd_addr; out: msg_ready, full, bytes, rdata);
