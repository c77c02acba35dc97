//! The racks layout (FORMATS.md): what is left on each rack; the tool
//! computes the scores.
//!
//! ```text
//! session,table,game,seat,player,points,jokers,tiles,penalty
//! S01,7,1,A,P0001,0,0,0,
//! S01,7,1,B,P0002,23,1,4,
//! ```
//!
//! Instead of `points`/`jokers`/`tiles`, a `rack` column may list the tiles
//! (`R5 B13 K7 O1 J`); where both are given they must agree. Each card is
//! scored by RULES.md sections 2 to 4 and becomes a recorded card, which then
//! goes through the checks of section 5 like any other.

use super::cell::{Cell, Row};
use super::header::{each_line, map_header, Column, ColumnMap};
use super::lines::{self, Grouped, Grouper, Line, StageCache, HEAD_COLUMNS, OPTIONAL_COLUMNS};
use super::raw::{Layout, RawCard, RawCell, RawGame, RawLine};
use super::text::RowError;
use crate::domain::Seat;
use crate::place::{At, Source};
use crate::problem::Problems;
use crate::profile::Rules;
use crate::rules::rack::{
    game_problems, rack_problems, Penalty, Rack, TileList, JOKERS_IN_SET, TILES_IN_SET,
};
use crate::rules::scoring::score_game;
use crate::rules::standings::KNOCKED_RACK_TILES;

const POINTS: usize = 6;
const JOKERS: usize = 7;
const TILES: usize = 8;
const PENALTY: usize = 9;
const RACK: usize = 10;

fn columns() -> Vec<Column> {
    let mut c = HEAD_COLUMNS.to_vec();
    c.extend([
        Column {
            name: "points",
            aliases: &["rackpoints", "value"],
            required: false,
        },
        Column {
            name: "jokers",
            aliases: &["joker"],
            required: false,
        },
        Column {
            name: "tiles",
            aliases: &["tilesonrack", "tileonrack", "tilesleft"],
            required: false,
        },
        Column {
            name: "penalty",
            aliases: &["charge"],
            required: false,
        },
        Column {
            name: "rack",
            aliases: &["tilesleftonrack"],
            required: false,
        },
    ]);
    c.extend(OPTIONAL_COLUMNS);
    c
}

/// How near a header row comes to the layout (see
/// [`super::header::lacking`]).
pub fn lacking(texts: &[String]) -> (usize, Vec<String>) {
    super::header::lacking(texts, &columns(), Some((POINTS, RACK)))
}

pub fn is_header(texts: &[String]) -> bool {
    map_header(texts, &columns()).is_some_and(|m| m.get(POINTS).is_some() || m.get(RACK).is_some())
}

/// One seat's rack in one game, as read.
pub struct RackLine {
    pub seat: Seat,
    pub row: At,
    pub points: RawCell,
    pub jokers: RawCell,
    pub tiles: RawCell,
    pub penalty: RawCell,
    pub rack: RawCell,
}

impl Line for RackLine {
    fn seat(&self) -> Seat {
        self.seat
    }
    fn at(&self) -> At {
        self.row
    }
}

/// The racks of one card, as read, to be scored with [`score_card`].
pub struct RackCard {
    pub source: Source,
    pub grouped: Grouped<RackLine>,
}

/// Reads the racks of one sheet, grouped into cards.
pub fn read(
    source: &Source,
    rows: impl Iterator<Item = Result<Row, RowError>>,
    merged: &[super::cell::Merge],
    problems: &mut Problems,
) -> Vec<RackCard> {
    let mut grouper: Grouper<RackLine> = Grouper::new(source);
    let mut stages = StageCache::default();
    let mut labels = lines::MergedLabels::new(merged);
    let columns = columns();
    let has_racks = |m: &ColumnMap| m.get(POINTS).is_some() || m.get(RACK).is_some();
    let whole = each_line(
        source,
        rows,
        &columns,
        has_racks,
        problems,
        |m, mut row, problems| {
            labels.fill(m, &mut row, &[POINTS, JOKERS, TILES, PENALTY, RACK]);
            // (the values taken first: the head borrows the line's player)
            let mut get = |col| lines::take(m, &mut row, col);
            let (points, jokers, tiles, penalty, rack) = (
                get(POINTS),
                get(JOKERS),
                get(TILES),
                get(PENALTY),
                get(RACK),
            );
            let head = match lines::head(source, m, &mut row, &mut stages, problems) {
                Ok(head) => head,
                Err(lost) => {
                    grouper.lose(&lost);
                    return;
                }
            };
            if lines::unseated(&head.player, &[&points, &jokers, &tiles, &penalty, &rack]) {
                return;
            }
            let line = RackLine {
                seat: head.seat,
                row: head.row,
                points,
                jokers,
                tiles,
                penalty,
                rack,
            };
            grouper.add(&head, line, problems);
        },
    );
    grouper.end_run(problems);
    if !whole {
        grouper.cut_short();
    }
    grouper
        .cards
        .into_iter()
        .map(|grouped| RackCard {
            source: source.clone(),
            grouped,
        })
        .collect()
}

fn count(
    cell: &RawCell,
    source: &Source,
    what: &str,
    max: u32,
    problems: &mut Problems,
) -> Option<Option<u32>> {
    if cell.is_blank() {
        return Some(None);
    }
    match lines::whole_number(&cell.value).filter(|&n| n <= max) {
        Some(n) => Some(Some(n)),
        None => {
            problems.error(
                source.place(cell.at),
                format!(
                    "{what} is {}; expected a whole number from 0 to {max}",
                    cell.value.describe()
                ),
            );
            None
        }
    }
}

/// A rack as read: the rack, its listed tiles, and whether its tiles could
/// be counted (a knocked rack may be left blank).
struct Read {
    rack: Rack,
    list: Option<TileList>,
    counted: bool,
}

/// The rack of one line: from `points`/`jokers`/`tiles`, from the `rack`
/// list, or from both when they agree.
fn rack_of(line: &RackLine, source: &Source, problems: &mut Problems) -> Option<Read> {
    let before = problems.error_count();
    let points = count(
        &line.points,
        source,
        "points",
        13 * u32::from(TILES_IN_SET),
        problems,
    );
    let jokers = count(
        &line.jokers,
        source,
        "jokers",
        u32::from(JOKERS_IN_SET),
        problems,
    );
    let tiles = count(
        &line.tiles,
        source,
        "tiles",
        u32::from(TILES_IN_SET),
        problems,
    );
    let penalty = match line.penalty.value.text_ref().as_ref() {
        "" => Some(None),
        text => match Penalty::parse(text) {
            Some(p) => Some(Some(p)),
            None => {
                problems.error(
                    source.place(line.penalty.at),
                    format!(
                        "penalty is {}; expected blank, no-meld, refused-meld or knocked",
                        super::cell::quoted(text)
                    ),
                );
                None
            }
        },
    };
    let list = if line.rack.is_blank() {
        None
    } else {
        match TileList::parse(&line.rack.value.as_text()) {
            Ok(l) => Some(l),
            Err(errors) => {
                for e in errors {
                    problems.error(source.place(line.rack.at), format!("rack: {e}"));
                }
                None
            }
        }
    };
    if problems.error_count() > before {
        return None;
    }
    let (points, jokers, tiles, penalty) = (points?, jokers?, tiles?, penalty?);
    let rack = match (&list, points, tiles) {
        (Some(l), _, _) => {
            let from_list = Rack::new(l.points(), l.jokers(), l.tiles.len() as u16);
            let mut agree = true;
            for (given, listed, what, cell) in [
                (points, from_list.points as u32, "points", &line.points),
                (jokers, u32::from(from_list.jokers), "jokers", &line.jokers),
                (tiles, u32::from(from_list.tiles), "tiles", &line.tiles),
            ] {
                if let Some(g) = given.filter(|&g| g != listed) {
                    problems.error(
                        source.place(cell.at),
                        format!(
                            "{what} is {g} but the rack lists {listed} ({})",
                            line.rack.value.as_text()
                        ),
                    );
                    agree = false;
                }
            }
            if !agree {
                return None;
            }
            from_list
        }
        (None, Some(p), Some(t)) => Rack::new(i64::from(p), jokers.unwrap_or(0) as u8, t as u16),
        (None, None, None) if penalty == Some(Penalty::Knocked) => {
            // A knocked rack cannot be counted: the charge is its value.
            let uncounted = Rack::new(0, 0, KNOCKED_RACK_TILES as u16).charged(Penalty::Knocked);
            return Some(Read {
                rack: uncounted,
                list: None,
                counted: false,
            });
        }
        (None, _, _) => {
            let missing = if points.is_none() {
                &line.points
            } else {
                &line.tiles
            };
            problems.error(
                source.place(missing.at),
                "rack not given: expected points and tiles (and jokers), or the rack's tiles listed such as R5 B13 J (- for an empty rack: the player went out)",
            );
            return None;
        }
    };
    let rack = Rack { penalty, ..rack };
    let errors = rack_problems(&rack);
    for e in &errors {
        problems.error(source.place(line.row), format!("seat {}: {e}", line.seat));
    }

    errors.is_empty().then_some(Read {
        rack,
        list,
        counted: true,
    })
}

/// Scores a card from its racks (RULES.md sections 2 to 4) into a recorded
/// card; `None` when any rack has an error (each is in `problems`).
pub fn score_card(card: &RackCard, rules: &Rules, problems: &mut Problems) -> Option<RawCard> {
    let RackCard { source, grouped } = card;
    let games_played = rules.games_for(&grouped.key.stage);
    let lost = grouped.lost.of_card(games_played, &grouped.games);
    let mut ok = !grouped.defective && !lost.any();
    let mut games = Vec::new();
    for game in &grouped.games {
        let (number, at, lines) = (game.number, game.at, &game.lines);
        if lost.game(number) {
            continue; // short of a line its reader said it could not place
        }
        let place = source.place(at);
        let racks: Vec<Option<Read>> = lines.iter().map(|l| rack_of(l, source, problems)).collect();
        if racks.iter().any(Option::is_none) {
            ok = false;
            continue;
        }
        let racks: Vec<Read> = racks.into_iter().flatten().collect();
        let plain: Vec<Rack> = racks.iter().map(|r| r.rack).collect();
        let lists: Vec<Option<&TileList>> = racks.iter().map(|r| r.list.as_ref()).collect();
        let errors = game_problems(&plain, &lists);
        for e in &errors {
            problems.error(place.clone(), format!("game {number}: {e}"));
        }
        if !errors.is_empty() {
            ok = false;
            continue;
        }
        let outcomes = match score_game(&plain, rules) {
            Ok(o) => o,
            Err(e) => {
                problems.error(place.clone(), format!("game {number}: {e}"));
                ok = false;
                continue;
            }
        };
        let computed = lines
            .iter()
            .zip(&racks)
            .zip(&outcomes)
            .map(|((l, read), o)| {
                let tiles = if read.counted {
                    Cell::Number(f64::from(read.rack.tiles))
                } else {
                    Cell::Empty
                };
                RawLine {
                    seat: l.seat,
                    won: RawCell {
                        value: Cell::Number(f64::from(u8::from(o.won))),
                        at: l.points.at,
                    },
                    // the exact score, checked as it is (no text between)
                    score: RawCell {
                        value: Cell::Exact(o.score),
                        at: l.points.at,
                    },
                    tiles: RawCell {
                        value: tiles,
                        at: l.tiles.at,
                    },
                }
            })
            .collect();
        games.push(RawGame {
            number,
            at,
            lines: computed,
        });
    }
    ok.then(|| RawCard {
        key: grouped.key.clone(),
        layout: Layout::Racks,
        source: source.clone(),
        at: grouped.at,
        table_at: grouped.at,
        seats: grouped.seats.clone(),
        renamed: grouped.renamed.clone(),
        agreeing: grouped.agreeing(),
        games,
        total: None,
        defective: false,
        lost: Default::default(),
        title: None,
    })
}
