//! Workbooks: a sheet per table, made to look like what a careful person
//! makes in a spreadsheet program.
//!
//! - Typed cells: counts and ranks are numbers, scores numbers rounded to
//!   two decimals (the printed value, so that a sheet reads back equal to
//!   the CSV), text always text: a name from input beginning with `=` is a
//!   string with Excel's invisible quote prefix, never a formula.
//! - One number format a column: a column of scores shows every row with
//!   the decimals its values need, the same on every row (`477`, or
//!   `5.50` beside `68.67`); an average always with two (`50.00`).
//! - A column empty in every row is left out (the Age group of an event
//!   without groups), as the terminal and the site leave it out; a table
//!   with no rows keeps its columns, which say what it will hold.
//! - A bold header row in people's words ("Average score", see
//!   [`Column::label`](super::Column::label)), frozen, with a filter; widths that fit the content
//!   (CJK characters count double), long text wrapped.
//! - Print: A4, one page wide, landscape when the columns need it, the
//!   header row on every page, the event's name and the table's title at the
//!   top, `Page x of y` at the bottom. Notes under the table are merged
//!   across its width and wrapped so that they print whole.
//! - Excel's limits: sheet names of at most 31 characters without `[]:*?/\`,
//!   unique; at most 1,048,576 rows a sheet, refused before anything is
//!   written (with the advice to write CSV).

use super::{looks_like_formula, ExportError, Exporter, Kind, Table, Value};
use rust_xlsxwriter::{DocProperties, Format, FormatAlign, FormatBorder, Workbook, Worksheet};
use unicode_width::UnicodeWidthStr;

/// The workbook writer. `Xlsx::default()` writes no event name in the page
/// header.
#[derive(Clone, Debug, Default)]
pub struct Xlsx {
    /// The event's name, printed at the top of every page.
    pub event: Option<String>,
}

/// Excel's limit on rows in a sheet.
pub const MAX_ROWS: usize = 1_048_576;

/// The widest a column gets, in characters; longer text wraps at spaces.
const MAX_WIDTH: usize = 50;

/// The widest a column gets to hold a word that cannot wrap (a hash).
const MAX_WORD_WIDTH: usize = 80;

/// Points a line of text takes in a row (Calibri 11).
const LINE_HEIGHT: f64 = 15.0;

/// Printable width of an A4 portrait page at 100%, in column-width
/// characters (8.27 in less 1.4 in of margins, at about 0.073 in each).
const PORTRAIT_WIDTH: f64 = 94.0;

/// Characters of the page header Excel accepts.
const MAX_HEADER: usize = 255;

/// A sheet name within Excel's rules: at most 31 characters (UTF-16 units),
/// none of `[]:*?/\`, no apostrophe at either end, not `History` (reserved
/// by Excel), unique in the workbook ignoring case.
pub fn sheet_name(wanted: &str, taken: &[String]) -> String {
    let clean: String = wanted
        .chars()
        .map(|c| {
            if "[]:*?/\\".contains(c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let clean = clean.trim().trim_matches('\'').trim();
    let mut base = truncate_utf16(clean, 31).trim_end_matches('\'').to_string();
    if base.trim().is_empty() {
        base = "Sheet".to_string();
    }
    if base.eq_ignore_ascii_case("history") {
        base.push('_');
    }
    let is_taken = |name: &str| {
        let lower = name.to_lowercase();
        taken.iter().any(|t| t.to_lowercase() == lower)
    };
    let mut name = base.clone();
    let mut n = 2;
    while is_taken(&name) {
        let suffix = format!(" ({n})");
        let room = 31 - suffix.len();
        name = truncate_utf16(&base, room)
            .trim_end_matches('\'')
            .to_string()
            + &suffix;
        n += 1;
    }
    name
}

/// The sheet name of each table, in order, as the workbook has them.
pub fn sheet_names(tables: &[Table]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for table in tables {
        let name = sheet_name(&table.name, &names);
        names.push(name);
    }
    names
}

/// The longest start of `text` of at most `units` UTF-16 code units.
fn truncate_utf16(text: &str, units: usize) -> &str {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        used += c.len_utf16();
        if used > units {
            return &text[..i];
        }
    }
    text
}

/// The rows a table takes on its sheet: the header, the rows, and a blank
/// row then one row per note.
pub fn sheet_rows(table: &Table) -> usize {
    let notes = if table.notes.is_empty() {
        0
    } else {
        1 + table.notes.len()
    };
    1 + table.rows.len() + notes
}

/// Refuses tables that would not fit a sheet of `max_rows` rows, naming
/// each, before anything is written.
pub fn check_rows(tables: &[Table], max_rows: usize) -> Result<(), ExportError> {
    let too_long: Vec<String> = tables
        .iter()
        .filter(|t| sheet_rows(t) > max_rows)
        .map(|t| format!("{} needs {} rows", t.name, sheet_rows(t)))
        .collect();
    if too_long.is_empty() {
        return Ok(());
    }
    Err(ExportError::Other(format!(
        "a workbook sheet holds at most {max_rows} rows and {}: nothing written; write CSV instead (--format csv), which has no row limit",
        too_long.join(", ")
    )))
}

impl Exporter for Xlsx {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        self.write(tables, &mut |_| {})
    }
}

impl Xlsx {
    /// The workbook's bytes; `progress` is told of the rows written, a
    /// thousand at a time and at the end of each table.
    pub fn write(
        &self,
        tables: &[Table],
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<u8>, ExportError> {
        check_rows(tables, MAX_ROWS)?;
        let mut book = Workbook::new();
        let mut properties = DocProperties::new().set_author("tilerank");
        if let Some(event) = self.event.as_deref().filter(|e| !e.trim().is_empty()) {
            properties = properties.set_title(event);
        }
        book.set_properties(&properties);
        let formats = Formats::new();
        for (table, name) in tables.iter().zip(sheet_names(tables)) {
            let sheet = book.add_worksheet();
            sheet.set_name(&name)?;
            write_table(sheet, table, &formats, self.event.as_deref(), progress)?;
        }
        Ok(book.save_to_buffer()?)
    }
}

struct Formats {
    header: Format,
    header_number: Format,
    text: Format,
    score: Format,
    score_tenths: Format,
    int: Format,
    quoted: Format,
    wrapped: Format,
    wrapped_quoted: Format,
    note: Format,
}

impl Formats {
    fn new() -> Formats {
        // Text is indented by one character, so that it never touches the
        // right-aligned number before it.
        // Every cell at the top, so that a row grown for wrapped text
        // still reads across.
        let top = Format::new().set_align(FormatAlign::Top);
        let text = top.clone().set_align(FormatAlign::Left).set_indent(1);
        let wrapped = text.clone().set_text_wrap();
        let header = Format::new()
            .set_bold()
            .set_border_bottom(FormatBorder::Thin)
            .set_align(FormatAlign::Top);
        Formats {
            // Right, over the numbers' right edge, indented clear of the
            // filter button.
            header_number: header.clone().set_align(FormatAlign::Right).set_indent(2),
            header: header.set_align(FormatAlign::Left).set_indent(1),
            // A column of scores shows the decimals its values need, the
            // same on every row: 477 (the plain number format), 5.5, 68.67.
            score: top.clone().set_num_format("0.00"),
            score_tenths: top.clone().set_num_format("0.0"),
            int: top.clone(),
            quoted: text.clone().set_quote_prefix(),
            wrapped_quoted: wrapped.clone().set_quote_prefix(),
            wrapped,
            text,
            note: Format::new()
                .set_text_wrap()
                .set_align(FormatAlign::Top)
                .set_italic(),
        }
    }
}

/// The columns a sheet shows, by their place in the table: every column
/// that holds a value in some row; all of them when no row holds any (a
/// table with no rows yet).
fn shown_columns(table: &Table) -> Vec<usize> {
    let filled: Vec<usize> = (0..table.columns.len())
        .filter(|&c| {
            table
                .rows
                .iter()
                .any(|row| row.get(c).is_some_and(|v| *v != Value::Empty))
        })
        .collect();
    if filled.is_empty() {
        (0..table.columns.len()).collect()
    } else {
        filled
    }
}

/// Whether a column holds averages (`avg_score`): shown with two decimals
/// whatever its values.
fn is_average(name: &str) -> bool {
    name.starts_with("avg")
}

/// Decimals a score shows at the least: 0 for `477`, 1 for `5.5`, 2 for
/// `68.67` (of its printed value, rounded to two).
fn decimals_of(score: &crate::score::Score) -> usize {
    match score.hundredths() % 100 {
        0 => 0,
        h if h % 10 == 0 => 1,
        _ => 2,
    }
}

/// The decimals every score of column `c` shows: the most any of its
/// values needs, two for an average.
fn column_decimals(table: &Table, c: usize) -> usize {
    let needed = table
        .rows
        .iter()
        .filter_map(|row| match row.get(c) {
            Some(Value::Score(s)) => Some(decimals_of(s)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    if is_average(table.columns[c].name) {
        2
    } else {
        needed
    }
}

/// The text a cell shows: a score with its column's `decimals`.
fn shown(value: &Value, decimals: usize) -> String {
    match value {
        Value::Score(s) => format!("{:.*}", decimals, s.to_f64_rounded()),
        other => other.to_string(),
    }
}

/// Display width of the widest line of `text`.
fn text_width(text: &str) -> usize {
    text.lines().map(UnicodeWidthStr::width).max().unwrap_or(0)
}

/// The width in characters of each column of `cols` (places in the
/// table; scores shown with `decimals`, one each): the widest value or
/// header, with room for the header's filter button, at most
/// [`MAX_WIDTH`].
fn column_widths(table: &Table, cols: &[usize], decimals: &[usize]) -> Vec<usize> {
    // The header's filter button takes about two characters at the right
    // (a number's header is indented clear of it); text is indented by one.
    let mut widths: Vec<usize> = cols
        .iter()
        .map(|&c| {
            let c = &table.columns[c];
            c.label().width()
                + match c.kind {
                    Kind::Text => 4,
                    Kind::Int | Kind::Score => 5,
                }
        })
        .collect();
    // A column may be wider than MAX_WIDTH to hold its longest word.
    let mut words = vec![0; widths.len()];
    for row in &table.rows {
        for (k, &c) in cols.iter().enumerate() {
            let Some(v) = row.get(c) else { continue };
            let indent = usize::from(matches!(v, Value::Text(_)));
            widths[k] = widths[k].max(text_width(&shown(v, decimals[k])) + 1 + indent);
            if let Value::Text(t) = v {
                let longest = t.split_whitespace().map(|x| x.width()).max();
                words[k] = words[k].max(longest.unwrap_or(0) + 2);
            }
        }
    }
    widths
        .iter()
        .zip(words)
        .map(|(w, word)| (*w).clamp(4, MAX_WIDTH.max(word.min(MAX_WORD_WIDTH))))
        .collect()
}

/// Lines `text` takes wrapped in a column `width` characters wide (less the
/// indent and a margin, since wrapping is by words).
fn wrapped_lines(text: &str, width: usize) -> usize {
    let room = width.saturating_sub(3).max(1);
    text.lines()
        .map(|l| l.width().div_ceil(room).max(1))
        .sum::<usize>()
        .max(1)
}

/// `&` doubled, as headers and footers want it.
fn header_text(text: &str) -> String {
    text.replace('&', "&&")
}

fn write_table(
    sheet: &mut Worksheet,
    table: &Table,
    f: &Formats,
    event: Option<&str>,
    progress: &mut dyn FnMut(usize),
) -> Result<(), ExportError> {
    // The columns shown (by their place in the table), and the decimals
    // of each one's scores.
    let cols = shown_columns(table);
    let decimals: Vec<usize> = cols.iter().map(|&c| column_decimals(table, c)).collect();
    let score_formats: Vec<&Format> = decimals
        .iter()
        .map(|d| match d {
            0 => &f.int,
            1 => &f.score_tenths,
            _ => &f.score,
        })
        .collect();
    let widths = column_widths(table, &cols, &decimals);
    // Text longer than its column wraps instead of spilling or hiding.
    let wraps: Vec<bool> = table
        .rows
        .iter()
        .fold(vec![false; widths.len()], |mut acc, row| {
            for ((a, &c), w) in acc.iter_mut().zip(&cols).zip(&widths) {
                if let Some(Value::Text(t)) = row.get(c) {
                    *a |= text_width(t) + 2 > *w || t.contains('\n');
                }
            }
            acc
        });
    for (k, &c) in cols.iter().enumerate() {
        let col = &table.columns[c];
        let format = match col.kind {
            Kind::Text => &f.header,
            Kind::Int | Kind::Score => &f.header_number,
        };
        sheet.write_string_with_format(0, k as u16, col.label(), format)?;
    }
    let mut since = 0;
    for (r, row) in table.rows.iter().enumerate() {
        let r = r as u32 + 1;
        for (k, &c) in cols.iter().enumerate() {
            let Some(v) = row.get(c) else { continue };
            let c16 = k as u16;
            let wrap = wraps[k];
            match v {
                Value::Empty => {}
                Value::Text(t) => match (looks_like_formula(t), wrap) {
                    (true, true) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.wrapped_quoted)?;
                    }
                    (true, false) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.quoted)?;
                    }
                    (false, true) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.wrapped)?;
                    }
                    (false, false) => {
                        sheet.write_string_with_format(r, c16, t.as_str(), &f.text)?;
                    }
                },
                Value::Int(i) => {
                    sheet.write_number_with_format(r, c16, *i as f64, &f.int)?;
                }
                Value::Score(s) => {
                    sheet.write_number_with_format(r, c16, s.to_f64_rounded(), score_formats[k])?;
                }
            }
        }
        // Rows with wrapped text get the height of their lines (neither
        // writer nor reader measures them).
        let lines = cols
            .iter()
            .zip(&widths)
            .zip(&wraps)
            .filter_map(|((&c, w), wrap)| match row.get(c) {
                Some(Value::Text(t)) if *wrap => Some(wrapped_lines(t, *w)),
                _ => None,
            })
            .max()
            .unwrap_or(1);
        if lines > 1 {
            sheet.set_row_height(r, LINE_HEIGHT * lines as f64)?;
        }
        since += 1;
        if since == 1000 {
            progress(since);
            since = 0;
        }
    }
    progress(since);
    for (c, w) in widths.iter().enumerate() {
        sheet.set_column_width(c as u16, *w as f64)?;
    }
    let last_row = table.rows.len() as u32;
    let last_col = cols.len().saturating_sub(1) as u16;
    sheet.set_freeze_panes(1, 0)?;
    if !cols.is_empty() {
        sheet.autofilter(0, 0, last_row, last_col)?;
    }
    // Notes: merged across the table and wrapped, so they print whole.
    let total_width: usize = widths.iter().sum();
    for (i, note) in table.notes.iter().enumerate() {
        let r = last_row + 2 + i as u32;
        let lines = wrapped_lines(note, total_width);
        if last_col > 0 {
            sheet.merge_range(r, 0, r, last_col, note, &f.note)?;
        } else {
            sheet.write_string_with_format(r, 0, note, &f.note)?;
        }
        if lines > 1 {
            sheet.set_row_height(r, LINE_HEIGHT * lines as f64)?;
        }
    }
    // Print setup.
    if total_width as f64 > PORTRAIT_WIDTH {
        sheet.set_landscape();
    } else {
        sheet.set_portrait();
    }
    sheet.set_paper_size(9); // A4
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_repeat_rows(0, 0)?;
    sheet.set_margins(0.5, 0.5, 0.9, 0.7, 0.3, 0.3);
    let mut header = String::from("&C");
    if let Some(event) = event.filter(|e| !e.trim().is_empty()) {
        // The size before the font, so that a name starting with a digit
        // does not read as part of the size.
        header.push_str("&12&\"-,Bold\"");
        header.push_str(&header_text(event.trim()));
        header.push_str("&10&\"-,Regular\"\n");
    }
    header.push_str(&header_text(&table.title));
    if header.encode_utf16().count() > MAX_HEADER {
        let cut = truncate_utf16(&header, MAX_HEADER - 1);
        // A cut must not leave a lone `&` (a control character).
        header = cut.strip_suffix('&').unwrap_or(cut).to_string() + "…";
    }
    sheet.set_header(&header);
    sheet.set_footer("&L&A&CPage &P of &N");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;

    #[test]
    fn sheet_names_follow_excels_rules() {
        assert_eq!(sheet_name("prelim [50-64]", &[]), "prelim _50-64_");
        assert_eq!(
            sheet_name("a very long sheet name that goes on and on", &[])
                .chars()
                .count(),
            31
        );
        assert_eq!(
            sheet_name("Standings", &["standings".to_string()]),
            "Standings (2)"
        );
        assert_eq!(sheet_name("", &[]), "Sheet");
        assert_eq!(sheet_name("'quoted'", &[]), "quoted");
        assert_eq!(sheet_name("History", &[]), "History_");
        assert_eq!(sheet_name("ÄLTERE", &["ältere".to_string()]), "ÄLTERE (2)");
        let long = "x".repeat(30) + "'y";
        let name = sheet_name(&long, &[]);
        assert!(!name.ends_with('\''), "{name}");
        for odd in [
            "a/b:c*d?e[f]g\\h",
            "'",
            "長い名前の長い名前の長い名前の長い名前の長い名前の長い名前の",
            "😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀",
            "tab\there",
        ] {
            let name = sheet_name(odd, &[]);
            assert!(
                rust_xlsxwriter::utility::check_sheet_name(&name).is_ok(),
                "{odd:?} -> {name:?}"
            );
        }
    }

    fn table(rows: usize, notes: usize) -> Table {
        Table {
            name: "Games".into(),
            title: "t".into(),
            columns: vec![Column::int("n")],
            rows: (0..rows).map(|i| vec![Value::Int(i as i64)]).collect(),
            notes: (0..notes).map(|i| format!("note {i}")).collect(),
        }
    }

    #[test]
    fn a_table_longer_than_a_sheet_is_refused_before_writing() {
        assert_eq!(sheet_rows(&table(9, 0)), 10);
        assert_eq!(sheet_rows(&table(6, 2)), 10);
        assert!(check_rows(&[table(9, 0), table(6, 2)], 10).is_ok());
        let err = check_rows(&[table(10, 0), table(3, 0)], 10)
            .unwrap_err()
            .to_string();
        assert!(err.contains("at most 10 rows"), "{err}");
        assert!(err.contains("Games needs 11 rows"), "{err}");
        assert!(err.contains("--format csv"), "{err}");
        assert!(check_rows(&[table(7, 2)], 10).is_err());
    }

    #[test]
    fn widths_count_cjk_double_and_show_two_decimals() {
        let t = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![Column::text("name"), Column::score("avg_score")],
            rows: vec![vec![
                Value::Text("陳大文陳大文陳大文".into()),
                Value::Score(crate::score::Score::whole(-12345)),
            ]],
            notes: vec![],
        };
        // 9 CJK characters are 18 columns, plus one of room and one of
        // indent; "Average score" and room for the filter button.
        assert_eq!(column_widths(&t, &[0, 1], &[0, 2]), vec![20, 18]);
        // an average as it shows, -12345.00, and a character of room
        let t = Table {
            columns: vec![Column::text("name"), Column::score("avg")],
            ..t
        };
        assert_eq!(column_widths(&t, &[0, 1], &[0, 2]), vec![20, 10]);
    }

    /// A sheet's cells as written: the text of each cell's number format
    /// (`None`: the plain one), and the shared strings, of `bytes`'s first
    /// sheet.
    struct Written {
        sheet: String,
        styles: String,
        /// The cells' values as a reader sees them.
        cells: calamine::Range<calamine::Data>,
    }

    impl Written {
        fn of(bytes: Vec<u8>) -> Written {
            use calamine::Reader;
            use std::io::Read;
            let mut book = calamine::Xlsx::new(std::io::Cursor::new(bytes.clone())).unwrap();
            let cells = book.worksheet_range("t").unwrap();
            let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
            let mut member = |name: &str| {
                let mut text = String::new();
                zip.by_name(name)
                    .unwrap()
                    .read_to_string(&mut text)
                    .unwrap();
                text
            };
            Written {
                sheet: member("xl/worksheets/sheet1.xml"),
                styles: member("xl/styles.xml"),
                cells,
            }
        }

        /// Row `r` (0 the header) as text, each cell as the reader gives it.
        fn row(&self, r: u32) -> Vec<String> {
            (0..self.cells.width() as u32)
                .map(|c| {
                    self.cells
                        .get_value((r, c))
                        .map(ToString::to_string)
                        .unwrap_or_default()
                })
                .collect()
        }

        /// The style of a cell: its `<xf>` in cellXfs.
        fn xf(&self, cell: &str) -> String {
            let at = self
                .sheet
                .find(&format!("<c r=\"{cell}\""))
                .unwrap_or_else(|| panic!("no cell {cell}"));
            let s: usize = self.sheet[at..]
                .split("s=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap()
                .parse()
                .unwrap();
            let xfs = self.styles.split("<cellXfs").nth(1).unwrap();
            xfs.split("<xf ").nth(s + 1).unwrap().to_string()
        }

        /// A cell's number format, `None` for the plain one.
        fn format_code(&self, cell: &str) -> Option<String> {
            let xf = self.xf(cell);
            let id = xf.split("numFmtId=\"").nth(1)?.split('"').next()?;
            let at = self
                .styles
                .find(&format!("numFmtId=\"{id}\" formatCode=\""))?;
            Some(
                self.styles[at..]
                    .split("formatCode=\"")
                    .nth(1)?
                    .split('"')
                    .next()?
                    .into(),
            )
        }
    }

    /// A number's header sits at the right, over the numbers; text's at
    /// the left.
    #[test]
    fn headers_of_numbers_are_right_aligned() {
        let t = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![Column::text("name"), Column::score("total_score")],
            rows: vec![vec![Value::Text("x".into()), Value::Score(Score::whole(1))]],
            notes: vec![],
        };
        let w = Written::of(Xlsx { event: None }.export(&[t]).unwrap());
        assert!(
            w.xf("B1").contains("horizontal=\"right\""),
            "{}",
            w.xf("B1")
        );
        assert!(w.xf("A1").contains("horizontal=\"left\""), "{}", w.xf("A1"));
    }

    use crate::score::Score;

    /// Every row of a column of scores shows the same decimals: the most
    /// any of its values needs (477 beside 68.67 shows 477.00; a column
    /// of whole scores stays plain; one of halves shows one decimal), and
    /// an average always two.
    #[test]
    fn a_column_of_scores_has_one_number_format() {
        let rows = [
            // total_score, best_game, card_total, avg_score
            [
                Score::whole(477),
                Score::whole(30),
                Score::whole(477),
                Score::whole(50),
            ],
            [
                Score::ratio(11, 2),
                Score::ratio(25, 2),
                Score::whole(30),
                Score::whole(-5),
            ],
            [
                Score::ratio(206, 3),
                Score::whole(10),
                Score::whole(-5),
                Score::whole(27),
            ],
        ];
        let t = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![
                Column::text("name"),
                Column::score("total_score"),
                Column::score("best_game"),
                Column::score("card_total"),
                Column::score("avg_score"),
            ],
            rows: rows
                .iter()
                .map(|r| {
                    let mut row = vec![Value::Text("x".into())];
                    row.extend(r.iter().map(|s| Value::Score(*s)));
                    row
                })
                .collect(),
            notes: vec![],
        };
        let w = Written::of(Xlsx { event: None }.export(&[t]).unwrap());
        for (column, want) in [
            ('B', Some("0.00")),
            ('C', Some("0.0")),
            ('D', None),
            ('E', Some("0.00")),
        ] {
            for row in 2..=4 {
                let cell = format!("{column}{row}");
                assert_eq!(w.format_code(&cell).as_deref(), want, "{cell}");
            }
        }
        // the values themselves, as the CSV has them
        assert_eq!(w.row(3), ["x", "68.67", "10", "-5", "27"]);
    }

    /// A column empty in every row is not on the sheet (an Age group when
    /// nobody has one); the columns beside it close up. A table without
    /// rows keeps every column.
    #[test]
    fn a_column_empty_in_every_row_is_left_out() {
        let t = Table {
            name: "t".into(),
            title: "t".into(),
            columns: vec![
                Column::text("name"),
                Column::text("group"),
                Column::int("won"),
                Column::score("avg_score"),
                Column::text("note"),
            ],
            rows: vec![
                vec![
                    Value::Text("Chan Tai Man".into()),
                    Value::Empty,
                    Value::Int(2),
                    Value::Score(Score::ratio(205, 3)),
                    Value::Empty,
                ],
                vec![
                    Value::Text("Lee Siu Ming".into()),
                    Value::Empty,
                    Value::Int(1),
                    Value::Score(Score::whole(50)),
                    Value::Text("shared rank 2".into()),
                ],
            ],
            notes: vec!["a note under the table".into()],
        };
        let w = Written::of(
            Xlsx { event: None }
                .export(std::slice::from_ref(&t))
                .unwrap(),
        );
        assert_eq!(w.row(0), ["Name", "Won", "Average score", "Note"]);
        assert_eq!(w.row(1), ["Chan Tai Man", "2", "68.33", ""]);
        assert_eq!(w.row(2), ["Lee Siu Ming", "1", "50", "shared rank 2"]);
        assert_eq!(w.format_code("C3").as_deref(), Some("0.00"));
        assert!(w.sheet.contains("<autoFilter ref=\"A1:D3\""), "{}", w.sheet);
        assert!(w.sheet.contains("<mergeCell ref=\"A5:D5\""), "{}", w.sheet);
        // No rows: every column stays, to say what the table will hold.
        let empty = Table { rows: vec![], ..t };
        let w = Written::of(Xlsx { event: None }.export(&[empty]).unwrap());
        assert_eq!(
            w.row(0),
            ["Name", "Age group", "Won", "Average score", "Note"]
        );
    }
}
