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

/// The problems of one run, in the order found.
#[derive(Debug, Default)]
pub struct Problems {
    items: Vec<Problem>,
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

    pub fn push(&mut self, severity: Severity, place: Place, message: impl Into<String>) {
        self.items.push(Problem {
            severity,
            place,
            message: message.into(),
        });
    }

    pub fn extend(&mut self, other: Problems) {
        self.items.extend(other.items);
    }

    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count()
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|p| p.severity == Severity::Error)
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
