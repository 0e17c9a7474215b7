//! # Sojourn timestamp
//!
//! A free-running tick counter `now` (one tick per `clk_per_tick` clocks, loadable by the host),
//! the enqueue stamp (`enq_ts = now`) and the dequeue sojourn (`now − enq_ts` modulo 2^32),
//! wrap-safe for any sojourn below 2^32 ticks (ecn-sharp.md §1.4, §2.5; ARCHITECTURE.md "Time").

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
