//! The one way cards become an event, whatever their source: a results or
//! racks file read the ordinary way, a large results file read on two
//! threads ([`crate::stream`]), a workbook, the event's store. Each card as
//! read ([`RawCard`]) is checked (its values, [`check_values`], then who
//! sits there, [`name_players`]), recorded for the checks across cards
//! ([`Seating`]) and added up ([`Tallies`]), in the order read.
//!
//! A card that clashes with another (a table given twice, a player at two
//! tables of a session) is found only once every card is in, when its
//! sums are already added. Then the cards are read once more with the
//! clashing ones left out of the sums ([`Intake::finish`] says which): a
//! rare second pass, since a clash is an error the director must fix. It
//! reads what the first read: a regular file again, standard input or a
//! pipe as kept from the first ([`crate::ingest::once`]).

use crate::domain::Card;
use crate::event::{Counts, Event};
use crate::ingest::racks::score_card;
use crate::ingest::raw::RawCard;
use crate::ingest::CardInputs;
use crate::place::Source;
use crate::problem::Problems;
use crate::profile::Rules;
use crate::roster::Roster;
use crate::rules::card_checks::{check_values, checked_card, name_players, Checked, Seating};
use crate::rules::tally::Tallies;

/// What a second pass needs: the cards to leave out of the sums, and the
/// roster given (as the first pass left it: it names the same players the
/// same way).
pub struct Again {
    pub skip: Vec<usize>,
    pub roster: Option<Box<Roster>>,
}

/// What an intake held before its first card ([`Intake::mark`]), to come
/// back to ([`Intake::back_to`]).
pub struct Mark {
    problems: Problems,
    counts: Counts,
}

/// An event being put together, card by card.
pub struct Intake {
    rules: Rules,
    roster: Roster,
    roster_given: bool,
    keep_cards: bool,
    /// Cards a first pass found clashing (indexes into the seating): not
    /// added up.
    skip: Vec<usize>,
    seating: Seating,
    tallies: Tallies,
    cards: Vec<Card>,
    pub problems: Problems,
    pub counts: Counts,
}

/// An event put together in one pass over its cards, or two when cards
/// clash: `pass` reads every card into an intake, given the roster and the
/// cards to leave out of the sums. The second pass gets the roster as the
/// first left it (when one was given: it names the same players the same
/// way) and leaves out the clashing cards. A source that gives its bytes
/// once (standard input, a pipe) is read once for both: every read of it
/// gives what the first read ([`crate::ingest::once`]).
pub fn in_passes<E>(
    roster: Option<Roster>,
    mut pass: impl FnMut(Option<Roster>, Vec<usize>) -> Result<Intake, E>,
) -> Result<Event, E> {
    let given = roster.is_some();
    let _replay = crate::ingest::once::Replay::keep();
    match pass(roster, Vec::new())?.finish() {
        Ok(event) => Ok(event),
        Err(again) => {
            let roster = if given {
                again.roster.map(|r| *r)
            } else {
                None
            };
            Ok(pass(roster, again.skip)?
                .finish()
                .unwrap_or_else(|_| unreachable!("the clashing cards are skipped")))
        }
    }
}

impl Intake {
    /// An empty event under `rules`; `roster` is `None` when no roster was
    /// given (players are then known by what the cards say). With
    /// `keep_cards` the checked cards are kept, else only their sums.
    /// `skip` is what [`Intake::finish`] answered a first pass.
    pub fn new(
        roster: Option<Roster>,
        rules: &Rules,
        keep_cards: bool,
        problems: Problems,
        skip: Vec<usize>,
    ) -> Intake {
        let roster_given = roster.is_some();
        Intake {
            rules: rules.clone(),
            roster: roster.unwrap_or_else(Roster::open),
            roster_given,
            keep_cards,
            skip,
            seating: Seating::default(),
            tallies: Tallies::new(rules),
            cards: Vec::new(),
            problems,
            counts: Counts::default(),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether the checked cards are kept (else only their sums).
    pub fn keeps_cards(&self) -> bool {
        self.keep_cards
    }

    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// The roster, for a reader that names players ahead (its hasher, room
    /// for the players of a large file).
    pub fn roster_mut(&mut self) -> &mut Roster {
        &mut self.roster
    }

    /// What the intake holds now, before its first card, to come back to.
    pub fn mark(&self) -> Mark {
        Mark {
            problems: self.problems.clone(),
            counts: self.counts.clone(),
        }
    }

    /// Back to `mark`, taken before the first card was added: the cards
    /// added since are forgotten, their sums, seats and problems with
    /// them (a reader that found its cards must be read in another order
    /// reads them again). A roster given is kept as it is (it names the
    /// same players the same way); players known only from the cards are
    /// forgotten too.
    pub fn back_to(&mut self, mark: Mark) {
        self.seating = Seating::default();
        self.tallies = Tallies::new(&self.rules);
        self.cards.clear();
        self.problems = mark.problems;
        self.counts = mark.counts;
        if !self.roster_given {
            self.roster = Roster::open();
        }
    }

    /// The cards added so far are the event's stored cards, those added
    /// after them a file's checked against them: a clash between the two
    /// is said at the file's card ([`Seating::mark_stored`]).
    pub fn mark_stored(&mut self) {
        self.seating.mark_stored();
    }

    /// Room for `players` players in the first stage's sums, and for
    /// `cards` cards.
    pub fn reserve(&mut self, stage: &crate::domain::Stage, players: usize, cards: usize) {
        let s = self.tallies.stage(stage);
        self.tallies.reserve(s, players);
        self.seating.reserve(cards);
    }

    /// Every card of what the ordinary readers read, racks scored first.
    pub fn add_inputs(&mut self, inputs: &CardInputs) {
        self.counts.files += inputs.files;
        self.counts.sheets += inputs.sheets;
        self.counts.stored += inputs.stored;
        // (a card that differs from the stored card of its table is set
        // aside with its error: it counts for nothing, rejected)
        self.counts.cards_read += inputs.differing;
        self.counts.cards_rejected += inputs.differing;
        for raw in &inputs.cards {
            self.add(raw);
        }
        for rack_card in &inputs.rack_cards {
            match score_card(rack_card, &self.rules, &mut self.problems) {
                Some(raw) => self.add(&raw),
                None => {
                    self.counts.cards_read += 1;
                    self.counts.cards_rejected += 1;
                }
            }
        }
    }

    /// One card as read: checked, and accepted when it passes.
    pub fn add(&mut self, raw: &RawCard) {
        let values = check_values(raw, &self.rules, self.keep_cards, &mut self.problems);
        self.add_checked(&raw.source, &Checked::of(raw, values), None);
    }

    /// A card of `source` whose values were checked already
    /// ([`check_values`], on a reading thread), its names hashed there by
    /// the roster's [`crate::roster::NameHasher`] (`hashes`, by seat):
    /// named here, and accepted when it passed.
    pub fn add_checked(&mut self, source: &Source, card: &Checked, hashes: Option<&[u64; 4]>) {
        self.counts.cards_read += 1;
        let named = name_players(card, source, hashes, &mut self.roster, &mut self.problems);
        let (Some(values), Ok(players)) = (&card.values, named) else {
            // (seated all the same, for the checks across cards)
            let (Ok(players) | Err(players)) = named;
            self.seating.add_refused(card, source, &players);
            self.counts.cards_rejected += 1;
            return;
        };
        let seats = card
            .named()
            .filter_map(|(seat, _, at)| Some((seat, players[seat.index()]?, at)));
        let i = self
            .seating
            .add(&card.key, source, card.at(card.table_at), seats);
        if self.skip.binary_search(&i).is_ok() {
            return;
        }
        let s = self.tallies.stage(&card.key.stage);
        let games = self.rules.games_for(&card.key.stage) as usize;
        for (seat, player) in players.iter().enumerate() {
            if let Some(player) = player {
                self.tallies.add_seat(s, *player, games, &values.sums[seat]);
            }
        }
        self.counts.games += values.played as usize;
        if self.keep_cards {
            self.cards
                .push(checked_card(card, source, values, &players));
        }
    }

    /// The event, once every card is in: the checks across cards, then the
    /// checks of the event as a whole. [`Again`] when cards that clash were
    /// added up: read the cards again into an intake that skips them.
    pub fn finish(mut self) -> Result<Event, Again> {
        let rejected = self
            .seating
            .clashes(&self.roster, &self.rules, &mut self.problems);
        // (cards refused by their own checks were counted, never added up)
        let clashing = rejected.iter().filter(|&&i| !self.seating.is_refused(i));
        if clashing
            .clone()
            .any(|i| self.skip.binary_search(i).is_err())
        {
            return Err(Again {
                skip: rejected,
                roster: self.roster_given.then(|| Box::new(self.roster)),
            });
        }
        self.counts.cards_rejected += clashing.count();
        self.counts.accepted = self.seating.len() - rejected.len();
        self.tallies.drop_empty();
        Ok(Event::finish(
            self.roster,
            self.roster_given,
            self.cards,
            self.seating,
            rejected,
            self.tallies,
            self.counts,
            &self.rules,
            self.problems,
        ))
    }
}
