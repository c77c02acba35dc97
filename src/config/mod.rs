//! The event's settings, `tilerank.toml`, and rules files: the event's name,
//! date and rules profile, and every setting of the rules. The files are
//! plain TOML a person edits; `tilerank init` writes `tilerank.toml` with
//! every setting present and commented ([`Config::template`]).
//!
//! This module is the one place that reads, checks and applies settings:
//! the built-in profiles (TOML files in `src/profile/`, embedded in the
//! binary), a director's rules file (`--rules FILE`, which may start from a
//! built-in: `extends = "gwinnett"`), the event's file ([`Config::rules`])
//! and the command line's overrides ([`Overrides`]), all through one
//! reader and the one declaration of every setting ([`settings`]). Every
//! value is checked while the file is read, so a wrong one is an error at
//! its place, `FILE:LINE:COL`, naming the setting and its value as written
//! (`[qualifiers] top = 0: expected 1 to 1000000`): an unknown key, a
//! negative charge, an unknown tie-break key, a date that is not a date,
//! overlapping age groups, two settings that contradict each other. Every
//! mistake of a file is said at once, in the file's order
//! ([`ConfigError::Several`]).

pub mod settings;

use crate::domain::Stage;
use crate::profile::vocabulary::MedalNames;
use crate::profile::{
    AgeScheme, CutoffTies, GoingOn, NoWinnerBy, Penalties, PenaltyMode, ProfileName, Rules,
    Scoring, TableTies, PROFILES,
};
use crate::rules::advancement::Carry;
use crate::rules::age_groups::{AgeGroup, Date};
use settings::{Setting, SECTIONS, SETTINGS};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Players a `[stages.NAME]` table lists, with the list as written.
type Listed<'v, 't> = Option<(Vec<String>, &'v Spanned<DeValue<'t>>)>;

/// A `[stages.NAME]` table as given: its name, where its name is written,
/// its games, carry, absent players and the players named to settle its
/// ties.
type StageSettings<'v, 't> = (
    String,
    std::ops::Range<usize>,
    Option<u32>,
    Option<Carry>,
    Listed<'v, 't>,
    Listed<'v, 't>,
);

pub const FILE_NAME: &str = "tilerank.toml";

/// The most cards a first stage's schedule may expect (sessions times
/// tables): four million players at four a table, and each card the
/// schedule names missing is held in memory.
pub const MAX_SCHEDULED_CARDS: u64 = 1_000_000;

/// An event's `tilerank.toml`: who the event is, and its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub event: EventInfo,
    rules: Rules,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventInfo {
    pub name: String,
    /// `YYYY-MM-DD`: ages are taken on this date (read with
    /// [`parse_date`], kept in that form).
    pub date: Option<String>,
    pub profile: ProfileName,
    /// The address phones reach the live desk at (`http://192.168.1.20:8080`),
    /// for the referees' links.
    pub site: Option<String>,
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
    /// Every mistake of one file, two or more, each at its place, in the
    /// file's order: one line each.
    #[error("{}", lines(.0))]
    Several(Vec<ConfigError>),
}

/// Errors one a line.
fn lines(errors: &[ConfigError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads the live desk's address: `http://` or `https://`, a host, no
/// query; kept without its last `/`. What is wrong is said after the
/// address as written (`[event] site = "...": expected ...`).
pub fn parse_site(text: &str) -> Result<String, String> {
    let t = text.trim();
    let rest = t
        .strip_prefix("http://")
        .or_else(|| t.strip_prefix("https://"))
        .ok_or_else(|| {
            "expected an address starting http:// or https://, http://192.168.1.20:8080".to_string()
        })?;
    if rest.is_empty() || rest.starts_with('/') || t.contains(['?', '#', ' ', '"', '<', '>']) {
        return Err(
            "expected an address like http://192.168.1.20:8080 (a host, no query)".to_string(),
        );
    }
    Ok(t.trim_end_matches('/').to_string())
}

/// Reads a date as every command and the settings accept it: `YYYY-MM-DD`,
/// also with one-digit months and days, and `/` or `.` between the parts.
/// Gives it back as `YYYY-MM-DD`.
pub fn parse_date(text: &str) -> Result<String, String> {
    read_date(text).map_err(|why| format!("{text:?} is {why}"))
}

/// [`parse_date`], saying what is wrong after the date as written: `not a
/// date: ...` (the file's `[event] date = "2026-02-30": not a date: ...`).
fn read_date(text: &str) -> Result<String, String> {
    Date::parse(text).map(|d| d.to_string()).ok_or_else(|| {
        match crate::rules::age_groups::date_meant(text) {
            Some(why) => format!("not a date: {why}"),
            None => "not a date: expected YYYY-MM-DD".to_string(),
        }
    })
}

impl ProfileName {
    /// The built-in profile's rules, every setting at its default: its
    /// file in `src/profile/`, read by the reader of every rules file.
    pub fn rules(self) -> Rules {
        let text = PROFILES
            .iter()
            .find(|(name, _)| *name == self.as_str())
            .map_or("", |(_, text)| text);
        match RulesFile::parse(text, &format!("{self}.toml")) {
            // (no file of the director's: its settings are written nowhere)
            Ok(file) => Rules {
                written_at: Default::default(),
                ..file.rules
            },
            // the built-in files are read by a test of every one of them
            Err(e) => unreachable!("the built-in profile {self} reads clean: {e}"),
        }
    }
}

/// A rules file: a profile a director writes (or a built-in one), read by
/// `--rules FILE` and `init --rules FILE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesFile {
    /// `name = "club"`: how titles and the Settings sheet name the rules.
    pub name: String,
    /// `about = "..."`: one line for `tilerank profiles`.
    pub about: String,
    pub rules: Rules,
}

impl RulesFile {
    pub fn load(path: &Path) -> Result<RulesFile, ConfigError> {
        let file = path.display().to_string();
        let text = read_text(path, &file)?;
        RulesFile::parse(&text, &file)
    }

    /// Reads and checks a rules file: every mistake is an error naming its
    /// line, all of them said at once. A file that does not start from a
    /// built-in (`extends`) sets every setting.
    pub fn parse(text: &str, file: &str) -> Result<RulesFile, ConfigError> {
        let reader = Reader::new(text, file)?;
        let mut name = None;
        let mut about = String::new();
        let mut base = None;
        // an `extends` that names no profile: what the file leaves out is
        // not known then, and not said
        let mut extends_wrong = false;
        for (key, value) in reader.top() {
            match key.get_ref().as_ref() {
                "name" => name = reader.text("name", value).map(str::to_string),
                "about" => {
                    if let Some(a) = reader.text("about", value) {
                        about = a.to_string();
                    }
                }
                "extends" => {
                    base = reader
                        .read("extends", value, |v| {
                            settings::text(v)?.parse::<ProfileName>()
                        })
                        .map(ProfileName::rules);
                    extends_wrong = base.is_none();
                }
                "event" => reader.note(reader.at(
                    key.span(),
                    "[event] belongs in an event's tilerank.toml, not in a rules file",
                )),
                _ => {}
            }
        }
        if name.is_none() && !reader.top().any(|(k, _)| k.get_ref() == "name") {
            reader.note(reader.at(0..0, "the file has no name: name = \"club\""));
        }
        let complete = base.is_none() && !extends_wrong;
        let mut rules = base.unwrap_or_else(blank);
        let name = name.unwrap_or_default();
        rules.profile = ProfileName::named(&name);
        let given = reader.apply(&mut rules, &["name", "about", "extends"]);
        rules.written_at = reader.written_at();
        if complete {
            let missing = missing(&given);
            if !missing.is_empty() {
                reader.note(ConfigError::Setting {
                    file: file.to_string(),
                    message: format!(
                        "a rules file that extends no profile sets every setting; missing: {} (or start from a profile: extends = \"hk\")",
                        missing.join(", ")
                    ),
                });
            }
        }
        reader.done(RulesFile { name, about, rules })
    }

    /// The file that gives these rules, every setting written and
    /// commented: what `tilerank profiles show` prints.
    pub fn show(rules: &Rules, name: &str, about: &str) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = format!(
            "# tilerank rules: every setting, with what it does. Save it under a\n# new name, change what your event does differently, and give it to\n# any command as --rules FILE (or make an event of it: tilerank init\n# DIR --rules FILE).\nname = {}\n",
            quote(name)
        );
        if !about.is_empty() {
            out.push_str(&format!("about = {}\n", quote(about)));
        }
        out.push_str(&sections(rules));
        out
    }
}

/// The settings a file that starts from no profile did not give.
fn missing(given: &BTreeSet<(&'static str, &'static str)>) -> Vec<String> {
    SETTINGS
        .iter()
        .filter(|s| !optional(s) && !given.contains(&(s.section, s.key)))
        .map(|s| format!("[{}] {}", s.section, s.key))
        .collect()
}

/// Settings a rules file may leave out: the rules have none of them then.
fn optional(s: &Setting) -> bool {
    matches!(
        (s.section, s.key),
        ("rules", "min_age") | ("qualifiers", "seats" | "per_table") | ("sessions", _)
    )
}

/// Rules with nothing chosen yet, for a file that extends no profile (it
/// must set every setting).
fn blank() -> Rules {
    Rules {
        profile: ProfileName::default(),
        scoring: Scoring::ZeroSum,
        joker_value: 0,
        penalties: Penalties::none(),
        penalty_mode: PenaltyMode::Replace,
        no_winner_by: NoWinnerBy::Value,
        games_per_session: 1,
        stages: vec!["prelim".into()],
        going_on: GoingOn::TopOfStandings,
        qualifiers: 1,
        cutoff_ties: CutoffTies::Include,
        table_ties: TableTies::Decide,
        named: Vec::new(),
        min_age: None,
        order: Vec::new(),
        stage_games: BTreeMap::new(),
        carry: BTreeMap::new(),
        absent: BTreeMap::new(),
        stage_named: BTreeMap::new(),
        event_date: None,
        age_groups: Vec::new(),
        age_scheme: AgeScheme::None,
        medal_names: MedalNames::Metals,
        super_family_award: false,
        double_entry: false,
        family_ages: crate::profile::vocabulary::FamilyAges {
            child_min: 0,
            child_max: 0,
            parent_min: 0,
        },
        schedule: None,
        sessions_per_player: None,
        written_at: Default::default(),
    }
}

/// The most a settings file may hold. A settings file is a few kB (the
/// fullest `init` writes is under 20 kB); a path given by mistake (a
/// device, a pipe, a results file of a million lines) is refused at this
/// size instead of being read whole.
pub const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;

fn read_text(path: &Path, file: &str) -> Result<String, ConfigError> {
    use std::io::Read;
    let unreadable = |reason: String| ConfigError::Unreadable {
        file: file.to_string(),
        reason,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SETTINGS_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| unreadable(e.to_string()))?;
    if bytes.len() as u64 > MAX_SETTINGS_BYTES {
        return Err(unreadable(format!(
            "it holds more than {} bytes, and a settings file holds a few thousand: is it the right file?",
            MAX_SETTINGS_BYTES
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = &e.as_bytes()[..at];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        unreadable(format!(
            "line {line} is not UTF-8 text (a settings file is saved as UTF-8)"
        ))
    })
}

/// One file being read: its text (for places), its parsed table, and the
/// mistakes found so far. A mistake is noted and the reading goes on, so
/// that the file's every mistake is said at once ([`Reader::done`]); a
/// check that depends on a value found wrong is not made (the file is
/// wrong already, and what it would check against is not known).
struct Reader<'t> {
    text: &'t str,
    file: &'t str,
    table: DeTable<'t>,
    errors: RefCell<Vec<ConfigError>>,
    /// Where each setting read is written.
    written: RefCell<crate::profile::WrittenAt>,
}

impl<'t> Reader<'t> {
    /// The file parsed as TOML; a file that is not TOML is its first
    /// mistake alone (the parser stops there).
    fn new(text: &'t str, file: &'t str) -> Result<Reader<'t>, ConfigError> {
        let table = DeTable::parse(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            place(text, file, span.clone(), &not_toml(text, span, e.message()))
        })?;
        Ok(Reader {
            text,
            file,
            table: table.into_inner(),
            errors: RefCell::new(Vec::new()),
            written: RefCell::default(),
        })
    }

    fn top(
        &self,
    ) -> impl Iterator<Item = (&Spanned<std::borrow::Cow<'t, str>>, &Spanned<DeValue<'t>>)> {
        self.table.iter()
    }

    fn at(&self, span: std::ops::Range<usize>, message: impl Into<String>) -> ConfigError {
        place(self.text, self.file, span, &message.into())
    }

    /// Keeps where `setting` is written: its `value`, and each item of a
    /// list (see [`crate::profile::WrittenAt::place_of_item`]).
    fn mark_value(&self, setting: &str, value: &Spanned<DeValue<'t>>) {
        self.mark(setting, value.span());
        for (i, item) in value.get_ref().as_array().into_iter().flatten().enumerate() {
            self.mark(&crate::profile::WrittenAt::item(setting, i), item.span());
        }
    }

    /// Keeps where `setting` is written: at `span`.
    fn mark(&self, setting: &str, span: std::ops::Range<usize>) {
        if let ConfigError::Invalid { line, col, .. } = place(self.text, self.file, span, "") {
            let at = crate::place::Source::file(self.file).at(line as u32, Some(col as u32));
            self.written
                .borrow_mut()
                .places
                .insert(setting.to_string(), at);
        }
    }

    /// Where each setting read is written, in this file.
    fn written_at(&self) -> crate::profile::WrittenAt {
        crate::profile::WrittenAt {
            file: Some(self.file.to_string()),
            ..self.written.borrow().clone()
        }
    }

    /// Notes a mistake; the reading goes on.
    fn note(&self, e: ConfigError) {
        self.errors.borrow_mut().push(e);
    }

    /// What was read, or every mistake noted: one alone, or all of them
    /// in the file's order (those of the whole file, with no place, last).
    fn done<T>(self, value: T) -> Result<T, ConfigError> {
        let mut errors = self.errors.into_inner();
        errors.sort_by_key(|e| match e {
            ConfigError::Invalid { line, col, .. } => (*line, *col),
            _ => (usize::MAX, 0),
        });
        match errors.len() {
            0 => Ok(value),
            1 => Err(errors.remove(0)),
            _ => Err(ConfigError::Several(errors)),
        }
    }

    /// The value at `place` (`[qualifiers] top`) as `read` takes it, or
    /// `None` with its mistake noted: the one place a wrong value is said,
    /// as `FILE:LINE:COL: [qualifiers] top = 0: expected 1 to 1000000`:
    /// where the file gives it, the value as written, and what `read`
    /// says is wrong.
    fn read<T>(
        &self,
        place: &str,
        value: &Spanned<DeValue<'t>>,
        read: impl FnOnce(&DeValue<'t>) -> Result<T, String>,
    ) -> Option<T> {
        self.mark_value(place, value);
        match read(value.get_ref()) {
            Ok(v) => Some(v),
            Err(why) => {
                let written = self.written(value.span());
                self.note(self.at(value.span(), format!("{place} = {written}: {why}")));
                None
            }
        }
    }

    /// A value as the file writes it, on one line, a long one cut short.
    fn written(&self, span: std::ops::Range<usize>) -> String {
        const LONGEST: usize = 40;
        let text = self.text.get(span).unwrap_or_default();
        let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if one_line.chars().count() <= LONGEST {
            return one_line;
        }
        let cut: String = one_line.chars().take(LONGEST - 3).collect();
        format!("{cut}...")
    }

    fn text<'v>(&self, place: &str, value: &'v Spanned<DeValue<'t>>) -> Option<&'v str> {
        let text = value.get_ref().as_str();
        if text.is_none() {
            self.read(place, value, |v| settings::text(v).map(|_| ()));
        }
        text
    }

    /// The table `what` (`stages.semi`), or `None` with its mistake noted.
    fn table<'v>(&self, value: &'v Spanned<DeValue<'t>>, what: &str) -> Option<&'v DeTable<'t>> {
        let table = value.get_ref().as_table();
        if table.is_none() {
            self.note(self.at(
                value.span(),
                format!("{what} is not a table: write it as [{what}]"),
            ));
        }
        table
    }

    /// Applies every section of the file to `rules` (the top-level keys in
    /// `own` are the caller's), noting each mistake; gives back the
    /// settings the file gives, right or wrong.
    fn apply(&self, rules: &mut Rules, own: &[&str]) -> BTreeSet<(&'static str, &'static str)> {
        let mut given = BTreeSet::new();
        // the settings given with a wrong value
        let mut wrong = BTreeSet::new();
        let mut sessions_at = None;
        let mut stage_settings: Vec<StageSettings> = Vec::new();
        for (key, value) in self.top() {
            let section = key.get_ref().as_ref();
            if own.contains(&section) {
                continue;
            }
            match section {
                "stages" => {
                    let Some(stages) = self.table(value, "stages") else {
                        continue;
                    };
                    for (name, stage) in stages {
                        let section = format!("stages.{}", name.get_ref());
                        let Some(stage_table) = self.table(stage, &section) else {
                            continue;
                        };
                        let (mut games, mut carry, mut absent, mut named) =
                            (None, None, None, None);
                        for (k, v) in stage_table {
                            let place = format!("[{section}] {}", k.get_ref());
                            match k.get_ref().as_ref() {
                                "games" => games = self.read(&place, v, settings::games),
                                "carry" => {
                                    carry = self.read(&place, v, |v| {
                                        settings::text(v)?.parse::<Carry>()
                                    })
                                }
                                "absent" => {
                                    absent =
                                        self.read(&place, v, settings::strings).map(|a| (a, v))
                                }
                                "named" => {
                                    named =
                                        self.read(&place, v, settings::strings).map(|n| (n, v))
                                }
                                other => self.note(self.at(
                                    k.span(),
                                    format!("unknown setting `{other}` in [{section}]: expected `games`, `carry`, `absent` or `named`"),
                                )),
                            }
                        }
                        // `semi-final` and `Semi` are the stage `semi`, as on the cards.
                        let at = name.span();
                        let name = Stage::new(name.get_ref()).as_str().to_string();
                        stage_settings.push((name, at, games, carry, absent, named));
                    }
                }
                "age_groups" => {
                    let Some(items) = value.get_ref().as_array() else {
                        self.note(self.at(
                            value.span(),
                            "age_groups is a list of groups: write each as [[age_groups]]",
                        ));
                        continue;
                    };
                    // (the groups are checked together of those read right)
                    let read: Vec<(&Spanned<DeValue<'t>>, AgeGroup)> = items
                        .iter()
                        .filter_map(|item| Some((item, self.age_group(item)?)))
                        .collect();
                    let groups: Vec<AgeGroup> = read.iter().map(|(_, g)| g.clone()).collect();
                    let mistakes = crate::rules::age_groups::check_groups(&groups);
                    // each said of its group: a group that takes no age at
                    // its max, a name given twice at the name, an overlap at
                    // the later group's [[age_groups]]
                    for (i, e) in &mistakes {
                        use crate::rules::age_groups::BadGroups;
                        let item = read[*i].0;
                        let key = match e {
                            BadGroups::Empty(_) => Some("max"),
                            BadGroups::SameName(_) => Some("name"),
                            BadGroups::Overlap(..) => None,
                        };
                        let at = item
                            .get_ref()
                            .as_table()
                            .zip(key)
                            .and_then(|(t, key)| t.iter().find(|(k, _)| k.get_ref() == key))
                            .map_or(item.span(), |(_, v)| v.span());
                        self.note(self.at(at, format!("age_groups: {e}")));
                    }
                    if mistakes.is_empty() && read.len() == items.len() {
                        rules.age_groups = groups;
                    }
                }
                _ if SECTIONS.contains(&section) => {
                    if section == "sessions" {
                        sessions_at = Some(value.span());
                    }
                    let Some(table) = self.table(value, section) else {
                        continue;
                    };
                    for (k, _) in table {
                        if settings::find(section, k.get_ref()).is_none() {
                            self.note(self.at(
                                k.span(),
                                format!(
                                    "unknown setting `{}` in [{section}]: expected one of {}",
                                    k.get_ref(),
                                    settings::keys_of(section)
                                ),
                            ));
                        }
                    }
                    // in the declaration's order, whatever the file's: a
                    // setting that depends on another is read after it
                    for setting in SETTINGS.iter().filter(|s| s.section == section) {
                        let Some((_, v)) = table.iter().find(|(k, _)| k.get_ref() == setting.key)
                        else {
                            continue;
                        };
                        let at = (setting.section, setting.key);
                        given.insert(at);
                        let after_wrong = settings::DEPENDS_ON
                            .iter()
                            .any(|&(s, k, on)| (s, k) == at && wrong.contains(&(s, on)));
                        if after_wrong {
                            continue;
                        }
                        let place = format!("[{}] {}", setting.section, setting.key);
                        if self.read(&place, v, |v| (setting.set)(rules, v)).is_none() {
                            wrong.insert(at);
                        }
                    }
                }
                other => {
                    let mut known: Vec<String> = own.iter().map(|k| format!("`{k}`")).collect();
                    known.extend(SECTIONS.iter().map(|s| format!("[{s}]")));
                    known.push("[stages.NAME]".into());
                    known.push("[[age_groups]]".into());
                    self.note(self.at(
                        key.span(),
                        format!(
                            "unknown section or key `{other}`: expected {}",
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        // (a schedule of a wrong count or tables is not checked whole)
        let sessions_wrong = wrong.iter().any(|(s, _)| *s == "sessions");
        if let (Some(s), false) = (rules.schedule, sessions_wrong) {
            let sessions_at = sessions_at.unwrap_or(0..0);
            if s.sessions == 0 || s.tables == 0 {
                self.note(self.at(
                    sessions_at,
                    "[sessions]: count or tables alone, and these rules expect no sessions: give both, or check = false",
                ));
            } else {
                let cards = u64::from(s.sessions) * u64::from(s.tables);
                if cards > MAX_SCHEDULED_CARDS {
                    self.note(self.at(
                        sessions_at,
                        format!(
                            "[sessions]: {} sessions of {} tables is {cards} cards; expected at most {MAX_SCHEDULED_CARDS} (or check = false: no card is expected)",
                            s.sessions, s.tables
                        ),
                    ));
                }
            }
        }
        // (which stage is the first is not known when [rules] stages is wrong)
        let first = if wrong.contains(&("rules", "stages")) {
            None
        } else {
            rules.stages.first().cloned()
        };
        // The stages [rules] stages lists are the event's: a table of
        // another (one left behind when the list was edited) is a mistake.
        // Without the list, a table adds its stage before the final.
        let listed = given.contains(&("rules", "stages")) && !wrong.contains(&("rules", "stages"));
        for (name, name_at, games, carry, absent, named) in stage_settings {
            if listed && !rules.stages.contains(&name) {
                self.note(self.at(
                    name_at,
                    format!(
                        "[stages.{name}]: {name} is not one of the event's stages ([rules] stages = [{}]): add it there, or remove this table",
                        rules.stages.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ")
                    ),
                ));
                continue;
            }
            // Without the list, a table adds its stage: one a slip away
            // from a stage the rules play (`[stages.fianl]`) is a typo, not
            // a stage of the event's own.
            let chars = |s: &str| s.chars().collect::<Vec<char>>();
            let meant = (!rules.stages.contains(&name))
                .then(|| {
                    rules
                        .stages
                        .iter()
                        .find(|s| crate::slip::one_slip(&chars(s), &chars(&name)))
                })
                .flatten();
            if let Some(meant) = meant {
                self.note(self.at(
                    name_at,
                    format!(
                        "[stages.{name}]: {name} is not one of the stages ({}): did you mean [stages.{meant}]? (to add a stage of your own, list every stage in [rules] stages)",
                        rules.stages.join(", ")
                    ),
                ));
                continue;
            }
            for (setting, list) in [("absent", &absent), ("named", &named)] {
                if let Some((_, value)) = list {
                    self.mark_value(&format!("[stages.{name}] {setting}"), value);
                }
            }
            if let Some((a, value)) = absent.filter(|(a, _)| !a.is_empty()) {
                if first.as_ref() == Some(&name) {
                    self.note(self.at(
                        value.span(),
                        format!("[stages.{name}] absent is for a later stage, and {name} is the first: a player with no card of it has played no game, and is not waited for"),
                    ));
                }
                rules.absent.insert(name.clone(), a);
            }
            if let Some((n, value)) = named.filter(|(n, _)| !n.is_empty()) {
                if first.as_ref() == Some(&name) {
                    self.note(self.at(
                        value.span(),
                        format!("[stages.{name}] named is for a later stage, and {name} is the first: name who goes on from it under [qualifiers] named"),
                    ));
                }
                rules.stage_named.insert(name.clone(), n);
            }
            if let Some(g) = games {
                if rules.stages.first() == Some(&name) {
                    rules.games_per_session = g;
                } else {
                    rules.stage_games.insert(name.clone(), g);
                }
            }
            if let Some(c) = carry {
                rules.carry.insert(name.clone(), c);
            }
            if !rules.stages.contains(&name) {
                // A stage of the event's own, played before the final.
                let at = rules
                    .stages
                    .iter()
                    .position(|s| s == "final")
                    .unwrap_or(rules.stages.len());
                rules.stages.insert(at, name);
            }
        }
        // A stage's games are kept as given, also when they equal the first
        // stage's: a file that extends a profile and changes
        // games_per_session leaves the profile's `[stages.final] games = 3`
        // as written. A carry of "none" is the default, said once.
        rules.carry.retain(|_, c| *c != Carry::None);
        if matches!(rules.going_on, GoingOn::TopOfStandings)
            && given.contains(&("qualifiers", "seats"))
            && !wrong.contains(&("qualifiers", "seats"))
            && !wrong.contains(&("qualifiers", "rule"))
        {
            self.note(ConfigError::Setting {
                file: self.file.to_string(),
                message: "[qualifiers] seats is for rule = \"table_winners_and_best_seconds\", and the rule is \"top\": remove one".into(),
            });
        }
        given
    }

    /// One `[[age_groups]]` group, or `None` with its mistakes noted.
    fn age_group(&self, item: &Spanned<DeValue<'t>>) -> Option<AgeGroup> {
        let t = self.table(item, "age_groups")?;
        let mut name = None;
        let mut min = None;
        let mut max = None;
        let mut wrong = false;
        for (k, v) in t {
            let place = format!("[[age_groups]] {}", k.get_ref());
            let read = match k.get_ref().as_ref() {
                "name" => {
                    name = self.text(&place, v).map(str::to_string);
                    name.is_some()
                }
                "min" => {
                    min = self.read(&place, v, |v| settings::whole(v, 0, 150));
                    min.is_some()
                }
                "max" => {
                    max = self.read(&place, v, |v| settings::whole(v, 0, 150));
                    max.is_some()
                }
                other => {
                    self.note(self.at(
                        k.span(),
                        format!("unknown setting `{other}` in [[age_groups]]: expected `name`, `min` or `max`"),
                    ));
                    false
                }
            };
            wrong |= !read;
        }
        if wrong {
            return None;
        }
        match (name, min) {
            (Some(name), Some(min)) => Some(AgeGroup::new(&name, min, max)),
            _ => {
                self.note(self.at(item.span(), "an age group needs a name and a min"));
                None
            }
        }
    }
}

/// What the TOML reader found wrong (`message`, at `span` of `text`) in
/// the words of the other settings messages: a key given twice names the
/// key, its section and its first line; a text, list or section not closed
/// says what closes it. A mistake the reader rarely meets keeps its own
/// words, after a plain lead.
fn not_toml(text: &str, span: std::ops::Range<usize>, message: &str) -> String {
    let what = message.split(", expected").next().unwrap_or(message);
    let written = text.get(span.clone()).unwrap_or_default().trim();
    match what {
        "duplicate key" => given_twice(text, span),
        "invalid basic string" => {
            "a text in quotes is not closed on its line: end it with \" (name = \"Club Open\")".into()
        }
        "invalid literal string" => {
            "a text in single quotes is not closed on its line: end it with ' (name = 'Club Open')"
                .into()
        }
        "invalid multi-line basic string" => {
            "a text begun with \"\"\" is not closed: end it with \"\"\"".into()
        }
        "invalid multi-line literal string" => {
            "a text begun with ''' is not closed: end it with '''".into()
        }
        "missing escaped value" | "too few unicode value digits" => {
            "a \\ in a text in quotes begins an escape (\\n, \\t, \\\\): write \\\\ for a backslash, or put the text in single quotes ('C:\\cards')".into()
        }
        "unclosed table" => "a section's heading is not closed: end it with ] ([rules])".into(),
        "unclosed array table" => {
            "an age group's heading is not closed: end it with ]] ([[age_groups]])".into()
        }
        "unclosed array" | "missing comma between array elements" => {
            "a list is not closed, or a comma is missing between its items: stages = [\"prelim\", \"final\"]".into()
        }
        "unclosed inline table" | "missing comma between key-value pairs" => {
            "a { ... } is not closed, or a comma is missing between its settings: write each setting on its own line under its [section]".into()
        }
        "string values must be quoted" | "invalid value" | "missing value" | "missing value for key"
            if written.is_empty() =>
        {
            "a setting has no value after =: give one (joker_value = 30), or remove the line".into()
        }
        "string values must be quoted" | "invalid value" | "missing value" => format!(
            "{written} is not a value: put a text in quotes (\"{written}\"), write a number in digits (30), or true or false"
        ),
        "key with no value" | "missing assignment between key-value pairs" => {
            "a setting is written as its name, =, and its value, one a line (joker_value = 30)"
                .into()
        }
        "invalid key" | "invalid unquoted key" | "unquoted keys cannot be empty" => {
            "a setting's name holds only letters, digits, _ and - (joker_value), and is followed by = and its value".into()
        }
        "unexpected content" | "unexpected key or value" | "extra assignment between key-value pairs" => {
            "more follows the setting on its line: one setting a line, and a comment begins with #".into()
        }
        "invalid integer number" | "`_` may only go between digits" | "unexpected leading zero" | "redundant numeric sign" | "unexpected sign" => {
            "a number is written in digits alone, with - before a negative one (30, -5)".into()
        }
        _ => format!("this is not how a settings file is written ({message})"),
    }
}

/// A key or section given twice: `[rules] joker_value is given twice
/// (first at line 20)`. The reader stops at the second; its section is the
/// heading above it, and the first is the line of that section that
/// gives the same key (or the same heading, for a section).
fn given_twice(text: &str, span: std::ops::Range<usize>) -> String {
    let start = span.start.min(text.len());
    let key = text
        .get(span)
        .unwrap_or_default()
        .trim()
        .trim_matches(['"', '\''])
        .to_string();
    let before: Vec<&str> = text[..start].split('\n').collect();
    let (lines_before, this) = before.split_at(before.len() - 1);
    let this = this[0];
    let code = |l: &str| l.split('#').next().unwrap_or_default().trim().to_string();
    // a section's heading given twice
    if this.trim_start().starts_with('[') {
        let line = text[start - this.len()..]
            .split('\n')
            .next()
            .unwrap_or_default();
        let full = code(line);
        return match lines_before.iter().position(|l| code(l) == full) {
            Some(i) => format!(
                "{full} is given twice (first at line {}): give its settings under one {full}",
                i + 1
            ),
            None => format!(
                "{full} is given twice: give each section once, and each age group as [[age_groups]]"
            ),
        };
    }
    // a key of a { ... } on one line
    if !this.trim().is_empty() {
        return format!("{key} is given twice in the same {{ ... }}");
    }
    let (section_at, section) = lines_before
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, l)| {
            let h = code(l);
            h.starts_with('[').then(|| (i + 1, format!("{h} ")))
        })
        .unwrap_or((0, String::new()));
    let first = lines_before
        .iter()
        .enumerate()
        .skip(section_at)
        .find(|(_, l)| {
            code(l)
                .split('=')
                .next()
                .is_some_and(|k| k.trim().trim_matches(['"', '\'']) == key)
        })
        .map(|(i, _)| format!(" (first at line {})", i + 1))
        .unwrap_or_default();
    format!("{section}{key} is given twice{first}")
}

/// `FILE:LINE:COL: message` for a place in a file's text.
fn place(text: &str, file: &str, span: std::ops::Range<usize>, message: &str) -> ConfigError {
    let mut end = span.start.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    ConfigError::Invalid {
        file: file.to_string(),
        line,
        col,
        message: message.to_string(),
    }
}

/// Every section of the rules as a file writes them, each setting with its
/// line of doc (what `init` and `profiles show` write).
fn sections(rules: &Rules) -> String {
    let mut out = String::new();
    for section in SECTIONS {
        out.push_str(&format!("\n[{section}]\n"));
        for s in SETTINGS.iter().filter(|s| s.section == section) {
            for line in wrap(s.doc) {
                out.push_str(&format!("# {line}\n"));
            }
            match (s.get)(rules) {
                Some(v) => out.push_str(&format!("{} = {v}\n", s.key)),
                None if !s.example.is_empty() => {
                    out.push_str(&format!("# {} = {}\n", s.key, s.example))
                }
                None => {}
            }
        }
    }
    out.push_str(
        "\n# Each stage after the first, in the order played: games on each card,\n# and what the stage carries over from the one before: \"none\" (fresh\n# standings), \"all\", or \"half\" (half the points, rounded up); absent:\n# who went on and did not turn up (the stage does not wait for them);\n# named: who the director named to settle a tie in the stage's results\n# (the first stage's are [qualifiers] named).\n",
    );
    for s in rules.stages.iter().skip(1) {
        let carry = rules.carry.get(s).copied().unwrap_or_default();
        let absent = match rules.absent.get(s) {
            Some(a) => format!("absent = {}", settings::list(a.iter().map(String::as_str))),
            None => "# absent = [\"P0007\"]".to_string(),
        };
        let named = match rules.stage_named.get(s) {
            Some(n) => format!("named = {}", settings::list(n.iter().map(String::as_str))),
            None => "# named = [\"P0007\"]".to_string(),
        };
        out.push_str(&format!(
            "[stages.{s}]\ngames = {}\ncarry = \"{}\"\n{absent}\n{named}\n\n",
            rules.games_for(&Stage::new(s)),
            carry.as_str()
        ));
    }
    out.push_str(
        "# Age groups, each running its own standings and medals (age_scheme\n# decides when none are given here).\n",
    );
    if rules.age_groups.is_empty() {
        out.push_str("# [[age_groups]]\n# name = \"50-64\"\n# min = 50\n# max = 64\n");
    }
    for g in &rules.age_groups {
        out.push_str(&settings::age_group_toml(g));
        out.push('\n');
    }
    out
}

/// A line of doc broken at words to fit 78 columns with its `# `.
fn wrap(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > 76 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

impl Config {
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let text = read_text(path, &file)?;
        Config::parse(&text, &file)
    }

    /// Reads and checks the file: every mistake is an error naming its
    /// line, all of them said at once.
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        let reader = Reader::new(text, file)?;
        let mut name = None;
        let mut date = None;
        let mut profile = ProfileName::default();
        let mut own = None;
        let mut site = None;
        match reader.top().find(|(k, _)| k.get_ref() == "event") {
            None => reader.note(reader.at(
                0..0,
                "missing [event]: the file starts with [event] and name = \"...\"",
            )),
            Some((_, event)) => {
                if let Some(table) = reader.table(event, "event") {
                    for (k, v) in table {
                        let place = format!("[event] {}", k.get_ref());
                        match k.get_ref().as_ref() {
                            "name" => name = reader.text(&place, v).map(str::to_string),
                            "date" => {
                                date = reader.read(&place, v, |v| read_date(settings::text(v)?))
                            }
                            "profile" => {
                                if let Some(p) = reader.text(&place, v) {
                                    profile = match p.parse::<ProfileName>() {
                                        Ok(p) => p,
                                        // the name of a rules file the event was made from:
                                        // the file then gives every setting
                                        Err(e) => {
                                            own = Some((v.span(), e));
                                            ProfileName::named(p)
                                        }
                                    };
                                }
                            }
                            "site" => {
                                site = reader.read(&place, v, |v| parse_site(settings::text(v)?))
                            }
                            other => reader.note(reader.at(
                                k.span(),
                                format!("unknown setting `{other}` in [event]: expected `name`, `date`, `profile` or `site`"),
                            )),
                        }
                    }
                    if !table.iter().any(|(k, _)| k.get_ref() == "name") {
                        reader.note(reader.at(event.span(), "[event] has no name: name = \"...\""));
                    }
                }
            }
        }
        let mut rules = if own.is_some() {
            Rules { profile, ..blank() }
        } else {
            profile.rules()
        };
        let given = reader.apply(&mut rules, &["event"]);
        if let Some((span, unknown)) = own {
            let missing = missing(&given);
            if !missing.is_empty() {
                reader.note(reader.at(
                    span.clone(),
                    format!(
                        "[event] profile = {}: {unknown}; or a rules file's own name, with every setting given below it (missing: {})",
                        reader.written(span),
                        missing.join(", ")
                    ),
                ));
            }
        }
        rules.event_date = date.clone();
        rules.written_at = reader.written_at();
        reader.done(Config {
            event: EventInfo {
                name: name.unwrap_or_default(),
                date,
                profile,
                site,
            },
            rules,
        })
    }

    pub fn profile(&self) -> ProfileName {
        self.event.profile
    }

    /// The profile's rules with this file's settings applied.
    pub fn rules(&self) -> Rules {
        self.rules.clone()
    }

    /// The file `tilerank init` writes: every setting with the profile's
    /// default.
    pub fn template(profile: ProfileName, name: &str, date: Option<&str>) -> String {
        Config::template_of(&profile.rules(), profile, name, date)
    }

    /// The file `tilerank init` writes for `rules` (a profile's, or a rules
    /// file's): every setting written, so that the event stands alone.
    pub fn template_of(
        rules: &Rules,
        profile: ProfileName,
        name: &str,
        date: Option<&str>,
    ) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let date_line = match date {
            Some(d) => format!("date = {}", quote(d)),
            None => "# date = \"2026-03-28\"".to_string(),
        };
        let profiles: Vec<&str> = ProfileName::all().map(ProfileName::as_str).collect();
        let from = if profile.is_builtin() {
            format!("one of {}", profiles.join(", "))
        } else {
            "a rules file of the director's own".to_string()
        };
        let about_profile: String = wrap(&format!(
            "The rules profile this file was written from ({from}). Every setting below is the event's own: change them, not the profile."
        ))
        .iter()
        .map(|l| format!("# {l}\n"))
        .collect();
        format!(
            "# tilerank event settings. Every setting shows the default of the\n# rules profile; change what your event does differently.\n\n[event]\nname = {}\n# The event date (YYYY-MM-DD): ages are taken on this date.\n{date_line}\n# The address the referees' phones reach the live desk at (tilerank\n# serve --entry), for their links: this machine on the hall's network.\n# site = \"http://192.168.1.20:8080\"\n{about_profile}profile = {}\n{}",
            quote(name),
            quote(profile.as_str()),
            sections(rules)
        )
    }
}

/// What the command line changes for one run, applied after the event's
/// settings by [`Overrides::apply`].
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Start from this profile's defaults instead of the event's settings.
    pub profile: Option<ProfileName>,
    /// Start from this rules file instead of the event's settings.
    pub rules: Option<Rules>,
    pub date: Option<String>,
    pub top: Option<u32>,
    pub cutoff_ties: Option<CutoffTies>,
}

impl Overrides {
    /// The rules for one run: the event's settings (or the profile's
    /// defaults, or a rules file, without an event folder), then the
    /// command line. A `--profile` other than the event's, or `--rules`,
    /// starts from those rules and keeps the event's date. Without an
    /// event folder there is no schedule (`[sessions]`): no card is
    /// expected, and a player may play any number of sessions; the files
    /// given are the event.
    pub fn apply(&self, config: Option<&Config>) -> Rules {
        let given = self
            .rules
            .clone()
            .or_else(|| self.profile.map(ProfileName::rules));
        let mut rules = match (given, config) {
            (Some(r), Some(c)) if self.rules.is_some() || self.profile != Some(c.profile()) => {
                Rules {
                    event_date: c.event.date.clone(),
                    ..r
                }
            }
            (_, Some(c)) => c.rules(),
            (Some(r), None) => Rules {
                schedule: None,
                sessions_per_player: None,
                ..r
            },
            (None, None) => Rules {
                schedule: None,
                sessions_per_player: None,
                ..Rules::hk()
            },
        };
        if let Some(d) = &self.date {
            rules.event_date = Some(d.clone());
        }
        if let Some(top) = self.top {
            rules.qualifiers = top;
        }
        if let Some(c) = self.cutoff_ties {
            rules.cutoff_ties = c;
        }
        rules
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::vocabulary::SortKey;
    use crate::profile::Schedule;

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

    /// Each built-in profile's file is what `profiles show` prints of it:
    /// complete, every setting commented, read by the one reader.
    #[test]
    fn each_built_in_file_is_its_own_complete_rules_file() {
        for p in ProfileName::all() {
            let text = p.file().unwrap();
            let file = RulesFile::parse(text, p.as_str()).unwrap();
            assert_eq!(file.name, p.as_str());
            assert_eq!(file.rules.profile, p);
            assert_eq!(
                RulesFile::show(&file.rules, &file.name, &file.about),
                text,
                "{p}"
            );
        }
    }

    /// A rules file that starts from a profile changes what it says and
    /// nothing else; one that starts from none gives every setting, or
    /// says which are missing; contradictions and unknown keys are errors
    /// at their place.
    #[test]
    fn a_rules_file_extends_a_profile_or_gives_everything() {
        let club = "extends = \"gwinnett\"\nname = \"club\"\n[medals]\nnames = \"runners_up\"\n";
        let file = RulesFile::parse(club, "club.toml").unwrap();
        assert_eq!(file.rules.profile.as_str(), "club");
        assert_eq!(file.rules.medal_names, MedalNames::RunnersUp);
        assert_eq!(
            Rules {
                profile: file.rules.profile,
                medal_names: MedalNames::Metals,
                ..file.rules.clone()
            },
            Rules {
                profile: file.rules.profile,
                ..ProfileName::named("gwinnett").rules()
            }
        );
        match RulesFile::parse("name = \"bare\"\n[rules]\njoker_value = 25\n", "bare.toml") {
            Err(ConfigError::Setting { file, message }) => {
                assert_eq!(file, "bare.toml");
                assert!(message.contains("missing: [rules] scoring"), "{message}");
                assert!(message.contains("extends = \"hk\""), "{message}");
            }
            other => panic!("{other:?}"),
        }
        for (text, line, says) in [
            (
                "extends = \"chess\"\nname = \"x\"\n",
                1,
                "unknown rules profile \"chess\"",
            ),
            (
                "extends = \"hk\"\nname = \"x\"\n[rules]\njoker = 1\n",
                4,
                "unknown setting `joker` in [rules]: expected one of `scoring`",
            ),
            (
                "extends = \"hk\"\nname = \"x\"\n[medal]\n",
                3,
                "unknown section or key `medal`",
            ),
            (
                "extends = \"hk\"\nname = \"x\"\n[qualifiers]\nseats = 2\n",
                4,
                "[qualifiers] seats = 2: only for rule = \"table_winners_and_best_seconds\"",
            ),
            (
                "extends = \"hk\"\nname = \"x\"\n[qualifiers]\ntop = \"ten\"\n",
                4,
                "[qualifiers] top = \"ten\": expected a whole number",
            ),
            (
                "extends = \"nvso\"\nname = \"x\"\n[sessions]\ncount = 3\n",
                3,
                "[sessions]: count or tables alone",
            ),
            (
                "extends = \"hk\"\nname = \"x\"\n[rules]\nstages = [\"prelim\", \"Prelim\"]\n",
                4,
                "stage \"prelim\" is listed twice",
            ),
        ] {
            match RulesFile::parse(text, "r.toml") {
                Err(ConfigError::Invalid {
                    line: at, message, ..
                }) => {
                    assert_eq!(at, line, "{text}: {message}");
                    assert!(message.contains(says), "{text}: {message}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_hk_template_expects_twelve_sessions_of_25_tables() {
        let text = Config::template("hk".parse().unwrap(), "HK", None);
        assert!(
            text.contains("\ncount = 12\n") && text.contains("\ntables = 25\n"),
            "{text}"
        );
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
        assert_eq!(line, 12, "{message}");
        assert!(message.starts_with("age_groups: "), "{message}");
    }

    /// Every mistake of the age groups is said at once, each at its group:
    /// a group that takes no age at its max, a name given twice at the
    /// name, an overlap at the later group's [[age_groups]].
    #[test]
    fn every_age_group_mistake_is_said_at_its_group() {
        let text = "extends = \"nvso\"\nname = \"bad\"\n\n[[age_groups]]\nname = \"A\"\nmin = 50\nmax = 70\n\n[[age_groups]]\nname = \"B\"\nmin = 65\n\n[[age_groups]]\nname = \"C\"\nmin = 80\nmax = 60\n\n[[age_groups]]\nname = \"b\"\nmin = 10\nmax = 20\n";
        assert_eq!(
            RulesFile::parse(text, "r-bad.toml").unwrap_err().to_string(),
            "r-bad.toml:9:1: age_groups: age groups A (50-70) and B (65+) overlap: each age must belong to one group\n\
             r-bad.toml:16:7: age_groups: age group C takes no age: its maximum 60 is below its minimum 80\n\
             r-bad.toml:19:8: age_groups: two age groups are named \"b\": names must differ"
        );
        // a group read wrong is left out; the others are checked together
        let wrong = text.replace("min = 65", "min = \"65\"");
        assert_eq!(
            RulesFile::parse(&wrong, "r-bad.toml").unwrap_err().to_string(),
            "r-bad.toml:11:7: [[age_groups]] min = \"65\": expected a whole number\n\
             r-bad.toml:16:7: age_groups: age group C takes no age: its maximum 60 is below its minimum 80"
        );
    }

    /// A `[stages.NAME]` table adds its stage while the profile gives the
    /// stages; once `[rules] stages` lists them, a table of another stage
    /// (left behind when the list was edited) is an error at its name.
    #[test]
    fn a_stage_table_outside_the_listed_stages_is_an_error() {
        let head = "[event]\nname = \"x\"\nprofile = \"hk\"\n";
        let added = format!("{head}[stages.semi]\ngames = 2\n");
        let rules = Config::parse(&added, "t.toml").unwrap().rules();
        assert_eq!(rules.stages, vec!["prelim", "semi", "final"]);
        let listed =
            format!("{head}[rules]\nstages = [\"prelim\", \"final\"]\n[stages.semi]\ngames = 2\n");
        let (line, message) = invalid(&listed);
        assert_eq!(line, 6, "{message}");
        assert_eq!(
            message,
            "[stages.semi]: semi is not one of the event's stages ([rules] stages = [\"prelim\", \"final\"]): add it there, or remove this table"
        );
        let kept = listed.replace("\"prelim\", \"final\"", "\"prelim\", \"semi\", \"final\"");
        let rules = Config::parse(&kept, "t.toml").unwrap().rules();
        assert_eq!(rules.games_for(&Stage::new("semi")), 2);
    }

    /// Without `[rules] stages`, a table a slip away from a stage the
    /// rules play is a typo at its line, not a stage added; one further
    /// off still adds its stage.
    #[test]
    fn a_stage_table_a_slip_from_a_played_stage_is_a_typo() {
        let head = "[event]\nname = \"x\"\nprofile = \"nvso\"\n";
        let typo = format!("{head}[stages.fianl]\ngames = 3\n");
        let (line, message) = invalid(&typo);
        assert_eq!(line, 4, "{message}");
        assert_eq!(
            message,
            "[stages.fianl]: fianl is not one of the stages (prelim, final): did you mean [stages.final]? (to add a stage of your own, list every stage in [rules] stages)"
        );
        let own = format!("{head}[stages.semi]\ngames = 2\n");
        let rules = Config::parse(&own, "t.toml").unwrap().rules();
        assert_eq!(rules.stages, vec!["prelim", "semi", "final"]);
    }

    /// A later stage's games stay as the profile writes them when a file
    /// changes the first stage's: nvso's final plays 3 whatever the
    /// prelim plays; a stage given no games plays the first stage's.
    #[test]
    fn a_later_stage_keeps_its_games_when_the_first_stage_changes() {
        let head = "[event]\nname = \"x\"\nprofile = \"nvso\"\n";
        let four = format!("{head}[rules]\ngames_per_session = 4\n");
        let rules = Config::parse(&four, "t.toml").unwrap().rules();
        assert_eq!(rules.games_for(&Stage::prelim()), 4);
        assert_eq!(rules.games_for(&Stage::new("final")), 3);
        let semi =
            format!("{head}[rules]\ngames_per_session = 4\n[stages.semi]\ncarry = \"all\"\n");
        let rules = Config::parse(&semi, "t.toml").unwrap().rules();
        assert_eq!(rules.games_for(&Stage::new("semi")), 4);
    }

    #[test]
    fn every_wrong_value_names_its_line() {
        let head = "[event]\nname = \"x\"\n";
        for (text, line, expected) in [
            (
                "[rules]\njoker = 30\n",
                4,
                "unknown setting `joker` in [rules]",
            ),
            (
                "[rules]\npenalty_mode = \"double\"\n",
                4,
                "[rules] penalty_mode = \"double\": expected \"replace\" or \"add\"",
            ),
            (
                "[rules]\nknocked = -5\n",
                4,
                "[rules] knocked = -5: expected a whole number",
            ),
            (
                "[rules]\ngames_per_session = 0\n",
                4,
                "[rules] games_per_session = 0: expected 1 to 100",
            ),
            (
                "[standings]\norder = [\"nonsense_key\"]\n",
                4,
                "unknown standings key \"nonsense_key\"",
            ),
            (
                "[standings]\norder = []\n",
                4,
                "[standings] order = []: no key: give at least one",
            ),
            (
                "[qualifiers]\ncutoff_ties = \"maybe\"\n",
                4,
                "[qualifiers] cutoff_ties = \"maybe\": expected \"include\"",
            ),
            (
                "[qualifiers]\ntable_ties = \"some\"\n",
                4,
                "[qualifiers] table_ties = \"some\": expected \"decide\"",
            ),
            (
                "[stages.final]\ncarry = \"most\"\n",
                4,
                "[stages.final] carry = \"most\": expected \"none\", \"all\" or \"half\"",
            ),
            (
                "[stages.final]\nabsent = \"P0007\"\n",
                4,
                "[stages.final] absent = \"P0007\": expected a list in brackets",
            ),
            (
                "[stages.prelim]\nabsent = [\"P0007\"]\n",
                4,
                "[stages.prelim] absent is for a later stage, and prelim is the first",
            ),
            (
                "[stages.semi]\nnamed = \"P0007\"\n",
                4,
                "[stages.semi] named = \"P0007\": expected a list in brackets",
            ),
            (
                "[stages.prelim]\nnamed = [\"P0007\"]\n",
                4,
                "is for a later stage, and prelim is the first: name who goes on from it under [qualifiers] named",
            ),
        ] {
            let (at, message) = invalid(&format!("{head}{text}"));
            assert_eq!(at, line, "{text}: {message}");
            assert!(message.contains(expected), "{text}: {message}");
        }
        let (at, message) = invalid("[event]\nname = \"x\"\ndate = \"2026-02-30\"\n");
        assert_eq!(at, 3);
        assert_eq!(
            message,
            "[event] date = \"2026-02-30\": not a date: no such day: February 2026 has 28 days"
        );
        let (at, message) = invalid("[event]\nname = \"x\"\nprofile = \"chess\"\n");
        assert_eq!(at, 3);
        assert!(message.contains("unknown rules profile"), "{message}");
    }

    /// Every mistake of a file is said, in the file's order, each naming
    /// its setting; a check against a value found wrong is not made.
    #[test]
    fn every_mistake_is_said_at_once() {
        let said = |text: &str| -> Vec<(usize, String)> {
            match Config::parse(text, "t.toml").unwrap_err() {
                ConfigError::Several(errors) => errors
                    .into_iter()
                    .map(|e| match e {
                        ConfigError::Invalid { line, message, .. } => (line, message),
                        other => panic!("{other:?}"),
                    })
                    .collect(),
                ConfigError::Invalid { line, message, .. } => vec![(line, message)],
                other => panic!("{other:?}"),
            }
        };
        let head = "[event]\nname = \"x\"\ndate = \"2026-3-32\"\n";
        assert_eq!(
            said(&format!(
                "{head}[sessions]\ntables = \"x\"\n[qualifiers]\ntop = 0\nwho = 1\n[rules]\nknocked = 1.5\nstages = [\"prelim\", 7]\n[[age_groups]]\nname = \"a\"\nmin = -1\n"
            )),
            [
                (3, "[event] date = \"2026-3-32\": not a date: no such day: March 2026 has 31 days".into()),
                (5, "[sessions] tables = \"x\": expected a whole number".into()),
                (7, "[qualifiers] top = 0: expected 1 to 1000000".into()),
                (8, "unknown setting `who` in [qualifiers]: expected one of `rule`, `per_table`, `seats`, `top`, `cutoff_ties`, `table_ties`, `named`".into()),
                (10, "[rules] knocked = 1.5: expected a whole number from 0 to 1000000".into()),
                (11, "[rules] stages = [\"prelim\", 7]: expected a list of texts in quotes".into()),
                (14, "[[age_groups]] min = -1: expected 0 to 150".into()),
            ]
        );
        // `seats` is not said against a rule that is wrong
        assert_eq!(
            said("[event]\nname = \"x\"\n[qualifiers]\nrule = \"best\"\nseats = 2\n"),
            [(4, "[qualifiers] rule = \"best\": expected \"top\", \"table_winners_and_best_seconds\" or \"best_at_each_table\"".into())]
        );
        // a wrong count is not said again as a schedule of tables alone
        assert_eq!(
            said("[event]\nname = \"x\"\nprofile = \"nvso\"\n[sessions]\ncount = -2\ntables = 3\n"),
            [(5, "[sessions] count = -2: expected 1 to 1000000".into())]
        );
        // nor is a stage's `absent` said against stages that are wrong
        assert_eq!(
            said("[event]\nname = \"x\"\n[rules]\nstages = \"prelim\"\n[stages.prelim]\nabsent = [\"P1\"]\n"),
            [(4, "[rules] stages = \"prelim\": expected a list in brackets".into())]
        );
        // a long value is cut short
        let (_, message) = invalid(&format!(
            "[event]\nname = \"x\"\n[qualifiers]\nnamed = \"{}\"\n",
            "P".repeat(60)
        ));
        assert_eq!(
            message,
            format!(
                "[qualifiers] named = \"{}...: expected a list in brackets",
                "P".repeat(36)
            )
        );
        // a rules file's `extends` that is wrong is not said again as
        // every setting missing
        match RulesFile::parse(
            "extends = \"chess\"\nname = \"x\"\n[rules]\njoker = 1\n",
            "r.toml",
        ) {
            Err(ConfigError::Several(errors)) => {
                let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
                assert_eq!(lines.len(), 2, "{lines:?}");
                assert!(
                    lines[0].starts_with("r.toml:1:11: extends = \"chess\": unknown rules profile"),
                    "{lines:?}"
                );
                assert!(
                    lines[1].starts_with("r.toml:4:1: unknown setting `joker` in [rules]"),
                    "{lines:?}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// A file the TOML reader stops in is said as the other mistakes are:
    /// at its place, in words, a key given twice with its section and its
    /// first line.
    #[test]
    fn a_file_that_is_not_toml_is_said_in_words() {
        let said = |text: &str| {
            Config::parse(text, "tilerank.toml")
                .unwrap_err()
                .to_string()
        };
        let head = "[event]\nname = \"x\"\n";
        let cases = [
            (
                format!("{head}[rules]\njoker_value = 30\n# changed\njoker_value = 25\n"),
                "tilerank.toml:6:1: [rules] joker_value is given twice (first at line 4)",
            ),
            (
                format!("{head}name = \"y\"\n"),
                "tilerank.toml:3:1: [event] name is given twice (first at line 2)",
            ),
            (
                format!("{head}[rules]\njoker_value = 30\n[rules]\n"),
                "tilerank.toml:5:2: [rules] is given twice (first at line 3): give its settings under one [rules]",
            ),
            (
                "[event]\nname = \"Bad\n".to_string(),
                "tilerank.toml:2:12: a text in quotes is not closed on its line: end it with \" (name = \"Club Open\")",
            ),
            (
                format!("{head}[rules\n"),
                "tilerank.toml:3:7: a section's heading is not closed: end it with ] ([rules])",
            ),
            (
                format!("{head}[rules]\nstages = [\"prelim\" \"final\"]\n"),
                "tilerank.toml:4:20: a list is not closed, or a comma is missing between its items: stages = [\"prelim\", \"final\"]",
            ),
            (
                format!("{head}[rules]\njoker_value = abc\n"),
                "tilerank.toml:4:15: abc is not a value: put a text in quotes (\"abc\"), write a number in digits (30), or true or false",
            ),
            (
                format!("{head}[rules]\njoker_value =\n"),
                "tilerank.toml:4:14: a setting has no value after =: give one (joker_value = 30), or remove the line",
            ),
            (
                format!("{head}[rules]\njoker_value 30\n"),
                "tilerank.toml:4:13: a setting is written as its name, =, and its value, one a line (joker_value = 30)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(said(&text), message, "{text}");
        }
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
