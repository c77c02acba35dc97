#![no_main]
//! A xlsx workbook (contained: a reader panic or hang is an error).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::cards("fuzz.xlsx", data.to_vec());
});
