//! tilerank: the scoring desk of Rummikub tournaments.
//!
//! The library holds everything but the command line: the words of the
//! rules ([`domain`], [`score`]), the rules themselves ([`profile`],
//! [`rules`]), reading inputs ([`ingest`], [`stream`] for large results files,
//! [`roster`]), putting an event
//! together ([`event`]) and the reports ([`report`]). The `tilerank` binary
//! parses arguments, calls these, prints, and maps the outcome to an exit
//! status.

pub mod compare;
pub mod config;
pub mod domain;
pub mod event;
pub mod event_folder;
pub mod ingest;
pub mod intake;
pub mod lang;
pub mod place;
pub mod problem;
pub mod profile;
pub mod report;
pub mod roster;
pub mod rules;
pub mod score;
pub mod slip;
pub mod stream;
