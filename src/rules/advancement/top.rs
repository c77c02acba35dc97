//! RULES.md section 7 (`hk`, `pressman`): the top `N` of the standings go
//! on. When players tied on every key straddle the cutoff, the tool says so
//! loudly and applies the cutoff policy: `include` (all of them go),
//! `exclude` (none of them go) or `error` (the director decides).

use super::{Advancer, Decision, Reason};
use crate::profile::CutoffTies;
use crate::rules::standings::{Entry, Standings};

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

/// Where the top `cutoff` of a standings ends: the first `taken` ranked
/// players go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub cutoff: u32,
    pub policy: CutoffTies,
    /// How many of the ranked players go on (under `error` with a
    /// straddle: those above it).
    pub taken: usize,
    pub straddle: Option<Straddle>,
}

impl Cut {
    /// The policy `error` met a straddle: the list is not final.
    pub fn is_refused(&self) -> bool {
        self.policy == CutoffTies::Error && self.straddle.is_some()
    }

    /// Who goes on, best first: the first players of the standings the
    /// cut was made on.
    pub fn qualified<'a>(&self, standings: &'a Standings) -> &'a [Entry] {
        &standings.ranked[..self.taken.min(standings.ranked.len())]
    }

    /// The tie at the cutoff, for the director.
    pub fn decision(&self) -> Option<Decision> {
        self.straddle.as_ref().map(|s| Decision::TieAtCutoff {
            straddle: s.clone(),
            cutoff: self.cutoff,
            policy: self.policy,
            qualifiers: self.taken,
        })
    }

    /// Each player who goes on, with the reason.
    pub fn advancers(&self, standings: &Standings) -> Vec<Advancer> {
        let straddle = self.straddle.as_ref().map(|s| s.rank);
        self.qualified(standings)
            .iter()
            .map(|e| {
                let rank = e.rank.unwrap_or(0);
                Advancer {
                    player: e.player(),
                    place: rank,
                    reason: Reason::Rank {
                        rank,
                        cutoff: self.cutoff,
                        tied: Some(rank) == straddle,
                    },
                    named_by_director: false,
                }
            })
            .collect()
    }
}

/// The cut of the top `cutoff` of `standings` under `policy`.
pub fn select(standings: &Standings, cutoff: u32, policy: CutoffTies) -> Cut {
    let n = cutoff as usize;
    let ranked = &standings.ranked;
    let cut = |taken: usize, straddle: Option<Straddle>| Cut {
        cutoff,
        policy,
        taken,
        straddle,
    };
    if ranked.len() <= n {
        return cut(ranked.len(), None);
    }
    if n == 0 {
        return cut(0, None);
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
        return cut(n, None);
    }
    let straddle = Straddle {
        rank: last_rank.unwrap_or(0),
        tied: group_end - group_start,
        within: n - group_start,
    };
    let taken = match policy {
        CutoffTies::Include => group_end,
        CutoffTies::Exclude | CutoffTies::Error => group_start,
    };
    cut(taken, Some(straddle))
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

    fn ids(q: &Cut, s: &Standings) -> Vec<u32> {
        q.qualified(s).iter().map(|e| e.player().0).collect()
    }

    /// The tie at the cutoff in the words of `report::going_on`.
    fn said(cut: &Cut) -> String {
        let r = Roster::default();
        let d = cut.decision().unwrap();
        crate::report::going_on::decision(
            &d,
            &r,
            crate::profile::TableTies::Decide,
            crate::config::FILE_NAME,
        )
    }

    #[test]
    fn a_clean_cutoff_takes_the_top_n() {
        let (s, _) = standings();
        let q = select(&s, 2, CutoffTies::Include);
        assert_eq!(ids(&q, &s), vec![0, 1]);
        assert_eq!(q.straddle, None);
        let q = select(&s, 4, CutoffTies::Error);
        assert_eq!(ids(&q, &s), vec![0, 1, 2, 3]);
        assert!(!q.is_refused());
    }

    #[test]
    fn a_tie_across_the_cutoff_follows_the_policy() {
        let (s, _) = standings();
        let include = select(&s, 3, CutoffTies::Include);
        assert_eq!(ids(&include, &s), vec![0, 1, 2, 3]);
        assert_eq!(
            include.straddle,
            Some(Straddle {
                rank: 3,
                tied: 2,
                within: 1
            })
        );
        assert!(said(&include).contains("2 players share rank 3"));
        let exclude = select(&s, 3, CutoffTies::Exclude);
        assert_eq!(ids(&exclude, &s), vec![0, 1]);
        let error = select(&s, 3, CutoffTies::Error);
        assert!(error.is_refused());
        assert!(said(&error).contains("choose --cutoff-ties"));
    }

    #[test]
    fn fewer_players_than_places_all_qualify() {
        let (s, _) = standings();
        assert_eq!(select(&s, 120, CutoffTies::Include).qualified(&s).len(), 5);
    }
}
