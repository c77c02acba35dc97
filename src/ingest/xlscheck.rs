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
    // The globals: each sheet's name and where its records start.
    let mut sheets = Vec::new();
    for (typ, data) in (Records { stream: &stream }) {
        match typ {
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
    for (pos, sheet) in sheets {
        let Some(records) = stream.get(pos..) else {
            continue;
        };
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
    fn records_stop_at_a_cut() {
        let stream = [0x09, 0x08, 2, 0, 1, 2, 0x0A, 0x00, 9, 0];
        let v: Vec<_> = Records { stream: &stream }.collect();
        assert_eq!(v, vec![(0x0809, &[1u8, 2][..])]);
    }
}
