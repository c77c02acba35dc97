#![no_main]
//! A xls workbook (contained: a reader panic or hang is an error).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::cards("fuzz.xls", data.to_vec());
});
