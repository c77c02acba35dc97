//! One cell value, as CSV files and workbooks give it, and rows of them.

use crate::place::{column_name, At, Place, Source};
use crate::problem::said::{Msg, Part};
use crate::score::Score;

/// A cell's text. Short texts (the usual `+11`, `1`, `P0001`, a name) are
/// kept inline, with no allocation: a large results file has millions.
pub type Text = compact_str::CompactString;

/// A cell's value before any layout gives it a meaning.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Cell {
    #[default]
    Empty,
    Text(Text),
    Number(f64),
    Bool(bool),
    /// A date cell, as days since 1899-12-30 (the spreadsheet serial).
    Date(f64),
    /// A formula whose result was never saved (a sheet written by a library
    /// and never opened in a spreadsheet program).
    FormulaWithoutValue(Box<str>),
    /// A spreadsheet error value such as `#DIV/0!`.
    Error(Box<str>),
    /// An exact number the tool computed or stored itself (a score scored
    /// from racks, a stored card's score): read as it is, with no decimal
    /// text between.
    Exact(Score),
    /// A blank value cell of a line layout that a merged range covers
    /// (not its first cell), with the range's name (`H2:H5`): a value
    /// belongs to one row, so it is an error that says so, not a blank.
    Merged(Box<str>),
}

// A cell is as small as its text: the rare texts (a formula, an error
// value, a merged range's name) are boxed, so that every variant fits
// beside the text's spare byte. A million-player results file has three
// value cells a line, held while its chunk's cards are checked. (On a
// 64-bit system: a text is three words.)
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Cell>() == 24);

/// `t` as a [`Text`]. The short texts nearly every value cell holds (a
/// won `1`, tiles `3`, a score `-12`) are made at a length known here: a
/// copy of a length known only when the program runs writes the text a
/// byte at a time, and the processor then waits to read it back whole.
#[inline(always)]
fn short_text(t: &str) -> Text {
    match t.len() {
        1 => Text::new(t),
        2 => Text::new(t),
        3 => Text::new(t),
        4 => Text::new(t),
        _ => Text::new(t),
    }
}

impl Cell {
    /// Text cells are trimmed; an all-space text is empty.
    pub fn text(s: &str) -> Cell {
        let t = trim(s);
        if t.is_empty() {
            Cell::Empty
        } else {
            Cell::Text(short_text(t))
        }
    }

    pub fn is_empty(&self) -> bool {
        matches!(self, Cell::Empty)
    }

    /// The cell as text, without copying text cells.
    pub fn into_text(self) -> Text {
        match self {
            Cell::Text(t) => t,
            other => Text::from(other.as_text()),
        }
    }

    /// The cell as text, borrowed when it is text (no copy for the common
    /// case of a CSV field).
    pub fn text_ref(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Cell::Empty => std::borrow::Cow::Borrowed(""),
            Cell::Text(t) => std::borrow::Cow::Borrowed(t.as_str()),
            other => std::borrow::Cow::Owned(other.as_text()),
        }
    }

    /// The cell as text: numbers without a needless `.0`.
    pub fn as_text(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(t) => t.to_string(),
            Cell::Number(n) => format_number(*n),
            Cell::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
            Cell::Date(d) => date_from_serial(*d).unwrap_or_else(|| format_number(*d)),
            Cell::FormulaWithoutValue(f) => f.to_string(),
            Cell::Error(e) => e.to_string(),
            Cell::Exact(s) => s.to_string(),
            Cell::Merged(_) => String::new(),
        }
    }

    /// How the cell is quoted in a message: `"x"`, `7`, `blank` (a text
    /// as [`quoted`] quotes it).
    pub fn describe(&self) -> String {
        self.described().to_string()
    }

    /// How the cell is quoted in a message, said in each language
    /// ([`Cell::describe`] in English).
    pub fn described(&self) -> Part {
        match self {
            Cell::Empty => Part::said(Msg::Blank, []),
            // A number typed as text reads as the number, like a number cell.
            Cell::Text(t) if crate::score::Score::parse(t).is_some() => Part::text(t),
            // (a phone's or a Chinese keyboard's full-width digits look like
            // digits and are not: said, so that the fix is seen)
            Cell::Text(t) if t.chars().any(is_full_width_number) => {
                Part::said(Msg::FullWidth, [Part::text(quoted(t))])
            }
            Cell::Text(t) if letters_for_digits(t) => {
                Part::said(Msg::LetterForDigit, [Part::text(quoted(t))])
            }
            Cell::Text(t) => Part::text(quoted(t)),
            Cell::Number(n) => Part::Text(format_number(*n)),
            Cell::Bool(b) => Part::Text(b.to_string().to_uppercase()),
            // (a number of a card formatted as a date by its template:
            // 22 shows as 1900-01-21 in one program and 1900-01-22 in
            // another, so the number is said, not a date nobody typed)
            Cell::Date(d) if *d < FIRST_DAY_OF_1901 => {
                Part::said(Msg::DateNumberCell, [Part::Text(format_number(*d))])
            }
            Cell::Date(_) => Part::said(Msg::DateCell, [Part::Text(self.as_text())]),
            Cell::FormulaWithoutValue(f) => Part::said(Msg::FormulaCell, [Part::text(f)]),
            Cell::Error(e) => Part::said(Msg::ErrorCell, [Part::text(e)]),
            Cell::Exact(s) => Part::text(s),
            Cell::Merged(range) => Part::said(Msg::MergedCell, [Part::text(range)]),
        }
    }
}

/// A text as a message quotes it: in double quotes, each character that
/// cannot be seen (a control character, a zero-width one, a direction
/// mark, a space other than the plain one) named where it stands, as
/// `<U+200B zero width space>`: `"P0001<U+200B zero width space>"`, where
/// Rust's own quoting said `"P0001\u{200b}"`. A text longer than
/// [`QUOTED_CHARS`] is cut there and its length said
/// (`"XXXX..." (32000 characters)`): a message stays a line a director
/// reads, however long the cell.
pub fn quoted(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// The most characters of a text a message quotes.
pub const QUOTED_CHARS: usize = 100;

/// A text quoted for a message (see [`quoted`]).
pub struct Quoted<'a>(&'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        f.write_char('"')?;
        // (a long text: its first characters, then how long it is)
        let cut = self.0.char_indices().nth(QUOTED_CHARS).map(|(at, _)| at);
        let mut rest = &self.0[..cut.unwrap_or(self.0.len())];
        while let Some(at) = rest.find(|c: char| unseen(c).is_some()) {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            let name = unseen(c).unwrap_or_default();
            write!(f, "<U+{:04X} {name}>", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)?;
        match cut {
            Some(_) => write!(f, "...\" ({} characters)", self.0.chars().count()),
            None => f.write_char('"'),
        }
    }
}

/// The name of a character that cannot be seen in a message, or is seen
/// as a plain space and is not one; `None` for any other.
fn unseen(c: char) -> Option<&'static str> {
    Some(match c {
        '\t' => "tab",
        '\n' => "line break",
        '\r' => "carriage return",
        '\u{00A0}' => "no-break space",
        '\u{00AD}' => "soft hyphen",
        '\u{034F}' => "combining grapheme joiner",
        '\u{061C}' => "arabic letter mark",
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' => "hangul filler",
        '\u{180E}' => "mongolian vowel separator",
        '\u{2000}'..='\u{200A}' => "typographic space",
        '\u{200B}' => "zero width space",
        '\u{200C}' => "zero width non-joiner",
        '\u{200D}' => "zero width joiner",
        '\u{200E}' => "left-to-right mark",
        '\u{200F}' => "right-to-left mark",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => "direction control",
        '\u{202F}' => "narrow no-break space",
        '\u{205F}' => "medium mathematical space",
        '\u{2060}' => "word joiner",
        '\u{2061}'..='\u{2064}' => "invisible operator",
        '\u{206A}'..='\u{206F}' => "deprecated format character",
        '\u{FE00}'..='\u{FE0F}' => "variation selector",
        '\u{FEFF}' => "zero width no-break space (byte order mark)",
        '\u{FFF9}'..='\u{FFFB}' => "interlinear annotation character",
        c if c.is_control() => "control character",
        _ => return None,
    })
}

/// A full-width digit, plus, minus or point (`０`, `＋`, `－`, `．`).
/// Whether text `t` (short, with the letter O, o, l or I in it) reads as
/// a number once those letters are read as the digits they look like:
/// `O`, `1O`, `-l5`.
fn letters_for_digits(t: &str) -> bool {
    let lookalike = |c: char| matches!(c, 'O' | 'o' | 'l' | 'I');
    if t.chars().count() > 12 || !t.chars().any(lookalike) {
        return false;
    }
    let digits: String = t
        .chars()
        .map(|c| match c {
            'O' | 'o' => '0',
            'l' | 'I' => '1',
            c => c,
        })
        .collect();
    crate::score::Score::parse(&digits).is_some()
}

fn is_full_width_number(c: char) -> bool {
    matches!(
        c,
        '\u{FF10}'..='\u{FF19}' | '\u{FF0B}' | '\u{FF0D}' | '\u{FF0E}'
    )
}

/// A value as the number readers read it: the full-width digits, signs
/// and point a Chinese keyboard or a phone types (`－１２`, `３０．５`,
/// `＋５`) as their ASCII forms (`-12`, `30.5`, `+5`); any other character
/// as it is. A text without them (nearly every cell) is borrowed as it is.
/// (The full-width comma `，` is not folded: a Chinese keyboard's list
/// separator, never read as a decimal comma.)
pub fn half_width(t: &str) -> std::borrow::Cow<'_, str> {
    fold_full_width(t, is_full_width_number)
}

/// A session or table cell as its number is read ([`crate::domain::Label`]):
/// every full-width form of an ASCII character (`Ｓ０１`, `Ｔａｂｌｅ＃７`)
/// as that character, and the ideographic space as a space; any other
/// character as it is. A text without them is borrowed as it is.
pub fn half_width_label(t: &str) -> std::borrow::Cow<'_, str> {
    fold_full_width(t, |c| matches!(c, '\u{FF01}'..='\u{FF5E}' | '\u{3000}'))
}

/// `t` with each character `which` picks (full-width forms, and the
/// ideographic space) as its ASCII form.
fn fold_full_width(t: &str, which: impl Fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    if t.is_ascii() || !t.chars().any(&which) {
        return std::borrow::Cow::Borrowed(t);
    }
    let folded = t
        .chars()
        .map(|c| match c {
            '\u{3000}' if which(c) => ' ',
            // (U+FF01..U+FF5E are U+0021..U+007E, 0xFEE0 on)
            '\u{FF01}'..='\u{FF5E}' if which(c) => {
                char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c)
            }
            c => c,
        })
        .collect();
    std::borrow::Cow::Owned(folded)
}

/// A text of one to nine ASCII digits as its number, `None` for any other
/// text: the way a count is nearly always typed, read without the
/// library's general parse (the readers of a game number, a number of
/// tiles and a score fall back on theirs for every other spelling).
#[inline]
pub fn digits(t: &str) -> Option<u32> {
    let b = t.as_bytes();
    if b.is_empty() || b.len() > 9 {
        return None;
    }
    b.iter().try_fold(0u32, |n, &c| {
        let d = c.wrapping_sub(b'0');
        (d <= 9).then(|| n * 10 + u32::from(d))
    })
}

/// A text as a cell holds it: without the spaces (and byte order mark)
/// around it.
#[inline]
pub fn trim(s: &str) -> &str {
    // the common case: nothing to trim (a printable ASCII character at
    // each end), inline where it is called (a large file's every cell)
    let printable = |b: &u8| (b'!'..=b'~').contains(b);
    let b = s.as_bytes();
    if b.first().is_some_and(printable) && b.last().is_some_and(printable) {
        return s;
    }
    trim_slow(s)
}

#[inline(never)]
fn trim_slow(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        let s = format!("{n:.9}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The serial number of 1901-01-01: a date cell before it holds a number
/// that a template's date format shows as a day of 1900, not a date.
const FIRST_DAY_OF_1901: f64 = 367.0;

/// The serial number (days since 1899-12-30, the day's time as a
/// fraction) of a date as an OpenDocument file keeps it, `1900-01-21` or
/// `2026-03-28T10:30:00`: what an `.xlsx` keeps for the same cell, so that
/// both are read alike. `None` for anything else.
pub fn serial_from_iso(text: &str) -> Option<f64> {
    let (date, time) = match text.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (text, None),
    };
    let mut parts = date.splitn(3, '-');
    let mut number = |len: usize| {
        parts
            .next()
            .filter(|p| p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<i64>().ok())
    };
    let (y, m, d) = (number(4)?, number(2)?, number(2)?);
    let days = days_from_civil(y, u32::try_from(m).ok()?, u32::try_from(d).ok()?)?;
    let mut serial = (days + 25_569) as f64;
    if let Some(time) = time {
        let mut hms = time.splitn(3, ':');
        let mut field = || {
            hms.next()?
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        let (h, min, sec) = (field()?, field()?, field().unwrap_or(0.0));
        serial += (h * 3600.0 + min * 60.0 + sec) / 86_400.0;
    }
    (1.0..2_958_466.0).contains(&serial).then_some(serial)
}

/// Howard Hinnant's days-from-civil algorithm: (year, month, day) to days
/// since 1970-01-01; `None` for a day the calendar does not have.
fn days_from_civil(y: i64, m: u32, d: u32) -> Option<i64> {
    let year = i32::try_from(y).ok()?;
    if !(1..=12).contains(&m) || d < 1 || d > crate::rules::age_groups::days_in_month(year, m) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `YYYY-MM-DD` for a spreadsheet date serial (1900 date system).
pub fn date_from_serial(serial: f64) -> Option<String> {
    if !(1.0..2_958_466.0).contains(&serial) {
        return None;
    }
    // days since 1970-01-01
    let days = serial.floor() as i64 - 25_569;
    let (y, m, d) = civil_from_days(days);
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

/// Howard Hinnant's days-to-civil algorithm: days since 1970-01-01 to
/// (year, month, day).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// One row of cells and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// 1-based row number in the sheet, or line number in the CSV file.
    pub number: u32,
    /// 1-based column number of `cells[0]`.
    pub first_col: u32,
    pub cells: Vec<Cell>,
}

impl Row {
    pub fn is_blank(&self) -> bool {
        self.cells.iter().all(Cell::is_empty)
    }

    pub fn get(&self, i: usize) -> &Cell {
        self.cells.get(i).unwrap_or(&Cell::Empty)
    }

    pub fn col(&self, i: usize) -> u32 {
        self.first_col + i as u32
    }

    pub fn place(&self, source: &Source, i: usize) -> Place {
        source.at(self.number, Some(self.col(i)))
    }

    /// Where cell `i` is, in the row's source.
    pub fn at(&self, i: usize) -> At {
        At::cell(self.number, self.col(i))
    }
}

/// A merged range of cells, 1-based and inclusive: its value is in its
/// first (top left) cell, the others are blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merge {
    pub first: (u32, u32),
    pub last: (u32, u32),
}

impl Merge {
    /// Whether the cell at 1-based `(row, col)` is in the range, other than
    /// its first.
    pub fn covers(&self, row: u32, col: u32) -> bool {
        (self.first.0..=self.last.0).contains(&row)
            && (self.first.1..=self.last.1).contains(&col)
            && (row, col) != self.first
    }

    /// The range as a sheet names it: `D10:D11`.
    pub fn name(&self) -> String {
        format!(
            "{}{}:{}{}",
            column_name(self.first.1),
            self.first.0,
            column_name(self.last.1),
            self.last.0
        )
    }
}

#[cfg(test)]
mod tests {
    /// A text is quoted as it is, but for the characters nobody sees,
    /// each named where it stands: never Rust's `\u{200b}`.
    #[test]
    fn invisible_characters_are_named_where_they_stand() {
        let said = |t: &str| super::quoted(t).to_string();
        assert_eq!(said("Chan Tai Man"), "\"Chan Tai Man\"");
        assert_eq!(said("陳大文 \"Tai\""), "\"陳大文 \"Tai\"\"");
        assert_eq!(said("P0001\u{200b}"), "\"P0001<U+200B zero width space>\"");
        assert_eq!(
            said("\u{feff}id\tx\u{a0}"),
            "\"<U+FEFF zero width no-break space (byte order mark)>id<U+0009 tab>x<U+00A0 no-break space>\""
        );
        assert_eq!(
            said("\u{1}\u{202e}"),
            "\"<U+0001 control character><U+202E direction control>\""
        );
        assert_eq!(
            Cell::Text("P1\u{200d}".into()).describe(),
            "\"P1<U+200D zero width joiner>\""
        );
    }

    /// A letter O or l typed for a digit is said as such (tester r8 #15);
    /// a word with those letters in it is quoted as it is.
    #[test]
    fn a_letter_for_a_digit_is_said() {
        assert_eq!(
            Cell::Text("O".into()).describe(),
            "\"O\" (the letter O or l typed for the digit 0 or 1? type the digits)"
        );
        assert_eq!(
            Cell::Text("-l5".into()).describe(),
            "\"-l5\" (the letter O or l typed for the digit 0 or 1? type the digits)"
        );
        assert_eq!(Cell::Text("Olive".into()).describe(), "\"Olive\"");
        assert_eq!(Cell::Text("x".into()).describe(), "\"x\"");
    }

    /// A long text is quoted cut short, with its length: a 32,000
    /// character cell is not written out whole in each message.
    #[test]
    fn a_long_text_is_quoted_cut_short_with_its_length() {
        let said = |t: &str| super::quoted(t).to_string();
        let hundred = "陳".repeat(super::QUOTED_CHARS);
        assert_eq!(said(&hundred), format!("\"{hundred}\""));
        let long = "Y".repeat(32_000);
        assert_eq!(
            said(&long),
            format!(
                "\"{}...\" (32000 characters)",
                "Y".repeat(super::QUOTED_CHARS)
            )
        );
    }

    use super::*;

    #[test]
    fn one_to_nine_digits_are_their_number_and_nothing_else_is() {
        for (text, n) in [("0", 0), ("7", 7), ("007", 7), ("123456789", 123_456_789)] {
            assert_eq!(digits(text), Some(n), "{text:?}");
            assert_eq!(text.parse::<u32>().ok(), Some(n), "{text:?}");
        }
        for text in [
            "",
            "1234567890",
            "+1",
            "-1",
            " 1",
            "1 ",
            "1.0",
            "1e3",
            "١",
            "/",
            ":",
        ] {
            assert_eq!(digits(text), None, "{text:?}");
        }
    }

    #[test]
    fn spreadsheet_serials_become_iso_dates() {
        assert_eq!(date_from_serial(46109.0).as_deref(), Some("2026-03-28"));
        assert_eq!(date_from_serial(25569.0).as_deref(), Some("1970-01-01"));
        assert_eq!(date_from_serial(-3.0), None);
    }

    /// An .ods keeps a date as text (`2026-03-28`), an .xlsx as a serial
    /// number: the one becomes the other, back and forth.
    #[test]
    fn opendocument_dates_become_serials() {
        assert_eq!(serial_from_iso("2026-03-28"), Some(46109.0));
        assert_eq!(serial_from_iso("1900-01-21"), Some(22.0));
        assert_eq!(serial_from_iso("1970-01-01T12:00:00"), Some(25569.5));
        assert_eq!(serial_from_iso("2024-02-29"), Some(45351.0));
        for serial in [22.0, 60.0, 61.0, 25569.0, 46109.0, 2_958_465.0] {
            let date = date_from_serial(serial).unwrap();
            assert_eq!(serial_from_iso(&date), Some(serial), "{date}");
        }
        for no in [
            "2023-02-29",
            "2026-13-01",
            "26-03-28",
            "2026-3-28",
            "x",
            "",
            "1899-12-30",
        ] {
            assert_eq!(serial_from_iso(no), None, "{no:?}");
        }
    }

    /// A card's number in a cell a template formats as a date is said as
    /// the number (22), not as a day of 1900 nobody typed; a real date
    /// stays a date.
    #[test]
    fn a_number_formatted_as_a_date_is_said_as_the_number() {
        assert_eq!(
            Cell::Date(22.0).describe(),
            "22 in a cell formatted as a date (format the cell as a number)"
        );
        assert_eq!(Cell::Date(46109.0).describe(), "the date 2026-03-28");
    }

    #[test]
    fn numbers_print_without_noise() {
        assert_eq!(format_number(7.0), "7");
        assert_eq!(format_number(-5.5), "-5.5");
        assert_eq!(Cell::text("  \u{feff} ").describe(), "blank");
    }
}
