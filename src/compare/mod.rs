//! Comparing: two typings of the same cards (double entry, [`typing`]), and
//! two checks of the same files a moment apart (the live check while
//! volunteers type, [`checks`]).
//!
//! Double entry is what data-entry desks that must not be wrong do: two
//! people type the same signed cards, and only what both typed alike is
//! taken. The rules' checks catch a card that cannot be right; the second
//! typing catches one that is typed wrong and still adds up (two players'
//! lines swapped, a winner's +41 typed as +14 with a loser's matching -14).

pub mod checks;
pub mod typing;

pub use checks::{diff_checks, CheckDiff, CheckState};
pub use typing::{agreeing, compare, lines, Comparison, Difference, Line, Typing};
