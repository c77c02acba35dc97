//! The streaming reader: results CSV files read on two threads, a chunk
//! at a time, for the largest inputs (a league's season, an online event
//! of a million players).
//!
//! It is a reader and nothing else. It cuts a file into chunks of about
//! 128 KiB at card boundaries, splits each line into fields (faster than
//! the CSV reader, for the lines it takes: no quotes, UTF-8), and gives
//! each line to the very code that reads a results sheet
//! ([`crate::ingest::results`]: [`lines::head`], [`Grouper`]). The cards
//! it gives are checked by the one check ([`check_values`]) on the
//! reading threads, and named and added up by the one [`Intake`] on this
//! one, in file order (or, for an import, named and stored as they come,
//! [`Take`]). Every message and place is the one the ordinary way gives.
//!
//! It takes the common shape only: a regular file named `.csv`, `.tsv` or
//! `.txt` (or standard input or a pipe, its bytes read once and held:
//! see [`ingest::once`]), UTF-8 with no quotes, the results header
//! first, and each card's lines in one run. At anything else [`read`] gives up (`None`) and the
//! files are read the ordinary way ([`crate::ingest::read_cards`]): a
//! quoted field, a legacy encoding, a card whose lines are apart (the
//! ordinary reader puts them together). What is held is the players' sums
//! and a few chunks, not the file.
//!
//! Two threads claim chunks in file order: another one, and this one
//! whenever the next chunk to accept is not ready, so that both processors
//! are busy (with three threads on two processors it was slower). The
//! answer is the one a single thread gives (tested).

use crate::domain::{CardKey, Label, Stage};
use crate::ingest::cell::{Cell, Row};
use crate::ingest::hashes::Hashing;
use crate::ingest::header::{map_header, warn_unknown, ColumnMap};
use crate::ingest::limits::Limits;
use crate::ingest::lines::{self, Grouper, StageCache};
use crate::ingest::raw::RawLine;
use crate::ingest::split::Splitter;
use crate::ingest::{self, results, text};
use crate::intake::Intake;
use crate::place::Source;
use crate::problem::Problems;
use crate::profile::Rules;
use crate::roster::NameHasher;
use crate::rules::card_checks::{check_values, Checked};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Whether every input is one the streaming reader may take: a regular
/// file named as CSV text, or a source that gives its bytes once (standard
/// input, a pipe) while they can be given again (see
/// [`ingest::once`]: this reader may give up, and leave them to the
/// ordinary one).
pub fn can_read(inputs: &[PathBuf]) -> bool {
    match ingest::expand(inputs) {
        Ok(files) => !files.is_empty() && files.iter().all(|f| Bytes::can_take(f)),
        Err(_) => false,
    }
}

/// Where the bytes of an input are read from: a regular file, opened by
/// each thread that reads it, or the bytes of a source that gives them
/// once, read whole and held ([`ingest::held_bytes`]).
#[derive(Clone, Copy)]
enum Bytes<'a> {
    File(&'a Path),
    Held(&'a [u8]),
}

impl<'a> Bytes<'a> {
    /// Whether `path` is a regular file named as CSV text, or a source
    /// that gives its bytes once, to be held.
    fn can_take(path: &Path) -> bool {
        ingest::is_text_file(path) || (ingest::once::is_held() && ingest::once::gives_once(path))
    }

    /// `path`, read where it lies, or the bytes held for it.
    fn of(path: &'a Path, held: Option<&'a [u8]>) -> Bytes<'a> {
        match held {
            Some(bytes) => Bytes::Held(bytes),
            None => Bytes::File(path),
        }
    }

    fn len(self) -> Option<u64> {
        match self {
            Bytes::File(path) => Some(std::fs::metadata(path).ok()?.len()),
            Bytes::Held(bytes) => Some(bytes.len() as u64),
        }
    }

    fn open(self) -> Option<Reader<'a>> {
        Some(match self {
            Bytes::File(path) => Reader::File(std::fs::File::open(path).ok()?),
            Bytes::Held(bytes) => Reader::Held(std::io::Cursor::new(bytes)),
        })
    }
}

/// What `path` is read from, when it [can be taken](Bytes::can_take): no
/// bytes for a regular file (read where it lies), the bytes of standard
/// input or a pipe (read whole now, and held); `None` when they could not
/// be read (the ordinary reader says why).
fn hold(path: &Path) -> Option<Option<ingest::once::Bytes>> {
    match ingest::is_text_file(path) {
        true => Some(None),
        false => ingest::held_bytes(path).map(Some),
    }
}

/// [`Bytes`] opened, for one thread.
enum Reader<'a> {
    File(std::fs::File),
    Held(std::io::Cursor<&'a [u8]>),
}

impl Read for Reader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Reader::File(f) => f.read(buf),
            Reader::Held(c) => c.read(buf),
        }
    }
}

/// What takes the cards the streaming reader reads, in file order: an
/// [`Intake`], or an import that stores them as they come.
pub trait Take {
    fn rules(&self) -> &Rules;
    /// Whether the cards' games are kept (else only their sums).
    fn keeps_cards(&self) -> bool;
    /// How the roster hashes names (see [`crate::roster::Roster::hasher`]).
    fn hasher(&self) -> NameHasher;
    fn problems(&mut self) -> &mut Problems;
    /// A CSV file is read.
    fn file_read(&mut self) {}
    /// The names of hashes `hashes` are to be looked up soon (see
    /// [`crate::roster::Roster::warm`]).
    fn warm(&self, hashes: &[u64; 4]) {
        let _ = hashes;
    }
    /// A card of `source`, its values checked and its names hashed.
    fn add_checked(&mut self, source: &Source, card: &Checked, hashes: Option<&[u64; 4]>);
}

impl Take for Intake {
    fn rules(&self) -> &Rules {
        Intake::rules(self)
    }
    fn keeps_cards(&self) -> bool {
        Intake::keeps_cards(self)
    }
    fn hasher(&self) -> NameHasher {
        self.roster().hasher()
    }
    fn problems(&mut self) -> &mut Problems {
        &mut self.problems
    }
    fn file_read(&mut self) {
        // (a CSV file: no sheets to count)
        self.counts.files += 1;
    }
    fn warm(&self, hashes: &[u64; 4]) {
        for &h in hashes {
            self.roster().warm(h);
        }
    }
    fn add_checked(&mut self, source: &Source, card: &Checked, hashes: Option<&[u64; 4]>) {
        Intake::add_checked(self, source, card, hashes)
    }
}

/// Reads one file into `take` (an import's, a file at a time); `None` when
/// it is not the common shape (see the module text): what `take` took is
/// then to be dropped, and the file read the ordinary way.
/// Standard input or a pipe is read from the bytes held for it (while a
/// [`ingest::once::Replay`] is held, as for [`read`]).
pub fn read_one(path: &Path, take: &mut impl Take) -> Option<()> {
    let limits = Limits::from_env().ok()?;
    if !Bytes::can_take(path) {
        return None;
    }
    let held = hold(path)?;
    let bytes = Bytes::of(path, held.as_ref().map(|b| b.as_slice()));
    let large = bytes.len().is_some_and(|n| n >= THREADS_FROM);
    let mut seen = Keys::default();
    read_file(path, bytes, &limits, take, &mut seen, large, CHUNK)?;
    if seen.has_duplicate() {
        return None;
    }
    ingest::note_read(path);
    Some(())
}

/// Reads every input into `intake`; `None` when any input is not the
/// common shape (see the module text): the intake is then half-filled, to
/// be dropped, and the inputs read the ordinary way.
pub fn read(inputs: &[PathBuf], intake: &mut Intake) -> Option<()> {
    read_with(inputs, intake, None, CHUNK)
}

/// As [`read`]; `threads` says whether to parse on two threads (by
/// default, for files of 4 MiB and more), `chunk` about how many bytes a
/// chunk has. The answer is the same (tested).
#[doc(hidden)]
pub fn read_with(
    inputs: &[PathBuf],
    intake: &mut Intake,
    threads: Option<bool>,
    chunk: u64,
) -> Option<()> {
    let limits = Limits::from_env().ok()?;
    let files = ingest::expand(inputs).ok()?;
    if files.is_empty() || !files.iter().all(|f| Bytes::can_take(f)) {
        return None;
    }
    let held: Vec<Option<ingest::once::Bytes>> =
        files.iter().map(|f| hold(f)).collect::<Option<_>>()?;
    let sources: Vec<Bytes> = files
        .iter()
        .zip(&held)
        .map(|(f, h)| Bytes::of(f, h.as_ref().map(|b| b.as_slice())))
        .collect();
    // Room for the players and the cards, judged from the size of the
    // files (a line is some 28 bytes; a player has a line per game, a
    // card three or four players): no regrowing of a million entries,
    // each regrowing a copy into memory the system must clear. Room not
    // used is never touched.
    let bytes: u64 = sources.iter().filter_map(|b| b.len()).sum();
    let games = u64::from(intake.rules().games_for(&Stage::prelim()).max(1));
    let players = usize::try_from(bytes / 28 / games)
        .unwrap_or(0)
        .min(1 << 26);
    let players = if intake.roster_mut().is_open() {
        intake.roster_mut().reserve(players);
        intake.roster_mut().reserve_text(players * 8);
        players
    } else {
        // a roster given: no player beyond it
        players.min(intake.roster().len())
    };
    let cards = usize::try_from(bytes / 28 / games / 3)
        .unwrap_or(0)
        .min(1 << 24);
    intake.reserve(&Stage::prelim(), players, cards);
    let mut seen = Keys::default();
    seen.packed.reserve(cards);
    for (path, &bytes) in files.iter().zip(&sources) {
        let large = bytes.len().is_some_and(|n| n >= THREADS_FROM);
        read_file(
            path,
            bytes,
            &limits,
            intake,
            &mut seen,
            threads.unwrap_or(large),
            chunk.max(1),
        )?;
    }
    // a card twice: its lines are apart (the ordinary read puts them
    // together), or its table is given twice (the ordinary read says so)
    if seen.has_duplicate() {
        return None;
    }
    for path in &files {
        ingest::note_read(path);
    }
    Some(())
}

/// Every card's key as read (accepted or not), packed where its labels are
/// numbers: a card met twice is found at the end.
#[derive(Default)]
struct Keys {
    stages: Vec<Stage>,
    packed: Vec<u64>,
    other: Vec<CardKey>,
}

impl Keys {
    fn add(&mut self, key: &CardKey) {
        let stage = match self.stages.iter().position(|s| *s == key.stage) {
            Some(i) => i,
            None => {
                self.stages.push(key.stage.clone());
                self.stages.len() - 1
            }
        };
        match (&key.session, &key.table) {
            (Label::Num(s), Label::Num(t)) if stage < 1 << 8 && *s < 1 << 24 => self
                .packed
                .push(((stage as u64) << 56) | (u64::from(*s) << 32) | u64::from(*t)),
            _ => self.other.push(key.clone()),
        }
    }

    fn has_duplicate(&mut self) -> bool {
        self.packed.sort_unstable();
        self.other.sort();
        self.packed.windows(2).any(|w| w[0] == w[1]) || self.other.windows(2).any(|w| w[0] == w[1])
    }
}

/// Chunks parsed ahead of the one to accept, at most (per thread).
const AHEAD: usize = 3;

/// The size of a chunk before it is cut at the next card boundary: small
/// enough that its lines, grouped into cards, are still in the processor's
/// cache (a core's 512 KiB) when the cards are checked and named; 512 KiB
/// chunks were some 9% slower at a million players.
const CHUNK: u64 = 128 << 10;

/// Files from this size on are parsed on two threads.
const THREADS_FROM: u64 = 4 << 20;

/// What the start of a file says: its delimiter, its columns, and where
/// its lines after the header start (byte offset and line number).
struct Head {
    delimiter: u8,
    columns: ColumnMap,
    /// The columns of the card key (stage, session, table), for finding
    /// where one card ends and the next starts.
    key_columns: [Option<usize>; 3],
    body: u64,
    line: u32,
    /// The file's bytes before `body`, as read (for its hash).
    prefix: Vec<u8>,
}

/// A line of a CSV file, split where it lies ([`text::SplitFields`]: a
/// cell is made only for a field that is taken), and the card it is on
/// when its reader knows it.
struct SplitLine<'a> {
    line: text::SplitFields<'a>,
    /// The card the line is on, when its stage, session and table are
    /// written as on the line before it (see [`lines::Fields::card`]).
    card: Option<&'a CardKey>,
}

impl lines::Fields for SplitLine<'_> {
    fn number(&self) -> u32 {
        self.line.number()
    }

    fn at(&self, i: usize) -> crate::place::At {
        self.line.at(i)
    }

    fn text(&self, i: usize) -> std::borrow::Cow<'_, str> {
        self.line.text(i)
    }

    fn take(&mut self, i: usize) -> Cell {
        self.line.take(i)
    }

    fn card(&self) -> Option<&CardKey> {
        self.card
    }

    fn beyond(&self, width: usize) -> Option<usize> {
        self.line.beyond(width)
    }
}

/// Reads the start of a file: the delimiter is judged on the first lines,
/// as the ordinary reader judges it; the header is the first line that is
/// not blank, and must be the results layout's.
fn read_head(file: &mut Reader, limits: &Limits) -> Option<Head> {
    let mut reader = BufReader::with_capacity(1 << 16, &mut *file);
    let mut head: Vec<u8> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut non_blank = 0;
    // (no line longer than the limit is read whole: it is the ordinary
    // read's to refuse)
    let most = limits.line_bytes.saturating_add(2);
    while non_blank < text::SNIFF_LINES {
        let start = head.len();
        let n = (&mut reader)
            .take(most + 1)
            .read_until(b'\n', &mut head)
            .ok()?;
        if n == 0 {
            break;
        }
        if n as u64 > most {
            return None;
        }
        ends.push(head.len());
        if !std::str::from_utf8(&head[start..]).ok()?.trim().is_empty() {
            non_blank += 1;
        }
    }
    // (a NUL: UTF-16 without a byte order mark, or a damaged file; the
    // ordinary reader says which, see `text::decode`)
    if memchr::memchr(0, &head).is_some() {
        return None;
    }
    let bom = if head.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let delimiter = text::sniff_delimiter(std::str::from_utf8(&head[bom..]).ok()?);
    let mut splitter = Splitter::new(delimiter, limits);
    let mut start = bom;
    for (i, &end) in ends.iter().enumerate() {
        let line = &head[start..end];
        if splitter.split(line)? {
            let text = std::str::from_utf8(line).ok()?;
            let cells: Vec<String> = splitter
                .fields
                .iter()
                .map(|&(a, b)| Cell::text(&text[a..b]).as_text())
                .collect();
            let columns = map_header(&cells, &results::columns())?;
            let key_columns = [lines::STAGE, lines::SESSION, lines::TABLE].map(|c| columns.get(c));
            head.truncate(end);
            return Some(Head {
                delimiter,
                columns,
                key_columns,
                body: end as u64,
                line: i as u32 + 1,
                prefix: head,
            });
        }
        start = end;
    }
    None
}

/// Reads the `len` bytes of a file from `at` into `buf`, `None` when the
/// file ends first (it changed while read: the caller reads it the
/// ordinary way). The buffer keeps the room it had, written over, and is
/// zeroed only where it grows: a chunk read by the standard
/// `read_to_end` (its own buffer unknown to be written) took five reads
/// of growing size, from 8 KiB, for each 128 KiB chunk. A file is read
/// at its offset ([`ingest::read_exact_at`], the roster's reader too);
/// where the system has no such read, after a seek (each thread has its
/// own handle).
fn read_at(file: &mut Reader, at: u64, len: u64, buf: &mut Vec<u8>) -> Option<()> {
    let want = usize::try_from(len).ok()?;
    match file {
        Reader::File(f) => {
            buf.resize(want, 0);
            #[cfg(unix)]
            ingest::read_exact_at(f, buf, at).ok()?;
            #[cfg(not(unix))]
            {
                std::io::Seek::seek(f, std::io::SeekFrom::Start(at)).ok()?;
                f.read_exact(buf).ok()?;
            }
        }
        Reader::Held(c) => {
            let bytes = *c.get_ref();
            let from = usize::try_from(at).ok()?;
            let to = from.checked_add(want)?;
            buf.clear();
            buf.extend_from_slice(bytes.get(from..to)?);
        }
    }
    Some(())
}

/// Where the chunks of a file start: the body's start, then the first
/// card boundary after each multiple of `chunk` bytes, then the file's
/// end.
fn chunk_starts(
    file: &mut Reader,
    head: &Head,
    len: u64,
    chunk: u64,
    limits: &Limits,
) -> Option<Vec<u64>> {
    let mut starts = vec![head.body];
    let mut nominal = head.body + chunk;
    let mut buf = Vec::new();
    while nominal < len {
        let at = boundary(file, head, nominal, len, limits, &mut buf)?;
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
/// the first line break at or after `nominal - 1`, whose stage, session
/// and table name a card and are written otherwise than on the line
/// before it that is not blank (nor of a blank session or table: such a
/// line may be lost from the card above it, which is then in its chunk);
/// the file's length when there is none. (Two spellings of one card
/// cut it in two: the two halves are the same card met twice, and the
/// file is read the ordinary way.)
fn boundary(
    file: &mut Reader,
    head: &Head,
    nominal: u64,
    len: u64,
    limits: &Limits,
    buf: &mut Vec<u8>,
) -> Option<u64> {
    const WINDOW: u64 = 4 * 1024;
    let mut splitter = Splitter::new(head.delimiter, limits);
    let mut at = nominal - 1;
    let window = |at: u64| WINDOW.min(len.saturating_sub(at));
    read_at(file, at, window(at), buf)?;
    let at_end = |at: u64, buf: &Vec<u8>| at + buf.len() as u64 >= len;
    let mut offset = match buf.iter().position(|&b| b == b'\n') {
        Some(i) => i + 1,
        None if at_end(at, buf) => return Some(len),
        None => return None, // a line longer than the window
    };
    let mut previous: Option<[Vec<u8>; 3]> = None;
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
                read_at(file, at, window(at), buf)?;
                offset = 0;
                continue;
            }
        };
        let start = at + offset as u64;
        let line = &buf[offset..offset + line_len];
        offset += line_len;
        if !splitter.split(line)? {
            continue; // a blank line
        }
        let key = splitter.texts(line, &head.key_columns);
        // a line whose card cannot be read may be lost from the card of
        // the line before it (`lines::PartKey`), which must be in its
        // chunk: no chunk starts at it
        let text = String::from_utf8_lossy;
        if !lines::names_card(&text(key[1]), &text(key[2])) {
            continue;
        }
        if let Some(p) = &previous {
            if p.iter().zip(key).any(|(a, b)| a.as_slice() != b) {
                return Some(start);
            }
        } else {
            previous = Some(key.map(<[u8]>::to_vec));
        }
    }
}

/// One chunk, read: its cards in order, each with its values checked and
/// its seats' names hashed; the problems found; rows and places counted
/// from the chunk's first line (the file's line numbers are known when the
/// chunks before it are accepted).
struct Chunk {
    lines: u32,
    source: Source,
    /// Each card as the one check left it (its lines stay on the thread
    /// that read them), and its names hashed (by card, by seat).
    cards: Vec<Checked>,
    hashes: Vec<[u64; 4]>,
    problems: Problems,
    /// The chunk's bytes, as read, when the file is hashed (else empty):
    /// hashed in the file's order as the chunk is accepted.
    bytes: Vec<u8>,
}

/// What a thread reads chunks with, kept from one chunk to the next: its
/// file, and the room its buffers made (the chunk's bytes, its lines
/// grouped into cards), so that the chunks after the first grow none.
struct Parser<'a> {
    file: Reader<'a>,
    buf: Vec<u8>,
    grouper: Grouper<RawLine>,
    splitter: Splitter,
    scratch: String,
}

impl<'a> Parser<'a> {
    fn new(reading: &Reading<'a>) -> Option<Parser<'a>> {
        Some(Parser {
            file: reading.bytes.open()?,
            buf: Vec::new(),
            grouper: Grouper::new(&Source::file(reading.name)),
            splitter: Splitter::new(reading.head.delimiter, reading.limits),
            scratch: String::new(),
        })
    }
}

/// A chunk's cards, their names' hashes and its bytes, as [`Chunk`]
/// holds them.
type Lists = (Vec<Checked>, Vec<[u64; 4]>, Vec<u8>);

/// What every chunk of a file is read with.
struct Reading<'a> {
    bytes: Bytes<'a>,
    head: &'a Head,
    rules: &'a Rules,
    limits: &'a Limits,
    name: &'a str,
    hasher: NameHasher,
    keep: bool,
    /// Whether the file's bytes are hashed (a chunk keeps its bytes).
    hashing: bool,
    /// The lists of chunks accepted, emptied, for chunks to come: their
    /// room is not given back and asked for again.
    spare: std::sync::Mutex<Vec<Lists>>,
}

/// Reads one file; `None` when it is not the common case.
fn read_file<T: Take>(
    path: &Path,
    bytes: Bytes,
    limits: &Limits,
    intake: &mut T,
    seen: &mut Keys,
    threads: bool,
    chunk: u64,
) -> Option<()> {
    let name = ingest::shown(path);
    let mut file = bytes.open()?;
    let len = bytes.len()?;
    let head = read_head(&mut file, limits)?;
    let starts = chunk_starts(&mut file, &head, len, chunk, limits)?;
    let ranges: Vec<(u64, u64)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
    // A chunk runs to the next card boundary: one far longer than asked is
    // a "card" of many megabytes, which no card is (and is not read whole).
    if ranges
        .iter()
        .any(|(a, b)| b.checked_sub(*a).is_none_or(|n| n > 16 * chunk.max(CHUNK)))
    {
        return None;
    }
    // (the file's bytes hashed in its order: its start, then each chunk as
    // it is accepted)
    let mut hashing = Hashing::start();
    hashing.update(&head.prefix);
    let rules = intake.rules().clone();
    let reading = Reading {
        bytes,
        head: &head,
        rules: &rules,
        limits,
        name: &name,
        hasher: intake.hasher(),
        keep: intake.keeps_cards(),
        hashing: hashing.is_on(),
        spare: std::sync::Mutex::new(Vec::new()),
    };
    // the header's unknown columns, as the ordinary read warns of them
    let source = Source::file(&name);
    let mut header_row = Row {
        number: head.line,
        first_col: 1,
        cells: Vec::new(),
    };
    header_row
        .cells
        .resize(head.columns.index.len().max(1), Cell::Empty);
    warn_unknown(&source, &header_row, &head.columns, intake.problems());
    intake.file_read();

    // lines before the chunk
    let mut base = head.line;
    let mut found = false;
    // A chunk is read with its rows counted from its first line, then
    // moved down to the file's (the lines before it are counted once the
    // chunks before it are in). A message may name another place of the
    // chunk in its text ("first at ..."): a chunk with any problem is read
    // again here, its rows counted from the right line.
    let mut again: Option<Parser> = None;
    let reading = &reading;
    let mut accept = |range: (u64, u64), chunk: Chunk, intake: &mut T| -> Option<()> {
        let mut chunk = if chunk.problems.is_empty() {
            chunk
        } else {
            let parser = match &mut again {
                Some(p) => p,
                None => again.insert(Parser::new(reading)?),
            };
            parse_chunk(parser, reading, range, base)?
        };
        let shift = if chunk.problems.is_empty() { base } else { 0 };
        found |= !chunk.cards.is_empty();
        hashing.update(&chunk.bytes);
        chunk.bytes.clear();
        intake
            .problems()
            .extend(std::mem::take(&mut chunk.problems));
        // the names of the cards a few ahead are looked for while these
        // are named (see `Take::warm`)
        let ahead = &chunk.hashes;
        // (each card named where it lies: a checked card is some 450
        // bytes, not to be moved again)
        for (i, card) in chunk.cards.iter_mut().enumerate() {
            crate::roster::warm_ahead(i, ahead, |hashes| intake.warm(hashes));
            card.rows_from = shift;
            seen.add(&card.key);
            intake.add_checked(&chunk.source, card, Some(&ahead[i]));
        }
        chunk.cards.clear();
        base = base.checked_add(chunk.lines)?;
        chunk.hashes.clear();
        if let Ok(mut spare) = reading.spare.lock() {
            spare.push((chunk.cards, chunk.hashes, chunk.bytes));
        }
        Some(())
    };
    if !threads || ranges.len() < 2 {
        let mut parser = Parser::new(reading)?;
        for &range in &ranges {
            accept(range, parse_chunk(&mut parser, reading, range, 0)?, intake)?;
        }
    } else {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let ok = std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Option<Chunk>)>(AHEAD);
            let (next, stop, ranges, reading) = (&next, &stop, &ranges, &reading);
            let worker = scope.spawn(move || {
                let mut parser = Parser::new(reading)?;
                while !stop.load(Relaxed) {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(&range) = ranges.get(i) else { break };
                    let chunk = parse_chunk(&mut parser, reading, range, 0);
                    // a closed channel: this thread stopped listening
                    tx.send((i, chunk)).ok()?;
                }
                Some(())
            });
            let mut parser = Parser::new(reading)?;
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
                            let parsed = parse_chunk(&mut parser, reading, range, 0);
                            pending.push((i, parsed));
                            continue;
                        }
                    }
                    match rx.recv() {
                        Ok(got) => pending.push(got),
                        Err(_) => break None, // the other thread ended early
                    }
                };
                ok = chunk.and_then(|c| accept(ranges[want], c, intake));
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
    if !found {
        return None;
    }
    hashing.done(path);
    Some(())
}

/// Reads the lines of bytes `a..b` of a file (whole cards) into cards,
/// each checked ([`check_values`]) and its names hashed; its rows are
/// counted from `base + 1`.
fn parse_chunk(
    parser: &mut Parser,
    reading: &Reading,
    (a, b): (u64, u64),
    base: u32,
) -> Option<Chunk> {
    let len = b.checked_sub(a)?;
    let Parser {
        file,
        buf,
        grouper,
        splitter,
        scratch,
    } = parser;
    read_at(file, a, len, buf)?; // (`None`: the file changed while read)
                                 // UTF-8 checked once for the chunk (a file that is not is read the
                                 // ordinary way, which decodes it)
    let text = std::str::from_utf8(buf).ok()?;
    // each chunk its own source: the threads share no counter
    let source = Source::file(reading.name);
    let (cards, hashes, bytes) = reading
        .spare
        .lock()
        .ok()
        .and_then(|mut s| s.pop())
        .unwrap_or_default();
    let mut chunk = Chunk {
        lines: 0,
        source: source.clone(),
        cards,
        hashes,
        problems: Problems::new(),
        bytes,
    };
    grouper.restart(&source);
    let mut stages = StageCache::default();
    let columns = &reading.head.columns;
    let mut number = base;
    // the card of the last line placed, by its stage, session and table
    // as written: the lines after it that write them the same are on it
    // (their cells are not read again)
    let mut card: Option<([&[u8]; 3], CardKey)> = None;
    let mut from = 0;
    while from < text.len() {
        let (end, filled) = splitter.next_line(text.as_bytes(), from);
        let line = text.get(from..end)?;
        from = end;
        number = number.checked_add(1)?;
        if !filled? {
            continue;
        }
        let written = splitter.written(line.as_bytes(), &reading.head.key_columns);
        let known = card
            .as_ref()
            .filter(|(was, _)| (0..3).all(|i| lines::same_short_bytes(was[i], written[i])))
            .map(|(_, key)| key);
        let mut row = SplitLine {
            line: text::SplitFields {
                text: line,
                fields: &splitter.fields,
                number,
            },
            card: known,
        };
        if !results::add_line(
            &source,
            columns,
            &mut row,
            &mut stages,
            grouper,
            &mut chunk.problems,
        ) {
            continue;
        }
        if row.card.is_none() {
            card = stages.last().map(|key| (written, key.clone()));
        }
        // a card has a line per seat and game: a card of more lines than
        // four seats can have is no card, and is not held (the ordinary
        // read says what is wrong)
        // (every stage has a game at least: a card of four games or fewer,
        // nearly every line's, is within, its stage's games not looked up)
        let last = grouper.cards.last()?;
        let games = last.games.len();
        if games > 4 && games > 4 * reading.rules.games_for(&last.key.stage) as usize {
            return None;
        }
    }
    grouper.end_run(&mut chunk.problems);
    chunk.lines = number - base;
    ingest::check_names(
        grouper
            .cards
            .iter()
            .flat_map(|c| c.seats.iter().chain(&c.renamed).map(|s| (&source, s))),
        reading.limits,
        &mut chunk.problems,
    );
    chunk.cards.reserve(grouper.cards.len());
    chunk.hashes.reserve(grouper.cards.len());
    let mut grouped = std::mem::take(&mut grouper.cards);
    for g in grouped.drain(..) {
        let mut raw = results::card(&source, g);
        let values = check_values(&raw, reading.rules, reading.keep, &mut chunk.problems);
        let mut hashes = [0u64; 4];
        for s in &raw.seats {
            hashes[s.seat.index()] = reading.hasher.hash(&s.player, scratch);
        }
        chunk.cards.push(Checked::from_raw(&mut raw, values));
        grouper.give_back(raw.games, raw.seats);
        chunk.hashes.push(hashes);
    }
    grouper.cards = grouped;
    if reading.hashing {
        // the bytes go with the chunk; the parser reads the next into
        // another chunk's room
        std::mem::swap(buf, &mut chunk.bytes);
    }
    Some(chunk)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `read_at` gives the bytes asked for, up to the end, and none
    /// when asked for more than there is (the file changed), from a file
    /// and from bytes held alike, whatever the buffer held before
    /// (longer, shorter or swapped for an empty one).
    #[test]
    fn read_at_gives_the_bytes_asked_for_from_a_file_and_from_held_bytes() {
        let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let path = std::env::temp_dir().join(format!("tilerank-read-at-{}", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let mut file = Reader::File(std::fs::File::open(&path).unwrap());
        let mut held = Reader::Held(std::io::Cursor::new(&bytes[..]));
        let asked = [
            (0, 131_072),
            (5, 10),
            (131_000, 131_072),
            (299_990, 10),
            (300_000, 0),
            (17, 0),
        ];
        let past_the_end = [(299_990, 4096), (300_000, 1), (400_000, 7)];
        for reader in [&mut file, &mut held] {
            let mut buf = vec![0xEE; 200_000];
            for &(at, len) in &asked {
                read_at(reader, at, len, &mut buf).unwrap();
                let at = at as usize;
                assert_eq!(buf, &bytes[at..at + len as usize], "at {at}, {len} bytes");
            }
            for &(at, len) in &past_the_end {
                assert_eq!(
                    read_at(reader, at, len, &mut buf),
                    None,
                    "at {at}, {len} bytes"
                );
            }
            buf = Vec::new();
            read_at(reader, 3, 5, &mut buf).unwrap();
            assert_eq!(buf, &bytes[3..8]);
        }
        std::fs::remove_file(&path).unwrap();
    }
}
