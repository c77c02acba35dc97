#![no_main]
//! The results layout: a results header, then the fuzzer's lines.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::cards(
        "fuzz.csv",
        tilerank_fuzz::after("session,table,game,seat,player,won,score,tiles\n", data),
    );
});
