//! RULES.md section 8: ages on the event date, age groups, and the `hk`
//! minimum age.
//!
//! Age is a whole number of years on the event date. A player is still the
//! younger age on the day before the birthday and turns the new age on the
//! birthday itself. Each group of an event runs its own stages, so a player
//! is put in exactly one group, or the reason why not is given.
//!
//! Decisions where RULES.md is silent:
//!
//! - **Dates** are `YYYY-MM-DD` (what the roster reader writes); `/` and `.`
//!   are accepted as separators and months and days may have one digit. A
//!   date that does not exist (`2023-02-29`) is not a date, and is said
//!   to be none ([`NoSuchDay`]: `February 2023 has 28 days`).
//! - **Born on 29 February**: in a year without 29 February the birthday is
//!   taken to be 1 March, so on 28 February the player is still the younger
//!   age (the rule of Hong Kong and English law: the new age is reached when
//!   the whole year has passed).
//! - **An event date before the birth date** gives no age: it is a roster
//!   error, not an age of 0.
//! - **NVSO groups** ([`nvso_groups`]): NVSO is a senior olympics whose
//!   groups start at 50 (`50-74`, `50-64`), so the single group of a small
//!   event (16 players or fewer) is named `Open` and takes ages 50 and over.
//!   A player younger than 50 fits no NVSO group and is a roster error. The
//!   count is the players entered in the event: the roster's entries less
//!   those withdrawn or disqualified before they played a game (counted
//!   in `event.rs`, `assign_groups`).
//! - **Which age counts** ([`player_age`]): a birth date wins over a given
//!   age (it is exact on the event date; a typed age may be stale). An
//!   unreadable birth date is an error, not a reason to fall back on the age.
//! - **Assigning** ([`assign`]): a group forced by the roster (`group`
//!   column) wins, whatever the age; it must name one of the event's groups
//!   (case and spacing ignored). Otherwise the age decides: the first group
//!   in the list that takes it. A player with no age goes into the only
//!   group when the event has one group (there is nothing to choose, but the
//!   age cannot be checked), and is an error when there are several.
//! - **Overlapping or empty groups** in an event configuration are an error,
//!   each of them ([`check_groups`]); gaps between groups are allowed (a player in a gap
//!   is an error when assigned).

use crate::ingest::cell::quoted;
pub use crate::profile::vocabulary::AgeGroup;
use crate::roster::{match_key, Player};
use std::fmt;

/// A calendar date (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

impl Date {
    /// Reads `YYYY-MM-DD` (also `YYYY/M/D`, `YYYY.MM.DD`); `None` for a
    /// date that does not exist. The one reader of a date's text: the
    /// settings', the command line's and the roster's birth dates.
    pub fn parse(text: &str) -> Option<Date> {
        let (y, m, d) = ymd(text)?;
        Date::new(y, m, d)
    }

    /// Why `text`, written as a date is (`2014-02-30`: what [`Date::parse`]
    /// reads, its numbers aside), is no day of the calendar; `None` for a
    /// date, and for a text not written as one.
    pub fn no_such_day(text: &str) -> Option<NoSuchDay> {
        let (y, month, day) = ymd(text)?;
        let year = i32::try_from(y).ok()?;
        if !(1..=12).contains(&month) {
            return Some(NoSuchDay::Month(month));
        }
        (day < 1 || day > days_in_month(year, month)).then_some(NoSuchDay::Day { year, month, day })
    }

    /// Year `y`, month `m`, day `d`, when it is a day of the calendar.
    pub fn new(y: u32, m: u32, d: u32) -> Option<Date> {
        let year = i32::try_from(y).ok()?;
        let valid = (1..=12).contains(&m) && d >= 1 && d <= days_in_month(year, m);
        valid.then_some(Date {
            year,
            month: m,
            day: d,
        })
    }
}

/// The year, month and day of a text written as [`Date::parse`] reads a
/// date (`YYYY-MM-DD`, `YYYY/M/D`, `YYYY.MM.DD`), whatever their range.
fn ymd(text: &str) -> Option<(u32, u32, u32)> {
    let text = text.trim();
    // (the usual spelling, a million birth dates in a roster, read
    // without splitting it)
    if let Some(ymd) = written_ymd(text) {
        return Some(ymd);
    }
    // (digits typed full-width, a Chinese keyboard's or a phone's: read
    // as the plain ones, as a card's numbers are)
    let text = crate::ingest::cell::half_width(text);
    let (y, m, d) = match chinese_ymd(&text) {
        Some(parts) => parts,
        None => {
            let mut parts = text.split(['-', '/', '.']);
            let (Some(y), Some(m), Some(d), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return None;
            };
            (y, m, d)
        }
    };
    let digits = |s: &str, max_len: usize| {
        !s.is_empty() && s.len() <= max_len && s.bytes().all(|b| b.is_ascii_digit())
    };
    if y.len() != 4 || !digits(y, 4) || !digits(m, 2) || !digits(d, 2) {
        return None;
    }
    Some((y.parse().ok()?, m.parse().ok()?, d.parse().ok()?))
}

/// The year, month and day of a date written the Chinese way,
/// `1961年4月2日` (spaces between its parts ignored), as texts.
fn chinese_ymd(text: &str) -> Option<(&str, &str, &str)> {
    let (y, rest) = text.strip_suffix('日')?.split_once('年')?;
    let (m, d) = rest.split_once('月')?;
    Some((y.trim(), m.trim(), d.trim()))
}

/// The two first numbers and the year of a date written day and month
/// first (`02/04/1961`, `2-4-1961`, `02.04.1961`).
fn day_month_first(text: &str) -> Option<(u32, u32, u32)> {
    let text = crate::ingest::cell::half_width(text.trim());
    let mut parts = text.split(['-', '/', '.']);
    let (Some(a), Some(b), Some(y), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    let number = |s: &str, len: std::ops::RangeInclusive<usize>| {
        (len.contains(&s.len()) && s.bytes().all(|c| c.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(a, 1..=2)?, number(b, 1..=2)?, number(y, 4..=4)?))
}

/// Why a text written as a date is no day of the calendar
/// ([`Date::no_such_day`]): said after what was found
/// (`birth_date is "2014-02-30"; no such day: February 2014 has 28 days`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoSuchDay {
    /// A month that is not 1 to 12 (`2014-13-01`, or a day and a month
    /// the wrong way round: `2014-30-09`).
    Month(u32),
    /// A day the month does not have (`2014-02-30`, `2014-04-31`, day 0).
    Day { year: i32, month: u32, day: u32 },
}

/// The months' names, January first.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl fmt::Display for NoSuchDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NoSuchDay::Month(m) => write!(
                f,
                "no month {m}: months are numbered 1 to 12 (expected a date YYYY-MM-DD)"
            ),
            NoSuchDay::Day { day: 0, .. } => {
                write!(f, "no such day: a month's days are numbered from 1")
            }
            NoSuchDay::Day { year, month, .. } => write!(
                f,
                "no such day: {} {year} has {} days",
                MONTHS[month as usize - 1],
                days_in_month(year, month)
            ),
        }
    }
}

/// What is wrong with `text`, said after what was found: that it is no
/// day of the calendar ([`NoSuchDay`]), or the date it may mean
/// ([`date_meant`]), else that a date is written `YYYY-MM-DD`.
pub fn not_a_date(text: &str) -> String {
    date_meant(text).unwrap_or_else(|| "expected a date YYYY-MM-DD".to_string())
}

/// What `text`, not a date as the tool reads one, was meant to be, when
/// that can be said: no day of the calendar ([`NoSuchDay`]), day and
/// month the wrong way round for either reading, or written day (or
/// month) first where only one way round is a day. `None` for anything
/// else. The one reading of a mistyped date, for the roster, the
/// settings and the command line.
pub fn date_meant(text: &str) -> Option<String> {
    if let Some(why) = Date::no_such_day(text) {
        return Some(why.to_string());
    }
    let (a, b, y) = day_month_first(text)?;
    // (`02/04/1961`: 2 April or 4 February, nobody can tell which)
    if a != b && (1..=12).contains(&a) && (1..=12).contains(&b) {
        return Some(format!(
            "day and month could be either way ({y}-{b:02}-{a:02} or {y}-{a:02}-{b:02}); \
             write it as YYYY-MM-DD"
        ));
    }
    // (`30/09/2014` or `09/30/2014`: only one way round is a day of the
    // calendar, so the date meant is said; still not taken, as a file
    // written day first has its 02/04 too)
    let date = [(b, a), (a, b)]
        .into_iter()
        .find_map(|(m, d)| (m <= 12).then(|| Date::new(y, m, d)).flatten())?;
    Some(format!("write it as YYYY-MM-DD: {date}"))
}

/// The year, month and day of a text written `YYYY-MM-DD` (ten bytes:
/// digits, and dashes where they go), whatever their range; the one
/// reader of that shape (for [`Date::parse`], and for the roster, which
/// keeps such a date as the number of its day).
pub(crate) fn written_ymd(text: &str) -> Option<(u32, u32, u32)> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let number = |digits: &[u8]| {
        digits.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    Some((number(&b[..4])?, number(&b[5..7])?, number(&b[8..])?))
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

pub fn is_leap_year(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// The days month `month` (1 to 12) of `year` has.
pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whole years from `birth` to `on`; `None` when `on` is before `birth`.
///
/// The birthday is compared as (month, day), so someone born on 29 February
/// turns the new age on 1 March of a common year (28 February sorts before
/// 29 February, 1 March after it).
pub fn age_between(birth: Date, on: Date) -> Option<u32> {
    if on < birth {
        return None;
    }
    let before_birthday = (on.month, on.day) < (birth.month, birth.day);
    let years = on.year - birth.year - i32::from(before_birthday);
    u32::try_from(years).ok()
}

/// Age in whole years on the event date, from two `YYYY-MM-DD` dates;
/// `None` when either is not a date or the event is before the birth.
pub fn age_on(birth_date: &str, event_date: &str) -> Option<u32> {
    age_between(Date::parse(birth_date)?, Date::parse(event_date)?)
}

/// The youngest age at an NVSO event: its groups start at 50.
pub const NVSO_MIN_AGE: u32 = 50;

/// The name of the single group of a small NVSO event.
pub const OPEN_GROUP: &str = "Open";

/// NVSO's groups for `player_count` entered players: at most 16, one group;
/// 17 to 32, `50-74` and `75+`; more than 32, `50-64`, `65-79` and `80+`.
pub fn nvso_groups(player_count: usize) -> Vec<AgeGroup> {
    match player_count {
        0..=16 => vec![AgeGroup::new(OPEN_GROUP, NVSO_MIN_AGE, None)],
        17..=32 => vec![
            AgeGroup::new("50-74", 50, Some(74)),
            AgeGroup::new("75+", 75, None),
        ],
        _ => vec![
            AgeGroup::new("50-64", 50, Some(64)),
            AgeGroup::new("65-79", 65, Some(79)),
            AgeGroup::new("80+", 80, None),
        ],
    }
}

/// Why a list of groups cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadGroups {
    /// A group whose `max` is below its `min`.
    Empty(AgeGroup),
    /// Two groups take the same age.
    Overlap(AgeGroup, AgeGroup),
    /// Two groups have the same name (case and spacing ignored).
    SameName(String),
}

impl fmt::Display for BadGroups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadGroups::Empty(g) => write!(
                f,
                "age group {} takes no age: its maximum {} is below its minimum {}",
                g.name,
                g.max.unwrap_or(0),
                g.min
            ),
            BadGroups::Overlap(a, b) => write!(
                f,
                "age groups {a} and {b} overlap: each age must belong to one group"
            ),
            BadGroups::SameName(name) => {
                write!(
                    f,
                    "two age groups are named {}: names must differ",
                    quoted(name)
                )
            }
        }
    }
}

/// Every mistake of a list of groups, each with the group it is said of
/// (its place in the list), in the list's order: a group that takes no
/// age, a group named as one before it, a group that overlaps one before
/// it (each such pair once). A group that takes no age overlaps none.
pub fn check_groups(groups: &[AgeGroup]) -> Vec<(usize, BadGroups)> {
    let empty = |g: &AgeGroup| g.max.is_some_and(|max| max < g.min);
    let mut mistakes = Vec::new();
    for (i, a) in groups.iter().enumerate() {
        if empty(a) {
            mistakes.push((i, BadGroups::Empty(a.clone())));
        }
        if groups[..i]
            .iter()
            .any(|b| match_key(&a.name) == match_key(&b.name))
        {
            mistakes.push((i, BadGroups::SameName(a.name.clone())));
        }
        for b in groups[..i].iter().filter(|b| !empty(a) && !empty(b)) {
            let a_max = a.max.unwrap_or(u32::MAX);
            let b_max = b.max.unwrap_or(u32::MAX);
            if a.min <= b_max && b.min <= a_max {
                mistakes.push((i, BadGroups::Overlap(b.clone(), a.clone())));
            }
        }
    }
    mistakes
}

/// Why a player has no age, no group, or may not play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgeError {
    /// The event date is not a date.
    BadEventDate(String),
    /// The birth date is not a date.
    BadBirthDate(String),
    /// The birth date is after the event date.
    BornAfterEvent {
        birth_date: String,
        event_date: String,
    },
    /// Neither a birth date nor an age, and the event has several groups.
    NoAge { groups: Vec<AgeGroup> },
    /// The roster forces a group the event does not have.
    UnknownGroup {
        forced: String,
        groups: Vec<AgeGroup>,
    },
    /// No group takes the player's age.
    NoGroupFits { age: u32, groups: Vec<AgeGroup> },
    /// The event has no groups at all.
    NoGroups,
    /// Younger than the event allows.
    TooYoung { age: u32, min: u32 },
}

fn group_list(groups: &[AgeGroup]) -> String {
    groups
        .iter()
        .map(|g| g.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for AgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgeError::BadEventDate(t) => {
                write!(f, "event date is {}; {}", quoted(t), not_a_date(t))
            }
            AgeError::BadBirthDate(t) => {
                write!(f, "birth_date is {}; {}", quoted(t), not_a_date(t))
            }
            AgeError::BornAfterEvent {
                birth_date,
                event_date,
            } => write!(
                f,
                "birth_date {birth_date} is after the event date {event_date}"
            ),
            AgeError::NoAge { groups } => write!(
                f,
                "no birth_date or age, so no age group can be chosen (groups: {}); give one, or force a group",
                group_list(groups)
            ),
            AgeError::UnknownGroup { forced, groups } => write!(
                f,
                "group is {}, which is not one of the event's age groups ({})",
                quoted(forced),
                group_list(groups)
            ),
            AgeError::NoGroupFits { age, groups } => write!(
                f,
                "aged {age} on the event date, which no age group takes (groups: {}); force a group or correct the age",
                group_list(groups)
            ),
            AgeError::NoGroups => write!(f, "the event has no age groups to put the player in"),
            AgeError::TooYoung { age, min } => write!(
                f,
                "aged {age} on the event date; players must be {min} or older"
            ),
        }
    }
}

/// The player's age on the event date: from the birth date when there is
/// one, else the given age, else `None`.
pub fn player_age(player: &Player, event_date: &str) -> Result<Option<u32>, AgeError> {
    let event = Date::parse(event_date).ok_or_else(|| AgeError::BadEventDate(event_date.into()))?;
    match player.birth_date.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => {
            let birth = Date::parse(text).ok_or_else(|| AgeError::BadBirthDate(text.into()))?;
            age_between(birth, event)
                .map(Some)
                .ok_or_else(|| AgeError::BornAfterEvent {
                    birth_date: birth.to_string(),
                    event_date: event.to_string(),
                })
        }
        _ => Ok(player.age),
    }
}

/// The name of the group the player plays in (the group's own spelling).
pub fn assign(player: &Player, groups: &[AgeGroup], event_date: &str) -> Result<String, AgeError> {
    if groups.is_empty() {
        return Err(AgeError::NoGroups);
    }
    if let Some(forced) = player.group.as_deref().map(str::trim) {
        if !forced.is_empty() {
            let key = match_key(forced);
            return groups
                .iter()
                .find(|g| match_key(&g.name) == key)
                .map(|g| g.name.clone())
                .ok_or_else(|| AgeError::UnknownGroup {
                    forced: forced.to_string(),
                    groups: groups.to_vec(),
                });
        }
    }
    match player_age(player, event_date)? {
        Some(age) => groups
            .iter()
            .find(|g| g.takes(age))
            .map(|g| g.name.clone())
            .ok_or_else(|| AgeError::NoGroupFits {
                age,
                groups: groups.to_vec(),
            }),
        None if groups.len() == 1 => Ok(groups[0].name.clone()),
        None => Err(AgeError::NoAge {
            groups: groups.to_vec(),
        }),
    }
}

/// The `hk` eligibility rule: `age` on the event date is at least `min`.
pub fn check_min_age(age: u32, min: u32) -> Result<(), AgeError> {
    if age >= min {
        Ok(())
    } else {
        Err(AgeError::TooYoung { age, min })
    }
}

/// [`check_min_age`] for a roster entry. A player with no birth date and no
/// age passes (`Ok(None)`): there is nothing to check.
pub fn check_player_min_age(
    player: &Player,
    min: u32,
    event_date: &str,
) -> Result<Option<u32>, AgeError> {
    let age = player_age(player, event_date)?;
    if let Some(age) = age {
        check_min_age(age, min)?;
    }
    Ok(age)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn born(birth: &str) -> Player {
        Player {
            birth_date: Some(birth.to_string()),
            ..Player::named("P1", "Someone")
        }
    }

    fn aged(age: u32) -> Player {
        Player {
            age: Some(age),
            ..Player::named("P1", "Someone")
        }
    }

    #[test]
    fn the_day_before_the_birthday_is_still_the_younger_age() {
        assert_eq!(age_on("1961-04-02", "2026-04-01"), Some(64));
        assert_eq!(age_on("1961-04-02", "2026-04-02"), Some(65));
        assert_eq!(age_on("1961-04-02", "2026-04-03"), Some(65));
        assert_eq!(age_on("2019-04-12", "2026-04-11"), Some(6));
        assert_eq!(age_on("2019-04-12", "2026-04-12"), Some(7));
        assert_eq!(age_on("2014-12-31", "2026-01-01"), Some(11));
        assert_eq!(age_on("2026-03-28", "2026-03-28"), Some(0));
    }

    #[test]
    fn born_on_29_february_turns_older_on_1_march_of_a_common_year() {
        assert_eq!(age_on("2008-02-29", "2026-02-28"), Some(17));
        assert_eq!(age_on("2008-02-29", "2026-03-01"), Some(18));
        // a leap year: the birthday itself
        assert_eq!(age_on("2008-02-29", "2028-02-28"), Some(19));
        assert_eq!(age_on("2008-02-29", "2028-02-29"), Some(20));
        // 2100 is not a leap year, 2000 was
        assert_eq!(Date::parse("2100-02-29"), None);
        assert!(Date::parse("2000-02-29").is_some());
    }

    #[test]
    fn dates_that_do_not_exist_give_no_age() {
        assert_eq!(age_on("2014-02-30", "2026-03-28"), None);
        assert_eq!(age_on("2014-13-01", "2026-03-28"), None);
        assert_eq!(age_on("30/09/2014", "2026-03-28"), None);
        assert_eq!(age_on("2014-09-30", "yesterday"), None);
        assert_eq!(age_on("14-09-30", "2026-03-28"), None);
        // the event before the birth
        assert_eq!(age_on("2026-03-29", "2026-03-28"), None);
        // other separators and one-digit parts
        assert_eq!(age_on("2014/9/3", "2026.09.03"), Some(12));
    }

    /// A date written the Chinese way, `1961年4月2日`, is read, its digits
    /// plain or full-width, as is a date's full-width digits written
    /// `YYYY-MM-DD` (tester r8 #3).
    #[test]
    fn reads_a_date_written_the_chinese_way() {
        let day = |y, m, d| {
            Some(Date {
                year: y,
                month: m,
                day: d,
            })
        };
        assert_eq!(Date::parse("1961年4月2日"), day(1961, 4, 2));
        assert_eq!(Date::parse(" 1961 年 04 月 02 日 "), day(1961, 4, 2));
        assert_eq!(Date::parse("１９６１年４月２日"), day(1961, 4, 2));
        assert_eq!(Date::parse("２０１０－０１－０１"), day(2010, 1, 1));
        for text in [
            "1961年4月",
            "61年4月2日",
            "1961年4月2",
            "1961年13月2日",
            "年月日",
        ] {
            assert_eq!(Date::parse(text), None, "{text}");
        }
    }

    /// A text written as a date whose numbers are no day of the calendar
    /// says what is wrong with it; one not written as a date says how a
    /// date is written.
    #[test]
    fn a_date_that_does_not_exist_says_why() {
        let said = |text: &str| not_a_date(text);
        assert_eq!(said("2014-02-30"), "no such day: February 2014 has 28 days");
        assert_eq!(said("2016/2/30"), "no such day: February 2016 has 29 days");
        assert_eq!(said("2100.02.29"), "no such day: February 2100 has 28 days");
        assert_eq!(said("2014-04-31"), "no such day: April 2014 has 30 days");
        assert_eq!(
            said("2014-02-00"),
            "no such day: a month's days are numbered from 1"
        );
        assert_eq!(
            said("2014-30-09"),
            "no month 30: months are numbered 1 to 12 (expected a date YYYY-MM-DD)"
        );
        assert_eq!(
            said("2014-00-09"),
            Date::no_such_day("2014-00-09").unwrap().to_string()
        );
        // written day first, or month first, one way round only a day
        // of the calendar: the date meant is said
        for text in ["30/09/2014", "09/30/2014", "30.9.2014", "30-09-2014"] {
            assert_eq!(Date::no_such_day(text), None, "{text}");
            assert_eq!(said(text), "write it as YYYY-MM-DD: 2014-09-30", "{text}");
        }
        assert_eq!(said("31/02/2014"), "expected a date YYYY-MM-DD");
        assert_eq!(said("32/13/2014"), "expected a date YYYY-MM-DD");
        for text in ["14-09-30", "yesterday", "2014-9", ""] {
            assert_eq!(Date::no_such_day(text), None, "{text}");
            assert_eq!(said(text), "expected a date YYYY-MM-DD", "{text}");
        }
        // day and month first, either way round (tester r8 #3)
        for text in ["02/04/1961", "2-4-1961", "02.04.1961"] {
            assert_eq!(
                said(text),
                "day and month could be either way (1961-04-02 or 1961-02-04); \
                 write it as YYYY-MM-DD",
                "{text}"
            );
        }
        // (the same either way round: one date)
        assert_eq!(said("04/04/1961"), "write it as YYYY-MM-DD: 1961-04-04");
        assert_eq!(
            said("2014年2月30日"),
            "no such day: February 2014 has 28 days"
        );
        // a date is no reason
        assert_eq!(Date::no_such_day("2016-02-29"), None);
        assert_eq!(Date::no_such_day(" 2014-09-30 "), None);
    }

    #[test]
    fn nvso_groups_change_at_16_17_and_32_33_players() {
        let names = |n| -> Vec<String> { nvso_groups(n).into_iter().map(|g| g.name).collect() };
        assert_eq!(names(1), vec!["Open"]);
        assert_eq!(names(16), vec!["Open"]);
        assert_eq!(names(17), vec!["50-74", "75+"]);
        assert_eq!(names(32), vec!["50-74", "75+"]);
        assert_eq!(names(33), vec!["50-64", "65-79", "80+"]);
        assert_eq!(names(500), vec!["50-64", "65-79", "80+"]);
        for n in [16, 17, 32, 33] {
            assert_eq!(check_groups(&nvso_groups(n)), vec![], "{n}");
        }
        assert_eq!(nvso_groups(16)[0].to_string(), "Open (50+)");
        assert_eq!(nvso_groups(17)[0].to_string(), "50-74");
    }

    #[test]
    fn ages_go_to_the_group_that_takes_them_at_its_edges() {
        let g = nvso_groups(33);
        let group = |age| assign(&aged(age), &g, "2023-09-13").unwrap();
        assert_eq!(group(50), "50-64");
        assert_eq!(group(64), "50-64");
        assert_eq!(group(65), "65-79");
        assert_eq!(group(79), "65-79");
        assert_eq!(group(80), "80+");
        assert_eq!(group(101), "80+");
        let two = nvso_groups(20);
        assert_eq!(assign(&aged(74), &two, "2023-09-13").unwrap(), "50-74");
        assert_eq!(assign(&aged(75), &two, "2023-09-13").unwrap(), "75+");
    }

    #[test]
    fn the_birth_date_decides_on_the_event_date() {
        let g = nvso_groups(20);
        // 75 on 2023-09-13, not yet on 2023-09-12
        let p = born("1948-09-13");
        assert_eq!(assign(&p, &g, "2023-09-12").unwrap(), "50-74");
        assert_eq!(assign(&p, &g, "2023-09-13").unwrap(), "75+");
        // a birth date wins over a stale typed age
        let both = Player {
            age: Some(60),
            ..born("1940-01-01")
        };
        assert_eq!(assign(&both, &g, "2023-09-13").unwrap(), "75+");
    }

    #[test]
    fn a_forced_group_wins_over_the_age() {
        let g = nvso_groups(20);
        let forced = Player {
            group: Some(" 75 + ".to_string()),
            ..aged(60)
        };
        assert_eq!(assign(&forced, &g, "2023-09-13").unwrap(), "75+");
        // a forced group needs no age at all
        let no_age = Player {
            group: Some("50-74".to_string()),
            ..Player::named("P2", "x")
        };
        assert_eq!(assign(&no_age, &g, "2023-09-13").unwrap(), "50-74");
        let unknown = Player {
            group: Some("Masters".to_string()),
            ..aged(60)
        };
        let err = assign(&unknown, &g, "2023-09-13").unwrap_err();
        assert!(matches!(err, AgeError::UnknownGroup { .. }));
        assert_eq!(
            err.to_string(),
            "group is \"Masters\", which is not one of the event's age groups (50-74, 75+)"
        );
    }

    #[test]
    fn a_player_who_fits_no_group_is_an_error_with_a_sentence() {
        let err = assign(&aged(45), &nvso_groups(10), "2023-09-13").unwrap_err();
        assert_eq!(
            err,
            AgeError::NoGroupFits {
                age: 45,
                groups: nvso_groups(10)
            }
        );
        assert_eq!(
            err.to_string(),
            "aged 45 on the event date, which no age group takes (groups: Open (50+)); force a group or correct the age"
        );
        assert!(assign(&aged(49), &nvso_groups(40), "2023-09-13").is_err());
        // a gap between configured groups
        let gap = vec![
            AgeGroup::new("Junior", 7, Some(17)),
            AgeGroup::new("Senior", 60, None),
        ];
        assert!(matches!(
            assign(&aged(30), &gap, "2026-04-12"),
            Err(AgeError::NoGroupFits { age: 30, .. })
        ));
    }

    #[test]
    fn a_player_without_an_age_fits_only_a_single_group() {
        let nobody = Player::named("P3", "x");
        assert_eq!(
            assign(&nobody, &nvso_groups(10), "2023-09-13").unwrap(),
            "Open"
        );
        let err = assign(&nobody, &nvso_groups(20), "2023-09-13").unwrap_err();
        assert!(matches!(err, AgeError::NoAge { .. }));
        assert!(err.to_string().starts_with("no birth_date or age"));
        assert_eq!(assign(&nobody, &[], "2023-09-13"), Err(AgeError::NoGroups));
    }

    #[test]
    fn bad_dates_are_errors_not_ages() {
        let g = nvso_groups(20);
        assert_eq!(
            assign(&born("1950-02-30"), &g, "2023-09-13"),
            Err(AgeError::BadBirthDate("1950-02-30".into()))
        );
        assert_eq!(
            assign(&aged(60), &g, "13/09/2023"),
            Err(AgeError::BadEventDate("13/09/2023".into()))
        );
        assert_eq!(
            AgeError::BadBirthDate("1950-02-30".into()).to_string(),
            "birth_date is \"1950-02-30\"; no such day: February 1950 has 28 days"
        );
        assert_eq!(
            AgeError::BadEventDate("13/09/2023".into()).to_string(),
            "event date is \"13/09/2023\"; write it as YYYY-MM-DD: 2023-09-13"
        );
        let err = assign(&born("2024-01-01"), &g, "2023-09-13").unwrap_err();
        assert_eq!(
            err.to_string(),
            "birth_date 2024-01-01 is after the event date 2023-09-13"
        );
    }

    #[test]
    fn hk_players_must_be_7_or_older_on_the_event_date() {
        assert_eq!(check_min_age(7, 7), Ok(()));
        assert_eq!(check_min_age(80, 7), Ok(()));
        let err = check_min_age(6, 7).unwrap_err();
        assert_eq!(err, AgeError::TooYoung { age: 6, min: 7 });
        assert_eq!(
            err.to_string(),
            "aged 6 on the event date; players must be 7 or older"
        );
        // 7th birthday on the first competition day: allowed that day only
        let p = born("2019-03-28");
        assert_eq!(check_player_min_age(&p, 7, "2026-03-28"), Ok(Some(7)));
        assert_eq!(
            check_player_min_age(&p, 7, "2026-03-27"),
            Err(AgeError::TooYoung { age: 6, min: 7 })
        );
        assert_eq!(
            check_player_min_age(&Player::named("P", "x"), 7, "2026-03-28"),
            Ok(None)
        );
    }

    #[test]
    fn overlapping_empty_and_duplicate_groups_are_refused() {
        let overlap = vec![
            AgeGroup::new("50-75", 50, Some(75)),
            AgeGroup::new("75+", 75, None),
        ];
        let said = |groups: &[AgeGroup]| {
            check_groups(groups)
                .into_iter()
                .map(|(i, e)| format!("{i}: {e}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            said(&overlap),
            ["1: age groups 50-75 and 75+ overlap: each age must belong to one group"]
        );
        let empty = vec![AgeGroup::new("odd", 60, Some(50))];
        assert!(matches!(
            check_groups(&empty)[..],
            [(0, BadGroups::Empty(_))]
        ));
        let same = vec![
            AgeGroup::new("Senior", 50, Some(59)),
            AgeGroup::new("senior", 60, None),
        ];
        assert_eq!(
            check_groups(&same),
            vec![(1, BadGroups::SameName("senior".into()))]
        );
        // every mistake, each of its group; a group that takes no age
        // overlaps none
        let three = vec![
            AgeGroup::new("A", 50, Some(70)),
            AgeGroup::new("B", 65, None),
            AgeGroup::new("C", 80, Some(60)),
            AgeGroup::new("a", 90, None),
        ];
        assert_eq!(
            said(&three),
            [
                "1: age groups A (50-70) and B (65+) overlap: each age must belong to one group",
                "2: age group C takes no age: its maximum 60 is below its minimum 80",
                "3: two age groups are named \"a\": names must differ",
                "3: age groups B (65+) and a (90+) overlap: each age must belong to one group",
            ]
        );
        let two_open = vec![AgeGroup::new("a", 50, None), AgeGroup::new("b", 90, None)];
        assert!(!check_groups(&two_open).is_empty());
    }
}
