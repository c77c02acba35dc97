//! RULES.md section 7, who goes on, in one place: the typed answer every
//! command presents ([`Advancer`] with its [`Reason`], [`Decision`]), and
//! each way of going on a profile can choose, one file each:
//!
//! | rule | file |
//! |---|---|
//! | the top `N` of the standings, with the cutoff-tie policy | [`top`] |
//! | the tables of a stage, placed on their totals | `tables` |
//! | table winners, then the best seconds (`nvso`) | [`nvso`] |
//! | the best `K` at each table (`gwinnett`: the lowest total) | `each_table` |
//! | what a stage carries into the next one | `carry` |
//!
//! Under the table rules each checked card of the stage is one table: the
//! totals are summed over the card's games. The answer lists every player
//! who goes on with a typed reason (a table winner at table 7 with +45, a
//! best second 3 behind the winner of table 4, a rank within the top 120)
//! and every decision the rules leave to the director; `report::going_on`
//! says them in words. Nothing is ever cut silently: when the rules cannot
//! decide, the players concerned are listed in a [`Decision`].
//!
//! Decisions where RULES.md is silent:
//!
//! - **A table's places count the total only** (the rules say "the table's
//!   highest total", "the table's lowest total"); games won does not break
//!   a tie for first or for the last seat. The tables' lines are listed by
//!   total, then games won, then roster id, for reading only.
//! - **Players listed apart** (roster status withdrawn or disqualified, or
//!   fewer games on the card than the card has or the profile expects) take
//!   no place at the table and cannot go on; the best of the others is the
//!   table's winner. Their points stay in the others' totals as played.
//! - **NVSO seconds**: the "second-placed players" of a table are its best
//!   players who are not among its winners, i.e. those with the highest
//!   total below the winners' total, also when the winners tied. Their
//!   distance is the winners' total minus theirs. Seconds equally far behind
//!   are tied: when they all fit in the seats left they all go on; when they
//!   do not, none of them goes on and a [`Decision::TieForLastSeats`] lists
//!   them, unless the director named some of them (at most the seats left).
//! - **More than 4 NVSO table winners**: all of them are listed as going on
//!   (none is cut) and no seconds are added; [`Decision::TooManyTableWinners`]
//!   asks the director to decide (a play-off, or two championship tables).
//! - **Gwinnett ties**: all players sharing a table's lowest total go on
//!   unless the director named one or more of them; then only those named go
//!   on. The tie is reported either way (settled once named).
//! - **A name the director gave that is in no tie** changes nothing
//!   ([`names_in_no_tie`], under every rule: the top `N` takes no names);
//!   the event says so, once for its stage (`crate::event::Event`: a
//!   warning at the setting, or a [`Decision::NamedInNoTie`] of the list
//!   for `--player`).
//! - **Names are per stage**: `[qualifiers] named` settles the ties of the
//!   first stage only, `[stages.NAME] named` those of that later stage
//!   (`crate::profile::Rules::named_for`); a name is in no tie, and said so,
//!   only among the ties of its own stage.
//! - **A player on several cards of the stage** is judged at each table on
//!   its own, goes on when any of them sends them (listed once, with the
//!   first reason), and is reported as [`Decision::SeveralTables`].
//! - **Carry-over** ([`Carry`]): `all` carries games, wins, points and
//!   tiles; `half` carries half of the points only (games, wins and tiles
//!   start at zero), rounded up, where *rounded up* means to the next whole
//!   number towards plus infinity, applied to the exact half: +45 carries
//!   +23, -45 carries -22, +10/3 carries +2, -10/3 carries -1, -1 carries 0.
//!   A whole half stays as it is (+44 carries +22). `half` is meant for the
//!   points profiles (`nvso`, `gwinnett`); under `hk` the carried points
//!   count in the total, and so in the average over the new stage's games.
//!   The table rules place each table's players on the total the stage's
//!   standings count, the carried points included ([`Carried`]), so that
//!   who goes on, the standings' marks and `explain` agree.

mod carry;
mod each_table;
mod nvso;
mod tables;
pub mod top;

pub use carry::{
    add_carried, carried_points, round_up, starting_tallies, starting_tally, Carried, Carry,
};
pub use each_table::best_at_each_table;
pub use nvso::nvso;
pub use top::{select, Cut, Straddle};

use super::standings::Apart;
use crate::domain::{CardKey, Label, PlayerId, Stage};
use crate::profile::{CutoffTies, TableTies};
use crate::score::Score;

/// Seats at the NVSO championship table, unless the profile says otherwise.
pub const CHAMPIONSHIP_SEATS: usize = 4;

/// One player's results at one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLine {
    pub player: PlayerId,
    pub games: u32,
    pub won: u32,
    pub total: Score,
    /// Place at the table on the total alone (1, 1, 3 for a tie); `None`
    /// for players listed apart.
    pub place: Option<u32>,
    pub apart: Option<Apart>,
}

/// A table of a stage as the reasons and decisions name it; said in
/// words only by `report::going_on` (`table 7`, `table 7 (session S02)`,
/// `semi table 2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableName {
    /// The card's table.
    pub table: Label,
    /// The card's session, when the stage has several.
    pub session: Option<Label>,
    /// The stage of the table when it is not the event's first: a later
    /// stage's table names its stage ("semi table 2"), so that it does not
    /// read as the first stage's table 2; the first stage's is said at its
    /// table alone.
    pub later_stage: Option<Stage>,
}

/// One table of the stage (one card), its lines best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableResult {
    pub key: CardKey,
    pub name: TableName,
    pub lines: Vec<TableLine>,
}

impl TableResult {
    /// The players placed first (the winners), best first.
    pub fn firsts(&self) -> impl Iterator<Item = &TableLine> {
        self.lines.iter().filter(|l| l.place == Some(1))
    }
}

/// Why a player goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The top `cutoff` of the standings: ranked `rank`, `tied` across the
    /// cutoff with players who do not all fit (and go on by the policy).
    Rank { rank: u32, cutoff: u32, tied: bool },
    /// `nvso`: has the table's highest total (`shared` with others).
    TableWinner {
        table: TableName,
        total: Score,
        shared: bool,
    },
    /// `nvso`: a second-placed player, `behind` the table's winner(s);
    /// `order` is the place among all seconds (shared when tied).
    BestSecond {
        table: TableName,
        total: Score,
        behind: Score,
        order: u32,
        winners: usize,
    },
    /// The best at each table (`gwinnett`: the lowest total): `place` at
    /// the table, on the `lowest` or highest total (`shared` with others).
    AtTable {
        table: TableName,
        total: Score,
        place: u32,
        lowest: bool,
        shared: bool,
    },
}

/// A player who goes on to the next stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advancer {
    pub player: PlayerId,
    /// Place at the table the player goes on from (the rank, under the
    /// top `N`).
    pub place: u32,
    pub reason: Reason,
    /// Goes on because the director named them to settle a tie.
    pub named_by_director: bool,
}

/// Why a player placed at a table of the stage does not go on (the table
/// rules; under the top `N` the rank and the cutoff say it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Staying {
    /// `place` at `table` with `total` (`shared` with others), on the
    /// `lowest` or highest total; `last` is the total of the last at the
    /// table who goes on.
    AtTable {
        table: TableName,
        total: Score,
        place: u32,
        lowest: bool,
        shared: bool,
        last: Score,
    },
    /// `nvso`: a second `behind` the winner(s) of `table`, farther behind
    /// than the seconds who go on: the farthest of them is `last` behind
    /// (`None`: no second goes on).
    Second {
        table: TableName,
        total: Score,
        behind: Score,
        winners: usize,
        last: Option<Score>,
    },
    /// In a tie for the places that go on ([`Decision::TieAtTable`],
    /// [`Decision::TieForLastSeats`]): the director `named` others, else
    /// has yet to name who goes on.
    InTie {
        table: TableName,
        total: Score,
        place: u32,
        lowest: bool,
        named: bool,
    },
}

/// A player who does not go on, placed at a table of the stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stayer {
    pub player: PlayerId,
    pub reason: Staying,
}

/// Something the rules leave to the director, or tell them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The top `N`: players tied on every key straddle the cutoff; the
    /// `policy` says who of them goes on (`qualifiers` do in all).
    TieAtCutoff {
        straddle: Straddle,
        cutoff: u32,
        policy: CutoffTies,
        qualifiers: usize,
    },
    /// `nvso`: more table winners than championship seats. All of them are
    /// listed as going on.
    TooManyTableWinners {
        winners: Vec<PlayerId>,
        seats: usize,
    },
    /// `nvso`: seconds equally far `behind` their winners, more of them than
    /// the `seats` left. Only those `named` (when they fit) go on.
    TieForLastSeats {
        tied: Vec<PlayerId>,
        behind: Score,
        seats: usize,
        named: Vec<PlayerId>,
    },
    /// The best at each table: players sharing the last `place` that
    /// goes on, more of them than fit (`gwinnett`: a table's lowest
    /// total). All go on unless some are `named`; then only those.
    TieAtTable {
        table: TableName,
        place: u32,
        lowest: bool,
        tied: Vec<PlayerId>,
        total: Score,
        named: Vec<PlayerId>,
    },
    /// `nvso`: too few seconds to fill the championship table (a stage
    /// with fewer than two tables): `filled` of `seats` are taken.
    EmptySeats { filled: usize, seats: usize },
    /// A player on more than one card of the stage.
    SeveralTables {
        player: PlayerId,
        tables: Vec<TableName>,
    },
    /// The director named a player who is in no tie: it changes nothing.
    NamedInNoTie { player: PlayerId },
}

impl Decision {
    /// The players the director named that this decision takes: those of
    /// its tie who were named.
    pub fn named(&self) -> &[PlayerId] {
        match self {
            Decision::TieForLastSeats { named, .. } | Decision::TieAtTable { named, .. } => named,
            _ => &[],
        }
    }

    /// The director has nothing left to do about it: they named players,
    /// or the event's `table_ties` policy is that every tied player goes on.
    pub fn is_settled(&self, policy: TableTies) -> bool {
        let all_go = policy == TableTies::All;
        match self {
            Decision::TieAtCutoff { policy, .. } => *policy != CutoffTies::Error,
            Decision::TooManyTableWinners { .. } | Decision::EmptySeats { .. } => all_go,
            // Each table was judged on its own: the rules settled it.
            Decision::SeveralTables { .. } | Decision::NamedInNoTie { .. } => true,
            Decision::TieForLastSeats { seats, named, .. } => named.len() == *seats || all_go,
            // RULES.md section 7: all tied players are listed as going on
            // unless the director names one; the list is final once named,
            // or when the event's policy is that they all go.
            Decision::TieAtTable { named, .. } => !named.is_empty() || all_go,
        }
    }
}

/// Who goes on from one stage under a table rule, why, and what is left to
/// the director.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advancement {
    pub stage: Stage,
    /// Every table of the stage, in table order.
    pub tables: Vec<TableResult>,
    /// Who goes on: table winners in table order, then seconds by distance.
    pub advancing: Vec<Advancer>,
    /// Every other player placed at a table, and why they do not go on.
    pub staying: Vec<Stayer>,
    /// What the rules leave to the director.
    pub decisions: Vec<Decision>,
    /// The event's policy for what the format cannot settle.
    pub policy: TableTies,
}

impl Advancement {
    /// The answer of a table rule, placing on the `lowest` or highest
    /// total. `seconds` are the `nvso` seconds who do not go on; every
    /// other player placed at a table who does not go on is said by their
    /// place there ([`Staying`]), each once, at their first table.
    fn of(
        stage: &Stage,
        rules: &crate::profile::Rules,
        lowest: bool,
        tables: Vec<TableResult>,
        advancing: Vec<Advancer>,
        decisions: Vec<Decision>,
        seconds: Vec<Stayer>,
    ) -> Advancement {
        let goes = |p: PlayerId| advancing.iter().any(|a| a.player == p);
        let mut staying: Vec<Stayer> = Vec::new();
        for t in &tables {
            // the total of the last at the table who goes on
            let last = t
                .lines
                .iter()
                .rev()
                .find(|l| l.place.is_some() && goes(l.player))
                .map(|l| l.total);
            for l in &t.lines {
                let Some(place) = l.place else { continue };
                if goes(l.player) || staying.iter().any(|s| s.player == l.player) {
                    continue;
                }
                let tie = decisions.iter().find(|d| match d {
                    Decision::TieAtTable { tied, .. } | Decision::TieForLastSeats { tied, .. } => {
                        tied.contains(&l.player)
                    }
                    _ => false,
                });
                let reason = if let Some(d) = tie {
                    Staying::InTie {
                        table: t.name.clone(),
                        total: l.total,
                        place,
                        lowest,
                        named: !d.named().is_empty() && !d.named().contains(&l.player),
                    }
                } else if let Some(s) = seconds.iter().find(|s| s.player == l.player) {
                    s.reason.clone()
                } else if let Some(last) = last {
                    Staying::AtTable {
                        table: t.name.clone(),
                        total: l.total,
                        place,
                        lowest,
                        shared: t.lines.iter().filter(|x| x.place == l.place).count() > 1,
                        last,
                    }
                } else {
                    continue;
                };
                staying.push(Stayer {
                    player: l.player,
                    reason,
                });
            }
        }
        Advancement {
            stage: stage.clone(),
            policy: rules.table_ties,
            tables,
            advancing,
            staying,
            decisions,
        }
    }

    pub fn players(&self) -> Vec<PlayerId> {
        self.advancing.iter().map(|a| a.player).collect()
    }

    pub fn advances(&self, player: PlayerId) -> bool {
        self.advancing.iter().any(|a| a.player == player)
    }

    /// No decision is left open: the list is final.
    pub fn is_settled(&self) -> bool {
        self.decisions.iter().all(|d| d.is_settled(self.policy))
    }
}

/// The players of `named` that none of `decisions` takes: named to settle
/// a tie, they are in none, and the name changes nothing. In player order,
/// each once. Under the top `N` no decision takes a name: every one is.
pub fn names_in_no_tie<'a>(
    named: &[PlayerId],
    decisions: impl IntoIterator<Item = &'a Decision>,
) -> Vec<PlayerId> {
    let used: std::collections::BTreeSet<PlayerId> = decisions
        .into_iter()
        .flat_map(|d| d.named().iter().copied())
        .collect();
    let mut v: Vec<PlayerId> = named
        .iter()
        .filter(|p| !used.contains(p))
        .copied()
        .collect();
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests;
