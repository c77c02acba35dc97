//! CSV: a header of FORMATS.md column names, then the rows; several tables
//! follow each other, each after a blank line. Text that came from input and
//! could start a formula is written with a leading `'`; numbers (negative
//! scores) stay numbers.

use super::{looks_like_formula, ExportError, Exporter, Streamed, Table, Value};

pub struct Csv;

impl Exporter for Csv {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        let mut out = Vec::new();
        write(tables.iter().map(Table::streamed).collect(), &mut out)?;
        Ok(out)
    }
}

/// The tables to `out`, each row written as it is made.
pub fn write(tables: Vec<Streamed<'_>>, out: &mut dyn std::io::Write) -> Result<(), ExportError> {
    // one buffer for the cells that are not already text
    let mut text = String::new();
    for (i, table) in tables.into_iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
        }
        let mut w = ::csv::Writer::from_writer(&mut *out);
        w.write_record(table.columns.iter().map(|c| c.name))?;
        for row in (table.rows)() {
            for value in row.iter() {
                w.write_field(cell(value, &mut text))?;
            }
            w.write_record(None::<&[u8]>)?;
        }
        w.flush()?;
    }
    Ok(())
}

/// The cell's text: its own, or written in `buf`.
fn cell<'a>(value: &'a Value, buf: &'a mut String) -> &'a str {
    use std::fmt::Write;
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
        v => _ = write!(buf, "{v}"),
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;
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
}
