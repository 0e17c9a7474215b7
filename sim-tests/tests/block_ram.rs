//! `hdl::rtl_util::BlockRam` against a plain memory on both engines: random writes and reads,
//! every read that is not of the word written at the same edge returns the stored word, and a
//! read of that word returns neither the old nor the new one (undefined on the FPGA, so the
//! blocks that use the RAM must not depend on it and the simulation makes them fail if they do).
//! `BlockRamRe` the same, and with its read enable low the output holds its word.

use hdl::cycle::{Dut, Rng};
use hdl::rtl_util::{BlockRam, BlockRamRe};
use rust_hdl::prelude::*;
use sim_tests::blocks::both_engines;

/// The RAM on one clock, as the blocks use it.
#[derive(LogicBlock, Default)]
struct OneClockRam {
    clock: Signal<In, Clock>,
    read_address: Signal<In, Bits<4>>,
    write_address: Signal<In, Bits<4>>,
    write_data: Signal<In, Bits<8>>,
    write_enable: Signal<In, Bit>,
    read_data: Signal<Out, Bits<8>>,
    ram: BlockRam<8, 4>,
}

impl Logic for OneClockRam {
    #[hdl_gen]
    fn update(&mut self) {
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.ram.read_address.next = self.read_address.val();
        self.ram.write_address.next = self.write_address.val();
        self.ram.write_data.next = self.write_data.val();
        self.ram.write_enable.next = self.write_enable.val();
        self.read_data.next = self.ram.read_data.val();
    }
}

hdl::pin_io!(OneClockRam; in: read_address, write_address, write_data, write_enable; out: read_data);

/// `BlockRamRe` on one clock.
#[derive(LogicBlock, Default)]
struct OneClockRamRe {
    clock: Signal<In, Clock>,
    read_address: Signal<In, Bits<4>>,
    write_address: Signal<In, Bits<4>>,
    write_data: Signal<In, Bits<8>>,
    write_enable: Signal<In, Bit>,
    read_enable: Signal<In, Bit>,
    read_data: Signal<Out, Bits<8>>,
    ram: BlockRamRe<8, 4>,
}

impl Logic for OneClockRamRe {
    #[hdl_gen]
    fn update(&mut self) {
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.ram.read_address.next = self.read_address.val();
        self.ram.read_enable.next = self.read_enable.val();
        self.ram.write_address.next = self.write_address.val();
        self.ram.write_data.next = self.write_data.val();
        self.ram.write_enable.next = self.write_enable.val();
        self.read_data.next = self.ram.read_data.val();
    }
}

hdl::pin_io!(OneClockRamRe; in: read_address, write_address, write_data, write_enable, read_enable; out: read_data);

#[test]
fn block_ram_reads_what_was_written_and_nothing_it_collides_with() {
    check(both_engines(OneClockRam::default, "block_ram").unwrap(), false);
}

#[test]
fn block_ram_with_read_enable_holds_its_word_when_disabled() {
    check(both_engines(OneClockRamRe::default, "block_ram_re").unwrap(), true);
}

/// Random reads and writes on each engine against a plain memory; with `read_enable`, a read
/// is skipped one clock in three and the output must keep the word it had.
fn check(engines: Vec<Box<dyn Dut>>, read_enable: bool) {
    for (e, mut dut) in engines.into_iter().enumerate() {
        let mut rng = Rng::new(0xB7A3);
        let mut mem = [0u64; 16];
        // what the read issued last clock must return, or None after a collision
        let mut expect: Option<(u64, Option<u64>, u64)> = None; // (old, new when colliding, address)
        let (mut plain, mut collided, mut held) = (0, 0, 0);
        // the output after the last enabled read, to compare a held one with
        let mut last: Option<u64> = None;
        for step in 0..20_000 {
            let ra = rng.below(16);
            let wa = if rng.below(3) == 0 { ra } else { rng.below(16) };
            let we = rng.below(2) == 0;
            let wd = rng.below(256);
            let re = !read_enable || rng.below(3) != 0;
            let mut pins = vec![ra, wa, wd, we as u64];
            if read_enable {
                pins.push(re as u64);
            }
            let got = dut.eval(&pins)[0];
            match expect {
                Some((old, None, a)) => {
                    assert_eq!(got, old, "engine {e} step {step}: read of word {a}");
                    plain += 1;
                }
                Some((old, Some(new), a)) => {
                    assert!(got != old && got != new, "engine {e} step {step}: colliding read of word {a} gave {got:#x} (old {old:#x}, new {new:#x})");
                    collided += 1;
                }
                None => {
                    if let Some(l) = last {
                        assert_eq!(got, l, "engine {e} step {step}: a disabled read changed the output");
                        held += 1;
                    }
                }
            }
            last = Some(got);
            expect = re.then(|| (mem[ra as usize], (we && wa == ra).then_some(wd), ra));
            dut.edge();
            if we {
                mem[wa as usize] = wd;
            }
        }
        assert!(plain > 5_000 && collided > 500, "engine {e}: {plain} plain reads, {collided} collisions");
        assert!(!read_enable || held > 5_000, "engine {e}: {held} held reads");
    }
}
