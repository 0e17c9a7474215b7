//! RTL of the CB-LT encoder (CB-LT §6.4, §6.5, §7.2); the golden model is
//! `encoder.rs`, the host interface `encoder_csr.rs`.
//!
//! `LtEncoder<W, MA, SA, KM>`: a W-bit data path, a message buffer of 2^MA words in block RAM
//! (symbol i at word `i·2^SA`), source masks of KM ≥ K_MAX bits, S and K_MAX given to
//! [`LtEncoder::new`]. Two engines joined by
//! a two-entry mask FIFO (§6.4: decouple mask generation from the payload XOR):
//!
//! * **Mask generator**, at most one xorshift32 draw per clock: the degree draw latches `u` and
//!   scans `T[1..k−1]` in the table RAM, one entry per clock with the RAM's output registered
//!   before the compare, to the first `u < T[j]` (else
//!   `d = k`, all-ones, no more draws); then top-`w`-bit index draws, one per clock, rejecting
//!   `≥ k` and duplicates, until `d` bits are set.
//! * **Payload engine**, one buffer word per clock, two stages. Stage A walks the mask's
//!   sources lowest first and word by word and reads the buffer and the accumulator RAM; stage
//!   B XORs and writes the accumulator back, or, in the pass over the last source, sends the
//!   word out. A symbol of degree d takes exactly `d·⌈S/WB⌉` clocks and consecutive symbols
//!   follow with no gap. When B writes the accumulator word A reads in the same clock (one word
//!   per symbol), the write data is forwarded.
//!
//! Output: one beat per word of the symbol's last pass (`out_valid`, `out_first`, `out_last`,
//! `out_data`), the packed header word W0 (`out_hdr`) and the bitset (`out_bitset`) alongside,
//! as stream metadata; the NIC frames them (§6.3). `out_ready` low holds the beat. `out_draws`
//! is the message's PRNG draw count up to this symbol, valid with its beats (tests check §9's
//! draws with it). The count and the bitset wait in block-RAM rings while their symbol is in
//! flight; the payload stages carry neither.

use crate::rtl_util::{before_last_word, c, BlockRam, BlockRamRe, LowestOne, SatCounter};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

use super::encoder_csr::csr;
use super::table::DegreeTable;

// `update` decodes the register map's addresses (`encoder_csr::csr`) as literals (rust-hdl's
// `#[hdl_gen]` takes no paths), and the table's span by its bits (64 ..= 127).
const _: () = assert!(
    csr::CTRL == 0 && csr::K == 1 && csr::MSG_SIZE == 2 && csr::MSG_ID == 3 && csr::SEED == 4
        && csr::SYMBOL_LIMIT == 5 && csr::TABLE == 64 && csr::CTRL_START == 1 && csr::CTRL_STOP == 2
);

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
    // parameters
    s_bytes: Constant<Bits<19>>,
    max_msg: Constant<Bits<19>>,
    k_max: Constant<Bits<7>>,
    /// The word before a symbol's last (all ones with one-word symbols, which `a_w` never
    /// reaches): the next word is the last.
    last_word_m1: Constant<Bits<SA>>,
    one_word: Constant<Bit>,
    sa: Constant<Bits<MA>>,
    /// KM as a 7-bit value (masks are KM bits wide: source j is bit j).
    km: Constant<Bits<7>>,
    one_m: Constant<Bits<KM>>,
    ones_m: Constant<Bits<KM>>,
    // configuration
    /// The start's checks on the configuration, kept as flags set by the writes: K ≤ k_max,
    /// MSG_SIZE in 1 ..= k_max·S, SEED ≠ 0 (the start decides from flip-flops, not compares).
    k_ok: DFFWithInit<Bit>,
    size_ok: DFFWithInit<Bit>,
    seed_ok: DFFWithInit<Bit>,
    k_reg: DFFWithInit<Bits<7>>,
    msg_size: DFFWithInit<Bits<19>>,
    msg_id: DFF<Bits<8>>,
    seed: DFFWithInit<Bits<32>>,
    limit: DFF<Bits<32>>,
    /// The degree table in block RAM: `T[j]` at address j (entry 0 unused), read one entry per
    /// clock by the degree scan.
    deg_table: BlockRam<17, 6>,
    // start check: k·S by repeated addition
    setup: DFF<Bit>,
    setup_n: DFF<Bits<7>>,
    setup_acc: DFF<Bits<19>>,
    /// The start check's compares, registered: `st_fit` is whether MSG_SIZE fits the k·S that
    /// `setup_acc` held a clock ago, and `st_end` that the sum had reached k then (the decision
    /// is a clock after the sum, with no compare in series with the start).
    st_fit: DFF<Bit>,
    st_end: DFF<Bit>,
    // mask generator
    mg_on: DFF<Bit>,
    mg_index: DFF<Bit>,
    /// Degree scan: `u` of this symbol's degree draw, and the entry whose `T[j]` the table
    /// RAM returns this clock.
    mg_scan: DFF<Bit>,
    mg_u: DFF<Bits<17>>,
    mg_j: DFF<Bits<7>>,
    /// The scan's compare stage: entry `sc_j` taken from the table RAM's output (`sc_v`: it
    /// holds one), compared as it is taken: `sc_hit` is u < T[sc_j], `sc_end` is sc_j = k − 1,
    /// the last entry. The scan decides from these flip-flops while the RAM reads the next
    /// entry, so it still takes one entry per clock, one clock longer in all.
    sc_hit: DFF<Bit>,
    sc_end: DFF<Bit>,
    sc_j: DFF<Bits<7>>,
    sc_v: DFF<Bit>,
    /// The PRNG's next output, xorshift32 of its state (the codec's `prng`), kept in place of
    /// the state: a draw reads a register, and the next xorshift is computed off the draw's path.
    nx: DFF<Bits<32>>,
    /// The top six bits of `nx`'s xorshift (those an index draw takes), kept beside `nx`: a
    /// draw's next index comes from a register, not through a xorshift. Made from `nx` as it
    /// will be (its xorshift once or twice); after a start it is stale for two clocks, within
    /// the setup (`nx` takes the seed in the setup's first clock).
    nx_t6: DFF<Bits<6>>,
    /// The index `nx` draws as a one-hot (0 past KM) and whether it is below k: the draw's
    /// shifts and compare are made as `nx` is, a clock ahead of the acceptance test. They use k
    /// as it is now: k is written only while idle, and the first index draw comes clocks after
    /// the start's setup and the degree scan, by when both are current.
    nx_oh: DFF<Bits<KM>>,
    nx_lt: DFF<Bit>,
    /// The index in `nx_oh` is already in the mask (`mg_mask & nx_oh` is not empty), made from
    /// both as they will be: the duplicate test is a flip-flop when the draw reads it.
    nx_dup: DFF<Bit>,
    /// The index the draw takes if the PRNG holds (`ix_hold`, from `nx`) and if it steps
    /// (`ix_step`, from `nx_t6`), each with its bound against k, registered from `nx` and
    /// `nx_t6` as they will be: the step selects one (`idx`) just before the one-hot.
    ix_hold: DFF<Bits<6>>,
    ix_step: DFF<Bits<6>>,
    lt_hold: DFF<Bit>,
    lt_step: DFF<Bit>,
    /// The next accepted index is the last the degree needs (`mg_have + 1 == mg_need`).
    mg_last: DFF<Bit>,
    /// Derived from K while idle (K is written only then, and a start takes at least one setup
    /// clock): the index draw's shift and the all-ones mask of k bits.
    idx_sh_r: DFF<Bits<3>>,
    full_r: DFF<Bits<KM>>,
    mg_mask: DFF<Bits<KM>>,
    mg_need: DFF<Bits<7>>,
    mg_have: DFF<Bits<7>>,
    mg_draws: DFF<Bits<32>>,
    mg_count: DFF<Bits<32>>,
    /// The mask FIFO: two entries in a ring. A push writes the entry at `f_wp`, a pop frees
    /// the one at `f_rp` (the head); an entry's enable is the push's alone, so the output's
    /// hold, which gates the pop, reaches three flip-flops and not the masks.
    f_v0: DFF<Bit>,
    f_v1: DFF<Bit>,
    f_m0: DFF<Bits<KM>>,
    f_m1: DFF<Bits<KM>>,
    f_wp: DFF<Bit>,
    f_rp: DFF<Bit>,
    /// The draw count of each mask pushed, by `mg_count` mod 16, read back as its symbol goes
    /// out (`out_ptr`): the count rides beside the symbol in block RAM, not in the FIFO and the
    /// payload stages. At most four symbols are in flight (two in the FIFO, stages A and B).
    draw_ring: BlockRam<32, 4>,
    /// Each pushed mask, written and read beside its draw count in `draw_ring`: the symbol's
    /// `out_bitset` (the payload stages carry no bitset).
    mask_ring: BlockRam<KM, 4>,
    /// Symbols sent since the start, mod 16: the ring slot of the symbol on the output.
    out_ptr: DFF<Bits<4>>,
    out_ptr_next: Signal<Local, Bits<4>>,
    // payload stage A (read) and B (XOR / write back / send)
    a_on: DFF<Bit>,
    a_i: DFF<Bits<6>>,
    a_w: DFF<Bits<SA>>,
    /// `a_w` is the symbol's last word, kept beside it (stage A's branches read a flip-flop).
    a_lastw: DFF<Bit>,
    a_rem: DFF<Bits<KM>>,
    /// `a_rem` is not empty, kept beside it (the pass's end reads a flip-flop, not a 64-input OR).
    a_more: DFF<Bit>,
    a_first: DFF<Bit>,
    /// The next source of A's symbol and of the FIFO's head, made a clock ahead from their
    /// registers: `r_*` from `a_rem`, `h_*` from the head (its lowest index, the rest, and
    /// whether any is left). A source spans ⌈S/WB⌉ ≥ 2 clocks, so `a_rem` has been still for a
    /// clock when A's last word reads `r_*`; the head has when `h_new` (it changed at the last
    /// edge: a pop, or a push into the empty FIFO) is low, and A waits a clock if not. A
    /// one-word symbol (`one_word`) takes both from `lo_rem` and `lo_head` in the same clock.
    r_i: DFF<Bits<6>>,
    r_rest: DFF<Bits<KM>>,
    r_more: DFF<Bit>,
    h_i: DFF<Bits<6>>,
    h_rest: DFF<Bits<KM>>,
    h_more: DFF<Bit>,
    h_new: DFF<Bit>,
    lo_rem: LowestOne<KM>,
    lo_head: LowestOne<KM>,
    b_on: DFF<Bit>,
    b_first: DFF<Bit>,
    b_last: DFF<Bit>,
    /// `b_w` is the symbol's last word, registered with it (the output's last-beat flag, which
    /// the ring's read address follows, is one LUT of flip-flops).
    b_lastw: DFF<Bit>,
    b_w: DFF<Bits<SA>>,
    /// Stage B's accumulator write forwarded to the word A reads. Only a one-word symbol reads
    /// the word B writes in the same clock (A is one word ahead of B within a pass and at word 0
    /// when B is at the last), so for ⌈S/WB⌉ ≥ 2 `one_word` is false and synthesis removes both.
    b_fwd: DFF<Bit>,
    b_fwd_data: DFF<Bits<W>>,
    /// A copy of "B holds a symbol's last pass" (`b_on` and `b_last`), from which the RAMs'
    /// read enables are made: the net to every RAM block has a gate of its own, and the hold
    /// that stalls the stages stays beside them.
    b_out: DFF<Bit>,
    /// A buffer write, applied a clock after it is checked (the write enable reaches every
    /// block of the buffer from one flip-flop). The buffer is read clocks after a start's
    /// setup begins, by when a write accepted before the start has landed.
    bw_en: DFF<Bit>,
    bw_addr: DFF<Bits<MA>>,
    bw_data: DFF<Bits<W>>,
    /// The buffer and the accumulator are read at stage A's word; while the output holds, their
    /// read enables are low and their outputs keep stage B's word (no multiplexer on the address).
    msg_ram: BlockRamRe<W, MA>,
    acc_ram: BlockRamRe<W, SA>,
    sym_cnt: SatCounter,
    cfg_rej: SatCounter,
    /// A refused configuration write, counted in `cfg_rej` a clock later (the write's checks
    /// are off the counter's enable).
    rej_late: DFF<Bit>,
    buf_rej: SatCounter,
    start_ref: SatCounter,
    // combinational
    /// Busy (setup, mask generator, FIFO, stage A or B on) as a flip-flop, set from the parts'
    /// state and the start's decision (see its update): the start check and the writes'
    /// refusals read one flip-flop, which the message RAM's write enable, a net to every RAM
    /// block, needs.
    busy_r: DFF<Bit>,
    /// A table write, applied a clock after it is checked (the table is only read by a scan,
    /// clocks after a start).
    tw_en: DFF<Bit>,
    tw_addr: DFF<Bits<6>>,
    tw_data: DFF<Bits<17>>,
    stop: Signal<Local, Bit>,
    start_ok: Signal<Local, Bit>,
    tbl_ok: Signal<Local, Bit>,
    /// The written word is ≤ 64, ≤ 255, < 2^19, ≤ 65,536; the address is a table entry's.
    le_64: Signal<Local, Bit>,
    le_255: Signal<Local, Bit>,
    lt_2p19: Signal<Local, Bit>,
    le_65536: Signal<Local, Bit>,
    /// The written word is ≤ k_max, and in 1 ..= k_max·S.
    le_kmax: Signal<Local, Bit>,
    size_fits: Signal<Local, Bit>,
    tbl_addr: Signal<Local, Bit>,
    km1: Signal<Local, Bits<7>>,
    idx_sh: Signal<Local, Bits<3>>,
    x1: Signal<Local, Bits<32>>,
    x2: Signal<Local, Bits<32>>,
    x3: Signal<Local, Bits<32>>,
    /// The top six bits of `x3`'s xorshift, through bits 31:21 of its first step (`y1`; the
    /// second step leaves those bits as they are), and whether `nx` moves to `x3` this clock
    /// (a draw or the setup's end).
    y1: Signal<Local, Bits<11>>,
    y3: Signal<Local, Bits<6>>,
    nx_adv: Signal<Local, Bit>,
    /// The next clock's `nx`.
    nx_next: Signal<Local, Bits<32>>,
    /// The PRNG steps this clock (a draw).
    step: Signal<Local, Bit>,
    u17: Signal<Local, Bits<17>>,
    j1: Signal<Local, Bits<7>>,
    idx: Signal<Local, Bits<6>>,
    accept: Signal<Local, Bit>,
    have1: Signal<Local, Bits<7>>,
    have2: Signal<Local, Bits<7>>,
    full: Signal<Local, Bits<KM>>,
    mg_go: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    push_mask: Signal<Local, Bits<KM>>,
    push_draws: Signal<Local, Bits<32>>,
    pop: Signal<Local, Bit>,
    hold: Signal<Local, Bit>,
    /// The FIFO's head and whether it holds a mask.
    head: Signal<Local, Bits<KM>>,
    head_v: Signal<Local, Bit>,
    /// Stage A's next state when it advances, and whether it takes the FIFO's head then.
    pop_go: Signal<Local, Bit>,
    na_on: Signal<Local, Bit>,
    na_i: Signal<Local, Bits<6>>,
    na_w: Signal<Local, Bits<SA>>,
    na_lastw: Signal<Local, Bit>,
    na_rem: Signal<Local, Bits<KM>>,
    na_more: Signal<Local, Bit>,
    na_first: Signal<Local, Bit>,
    /// A's next source in its symbol, or the head's first, and what remains after it.
    nr_i: Signal<Local, Bits<6>>,
    nr_rest: Signal<Local, Bits<KM>>,
    nr_more: Signal<Local, Bit>,
    nh_i: Signal<Local, Bits<6>>,
    nh_rest: Signal<Local, Bits<KM>>,
    nh_more: Signal<Local, Bit>,
    /// The head holds a mask A may take this clock.
    head_ok: Signal<Local, Bit>,
    /// Busy now: the setup, or `busy_r` (everything else that is busy).
    busy_now: Signal<Local, Bit>,
    accv: Signal<Local, Bits<W>>,
    acc_we: Signal<Local, Bit>,
    beat_last: Signal<Local, Bit>,
    x: Signal<Local, Bits<W>>,
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
        let table = DegreeTable::default_for(k_max).expect("k_max in range");
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
            s_bytes: c(s as u64),
            max_msg: c((s * k_max) as u64),
            k_max: c(k_max as u64),
            last_word_m1: before_last_word(wps),
            one_word: Constant::new(wps == 1),
            sa: c(SA as u64),
            km: c(KM as u64),
            one_m: c(1),
            ones_m: c(crate::cycle::mask(KM as u32)),
            k_ok: DFFWithInit::new(true),
            size_ok: DFFWithInit::new(true),
            seed_ok: DFFWithInit::new(true),
            k_reg: DFFWithInit::new((k_max as u64).into()),
            msg_size: DFFWithInit::new(((s * k_max) as u64).into()),
            msg_id: Default::default(),
            seed: DFFWithInit::new(1u64.into()),
            limit: Default::default(),
            deg_table: (0..64).map(|j| Bits::<17>::from(if j == 0 { 0 } else { table.entry(j) } as u64)).into(),
            setup: Default::default(),
            setup_n: Default::default(),
            setup_acc: Default::default(),
            st_fit: Default::default(),
            st_end: Default::default(),
            mg_on: Default::default(),
            mg_index: Default::default(),
            mg_scan: Default::default(),
            mg_u: Default::default(),
            mg_j: Default::default(),
            sc_hit: Default::default(),
            sc_end: Default::default(),
            sc_j: Default::default(),
            sc_v: Default::default(),
            nx: Default::default(),
            nx_t6: Default::default(),
            nx_oh: Default::default(),
            nx_lt: Default::default(),
            nx_dup: Default::default(),
            ix_hold: Default::default(),
            ix_step: Default::default(),
            lt_hold: Default::default(),
            lt_step: Default::default(),
            mg_last: Default::default(),
            idx_sh_r: Default::default(),
            full_r: Default::default(),
            mg_mask: Default::default(),
            mg_need: Default::default(),
            mg_have: Default::default(),
            mg_draws: Default::default(),
            mg_count: Default::default(),
            f_v0: Default::default(),
            f_v1: Default::default(),
            f_m0: Default::default(),
            f_m1: Default::default(),
            f_wp: Default::default(),
            f_rp: Default::default(),
            draw_ring: Default::default(),
            mask_ring: Default::default(),
            out_ptr: Default::default(),
            out_ptr_next: Default::default(),
            a_on: Default::default(),
            a_i: Default::default(),
            a_w: Default::default(),
            a_lastw: Default::default(),
            a_rem: Default::default(),
            a_more: Default::default(),
            a_first: Default::default(),
            r_i: Default::default(),
            r_rest: Default::default(),
            r_more: Default::default(),
            h_i: Default::default(),
            h_rest: Default::default(),
            h_more: Default::default(),
            h_new: Default::default(),
            lo_rem: Default::default(),
            lo_head: Default::default(),
            b_on: Default::default(),
            b_first: Default::default(),
            b_last: Default::default(),
            b_lastw: Default::default(),
            b_w: Default::default(),
            b_fwd: Default::default(),
            b_fwd_data: Default::default(),
            b_out: Default::default(),
            bw_en: Default::default(),
            bw_addr: Default::default(),
            bw_data: Default::default(),
            msg_ram: Default::default(),
            acc_ram: Default::default(),
            sym_cnt: Default::default(),
            cfg_rej: Default::default(),
            rej_late: Default::default(),
            buf_rej: Default::default(),
            start_ref: Default::default(),
            busy_r: Default::default(),
            tw_en: Default::default(),
            tw_addr: Default::default(),
            tw_data: Default::default(),
            stop: Default::default(),
            start_ok: Default::default(),
            tbl_ok: Default::default(),
            le_64: Default::default(),
            le_255: Default::default(),
            lt_2p19: Default::default(),
            le_65536: Default::default(),
            le_kmax: Default::default(),
            size_fits: Default::default(),
            tbl_addr: Default::default(),
            km1: Default::default(),
            idx_sh: Default::default(),
            x1: Default::default(),
            x2: Default::default(),
            x3: Default::default(),
            y1: Default::default(),
            y3: Default::default(),
            nx_adv: Default::default(),
            nx_next: Default::default(),
            step: Default::default(),
            u17: Default::default(),
            j1: Default::default(),
            idx: Default::default(),
            accept: Default::default(),
            have1: Default::default(),
            have2: Default::default(),
            full: Default::default(),
            mg_go: Default::default(),
            push: Default::default(),
            push_mask: Default::default(),
            push_draws: Default::default(),
            pop: Default::default(),
            hold: Default::default(),
            head: Default::default(),
            head_v: Default::default(),
            pop_go: Default::default(),
            na_on: Default::default(),
            na_i: Default::default(),
            na_w: Default::default(),
            na_lastw: Default::default(),
            na_rem: Default::default(),
            na_more: Default::default(),
            na_first: Default::default(),
            nr_i: Default::default(),
            nr_rest: Default::default(),
            nr_more: Default::default(),
            nh_i: Default::default(),
            nh_rest: Default::default(),
            nh_more: Default::default(),
            head_ok: Default::default(),
            busy_now: Default::default(),
            accv: Default::default(),
            acc_we: Default::default(),
            beat_last: Default::default(),
            x: Default::default(),
        }
    }
}

impl<const W: usize, const MA: usize, const SA: usize, const KM: usize> Logic for LtEncoder<W, MA, SA, KM> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, busy_r, tw_en, tw_addr, tw_data, k_ok, size_ok, seed_ok, k_reg, msg_size, msg_id, seed, limit, setup, setup_n, setup_acc, st_fit, st_end, mg_on, mg_index, mg_scan, mg_u,
            mg_j, sc_hit, sc_end, sc_j, sc_v, rej_late, b_out, bw_en, bw_addr, bw_data, nx, nx_t6, nx_oh, nx_lt, nx_dup, ix_hold, ix_step, lt_hold, lt_step, mg_last, idx_sh_r, full_r, mg_mask,
            mg_need, mg_have, mg_draws, mg_count, f_v0, f_v1, f_m0, f_m1, f_wp, f_rp, out_ptr, a_on, a_i, a_w, a_lastw, a_rem, a_more, a_first, r_i, r_rest, r_more, h_i, h_rest, h_more, h_new,
            b_on, b_first, b_last, b_lastw, b_w, b_fwd, b_fwd_data
        );
        self.deg_table.read_clock.next = self.clock.val();
        self.deg_table.write_clock.next = self.clock.val();
        self.msg_ram.read_clock.next = self.clock.val();
        self.draw_ring.read_clock.next = self.clock.val();
        self.draw_ring.write_clock.next = self.clock.val();
        self.mask_ring.read_clock.next = self.clock.val();
        self.mask_ring.write_clock.next = self.clock.val();
        self.msg_ram.write_clock.next = self.clock.val();
        self.acc_ram.read_clock.next = self.clock.val();
        self.acc_ram.write_clock.next = self.clock.val();
        self.sym_cnt.clock.next = self.clock.val();
        self.cfg_rej.clock.next = self.clock.val();
        self.buf_rej.clock.next = self.clock.val();
        self.start_ref.clock.next = self.clock.val();
        self.sym_cnt.load.next = false;
        self.sym_cnt.load_val.next = 0.into();
        self.cfg_rej.load.next = false;
        self.cfg_rej.load_val.next = 0.into();
        self.buf_rej.load.next = false;
        self.buf_rej.load_val.next = 0.into();
        self.start_ref.load.next = false;
        self.start_ref.load_val.next = 0.into();
        self.sym_cnt.inc.next = false;
        self.rej_late.d.next = false;
        self.cfg_rej.inc.next = self.rej_late.q.val();
        self.buf_rej.inc.next = false;
        self.start_ref.inc.next = false;
        self.symbols.next = self.sym_cnt.value.val();
        self.cfg_rejected.next = self.cfg_rej.value.val();
        self.buf_rejected.next = self.buf_rej.value.val();
        self.starts_refused.next = self.start_ref.value.val();

        self.busy_now.next = self.busy_r.q.val() | self.setup.q.val();
        self.busy.next = self.busy_now.val();
        self.head.next = self.f_m0.q.val();
        self.head_v.next = self.f_v0.q.val();
        if self.f_rp.q.val() {
            self.head.next = self.f_m1.q.val();
            self.head_v.next = self.f_v1.q.val();
        }
        self.km1.next = self.k_reg.q.val() - 1;
        self.out_hdr.next = (bit_cast::<32, 7>(self.km1.val()) << 26)
            | (bit_cast::<32, 19>(self.msg_size.q.val()) << 8)
            | bit_cast::<32, 8>(self.msg_id.q.val());

        // ---- mask generator (§6.4) ----
        // index draws keep the top w = ⌈log2 k⌉ bits: the top 6 shifted right by 6 − w
        self.idx_sh.next = 0.into();
        if self.k_reg.q.val() <= 32 {
            self.idx_sh.next = 1.into();
        }
        if self.k_reg.q.val() <= 16 {
            self.idx_sh.next = 2.into();
        }
        if self.k_reg.q.val() <= 8 {
            self.idx_sh.next = 3.into();
        }
        if self.k_reg.q.val() <= 4 {
            self.idx_sh.next = 4.into();
        }
        if self.k_reg.q.val() <= 2 {
            self.idx_sh.next = 5.into();
        }
        self.idx_sh_r.d.next = self.idx_sh.val();
        self.x1.next = self.nx.q.val() ^ (self.nx.q.val() << 13);
        self.x2.next = self.x1.val() ^ (self.x1.val() >> 17);
        self.x3.next = self.x2.val() ^ (self.x2.val() << 5);
        self.nx_next.next = self.nx.q.val();
        self.nx_adv.next = false;
        self.step.next = false;
        self.u17.next = bit_cast::<17, 16>(self.nx.q.val().get_bits::<16>(16));
        // degree: the first j in 1..k−1 with u < T[j], else k. The draw clock latches u and asks
        // the table RAM for T[1]; the scan then compares each entry a clock after the RAM returns
        // it, from a register, while the RAM reads the next (the payload XOR of a symbol takes
        // ⌈d·S/W⌉ clocks, so the scan hides behind it).
        self.j1.next = self.mg_j.q.val() + 1;
        self.accept.next = self.nx_lt.q.val() & !self.nx_dup.q.val();
        self.have1.next = self.mg_have.q.val() + 1;
        self.have2.next = self.mg_have.q.val() + 2;
        self.full.next = self.ones_m.val();
        if self.k_reg.q.val() != self.km.val() {
            self.full.next = !(self.ones_m.val() << self.k_reg.q.val().get_bits::<6>(0));
        }
        self.full_r.d.next = self.full.val();
        self.mg_go.next = self.mg_on.q.val() & !(self.f_v0.q.val() & self.f_v1.q.val());
        self.push.next = false;
        self.push_mask.next = self.full_r.q.val();
        self.push_draws.next = self.mg_draws.q.val() + 1;
        if self.mg_scan.q.val() {
            // a full mask from the scan: the degree draw was the last
            self.push_draws.next = self.mg_draws.q.val();
        }
        if self.mg_go.val() & self.mg_scan.q.val() {
            // scanning: T[mg_j] is on the RAM's output, T[sc_j] in the compare stage
            if self.sc_v.q.val() & self.sc_hit.q.val() {
                self.mg_scan.d.next = false;
                self.sc_v.d.next = false;
                self.mg_index.d.next = true;
                self.mg_mask.d.next = 0.into();
                self.mg_need.d.next = self.sc_j.q.val();
                self.mg_last.d.next = self.sc_j.q.val() == 1;
                self.mg_have.d.next = 0.into();
            } else if self.sc_v.q.val() & self.sc_end.q.val() {
                self.mg_scan.d.next = false;
                self.sc_v.d.next = false;
                self.push.next = true;
            } else {
                // take T[mg_j] into the compare stage and read the next entry
                self.sc_hit.d.next = self.mg_u.q.val() < self.deg_table.read_data.val();
                self.sc_end.d.next = self.j1.val() == self.k_reg.q.val();
                self.sc_j.d.next = self.mg_j.q.val();
                self.sc_v.d.next = true;
                self.mg_j.d.next = self.j1.val();
            }
        }
        if self.mg_go.val() & !self.mg_scan.q.val() {
            self.nx_next.next = self.x3.val();
            self.nx_adv.next = true;
            self.step.next = true;
            self.mg_draws.d.next = self.mg_draws.q.val() + 1;
            if !self.mg_index.q.val() {
                // the degree draw: k = 1 has no entries to scan (degree k)
                if self.k_reg.q.val() == 1 {
                    self.push.next = true;
                } else {
                    self.mg_scan.d.next = true;
                    self.mg_u.d.next = self.u17.val();
                    self.mg_j.d.next = 1.into();
                    self.sc_v.d.next = false;
                }
            } else if self.accept.val() {
                self.mg_mask.d.next = self.mg_mask.q.val() | self.nx_oh.q.val();
                self.mg_have.d.next = self.have1.val();
                self.mg_last.d.next = self.have2.val() == self.mg_need.q.val();
                self.push_mask.next = self.mg_mask.q.val() | self.nx_oh.q.val();
                if self.mg_last.q.val() {
                    self.push.next = true;
                    self.mg_index.d.next = false;
                }
            }
        }
        // the table RAM's address, whatever the scan decides: a scan that goes on reads the next
        // entry and one that stops leaves a read nobody takes; a stalled scan reads its entry
        // again; outside a scan it reads T[1], the first entry a scan compares
        self.deg_table.read_address.next = 1.into();
        if self.mg_scan.q.val() {
            self.deg_table.read_address.next = self.mg_j.q.val().get_bits::<6>(0);
            if self.mg_go.val() {
                self.deg_table.read_address.next = self.j1.val().get_bits::<6>(0);
            }
        }
        if self.push.val() {
            self.mg_count.d.next = self.mg_count.q.val() + 1;
            if self.limit.q.val().any() & ((self.mg_count.q.val() + 1) == self.limit.q.val()) {
                self.mg_on.d.next = false;
            }
        }

        // ---- payload engine ----
        self.hold.next = self.b_on.q.val() & self.b_last.q.val() & !self.out_ready.val();
        self.lo_rem.x.next = self.a_rem.q.val();
        self.lo_head.x.next = self.head.val();
        self.r_i.d.next = self.lo_rem.idx.val();
        self.r_rest.d.next = self.a_rem.q.val() & !self.lo_rem.oh.val();
        self.r_more.d.next = (self.a_rem.q.val() & !self.lo_rem.oh.val()).any();
        self.h_i.d.next = self.lo_head.idx.val();
        self.h_rest.d.next = self.head.val() & !self.lo_head.oh.val();
        self.h_more.d.next = (self.head.val() & !self.lo_head.oh.val()).any();
        self.nr_i.next = self.r_i.q.val();
        self.nr_rest.next = self.r_rest.q.val();
        self.nr_more.next = self.r_more.q.val();
        self.nh_i.next = self.h_i.q.val();
        self.nh_rest.next = self.h_rest.q.val();
        self.nh_more.next = self.h_more.q.val();
        self.head_ok.next = self.head_v.val() & !self.h_new.q.val();
        if self.one_word.val() {
            self.nr_i.next = self.lo_rem.idx.val();
            self.nr_rest.next = self.r_rest.d.val();
            self.nr_more.next = self.r_more.d.val();
            self.nh_i.next = self.lo_head.idx.val();
            self.nh_rest.next = self.h_rest.d.val();
            self.nh_more.next = self.h_more.d.val();
            self.head_ok.next = self.head_v.val();
        }
        // stage B: XOR with the accumulator (or the forwarded word being written to it)
        self.accv.next = self.acc_ram.read_data.val();
        if self.b_fwd.q.val() {
            self.accv.next = self.b_fwd_data.q.val();
        }
        self.x.next = self.msg_ram.read_data.val();
        if !self.b_first.q.val() {
            self.x.next = self.msg_ram.read_data.val() ^ self.accv.val();
        }
        self.acc_we.next = self.b_on.q.val() & !self.b_last.q.val();
        self.acc_ram.write_enable.next = self.acc_we.val();
        self.acc_ram.write_address.next = self.b_w.q.val();
        self.acc_ram.write_data.next = self.x.val();
        self.out_valid.next = self.b_on.q.val() & self.b_last.q.val();
        self.out_first.next = self.b_on.q.val() & self.b_last.q.val() & (self.b_w.q.val() == 0);
        self.beat_last.next = self.b_on.q.val() & self.b_last.q.val() & self.b_lastw.q.val();
        self.out_last.next = self.beat_last.val();
        self.out_data.next = self.x.val();
        self.out_bitset.next = bit_cast::<64, KM>(self.mask_ring.read_data.val());
        self.sym_cnt.inc.next = self.beat_last.val() & self.out_ready.val();
        // the ring is read every clock at the slot of the symbol on the output next clock. A
        // push to that slot in the same clock is the symbol itself, pushed three or more clocks
        // before its first beat, so the word read then (undefined) is read again in time.
        self.out_ptr_next.next = self.out_ptr.q.val();
        if self.sym_cnt.inc.val() {
            self.out_ptr_next.next = self.out_ptr.q.val() + 1;
        }
        self.out_draws.next = self.draw_ring.read_data.val();
        // stage A: its next state if it advances (`na_*`, `pop_go`), from registers alone; the
        // output's hold then selects it or keeps A and B, one multiplexer after the ready
        self.pop_go.next = false;
        self.na_on.next = self.a_on.q.val();
        self.na_i.next = self.a_i.q.val();
        self.na_w.next = self.a_w.q.val();
        self.na_lastw.next = self.a_lastw.q.val();
        self.na_rem.next = self.a_rem.q.val();
        self.na_more.next = self.a_more.q.val();
        self.na_first.next = self.a_first.q.val();
        if self.a_on.q.val() {
            if self.a_lastw.q.val() {
                self.na_w.next = 0.into();
                self.na_lastw.next = self.one_word.val();
                if self.a_more.q.val() {
                    self.na_i.next = self.nr_i.val();
                    self.na_rem.next = self.nr_rest.val();
                    self.na_more.next = self.nr_more.val();
                    self.na_first.next = false;
                } else if self.head_ok.val() {
                    self.pop_go.next = true;
                } else {
                    self.na_on.next = false;
                }
            } else {
                self.na_w.next = self.a_w.q.val() + 1;
                self.na_lastw.next = self.a_w.q.val() == self.last_word_m1.val();
            }
        } else if self.head_ok.val() {
            self.pop_go.next = true;
        }
        if self.pop_go.val() {
            self.na_on.next = true;
            self.na_i.next = self.nh_i.val();
            self.na_rem.next = self.nh_rest.val();
            self.na_more.next = self.nh_more.val();
            self.na_w.next = 0.into();
            self.na_lastw.next = self.one_word.val();
            self.na_first.next = true;
        }
        self.pop.next = self.pop_go.val() & !self.hold.val();
        // the head changes at this edge: a pop, or a push into the empty FIFO
        self.h_new.d.next = self.pop.val() | (self.push.val() & (self.f_wp.q.val() == self.f_rp.q.val()));
        if !self.hold.val() {
            self.b_on.d.next = self.a_on.q.val();
            self.b_first.d.next = self.a_first.q.val();
            self.b_last.d.next = !self.a_more.q.val();
            self.b_out.d.next = self.a_on.q.val() & !self.a_more.q.val();
            self.b_w.d.next = self.a_w.q.val();
            self.b_lastw.d.next = self.a_lastw.q.val();
            self.b_fwd.d.next = self.one_word.val() & self.acc_we.val() & (self.b_w.q.val() == self.a_w.q.val());
            self.b_fwd_data.d.next = self.x.val();
            self.a_on.d.next = self.na_on.val();
            self.a_i.d.next = self.na_i.val();
            self.a_w.d.next = self.na_w.val();
            self.a_lastw.d.next = self.na_lastw.val();
            self.a_rem.d.next = self.na_rem.val();
            self.a_more.d.next = self.na_more.val();
            self.a_first.d.next = self.na_first.val();
        }
        // the buffer and accumulator read stage A's word, which B holds next clock; a hold keeps
        // B's word on their outputs (neither is written then: the buffer only while idle, the
        // accumulator not in a symbol's last pass, the only one that holds)
        self.msg_ram.read_address.next = (bit_cast::<MA, 6>(self.a_i.q.val()) << self.sa.val()) | bit_cast::<MA, SA>(self.a_w.q.val());
        self.acc_ram.read_address.next = self.a_w.q.val();
        self.msg_ram.read_enable.next = !self.b_out.q.val() | self.out_ready.val();
        self.acc_ram.read_enable.next = !self.b_out.q.val() | self.out_ready.val();

        // ---- mask FIFO ----
        // (a push never meets a full FIFO: `mg_go` waits for a free entry)
        if self.pop.val() {
            self.f_rp.d.next = !self.f_rp.q.val();
            if self.f_rp.q.val() {
                self.f_v1.d.next = false;
            } else {
                self.f_v0.d.next = false;
            }
        }
        if self.push.val() {
            self.f_wp.d.next = !self.f_wp.q.val();
            if self.f_wp.q.val() {
                self.f_v1.d.next = true;
                self.f_m1.d.next = self.push_mask.val();
            } else {
                self.f_v0.d.next = true;
                self.f_m0.d.next = self.push_mask.val();
            }
        }

        // ---- start: check k = ⌈MSG_SIZE/S⌉ by summing S k times ----
        self.st_fit.d.next = (self.msg_size.q.val() <= self.setup_acc.q.val())
            & ((self.msg_size.q.val() + self.s_bytes.val()) > self.setup_acc.q.val());
        self.st_end.d.next = false;
        if self.setup.q.val() {
            // the PRNG takes the seed while the setup runs (the seed cannot change then: writes
            // are refused while busy), and its first xorshift as the setup ends
            self.nx_next.next = self.seed.q.val();
            if self.st_end.q.val() {
                self.setup.d.next = false;
                if self.st_fit.q.val() {
                    self.mg_on.d.next = true;
                    self.mg_index.d.next = false;
                    self.mg_scan.d.next = false;
                    // `nx` holds the seed (taken in the setup's first clock, and the setup lasts
                    // three or more): its xorshift is the first output
                    self.nx_next.next = self.x3.val();
                    self.nx_adv.next = true;
                    self.mg_draws.d.next = 0.into();
                    self.out_ptr_next.next = 0.into();
                    self.mg_count.d.next = 0.into();
                    self.sym_cnt.load.next = true;
                } else {
                    self.start_ref.inc.next = true;
                }
            } else if self.setup_n.q.val() == self.k_reg.q.val() {
                // the sum is k·S: its compares are registered this clock
                self.st_end.d.next = true;
            } else {
                self.setup_acc.d.next = self.setup_acc.q.val() + self.s_bytes.val();
                self.setup_n.d.next = self.setup_n.q.val() + 1;
            }
        }

        // ---- configuration writes (literal addresses: encoder_csr::csr, tied by the const assert) ----
        // The range checks on the written word as tests of its high bits: a compare with a
        // constant is a 32-bit carry chain in yosys's iCE40 mapping, these are a few LUTs.
        self.le_64.next = !self.cfg_wdata.val().get_bits::<25>(7).any()
            & !(self.cfg_wdata.val().get_bit(6) & self.cfg_wdata.val().get_bits::<6>(0).any());
        self.le_255.next = !self.cfg_wdata.val().get_bits::<24>(8).any();
        self.lt_2p19.next = !self.cfg_wdata.val().get_bits::<13>(19).any();
        self.le_65536.next = !self.cfg_wdata.val().get_bits::<15>(17).any()
            & !(self.cfg_wdata.val().get_bit(16) & self.cfg_wdata.val().get_bits::<16>(0).any());
        // TABLE + 1 ..= TABLE + 63: 0b01xx_xxxx with the low six bits not all zero
        self.tbl_addr.next = !self.cfg_addr.val().get_bit(7) & self.cfg_addr.val().get_bit(6) & self.cfg_addr.val().get_bits::<6>(0).any();
        self.stop.next = false;
        self.le_kmax.next = self.cfg_wdata.val().get_bits::<7>(0) <= self.k_max.val();
        self.size_fits.next =
            self.cfg_wdata.val().get_bits::<19>(0).any() & (self.cfg_wdata.val().get_bits::<19>(0) <= self.max_msg.val());
        self.start_ok.next = !self.busy_now.val() & self.k_ok.q.val() & self.size_ok.q.val() & self.seed_ok.q.val();
        self.tbl_ok.next = !self.busy_now.val()
            & self.tbl_addr.val()
            & self.le_65536.val();
        if self.cfg_we.val() {
            if self.cfg_addr.val() == 0 {
                if self.cfg_wdata.val().get_bit(1) {
                    self.stop.next = true;
                } else if self.cfg_wdata.val().get_bit(0) {
                    if self.start_ok.val() {
                        self.setup.d.next = true;
                        self.setup_n.d.next = 0.into();
                        self.setup_acc.d.next = 0.into();
                    } else {
                        self.start_ref.inc.next = true;
                    }
                } else {
                    self.rej_late.d.next = true;
                }
            } else if self.busy_now.val() {
                self.rej_late.d.next = true;
            } else if self.cfg_addr.val() == 1 {
                if self.cfg_wdata.val().any() & self.le_64.val() {
                    self.k_reg.d.next = self.cfg_wdata.val().get_bits::<7>(0);
                    self.k_ok.d.next = self.le_kmax.val();
                } else {
                    self.rej_late.d.next = true;
                }
            } else if self.cfg_addr.val() == 2 {
                if self.lt_2p19.val() {
                    self.msg_size.d.next = self.cfg_wdata.val().get_bits::<19>(0);
                    self.size_ok.d.next = self.size_fits.val();
                } else {
                    self.rej_late.d.next = true;
                }
            } else if self.cfg_addr.val() == 3 {
                if self.le_255.val() {
                    self.msg_id.d.next = self.cfg_wdata.val().get_bits::<8>(0);
                } else {
                    self.rej_late.d.next = true;
                }
            } else if self.cfg_addr.val() == 4 {
                self.seed.d.next = self.cfg_wdata.val();
                self.seed_ok.d.next = self.cfg_wdata.val().any();
            } else if self.cfg_addr.val() == 5 {
                self.limit.d.next = self.cfg_wdata.val();
            } else if !self.tbl_ok.val() {
                self.rej_late.d.next = true;
            }
        }
        self.tw_en.d.next = self.cfg_we.val() & self.tbl_ok.val();
        self.tw_addr.d.next = self.cfg_addr.val().get_bits::<6>(0);
        self.tw_data.d.next = self.cfg_wdata.val().get_bits::<17>(0);
        self.deg_table.write_enable.next = self.tw_en.q.val();
        self.deg_table.write_address.next = self.tw_addr.q.val();
        self.deg_table.write_data.next = self.tw_data.q.val();
        if self.stop.val() {
            self.setup.d.next = false;
            self.mg_on.d.next = false;
            self.mg_index.d.next = false;
            self.mg_scan.d.next = false;
            self.f_v0.d.next = false;
            self.f_v1.d.next = false;
            self.f_wp.d.next = false;
            self.f_rp.d.next = false;
        }

        // ---- message buffer writes (refused while encoding) ----
        self.bw_en.d.next = self.buf_we.val() & !self.busy_now.val();
        self.bw_addr.d.next = self.buf_addr.val();
        self.bw_data.d.next = self.buf_wdata.val();
        self.msg_ram.write_address.next = self.bw_addr.q.val();
        self.msg_ram.write_data.next = self.bw_data.q.val();
        self.msg_ram.write_enable.next = self.bw_en.q.val();
        self.buf_rej.inc.next = self.buf_we.val() & self.busy_now.val();

        // ---- the draw ring: a push writes its count, the output reads its symbol's ----
        self.draw_ring.write_enable.next = self.push.val();
        self.draw_ring.write_address.next = self.mg_count.q.val().get_bits::<4>(0);
        self.draw_ring.write_data.next = self.push_draws.val();
        self.out_ptr.d.next = self.out_ptr_next.val();
        self.draw_ring.read_address.next = self.out_ptr_next.val();
        self.mask_ring.write_enable.next = self.push.val();
        self.mask_ring.write_address.next = self.mg_count.q.val().get_bits::<4>(0);
        self.mask_ring.write_data.next = self.push_mask.val();
        self.mask_ring.read_address.next = self.out_ptr_next.val();

        // ---- the PRNG state and its xorshift, for the next clock's draw ----
        // a step, and the end of a start's setup, move `nx` to its xorshift (a taken start loads
        // the seed first). The xorshift comes from a register, and the index precompute below
        // selects only by `step`, so the start's checks stay off it.
        self.nx.d.next = self.nx_next.val();
        // xorshift32 on bits 31:21 only: x ^= x << 13 (bit i from i and i − 13), x ^= x >> 17
        // (no change above bit 14), x ^= x << 5 (bits 31:26 from 31:26 and 26:21)
        self.y1.next = self.x3.val().get_bits::<11>(21) ^ self.x3.val().get_bits::<11>(8);
        self.y3.next = self.y1.val().get_bits::<6>(5) ^ self.y1.val().get_bits::<6>(0);
        self.nx_t6.d.next = self.x3.val().get_bits::<6>(26);
        if self.nx_adv.val() {
            self.nx_t6.d.next = self.y3.val();
        }
        // the index draw's one-hot and bound, from `nx` as it will be. After a start they are
        // stale for one clock, which is the degree draw's (a step): no index is drawn there.
        // (k and its shift change only while idle, clocks before a draw)
        self.ix_hold.d.next = self.nx.d.val().get_bits::<6>(26) >> self.idx_sh_r.d.val();
        self.ix_step.d.next = self.nx_t6.d.val() >> self.idx_sh_r.d.val();
        self.lt_hold.d.next = bit_cast::<7, 6>(self.ix_hold.d.val()) < self.k_reg.q.val();
        self.lt_step.d.next = bit_cast::<7, 6>(self.ix_step.d.val()) < self.k_reg.q.val();
        self.idx.next = self.ix_hold.q.val();
        self.nx_lt.d.next = self.lt_hold.q.val();
        if self.step.val() {
            self.idx.next = self.ix_step.q.val();
            self.nx_lt.d.next = self.lt_step.q.val();
        }
        self.nx_oh.d.next = self.one_m.val() << self.idx.val();
        self.nx_dup.d.next = (self.mg_mask.d.val() & self.nx_oh.d.val()).any();

        // busy next clock, but for the setup (`busy_now` adds it): the generator, FIFO, stage A
        // or B on then. Each part that can turn off hands its work on, so the OR of their next
        // values is, from flip-flops: ending the setup with a start that fits (the generator
        // turns on); the generator on and no stop (a push at the limit fills the FIFO); a mask
        // in the FIFO (a stop empties it, but its head goes to A, or B holds); A on (its word
        // goes to B, or B holds); B held. The start's decision reaches `setup` alone.
        self.busy_r.d.next = (!self.stop.val()
            & ((self.setup.q.val() & self.st_end.q.val() & self.st_fit.q.val()) | self.mg_on.q.val()))
            | self.f_v0.q.val()
            | self.f_v1.q.val()
            | self.a_on.q.val()
            | self.hold.val();
    }
}
