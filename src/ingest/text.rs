//! CSV files as spreadsheet programs write them: UTF-8 with or without BOM,
//! UTF-16 with or without BOM, or a legacy encoding (Windows-1252, Big5,
//! GBK, ...), and `,` `;` or tab between fields (European Excel writes
//! `;`).

use super::cell::{Cell, Row};
use super::limits::{hint, Limits};
use super::split::Splitter;
use super::InputError;
use crate::place::Source;
use encoding_rs::Encoding;

/// Fields of one CSV line: as many as a spreadsheet has columns.
pub const MAX_FIELDS: u64 = 16_384;

/// Checks every line and field against the limits before the text is
/// parsed, so that a runaway line is refused rather than held. Quotes are
/// followed the way the CSV reader follows them (a quoted field may hold
/// the delimiter and line breaks).
pub fn check_lengths(text: &str, name: &str, limits: &Limits) -> Result<(), InputError> {
    if within_limits_unquoted(text.as_bytes(), limits) {
        return Ok(());
    }
    check_each_byte(text, name, limits)
}

/// [`check_lengths`] a byte at a time, following quotes.
fn check_each_byte(text: &str, name: &str, limits: &Limits) -> Result<(), InputError> {
    let delimiter = sniff_delimiter(text);
    let source = Source::file(name);
    let (mut line, mut line_start, mut field_start, mut fields) = (1u32, 0usize, 0usize, 1u64);
    // (the line a field starts on: a quoted one may run over line breaks)
    let mut field_line = 1u32;
    let mut quoted = false;
    let bytes = text.as_bytes();
    let over = |line: u32, col: Option<u32>, message: String| InputError::Limit {
        place: source.at(line, col),
        message,
    };
    // (a carriage return before a line feed, or at the text's end, is part
    // of the line break: counted in neither the line nor its last field,
    // as the splitter and the CSV reader leave it out)
    let breaks = |j: usize| bytes[j] == b'\r' && bytes.get(j + 1).is_none_or(|&c| c == b'\n');
    let without_break = |start: usize, end: usize| {
        if end > start && breaks(end - 1) {
            end - 1
        } else {
            end
        }
    };
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'"' {
            quoted = !quoted;
        }
        let ends_field = !quoted && (b == delimiter || b == b'\n');
        if ends_field || i + 1 == bytes.len() {
            let end = if ends_field { i } else { i + 1 };
            let end = if b == delimiter && ends_field {
                end
            } else {
                without_break(field_start, end)
            };
            let len = (end - field_start) as u64;
            if len > limits.field_bytes {
                // (said where it starts: a quote that runs over lines is
                // most often a stray one)
                let runs = if field_line < line {
                    format!(
                        ", from a quote here to line {line} (a stray quote? remove it, or close it where the value ends)"
                    )
                } else {
                    String::new()
                };
                return Err(over(
                    field_line,
                    Some(fields.min(u32::MAX as u64) as u32),
                    format!(
                        "a field of {len} bytes{runs}; {}",
                        hint(limits.field_bytes, "TILERANK_MAX_FIELD_BYTES")
                    ),
                ));
            }
            field_start = i + 1;
            field_line = if b == b'\n' { line + 1 } else { line };
            fields += 1;
            if fields > MAX_FIELDS && b != b'\n' {
                return Err(over(
                    line,
                    None,
                    format!(
                        "more than {MAX_FIELDS} fields on one line (the columns of a spreadsheet)"
                    ),
                ));
            }
        }
        if b == b'\n' || i + 1 == bytes.len() {
            // the line's bytes, without its line break
            let end = if b == b'\n' { i } else { i + 1 };
            let len = without_break(line_start, end).saturating_sub(line_start) as u64;
            if len > limits.line_bytes {
                return Err(over(
                    line,
                    None,
                    format!(
                        "a line of {len} bytes; {}",
                        hint(limits.line_bytes, "TILERANK_MAX_LINE_BYTES")
                    ),
                ));
            }
        }
        if b == b'\n' {
            line = line.saturating_add(1);
            line_start = i + 1;
            if !quoted {
                fields = 1;
            }
        }
    }
    Ok(())
}

/// Whether a text with no quote holds no line that could break a limit: a
/// line shorter than each limit holds no field or line too long, nor too
/// many fields (the common case, said a line at a time, not a byte).
fn within_limits_unquoted(bytes: &[u8], limits: &Limits) -> bool {
    let longest = longest_within(limits);
    if memchr::memchr(b'"', bytes).is_some() {
        return false;
    }
    if each_block_has_a_line_break(bytes, longest) {
        return true;
    }
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes).chain([bytes.len()]) {
        if (end - start) as u64 > longest {
            return false;
        }
        start = end + 1;
    }
    true
}

/// The bytes a line with no quote may have (its carriage return counted,
/// not its line feed) and be within every limit, whatever its fields:
/// no field of it, nor it, too long, nor of too many fields.
pub fn longest_within(limits: &Limits) -> u64 {
    limits
        .field_bytes
        .min(limits.line_bytes)
        .min(MAX_FIELDS - 1)
}

/// Whether every line of `bytes` is `longest` bytes or shorter, known
/// without finding every line break: when each whole block of
/// `(longest + 2) / 2` bytes (counted from the start) holds a line break,
/// no two line breaks (nor the text's start or end and the nearest line
/// break) are more than twice that apart, so no line is longer. A file of
/// a million short lines is then looked at once a block, not once a line;
/// `false` when a block holds none (some line may be long: the lines are
/// then measured one by one).
fn each_block_has_a_line_break(bytes: &[u8], longest: u64) -> bool {
    let block = usize::try_from(longest / 2 + 1).unwrap_or(usize::MAX);
    bytes
        .chunks_exact(block)
        .all(|b| memchr::memchr(b'\n', b).is_some())
}

/// The encoding a text not in UTF-8 was read in: its name, whether it
/// was guessed from a few letters only ([`FEW_TO_GUESS`]), and where its
/// first byte that is not UTF-8 is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    pub name: &'static str,
    /// Judged from fewer than [`FEW_TO_GUESS`] letters that are not ASCII
    /// (a roster of a name or two): the guess may well be wrong, and the
    /// note says so.
    pub from_few: bool,
    /// The first byte that is not UTF-8, when the encoding was guessed
    /// (none for UTF-16, told by its NULs): one stray byte (a letter
    /// typed in another program) makes the whole file be read in another
    /// encoding, and the note names its line, to be mended.
    pub first_bad: Option<FirstBad>,
}

/// Where the first byte that is not UTF-8 is: its line (from 1), the
/// character of the line it is (from 1, as a text editor counts them:
/// those before it are UTF-8), and the byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstBad {
    pub line: u32,
    pub char: u32,
    pub byte: u8,
}

impl FirstBad {
    /// The first byte of `bytes` that is not UTF-8, which are UTF-8 up to
    /// `valid` ([`std::str::Utf8Error::valid_up_to`]).
    fn of(bytes: &[u8], valid: usize) -> Option<FirstBad> {
        let byte = *bytes.get(valid)?;
        let before = &bytes[..valid];
        let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let line = memchr::memchr_iter(b'\n', before).count() + 1;
        let char = std::str::from_utf8(&before[start..]).map_or(0, |t| t.chars().count()) + 1;
        Some(FirstBad {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            char: u32::try_from(char).unwrap_or(u32::MAX),
            byte,
        })
    }
}

impl Encoded {
    /// Read in `encoding`, known for sure (UTF-16's NULs): no guess.
    fn sure(encoding: &'static Encoding) -> Encoded {
        Encoded {
            name: encoding.name(),
            from_few: false,
            first_bad: None,
        }
    }
}

/// The letters that are not ASCII (as the text reads in the encoding
/// guessed), fewer than which a legacy encoding's guess is said to rest
/// on a few letters. A name in Chinese characters is two bytes a
/// character in GBK and in Big5, and the same bytes read as Chinese
/// characters in both often enough: chardetng guesses the encoding of a
/// roster of one name of three characters wrong about one time in three,
/// of three names one time in ten, of five one time in fifty, of ten or
/// more hardly ever (measured on names of common surnames and given names
/// in GBK and Big5). Below 16 (five names of three characters) the note
/// says the guess rests on little.
pub const FEW_TO_GUESS: usize = 16;

/// Bytes to text. UTF-8 (and UTF-16 with a BOM) is taken as it is; so is
/// UTF-16 without a BOM, told by its NUL bytes (`utf16_without_bom`);
/// anything else is decoded in the encoding that chardetng judges most
/// likely. Returns the text and its encoding when it was not UTF-8 and
/// not told by a byte order mark (which is sure: nothing to note), or
/// why the bytes are not read (UTF-16's pattern of NULs, but not UTF-16
/// throughout).
/// As [`decode`], taking the bytes: UTF-8 without a byte order mark, the
/// common case, becomes the text without a copy.
pub fn decode_owned(bytes: Vec<u8>) -> Result<(String, Option<Encoded>), String> {
    if Encoding::for_bom(&bytes).is_none() && memchr::memchr(0, &bytes).is_none() {
        match String::from_utf8(bytes) {
            Ok(text) => return Ok((text, None)),
            Err(e) => return decode(e.as_bytes()),
        }
    }
    decode(&bytes)
}

pub fn decode(bytes: &[u8]) -> Result<(String, Option<Encoded>), String> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        return Ok((text.into_owned(), None));
    }
    match utf16_without_bom(bytes) {
        Nuls::None => {}
        Nuls::Utf16(text, encoding) => return Ok((text, Some(Encoded::sure(encoding)))),
        Nuls::LikeUtf16(encoding) => {
            return Err(format!(
                "looks like {} without a byte-order mark (a NUL byte beside each letter), but is not {0} throughout; save it as CSV UTF-8 in the spreadsheet program and read it again",
                encoding.name()
            ))
        }
    }
    let first_bad = match std::str::from_utf8(bytes) {
        Ok(text) => return Ok((text.to_string(), None)),
        Err(e) => FirstBad::of(bytes, e.valid_up_to()),
    };
    // (the whole text, fed once: chardetng judges on every byte; no
    // top-level domain is given, as nothing says where a file was written,
    // and one would only trade a wrong guess for another: a Japanese
    // roster's for a Chinese one's)
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let encoding = detector.guess(None, chardetng::Utf8Detection::Deny);
    let (text, _, _) = encoding.decode(bytes);
    let letters = text
        .chars()
        .filter(|c| !c.is_ascii())
        .take(FEW_TO_GUESS)
        .count();
    Ok((
        text.into_owned(),
        Some(Encoded {
            name: encoding.name(),
            from_few: letters < FEW_TO_GUESS,
            first_bad,
        }),
    ))
}

/// What the NUL bytes of a text with no byte order mark say.
#[derive(Debug, PartialEq, Eq)]
enum Nuls {
    /// Not UTF-16: no NUL (UTF-8 and the legacy encodings have none), or
    /// NULs that do not lie as UTF-16's do (a stray one in a cell, a run of
    /// them where a copy was cut short): the text is read as any other,
    /// and a NUL in it is a control character at its cell.
    None,
    /// UTF-16 in this byte order: the text.
    Utf16(String, &'static Encoding),
    /// UTF-16's pattern of NULs, but not UTF-16 throughout (a byte
    /// missing, a NUL or control character among the letters): not read.
    LikeUtf16(&'static Encoding),
}

/// Whether `bytes` (with no byte order mark) are UTF-16, as a spreadsheet
/// program or Notepad writes it when told "Unicode" without a BOM: each
/// character two bytes, and for each character of ASCII (a CSV's
/// delimiters, line breaks, digits, and most of its letters) one of the
/// two is NUL, the second in UTF-16LE, the first in UTF-16BE. A quarter of
/// the pairs or more must have that NUL, nine NULs in ten must be of that
/// kind (a Chinese character has a NUL byte too, once in 256: U+4E00 一 is
/// `00 4E` in UTF-16LE), and the whole must decode as UTF-16 with no NUL
/// or control character but tab and line breaks; else a text with NULs is
/// not read as UTF-16 ([`Nuls::None`], or [`Nuls::LikeUtf16`] when only
/// the decoding fails).
fn utf16_without_bom(bytes: &[u8]) -> Nuls {
    if memchr::memchr(0, bytes).is_none() {
        return Nuls::None;
    }
    // pairs with a NUL in their first byte only, in their second only
    let (mut first, mut second) = (0usize, 0usize);
    for pair in bytes.chunks_exact(2) {
        match (pair[0] == 0, pair[1] == 0) {
            (true, false) => first += 1,
            (false, true) => second += 1,
            _ => {}
        }
    }
    let nuls = memchr::memchr_iter(0, bytes).count();
    let (encoding, ascii) = if second >= first {
        (encoding_rs::UTF_16LE, second)
    } else {
        (encoding_rs::UTF_16BE, first)
    };
    let pairs = bytes.len() / 2;
    if ascii == 0 || ascii * 4 < pairs || ascii * 10 < nuls * 9 {
        return Nuls::None;
    }
    match encoding.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(text)
            if !text
                .chars()
                .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) =>
        {
            Nuls::Utf16(text.into_owned(), encoding)
        }
        _ => Nuls::LikeUtf16(encoding),
    }
}

/// The lines that are not blank the delimiter is judged on.
pub const SNIFF_LINES: usize = 20;

/// The field delimiter: of `,` `;` and tab, the one that splits the first
/// [`SNIFF_LINES`] lines that are not blank into the most fields, most
/// consistently. Quoted text is skipped.
pub fn sniff_delimiter(text: &str) -> u8 {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(SNIFF_LINES)
        .collect();
    let mut best = (b',', 0usize);
    for delim in [b',', b';', b'\t'] {
        let counts: Vec<usize> = lines
            .iter()
            .map(|l| count_outside_quotes(l, delim))
            .collect();
        let max = counts.iter().copied().max().unwrap_or(0);
        // lines that agree with the widest line count most
        let agreeing = counts.iter().filter(|&&c| c == max && c > 0).count();
        let score = agreeing * 1000 + max;
        if score > best.1 {
            best = (delim, score);
        }
    }
    best.0
}

fn count_outside_quotes(line: &str, delim: u8) -> usize {
    let mut quoted = false;
    let mut n = 0;
    for b in line.bytes() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == delim && !quoted {
            n += 1;
        }
    }
    n
}

/// Rows of a CSV text, each with its line number. Ragged rows are fine.
pub struct CsvRows {
    how: How,
    /// The text's lines, for [`Iterator::size_hint`] (at most that many
    /// rows remain).
    lines: usize,
}

/// How a text is split into fields.
enum How {
    /// By the CSV reader (the text is the cursor's: held once).
    Reader {
        reader: csv::Reader<std::io::Cursor<Vec<u8>>>,
        record: csv::StringRecord,
        delimiter: u8,
    },
    /// A text with no quote, each carriage return part of a line break
    /// (nearly every file a spreadsheet program writes): its lines split
    /// where they lie, as the CSV reader splits them.
    Plain {
        text: String,
        splitter: Splitter,
        /// Where the next line starts, and the lines before it.
        from: usize,
        line: u32,
    },
}

impl CsvRows {
    pub fn new(text: String) -> CsvRows {
        let plain = super::split::takes(text.as_bytes());
        CsvRows::split_by(text, plain)
    }

    /// The rows of `text`, split where they lie when `plain` (it must be,
    /// as [`CsvRows::new`] says), else by the CSV reader.
    fn split_by(text: String, plain: bool) -> CsvRows {
        let delimiter = sniff_delimiter(&text);
        let lines = super::split::line_feeds(text.as_bytes()) + 1;
        let how = if plain {
            // (the text's lines are within the limits already, checked
            // before it is read: see `check_lengths`)
            let unlimited = Limits {
                line_bytes: u64::MAX,
                field_bytes: u64::MAX,
                ..Limits::default()
            };
            How::Plain {
                text,
                splitter: Splitter::new(delimiter, &unlimited),
                from: 0,
                line: 0,
            }
        } else {
            How::Reader {
                reader: csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .delimiter(delimiter)
                    .from_reader(std::io::Cursor::new(text.into_bytes())),
                record: csv::StringRecord::new(),
                delimiter,
            }
        };
        CsvRows { how, lines }
    }
}

/// What a plain text's rows (see `How::Plain`) have not given yet:
/// a reader that splits lines itself ([`crate::ingest::roster`], on two
/// threads) goes on from here.
pub struct PlainRest {
    pub text: String,
    /// Where the next line starts in `text`, and the lines before it.
    pub from: usize,
    pub line: u32,
    pub delimiter: u8,
}

impl CsvRows {
    /// The rest of a plain text (its rows not read yet), or these rows
    /// back when they are not split where they lie.
    pub fn into_plain(self) -> Result<PlainRest, Box<CsvRows>> {
        match self.how {
            How::Plain {
                text,
                splitter,
                from,
                line,
            } => Ok(PlainRest {
                text,
                from,
                line,
                delimiter: splitter.delimiter(),
            }),
            how => Err(Box::new(CsvRows { how, ..self })),
        }
    }
}

/// A line of a plain text split where it lies ([`crate::ingest::split`]):
/// its fields borrowed, a cell made only for a field taken.
pub struct SplitFields<'a> {
    /// The line (its line break left out or not: no field holds it).
    pub text: &'a str,
    /// The fields' ranges in `text`.
    pub fields: &'a [(usize, usize)],
    pub number: u32,
}

impl SplitFields<'_> {
    fn field(&self, i: usize) -> &str {
        self.fields
            .get(i)
            .and_then(|&(a, b)| self.text.get(a..b))
            .unwrap_or_default()
    }

    /// Whether no field is filled: the line is not a row (as [`CsvRows`]
    /// leaves it out).
    pub fn is_blank(&self) -> bool {
        (0..self.fields.len()).all(|i| super::cell::trim(self.field(i)).is_empty())
    }
}

impl super::lines::Fields for SplitFields<'_> {
    fn number(&self) -> u32 {
        self.number
    }

    fn at(&self, i: usize) -> crate::place::At {
        crate::place::At::cell(self.number, i as u32 + 1)
    }

    /// As its cell's text ([`Cell::text`] trims, as here).
    fn text(&self, i: usize) -> std::borrow::Cow<'_, str> {
        std::borrow::Cow::Borrowed(super::cell::trim(self.field(i)))
    }

    #[inline]
    fn take(&mut self, i: usize) -> Cell {
        Cell::text(self.field(i))
    }

    fn beyond(&self, width: usize) -> Option<usize> {
        (width..self.fields.len()).find(|&i| !super::cell::trim(self.field(i)).is_empty())
    }
}

/// The rows of a text by the CSV reader, whatever the text (a plain text
/// too, which [`CsvRows::new`] would split itself): what the readers that
/// split a plain text are held against.
#[doc(hidden)]
pub fn rows_by_reader(text: String) -> CsvRows {
    CsvRows::split_by(text, false)
}

/// The rows of a text with no quote and no lone carriage return read both
/// ways, by the splitter and by the CSV reader (`None` for any other
/// text): the fuzz targets hold the two the same, as a test does.
#[doc(hidden)]
pub fn rows_both_ways(text: &str) -> Option<[Vec<Result<Row, RowError>>; 2]> {
    match CsvRows::new(text.to_string()).how {
        How::Plain { .. } => {
            Some([true, false].map(|plain| CsvRows::split_by(text.to_string(), plain).collect()))
        }
        How::Reader { .. } => None,
    }
}

/// A row that cannot be read: where the trouble starts (the whole text
/// when not known) and what it is, said whole. The sheet's reading ends
/// there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    pub at: crate::place::At,
    pub message: String,
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A quoted field of `record` (which starts on line `number`) that runs
/// away: its quote opened a field and was never closed, or closed only
/// lines further on, the lines between read as the field's text (each
/// line after its first holds the delimiter, as the lines of the file
/// do). A stray quote typed at the start of a value does that, and every
/// line after it is lost into one field. A quoted text of a few lines
/// without the delimiter (a header cell `"Game Won\n(1/0)"`) is no
/// runaway.
fn runaway_quote(
    reader: &csv::Reader<std::io::Cursor<Vec<u8>>>,
    record: &csv::StringRecord,
    number: u32,
    delimiter: u8,
) -> Option<RowError> {
    let (i, field) = record.iter().enumerate().find(|(_, f)| f.contains('\n'))?;
    // where its quote opened: the record's line, and the line breaks of
    // the fields before it
    let before: usize = record.iter().take(i).map(|f| f.matches('\n').count()).sum();
    let opened = number.saturating_add(before as u32);
    let bytes = reader.get_ref().get_ref();
    let end = reader.position().byte() as usize;
    // never closed: the record runs to the text's end, and does not end
    // with a quote (its line break aside)
    let at_end = end >= bytes.len();
    let unclosed = at_end && {
        let start = record.position().map_or(0, |p| p.byte() as usize);
        let raw = bytes.get(start..end).unwrap_or_default();
        let raw = raw.trim_ascii_end();
        !raw.ends_with(b"\"")
    };
    let mut lines = field.split('\n');
    lines.next();
    let swallowed: Vec<&str> = lines.collect();
    let holds = |l: &&str| l.as_bytes().contains(&delimiter);
    let taken = swallowed.iter().filter(|l| !l.trim().is_empty()).count();
    if !unclosed && (taken == 0 || !swallowed.iter().filter(|l| !l.trim().is_empty()).all(holds)) {
        return None;
    }
    let last = opened.saturating_add(swallowed.len() as u32);
    // (a field that runs to the text's end holds its last line break)
    let last = if unclosed && field.ends_with('\n') {
        last.saturating_sub(1)
    } else {
        last
    };
    let lines = match last.saturating_sub(opened) {
        0 => None,
        1 => Some(format!("line {last} is")),
        _ => Some(format!("lines {} to {last} are", opened + 1)),
    };
    let fix = "remove the stray quote, or close it where the value ends";
    let message = match (unclosed, lines) {
        (true, None) => format!(
            "a quote opens this field and is never closed: the rest of the file is read as this one field; {fix}"
        ),
        (true, Some(lines)) => format!(
            "a quote opens this field and is never closed: the rest of the file ({lines}) is read as this one field; {fix}",
            lines = lines.replace(" is", "").replace(" are", "")
        ),
        (false, lines) => format!(
            "a quote opens this field and closes only on line {last}: {} read as part of this one field; {fix}",
            lines.unwrap_or_default()
        ),
    };
    Some(RowError {
        at: crate::place::At::cell(opened, i as u32 + 1),
        message,
    })
}

/// The record's first line. csv counts a record from the end of the one
/// before, so blank lines skipped in between are counted here.
fn line_of(reader: &csv::Reader<std::io::Cursor<Vec<u8>>>, pos: &csv::Position) -> u32 {
    let start = pos.byte() as usize;
    let bytes = reader.get_ref().get_ref();
    let skipped = bytes[start.min(bytes.len())..]
        .iter()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .filter(|&&b| b == b'\n')
        .count();
    (pos.line() as usize + skipped) as u32
}

/// The row of a line's fields, numbered `number`: `None` when no field
/// is filled (blank lines, `;;;` too, are left out, as they are from
/// workbooks); trailing blank fields are left out too.
fn row_of<'a, F>(number: u32, fields: F) -> Option<Row>
where
    F: IntoIterator<Item = &'a str>,
    F::IntoIter: DoubleEndedIterator + Clone,
{
    let fields = fields.into_iter();
    let blank_after = fields
        .clone()
        .rev()
        .position(|f| !super::cell::trim(f).is_empty())?;
    let keep = fields.clone().count() - blank_after;
    Some(Row {
        number,
        first_col: 1,
        cells: fields.take(keep).map(Cell::text).collect(),
    })
}

impl Iterator for CsvRows {
    type Item = Result<Row, RowError>;

    /// At most a row a line of the text not yet read.
    fn size_hint(&self) -> (usize, Option<usize>) {
        let read = match &self.how {
            How::Reader { reader, .. } => (reader.position().line() as usize).saturating_sub(1),
            How::Plain { line, .. } => *line as usize,
        };
        (0, Some(self.lines.saturating_sub(read)))
    }

    /// The next row with a filled cell.
    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.how {
            How::Reader {
                reader,
                record,
                delimiter,
            } => loop {
                match reader.read_record(record) {
                    Ok(false) => return None,
                    Ok(true) => {
                        let number = record.position().map_or(0, |p| line_of(reader, p));
                        if let Some(e) = runaway_quote(reader, record, number, *delimiter) {
                            return Some(Err(e));
                        }
                        if let Some(row) = row_of(number, record.iter()) {
                            return Some(Ok(row));
                        }
                    }
                    Err(e) => {
                        return Some(Err(RowError {
                            at: crate::place::At::WHOLE,
                            message: format!("cannot be read as CSV: {e}"),
                        }))
                    }
                }
            },
            How::Plain {
                text,
                splitter,
                from,
                line,
            } => loop {
                if *from >= text.len() {
                    return None;
                }
                // (over no limit: the splitter's are none but the fields a
                // line, checked before, as the text's lengths are)
                let (end, _) = splitter.next_line(text.as_bytes(), *from);
                let at = std::mem::replace(from, end);
                *line += 1;
                let this = text.get(at..end).unwrap_or_default();
                let fields = splitter.fields.iter();
                if let Some(row) = row_of(
                    *line,
                    fields.map(|&(a, b)| this.get(a..b).unwrap_or_default()),
                ) {
                    return Some(Ok(row));
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_delimiter_that_splits_consistently() {
        assert_eq!(sniff_delimiter("a,b,c\n1,2,3\n"), b',');
        assert_eq!(sniff_delimiter("a;b;c\n1;2,5;3\n"), b';');
        assert_eq!(sniff_delimiter("a\tb\tc\n1\t2\t3\n"), b'\t');
        assert_eq!(sniff_delimiter("name;score\n\"Chan, Tai Man\";5\n"), b';');
    }

    #[test]
    fn decodes_bom_utf8_and_legacy_encodings() {
        assert_eq!(decode(b"\xEF\xBB\xBFid,name").unwrap().0, "id,name");
        let (text, label) = decode(b"id,name\nP1,Jos\xe9 M\xfcller\n").unwrap();
        assert_eq!(text, "id,name\nP1,José Müller\n");
        assert_eq!(label, Some(guessed("windows-1252", true, at(2, 7, 0xE9))));
        let (big5, _, _) = encoding_rs::BIG5.encode("id,name\nP1,陳大文\nP2,李小明\nP3,黃志強\n");
        let (text, label) = decode(&big5).unwrap();
        assert!(text.contains("陳大文"), "{text}");
        assert_eq!(label, Some(guessed("Big5", true, at(2, 4, big5[11]))));
        // a byte order mark is sure: nothing to note
        assert_eq!(decode(b"\xFF\xFEi\0d\0").unwrap(), ("id".to_string(), None));
    }

    fn guessed(name: &'static str, from_few: bool, first_bad: Option<FirstBad>) -> Encoded {
        Encoded {
            name,
            from_few,
            first_bad,
        }
    }

    fn at(line: u32, char: u32, byte: u8) -> Option<FirstBad> {
        Some(FirstBad { line, char, byte })
    }

    /// One stray byte that is not UTF-8 in a UTF-8 text: its line, and its
    /// character of the line (counted in characters, the Chinese ones
    /// before it one each), are where the note says it is.
    #[test]
    fn the_first_byte_that_is_not_utf8_is_found_by_line_and_character() {
        let mut bytes = "id,name\nP1,陳大文\nP2,李小明\n".as_bytes().to_vec();
        bytes.extend_from_slice(b"P3,Jos\xe9\n");
        let (_, label) = decode(&bytes).unwrap();
        assert_eq!(label.and_then(|l| l.first_bad), at(4, 7, 0xE9));
        let mut bytes = "id,name\nP1,陳大文!\n".as_bytes().to_vec();
        bytes[20] = 0xFF;
        let (_, label) = decode_owned(bytes).unwrap();
        assert_eq!(label.and_then(|l| l.first_bad), at(2, 7, 0xFF));
    }

    /// A guess from fewer than [`FEW_TO_GUESS`] letters not ASCII is said
    /// to be one: a roster of one name in GBK reads as Chinese characters in
    /// Big5 too, and chardetng is often wrong on so few.
    #[test]
    fn a_guess_from_a_few_letters_is_said_to_be_one() {
        let names = ["陳大文", "李小明", "黃志強", "王美玲", "張家豪", "林嘉欣"];
        for (n, from_few) in [(1, true), (5, true), (6, false), (30, false)] {
            let mut roster = String::from("id,name\n");
            for i in 0..n {
                roster.push_str(&format!("P{i},{}\n", names[i % names.len()]));
            }
            let (big5, _, _) = encoding_rs::BIG5.encode(&roster);
            let (_, label) = decode(&big5).unwrap();
            assert_eq!(label.map(|l| l.from_few), Some(from_few), "{n} names");
        }
    }

    fn utf16(text: &str, le: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect()
    }

    #[test]
    fn utf16_without_a_bom_is_told_by_its_nuls() {
        // ASCII, Chinese names (一 is 00 4E in UTF-16LE: a NUL in the
        // other byte), and a header in Chinese
        for text in [
            "session,table,game,seat,player,won,score,tiles\nS01,7,1,A,P0001,1,+30,0\n",
            "id,name\nP1,陳大文\nP2,一丁\n",
            "編號,姓名\n1,陳大文\n2,李小明\n",
            "x",
        ] {
            for (le, name) in [(true, "UTF-16LE"), (false, "UTF-16BE")] {
                let bytes = utf16(text, le);
                let sure = Some(guessed(name, false, None));
                assert_eq!(
                    decode(&bytes),
                    Ok((text.to_string(), sure)),
                    "{text:?} {name}"
                );
                assert_eq!(decode_owned(bytes), Ok((text.to_string(), sure)));
            }
        }
        // a byte missing at the end, a NUL character among the letters
        let mut cut = utf16("id,name\nP1,Chan\n", true);
        cut.pop();
        let e = decode(&cut).unwrap_err();
        assert!(
            e.starts_with("looks like UTF-16LE without a byte-order mark (a NUL byte beside each letter), but is not UTF-16LE throughout; save it as CSV UTF-8"),
            "{e}"
        );
        assert!(
            decode(&utf16("id,name\nP1,Chan Tai Man\nP2,Ch\0an\n", false))
                .unwrap_err()
                .starts_with("looks like UTF-16BE")
        );
    }

    #[test]
    fn nuls_that_are_not_utf16_are_read_as_the_text_they_are_in() {
        let card = "session,table,game,seat,player\nS01,7,1,A,P0001\n";
        // a stray NUL in a cell, a run of them where a copy was cut short,
        // a NUL in a legacy encoding's text
        let stray = card.replace("P0001", "P00\x0001");
        let padded = format!("{card}{}", "\0".repeat(4096));
        for text in [stray.as_str(), padded.as_str()] {
            assert_eq!(
                decode(text.as_bytes()),
                Ok((text.to_string(), None)),
                "{text:?}"
            );
            assert_eq!(
                decode_owned(text.as_bytes().to_vec()),
                Ok((text.to_string(), None))
            );
        }
        let (text, label) = decode(b"id,name\nP1,Jos\xe9\0\n").unwrap();
        assert_eq!(
            (text.as_str(), label),
            (
                "id,name\nP1,José\0\n",
                Some(guessed("windows-1252", true, at(2, 7, 0xE9)))
            )
        );
        // UTF-32, whose NULs are half of its bytes: not UTF-16
        let utf32: Vec<u8> = "id,name\n"
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        assert_eq!(decode(&utf32).unwrap().1, None);
        // and whatever the bytes, no panic
        for n in 0..2000u32 {
            let bytes: Vec<u8> = (0..n % 37)
                .map(|i| match (n.wrapping_mul(31) ^ (i * 7)) % 5 {
                    0 => 0,
                    1 => b'a',
                    2 => 0xD8,
                    3 => b'\n',
                    _ => (n ^ i) as u8,
                })
                .collect();
            let _ = decode(&bytes);
            let _ = decode_owned(bytes);
        }
    }

    #[test]
    fn long_lines_and_fields_are_refused_with_their_place() {
        let limits = Limits {
            line_bytes: 20,
            field_bytes: 8,
            ..Limits::default()
        };
        assert!(check_lengths("a,b,c\n12345678,x\n", "f.csv", &limits).is_ok());
        let e = check_lengths("a,b,c\nx,123456789\n", "f.csv", &limits).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.csv:2:2: a field of 9 bytes; the limit is 8 (set TILERANK_MAX_FIELD_BYTES to change it)"
        );
        let e = check_lengths("a,b\n1,2,3,4,5,6,7,8,9,0,1\n", "f.csv", &limits).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.csv:2: a line of 21 bytes; the limit is 20"),
            "{e}"
        );
        // a line break is not counted, a carriage return and line feed
        // as a line feed (each line and last field here at its limit)
        for text in ["a,b\r\n1,2,3,4,5,6,12345678\r\n", "a\r\n12345678\r"] {
            assert!(check_lengths(text, "f.csv", &limits).is_ok(), "{text:?}");
        }
        let e = check_lengths("a\r\n123456789\r\n", "f.csv", &limits).unwrap_err();
        assert!(
            e.to_string().starts_with("f.csv:2:1: a field of 9 bytes"),
            "{e}"
        );
        // a quoted field runs over line breaks: said where its quote opens
        let e = check_lengths("a,\"1\n2\n3\n4\n5\"\n", "f.csv", &limits).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "f.csv:1:2: a field of 11 bytes, from a quote here to line 5 (a stray quote? remove it, or close it where the value ends); the limit is 8"
            ),
            "{e}"
        );
        let wide = ";".repeat(MAX_FIELDS as usize);
        let e = check_lengths(&wide, "f.csv", &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("more than 16384 fields"), "{e}");
    }

    #[test]
    fn a_line_break_in_each_block_means_no_line_is_too_long() {
        // every text of up to 11 bytes of `x` and line breaks
        let mut texts: Vec<String> = vec![String::new()];
        for _ in 0..11 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| ["x", "\n"].map(|c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        let mut said_yes = 0;
        for longest in 0..=8u64 {
            for text in &texts {
                let widest = text.split('\n').map(str::len).max().unwrap_or(0) as u64;
                if each_block_has_a_line_break(text.as_bytes(), longest) {
                    said_yes += 1;
                    assert!(widest <= longest, "{longest}: {text:?}");
                }
                // lines of up to half the limit: always known at once
                if widest <= longest / 2 {
                    assert!(
                        each_block_has_a_line_break(text.as_bytes(), longest),
                        "{longest}: {text:?}"
                    );
                }
            }
        }
        assert!(said_yes > 1000, "{said_yes}");
    }

    #[test]
    fn a_line_at_a_time_agrees_with_each_byte_without_quotes() {
        let limits = Limits {
            line_bytes: 12,
            field_bytes: 5,
            ..Limits::default()
        };
        // every text of up to 7 bytes of `x`, `,` and a line break, then
        // lines around the limits
        let mut texts: Vec<String> = vec![String::new()];
        for _ in 0..7 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| ["x", ",", "\n"].map(|c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        texts.extend(
            [
                "12345,123456",
                "1234567890123",
                "1,2,3,4,5,6\n123456",
                "x\r\n12345\r",
            ]
            .map(String::from),
        );
        for text in &texts {
            let fast = within_limits_unquoted(text.as_bytes(), &limits);
            let slow = check_each_byte(text, "f.csv", &limits);
            // the line at a time says yes only where each byte does
            assert!(!fast || slow.is_ok(), "{text:?}: {slow:?}");
            assert_eq!(
                check_lengths(text, "f.csv", &limits).map_err(|e| e.to_string()),
                slow.map_err(|e| e.to_string()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_text_with_no_quote_splits_as_the_csv_reader_splits_it() {
        // every text of up to 5 pieces, each a field's text, a delimiter
        // or a line break, with and without a last line break
        let pieces = ["x", " ", "", "é 1", ",", ";", "\n", "\r\n"];
        let mut texts: Vec<String> = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| pieces.map(|p| format!("{t}{p}")))
                .collect();
            texts.extend(longer);
        }
        // a carriage return closing the text, the last line's break
        let closed: Vec<String> = texts.iter().map(|t| format!("{t}\r")).collect();
        texts.extend(closed);
        texts.sort();
        texts.dedup();
        // and a long text (lines of every length, cut at every offset of
        // the sixteen bytes read at once), with blank lines between
        let mut long = String::from("id;name\n");
        for i in 0..20_000 {
            long.push_str(&format!("P{i};Chan Tai Man {i}\r\n"));
            if i % 997 == 0 {
                long.push_str("\n;;\n");
            }
        }
        texts.push(long);
        for text in &texts {
            let [split, read] = rows_both_ways(text).expect("plain");
            assert_eq!(split, read, "{text:?}");
        }
        assert!(matches!(
            CsvRows::new("a,\"b\"\n".into()).how,
            How::Reader { .. }
        ));
        assert!(matches!(
            CsvRows::new("a,b\rc\n".into()).how,
            How::Reader { .. }
        ));
        assert!(matches!(
            CsvRows::new("a,b\r\nc\r".into()).how,
            How::Plain { .. }
        ));
    }

    #[test]
    fn rows_carry_their_line_numbers() {
        let rows: Vec<Row> = CsvRows::new("a,b\n\n\"x\ny\",2\nlast,3\n".into())
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            rows.iter().map(|r| r.number).collect::<Vec<_>>(),
            vec![1, 3, 5]
        );
        assert_eq!(rows[1].cells[0], Cell::Text("x\ny".into()));
    }
}
