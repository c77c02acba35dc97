//! RULES.md section 5: checking a recorded card.
//!
//! The tool cannot see the racks, but it checks everything the rules force.
//! Each failed check is one error naming the cell (or the game's row), what
//! was found and what was expected; a card with any error is not used.
//!
//! Every reader gives its cards in one form ([`RawCard`]: a results or
//! racks file, a printed score card, the event's store), and every card
//! of every source is checked here, by these functions and no others:
//!
//! | check | function |
//! |---|---|
//! | 1. 3 or 4 seats | [`check_values`] |
//! | 1. known and distinct players | [`name_players`] |
//! | 1. across cards: a table twice, a player at two tables | [`Seating::clashes`] |
//! | 2. values: won, score, tiles | [`parse_won`], [`parse_score`], [`parse_tiles`] |
//! | 3. scores sum to zero | `check_game` |
//! | 4. someone went out | `check_went_out` |
//! | 5. nobody went out | `check_nobody_out` |
//! | 6. the `Total` line | `check_total` |
//! | 7. games per card, withdrawn players | [`check_values`] |
//!
//! [`check_card`] is checks 1 to 7 of one card; a large file's cards are
//! checked on two threads ([`check_values`], which needs nothing but the
//! card) and named on one ([`name_players`], which needs the roster).

use crate::domain::{
    Card, CardKey, Game, Label, PlayerId, Seat, SeatPlayer, SeatResult, SessionName, Stage,
};
use crate::ingest::cell::{digits, half_width, Cell, Text};
use crate::ingest::raw::{Layout, RawCard, RawCell, RawGame, RawLine, RawSeat};
use crate::place::{column_name, At, Place, Source};
use crate::problem::said::{Msg, Part, Said};
use crate::problem::Problems;
use crate::profile::{PenaltyMode, ProfileName, Rules, Scoring, PROFILES};
use crate::roster::{match_key, Roster, Unresolved};
use crate::rules::tally::SeatSums;
use crate::score::Score;
use std::collections::HashMap;

/// The most tiles a rack can hold: the whole set.
pub const MAX_TILES: u16 = 106;

/// A whole number as a spreadsheet may write it, `7.0` (or `7.0.0`), as
/// `7`.
/// `t` without the spaces around it, as [`str::trim`] gives it, with no
/// search for the usual cell: one that starts and ends with a printable
/// ASCII character.
#[inline]
fn trimmed(t: &str) -> &str {
    let printable = |b: &u8| (b'!'..=b'~').contains(b);
    let b = t.as_bytes();
    if b.first().is_some_and(printable) && b.last().is_some_and(printable) {
        t
    } else {
        t.trim()
    }
}

fn without_point_zero(t: &str) -> &str {
    let mut t = t;
    while let Some(rest) = t.as_bytes().strip_suffix(b".0") {
        t = &t[..rest.len()];
    }
    t
}

/// Check 2: `won` is 1 or 0 (`1.0`, `"1"` and TRUE count: a workbook's
/// TRUE, and the `TRUE` a spreadsheet writes of it in a CSV file).
///
/// The common case, the digit alone, is read where the parser is called
/// (its answer in a register); the rest is `parse_won_rest`. (Each of
/// the three parsers is split so: called out of line for every cell of a
/// large file, each answer went through memory, written in pieces and
/// read whole at once, and the processor waited for it: `perf annotate`.)
#[inline]
pub fn parse_won(cell: &Cell) -> Result<bool, Said> {
    match cell {
        Cell::Text(t) if t.as_str() == "1" => Ok(true),
        Cell::Text(t) if t.as_str() == "0" => Ok(false),
        _ => parse_won_rest(cell),
    }
}

/// [`parse_won`] of every cell but a plain `0` or `1`.
#[inline(never)]
fn parse_won_rest(cell: &Cell) -> Result<bool, Said> {
    let found = match cell {
        Cell::Number(n) if *n == 1.0 => return Ok(true),
        Cell::Number(n) if *n == 0.0 => return Ok(false),
        Cell::Bool(b) => return Ok(*b),
        Cell::Text(t) => match without_point_zero(trimmed(&half_width(t))) {
            "1" => return Ok(true),
            "0" => return Ok(false),
            t if t.eq_ignore_ascii_case("true") => return Ok(true),
            t if t.eq_ignore_ascii_case("false") => return Ok(false),
            _ => cell.described(),
        },
        Cell::FormulaWithoutValue(f) => return Err(Said::new(Msg::WonFormula, [Part::text(f)])),
        _ => cell.described(),
    };
    Err(Said::new(Msg::WonIs, [found]))
}

/// Check 2: `tiles` is a whole number 0..=106; blank is `None` (allowed
/// only for a knocked rack, decided by the game checks).
/// The common case, a few digits in range, is read where the parser is
/// called (see [`parse_won`]); the rest is `parse_tiles_rest`.
#[inline]
pub fn parse_tiles(cell: &Cell) -> Result<Option<u16>, Said> {
    match cell {
        Cell::Empty => Ok(None),
        Cell::Text(t) => match digits(t) {
            Some(n) if n <= u32::from(MAX_TILES) => Ok(Some(n as u16)),
            _ => parse_tiles_rest(cell),
        },
        _ => parse_tiles_rest(cell),
    }
}

/// [`parse_tiles`] of every cell but a blank or a few digits in range.
#[inline(never)]
fn parse_tiles_rest(cell: &Cell) -> Result<Option<u16>, Said> {
    let n = match cell {
        Cell::Empty => return Ok(None),
        Cell::Number(n) if n.fract() == 0.0 => Some(*n),
        Cell::Text(t) => match digits(t) {
            Some(n) if n <= u32::from(MAX_TILES) => return Ok(Some(n as u16)),
            Some(n) => Some(f64::from(n)),
            None => {
                let t = half_width(t);
                let t = without_point_zero(trimmed(&t));
                digits(t).or_else(|| t.parse::<u32>().ok()).map(f64::from)
            }
        },
        Cell::FormulaWithoutValue(f) => return Err(Said::new(Msg::TilesFormula, [Part::text(f)])),
        _ => None,
    };
    match n {
        Some(n) if (0.0..=f64::from(MAX_TILES)).contains(&n) => Ok(Some(n as u16)),
        _ => Err(Said::new(
            Msg::TilesIs,
            [cell.described(), Part::text(MAX_TILES)],
        )),
    }
}

/// Check 2: `score` is a number: `+30`, `30`, `30.0`, `-5`, `−5`. A rounded
/// value stands for the exact score it rounds from (`3.33` for 10/3): under
/// zero-sum rules a game's scores are whole, halves or thirds.
///
/// The common case, a whole number in its plainest spelling, is read where
/// the parser is called (see [`parse_won`]); the rest is
/// `parse_score_rest`.
#[inline]
pub fn parse_score(cell: &Cell, rules: &Rules) -> Result<Score, Said> {
    if let Cell::Text(t) = cell {
        if let Some(n) = plain_whole(t) {
            if n >= 0 || rules.scoring == Scoring::ZeroSum {
                return Ok(Score::whole(n));
            }
        }
    }
    parse_score_rest(cell, rules)
}

/// [`parse_score`] of every cell but a plain whole number.
#[inline(never)]
fn parse_score_rest(cell: &Cell, rules: &Rules) -> Result<Score, Said> {
    let value = match cell {
        Cell::Empty => return Err(Said::new(Msg::ScoreBlank, [])),
        Cell::Number(n) => Score::from_f64(*n),
        Cell::Text(t) => match plain_whole(t) {
            Some(n) if n >= 0 || rules.scoring == Scoring::ZeroSum => {
                return Ok(Score::whole(n));
            }
            _ => Score::parse(t),
        },

        Cell::Exact(s) => Some(*s),

        Cell::FormulaWithoutValue(f) => return Err(Said::new(Msg::ScoreFormula, [Part::text(f)])),
        _ => None,
    };
    let Some(value) = value else {
        return Err(Said::new(Msg::ScoreIs, [cell.described()]));
    };
    match rules.scoring {
        Scoring::ZeroSum => value
            .snap(6)
            .ok_or_else(|| Said::new(Msg::ScoreNotShare, [Part::Text(cell.as_text())])),
        Scoring::PenaltyPoints => match value.snap(1) {
            Some(v) if !v.is_negative() => Ok(v),
            _ => Err(Said::new(
                Msg::ScoreNotPenalty,
                [Part::Text(cell.as_text())],
            )),
        },
    }
}

/// `30`, `+30`, `-5`: a whole number of at most nine digits with its sign,
/// the way nearly every score is typed (anything else is read by
/// [`Score::parse`], to the same value).
fn plain_whole(t: &str) -> Option<i64> {
    let (negative, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let n = i64::from(digits(rest)?);
    Some(if negative { -n } else { n })
}

/// One seat's values in one game, parsed, with where its cells are (made
/// places only when an error is reported).
#[derive(Clone, Copy)]
struct Line<'a> {
    source: &'a Source,
    seat: Seat,
    won_at: At,
    score_at: At,
    tiles_at: At,
    won: bool,
    score: Score,
    tiles: Option<u16>,
}

impl Line<'_> {
    fn seat(&self) -> Seat {
        self.seat
    }

    fn won_place(&self) -> Place {
        self.source.place(self.won_at)
    }

    fn score_place(&self) -> Place {
        self.source.place(self.score_at)
    }

    fn tiles_place(&self) -> Place {
        self.source.place(self.tiles_at)
    }
}

/// The values of a game, as `A +30, B -5, C -10` (in Chinese `A +30、B -5、C -10`).
fn listing(lines: &[Line]) -> Part {
    let each = lines
        .iter()
        .map(|l| Part::text(format!("{} {}", l.seat(), l.score.signed())));
    Part::Each(each.collect(), Msg::Comma)
}

/// Seats as a message lists them: `A, B and C`.
fn seats_list(seats: impl IntoIterator<Item = Seat>) -> Part {
    Part::List(seats.into_iter().map(Part::text).collect(), Msg::And)
}

/// One seat's checked result in one game, before its player is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatValues {
    pub seat: Seat,
    pub won: bool,
    pub score: Score,
    pub tiles: Option<u16>,
    /// Where the score is.
    pub at: At,
}

/// What a card's values come to once every check but the players' passed
/// ([`check_values`]): what each seat did, and, when asked, each game.
#[derive(Clone, Debug, Default)]
pub struct Values {
    /// What each seat did, by seat (A, B, C, D).
    pub sums: [SeatSums; 4],
    /// The games, in game order, each seat's result in the order read
    /// (empty unless asked for).
    pub games: Vec<(u32, Vec<SeatValues>)>,
    /// How many games were played.
    pub played: u32,
}

/// The checks of RULES.md section 5 that need nothing but the card itself
/// (checks 1 to 7 but for who the players are, and for what needs the
/// other cards): how many seats, the games the profile expects, every value
/// (check 2), every game (checks 3 to 5), the `Total` line (check 6). Each
/// failed check is an error at its cell; the card's values when every
/// check passed. With `keep`, the games are kept too.
///
/// A card refused is counted in `problems`, with the built-in profiles
/// whose scoring it follows instead (`adds_up_under`): a card of
/// another profile's event, checked under these rules, is told so once
/// ([`Problems::other_profile`]).
pub fn check_values(
    raw: &RawCard,
    rules: &Rules,
    keep: bool,
    problems: &mut Problems,
) -> Option<Values> {
    let values = check_values_under(raw, rules, keep, problems);
    if values.is_none() {
        problems.refused_card(adds_up_under(raw, rules));
    }
    values
}

/// The built-in profiles (by their place in [`PROFILES`]) under whose
/// scoring a card refused under `rules` adds up: it passes every check of
/// [`check_values`] under the profile's rules, and fails them under the
/// profile's rules with the scoring of `rules` (the scores are what
/// differ, not the stages or the games a card has). Only a refused card is
/// looked at again, never one that passed.
fn adds_up_under(raw: &RawCard, rules: &Rules) -> [bool; PROFILES.len()] {
    let mut under = [false; PROFILES.len()];
    if raw.defective {
        return under;
    }
    for (i, (profile, theirs)) in builtin_rules().iter().enumerate() {
        if *profile == rules.profile || same_scoring(theirs, rules) {
            continue;
        }
        let passes = |r: &Rules| check_values_under(raw, r, false, &mut Problems::new()).is_some();
        under[i] = passes(theirs) && !passes(&with_scoring_of(theirs.clone(), rules));
    }
    under
}

/// Whether `rules` score a game as the built-in `profile` does: a card
/// that adds up under the profile adds up under them (an event's own
/// settings, written from a profile, against the profile's scoring).
pub fn scores_as(profile: ProfileName, rules: &Rules) -> bool {
    builtin_rules()
        .iter()
        .any(|(p, theirs)| *p == profile && same_scoring(theirs, rules))
}

/// Every built-in profile's rules, read once.
fn builtin_rules() -> &'static [(ProfileName, Rules)] {
    static RULES: std::sync::OnceLock<Vec<(ProfileName, Rules)>> = std::sync::OnceLock::new();
    RULES.get_or_init(|| ProfileName::all().map(|p| (p, p.rules())).collect())
}

/// Whether two rules score a game alike: what the checks of a game read.
fn same_scoring(a: &Rules, b: &Rules) -> bool {
    a.scoring == b.scoring
        && a.joker_value == b.joker_value
        && a.penalties == b.penalties
        && a.penalty_mode == b.penalty_mode
        && a.no_winner_by == b.no_winner_by
}

/// `rules` scoring a game as `of` does (see [`same_scoring`]).
fn with_scoring_of(rules: Rules, of: &Rules) -> Rules {
    Rules {
        scoring: of.scoring,
        joker_value: of.joker_value,
        penalties: of.penalties,
        penalty_mode: of.penalty_mode,
        no_winner_by: of.no_winner_by,
        ..rules
    }
}

/// [`check_values`], the card's refusal not counted.
fn check_values_under(
    raw: &RawCard,
    rules: &Rules,
    keep: bool,
    problems: &mut Problems,
) -> Option<Values> {
    let errors_before = problems.error_count();
    let source = &raw.source;
    let expected = rules.games_for(&raw.key.stage);
    // The lines the reader could not place that are this card's: it does
    // not count, and its checks leave them to the errors said at them.
    let lost = raw.lost.of_card(expected, &raw.games);
    let defective = raw.defective || lost.any();

    // Check 1: 3 or 4 seats (a line the reader could not place may be a
    // seat's only one: its error is said).
    let filled = raw.seats.len();
    if !(3..=4).contains(&filled) && !lost.any() {
        problems.error(
            raw.place(),
            Said::new(
                Msg::Seated,
                [
                    raw.key.said(),
                    Part::count(filled, Msg::OnePlayer, Msg::Players),
                    seats_list(raw.seats.iter().map(|s| s.seat)),
                ],
            ),
        );
    }

    // The card's stage is one the event plays (a typo would file the card
    // under standings nobody reads).
    if !rules.stages.iter().any(|s| s == raw.key.stage.as_str()) {
        problems.error(
            raw.place(),
            Said::new(
                Msg::WithAdvice,
                [
                    Part::said(
                        Msg::UnknownStage,
                        [
                            raw.key.said(),
                            Part::Stage(raw.key.stage.to_string()),
                            Part::Text(rules.stages.join(", ")),
                        ],
                    ),
                    Part::advice(
                        Said::new(Msg::StageAtDesk, []),
                        Said::new(Msg::StageAtTable, []),
                    ),
                ],
            ),
        );
    }

    // A card of the first stage is one its schedule expects (a typo such as
    // S13 or table 7.5 would count a table's games twice, and leave the
    // card meant named missing).
    if let Some(s) = rules.schedule {
        if raw.key.stage == rules.first_stage() {
            let on = |label: &Label, n: u32| matches!(label, Label::Num(k) if (1..=n).contains(k));
            if !on(&raw.key.session, s.sessions) {
                problems.error(
                    raw.place(),
                    Said::new(
                        Msg::SessionOff,
                        [
                            Part::text(SessionName(&raw.key.session)),
                            Part::text(SessionName(&Label::Num(s.sessions))),
                            Part::text(s.sessions),
                        ],
                    ),
                );
            }
            if !on(&raw.key.table, s.tables) {
                problems.error(
                    source.place(raw.table_at),
                    Said::new(
                        Msg::TableOff,
                        [
                            Part::text(&raw.key.table),
                            Part::text(SessionName(&raw.key.session)),
                            Part::text(s.tables),
                            Part::text(s.tables),
                        ],
                    ),
                );
            }
        }
    }

    // Check 7: the games the profile expects, numbered 1..=N.
    let is_played = |g: &&RawGame| g.lines.iter().any(|l| !l.is_blank());
    for g in raw.games.iter().filter(is_played) {
        if g.number > expected {
            problems.error(
                source.place(g.at),
                Said::new(
                    Msg::GamePastLast,
                    [
                        Part::text(g.number),
                        Part::text(rules.profile),
                        Part::text(expected),
                    ],
                ),
            );
        }
    }
    let missing: Vec<u32> = (1..=expected)
        .filter(|n| !raw.games.iter().filter(is_played).any(|g| g.number == *n))
        .filter(|n| !lost.game(*n))
        .collect();
    // A game whose row a printed card has, every seat's cells blank, on a
    // card with a game typed, is said at its first cell, the cells to
    // fill named; a game with no row at all (or no line in a file), and
    // the games of a card with none typed (a blank card), are said of the
    // card, once.
    let typed = raw.games.iter().any(|g| is_played(&g));
    let blank_row = |n: u32| {
        let g = raw.games.iter().find(|g| typed && g.number == n)?;
        let cells = g
            .lines
            .iter()
            .flat_map(|l| [&l.won, &l.score, &l.tiles])
            .map(|c| c.at);
        let first = cells.clone().min_by_key(|at| at.col)?;
        let last = cells.max_by_key(|at| at.col)?;
        (raw.layout == Layout::ScoreCard && first.row == last.row && first.col > 0)
            .then_some((first, last))
    };
    for &n in &missing {
        if let Some((first, last)) = blank_row(n) {
            problems.error(
                source.place(first),
                Said::new(
                    Msg::GameBlank,
                    [
                        raw.key.said(),
                        Part::text(n),
                        Part::Text(format!(
                            "{}{}:{}{}",
                            column_name(first.col),
                            first.row,
                            column_name(last.col),
                            last.row
                        )),
                        Part::text(rules.profile),
                        Part::text(expected),
                    ],
                ),
            );
        }
    }
    let missing: Vec<String> = missing
        .into_iter()
        .filter(|&n| blank_row(n).is_none())
        .map(|n| n.to_string())
        .collect();
    if !missing.is_empty() {
        problems.error(
            raw.place(),
            Said::new(
                Msg::GameMissing,
                [
                    raw.key.said(),
                    Part::Text(missing.join(", ")),
                    Part::text(rules.profile),
                    Part::text(expected),
                ],
            ),
        );
    }

    // Checks 2 to 5, game by game.
    let mut values = Values::default();
    // Seats with a game that could not be read: their Total is not checked
    // (the error is already listed; a Total "wrong" by that game is not).
    let mut unread: Vec<Seat> = Vec::new();
    // (a game has a line a seat at most, four: held here, no allocation
    // a card; `read` of them filled)
    let blank = Line {
        source,
        seat: Seat::A,
        won_at: At::default(),
        score_at: At::default(),
        tiles_at: At::default(),
        won: false,
        score: Score::ZERO,
        tiles: None,
    };
    let mut held = [blank; 4];
    for g in raw.games.iter().filter(is_played) {
        let mut read = 0;
        let mut values_ok = true;
        for raw_line in g.lines.iter().filter(|l| !l.is_blank()) {
            if raw.seat(raw_line.seat).is_none() {
                values_ok = false; // a seat with no player: the reader said so
                unread.push(raw_line.seat);
                continue;
            }
            let won = parse_won(&raw_line.won.value)
                .map_err(|e| problems.error(source.place(raw_line.won.at), e));
            let score = parse_score(&raw_line.score.value, rules)
                .map_err(|e| problems.error(source.place(raw_line.score.at), e));
            let tiles = parse_tiles(&raw_line.tiles.value)
                .map_err(|e| problems.error(source.place(raw_line.tiles.at), e));
            match (won, score, tiles) {
                // (a seat's second line in a game is refused as it is
                // grouped: never more than four)
                (Ok(won), Ok(score), Ok(tiles)) if read < held.len() => {
                    held[read] = Line {
                        source,
                        seat: raw_line.seat,
                        won_at: raw_line.won.at,
                        score_at: raw_line.score.at,
                        tiles_at: raw_line.tiles.at,
                        won,
                        score,
                        tiles,
                    };
                    read += 1;
                }
                _ => {
                    values_ok = false;
                    unread.push(raw_line.seat);
                }
            }
        }
        let lines = &held[..read];
        if lost.game(g.number) {
            // a line of it could not be placed (its error is said): its
            // count and its sums are short by it
            unread.extend(g.lines.iter().map(|l| l.seat));
            continue;
        }
        let seated = g.lines.iter().filter(|l| !l.is_blank()).count();
        if !(3..=4).contains(&seated) {
            unread.extend(g.lines.iter().filter(|l| !l.is_blank()).map(|l| l.seat));
            let who = seats_list(g.lines.iter().filter(|l| !l.is_blank()).map(|l| l.seat));
            problems.error(
                source.place(g.at),
                Said::new(
                    Msg::GamePlayers,
                    [
                        Part::text(g.number),
                        Part::count(seated, Msg::OnePlayer, Msg::Players),
                        who,
                    ],
                ),
            );
            continue;
        }
        if values_ok && left_out(raw, g, lines, rules, problems) {
            // a line short, as for a line not placed: nothing more said
            unread.extend(raw.seats.iter().map(|s| s.seat));
            continue;
        }
        if values_ok {
            let mut own = Problems::new();
            check_game(g.number, (source, g.at), lines, rules, &mut own);
            // a game refused: is it one sign away from passing?
            let hint = match own.has_errors() {
                true => sign_hint(&raw.key, g.number, (source, g.at), lines, rules),
                false => None,
            };
            match hint {
                Some((hint, flipped)) if lines.iter().all(|l| l.tiles != Some(0)) => {
                    // Nobody went out: the leaders are found from the
                    // scores, and a lost minus makes the wrong seat one,
                    // so the errors the leaders imply name seats that are
                    // right. Said instead: the sum, and each sign the one
                    // mending changes, at its cell.
                    check_sum(g.number, source.place(g.at), lines, problems);
                    for l in flipped.iter().flatten().map(|&i| &lines[i]) {
                        problems.error(
                            l.score_place(),
                            Said::new(
                                Msg::SignHere,
                                [
                                    Part::text(l.score.signed()),
                                    Part::text((-l.score).signed()),
                                ],
                            ),
                        );
                    }
                    problems.hint(source.place(g.at), hint);
                }
                Some((hint, _)) => {
                    problems.extend(own);
                    problems.hint(source.place(g.at), hint);
                }
                None => problems.extend(own),
            }
        }
        values.played += 1;
        for l in lines {
            values.sums[l.seat.index()].add(l.won, l.score, l.tiles);
        }
        // (the Total line is checked against the games)
        if keep || raw.total.is_some() {
            values.games.push((
                g.number,
                lines
                    .iter()
                    .map(|l| SeatValues {
                        seat: l.seat,
                        won: l.won,
                        score: l.score,
                        tiles: l.tiles,
                        at: l.score_at,
                    })
                    .collect(),
            ));
        }
    }

    // Check 6: the Total line, when there is one and the reader could read
    // the card whole (a row it could not place is already an error).
    if let Some(total) = raw.total.as_ref().filter(|_| !defective) {
        let readable: Vec<&RawLine> = total
            .lines
            .iter()
            .filter(|l| !unread.contains(&l.seat))
            .collect();
        check_total(source, &readable, &raw.games, &values, rules, problems);
        if !keep {
            values.games = Vec::new();
        }
    }

    let clean = !defective && problems.error_count() == errors_before;
    clean.then(|| {
        values.games.sort_by_key(|g| g.0);
        values
    })
}

/// A card once its own values are checked ([`check_values`]): what naming
/// its players and accepting it need, and nothing of its lines (a reading
/// thread makes these and keeps the lines to itself). Its places are in the
/// card's source, given beside it.
#[derive(Clone, Debug)]
pub struct Checked {
    pub key: CardKey,
    /// Rows are counted from this line (0: from the top of the source): a
    /// card read in a chunk of a file is moved down at once.
    pub rows_from: u32,
    pub at: At,
    pub table_at: At,
    /// The name at each seat (A, B, C, D), and where it is.
    pub seats: [Option<(Text, At)>; 4],
    /// A seat's lines that name another player than its first
    /// ([`RawCard::renamed`]).
    pub renamed: Vec<RawSeat>,
    /// Where the lines of a seat with such lines name its first's player
    /// ([`RawCard::agreeing`]).
    pub agreeing: Vec<(Seat, At)>,
    /// The card's values when they passed every check.
    pub values: Option<Values>,
}

impl Checked {
    /// `raw`, its values checked (`values`: what [`check_values`] said).
    pub fn of(raw: &RawCard, values: Option<Values>) -> Checked {
        let mut seats: [Option<(Text, At)>; 4] = Default::default();
        for s in &raw.seats {
            seats[s.seat.index()] = Some((s.player.clone(), s.at));
        }
        Checked {
            key: raw.key.clone(),
            rows_from: 0,
            at: raw.at,
            table_at: raw.table_at,
            seats,
            renamed: raw.renamed.clone(),
            agreeing: raw.agreeing.clone(),
            values,
        }
    }

    /// As [`Checked::of`], taking the card's key and names out of it (its
    /// list of seats left empty, for the reader to use again; its key
    /// left the first table of the first session of `prelim`).
    pub fn from_raw(raw: &mut RawCard, values: Option<Values>) -> Checked {
        let mut seats: [Option<(Text, At)>; 4] = Default::default();
        for s in raw.seats.drain(..) {
            seats[s.seat.index()] = Some((s.player, s.at));
        }
        let left = CardKey {
            stage: Stage::prelim(),
            session: Label::Num(1),
            table: Label::Num(1),
        };
        Checked {
            key: std::mem::replace(&mut raw.key, left),
            rows_from: 0,
            at: raw.at,
            table_at: raw.table_at,
            seats,
            renamed: std::mem::take(&mut raw.renamed),
            agreeing: std::mem::take(&mut raw.agreeing),
            values,
        }
    }

    /// `at` in the card's source, its row moved down by `rows_from`.
    pub fn at(&self, at: At) -> At {
        At {
            row: if at.row > 0 {
                at.row.saturating_add(self.rows_from)
            } else {
                0
            },
            col: at.col,
        }
    }

    /// The seats with a name, in seat order.
    pub fn named(&self) -> impl Iterator<Item = (Seat, &Text, At)> {
        Seat::ALL.into_iter().filter_map(|seat| {
            let (name, at) = self.seats[seat.index()].as_ref()?;
            Some((seat, name, self.at(*at)))
        })
    }
}

/// Check 1, who sits at the card: each seat a known player (a roster id, or
/// a name that matches one entry), no player at two seats. The players by
/// seat (A, B, C, D): `Ok` when every seat is named, else `Err` with the
/// seats that are (for the checks across cards). `hashes` are the names'
/// hashes by seat when a reading thread made them ([`crate::roster::NameHasher`]).
pub fn name_players(
    card: &Checked,
    source: &Source,
    hashes: Option<&[u64; 4]>,
    roster: &mut Roster,
    problems: &mut Problems,
) -> Result<[Option<PlayerId>; 4], [Option<PlayerId>; 4]> {
    let mut players = [None; 4];
    let mut ok = true;
    // the seats whose other lines were judged with their first
    let mut settled = [false; 4];
    // the seats whose first line's name is said to name no one player
    let mut first_said = [false; 4];
    for (seat, name, at) in card.named() {
        if name.is_empty() {
            // a blank player: said where the line was read
            ok = false;
            continue;
        }
        let found = match hashes {
            Some(h) => roster.resolve_hashed(name, h[seat.index()]),
            None => roster.resolve(name),
        };
        // a name of several entries, the seat's other lines naming one
        // player plainly (its id): they say who it is (docs/formats.md)
        let found = match found {
            Err(Unresolved::Ambiguous(ids)) if !roster.is_open() => {
                match named_elsewhere(card, seat, roster) {
                    Some((p, _)) if ids.contains(&p) => {
                        settled[seat.index()] = true;
                        Ok(p)
                    }
                    Some((p, other)) => {
                        settled[seat.index()] = true;
                        let other_at = card.at(other.at);
                        not_one_of(
                            source,
                            (name, at),
                            &ids,
                            (seat, &other.player, other_at, p),
                            roster,
                            problems,
                        );
                        ok = false;
                        continue;
                    }
                    None => Err(Unresolved::Ambiguous(ids)),
                }
            }
            found => found,
        };
        let player = match found {
            Ok(p) => p,
            Err(e) => {
                unresolved(source.place(at), name, &e, roster, problems);
                first_said[seat.index()] = true;
                ok = false;
                continue;
            }
        };
        if let Some(other) = Seat::ALL
            .into_iter()
            .find(|o| players[o.index()] == Some(player))
        {
            let p = roster.get(player);
            problems.error(
                source.place(at),
                Said::new(
                    Msg::SeatedTwice,
                    [
                        Part::text(&p.id),
                        Part::text(&p.name),
                        Part::text(other),
                        Part::text(seat),
                    ],
                ),
            );
            first_said[seat.index()] = true;
            ok = false;
            continue;
        }
        players[seat.index()] = Some(player);
    }
    // a seat whose lines name another player than its first: the same
    // player when a roster given says so (an id on one line, the name on
    // another, or a name of several entries, one of them the first's);
    // else the seat's lines are counted (without a roster, an id and a
    // name are two players): see seat_lines
    let mut ambiguous_said: Vec<(Seat, String)> = Vec::new();
    let mut same: Vec<&RawSeat> = Vec::new();
    let mut differing: Vec<&RawSeat> = Vec::new();
    for other in &card.renamed {
        if settled[other.seat.index()] {
            continue;
        }
        let first = players[other.seat.index()];
        let known = card.seats[other.seat.index()].as_ref();
        let (name, at) = known.map_or(("", At::WHOLE), |(n, at)| (n.as_str(), card.at(*at)));
        let found = first
            .filter(|_| !roster.is_open())
            .map(|f| (f, roster.find(&other.player)));
        match found {
            Some((first, Ok(p))) if p == first => same.push(other),
            Some((first, Err(Unresolved::Ambiguous(ids)))) if ids.contains(&first) => {
                same.push(other)
            }
            // a name of several entries on lines after the seat's first,
            // none of them its player: said once, at the first of them
            Some((first, Err(Unresolved::Ambiguous(ids)))) => {
                let key = match_key(&other.player);
                if !ambiguous_said
                    .iter()
                    .any(|(seat, k)| *seat == other.seat && *k == key)
                {
                    let other_at = card.at(other.at);
                    not_one_of(
                        source,
                        (&other.player, other_at),
                        &ids,
                        (other.seat, name, at, first),
                        roster,
                        problems,
                    );
                    ambiguous_said.push((other.seat, key));
                }
                ok = false;
            }
            _ => differing.push(other),
        }
    }
    for seat in Seat::ALL {
        if differing.iter().any(|r| r.seat == seat) {
            let lines = SeatLines {
                seat,
                same: &same,
                differing: &differing,
                first_said: first_said[seat.index()],
            };
            seat_lines(card, source, &lines, &mut players, roster, problems);
            ok = false;
        }
    }
    if ok {
        Ok(players)
    } else {
        Err(players)
    }
}

/// A seat whose lines name more than one player ([`seat_lines`]).
struct SeatLines<'a> {
    seat: Seat,
    /// The card's lines, of any seat, that name their seat's first
    /// line's player in other words (an id there, the name here), and
    /// those that name another player.
    same: &'a [&'a RawSeat],
    differing: &'a [&'a RawSeat],
    /// The seat's first line is said already (its name names no one
    /// player, or one seated twice).
    first_said: bool,
}

/// The lines of a seat that name more than one player (`lines`): the
/// lines are counted by the player they name, and the player most of
/// them give is the seat's; each line that names another is an error at
/// it, naming the lines that give the seat's player (one mistyped line
/// is blamed, not the lines typed right, whichever line comes first).
/// With a roster given, only its players are counted so, when a line
/// names one (a line naming no one on it is wrong whatever the count).
/// Lines as many for two players (2 and 2, or a card of 2 games): the
/// seat's first line's player, else the first given. The seat's player,
/// set in `players`, is that player, for the checks across cards
/// (docs/formats.md).
fn seat_lines(
    card: &Checked,
    source: &Source,
    lines: &SeatLines,
    players: &mut [Option<PlayerId>; 4],
    roster: &mut Roster,
    problems: &mut Problems,
) {
    let seat = lines.seat;
    let Some((first_name, first_at)) = card.seats[seat.index()].as_ref() else {
        return;
    };
    let first_at = card.at(*first_at);
    // who a line names: the roster's player, when a roster given knows
    // the name; else the name itself
    let open = roster.is_open();
    let who = |name: &str| {
        let player = (!open).then(|| roster.find(name).ok()).flatten();
        (player, match_key(name))
    };
    // the lines of each player, the first line's player first: who, and
    // each line's name and place
    type Lines<'n> = ((Option<PlayerId>, String), Vec<(&'n str, At)>);
    let mut first: Vec<(&str, At)> = vec![(first_name.as_str(), first_at)];
    first.extend(
        card.agreeing
            .iter()
            .filter(|(s, _)| *s == seat)
            .map(|&(_, at)| (first_name.as_str(), card.at(at))),
    );
    first.extend(
        lines
            .same
            .iter()
            .filter(|r| r.seat == seat)
            .map(|r| (r.player.as_str(), card.at(r.at))),
    );
    first.sort_by_key(|(_, at)| (at.row, at.col));
    let first_who = (
        players[seat.index()].filter(|_| !open),
        match_key(first_name),
    );
    let mut groups: Vec<Lines> = vec![(first_who, first)];
    for r in lines.differing.iter().filter(|r| r.seat == seat) {
        let (player, key) = who(&r.player);
        let line = (r.player.as_str(), card.at(r.at));
        let same_who = |g: &Lines| match (player, g.0 .0) {
            (Some(p), Some(q)) => p == q,
            (None, None) => key == g.0 .1,
            _ => false,
        };
        match groups.iter_mut().find(|g| same_who(g)) {
            Some(g) => g.1.push(line),
            None => groups.push(((player, key), vec![line])),
        }
    }
    // the most lines of a player on the roster (of any player, when none
    // is on it); as many: the first line's player, else the first given
    let on_roster = |i: &usize| groups[*i].0 .0.is_some();
    let mut candidates: Vec<usize> = (0..groups.len()).filter(on_roster).collect();
    if candidates.is_empty() {
        candidates = (0..groups.len()).collect();
    }
    let most = candidates.iter().map(|&i| groups[i].1.len()).max();
    let seat_player = candidates
        .into_iter()
        .find(|&i| Some(groups[i].1.len()) == most)
        .unwrap_or(0);
    let (name, given) = {
        let g = &groups[seat_player].1;
        (g[0].0, g.iter().map(|&(_, at)| at).collect::<Vec<At>>())
    };
    let mut wrong: Vec<(&str, At)> = groups
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != seat_player)
        .flat_map(|(_, g)| g.1.iter().copied())
        // (the first line's own error is said already)
        .filter(|&(_, at)| !(lines.first_said && at == first_at))
        .collect();
    wrong.sort_by_key(|(_, at)| (at.row, at.col));
    let places: Vec<Part> = given
        .iter()
        .map(|&at| Part::text(source.place(at)))
        .collect();
    for (other, at) in wrong {
        problems.error(
            source.place(at),
            Said::new(
                Msg::SeatChangesPlayer,
                [
                    Part::text(seat),
                    Part::text(crate::ingest::cell::quoted(other)),
                    Part::text(crate::ingest::cell::quoted(name)),
                    Part::List(places.clone(), Msg::And),
                ],
            ),
        );
    }
    if seat_player != 0 {
        players[seat.index()] = match open {
            true => roster.resolve(name).ok(),
            false => groups[seat_player].0 .0,
        };
    }
}

/// The one player the lines of `seat` after its first name (each an id,
/// or a name of one entry), and the first of those lines; `None` when
/// it has no such lines, or they name no one player.
fn named_elsewhere<'a>(
    card: &'a Checked,
    seat: Seat,
    roster: &Roster,
) -> Option<(PlayerId, &'a RawSeat)> {
    let mut lines = card.renamed.iter().filter(|r| r.seat == seat);
    let first = lines.next()?;
    let player = roster.find(&first.player).ok()?;
    lines
        .all(|r| roster.find(&r.player).ok() == Some(player))
        .then_some((player, first))
}

/// A seat's name (`name` at `at`) matches several entries (`ids`), and
/// its other lines name a player who is not one of them (`player`, as
/// `other` names it at `other_at`): one error, at the name.
fn not_one_of(
    source: &Source,
    (name, at): (&str, At),
    ids: &[PlayerId],
    (seat, other, other_at, player): (Seat, &str, At, PlayerId),
    roster: &Roster,
    problems: &mut Problems,
) {
    let ids: Vec<&str> = ids.iter().map(|&p| roster.id(p)).collect();
    problems.error(
        source.place(at),
        Said::new(
            Msg::NameOfManyNotSeat,
            [
                Part::text(crate::ingest::cell::quoted(name)),
                Part::text(ids.len()),
                Part::Text(ids.join(", ")),
                Part::text(seat),
                Part::text(crate::ingest::cell::quoted(other)),
                Part::text(&roster.get(player).name),
                Part::text(source.place(other_at)),
            ],
        ),
    );
}

/// Why a seat's name names no one player.
fn unresolved(
    place: Place,
    name: &str,
    why: &Unresolved,
    roster: &Roster,
    problems: &mut Problems,
) {
    match why {
        Unresolved::Unknown => {
            let (near, more) = near_entries(name, roster);
            let hint = match (near.is_empty(), more) {
                (true, _) => Part::Text(String::new()),
                (false, 0) => Part::said(
                    Msg::DidYouMean,
                    [Part::List(
                        near.into_iter().map(Part::Text).collect(),
                        Msg::Or,
                    )],
                ),
                (false, more) => Part::said(
                    Msg::DidYouMeanOfMore,
                    [
                        Part::List(near.into_iter().map(Part::Text).collect(), Msg::Or),
                        Part::text(more),
                    ],
                ),
            };
            problems.error(
                place,
                Said::new(
                    Msg::NotOnRoster,
                    [Part::text(crate::ingest::cell::quoted(name)), hint],
                ),
            )
        }
        Unresolved::Ambiguous(ids) => {
            let ids: Vec<String> = ids.iter().map(|&p| roster.id(p).to_string()).collect();
            problems.error(
                place,
                Said::new(
                    Msg::NameOfMany,
                    [
                        Part::text(crate::ingest::cell::quoted(name)),
                        Part::text(ids.len()),
                        Part::Text(ids.join(", ")),
                    ],
                ),
            );
        }
    }
}

/// How many near entries an unknown name is shown.
const MAX_NEAR: usize = 5;

/// The roster's entries a name may have been meant for: an id or a name
/// one character away (`P5001` for `P1001`; a character left out, `P012`
/// for `P0012`, or typed once too often, `P00123` for `P0123`), or with two
/// characters swapped (`P5001` for `P0501`), or an id of digits whose
/// leading zeros a spreadsheet dropped (`0042` for `42`: a column of
/// numbers), as `P0501 (Wong Ka Yan)`. Ids first, at most [`MAX_NEAR`];
/// with how many more there are, not shown (`P000O`: nine ids are one
/// character away, the one meant may be among those not shown).
fn near_entries(name: &str, roster: &Roster) -> (Vec<String>, usize) {
    let key: Vec<char> = match_key(name).chars().collect();
    let digits = |s: &[char]| !s.is_empty() && s.iter().all(char::is_ascii_digit);
    let near = |other: &str| {
        let other: Vec<char> = match_key(other).chars().collect();
        if other.len() > key.len() && digits(&key) && digits(&other) {
            let zeros = other.len() - key.len();
            if other[..zeros].iter().all(|&c| c == '0') && other[zeros..] == key[..] {
                return true;
            }
        }
        crate::slip::one_slip(&key, &other)
    };
    let mut by_id = Vec::new();
    let mut by_name = Vec::new();
    for (_, p) in roster.iter() {
        if near(&p.id) {
            by_id.push(format!("{} ({})", p.id, p.name));
        } else if near(&p.name) {
            by_name.push(format!("{} ({})", p.name, p.id));
        }
    }
    by_id.extend(by_name);
    let more = by_id.len().saturating_sub(MAX_NEAR);
    by_id.truncate(MAX_NEAR);
    (by_id, more)
}

/// The card a checked card is: its players named, its games kept.
pub fn checked_card(
    card: &Checked,
    source: &Source,
    values: &Values,
    players: &[Option<PlayerId>; 4],
) -> Card {
    let player = |seat: Seat| players[seat.index()].unwrap_or(PlayerId(u32::MAX));
    let place = |at: At| source.place(card.at(at));
    Card {
        key: card.key.clone(),
        place: place(card.at),
        seats: card
            .named()
            .map(|(seat, _, at)| SeatPlayer {
                seat,
                player: player(seat),
                place: source.place(at),
            })
            .collect(),
        games: values
            .games
            .iter()
            .map(|(number, results)| Game {
                number: *number,
                results: results
                    .iter()
                    .map(|r| SeatResult {
                        seat: r.seat,
                        player: player(r.seat),
                        won: r.won,
                        score: r.score,
                        tiles: r.tiles,
                        place: place(r.at),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// A card its own checks refused (their errors said): what the checks
/// across cards still need of it ([`Seating::add_refused`]).
#[derive(Debug)]
pub struct Refused {
    pub card: Checked,
    /// The players named on it, by seat.
    pub players: [Option<PlayerId>; 4],
}

/// Checks one card (checks 1 to 7, but for what needs the other cards:
/// [`Seating`]) and returns it when it passed every check: the players
/// named ([`name_players`]), then the values ([`check_values`]).
pub fn check_card(
    raw: &RawCard,
    rules: &Rules,
    roster: &mut Roster,
    problems: &mut Problems,
) -> Result<Card, Box<Refused>> {
    let card = Checked::of(raw, None);
    let named = name_players(&card, &raw.source, None, roster, problems);
    let values = check_values(raw, rules, true, problems);
    match (values, named) {
        (Some(values), Ok(players)) => Ok(checked_card(&card, &raw.source, &values, &players)),
        (_, Ok(players) | Err(players)) => Err(Box::new(Refused { card, players })),
    }
}

/// A seat of the card with no line in game `g` (none, or one left blank),
/// though it plays other games of the card: a player who left early, when
/// the others' scores add up to zero without theirs (checks 3 to 5 then
/// judge the game as it is). When they do not, under zero-sum scoring, the
/// line was left out: an error at the game for each such seat, naming its
/// player and the games it plays, and the game is a line short (as for a
/// line that could not be placed: its sum, and what its other seats would
/// score, are not said). Whether a line was left out.
fn left_out(
    raw: &RawCard,
    g: &RawGame,
    lines: &[Line],
    rules: &Rules,
    problems: &mut Problems,
) -> bool {
    if rules.scoring != Scoring::ZeroSum || lines.iter().map(|l| l.score).sum::<Score>().is_zero() {
        return false;
    }
    let has_line =
        |game: &RawGame, seat: Seat| game.lines.iter().any(|l| l.seat == seat && !l.is_blank());
    let mut short = false;
    for s in raw.seats.iter().filter(|s| !has_line(g, s.seat)) {
        let plays: Vec<Part> = raw
            .games
            .iter()
            .filter(|other| other.number != g.number && has_line(other, s.seat))
            .map(|other| Part::text(other.number))
            .collect();
        if plays.is_empty() {
            continue; // a seat with no game: check 1 says what is wrong
        }
        let games = if plays.len() == 1 {
            Msg::Game
        } else {
            Msg::Games
        };
        problems.error(
            raw.source.place(g.at),
            Said::new(
                Msg::LineLeftOut,
                [
                    Part::text(g.number),
                    Part::text(s.seat),
                    Part::text(&s.player),
                    Part::said(games, [Part::List(plays, Msg::And)]),
                    Part::text(lines.iter().map(|l| l.score).sum::<Score>().signed()),
                    Part::text(s.seat),
                ],
            ),
        );
        short = true;
    }
    short
}

/// Checks 3, 4 and 5 on one game whose values all parsed.
fn check_game(
    number: u32,
    (source, at): (&Source, At),
    lines: &[Line],
    rules: &Rules,
    problems: &mut Problems,
) {
    let place = || source.place(at);
    if rules.scoring == Scoring::PenaltyPoints {
        return check_penalty_game(number, place(), lines, rules, problems);
    }
    check_sum(number, place(), lines, problems);
    let mut out = lines.iter().filter(|l| l.tiles == Some(0));
    match (out.next(), out.next()) {
        (None, _) => check_nobody_out(number, lines, rules, problems),
        (Some(winner), None) => check_went_out(winner, lines, rules, problems),
        _ => several_out(number, place(), lines, problems),
    }
}

/// Check 3 under zero-sum scoring: a game's scores add up to zero.
fn check_sum(number: u32, place: Place, lines: &[Line], problems: &mut Problems) {
    let sum: Score = lines.iter().map(|l| l.score).sum();
    if !sum.is_zero() {
        problems.error(
            place,
            Said::new(
                Msg::SumNotZero,
                [Part::text(number), Part::text(sum.signed()), listing(lines)],
            ),
        );
    }
}

/// Checks 3 to 5 under penalty points (this tool's decision, docs/rules.md
/// section 5): a blank tiles cell only for a knocked rack (as under
/// zero-sum scoring), a seat with 0 tiles scores 0, every other seat a score its
/// tiles can hold ([`loss_fits`], the penalty being the rack's value), at
/// most one seat has 0 tiles, and `won` is 1 exactly for the seat that
/// went out or, when nobody did, for the leaders the zero-sum checks pick
/// (the lowest score in place of the highest).
fn check_penalty_game(
    number: u32,
    place: Place,
    lines: &[Line],
    rules: &Rules,
    problems: &mut Problems,
) {
    let someone_out = lines.iter().any(|l| l.tiles == Some(0));
    for l in lines {
        match l.tiles {
            None if !knocked_blank_ok(l, someone_out, rules) => {
                problems.error(l.tiles_place(), blank_tiles_error(l, rules))
            }
            Some(0) if !l.score.is_zero() => problems.error(
                l.score_place(),
                Said::new(
                    Msg::OutScoresZero,
                    [Part::text(l.score), Part::text(l.seat())],
                ),
            ),
            Some(t) if t > 0 && !loss_fits(&l.score, t, rules) => problems.error(
                l.score_place(),
                Said::new(
                    Msg::RackScores,
                    [
                        Part::text(l.score),
                        Part::count(usize::from(t), Msg::OneTile, Msg::Tiles),
                        Part::text(rules.min_rack_value(t)),
                        Part::text(rules.max_rack_value(t)),
                        or_a_charge(rules, t),
                    ],
                ),
            ),
            _ => {}
        }
    }
    let mut out = lines.iter().filter(|l| l.tiles == Some(0));
    match (out.next(), out.next()) {
        (None, _) if rules.no_winner_by == crate::profile::NoWinnerBy::Tiles => {
            if let Some(fewest) = lines.iter().filter_map(|l| l.tiles).min() {
                check_fewest_won(lines, fewest, problems);
            }
        }
        (None, _) => {
            if let Some(lowest) = lines.iter().map(|l| l.score).min() {
                check_leaders_won(lines, lowest, rules, problems);
            }
        }
        (Some(winner), None) => {
            for l in lines {
                check_out_won(l, winner.seat(), problems);
            }
        }
        _ => several_out(number, place, lines, problems),
    }
}

/// ", or a charge of …" for the profile's charges, said after the points a
/// rack of `tiles` can hold (nothing when the profile has none). Where a
/// charge adds to the rack (`penalty_mode = "add"`), what such a rack
/// loses is said: each charge plus the rack (", or a charge plus the
/// rack: 102 to 160 or 202 to 260"), as [`loss_fits`] judges it.
fn or_a_charge(rules: &Rules, tiles: u16) -> Part {
    let charges: Vec<i64> = rules.penalties.charges().collect();
    if charges.is_empty() {
        return Part::Text(String::new());
    }
    match rules.penalty_mode {
        PenaltyMode::Replace => Part::said(
            Msg::OrACharge,
            [Part::Each(
                charges.iter().map(Part::text).collect(),
                Msg::Or,
            )],
        ),
        PenaltyMode::Add => {
            let (low, high) = (rules.min_rack_value(tiles), rules.max_rack_value(tiles));
            let ranges = charges
                .iter()
                .map(|c| Part::said(Msg::FromTo, [Part::text(c + low), Part::text(c + high)]))
                .collect();
            Part::said(Msg::OrAChargePlusRack, [Part::Each(ranges, Msg::Or)])
        }
    }
}

/// Check 4: more than one seat has 0 tiles.
fn several_out(number: u32, place: Place, lines: &[Line], problems: &mut Problems) {
    let several: Vec<&Line> = lines.iter().filter(|l| l.tiles == Some(0)).collect();
    problems.error(
        place,
        Said::new(
            if several.len() == 2 {
                Msg::BothOut
            } else {
                Msg::AllOut
            },
            [
                Part::text(number),
                seats_list(several.iter().map(|l| l.seat())),
            ],
        ),
    )
}

/// Check 4's `won`: the seat `out` that went out won, and no other seat.
fn check_out_won(l: &Line, out: Seat, problems: &mut Problems) {
    if l.seat() == out && !l.won {
        problems.error(l.won_place(), Said::new(Msg::OutNotWon, [Part::text(out)]));
    } else if l.seat() != out && l.won {
        problems.error(
            l.won_place(),
            Said::new(Msg::OnlyOutWon, [Part::text(out), Part::text(out)]),
        );
    }
}

/// A game's score as its messages show it: signed under zero-sum scoring
/// (`+5`, `-5`), as typed under penalty points (`5`).
fn shown(score: Score, rules: &Rules) -> String {
    match rules.scoring {
        Scoring::ZeroSum => score.signed(),
        Scoring::PenaltyPoints => score.to_string(),
    }
}

/// The hint of a game its checks refused (checks 3 to 5, [`check_game`])
/// when one sign mended makes it pass them: one seat's score with its sign
/// the other way (a minus lost, `35` typed for `-35`, or one typed by
/// mistake), or the signs of two seats exchanged (the minus typed on the
/// line above or below). Every such change is tried by the game's own
/// checks; the hint is said only when exactly one of them passes (never a
/// guess between two), and only under zero-sum scoring (penalty points
/// have no sign). Said of the card `key` ([`Msg::SignLost`],
/// [`Msg::SignStray`], [`Msg::SignMoved`]), with the seats (by index in
/// `lines`) whose sign the mending changes. Only a game refused is tried
/// again, so a clean card costs nothing.
fn sign_hint(
    key: &CardKey,
    number: u32,
    at: (&Source, At),
    lines: &[Line],
    rules: &Rules,
) -> Option<(Said, [Option<usize>; 2])> {
    if rules.scoring != Scoring::ZeroSum || lines.is_empty() || lines.len() > 4 {
        return None;
    }
    let passes = |flip: &[usize]| {
        let mut changed = [lines[0]; 4];
        changed[..lines.len()].copy_from_slice(lines);
        for &i in flip {
            changed[i].score = -changed[i].score;
        }
        let mut scratch = Problems::new();
        check_game(number, at, &changed[..lines.len()], rules, &mut scratch);
        !scratch.has_errors()
    };
    let signed = |i: usize| !lines[i].score.is_zero();
    let mut fixes = Vec::new();
    for i in (0..lines.len()).filter(|&i| signed(i)) {
        if passes(&[i]) {
            fixes.push((i, None));
        }
    }
    for i in (0..lines.len()).filter(|&i| signed(i)) {
        for j in (i + 1..lines.len()).filter(|&j| signed(j)) {
            let opposite = lines[i].score.is_negative() != lines[j].score.is_negative();
            if opposite && passes(&[i, j]) {
                fixes.push((i, Some(j)));
            }
        }
    }
    let [(i, other)] = fixes[..] else {
        return None;
    };
    let seat = |l: &Line| Part::text(l.seat());
    let was = |l: &Line| Part::text(l.score.signed());
    let mended = |l: &Line| Part::text((-l.score).signed());
    let game = Part::text(number);
    let a = &lines[i];
    let said = match other {
        None => Said::new(
            if a.score.is_negative() {
                Msg::SignStray
            } else {
                Msg::SignLost
            },
            [key.said(), game, seat(a), mended(a), was(a)],
        ),
        Some(j) => {
            let b = &lines[j];
            // the minus typed: on the seat that should be positive, taken
            // from the one that should be negative
            let (typed_on, meant_for) = if a.score.is_negative() {
                (a, b)
            } else {
                (b, a)
            };
            Said::new(
                Msg::SignMoved,
                [
                    key.said(),
                    game,
                    seat(a),
                    mended(a),
                    was(a),
                    seat(b),
                    mended(b),
                    was(b),
                    seat(meant_for),
                    seat(typed_on),
                ],
            )
        }
    };
    Some((said, [Some(i), other]))
}

/// What a loss of `loss` points with `tiles` tiles left can be: counted
/// tiles (1 to 13 each, jokers at the joker value), or a penalty charge.
fn loss_fits(loss: &Score, tiles: u16, rules: &Rules) -> bool {
    if !loss.is_whole() {
        return false;
    }
    let loss = loss.numer();
    let counted = |v: i64| (rules.min_rack_value(tiles)..=rules.max_rack_value(tiles)).contains(&v);
    let charges = rules.penalties.charges();
    counted(loss)
        || match rules.penalty_mode {
            PenaltyMode::Replace => charges.clone().any(|c| c == loss),
            PenaltyMode::Add => charges.clone().any(|c| counted(loss - c)),
        }
}

/// A blank tiles cell is allowed only for a knocked rack: the profile has a
/// `knocked` charge and the seat lost at least that much (someone went out)
/// or lost and did not lead (nobody went out). The loss is the score's
/// minus under zero-sum scoring, the score itself under penalty points.
fn knocked_blank_ok(line: &Line, someone_out: bool, rules: &Rules) -> bool {
    let knocked = rules.penalties.knocked;
    let loss = match rules.scoring {
        Scoring::ZeroSum => -line.score,
        Scoring::PenaltyPoints => line.score,
    };
    if knocked == 0 || line.won || !loss.is_positive() {
        return false;
    }
    if !someone_out {
        return true;
    }
    match rules.penalty_mode {
        PenaltyMode::Replace => loss == Score::whole(knocked),
        PenaltyMode::Add => loss >= Score::whole(knocked),
    }
}

fn blank_tiles_error(line: &Line, rules: &Rules) -> Said {
    if rules.penalties.knocked > 0 {
        Said::new(
            Msg::TilesBlankKnocked,
            [Part::text(line.seat()), Part::text(rules.penalties.knocked)],
        )
    } else {
        Said::new(Msg::TilesBlank, [Part::text(line.seat())])
    }
}

/// Check 4: one seat went out. The winner's score is what the others
/// lost, worked out from their scores only when none of them is wrong in
/// itself ([`loss_fault`]): a loss that lost its minus sign would make a
/// correct winner's score look wrong. The game's sum (check 3) says then
/// that it does not add up; the winner's line is flagged only when its
/// score is no gain.
fn check_went_out(winner: &Line, lines: &[Line], rules: &Rules, problems: &mut Problems) {
    let w = winner.seat();
    check_out_won(winner, w, problems);
    let losers = || lines.iter().filter(move |l| l.seat() != w);
    // (empty, and no allocation, on a right game)
    let faults: Vec<(&Line, Said)> = losers()
        .filter_map(|l| loss_fault(l, w, rules).map(|said| (l, said)))
        .collect();
    let others: Score = losers().map(|l| l.score).sum();
    if !faults.is_empty() {
        if !winner.score.is_positive() {
            problems.error(
                winner.score_place(),
                Said::new(
                    Msg::OutGains,
                    [Part::text(winner.score.signed()), Part::text(w)],
                ),
            );
        }
    } else if !winner.score.is_positive() || winner.score != -others {
        problems.error(
            winner.score_place(),
            Said::new(
                Msg::OutScore,
                [
                    Part::text(winner.score.signed()),
                    Part::text(w),
                    Part::text((-others).signed()),
                ],
            ),
        );
    }
    for l in losers() {
        check_out_won(l, w, problems);
        if l.score.is_negative() && l.tiles.is_none() && !knocked_blank_ok(l, true, rules) {
            problems.error(l.tiles_place(), blank_tiles_error(l, rules));
        }
    }
    for (l, said) in faults {
        problems.error(l.score_place(), said);
    }
}

/// Check 4, of a seat that lost to `w` (the seat that went out): what is
/// wrong with its score in itself, when something is: it is no loss, or a
/// loss its tiles cannot hold ([`loss_fits`]).
fn loss_fault(l: &Line, w: Seat, rules: &Rules) -> Option<Said> {
    if !l.score.is_negative() {
        return Some(Said::new(
            Msg::ExpectedLoss,
            [Part::text(l.score.signed()), Part::text(w)],
        ));
    }
    let t = l.tiles?;
    if loss_fits(&-l.score, t, rules) {
        return None;
    }
    Some(Said::new(
        Msg::RackLoses,
        [
            Part::text(l.score.signed()),
            Part::count(usize::from(t), Msg::OneTile, Msg::Tiles),
            Part::text(rules.min_rack_value(t)),
            Part::text(rules.max_rack_value(t)),
            or_a_charge(rules, t),
        ],
    ))
}

/// Check 5: nobody went out. The leaders hold the highest score; the
/// leaders with the fewest tiles won.
fn check_nobody_out(number: u32, lines: &[Line], rules: &Rules, problems: &mut Problems) {
    if rules.no_winner_by == crate::profile::NoWinnerBy::Tiles {
        return check_nobody_out_by_tiles(number, lines, problems);
    }
    let Some(top) = lines.iter().map(|l| l.score).max() else {
        return;
    };
    // (the leaders and their names made only for a message: most games
    // are right)
    let leaders = || lines.iter().filter(move |l| l.score == top);
    if top.is_negative() {
        return; // the sum check has said it: the scores cannot add up to 0
    }
    let leader_names = || seats_list(leaders().map(|l| l.seat()));
    for l in lines.iter().filter(|l| l.score != top) {
        if !l.score.is_negative() {
            problems.error(
                l.score_place(),
                Said::new(
                    Msg::OthersLose,
                    [
                        Part::text(l.score.signed()),
                        Part::text(number),
                        leader_names(),
                        Part::text(top.signed()),
                    ],
                ),
            );
        }
    }
    for l in lines.iter().filter(|l| l.tiles.is_none()) {
        let is_leader = l.score == top;
        if is_leader || !knocked_blank_ok(l, false, rules) {
            problems.error(l.tiles_place(), blank_tiles_error(l, rules));
        }
    }
    check_leaders_won(lines, top, rules, problems);
}

/// Check 5's `won` when the leaders are the seats scoring `top` (the
/// highest score under zero-sum scoring, the lowest under penalty points):
/// 1 exactly for the leaders with the fewest tiles.
fn check_leaders_won(lines: &[Line], top: Score, rules: &Rules, problems: &mut Problems) {
    let leaders = || lines.iter().filter(move |l| l.score == top);
    let leader_names = || seats_list(leaders().map(|l| l.seat()));
    let fewest = leaders().filter_map(|l| l.tiles).min();
    for l in lines {
        let is_leader = l.score == top;
        let should_win = is_leader && l.tiles.is_some() && l.tiles == fewest;
        if l.won == should_win {
            continue;
        }
        let reason = if !is_leader {
            Part::said(
                Msg::NotALeader,
                [
                    Part::text(l.seat()),
                    Part::text(shown(l.score, rules)),
                    leader_names(),
                    Part::text(shown(top, rules)),
                ],
            )
        } else if should_win {
            Part::said(
                Msg::LeaderFewest,
                [
                    Part::text(l.seat()),
                    Part::text(shown(l.score, rules)),
                    Part::text(fewest.unwrap_or(0)),
                ],
            )
        } else {
            let fewer: Vec<Seat> = leaders()
                .filter(|x| x.tiles.is_some() && x.tiles == fewest)
                .map(|x| x.seat())
                .collect();
            let many = fewer.len() > 1;
            let seat = Part::text(l.seat());
            let score = Part::text(shown(l.score, rules));
            let fewest = Part::text(fewest.unwrap_or(0));
            match l.tiles {
                Some(t) => Part::said(
                    if many {
                        Msg::LeaderMoreMany
                    } else {
                        Msg::LeaderMoreOne
                    },
                    [seat, score, Part::text(t), seats_list(fewer), fewest],
                ),
                None => Part::said(
                    if many {
                        Msg::LeaderBlankMany
                    } else {
                        Msg::LeaderBlankOne
                    },
                    [seat, score, seats_list(fewer), fewest],
                ),
            }
        };
        problems.error(
            l.won_place(),
            Said::new(
                Msg::WonNobodyOut,
                [
                    Part::text(u8::from(l.won)),
                    Part::text(u8::from(should_win)),
                    reason,
                ],
            ),
        );
    }
}

/// Check 5 under `no_winner_by = tiles`: the leaders are the seats with
/// the fewest tiles; they share the pot (equal scores) and all of them won.
fn check_nobody_out_by_tiles(number: u32, lines: &[Line], problems: &mut Problems) {
    let Some(fewest) = lines.iter().filter_map(|l| l.tiles).min() else {
        return;
    };
    // (their names made only for a message)
    let leaders = || lines.iter().filter(move |l| l.tiles == Some(fewest));
    let names = || seats_list(leaders().map(|l| l.seat()));
    if let Some(first) = leaders().next() {
        for l in leaders().filter(|l| l.score != first.score) {
            problems.error(
                l.score_place(),
                Said::new(
                    Msg::TiedLeadersShare,
                    [
                        Part::text(l.score.signed()),
                        Part::text(number),
                        names(),
                        Part::text(first.seat()),
                        Part::text(first.score.signed()),
                    ],
                ),
            );
        }
    }
    for l in lines
        .iter()
        .filter(|l| l.tiles != Some(fewest) && !l.score.is_negative())
    {
        problems.error(
            l.score_place(),
            Said::new(
                Msg::NotFewest,
                [
                    Part::text(l.score.signed()),
                    Part::text(number),
                    Part::text(l.seat()),
                    names(),
                ],
            ),
        );
    }
    check_fewest_won(lines, fewest, problems);
}

/// Check 5's `won` under `no_winner_by = tiles`: 1 exactly for the seats
/// with the `fewest` tiles.
fn check_fewest_won(lines: &[Line], fewest: u16, problems: &mut Problems) {
    let leaders = || lines.iter().filter(move |l| l.tiles == Some(fewest));
    let names = || seats_list(leaders().map(|l| l.seat()));
    for l in lines {
        let should_win = l.tiles == Some(fewest);
        if l.won != should_win {
            problems.error(
                l.won_place(),
                Said::new(
                    Msg::FewestWon,
                    [
                        Part::text(u8::from(l.won)),
                        Part::text(u8::from(should_win)),
                        names(),
                        Part::text(fewest),
                    ],
                ),
            );
        }
    }
}

/// Check 6: a `Total` line equals the sum of the games per seat. A rounded
/// total matches when it is the rounded exact sum, or the sum of the rounded
/// game scores. A formula with no saved value is recomputed: nothing to check.
fn check_total(
    source: &Source,
    total: &[&RawLine],
    games: &[RawGame],
    values: &Values,
    rules: &Rules,
    problems: &mut Problems,
) {
    for line in total {
        let results: Vec<&SeatValues> = values
            .games
            .iter()
            .flat_map(|(_, g)| g.iter().filter(|r| r.seat == line.seat))
            .collect();
        let seat = line.seat;
        // The seat's game cells of one column that hold a number as text.
        let texts = |field: fn(&RawLine) -> &RawCell| -> Vec<(&RawCell, Score)> {
            games
                .iter()
                .flat_map(|g| g.lines.iter().filter(|l| l.seat == seat))
                .map(field)
                .filter_map(|c| match &c.value {
                    Cell::Text(t) => Score::parse(t).map(|v| (c, v)),
                    _ => None,
                })
                .collect()
        };
        let check = |cell: &RawCell,
                     what: &str,
                     expected: String,
                     matches: &dyn Fn(&Cell) -> Option<bool>,
                     texts: Vec<(&RawCell, Score)>,
                     sum: Score,
                     problems: &mut Problems| {
            match &cell.value {
                Cell::Empty | Cell::FormulaWithoutValue(_) => {}
                value => match matches(value) {
                    Some(true) => {}
                    Some(false) if skips_texts(value, &texts, sum) => {
                        // A spreadsheet's SUM leaves out numbers stored as
                        // text: the cells to fix are those, not the total.
                        for (text, _) in texts {
                            problems.error(
                                source.place(text.at),
                                format!(
                                    "{what} {} is stored as text, not as a number, so the sheet's Total in {} leaves it out ({}; the games add up to {expected}): type it again as a number{}",
                                    text.value.as_text(),
                                    cell_name(source, cell.at),
                                    value.as_text(),
                                    if text.value.as_text().contains('\u{2212}') {
                                        " with the ordinary minus sign -"
                                    } else {
                                        ""
                                    }
                                ),
                            );
                        }
                    }
                    Some(false) => problems.error(
                        source.place(cell.at),
                        format!(
                            "Total {what} of seat {seat} is {}, but the games add up to {expected}: check them against the signed card, and correct the Total or the game typed wrong",
                            value.as_text()
                        ),
                    ),
                    None => problems.error(
                        source.place(cell.at),
                        format!(
                            "Total {what} of seat {seat} is {}; expected a number, {expected}",
                            value.describe()
                        ),
                    ),
                },
            }
        };
        let wins = results.iter().filter(|r| r.won).count() as i64;
        check(
            &line.won,
            "games won",
            wins.to_string(),
            &|c| number(c, rules).map(|v| v == Score::whole(wins)),
            texts(|l| &l.won),
            Score::whole(wins),
            problems,
        );
        let exact: Score = results.iter().map(|r| r.score).sum();
        let rounded: Score = results
            .iter()
            .map(|r| Score::ratio(r.score.hundredths(), 100))
            .sum();
        check(
            &line.score,
            "score",
            exact.signed(),
            &|c| {
                number(c, rules).map(|v| {
                    let v = Score::ratio(v.hundredths(), 100);
                    v == Score::ratio(exact.hundredths(), 100) || v == rounded
                })
            },
            texts(|l| &l.score),
            exact,
            problems,
        );
        if results.iter().all(|r| r.tiles.is_some()) {
            let tiles: i64 = results.iter().filter_map(|r| r.tiles).map(i64::from).sum();
            check(
                &line.tiles,
                "tiles",
                tiles.to_string(),
                &|c| number(c, rules).map(|v| v == Score::whole(tiles)),
                texts(|l| &l.tiles),
                Score::whole(tiles),
                problems,
            );
        }
    }
}

/// Whether a total is the games' `sum` without the game cells that hold
/// their number as text (`texts`): what a spreadsheet's SUM gives.
fn skips_texts(total: &Cell, texts: &[(&RawCell, Score)], sum: Score) -> bool {
    let total = match total {
        Cell::Number(n) => Score::from_f64(*n),
        Cell::Exact(s) => Some(*s),
        _ => None,
    };
    let without: Score = sum - texts.iter().map(|(_, v)| *v).sum::<Score>();
    let hundredths = |s: Score| Score::ratio(s.hundredths(), 100);
    !texts.is_empty() && total.is_some_and(|t| hundredths(t) == hundredths(without))
}

/// A cell as a volunteer finds it: `C13` in a workbook, `line 13` in a CSV
/// file.
fn cell_name(source: &Source, at: At) -> String {
    if source.is_workbook() {
        format!("{}{}", crate::place::column_name(at.col), at.row)
    } else {
        format!("line {}", at.row)
    }
}

fn number(cell: &Cell, _rules: &Rules) -> Option<Score> {
    match cell {
        Cell::Number(n) => Score::from_f64(*n),
        Cell::Text(t) => Score::parse(t),
        Cell::Exact(s) => Some(*s),
        _ => None,
    }
}

/// Check 1 across cards: no table twice in a session, no player at two
/// tables in the same session. Every card accepted so far is one entry
/// here (its key, where it is, who sits where), a few numbers each, so
/// that a million players are checked in little memory; [`Seating::clashes`]
/// is the check.
#[derive(Clone, Debug, Default)]
pub struct Seating {
    stages: Vec<Stage>,
    sessions: Labels,
    tables: Labels,
    sources: Vec<Source>,
    /// The source whose file the last card read from a sheet named after
    /// its key stands for (see [`NAMED`]).
    named: Option<u32>,
    cards: Vec<Sitting>,
    /// Where the card names a seat's player, for each seat whose place a
    /// [`Sitting`] cannot hold: (card, seat, place), in card then seat
    /// order.
    wide: Vec<(u32, u8, At)>,
    /// The cards refused by their own checks, in order: seated all the
    /// same, so that a table given twice or a player at two tables is said
    /// at once, not only once the card's own errors are mended.
    refused: Vec<u32>,
    /// How many of the first cards are the event's stored cards, those
    /// after them a file's checked against them (`import`, `check
    /// --event`): a clash of a stored card with a new one is said at the
    /// new card, naming the stored one ([`Seating::mark_stored`]). 0: no
    /// card is stored, each clash is said where the check meets it.
    stored: u32,
}

/// A card's source, as a [`Seating`] keeps it, with this bit set: the card
/// was read from a sheet named after its key
/// ([`CardKey::name`]), as each stored card is
/// (`tilerank.db[prelim-S01-T07]`), in the file of the source the rest
/// of the number indexes. The sheet's name is made again when a message
/// needs it, so a million stored cards keep one source, not a million.
const NAMED: u32 = 1 << 31;

/// The keys of a [`Seating`]'s cards, in the order added (12 bytes a
/// card; who sat where is the seating's).
#[derive(Clone, Debug, Default)]
pub struct CardKeys {
    stages: Vec<Stage>,
    sessions: Vec<Label>,
    tables: Vec<Label>,
    /// Stage, session and table, as indexes into the three above.
    keys: Vec<(u32, u32, u32)>,
}

impl CardKeys {
    /// How many cards.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key of card `i`.
    pub fn key(&self, i: usize) -> CardKey {
        let (stage, session, table) = self.keys[i];
        CardKey {
            stage: self.stages[stage as usize].clone(),
            session: self.sessions[session as usize].clone(),
            table: self.tables[table as usize].clone(),
        }
    }
}

/// One card of a [`Seating`] (52 bytes: a million players' quarter of a
/// million cards in 13 MB).
#[derive(Clone, Copy, Debug)]
struct Sitting {
    /// Stage, session and table, as interned numbers.
    key: (u32, u32, u32),
    /// The index of its source (or [`NAMED`] and the index of its
    /// file's), and where the card is named.
    source: u32,
    at: At,
    /// Who sits at each seat (A, B, C, D); [`NOBODY`] at an empty seat.
    players: [PlayerId; 4],
    /// Where the card names each seat's player: `rows[s]` rows below `at`,
    /// in column `col`, the same for all seats (a file's player column, a
    /// printed card's name column). [`WIDE`]: elsewhere, kept in
    /// [`Seating::wide`].
    rows: [u16; 4],
    col: u16,
}

const _: () = assert!(std::mem::size_of::<Sitting>() == 52);

/// No sitting, in a list of sittings by player ([`Seating::clashes`]).
const NO_SITTING: u32 = u32::MAX;

/// An empty seat of a [`Sitting`].
const NOBODY: PlayerId = PlayerId(u32::MAX);

/// A session whose tables files of one run give twice ([`Seating::clashes`]):
/// its stage and session, the files in the order met, how many of its
/// tables they give twice, and the first card so given.
type SessionInFiles = ((u32, u32), Vec<String>, usize, usize);

/// A seat's place a [`Sitting`] does not hold (see [`Sitting::rows`]).
const WIDE: u16 = u16::MAX;

/// Session or table labels as small numbers, in the order met.
#[derive(Clone, Debug, Default)]
struct Labels {
    index: HashMap<Label, u32, foldhash::fast::RandomState>,
    labels: Vec<Label>,
}

impl Labels {
    fn id(&mut self, label: &Label) -> u32 {
        if let Some(&i) = self.index.get(label) {
            return i;
        }
        let i = self.labels.len() as u32;
        self.index.insert(label.clone(), i);
        self.labels.push(label.clone());
        i
    }
}

impl Seating {
    /// Makes room for `cards` more cards without regrowing (room not used
    /// is never touched).
    pub fn reserve(&mut self, cards: usize) {
        self.cards.reserve(cards);
    }

    /// Adds a card; its index in the order added.
    pub fn add(
        &mut self,
        key: &CardKey,
        source: &Source,
        at: At,
        seats: impl IntoIterator<Item = (Seat, PlayerId, At)>,
    ) -> usize {
        let stage = match self.stages.iter().position(|s| *s == key.stage) {
            Some(i) => i,
            None => {
                self.stages.push(key.stage.clone());
                self.stages.len() - 1
            }
        } as u32;
        let key = (
            stage,
            self.sessions.id(&key.session),
            self.tables.id(&key.table),
        );
        let source = self.source_index(key, source);
        let mut sitting = Sitting {
            key,
            source,
            at,
            players: [NOBODY; 4],
            rows: [WIDE; 4],
            col: WIDE,
        };
        let card = self.cards.len() as u32;
        let wide = self.wide.len();
        for (n, (seat, player, seat_at)) in seats.into_iter().enumerate() {
            let s = seat.index();
            debug_assert!(player != NOBODY, "fewer than 4 billion players");
            sitting.players[s] = player;
            if n == 0 {
                sitting.col = seat_at.col.min(u32::from(WIDE)) as u16;
            }
            let row = seat_at.row.checked_sub(at.row);
            match row {
                Some(r) if r < u32::from(WIDE) && seat_at.col == u32::from(sitting.col) => {
                    sitting.rows[s] = r as u16;
                }
                _ => {
                    sitting.rows[s] = WIDE;
                    // (a seat given twice: its last place, as for its player)
                    if let Some(k) = self.wide[wide..].iter().position(|w| usize::from(w.1) == s) {
                        self.wide.remove(wide + k);
                    }
                    self.wide.push((card, s as u8, seat_at));
                }
            }
        }
        self.wide[wide..].sort_unstable_by_key(|&(c, s, _)| (c, s));
        self.cards.push(sitting);
        self.cards.len() - 1
    }

    /// Adds a card its own checks refused ([`check_values`],
    /// [`name_players`]): its key, its table's place and the players named
    /// on it (`players`, by seat), for the checks across cards. Its index
    /// in the order added; [`Seating::clashes`] always rejects it.
    pub fn add_refused(
        &mut self,
        card: &Checked,
        source: &Source,
        players: &[Option<PlayerId>; 4],
    ) -> usize {
        let seats = card
            .named()
            .filter_map(|(seat, _, at)| Some((seat, players[seat.index()]?, at)));
        let i = self.add(&card.key, source, card.at(card.table_at), seats);
        self.refused.push(i as u32);
        i
    }

    /// The cards added so far are the event's stored cards, those added
    /// after them new ones checked against them: a clash between a stored
    /// card and a new one is said at the new card, the stored one named
    /// as the other place, as the file refused is the new one.
    pub fn mark_stored(&mut self) {
        self.stored = self.cards.len() as u32;
    }

    /// Whether card `i` is one of the event's stored cards
    /// ([`Seating::mark_stored`]).
    fn is_stored(&self, i: usize) -> bool {
        i < self.stored as usize
    }

    /// Whether card `i` was refused by its own checks
    /// ([`Seating::add_refused`]).
    pub fn is_refused(&self, i: usize) -> bool {
        self.refused.binary_search(&(i as u32)).is_ok()
    }

    /// Who sits at seat `s` (0 to 3) of card `i`, and where the card names
    /// the player.
    fn seat(&self, i: usize, s: usize) -> Option<(PlayerId, At)> {
        let c = &self.cards[i];
        if c.players[s] == NOBODY {
            return None;
        }
        let at = match c.rows[s] {
            WIDE => {
                let k = self
                    .wide
                    .binary_search_by_key(&(i as u32, s as u8), |&(c, s, _)| (c, s))
                    .ok()?;
                self.wide[k].2
            }
            r => At {
                row: c.at.row + u32::from(r),
                col: u32::from(c.col),
            },
        };
        Some((c.players[s], at))
    }

    /// The seating of checked cards, in their order.
    pub fn of_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Seating {
        let mut seating = Seating::default();
        for card in cards {
            seating.add_card(card);
        }
        seating
    }

    /// Adds a checked card; its index in the order added.
    pub fn add_card(&mut self, card: &Card) -> usize {
        let at = |p: &Place| At {
            row: p.row.unwrap_or(0),
            col: p.col.unwrap_or(0),
        };
        self.add(
            &card.key,
            &card.place.source,
            at(&card.place),
            card.seats.iter().map(|s| (s.seat, s.player, at(&s.place))),
        )
    }

    /// How a card of `key` (interned) read from `source` keeps its source.
    fn source_index(&mut self, key: (u32, u32, u32), source: &Source) -> u32 {
        // cards one after another are mostly of one source
        if self.sources.last() == Some(source) {
            return self.sources.len() as u32 - 1;
        }
        // a stored card: its sheet named after its key, as read back here
        if source.is_workbook()
            && source
                .sheet
                .as_deref()
                .is_some_and(|sheet| self.key_of(key).is_named(sheet))
        {
            match self.named {
                // (and came from the same file, its origin: the cards of
                // one import mostly follow one another)
                Some(i)
                    if self.sources[i as usize].file == source.file
                        && self.sources[i as usize].origin == source.origin =>
                {
                    return i | NAMED
                }
                _ => {
                    self.sources.push(source.clone());
                    let i = self.sources.len() as u32 - 1;
                    self.named = Some(i);
                    return i | NAMED;
                }
            }
        }
        self.sources.push(source.clone());
        self.sources.len() as u32 - 1
    }

    /// The source of card `i`.
    fn source(&self, i: usize) -> Source {
        let source = self.cards[i].source;
        let kept = &self.sources[(source & !NAMED) as usize];
        if source & NAMED == 0 {
            return kept.clone();
        }
        Source::sheet_from(&kept.file, &self.key(i).name(), kept.origin.clone())
    }

    /// The cards of this seating whose key `keep` keeps, then every card of
    /// `then`, in order: those kept as the stored cards, those of `then`
    /// checked against them ([`Seating::mark_stored`]).
    pub fn kept_then(&self, keep: impl Fn(&CardKey) -> bool, then: Seating) -> Seating {
        if self.is_empty() {
            return then;
        }
        let mut all = Seating::default();
        for (n, (seating, keep)) in [
            (self, &keep as &dyn Fn(&CardKey) -> bool),
            (&then, &|_| true),
        ]
        .into_iter()
        .enumerate()
        {
            if n == 1 {
                all.mark_stored();
            }
            for (i, c) in seating.cards.iter().enumerate() {
                let key = seating.key(i);
                if !keep(&key) {
                    continue;
                }
                let seats = Seat::ALL
                    .into_iter()
                    .filter_map(|seat| seating.seat(i, seat.index()).map(|(p, at)| (seat, p, at)));
                let k = all.add(&key, &seating.source(i), c.at, seats);
                if seating.is_refused(i) {
                    all.refused.push(k as u32);
                }
            }
        }
        all
    }

    /// Adds every card of `other` by its key and place alone, nobody
    /// seated: a seating that finds the tables given twice among several
    /// (the files of one import), not who sits at two.
    pub fn add_tables(&mut self, other: &Seating) {
        for (i, c) in other.cards.iter().enumerate() {
            self.add(&other.key(i), &other.source(i), c.at, []);
        }
    }

    /// How many cards were added.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The key of card `i`.
    pub fn key(&self, i: usize) -> CardKey {
        self.key_of(self.cards[i].key)
    }

    /// The key interned as `key`.
    fn key_of(&self, (stage, session, table): (u32, u32, u32)) -> CardKey {
        CardKey {
            stage: self.stages[stage as usize].clone(),
            session: self.sessions.labels[session as usize].clone(),
            table: self.tables.labels[table as usize].clone(),
        }
    }

    /// The keys of the cards, in the order added, the seating kept
    /// (see [`Seating::into_keys`]).
    pub fn to_keys(&self) -> CardKeys {
        CardKeys {
            stages: self.stages.clone(),
            sessions: self.sessions.labels.clone(),
            tables: self.tables.labels.clone(),
            keys: self.cards.iter().map(|c| c.key).collect(),
        }
    }

    /// The keys of the cards, in the order added, and nothing of who sat
    /// where: what is kept once the checks across cards are made.
    pub fn into_keys(self) -> CardKeys {
        let keys = self.cards.iter().map(|c| c.key).collect();
        CardKeys {
            stages: self.stages,
            sessions: self.sessions.labels,
            tables: self.tables.labels,
            keys,
        }
    }

    /// The keys of the cards, in the order added.
    pub fn keys(&self) -> impl Iterator<Item = CardKey> + '_ {
        (0..self.cards.len()).map(|i| self.key(i))
    }

    /// Each card of `stage`: its key and where it is named (a later
    /// stage's few cards, found without making the key of every card of
    /// the first).
    pub fn cards_of_stage(&self, stage: &Stage) -> Vec<(CardKey, Place)> {
        let Some(s) = self.stages.iter().position(|x| x == stage) else {
            return Vec::new();
        };
        (0..self.cards.len())
            .filter(|&i| self.cards[i].key.0 == s as u32)
            .map(|i| (self.key(i), self.place(i, self.cards[i].at)))
            .collect()
    }

    /// The first card `on` keeps at which `player` sits: its key and
    /// where the card names them (their seat's first line or cell).
    pub fn card_of(
        &self,
        player: PlayerId,
        on: impl Fn(&CardKey) -> bool,
    ) -> Option<(CardKey, Place)> {
        (0..self.cards.len())
            .filter(|&i| self.cards[i].players.contains(&player))
            .map(|i| (i, self.key(i)))
            .find(|(_, key)| on(key))
            .map(|(i, key)| {
                let at = (0..4)
                    .filter_map(|s| self.seat(i, s))
                    .find(|&(p, _)| p == player)
                    .map_or(self.cards[i].at, |(_, at)| at);
                (key, self.place(i, at))
            })
    }

    /// The place `at` of card `i`.
    fn place(&self, i: usize, at: At) -> Place {
        self.source(i).place(at)
    }

    /// The check: each card whose table is given twice in its session, or
    /// one of whose players sits at another table of the session, is an
    /// error naming both places. Returns the indexes of the cards to reject,
    /// in order: every card involved (the tool cannot tell which is right;
    /// of a clash between stored cards and new ones, the new ones:
    /// `reject_in_clash`), and every card refused by its own
    /// checks.
    pub fn clashes(&self, roster: &Roster, rules: &Rules, problems: &mut Problems) -> Vec<usize> {
        let mut rejected = Vec::new();
        // Cards added in rising order of their keys (a file's, read in
        // its order, nearly always are) hold no table twice and are in
        // session order already: neither is sorted for.
        let rising = self.cards.windows(2).all(|w| w[0].key < w[1].key);
        // A table twice: cards of one key, by key then in the order added.
        let mut by_key: Vec<u32> = Vec::new();
        if !rising {
            by_key = (0..self.cards.len() as u32).collect();
            by_key.sort_by_key(|&i| (self.cards[i as usize].key, i));
        }
        // the files that give each session's tables twice, in the order
        // met, the tables, and the first card so given (a folder holding
        // several typings of one session: said once, after its tables)
        let mut in_files: Vec<SessionInFiles> = Vec::new();
        for group in
            by_key.chunk_by(|&a, &b| self.cards[a as usize].key == self.cards[b as usize].key)
        {
            // A new card refused by its own checks, of a table the event
            // holds (`check FILE --event DIR`: a correction not right yet),
            // is no second card of the table: it is said for its own
            // errors, and the stored card stands (an import compares the
            // two once the new one passes its checks). A table the new
            // cards give twice is said among them, before anything is
            // compared with the stored card, which stands: as `import`
            // refuses every file that gives it.
            let group = match group {
                [stored, new @ ..]
                    if self.is_stored(*stored as usize)
                        && new.iter().all(|&i| !self.is_stored(i as usize))
                        && (new.len() > 1 || new.iter().all(|&i| self.is_refused(i as usize))) =>
                {
                    new
                }
                group => group,
            };
            if let [first, again @ ..] = group {
                let f = &self.cards[*first as usize];
                for &i in again {
                    let c = &self.cards[i as usize];
                    problems.error(
                        self.place(i as usize, c.at),
                        Said::new(
                            Msg::TableTwice,
                            [
                                self.key(i as usize).said(),
                                Part::text(self.place(*first as usize, f.at)),
                            ],
                        ),
                    );
                }
                if !again.is_empty() {
                    rejected.extend(group.iter().map(|&i| i as usize));
                }
                // (a stored card's place is the event's, not a file of
                // this run)
                let stored = group.iter().any(|&i| self.is_stored(i as usize));
                let files: Vec<String> = match again {
                    _ if stored => Vec::new(),
                    [] => Vec::new(),
                    _ => group
                        .iter()
                        .map(|&i| self.source(i as usize).file.clone())
                        .collect(),
                };
                if files.iter().any(|f| *f != files[0]) {
                    let session = (f.key.0, f.key.1);
                    let at = match in_files.iter().position(|(s, ..)| *s == session) {
                        Some(at) => at,
                        None => {
                            in_files.push((session, Vec::new(), 0, *first as usize));
                            in_files.len() - 1
                        }
                    };
                    let (_, names, tables, _) = &mut in_files[at];
                    for file in files {
                        if !names.contains(&file) {
                            names.push(file);
                        }
                    }
                    *tables += 1;
                }
            }
        }
        for (_, files, tables, first) in in_files {
            let session = self.key(first).session;
            problems.note(
                self.place(first, self.cards[first].at),
                Said::new(
                    Msg::SessionInFiles,
                    [
                        Part::text(SessionName(&session)),
                        Part::text(files.len()),
                        Part::List(files.into_iter().map(Part::text).collect(), Msg::And),
                        Part::count(tables, Msg::OneTable, Msg::TablesCount),
                    ],
                ),
            );
        }
        // A player at two tables of a session: each sitting after the
        // player's first in the session, at a card of another key. The
        // sessions are taken one at a time, in the order of (stage,
        // session), so that only one session's sittings are held (8 bytes
        // each: the player; the card and seat, as card * 4 + seat, a
        // seating holding fewer than a billion cards).
        let session_of = |i: u32| {
            let c = &self.cards[i as usize];
            (c.key.0, c.key.1)
        };
        let mut by_session: Vec<u32> = (0..self.cards.len() as u32).collect();
        if !rising {
            by_session.sort_unstable_by_key(|&i| (session_of(i), i));
        }
        let mut sittings: Vec<(PlayerId, u32)> = Vec::new();
        // The sessions of the first stage a player plays, at most
        // (`[sessions] per_player`): each player's counted as the sessions
        // are taken, and the sitting of their first kept to name it (5
        // bytes a player); with stored cards, their first sitting at a new
        // card too, where a clash is said (4 bytes more).
        let per_player = rules.sessions_per_player.and_then(|most| {
            let first = rules.stages.first()?;
            let stage = self.stages.iter().position(|s| s.as_str() == first)?;
            Some((stage as u32, most))
        });
        let mut sessions_of: Vec<u8> = Vec::new();
        let mut first_of: Vec<u32> = Vec::new();
        let mut new_of: Vec<u32> = Vec::new();
        // the cards said to seat a player of another session, each with
        // the card it names
        let mut repeats: Vec<(u32, u32)> = Vec::new();
        for cards in by_session.chunk_by(|&a, &b| session_of(a) == session_of(b)) {
            sittings.clear();
            for &i in cards {
                for (s, &player) in self.cards[i as usize].players.iter().enumerate() {
                    if player != NOBODY {
                        sittings.push((player, i * 4 + s as u32));
                    }
                }
            }
            sittings.sort_unstable();
            let counted = per_player.filter(|&(stage, _)| session_of(cards[0]).0 == stage);
            for group in sittings.chunk_by(|a, b| a.0 == b.0) {
                let [(_, first_sitting), rest @ ..] = group else {
                    continue;
                };
                if let Some((_, most)) = counted {
                    let (player, sitting) = group[0];
                    repeats.extend(self.count_session(
                        (player, sitting),
                        most,
                        (&mut sessions_of, &mut first_of, &mut new_of),
                        roster,
                        problems,
                        &mut rejected,
                    ));
                }
                let (j, js) = (first_sitting / 4, first_sitting % 4);
                let first = &self.cards[j as usize];
                for &(player, sitting) in rest {
                    let (i, s) = (sitting / 4, sitting % 4);
                    let c = &self.cards[i as usize];
                    if c.key == first.key {
                        continue; // the table given twice, said above
                    }
                    let (Some((_, at)), Some((_, first_at))) = (
                        self.seat(i as usize, s as usize),
                        self.seat(j as usize, js as usize),
                    ) else {
                        continue;
                    };
                    let p = roster.get(player);
                    let (key, first_key) = (self.key(i as usize), self.key(j as usize));
                    problems.error(
                        self.place(i as usize, at),
                        Said::new(
                            Msg::TwoTables,
                            [
                                Part::text(&p.id),
                                Part::text(&p.name),
                                Part::text(&key.table),
                                Part::text(&first_key.table),
                                Part::text(self.place(j as usize, first_at)),
                                Part::text(SessionName(&key.session)),
                            ],
                        ),
                    );
                    self.reject_in_clash(&[i as usize, j as usize], &mut rejected);
                }
            }
        }
        self.say_sessions_retyped(repeats, problems);
        rejected.extend(self.refused.iter().map(|&i| i as usize));
        rejected.sort_unstable();
        rejected.dedup();
        rejected
    }

    /// Cards of one session that each seat the same players as a card of
    /// another (`repeats`: the cards said to seat a player of another
    /// session, each with the card named), two or more of a pair of
    /// sessions: a session's cards typed under another's label, or typed
    /// twice. Besides the error at each of their seats, a note says so
    /// once for the pair of sessions, at the first such card, naming the
    /// first card it repeats.
    fn say_sessions_retyped(&self, mut repeats: Vec<(u32, u32)>, problems: &mut Problems) {
        repeats.sort_unstable();
        repeats.dedup();
        let seated = |i: u32| {
            let mut players = self.cards[i as usize].players;
            players.sort_unstable();
            players
        };
        let session = |i: u32| {
            let c = &self.cards[i as usize];
            (c.key.0, c.key.1)
        };
        // by pair of sessions, in the order of the first card said: the
        // cards so typed, and the first (with the card it names)
        type Sessions = ((u32, u32), (u32, u32));
        let mut pairs: Vec<(Sessions, u32, (u32, u32))> = Vec::new();
        let mut index = std::collections::HashMap::<Sessions, usize>::new();
        for (i, j) in repeats {
            if seated(i) != seated(j) {
                continue; // a wrong id, not a card typed again
            }
            let pair = (session(i), session(j));
            let at = *index.entry(pair).or_insert_with(|| {
                pairs.push((pair, 0, (i, j)));
                pairs.len() - 1
            });
            pairs[at].1 += 1;
        }
        for (_, cards, (i, j)) in pairs.into_iter().filter(|p| p.1 > 1) {
            let (i, j) = (i as usize, j as usize);
            let (key, named) = (self.key(i), self.key(j));
            problems.note(
                self.place(i, self.cards[i].at),
                Said::new(
                    Msg::SessionRetyped,
                    [
                        Part::text(cards),
                        Part::text(SessionName(&key.session)),
                        Part::text(SessionName(&named.session)),
                        Part::text(self.place(j, self.cards[j].at)),
                    ],
                ),
            );
        }
    }

    /// A player's sitting in one more session of the first stage (`player`
    /// at `sitting`, card * 4 + seat), counted in `sessions_of` by player
    /// (their first sitting in `first_of`, their first at a card not
    /// stored in `new_of`, kept only when cards are stored): past `most`
    /// sessions, an error at it naming the first, and both cards rejected.
    /// When it is a stored card's sitting, the error is at the player's
    /// first sitting at a new card instead, naming it
    /// ([`Seating::mark_stored`]): the sessions are taken in the order
    /// met, the stored cards' first, and a new card's session may come
    /// before a stored card's.
    fn count_session(
        &self,
        (player, sitting): (PlayerId, u32),
        most: u32,
        (sessions_of, first_of, new_of): (&mut Vec<u8>, &mut Vec<u32>, &mut Vec<u32>),
        roster: &Roster,
        problems: &mut Problems,
        rejected: &mut Vec<usize>,
    ) -> Option<(u32, u32)> {
        let k = player.0 as usize;
        if sessions_of.len() <= k {
            sessions_of.resize(k + 1, 0);
            first_of.resize(k + 1, 0);
        }
        let stored = |sitting: u32| self.is_stored((sitting / 4) as usize);
        if self.stored > 0 && !stored(sitting) {
            if new_of.len() <= k {
                new_of.resize(k + 1, NO_SITTING);
            }
            if new_of[k] == NO_SITTING {
                new_of[k] = sitting;
            }
        }
        let count = sessions_of[k].saturating_add(1);
        sessions_of[k] = count;
        if count == 1 {
            first_of[k] = sitting;
            return None;
        }
        if u32::from(count) <= most {
            return None;
        }
        let (said, named) = match new_of.get(k) {
            Some(&new) if stored(sitting) && new != NO_SITTING => (new, sitting),
            _ => (sitting, first_of[k]),
        };
        let (i, s) = ((said / 4) as usize, (said % 4) as usize);
        let (j, js) = ((named / 4) as usize, (named % 4) as usize);
        let (Some((_, at)), Some((_, first_at))) = (self.seat(i, s), self.seat(j, js)) else {
            return None;
        };
        let p = roster.get(player);
        let sessions = match most {
            1 => Part::said(Msg::OneSession, []),
            n => Part::said(Msg::Sessions, [Part::text(n)]),
        };
        let (key, first_key) = (self.key(i), self.key(j));
        problems.error(
            self.place(i, at),
            Said::new(
                Msg::SessionsPerPlayer,
                [
                    Part::text(&p.id),
                    Part::text(&p.name),
                    key.said(),
                    first_key.said(),
                    Part::text(self.place(j, first_at)),
                    sessions,
                    Part::Stage(key.stage.to_string()),
                ],
            ),
        );
        self.reject_in_clash(&[i, j, (first_of[k] / 4) as usize], rejected);
        Some((i as u32, j as u32))
    }

    /// Rejects the cards of one clash (a player at two tables of a
    /// session, or in more sessions than each plays): every card involved,
    /// the tool cannot tell which is right; but when a new card is among
    /// them, only the new ones. A stored card stands, as `import` leaves
    /// it when it refuses the file: `check FILE --event DIR` answers what
    /// the import would do, and does not name the stored table missing.
    fn reject_in_clash(&self, cards: &[usize], rejected: &mut Vec<usize>) {
        let any_new = cards.iter().any(|&i| !self.is_stored(i));
        rejected.extend(cards.iter().filter(|&&i| !(any_new && self.is_stored(i))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_read_from_sheets_named_after_them_keep_one_source() {
        let mut seating = Seating::default();
        for table in 1..=3 {
            let key = CardKey {
                stage: Stage::prelim(),
                session: Label::Num(1),
                table: Label::Num(table),
            };
            let sheet = key.name();
            seating.add(&key, &Source::sheet("tilerank.db", &sheet), At::row(2), []);
        }
        // a sheet of another name is kept as it is
        let key = CardKey {
            stage: Stage::prelim(),
            session: Label::Num(1),
            table: Label::Num(4),
        };
        seating.add(
            &key,
            &Source::sheet("S01.xlsx", "Table 4"),
            At::cell(9, 5),
            [],
        );
        assert_eq!(seating.sources.len(), 2);
        assert_eq!(
            seating.place(2, At::row(2)).to_string(),
            "tilerank.db[prelim-S01-T03] row 2"
        );
        assert_eq!(
            seating.place(3, At::cell(9, 5)).to_string(),
            "S01.xlsx[Table 4]!E9"
        );
    }

    /// hk's rules, a player playing any number of sessions.
    fn any_sessions() -> Rules {
        Rules {
            sessions_per_player: None,
            ..Rules::hk()
        }
    }

    /// The key of table `table` of session 1 of the preliminary round.
    fn key(table: u32) -> CardKey {
        CardKey {
            stage: Stage::prelim(),
            session: Label::Num(1),
            table: Label::Num(table),
        }
    }

    /// Cards added in rising order of their keys (sorted for nothing),
    /// or not (sorted): a table twice and a player at two tables of a
    /// session are found either way, and nothing else is.
    #[test]
    fn clashes_are_found_whatever_order_the_cards_came_in() {
        let mut roster = Roster::default();
        for i in 0..12 {
            roster
                .add(crate::roster::Player::named(
                    &format!("P{i}"),
                    &format!("N{i}"),
                ))
                .unwrap();
        }
        let card = |session: u32, table: u32| CardKey {
            session: Label::Num(session),
            ..key(table)
        };
        // (session, table, first player of its three)
        let clashes = |cards: &[(u32, u32, u32)]| {
            let mut seating = Seating::default();
            let file = Source::file("S.csv");
            for (i, &(session, table, first)) in cards.iter().enumerate() {
                let seats = [Seat::A, Seat::B, Seat::C]
                    .into_iter()
                    .zip(first..)
                    .map(|(seat, p)| (seat, PlayerId(p), At::row(i as u32 + 2)));
                seating.add(&card(session, table), &file, At::row(i as u32 + 2), seats);
            }
            let mut problems = Problems::new();
            let rejected = seating.clashes(&roster, &any_sessions(), &mut problems);
            let said: Vec<String> = problems.sorted().iter().map(|p| p.to_string()).collect();
            (rejected, said)
        };
        // in rising order, no clash; then P2 at tables 1 and 2
        assert_eq!(
            clashes(&[(1, 1, 0), (1, 2, 3), (2, 1, 0)]),
            (vec![], vec![])
        );
        let (rejected, said) = clashes(&[(1, 1, 0), (1, 2, 2), (1, 3, 6)]);
        assert_eq!(rejected, [0, 1]);
        assert_eq!(said.len(), 1);
        assert!(
            said[0].contains("P2 (N2) is seated at table 2 and at table 1"),
            "{said:?}"
        );
        // not in rising order: session 1 again after session 2
        let (rejected, said) = clashes(&[(1, 1, 0), (2, 1, 0), (1, 2, 2)]);
        assert_eq!(rejected, [0, 2]);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(
            clashes(&[(1, 1, 0), (2, 1, 0), (1, 2, 3)]),
            (vec![], vec![])
        );
        // a table twice, in a row and apart
        for (cards, twice) in [
            ([(1, 1, 0), (1, 1, 3), (1, 2, 6)], [0, 1]),
            ([(1, 1, 0), (1, 2, 6), (1, 1, 3)], [0, 2]),
        ] {
            let (rejected, said) = clashes(&cards);
            assert_eq!(rejected, twice);
            assert_eq!(said.len(), 1, "{said:?}");
            assert!(said[0].contains("is given twice"), "{said:?}");
        }
    }

    /// A card refused by its own checks still sits: its table given again
    /// is said at once, and it is rejected with or without a clash.
    #[test]
    fn a_refused_card_is_seated_for_the_checks_across_cards() {
        let roster = Roster::default();
        let file = Source::file("S.csv");
        let checked = |table: u32, row: u32| Checked {
            key: key(table),
            rows_from: 0,
            at: At::row(row),
            table_at: At { row, col: 2 },
            seats: Default::default(),
            renamed: Vec::new(),
            agreeing: Vec::new(),
            values: None,
        };
        let mut seating = Seating::default();
        seating.add(&key(1), &file, At::row(2), []);
        assert_eq!(seating.add_refused(&checked(1, 14), &file, &[None; 4]), 1);
        assert_eq!(seating.add_refused(&checked(2, 26), &file, &[None; 4]), 2);
        assert!(!seating.is_refused(0) && seating.is_refused(1) && seating.is_refused(2));
        let mut problems = Problems::new();
        assert_eq!(
            seating.clashes(&roster, &any_sessions(), &mut problems),
            [0, 1, 2]
        );
        let said: Vec<String> = problems.sorted().iter().map(|p| p.to_string()).collect();
        assert_eq!(
            said,
            ["S.csv:14:2: error: session S01 table 1 is given twice (also at S.csv:2); a table plays once per session"]
        );
        // the keys of every card are kept, refused or not
        assert_eq!(seating.into_keys().len(), 3);
    }

    #[test]
    fn a_seating_gives_back_every_seat_place_it_was_given() {
        let file = Source::file("S01.csv");
        let mut seating = Seating::default();
        // seats a few rows below the card, in one column: held in the card
        let near = [
            (Seat::A, PlayerId(0), At::cell(10, 5)),
            (Seat::C, PlayerId(2), At::cell(12, 5)),
            (Seat::B, PlayerId(1), At::cell(11, 5)),
        ];
        seating.add(&key(1), &file, At::cell(10, 3), near);
        // seats above the card, in another column, 65,535 rows or more
        // below it, past 65,535 columns: kept beside the cards
        let far = [
            (Seat::A, PlayerId(3), At::cell(4, 2)),
            (Seat::B, PlayerId(4), At::cell(21, 2)),
            (Seat::C, PlayerId(5), At::cell(20, 7)),
            (Seat::D, PlayerId(6), At::cell(20 + 65_535, 2)),
        ];
        seating.add(&key(2), &file, At::cell(20, 3), far);
        let wide = [(Seat::B, PlayerId(7), At::cell(30, 70_000))];
        seating.add(&key(3), &file, At::cell(30, 3), wide);
        assert_eq!(seating.wide.len(), 4);
        let seats = |i: usize| {
            (0..4)
                .filter_map(|s| seating.seat(i, s).map(|(p, at)| (s, p.0, at)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            seats(0),
            [
                (0, 0, At::cell(10, 5)),
                (1, 1, At::cell(11, 5)),
                (2, 2, At::cell(12, 5))
            ]
        );
        assert_eq!(
            seats(1),
            [
                (0, 3, At::cell(4, 2)),
                (1, 4, At::cell(21, 2)),
                (2, 5, At::cell(20, 7)),
                (3, 6, At::cell(20 + 65_535, 2))
            ]
        );
        assert_eq!(seats(2), [(1, 7, At::cell(30, 70_000))]);
        // and so does a seating made again from it
        let again = Seating::default().kept_then(|_| true, seating.clone());
        let again_seats = |i: usize| (0..4).map(|s| again.seat(i, s)).collect::<Vec<_>>();
        for i in 0..3 {
            assert_eq!(
                again_seats(i),
                (0..4).map(|s| seating.seat(i, s)).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn a_player_at_two_tables_is_named_at_both_seat_places() {
        let mut roster = Roster::default();
        for (id, name) in [("P1", "Ann"), ("P2", "Bo"), ("P3", "Cy"), ("P4", "Di")] {
            roster.add(crate::roster::Player::named(id, name)).unwrap();
        }
        let file = Source::file("S01.csv");
        let mut seating = Seating::default();
        seating.add(
            &key(1),
            &file,
            At::cell(2, 2),
            [
                (Seat::A, PlayerId(0), At::cell(2, 5)),
                (Seat::B, PlayerId(1), At::cell(3, 5)),
            ],
        );
        // Bo again, named above the card's own place (kept beside it)
        seating.add(
            &key(2),
            &file,
            At::cell(9, 2),
            [
                (Seat::A, PlayerId(2), At::cell(9, 5)),
                (Seat::C, PlayerId(1), At::cell(7, 5)),
            ],
        );
        let mut problems = Problems::new();
        assert_eq!(
            seating.clashes(&roster, &any_sessions(), &mut problems),
            [0, 1]
        );
        let said: Vec<String> = problems.sorted().iter().map(|p| p.to_string()).collect();
        assert_eq!(
            said,
            ["S01.csv:7:5: error: P2 (Bo) is seated at table 2 and at table 1 (S01.csv:3:5) in session S01; a player sits at one table per session"]
        );
    }

    /// The cards of a results CSV text, as read.
    fn raw_cards(text: &str) -> Vec<RawCard> {
        let limits = crate::ingest::limits::Limits::default();
        let mut problems = Problems::new();
        let inputs = crate::ingest::cards_from_bytes(
            "S01.csv",
            text.as_bytes().to_vec(),
            &limits,
            &mut problems,
        );
        assert!(!problems.has_errors(), "{:?}", problems.sorted());
        inputs.cards
    }

    /// Check 4 does not work out the winner's score from losses wrong in
    /// themselves, and a game a seat's line is missing from (its other
    /// scores not adding up) says the line, not the sum: in every language.
    #[test]
    fn a_winner_is_not_judged_by_wrong_losses_nor_a_game_a_line_short() {
        let said = |text: &str, lang: crate::lang::Lang| {
            let text = format!("session,table,game,seat,player,won,score,tiles\n{text}");
            let mut problems = Problems::new();
            let mut one = Rules::hk();
            one.games_per_session = 2;
            assert!(check_values(&raw_cards(&text)[0], &one, false, &mut problems).is_none());
            let said: Vec<String> = problems
                .sorted()
                .iter()
                .map(|p| p.message_in(lang))
                .collect();
            said
        };
        let (en, zh) = (crate::lang::Lang::En, crate::lang::Lang::ZhHant);
        // game 1: D went out, B's loss lost its minus and D's gain has one;
        // game 2: D's line left out (the others add up to -1)
        let card = "1,1,1,A,P1,0,-11,3\n1,1,1,B,P2,0,30,4\n1,1,1,C,P3,0,-82,9\n\
                    1,1,1,D,P4,1,-123,0\n\
                    1,1,2,A,P1,1,+9,0\n1,1,2,B,P2,0,-4,1\n1,1,2,C,P3,0,-6,2\n";
        assert_eq!(
            said(card, en),
            [
                "game 1: the scores add up to -186, expected 0 (A -11, B +30, C -82, D -123)",
                "score is +30; expected a loss (below 0): seat D went out",
                "score is -123; seat D went out (0 tiles), so expected a gain (above 0)",
                "game 2 has no line for seat D (P4), who plays game 1 of this card, and its other scores add up to -1, not 0: type seat D's line (when a player leaves early, the others' scores add up to 0 without theirs)",
            ]
        );
        assert_eq!(
            said(card, zh),
            [
                "第 1 局：得分總和為 -186，應為 0（A -11、B +30、C -82、D -123）",
                "得分為 +30；應為失分（低於 0）：座位 D 已出完牌",
                "得分為 -123；座位 D 已出完牌（0 張餘牌），應為正分（高於 0）",
                "第 2 局沒有座位 D（P4）的一行，而該選手在此計分卡打了第 1 局，此局其他得分總和為 -1，而非 0：請補上座位 D 的一行（選手提早離場時，其餘選手的得分總和仍為 0）",
            ]
        );
    }

    /// A game refused that one sign mended makes pass is hinted, once, in
    /// every language; a card that passes, a game two changes would each
    /// mend, and a game of penalty points are not. The hint is no error.
    #[test]
    fn a_game_one_sign_away_from_passing_is_hinted() {
        let head = "session,table,game,seat,player,won,score,tiles\n";
        let card = |b2: &str, c3: &str| {
            format!(
                "{head}3,7,1,A,P1,1,+37,0\n3,7,1,B,P2,0,-12,2\n3,7,1,C,P3,0,-25,4\n\
                 3,7,2,A,P1,0,-8,2\n3,7,2,B,P2,1,{b2},0\n3,7,2,C,P3,0,-14,2\n\
                 3,7,3,A,P1,1,+29,0\n3,7,3,B,P2,0,-20,3\n3,7,3,C,P3,0,{c3},2\n"
            )
        };
        let hints = |text: &str, rules: &Rules| {
            let mut problems = Problems::new();
            let passed = check_values(&raw_cards(text)[0], rules, false, &mut problems).is_some();
            let errors = problems.error_count();
            let (hints, more) = problems.hints();
            assert_eq!(more, 0);
            let said: Vec<(String, String)> = hints
                .iter()
                .map(|h| (h.place.to_string(), h.said.to_string()))
                .collect();
            let zh: Vec<String> = (hints.iter())
                .map(|h| h.said.say(crate::lang::Lang::ZhHant))
                .collect();
            (passed, errors, said, zh)
        };
        let hk = Rules::hk();
        assert_eq!(hints(&card("+22", "-9"), &hk), (true, 0, vec![], vec![]));
        let (passed, errors, said, zh) = hints(&card("+22", "9"), &hk);
        assert!(!passed && errors > 1);
        assert_eq!(
            said,
            [(
                "S01.csv:8".to_string(),
                "session S03 table 7 game 3: with seat C's score -9 instead of +9, the game adds up: did it lose its minus sign?".to_string()
            )]
        );
        assert_eq!(
            zh,
            ["場次 S03 第 7 枱第 3 局：座位 C 的得分若為 -9（而非 +9），此局即可相符：是否漏了負號？"]
        );
        // the minus of B's +22 typed on A's -8 instead
        let moved = card("-22", "-9").replace("3,7,2,A,P1,0,-8", "3,7,2,A,P1,0,8");
        assert_eq!(
            hints(&moved, &hk).2[0].1,
            "session S03 table 7 game 2: with seat A's score -8 instead of +8 and seat B's +22 instead of -22, the game adds up: was the minus sign of seat A typed on seat B's line?"
        );
        // a game wrong otherwise, and one sign mending it two ways
        assert!(hints(&card("+22", "-10"), &hk).2.is_empty());
        let two_ways = "session,table,game,seat,player,won,score,tiles\n\
             1,1,1,A,P1,0,+5,2\n1,1,1,B,P2,1,+5,1\n1,1,1,C,P3,0,+5,2\n1,1,1,D,P4,0,-5,3\n";
        let one_game = Rules {
            games_per_session: 1,
            ..Rules::hk()
        };
        let (passed, errors, said, _) = hints(two_ways, &one_game);
        assert!(!passed && errors == 1 && said.is_empty(), "{said:?}");
        // penalty points: no sign to lose
        let gwinnett = ProfileName::all().find(|p| p.as_str() == "gwinnett");
        assert!(hints(&card("+22", "9"), &gwinnett.unwrap().rules())
            .2
            .is_empty());
    }

    /// A card refused is counted with the built-in profiles under whose
    /// scoring it adds up: a Gwinnett card (penalty points) under hk adds
    /// up under gwinnett; a zero-sum card with a mistake, or one of four
    /// games (pressman's count, not its scoring), under none; a card that
    /// passes is not counted.
    #[test]
    fn a_card_refused_is_told_the_profiles_it_adds_up_under() {
        let head = "session,table,game,seat,player,won,score,tiles\n";
        let gwinnett = format!(
            "{head}1,1,1,A,G01,1,0,0\n1,1,1,B,G02,0,12,2\n1,1,1,C,G03,0,25,4\n\
             1,1,2,A,G01,0,8,2\n1,1,2,B,G02,1,0,0\n1,1,2,C,G03,0,14,2\n\
             1,1,3,A,G01,1,0,0\n1,1,3,B,G02,0,20,3\n1,1,3,C,G03,0,9,2\n"
        );
        let zero_sum = |last: &str| {
            format!(
                "{head}1,1,1,A,P1,1,+37,0\n1,1,1,B,P2,0,-12,2\n1,1,1,C,P3,0,-25,4\n\
                 1,1,2,A,P1,0,-8,2\n1,1,2,B,P2,1,+22,0\n1,1,2,C,P3,0,-14,2\n\
                 1,1,3,A,P1,1,+29,0\n1,1,3,B,P2,0,-20,3\n1,1,3,C,P3,0,{last},2\n"
            )
        };
        let four_games = format!(
            "{}1,1,4,A,P1,1,+9,0\n1,1,4,B,P2,0,-4,1\n1,1,4,C,P3,0,-5,2\n",
            zero_sum("-9")
        );
        let gwinnett_at = ProfileName::all()
            .position(|p| p.as_str() == "gwinnett")
            .unwrap();
        let hk = Rules::hk();
        let refused = |text: &str, rules: &Rules| {
            let mut problems = Problems::new();
            let raw = &raw_cards(text)[0];
            let passed = check_values(raw, rules, false, &mut problems).is_some();
            (
                passed,
                problems.other_profile(rules.profile).map(|s| s.to_string()),
            )
        };
        let mut gwinnett_only = [false; PROFILES.len()];
        gwinnett_only[gwinnett_at] = true;
        assert_eq!(adds_up_under(&raw_cards(&gwinnett)[0], &hk), gwinnett_only);
        assert_eq!(
            refused(&gwinnett, &hk),
            (
                false,
                Some(
                    "the card rejected adds up under the gwinnett profile, not under the hk rules: give --profile gwinnett"
                        .into()
                )
            )
        );
        for text in [zero_sum("-10"), four_games] {
            assert_eq!(
                adds_up_under(&raw_cards(&text)[0], &hk),
                [false; PROFILES.len()]
            );
            assert_eq!(refused(&text, &hk), (false, None));
        }
        assert_eq!(refused(&zero_sum("-9"), &hk), (true, None));
        // the other way: a zero-sum card under gwinnett adds up under
        // every zero-sum profile, the first of them to give
        let theirs = ProfileName::all()
            .find(|p| p.as_str() == "gwinnett")
            .unwrap();
        assert_eq!(
            refused(&zero_sum("-9"), &theirs.rules()).1.as_deref(),
            Some(
                "the card rejected adds up under the hk, nvso or pressman profile, not under the gwinnett rules: give --profile hk"
            )
        );
    }

    /// The messages of check 5 that name the leaders (made only when a
    /// game is wrong), as they are said.
    #[test]
    fn nobody_out_messages_name_the_leaders() {
        let source = Source::file("S01.csv");
        let line = |seat, won, score: i64, tiles| Line {
            source: &source,
            seat,
            won_at: At::cell(2, 7),
            score_at: At::cell(2, 8),
            tiles_at: At::cell(2, 9),
            won,
            score: Score::whole(score),
            tiles: Some(tiles),
        };
        let said = |rules: &Rules, lines: &[Line]| {
            let mut problems = Problems::new();
            check_nobody_out(2, lines, rules, &mut problems);
            problems.iter().map(|p| p.to_string()).collect::<Vec<_>>()
        };
        // A and B lead with 11; C (+2) is not a leader and is marked won
        let hk = Rules::hk();
        assert_eq!(
            said(
                &hk,
                &[
                    line(Seat::A, false, 11, 3),
                    line(Seat::B, true, 11, 1),
                    line(Seat::C, true, 2, 4),
                    line(Seat::D, false, -24, 5),
                ]
            ),
            [
                "S01.csv:2:8: error: score is +2; in game 2 nobody went out and the leaders (A and B) score +11, so every other seat loses points",
                "S01.csv:2:7: error: game won is 1, expected 0: nobody went out and seat C (+2) is not a leader; the leaders (A and B) score +11",
            ]
        );
        // by tiles: A and B hold the fewest (1); B's score is not A's, C
        // (not a leader) gains, and A is not marked won
        let mut by_tiles = Rules::hk();
        by_tiles.no_winner_by = crate::profile::NoWinnerBy::Tiles;
        assert_eq!(
            said(
                &by_tiles,
                &[
                    line(Seat::A, false, 5, 1),
                    line(Seat::B, true, 4, 1),
                    line(Seat::C, false, 1, 4),
                    line(Seat::D, false, -10, 5),
                ]
            ),
            [
                "S01.csv:2:8: error: score is +4; in game 2 the leaders (A and B, fewest tiles) share the pot, and seat A scores +5",
                "S01.csv:2:8: error: score is +1; in game 2 seat C is not a leader (fewest tiles: A and B), so it loses points",
                "S01.csv:2:7: error: game won is 0, expected 1: nobody went out, and the leaders (A and B) have the fewest tiles (1)",
            ]
        );
    }

    /// Where a charge adds to the rack (`penalty_mode = "add"`), a loss the
    /// rack cannot hold is said with what a charged rack loses (each charge
    /// plus the rack), not the bare charges: "-100" was offered, and
    /// refused.
    #[test]
    fn a_charge_added_to_the_rack_is_said_as_what_such_a_rack_loses() {
        let mut rules = crate::profile::by_name("hk").unwrap();
        rules.games_per_session = 1;
        rules.penalty_mode = PenaltyMode::Add;
        let text = "session,table,game,seat,player,won,score,tiles\n\
                    S01,1,1,A,P1,1,125,0\nS01,1,1,B,P2,0,-100,2\n\
                    S01,1,1,C,P3,0,-10,3\nS01,1,1,D,P4,0,-15,4\n";
        let raw = &raw_cards(text)[0];
        let mut problems = Problems::new();
        assert!(check_values(raw, &rules, false, &mut problems).is_none());
        let said: Vec<String> = problems.sorted().iter().map(|p| p.to_string()).collect();
        assert_eq!(
            said,
            ["S01.csv:3:7: error: score is -100 with 2 tiles left: that rack loses 2 to 60 points, or a charge plus the rack: 102 to 160 or 202 to 260 (are the score and tiles columns swapped?)"]
        );
        let zh: Vec<String> = problems
            .iter()
            .map(|p| p.message_in(crate::lang::Lang::ZhHant))
            .collect();
        assert!(
            zh[0].contains("或罰分加牌架：102 至 160 或 202 至 260"),
            "{zh:?}"
        );
        // a charged rack's loss is taken
        let good = text.replace("125,0", "127,0").replace("-100,2", "-102,2");
        let raw = &raw_cards(&good)[0];
        let mut problems = Problems::new();
        assert!(check_values(raw, &rules, false, &mut problems).is_some());
    }

    /// Penalty points (this tool's decision, docs/rules.md section 5): at
    /// most one seat has 0 tiles; `won` is 1 exactly for the seat that
    /// went out, or (nobody out) for the lowest score with the fewest
    /// tiles, or (`no_winner_by = tiles`) the fewest tiles; a score its
    /// tiles can hold (score and tiles typed in each other's columns).
    #[test]
    fn penalty_points_check_who_won_the_zero_tile_seats_and_what_a_rack_scores() {
        let said = |rules: &Rules, games: &str| {
            let text = format!("session,table,game,seat,player,won,score,tiles\n{games}");
            let raw = &raw_cards(&text)[0];
            let mut problems = Problems::new();
            let values = check_values(raw, rules, false, &mut problems);
            let said: Vec<String> = problems.sorted().iter().map(|p| p.to_string()).collect();
            assert_eq!(values.is_some(), said.is_empty(), "{said:?}");
            said
        };
        let gwinnett = crate::profile::by_name("gwinnett").unwrap();
        let good = "S01,1,1,A,P1,1,0,0\nS01,1,1,B,P2,0,20,4\nS01,1,1,C,P3,0,35,5\n\
                    S01,1,2,A,P1,0,7,2\nS01,1,2,B,P2,1,7,1\nS01,1,2,C,P3,0,40,4\n\
                    S01,1,3,A,P1,1,0,0\nS01,1,3,B,P2,0,99,5\nS01,1,3,C,P3,0,5,5\n";
        assert_eq!(said(&gwinnett, good), Vec::<String>::new());
        // game 1: C won too, with 2 points on 5 tiles; game 2: two seats
        // have 0 tiles; game 3: nobody out, B leads (lowest) with 500 on 5
        assert_eq!(
            said(
                &gwinnett,
                "S01,1,1,A,P1,1,0,0\nS01,1,1,B,P2,0,20,4\nS01,1,1,C,P3,1,2,5\n\
                 S01,1,2,A,P1,0,0,0\nS01,1,2,B,P2,0,0,0\nS01,1,2,C,P3,0,40,4\n\
                 S01,1,3,A,P1,1,7,2\nS01,1,3,B,P2,0,6,5\nS01,1,3,C,P3,0,500,5\n"
            ),
            [
                "S01.csv:4:6: error: game won is 1, expected 0: seat A went out, so only A won",
                "S01.csv:4:7: error: score is 2 with 5 tiles left: that rack scores 5 to 99 penalty points (are the score and tiles columns swapped?)",
                "S01.csv:5: error: game 2: seats A and B both have 0 tiles; only the player who went out has none",
                "S01.csv:8:6: error: game won is 1, expected 0: nobody went out and seat A (7) is not a leader; the leaders (B) score 6",
                "S01.csv:9:6: error: game won is 0, expected 1: nobody went out and seat B is a leader (6) with the fewest tiles (5)",
                "S01.csv:10:7: error: score is 500 with 5 tiles left: that rack scores 5 to 99 penalty points (are the score and tiles columns swapped?)",
            ]
        );
        // the seat that went out not marked won; in Chinese too
        let text = "session,table,game,seat,player,won,score,tiles\n\
                    S01,1,1,A,P1,0,0,0\nS01,1,1,B,P2,0,20,4\nS01,1,1,C,P3,0,35,5\n";
        let raw = &raw_cards(text)[0];
        let mut problems = Problems::new();
        let mut one = gwinnett.clone();
        one.games_per_session = 1;
        assert!(check_values(raw, &one, false, &mut problems).is_none());
        let zh: Vec<String> = problems
            .iter()
            .map(|p| p.message_in(crate::lang::Lang::ZhHant))
            .collect();
        assert_eq!(zh, ["勝局為 0，應為 1：座位 A 已出完牌（0 張餘牌）"]);
        // nobody out, by tiles: the fewest tiles won, whatever the score
        let mut by_tiles = gwinnett.clone();
        by_tiles.no_winner_by = crate::profile::NoWinnerBy::Tiles;
        let game = |won_a, won_b| {
            format!("S01,1,1,A,P1,{won_a},9,1\nS01,1,1,B,P2,{won_b},4,2\nS01,1,1,C,P3,0,40,4\n")
        };
        by_tiles.games_per_session = 1;
        assert_eq!(said(&by_tiles, &game(1, 0)), Vec::<String>::new());
        assert_eq!(
            said(&by_tiles, &game(0, 1)),
            [
                "S01.csv:2:6: error: game won is 0, expected 1: nobody went out, and the leaders (A) have the fewest tiles (1)",
                "S01.csv:3:6: error: game won is 1, expected 0: nobody went out, and the leaders (A) have the fewest tiles (1)",
            ]
        );
        // a blank tiles cell: only a knocked rack, charged as the profile
        // says (gwinnett has no charge)
        let mut one = gwinnett.clone();
        one.games_per_session = 1;
        let blank = "S01,1,1,A,P1,1,0,0\nS01,1,1,B,P2,0,50,\nS01,1,1,C,P3,0,35,5\n";
        assert_eq!(
            said(&one, blank),
            ["S01.csv:3:8: error: tiles is blank; expected the number of tiles left on B's rack"]
        );
        let mut knocked = one.clone();
        knocked.penalties.knocked = 50;
        knocked.penalty_mode = PenaltyMode::Replace;
        assert_eq!(said(&knocked, blank), Vec::<String>::new());
        let short = blank.replace(",50,", ",49,");
        assert_eq!(
            said(&knocked, &short),
            ["S01.csv:3:8: error: tiles is blank; expected the number of tiles left on B's rack (blank only for a knocked rack, charged 50)"]
        );
    }

    #[test]
    fn won_accepts_one_and_zero_as_people_type_them() {
        assert_eq!(parse_won(&Cell::Number(1.0)), Ok(true));
        assert_eq!(parse_won(&Cell::text("0")), Ok(false));
        assert_eq!(parse_won(&Cell::text("1.0")), Ok(true));
        // a workbook's TRUE and FALSE, as cells and as a CSV has them
        assert_eq!(parse_won(&Cell::Bool(true)), Ok(true));
        assert_eq!(parse_won(&Cell::text("TRUE")), Ok(true));
        assert_eq!(parse_won(&Cell::text(" False ")), Ok(false));
        let said = |c: Cell| parse_won(&c).map_err(|e| e.to_string());
        assert_eq!(
            said(Cell::text("yes")),
            Err("game won is \"yes\"; expected 1 or 0".into())
        );
        assert_eq!(
            said(Cell::Number(2.0)),
            Err("game won is 2; expected 1 or 0".into())
        );
    }

    #[test]
    fn tiles_are_whole_numbers_up_to_the_set() {
        assert_eq!(parse_tiles(&Cell::Number(3.0)), Ok(Some(3)));
        assert_eq!(parse_tiles(&Cell::text("14")), Ok(Some(14)));
        assert_eq!(parse_tiles(&Cell::Empty), Ok(None));
        assert!(parse_tiles(&Cell::Number(107.0))
            .unwrap_err()
            .to_string()
            .contains("from 0 to 106"));
        assert!(parse_tiles(&Cell::Number(2.5)).is_err());
        assert!(parse_tiles(&Cell::text("-1")).is_err());
    }

    #[test]
    fn scores_accept_the_spellings_of_rules_section_5() {
        let hk = Rules::hk();
        for (text, want) in [
            ("+30", 30),
            ("30", 30),
            ("30.0", 30),
            ("-5", -5),
            ("−5", -5),
        ] {
            assert_eq!(
                parse_score(&Cell::text(text), &hk),
                Ok(Score::whole(want)),
                "{text}"
            );
        }
        assert_eq!(
            parse_score(&Cell::text("3.33"), &hk),
            Ok(Score::ratio(10, 3))
        );
        assert_eq!(parse_score(&Cell::Number(-5.0), &hk), Ok(Score::whole(-5)));
        assert!(parse_score(&Cell::Empty, &hk)
            .unwrap_err()
            .to_string()
            .starts_with("score is blank"));
        assert!(parse_score(&Cell::text("3.4"), &hk)
            .unwrap_err()
            .to_string()
            .contains("a half or a third"));
        assert!(parse_score(&Cell::FormulaWithoutValue("=B2".into()), &hk)
            .unwrap_err()
            .to_string()
            .contains("no saved value"));
    }

    #[test]
    fn a_rack_holds_one_to_thirteen_a_tile_and_jokers() {
        let hk = Rules::hk();
        assert!(loss_fits(&Score::whole(8), 8, &hk));
        assert!(!loss_fits(&Score::whole(5), 8, &hk));
        assert!(loss_fits(&Score::whole(13 + 60), 3, &hk));
        assert!(!loss_fits(&Score::whole(13 + 61), 3, &hk));
        assert!(loss_fits(&Score::whole(100), 2, &hk), "a no-meld charge");
        assert!(
            loss_fits(&Score::whole(200), 1, &hk),
            "a refused-meld or knocked charge"
        );
    }
}
