//! The AI: line patterns → incremental position → threat search (VCF/VCT) → evaluation →
//! principal-variation alpha-beta → playing levels.

pub mod eval;
pub mod pattern;
pub mod position;
pub mod tt;
