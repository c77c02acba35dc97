//! CSV: a header of FORMATS.md column names, then the rows; several tables
//! follow each other, each after a blank line and named on the line above
//! its header (the name of its sheet in a workbook). Text that came from input and
//! could start a formula is written with a leading `'`; numbers (negative
//! scores) stay numbers.

use super::{
    looks_like_formula, Chunks, ExportError, Exporter, Given, RowSink, Streamed, Table, Value,
    TWO_THREADS_FROM,
};
use crate::score::Score;

pub struct Csv;

impl Exporter for Csv {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        let mut out = Vec::new();
        write(tables.iter().map(Table::streamed).collect(), &mut out)?;
        Ok(out)
    }
}

/// The tables to `out`, each row written as it is made. A long table
/// ([`TWO_THREADS_FROM`] rows and more) whose rows are made in [`Chunks`]
/// (the standings: making a row is as much work as writing it) is made
/// and written on two threads, a chunk at a time; a table whose rows are
/// already made (a listed [`Table`]) is written here.
pub fn write(tables: Vec<Streamed<'_>>, out: &mut dyn std::io::Write) -> Result<(), ExportError> {
    write_with(tables, out, TWO_THREADS_FROM)
}

/// Chunks a thread may have made and written, waiting to be put out.
const CHUNKS_AHEAD: usize = 4;

/// As [`write`], tables in chunks of `ahead_from` rows and more on two
/// threads.
fn write_with(
    tables: Vec<Streamed<'_>>,
    out: &mut dyn std::io::Write,
    ahead_from: usize,
) -> Result<(), ExportError> {
    // (several tables: each is named on a line of its own, above its
    // header, as a sheet of the workbook is)
    let named = tables.len() > 1;
    for (i, table) in tables.into_iter().enumerate() {
        let mut bytes = Vec::new();
        if i > 0 {
            bytes.push(b'\n');
        }
        if named {
            push_record(&mut bytes, std::iter::once(field(Given::Text(&table.name))));
        }
        let names = table.columns.iter().map(|c| Field::Text(c.name));
        push_record(&mut bytes, names);
        match table.chunks.as_ref().filter(|c| c.rows >= ahead_from) {
            Some(chunks) => {
                out.write_all(&bytes)?;
                write_chunks(chunks, out)?;
            }
            None => write_rows(&mut bytes, (table.rows)(), out)?,
        }
    }
    Ok(())
}

/// The rows of `chunks`, made and written as CSV a chunk at a time on two
/// threads (each its own chunks, in turn), the bytes put to `out` in
/// order on this one. A chunk's rows are dropped where they were made.
fn write_chunks(chunks: &Chunks<'_>, out: &mut dyn std::io::Write) -> Result<(), ExportError> {
    std::thread::scope(|scope| {
        let written = chunks.in_turn(scope, CHUNKS_AHEAD, |rows| {
            // (room for rows of some 64 bytes: a standings row is)
            let mut bytes = Vec::with_capacity(rows.len() * 64);
            // each value written as it is made: no row of values between
            (chunks.make)(rows, &mut Record::new(&mut bytes));
            Ok::<_, ExportError>(bytes)
        });
        // (a thread that stopped without its chunk panicked: said as the
        // scope ends)
        for bytes in written {
            out.write_all(&bytes?)?;
        }
        Ok(())
    })
}

/// Bytes gathered before they are put out, when rows are written here.
const WRITE_AT: usize = 64 << 10;

/// Each row of `rows` to `out`, after the bytes in `bytes`, put out every
/// [`WRITE_AT`] bytes.
fn write_rows(
    bytes: &mut Vec<u8>,
    rows: impl Iterator<Item = impl AsRef<[Value]>>,
    out: &mut dyn std::io::Write,
) -> Result<(), ExportError> {
    for row in rows {
        push_row(bytes, row.as_ref());
        if bytes.len() >= WRITE_AT {
            out.write_all(bytes)?;
            bytes.clear();
        }
    }
    out.write_all(bytes)?;
    Ok(())
}

/// A row's CSV record, at the end of `bytes`.
fn push_row(bytes: &mut Vec<u8>, row: &[Value]) {
    let mut record = Record::new(bytes);
    for value in row {
        record.value(value.as_given());
    }
    record.end_row();
}

/// A field as it is written.
enum Field<'a> {
    Text(&'a str),
    /// A text written after a `'`: it could start a formula.
    Guarded(&'a str),
    Int(i64),
    Score(Score),
}

/// What field a value is written as: a text (one that could start a
/// formula guarded), or a number.
fn field(value: Given<'_>) -> Field<'_> {
    match value {
        Given::Text(t) if looks_like_formula(t) => Field::Guarded(t),
        Given::Text(t) => Field::Text(t),
        Given::Empty => Field::Text(""),
        Given::Int(i) => Field::Int(i),
        Given::Score(s) => Field::Score(s),
    }
}

/// A record's fields, written as the csv crate writes a record, at the end
/// of `bytes`: a comma between fields, a line feed after; a field that
/// holds a comma, a quote or a line break (`\r` or `\n`) quoted, each of
/// its quotes doubled; a record of one empty field written `""`, so that
/// it is not a blank line.
fn push_record<'a>(bytes: &mut Vec<u8>, fields: impl Iterator<Item = Field<'a>>) {
    let mut record = Record::new(bytes);
    for field in fields {
        record.field(field);
    }
    record.end_row();
}

/// The bytes for which a field is quoted (see [`push_record`]).
const QUOTED_FOR: [bool; 256] = {
    let mut table = [false; 256];
    table[b',' as usize] = true;
    table[b'"' as usize] = true;
    table[b'\r' as usize] = true;
    table[b'\n' as usize] = true;
    table
};

/// Records being written, one after another, at the end of their bytes
/// (see [`push_record`]).
struct Record<'b> {
    bytes: &'b mut Vec<u8>,
    /// Where the record being written starts.
    start: usize,
    fields: usize,
}

impl<'b> Record<'b> {
    fn new(bytes: &'b mut Vec<u8>) -> Record<'b> {
        let start = bytes.len();
        Record {
            bytes,
            start,
            fields: 0,
        }
    }

    fn field(&mut self, field: Field<'_>) {
        let bytes = &mut *self.bytes;
        if self.fields > 0 {
            bytes.push(b',');
        }
        self.fields += 1;
        match field {
            Field::Int(n) => bytes.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            // (digits, a sign and a point: never quoted)
            Field::Score(s) => _ = s.write_printed(&mut Bytes(bytes)),
            Field::Text(t) => text(bytes, b"", t),
            Field::Guarded(t) => text(bytes, b"'", t),
        }
    }

    /// Ends the record; the next field starts another.
    fn end_row(&mut self) {
        if self.bytes.len() == self.start {
            self.bytes.extend_from_slice(b"\"\"");
        }
        self.bytes.push(b'\n');
        self.start = self.bytes.len();
        self.fields = 0;
    }
}

impl RowSink for Record<'_> {
    fn value(&mut self, value: Given<'_>) {
        self.field(field(value));
    }

    fn end_row(&mut self) {
        Record::end_row(self);
    }
}

/// Text `t` after `prefix` (which holds nothing to quote), as one field:
/// quoted when it holds what [`QUOTED_FOR`] says.
fn text(bytes: &mut Vec<u8>, prefix: &[u8], t: &str) {
    if !t.bytes().any(|b| QUOTED_FOR[usize::from(b)]) {
        bytes.extend_from_slice(prefix);
        bytes.extend_from_slice(t.as_bytes());
        return;
    }
    bytes.push(b'"');
    bytes.extend_from_slice(prefix);
    for part in t.split_inclusive('"') {
        bytes.extend_from_slice(part.as_bytes());
        if part.ends_with('"') {
            bytes.push(b'"');
        }
    }
    bytes.push(b'"');
}

/// Bytes written to as text (a score printed into a record).
struct Bytes<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Bytes<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;
    use crate::report::CHUNK_ROWS;
    use crate::score::Score;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// Records are written as the csv crate writes them: the same
        /// bytes, whatever their fields hold (commas, quotes, line breaks,
        /// nothing) and however many they are.
        #[test]
        fn records_are_written_as_the_csv_crate_writes_them(
            records in proptest::collection::vec(
                proptest::collection::vec("[a,\"\r\n '=é名]{0,6}", 0..4),
                0..5,
            ),
            number in proptest::prelude::any::<i64>(),
        ) {
            let mut ours = Vec::new();
            let mut w = ::csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
            for (k, fields) in records.iter().enumerate() {
                let with_number = k % 2 == 1;
                let mut texts: Vec<String> = fields.clone();
                if with_number {
                    texts.push(number.to_string());
                }
                push_record(
                    &mut ours,
                    fields
                        .iter()
                        .map(|t| Field::Text(t))
                        .chain(with_number.then_some(Field::Int(number))),
                );
                w.write_record(&texts).unwrap();
            }
            let theirs = w.into_inner().unwrap();
            proptest::prop_assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(theirs).unwrap());
        }
    }

    #[test]
    fn text_never_starts_a_formula_and_numbers_stay_numbers() {
        let table = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![Column::text("name"), Column::score("score")],
            rows: vec![
                vec![
                    Value::Text("=HYPERLINK(\"x\")".into()),
                    Value::Score(Score::ratio(-10, 3)),
                ],
                vec![
                    Value::Text("Chan, Tai Man".into()),
                    Value::Score(Score::whole(5)),
                ],
            ],
            notes: vec![],
        };
        let out = String::from_utf8(Csv.export(&[table]).unwrap()).unwrap();
        assert_eq!(
            out,
            "name,score\n\"'=HYPERLINK(\"\"x\"\")\",-3.33\n\"Chan, Tai Man\",5\n"
        );
    }

    /// Long tables are written on two threads: the same bytes as on one,
    /// for tables of fewer rows than a batch, of many batches, and one
    /// after another.
    #[test]
    fn rows_written_on_two_threads_are_the_rows_written_on_one() {
        let table = |n: i64| Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![
                Column::text("name"),
                Column::score("score"),
                Column::int("n"),
            ],
            rows: (0..n)
                .map(|i| {
                    vec![
                        match i % 3 {
                            0 => Value::Text(format!("=P{i}").into()),
                            1 => Value::Empty,
                            _ => Value::Text(format!("Chan, {i}").into()),
                        },
                        Value::Score(Score::ratio(-i, 3)),
                        Value::Int(i),
                    ]
                })
                .collect(),
            notes: vec![],
        };
        let tables = [
            table(5),
            table(3 * CHUNK_ROWS as i64 + 7),
            table(0),
            table(CHUNK_ROWS as i64),
        ];
        let written = |ahead_from: usize| {
            let mut out = Vec::new();
            write_with(
                tables.iter().map(Table::streamed).collect(),
                &mut out,
                ahead_from,
            )
            .unwrap();
            out
        };
        let one = written(usize::MAX);
        assert_eq!(
            one.iter().filter(|&&b| b == b'\n').count(),
            // rows, headers, names, the blank lines between
            4 * CHUNK_ROWS + 12 + 4 + 4 + 3
        );
        assert!(one.starts_with(b"t\nname,score,n\n'=P0,0,0\n"));
        // the rows made and written a chunk at a time, on two threads
        let in_chunks = |ahead_from: usize| {
            let mut out = Vec::new();
            let streamed = tables.iter().map(Table::chunked);
            write_with(streamed.collect(), &mut out, ahead_from).unwrap();
            out
        };
        for ahead_from in [0, CHUNK_ROWS, usize::MAX] {
            assert_eq!(
                String::from_utf8(in_chunks(ahead_from)).unwrap(),
                String::from_utf8(one.clone()).unwrap(),
                "{ahead_from}"
            );
        }
    }

    /// A place that stops taking bytes (a full disk) ends the writing with
    /// its error, on two threads as on one.
    #[test]
    fn a_failing_output_ends_the_writing_with_its_error() {
        struct Full(usize);
        impl std::io::Write for Full {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                if self.0 < buf.len() {
                    return Err(std::io::Error::other("no space left"));
                }
                self.0 -= buf.len();
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let table = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![Column::int("n")],
            rows: (0..100_000).map(|i| vec![Value::Int(i)]).collect(),
            notes: vec![],
        };
        let e = write_with(vec![table.streamed()], &mut Full(50_000), 0).unwrap_err();
        assert!(e.to_string().contains("no space left"), "{e}");
        // made and written in chunks
        let e = write_with(vec![table.chunked()], &mut Full(50_000), 0).unwrap_err();
        assert!(e.to_string().contains("no space left"), "{e}");
    }
}
