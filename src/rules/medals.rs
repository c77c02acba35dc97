//! RULES.md section 8: medals are the top three of the `final` standings of
//! each group: gold, silver, bronze (HK: Champion, 1st runner-up, 2nd
//! runner-up). Tied players share the medal and the next place is skipped.
//!
//! The medal follows the shared rank of the standings (1, 2, 2, 4): rank 1
//! is gold, rank 2 silver, rank 3 bronze. So two players tied first both
//! get gold and the next player bronze (no silver); two tied second both get
//! silver and nobody gets bronze; three tied first take three golds and
//! nothing else is given.
//!
//! Decisions where RULES.md is silent:
//!
//! - **Which standings**: the caller passes the final's standings of one
//!   group; medals of other stages are still computed but
//!   [`Medals::from_final`] is false, so a report can say so.
//! - **Players listed apart** (withdrawn, disqualified) get no medal and
//!   take no place; fewer than three ranked players give fewer medals.
//! - **Names**: [`MedalNames::Metals`] (gold, silver, bronze) for every
//!   profile except `hk`, which uses [`MedalNames::RunnersUp`].

use super::standings::Standings;
use crate::domain::{PlayerId, Stage};
pub use crate::profile::vocabulary::MedalNames;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Medal {
    Gold,
    Silver,
    Bronze,
}

impl Medal {
    pub const ALL: [Medal; 3] = [Medal::Gold, Medal::Silver, Medal::Bronze];

    /// The medal of a (shared) rank: 1, 2, 3; none from 4 on.
    pub fn for_rank(rank: u32) -> Option<Medal> {
        match rank {
            1 => Some(Medal::Gold),
            2 => Some(Medal::Silver),
            3 => Some(Medal::Bronze),
            _ => None,
        }
    }

    pub fn name(self, names: MedalNames) -> &'static str {
        match (names, self) {
            (MedalNames::Metals, Medal::Gold) => "Gold",
            (MedalNames::Metals, Medal::Silver) => "Silver",
            (MedalNames::Metals, Medal::Bronze) => "Bronze",
            (MedalNames::RunnersUp, Medal::Gold) => "Champion",
            (MedalNames::RunnersUp, Medal::Silver) => "1st runner-up",
            (MedalNames::RunnersUp, Medal::Bronze) => "2nd runner-up",
            (MedalNames::Named([first, _, _]), Medal::Gold) => first,
            (MedalNames::Named([_, second, _]), Medal::Silver) => second,
            (MedalNames::Named([_, _, third]), Medal::Bronze) => third,
        }
    }
}

impl fmt::Display for Medal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name(MedalNames::Metals))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Medalist {
    pub player: PlayerId,
    pub medal: Medal,
    /// The player's rank in the standings (1, 2 or 3).
    pub rank: u32,
    /// Another player has the same medal.
    pub shared: bool,
}

/// The medals of one group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Medals {
    /// The group's name; `None` for an event without groups.
    pub group: Option<String>,
    pub stage: Stage,
    /// Best first, in the standings' order.
    pub medalists: Vec<Medalist>,
}

impl Medals {
    /// The standings were those of the `final`.
    pub fn from_final(&self) -> bool {
        self.stage.as_str() == "final"
    }

    /// Who has `medal`, in the standings' order.
    pub fn holders(&self, medal: Medal) -> Vec<PlayerId> {
        self.medalists
            .iter()
            .filter(|m| m.medal == medal)
            .map(|m| m.player)
            .collect()
    }

    /// Medals nobody gets because ties skipped their place (or too few
    /// players were ranked).
    pub fn not_awarded(&self) -> Vec<Medal> {
        Medal::ALL
            .into_iter()
            .filter(|&m| !self.medalists.iter().any(|x| x.medal == m))
            .collect()
    }
}

/// The medals of `standings` (one group's final).
pub fn award(standings: &Standings) -> Medals {
    let won: Vec<(PlayerId, Medal, u32)> = standings
        .ranked
        .iter()
        .filter_map(|e| {
            let rank = e.rank?;
            Medal::for_rank(rank).map(|medal| (e.player(), medal, rank))
        })
        .collect();
    let medalists = won
        .iter()
        .map(|&(player, medal, rank)| Medalist {
            player,
            medal,
            rank,
            shared: won.iter().filter(|w| w.1 == medal).count() > 1,
        })
        .collect();
    Medals {
        group: None,
        stage: standings.stage.clone(),
        medalists,
    }
}

/// The medals of one named group's standings.
pub fn award_group(group: &str, standings: &Standings) -> Medals {
    Medals {
        group: Some(group.to_string()),
        ..award(standings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roster::{Player, Roster, Status};
    use crate::rules::standings::{rank, tally, Tally};
    use crate::score::Score;

    fn roster(n: usize) -> Roster {
        let mut r = Roster::default();
        for i in 0..n {
            r.add(Player::named(&format!("P{i}"), "x")).unwrap();
        }
        r
    }

    /// `gwinnett` final standings from penalty totals (fewer first), one
    /// player per total, all with 0 games won so totals alone decide.
    fn final_of(totals: &[i64], r: &Roster) -> Standings {
        let tallies: Vec<Tally> = totals
            .iter()
            .enumerate()
            .map(|(i, &t)| tally_of(i as u32, t))
            .collect();
        rank(
            tallies,
            &Stage::new("final"),
            crate::profile::by_name("gwinnett").unwrap().order,
            r,
        )
    }

    /// A tally built from a real one so new fields keep their defaults.
    fn tally_of(player: u32, total: i64) -> Tally {
        use crate::domain::{Card, CardKey, Game, Label, Seat, SeatPlayer, SeatResult};
        use crate::place::Place;
        let place = Place::nowhere("t");
        let card = Card {
            key: CardKey {
                stage: Stage::new("final"),
                session: Label::Num(1),
                table: Label::Num(1),
            },
            place: place.clone(),
            seats: vec![SeatPlayer {
                seat: Seat::A,
                player: PlayerId(player),
                place: place.clone(),
            }],
            games: vec![Game {
                number: 1,
                results: vec![SeatResult {
                    seat: Seat::A,
                    player: PlayerId(player),
                    won: false,
                    score: Score::whole(total),
                    tiles: Some(1),
                    place,
                }],
            }],
        };
        let rules = crate::profile::Rules {
            games_per_session: 1,
            ..crate::profile::by_name("gwinnett").unwrap()
        };
        tally(&[card], &Stage::new("final"), &rules).remove(0)
    }

    fn table(m: &Medals) -> Vec<(u32, Medal, bool)> {
        m.medalists
            .iter()
            .map(|x| (x.player.0, x.medal, x.shared))
            .collect()
    }

    #[test]
    fn the_top_three_get_gold_silver_bronze() {
        let r = roster(5);
        let m = award(&final_of(&[12, 0, 30, 7, 45], &r));
        assert_eq!(
            table(&m),
            vec![
                (1, Medal::Gold, false),
                (3, Medal::Silver, false),
                (0, Medal::Bronze, false)
            ]
        );
        assert!(m.from_final());
        assert!(m.not_awarded().is_empty());
        assert_eq!(m.holders(Medal::Silver), vec![PlayerId(3)]);
    }

    #[test]
    fn two_golds_then_bronze_and_no_silver() {
        let r = roster(5);
        let m = award(&final_of(&[5, 5, 9, 20, 30], &r));
        assert_eq!(
            table(&m),
            vec![
                (0, Medal::Gold, true),
                (1, Medal::Gold, true),
                (2, Medal::Bronze, false)
            ]
        );
        assert_eq!(m.not_awarded(), vec![Medal::Silver]);
    }

    #[test]
    fn two_silvers_and_no_bronze() {
        let r = roster(5);
        let m = award(&final_of(&[1, 8, 8, 20, 30], &r));
        assert_eq!(
            table(&m),
            vec![
                (0, Medal::Gold, false),
                (1, Medal::Silver, true),
                (2, Medal::Silver, true)
            ]
        );
        assert_eq!(m.not_awarded(), vec![Medal::Bronze]);
    }

    #[test]
    fn a_tie_for_bronze_gives_two_bronzes_and_three_golds_give_nothing_else() {
        let r = roster(5);
        let m = award(&final_of(&[1, 2, 3, 3, 30], &r));
        assert_eq!(m.holders(Medal::Bronze), vec![PlayerId(2), PlayerId(3)]);
        assert_eq!(m.medalists.len(), 4);
        let m = award(&final_of(&[4, 4, 4, 9], &r));
        assert_eq!(
            m.holders(Medal::Gold),
            vec![PlayerId(0), PlayerId(1), PlayerId(2)]
        );
        assert_eq!(m.medalists.len(), 3);
        assert_eq!(m.not_awarded(), vec![Medal::Silver, Medal::Bronze]);
    }

    #[test]
    fn players_listed_apart_get_nothing_and_few_players_few_medals() {
        let mut r = roster(2);
        let mut dq = Player::named("P2", "x");
        dq.status = Status::Disqualified;
        r.add(dq).unwrap();
        // the disqualified player has the best total
        let m = award(&final_of(&[10, 20, 0], &r));
        assert_eq!(
            table(&m),
            vec![(0, Medal::Gold, false), (1, Medal::Silver, false)]
        );
        assert_eq!(m.not_awarded(), vec![Medal::Bronze]);
    }

    #[test]
    fn hk_names_champion_and_runners_up() {
        let names = crate::profile::by_name("hk").unwrap().medal_names;
        assert_eq!(names, MedalNames::RunnersUp);
        assert_eq!(Medal::Gold.name(names), "Champion");
        assert_eq!(Medal::Silver.name(names), "1st runner-up");
        assert_eq!(Medal::Bronze.name(names), "2nd runner-up");
        let metals = crate::profile::by_name("nvso").unwrap().medal_names;
        assert_eq!(Medal::Bronze.name(metals), "Bronze");
        assert_eq!(Medal::Silver.to_string(), "Silver");
        assert_eq!(Medal::for_rank(4), None);
    }

    #[test]
    fn groups_are_named_and_other_stages_are_flagged() {
        let r = roster(3);
        let m = award_group("75+", &final_of(&[3, 2, 1], &r));
        assert_eq!(m.group.as_deref(), Some("75+"));
        assert_eq!(m.holders(Medal::Gold), vec![PlayerId(2)]);
        let mut s = final_of(&[3, 2, 1], &r);
        s.stage = Stage::prelim();
        assert!(!award(&s).from_final());
    }
}
