//! Where something was read: file, sheet, row, column.
//!
//! Printed the way editors and people can follow: `session3.csv:14:6` for a
//! CSV line and field, `S03.xlsx[Table 7]!E9` for a workbook cell.

use std::fmt;
use std::sync::Arc;

/// A file, and the sheet inside it for workbooks. Every cell's place holds
/// one, so it is a single shared pointer: a place costs 24 bytes, however
/// long the names.
#[derive(Clone, Debug, Eq, PartialOrd, Ord)]
pub struct Source(Arc<SourceName>);

/// Two sources are equal when their names are (the same pointer, the
/// common case, is said at once).
impl PartialEq for Source {
    fn eq(&self, other: &Source) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

/// Hashed by its name, as it is compared.
impl std::hash::Hash for Source {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceName {
    pub file: String,
    pub sheet: Option<String>,
    /// Where what is read here came from, in words, when it is named so
    /// and not by its own file: a card stored in an event's database,
    /// `imported from S07.xlsx[Table 03] on 2026-03-14 22:31 UTC` (its
    /// sheet and cells in the database would tell a director nothing).
    pub origin: Option<Arc<str>>,
}

impl std::ops::Deref for Source {
    type Target = SourceName;
    fn deref(&self) -> &SourceName {
        &self.0
    }
}

impl Source {
    pub fn file(file: &str) -> Source {
        Source(Arc::new(SourceName {
            file: file.into(),
            sheet: None,
            origin: None,
        }))
    }

    pub fn sheet(file: &str, sheet: &str) -> Source {
        Source(Arc::new(SourceName {
            file: file.into(),
            sheet: Some(sheet.into()),
            origin: None,
        }))
    }

    /// A sheet of `file` named, with any row and cell of it, by `origin`
    /// when it is given (see [`SourceName::origin`]).
    pub fn sheet_from(file: &str, sheet: &str, origin: Option<Arc<str>>) -> Source {
        Source(Arc::new(SourceName {
            file: file.into(),
            sheet: Some(sheet.into()),
            origin,
        }))
    }

    pub fn is_workbook(&self) -> bool {
        self.sheet.is_some()
    }

    pub fn at(&self, row: u32, col: Option<u32>) -> Place {
        Place {
            source: self.clone(),
            row: Some(row),
            col,
        }
    }

    pub fn whole(&self) -> Place {
        Place {
            source: self.clone(),
            row: None,
            col: None,
        }
    }

    /// The place `at` names in this source.
    pub fn place(&self, at: At) -> Place {
        Place {
            source: self.clone(),
            row: (at.row > 0).then_some(at.row),
            col: (at.col > 0).then_some(at.col),
        }
    }
}

/// Where a value stands inside a source it does not name: its 1-based row
/// (a CSV line) and column, 0 where not known. A card read from a file
/// holds its [`Source`] once and each of its values an `At`: 8 bytes and
/// nothing shared to count, however many millions of lines a file has. It
/// becomes a [`Place`] only when a message needs one ([`Source::place`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct At {
    pub row: u32,
    pub col: u32,
}

impl At {
    /// The whole source.
    pub const WHOLE: At = At { row: 0, col: 0 };

    /// A whole row (a CSV line).
    pub fn row(row: u32) -> At {
        At { row, col: 0 }
    }

    /// One cell (a CSV field).
    pub fn cell(row: u32, col: u32) -> At {
        At { row, col }
    }

    /// The row, without the column.
    pub fn whole_row(self) -> At {
        At::row(self.row)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(origin) = &self.origin {
            return f.write_str(origin);
        }
        match &self.sheet {
            Some(sheet) => write!(f, "{}[{}]", self.file, sheet),
            None => write!(f, "{}", self.file),
        }
    }
}

/// A place in a source: 1-based row (CSV line) and column, when known.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    pub source: Source,
    pub row: Option<u32>,
    pub col: Option<u32>,
}

impl Place {
    /// A place that is not in a file (the command line, a computed check).
    pub fn nowhere(what: &str) -> Place {
        Source::file(what).whole()
    }

    pub fn with_col(&self, col: u32) -> Place {
        Place {
            col: Some(col),
            ..self.clone()
        }
    }
}

/// `1 -> A`, `27 -> AA`: a spreadsheet column name.
pub fn column_name(col: u32) -> String {
    let mut n = col;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if self.source.origin.is_some() {
            // (its origin names no row or cell of its own)
            return Ok(());
        }
        if self.source.is_workbook() {
            match (self.row, self.col) {
                (Some(r), Some(c)) => write!(f, "!{}{}", column_name(c), r),
                (Some(r), None) => write!(f, " row {r}"),
                _ => Ok(()),
            }
        } else {
            match (self.row, self.col) {
                (Some(r), Some(c)) => write!(f, ":{r}:{c}"),
                (Some(r), None) => write!(f, ":{r}"),
                _ => Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_csv_and_workbook_places() {
        assert_eq!(
            Source::file("session3.csv").at(14, Some(6)).to_string(),
            "session3.csv:14:6"
        );
        assert_eq!(
            Source::file("session3.csv").at(14, None).to_string(),
            "session3.csv:14"
        );
        assert_eq!(
            Source::sheet("S03.xlsx", "Table 7")
                .at(9, Some(5))
                .to_string(),
            "S03.xlsx[Table 7]!E9"
        );
        assert_eq!(
            Source::sheet("S03.xlsx", "Table 7").whole().to_string(),
            "S03.xlsx[Table 7]"
        );
        // a stored card's cell, named by where the card came from
        let stored = Source::sheet_from(
            "EVENT/tilerank.db",
            "prelim-S07-T03",
            Some("imported from S07.xlsx[Table 03] on 2026-03-14 22:31 UTC".into()),
        );
        assert_eq!(
            stored.at(2, Some(6)).to_string(),
            "imported from S07.xlsx[Table 03] on 2026-03-14 22:31 UTC"
        );
        assert_eq!(
            Source::sheet_from("EVENT/tilerank.db", "prelim-S07-T03", None)
                .at(2, Some(6))
                .to_string(),
            "EVENT/tilerank.db[prelim-S07-T03]!F2"
        );
    }

    #[test]
    fn a_place_is_small() {
        assert_eq!(std::mem::size_of::<Place>(), 24);
    }

    #[test]
    fn names_columns_like_a_spreadsheet() {
        assert_eq!(column_name(1), "A");
        assert_eq!(column_name(26), "Z");
        assert_eq!(column_name(27), "AA");
        assert_eq!(column_name(703), "AAA");
    }
}
