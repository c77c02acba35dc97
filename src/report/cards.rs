//! Checked cards written back out: in the results layout (for CSV, JSON or
//! a workbook of lines), or as printable HK score cards.

use super::scorecard_xlsx::{PrintCard, PrintLine};
use super::{Column, Table, Value};
use crate::domain::{Card, Label, Stage};
use crate::roster::Roster;

/// The results layout of FORMATS.md, one row per seat per game.
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
                    row.push(Value::Text(card.key.stage.to_string()));
                }
                row.extend([
                    Value::Text(crate::domain::SessionName(&card.key.session).to_string()),
                    Value::Text(card.key.table.to_string()),
                    Value::Int(i64::from(game.number)),
                    Value::Text(r.seat.to_string()),
                    Value::Text(roster.get(r.player).id.clone()),
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
        title: format!("Results: {} cards", cards.len()),
        columns,
        rows,
        notes: Vec::new(),
    }
}

fn stage_title(stage: &Stage) -> String {
    match stage.as_str() {
        "prelim" => "Preliminary Round".to_string(),
        "semi" => "Semi-final".to_string(),
        "final" => "Final".to_string(),
        other => other.to_string(),
    }
}

fn label(l: &Label) -> String {
    l.to_string()
}

/// Filled score cards, ready to print and sign.
pub fn print_cards(cards: &[Card], roster: &Roster, event_name: &str) -> Vec<PrintCard> {
    cards
        .iter()
        .map(|card| {
            let mut seats: [Option<String>; 4] = Default::default();
            for sp in &card.seats {
                seats[sp.seat.index()] = Some(roster.card_name(sp.player).to_string());
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
            PrintCard {
                title: format!("{event_name} {} Score Card", stage_title(&card.key.stage))
                    .trim()
                    .to_string(),
                date: None,
                referee: None,
                session: label(&card.key.session),
                table: label(&card.key.table),
                seats,
                games,
                total: true,
            }
        })
        .collect()
}
