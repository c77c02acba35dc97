//! The results layout (FORMATS.md): one line per seat per game.
//!
//! ```text
//! session,table,game,seat,player,won,score,tiles
//! S01,7,1,A,P0001,0,+11,3
//! ```
//!
//! Lines are grouped into cards by stage, session and table, in the order
//! the file gives them; the cards of one file are never merged with those
//! of another.

use super::cell::{Cell, Row};
use super::header::{map_header, Column, ColumnMap};
use super::raw::{Layout, RawCard, RawCell, RawGame, RawLine, RawSeat};
use crate::domain::{CardKey, Label, Seat, Stage};
use crate::place::Source;
use crate::problem::Problems;
use std::collections::HashMap;

const STAGE: usize = 0;
const SESSION: usize = 1;
const TABLE: usize = 2;
const GAME: usize = 3;
const SEAT: usize = 4;
const PLAYER: usize = 5;
const WON: usize = 6;
const SCORE: usize = 7;
const TILES: usize = 8;

pub const COLUMNS: [Column; 11] = [
    Column {
        name: "stage",
        aliases: &[],
        required: false,
    },
    Column {
        name: "session",
        aliases: &["sessionnumber", "sessionno"],
        required: true,
    },
    Column {
        name: "table",
        aliases: &["tablenumber", "tableno"],
        required: true,
    },
    Column {
        name: "game",
        aliases: &["gamenumber", "gameno"],
        required: true,
    },
    Column {
        name: "seat",
        aliases: &[],
        required: true,
    },
    Column {
        name: "player",
        aliases: &["playerid"],
        required: true,
    },
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
];

pub fn is_header(texts: &[String]) -> bool {
    map_header(texts, &COLUMNS).is_some()
}

/// A whole number such as a game number: `2`, `2.0`, `"2"`.
pub fn whole_number(cell: &Cell) -> Option<u32> {
    match cell {
        Cell::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n < 1e9 => Some(*n as u32),
        Cell::Text(t) => {
            let t = t.trim();
            let t = t.strip_suffix(".0").unwrap_or(t);
            t.parse().ok()
        }
        _ => None,
    }
}

struct Reader<'a> {
    source: &'a Source,
    map: ColumnMap,
    cards: Vec<RawCard>,
    index: HashMap<CardKey, usize>,
}

pub fn read(
    source: &Source,
    rows: impl Iterator<Item = Result<Row, String>>,
    problems: &mut Problems,
) -> Vec<RawCard> {
    let mut reader: Option<Reader> = None;
    for row in rows {
        let row = match row {
            Ok(row) => row,
            Err(e) => {
                problems.error(source.whole(), format!("cannot be read as CSV: {e}"));
                break;
            }
        };
        if row.is_blank() {
            continue;
        }
        match reader.as_mut() {
            None => {
                let texts: Vec<String> = row.cells.iter().map(Cell::as_text).collect();
                if let Some(map) = map_header(&texts, &COLUMNS) {
                    for (i, name) in &map.unknown {
                        problems.warning(
                            row.place(source, *i),
                            format!("unknown column {name:?} ignored"),
                        );
                    }
                    reader = Some(Reader {
                        source,
                        map,
                        cards: Vec::new(),
                        index: HashMap::new(),
                    });
                }
            }
            Some(r) => r.line(&row, problems),
        }
    }
    reader.map(|r| r.cards).unwrap_or_default()
}

impl Reader<'_> {
    fn cell(&self, row: &Row, col: usize) -> RawCell {
        match self.map.get(col) {
            Some(i) => RawCell {
                value: row.get(i).clone(),
                place: row.place(self.source, i),
            },
            None => RawCell {
                value: Cell::Empty,
                place: self.source.at(row.number, None),
            },
        }
    }

    fn line(&mut self, row: &Row, problems: &mut Problems) {
        let stage = self.cell(row, STAGE);
        let session = self.cell(row, SESSION);
        let table = self.cell(row, TABLE);
        let game = self.cell(row, GAME);
        let seat = self.cell(row, SEAT);
        let player = self.cell(row, PLAYER);

        let stage = Stage::new(&stage.value.as_text());
        let session_label = Label::session(&session.value.as_text());
        let table_label = Label::table(&table.value.as_text());
        let game_number = whole_number(&game.value).filter(|&n| n >= 1);
        let seat_letter = Seat::parse(&seat.value.as_text());
        let mut ok = true;
        if session_label.is_none() {
            problems.error(
                session.place.clone(),
                "session is blank; expected a session such as S01 or 1",
            );
            ok = false;
        }
        if table_label.is_none() {
            problems.error(
                table.place.clone(),
                "table is blank; expected a table number such as 7",
            );
            ok = false;
        }
        if game_number.is_none() {
            problems.error(
                game.place.clone(),
                format!(
                    "game is {}; expected a game number 1, 2, 3...",
                    game.value.describe()
                ),
            );
            ok = false;
        }
        if seat_letter.is_none() {
            problems.error(
                seat.place.clone(),
                format!("seat is {}; expected A, B, C or D", seat.value.describe()),
            );
            ok = false;
        }
        let player_name = player.value.as_text();
        if player_name.is_empty() {
            problems.error(
                player.place.clone(),
                "player is blank; expected a roster id or name",
            );
            ok = false;
        }
        let (Some(session), Some(table), Some(number), Some(seat), true) =
            (session_label, table_label, game_number, seat_letter, ok)
        else {
            // The line cannot be placed on a card; if its card exists, it must not count.
            return;
        };

        let line = RawLine {
            seat,
            won: self.cell(row, WON),
            score: self.cell(row, SCORE),
            tiles: self.cell(row, TILES),
        };
        let key = CardKey {
            stage,
            session,
            table,
        };
        let idx = *self.index.entry(key.clone()).or_insert_with(|| {
            self.cards.push(RawCard {
                key,
                layout: Layout::Results,
                source: self.source.clone(),
                place: self.source.at(row.number, None),
                seats: Vec::new(),
                games: Vec::new(),
                total: None,
                defective: false,
            });
            self.cards.len() - 1
        });
        let card = &mut self.cards[idx];

        match card.seats.iter().find(|s| s.seat == seat) {
            Some(known) if !same_player(&known.player, &player_name) => {
                problems.error(
                    player.place.clone(),
                    format!(
                        "seat {seat} is {:?} here but {:?} at {}; a seat keeps its player for the whole card",
                        player_name, known.player, known.place
                    ),
                );
                card.defective = true;
            }
            Some(_) => {}
            None => {
                card.seats.push(RawSeat {
                    seat,
                    player: player_name,
                    place: player.place.clone(),
                });
                card.seats.sort_by_key(|s| s.seat);
            }
        }

        let game_idx = match card.games.iter().position(|g| g.number == number) {
            Some(i) => i,
            None => {
                card.games.push(RawGame {
                    number,
                    place: self.source.at(row.number, None),
                    lines: Vec::new(),
                });
                card.games.len() - 1
            }
        };
        let game = &mut card.games[game_idx];
        if let Some(first) = game.lines.iter().find(|l| l.seat == seat) {
            problems.error(
                self.source.at(row.number, None),
                format!(
                    "seat {seat} of game {number} is given twice (first at {}); expected one line per seat per game",
                    first.won.place
                ),
            );
            card.defective = true;
            return;
        }
        game.lines.push(line);
    }
}

fn same_player(a: &str, b: &str) -> bool {
    crate::roster::match_key(a) == crate::roster::match_key(b)
}
