//! Checked cards written back out: in the results layout (for CSV, JSON or
//! a workbook of lines), or as printable HK score cards.

use super::scorecard_xlsx::{PrintCard, PrintLine};
use super::words::{fill, Lang, Words};
use super::{Column, Table, Value};
use crate::domain::{Card, Label, Stage};
use crate::ingest::scorecard::title_stage;
use crate::roster::Roster;
use compact_str::ToCompactString;

/// The results layout of docs/formats.md, one row per seat per game.
pub fn results_table(cards: &[Card], roster: &Roster) -> Table {
    let with_stage = cards.iter().any(|c| c.key.stage != Stage::prelim());
    let mut columns = Vec::new();
    if with_stage {
        columns.push(Column::text("stage"));
    }
    columns.extend([
        Column::text("session"),
        Column::text("table"),
        Column::int("game"),
        Column::text("seat"),
        Column::text("player"),
        Column::int("won"),
        Column::score("score"),
        Column::int("tiles"),
    ]);
    let mut rows = Vec::new();
    for card in cards {
        for game in &card.games {
            for r in &game.results {
                let mut row = Vec::new();
                if with_stage {
                    row.push(Value::Text(card.key.stage.to_compact_string()));
                }
                row.extend([
                    Value::Text(
                        crate::domain::SessionName(&card.key.session)
                            .to_string()
                            .into(),
                    ),
                    Value::Text(card.key.table.to_compact_string()),
                    Value::Int(i64::from(game.number)),
                    Value::Text(r.seat.to_compact_string()),
                    Value::text(&roster.get(r.player).id),
                    Value::Int(i64::from(r.won)),
                    Value::Score(r.score),
                    r.tiles.map_or(Value::Empty, |t| Value::Int(i64::from(t))),
                ]);
                rows.push(row);
            }
        }
    }
    Table {
        name: "Results".into(),
        title: format!(
            "Results: {}",
            if cards.len() == 1 {
                "1 card".to_string()
            } else {
                format!("{} cards", cards.len())
            }
        ),
        columns,
        rows,
        notes: Vec::new(),
    }
}

/// The stage as a card's title says it in `w`'s words.
fn stage_words<'a>(stage: &'a Stage, w: &Words) -> &'a str {
    w.card_stages
        .iter()
        .find(|(n, _)| *n == stage.as_str())
        .map_or(stage.as_str(), |(_, word)| word)
}

/// Whether the event's name already says the stage: "HK 2026 Final" or
/// "HK 2026 Finals" for the final (not "Semi-finals"), "... Preliminary
/// Round" or "Qualifying" for the prelim, "Semi-final" for the semi; in
/// Chinese 決賽 for the final (not 準決賽), 準決賽 or 半決賽 for the semi,
/// 初賽 or 預賽 for the prelim.
fn says_stage(event: &str, stage: &Stage, lang: Lang) -> bool {
    if lang == Lang::ZhHant {
        return match stage.as_str() {
            "prelim" => event.contains("初賽") || event.contains("預賽"),
            "semi" => event.contains("準決賽") || event.contains("半決賽"),
            "final" => event
                .match_indices("決賽")
                .any(|(i, _)| !event[..i].ends_with(['準', '半'])),
            other => event.contains(other),
        };
    }
    let lower = event.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    match stage.as_str() {
        "prelim" => words
            .iter()
            .any(|w| w.starts_with("prelim") || w.starts_with("qualif")),
        "semi" => words.iter().any(|w| w.starts_with("semi")),
        "final" => words.iter().any(|w| w.starts_with("final")),
        other => words.contains(&other),
    }
}

/// A score card's title: the event's name, the stage, "Score Card". The
/// stage is not said twice ("HK 2026 Final Score Card", not "... Final
/// Final ..."), and the title still tells the reader the card's stage.
/// `stages` are the event's (`[rules] stages`).
pub fn card_title(event: &str, stage: &Stage, stages: &[String]) -> String {
    card_title_in(event, stage, Lang::En, stages)
}

/// [`card_title`] in `lang`'s words: `HK 2026 決賽計分卡` in Chinese (the
/// event's name as written). Whether the name says the stage already is
/// judged in the title's own language. A name that says a stage and is
/// not the title alone has the card's stage put apart (`HK 2026 初賽：
/// 決賽計分卡`, `HK 2026 Final: Preliminary Round Score Card`), so that
/// the name's stage and the card's do not read as one. The title is one
/// the card reader reads back as `stage` among the event's `stages`
/// ([`title_stage`]): when the event's name makes that title read as
/// another stage (`Club Quarter` for the final of an event that plays no
/// quarter), the stage is said first, `Final Score Card – Club Quarter`.
pub fn card_title_in(event: &str, stage: &Stage, lang: Lang, stages: &[String]) -> String {
    let w = lang.words();
    let event = event.trim();
    let names: Vec<&str> = stages.iter().map(String::as_str).collect();
    let reads_back = |title: &str| title_stage(title, &names).as_ref() == Some(stage);
    let alone = fill(w.card_heading_one, &[&stage_words(stage, w)]);
    if event.is_empty() {
        return alone;
    }
    let short = fill(w.card_heading_one, &[&event]);
    if says_stage(event, stage, lang)
        && !says_other_stage(event, stage, lang, &names)
        && reads_back(&short)
    {
        return short;
    }
    let heading = if says_a_stage(event, &names) {
        w.card_heading_apart
    } else {
        w.card_heading
    };
    let long = fill(heading, &[&event, &stage_words(stage, w)]);
    if reads_back(&long) {
        long
    } else {
        format!("{alone} – {event}")
    }
}

/// The event's name says a stage, any (the built-in ones and the event's
/// own `stages`), in English or in Chinese, whatever the title's
/// language: `HK 2026 初賽`, `Semi-final and Final Day`.
fn says_a_stage(event: &str, stages: &[&str]) -> bool {
    ["prelim", "semi", "final"].iter().chain(stages).any(|s| {
        Lang::ALL
            .iter()
            .any(|l| says_stage(event, &Stage::new(s), *l))
    })
}

/// The name says another stage too ("Semi-final and Final Day" for the
/// final): the stage is then said after it, as the card's reader looks for
/// it. The other stages are the built-in ones and the event's own
/// (`stages`).
fn says_other_stage(event: &str, stage: &Stage, lang: Lang, stages: &[&str]) -> bool {
    ["prelim", "semi", "final"]
        .iter()
        .chain(stages)
        .filter(|s| **s != stage.as_str())
        .any(|s| says_stage(event, &Stage::new(s), lang))
}

/// A blank card for a table of the next stage: the players' names in their
/// seats (a namesake with the id, see [`Roster::card_name`]), the age group
/// when groups play apart, empty game lines to fill in; its title in
/// `lang`'s words ([`card_title_in`]).
#[allow(clippy::too_many_arguments)]
pub fn blank_card(
    event: &str,
    stage: &Stage,
    group: Option<&str>,
    session: u32,
    table: u32,
    seats: [Option<String>; 4],
    games: usize,
    lang: Lang,
    stages: &[String],
) -> PrintCard {
    PrintCard {
        title: card_title_in(event, stage, lang, stages),
        date: None,
        referee: None,
        session: session.to_string(),
        table: table.to_string(),
        group: group.map(str::to_string),
        seats,
        games: vec![Default::default(); games],
        total: true,
        provisional: None,
    }
}

fn label(l: &Label) -> String {
    l.to_string()
}

/// Filled score cards, ready to print and sign; `stages` are the event's.
pub fn print_cards(
    cards: &[Card],
    roster: &Roster,
    event_name: &str,
    stages: &[String],
) -> Vec<PrintCard> {
    cards
        .iter()
        .map(|card| {
            let mut seats: [Option<String>; 4] = Default::default();
            for sp in &card.seats {
                seats[sp.seat.index()] = Some(roster.card_name(sp.player));
            }
            let games = card
                .games
                .iter()
                .map(|g| {
                    let mut line: [Option<PrintLine>; 4] = Default::default();
                    for r in &g.results {
                        line[r.seat.index()] = Some(PrintLine {
                            won: r.won,
                            score: r.score,
                            tiles: r.tiles,
                        });
                    }
                    line
                })
                .collect();
            let group = card
                .seats
                .first()
                .and_then(|sp| roster.get(sp.player).group.clone());
            PrintCard {
                title: card_title(event_name, &card.key.stage, stages),
                date: None,
                referee: None,
                session: label(&card.key.session),
                table: label(&card.key.table),
                group,
                seats,
                games,
                total: true,
                provisional: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title(event: &str, stage: &str) -> String {
        card_title(
            event,
            &Stage::new(stage),
            &stages(&["prelim", "semi", "final"]),
        )
    }

    fn stages(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_title_says_the_stage_once() {
        assert_eq!(
            title("Rummikub HK 2026", "final"),
            "Rummikub HK 2026 Final Score Card"
        );
        assert_eq!(
            title("Rummikub HK 2026 Final", "final"),
            "Rummikub HK 2026 Final Score Card"
        );
        assert_eq!(
            title("Rummikub HK 2026 Finals", "final"),
            "Rummikub HK 2026 Finals Score Card"
        );
        assert_eq!(
            title("Rummikub HK 2026 Preliminary Round", "prelim"),
            "Rummikub HK 2026 Preliminary Round Score Card"
        );
        assert_eq!(
            title("Gwinnett Semi-finals", "semi"),
            "Gwinnett Semi-finals Score Card"
        );
        // The name says another stage: the card's own is said after it,
        // apart, so that the two do not read as one stage.
        assert_eq!(
            title("Rummikub HK 2026 Final", "prelim"),
            "Rummikub HK 2026 Final: Preliminary Round Score Card"
        );
        assert_eq!(
            title("Semi-final and Final Day", "final"),
            "Semi-final and Final Day: Final Score Card"
        );
        assert_eq!(
            title("Rummikub HK 2026 Preliminary Round", "final"),
            "Rummikub HK 2026 Preliminary Round: Final Score Card"
        );
        // (a name in Chinese that says a stage, too)
        assert_eq!(
            title("Rummikub 香港 2026 初賽", "final"),
            "Rummikub 香港 2026 初賽: Final Score Card"
        );
        assert_eq!(title("  ", "semi"), "Semi-final Score Card");
    }

    /// A Chinese card's title is Chinese: the event's name as written,
    /// then the stage and 計分卡, the stage said once.
    #[test]
    fn a_chinese_title_says_the_stage_in_chinese() {
        let zh = |event: &str, stage: &str| {
            let stages = stages(&["prelim", "semi", "final", "plate"]);
            card_title_in(event, &Stage::new(stage), Lang::ZhHant, &stages)
        };
        assert_eq!(
            zh("Rummikub HK 2026", "final"),
            "Rummikub HK 2026 決賽計分卡"
        );
        assert_eq!(
            zh("Rummikub HK 2026", "prelim"),
            "Rummikub HK 2026 初賽計分卡"
        );
        assert_eq!(
            zh("Rummikub HK 2026", "semi"),
            "Rummikub HK 2026 準決賽計分卡"
        );
        assert_eq!(zh("", "final"), "決賽計分卡");
        assert_eq!(zh("香港錦標賽決賽", "final"), "香港錦標賽決賽計分卡");
        // A name that ends with another stage: the card's stage is put
        // apart, not run on into the name's (not "... 初賽 決賽計分卡").
        assert_eq!(
            zh("Rummikub 香港 2026 初賽", "final"),
            "Rummikub 香港 2026 初賽：決賽計分卡"
        );
        // 準決賽 is the semi, not the final; an English name's words are
        // not the title's, but say a stage all the same
        assert_eq!(
            zh("香港錦標賽準決賽", "final"),
            "香港錦標賽準決賽：決賽計分卡"
        );
        assert_eq!(zh("HK 2026 Final", "final"), "HK 2026 Final：決賽計分卡");
        assert_eq!(zh("HK 2026 Final", "prelim"), "HK 2026 Final：初賽計分卡");
        // a stage of the event's own: as written
        assert_eq!(zh("Club", "plate"), "Club plate計分卡");
    }

    /// A title that would read as another stage says the card's stage
    /// first, in either language.
    #[test]
    fn a_title_that_would_read_as_another_stage_says_its_stage_first() {
        // (`Club Quarter Final Score Card` reads as a quarter-final's)
        let hk = stages(&["prelim", "final"]);
        let final_ = Stage::new("final");
        assert_eq!(
            card_title_in("Club Quarter", &final_, Lang::En, &hk),
            "Final Score Card – Club Quarter"
        );
        assert_eq!(
            card_title_in("Club Quarter", &final_, Lang::ZhHant, &hk),
            "決賽計分卡 – Club Quarter"
        );
        // a quarter the event plays is a stage the name says: put apart
        let quarter = stages(&["prelim", "quarter", "final"]);
        assert_eq!(
            card_title_in("Club Quarter", &final_, Lang::En, &quarter),
            "Club Quarter: Final Score Card"
        );
        assert_eq!(
            card_title_in("Final of the quarter", &final_, Lang::En, &quarter),
            "Final of the quarter: Final Score Card"
        );
    }

    #[test]
    fn a_blank_card_has_its_group_and_empty_games() {
        let card = blank_card(
            "NVSO 2023",
            &Stage::new("final"),
            Some("65-79"),
            1,
            2,
            Default::default(),
            3,
            Lang::En,
            &stages(&["prelim", "final"]),
        );
        assert_eq!(card.title, "NVSO 2023 Final Score Card");
        assert_eq!(card.group.as_deref(), Some("65-79"));
        assert_eq!(card.table, "2");
        assert_eq!(card.games.len(), 3);
        assert!(card.games.iter().all(|g| g.iter().all(Option::is_none)));
    }
}
