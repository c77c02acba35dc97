//! `nvso`: the senior olympics. Zero-sum scoring without charges; total
//! score, then games won; each table's highest total and the best seconds
//! fill a championship table of 4; age groups by the number of players.

use super::vocabulary::MedalNames;
use super::vocabulary::{Better::*, Key::*};
use super::*;

pub fn rules() -> Rules {
    Rules {
        profile: ProfileName("nvso"),
        penalties: Penalties::none(),
        min_age: None,
        going_on: GoingOn::TableWinnersAndBestSeconds { seats: 4 },
        order: order(&[(TotalScore, Higher), (GamesWon, Higher)]),
        age_scheme: AgeScheme::NvsoBySize,
        medal_names: MedalNames::Metals,
        super_family_award: false,
        schedule: None,
        ..super::hk::rules()
    }
}
