//! RULES.md section 7 beyond `hk` (whose top-`N` cutoff is in
//! [`super::qualifiers`]): who goes on from each table under `nvso` and
//! `gwinnett`, and what a stage carries into the next one.
//!
//! Each checked card of the stage is one table: the totals are summed over
//! the card's games. The result lists every player who goes on with the
//! reason in words ("table winner at table 7 with +45", "best second: 3
//! behind the winner of table 4"), and every decision the rules leave to the
//! director. Nothing is ever cut silently: when the rules cannot decide, the
//! players concerned are listed in a [`Decision`].
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
//! - **A name the director gave that is in no tie** changes nothing and is
//!   listed in [`Advancement::unused_names`].
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

use super::standings::{Apart, Tally};
use crate::domain::{Card, CardKey, Label, PlayerId, SessionName, Stage};
pub use crate::profile::vocabulary::Carry;
use crate::profile::{GoingOn, Rules, TableTies};
use crate::roster::{Roster, Status};
use crate::score::Score;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

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

/// One table of the stage (one card), its lines best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableResult {
    pub key: CardKey,
    /// `table 7`, or `table 7 (session S02)` when the stage has several
    /// sessions.
    pub name: String,
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
    /// `nvso`: has the table's highest total (`shared` with others).
    TableWinner {
        table: String,
        total: Score,
        shared: bool,
    },
    /// `nvso`: a second-placed player, `behind` the table's winner(s);
    /// `order` is the place among all seconds (shared when tied).
    BestSecond {
        table: String,
        total: Score,
        behind: Score,
        order: u32,
        winners: usize,
    },
    /// `gwinnett`: has the table's lowest total (`shared` with others).
    LowestTotal {
        table: String,
        total: Score,
        shared: bool,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::TableWinner {
                table,
                total,
                shared,
            } => {
                write!(f, "table winner at {table} with {}", total.signed())?;
                if *shared {
                    write!(f, " (shared)")?;
                }
                Ok(())
            }
            Reason::BestSecond {
                table,
                behind,
                winners,
                ..
            } => {
                let who = if *winners > 1 { "winners" } else { "winner" };
                write!(f, "best second: {behind} behind the {who} of {table}")
            }
            Reason::LowestTotal {
                table,
                total,
                shared,
            } => {
                write!(f, "lowest total at {table} with {total}")?;
                if *shared {
                    write!(f, " (shared)")?;
                }
                Ok(())
            }
        }
    }
}

/// A player who goes on to the next stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advancer {
    pub player: PlayerId,
    /// Place at the table the player goes on from.
    pub place: u32,
    pub reason: Reason,
    /// Goes on because the director named them to settle a tie.
    pub named_by_director: bool,
}

impl fmt::Display for Advancer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.reason)?;
        if self.named_by_director {
            write!(f, ", named by the director to settle a tie")?;
        }
        Ok(())
    }
}

/// Something the rules leave to the director.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
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
    /// `gwinnett`: players sharing a table's lowest total. All go on unless
    /// some are `named`; then only those.
    TieForLowest {
        table: String,
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
        tables: Vec<String>,
    },
}

impl Decision {
    /// The director has nothing left to do about it: they named players,
    /// or the event's `table_ties` policy is that every tied player goes on.
    pub fn is_settled(&self, policy: TableTies) -> bool {
        let all_go = policy == TableTies::All;
        match self {
            Decision::TooManyTableWinners { .. } | Decision::EmptySeats { .. } => all_go,
            // Each table was judged on its own: the rules settled it.
            Decision::SeveralTables { .. } => true,
            Decision::TieForLastSeats { seats, named, .. } => named.len() == *seats || all_go,
            // RULES.md section 7: all tied players are listed as going on
            // unless the director names one; the list is final once named,
            // or when the event's policy is that they all go.
            Decision::TieForLowest { named, .. } => !named.is_empty() || all_go,
        }
    }

    /// The decision in words, naming players by roster id.
    pub fn message(&self, roster: &Roster, policy: TableTies) -> String {
        let all_go = policy == TableTies::All;
        let ids = |ps: &[PlayerId]| {
            ps.iter()
                .map(|&p| roster.get(p).id.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Decision::TooManyTableWinners { winners, seats } => format!(
                "{} table winners ({}) for {seats} championship seats: all are listed as going on; {}",
                winners.len(),
                ids(winners),
                if all_go {
                    "table_ties = \"all\": they all play the championship"
                } else {
                    "the director decides (a play-off, or a second championship table), or sets table_ties = \"all\""
                }
            ),
            Decision::TieForLastSeats {
                tied,
                behind,
                seats,
                named,
            } => {
                let seat_word = if *seats == 1 { "seat" } else { "seats" };
                let head = format!(
                    "TIE FOR THE LAST {seat_word}: {} seconds ({}) are each {behind} behind their winners, for {seats} {seat_word}",
                    tied.len(),
                    ids(tied)
                );
                if named.len() == *seats {
                    format!("{head}; the director named {}", ids(named))
                } else if named.is_empty() && all_go {
                    format!("{head}; table_ties = \"all\": they all go on")
                } else if named.is_empty() {
                    format!("{head}; none of them goes on until the director names {seats} (--player), or sets table_ties = \"all\"")
                } else {
                    format!(
                        "{head}; the director named {} ({} of {seats}); name exactly {seats}",
                        ids(named),
                        named.len()
                    )
                }
            }
            Decision::TieForLowest {
                table,
                tied,
                total,
                named,
            } => {
                let head = format!(
                    "TIE at {table}: {} players ({}) share the lowest total {total}",
                    tied.len(),
                    ids(tied)
                );
                if named.is_empty() && all_go {
                    format!("{head}; table_ties = \"all\": all of them go on")
                } else if named.is_empty() {
                    format!("{head}; all of them are listed as going on until the director names who goes on (--player), or sets table_ties = \"all\"")
                } else {
                    format!("{head}; the director named {}", ids(named))
                }
            }
            Decision::EmptySeats { filled, seats } => format!(
                "only {filled} players go on to the {seats} championship seats (a winner and a second from each table); {}",
                if all_go {
                    "table_ties = \"all\": the seats stay empty"
                } else {
                    "the director decides whether to seat more, or sets table_ties = \"all\""
                }
            ),
            Decision::SeveralTables { player, tables } => format!(
                "{} played at {} tables of the stage ({}); each table was judged on its own",
                roster.get(*player).id,
                tables.len(),
                tables.join(", ")
            ),
        }
    }
}

/// Who goes on from one stage, why, and what is left to the director.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advancement {
    pub stage: Stage,
    /// Every table of the stage, in table order.
    pub tables: Vec<TableResult>,
    /// Who goes on: table winners in table order, then seconds by distance.
    pub advancing: Vec<Advancer>,
    pub decisions: Vec<Decision>,
    /// Players the director named who were in no tie (changed nothing).
    pub unused_names: Vec<PlayerId>,
    /// The event's policy for what the format cannot settle.
    pub policy: TableTies,
}

impl Advancement {
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

/// Which way a table's totals are better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Highest,
    Lowest,
}

fn table_name(key: &CardKey, several_sessions: bool) -> String {
    let table = match &key.table {
        Label::Num(n) => format!("table {n}"),
        Label::Text(t) if t.to_lowercase().starts_with("table") => t.clone(),
        Label::Text(t) => format!("table {t}"),
    };
    if several_sessions {
        format!("{table} (session {})", SessionName(&key.session))
    } else {
        table
    }
}

/// The tables of `stage`, each ranked on its total in `direction`.
fn tables(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    direction: Direction,
) -> Vec<TableResult> {
    let mut stage_cards: Vec<&Card> = cards.iter().filter(|c| &c.key.stage == stage).collect();
    stage_cards.sort_by(|a, b| a.key.cmp(&b.key));
    let sessions: BTreeSet<&Label> = stage_cards.iter().map(|c| &c.key.session).collect();
    let several_sessions = sessions.len() > 1;
    let better = |a: &Score, b: &Score| match direction {
        Direction::Highest => b.cmp(a),
        Direction::Lowest => a.cmp(b),
    };
    stage_cards
        .into_iter()
        .map(|card| {
            let mut lines: Vec<TableLine> = card
                .seats
                .iter()
                .map(|sp| {
                    let mut line = TableLine {
                        player: sp.player,
                        games: 0,
                        won: 0,
                        total: Score::ZERO,
                        place: None,
                        apart: None,
                    };
                    for r in card.games.iter().flat_map(|g| &g.results) {
                        if r.player == sp.player {
                            line.games += 1;
                            line.won += u32::from(r.won);
                            line.total += r.score;
                        }
                    }
                    let short = (line.games as usize) < card.games.len()
                        || line.games < rules.games_for(stage);
                    line.apart = match roster.get(sp.player).status {
                        Status::Disqualified => Some(Apart::Disqualified),
                        Status::Withdrawn => Some(Apart::Withdrawn),
                        Status::Active if short => Some(Apart::Withdrawn),
                        Status::Active => None,
                    };
                    line
                })
                .collect();
            lines.sort_by(|a, b| {
                a.apart
                    .is_some()
                    .cmp(&b.apart.is_some())
                    .then_with(|| better(&a.total, &b.total))
                    .then_with(|| b.won.cmp(&a.won))
                    .then_with(|| roster.get(a.player).id.cmp(&roster.get(b.player).id))
            });
            let mut place = 0;
            let mut previous: Option<Score> = None;
            for (i, line) in lines.iter_mut().enumerate() {
                if line.apart.is_some() {
                    continue;
                }
                if previous != Some(line.total) {
                    place = i as u32 + 1;
                }
                previous = Some(line.total);
                line.place = Some(place);
            }
            TableResult {
                name: table_name(&card.key, several_sessions),
                key: card.key.clone(),
                lines,
            }
        })
        .collect()
}

/// Players on more than one table of the stage.
fn several_tables(tables: &[TableResult]) -> Vec<Decision> {
    let mut at: BTreeMap<PlayerId, Vec<String>> = BTreeMap::new();
    for t in tables {
        for l in &t.lines {
            at.entry(l.player).or_default().push(t.name.clone());
        }
    }
    at.into_iter()
        .filter(|(_, ts)| ts.len() > 1)
        .map(|(player, tables)| Decision::SeveralTables { player, tables })
        .collect()
}

fn push_once(advancing: &mut Vec<Advancer>, a: Advancer) {
    if !advancing.iter().any(|x| x.player == a.player) {
        advancing.push(a);
    }
}

/// `nvso` (RULES.md section 7): every player with a table's highest total
/// goes on; then the second-placed players of all tables, by how few points
/// they finished behind their table's winner, fill the championship table
/// up to the championship table's seats ([`GoingOn::TableWinnersAndBestSeconds`],
/// 4 by default). `named` are players the director named to
/// settle a tie for the last seats.
pub fn nvso(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    named: &[PlayerId],
) -> Advancement {
    let championship_seats = match rules.going_on {
        GoingOn::TableWinnersAndBestSeconds { seats } => seats,
        _ => CHAMPIONSHIP_SEATS,
    };
    let tables = tables(cards, stage, rules, roster, Direction::Highest);
    let mut decisions = several_tables(&tables);
    let mut advancing: Vec<Advancer> = Vec::new();
    for t in &tables {
        let firsts: Vec<&TableLine> = t.firsts().collect();
        for l in &firsts {
            push_once(
                &mut advancing,
                Advancer {
                    player: l.player,
                    place: 1,
                    reason: Reason::TableWinner {
                        table: t.name.clone(),
                        total: l.total,
                        shared: firsts.len() > 1,
                    },
                    named_by_director: false,
                },
            );
        }
    }
    let mut used_names: BTreeSet<PlayerId> = BTreeSet::new();
    if advancing.len() > championship_seats {
        decisions.push(Decision::TooManyTableWinners {
            winners: advancing.iter().map(|a| a.player).collect(),
            seats: championship_seats,
        });
    } else {
        // The seconds of every table: the best below the winners.
        struct Second<'a> {
            line: &'a TableLine,
            table: &'a TableResult,
            behind: Score,
            winners: usize,
        }
        let mut seconds: Vec<Second> = Vec::new();
        for t in &tables {
            let Some(best) = t.firsts().next().map(|l| l.total) else {
                continue;
            };
            let winners = t.firsts().count();
            let runner_up = t
                .lines
                .iter()
                .filter(|l| l.place.is_some_and(|p| p > 1))
                .map(|l| l.total)
                .max();
            let Some(runner_up) = runner_up else {
                continue;
            };
            for line in t
                .lines
                .iter()
                .filter(|l| l.place.is_some() && l.total == runner_up)
            {
                if advancing.iter().any(|a| a.player == line.player) {
                    continue;
                }
                seconds.push(Second {
                    line,
                    table: t,
                    behind: best - runner_up,
                    winners,
                });
            }
        }
        // Stable: within a distance, table order then seat order as listed.
        seconds.sort_by_key(|s| s.behind);
        let mut seats = championship_seats - advancing.len();
        let mut tie = false;
        let mut i = 0;
        while seats > 0 && i < seconds.len() {
            let behind = seconds[i].behind;
            let end = seconds[i..]
                .iter()
                .position(|s| s.behind != behind)
                .map_or(seconds.len(), |n| i + n);
            let group = &seconds[i..end];
            let order = i as u32 + 1;
            let go = |s: &Second, named_by_director: bool| Advancer {
                player: s.line.player,
                place: s.line.place.unwrap_or(0),
                reason: Reason::BestSecond {
                    table: s.table.name.clone(),
                    total: s.line.total,
                    behind: s.behind,
                    order,
                    winners: s.winners,
                },
                named_by_director,
            };
            if group.len() <= seats {
                for s in group {
                    advancing.push(go(s, false));
                }
                seats -= group.len();
            } else {
                let tied: Vec<PlayerId> = group.iter().map(|s| s.line.player).collect();
                let chosen: Vec<&Second> = group
                    .iter()
                    .filter(|s| named.contains(&s.line.player))
                    .collect();
                used_names.extend(chosen.iter().map(|s| s.line.player));
                if chosen.is_empty() && rules.table_ties == TableTies::All {
                    for s in group {
                        advancing.push(go(s, false));
                    }
                } else if chosen.len() <= seats {
                    for s in &chosen {
                        advancing.push(go(s, true));
                    }
                }
                decisions.push(Decision::TieForLastSeats {
                    tied,
                    behind,
                    seats,
                    named: chosen.iter().map(|s| s.line.player).collect(),
                });
                tie = true;
                break;
            }
            i = end;
        }
        if seats > 0 && !tie && !tables.is_empty() {
            decisions.push(Decision::EmptySeats {
                filled: advancing.len(),
                seats: championship_seats,
            });
        }
    }
    Advancement {
        stage: stage.clone(),
        unused_names: unused(named, &used_names),
        policy: rules.table_ties,
        tables,
        advancing,
        decisions,
    }
}

/// `gwinnett` (RULES.md section 7): each table's lowest total (penalty
/// points) goes on. A tie for the lowest total is reported; all tied players
/// go on unless the director `named` some of them.
pub fn gwinnett(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    named: &[PlayerId],
) -> Advancement {
    let tables = tables(cards, stage, rules, roster, Direction::Lowest);
    let mut decisions = several_tables(&tables);
    let mut advancing: Vec<Advancer> = Vec::new();
    let mut used_names: BTreeSet<PlayerId> = BTreeSet::new();
    for t in &tables {
        let firsts: Vec<&TableLine> = t.firsts().collect();
        let Some(first) = firsts.first() else {
            continue;
        };
        let shared = firsts.len() > 1;
        let chosen: Vec<PlayerId> = if shared {
            firsts
                .iter()
                .map(|l| l.player)
                .filter(|p| named.contains(p))
                .collect()
        } else {
            Vec::new()
        };
        used_names.extend(chosen.iter().copied());
        if shared {
            decisions.push(Decision::TieForLowest {
                table: t.name.clone(),
                tied: firsts.iter().map(|l| l.player).collect(),
                total: first.total,
                named: chosen.clone(),
            });
        }
        for l in &firsts {
            let by_name = chosen.contains(&l.player);
            if !chosen.is_empty() && !by_name {
                continue;
            }
            push_once(
                &mut advancing,
                Advancer {
                    player: l.player,
                    place: 1,
                    reason: Reason::LowestTotal {
                        table: t.name.clone(),
                        total: l.total,
                        shared,
                    },
                    named_by_director: by_name,
                },
            );
        }
    }
    Advancement {
        stage: stage.clone(),
        unused_names: unused(named, &used_names),
        policy: rules.table_ties,
        tables,
        advancing,
        decisions,
    }
}

fn unused(named: &[PlayerId], used: &BTreeSet<PlayerId>) -> Vec<PlayerId> {
    let mut v: Vec<PlayerId> = named
        .iter()
        .filter(|p| !used.contains(p))
        .copied()
        .collect();
    v.sort();
    v.dedup();
    v
}

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
/// [`super::standings::tally`]), by player; `withdrawn` is the stage's.
pub fn add_carried(start: &[Tally], stage: Vec<Tally>) -> Vec<Tally> {
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
                s.best_game = s.best_game.max(t.best_game);
            }
            None => {
                by_player.insert(t.player, t);
            }
        }
    }
    by_player.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Game, Seat, SeatPlayer, SeatResult};
    use crate::place::Place;
    use crate::roster::Player;

    fn roster(n: usize) -> Roster {
        let mut r = Roster::default();
        for i in 0..n {
            r.add(Player::named(&format!("P{i:02}"), &format!("Player {i}")))
                .unwrap();
        }
        r
    }

    /// A card of `games` games; each seat is (player, score per game).
    fn card_in(stage: &str, session: u32, table: u32, seats: &[(u32, &[i64])]) -> Card {
        scored_card(stage, session, table, seats, false)
    }

    fn scored_card(
        stage: &str,
        session: u32,
        table: u32,
        seats: &[(u32, &[i64])],
        penalty: bool,
    ) -> Card {
        let place = Place::nowhere("test");
        let games = seats.iter().map(|(_, s)| s.len()).max().unwrap_or(0);
        Card {
            key: CardKey {
                stage: Stage::new(stage),
                session: Label::Num(session),
                table: Label::Num(table),
            },
            place: place.clone(),
            seats: seats
                .iter()
                .enumerate()
                .map(|(i, (p, _))| SeatPlayer {
                    seat: Seat::ALL[i],
                    player: PlayerId(*p),
                    place: place.clone(),
                })
                .collect(),
            games: (0..games)
                .map(|g| Game {
                    number: g as u32 + 1,
                    results: seats
                        .iter()
                        .enumerate()
                        .filter(|(_, (_, s))| g < s.len())
                        .map(|(i, (p, s))| SeatResult {
                            seat: Seat::ALL[i],
                            player: PlayerId(*p),
                            // zero-sum: a positive score; penalty points: 0
                            won: s[g] > 0 || (penalty && s[g] == 0),
                            score: Score::whole(s[g]),
                            tiles: Some(if s[g] > 0 { 0 } else { 3 }),
                            place: place.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    fn card(table: u32, seats: &[(u32, &[i64])]) -> Card {
        card_in("prelim", 1, table, seats)
    }

    /// A `gwinnett` card: penalty points, 0 for the player who went out.
    fn gw_card(table: u32, seats: &[(u32, &[i64])]) -> Card {
        scored_card("prelim", 1, table, seats, true)
    }

    /// A zero-sum table of four, with the given totals (one game each is
    /// enough for the rules; three games are played: total, 0, 0).
    fn table4(table: u32, players: [u32; 4], totals: [i64; 4]) -> Card {
        let s: Vec<[i64; 3]> = totals.iter().map(|&t| [t, 0, 0]).collect();
        card(
            table,
            &[
                (players[0], &s[0]),
                (players[1], &s[1]),
                (players[2], &s[2]),
                (players[3], &s[3]),
            ],
        )
    }

    fn nvso_rules() -> Rules {
        crate::profile::by_name("nvso").unwrap()
    }

    fn gw_rules() -> Rules {
        crate::profile::by_name("gwinnett").unwrap()
    }

    fn ids(a: &Advancement) -> Vec<u32> {
        a.players().iter().map(|p| p.0).collect()
    }

    #[test]
    fn nvso_table_winners_then_the_closest_seconds_fill_four_seats() {
        // Three tables: winners 0, 4, 8; seconds 1 (-10 behind 40 = 50),
        // 5 (45 - 42 = 3 behind), 9 (60 - 30 = 30 behind).
        let cards = vec![
            table4(1, [0, 1, 2, 3], [40, -10, -10, -20]),
            table4(2, [4, 5, 6, 7], [45, 42, -40, -47]),
            table4(3, [8, 9, 10, 11], [60, 30, -40, -50]),
        ];
        let r = roster(12);
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
        assert_eq!(ids(&a), vec![0, 4, 8, 5]);
        assert!(a.decisions.is_empty());
        assert!(a.is_settled());
        assert_eq!(
            a.advancing[0].to_string(),
            "table winner at table 1 with +40"
        );
        assert_eq!(
            a.advancing[3].to_string(),
            "best second: 3 behind the winner of table 2"
        );
        assert_eq!(a.advancing[3].place, 2);
        assert!(!a.advances(PlayerId(9)) && !a.advances(PlayerId(1)));
    }

    #[test]
    fn nvso_seconds_fill_in_order_of_distance() {
        let cards = vec![
            table4(1, [0, 1, 2, 3], [50, 10, -20, -40]), // 1 is 40 behind
            table4(2, [4, 5, 6, 7], [30, 25, -20, -35]), // 5 is 5 behind
        ];
        // two winners (0, 4); seconds 5 (5 behind), then 1 (40 behind)
        let r = roster(8);
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
        assert_eq!(ids(&a), vec![0, 4, 5, 1]);
        match &a.advancing[3].reason {
            Reason::BestSecond { behind, order, .. } => {
                assert_eq!(*behind, Score::whole(40));
                assert_eq!(*order, 2);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nvso_tied_table_winners_all_go_on() {
        let cards = vec![
            table4(1, [0, 1, 2, 3], [20, 20, -10, -30]),
            table4(2, [4, 5, 6, 7], [30, 5, -15, -20]),
        ];
        let r = roster(8);
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
        // winners 0, 1 (shared) and 4; one seat for the best second:
        // table 1's second is 2 (30 behind), table 2's is 5 (25 behind)
        assert_eq!(ids(&a), vec![0, 1, 4, 5]);
        assert_eq!(
            a.advancing[1].to_string(),
            "table winner at table 1 with +20 (shared)"
        );
        assert_eq!(a.tables[0].lines[2].place, Some(3));
    }

    #[test]
    fn nvso_more_than_four_table_winners_is_a_decision_not_a_cut() {
        let cards: Vec<Card> = (0..5)
            .map(|t| {
                table4(
                    t + 1,
                    [4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3],
                    [30, 0, -10, -20],
                )
            })
            .collect();
        let r = roster(20);
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
        assert_eq!(ids(&a), vec![0, 4, 8, 12, 16]);
        assert_eq!(
            a.decisions,
            vec![Decision::TooManyTableWinners {
                winners: [0, 4, 8, 12, 16].map(PlayerId).to_vec(),
                seats: 4
            }]
        );
        assert!(!a.is_settled());
        assert!(a.decisions[0]
            .message(&r, a.policy)
            .starts_with("5 table winners (P00, P04, P08, P12, P16) for 4 championship seats"));
    }

    #[test]
    fn nvso_a_tie_for_the_last_seat_is_reported_and_the_director_names() {
        // winners 0, 4, 8; seconds 1 and 5 both 10 behind, 9 is 50 behind
        let cards = vec![
            table4(1, [0, 1, 2, 3], [30, 20, -20, -30]),
            table4(2, [4, 5, 6, 7], [25, 15, -10, -30]),
            table4(3, [8, 9, 10, 11], [60, 10, -30, -40]),
        ];
        let r = roster(12);
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
        assert_eq!(ids(&a), vec![0, 4, 8]);
        assert_eq!(
            a.decisions,
            vec![Decision::TieForLastSeats {
                tied: vec![PlayerId(1), PlayerId(5)],
                behind: Score::whole(10),
                seats: 1,
                named: vec![]
            }]
        );
        assert!(!a.is_settled());
        assert!(a.decisions[0]
            .message(&r, a.policy)
            .starts_with("TIE FOR THE LAST seat: 2 seconds (P01, P05) are each 10 behind"));
        // the director names P05
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[PlayerId(5)]);
        assert_eq!(ids(&a), vec![0, 4, 8, 5]);
        assert!(a.advancing[3].named_by_director);
        assert!(a.is_settled());
        assert!(a.advancing[3]
            .to_string()
            .ends_with("named by the director to settle a tie"));
        assert!(a.unused_names.is_empty());
        // naming both for one seat settles nothing and sends neither
        let a = nvso(
            &cards,
            &Stage::prelim(),
            &nvso_rules(),
            &r,
            &[PlayerId(1), PlayerId(5)],
        );
        assert_eq!(ids(&a), vec![0, 4, 8]);
        assert!(!a.is_settled());
    }

    #[test]
    fn nvso_tied_seconds_that_all_fit_all_go_on() {
        // two winners, two seconds both 5 behind: two seats, both go
        let cards = vec![
            table4(1, [0, 1, 2, 3], [20, 15, -15, -20]),
            table4(2, [4, 5, 6, 7], [10, 5, -5, -10]),
        ];
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &roster(8), &[]);
        assert_eq!(ids(&a), vec![0, 4, 1, 5]);
        assert!(a.decisions.is_empty());
    }

    #[test]
    fn nvso_a_single_table_of_four_sends_everyone_in_order() {
        let cards = vec![table4(1, [0, 1, 2, 3], [40, -5, -15, -20])];
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &roster(4), &[]);
        // one winner; the only table's second (45 behind) fills a seat; the
        // table has no further seconds, so only 2 go on, and that is said
        assert_eq!(ids(&a), vec![0, 1]);
        assert_eq!(
            a.decisions,
            vec![Decision::EmptySeats {
                filled: 2,
                seats: 4
            }]
        );
        assert!(!a.is_settled());
    }

    #[test]
    fn nvso_withdrawn_and_disqualified_players_take_no_place() {
        let mut r = roster(8);
        let mut dq = Player::named("P08", "Cheat");
        dq.status = Status::Disqualified;
        r.add(dq).unwrap(); // PlayerId(8)
        let cards = vec![
            // 8 has the highest total but is disqualified: 0 wins table 1
            table4(1, [8, 0, 1, 2], [50, 10, -20, -40]),
            // 3 left after two games: withdrawn; 4 wins table 2
            card(
                2,
                &[
                    (3, &[60, 0]),
                    (4, &[-10, 20, 0]),
                    (5, &[-20, -5, 0]),
                    (6, &[-30, -15, 0]),
                ],
            ),
        ];
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
        assert_eq!(
            a.tables[0].lines.last().unwrap().apart,
            Some(Apart::Disqualified)
        );
        assert_eq!(
            a.tables[1].lines.last().unwrap().apart,
            Some(Apart::Withdrawn)
        );
        // winners 0 (+10) and 4 (+10); seconds 1 (30 behind) and 5 (35 behind)
        assert_eq!(ids(&a), vec![0, 4, 1, 5]);
    }

    #[test]
    fn no_cards_no_one_goes_on_and_nothing_to_decide() {
        let a = nvso(&[], &Stage::prelim(), &nvso_rules(), &roster(0), &[]);
        assert!(a.advancing.is_empty() && a.decisions.is_empty() && a.tables.is_empty());
        let g = gwinnett(&[], &Stage::prelim(), &gw_rules(), &roster(0), &[]);
        assert!(g.advancing.is_empty() && g.is_settled());
    }

    #[test]
    fn only_the_stage_asked_for_counts() {
        let cards = vec![table4(1, [0, 1, 2, 3], [40, -10, -10, -20]), {
            let mut c = table4(1, [0, 1, 2, 3], [-40, 10, 10, 20]);
            c.key.stage = Stage::new("final");
            c
        }];
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &roster(4), &[]);
        assert_eq!(a.tables.len(), 1);
        assert_eq!(a.advancing[0].player, PlayerId(0));
        let f = nvso(&cards, &Stage::new("final"), &nvso_rules(), &roster(4), &[]);
        assert_eq!(f.advancing[0].player, PlayerId(3));
    }

    #[test]
    fn a_player_at_two_tables_is_reported() {
        let cards = vec![
            card_in(
                "prelim",
                1,
                1,
                &[(0, &[10, 0, 0]), (1, &[-5, 0, 0]), (2, &[-5, 0, 0])],
            ),
            card_in(
                "prelim",
                2,
                1,
                &[(0, &[-10, 0, 0]), (3, &[5, 0, 0]), (4, &[5, 0, 0])],
            ),
        ];
        let r = roster(5);
        let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
        assert_eq!(
            a.decisions[0],
            Decision::SeveralTables {
                player: PlayerId(0),
                tables: vec![
                    "table 1 (session S01)".into(),
                    "table 1 (session S02)".into()
                ]
            }
        );
        assert_eq!(ids(&a)[..3], [0, 3, 4]);
    }

    #[test]
    fn gwinnett_lowest_total_goes_on_and_ties_all_go_unless_named() {
        let cards = vec![
            gw_card(1, &[(0, &[0, 12, 5]), (1, &[20, 0, 9]), (2, &[35, 8, 0])]),
            gw_card(
                2,
                &[
                    (3, &[14, 0, 0]),
                    (4, &[0, 7, 7]),
                    (5, &[3, 11, 0]),
                    (6, &[40, 2, 12]),
                ],
            ),
        ];
        let r = roster(7);
        // table 1: 0 has 17, 1 has 29, 2 has 43 -> 0
        // table 2: 3 has 14, 4 has 14, 5 has 14, 6 has 54 -> tie of three,
        // listed by games won (3 went out twice) then roster id
        let a = gwinnett(&cards, &Stage::prelim(), &gw_rules(), &r, &[]);
        assert_eq!(ids(&a), vec![0, 3, 4, 5]);
        assert_eq!(
            a.advancing[0].to_string(),
            "lowest total at table 1 with 17"
        );
        assert_eq!(
            a.advancing[1].to_string(),
            "lowest total at table 2 with 14 (shared)"
        );
        assert_eq!(
            a.decisions,
            vec![Decision::TieForLowest {
                table: "table 2".into(),
                tied: vec![PlayerId(3), PlayerId(4), PlayerId(5)],
                total: Score::whole(14),
                named: vec![]
            }]
        );
        assert!(
            !a.is_settled(),
            "10 for 9 seats waits for the director by default"
        );
        assert!(a.decisions[0].message(&r, a.policy).ends_with(
            "until the director names who goes on (--player), or sets table_ties = \"all\""
        ));
        // the policy that every tied player goes on settles it
        let all = Rules {
            table_ties: TableTies::All,
            ..gw_rules()
        };
        let a = gwinnett(&cards, &Stage::prelim(), &all, &r, &[]);
        assert_eq!(ids(&a), vec![0, 3, 4, 5]);
        assert!(a.is_settled());
        assert!(a.decisions[0]
            .message(&r, a.policy)
            .ends_with("table_ties = \"all\": all of them go on"));
        // the director names 4; naming 1 (in no tie) changes nothing
        let a = gwinnett(
            &cards,
            &Stage::prelim(),
            &gw_rules(),
            &r,
            &[PlayerId(4), PlayerId(1)],
        );
        assert_eq!(ids(&a), vec![0, 4]);
        assert!(a.advancing[1].named_by_director);
        assert!(a.is_settled());
        assert_eq!(a.unused_names, vec![PlayerId(1)]);
    }

    #[test]
    fn gwinnett_winner_is_the_lowest_not_the_highest() {
        let cards = vec![gw_card(5, &[(0, &[30, 20]), (1, &[0, 0]), (2, &[10, 5])])];
        let rules = Rules {
            games_per_session: 2,
            ..gw_rules()
        };
        let a = gwinnett(&cards, &Stage::new("semi"), &rules, &roster(3), &[]);
        assert!(a.tables.is_empty() && a.advancing.is_empty());
        let a = gwinnett(&cards, &Stage::prelim(), &rules, &roster(3), &[]);
        assert_eq!(ids(&a), vec![1]);
        assert_eq!(
            a.tables[0]
                .lines
                .iter()
                .map(|l| (l.player.0, l.place))
                .collect::<Vec<_>>(),
            vec![(1, Some(1)), (2, Some(2)), (0, Some(3))]
        );
    }

    #[test]
    fn rounded_up_means_towards_plus_infinity() {
        let w = Score::whole;
        assert_eq!(round_up(Score::ratio(45, 2)), w(23));
        assert_eq!(round_up(Score::ratio(-45, 2)), w(-22));
        assert_eq!(round_up(Score::ratio(5, 3)), w(2));
        assert_eq!(round_up(Score::ratio(-5, 3)), w(-1));
        assert_eq!(round_up(Score::ratio(-1, 2)), w(0));
        assert_eq!(round_up(w(7)), w(7));
        assert_eq!(round_up(w(-7)), w(-7));
        assert_eq!(round_up(Score::ratio(1, 1000)), w(1));
    }

    #[test]
    fn carry_none_all_half() {
        let w = Score::whole;
        assert_eq!(carried_points(w(45), Carry::None), w(0));
        assert_eq!(carried_points(w(45), Carry::All), w(45));
        assert_eq!(carried_points(w(45), Carry::Half), w(23));
        assert_eq!(carried_points(w(44), Carry::Half), w(22));
        assert_eq!(carried_points(w(-45), Carry::Half), w(-22));
        assert_eq!(carried_points(w(-1), Carry::Half), w(0));
        assert_eq!(carried_points(Score::ratio(10, 3), Carry::Half), w(2));
        assert_eq!(carried_points(Score::ratio(-10, 3), Carry::Half), w(-1));
        assert_eq!(
            carried_points(Score::ratio(10, 3), Carry::All),
            Score::ratio(10, 3)
        );
        assert_eq!("HALF".parse::<Carry>(), Ok(Carry::Half));
        assert_eq!(" all ".parse::<Carry>(), Ok(Carry::All));
        assert_eq!(Carry::default(), Carry::None);
        assert!("most"
            .parse::<Carry>()
            .unwrap_err()
            .contains("none, all or half"));
    }

    #[test]
    fn starting_tallies_for_the_next_stage() {
        let prev = vec![
            Tally {
                games: 3,
                won: 2,
                total: Score::whole(-45),
                tiles: 7,
                ..empty_tally(PlayerId(0))
            },
            Tally {
                games: 3,
                won: 1,
                total: Score::whole(31),
                tiles: 4,
                ..empty_tally(PlayerId(1))
            },
        ];
        let go = [PlayerId(1), PlayerId(0), PlayerId(5)];
        let half = starting_tallies(&prev, &go, Carry::Half);
        assert_eq!(
            half.iter()
                .map(|t| (t.player.0, t.total, t.games, t.won, t.tiles))
                .collect::<Vec<_>>(),
            vec![
                (0, Score::whole(-22), 0, 0, 0),
                (1, Score::whole(16), 0, 0, 0),
                (5, Score::ZERO, 0, 0, 0)
            ]
        );
        let all = starting_tallies(&prev, &go[..1], Carry::All);
        assert_eq!(all, vec![prev[1].clone()]);
        assert_eq!(all[0].total, Score::whole(31));
        let none = starting_tallies(&prev, &go[..1], Carry::None);
        assert_eq!(
            (none[0].total, none[0].games, none[0].won),
            (Score::ZERO, 0, 0)
        );
        // added to the next stage's own tallies
        let stage = vec![Tally {
            games: 2,
            won: 1,
            total: Score::whole(-6),
            tiles: 5,
            withdrawn: true,
            ..empty_tally(PlayerId(1))
        }];
        let merged = add_carried(&all, stage);
        assert_eq!(
            merged,
            vec![Tally {
                games: 5,
                won: 2,
                total: Score::whole(25),
                tiles: 9,
                withdrawn: true,
                ..empty_tally(PlayerId(1))
            }]
        );
    }
}
