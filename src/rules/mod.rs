//! The rules of `docs/rules.md`, one file per section:
//!
//! | section | file |
//! |---|---|
//! | 2. Rack value and penalties | [`rack`] |
//! | 3, 4. Scoring one game | [`scoring`] |
//! | 5. Checking a recorded card | [`card_checks`] |
//! | 6. Standings: the sums | [`tally`] |
//! | 6. Standings: the ranking | [`standings`] |
//! | 7. Who goes on (the top `N`, the table rules) and carry-over | [`advancement`] |
//! | 8. Age groups and minimum age | [`age_groups`] |
//! | 8. Medals | [`medals`] |
//! | 9. Super Family Award (`hk`) | [`awards`] |
//! | 8, 9. Roster checks on the event date | [`roster_checks`] |
//! | 1. Tables of 3 or 4: seating a stage | [`seating`] |
//!
//! The figures (joker value, charges, games per session, ...) are settings
//! of a [`crate::profile::Rules`].

pub mod advancement;
pub mod age_groups;
pub mod awards;
pub mod card_checks;
pub mod medals;
pub mod rack;
pub mod roster_checks;
pub mod scoring;
pub mod seating;
pub mod standings;
pub mod tally;
