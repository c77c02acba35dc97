//! The terminal: an aligned table, numbers to the right, sized to the
//! terminal when standard output is one (comfy-table measures CJK names as
//! two columns a character).

use super::{ExportError, Exporter, Kind, Table, Value};
use comfy_table::{CellAlignment, ContentArrangement, LineStyle, TableStyle};

/// Rules above and below and under the header; no line between rows.
const STYLE: TableStyle = TableStyle::new()
    .top_border(LineStyle::none().fill('─').junction('─'))
    .header_separator(LineStyle::none().fill('─').junction('─'))
    .bottom_border(LineStyle::none().fill('─').junction('─'));

#[derive(Default)]
pub struct Terminal {
    /// A fixed width instead of the terminal's (tests, `COLUMNS`).
    pub width: Option<u16>,
}

impl Exporter for Terminal {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        let mut out = String::new();
        for (i, table) in tables.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&table.title);
            out.push('\n');
            let mut t = comfy_table::Table::new();
            t.load_style(STYLE);
            t.set_content_arrangement(ContentArrangement::Dynamic);
            if let Some(w) = self.width {
                t.set_width(w);
            }
            // Columns empty in every row are left out, to fit the width.
            let shown: Vec<usize> = (0..table.columns.len())
                .filter(|&i| {
                    table
                        .rows
                        .iter()
                        .any(|r| r.get(i).is_some_and(|v| *v != Value::Empty))
                })
                .collect();
            t.set_header(shown.iter().map(|&i| table.columns[i].name));
            for row in &table.rows {
                t.add_row(
                    shown
                        .iter()
                        .map(|&i| row.get(i).map(|v| v.to_string()).unwrap_or_default()),
                );
            }
            for (i, c) in shown.iter().map(|&i| &table.columns[i]).enumerate() {
                if c.kind != Kind::Text {
                    if let Some(col) = t.column_mut(i) {
                        col.set_cell_alignment(CellAlignment::Right);
                    }
                }
            }
            out.push_str(&t.to_string());
            out.push('\n');
            for note in &table.notes {
                out.push_str(note);
                out.push('\n');
            }
        }
        Ok(out.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn chinese_names_line_up() {
        let table = Table {
            name: "t".into(),
            title: "Standings".into(),
            columns: vec![
                Column {
                    name: "name",
                    kind: Kind::Text,
                },
                Column {
                    name: "won",
                    kind: Kind::Int,
                },
            ],
            rows: vec![
                vec![Value::Text("陳大文".into()), Value::Int(3)],
                vec![Value::Text("Chan Tai Man".into()), Value::Int(12)],
            ],
            notes: vec!["a note".into()],
        };
        let text =
            String::from_utf8(Terminal { width: Some(60) }.export(&[table]).unwrap()).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("Chan") || l.contains("陳"))
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].width(), lines[1].width(), "{text}");
        assert!(text.ends_with("a note\n"));
    }
}
