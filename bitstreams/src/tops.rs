//! Every board top the flow builds ([`all`]), with the parameter set it is built with and a
//! design note on what limits its clock, and the AQM's own board. A block with more ports than
//! the package has pins is wrapped: on-chip LFSRs drive every input, every output is folded into
//! the LEDs through registers, so nothing is optimised away and the timing measured is the
//! block's own.

use crate::harness::{self, Board};
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
    /// The LFSRs' taps: a `Constant`, because `hdl_gen` writes a Rust constant's name into the
    /// Verilog as it is (an undeclared name, which the flow's `read_verilog -noautowire` refuses).
    taps: Constant<Bits<32>>,
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
            taps: Constant::new(LFSR_TAPS.into()),
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
            self.lfsr_a.d.next = (self.lfsr_a.q.val() >> 1) ^ self.taps.val();
        }
        self.lfsr_b.d.next = self.lfsr_b.q.val() >> 1;
        if self.lfsr_b.q.val().get_bit(0) {
            self.lfsr_b.d.next = (self.lfsr_b.q.val() >> 1) ^ self.taps.val();
        }
        self.lfsr_c.d.next = self.lfsr_c.q.val() >> 1;
        if self.lfsr_c.q.val().get_bit(0) {
            self.lfsr_c.d.next = (self.lfsr_c.q.val() >> 1) ^ self.taps.val();
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

/// One board top.
pub struct Top {
    /// The name on the command line and in the report.
    pub name: &'static str,
    /// What the block is.
    pub block: &'static str,
    /// The parameter set it is built with.
    pub params: String,
    /// Its board Verilog.
    pub board: fn() -> Board,
    /// Whether it is expected to fit the HX8K: the flow fails when one that should fit does not.
    pub fits: bool,
    /// Design note: what its critical path is made of and what would take it to 100 MHz (or, for
    /// a top that does not fit, what takes the room). This is analysis, not a measurement; the
    /// measured figures are in the report beside it.
    pub design_note: &'static str,
    /// Flags its iCE40 build adds to `synth_ice40 -abc9` (empty: the flow's own). The record
    /// keeps them, and the design note says why a top has any.
    pub ice40_synth_flags: &'static str,
}

/// Flip-flops of the AQM's own board: three 32-bit LFSRs, the fold and the LEDs.
const AQM_BOARD_FLOPS: u32 = 3 * 32 + 32 + 8;

fn aqm_board() -> Board {
    Board { verilog: verilog_of(AqmBoard::default()), harness_flops: AQM_BOARD_FLOPS }
}

/// Every top, in build order.
pub fn all() -> Vec<Top> {
    let (s, k) = (harness::CBLT_S, harness::CBLT_K_MAX);
    let mut tops = vec![
        Top {
            name: "aqm",
            block: "sojourn timestamp + AQM marker (K / TCN / CoDel / ECN♯)",
            params: "32-bit ns time base, every mode and threshold a register; own board: 3 LFSRs".into(),
            board: aqm_board,
            fits: true,
            ice40_synth_flags: "",
            design_note: "The marker takes two clocks (`pipe.rs`). Stage `A` makes every carry chain and division \
                from the dequeue's inputs and its queue's registers, each one that reads the state for every \
                outcome of the dequeue in stage `B`: the tracker's age, the lag `now − marking_next` (its tests \
                read from the signs and top bits of a chain and its one-less twin, no wide OR), the law a mark \
                adds, for each table index the count can have (`LawValue`, six side by side), and the count a \
                mark writes with the table indices after it (`CountIndices`: `cnt + k` or \
                `cnt + k − lastcount`, one chain each, its saturation tested beside it). Stage `B` decides from \
                those registers, a few LUTs, and its decision selects among `A`'s candidates for the next \
                dequeue: the forwarding when one queue dequeues on consecutive clocks. The state keeps \
                `marking_next` as a base and the law added to it, and the table indices of `cnt + 1`, \
                `cnt − lastcount` and `cnt + 2`, so every division starts from a register; `LawIndex` is a \
                tree (the leading nibble, then the leading one in it). What is left is the divider in `A`: a \
                table index (a state register, `B`'s re-entry index, or the mode's `harmonic` bit) through \
                `LawValue` (a 16-way selection of table bytes, the exponent's add, a five-stage shift) and the \
                selection by `B`'s outcome into `B`'s law, about eleven LUTs, two thirds routing. Moving that \
                selection into `B` puts it in front of the lag chains, which is slower (the AQM README, \
                *Toward 100 MHz*). 100 MHz needs the division over two clocks: the table entry and the shift \
                amount in one, the shift in the next, so the state's entry selected a clock before `A` (a \
                stage in front of it, with forwarding from `A` and `B`), or the table entries kept with the \
                state.",
        },
    ];
    // the switch blocks, from their own descriptions (hdl::blocks)
    tops.extend(harness::switch_block_tops().into_iter().map(|(name, info, board)| Top {
        name,
        block: info.title,
        params: info.params.into(),
        board,
        fits: info.fits_hx8k,
        design_note: info.design_note,
        ice40_synth_flags: info.ice40_synth_flags,
    }));
    // one port per system (hdl::port::SYSTEMS), which the HX8K holds with room
    struct PortBoard;
    impl hdl::port::FeatureVisitor for PortBoard {
        type Out = fn() -> Board;
        fn visit<const F: usize>(self) -> Self::Out {
            harness::port_2x256_board::<F>
        }
    }
    tops.extend(hdl::port::SYSTEMS.iter().map(|s| Top {
        name: s.name,
        block: s.title,
        params: "2 queues × 256 descriptors (one block RAM deep), one descriptor per clock; the full port without the other systems' blocks".into(),
        board: hdl::port::with_features(s.features, PortBoard).expect("every system's port is instantiated"),
        fits: true,
        design_note: system_port_note(s.name),
        ice40_synth_flags: "",
    }));
    tops.extend([
        Top {
            name: "cblt-encoder",
            block: "CB-LT encoder (xorshift32, degree table, XOR)",
            params: format!("S = {s} bytes, k_max = {k}, W = 32 bits; message buffer {} words in block RAM", s * k / 4),
            board: harness::cblt_encoder_board,
            fits: true,
            ice40_synth_flags: "",
            design_note: "The degree table is in block RAM, scanned one entry per clock with no comparator per \
                entry: each entry is compared as the RAM returns it and the scan decides a clock later from the \
                registered result, while the RAM reads the next. The PRNG keeps its next output (`nx`, the \
                xorshift of its state) in place of the state, takes the seed during the start's setup, and \
                keeps the top six bits of its next xorshift in a register; the index shift and k's all-ones \
                mask are registers set while idle. Both candidate indices of a draw (the PRNG holding or \
                stepping) and their bounds against k are registered, the step selecting one; the one-hot and \
                the duplicate test (the mask and the index as they will be) are registered a clock before the \
                acceptance, which is then an AND of flip-flops into the FIFO push; a refused register write is \
                counted a clock later; the start check's compares (MSG_SIZE against k·S) are registered a \
                clock before the start is decided, and its range checks are flags set by the writes; `busy` \
                is a flip-flop ORed with the setup's; the payload engine's next state is made from registers \
                (the next source of a symbol and the FIFO head's first are registered a clock ahead) and the \
                output's hold selects it last; the mask FIFO is a ring, so the hold reaches its pointers and \
                not the masks; the buffer and accumulator keep their word with their read enables (made from \
                a copy of the last-pass flag) while the output holds, so their addresses are stage A's \
                registers with no multiplexer; buffer writes land a clock after their check; the index \
                draw's shift is read from its register and the symbol limit's test is an equality with \
                `limit − 1` kept in a register (each was a carry chain in series with another). On four of \
                the five placements the slowest path is now a statistic's own: a saturating counter's \
                32-bit increment, whose carry out (all-ones) enables the counter (the refused-write \
                counts); a saturation flag kept in a register would take it off. Its area is \
                within the budget of 1,500 cells of its own since its RAMs are marked free of \
                read-during-write checks (yosys otherwise adds a bypass of about 70 flip-flops per RAM), the \
                32-bit draw counts and the masks wait in RAM rings instead of riding the mask FIFO and the \
                payload stages, the accumulator forwarding is built only for one-word symbols, and the register \
                writes' range checks test high bits instead of four 32-bit compares (carry chains). The rest \
                is four 32-bit statistics, the PRNG and the configuration registers.",
        },
        Top {
            name: "cblt-decoder",
            block: "CB-LT decoder (GF(2) Gaussian elimination)",
            params: format!("S = {s} bytes, k_max = {k}, W = 32 bits; {k} rows of {} words in block RAM", s / 4),
            board: harness::cblt_decoder_board,
            fits: true,
            ice40_synth_flags: "",
            design_note: "The header check takes three clocks: the rules on the packet alone (length, size, \
                an empty bitset) and MSG_SIZE − `NPKT · S` − 1 (a constant table and one add) are registered \
                with the header; SCREEN applies `NPKT · S` < MSG_SIZE ≤ `NPKT · S + S` (that register against \
                the constant S), the bitset against k from the registered header, and compares the header \
                with the tombstone and the open context; CHECK decides from those registers. The coefficient \
                RAM's read address is a register and the back-elimination scanner checks a row a clock after \
                the RAM returns it; each lowest-one unit sits on one register with no multiplexer before its \
                carry chain, its index from a three-level priority encoder rather than after the chain (DECIDE \
                takes pass 0's source from one registered), and an ELIM pass takes its next row from registers \
                made a clock ahead. A payload word is issued, read \
                from a registered address, XORed and written in four stages, so no path runs from a block RAM \
                to another; the readout holds its word with the row RAM's read enable, and the context a \
                commit opens is set a clock later; the rows to eliminate change in one place and the pass's \
                last word is a flip-flop. k's mask (bit i for i < k) is made from the incoming header and \
                registered with it, so SCREEN's test of bits beyond k is an AND-OR on registers, and each \
                idle timer's test that its next step reaches the limit is one carry chain \
                (`idle + 1 − limit`, its sign). On every placement the slowest path now ends at the failure \
                count's enable, where its 32-bit increment's carry out (saturation) and the idle timer's \
                expiry meet. Keeping the saturation in a register for the book's eight counters was measured \
                and not kept: 98.28 MHz median (90.67–103.48) against 97.93, for 100 more cells, the path \
                then the limit's compare into the same enable (2026-11-28; the trial's RTL is not in the \
                tree, its figures are from `cargo run --release -p bitstreams -- cblt-decoder` run on it). Its three RAMs are marked free of read-during-write checks, \
                which took yosys's bypass registers off them. Its area is the elimination, eight 32-bit \
                statistics, the record's counters and the harness's flip-flops.",
        },
        Top {
            name: "nic",
            block: "FEC NIC top (register map, encoder, decoder, TX queue, RX staging, message buffer, completion queue)",
            params: format!(
                "S = {} bytes, k_max = {}, W = 32 bits (the `sim-small` build), 32-bit bus with two clocks of read latency (pipelined)",
                harness::NIC_S,
                harness::NIC_K_MAX
            ),
            board: harness::nic_board,
            fits: true,
            ice40_synth_flags: "",
            design_note: "Fits with room since the encoder's degree table, the completion queue (four records of seven \
                words, once 800 flip-flops and their read multiplexers) and the TX queue's headers and bitsets moved \
                to block RAM, both cores' masks are as wide as k_max (16 bits here, not 64), and its eleven RAMs are \
                marked free of read-during-write checks (yosys otherwise adds a bypass of about 70 flip-flops and \
                39 LUTs to each). The decoder's packet-only header checks are made as the header \
                is taken and the encoder's index draw a clock ahead; the RX feeder's last beat and the TX beat's \
                word are registers; a register read takes two clocks, its decode registered at its edge and \
                each group of eight registers' AND-OR at the next; the encoder's writes, the RX staging writes, the \
                RX clear, the TX and CQ pops, the TX flush and the message RAM's writes are registered a clock \
                after the bus or the decoder. Every statistic is a \
                32-bit counter. The idle tick divider is a down-count whose sign bit is the tick, and the cores \
                carry their own cuts (see `cblt-encoder` and `cblt-decoder`). What is left is spread over \
                both cores and is two thirds routing (the part is three quarters full): a placement's slowest \
                path ends at the decoder's scanner rows or failure count, the encoder's refused-write flag, \
                or a statistic's enable.",
        },
    ]);
    tops
}

/// What limits each per-system port (analysis, beside the measured figures).
fn system_port_note(name: &str) -> &'static str {
    match name {
        "port-ecnsharp" => "The AQM with the port's FIFOs, DWRR and pacer. The scheduler picks a clock ahead of the \
            pop, and the AQM's state for its stage `A` is selected in the pop's clock into registers (since \
            2026-11-30; see `aqm` and the port README), so `A` starts from flip-flops: 63.07 MHz against 59.92 \
            before, when `D1`'s queue through that selection into `A` led on two placements. Now the slowest \
            path is the AQM's own divider on three placements (a table index, a read-ahead register `rr_law_inc` \
            or stage `B`'s re-entry index, through `LawValue` into `B`'s law `b_law_r`, about eleven LUTs, two \
            thirds routing), and on two the scheduler's: the pick's flag (`pend`) and the link pacer's credit \
            through the pop's choice of the popping queue's second entry into DWRR's lane chains (`neg_r`, \
            `rp_r`). The next cut is the AQM's division over two clocks (see `aqm`).",
        "port-ren" => "REN with the port's FIFOs, DWRR and pacer; REN takes the departing descriptor in `D2` and \
            judges over two clocks (see `ren`). No path runs through REN on any placement. The scheduler picks a \
            clock ahead of the pop (since 2026-11-30, the port README): 76.97 MHz against 70.96 before. The \
            slowest path is the scheduler's on every placement: the pick's flag (`pend`) or the link pacer's \
            credit through the pop's choice of the popping queue's second entry into DWRR's lane chains \
            (`neg_r`, `rp_r`) on three, and a FIFO's head into the pacer's credit on two. DWRR's lanes made for both \
            heads of the popping queue move it to a register write's decode into the pick (a trial, the \
            port README: 73.51 MHz); with the port's register writes held a clock as well (a write stage, \
            a third trial), 77.60 MHz (72.85–80.21), the slowest path then the pacer's credit through the \
            pop into a queue's `QCAP` flag (three placements) or a FIFO's head into the credit.",
        "port-flashpass" => "Selective drop and the shaper with the port's FIFOs, DWRR and pacer. The emulation \
            queue's eligibility is a flip-flop, judged a clock ahead for every way the clock can end \
            (`EmuShaper`), each queue's head length is a register, DWRR's refill test is a register (see \
            `dwrr`), the arrival takes two clocks with selective drop's flags made in its input stage (see \
            `seldrop`), and since 2026-11-30 the scheduler picks a clock ahead of the pop (the port README): \
            65.56 MHz against 63.32 before, within the spread, on a chip 90 % full. The slowest path is the \
            shaper's on every placement: its look-ahead, a FIFO's head or the shaper's registers through the \
            bucket's chain into the eligibility flag (three) or the bucket (one), and the decode of an `EMU_Q` \
            write (no pick in its clock) through DWRR's pick enable into its refill flag (one). The next cut is the shaper's (see `shaper`).",
        "port-hpcc" => "INT stamping with the port's FIFOs, DWRR and pacer. The stamper alone meets 100 MHz, so this \
            port measures the port's own paths. The link pacer's credit after a departure (`CreditAfter`) and \
            the resident bytes (`ResidentLane`) are made for every queue's head before the pop selects; each \
            queue's non-empty flag, count-is-one flag, head and second length are flip-flops; DWRR keeps its \
            refill test and its current queue's flag as registers (see `dwrr`); the arrival takes two clocks \
            with each queue's `QCAP` test a flip-flop; the counters count a clock late (`LateCounter`); and since \
            2026-11-30 the scheduler picks a clock ahead of the pop, so the pops, the pacer and the resident \
            counts start at flip-flops (the port README). 72.82 MHz against 74.95 before, within the spread: \
            the grant's paths are gone and the slowest is now, on every placement, the pick's flag (`pend`) \
            through the pop's choice of the popping queue's second entry into DWRR's lane chains: a deficit \
            (`neg_r`) or a flag (`rp_r`, `cur_pos_r`), three quarters routing. DWRR's lanes made for both heads of the popping queue move it to a \
            register write's decode into the pick (a trial, the port README: 74.42 MHz, within the spread); \
            with the port's register writes held a clock as well (a write stage, a third trial), 76.85 MHz \
            (74.24–78.75), the slowest path then a FIFO's head into the pacer's credit (two placements) or \
            the pacer's credit through the pop into DWRR's flags (two).",
        _ => unreachable!("a per-system port of hdl::port::SYSTEMS"),
    }
}

/// The full switch port for the ECP5: 8 queues × 1,024 descriptors, every block, in the harness.
pub fn port_8x1024_board() -> Board {
    use hdl::port::{PortIn, PortOut};
    Board {
        verilog: harness::wrap(&harness::block_verilog::<hdl::port::rtl::SwitchPort8x1024>(), PortIn::PINS, PortOut::PINS),
        harness_flops: harness::harness_flops(PortIn::PINS),
    }
}

/// Every top of the ECP5 flow (`--family ecp5`): the AQM and the switch blocks as on the
/// iCE40, the port at its full size (8 queues × 1,024 descriptors) in place of the HX8K's
/// 2 × 256, and the full-size NIC (S = 1460, k_max = 64), which the HX8K cannot hold.
pub fn ecp5_all() -> Vec<Top> {
    let per_system = |n: &str| hdl::port::SYSTEMS.iter().any(|s| s.name == n);
    let mut tops: Vec<Top> =
        all().into_iter().filter(|t| !matches!(t.name, "port" | "cblt-encoder" | "cblt-decoder" | "nic") && !per_system(t.name)).collect();
    let port = all().into_iter().find(|t| t.name == "port").expect("the port top");
    tops.push(Top {
        name: "port-8x1024",
        block: port.block,
        params: "8 queues × 1,024 descriptors (block RAM), one descriptor per clock".into(),
        board: port_8x1024_board,
        fits: true,
        ice40_synth_flags: "",
        design_note: port.design_note,
    });
    let nic = all().into_iter().find(|t| t.name == "nic").expect("the NIC top");
    tops.push(Top {
        name: "nic-full",
        block: nic.block,
        params: format!(
            "S = {} bytes, k_max = {}, W = 32 bits (the `sim` build the driver runs), 32-bit bus with two clocks of read latency (pipelined)",
            harness::NIC_FULL_S,
            harness::NIC_FULL_K_MAX
        ),
        board: harness::nic_full_board,
        fits: true,
        ice40_synth_flags: "",
        design_note: "Fits the 85F with its three message-sized buffers of 2^15 32-bit words (the encoder's message, \
            the decoder's 64 rows of 512 words, the RX message window), 64 DP16KD each, nearly all of the part's \
            block RAM; the logic takes a tenth of the LUTs. The 45F of the ECP5-5G Versa (108 DP16KD) would need one \
            buffer instead of three: the decoder delivering the message from its own rows and the encoder reading \
            the source symbols from host memory by DMA. `NPKT · S` (S = 1460) is a constant table, not a DSP \
            multiply. Each buffer's 64 blocks are spread over the die, so its address, enables and data carry \
            nanoseconds of routing: the decoder's row RAM is read from an address register loaded from \
            registers (a read stage in the payload passes), its XOR is registered before the write, its \
            readout holds with the RAM's read enable; the RX message RAM is written from registers; the \
            bus read is registered at its edge and its data at the next (two clocks, pipelined); the \
            encoder's writes, the RX staging writes, the RX clear and the queue commands reach their logic a \
            clock after the bus; \
            the TX queue's full flag is a flip-flop; a refused write is decided a clock later from a registered \
            copy of it; the completion queue's ready comes from its registers alone; the encoder's buffer \
            write enable, a net to all 64 of its blocks, is a flip-flop, and its read enables are made from \
            a copy of the last-pass flag. With rows of 46 words, the decoder's wait for a word still in \
            flight cannot happen and is not built, and the next source and the next row to eliminate are \
            registered a clock ahead (a source takes 46 clocks here). The rest of the steps are in the \
            decoder's and the encoder's notes. The median misses the 125 MHz of a PCIe Gen2 x1 user clock \
            (the row above says by how much), and the seeds spread over about ten percent: what is left is \
            routing across a die whose block RAM is nearly all used, and which path is slowest changes with \
            the placement. Among them: the decoder's header check into its reason code, an `RX_TICK_DIV` \
            write into the tick divider's count (its decode's route across the die), \
            and the decoder's row RAM's word into its XOR (the word of one of 64 blocks spread over the die, \
            multiplexed, then XORed and registered; a register on the RAM's output is one more payload \
            stage). The RX staging registers, once written in the bus's clock and the slowest path of one \
            placement, now take their writes a clock later.",
    });
    tops
}
