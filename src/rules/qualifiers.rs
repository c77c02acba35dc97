//! RULES.md section 7 (`hk`): the top `N` of the prelim standings go to the
//! final. When players tied on every key straddle the cutoff, the tool says
//! so loudly and applies the cutoff policy: `include` (all of them go),
//! `exclude` (none of them go) or `error` (the director decides).

use super::standings::{Entry, Standings};
use crate::profile::CutoffTies;

/// Players tied on every key across the cutoff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Straddle {
    /// Their shared rank.
    pub rank: u32,
    /// How many of them are tied.
    pub tied: usize,
    /// How many of them fit within the cutoff.
    pub within: usize,
}

#[derive(Clone, Debug)]
pub struct Qualifiers<'a> {
    pub cutoff: u32,
    pub policy: CutoffTies,
    /// Who goes on, best first (under `error` with a straddle: those above it).
    pub qualified: Vec<&'a Entry>,
    pub straddle: Option<Straddle>,
}

impl Qualifiers<'_> {
    /// The policy `error` met a straddle: the list is not final.
    pub fn is_refused(&self) -> bool {
        self.policy == CutoffTies::Error && self.straddle.is_some()
    }

    /// A sentence for the director about the tie at the cutoff.
    pub fn straddle_message(&self) -> Option<String> {
        let s = self.straddle.as_ref()?;
        let qualifiers = match self.qualified.len() {
            1 => "1 qualifier".to_string(),
            n => format!("{n} qualifiers"),
        };
        let outcome = match self.policy {
            CutoffTies::Include if s.tied == 2 => format!("both go on (policy include): {qualifiers}"),
            CutoffTies::Include => format!("all {} go on (policy include): {qualifiers}", s.tied),
            CutoffTies::Exclude => format!("none of them go on (policy exclude): {qualifiers}"),
            CutoffTies::Error => "choose --cutoff-ties include or exclude (or set cutoff_ties in the event's settings)".to_string(),
        };
        Some(format!(
            "TIE AT THE CUTOFF: {} players share rank {} across the top-{} cutoff ({} within it, {} beyond); {outcome}",
            s.tied,
            s.rank,
            self.cutoff,
            s.within,
            s.tied - s.within
        ))
    }
}

pub fn select(standings: &Standings, cutoff: u32, policy: CutoffTies) -> Qualifiers<'_> {
    let n = cutoff as usize;
    let ranked = &standings.ranked;
    if n == 0 {
        return Qualifiers {
            cutoff,
            policy,
            qualified: Vec::new(),
            straddle: None,
        };
    }
    if ranked.len() <= n {
        return Qualifiers {
            cutoff,
            policy,
            qualified: ranked.iter().collect(),
            straddle: None,
        };
    }
    // The tie group of the last player within the cutoff.
    let last_rank = ranked[n - 1].rank;
    let group_start = ranked
        .iter()
        .position(|e| e.rank == last_rank)
        .unwrap_or(n - 1);
    let group_end = ranked
        .iter()
        .rposition(|e| e.rank == last_rank)
        .unwrap_or(n - 1)
        + 1;
    if group_end <= n {
        return Qualifiers {
            cutoff,
            policy,
            qualified: ranked[..n].iter().collect(),
            straddle: None,
        };
    }
    let straddle = Straddle {
        rank: last_rank.unwrap_or(0),
        tied: group_end - group_start,
        within: n - group_start,
    };
    let take = match policy {
        CutoffTies::Include => group_end,
        CutoffTies::Exclude | CutoffTies::Error => group_start,
    };
    Qualifiers {
        cutoff,
        policy,
        qualified: ranked[..take].iter().collect(),
        straddle: Some(straddle),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{PlayerId, Stage};
    use crate::roster::{Player, Roster};
    use crate::rules::standings::{rank, Tally};
    use crate::score::Score;

    /// Five players: ranks 1, 2, 3, 3, 5.
    fn standings() -> (Standings, Roster) {
        let mut r = Roster::default();
        for i in 0..5 {
            r.add(Player::named(&format!("P{i}"), "x")).unwrap();
        }
        let t = |p: u32, won: u32| Tally {
            player: PlayerId(p),
            games: 3,
            won,
            total: Score::ZERO,
            tiles: 0,
            withdrawn: false,
            best_game: None,
        };
        let tallies = vec![t(0, 3), t(1, 2), t(2, 1), t(3, 1), t(4, 0)];
        (
            rank(
                tallies,
                &Stage::prelim(),
                crate::profile::by_name("hk").unwrap().order,
                &r,
            ),
            r,
        )
    }

    fn ids(q: &Qualifiers) -> Vec<u32> {
        q.qualified.iter().map(|e| e.player().0).collect()
    }

    #[test]
    fn a_clean_cutoff_takes_the_top_n() {
        let (s, _) = standings();
        let q = select(&s, 2, CutoffTies::Include);
        assert_eq!(ids(&q), vec![0, 1]);
        assert_eq!(q.straddle, None);
        let q = select(&s, 4, CutoffTies::Error);
        assert_eq!(ids(&q), vec![0, 1, 2, 3]);
        assert!(!q.is_refused());
    }

    #[test]
    fn a_tie_across_the_cutoff_follows_the_policy() {
        let (s, _) = standings();
        let include = select(&s, 3, CutoffTies::Include);
        assert_eq!(ids(&include), vec![0, 1, 2, 3]);
        assert_eq!(
            include.straddle,
            Some(Straddle {
                rank: 3,
                tied: 2,
                within: 1
            })
        );
        assert!(include
            .straddle_message()
            .unwrap()
            .contains("2 players share rank 3"));
        let exclude = select(&s, 3, CutoffTies::Exclude);
        assert_eq!(ids(&exclude), vec![0, 1]);
        let error = select(&s, 3, CutoffTies::Error);
        assert!(error.is_refused());
        assert!(error
            .straddle_message()
            .unwrap()
            .contains("choose --cutoff-ties"));
    }

    #[test]
    fn fewer_players_than_places_all_qualify() {
        let (s, _) = standings();
        assert_eq!(select(&s, 120, CutoffTies::Include).qualified.len(), 5);
    }
}
