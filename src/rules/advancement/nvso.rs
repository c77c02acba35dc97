//! `nvso` (RULES.md section 7): table winners, then the best seconds up
//! to the championship table's seats.

use super::tables::{push_once, several_tables, tables, Direction};
use super::{
    Advancement, Advancer, Carried, Decision, Reason, Stayer, Staying, TableLine, TableResult,
    CHAMPIONSHIP_SEATS,
};
use crate::domain::{Card, PlayerId, Stage};
use crate::profile::{GoingOn, Rules, TableTies};
use crate::roster::Roster;
use crate::score::Score;

/// `nvso` (RULES.md section 7): every player with a table's highest total
/// goes on; then the second-placed players of all tables, by how few points
/// they finished behind their table's winner, fill the championship table
/// up to the championship table's seats ([`GoingOn::TableWinnersAndBestSeconds`],
/// 4 by default). `named` are players the director named to
/// settle a tie for the last seats. Each total counts the points the
/// player `carried` into the stage, as the stage's standings do.
pub fn nvso(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    named: &[PlayerId],
    carried: &Carried,
) -> Advancement {
    let championship_seats = match rules.going_on {
        GoingOn::TableWinnersAndBestSeconds { seats } => seats,
        _ => CHAMPIONSHIP_SEATS,
    };
    let tables = tables(cards, stage, rules, roster, Direction::Highest, carried);
    let mut decisions = several_tables(&tables);
    let mut advancing: Vec<Advancer> = Vec::new();
    let mut staying: Vec<Stayer> = Vec::new();
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
        // the seconds left out, farther behind than those who go on
        let last = advancing
            .iter()
            .filter_map(|a| match a.reason {
                Reason::BestSecond { behind, .. } => Some(behind),
                _ => None,
            })
            .max();
        for s in &seconds {
            if !advancing.iter().any(|a| a.player == s.line.player) {
                staying.push(Stayer {
                    player: s.line.player,
                    reason: Staying::Second {
                        table: s.table.name.clone(),
                        total: s.line.total,
                        behind: s.behind,
                        winners: s.winners,
                        last,
                    },
                });
            }
        }
        if seats > 0 && !tie && !tables.is_empty() {
            decisions.push(Decision::EmptySeats {
                filled: advancing.len(),
                seats: championship_seats,
            });
        }
    }
    Advancement::of(stage, rules, false, tables, advancing, decisions, staying)
}
