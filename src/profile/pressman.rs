//! `pressman`: the classic rulebook. `hk` scoring without penalty charges
//! (its `no_winner_by = tiles` variant is a setting); most games won, ties
//! to the highest total; the top of the standings go on.

use super::vocabulary::MedalNames;
use super::vocabulary::{Better::*, Key::*};
use super::*;

pub fn rules() -> Rules {
    Rules {
        profile: ProfileName("pressman"),
        penalties: Penalties::none(),
        min_age: None,
        order: order(&[(GamesWon, Higher), (TotalScore, Higher)]),
        medal_names: MedalNames::Metals,
        super_family_award: false,
        schedule: None,
        ..super::hk::rules()
    }
}
