//! The results layout (FORMATS.md): one line per seat per game.
//!
//! ```text
//! session,table,game,seat,player,won,score,tiles
//! S01,7,1,A,P0001,0,+11,3
//! ```

use super::cell::{Cell, Row};
use super::header::{map_header, Column, ColumnMap};
use super::lines::{self, Grouper, Line, HEAD_COLUMNS};
use super::raw::{Layout, RawCard, RawGame, RawLine};
use crate::domain::Seat;
use crate::place::{Place, Source};
use crate::problem::Problems;

pub use super::lines::whole_number;

const WON: usize = 6;
const SCORE: usize = 7;
const TILES: usize = 8;

fn columns() -> Vec<Column> {
    let mut c = HEAD_COLUMNS.to_vec();
    c.extend([
        Column {
            name: "won",
            aliases: &["gamewon"],
            required: true,
        },
        Column {
            name: "score",
            aliases: &[],
            required: true,
        },
        Column {
            name: "tiles",
            aliases: &["tilesonrack", "tileonrack", "tilesleft"],
            required: true,
        },
        Column {
            name: "date",
            aliases: &[],
            required: false,
        },
        Column {
            name: "referee",
            aliases: &[],
            required: false,
        },
    ]);
    c
}

pub fn is_header(texts: &[String]) -> bool {
    map_header(texts, &columns()).is_some()
}

impl Line for RawLine {
    fn seat(&self) -> Seat {
        self.seat
    }
    fn place(&self) -> Place {
        Place {
            col: None,
            ..self.won.place.clone()
        }
    }
}

pub fn read(
    source: &Source,
    rows: impl Iterator<Item = Result<Row, String>>,
    problems: &mut Problems,
) -> Vec<RawCard> {
    let columns = columns();
    let mut map: Option<ColumnMap> = None;
    let mut grouper: Grouper<RawLine> = Grouper::default();
    for row in rows {
        let mut row = match row {
            Ok(row) => row,
            Err(e) => {
                problems.error(source.whole(), format!("cannot be read as CSV: {e}"));
                break;
            }
        };
        if row.is_blank() {
            continue;
        }
        let Some(m) = map.as_ref() else {
            let texts: Vec<String> = row.cells.iter().map(Cell::as_text).collect();
            if let Some(m) = map_header(&texts, &columns) {
                for (i, name) in &m.unknown {
                    problems.warning(
                        row.place(source, *i),
                        format!("unknown column {name:?} ignored"),
                    );
                }
                map = Some(m);
            }
            continue;
        };
        let Some(head) = lines::head(source, m, &mut row, problems) else {
            continue;
        };
        let mut get = |col| lines::take(source, m, &mut row, col);
        let line = RawLine {
            seat: head.seat,
            won: get(WON),
            score: get(SCORE),
            tiles: get(TILES),
        };
        grouper.add(head, line, problems);
    }
    grouper
        .cards
        .into_iter()
        .map(|g| RawCard {
            key: g.key,
            layout: Layout::Results,
            source: source.clone(),
            place: g.place,
            seats: g.seats,
            games: g
                .games
                .into_iter()
                .map(|(number, place, lines)| RawGame {
                    number,
                    place,
                    lines,
                })
                .collect(),
            total: None,
            defective: g.defective,
        })
        .collect()
}
