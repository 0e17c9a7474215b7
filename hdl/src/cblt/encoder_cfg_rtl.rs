//! RTL of the CB-LT encoder's configuration registers and its start check (`encoder_csr::csr`
//! is the register map, CB-LT §6.2 the rule `K = ⌈MSG_SIZE/S⌉`).

use crate::rtl_util::c;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::DFFWithInit;

use super::encoder_csr::csr;

// `update` decodes the register map's addresses as literals (rust-hdl's `#[hdl_gen]` takes no
// paths), and the table's span by its bits (64 ..= 127).
const _: () = assert!(
    csr::CTRL == 0 && csr::K == 1 && csr::MSG_SIZE == 2 && csr::MSG_ID == 3 && csr::SEED == 4
        && csr::SYMBOL_LIMIT == 5 && csr::TABLE == 64 && csr::CTRL_START == 1 && csr::CTRL_STOP == 2
);

/// The registers a write sets (`k`, `msg_size`, `msg_id`, `seed`, `limit`; the table's entries
/// go out on `tbl_*` a clock after their write), and the start. Writes other than `CTRL` are
/// refused while `busy_now` (the owner's `busy` or the setup), and a refused write raises
/// `rejected` a clock later. A `CTRL` start that finds the registers in range runs the setup
/// (`setup` high), which sums S k times to check `K = ⌈MSG_SIZE/S⌉`: in its last clock `start`
/// is high if it holds, or `refused` if not (as it is in the clock of a start refused outright).
/// A `CTRL` stop raises `stop` in its clock.
#[derive(LogicBlock)]
pub struct EncoderCfg {
    pub clock: Signal<In, Clock>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, Bits<8>>,
    pub cfg_wdata: Signal<In, Bits<32>>,
    pub busy: Signal<In, Bit>,
    pub k: Signal<Out, Bits<7>>,
    pub msg_size: Signal<Out, Bits<19>>,
    pub msg_id: Signal<Out, Bits<8>>,
    pub seed: Signal<Out, Bits<32>>,
    pub limit: Signal<Out, Bits<32>>,
    pub setup: Signal<Out, Bit>,
    pub start: Signal<Out, Bit>,
    pub refused: Signal<Out, Bit>,
    pub rejected: Signal<Out, Bit>,
    pub stop: Signal<Out, Bit>,
    pub busy_now: Signal<Out, Bit>,
    pub tbl_we: Signal<Out, Bit>,
    pub tbl_addr: Signal<Out, Bits<6>>,
    pub tbl_data: Signal<Out, Bits<17>>,
    s_bytes: Constant<Bits<19>>,
    max_msg: Constant<Bits<19>>,
    k_max: Constant<Bits<7>>,
    /// The start's checks on the configuration, kept as flags set by the writes: K ≤ k_max,
    /// MSG_SIZE in 1 ..= k_max·S, SEED ≠ 0 (the start decides from flip-flops, not compares).
    k_ok: DFFWithInit<Bit>,
    size_ok: DFFWithInit<Bit>,
    seed_ok: DFFWithInit<Bit>,
    k_reg: DFFWithInit<Bits<7>>,
    size_reg: DFFWithInit<Bits<19>>,
    id_reg: DFF<Bits<8>>,
    seed_reg: DFFWithInit<Bits<32>>,
    limit_reg: DFF<Bits<32>>,
    // start check: k·S by repeated addition
    setup_on: DFF<Bit>,
    setup_n: DFF<Bits<7>>,
    setup_acc: DFF<Bits<19>>,
    /// The start check's compares, registered: `st_fit` is whether MSG_SIZE fits the k·S that
    /// `setup_acc` held a clock ago, and `st_end` that the sum had reached k then (the decision
    /// is a clock after the sum, with no compare in series with the start).
    st_fit: DFF<Bit>,
    st_end: DFF<Bit>,
    /// A refused write, raised on `rejected` a clock later (the write's checks are off the
    /// counter's enable).
    rej_late: DFF<Bit>,
    /// A table write, applied a clock after it is checked (the table is only read by a scan,
    /// clocks after a start).
    tw_en: DFF<Bit>,
    tw_addr: DFF<Bits<6>>,
    tw_data: DFF<Bits<17>>,
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
    tbl_addr_ok: Signal<Local, Bit>,
}

impl EncoderCfg {
    /// The registers of an encoder for symbols of `s` bytes and up to `k_max` (≤ 64) symbols;
    /// from reset K = k_max, MSG_SIZE = k_max·S, SEED = 1.
    pub fn new(s: usize, k_max: usize) -> Self {
        assert!((1..=super::S_MAX).contains(&s) && (1..=super::K_MAX).contains(&k_max));
        EncoderCfg {
            clock: Default::default(),
            cfg_we: Default::default(),
            cfg_addr: Default::default(),
            cfg_wdata: Default::default(),
            busy: Default::default(),
            k: Default::default(),
            msg_size: Default::default(),
            msg_id: Default::default(),
            seed: Default::default(),
            limit: Default::default(),
            setup: Default::default(),
            start: Default::default(),
            refused: Default::default(),
            rejected: Default::default(),
            stop: Default::default(),
            busy_now: Default::default(),
            tbl_we: Default::default(),
            tbl_addr: Default::default(),
            tbl_data: Default::default(),
            s_bytes: c(s as u64),
            max_msg: c((s * k_max) as u64),
            k_max: c(k_max as u64),
            k_ok: DFFWithInit::new(true),
            size_ok: DFFWithInit::new(true),
            seed_ok: DFFWithInit::new(true),
            k_reg: DFFWithInit::new((k_max as u64).into()),
            size_reg: DFFWithInit::new(((s * k_max) as u64).into()),
            id_reg: Default::default(),
            seed_reg: DFFWithInit::new(1u64.into()),
            limit_reg: Default::default(),
            setup_on: Default::default(),
            setup_n: Default::default(),
            setup_acc: Default::default(),
            st_fit: Default::default(),
            st_end: Default::default(),
            rej_late: Default::default(),
            tw_en: Default::default(),
            tw_addr: Default::default(),
            tw_data: Default::default(),
            start_ok: Default::default(),
            tbl_ok: Default::default(),
            le_64: Default::default(),
            le_255: Default::default(),
            lt_2p19: Default::default(),
            le_65536: Default::default(),
            le_kmax: Default::default(),
            size_fits: Default::default(),
            tbl_addr_ok: Default::default(),
        }
    }
}

impl Logic for EncoderCfg {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, k_ok, size_ok, seed_ok, k_reg, size_reg, id_reg, seed_reg, limit_reg, setup_on, setup_n, setup_acc, st_fit, st_end, rej_late, tw_en, tw_addr, tw_data
        );
        self.k.next = self.k_reg.q.val();
        self.msg_size.next = self.size_reg.q.val();
        self.msg_id.next = self.id_reg.q.val();
        self.seed.next = self.seed_reg.q.val();
        self.limit.next = self.limit_reg.q.val();
        self.setup.next = self.setup_on.q.val();
        self.rejected.next = self.rej_late.q.val();
        self.busy_now.next = self.busy.val() | self.setup_on.q.val();
        self.start.next = self.setup_on.q.val() & self.st_end.q.val() & self.st_fit.q.val();
        self.refused.next = self.setup_on.q.val() & self.st_end.q.val() & !self.st_fit.q.val();
        self.rej_late.d.next = false;

        // ---- start: check k = ⌈MSG_SIZE/S⌉ by summing S k times ----
        self.st_fit.d.next = (self.size_reg.q.val() <= self.setup_acc.q.val())
            & ((self.size_reg.q.val() + self.s_bytes.val()) > self.setup_acc.q.val());
        self.st_end.d.next = false;
        if self.setup_on.q.val() {
            if self.st_end.q.val() {
                self.setup_on.d.next = false;
            } else if self.setup_n.q.val() == self.k_reg.q.val() {
                // the sum is k·S: its compares are registered this clock
                self.st_end.d.next = true;
            } else {
                self.setup_acc.d.next = self.setup_acc.q.val() + self.s_bytes.val();
                self.setup_n.d.next = self.setup_n.q.val() + 1;
            }
        }

        // ---- writes (literal addresses: encoder_csr::csr, tied by the const assert) ----
        // The range checks on the written word as tests of its high bits: a compare with a
        // constant is a 32-bit carry chain in yosys's iCE40 mapping, these are a few LUTs.
        self.le_64.next = !self.cfg_wdata.val().get_bits::<25>(7).any()
            & !(self.cfg_wdata.val().get_bit(6) & self.cfg_wdata.val().get_bits::<6>(0).any());
        self.le_255.next = !self.cfg_wdata.val().get_bits::<24>(8).any();
        self.lt_2p19.next = !self.cfg_wdata.val().get_bits::<13>(19).any();
        self.le_65536.next = !self.cfg_wdata.val().get_bits::<15>(17).any()
            & !(self.cfg_wdata.val().get_bit(16) & self.cfg_wdata.val().get_bits::<16>(0).any());
        // TABLE + 1 ..= TABLE + 63: 0b01xx_xxxx with the low six bits not all zero
        self.tbl_addr_ok.next = !self.cfg_addr.val().get_bit(7) & self.cfg_addr.val().get_bit(6) & self.cfg_addr.val().get_bits::<6>(0).any();
        self.stop.next = false;
        self.le_kmax.next = self.cfg_wdata.val().get_bits::<7>(0) <= self.k_max.val();
        self.size_fits.next =
            self.cfg_wdata.val().get_bits::<19>(0).any() & (self.cfg_wdata.val().get_bits::<19>(0) <= self.max_msg.val());
        self.start_ok.next = !self.busy_now.val() & self.k_ok.q.val() & self.size_ok.q.val() & self.seed_ok.q.val();
        self.tbl_ok.next = !self.busy_now.val() & self.tbl_addr_ok.val() & self.le_65536.val();
        if self.cfg_we.val() {
            if self.cfg_addr.val() == 0 {
                if self.cfg_wdata.val().get_bit(1) {
                    self.stop.next = true;
                } else if self.cfg_wdata.val().get_bit(0) {
                    if self.start_ok.val() {
                        self.setup_on.d.next = true;
                        self.setup_n.d.next = 0.into();
                        self.setup_acc.d.next = 0.into();
                    } else {
                        self.refused.next = true;
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
                    self.size_reg.d.next = self.cfg_wdata.val().get_bits::<19>(0);
                    self.size_ok.d.next = self.size_fits.val();
                } else {
                    self.rej_late.d.next = true;
                }
            } else if self.cfg_addr.val() == 3 {
                if self.le_255.val() {
                    self.id_reg.d.next = self.cfg_wdata.val().get_bits::<8>(0);
                } else {
                    self.rej_late.d.next = true;
                }
            } else if self.cfg_addr.val() == 4 {
                self.seed_reg.d.next = self.cfg_wdata.val();
                self.seed_ok.d.next = self.cfg_wdata.val().any();
            } else if self.cfg_addr.val() == 5 {
                self.limit_reg.d.next = self.cfg_wdata.val();
            } else if !self.tbl_ok.val() {
                self.rej_late.d.next = true;
            }
        }
        self.tw_en.d.next = self.cfg_we.val() & self.tbl_ok.val();
        self.tw_addr.d.next = self.cfg_addr.val().get_bits::<6>(0);
        self.tw_data.d.next = self.cfg_wdata.val().get_bits::<17>(0);
        self.tbl_we.next = self.tw_en.q.val();
        self.tbl_addr.next = self.tw_addr.q.val();
        self.tbl_data.next = self.tw_data.q.val();
        if self.stop.val() {
            self.setup_on.d.next = false;
        }
    }
}

/// The geometry `cblt_components` tests: S = 64, k_max = 16.
pub fn test_encoder_cfg() -> EncoderCfg {
    EncoderCfg::new(64, 16)
}

crate::pin_io!(EncoderCfg; in: cfg_we, cfg_addr, cfg_wdata, busy; out: k, msg_size, msg_id, seed, limit, setup, start, refused, rejected, stop, busy_now, tbl_we, tbl_addr, tbl_data);
