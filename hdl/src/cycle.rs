//! Pin-level cycle models and the vector format the switch blocks share (the AQM keeps its
//! higher-level op format, `aqm::vectors`, driven through the same [`Dut`] trait).
//!
//! A block is a set of named input and output pins plus a clock. Its golden model implements
//! [`CycleModel`]: given this cycle's inputs it returns this cycle's outputs (combinational, from
//! the state at the start of the cycle) and moves to the state after the clock edge. Both RTL
//! engines (rust-hdl and Verilator) sit behind the same [`Dut`] trait, so one replay loop and one
//! lockstep fuzz loop serve every block.
//!
//! Vector files (`testbench-vectors/<block>/*.jsonl`, format in testbench-vectors/README.md) are
//! lists of [`Op`]: a `cycle` op drives its inputs (unlisted inputs are 0) for `n` clocks and
//! checks `expect` (outputs by name) in the last of them, before its clock edge.

use crate::vectors::{Located, Tally};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One pin: its name in the model, the rust-hdl block and the Verilog, and its width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pin {
    pub name: &'static str,
    pub width: u32,
}

/// All-ones in the low `width` bits.
pub const fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Declare a block's pin bundle: a struct of `u64` fields, its pin table, and conversions to
/// and from the pin-ordered value list the engines exchange. Values are masked to their widths
/// on the way in, as the RTL's ports would truncate them.
#[macro_export]
macro_rules! pins {
    ($(#[$m:meta])* $vis:vis struct $name:ident { $($(#[doc = $fd:literal])* $f:ident : $w:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name { $($(#[doc = $fd])* pub $f: u64),* }
        impl $name {
            pub const PINS: &'static [$crate::cycle::Pin] =
                &[$($crate::cycle::Pin { name: stringify!($f), width: $w }),*];
            /// Each pin's doc comment (empty when it has none), in [`Self::PINS`] order.
            #[allow(dead_code)]
            pub const PIN_DOCS: &'static [&'static str] = &[$(concat!($($fd, " ",)* "")),*];
            pub fn from_slice(v: &[u64]) -> Self {
                let mut it = v.iter().copied();
                $name { $($f: it.next().unwrap_or(0) & $crate::cycle::mask($w)),* }
            }
            pub fn to_vec(&self) -> Vec<u64> {
                vec![$(self.$f),*]
            }
        }
    };
}

/// Anything that can be clocked at pin level: a golden model or an RTL engine.
pub trait Dut {
    /// Drive this cycle's inputs (pin order) and return the settled outputs (pin order), held
    /// by the engine until its next call (no allocation per clock).
    fn eval(&mut self, inputs: &[u64]) -> &[u64];
    /// Rising clock edge with the inputs of the last `eval`.
    fn edge(&mut self);
}

/// A golden model at pin level.
pub trait CycleModel: Clone {
    const INPUTS: &'static [Pin];
    const OUTPUTS: &'static [Pin];
    /// Outputs for this cycle's inputs; `self` becomes the state after the clock edge.
    fn step(&mut self, inputs: &[u64]) -> Vec<u64>;
    /// Clocks between presenting a register write and the clock it is in force in, beyond the
    /// one of the write itself (1 for a block whose write port has a [`CsrStage`]).
    const WRITE_DELAY: usize = 0;
}

/// A golden model as a [`Dut`]: `eval` computes on a copy, `edge` commits it.
#[derive(Clone, Debug, Default)]
pub struct ModelDut<M> {
    pub state: M,
    pending: Option<M>,
    out: Vec<u64>,
}

impl<M: CycleModel> ModelDut<M> {
    pub fn new(state: M) -> Self {
        ModelDut { state, pending: None, out: vec![] }
    }
}

impl<M: CycleModel> Dut for ModelDut<M> {
    fn eval(&mut self, inputs: &[u64]) -> &[u64] {
        let mut next = self.state.clone();
        self.out = next.step(inputs);
        self.pending = Some(next);
        &self.out
    }
    fn edge(&mut self) {
        if let Some(n) = self.pending.take() {
            self.state = n;
        }
    }
}

/// One line of a cycle vector file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Op {
    /// A comment that travels with the vectors (names the spec vector it reproduces).
    Note { text: String },
    /// Drive `set` (unlisted inputs 0) for `n` clocks; check `expect` in the last one.
    Cycle {
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        set: BTreeMap<String, u64>,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        n: u32,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        expect: BTreeMap<String, u64>,
    },
}

fn one() -> u32 {
    1
}
fn is_one(x: &u32) -> bool {
    *x == 1
}

/// The input values of a `cycle` op in pin order; unknown names and values wider than their
/// pin are errors (a vector file must not silently drive something else than it says).
pub fn input_values(inputs: &[Pin], set: &BTreeMap<String, u64>) -> Result<Vec<u64>, String> {
    let mut v = vec![0u64; inputs.len()];
    for (name, &val) in set {
        let i = inputs.iter().position(|p| p.name == name).ok_or_else(|| {
            let known: Vec<_> = inputs.iter().map(|p| p.name).collect();
            format!("unknown input pin `{name}` (pins: {})", known.join(", "))
        })?;
        if val & !mask(inputs[i].width) != 0 {
            return Err(format!("value {val} does not fit the {}-bit input `{name}`", inputs[i].width));
        }
        v[i] = val;
    }
    Ok(v)
}

/// Replay vector ops on `dut`; one tally entry per checked `cycle` op. Format errors (unknown
/// pins, oversize values) stop the replay with `NAME:LINE: message`.
pub fn replay(
    name: &str,
    inputs: &[Pin],
    outputs: &[Pin],
    ops: &[Located<Op>],
    dut: &mut dyn Dut,
) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for op in ops {
        let Op::Cycle { set, n, expect } = &op.item else { continue };
        let at = format!("{name}:{}", op.line);
        let inp = input_values(inputs, set).map_err(|e| format!("{at}: {e}"))?;
        let mut want = vec![];
        for (k, &v) in expect {
            let i = outputs.iter().position(|p| p.name == k).ok_or_else(|| format!("{at}: unknown output pin `{k}`"))?;
            want.push((i, v));
        }
        if *n == 0 {
            return Err(format!("{at}: `n` must be at least 1"));
        }
        for c in 0..*n {
            let out = dut.eval(&inp);
            if c + 1 == *n && !want.is_empty() {
                let bad: Vec<String> = want
                    .iter()
                    .filter(|(i, v)| out[*i] != *v)
                    .map(|(i, v)| format!("{} expected {v} got {}", outputs[*i].name, out[*i]))
                    .collect();
                tally.check(bad.is_empty(), || format!("{at}: {}", bad.join(", ")));
            }
            dut.edge();
        }
    }
    Ok(tally)
}

/// Builds a vector file by running the golden model: every `cycle` records the model's full
/// output map of its last clock as the expectation. Spec tests use the returned outputs.
pub struct Script<M: CycleModel> {
    dut: ModelDut<M>,
    pub ops: Vec<Op>,
}

impl<M: CycleModel + Default> Default for Script<M> {
    fn default() -> Self {
        Script { dut: ModelDut::new(M::default()), ops: vec![] }
    }
}

impl<M: CycleModel> Script<M> {
    pub fn note(&mut self, text: impl Into<String>) {
        self.ops.push(Op::Note { text: text.into() });
    }

    /// Drive `inputs` (pin order) for `n` clocks; returns the outputs of the last clock.
    pub fn cycle(&mut self, inputs: Vec<u64>, n: u32) -> Vec<u64> {
        assert!(n >= 1);
        let mut out = vec![];
        for _ in 0..n {
            out = self.dut.eval(&inputs).to_vec();
            self.dut.edge();
        }
        let set = M::INPUTS.iter().zip(&inputs).filter(|(_, &v)| v != 0).map(|(p, &v)| (p.name.to_string(), v)).collect();
        let expect = M::OUTPUTS.iter().zip(&out).map(|(p, &v)| (p.name.to_string(), v)).collect();
        self.ops.push(Op::Cycle { set, n, expect });
        out
    }

    /// One register write: a clock with `csr_we`, `csr_addr`, `csr_wdata` set and nothing else.
    pub fn csr(&mut self, addr: u8, data: u64) {
        let mut v = vec![0u64; M::INPUTS.len()];
        for (name, val) in [("csr_we", 1), ("csr_addr", addr as u64), ("csr_wdata", data)] {
            let i = M::INPUTS.iter().position(|p| p.name == name).expect("block has a register port");
            v[i] = val;
        }
        self.cycle(v, 1);
        // idle until the write is in force, so a script's next line sees it (fuzz runs write
        // mid-flight instead)
        if M::WRITE_DELAY > 0 {
            self.cycle(vec![0u64; M::INPUTS.len()], M::WRITE_DELAY as u32);
        }
    }

    /// The model state now (after the last clock).
    pub fn model(&self) -> &M {
        &self.dut.state
    }
}

/// Increment a 32-bit event counter that saturates at all-ones (every block's counters).
pub fn inc32(x: &mut u64) {
    if *x < 0xFFFF_FFFF {
        *x += 1;
    }
}

/// A block's saturating 32-bit statistics as the RTL's `rtl_util::LateCounter`s hold them: an
/// event is counted at the clock edge after the one it happens in, a host preset takes effect at
/// its own edge and drops the event still waiting (a preset wins over an event in its clock).
/// Outputs read `value`, the count at the start of the clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LateCounters<const N: usize> {
    pub value: [u64; N],
    /// Events of the last clock, counted at this clock's edge.
    waiting: [bool; N],
}

impl<const N: usize> Default for LateCounters<N> {
    fn default() -> Self {
        LateCounters { value: [0; N], waiting: [false; N] }
    }
}

impl<const N: usize> LateCounters<N> {
    /// The clock edge: count the waiting events, apply this clock's preset (`load`: counter and
    /// value) and let this clock's `events` wait for the next edge.
    pub fn edge(&mut self, events: [bool; N], load: Option<(usize, u64)>) {
        for (v, w) in self.value.iter_mut().zip(self.waiting) {
            if w {
                inc32(v);
            }
        }
        self.waiting = events;
        if let Some((i, v)) = load {
            self.value[i] = v & 0xFFFF_FFFF;
            self.waiting[i] = false;
        }
    }
}

impl<const N: usize> std::ops::Index<usize> for LateCounters<N> {
    type Output = u64;
    fn index(&self, i: usize) -> &u64 {
        &self.value[i]
    }
}

/// The register-write port's pipeline register as the RTL's `rtl_util::CsrStage` holds it: a
/// write presented in one clock is applied at the edge that ends the next clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsrStage {
    /// The write presented last clock: (address, data).
    pub held: Option<(u64, u64)>,
}

impl CsrStage {
    /// The clock edge: returns the write to apply now and holds this clock's (`we`, `addr`, `data`).
    pub fn edge(&mut self, we: u64, addr: u64, data: u64) -> Option<(u64, u64)> {
        std::mem::replace(&mut self.held, (we & 1 == 1).then_some((addr, data)))
    }
}

/// A block's vector files as committed: each file's ops under a header naming the block, the
/// file, the generator and the format.
pub fn render_files<T: Serialize>(title: &str, generator: &str, files: Vec<(&'static str, Vec<T>)>) -> Vec<(&'static str, String)> {
    files
        .into_iter()
        .map(|(name, ops)| {
            let header = format!(
                "{title} vectors: {name}. Generated by the golden model ({generator});\n\
                 regenerate with `cargo run --release -p hdl --bin gen-vectors`. Format: testbench-vectors/README.md"
            );
            (name, crate::vectors::to_jsonl(&header, &ops))
        })
        .collect()
}

/// Panic unless `testbench-vectors/<block>/` holds exactly what the generator renders today.
pub fn assert_fresh(block: &str, rendered: Vec<(&'static str, String)>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench-vectors").join(block);
    for (name, text) in rendered {
        let on_disk = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        assert!(on_disk == text, "testbench-vectors/{block}/{name} is stale: run `cargo run --release -p hdl --bin gen-vectors`");
    }
}

/// [`assert_fresh`] for binary files (the CB-LT pcap).
pub fn assert_fresh_bytes(block: &str, rendered: Vec<(&'static str, Vec<u8>)>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench-vectors").join(block);
    for (name, bytes) in rendered {
        let on_disk = std::fs::read(dir.join(name)).unwrap_or_default();
        assert!(on_disk == bytes, "testbench-vectors/{block}/{name} is stale: run `cargo run --release -p hdl --bin gen-vectors`");
    }
}

/// SplitMix64: small, seedable, good enough to drive stimulus; a failing fuzz run names its
/// seed so it replays.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    /// Fuzz stimulus: a register write in one clock of a hundred, as the write port's pins
    /// (`csr_we`, `csr_addr`, `csr_wdata`; all 0 in the other clocks). `pick(r, i)` gives the
    /// register and value of choice `i` of `n`; a choice it leaves (`None`) writes any word to
    /// any of the 256 addresses (unused ones included).
    pub fn csr_write(&mut self, n: u64, pick: impl FnOnce(&mut Rng, u64) -> Option<(u8, u64)>) -> (u64, u64, u64) {
        if !self.chance(1) {
            return (0, 0, 0);
        }
        let i = self.below(n);
        let (a, v) = match pick(self, i) {
            Some(w) => w,
            None => (self.below(256) as u8, self.next() & 0xFFFF_FFFF),
        };
        (1, a as u64, v)
    }
    /// One of the `n` counters from `base`, loaded within 16 of its 32-bit wrap.
    pub fn counter_near_wrap(&mut self, base: u8, n: u64) -> (u8, u64) {
        (base + self.below(n) as u8, 0xFFFF_FFF0 + self.below(16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pins! { struct P { a: 1, b: 12 } }

    #[test]
    fn pins_mask_and_order() {
        let p = P::from_slice(&[3, 0x1_2345]);
        assert_eq!(p, P { a: 1, b: 0x345 });
        assert_eq!(p.to_vec(), vec![1, 0x345]);
        assert_eq!(P::PINS[1], Pin { name: "b", width: 12 });
    }

    #[test]
    fn unknown_or_oversize_inputs_are_errors() {
        let mut m = BTreeMap::new();
        m.insert("c".to_string(), 1);
        assert!(input_values(P::PINS, &m).unwrap_err().contains("unknown input pin `c`"));
        let mut m = BTreeMap::new();
        m.insert("a".to_string(), 2);
        assert!(input_values(P::PINS, &m).unwrap_err().contains("does not fit"));
    }
}
