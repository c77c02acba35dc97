//! QR codes as small black and white PNG images: the `qrcode` crate gives
//! the matrix of modules, drawn here one bit a pixel and compressed with
//! the deflate the zip writer already brings (flate2, crc32fast).

use std::io::Write;

/// The modules around a code left white, as the standard asks.
const QUIET: usize = 4;

/// Why no QR code was made.
#[derive(Debug, thiserror::Error)]
#[error("no QR code of {text:?}: {reason}")]
pub struct QrError {
    pub text: String,
    pub reason: String,
}

/// The QR code of `text` as a PNG at most about `max_side` pixels a side
/// ([`modules_png`]).
pub fn png(text: &str, max_side: usize) -> Result<Vec<u8>, QrError> {
    let code = qrcode::QrCode::new(text.as_bytes()).map_err(|e| QrError {
        text: text.to_string(),
        reason: e.to_string(),
    })?;
    Ok(modules_png(code.width(), &code.to_colors(), max_side))
}

/// A QR code's modules as a black and white PNG (one bit a pixel, a few
/// hundred bytes): a quiet zone of 4 modules, at most about `max_side`
/// pixels a side, at least 2 pixels a module.
pub fn modules_png(width: usize, colors: &[qrcode::Color], max_side: usize) -> Vec<u8> {
    let scale = (max_side / (width + 2 * QUIET)).max(2);
    let side = (width + 2 * QUIET) * scale;
    let dark = |x: usize, y: usize| {
        let (mx, my) = (x / scale, y / scale);
        mx >= QUIET
            && my >= QUIET
            && mx - QUIET < width
            && my - QUIET < width
            && colors.get((my - QUIET) * width + (mx - QUIET)) == Some(&qrcode::Color::Dark)
    };
    // Scanlines: filter byte 0, then 8 pixels a byte, 1 white.
    let mut raw = Vec::with_capacity(side * (side.div_ceil(8) + 1));
    for y in 0..side {
        raw.push(0);
        for byte in 0..side.div_ceil(8) {
            let mut b = 0u8;
            for bit in 0..8 {
                let x = byte * 8 + bit;
                if x >= side || !dark(x, y) {
                    b |= 0x80 >> bit;
                }
            }
            raw.push(b);
        }
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&raw).expect("writes to memory");
    let data = z.finish().expect("writes to memory");
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8; 4], body: &[u8]| {
        png.extend((body.len() as u32).to_be_bytes());
        let start = png.len();
        png.extend(kind);
        png.extend(body);
        let crc = crc32fast::hash(&png[start..]);
        png.extend(crc.to_be_bytes());
    };
    let mut header = Vec::with_capacity(13);
    header.extend((side as u32).to_be_bytes());
    header.extend((side as u32).to_be_bytes());
    // 1 bit a pixel, greyscale, deflate, no filter choice, no interlace.
    header.extend([1, 0, 0, 0, 0]);
    chunk(b"IHDR", &header);
    chunk(b"IDAT", &data);
    chunk(b"IEND", &[]);
    png
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_qr_image_has_the_codes_modules() {
        use std::io::Read;
        let code = qrcode::QrCode::new(b"https://example.org/t/x.html").unwrap();
        let png = modules_png(code.width(), &code.to_colors(), 125);
        assert!(png.len() < 1000, "{} bytes", png.len());
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let side = u32::from_be_bytes(png[16..20].try_into().unwrap()) as usize;
        let scale = side / (code.width() + 8);
        assert!(scale >= 2 && side <= 125 + scale, "{side} px");
        // The pixels back from the image data: each module's colour.
        let len = u32::from_be_bytes(png[33..37].try_into().unwrap()) as usize;
        assert_eq!(&png[37..41], b"IDAT");
        let mut raw = Vec::new();
        flate2::read::ZlibDecoder::new(&png[41..41 + len])
            .read_to_end(&mut raw)
            .unwrap();
        let stride = side.div_ceil(8) + 1;
        assert_eq!(raw.len(), stride * side);
        let colors = code.to_colors();
        for my in 0..code.width() {
            for mx in 0..code.width() {
                let (x, y) = ((mx + 4) * scale, (my + 4) * scale);
                let white = raw[y * stride + 1 + x / 8] & (0x80 >> (x % 8)) != 0;
                let dark = colors[my * code.width() + mx] == qrcode::Color::Dark;
                assert_eq!(!white, dark, "module {mx},{my}");
            }
        }
    }

    #[test]
    fn a_printable_code_is_larger_and_text_too_long_is_an_error() {
        let png = png("http://127.0.0.1:8080/entry?key=abc", 600).unwrap();
        let side = u32::from_be_bytes(png[16..20].try_into().unwrap()) as usize;
        assert!((400..=600).contains(&side), "{side} px");
        let e = super::png(&"x".repeat(8000), 600).unwrap_err().to_string();
        assert!(e.starts_with("no QR code of"), "{e}");
    }
}
