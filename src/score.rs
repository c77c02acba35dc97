//! Exact scores.
//!
//! A game's scores are whole numbers, except where a pot is split between
//! two or three leaders (RULES.md section 3): then halves and thirds appear.
//! Averages divide by the number of games. So a score is a fraction, kept
//! exact everywhere; it becomes a decimal only when printed, with at most two
//! decimals, rounding half away from zero.

use num_rational::Ratio;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Div, Neg, Sub};

/// An exact score: a fraction of two 64-bit integers.
///
/// ```
/// use tilerank::score::Score;
/// // A pot of 10 split by three leaders, recorded rounded on a card:
/// let recorded = Score::parse("3.33").unwrap();
/// let exact = recorded.snap(6).unwrap();
/// assert_eq!(exact, Score::ratio(10, 3));
/// assert_eq!(exact + exact + exact, Score::whole(10));
/// assert_eq!(exact.to_string(), "3.33");
/// assert_eq!(Score::parse("−5").unwrap().signed(), "-5");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Score(Ratio<i64>);

impl Score {
    pub const ZERO: Score = Score(Ratio::new_raw(0, 1));

    pub fn whole(n: i64) -> Score {
        Score(Ratio::from_integer(n))
    }

    pub fn ratio(numer: i64, denom: i64) -> Score {
        if denom == 1 {
            // (already in lowest terms: the common case of a whole score,
            // a million times over)
            return Score::whole(numer);
        }
        Score(Ratio::new(numer, denom))
    }

    pub fn numer(&self) -> i64 {
        *self.0.numer()
    }

    pub fn denom(&self) -> i64 {
        *self.0.denom()
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    pub fn is_negative(&self) -> bool {
        self.0.is_negative()
    }

    pub fn is_positive(&self) -> bool {
        self.0.is_positive()
    }

    pub fn is_whole(&self) -> bool {
        self.0.is_integer()
    }

    pub fn abs(&self) -> Score {
        Score(self.0.abs())
    }

    /// The score divided by a count (for averages); `None` for a count of 0.
    pub fn per(&self, count: u32) -> Option<Score> {
        (count > 0).then(|| Score(self.0 / i64::from(count)))
    }

    /// Hundredths, rounded half away from zero: the printed value.
    pub fn hundredths(&self) -> i64 {
        let (numer, denom) = (self.numer(), self.denom());
        // (the common cases without 128-bit division, the same value: a
        // whole score, and one whose hundredths fit in 64 bits; a million
        // standings rows print two or three scores each)
        if denom == 1 {
            return (i128::from(numer) * 100) as i64;
        }
        if let Some(n) = numer.checked_mul(100) {
            let (q, r) = (n / denom, n % denom);
            let half_up = r.unsigned_abs() * 2 >= denom.unsigned_abs();
            return if half_up { q + n.signum() } else { q };
        }
        let n = i128::from(self.numer()) * 100;
        let d = i128::from(self.denom());
        let q = n / d;
        let r = n % d;
        let rounded = if 2 * r.abs() >= d { q + n.signum() } else { q };
        rounded as i64
    }

    /// The printed value as a float, for writers that store numbers
    /// (spreadsheets, JSON). Never used to compare.
    pub fn to_f64_rounded(&self) -> f64 {
        self.hundredths() as f64 / 100.0
    }

    /// The exact value as a float (for charts and spreadsheets only).
    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or(f64::NAN)
    }

    /// Printed with a leading `+` when positive, as on a score card.
    pub fn signed(&self) -> String {
        if self.is_positive() {
            format!("+{self}")
        } else {
            self.to_string()
        }
    }

    /// Parses a score as people type it: `30`, `+30`, `30.0`, `-5`, the
    /// Unicode minus `−5`, the en dash `–5`, a decimal comma `5,5`, the
    /// full-width digits, signs and point of a Chinese keyboard (`－１２`,
    /// [`crate::ingest::cell::half_width`]), and spaces around. The value
    /// is exact to six decimals (`3.33` is 333/100); the further digits a
    /// program writes at full precision (`21.3333333333333`, LibreOffice's
    /// CSV of a cell showing `21.33`) round it at the sixth, as a
    /// spreadsheet's number is ([`Score::from_f64`]).
    pub fn parse(text: &str) -> Option<Score> {
        let folded = crate::ingest::cell::half_width(text);
        let text = folded.trim();
        let (negative, digits) = match text.chars().next()? {
            '+' => (false, &text[1..]),
            '-' => (true, &text[1..]),
            c @ ('\u{2212}' | '\u{2013}' | '\u{FE63}' | '\u{FF0D}') => {
                (true, &text[c.len_utf8()..])
            }
            _ => (false, text),
        };
        let digits = digits.trim_start();
        let (int_part, frac_part) = match digits.find(['.', ',']) {
            Some(i) => (&digits[..i], &digits[i + 1..]),
            None => (digits, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        if !int_part.bytes().all(|b| b.is_ascii_digit())
            || !frac_part.bytes().all(|b| b.is_ascii_digit())
            || int_part.len() > 9
        {
            return None;
        }
        // (past the sixth decimal, the seventh rounds half up: the value
        // then stays within the range of every other score)
        let (frac_part, round_up) = match frac_part.as_bytes().get(6) {
            Some(&seventh) => (&frac_part[..6], seventh >= b'5'),
            None => (frac_part, false),
        };
        let whole: i64 = if int_part.is_empty() {
            0
        } else {
            int_part.parse().ok()?
        };
        let scale = 10i64.pow(frac_part.len() as u32);
        let frac: i64 = if frac_part.is_empty() {
            0
        } else {
            frac_part.parse().ok()?
        };
        let numer = whole
            .checked_mul(scale)?
            .checked_add(frac)?
            .checked_add(i64::from(round_up))?;
        let value = Score::ratio(numer, scale);
        Some(if negative { -value } else { value })
    }

    /// Converts a spreadsheet number. Floats from workbooks carry noise
    /// (`7.000000000000001`), so the value is first taken to 6 decimals.
    /// Beyond a billion is no score (and `None`): exact arithmetic on it could
    /// overflow.
    pub fn from_f64(value: f64) -> Option<Score> {
        if !value.is_finite() || value.abs() > 1e9 {
            return None;
        }
        let scaled = (value * 1e6).round() as i64;
        Some(Score::ratio(scaled, 1_000_000))
    }

    /// The exact score a recorded (possibly rounded) value stands for, when
    /// the only fractions the rules can produce are those with a denominator
    /// dividing `denominators_lcm` (6 for halves and thirds). A value that is
    /// not within 0.005 of such a fraction is `None`.
    pub fn snap(&self, denominators_lcm: i64) -> Option<Score> {
        if self.is_whole() {
            // (a whole number is a multiple of 1/k itself)
            return Some(*self);
        }
        let k = denominators_lcm;
        // nearest multiple of 1/k
        let scaled = self.0 * k;
        let nearest = scaled.round();
        let candidate = Score(nearest / k);
        let diff = (candidate.0 - self.0).abs();
        (diff <= Ratio::new(1, 200)).then_some(candidate)
    }
}

impl fmt::Display for Score {
    /// At most two decimals, rounding half away from zero; no trailing zeros.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.width().is_none() && f.precision().is_none() {
            // nothing to pad: written as it is, without a text made first
            return self.write_printed(f);
        }
        let mut text = String::new();
        self.write_printed(&mut text)?;
        f.pad(&text)
    }
}

impl Score {
    /// The printed value (see [`Score::hundredths`]) to `out`.
    pub fn write_printed(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let h = self.hundredths();
        if h < 0 {
            out.write_char('-')?;
        }
        let h = h.unsigned_abs();
        out.write_str(itoa::Buffer::new().format(h / 100))?;
        // the decimals, without trailing zeros
        let frac = (h % 100) as u8;
        let decimals = [b'.', b'0' + frac / 10, b'0' + frac % 10];
        let shown = match frac {
            0 => 0,
            f if f % 10 == 0 => 2,
            _ => 3,
        };
        out.write_str(std::str::from_utf8(&decimals[..shown]).unwrap_or_default())
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numer(), self.denom())
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.is_whole() && other.is_whole() {
            return self.numer().cmp(&other.numer());
        }
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// Whole points are the common case: added as integers, with no fraction
// to reduce (the same value as the fractions give).
impl Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        if self.is_whole() && rhs.is_whole() {
            if let Some(n) = self.numer().checked_add(rhs.numer()) {
                return Score::whole(n);
            }
        }
        Score(self.0 + rhs.0)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl Sub for Score {
    type Output = Score;
    fn sub(self, rhs: Score) -> Score {
        if self.is_whole() && rhs.is_whole() {
            if let Some(n) = self.numer().checked_sub(rhs.numer()) {
                return Score::whole(n);
            }
        }
        Score(self.0 - rhs.0)
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Div<i64> for Score {
    type Output = Score;
    fn div(self, rhs: i64) -> Score {
        Score(self.0 / rhs)
    }
}

impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, |a, b| a + b)
    }
}

impl From<i64> for Score {
    fn from(n: i64) -> Score {
        Score::whole(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The quick ways for whole numbers give what the fraction
        /// arithmetic gives: a score made of a numerator and denominator,
        /// and a score snapped to the nearest sixth or whole.
        #[test]
        fn whole_numbers_take_a_short_way_to_the_same_answer(
            numer in -2_000_000_000i64..2_000_000_000,
            denom in proptest::sample::select(vec![1i64, 2, 3, 6, 100, 1_000_000]),
            k in proptest::sample::select(vec![1i64, 6]),
        ) {
            let score = Score::ratio(numer, denom);
            proptest::prop_assert_eq!(score.0, Ratio::new(numer, denom));
            let nearest = Score((score.0 * k).round() / k);
            let slow = ((nearest.0 - score.0).abs() <= Ratio::new(1, 200)).then_some(nearest);
            proptest::prop_assert_eq!(score.snap(k), slow);
        }

        /// The printed hundredths take a short way when they can, to what
        /// the 128-bit arithmetic gives: rounded half away from zero.
        #[test]
        fn hundredths_take_a_short_way_to_the_same_answer(
            numer in proptest::prop_oneof![
                -2_000_000_000i64..2_000_000_000,
                proptest::num::i64::ANY,
            ],
            denom in proptest::prop_oneof![
                proptest::sample::select(vec![1i64, 2, 3, 6, 8, 200, 1_000_000]),
                1i64..=i64::MAX,
            ],
        ) {
            let score = Score::ratio(numer, denom);
            let n = i128::from(score.numer()) * 100;
            let d = i128::from(score.denom());
            let (q, r) = (n / d, n % d);
            let slow = if 2 * r.abs() >= d { q + n.signum() } else { q } as i64;
            proptest::prop_assert_eq!(score.hundredths(), slow);
        }
    }

    #[test]
    fn prints_at_most_two_decimals_half_away_from_zero() {
        assert_eq!(Score::ratio(10, 3).to_string(), "3.33");
        assert_eq!(Score::ratio(-10, 3).to_string(), "-3.33");
        assert_eq!(Score::ratio(20, 3).to_string(), "6.67");
        assert_eq!(Score::ratio(11, 2).to_string(), "5.5");
        assert_eq!(Score::ratio(1, 200).to_string(), "0.01");
        assert_eq!(Score::ratio(-1, 200).to_string(), "-0.01");
        assert_eq!(Score::ratio(1, 300).to_string(), "0");
        assert_eq!(Score::whole(30).to_string(), "30");
        assert_eq!(Score::whole(30).signed(), "+30");
        assert_eq!(Score::whole(-5).signed(), "-5");
        assert_eq!(format!("{:>6}", Score::whole(7)), "     7");
    }

    #[test]
    fn parses_what_people_type() {
        assert_eq!(Score::parse("+30"), Some(Score::whole(30)));
        assert_eq!(Score::parse("30.0"), Some(Score::whole(30)));
        assert_eq!(Score::parse(" 30 "), Some(Score::whole(30)));
        assert_eq!(Score::parse("−5"), Some(Score::whole(-5)));
        assert_eq!(Score::parse("- 5"), Some(Score::whole(-5)));
        assert_eq!(Score::parse("5,5"), Some(Score::ratio(11, 2)));
        assert_eq!(Score::parse("3.33"), Some(Score::ratio(333, 100)));
        assert_eq!(Score::parse(".5"), Some(Score::ratio(1, 2)));
        // a Chinese keyboard's full-width digits, signs and point
        assert_eq!(Score::parse("－１２"), Some(Score::whole(-12)));
        assert_eq!(Score::parse("＋５"), Some(Score::whole(5)));
        assert_eq!(Score::parse("３０．５"), Some(Score::ratio(61, 2)));
        assert_eq!(Score::parse("３０分"), None);
        for bad in [
            "",
            "+",
            "abc",
            "1.2.3",
            "1e3",
            "12a",
            "--5",
            "1 000",
            "1234567890",
            "1.1234567x",
        ] {
            assert_eq!(Score::parse(bad), None, "{bad:?}");
        }
    }

    /// A program that writes a cell at full precision (LibreOffice's CSV
    /// of a cell showing `21.33`, pandas) gives 13 decimals or more: they
    /// round at the sixth, as a workbook's number does.
    #[test]
    fn full_precision_rounds_at_the_sixth_decimal() {
        let third = Score::parse("21.3333333333333").unwrap();
        assert_eq!(third, Score::ratio(21_333_333, 1_000_000));
        assert_eq!(third.snap(6), Some(Score::ratio(64, 3)));
        assert_eq!(
            Score::parse("-76.6666666666667"),
            Score::from_f64(-230.0 / 3.0)
        );
        assert_eq!(
            Score::parse("21,3333333333333").unwrap().snap(6),
            Some(Score::ratio(64, 3))
        );
        // the seventh decimal rounds half up, carrying into the whole
        assert_eq!(
            Score::parse("1.1234565"),
            Some(Score::ratio(1_123_457, 1_000_000))
        );
        assert_eq!(
            Score::parse("1.1234564999"),
            Some(Score::ratio(1_123_456, 1_000_000))
        );
        assert_eq!(Score::parse("-2.9999999"), Some(Score::whole(-3)));
        assert_eq!(
            Score::parse("999999999.9999995"),
            Some(Score::whole(1_000_000_000))
        );
        // still no score: a value not near a whole, half or third
        assert_eq!(Score::parse("3.4000000001").unwrap().snap(6), None);
    }

    #[test]
    fn snaps_rounded_thirds_and_halves() {
        let snap = |t: &str| Score::parse(t).unwrap().snap(6);
        assert_eq!(snap("3.33"), Some(Score::ratio(10, 3)));
        assert_eq!(snap("-3.67"), Some(Score::ratio(-11, 3)));
        assert_eq!(snap("5.5"), Some(Score::ratio(11, 2)));
        assert_eq!(snap("7"), Some(Score::whole(7)));
        assert_eq!(snap("3.4"), None);
        assert_eq!(snap("3.3"), None);
    }

    #[test]
    fn floats_from_workbooks_lose_their_noise() {
        assert_eq!(Score::from_f64(7.000000000000001), Some(Score::whole(7)));
        assert_eq!(
            Score::from_f64(10.0 / 3.0).unwrap().snap(6),
            Some(Score::ratio(10, 3))
        );
        assert_eq!(Score::from_f64(f64::NAN), None);
        assert_eq!(Score::from_f64(1e11), None);
        let big = Score::from_f64(999_999_999.999_999).unwrap();
        assert!(
            big.snap(6).is_none() || big.snap(6).is_some(),
            "no overflow"
        );
        let typed = Score::parse("999999999.999999").unwrap();
        assert_eq!(typed.snap(6), Some(Score::whole(1_000_000_000)));
    }

    #[test]
    fn averages_stay_exact() {
        let total = Score::whole(10);
        assert_eq!(total.per(3), Some(Score::ratio(10, 3)));
        assert_eq!(total.per(0), None);
        assert!(Score::ratio(10, 3) > Score::ratio(333, 100));
    }
}
