//! Reading inputs: files and folders, CSV and workbooks, every sheet on its
//! own, each sheet's layout recognised from its header (FORMATS.md).
//!
//! Readers only map a layout to [`raw::RawCard`]s, keeping every value as a
//! cell with its place; the rules decide what the values mean
//! ([`crate::rules::card_checks`]). A sheet is read as a stream of rows, so a
//! large results file is never held as a grid.

pub mod cell;
pub mod contained;
pub mod hashes;
pub mod header;
pub mod limits;
pub mod lines;
pub mod once;
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
use crate::problem::said::{Msg, Part, Said};
use crate::problem::Problems;
use cell::Row;
use limits::Limits;
use std::io::Read;
use std::path::{Path, PathBuf};
use text::RowError;

/// A file that cannot be read at all (exit status 2), as opposed to data
/// that is wrong (listed as problems, exit status 1).
#[derive(Clone, Debug, thiserror::Error)]
pub enum InputError {
    #[error("{path}: no such file or folder")]
    NotFound { path: String },
    #[error("{path}: cannot be read: {reason}")]
    Unreadable { path: String, reason: String },
    /// A symbolic link that leads to nothing to read ([`broken_link`]).
    #[error("{path}: {link}")]
    BrokenLink { path: String, link: BrokenLink },
    #[error(
        "{path}: the folder holds no CSV or workbook file (.csv .tsv .txt .xlsx .xlsm .xls .ods)"
    )]
    EmptyFolder { path: String },
    /// A folder whose CSV and workbook files all lie deeper than
    /// the folder depth read (8): how many, and the first by name.
    #[error(
        "{path}: the folder holds no CSV or workbook file, in it or in its folders up to {} deep; {} deeper and {} not read ({first}): move the cards up, or give their folder",
        FOLDER_DEPTH,
        files_lie(*files),
        if *files == 1 { "was" } else { "were" }
    )]
    TooDeep {
        path: String,
        files: usize,
        first: String,
    },
    /// A folder that holds CSV or workbook files within the folder depth
    /// read (8) and others deeper: those would be left out of the run
    /// unsaid, so none is read.
    #[error(
        "{path}: {} more than {} folders deep in it and would not be read ({first}): move the cards up, or give their folder",
        files_lie(*files),
        FOLDER_DEPTH
    )]
    SomeTooDeep {
        path: String,
        files: usize,
        first: String,
    },
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
            InputError::BrokenLink { path, link } => (file(path), link.to_string()),
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

/// `1 file lies` or `3 files lie`.
fn files_lie(files: usize) -> String {
    match files {
        1 => "1 file lies".to_string(),
        n => format!("{n} files lie"),
    }
}

/// Why a symbolic link leads to nothing to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrokenLink {
    /// It names a path where nothing is (its target, as the link says it).
    ToNothing(PathBuf),
    /// It leads back to itself, through other links or none.
    Loop,
}

impl std::fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrokenLink::ToNothing(target) => write!(
                f,
                "a symbolic link to {}, where there is no file or folder",
                target.display()
            ),
            BrokenLink::Loop => f.write_str(
                "a symbolic link that leads round in a loop (back to itself through links): no file or folder to read",
            ),
        }
    }
}

/// Whether `path` is a symbolic link that cannot be followed to a file or
/// folder, and why: a path it names has nothing there, or its links lead
/// back to one met before. `None` when it can be followed, or is no link.
pub fn broken_link(path: &Path) -> Option<BrokenLink> {
    if std::fs::metadata(path).is_ok() {
        return None;
    }
    let mut at = path.to_path_buf();
    let mut seen = std::collections::HashSet::new();
    // (links followed at most as many times as a system follows them)
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                if !seen.insert(at.clone()) {
                    return Some(BrokenLink::Loop);
                }
                let target = std::fs::read_link(&at).ok()?;
                // (a link's relative target is read from the link's folder)
                at = match at.parent() {
                    Some(folder) => folder.join(target),
                    None => target,
                };
            }
            // something there that cannot be read for another reason
            Ok(_) => return None,
            Err(_) if at == path => return None,
            Err(_) => {
                let target = std::fs::read_link(path).unwrap_or(at);
                return Some(BrokenLink::ToNothing(target));
            }
        }
    }
    Some(BrokenLink::Loop)
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
    pub encoding: Option<text::Encoded>,
    /// Cells the workbook reader could not read, each an error at its place;
    /// the rest of the sheet is in `rows`.
    pub bad_cells: Vec<(Place, String)>,
    /// A workbook sheet's merged ranges.
    pub merged: Vec<workbook::Merge>,
    /// A workbook sheet hidden in it: not read ([`read_or_skip`]).
    pub hidden: bool,
}

/// Whether `sheet` is read, and what its reader should know first: a
/// sheet hidden in its workbook is not read, and a warning says so (what
/// is hidden is what the person typing did not see and check against the
/// signed cards: an old copy, a template, a lookup list; a card the event
/// expects and does not get is listed missing); a CSV file that is not
/// UTF-8 is read in the encoding judged most likely, and a note names it
/// (a wrong judgement shows as garbled names), and says when the judgement
/// rests on a few letters only ([`text::FEW_TO_GUESS`]); it is said at
/// the line of the first byte that is not UTF-8, and names its character
/// (one stray byte, a letter typed in another encoding, is mended there).
pub fn read_or_skip(sheet: &Sheet, problems: &mut Problems) -> bool {
    if let Some(encoding) = sheet.encoding {
        let msg = if encoding.from_few {
            Msg::NotUtf8FromFew
        } else {
            Msg::NotUtf8
        };
        let (place, at) = match encoding.first_bad {
            Some(bad) => (
                sheet.source.at(bad.line, None),
                Part::said(
                    Msg::FirstNotUtf8,
                    [
                        Part::text(format!("0x{:02X}", bad.byte)),
                        Part::text(bad.char),
                    ],
                ),
            ),
            None => (sheet.source.whole(), Part::text("")),
        };
        problems.note(place, Said::new(msg, [Part::text(encoding.name), at]));
    }
    if sheet.hidden {
        problems.warning(sheet.source.whole(), Said::new(Msg::HiddenSheet, []));
    }
    !sheet.hidden
}

/// A sheet's rows: a CSV text's (which a reader may split itself: see
/// [`text::CsvRows::into_plain`]), or a workbook sheet's.
pub enum Rows {
    Csv(text::CsvRows),
    Cells(std::vec::IntoIter<Row>),
}

impl Iterator for Rows {
    type Item = Result<Row, RowError>;

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
    let mut files = expand_all(inputs)?;
    // A file named twice (`cards/` and `cards/S01.xlsx`, `./cards` and
    // `cards`, an event folder's own cards given again) is read once: its
    // cards are not each "given twice".
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| {
        f.as_os_str() == "-" || seen.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone()))
    });
    Ok(files)
}

fn expand_all(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut files = Vec::new();
    for input in inputs {
        if input.as_os_str() == "-" {
            files.push(input.clone());
            continue;
        }
        let meta = std::fs::metadata(input).map_err(|_| match broken_link(input) {
            Some(link) => InputError::BrokenLink {
                path: shown(input),
                link,
            },
            None => InputError::NotFound { path: shown(input) },
        })?;
        if meta.is_dir() {
            let mut walk = Walk::default();
            walk.data_files_in(input, 0, FOLDER_DEPTH)?;
            let mut inside = walk.found;
            inside.sort();
            let error = too_deep(input, walk.deeper)?;
            if inside.is_empty() {
                return Err(error);
            }
            // some cards found, others deeper: none is left out unsaid
            if let InputError::TooDeep { path, files, first } = error {
                return Err(InputError::SomeTooDeep { path, files, first });
            }
            files.extend(inside);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

/// Folders within folders read at most (a folder given is 0).
const FOLDER_DEPTH: usize = 8;

/// Folders within folders looked into beyond [`FOLDER_DEPTH`] only to say
/// what lies there, when nothing was found within it ([`too_deep`]).
const FOLDER_DEPTH_LOOKED: usize = 4 * FOLDER_DEPTH;

/// A walk through a folder and the folders in it.
#[derive(Default)]
struct Walk {
    /// The folders met, by canonical path.
    seen: std::collections::HashSet<PathBuf>,
    /// The CSV and workbook files found.
    found: Vec<PathBuf>,
    /// The folders left, deeper than the walk goes.
    deeper: Vec<PathBuf>,
}

impl Walk {
    /// The CSV and workbook files in the folder `dir`, and in the folders
    /// in it (a session's cards in a folder of their own: `cards/S01/`),
    /// to `found`. A hidden folder (`.git`) is not read, nor one met again
    /// through a link (`seen`), nor one deeper than `limit` (to
    /// `deeper`).
    fn data_files_in(&mut self, dir: &Path, depth: usize, limit: usize) -> Result<(), InputError> {
        let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if self.seen.contains(&canonical) {
            return Ok(());
        }
        if depth > limit {
            self.deeper.push(dir.to_path_buf());
            return Ok(());
        }
        self.seen.insert(canonical);
        let entries = std::fs::read_dir(dir).map_err(|e| InputError::Unreadable {
            path: shown(dir),
            reason: e.to_string(),
        })?;
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                if !hidden(&path) {
                    self.data_files_in(&path, depth + 1, limit)?;
                }
            } else if path.is_file() {
                if is_data_file(&path) {
                    self.found.push(path);
                }
            } else if (is_data_file(&path) || (extension(&path).is_none() && !hidden(&path)))
                && broken_link(&path).is_some()
            {
                // a link that leads nowhere where a card file or a folder
                // of cards may have been: read as a file, and said as one
                // given that cannot be read ([`read_whole`])
                self.found.push(path);
            }
        }
        Ok(())
    }
}

/// The error of folder `dir` in which no CSV or workbook file was found
/// within [`FOLDER_DEPTH`]: it holds none, or those it holds lie deeper
/// (in `deeper`, the folders left), said with how many (looked for
/// [`FOLDER_DEPTH_LOOKED`] folders deep) and the first by name.
fn too_deep(dir: &Path, deeper: Vec<PathBuf>) -> Result<InputError, InputError> {
    let mut walk = Walk::default();
    for folder in &deeper {
        walk.data_files_in(folder, FOLDER_DEPTH + 1, FOLDER_DEPTH_LOOKED)?;
    }
    walk.found.sort();
    Ok(match walk.found.first() {
        None => InputError::EmptyFolder { path: shown(dir) },
        Some(first) => InputError::TooDeep {
            path: shown(dir),
            files: walk.found.len(),
            first: shown(first),
        },
    })
}

/// Whether the file or folder `path` is hidden (its name begins with a
/// dot: `.git`, an editor's `.#S01.csv`).
fn hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
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

/// Opens a file as its sheets: one for a CSV file, one per workbook sheet.
/// The file is read whole within the limits (`read_limited`): a line
/// longer than [`Limits::line_bytes`] or a file longer than
/// [`Limits::file_bytes`] is refused as it is read, so that a device or a
/// pipe that never ends (`/dev/zero`) is not held. The bytes read are
/// hashed, while a command keeps the hashes of what it reads
/// ([`hashes::ReadHashes`]). Standard input, a pipe or a device, opened
/// again while a command reads its inputs twice, gives what it gave
/// ([`once`]).
pub fn open(path: &Path) -> Result<Vec<Sheet>, InputError> {
    let limits = Limits::from_env()?;
    let name = shown(path);
    note_read(path);
    let bytes = source_bytes(path, &name, &limits)?;
    hashes::whole_file(path, &bytes);
    // (the bytes themselves when no one else holds them, else a copy)
    let bytes = std::rc::Rc::try_unwrap(bytes).unwrap_or_else(|kept| kept.to_vec());
    read_bytes(&name, bytes, &limits)
}

/// The bytes of `path` (shown as `name`), read whole within the limits;
/// a source that gives its bytes once, as it gave them ([`once`]).
fn source_bytes(path: &Path, name: &str, limits: &Limits) -> Result<once::Bytes, InputError> {
    once::bytes(path, || {
        if path.as_os_str() == "-" {
            read_limited(std::io::stdin().lock(), name, false, limits)
        } else {
            read_whole(path, name, limits)
        }
    })
}

/// The bytes of a source that gives them once (standard input, a pipe),
/// read whole within the limits, while they can be read again: while a
/// [`once::Replay`] is held (else `None`, as for a regular file, which
/// is read where it lies). What the streaming reader reads such a source
/// from; should it give up, the ordinary reader is given the same bytes.
pub(crate) fn held_bytes(path: &Path) -> Option<once::Bytes> {
    if !once::is_held() || !once::gives_once(path) {
        return None;
    }
    let limits = Limits::from_env().ok()?;
    source_bytes(path, &shown(path), &limits).ok()
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

/// What is read of a file at a time (and what it may be read past a
/// limit before it is refused).
const BLOCK: u64 = 1 << 20;

/// A file's bytes, within the limits (see [`read_limited`]). A large one
/// (a roster of a million players with a quoted field, 33 MB) is read in
/// two halves at once, on two threads: the memory the bytes go into is
/// made ready by the system as they are written into it, and that took
/// one processor some 20 ms for such a file.
fn read_whole(path: &Path, name: &str, limits: &Limits) -> Result<Vec<u8>, InputError> {
    let file = std::fs::File::open(path).map_err(|e| match broken_link(path) {
        Some(link) => InputError::BrokenLink {
            path: name.to_string(),
            link,
        },
        None => unreadable(name, &e),
    })?;
    let meta = file.metadata().map_err(|e| unreadable(name, &e))?;
    if meta.is_file() && meta.len() > limits.file_bytes {
        return Err(too_long(name, Some(meta.len()), limits));
    }
    if meta.is_file() && meta.len() >= HALVES_FROM {
        let mut first = [0u8; 32];
        let lines = read_exact_at(&file, &mut first, 0)
            .ok()
            .and_then(|()| LineWatch::for_start(name, &first, limits));
        if let Some(bytes) = read_halves(&file, meta.len(), lines.as_ref()) {
            return Ok(bytes);
        }
    }
    read_limited(file, name, meta.is_file(), limits)
}

fn unreadable(name: &str, e: &std::io::Error) -> InputError {
    InputError::Unreadable {
        path: name.to_string(),
        reason: e.to_string(),
    }
}

/// A file over [`Limits::file_bytes`]: of `len` bytes, when known.
fn too_long(name: &str, len: Option<u64>, limits: &Limits) -> InputError {
    let size = match len {
        Some(n) => format!("{n} bytes"),
        None => format!("more than {} bytes", limits.file_bytes),
    };
    InputError::Limit {
        place: Source::file(name).whole(),
        message: format!(
            "a file of {size}, read whole; {}",
            limits::hint(limits.file_bytes, "TILERANK_MAX_FILE_BYTES")
        ),
    }
}

/// Follows the lines of a CSV text as its bytes are read: a line longer
/// than [`Limits::line_bytes`] is found as soon as its bytes are, before
/// more are read. (A text's lines are measured exactly once it is decoded,
/// [`text::check_lengths`]; here a line is over only when its bytes are
/// surely too many for any text: a byte order mark and a carriage return
/// are let through, and a UTF-16 text's two bytes a character.)
struct LineWatch {
    /// The bytes a line may have here, its line feed not counted.
    bound: u64,
    utf16: bool,
    /// The line being read (from 1), and where it starts.
    line: u32,
    start: u64,
    /// The bytes followed so far.
    at: u64,
}

/// A line found over the limit: its number, and where it starts and ends
/// (its line feed) when its end was read.
struct LongLine {
    line: u32,
    start: u64,
    end: Option<u64>,
}

impl LineWatch {
    /// The watch for a file whose first bytes are `first` (at least 32,
    /// or the whole file): `None` for a workbook (by its name or its
    /// bytes), or a file of another kind (a photo), whose bytes are no
    /// lines.
    fn for_start(name: &str, first: &[u8], limits: &Limits) -> Option<LineWatch> {
        let named_workbook =
            extension(Path::new(name)).is_some_and(|e| WORKBOOK_EXTENSIONS.contains(&e.as_str()));
        if named_workbook
            || workbook::format_of(first).is_some()
            || not_spreadsheet_kind(first).is_some()
        {
            return None;
        }
        let utf16 = first.starts_with(&[0xFF, 0xFE]) || first.starts_with(&[0xFE, 0xFF]);
        let bound = if utf16 {
            limits.line_bytes.saturating_mul(2).saturating_add(4)
        } else {
            limits.line_bytes.saturating_add(4)
        };
        Some(LineWatch {
            bound,
            utf16,
            line: 1,
            start: 0,
            at: 0,
        })
    }

    /// Follows the next bytes read: the first line found over the bound.
    fn follow(&mut self, bytes: &[u8]) -> Option<LongLine> {
        for i in memchr::memchr_iter(b'\n', bytes) {
            let end = self.at + i as u64;
            if end - self.start > self.bound {
                return Some(LongLine {
                    line: self.line,
                    start: self.start,
                    end: Some(end),
                });
            }
            self.line = self.line.saturating_add(1);
            self.start = end + 1;
        }
        self.at += bytes.len() as u64;
        (self.at - self.start > self.bound).then_some(LongLine {
            line: self.line,
            start: self.start,
            end: None,
        })
    }
}

/// Reads a file, a pipe or a device whole, refusing a line longer than
/// [`Limits::line_bytes`] (in a CSV text) and more bytes than
/// [`Limits::file_bytes`] as they are read: what is held is never more
/// than a block past a limit. `regular`: the source is a regular file,
/// whose end is near: a line over the limit is read to its end, not
/// held, to say its length.
fn read_limited(
    mut source: impl Read,
    name: &str,
    regular: bool,
    limits: &Limits,
) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    let mut watch: Option<Option<LineWatch>> = None;
    let mut followed = 0;
    loop {
        let n = (&mut source)
            .take(BLOCK)
            .read_to_end(&mut bytes)
            .map_err(|e| unreadable(name, &e))?;
        // (whether the bytes are lines is judged on the first 32)
        if watch.is_none() && (n == 0 || bytes.len() >= 32) {
            watch = Some(LineWatch::for_start(name, &bytes, limits));
        }
        if let Some(Some(lines)) = &mut watch {
            if let Some(long) = lines.follow(&bytes[followed..]) {
                let utf16 = lines.utf16;
                return Err(long_line(
                    name, &bytes, long, utf16, regular, source, limits,
                ));
            }
            followed = bytes.len();
        }
        if bytes.len() as u64 > limits.file_bytes {
            return Err(too_long(name, None, limits));
        }
        if n == 0 {
            return Ok(bytes);
        }
    }
}

/// The error of a line over [`Limits::line_bytes`], found as it was read:
/// its length said when its end was read or is near (a regular file's,
/// read on to it and not held), else that it is longer than the limit.
fn long_line(
    name: &str,
    bytes: &[u8],
    long: LongLine,
    utf16: bool,
    regular: bool,
    mut rest: impl Read,
    limits: &Limits,
) -> InputError {
    let start = long.start as usize;
    // the line's bytes, and its last byte (a carriage return is its line
    // break's)
    let len = match long.end {
        Some(end) => Some((end - long.start, bytes.get(end as usize - 1).copied())),
        None if regular => {
            let (mut len, mut last) = ((bytes.len() - start) as u64, bytes.last().copied());
            let mut block = vec![0u8; 1 << 16];
            loop {
                match rest.read(&mut block) {
                    Ok(0) => break Some((len, last)),
                    Ok(n) => match memchr::memchr(b'\n', &block[..n]) {
                        Some(i) => {
                            len += i as u64;
                            last = if i > 0 { Some(block[i - 1]) } else { last };
                            break Some((len, last));
                        }
                        None => {
                            len += n as u64;
                            last = Some(block[n - 1]);
                        }
                    },
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break None,
                }
            }
        }
        None => None,
    };
    let bom = if start == 0 && bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let size = match len.filter(|_| !utf16) {
        Some((len, last)) => format!("{} bytes", len - u64::from(last == Some(b'\r')) - bom),
        None => format!("more than {} bytes", limits.line_bytes),
    };
    InputError::Limit {
        place: Source::file(name).at(long.line, None),
        message: format!(
            "a line of {size}; {}",
            limits::hint(limits.line_bytes, "TILERANK_MAX_LINE_BYTES")
        ),
    }
}

/// The `len` bytes of `file`, read in two halves at once; `None` when the
/// file is no longer `len` bytes long or a half cannot be read (it is
/// then read again, whole, as it is now), or on a system without
/// positioned reads; `None` too as soon as a half holds a run of bytes
/// without a line feed longer than `lines` lets a line be (the whole
/// read then says which line, holding no more of it).
fn read_halves(file: &std::fs::File, len: u64, lines: Option<&LineWatch>) -> Option<Vec<u8>> {
    let len_bytes = usize::try_from(len).ok()?;
    let mut bytes = vec![0u8; len_bytes];
    let half = len_bytes / 2;
    let (first, second) = bytes.split_at_mut(half);
    let bound = lines.map(|l| l.bound);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let read_half = |buf: &mut [u8], at: u64| -> std::io::Result<()> {
        use std::sync::atomic::Ordering::Relaxed;
        // (the bytes since the last line feed: a lower bound of the
        // line's, for the second half)
        let mut run = 0u64;
        let mut done = 0;
        for piece in buf.chunks_mut(BLOCK as usize) {
            if stop.load(Relaxed) {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            read_exact_at(file, piece, at + done)?;
            done += piece.len() as u64;
            if let Some(bound) = bound {
                let (mut from, mut carried) = (0, run);
                for lf in memchr::memchr_iter(b'\n', piece) {
                    if carried + (lf - from) as u64 > bound {
                        stop.store(true, Relaxed);
                        return Err(std::io::ErrorKind::InvalidData.into());
                    }
                    (from, carried) = (lf + 1, 0);
                }
                run = carried + (piece.len() - from) as u64;
                if run > bound {
                    stop.store(true, Relaxed);
                    return Err(std::io::ErrorKind::InvalidData.into());
                }
            }
        }
        Ok(())
    };
    let (a, b) = std::thread::scope(|scope| {
        let second = scope.spawn(|| read_half(second, half as u64));
        let a = read_half(first, 0);
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
                    hidden: s.hidden,
                }
            })
            .collect());
    }
    let (text, encoding) = text::decode_owned(bytes).map_err(|reason| InputError::Unreadable {
        path: name.to_string(),
        reason,
    })?;
    text::check_lengths(&text, name, limits)?;
    Ok(vec![Sheet {
        source: Source::file(name),
        rows: Rows::Csv(text::CsvRows::new(text)),
        encoding,
        bad_cells: Vec::new(),
        merged: Vec::new(),
        hidden: false,
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
                problems.error(sheet.source.place(e.at), e.message);
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
    /// The sheets of workbooks read (a CSV file has none).
    pub sheets: usize,
    /// Cards read back from the event's store (not from a file).
    pub stored: usize,
    /// Cards set aside for differing from the event's card of their table
    /// (an error each, said already): read and rejected.
    pub differing: usize,
}

impl CardInputs {
    /// The stage of every card read: `stage` when one is given (`import
    /// --stage`), whatever the cards say; else each printed card's title
    /// read against the event's `stages` ([`scorecard::settle_stage`]).
    pub fn set_stage(&mut self, stage: Option<&str>, stages: &[String], problems: &mut Problems) {
        match stage {
            Some(s) => {
                let s = crate::domain::Stage::new(s);
                for card in &mut self.cards {
                    card.key.stage = s.clone();
                    card.title = None;
                }
                for card in &mut self.rack_cards {
                    card.grouped.key.stage = s.clone();
                }
            }
            None => {
                for card in &mut self.cards {
                    scorecard::settle_stage(card, stages, problems);
                }
            }
        }
    }
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
    if let Some(version) = exported_by(&sheets) {
        problems.warning(
            Source::file(name).whole(),
            Said::new(Msg::ExportNotCards, [Part::text(version)]),
        );
        return;
    }
    let (cards_before, racks_before) = (out.cards.len(), out.rack_cards.len());
    let errors_before = problems.error_count();
    let in_workbook = sheets.len();
    let mut recognised = 0;
    let mut rosters = 0;
    let mut unknown = Vec::new();
    // Blank cards as printed (a stage's cards typed table by table): no
    // card yet, skipped as an empty sheet is, each said.
    let mut untyped = Vec::new();
    for mut sheet in sheets {
        if !read_or_skip(&sheet, problems) {
            continue;
        }
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
        let nearest = if kind == Kind::Unknown && !prose {
            nearest_layout(&seen, sheet.source.is_workbook())
        } else {
            None
        };
        // (a CSV file has no sheets: the summary counts a workbook's)
        if sheet.source.is_workbook() {
            out.sheets += 1;
        }
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
                match scorecard::read(&sheet.source, rows, &sheet.merged, problems) {
                    Some(card) if scorecard::nothing_typed(&card) => untyped.push(card),
                    card => out.cards.extend(card),
                }
            }
            Kind::Roster => {
                recognised += 1;
                rosters += 1;
                problems.warning(sheet.source.whole(), Said::new(Msg::RosterNotCards, []));
            }
            Kind::Empty => {}
            Kind::Unknown => unknown.push((sheet.source, prose, nearest)),
        }
    }
    for (source, prose, nearest) in unknown {
        let what = if prose {
            "this is text, not a table of score cards (a note?): keep notes apart from the card files".to_string()
        } else {
            let nearest = nearest.map(|n| format!("{n}; ")).unwrap_or_default();
            format!("no known layout: {nearest}expected a results header (session, table, game, seat, player, won, score, tiles), a racks header (session, table, game, seat, player, points, jokers, tiles, penalty, or rack) or a printed score card (Session number, Table number, Name, Game Won / Score / Tiles on rack)")
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
        .flat_map(|c| c.seats.iter().chain(&c.renamed).map(|s| (&c.source, s)))
        .chain(out.rack_cards[racks_before..].iter().flat_map(|c| {
            let g = &c.grouped;
            g.seats.iter().chain(&g.renamed).map(|s| (&c.source, s))
        }));
    check_names(seats, limits, problems);
    let found = out.cards.len() > cards_before || out.rack_cards.len() > racks_before;
    let nothing_else = !found && rosters == 0 && problems.error_count() == errors_before;
    if nothing_else && !untyped.is_empty() {
        // (a file of blank cards only: nothing read, one error of the file,
        // not a warning of each blank card first)
        problems.error(
            Source::file(name).whole(),
            Said::new(
                Msg::NothingTypedInFile,
                [Part::count(
                    untyped.len(),
                    Msg::OneBlankCard,
                    Msg::BlankCards,
                )],
            ),
        );
    } else if nothing_else {
        problems.error(
            Source::file(name).whole(),
            "no cards found: the file is empty, or holds nothing but a header or blank lines",
        );
    } else {
        for card in &untyped {
            problems.warning(
                card.source.whole(),
                Said::of_card(&card.key, Said::new(Msg::NothingTyped, [])),
            );
        }
    }
}

/// The version of tilerank that exported the workbook of `sheets`
/// (`tilerank export`), when it is one: its `Settings` sheet, under the
/// header `Setting, Value`, names `tilerank` and a version. Its `Games`
/// sheet is in the results layout, and lists cards read already: read as
/// cards, each would be given twice.
fn exported_by(sheets: &[Sheet]) -> Option<String> {
    sheets
        .iter()
        .filter(|s| s.source.sheet.as_deref() == Some("Settings"))
        .find_map(|s| {
            let Rows::Cells(rows) = &s.rows else {
                return None;
            };
            let rows = rows.as_slice();
            let text = |r: &Row, i: usize| r.get(i).as_text();
            let header = rows.iter().find(|r| !r.is_blank())?;
            if !(text(header, 0).eq_ignore_ascii_case("setting")
                && text(header, 1).eq_ignore_ascii_case("value"))
            {
                return None;
            }
            rows.iter()
                .find(|r| text(r, 0) == "tilerank" && !r.get(1).is_empty())
                .map(|r| text(r, 1))
        })
}

/// What the row of `seen` nearest a known layout lacks of it, said: the
/// layout that knows the most of a row's cells (as many at least as the
/// columns it lacks), the fewest lacking on a tie. (A printed score card
/// has no header row to be near.)
fn nearest_layout(seen: &[Row], workbook: bool) -> Option<String> {
    type Lacking = fn(&[String]) -> (usize, Vec<String>);
    let layouts: [(&str, Lacking); 3] = [
        ("results", |t| header::lacking(t, &results::columns(), None)),
        ("racks", racks::lacking),
        ("roster", roster::lacking),
    ];
    let mut best: Option<(usize, usize, u32, &str, Vec<String>)> = None;
    for row in seen.iter().filter(|r| !r.is_blank()) {
        let texts: Vec<String> = row.cells.iter().map(|c| c.as_text()).collect();
        for (layout, lacking) in layouts {
            let (found, lacks) = lacking(&texts);
            if found == 0 || lacks.is_empty() || found < lacks.len() {
                continue;
            }
            let better = best.as_ref().is_none_or(|(f, l, ..)| {
                (found, std::cmp::Reverse(lacks.len())) > (*f, std::cmp::Reverse(*l))
            });
            if better {
                best = Some((found, lacks.len(), row.number, layout, lacks));
            }
        }
    }
    let (_, _, number, layout, lacks) = best?;
    let (list, them) = match lacks.split_last() {
        Some((last, [])) => (last.clone(), "column"),
        Some((last, rest)) => (format!("{} and {last}", rest.join(", ")), "columns"),
        None => return None,
    };
    let line = if workbook { "row" } else { "line" };
    Some(format!(
        "the header in {line} {number} comes nearest the {layout} layout, but has no {list} {them}"
    ))
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
    use super::limits::Limits;

    /// A large file read in two halves is its bytes, at every length about
    /// the size the halves start from (an odd one too: halves of unequal
    /// length).
    #[test]
    fn a_large_file_read_in_halves_is_its_bytes() {
        let dir = std::env::temp_dir().join(format!("tilerank-halves-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let from = super::HALVES_FROM as usize;
        let limits = Limits::default();
        for len in [from - 1, from, from + 1, from + 4097] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + i / 251) as u8).collect();
            let path = dir.join(format!("{len}.csv"));
            std::fs::write(&path, &bytes).unwrap();
            let read = super::read_whole(&path, "f.csv", &limits).unwrap();
            assert!(read == bytes, "{len} bytes read back differently");
            // (the halves themselves, not the whole read they fall back on)
            if !cfg!(unix) {
                continue;
            }
            let file = std::fs::File::open(&path).unwrap();
            let watch = super::LineWatch::for_start("f.csv", &bytes[..32], &limits);
            for lines in [None, watch.as_ref()] {
                let halves = super::read_halves(&file, len as u64, lines);
                assert!(
                    halves.as_deref() == Some(&bytes[..]),
                    "{len} bytes in halves"
                );
            }
            // a file longer than it was said to be is not taken in halves
            assert!(super::read_halves(&file, len as u64 - 1, None).is_none());
        }
        // a long line in either half: not taken in halves, and said by the
        // whole read at its line, its length read to its end
        for at in [from / 4, from * 3 / 4] {
            let mut text = "a,b\n".repeat(at / 4).into_bytes();
            text.extend(std::iter::repeat_n(b'x', 2 << 20));
            text.extend(b"\r\n".iter().chain(&b"a,b\n".repeat(from / 8)));
            let path = dir.join(format!("long-{at}.csv"));
            std::fs::write(&path, &text).unwrap();
            let file = std::fs::File::open(&path).unwrap();
            let watch = super::LineWatch::for_start("f.csv", &text, &limits);
            assert!(super::read_halves(&file, text.len() as u64, watch.as_ref()).is_none());
            let e = super::read_whole(&path, "f.csv", &limits).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "f.csv:{}: a line of 2097152 bytes; the limit is 1048576 (set TILERANK_MAX_LINE_BYTES to change it)",
                    at / 4 + 1
                )
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A source that never ends is refused as it is read: at a line too
    /// long, or (lines, or a workbook's bytes) at the bytes a file may
    /// have; what is held is never more than a block past the limit.
    #[test]
    fn a_source_that_never_ends_is_refused_as_it_is_read() {
        let limits = Limits {
            line_bytes: 1000,
            file_bytes: 3 << 20,
            ..Limits::default()
        };
        let read = |source: &mut dyn std::io::Read, name, regular| {
            super::read_limited(source, name, regular, &limits)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            read(&mut std::io::repeat(0), "zero", false),
            "zero:1: a line of more than 1000 bytes; the limit is 1000 (set TILERANK_MAX_LINE_BYTES to change it)"
        );
        assert_eq!(
            read(&mut std::io::repeat(b'\n'), "<stdin>", false),
            "<stdin>: a file of more than 3145728 bytes, read whole; the limit is 3145728 (set TILERANK_MAX_FILE_BYTES to change it)"
        );
        // a workbook's bytes are not lines
        assert!(read(&mut std::io::repeat(0), "big.xlsx", false).contains("a file of more than"));
        // a regular file's long line is measured to its end, its line
        // break and a byte order mark not counted
        let text = format!("\u{feff}{}\r\nok\n", "x".repeat(5000));
        assert_eq!(
            read(&mut std::io::Cursor::new(text), "f.csv", true),
            "f.csv:1: a line of 5000 bytes; the limit is 1000 (set TILERANK_MAX_LINE_BYTES to change it)"
        );
        let text = format!("a,b\n{}", "x".repeat(3 << 20));
        assert!(read(&mut std::io::Cursor::new(text), "f.csv", true)
            .starts_with("f.csv:2: a line of 3145728 bytes"));
        // lines at the limit, and a byte order mark or carriage return
        // more, are read (their lengths are checked once decoded)
        let text = format!("{}\r\n", "x".repeat(1003));
        assert!(super::read_limited(std::io::Cursor::new(text), "f.csv", true, &limits).is_ok());
    }
}
