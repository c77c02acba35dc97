//! `tilerank seating`: the tables of the next stage, and their blank cards.

use super::answers::{answers_of, going_on_from, groups, named, print_decisions};
use super::{EventArgs, Outcome, OutputArgs};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::collections::HashMap;
use std::io::IsTerminal;
use tilerank::domain::{CardKey, Label, PlayerId, Stage};
use tilerank::report::cards::blank_card;
use tilerank::report::scorecard_xlsx::{cards_workbook_with, CardExtras};
use tilerank::report::site::{links::card_url, Lang};
use tilerank::report::stages::seating_table;
use tilerank::report::Format;
use tilerank::roster::Status;
use tilerank::rules::seating;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// At random (reproducible with --seed), former table-mates apart
    Random,
    /// By current standings: the best four at table 1, and so on
    Standings,
}

/// Seat the players of the next stage: a list, or blank score cards (.xlsx) ready to print
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank seating --event my-event --from prelim --seed 2026 -o final-cards.xlsx\n  tilerank seating cards/ --roster roster.csv --from prelim --by standings\n  tilerank seating --roster roster.csv --seed 7 -o prelim-seating.csv\n\nWith --from, the players who go on from that stage are seated (tilerank advance lists them); without it, every active roster player. Tables of 4, 3 where the count requires. The same --seed gives the same seating.\n\nAs qualifiers does, --from waits (exit 1) while cards the event expects are missing, or players who went on to that stage have not played it; --allow-incomplete seats the provisional list, marked PROVISIONAL, and each printed card says PROVISIONAL SEATING under its title."
)]
pub struct SeatingArgs {
    #[command(flatten)]
    pub event: EventArgs,

    /// Seat the players who go on from this stage
    #[arg(long, value_name = "STAGE")]
    pub from: Option<String>,

    /// The stage being seated (default: the one after --from, else prelim)
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,

    /// How tables are drawn
    #[arg(long, value_enum, default_value = "random")]
    pub by: By,

    /// The draw's seed: the same seed gives the same seating
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// One age group only
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// A player the director names to settle a tie for going on (repeatable)
    #[arg(long = "player", value_name = "PLAYER")]
    pub players: Vec<String>,

    /// Present the seating even while cards the event expects are missing (marked PROVISIONAL, on each printed card too)
    #[arg(long, requires = "from")]
    pub allow_incomplete: bool,

    /// The event's name on the score cards (default: the event's, else "Rummikub")
    #[arg(long)]
    pub name: Option<String>,

    /// The language of the printed cards: en, or zh-Hant (a Chinese title, and the Chinese beside the English words of the labels tilerank reads back)
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = super::publish::parse_lang)]
    pub lang: Lang,

    /// Where the results site is published (tilerank publish): each printed card carries a QR code of its table's page there
    #[arg(long, value_name = "URL")]
    pub site_url: Option<String>,

    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: SeatingArgs) -> Result<Outcome> {
    // (a file it cannot write is refused before anything is read)
    args.output.format()?;
    // (a rules file is read once: it may be a pipe)
    let overrides = args.event.overrides()?;
    let given = overrides
        .rules
        .clone()
        .unwrap_or_else(|| args.event.profile.unwrap_or_default().rules());
    let loaded = args.event.load(args.event.rules_with(overrides)?)?;
    let event = &loaded.event;
    let from = match &args.from {
        Some(s) => match going_on_from(event, s)? {
            Some(stage) => Some(stage),
            None => return Ok(Outcome::DataErrors),
        },
        None => {
            if event.problems.has_errors() {
                say!("Nothing seated: fix the errors above and run again.");
                return Ok(Outcome::DataErrors);
            }
            None
        }
    };
    // (who goes on from a stage waits for it, as qualifiers does)
    let completeness = match &from {
        Some(f) => {
            let refusal = super::answers::Refusal::new(
                format!("Nothing seated: who goes on from the {f} is not known while "),
                "a provisional seating (each printed card says so)",
            );
            match answers_of(&loaded, f, args.allow_incomplete, &refusal) {
                Some(c) => c,
                None => return Ok(Outcome::DataErrors),
            }
        }
        None => tilerank::event::Completeness::default(),
    };
    let stage = match (&args.stage, &from) {
        (Some(s), _) => Stage::new(s),
        (None, Some(f)) => event.next_stage(f),
        (None, None) => Stage::prelim(),
    };
    let named = named(event, &args.players)?;
    let event_name = args
        .name
        .clone()
        .or_else(|| loaded.folder.as_ref().map(|f| f.config.event.name.clone()))
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "Rummikub".to_string());
    let mut tables = Vec::new();
    let mut cards = Vec::new();
    // Each card's table, for its page on the results site.
    let mut pages: Vec<CardKey> = Vec::new();
    let mut next_table = 0;
    let mut all_tables = Vec::new();
    let mut seated = Vec::new();
    // One group asked for: every group is seated all the same, quietly,
    // so that its tables are numbered as in the whole seating (the tables
    // its cards were, or will be, played at); the others' are not shown.
    let wanted = groups(event, &args.group)?;
    let every = match &args.group {
        Some(_) => event.group_list(),
        None => wanted.clone(),
    };
    // a group before the one asked for that cannot be seated yet: the
    // tables are numbered without it (said, with why); one after it
    // changes none of its numbers
    let mut not_numbered: Vec<(String, String)> = Vec::new();
    let mut past_wanted = false;
    for group in every {
        let quiet = !wanted.contains(&group);
        past_wanted |= !quiet;
        let players: Vec<PlayerId> = match &from {
            Some(f) => {
                let list = event.advance(f, group.as_deref(), &named);
                if !list.settled && quiet {
                    if !past_wanted {
                        not_numbered.extend(group.clone().map(|g| {
                            (
                                g,
                                "who goes on is not settled (see tilerank advance)".into(),
                            )
                        }));
                    }
                    continue;
                }
                if !list.settled {
                    print_decisions(&list, &event.roster, &[]);
                    say!("Nothing seated: who goes on is not settled (see tilerank advance).");
                    return Ok(Outcome::DataErrors);
                }
                let (seated, absent) = event.to_seat(&list);
                for p in absent.into_iter().filter(|_| !quiet) {
                    say!(
                        "Not seated: {} ({}) goes on but is named absent from the {} ([stages.{}] absent in tilerank.toml).",
                        event.roster.get(p).id,
                        event.roster.get(p).name,
                        list.to,
                        list.to
                    );
                }
                seated
            }
            None => event
                .roster
                .iter()
                .filter(|(id, p)| {
                    p.status == Status::Active
                        && group
                            .as_ref()
                            .is_none_or(|g| event.groups.of.get(id) == Some(g))
                })
                .map(|(id, _)| id)
                .collect(),
        };
        if players.is_empty() && quiet {
            continue; // (no tables)
        }
        if players.is_empty() {
            bail!(
                "no players to seat{}",
                group
                    .as_ref()
                    .map(|g| format!(" in group {g}"))
                    .unwrap_or_default()
            );
        }
        let drawn: Result<_> = match (args.by, &from) {
            (By::Standings, Some(f)) => {
                let standings = event.standings_in(f, group.as_deref());
                let order: Vec<PlayerId> = standings
                    .ranked
                    .iter()
                    .map(|e| e.player())
                    .filter(|p| players.contains(p))
                    .collect();
                seating::by_order(&order)
            }
            (By::Standings, None) => {
                bail!("--by standings needs --from STAGE (whose standings order the tables)")
            }
            (By::Random, _) => {
                let previous: HashMap<PlayerId, String> = event
                    .cards
                    .iter()
                    .filter(|c| from.as_ref().is_some_and(|f| &c.key.stage == f))
                    .flat_map(|c| c.seats.iter().map(move |s| (s.player, c.key.to_string())))
                    .collect();
                seating::random(&players, &previous, args.seed, |p| event.roster.id(p))
            }
        }
        .map_err(|e| anyhow::anyhow!("{e}"));
        let drawn = match drawn {
            Err(e) if quiet => {
                if !past_wanted {
                    not_numbered.extend(group.clone().map(|g| (g, e.to_string())));
                }
                continue;
            }
            Err(e) => {
                let in_group = group
                    .as_ref()
                    .map(|g| format!(" (group {g})"))
                    .unwrap_or_default();
                bail!("{e}{in_group}")
            }
            Ok(drawn) => drawn,
        };
        // Tables are numbered on through the groups: one numbering per stage.
        let mut drawn = drawn;
        for t in &mut drawn.tables {
            t.number += next_table;
        }
        next_table += drawn.tables.len() as u32;
        all_tables.extend(drawn.tables.iter().cloned());
        seated.push((group, players.len(), drawn));
    }
    // A stage played in sessions (the HK prelim) fills them in order: the
    // event's schedule, or without an event folder that of the rules given
    // (--rules FILE, else --profile, else hk): seating plans the event
    // before any card exists.
    let schedule = match &loaded.folder {
        Some(_) => event.rules.schedule,
        None => event.rules.schedule.or(given.schedule),
    }
    .filter(|_| stage == event.qualifying_stage());
    if let Some(schedule) = schedule {
        tilerank::rules::seating::into_sessions(&mut all_tables, schedule)
            .map_err(anyhow::Error::msg)?;
        let mut at = all_tables.iter();
        for (_, _, drawn) in &mut seated {
            for t in &mut drawn.tables {
                if let Some(placed) = at.next() {
                    t.session = placed.session;
                    t.number = placed.number;
                }
            }
        }
    }
    seated.retain(|(group, _, _)| wanted.contains(group));
    if let [one] = &wanted[..] {
        if !not_numbered.is_empty() {
            let groups: Vec<String> = not_numbered.iter().map(|(g, _)| g.clone()).collect();
            let why: Vec<String> = not_numbered
                .iter()
                .map(|(g, why)| format!("group {g}: {why}"))
                .collect();
            say!(
                "warning: the tables of group {} are numbered as if {} had none, which cannot be seated yet ({})",
                one.as_deref().unwrap_or_default(),
                list_of_groups(&groups),
                why.join("; ")
            );
        }
    }
    say_cards_in(event, &stage, &all_tables);
    let titled = args.output.shows_titles()?;
    for (group, count, drawn) in seated {
        let tables_text = match drawn.tables.len() {
            1 => "1 table".to_string(),
            n => format!("{n} tables"),
        };
        let title = format!(
            "Seating of the {stage} stage{}: {} players at {tables_text}{}{}",
            group
                .as_ref()
                .map(|g| format!(", group {g}"))
                .unwrap_or_default(),
            count,
            // (the seed draws a random seating only)
            match args.by {
                By::Random => format!(" (seed {})", args.seed),
                By::Standings => String::new(),
            },
            completeness.title_suffix()
        );
        let games = event.rules.games_for(&stage) as usize;
        for t in &drawn.tables {
            let mut seats: [Option<String>; 4] = Default::default();
            for (seat, p) in &t.seats {
                seats[seat.index()] = Some(event.roster.card_name(*p));
            }
            pages.push(CardKey {
                stage: stage.clone(),
                session: Label::Num(t.session),
                table: Label::Num(t.number),
            });
            let mut card = blank_card(
                &event_name,
                &stage,
                group.as_deref(),
                t.session,
                t.number,
                seats,
                games,
                args.lang,
                &event.rules.stages,
            );
            // the event's date, as its settings or --date give it
            card.date.clone_from(&event.rules.event_date);
            card.provisional = completeness.still_to_come();
            cards.push(card);
        }
        let mut table = seating_table(&drawn, event, &title);
        // (a file without titles says it on every row)
        if let Some(mark) = completeness.mark().filter(|_| !titled) {
            tilerank::report::stages::mark_rows(&mut table, &mark);
        }
        if let Some(g) = &group {
            table.name = format!("Seating {g}");
        }
        tables.push(table);
    }
    let extras = CardExtras {
        lang: args.lang,
        scoring: event.rules.scoring,
        pages: pages
            .iter()
            .map(|key| args.site_url.as_deref().map(|base| card_url(base, key)))
            .collect(),
    };
    match (args.output.format()?, &args.output.output) {
        (Format::Xlsx, Some(path)) => {
            if tilerank::report::output::is_stdout(path) && std::io::stdout().is_terminal() {
                bail!("a workbook cannot be shown in the terminal: give -o FILE.xlsx");
            }
            let bytes =
                cards_workbook_with(&cards, &extras).context("the score cards cannot be made")?;
            // whole or not at all, never over an input or the event's files
            tilerank::report::output::write_report(path, &bytes)?;
            if !tilerank::report::output::is_stdout(path) {
                super::say_written(
                    path,
                    &format!(
                        "{} of the {stage} stage, one a sheet, players' names filled in, to print{}{}",
                        super::score_cards(cards.len()),
                        event
                            .rules
                            .event_date
                            .as_ref()
                            .map(|d| format!(" (Date {d})"))
                            .unwrap_or_default(),
                        completeness
                            .mark()
                            .map(|m| format!(", each marked {m}"))
                            .unwrap_or_default()
                    ),
                );
            }
        }
        _ => args.output.emit(&tables)?,
    }
    Ok(Outcome::Done)
}

/// A seating of a stage that has cards already (printed again, perhaps
/// after who goes on changed) is said: how many cards, and whether it is
/// the seating they were played at, each card's players at its table
/// here (a seating is drawn from who goes on, the seed and `--by`; the
/// event keeps none of them).
fn say_cards_in(event: &tilerank::event::Event, stage: &Stage, tables: &[seating::SeatedTable]) {
    use std::collections::BTreeSet;
    let cards: Vec<_> = event
        .cards
        .iter()
        .filter(|c| &c.key.stage == stage)
        .collect();
    if cards.is_empty() {
        return;
    }
    let mut other: Vec<&Label> = cards
        .iter()
        .filter(|c| {
            let played: BTreeSet<PlayerId> = c.seats.iter().map(|s| s.player).collect();
            !tables.iter().any(|t| {
                Label::Num(t.session) == c.key.session
                    && Label::Num(t.number) == c.key.table
                    && t.players().collect::<BTreeSet<_>>() == played
            })
        })
        .map(|c| &c.key.table)
        .collect();
    other.sort();
    let has = match cards.len() {
        1 => "1 card".to_string(),
        n => format!("{n} cards"),
    };
    if other.is_empty() {
        say!("warning: the {stage} already has {has}; this seating is the one they were played at (each card's players at its table)");
    } else {
        let tables = other
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let table = if other.len() == 1 { "table" } else { "tables" };
        say!("warning: the {stage} already has {has}; this seating is not the one they were played at: at {table} {tables} it seats other players than the card (who goes on changed, or another --seed or --by): print it only to seat the {stage} again");
    }
}

/// `A`, `A and B`, `A, B and C`: groups named in a sentence.
fn list_of_groups(groups: &[String]) -> String {
    match groups {
        [] => String::new(),
        [one] => format!("group {one}"),
        [rest @ .., last] => format!("groups {} and {last}", rest.join(", ")),
    }
}
