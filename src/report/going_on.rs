//! Who goes on, in words: the reasons and decisions of
//! [`crate::rules::advancement`] as every command, the export and the
//! website say them. The rules give typed answers; this is the one place
//! they become sentences.

use crate::domain::PlayerId;
use crate::profile::{CutoffTies, GoingOn, Rules, TableTies};
use crate::roster::Roster;
use crate::rules::advancement::{Advancer, Cut, Decision, Reason, Straddle};

/// Why a player goes on: "rank 7 of the top 120", "table winner at table
/// 3 with +45 (shared)", "best second: 3 behind the winner of table 2",
/// "lowest total at table 1 with 12", and ", named by the director to
/// settle a tie" when the director named them.
pub fn reason(a: &Advancer) -> String {
    let mut out = match &a.reason {
        Reason::Rank { rank, cutoff, tied } if *tied => {
            format!("rank {rank}, tied at the top-{cutoff} cutoff")
        }
        Reason::Rank { rank, cutoff, .. } => format!("rank {rank} of the top {cutoff}"),
        Reason::TableWinner {
            table,
            total,
            shared,
        } => format!(
            "table winner at {table} with {}{}",
            total.signed(),
            if *shared { " (shared)" } else { "" }
        ),
        Reason::BestSecond {
            table,
            behind,
            winners,
            ..
        } => {
            let who = if *winners > 1 { "winners" } else { "winner" };
            format!("best second: {behind} behind the {who} of {table}")
        }
        Reason::AtTable {
            table,
            total,
            place,
            lowest,
            shared,
        } => format!(
            "{} at {table} with {}{}",
            nth_total(*place, *lowest),
            if *lowest {
                total.to_string()
            } else {
                total.signed()
            },
            if *shared { " (shared)" } else { "" }
        ),
    };
    if a.named_by_director {
        out.push_str(", named by the director to settle a tie");
    }
    out
}

/// A decision in words, naming players by roster id; `policy` is the
/// event's `table_ties`.
pub fn decision(d: &Decision, roster: &Roster, policy: TableTies) -> String {
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
        Decision::TieAtTable {
            table,
            place,
            lowest,
            tied,
            total,
            named,
        } => {
            let head = format!(
                "TIE at {table}: {} players ({}) share the {} {}",
                tied.len(),
                ids(tied),
                nth_total(*place, *lowest),
                if *lowest {
                    total.to_string()
                } else {
                    total.signed()
                }
            );
            if named.is_empty() && all_go {
                format!("{head}; all of them go on, unless the director names who goes on (--player, or [qualifiers] named in tilerank.toml)")
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
            roster.id(*player),
            tables.len(),
            tables.join(", ")
        ),
        Decision::NamedInNoTie { player } => format!(
            "{} was named but is in no tie: it changes nothing",
            roster.id(*player)
        ),
    }
}

/// What settles a decision the list waits for: what the director can
/// actually do about it under the event's settings (`None` for one that
/// is settled). Naming players (`--player`, `[qualifiers] named`) settles
/// a tie at a table or for the last seats, never a tie at a top-N cutoff,
/// which only the `cutoff_ties` policy settles.
pub fn how_to_settle(d: &Decision, policy: TableTies) -> Option<&'static str> {
    if d.is_settled(policy) {
        return None;
    }
    Some(match d {
        Decision::TieAtCutoff { .. } => {
            "set cutoff_ties = \"include\" (all the players tied at the cutoff go on) or \"exclude\" (none of them do) in tilerank.toml's [qualifiers], or give --cutoff-ties include or exclude to qualifiers, export or publish; naming players (--player, [qualifiers] named) does not settle a tie at the cutoff"
        }
        Decision::TooManyTableWinners { .. } | Decision::EmptySeats { .. } => {
            "set table_ties = \"all\" in tilerank.toml's [qualifiers]; naming players does not settle it"
        }
        Decision::TieForLastSeats { .. } | Decision::TieAtTable { .. } => {
            "name who goes on (tilerank advance --player, or [qualifiers] named in tilerank.toml), or set table_ties = \"all\""
        }
        Decision::SeveralTables { .. } | Decision::NamedInNoTie { .. } => return None,
    })
}

/// The tie at a top-N cutoff, when there is one.
pub fn cutoff_tie(cut: &Cut) -> Option<String> {
    let s = cut.straddle.as_ref()?;
    Some(tie_at_cutoff(s, cut.cutoff, cut.policy, cut.taken))
}

fn tie_at_cutoff(s: &Straddle, cutoff: u32, policy: CutoffTies, qualifiers: usize) -> String {
    let qualifiers = match qualifiers {
        1 => "1 qualifier".to_string(),
        n => format!("{n} qualifiers"),
    };
    let outcome = match policy {
        CutoffTies::Include if s.tied == 2 => format!("both go on (policy include): {qualifiers}"),
        CutoffTies::Include => format!("all {} go on (policy include): {qualifiers}", s.tied),
        CutoffTies::Exclude => format!("none of them go on (policy exclude): {qualifiers}"),
        CutoffTies::Error => {
            "choose --cutoff-ties include or exclude (or set cutoff_ties in the event's settings)"
                .to_string()
        }
    };
    format!(
        "TIE AT THE CUTOFF: {} players share rank {} across the top-{cutoff} cutoff ({} within it, {} beyond); {outcome}",
        s.tied,
        s.rank,
        s.within,
        s.tied - s.within
    )
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

/// "lowest total", "2nd lowest total", "highest total", ...
fn nth_total(place: u32, lowest: bool) -> String {
    let which = if lowest { "lowest" } else { "highest" };
    match place {
        1 => format!("{which} total"),
        n => {
            let suffix = match (n % 10, n % 100) {
                (1, 11) | (2, 12) | (3, 13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{n}{suffix} {which} total")
        }
    }
}
