//! Tables of what happens between stages and at the end: who goes on, the
//! seating of the next stage, the medals, the Super Family Award.

use super::words::Sentence as S;
use super::{Column, Table, Value};
use crate::event::{AdvanceList, Event};
use crate::roster::Roster;
use crate::rules::awards::SuperFamily;
use crate::rules::medals::Medals;
use crate::rules::seating::Seating;
use compact_str::ToCompactString;

fn text(s: &str) -> Value {
    if s.is_empty() {
        Value::Empty
    } else {
        Value::Text(s.to_compact_string())
    }
}

fn group_title(group: &Option<String>) -> String {
    group
        .as_ref()
        .map(|g| format!(", group {g}"))
        .unwrap_or_default()
}

/// Who goes on, with the reason.
pub fn advance_table(list: &AdvanceList, roster: &Roster) -> Table {
    let columns = vec![
        Column::text("group"),
        Column::text("player"),
        Column::text("name"),
        Column::text("reason"),
    ];
    let rows = list
        .going
        .iter()
        .map(|a| {
            let pl = roster.get(a.player);
            vec![
                text(list.group.as_deref().unwrap_or("")),
                Value::text(&pl.id),
                text(&pl.name),
                Value::Text(super::going_on::reason(a).into()),
            ]
        })
        .collect();
    let mut notes = Vec::new();
    notes.extend(not_final(list));
    Table {
        name: format!(
            "Advance {}{}",
            list.stage,
            list.group
                .as_ref()
                .map(|g| format!(" {g}"))
                .unwrap_or_default()
        ),
        title: format!(
            "Going on from the {} stage to the {}{}: {} players",
            list.stage,
            list.to,
            group_title(&list.group),
            list.going.len()
        ),
        columns,
        rows,
        notes,
    }
}

/// What each row of a list that waits for the director says in its note
/// (see [`mark_not_final`]).
pub const NOT_FINAL: &str = "NOT FINAL: the director decides";

/// Marks every row of a list that is not final in its `note` column, for
/// a file whose reader sees no title (CSV, JSON, a workbook's sheet on
/// the screen): `provisional` first (`PROVISIONAL: 3 cards missing`,
/// [`crate::event::Completeness::mark`]) while its stage is not complete,
/// then [`NOT_FINAL`] while a decision waits for the director. A final
/// list is left as it is. The mark, when the list is not final: a list
/// with no row has nowhere to carry it, and is not written to such a file
/// (the command says why).
pub fn mark_not_final(
    table: &mut Table,
    list: &AdvanceList,
    provisional: Option<&str>,
) -> Option<String> {
    let marks: Vec<&str> = provisional
        .into_iter()
        .chain((!list.settled).then_some(NOT_FINAL))
        .collect();
    if marks.is_empty() {
        return None;
    }
    let mark = marks.join("; ");
    mark_rows(table, &mark);
    Some(mark)
}

/// Begins the `note` of every row with `mark`, what the note said (a
/// shared rank) after it; a table without a `note` column gets one, last.
pub fn mark_rows(table: &mut Table, mark: &str) {
    let at = match table.columns.iter().position(|c| c.name == "note") {
        Some(at) => at,
        None => {
            table.columns.push(Column::text("note"));
            table.columns.len() - 1
        }
    };
    for row in &mut table.rows {
        row.resize(row.len().max(at + 1), Value::Empty);
        let note = match &row[at] {
            Value::Text(t) if !t.is_empty() => S::And.en(&[&mark, t]),
            _ => mark.to_string(),
        };
        row[at] = Value::Text(note.into());
    }
}

/// The note that marks a list waiting for the director, the same on every
/// view of it: what the director can do that settles it
/// ([`super::going_on::how_to_settle`] each decision it waits for).
pub(crate) fn not_final(list: &AdvanceList) -> Option<String> {
    if list.settled {
        return None;
    }
    let mut how: Vec<&str> = Vec::new();
    for d in &list.decisions {
        if let Some(h) = super::going_on::how_to_settle(d, list.table_ties) {
            if !how.contains(&h) {
                how.push(h);
            }
        }
    }
    Some(match S::Or.joined(how.into_iter().map(str::to_string)) {
        None => S::NotFinal.text().to_string(),
        Some(how) => S::NotFinalUntil.en(&[&how]),
    })
}

/// Who goes on, as the qualifier list: under a top-N rule the standings'
/// columns with `Q` and the cutoff marked, else each player with the reason
/// (table winner, best second, lowest total). `provisional` ends the title
/// while cards are missing.
pub fn qualifiers_view(list: &AdvanceList, event: &Event, provisional: &str) -> Table {
    let suffix = list
        .group
        .as_ref()
        .map(|g| format!(" {g}"))
        .unwrap_or_default();
    let mut table = match &list.cut {
        Some(q) => {
            let title = format!(
                "Qualifiers for the {}{}: top {} of the {} standings ({} rules), {} players{provisional}",
                list.to,
                group_title(&list.group),
                q.cutoff,
                list.stage,
                event.rules.profile,
                q.taken
            );
            let mut table =
                super::standings::qualifiers_table(&list.standings, q, &event.roster, &title);
            table.notes.extend(not_final(list));
            table
        }
        None => {
            let mut table = advance_table(list, &event.roster);
            table.title = format!(
                "Qualifiers for the {}{}: {} ({} rules), {} players{provisional}",
                list.to,
                group_title(&list.group),
                super::going_on::rule(&event.rules),
                event.rules.profile,
                list.going.len()
            );
            table
        }
    };
    table.name = format!("Qualifiers{suffix}");
    table
}

/// The seating of the next stage: one line per seat.
pub fn seating_table(seating: &Seating, event: &Event, title: &str) -> Table {
    let columns = vec![
        Column::int("session"),
        Column::int("table"),
        Column::text("seat"),
        Column::text("player"),
        Column::text("name"),
        Column::text("group"),
    ];
    let mut rows = Vec::new();
    for t in &seating.tables {
        for (seat, p) in &t.seats {
            let pl = event.roster.get(*p);
            rows.push(vec![
                Value::Int(i64::from(t.session)),
                Value::Int(i64::from(t.number)),
                Value::Text(seat.to_compact_string()),
                Value::text(&pl.id),
                text(&pl.name),
                text(event.groups.of.get(p).map(String::as_str).unwrap_or("")),
            ]);
        }
    }
    let notes = seating
        .repeats
        .iter()
        .map(|(a, b)| {
            format!(
                "{} and {} sat together before and do again: too few tables to keep them apart.",
                event.roster.get(*a).id,
                event.roster.get(*b).id
            )
        })
        .collect();
    Table {
        name: "Seating".into(),
        title: title.to_string(),
        columns,
        rows,
        notes,
    }
}

/// The medal table of one or more groups.
pub fn medals_table(all: &[Medals], event: &Event) -> Table {
    let names = event.rules.medal_names;
    let columns = vec![
        Column::text("group"),
        Column::text("medal"),
        Column::int("rank"),
        Column::text("player"),
        Column::text("name"),
        Column::text("note"),
    ];
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for m in all {
        for x in &m.medalists {
            let p = event.roster.get(x.player);
            rows.push(vec![
                text(m.group.as_deref().unwrap_or("")),
                Value::Text(x.medal.name(names).to_compact_string()),
                Value::Int(i64::from(x.rank)),
                Value::text(&p.id),
                text(&p.name),
                if x.shared {
                    Value::text(S::SharedWord.text())
                } else {
                    Value::Empty
                },
            ]);
        }
        let skipped: Vec<&str> = m.not_awarded().iter().map(|md| md.name(names)).collect();
        let in_group = |said| S::in_group(m.group.as_ref(), said);
        if m.medalists.is_empty() {
            // (a group whose final has no card yet, under --allow-incomplete)
            notes.push(in_group(S::NoMedalYet.en(&[&m.stage])));
        } else if !skipped.is_empty() {
            notes.push(in_group(S::NotAwarded.en(&[&skipped.join(", ")])));
        }
        if !m.from_final() {
            notes.push(S::NotAFinal.en(&[&m.stage]));
        }
    }
    Table {
        name: "Medals".into(),
        title: format!("Medals ({} rules)", event.rules.profile),
        columns,
        rows,
        notes,
    }
}

/// The Super Family Award: eligible units ranked, and why others are not.
pub fn awards_table(award: &SuperFamily, roster: &Roster) -> Table {
    let columns = vec![
        Column::int("rank"),
        Column::text("family"),
        Column::text("parent"),
        Column::text("parent_name"),
        Column::text("child"),
        Column::text("child_name"),
        // the award's order (crate::rules::awards): its keys
        Column::int("won").as_key(0),
        Column::score("avg_score").as_key(1),
        Column::int("tiles").as_key(2),
    ];
    let who = |p| {
        let pl = roster.get(p);
        format!("{} {}", pl.id, pl.name)
    };
    let rows = award
        .ranked
        .iter()
        .map(|u| {
            vec![
                Value::Int(i64::from(u.rank)),
                Value::text(&u.unit.family),
                Value::text(&roster.get(u.unit.parent).id),
                Value::text(&roster.get(u.unit.parent).name),
                Value::text(&roster.get(u.unit.child).id),
                Value::text(&roster.get(u.unit.child).name),
                Value::Int(i64::from(u.won)),
                Value::Score(u.average),
                Value::Int(i64::from(u.tiles)),
            ]
        })
        .collect();
    let mut notes = Vec::new();
    match (award.winner(), award.tie_for_best().as_slice()) {
        (Some(w), _) => notes.push(S::SuperFamily.en(&[
            &w.unit.family,
            &who(w.unit.parent),
            &who(w.unit.child),
        ])),
        (None, tied) if !tied.is_empty() => notes.push(
            S::SuperFamilyTie.en(&[&tied
                .iter()
                .map(|u| u.unit.family.as_str())
                .collect::<Vec<_>>()
                .join(", ")]),
        ),
        _ => notes.push(S::NoUnitEligible.text().to_string()),
    }
    for i in &award.ineligible {
        notes.push(S::FamilyNotEligible.en(&[&i.unit.family, &i.reason]));
    }
    for n in &award.not_units {
        notes.push(S::FamilyNotAUnit.en(&[&n.family, &n.reason]));
    }
    Table {
        name: "Super Family Award".into(),
        title: "Super Family Award".into(),
        columns,
        rows,
        notes,
    }
}
