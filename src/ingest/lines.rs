//! What the two line layouts share (results and racks: one line per seat per
//! game): the columns that say which card, game and seat a line belongs to,
//! and the grouping of lines into cards.
//!
//! Lines are grouped by stage, session and table in the order the file gives
//! them; the cards of one file are never merged with those of another.

use super::cell::{Cell, Row, Text};
use super::header::{Column, ColumnMap};
use super::raw::{GameLines, LostLines, RawCell, RawSeat};
use crate::domain::{CardKey, Label, Seat, Stage};
use crate::place::{At, Source};
use crate::problem::said::{Msg, Part, Said};
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

/// A line layout's label cells (stage, session, table, game, seat,
/// player) merged down a column of a sheet, the way a volunteer types a
/// session once for its rows, or a seat and its player once for the
/// seat's games: a cell the range covers is blank in the file, and reads
/// as the range's first cell. A value cell a range covers is not filled
/// (which seat's tiles it holds is not known): it reads as
/// [`Cell::Merged`], an error that names the range. (The roster reads its
/// merged cells the same way, with columns of its own:
/// [`MergedLabels::of_columns`].)
pub struct MergedLabels {
    /// Ranges one column wide, by (column, first row): their last row.
    down: std::collections::BTreeMap<(u32, u32), u32>,
    /// Every range of more than one cell.
    all: Vec<super::cell::Merge>,
    /// The columns filled down.
    labels: &'static [usize],
    /// Each label column's last filled cell, with its row.
    last: Vec<Option<(u32, Cell)>>,
}

/// The columns [`MergedLabels`] fills down.
const LABELS: [usize; 6] = [STAGE, SESSION, TABLE, GAME, SEAT, PLAYER];

impl MergedLabels {
    /// A line layout's: its label columns filled down.
    pub fn new(merged: &[super::cell::Merge]) -> MergedLabels {
        MergedLabels::of_columns(merged, &LABELS)
    }

    /// The columns `labels` (of the layout's column map) filled down.
    pub fn of_columns(merged: &[super::cell::Merge], labels: &'static [usize]) -> MergedLabels {
        let down = merged
            .iter()
            .filter(|m| m.first.1 == m.last.1 && m.first.0 < m.last.0)
            .map(|m| ((m.first.1, m.first.0), m.last.0))
            .collect();
        MergedLabels {
            down,
            all: merged
                .iter()
                .filter(|m| m.first != m.last)
                .copied()
                .collect(),
            labels,
            last: vec![None; labels.len()],
        }
    }

    /// Fills the label cells of `row` that a merged range covers, and
    /// marks the blank cells of the layout's value columns `values` that
    /// one covers ([`Cell::Merged`]).
    pub fn fill(&mut self, m: &ColumnMap, row: &mut Row, values: &[usize]) {
        if self.all.is_empty() {
            return;
        }
        for i in values.iter().filter_map(|&col| m.get(col)) {
            if !row.get(i).is_empty() {
                continue;
            }
            let (r, c) = (row.number, row.col(i));
            if let Some(range) = self.all.iter().find(|g| g.covers(r, c)) {
                if row.cells.len() <= i {
                    row.cells.resize(i + 1, Cell::Empty);
                }
                row.cells[i] = Cell::Merged(range.name().into());
            }
        }
        for (k, &col) in self.labels.iter().enumerate() {
            let Some(i) = m.get(col) else { continue };
            let cell = row.get(i);
            if !cell.is_empty() {
                self.last[k] = Some((row.number, cell.clone()));
                continue;
            }
            let c = row.col(i);
            let range = self.down.range(..=(c, row.number)).next_back();
            let Some((&(range_col, first), &last)) = range else {
                continue;
            };
            let covered = range_col == c && first < row.number && row.number <= last;
            match &self.last[k] {
                Some((at, value)) if covered && *at == first => {
                    if row.cells.len() <= i {
                        row.cells.resize(i + 1, Cell::Empty);
                    }
                    row.cells[i] = value.clone();
                }
                _ => {}
            }
        }
    }
}

/// A whole number such as a game number: `2`, `2.0`, `"2"`.
pub fn whole_number(cell: &Cell) -> Option<u32> {
    match cell {
        Cell::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n < 1e9 => Some(*n as u32),
        Cell::Text(t) => whole_number_text(t),
        _ => None,
    }
}

/// [`whole_number`] of a text: `2`, `2.0`, ` 2 `, and the same in
/// full-width digits (`２`, `２．０`: [`super::cell::half_width`]).
pub fn whole_number_text(t: &str) -> Option<u32> {
    let t = super::cell::trim(t);
    if let Some(n) = super::cell::digits(t) {
        return Some(n);
    }
    let folded = super::cell::half_width(t);
    let t = &*folded;
    let t = match t.as_bytes().strip_suffix(b".0") {
        Some(r) => &t[..r.len()],
        None => t,
    };
    t.parse().ok()
}

/// The cells of one line, whatever holds them: a row of a sheet ([`Row`]),
/// or a line of a CSV file split where it lies ([`crate::stream`]), whose
/// cells are made only for the values a card keeps.
pub trait Fields {
    /// The line's number in its sheet or file.
    fn number(&self) -> u32;
    /// Where field `i` is.
    fn at(&self, i: usize) -> At;
    /// Field `i` as text (a number as it prints), borrowed where it can be.
    fn text(&self, i: usize) -> std::borrow::Cow<'_, str>;
    /// Field `i`, as a cell of its own. Its text is still the line's
    /// afterwards: the checks of the line's head read every column (a
    /// line of one value is a note only when its values are blank too),
    /// and each reader must read them alike.
    fn take(&mut self, i: usize) -> Cell;
    /// Field `i` as a whole number, as [`whole_number_text`] reads its
    /// text. (A reader that holds the number already, such as the
    /// event's store, gives it as it is.)
    fn whole(&self, i: usize) -> Option<u32> {
        whole_number_text(&self.text(i))
    }
    /// Field `i` as a seat, as [`Seat::parse`] reads its text. (A reader
    /// that holds the seat already gives it as it is.)
    fn seat(&self, i: usize) -> Option<Seat> {
        Seat::parse(&self.text(i))
    }
    /// The card the line is on, when the reader knows it already as the
    /// key its stage, session and table cells name (the event's store
    /// reads each card's once, not once a line); `None`: the cells are
    /// read, through [`StageCache`].
    fn card(&self) -> Option<&CardKey> {
        None
    }
    /// The first filled field past the first `width` (a CSV line's
    /// fields beyond its header's columns; blank ones, as a spreadsheet
    /// program writes them, `a,b,,`, are none). A reader whose lines
    /// have no more fields than their columns (the event's store) has
    /// none.
    fn beyond(&self, width: usize) -> Option<usize> {
        let _ = width;
        None
    }
}

/// A CSV line with a filled field beyond its header's `width` columns is
/// an error at that field (what is there belongs to no column: most
/// often a comma inside a value split it in two, and the values after it
/// moved a column on); true when there is one. A workbook row's cells
/// right of the table are notes beside it, not read.
pub fn beyond_header(
    source: &Source,
    width: usize,
    row: &impl Fields,
    problems: &mut Problems,
) -> bool {
    if source.is_workbook() {
        return false;
    }
    let Some(i) = row.beyond(width) else {
        return false;
    };
    problems.error(
        source.place(row.at(i)),
        format!(
            "field {} is {}, past the header's {width} columns: a comma inside a number or a name (-82,0 or Chan, Tai Man) splits it in two unless the value is in quotes (\"-82,0\")",
            i + 1,
            Cell::text(&row.text(i)).describe(),
        ),
    );
    true
}

impl Fields for Row {
    fn number(&self) -> u32 {
        self.number
    }

    fn at(&self, i: usize) -> At {
        Row::at(self, i)
    }

    fn text(&self, i: usize) -> std::borrow::Cow<'_, str> {
        self.get(i).text_ref()
    }

    fn take(&mut self, i: usize) -> Cell {
        // (a copy: moved out, the cell read blank to the head's checks,
        // which every other reader's line still reads as typed)
        self.cells.get(i).cloned().unwrap_or_default()
    }

    fn beyond(&self, width: usize) -> Option<usize> {
        let past = self.cells.get(width..)?;
        past.iter().position(|c| !c.is_empty()).map(|i| width + i)
    }
}

/// Whether a line is of a seat nobody sits at: its printed placeholder
/// copied (`(D)`, `____`) as its player, and no value. Such a line is no
/// line, as a table of 3 has none (docs/formats.md), in every layout of
/// lines (results, racks).
#[inline]
pub fn unseated(player: &str, values: &[&RawCell]) -> bool {
    // (the values first: nearly every line has one, and is done at once)
    values.iter().all(|c| c.is_blank())
        && !player.trim().is_empty()
        && super::scorecard::is_placeholder(player)
}

/// The cell of column `col` of a line, with where it is, taken out of it.
pub fn take(map: &ColumnMap, row: &mut impl Fields, col: usize) -> RawCell {
    match map.get(col) {
        Some(i) => RawCell {
            at: row.at(i),
            value: row.take(i),
        },
        None => RawCell {
            value: Cell::Empty,
            at: At::row(row.number()),
        },
    }
}

/// Which card, game and seat a line is, and who sits there.
pub struct Head<'a> {
    /// The card's key; `None` when the line's reader knows it already
    /// ([`Fields::card`]): the key is not copied for every line.
    pub key: Option<CardKey>,
    pub game: u32,
    pub seat: Seat,
    /// The card the line's reader knows it is on ([`Fields::card`]), when
    /// `key` is `None`.
    pub known: Option<&'a CardKey>,
    /// As the line writes it (borrowed where it can be: a seat's player
    /// is kept once a card, not once a line).
    pub player: std::borrow::Cow<'a, str>,
    pub player_at: At,
    pub row: At,
}

/// The card the last line named, by the texts of its stage, session and
/// table cells: the lines of a card name it the same way, and it is read
/// once.
#[derive(Default)]
pub struct StageCache(Option<([Text; 3], CardKey)>);

impl StageCache {
    /// The card the texts it was given last name (when they named one).
    pub fn last(&self) -> Option<&CardKey> {
        self.0.as_ref().map(|(_, key)| key)
    }

    /// The card these texts name; `None` when the session or the table
    /// is blank.
    pub fn key(&mut self, texts: [&str; 3]) -> Option<CardKey> {
        if let Some((t, key)) = &self.0 {
            if (0..3).all(|i| same_short(&t[i], texts[i])) {
                return Some(key.clone());
            }
        }
        let key = CardKey {
            stage: match &self.0 {
                // (most files say one stage, or none, on every line)
                Some((t, key)) if same_short(&t[0], texts[0]) => key.stage.clone(),
                _ => Stage::new(texts[0]),
            },
            session: Label::session(texts[1])?,
            table: Label::table(texts[2])?,
        };
        self.0 = Some((texts.map(Text::from), key.clone()));
        Some(key)
    }
}

/// Whether two short texts (a line's stage, session or table) are the
/// same, a byte at a time: called for every line, where a call of the
/// library's comparison for a few bytes cost a tenth of reading a large
/// file (1M players, profiled).
#[inline]
fn same_short(a: &str, b: &str) -> bool {
    same_short_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_short`] of bytes: the first and the last few bytes of each, a
/// word at a time (overlapping when the length is not a word's).
#[inline]
pub(crate) fn same_short_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // (each end read as a number: compared as arrays, they were a call of
    // the library's comparison each)
    fn ends4(s: &[u8]) -> Option<(u32, u32)> {
        let first = u32::from_ne_bytes(*s.first_chunk::<4>()?);
        Some((first, u32::from_ne_bytes(*s.last_chunk::<4>()?)))
    }
    fn ends8(s: &[u8]) -> Option<(u64, u64)> {
        let first = u64::from_ne_bytes(*s.first_chunk::<8>()?);
        Some((first, u64::from_ne_bytes(*s.last_chunk::<8>()?)))
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => ends4(a) == ends4(b),
        8..=16 => ends8(a) == ends8(b),
        _ => a == b,
    }
}

/// A line that cannot be placed on a card: its game or its seat is
/// unreadable, or its card is (an error said at the line). The card it is
/// lost from is told ([`Grouper::lose`]), so that its checks do not count
/// the line missing.
pub struct Lost<'a> {
    pub card: LostFrom<'a>,
    /// The line's game, when it could be read.
    pub game: Option<u32>,
    /// The line's seat, when it could be read.
    pub seat: Option<Seat>,
    pub row: At,
}

/// The card a line that cannot be placed is lost from.
pub enum LostFrom<'a> {
    /// The card its stage, session and table name (as [`Head::key`]).
    Key(CardKey),
    /// The card its reader knows it is on (as [`Head::known`]).
    Known(&'a CardKey),
    /// Its card could not be read: what of it could. The line is lost from
    /// the card of the line before it when that may be its card (see
    /// [`PartKey`]), else from none.
    Unread(PartKey),
}

/// What of a line's card could be read when not all of it could (its
/// session or its table is blank): each cell that could, `None` for one
/// that is blank. A blank stage is none here, not `prelim`: the line lost
/// its card's cells, and the stage's may be one of them.
///
/// Such a line is lost from the card of the line before it that was put
/// on a card, in the same sheet (or chunk of a file, which never starts
/// at such a line), when it names that card ([`Lost::may_be_on`]: its
/// session, table or game read, and every cell of its card read names
/// that card), and its game and seat, when read, are a game the card plays
/// and a seat it has no line of in that game (judged with the rules,
/// [`LostLines::of_card`]). Else it is put on no card: it is not guessed
/// onto one its cells do not name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartKey {
    pub stage: Option<Stage>,
    pub session: Option<Label>,
    pub table: Option<Label>,
}

impl PartKey {
    /// What the texts of a line's stage, session and table cells read.
    pub fn read(texts: [&str; 3]) -> PartKey {
        let stage = texts[0];
        PartKey {
            stage: (!super::cell::trim(stage).is_empty()).then(|| Stage::new(stage)),
            session: Label::session(texts[1]),
            table: Label::table(texts[2]),
        }
    }

    /// Whether every cell read names the card of `key`.
    fn fits(&self, key: &CardKey) -> bool {
        self.stage.as_ref().is_none_or(|s| *s == key.stage)
            && self.session.as_ref().is_none_or(|s| *s == key.session)
            && self.table.as_ref().is_none_or(|t| *t == key.table)
    }
}

impl Lost<'_> {
    /// Whether this line, its card unread ([`LostFrom::Unread`]), may be
    /// a line of the card of `key` (the card of the line before it): its
    /// session, its table or its game was read, and every cell of its card
    /// read names that card. (A line that names none, such as a note typed
    /// far below the lines, is no card's.) Whether its game and seat may
    /// be that card's is the rules' to say ([`LostLines::of_card`]).
    pub fn may_be_on(&self, key: &CardKey) -> bool {
        let LostFrom::Unread(part) = &self.card else {
            return false;
        };
        let names = part.session.is_some() || part.table.is_some() || self.game.is_some();
        names && part.fits(key)
    }
}

/// Whether the texts of a line's session and table cells name a card (as
/// [`StageCache::key`] reads them: neither is blank). A line whose do not
/// is not placed; it may be lost from the card of the line before it
/// ([`PartKey`]).
pub fn names_card(session: &str, table: &str) -> bool {
    Label::session(session).is_some() && Label::table(table).is_some()
}

/// Reads the head of a line; each unreadable field is an error, and the
/// line is then an `Err` (it cannot be placed on a card): [`Lost`], with
/// what of its card could be read.
pub fn head<'a>(
    source: &Source,
    map: &ColumnMap,
    row: &'a mut impl Fields,
    stages: &mut StageCache,
    problems: &mut Problems,
) -> Result<Head<'a>, Lost<'a>> {
    // (`Some(None)`: the reader's card; `None`: not read, and what of it
    // was)
    let (key, part) = if row.card().is_some() {
        (Some(None), None)
    } else {
        let texts = [STAGE, SESSION, TABLE].map(|c| text(map, row, c).unwrap_or_default());
        let texts = [&*texts[0], &*texts[1], &*texts[2]];
        match stages.key(texts) {
            Some(key) => (Some(Some(key)), None),
            None => (None, Some(PartKey::read(texts))),
        }
    };
    let game = map.get(GAME).and_then(|i| row.whole(i)).filter(|&n| n >= 1);
    let seat = map.get(SEAT).and_then(|i| row.seat(i));
    // a line of one value, neither game nor seat: a note typed below the
    // cards ("Typed by Ann"), said once rather than as each blank field
    let lone = if game.is_none() && seat.is_none() {
        lone_value(map, row)
    } else {
        None
    };
    if let Some(i) = lone {
        problems.error(
            source.place(row.at(i)),
            Said::new(
                Msg::LoneValue,
                [Part::text(crate::ingest::cell::quoted(&row.text(i)))],
            ),
        );
    }
    let part = if lone.is_some() { None } else { part };
    if part.as_ref().is_some_and(|p| p.session.is_none()) {
        problems.error(
            source.place(at(map, row, SESSION)),
            Said::new(Msg::SessionBlank, []),
        );
    }
    if part.as_ref().is_some_and(|p| p.table.is_none()) {
        problems.error(
            source.place(at(map, row, TABLE)),
            Said::new(Msg::TableBlank, []),
        );
    }
    if game.is_none() && lone.is_none() {
        let cell = take(map, row, GAME);
        problems.error(
            source.place(cell.at),
            Said::new(Msg::GameIs, [cell.value.described()]),
        );
    }
    if seat.is_none() && lone.is_none() {
        let cell = take(map, row, SEAT);
        problems.error(
            source.place(cell.at),
            Said::new(Msg::SeatIs, [cell.value.described()]),
        );
    }
    // (a line with a field past the header's columns has its values
    // moved: it is not placed)
    let beyond = beyond_header(source, map.width, row, problems);
    let (player_at, line) = (at(map, row, PLAYER), At::row(row.number()));
    // (the player's text as the line has it: read, not taken)
    let row: &'a _ = row;
    let player = text(map, row, PLAYER).unwrap_or_default();
    if player.is_empty() && lone.is_none() {
        // (the line is still placed: its values count in its game's sums,
        // which are then not wrong for want of it)
        problems.error(source.place(player_at), Said::new(Msg::PlayerBlank, []));
    }
    let lost = |card| Lost {
        card,
        game,
        seat,
        row: line,
    };
    match (key, row.card(), game, seat) {
        (Some(key), known, Some(game), Some(seat)) if !beyond => Ok(Head {
            key,
            game,
            seat,
            known,
            player,
            player_at,
            row: line,
        }),
        (Some(Some(key)), ..) => Err(lost(LostFrom::Key(key))),
        (Some(None), Some(known), ..) => Err(lost(LostFrom::Known(known))),
        // (no reader knows a card it does not give)
        _ => Err(lost(LostFrom::Unread(part.unwrap_or_default()))),
    }
}

/// The field of the one value of a line whose other columns are blank,
/// if it has one value only (the layout's columns read).
fn lone_value(map: &ColumnMap, row: &impl Fields) -> Option<usize> {
    let mut filled = map
        .index
        .iter()
        .flatten()
        .filter(|&&i| !row.text(i).trim().is_empty());
    let first = *filled.next()?;
    filled.next().is_none().then_some(first)
}

/// Where column `col` of a line is (the line, when the layout has no such
/// column).
fn at(map: &ColumnMap, row: &impl Fields, col: usize) -> At {
    map.get(col).map_or(At::row(row.number()), |i| row.at(i))
}

/// The text of column `col` of a line, when the layout has the column.
fn text<'a>(
    map: &ColumnMap,
    row: &'a impl Fields,
    col: usize,
) -> Option<std::borrow::Cow<'a, str>> {
    map.get(col).map(|i| row.text(i))
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
    /// A seat's lines that name another player than its first
    /// ([`crate::ingest::raw::RawCard::renamed`]).
    pub renamed: Vec<RawSeat>,
    /// The lines with a blank player (an error said at each), by seat and
    /// row: none of them names the seat's player ([`Grouped::agreeing`]).
    pub blank: Vec<(Seat, u32)>,
    /// Games in the order first seen.
    pub games: Vec<GameLines<L>>,
    pub defective: bool,
    pub lost: LostLines,
}

/// Groups the lines of one source into cards: the lines of a card may be
/// anywhere in the source. Lines one after another of the same card (the
/// usual file) find their card without a look-up.
pub struct Grouper<L> {
    source: Source,
    pub cards: Vec<Grouped<L>>,
    index: HashMap<CardKey, usize, foldhash::fast::RandomState>,
    /// The card of the last line put on one (placed, or lost from it):
    /// the card a line whose own card cannot be read may be lost from.
    last: Option<usize>,
    /// The room of cards done with ([`Grouper::give_back`]), for the
    /// cards to come: a large file's reader asks for none per card.
    spare_games: Vec<Vec<GameLines<L>>>,
    spare_lines: Vec<Vec<L>>,
    spare_seats: Vec<Vec<RawSeat>>,
    /// The lines just read that each give again a game and seat their
    /// card has a line of, one after another: said once the run ends
    /// ([`Grouper::end_run`]).
    run: Run,
}

/// Lines one after another of one card that each give again a game and
/// seat the card has a line of ([`Grouper::add`]). One such line is said
/// as it is ([`Msg::SeatTwiceInGame`], and its player when another than
/// the seat's); a run of them is one slip (a table pasted twice, or typed
/// under another table's number), said once for the run
/// ([`Msg::LinesGivenAgain`]), its players not said line by line.
#[derive(Default)]
struct Run {
    /// The card's index in [`Grouper::cards`].
    card: usize,
    /// Each line: where it is, its seat and game, and where the line it
    /// gives again is.
    lines: Vec<(At, Seat, u32, At)>,
    /// The lines of the run that name another player than their seat's.
    renamed: Vec<RawSeat>,
    /// A line was put on a card, or lost, since the run's last line: a
    /// repeated line after it starts another run.
    broken: bool,
}

impl<L: Line> Grouper<L> {
    pub fn new(source: &Source) -> Grouper<L> {
        Grouper {
            source: source.clone(),
            cards: Vec::new(),
            index: HashMap::default(),
            last: None,
            spare_games: Vec::new(),
            spare_lines: Vec::new(),
            spare_seats: Vec::new(),
            run: Run::default(),
        }
    }

    /// A card's games and its list of seats, done with: their room is
    /// used for the cards to come.
    pub fn give_back(&mut self, mut games: Vec<GameLines<L>>, mut seats: Vec<RawSeat>) {
        for game in games.drain(..) {
            let mut lines = game.lines;
            lines.clear();
            self.spare_lines.push(lines);
        }
        self.spare_games.push(games);
        seats.clear();
        self.spare_seats.push(seats);
    }

    /// Groups the lines of another source, as [`Grouper::new`] (its cards
    /// taken out already), keeping the room it made.
    pub fn restart(&mut self, source: &Source) {
        // (a run not said is of a read given up)
        self.run = Run::default();
        self.source = source.clone();
        self.cards.clear();
        self.index.clear();
        self.last = None;
        // the room given back is taken in the order it was given: the
        // lines of cards one after another stay one after another in
        // memory, as they were read
        self.spare_games.reverse();
        self.spare_lines.reverse();
    }

    /// The lines after those read could not be read (an error said where
    /// they start): every card read may be short of lines, in any game;
    /// none is to count, and their checks leave their counts to that
    /// error.
    pub fn cut_short(&mut self) {
        for card in &mut self.cards {
            card.defective = true;
            card.lost.unknown_game = true;
        }
    }

    /// A line that cannot be placed on a card ([`Lost`]): the card it is
    /// lost from is not to count, and its checks leave the line's game to
    /// the error said at the line. A line whose card cannot be read may be
    /// lost from the card of the line before it (see [`PartKey`]): that
    /// card is told, and its checks judge whether the line may be its
    /// ([`LostLines::of_card`]).
    pub fn lose(&mut self, lost: &Lost) {
        self.run.broken = true;
        let key = match &lost.card {
            LostFrom::Key(key) => key,
            LostFrom::Known(key) => *key,
            LostFrom::Unread(_) => {
                let card = self.last.and_then(|i| self.cards.get_mut(i));
                if let Some(card) = card.filter(|c| lost.may_be_on(&c.key)) {
                    card.lost.add_unread(lost.game, lost.seat);
                }
                return;
            }
        };
        let idx = self.card_index(key, lost.row);
        self.last = Some(idx);
        let card = &mut self.cards[idx];
        card.defective = true;
        card.lost.add(lost.game);
    }

    /// Adds a line to its card: `head.key`'s, or `head.known` when that is
    /// `None` (the card its reader knows, [`Fields::card`]). A line that
    /// gives again a game and seat its card has a line of is not added:
    /// the card is not to count, and the line is said with the run of such
    /// lines it is in (see the `run` of the grouper), once the run ends.
    pub fn add(&mut self, head: &Head, line: L, problems: &mut Problems) {
        let Some(key) = head.key.as_ref().or(head.known) else {
            return; // (no reader gives a line without a card)
        };
        let idx = self.card_index(key, head.row);
        self.last = Some(idx);
        let card = &mut self.cards[idx];
        let (seat, number) = (head.seat, head.game);
        let game = card.games.iter().position(|g| g.number == number);
        let first = game.and_then(|i| card.games[i].lines.iter().find(|l| l.seat() == seat));
        if let Some(first) = first.map(|l| l.at()) {
            card.defective = true;
            let renamed = seat_player(card, head);
            if self.run.broken || self.run.card != idx {
                self.end_run(problems);
                self.run.card = idx;
            }
            self.run.lines.push((head.row, seat, number, first));
            self.run.renamed.extend(renamed);
            return;
        }
        self.end_run(problems);
        let card = &mut self.cards[idx];
        if let Some(renamed) = seat_player(card, head) {
            card.renamed.push(renamed);
        }
        let game = match game {
            Some(i) => &mut card.games[i],
            None => {
                let lines = self
                    .spare_lines
                    .pop()
                    .unwrap_or_else(|| Vec::with_capacity(4));
                card.games.push(GameLines {
                    number,
                    at: head.row,
                    lines,
                });
                card.games.last_mut().expect("just pushed")
            }
        };
        game.lines.push(line);
    }

    /// Says the run of lines that each give again a game and seat of their
    /// card (its `run`), if there is one: called when a line ends it, and
    /// when the lines of the source are all read, before its cards are
    /// taken.
    #[inline]
    pub fn end_run(&mut self, problems: &mut Problems) {
        self.run.broken = false;
        if !self.run.lines.is_empty() {
            // (almost never: called for every line placed)
            self.say_run(problems);
        }
    }

    #[inline(never)]
    fn say_run(&mut self, problems: &mut Problems) {
        let lines = std::mem::take(&mut self.run.lines);
        let renamed = std::mem::take(&mut self.run.renamed);
        let (Some(&(at, ..)), Some(&(last, ..))) = (lines.first(), lines.last()) else {
            return;
        };
        let place = |at: At| self.source.place(at);
        let card = &mut self.cards[self.run.card];
        if let [(_, seat, game, first)] = lines[..] {
            problems.error(
                place(at),
                Said::new(
                    Msg::SeatTwiceInGame,
                    [Part::text(seat), Part::text(game), Part::text(place(first))],
                ),
            );
            card.renamed.extend(renamed);
            return;
        }
        // (the lines given again may be anywhere in the source: a file
        // may list a card's games one after another, or not)
        let mut firsts: Vec<u32> = lines.iter().map(|l| l.3.row).collect();
        firsts.sort_unstable();
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for r in firsts {
            match ranges.last_mut() {
                Some((_, end)) if r <= *end + 1 => *end = r,
                _ => ranges.push((r, r)),
            }
        }
        let workbook = self.source.is_workbook();
        problems.error(
            place(at),
            Said::of_card(
                &card.key,
                Said::new(
                    Msg::LinesGivenAgain,
                    [
                        rows_said(&[(at.row, last.row)], workbook),
                        rows_said(&ranges, workbook),
                    ],
                ),
            ),
        );
    }
}

/// The player of `head`'s seat on its card: the seat's first line's, or
/// this line's when it is the seat's first (or the first to name one).
/// A line that names another player than its seat's is returned, for
/// [`Grouped::renamed`].
fn seat_player<L>(card: &mut Grouped<L>, head: &Head) -> Option<RawSeat> {
    let seat = head.seat;
    // (a blank player is an error said already; the seat's player is
    // the one its other lines write)
    let blank = head.player.is_empty();
    if blank {
        card.defective = true;
        card.blank.push((seat, head.player_at.row));
    }
    match card.seats.iter_mut().find(|s| s.seat == seat) {
        Some(_) if blank => None,
        Some(known) if known.player.is_empty() => {
            known.player = Text::from(&*head.player);
            known.at = head.player_at;
            None
        }
        Some(known)
            if !same_short(&known.player, &head.player)
                && !same_player(&known.player, &head.player) =>
        {
            // (the same player when the roster says so, an id here and
            // the name there: judged where the names are looked up)
            Some(RawSeat {
                seat,
                player: Text::from(&*head.player),
                at: head.player_at,
            })
        }
        Some(_) => None,
        None => {
            card.seats.push(RawSeat {
                seat,
                player: Text::from(&*head.player),
                at: head.player_at,
            });
            card.seats.sort_by_key(|s| s.seat);
            None
        }
    }
}

impl<L: Line> Grouped<L> {
    /// Where the lines of a seat that has [`Grouped::renamed`] lines name
    /// the player of the seat's first line, after that line (in the
    /// column its player is in): with those, the seat's lines can be
    /// counted, the player most of them give being the seat's
    /// ([`crate::rules::card_checks::name_players`]). Empty on a card whose
    /// seats each name one player: almost every card.
    pub fn agreeing(&self) -> Vec<(Seat, At)> {
        let mut agreeing = Vec::new();
        if self.renamed.is_empty() {
            return agreeing;
        }
        for first in &self.seats {
            let seat = first.seat;
            let other = |row: u32| {
                row == first.at.row
                    || self
                        .renamed
                        .iter()
                        .any(|r| r.seat == seat && r.at.row == row)
                    || self.blank.contains(&(seat, row))
            };
            if !self.renamed.iter().any(|r| r.seat == seat) {
                continue;
            }
            for game in &self.games {
                for line in game.lines.iter().filter(|l| l.seat() == seat) {
                    let row = line.at().row;
                    if !other(row) {
                        agreeing.push((seat, At::cell(row, first.at.col)));
                    }
                }
            }
        }
        agreeing
    }
}

/// Ranges of rows of a source (first, last), as a message names them:
/// `lines 86-97`, `lines 86-89 and 150-153`, `line 86`; a workbook's are
/// its sheet's rows.
fn rows_said(ranges: &[(u32, u32)], workbook: bool) -> Part {
    let one = matches!(ranges, [(a, b)] if a == b);
    let msg = match (workbook, one) {
        (false, true) => Msg::Line,
        (false, false) => Msg::Lines,
        (true, true) => Msg::Row,
        (true, false) => Msg::Rows,
    };
    let ranges = ranges
        .iter()
        .map(|&(a, b)| match a == b {
            true => Part::text(a),
            false => Part::text(format!("{a}-{b}")),
        })
        .collect();
    Part::said(msg, [Part::List(ranges, Msg::And)])
}

impl<L> Grouper<L> {
    /// The card of `key` (the last one, a look-up, or a new card that
    /// starts at `row`).
    #[inline]
    fn card_index(&mut self, key: &CardKey, row: At) -> usize {
        let last = self.cards.len().checked_sub(1);
        match last.filter(|&i| same_key(&self.cards[i].key, key)) {
            Some(i) => i,
            None => match self.index.get(key) {
                Some(&i) => i,
                None => {
                    let key = key.clone();
                    self.index.insert(key.clone(), self.cards.len());
                    self.cards.push(Grouped {
                        key,
                        at: row,
                        seats: self
                            .spare_seats
                            .pop()
                            .unwrap_or_else(|| Vec::with_capacity(4)),
                        renamed: Vec::new(),
                        blank: Vec::new(),
                        games: self.spare_games.pop().unwrap_or_default(),
                        defective: false,
                        lost: LostLines::default(),
                    });
                    self.cards.len() - 1
                }
            },
        }
    }
}

/// Whether two cards' keys are the same, as [`same_short`] compares texts:
/// asked for every line.
#[inline]
fn same_key(a: &CardKey, b: &CardKey) -> bool {
    let same = |a: &Label, b: &Label| match (a, b) {
        (Label::Num(a), Label::Num(b)) => a == b,
        (Label::Text(a), Label::Text(b)) => same_short(a, b),
        _ => false,
    };
    same(&a.table, &b.table)
        && same(&a.session, &b.session)
        && same_short(a.stage.as_str(), b.stage.as_str())
}

fn same_player(a: &str, b: &str) -> bool {
    crate::roster::match_key(a) == crate::roster::match_key(b)
}

#[cfg(test)]
mod tests {
    use super::same_short_bytes;
    use crate::domain::{Label, Stage};
    use crate::ingest::cell::{Cell, Row};
    use crate::ingest::raw::{LostLines, RawCard};
    use crate::place::Source;
    use crate::problem::Problems;
    use crate::profile::Rules;

    /// The cards of a results file of `lines` (its header given), and the
    /// problems reading them said.
    fn read(lines: &[&str]) -> (Vec<RawCard>, Problems) {
        read_from(&Source::file("t.csv"), lines)
    }

    /// [`read`], the lines read from `source`.
    fn read_from(source: &Source, lines: &[&str]) -> (Vec<RawCard>, Problems) {
        let text = std::iter::once("stage,session,table,game,seat,player,won,score,tiles")
            .chain(lines.iter().copied());
        let rows: Vec<Row> = text
            .enumerate()
            .map(|(i, l)| Row {
                number: i as u32 + 1,
                first_col: 1,
                cells: l.split(',').map(Cell::text).collect(),
            })
            .collect();
        let mut problems = Problems::new();
        let cards =
            crate::ingest::results::read(source, rows.into_iter().map(Ok), &[], &mut problems);
        (cards, problems)
    }

    /// The lost lines of the card of session 1 table `table` of `cards`,
    /// as its checks (hk: three games) count them.
    fn lost(cards: &[RawCard], table: u32) -> LostLines {
        let card = cards
            .iter()
            .find(|c| c.key.table == Label::Num(table))
            .expect("the card");
        card.lost
            .of_card(Rules::hk().games_for(&card.key.stage), &card.games)
    }

    const CARD_1: [&str; 3] = [
        ",S1,1,1,A,P1,1,0,0",
        ",S1,1,1,B,P2,0,-5,5",
        ",S1,1,1,D,P4,0,-2,2",
    ];

    #[test]
    fn a_line_of_blank_session_is_lost_from_the_card_its_cells_name_before_it() {
        // (seat C of game 1, its table and game those of the card above)
        for line in [
            ",,1,1,C,P3,0,-3,3",
            ",,,1,C,P3,0,-3,3",
            "prelim,,1,1,C,P3,0,-3,3",
        ] {
            let (cards, problems) = read(&[CARD_1[0], CARD_1[1], line, CARD_1[2]]);
            assert_eq!(cards.len(), 1, "{line}");
            let lost = lost(&cards, 1);
            assert!(lost.game(1), "{line}: {lost:?}");
            assert!(problems.has_errors());
        }
        // its game unread: any game's
        let (cards, _) = read(&[CARD_1[0], ",,1,,C,P3,0,-3,3"]);
        assert!(lost(&cards, 1).unknown_game);
    }

    #[test]
    fn a_line_of_blank_session_that_names_else_is_no_cards() {
        for line in [
            ",,2,1,C,P3,0,-3,3",      // another table
            ",S2,,1,C,P3,0,-3,3",     // another session
            "final,,1,1,C,P3,0,-3,3", // another stage
            ",,1,4,C,P3,0,-3,3",      // a game hk does not play
            ",,1,1,A,P3,0,-3,3",      // a seat game 1 has
            ",,,,C,P3,0,-3,3",        // nothing of a card
            "prelim,,,,,P3,0,-3,3",   // nothing of a card but the stage
        ] {
            let (cards, _) = read(&[CARD_1[0], CARD_1[1], line, CARD_1[2]]);
            assert_eq!(cards.len(), 1, "{line}");
            assert!(!lost(&cards, 1).any(), "{line}");
        }
        // its game unread, and its seat in every game the card plays
        let mut lines: Vec<String> = (1..=3).map(|g| format!(",S1,1,{g},A,P1,1,0,0")).collect();
        lines.push(",,1,,A,P1,1,0,0".into());
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert!(!lost(&read(&lines).0, 1).any());
        // nothing before it in the sheet
        let (cards, problems) = read(&[",,1,1,C,P3,0,-3,3", CARD_1[0]]);
        assert!(!lost(&cards, 1).any());
        assert!(problems.has_errors());
    }

    #[test]
    fn the_card_a_line_is_lost_from_is_the_card_of_the_line_before_it() {
        // table 1's line after table 2's first: the card made last is
        // table 2's, the card of the line before is table 1's
        let lines = [
            CARD_1[0],
            ",S1,2,1,A,P5,1,0,0",
            CARD_1[1],
            ",,,1,C,P3,0,-3,3",
            ",S1,2,1,B,P6,0,-5,5",
        ];
        let (cards, _) = read(&lines);
        assert!(lost(&cards, 1).game(1));
        assert!(!lost(&cards, 2).any());
        // a line lost from its card, its card read, is a line of it
        let lines = [CARD_1[0], ",S1,2,x,A,P5,1,0,0", ",,2,1,B,P6,0,-5,5"];
        let (cards, _) = read(&lines);
        assert!(!lost(&cards, 1).any());
        assert_eq!(
            lost(&cards, 2),
            LostLines {
                unknown_game: true,
                games: vec![1],
                ..LostLines::default()
            }
        );
        assert!(cards.iter().all(|c| c.key.stage == Stage::prelim()));
    }

    /// A card's session, table and game typed full-width on some of its
    /// lines (a Chinese keyboard's `７`) are the numbers typed plainly on
    /// the others: one card, its lines in their games, nothing said.
    #[test]
    fn full_width_session_table_and_game_numbers_are_the_plain_ones() {
        let (cards, problems) = read(&[
            ",S1,7,1,A,P1,1,0,0",
            ",Ｓ１,７,１,B,P2,0,-5,5",
            ",S1,７,1,C,P3,0,-3,3",
            ",Ｓ０１,7,２．０,A,P1,0,-4,4",
            ",1,Ｔ７,2,B,P2,1,0,0",
        ]);
        assert!(!problems.has_errors(), "{problems:?}");
        assert_eq!(cards.len(), 1);
        assert_eq!(cards[0].key.session, Label::Num(1));
        assert_eq!(cards[0].key.table, Label::Num(7));
        let games: Vec<(u32, usize)> = cards[0]
            .games
            .iter()
            .map(|g| (g.number, g.lines.len()))
            .collect();
        assert_eq!(games, [(1, 3), (2, 2)]);
        // the roster's and the racks' whole numbers alike
        for t in ["２", "０２", " ２ ", "２．０", "＋２"] {
            assert_eq!(super::whole_number_text(t), Some(2), "{t}");
        }
        assert_eq!(super::whole_number_text("２a"), None);
    }

    /// Lines given again one after another are one error for the run,
    /// said with the sheet's rows in a workbook; the card is not to count.
    #[test]
    fn a_run_of_lines_given_again_is_one_error_naming_rows_in_a_workbook() {
        let lines = [CARD_1[0], CARD_1[1], CARD_1[2], CARD_1[0], CARD_1[1]];
        let (cards, problems) = read(&lines);
        assert!(cards[0].defective);
        let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            said,
            ["t.csv:5: error: session S01 table 1: lines 5-6 give again the games and seats of lines 2-3 (a table pasted twice, or typed under another table's number?); expected one line per seat per game"]
        );
        let (_, problems) = read_from(&Source::sheet("t.xlsx", "S01"), &lines);
        let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            said,
            ["t.xlsx[S01] row 5: error: session S01 table 1: rows 5-6 give again the games and seats of rows 2-3 (a table pasted twice, or typed under another table's number?); expected one line per seat per game"]
        );
    }

    #[test]
    fn short_texts_are_the_same_exactly_when_their_bytes_are() {
        let base: Vec<u8> = (b'a'..=b'z').collect();
        for n in 0..=base.len() {
            let a = &base[..n];
            assert!(same_short_bytes(a, a), "{n}");
            assert!(!same_short_bytes(a, &base[..n.saturating_sub(1)]) || n == 0);
            for at in 0..n {
                let mut b = a.to_vec();
                b[at] = b'#';
                assert!(!same_short_bytes(a, &b), "{n} {at}");
            }
        }
    }
}
