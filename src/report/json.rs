//! JSON: one array of objects keyed by FORMATS.md column names; with several
//! tables, an object of arrays keyed by table name. Scores are numbers with
//! at most two decimals.

use super::{ExportError, Exporter, Table, Value};
use serde_json::{Map, Number, Value as J};

pub struct Json;

fn value(v: &Value) -> J {
    match v {
        Value::Empty => J::Null,
        Value::Text(t) => J::String(t.clone()),
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

fn rows(table: &Table) -> J {
    J::Array(
        table
            .rows
            .iter()
            .map(|row| {
                let obj: Map<String, J> = table
                    .columns
                    .iter()
                    .zip(row)
                    .map(|(c, v)| (c.name.to_string(), value(v)))
                    .collect();
                J::Object(obj)
            })
            .collect(),
    )
}

impl Exporter for Json {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        let doc = match tables {
            [one] => rows(one),
            many => J::Object(many.iter().map(|t| (t.name.clone(), rows(t))).collect()),
        };
        let mut out = serde_json::to_vec_pretty(&doc)?;
        out.push(b'\n');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;
    use crate::score::Score;

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
