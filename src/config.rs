//! The event's settings, `tilerank.toml` (FORMATS.md): name, date, rules
//! profile, and every figure of the rules with the profile's default. The
//! file is plain TOML a person edits; `tilerank init` writes it with every
//! setting present and commented.

use crate::profile::{CutoffTies, NoWinnerBy, PenaltyMode, ProfileName, Rules};
use serde::Deserialize;
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
    #[serde(default)]
    pub stages: std::collections::BTreeMap<String, StageSettings>,
    /// `[[age_groups]] name = "50-64"`, `min = 50`, `max = 64`.
    #[serde(default)]
    pub age_groups: Vec<AgeGroupSetting>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StageSettings {
    pub games: Option<u32>,
    pub carry: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AgeGroupSetting {
    pub name: String,
    pub min: u32,
    pub max: Option<u32>,
}

/// The tie-break order, declared: keys from games_won, average_score,
/// total_score, tiles_left, best_game, each with an optional direction
/// (`total_score:lower`).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StandingsSettings {
    pub order: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct EventInfo {
    pub name: String,
    /// `YYYY-MM-DD`: ages are taken on this date.
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default = "default_profile")]
    pub profile: String,
}

fn default_profile() -> String {
    "hk".to_string()
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RuleSettings {
    pub joker_value: Option<i64>,
    pub no_meld: Option<i64>,
    pub refused_meld: Option<i64>,
    pub knocked: Option<i64>,
    pub penalty_mode: Option<String>,
    pub no_winner_by: Option<String>,
    pub games_per_session: Option<u32>,
    pub min_age: Option<u32>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct QualifierSettings {
    pub top: Option<u32>,
    pub cutoff_ties: Option<String>,
}

/// What the event expects, so that missing cards can be named.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SessionSettings {
    /// Sessions of the prelim stage, numbered 1..=count.
    pub count: Option<u32>,
    /// Tables in each session, numbered 1..=tables.
    pub tables: Option<u32>,
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

impl Config {
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Unreadable {
            file: file.clone(),
            reason: e.to_string(),
        })?;
        let config = Config::parse(&text, &file)?;
        config
            .rules()
            .map_err(|message| ConfigError::Setting { file, message })?;
        Ok(config)
    }

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

    pub fn profile(&self) -> Result<ProfileName, String> {
        self.event.profile.parse()
    }

    /// The profile's rules with this file's settings applied.
    pub fn rules(&self) -> Result<Rules, String> {
        let mut rules = Rules::for_profile(self.profile()?);
        let r = &self.rules;
        if let Some(v) = r.joker_value {
            rules.joker_value = v;
        }
        if let Some(v) = r.no_meld {
            rules.penalties.no_meld = v;
        }
        if let Some(v) = r.refused_meld {
            rules.penalties.refused_meld = v;
        }
        if let Some(v) = r.knocked {
            rules.penalties.knocked = v;
        }
        if let Some(v) = &r.penalty_mode {
            rules.penalty_mode = match v.as_str() {
                "replace" => PenaltyMode::Replace,
                "add" => PenaltyMode::Add,
                other => {
                    return Err(format!(
                        "penalty_mode is {other:?}; expected \"replace\" or \"add\""
                    ))
                }
            };
        }
        if let Some(v) = &r.no_winner_by {
            rules.no_winner_by = match v.as_str() {
                "value" => NoWinnerBy::Value,
                "tiles" => NoWinnerBy::Tiles,
                other => {
                    return Err(format!(
                        "no_winner_by is {other:?}; expected \"value\" or \"tiles\""
                    ))
                }
            };
        }
        if let Some(v) = r.games_per_session {
            if v == 0 {
                return Err("games_per_session is 0; expected 1 or more".to_string());
            }
            rules.games_per_session = v;
        }
        if let Some(v) = r.min_age {
            rules.min_age = Some(v);
        }
        if let Some(v) = self.qualifiers.top {
            rules.qualifiers = v;
        }
        if let Some(v) = &self.qualifiers.cutoff_ties {
            rules.cutoff_ties = match v.as_str() {
                "include" => CutoffTies::Include,
                "exclude" => CutoffTies::Exclude,
                "error" => CutoffTies::Error,
                other => {
                    return Err(format!(
                        "cutoff_ties is {other:?}; expected \"include\", \"exclude\" or \"error\""
                    ))
                }
            };
        }
        for (name, stage) in &self.stages {
            let key = crate::domain::Stage::new(name).as_str().to_string();
            if let Some(g) = stage.games {
                if g == 0 {
                    return Err(format!("stages.{name}.games is 0; expected 1 or more"));
                }
                rules.stage_games.insert(key.clone(), g);
            }
            if let Some(c) = &stage.carry {
                rules.carry.insert(
                    key,
                    c.parse().map_err(|e| format!("stages.{name}.carry: {e}"))?,
                );
            }
        }
        if let Some(date) = &self.event.date {
            if crate::rules::age_groups::Date::parse(date).is_none() {
                return Err(format!("event date {date:?} is not a date YYYY-MM-DD"));
            }
            rules.event_date = Some(date.clone());
        }
        if !self.age_groups.is_empty() {
            let groups: Vec<crate::rules::age_groups::AgeGroup> = self
                .age_groups
                .iter()
                .map(|g| crate::rules::age_groups::AgeGroup::new(&g.name, g.min, g.max))
                .collect();
            crate::rules::age_groups::check_groups(&groups)
                .map_err(|e| format!("age_groups: {e}"))?;
            rules.age_groups = groups;
        }
        for (name, v) in [
            ("joker_value", rules.joker_value),
            ("no_meld", rules.penalties.no_meld),
        ] {
            if v < 0 {
                return Err(format!("{name} is {v}; expected 0 or more"));
            }
        }
        Ok(rules)
    }

    /// The file `tilerank init` writes: every setting with its default.
    pub fn template(profile: ProfileName, name: &str, date: Option<&str>) -> String {
        let r = Rules::for_profile(profile);
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let date_line = match date {
            Some(d) => format!("date = {}", quote(d)),
            None => "# date = \"2026-03-28\"".to_string(),
        };
        let mode = match r.penalty_mode {
            PenaltyMode::Replace => "replace",
            PenaltyMode::Add => "add",
        };
        let by = match r.no_winner_by {
            NoWinnerBy::Value => "value",
            NoWinnerBy::Tiles => "tiles",
        };
        let ties = match r.cutoff_ties {
            CutoffTies::Include => "include",
            CutoffTies::Exclude => "exclude",
            CutoffTies::Error => "error",
        };
        let min_age = match r.min_age {
            Some(a) => format!("min_age = {a}"),
            None => "# min_age = 7".to_string(),
        };
        format!(
            r#"# tilerank event settings. Every setting shows the default of the
# rules profile; change what your event does differently.

[event]
name = {name}
# The event date (YYYY-MM-DD): ages are taken on this date.
{date_line}
# Rules profile: hk, nvso, pressman or gwinnett.
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
# Games on each card (one session at one table).
games_per_session = {games}
# Youngest age allowed on the event date.
{min_age}

[qualifiers]
# How many of the prelim standings go to the final.
top = {top}
# Players tied on every key across the cutoff: "include" (all go),
# "exclude" (none go) or "error" (the director decides).
cutoff_ties = "{ties}"

[sessions]
# Sessions and tables per session of the prelim stage, so that missing
# cards can be named (HK 2026: 12 sessions of 25 tables).
# count = 12
# tables = 25

# Per stage: games on each card, and what the stage carries over from the
# one before: "none" (fresh standings), "all", or "half" (half the points,
# rounded up).
# [stages.final]
# games = 3
# carry = "none"

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
            joker = r.joker_value,
            no_meld = r.penalties.no_meld,
            refused_meld = r.penalties.refused_meld,
            knocked = r.penalties.knocked,
            games = r.games_per_session,
            top = r.qualifiers,
            order = r
                .order
                .iter()
                .map(|k| format!(
                    "\"{}:{}\"",
                    k.key.name(),
                    match k.better {
                        crate::rules::standings::Better::Higher => "higher",
                        crate::rules::standings::Better::Lower => "lower",
                    }
                ))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_reads_back_as_the_profile_defaults() {
        for profile in ProfileName::ALL {
            let text = Config::template(profile, "Test \"Open\"", Some("2026-03-28"));
            let config = Config::parse(&text, "tilerank.toml").unwrap();
            let expected = Rules {
                event_date: Some("2026-03-28".into()),
                ..Rules::for_profile(profile)
            };
            assert_eq!(config.rules().unwrap(), expected, "{profile}");
            assert_eq!(config.event.name, "Test \"Open\"");
            assert_eq!(config.event.date.as_deref(), Some("2026-03-28"));
        }
    }

    #[test]
    fn settings_override_the_profile() {
        let text = "[event]\nname = \"x\"\n[rules]\njoker_value = 50\npenalty_mode = \"add\"\n[qualifiers]\ntop = 64\ncutoff_ties = \"error\"\n";
        let rules = Config::parse(text, "t.toml").unwrap().rules().unwrap();
        assert_eq!(rules.joker_value, 50);
        assert_eq!(rules.penalty_mode, PenaltyMode::Add);
        assert_eq!(rules.qualifiers, 64);
        assert_eq!(rules.cutoff_ties, CutoffTies::Error);
    }

    #[test]
    fn stages_and_age_groups() {
        let text = "[event]\nname = \"x\"\ndate = \"2023-09-13\"\nprofile = \"nvso\"\n[stages.semi-final]\ngames = 2\ncarry = \"half\"\n[[age_groups]]\nname = \"50-69\"\nmin = 50\nmax = 69\n[[age_groups]]\nname = \"70+\"\nmin = 70\n";
        let rules = Config::parse(text, "t.toml").unwrap().rules().unwrap();
        assert_eq!(rules.games_for(&crate::domain::Stage::new("semi")), 2);
        assert_eq!(rules.games_for(&crate::domain::Stage::prelim()), 3);
        assert_eq!(rules.carry["semi"], crate::rules::advancement::Carry::Half);
        assert_eq!(rules.age_groups.len(), 2);
        assert_eq!(rules.event_date.as_deref(), Some("2023-09-13"));
        let overlap = text.replace("min = 70", "min = 60");
        assert!(Config::parse(&overlap, "t.toml")
            .unwrap()
            .rules()
            .unwrap_err()
            .starts_with("age_groups: "));
    }

    #[test]
    fn mistakes_name_their_line() {
        let err =
            Config::parse("[event]\nname = \"x\"\n[rules]\njoker = 30\n", "t.toml").unwrap_err();
        match err {
            ConfigError::Invalid { line, message, .. } => {
                assert_eq!(line, 4);
                assert!(message.contains("unknown field `joker`"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let bad = Config::parse(
            "[event]\nname = \"x\"\n[rules]\npenalty_mode = \"double\"\n",
            "t.toml",
        )
        .unwrap();
        assert_eq!(
            bad.rules().unwrap_err(),
            "penalty_mode is \"double\"; expected \"replace\" or \"add\""
        );
        let bad = Config::parse("[event]\nname = \"x\"\nprofile = \"chess\"\n", "t.toml").unwrap();
        assert!(bad.rules().unwrap_err().contains("unknown rules profile"));
    }
}
