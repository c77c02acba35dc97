//! The streaming reader: results CSV files read, checked and tallied one
//! card at a time, with no cell ever held as text.
//!
//! A large results file (a league's season, an online event) is almost
//! always well formed. This reader takes the common shape only: UTF-8
//! text without quotes, the results header on the first line, numeric
//! sessions and tables, and each card's lines next to each other. A line
//! becomes a small typed row (numbers parsed once, the player a slice of
//! the text); a card is checked (RULES.md section 5, by the same checks as
//! [`crate::rules::card_checks::check_card`]) as soon as its last line is
//! read, and no place is built unless a check fails.
//!
//! Anything else (another layout, an odd spelling, a card whose lines are
//! apart, and any failed check) makes [`load`] answer `None`: the inputs
//! are then read the ordinary way ([`crate::ingest::read_cards`]), so that
//! every message and place comes from one code path. The answer, when there
//! is one, is the very event the ordinary way gives (tested).

use crate::domain::{Card, CardKey, Game, Label, Seat, SeatPlayer, SeatResult, Stage};
use crate::ingest::header::map_header;
use crate::ingest::limits::Limits;
use crate::ingest::{self, lines, text};
use crate::place::Source;
use crate::profile::{Rules, Scoring};
use crate::roster::Roster;
use crate::rules::card_checks::{game_is_clean, parse_score, PlainLine, MAX_TILES};
use crate::score::Score;
use std::path::{Path, PathBuf};

/// What the streaming reader read: the cards that passed every check (all
/// of them, or `load` would have answered `None`).
#[derive(Debug)]
pub struct Streamed {
    pub cards: Vec<Card>,
    pub files: usize,
}

/// Reads every input the streaming way; `None` when any input is not the
/// common well-formed case (see the module text). Players are added to an
/// open `roster` as the cards name them; on `None`, `roster` is as it was.
pub fn load(inputs: &[PathBuf], rules: &Rules, roster: &mut Roster) -> Option<Streamed> {
    let limits = Limits::from_env().ok()?;
    let files = ingest::expand(inputs).ok()?;
    if files.iter().any(|f| !is_text_file(f)) {
        return None;
    }
    let before = roster.clone();
    let mut cards = Vec::new();
    let mut stages = StageNames::default();
    let mut keys: Vec<u128> = Vec::new();
    let mut sittings: Vec<u128> = Vec::new();
    for path in &files {
        let ok = read_file(
            path,
            rules,
            &limits,
            roster,
            &mut stages,
            &mut cards,
            &mut keys,
            &mut sittings,
        );
        if ok.is_none() {
            *roster = before;
            return None;
        }
    }
    // Check 1 across cards: a table twice in a session, a player at two
    // tables of a session (both end the streaming read; the ordinary read
    // names them).
    if has_duplicate(&mut keys) || has_duplicate(&mut sittings) {
        *roster = before;
        return None;
    }
    for path in &files {
        ingest::note_read(path);
    }
    Some(Streamed {
        cards,
        files: files.len(),
    })
}

fn is_text_file(path: &Path) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    matches!(ext.as_str(), "csv" | "tsv" | "txt")
}

fn has_duplicate(keys: &mut [u128]) -> bool {
    keys.sort_unstable();
    keys.windows(2).any(|w| w[0] == w[1])
}

/// Stage names met so far, each with a small index for the packed keys.
#[derive(Default)]
struct StageNames {
    names: Vec<Stage>,
}

impl StageNames {
    fn index(&mut self, stage: &Stage) -> Option<u128> {
        let i = match self.names.iter().position(|s| s == stage) {
            Some(i) => i,
            None => {
                self.names.push(stage.clone());
                self.names.len() - 1
            }
        };
        (i < 1 << 16).then_some(i as u128)
    }
}

/// One line, parsed: the head and the three values.
struct Row<'t> {
    line: u32,
    stage: u128,
    session: u32,
    table: u32,
    game: u32,
    seat: Seat,
    player: &'t str,
    won: bool,
    score: Score,
    tiles: Option<u16>,
}

/// Where the columns of a results header are (0-based), and the
/// number of columns.
struct Columns {
    stage: Option<usize>,
    session: usize,
    table: usize,
    game: usize,
    seat: usize,
    player: usize,
    won: usize,
    score: usize,
    tiles: usize,
}

/// Reads one file; `None` when it is not the common case.
#[allow(clippy::too_many_arguments)]
fn read_file(
    path: &Path,
    rules: &Rules,
    limits: &Limits,
    roster: &mut Roster,
    stages: &mut StageNames,
    cards: &mut Vec<Card>,
    keys: &mut Vec<u128>,
    sittings: &mut Vec<u128>,
) -> Option<()> {
    let bytes = std::fs::read(path).ok()?;
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    // quotes, and a carriage return that is not part of a line break,
    // are left to the CSV reader
    if body.contains(&b'"') {
        return None;
    }
    let text = std::str::from_utf8(body).ok()?;
    let delimiter = text::sniff_delimiter(text);
    let source = Source::file(&ingest::shown(path));
    let mut columns: Option<Columns> = None;
    let mut stage_text: Option<(&str, Stage, u128)> = None;
    let mut card: Vec<Row> = Vec::new();
    let mut fields: Vec<&str> = Vec::with_capacity(16);
    let mut found = false;
    for (i, raw) in text.split('\n').enumerate() {
        let line = u32::try_from(i + 1).ok()?;
        if raw.len() as u64 > limits.line_bytes {
            return None;
        }
        let body = raw.strip_suffix('\r').unwrap_or(raw);
        if body.contains('\r') {
            return None;
        }
        fields.clear();
        for f in body.split(delimiter as char) {
            if f.len() as u64 > limits.field_bytes {
                return None;
            }
            fields.push(trim(f));
        }
        if fields.len() as u64 > text::MAX_FIELDS {
            return None;
        }
        let Some(last) = fields.iter().rposition(|f| !f.is_empty()) else {
            continue; // a blank line
        };
        fields.truncate(last + 1);
        let Some(cols) = &columns else {
            columns = Some(header(&fields)?);
            continue;
        };
        let get = |i: usize| fields.get(i).copied().unwrap_or("");
        let stage_cell = cols.stage.map_or("", get);
        let stage = match &stage_text {
            Some((t, _, idx)) if *t == stage_cell => *idx,
            _ => {
                let stage = Stage::new(stage_cell);
                let idx = stages.index(&stage)?;
                stage_text = Some((stage_cell, stage, idx));
                idx
            }
        };
        let player = get(cols.player);
        if player.is_empty() || player.chars().count() as u64 > limits.name_chars {
            return None;
        }
        let row = Row {
            line,
            stage,
            session: number_label(Label::session(get(cols.session))?)?,
            table: number_label(Label::table(get(cols.table))?)?,
            game: game_number(get(cols.game))?,
            seat: seat(get(cols.seat))?,
            player,
            won: won(get(cols.won))?,
            score: score(get(cols.score), rules)?,
            tiles: tiles(get(cols.tiles))?,
        };
        let same = card
            .first()
            .is_none_or(|f| (f.stage, f.session, f.table) == (row.stage, row.session, row.table));
        if !same {
            let stage = stages.names[card[0].stage as usize].clone();
            cards.push(check(
                &card, stage, cols, &source, rules, roster, keys, sittings,
            )?);
            card.clear();
        }
        card.push(row);
        found = true;
    }
    if !found {
        return None; // the ordinary read says what the file lacks
    }
    let cols = columns.as_ref()?;
    let stage = stages.names[card[0].stage as usize].clone();
    cards.push(check(
        &card, stage, cols, &source, rules, roster, keys, sittings,
    )?);
    Some(())
}

/// As [`crate::ingest::cell::Cell::text`] trims a cell.
fn trim(f: &str) -> &str {
    f.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// The results header, with no column the layout does not know.
fn header(fields: &[&str]) -> Option<Columns> {
    let texts: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    let map = map_header(&texts, &crate::ingest::results::columns())?;
    if !map.unknown.is_empty() {
        return None;
    }
    Some(Columns {
        stage: map.get(lines::STAGE),
        session: map.get(lines::SESSION)?,
        table: map.get(lines::TABLE)?,
        game: map.get(lines::GAME)?,
        seat: map.get(lines::SEAT)?,
        player: map.get(lines::PLAYER)?,
        won: map.get(crate::ingest::results::WON)?,
        score: map.get(crate::ingest::results::SCORE)?,
        tiles: map.get(crate::ingest::results::TILES)?,
    })
}

fn number_label(label: Label) -> Option<u32> {
    match label {
        Label::Num(n) => Some(n),
        Label::Text(_) => None,
    }
}

/// As [`lines::whole_number`] reads a text cell, 1 or more.
fn game_number(t: &str) -> Option<u32> {
    let t = t.strip_suffix(".0").unwrap_or(t);
    t.parse().ok().filter(|&n| n >= 1)
}

fn seat(t: &str) -> Option<Seat> {
    match t.as_bytes() {
        [b'A' | b'a' | b'1'] => Some(Seat::A),
        [b'B' | b'b' | b'2'] => Some(Seat::B),
        [b'C' | b'c' | b'3'] => Some(Seat::C),
        [b'D' | b'd' | b'4'] => Some(Seat::D),
        _ => Seat::parse(t),
    }
}

/// As [`crate::rules::card_checks::parse_won`] reads a text cell.
fn won(t: &str) -> Option<bool> {
    match t.trim_end_matches(".0") {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// As [`parse_score`] reads a text cell: a whole number the quick way,
/// anything else by `parse_score` itself.
fn score(t: &str, rules: &Rules) -> Option<Score> {
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if !digits.is_empty() && digits.len() <= 9 && digits.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = digits.parse().ok()?;
        let n = if t.starts_with('-') { -n } else { n };
        return match rules.scoring {
            Scoring::ZeroSum => Some(Score::whole(n)),
            Scoring::PenaltyPoints => (n >= 0).then(|| Score::whole(n)),
        };
    }
    if t.is_empty() {
        return None;
    }
    parse_score(&crate::ingest::cell::Cell::text(t), rules).ok()
}

/// As [`crate::rules::card_checks::parse_tiles`] reads a text cell.
fn tiles(t: &str) -> Option<Option<u16>> {
    if t.is_empty() {
        return Some(None);
    }
    let n: u32 = t.trim_end_matches(".0").parse().ok()?;
    (n <= u32::from(MAX_TILES)).then_some(Some(n as u16))
}

/// Checks one card's lines (RULES.md section 5, checks 1 to 7 but for
/// what needs the other cards, whose keys go to `keys` and `sittings`);
/// `None` when any check fails.
#[allow(clippy::too_many_arguments)]
fn check(
    rows: &[Row],
    stage: Stage,
    cols: &Columns,
    source: &Source,
    rules: &Rules,
    roster: &mut Roster,
    keys: &mut Vec<u128>,
    sittings: &mut Vec<u128>,
) -> Option<Card> {
    let first = &rows[0];
    // Seats: the first line of a seat names its player; later lines name
    // the same one (or the ordinary read reports it).
    let mut named: [Option<(&str, u32)>; 4] = [None; 4];
    for r in rows {
        match named[r.seat.index()] {
            None => named[r.seat.index()] = Some((r.player, r.line)),
            Some((p, _)) if p == r.player => {}
            Some(_) => return None,
        }
    }
    let filled = named.iter().filter(|s| s.is_some()).count();
    if !(3..=4).contains(&filled) {
        return None;
    }
    let mut seats: Vec<SeatPlayer> = Vec::with_capacity(filled);
    for (seat, slot) in Seat::ALL.into_iter().zip(named) {
        let Some((text, line)) = slot else { continue };
        let player = roster.resolve(text).ok()?;
        if seats.iter().any(|s| s.player == player) {
            return None;
        }
        seats.push(SeatPlayer {
            seat,
            player,
            place: source.at(line, Some(cols.player as u32 + 1)),
        });
    }
    let player_at = |seat: Seat| seats.iter().find(|s| s.seat == seat).map(|s| s.player);

    // Games in the order first seen, each seat once; check 7: 1..=N.
    let expected = rules.games_for(&stage);
    let mut order: Vec<u32> = Vec::with_capacity(expected as usize);
    for r in rows {
        if !order.contains(&r.game) {
            if r.game > expected {
                return None;
            }
            order.push(r.game);
        }
    }
    if order.len() != expected as usize {
        return None;
    }
    let mut games = Vec::with_capacity(order.len());
    let mut plain: Vec<PlainLine> = Vec::with_capacity(4);
    for &number in &order {
        plain.clear();
        let mut results = Vec::with_capacity(4);
        for r in rows.iter().filter(|r| r.game == number) {
            if plain.iter().any(|l| l.seat == r.seat) {
                return None; // a seat given twice in a game
            }
            let line = PlainLine {
                seat: r.seat,
                player: player_at(r.seat)?,
                won: r.won,
                score: r.score,
                tiles: r.tiles,
            };
            plain.push(line);
            results.push(SeatResult {
                seat: r.seat,
                player: line.player,
                won: r.won,
                score: r.score,
                tiles: r.tiles,
                place: source.at(r.line, Some(cols.score as u32 + 1)),
            });
        }
        if !(3..=4).contains(&plain.len()) || !game_is_clean(number, &plain, rules) {
            return None;
        }
        games.push(Game { number, results });
    }
    games.sort_by_key(|g| g.number);

    let at = (first.stage << 96) | (u128::from(first.session) << 64);
    keys.push(at | u128::from(first.table));
    sittings.extend(seats.iter().map(|s| at | u128::from(s.player.0)));
    Some(Card {
        key: CardKey {
            stage,
            session: Label::Num(first.session),
            table: Label::Num(first.table),
        },
        place: source.at(first.line, None),
        seats,
        games,
    })
}
