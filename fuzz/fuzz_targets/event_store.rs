#![no_main]
//! The event's stored data: the bytes are an event folder's `tilerank.db`
//! (a damaged or hostile database), opened and read the way every reading
//! command reads an event, then dumped as plain files. SQLite answers a
//! damaged file with an error; a panic, abort or hang here is ours.
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use tilerank::event_folder::EventFolder;

/// One folder per fuzzing process, written anew for each input.
fn folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tilerank-fuzz-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("tilerank.toml"),
            "[event]\nname = \"Fuzz\"\ndate = \"2026-03-28\"\nprofile = \"hk\"\n[sessions]\ncount = 0\n",
        )
        .unwrap();
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let dir = folder();
    let _ = std::fs::remove_file(dir.join("tilerank.db-journal"));
    let _ = std::fs::remove_dir_all(dir.join("dump"));
    std::fs::write(dir.join("tilerank.db"), data).unwrap();
    let Ok(folder) = EventFolder::open(dir) else {
        return;
    };
    if let Ok(event) = folder.load(&[], None) {
        tilerank_fuzz::report(&event.problems);
        let _ = event.standings(&tilerank::domain::Stage::prelim());
    }
    let _ = folder.log();
    let _ = folder.dump(&dir.join("dump"));
});
