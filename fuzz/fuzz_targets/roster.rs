#![no_main]
//! A roster, CSV or workbook (the first bytes tell).
use libfuzzer_sys::fuzz_target;
use tilerank::problem::Problems;

fuzz_target!(|data: &[u8]| {
    let mut problems = Problems::new();
    let _ = tilerank::ingest::roster::from_bytes(
        "roster.csv",
        data.to_vec(),
        &tilerank_fuzz::limits(),
        &mut problems,
    );
    tilerank_fuzz::report(&problems);
});
