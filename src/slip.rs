//! A typing slip: two texts one keystroke apart.
//!
//! What a did-you-mean offers, for a roster entry (`P5001` for `P1001`)
//! and for a setting's stage name (`[stages.fianl]` for `final`), is
//! judged here, once.

/// Whether `a` and `b` differ by one slip: one character changed, left
/// out or typed once too often (`P012` for `P0012`), or two characters
/// swapped (`P5001` for `P0501`, `fianl` for `final`). Equal texts are
/// no slip.
pub fn one_slip(a: &[char], b: &[char]) -> bool {
    if a.len().abs_diff(b.len()) == 1 {
        // a character left out, or one too many: the longer without it
        let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
        let i = (0..short.len())
            .find(|&i| long[i] != short[i])
            .unwrap_or(short.len());
        return !short.is_empty() && long[i + 1..] == short[i..];
    }
    if a.len() != b.len() {
        return false;
    }
    let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    match diff[..] {
        [_] => true,
        [i, j] => a[i] == b[j] && a[j] == b[i],
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::one_slip;

    fn slip(a: &str, b: &str) -> bool {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        one_slip(&a, &b)
    }

    #[test]
    fn one_keystroke_is_a_slip_two_are_not() {
        assert!(slip("fianl", "final"));
        assert!(slip("P5001", "P1001"));
        assert!(slip("P012", "P0012"));
        assert!(slip("P00123", "P0123"));
        assert!(slip("semi", "sem"));
        assert!(!slip("final", "final"));
        assert!(!slip("prelim", "final"));
        assert!(!slip("semi", "final"));
        assert!(!slip("ab", "ba c"));
        assert!(!slip("", "a"));
    }
}
