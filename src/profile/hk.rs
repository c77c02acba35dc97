//! `hk`: the Hong Kong 2026 preliminary round (the main target). 1,200
//! players in 12 sessions of 25 tables, 3 games a session; games won, then
//! average score, then fewest tiles; the top 120 go to the final; players
//! must be 7 on the event date; the Super Family Award.

use super::vocabulary::MedalNames;
use super::vocabulary::{Better::*, Key::*};
use super::*;

pub fn rules() -> Rules {
    Rules {
        profile: ProfileName("hk"),
        scoring: Scoring::ZeroSum,
        joker_value: 30,
        penalties: Penalties {
            no_meld: 100,
            refused_meld: 200,
            knocked: 200,
        },
        penalty_mode: PenaltyMode::Replace,
        no_winner_by: NoWinnerBy::Value,
        games_per_session: 3,
        stages: stages(&["prelim", "final"]),
        going_on: GoingOn::TopOfStandings,
        qualifiers: 120,
        cutoff_ties: CutoffTies::Include,
        table_ties: TableTies::Decide,
        named: Vec::new(),
        min_age: Some(7),
        order: order(&[
            (GamesWon, Higher),
            (AverageScore, Higher),
            (TilesLeft, Lower),
        ]),
        stage_games: Default::default(),
        carry: Default::default(),
        event_date: None,
        age_groups: Vec::new(),
        age_scheme: AgeScheme::None,
        medal_names: MedalNames::RunnersUp,
        super_family_award: true,
        schedule: Some(Schedule {
            sessions: 12,
            tables: 25,
        }),
    }
}
