//! Problems found in the data, collected rather than thrown.
//!
//! Every reader and check reports into one [`Problems`] list and carries on,
//! so a run lists every error at once; the exit status is settled at the end
//! from what was collected (FORMATS.md: 1 when the data has errors).

pub mod said;

use crate::lang::Lang;
use crate::place::Place;
use crate::profile::{ProfileName, PROFILES};
use said::{Msg, Part, Said};
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
    /// In English: what the commands, the files and the log say.
    pub message: String,
    /// The message as made, when a card's checks made it
    /// ([`said`]): said in the page's language where one is shown.
    pub said: Option<Said>,
}

impl Problem {
    /// The message in `lang`'s words (in English when it has none).
    pub fn message_in(&self, lang: Lang) -> String {
        match &self.said {
            Some(s) if lang != Lang::En => s.say(lang),
            _ => self.message.clone(),
        }
    }
}

/// A problem's message as a check gives it: its English, or a message of
/// a card's checks ([`Said`]), said in English as
/// [`Problem::message`].
#[derive(Clone, Debug)]
pub enum Message {
    English(String),
    Said(Said),
}

impl From<String> for Message {
    fn from(s: String) -> Message {
        Message::English(s)
    }
}

impl From<&str> for Message {
    fn from(s: &str) -> Message {
        Message::English(s.to_string())
    }
}

impl From<&String> for Message {
    fn from(s: &String) -> Message {
        Message::English(s.clone())
    }
}

impl From<Said> for Message {
    fn from(s: Said) -> Message {
        Message::Said(s)
    }
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

/// The errors listed for one file at most: past them, a file's errors are
/// counted, not kept (a file of three million bad lines held them all, some
/// 2 GB), and one closing error says how many more there are
/// ([`Problems::sorted`] lists it after the file's others).
pub const ERRORS_KEPT_PER_FILE: usize = 1_000;

/// The problems of one run, in the order found. Counts are kept as the
/// problems come, so asking for them costs nothing however many there are.
/// At most [`ERRORS_KEPT_PER_FILE`] errors of a file are kept.
#[derive(Clone, Debug, Default)]
pub struct Problems {
    items: Vec<Problem>,
    /// Problems of each severity, indexed by [`Severity::index`], those
    /// counted and not kept too.
    counts: [usize; 3],
    /// Errors that are files (or parts of them) that cannot be read at all:
    /// the run ends with exit status 2 once everything is listed.
    unreadable: usize,
    /// Errors kept, by file.
    kept: std::collections::HashMap<String, usize>,
    /// The files whose errors were more than are kept: each one's closing
    /// error (its index in `items`) and how many were not kept.
    more: Vec<More>,
    /// The cards refused by their own checks, under which built-in
    /// profiles they add up ([`Problems::other_profile`]), and the hints
    /// of their games ([`Problems::hint`]); none until a card is refused
    /// (held apart: a list of problems is moved about, and most have
    /// none).
    refused: Option<Box<Refused>>,
}

/// The hints of a run kept at most: past them, hints are counted (a file
/// of a million games each refused would otherwise hold a hint for each).
pub const HINTS_KEPT: usize = ERRORS_KEPT_PER_FILE;

/// A hint about a game already refused: what would make it pass (a minus
/// sign lost), said after the errors, on a line of its own
/// (`hint: session S03 table 7 game 2: ...`). It is no problem: it changes
/// no count and no exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The game's place (its first line), for the order they are said in.
    pub place: Place,
    pub said: Said,
}

/// An event's own settings, set aside for one run by the option that
/// gave other rules (`--profile gwinnett` naming another profile than the
/// event's, or `--rules club.toml`), as given.
#[derive(Clone, Debug)]
pub struct SetAside<'a> {
    pub own: &'a crate::profile::Rules,
    pub option: String,
}

/// Cards refused by their own checks
/// ([`crate::rules::card_checks::check_values`]), and of them, those that
/// add up under each built-in profile instead (in the order of
/// [`PROFILES`]).
#[derive(Clone, Debug, Default)]
struct Refused {
    cards: usize,
    add_up: [usize; PROFILES.len()],
    /// Hints of games refused that one sign mended makes pass, at most
    /// [`HINTS_KEPT`].
    hints: Vec<Hint>,
    /// Hints counted past [`HINTS_KEPT`], not kept.
    hints_more: usize,
}

#[derive(Clone, Debug)]
struct More {
    file: String,
    item: usize,
    count: usize,
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

    pub fn error(&mut self, place: Place, message: impl Into<Message>) {
        self.push(Severity::Error, place, message);
    }

    pub fn warning(&mut self, place: Place, message: impl Into<Message>) {
        self.push(Severity::Warning, place, message);
    }

    pub fn note(&mut self, place: Place, message: impl Into<Message>) {
        self.push(Severity::Note, place, message);
    }

    /// An error that makes a file (or a part of it) unreadable: over a
    /// limit, damaged, a reader that failed. Listed like any error; the run
    /// then ends with exit status 2.
    pub fn unreadable(&mut self, place: Place, message: impl Into<Message>) {
        self.unreadable += 1;
        self.push(Severity::Error, place, message);
    }

    /// How many errors made a file unreadable.
    pub fn unreadable_count(&self) -> usize {
        self.unreadable
    }

    pub fn push(&mut self, severity: Severity, place: Place, message: impl Into<Message>) {
        let (message, said) = match message.into() {
            Message::English(m) => (m, None),
            Message::Said(s) => (s.to_string(), Some(s)),
        };
        self.push_problem(Problem {
            severity,
            place,
            message,
            said,
        });
    }

    fn push_problem(&mut self, p: Problem) {
        if p.severity == Severity::Error && !self.keeps(&p.place.source.file) {
            self.not_kept(&p.place.source.file, 1);
            return;
        }
        self.counts[p.severity.index()] += 1;
        self.items.push(p);
    }

    /// Whether one more error of `file` is kept (it is then counted as
    /// kept).
    fn keeps(&mut self, file: &str) -> bool {
        let kept = match self.kept.get_mut(file) {
            Some(n) => n,
            None => self.kept.entry(file.to_string()).or_default(),
        };
        if *kept >= ERRORS_KEPT_PER_FILE {
            return false;
        }
        *kept += 1;
        true
    }

    /// `n` errors of `file` counted, not kept: said by the file's closing
    /// error.
    fn not_kept(&mut self, file: &str, n: usize) {
        self.counts[Severity::Error.index()] += n;
        let i = match self.more.iter().position(|m| m.file == file) {
            Some(i) => i,
            None => {
                self.items.push(Problem {
                    severity: Severity::Error,
                    place: crate::place::Source::file(file).whole(),
                    message: String::new(),
                    said: None,
                });
                self.more.push(More {
                    file: file.to_string(),
                    item: self.items.len() - 1,
                    count: 0,
                });
                self.more.len() - 1
            }
        };
        let more = &mut self.more[i];
        more.count += n;
        let message = &mut self.items[more.item].message;
        message.clear();
        use std::fmt::Write;
        let _ = write!(
            message,
            "… and {} more {} in {file} (the first {ERRORS_KEPT_PER_FILE} are listed)",
            more.count,
            if more.count == 1 { "error" } else { "errors" }
        );
    }

    /// A card refused by its own checks, that adds up under the built-in
    /// profiles marked in `under` (by their place in [`PROFILES`]).
    pub fn refused_card(&mut self, under: [bool; PROFILES.len()]) {
        let refused = self.refused.get_or_insert_default();
        refused.cards += 1;
        for (n, adds_up) in refused.add_up.iter_mut().zip(under) {
            *n += usize::from(adds_up);
        }
    }

    /// What to say when the cards refused by their own checks under the
    /// profile `active` add up under another built-in profile: all of
    /// them, or most (two or more) when some have mistakes of their own;
    /// the profile most of them add up under (all those as many add up
    /// under, the first one to give). A card of a Gwinnett event checked
    /// under `hk` rules gets a dozen errors of sums and scores: this says
    /// why, once.
    pub fn other_profile(&self, active: ProfileName) -> Option<Said> {
        self.other_profile_said(active, false, None)
    }

    /// As [`Problems::other_profile`], in an event folder whose own
    /// settings the command set aside (`set_aside`): when those settings
    /// score the games as a profile the cards add up under, the hint says
    /// to drop the option, naming the event's settings file, and no other
    /// profile (an nvso event's cards read with `--profile gwinnett`).
    pub fn other_profile_than_own(
        &self,
        active: ProfileName,
        set_aside: &SetAside,
    ) -> Option<Said> {
        self.other_profile_said(active, false, Some(set_aside))
    }

    /// As [`Problems::other_profile`], said by `import`: an event folder's
    /// rules are its `tilerank.toml`, which `--profile` does not change.
    pub fn other_profile_in_event(&self, active: ProfileName) -> Option<Said> {
        self.other_profile_said(active, true, None)
    }

    fn other_profile_said(
        &self,
        active: ProfileName,
        in_event: bool,
        set_aside: Option<&SetAside>,
    ) -> Option<Said> {
        let Refused { cards, add_up, .. } = self.refused.as_deref()?;
        let most = add_up.iter().copied().max().unwrap_or(0);
        if most == 0 || (most < *cards && (most < 2 || most * 2 < *cards)) {
            return None;
        }
        let names: Vec<ProfileName> = ProfileName::all()
            .zip(add_up)
            .filter(|(_, n)| **n == most)
            .map(|(p, _)| p)
            .collect();
        let own = set_aside.filter(|s| {
            names
                .iter()
                .any(|&p| crate::rules::card_checks::scores_as(p, s.own))
        });
        let profiles = Part::List(names.iter().map(Part::text).collect(), Msg::Or);
        let (active, first) = (Part::text(active), Part::text(names[0]));
        // (in an event, the profile to make its settings from is named
        // twice)
        let (one, many) = match (in_event, own) {
            (_, Some(_)) => (Msg::CardAddsUpOwn, Msg::CardsAddUpOwn),
            (false, None) => (Msg::CardAddsUp, Msg::CardsAddUp),
            (true, None) => (Msg::CardAddsUpInEvent, Msg::CardsAddUpInEvent),
        };
        let mut tail = match own {
            Some(own) => vec![
                Part::text(own.own.written_at.file()),
                Part::text(own.own.profile),
                active,
                Part::text(&own.option),
            ],
            None => vec![profiles, active, first.clone()],
        };
        if in_event {
            tail.push(first);
        }
        Some(match (most, *cards) {
            (1, 1) => Said::new(one, tail),
            (most, cards) => {
                let which = if most == cards {
                    Part::said(Msg::CardsRejected, [Part::text(cards)])
                } else {
                    Part::said(
                        Msg::SomeCardsRejected,
                        [Part::text(most), Part::text(cards)],
                    )
                };
                Said::new(many, std::iter::once(which).chain(tail))
            }
        })
    }

    /// A hint about a game its checks refused ([`Hint`]).
    pub fn hint(&mut self, place: Place, said: Said) {
        let refused = self.refused.get_or_insert_default();
        if refused.hints.len() < HINTS_KEPT {
            refused.hints.push(Hint { place, said });
        } else {
            refused.hints_more += 1;
        }
    }

    /// The hints, by place (file, sheet, row), and how many more were
    /// counted and not kept.
    pub fn hints(&self) -> (Vec<&Hint>, usize) {
        let Some(refused) = self.refused.as_deref() else {
            return (Vec::new(), 0);
        };
        let mut hints: Vec<&Hint> = refused.hints.iter().collect();
        hints.sort_by(|a, b| a.place.cmp(&b.place));
        (hints, refused.hints_more)
    }

    pub fn extend(&mut self, other: Problems) {
        self.unreadable += other.unreadable;
        if let Some(theirs) = other.refused {
            let refused = self.refused.get_or_insert_default();
            refused.cards += theirs.cards;
            for (n, more) in refused.add_up.iter_mut().zip(theirs.add_up) {
                *n += more;
            }
            refused.hints_more += theirs.hints_more;
            for h in theirs.hints {
                self.hint(h.place, h.said);
            }
        }
        let mut closing: Vec<usize> = other.more.iter().map(|m| m.item).collect();
        closing.sort_unstable();
        for (i, p) in other.items.into_iter().enumerate() {
            if closing.binary_search(&i).is_ok() {
                continue;
            }
            self.push_problem(p);
        }
        for m in other.more {
            self.not_kept(&m.file, m.count);
        }
    }

    /// Moves every problem that names a row down `by` rows: a reader that
    /// read a part of a file, its rows counted from the part's start, says
    /// them where they are in the file.
    pub fn move_rows(&mut self, by: u32) {
        let hints = self.refused.iter_mut().flat_map(|r| &mut r.hints);
        let places =
            (self.items.iter_mut().map(|p| &mut p.place)).chain(hints.map(|h| &mut h.place));
        for place in places {
            if let Some(row) = &mut place.row {
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

    /// How many errors each file has (as its places name it), those
    /// counted and not kept too: the files whose errors stop the answers,
    /// for a notice that names them.
    pub fn errors_by_file(&self) -> std::collections::BTreeMap<String, usize> {
        let mut by_file = std::collections::BTreeMap::new();
        for (i, p) in self.items.iter().enumerate() {
            if p.severity == Severity::Error {
                // (a file's closing error counts its errors not kept)
                let n = match self.more.iter().find(|m| m.item == i) {
                    Some(more) => more.count,
                    None => 1,
                };
                *by_file.entry(p.place.source.file.clone()).or_default() += n;
            }
        }
        by_file
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
    /// the files; problems without a row come first within their source,
    /// and a file's closing error (its errors not kept) last within the
    /// file.
    pub fn sorted(&self) -> Vec<&Problem> {
        let mut closing: Vec<usize> = self.more.iter().map(|m| m.item).collect();
        closing.sort_unstable();
        let mut v: Vec<(bool, &Problem)> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, p)| (closing.binary_search(&i).is_ok(), p))
            .collect();
        v.sort_by(|(a_last, a), (b_last, b)| {
            (&a.place.source.file, a_last, &a.place).cmp(&(&b.place.source.file, b_last, &b.place))
        });
        v.into_iter().map(|(_, p)| p).collect()
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

    /// The hint of cards that add up under another profile: when all the
    /// cards refused do, or most of them (two or more), said once, over
    /// the lists merged; never for a card refused alone among others.
    #[test]
    fn cards_refused_that_add_up_elsewhere_are_said_once() {
        let gwinnett = ProfileName::all()
            .position(|p| p.as_str() == "gwinnett")
            .unwrap();
        let refuse = |p: &mut Problems, adds_up: bool| {
            let mut under = [false; PROFILES.len()];
            under[gwinnett] = adds_up;
            p.refused_card(under);
        };
        let hk = ProfileName::default();
        let said = |p: &Problems| p.other_profile(hk).map(|s| s.to_string());
        let mut a = Problems::new();
        assert_eq!(said(&a), None);
        refuse(&mut a, true);
        let mut b = Problems::new();
        for _ in 0..8 {
            refuse(&mut b, true);
        }
        a.extend(b);
        assert_eq!(
            said(&a).as_deref(),
            Some("the 9 cards rejected add up under the gwinnett profile, not under the hk rules: give --profile gwinnett")
        );
        refuse(&mut a, false);
        assert_eq!(
            said(&a).as_deref(),
            Some("9 of the 10 cards rejected add up under the gwinnett profile, not under the hk rules: give --profile gwinnett")
        );
        assert_eq!(
            a.other_profile(hk).unwrap().say(Lang::ZhHant),
            "被拒的 10 張計分卡中有 9 張按 gwinnett 規則計分才相符，不符 hk 規則：請加上 --profile gwinnett"
        );
        // one of two, or fewer than half: no hint
        let mut c = Problems::new();
        refuse(&mut c, true);
        refuse(&mut c, false);
        assert_eq!(said(&c), None);
        for _ in 0..2 {
            refuse(&mut c, false);
        }
        refuse(&mut c, true);
        assert_eq!(said(&c), None);
        refuse(&mut c, true);
        assert!(said(&c).unwrap().starts_with("3 of the 6 cards rejected"));
        // in an event of gwinnett's rules set aside by --profile hk: drop
        // it; in an event of other rules, the profile as before
        let mut own = crate::profile::ProfileName::all()
            .find(|p| p.as_str() == "gwinnett")
            .unwrap()
            .rules();
        own.written_at.file = Some("gw/tilerank.toml".into());
        let set_aside = SetAside {
            own: &own,
            option: "--profile hk".into(),
        };
        let mut one = Problems::new();
        refuse(&mut one, true);
        assert_eq!(
            one.other_profile_than_own(hk, &set_aside).unwrap().to_string(),
            "the card rejected adds up under the event's own settings (gw/tilerank.toml, the gwinnett profile), not under the hk rules: drop --profile hk"
        );
        assert_eq!(
            a.other_profile_than_own(hk, &set_aside).unwrap().to_string(),
            "9 of the 10 cards rejected add up under the event's own settings (gw/tilerank.toml, the gwinnett profile), not under the hk rules: drop --profile hk"
        );
        assert_eq!(
            a.other_profile_than_own(hk, &set_aside).unwrap().say(Lang::ZhHant),
            "被拒的 10 張計分卡中有 9 張按賽事本身的設定（gw/tilerank.toml，gwinnett 規則）計分才相符，不符 hk 規則：請去掉 --profile hk"
        );
        let pressman = crate::profile::ProfileName::all()
            .find(|p| p.as_str() == "pressman")
            .unwrap()
            .rules();
        let other = SetAside {
            own: &pressman,
            ..set_aside
        };
        assert_eq!(
            a.other_profile_than_own(hk, &other).map(|s| s.to_string()),
            said(&a)
        );
    }

    /// Hints are kept in the order of their places over lists merged and
    /// rows moved, past [`HINTS_KEPT`] counted; they count as no problem.
    #[test]
    fn hints_are_kept_by_place_and_counted_past_the_kept_ones() {
        let a = crate::place::Source::file("a.csv");
        let hint = |n: u32| Said::new(Msg::Game, [Part::text(n)]);
        let mut first = Problems::new();
        first.hint(a.at(9, None), hint(9));
        let mut second = Problems::new();
        second.hint(a.at(2, None), hint(2));
        second.move_rows(1);
        first.extend(second);
        let (hints, more) = first.hints();
        let said: Vec<String> = hints
            .iter()
            .map(|h| format!("{} {}", h.place, h.said))
            .collect();
        assert_eq!(
            (said, more),
            (vec!["a.csv:3 game 2".into(), "a.csv:9 game 9".into()], 0)
        );
        assert!(first.is_empty() && !first.has_errors());
        for n in 0..HINTS_KEPT as u32 + 5 {
            first.hint(a.at(n + 10, None), hint(n));
        }
        assert_eq!(first.hints().0.len(), HINTS_KEPT);
        let mut all = Problems::new();
        all.hint(a.at(1, None), hint(1));
        all.extend(first);
        let (hints, more) = all.hints();
        assert_eq!((hints.len(), more), (HINTS_KEPT, 8));
    }

    /// Past the errors kept for a file, its errors are counted, and one
    /// closing error says how many more, listed after the file's others;
    /// another file's errors, warnings and counts are as they were.
    #[test]
    fn a_files_errors_past_the_kept_ones_are_counted_not_kept() {
        let a = crate::place::Source::file("a.csv");
        let b = crate::place::Source::file("b.csv");
        let mut p = Problems::new();
        let extra = 2_500;
        for row in 1..=(ERRORS_KEPT_PER_FILE + extra) as u32 {
            p.error(a.at(row, None), "bad");
            p.warning(a.at(row, None), "odd");
        }
        p.error(b.at(1, None), "bad too");
        assert_eq!(p.error_count(), ERRORS_KEPT_PER_FILE + extra + 1);
        assert_eq!(p.count(Severity::Warning), ERRORS_KEPT_PER_FILE + extra);
        let sorted = p.sorted();
        let errors: Vec<String> = sorted
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(|p| p.to_string())
            .collect();
        assert_eq!(errors.len(), ERRORS_KEPT_PER_FILE + 2);
        assert_eq!(
            errors[ERRORS_KEPT_PER_FILE],
            "a.csv: error: … and 2500 more errors in a.csv (the first 1000 are listed)"
        );
        assert_eq!(errors[ERRORS_KEPT_PER_FILE + 1], "b.csv:1: error: bad too");
        // each file's errors, those not kept too (the warnings not)
        assert_eq!(
            p.errors_by_file().into_iter().collect::<Vec<_>>(),
            [
                ("a.csv".to_string(), ERRORS_KEPT_PER_FILE + extra),
                ("b.csv".to_string(), 1)
            ]
        );
        // merged into another list, the cap and the counts hold
        let mut all = Problems::new();
        all.error(a.at(1, None), "first");
        all.extend(p);
        assert_eq!(all.error_count(), ERRORS_KEPT_PER_FILE + extra + 2);
        let said: Vec<String> = all.sorted().iter().map(|p| p.to_string()).collect();
        assert!(
            said.contains(
                &"a.csv: error: … and 2501 more errors in a.csv (the first 1000 are listed)"
                    .to_string()
            ),
            "{:?}",
            &said[said.len() - 3..]
        );
        assert_eq!(
            said.iter().filter(|l| l.contains("error")).count(),
            ERRORS_KEPT_PER_FILE + 2
        );
    }
}
