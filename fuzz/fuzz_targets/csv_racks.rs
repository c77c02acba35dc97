#![no_main]
//! The racks layout: a racks header (counts and a rack column), then the
//! fuzzer's lines; the cards are scored under the HK rules.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tilerank_fuzz::cards(
        "fuzz.csv",
        tilerank_fuzz::after(
            "session,table,game,seat,player,points,jokers,tiles,penalty,rack\n",
            data,
        ),
    );
});
