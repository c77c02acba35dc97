#![no_main]
//! The streaming reader: the fuzzer's bytes as a results file, read both
//! ways; when the streaming reader answers, it gives the ordinary reader's
//! event.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::streamed(data);
});
