//! RTL of the NIC's bus read path: two clocks from a read's edge to its data
//! ([`super::READ_LATENCY`]), every path between registers. The read data is the OR of the two
//! halves here, the registers' ([`RegisterRead`]) and the windows' ([`WindowRead`]); the NIC's
//! tests check them in place, `sim-tests/tests/nic_components.rs` each alone.

use rust_hdl::prelude::*;

/// The registers' half of a read: at the read's edge (`re`) the register hit (`hit`, at most one
/// set; all clear for a window read) is registered; at the next edge each group of eight
/// registers' AND-OR (zero unless the read hit it) is registered, from `value` as it is after
/// the read's edge; `data` is the OR of the eight groups.
#[derive(LogicBlock)]
pub struct RegisterRead<const R: usize> {
    pub clock: Signal<In, Clock>,
    pub re: Signal<In, Bit>,
    pub hit: [Signal<In, Bit>; R],
    pub value: [Signal<In, Bits<32>>; R],
    pub data: Signal<Out, Bits<32>>,
    hit_r: [DFF<Bit>; R],
    rd_grp: [DFF<Bits<32>>; 8],
    /// `value[i]` where register i is hit (0 past R), and the OR of those from the group's
    /// first up to i (at most one is hit; an OR chain is one synthesis balances).
    rhit_v: [Signal<Local, Bits<32>>; 64],
    ror: [Signal<Local, Bits<32>>; 64],
}

impl<const R: usize> Default for RegisterRead<R> {
    fn default() -> Self {
        assert!(R <= 64, "eight groups of eight registers");
        RegisterRead {
            clock: Default::default(),
            re: Default::default(),
            hit: std::array::from_fn(|_| Default::default()),
            value: std::array::from_fn(|_| Default::default()),
            data: Default::default(),
            hit_r: std::array::from_fn(|_| Default::default()),
            rd_grp: Default::default(),
            rhit_v: std::array::from_fn(|_| Default::default()),
            ror: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const R: usize> Logic for RegisterRead<R> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..64 {
            self.rhit_v[i].next = 0.into();
        }
        for i in 0..R {
            self.hit_r[i].clock.next = self.clock.val();
            self.hit_r[i].d.next = self.re.val() & self.hit[i].val();
            if self.hit_r[i].q.val() {
                self.rhit_v[i].next = self.value[i].val();
            }
        }
        for g in 0..8 {
            self.ror[8 * g].next = self.rhit_v[8 * g].val();
            for j in 1..8 {
                self.ror[8 * g + j].next = self.ror[8 * g + j - 1].val() | self.rhit_v[8 * g + j].val();
            }
            self.rd_grp[g].clock.next = self.clock.val();
            self.rd_grp[g].d.next = self.ror[8 * g + 7].val();
        }
        self.data.next = self.rd_grp[0].q.val()
            | self.rd_grp[1].q.val()
            | self.rd_grp[2].q.val()
            | self.rd_grp[3].q.val()
            | self.rd_grp[4].q.val()
            | self.rd_grp[5].q.val()
            | self.rd_grp[6].q.val()
            | self.rd_grp[7].q.val();
    }
}

/// The windows' half of a read: at the read's edge (`re`) the window the read is in is
/// registered (`txsym`, `rxmsg`, `cq`, `txmeta`: the TX symbol window, the RX message window, the
/// completion queue's record, the TX head's header and bitset; the last of those set wins; the
/// owner registers the window RAMs' addresses at the same edge), and so is whether the word read
/// is the completion queue's head while the queue is empty (`cq_empty_head`: its `valid` bit,
/// bit 0, then reads 0). At the next edge the window's word is registered: `data`, 0 for a
/// register read or no read.
#[derive(LogicBlock)]
pub struct WindowRead {
    pub clock: Signal<In, Clock>,
    pub re: Signal<In, Bit>,
    pub txsym: Signal<In, Bit>,
    pub rxmsg: Signal<In, Bit>,
    pub cq: Signal<In, Bit>,
    pub txmeta: Signal<In, Bit>,
    pub cq_empty_head: Signal<In, Bit>,
    pub tx_data: Signal<In, Bits<32>>,
    pub rx_data: Signal<In, Bits<32>>,
    pub cq_data: Signal<In, Bits<32>>,
    pub tx_meta: Signal<In, Bits<32>>,
    pub data: Signal<Out, Bits<32>>,
    /// Where the data comes from: 0 the registers (or no read), 1 the TX window, 2 the RX
    /// message window, 3 the completion queue, 4 the TX head's header and bitset.
    src: DFF<Bits<3>>,
    cqz: DFF<Bit>,
    win: Signal<Local, Bits<32>>,
    rd_win: DFF<Bits<32>>,
}

impl Default for WindowRead {
    fn default() -> Self {
        WindowRead {
            clock: Default::default(),
            re: Default::default(),
            txsym: Default::default(),
            rxmsg: Default::default(),
            cq: Default::default(),
            txmeta: Default::default(),
            cq_empty_head: Default::default(),
            tx_data: Default::default(),
            rx_data: Default::default(),
            cq_data: Default::default(),
            tx_meta: Default::default(),
            data: Default::default(),
            src: Default::default(),
            cqz: Default::default(),
            win: Default::default(),
            rd_win: Default::default(),
        }
    }
}

impl Logic for WindowRead {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, src, cqz, rd_win);
        // the source at the read's edge, the word at the next
        self.src.d.next = 0.into();
        if self.re.val() {
            if self.txsym.val() {
                self.src.d.next = 1.into();
            }
            if self.rxmsg.val() {
                self.src.d.next = 2.into();
            }
            if self.cq.val() {
                self.src.d.next = 3.into();
            }
            if self.txmeta.val() {
                self.src.d.next = 4.into();
            }
            self.cqz.d.next = self.cq_empty_head.val();
        }
        self.win.next = 0.into();
        if self.src.q.val() == 1 {
            self.win.next = self.tx_data.val();
        }
        if self.src.q.val() == 2 {
            self.win.next = self.rx_data.val();
        }
        if self.src.q.val() == 4 {
            self.win.next = self.tx_meta.val();
        }
        if self.src.q.val() == 3 {
            self.win.next = self.cq_data.val();
            if self.cqz.q.val() {
                self.win.next = (self.cq_data.val() >> 1) << 1;
            }
        }
        self.rd_win.d.next = self.win.val();
        self.data.next = self.rd_win.q.val();
    }
}

crate::pin_io!(WindowRead;
    in: re, txsym, rxmsg, cq, txmeta, cq_empty_head, tx_data, rx_data, cq_data, tx_meta;
    out: data);

/// Ten registers (two groups) behind the registers' read, for its own test: register `i` reads
/// `base ^ TestRegisterRead::key(i)`, and `hit_any` with `hit_idx` makes the hit one-hot.
#[derive(LogicBlock)]
pub struct TestRegisterRead {
    pub clock: Signal<In, Clock>,
    pub re: Signal<In, Bit>,
    pub hit_any: Signal<In, Bit>,
    pub hit_idx: Signal<In, Bits<4>>,
    pub base: Signal<In, Bits<32>>,
    pub data: Signal<Out, Bits<32>>,
    key: [Constant<Bits<32>>; 10],
    rd: RegisterRead<10>,
}

impl TestRegisterRead {
    /// What register `i` adds to `base`.
    pub fn key(i: usize) -> u64 {
        (i as u64 + 1).wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF
    }
}

impl Default for TestRegisterRead {
    fn default() -> Self {
        TestRegisterRead {
            clock: Default::default(),
            re: Default::default(),
            hit_any: Default::default(),
            hit_idx: Default::default(),
            base: Default::default(),
            data: Default::default(),
            key: std::array::from_fn(|i| Constant::new(Self::key(i).into())),
            rd: Default::default(),
        }
    }
}

impl Logic for TestRegisterRead {
    #[hdl_gen]
    fn update(&mut self) {
        self.rd.clock.next = self.clock.val();
        self.rd.re.next = self.re.val();
        for i in 0..10 {
            self.rd.hit[i].next = self.hit_any.val() & (self.hit_idx.val().index() == i);
            self.rd.value[i].next = self.base.val() ^ self.key[i].val();
        }
        self.data.next = self.rd.data.val();
    }
}

crate::pin_io!(TestRegisterRead; in: re, hit_any, hit_idx, base; out: data);
