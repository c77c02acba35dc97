//! CSV: a header of FORMATS.md column names, then the rows; several tables
//! follow each other, each after a blank line. Text that came from input and
//! could start a formula is written with a leading `'`; numbers (negative
//! scores) stay numbers.

use super::{
    looks_like_formula, Chunks, ExportError, Exporter, Streamed, Table, Value, TWO_THREADS_FROM,
};

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
    for (i, table) in tables.into_iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
        }
        let mut w = ::csv::Writer::from_writer(&mut *out);
        w.write_record(table.columns.iter().map(|c| c.name))?;
        match table.chunks.as_ref().filter(|c| c.rows >= ahead_from) {
            Some(chunks) => {
                w.flush()?;
                drop(w);
                write_chunks(chunks, out)?;
            }
            None => {
                write_rows(&mut w, (table.rows)())?;
                w.flush()?;
            }
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
            let mut bytes = Vec::new();
            let mut w = ::csv::Writer::from_writer(&mut bytes);
            let done = write_rows(&mut w, rows.iter()).and_then(|()| Ok(w.flush()?));
            drop(w);
            done.map(|()| bytes)
        });
        // (a thread that stopped without its chunk panicked: said as the
        // scope ends)
        for bytes in written {
            out.write_all(&bytes?)?;
        }
        Ok(())
    })
}

/// Each row of `rows` to `w`.
fn write_rows<W: std::io::Write>(
    w: &mut ::csv::Writer<W>,
    rows: impl Iterator<Item = impl AsRef<[Value]>>,
) -> Result<(), ExportError> {
    // one buffer for the cells that are not already text
    let mut text = String::new();
    for row in rows {
        for value in row.as_ref() {
            w.write_field(cell(value, &mut text))?;
        }
        w.write_record(None::<&[u8]>)?;
    }
    Ok(())
}

/// The cell's text: its own, or written in `buf`.
fn cell<'a>(value: &'a Value, buf: &'a mut String) -> &'a str {
    buf.clear();
    match value {
        Value::Text(t) if looks_like_formula(t) => {
            buf.push('\'');
            buf.push_str(t);
        }
        Value::Text(t) => return t,
        Value::Empty => return "",
        Value::Int(i) => buf.push_str(itoa::Buffer::new().format(*i)),
        // (writing to a String does not fail)
        Value::Score(s) => _ = s.write_printed(buf),
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;
    use crate::report::CHUNK_ROWS;
    use crate::score::Score;

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
            4 * CHUNK_ROWS + 12 + 4 + 3
        );
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
