//! The streaming reader: results CSV files read, checked and added up one
//! card at a time, with no cell ever held as text.
//!
//! A large results file (a league's season, an online event) is almost
//! always well formed. This reader takes the common shape only: UTF-8
//! text without quotes, the results header first, numeric sessions and
//! tables, and each card's lines next to each other. A line becomes a small
//! typed row (numbers parsed once, the player a slice of the text); a card
//! is checked (RULES.md section 5, by the same checks as
//! [`crate::rules::card_checks::check_card`]) as soon as its last line is
//! read, and no place is built unless a check fails.
//!
//! Anything else (another layout, an odd spelling, a card whose lines are
//! apart, and any failed check) makes [`load`] answer `None`: the inputs
//! are then read the ordinary way ([`crate::ingest::read_cards`]), so that
//! every message and place comes from one code path. The answer, when there
//! is one, is the very event the ordinary way gives (tested).
//!
//! A file is cut into chunks of 512 KiB at card boundaries (where a line
//! names another card than the line before). A chunk is parsed and checked
//! card by card: each card becomes a small head (its seats' names and name
//! hashes, and what each seat did), its rows dropped once checked unless
//! the cards are kept. This thread then names the players (the roster),
//! adds each card up ([`Tallies`]) and runs the checks across cards, chunk
//! after chunk in file order. From 4 MiB on, another thread claims chunks
//! to parse, and this one parses a chunk itself whenever the next one to
//! accept is not ready: the answer is the one a single thread gives
//! (tested). What is held is the players' sums and a few chunks, not the
//! file; the checks across cards keep one packed number per card and per
//! seat.

use crate::domain::{Card, CardKey, Game, Label, PlayerId, Seat, SeatPlayer, SeatResult, Stage};
use crate::ingest::header::map_header;
use crate::ingest::limits::Limits;
use crate::ingest::{self, lines, text};
use crate::place::Source;
use crate::profile::{Rules, Scoring};
use crate::roster::{NameHasher, Roster};
use crate::rules::card_checks::{game_is_clean, parse_score, PlainLine, MAX_TILES};
use crate::rules::tally::{SeatSums, Tallies};
use crate::score::Score;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
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

/// As [`load`]; `threads` says whether to parse on two threads (by
/// default, for files of 4 MiB and more). The answer is the same.
pub fn load_with(
    inputs: &[PathBuf],
    rules: &Rules,
    roster: &mut Roster,
    keep_cards: bool,
    threads: Option<bool>,
) -> Option<Streamed> {
    load_chunked(inputs, rules, roster, keep_cards, threads, CHUNK)
}

/// As [`load_with`], with chunks of about `chunk` bytes (for tests: the
/// answer is the same whatever the chunks).
#[doc(hidden)]
pub fn load_chunked(
    inputs: &[PathBuf],
    rules: &Rules,
    roster: &mut Roster,
    keep_cards: bool,
    threads: Option<bool>,
    chunk: u64,
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
        let threads = threads.unwrap_or(large);
        ok = read_file(path, rules, &limits, &mut sink, threads, chunk.max(1));
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

/// A regular file named as text: a pipe or a device is read once, the
/// ordinary way (the streaming reader reads a file more than once).
fn is_text_file(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    matches!(ext.as_str(), "csv" | "tsv" | "txt")
}

fn has_duplicate(keys: &mut [u64]) -> bool {
    keys.sort_unstable();
    keys.windows(2).any(|w| w[0] == w[1])
}

/// Stage names met so far, each with a small index.
#[derive(Default)]
struct StageNames {
    names: Vec<Stage>,
}

impl StageNames {
    fn index(&mut self, stage: &Stage) -> Option<u16> {
        let i = match self.names.iter().position(|s| s == stage) {
            Some(i) => i,
            None => {
                self.names.push(stage.clone());
                self.names.len() - 1
            }
        };
        u16::try_from(i).ok()
    }
}

/// One line, parsed: the card it belongs to and the values. The player is
/// a range of the chunk's text of names.
#[derive(Clone, Copy)]
struct Row {
    /// The line's number within its chunk (from 1).
    line: u32,
    stage: u16,
    seat: Seat,
    won: bool,
    tiles: Option<u16>,
    session: u32,
    table: u32,
    game: u32,
    player: (u32, u32),
    score: Score,
}

/// Where the columns of a results header are (0-based).
#[derive(Clone, Copy)]
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

/// One card of a chunk, checked but for its players.
struct CardHead {
    stage: u16,
    session: u32,
    table: u32,
    /// The card's first line (within the chunk).
    line: u32,
    /// Each seat's player (a range of the chunk's names) and the line
    /// that names them.
    seats: [Option<((u32, u32), u32)>; 4],
    /// What each seat did.
    sums: [SeatSums; 4],
    /// Each seat's name hashed by the roster's [`NameHasher`].
    hashes: [u64; 4],
    /// The card's rows of the chunk, in game order.
    rows: (u32, u32),
}

/// A chunk of a file, parsed and checked card by card.
#[derive(Default)]
struct Chunk {
    /// Lines in the chunk.
    lines: u32,
    stages: StageNames,
    cards: Vec<CardHead>,
    rows: Vec<Row>,
    names: String,
    /// The columns (from 1) of the player and the score, for places.
    columns: (u32, u32),
}

impl Chunk {
    /// Empty, its room kept.
    fn clear(&mut self) {
        self.lines = 0;
        self.stages.names.clear();
        self.cards.clear();
        self.rows.clear();
        self.names.clear();
    }
}

/// Chunks parsed ahead of the one to accept, at most (per thread).
const AHEAD: usize = 3;

/// The size of a chunk before it is cut at the next card boundary.
const CHUNK: u64 = 512 << 10;

/// Files from this size on are parsed on two threads.
const THREADS_FROM: u64 = 4 << 20;

/// Non-blank lines the delimiter is judged on (as `sniff_delimiter` does).
const SNIFF_LINES: usize = 20;

/// What the start of a file says: its delimiter, its columns, and where
/// its lines after the header start (byte offset and line number).
struct Head {
    delimiter: u8,
    columns: Columns,
    body: u64,
    line: u32,
}

/// Reads the start of a file: the delimiter is judged on the first lines,
/// as the ordinary reader judges it (see `text::sniff_delimiter`); the
/// header is the first line that is not blank.
fn read_head(file: &mut std::fs::File, rules: &Rules, limits: &Limits) -> Option<Head> {
    let mut reader = BufReader::with_capacity(1 << 16, &mut *file);
    let mut head: Vec<u8> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut non_blank = 0;
    while non_blank < SNIFF_LINES {
        let start = head.len();
        if reader.read_until(b'\n', &mut head).ok()? == 0 {
            break;
        }
        if head.len() as u64 > limits.line_bytes * SNIFF_LINES as u64 {
            return None;
        }
        ends.push(head.len());
        let line = std::str::from_utf8(&head[start..]).ok()?;
        if !line.trim().is_empty() {
            non_blank += 1;
        }
    }
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    let delimiter = text::sniff_delimiter(std::str::from_utf8(text).ok()?);
    let mut state = ChunkState::new(delimiter, None, rules, limits, true);
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        state.line(i as u32 + 1, std::str::from_utf8(&head[start..end]).ok()?)?;
        if let Some(columns) = state.columns {
            return Some(Head {
                delimiter,
                columns,
                body: end as u64,
                line: i as u32 + 1,
            });
        }
        start = end;
    }
    None
}

/// Reads `len` bytes of a file from `at` (fewer at its end).
fn read_at(file: &mut std::fs::File, at: u64, len: u64, buf: &mut Vec<u8>) -> Option<()> {
    buf.clear();
    file.seek(SeekFrom::Start(at)).ok()?;
    file.take(len).read_to_end(buf).ok()?;
    Some(())
}

/// Where the chunks of a file start: the body's start, then the first
/// card boundary after each multiple of `chunk` bytes, then the file's
/// end. A card boundary is the start of a line that names another card
/// (stage, session, table) than the line before it that is not blank.
fn chunk_starts(
    file: &mut std::fs::File,
    head: &Head,
    len: u64,
    chunk: u64,
    rules: &Rules,
    limits: &Limits,
) -> Option<Vec<u64>> {
    let mut starts = vec![head.body];
    let mut nominal = head.body + chunk;
    let mut buf = Vec::new();
    while nominal < len {
        let at = boundary(file, head, nominal, len, rules, limits, &mut buf)?;
        if at >= len {
            break;
        }
        if at > *starts.last()? {
            starts.push(at);
        }
        nominal = nominal.max(at) + chunk;
    }
    starts.push(len);
    Some(starts)
}

/// A card boundary after `nominal`: the start of the first line, after
/// the first line break at or after `nominal - 1`, whose card differs from
/// the card of the line before it that is not blank; the file's length
/// when there is none.
fn boundary(
    file: &mut std::fs::File,
    head: &Head,
    nominal: u64,
    len: u64,
    rules: &Rules,
    limits: &Limits,
    buf: &mut Vec<u8>,
) -> Option<u64> {
    const WINDOW: u64 = 4 * 1024;
    let mut key_of = ChunkState::new(head.delimiter, Some(head.columns), rules, limits, false);
    let mut at = nominal - 1;
    read_at(file, at, WINDOW, buf)?;
    let at_end = |at: u64, buf: &Vec<u8>| at + buf.len() as u64 >= len;
    let mut offset = match buf.iter().position(|&b| b == b'\n') {
        Some(i) => i + 1,
        None if at_end(at, buf) => return Some(len),
        None => return None, // a line longer than the window
    };
    let mut previous: Option<(u16, u32, u32)> = None;
    loop {
        if offset >= buf.len() && at_end(at, buf) {
            return Some(len);
        }
        let line_len = match buf[offset..].iter().position(|&b| b == b'\n') {
            Some(i) => i + 1,
            None if at_end(at, buf) => buf.len() - offset,
            None if offset == 0 => return None, // a line longer than the window
            None => {
                at += offset as u64;
                read_at(file, at, WINDOW, buf)?;
                offset = 0;
                continue;
            }
        };
        let start = at + offset as u64;
        let key = key_of.card_key(&buf[offset..offset + line_len])?;
        offset += line_len;
        let Some(key) = key else { continue }; // a blank line
        if previous.is_some_and(|p| p != key) {
            return Some(start);
        }
        previous = Some(key);
    }
}

/// Reads one file; `None` when it is not the common case. With `threads`,
/// two threads parse and check its chunks while this one names their
/// players and adds their cards up, chunk after chunk in file order: the
/// same cards, players and answer as one thread.
fn read_file(
    path: &Path,
    rules: &Rules,
    limits: &Limits,
    sink: &mut Sink,
    threads: bool,
    chunk: u64,
) -> Option<()> {
    let source = Source::file(&ingest::shown(path));
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let head = read_head(&mut file, rules, limits)?;
    let starts = chunk_starts(&mut file, &head, len, chunk, rules, limits)?;
    let ranges: Vec<(u64, u64)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
    // A chunk runs to the next card boundary: one far longer than asked is
    // a "card" of many megabytes, which no card is (and is not read whole).
    if ranges
        .iter()
        .any(|(a, b)| b.checked_sub(*a).is_none_or(|n| n > 16 * chunk.max(CHUNK)))
    {
        return None;
    }
    let reading = Reading {
        head: &head,
        rules,
        limits,
        hasher: sink.roster.hasher(),
        keep_rows: sink.cards.is_some(),
    };
    // each file numbers its own stages
    let mut base = head.line;
    let mut found = false;
    let mut accept = |chunk: &Chunk, sink: &mut Sink| -> Option<()> {
        found |= !chunk.cards.is_empty();
        sink.stage_of.clear();
        sink.accept_chunk(chunk, base, &source, rules)?;
        base = base.checked_add(chunk.lines)?;
        Some(())
    };
    if !threads || ranges.len() < 2 {
        let (mut buf, mut chunk) = (Vec::new(), Chunk::default());
        for &range in &ranges {
            chunk = parse_chunk(&mut file, &reading, range, &mut buf, chunk)?;
            accept(&chunk, sink)?;
        }
    } else {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
        // Chunks are claimed in file order by the other thread and by this
        // one, which parses a chunk itself whenever the next one to accept
        // is not ready: both processors stay busy, and this thread is never
        // one of three sharing two.
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        // chunks accepted go back to be filled again: no memory is asked of
        // the system per chunk
        let pool: std::sync::Mutex<Vec<Chunk>> = std::sync::Mutex::new(Vec::new());
        let recycled = || {
            pool.lock()
                .ok()
                .and_then(|mut p| p.pop())
                .unwrap_or_default()
        };
        let ok = std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Option<Chunk>)>(AHEAD);
            let (next, stop, ranges, reading, recycled) =
                (&next, &stop, &ranges, &reading, &recycled);
            let worker = scope.spawn(move || {
                let mut file = std::fs::File::open(path).ok()?;
                let mut buf = Vec::new();
                while !stop.load(Relaxed) {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(&range) = ranges.get(i) else { break };
                    let chunk = parse_chunk(&mut file, reading, range, &mut buf, recycled());
                    // a closed channel: this thread stopped listening
                    tx.send((i, chunk)).ok()?;
                }
                Some(())
            });
            let mut own_file = std::fs::File::open(path).ok()?;
            let mut buf = Vec::new();
            let mut pending: Vec<(usize, Option<Chunk>)> = Vec::new();
            let mut ok = Some(());
            for want in 0..ranges.len() {
                let chunk = loop {
                    if let Some(at) = pending.iter().position(|(i, _)| *i == want) {
                        break pending.swap_remove(at).1;
                    }
                    if let Ok(got) = rx.try_recv() {
                        pending.push(got);
                        continue;
                    }
                    if pending.len() < AHEAD {
                        let i = next.fetch_add(1, Relaxed);
                        if let Some(&range) = ranges.get(i) {
                            let parsed =
                                parse_chunk(&mut own_file, reading, range, &mut buf, recycled());
                            pending.push((i, parsed));
                            continue;
                        }
                    }
                    match rx.recv() {
                        Ok(got) => pending.push(got),
                        Err(_) => break None, // the other thread ended early
                    }
                };
                ok = chunk.and_then(|c| {
                    accept(&c, sink)?;
                    if let Ok(mut p) = pool.lock() {
                        p.push(c);
                    }
                    Some(())
                });
                if ok.is_none() {
                    break;
                }
            }
            stop.store(true, Relaxed);
            drop(rx); // the other thread stops at its next chunk
            let _ = worker.join();
            ok
        });
        ok?;
    }
    // a file with no card: the ordinary read says what it lacks
    found.then_some(())
}

/// What every chunk of a file is read with.
struct Reading<'a> {
    head: &'a Head,
    rules: &'a Rules,
    limits: &'a Limits,
    hasher: NameHasher,
    /// Keep each card's rows after its checks (to make the cards).
    keep_rows: bool,
}

/// Parses and checks the lines of bytes `a..b` of a file (whole cards),
/// into `into` (emptied first).
fn parse_chunk(
    file: &mut std::fs::File,
    reading: &Reading,
    (a, b): (u64, u64),
    buf: &mut Vec<u8>,
    into: Chunk,
) -> Option<Chunk> {
    let Reading {
        head,
        rules,
        limits,
        ..
    } = *reading;
    let len = b.checked_sub(a)?;
    read_at(file, a, len, buf)?;
    if (buf.len() as u64) != len {
        return None; // the file changed while read
    }
    let mut state = ChunkState::new(head.delimiter, Some(head.columns), rules, limits, false);
    state.hasher = Some(reading.hasher.clone());
    state.keep_rows = reading.keep_rows;
    state.chunk = into;
    state.chunk.clear();
    // UTF-8 checked once for the chunk (a file that is not is read the
    // ordinary way, which says where)
    let text = std::str::from_utf8(buf).ok()?;
    let mut number = 0u32;
    for raw in text.split_inclusive('\n') {
        number = number.checked_add(1)?;
        state.line(number, raw)?;
    }
    state.finish_card()?;
    state.chunk.lines = number;
    state.chunk.columns = (
        u32::try_from(head.columns.player + 1).ok()?,
        u32::try_from(head.columns.score + 1).ok()?,
    );
    Some(state.chunk)
}

/// One chunk being parsed.
struct ChunkState<'r> {
    delimiter: u8,
    rules: &'r Rules,
    limits: &'r Limits,
    columns: Option<Columns>,
    /// Whether line 1 is the file's first (a byte order mark is dropped).
    first: bool,
    /// The last stage cell's text, and its index.
    stage_text: Option<(String, u16)>,
    /// Where the card being read starts in `chunk.rows`, the card it is,
    /// and the name each of its seats has.
    card_start: usize,
    card_key: Option<(u16, u32, u32)>,
    card_lines: usize,
    seat_names: [Option<(u32, u32)>; 4],
    fields: Vec<(usize, usize)>,
    chunk: Chunk,
    /// The roster's hasher, for the names (none for the head of a file).
    hasher: Option<NameHasher>,
    /// Keep each card's rows once checked (else they are dropped, and a
    /// card's head says what it did).
    keep_rows: bool,
    scratch: String,
}

impl<'r> ChunkState<'r> {
    fn new(
        delimiter: u8,
        columns: Option<Columns>,
        rules: &'r Rules,
        limits: &'r Limits,
        first: bool,
    ) -> ChunkState<'r> {
        ChunkState {
            delimiter,
            rules,
            limits,
            columns,
            first,
            stage_text: None,
            card_start: 0,
            card_key: None,
            card_lines: 0,
            seat_names: [None; 4],
            fields: Vec::with_capacity(16),
            chunk: Chunk::default(),
            hasher: None,
            keep_rows: true,
            scratch: String::new(),
        }
    }

    /// Splits a line (with its line break, if any) into trimmed fields;
    /// `None` when it is not the common case; `Some(None)` for a blank
    /// line.
    fn split<'a>(&mut self, number: u32, raw: &'a [u8]) -> Option<Option<&'a str>> {
        let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        // quotes, and a carriage return that is not part of a line break,
        // are left to the CSV reader
        if raw.len() as u64 > self.limits.line_bytes || raw.contains(&b'"') {
            return None;
        }
        let raw = if number == 1 && self.first {
            raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw)
        } else {
            raw
        };
        let body = raw.strip_suffix(b"\r").unwrap_or(raw);
        if body.contains(&b'\r') {
            return None;
        }
        self.fields.clear();
        let text = if body.is_ascii() {
            // the common case, byte by byte: ASCII is UTF-8, and its
            // spaces are the ones `trim` takes
            let mut start = 0;
            for f in body.split(|&b| b == self.delimiter) {
                if f.len() as u64 > self.limits.field_bytes {
                    return None;
                }
                // the ASCII characters `char::is_whitespace` takes
                let space = |b: &&u8| b.is_ascii_whitespace() || **b == 0x0b;
                let lead = f.iter().take_while(space).count();
                let trail = f[lead..].iter().rev().take_while(space).count();
                self.fields.push((start + lead, start + f.len() - trail));
                start += f.len() + 1;
            }
            std::str::from_utf8(body).ok()?
        } else {
            let text = std::str::from_utf8(body).ok()?;
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
            text
        };
        if self.fields.len() as u64 > text::MAX_FIELDS {
            return None;
        }
        let Some(last) = self.fields.iter().rposition(|&(a, b)| a < b) else {
            return Some(None); // a blank line
        };
        self.fields.truncate(last + 1);
        Some(Some(text))
    }

    fn field<'a>(&self, text: &'a str, i: usize) -> &'a str {
        self.fields.get(i).map_or("", |&(a, b)| &text[a..b])
    }

    /// The stage index of a stage cell.
    fn stage(&mut self, cell: &str) -> Option<u16> {
        match &self.stage_text {
            // (most files have no stage column: the cell is empty)
            Some((t, idx)) if t.len() == cell.len() && (cell.is_empty() || t == cell) => Some(*idx),
            _ => {
                let idx = self.chunk.stages.index(&Stage::new(cell))?;
                self.stage_text = Some((cell.to_string(), idx));
                Some(idx)
            }
        }
    }

    /// The card a line names (stage, session, table); `Some(None)` for a
    /// blank line; `None` when it is not the common case.
    fn card_key(&mut self, raw: &[u8]) -> Option<Option<(u16, u32, u32)>> {
        let Some(text) = self.split(2, raw)? else {
            return Some(None);
        };
        let cols = self.columns?;
        let stage = self.stage(cols.stage.map_or("", |c| self.field(text, c)))?;
        let session = number_label(Label::session(self.field(text, cols.session))?)?;
        let table = number_label(Label::table(self.field(text, cols.table))?)?;
        Some(Some((stage, session, table)))
    }

    /// One line of the chunk (with its line break, if any).
    fn line(&mut self, number: u32, raw: &str) -> Option<()> {
        if let Some(read) = self.plain_line(number, raw) {
            return read;
        }
        let Some(text) = self.split(number, raw.as_bytes())? else {
            return Some(()); // a blank line
        };
        let Some(cols) = self.columns else {
            let cells: Vec<&str> = (0..self.fields.len())
                .map(|i| self.field(text, i))
                .collect();
            self.columns = Some(header(&cells)?);
            return Some(());
        };
        let get = |i: usize| self.field(text, i);
        let stage_cell = cols.stage.map_or("", get);
        let player = get(cols.player);
        let session = get(cols.session);
        let table = get(cols.table);
        let (game, seat_cell, won_cell, score_cell, tiles_cell) = (
            get(cols.game),
            get(cols.seat),
            get(cols.won),
            get(cols.score),
            get(cols.tiles),
        );
        if player.is_empty() || player.chars().count() as u64 > self.limits.name_chars {
            return None;
        }
        let row = Row {
            line: number,
            stage: self.stage(stage_cell)?,
            session: number_label(Label::session(session)?)?,
            table: number_label(Label::table(table)?)?,
            game: game_number(game)?,
            seat: seat(seat_cell)?,
            player: (0, 0),
            won: won(won_cell)?,
            score: score(score_cell, self.rules)?,
            tiles: tiles(tiles_cell)?,
        };
        self.push(row, player)
    }

    /// The plainest lines, byte by byte: ASCII without a space, a quote
    /// or a control character, every value in its plainest spelling
    /// (digits; `S` and digits for a session, `T` and digits for a table).
    /// `None` for any other line, which [`ChunkState::line`] reads the
    /// general way (to the same row).
    fn plain_line(&mut self, number: u32, line: &str) -> Option<Option<()>> {
        let raw = line.as_bytes();
        let cols = self.columns?;
        if number == 1 && self.first {
            return None;
        }
        let body = raw.strip_suffix(b"\n").unwrap_or(raw);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let limit = self.limits.line_bytes.min(self.limits.field_bytes);
        if body.is_empty() || body.len() as u64 > limit.min(u64::from(u16::MAX)) {
            return None;
        }
        // where each field starts and ends
        let mut bounds = [(0u16, 0u16); 16];
        let mut n = 0;
        for (i, &b) in body.iter().enumerate() {
            if b == self.delimiter {
                bounds[n].1 = i as u16;
                n += 1;
                if n == bounds.len() {
                    return None;
                }
                bounds[n].0 = i as u16 + 1;
            } else if b.wrapping_sub(b'!') > b'~' - b'!' || b == b'"' {
                return None; // a space, a control character, a quote, not ASCII
            }
        }
        bounds[n].1 = body.len() as u16;
        let field = |i: usize| -> &[u8] {
            match bounds.get(i) {
                Some(&(a, b)) if i <= n => &body[usize::from(a)..usize::from(b)],
                _ => b"",
            }
        };
        let player = field(cols.player);
        if player.is_empty() || player.len() as u64 > self.limits.name_chars {
            return None;
        }
        let stage = match cols.stage {
            None => self.stage("")?,
            Some(c) => {
                let cell = std::str::from_utf8(field(c)).ok()?;
                self.stage(cell)?
            }
        };
        let row = Row {
            line: number,
            stage,
            session: plain_label(field(cols.session), b's')?,
            table: plain_label(field(cols.table), b't')?,
            game: plain_number(field(cols.game)).filter(|&g| g >= 1)?,
            seat: match field(cols.seat) {
                [b'A' | b'a' | b'1'] => Seat::A,
                [b'B' | b'b' | b'2'] => Seat::B,
                [b'C' | b'c' | b'3'] => Seat::C,
                [b'D' | b'd' | b'4'] => Seat::D,
                _ => return None,
            },
            player: (0, 0),
            won: match field(cols.won) {
                b"1" => true,
                b"0" => false,
                _ => return None,
            },
            score: {
                let f = field(cols.score);
                let (negative, digits) = match f {
                    [b'-', rest @ ..] => (true, rest),
                    [b'+', rest @ ..] => (false, rest),
                    _ => (false, f),
                };
                let n = i64::from(plain_number(digits)?);
                match (self.rules.scoring, negative) {
                    (_, false) => Score::whole(n),
                    (Scoring::ZeroSum, true) => Score::whole(-n),
                    (Scoring::PenaltyPoints, true) => return None,
                }
            },
            tiles: match field(cols.tiles) {
                [] => None,
                f => Some(
                    u16::try_from(plain_number(f)?)
                        .ok()
                        .filter(|&t| t <= MAX_TILES)?,
                ),
            },
        };
        // (a plain line is ASCII: any range of it is text)
        let (a, b) = bounds[cols.player];
        let player = line.get(usize::from(a)..usize::from(b))?;
        Some(self.push(row, player))
    }

    /// Adds a line's row to the card being read (checking the card before
    /// when this line starts another); its player's name is kept once.
    fn push(&mut self, mut row: Row, player: &str) -> Option<()> {
        let key = (row.stage, row.session, row.table);
        if self.card_key != Some(key) {
            self.finish_card()?;
            self.card_key = Some(key);
            // a card has a line per seat and game: more lines than four
            // seats can have is no card (the ordinary read says what is
            // wrong), and is not held
            let stage = self.chunk.stages.names.get(usize::from(row.stage))?;
            self.card_lines = 4 * self.rules.games_for(stage) as usize;
        }
        if self.chunk.rows.len() - self.card_start >= self.card_lines {
            return None;
        }
        // a seat's later lines name the same player: only the first is kept
        row.player = match self.seat_names[row.seat.index()] {
            Some((a, b))
                if self.chunk.names.as_bytes()[a as usize..b as usize] == *player.as_bytes() =>
            {
                (a, b)
            }
            Some(_) => return None, // the ordinary read says which
            None => {
                let start = u32::try_from(self.chunk.names.len()).ok()?;
                self.chunk.names.push_str(player);
                let range = (start, u32::try_from(self.chunk.names.len()).ok()?);
                self.seat_names[row.seat.index()] = Some(range);
                range
            }
        };
        self.chunk.rows.push(row);
        Some(())
    }

    /// Checks the card read so far and starts the next.
    fn finish_card(&mut self) -> Option<()> {
        let start = self.card_start;
        if start == self.chunk.rows.len() {
            return Some(()); // no card yet
        }
        let mut head = prepare(
            &mut self.chunk.rows[start..],
            start,
            self.rules,
            &self.chunk.stages,
        )?;
        // the players' names hashed here, not on the thread that names them
        if let Some(hasher) = &self.hasher {
            for (seat, hash) in head.seats.iter().zip(head.hashes.iter_mut()) {
                if let Some(((a, b), _)) = seat {
                    let name = &self.chunk.names[*a as usize..*b as usize];
                    *hash = hasher.hash(name, &mut self.scratch);
                }
            }
        }
        if !self.keep_rows {
            self.chunk.rows.truncate(start);
            head.rows = (head.rows.0, head.rows.0);
        }
        self.chunk.cards.push(head);
        self.card_start = self.chunk.rows.len();
        self.seat_names = [None; 4];
        Some(())
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

/// Digits, 1 to 9 of them.
fn plain_number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

/// A session or table number in its plainest spellings: digits, or the
/// label's letter (`letter`, either case) and digits (as [`Label::parse`]
/// reads them).
fn plain_label(text: &[u8], letter: u8) -> Option<u32> {
    match text {
        [first, rest @ ..] if first.to_ascii_lowercase() == letter => plain_number(rest),
        _ => plain_number(text),
    }
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
    match t.as_bytes() {
        b"1" => return Some(true),
        b"0" => return Some(false),
        _ => {}
    }
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
    if t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit()) {
        let n = t.bytes().fold(0u32, |n, b| n * 10 + u32::from(b - b'0'));
        return (n <= u32::from(MAX_TILES)).then_some(Some(n as u16));
    }
    let n: u32 = t.trim_end_matches(".0").parse().ok()?;
    (n <= u32::from(MAX_TILES)).then_some(Some(n as u16))
}

/// Checks one card's lines but for its players (RULES.md section 5,
/// checks 1 to 7 but for what needs the roster or the other cards), and
/// puts its rows in game order; `None` when any check fails. `start` is
/// where the rows are in their chunk.
fn prepare(rows: &mut [Row], start: usize, rules: &Rules, stages: &StageNames) -> Option<CardHead> {
    let first = *rows.first()?;
    // Seats: the first line of a seat names its player; later lines name
    // the same one (or the ordinary read reports it).
    let mut seats: [Option<((u32, u32), u32)>; 4] = [None; 4];
    for r in rows.iter() {
        if seats[r.seat.index()].is_none() {
            seats[r.seat.index()] = Some((r.player, r.line));
        }
    }
    let filled = seats.iter().filter(|s| s.is_some()).count();
    if !(3..=4).contains(&filled) {
        return None;
    }
    // Games in the order first seen, each seat once; check 7: 1..=N.
    let expected = rules.games_for(stages.names.get(usize::from(first.stage))?);
    // (a card has some games, each number once: a short list)
    let mut order: Vec<u32> = Vec::new();
    for r in rows.iter() {
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
    let mut sums = [SeatSums::default(); 4];
    let mut plain = [PlainLine {
        seat: Seat::A,
        player: PlayerId(0),
        won: false,
        score: Score::ZERO,
        tiles: None,
    }; 4];
    for &number in &order {
        let mut seated = 0;
        for r in rows.iter().filter(|r| r.game == number) {
            if seated == 4 || plain[..seated].iter().any(|l| l.seat == r.seat) {
                return None; // a seat given twice in a game
            }
            plain[seated] = PlainLine {
                seat: r.seat,
                player: PlayerId(r.seat.index() as u32),
                won: r.won,
                score: r.score,
                tiles: r.tiles,
            };
            seated += 1;
            sums[r.seat.index()].add(r.won, r.score, r.tiles);
        }
        if !(3..=4).contains(&seated) || !game_is_clean(number, &plain[..seated], rules) {
            return None;
        }
    }
    // the lines by game number, each game's as read (a stable sort)
    if rows.windows(2).any(|w| w[0].game > w[1].game) {
        rows.sort_by_key(|r| r.game);
    }
    Some(CardHead {
        stage: first.stage,
        session: first.session,
        table: first.table,
        line: first.line,
        seats,
        sums,
        hashes: [0; 4],
        rows: (
            u32::try_from(start).ok()?,
            u32::try_from(start + rows.len()).ok()?,
        ),
    })
}

/// What the cards add up to, as they are accepted in the order read.
struct Sink<'a> {
    roster: &'a mut Roster,
    tallies: &'a mut Tallies,
    /// The cards themselves, when kept.
    cards: Option<&'a mut Vec<Card>>,
    /// The tallies' index of each stage index of the chunk.
    stage_of: Vec<Option<usize>>,
    /// Each card's stage, session and table, packed.
    keys: Vec<u64>,
    /// Each seat's stage, session and player, packed.
    sittings: Vec<u64>,
    accepted: usize,
    games: usize,
}

impl Sink<'_> {
    /// Accepts a chunk's cards, in order; its lines are numbered from
    /// `base + 1` in the file.
    fn accept_chunk(
        &mut self,
        chunk: &Chunk,
        base: u32,
        source: &Source,
        rules: &Rules,
    ) -> Option<()> {
        for head in &chunk.cards {
            self.accept(head, chunk, base, source, rules)?;
        }
        Some(())
    }

    /// Names a card's players (check 1: known, and distinct), in seat
    /// order as the ordinary read does, and adds the card up; its sittings
    /// and key go to `sittings` and `keys` for the checks across cards.
    fn accept(
        &mut self,
        head: &CardHead,
        chunk: &Chunk,
        base: u32,
        source: &Source,
        rules: &Rules,
    ) -> Option<()> {
        let mut ids = [PlayerId(u32::MAX); 4];
        for seat in Seat::ALL {
            let Some(((a, b), _)) = head.seats[seat.index()] else {
                continue;
            };
            let name = &chunk.names[a as usize..b as usize];
            let player = self
                .roster
                .resolve_hashed(name, head.hashes[seat.index()])
                .ok()?;
            if ids.contains(&player) {
                return None;
            }
            ids[seat.index()] = player;
        }
        // the chunk's stage index, as the event's (the tallies')
        let stage = chunk.stages.names.get(usize::from(head.stage))?;
        let i = usize::from(head.stage);
        if self.stage_of.len() <= i {
            self.stage_of.resize(i + 1, None);
        }
        let s = *self.stage_of[i].get_or_insert_with(|| self.tallies.stage(stage));
        // packed: 8 bits of stage, 24 of session, 32 of table or player
        if s >= 1 << 8 || head.session >= 1 << 24 {
            return None;
        }
        let at = ((s as u64) << 56) | (u64::from(head.session) << 32);
        self.keys.push(at | u64::from(head.table));
        let games = rules.games_for(stage) as usize;
        for seat in Seat::ALL {
            if head.seats[seat.index()].is_some() {
                let player = ids[seat.index()];
                self.sittings.push(at | u64::from(player.0));
                self.tallies
                    .add_seat(s, player, games, &head.sums[seat.index()]);
            }
        }
        let rows = &chunk.rows[head.rows.0 as usize..head.rows.1 as usize];
        self.accepted += 1;
        self.games += games;
        if let Some(cards) = self.cards.as_deref_mut() {
            cards.push(card(head, rows, &ids, stage, base, source, chunk.columns));
        }
        Some(())
    }
}

/// The card a checked card is, its players named.
fn card(
    head: &CardHead,
    rows: &[Row],
    ids: &[PlayerId; 4],
    stage: &Stage,
    base: u32,
    source: &Source,
    (player_col, score_col): (u32, u32),
) -> Card {
    let line = |l: u32| base.saturating_add(l);
    let seats = Seat::ALL
        .into_iter()
        .filter_map(|seat| {
            let (_, l) = head.seats[seat.index()]?;
            Some(SeatPlayer {
                seat,
                player: ids[seat.index()],
                place: source.at(line(l), Some(player_col)),
            })
        })
        .collect();
    let mut games: Vec<Game> = Vec::new();
    for r in rows {
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
                place: source.at(line(r.line), Some(score_col)),
            });
        }
    }
    Card {
        key: CardKey {
            stage: stage.clone(),
            session: Label::Num(head.session),
            table: Label::Num(head.table),
        },
        place: source.at(line(head.line), None),
        seats,
        games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_stops_being_read_at_its_first_line_too_many() {
        let (rules, limits) = (Rules::hk(), Limits::default());
        let mut state = ChunkState::new(b',', None, &rules, &limits, true);
        state.line(1, "session,table,game,seat,player,won,score,tiles\n");
        assert!(state.columns.is_some(), "the header is read");
        // hk: three games of at most four seats, twelve lines a card
        for n in 2..=13 {
            assert_eq!(state.line(n, "S01,1,1,A,P1,1,+0,0\n"), Some(()), "line {n}");
        }
        assert_eq!(state.chunk.rows.len(), 12);
        assert_eq!(state.line(14, "S01,1,1,A,P1,1,+0,0\n"), None);
        assert_eq!(state.chunk.rows.len(), 12, "the line too many is not held");
    }
}
