//! Reports: what the tool prints and writes.

pub mod scorecard_xlsx;
