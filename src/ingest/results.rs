//! The results layout (FORMATS.md): one line per seat per game.
//!
//! ```text
//! session,table,game,seat,player,won,score,tiles
//! S01,7,1,A,P0001,0,+11,3
//! ```

use super::cell::{Merge, Row};
use super::header::{each_line, map_header, Column, ColumnMap};
use super::lines::{
    self, Fields, Grouped, Grouper, Line, MergedLabels, StageCache, HEAD_COLUMNS, OPTIONAL_COLUMNS,
};
use super::raw::{Layout, RawCard, RawLine};
use super::text::RowError;
use crate::domain::Seat;
use crate::place::{At, Source};
use crate::problem::Problems;

pub use super::lines::whole_number;

pub const WON: usize = 6;
pub const SCORE: usize = 7;
pub const TILES: usize = 8;

/// The columns of the layout, in the order of the constants above.
pub fn columns() -> Vec<Column> {
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
    ]);
    c.extend(OPTIONAL_COLUMNS);
    c
}

pub fn is_header(texts: &[String]) -> bool {
    map_header(texts, &columns()).is_some()
}

impl Line for RawLine {
    fn seat(&self) -> Seat {
        self.seat
    }
    fn at(&self) -> At {
        self.won.at.whole_row()
    }
}

/// The cards of a sheet (or text) of the layout, with its merged ranges.
pub fn read(
    source: &Source,
    rows: impl Iterator<Item = Result<Row, RowError>>,
    merged: &[Merge],
    problems: &mut Problems,
) -> Vec<RawCard> {
    let columns = columns();
    let mut grouper: Grouper<RawLine> = Grouper::new(source);
    let mut stages = StageCache::default();
    let mut labels = MergedLabels::new(merged);
    let whole = each_line(
        source,
        rows,
        &columns,
        |_| true,
        problems,
        |m, mut row, problems| {
            labels.fill(m, &mut row, &[WON, SCORE, TILES]);
            add_line(source, m, &mut row, &mut stages, &mut grouper, problems);
        },
    );
    grouper.end_run(problems);
    if !whole {
        grouper.cut_short();
    }
    cards(source, &mut grouper).collect()
}

/// Reads one line of the layout (its columns mapped by `m`) onto its card
/// in `grouper`: how every reader of the layout reads a line, whatever
/// holds its cells (a sheet's row, a CSV line split where it lies, a
/// stored card's line). False when the line could not be placed on a card.
#[inline]
pub fn add_line(
    source: &Source,
    m: &ColumnMap,
    row: &mut impl Fields,
    stages: &mut StageCache,
    grouper: &mut Grouper<RawLine>,
    problems: &mut Problems,
) -> bool {
    // (the values taken first: the head borrows the line's player)
    let mut get = |col| lines::take(m, row, col);
    let (won, score, tiles) = (get(WON), get(SCORE), get(TILES));
    let head = match lines::head(source, m, row, stages, problems) {
        Ok(head) => head,
        Err(lost) => {
            grouper.lose(&lost);
            return false;
        }
    };
    if lines::unseated(&head.player, &[&won, &score, &tiles]) {
        return true;
    }
    let line = RawLine {
        seat: head.seat,
        won,
        score,
        tiles,
    };
    grouper.add(&head, line, problems);
    true
}

/// The cards `grouper` put together from lines of `source`, taken out of it
/// (it keeps the room they took, for the lines of another source).
pub fn cards<'a>(
    source: &'a Source,
    grouper: &'a mut Grouper<RawLine>,
) -> impl Iterator<Item = RawCard> + 'a {
    grouper.cards.drain(..).map(|g| card(source, g))
}

/// A card of lines of `source` as [`Grouper`] put them together.
pub fn card(source: &Source, g: Grouped<RawLine>) -> RawCard {
    let agreeing = g.agreeing();
    RawCard {
        key: g.key,
        layout: Layout::Results,
        source: source.clone(),
        at: g.at,
        table_at: g.at,
        seats: g.seats,
        renamed: g.renamed,
        agreeing,
        games: g.games,
        total: None,
        defective: g.defective,
        lost: g.lost,
        title: None,
    }
}
