//! RULES.md section 6, the sums: every player's games, wins, score, tiles
//! left and best game in each stage, added up once, as each card is
//! accepted. Every view of the standings ranks these sums
//! ([`super::standings`]); whether the event keeps its cards or was read
//! for its standings only, the sums are made here: a seat's games at one
//! card by [`SeatSums::add`], then the player's by [`Tallies::add_seat`].
//!
//! A million players are kept in 24 bytes each: scores are exact whole
//! multiples of one fraction per stage (`1/den`: whole points, halves when
//! a pot is shared by two, ...). A score that does not fit that way (or a
//! best game past 29 bits of units) turns the stage's sums into plain
//! exact fractions.

use crate::domain::{Card, PlayerId, Stage};
use crate::profile::Rules;
use crate::score::Score;

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

/// What one seat did at one card: the sums of its games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatSums {
    pub games: u32,
    pub won: u32,
    pub total: Score,
    pub tiles: u32,
    /// The best score of one game (none before the first).
    pub best: Option<Score>,
}

impl SeatSums {
    /// Adds one game's result.
    pub fn add(&mut self, won: bool, score: Score, tiles: Option<u16>) {
        self.games += 1;
        self.won += u32::from(won);
        self.total = match (self.total.is_whole() && score.is_whole())
            .then(|| self.total.numer().checked_add(score.numer()))
            .flatten()
        {
            Some(n) => Score::whole(n), // whole points: no fractions to reduce
            None => self.total + score,
        };
        self.tiles += tiles.map_or(KNOCKED_RACK_TILES, u32::from);
        self.best = Some(self.best.map_or(score, |b| b.max(score)));
    }
}

/// Tallies to rank, read one at a time by slot (a player index, or a
/// place in a list); an empty slot is `None`.
pub trait TallySource {
    fn slots(&self) -> usize;
    fn tally(&self, slot: usize) -> Option<Tally>;
}

impl TallySource for [Tally] {
    fn slots(&self) -> usize {
        self.len()
    }

    fn tally(&self, slot: usize) -> Option<Tally> {
        self.get(slot).cloned()
    }
}

/// Every player's tally in every stage of an event.
#[derive(Clone, Debug, Default)]
pub struct Tallies {
    stages: Vec<StageSums>,
}

/// One stage's sums, by player index.
#[derive(Clone, Debug)]
struct StageSums {
    stage: Stage,
    /// Scores are counted in units of `1 / den`.
    den: i64,
    rows: Vec<Row>,
    /// Once a score does not fit the units: each player's total and best
    /// game as plain fractions (and `total`, `best` of `rows` unused).
    exact: Option<Vec<(Score, Score)>>,
    players: usize,
}

const _: () = assert!(std::mem::size_of::<Row>() == 24);

/// A seat was taken at a card of the stage.
const PRESENT: u8 = 1;
/// Fewer games than the card's were played.
const WITHDRAWN: u8 = 2;

/// One player's sums in a stage (24 bytes): the best game, in units,
/// shares its 32 bits with the flags ([`PRESENT`], [`WITHDRAWN`]).
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    games: u32,
    won: u32,
    tiles: u32,
    /// The best game shifted left by [`FLAG_BITS`], the flags below it.
    best_flags: i32,
    total: i64,
}

/// The low bits of [`Row::best_flags`] that are flags.
const FLAG_BITS: u32 = 2;

impl Row {
    fn flags(&self) -> u8 {
        (self.best_flags & ((1 << FLAG_BITS) - 1)) as u8
    }

    fn set_flag(&mut self, flag: u8) {
        self.best_flags |= i32::from(flag);
    }

    /// The best game, in units.
    fn best(&self) -> i64 {
        i64::from(self.best_flags >> FLAG_BITS)
    }

    /// Whether a best game of `best` units fits a row.
    fn fits_best(best: i64) -> bool {
        (i64::from(i32::MIN >> FLAG_BITS)..=i64::from(i32::MAX >> FLAG_BITS)).contains(&best)
    }

    /// Sets the best game, `best` units ([`Row::fits_best`]).
    fn set_best(&mut self, best: i64) {
        debug_assert!(Row::fits_best(best));
        self.best_flags = (best as i32) << FLAG_BITS | i32::from(self.flags());
    }
}

/// The largest unit denominator kept: beyond it, plain fractions.
const MAX_DEN: i64 = 1 << 32;

impl StageSums {
    fn new(stage: &Stage) -> StageSums {
        StageSums {
            stage: stage.clone(),
            den: 1,
            rows: Vec::new(),
            exact: None,
            players: 0,
        }
    }

    fn row(&mut self, player: PlayerId) -> &mut Row {
        let i = player.index();
        if i >= self.rows.len() {
            self.rows.resize(i + 1, Row::default());
            if let Some(exact) = &mut self.exact {
                exact.resize(i + 1, (Score::ZERO, Score::ZERO));
            }
        }
        let row = &mut self.rows[i];
        if row.flags() & PRESENT == 0 {
            row.set_flag(PRESENT);
            self.players += 1;
        }
        row
    }

    /// Makes the units fine enough for a score of denominator `d` (every
    /// row's sums made in the finer ones), or the sums plain fractions
    /// when they do not fit them.
    fn finer(&mut self, d: i64) {
        if self.exact.is_some() || self.den % d == 0 {
            return;
        }
        let g = num_integer_gcd(self.den, d);
        let finer = (self.den / g).checked_mul(d).filter(|&x| x <= MAX_DEN);
        let scaled = finer.and_then(|den| {
            let by = den / self.den;
            let rows: Option<Vec<(i64, i64)>> = self
                .rows
                .iter()
                .map(|r| {
                    let best = r.best().checked_mul(by).filter(|&b| Row::fits_best(b))?;
                    Some((r.total.checked_mul(by)?, best))
                })
                .collect();
            Some((den, rows?))
        });
        match scaled {
            Some((den, values)) => {
                for (r, (t, b)) in self.rows.iter_mut().zip(values) {
                    r.total = t;
                    r.set_best(b);
                }
                self.den = den;
            }
            None => self.make_exact(),
        }
    }

    /// `score` in units of `1 / den` (made fine enough for it first:
    /// [`StageSums::finer`]); `None` once the sums are plain fractions.
    fn units(&mut self, score: Score) -> Option<i64> {
        if self.exact.is_some() {
            return None;
        }
        debug_assert_eq!(self.den % score.denom(), 0);
        self.checked_units(score.numer().checked_mul(self.den / score.denom()))
    }

    /// `units`, or plain fractions from now on when they did not fit.
    fn checked_units(&mut self, units: Option<i64>) -> Option<i64> {
        if units.is_none() {
            self.make_exact();
        }
        units
    }

    fn make_exact(&mut self) {
        let den = self.den;
        self.exact = Some(
            self.rows
                .iter()
                .map(|r| (Score::ratio(r.total, den), Score::ratio(r.best(), den)))
                .collect(),
        );
    }

    fn tally(&self, i: usize) -> Option<Tally> {
        self.tally_of(i, self.rows.get(i)?)
    }

    /// The tally of player slot `i`, whose row is `r`.
    fn tally_of(&self, i: usize, r: &Row) -> Option<Tally> {
        if r.flags() & PRESENT == 0 {
            return None;
        }
        let (total, best) = match &self.exact {
            Some(exact) => exact[i],
            None if self.den == 1 => (Score::whole(r.total), Score::whole(r.best())),
            None => (
                Score::ratio(r.total, self.den),
                Score::ratio(r.best(), self.den),
            ),
        };
        Some(Tally {
            player: PlayerId(i as u32),
            games: r.games,
            won: r.won,
            total,
            tiles: r.tiles,
            withdrawn: r.flags() & WITHDRAWN != 0,
            best_game: (r.games > 0).then_some(best),
        })
    }
}

fn num_integer_gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs().max(1)
}

impl Tallies {
    /// The sums of every card of `cards`.
    pub fn of_cards<'a>(cards: impl IntoIterator<Item = &'a Card>, rules: &Rules) -> Tallies {
        let mut t = Tallies::default();
        for card in cards {
            t.add_card(card, rules);
        }
        t
    }

    /// The index of `stage`'s sums, made when new.
    pub fn stage(&mut self, stage: &Stage) -> usize {
        match self.stages.iter().position(|s| &s.stage == stage) {
            Some(i) => i,
            None => {
                self.stages.push(StageSums::new(stage));
                self.stages.len() - 1
            }
        }
    }

    /// Makes room for `players` players in the stage `s`.
    pub fn reserve(&mut self, s: usize, players: usize) {
        self.stages[s].rows.reserve(players);
    }

    /// Adds what `player` did at one card of the stage `s`, a card of
    /// `games` games (fewer played: the player withdrew).
    pub fn add_seat(&mut self, s: usize, player: PlayerId, games: usize, seat: &SeatSums) {
        let sums = &mut self.stages[s];
        // (units fine enough for both scores before either is counted in
        // them: made finer for the best game, they would leave the total
        // counted in the coarser ones, and two halves summed to a half)
        sums.finer(seat.total.denom());
        if let Some(b) = seat.best {
            sums.finer(b.denom());
        }
        let total = sums.units(seat.total);
        let best = seat.best.and_then(|b| sums.units(b));
        let i = player.index();
        let row = sums.row(player);
        if (seat.games as usize) < games {
            row.set_flag(WITHDRAWN);
        }
        if seat.games == 0 {
            return;
        }
        let first = row.games == 0;
        row.games = row.games.saturating_add(seat.games);
        row.won = row.won.saturating_add(seat.won);
        row.tiles = row.tiles.saturating_add(seat.tiles);
        let fits = total.zip(best).and_then(|(t, b)| {
            let best = if first { b } else { row.best().max(b) };
            Some((row.total.checked_add(t)?, best)).filter(|_| Row::fits_best(best))
        });
        match fits {
            Some((total, best)) => {
                row.total = total;
                row.set_best(best);
            }
            None => {
                if sums.exact.is_none() {
                    sums.make_exact();
                }
                if let (Some(exact), Some(b)) = (&mut sums.exact, seat.best) {
                    let (total, best) = &mut exact[i];
                    *total += seat.total;
                    *best = if first { b } else { (*best).max(b) };
                }
            }
        }
    }

    /// Adds one accepted card.
    pub fn add_card(&mut self, card: &Card, rules: &Rules) {
        let s = self.stage(&card.key.stage);
        let games = rules.games_for(&card.key.stage) as usize;
        for sp in &card.seats {
            let mut seat = SeatSums::default();
            for r in card.games.iter().flat_map(|g| &g.results) {
                if r.player == sp.player {
                    seat.add(r.won, r.score, r.tiles);
                }
            }
            self.add_seat(s, sp.player, games, &seat);
        }
    }

    /// Forgets the stages no player sat in (made for room ahead).
    pub fn drop_empty(&mut self) {
        self.stages.retain(|s| s.players > 0);
    }

    /// The stages that have sums, in the order first met.
    pub fn stages(&self) -> impl Iterator<Item = &Stage> {
        self.stages.iter().map(|s| &s.stage)
    }

    fn sums(&self, stage: &Stage) -> Option<&StageSums> {
        self.stages.iter().find(|s| &s.stage == stage)
    }

    /// How many players have sums in `stage`.
    pub fn count(&self, stage: &Stage) -> usize {
        self.sums(stage).map_or(0, |s| s.players)
    }

    /// The tallies of `stage`, by player index.
    pub fn of(&self, stage: &Stage) -> Vec<Tally> {
        let mut out = Vec::with_capacity(self.count(stage));
        out.extend(self.each_of(stage));
        out
    }

    /// The tallies of `stage`, by player index, each made as it is asked
    /// for (no copy of the stage's sums).
    pub fn each_of<'a>(&'a self, stage: &Stage) -> impl Iterator<Item = Tally> + 'a {
        let sums = self.sums(stage);
        let rows = sums.map_or(0, |s| s.rows.len());
        (0..rows).filter_map(move |i| sums?.tally(i))
    }

    /// The index of `stage`'s sums (for [`Tallies::tally_at`]).
    pub fn stage_index(&self, stage: &Stage) -> Option<usize> {
        self.stages.iter().position(|s| &s.stage == stage)
    }

    /// How many player slots stage `s` has (players by index, some
    /// without sums).
    pub fn slots_at(&self, s: usize) -> usize {
        self.stages.get(s).map_or(0, |s| s.rows.len())
    }

    /// The tally of player slot `i` in stage `s`, made from the sums in
    /// place; `None` when the player has none there.
    pub fn tally_at(&self, s: usize, i: usize) -> Option<Tally> {
        self.stages.get(s)?.tally(i)
    }

    /// The tallies of the player slots `slots` in stage `s`, as
    /// [`Tallies::tally_at`] gives each. Their rows are copied first, one
    /// after the other, so that the reads of slots far apart in memory
    /// overlap instead of each waiting for the one before.
    pub fn tallies_at(&self, s: usize, slots: &[u32]) -> Vec<Option<Tally>> {
        let Some(sums) = self.stages.get(s) else {
            return vec![None; slots.len()];
        };
        let rows: Vec<Option<Row>> = slots
            .iter()
            .map(|&i| sums.rows.get(i as usize).copied())
            .collect();
        rows.iter()
            .zip(slots)
            .map(|(r, &i)| sums.tally_of(i as usize, r.as_ref()?))
            .collect()
    }

    /// The stage's tallies, read in place: for ranking a large stage
    /// without a second copy.
    pub fn view<'a>(&'a self, stage: &Stage) -> impl TallySource + Sync + 'a {
        StageView(self.sums(stage))
    }

    /// Whether the player sat at any card.
    pub fn played(&self, player: PlayerId) -> bool {
        self.stages.iter().any(|s| {
            s.rows
                .get(player.index())
                .is_some_and(|r| r.flags() & PRESENT != 0)
        })
    }

    /// The players who sat at any card, by index.
    pub fn players(&self) -> Vec<PlayerId> {
        let top = self.stages.iter().map(|s| s.rows.len()).max().unwrap_or(0);
        (0..top as u32)
            .map(PlayerId)
            .filter(|&p| self.played(p))
            .collect()
    }
}

struct StageView<'a>(Option<&'a StageSums>);

impl TallySource for StageView<'_> {
    fn slots(&self) -> usize {
        self.0.map_or(0, |s| s.rows.len())
    }

    fn tally(&self, i: usize) -> Option<Tally> {
        self.0?.tally(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_and_thirds_stay_exact_and_huge_fractions_too() {
        let mut t = Tallies::default();
        let s = t.stage(&Stage::prelim());
        let p = PlayerId(3);
        let sums = |results: &[(bool, Score, Option<u16>)]| {
            let mut seat = SeatSums::default();
            for &(won, score, tiles) in results {
                seat.add(won, score, tiles);
            }
            seat
        };
        t.add_seat(s, p, 1, &sums(&[(true, Score::whole(30), Some(0))]));
        t.add_seat(
            s,
            p,
            2,
            &sums(&[
                (false, Score::ratio(25, 2), Some(2)),
                (false, Score::ratio(-10, 3), None),
            ]),
        );
        let got = &t.of(&Stage::prelim())[0];
        assert_eq!(got.total, Score::ratio(30 * 6 + 75 - 20, 6));
        assert_eq!(got.best_game, Some(Score::whole(30)));
        assert_eq!(
            (got.games, got.won, got.tiles),
            (3, 1, 2 + KNOCKED_RACK_TILES)
        );
        // a denominator past the units: plain fractions from then on
        let q = PlayerId(0);
        t.add_seat(
            s,
            q,
            3,
            &sums(&[(false, Score::ratio(1, 999_999_937), Some(1))]),
        );
        let all = t.of(&Stage::prelim());
        assert_eq!(all[0].total, Score::ratio(1, 999_999_937));
        assert!(all[0].withdrawn);
        assert_eq!(all[1].total, Score::ratio(235, 6));
        // a sum past 64 bits of units also
        let f = t.stage(&Stage::new("final"));
        let (a, b) = (PlayerId(1), PlayerId(2));
        t.add_seat(f, b, 2, &sums(&[(false, Score::ratio(1, 2), Some(1))]));
        t.add_seat(
            f,
            a,
            1,
            &sums(&[(false, Score::whole(i64::MAX / 2), Some(1))]),
        );
        t.add_seat(
            f,
            a,
            1,
            &sums(&[(false, Score::whole(i64::MAX / 4), Some(1))]),
        );
        let final_ = t.of(&Stage::new("final"));
        assert_eq!(final_[0].total, Score::whole(i64::MAX / 2 + i64::MAX / 4));
        assert_eq!(final_[0].best_game, Some(Score::whole(i64::MAX / 2)));
        assert_eq!(final_[1].total, Score::ratio(1, 2));
    }

    #[test]
    fn a_best_game_past_the_rows_bits_turns_the_sums_exact() {
        let seat = |score: Score| {
            let mut seat = SeatSums::default();
            seat.add(false, score, Some(1));
            seat
        };
        let big = Score::whole(1 << 30);
        let mut t = Tallies::default();
        let s = t.stage(&Stage::prelim());
        t.add_seat(s, PlayerId(0), 1, &seat(Score::whole(-7)));
        t.add_seat(s, PlayerId(1), 2, &seat(big));
        t.add_seat(s, PlayerId(1), 2, &seat(Score::whole(3)));
        let all = t.of(&Stage::prelim());
        assert_eq!(
            (all[0].total, all[0].best_game),
            (Score::whole(-7), Some(Score::whole(-7)))
        );
        assert_eq!(
            (all[1].total, all[1].best_game),
            (big + Score::whole(3), Some(big))
        );
        assert!(!all[0].withdrawn && all[1].withdrawn);
        // a finer unit that takes a best game past them
        let mut t = Tallies::default();
        let s = t.stage(&Stage::prelim());
        let near = Score::whole((1 << 28) + 1);
        t.add_seat(s, PlayerId(0), 1, &seat(near));
        t.add_seat(s, PlayerId(1), 1, &seat(Score::ratio(1, 2)));
        let all = t.of(&Stage::prelim());
        assert_eq!(all[0].best_game, Some(near));
        assert_eq!(all[1].best_game, Some(Score::ratio(1, 2)));
    }

    #[test]
    fn players_of_no_stage_are_absent() {
        let mut t = Tallies::default();
        let s = t.stage(&Stage::prelim());
        t.add_seat(s, PlayerId(5), 3, &SeatSums::default());
        assert!(t.played(PlayerId(5)));
        assert!(!t.played(PlayerId(4)));
        assert_eq!(t.players(), vec![PlayerId(5)]);
        assert!(t.of(&Stage::new("final")).is_empty());
    }

    #[test]
    fn a_whole_total_of_halves_is_counted_in_the_halves() {
        // two shared pots of 1 at one card: a total of 1, a best game of
        // 1/2 (the stage's first halves), and thirds the same way
        let mut t = Tallies::default();
        let s = t.stage(&Stage::prelim());
        let mut seat = SeatSums::default();
        seat.add(false, Score::ratio(1, 2), Some(1));
        seat.add(false, Score::ratio(1, 2), Some(1));
        t.add_seat(s, PlayerId(1), 2, &seat);
        t.add_seat(s, PlayerId(1), 2, &seat);
        let mut thirds = SeatSums::default();
        for _ in 0..3 {
            thirds.add(false, Score::ratio(1, 3), Some(1));
        }
        t.add_seat(s, PlayerId(0), 3, &thirds);
        let all = t.of(&Stage::prelim());
        assert_eq!(
            (all[0].total, all[0].best_game),
            (Score::whole(1), Some(Score::ratio(1, 3)))
        );
        assert_eq!(
            (all[1].total, all[1].best_game),
            (Score::whole(2), Some(Score::ratio(1, 2)))
        );
    }
}
