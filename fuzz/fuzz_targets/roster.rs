#![no_main]
//! A roster, CSV or workbook (the first bytes tell); a plain CSV one is
//! also read both ways, split where it lies and by the CSV reader, and as
//! a file a chunk at a time (as a large one is) and whole.
use libfuzzer_sys::fuzz_target;
use tilerank::problem::Problems;

fuzz_target!(|data: &[u8]| {
    // a plain roster, split where it lies, reads as the CSV reader's rows
    if let Some([split, read]) =
        tilerank::ingest::roster::both_ways("roster.csv", data.to_vec(), &tilerank_fuzz::limits())
    {
        assert_eq!(split, read, "split and read apart");
    }
    tilerank_fuzz::roster_in_chunks(data);
    let mut problems = Problems::new();
    let _ = tilerank::ingest::roster::from_bytes(
        "roster.csv",
        data.to_vec(),
        &tilerank_fuzz::limits(),
        &mut problems,
    );
    tilerank_fuzz::report(&problems);
});
