//! RULES.md section 9: the HK Super Family Award.
//!
//! A family unit is two roster entries with the same `family` id: a child
//! aged 7 to 18 and a parent aged 18 or over, ages on the event date. A unit
//! is eligible when both members qualified for the final. Eligible units are
//! ranked on the sum of the two members' results on the `hk` keys: games won
//! summed (more first), average scores summed (higher first), tiles summed
//! (fewer first), the first difference deciding, as in the standings. The
//! best unit wins; a tie for the best is reported, never settled here.
//!
//! Nothing is dropped silently: a family that is not a valid unit is listed
//! in [`SuperFamily::not_units`] with the reason, and a valid unit that
//! cannot be ranked in [`SuperFamily::ineligible`] with the reason.
//!
//! Decisions where RULES.md is silent:
//!
//! - **Which results**: those of the final's standings, passed in (the award
//!   is one of the Finals awards, and HK's finals "start fresh": prelim
//!   results are not carried forward). A member who qualified but has no
//!   ranked line there (withdrawn, disqualified, never played) makes the
//!   unit ineligible.
//! - **Who is parent and who is child**: the older member is the parent and
//!   the younger the child. Two members of the same age (in whole years)
//!   are not a unit, even at 18: a parent is older than the child.
//! - **Family ids** match ignoring case and spaces (`F017`, `f 017`); a
//!   blank family is no family. A family with one entry, or with three or
//!   more, is not a unit (the rules say two entries; the director may split
//!   a larger family by giving each pair its own id).
//! - **Ages**: from the birth date, else the given age (as for age groups,
//!   [`super::age_groups::player_age`]); an entry with neither, or with an
//!   unreadable birth date, makes the family not a unit.
//! - **Ties between units** share a rank and the next rank skips (1, 2, 2,
//!   4), listed by family id.

use super::age_groups::{player_age, AgeError};
use super::standings::{Apart, Standings, Tally};
use crate::domain::PlayerId;
use crate::roster::{match_key, Roster};
use crate::score::Score;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};

pub use crate::profile::vocabulary::FamilyAges;

/// The HK rule sheet's ages: a child aged 7 to 18, a parent 18 or over.
#[cfg(test)]
const HK_AGES: FamilyAges = FamilyAges {
    child_min: 7,
    child_max: 18,
    parent_min: 18,
};

/// A valid family unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The family id as the roster spells it (first entry's spelling).
    pub family: String,
    pub parent: PlayerId,
    pub child: PlayerId,
    pub parent_age: u32,
    pub child_age: u32,
}

/// Why a family is not a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotAUnitReason {
    /// Only one roster entry has the family id.
    Alone,
    /// More than two entries share the family id.
    TooMany { count: usize },
    /// A member's age cannot be told: `id` and why.
    NoAge { id: String, why: Option<AgeError> },
    /// The younger member is not of a child's `ages`.
    NoChild {
        id: String,
        age: u32,
        ages: FamilyAges,
    },
    /// The older member is younger than a parent's `ages`.
    NoParent {
        id: String,
        age: u32,
        ages: FamilyAges,
    },
    /// Both members have the same age.
    SameAge { age: u32 },
}

// (NotAUnitReason in words: `crate::report::words`, with every sentence)

/// A family that is not a valid unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAUnit {
    pub family: String,
    pub members: Vec<PlayerId>,
    pub reason: NotAUnitReason,
}

/// Why a valid unit is not ranked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IneligibleReason {
    /// These members (roster ids) did not qualify for the final.
    NotQualified { ids: Vec<String> },
    /// A member qualified but has no ranked result (`apart` says why, when
    /// the standings list them apart).
    NoResult { id: String, apart: Option<Apart> },
}

// (IneligibleReason in words: `crate::report::words`, with every sentence)

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ineligible {
    pub unit: Unit,
    pub reason: IneligibleReason,
}

/// An eligible unit and its summed results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedUnit {
    pub unit: Unit,
    /// Shared when tied on all three sums (1, 2, 2, 4).
    pub rank: u32,
    pub won: u32,
    /// The two members' average scores per game, summed (exact).
    pub average: Score,
    pub tiles: u32,
}

/// The Super Family Award table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuperFamily {
    /// Eligible units, best first.
    pub ranked: Vec<RankedUnit>,
    /// Valid units that cannot be ranked, by family id.
    pub ineligible: Vec<Ineligible>,
    /// Families that are not valid units, by family id.
    pub not_units: Vec<NotAUnit>,
}

impl SuperFamily {
    /// The unit that wins: the only one ranked first.
    pub fn winner(&self) -> Option<&RankedUnit> {
        match self.best().as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }

    /// The units tied for the best, when more than one is: the director
    /// decides.
    pub fn tie_for_best(&self) -> Vec<&RankedUnit> {
        let best = self.best();
        if best.len() > 1 {
            best
        } else {
            Vec::new()
        }
    }

    fn best(&self) -> Vec<&RankedUnit> {
        self.ranked.iter().filter(|u| u.rank == 1).collect()
    }
}

/// Compares two units' sums: `Less` means `a` ranks ahead.
fn compare(a: &RankedUnit, b: &RankedUnit) -> Ordering {
    b.won
        .cmp(&a.won)
        .then_with(|| b.average.cmp(&a.average))
        .then_with(|| a.tiles.cmp(&b.tiles))
}

/// Checks one family's entries; the unit, or why it is not one.
fn unit_of(
    family: &str,
    members: &[PlayerId],
    roster: &Roster,
    event_date: &str,
    ages: FamilyAges,
) -> Result<Unit, NotAUnitReason> {
    let [a, b] = members else {
        return Err(if members.len() < 2 {
            NotAUnitReason::Alone
        } else {
            NotAUnitReason::TooMany {
                count: members.len(),
            }
        });
    };
    let age = |p: PlayerId| -> Result<u32, NotAUnitReason> {
        let id = roster.get(p).id.clone();
        match player_age(&roster.get(p), event_date) {
            Ok(Some(age)) => Ok(age),
            Ok(None) => Err(NotAUnitReason::NoAge { id, why: None }),
            Err(e) => Err(NotAUnitReason::NoAge { id, why: Some(e) }),
        }
    };
    let (age_a, age_b) = (age(*a)?, age(*b)?);
    let ((child, child_age), (parent, parent_age)) = if age_a <= age_b {
        ((*a, age_a), (*b, age_b))
    } else {
        ((*b, age_b), (*a, age_a))
    };
    let id = |p: PlayerId| roster.get(p).id.clone();
    if !(ages.child_min..=ages.child_max).contains(&child_age) {
        return Err(NotAUnitReason::NoChild {
            id: id(child),
            age: child_age,
            ages,
        });
    }
    if parent_age < ages.parent_min {
        return Err(NotAUnitReason::NoParent {
            id: id(parent),
            age: parent_age,
            ages,
        });
    }
    if parent_age == child_age {
        return Err(NotAUnitReason::SameAge { age: child_age });
    }
    Ok(Unit {
        family: family.to_string(),
        parent,
        child,
        parent_age,
        child_age,
    })
}

/// The Super Family Award: families of `roster`, ages on `event_date`,
/// eligible when both members are in `qualified`, ranked on their results in
/// `final_standings`.
pub fn super_family(
    roster: &Roster,
    event_date: &str,
    ages: FamilyAges,
    qualified: &HashSet<PlayerId>,
    final_standings: &Standings,
) -> SuperFamily {
    // family key -> (spelling, members in roster order)
    let mut families: BTreeMap<String, (String, Vec<PlayerId>)> = BTreeMap::new();
    for (pid, p) in roster.iter() {
        let Some(family) = p.family.as_deref().map(str::trim) else {
            continue;
        };
        if family.is_empty() {
            continue;
        }
        families
            .entry(match_key(family))
            .or_insert_with(|| (family.to_string(), Vec::new()))
            .1
            .push(pid);
    }
    let ranked_tally: HashMap<PlayerId, Tally> = final_standings
        .ranked
        .iter()
        .map(|e| (e.player(), e.tally()))
        .collect();
    let apart: HashMap<PlayerId, Option<Apart>> = final_standings
        .apart
        .iter()
        .map(|e| (e.player(), e.apart))
        .collect();
    let mut result = SuperFamily {
        ranked: Vec::new(),
        ineligible: Vec::new(),
        not_units: Vec::new(),
    };
    for (family, members) in families.into_values() {
        let unit = match unit_of(&family, &members, roster, event_date, ages) {
            Ok(unit) => unit,
            Err(reason) => {
                result.not_units.push(NotAUnit {
                    family,
                    members,
                    reason,
                });
                continue;
            }
        };
        let pair = [unit.parent, unit.child];
        let not_qualified: Vec<String> = pair
            .iter()
            .filter(|p| !qualified.contains(p))
            .map(|&p| roster.get(p).id.clone())
            .collect();
        if !not_qualified.is_empty() {
            result.ineligible.push(Ineligible {
                unit,
                reason: IneligibleReason::NotQualified { ids: not_qualified },
            });
            continue;
        }
        let missing = pair.iter().find(|p| !ranked_tally.contains_key(p));
        if let Some(&p) = missing {
            result.ineligible.push(Ineligible {
                reason: IneligibleReason::NoResult {
                    id: roster.get(p).id.clone(),
                    apart: apart.get(&p).copied().flatten(),
                },
                unit,
            });
            continue;
        }
        let (tp, tc) = (&ranked_tally[&unit.parent], &ranked_tally[&unit.child]);
        result.ranked.push(RankedUnit {
            rank: 0,
            won: tp.won + tc.won,
            average: tp.average() + tc.average(),
            tiles: tp.tiles + tc.tiles,
            unit,
        });
    }
    // Families are already in id order; a stable sort keeps it within ties.
    result.ranked.sort_by(compare);
    for i in 0..result.ranked.len() {
        let rank = if i > 0 && compare(&result.ranked[i - 1], &result.ranked[i]) == Ordering::Equal
        {
            result.ranked[i - 1].rank
        } else {
            i as u32 + 1
        };
        result.ranked[i].rank = rank;
    }
    result
}

/// The families of a roster that are not valid units, for the roster check:
/// they cannot win the award.
pub fn invalid_units(roster: &Roster, event_date: &str, ages: FamilyAges) -> Vec<NotAUnit> {
    let empty = Standings {
        stage: crate::domain::Stage::new("final"),
        order: Vec::new(),
        ranked: Vec::new(),
        apart: Vec::new(),
    };
    super_family(roster, event_date, ages, &HashSet::new(), &empty).not_units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Card, CardKey, Game, Label, Seat, SeatPlayer, SeatResult, Stage};
    use crate::place::Place;
    use crate::profile::Rules;
    use crate::roster::{Player, Status};
    use crate::rules::standings::{rank, tally};

    const FINAL_DAY: &str = "2026-04-12";

    /// (id, family, birth date)
    fn roster(entries: &[(&str, Option<&str>, Option<&str>)]) -> Roster {
        let mut r = Roster::default();
        for &(id, family, birth) in entries {
            r.add(Player {
                family: family.map(str::to_string),
                birth_date: birth.map(str::to_string),
                ..Player::named(id, id)
            })
            .unwrap();
        }
        r
    }

    /// The final's standings from one card per player of three games:
    /// (player, [(won, score, tiles); 3]). Seats are unchecked here.
    /// One game as (won, score, tiles).
    type G = (bool, i64, u16);

    fn final_standings(r: &Roster, lines: &[(u32, [G; 3])]) -> Standings {
        let place = Place::nowhere("t");
        let cards: Vec<Card> = lines
            .iter()
            .map(|&(p, games)| Card {
                key: CardKey {
                    stage: Stage::new("final"),
                    session: Label::Num(1),
                    table: Label::Num(p + 1),
                },
                place: place.clone(),
                seats: vec![SeatPlayer {
                    seat: Seat::A,
                    player: PlayerId(p),
                    place: place.clone(),
                }],
                games: games
                    .iter()
                    .enumerate()
                    .map(|(g, &(won, score, tiles))| Game {
                        number: g as u32 + 1,
                        results: vec![SeatResult {
                            seat: Seat::A,
                            player: PlayerId(p),
                            won,
                            score: Score::whole(score),
                            tiles: Some(tiles),
                            place: place.clone(),
                        }],
                    })
                    .collect(),
            })
            .collect();
        let stage = Stage::new("final");
        rank(
            tally(&cards, &stage, &Rules::hk()),
            &stage,
            crate::profile::by_name("hk").unwrap().order,
            r,
        )
    }

    fn all(n: u32) -> HashSet<PlayerId> {
        (0..n).map(PlayerId).collect()
    }

    fn families(s: &SuperFamily) -> Vec<(&str, u32)> {
        s.ranked
            .iter()
            .map(|u| (u.unit.family.as_str(), u.rank))
            .collect()
    }

    #[test]
    fn units_rank_on_summed_wins_then_averages_then_tiles() {
        let r = roster(&[
            ("P0", Some("F1"), Some("1980-05-01")), // parent, 45
            ("P1", Some("F1"), Some("2014-09-30")), // child, 11
            ("P2", Some("F2"), Some("1975-01-01")),
            ("P3", Some("f 2"), Some("2010-01-01")), // same family, other spelling
            ("P4", Some("F3"), Some("1990-06-06")),
            ("P5", Some("F3"), Some("2016-06-06")),
        ]);
        let w = |s| (true, s, 0);
        let l = |s, t| (false, s, t);
        let s = final_standings(
            &r,
            &[
                // F1: wins 1 + 1 = 2; averages 10 + (-2) = 8
                (0, [w(40), l(-5, 2), l(-5, 3)]),
                (1, [w(4), l(-5, 1), l(-5, 1)]),
                // F2: wins 2 + 0 = 2; averages 5 + (-1) = 4
                (2, [w(10), w(15), l(-10, 4)]),
                (3, [l(-1, 1), l(-1, 1), l(-1, 1)]),
                // F3: wins 0 + 3 = 3
                (4, [l(-30, 5), l(-30, 5), l(-30, 5)]),
                (5, [w(1), w(1), w(1)]),
            ],
        );
        let sf = super_family(&r, FINAL_DAY, HK_AGES, &all(6), &s);
        assert_eq!(families(&sf), vec![("F3", 1), ("F1", 2), ("F2", 3)]);
        let f1 = &sf.ranked[1];
        assert_eq!((f1.won, f1.average, f1.tiles), (2, Score::whole(8), 7));
        assert_eq!(
            (
                f1.unit.parent,
                f1.unit.child,
                f1.unit.parent_age,
                f1.unit.child_age
            ),
            (PlayerId(0), PlayerId(1), 45, 11)
        );
        assert_eq!(sf.winner().unwrap().unit.family, "F3");
        assert!(sf.tie_for_best().is_empty());
        assert!(sf.not_units.is_empty() && sf.ineligible.is_empty());
    }

    #[test]
    fn exact_averages_and_then_tiles_break_ties_and_a_full_tie_is_reported() {
        let r = roster(&[
            ("A1", Some("FA"), Some("1980-01-01")),
            ("A2", Some("FA"), Some("2012-01-01")),
            ("B1", Some("FB"), Some("1980-01-01")),
            ("B2", Some("FB"), Some("2012-01-01")),
            ("C1", Some("FC"), Some("1980-01-01")),
            ("C2", Some("FC"), Some("2012-01-01")),
        ]);
        let line = |won, s: [i64; 3], t: u16| [(won, s[0], t), (false, s[1], t), (false, s[2], t)];
        // FA: averages 10/3 + 0 ; FB: 3 + 1/3 = 10/3 too; FC: 10/3 but more tiles
        let s = final_standings(
            &r,
            &[
                (0, line(true, [10, 0, 0], 1)),
                (1, line(false, [0, 0, 0], 1)),
                (2, line(true, [9, 0, 0], 1)),
                (3, line(false, [1, 0, 0], 1)),
                (4, line(true, [10, 0, 0], 2)),
                (5, line(false, [0, 0, 0], 2)),
            ],
        );
        let sf = super_family(&r, FINAL_DAY, HK_AGES, &all(6), &s);
        assert_eq!(families(&sf), vec![("FA", 1), ("FB", 1), ("FC", 3)]);
        assert_eq!(sf.ranked[0].average, Score::ratio(10, 3));
        assert_eq!(sf.winner(), None);
        let tie: Vec<&str> = sf
            .tie_for_best()
            .iter()
            .map(|u| u.unit.family.as_str())
            .collect();
        assert_eq!(tie, vec!["FA", "FB"]);
    }

    #[test]
    fn families_that_are_not_units_are_listed_with_the_reason() {
        let r = roster(&[
            ("T1", Some("THREE"), Some("1980-01-01")),
            ("T2", Some("THREE"), Some("2012-01-01")),
            ("T3", Some("THREE"), Some("2014-01-01")),
            ("K1", Some("KIDS"), Some("2012-01-01")),
            ("K2", Some("KIDS"), Some("2014-01-01")),
            ("G1", Some("GROWN"), Some("1950-01-01")),
            ("G2", Some("GROWN"), Some("1980-01-01")),
            ("S1", Some("SOLO"), Some("1980-01-01")),
            ("Y1", Some("YOUNG"), Some("1990-01-01")),
            ("Y2", Some("YOUNG"), Some("2020-01-01")), // 6 on the final day
            ("N1", Some("NOAGE"), Some("1980-01-01")),
            ("N2", Some("NOAGE"), None),
            ("E1", Some("EIGHTEEN"), Some("2007-06-01")),
            ("E2", Some("EIGHTEEN"), Some("2008-01-01")),
            ("X1", None, Some("1980-01-01")),
            ("X2", Some("  "), Some("2012-01-01")),
        ]);
        let s = final_standings(&r, &[]);
        let sf = super_family(&r, FINAL_DAY, HK_AGES, &all(16), &s);
        assert!(sf.ranked.is_empty() && sf.ineligible.is_empty());
        let got: Vec<(&str, usize, String)> = sf
            .not_units
            .iter()
            .map(|n| (n.family.as_str(), n.members.len(), n.reason.to_string()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("EIGHTEEN", 2, "both members are aged 18: the parent must be older than the child".to_string()),
                ("GROWN", 2, "no child: the younger member G2 is aged 46; a child is aged 7 to 18".to_string()),
                ("KIDS", 2, "no parent: the older member K1 is aged 14; a parent is aged 18 or over".to_string()),
                ("NOAGE", 2, "N2 has no birth_date or age, so the unit cannot be checked".to_string()),
                ("SOLO", 1, "only one roster entry has this family id: a unit is two, a parent and a child".to_string()),
                ("THREE", 3, "3 roster entries share this family id: a unit is exactly two, a parent and a child (give each pair its own family id)".to_string()),
                ("YOUNG", 2, "no child: the younger member Y2 is aged 6; a child is aged 7 to 18".to_string()),
            ]
        );
    }

    #[test]
    fn ages_are_taken_on_the_event_date() {
        // the child turns 19 the day after the final, the parent 18 on it
        let r = roster(&[
            ("P", Some("F"), Some("2008-04-12")),
            ("C", Some("F"), Some("2007-04-13")),
        ]);
        let sf = super_family(&r, FINAL_DAY, HK_AGES, &all(2), &final_standings(&r, &[]));
        // P is 18, C is 18 too: same age, not a unit
        assert_eq!(sf.not_units[0].reason, NotAUnitReason::SameAge { age: 18 });
        let r = roster(&[
            ("P", Some("F"), Some("2008-04-12")), // 18 on the final day
            ("C", Some("F"), Some("2019-04-12")), // 7 on the final day
        ]);
        let sf = super_family(
            &r,
            FINAL_DAY,
            HK_AGES,
            &HashSet::new(),
            &final_standings(&r, &[]),
        );
        assert!(sf.not_units.is_empty());
        assert_eq!(
            (
                sf.ineligible[0].unit.parent_age,
                sf.ineligible[0].unit.child_age
            ),
            (18, 7)
        );
        // a day earlier, the child is 6 and the parent 17
        let sf = super_family(
            &r,
            "2026-04-11",
            HK_AGES,
            &all(2),
            &final_standings(&r, &[]),
        );
        assert!(matches!(
            sf.not_units[0].reason,
            NotAUnitReason::NoChild { age: 6, .. }
        ));
    }

    #[test]
    fn both_members_must_qualify_and_have_a_result() {
        let mut r = roster(&[
            ("P0", Some("F1"), Some("1980-01-01")),
            ("P1", Some("F1"), Some("2012-01-01")),
            ("P2", Some("F2"), Some("1980-01-01")),
            ("P3", Some("F2"), Some("2012-01-01")),
            ("P4", Some("F3"), Some("1980-01-01")),
            ("P5", Some("F3"), Some("2012-01-01")),
        ]);
        let mut dq = Player {
            family: Some("F4".into()),
            birth_date: Some("1980-01-01".into()),
            ..Player::named("P6", "P6")
        };
        dq.status = Status::Disqualified;
        r.add(dq).unwrap();
        r.add(Player {
            family: Some("F4".into()),
            birth_date: Some("2012-01-01".into()),
            ..Player::named("P7", "P7")
        })
        .unwrap();
        let g = [(true, 5, 0), (false, -5, 2), (false, 0, 1)];
        let s = final_standings(&r, &[(0, g), (1, g), (2, g), (6, g), (7, g)]);
        // P3 did not qualify; P4, P5 neither; P6 disqualified; F1 ranked
        let qualified: HashSet<PlayerId> = [0, 1, 2, 6, 7].map(PlayerId).into_iter().collect();
        let sf = super_family(&r, FINAL_DAY, HK_AGES, &qualified, &s);
        assert_eq!(families(&sf), vec![("F1", 1)]);
        let why: Vec<(&str, String)> = sf
            .ineligible
            .iter()
            .map(|i| (i.unit.family.as_str(), i.reason.to_string()))
            .collect();
        assert_eq!(
            why,
            vec![
                ("F2", "P3 did not qualify for the final".to_string()),
                (
                    "F3",
                    "neither P4 nor P5 qualified for the final".to_string()
                ),
                (
                    "F4",
                    "P6 has no ranked result in the final (disqualified)".to_string()
                ),
            ]
        );
    }
}
