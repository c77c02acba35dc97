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

pub fn check(bytes: &[u8], name: &str, limits: &Limits) -> Result<(), InputError> {
    // Whatever cannot be found here is left to calamine to report.
    let Some(stream) = workbook_stream(bytes, bytes.len() as u64 * 2 + 4096) else {
        return Ok(());
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
                    // DIMENSIONS: BIFF8 has 32-bit rows, BIFF5 16-bit.
                    let declared = if data.len() >= 14 {
                        u32_at(data, 0)
                            .zip(u32_at(data, 4))
                            .zip(u16_at(data, 8).zip(u16_at(data, 10)))
                    } else {
                        u16_at(data, 0)
                            .zip(u16_at(data, 2))
                            .zip(u16_at(data, 4).zip(u16_at(data, 6)))
                    };
                    if let Some(((r0, r1), (c0, c1))) = declared {
                        let area = r1
                            .saturating_sub(r0)
                            .saturating_add(1)
                            .saturating_mul(c1.saturating_sub(c0).saturating_add(1));
                        if area > limits.cells {
                            return Err(too_big(format!(
                                "the sheet declares a size of {area} cells"
                            )));
                        }
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
    fn records_stop_at_a_cut() {
        let stream = [0x09, 0x08, 2, 0, 1, 2, 0x0A, 0x00, 9, 0];
        let v: Vec<_> = Records { stream: &stream }.collect();
        assert_eq!(v, vec![(0x0809, &[1u8, 2][..])]);
    }
}
