//! The tables of a stage (RULES.md section 7, the table rules): each
//! checked card is one table, its players placed on their totals.

use super::{Advancer, Carried, Decision, TableLine, TableName, TableResult};
use crate::domain::{Card, Label, PlayerId, Stage};
use crate::profile::Rules;
use crate::roster::{Roster, Status};
use crate::rules::standings::Apart;
use crate::score::Score;
use std::collections::{BTreeMap, BTreeSet};

/// Which way a table's totals are better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Direction {
    Highest,
    Lowest,
}

/// The tables of `stage`, each ranked on its total in `direction`: the
/// points of the stage's games at the table plus what the player carried
/// into the stage (`carried`), the total the stage's standings count.
pub(super) fn tables(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    direction: Direction,
    carried: &Carried,
) -> Vec<TableResult> {
    let mut stage_cards: Vec<&Card> = cards.iter().filter(|c| &c.key.stage == stage).collect();
    stage_cards.sort_by(|a, b| a.key.cmp(&b.key));
    let sessions: BTreeSet<&Label> = stage_cards.iter().map(|c| &c.key.session).collect();
    let several_sessions = sessions.len() > 1;
    let later_stage = (*stage != rules.first_stage()).then(|| stage.clone());
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
                    if let Some(c) = carried.get(&sp.player) {
                        line.total += *c;
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
                name: TableName {
                    table: card.key.table.clone(),
                    session: several_sessions.then(|| card.key.session.clone()),
                    later_stage: later_stage.clone(),
                },
                key: card.key.clone(),
                lines,
            }
        })
        .collect()
}

/// Players on more than one table of the stage.
pub(super) fn several_tables(tables: &[TableResult]) -> Vec<Decision> {
    let mut at: BTreeMap<PlayerId, Vec<TableName>> = BTreeMap::new();
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

pub(super) fn push_once(advancing: &mut Vec<Advancer>, a: Advancer) {
    if !advancing.iter().any(|x| x.player == a.player) {
        advancing.push(a);
    }
}
