//! Lines with no quote split into fields where they lie, as the CSV
//! reader splits them: the one splitter of the streaming reader's chunks
//! ([`crate::stream`]) and of every other CSV text ([`super::text::CsvRows`]).
//! A quote, or a carriage return that is not part of a line break, is the
//! CSV reader's to read: the splitter says so and takes nothing.

use super::cell::Cell;
use super::limits::Limits;
use super::text;

/// Splits lines into fields, as the CSV reader would split a line with no
/// quotes.
pub struct Splitter {
    delimiter: u8,
    line_bytes: u64,
    field_bytes: u64,
    /// Where the delimiters and line breaks of the text scanned last are,
    /// and the first not taken yet.
    marks: Vec<u32>,
    next_mark: usize,
    /// The fields of the line split last: their byte ranges in the line,
    /// untrimmed.
    pub fields: Vec<(usize, usize)>,
}

impl Splitter {
    pub fn new(delimiter: u8, limits: &Limits) -> Splitter {
        Splitter {
            delimiter,
            line_bytes: limits.line_bytes,
            field_bytes: limits.field_bytes,
            marks: Vec::new(),
            next_mark: 0,
            fields: Vec::with_capacity(16),
        }
    }

    /// Finds where the delimiters and line breaks of `text` (whole lines:
    /// a chunk, or one line) are, sixteen bytes at a time, for
    /// [`Splitter::next_line`] to take line by line; `None` when it is not
    /// the common case: a quote, or a carriage return that is not part of
    /// a line break, is left to the CSV reader (it ends a line at a lone
    /// one).
    pub fn scan(&mut self, text: &[u8]) -> Option<()> {
        u32::try_from(text.len()).ok()?;
        self.marks.clear();
        self.next_mark = 0;
        let (delimiter, len) = (self.delimiter, text.len());
        let mut at = 0;
        // sixteen bytes at a time where the processor has it (every x86-64
        // does), eight elsewhere
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
                _mm_set1_epi8,
            };
            // SAFETY: SSE2 is part of every x86-64 processor; the loads
            // read 16 bytes of `text` at `at`, within it (`at + 16 <= len`).
            unsafe {
                let each = |b: u8| _mm_set1_epi8(b as i8);
                let (quote, cr, delim, lf) =
                    (each(b'"'), each(b'\r'), each(delimiter), each(b'\n'));
                while at + 16 <= len {
                    let v = _mm_loadu_si128(text.as_ptr().add(at).cast::<__m128i>());
                    let odd = _mm_movemask_epi8(_mm_or_si128(
                        _mm_cmpeq_epi8(v, quote),
                        _mm_cmpeq_epi8(v, cr),
                    ));
                    if odd != 0 && !plain(text, at, 16) {
                        return None;
                    }
                    let mut found = _mm_movemask_epi8(_mm_or_si128(
                        _mm_cmpeq_epi8(v, delim),
                        _mm_cmpeq_epi8(v, lf),
                    )) as u32;
                    while found != 0 {
                        self.marks.push(at as u32 + found.trailing_zeros());
                        found &= found - 1;
                    }
                    at += 16;
                }
            }
        }
        while at + 8 <= len {
            let word = u64::from_le_bytes(text[at..at + 8].try_into().ok()?);
            if (bytes_equal(word, b'"') | bytes_equal(word, b'\r')) != 0 && !plain(text, at, 8) {
                return None;
            }
            let mut found = bytes_equal(word, delimiter) | bytes_equal(word, b'\n');
            while found != 0 {
                self.marks
                    .push((at + (found.trailing_zeros() / 8) as usize) as u32);
                found &= found - 1;
            }
            at += 8;
        }
        if !plain(text, at, len - at) {
            return None;
        }
        for (i, &c) in text[at..].iter().enumerate() {
            if c == delimiter || c == b'\n' {
                self.marks.push((at + i) as u32);
            }
        }
        Some(())
    }

    /// Splits the line of the scanned `text` that starts at `from` into
    /// fields (their ranges in the line, untrimmed, its line break left
    /// out); the line's end (after its line break), and `Some(false)` for
    /// a blank line; `None` when it is not the common case (over a limit).
    pub fn next_line(&mut self, text: &[u8], from: usize) -> (usize, Option<bool>) {
        self.fields.clear();
        let (mut start, mut widest) = (from, 0);
        let end = loop {
            match self.marks.get(self.next_mark).map(|&m| m as usize) {
                Some(m) if text[m] != b'\n' => {
                    self.next_mark += 1;
                    self.fields.push((start - from, m - from));
                    widest = widest.max(m - start);
                    start = m + 1;
                }
                Some(m) => {
                    self.next_mark += 1;
                    break m;
                }
                None => break text.len(),
            }
        };
        let next = (end + 1).min(text.len());
        let body = if end > start && text[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let body = body.max(start);
        self.fields.push((start - from, body - from));
        widest = widest.max(body - start);
        if (body - from) as u64 > self.line_bytes
            || self.fields.len() as u64 > text::MAX_FIELDS
            || widest as u64 > self.field_bytes
        {
            return (next, None);
        }
        // blank as the CSV reader's cells are: nothing but spaces (a field
        // that starts with a printable ASCII character says no at once)
        let line = &text[from..body];
        let filled = |&(a, b): &(usize, usize)| match line[a..b]
            .iter()
            .find(|c| !(c.is_ascii_whitespace() || **c == 0x0b))
        {
            None => false,
            Some(c) if c.is_ascii() => true,
            Some(_) => std::str::from_utf8(&line[a..b]).is_ok_and(|t| !Cell::text(t).is_empty()),
        };
        (next, Some(self.fields.iter().any(filled)))
    }

    /// Splits one line (with its line break, if any), as [`Splitter::scan`]
    /// and [`Splitter::next_line`] split a chunk's.
    pub fn split(&mut self, raw: &[u8]) -> Option<bool> {
        self.scan(raw)?;
        self.next_line(raw, 0).1
    }

    /// The texts of fields `cols` of the line split last (blank when the
    /// line has no such field).
    pub fn texts<'a, const N: usize>(
        &self,
        line: &'a [u8],
        cols: &[Option<usize>; N],
    ) -> [&'a [u8]; N] {
        self.written(line, cols).map(trim_bytes)
    }

    /// [`Splitter::texts`] as written, spaces and all.
    #[inline]
    pub fn written<'a, const N: usize>(
        &self,
        line: &'a [u8],
        cols: &[Option<usize>; N],
    ) -> [&'a [u8]; N] {
        let field = |c: &Option<usize>| {
            c.and_then(|c| self.fields.get(c))
                .and_then(|&(a, b)| line.get(a..b))
                .unwrap_or_default()
        };
        std::array::from_fn(|i| field(&cols[i]))
    }
}

/// Whether a whole text is the splitter's to split: no quote, and each
/// carriage return part of a line break (what [`plain`] says of a few
/// bytes, said of a text at memory speed).
pub fn takes(text: &[u8]) -> bool {
    memchr::memchr(b'"', text).is_none()
        && memchr::memchr_iter(b'\r', text).all(|i| text.get(i + 1).is_none_or(|&c| c == b'\n'))
}

/// Whether bytes `at..at + n` of `text` are plain: no quote, and each
/// carriage return part of a line break (a line feed or the end of the
/// text comes next).
fn plain(text: &[u8], at: usize, n: usize) -> bool {
    (at..at + n).all(|i| match text[i] {
        b'"' => false,
        b'\r' => text.get(i + 1).is_none_or(|&c| c == b'\n'),
        _ => true,
    })
}

/// The bytes of `word` equal to `byte`: the high bit of each such byte set,
/// no other bit.
#[inline]
fn bytes_equal(word: u64, byte: u8) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ (u64::from(byte) * 0x0101_0101_0101_0101);
    !(((x & LOW) + LOW) | x | LOW)
}

fn trim_bytes(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &b[start..end.max(start)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_with_a_quote_or_a_lone_carriage_return_is_left_to_the_csv_reader() {
        let mut s = Splitter::new(b',', &Limits::default());
        assert_eq!(s.split(b"S01,1,1,A,P1,1,+0,0\r\n"), Some(true));
        assert_eq!(s.fields.len(), 8);
        assert_eq!(s.split(b" , \t,\n"), Some(false), "blank");
        assert_eq!(s.split(b"S01,\"1\",1\n"), None);
        assert_eq!(s.split(b"S01,1\r,1\n"), None);
    }

    #[test]
    fn a_line_splits_where_its_delimiters_are_whatever_its_length() {
        let mut s = Splitter::new(b';', &Limits::default());
        for line in [
            "a",
            ";",
            "a;b",
            ";;;;;;;",
            "1234567;",
            "12345678;",
            "1234567;9",
            "S00001;1;1;A;P0000001;0;-12;2",
            "S00001;1;1;A;P0000001;0;-12;2;;",
            "prelim;S01;17;2;D;Ana María Ñúñez;1;+30;0",
        ] {
            let filled = line.split(';').any(|f| !f.is_empty());
            assert_eq!(s.split(line.as_bytes()), Some(filled), "{line:?}");
            let fields: Vec<&str> = s.fields.iter().map(|&(a, b)| &line[a..b]).collect();
            assert_eq!(fields, line.split(';').collect::<Vec<_>>(), "{line:?}");
        }
        assert_eq!(s.split(b"12345678\"9;1\n"), None);
        assert_eq!(s.split(b"1;2;3;4;5;6;7;8;9\r;\n"), None);
    }

    #[test]
    fn a_chunk_splits_into_the_lines_each_line_splits_into() {
        let lines = [
            "S00001;1;1;A;P0000001;0;-12;2\r\n",
            "\n",
            " ; ;\n",
            "prelim;S01;17;2;D;Ana María Ñúñez;1;+30;0\n",
            ";;;;;;;;;;;;;;;;;;;;\r\n",
            "a\n",
            "1234567890123456;x\n",
            "last;line\r",
        ];
        // every cut of the lines into a chunk: a chunk is whole lines
        for first in 0..lines.len() {
            for last in first + 1..=lines.len() {
                let chunk = lines[first..last].concat();
                let mut whole = Splitter::new(b';', &Limits::default());
                whole.scan(chunk.as_bytes()).expect("plain");
                let mut from = 0;
                for line in &lines[first..last] {
                    let (end, filled) = whole.next_line(chunk.as_bytes(), from);
                    assert_eq!(&chunk[from..end], *line);
                    let mut alone = Splitter::new(b';', &Limits::default());
                    assert_eq!(alone.split(line.as_bytes()), filled, "{line:?}");
                    assert_eq!(whole.fields, alone.fields, "{line:?}");
                    from = end;
                }
                assert_eq!(from, chunk.len());
            }
        }
        // a quote or a lone carriage return anywhere, at any offset from
        // the start of the sixteen or eight bytes read at once
        for at in 0..40 {
            for odd in ["\"", "\r", "\ra"] {
                let mut text = "x;".repeat(20);
                text.insert_str(at, odd);
                text.push('\n');
                let mut s = Splitter::new(b';', &Limits::default());
                assert_eq!(s.scan(text.as_bytes()), None, "{at} {odd:?}");
            }
        }
    }
}
