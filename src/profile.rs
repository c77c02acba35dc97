//! Rules profiles: every figure of RULES.md as a setting, with each
//! profile's defaults in one place.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProfileName {
    Hk,
    Nvso,
    Pressman,
    Gwinnett,
}

impl ProfileName {
    pub const ALL: [ProfileName; 4] = [
        ProfileName::Hk,
        ProfileName::Nvso,
        ProfileName::Pressman,
        ProfileName::Gwinnett,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ProfileName::Hk => "hk",
            ProfileName::Nvso => "nvso",
            ProfileName::Pressman => "pressman",
            ProfileName::Gwinnett => "gwinnett",
        }
    }
}

impl fmt::Display for ProfileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProfileName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProfileName::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!("unknown rules profile {s:?}: expected hk, nvso, pressman or gwinnett")
            })
    }
}

/// How a game is scored (RULES.md sections 3 and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Scores sum to zero; higher is better.
    ZeroSum,
    /// Each player scores their rack value as penalty points; lower is better.
    PenaltyPoints,
}

/// Whether a penalty charge replaces the counted rack value or adds to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PenaltyMode {
    Replace,
    Add,
}

/// Who leads an unfinished game: lowest rack value, or fewest tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoWinnerBy {
    Value,
    Tiles,
}

/// What to do when players tied on every key straddle the qualifier cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CutoffTies {
    /// All of the tied players go on (the list is longer than N).
    Include,
    /// None of the tied players go on (the list is shorter than N).
    Exclude,
    /// Stop with an error: the director decides.
    Error,
}

/// Penalty charges (RULES.md section 2), in points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Penalties {
    pub no_meld: i64,
    pub refused_meld: i64,
    pub knocked: i64,
}

impl Penalties {
    pub fn none() -> Penalties {
        Penalties {
            no_meld: 0,
            refused_meld: 0,
            knocked: 0,
        }
    }

    /// The distinct non-zero charges, for recognising a charged score.
    pub fn charges(&self) -> Vec<i64> {
        let mut v: Vec<i64> = [self.no_meld, self.refused_meld, self.knocked]
            .into_iter()
            .filter(|&c| c > 0)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// Every setting the rules depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub profile: ProfileName,
    pub scoring: Scoring,
    /// Points a joker left on the rack counts (30; 25 and 50 at some events).
    pub joker_value: i64,
    pub penalties: Penalties,
    pub penalty_mode: PenaltyMode,
    pub no_winner_by: NoWinnerBy,
    /// Games a card must have (HK: 3 per 60-minute session).
    pub games_per_session: u32,
    /// How many of the prelim standings go to the final (`hk`).
    pub qualifiers: u32,
    pub cutoff_ties: CutoffTies,
    /// Youngest age allowed on the event date (`hk`: 7).
    pub min_age: Option<u32>,
    /// The standings' tie-break order (RULES.md section 6 by default).
    pub order: Vec<crate::rules::standings::SortKey>,
    /// Games per card in a stage other than the prelim's
    /// `games_per_session` (`gwinnett`: semi 2, final 1).
    pub stage_games: std::collections::BTreeMap<String, u32>,
    /// What each stage carries over from the one before (default: none,
    /// standings start fresh).
    pub carry: std::collections::BTreeMap<String, crate::rules::advancement::Carry>,
    /// The event date, `YYYY-MM-DD`: ages are taken on it.
    pub event_date: Option<String>,
    /// Age groups the event configures (`nvso` sets its own from the number
    /// of players when none are configured).
    pub age_groups: Vec<crate::rules::age_groups::AgeGroup>,
}

impl Rules {
    pub fn for_profile(profile: ProfileName) -> Rules {
        let hk = Rules {
            profile,
            scoring: Scoring::ZeroSum,
            joker_value: 30,
            penalties: Penalties {
                no_meld: 100,
                refused_meld: 200,
                knocked: 200,
            },
            penalty_mode: PenaltyMode::Replace,
            no_winner_by: NoWinnerBy::Value,
            games_per_session: 3,
            qualifiers: 120,
            cutoff_ties: CutoffTies::Include,
            min_age: Some(7),
            order: crate::rules::standings::order(profile),
            stage_games: Default::default(),
            carry: Default::default(),
            event_date: None,
            age_groups: Vec::new(),
        };
        match profile {
            ProfileName::Hk => hk,
            ProfileName::Pressman => Rules {
                penalties: Penalties::none(),
                min_age: None,
                ..hk
            },
            ProfileName::Nvso => Rules {
                penalties: Penalties::none(),
                min_age: None,
                ..hk
            },
            ProfileName::Gwinnett => Rules {
                scoring: Scoring::PenaltyPoints,
                penalties: Penalties::none(),
                min_age: None,
                stage_games: [("semi".to_string(), 2), ("final".to_string(), 1)]
                    .into_iter()
                    .collect(),
                ..hk
            },
        }
    }

    /// Games a card of `stage` has.
    pub fn games_for(&self, stage: &crate::domain::Stage) -> u32 {
        self.stage_games
            .get(stage.as_str())
            .copied()
            .unwrap_or(self.games_per_session)
    }

    pub fn hk() -> Rules {
        Rules::for_profile(ProfileName::Hk)
    }

    /// The largest joker count and the per-tile ceiling for a rack of `tiles`
    /// tiles: what the rack can be worth at most (13 per numbered tile, the
    /// joker value for each of up to two jokers).
    pub fn max_rack_value(&self, tiles: u16) -> i64 {
        let t = i64::from(tiles);
        let jokers = t.min(2);
        (t - jokers) * 13 + jokers * self.joker_value
    }

    /// The least a rack of `tiles` tiles is worth: 1 per tile.
    pub fn min_rack_value(&self, tiles: u16) -> i64 {
        i64::from(tiles)
    }
}
