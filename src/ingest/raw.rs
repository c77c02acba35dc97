//! Cards as read, before any check: each value still a [`Cell`] with its
//! place, so that the checks of RULES.md section 5 can name it.

use super::cell::Cell;
use crate::domain::{CardKey, Seat};
use crate::place::{Place, Source};

#[derive(Clone, Debug)]
pub struct RawCell {
    pub value: Cell,
    pub place: Place,
}

impl RawCell {
    pub fn is_blank(&self) -> bool {
        self.value.is_empty()
    }
}

/// The player named for a seat, and where.
#[derive(Clone, Debug)]
pub struct RawSeat {
    pub seat: Seat,
    pub player: String,
    pub place: Place,
}

/// One seat's three values in one game (or in the Total line).
#[derive(Clone, Debug)]
pub struct RawLine {
    pub seat: Seat,
    pub won: RawCell,
    pub score: RawCell,
    pub tiles: RawCell,
}

impl RawLine {
    /// All three cells blank: the seat did not play this game.
    pub fn is_blank(&self) -> bool {
        self.won.is_blank() && self.score.is_blank() && self.tiles.is_blank()
    }
}

#[derive(Clone, Debug)]
pub struct RawGame {
    pub number: u32,
    /// The game's row (score card) or its first line (results layout).
    pub place: Place,
    pub lines: Vec<RawLine>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Results,
    ScoreCard,
    /// Computed from the racks layout.
    Racks,
}

/// One table's card in one session, as read.
#[derive(Clone, Debug)]
pub struct RawCard {
    pub key: CardKey,
    pub layout: Layout,
    pub source: Source,
    /// Where the card is named (its first line, or its session label).
    pub place: Place,
    pub seats: Vec<RawSeat>,
    pub games: Vec<RawGame>,
    pub total: Option<RawGame>,
    /// A reader already reported an error for this card: it must not count.
    pub defective: bool,
}

impl RawCard {
    pub fn seat(&self, seat: Seat) -> Option<&RawSeat> {
        self.seats.iter().find(|s| s.seat == seat)
    }
}
