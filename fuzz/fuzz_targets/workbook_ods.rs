#![no_main]
//! A ods workbook (contained: a reader panic or hang is an error).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::cards("fuzz.ods", data.to_vec());
});
