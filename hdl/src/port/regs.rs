//! The port's own registers (block 0 of the register space, `csr` in `mod.rs`) and the time
//! base: the class map, the queue cap, the length limit, the pacer's rate and overhead, the
//! emulation and selective-drop queues (decoded: enabled and in range), and `now`, which counts
//! clocks and is loaded by `TIME_LOAD`.

use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

#[derive(LogicBlock)]
pub struct PortRegisters<const NQ: usize, const QB: usize, const DB: usize, const CB: usize, const F: usize> {
    pub clock: Signal<In, Clock>,
    /// A write to block 0.
    pub we: Signal<In, Bit>,
    pub addr: Signal<In, Bits<8>>,
    pub wdata: Signal<In, Bits<32>>,
    pub class_map: Signal<Out, Bits<24>>,
    /// `QCAP` clipped to the depth at the write: `count >= min(QCAP, depth)` is the model's
    /// `count >= QCAP || count == depth` (the count never exceeds the depth) in `CB` bits.
    pub qcap: Signal<Out, Bits<CB>>,
    pub max_len: Signal<Out, Bits<16>>,
    pub rate: Signal<Out, Bits<24>>,
    pub overhead: Signal<Out, Bits<8>>,
    /// The emulation queue is enabled, below `NQ` and the port has a shaper.
    pub emu_en: Signal<Out, Bit>,
    pub emu: Signal<Out, Bits<QB>>,
    /// The selective-drop queue is enabled, below `NQ` and the port has selective drop.
    pub sel_en: Signal<Out, Bit>,
    pub sel: Signal<Out, Bits<QB>>,
    pub now: Signal<Out, Bits<32>>,
    class_map_r: DFFWithInit<Bits<24>>,
    qcap_r: DFFWithInit<Bits<CB>>,
    max_len_r: DFFWithInit<Bits<16>>,
    rate_r: DFFWithInit<Bits<24>>,
    overhead_r: DFFWithInit<Bits<8>>,
    emu_q: DFF<Bits<5>>,
    sel_q: DFF<Bits<5>>,
    now_r: DFF<Bits<32>>,
    nq: Constant<Bits<4>>,
    depth: Constant<Bits<CB>>,
    /// Bits of a 32-bit write at or above the depth's bit (`QCAP` ≥ depth when any is set).
    above_depth: Constant<Bits<32>>,
    /// The port is built with the shaper / selective drop (`F`, `features` in `mod.rs`).
    has_shaper: Constant<Bit>,
    has_seldrop: Constant<Bit>,
}

impl<const NQ: usize, const QB: usize, const DB: usize, const CB: usize, const F: usize> Default
    for PortRegisters<NQ, QB, DB, CB, F>
{
    fn default() -> Self {
        let class_map: u64 = (0..8u64).map(|c| (c % NQ as u64) << (3 * c)).sum();
        PortRegisters {
            clock: Default::default(),
            we: Default::default(),
            addr: Default::default(),
            wdata: Default::default(),
            class_map: Default::default(),
            qcap: Default::default(),
            max_len: Default::default(),
            rate: Default::default(),
            overhead: Default::default(),
            emu_en: Default::default(),
            emu: Default::default(),
            sel_en: Default::default(),
            sel: Default::default(),
            now: Default::default(),
            class_map_r: DFFWithInit::new(class_map.into()),
            qcap_r: DFFWithInit::new((1u64 << DB).into()),
            max_len_r: DFFWithInit::new(super::DEFAULT_MAX_LEN.into()),
            rate_r: DFFWithInit::new(super::DEFAULT_RATE.into()),
            overhead_r: DFFWithInit::new(super::DEFAULT_OVERHEAD.into()),
            emu_q: Default::default(),
            sel_q: Default::default(),
            now_r: Default::default(),
            nq: Constant::new((NQ as u64).into()),
            depth: Constant::new((1u64 << DB).into()),
            above_depth: Constant::new((0xFFFF_FFFFu64 & !((1u64 << DB) - 1)).into()),
            has_shaper: Constant::new(F & super::features::SHAPER != 0),
            has_seldrop: Constant::new(F & super::features::SELDROP != 0),
        }
    }
}

impl<const NQ: usize, const QB: usize, const DB: usize, const CB: usize, const F: usize> Logic
    for PortRegisters<NQ, QB, DB, CB, F>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, class_map_r, qcap_r, max_len_r, rate_r, overhead_r, emu_q, sel_q, now_r);
        self.class_map.next = self.class_map_r.q.val();
        self.qcap.next = self.qcap_r.q.val();
        self.max_len.next = self.max_len_r.q.val();
        self.rate.next = self.rate_r.q.val();
        self.overhead.next = self.overhead_r.q.val();
        self.now.next = self.now_r.q.val();
        self.emu_en.next = self.emu_q.q.val().get_bit(4) & self.has_shaper.val();
        self.emu.next = bit_cast::<QB, 3>(self.emu_q.q.val().get_bits::<3>(0));
        if bit_cast::<4, 3>(self.emu_q.q.val().get_bits::<3>(0)) >= self.nq.val() {
            self.emu_en.next = false;
        }
        self.sel_en.next = self.sel_q.q.val().get_bit(4) & self.has_seldrop.val();
        if bit_cast::<4, 3>(self.sel_q.q.val().get_bits::<3>(0)) >= self.nq.val() {
            self.sel_en.next = false;
        }
        self.sel.next = bit_cast::<QB, 3>(self.sel_q.q.val().get_bits::<3>(0));
        self.now_r.d.next = self.now_r.q.val() + 1;
        // register writes (addresses: csr in mod.rs)
        if self.we.val() {
            match self.addr.val().index() {
                0 => self.class_map_r.d.next = self.wdata.val().get_bits::<24>(0),
                1 => {
                    self.qcap_r.d.next = self.depth.val();
                    if !(self.wdata.val() & self.above_depth.val()).any() {
                        self.qcap_r.d.next = self.wdata.val().get_bits::<CB>(0);
                    }
                }
                2 => {
                    if !self.wdata.val().get_bits::<18>(14).any() {
                        self.max_len_r.d.next = self.wdata.val().get_bits::<16>(0);
                    }
                }
                3 => self.rate_r.d.next = self.wdata.val().get_bits::<24>(0),
                4 => self.overhead_r.d.next = self.wdata.val().get_bits::<8>(0),
                5 => self.emu_q.d.next = self.wdata.val().get_bits::<5>(0) & 0x17,
                6 => self.sel_q.d.next = self.wdata.val().get_bits::<5>(0) & 0x17,
                7 => self.now_r.d.next = self.wdata.val(),
                _ => {}
            }
        }
    }
}
