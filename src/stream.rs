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
//!
//! A file of 4 MiB or more is read on two threads: one reads, parses and
//! checks each card's lines; the other names the players (the roster) and
//! runs the checks across cards, in the order read, so that the answer is
//! the one a single thread gives (tested).
//! Players are interned in the roster as the cards name them; the clash
//! checks across cards keep one packed number per card and per seat.

use crate::domain::{Card, CardKey, Game, Label, PlayerId, Seat, SeatPlayer, SeatResult, Stage};
use crate::ingest::header::map_header;
use crate::ingest::limits::Limits;
use crate::ingest::{self, lines, text};
use crate::place::Source;
use crate::profile::{Rules, Scoring};
use crate::roster::Roster;
use crate::rules::card_checks::{game_is_clean, parse_score, PlainLine, MAX_TILES};
use crate::rules::tally::Tallies;
use crate::score::Score;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// What the streaming reader read: every card passed every check (or
/// `load` would have answered `None`).
#[derive(Debug)]
pub struct Streamed {
    /// The cards, when asked to keep them.
    pub cards: Vec<Card>,
    /// What they add up to.
    pub tallies: Tallies,
    pub accepted: usize,
    pub games: usize,
    pub files: usize,
}

/// Reads every input the streaming way; `None` when any input is not the
/// common well-formed case (see the module text). Players are added to an
/// open `roster` as the cards name them; on `None`, `roster` is as it was.
/// The cards are kept when `keep_cards` says so; their sums always.
pub fn load(
    inputs: &[PathBuf],
    rules: &Rules,
    roster: &mut Roster,
    keep_cards: bool,
) -> Option<Streamed> {
    load_with(inputs, rules, roster, keep_cards, None)
}

/// As [`load`]; `threads` says whether to read on two threads (by
/// default, for files of 4 MiB and more). The answer is the same.
pub fn load_with(
    inputs: &[PathBuf],
    rules: &Rules,
    roster: &mut Roster,
    keep_cards: bool,
    threads: Option<bool>,
) -> Option<Streamed> {
    let limits = Limits::from_env().ok()?;
    let files = ingest::expand(inputs).ok()?;
    if files.iter().any(|f| !is_text_file(f)) {
        return None;
    }
    let before = roster.clone();
    // Room for the players and cards, judged from the size of the files (a
    // line is some 30 bytes; a player has a line per game, a card three
    // seats and more a game): no regrowing of a million entries. Room not
    // used is never touched.
    let bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let games = u64::from(rules.games_for(&Stage::prelim()).max(1));
    let room = |per: u64| usize::try_from(bytes / 28 / per).unwrap_or(0).min(1 << 26);
    if roster.is_open() {
        roster.reserve(room(games));
        roster.reserve_text(room(games) * 8);
    }
    let mut cards = Vec::new();
    let mut tallies = Tallies::default();
    let s = tallies.stage(&Stage::prelim());
    tallies.reserve(s, room(games));
    let mut sink = Sink {
        roster,
        tallies: &mut tallies,
        cards: keep_cards.then_some(&mut cards),
        stage_of: Vec::new(),
        keys: Vec::with_capacity(room(games * 3)),
        sittings: Vec::with_capacity(room(games)),
        accepted: 0,
        games: 0,
    };
    let mut ok = Some(());
    for path in &files {
        let large = std::fs::metadata(path).is_ok_and(|m| m.len() >= THREADS_FROM);
        // each file numbers its own stages
        sink.stage_of.clear();
        ok = read_file(path, rules, &limits, &mut sink, threads.unwrap_or(large));
        if ok.is_none() {
            break;
        }
    }
    // Check 1 across cards: a table twice in a session, a player at two
    // tables of a session (both end the streaming read; the ordinary read
    // names them).
    if ok.is_none() || has_duplicate(&mut sink.keys) || has_duplicate(&mut sink.sittings) {
        *sink.roster = before;
        return None;
    }
    let (accepted, games) = (sink.accepted, sink.games);
    drop(sink);
    tallies.drop_empty();
    for path in &files {
        ingest::note_read(path);
    }
    Some(Streamed {
        cards,
        tallies,
        accepted,
        games,
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

    fn get(&self, index: u128) -> Option<&Stage> {
        self.names.get(usize::try_from(index).ok()?)
    }
}

/// One line, parsed: the head and the three values. The player is a
/// range of the card's text of names.
struct Row {
    line: u32,
    stage: u128,
    session: u32,
    table: u32,
    game: u32,
    seat: Seat,
    player: (u32, u32),
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

/// One card's lines as read, to be checked.
struct Parsed {
    rows: Vec<Row>,
    /// The text of the players the rows name.
    names: String,
    stage: Stage,
    /// The columns of the player and the score (1-based), for places.
    player_col: u32,
    score_col: u32,
}

/// Cards handed from the reading thread to the checking one at a time.
const BATCH: usize = 256;

/// Files from this size on are read and checked on two threads.
const THREADS_FROM: u64 = 4 << 20;

/// Reads one file; `None` when it is not the common case. With `threads`,
/// one thread reads, parses and checks the lines of each card while this
/// one names its players and adds the cards up, in the order read: the
/// same cards, players and answer as one thread.
fn read_file(
    path: &Path,
    rules: &Rules,
    limits: &Limits,
    sink: &mut Sink,
    threads: bool,
) -> Option<()> {
    let source = Source::file(&ingest::shown(path));
    if !threads {
        let mut stages = StageNames::default();
        return parse_file(path, rules, limits, &mut stages, &mut |p, stages| {
            let prepared = prepare(p, rules, stages)?;
            sink.accept(prepared, stages, &source, rules)
        });
    }
    // The stage names the reading thread meets are sent with the cards
    // that first name them.
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<Prepared>, Vec<Stage>)>(4);
        let parser = scope.spawn(move || {
            let mut own = StageNames::default();
            let mut sent = 0;
            let mut batch = Vec::with_capacity(BATCH);
            let parsed = parse_file(path, rules, limits, &mut own, &mut |p, own| {
                batch.push(prepare(p, rules, own)?);
                if batch.len() == BATCH {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    let new = own.names[sent..].to_vec();
                    sent = own.names.len();
                    tx.send((full, new)).ok()?;
                }
                Some(())
            });
            if parsed.is_some() && !batch.is_empty() {
                tx.send((batch, own.names[sent..].to_vec())).ok()?;
            }
            parsed
        });
        // this thread's stage indexes are the reader's (it starts from none)
        let mut theirs = StageNames::default();
        let mut checked = Some(());
        'batches: for (batch, new) in rx.iter() {
            theirs.names.extend(new);
            for p in batch {
                if sink.accept(p, &theirs, &source, rules).is_none() {
                    checked = None;
                    break 'batches;
                }
            }
        }
        drop(rx); // a reader still at work stops at its next batch
        let parsed = parser.join().ok()?;
        checked.and(parsed)
    })
}

/// Reads and parses one file's lines, handing each card's lines to
/// `card`; `None` when the file is not the common case (or `card` says
/// `None`). The file is read a line at a time: what is held is one card.
fn parse_file(
    path: &Path,
    rules: &Rules,
    limits: &Limits,
    stages: &mut StageNames,
    card: &mut dyn FnMut(Parsed, &StageNames) -> Option<()>,
) -> Option<()> {
    let mut reader = BufReader::with_capacity(1 << 16, std::fs::File::open(path).ok()?);
    // The delimiter is judged on the first lines, as the ordinary reader
    // judges it (see `text::sniff_delimiter`).
    let mut head: Vec<u8> = Vec::new();
    let mut head_lines = 0;
    let mut non_blank = 0;
    let mut eof = false;
    while non_blank < SNIFF_LINES {
        let start = head.len();
        if reader.read_until(b'\n', &mut head).ok()? == 0 {
            eof = true;
            break;
        }
        head_lines += 1;
        let line = std::str::from_utf8(&head[start..]).ok()?;
        if !line.trim().is_empty() {
            non_blank += 1;
        }
    }
    let body = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    let delimiter = text::sniff_delimiter(std::str::from_utf8(body).ok()?);
    let mut file = FileState {
        delimiter,
        rules,
        limits,
        columns: None,
        stage_text: None,
        card: Vec::new(),
        names: String::new(),
        fields: Vec::with_capacity(16),
        found: false,
    };
    let mut number = 0u32;
    for raw in body.split_inclusive(|&b| b == b'\n').take(head_lines) {
        number = number.checked_add(1)?;
        file.line(number, raw, stages, card)?;
    }
    let mut buf = Vec::with_capacity(256);
    while !eof {
        buf.clear();
        if reader.read_until(b'\n', &mut buf).ok()? == 0 {
            eof = true;
            continue;
        }
        number = number.checked_add(1)?;
        file.line(number, &buf, stages, card)?;
    }
    if !file.found {
        return None; // the ordinary read says what the file lacks
    }
    file.finish_card(stages, card)
}

/// Non-blank lines the delimiter is judged on (as `sniff_delimiter` does).
const SNIFF_LINES: usize = 20;

/// One file being read.
struct FileState<'r> {
    delimiter: u8,
    rules: &'r Rules,
    limits: &'r Limits,
    columns: Option<Columns>,
    /// The last stage cell's text, its stage and index.
    stage_text: Option<(String, u128)>,
    /// The lines of the card being read, and the text of their players.
    card: Vec<Row>,
    names: String,
    fields: Vec<(usize, usize)>,
    found: bool,
}

impl FileState<'_> {
    /// One line of the file (with its line break, if any).
    #[allow(clippy::too_many_arguments)]
    fn line(
        &mut self,
        number: u32,
        raw: &[u8],
        stages: &mut StageNames,
        card: &mut dyn FnMut(Parsed, &StageNames) -> Option<()>,
    ) -> Option<()> {
        let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        // quotes, and a carriage return that is not part of a line break,
        // are left to the CSV reader
        if raw.len() as u64 > self.limits.line_bytes || raw.contains(&b'"') {
            return None;
        }
        let raw = if number == 1 {
            raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw)
        } else {
            raw
        };
        let body = raw.strip_suffix(b"\r").unwrap_or(raw);
        if body.contains(&b'\r') {
            return None;
        }
        let text = std::str::from_utf8(body).ok()?;
        self.fields.clear();
        let mut start = 0;
        for f in text.split(self.delimiter as char) {
            if f.len() as u64 > self.limits.field_bytes {
                return None;
            }
            let t = trim(f);
            let at = start + (t.as_ptr() as usize - f.as_ptr() as usize);
            self.fields.push((at, at + t.len()));
            start += f.len() + 1;
        }
        if self.fields.len() as u64 > text::MAX_FIELDS {
            return None;
        }
        let Some(last) = self.fields.iter().rposition(|&(a, b)| a < b) else {
            return Some(()); // a blank line
        };
        self.fields.truncate(last + 1);
        let fields = &self.fields;
        let get = |i: usize| fields.get(i).map_or("", |&(a, b)| &text[a..b]);
        let Some(cols) = &self.columns else {
            let cells: Vec<&str> = (0..fields.len()).map(get).collect();
            self.columns = Some(header(&cells)?);
            return Some(());
        };
        let stage_cell = cols.stage.map_or("", get);
        let stage = match &self.stage_text {
            Some((t, idx)) if t == stage_cell => *idx,
            _ => {
                let idx = stages.index(&Stage::new(stage_cell))?;
                self.stage_text = Some((stage_cell.to_string(), idx));
                idx
            }
        };
        let player = get(cols.player);
        if player.is_empty() || player.chars().count() as u64 > self.limits.name_chars {
            return None;
        }
        let mut row = Row {
            line: number,
            stage,
            session: number_label(Label::session(get(cols.session))?)?,
            table: number_label(Label::table(get(cols.table))?)?,
            game: game_number(get(cols.game))?,
            seat: seat(get(cols.seat))?,
            player: (0, 0),
            won: won(get(cols.won))?,
            score: score(get(cols.score), self.rules)?,
            tiles: tiles(get(cols.tiles))?,
        };
        let same = self
            .card
            .first()
            .is_none_or(|f| (f.stage, f.session, f.table) == (row.stage, row.session, row.table));
        if !same {
            self.finish_card(stages, card)?;
        }
        // a seat's later lines name the same player: only the first is kept
        let known = self
            .card
            .iter()
            .find(|r| r.seat == row.seat)
            .map(|r| r.player);
        row.player = match known {
            Some(range) if self.name(range) == player => range,
            Some(_) => return None, // the ordinary read says which
            None => {
                let start = self.names.len() as u32;
                self.names.push_str(player);
                (start, self.names.len() as u32)
            }
        };
        self.card.push(row);
        self.found = true;
        Some(())
    }

    fn name(&self, (a, b): (u32, u32)) -> &str {
        &self.names[a as usize..b as usize]
    }

    /// Hands on the card read so far and starts the next.
    fn finish_card(
        &mut self,
        stages: &StageNames,
        card: &mut dyn FnMut(Parsed, &StageNames) -> Option<()>,
    ) -> Option<()> {
        let cols = self.columns.as_ref()?;
        let first = self.card.first()?;
        let parsed = Parsed {
            stage: stages.names[first.stage as usize].clone(),
            rows: std::mem::replace(&mut self.card, Vec::with_capacity(16)),
            names: std::mem::take(&mut self.names),
            player_col: cols.player as u32 + 1,
            score_col: cols.score as u32 + 1,
        };
        card(parsed, stages)
    }
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

/// A card checked but for its players: the seats' names, and each line's
/// result by seat.
struct Prepared {
    /// The card's stage (an index of [`StageNames`]), session and table.
    stage: u128,
    session: u32,
    table: u32,
    /// Where the card starts, and the columns of the player and the score.
    line: u32,
    player_col: u32,
    score_col: u32,
    /// The players as the card names them, by seat: ranges of `names`;
    /// the line that names each.
    names: String,
    seat_names: [Option<((u32, u32), u32)>; 4],
    /// Games played by seat.
    played: [u8; 4],
    /// The lines in game order (each game's lines as read).
    rows: Vec<Row>,
}

/// Checks one card's lines but for its players (RULES.md section 5,
/// checks 1 to 7 but for what needs the roster or the other cards);
/// `None` when any check fails.
fn prepare(parsed: Parsed, rules: &Rules, stages: &StageNames) -> Option<Prepared> {
    let Parsed {
        mut rows,
        names,
        stage,
        player_col,
        score_col,
    } = parsed;
    let first = rows.first()?;
    let (stage_index, session, table, line) = (first.stage, first.session, first.table, first.line);
    // Seats: the first line of a seat names its player; later lines name
    // the same one (or the ordinary read reports it).
    let mut seat_names: [Option<((u32, u32), u32)>; 4] = [None; 4];
    for r in &rows {
        if seat_names[r.seat.index()].is_none() {
            seat_names[r.seat.index()] = Some((r.player, r.line));
        }
    }
    let filled = seat_names.iter().filter(|s| s.is_some()).count();
    if !(3..=4).contains(&filled) {
        return None;
    }
    // Games in the order first seen, each seat once; check 7: 1..=N.
    let expected = rules.games_for(stages.get(stage_index)?);
    debug_assert_eq!(stages.get(stage_index), Some(&stage));
    let mut order: Vec<u32> = Vec::with_capacity(expected as usize);
    for r in &rows {
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
    let mut played = [0u8; 4];
    let mut plain: Vec<PlainLine> = Vec::with_capacity(4);
    for &number in &order {
        plain.clear();
        for r in rows.iter().filter(|r| r.game == number) {
            if plain.iter().any(|l| l.seat == r.seat) {
                return None; // a seat given twice in a game
            }
            plain.push(PlainLine {
                seat: r.seat,
                player: PlayerId(r.seat.index() as u32),
                won: r.won,
                score: r.score,
                tiles: r.tiles,
            });
            played[r.seat.index()] = played[r.seat.index()].saturating_add(1);
        }
        if !(3..=4).contains(&plain.len()) || !game_is_clean(number, &plain, rules) {
            return None;
        }
    }
    // the lines by game number, each game's as read (a stable sort)
    rows.sort_by_key(|r| r.game);
    Some(Prepared {
        stage: stage_index,
        session,
        table,
        line,
        player_col,
        score_col,
        names,
        seat_names,
        played,
        rows,
    })
}

/// What the cards add up to, as they are accepted in the order read.
struct Sink<'a> {
    roster: &'a mut Roster,
    tallies: &'a mut Tallies,
    /// The cards themselves, when kept.
    cards: Option<&'a mut Vec<Card>>,
    /// Tallies' index of each stage index of [`StageNames`].
    stage_of: Vec<Option<usize>>,
    keys: Vec<u128>,
    sittings: Vec<u128>,
    accepted: usize,
    games: usize,
}

impl Sink<'_> {
    /// Names a prepared card's players (check 1: known, and distinct), in
    /// seat order as the ordinary read does, and adds the card up; its
    /// sittings and key go to `sittings` and `keys` for the checks across
    /// cards.
    fn accept(
        &mut self,
        p: Prepared,
        stages: &StageNames,
        source: &Source,
        rules: &Rules,
    ) -> Option<()> {
        let mut ids = [PlayerId(u32::MAX); 4];
        for seat in Seat::ALL {
            let Some(((a, b), _)) = p.seat_names[seat.index()] else {
                continue;
            };
            let player = self.roster.resolve(&p.names[a as usize..b as usize]).ok()?;
            if ids.contains(&player) {
                return None;
            }
            ids[seat.index()] = player;
        }
        // the file's stage index, as the event's (the tallies')
        let stage = stages.get(p.stage)?;
        let i = p.stage as usize;
        if self.stage_of.len() <= i {
            self.stage_of.resize(i + 1, None);
        }
        let s = *self.stage_of[i].get_or_insert_with(|| self.tallies.stage(stage));
        let at = ((s as u128) << 96) | (u128::from(p.session) << 64);
        self.keys.push(at | u128::from(p.table));
        let games = rules.games_for(stage) as usize;
        for seat in Seat::ALL {
            if p.seat_names[seat.index()].is_some() {
                let player = ids[seat.index()];
                self.sittings.push(at | u128::from(player.0));
                self.tallies
                    .seat(s, player, usize::from(p.played[seat.index()]), games);
            }
        }
        for r in &p.rows {
            self.tallies
                .result(s, ids[r.seat.index()], r.won, r.score, r.tiles);
        }
        self.accepted += 1;
        self.games += games;
        if let Some(cards) = self.cards.as_deref_mut() {
            cards.push(card(&p, &ids, stage, source));
        }
        Some(())
    }
}

/// The card a prepared card is, its players named.
fn card(p: &Prepared, ids: &[PlayerId; 4], stage: &Stage, source: &Source) -> Card {
    let seats = Seat::ALL
        .into_iter()
        .filter_map(|seat| {
            let (_, line) = p.seat_names[seat.index()]?;
            Some(SeatPlayer {
                seat,
                player: ids[seat.index()],
                place: source.at(line, Some(p.player_col)),
            })
        })
        .collect();
    let mut games: Vec<Game> = Vec::new();
    for r in &p.rows {
        if games.last().is_none_or(|g| g.number != r.game) {
            games.push(Game {
                number: r.game,
                results: Vec::with_capacity(4),
            });
        }
        if let Some(g) = games.last_mut() {
            g.results.push(SeatResult {
                seat: r.seat,
                player: ids[r.seat.index()],
                won: r.won,
                score: r.score,
                tiles: r.tiles,
                place: source.at(r.line, Some(p.score_col)),
            });
        }
    }
    Card {
        key: CardKey {
            stage: stage.clone(),
            session: Label::Num(p.session),
            table: Label::Num(p.table),
        },
        place: source.at(p.line, None),
        seats,
        games,
    }
}
