//! RULES.md section 6: standings, per stage, over every game a player
//! played in that stage.
//!
//! | profile | order (first difference decides) |
//! |---|---|
//! | `hk` | games won (more), average score per game (higher), tiles left (fewer) |
//! | `nvso` | total score (higher), games won (more) |
//! | `pressman` | games won (more), total score (higher) |
//! | `gwinnett` | total penalty points (fewer), games won (more) |
//!
//! Players equal on every key share a rank and the next rank skips
//! (1, 2, 2, 4). Ranking is exact, stable, and independent of input order:
//! tied players are listed by roster id.

use crate::domain::{Card, PlayerId, Stage};
pub use crate::profile::vocabulary::{Better, Key, SortKey};
use crate::profile::Rules;
use crate::roster::{Roster, Status};
use crate::score::Score;
use std::cmp::Ordering;
use std::collections::HashMap;

/// Tiles counted for a knocked rack whose tiles could not be counted (a
/// blank tiles cell): a full starting rack, so knocking never helps.
pub const KNOCKED_RACK_TILES: u32 = 14;

/// A player's results in one stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub player: PlayerId,
    pub games: u32,
    pub won: u32,
    pub total: Score,
    pub tiles: u32,
    /// Played fewer games than a card has (RULES.md section 5, check 7).
    pub withdrawn: bool,
    /// The best score of a single game.
    pub best_game: Option<Score>,
}

impl Tally {
    /// A tally of no games.
    pub fn new(player: PlayerId) -> Tally {
        Tally {
            player,
            games: 0,
            won: 0,
            total: Score::ZERO,
            tiles: 0,
            withdrawn: false,
            best_game: None,
        }
    }

    /// Average score per game, exact.
    pub fn average(&self) -> Score {
        self.total.per(self.games).unwrap_or(Score::ZERO)
    }
}

/// Compares two tallies on `order`: `Less` means `a` ranks ahead.
pub fn compare(a: &Tally, b: &Tally, order: &[SortKey]) -> Ordering {
    for sk in order {
        let ord = match sk.key {
            Key::GamesWon => a.won.cmp(&b.won),
            Key::AverageScore => a.average().cmp(&b.average()),
            Key::TotalScore => a.total.cmp(&b.total),
            Key::TilesLeft => a.tiles.cmp(&b.tiles),
            Key::BestGame => a.best_game.cmp(&b.best_game),
        };
        let ord = match sk.better {
            Better::Higher => ord.reverse(),
            Better::Lower => ord,
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    Ordering::Equal
}

/// Adds up the games of `stage` per player.
pub fn tally(cards: &[Card], stage: &Stage, rules: &Rules) -> Vec<Tally> {
    let mut by_player: HashMap<PlayerId, Tally> = HashMap::new();
    for card in cards.iter().filter(|c| &c.key.stage == stage) {
        for sp in &card.seats {
            let t = by_player
                .entry(sp.player)
                .or_insert_with(|| Tally::new(sp.player));
            if card.games_played(sp.player) < rules.games_for(&card.key.stage) as usize {
                t.withdrawn = true;
            }
        }
        for result in card.games.iter().flat_map(|g| &g.results) {
            let t = by_player
                .entry(result.player)
                .or_insert_with(|| Tally::new(result.player));
            t.games += 1;
            t.won += u32::from(result.won);
            t.total += result.score;
            t.tiles += result.tiles.map_or(KNOCKED_RACK_TILES, u32::from);
            t.best_game = Some(t.best_game.map_or(result.score, |b| b.max(result.score)));
        }
    }
    let mut v: Vec<Tally> = by_player.into_values().collect();
    v.sort_by_key(|t| t.player);
    v
}

/// Why a player is listed apart from the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Apart {
    Withdrawn,
    Disqualified,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub tally: Tally,
    /// 1-based; `None` for players listed apart.
    pub rank: Option<u32>,
    /// Another player has the same rank.
    pub shared: bool,
    pub apart: Option<Apart>,
}

#[derive(Clone, Debug)]
pub struct Standings {
    pub stage: Stage,
    pub order: Vec<SortKey>,
    /// Ranked players, best first.
    pub ranked: Vec<Entry>,
    /// Withdrawn and disqualified players, not ranked.
    pub apart: Vec<Entry>,
}

/// Ranks the tallies of one stage.
pub fn rank(tallies: Vec<Tally>, stage: &Stage, order: Vec<SortKey>, roster: &Roster) -> Standings {
    let mut ranked = Vec::new();
    let mut apart = Vec::new();
    for t in tallies {
        let why = match roster.get(t.player).status {
            Status::Disqualified => Some(Apart::Disqualified),
            Status::Withdrawn => Some(Apart::Withdrawn),
            Status::Active if t.withdrawn => Some(Apart::Withdrawn),
            Status::Active => None,
        };
        let entry = Entry {
            tally: t,
            rank: None,
            shared: false,
            apart: why,
        };
        if why.is_some() {
            apart.push(entry);
        } else {
            ranked.push(entry);
        }
    }
    // Sort on precomputed keys: averages are exact fractions, costly to
    // recompute in every comparison of a million players.
    let mut keyed: Vec<(Vec<KeyValue>, Entry)> = ranked
        .into_iter()
        .map(|e| (key_values(&e.tally, &order), e))
        .collect();
    keyed.sort_by(|(ka, a), (kb, b)| {
        ka.cmp(kb).then_with(|| {
            roster
                .get(a.tally.player)
                .id
                .cmp(&roster.get(b.tally.player).id)
        })
    });
    let mut ranked: Vec<Entry> = Vec::with_capacity(keyed.len());
    let mut previous: Option<Vec<KeyValue>> = None;
    let mut rank = 0;
    for (i, (k, mut e)) in keyed.into_iter().enumerate() {
        if previous.as_ref() != Some(&k) {
            rank = i as u32 + 1;
        } else if let Some(last) = ranked.last_mut() {
            last.shared = true;
            e.shared = true;
        }
        e.rank = Some(rank);
        previous = Some(k);
        ranked.push(e);
    }
    apart.sort_by(|a, b| {
        roster
            .get(a.tally.player)
            .id
            .cmp(&roster.get(b.tally.player).id)
    });
    Standings {
        stage: stage.clone(),
        order,
        ranked,
        apart,
    }
}

/// One key's value, oriented so that smaller ranks ahead.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum KeyValue {
    Count(i64),
    Score(Score),
}

fn key_values(t: &Tally, order: &[SortKey]) -> Vec<KeyValue> {
    order
        .iter()
        .map(|sk| {
            let flip = sk.better == Better::Higher;
            match sk.key {
                Key::GamesWon => KeyValue::Count(if flip {
                    -i64::from(t.won)
                } else {
                    i64::from(t.won)
                }),
                Key::TilesLeft => KeyValue::Count(if flip {
                    -i64::from(t.tiles)
                } else {
                    i64::from(t.tiles)
                }),
                Key::AverageScore => KeyValue::Score(if flip { -t.average() } else { t.average() }),
                Key::TotalScore => KeyValue::Score(if flip { -t.total } else { t.total }),
                Key::BestGame => {
                    let b = t.best_game.unwrap_or(Score::ZERO);
                    KeyValue::Score(if flip { -b } else { b })
                }
            }
        })
        .collect()
}

/// The key that decides between two players, for explanations and notes.
pub fn deciding_key(a: &Tally, b: &Tally, order: &[SortKey]) -> Option<SortKey> {
    order
        .iter()
        .copied()
        .find(|sk| compare(a, b, std::slice::from_ref(sk)) != Ordering::Equal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roster::Player;

    fn t(player: u32, won: u32, total: i64, games: u32, tiles: u32) -> Tally {
        Tally {
            player: PlayerId(player),
            games,
            won,
            total: Score::whole(total),
            tiles,
            withdrawn: false,
            best_game: None,
        }
    }

    fn roster(n: usize) -> Roster {
        let mut r = Roster::default();
        for i in 0..n {
            r.add(Player::named(&format!("P{i:04}"), &format!("Player {i}")))
                .unwrap();
        }
        r
    }

    fn ranks(s: &Standings) -> Vec<(u32, u32)> {
        s.ranked
            .iter()
            .map(|e| (e.tally.player.0, e.rank.unwrap()))
            .collect()
    }

    #[test]
    fn pressman_rulebook_example() {
        // A +24 -6 -32 -10 = -24 (1 won); B = -54 (0); C = +45 (2); D = +33 (1)
        let tallies = vec![
            t(0, 1, -24, 4, 0),
            t(1, 0, -54, 4, 0),
            t(2, 2, 45, 4, 0),
            t(3, 1, 33, 4, 0),
        ];
        let s = rank(
            tallies,
            &Stage::prelim(),
            crate::profile::by_name("pressman").unwrap().order,
            &roster(4),
        );
        assert_eq!(ranks(&s), vec![(2, 1), (3, 2), (0, 3), (1, 4)]);
    }

    #[test]
    fn hk_orders_by_wins_then_average_then_tiles() {
        let tallies = vec![
            t(0, 2, 30, 3, 5), // avg 10
            t(1, 2, 30, 3, 4), // avg 10, fewer tiles
            t(2, 3, -3, 3, 9),
            t(3, 2, 31, 3, 9),
        ];
        let s = rank(
            tallies,
            &Stage::prelim(),
            crate::profile::by_name("hk").unwrap().order,
            &roster(4),
        );
        assert_eq!(ranks(&s), vec![(2, 1), (3, 2), (1, 3), (0, 4)]);
    }

    #[test]
    fn average_is_exact_and_per_game() {
        // 10 over 3 games (3.333...) beats 3.33 over 1 game? No: 333/100 < 10/3.
        let a = Tally {
            total: Score::whole(10),
            ..t(0, 1, 0, 3, 0)
        };
        let b = Tally {
            total: Score::ratio(333, 100),
            ..t(1, 1, 0, 1, 0)
        };
        assert_eq!(
            compare(&a, &b, &crate::profile::by_name("hk").unwrap().order),
            Ordering::Less
        );
    }

    #[test]
    fn ties_share_a_rank_and_the_next_skips() {
        let tallies = vec![
            t(3, 2, 10, 3, 4),
            t(1, 2, 10, 3, 4),
            t(0, 3, 0, 3, 0),
            t(2, 1, 0, 3, 0),
        ];
        let s = rank(
            tallies,
            &Stage::prelim(),
            crate::profile::by_name("hk").unwrap().order,
            &roster(4),
        );
        assert_eq!(ranks(&s), vec![(0, 1), (1, 2), (3, 2), (2, 4)]);
        assert!(s.ranked[1].shared && s.ranked[2].shared && !s.ranked[0].shared);
    }

    #[test]
    fn gwinnett_fewer_points_first() {
        let tallies = vec![t(0, 1, 40, 3, 0), t(1, 0, 12, 3, 0), t(2, 2, 12, 3, 0)];
        let s = rank(
            tallies,
            &Stage::prelim(),
            crate::profile::by_name("gwinnett").unwrap().order,
            &roster(3),
        );
        assert_eq!(ranks(&s), vec![(2, 1), (1, 2), (0, 3)]);
    }

    #[test]
    fn withdrawn_and_disqualified_are_listed_apart() {
        let mut r = roster(3);
        let mut dq = Player::named("P9999", "Cheat");
        dq.status = Status::Disqualified;
        r.add(dq).unwrap();
        let tallies = vec![
            t(0, 1, 0, 3, 0),
            Tally {
                withdrawn: true,
                ..t(1, 2, 0, 2, 0)
            },
            t(3, 3, 9, 3, 0),
        ];
        let s = rank(
            tallies,
            &Stage::prelim(),
            crate::profile::by_name("hk").unwrap().order,
            &r,
        );
        assert_eq!(ranks(&s), vec![(0, 1)]);
        let apart: Vec<_> = s
            .apart
            .iter()
            .map(|e| (e.tally.player.0, e.apart.unwrap()))
            .collect();
        assert_eq!(apart, vec![(1, Apart::Withdrawn), (3, Apart::Disqualified)]);
    }

    #[test]
    fn keys_are_declared_by_name() {
        let k: SortKey = "total_score:lower".parse().unwrap();
        assert_eq!(
            k,
            SortKey {
                key: Key::TotalScore,
                better: Better::Lower
            }
        );
        assert_eq!(
            "tiles_left".parse::<SortKey>().unwrap().better,
            Better::Lower
        );
        assert_eq!(
            "best_game".parse::<SortKey>().unwrap().better,
            Better::Higher
        );
        assert!("luck"
            .parse::<SortKey>()
            .unwrap_err()
            .contains("expected one of games_won"));
        assert!("games_won:up".parse::<SortKey>().is_err());
    }

    #[test]
    fn best_single_game_can_break_ties() {
        let a = Tally {
            best_game: Some(Score::whole(40)),
            ..t(0, 2, 30, 3, 5)
        };
        let b = Tally {
            best_game: Some(Score::whole(25)),
            ..t(1, 2, 30, 3, 5)
        };
        let order: Vec<SortKey> = ["games_won", "best_game"]
            .iter()
            .map(|k| k.parse().unwrap())
            .collect();
        assert_eq!(compare(&a, &b, &order), Ordering::Less);
    }

    #[test]
    fn names_the_deciding_key() {
        let o = crate::profile::by_name("hk").unwrap().order;
        let d = deciding_key(&t(0, 2, 30, 3, 5), &t(1, 2, 30, 3, 4), &o).unwrap();
        assert_eq!(d.key, Key::TilesLeft);
        assert_eq!(d.to_string(), "tiles left (fewer first)");
    }
}
