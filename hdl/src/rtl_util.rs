//! RTL pieces every block shares: pin access by position (for the engines of `sim-tests`), a
//! saturating counter with a host preset, a block RAM without a read-during-write bypass, and the
//! lowest set bit of a word.

use rust_hdl::prelude::*;

/// A `Bits<N>` constant from a `u64` (the blocks' constructors build their parameters with it).
pub fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

/// The index of the word before the last of `words` (N bits): a word counter at this value steps
/// to the last, so "last word" can be a flag set beside the counter. All ones when `words` is 1,
/// which the counter of a one-word row never reaches.
pub fn before_last_word<const N: usize>(words: usize) -> Constant<Bits<N>> {
    c((words as u64).wrapping_sub(2) & ((1u64 << N) - 1))
}

/// A port value as the `u64` the cycle framework exchanges.
pub trait PinValue {
    fn from_pin(v: u64) -> Self;
    fn to_pin(&self) -> u64;
}

impl<const N: usize> PinValue for Bits<N> {
    fn from_pin(v: u64) -> Self {
        v.into()
    }
    fn to_pin(&self) -> u64 {
        self.to_u64()
    }
}

impl PinValue for bool {
    fn from_pin(v: u64) -> Self {
        v & 1 != 0
    }
    fn to_pin(&self) -> u64 {
        *self as u64
    }
}

/// A rust-hdl block driven pin by pin, in the order of its golden model's pin tables.
pub trait PinIo: Block {
    const INPUT_NAMES: &'static [&'static str];
    const OUTPUT_NAMES: &'static [&'static str];
    fn set_clock(&mut self, high: bool);
    fn set_inputs(&mut self, v: &[u64]);
    fn outputs(&self) -> Vec<u64>;
    /// The widths of the inputs and of the outputs, in the order of the names, from the
    /// signals' types.
    fn pin_widths(&self) -> (Vec<u32>, Vec<u32>);
    /// The input and output pins, names and widths, as the block declares them.
    fn pins(&self) -> (Vec<crate::cycle::Pin>, Vec<crate::cycle::Pin>) {
        let (wi, wo) = self.pin_widths();
        let pins = |names: &[&'static str], widths: Vec<u32>| {
            names.iter().zip(widths).map(|(&name, width)| crate::cycle::Pin { name, width }).collect()
        };
        (pins(Self::INPUT_NAMES, wi), pins(Self::OUTPUT_NAMES, wo))
    }
}

/// A signal's width, from its type (for [`PinIo::pin_widths`]).
pub fn signal_width<D: Direction, T: Synth>(_: &Signal<D, T>) -> u32 {
    T::BITS as u32
}

/// Implement [`PinIo`] for a block whose clock is `clock` and whose pins are the listed fields
/// (`pin_io!(T; comb; in: …; out: …)` for a combinational block, which has no clock;
/// `pin_io!(generic [const N: usize] T<N>; …)` for every `N` of a generic block).
/// The lists must follow the model's pin tables; `sim-tests` checks that they do, names and
/// widths (`PinIo::pins`).
#[macro_export]
macro_rules! pin_io {
    // a generic block: `pin_io!(generic [const N: usize] Block<N>; in: …; out: …)`
    (generic [$($g:tt)*] $t:ty; in: $($i:ident),* ; out: $($o:ident),* $(,)?) => {
        $crate::pin_io!(@impl [$($g)*] $t, |b: &mut $t, high: bool| b.clock.next = rust_hdl::prelude::Clock { clk: high }; in: $($i),*; out: $($o),*);
    };
    ($t:ty; comb; in: $($i:ident),* ; out: $($o:ident),* $(,)?) => {
        $crate::pin_io!(@impl [] $t, |_b: &mut $t, _high: bool| {}; in: $($i),*; out: $($o),*);
    };
    ($t:ty; in: $($i:ident),* ; out: $($o:ident),* $(,)?) => {
        $crate::pin_io!(@impl [] $t, |b: &mut $t, high: bool| b.clock.next = rust_hdl::prelude::Clock { clk: high }; in: $($i),*; out: $($o),*);
    };
    (@impl [$($g:tt)*] $t:ty, $clock:expr; in: $($i:ident),* ; out: $($o:ident),*) => {
        impl<$($g)*> $crate::rtl_util::PinIo for $t {
            const INPUT_NAMES: &'static [&'static str] = &[$(stringify!($i)),*];
            const OUTPUT_NAMES: &'static [&'static str] = &[$(stringify!($o)),*];
            fn set_clock(&mut self, high: bool) {
                ($clock)(self, high);
            }
            fn set_inputs(&mut self, v: &[u64]) {
                let mut it = v.iter().copied();
                $(self.$i.next = $crate::rtl_util::PinValue::from_pin(it.next().unwrap_or(0));)*
            }
            fn outputs(&self) -> Vec<u64> {
                vec![$($crate::rtl_util::PinValue::to_pin(&self.$o.val())),*]
            }
            fn pin_widths(&self) -> (Vec<u32>, Vec<u32>) {
                (vec![$($crate::rtl_util::signal_width(&self.$i)),*], vec![$($crate::rtl_util::signal_width(&self.$o)),*])
            }
        }
    };
}

/// 32-bit event counter that saturates at all-ones; `load` (a host preset) wins over `inc`.
#[derive(LogicBlock, Default)]
pub struct SatCounter {
    pub clock: Signal<In, Clock>,
    pub inc: Signal<In, Bit>,
    pub load: Signal<In, Bit>,
    pub load_val: Signal<In, Bits<32>>,
    pub value: Signal<Out, Bits<32>>,
    count: DFF<Bits<32>>,
    /// `count + 1` with its carry out: bit 32 is set only at all-ones, so saturation costs no
    /// separate all-ones compare (it is the end of the increment's carry chain). A registered
    /// all-ones flag instead was tried for the clock enable: yosys folds the enable into the
    /// increment's carry-in either way, and the flag cost cells, so the carry-out form stays.
    plus1: Signal<Local, Bits<33>>,
}

impl Logic for SatCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        self.value.next = self.count.q.val();
        self.plus1.next = bit_cast::<33, 32>(self.count.q.val()) + 1;
        if self.inc.val() & !self.plus1.val().get_bit(32) {
            self.count.d.next = self.plus1.val().get_bits::<32>(0);
        }
        if self.load.val() {
            self.count.d.next = self.load_val.val();
        }
    }
}

// pins for the counter's own test (sim-tests/tests/sat_counter.rs)
crate::pin_io!(SatCounter; in: inc, load, load_val; out: value);

/// A saturating 32-bit counter (as [`SatCounter`]) that counts its event at the edge after the one
/// it happens in: the event is registered first, so the logic that decides it (often a compare
/// on the block's inputs) and the counter's carry chain sit in different clocks. Saturation is a
/// registered all-ones flag kept beside the count, so the clock enable is two flip-flops and an
/// AND, not the end of the carry chain. A preset (`load`) takes effect at its own edge, as in
/// `SatCounter`, and drops an event still in the register (the event happened before the preset
/// or with it, and a preset wins over an event in the same clock). The golden models' side is
/// [`crate::cycle::LateCounters`].
#[derive(LogicBlock)]
pub struct LateCounter {
    pub clock: Signal<In, Clock>,
    pub inc: Signal<In, Bit>,
    pub load: Signal<In, Bit>,
    pub load_val: Signal<In, Bits<32>>,
    pub value: Signal<Out, Bits<32>>,
    /// The event of the last clock (not `event`: a Verilog keyword).
    waiting: DFF<Bit>,
    count: DFF<Bits<32>>,
    /// `count` is all-ones.
    sat: DFF<Bit>,
    all_ones: Constant<Bits<32>>,
    below_all_ones: Constant<Bits<32>>,
}

impl Default for LateCounter {
    fn default() -> Self {
        LateCounter {
            clock: Default::default(),
            inc: Default::default(),
            load: Default::default(),
            load_val: Default::default(),
            value: Default::default(),
            waiting: Default::default(),
            count: Default::default(),
            sat: Default::default(),
            all_ones: Constant::new(0xFFFF_FFFFu64.into()),
            below_all_ones: Constant::new(0xFFFF_FFFEu64.into()),
        }
    }
}

impl Logic for LateCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, waiting, count, sat);
        self.waiting.d.next = self.inc.val() & !self.load.val();
        self.value.next = self.count.q.val();
        if self.waiting.q.val() & !self.sat.q.val() {
            self.count.d.next = self.count.q.val() + 1;
            self.sat.d.next = self.count.q.val() == self.below_all_ones.val();
        }
        if self.load.val() {
            self.count.d.next = self.load_val.val();
            self.sat.d.next = self.load_val.val() == self.all_ones.val();
        }
    }
}

crate::pin_io!(LateCounter; in: inc, load, load_val; out: value);

/// The register-write port's pipeline register: a write presented on `we`/`addr`/`wdata` is
/// checked in its clock (the block computes `ok`, usually carry-chain compares on the data) and
/// comes out on `q_*` a clock later with its verdict, where the block decodes and applies it. The
/// check and the decode never share a clock with each other or with the datapath; a write takes
/// effect at the second edge after it is presented. The golden models' side is
/// [`crate::cycle::CsrStage`].
#[derive(LogicBlock, Default)]
pub struct CsrStage<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub we: Signal<In, Bit>,
    pub addr: Signal<In, Bits<A>>,
    pub wdata: Signal<In, Bits<32>>,
    /// The block's verdict on this clock's (`addr`, `wdata`).
    pub ok: Signal<In, Bit>,
    pub q_we: Signal<Out, Bit>,
    pub q_addr: Signal<Out, Bits<A>>,
    pub q_wdata: Signal<Out, Bits<32>>,
    pub q_ok: Signal<Out, Bit>,
    r_we: DFF<Bit>,
    r_addr: DFF<Bits<A>>,
    r_wdata: DFF<Bits<32>>,
    r_ok: DFF<Bit>,
}

impl<const A: usize> Logic for CsrStage<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_we, r_addr, r_wdata, r_ok);
        self.r_we.d.next = self.we.val();
        self.r_addr.d.next = self.addr.val();
        self.r_wdata.d.next = self.wdata.val();
        self.r_ok.d.next = self.ok.val();
        self.q_we.next = self.r_we.q.val();
        self.q_addr.next = self.r_addr.q.val();
        self.q_wdata.next = self.r_wdata.q.val();
        self.q_ok.next = self.r_ok.q.val();
    }
}

/// A simple dual-port block RAM of 2^N words of W bits, with rust-hdl's `RAM` pins: a read
/// registered at `read_clock`, a write at `write_clock` (the blocks drive both from one clock).
///
/// It differs from `RAM` in one way: a read of the word being written at the same edge is
/// **undefined**, as it is on the block RAMs of the iCE40 and the ECP5 in this mode. The
/// Verilog marks the memory `(* no_rw_check *)`, so yosys maps it to block RAM alone; for `RAM`
/// it adds a bypass (the write data and address registered, an address compare and a W-bit
/// multiplexer on the read data) that is about 70 flip-flops and 39 LUTs for a 16 × 32 memory
/// (`bitstreams`' test `block_ram_has_no_read_during_write_bypass` measures both), and sits on
/// the read path. Every user forwards such a word itself or never reads it, and the
/// simulation keeps them honest: on rust-hdl and on Verilator (`SYNTHESIS` undefined) the
/// colliding read returns a word that is neither the old nor the new one, so a design that uses
/// it disagrees with its golden model.
#[derive(LogicBlock, Default)]
pub struct BlockRam<const W: usize, const N: usize> {
    pub read_address: Signal<In, Bits<N>>,
    pub read_clock: Signal<In, Clock>,
    pub read_data: Signal<Out, Bits<W>>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_clock: Signal<In, Clock>,
    pub write_data: Signal<In, Bits<W>>,
    pub write_enable: Signal<In, bool>,
    _mem: Box<std::collections::BTreeMap<Bits<N>, Bits<W>>>,
}

/// The word a colliding read returns in simulation: neither `old` nor `new` (W ≥ 2).
pub fn collision_word<const W: usize>(old: Bits<W>, new: Bits<W>) -> Bits<W> {
    if !new == old {
        old ^ Bits::<W>::from(1u64)
    } else {
        !new
    }
}

impl<I: Iterator<Item = Bits<W>>, const W: usize, const N: usize> From<I> for BlockRam<W, N> {
    /// A RAM initialised with `v` from address 0 (bitstream contents).
    fn from(v: I) -> Self {
        let mem = v.enumerate().map(|(a, d)| (Bits::<N>::from(a as u64), d)).collect();
        BlockRam { _mem: Box::new(mem), ..Default::default() }
    }
}

/// `Logic` for a block RAM type: `$read` says whether this step reads (given `self`).
macro_rules! block_ram_logic {
    ($t:ident, $re:expr, |$me:ident| $read:expr) => {
        impl<const W: usize, const N: usize> Logic for $t<W, N> {
            fn update(&mut self) {
                let $me = &*self;
                let read = $read;
                let r = block_ram_step(&mut self._mem, read, self.read_address.val(), self.write_clock.pos_edge(), self.write_enable.val(), self.write_address.val(), self.write_data.val());
                if let Some(d) = r {
                    self.read_data.next = d;
                }
            }

            fn connect(&mut self) {
                self.read_data.connect();
            }

            fn hdl(&self) -> Verilog {
                Verilog::Custom(block_ram_verilog::<W, N>(&self._mem, $re))
            }
        }
    };
}

block_ram_logic!(BlockRam, false, |me| me.read_clock.pos_edge());

/// [`BlockRam`] with a read enable: a read happens at `read_clock` only with `read_enable`
/// high, and `read_data` holds otherwise (the block RAM's read clock enable, `RCLKE` on the
/// iCE40, `CEB` on the ECP5). A consumer that stalls keeps its word on the RAM's output, with no
/// multiplexer on the read address.
#[derive(LogicBlock, Default)]
pub struct BlockRamRe<const W: usize, const N: usize> {
    pub read_address: Signal<In, Bits<N>>,
    pub read_clock: Signal<In, Clock>,
    pub read_enable: Signal<In, bool>,
    pub read_data: Signal<Out, Bits<W>>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_clock: Signal<In, Clock>,
    pub write_data: Signal<In, Bits<W>>,
    pub write_enable: Signal<In, bool>,
    _mem: Box<std::collections::BTreeMap<Bits<N>, Bits<W>>>,
}

block_ram_logic!(BlockRamRe, true, |me| me.read_clock.pos_edge() && me.read_enable.val());

/// One simulation step of a block RAM: the word read at a read edge (a colliding read returns
/// [`collision_word`]), then the write.
fn block_ram_step<const W: usize, const N: usize>(
    mem: &mut std::collections::BTreeMap<Bits<N>, Bits<W>>,
    read: bool,
    ra: Bits<N>,
    write_edge: bool,
    we: bool,
    wa: Bits<N>,
    wd: Bits<W>,
) -> Option<Bits<W>> {
    let out = read.then(|| {
        let old = mem.get(&ra).copied().unwrap_or_default();
        if write_edge && we && wa == ra {
            collision_word(old, wd)
        } else {
            old
        }
    });
    if write_edge && we {
        mem.insert(wa, wd);
    }
    out
}

/// The Verilog of a block RAM, with or without a read enable.
fn block_ram_verilog<const W: usize, const N: usize>(mem: &std::collections::BTreeMap<Bits<N>, Bits<W>>, read_enable: bool) -> String {
    assert!(W >= 2, "BlockRam needs words of two bits or more");
    let init: Vec<String> = mem.iter().map(|(a, d)| format!("   mem[{}] = {};", a.verilog(), d.verilog())).collect();
    let init = if init.is_empty() { String::new() } else { format!("initial begin\n{}\nend\n", init.join("\n")) };
    let (re_open, re_close) = if read_enable { ("if (read_enable) begin\n", "end\n") } else { ("", "") };
    format!(
        "\
(* no_rw_check *)
reg[{hi}:0] mem[{top}:0];
{init}
always @(posedge read_clock) begin
{re_open}`ifdef SYNTHESIS
   read_data <= mem[read_address];
`else
   // a read of the word written at this edge is undefined on the FPGA: neither word here
   if (write_enable && (write_address == read_address))
      read_data <= (~write_data == mem[read_address]) ? (mem[read_address] ^ {W}'d1) : ~write_data;
   else
      read_data <= mem[read_address];
`endif
{re_close}end

always @(posedge write_clock) begin
   if (write_enable) begin
      mem[write_address] <= write_data;
   end
end
",
        hi = W - 1,
        top = (1usize << N) - 1,
    )
}

/// The lowest set bit of an N-bit word (N ≤ 64): one-hot and its index (the word without it
/// is `x & !oh`, made where it is used). The one-hot is `x & −x` (a carry chain); the index
/// does not wait for it: a priority encoder in three levels of four (the lowest set bit of each
/// group of 4 bits, the lowest non-empty group of each 16 bits, the lowest non-empty 16 bits),
/// each level a LUT or two on either family.
#[derive(LogicBlock)]
pub struct LowestOne<const N: usize> {
    pub x: Signal<In, Bits<N>>,
    pub oh: Signal<Out, Bits<N>>,
    pub idx: Signal<Out, Bits<6>>,
    /// `x` padded (or cut) to 63 bits: bit 63 is never read, as the index of an empty word's
    /// lowest group is 63 anyway.
    xp: Signal<Local, Bits<63>>,
    /// Per group of 4 bits: not empty (the last group's is never needed), and its lowest bit's
    /// index in it.
    g_nz: [Signal<Local, Bit>; 15],
    g_i: [Signal<Local, Bits<6>>; 16],
    /// Per 16 bits: not empty (but the last), and its lowest bit's index in it.
    s_nz: [Signal<Local, Bit>; 3],
    s_i: [Signal<Local, Bits<6>>; 4],
}

impl<const N: usize> Default for LowestOne<N> {
    fn default() -> Self {
        assert!(N <= 64, "LowestOne takes at most 64 bits");
        LowestOne {
            x: Default::default(),
            oh: Default::default(),
            idx: Default::default(),
            xp: Default::default(),
            g_nz: Default::default(),
            g_i: Default::default(),
            s_nz: Default::default(),
            s_i: Default::default(),
        }
    }
}

impl<const N: usize> Logic for LowestOne<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.oh.next = self.x.val() & (Bits::<N>::from(0) - self.x.val());
        self.xp.next = bit_cast::<63, N>(self.x.val());
        for g in 0..15 {
            self.g_nz[g].next = self.xp.val().get_bits::<4>(4 * g).any();
        }
        for g in 0..16 {
            self.g_i[g].next = 3.into();
            if self.xp.val().get_bit(4 * g + 2) {
                self.g_i[g].next = 2.into();
            }
            if self.xp.val().get_bit(4 * g + 1) {
                self.g_i[g].next = 1.into();
            }
            if self.xp.val().get_bit(4 * g) {
                self.g_i[g].next = 0.into();
            }
        }
        for s in 0..3 {
            self.s_nz[s].next =
                self.g_nz[4 * s].val() | self.g_nz[4 * s + 1].val() | self.g_nz[4 * s + 2].val() | self.g_nz[4 * s + 3].val();
        }
        for s in 0..4 {
            self.s_i[s].next = self.g_i[4 * s + 3].val() | Bits::<6>::from(12);
            if self.g_nz[4 * s + 2].val() {
                self.s_i[s].next = self.g_i[4 * s + 2].val() | Bits::<6>::from(8);
            }
            if self.g_nz[4 * s + 1].val() {
                self.s_i[s].next = self.g_i[4 * s + 1].val() | Bits::<6>::from(4);
            }
            if self.g_nz[4 * s].val() {
                self.s_i[s].next = self.g_i[4 * s].val();
            }
        }
        self.idx.next = self.s_i[3].val() | Bits::<6>::from(48);
        if self.s_nz[2].val() {
            self.idx.next = self.s_i[2].val() | Bits::<6>::from(32);
        }
        if self.s_nz[1].val() {
            self.idx.next = self.s_i[1].val() | Bits::<6>::from(16);
        }
        if self.s_nz[0].val() {
            self.idx.next = self.s_i[0].val();
        }
    }
}

/// `a + b − sub + cin` (mod 2^N) in one carry chain: a carry-save layer turns `a`, `b` and
/// `!sub` into a sum word and a carry word (with `cin` in the carry word's free bit 0), and the
/// chain adds them plus the 1 that completes `−sub = !sub + 1`, as the subtraction
/// `sum − !carry`. Written as `a + b − sub`, yosys makes two chains in series (its `share`
/// pass merges no adders), so a datapath that needs three operands on its critical path uses
/// this. Pass `sub` 0 for `a + b + cin`.
#[derive(LogicBlock, Default)]
pub struct AddSub<const N: usize> {
    pub a: Signal<In, Bits<N>>,
    pub b: Signal<In, Bits<N>>,
    pub sub: Signal<In, Bits<N>>,
    pub cin: Signal<In, Bit>,
    pub out: Signal<Out, Bits<N>>,
    nsub: Signal<Local, Bits<N>>,
    csa_sum: Signal<Local, Bits<N>>,
    csa_carry: Signal<Local, Bits<N>>,
}

impl<const N: usize> Logic for AddSub<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.nsub.next = !self.sub.val();
        self.csa_sum.next = self.a.val() ^ self.b.val() ^ self.nsub.val();
        self.csa_carry.next = (((self.a.val() & self.b.val()) | (self.a.val() & self.nsub.val())
            | (self.b.val() & self.nsub.val())) << 1) | bit_cast::<N, 1>(self.cin.val().into());
        self.out.next = self.csa_sum.val() - !self.csa_carry.val();
    }
}

/// Whether `(a − b) mod 2^32 > c` (or `≥ c` when `ge`): an elapsed time on the wrapping clock
/// against a threshold, in one carry chain instead of a subtraction and then a compare. The
/// chain makes `y = a − b − c − 1 + ge` on 34 bits (`AddSub`), and a compare `a ≥ b` beside it
/// says whether the subtraction wrapped: if not, the answer is `y ≥ 0`; if it did, the elapsed
/// time is `a − b + 2^32`, and the answer is `y ≥ −2^32`. Combinational.
#[derive(LogicBlock, Default)]
pub struct WrapDiffAbove {
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub c: Signal<In, Bits<32>>,
    pub ge: Signal<In, Bit>,
    pub above: Signal<Out, Bit>,
    y: AddSub<34>,
    nb: Signal<Local, Bits<34>>,
}

impl Logic for WrapDiffAbove {
    #[hdl_gen]
    fn update(&mut self) {
        self.nb.next = !bit_cast::<34, 32>(self.b.val());
        self.y.a.next = bit_cast::<34, 32>(self.a.val());
        self.y.b.next = self.nb.val();
        self.y.sub.next = bit_cast::<34, 32>(self.c.val());
        self.y.cin.next = self.ge.val();
        // (the top two bits through masks, which yosys reduces to the bits: the lint wants
        // every bit of a signal read)
        self.above.next = (self.y.out.val() & 0x2_0000_0000u64) == 0;
        if self.a.val() < self.b.val() {
            self.above.next = (self.y.out.val() & 0x3_0000_0000u64) != 0x2_0000_0000u64;
        }
    }
}

/// A port of a Verilog module: the Verilator bridge binds to it, the board harness drives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub width: u32,
    pub input: bool,
}

/// Parse the ports of `module top(...)` from rust-hdl's Verilog.
pub fn parse_ports(verilog: &str) -> Result<Vec<Port>, String> {
    let start = verilog.find("module top(").ok_or("no `module top(` in the Verilog")?;
    let body = &verilog[start..];
    let mut ports = vec![];
    for line in body.lines().skip(1) {
        let l = line.trim();
        if l.starts_with("// Stub") || l.starts_with("// Sub") || l.starts_with("endmodule") {
            break;
        }
        let (input, rest) = if let Some(r) = l.strip_prefix("input wire") {
            (true, r)
        } else if let Some(r) = l.strip_prefix("output reg").or_else(|| l.strip_prefix("output wire")) {
            (false, r)
        } else {
            continue;
        };
        let rest = rest.trim().trim_end_matches(';').trim();
        let (width, name) = if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']').ok_or(format!("bad port range in `{l}`"))?;
            let hi: u32 = r[..close].split(':').next().unwrap_or("").trim().parse().map_err(|e| format!("bad port range in `{l}`: {e}"))?;
            (hi + 1, r[close + 1..].trim())
        } else {
            (1, rest)
        };
        ports.push(Port { name: name.to_string(), width, input });
    }
    if ports.is_empty() {
        return Err("no ports found in `module top`".into());
    }
    Ok(ports)
}


#[cfg(test)]
mod tests {
    use super::*;

    fn check<const N: usize>(x: u64) {
        let mut lo = LowestOne::<N>::default();
        lo.connect_all();
        lo.x.next = x.into();
        // settle, as rust-hdl's simulator does: update until no signal changes
        for _ in 0..32 {
            lo.update_all();
            if !lo.has_changed() {
                break;
            }
        }
        assert!(!lo.has_changed(), "LowestOne did not settle");
        let want_idx = if x == 0 { 63 } else { x.trailing_zeros() as u64 };
        assert_eq!(lo.idx.val().to_u64(), want_idx, "idx of {x:#x} at N = {N}");
        assert_eq!(lo.oh.val().to_u64(), x & x.wrapping_neg(), "one-hot of {x:#x} at N = {N}");
    }

    /// `AddSub` against plain arithmetic mod 2^N, on random words and on the carries' edges.
    #[test]
    fn add_sub_is_a_plus_b_minus_sub_plus_cin() {
        fn one<const N: usize>(a: u64, b: u64, sub: u64, cin: bool) {
            let m = (1u64 << N) - 1;
            let (a, b, sub) = (a & m, b & m, sub & m);
            let mut x = AddSub::<N>::default();
            x.connect_all();
            x.a.next = a.into();
            x.b.next = b.into();
            x.sub.next = sub.into();
            x.cin.next = cin;
            for _ in 0..8 {
                x.update_all();
            }
            assert!(!x.has_changed(), "AddSub did not settle");
            let want = a.wrapping_add(b).wrapping_sub(sub).wrapping_add(cin as u64) & m;
            assert_eq!(x.out.val().to_u64(), want, "{a:#x} + {b:#x} - {sub:#x} + {cin} at N = {N}");
        }
        let mut r = 0x2545_F491_4F6C_DD1Du64;
        for i in 0..4000u64 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let (a, b, s) = (r, r.rotate_left(21), r.rotate_left(43) >> (i % 40));
            one::<34>(a, b, s, i & 1 == 1);
            one::<17>(a, b, s, i & 2 == 2);
        }
        for &(a, b, s) in &[(0, 0, 0), (0, 0, 1), (u64::MAX, 1, 0), (u64::MAX, u64::MAX, u64::MAX), (0, 0, u64::MAX)] {
            one::<34>(a, b, s, false);
            one::<34>(a, b, s, true);
        }
    }

    /// The index and one-hot of the lowest set bit, against `trailing_zeros`, on every single
    /// bit and on words with several (all-zero gives index 63, one-hot 0).
    #[test]
    fn lowest_one_finds_the_lowest_set_bit() {
        let mut r = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..64 {
            check::<64>(1 << i);
            if i < 16 {
                check::<16>(1 << i);
            }
        }
        for _ in 0..2000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let x = r >> (r % 61);
            check::<64>(x);
            check::<16>(x & 0xFFFF);
        }
        check::<64>(0);
        check::<16>(0);
    }
}
