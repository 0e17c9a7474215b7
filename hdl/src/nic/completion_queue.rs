//! RTL of the NIC's completion queue: the decoder's message records (`CQ_HEAD` ..
//! `CQ_INVALID`, `CQ_POP`), four deep.

use rust_hdl::prelude::*;

use super::ring::SlotRing;
use crate::rtl_util::BlockRam;

/// Four record slots of eight words in block RAM. A record is taken from the decoder one word
/// per clock, in the registers' order (`CQ_HEAD`: valid, failed, rank; then the header, the
/// known mask's low and high words, the seen, redundant and invalid counts), into the tail slot;
/// its seventh word pushes the slot. `rec_ready` (the decoder takes it only while it holds a
/// record) comes from the queue's registers alone, so no path runs into the queue and back. A
/// `pop` (when not empty) frees the head slot and `clear` empties the queue. The host's read is
/// word `rd_word` of the head slot after this clock's pop, on `rdata` in the next clock.
#[derive(LogicBlock, Default)]
pub struct CompletionQueue {
    pub clock: Signal<In, Clock>,
    pub rec_valid: Signal<In, Bit>,
    pub rec_failed: Signal<In, Bit>,
    pub rec_rank: Signal<In, Bits<7>>,
    pub rec_hdr: Signal<In, Bits<32>>,
    pub rec_known: Signal<In, Bits<64>>,
    pub rec_seen: Signal<In, Bits<32>>,
    pub rec_redundant: Signal<In, Bits<32>>,
    pub rec_invalid: Signal<In, Bits<32>>,
    pub pop: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub rd_word: Signal<In, Bits<3>>,
    pub rec_ready: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<3>>,
    pub full: Signal<Out, Bit>,
    pub rdata: Signal<Out, Bits<32>>,
    ring: SlotRing,
    /// Record r's word w at `8r + w`.
    ram: BlockRam<32, 5>,
    /// The record word written this clock.
    wf: DFF<Bits<3>>,
    word: Signal<Local, Bits<32>>,
    push: Signal<Local, Bit>,
}

impl Logic for CompletionQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wf);
        self.ring.clock.next = self.clock.val();
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.count.next = self.ring.count.val();
        self.full.next = self.ring.full.val();
        self.word.next = 1.into();
        if self.rec_failed.val() {
            self.word.next = 3.into();
        }
        self.word.next = self.word.val() | (bit_cast::<32, 7>(self.rec_rank.val()) << 8);
        match self.wf.q.val().index() {
            1 => self.word.next = self.rec_hdr.val(),
            2 => self.word.next = self.rec_known.val().get_bits::<32>(0),
            3 => self.word.next = self.rec_known.val().get_bits::<32>(32),
            4 => self.word.next = self.rec_seen.val(),
            5 => self.word.next = self.rec_redundant.val(),
            6 => self.word.next = self.rec_invalid.val(),
            _ => {}
        }
        self.ram.write_enable.next = self.rec_valid.val() & !self.ring.full.val();
        self.ram.write_address.next = (bit_cast::<5, 2>(self.ring.tail.val()) << 3) | bit_cast::<5, 3>(self.wf.q.val());
        self.ram.write_data.next = self.word.val();
        if self.ram.write_enable.val() {
            self.wf.d.next = self.wf.q.val() + 1;
        }
        self.push.next = self.ram.write_enable.val() & (self.wf.q.val() == 6);
        self.rec_ready.next = !self.ring.full.val() & (self.wf.q.val() == 6);
        if self.push.val() | self.clear.val() {
            self.wf.d.next = 0.into();
        }
        self.ring.push.next = self.push.val();
        self.ring.pop.next = self.pop.val() & (self.ring.count.val() != 0);
        self.ring.clear.next = self.clear.val();
        self.ram.read_address.next = (bit_cast::<5, 2>(self.ring.head_next.val()) << 3) | bit_cast::<5, 3>(self.rd_word.val());
        self.rdata.next = self.ram.read_data.val();
    }
}

crate::pin_io!(CompletionQueue; in: rec_valid, rec_failed, rec_rank, rec_hdr, rec_known, rec_seen, rec_redundant, rec_invalid, pop, clear, rd_word; out: rec_ready, count, full, rdata);
