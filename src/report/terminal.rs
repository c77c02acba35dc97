//! The terminal: an aligned table, numbers to the right, headers in
//! people's words, laid out to fit the window.
//!
//! - **Piped or redirected** output (a file, `less`, `grep`), and a table
//!   written with `-o FILE`, is never cut: every column, every character,
//!   one line a row.
//! - **On a terminal** the table fits its width (a terminal that does not
//!   say its width, or says 0, is `COLUMNS` wide, else 80) without
//!   wrapping a row. When
//!   everything does not fit, these steps are taken in turn until it does:
//!   1. headers wrap onto two lines ("Average" over "score") and columns
//!      are one space apart instead of two;
//!   2. a column with the same value in every row is left out and that value
//!      said once under the table ("Same in every row: Games 3");
//!   3. long text is cut with `…`: notes first, down to 10 columns, then
//!      names and other text, the widest first, down to 20; a file name
//!      keeps its end (`…/S01.xlsx`);
//!   4. columns are left out in the order of [`DROP_ORDER`], and named under
//!      the table, but not those that hold the ranking's keys (the columns
//!      that decide the order, [`Column::key`](super::Column::key));
//!   5. names and other text are cut down to 10 columns;
//!   6. the columns of the ranking's keys are left out, the last key first
//!      (it decides the fewest places), and named under the table.
//!
//! Titles and notes under a table break between words to the window's
//! width.
//!
//! This module decides what fits; comfy-table draws the table, given cells
//! already cut to their columns' widths (so it never wraps one). Widths are
//! display widths: a CJK character takes two columns. Text is cut to the
//! window's width before it is measured, so a name of 100,000 characters
//! costs one pass over it.
//!
//! No colour: the tables are read, copied and pasted; what matters (`Q`,
//! `W`, `DQ`, a tie at the cutoff) is written in words, so nothing is lost
//! without colour and `NO_COLOR` has nothing to switch off. comfy-table is
//! built without its `tty` feature: it cannot style anything.

use super::{ExportError, Exporter, Kind, Streamed, Table, Value};
use comfy_table::{
    CellAlignment, ColumnConstraint, ContentArrangement, ContentLineStyle, LineStyle, TableStyle,
    Width,
};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Spaces between two columns; one when the table is narrowed.
const GAP: usize = 2;

/// The narrowest a cut text column gets (or its natural width if less):
/// names and other text kept to the end, and text of [`DROP_ORDER`] (notes).
const MIN_NAME: usize = 20;
const MIN_TEXT: usize = 10;

/// The rule above and below the header and under the table.
const RULE: char = '─';

/// Rules over and under the header and under the table, no vertical lines:
/// columns are apart by the junction (a space, on rules a rule) and, when
/// [`GAP`] is 2, a space of padding.
const STYLE: TableStyle = TableStyle::new()
    .top_border(LineStyle::none().fill(RULE).junction(RULE))
    .header_lines(ContentLineStyle::none().junction(' '))
    .header_separator(LineStyle::none().fill(RULE).junction(RULE))
    .content_lines(ContentLineStyle::none().junction(' '))
    .bottom_border(LineStyle::none().fill(RULE).junction(RULE));

/// Columns left out, first to last, when a table is too wide even with its
/// text cut: the ones whose loss a director feels least. Columns not listed
/// are kept. A listed column that holds one of the ranking's keys (Tiles
/// left under hk, Total score under nvso) is kept longer: left out only
/// when every other is and names are cut to 10 columns, the last key
/// first.
pub const DROP_ORDER: &[&str] = &[
    "games",
    "best_game",
    "sha256",
    "total_score",
    "tiles",
    "stage",
    "reason",
    "group",
    "note",
];

#[derive(Default)]
pub struct Terminal {
    /// A fixed width (tests); `None`: the width of the terminal standard
    /// output is, or no limit when it is not a terminal.
    pub width: Option<u16>,
    /// No limit whatever standard output is (a table written to a file).
    pub unlimited: bool,
}

impl Terminal {
    /// Every column, every character: for a file.
    pub fn unlimited() -> Terminal {
        Terminal {
            width: None,
            unlimited: true,
        }
    }
}

/// The terminal's width when standard output is one.
fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        return None;
    }
    let reported = terminal_size::terminal_size_of(&stdout).map(|(w, _)| w.0);
    Some(width_of(reported, std::env::var("COLUMNS").ok().as_deref()))
}

/// The width to fit on a terminal that reports `reported` columns: a
/// terminal that reports none, or 0 (a serial console, some remote
/// sessions), has `COLUMNS` columns when that is set, else 80.
fn width_of(reported: Option<u16>, columns: Option<&str>) -> usize {
    reported
        .filter(|&w| w > 0)
        .map(usize::from)
        .or_else(|| {
            columns
                .and_then(|c| c.trim().parse::<u16>().ok())
                .filter(|&w| w > 0)
                .map(usize::from)
        })
        .unwrap_or(80)
}

impl Terminal {
    /// The tables to `out`, each row made twice (once to measure the
    /// columns, once to draw them) and drawn a screenful at a time: memory
    /// for the columns' measures and one screenful, however long the table.
    pub fn write(
        &self,
        tables: Vec<Streamed<'_>>,
        out: &mut dyn std::io::Write,
    ) -> Result<(), ExportError> {
        let width = match self.width {
            _ if self.unlimited => None,
            Some(w) => Some(usize::from(w)),
            None => terminal_width(),
        };
        for (i, table) in tables.iter().enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            // (a long table's rows made on two threads, for each pass)
            std::thread::scope(|scope| render(table, scope, width, SCREEN, out))?;
        }
        Ok(())
    }
}

impl Exporter for Terminal {
    fn export(&self, tables: &[Table]) -> Result<Vec<u8>, ExportError> {
        let mut out = Vec::new();
        self.write(tables.iter().map(Table::streamed).collect(), &mut out)?;
        Ok(out)
    }
}

/// One column as laid out, measured over every row.
struct Col {
    /// Its place in a row.
    index: usize,
    /// The machine name.
    name: &'static str,
    label: String,
    kind: Kind,
    /// Some row has a value in it.
    filled: bool,
    /// The first row's cell as shown, and whether every row's is the same.
    first: Option<String>,
    same: bool,
    /// How many rows.
    rows: usize,
    /// Widest cell.
    natural: usize,
    /// Width of the header's longest word.
    header_word: usize,
    /// The narrowest it may be cut to (text).
    floor: usize,
    /// The width it gets.
    width: usize,
    /// Cut at the start (a file name keeps its end).
    keeps_end: bool,
    /// The ranking's key it holds (0 the first), if any.
    key: Option<u8>,
}

impl Col {
    /// The same non-empty value in every row (of two or more).
    fn constant(&self) -> Option<&str> {
        let first = self.first.as_deref()?;
        (self.rows >= 2 && !first.is_empty() && self.same).then_some(first)
    }

    /// Every cell whole, the header on as many lines as it has words.
    fn wanted(&self) -> usize {
        self.natural.max(self.header_word)
    }

    fn min_width(&self) -> usize {
        match self.kind {
            Kind::Text => self.natural.min(self.floor).max(self.header_word),
            Kind::Int | Kind::Score => self.wanted(),
        }
    }
}

fn total(cols: &[Col], gap: usize) -> usize {
    cols.iter().map(|c| c.width).sum::<usize>() + gap * cols.len().saturating_sub(1)
}

/// A cell as the terminal shows it: text cut to the window's width (when
/// there is one), on one line.
fn shown(value: Option<&Value>, width: Option<usize>, keeps_end: bool) -> String {
    match value {
        Some(Value::Text(t)) => {
            let t = width.map_or_else(|| t.to_string(), |w| cut(t, w.max(1), keeps_end));
            // One line a row: line breaks in input are spaces.
            if t.contains(['\n', '\r', '\t']) {
                t.replace(['\n', '\r', '\t'], " ")
            } else {
                t
            }
        }
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// The table laid out in `width`, drawn `screen` rows at a time.
fn render<'s>(
    table: &'s Streamed<'_>,
    scope: &'s std::thread::Scope<'s, '_>,
    width: Option<usize>,
    screen: usize,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut title = String::new();
    push_wrapped(&table.title, width, &mut title);
    out.write_all(title.as_bytes())?;
    let mut cols: Vec<Col> = table
        .columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            let label = column.label();
            let header_word = label.split(' ').map(|w| w.width()).max().unwrap_or(0);
            Col {
                index,
                name: column.name,
                kind: column.kind,
                filled: false,
                first: None,
                same: true,
                rows: 0,
                natural: 0,
                width: 0,
                floor: if DROP_ORDER.contains(&column.name) {
                    MIN_TEXT
                } else {
                    MIN_NAME
                },
                header_word,
                label,
                keeps_end: matches!(column.name, "file" | "path"),
                key: column.key,
            }
        })
        .collect();
    // Every row measured, none kept.
    let mut rows = 0;
    for row in table.rows_in(scope) {
        rows += 1;
        for c in &mut cols {
            let value = row.get(c.index);
            c.filled |= value.is_some_and(|v| *v != Value::Empty);
            let cell = shown(value, width, c.keeps_end);
            c.natural = c.natural.max(cell.width());
            match &c.first {
                None => c.first = Some(cell),
                Some(first) => c.same &= *first == cell,
            }
        }
    }
    // Columns empty in every row are left out.
    cols.retain(|c| c.filled);
    for c in &mut cols {
        c.rows = rows;
        c.width = c.natural.max(c.label.width());
    }
    let mut under: Vec<String> = Vec::new();
    let mut gap = GAP;
    if let Some(limit) = width.filter(|&w| total(&cols, gap) > w) {
        // 1. Headers on two lines, one space between columns.
        gap = 1;
        for c in &mut cols {
            c.width = c.wanted();
        }
        // 2. Columns with one value for every row.
        if total(&cols, gap) > limit {
            let mut same = Vec::new();
            cols.retain(|c| match c.constant() {
                Some(v) => {
                    same.push(format!("{} {v}", c.label));
                    false
                }
                None => true,
            });
            if !same.is_empty() {
                under.push(format!("Same in every row: {}.", same.join(", ")));
            }
        }
        // 3. Long text cut, 4. columns left out in DROP_ORDER but the
        // ranking's keys, 5. names cut further, 6. the keys left out.
        let mut dropped = Vec::new();
        let mut steps = leaving_out(&cols).into_iter();
        while !shrink_text(&mut cols, limit, gap) {
            match steps.next() {
                Some(Step::CutText) => {
                    for c in &mut cols {
                        c.floor = MIN_TEXT;
                    }
                }
                Some(Step::LeaveOut(name)) => {
                    if let Some(at) = cols.iter().position(|c| c.name == name) {
                        dropped.push(cols.remove(at).label);
                        for c in &mut cols {
                            c.width = c.wanted();
                        }
                    }
                }
                // (nothing left: the text at its narrowest)
                None => break,
            }
        }
        if !dropped.is_empty() {
            under.push(format!(
                "Not shown at this width: {} (a wider window shows them; --format csv has every column).",
                dropped.join(", ")
            ));
        }
        let cut: Vec<&str> = cols
            .iter()
            .filter(|c| c.width < c.natural)
            .map(|c| c.label.as_str())
            .collect();
        if !cut.is_empty() {
            under.push(format!(
                "Cut to fit this width (…): {} (a wider window or --format csv shows the whole text).",
                cut.join(", ")
            ));
        }
    }
    // (made again from the first)
    write_table(&cols, table.rows_in(scope), rows, gap, width, screen, out)?;
    let mut notes = String::new();
    for note in table.notes.iter().chain(&under) {
        push_wrapped(note, width, &mut notes);
    }
    out.write_all(notes.as_bytes())
}

/// What the terminal does next to a table still too wide with its text
/// cut to [`MIN_NAME`].
#[derive(Debug, PartialEq)]
enum Step {
    /// Leave a column out.
    LeaveOut(&'static str),
    /// Cut names and other text down to [`MIN_TEXT`].
    CutText,
}

/// The steps for `cols`, in turn: the columns of [`DROP_ORDER`] that hold
/// none of the ranking's keys, in its order; then text cut further; then
/// those that hold a key, the last key first. A director reads a standings
/// table by its keys: a name cut to 10 columns still says who it is, a key
/// left out hides why the rows are in their order.
fn leaving_out(cols: &[Col]) -> Vec<Step> {
    let listed = |c: &&Col| DROP_ORDER.contains(&c.name);
    let mut keys: Vec<(u8, &'static str)> = cols
        .iter()
        .filter(listed)
        .filter_map(|c| c.key.map(|k| (k, c.name)))
        .collect();
    keys.sort_by(|a, b| b.cmp(a));
    let mut steps: Vec<Step> = DROP_ORDER
        .iter()
        .filter(|name| !keys.iter().any(|(_, k)| k == *name))
        .map(|name| Step::LeaveOut(name))
        .collect();
    steps.push(Step::CutText);
    steps.extend(keys.into_iter().map(|(_, name)| Step::LeaveOut(name)));
    steps
}

/// A sentence (title, note, message) on as many lines of at most `width`
/// columns as it needs, broken between words; one line when there is no
/// limit.
pub fn push_wrapped(text: &str, width: Option<usize>, out: &mut String) {
    let Some(width) = width.filter(|&w| text.width() > w) else {
        out.push_str(text);
        out.push('\n');
        return;
    };
    let mut used = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let w = word.width();
        if used > 0 && used + 1 + w > width {
            out.push('\n');
            used = 0;
        }
        if used > 0 {
            out.push(' ');
            used += 1;
        }
        out.push_str(word);
        used += w;
    }
    out.push('\n');
}

/// Narrows the text columns to fit `limit`; false when they cannot narrow
/// enough. Text columns of [`DROP_ORDER`] (notes, reasons) give way first;
/// then the others, widest first.
fn shrink_text(cols: &mut [Col], limit: usize, gap: usize) -> bool {
    let fixed: usize = cols
        .iter()
        .filter(|c| c.kind != Kind::Text)
        .map(|c| c.width)
        .sum::<usize>()
        + gap * cols.len().saturating_sub(1);
    let room = limit.saturating_sub(fixed);
    let (low, high): (Vec<usize>, Vec<usize>) = (0..cols.len())
        .filter(|&i| cols[i].kind == Kind::Text)
        .partition(|&i| DROP_ORDER.contains(&cols[i].name));
    let sum = |set: &[usize], cols: &[Col], f: fn(&Col) -> usize| -> usize {
        set.iter().map(|&i| f(&cols[i])).sum()
    };
    let low_min = sum(&low, cols, Col::min_width);
    let high_wanted = sum(&high, cols, Col::wanted);
    if high_wanted + low_min <= room {
        for &i in &high {
            cols[i].width = cols[i].wanted();
        }
        fill(cols, &low, room - high_wanted)
    } else {
        for &i in &low {
            cols[i].width = cols[i].min_width();
        }
        fill(cols, &high, room.saturating_sub(low_min))
    }
}

/// Gives the columns `set` their wanted width capped at the largest cap
/// that fits `room` (never less than their minimum); false when even their
/// minimums do not fit.
fn fill(cols: &mut [Col], set: &[usize], room: usize) -> bool {
    let used = |cap: usize, cols: &[Col]| -> usize {
        set.iter()
            .map(|&i| cols[i].wanted().min(cap).max(cols[i].min_width()))
            .sum()
    };
    let (mut lo, mut hi) = (0, set.iter().map(|&i| cols[i].wanted()).max().unwrap_or(0));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if used(mid, cols) <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    for &i in set {
        cols[i].width = cols[i].wanted().min(lo).max(cols[i].min_width());
    }
    used(lo, cols) <= room
}

/// The header's lines in `width`: words joined while they fit.
fn header_lines(label: &str, width: usize) -> Vec<String> {
    if label.width() <= width {
        return vec![label.to_string()];
    }
    let mut lines: Vec<String> = Vec::new();
    for word in label.split(' ') {
        match lines.last_mut() {
            Some(line) if line.width() + 1 + word.width() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Rows drawn at a time: a screenful, so that a table of any length is
/// drawn in the memory of one.
const SCREEN: usize = 1024;

/// Draws the table's `rows` rows, `made` as they are drawn, `screenful` at
/// a time ([`draw`]).
fn write_table<'a>(
    cols: &[Col],
    mut made: impl Iterator<Item = std::borrow::Cow<'a, [Value]>>,
    rows: usize,
    gap: usize,
    width: Option<usize>,
    screenful: usize,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut drawn = 0;
    loop {
        let screen: Vec<Vec<String>> = made
            .by_ref()
            .take(screenful.max(1))
            .map(|row| {
                cols.iter()
                    .map(|c| {
                        cut(
                            &shown(row.get(c.index), width, c.keeps_end),
                            c.width,
                            c.keeps_end,
                        )
                    })
                    .collect()
            })
            .collect();
        let last = screen.is_empty() || drawn + screen.len() >= rows;
        let mut text = String::new();
        draw(cols, &screen, gap, drawn == 0, last, &mut text);
        out.write_all(text.as_bytes())?;
        drawn += screen.len();
        if last {
            return Ok(());
        }
    }
}

/// Draws rows with comfy-table, each column given its width and every
/// cell cut to it, so nothing wraps: with the header above them when
/// `head`, the rule under them when `foot` (the rows between are drawn the
/// same whatever screenful they are in).
///
/// comfy-table measures a column in `u16`: a wider one (only in piped
/// output, where nothing is cut) is padded here and put beside the runs of
/// columns comfy-table draws, each run's lines as wide as its columns.
fn draw(cols: &[Col], rows: &[Vec<String>], gap: usize, head: bool, foot: bool, out: &mut String) {
    let height = cols
        .iter()
        .map(|c| header_lines(&c.label, c.width).len())
        .max();
    let height = height.unwrap_or(1);
    // A header sits on the rule under it: short ones on the last line.
    let header = |c: &Col| {
        let lines = header_lines(&c.label, c.width);
        std::iter::repeat_n(String::new(), height - lines.len()).chain(lines)
    };
    let too_wide = |c: &Col| c.width + GAP >= usize::from(u16::MAX);
    let mut at = 0;
    let pieces = cols
        .chunk_by(|a, b| !too_wide(a) && !too_wide(b))
        .map(|run| {
            let first = at;
            at += run.len();
            let c = &run[0];
            if too_wide(c) {
                // Text: numbers are never this wide.
                let pad =
                    |t: String| format!("{t}{}", " ".repeat(c.width.saturating_sub(t.width())));
                let rule = RULE.to_string().repeat(c.width);
                let cells = rows.iter().map(|r| pad(r[first].clone()));
                return std::iter::once(rule.clone())
                    .chain(header(c).map(pad))
                    .chain([rule.clone()])
                    .chain(cells)
                    .chain([rule])
                    .collect();
            }
            let mut t = comfy_table::Table::new();
            t.load_style(STYLE)
                .set_content_arrangement(ContentArrangement::Disabled)
                .set_header(run.iter().map(|c| header(c).collect::<Vec<_>>().join("\n")));
            for r in rows {
                t.add_row(r[first..first + run.len()].iter().cloned());
            }
            for (i, (column, c)) in t.column_iter_mut().zip(run).enumerate() {
                let pad = if i == 0 { 0 } else { gap - 1 };
                let width = Width::Fixed((c.width + pad) as u16);
                column.set_padding((pad as u16, 0));
                column.set_constraint(ColumnConstraint::Absolute(width));
                if c.kind != Kind::Text {
                    column.set_cell_alignment(CellAlignment::Right);
                }
            }
            t.lines().collect::<Vec<String>>()
        });
    let pieces: Vec<Vec<String>> = pieces.collect();
    // the lines of the whole: a rule, the header, a rule, the rows, a rule
    let lines = pieces.first().map_or(0, Vec::len);
    let from = if head { 0 } else { height + 2 };
    let to = if foot { lines } else { lines.saturating_sub(1) };
    for i in from..to.max(from) {
        let rule = i == 0 || i == height + 1 || i + 1 == lines;
        let apart = if rule { RULE } else { ' ' }.to_string().repeat(gap);
        let line: Vec<&str> = pieces.iter().map(|p| p[i].as_str()).collect();
        out.push_str(line.join(&apart).trim_end());
        out.push('\n');
    }
}

/// `text` in at most `width` columns: cut at its end or, when it `keeps_end`
/// (a file name), at its start.
fn cut(text: &str, width: usize, keeps_end: bool) -> String {
    if keeps_end {
        cut_start(text, width)
    } else {
        cut_end(text, width)
    }
}

/// `text` in at most `width` columns: its start and `…` when it is wider.
/// Reads no further than the cut.
pub fn cut_end(text: &str, width: usize) -> String {
    let mut used = 0;
    for (i, ch) in text.char_indices() {
        used += ch.width().unwrap_or(0);
        if used > width {
            // Room for the ellipsis: drop characters from the end of the kept part.
            let mut kept = &text[..i];
            while kept.width() + 1 > width && !kept.is_empty() {
                let last = kept.chars().next_back().map_or(0, char::len_utf8);
                kept = &kept[..kept.len() - last];
            }
            return format!("{kept}…");
        }
    }
    text.to_string()
}

/// `text` in at most `width` columns: `…` and its end when it is wider.
fn cut_start(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut used = 1;
    let mut start = text.len();
    for (i, ch) in text.char_indices().rev() {
        used += ch.width().unwrap_or(0);
        if used > width {
            break;
        }
        start = i;
    }
    format!("…{}", &text[start..])
}

#[cfg(test)]
mod tests {
    /// A terminal that reports no width, or 0, is `COLUMNS` wide, else 80;
    /// one that reports its width is that wide, whatever `COLUMNS` says.
    #[test]
    fn a_terminal_of_no_width_is_columns_wide() {
        use super::width_of;
        assert_eq!(width_of(Some(0), Some("132")), 132);
        assert_eq!(width_of(None, Some(" 100 ")), 100);
        assert_eq!(width_of(Some(0), None), 80);
        assert_eq!(width_of(Some(0), Some("wide")), 80);
        assert_eq!(width_of(Some(0), Some("0")), 80);
        assert_eq!(width_of(Some(120), Some("60")), 120);
    }

    /// Drawn a screenful at a time or whole, a table is the same lines:
    /// at every width, with a column too wide for comfy-table beside the
    /// others, and with no rows at all.
    #[test]
    fn screenfuls_draw_the_whole_table() {
        use crate::report::{Column, Value};
        use crate::score::Score;
        let long = "x".repeat(70_000);
        let table = |n: usize| Table {
            name: "t".into(),
            title: "A title of some words".into(),
            columns: vec![
                Column::int("rank"),
                Column::text("name"),
                Column::score("avg_score"),
                Column::text("note"),
            ],
            rows: (0..n)
                .map(|i| {
                    vec![
                        Value::Int(i as i64),
                        Value::Text(
                            if i == 3 {
                                long.clone()
                            } else {
                                format!("Player 陳 {i}")
                            }
                            .into(),
                        ),
                        Value::Score(Score::ratio(i as i64 - 50, 3)),
                        if i % 7 == 0 {
                            Value::Text("shared rank".into())
                        } else {
                            Value::Empty
                        },
                    ]
                })
                .collect(),
            notes: vec!["A note under it.".into()],
        };
        for n in [0, 1, 5, 100] {
            let t = table(n);
            for width in [None, Some(40), Some(80), Some(300)] {
                let draw = |screen: usize| {
                    let mut out = Vec::new();
                    let t = t.streamed();
                    std::thread::scope(|scope| render(&t, scope, width, screen, &mut out)).unwrap();
                    String::from_utf8(out).unwrap()
                };
                let whole = draw(usize::MAX);
                // (no rows: no column has a value, and none is drawn)
                let least = if n == 0 { 2 } else { n + 4 };
                assert!(
                    whole.lines().count() >= least,
                    "{n} rows, width {width:?}: {whole}"
                );
                for screen in [1, 2, 7, 99] {
                    assert_eq!(
                        draw(screen),
                        whole,
                        "{n} rows, width {width:?}, screens of {screen}"
                    );
                }
            }
        }
    }

    use super::*;
    use crate::report::{Column, Format};
    use crate::score::Score;

    fn show(table: &Table, width: Option<u16>) -> String {
        let terminal = Terminal {
            width,
            ..Terminal::default()
        };
        String::from_utf8(terminal.export(std::slice::from_ref(table)).unwrap()).unwrap()
    }

    /// Standings under hk: won, average score, then tiles left decide.
    fn standings(names: &[&str]) -> Table {
        standings_by("hk", names)
    }

    /// Standings under `profile`'s order (its keys marked, as the
    /// standings mark them).
    fn standings_by(profile: &str, names: &[&str]) -> Table {
        let order = crate::profile::by_name(profile).unwrap().order;
        Table {
            name: "t".into(),
            title: "Standings".into(),
            columns: crate::report::standings::keyed(&crate::report::standings::COLUMNS, &order),
            rows: names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    vec![
                        Value::Int(i as i64 + 1),
                        Value::Text(format!("P{:04}", i + 1).into()),
                        Value::text(n),
                        Value::Empty,
                        Value::Int(3),
                        Value::Int(3 - i as i64 % 4),
                        Value::Score(Score::ratio(-470 + 37 * i as i64, 3)),
                        Value::Score(Score::whole(-470 + 37 * i as i64)),
                        Value::Int(i as i64 * 3),
                        Value::Text(if i % 5 == 4 { "W" } else { "" }.into()),
                        Value::Text(
                            if i == 1 {
                                "tie at cutoff, shared rank 120".into()
                            } else {
                                String::new()
                            }
                            .into(),
                        ),
                    ]
                })
                .collect(),
            notes: vec!["a note".into()],
        }
    }

    const NAMES: [&str; 6] = [
        "Vivian Ng Pik Sze",
        "陳大文陳大文陳大文",
        "Cheung Chung Ho",
        "Lucas Shum",
        "Cherry Wong Siu Yan Mei Ling Kwok",
        "黃佩君",
    ];

    /// A table made in chunks, a long one on two threads for each pass,
    /// is drawn the same, at every width.
    #[test]
    fn rows_made_in_chunks_draw_the_same_table() {
        let long: Vec<&str> = NAMES
            .iter()
            .cycle()
            .take(crate::report::TWO_THREADS_FROM + 5)
            .copied()
            .collect();
        for table in [standings(&NAMES), standings(&long)] {
            for width in [None, Some(80), Some(40)] {
                let terminal = Terminal {
                    width,
                    ..Terminal::default()
                };
                let mut out = Vec::new();
                terminal.write(vec![table.chunked()], &mut out).unwrap();
                let rows = table.rows.len();
                assert!(out == show(&table, width).into_bytes(), "{rows}, {width:?}");
            }
        }
    }

    #[test]
    fn chinese_names_line_up() {
        let text = show(&standings(&NAMES), Some(200));
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("P000")).collect();
        assert_eq!(rows.len(), 6);
        // The column after the name starts at the same display column.
        // Each row's average score ends at the same display column.
        let averages = ["-156.67", "-144.33", "-132", "-119.67", "-107.33", "-95"];
        let starts: Vec<usize> = rows
            .iter()
            .zip(averages)
            .map(|(l, avg)| {
                let at = l.find(avg).unwrap() + avg.len();
                l[..at].width()
            })
            .collect();
        assert!(starts.iter().all(|&s| s == starts[0]), "{text}");
        assert!(text.contains("Average score") && text.contains("Tiles left"));
        assert!(!text.contains("avg_score"), "{text}");
        assert!(text.ends_with("a note\n"));
    }

    #[test]
    fn at_80_columns_no_row_wraps_and_what_matters_is_there() {
        let text = show(&standings(&NAMES), Some(80));
        for line in text
            .lines()
            .filter(|l| l.starts_with([' ', '─']) || l.contains("P000"))
        {
            assert!(line.width() <= 80, "{} wide: {line}\n{text}", line.width());
        }
        // Each player on one line, with rank, id, games won and average.
        for i in 1..=6 {
            let id = format!("P{i:04}");
            assert_eq!(
                text.lines().filter(|l| l.contains(&id)).count(),
                1,
                "{text}"
            );
        }
        assert!(
            text.contains("Vivian Ng Pik Sze"),
            "short names whole: {text}"
        );
        assert!(text.contains("Cherry Wong Siu"), "{text}");
        assert!(text.contains('…'), "a long name is cut: {text}");
        assert!(text.contains("-156.67"), "{text}");
        assert!(!text.contains('\x1b'), "no colour: {text}");
        // Headers on two lines, games said once.
        assert!(text.contains("Average") && text.contains("score"), "{text}");
        assert!(text.contains("Same in every row: Games 3."), "{text}");
    }

    /// The columns `text` says it left out ("Total score, Note"), its
    /// lines joined.
    fn left_out(text: &str) -> &str {
        text.split("Not shown at this width: ")
            .nth(1)
            .map_or("", |rest| rest.split(" (").next().unwrap_or(""))
    }

    #[test]
    fn a_very_narrow_window_leaves_columns_out_in_the_stated_order() {
        let text = show(&standings(&NAMES), Some(60));
        for line in text.lines().filter(|l| l.contains("P000")) {
            assert!(line.width() <= 60, "{line}\n{text}");
        }
        // (the note's words may break over lines)
        let said = text.replace('\n', " ");
        assert_eq!(left_out(&said), "Total score, Note", "{text}");
        assert!(text.contains("Average"), "{text}");
    }

    /// At 60 columns the hk standings keep every key (won, average score,
    /// tiles left): long names are cut and columns that decide nothing
    /// (Total score, Note) left out, not Tiles left, the third key.
    #[test]
    fn a_narrow_window_keeps_the_ranking_keys_and_cuts_names() {
        let text = show(&standings(&NAMES), Some(60));
        insta::assert_snapshot!(text, @"
        Standings
        ────────────────────────────────────────────────────────────
                                                Average Tiles
        Rank ID    Name                     Won   score  left Status
        ────────────────────────────────────────────────────────────
           1 P0001 Vivian Ng Pik Sze          3 -156.67     0
           2 P0002 陳大文陳大文陳大文         2 -144.33     3
           3 P0003 Cheung Chung Ho            1    -132     6
           4 P0004 Lucas Shum                 0 -119.67     9
           5 P0005 Cherry Wong Siu Yan Mei…   3 -107.33    12 W
           6 P0006 黃佩君                     2     -95    15
        ────────────────────────────────────────────────────────────
        a note
        Same in every row: Games 3.
        Not shown at this width: Total score, Note (a wider window
        shows them; --format csv has every column).
        Cut to fit this width (…): Name (a wider window or --format
        csv shows the whole text).
        ");
        let said = text.replace('\n', " ");
        assert!(text.contains("Tiles") && text.contains("left"), "{text}");
        assert!(!left_out(&said).contains("Tiles left"), "{text}");
        assert!(said.contains("Cut to fit this width (…): Name"), "{text}");
        assert!(
            text.contains("Cherry Wong Siu Yan") && !text.contains("Kwok"),
            "{text}"
        );
        assert!(
            text.contains("Vivian Ng Pik Sze "),
            "short names whole: {text}"
        );
    }

    /// Narrower, names are cut to 10 columns before a key is left out;
    /// narrower still, the last key goes, named under the table, and the
    /// keys not listed in DROP_ORDER (won, average score) stay.
    #[test]
    fn a_key_is_left_out_last_of_all() {
        // names cut to 10 columns at the least, every key kept
        let text = show(&standings(&NAMES), Some(48));
        let said = text.replace('\n', " ");
        assert_eq!(left_out(&said), "Total score, Note", "{text}");
        assert!(
            text.contains("Vivian Ng…") || text.contains("Vivian Ng P…"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.width() <= 48), "{text}");
        // no room for names of 10 and every key: Tiles left goes last
        let text = show(&standings(&NAMES), Some(40));
        let said = text.replace('\n', " ");
        assert_eq!(left_out(&said), "Total score, Note, Tiles left", "{text}");
        assert!(text.contains("Won") && text.contains("Average"), "{text}");
        assert!(text.lines().all(|l| l.width() <= 40), "{text}");
    }

    /// Under nvso total score decides first: it stays, and Tiles left,
    /// which decides nothing there, goes in its place.
    #[test]
    fn the_keys_kept_are_the_profiles() {
        let text = show(&standings_by("nvso", &NAMES), Some(60));
        let said = text.replace('\n', " ");
        assert_eq!(left_out(&said), "Tiles left, Note", "{text}");
        assert!(text.contains("Total") && text.contains("-470"), "{text}");
    }

    #[test]
    fn leaving_out_keeps_the_keys_for_last_the_last_key_first() {
        let table = standings(&NAMES);
        let mut columns = table.columns.clone();
        // a rules file's order: total score, then tiles left
        let order: Vec<_> = ["total_score:higher", "tiles_left:lower"]
            .iter()
            .map(|k| k.parse().unwrap())
            .collect();
        columns = crate::report::standings::keyed(&columns, &order);
        let cols: Vec<Col> = columns
            .iter()
            .enumerate()
            .map(|(index, c)| Col {
                index,
                name: c.name,
                label: c.label(),
                kind: c.kind,
                filled: true,
                first: None,
                same: false,
                rows: 0,
                natural: 0,
                header_word: 0,
                floor: MIN_NAME,
                width: 0,
                keeps_end: false,
                key: c.key,
            })
            .collect();
        let steps = leaving_out(&cols);
        let at = |step: &Step| steps.iter().position(|s| s == step).unwrap();
        assert!(at(&Step::LeaveOut("note")) < at(&Step::CutText));
        assert!(at(&Step::CutText) < at(&Step::LeaveOut("tiles")));
        assert!(at(&Step::LeaveOut("tiles")) < at(&Step::LeaveOut("total_score")));
        assert_eq!(steps.last(), Some(&Step::LeaveOut("total_score")));
    }

    #[test]
    fn a_table_with_no_rows_is_its_title_and_notes() {
        let mut table = standings(&NAMES);
        table.rows.clear();
        assert_eq!(show(&table, Some(80)), "Standings\na note\n");
        assert_eq!(show(&table, None), "Standings\na note\n");
    }

    #[test]
    fn piped_output_is_never_cut() {
        let long = "長".repeat(50_000) + "x".repeat(50_000).as_str();
        let mut table = standings(&NAMES);
        table.rows[0][2] = Value::text(&long);
        let text = show(&table, None);
        assert!(text.contains(&long));
        assert!(!text.contains('…'));
        // Wider than comfy-table measures a column, and still one line a
        // row with the columns after it lined up.
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("P000")).collect();
        assert_eq!(rows.len(), 6, "{}", &text[..200]);
        let end = |l: &str, avg: &str| l[..l.find(avg).unwrap() + avg.len()].width();
        assert_eq!(end(rows[0], "-156.67"), end(rows[5], "-95"));
        assert!(end(rows[0], "-156.67") > 150_000);
        let rules: Vec<usize> = text
            .lines()
            .filter(|l| l.starts_with('─'))
            .map(|l| l.width())
            .collect();
        assert_eq!(rules.len(), 3);
        assert!(rules.iter().all(|&w| w == rules[0] && w > 150_000));
        assert!(!text.contains("Same in every row"));
        assert!(text.contains("Games"), "{text}");
    }

    #[test]
    fn a_table_for_a_file_is_never_narrowed() {
        let table = standings(&NAMES);
        let file = Terminal {
            width: Some(40),
            unlimited: true,
        };
        let text = String::from_utf8(file.export(std::slice::from_ref(&table)).unwrap()).unwrap();
        assert_eq!(text, show(&table, None));
        assert!(text.contains("Cherry Wong Siu Yan Mei Ling Kwok"), "{text}");
        let via_format = Format::Table
            .file_exporter()
            .export(std::slice::from_ref(&table))
            .unwrap();
        assert_eq!(String::from_utf8(via_format).unwrap(), text);
    }

    #[test]
    fn a_name_of_100k_characters_is_cut_in_one_pass() {
        let mut table = standings(&NAMES);
        table.rows[0][2] = Value::Text("陳".repeat(100_000).into());
        let text = show(&table, Some(80));
        assert!(text.lines().all(|l| l.width() <= 80 || !l.contains("P000")));
        assert!(text.len() < 5_000, "{}", text.len());
    }

    #[test]
    fn file_names_keep_their_end() {
        let table = Table {
            name: "Log".into(),
            title: "Import log".into(),
            columns: vec![Column::text("file"), Column::text("action")],
            rows: vec![
                vec![
                    Value::Text("/home/desk/events/hong-kong-2026/incoming/S01.xlsx".into()),
                    Value::Text("import".into()),
                ],
                vec![
                    Value::Text("S02.xlsx".into()),
                    Value::Text("replace".into()),
                ],
            ],
            notes: vec![],
        };
        let text = show(&table, Some(30));
        assert!(text.contains("…") && text.contains("S01.xlsx"), "{text}");
        assert!(text.lines().all(|l| l.width() <= 30), "{text}");
    }

    #[test]
    fn titles_and_notes_break_between_words() {
        let mut table = standings(&NAMES);
        table.notes = vec!["Order: games won (more first), then average score (higher first), then tiles left (fewer first).".into()];
        let text = show(&table, Some(40));
        assert!(
            text.contains("\nOrder: games won (more first), then\n"),
            "{text}"
        );
        let after_table = text.rsplit('─').next().unwrap();
        assert!(after_table.lines().all(|l| l.width() <= 40), "{text}");
        let piped = show(&table, None);
        assert!(
            piped.contains("then tiles left (fewer first).\n"),
            "{piped}"
        );
    }

    #[test]
    fn cuts_count_display_columns() {
        assert_eq!(cut_end("Vivian Ng Pik Sze", 10), "Vivian Ng…");
        assert_eq!(cut_end("陳大文陳大文", 6), "陳大…");
        assert_eq!(cut_end("陳大文", 6), "陳大文");
        assert_eq!(cut_start("a/b/S01.xlsx", 9), "…S01.xlsx");
    }
}
