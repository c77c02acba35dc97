//! The event's settings, `tilerank.toml`: name, date, rules profile, and
//! every figure of the rules with the profile's default. The file is plain
//! TOML a person edits; `tilerank init` writes it with every setting present
//! and commented ([`Config::template`]).
//!
//! This module is the one place that reads, checks and applies settings:
//! the file's ([`Config::rules`]) and the command line's ([`Overrides`]).
//! Every value is checked while the file is read, so a wrong one is an
//! error at its place, `tilerank.toml:LINE:COL`: an unknown key, a
//! negative charge, an unknown tie-break key, a date that is not a date,
//! overlapping age groups.

use crate::domain::Stage;
use crate::profile::{
    CutoffTies, GoingOn, NoWinnerBy, PenaltyMode, ProfileName, Rules, Schedule, TableTies,
};
use crate::rules::advancement::Carry;
use crate::rules::age_groups::{AgeGroup, Date};
use crate::rules::standings::{Better, SortKey};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::path::Path;

pub const FILE_NAME: &str = "tilerank.toml";

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub event: EventInfo,
    #[serde(default)]
    pub rules: RuleSettings,
    #[serde(default)]
    pub qualifiers: QualifierSettings,
    #[serde(default)]
    pub sessions: SessionSettings,
    #[serde(default)]
    pub standings: StandingsSettings,
    /// Per stage: `[stages.semi] games = 2`, `carry = "half"`.
    #[serde(default, deserialize_with = "stages")]
    pub stages: BTreeMap<String, StageSettings>,
    /// `[[age_groups]] name = "50-64"`, `min = 50`, `max = 64`.
    #[serde(default, deserialize_with = "age_groups")]
    pub age_groups: Vec<AgeGroup>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct EventInfo {
    pub name: String,
    /// `YYYY-MM-DD`: ages are taken on this date (read with
    /// [`parse_date`], kept in that form).
    #[serde(default, deserialize_with = "date")]
    pub date: Option<String>,
    #[serde(default = "default_profile", deserialize_with = "profile")]
    pub profile: ProfileName,
}

fn default_profile() -> ProfileName {
    "hk".parse().expect("hk is a profile")
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RuleSettings {
    #[serde(default, deserialize_with = "points")]
    pub joker_value: Option<i64>,
    #[serde(default, deserialize_with = "points")]
    pub no_meld: Option<i64>,
    #[serde(default, deserialize_with = "points")]
    pub refused_meld: Option<i64>,
    #[serde(default, deserialize_with = "points")]
    pub knocked: Option<i64>,
    #[serde(default, deserialize_with = "penalty_mode")]
    pub penalty_mode: Option<PenaltyMode>,
    #[serde(default, deserialize_with = "no_winner_by")]
    pub no_winner_by: Option<NoWinnerBy>,
    #[serde(default, deserialize_with = "games")]
    pub games_per_session: Option<u32>,
    pub min_age: Option<u32>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct QualifierSettings {
    #[serde(default, deserialize_with = "places")]
    pub top: Option<u32>,
    #[serde(default, deserialize_with = "cutoff_ties")]
    pub cutoff_ties: Option<CutoffTies>,
    #[serde(default, deserialize_with = "table_ties")]
    pub table_ties: Option<TableTies>,
    /// Players the director named to settle ties for going on.
    pub named: Option<Vec<String>>,
}

/// What the prelim expects, so that missing cards can be named.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SessionSettings {
    /// Sessions of the prelim stage, numbered 1..=count.
    #[serde(default, deserialize_with = "sessions")]
    pub count: Option<u32>,
    /// Tables in each session, numbered 1..=tables.
    #[serde(default, deserialize_with = "tables")]
    pub tables: Option<u32>,
    /// `false`: the cards given are the whole first stage; no card is
    /// expected, none is named missing. The only way to turn the check
    /// off (a count of 0 is an error, not a switch).
    pub check: Option<bool>,
}

/// The tie-break order, declared: keys from games_won, average_score,
/// total_score, tiles_left, best_game, each with an optional direction
/// (`total_score:lower`).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StandingsSettings {
    #[serde(default, deserialize_with = "order")]
    pub order: Option<Vec<SortKey>>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StageSettings {
    #[serde(default, deserialize_with = "games")]
    pub games: Option<u32>,
    #[serde(default, deserialize_with = "carry")]
    pub carry: Option<Carry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgeGroupSetting {
    name: String,
    min: u32,
    max: Option<u32>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("{file}: cannot be read: {reason}")]
    Unreadable { file: String, reason: String },
    #[error("{file}:{line}:{col}: {message}")]
    Invalid {
        file: String,
        line: usize,
        col: usize,
        message: String,
    },
    #[error("{file}: {message}")]
    Setting { file: String, message: String },
}

/// Reads a date as every command and the settings accept it: `YYYY-MM-DD`,
/// also with one-digit months and days, and `/` or `.` between the parts.
/// Gives it back as `YYYY-MM-DD`.
pub fn parse_date(text: &str) -> Result<String, String> {
    Date::parse(text)
        .map(|d| d.to_string())
        .ok_or_else(|| format!("{text:?} is not a date: expected YYYY-MM-DD"))
}

impl Config {
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Unreadable {
            file: file.clone(),
            reason: e.to_string(),
        })?;
        Config::parse(&text, &file)
    }

    /// Reads and checks the file: every mistake is an error naming its line.
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|e| {
            let (line, col) = e
                .span()
                .map(|s| {
                    let before = &text[..s.start.min(text.len())];
                    let line = before.matches('\n').count() + 1;
                    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                    (line, col)
                })
                .unwrap_or((1, 1));
            ConfigError::Invalid {
                file: file.to_string(),
                line,
                col,
                message: e.message().to_string(),
            }
        })
    }

    pub fn profile(&self) -> ProfileName {
        self.event.profile
    }

    /// The profile's rules with this file's settings applied.
    pub fn rules(&self) -> Rules {
        let mut rules = self.event.profile.rules();
        let r = &self.rules;
        set(&mut rules.joker_value, r.joker_value);
        set(&mut rules.penalties.no_meld, r.no_meld);
        set(&mut rules.penalties.refused_meld, r.refused_meld);
        set(&mut rules.penalties.knocked, r.knocked);
        set(&mut rules.penalty_mode, r.penalty_mode);
        set(&mut rules.no_winner_by, r.no_winner_by);
        set(&mut rules.games_per_session, r.games_per_session);
        if r.min_age.is_some() {
            rules.min_age = r.min_age;
        }
        set(&mut rules.qualifiers, self.qualifiers.top);
        set(&mut rules.cutoff_ties, self.qualifiers.cutoff_ties);
        set(&mut rules.table_ties, self.qualifiers.table_ties);
        if let Some(named) = &self.qualifiers.named {
            rules.named = named.clone();
        }
        match (self.sessions.count, self.sessions.tables) {
            _ if self.sessions.check == Some(false) => rules.schedule = None,
            (Some(sessions), Some(tables)) => rules.schedule = Some(Schedule { sessions, tables }),
            (Some(sessions), None) => {
                rules.schedule = rules.schedule.map(|s| Schedule { sessions, ..s })
            }
            (None, Some(tables)) => {
                rules.schedule = rules.schedule.map(|s| Schedule { tables, ..s })
            }
            (None, None) => {}
        }
        if let Some(order) = &self.standings.order {
            rules.order = order.clone();
        }
        for (name, stage) in &self.stages {
            if let Some(g) = stage.games {
                if name == "prelim" {
                    rules.games_per_session = g;
                } else {
                    rules.stage_games.insert(name.clone(), g);
                }
            }
            if let Some(c) = stage.carry {
                rules.carry.insert(name.clone(), c);
            }
            if !rules.stages.contains(name) {
                // A stage of the event's own, played before the final.
                let at = rules
                    .stages
                    .iter()
                    .position(|s| s == "final")
                    .unwrap_or(rules.stages.len());
                rules.stages.insert(at, name.clone());
            }
        }
        // Say each stage's games and carry once: where they differ from the
        // first stage's games and from a fresh start.
        let games = rules.games_per_session;
        rules.stage_games.retain(|_, g| *g != games);
        rules.carry.retain(|_, c| *c != Carry::None);
        rules.event_date = self.event.date.clone();
        if !self.age_groups.is_empty() {
            rules.age_groups = self.age_groups.clone();
        }
        rules
    }

    /// The file `tilerank init` writes: every setting with the profile's
    /// default.
    pub fn template(profile: ProfileName, name: &str, date: Option<&str>) -> String {
        let r = profile.rules();
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let date_line = match date {
            Some(d) => format!("date = {}", quote(d)),
            None => "# date = \"2026-03-28\"".to_string(),
        };
        let min_age = match r.min_age {
            Some(a) => format!("min_age = {a}"),
            None => "# min_age = 7".to_string(),
        };
        let sessions = match r.schedule {
            Some(s) => format!("count = {}\ntables = {}", s.sessions, s.tables),
            None => "# count = 12\n# tables = 25".to_string(),
        };
        // The first stage's games are games_per_session.
        let stages: String = r
            .stages
            .iter()
            .skip(1)
            .map(|s| {
                let carry = r.carry.get(s).copied().unwrap_or_default();
                format!(
                    "\n[stages.{s}]\ngames = {}\ncarry = \"{}\"\n",
                    r.games_for(&Stage::new(s)),
                    carry.as_str()
                )
            })
            .collect();
        let profiles: Vec<&str> = ProfileName::all().map(ProfileName::as_str).collect();
        let going_on = match r.going_on {
            GoingOn::TopOfStandings => format!(
                "the top {} of the {} standings go on",
                r.qualifiers, r.stages[0]
            ),
            GoingOn::TableWinnersAndBestSeconds { seats } => format!(
                "each table's highest total goes on, then the best seconds up to {seats} seats"
            ),
            GoingOn::LowestAtEachTable => "each table's lowest total goes on".to_string(),
        };
        format!(
            r#"# tilerank event settings. Every setting shows the default of the
# rules profile; change what your event does differently.

[event]
name = {name}
# The event date (YYYY-MM-DD): ages are taken on this date.
{date_line}
# Rules profile: {profiles}.
profile = {profile}

[rules]
# Points a joker left on the rack counts (25 and 50 at some events).
joker_value = {joker}
# Penalty charges (0 for none).
no_meld = {no_meld}
refused_meld = {refused_meld}
knocked = {knocked}
# "replace": a charge replaces the counted rack; "add": it is added to it.
penalty_mode = "{mode}"
# Who leads an unfinished game: lowest rack "value", or fewest "tiles".
no_winner_by = "{by}"
# Games on each card of the first stage (one session at one table).
games_per_session = {games}
# Youngest age allowed on the event date.
{min_age}

[qualifiers]
# Under this profile {going_on}.
# How many go on when the rule is the top of the standings.
top = {top}
# Players tied on every key across that cutoff: "include" (all go),
# "exclude" (none go) or "error" (the director decides).
cutoff_ties = "{ties}"
# A tie for a table's place, or more winners than seats: "decide" (the
# list waits for the director: tilerank advance --player ID) or "all"
# (every tied player goes on).
table_ties = "{table_ties}"
# Players the director named to settle such ties (roster ids), applied by
# every command: named = ["P0007"].
named = []

[sessions]
# Sessions and tables per session of the first stage: missing cards are
# named, and the qualifier list waits for them (check = false: the cards
# given are the whole stage, nothing is named missing).
{sessions}

# Each stage after the first, in the order played: games on each card,
# and what the stage carries over from the one before: "none" (fresh standings), "all", or
# "half" (half the points, rounded up).
{stages}
# Age groups, each running its own standings and medals (nvso sets its own
# from the number of players when none are given here).
# [[age_groups]]
# name = "50-64"
# min = 50
# max = 64

[standings]
# The tie-break order, first difference decides. Keys: games_won,
# average_score, total_score, tiles_left, best_game; a direction may follow
# a colon (total_score:lower).
order = [{order}]
"#,
            name = quote(name),
            profile = quote(profile.as_str()),
            profiles = profiles.join(", "),
            joker = r.joker_value,
            no_meld = r.penalties.no_meld,
            refused_meld = r.penalties.refused_meld,
            knocked = r.penalties.knocked,
            mode = match r.penalty_mode {
                PenaltyMode::Replace => "replace",
                PenaltyMode::Add => "add",
            },
            by = match r.no_winner_by {
                NoWinnerBy::Value => "value",
                NoWinnerBy::Tiles => "tiles",
            },
            games = r.games_per_session,
            top = r.qualifiers,
            ties = cutoff_ties_name(r.cutoff_ties),
            table_ties = match r.table_ties {
                TableTies::All => "all",
                TableTies::Decide => "decide",
            },
            order = r
                .order
                .iter()
                .map(|k| format!(
                    "\"{}:{}\"",
                    k.key.name(),
                    match k.better {
                        Better::Higher => "higher",
                        Better::Lower => "lower",
                    }
                ))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }
}

fn cutoff_ties_name(c: CutoffTies) -> &'static str {
    match c {
        CutoffTies::Include => "include",
        CutoffTies::Exclude => "exclude",
        CutoffTies::Error => "error",
    }
}

fn set<T>(target: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *target = v;
    }
}

/// What the command line changes for one run, applied after the event's
/// settings by [`Overrides::apply`].
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Start from this profile's defaults instead of the event's settings.
    pub profile: Option<ProfileName>,
    pub date: Option<String>,
    pub top: Option<u32>,
    pub cutoff_ties: Option<CutoffTies>,
}

impl Overrides {
    /// The rules for one run: the event's settings (or the profile's
    /// defaults without an event folder), then the command line. A
    /// `--profile` other than the event's starts from that profile's
    /// defaults and keeps the event's date. Without an event folder there
    /// is no schedule of expected cards: the files given are the event.
    pub fn apply(&self, config: Option<&Config>) -> Rules {
        let mut rules = match (self.profile, config) {
            (Some(p), Some(c)) if p != c.profile() => Rules {
                event_date: c.event.date.clone(),
                ..p.rules()
            },
            (_, Some(c)) => c.rules(),
            (Some(p), None) => Rules {
                schedule: None,
                ..p.rules()
            },
            (None, None) => Rules {
                schedule: None,
                ..Rules::hk()
            },
        };
        if let Some(d) = &self.date {
            rules.event_date = Some(d.clone());
        }
        set(&mut rules.qualifiers, self.top);
        set(&mut rules.cutoff_ties, self.cutoff_ties);
        rules
    }
}

// Each value is checked as it is read: serde's error carries the value's
// place in the file, so the message names the line.

fn choice<'de, D, T: Copy>(d: D, what: &str, choices: &[(&str, T)]) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
{
    let s = String::deserialize(d)?;
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(s.trim()))
        .map(|(_, v)| Some(*v))
        .ok_or_else(|| {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            serde::de::Error::custom(format!("{what} is {s:?}; expected {}", names.join(" or ")))
        })
}

fn penalty_mode<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PenaltyMode>, D::Error> {
    choice(
        d,
        "penalty_mode",
        &[("replace", PenaltyMode::Replace), ("add", PenaltyMode::Add)],
    )
}

fn no_winner_by<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NoWinnerBy>, D::Error> {
    choice(
        d,
        "no_winner_by",
        &[("value", NoWinnerBy::Value), ("tiles", NoWinnerBy::Tiles)],
    )
}

fn cutoff_ties<'de, D: Deserializer<'de>>(d: D) -> Result<Option<CutoffTies>, D::Error> {
    choice(
        d,
        "cutoff_ties",
        &[
            ("include", CutoffTies::Include),
            ("exclude", CutoffTies::Exclude),
            ("error", CutoffTies::Error),
        ],
    )
}

fn table_ties<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TableTies>, D::Error> {
    choice(
        d,
        "table_ties",
        &[("decide", TableTies::Decide), ("all", TableTies::All)],
    )
}

fn points<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let v = i64::deserialize(d)?;
    if !(0..=1_000_000).contains(&v) {
        return Err(serde::de::Error::custom(format!(
            "{v} points: expected a whole number from 0 to 1000000"
        )));
    }
    Ok(Some(v))
}

/// A whole number from 1 to `max` of `what`: 0 is never a switch.
fn at_least_one<'de, D: Deserializer<'de>>(
    d: D,
    what: &str,
    max: u32,
    zero: &str,
) -> Result<Option<u32>, D::Error> {
    let v = u32::deserialize(d)?;
    if !(1..=max).contains(&v) {
        return Err(serde::de::Error::custom(format!(
            "{v} {what}: expected 1 to {max}{zero}"
        )));
    }
    Ok(Some(v))
}

fn places<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    at_least_one(d, "places", 1_000_000, "")
}

fn sessions<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    at_least_one(
        d,
        "sessions",
        1_000,
        " (to expect no sessions and tables, write check = false)",
    )
}

fn tables<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    at_least_one(
        d,
        "tables",
        100_000,
        " (to expect no sessions and tables, write check = false)",
    )
}

fn games<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let v = u32::deserialize(d)?;
    if !(1..=100).contains(&v) {
        return Err(serde::de::Error::custom(format!(
            "{v} games: expected 1 to 100"
        )));
    }
    Ok(Some(v))
}

fn carry<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Carry>, D::Error> {
    let s = String::deserialize(d)?;
    s.parse().map(Some).map_err(serde::de::Error::custom)
}

fn date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let s = String::deserialize(d)?;
    parse_date(&s).map(Some).map_err(serde::de::Error::custom)
}

fn profile<'de, D: Deserializer<'de>>(d: D) -> Result<ProfileName, D::Error> {
    let s = String::deserialize(d)?;
    s.parse().map_err(serde::de::Error::custom)
}

fn order<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<SortKey>>, D::Error> {
    let keys = Vec::<String>::deserialize(d)?;
    if keys.is_empty() {
        return Err(serde::de::Error::custom(
            "the order is empty: give at least one key",
        ));
    }
    let parsed = keys
        .iter()
        .map(|k| k.parse::<SortKey>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(serde::de::Error::custom)?;
    for (i, k) in parsed.iter().enumerate() {
        if parsed[..i].iter().any(|e| e.key == k.key) {
            return Err(serde::de::Error::custom(format!(
                "{} is in the order twice",
                k.key.name()
            )));
        }
    }
    Ok(Some(parsed))
}

fn stages<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, StageSettings>, D::Error> {
    let raw = BTreeMap::<String, StageSettings>::deserialize(d)?;
    // `semi-final` and `Semi` are the stage `semi`, as on the cards.
    Ok(raw
        .into_iter()
        .map(|(name, s)| (Stage::new(&name).as_str().to_string(), s))
        .collect())
}

fn age_groups<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<AgeGroup>, D::Error> {
    let raw = Vec::<AgeGroupSetting>::deserialize(d)?;
    let groups: Vec<AgeGroup> = raw
        .iter()
        .map(|g| AgeGroup::new(&g.name, g.min, g.max))
        .collect();
    crate::rules::age_groups::check_groups(&groups)
        .map_err(|e| serde::de::Error::custom(format!("age_groups: {e}")))?;
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(text: &str) -> (usize, String) {
        match Config::parse(text, "tilerank.toml").unwrap_err() {
            ConfigError::Invalid { line, message, .. } => (line, message),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_template_reads_back_as_the_profile_defaults() {
        for profile in ProfileName::all() {
            let text = Config::template(profile, "Test \"Open\"", Some("2026-03-28"));
            let config = Config::parse(&text, "tilerank.toml").unwrap();
            let expected = Rules {
                event_date: Some("2026-03-28".into()),
                ..profile.rules()
            };
            assert_eq!(config.rules(), expected, "{profile}");
            assert_eq!(config.event.name, "Test \"Open\"");
        }
    }

    #[test]
    fn the_hk_template_expects_twelve_sessions_of_25_tables() {
        let text = Config::template("hk".parse().unwrap(), "HK", None);
        assert!(text.contains("\ncount = 12\ntables = 25\n"), "{text}");
        let rules = Config::parse(&text, "t").unwrap().rules();
        assert_eq!(
            rules.schedule,
            Some(Schedule {
                sessions: 12,
                tables: 25
            })
        );
    }

    #[test]
    fn settings_override_the_profile() {
        let text = "[event]\nname = \"x\"\n[rules]\njoker_value = 50\npenalty_mode = \"add\"\n[qualifiers]\ntop = 64\ncutoff_ties = \"error\"\n[standings]\norder = [\"total_score\", \"games_won\"]\n";
        let rules = Config::parse(text, "t.toml").unwrap().rules();
        assert_eq!(rules.joker_value, 50);
        assert_eq!(rules.penalty_mode, PenaltyMode::Add);
        assert_eq!(rules.qualifiers, 64);
        assert_eq!(rules.cutoff_ties, CutoffTies::Error);
        assert_eq!(
            rules.order,
            vec![
                "total_score".parse::<SortKey>().unwrap(),
                "games_won".parse().unwrap()
            ]
        );
    }

    #[test]
    fn stages_and_age_groups() {
        let text = "[event]\nname = \"x\"\ndate = \"2023-9-13\"\nprofile = \"nvso\"\n[stages.semi-final]\ngames = 2\ncarry = \"half\"\n[[age_groups]]\nname = \"50-69\"\nmin = 50\nmax = 69\n[[age_groups]]\nname = \"70+\"\nmin = 70\n";
        let rules = Config::parse(text, "t.toml").unwrap().rules();
        assert_eq!(rules.games_for(&Stage::new("semi")), 2);
        assert_eq!(rules.games_for(&Stage::prelim()), 3);
        assert_eq!(rules.carry["semi"], Carry::Half);
        assert_eq!(rules.stages, vec!["prelim", "semi", "final"]);
        assert_eq!(rules.age_groups.len(), 2);
        assert_eq!(rules.event_date.as_deref(), Some("2023-09-13"));
        let overlap = text.replace("min = 70", "min = 60");
        let (line, message) = invalid(&overlap);
        assert_eq!(line, 8, "{message}");
        assert!(message.starts_with("age_groups: "), "{message}");
    }

    #[test]
    fn every_wrong_value_names_its_line() {
        let head = "[event]\nname = \"x\"\n";
        for (text, line, expected) in [
            ("[rules]\njoker = 30\n", 4, "unknown field `joker`"),
            (
                "[rules]\npenalty_mode = \"double\"\n",
                4,
                "penalty_mode is \"double\"; expected \"replace\" or \"add\"",
            ),
            (
                "[rules]\nknocked = -5\n",
                4,
                "-5 points: expected a whole number",
            ),
            (
                "[rules]\ngames_per_session = 0\n",
                4,
                "0 games: expected 1 to 100",
            ),
            (
                "[standings]\norder = [\"nonsense_key\"]\n",
                4,
                "unknown standings key \"nonsense_key\"",
            ),
            ("[standings]\norder = []\n", 4, "the order is empty"),
            (
                "[qualifiers]\ncutoff_ties = \"maybe\"\n",
                4,
                "cutoff_ties is \"maybe\"",
            ),
            (
                "[qualifiers]\ntable_ties = \"some\"\n",
                4,
                "table_ties is \"some\"",
            ),
            ("[stages.final]\ncarry = \"most\"\n", 4, "carry is \"most\""),
        ] {
            let (at, message) = invalid(&format!("{head}{text}"));
            assert_eq!(at, line, "{text}: {message}");
            assert!(message.contains(expected), "{text}: {message}");
        }
        let (at, message) = invalid("[event]\nname = \"x\"\ndate = \"2026-02-30\"\n");
        assert_eq!(at, 3);
        assert!(message.contains("is not a date"), "{message}");
        let (at, message) = invalid("[event]\nname = \"x\"\nprofile = \"chess\"\n");
        assert_eq!(at, 3);
        assert!(message.contains("unknown rules profile"), "{message}");
    }

    #[test]
    fn one_date_syntax_everywhere() {
        assert_eq!(parse_date("2026-3-28").unwrap(), "2026-03-28");
        assert_eq!(parse_date("2026/03/28").unwrap(), "2026-03-28");
        assert!(parse_date("28-03-2026").is_err());
        let text = "[event]\nname = \"x\"\ndate = \"2026-3-28\"\n";
        let config = Config::parse(text, "t").unwrap();
        assert_eq!(config.event.date.as_deref(), Some("2026-03-28"));
    }

    #[test]
    fn the_command_line_comes_after_the_file() {
        let config = Config::parse(
            "[event]\nname = \"x\"\ndate = \"2026-03-28\"\n[qualifiers]\ntop = 64\n",
            "t",
        )
        .unwrap();
        let o = Overrides {
            top: Some(8),
            ..Overrides::default()
        };
        assert_eq!(o.apply(Some(&config)).qualifiers, 8);
        assert_eq!(Overrides::default().apply(Some(&config)).qualifiers, 64);
        // Without an event folder, the files given are the event: no
        // schedule of expected cards.
        assert_eq!(Overrides::default().apply(None).schedule, None);
        let nvso = Overrides {
            profile: Some("nvso".parse().unwrap()),
            ..Overrides::default()
        };
        let rules = nvso.apply(Some(&config));
        assert_eq!(rules.profile.as_str(), "nvso");
        assert_eq!(rules.event_date.as_deref(), Some("2026-03-28"));
    }
}
