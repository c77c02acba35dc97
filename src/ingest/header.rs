//! Header names as FORMATS.md matches them: case-insensitive, ignoring
//! spaces, `_` and `-` (and a trailing note in parentheses, as in the
//! printed `Game Won (1/0)`).

/// `"Game Won (1/0)"` -> `"gamewon"`, `"birth_date"` -> `"birthdate"`.
pub fn normalize(text: &str) -> String {
    let base = match (text.find('('), text.trim_end().ends_with(')')) {
        (Some(i), true) if i > 0 => &text[..i],
        _ => text,
    };
    base.chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-' && *c != '.' && *c != '\u{feff}')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A column the layout knows, with the spellings accepted for it.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub required: bool,
}

impl Column {
    /// Whether a header's normalized name `n` ([`normalize`]) names it.
    fn is_named(&self, n: &str) -> bool {
        n == self.name || self.aliases.contains(&n)
    }
}

/// Where each known column stands in a header row.
#[derive(Debug)]
pub struct ColumnMap {
    pub index: Vec<Option<usize>>,
    /// Columns whose name the layout does not know: (column, name).
    pub unknown: Vec<(usize, String)>,
    /// A known column's name given again, not read: (column, name, the
    /// column read).
    pub twice: Vec<(usize, String, usize)>,
    /// The header's columns, to its last filled cell: a line's filled
    /// field past them is no column's.
    pub width: usize,
}

impl ColumnMap {
    pub fn get(&self, i: usize) -> Option<usize> {
        self.index[i]
    }
}

/// Maps a header row to `columns`; `None` when a required column is missing.
pub fn map_header(cells: &[String], columns: &[Column]) -> Option<ColumnMap> {
    let normalized: Vec<String> = cells.iter().map(|c| normalize(c)).collect();
    let mut index = vec![None; columns.len()];
    let mut used = vec![false; cells.len()];
    for (ci, col) in columns.iter().enumerate() {
        for (i, n) in normalized.iter().enumerate() {
            if !used[i] && col.is_named(n) {
                index[ci] = Some(i);
                used[i] = true;
                break;
            }
        }
        if col.required && index[ci].is_none() {
            return None;
        }
    }
    let (mut unknown, mut twice) = (Vec::new(), Vec::new());
    for (i, c) in cells.iter().enumerate() {
        if used[i] || c.trim().is_empty() {
            continue;
        }
        let n = &normalized[i];
        let read = columns
            .iter()
            .position(|col| col.is_named(n))
            .and_then(|ci| index[ci]);
        match read {
            Some(first) => twice.push((i, c.clone(), first)),
            None => unknown.push((i, c.clone())),
        }
    }
    let width = cells
        .iter()
        .rposition(|c| !c.trim().is_empty())
        .map_or(0, |i| i + 1);
    Some(ColumnMap {
        index,
        unknown,
        twice,
        width,
    })
}

/// How near a header row comes to a layout: how many of its cells name a
/// column of the layout, and the names of the required columns it lacks.
/// `either` is a pair of columns of which one is required (a racks
/// header's `points` or `rack`), named `points or rack` when both are
/// lacking.
pub fn lacking(
    cells: &[String],
    columns: &[Column],
    either: Option<(usize, usize)>,
) -> (usize, Vec<String>) {
    let normalized: Vec<String> = cells.iter().map(|c| normalize(c)).collect();
    let named = |col: &Column| normalized.iter().any(|n| col.is_named(n));
    let known = normalized
        .iter()
        .filter(|n| columns.iter().any(|c| c.is_named(n)))
        .count();
    let mut lacks: Vec<String> = columns
        .iter()
        .filter(|c| c.required && !named(c))
        .map(|c| c.name.to_string())
        .collect();
    if let Some((a, b)) = either {
        if !named(&columns[a]) && !named(&columns[b]) {
            lacks.push(format!("{} or {}", columns[a].name, columns[b].name));
        }
    }
    (known, lacks)
}

/// Reads a table layout: skips blank rows, finds the header row (the first
/// that `accept`s, after [`map_header`]), warns of unknown columns, and hands
/// every later non-blank row to `line` with the column map. A row that
/// cannot be read ends the sheet with an error: false then (the lines
/// after it are not read, and the cards read may be short of them).
pub fn each_line(
    source: &crate::place::Source,
    mut rows: impl Iterator<Item = Result<super::cell::Row, super::text::RowError>>,
    columns: &[Column],
    accept: impl Fn(&ColumnMap) -> bool,
    problems: &mut crate::problem::Problems,
    mut line: impl FnMut(&ColumnMap, super::cell::Row, &mut crate::problem::Problems),
) -> bool {
    let Some(map) = header_of(source, &mut rows, columns, accept, problems) else {
        return true;
    };
    for row in rows {
        match row {
            Ok(row) if blank_in_table(source, &map, &row) => {}
            Ok(row) => line(&map, row, problems),
            Err(e) => {
                problems.error(source.place(e.at), e.message);
                return false;
            }
        }
    }
    true
}

/// Whether `row` holds nothing in the table (a card's or a roster's):
/// blank, or, in a workbook,
/// with cells right of the header's columns only (a note beside the
/// table, such as "checked by Bob", on a row of its own: not a line). In a
/// CSV file a field past the header is its line's error
/// ([`super::lines::beyond_header`]), and the line is read.
pub fn blank_in_table(
    source: &crate::place::Source,
    map: &ColumnMap,
    row: &super::cell::Row,
) -> bool {
    row.is_blank()
        || (source.is_workbook()
            && row
                .cells
                .iter()
                .take(map.width)
                .all(super::cell::Cell::is_empty))
}

/// The column map of the first row of `rows` that `accept`s (rows read up
/// to it), as [`each_line`] finds it; `None` when there is none, or a row
/// before it cannot be read (an error said).
pub fn header_of(
    source: &crate::place::Source,
    rows: &mut impl Iterator<Item = Result<super::cell::Row, super::text::RowError>>,
    columns: &[Column],
    accept: impl Fn(&ColumnMap) -> bool,
    problems: &mut crate::problem::Problems,
) -> Option<ColumnMap> {
    for row in rows {
        let row = match row {
            Ok(row) => row,
            Err(e) => {
                problems.error(source.place(e.at), e.message);
                return None;
            }
        };
        if row.is_blank() {
            continue;
        }
        let texts: Vec<String> = row.cells.iter().map(super::cell::Cell::as_text).collect();
        if let Some(m) = map_header(&texts, columns).filter(|m| accept(m)) {
            warn_unknown(source, &row, &m, problems);
            return Some(m);
        }
    }
    None
}

/// A warning for each column of the header `row` that is not read: one
/// the layout does not know, or a known one given again (the first is
/// read).
pub fn warn_unknown(
    source: &crate::place::Source,
    row: &super::cell::Row,
    map: &ColumnMap,
    problems: &mut crate::problem::Problems,
) {
    use crate::problem::said::{Msg, Part, Said};
    let mut said: Vec<(usize, Said)> = map
        .unknown
        .iter()
        .map(|(i, name)| {
            let name = Part::text(super::cell::quoted(name));
            (*i, Said::new(Msg::UnknownColumn, [name]))
        })
        .collect();
    said.extend(map.twice.iter().map(|(i, name, first)| {
        (
            *i,
            Said::new(
                Msg::ColumnTwice,
                [
                    Part::text(super::cell::quoted(name)),
                    Part::text(row.place(source, *first)),
                ],
            ),
        )
    }));
    said.sort_by_key(|(i, _)| *i);
    for (i, text) in said {
        problems.warning(row.place(source, i), text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignores_case_spaces_underscores_dashes_and_notes() {
        assert_eq!(normalize("Game Won (1/0)"), "gamewon");
        assert_eq!(normalize("Score (+/-)"), "score");
        assert_eq!(normalize("birth_date"), "birthdate");
        assert_eq!(normalize(" Birth-Date "), "birthdate");
        assert_eq!(normalize("(C)"), "(c)");
    }
}
