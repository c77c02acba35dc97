//! How much one input may hold, checked before anything is allocated for it.
//!
//! A hostile or broken file must not exhaust memory or time: a workbook that
//! declares a far cell, a zip member that expands a thousandfold, a shared
//! string table that claims four billion entries, a 50 MB CSV line. Each
//! limit is generous for a real event (the largest tournament sheets are a
//! few hundred thousand cells) and can be changed through an environment
//! variable, so a director with an unusual file is never stuck.

use super::InputError;

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Cells held for one sheet: the non-blank cells with the blanks between
    /// them on each row; for `.xls` and `.ods` (read as a rectangle by their
    /// reader) the used range, from its first filled cell to its last.
    pub cells: u64,
    /// Bytes one member of a `.xlsx` / `.ods` zip may expand to.
    pub zip_member_bytes: u64,
    /// Entries of a workbook's shared string table (as declared, and as read).
    pub shared_strings: u64,
    /// Bytes of one line of a CSV file, its line break (LF or CRLF) not
    /// counted.
    pub line_bytes: u64,
    /// Bytes of one CSV field or workbook text cell.
    pub field_bytes: u64,
    /// Characters of one player's name or id.
    pub name_chars: u64,
    /// Bytes of text one sheet holds, a repeated or shared text counted
    /// each time it is held (a shared string named by a million cells is
    /// held a million times).
    pub sheet_text_bytes: u64,
    /// Seconds a workbook reader may take for one file (plus
    /// [`super::workbook::SECONDS_PER_MB`] for each MB of it).
    pub read_seconds: u64,
    /// Bytes of one input held whole while it is read (any file but a
    /// plain results or roster CSV file, which is read in chunks): a
    /// pipe or a device that never ends is refused here.
    pub file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            cells: 4_000_000,
            zip_member_bytes: 256 * 1024 * 1024,
            shared_strings: 2_000_000,
            line_bytes: 1024 * 1024,
            field_bytes: 32 * 1024,
            name_chars: 1_000,
            sheet_text_bytes: 128 * 1024 * 1024,
            read_seconds: 20,
            file_bytes: 256 * 1024 * 1024,
        }
    }
}

/// Each limit's environment variable, and what it limits (for messages).
pub const VARIABLES: [(&str, &str); 9] = [
    ("TILERANK_MAX_CELLS", "cells per sheet"),
    (
        "TILERANK_MAX_ZIP_MEMBER_BYTES",
        "expanded bytes per zip member",
    ),
    ("TILERANK_MAX_SHARED_STRINGS", "shared strings per workbook"),
    ("TILERANK_MAX_LINE_BYTES", "bytes per CSV line"),
    ("TILERANK_MAX_FIELD_BYTES", "bytes per field or text cell"),
    (
        "TILERANK_MAX_NAME_CHARS",
        "characters per player name or id",
    ),
    ("TILERANK_MAX_SHEET_TEXT_BYTES", "bytes of text per sheet"),
    (
        "TILERANK_READ_SECONDS",
        "seconds to read one workbook, plus 5 a MB",
    ),
    ("TILERANK_MAX_FILE_BYTES", "bytes of one input read whole"),
];

impl Limits {
    /// The defaults, each overridden by its environment variable when set.
    pub fn from_env() -> Result<Limits, InputError> {
        let mut limits = Limits::default();
        for (i, (var, what)) in VARIABLES.iter().enumerate() {
            let Some(value) = std::env::var_os(var) else {
                continue;
            };
            let value = value.to_string_lossy();
            let n: u64 = value
                .trim()
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| InputError::BadLimit {
                    var: var.to_string(),
                    value: value.to_string(),
                    what: what.to_string(),
                })?;
            *limits.slot(i) = n;
        }
        Ok(limits)
    }

    fn slot(&mut self, i: usize) -> &mut u64 {
        match i {
            0 => &mut self.cells,
            1 => &mut self.zip_member_bytes,
            2 => &mut self.shared_strings,
            3 => &mut self.line_bytes,
            4 => &mut self.field_bytes,
            5 => &mut self.name_chars,
            6 => &mut self.sheet_text_bytes,
            7 => &mut self.read_seconds,
            _ => &mut self.file_bytes,
        }
    }
}

/// The end of a limit message: the limit and how to change it.
pub fn hint(limit: u64, var: &str) -> String {
    format!("the limit is {limit} (set {var} to change it)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_sets_its_own_limit() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..VARIABLES.len() {
            let mut l = Limits::default();
            *l.slot(i) = 12_345;
            assert_ne!(l, Limits::default());
            assert!(seen.insert(format!("{l:?}")), "slot {i} is its own");
        }
    }
}
