//! The rules of `../shared/RULES.md`, one file per section:
//!
//! | section | file |
//! |---|---|
//! | 2. Rack value and penalties | [`rack`] |
//! | 3, 4. Scoring one game | [`scoring`] |
//! | 5. Checking a recorded card | [`card_checks`] |
//! | 6. Standings | [`standings`] |
//! | 7. Qualifiers and advancement | [`qualifiers`] |
//!
//! The figures (joker value, charges, games per session, ...) are settings
//! of a [`crate::profile::Rules`].

pub mod card_checks;
pub mod qualifiers;
pub mod rack;
pub mod scoring;
pub mod standings;
