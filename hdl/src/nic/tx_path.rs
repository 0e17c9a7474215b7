//! RTL of the NIC's transmit half: the CB-LT encoder and the TX symbol queue it fills, joined.
//! `NicTop` (`rtl.rs`) decodes the bus for it and reads its values into the register map; the
//! NIC's tests drive it through the bus (`sim-tests/tests/nic.rs`, `host-driver/tests/nic.rs`),
//! and each part it joins has its own test.

use rust_hdl::prelude::*;

use super::tx_queue::TxQueue;
use crate::cblt::encoder_rtl::LtEncoder;

/// The transmit half for symbols in slots of 2^SA words (`TA = SA + 2`: the queue's four slots),
/// messages of 2^MA words and masks of KM bits. Its inputs are the bus decode's strobes for its
/// registers:
/// - the encoder's register and message-buffer writes (`cfg_*`, `buf_*`), already registered by
///   the bus stage: they reach the encoder a clock after the bus write, in the order they came;
/// - `TX_POP` (`pop_we`) and CTRL's TX flush (`flush_we`) take effect a clock after their write,
///   and the queue's read address follows its head's next value, so a read in the next clock
///   still sees them;
/// - `rd_addr` is the bus word address, for the symbol window.
///
/// Its outputs are the values of its registers (`ENC_STATUS`, `ENC_SYMBOLS`, `ENC_REFUSED`,
/// `ENC_WRITES_REFUSED`, `ENC_DRAWS`), the symbol window's word and metadata, and `active`
/// (the encoder has a symbol to make and room for it).
#[derive(LogicBlock)]
pub struct NicTx<const MA: usize, const SA: usize, const TA: usize, const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, Bits<8>>,
    pub buf_we: Signal<In, Bit>,
    pub buf_addr: Signal<In, Bits<MA>>,
    pub wdata: Signal<In, Bits<32>>,
    pub pop_we: Signal<In, Bit>,
    pub flush_we: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<20>>,
    pub active: Signal<Out, Bit>,
    pub status: Signal<Out, Bits<32>>,
    pub symbols: Signal<Out, Bits<32>>,
    pub starts_refused: Signal<Out, Bits<32>>,
    pub writes_refused: Signal<Out, Bits<32>>,
    pub draws: Signal<Out, Bits<32>>,
    pub data: Signal<Out, Bits<32>>,
    pub meta: Signal<Out, Bits<32>>,
    enc: LtEncoder<32, MA, SA, KM>,
    txq: TxQueue<SA, TA>,
    /// The head symbol's index draws, kept as the queue takes it.
    draws_r: DFF<Bits<32>>,
    pop_r: DFF<Bit>,
    flush_r: DFF<Bit>,
    f_ebusy: Signal<Local, Bits<32>>,
}

impl<const MA: usize, const SA: usize, const TA: usize, const KM: usize> NicTx<MA, SA, TA, KM> {
    /// The transmit half for symbols of `s` bytes and messages of up to `k_max` symbols.
    pub fn new(s: usize, k_max: usize) -> Self {
        NicTx {
            clock: Default::default(),
            cfg_we: Default::default(),
            cfg_addr: Default::default(),
            buf_we: Default::default(),
            buf_addr: Default::default(),
            wdata: Default::default(),
            pop_we: Default::default(),
            flush_we: Default::default(),
            rd_addr: Default::default(),
            active: Default::default(),
            status: Default::default(),
            symbols: Default::default(),
            starts_refused: Default::default(),
            writes_refused: Default::default(),
            draws: Default::default(),
            data: Default::default(),
            meta: Default::default(),
            enc: LtEncoder::new(s, k_max),
            txq: Default::default(),
            draws_r: Default::default(),
            pop_r: Default::default(),
            flush_r: Default::default(),
            f_ebusy: Default::default(),
        }
    }
}

impl<const MA: usize, const SA: usize, const TA: usize, const KM: usize> Logic for NicTx<MA, SA, TA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, draws_r, pop_r, flush_r);
        clock!(self, clock, enc, txq);
        self.enc.cfg_we.next = self.cfg_we.val();
        self.enc.cfg_addr.next = self.cfg_addr.val();
        self.enc.cfg_wdata.next = self.wdata.val();
        self.enc.buf_we.next = self.buf_we.val();
        self.enc.buf_addr.next = self.buf_addr.val();
        self.enc.buf_wdata.next = self.wdata.val();

        // ---- TX queue: the encoder's beats into the tail slot, the host reads the head ----
        self.enc.out_ready.next = self.txq.ready.val();
        self.txq.beat_valid.next = self.enc.out_valid.val();
        self.txq.beat_first.next = self.enc.out_first.val();
        self.txq.beat_last.next = self.enc.out_last.val();
        self.txq.beat_data.next = self.enc.out_data.val();
        self.txq.hdr.next = self.enc.out_hdr.val();
        self.txq.bitset.next = self.enc.out_bitset.val();
        if self.txq.take.val() {
            self.draws_r.d.next = self.enc.out_draws.val();
        }
        self.pop_r.d.next = self.pop_we.val();
        self.flush_r.d.next = self.flush_we.val();
        self.txq.pop.next = self.pop_r.q.val();
        self.txq.flush.next = self.flush_r.q.val();
        self.txq.rd_addr.next = bit_cast::<SA, 20>(self.rd_addr.val());

        // ---- the values of its registers and window ----
        self.f_ebusy.next = 0.into();
        if self.enc.busy.val() {
            self.f_ebusy.next = 1.into();
        }
        self.active.next = self.enc.busy.val() & self.txq.ready.val();
        self.status.next = self.f_ebusy.val() | (bit_cast::<32, 3>(self.txq.count.val()) << 8);
        self.symbols.next = self.enc.symbols.val();
        self.starts_refused.next = self.enc.starts_refused.val();
        self.writes_refused.next = self.enc.cfg_rejected.val() + self.enc.buf_rejected.val();
        self.draws.next = self.draws_r.q.val();
        self.data.next = self.txq.data.val();
        self.meta.next = self.txq.meta.val();
    }
}
