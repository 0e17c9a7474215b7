//! RTL of the CB-LT encoder (CB-LT §6.4, §6.5, §7.2); the golden model is
//! `encoder.rs`, the host interface `encoder_csr.rs`.
//!
//! `LtEncoder<W, MA, SA, KM>`: a W-bit data path, a message buffer of 2^MA words in block RAM
//! (symbol i at word `i·2^SA`), source masks of KM ≥ K_MAX bits, S and K_MAX given to
//! [`LtEncoder::new`]. Its parts, each a component with its own test (`cblt_components`):
//!
//! * **`EncoderCfg`** (`encoder_cfg_rtl`): the registers, their range checks, and the start's
//!   check `K = ⌈MSG_SIZE/S⌉` by summing S k times.
//! * **`MaskGen`** (`maskgen_rtl`), at most one xorshift32 draw per clock: the degree draw
//!   latches `u` and scans `T[1..k−1]` in the table RAM to the first `u < T[j]` (else `d = k`,
//!   all-ones, no more draws); then top-`w`-bit index draws, one per clock, rejecting `≥ k` and
//!   duplicates, until `d` bits are set.
//! * **`MaskFifo`** (`mask_fifo_rtl`): two masks between the generator and the payload engine
//!   (§6.4: mask generation decoupled from the payload XOR).
//! * **`SymbolXor`** (`symbol_xor_rtl`), the payload engine, one buffer word per clock in two
//!   stages: A walks the mask's sources lowest first and word by word and reads the buffer and
//!   the accumulator RAM; B XORs and writes the accumulator back, or, in the pass over the last
//!   source, sends the word out. A symbol of degree d takes exactly `d·⌈S/WB⌉` clocks and
//!   consecutive symbols follow with no gap.
//!
//! Output: one beat per word of the symbol's last pass (`out_valid`, `out_first`, `out_last`,
//! `out_data`), the packed header word W0 (`out_hdr`) and the bitset (`out_bitset`) alongside,
//! as stream metadata; the NIC frames them (§6.3). `out_ready` low holds the beat. `out_draws`
//! is the message's PRNG draw count up to this symbol, valid with its beats (tests check §9's
//! draws with it). The count and the bitset wait in block-RAM rings while their symbol is in
//! flight; the payload stages carry neither.

use crate::rtl_util::{BlockRam, SatCounter};
use rust_hdl::prelude::*;

use super::encoder_cfg_rtl::EncoderCfg;
use super::mask_fifo_rtl::MaskFifo;
use super::maskgen_rtl::MaskGen;
use super::symbol_xor_rtl::SymbolXor;

#[derive(LogicBlock)]
pub struct LtEncoder<const W: usize, const MA: usize, const SA: usize, const KM: usize> {
    pub clock: Signal<In, Clock>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, Bits<8>>,
    pub cfg_wdata: Signal<In, Bits<32>>,
    pub buf_we: Signal<In, Bit>,
    pub buf_addr: Signal<In, Bits<MA>>,
    pub buf_wdata: Signal<In, Bits<W>>,
    pub out_ready: Signal<In, Bit>,
    pub out_valid: Signal<Out, Bit>,
    pub out_first: Signal<Out, Bit>,
    pub out_last: Signal<Out, Bit>,
    pub out_data: Signal<Out, Bits<W>>,
    pub out_hdr: Signal<Out, Bits<32>>,
    pub out_bitset: Signal<Out, Bits<64>>,
    pub out_draws: Signal<Out, Bits<32>>,
    pub busy: Signal<Out, Bit>,
    pub symbols: Signal<Out, Bits<32>>,
    pub cfg_rejected: Signal<Out, Bits<32>>,
    pub buf_rejected: Signal<Out, Bits<32>>,
    pub starts_refused: Signal<Out, Bits<32>>,
    /// The registers and the start's check.
    cfg: EncoderCfg,
    /// The mask generator, the FIFO it fills, and the payload engine that empties it.
    masks: MaskGen<KM>,
    fifo: MaskFifo<KM>,
    payload: SymbolXor<W, MA, SA, KM>,
    /// The draw count of each mask pushed, by the push's number mod 16, read back as its symbol
    /// goes out (`out_ptr`): the count rides beside the symbol in block RAM, not in the FIFO and
    /// the payload stages. At most four symbols are in flight (two in the FIFO, two in the
    /// payload stages).
    draw_ring: BlockRam<32, 4>,
    /// Each pushed mask, written and read beside its draw count in `draw_ring`: the symbol's
    /// `out_bitset` (the payload stages carry no bitset).
    mask_ring: BlockRam<KM, 4>,
    /// Symbols sent since the start, mod 16: the ring slot of the symbol on the output.
    out_ptr: DFF<Bits<4>>,
    out_ptr_next: Signal<Local, Bits<4>>,
    /// A buffer write, applied a clock after it is checked (the write enable reaches every
    /// block of the buffer from one flip-flop). The buffer is read clocks after a start's
    /// setup begins, by when a write accepted before the start has landed.
    bw_en: DFF<Bit>,
    bw_addr: DFF<Bits<MA>>,
    bw_data: DFF<Bits<W>>,
    sym_cnt: SatCounter,
    cfg_rej: SatCounter,
    buf_rej: SatCounter,
    start_ref: SatCounter,
    /// Busy (mask generator, FIFO, payload stages on) as a flip-flop, set from the parts' state
    /// and the start's decision (see its update): with the setup (`cfg.busy_now`), the start
    /// check and the writes' refusals read flip-flops, which the message RAM's write enable, a
    /// net to every RAM block, needs.
    busy_r: DFF<Bit>,
    km1: Signal<Local, Bits<7>>,
}

impl<const W: usize, const MA: usize, const SA: usize, const KM: usize> LtEncoder<W, MA, SA, KM> {
    /// An encoder for symbols of `s` bytes and messages of up to `k_max` (≤ 64) symbols.
    /// Panics when the buffer cannot hold them: `⌈S/(W/8)⌉ ≤ 2^SA` and `k_max·2^SA ≤ 2^MA`.
    pub fn new(s: usize, k_max: usize) -> Self {
        let wb = W / 8;
        assert!(W.is_multiple_of(8) && W >= 8, "W = {W} must be a whole number of bytes");
        assert!((1..=super::S_MAX).contains(&s) && (1..=super::K_MAX).contains(&k_max));
        assert!(k_max <= KM && KM <= super::K_MAX, "k_max = {k_max} needs masks of KM ≥ k_max bits (KM = {KM}, at most 64)");
        let wps = super::encoder_csr::words_per_symbol(s, wb);
        assert!(SA >= 1 && wps <= 1 << SA, "S = {s} at W = {W} needs {wps} words per symbol: SA = {SA} is too small");
        assert!(k_max << SA <= 1 << MA, "{k_max} symbols of 2^{SA} words do not fit 2^{MA} words (MA)");
        LtEncoder {
            clock: Default::default(),
            cfg_we: Default::default(),
            cfg_addr: Default::default(),
            cfg_wdata: Default::default(),
            buf_we: Default::default(),
            buf_addr: Default::default(),
            buf_wdata: Default::default(),
            out_ready: Default::default(),
            out_valid: Default::default(),
            out_first: Default::default(),
            out_last: Default::default(),
            out_data: Default::default(),
            out_hdr: Default::default(),
            out_bitset: Default::default(),
            out_draws: Default::default(),
            busy: Default::default(),
            symbols: Default::default(),
            cfg_rejected: Default::default(),
            buf_rejected: Default::default(),
            starts_refused: Default::default(),
            cfg: EncoderCfg::new(s, k_max),
            masks: MaskGen::new(k_max),
            fifo: Default::default(),
            payload: SymbolXor::new(wps),
            draw_ring: Default::default(),
            mask_ring: Default::default(),
            out_ptr: Default::default(),
            out_ptr_next: Default::default(),
            bw_en: Default::default(),
            bw_addr: Default::default(),
            bw_data: Default::default(),
            sym_cnt: Default::default(),
            cfg_rej: Default::default(),
            buf_rej: Default::default(),
            start_ref: Default::default(),
            busy_r: Default::default(),
            km1: Default::default(),
        }
    }
}

impl<const W: usize, const MA: usize, const SA: usize, const KM: usize> Logic for LtEncoder<W, MA, SA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy_r, bw_en, bw_addr, bw_data, out_ptr);
        self.cfg.clock.next = self.clock.val();
        self.masks.clock.next = self.clock.val();
        self.fifo.clock.next = self.clock.val();
        self.payload.clock.next = self.clock.val();
        self.draw_ring.read_clock.next = self.clock.val();
        self.draw_ring.write_clock.next = self.clock.val();
        self.mask_ring.read_clock.next = self.clock.val();
        self.mask_ring.write_clock.next = self.clock.val();
        self.sym_cnt.clock.next = self.clock.val();
        self.cfg_rej.clock.next = self.clock.val();
        self.buf_rej.clock.next = self.clock.val();
        self.start_ref.clock.next = self.clock.val();
        self.cfg_rej.load.next = false;
        self.cfg_rej.load_val.next = 0.into();
        self.buf_rej.load.next = false;
        self.buf_rej.load_val.next = 0.into();
        self.start_ref.load.next = false;
        self.start_ref.load_val.next = 0.into();
        self.sym_cnt.load_val.next = 0.into();
        self.symbols.next = self.sym_cnt.value.val();
        self.cfg_rejected.next = self.cfg_rej.value.val();
        self.buf_rejected.next = self.buf_rej.value.val();
        self.starts_refused.next = self.start_ref.value.val();

        // ---- configuration writes and the start (`EncoderCfg`) ----
        self.cfg.cfg_we.next = self.cfg_we.val();
        self.cfg.cfg_addr.next = self.cfg_addr.val();
        self.cfg.cfg_wdata.next = self.cfg_wdata.val();
        self.cfg.busy.next = self.busy_r.q.val();
        self.busy.next = self.cfg.busy_now.val();
        self.cfg_rej.inc.next = self.cfg.rejected.val();
        self.start_ref.inc.next = self.cfg.refused.val();
        self.km1.next = self.cfg.k.val() - 1;
        self.out_hdr.next = (bit_cast::<32, 7>(self.km1.val()) << 26)
            | (bit_cast::<32, 19>(self.cfg.msg_size.val()) << 8)
            | bit_cast::<32, 8>(self.cfg.msg_id.val());

        // ---- mask generator (§6.4) into the mask FIFO ----
        self.masks.k.next = self.cfg.k.val();
        self.masks.seed.next = self.cfg.seed.val();
        self.masks.limit.next = self.cfg.limit.val();
        self.masks.load_seed.next = self.cfg.setup.val();
        self.masks.start.next = self.cfg.start.val();
        self.masks.stop.next = self.cfg.stop.val();
        self.masks.room.next = self.fifo.room.val();
        self.masks.tbl_we.next = self.cfg.tbl_we.val();
        self.masks.tbl_addr.next = self.cfg.tbl_addr.val();
        self.masks.tbl_data.next = self.cfg.tbl_data.val();
        self.fifo.push.next = self.masks.push.val();
        self.fifo.mask.next = self.masks.mask.val();
        self.fifo.pop.next = self.payload.pop.val();
        self.fifo.clear.next = self.cfg.stop.val();

        // ---- payload engine (§6.5) ----
        self.payload.head.next = self.fifo.head.val();
        self.payload.head_v.next = self.fifo.head_v.val();
        self.payload.head_new.next = self.fifo.head_new.val();
        self.payload.out_ready.next = self.out_ready.val();
        self.out_valid.next = self.payload.out_valid.val();
        self.out_first.next = self.payload.out_first.val();
        self.out_last.next = self.payload.out_last.val();
        self.out_data.next = self.payload.out_data.val();
        self.out_bitset.next = bit_cast::<64, KM>(self.mask_ring.read_data.val());
        self.out_draws.next = self.draw_ring.read_data.val();
        self.sym_cnt.inc.next = self.payload.out_last.val() & self.out_ready.val();
        self.sym_cnt.load.next = self.cfg.start.val();

        // ---- message buffer writes (refused while encoding) ----
        self.bw_en.d.next = self.buf_we.val() & !self.cfg.busy_now.val();
        self.bw_addr.d.next = self.buf_addr.val();
        self.bw_data.d.next = self.buf_wdata.val();
        self.payload.buf_we.next = self.bw_en.q.val();
        self.payload.buf_addr.next = self.bw_addr.q.val();
        self.payload.buf_data.next = self.bw_data.q.val();
        self.buf_rej.inc.next = self.buf_we.val() & self.cfg.busy_now.val();

        // ---- the rings: a push writes its mask and count, the output reads its symbol's ----
        // The rings are read every clock at the slot of the symbol on the output next clock. A
        // push to that slot in the same clock is the symbol itself, pushed three or more clocks
        // before its first beat, so the word read then (undefined) is read again in time.
        self.out_ptr_next.next = self.out_ptr.q.val();
        if self.sym_cnt.inc.val() {
            self.out_ptr_next.next = self.out_ptr.q.val() + 1;
        }
        if self.cfg.start.val() {
            self.out_ptr_next.next = 0.into();
        }
        self.out_ptr.d.next = self.out_ptr_next.val();
        self.draw_ring.write_enable.next = self.masks.push.val();
        self.draw_ring.write_address.next = self.masks.slot.val();
        self.draw_ring.write_data.next = self.masks.draws.val();
        self.draw_ring.read_address.next = self.out_ptr_next.val();
        self.mask_ring.write_enable.next = self.masks.push.val();
        self.mask_ring.write_address.next = self.masks.slot.val();
        self.mask_ring.write_data.next = self.masks.mask.val();
        self.mask_ring.read_address.next = self.out_ptr_next.val();

        // busy next clock, but for the setup (`cfg.busy_now` adds it): the generator, FIFO or
        // payload stages on then. Each part that can turn off hands its work on, so the OR of
        // their next values is, from flip-flops: a start (the generator turns on); the generator
        // on and no stop (a push at the limit fills the FIFO); a mask in the FIFO (a stop empties
        // it, but its head goes to the payload stages, or they hold); stage A on (its word goes
        // to B, or B holds); B held. The start's decision reaches the setup alone.
        self.busy_r.d.next = (!self.cfg.stop.val() & (self.cfg.start.val() | self.masks.on.val()))
            | self.fifo.any.val()
            | self.payload.active.val()
            | self.payload.hold.val();
    }
}
