//! Tables of what happens between stages and at the end: who goes on, the
//! seating of the next stage, the medals, the Super Family Award.

use super::words::{List, Sentence as S};
use super::{Column, Table, Value};
use crate::domain::Stage;
use crate::event::{AdvanceList, Event};
use crate::profile::Scoring;
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
    let mut how: Vec<String> = Vec::new();
    for d in &list.decisions {
        if let Some(h) = super::going_on::how_to_settle(d, list) {
            if !how.contains(&h) {
                how.push(h);
            }
        }
    }
    Some(match S::Or.joined(how) {
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
    // "Qualifiers", or from a later stage "Qualifiers from the semi-final",
    // as the site's page names the list
    let head =
        super::words::EN.qualifiers_of(list.stage.as_str(), list.stage == event.qualifying_stage());
    let mut table = match &list.cut {
        Some(q) => {
            let title = format!(
                "{head} for the {}{}: top {} of the {} standings ({} rules), {} players{provisional}",
                list.to,
                group_title(&list.group),
                q.cutoff,
                list.stage,
                event.rules.profile,
                q.taken
            );
            let mut table = super::standings::qualifiers_table(
                &list.standings,
                q,
                &event.roster,
                &title,
                event.rules.scoring,
            );
            table.notes.extend(not_final(list));
            let ranked = list.standings.ranked.len();
            if q.cutoff as usize > ranked {
                table.notes.push(format!(
                    "Every ranked player goes on: {ranked} are ranked, fewer than the top {} asked for.",
                    q.cutoff
                ));
            }
            table
        }
        None => {
            let mut table = advance_table(list, &event.roster);
            table.title = format!(
                "{head} for the {}{}: {} ({} rules), {} players{provisional}",
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

/// The name of a qualifier list's table (a workbook's sheet, the site's
/// page): `Qualifiers [GROUP]` for who goes on from the first stage,
/// `Qualifiers STAGE [GROUP]` from a later one (`Qualifiers semi`).
pub fn qualifiers_name(event: &Event, stage: &Stage, group: Option<&str>) -> String {
    let mut name = "Qualifiers".to_string();
    if *stage != event.qualifying_stage() {
        name.push(' ');
        name.push_str(stage.as_str());
    }
    if let Some(g) = group {
        name.push(' ');
        name.push_str(g);
    }
    name
}

/// The stage a qualifier list's table named `name` goes on from, and its
/// group (`""` for none), as [`qualifiers_name`] names it; `None` for a
/// table that is no qualifier list.
pub fn qualifiers_of<'n>(event: &Event, name: &'n str) -> Option<(Stage, &'n str)> {
    let rest = name.strip_prefix("Qualifiers")?;
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let rest = rest.trim_start();
    let first = event.qualifying_stage();
    let later = event.rules.stages.iter().skip(1).find_map(|s| {
        let after = rest.strip_prefix(s.as_str())?;
        (after.is_empty() || after.starts_with(' ')).then(|| (Stage::new(s), after.trim_start()))
    });
    Some(later.unwrap_or((first, rest)))
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
            notes.push(in_group(S::NotAwarded.en(&[&List(&skipped)])));
        }
        // (said once: every group's medals are of the one stage)
        let not_final = S::NotAFinal.en(&[&m.stage]);
        if !m.from_final() && !notes.contains(&not_final) {
            notes.push(not_final);
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
pub fn awards_table(award: &SuperFamily, roster: &Roster, scoring: Scoring) -> Table {
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
    // the average in the words of the standings' header
    let columns = super::standings::headed(columns, scoring);
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
            S::SuperFamilyTie.en(&[&List(
                &tied
                    .iter()
                    .map(|u| u.unit.family.as_str())
                    .collect::<Vec<_>>(),
            )]),
        ),
        _ => notes.push(S::NoUnitEligible.text().to_string()),
    }
    notes.extend(families_apart(award));
    Table {
        name: "Super Family Award".into(),
        title: "Super Family Award".into(),
        columns,
        rows,
        notes,
    }
}

/// Most families a summary of the families set apart names for one
/// reason; the others are counted ([`families_apart_table`] lists each).
pub const FAMILIES_NAMED: usize = 10;

/// The first [`FAMILIES_NAMED`] of `families`, and `…` when there are
/// more: the list of `52 (F001, F002, …)`.
fn families_named<'a>(families: &[&'a str]) -> Vec<&'a str> {
    let mut named: Vec<&str> = families.iter().take(FAMILIES_NAMED).copied().collect();
    if families.len() > FAMILIES_NAMED {
        named.push("…");
    }
    named
}

/// The families set apart from the award, in a line for those not
/// eligible and a line for those that are not units (none when there
/// are none): how many, and how many for each reason, with the first
/// families of each (`57 families are not eligible for the award: neither
/// member qualified for the final, 52 (F001, F002, …); one member did not
/// qualify for the final, 5 (F003, F004, …).`). The award's table says
/// this under it; [`families_apart_table`] lists each family and why.
pub fn families_apart(award: &SuperFamily) -> Vec<String> {
    use crate::rules::awards::{IneligibleReason as I, NotAUnitReason as N};
    /// `kinds` of which `kind` gives each of `items`, said as the parts of
    /// one line: each kind that has some, with its families.
    fn by_kind<T>(
        items: &[T],
        kinds: &[S],
        kind: impl Fn(&T) -> usize,
        family: impl Fn(&T) -> &str,
    ) -> String {
        let parts = kinds.iter().enumerate().filter_map(|(k, sentence)| {
            let families: Vec<&str> = items.iter().filter(|i| kind(i) == k).map(&family).collect();
            (!families.is_empty())
                .then(|| sentence.en(&[&families.len(), &List(&families_named(&families))]))
        });
        S::And.joined(parts).unwrap_or_default()
    }
    let mut lines = Vec::new();
    if !award.ineligible.is_empty() {
        let parts = by_kind(
            &award.ineligible,
            &[
                S::KindNeitherQualified,
                S::KindOneNotQualified,
                S::KindNoFinalResult,
            ],
            |i| match &i.reason {
                I::NotQualified { ids } if ids.len() >= 2 => 0,
                I::NotQualified { .. } => 1,
                I::NoResult { .. } => 2,
            },
            |i| i.unit.family.as_str(),
        );
        lines.push(match award.ineligible.len() {
            1 => S::NotEligibleOne.en(&[&parts]),
            n => S::NotEligibleMany.en(&[&n, &parts]),
        });
    }
    if !award.not_units.is_empty() {
        let parts = by_kind(
            &award.not_units,
            &[S::KindAlone, S::KindTooMany, S::KindNoAge, S::KindAges],
            |n| match &n.reason {
                N::Alone => 0,
                N::TooMany { .. } => 1,
                N::NoAge { .. } => 2,
                N::NoChild { .. } | N::NoParent { .. } | N::SameAge { .. } => 3,
            },
            |n| n.family.as_str(),
        );
        lines.push(match award.not_units.len() {
            1 => S::NotAUnitOne.en(&[&parts]),
            n => S::NotAUnitMany.en(&[&n, &parts]),
        });
    }
    lines
}

/// Each family set apart from the award and why, one row each: those not
/// eligible, then those that are not units, each by family id (`awards
/// --all`). The same families [`families_apart`] sums up.
pub fn families_apart_table(award: &SuperFamily, roster: &Roster) -> Table {
    let who = |p| {
        let pl = roster.get(p);
        if pl.name.is_empty() {
            pl.id.clone()
        } else {
            format!("{} {}", pl.id, pl.name)
        }
    };
    let mut rows: Vec<Vec<Value>> = award
        .ineligible
        .iter()
        .map(|i| {
            vec![
                Value::text(&i.unit.family),
                Value::Text(format!("{}, {}", who(i.unit.parent), who(i.unit.child)).into()),
                Value::Text(i.reason.to_string().into()),
            ]
        })
        .collect();
    rows.extend(award.not_units.iter().map(|n| {
        let members: Vec<String> = n.members.iter().map(|&p| who(p)).collect();
        vec![
            Value::text(&n.family),
            Value::Text(members.join(", ").into()),
            Value::Text(S::NotAUnitBecause.en(&[&n.reason]).into()),
        ]
    }));
    let notes = if rows.is_empty() {
        vec![S::NoFamilyApart.text().to_string()]
    } else {
        Vec::new()
    };
    Table {
        name: "Not eligible".into(),
        title: format!(
            "Super Family Award: {} not eligible, {} not units",
            award.ineligible.len(),
            award.not_units.len()
        ),
        columns: vec![
            Column::text("family"),
            Column::text("members"),
            Column::text("reason"),
        ],
        rows,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::PlayerId;
    use crate::rules::awards::{
        FamilyAges, Ineligible, IneligibleReason, NotAUnit, NotAUnitReason, Unit,
    };

    fn unit(n: u32) -> Unit {
        Unit {
            family: format!("F{n:03}"),
            parent: PlayerId(2 * n),
            child: PlayerId(2 * n + 1),
            parent_age: 45,
            child_age: 12,
        }
    }

    fn ineligible(n: u32, reason: IneligibleReason) -> Ineligible {
        Ineligible {
            unit: unit(n),
            reason,
        }
    }

    /// 14 families not eligible (12 with neither member in the final, one
    /// with one member out, one with a member withdrawn) and 2 that are
    /// not units: a line for each kind, counting by reason and naming
    /// the first ten families of each.
    fn award() -> SuperFamily {
        let neither = |n| IneligibleReason::NotQualified {
            ids: vec![format!("P{}", 2 * n), format!("P{}", 2 * n + 1)],
        };
        let mut apart: Vec<Ineligible> = (1..=12).map(|n| ineligible(n, neither(n))).collect();
        apart.push(ineligible_one(13));
        apart.push(ineligible(
            14,
            IneligibleReason::NoResult {
                id: "P28".into(),
                apart: Some(crate::rules::standings::Apart::Withdrawn),
            },
        ));
        SuperFamily {
            ranked: Vec::new(),
            ineligible: apart,
            not_units: vec![
                NotAUnit {
                    family: "F050".into(),
                    members: vec![PlayerId(100)],
                    reason: NotAUnitReason::Alone,
                },
                NotAUnit {
                    family: "F051".into(),
                    members: vec![PlayerId(101), PlayerId(102)],
                    reason: NotAUnitReason::NoChild {
                        id: "P102".into(),
                        age: 30,
                        ages: FamilyAges {
                            child_min: 7,
                            child_max: 18,
                            parent_min: 18,
                        },
                    },
                },
            ],
        }
    }

    fn ineligible_one(n: u32) -> Ineligible {
        ineligible(
            n,
            IneligibleReason::NotQualified {
                ids: vec![format!("P{}", 2 * n)],
            },
        )
    }

    #[test]
    fn families_set_apart_are_summed_up_in_a_line_each() {
        assert_eq!(
            families_apart(&award()),
            [
                "14 families are not eligible for the award: neither member qualified for the final, 12 (F001, F002, F003, F004, F005, F006, F007, F008, F009, F010, …); one member did not qualify for the final, 1 (F013); a member has no ranked result in the final, 1 (F014).",
                "2 families are not units: only one roster entry has the family id, 1 (F050); the ages do not make a parent and a child, 1 (F051).",
            ]
        );
        let one = SuperFamily {
            ineligible: vec![ineligible_one(3)],
            not_units: Vec::new(),
            ..award()
        };
        assert_eq!(
            families_apart(&one),
            ["1 family is not eligible for the award: one member did not qualify for the final, 1 (F003)."]
        );
        let none = SuperFamily {
            ineligible: Vec::new(),
            not_units: Vec::new(),
            ..award()
        };
        assert!(families_apart(&none).is_empty());
    }

    /// The site says the summary in the page's language, part by part,
    /// the families as they are.
    #[test]
    fn the_summary_is_said_in_chinese_on_the_site() {
        use crate::report::site::said::say;
        use crate::report::words::Lang;
        let lines = families_apart(&award());
        assert_eq!(
            say(Lang::ZhHant, &lines[0]),
            "14 個家庭不合資格：兩名成員均未晉級決賽，12（F001、F002、F003、F004、F005、F006、F007、F008、F009、F010、…）；其中一名成員未晉級決賽，1（F013）；有成員沒有決賽排名，1（F014）。"
        );
        assert_eq!(
            say(Lang::ZhHant, &lines[1]),
            "2 個家庭不構成參賽單位：名冊上只有一人用此家庭編號，1（F050）；年齡不符一名家長及一名子女，1（F051）。"
        );
    }

    /// `awards --all`: each family set apart, its members and why.
    #[test]
    fn the_table_of_families_set_apart_lists_each_and_why() {
        let mut roster = Roster::default();
        for n in 0..=102 {
            roster
                .add(crate::roster::Player::named(
                    &format!("P{n}"),
                    &format!("Name {n}"),
                ))
                .unwrap();
        }
        let table = families_apart_table(&award(), &roster);
        assert_eq!(table.rows.len(), 16);
        let row =
            |r: usize| -> Vec<String> { table.rows[r].iter().map(ToString::to_string).collect() };
        assert_eq!(
            row(0),
            [
                "F001",
                "P2 Name 2, P3 Name 3",
                "neither P2 nor P3 qualified for the final"
            ]
        );
        assert_eq!(
            row(13),
            [
                "F014",
                "P28 Name 28, P29 Name 29",
                "P28 has no ranked result in the final (withdrawn)"
            ]
        );
        assert_eq!(
            row(14),
            [
                "F050",
                "P100 Name 100",
                "not a unit: only one roster entry has this family id: a unit is two, a parent and a child"
            ]
        );
        let names: Vec<&str> = table.columns.iter().map(|c| c.name).collect();
        assert_eq!(names, ["family", "members", "reason"]);
    }
}
