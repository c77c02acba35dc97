#![no_main]
//! The event's stored data: the bytes are an event folder's `tilerank.db`
//! (a damaged or hostile database), opened and read the way every reading
//! command reads an event, then dumped as plain files
//! ([`tilerank_fuzz::stored`]). SQLite answers a damaged file with an
//! error; a panic, abort or hang here is ours.
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// One folder per fuzzing process, its database written anew for each
/// input.
fn folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        std::env::temp_dir().join(format!("tilerank-fuzz-store-{}", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let _ = tilerank_fuzz::stored(folder(), data);
});
