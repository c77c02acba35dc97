//! The best `K` at each table go on (RULES.md section 7; `gwinnett` is
//! `K = 1` under penalty points: each table's lowest total). Best is the
//! lowest total under penalty points and the highest under zero-sum
//! scoring; a table's places count the total only. When players share the
//! place at the `K`-th seat and do not all fit, the tie is reported and
//! all of them go on unless the director `named` some of them; then only
//! those named do.

use super::tables::{push_once, several_tables, tables, Direction};
use super::{Advancement, Advancer, Carried, Decision, Reason, TableLine};
use crate::domain::{Card, PlayerId, Stage};
use crate::profile::{Rules, Scoring};
use crate::roster::Roster;

/// Which way a table's totals are better under `rules`.
fn direction(rules: &Rules) -> Direction {
    match rules.scoring {
        Scoring::PenaltyPoints => Direction::Lowest,
        Scoring::ZeroSum => Direction::Highest,
    }
}

/// The best `per_table` of each table of `stage`, each player's total with
/// the points they `carried` into the stage (as the standings count it).
pub fn best_at_each_table(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    named: &[PlayerId],
    per_table: usize,
    carried: &Carried,
) -> Advancement {
    let direction = direction(rules);
    let lowest = direction == Direction::Lowest;
    let tables = tables(cards, stage, rules, roster, direction, carried);
    let mut decisions = several_tables(&tables);
    let mut advancing: Vec<Advancer> = Vec::new();
    for t in &tables {
        // the places within the seats (1, 1, 3 for a tie: places count)
        let within: Vec<&TableLine> = t
            .lines
            .iter()
            .filter(|l| l.place.is_some_and(|p| p as usize <= per_table))
            .collect();
        let Some(last) = within.last().and_then(|l| l.place) else {
            continue;
        };
        let at_last: Vec<&TableLine> = within
            .iter()
            .copied()
            .filter(|l| l.place == Some(last))
            .collect();
        // players sharing the last place within the seats, more of them
        // than fit: a tie for the director
        let tie = within.len() > per_table;
        let chosen: Vec<PlayerId> = if tie {
            at_last
                .iter()
                .map(|l| l.player)
                .filter(|p| named.contains(p))
                .collect()
        } else {
            Vec::new()
        };
        if tie {
            decisions.push(Decision::TieAtTable {
                table: t.name.clone(),
                place: last,
                lowest,
                tied: at_last.iter().map(|l| l.player).collect(),
                total: at_last[0].total,
                named: chosen.clone(),
            });
        }
        for l in &within {
            let place = l.place.unwrap_or(last);
            let by_name = chosen.contains(&l.player);
            if place == last && !chosen.is_empty() && !by_name {
                continue;
            }
            let sharing = within.iter().filter(|x| x.place == l.place).count();
            push_once(
                &mut advancing,
                Advancer {
                    player: l.player,
                    place,
                    reason: Reason::AtTable {
                        table: t.name.clone(),
                        total: l.total,
                        place,
                        lowest,
                        shared: sharing > 1,
                    },
                    named_by_director: by_name,
                },
            );
        }
    }
    Advancement::of(
        stage,
        rules,
        lowest,
        tables,
        advancing,
        decisions,
        Vec::new(),
    )
}
