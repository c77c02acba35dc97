//! Carry-over (RULES.md section 7): what a stage's totals carry into the
//! next stage ([`Carry`]: none, all, or half the points rounded up).

use crate::domain::PlayerId;
pub use crate::profile::vocabulary::Carry;
use crate::rules::standings::Tally;
use crate::rules::tally::better_game;
use crate::score::Score;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The smallest whole number not below `x` (towards plus infinity):
/// 22.5 -> 23, -22.5 -> -22, 5/3 -> 2, -5/3 -> -1, 7 -> 7.
pub fn round_up(x: Score) -> Score {
    let (n, d) = (i128::from(x.numer()), i128::from(x.denom()));
    // Score keeps its denominator positive; -((-n) div_euclid d) is the ceiling.
    let ceiling = -(-n).div_euclid(d);
    Score::whole(ceiling as i64)
}

/// The points a total carries into the next stage.
pub fn carried_points(total: Score, carry: Carry) -> Score {
    match carry {
        Carry::None => Score::ZERO,
        Carry::All => total,
        Carry::Half => round_up(total / 2),
    }
}

/// The points each player of a stage starts it with, carried over from
/// the stage before (players carrying nothing may be left out): the table
/// rules add them to each table's totals, as the standings do.
pub type Carried = BTreeMap<PlayerId, Score>;

/// A tally of no games.
fn empty_tally(player: PlayerId) -> Tally {
    Tally::new(player)
}

/// The tally a player starts the next stage with.
pub fn starting_tally(previous: &Tally, carry: Carry) -> Tally {
    match carry {
        Carry::None => empty_tally(previous.player),
        Carry::All => Tally {
            withdrawn: false,
            ..previous.clone()
        },
        Carry::Half => Tally {
            total: carried_points(previous.total, Carry::Half),
            ..empty_tally(previous.player)
        },
    }
}

/// The starting tallies of the players who go on, by player; a player with
/// no tally in the previous stage starts from nothing.
pub fn starting_tallies(previous: &[Tally], advancing: &[PlayerId], carry: Carry) -> Vec<Tally> {
    let by_player: HashMap<PlayerId, &Tally> = previous.iter().map(|t| (t.player, t)).collect();
    let going: BTreeSet<PlayerId> = advancing.iter().copied().collect();
    going
        .into_iter()
        .map(|p| match by_player.get(&p) {
            Some(t) => starting_tally(t, carry),
            None => empty_tally(p),
        })
        .collect()
}

/// Adds the starting tallies to a stage's own tallies (from
/// [`crate::rules::standings::tally`]), by player; `withdrawn` is the stage's,
/// the best game the better of the two ([`better_game`]: the lower when
/// `lowest_is_best`, under penalty points).
pub fn add_carried(start: &[Tally], stage: Vec<Tally>, lowest_is_best: bool) -> Vec<Tally> {
    let mut by_player: BTreeMap<PlayerId, Tally> = start
        .iter()
        .map(|t| {
            (
                t.player,
                Tally {
                    withdrawn: false,
                    ..t.clone()
                },
            )
        })
        .collect();
    for t in stage {
        match by_player.get_mut(&t.player) {
            Some(s) => {
                s.games += t.games;
                s.won += t.won;
                s.total += t.total;
                s.tiles += t.tiles;
                s.withdrawn = t.withdrawn;
                s.best_game = better_game(s.best_game, t.best_game, lowest_is_best);
            }
            None => {
                by_player.insert(t.player, t);
            }
        }
    }
    by_player.into_values().collect()
}
