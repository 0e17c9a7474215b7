//! xorshift32 with shifts (13, 17, 5) (CB-LT §6.4): no multiplier, so the RTL
//! needs only XORs and wiring.

use super::CbltError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XorShift32 {
    state: u32,
}

impl XorShift32 {
    /// A stream from a nonzero seed (0 is xorshift's fixed point).
    pub fn new(seed: u32) -> Result<Self, CbltError> {
        if seed == 0 {
            return Err(CbltError::ZeroSeed);
        }
        Ok(XorShift32 { state: seed })
    }
    /// Advance and return the new state.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u32 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.state = x;
        x
    }
    pub fn state(&self) -> u32 {
        self.state
    }
}
