//! The words settings are written in: the standings' tie-break keys, what
//! a stage carries over, how medals are called, an age group. A profile
//! (and `tilerank.toml`) is made of them; the rules in `crate::rules` read
//! them.

use std::fmt;
use std::str::FromStr;

/// What the standings can be ordered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    GamesWon,
    AverageScore,
    TotalScore,
    TilesLeft,
    BestGame,
}

impl Key {
    pub const ALL: [Key; 5] = [
        Key::GamesWon,
        Key::AverageScore,
        Key::TotalScore,
        Key::TilesLeft,
        Key::BestGame,
    ];

    /// The name used in `tilerank.toml`.
    pub fn name(self) -> &'static str {
        match self {
            Key::GamesWon => "games_won",
            Key::AverageScore => "average_score",
            Key::TotalScore => "total_score",
            Key::TilesLeft => "tiles_left",
            Key::BestGame => "best_game",
        }
    }
}

impl std::str::FromStr for SortKey {
    type Err = String;

    /// `games_won`, `tiles_left`, or with a direction: `total_score:lower`.
    fn from_str(s: &str) -> Result<SortKey, String> {
        let (name, dir) = match s.split_once(':') {
            Some((n, d)) => (n.trim(), Some(d.trim())),
            None => (s.trim(), None),
        };
        let known: Vec<&str> = Key::ALL.iter().map(|k| k.name()).collect();
        let key = Key::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                format!(
                    "unknown standings key {name:?}: expected one of {}",
                    known.join(", ")
                )
            })?;
        let better = match dir {
            None if key == Key::TilesLeft => Better::Lower,
            None => Better::Higher,
            Some("higher" | "more") => Better::Higher,
            Some("lower" | "fewer") => Better::Lower,
            Some(other) => {
                return Err(format!(
                    "direction {other:?} of {name}: expected higher, more, lower or fewer"
                ))
            }
        };
        Ok(SortKey { key, better })
    }
}

/// Which way a key is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortKey {
    pub key: Key,
    pub better: Better,
}

// (a SortKey in words: `crate::report::words`, with every sentence)

/// What a stage's standings start from (RULES.md section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Carry {
    /// Fresh standings (the default; HK: "Finals results will start fresh").
    #[default]
    None,
    /// Everything carries over: games, wins, points, tiles.
    All,
    /// Half of the points, rounded up; nothing else.
    Half,
}

impl Carry {
    pub fn as_str(self) -> &'static str {
        match self {
            Carry::None => "none",
            Carry::All => "all",
            Carry::Half => "half",
        }
    }
}

impl fmt::Display for Carry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A carry-over as `[stages.NAME] carry` gives it; what is wrong is said
/// after the value (`[stages.final] carry = "most": expected ...`).
impl FromStr for Carry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(Carry::None),
            "all" => Ok(Carry::All),
            "half" => Ok(Carry::Half),
            _ => Err("expected \"none\", \"all\" or \"half\"".to_string()),
        }
    }
}

/// How the medals are called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MedalNames {
    /// gold, silver, bronze
    #[default]
    Metals,
    /// Champion, 1st runner-up, 2nd runner-up
    RunnersUp,
    /// The event's own names, first to third (`["Gold", "Silver",
    /// "Bronze"]`), kept for the life of the run.
    Named([&'static str; 3]),
}

impl MedalNames {
    /// The event's own names, first to third.
    pub fn named(names: [&str; 3]) -> MedalNames {
        MedalNames::Named(names.map(|n| &*Box::leak(n.to_string().into_boxed_str())))
    }
}

/// Who is a parent and who a child in a Super Family unit (RULES.md
/// section 9): a child aged `child_min` to `child_max` and a parent aged
/// `parent_min` or over, on the event date (HK: 7 to 18, and 18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilyAges {
    pub child_min: u32,
    pub child_max: u32,
    pub parent_min: u32,
}

/// An age group: ages `min` to `max` inclusive (`max: None` is open-ended).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgeGroup {
    pub name: String,
    pub min: u32,
    pub max: Option<u32>,
}

impl AgeGroup {
    pub fn new(name: &str, min: u32, max: Option<u32>) -> AgeGroup {
        AgeGroup {
            name: name.to_string(),
            min,
            max,
        }
    }

    pub fn takes(&self, age: u32) -> bool {
        age >= self.min && self.max.is_none_or(|max| age <= max)
    }

    /// The ages as people write them: `50-74`, `75+`.
    pub fn range(&self) -> String {
        match self.max {
            Some(max) => format!("{}-{max}", self.min),
            None => format!("{}+", self.min),
        }
    }
}

impl fmt::Display for AgeGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let range = self.range();
        if self.name == range {
            f.write_str(&self.name)
        } else {
            write!(f, "{} ({range})", self.name)
        }
    }
}
