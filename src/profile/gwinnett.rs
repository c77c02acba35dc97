//! `gwinnett`: the senior games. Penalty points (lower is better); each
//! table's lowest total goes on, prelim (3 games) to semi (2) to final (1).

use super::vocabulary::MedalNames;
use super::vocabulary::{Better::*, Key::*};
use super::*;

pub fn rules() -> Rules {
    Rules {
        profile: ProfileName("gwinnett"),
        scoring: Scoring::PenaltyPoints,
        penalties: Penalties::none(),
        min_age: None,
        stages: stages(&["prelim", "semi", "final"]),
        going_on: GoingOn::LowestAtEachTable,
        order: order(&[(TotalScore, Lower), (GamesWon, Higher)]),
        stage_games: [("semi".to_string(), 2), ("final".to_string(), 1)]
            .into_iter()
            .collect(),
        medal_names: MedalNames::Metals,
        super_family_award: false,
        schedule: None,
        // RULES.md section 7: a tie for a table's lowest total is reported
        // and all the tied players go on unless the director names one.
        table_ties: TableTies::All,
        ..super::hk::rules()
    }
}
