//! Two checks of the same files a moment apart: what changed (the live check
//! of `check --watch`, which prints only that).

use crate::domain::CardKey;
use crate::event::Event;
use crate::place::Place;
use crate::problem::{Problem, Severity};
use std::collections::HashMap;

/// What one check found, kept to compare with the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckState {
    /// Errors and warnings, sorted by place.
    pub problems: Vec<Problem>,
    /// The cards accepted, with where each is.
    pub accepted: Vec<(CardKey, Place)>,
}

impl CheckState {
    pub fn of(event: &Event) -> CheckState {
        CheckState {
            problems: event
                .problems
                .sorted()
                .into_iter()
                .filter(|p| p.severity != Severity::Note)
                .cloned()
                .collect(),
            accepted: event
                .cards
                .iter()
                .map(|c| (c.key.clone(), c.place.clone()))
                .collect(),
        }
    }

    /// Takes over what `before` had found in `file` (a file that could not
    /// be read this time: half-written while a spreadsheet program saves).
    pub fn keep_file(&mut self, before: &CheckState, file: &str) {
        let in_file = |p: &Place| p.source.file == file;
        self.problems.extend(
            before
                .problems
                .iter()
                .filter(|p| in_file(&p.place))
                .cloned(),
        );
        self.problems.sort_by(|a, b| a.place.cmp(&b.place));
        self.accepted
            .extend(before.accepted.iter().filter(|(_, p)| in_file(p)).cloned());
    }

    pub fn error_count(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count()
    }
}

/// What changed from one check to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckDiff {
    /// Problems found now that the last check did not find.
    pub new: Vec<Problem>,
    /// Problems the last check found that are gone.
    pub fixed: Vec<Problem>,
    /// Cards accepted now that were not before.
    pub accepted: Vec<(CardKey, Place)>,
    /// Cards accepted before that are not now (rejected, or gone).
    pub unaccepted: Vec<(CardKey, Place)>,
}

impl CheckDiff {
    pub fn is_empty(&self) -> bool {
        self.new.is_empty()
            && self.fixed.is_empty()
            && self.accepted.is_empty()
            && self.unaccepted.is_empty()
    }
}

/// Items of `a` not in `b`, counting repeats (the same problem twice, then
/// once: one is fixed).
fn missing_from<T: Clone + Eq + std::hash::Hash>(a: &[T], b: &[T]) -> Vec<T> {
    let mut left: HashMap<&T, usize> = HashMap::new();
    for x in b {
        *left.entry(x).or_default() += 1;
    }
    a.iter()
        .filter(|x| match left.get_mut(x) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

/// What changed between two checks. A problem is the same when its
/// severity, place and message are; a card when its key and place are.
pub fn diff_checks(before: &CheckState, after: &CheckState) -> CheckDiff {
    type Key = (Severity, Place, String);
    let key = |p: &Problem| -> Key { (p.severity, p.place.clone(), p.message.clone()) };
    let back = |keys: Vec<Key>| -> Vec<Problem> {
        keys.into_iter()
            .map(|(severity, place, message)| Problem {
                severity,
                place,
                message,
                // (the terminal's: English)
                said: None,
            })
            .collect()
    };
    let (old, new): (Vec<Key>, Vec<Key>) = (
        before.problems.iter().map(key).collect(),
        after.problems.iter().map(key).collect(),
    );
    CheckDiff {
        new: back(missing_from(&new, &old)),
        fixed: back(missing_from(&old, &new)),
        accepted: missing_from(&after.accepted, &before.accepted),
        unaccepted: missing_from(&before.accepted, &after.accepted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Label, Stage};
    use crate::place::Source;

    fn error(row: u32, message: &str) -> Problem {
        Problem {
            severity: Severity::Error,
            place: Source::file("S01.csv").at(row, Some(7)),
            message: message.to_string(),
            said: None,
        }
    }

    fn card(table: u32) -> (CardKey, Place) {
        (
            CardKey {
                stage: Stage::prelim(),
                session: Label::Num(1),
                table: Label::Num(table),
            },
            Source::file("S01.csv").at(table * 10, None),
        )
    }

    #[test]
    fn lists_new_and_fixed_problems_and_newly_accepted_cards() {
        let before = CheckState {
            problems: vec![error(3, "score is x"), error(9, "sum is 2")],
            accepted: vec![card(1)],
        };
        let after = CheckState {
            problems: vec![error(9, "sum is 2"), error(14, "tiles is 107")],
            accepted: vec![card(1), card(2)],
        };
        let d = diff_checks(&before, &after);
        assert_eq!(d.new, vec![error(14, "tiles is 107")]);
        assert_eq!(d.fixed, vec![error(3, "score is x")]);
        assert_eq!(d.accepted, vec![card(2)]);
        assert!(d.unaccepted.is_empty());
        assert!(diff_checks(&after, &after).is_empty());
    }

    #[test]
    fn an_unreadable_file_keeps_what_it_had() {
        let before = CheckState {
            problems: vec![error(3, "score is x")],
            accepted: vec![card(1)],
        };
        let mut now = CheckState::default();
        now.keep_file(&before, "S01.csv");
        assert!(diff_checks(&before, &now).is_empty());
        now.keep_file(&before, "other.csv");
        assert_eq!(now, before);
    }
}
