//! The live consult.

pub mod live;
pub mod socket;
pub mod summaries;
pub mod transcripts;
