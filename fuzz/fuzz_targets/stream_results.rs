#![no_main]
//! Any source, one answer: the fuzzer's bytes as a results file, read the
//! ordinary way, by the streaming reader (when it answers, the ordinary
//! reader's event), and, when they are clean, imported into an event
//! folder's database, which ranks every stage as the file does.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::streamed(data);
});
