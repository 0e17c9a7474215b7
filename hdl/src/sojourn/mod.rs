#![doc = include_str!("README.md")]

pub mod model;
#[cfg(feature = "rtl")]
pub mod rtl;
