//! Integration tests: one binary (see Cargo.toml, `autotests = false`).
//!
//! Each module is one topic; the fixtures they read are in
//! `tests/fixtures` (see its README.md). Command-line tests go through the
//! builder of [`test`]: `Test::new().arg("check").fixture("bad/...").run()`.

mod checks;
mod cli;
mod compare;
#[cfg(unix)]
mod devtools;
mod docs;
#[cfg(unix)]
mod entry_browser;
mod event_folder;
mod export;
mod help_examples;
mod known_answers;
mod layouts;
mod live_desk;
mod one_model;
#[cfg(unix)]
mod output;
mod properties;
mod publish;
mod racks;
mod read_hashes;
#[cfg(unix)]
mod read_once;
mod real_world;
mod referee;
mod robustness;
mod roster;
mod said_once;
mod seeds_e2e;
mod settings;
mod snapshots;
mod store_reliability;
mod streaming;
mod test;
mod ties;
mod volunteer;
mod waiting;
mod watch;
mod workbooks;
