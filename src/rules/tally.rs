//! RULES.md section 6, the sums: every player's games, wins, score, tiles
//! left and best game in each stage, added up once, as each card is
//! accepted. Every view of the standings ranks these sums
//! ([`super::standings`]); whether the event keeps its cards or was read
//! for its standings only, the sums are made here: a seat's games at one
//! card by [`SeatSums::add`], then the player's by [`Tallies::add_seat`].
//!
//! A million players are kept in 16 bytes each: scores are exact whole
//! multiples of one fraction per stage (`1/den`: whole points, halves when
//! a pot is shared by two, ...), a total in 32 bits of them, a best game
//! in 30, games and wins in 16 bits. Sums that do not fit that way (units
//! finer than 1/2^32, a total past 31 bits of units or a best game past
//! 29, 65,536 games or wins) turn the stage wide: every player's sums kept
//! in full, scores as plain exact fractions.

use crate::domain::{Card, PlayerId, Stage};
use crate::profile::{Rules, Scoring};
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
    /// The best score of a single game: the highest, or the lowest under
    /// penalty points ([`Tallies::new`]).
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
    /// The highest score of one game (none before the first).
    pub highest: Option<Score>,
    /// The lowest score of one game (none before the first): the best
    /// game under penalty points.
    pub lowest: Option<Score>,
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
        self.highest = Some(self.highest.map_or(score, |b| b.max(score)));
        self.lowest = Some(self.lowest.map_or(score, |b| b.min(score)));
    }

    /// The seat's best game: its lowest score when `lowest_is_best`
    /// (penalty points), else its highest.
    pub fn best(&self, lowest_is_best: bool) -> Option<Score> {
        if lowest_is_best {
            self.lowest
        } else {
            self.highest
        }
    }
}

/// The better of two best games (`None`: no game): the lower when
/// `lowest_is_best` (penalty points), else the higher.
pub fn better_game<S: Ord>(a: Option<S>, b: Option<S>, lowest_is_best: bool) -> Option<S> {
    match (a, b) {
        (Some(a), Some(b)) if lowest_is_best => Some(a.min(b)),
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
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
    /// A player's best game is their lowest score (penalty points), not
    /// their highest.
    lowest_is_best: bool,
}

/// One stage's sums, by player index.
#[derive(Clone, Debug)]
struct StageSums {
    stage: Stage,
    /// Scores are counted in units of `1 / den`.
    den: i64,
    rows: Vec<Row>,
    /// Once the sums do not all fit rows (the stage is wide): every
    /// player's sums in full, scores as plain fractions (and the rows keep
    /// their flags only).
    wide: Option<Vec<Wide>>,
    players: usize,
}

const _: () = assert!(std::mem::size_of::<Row>() == 16);

/// A seat was taken at a card of the stage.
const PRESENT: u8 = 1;
/// Fewer games than the card's were played.
const WITHDRAWN: u8 = 2;

/// One player's sums in a stage (16 bytes), scores in units: the best
/// game shares its 32 bits with the flags ([`PRESENT`], [`WITHDRAWN`]).
/// Sums past these fields turn the stage wide ([`Row::keep`]).
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    /// In units.
    total: i32,
    /// The best game shifted left by [`FLAG_BITS`], the flags below it.
    best_flags: i32,
    tiles: u32,
    games: u16,
    won: u16,
}

/// The low bits of [`Row::best_flags`] that are flags.
const FLAG_BITS: u32 = 2;

/// A player's sums in a stage, scores as `S`: units (as `i64`: a
/// [`Row`]'s read out, or new ones before [`Row::keep`] checks that they
/// fit it) or plain fractions ([`Wide`]). Games, wins and tiles are kept
/// at most `u32::MAX` either way.
#[derive(Clone, Copy, Debug, Default)]
struct Sums<S> {
    games: u32,
    won: u32,
    tiles: u32,
    total: S,
    /// The best game (any value before the first game).
    best: S,
}

/// A player's sums once the stage is wide: all of them, whatever their
/// size (made only for a stage past the rows).
type Wide = Sums<Score>;

impl<S: Copy + Ord> Sums<S> {
    /// These sums and a seat's: its games, wins and tiles, and `scores`,
    /// its total and best game as `S` (`None` for a seat of no best game:
    /// the scores left as they are), the totals summed by `add` (`None`
    /// when past what `S` holds), the best game the lower of the two when
    /// `lowest_is_best`.
    fn and_seat(
        self,
        seat: &SeatSums,
        scores: Option<(S, S)>,
        add: impl FnOnce(S, S) -> Option<S>,
        lowest_is_best: bool,
    ) -> Option<Sums<S>> {
        let mut sums = Sums {
            games: self.games.saturating_add(seat.games),
            won: self.won.saturating_add(seat.won),
            tiles: self.tiles.saturating_add(seat.tiles),
            ..self
        };
        if let Some((total, best)) = scores {
            sums.total = add(self.total, total)?;
            let before = (self.games > 0).then_some(self.best);
            sums.best = better_game(before, Some(best), lowest_is_best).unwrap_or(best);
        }
        Some(sums)
    }

    /// The same sums, each score made by `f`.
    fn map<T>(self, f: impl Fn(S) -> T) -> Sums<T> {
        Sums {
            games: self.games,
            won: self.won,
            tiles: self.tiles,
            total: f(self.total),
            best: f(self.best),
        }
    }
}

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

    /// The row's sums, scores in units.
    fn sums(&self) -> Sums<i64> {
        Sums {
            games: self.games.into(),
            won: self.won.into(),
            tiles: self.tiles,
            total: self.total.into(),
            best: self.best(),
        }
    }

    /// Keeps `sums` (scores in units) when they fit the row: a total in
    /// 32 bits, a best game in 30 ([`Row::fits_best`]), games and wins in
    /// 16. Whether they did (if not, the row is left as it was).
    fn keep(&mut self, sums: &Sums<i64>) -> bool {
        let (Ok(total), Ok(games), Ok(won)) = (
            i32::try_from(sums.total),
            u16::try_from(sums.games),
            u16::try_from(sums.won),
        ) else {
            return false;
        };
        if !Row::fits_best(sums.best) {
            return false;
        }
        (self.total, self.tiles, self.games, self.won) = (total, sums.tiles, games, won);
        self.set_best(sums.best);
        true
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
            wide: None,
            players: 0,
        }
    }

    fn row(&mut self, player: PlayerId) -> &mut Row {
        let i = player.index();
        if i >= self.rows.len() {
            self.rows.resize(i + 1, Row::default());
            if let Some(wide) = &mut self.wide {
                wide.resize(i + 1, Wide::default());
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
    /// row's sums made in the finer ones), or the stage wide when they, or
    /// a row's total or best game in them, do not fit.
    fn finer(&mut self, d: i64) {
        // (whole points, most games' scores, first: no division)
        if d == 1 || self.wide.is_some() || self.den % d == 0 {
            return;
        }
        let g = num_integer_gcd(self.den, d);
        let by = (self.den / g)
            .checked_mul(d)
            .filter(|&den| den <= MAX_DEN)
            .map(|den| den / self.den);
        // (checked for every row before any is changed, with no copy of
        // the rows: two passes)
        let scaled = |r: &Row, by: i64| {
            let total = i64::from(r.total).checked_mul(by)?;
            let best = r.best().checked_mul(by).filter(|&b| Row::fits_best(b))?;
            Some((i32::try_from(total).ok()?, best))
        };
        match by {
            Some(by) if self.rows.iter().all(|r| scaled(r, by).is_some()) => {
                for r in &mut self.rows {
                    let (total, best) = scaled(r, by).expect("checked above");
                    r.total = total;
                    r.set_best(best);
                }
                self.den *= by;
            }
            _ => self.make_wide(),
        }
    }

    /// `score` in units of `1 / den` (made fine enough for it first:
    /// [`StageSums::finer`]); `None` once the stage is wide.
    fn units(&mut self, score: Score) -> Option<i64> {
        if self.wide.is_some() {
            return None;
        }
        let d = score.denom();
        debug_assert_eq!(self.den % d, 0);
        let per = if d == 1 { self.den } else { self.den / d };
        self.checked_units(score.numer().checked_mul(per))
    }

    /// `units`, or the stage wide from now on when they did not fit.
    fn checked_units(&mut self, units: Option<i64>) -> Option<i64> {
        if units.is_none() {
            self.make_wide();
        }
        units
    }

    /// Turns the stage wide: every row's sums copied into a [`Wide`], the
    /// rows keeping their flags only.
    fn make_wide(&mut self) {
        debug_assert!(self.wide.is_none());
        let den = self.den;
        let wide = self.rows.iter_mut().map(|r| {
            let sums = r.sums().map(|units| Score::ratio(units, den));
            *r = Row {
                best_flags: i32::from(r.flags()),
                ..Row::default()
            };
            sums
        });
        self.wide = Some(wide.collect());
    }

    fn tally(&self, i: usize) -> Option<Tally> {
        self.tally_of(i, self.rows.get(i)?)
    }

    /// The tally of player slot `i`, whose row is `r`.
    fn tally_of(&self, i: usize, r: &Row) -> Option<Tally> {
        if r.flags() & PRESENT == 0 {
            return None;
        }
        let sums = match &self.wide {
            Some(wide) => wide[i],
            None => r.sums().map(|units| Score::ratio(units, self.den)),
        };
        Some(Tally {
            player: PlayerId(i as u32),
            games: sums.games,
            won: sums.won,
            total: sums.total,
            tiles: sums.tiles,
            withdrawn: r.flags() & WITHDRAWN != 0,
            best_game: (sums.games > 0).then_some(sums.best),
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
    /// No sums yet, of an event played under `rules`: a player's best game
    /// is their highest score, or their lowest under penalty points
    /// (RULES.md section 6).
    pub fn new(rules: &Rules) -> Tallies {
        Tallies {
            stages: Vec::new(),
            lowest_is_best: rules.scoring == Scoring::PenaltyPoints,
        }
    }

    /// Whether a player's best game is their lowest score (penalty points).
    pub fn lowest_is_best(&self) -> bool {
        self.lowest_is_best
    }

    /// The sums of every card of `cards`.
    pub fn of_cards<'a>(cards: impl IntoIterator<Item = &'a Card>, rules: &Rules) -> Tallies {
        let mut t = Tallies::new(rules);
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
        // (units fine enough for both scores before either is counted in
        // them: made finer for the best game, they would leave the total
        // counted in the coarser ones, and two halves summed to a half)
        let lowest_is_best = self.lowest_is_best;
        let seat_best = seat.best(lowest_is_best);
        let sums = &mut self.stages[s];
        sums.finer(seat.total.denom());
        if let Some(b) = seat_best {
            sums.finer(b.denom());
        }
        let total = sums.units(seat.total);
        let best = seat_best.and_then(|b| sums.units(b));
        let i = player.index();
        let row = sums.row(player);
        if (seat.games as usize) < games {
            row.set_flag(WITHDRAWN);
        }
        if seat.games == 0 {
            return;
        }
        if sums.wide.is_none() {
            // in units (both scores counted in them while the stage is
            // not wide), kept in the row when they fit it
            let row = &mut sums.rows[i];
            let sum = row
                .sums()
                .and_seat(seat, total.zip(best), i64::checked_add, lowest_is_best);
            if sum.is_some_and(|sum| row.keep(&sum)) {
                return;
            }
            sums.make_wide();
        }
        // the same sum, made in the player's wide sums
        let wide = sums.wide.as_mut().expect("made wide above");
        let scores = seat_best.map(|best| (seat.total, best));
        wide[i] = wide[i]
            .and_seat(seat, scores, |a, b| Some(a + b), lowest_is_best)
            .expect("fractions are summed with no limit");
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

    /// The sums of one seat's games (won, score, tiles left).
    fn seat_of(games: &[(bool, Score, Option<u16>)]) -> SeatSums {
        let mut seat = SeatSums::default();
        for &(won, score, tiles) in games {
            seat.add(won, score, tiles);
        }
        seat
    }

    #[test]
    fn the_best_game_is_the_lowest_under_penalty_points() {
        let games = [
            (false, Score::whole(44), Some(4)),
            (true, Score::ZERO, Some(0)),
        ];
        let later = [(false, Score::whole(7), Some(1))];
        for (profile, best) in [("gwinnett", 0), ("hk", 44)] {
            let rules = crate::profile::by_name(profile).unwrap();
            let mut t = Tallies::new(&rules);
            let s = t.stage(&Stage::prelim());
            t.add_seat(s, PlayerId(0), 2, &seat_of(&games));
            t.add_seat(s, PlayerId(0), 1, &seat_of(&later));
            assert_eq!(
                t.of(&Stage::prelim())[0].best_game,
                Some(Score::whole(best)),
                "{profile}"
            );
        }
        assert_eq!(better_game(Some(3), None, true), Some(3));
        assert_eq!(better_game(None, Some(3), false), Some(3));
        assert_eq!(better_game(Some(3), Some(-2), true), Some(-2));
        assert_eq!(better_game(Some(3), Some(-2), false), Some(3));
    }

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

    #[test]
    fn games_and_wins_past_16_bits_turn_the_stage_wide_and_stay_exact() {
        let prelim = Stage::prelim();
        let mut t = Tallies::default();
        let s = t.stage(&prelim);
        // a player of two games (a shared pot among them: halves), one of
        // 80,000 (72,000 won), one who comes after the stage turned wide
        let (few, many, late) = (PlayerId(0), PlayerId(2), PlayerId(5));
        let half = Score::ratio(5, 2);
        t.add_seat(
            s,
            few,
            2,
            &seat_of(&[(true, half, Some(0)), (false, Score::whole(-4), None)]),
        );
        let (mut games, mut won, mut tiles, mut total, mut best) = (0u32, 0u32, 0u32, 0i64, 0i64);
        for n in 0..20_000u32 {
            let mut seat = SeatSums::default();
            for g in n * 4..n * 4 + 4 {
                let score = if g == 70_001 {
                    77
                } else {
                    i64::from(g % 11) - 4
                };
                seat.add(g % 10 != 0, Score::whole(score), Some((g % 5) as u16));
                (games, won, tiles, total) = (
                    games + 1,
                    won + u32::from(g % 10 != 0),
                    tiles + g % 5,
                    total + score,
                );
                best = if g == 0 { score } else { best.max(score) };
            }
            t.add_seat(s, many, 4, &seat);
            assert_eq!(t.stages[s].wide.is_some(), games > 65_535);
        }
        assert!(won > 65_535 && best == 77);
        t.add_seat(
            s,
            late,
            3,
            &seat_of(&[
                (true, Score::ratio(1, 3), Some(2)),
                (false, Score::whole(1), Some(1)),
            ]),
        );
        let tally = |player, games, won, total, tiles, best, withdrawn| Tally {
            player,
            games,
            won,
            total,
            tiles,
            withdrawn,
            best_game: Some(best),
        };
        let want = vec![
            tally(
                few,
                2,
                1,
                half - Score::whole(4),
                KNOCKED_RACK_TILES,
                half,
                false,
            ),
            tally(
                many,
                games,
                won,
                Score::whole(total),
                tiles,
                Score::whole(best),
                false,
            ),
            tally(late, 2, 1, Score::ratio(4, 3), 3, Score::whole(1), true),
        ];
        assert_eq!((games, won, tiles), (80_000, 72_000, 160_000));
        assert_eq!(t.of(&prelim), want);
        assert_eq!(
            t.tallies_at(s, &[5, 1, 2, 0]),
            vec![
                Some(want[2].clone()),
                None,
                Some(want[1].clone()),
                Some(want[0].clone())
            ]
        );
        assert_eq!(t.view(&prelim).tally(2), Some(want[1].clone()));
        assert_eq!((t.players(), t.count(&prelim)), (vec![few, many, late], 3));
        // more wins than games (a seat made by hand) turn it wide too
        let semi = t.stage(&Stage::new("semi"));
        let odd = SeatSums {
            games: 2,
            won: 40_000,
            total: Score::whole(3),
            tiles: 1,
            highest: Some(Score::whole(2)),
            lowest: Some(Score::whole(2)),
        };
        t.add_seat(semi, late, 2, &odd);
        t.add_seat(semi, late, 2, &odd);
        assert!(t.stages[semi].wide.is_some());
        let got = &t.of(&Stage::new("semi"))[0];
        assert_eq!(
            (got.games, got.won, got.tiles, got.total),
            (4, 80_000, 2, Score::whole(6))
        );
        // games, wins and tiles are kept at most u32::MAX, as they were
        let f = t.stage(&Stage::new("final"));
        let huge = SeatSums {
            games: u32::MAX - 1,
            won: u32::MAX - 1,
            total: Score::whole(3),
            tiles: u32::MAX - 1,
            highest: Some(Score::whole(3)),
            lowest: Some(Score::whole(3)),
        };
        t.add_seat(f, few, 1, &huge);
        t.add_seat(f, few, 1, &huge);
        let got = &t.of(&Stage::new("final"))[0];
        assert_eq!(
            (got.games, got.won, got.tiles, got.total),
            (u32::MAX, u32::MAX, u32::MAX, Score::whole(6))
        );
    }

    #[test]
    fn a_total_past_32_bits_of_units_turns_the_stage_wide_and_stays_exact() {
        let prelim = Stage::prelim();
        let step = 1i64 << 28;
        let one = |score: i64| seat_of(&[(false, Score::whole(score), Some(1))]);
        let mut t = Tallies::default();
        let s = t.stage(&prelim);
        // -2^31 units just fit a row, 2^31 do not
        for _ in 0..8 {
            t.add_seat(s, PlayerId(0), 1, &one(-step));
        }
        assert!(t.stages[s].wide.is_none());
        for n in 1..=8 {
            t.add_seat(s, PlayerId(1), 1, &one(step));
            assert_eq!(t.stages[s].wide.is_some(), n == 8);
        }
        t.add_seat(s, PlayerId(1), 1, &one(5));
        t.add_seat(
            s,
            PlayerId(2),
            1,
            &seat_of(&[(true, Score::ratio(7, 2), None)]),
        );
        let all = t.of(&prelim);
        assert_eq!(
            (all[0].total, all[0].best_game, all[0].games, all[0].tiles),
            (Score::whole(-8 * step), Some(Score::whole(-step)), 8, 8)
        );
        assert_eq!(
            (all[1].total, all[1].best_game, all[1].games, all[1].tiles),
            (Score::whole(8 * step + 5), Some(Score::whole(step)), 9, 9)
        );
        assert_eq!(
            (all[2].total, all[2].best_game, all[2].won, all[2].tiles),
            (
                Score::ratio(7, 2),
                Some(Score::ratio(7, 2)),
                1,
                KNOCKED_RACK_TILES
            )
        );
        // one seat's sum of 2^31 (of games that each fit) likewise
        let f = t.stage(&Stage::new("final"));
        t.add_seat(
            f,
            PlayerId(3),
            8,
            &seat_of(&[(true, Score::whole(step), Some(2)); 8]),
        );
        assert!(t.stages[f].wide.is_some());
        let got = &t.of(&Stage::new("final"))[0];
        assert_eq!(
            (
                got.player,
                got.total,
                got.best_game,
                got.games,
                got.won,
                got.tiles
            ),
            (
                PlayerId(3),
                Score::whole(8 * step),
                Some(Score::whole(step)),
                8,
                8,
                16
            )
        );
    }

    #[test]
    fn finer_units_that_take_a_total_past_32_bits_turn_the_stage_wide() {
        let step = 1i64 << 25;
        let one = |score: Score| seat_of(&[(false, score, Some(1))]);
        let whole = |n: i64| one(Score::whole(n));
        // 2^30 - 1 points: in halves (2^31 - 2) they fit a row, in sixths
        // not (the best game, 2^25 points, fits in either)
        let prelim = Stage::prelim();
        let mut t = Tallies::default();
        let s = t.stage(&prelim);
        for _ in 0..31 {
            t.add_seat(s, PlayerId(0), 1, &whole(step));
        }
        t.add_seat(s, PlayerId(0), 1, &whole(step - 1));
        t.add_seat(s, PlayerId(1), 1, &whole(100));
        t.add_seat(s, PlayerId(4), 1, &one(Score::ratio(1, 2)));
        assert!(t.stages[s].wide.is_none() && t.stages[s].den == 2);
        t.add_seat(s, PlayerId(1), 1, &one(Score::ratio(1, 3)));
        assert!(t.stages[s].wide.is_some());
        t.add_seat(s, PlayerId(0), 1, &one(Score::ratio(1, 3)));
        let all = t.of(&prelim);
        let p0 = (1i64 << 30) - 1;
        assert_eq!(
            (all[0].total, all[0].best_game, all[0].games),
            (Score::ratio(3 * p0 + 1, 3), Some(Score::whole(step)), 33)
        );
        assert_eq!(
            (all[1].total, all[1].best_game, all[1].games),
            (Score::ratio(301, 3), Some(Score::whole(100)), 2)
        );
        assert_eq!(
            (all[2].player, all[2].total, all[2].best_game),
            (PlayerId(4), Score::ratio(1, 2), Some(Score::ratio(1, 2)))
        );
        // 2^30 + 3 whole points, then a half: 2^31 + 6 halves
        let f = Stage::new("final");
        let mut t = Tallies::default();
        let s = t.stage(&f);
        for _ in 0..32 {
            t.add_seat(s, PlayerId(0), 1, &whole(step));
        }
        t.add_seat(s, PlayerId(0), 1, &whole(3));
        t.add_seat(s, PlayerId(1), 1, &whole(-100));
        assert!(t.stages[s].wide.is_none());
        t.add_seat(s, PlayerId(2), 1, &one(Score::ratio(-1, 2)));
        assert!(t.stages[s].wide.is_some());
        let all = t.of(&f);
        assert_eq!(
            (all[0].total, all[0].best_game, all[0].games, all[0].tiles),
            (
                Score::whole((1 << 30) + 3),
                Some(Score::whole(step)),
                33,
                33
            )
        );
        assert_eq!(
            (all[1].total, all[2].total, all[2].best_game),
            (
                Score::whole(-100),
                Score::ratio(-1, 2),
                Some(Score::ratio(-1, 2))
            )
        );
    }

    proptest::proptest! {
        /// Whatever the seats, in whatever order, the sums are those of
        /// plain exact arithmetic: scores whole, halves and thirds (what
        /// cards hold), near the rows' 30 and 32 bits and past them, so
        /// that a stage stays in units, is made finer, or turns wide, at
        /// any point (a unit too fine to keep: the tests above).
        #[test]
        fn the_sums_are_plain_exact_arithmetic(
            seats in proptest::collection::vec(
                (
                    0u32..5,
                    proptest::collection::vec(
                        (
                            proptest::bool::ANY,
                            proptest::sample::select(vec![
                                (7i64, 1i64), (-12, 1), (0, 1), (30, 1), (11, 2), (-23, 2),
                                (10, 3), (-41, 3), (1 << 29, 1), (-(1 << 29), 1),
                                ((1 << 30) + 3, 1), (i64::from(i32::MAX), 1),
                                (i64::from(i32::MIN) - 1, 1),
                            ]),
                            proptest::option::of(0u16..30),
                        ),
                        0..4,
                    ),
                ),
                1..40,
            )
        ) {
            let mut t = Tallies::default();
            let s = t.stage(&Stage::prelim());
            // the plain sums, as the tallies they should be
            let mut plain: std::collections::BTreeMap<u32, Tally> = Default::default();
            for (player, games) in &seats {
                let seat = seat_of(
                    &games
                        .iter()
                        .map(|&(won, (n, d), tiles)| (won, Score::ratio(n, d), tiles))
                        .collect::<Vec<_>>(),
                );
                t.add_seat(s, PlayerId(*player), 3, &seat);
                let p = plain.entry(*player).or_insert_with(|| Tally::new(PlayerId(*player)));
                for &(won, (n, d), tiles) in games {
                    let score = Score::ratio(n, d);
                    p.games += 1;
                    p.won += u32::from(won);
                    p.tiles += tiles.map_or(KNOCKED_RACK_TILES, u32::from);
                    p.total += score;
                    p.best_game = Some(p.best_game.map_or(score, |b| b.max(score)));
                }
                p.withdrawn |= games.len() < 3;
            }
            let plain: Vec<Tally> = plain.into_values().collect();
            proptest::prop_assert_eq!(t.of(&Stage::prelim()), plain);
        }
    }
}
