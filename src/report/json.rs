//! JSON: one array of objects keyed by FORMATS.md column names; with several
//! tables, an object of arrays keyed by table name. Scores are numbers with
//! at most two decimals.

use super::{Column, ExportError, Exporter, Streamed, Table, Value};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Number, Value as J};
use std::thread::Scope;

pub struct Json;

fn value(v: &Value) -> J {
    match v {
        Value::Empty => J::Null,
        Value::Text(t) => J::String(t.to_string()),
        Value::Int(i) => J::Number((*i).into()),
        Value::Score(s) => {
            let h = s.hundredths();
            if h % 100 == 0 {
                J::Number((h / 100).into())
            } else {
                Number::from_f64(h as f64 / 100.0).map_or(J::Null, J::Number)
            }
        }
    }
}

/// A row as an object keyed by column name (in the order of the names).
fn object(columns: &[Column], row: &[Value]) -> J {
    let obj: Map<String, J> = columns
        .iter()
        .zip(row)
        .map(|(c, v)| (c.name.to_string(), value(v)))
        .collect();
    J::Object(obj)
}

/// A table's rows as a JSON array, each made as it is written (a long
/// table's on two threads of `scope`).
struct Rows<'s, 'e, 'a> {
    table: &'s Streamed<'a>,
    scope: &'s Scope<'s, 'e>,
}

impl Serialize for Rows<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for row in self.table.rows_in(self.scope) {
            seq.serialize_element(&object(&self.table.columns, &row))?;
        }
        seq.end()
    }
}

/// Several tables: an object of arrays keyed by table name (in the order
/// of the names; of two tables of one name, the last).
struct Tables<'s, 'e, 'a> {
    tables: &'s [Streamed<'a>],
    scope: &'s Scope<'s, 'e>,
}

impl Serialize for Tables<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut by_name = std::collections::BTreeMap::new();
        for (i, t) in self.tables.iter().enumerate() {
            by_name.insert(&t.name, i);
        }
        let mut map = s.serialize_map(Some(by_name.len()))?;
        for (name, i) in by_name {
            let rows = Rows {
                table: &self.tables[i],
                scope: self.scope,
            };
            map.serialize_entry(name, &rows)?;
        }
        map.end()
    }
}

/// The tables to `out`: one table as an array, several as an object of
/// arrays; each row written as it is made.
pub fn write(tables: Vec<Streamed<'_>>, out: &mut dyn std::io::Write) -> Result<(), ExportError> {
    std::thread::scope(|scope| match tables.as_slice() {
        [one] => serde_json::to_writer_pretty(&mut *out, &Rows { table: one, scope }),
        tables => serde_json::to_writer_pretty(&mut *out, &Tables { tables, scope }),
    })?;
    out.write_all(b"\n")?;
    Ok(())
}

impl Exporter for Json {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        let mut out = Vec::new();
        write(tables.iter().map(Table::streamed).collect(), &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;
    use crate::score::Score;

    /// The document as a whole, the way it was made before rows were
    /// written as they are made.
    fn whole(tables: &[Table]) -> Vec<u8> {
        let rows = |t: &Table| J::Array(t.rows.iter().map(|r| object(&t.columns, r)).collect());
        let doc = match tables {
            [one] => rows(one),
            many => J::Object(many.iter().map(|t| (t.name.clone(), rows(t))).collect()),
        };
        let mut out = serde_json::to_vec_pretty(&doc).unwrap();
        out.push(b'\n');
        out
    }

    #[test]
    fn rows_written_as_made_are_the_whole_document() {
        let table = |name: &str, n: usize| Table {
            name: name.into(),
            title: "t".into(),
            columns: vec![
                Column::int("rank"),
                Column::text("name"),
                Column::score("avg"),
            ],
            rows: (0..n)
                .map(|i| {
                    vec![
                        Value::Int(i as i64),
                        Value::Text(format!("P\"{i}\u{2212}").into()),
                        Value::Score(Score::ratio(i as i64, 3)),
                    ]
                })
                .collect(),
            notes: vec![],
        };
        for tables in [
            vec![table("a", 3)],
            vec![table("a", 0)],
            vec![table("b", 2), table("a", 1), table("b", 0)],
            vec![],
        ] {
            assert_eq!(
                String::from_utf8(Json.export(&tables).unwrap()).unwrap(),
                String::from_utf8(whole(&tables)).unwrap()
            );
        }
    }

    /// A table made in chunks, a long one on two threads, is the same
    /// document, alone or among others.
    #[test]
    fn rows_made_in_chunks_are_the_whole_document() {
        let table = |name: &str, n: usize| Table {
            name: name.into(),
            title: "t".into(),
            columns: vec![Column::int("rank"), Column::text("name")],
            rows: (0..n)
                .map(|i| vec![Value::Int(i as i64), Value::Text(format!("P{i}").into())])
                .collect(),
            notes: vec![],
        };
        let long = crate::report::TWO_THREADS_FROM + 5;
        for tables in [
            vec![table("a", long)],
            vec![table("a", 3)],
            vec![table("b", long), table("a", 2), table("c", long)],
        ] {
            let mut out = Vec::new();
            write(tables.iter().map(Table::chunked).collect(), &mut out).unwrap();
            assert!(out == whole(&tables), "{} tables differ", tables.len());
        }
    }

    #[test]
    fn scores_are_numbers_with_two_decimals() {
        let table = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![Column::int("rank"), Column::score("avg_score")],
            rows: vec![
                vec![Value::Int(1), Value::Score(Score::ratio(10, 3))],
                vec![Value::Empty, Value::Score(Score::whole(-4))],
            ],
            notes: vec![],
        };
        let out: J = serde_json::from_slice(&Json.export(&[table]).unwrap()).unwrap();
        assert_eq!(
            out,
            serde_json::json!([{"rank": 1, "avg_score": 3.33}, {"rank": null, "avg_score": -4}])
        );
    }
}
