//! The terminal: an aligned table, numbers to the right, sized to the
//! terminal when standard output is one, else to `COLUMNS` when set, else
//! as wide as the content (comfy-table measures CJK names as two columns a
//! character, and wraps cells to fit).
//!
//! No colour: the tables are read, copied and pasted; what matters (`Q`,
//! `W`, `DQ`, a tie at the cutoff) is written in words, so nothing is lost
//! without colour and `NO_COLOR` has nothing to switch off.

use super::{ExportError, Exporter, Kind, Table, Value};
use comfy_table::{
    CellAlignment, ColumnConstraint, ContentArrangement, LineStyle, TableStyle, Width,
};
use unicode_width::UnicodeWidthStr;

/// Text columns at most this wide are kept whole.
const SHORT: usize = 12;

/// The narrowest a wrapped text column gets.
const MIN_WRAPPED: u16 = 12;

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

/// `COLUMNS`, when standard output is not a terminal (a terminal's own
/// width wins).
fn columns_env() -> Option<u16> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        return None;
    }
    std::env::var("COLUMNS")
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|&w| w >= 20)
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
            if let Some(w) = self.width.or_else(columns_env) {
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
            // Numbers, ids and other short values never wrap; long text
            // (names, notes) wraps to fit the width, never narrower than
            // MIN_WRAPPED.
            for (i, &c) in shown.iter().enumerate() {
                let kind = table.columns[c].kind;
                let widest = table
                    .rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|v| v.to_string().width())
                    .chain([table.columns[c].name.width()])
                    .max()
                    .unwrap_or(0);
                if let Some(col) = t.column_mut(i) {
                    col.set_padding((1, 0));
                    if kind != Kind::Text {
                        col.set_cell_alignment(CellAlignment::Right);
                    }
                    if kind != Kind::Text || widest <= SHORT {
                        col.set_constraint(ColumnConstraint::ContentWidth);
                    } else {
                        col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
                            MIN_WRAPPED.min(widest as u16),
                        )));
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

    #[test]
    fn chinese_names_line_up() {
        let table = Table {
            name: "t".into(),
            title: "Standings".into(),
            columns: vec![Column::text("name"), Column::int("won")],
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

    #[test]
    fn a_narrow_terminal_wraps_names_and_notes_never_numbers() {
        let table = Table {
            name: "t".into(),
            title: "Standings".into(),
            columns: vec![
                Column::int("rank"),
                Column::text("name"),
                Column::score("avg_score"),
                Column::text("note"),
            ],
            rows: vec![
                vec![
                    Value::Int(120),
                    Value::Text("陳大文陳大文陳大文陳大文陳大文".into()),
                    Value::Score(crate::score::Score::ratio(-470, 3)),
                    Value::Text("tie at cutoff, shared rank 120".into()),
                ],
                vec![
                    Value::Int(2),
                    Value::Text("Vivian Ng Pik Sze Chan Tai Man".into()),
                    Value::Score(crate::score::Score::whole(5)),
                    Value::Empty,
                ],
            ],
            notes: vec![],
        };
        let text =
            String::from_utf8(Terminal { width: Some(50) }.export(&[table]).unwrap()).unwrap();
        let body: Vec<&str> = text.lines().skip(1).collect();
        assert!(body.iter().all(|l| l.width() == body[0].width()), "{text}");
        assert!(body[0].width() <= 50, "{text}");
        assert!(
            text.contains("-156.67") && text.contains("avg_score"),
            "{text}"
        );
        assert!(text.lines().count() > 6, "names and notes wrap: {text}");
    }
}
