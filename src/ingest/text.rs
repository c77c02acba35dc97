//! CSV files as spreadsheet programs write them: UTF-8 with or without BOM,
//! or a legacy encoding (Windows-1252, Big5, GBK, ...), and `,` `;` or tab
//! between fields (European Excel writes `;`).

use super::cell::{Cell, Row};
use encoding_rs::Encoding;
use std::sync::Arc;

/// Bytes to text. UTF-8 (and UTF-16 with a BOM) is taken as it is; anything
/// else is decoded in the encoding that chardetng judges most likely.
/// Returns the text and the encoding's name when it was not UTF-8.
pub fn decode(bytes: &[u8]) -> (String, Option<&'static str>) {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        let label = (encoding != encoding_rs::UTF_8).then(|| encoding.name());
        return (text.into_owned(), label);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_string(), None);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let encoding = detector.guess(None, chardetng::Utf8Detection::Deny);
    let (text, _, _) = encoding.decode(bytes);
    (text.into_owned(), Some(encoding.name()))
}

/// The field delimiter: of `,` `;` and tab, the one that splits the first
/// lines into the most fields, most consistently. Quoted text is skipped.
pub fn sniff_delimiter(text: &str) -> u8 {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
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
    reader: csv::Reader<std::io::Cursor<Arc<[u8]>>>,
    record: csv::StringRecord,
    bytes: Arc<[u8]>,
}

impl CsvRows {
    pub fn new(text: String) -> CsvRows {
        let delimiter = sniff_delimiter(&text);
        let bytes: Arc<[u8]> = text.into_bytes().into();
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(std::io::Cursor::new(bytes.clone()));
        CsvRows {
            reader,
            record: csv::StringRecord::new(),
            bytes,
        }
    }

    /// The record's first line. csv counts a record from the end of the one
    /// before, so blank lines skipped in between are counted here.
    fn line_of(&self, pos: &csv::Position) -> u32 {
        let start = pos.byte() as usize;
        let skipped = self.bytes[start.min(self.bytes.len())..]
            .iter()
            .take_while(|&&b| b == b'\n' || b == b'\r')
            .filter(|&&b| b == b'\n')
            .count();
        (pos.line() as usize + skipped) as u32
    }
}

impl Iterator for CsvRows {
    type Item = Result<Row, String>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.reader.read_record(&mut self.record) {
            Ok(false) => None,
            Ok(true) => {
                let number = self.record.position().map_or(0, |p| self.line_of(p));
                let cells = self.record.iter().map(Cell::text).collect();
                Some(Ok(Row {
                    number,
                    first_col: 1,
                    cells,
                }))
            }
            Err(e) => Some(Err(e.to_string())),
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
        assert_eq!(decode(b"\xEF\xBB\xBFid,name").0, "id,name");
        let (text, label) = decode(b"id,name\nP1,Jos\xe9 M\xfcller\n");
        assert_eq!(text, "id,name\nP1,José Müller\n");
        assert_eq!(label, Some("windows-1252"));
        let (big5, _, _) = encoding_rs::BIG5.encode("id,name\nP1,陳大文\nP2,李小明\nP3,黃志強\n");
        let (text, label) = decode(&big5);
        assert!(text.contains("陳大文"), "{text}");
        assert_eq!(label, Some("Big5"));
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
