//! Reports: what the tool prints and writes.
//!
//! Every report is built once as [`Table`]s (named columns, typed values)
//! and handed to one [`Exporter`] per format: the terminal, CSV, JSON or a
//! workbook. A new report touches only the code that builds its tables; a
//! new format, only its exporter.

pub mod board;
pub mod cards;
pub mod csv;
pub mod export;
pub mod going_on;
pub mod json;
pub mod output;
pub mod progress;
pub mod qr;
pub mod scorecard_xlsx;
pub mod site;
pub mod stages;
pub mod standings;
pub mod terminal;
pub mod words;
pub mod xlsx;

use crate::score::Score;
use std::fmt;
use std::str::FromStr;

/// A value in a report cell. A text of up to 24 bytes (an id, most names,
/// a note) is held in the value itself, not allocated: a million standings
/// rows make and drop millions of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Empty,
    Text(crate::ingest::cell::Text),
    Int(i64),
    /// Printed with at most two decimals.
    Score(Score),
}

impl Value {
    /// A text value, held in the value when it is short.
    pub fn text(s: &str) -> Value {
        Value::Text(s.into())
    }

    /// The value as a row gives it to a [`RowSink`].
    pub fn as_given(&self) -> Given<'_> {
        match self {
            Value::Empty => Given::Empty,
            Value::Text(t) => Given::Text(t),
            Value::Int(i) => Given::Int(*i),
            Value::Score(s) => Given::Score(*s),
        }
    }
}

/// A value as a row gives it, one after another, to a [`RowSink`]: its
/// text borrowed (a million standings rows' ids and names are read where
/// the roster holds them, not copied into values first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Given<'a> {
    Empty,
    Text(&'a str),
    Int(i64),
    Score(Score),
}

impl From<Given<'_>> for Value {
    fn from(g: Given<'_>) -> Value {
        match g {
            Given::Empty => Value::Empty,
            Given::Text(t) => Value::text(t),
            Given::Int(i) => Value::Int(i),
            Given::Score(s) => Value::Score(s),
        }
    }
}

/// Where a table's rows go as they are made, value by value: made into
/// [`Value`]s ([`Collected`]), or written as they come (a CSV writer
/// writes each value straight into its bytes).
pub trait RowSink {
    /// The row's next value.
    fn value(&mut self, value: Given<'_>);
    /// The row is over.
    fn end_row(&mut self);
}

/// Rows made into values.
#[derive(Default)]
pub struct Collected {
    pub rows: Vec<Vec<Value>>,
    row: Vec<Value>,
}

impl RowSink for Collected {
    fn value(&mut self, value: Given<'_>) {
        self.row.push(value.into());
    }

    fn end_row(&mut self) {
        let width = self.row.len();
        let row = std::mem::replace(&mut self.row, Vec::with_capacity(width));
        self.rows.push(row);
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Empty => Ok(()),
            Value::Text(t) => f.write_str(t),
            Value::Int(i) => write!(f, "{i}"),
            Value::Score(s) => write!(f, "{s}"),
        }
    }
}

/// How a column's values line up and are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Int,
    Score,
}

/// A column of a report: a stable machine name and how its values are
/// stored.
///
/// The name (`rank`, `avg_score`, ...) is what CSV headers and JSON keys
/// say: scripts depend on it, so it never changes. People read the
/// [`label`](Column::label) instead ("Average score"): the terminal and
/// workbook headers. Both lists are in `docs/formats.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The machine name of CSV headers and JSON keys.
    pub name: &'static str,
    pub kind: Kind,
    /// Which of the ranking's keys (the rules' tie-break order) the column
    /// holds, 0 for the first: the columns that decide a standings
    /// table's order, which the terminal keeps longest. `None` for every
    /// other column.
    pub key: Option<u8>,
    /// The name whose words head the column, when they are not `name`'s:
    /// `total_penalty` ("Total penalty points") over `total_score` under
    /// penalty points ([`standings::headed`]). The machine name stays.
    pub heading: Option<&'static str>,
}

/// The words a person reads for each machine name. A name missing here
/// reads as itself with `_` as spaces and a capital first letter
/// (`parent_name` is "Parent name").
pub const LABELS: &[(&str, &str)] = &[
    ("player", "ID"),
    ("group", "Age group"),
    ("avg_score", "Average score"),
    ("total_score", "Total score"),
    ("avg_penalty", "Average penalty points"),
    ("total_penalty", "Total penalty points"),
    ("penalty", "Penalty points"),
    ("best_game", "Best game"),
    ("tiles", "Tiles left"),
    ("game_sum", "Sum of scores"),
    ("card_total", "Card total"),
    ("sha256", "SHA-256"),
];

impl Column {
    /// The header a person reads: "Average score" for `avg_score`.
    pub fn label(&self) -> String {
        label(self.heading_name())
    }

    /// The name whose words head the column ([`Column::heading`]).
    pub fn heading_name(&self) -> &'static str {
        self.heading.unwrap_or(self.name)
    }

    /// The column headed by `heading`'s words, its machine name kept.
    pub const fn headed_as(self, heading: &'static str) -> Column {
        Column {
            heading: Some(heading),
            ..self
        }
    }

    pub const fn text(name: &'static str) -> Column {
        Column {
            name,
            kind: Kind::Text,
            key: None,
            heading: None,
        }
    }

    pub const fn int(name: &'static str) -> Column {
        Column {
            name,
            kind: Kind::Int,
            key: None,
            heading: None,
        }
    }

    pub const fn score(name: &'static str) -> Column {
        Column {
            name,
            kind: Kind::Score,
            key: None,
            heading: None,
        }
    }

    /// The column as key `at` of the ranking (0 the first).
    pub const fn as_key(self, at: u8) -> Column {
        Column {
            key: Some(at),
            ..self
        }
    }
}

/// The header a person reads for a machine column name (see
/// [`Column::label`]).
pub fn label(name: &str) -> String {
    if let Some((_, label)) = LABELS.iter().find(|(n, _)| *n == name) {
        return (*label).to_string();
    }
    capitalised(&name.replace('_', " "))
}

/// `text` with its first letter a capital, as a heading starts
/// (`prelim, session S12` is `Prelim, session S12`); Chinese as it is.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One table of a report: a sheet in a workbook, one CSV or JSON array.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Short name, used as the sheet name (at most 31 characters).
    pub name: String,
    /// A title line for people (terminal heading, workbook header).
    pub title: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Value>>,
    /// Sentences printed under the table (ties at the cutoff, ...).
    pub notes: Vec<String>,
}

/// A table whose rows are made one at a time as they are written: a long
/// table, the standings of a million players, is never held as text. CSV
/// and JSON make its rows once; the terminal twice, once to measure the
/// columns and once to draw them. A listed [`Table`] is written as one
/// ([`Table::streamed`]).
pub struct Streamed<'a> {
    pub name: String,
    pub title: String,
    pub columns: Vec<Column>,
    /// Makes the rows, from the first, each time it is called.
    pub rows: Box<dyn Fn() -> RowMaker<'a> + 'a>,
    /// The same rows made a chunk at a time, on whichever thread asks: a
    /// writer may then make and write a long table's chunks on two
    /// threads at once (see [`Chunks`]).
    pub chunks: Option<Chunks<'a>>,
    pub notes: Vec<String>,
}

/// A table's rows, any range of them made on any thread: the rows of
/// [`Streamed::rows`], in the same order (a million standings rows: each
/// thread reads its players' ids, names and sums and writes their CSV,
/// and no row is handed from one thread to another).
pub struct Chunks<'a> {
    /// How many rows there are.
    pub rows: usize,
    /// Makes rows `range` (within `0..rows`), each given to the sink.
    #[allow(clippy::type_complexity)]
    pub make: Box<dyn Fn(std::ops::Range<usize>, &mut dyn RowSink) + Sync + 'a>,
}

/// From this many rows, a table is made and written on two threads: a
/// million standings rows are as much work to make (their players' ids,
/// names and sums read in ranking order, scattered in memory) as to
/// write, and both cores share it. Fewer are not worth the threads.
pub const TWO_THREADS_FROM: usize = 16 * 1024;

/// Rows made, or handed from one thread to another, at a time.
pub const CHUNK_ROWS: usize = 1024;

/// The threads that make a long table's chunks, a chunk each in turn.
const THREADS: usize = 2;

impl Chunks<'_> {
    /// Rows `range`, made into values.
    pub fn made(&self, range: std::ops::Range<usize>) -> Vec<Vec<Value>> {
        let mut made = Collected {
            rows: Vec::with_capacity(range.len()),
            row: Vec::new(),
        };
        (self.make)(range, &mut made);
        made.rows
    }

    /// The rows of chunk `i`.
    fn range(&self, i: usize) -> std::ops::Range<usize> {
        i * CHUNK_ROWS..self.rows.min((i + 1) * CHUNK_ROWS)
    }

    /// How many chunks there are, the last one short.
    fn count(&self) -> usize {
        self.rows.div_ceil(CHUNK_ROWS)
    }

    /// The rows, in order: from [`TWO_THREADS_FROM`] rows on, made on two
    /// threads of `scope`, a chunk each in turn, and handed on a chunk at
    /// a time as they are asked for (a chunk or two ahead); fewer, made
    /// here a chunk at a time. It says how many are left, exactly.
    pub fn rows_in<'scope>(
        &'scope self,
        scope: &'scope std::thread::Scope<'scope, '_>,
    ) -> MadeRows<'scope> {
        let from = if self.rows < TWO_THREADS_FROM {
            Made::Here(self)
        } else {
            Made::Threads(self.in_turn(scope, 1, |range| {
                Ok::<_, std::convert::Infallible>(self.made(range))
            }))
        };
        MadeRows {
            from,
            next: 0,
            chunk: Vec::new().into_iter(),
            left: self.rows,
        }
    }

    /// Each chunk's range of rows given to `work` on two threads of
    /// `scope` (the first thread's chunks 0, 2, 4..., the second's 1, 3,
    /// 5...), what it makes of them handed back in the chunks' order, up
    /// to its first error. A thread may have `ahead` chunks waiting.
    /// `work` makes the rows ([`Chunks::make`]) into what it hands back:
    /// the rows themselves, or their bytes.
    fn in_turn<'scope, T, E, W>(
        &'scope self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        ahead: usize,
        work: W,
    ) -> InTurn<'scope, T, E>
    where
        T: Send + 'scope,
        E: Send + 'scope,
        W: Fn(std::ops::Range<usize>) -> Result<T, E> + Send + Sync + 'scope,
    {
        let work = std::sync::Arc::new(work);
        let chunks = self.count();
        let mut from = Vec::with_capacity(THREADS);
        for first in 0..THREADS {
            let (to, made) = std::sync::mpsc::sync_channel(ahead);
            from.push(made);
            let work = std::sync::Arc::clone(&work);
            scope.spawn(move || {
                for chunk in (first..chunks).step_by(THREADS) {
                    let done = work(self.range(chunk));
                    let failed = done.is_err();
                    // (a closed channel: the rest is no longer wanted)
                    if to.send(done).is_err() || failed {
                        return;
                    }
                }
            });
        }
        InTurn {
            from,
            next: 0,
            chunks,
            scope: std::marker::PhantomData,
        }
    }
}

/// What the threads of [`Chunks::in_turn`] make of each chunk, in the
/// chunks' order; it ends after the first error, or where a thread
/// stopped without its chunk (a panic, said as the scope ends). Held only
/// within the scope: the scope's end waits for threads that wait for it
/// to take their work.
struct InTurn<'scope, T, E> {
    from: Vec<std::sync::mpsc::Receiver<Result<T, E>>>,
    /// The next chunk to take.
    next: usize,
    chunks: usize,
    scope: std::marker::PhantomData<&'scope ()>,
}

impl<T, E> Iterator for InTurn<'_, T, E> {
    type Item = Result<T, E>;

    fn next(&mut self) -> Option<Result<T, E>> {
        if self.next == self.chunks {
            return None;
        }
        let made = self.from[self.next % self.from.len()].recv().ok()?;
        // (the thread stopped there: nothing after it is in order)
        self.next = if made.is_ok() {
            self.next + 1
        } else {
            self.chunks
        };
        Some(made)
    }
}

/// The rows of [`Chunks::rows_in`], a chunk at a time; it says how many
/// are left, exactly.
pub struct MadeRows<'scope> {
    from: Made<'scope>,
    /// The next chunk to take.
    next: usize,
    chunk: std::vec::IntoIter<Vec<Value>>,
    left: usize,
}

/// Where [`MadeRows`] takes its chunks from.
enum Made<'scope> {
    /// Made here, each when it is asked for.
    Here(&'scope Chunks<'scope>),
    /// Made on two threads, taken from each in turn.
    Threads(InTurn<'scope, Vec<Vec<Value>>, std::convert::Infallible>),
}

impl Iterator for MadeRows<'_> {
    type Item = Vec<Value>;

    fn next(&mut self) -> Option<Vec<Value>> {
        if self.left == 0 {
            return None;
        }
        if self.chunk.len() == 0 {
            let made = match &mut self.from {
                Made::Here(chunks) if self.next < chunks.count() => {
                    Some(chunks.made(chunks.range(self.next)))
                }
                Made::Here(_) => None,
                Made::Threads(made) => made.next().map(|Ok(rows)| rows),
            };
            // (no chunk: a thread stopped; its panic is said as the scope
            // ends)
            let Some(made) = made else {
                self.left = 0;
                return None;
            };
            self.chunk = made.into_iter();
            self.next += 1;
        }
        let row = self.chunk.next();
        self.left = if row.is_some() { self.left - 1 } else { 0 };
        row
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

/// Rows made one at a time (borrowed from a listed table, or made).
pub type RowMaker<'a> = Box<dyn Iterator<Item = std::borrow::Cow<'a, [Value]>> + 'a>;

impl<'a> Streamed<'a> {
    /// The rows, from the first: made from its [`Chunks`] when it has
    /// them (a long table's on two threads of `scope`), else by
    /// [`Streamed::rows`].
    fn rows_in<'scope>(
        &'scope self,
        scope: &'scope std::thread::Scope<'scope, '_>,
    ) -> Box<dyn Iterator<Item = std::borrow::Cow<'a, [Value]>> + 'scope> {
        match &self.chunks {
            Some(chunks) => Box::new(chunks.rows_in(scope).map(std::borrow::Cow::Owned)),
            None => (self.rows)(),
        }
    }
}

impl Table {
    /// This table's rows, as they are written.
    pub fn streamed(&self) -> Streamed<'_> {
        Streamed {
            name: self.name.clone(),
            title: self.title.clone(),
            columns: self.columns.clone(),
            rows: Box::new(|| {
                Box::new(
                    self.rows
                        .iter()
                        .map(|r| std::borrow::Cow::Borrowed(r.as_slice())),
                )
            }),
            chunks: None,
            notes: self.notes.clone(),
        }
    }
}

#[cfg(test)]
impl Table {
    /// This table's rows, as they are written, and made in chunks on any
    /// thread as well (as the standings are).
    pub(crate) fn chunked(&self) -> Streamed<'_> {
        Streamed {
            chunks: Some(Chunks {
                rows: self.rows.len(),
                make: Box::new(|range, sink| {
                    for row in &self.rows[range] {
                        for value in row {
                            sink.value(value.as_given());
                        }
                        sink.end_row();
                    }
                }),
            }),
            ..self.streamed()
        }
    }
}

/// Output formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned table for the terminal
    Table,
    Csv,
    Json,
    Xlsx,
}

impl Format {
    /// The format's name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Xlsx => "xlsx",
        }
    }

    /// Whether tables in this format are written row by row as they are
    /// made ([`Format::stream`]).
    pub fn streams(self) -> bool {
        matches!(self, Format::Csv | Format::Json | Format::Table)
    }

    /// Writes `tables` to `out` as their rows are made (`to_file`: a
    /// terminal table in a file is never narrowed to the window); `false`
    /// (nothing written) for a format that lays out a table whole (a
    /// workbook).
    pub fn stream(
        self,
        tables: Vec<Streamed<'_>>,
        out: &mut dyn std::io::Write,
        to_file: bool,
    ) -> Result<bool, ExportError> {
        match self {
            Format::Csv => csv::write(tables, out)?,
            Format::Json => json::write(tables, out)?,
            Format::Table => {
                let terminal = if to_file {
                    terminal::Terminal::unlimited()
                } else {
                    terminal::Terminal::default()
                };
                terminal.write(tables, out)?
            }
            Format::Xlsx => return Ok(false),
        }
        Ok(true)
    }

    /// The format a file name implies: `.csv`, `.json`, `.xlsx`.
    pub fn from_path(path: &std::path::Path) -> Option<Format> {
        let ext = path.extension()?.to_string_lossy().to_lowercase();
        Format::from_str(&ext).ok()
    }

    /// The exporter of a file (`-o FILE`): a table in a file is never
    /// narrowed to the window.
    pub fn file_exporter(self) -> Box<dyn Exporter> {
        match self {
            Format::Table => Box::new(terminal::Terminal::unlimited()),
            other => other.exporter(),
        }
    }

    /// The exporter of standard output: a table fits the terminal when
    /// standard output is one.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            Format::Table => Box::new(terminal::Terminal::default()),
            Format::Csv => Box::new(csv::Csv),
            Format::Json => Box::new(json::Json),
            Format::Xlsx => Box::new(xlsx::Xlsx::default()),
        }
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_lowercase().as_str() {
            "table" | "txt" => Ok(Format::Table),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            "xlsx" => Ok(Format::Xlsx),
            other => Err(format!(
                "unknown format {other:?}: expected table, csv, json or xlsx"
            )),
        }
    }
}

/// Turns tables into the bytes of one format.
pub trait Exporter {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError>;
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("cannot write the workbook: {0}")]
    Xlsx(#[from] rust_xlsxwriter::XlsxError),
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot write: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Other(String),
}

/// A report that could not be written as it was made: the error of the
/// writing itself when there is one (a closed pipe is still a closed pipe).
impl From<ExportError> for std::io::Error {
    fn from(e: ExportError) -> std::io::Error {
        match e {
            ExportError::Io(e) => e,
            ExportError::Json(e) => match e.io_error_kind() {
                Some(kind) => std::io::Error::from(kind),
                None => std::io::Error::other(e),
            },
            other => std::io::Error::other(other.to_string()),
        }
    }
}

/// Text from input that a spreadsheet could take for a formula (`=`, `+`,
/// `-`, `@`, tab or CR at the start). A plain number (`-5`, `+11`,
/// `-3.33`) is not: a spreadsheet reads it as that number and nothing else.
pub fn looks_like_formula(text: &str) -> bool {
    text.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_plain_number(text)
}

/// `-5`, `+11`, `3.33`: a sign, digits, at most one point with digits after.
fn is_plain_number(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, "0"));
    !int.is_empty()
        && !frac.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_for_people_and_names_for_machines() {
        assert_eq!(Column::score("avg_score").label(), "Average score");
        assert_eq!(Column::score("total_score").label(), "Total score");
        assert_eq!(Column::int("tiles").label(), "Tiles left");
        assert_eq!(Column::text("player").label(), "ID");
        assert_eq!(Column::int("rank").label(), "Rank");
        assert_eq!(Column::text("parent_name").label(), "Parent name");
        assert_eq!(label("cards_rejected"), "Cards rejected");
        assert_eq!(label(""), "");
        // Every standings column has a label with no machine spelling left.
        for c in standings::COLUMNS {
            let l = c.label();
            assert!(!l.contains('_') && l.starts_with(char::is_uppercase), "{l}");
        }
    }

    /// Chunks of rows `0..n` (each row its number), noting the threads
    /// that made them; the first thread's chunks made slowly, so that
    /// the second's are ready first.
    fn numbered(
        n: usize,
        threads: &std::sync::Mutex<std::collections::HashSet<std::thread::ThreadId>>,
    ) -> Chunks<'_> {
        Chunks {
            rows: n,
            make: Box::new(move |range, sink| {
                if let Ok(mut threads) = threads.lock() {
                    threads.insert(std::thread::current().id());
                }
                if (range.start / CHUNK_ROWS).is_multiple_of(THREADS) {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                for i in range {
                    sink.value(Given::Int(i as i64));
                    sink.end_row();
                }
            }),
        }
    }

    /// A long table's rows made in chunks on two threads come in order,
    /// however soon each chunk is made, the last chunk short, and each
    /// step says exactly how many are left.
    #[test]
    fn rows_made_in_chunks_on_two_threads_come_in_order() {
        let n = TWO_THREADS_FROM + CHUNK_ROWS / 2 + 7;
        let threads = Default::default();
        let chunks = numbered(n, &threads);
        let made: Vec<Vec<Value>> = std::thread::scope(|scope| {
            let mut rows = chunks.rows_in(scope);
            let mut made = Vec::new();
            loop {
                let left = n - made.len();
                assert_eq!(rows.size_hint(), (left, Some(left)));
                let Some(row) = rows.next() else { break };
                made.push(row);
            }
            assert_eq!(rows.next(), None);
            made
        });
        let rows: Vec<Vec<Value>> = (0..n).map(|i| vec![Value::Int(i as i64)]).collect();
        assert!(made == rows, "the rows are out of order");
        drop(chunks);
        let threads = threads.into_inner().unwrap();
        assert_eq!(threads.len(), 2);
        assert!(!threads.contains(&std::thread::current().id()));
    }

    /// A short table's rows are made here, a chunk at a time, in order.
    #[test]
    fn a_short_tables_rows_are_made_here() {
        for n in [0, 1, CHUNK_ROWS, TWO_THREADS_FROM - 1] {
            let threads = Default::default();
            let chunks = numbered(n, &threads);
            let made: Vec<Vec<Value>> = std::thread::scope(|scope| {
                let rows = chunks.rows_in(scope);
                assert_eq!(rows.size_hint(), (n, Some(n)));
                rows.collect()
            });
            assert_eq!(made.len(), n);
            assert!(made
                .iter()
                .enumerate()
                .all(|(i, r)| r[..] == [Value::Int(i as i64)]));
            drop(chunks);
            let threads = threads.into_inner().unwrap();
            let here = std::iter::once(std::thread::current().id()).collect();
            assert_eq!(threads, if n == 0 { Default::default() } else { here });
        }
    }

    /// Work done on the chunks comes back in order up to its first error,
    /// which ends it.
    #[test]
    fn work_in_turn_stops_at_its_first_error() {
        let threads = Default::default();
        let chunks = numbered(10 * CHUNK_ROWS, &threads);
        let done: Vec<Result<i64, i64>> = std::thread::scope(|scope| {
            let first = |range| match chunks.made(range)[0][0] {
                Value::Int(i) if i == 5 * CHUNK_ROWS as i64 => Err(i),
                Value::Int(i) => Ok(i),
                _ => Err(-1),
            };
            chunks.in_turn(scope, 4, first).collect()
        });
        let firsts = (0..5).map(|i| Ok(i * CHUNK_ROWS as i64));
        let error = Err(5 * CHUNK_ROWS as i64);
        assert_eq!(done, firsts.chain([error]).collect::<Vec<_>>());
    }

    #[test]
    fn formula_starts_are_caught_and_plain_numbers_are_not() {
        for text in [
            "=HYPERLINK(\"x\")",
            "+1+1",
            "-2+3+cmd|' /C calc'!A0",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "-",
            "+",
            "-.5",
            "-1e3",
        ] {
            assert!(looks_like_formula(text), "{text:?}");
        }
        for text in ["-5", "+11", "-3.33", "Chan Tai Man", "陳大文", "5-3", ""] {
            assert!(!looks_like_formula(text), "{text:?}");
        }
    }
}
