//! The standings and qualifier tables, with FORMATS.md's columns:
//! `rank, player, name, group, games, won, avg_score, total_score, tiles,
//! status, note`. Status is `Q` (qualified), `W` (withdrawn) or `DQ`.

use super::{Column, Kind, Table, Value};
use crate::roster::Roster;
use crate::rules::qualifiers::Qualifiers;
use crate::rules::standings::{Apart, Entry, Standings};

pub const COLUMNS: [Column; 11] = [
    Column {
        name: "rank",
        kind: Kind::Int,
    },
    Column {
        name: "player",
        kind: Kind::Text,
    },
    Column {
        name: "name",
        kind: Kind::Text,
    },
    Column {
        name: "group",
        kind: Kind::Text,
    },
    Column {
        name: "games",
        kind: Kind::Int,
    },
    Column {
        name: "won",
        kind: Kind::Int,
    },
    Column {
        name: "avg_score",
        kind: Kind::Score,
    },
    Column {
        name: "total_score",
        kind: Kind::Score,
    },
    Column {
        name: "tiles",
        kind: Kind::Int,
    },
    Column {
        name: "status",
        kind: Kind::Text,
    },
    Column {
        name: "note",
        kind: Kind::Text,
    },
];

fn row(e: &Entry, roster: &Roster, status: &str, note: String) -> Vec<Value> {
    let p = roster.get(e.tally.player);
    let text = |s: &str| {
        if s.is_empty() {
            Value::Empty
        } else {
            Value::Text(s.to_string())
        }
    };
    vec![
        e.rank.map_or(Value::Empty, |r| Value::Int(i64::from(r))),
        Value::Text(p.id.clone()),
        text(&p.name),
        text(p.group.as_deref().unwrap_or("")),
        Value::Int(i64::from(e.tally.games)),
        Value::Int(i64::from(e.tally.won)),
        Value::Score(e.tally.average()),
        Value::Score(e.tally.total),
        Value::Int(i64::from(e.tally.tiles)),
        text(status),
        text(&note),
    ]
}

fn apart_status(e: &Entry) -> &'static str {
    match e.apart {
        Some(Apart::Withdrawn) => "W",
        Some(Apart::Disqualified) => "DQ",
        None => "",
    }
}

fn shared_note(e: &Entry) -> String {
    if e.shared {
        format!("shared rank {}", e.rank.unwrap_or(0))
    } else {
        String::new()
    }
}

fn order_note(s: &Standings) -> String {
    let keys: Vec<String> = s.order.iter().map(|k| k.to_string()).collect();
    format!("Order: {}.", keys.join(", then "))
}

/// Every player of the stage: the ranking, then those listed apart.
/// With `qualifiers`, status `Q` marks who goes on.
pub fn standings_table(
    s: &Standings,
    roster: &Roster,
    qualifiers: Option<&Qualifiers>,
    title: &str,
) -> Table {
    let in_q = |e: &Entry| {
        qualifiers.is_some_and(|q| q.qualified.iter().any(|x| x.tally.player == e.tally.player))
    };
    let straddle_rank = qualifiers.and_then(|q| q.straddle.as_ref().map(|s| s.rank));
    let mut rows = Vec::new();
    for e in &s.ranked {
        let mut note = shared_note(e);
        if straddle_rank.is_some() && e.rank == straddle_rank {
            note = format!("tie at cutoff, {note}");
        }
        rows.push(row(e, roster, if in_q(e) { "Q" } else { "" }, note));
    }
    for e in &s.apart {
        rows.push(row(e, roster, apart_status(e), String::new()));
    }
    let mut notes = vec![order_note(s)];
    if !s.apart.is_empty() {
        notes.push(format!(
            "{} listed apart, not ranked (W withdrawn, DQ disqualified).",
            s.apart.len()
        ));
    }
    notes.extend(qualifiers.and_then(|q| q.straddle_message()));
    Table {
        name: format!("Standings {}", s.stage),
        title: title.to_string(),
        columns: COLUMNS.to_vec(),
        rows,
        notes,
    }
}

/// Only the players who go on.
pub fn qualifiers_table(s: &Standings, q: &Qualifiers, roster: &Roster, title: &str) -> Table {
    let straddle_rank = q.straddle.as_ref().map(|s| s.rank);
    let rows = q
        .qualified
        .iter()
        .map(|e| {
            let mut note = shared_note(e);
            if straddle_rank.is_some() && e.rank == straddle_rank {
                note = format!("tie at cutoff, {note}");
            }
            row(e, roster, "Q", note)
        })
        .collect();
    let mut notes = vec![order_note(s)];
    notes.extend(q.straddle_message());
    Table {
        name: "Qualifiers".to_string(),
        title: title.to_string(),
        columns: COLUMNS.to_vec(),
        rows,
        notes,
    }
}
