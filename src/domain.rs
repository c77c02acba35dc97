//! The words of RULES.md section 1 as types: stages, sessions, tables,
//! seats, cards and games.

use crate::place::Place;
use crate::problem::said::{Msg, Part};
use crate::score::Score;
use std::fmt;

/// A seat at a table. Tables seat 3 or 4 players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    A,
    B,
    C,
    D,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::A, Seat::B, Seat::C, Seat::D];

    #[inline]
    pub fn parse(text: &str) -> Option<Seat> {
        match text.as_bytes() {
            // the common case, inline where it is read (a file's every line)
            [_] => Seat::letter_of(text),
            // a seat typed full-width (`Ｂ`, `２`, `（Ｃ）`) is the plain one
            _ => Seat::parse_folded(text),
        }
    }

    #[inline(never)]
    fn parse_folded(text: &str) -> Option<Seat> {
        let folded = crate::ingest::cell::half_width_label(text);
        Seat::letter_of(crate::ingest::cell::trim(&folded).trim_matches(|c| c == '(' || c == ')'))
    }

    /// The seat a letter or a digit names.
    #[inline]
    fn letter_of(t: &str) -> Option<Seat> {
        match t.as_bytes() {
            [b'A' | b'a' | b'1'] => Some(Seat::A),
            [b'B' | b'b' | b'2'] => Some(Seat::B),
            [b'C' | b'c' | b'3'] => Some(Seat::C),
            [b'D' | b'd' | b'4'] => Some(Seat::D),
            _ => None,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        (b'A' + self as u8) as char
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A session or table label: a number where the text holds one (`S01`,
/// `Session 1`, `1` and `01` are the same session), else the text itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    Num(u32),
    Text(String),
}

impl Label {
    /// Reads `7`, `07`, `7.0`, `T7`, `Table 7`, `S01`, `Session 1`; the
    /// same written full-width (`７`, `Ｓ０１`, a Chinese keyboard's) is the
    /// same number; and the Chinese `第` number `words` (`第2節`, `第二節`,
    /// `第7桌`). A label that is no number is kept as typed.
    pub fn parse(text: &str, prefixes: &[&str], words: &[&str]) -> Option<Label> {
        let t = crate::ingest::cell::trim(text);
        if t.is_empty() {
            return None;
        }
        let number = match crate::ingest::cell::half_width_label(t) {
            std::borrow::Cow::Borrowed(t) => {
                Label::number(t, prefixes).or_else(|| Label::chinese(t, words))
            }
            std::borrow::Cow::Owned(folded) => {
                Label::number(&folded, prefixes).or_else(|| Label::chinese(&folded, words))
            }
        };
        Some(match number {
            Some(n) => Label::Num(n),
            None => Label::Text(t.split_whitespace().collect::<Vec<_>>().join(" ")),
        })
    }

    /// The number a label's text (trimmed, not blank, half-width) holds.
    fn number(t: &str, prefixes: &[&str]) -> Option<u32> {
        // The common case, byte by byte: digits, or a letter and digits.
        let b = t.as_bytes();
        let digits = match b[0] {
            c if c.is_ascii_alphabetic() => &b[1..],
            _ => b,
        };
        if !digits.is_empty() && digits.len() <= 9 && digits.iter().all(u8::is_ascii_digit) {
            let letter = b[0].to_ascii_lowercase();
            if digits.len() == b.len() || prefixes.iter().any(|p| p.as_bytes() == [letter]) {
                // (nine digits at most: no overflow)
                let n = digits
                    .iter()
                    .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
                return Some(n);
            }
        }
        let lower = t.to_lowercase();
        let mut rest = lower.as_str();
        for p in prefixes {
            if let Some(r) = rest.strip_prefix(p) {
                rest = r.trim_start_matches([' ', '.', '#', ':', '-', '_']);
                break;
            }
        }
        let rest = match rest.as_bytes().strip_suffix(b".0") {
            Some(r) => &rest[..r.len()],
            None => rest,
        };
        if !rest.is_empty() && rest.len() <= 9 && rest.bytes().all(|b| b.is_ascii_digit()) {
            return rest.parse().ok();
        }
        None
    }

    /// The number of a Chinese label, `第` number `word`: `第2節` (session
    /// 2), `第 2 場`, `第二節`, `第十二節`, `第7桌` (table 7); the number in
    /// digits (full-width ones folded already) or in Chinese numerals from
    /// 一 (1) to 九十九 (99).
    pub(crate) fn chinese(t: &str, words: &[&str]) -> Option<u32> {
        let rest = t.strip_prefix('第')?;
        let rest = words.iter().find_map(|w| rest.strip_suffix(w))?.trim();
        if !rest.is_empty() && rest.len() <= 9 && rest.bytes().all(|b| b.is_ascii_digit()) {
            return rest.parse().ok();
        }
        let digit = |c: char| {
            "一二三四五六七八九"
                .chars()
                .position(|d| d == c)
                .map(|i| i as u32 + 1)
        };
        let c: Vec<char> = rest.chars().collect();
        match c.as_slice() {
            ['十'] => Some(10),
            [d] => digit(*d),
            ['十', d] => Some(10 + digit(*d)?),
            [t, '十'] => Some(digit(*t)? * 10),
            [t, '十', d] => Some(digit(*t)? * 10 + digit(*d)?),
            _ => None,
        }
    }

    pub fn session(text: &str) -> Option<Label> {
        Label::parse(
            text,
            &["session", "sess", "s"],
            &["場次", "场次", "節", "节", "場", "场"],
        )
    }

    pub fn table(text: &str) -> Option<Label> {
        Label::parse(text, &["table", "tbl", "t"], &["桌", "枱", "檯", "台"])
    }

    /// `3, 7, 9-11`: labels in the order given, runs of numbers shortened
    /// (a text label is said as typed).
    pub fn ranges<'a>(labels: impl IntoIterator<Item = &'a Label>) -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut run: Option<(u32, u32)> = None;
        let flush = |run: &mut Option<(u32, u32)>, parts: &mut Vec<String>| {
            if let Some((a, b)) = run.take() {
                parts.push(if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                });
            }
        };
        for label in labels {
            match label {
                Label::Num(n) => match run {
                    Some((a, b)) if *n == b + 1 => run = Some((a, *n)),
                    _ => {
                        flush(&mut run, &mut parts);
                        run = Some((*n, *n));
                    }
                },
                Label::Text(text) => {
                    flush(&mut run, &mut parts);
                    parts.push(text.clone());
                }
            }
        }
        flush(&mut run, &mut parts);
        parts.join(", ")
    }
}

/// A session label prints as `S01`; a table label as its number.
pub struct SessionName<'a>(pub &'a Label);

impl SessionName<'_> {
    /// `S01` (or the label's text) to `out`.
    fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match self.0 {
            Label::Num(n) => {
                out.write_char('S')?;
                two_digits(out, *n)
            }
            Label::Text(t) => out.write_str(t),
        }
    }
}

impl fmt::Display for SessionName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// `n` in two digits at least, as `{n:02}` writes it (without the
/// formatting machinery: a name for each of a million cards).
fn two_digits(out: &mut impl fmt::Write, n: u32) -> fmt::Result {
    if n < 10 {
        out.write_char('0')?;
    }
    out.write_str(itoa::Buffer::new().format(n))
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Num(n) => write!(f, "{n}"),
            Label::Text(t) => write!(f, "{t}"),
        }
    }
}

/// A stage name, lower case: `prelim`, `semi`, `final`, or the config's own.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stage(std::borrow::Cow<'static, str>);

impl Stage {
    pub const DEFAULT: &'static str = "prelim";

    pub fn new(text: &str) -> Stage {
        let t = text.trim();
        if t.is_empty() {
            return Stage::prelim();
        }
        let t = t.to_lowercase();
        let known = match t.as_str() {
            "prelim" | "preliminary" | "prelims" | "preliminary round" | "qualifying" => {
                Stage::DEFAULT
            }
            "semi" | "semifinal" | "semi-final" | "semi final" | "semis" => "semi",
            "final" | "finals" | "championship" => "final",
            _ => return Stage(t.into()),
        };
        Stage(known.into())
    }

    pub fn prelim() -> Stage {
        Stage(Stage::DEFAULT.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Which card: one table in one session of one stage.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardKey {
    pub stage: Stage,
    pub session: Label,
    pub table: Label,
}

impl CardKey {
    /// Cards' tables, a group for each run of keys of one stage and session
    /// (sorted keys: one group a session), with the first key of each: what
    /// a list of tables by session says (`session S01: tables 3, 7, 9-11`).
    pub fn tables_by_session<'a>(
        keys: impl IntoIterator<Item = &'a CardKey>,
    ) -> Vec<(&'a CardKey, Vec<&'a Label>)> {
        let mut groups: Vec<(&CardKey, Vec<&Label>)> = Vec::new();
        for key in keys {
            match groups.last_mut() {
                Some((first, tables))
                    if first.stage == key.stage && first.session == key.session =>
                {
                    tables.push(&key.table)
                }
                _ => groups.push((key, vec![&key.table])),
            }
        }
        groups
    }

    /// The name a card goes by in the store and in a dump, and the sheet a
    /// stored card is read from: `prelim-S01-T07`.
    pub fn name(&self) -> String {
        let mut name = String::with_capacity(16);
        // (writing to a String does not fail)
        let _ = self.write_name(&mut name);
        name
    }

    /// Whether the card's [`CardKey::name`] is `text` (the name is not made:
    /// a stored event's million lines).
    pub fn is_named(&self, text: &str) -> bool {
        /// Compares what is written with the rest of a text.
        struct Same<'a>(&'a str);
        impl fmt::Write for Same<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut same = Same(text);
        self.write_name(&mut same).is_ok() && same.0.is_empty()
    }

    /// The name to `out`: the stage, session and table, a character that
    /// is not a letter, digit or `-` written `_`.
    fn write_name(&self, out: &mut impl fmt::Write) -> fmt::Result {
        use fmt::Write;
        struct Clean<'a, W>(&'a mut W);
        impl<W: fmt::Write> fmt::Write for Clean<'_, W> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                for c in s.chars() {
                    let clean = c.is_alphanumeric() || c == '-';
                    self.0.write_char(if clean { c } else { '_' })?;
                }
                Ok(())
            }
        }
        Clean(out).write_str(self.stage.as_str())?;
        out.write_char('-')?;
        SessionName(&self.session).write_to(&mut Clean(out))?;
        out.write_str("-T")?;
        match &self.table {
            Label::Num(n) => two_digits(out, *n),
            Label::Text(t) => Clean(out).write_str(t),
        }
    }
}

impl CardKey {
    /// The card as a message names it, in each language: `session S01
    /// table 3` (its stage first when not the first stage's).
    pub fn said(&self) -> Part {
        let session = Part::text(SessionName(&self.session));
        let table = Part::text(&self.table);
        if self.stage.as_str() != Stage::DEFAULT {
            Part::said(
                Msg::StagedCard,
                [Part::Stage(self.stage.to_string()), session, table],
            )
        } else {
            Part::said(Msg::Card, [session, table])
        }
    }
}

impl fmt::Display for CardKey {
    /// As [`CardKey::said`] in English.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.said().fmt(f)
    }
}

/// A player, as an index into the event's [`crate::roster::Roster`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u32);

impl PlayerId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One seat's result in one game, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult {
    pub seat: Seat,
    pub player: PlayerId,
    pub won: bool,
    pub score: Score,
    /// Tiles left; `None` only for a knocked rack that could not be counted.
    pub tiles: Option<u16>,
    pub place: Place,
}

/// One game of a card, checked: the seats that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub number: u32,
    pub results: Vec<SeatResult>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seat is its letter or number, in either case, in brackets or
    /// not, typed plainly or full-width.
    #[test]
    fn a_seat_is_read_however_typed() {
        for (text, seat) in [
            ("B", Some(Seat::B)),
            ("b", Some(Seat::B)),
            ("2", Some(Seat::B)),
            (" (C) ", Some(Seat::C)),
            ("Ｂ", Some(Seat::B)),
            ("ｄ", Some(Seat::D)),
            ("１", Some(Seat::A)),
            ("（Ｃ）", Some(Seat::C)),
            ("　Ａ　", Some(Seat::A)),
            ("E", None),
            ("Ｅ", None),
            ("AB", None),
        ] {
            assert_eq!(Seat::parse(text), seat, "{text:?}");
        }
    }

    /// A card's name in the store: its stage, session and table, anything
    /// but letters, digits and `-` written `_`; and a name is recognised
    /// without being made.
    #[test]
    fn a_cards_name_is_its_stage_session_and_table() {
        let key = |stage: &str, session: &str, table: &str| CardKey {
            stage: Stage::new(stage),
            session: Label::session(session).unwrap(),
            table: Label::table(table).unwrap(),
        };
        for (k, name) in [
            (key("prelim", "1", "7"), "prelim-S01-T07"),
            (key("final", "S12", "123"), "final-S12-T123"),
            (key("final", "Evening", "Blue 2"), "final-Evening-TBlue_2"),
            (key("prelim", "Day 1/pm", "7"), "prelim-Day_1_pm-T07"),
            (key("決賽", "下午", "甲/1"), "決賽-下午-T甲_1"),
        ] {
            assert_eq!(k.name(), name);
            assert!(k.is_named(name));
            for other in [
                &name[..name.len() - 1],
                "",
                "prelim-S01-T07x",
                "prelim-S01-T08",
            ] {
                assert_eq!(k.is_named(other), other == name, "{other}");
            }
        }
    }

    #[test]
    fn sessions_and_tables_are_the_same_however_written() {
        for t in ["1", "01", "S01", "s1", "Session 1", "session01", "1.0"] {
            assert_eq!(Label::session(t), Some(Label::Num(1)), "{t}");
        }
        for t in ["7", "T7", "Table 7", "table07"] {
            assert_eq!(Label::table(t), Some(Label::Num(7)), "{t}");
        }
        assert_eq!(Label::table("S7"), Some(Label::Text("S7".into())));
        assert_eq!(Label::table("Blue"), Some(Label::Text("Blue".into())));
        assert_eq!(Label::table("  "), None);
        // full-width, as a Chinese keyboard types them: the same numbers
        for t in [
            "１",
            "０１",
            "Ｓ０１",
            "S０１",
            "ｓ１",
            "Ｓｅｓｓｉｏｎ　１",
            "１．０",
        ] {
            assert_eq!(Label::session(t), Some(Label::Num(1)), "{t}");
        }
        for t in [
            "７",
            "Ｔ７",
            "Ｔａｂｌｅ　７",
            "Table ７",
            "\u{3000}７\u{3000}",
        ] {
            assert_eq!(Label::table(t), Some(Label::Num(7)), "{t}");
        }
        // in Chinese, 第 and the number of the session (節, 場) or table (桌)
        for t in ["第2節", "第二節", "第 2 場", "第２节", "第二場次"] {
            assert_eq!(Label::session(t), Some(Label::Num(2)), "{t}");
        }
        assert_eq!(Label::session("第十二節"), Some(Label::Num(12)));
        assert_eq!(Label::session("第二十五場"), Some(Label::Num(25)));
        assert_eq!(Label::session("第十節"), Some(Label::Num(10)));
        for t in ["第7桌", "第七桌", "第 7 枱"] {
            assert_eq!(Label::table(t), Some(Label::Num(7)), "{t}");
        }
        // (a table's word is no session's, nor a number beyond the words)
        assert_eq!(Label::session("第7桌"), Some(Label::Text("第7桌".into())));
        assert_eq!(Label::session("第百節"), Some(Label::Text("第百節".into())));
        assert_eq!(Label::session("上午"), Some(Label::Text("上午".into())));
        // a label that is no number is kept as typed
        assert_eq!(Label::table("Ｓ７"), Some(Label::Text("Ｓ７".into())));
        assert_eq!(Label::table("藍７"), Some(Label::Text("藍７".into())));
    }

    #[test]
    fn stages_have_one_name() {
        assert_eq!(Stage::new(""), Stage::prelim());
        assert_eq!(Stage::new("Preliminary"), Stage::prelim());
        assert_eq!(Stage::new("Semi-final").as_str(), "semi");
        assert_eq!(Stage::new("FINALS").as_str(), "final");
        assert_eq!(Stage::new("Round 2").as_str(), "round 2");
    }
}

/// Who sits at a seat, and where the card names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPlayer {
    pub seat: Seat,
    pub player: PlayerId,
    pub place: Place,
}

/// A card that passed every check of RULES.md section 5.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub key: CardKey,
    pub place: Place,
    pub seats: Vec<SeatPlayer>,
    pub games: Vec<Game>,
}

impl Card {
    /// Games the player at `seat` played on this card.
    pub fn games_played(&self, player: PlayerId) -> usize {
        self.games
            .iter()
            .filter(|g| g.results.iter().any(|r| r.player == player))
            .count()
    }
}
