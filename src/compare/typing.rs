//! Double entry: two typings of the same cards, compared card by card and
//! value by value.
//!
//! What is the same (README, "The data-entry desk"):
//!
//! - Cards are matched by stage, session and table ([`CardKey`]), whatever
//!   file, sheet or layout holds them: a workbook of printed cards can be
//!   compared with a results-layout CSV.
//! - Values are compared after reading, as the checks read them
//!   ([`parse_won`], [`parse_score`], [`parse_tiles`]): `+30`, `30.0` and `30`
//!   agree. Values that do not read are compared as typed (case and spacing
//!   ignored), so the same slip in both typings is left to `check`.
//! - A seat's player is the same when both typings write the same text (case
//!   and spacing ignored), or when both name the same roster entry, one by id
//!   and the other by name. Without a roster an id and a name differ.
//!   Where a line names another player than its seat's first line (in
//!   either typing), that line's player is compared too.
//! - A seat blank in a game (won, score and tiles all blank) has no line
//!   there. A `Total` line is compared only when both typings have one (the
//!   line layouts have none), each value where both typings give it: a
//!   `Total` value left blank, or given as a formula with no saved value,
//!   is not compared (the checks compute it from the games).
//! - Racks are scored first (RULES.md sections 2 to 4); their computed values
//!   are compared at the places of the typed racks.
//!
//! Each [`Difference`] is one thing to look at on the signed card: the
//! players of a card, one game, the `Total` line, or a card (or game) typed
//! in only one typing. It lists every value that differs, with both places,
//! and when all that differs is two seats' lines (or players) exchanged,
//! asks whether those seats are swapped ([`Difference::swapped`]).

use crate::domain::{CardKey, Label, Seat, SessionName, Stage};
use crate::ingest::cell::Cell;
use crate::ingest::raw::{Layout, RawCard, RawCell, RawGame, RawLine, RawSeat};
use crate::ingest::{self, InputError};
use crate::place::{At, Place};
use crate::problem::Problems;
use crate::profile::Rules;
use crate::roster::{match_key, Roster};
use crate::rules::card_checks::{parse_score, parse_tiles, parse_won};
use crate::score::Score;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

/// Which typing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first typing",
            Side::Second => "second typing",
        })
    }
}

/// One typing of the cards, as read.
#[derive(Debug, Default)]
pub struct Typing {
    pub cards: Vec<RawCard>,
    /// Cards in the racks layout whose racks could not be scored (their
    /// errors are among the reading problems): which card, and where.
    pub unscored: Vec<(CardKey, Place)>,
    pub files: usize,
    pub sheets: usize,
}

impl Typing {
    /// Reads every card of the inputs (files or folders, any layout and
    /// format); racks are scored under `rules`. The cards are of `stage`
    /// when one is given, else of the stage they say
    /// ([`ingest::CardInputs::set_stage`]). Data problems go to
    /// `problems`; a file that cannot be read at all is an [`InputError`].
    pub fn read(
        inputs: &[PathBuf],
        rules: &Rules,
        stage: Option<&str>,
        problems: &mut Problems,
    ) -> Result<Typing, InputError> {
        let mut read = ingest::read_cards(inputs, problems)?;
        read.set_stage(stage, &rules.stages, problems);
        let mut typing = Typing {
            cards: read.cards,
            unscored: Vec::new(),
            files: read.files,
            sheets: read.sheets,
        };
        for rack_card in read.rack_cards {
            let key = rack_card.grouped.key.clone();
            let place = rack_card.source.place(rack_card.grouped.at);
            match ingest::racks::score_card(&rack_card, rules, problems) {
                Some(card) => typing.cards.push(card),
                None => typing.unscored.push((key, place)),
            }
        }
        Ok(typing)
    }

    /// How many cards the typing holds, read or not.
    pub fn card_count(&self) -> usize {
        self.cards.len() + self.unscored.len()
    }
}

/// What part of a card differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// The card is typed in one typing only.
    OnlyIn(Side),
    /// The card is typed twice in one typing (again at `again`).
    Twice { side: Side, again: Place },
    /// The card's racks could not be scored in one typing.
    Unscored(Side),
    /// The players of the seats.
    Players,
    /// A game typed in one typing only.
    GameOnlyIn(u32, Side),
    /// The values of a game.
    Game(u32),
    /// The values of the `Total` line.
    Total,
}

/// One value that differs, with both places and both values as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellDiff {
    /// What the value is: `seat A score`, `seat C player`.
    pub what: String,
    pub first: Place,
    pub first_value: String,
    pub second: Place,
    pub second_value: String,
}

impl fmt::Display for CellDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} vs {}: {} {} vs {}",
            self.first, self.second, self.what, self.first_value, self.second_value
        )
    }
}

/// One thing to look at on the signed card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub key: CardKey,
    pub part: Part,
    /// Where the part is in the first typing, when it is there.
    pub first: Option<Place>,
    /// Where the part is in the second typing, when it is there.
    pub second: Option<Place>,
    /// The values that differ (none for a card or game in one typing only).
    pub cells: Vec<CellDiff>,
    /// The two seats whose lines (or players) are exchanged between the
    /// typings, when that is all that differs: what the first typing has
    /// at one seat the second has at the other, and the other way round,
    /// and no other seat differs. Said after the values, as a question
    /// (which typing slipped is for the signed card to say).
    pub swapped: Option<(Seat, Seat)>,
}

fn values(n: usize) -> String {
    if n == 1 {
        "1 value differs".to_string()
    } else {
        format!("{n} values differ")
    }
}

impl fmt::Display for Difference {
    /// A headline (both places, the card, what differs), then one indented
    /// line per value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.first, &self.second) {
            (Some(a), Some(b)) => write!(f, "{a} vs {b}: ")?,
            (Some(a), None) | (None, Some(a)) => write!(f, "{a}: ")?,
            (None, None) => {}
        }
        write!(f, "{}: ", self.key)?;
        match &self.part {
            Part::OnlyIn(side) => write!(
                f,
                "only in the {side}; the other typing has no such card (a missing card, or a wrong session or table number?)"
            )?,
            Part::Twice { side, again } => write!(
                f,
                "typed twice in the {side} (again at {again}); expected once"
            )?,
            Part::Unscored(side) => write!(
                f,
                "its racks could not be scored in the {side} (errors listed above)"
            )?,
            Part::Players => write!(f, "the players differ")?,
            Part::GameOnlyIn(n, side) => write!(f, "game {n} is only in the {side}")?,
            Part::Game(n) => write!(f, "game {n}: {}", values(self.cells.len()))?,
            Part::Total => write!(f, "the Total line: {}", values(self.cells.len()))?,
        }
        for cell in &self.cells {
            write!(f, "\n  {cell}")?;
        }
        if let Some((p, q)) = self.swapped {
            write!(f, "\n  ")?;
            if let (Some(a), Some(b)) = (&self.first, &self.second) {
                write!(f, "{a} vs {b}: ")?;
            }
            let what = match self.part {
                Part::Players => "player",
                Part::Total => "Total",
                _ => "line",
            };
            write!(
                f,
                "seats {p} and {q} swapped? {p}'s {what} in one typing is {q}'s in the other, and {q}'s is {p}'s"
            )?;
        }
        Ok(())
    }
}

/// The outcome of comparing two typings.
#[derive(Debug, Default)]
pub struct Comparison {
    /// Sorted by card, then part.
    pub differences: Vec<Difference>,
    /// The cards in both typings that agree value for value.
    pub agreed: Vec<CardKey>,
}

/// Cards only in one typing said in one line for their session, from
/// this many on ([`Comparison::lines`]): a typing of part of a session
/// (one typist's half) beside the whole one.
const GROUPED_FROM: usize = 3;

/// A line of what `compare` prints: a difference, or the cards of a
/// session only in one typing, three or more (`GROUPED_FROM`), said together
/// where the first of them is.
#[derive(Debug)]
pub enum Line<'a> {
    One(&'a Difference),
    OnlyIn {
        side: Side,
        /// The first of them, which the line's place and session are.
        first: &'a Difference,
        /// Their tables, in order.
        tables: Vec<&'a Label>,
    },
}

impl Comparison {
    /// The differences as lines to print ([`lines`]).
    pub fn lines(&self) -> Vec<Line<'_>> {
        lines(&self.differences)
    }
}

/// `differences` (in a [`Comparison`]'s order) as lines to print, in
/// order: the cards of a session only in one typing grouped
/// ([`Line::OnlyIn`]) when there are three or more (`GROUPED_FROM`), in
/// the place of the first; `compare` and a double-entry import alike.
pub fn lines(differences: &[Difference]) -> Vec<Line<'_>> {
    let session = |d: &Difference| (d.key.stage.clone(), d.key.session.clone());
    let mut only: BTreeMap<_, Vec<&Difference>> = BTreeMap::new();
    for d in differences {
        if let Part::OnlyIn(side) = d.part {
            only.entry((session(d), side)).or_default().push(d);
        }
    }
    let mut lines = Vec::new();
    for d in differences {
        let Part::OnlyIn(side) = d.part else {
            lines.push(Line::One(d));
            continue;
        };
        match only.get(&(session(d), side)) {
            Some(group) if group.len() >= GROUPED_FROM => {
                if std::ptr::eq(group[0], d) {
                    lines.push(Line::OnlyIn {
                        side,
                        first: d,
                        tables: group.iter().map(|d| &d.key.table).collect(),
                    });
                }
            }
            _ => lines.push(Line::One(d)),
        }
    }
    lines
}

impl fmt::Display for Line<'_> {
    /// A difference as [`Difference`] says it; grouped cards as one card
    /// only in one typing is said, their session's tables listed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (side, first, tables) = match self {
            Line::One(d) => return d.fmt(f),
            Line::OnlyIn {
                side,
                first,
                tables,
            } => (side, first, tables),
        };
        if let Some(place) = first.first.as_ref().or(first.second.as_ref()) {
            write!(f, "{place}: ")?;
        }
        let key = &first.key;
        if key.stage.as_str() != Stage::DEFAULT {
            write!(f, "{} ", key.stage)?;
        }
        write!(
            f,
            "session {} tables {}: only in the {side} ({} cards); the other typing has no such cards (missing cards, or a wrong session or table numbers?)",
            SessionName(&key.session),
            Label::ranges(tables.iter().copied()),
            tables.len()
        )
    }
}

/// Compares two typings card by card. `roster` tells an id and a name of
/// the same player apart from two players (an empty roster: by text only).
pub fn compare(first: &Typing, second: &Typing, rules: &Rules, roster: &Roster) -> Comparison {
    let (a, b) = (index(first), index(second));
    let unscored = |t: &Typing, key: &CardKey| {
        t.unscored
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, p)| p.clone())
    };
    let keys: BTreeSet<&CardKey> = a
        .keys()
        .chain(b.keys())
        .chain(first.unscored.iter().map(|(k, _)| k))
        .chain(second.unscored.iter().map(|(k, _)| k))
        .collect();
    let mut out = Comparison::default();
    for key in keys {
        let none = Vec::new();
        let (xs, ys) = (a.get(key).unwrap_or(&none), b.get(key).unwrap_or(&none));
        let (x, y) = (xs.first().copied(), ys.first().copied());
        let mut found = Vec::new();
        for (side, cards) in [(Side::First, xs), (Side::Second, ys)] {
            for again in cards.iter().skip(1) {
                found.push(Difference {
                    key: key.clone(),
                    part: Part::Twice {
                        side,
                        again: again.place(),
                    },
                    first: x.filter(|_| side == Side::First).map(RawCard::place),
                    second: y.filter(|_| side == Side::Second).map(RawCard::place),
                    cells: Vec::new(),
                    swapped: None,
                });
            }
        }
        if found.is_empty() {
            let (ua, ub) = (unscored(first, key), unscored(second, key));
            let whole = |part, first, second| Difference {
                key: key.clone(),
                part,
                first,
                second,
                cells: Vec::new(),
                swapped: None,
            };
            let place = |c: Option<&RawCard>| c.map(RawCard::place);
            match (x, y) {
                (Some(x), Some(y)) => found.extend(compare_cards(x, y, rules, roster)),
                (Some(x), None) => found.push(match ub {
                    Some(p) => whole(Part::Unscored(Side::Second), place(Some(x)), Some(p)),
                    None => whole(Part::OnlyIn(Side::First), place(Some(x)), None),
                }),
                (None, Some(y)) => found.push(match ua {
                    Some(p) => whole(Part::Unscored(Side::First), Some(p), place(Some(y))),
                    None => whole(Part::OnlyIn(Side::Second), None, place(Some(y))),
                }),
                (None, None) => {
                    if ua.is_some() {
                        found.push(whole(Part::Unscored(Side::First), ua, None));
                    }
                    if ub.is_some() {
                        found.push(whole(Part::Unscored(Side::Second), None, ub));
                    }
                }
            }
        }
        if found.is_empty() {
            out.agreed.push(key.clone());
        }
        out.differences.extend(found);
    }
    out
}

fn index(typing: &Typing) -> BTreeMap<CardKey, Vec<&RawCard>> {
    let mut map: BTreeMap<CardKey, Vec<&RawCard>> = BTreeMap::new();
    for card in &typing.cards {
        map.entry(card.key.clone()).or_default().push(card);
    }
    map
}

/// Double entry: the cards of the first typing that the second typing
/// confirms value for value, the differences that hold the others back,
/// and the second typing's cards left out.
///
/// The second typing may hold more than the files imported (a folder of
/// every session typed so far, a whole session's file beside one table's
/// card). A card only in the second typing is listed when it may be a
/// card the first typing has under another table number: the first
/// typing has a card of its stage and session that the second lacks, with
/// the same players (any seats), or one whose racks could not be scored.
/// Otherwise it is a table not imported now: left out (given back in the
/// order of the keys, to be named, not held against the import).
pub fn agreeing(
    first: Typing,
    second: &Typing,
    rules: &Rules,
    roster: &Roster,
) -> (Vec<RawCard>, Vec<Difference>, Vec<CardKey>) {
    let comparison = compare(&first, second, rules, roster);
    let card_of = |t: &'_ Typing, key: &CardKey| t.cards.iter().find(|c| c.key == *key).cloned();
    // the first-typed cards the second typing has not (their players
    // unknown when their racks could not be scored)
    let unmatched: Vec<(CardKey, Option<RawCard>)> = comparison
        .differences
        .iter()
        .filter(|d| match d.part {
            Part::OnlyIn(Side::First) => true,
            Part::Unscored(Side::First) => d.second.is_none(),
            _ => false,
        })
        .map(|d| (d.key.clone(), card_of(&first, &d.key)))
        .collect();
    let may_be_one = |key: &CardKey| {
        let Some(theirs) = card_of(second, key) else {
            return true;
        };
        unmatched.iter().any(|(k, card)| {
            k.stage == key.stage
                && k.session == key.session
                && card
                    .as_ref()
                    .is_none_or(|c| same_players(c, &theirs, roster))
        })
    };
    let (differences, left_out): (Vec<Difference>, Vec<Difference>) = comparison
        .differences
        .into_iter()
        .partition(|d| d.part != Part::OnlyIn(Side::Second) || may_be_one(&d.key));
    let held: BTreeSet<&CardKey> = differences.iter().map(|d| &d.key).collect();
    let agreed = first
        .cards
        .iter()
        .filter(|c| !held.contains(&c.key))
        .cloned()
        .collect();
    (
        agreed,
        differences,
        left_out.into_iter().map(|d| d.key).collect(),
    )
}

/// Two cards seat the same players, whatever their seats.
fn same_players(a: &RawCard, b: &RawCard, roster: &Roster) -> bool {
    a.seats.len() == b.seats.len()
        && a.seats.iter().all(|p| {
            b.seats
                .iter()
                .any(|q| same_player(&p.player, &q.player, roster))
        })
}

/// The differences between two typings of one card.
fn compare_cards(x: &RawCard, y: &RawCard, rules: &Rules, roster: &Roster) -> Vec<Difference> {
    let mut found = Vec::new();
    let difference = |part, first: At, second: At, (cells, swapped)| Difference {
        key: x.key.clone(),
        part,
        first: Some(x.place_of(first)),
        second: Some(y.place_of(second)),
        cells,
        swapped,
    };

    let mut players = Vec::new();
    let mut differing = Vec::new();
    for seat in Seat::ALL {
        let quoted = |s: Option<&RawSeat>| {
            s.map_or("blank".to_string(), |s| {
                crate::ingest::cell::quoted(&s.player).to_string()
            })
        };
        let (p, q) = (x.seat(seat), y.seat(seat));
        let same = match (p, q) {
            (Some(p), Some(q)) => same_player(&p.player, &q.player, roster),
            (None, None) => true,
            _ => false,
        };
        if !same {
            differing.push(seat);
            players.push(CellDiff {
                what: format!("seat {seat} player"),
                first: x.place_of(p.map_or(x.at, |p| p.at)),
                first_value: quoted(p),
                second: y.place_of(q.map_or(y.at, |q| q.at)),
                second_value: quoted(q),
            });
        }
    }
    let (gx, gy) = (played(x), played(y));
    // A line after a seat's first may name another player (an error of
    // `check`, or the same player by id and by name): where either
    // typing's line of a game does, the two lines' players are compared
    // too, at those lines.
    let seat_players = players.len();
    for (n, g) in &gx {
        let Some(h) = gy.get(n) else { continue };
        for seat in Seat::ALL {
            let (Some(l), Some(m)) = (typed_line(g, seat), typed_line(h, seat)) else {
                continue;
            };
            let (Some((p, p_at, p_own)), Some((q, q_at, q_own))) =
                (line_player(x, l), line_player(y, m))
            else {
                continue;
            };
            if (p_own || q_own) && !same_player(&p.player, &q.player, roster) {
                players.push(CellDiff {
                    what: format!("seat {seat} player in game {n}"),
                    first: x.place_of(p_at),
                    first_value: crate::ingest::cell::quoted(&p.player).to_string(),
                    second: y.place_of(q_at),
                    second_value: crate::ingest::cell::quoted(&q.player).to_string(),
                });
            }
        }
    }
    if !players.is_empty() {
        let exchanged = |p: Seat, q: Seat| match (x.seat(p), y.seat(q)) {
            (Some(p), Some(q)) => same_player(&p.player, &q.player, roster),
            _ => false,
        };
        // (two seats exchanged only when no single line differs besides)
        let swapped = swapped(&differing, exchanged).filter(|_| players.len() == seat_players);
        found.push(difference(Part::Players, x.at, y.at, (players, swapped)));
    }

    let numbers: BTreeSet<u32> = gx.keys().chain(gy.keys()).copied().collect();
    for n in numbers {
        match (gx.get(&n), gy.get(&n)) {
            (Some(g), Some(h)) => {
                let (mut cells, swapped) = compare_lines((x, g), (y, h), rules, false);
                // Racks are typed, their won and score computed: say so.
                if x.layout == Layout::Racks || y.layout == Layout::Racks {
                    for c in cells
                        .iter_mut()
                        .filter(|c| c.what.ends_with("score") || c.what.ends_with("won"))
                    {
                        c.what.push_str(" (scored from the racks)");
                    }
                }
                if !cells.is_empty() {
                    found.push(difference(Part::Game(n), g.at, h.at, (cells, swapped)));
                }
            }
            (Some(g), None) => found.push(difference(
                Part::GameOnlyIn(n, Side::First),
                g.at,
                y.at,
                (vec![], None),
            )),
            (None, Some(h)) => found.push(difference(
                Part::GameOnlyIn(n, Side::Second),
                x.at,
                h.at,
                (vec![], None),
            )),
            (None, None) => {}
        }
    }

    if let (Some(g), Some(h)) = (&x.total, &y.total) {
        let (cells, swapped) = compare_lines((x, g), (y, h), rules, true);
        if !cells.is_empty() {
            found.push(difference(Part::Total, g.at, h.at, (cells, swapped)));
        }
    }
    found
}

/// The games with at least one seat typed, by number (the first of a
/// number typed twice: the checks report the second).
fn played(card: &RawCard) -> BTreeMap<u32, &RawGame> {
    let mut map = BTreeMap::new();
    for g in card
        .games
        .iter()
        .filter(|g| g.lines.iter().any(|l| !l.is_blank()))
    {
        map.entry(g.number).or_insert(g);
    }
    map
}

/// The line of `seat` in a game, when it is typed (not blank).
fn typed_line(game: &RawGame, seat: Seat) -> Option<&RawLine> {
    game.lines.iter().find(|l| l.seat == seat && !l.is_blank())
}

/// The player a game's line names, where, and whether the line names it
/// itself: the line's own player when it names another than its seat's
/// first line ([`RawCard::renamed`]), else its seat's, at the line's row
/// on a card of a line per seat and game (`None`: the seat has no player).
fn line_player<'a>(card: &'a RawCard, line: &RawLine) -> Option<(&'a RawSeat, At, bool)> {
    let row = line_at(line).row;
    if let Some(own) = card
        .renamed
        .iter()
        .find(|r| r.seat == line.seat && r.at.row == row)
    {
        return Some((own, own.at, true));
    }
    let seat = card.seat(line.seat)?;
    let at = match card.layout {
        Layout::ScoreCard => seat.at,
        Layout::Results | Layout::Racks => At::cell(row, seat.at.col),
    };
    Some((seat, at, false))
}

/// The values that differ between two typings of a game's (or the Total's)
/// lines, seat by seat, and the two seats whose lines are exchanged when
/// that is all that differs ([`swapped`]).
fn compare_lines(
    (x, gx): (&RawCard, &RawGame),
    (y, gy): (&RawCard, &RawGame),
    rules: &Rules,
    totals: bool,
) -> (Vec<CellDiff>, Option<(Seat, Seat)>) {
    let (xs, ys) = (&gx.lines, &gy.lines);
    let typed = |lines: &[RawLine], seat| {
        lines
            .iter()
            .find(|l: &&RawLine| l.seat == seat && !l.is_blank())
            .cloned()
    };
    // A Total left blank (the printed card's Total line kept, nothing
    // typed in it), or given as a formula with no saved value (a sheet a
    // program wrote and no spreadsheet program saved), is no typed value:
    // `check` computes it from the games, compared already. It is not
    // compared.
    let computed =
        |c: &RawCell| totals && (c.is_blank() || matches!(c.value, Cell::FormulaWithoutValue(_)));
    let agree = |a: &RawCell, b: &RawCell, same: Same| {
        computed(a) || computed(b) || same(&a.value, &b.value, rules)
    };
    let mut cells = Vec::new();
    let mut differing = Vec::new();
    for seat in Seat::ALL {
        let before = cells.len();
        match (typed(xs, seat), typed(ys, seat)) {
            (Some(l), Some(m)) => {
                for (what, a, b, same) in fields(&l, &m, totals) {
                    if !agree(a, b, same) {
                        cells.push(CellDiff {
                            what: format!("seat {seat} {what}"),
                            first: x.place_of(a.at),
                            first_value: a.value.describe(),
                            second: y.place_of(b.at),
                            second_value: b.value.describe(),
                        });
                    }
                }
            }
            (None, None) => {}
            // (a seat's Total typed in one typing only: nothing to compare)
            (Some(_), None) | (None, Some(_)) if totals => {}
            (l, m) => cells.push(CellDiff {
                what: format!("seat {seat}"),
                first: x.place_of(l.as_ref().map_or(gx.at, line_at)),
                first_value: line_values(l.as_ref()),
                second: y.place_of(m.as_ref().map_or(gy.at, line_at)),
                second_value: line_values(m.as_ref()),
            }),
        }
        if cells.len() > before {
            differing.push(seat);
        }
    }
    let exchanged = |p: Seat, q: Seat| match (typed(xs, p), typed(ys, q)) {
        (Some(l), Some(m)) => fields(&l, &m, totals)
            .into_iter()
            .all(|(_, a, b, same)| agree(a, b, same)),
        _ => false,
    };
    let swapped = swapped(&differing, exchanged);
    (cells, swapped)
}

/// Each value of two typings of a line: what it is, both cells, and when
/// two typings agree on it.
fn fields<'a>(
    l: &'a RawLine,
    m: &'a RawLine,
    totals: bool,
) -> [(&'static str, &'a RawCell, &'a RawCell, Same); 3] {
    if totals {
        [
            ("Total games won", &l.won, &m.won, same_number),
            ("Total score", &l.score, &m.score, same_number),
            ("Total tiles", &l.tiles, &m.tiles, same_number),
        ]
    } else {
        [
            ("game won", &l.won, &m.won, same_won),
            ("score", &l.score, &m.score, same_score),
            ("tiles", &l.tiles, &m.tiles, same_tiles),
        ]
    }
}

/// The two seats exchanged between two typings: when the seats that
/// differ are exactly two, `p` and `q`, and what the first typing has at
/// `p` the second has at `q` and the other way round (`exchanged(p, q)`:
/// the first typing's `p` is the second's `q`). Two seats' lines typed on
/// each other's (the volunteer's eye slipped a line), or two players'
/// names: one question to ask of the signed card, not several values.
fn swapped(differing: &[Seat], exchanged: impl Fn(Seat, Seat) -> bool) -> Option<(Seat, Seat)> {
    let &[p, q] = differing else {
        return None;
    };
    (exchanged(p, q) && exchanged(q, p)).then_some((p, q))
}

fn line_at(line: &RawLine) -> At {
    line.won.at
}

/// A whole line, as `won 1, score +30, tiles 0`, or `blank`.
fn line_values(line: Option<&RawLine>) -> String {
    match line {
        None => "blank".to_string(),
        Some(l) => format!(
            "won {}, score {}, tiles {}",
            l.won.value.describe(),
            l.score.value.describe(),
            l.tiles.value.describe()
        ),
    }
}

type Same = fn(&Cell, &Cell, &Rules) -> bool;

fn same_player(a: &str, b: &str, roster: &Roster) -> bool {
    match_key(a) == match_key(b)
        || matches!((roster.find(a), roster.find(b)), (Ok(x), Ok(y)) if x == y)
}

/// Two values that neither reads: the same when typed the same.
fn same_text(a: &Cell, b: &Cell) -> bool {
    match_key(&a.as_text()) == match_key(&b.as_text())
}

fn same_won(a: &Cell, b: &Cell, _rules: &Rules) -> bool {
    match (parse_won(a), parse_won(b)) {
        (Ok(x), Ok(y)) => x == y,
        (Err(_), Err(_)) => same_text(a, b),
        _ => false,
    }
}

fn same_score(a: &Cell, b: &Cell, rules: &Rules) -> bool {
    match (parse_score(a, rules), parse_score(b, rules)) {
        (Ok(x), Ok(y)) => x == y,
        (Err(_), Err(_)) => same_number(a, b, rules),
        _ => false,
    }
}

fn same_tiles(a: &Cell, b: &Cell, _rules: &Rules) -> bool {
    match (parse_tiles(a), parse_tiles(b)) {
        (Ok(x), Ok(y)) => x == y,
        (Err(_), Err(_)) => same_text(a, b),
        _ => false,
    }
}

/// As numbers (a Total, or a score the profile does not take), else as text.
fn same_number(a: &Cell, b: &Cell, _rules: &Rules) -> bool {
    let number = |c: &Cell| match c {
        Cell::Number(n) => Score::from_f64(*n),
        Cell::Text(t) => Score::parse(t),
        _ => None,
    };
    match (number(a), number(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => same_text(a, b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Label, Stage};
    use crate::ingest::raw::RawSeat;
    use crate::place::Source;
    use crate::roster::Player;

    fn cell(_source: &Source, row: u32, col: u32, value: Cell) -> RawCell {
        RawCell {
            value,
            at: At::cell(row, col),
        }
    }

    /// A card of one game: seats A to C, each line (won, score, tiles).
    fn card(file: &str, players: [&str; 3], lines: [(Cell, Cell, Cell); 3]) -> RawCard {
        let source = Source::file(file);
        let seats = Seat::ALL[..3]
            .iter()
            .zip(players)
            .enumerate()
            .map(|(i, (&seat, p))| RawSeat {
                seat,
                player: (*p).into(),
                at: At::cell(2 + i as u32, 5),
            })
            .collect();
        let lines = Seat::ALL[..3]
            .iter()
            .zip(lines)
            .enumerate()
            .map(|(i, (&seat, (w, s, t)))| {
                let row = 2 + i as u32;
                RawLine {
                    seat,
                    won: cell(&source, row, 6, w),
                    score: cell(&source, row, 7, s),
                    tiles: cell(&source, row, 8, t),
                }
            })
            .collect();
        RawCard {
            key: CardKey {
                stage: Stage::prelim(),
                session: Label::Num(1),
                table: Label::Num(7),
            },
            layout: Layout::Results,
            source: source.clone(),
            at: At::row(2),
            table_at: At::row(2),
            seats,
            renamed: Vec::new(),
            agreeing: Vec::new(),
            games: vec![RawGame {
                number: 1,
                at: At::row(2),
                lines,
            }],
            total: None,
            defective: false,
            lost: Default::default(),
            title: None,
        }
    }

    fn typing(cards: Vec<RawCard>) -> Typing {
        Typing {
            cards,
            ..Typing::default()
        }
    }

    fn t(s: &str) -> Cell {
        Cell::text(s)
    }

    fn n(v: f64) -> Cell {
        Cell::Number(v)
    }

    #[test]
    fn values_agree_however_typed() {
        let a = card(
            "a.csv",
            ["P1", "P2", "P3"],
            [
                (n(1.0), t("+30"), n(0.0)),
                (n(0.0), t("-10"), n(2.0)),
                (n(0.0), t("−20"), n(4.0)),
            ],
        );
        let b = card(
            "b.csv",
            ["p1", "P 2", "P3"],
            [
                (t("1.0"), n(30.0), t("0")),
                (t("0"), t("-10.0"), t("2.0")),
                (Cell::Bool(false), n(-20.0), n(4.0)),
            ],
        );
        let c = compare(
            &typing(vec![a]),
            &typing(vec![b]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(c.differences, vec![]);
        assert_eq!(c.agreed.len(), 1);
    }

    #[test]
    fn a_swapped_pair_of_scores_is_one_difference_with_both_places() {
        let lines = |w: &str, l: &str| {
            [
                (n(1.0), t(w), n(0.0)),
                (n(0.0), t(l), n(5.0)),
                (n(0.0), t("-0"), n(9.0)),
            ]
        };
        let a = card("a.csv", ["P1", "P2", "P3"], lines("+41", "-41"));
        let b = card("b.csv", ["P1", "P2", "P3"], lines("+14", "-14"));
        let c = compare(
            &typing(vec![a]),
            &typing(vec![b]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(c.differences.len(), 1);
        let shown = c.differences[0].to_string();
        assert_eq!(
            shown,
            "a.csv:2 vs b.csv:2: session S01 table 7: game 1: 2 values differ\n  \
             a.csv:2:7 vs b.csv:2:7: seat A score +41 vs +14\n  \
             a.csv:3:7 vs b.csv:3:7: seat B score -41 vs -14"
        );
        let (agreed, held, _) = agreeing(
            typing(vec![card("a.csv", ["P1", "P2", "P3"], lines("+41", "-41"))]),
            &typing(vec![card("b.csv", ["P1", "P2", "P3"], lines("+14", "-14"))]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert!(agreed.is_empty());
        assert_eq!(held.len(), 1);
    }

    /// Two seats' lines typed on each other's: the values that differ,
    /// then one line asking whether the seats are swapped; the same for
    /// two players' names. Two seats that differ otherwise, or three
    /// seats in a ring, are values only.
    #[test]
    fn two_seats_exchanged_are_said_swapped_after_their_values() {
        let a_lines = [
            (n(1.0), t("+30"), n(0.0)),
            (n(0.0), t("-10"), n(2.0)),
            (n(0.0), t("-20"), n(4.0)),
        ];
        let shown = |first: RawCard, second: RawCard| -> Vec<String> {
            compare(
                &typing(vec![first]),
                &typing(vec![second]),
                &Rules::hk(),
                &Roster::open(),
            )
            .differences
            .iter()
            .map(|d| d.to_string())
            .collect()
        };
        let players = ["P1", "P2", "P3"];
        let a = || card("a.csv", players, a_lines.clone());
        let [w, l1, l2] = a_lines.clone();
        let b = card("b.csv", players, [w.clone(), l2.clone(), l1.clone()]);
        assert_eq!(
            shown(a(), b),
            ["a.csv:2 vs b.csv:2: session S01 table 7: game 1: 4 values differ\n  \
              a.csv:3:7 vs b.csv:3:7: seat B score -10 vs -20\n  \
              a.csv:3:8 vs b.csv:3:8: seat B tiles 2 vs 4\n  \
              a.csv:4:7 vs b.csv:4:7: seat C score -20 vs -10\n  \
              a.csv:4:8 vs b.csv:4:8: seat C tiles 4 vs 2\n  \
              a.csv:2 vs b.csv:2: seats B and C swapped? B's line in one typing is C's in the other, and C's is B's"]
        );
        let b = card("b.csv", ["P2", "P1", "P3"], a_lines.clone());
        assert_eq!(
            shown(a(), b),
            ["a.csv:2 vs b.csv:2: session S01 table 7: the players differ\n  \
              a.csv:2:5 vs b.csv:2:5: seat A player \"P1\" vs \"P2\"\n  \
              a.csv:3:5 vs b.csv:3:5: seat B player \"P2\" vs \"P1\"\n  \
              a.csv:2 vs b.csv:2: seats A and B swapped? A's player in one typing is B's in the other, and B's is A's"]
        );
        // B's line as C's, C's with another slip: not a swap
        let slipped = (n(0.0), t("-10"), n(3.0));
        let b = card("b.csv", players, [w.clone(), l2.clone(), slipped]);
        let out = shown(a(), b);
        assert!(!out[0].contains("swapped"), "{out:?}");
        // three seats in a ring: not two seats swapped
        let b = card("b.csv", players, [l1, l2, w]);
        let out = shown(a(), b);
        assert!(!out[0].contains("swapped"), "{out:?}");
    }

    #[test]
    fn an_id_and_a_name_are_one_player_through_the_roster() {
        let line = || {
            [
                (n(1.0), n(10.0), n(0.0)),
                (n(0.0), n(-4.0), n(2.0)),
                (n(0.0), n(-6.0), n(3.0)),
            ]
        };
        let a = || card("a.csv", ["P0001", "P0002", "P0003"], line());
        let b = || card("b.csv", ["Chan Tai Man", "P0002", "P0003"], line());
        let no_roster = compare(
            &typing(vec![a()]),
            &typing(vec![b()]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(no_roster.differences.len(), 1);
        assert_eq!(no_roster.differences[0].part, Part::Players);
        assert_eq!(
            no_roster.differences[0].cells[0].to_string(),
            "a.csv:2:5 vs b.csv:2:5: seat A player \"P0001\" vs \"Chan Tai Man\""
        );
        let mut roster = Roster::default();
        for (id, name) in [
            ("P0001", "Chan Tai Man"),
            ("P0002", "Lee"),
            ("P0003", "Wong"),
        ] {
            roster.add(Player::named(id, name)).unwrap();
        }
        let with_roster = compare(
            &typing(vec![a()]),
            &typing(vec![b()]),
            &Rules::hk(),
            &roster,
        );
        assert_eq!(with_roster.differences, vec![]);
    }

    fn plain() -> [(Cell, Cell, Cell); 3] {
        [
            (n(1.0), n(10.0), n(0.0)),
            (n(0.0), n(-4.0), n(2.0)),
            (n(0.0), n(-6.0), n(3.0)),
        ]
    }

    /// A card only in the second typing is listed when the first typing
    /// may have it under another table number (a card of its session the
    /// second lacks, with the same players); else it is left out, as every
    /// card of another session is.
    #[test]
    fn a_double_entry_lists_the_second_typings_extra_cards_that_may_be_a_first_typed_one() {
        let a = || card("a.csv", ["P1", "P2", "P3"], plain());
        let same = || card("b.csv", ["P1", "P2", "P3"], plain());
        let on = |mut c: RawCard, session: u32, table: u32, players: [&str; 3]| {
            c.key.session = Label::Num(session);
            c.key.table = Label::Num(table);
            for (s, p) in c.seats.iter_mut().zip(players) {
                s.player = p.into();
            }
            c
        };
        let table_8 = || on(same(), 1, 8, ["P4", "P5", "P6"]);
        let session_2 = || on(same(), 2, 7, ["P1", "P2", "P3"]);
        let keys = |d: &[Difference]| -> Vec<(Label, Part)> {
            d.iter()
                .map(|d| (d.key.table.clone(), d.part.clone()))
                .collect()
        };
        // every first-typed card confirmed: the rest is not imported now
        let (agreed, held, left_out) = agreeing(
            typing(vec![a()]),
            &typing(vec![same(), table_8(), session_2()]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(agreed.len(), 1);
        assert_eq!(keys(&held), []);
        assert_eq!(left_out, [table_8().key, session_2().key]);
        // table 8's card typed as table 9 in the first typing: the two
        // are listed, not table 10's of other players
        let table_9 = on(a(), 1, 9, ["P5", "P6", "P4"]);
        let table_10 = on(same(), 1, 10, ["P7", "P8", "P9"]);
        let (agreed, held, left_out) = agreeing(
            typing(vec![a(), table_9]),
            &typing(vec![same(), table_8(), session_2(), table_10.clone()]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(agreed.len(), 1);
        assert_eq!(
            keys(&held),
            [
                (Label::Num(8), Part::OnlyIn(Side::Second)),
                (Label::Num(9), Part::OnlyIn(Side::First))
            ]
        );
        assert_eq!(left_out, [table_10.key, session_2().key]);
    }

    #[test]
    fn a_card_typed_twice_or_unscored_is_held_back() {
        let a = card("a.csv", ["P1", "P2", "P3"], plain());
        let mut again = card("a.csv", ["P1", "P2", "P3"], plain());
        again.at = At::row(40);
        let b = card("b.csv", ["P1", "P2", "P3"], plain());
        let c = compare(
            &typing(vec![a, again]),
            &typing(vec![b]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(c.agreed, vec![]);
        assert_eq!(
            c.differences
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>(),
            ["a.csv:2: session S01 table 7: typed twice in the first typing (again at a.csv:40); expected once"]
        );

        let a = card("a.csv", ["P1", "P2", "P3"], plain());
        let key = a.key.clone();
        let racks = Typing {
            unscored: vec![(key, Source::file("racks.csv").at(5, None))],
            ..Typing::default()
        };
        let c = compare(&typing(vec![a]), &racks, &Rules::hk(), &Roster::open());
        assert_eq!(
            c.differences[0].to_string(),
            "a.csv:2 vs racks.csv:5: session S01 table 7: its racks could not be scored in the second typing (errors listed above)"
        );
        let both = compare(&racks, &racks, &Rules::hk(), &Roster::open());
        assert_eq!(
            both.differences
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>(),
            [
                "racks.csv:5: session S01 table 7: its racks could not be scored in the first typing (errors listed above)",
                "racks.csv:5: session S01 table 7: its racks could not be scored in the second typing (errors listed above)"
            ]
        );
    }

    #[test]
    fn total_lines_are_compared_as_numbers_when_both_have_one() {
        let total = |card: &RawCard, score: Cell| RawGame {
            number: 0,
            at: At::row(9),
            lines: vec![RawLine {
                seat: Seat::A,
                won: cell(&card.source, 9, 6, n(1.0)),
                score: cell(&card.source, 9, 7, score),
                tiles: cell(&card.source, 9, 8, n(0.0)),
            }],
        };
        let mut a = card("a.xlsx", ["P1", "P2", "P3"], plain());
        a.total = Some(total(&a, t("10.00")));
        let mut b = card("b.xlsx", ["P1", "P2", "P3"], plain());
        b.total = Some(total(&b, n(10.0)));
        let c = compare(
            &typing(vec![a.clone()]),
            &typing(vec![b.clone()]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(c.differences, vec![]);
        b.total = Some(total(&b, n(1.0)));
        let c = compare(
            &typing(vec![a.clone()]),
            &typing(vec![b]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(
            c.differences[0].to_string(),
            "a.xlsx:9 vs b.xlsx:9: session S01 table 7: the Total line: 1 value differs\n  \
             a.xlsx:9:7 vs b.xlsx:9:7: seat A Total score 10.00 vs 1"
        );
        // A Total in one typing only (a results CSV has none) is no difference.
        let plain_b = card("b.csv", ["P1", "P2", "P3"], plain());
        let c = compare(
            &typing(vec![a.clone()]),
            &typing(vec![plain_b]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(c.differences, vec![]);
        // Nor is a Total line kept blank (the printed card's line, nothing
        // typed in it), nor a Total value left blank where the other
        // typing has one: `check` computes them from the games.
        let mut blank_b = card("b.xlsx", ["P1", "P2", "P3"], plain());
        let mut blank = total(&blank_b, Cell::Empty);
        blank.lines[0].won.value = Cell::Empty;
        blank.lines[0].tiles.value = Cell::Empty;
        blank_b.total = Some(blank.clone());
        let c = compare(
            &typing(vec![a.clone()]),
            &typing(vec![blank_b.clone()]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(c.differences, vec![]);
        blank.lines[0].won.value = n(1.0);
        blank_b.total = Some(blank.clone());
        let c = compare(
            &typing(vec![a.clone()]),
            &typing(vec![blank_b.clone()]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(c.differences, vec![]);
        // a value typed in both that differs still is one
        blank.lines[0].won.value = n(2.0);
        blank_b.total = Some(blank);
        let c = compare(
            &typing(vec![a]),
            &typing(vec![blank_b]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(
            c.differences[0].to_string(),
            "a.xlsx:9 vs b.xlsx:9: session S01 table 7: the Total line: 1 value differs\n  \
             a.xlsx:9:6 vs b.xlsx:9:6: seat A Total games won 1 vs 2"
        );
    }

    #[test]
    fn a_game_typed_only_in_the_second_typing_is_listed() {
        let a = card("a.csv", ["P1", "P2", "P3"], plain());
        let mut b = card("b.csv", ["P1", "P2", "P3"], plain());
        let mut extra = b.games[0].clone();
        extra.number = 2;
        extra.at = At::row(5);
        b.games.push(extra);
        let c = compare(
            &typing(vec![a]),
            &typing(vec![b]),
            &Rules::hk(),
            &Roster::open(),
        );
        assert_eq!(
            c.differences[0].to_string(),
            "a.csv:2 vs b.csv:5: session S01 table 7: game 2 is only in the second typing"
        );
    }

    #[test]
    fn cards_and_lines_in_one_typing_only_are_listed() {
        let line = || {
            [
                (n(1.0), n(10.0), n(0.0)),
                (n(0.0), n(-4.0), n(2.0)),
                (n(0.0), n(-6.0), n(3.0)),
            ]
        };
        let a = card("a.csv", ["P1", "P2", "P3"], line());
        let mut b = card("b.csv", ["P1", "P2", "P3"], line());
        b.games[0].lines[2] = RawLine {
            seat: Seat::C,
            won: cell(&b.source, 4, 6, Cell::Empty),
            score: cell(&b.source, 4, 7, Cell::Empty),
            tiles: cell(&b.source, 4, 8, Cell::Empty),
        };
        let mut other = card("b.csv", ["P1", "P2", "P3"], line());
        other.key.table = Label::Num(8);
        let c = compare(
            &typing(vec![a]),
            &typing(vec![b, other]),
            &Rules::hk(),
            &Roster::open(),
        );
        let shown: Vec<String> = c.differences.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            shown,
            [
                "a.csv:2 vs b.csv:2: session S01 table 7: game 1: 1 value differs\n  \
                 a.csv:4:6 vs b.csv:2: seat C won 0, score -6, tiles 3 vs blank",
                "b.csv:2: session S01 table 8: only in the second typing; the other typing has no such card (a missing card, or a wrong session or table number?)"
            ]
        );
    }
}
