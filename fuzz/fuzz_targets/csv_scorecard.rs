#![no_main]
//! The printed score card as CSV: the fuzzer's text as it is (the seeds
//! are score cards; any text is also read as any layout).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::cards("fuzz.csv", data.to_vec());
});
