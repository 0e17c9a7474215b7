//! RTL of the NIC's TX symbol queue: the encoder's coded symbols, whole, for the host to read
//! (`TX_SYMBOL` window, `TX_HDR`, `TX_BITSET_HI`, `TX_BITSET_LO`, `TX_POP`).

use rust_hdl::prelude::*;

use super::ring::SlotRing;
use crate::rtl_util::{c, BlockRam};

/// Four symbol slots of 2^SA words in block RAM (`TA = SA + 2`), each with its header word and
/// bitset in a small RAM beside it. A beat (`beat_valid` while `ready`) is written into the tail
/// slot at the beat's word, a register that the last beat clears (a first beat realigns it, a
/// flush clears it), so the producer's beat flags are off the RAMs' addresses; the header
/// (`hdr`) and the bitset are written with the first three beats, and the last beat pushes the
/// slot. `take` is the beat's write. A `pop` (when not empty) frees the head slot and `flush`
/// empties the queue, each in its clock. The host's read is at `rd_addr` in the head slot after
/// this clock's pop: its word on `data` and, by the address's low two bits (the registers' word
/// offsets), `TX_HDR`, `TX_BITSET_HI` or `TX_BITSET_LO` on `meta`, both in the next clock.
#[derive(LogicBlock)]
pub struct TxQueue<const SA: usize, const TA: usize> {
    pub clock: Signal<In, Clock>,
    pub beat_valid: Signal<In, Bit>,
    pub beat_first: Signal<In, Bit>,
    pub beat_last: Signal<In, Bit>,
    pub beat_data: Signal<In, Bits<32>>,
    pub hdr: Signal<In, Bits<32>>,
    pub bitset: Signal<In, Bits<64>>,
    pub pop: Signal<In, Bit>,
    pub flush: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<SA>>,
    pub ready: Signal<Out, Bit>,
    pub take: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<3>>,
    pub data: Signal<Out, Bits<32>>,
    pub meta: Signal<Out, Bits<32>>,
    sa_t: Constant<Bits<TA>>,
    /// The slots; `full` is a flip-flop, so the producer's ready is not a compare at the head of
    /// its stall path.
    ring: SlotRing,
    /// The beat's word in its symbol.
    w: DFF<Bits<SA>>,
    ram: BlockRam<32, TA>,
    /// Slot s's TX_HDR, TX_BITSET_HI, TX_BITSET_LO at words `4s + 0..3`.
    meta_ram: BlockRam<32, 4>,
    push: Signal<Local, Bit>,
}

impl<const SA: usize, const TA: usize> Default for TxQueue<SA, TA> {
    fn default() -> Self {
        assert!(TA == SA + 2 && SA >= 2, "TA = {TA} must be SA + 2, and a slot must hold the three meta words");
        TxQueue {
            clock: Default::default(),
            beat_valid: Default::default(),
            beat_first: Default::default(),
            beat_last: Default::default(),
            beat_data: Default::default(),
            hdr: Default::default(),
            bitset: Default::default(),
            pop: Default::default(),
            flush: Default::default(),
            rd_addr: Default::default(),
            ready: Default::default(),
            take: Default::default(),
            count: Default::default(),
            data: Default::default(),
            meta: Default::default(),
            sa_t: c(SA as u64),
            ring: Default::default(),
            w: Default::default(),
            ram: Default::default(),
            meta_ram: Default::default(),
            push: Default::default(),
        }
    }
}

impl<const SA: usize, const TA: usize> Logic for TxQueue<SA, TA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, w);
        self.ring.clock.next = self.clock.val();
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.meta_ram.read_clock.next = self.clock.val();
        self.meta_ram.write_clock.next = self.clock.val();
        self.ready.next = !self.ring.full.val();
        self.count.next = self.ring.count.val();
        self.take.next = self.beat_valid.val() & !self.ring.full.val();
        self.push.next = self.take.val() & self.beat_last.val();
        self.ram.write_enable.next = self.take.val();
        self.ram.write_address.next = (bit_cast::<TA, 2>(self.ring.tail.val()) << self.sa_t.val()) | bit_cast::<TA, SA>(self.w.q.val());
        self.ram.write_data.next = self.beat_data.val();
        if self.take.val() {
            self.w.d.next = self.w.q.val() + 1;
            if self.beat_first.val() {
                // a first beat realigns the count (it is 0 then, unless a flush cut a symbol)
                self.w.d.next = 1.into();
            }
        }
        if self.push.val() | self.flush.val() {
            self.w.d.next = 0.into();
        }
        self.meta_ram.write_enable.next = self.take.val() & (self.w.q.val() < 3);
        self.meta_ram.write_address.next = (bit_cast::<4, 2>(self.ring.tail.val()) << 2) | bit_cast::<4, SA>(self.w.q.val());
        self.meta_ram.write_data.next = self.hdr.val();
        if self.w.q.val() == 1 {
            self.meta_ram.write_data.next = self.bitset.val().get_bits::<32>(32);
        }
        if self.w.q.val() == 2 {
            self.meta_ram.write_data.next = self.bitset.val().get_bits::<32>(0);
        }
        self.ring.push.next = self.push.val();
        self.ring.pop.next = self.pop.val() & (self.ring.count.val() != 0);
        self.ring.clear.next = self.flush.val();
        self.meta_ram.read_address.next = (bit_cast::<4, 2>(self.ring.head_next.val()) << 2) | bit_cast::<4, SA>(self.rd_addr.val() & 3);
        self.ram.read_address.next = (bit_cast::<TA, 2>(self.ring.head_next.val()) << self.sa_t.val()) | bit_cast::<TA, SA>(self.rd_addr.val());
        self.data.next = self.ram.read_data.val();
        self.meta.next = self.meta_ram.read_data.val();
    }
}

/// The geometry the NIC's tests use: slots of 2^4 words.
pub type TestTxQueue = TxQueue<4, 6>;

crate::pin_io!(generic [const SA: usize, const TA: usize] TxQueue<SA, TA>; in: beat_valid, beat_first, beat_last, beat_data, hdr, bitset, pop, flush, rd_addr; out: ready, take, count, data, meta);
