//! RULES.md section 2: what a rack is worth when a game ends.
//!
//! rack value = face values of the numbered tiles left + joker value × jokers
//! left; a penalty charge replaces that value (`penalty_mode = replace`) or
//! is added to it (`add`). At most one charge per player per game.

use crate::profile::{PenaltyMode, Rules};
use std::fmt;

/// A penalty charge (RULES.md section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Penalty {
    /// Never made the initial meld because unable.
    NoMeld,
    /// Could have melded but chose not to.
    RefusedMeld,
    /// Knocked down the rack so it cannot be counted.
    Knocked,
}

impl Penalty {
    pub fn parse(text: &str) -> Option<Penalty> {
        match crate::ingest::header::normalize(text).as_str() {
            "nomeld" => Some(Penalty::NoMeld),
            "refusedmeld" => Some(Penalty::RefusedMeld),
            "knocked" => Some(Penalty::Knocked),
            _ => None,
        }
    }

    pub fn charge(self, rules: &Rules) -> i64 {
        match self {
            Penalty::NoMeld => rules.penalties.no_meld,
            Penalty::RefusedMeld => rules.penalties.refused_meld,
            Penalty::Knocked => rules.penalties.knocked,
        }
    }
}

impl fmt::Display for Penalty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Penalty::NoMeld => "no-meld",
            Penalty::RefusedMeld => "refused-meld",
            Penalty::Knocked => "knocked",
        })
    }
}

/// What one player holds when a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rack {
    /// Face-value sum of the numbered tiles left (jokers excluded).
    pub points: i64,
    /// Jokers left, 0..=2.
    pub jokers: u8,
    /// Tiles left, jokers included; 0 means the player went out.
    pub tiles: u16,
    pub penalty: Option<Penalty>,
}

impl Rack {
    pub fn new(points: i64, jokers: u8, tiles: u16) -> Rack {
        Rack {
            points,
            jokers,
            tiles,
            penalty: None,
        }
    }

    pub fn out() -> Rack {
        Rack::new(0, 0, 0)
    }

    pub fn charged(self, penalty: Penalty) -> Rack {
        Rack {
            penalty: Some(penalty),
            ..self
        }
    }

    pub fn went_out(&self) -> bool {
        self.tiles == 0
    }

    /// The rack's value under `rules`, charges applied.
    pub fn value(&self, rules: &Rules) -> i64 {
        let counted = self.points + i64::from(self.jokers) * rules.joker_value;
        match (self.penalty, rules.penalty_mode) {
            (None, _) => counted,
            (Some(p), PenaltyMode::Replace) => p.charge(rules),
            (Some(p), PenaltyMode::Add) => counted + p.charge(rules),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ProfileName;

    #[test]
    fn jokers_count_the_profile_value() {
        let mut rules = Rules::hk();
        let rack = Rack::new(12, 1, 4);
        assert_eq!(rack.value(&rules), 42);
        rules.joker_value = 50;
        assert_eq!(rack.value(&rules), 62);
        rules.joker_value = 25;
        assert_eq!(Rack::new(0, 2, 2).value(&rules), 50);
    }

    #[test]
    fn charges_replace_or_add() {
        let mut rules = Rules::hk();
        let rack = Rack::new(23, 1, 5);
        assert_eq!(rack.charged(Penalty::NoMeld).value(&rules), 100);
        assert_eq!(rack.charged(Penalty::RefusedMeld).value(&rules), 200);
        assert_eq!(rack.charged(Penalty::Knocked).value(&rules), 200);
        rules.penalty_mode = PenaltyMode::Add;
        assert_eq!(rack.charged(Penalty::NoMeld).value(&rules), 153);
        assert_eq!(rack.charged(Penalty::RefusedMeld).value(&rules), 253);
    }

    #[test]
    fn pressman_has_no_charges() {
        let rules = Rules::for_profile(ProfileName::Pressman);
        assert_eq!(
            Rack::new(23, 0, 5).charged(Penalty::NoMeld).value(&rules),
            0
        );
    }

    #[test]
    fn penalty_codes() {
        assert_eq!(Penalty::parse("no-meld"), Some(Penalty::NoMeld));
        assert_eq!(Penalty::parse("Refused Meld"), Some(Penalty::RefusedMeld));
        assert_eq!(Penalty::parse("knocked"), Some(Penalty::Knocked));
        assert_eq!(Penalty::parse("late"), None);
        assert_eq!(Penalty::Knocked.to_string(), "knocked");
    }
}
