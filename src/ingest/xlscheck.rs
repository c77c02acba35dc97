//! What an `.xls` workbook will cost, measured before calamine opens it.
//!
//! calamine reads every sheet of an `.xls` when it opens the file, each as
//! a rectangle from its first cell to its last, after reserving room for the
//! size its DIMENSIONS record declares. Both can be billions of cells in a
//! file of a few hundred bytes, and an allocation that large aborts the
//! process. So the cell records are walked here first (the same records
//! calamine reads) and a sheet that would be too large is refused.

use super::limits::{hint, Limits};
use super::InputError;
use crate::place::Source;
use std::io::{Cursor, Read};

/// A BIFF record: its type and data.
struct Records<'a> {
    stream: &'a [u8],
}

impl<'a> Iterator for Records<'a> {
    type Item = (u16, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.stream.len() < 4 {
            return None;
        }
        let typ = u16::from_le_bytes([self.stream[0], self.stream[1]]);
        let len = u16::from_le_bytes([self.stream[2], self.stream[3]]) as usize;
        let data = self.stream.get(4..4 + len)?;
        self.stream = &self.stream[4 + len..];
        Some((typ, data))
    }
}

fn u16_at(data: &[u8], i: usize) -> Option<u64> {
    Some(u16::from_le_bytes([*data.get(i)?, *data.get(i + 1)?]) as u64)
}

fn u32_at(data: &[u8], i: usize) -> Option<u64> {
    let b = data.get(i..i + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64)
}

/// The workbook stream of a compound file, if it can be found.
fn workbook_stream(bytes: &[u8], limit: u64) -> Option<Vec<u8>> {
    let mut file = cfb::CompoundFile::open(Cursor::new(bytes)).ok()?;
    for name in ["/Workbook", "/Book", "/WORKBOOK", "/BOOK"] {
        if let Ok(stream) = file.open_stream(name) {
            let mut data = Vec::new();
            stream.take(limit).read_to_end(&mut data).ok()?;
            return Some(data);
        }
    }
    None
}

/// A sheet's extent as calamine will build it.
#[derive(Default)]
struct Extent {
    cells: u64,
    bounds: Option<(u64, u64, u64, u64)>,
}

impl Extent {
    fn add(&mut self, row: u64, col: u64) {
        self.cells += 1;
        self.bounds = Some(match self.bounds {
            None => (row, col, row, col),
            Some((r0, c0, r1, c1)) => (r0.min(row), c0.min(col), r1.max(row), c1.max(col)),
        });
    }

    fn area(&self) -> u64 {
        self.bounds.map_or(0, |(r0, c0, r1, c1)| {
            (r1 - r0 + 1).saturating_mul(c1 - c0 + 1)
        })
    }
}

/// The cells calamine reserves for a DIMENSIONS record, computed as it
/// does (32-bit arithmetic that wraps in a release build: a first row after
/// the last declares four billion rows).
fn declared_area(data: &[u8]) -> u64 {
    let r16 = |i: usize| u16_at(data, i).unwrap_or(0) as u32;
    let r32 = |i: usize| u32_at(data, i).unwrap_or(0) as u32;
    let (rf, rl, mut cf, cl) = match data.len() {
        10 => (r16(0), r16(2), r16(4), r16(6)),
        14 | 16 => (r32(0), r32(4), r16(8), r16(10)),
        _ => return 0,
    };
    if 0xFF < cf || cl < cf {
        cf = 0;
    }
    let (start, end) = if 1 <= rl && 1 <= cl {
        ((rf, cf), (rl - 1, cl - 1))
    } else {
        ((rf, cf), (rf, cf))
    };
    let rows = end.0.wrapping_sub(start.0).wrapping_add(1) as u64;
    let cols = end.1.wrapping_sub(start.1).wrapping_add(1) as u64;
    rows.saturating_mul(cols)
}

pub fn check(bytes: &[u8], name: &str, limits: &Limits) -> Result<(), InputError> {
    // calamine reads compound documents more leniently than the cfb crate;
    // one that cannot be measured here is not handed to it.
    let Some(stream) = workbook_stream(bytes, bytes.len() as u64 * 2 + 4096) else {
        return Err(InputError::Unreadable {
            path: name.to_string(),
            reason: "not a workbook: a damaged compound document (no Workbook stream can be read)"
                .to_string(),
        });
    };
    // The globals: each sheet's name and where its records start, and the
    // length of each shared string (calamine copies it into every cell
    // that names it).
    let mut sheets = Vec::new();
    let mut sst: Vec<&[u8]> = Vec::new();
    let mut in_sst = false;
    for (typ, data) in (Records { stream: &stream }) {
        if in_sst && typ == 0x003C {
            sst.push(data);
            continue;
        }
        in_sst = false;
        match typ {
            0x00FC if sst.is_empty() => {
                sst.push(data);
                in_sst = true;
            }
            0x0085 => {
                if let Some(pos) = u32_at(data, 0) {
                    let n = data.get(6).copied().unwrap_or(0) as usize;
                    let raw = data.get(8..).unwrap_or_default();
                    let sheet = String::from_utf8_lossy(&raw[..n.min(raw.len())]).into_owned();
                    sheets.push((pos as usize, sheet));
                }
            }
            0x000A => break,
            _ => {}
        }
    }
    let string_bytes = shared_string_bytes(&sst, limits.cells);
    for (pos, sheet) in sheets {
        let Some(records) = stream.get(pos..) else {
            continue;
        };
        let mut text: u64 = 0;
        let too_big = |what: String| InputError::Limit {
            place: Source::sheet(name, &sheet).whole(),
            message: format!("{what}; {}", hint(limits.cells, "TILERANK_MAX_CELLS")),
        };
        let mut values = Extent::default();
        let mut formulas = Extent::default();
        let mut depth = 0usize;
        let mut seen_bof = false;
        for (typ, data) in (Records { stream: records }) {
            if depth > 0 {
                match typ {
                    0x0809 => depth += 1,
                    0x000A => depth -= 1,
                    _ => {}
                }
                continue;
            }
            let at = |data: &[u8]| Some((u16_at(data, 0)?, u16_at(data, 2)?));
            match typ {
                0x0809 if seen_bof => depth += 1,
                0x0809 => seen_bof = true,
                0x000A => break,
                0x0200 => {
                    let area = declared_area(data);
                    if area > limits.cells {
                        return Err(too_big(format!(
                            "the sheet declares a size of {area} cells"
                        )));
                    }
                }
                0x0203 | 0x0204 | 0x00D6 | 0x0205 | 0x027E | 0x00FD => {
                    if let Some((r, c)) = at(data) {
                        values.add(r, c);
                    }
                    text = text.saturating_add(match typ {
                        // LABELSST: the shared string it names
                        0x00FD => u32_at(data, 6)
                            .and_then(|i| string_bytes.get(i as usize).copied())
                            .unwrap_or(0),
                        // LABEL, RSTRING: the text is in the record
                        0x0204 | 0x00D6 => 2 * data.len() as u64,
                        _ => 0,
                    });
                    if text > limits.sheet_text_bytes {
                        return Err(InputError::Limit {
                            place: Source::sheet(name, &sheet).whole(),
                            message: format!(
                                "the sheet holds more than {} bytes of text (a shared string counted in every cell that names it); {}",
                                limits.sheet_text_bytes,
                                hint(limits.sheet_text_bytes, "TILERANK_MAX_SHEET_TEXT_BYTES")
                            ),
                        });
                    }
                }
                0x0006 => {
                    if let Some((r, c)) = at(data) {
                        values.add(r, c);
                        formulas.add(r, c);
                    }
                }
                0x00BD => {
                    // MULRK: row, first column, 6 bytes a cell, last column
                    if let (Some((r, c0)), Some(c1)) =
                        (at(data), u16_at(data, data.len().saturating_sub(2)))
                    {
                        values.add(r, c0);
                        if c1 > c0 {
                            values.cells += c1 - c0 - 1;
                            values.add(r, c1);
                        }
                    }
                }
                _ => {}
            }
            for extent in [&values, &formulas] {
                if extent.cells > limits.cells {
                    return Err(too_big(format!("more than {} filled cells", limits.cells)));
                }
            }
        }
        for extent in [&values, &formulas] {
            let area = extent.area();
            if area > limits.cells {
                return Err(too_big(format!(
                    "the sheet's used range holds {area} cells"
                )));
            }
        }
    }
    Ok(())
}

/// Reads through the SST record and its CONTINUE records.
struct Segments<'a> {
    segments: &'a [&'a [u8]],
    segment: usize,
    at: usize,
}

impl Segments<'_> {
    fn byte(&mut self) -> Option<u8> {
        loop {
            let s = self.segments.get(self.segment)?;
            if let Some(&b) = s.get(self.at) {
                self.at += 1;
                return Some(b);
            }
            self.segment += 1;
            self.at = 0;
        }
    }

    fn u16(&mut self) -> Option<u64> {
        Some(u64::from(self.byte()?) | u64::from(self.byte()?) << 8)
    }

    fn u32(&mut self) -> Option<u64> {
        Some(self.u16()? | self.u16()? << 16)
    }

    fn skip(&mut self, mut n: u64) -> Option<()> {
        while n > 0 {
            let s = self.segments.get(self.segment)?;
            let left = (s.len() - self.at.min(s.len())) as u64;
            if left == 0 {
                self.segment += 1;
                self.at = 0;
                continue;
            }
            let step = left.min(n);
            self.at += step as usize;
            n -= step;
        }
        Some(())
    }

    /// At the end of a segment (so a string's characters go on in the next,
    /// after a new flags byte).
    fn at_segment_end(&self) -> bool {
        self.segments
            .get(self.segment)
            .is_some_and(|s| self.at >= s.len())
    }
}

/// An upper bound on the UTF-8 bytes of each shared string (at most `max`
/// strings are measured; a cut or damaged table ends the list).
fn shared_string_bytes(sst: &[&[u8]], max: u64) -> Vec<u64> {
    let mut r = Segments {
        segments: sst,
        segment: 0,
        at: 8,
    };
    let unique = sst.first().and_then(|s| u32_at(s, 4)).unwrap_or(0).min(max);
    let mut out = Vec::new();
    while (out.len() as u64) < unique {
        let Some(cch) = r.u16() else { break };
        let Some(flags) = r.byte() else { break };
        let runs = if flags & 0x08 != 0 { r.u16() } else { Some(0) };
        let ext = if flags & 0x04 != 0 { r.u32() } else { Some(0) };
        let (Some(runs), Some(ext)) = (runs, ext) else {
            break;
        };
        // the characters, 1 or 2 bytes each; a CONTINUE record starts with a
        // new flags byte for the rest
        let (mut left, mut wide, mut bytes) = (cch, flags & 0x01 != 0, 0u64);
        let mut ok = true;
        while left > 0 {
            if r.at_segment_end() {
                r.segment += 1;
                r.at = 0;
                match r.byte() {
                    Some(f) => wide = f & 0x01 != 0,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            let size = if wide { 2 } else { 1 };
            let in_segment = r
                .segments
                .get(r.segment)
                .map_or(0, |s| (s.len() - r.at.min(s.len())) as u64 / size);
            let take = left.min(in_segment.max(1));
            if r.skip(take * size).is_none() {
                ok = false;
                break;
            }
            bytes += take * if wide { 3 } else { 2 };
            left -= take;
        }
        if !ok || r.skip(4 * runs + ext).is_none() {
            out.push(bytes);
            break;
        }
        out.push(bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extents_are_rectangles_of_the_filled_cells() {
        let mut e = Extent::default();
        assert_eq!(e.area(), 0);
        e.add(3, 2);
        assert_eq!(e.area(), 1);
        e.add(65_535, 255);
        assert_eq!(e.area(), 65_533 * 254);
    }

    #[test]
    fn declared_sizes_are_computed_as_calamine_does() {
        let biff8 = |rf: u32, rl: u32, cf: u16, cl: u16| {
            [
                &rf.to_le_bytes()[..],
                &rl.to_le_bytes(),
                &cf.to_le_bytes(),
                &cl.to_le_bytes(),
                &[0, 0],
            ]
            .concat()
        };
        assert_eq!(declared_area(&biff8(0, 13, 0, 8)), 13 * 8);
        assert_eq!(declared_area(&biff8(0, 0, 0, 0)), 1);
        // a first row after the last wraps around
        assert_eq!(
            declared_area(&biff8(10, 5, 0, 1)),
            (u32::MAX as u64 - 5) + 1
        );
        assert_eq!(declared_area(&[0; 12]), 0);
    }

    #[test]
    fn shared_strings_are_measured_across_continue_records() {
        // 3 strings: "ab" (1 byte a char), "xyz" wide, then one split over a
        // CONTINUE record whose rest is wide
        let mut first = vec![3, 0, 0, 0, 3, 0, 0, 0];
        first.extend([2, 0, 0, b'a', b'b']);
        first.extend([3, 0, 1, b'x', 0, b'y', 0, b'z', 0]);
        first.extend([4, 0, 0, b'p', b'q']);
        let cont = [1u8, b'r', 0, b's', 0];
        let lengths = shared_string_bytes(&[&first, &cont], 100);
        assert_eq!(lengths, vec![4, 9, 2 * 2 + 2 * 3]);
        // the count is capped, a cut table ends the list
        assert_eq!(shared_string_bytes(&[&first, &cont], 1), vec![4]);
        assert_eq!(shared_string_bytes(&[&first[..12]], 100), vec![2]);
    }

    #[test]
    fn records_stop_at_a_cut() {
        let stream = [0x09, 0x08, 2, 0, 1, 2, 0x0A, 0x00, 9, 0];
        let v: Vec<_> = Records { stream: &stream }.collect();
        assert_eq!(v, vec![(0x0809, &[1u8, 2][..])]);
    }
}
