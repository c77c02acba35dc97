//! The results export: every table a director publishes, built from one
//! [`Event`], in the order of the workbook's sheets:
//!
//! | sheet | what | columns |
//! |---|---|---|
//! | `Standings STAGE [GROUP]` | one per stage and age group, `Q` marking who goes on | FORMATS.md standings columns |
//! | `Qualifiers [GROUP]` | who goes on from the prelim | the same (`hk`, `pressman`); `group, player, name, reason` (`nvso`, `gwinnett`) |
//! | `Qualifiers STAGE [GROUP]` | who goes on from a later stage (`gwinnett`: the semi) | the same |
//! | `Medals` | the final's top three per group | see [`super::stages::medals_table`] |
//! | `Super Family Award` | `hk` family units, when the rules give the award | see [`super::stages::awards_table`] |
//! | `Games` | every game line with the values its checks used | [`GAME_COLUMNS`] |
//! | `Problems` | warnings and notes, and the export's own notes | `severity, place, message` |
//! | `Settings` | the rules as applied, and where the data came from | `setting, value, about` |
//! | `Log` | the event folder's import log, then the inputs read (of files alone, then the cards accepted and rejected) | the columns of `tilerank log` |
//!
//! A table that has nothing to show yet (no final stage, no event date)
//! keeps its columns and says why in a note, so the workbook of an event
//! has the same sheets all through it; an award the event's rules do not
//! give (`[awards] super_family = false`) has no sheet at all.

use super::stages::{awards_table, medals_table, qualifiers_name, qualifiers_view};
use super::standings::standings_table;
use super::words::Sentence as S;
use super::{Column, Kind, Table, Value};
use crate::domain::{Card, Game, Label, SessionName};
use crate::event::{Event, Held};
use crate::lang::Lang;
use crate::problem::{Problems, Severity};
use crate::profile::Scoring;
use crate::rules::awards::SuperFamily;
use crate::score::Score;
use compact_str::ToCompactString;
use std::collections::BTreeMap;

/// What the export is built from, beyond the event.
pub struct ExportRequest<'a> {
    pub event: &'a Event,
    /// The event's name, for titles and the Settings sheet.
    pub name: &'a str,
    /// What the event lacks, listed on the Missing sheet (each table's
    /// title says PROVISIONAL by what its own stage lacks:
    /// [`Event::completeness_of`]).
    pub completeness: &'a crate::event::Completeness,
    /// The tables go where their titles are not seen (a workbook on the
    /// screen, CSV, JSON): a list that is not final then says so on each
    /// row ([`super::stages::mark_not_final`]), as `tilerank qualifiers`
    /// writes it to such a file.
    pub marked: bool,
    /// Where the data came from, for the Settings sheet: (setting, value).
    pub sources: Vec<(String, String)>,
    /// Lines of the import log (`log.csv` of an event folder, then the
    /// inputs read), keyed by [`LOG_COLUMNS`].
    pub log: Vec<BTreeMap<String, String>>,
}

/// The tables, and what the director must hear about them.
pub struct Export {
    pub tables: Vec<Table>,
    /// Ties at the cutoff and other decisions, one sentence each (also in
    /// the Problems sheet).
    pub decisions: Vec<String>,
    /// A qualifier list waits for the director (cutoff policy `error` met
    /// a tie): the export is not final.
    pub unsettled: bool,
}

/// The columns of the import log, as `tilerank log` prints them.
pub const LOG_COLUMNS: [&str; 8] = [
    "time", "action", "file", "sha256", "stage", "cards", "games", "reason",
];

/// The actions of the import log: what the event folder writes (a file's
/// cards imported, or imported in place of others, the roster stored),
/// and what a command read beside it (`read`, `read roster`); for an
/// event of files alone, what came of their cards (`accepted`, with their
/// stages and games, and `rejected`).
pub const LOG_ACTIONS: [&str; 7] = [
    "import",
    "replace",
    "roster",
    "read",
    "read roster",
    "accepted",
    "rejected",
];

/// The Games sheet: the results layout of FORMATS.md with the player's
/// name, then what the checks of RULES.md section 5 computed for the line.
pub const GAME_COLUMNS: [Column; 16] = [
    col("stage", Kind::Text),
    col("session", Kind::Text),
    // A number where the card's table label is one.
    col("table", Kind::Int),
    col("game", Kind::Int),
    col("seat", Kind::Text),
    col("player", Kind::Text),
    col("name", Kind::Text),
    col("won", Kind::Int),
    col("score", Kind::Score),
    col("tiles", Kind::Int),
    // Seats that played the game (3 or 4).
    col("players", Kind::Int),
    // `out` (a seat has 0 tiles) or `unfinished` (nobody went out).
    col("finish", Kind::Text),
    // 1 for the seat(s) with the game's best score.
    col("leader", Kind::Int),
    // The game's scores summed: 0 under the zero-sum profiles (check 3).
    col("game_sum", Kind::Score),
    // The seat's total over the card's games (the Total line, check 6).
    col("card_total", Kind::Score),
    // `ok`, or what is wrong with the line.
    col("check", Kind::Text),
];

const fn col(name: &'static str, kind: Kind) -> Column {
    Column {
        name,
        kind,
        key: None,
        heading: None,
    }
}

fn text(s: &str) -> Value {
    if s.is_empty() {
        Value::Empty
    } else {
        Value::Text(s.to_compact_string())
    }
}

/// Every table of the export.
pub fn build(req: &ExportRequest) -> Export {
    build_in(req, Lang::En)
}

/// The export as [`build`] makes it, the Problems sheet's messages in
/// `lang`'s words where the checks made them ([`Problem::message_in`]):
/// what the site shows.
///
/// [`Problem::message_in`]: crate::problem::Problem::message_in
pub fn build_in(req: &ExportRequest, lang: Lang) -> Export {
    let event = req.event;
    let mut export = Export {
        tables: Vec::new(),
        decisions: Vec::new(),
        unsettled: false,
    };
    // Each sheet says PROVISIONAL exactly when what it shows is not final,
    // by the rule of the command that prints it alone
    // ([`Event::completeness_of`] its stage).
    qualifier_tables(event, req.marked, &mut export);
    export
        .tables
        .splice(0..0, standings_tables(event, req.marked));
    export.tables.push(medals_sheet(event, req.marked));
    // an award the event's rules do not give has no sheet (nor page)
    if event.rules.super_family_award {
        export.tables.push(awards_sheet(event, req.marked));
    }
    export.tables.push(games_table(&event.cards, event));
    let mut notes = export.decisions.clone();
    if let Some(still) = &req.completeness.still_to_come() {
        notes.push(S::ProvisionalSeeMissing.en(&[still]));
    }
    export.tables.push(missing_table(event, req.completeness));
    export
        .tables
        .push(problems_table(&event.problems, &notes, lang));
    export
        .tables
        .push(settings_table(event, req.name, &req.sources));
    export.tables.push(log_table(&req.log));
    export
}

/// What the event still lacks, one line each: the cards its schedule
/// expects, by session and table, then the roster's players who have not
/// played a game.
pub fn missing_table(event: &Event, c: &crate::event::Completeness) -> Table {
    let columns = vec![
        Column::text("what"),
        Column::text("session"),
        Column::int("table"),
        Column::text("player"),
        Column::text("name"),
    ];
    // a table's row: what of it, its session and table
    let table_row = |what: S, k: &crate::domain::CardKey| {
        vec![
            Value::text(what.text()),
            Value::Text(k.session.to_compact_string()),
            match &k.table {
                Label::Num(n) => Value::Int(i64::from(*n)),
                Label::Text(t) => Value::text(t),
            },
            Value::Empty,
            Value::Empty,
        ]
    };
    let mut rows: Vec<Vec<Value>> = (c.missing.iter())
        .map(|k| table_row(S::MissingCard, k))
        .collect();
    // the tables the live desk's board holds back, after the missing
    for (why, what) in [
        (Held::Conflict, S::InConflict),
        (Held::Waiting, S::ForTheDesk),
        (Held::TypedTwice, S::TypedTwiceDiffer),
    ] {
        rows.extend(c.held_for(why).map(|k| table_row(what, k)));
    }
    for (stage, players) in &c.waiting {
        rows.extend(players.iter().map(|&p| {
            let pl = event.roster.get(p);
            vec![
                Value::Text(S::StillToPlay.en(&[stage]).into()),
                Value::Empty,
                Value::Empty,
                Value::text(&pl.id),
                text(&pl.name),
            ]
        }));
    }
    rows.extend(c.no_shows.iter().map(|&p| {
        let pl = event.roster.get(p);
        vec![
            Value::text(S::PlayedNoGame.text()),
            Value::Empty,
            Value::Empty,
            Value::text(&pl.id),
            text(&pl.name),
        ]
    }));
    let mut notes = Vec::new();
    if event.rules.schedule.is_none() {
        notes.push(S::NoSessionsListed.text().to_string());
    }
    // the title counts every kind of row the sheet lists
    let mut counts = vec![plural_cards(c.missing.len())];
    counts.extend(c.still_to_come_held());
    counts.extend(
        c.waiting
            .iter()
            .map(|(stage, players)| match players.len() {
                1 => format!("1 player still to play the {stage}"),
                n => format!("{n} players still to play the {stage}"),
            }),
    );
    counts.push(format!(
        "{} on the roster who played no game",
        c.no_shows.len()
    ));
    Table {
        name: "Missing".into(),
        title: format!("Missing: {}", counts.join(", ")),
        columns,
        rows,
        notes,
    }
}

fn group_suffix(group: &Option<String>) -> String {
    group.as_ref().map(|g| format!(" {g}")).unwrap_or_default()
}

/// One standings table per stage and age group, `Q` marking who goes on
/// ([`Event::standings_going_on`]). A stage's title says PROVISIONAL while
/// it is not complete, as `tilerank standings` says it (and its rows too
/// when `marked`).
pub fn standings_tables(event: &Event, marked: bool) -> Vec<Table> {
    let mut tables = Vec::new();
    for stage in event.stages() {
        let completeness = event.completeness_of(&stage);
        let provisional = completeness.title_suffix();
        let mark = completeness.mark().filter(|_| marked);
        for group in event.group_list() {
            // the whole standings, ranked once, and who goes on from them
            let s = event.standings_going_on(&stage, group.as_deref());
            let (ranked, apart) = (s.standings.ranked.len(), s.standings.apart.len());
            if ranked == 0 && apart == 0 {
                continue;
            }
            let title = format!(
                "Standings, {stage}{} ({} rules): {ranked} ranked, {apart} apart{provisional}",
                group
                    .as_ref()
                    .map(|g| format!(", group {g}"))
                    .unwrap_or_default(),
                event.rules.profile,
            );
            let mut table = standings_table(&s, &event.roster, &title, event.rules.scoring);
            table.name = format!("Standings {stage}{}", group_suffix(&group));
            if let Some(mark) = &mark {
                super::stages::mark_rows(&mut table, mark);
            }
            tables.push(table);
        }
    }
    tables
}

/// Who goes on from each stage that sends players on (every stage but
/// the last, and the first stage in any case), each group's list
/// ([`Event::advance`], as `tilerank advance --stage` gives it), into
/// `export`: the first stage's sheets
/// `Qualifiers [GROUP]`, a later stage's `Qualifiers STAGE [GROUP]`
/// ([`super::stages::qualifiers_name`]). Each is PROVISIONAL while its
/// stage is not complete, as `tilerank qualifiers --allow-incomplete`
/// says it; a stage with no cards yet has an empty sheet saying so.
fn qualifier_tables(event: &Event, marked: bool, export: &mut Export) {
    let played = event.stages();
    let first = event.qualifying_stage();
    for stage in event
        .rules
        .stages
        .iter()
        .map(|s| crate::domain::Stage::new(s))
    {
        // (the first stage's list always: a one-stage event's too, as before)
        if stage != first && event.rules.next_stage(&stage).is_none() {
            continue;
        }
        let completeness = event.completeness_of(&stage);
        let provisional = completeness.title_suffix();
        let provisional = provisional.as_str();
        if !played.contains(&stage) {
            let mut table = qualifiers_placeholder(event, &stage);
            table.notes.push(S::NoCardsYet.en(&[&stage]));
            export.tables.push(table);
            continue;
        }
        for list in event.advance_all(&stage, &event.group_list(), &[]) {
            let label = if list.settled { S::Note } else { S::Decision };
            let in_group = |said| S::in_group(list.group.as_ref(), said);
            let mut table = qualifiers_view(&list, event, provisional);
            table.name = qualifiers_name(event, &stage, list.group.as_deref());
            if marked {
                super::stages::mark_not_final(&mut table, &list, completeness.mark().as_deref());
            }
            for d in &list.decisions {
                let d = super::going_on::decision(
                    d,
                    &event.roster,
                    list.table_ties,
                    &super::going_on::settings_file(&list),
                );
                if list.cut.is_none() {
                    table.notes.push(label.en(&[&d]));
                }
                export.decisions.push(in_group(d));
            }
            export.unsettled |= !list.settled;
            if list.is_refused() {
                table.notes.push(S::NotFinalSeeDecision.text().to_string());
            }
            export.tables.push(table);
        }
    }
}

/// An empty qualifier table of `stage` with the standings columns.
fn qualifiers_placeholder(event: &Event, stage: &crate::domain::Stage) -> Table {
    Table {
        name: qualifiers_name(event, stage, None),
        title: format!("Qualifiers ({} rules)", event.rules.profile),
        columns: super::standings::headed(super::standings::COLUMNS.to_vec(), event.rules.scoring),
        rows: Vec::new(),
        notes: Vec::new(),
    }
}

/// The medals of the final, every group on one sheet, PROVISIONAL while
/// the final is not complete (as `tilerank medals --allow-incomplete`
/// says it, on each row too when `marked`); until the final is played,
/// the sheet says so.
pub fn medals_sheet(event: &Event, marked: bool) -> Table {
    match event.medals() {
        Some(all) => {
            let mut table = medals_table(&all, event);
            provisional_final(event, marked, &mut table);
            table
        }
        None => {
            let mut table = medals_table(&[], event);
            table.title = format!("Medals ({} rules): no final stage yet", event.rules.profile);
            table.notes = vec![S::NoFinalMedals.text().to_string()];
            table
        }
    }
}

/// The Super Family Award ([`Event::super_family`]), PROVISIONAL while the
/// final is not complete (as `tilerank awards --allow-incomplete` says
/// it, on each row too when `marked`); until it can be decided, the sheet
/// says why.
pub fn awards_sheet(event: &Event, marked: bool) -> Table {
    match event.super_family() {
        Ok(award) => {
            let mut table = awards_table(&award, &event.roster, event.rules.scoring);
            provisional_final(event, marked, &mut table);
            table
        }
        Err(why) => {
            let empty = SuperFamily {
                ranked: Vec::new(),
                ineligible: Vec::new(),
                not_units: Vec::new(),
            };
            let mut table = awards_table(&empty, &event.roster, event.rules.scoring);
            table.title = format!("{}: not decided", table.title);
            table.notes = vec![why];
            table
        }
    }
}

/// Marks a table of the final's answers PROVISIONAL while the final is not
/// complete: its title, and when `marked` its rows.
fn provisional_final(event: &Event, marked: bool, table: &mut Table) {
    let still = event.completeness_of(&event.final_stage());
    table.title.push_str(&still.title_suffix());
    if let Some(mark) = still.mark().filter(|_| marked) {
        super::stages::mark_rows(table, &mark);
    }
}

/// What the checks computed for one game: (seats, finish, best score, sum).
fn game_facts(game: &Game, scoring: Scoring) -> (usize, &'static str, Option<Score>, Score) {
    let out = game.results.iter().any(|r| r.tiles == Some(0));
    let best = match scoring {
        Scoring::ZeroSum => game.results.iter().map(|r| r.score).max(),
        Scoring::PenaltyPoints => game.results.iter().map(|r| r.score).min(),
    };
    let sum = game.results.iter().map(|r| r.score).sum();
    (
        game.results.len(),
        if out { S::Out } else { S::Unfinished }.text(),
        best,
        sum,
    )
}

/// The game checks that can be seen on the lines alone (RULES.md section
/// 5, checks 3 to 5): `ok`, or what is wrong.
fn game_check(game: &Game, scoring: Scoring) -> String {
    let mut wrong = Vec::new();
    let sum: Score = game.results.iter().map(|r| r.score).sum();
    if !(3..=4).contains(&game.results.len()) {
        wrong.push(S::CheckSeats.en(&[&game.results.len()]));
    }
    let out: Vec<_> = game.results.iter().filter(|r| r.tiles == Some(0)).collect();
    match scoring {
        Scoring::ZeroSum => {
            if !sum.is_zero() {
                wrong.push(S::CheckSum.en(&[&sum]));
            }
            match out.as_slice() {
                [] => {
                    let best = game.results.iter().map(|r| r.score).max();
                    if game.results.iter().any(|r| r.won && Some(r.score) != best) {
                        wrong.push(S::CheckLeader.text().to_string());
                    }
                }
                [one] => {
                    if game.results.iter().any(|r| r.won != (r.seat == one.seat)) {
                        wrong.push(S::CheckWentOut.text().to_string());
                    }
                }
                _ => wrong.push(S::CheckTwoOut.text().to_string()),
            }
        }
        Scoring::PenaltyPoints => {
            if game.results.iter().any(|r| r.score.is_negative()) {
                wrong.push(S::CheckNegative.text().to_string());
            }
        }
    }
    if game.results.iter().all(|r| !r.won) {
        wrong.push(S::CheckNobody.text().to_string());
    }
    S::And
        .joined(wrong)
        .unwrap_or_else(|| S::Ok.text().to_string())
}

/// Every game line of the accepted cards, with what its checks computed,
/// in the order the event is played: stage by stage as the event's
/// settings list them (`[rules] stages`; a stage they do not list after
/// those, by name), then by session, table and game.
pub fn games_table(cards: &[Card], event: &Event) -> Table {
    let scoring = event.rules.scoring;
    let mut ordered: Vec<&Card> = cards.iter().collect();
    ordered.sort_by(|a, b| {
        let rank = |c: &Card| event.rules.stage_rank(&c.key.stage);
        rank(a).cmp(&rank(b)).then_with(|| a.key.cmp(&b.key))
    });
    let mut rows = Vec::new();
    for card in ordered {
        let mut games: Vec<&Game> = card.games.iter().collect();
        games.sort_by_key(|g| g.number);
        let totals: BTreeMap<_, Score> =
            card.games
                .iter()
                .flat_map(|g| &g.results)
                .fold(BTreeMap::new(), |mut acc, r| {
                    *acc.entry(r.seat).or_insert(Score::ZERO) += r.score;
                    acc
                });
        for game in games {
            let (players, finish, best, sum) = game_facts(game, scoring);
            let check = game_check(game, scoring);
            for r in &game.results {
                let p = event.roster.get(r.player);
                rows.push(vec![
                    Value::Text(card.key.stage.to_compact_string()),
                    Value::Text(SessionName(&card.key.session).to_compact_string()),
                    match &card.key.table {
                        Label::Num(n) => Value::Int(i64::from(*n)),
                        Label::Text(t) => Value::text(t),
                    },
                    Value::Int(i64::from(game.number)),
                    Value::Text(r.seat.to_compact_string()),
                    Value::text(&p.id),
                    text(&p.name),
                    Value::Int(i64::from(r.won)),
                    Value::Score(r.score),
                    r.tiles.map_or(Value::Empty, |t| Value::Int(i64::from(t))),
                    Value::Int(players as i64),
                    Value::Text(finish.to_compact_string()),
                    Value::Int(i64::from(Some(r.score) == best)),
                    Value::Score(sum),
                    totals
                        .get(&r.seat)
                        .map_or(Value::Empty, |t| Value::Score(*t)),
                    Value::text(&check),
                ]);
            }
        }
    }
    let games: usize = cards.iter().map(|c| c.games.len()).sum();
    Table {
        name: "Games".into(),
        title: format!(
            "Every game line: {} cards, {games} games, {} lines",
            cards.len(),
            rows.len()
        ),
        columns: super::standings::headed(GAME_COLUMNS.to_vec(), scoring),
        rows,
        notes: vec![S::GamesNote.en(&[&match scoring {
            Scoring::ZeroSum => S::ZeroSum,
            Scoring::PenaltyPoints => S::PenaltyOfTable,
        }
        .text()])],
    }
}

/// Warnings and notes, sorted by place, then the export's own notes; each
/// message in `lang`'s words where the checks made it.
pub fn problems_table(problems: &Problems, extra: &[String], lang: Lang) -> Table {
    let mut rows: Vec<Vec<Value>> = problems
        .sorted()
        .into_iter()
        .map(|p| {
            vec![
                Value::Text(
                    match p.severity {
                        Severity::Error => "error",
                        Severity::Warning => "warning",
                        Severity::Note => "note",
                    }
                    .to_string()
                    .into(),
                ),
                text(&p.place.to_string()),
                Value::text(&p.message_in(lang)),
            ]
        })
        .collect();
    rows.extend(
        extra
            .iter()
            .map(|m| vec![Value::Text("note".into()), Value::Empty, Value::text(m)]),
    );
    let notes = if rows.is_empty() {
        vec![S::NothingToReport.text().to_string()]
    } else {
        Vec::new()
    };
    Table {
        name: "Problems".into(),
        title: format!("Warnings and notes: {}", rows.len()),
        columns: vec![
            col("severity", Kind::Text),
            col("place", Kind::Text),
            col("message", Kind::Text),
        ],
        rows,
        notes,
    }
}

/// The rules as applied, and where the data came from. Each setting that
/// plays a part under the event's rules, as its declaration says
/// ([`crate::config::settings::applied`]: no `[qualifiers] top` where
/// players go on by their tables), is a row: where tilerank.toml gives it
/// (`[qualifiers] rule`, `[stages.semi] carry`), its value as the file
/// writes it (a number as a number) and its line of doc.
pub fn settings_table(event: &Event, name: &str, sources: &[(String, String)]) -> Table {
    let r = &event.rules;
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut put = |k: &str, v: Value, about: &str| rows.push(vec![text(k), v, text(about)]);
    let quoted = |s: &str| match s.trim() {
        "" => Value::Empty,
        s => Value::Text(toml::Value::String(s.to_string()).to_compact_string()),
    };
    put("[event] name", quoted(name), "");
    put(
        "[event] date",
        quoted(r.event_date.as_deref().unwrap_or_default()),
        "",
    );
    put("[event] profile", quoted(&r.profile.to_string()), "");
    for s in crate::config::settings::applied(r) {
        let value = match s.value.parse::<i64>() {
            Ok(n) => Value::Int(n),
            Err(_) => Value::text(&s.value),
        };
        put(&s.place, value, s.doc);
    }
    let groups = &event.groups.names;
    if !groups.is_empty() && r.age_groups.is_empty() {
        put("age_groups", Value::Text(groups.join(", ").into()), "");
    }
    for (k, v) in sources {
        put(k, text(v), "");
    }
    // What was read: the event's stored cards, then the files given (none
    // given to an event: no row of 0 files that reads as nothing read).
    let c = &event.counts;
    let mut count = |k: &str, n: usize| put(k, Value::Int(n as i64), "");
    if c.stored > 0 {
        count("cards_stored", c.stored);
    }
    if c.files > 0 || c.stored == 0 {
        count("files", c.files);
        count("sheets", c.sheets);
    }
    count("cards_read", c.cards_read);
    count("cards_accepted", event.cards.len());
    count("cards_rejected", c.cards_rejected);
    count("games", c.games);
    count("players", event.roster.len());
    put(
        "tilerank",
        Value::Text(env!("CARGO_PKG_VERSION").to_compact_string()),
        "",
    );
    Table {
        name: "Settings".into(),
        title: match name.trim() {
            "" => "Settings".to_string(),
            name => format!("Settings of {name}"),
        },
        columns: vec![
            col("setting", Kind::Text),
            col("value", Kind::Text),
            col("about", Kind::Text),
        ],
        rows,
        notes: Vec::new(),
    }
}

/// The import log: one row per line, counts as numbers.
pub fn log_table(lines: &[BTreeMap<String, String>]) -> Table {
    let rows = lines
        .iter()
        .map(|line| {
            LOG_COLUMNS
                .iter()
                .map(|c| {
                    let v = line.get(*c).map(String::as_str).unwrap_or_default();
                    match (*c, v.parse::<i64>()) {
                        ("cards" | "games", Ok(n)) => Value::Int(n),
                        _ => text(v),
                    }
                })
                .collect()
        })
        .collect();
    Table {
        name: "Log".into(),
        title: "Import log and inputs".into(),
        columns: LOG_COLUMNS
            .iter()
            .map(|&name| {
                col(
                    name,
                    if name == "cards" || name == "games" {
                        Kind::Int
                    } else {
                        Kind::Text
                    },
                )
            })
            .collect(),
        rows,
        notes: Vec::new(),
    }
}

/// `1 card`, `2 cards`.
fn plural_cards(n: usize) -> String {
    if n == 1 {
        "1 card".to_string()
    } else {
        format!("{n} cards")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{PlayerId, Seat, SeatResult};
    use crate::place::Place;

    fn line(seat: Seat, won: bool, score: i64, tiles: u16) -> SeatResult {
        SeatResult {
            seat,
            player: PlayerId(seat.index() as u32),
            won,
            score: Score::whole(score),
            tiles: Some(tiles),
            place: Place::nowhere("t"),
        }
    }

    #[test]
    fn game_checks_see_what_the_lines_show() {
        use Seat::*;
        let ok = Game {
            number: 1,
            results: vec![
                line(A, true, 30, 1),
                line(B, false, -5, 1),
                line(C, false, -10, 3),
                line(D, false, -15, 4),
            ],
        };
        assert_eq!(game_check(&ok, Scoring::ZeroSum), "ok");
        assert_eq!(
            game_facts(&ok, Scoring::ZeroSum),
            (4, "unfinished", Some(Score::whole(30)), Score::ZERO)
        );
        let mut bad = ok.clone();
        bad.results[1].score = Score::whole(-4);
        bad.results[2].tiles = Some(0);
        assert_eq!(
            game_check(&bad, Scoring::ZeroSum),
            "scores sum to 1; the winner is not the seat that went out"
        );
    }
}
