//! Seating a stage or session: tables of 4, and of 3 where the count needs
//! it (RULES.md section 1: a table seats 3 or 4; never 2, never 5).
//!
//! Two ways to seat:
//!
//! - [`random`]: reproducible from a `seed`, spreading apart players who sat
//!   at the same table before. Players are grouped by their previous table,
//!   the groups and the players inside each group are shuffled, and the list
//!   is dealt round the tables like cards (player `i` to table `i mod T`).
//!   A group is dealt to consecutive positions, so a group of at most `T`
//!   players lands at `T` different tables: with at least as many tables as
//!   the largest former table has players, no two former table-mates meet
//!   again. With fewer tables some must meet; each table then gets as few of
//!   one former table as the count allows, and [`Seating::repeats`] lists
//!   the pairs. Seats inside a table are shuffled too.
//! - [`by_order`] / [`by_standings`]: the best 4 at table 1, the next at
//!   table 2, and so on; inside a table, seat A for the best.
//!
//! Decisions where RULES.md is silent:
//!
//! - **Table sizes**: as few tables as possible, all of 4 except as many of
//!   3 as the count needs; the tables of 4 come first (9 players: 3+3+3;
//!   10: 4+3+3; 11: 4+4+3). 1, 2 and 5 players cannot be seated (an error
//!   value that says why); neither can 0.
//! - **Reproducible**: the seating depends only on the set of players, the
//!   previous tables and the seed, never on the order players are given in
//!   or the roster lists them (they are sorted by their ids first, the ids
//!   as typed on the roster). A player given twice is an error.
//! - **The random numbers** come from SplitMix64 ([`SplitMix64`]), written
//!   here so that a seed gives the same seating on every machine and in
//!   every version of the dependencies; draws below a bound use rejection,
//!   so no table or seat is favoured.
//! - **Ties in the standings** straddling a table boundary are split in the
//!   standings' own order (roster id); players listed apart (withdrawn,
//!   disqualified) are not seated.

use super::standings::Standings;
use crate::domain::{PlayerId, Seat};
use crate::profile::Schedule;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::Hash;

/// SplitMix64 (Steele, Lea and Flood 2014; the reference code by Vigna):
/// a 64-bit state advanced by the golden-ratio constant and mixed by two
/// multiply-xorshift rounds. Tiny, fast, and the same everywhere. Not for
/// secrets; plenty for shuffling a seating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (`bound > 0`), by rejection: draws in
    /// the short last stretch of the 64-bit range are drawn again.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "below(0)");
        // 2^64 mod bound: the draws under it would favour small results.
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let r = self.next_u64();
            if r >= threshold {
                return r % bound;
            }
        }
    }

    /// Fisher-Yates: every order equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Why players cannot be seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatingError {
    NoPlayers,
    /// 1, 2 or 5 players: no split into tables of 3 and 4 exists.
    CannotSplit {
        players: usize,
    },
    /// A player given twice.
    Duplicate(PlayerId),
}

impl fmt::Display for SeatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatingError::NoPlayers => write!(f, "no players to seat"),
            SeatingError::CannotSplit { players: 5 } => write!(
                f,
                "5 players cannot be seated: tables seat 3 or 4, and 5 would need a table of 5 or of 2; add or remove a player"
            ),
            SeatingError::CannotSplit { players } => {
                let who = if *players == 1 { "player" } else { "players" };
                write!(
                    f,
                    "{players} {who} cannot be seated: a table seats 3 or 4 (a game of 2 is not played at these events)"
                )
            }
            SeatingError::Duplicate(p) => {
                write!(f, "player #{} is given twice: each player sits once", p.0)
            }
        }
    }
}

/// The sizes of the tables for `players` players: 4s first, then 3s.
pub fn table_sizes(players: usize) -> Result<Vec<usize>, SeatingError> {
    if players == 0 {
        return Err(SeatingError::NoPlayers);
    }
    let tables = players.div_ceil(4);
    let threes = 4 * tables - players;
    if threes > tables {
        return Err(SeatingError::CannotSplit { players });
    }
    let mut sizes = vec![4; tables - threes];
    sizes.extend(std::iter::repeat_n(3, threes));
    Ok(sizes)
}

/// How many tables a stage seated group by group has: each age group's
/// players at tables of their own ([`table_sizes`]), numbered on through
/// the groups, as `tilerank seating` numbers them (`groups`: how many
/// each group seats). A group of nobody has no table.
pub fn tables_of_groups(groups: &[usize]) -> Result<u32, SeatingError> {
    groups
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| table_sizes(n).map(|t| t.len() as u32))
        .sum()
}

/// One table: its session and number (from 1), and who sits where, seat A
/// first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatedTable {
    pub session: u32,
    pub number: u32,
    pub seats: Vec<(Seat, PlayerId)>,
}

/// Spreads tables numbered on from 1 over the sessions of a schedule, in
/// order: the first `tables` tables play session 1, the next ones session 2,
/// each session's tables numbered from 1 (the HK prelim: 12 sessions of 25
/// tables, every player in one session). More tables than the schedule
/// holds is an error.
pub fn into_sessions(tables: &mut [SeatedTable], schedule: Schedule) -> Result<(), String> {
    let room = u64::from(schedule.sessions) * u64::from(schedule.tables);
    if tables.len() as u64 > room {
        return Err(format!(
            "{} tables do not fit in {} sessions of {} tables: add sessions or tables in tilerank.toml [sessions]",
            tables.len(),
            schedule.sessions,
            schedule.tables
        ));
    }
    for (i, t) in tables.iter_mut().enumerate() {
        let i = i as u32;
        t.session = i / schedule.tables + 1;
        t.number = i % schedule.tables + 1;
    }
    Ok(())
}

impl SeatedTable {
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.seats.iter().map(|&(_, p)| p)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    pub tables: Vec<SeatedTable>,
    /// Former table-mates who sit together again (only when too few tables
    /// made it unavoidable), each pair once, smaller id first.
    pub repeats: Vec<(PlayerId, PlayerId)>,
}

impl Seating {
    /// Where a player sits: table number and seat.
    pub fn table_of(&self, player: PlayerId) -> Option<(u32, Seat)> {
        self.tables.iter().find_map(|t| {
            t.seats
                .iter()
                .find(|&&(_, p)| p == player)
                .map(|&(s, _)| (t.number, s))
        })
    }

    /// Every seated player, table by table.
    pub fn players(&self) -> Vec<PlayerId> {
        self.tables.iter().flat_map(|t| t.players()).collect()
    }
}

/// Sorted players, or the first one given twice.
fn sorted_unique(players: &[PlayerId]) -> Result<Vec<PlayerId>, SeatingError> {
    let mut v = players.to_vec();
    v.sort();
    if let Some(w) = v.windows(2).find(|w| w[0] == w[1]) {
        return Err(SeatingError::Duplicate(w[0]));
    }
    Ok(v)
}

/// Seats `players` at random, reproducibly from `seed`, keeping apart those
/// who shared a table in `previous_table` (players missing from it sat
/// nowhere before). The draw starts from the players in the order of
/// `id`, each one's id as the roster has it: never from the roster's own
/// order (a roster sorted again, or saved from another program, draws the
/// same tables). See the module comment for how.
pub fn random<K: Eq + Hash + Ord, S: Ord>(
    players: &[PlayerId],
    previous_table: &HashMap<PlayerId, K>,
    seed: u64,
    id: impl Fn(PlayerId) -> S,
) -> Result<Seating, SeatingError> {
    let mut players = sorted_unique(players)?;
    players.sort_by_cached_key(|&p| id(p));
    let sizes = table_sizes(players.len())?;
    let mut rng = SplitMix64::new(seed);
    // Former tables in key order, then newcomers one by one: all in an
    // order that does not depend on hashing.
    let mut by_table: BTreeMap<&K, Vec<PlayerId>> = BTreeMap::new();
    let mut groups: Vec<Vec<PlayerId>> = Vec::new();
    for &p in &players {
        match previous_table.get(&p) {
            Some(k) => by_table.entry(k).or_default().push(p),
            None => groups.push(vec![p]),
        }
    }
    let mut groups: Vec<Vec<PlayerId>> = by_table.into_values().chain(groups).collect();
    for g in &mut groups {
        rng.shuffle(g);
    }
    rng.shuffle(&mut groups);
    let order: Vec<PlayerId> = groups.into_iter().flatten().collect();
    let count = sizes.len();
    let mut tables: Vec<Vec<PlayerId>> = vec![Vec::new(); count];
    for (i, p) in order.into_iter().enumerate() {
        tables[i % count].push(p);
    }
    debug_assert!(tables.iter().zip(&sizes).all(|(t, &s)| t.len() == s));
    for t in &mut tables {
        rng.shuffle(t);
    }
    let seating = seat(tables);
    let repeats = repeats(&seating, previous_table);
    Ok(Seating { repeats, ..seating })
}

/// Seats players in the order given, best first: the first 4 (or 3) at
/// table 1 in seats A, B, C, D, and so on.
pub fn by_order(best_first: &[PlayerId]) -> Result<Seating, SeatingError> {
    sorted_unique(best_first)?;
    let sizes = table_sizes(best_first.len())?;
    let mut rest = best_first;
    let mut tables = Vec::with_capacity(sizes.len());
    for size in sizes {
        let (table, tail) = rest.split_at(size);
        tables.push(table.to_vec());
        rest = tail;
    }
    Ok(seat(tables))
}

/// Seats the ranked players of `standings` by [`by_order`].
pub fn by_standings(standings: &Standings) -> Result<Seating, SeatingError> {
    let order: Vec<PlayerId> = standings.ranked.iter().map(|e| e.player()).collect();
    by_order(&order)
}

fn seat(tables: Vec<Vec<PlayerId>>) -> Seating {
    Seating {
        tables: tables
            .into_iter()
            .enumerate()
            .map(|(i, players)| SeatedTable {
                session: 1,
                number: i as u32 + 1,
                seats: Seat::ALL.into_iter().zip(players).collect(),
            })
            .collect(),
        repeats: Vec::new(),
    }
}

/// Pairs at one table who also shared a previous table.
fn repeats<K: Eq + Hash>(
    seating: &Seating,
    previous_table: &HashMap<PlayerId, K>,
) -> Vec<(PlayerId, PlayerId)> {
    let mut pairs = Vec::new();
    for t in &seating.tables {
        let mut ps: Vec<PlayerId> = t.players().collect();
        ps.sort();
        for (i, a) in ps.iter().enumerate() {
            for b in &ps[i + 1..] {
                if let (Some(ka), Some(kb)) = (previous_table.get(a), previous_table.get(b)) {
                    if ka == kb {
                        pairs.push((*a, *b));
                    }
                }
            }
        }
    }
    pairs.sort();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_fill_in_order() {
        let mut tables: Vec<SeatedTable> = (1..=7)
            .map(|n| SeatedTable {
                session: 1,
                number: n,
                seats: Vec::new(),
            })
            .collect();
        let schedule = Schedule {
            sessions: 3,
            tables: 3,
        };
        into_sessions(&mut tables, schedule).unwrap();
        let at: Vec<(u32, u32)> = tables.iter().map(|t| (t.session, t.number)).collect();
        assert_eq!(
            at,
            vec![(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1)]
        );
        let mut more = tables.clone();
        more.extend(tables.clone());
        assert_eq!(
            into_sessions(&mut more, schedule).unwrap_err(),
            "14 tables do not fit in 3 sessions of 3 tables: add sessions or tables in tilerank.toml [sessions]"
        );
    }
    use crate::domain::Stage;
    use crate::roster::{Player, Roster};
    use crate::rules::standings::{rank, tally};

    fn ids(n: u32) -> Vec<PlayerId> {
        (0..n).map(PlayerId).collect()
    }

    /// Where everybody sat before: consecutive players at tables of `size`.
    fn previous(n: u32, size: u32) -> HashMap<PlayerId, u32> {
        (0..n).map(|i| (PlayerId(i), i / size)).collect()
    }

    fn sizes_of(s: &Seating) -> Vec<usize> {
        s.tables.iter().map(|t| t.seats.len()).collect()
    }

    fn check_complete(s: &Seating, n: u32) {
        let mut seated = s.players();
        seated.sort();
        assert_eq!(seated, ids(n), "every player seated exactly once");
        for t in &s.tables {
            let letters: Vec<Seat> = t.seats.iter().map(|&(seat, _)| seat).collect();
            assert_eq!(letters, Seat::ALL[..t.seats.len()].to_vec());
        }
    }

    #[test]
    fn splitmix64_known_answers() {
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
        let mut r = SplitMix64::new(7);
        for _ in 0..1000 {
            assert!(r.below(3) < 3);
        }
        // every value of a small bound turns up
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[r.below(5) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn tables_of_4_and_as_many_3s_as_needed() {
        let s = |n| table_sizes(n).unwrap();
        assert_eq!(s(3), vec![3]);
        assert_eq!(s(4), vec![4]);
        assert_eq!(s(6), vec![3, 3]);
        assert_eq!(s(7), vec![4, 3]);
        assert_eq!(s(8), vec![4, 4]);
        assert_eq!(s(9), vec![3, 3, 3]);
        assert_eq!(s(10), vec![4, 3, 3]);
        assert_eq!(s(11), vec![4, 4, 3]);
        assert_eq!(s(12), vec![4, 4, 4]);
        assert_eq!(s(100), vec![4; 25]);
        for n in 6..=400 {
            let sizes = s(n);
            assert_eq!(sizes.iter().sum::<usize>(), n);
            assert!(sizes.iter().all(|&t| t == 3 || t == 4), "{n}");
            assert_eq!(sizes.len(), n.div_ceil(4), "{n}: fewest tables");
        }
    }

    #[test]
    fn groups_are_seated_at_tables_numbered_on() {
        assert_eq!(tables_of_groups(&[8]), Ok(2));
        assert_eq!(tables_of_groups(&[8, 7, 0, 9]), Ok(2 + 2 + 3));
        assert_eq!(tables_of_groups(&[]), Ok(0));
        assert_eq!(
            tables_of_groups(&[8, 5]),
            Err(SeatingError::CannotSplit { players: 5 })
        );
    }

    #[test]
    fn one_two_and_five_players_cannot_be_seated() {
        for n in [1, 2, 5] {
            assert_eq!(
                table_sizes(n),
                Err(SeatingError::CannotSplit { players: n })
            );
            assert!(random(&ids(n as u32), &HashMap::<PlayerId, u32>::new(), 1, |p| p).is_err());
            assert!(by_order(&ids(n as u32)).is_err());
        }
        assert_eq!(table_sizes(0), Err(SeatingError::NoPlayers));
        assert_eq!(
            SeatingError::CannotSplit { players: 5 }.to_string(),
            "5 players cannot be seated: tables seat 3 or 4, and 5 would need a table of 5 or of 2; add or remove a player"
        );
        assert_eq!(
            SeatingError::CannotSplit { players: 1 }.to_string(),
            "1 player cannot be seated: a table seats 3 or 4 (a game of 2 is not played at these events)"
        );
    }

    #[test]
    fn a_player_given_twice_is_refused() {
        let mut players = ids(8);
        players.push(PlayerId(3));
        assert_eq!(
            random(&players, &HashMap::<PlayerId, u32>::new(), 1, |p| p),
            Err(SeatingError::Duplicate(PlayerId(3)))
        );
        assert_eq!(
            by_order(&players),
            Err(SeatingError::Duplicate(PlayerId(3)))
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_seating_whatever_the_input_order() {
        let prev = previous(22, 4);
        let a = random(&ids(22), &prev, 2026, |p| p).unwrap();
        let mut shuffled = ids(22);
        shuffled.reverse();
        let b = random(&shuffled, &prev, 2026, |p| p).unwrap();
        assert_eq!(a, b);
        check_complete(&a, 22);
        assert_eq!(sizes_of(&a), vec![4, 4, 4, 4, 3, 3]);
    }

    /// The same players listed by two rosters in opposite orders (player
    /// slot `i` is `X{i}` on one, `X{21 - i}` on the other) draw the same
    /// tables, by id, from one seed: the draw follows the ids, not where
    /// the roster lists them.
    #[test]
    fn the_same_seed_gives_the_same_tables_whatever_the_rosters_order() {
        let one = |p: PlayerId| format!("X{:02}", p.0);
        let other = |p: PlayerId| format!("X{:02}", 21 - p.0);
        let tables = |s: &Seating, id: &dyn Fn(PlayerId) -> String| -> Vec<Vec<String>> {
            (s.tables.iter())
                .map(|t| t.players().map(id).collect())
                .collect()
        };
        let none = HashMap::<PlayerId, u32>::new();
        let a = random(&ids(22), &none, 7, one).unwrap();
        let b = random(&ids(22), &none, 7, other).unwrap();
        assert_eq!(tables(&a, &one), tables(&b, &other));
        // (and the draw does depend on the ids: slots alone would differ)
        assert_ne!(tables(&a, &one), tables(&a, &other));
    }

    #[test]
    fn different_seeds_give_different_seatings() {
        let none = HashMap::<PlayerId, u32>::new();
        let a = random(&ids(24), &none, 1, |p| p).unwrap();
        let b = random(&ids(24), &none, 2, |p| p).unwrap();
        assert_ne!(a.tables, b.tables);
        // and over many seeds, many different seatings
        let mut distinct: Vec<Vec<SeatedTable>> = Vec::new();
        for seed in 0..50 {
            let s = random(&ids(24), &none, seed, |p| p).unwrap();
            check_complete(&s, 24);
            if !distinct.contains(&s.tables) {
                distinct.push(s.tables);
            }
        }
        assert_eq!(distinct.len(), 50);
    }

    #[test]
    fn former_table_mates_never_meet_when_there_are_enough_tables() {
        // 16 players from 4 tables of 4, to 4 tables: one of each per table
        for seed in 0..300 {
            let s = random(&ids(16), &previous(16, 4), seed, |p| p).unwrap();
            check_complete(&s, 16);
            assert!(s.repeats.is_empty(), "seed {seed}: {:?}", s.repeats);
            for t in &s.tables {
                let mut former: Vec<u32> = t.players().map(|p| p.0 / 4).collect();
                former.sort();
                assert_eq!(former, vec![0, 1, 2, 3], "seed {seed}");
            }
        }
        // 23 players, previous tables of 4 and 3, new 4+4+4+4+4+3
        let mut prev = previous(20, 4);
        for i in 20..23 {
            prev.insert(PlayerId(i), 100);
        }
        for seed in 0..300 {
            let s = random(&ids(23), &prev, seed, |p| p).unwrap();
            check_complete(&s, 23);
            for t in &s.tables {
                let ps: Vec<PlayerId> = t.players().collect();
                for (i, a) in ps.iter().enumerate() {
                    for b in &ps[i + 1..] {
                        assert_ne!(prev[a], prev[b], "seed {seed}: {a:?} and {b:?} meet again");
                    }
                }
            }
        }
    }

    #[test]
    fn too_few_tables_report_the_unavoidable_repeats() {
        // 12 players from 3 tables of 4 to 3 tables: 4 former table-mates
        // over 3 tables means exactly one pair of each former table meets
        for seed in 0..50 {
            let prev = previous(12, 4);
            let s = random(&ids(12), &prev, seed, |p| p).unwrap();
            check_complete(&s, 12);
            assert_eq!(s.repeats.len(), 3, "seed {seed}");
            for &(a, b) in &s.repeats {
                assert_eq!(prev[&a], prev[&b]);
                assert!(a < b);
                assert_eq!(s.table_of(a).unwrap().0, s.table_of(b).unwrap().0);
            }
        }
    }

    #[test]
    fn newcomers_and_players_without_a_previous_table_are_seated_too() {
        let mut prev = previous(8, 4);
        prev.remove(&PlayerId(0));
        let s = random(&ids(10), &prev, 9, |p| p).unwrap();
        check_complete(&s, 10);
        assert_eq!(sizes_of(&s), vec![4, 3, 3]);
        // former table 1 (players 4 to 7) has 4 players for 3 tables: one
        // pair of them must meet, and only that one
        assert_eq!(s.repeats.len(), 1);
        let (a, b) = s.repeats[0];
        assert!((4..8).contains(&a.0) && (4..8).contains(&b.0));
    }

    #[test]
    fn by_order_puts_the_best_four_at_table_1() {
        let order: Vec<PlayerId> = [7, 3, 9, 0, 1, 2, 4, 5, 6, 8, 10].map(PlayerId).to_vec();
        let s = by_order(&order).unwrap();
        assert_eq!(sizes_of(&s), vec![4, 4, 3]);
        assert_eq!(
            s.tables[0].seats,
            vec![
                (Seat::A, PlayerId(7)),
                (Seat::B, PlayerId(3)),
                (Seat::C, PlayerId(9)),
                (Seat::D, PlayerId(0))
            ]
        );
        assert_eq!(s.table_of(PlayerId(10)), Some((3, Seat::C)));
        assert_eq!(s.table_of(PlayerId(99)), None);
        check_complete(&s, 11);
    }

    #[test]
    fn by_standings_seats_the_ranked_players_best_first() {
        use crate::domain::{Card, CardKey, Game, Label, SeatPlayer, SeatResult};
        use crate::place::Place;
        let mut roster = Roster::default();
        for i in 0..7 {
            roster
                .add(Player::named(&format!("P{i}"), &format!("n{i}")))
                .unwrap();
        }
        let place = Place::nowhere("test");
        // one game per card; player i scores as given
        let card = |table: u32, who: &[(u32, i64)]| Card {
            key: CardKey {
                stage: Stage::prelim(),
                session: Label::Num(1),
                table: Label::Num(table),
            },
            place: place.clone(),
            seats: who
                .iter()
                .enumerate()
                .map(|(i, &(p, _))| SeatPlayer {
                    seat: Seat::ALL[i],
                    player: PlayerId(p),
                    place: place.clone(),
                })
                .collect(),
            games: vec![Game {
                number: 1,
                results: who
                    .iter()
                    .enumerate()
                    .map(|(i, &(p, score))| SeatResult {
                        seat: Seat::ALL[i],
                        player: PlayerId(p),
                        won: score > 0,
                        score: crate::score::Score::whole(score),
                        tiles: Some(if score > 0 { 0 } else { 2 }),
                        place: place.clone(),
                    })
                    .collect(),
            }],
        };
        let cards = vec![
            card(1, &[(0, -5), (1, 20), (2, -15)]),
            card(2, &[(3, 30), (4, -10), (5, -8), (6, -12)]),
        ];
        let rules = crate::profile::Rules {
            games_per_session: 1,
            ..crate::profile::by_name("nvso").unwrap()
        };
        let standings = rank(
            tally(&cards, &Stage::prelim(), &rules),
            &Stage::prelim(),
            crate::profile::by_name("nvso").unwrap().order,
            &roster,
        );
        let s = by_standings(&standings).unwrap();
        // totals: 3 +30, 1 +20, 0 -5, 5 -8, 4 -10, 6 -12, 2 -15
        let tables: Vec<Vec<u32>> = s
            .tables
            .iter()
            .map(|t| t.players().map(|p| p.0).collect())
            .collect();
        assert_eq!(tables, vec![vec![3, 1, 0, 5], vec![4, 6, 2]]);
    }
}
