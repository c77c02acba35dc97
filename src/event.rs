//! An event put together from its inputs: the roster, the cards that passed
//! every check, and every problem found on the way.

use crate::domain::{Card, Stage};
use crate::ingest::{self, InputError};
use crate::problem::Problems;
use crate::profile::Rules;
use crate::roster::Roster;
use crate::rules::card_checks::{check_card, check_clashes};
use crate::rules::standings::{self, Standings};
use std::path::PathBuf;

/// What to read.
#[derive(Clone, Debug)]
pub struct Request {
    pub inputs: Vec<PathBuf>,
    pub roster: Option<PathBuf>,
    pub rules: Rules,
}

/// Counts for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub files: usize,
    pub sheets: usize,
    pub cards_read: usize,
    pub cards_rejected: usize,
    pub games: usize,
}

#[derive(Debug)]
pub struct Event {
    pub rules: Rules,
    pub roster: Roster,
    /// Cards that passed every check, in the order read.
    pub cards: Vec<Card>,
    pub problems: Problems,
    pub counts: Counts,
}

impl Event {
    /// Reads and checks everything. Only a file that cannot be read at all is
    /// an `Err`; wrong data is in `problems`, and its cards are left out.
    pub fn load(request: &Request) -> Result<Event, InputError> {
        let mut problems = Problems::new();
        let mut roster = match &request.roster {
            Some(path) => ingest::roster::read(path, &mut problems)?,
            None => Roster::open(),
        };
        let inputs = ingest::read_cards(&request.inputs, &mut problems)?;
        let mut counts = Counts {
            files: inputs.files,
            sheets: inputs.sheets,
            cards_read: inputs.cards.len(),
            ..Counts::default()
        };
        let mut raw_cards = inputs.cards;
        for rack_card in inputs.rack_cards {
            counts.cards_read += 1;
            match ingest::racks::score_card(rack_card, &request.rules, &mut problems) {
                Some(card) => raw_cards.push(card),
                None => counts.cards_rejected += 1,
            }
        }
        let mut checked = Vec::new();
        for raw in &raw_cards {
            match check_card(raw, &request.rules, &mut roster, &mut problems) {
                Some(card) => checked.push(card),
                None => counts.cards_rejected += 1,
            }
        }
        let clashing = check_clashes(&checked, &roster, &mut problems);
        counts.cards_rejected += clashing.len();
        let cards: Vec<Card> = checked
            .into_iter()
            .enumerate()
            .filter(|(i, _)| clashing.binary_search(i).is_err())
            .map(|(_, c)| c)
            .collect();
        counts.games = cards.iter().map(|c| c.games.len()).sum();
        Ok(Event {
            rules: request.rules.clone(),
            roster,
            cards,
            problems,
            counts,
        })
    }

    /// The stages that have cards, in a sensible order (prelim, semi, final,
    /// then others by name).
    pub fn stages(&self) -> Vec<Stage> {
        let mut v: Vec<Stage> = self.cards.iter().map(|c| c.key.stage.clone()).collect();
        let weight = |s: &Stage| match s.as_str() {
            "prelim" => 0,
            "semi" => 1,
            "final" => 2,
            _ => 3,
        };
        v.sort_by(|a, b| weight(a).cmp(&weight(b)).then_with(|| a.cmp(b)));
        v.dedup();
        v
    }

    /// The standings of one stage (RULES.md section 6).
    pub fn standings(&self, stage: &Stage) -> Standings {
        let tallies = standings::tally(&self.cards, stage, &self.rules);
        standings::rank(tallies, stage, self.rules.order.clone(), &self.roster)
    }
}
