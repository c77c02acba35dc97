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
use std::sync::Arc;

pub use super::tally::{Tallies, Tally, TallySource, KNOCKED_RACK_TILES};

/// From this many players, ranking shows its progress.
const PROGRESS_FROM: usize = 100_000;

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

/// Adds up the games of `stage` per player ([`Tallies`]).
pub fn tally(cards: &[Card], stage: &Stage, rules: &Rules) -> Vec<Tally> {
    Tallies::of_cards(cards.iter().filter(|c| &c.key.stage == stage), rules).of(stage)
}

/// Why a player is listed apart from the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Apart {
    Withdrawn,
    Disqualified,
}

/// Where the entries of a standings find their players' sums: a stage of
/// the event's book of sums, read in place (no copy of a million players'
/// sums beside the standings), or tallies of its own (sums carried over
/// from a stage before, an age group, the few players of a top).
#[derive(Debug)]
pub enum Book {
    /// Stage `.1` of the book: a player's slot is their index.
    Stage(Arc<Tallies>, usize),
    Own(Vec<Tally>),
}

impl Book {
    fn slots(&self) -> usize {
        match self {
            Book::Stage(t, s) => t.slots_at(*s),
            Book::Own(v) => v.len(),
        }
    }

    fn get(&self, slot: usize) -> Option<Tally> {
        match self {
            Book::Stage(t, s) => t.tally_at(*s, slot),
            Book::Own(v) => v.get(slot).cloned(),
        }
    }

    fn player(&self, slot: u32) -> PlayerId {
        match self {
            Book::Stage(..) => PlayerId(slot),
            Book::Own(v) => v.get(slot as usize).map_or(PlayerId(slot), |t| t.player),
        }
    }

    /// The sums of the player in `slot` (no games when there are none).
    fn tally(&self, slot: u32) -> Tally {
        self.get(slot as usize)
            .unwrap_or_else(|| Tally::new(self.player(slot)))
    }

    /// [`Book::tally`] of each of `slots`, read together.
    fn tallies(&self, slots: &[u32]) -> Vec<Tally> {
        match self {
            Book::Stage(t, s) => t
                .tallies_at(*s, slots)
                .into_iter()
                .zip(slots)
                .map(|(t, &slot)| t.unwrap_or_else(|| Tally::new(PlayerId(slot))))
                .collect(),
            Book::Own(_) => slots.iter().map(|&slot| self.tally(slot)).collect(),
        }
    }
}

/// One player of a standings: where their sums are in the standings' book
/// (not a copy of them), their rank, and why they are listed apart.
#[derive(Clone)]
pub struct Entry {
    book: Arc<Book>,
    slot: u32,
    /// 1-based; `None` for players listed apart.
    pub rank: Option<u32>,
    /// Another player has the same rank.
    pub shared: bool,
    pub apart: Option<Apart>,
}

impl Entry {
    fn new(book: &Arc<Book>, slot: usize, apart: Option<Apart>) -> Entry {
        Entry {
            book: Arc::clone(book),
            slot: slot as u32,
            rank: None,
            shared: false,
            apart,
        }
    }

    /// The player's sums, made from the book.
    pub fn tally(&self) -> Tally {
        self.book.tally(self.slot)
    }

    pub fn player(&self) -> PlayerId {
        self.book.player(self.slot)
    }
}

/// The sums of each of `entries`, as [`Entry::tally`] gives them, read
/// together: the reads of players far apart in the book overlap (the
/// entries of a standings are in ranking order, their sums by player).
pub fn tallies(entries: &[Entry]) -> Vec<Tally> {
    match entries.first() {
        Some(first) if entries.iter().all(|e| Arc::ptr_eq(&e.book, &first.book)) => {
            let slots: Vec<u32> = entries.iter().map(|e| e.slot).collect();
            first.book.tallies(&slots)
        }
        _ => entries.iter().map(Entry::tally).collect(),
    }
}

/// Two entries are equal when what they say is (whichever book holds the
/// sums).
impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        (self.rank, self.shared, self.apart) == (other.rank, other.shared, other.apart)
            && self.tally() == other.tally()
    }
}

impl Eq for Entry {}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("tally", &self.tally())
            .field("rank", &self.rank)
            .field("shared", &self.shared)
            .field("apart", &self.apart)
            .finish()
    }
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
pub fn rank(
    tallies: impl IntoIterator<Item = Tally>,
    stage: &Stage,
    order: Vec<SortKey>,
    roster: &Roster,
) -> Standings {
    let book = Arc::new(Book::Own(tallies.into_iter().collect()));
    rank_book(book, |_| true, stage, order, roster)
}

/// Ranks stage `stage` of the book of sums `tallies` in place, the players
/// `keep` keeps: the entries point into the book.
pub fn rank_in(
    tallies: &Arc<Tallies>,
    keep: impl Fn(&Tally) -> bool,
    stage: &Stage,
    order: Vec<SortKey>,
    roster: &Roster,
) -> Standings {
    let book = match tallies.stage_index(stage) {
        Some(s) => Book::Stage(Arc::clone(tallies), s),
        None => Book::Own(Vec::new()),
    };
    rank_book(Arc::new(book), keep, stage, order, roster)
}

fn rank_book(
    book: Arc<Book>,
    keep: impl Fn(&Tally) -> bool,
    stage: &Stage,
    order: Vec<SortKey>,
    roster: &Roster,
) -> Standings {
    // (at most this many: the players with sums)
    let players = book.slots();
    // a spinner on a terminal while a large stage is ranked (shown only
    // when it takes a while)
    let _progress = (players >= PROGRESS_FROM).then(|| {
        crate::report::progress::Progress::spinner(format!(
            "Ranking {players} players of the {stage} stage"
        ))
    });
    // the players to rank by their slot only (4 bytes each): their
    // entries are made once they are in ranking order
    let mut ranked = Vec::with_capacity(players);
    let mut apart = Vec::new();
    for slot in 0..players {
        let Some(t) = book.get(slot).filter(|t| keep(t)) else {
            continue;
        };
        match apart_reason(&t, roster) {
            Some(why) => apart.push(Entry::new(&book, slot, Some(why))),
            None => ranked.push(slot as u32),
        }
    }
    finish_ranking(book, ranked, apart, stage, order, roster)
}

/// Why a player is not ranked, if they are not.
fn apart_reason(t: &Tally, roster: &Roster) -> Option<Apart> {
    match roster.status(t.player) {
        Status::Disqualified => Some(Apart::Disqualified),
        Status::Withdrawn => Some(Apart::Withdrawn),
        Status::Active if t.withdrawn => Some(Apart::Withdrawn),
        Status::Active => None,
    }
}

/// Ranks the players of the book's slots `ranked`: their entries in
/// ranking order with their ranks, and the entries apart by id.
fn finish_ranking(
    book: Arc<Book>,
    ranked: Vec<u32>,
    mut apart: Vec<Entry>,
    stage: &Stage,
    order: Vec<SortKey>,
    roster: &Roster,
) -> Standings {
    let mut entries: Vec<Entry> = Vec::new();
    let mut rank = 0;
    let players = ranked.len();
    ranking_order(&book, ranked, &order, roster, |slot, tied| {
        let i = entries.len();
        if i == 0 {
            // the room for all of them at once (no copies left behind as
            // it grows), once the keys are sorted and the slots gone
            entries.reserve_exact(players);
        }
        if tied {
            entries[i - 1].shared = true;
        } else {
            rank = i as u32 + 1;
        }
        entries.push(Entry {
            book: Arc::clone(&book),
            slot,
            rank: Some(rank),
            shared: tied,
            apart: None,
        });
    });
    apart.sort_by(|a, b| roster.id(a.player()).cmp(roster.id(b.player())));
    Standings {
        stage: stage.clone(),
        order,
        ranked: entries,
        apart,
    }
}

/// The ranking of the book's slots `slots`: `each` is given the slots,
/// best first, each with whether it ties the one before on every key.
/// Ties are listed by roster id.
///
/// The keys are exact fractions. When every value of a key is a whole
/// multiple of one common fraction and all of them fit in 128 bits, each
/// player's keys are packed into one integer (the common case: a million
/// players sort in a fraction of a second); else the fractions are
/// compared by cross-multiplying. Packed, the keys are all that is held
/// while sorting (not the slots as well), and the order is handed on as
/// it is read (no list of it is made).
fn ranking_order(
    book: &Book,
    slots: Vec<u32>,
    order: &[SortKey],
    roster: &Roster,
    mut each: impl FnMut(u32, bool),
) {
    let id = |slot: u32| roster.id(book.player(slot));
    let keys = order.len().min(Key::ALL.len());
    let values = |slot: u32| key_values(&book.tally(slot), &order[..keys]);
    let packing = Packing::of(slots.len(), keys, &|i| values(slots[i]));
    if let Some(packing) = packing.as_ref().filter(|p| p.bits() <= 32) {
        // the key, the first 8 bytes of the id and the slot in one
        // integer: a million players sort as plain numbers
        let item = |slot: u32| {
            let key = packing.key(&values(slot));
            key << 96 | u128::from(id_prefix(id(slot))) << 32 | u128::from(slot)
        };
        let mut items = vec![0u128; slots.len()];
        let fill = |items: &mut [u128], slots: &[u32]| {
            for (item_of, &slot) in items.iter_mut().zip(slots) {
                *item_of = item(slot);
            }
            items.sort_unstable();
        };
        if slots.len() >= SORTED_IN_HALVES_FROM {
            // each half made and sorted on a thread of its own, then the
            // two merged (a sort that finds two sorted runs merges them)
            let half = slots.len() / 2;
            let (a, b) = items.split_at_mut(half);
            std::thread::scope(|scope| {
                scope.spawn(|| fill(b, &slots[half..]));
                fill(a, &slots[..half]);
            });
            items.sort();
        } else {
            fill(&mut items, &slots);
        }
        drop(slots);
        // players of one key whose ids begin with the same 8 bytes: by id
        for run in items.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
            if run.len() > 1 {
                run.sort_by(|a, b| id(*a as u32).cmp(id(*b as u32)));
            }
        }
        let ranked = Ranked::of(items.len(), |i| {
            (
                items[i] as u32,
                i > 0 && items[i - 1] >> 96 == items[i] >> 96,
            )
        });
        drop(items);
        ranked.hand_on(each);
    } else if let Some(packing) = &packing {
        let mut items: Vec<(u128, u64, u32)> = slots
            .iter()
            .map(|&slot| (packing.key(&values(slot)), id_prefix(id(slot)), slot))
            .collect();
        drop(slots);
        items.sort_unstable_by(|a, b| {
            (a.0, a.1)
                .cmp(&(b.0, b.1))
                .then_with(|| id(a.2).cmp(id(b.2)))
        });
        let ranked = Ranked::of(items.len(), |i| {
            (items[i].2, i > 0 && items[i - 1].0 == items[i].0)
        });
        drop(items);
        ranked.hand_on(each);
    } else {
        let values: Vec<SortValues> = slots
            .iter()
            .map(|&slot| key_values(&book.tally(slot), order))
            .collect();
        let mut by_rank: Vec<u32> = (0..slots.len() as u32).collect();
        by_rank.sort_unstable_by(|&a, &b| {
            values[a as usize]
                .cmp(&values[b as usize])
                .then_with(|| id(slots[a as usize]).cmp(id(slots[b as usize])))
        });
        for (i, &k) in by_rank.iter().enumerate() {
            let tied = i > 0 && values[by_rank[i - 1] as usize] == values[k as usize];
            each(slots[k as usize], tied);
        }
    }
}

/// From this many players, a ranking's keys are made and sorted in two
/// halves at once (a million players: a twentieth of a second less).
const SORTED_IN_HALVES_FROM: usize = 1 << 16;

/// A ranking as it is handed on: the slots, best first, and for each a bit
/// that says whether it ties the one before. 4 bytes a player: the items
/// sorted (16 bytes or more each) are gone before the entries of the
/// standings are made, not held beside them.
struct Ranked {
    slots: Vec<u32>,
    tied: Vec<u64>,
}

impl Ranked {
    /// The ranking of `len` players, `item(i)` being the slot of the
    /// `i`th and whether it ties the one before.
    fn of(len: usize, item: impl Fn(usize) -> (u32, bool)) -> Ranked {
        let mut ranked = Ranked {
            slots: Vec::with_capacity(len),
            tied: vec![0; len.div_ceil(64)],
        };
        for i in 0..len {
            let (slot, tied) = item(i);
            ranked.slots.push(slot);
            ranked.tied[i / 64] |= u64::from(tied) << (i % 64);
        }
        ranked
    }

    /// Gives `each` the slots in order, each with whether it ties the one
    /// before.
    fn hand_on(self, mut each: impl FnMut(u32, bool)) {
        for (i, slot) in self.slots.into_iter().enumerate() {
            each(slot, self.tied[i / 64] >> (i % 64) & 1 == 1);
        }
    }
}

/// The first 8 bytes of an id, as a number that sorts as the bytes do.
fn id_prefix(id: &str) -> u64 {
    let mut b = [0u8; 8];
    let n = id.len().min(8);
    b[..n].copy_from_slice(&id.as_bytes()[..n]);
    u64::from_be_bytes(b)
}

/// Each player's first `keys` values packed into one integer that sorts
/// as the values do; `None` when they do not fit.
#[cfg(test)]
fn pack(
    len: usize,
    keys: usize,
    value: impl Fn(usize, usize) -> Fraction + Sync,
) -> Option<Vec<u128>> {
    let values = |i: usize| {
        let mut v = SortValues::default();
        for (k, slot) in v.0.iter_mut().enumerate().take(keys) {
            *slot = value(i, k);
        }
        v
    };
    let packing = Packing::of(len, keys, &values)?;
    Some((0..len).map(|i| packing.key(&values(i))).collect())
}

/// How keys pack into one integer: per key, the common denominator, the
/// smallest value and the bits it takes.
struct Packing {
    columns: Vec<(i128, i128, u32)>,
}

impl Packing {
    /// The packing of the first `keys` values of the items `0..len` (read
    /// once; from [`SORTED_IN_HALVES_FROM`] items, in two halves at once);
    /// `None` when they do not fit in 128 bits.
    fn of(
        len: usize,
        keys: usize,
        values: &(impl Fn(usize) -> SortValues + Sync),
    ) -> Option<Packing> {
        let bounds = if len >= SORTED_IN_HALVES_FROM {
            let half = len / 2;
            let (a, b) = std::thread::scope(|scope| {
                let b = scope.spawn(|| Bounds::of(half..len, keys, values));
                (Bounds::of(0..half, keys, values), b.join())
            });
            // (a panic in the other half: the same panic here)
            let b = b.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            a?.and(b?)?
        } else {
            Bounds::of(0..len, keys, values)?
        };
        Packing::within(bounds)
    }

    /// The packing of values within `bounds`; `None` when they do not fit
    /// in 128 bits.
    fn within(Bounds { lcms, range }: Bounds) -> Option<Packing> {
        let columns = lcms
            .into_iter()
            .zip(range)
            .map(|(lcm, range)| {
                let Some((min, max)) = range else {
                    return Some((lcm, 0, 0));
                };
                let min = min.n.checked_mul(per(lcm, min.d))?;
                let max = max.n.checked_mul(per(lcm, max.d))?;
                let span = max.checked_sub(min)?;
                Some((lcm, min, 128 - (span as u128).leading_zeros()))
            })
            .collect::<Option<Vec<(i128, i128, u32)>>>()?;
        let packing = Packing { columns };
        (packing.bits() <= 128).then_some(packing)
    }

    /// How many bits a packed key takes.
    fn bits(&self) -> u32 {
        self.columns.iter().map(|c| c.2).sum()
    }

    /// One item's packed key.
    fn key(&self, v: &SortValues) -> u128 {
        self.columns
            .iter()
            .zip(&v.0)
            .fold(0u128, |acc, (&(lcm, min, bits), f)| {
                let x = f.n * per(lcm, f.d) - min;
                match bits {
                    0 => acc,
                    128 => x as u128,
                    _ => (acc << bits) | x as u128,
                }
            })
    }
}

/// What a packing is made from, per key: the common denominator of the
/// values and their smallest and largest (`None`: no values).
struct Bounds {
    lcms: Vec<i128>,
    range: Vec<Option<(Fraction, Fraction)>>,
}

impl Bounds {
    /// The bounds of the first `keys` values of the items `items`; `None`
    /// when their common denominator passes 2^62.
    fn of(
        items: std::ops::Range<usize>,
        keys: usize,
        values: &impl Fn(usize) -> SortValues,
    ) -> Option<Bounds> {
        let mut bounds = Bounds {
            lcms: vec![1; keys],
            // every value lies between the smallest and the largest, in
            // the common units too
            range: vec![None; keys],
        };
        for i in items {
            let v = values(i);
            for (k, f) in v.0.iter().enumerate().take(keys) {
                bounds.add(k, f)?;
            }
        }
        Some(bounds)
    }

    /// Takes in value `f` of key `k`; `None` when the common denominator
    /// passes 2^62.
    #[inline]
    fn add(&mut self, k: usize, f: &Fraction) -> Option<()> {
        self.add_denominator(k, f.d)?;
        let range = &mut self.range[k];
        *range = Some(match *range {
            None => (*f, *f),
            Some((min, max)) => (min.min(*f), max.max(*f)),
        });
        Some(())
    }

    /// Takes denominator `d` of key `k` into its common denominator;
    /// `None` when that passes 2^62.
    #[inline]
    fn add_denominator(&mut self, k: usize, d: i128) -> Option<()> {
        let lcm = &mut self.lcms[k];
        if d != 1 && d != *lcm && *lcm % d != 0 {
            *lcm = lcm.checked_mul(d / gcd(*lcm, d))?;
            if *lcm > 1 << 62 {
                return None;
            }
        }
        Some(())
    }

    /// The bounds of the values of both (the common denominator only
    /// grows as values are taken in: it passes 2^62 in the two together
    /// exactly when it does taking in the values one at a time).
    fn and(mut self, other: Bounds) -> Option<Bounds> {
        for (k, (lcm, range)) in other.lcms.into_iter().zip(other.range).enumerate() {
            self.add_denominator(k, lcm)?;
            if let Some((min, max)) = range {
                self.add(k, &min)?;
                self.add(k, &max)?;
            }
        }
        Some(self)
    }
}

/// `lcm / d`, without dividing in the common cases.
fn per(lcm: i128, d: i128) -> i128 {
    if d == lcm {
        1
    } else if d == 1 {
        lcm
    } else {
        lcm / d
    }
}

/// The standings down to the `n`th ranked player and everyone tied with
/// them, without ranking the rest: what a qualifier list needs of a large
/// stage. The entries, their ranks and their order are those of [`rank`]
/// (tested); `apart` lists the withdrawn and disqualified as there.
///
/// One pass over the players (on two threads for a large stage) keeps a
/// heap of the `n` best keys and the players no worse than the worst of
/// them so far; only those few are then ranked.
pub fn rank_top(
    tallies: &(impl TallySource + Sync + ?Sized),
    n: usize,
    stage: &Stage,
    order: Vec<SortKey>,
    roster: &Roster,
) -> Standings {
    let slots = tallies.slots();
    let _progress = (slots >= PROGRESS_FROM).then(|| {
        crate::report::progress::Progress::spinner(format!(
            "Ranking the {stage} stage ({slots} player slots)"
        ))
    });
    let halves = if slots >= PARALLEL_FROM { 2 } else { 1 };
    let parts: Vec<std::ops::Range<usize>> = (0..halves)
        .map(|h| h * slots / halves..(h + 1) * slots / halves)
        .collect();
    let parts = in_parallel(&parts, |range| {
        let mut part = TopPart::new(n);
        for slot in range.clone() {
            let Some(t) = tallies.tally(slot) else {
                continue;
            };
            match apart_reason(&t, roster) {
                Some(why) => part.apart.push((t, why)),
                // (most players are outdone on the first key alone: their
                // other keys are not worked out)
                None if order
                    .first()
                    .is_some_and(|&sk| part.outdone(&key_value(&t, sk))) => {}
                None => part.offer(key_values(&t, &order), t),
            }
        }
        part
    });
    // the n-th best key of all, and who is no worse: the few tallies
    // kept, in a book of their own
    let mut best: Vec<SortValues> = parts.iter().flat_map(|p| p.best.iter().copied()).collect();
    let nth = n.min(best.len()).checked_sub(1).map(|nth| {
        best.select_nth_unstable(nth);
        best[nth]
    });
    let mut own = Vec::new();
    let mut apart_slots = Vec::new();
    let mut ranked_slots = Vec::new();
    for part in parts {
        for (t, why) in part.apart {
            apart_slots.push((own.len(), why));
            own.push(t);
        }
        let Some(nth) = nth else { continue };
        for (k, t) in part.kept {
            if k <= nth {
                ranked_slots.push(own.len() as u32);
                own.push(t);
            }
        }
    }
    let book = Arc::new(Book::Own(own));
    let apart = apart_slots
        .into_iter()
        .map(|(i, why)| Entry::new(&book, i, Some(why)))
        .collect();
    finish_ranking(book, ranked_slots, apart, stage, order, roster)
}

/// From this many player slots, [`rank_top`] works on two threads.
const PARALLEL_FROM: usize = 1 << 16;

/// `f` of each item, the first on this thread and the others each on its
/// own; in the items' order.
fn in_parallel<I: Sync, T: Send>(items: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let Some((first, rest)) = items.split_first() else {
        return Vec::new();
    };
    std::thread::scope(|scope| {
        let f = &f;
        let others: Vec<_> = rest.iter().map(|i| scope.spawn(move || f(i))).collect();
        let mut out = vec![f(first)];
        for h in others {
            out.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        out
    })
}

/// What one pass of [`rank_top`] keeps of part of the players: the `n`
/// best keys (a heap, the worst on top), and the players no worse than
/// the worst of those when they were met.
struct TopPart {
    n: usize,
    best: std::collections::BinaryHeap<SortValues>,
    kept: Vec<(SortValues, Tally)>,
    /// When `kept` is next pruned.
    prune_at: usize,
    apart: Vec<(Tally, Apart)>,
}

impl TopPart {
    fn new(n: usize) -> TopPart {
        TopPart {
            n,
            best: std::collections::BinaryHeap::with_capacity(n + 1),
            kept: Vec::new(),
            prune_at: 4 * n + 4096,
            apart: Vec::new(),
        }
    }

    /// Whether a player whose first key's value is `first` is outdone by
    /// the `n` best already, whatever their other keys: what [`offer`]
    /// would find of them, known from the first key.
    ///
    /// [`offer`]: TopPart::offer
    fn outdone(&self, first: &Fraction) -> bool {
        self.n > 0
            && self.best.len() >= self.n
            && self.best.peek().is_some_and(|worst| *first > worst.0[0])
    }

    fn offer(&mut self, key: SortValues, tally: Tally) {
        if self.n == 0 {
            return;
        }
        if self.best.len() < self.n {
            self.best.push(key);
        } else {
            match self.best.peek().map(|worst| key.cmp(worst)) {
                Some(Ordering::Greater) | None => return, // n others are better
                Some(Ordering::Less) => {
                    self.best.pop();
                    self.best.push(key);
                }
                Some(Ordering::Equal) => {} // tied with the n-th: kept
            }
        }
        self.kept.push((key, tally));
        // players since outdone by n others are dropped now and then, so
        // that the list stays short whatever the order of the players
        if self.kept.len() >= self.prune_at {
            if let Some(worst) = self.best.peek().copied() {
                self.kept.retain(|(k, _)| *k <= worst);
            }
            self.prune_at = 2 * self.kept.len() + 4 * self.n + 4096;
        }
    }
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

/// One key's value as a fraction `n / d` (`d` > 0), oriented so that
/// smaller ranks ahead. Not reduced: compared by cross-multiplying.
#[derive(Clone, Copy, Debug)]
struct Fraction {
    n: i128,
    d: i128,
}

impl Default for Fraction {
    fn default() -> Fraction {
        Fraction { n: 0, d: 1 }
    }
}

impl Fraction {
    fn new(n: i128, d: i128, flip: bool) -> Fraction {
        Fraction {
            n: if flip { -n } else { n },
            d,
        }
    }

    fn of(score: Score, per: u32, flip: bool) -> Fraction {
        let d = i128::from(score.denom()) * i128::from(per.max(1));
        Fraction::new(i128::from(score.numer()), d, flip)
    }
}

impl Ord for Fraction {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.d == other.d {
            return self.n.cmp(&other.n);
        }
        match (self.n.checked_mul(other.d), other.n.checked_mul(self.d)) {
            (Some(a), Some(b)) => a.cmp(&b),
            // beyond 128 bits: num-rational compares without overflowing
            _ => num_rational::Ratio::new_raw(self.n, self.d)
                .cmp(&num_rational::Ratio::new_raw(other.n, other.d)),
        }
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Fraction {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Fraction {}

/// The values of the standings keys of one player, in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct SortValues([Fraction; Key::ALL.len()]);

fn key_values(t: &Tally, order: &[SortKey]) -> SortValues {
    let mut v = SortValues::default();
    for (slot, sk) in v.0.iter_mut().zip(order) {
        *slot = key_value(t, *sk);
    }
    v
}

fn key_value(t: &Tally, sk: SortKey) -> Fraction {
    let flip = sk.better == Better::Higher;
    match sk.key {
        Key::GamesWon => Fraction::new(i128::from(t.won), 1, flip),
        Key::TilesLeft => Fraction::new(i128::from(t.tiles), 1, flip),
        // the average of no games is 0, as `Tally::average` says
        Key::AverageScore if t.games == 0 => Fraction::new(0, 1, flip),
        Key::AverageScore => Fraction::of(t.total, t.games, flip),
        Key::TotalScore => Fraction::of(t.total, 1, flip),
        Key::BestGame => Fraction::of(t.best_game.unwrap_or(Score::ZERO), 1, flip),
    }
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
    use crate::domain::PlayerId;
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

    /// Ranks `tallies` and checks the order against the exact comparison
    /// of their keys, then their ids (the players set apart left out), and
    /// that players tie, and share their rank, exactly when their keys do.
    fn assert_ranked_as_compared(tallies: &[Tally], order: &[SortKey], r: &Roster, name: &str) {
        let s = rank(tallies.to_vec(), &Stage::prelim(), order.to_vec(), r);
        let mut expected: Vec<&Tally> = tallies
            .iter()
            .filter(|t| apart_reason(t, r).is_none())
            .collect();
        expected
            .sort_by(|a, b| compare(a, b, order).then_with(|| r.id(a.player).cmp(r.id(b.player))));
        let got: Vec<PlayerId> = s.ranked.iter().map(|e| e.player()).collect();
        let want: Vec<PlayerId> = expected.iter().map(|t| t.player).collect();
        assert_eq!(got, want, "{name}");
        for w in s.ranked.windows(2) {
            let tied = compare(&w[0].tally(), &w[1].tally(), order) == Ordering::Equal;
            assert_eq!(tied, w[0].rank == w[1].rank, "{name}");
            assert!(!tied || (w[0].shared && w[1].shared), "{name}");
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
            .map(|e| (e.player().0, e.rank.unwrap()))
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
            .map(|e| (e.player().0, e.apart.unwrap()))
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

    /// Tallies of `n` players from `seed`: thirds, halves and wholes over
    /// 1 to 4 games, many ties, some withdrawn, a few huge totals when
    /// `huge` (so that the keys do not pack).
    fn random_tallies(n: u32, seed: u64, huge: bool) -> Vec<Tally> {
        let mut x = seed;
        (0..n)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = (x >> 33) as i64;
                let games = (r % 4 + 1) as u32;
                let total = if huge && r % 5 == 0 {
                    Score::ratio(i64::MAX / 4 - r, 1_000_003)
                } else {
                    Score::ratio(r % 13 - 6, [1, 2, 3, 6][(r % 4) as usize])
                };
                Tally {
                    player: PlayerId(i),
                    games,
                    won: (r % 3) as u32,
                    total,
                    tiles: (r % 5) as u32,
                    withdrawn: r % 17 == 0,
                    best_game: Some(Score::ratio(r % 7, 3)),
                }
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn the_top_is_the_top_of_the_whole_ranking(
            players in 0u32..300,
            seed in 0u64..1_000_000,
            n in 0usize..40,
            huge in proptest::prelude::any::<bool>(),
            profile in 0usize..4,
        ) {
            let tallies = random_tallies(players, seed, huge);
            let r = roster(players as usize);
            let name = ["hk", "nvso", "pressman", "gwinnett"][profile];
            let order = crate::profile::by_name(name).unwrap().order;
            let whole = rank(tallies.clone(), &Stage::prelim(), order.clone(), &r);
            let top = rank_top(&tallies[..], n, &Stage::prelim(), order, &r);
            // everyone no worse than the n-th, with the same ranks and order
            let last = n.min(whole.ranked.len()).checked_sub(1).map(|i| whole.ranked[i].rank);
            let want: Vec<&Entry> = match last {
                None => Vec::new(),
                Some(last) => whole.ranked.iter().filter(|e| e.rank <= last).collect(),
            };
            let got: Vec<&Entry> = top.ranked.iter().collect();
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert_eq!(top.apart, whole.apart);
        }
    }

    #[test]
    fn the_top_of_a_large_stage_is_ranked_on_two_threads_alike() {
        let tallies = random_tallies(PARALLEL_FROM as u32 + 1000, 42, false);
        let r = roster(tallies.len());
        let order = crate::profile::by_name("hk").unwrap().order;
        let whole = rank(tallies.clone(), &Stage::prelim(), order.clone(), &r);
        let top = rank_top(&tallies[..], 120, &Stage::prelim(), order, &r);
        let last = whole.ranked[119].rank;
        let want: Vec<&Entry> = whole.ranked.iter().filter(|e| e.rank <= last).collect();
        assert_eq!(top.ranked.iter().collect::<Vec<_>>(), want);
        assert!(top.ranked.len() >= 120);
        assert_eq!(top.apart, whole.apart);
    }

    #[test]
    fn bounds_taken_in_two_parts_are_the_bounds_taken_at_once() {
        // thirds only in the first items, halves only in the last, the
        // smallest and largest anywhere; and denominators whose common
        // multiple passes 2^62 only once both parts are together
        let f = |n: i128, d: i128| Fraction { n, d };
        let cases: Vec<Vec<[Fraction; 2]>> = vec![
            vec![
                [f(1, 3), f(5, 1)],
                [f(-7, 3), f(2, 1)],
                [f(4, 1), f(9, 1)],
                [f(1, 2), f(-3, 1)],
                [f(11, 2), f(0, 1)],
            ],
            vec![
                [f(1, (1 << 21) - 1), f(0, 1)],
                [f(1, 1), f(0, 1)],
                [f(1, (1 << 21) + 1), f(0, 1)],
                [f(1, (1 << 21) + 3), f(0, 1)],
            ],
        ];
        for items in &cases {
            let values = |i: usize| {
                let mut v = SortValues::default();
                v.0[..2].copy_from_slice(&items[i]);
                v
            };
            let whole = Bounds::of(0..items.len(), 2, &values).and_then(Packing::within);
            for at in 0..=items.len() {
                let a = Bounds::of(0..at, 2, &values);
                let b = Bounds::of(at..items.len(), 2, &values);
                let parts = a
                    .zip(b)
                    .and_then(|(a, b)| a.and(b))
                    .and_then(Packing::within);
                assert_eq!(
                    parts.map(|p| p.columns),
                    whole.as_ref().map(|p| p.columns.clone()),
                    "{items:?} split at {at}"
                );
            }
        }
        // (the second's denominators fit two at a time, not all three)
        let second = |i: usize| {
            let mut v = SortValues::default();
            v.0[..2].copy_from_slice(&cases[1][i]);
            v
        };
        assert!(Bounds::of(0..2, 2, &second).is_some());
        assert!(Bounds::of(2..4, 2, &second).is_some());
        assert!(Bounds::of(0..4, 2, &second).is_none());
    }

    #[test]
    fn a_large_stage_sorted_in_halves_ranks_as_the_exact_comparison_does() {
        // as an event's: three games each, whole scores (the keys fit in
        // 32 bits), many ties
        let mut x: u64 = 11;
        let tallies: Vec<Tally> = (0..SORTED_IN_HALVES_FROM as u32 + 1001)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = (x >> 33) as i64;
                Tally {
                    player: PlayerId(i),
                    games: 3,
                    won: (r % 4) as u32,
                    total: Score::whole(r % 301 - 150),
                    tiles: (r % 40) as u32,
                    withdrawn: r % 97 == 0,
                    best_game: Some(Score::whole(r % 50)),
                }
            })
            .collect();
        let r = roster(tallies.len());
        for name in ["hk", "gwinnett"] {
            let order = crate::profile::by_name(name).unwrap().order;
            assert_ranked_as_compared(&tallies, &order, &r, name);
        }
    }

    #[test]
    fn the_top_is_found_whatever_the_order_and_however_many_tie() {
        let order = crate::profile::by_name("hk").unwrap().order;
        // the worst first: every player is better than all before
        let mut tallies = random_tallies(30_000, 7, false);
        let r = roster(tallies.len());
        let whole = rank(tallies.clone(), &Stage::prelim(), order.clone(), &r);
        let position: std::collections::HashMap<PlayerId, usize> = whole
            .ranked
            .iter()
            .enumerate()
            .map(|(i, e)| (e.player(), i))
            .collect();
        tallies.sort_by_key(|t| std::cmp::Reverse(position.get(&t.player).copied()));
        let top = rank_top(&tallies[..], 10, &Stage::prelim(), order.clone(), &r);
        let last = whole.ranked[9].rank;
        let want: Vec<&Entry> = whole.ranked.iter().filter(|e| e.rank <= last).collect();
        assert_eq!(top.ranked.iter().collect::<Vec<_>>(), want);
        // everyone tied: all of them share rank 1
        let same: Vec<Tally> = (0..30_000).map(|i| t(i, 2, 10, 3, 4)).collect();
        let top = rank_top(&same[..], 10, &Stage::prelim(), order, &r);
        assert_eq!(top.ranked.len(), 30_000);
        assert!(top.ranked.iter().all(|e| e.rank == Some(1)));
    }

    #[test]
    fn packed_keys_rank_as_the_exact_comparison_does() {
        // thirds, halves and wholes over 1 to 4 games, many ties
        let mut tallies = Vec::new();
        let mut x: u64 = 7;
        for i in 0..400u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (x >> 33) as i64;
            let games = (r % 4 + 1) as u32;
            tallies.push(Tally {
                player: PlayerId(i),
                games,
                won: (r % 3) as u32,
                total: Score::ratio(r % 13 - 6, [1, 2, 3, 6][(r % 4) as usize]),
                tiles: (r % 5) as u32,
                withdrawn: false,
                best_game: Some(Score::ratio(r % 7, 3)),
            });
        }
        let r = roster(400);
        for name in ["hk", "nvso", "pressman", "gwinnett"] {
            let mut order = crate::profile::by_name(name).unwrap().order;
            order.push(SortKey {
                key: Key::BestGame,
                better: Better::Higher,
            });
            assert_ranked_as_compared(&tallies, &order, &r, name);
            // the values do not all fit in one 128-bit key: compared as fractions
            let huge: Vec<Tally> = tallies
                .iter()
                .map(|t| Tally {
                    total: Score::ratio(
                        i64::MAX / 4 - i64::from(t.player.0),
                        1_000_003 + i64::from(t.games),
                    ),
                    ..t.clone()
                })
                .collect();
            let values: Vec<SortValues> = huge.iter().map(|t| key_values(t, &order)).collect();
            assert!(
                pack(values.len(), order.len(), |i, k| values[i].0[k]).is_none(),
                "{name}"
            );
            let s = rank(huge.clone(), &Stage::prelim(), order.clone(), &r);
            for w in s.ranked.windows(2) {
                let (a, b) = (&w[0].tally(), &w[1].tally());
                let (fa, fb) = (key_values(a, &order), key_values(b, &order));
                assert!(fa < fb || (fa == fb && r.get(a.player).id < r.get(b.player).id));
            }
        }
    }

    #[test]
    fn long_ids_and_wide_keys_rank_as_the_exact_comparison_does() {
        // ids of one 8-byte beginning (the rest decides a tie), and in the
        // roster in another order than their slots
        let mut r = Roster::default();
        let n = 3000u32;
        for i in 0..n {
            let k = (i * 7919) % n;
            r.add(Player::named(
                &format!("HK2026-{k:05}"),
                &format!("Player {k}"),
            ))
            .unwrap();
        }
        let narrow = random_tallies(n, 11, false);
        // totals up to 2^40: the keys take more than 32 bits
        let wide: Vec<Tally> = narrow
            .iter()
            .map(|t| Tally {
                total: Score::whole(i64::from(t.player.0 % 17) << 36),
                ..t.clone()
            })
            .collect();
        for tallies in [narrow, wide] {
            for name in ["hk", "nvso", "pressman", "gwinnett"] {
                let order = crate::profile::by_name(name).unwrap().order;
                assert_ranked_as_compared(&tallies, &order, &r, name);
            }
        }
    }
}
