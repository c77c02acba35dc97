//! Roster checks that need the event (RULES.md sections 8 and 9): the
//! minimum age on the event date, and the Super Family units.

use crate::problem::said::{Msg, Said};
use crate::problem::Problems;
use crate::profile::Rules;
use crate::roster::Roster;

/// RULES.md section 8: players younger than the profile's minimum age on
/// the event date are roster errors.
pub fn check_ages(roster: &Roster, rules: &Rules, date: &str, problems: &mut Problems) {
    let Some(min) = rules.min_age else { return };
    for (_, p) in roster.iter() {
        if let Err(e) = crate::rules::age_groups::check_player_min_age(&p, min, date) {
            let at = p
                .place
                .clone()
                .unwrap_or_else(|| crate::place::Place::nowhere("roster"));
            problems.error(at, format!("{} ({}): {e}", p.id, p.name));
        }
    }
}

/// The roster checks that need the event: ages on the event date (the
/// profile's minimum age, RULES.md section 8) are errors; families that are
/// not a Super Family unit (section 9) are warnings, since they only cannot
/// win that award.
pub fn check_roster(
    roster: &Roster,
    rules: &Rules,
    event_date: Option<&str>,
    problems: &mut Problems,
) {
    let nowhere = || crate::place::Place::nowhere("roster");
    let Some(date) = event_date else {
        if rules.min_age.is_some() {
            problems.warning(nowhere(), Said::new(Msg::NoEventDate, []));
        }
        return;
    };
    check_ages(roster, rules, date, problems);
    if rules.super_family_award {
        for unit in crate::rules::awards::invalid_units(roster, date, rules.family_ages) {
            let first = unit
                .members
                .first()
                .and_then(|&m| roster.get(m).place.clone())
                .unwrap_or_else(nowhere);
            problems.warning(
                first,
                format!(
                    "family {} is not a Super Family unit: {}; it cannot win the award",
                    unit.family, unit.reason
                ),
            );
        }
    }
}
