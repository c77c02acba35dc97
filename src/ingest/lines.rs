//! What the two line layouts share (results and racks: one line per seat per
//! game): the columns that say which card, game and seat a line belongs to,
//! and the grouping of lines into cards.
//!
//! Lines are grouped by stage, session and table in the order the file gives
//! them; the cards of one file are never merged with those of another.

use super::cell::{Cell, Row, Text};
use super::header::{Column, ColumnMap};
use super::raw::{RawCell, RawSeat};
use crate::domain::{CardKey, Label, Seat, Stage};
use crate::place::{At, Source};
use crate::problem::Problems;
use std::collections::HashMap;

/// The columns that place a line, first in both layouts' column lists.
pub const STAGE: usize = 0;
pub const SESSION: usize = 1;
pub const TABLE: usize = 2;
pub const GAME: usize = 3;
pub const SEAT: usize = 4;
pub const PLAYER: usize = 5;

pub const HEAD_COLUMNS: [Column; 6] = [
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
        // `ID` is the header tilerank's own workbooks print for it.
        aliases: &["playerid", "id"],
        required: true,
    },
];

/// Columns both line layouts accept and do not need (FORMATS.md).
pub const OPTIONAL_COLUMNS: [Column; 2] = [
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

/// A whole number such as a game number: `2`, `2.0`, `"2"`.
pub fn whole_number(cell: &Cell) -> Option<u32> {
    match cell {
        Cell::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n < 1e9 => Some(*n as u32),
        Cell::Text(t) => whole_number_text(t),
        _ => None,
    }
}

/// [`whole_number`] of a text: `2`, `2.0`, ` 2 `.
pub fn whole_number_text(t: &str) -> Option<u32> {
    let t = t.trim();
    let t = t.strip_suffix(".0").unwrap_or(t);
    t.parse().ok()
}

/// The cell of column `col` of `row`, with where it is, taken out of the
/// row.
pub fn take(map: &ColumnMap, row: &mut Row, col: usize) -> RawCell {
    match map.get(col) {
        Some(i) => {
            let at = row.at(i);
            let value = row.cells.get_mut(i).map(std::mem::take).unwrap_or_default();
            RawCell { value, at }
        }
        None => RawCell {
            value: Cell::Empty,
            at: At::row(row.number),
        },
    }
}

/// Which card, game and seat a line is, and who sits there.
pub struct Head {
    pub key: CardKey,
    pub game: u32,
    pub seat: Seat,
    pub player: Text,
    pub player_at: At,
    pub row: At,
}

/// The last stage cell read, and the stage it names: most files say one
/// stage (or none) on every line, read once.
#[derive(Default)]
pub struct StageCache(Option<(Text, Stage)>);

impl StageCache {
    fn stage(&mut self, cell: &Cell) -> Stage {
        let text = cell.text_ref();
        match &self.0 {
            Some((t, stage)) if t.as_str() == text => stage.clone(),
            _ => {
                let stage = Stage::new(&text);
                self.0 = Some((Text::from(text.as_ref()), stage.clone()));
                stage
            }
        }
    }
}

/// Reads the head of a line; each unreadable field is an error, and the
/// line is then `None` (it cannot be placed on a card).
pub fn head(
    source: &Source,
    map: &ColumnMap,
    row: &mut Row,
    stages: &mut StageCache,
    problems: &mut Problems,
) -> Option<Head> {
    let mut get = |col| take(map, row, col);
    let (stage, session, table, game, seat, player) = (
        get(STAGE),
        get(SESSION),
        get(TABLE),
        get(GAME),
        get(SEAT),
        get(PLAYER),
    );
    let stage = stages.stage(&stage.value);
    let session_label = Label::session(&session.value.text_ref());
    let table_label = Label::table(&table.value.text_ref());
    let game_number = whole_number(&game.value).filter(|&n| n >= 1);
    let seat_letter = Seat::parse(&seat.value.text_ref());
    let player_name = player.value.into_text();
    if session_label.is_none() {
        problems.error(
            source.place(session.at),
            "session is blank; expected a session such as S01 or 1",
        );
    }
    if table_label.is_none() {
        problems.error(
            source.place(table.at),
            "table is blank; expected a table number such as 7",
        );
    }
    if game_number.is_none() {
        problems.error(
            source.place(game.at),
            format!(
                "game is {}; expected a game number 1, 2, 3...",
                game.value.describe()
            ),
        );
    }
    if seat_letter.is_none() {
        problems.error(
            source.place(seat.at),
            format!("seat is {}; expected A, B, C or D", seat.value.describe()),
        );
    }
    if player_name.is_empty() {
        problems.error(
            source.place(player.at),
            "player is blank; expected a roster id or name",
        );
    }
    Some(Head {
        key: CardKey {
            stage,
            session: session_label?,
            table: table_label?,
        },
        game: game_number?,
        seat: seat_letter?,
        player: Some(player_name).filter(|p| !p.is_empty())?,
        player_at: player.at,
        row: At::row(row.number),
    })
}

/// A line's own values, whatever the layout.
pub trait Line {
    fn seat(&self) -> Seat;
    /// Where the line is, for "given twice" messages.
    fn at(&self) -> At;
}

/// One card's lines, grouped.
pub struct Grouped<L> {
    pub key: CardKey,
    pub at: At,
    pub seats: Vec<RawSeat>,
    /// Games in the order first seen: number, where its first line is, lines.
    pub games: Vec<(u32, At, Vec<L>)>,
    pub defective: bool,
}

/// Groups the lines of one source into cards: the lines of a card may be
/// anywhere in the source. Lines one after another of the same card (the
/// usual file) find their card without a look-up.
pub struct Grouper<L> {
    source: Source,
    pub cards: Vec<Grouped<L>>,
    index: HashMap<CardKey, usize>,
}

impl<L: Line> Grouper<L> {
    pub fn new(source: &Source) -> Grouper<L> {
        Grouper {
            source: source.clone(),
            cards: Vec::new(),
            index: HashMap::new(),
        }
    }

    pub fn add(&mut self, head: Head, line: L, problems: &mut Problems) {
        let last = self.cards.len().checked_sub(1);
        let idx = match last.filter(|&i| self.cards[i].key == head.key) {
            Some(i) => i,
            None => match self.index.get(&head.key) {
                Some(&i) => i,
                None => {
                    self.index.insert(head.key.clone(), self.cards.len());
                    self.cards.push(Grouped {
                        key: head.key,
                        at: head.row,
                        seats: Vec::with_capacity(4),
                        games: Vec::new(),
                        defective: false,
                    });
                    self.cards.len() - 1
                }
            },
        };
        let card = &mut self.cards[idx];
        let seat = head.seat;
        match card.seats.iter().find(|s| s.seat == seat) {
            Some(known)
                if known.player != head.player && !same_player(&known.player, &head.player) =>
            {
                problems.error(
                    self.source.place(head.player_at),
                    format!(
                        "seat {seat} is {:?} here but {:?} at {}; a seat keeps its player for the whole card",
                        head.player.as_str(),
                        known.player.as_str(),
                        self.source.place(known.at)
                    ),
                );
                card.defective = true;
            }
            Some(_) => {}
            None => {
                card.seats.push(RawSeat {
                    seat,
                    player: head.player,
                    at: head.player_at,
                });
                card.seats.sort_by_key(|s| s.seat);
            }
        }
        let number = head.game;
        let game = match card.games.iter().position(|g| g.0 == number) {
            Some(i) => &mut card.games[i],
            None => {
                card.games.push((number, head.row, Vec::with_capacity(4)));
                card.games.last_mut().expect("just pushed")
            }
        };
        if let Some(first) = game.2.iter().find(|l| l.seat() == seat) {
            problems.error(
                self.source.place(head.row),
                format!(
                    "seat {seat} of game {number} is given twice (first at {}); expected one line per seat per game",
                    self.source.place(first.at())
                ),
            );
            card.defective = true;
            return;
        }
        game.2.push(line);
    }
}

fn same_player(a: &str, b: &str) -> bool {
    crate::roster::match_key(a) == crate::roster::match_key(b)
}
