//! Who goes on, in words: the reasons and decisions of
//! [`crate::rules::advancement`] as every command, the export and the
//! website say them. The rules give typed answers; this is the one place
//! they become sentences.

use crate::domain::{Label, PlayerId, SessionName};
use crate::event::AdvanceList;
use crate::profile::{CutoffTies, GoingOn, Rules, TableTies};
use crate::report::words::Sentence as S;
use crate::roster::Roster;
use crate::rules::advancement::{Advancer, Cut, Decision, Reason, Staying, Straddle, TableName};
use crate::score::Score;

/// Why a player goes on: "rank 7 of the top 120", "table winner at table
/// 3 with +45 (shared)", "best second: 3 behind the winner of table 2",
/// "lowest total at table 1 with 12" (a later stage's table with its
/// stage: "lowest total at semi table 1 with 12"), and ", named by the
/// director to settle a tie" when the director named them.
pub fn reason(a: &Advancer) -> String {
    let mut out = match &a.reason {
        Reason::Rank { rank, cutoff, tied } if *tied => S::RankTiedAtCutoff.en(&[rank, cutoff]),
        Reason::Rank { rank, cutoff, .. } => S::RankOfTop.en(&[rank, cutoff]),
        Reason::TableWinner {
            table,
            total,
            shared,
        } => shared_if(
            *shared,
            S::TableWinner.en(&[&table_name(table), &total.signed()]),
        ),
        Reason::BestSecond {
            table,
            behind,
            winners,
            ..
        } => {
            let said = if *winners > 1 {
                S::BestSecondOfWinners
            } else {
                S::BestSecond
            };
            said.en(&[behind, &table_name(table)])
        }
        Reason::AtTable {
            table,
            total,
            place,
            lowest,
            shared,
        } => shared_if(*shared, at_table(table, *total, *place, *lowest)),
    };
    if a.named_by_director {
        out = S::NamedToSettle.en(&[&out]);
    }
    out
}

/// Why a player does not go on, under a table rule: "2nd lowest total at
/// table 5 with 76; the last to go on from there had 73", "second: 35
/// behind the winner of table 3; the seconds who went on were at most 12
/// behind", "lowest total at table 6 with 36: in a tie, the director
/// named who goes on".
pub fn staying(s: &Staying) -> String {
    match s {
        Staying::AtTable {
            table,
            total,
            place,
            lowest,
            shared,
            last,
        } => S::LastToGoOn.en(&[
            &shared_if(*shared, at_table(table, *total, *place, *lowest)),
            &said_total(*last, *lowest),
        ]),
        Staying::Second {
            table,
            behind,
            winners,
            last,
            ..
        } => {
            let table = &table_name(table);
            match (last, *winners > 1) {
                (Some(last), false) => S::SecondFarther.en(&[behind, table, last]),
                (Some(last), true) => S::SecondOfWinnersFarther.en(&[behind, table, last]),
                (None, false) => S::SecondNoneWent.en(&[behind, table]),
                (None, true) => S::SecondOfWinnersNoneWent.en(&[behind, table]),
            }
        }
        Staying::InTie {
            table,
            total,
            place,
            lowest,
            named,
        } => {
            let said = at_table(table, *total, *place, *lowest);
            if *named {
                S::TiedNamedOthers.en(&[&said])
            } else {
                S::TiedDirectorDecides.en(&[&said])
            }
        }
    }
}

/// A place at a table in words: "lowest total at table 1 with 12", "2nd
/// highest total at table 3 with +10".
fn at_table(table: &TableName, total: Score, place: u32, lowest: bool) -> String {
    let total = said_total(total, lowest);
    let table = &table_name(table);
    match (place, lowest) {
        (1, true) => S::LowestAt.en(&[table, &total]),
        (1, false) => S::HighestAt.en(&[table, &total]),
        (n, lowest) => nth(n, lowest, true).en(&[&n, table, &total]),
    }
}

/// A table's total as its places are said: penalty points as they are,
/// zero-sum points with their sign.
fn said_total(total: Score, lowest: bool) -> String {
    if lowest {
        total.to_string()
    } else {
        total.signed()
    }
}

/// `said`, and " (shared)" after it when `shared`.
fn shared_if(shared: bool, said: String) -> String {
    if shared {
        S::Shared.en(&[&said])
    } else {
        said
    }
}

/// A decision in words, naming players by roster id; `policy` is the
/// event's `table_ties`, and `settings` the settings file a setting that
/// settles it is changed in ([`settings_file`]).
pub fn decision(d: &Decision, roster: &Roster, policy: TableTies, settings: &str) -> String {
    let all_go = policy == TableTies::All;
    let ids = |ps: &[PlayerId]| {
        ps.iter()
            .map(|&p| roster.id(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match d {
        Decision::TieAtCutoff {
            straddle,
            cutoff,
            policy,
            qualifiers,
        } => tie_at_cutoff(straddle, *cutoff, *policy, *qualifiers),
        Decision::TooManyTableWinners { winners, seats } => S::TooManyWinners.en(&[
            &winners.len(),
            &ids(winners),
            seats,
            &if all_go {
                S::AllPlayChampionship
            } else {
                S::DirectorDecidesPlayOff
            }
            .text(),
        ]),
        Decision::TieForLastSeats {
            tied,
            behind,
            seats,
            named,
        } => {
            let head = if *seats == 1 {
                S::TieForLastSeat.en(&[&tied.len(), &ids(tied), behind])
            } else {
                S::TieForLastSeats.en(&[&tied.len(), &ids(tied), behind, seats])
            };
            if named.len() == *seats {
                S::Named.en(&[&head, &ids(named)])
            } else if named.is_empty() && all_go {
                S::AllGoOnTableTies.en(&[&head])
            } else if named.is_empty() {
                S::NoneUntilNamed.en(&[&head, seats])
            } else {
                S::NamedSome.en(&[&head, &ids(named), &named.len(), seats, seats])
            }
        }
        Decision::TieAtTable {
            table,
            place,
            lowest,
            tied,
            total,
            named,
        } => {
            let total = said_total(*total, *lowest);
            let share = match (*place, *lowest) {
                (1, true) => S::LowestTotal.en(&[&total]),
                (1, false) => S::HighestTotal.en(&[&total]),
                (n, lowest) => nth(n, lowest, false).en(&[&n, &total]),
            };
            let table = &table_name(table);
            let parts: [&dyn std::fmt::Display; 4] = [table, &tied.len(), &ids(tied), &share];
            if named.is_empty() && all_go {
                S::TieAtTableAllGo.en(&[table, &tied.len(), &ids(tied), &share, &settings])
            } else if named.is_empty() {
                S::TieAtTableListed.en(&parts)
            } else {
                S::TieAtTableNamed.en(&[table, &tied.len(), &ids(tied), &share, &ids(named)])
            }
        }
        Decision::EmptySeats { filled, seats } => S::EmptySeats.en(&[
            filled,
            seats,
            &if all_go {
                S::SeatsStayEmpty
            } else {
                S::DirectorDecidesSeats
            }
            .text(),
        ]),
        Decision::SeveralTables { player, tables } => {
            let tables: Vec<String> = tables.iter().map(table_name).collect();
            S::SeveralTables.en(&[&roster.id(*player), &tables.len(), &tables.join(", ")])
        }
        Decision::NamedInNoTie { player } => S::NamedInNoTie.en(&[&roster.id(*player)]),
    }
}

/// A table in words: `table 2`, `table 2 (session S02)` when the stage
/// has several sessions, and a later stage's with its stage, `semi table
/// 2` (in Chinese 準決賽第 2 枱), so that it does not read as the first
/// stage's table 2.
pub fn table_name(t: &TableName) -> String {
    let number = match &t.table {
        Label::Num(n) => n.to_string(),
        Label::Text(text) => table_number(text).to_string(),
    };
    match (&t.later_stage, &t.session) {
        (None, None) => S::Table.en(&[&number]),
        (None, Some(session)) => S::TableInSession.en(&[&number, &SessionName(session)]),
        (Some(stage), None) => S::TableOfStage.en(&[stage, &number]),
        (Some(stage), Some(session)) => {
            S::TableOfStageInSession.en(&[stage, &number, &SessionName(session)])
        }
    }
}

/// A table's label without its leading "table" ("Table A" is A), for
/// [`table_name`] to say with its own word.
fn table_number(name: &str) -> &str {
    match name.get(..5) {
        Some(head) if head.eq_ignore_ascii_case("table") => name[5..].trim_start(),
        _ => name,
    }
}

/// What settles a decision the list waits for: what the director can
/// actually do about it under the event's settings (`None` for one that
/// is settled), in the settings file the rules were read from
/// (`settings_file`). Naming players (`--player`, `[qualifiers] named`)
/// settles a tie at a table or for the last seats, never a tie at a top-N
/// cutoff, which only the `cutoff_ties` policy settles.
pub fn how_to_settle(d: &Decision, list: &AdvanceList) -> Option<String> {
    if d.is_settled(list.table_ties) {
        return None;
    }
    let said = match d {
        Decision::TieAtCutoff { .. } => S::SettleCutoff,
        Decision::TooManyTableWinners { .. } | Decision::EmptySeats { .. } => S::SettleTableTies,
        Decision::TieForLastSeats { .. } | Decision::TieAtTable { .. } => S::SettleByNaming,
        Decision::SeveralTables { .. } | Decision::NamedInNoTie { .. } => return None,
    };
    Some(said.en(&[&settings_file(list)]))
}

/// The settings file a setting of the list's rules is changed in: the
/// file they were read from (the event's `tilerank.toml`, or the rules
/// file of `--rules FILE`), as the command was given it; for a built-in
/// profile's rules (`--profile NAME`, or no settings at all), a rules file
/// of the director's own, which `tilerank profiles show` starts.
pub fn settings_file(list: &AdvanceList) -> String {
    match &list.rules_file {
        Some(file) => file.clone(),
        None => S::RulesFileToWrite.en(&[&list.profile, &list.profile]),
    }
}

/// The tie at a top-N cutoff, when there is one.
pub fn cutoff_tie(cut: &Cut) -> Option<String> {
    let s = cut.straddle.as_ref()?;
    Some(tie_at_cutoff(s, cut.cutoff, cut.policy, cut.taken))
}

fn tie_at_cutoff(s: &Straddle, cutoff: u32, policy: CutoffTies, qualifiers: usize) -> String {
    let qualifiers = match qualifiers {
        1 => S::OneQualifier.text().to_string(),
        n => S::Qualifiers.en(&[&n]),
    };
    let outcome = match policy {
        CutoffTies::Include if s.tied == 2 => S::BothGoOn.en(&[&qualifiers]),
        CutoffTies::Include => S::AllGoOn.en(&[&s.tied, &qualifiers]),
        CutoffTies::Exclude => S::NoneGoOn.en(&[&qualifiers]),
        CutoffTies::Error => S::ChooseCutoffTies.text().to_string(),
    };
    S::TieAtCutoff.en(&[
        &s.tied,
        &s.rank,
        &cutoff,
        &s.within,
        &(s.tied - s.within),
        &outcome,
    ])
}

/// The rule by which players go on, in words.
pub fn rule(rules: &Rules) -> String {
    match rules.going_on {
        GoingOn::TopOfStandings => format!("the top {} of the standings", rules.qualifiers),
        GoingOn::TableWinnersAndBestSeconds { seats } => {
            format!("each table's highest total, then the best seconds up to {seats} seats")
        }
        GoingOn::BestAtEachTable { per_table } => {
            let which = if rules.scoring == crate::profile::Scoring::PenaltyPoints {
                "lowest"
            } else {
                "highest"
            };
            if per_table == 1 {
                format!("each table's {which} total")
            } else {
                format!("the {per_table} {which} totals at each table")
            }
        }
    }
}

/// The sentence of the `place`th lowest (or highest) total, from the
/// 2nd: "2nd lowest total at table 1 with 12" (`at`), "2nd lowest total
/// 12".
fn nth(place: u32, lowest: bool, at: bool) -> S {
    let suffix = match (place % 10, place % 100) {
        (1, 11) | (2, 12) | (3, 13) => 3,
        (1, _) => 0,
        (2, _) => 1,
        (3, _) => 2,
        _ => 3,
    };
    const AT: [[S; 2]; 4] = [
        [S::LowestAtSt, S::HighestAtSt],
        [S::LowestAtNd, S::HighestAtNd],
        [S::LowestAtRd, S::HighestAtRd],
        [S::LowestAtTh, S::HighestAtTh],
    ];
    const TOTAL: [[S; 2]; 4] = [
        [S::LowestTotalSt, S::HighestTotalSt],
        [S::LowestTotalNd, S::HighestTotalNd],
        [S::LowestTotalRd, S::HighestTotalRd],
        [S::LowestTotalTh, S::HighestTotalTh],
    ];
    let table = if at { &AT } else { &TOTAL };
    table[suffix][usize::from(!lowest)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fewer players go on than the championship seats: the decision
    /// promises no way to seat more (only those who go on can be).
    #[test]
    fn empty_championship_seats_are_accepted_or_left_to_the_director() {
        let d = Decision::EmptySeats {
            filled: 2,
            seats: 4,
        };
        let roster = Roster::default();
        assert_eq!(
            decision(&d, &roster, TableTies::Decide, crate::config::FILE_NAME),
            "only 2 players go on to the 4 championship seats (a winner and a second from each table); only those who go on can be seated: once the director accepts that the seats stay empty, set table_ties = \"all\""
        );
        assert_eq!(
            decision(&d, &roster, TableTies::All, crate::config::FILE_NAME),
            "only 2 players go on to the 4 championship seats (a winner and a second from each table); table_ties = \"all\": the seats stay empty"
        );
    }

    #[test]
    fn places_past_the_first_are_said_with_their_ordinal() {
        let said = |place: u32, lowest: bool| nth(place, lowest, false).en(&[&place, &"12"]);
        assert_eq!(said(2, true), "2nd lowest total 12");
        assert_eq!(said(3, false), "3rd highest total 12");
        assert_eq!(said(4, true), "4th lowest total 12");
        assert_eq!(said(11, true), "11th lowest total 12");
        assert_eq!(said(12, true), "12th lowest total 12");
        assert_eq!(said(21, false), "21st highest total 12");
        assert_eq!(said(22, true), "22nd lowest total 12");
        assert_eq!(said(113, true), "113th lowest total 12");
        assert_eq!(
            nth(2, true, true).en(&[&2, &"table 1", &12]),
            "2nd lowest total at table 1 with 12"
        );
    }
}
