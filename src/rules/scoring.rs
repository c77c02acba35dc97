//! RULES.md sections 3 and 4: scoring one game from its racks.
//!
//! Zero-sum profiles (`hk`, `nvso`, `pressman`):
//! - someone went out: that player is the sole winner; each other player
//!   scores `-(rack value)`; the winner scores the sum of the others' values;
//! - nobody went out: the leaders are the players with the lowest rack value
//!   `m` (fewest tiles under `no_winner_by = tiles`); each other player scores
//!   `-(value - m)`, the leaders share that pot exactly, and the leader(s)
//!   with the fewest tiles win (ties on tiles: shared winners). Under
//!   `no_winner_by = tiles` the leaders are the players with the fewest
//!   tiles and the others lose their whole rack (`m = 0`), as the classic
//!   rulebook scores a game won on tiles "in the normal manner".
//!
//! Penalty points (`gwinnett`): each player scores their rack value; whoever
//! went out scores 0 and wins; lower is better.

use super::rack::Rack;
use crate::profile::{NoWinnerBy, Rules, Scoring};
use crate::score::Score;

/// One player's result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub won: bool,
    pub score: Score,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoringError {
    #[error("a game has {0} players; a table seats 3 or 4")]
    Players(usize),
    #[error("{0} players have 0 tiles; only one player can go out")]
    SeveralOut(usize),
}

/// Scores one game. The outcomes are in the order of `racks`.
pub fn score_game(racks: &[Rack], rules: &Rules) -> Result<Vec<Outcome>, ScoringError> {
    if !(3..=4).contains(&racks.len()) {
        return Err(ScoringError::Players(racks.len()));
    }
    let out = racks.iter().filter(|r| r.went_out()).count();
    if out > 1 {
        return Err(ScoringError::SeveralOut(out));
    }
    let values: Vec<i64> = racks
        .iter()
        .map(|r| if r.went_out() { 0 } else { r.value(rules) })
        .collect();
    Ok(match rules.scoring {
        Scoring::PenaltyPoints => penalty_points(racks, &values),
        Scoring::ZeroSum if out == 1 => someone_went_out(racks, &values),
        Scoring::ZeroSum => nobody_went_out(racks, &values, rules.no_winner_by),
    })
}

fn someone_went_out(racks: &[Rack], values: &[i64]) -> Vec<Outcome> {
    let pot: i64 = values.iter().sum();
    racks
        .iter()
        .zip(values)
        .map(|(r, &v)| match r.went_out() {
            true => Outcome {
                won: true,
                score: Score::whole(pot),
            },
            false => Outcome {
                won: false,
                score: Score::whole(-v),
            },
        })
        .collect()
}

fn nobody_went_out(racks: &[Rack], values: &[i64], by: NoWinnerBy) -> Vec<Outcome> {
    let is_leader: Vec<bool> = match by {
        NoWinnerBy::Value => {
            let m = *values.iter().min().unwrap_or(&0);
            values.iter().map(|&v| v == m).collect()
        }
        NoWinnerBy::Tiles => {
            let t = racks.iter().map(|r| r.tiles).min().unwrap_or(0);
            racks.iter().map(|r| r.tiles == t).collect()
        }
    };
    // What the others' losses are measured from: the leaders' rack value;
    // under `no_winner_by = tiles` (the classic rulebook: the player with the
    // fewest tiles wins, "scoring is then carried out in the normal manner")
    // each other player loses their whole rack, as if the leaders went out.
    let m = match by {
        NoWinnerBy::Value => values.iter().copied().min().unwrap_or(0),
        NoWinnerBy::Tiles => 0,
    };
    let leaders = is_leader.iter().filter(|&&l| l).count() as i64;
    let pot: i64 = values
        .iter()
        .zip(&is_leader)
        .filter(|(_, &l)| !l)
        .map(|(&v, _)| v - m)
        .sum();
    let fewest = racks
        .iter()
        .zip(&is_leader)
        .filter(|(_, &l)| l)
        .map(|(r, _)| r.tiles)
        .min()
        .unwrap_or(0);
    racks
        .iter()
        .zip(values)
        .zip(&is_leader)
        .map(|((r, &v), &leader)| match leader {
            true => Outcome {
                won: r.tiles == fewest,
                score: Score::ratio(pot, leaders),
            },
            false => Outcome {
                won: false,
                score: Score::whole(-(v - m)),
            },
        })
        .collect()
}

fn penalty_points(racks: &[Rack], values: &[i64]) -> Vec<Outcome> {
    let best = *values.iter().min().unwrap_or(&0);
    let someone_out = racks.iter().any(Rack::went_out);
    racks
        .iter()
        .zip(values)
        .map(|(r, &v)| Outcome {
            won: if someone_out { r.went_out() } else { v == best },
            score: Score::whole(v),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rack::Penalty;

    fn scores(outcomes: &[Outcome]) -> Vec<Score> {
        outcomes.iter().map(|o| o.score).collect()
    }

    fn won(outcomes: &[Outcome]) -> Vec<u8> {
        outcomes.iter().map(|o| o.won as u8).collect()
    }

    fn whole(v: &[i64]) -> Vec<Score> {
        v.iter().map(|&n| Score::whole(n)).collect()
    }

    #[test]
    fn hk_example_1() {
        let racks = [
            Rack::new(5, 0, 1),
            Rack::new(10, 0, 1),
            Rack::new(15, 0, 3),
            Rack::new(20, 0, 4),
        ];
        let o = score_game(&racks, &Rules::hk()).unwrap();
        assert_eq!(scores(&o), whole(&[30, -5, -10, -15]));
        assert_eq!(won(&o), [1, 0, 0, 0]);
    }

    #[test]
    fn hk_example_2() {
        let racks = [
            Rack::new(8, 0, 3),
            Rack::new(8, 0, 1),
            Rack::new(20, 0, 2),
            Rack::new(18, 0, 4),
        ];
        let o = score_game(&racks, &Rules::hk()).unwrap();
        assert_eq!(scores(&o), whole(&[11, 11, -12, -10]));
        assert_eq!(won(&o), [0, 1, 0, 0]);
    }

    #[test]
    fn hk_example_3() {
        let racks = [
            Rack::new(8, 0, 1),
            Rack::new(8, 0, 1),
            Rack::new(20, 0, 2),
            Rack::new(18, 0, 4),
        ];
        let o = score_game(&racks, &Rules::hk()).unwrap();
        assert_eq!(scores(&o), whole(&[11, 11, -12, -10]));
        assert_eq!(won(&o), [1, 1, 0, 0]);
    }

    #[test]
    fn someone_went_out_takes_every_rack_jokers_at_30() {
        let racks = [
            Rack::out(),
            Rack::new(7, 1, 3),
            Rack::new(12, 0, 2),
            Rack::new(4, 0, 1),
        ];
        let o = score_game(&racks, &Rules::hk()).unwrap();
        assert_eq!(scores(&o), whole(&[53, -37, -12, -4]));
        assert_eq!(won(&o), [1, 0, 0, 0]);
    }

    #[test]
    fn a_pot_split_three_ways_stays_exact() {
        let racks = [
            Rack::new(6, 0, 2),
            Rack::new(6, 0, 2),
            Rack::new(6, 0, 3),
            Rack::new(16, 0, 2),
        ];
        let o = score_game(&racks, &Rules::hk()).unwrap();
        let third = Score::ratio(10, 3);
        assert_eq!(scores(&o), vec![third, third, third, Score::whole(-10)]);
        assert_eq!(scores(&o).into_iter().sum::<Score>(), Score::ZERO);
        assert_eq!(won(&o), [1, 1, 0, 0]);
    }

    #[test]
    fn penalty_charges_replace_the_rack_by_default() {
        let racks = [
            Rack::out(),
            Rack::new(23, 1, 5).charged(Penalty::NoMeld),
            Rack::new(9, 0, 2),
        ];
        let o = score_game(&racks, &Rules::hk()).unwrap();
        assert_eq!(scores(&o), whole(&[109, -100, -9]));
    }

    #[test]
    fn penalty_charges_add_in_add_mode() {
        let mut rules = Rules::hk();
        rules.penalty_mode = crate::profile::PenaltyMode::Add;
        let racks = [
            Rack::out(),
            Rack::new(23, 1, 5).charged(Penalty::NoMeld),
            Rack::new(9, 0, 2),
        ];
        let o = score_game(&racks, &rules).unwrap();
        assert_eq!(scores(&o), whole(&[162, -153, -9]));
    }

    #[test]
    fn fewest_tiles_variant_picks_leaders_by_tiles() {
        let mut rules = crate::profile::by_name("pressman").unwrap();
        rules.no_winner_by = NoWinnerBy::Tiles;
        let racks = [Rack::new(20, 0, 1), Rack::new(8, 0, 3), Rack::new(30, 0, 4)];
        let o = score_game(&racks, &rules).unwrap();
        // A leads on tiles; the others lose their racks, as if A went out.
        assert_eq!(scores(&o), whole(&[38, -8, -30]));
        assert_eq!(won(&o), [1, 0, 0]);
    }

    #[test]
    fn gwinnett_scores_penalty_points() {
        let rules = crate::profile::by_name("gwinnett").unwrap();
        let racks = [Rack::new(7, 1, 3), Rack::out(), Rack::new(12, 0, 2)];
        let o = score_game(&racks, &rules).unwrap();
        assert_eq!(scores(&o), whole(&[37, 0, 12]));
        assert_eq!(won(&o), [0, 1, 0]);
    }

    #[test]
    fn two_players_or_two_out_are_refused() {
        let rules = Rules::hk();
        assert_eq!(
            score_game(&[Rack::out(), Rack::new(3, 0, 1)], &rules),
            Err(ScoringError::Players(2))
        );
        assert_eq!(
            score_game(&[Rack::out(), Rack::out(), Rack::new(3, 0, 1)], &rules),
            Err(ScoringError::SeveralOut(2))
        );
    }
}
