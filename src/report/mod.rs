//! Reports: what the tool prints and writes.
