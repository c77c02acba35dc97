//! Problems found in the data, collected rather than thrown.
//!
//! Every reader and check reports into one [`Problems`] list and carries on,
//! so a run lists every error at once; the exit status is settled at the end
//! from what was collected (FORMATS.md: 1 when the data has errors).

use crate::place::Place;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The data is wrong: the card (or file) it belongs to is not used.
    Error,
    /// Worth reading, changes nothing (an unknown column, a skipped sheet).
    Warning,
    /// A fact the director should see (a tie at the cutoff).
    Note,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    pub place: Place,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        write!(f, "{}: {}: {}", self.place, label, self.message)
    }
}

/// The problems of one run, in the order found. Counts are kept as the
/// problems come, so asking for them costs nothing however many there are.
#[derive(Clone, Debug, Default)]
pub struct Problems {
    items: Vec<Problem>,
    /// Problems of each severity, indexed by [`Severity::index`].
    counts: [usize; 3],
    /// Errors that are files (or parts of them) that cannot be read at all:
    /// the run ends with exit status 2 once everything is listed.
    unreadable: usize,
}

impl Severity {
    fn index(self) -> usize {
        match self {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Note => 2,
        }
    }
}

impl Problems {
    pub fn new() -> Problems {
        Problems::default()
    }

    pub fn error(&mut self, place: Place, message: impl Into<String>) {
        self.push(Severity::Error, place, message);
    }

    pub fn warning(&mut self, place: Place, message: impl Into<String>) {
        self.push(Severity::Warning, place, message);
    }

    pub fn note(&mut self, place: Place, message: impl Into<String>) {
        self.push(Severity::Note, place, message);
    }

    /// An error that makes a file (or a part of it) unreadable: over a
    /// limit, damaged, a reader that failed. Listed like any error; the run
    /// then ends with exit status 2.
    pub fn unreadable(&mut self, place: Place, message: impl Into<String>) {
        self.unreadable += 1;
        self.push(Severity::Error, place, message);
    }

    /// How many errors made a file unreadable.
    pub fn unreadable_count(&self) -> usize {
        self.unreadable
    }

    pub fn push(&mut self, severity: Severity, place: Place, message: impl Into<String>) {
        self.counts[severity.index()] += 1;
        self.items.push(Problem {
            severity,
            place,
            message: message.into(),
        });
    }

    pub fn extend(&mut self, other: Problems) {
        for i in 0..self.counts.len() {
            self.counts[i] += other.counts[i];
        }
        self.unreadable += other.unreadable;
        self.items.extend(other.items);
    }

    /// Moves every problem that names a row down `by` rows: a reader that
    /// read a part of a file, its rows counted from the part's start, says
    /// them where they are in the file.
    pub fn move_rows(&mut self, by: u32) {
        for p in &mut self.items {
            if let Some(row) = &mut p.place.row {
                *row = row.saturating_add(by);
            }
        }
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.counts[severity.index()]
    }

    pub fn error_count(&self) -> usize {
        self.count(Severity::Error)
    }

    pub fn has_errors(&self) -> bool {
        self.error_count() > 0
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.items.iter()
    }

    /// Sorted by place (file, sheet, row, column), so the list reads like
    /// the files; problems without a row come first within their source.
    pub fn sorted(&self) -> Vec<&Problem> {
        let mut v: Vec<&Problem> = self.items.iter().collect();
        v.sort_by(|a, b| a.place.cmp(&b.place));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_what_is_pushed_and_extended() {
        let place = || Place::nowhere("x");
        let mut a = Problems::new();
        a.error(place(), "e");
        a.warning(place(), "w");
        a.unreadable(place(), "u");
        let mut b = Problems::new();
        b.note(place(), "n");
        b.error(place(), "e2");
        a.extend(b);
        assert_eq!(a.error_count(), 3);
        assert_eq!(a.count(Severity::Warning), 1);
        assert_eq!(a.count(Severity::Note), 1);
        assert_eq!(a.unreadable_count(), 1);
        assert_eq!(
            a.iter().filter(|p| p.severity == Severity::Error).count(),
            a.error_count()
        );
        assert!(a.has_errors() && !Problems::new().has_errors());
    }
}
