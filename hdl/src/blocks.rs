//! The switch blocks, registered once.
//!
//! Each pin-level block describes itself in its own folder with a [`SwitchBlock`] impl (its
//! name, model and RTL for the tests and for the board, vectors, fuzz stimulus, board-top
//! description), and [`for_each_switch_block!`](crate::for_each_switch_block) is the one list:
//! `gen-vectors`, `replay`, `fuzz`, the engine tests, the board tops and the synthesis smoke
//! tests all expand it. Adding a block is its folder and one line there.

use crate::cycle::{CycleModel, Rng};
use crate::rtl_util::PinIo;

/// What the board top of a block says about itself (the synthesis report's columns).
#[derive(Clone, Copy, Debug)]
pub struct BoardInfo {
    /// What the block is.
    pub title: &'static str,
    /// The parameter set the board top is built with.
    pub params: &'static str,
    /// What its critical path is made of and what would take it to 100 MHz: analysis, beside
    /// the measured figures in the report.
    pub design_note: &'static str,
    /// The synthesis smoke test's floor: at least this many logic cells and block RAMs (so a
    /// block optimised away is caught).
    pub min_cells: u32,
    pub min_ram: u32,
    /// Whether its board top fits the iCE40HX8K (the flow fails when one that should fit does
    /// not, and reports the cells of one that does not).
    pub fits_hx8k: bool,
    /// Flags its iCE40 build adds to `synth_ice40 -abc9` (empty for the flow's own); the design
    /// note says why a block has any.
    pub ice40_synth_flags: &'static str,
}

/// A pin-level switch block.
pub trait SwitchBlock {
    /// Its name: the vector folder, the `--block` and board top name.
    const NAME: &'static str;
    /// The golden model and the RTL the vectors and the fuzz run on.
    type Model: CycleModel + Default + 'static;
    type Rtl: PinIo + Default + 'static;
    /// The model (for its pins) and RTL of the board top (the port is smaller on the HX8K).
    type BoardModel: CycleModel + 'static;
    type BoardRtl: PinIo + Default + 'static;
    /// Inputs whose 1s are descriptor events (the fuzz counts them).
    const EVENT_PINS: &'static [&'static str];
    const BOARD: BoardInfo;
    /// The committed vector files: (file name, contents).
    fn vectors() -> Vec<(&'static str, String)>;
    /// One clock of random fuzz stimulus, in input-pin order.
    fn random_cycle(r: &mut Rng) -> Vec<u64>;
}

/// Declares a block folder's `Block` (its [`SwitchBlock`] impl), with the folder's
/// `vectors::render` and `vectors::random_cycle`:
/// `switch_block!("dwrr", model: M, rtl: R, board: BM, BR, events: ["grant_en"], BoardInfo { … })`.
#[macro_export]
macro_rules! switch_block {
    ($name:literal, model: $m:ty, rtl: $r:ty, board: $bm:ty, $br:ty, events: [$($e:literal),*], $info:expr) => {
        /// The block as the tools see it ([`crate::blocks`]).
        pub struct Block;

        impl $crate::blocks::SwitchBlock for Block {
            const NAME: &'static str = $name;
            type Model = $m;
            type Rtl = $r;
            type BoardModel = $bm;
            type BoardRtl = $br;
            const EVENT_PINS: &'static [&'static str] = &[$($e),*];
            const BOARD: $crate::blocks::BoardInfo = $info;
            fn vectors() -> Vec<(&'static str, String)> {
                vectors::render()
            }
            fn random_cycle(r: &mut $crate::cycle::Rng) -> Vec<u64> {
                vectors::random_cycle(r)
            }
        }
    };
}

/// Expands `$m!(name: Type, …)` over every switch block, in build and report order: the one
/// list of switch blocks.
#[macro_export]
macro_rules! for_each_switch_block {
    ($m:ident) => {
        $m! {
            dwrr: $crate::dwrr::Block,
            ren: $crate::ren::Block,
            seldrop: $crate::seldrop::Block,
            shaper: $crate::shaper::Block,
            intstamp: $crate::intstamp::Block,
            port: $crate::port::Block
        }
    };
}

/// The names of the switch blocks, in order.
pub fn names() -> Vec<&'static str> {
    macro_rules! names {
        ($($n:ident: $b:ty),*) => { vec![$(<$b as SwitchBlock>::NAME),*] };
    }
    crate::for_each_switch_block!(names)
}

/// Every switch block's vector files: (block, file name, contents).
pub fn vector_files() -> Vec<(&'static str, Vec<(&'static str, String)>)> {
    macro_rules! files {
        ($($n:ident: $b:ty),*) => { vec![$((<$b as SwitchBlock>::NAME, <$b as SwitchBlock>::vectors())),*] };
    }
    crate::for_each_switch_block!(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The macro's names are the blocks' own (a test module name and a vector folder agree),
    /// and no two blocks share one.
    #[test]
    fn names_match_the_list() {
        macro_rules! pairs {
            ($($n:ident: $b:ty),*) => { vec![$((stringify!($n), <$b as SwitchBlock>::NAME)),*] };
        }
        for (ident, name) in crate::for_each_switch_block!(pairs) {
            assert_eq!(ident, name);
        }
        let mut n = names();
        n.sort();
        n.dedup();
        assert_eq!(n.len(), names().len());
        assert_eq!(vector_files().len(), names().len());
    }
}
