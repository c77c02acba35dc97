//! Reading inputs: files and folders, CSV and workbooks, every sheet on its
//! own, each sheet's layout recognised from its header (FORMATS.md).
//!
//! Readers only map a layout to [`raw::RawCard`]s, keeping every value as a
//! cell with its place; the rules decide what the values mean
//! ([`crate::rules::card_checks`]). A sheet is read as a stream of rows, so a
//! large results file is never held as a grid.

pub mod cell;
pub mod contained;
pub mod header;
pub mod limits;
pub mod lines;
pub mod racks;
pub mod raw;
pub mod results;
pub mod roster;
pub mod scorecard;
pub mod split;
pub mod text;
pub mod workbook;
mod xlscheck;
mod zipcheck;

use crate::place::{Place, Source};
use crate::problem::Problems;
use cell::Row;
use limits::Limits;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A file that cannot be read at all (exit status 2), as opposed to data
/// that is wrong (listed as problems, exit status 1).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{path}: no such file or folder")]
    NotFound { path: String },
    #[error("{path}: cannot be read: {reason}")]
    Unreadable { path: String, reason: String },
    #[error(
        "{path}: the folder holds no CSV or workbook file (.csv .tsv .txt .xlsx .xlsm .xls .ods)"
    )]
    EmptyFolder { path: String },
    /// One sheet of a workbook cannot be read.
    #[error("{place}: cannot be read: {reason}")]
    Sheet { place: Place, reason: String },
    /// Over one of the [`Limits`]: `place` is the file, sheet, cell or line.
    #[error("{place}: {message}")]
    Limit { place: Place, message: String },
    /// A file that is something else than a spreadsheet (a photo, a PDF):
    /// a data error (exit status 1), like a sheet with no known layout.
    #[error("{path}: {}", not_a_spreadsheet(what))]
    NotASpreadsheet { path: String, what: &'static str },
    #[error("{var}={value:?}: expected a whole number above 0 ({what})")]
    BadLimit {
        var: String,
        value: String,
        what: String,
    },
}

impl InputError {
    /// The error as a problem of the run: its place, and what is wrong.
    pub fn to_problem(&self) -> (Place, String) {
        let file = |path: &str| Source::file(path).whole();
        match self {
            InputError::NotFound { path } => (file(path), "no such file or folder".into()),
            InputError::Unreadable { path, reason } => {
                (file(path), format!("cannot be read: {reason}"))
            }
            InputError::Sheet { place, reason } => {
                (place.clone(), format!("cannot be read: {reason}"))
            }
            InputError::Limit { place, message } => (place.clone(), message.clone()),
            InputError::NotASpreadsheet { path, what } => (file(path), not_a_spreadsheet(what)),
            other => (Place::nowhere("tilerank"), other.to_string()),
        }
    }
}

/// What a file that is no spreadsheet is told.
fn not_a_spreadsheet(what: &str) -> String {
    format!("this is {what}, not a spreadsheet: type the card into a spreadsheet or a CSV file and give that file")
}

/// What the first bytes say a file is when it is something a volunteer
/// may hand in by mistake instead of a spreadsheet: a photo or a scan of a
/// card, or a PDF.
pub fn not_spreadsheet_kind(bytes: &[u8]) -> Option<&'static str> {
    let at = |i: usize, magic: &[u8]| bytes.get(i..i + magic.len()) == Some(magic);
    if at(0, b"\x89PNG\r\n\x1a\n") {
        Some("an image (PNG)")
    } else if at(0, &[0xFF, 0xD8, 0xFF]) {
        Some("an image (JPEG)")
    } else if at(0, b"GIF87a") || at(0, b"GIF89a") {
        Some("an image (GIF)")
    } else if at(0, b"RIFF") && at(8, b"WEBP") {
        Some("an image (WebP)")
    } else if at(0, b"II*\0") || at(0, b"MM\0*") {
        Some("an image (TIFF)")
    } else if at(4, b"ftyp")
        && ["heic", "heix", "hevc", "heif", "mif1", "msf1", "avif"]
            .iter()
            .any(|brand| at(8, brand.as_bytes()))
    {
        Some("an image (HEIC/AVIF, as phones take photos)")
    } else if at(0, b"BM") && at(6, &[0, 0, 0, 0]) && bytes.len() > 26 {
        Some("an image (BMP)")
    } else if at(0, b"%PDF-") {
        Some("a PDF document")
    } else {
        None
    }
}

/// The extensions read from a folder.
const KNOWN_EXTENSIONS: [&str; 7] = ["csv", "tsv", "txt", "xlsx", "xlsm", "xls", "ods"];
const WORKBOOK_EXTENSIONS: [&str; 4] = ["xlsx", "xlsm", "xls", "ods"];

/// One sheet (or CSV file) as a stream of rows.
pub struct Sheet {
    pub source: Source,
    pub rows: Rows,
    /// The encoding a CSV file was decoded from, when it was not UTF-8.
    pub encoding: Option<&'static str>,
    /// Cells the workbook reader could not read, each an error at its place;
    /// the rest of the sheet is in `rows`.
    pub bad_cells: Vec<(Place, String)>,
    /// A workbook sheet's merged ranges.
    pub merged: Vec<workbook::Merge>,
}

/// A sheet's rows: a CSV text's (which a reader may split itself: see
/// [`text::CsvRows::into_plain`]), or a workbook sheet's.
pub enum Rows {
    Csv(text::CsvRows),
    Cells(std::vec::IntoIter<Row>),
}

impl Iterator for Rows {
    type Item = Result<Row, String>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Rows::Csv(rows) => rows.next(),
            Rows::Cells(rows) => rows.next().map(Ok),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Rows::Csv(rows) => rows.size_hint(),
            Rows::Cells(rows) => rows.size_hint(),
        }
    }
}

/// Files named on the command line, folders expanded to their CSV and
/// workbook files in name order.
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut files = Vec::new();
    for input in inputs {
        if input.as_os_str() == "-" {
            files.push(input.clone());
            continue;
        }
        let meta =
            std::fs::metadata(input).map_err(|_| InputError::NotFound { path: shown(input) })?;
        if meta.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| InputError::Unreadable {
                    path: shown(input),
                    reason: e.to_string(),
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && is_data_file(p))
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(InputError::EmptyFolder { path: shown(input) });
            }
            files.extend(inside);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

fn is_data_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    // spreadsheet lock files: `~$S01.xlsx` (Excel), `.~lock.S01.xlsx#` (LibreOffice)
    if name.starts_with('.') || name.starts_with("~$") {
        return false;
    }
    extension(path).is_some_and(|e| KNOWN_EXTENSIONS.contains(&e.as_str()))
}

fn extension(path: &Path) -> Option<String> {
    path.extension().map(|e| e.to_string_lossy().to_lowercase())
}

/// How a path is named in messages: as the user gave it.
pub fn shown(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// The files this run has opened, as their canonical paths: a report is
/// never written over one of them.
static READ: std::sync::Mutex<std::collections::BTreeSet<PathBuf>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Whether this run has read the file `path` names (through links).
pub fn was_read(path: &Path) -> bool {
    let Ok(canonical) = std::fs::canonicalize(path) else {
        return false;
    };
    READ.lock()
        .map(|read| read.contains(&canonical))
        .unwrap_or(false)
}

/// Records that this run read the file `path` names (see [`was_read`]).
pub fn note_read(path: &Path) {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        if let Ok(mut read) = READ.lock() {
            read.insert(canonical);
        }
    }
}

/// The SHA-256 of the bytes this run read from standard input (it is read
/// once), as lowercase hex; `None` before it is read.
static STDIN_SHA256: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// See `STDIN_SHA256`: what the import log keeps for an input `-`.
pub fn stdin_sha256() -> Option<&'static str> {
    STDIN_SHA256.get().map(String::as_str)
}

/// Opens a file as its sheets: one for a CSV file, one per workbook sheet.
pub fn open(path: &Path) -> Result<Vec<Sheet>, InputError> {
    let limits = Limits::from_env()?;
    let name = shown(path);
    note_read(path);
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| {
            let _ = STDIN_SHA256.set(crate::event_folder::sha256_hex(&bytes));
        })
    } else {
        read_whole(path).map(|read| bytes = read)
    };
    read.map_err(|e| InputError::Unreadable {
        path: name.clone(),
        reason: e.to_string(),
    })?;
    read_bytes(&name, bytes, &limits)
}

/// Whether `path` is a regular file named as CSV text (`.csv`, `.tsv`,
/// `.txt`): one a reader may read in parts, more than once (a pipe or a
/// device is read once, whole).
pub fn is_text_file(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    matches!(ext.as_str(), "csv" | "tsv" | "txt")
}

/// Files from this size on are read in two halves at once.
const HALVES_FROM: u64 = 8 << 20;

/// A file's bytes. A large one (a roster of a million players, 33 MB) is
/// read in two halves at once, on two threads: the memory the bytes go
/// into is made ready by the system as they are written into it, and that
/// took one processor some 20 ms for such a file.
fn read_whole(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() >= HALVES_FROM {
        if let Some(bytes) = read_halves(&file, meta.len()) {
            return Ok(bytes);
        }
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The `len` bytes of `file`, read in two halves at once; `None` when the
/// file is no longer `len` bytes long or a half cannot be read (it is
/// then read again, whole, as it is now), or on a system without
/// positioned reads.
fn read_halves(file: &std::fs::File, len: u64) -> Option<Vec<u8>> {
    let len_bytes = usize::try_from(len).ok()?;
    let mut bytes = vec![0u8; len_bytes];
    let half = len_bytes / 2;
    let (first, second) = bytes.split_at_mut(half);
    let (a, b) = std::thread::scope(|scope| {
        let second = scope.spawn(move || read_exact_at(file, second, half as u64));
        let a = read_exact_at(file, first, 0);
        (a, second.join())
    });
    let grown = !matches!(
        read_exact_at(file, &mut [0u8; 1], len),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof
    );
    (a.is_ok() && matches!(b, Ok(Ok(()))) && !grown).then_some(bytes)
}

/// Fills `buf` with the bytes of `file` from `at`, without moving its
/// cursor (threads read parts of one file at once); an error when the file
/// ends first, or on a system without positioned reads.
pub(crate) fn read_exact_at(file: &std::fs::File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, at)
    }
    #[cfg(not(unix))]
    {
        let _ = (file, buf, at);
        Err(std::io::ErrorKind::Unsupported.into())
    }
}

/// Reads a file's bytes as its sheets, the way [`open`] does: the entry
/// point of the fuzz targets, so that they test what the command runs.
/// `name` names the file in messages; its extension says whether a
/// workbook is expected. A workbook is read contained (see
/// [`contained`]): no reader panic or hang gets out of here.
pub fn read_bytes(name: &str, bytes: Vec<u8>, limits: &Limits) -> Result<Vec<Sheet>, InputError> {
    if bytes.is_empty() {
        // nothing to read, whatever the name says: no sheets
        return Ok(Vec::new());
    }
    if let Some(what) = not_spreadsheet_kind(&bytes) {
        return Err(InputError::NotASpreadsheet {
            path: name.to_string(),
            what,
        });
    }
    let named_workbook =
        extension(Path::new(name)).is_some_and(|e| WORKBOOK_EXTENSIONS.contains(&e.as_str()));
    // a workbook under another name is still a workbook
    if named_workbook || workbook::format_of(&bytes).is_some() {
        let sheets = workbook::read(bytes, name, limits)?;
        return Ok(sheets
            .into_iter()
            .map(|s| {
                let source = Source::sheet(name, &s.name);
                let bad_cells = s
                    .bad_cells
                    .into_iter()
                    .map(|(r, c, why)| (source.at(r, Some(c)), why))
                    .collect();
                Sheet {
                    source,
                    rows: Rows::Cells(s.rows.into_iter()),
                    encoding: None,
                    bad_cells,
                    merged: s.merged,
                }
            })
            .collect());
    }
    let (text, encoding) = text::decode_owned(bytes);
    text::check_lengths(&text, name, limits)?;
    Ok(vec![Sheet {
        source: Source::file(name),
        rows: Rows::Csv(text::CsvRows::new(text)),
        encoding,
        bad_cells: Vec::new(),
        merged: Vec::new(),
    }])
}

/// What a sheet's first rows say it is.
#[derive(Debug, PartialEq, Eq)]
pub enum Kind {
    Results,
    Racks,
    ScoreCard,
    Roster,
    Unknown,
    Empty,
}

/// How many leading non-blank rows are looked at to recognise a layout.
const SNIFF_ROWS: usize = 40;

/// Reads rows until the layout is recognised; returns the kind and the rows
/// read so far (to be read again, followed by the rest of the stream).
pub fn recognise(sheet: &mut Sheet, problems: &mut Problems) -> (Kind, Vec<Row>) {
    let mut seen = Vec::new();
    let mut non_blank = 0;
    let mut saw_name_row = false;
    while non_blank < SNIFF_ROWS {
        let row = match sheet.rows.next() {
            None => break,
            Some(Ok(row)) => row,
            Some(Err(e)) => {
                problems.error(sheet.source.whole(), format!("cannot be read as CSV: {e}"));
                return (Kind::Unknown, seen);
            }
        };
        if row.is_blank() {
            seen.push(row);
            continue;
        }
        non_blank += 1;
        let texts: Vec<String> = row.cells.iter().map(|c| c.as_text()).collect();
        let kind = if results::is_header(&texts) {
            Some(Kind::Results)
        } else if racks::is_header(&texts) {
            Some(Kind::Racks)
        } else if roster::is_header(&texts) {
            Some(Kind::Roster)
        } else if scorecard::is_marker(&texts) {
            Some(Kind::ScoreCard)
        } else {
            saw_name_row |= scorecard::is_name_row(&texts);
            (saw_name_row && scorecard::is_subheader(&texts)).then_some(Kind::ScoreCard)
        };
        seen.push(row);
        if let Some(kind) = kind {
            return (kind, seen);
        }
    }
    let kind = if non_blank == 0 {
        Kind::Empty
    } else {
        Kind::Unknown
    };
    (kind, seen)
}

/// Everything the card inputs held.
#[derive(Default)]
pub struct CardInputs {
    pub cards: Vec<raw::RawCard>,
    /// Cards in the racks layout, to be scored under the event's rules.
    pub rack_cards: Vec<racks::RackCard>,
    pub files: usize,
    pub sheets: usize,
    /// Cards read back from the event's store (not from a file).
    pub stored: usize,
}

/// Reads every card of every input. Data problems go to `problems`; so
/// does a file that cannot be read (marked unreadable, exit status 2), and
/// the other files are still read. Only a wrong name on the command line
/// (no such file) or a wrong limit setting is an [`InputError`].
pub fn read_cards(inputs: &[PathBuf], problems: &mut Problems) -> Result<CardInputs, InputError> {
    let limits = Limits::from_env()?;
    let mut out = CardInputs::default();
    for path in expand(inputs)? {
        match open(&path) {
            Ok(sheets) => read_file(&shown(&path), sheets, &limits, &mut out, problems),
            Err(e @ InputError::BadLimit { .. }) => return Err(e),
            Err(e) => not_read(&e, &mut out, problems),
        }
    }
    Ok(out)
}

/// The cards of one file given as bytes, read as [`read_cards`] reads a
/// file (the entry point of the fuzz targets). A file that cannot be read
/// is a problem marked unreadable.
pub fn cards_from_bytes(
    name: &str,
    bytes: Vec<u8>,
    limits: &Limits,
    problems: &mut Problems,
) -> CardInputs {
    let mut out = CardInputs::default();
    match read_bytes(name, bytes, limits) {
        Ok(sheets) => read_file(name, sheets, limits, &mut out, problems),
        Err(e) => not_read(&e, &mut out, problems),
    }
    out
}

/// A file that gave no sheets: marked unreadable (exit status 2), unless it
/// is no spreadsheet at all, which is a data error like a sheet of no known
/// layout.
fn not_read(e: &InputError, out: &mut CardInputs, problems: &mut Problems) {
    out.files += 1;
    let (place, message) = e.to_problem();
    match e {
        InputError::NotASpreadsheet { .. } => problems.error(place, message),
        _ => problems.unreadable(place, message),
    }
}

/// Reads the cards of one file's sheets into `out`.
fn read_file(
    name: &str,
    sheets: Vec<Sheet>,
    limits: &Limits,
    out: &mut CardInputs,
    problems: &mut Problems,
) {
    out.files += 1;
    if sheets.is_empty() {
        problems.error(
            Source::file(name).whole(),
            "the file is empty: there is nothing in it to read (was it saved?)",
        );
        return;
    }
    let (cards_before, racks_before) = (out.cards.len(), out.rack_cards.len());
    let errors_before = problems.error_count();
    let in_workbook = sheets.len();
    let mut recognised = 0;
    let mut rosters = 0;
    let mut unknown = Vec::new();
    for mut sheet in sheets {
        for (place, why) in std::mem::take(&mut sheet.bad_cells) {
            problems.error(place, why);
        }
        let (kind, seen) = recognise(&mut sheet, problems);
        // a text file of sentences (a comma makes two cells at most): a
        // note, not a table
        let prose = kind == Kind::Unknown
            && !sheet.source.is_workbook()
            && seen
                .iter()
                .all(|r| r.cells.iter().filter(|c| !c.is_empty()).count() <= 2);
        let rows = seen.into_iter().map(Ok).chain(sheet.rows);
        match kind {
            Kind::Results => {
                recognised += 1;
                out.cards
                    .extend(results::read(&sheet.source, rows, &sheet.merged, problems));
            }
            Kind::Racks => {
                recognised += 1;
                out.rack_cards
                    .extend(racks::read(&sheet.source, rows, &sheet.merged, problems));
            }
            Kind::ScoreCard => {
                recognised += 1;
                out.cards.extend(scorecard::read(
                    &sheet.source,
                    rows,
                    &sheet.merged,
                    problems,
                ));
            }
            Kind::Roster => {
                recognised += 1;
                rosters += 1;
                problems.warning(
                    sheet.source.whole(),
                    "this is a roster, not cards: it was not read here (give it with --roster)",
                );
            }
            Kind::Empty => {}
            Kind::Unknown => unknown.push((sheet.source, prose)),
        }
        out.sheets += 1;
    }
    for (source, prose) in unknown {
        let what = if prose {
            "this is text, not a table of score cards (a note?): keep notes apart from the card files"
        } else {
            "no known layout: expected a results header (session, table, game, seat, player, won, score, tiles), a racks header (session, table, game, seat, player, points, jokers, tiles, penalty, or rack) or a printed score card (Session number, Table number, Name, Game Won / Score / Tiles on rack)"
        };
        // In a workbook with cards, an extra sheet (notes, a cover) is no error.
        if recognised > 0 && in_workbook > 1 {
            problems.warning(source.whole(), format!("sheet skipped: {what}"));
        } else {
            problems.error(source.whole(), what);
        }
    }
    let seats = out.cards[cards_before..]
        .iter()
        .flat_map(|c| c.seats.iter().map(|s| (&c.source, s)))
        .chain(
            out.rack_cards[racks_before..]
                .iter()
                .flat_map(|c| c.grouped.seats.iter().map(|s| (&c.source, s))),
        );
    check_names(seats, limits, problems);
    let found = out.cards.len() > cards_before || out.rack_cards.len() > racks_before;
    if !found && rosters == 0 && problems.error_count() == errors_before {
        problems.error(
            Source::file(name).whole(),
            "no cards found: the file is empty, or holds nothing but a header or blank lines",
        );
    }
}

/// Player names and ids longer than the limit, each marked unreadable.
pub fn check_names<'a>(
    seats: impl Iterator<Item = (&'a Source, &'a raw::RawSeat)>,
    limits: &Limits,
    problems: &mut Problems,
) {
    for (source, seat) in seats {
        // (a character is at least a byte: a name of no more bytes than
        // the limit is within it without counting its characters)
        if seat.player.len() as u64 <= limits.name_chars {
            continue;
        }
        let n = seat.player.chars().count() as u64;
        if n > limits.name_chars {
            problems.unreadable(
                source.place(seat.at),
                format!(
                    "a player of {n} characters; {}",
                    limits::hint(limits.name_chars, "TILERANK_MAX_NAME_CHARS")
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    /// A large file read in two halves is its bytes, at every length about
    /// the size the halves start from (an odd one too: halves of unequal
    /// length).
    #[test]
    fn a_large_file_read_in_halves_is_its_bytes() {
        let dir = std::env::temp_dir().join(format!("tilerank-halves-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let from = super::HALVES_FROM as usize;
        for len in [from - 1, from, from + 1, from + 4097] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + i / 251) as u8).collect();
            let path = dir.join(format!("{len}.csv"));
            std::fs::write(&path, &bytes).unwrap();
            let read = super::read_whole(&path).unwrap();
            assert!(read == bytes, "{len} bytes read back differently");
            // (the halves themselves, not the whole read they fall back on)
            if !cfg!(unix) {
                continue;
            }
            let file = std::fs::File::open(&path).unwrap();
            let halves = super::read_halves(&file, len as u64);
            assert!(
                halves.as_deref() == Some(&bytes[..]),
                "{len} bytes in halves"
            );
            // a file longer than it was said to be is not taken in halves
            assert!(super::read_halves(&file, len as u64 - 1).is_none());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
