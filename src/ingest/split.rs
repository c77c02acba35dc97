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
    /// The fields of the line split last: their byte ranges in the line,
    /// untrimmed.
    pub fields: Vec<(usize, usize)>,
}

/// What the bytes of a block of a text are, a bit a byte (bit `i`: the
/// block's byte `i`): its delimiters, its line feeds, its odd bytes (a
/// quote, a carriage return), and how many bytes it has (16, fewer at the
/// text's end).
#[derive(Debug, PartialEq)]
struct Block {
    delimiters: u32,
    line_feeds: u32,
    odd: u32,
    width: usize,
}

impl Block {
    /// The block of `text` at `at` (`at < text.len()`): sixteen bytes at
    /// a time where the processor has it (every x86-64 does), a byte at a
    /// time at the text's end and elsewhere.
    #[inline]
    fn at(text: &[u8], at: usize, delimiter: u8) -> Block {
        #[cfg(target_arch = "x86_64")]
        if at + 16 <= text.len() {
            use std::arch::x86_64::{
                __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
                _mm_set1_epi8,
            };
            // SAFETY: SSE2 is part of every x86-64 processor; the load
            // reads the 16 bytes of `text` at `at`, within it.
            unsafe {
                let v = _mm_loadu_si128(text.as_ptr().add(at).cast::<__m128i>());
                let each = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
                return Block {
                    delimiters: _mm_movemask_epi8(each(delimiter)) as u32,
                    line_feeds: _mm_movemask_epi8(each(b'\n')) as u32,
                    odd: _mm_movemask_epi8(_mm_or_si128(each(b'"'), each(b'\r'))) as u32,
                    width: 16,
                };
            }
        }
        Block::bytewise(text, at, delimiter)
    }

    /// [`Block::at`], a byte at a time.
    fn bytewise(text: &[u8], at: usize, delimiter: u8) -> Block {
        let bytes = text.get(at..).unwrap_or_default();
        let bytes = &bytes[..bytes.len().min(16)];
        let mut block = Block {
            delimiters: 0,
            line_feeds: 0,
            odd: 0,
            width: bytes.len(),
        };
        for (i, &c) in bytes.iter().enumerate() {
            let bit = 1 << i;
            if c == delimiter {
                block.delimiters |= bit;
            }
            if c == b'\n' {
                block.line_feeds |= bit;
            }
            if c == b'"' || c == b'\r' {
                block.odd |= bit;
            }
        }
        block
    }
}

impl Splitter {
    pub fn delimiter(&self) -> u8 {
        self.delimiter
    }

    pub fn new(delimiter: u8, limits: &Limits) -> Splitter {
        Splitter {
            delimiter,
            line_bytes: limits.line_bytes,
            field_bytes: limits.field_bytes,
            fields: Vec::with_capacity(16),
        }
    }

    /// Splits the line of `text` that starts at `from` into fields (their
    /// ranges in the line, untrimmed, its line break left out), looking at
    /// sixteen bytes at a time; the line's end (after its line break), and
    /// `Some(false)` for a blank line. `None` when it is not the common
    /// case: over a limit, or a quote or a carriage return that is not
    /// part of a line break, which are left to the CSV reader (it ends a
    /// line at a lone one; the end given is then the text's).
    pub fn next_line(&mut self, text: &[u8], from: usize) -> (usize, Option<bool>) {
        self.fields.clear();
        let (mut start, mut over) = (from, false);
        let mut at = from;
        let end = loop {
            if at >= text.len() {
                break text.len();
            }
            let block = Block::at(text, at, self.delimiter);
            // the block's bytes that are this line's: to its line feed
            let (mine, width) = match block.line_feeds {
                0 => (u32::MAX, block.width),
                lf => (
                    (2 << lf.trailing_zeros()) - 1,
                    lf.trailing_zeros() as usize + 1,
                ),
            };
            if block.odd & mine != 0 && !plain(text, at, width) {
                return (text.len(), None);
            }
            let mut delimiters = block.delimiters & mine;
            // (a line of more fields than allowed is not split further)
            while delimiters != 0 && !over {
                let m = at + delimiters.trailing_zeros() as usize;
                delimiters &= delimiters - 1;
                self.fields.push((start - from, m - from));
                start = m + 1;
            }
            over = self.fields.len() as u64 > text::MAX_FIELDS;
            if block.line_feeds != 0 {
                break at + width - 1;
            }
            at += width;
        };
        let next = (end + 1).min(text.len());
        if over {
            return (next, None);
        }
        let body = if end > start && text[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let body = body.max(start);
        self.fields.push((start - from, body - from));
        // (no field is wider than its line)
        let wide = |&(a, b): &(usize, usize)| (b - a) as u64 > self.field_bytes;
        if (body - from) as u64 > self.line_bytes
            || self.fields.len() as u64 > text::MAX_FIELDS
            || ((body - from) as u64 > self.field_bytes && self.fields.iter().any(wide))
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

    /// Splits one line (with its line break, if any), as
    /// [`Splitter::next_line`] splits a chunk's.
    pub fn split(&mut self, raw: &[u8]) -> Option<bool> {
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

/// How many line feeds `bytes` holds: counted in runs of 255 bytes, each
/// into a byte, which the compiler does many bytes at a time (a million
/// lines: a few milliseconds, where finding each one takes five times as
/// long).
pub fn line_feeds(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|run| usize::from(run.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}

/// Whether a whole text is the splitter's to split: no quote, and each
/// carriage return part of a line break (what `plain` says of a few
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

    /// Line feeds are counted as one by one, at every length about the
    /// runs the count is made in, wherever they are.
    #[test]
    fn line_feeds_are_counted_at_every_length() {
        for len in [0, 1, 2, 254, 255, 256, 509, 510, 511, 1000, 70_000] {
            for every in [1, 2, 3, 17, 255, 256] {
                let bytes: Vec<u8> = (0..len)
                    .map(|i| if i % every == 0 { b'\n' } else { b'x' })
                    .collect();
                let one_by_one = bytes.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(line_feeds(&bytes), one_by_one, "{len} bytes, every {every}");
            }
        }
    }

    #[test]
    fn a_line_with_a_quote_or_a_lone_carriage_return_is_left_to_the_csv_reader() {
        let mut s = Splitter::new(b',', &Limits::default());
        assert_eq!(s.split(b"S01,1,1,A,P1,1,+0,0\r\n"), Some(true));
        assert_eq!(s.fields.len(), 8);
        assert_eq!(s.split(b" , \t,\n"), Some(false), "blank");
        assert_eq!(s.split(b"S01,\"1\",1\n"), None);
        assert_eq!(s.split(b"S01,1\r,1\n"), None);
        // in a text of many lines, the line it is on says so
        let text = b"a,b\nc,\"d\"\ne\n";
        assert_eq!(s.next_line(text, 0), (4, Some(true)));
        assert_eq!(s.next_line(text, 4), (text.len(), None));
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
                assert_eq!(s.split(text.as_bytes()), None, "{at} {odd:?}");
            }
        }
    }

    #[test]
    fn a_block_is_what_its_bytes_are_read_one_at_a_time() {
        let text = b"a;b\nc\"d\r\n;;\t\r;x\n\n;".repeat(7);
        for delimiter in [b';', b',', b'\t'] {
            for at in 0..text.len() {
                assert_eq!(
                    Block::at(&text, at, delimiter),
                    Block::bytewise(&text, at, delimiter),
                    "{at}"
                );
            }
        }
    }

    #[test]
    fn a_line_over_a_limit_is_not_split_and_ends_where_it_ends() {
        let limits = Limits {
            line_bytes: 10,
            field_bytes: 4,
            ..Limits::default()
        };
        let mut s = Splitter::new(b',', &limits);
        assert_eq!(s.next_line(b"12345,1\nok\n", 0), (8, None), "a field");
        assert_eq!(s.next_line(b"1,2,3,4,5,6\nok\n", 0), (12, None), "a line");
        assert_eq!(s.next_line(b"1,2,3,4,5\nok\n", 0), (10, Some(true)));
        let many = ",".repeat(text::MAX_FIELDS as usize + 5) + "\nok\n";
        let mut s = Splitter::new(b',', &Limits::default());
        assert_eq!(
            s.next_line(many.as_bytes(), 0),
            (many.len() - 3, None),
            "fields"
        );
        assert!(
            s.fields.len() as u64 <= text::MAX_FIELDS + 16,
            "no more held"
        );
    }
}
