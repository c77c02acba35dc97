//! Rules profiles as data: every choice of RULES.md that differs between
//! events is a field of [`Rules`], and each built-in profile is a TOML
//! file in this folder (`hk.toml`, `nvso.toml`, `pressman.toml`,
//! `gwinnett.toml`), embedded in the binary and listed once in
//! [`PROFILES`]. They are read by the one reader of every rules file
//! ([`crate::config`], whose [`crate::config::settings`] declares every
//! setting): a director's own file is read the same way, and may start
//! from one of these (`extends = "gwinnett"`). Nothing outside the files
//! asks which profile an event has: it reads the setting it needs.
//!
//! The online game's rules (one of the seeds) score exactly as `pressman`
//! does: zero-sum, jokers 30, the lowest rack leads when the pool runs out.

pub mod vocabulary;

use std::fmt;
use std::str::FromStr;

/// The name of a rules profile: one of [`PROFILES`], or the name a rules
/// file gives itself ([`ProfileName::named`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProfileName(&'static str);

impl ProfileName {
    /// Every built-in profile, in the order of [`PROFILES`].
    pub fn all() -> impl Iterator<Item = ProfileName> {
        PROFILES.iter().map(|(name, _)| ProfileName(name))
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// The name of a director's rules file (`name = "club"`): a built-in's
    /// when it is one, else kept for the life of the run (one per file
    /// read).
    pub fn named(name: &str) -> ProfileName {
        match ProfileName::all().find(|p| p.0 == name) {
            Some(p) => p,
            None => ProfileName(Box::leak(name.to_string().into_boxed_str())),
        }
    }

    /// Whether this is one of the built-in profiles (whose rules
    /// [`ProfileName::rules`] gives).
    pub fn is_builtin(self) -> bool {
        ProfileName::all().any(|p| p == self)
    }

    /// The built-in profile's file, as shipped.
    pub fn file(self) -> Option<&'static str> {
        PROFILES.iter().find(|(n, _)| *n == self.0).map(|(_, t)| *t)
    }
}

impl fmt::Display for ProfileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl FromStr for ProfileName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProfileName::all()
            .find(|p| p.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let mut names: Vec<&str> = ProfileName::all().map(ProfileName::as_str).collect();
                let last = names.pop().unwrap_or_default();
                format!(
                    "unknown rules profile {s:?}: expected {} or {last}",
                    names.join(", ")
                )
            })
    }
}

/// How a game is scored (RULES.md sections 3 and 4); zero-sum unless
/// told otherwise, as under the default profile (`hk`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Scores sum to zero; higher is better.
    #[default]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// The distinct non-zero charges, for recognising a charged score
    /// (in order; made with no allocation, as every seat's score is
    /// checked against them).
    pub fn charges(&self) -> impl Iterator<Item = i64> + Clone {
        let mut v = [self.no_meld, self.refused_meld, self.knocked];
        v.sort_unstable();
        let mut last = 0;
        v.into_iter().filter(move |&c| {
            let new = c > 0 && c != last;
            last = c;
            new
        })
    }
}

/// How players go on from one stage to the next (RULES.md section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoingOn {
    /// The top [`Rules::qualifiers`] of the standings, with the
    /// [`Rules::cutoff_ties`] policy (`hk`, `pressman`).
    TopOfStandings,
    /// Each table's highest total, then the best second places up to
    /// `seats` (`nvso`'s championship table of 4).
    TableWinnersAndBestSeconds { seats: usize },
    /// The best `per_table` at each table, on the total (lowest under
    /// penalty points: `gwinnett`'s 1; highest under zero-sum scoring).
    BestAtEachTable { per_table: usize },
}

/// What a per-table rule does when the format cannot settle who goes on
/// (a tie for a table's place, more winners than seats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableTies {
    /// Every tied player goes on; the tie is a note.
    All,
    /// The list waits for the director (`--name`): a DECISION, exit 1.
    Decide,
}

/// Where an event's age groups come from when `tilerank.toml` lists none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgeScheme {
    /// No age groups: one field.
    None,
    /// NVSO's groups by the number of players (RULES.md section 8).
    NvsoBySize,
}

/// The prelim's sessions and tables, so that missing cards are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub sessions: u32,
    pub tables: u32,
}

/// Every setting the rules depend on: a profile's defaults (one file per
/// profile in this folder), then `tilerank.toml` and the command line
/// ([`crate::config`]).
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
    /// The stages in the order they are played, the first one qualifying.
    pub stages: Vec<String>,
    /// How players go on from each stage to the next.
    pub going_on: GoingOn,
    /// How many go on under [`GoingOn::TopOfStandings`] (`hk`: 120).
    pub qualifiers: u32,
    pub cutoff_ties: CutoffTies,
    /// Ties and counts a per-table rule cannot settle.
    pub table_ties: TableTies,
    /// Players (roster ids or names) the director named to settle ties for
    /// going on from the first stage (`[qualifiers] named`): every command
    /// applies them.
    pub named: Vec<String>,
    /// Youngest age allowed on the event date (`hk`: 7).
    pub min_age: Option<u32>,
    /// The standings' tie-break order (RULES.md section 6 by default).
    pub order: Vec<vocabulary::SortKey>,
    /// Games per card of each later stage given its own (`gwinnett`: semi
    /// 2, final 1; `nvso`: final 3); a stage not given plays the first
    /// stage's `games_per_session`.
    pub stage_games: std::collections::BTreeMap<String, u32>,
    /// What each stage carries over from the one before (default: none,
    /// standings start fresh).
    pub carry: std::collections::BTreeMap<String, vocabulary::Carry>,
    /// Players (roster ids or names) who went on to a stage and did not
    /// play it, by stage: the stage does not wait for them.
    pub absent: std::collections::BTreeMap<String, Vec<String>>,
    /// Players (roster ids or names) the director named to settle ties for
    /// going on from a later stage, by stage (`[stages.NAME] named`); the
    /// first stage's are [`Rules::named`].
    pub stage_named: std::collections::BTreeMap<String, Vec<String>>,
    /// The event date, `YYYY-MM-DD`: ages are taken on it.
    pub event_date: Option<String>,
    /// Age groups the event configures; when empty, [`Rules::age_scheme`]
    /// decides.
    pub age_groups: Vec<vocabulary::AgeGroup>,
    pub age_scheme: AgeScheme,
    pub medal_names: vocabulary::MedalNames,
    /// The HK Super Family Award is given (RULES.md section 9).
    pub super_family_award: bool,
    /// A referee's card counts only once the desk's typing agrees
    /// (`[entry] double`).
    pub double_entry: bool,
    /// Who is a child and who a parent in a Super Family unit.
    pub family_ages: vocabulary::FamilyAges,
    /// Sessions and tables the prelim expects; `None`: not checked.
    pub schedule: Option<Schedule>,
    /// Sessions of the first stage each player plays (`hk`: 1); `None`:
    /// any number ([`crate::rules::card_checks::Seating::clashes`]).
    pub sessions_per_player: Option<u32>,
    /// Where the event's `tilerank.toml` writes the settings it gives.
    pub written_at: WrittenAt,
}

/// Where a settings file writes each setting it gives, by its name as
/// messages say it (`[stages.final] absent` at `./tilerank.toml:61:10`):
/// what names a setting that only the event's roster and cards show wrong
/// (a player `absent` names who has a card of the stage). Not part of what
/// the rules are: equal whatever the places.
#[derive(Clone, Debug, Default)]
pub struct WrittenAt {
    /// The file the rules were read from: the event's `tilerank.toml`, or
    /// the rules file of `--rules FILE`; `None` for a built-in profile.
    pub file: Option<String>,
    pub places: std::collections::BTreeMap<String, crate::place::Place>,
}

impl PartialEq for WrittenAt {
    fn eq(&self, _: &WrittenAt) -> bool {
        true
    }
}

impl Eq for WrittenAt {}

impl WrittenAt {
    /// Where `setting` is written, or the settings file as a whole when
    /// it does not give it.
    pub fn place(&self, setting: &str) -> crate::place::Place {
        self.places
            .get(setting)
            .cloned()
            .unwrap_or_else(|| crate::place::Place::nowhere(self.file()))
    }

    /// Where item `i` of the list `setting` is written (the third name
    /// of `[stages.final] absent`), or the setting when it is not known.
    pub fn place_of_item(&self, setting: &str, i: usize) -> crate::place::Place {
        self.places
            .get(&Self::item(setting, i))
            .cloned()
            .unwrap_or_else(|| self.place(setting))
    }

    /// How item `i` of the list `setting` is kept among the places.
    pub(crate) fn item(setting: &str, i: usize) -> String {
        format!("{setting}[{i}]")
    }

    /// The file the rules were read from, as messages name it; an event's
    /// `tilerank.toml` when they are a built-in profile's (where a
    /// director would set what they leave at its default).
    pub fn file(&self) -> &str {
        self.file.as_deref().unwrap_or(crate::config::FILE_NAME)
    }
}

/// Every built-in profile: its name and its file. Adding a profile is a
/// file in this folder and a line here.
pub const PROFILES: &[(&str, &str)] = &[
    ("hk", include_str!("hk.toml")),
    ("nvso", include_str!("nvso.toml")),
    ("pressman", include_str!("pressman.toml")),
    ("gwinnett", include_str!("gwinnett.toml")),
];

impl Rules {
    pub fn for_profile(profile: ProfileName) -> Rules {
        profile.rules()
    }

    pub fn hk() -> Rules {
        ProfileName("hk").rules()
    }

    /// Games a card of `stage` has.
    pub fn games_for(&self, stage: &crate::domain::Stage) -> u32 {
        self.stage_games
            .get(stage.as_str())
            .copied()
            .unwrap_or(self.games_per_session)
    }

    /// The first stage, the one players qualify from and the schedule
    /// names the cards of (`prelim` under every profile).
    pub fn first_stage(&self) -> crate::domain::Stage {
        crate::domain::Stage::new(self.stages.first().map_or("prelim", String::as_str))
    }

    /// The players the director named to settle ties for going on from
    /// `stage`: [`Rules::named`] for the first stage, that stage's
    /// `[stages.NAME] named` for a later one (RULES.md section 7).
    pub fn named_for(&self, stage: &crate::domain::Stage) -> &[String] {
        if *stage == self.first_stage() {
            &self.named
        } else {
            self.stage_named
                .get(stage.as_str())
                .map_or(&[][..], Vec::as_slice)
        }
    }

    /// The stage after `stage`, when the event has one.
    pub fn next_stage(&self, stage: &crate::domain::Stage) -> Option<crate::domain::Stage> {
        let at = self.stages.iter().position(|s| s == stage.as_str())?;
        self.stages
            .get(at + 1)
            .map(|s| crate::domain::Stage::new(s))
    }

    /// Where a stage comes in the event (unknown stages last).
    pub fn stage_rank(&self, stage: &crate::domain::Stage) -> usize {
        self.stages
            .iter()
            .position(|s| s == stage.as_str())
            .unwrap_or(self.stages.len())
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

/// The rules of the profile called `name` (case ignored).
pub fn by_name(name: &str) -> Result<Rules, String> {
    name.parse::<ProfileName>().map(ProfileName::rules)
}

impl Default for ProfileName {
    /// `hk`, the main target.
    fn default() -> ProfileName {
        ProfileName("hk")
    }
}
