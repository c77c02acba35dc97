//! Cards as read, before any check: the one form every reader gives (a
//! results or racks file, a printed score card, the event's store), each
//! value still a [`Cell`] with where it stands, so that the checks of
//! RULES.md section 5 ([`crate::rules::card_checks`]) can read it and name
//! its place.
//!
//! A card holds its [`Source`] once; its values hold an [`At`] (row and
//! column), made a [`Place`] only when a message needs one.

use super::cell::{Cell, Text};
use super::lines::Line;
use crate::domain::{CardKey, Seat};
use crate::place::{At, Place, Source};

#[derive(Clone, Debug)]
pub struct RawCell {
    pub value: Cell,
    pub at: At,
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
    pub player: Text,
    pub at: At,
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

/// One game of a card as read: its number, where it is (its row on a
/// printed card, its first line in a file), and its lines.
#[derive(Clone, Debug)]
pub struct GameLines<L> {
    pub number: u32,
    pub at: At,
    pub lines: Vec<L>,
}

pub type RawGame = GameLines<RawLine>;

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
    /// Where the card is: its first line, or its sheet for a printed card.
    pub at: At,
    /// Where its table is named (a table given twice is reported here): the
    /// cell of the table number on a printed card, else where the card is.
    pub table_at: At,
    pub seats: Vec<RawSeat>,
    /// The lines of a seat that name another player than its first line
    /// (`seats`), each with its player and where: the same player when the
    /// roster says so (an id on one line, the name on another), else an
    /// error ([`crate::rules::card_checks::name_players`]). Empty on almost
    /// every card.
    pub renamed: Vec<RawSeat>,
    /// Where the lines of a seat that has [`RawCard::renamed`] lines name
    /// its first line's player, after that line
    /// ([`crate::ingest::lines::Grouped::agreeing`]): the seat's lines
    /// are counted, the player most of them give being the seat's.
    pub agreeing: Vec<(Seat, At)>,
    pub games: Vec<RawGame>,
    pub total: Option<RawGame>,
    /// A reader already reported an error for this card: it must not count.
    pub defective: bool,
    /// Lines of the card its reader could not place (said at each line).
    pub lost: LostLines,
    /// A printed card whose stage no `Stage:` label gives: its title, to
    /// be read against the event's stages
    /// ([`super::scorecard::settle_stage`]); until then the stage is the
    /// reader's guess from the built-in stage words.
    pub title: Option<CardTitle>,
}

/// A printed card's title, as [`RawCard::title`] keeps it: the text of the
/// cell that says "Score Card" (or 計分卡) and where it is; no cell when
/// the card has no title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardTitle {
    pub text: String,
    pub at: Option<At>,
}

/// The lines of a card that could not be placed on it: their game, seat
/// or card is unreadable (an error said at the line), so the card's counts (seats
/// seated, players in a game, games played, a game's sum) are short by
/// them. What the counts would say of those games follows from the error
/// already said, and is not said again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LostLines {
    /// The games that lost a line (their number read), or whose cell the
    /// reader refused with an error of its own (a printed card's cell
    /// inside a merged range): their checks are left to those errors.
    pub games: Vec<u32>,
    /// A line whose game could not be read was lost: any game may be short.
    pub unknown_game: bool,
    /// Lines whose own card could not be read (a session or table blank),
    /// by game and seat where read, that came after a line of this card
    /// and name it ([`super::lines::Lost::may_be_on`]). Which of them are
    /// this card's is the rules' to say ([`LostLines::of_card`]).
    pub unread: Vec<(Option<u32>, Option<Seat>)>,
}

impl LostLines {
    /// Whether any line was lost.
    pub fn any(&self) -> bool {
        self.unknown_game || !self.games.is_empty()
    }

    /// Whether game `number` may be short of a line.
    pub fn game(&self, number: u32) -> bool {
        self.unknown_game || self.games.contains(&number)
    }

    /// A line of game `game` (`None`: unreadable) was lost.
    pub fn add(&mut self, game: Option<u32>) {
        match game {
            Some(n) if !self.games.contains(&n) => self.games.push(n),
            Some(_) => {}
            None => self.unknown_game = true,
        }
    }

    /// A line whose card could not be read, of game `game` and seat
    /// `seat` (`None`: unreadable), may be a line of this card.
    pub fn add_unread(&mut self, game: Option<u32>, seat: Option<Seat>) {
        self.unread.push((game, seat));
    }

    /// The lines lost from a card whose rules play `games` games a
    /// session, its lines `lines` as grouped: those lost from it, and
    /// those whose card could not be read ([`LostLines::unread`]) that may
    /// be its: of a game it plays (any, when their game is unreadable) and
    /// of a seat it has no line of in that game. The others are lines of
    /// no card, and are left out (their errors are their own). The one
    /// place that decides which lost lines a card's checks leave out.
    pub fn of_card<L: Line>(&self, games: u32, lines: &[GameLines<L>]) -> LostLines {
        let mut lost = LostLines {
            games: self.games.clone(),
            unknown_game: self.unknown_game,
            unread: Vec::new(),
        };
        for &(game, seat) in &self.unread {
            let free = |n: u32| {
                seat.is_none_or(|s| {
                    !lines
                        .iter()
                        .any(|g| g.number == n && g.lines.iter().any(|l| l.seat() == s))
                })
            };
            match game {
                Some(n) if (1..=games).contains(&n) && free(n) => lost.add(Some(n)),
                None if (1..=games).any(free) => lost.add(None),
                _ => {}
            }
        }
        lost
    }
}

impl RawCard {
    pub fn seat(&self, seat: Seat) -> Option<&RawSeat> {
        self.seats.iter().find(|s| s.seat == seat)
    }

    /// The place `at` names on this card's sheet or file.
    pub fn place_of(&self, at: At) -> Place {
        self.source.place(at)
    }

    /// Where the card is named.
    pub fn place(&self) -> Place {
        self.source.place(self.at)
    }
}
