//! `gwinnett` (RULES.md section 7): each table's lowest total goes on.

use super::tables::{push_once, several_tables, tables, unused, Direction};
use super::{Advancement, Advancer, Decision, Reason, TableLine};
use crate::domain::{Card, PlayerId, Stage};
use crate::profile::Rules;
use crate::roster::Roster;
use std::collections::BTreeSet;

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
    decisions.extend(
        unused(named, &used_names)
            .into_iter()
            .map(|player| Decision::NamedInNoTie { player }),
    );
    Advancement {
        stage: stage.clone(),
        policy: rules.table_ties,
        tables,
        advancing,
        decisions,
    }
}
