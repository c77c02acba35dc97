//! RULES.md section 5: checking a recorded card.
//!
//! The tool cannot see the racks, but it checks everything the rules force.
//! Each failed check is one error naming the cell (or the game's row), what
//! was found and what was expected; a card with any error is not used.
//!
//! | check | function |
//! |---|---|
//! | 1. seats, known and distinct players | [`check_card`] (seats), [`check_clashes`] (across cards) |
//! | 2. values: won, score, tiles | [`parse_won`], [`parse_score`], [`parse_tiles`] |
//! | 3. scores sum to zero | `check_game` |
//! | 4. someone went out | `check_went_out` |
//! | 5. nobody went out | `check_nobody_out` |
//! | 6. the `Total` line | `check_total` |
//! | 7. games per card, withdrawn players | [`check_card`] (games) |

use crate::domain::{Card, CardKey, Game, PlayerId, Seat, SeatPlayer, SeatResult, SessionName};
use crate::ingest::cell::Cell;
use crate::ingest::raw::{RawCard, RawCell, RawLine};
use crate::place::Place;
use crate::problem::Problems;
use crate::profile::{PenaltyMode, Rules, Scoring};
use crate::roster::{Roster, Unresolved};
use crate::score::Score;
use std::collections::{BTreeMap, HashMap};

/// The most tiles a rack can hold: the whole set.
pub const MAX_TILES: u16 = 106;

const NO_SAVED_VALUE: &str =
    "holds a formula with no saved value: open the file in a spreadsheet program and save it, or type the value";

/// Check 2: `won` is 1 or 0 (`1.0`, `"1"` and TRUE count).
pub fn parse_won(cell: &Cell) -> Result<bool, String> {
    let found = match cell {
        Cell::Number(n) if *n == 1.0 => return Ok(true),
        Cell::Number(n) if *n == 0.0 => return Ok(false),
        Cell::Bool(b) => return Ok(*b),
        Cell::Text(t) => match t.trim().trim_end_matches(".0") {
            "1" => return Ok(true),
            "0" => return Ok(false),
            _ => cell.describe(),
        },
        Cell::FormulaWithoutValue(f) => return Err(format!("game won {f} {NO_SAVED_VALUE}")),
        _ => cell.describe(),
    };
    Err(format!("game won is {found}; expected 1 or 0"))
}

/// Check 2: `tiles` is a whole number 0..=106; blank is `None` (allowed
/// only for a knocked rack, decided by the game checks).
pub fn parse_tiles(cell: &Cell) -> Result<Option<u16>, String> {
    let n = match cell {
        Cell::Empty => return Ok(None),
        Cell::Number(n) if n.fract() == 0.0 => Some(*n),
        Cell::Text(t) => t
            .trim()
            .trim_end_matches(".0")
            .parse::<u32>()
            .ok()
            .map(f64::from),
        Cell::FormulaWithoutValue(f) => return Err(format!("tiles {f} {NO_SAVED_VALUE}")),
        _ => None,
    };
    match n {
        Some(n) if (0.0..=f64::from(MAX_TILES)).contains(&n) => Ok(Some(n as u16)),
        _ => Err(format!(
            "tiles is {}; expected a whole number of tiles from 0 to {MAX_TILES}",
            cell.describe()
        )),
    }
}

/// Check 2: `score` is a number: `+30`, `30`, `30.0`, `-5`, `−5`. A rounded
/// value stands for the exact score it rounds from (`3.33` for 10/3): under
/// zero-sum rules a game's scores are whole, halves or thirds.
pub fn parse_score(cell: &Cell, rules: &Rules) -> Result<Score, String> {
    let value = match cell {
        Cell::Empty => {
            return Err("score is blank; expected a number such as +30, -5 or 5.5".into())
        }
        Cell::Number(n) => Score::from_f64(*n),
        Cell::Text(t) => Score::parse(t),
        Cell::FormulaWithoutValue(f) => return Err(format!("score {f} {NO_SAVED_VALUE}")),
        _ => None,
    };
    let Some(value) = value else {
        return Err(format!(
            "score is {}; expected a number such as +30, -5 or 5.5",
            cell.describe()
        ));
    };
    match rules.scoring {
        Scoring::ZeroSum => value.snap(6).ok_or_else(|| {
            format!(
                "score is {}; a game's score is a whole number, or a half or a third when leaders share a pot (such as 5.5 or 3.33)",
                cell.as_text()
            )
        }),
        Scoring::PenaltyPoints => match value.snap(1) {
            Some(v) if !v.is_negative() => Ok(v),
            _ => Err(format!("score is {}; expected whole penalty points, 0 or more", cell.as_text())),
        },
    }
}

/// One seat's values in one game, parsed, with the places of its cells
/// (used only when an error is reported).
struct Line<'a> {
    seat: Seat,
    won_place: &'a Place,
    score_place: &'a Place,
    tiles_place: &'a Place,
    player: PlayerId,
    won: bool,
    score: Score,
    tiles: Option<u16>,
}

impl Line<'_> {
    fn seat(&self) -> Seat {
        self.seat
    }
}

/// One seat's parsed values in one game, as the streaming reader gives them
/// ([`crate::stream`]): no places, since it reads a card again the ordinary
/// way when anything is wrong.
#[derive(Clone, Copy, Debug)]
pub struct PlainLine {
    pub seat: Seat,
    pub player: PlayerId,
    pub won: bool,
    pub score: Score,
    pub tiles: Option<u16>,
}

/// Whether checks 3 to 5 pass on one game whose values all parsed: the
/// same checks [`check_card`] runs, without building any message place
/// unless one fails (then `false`).
pub fn game_is_clean(number: u32, lines: &[PlainLine], rules: &Rules) -> bool {
    static NOWHERE: std::sync::LazyLock<Place> = std::sync::LazyLock::new(|| Place::nowhere("-"));
    let nowhere: &Place = &NOWHERE;
    let line = |l: &PlainLine| Line {
        seat: l.seat,
        won_place: nowhere,
        score_place: nowhere,
        tiles_place: nowhere,
        player: l.player,
        won: l.won,
        score: l.score,
        tiles: l.tiles,
    };
    let mut scratch = Problems::new();
    if lines.len() <= 4 {
        // the common case: no allocation
        let Some(first) = lines.first() else {
            return true;
        };
        let array: [Line; 4] = std::array::from_fn(|i| line(lines.get(i).unwrap_or(first)));
        check_game(number, nowhere, &array[..lines.len()], rules, &mut scratch);
    } else {
        let all: Vec<Line> = lines.iter().map(line).collect();
        check_game(number, nowhere, &all, rules, &mut scratch);
    }
    scratch.error_count() == 0
}

/// The values of a game, as `A +30, B -5, C -10`.
fn listing(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| format!("{} {}", l.seat(), l.score.signed()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn seats_list(seats: impl IntoIterator<Item = Seat>) -> String {
    let v: Vec<String> = seats.into_iter().map(|s| s.to_string()).collect();
    match v.len() {
        0 => "none".into(),
        1 => v[0].clone(),
        n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

/// Checks one card (checks 1 to 7, but for what needs the other cards) and
/// returns it when it passed every check.
pub fn check_card(
    raw: &RawCard,
    rules: &Rules,
    roster: &mut Roster,
    problems: &mut Problems,
) -> Option<Card> {
    let errors_before = problems.error_count();

    // Check 1: 3 or 4 seats, each a distinct known player.
    let filled: Vec<Seat> = raw.seats.iter().map(|s| s.seat).collect();
    if !(3..=4).contains(&filled.len()) {
        problems.error(
            raw.place.clone(),
            format!(
                "{}: {} seated ({}); a table seats 3 or 4 players",
                raw.key,
                plural(filled.len(), "player"),
                seats_list(filled.iter().copied())
            ),
        );
    }
    let mut seats: Vec<SeatPlayer> = Vec::new();
    for s in &raw.seats {
        let player = match roster.resolve(&s.player) {
            Ok(p) => p,
            Err(Unresolved::Unknown) => {
                problems.error(
                    s.place.clone(),
                    format!(
                        "player {:?} is not on the roster: expected a roster id or name",
                        s.player
                    ),
                );
                continue;
            }
            Err(Unresolved::Ambiguous(ids)) => {
                let ids: Vec<String> = ids.iter().map(|&p| roster.get(p).id.clone()).collect();
                problems.error(
                    s.place.clone(),
                    format!(
                        "player name {:?} matches {} roster entries ({}): write the id instead",
                        s.player,
                        ids.len(),
                        ids.join(", ")
                    ),
                );
                continue;
            }
        };
        if let Some(other) = seats.iter().find(|o| o.player == player) {
            let p = roster.get(player);
            problems.error(
                s.place.clone(),
                format!(
                    "{} ({}) sits at seat {} and at seat {}; each seat needs its own player",
                    p.id, p.name, other.seat, s.seat
                ),
            );
            continue;
        }
        seats.push(SeatPlayer {
            seat: s.seat,
            player,
            place: s.place.clone(),
        });
    }

    // Check 7: the games the profile expects, numbered 1..=N.
    let expected = rules.games_for(&raw.key.stage);
    let played: Vec<_> = raw
        .games
        .iter()
        .filter(|g| g.lines.iter().any(|l| !l.is_blank()))
        .collect();
    for g in &played {
        if g.number > expected {
            problems.error(
                g.place.clone(),
                format!(
                    "game {}: the {} rules play {} games per session",
                    g.number, rules.profile, expected
                ),
            );
        }
    }
    let missing: Vec<String> = (1..=expected)
        .filter(|n| !played.iter().any(|g| g.number == *n))
        .map(|n| n.to_string())
        .collect();
    if !missing.is_empty() {
        problems.error(
            raw.place.clone(),
            format!(
                "{}: game {} missing; the {} rules play {} games per session (a player who left early is blank in the games not played)",
                raw.key,
                missing.join(", "),
                rules.profile,
                expected
            ),
        );
    }

    // Checks 2 to 5, game by game.
    let mut games = Vec::new();
    // Seats with a game that could not be read: their Total is not checked
    // (the error is already listed; a Total "wrong" by that game is not).
    let mut unread: Vec<Seat> = Vec::new();
    for g in &played {
        let mut lines = Vec::new();
        let mut values_ok = true;
        for raw_line in g.lines.iter().filter(|l| !l.is_blank()) {
            let Some(sp) = seats.iter().find(|s| s.seat == raw_line.seat) else {
                values_ok = false; // the seat's player was already reported
                unread.push(raw_line.seat);
                continue;
            };
            let won = parse_won(&raw_line.won.value)
                .map_err(|e| problems.error(raw_line.won.place.clone(), e));
            let score = parse_score(&raw_line.score.value, rules)
                .map_err(|e| problems.error(raw_line.score.place.clone(), e));
            let tiles = parse_tiles(&raw_line.tiles.value)
                .map_err(|e| problems.error(raw_line.tiles.place.clone(), e));
            match (won, score, tiles) {
                (Ok(won), Ok(score), Ok(tiles)) => lines.push(Line {
                    seat: raw_line.seat,
                    won_place: &raw_line.won.place,
                    score_place: &raw_line.score.place,
                    tiles_place: &raw_line.tiles.place,
                    player: sp.player,
                    won,
                    score,
                    tiles,
                }),
                _ => {
                    values_ok = false;
                    unread.push(raw_line.seat);
                }
            }
        }
        let seated = g.lines.iter().filter(|l| !l.is_blank()).count();
        if !(3..=4).contains(&seated) {
            unread.extend(g.lines.iter().filter(|l| !l.is_blank()).map(|l| l.seat));
            let who = seats_list(g.lines.iter().filter(|l| !l.is_blank()).map(|l| l.seat));
            problems.error(
                g.place.clone(),
                format!(
                    "game {}: {} played ({who}); a game needs 3 or 4",
                    g.number,
                    plural(seated, "player")
                ),
            );
            continue;
        }
        if values_ok {
            check_game(g.number, &g.place, &lines, rules, problems);
        }
        games.push(Game {
            number: g.number,
            results: lines
                .iter()
                .map(|l| SeatResult {
                    seat: l.seat(),
                    player: l.player,
                    won: l.won,
                    score: l.score,
                    tiles: l.tiles,
                    place: l.score_place.clone(),
                })
                .collect(),
        });
    }

    // Check 6: the Total line, when there is one and the reader could read
    // the card whole (a row it could not place is already an error).
    if let Some(total) = raw.total.as_ref().filter(|_| !raw.defective) {
        let readable: Vec<RawLine> = total
            .lines
            .iter()
            .filter(|l| !unread.contains(&l.seat))
            .cloned()
            .collect();
        check_total(&readable, &games, rules, problems);
    }

    let clean = !raw.defective && problems.error_count() == errors_before;
    clean.then(|| {
        games.sort_by_key(|g| g.number);
        Card {
            key: raw.key.clone(),
            place: raw.place.clone(),
            seats,
            games,
        }
    })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Checks 3, 4 and 5 on one game whose values all parsed.
fn check_game(number: u32, place: &Place, lines: &[Line], rules: &Rules, problems: &mut Problems) {
    if rules.scoring == Scoring::PenaltyPoints {
        for l in lines
            .iter()
            .filter(|l| l.tiles == Some(0) && !l.score.is_zero())
        {
            problems.error(
                l.score_place.clone(),
                format!(
                    "score is {}; seat {} went out (0 tiles), so expected 0",
                    l.score,
                    l.seat()
                ),
            );
        }
        return;
    }
    let sum: Score = lines.iter().map(|l| l.score).sum();
    if !sum.is_zero() {
        problems.error(
            place.clone(),
            format!(
                "game {number}: the scores add up to {}, expected 0 ({})",
                sum.signed(),
                listing(lines)
            ),
        );
    }
    let mut out = lines.iter().filter(|l| l.tiles == Some(0));
    match (out.next(), out.next()) {
        (None, _) => check_nobody_out(number, lines, rules, problems),
        (Some(winner), None) => check_went_out(winner, lines, rules, problems),
        _ => {
            let several: Vec<&Line> = lines.iter().filter(|l| l.tiles == Some(0)).collect();
            problems.error(
                place.clone(),
                format!(
                "game {number}: seats {} {} have 0 tiles; only the player who went out has none",
                    seats_list(several.iter().map(|l| l.seat())),
                    if several.len() == 2 { "both" } else { "all" }
                ),
            )
        }
    }
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
/// or lost and did not lead (nobody went out).
fn knocked_blank_ok(line: &Line, someone_out: bool, rules: &Rules) -> bool {
    let knocked = rules.penalties.knocked;
    if knocked == 0 || line.won || !line.score.is_negative() {
        return false;
    }
    if !someone_out {
        return true;
    }
    match rules.penalty_mode {
        PenaltyMode::Replace => line.score == Score::whole(-knocked),
        PenaltyMode::Add => line.score <= Score::whole(-knocked),
    }
}

fn blank_tiles_error(line: &Line, rules: &Rules) -> String {
    if rules.penalties.knocked > 0 {
        format!(
            "tiles is blank; expected the number of tiles left on {}'s rack (blank only for a knocked rack, charged {})",
            line.seat(),
            rules.penalties.knocked
        )
    } else {
        format!(
            "tiles is blank; expected the number of tiles left on {}'s rack",
            line.seat()
        )
    }
}

/// Check 4: one seat went out.
fn check_went_out(winner: &Line, lines: &[Line], rules: &Rules, problems: &mut Problems) {
    let w = winner.seat();
    if !winner.won {
        problems.error(
            winner.won_place.clone(),
            format!("game won is 0, expected 1: seat {w} went out (0 tiles)"),
        );
    }
    let others: Score = lines
        .iter()
        .filter(|l| l.seat() != w)
        .map(|l| l.score)
        .sum();
    if !winner.score.is_positive() || winner.score != -others {
        problems.error(
            winner.score_place.clone(),
            format!(
                "score is {}; seat {w} went out (0 tiles), so expected {}, what the others lost",
                winner.score.signed(),
                (-others).signed()
            ),
        );
    }
    for l in lines.iter().filter(|l| l.seat() != w) {
        if l.won {
            problems.error(
                l.won_place.clone(),
                format!("game won is 1, expected 0: seat {w} went out, so only {w} won"),
            );
        }
        if !l.score.is_negative() {
            problems.error(
                l.score_place.clone(),
                format!(
                    "score is {}; expected a loss (below 0): seat {w} went out",
                    l.score.signed()
                ),
            );
            continue;
        }
        match l.tiles {
            None if !knocked_blank_ok(l, true, rules) => {
                problems.error(l.tiles_place.clone(), blank_tiles_error(l, rules))
            }
            None => {}
            Some(t) if !loss_fits(&-l.score, t, rules) => {
                let charges: Vec<i64> = rules.penalties.charges().collect();
                let charge_text = match charges.as_slice() {
                    [] => String::new(),
                    c => format!(
                        ", or a charge of {}",
                        c.iter()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                };
                problems.error(
                    l.score_place.clone(),
                    format!(
                        "score is {} with {} left: that rack loses {} to {} points{charge_text} (are the score and tiles columns swapped?)",
                        l.score.signed(),
                        plural(usize::from(t), "tile"),
                        rules.min_rack_value(t),
                        rules.max_rack_value(t)
                    ),
                );
            }
            Some(_) => {}
        }
    }
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
    let leaders: Vec<&Line> = lines.iter().filter(|l| l.score == top).collect();
    if top.is_negative() {
        return; // the sum check has said it: the scores cannot add up to 0
    }
    let leader_names = seats_list(leaders.iter().map(|l| l.seat()));
    for l in lines.iter().filter(|l| l.score != top) {
        if !l.score.is_negative() {
            problems.error(
                l.score_place.clone(),
                format!(
                    "score is {}; in game {number} nobody went out and the leaders ({leader_names}) score {}, so every other seat loses points",
                    l.score.signed(),
                    top.signed()
                ),
            );
        }
    }
    for l in lines.iter().filter(|l| l.tiles.is_none()) {
        let is_leader = l.score == top;
        if is_leader || !knocked_blank_ok(l, false, rules) {
            problems.error(l.tiles_place.clone(), blank_tiles_error(l, rules));
        }
    }
    let fewest = leaders.iter().filter_map(|l| l.tiles).min();
    for l in lines {
        let is_leader = l.score == top;
        let should_win = is_leader && l.tiles.is_some() && l.tiles == fewest;
        if l.won == should_win {
            continue;
        }
        let reason = if !is_leader {
            format!(
                "seat {} ({}) is not a leader; the leaders ({leader_names}) score {}",
                l.seat(),
                l.score.signed(),
                top.signed()
            )
        } else if should_win {
            format!(
                "seat {} is a leader ({}) with the fewest tiles ({})",
                l.seat(),
                l.score.signed(),
                fewest.unwrap_or(0)
            )
        } else {
            let fewer = seats_list(
                leaders
                    .iter()
                    .filter(|x| x.tiles.is_some() && x.tiles == fewest)
                    .map(|x| x.seat()),
            );
            format!(
                "seat {} is a leader ({}) but has {} tiles, and {fewer} {} {}",
                l.seat(),
                l.score.signed(),
                l.tiles.map_or("no".to_string(), |t| t.to_string()),
                if fewer.contains(" and ") {
                    "have"
                } else {
                    "has"
                },
                fewest.unwrap_or(0)
            )
        };
        problems.error(
            l.won_place.clone(),
            format!(
                "game won is {}, expected {}: nobody went out and {reason}",
                u8::from(l.won),
                u8::from(should_win)
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
    let leaders: Vec<&Line> = lines.iter().filter(|l| l.tiles == Some(fewest)).collect();
    let names = seats_list(leaders.iter().map(|l| l.seat()));
    if let Some(first) = leaders.first() {
        for l in leaders.iter().filter(|l| l.score != first.score) {
            problems.error(
                l.score_place.clone(),
                format!(
                    "score is {}; in game {number} the leaders ({names}, fewest tiles) share the pot, and seat {} scores {}",
                    l.score.signed(),
                    first.seat(),
                    first.score.signed()
                ),
            );
        }
    }
    for l in lines
        .iter()
        .filter(|l| l.tiles != Some(fewest) && !l.score.is_negative())
    {
        problems.error(
            l.score_place.clone(),
            format!("score is {}; in game {number} seat {} is not a leader (fewest tiles: {names}), so it loses points", l.score.signed(), l.seat()),
        );
    }
    for l in lines {
        let should_win = l.tiles == Some(fewest);
        if l.won != should_win {
            problems.error(
                l.won_place.clone(),
                format!(
                    "game won is {}, expected {}: nobody went out, and the leaders ({names}) have the fewest tiles ({fewest})",
                    u8::from(l.won),
                    u8::from(should_win)
                ),
            );
        }
    }
}

/// Check 6: a `Total` line equals the sum of the games per seat. A rounded
/// total matches when it is the rounded exact sum, or the sum of the rounded
/// game scores. A formula with no saved value is recomputed: nothing to check.
fn check_total(total: &[RawLine], games: &[Game], rules: &Rules, problems: &mut Problems) {
    for line in total {
        let results: Vec<&SeatResult> = games
            .iter()
            .flat_map(|g| g.results.iter().filter(|r| r.seat == line.seat))
            .collect();
        let seat = line.seat;
        let check = |cell: &RawCell,
                     what: &str,
                     expected: String,
                     matches: &dyn Fn(&Cell) -> Option<bool>,
                     problems: &mut Problems| {
            match &cell.value {
                Cell::Empty | Cell::FormulaWithoutValue(_) => {}
                value => match matches(value) {
                    Some(true) => {}
                    Some(false) => problems.error(
                        cell.place.clone(),
                        format!(
                            "Total {what} of seat {seat} is {}, but the games add up to {expected}",
                            value.as_text()
                        ),
                    ),
                    None => problems.error(
                        cell.place.clone(),
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
            problems,
        );
        if results.iter().all(|r| r.tiles.is_some()) {
            let tiles: i64 = results.iter().filter_map(|r| r.tiles).map(i64::from).sum();
            check(
                &line.tiles,
                "tiles",
                tiles.to_string(),
                &|c| number(c, rules).map(|v| v == Score::whole(tiles)),
                problems,
            );
        }
    }
}

fn number(cell: &Cell, _rules: &Rules) -> Option<Score> {
    match cell {
        Cell::Number(n) => Score::from_f64(*n),
        Cell::Text(t) => Score::parse(t),
        _ => None,
    }
}

/// Check 1 across cards: no table twice in a session, no player at two
/// tables in the same session. Returns the indexes of the cards to reject
/// (every card involved: the tool cannot tell which one is right).
pub fn check_clashes(cards: &[Card], roster: &Roster, problems: &mut Problems) -> Vec<usize> {
    let mut rejected = Vec::new();
    let mut by_key: BTreeMap<&CardKey, Vec<usize>> = BTreeMap::new();
    for (i, c) in cards.iter().enumerate() {
        by_key.entry(&c.key).or_default().push(i);
    }
    for (key, idx) in &by_key {
        if idx.len() > 1 {
            for &i in &idx[1..] {
                problems.error(
                    cards[i].place.clone(),
                    format!(
                        "{key} is given twice (also at {}); a table plays once per session",
                        cards[idx[0]].place
                    ),
                );
            }
            rejected.extend(idx.iter().copied());
        }
    }
    let mut seen: HashMap<
        (&crate::domain::Stage, &crate::domain::Label, PlayerId),
        (usize, &Place),
    > = HashMap::new();
    for (i, c) in cards.iter().enumerate() {
        for sp in &c.seats {
            let k = (&c.key.stage, &c.key.session, sp.player);
            match seen.get(&k) {
                Some(&(j, first)) if cards[j].key != c.key => {
                    let p = roster.get(sp.player);
                    problems.error(
                        sp.place.clone(),
                        format!(
                            "{} ({}) is seated at table {} and at table {} ({first}) in session {}; a player sits at one table per session",
                            p.id,
                            p.name,
                            c.key.table,
                            cards[j].key.table,
                            SessionName(&c.key.session)
                        ),
                    );
                    rejected.push(i);
                    rejected.push(j);
                }
                Some(_) => {}
                None => {
                    seen.insert(k, (i, &sp.place));
                }
            }
        }
    }
    rejected.sort_unstable();
    rejected.dedup();
    rejected
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn won_accepts_one_and_zero_as_people_type_them() {
        assert_eq!(parse_won(&Cell::Number(1.0)), Ok(true));
        assert_eq!(parse_won(&Cell::text("0")), Ok(false));
        assert_eq!(parse_won(&Cell::text("1.0")), Ok(true));
        assert_eq!(
            parse_won(&Cell::text("yes")),
            Err("game won is \"yes\"; expected 1 or 0".into())
        );
        assert_eq!(
            parse_won(&Cell::Number(2.0)),
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
            .starts_with("score is blank"));
        assert!(parse_score(&Cell::text("3.4"), &hk)
            .unwrap_err()
            .contains("a half or a third"));
        assert!(parse_score(&Cell::FormulaWithoutValue("=B2".into()), &hk)
            .unwrap_err()
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
