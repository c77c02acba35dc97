//! An event put together from its inputs: the roster, the cards that passed
//! every check, and every problem found on the way.

use crate::domain::{Card, CardKey, PlayerId, Stage};
use crate::ingest::{self, InputError};
use crate::intake::Intake;
use crate::problem::said::{Msg, Part, Said};
use crate::problem::{Message, Problems};
use crate::profile::{AgeScheme, GoingOn, Rules, TableTies};
use crate::roster::Roster;
use crate::rules::advancement::{Advancer, Cut, Decision, Stayer, Staying};
use crate::rules::age_groups::{assign, nvso_groups, AgeError, AgeGroup};
use crate::rules::card_checks::{CardKeys, Seating};
use crate::rules::standings::{self, Standings, Tallies};
use std::collections::HashMap;
use std::path::PathBuf;

/// What to read.
#[derive(Clone, Debug)]
pub struct Request {
    pub inputs: Vec<PathBuf>,
    pub roster: Option<PathBuf>,
    pub rules: Rules,
    /// What the event keeps of its cards.
    pub keep: Keep,
}

/// What an event keeps of the cards it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Every card, for every view (the default).
    Cards,
    /// Only the sums the standings rank ([`Tallies`]), when the event's
    /// rules need nothing else of the cards (see [`sums_suffice`]): a
    /// league's season of a million players is then read in little
    /// memory. For the commands that present the standings and the top-N
    /// qualifier list; the cards are kept when the rules need them.
    Sums,
}

/// Whether the standings' sums answer everything the event asks of its
/// cards: who goes on is the top of the standings, with no age groups
/// (their players are put in groups from the cards). What cards are in
/// (the schedule's missing cards) is read from the cards' keys ([`CardKeys`]).
pub fn sums_suffice(rules: &Rules) -> bool {
    rules.going_on == GoingOn::TopOfStandings
        && rules.age_groups.is_empty()
        && rules.age_scheme != AgeScheme::NvsoBySize
}

/// Counts for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Cards the event's store held.
    pub stored: usize,
    /// Cards that passed every check.
    pub accepted: usize,
    pub files: usize,
    /// The sheets of workbooks read (a CSV file has none).
    pub sheets: usize,
    pub cards_read: usize,
    pub cards_rejected: usize,
    pub games: usize,
}

/// The event's age groups (RULES.md section 8) and each player's.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    /// In the order configured; empty for an event without groups.
    pub names: Vec<String>,
    pub of: HashMap<PlayerId, String>,
}

#[derive(Debug)]
pub struct Event {
    pub rules: Rules,
    pub roster: Roster,
    pub groups: Groups,
    /// Cards that passed every check, in the order read (none when the
    /// request kept only the sums: [`Keep::Sums`]).
    pub cards: Vec<Card>,
    /// The key of every card that passed its own checks, in the order
    /// read (what [`Event::completeness`] reads; who sat where was the
    /// checks across cards', and is not kept).
    pub card_keys: CardKeys,
    /// The cards of `card_keys` rejected by the checks across cards.
    pub rejected: Vec<usize>,
    /// Every player's sums in every stage, from the accepted cards: what
    /// every standings ranks.
    pub tallies: std::sync::Arc<Tallies>,
    /// Each later stage that has cards, against who went on to it.
    pub entrants: Vec<Entrants>,
    pub problems: Problems,
    pub counts: Counts,
    /// Whether who goes on was judged: no card had an error, nor the
    /// settings but for names `[stages.NAME] absent` gives that are no
    /// player's, which take nobody's seat (the errors said since are of
    /// the later stages' players and tables).
    judged: bool,
    /// The errors said of each later stage's players and tables when who
    /// goes on was judged ([`Event::errors_of`]).
    judged_errors: Vec<(Stage, usize)>,
    /// The tables the live desk's board holds back, by key: what the
    /// answers of their stage, and of the stages after it, wait for beside
    /// the missing cards (set by the event folder, whose store keeps the
    /// board; files read alone have none).
    pub held: Vec<(crate::domain::CardKey, Held)>,
    /// Of the tables held back as [`Held::TypedTwice`], the two typings
    /// and how many values differ (set by the event folder too).
    pub typed_twice: Vec<HeldTyping>,
}

/// A table a double-entry import held back because its two typings differ
/// (`import --second-entry`, [`Held::TypedTwice`]): the event names it so,
/// not as missing, until a card of it is imported after (a card it held
/// before counts meanwhile, and does not clear it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldTyping {
    pub key: crate::domain::CardKey,
    /// The first typing's file, as shown.
    pub first: String,
    /// The second typing, as named on the command line.
    pub second: String,
    /// How many values differ (a card typed once only counts one).
    pub differ: usize,
}

/// Why the live desk's board holds a table back (docs/formats.md, the live
/// desk): until it is settled, what depends on the table is provisional.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Two versions of its card differ: the director decides which
    /// stands, on the board. (With one entry only, the card the event
    /// holds counts meanwhile, and may be the wrong one.)
    Conflict,
    /// A referee entered it and the desk's typing of the signed card is
    /// still to come (double entry): it counts once they agree.
    Waiting,
    /// The desk typed it twice and the two typings differ (`import
    /// --second-entry` held it back): it counts once the right typing is
    /// imported (a card of it the event held before counts meanwhile).
    TypedTwice,
}

/// Who plays a later stage, against who went on to it from the stage
/// before (RULES.md section 7): the one answer of whether a stage's
/// players are the right ones (`Event::finish` makes a player who did
/// not go on an error at the card) and whether it is complete
/// ([`Completeness::waiting`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrants {
    pub stage: Stage,
    pub from: Stage,
    /// How many went on to it.
    pub went_on: usize,
    /// Players on its cards who did not go on.
    pub strangers: Vec<PlayerId>,
    /// Players who went on and have no card of it yet.
    pub waiting: Vec<PlayerId>,
    /// Players the settings say did not turn up (`[stages.NAME] absent`):
    /// who went on and has no card of it is not waited for; who did not go
    /// on, or has a card, is an error of the settings (listed here, each
    /// with whether they went on: then they play it).
    pub absent: Vec<(PlayerId, bool)>,
    /// Whether the stage before has any card: with none, nobody can be
    /// known to have gone on (its cards left out of those given, or a
    /// stage added by a mistyped `[stages.NAME]`).
    pub from_played: bool,
    /// Whether the stage before is complete (cards missing, or players
    /// still to play it: judged on its list as it stands, see
    /// [`Event::entrants_so_far`]).
    pub from_complete: bool,
    /// The tables of its seating, and how many it seats: who went on, less
    /// those named absent, at tables of 4 and 3 numbered on through the
    /// groups, as `seating` seats them
    /// ([`crate::rules::seating::tables_of_groups`]). None while the stage
    /// before is not complete (who goes on may change), when nobody went
    /// on, or when a group's count cannot be seated. A card of a table past
    /// them is an error ([`Event::table_off`]).
    pub tables: Option<(u32, usize)>,
}

impl Event {
    /// Reads and checks everything. Only a file that cannot be read at all is
    /// an `Err`; wrong data is in `problems`, and its cards are left out.
    /// Well-formed results CSV files are read on two threads
    /// ([`crate::stream`]); anything else the ordinary way. Either way every
    /// card goes through the one [`Intake`].
    pub fn load(request: &Request) -> Result<Event, InputError> {
        Event::load_with(request, true)
    }

    /// As [`Event::load`], every card read the ordinary way (no streaming
    /// reader): the same event, more slowly. For comparisons.
    #[doc(hidden)]
    pub fn load_ordinary(request: &Request) -> Result<Event, InputError> {
        Event::load_with(request, false)
    }

    /// The event the streaming reader alone gives, or `None` where it gives
    /// up; `threads` and `chunk` as [`crate::stream::read_with`] takes
    /// them. For comparisons: where it answers, [`Event::load`] gives the
    /// same event.
    #[doc(hidden)]
    pub fn load_streamed(request: &Request, threads: Option<bool>, chunk: u64) -> Option<Event> {
        let keep_cards = request.keep == Keep::Cards || !sums_suffice(&request.rules);
        let mut problems = Problems::new();
        let roster = match &request.roster {
            Some(path) => Some(ingest::roster::read(path, &mut problems).ok()?),
            None => None,
        };
        let mut intake = Intake::new(roster, &request.rules, keep_cards, problems, Vec::new());
        // (standard input or a pipe held, as a command holds it)
        let _replay = crate::ingest::once::Replay::keep();
        crate::stream::read_with(&request.inputs, &mut intake, threads, chunk)?;
        intake.finish().ok()
    }

    fn load_with(request: &Request, streaming: bool) -> Result<Event, InputError> {
        let keep_cards = request.keep == Keep::Cards || !sums_suffice(&request.rules);
        // The roster is read once (standard input or a pipe could not be
        // read again), what it said given to each pass; the second pass
        // gets the roster as the first left it.
        let mut said = Problems::new();
        let roster = match &request.roster {
            Some(path) => Some(ingest::roster::read(path, &mut said)?),
            None => None,
        };
        crate::intake::in_passes(roster, |roster, skip| {
            let intake = Intake::new(roster, &request.rules, keep_cards, said.clone(), skip);
            Event::read(request, intake, streaming)
        })
    }

    /// Reads every input into `intake`: streaming when every input can
    /// be, else (or when the streaming reader gives up) the ordinary way.
    fn read(request: &Request, mut intake: Intake, streaming: bool) -> Result<Intake, InputError> {
        if streaming && crate::stream::can_read(&request.inputs) {
            // given up: what it added is forgotten (the roster given
            // kept), and the cards read the ordinary way
            let mark = intake.mark();
            if crate::stream::read(&request.inputs, &mut intake).is_some() {
                return Ok(intake);
            }
            intake.back_to(mark);
        }
        let mut inputs = ingest::read_cards(&request.inputs, &mut intake.problems)?;
        inputs.set_stage(None, &request.rules.stages, &mut intake.problems);
        intake.add_inputs(&inputs);
        Ok(intake)
    }

    /// Checks what was already read (files, or the event's store) and puts
    /// the event together. `roster` is `None` when no roster was given:
    /// players are then known by what the cards say.
    pub fn assemble(
        roster: Option<Roster>,
        inputs: ingest::CardInputs,
        rules: &Rules,
        problems: Problems,
    ) -> Event {
        let pass = |roster, skip| -> Result<Intake, std::convert::Infallible> {
            let mut intake = Intake::new(roster, rules, true, problems.clone(), skip);
            intake.add_inputs(&inputs);
            Ok(intake)
        };
        match crate::intake::in_passes(roster, pass) {
            Ok(event) => event,
            Err(never) => match never {},
        }
    }

    /// The checks of the event as a whole, once its cards are checked: ages
    /// on the event date (when a roster was given), age groups, the players
    /// the settings name.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn finish(
        mut roster: Roster,
        roster_given: bool,
        cards: Vec<Card>,
        seating: Seating,
        rejected: Vec<usize>,
        tallies: Tallies,
        mut counts: Counts,
        rules: &Rules,
        mut problems: Problems,
    ) -> Event {
        // (a roster given that could not be read was said at its file:
        // nothing here that needs it, each player's lack of it said again)
        let unread = roster.is_unread();
        if let (true, false, Some(date)) = (roster_given, unread, &rules.event_date) {
            crate::rules::roster_checks::check_ages(&roster, rules, date, &mut problems);
        }
        let groups = match unread {
            true => Groups::default(),
            false => assign_groups(&mut roster, &tallies, rules, &mut problems),
        };
        // Each name that is no player's, at the name. A name `absent` gives
        // wrongly takes nobody's seat: who went on is judged all the same,
        // and whether the list's others went on is said with it.
        let mut lists = vec![("[qualifiers] named".to_string(), &rules.named, false)];
        for (stage, names) in &rules.absent {
            lists.push((format!("[stages.{stage}] absent"), names, true));
        }
        for (stage, names) in &rules.stage_named {
            lists.push((format!("[stages.{stage}] named"), names, false));
        }
        let mut absent_unknown = 0;
        for (setting, names, absent) in lists.iter().filter(|_| !unread) {
            for (i, name) in names.iter().enumerate() {
                if roster.find(name).is_err() {
                    problems.error(
                        rules.written_at.place_of_item(setting, i),
                        format!("{setting}: {name:?} names no single player of this event"),
                    );
                    absent_unknown += usize::from(*absent);
                }
            }
        }
        // (a card with an error counts for nothing: it is not accepted)
        let (cards_off, games_off) = mixed_groups(&cards, &groups, rules, &mut problems);
        counts.accepted -= cards_off;
        counts.cards_rejected += cards_off;
        counts.games -= games_off;
        // Who sat where is kept until a later stage's players are judged,
        // to name the seat of one who did not go on (whether or not the
        // cards are kept); an event of one stage keeps the keys alone.
        let later = tallies.stages().any(|s| rules.stage_rank(s) > 0);
        let (card_keys, seating) = match later {
            true => (seating.to_keys(), Some(seating)),
            false => (seating.into_keys(), None),
        };
        let mut event = Event {
            rules: rules.clone(),
            roster,
            groups,
            cards,
            card_keys,
            rejected,
            tallies: std::sync::Arc::new(tallies),
            entrants: Vec::new(),
            judged: problems.error_count() == absent_unknown,
            judged_errors: Vec::new(),
            problems,
            counts,
            held: Vec::new(),
            typed_twice: Vec::new(),
        };
        event.say_named_twice();
        // (who goes on is not known while cards have errors; a name
        // `absent` gives that is no player's changes nobody's seat)
        if event.judged {
            event.entrants = event.find_entrants(false);
            if let Some(seating) = &seating {
                event.say_strangers(seating);
            }
            event.say_names_in_no_tie();
        } else if let Some(seating) = &seating {
            event.say_absent_playing(seating);
        }
        event
    }

    /// Each later stage with cards, as [`Event::entrants`], judged also
    /// while the first stage has cards missing: against the list of who
    /// goes on as it stands (`qualifiers --allow-incomplete`), the list a
    /// final's seating printed then was made from. What an import checks a
    /// later stage's card against as it comes in: a card of the final
    /// typed in before the prelim is complete is refused when its players
    /// are not on that list, not found out once the prelim is in.
    /// Empty while any card has an error.
    pub fn entrants_so_far(&self) -> Vec<Entrants> {
        match self.judged {
            true => self.find_entrants(true),
            false => Vec::new(),
        }
    }

    /// [`Event::entrants`]: each later stage with cards, from the first,
    /// against who went on from the stage before. Nothing is judged of a
    /// stage whose stage before is not complete (cards missing, players
    /// still to play; judged all the same `so_far`, on the first stage's
    /// cards in, see [`Event::entrants_so_far`]), nor of a group whose
    /// list waits for the director.
    fn find_entrants(&self, so_far: bool) -> Vec<Entrants> {
        use std::collections::{BTreeSet, HashSet};
        let played = self.stages();
        let mut out: Vec<Entrants> = Vec::new();
        // (an event of one stage so far: nothing to judge, nothing counted)
        if !self
            .rules
            .stages
            .iter()
            .skip(1)
            .any(|s| played.contains(&Stage::new(s)))
        {
            return out;
        }
        let mut from_complete = self.completeness_of_schedule().is_empty();
        for pair in self.rules.stages.windows(2) {
            let (from, to) = (Stage::new(&pair[0]), Stage::new(&pair[1]));
            if !played.contains(&to) {
                // nothing of it played: who goes on from it is not known
                from_complete = false;
                continue;
            }
            if !played.contains(&from) {
                // A stage played while the one before it has no card:
                // nobody has gone on to it yet (the prelim or the semi's
                // cards left out, or a stage added by a mistyped
                // [stages.NAME]).
                let strangers: BTreeSet<PlayerId> =
                    self.tallies.each_of(&to).map(|t| t.player).collect();
                out.push(Entrants {
                    stage: to,
                    from,
                    went_on: 0,
                    strangers: strangers.into_iter().collect(),
                    waiting: Vec::new(),
                    absent: Vec::new(),
                    from_played: false,
                    from_complete: false,
                    tables: None,
                });
                from_complete = false;
                continue;
            }
            if !(so_far || from_complete) {
                break;
            }
            let lists = self.advance_all(&from, &self.group_list(), &[]);
            if lists.iter().any(|l| !l.settled) {
                break;
            }
            let going: HashSet<PlayerId> = lists
                .iter()
                .flat_map(|l| l.going.iter().map(|a| a.player))
                .collect();
            let here: BTreeSet<PlayerId> = self.tallies.each_of(&to).map(|t| t.player).collect();
            let absent: Vec<PlayerId> = self.absent_from(&to).collect();
            let mut waiting: Vec<PlayerId> = going
                .iter()
                .copied()
                .filter(|p| !here.contains(p) && !absent.contains(p))
                .collect();
            waiting.sort_by(|a, b| self.roster.id(*a).cmp(self.roster.id(*b)));
            // (known once the stage before is: judged so far, its list
            // may still grow or shrink)
            let seated: Vec<usize> = lists.iter().map(|l| self.to_seat(l).0.len()).collect();
            let tables = crate::rules::seating::tables_of_groups(&seated)
                .ok()
                .filter(|&t| t > 0 && from_complete)
                .map(|t| (t, seated.iter().sum()));
            let entry = Entrants {
                stage: to,
                from,
                went_on: going.len(),
                strangers: here
                    .iter()
                    .copied()
                    .filter(|p| !going.contains(p))
                    .collect(),
                waiting,
                absent: absent
                    .into_iter()
                    .filter(|p| !going.contains(p) || here.contains(p))
                    .map(|p| (p, going.contains(&p)))
                    .collect(),
                from_played: true,
                from_complete,
                tables,
            };
            from_complete = from_complete && entry.waiting.is_empty();
            out.push(entry);
        }
        out
    }

    /// A player on a later stage's card who did not go on to it is an
    /// error at that card (a mistyped id would win a medal), and so is a
    /// card of a table its seating does not have ([`Event::table_off`]).
    fn say_strangers(&mut self, seating: &Seating) {
        let mut said = Vec::new();
        for e in &self.entrants {
            let on = |k: &CardKey| k.stage == e.stage;
            for &p in &e.strangers {
                // where the card names the player: their seat
                let (place, message) = match seating.card_of(p, on) {
                    Some((key, place)) => (place, Said::of_card(&key, self.stranger(e, p))),
                    None => (
                        crate::place::Place::nowhere(&format!("{} cards", e.stage)),
                        self.stranger(e, p),
                    ),
                };
                said.push((e.stage.clone(), place, Message::from(message)));
            }
        }
        for e in &self.entrants {
            for (key, place) in seating.cards_of_stage(&e.stage) {
                if let Some(off) = Self::table_off(e, &key) {
                    let message = Message::from(Said::of_card(&key, off));
                    said.push((e.stage.clone(), place, message));
                }
            }
        }
        for e in &self.entrants {
            let on = |k: &CardKey| k.stage == e.stage;
            for &(p, went_on) in &e.absent {
                let why = match seating.card_of(p, on) {
                    Some((key, _)) => format!("plays it ({key})"),
                    None if went_on => "plays it".to_string(),
                    None => format!("did not go on to it from the {}", e.from),
                };
                let (place, message) = self.absent_wrong(&e.stage, p, &why);
                said.push((e.stage.clone(), place, message));
            }
        }
        for (stage, place, message) in said {
            match self.judged_errors.iter_mut().find(|(s, _)| *s == stage) {
                Some((_, n)) => *n += 1,
                None => self.judged_errors.push((stage, 1)),
            }
            self.problems.error(place, message);
        }
    }

    /// While who went on is not known (the event has errors, and
    /// [`Event::say_strangers`] is not said), a player `[stages.NAME]
    /// absent` names who has a card of that stage is an error all the
    /// same: every error of the list comes out in one run, a name that is
    /// no player's (said by [`Event::finish`]) with those who play the
    /// stage. (Whether the others went on is said once it is known.)
    fn say_absent_playing(&mut self, seating: &Seating) {
        let mut said = Vec::new();
        for name in self.rules.absent.keys() {
            let stage = Stage::new(name);
            let on = |k: &CardKey| k.stage == stage;
            for p in self.absent_from(&stage) {
                if let Some((key, _)) = seating.card_of(p, on) {
                    said.push(self.absent_wrong(&stage, p, &format!("plays it ({key})")));
                }
            }
        }
        for (place, message) in said {
            self.problems.error(place, message);
        }
    }

    /// The error of player `p`, whom `[stages.NAME] absent` names for
    /// `stage` wrongly (`why`: they play it, or did not go on to it), at
    /// the setting.
    fn absent_wrong(
        &self,
        stage: &Stage,
        p: PlayerId,
        why: &str,
    ) -> (crate::place::Place, Message) {
        let setting = format!("[stages.{stage}] absent");
        let names = self.rules.absent.get(stage.as_str());
        let at = names
            .into_iter()
            .flatten()
            .position(|n| self.roster.find(n).ok() == Some(p));
        (
            match at {
                Some(i) => self.rules.written_at.place_of_item(&setting, i),
                None => self.rules.written_at.place(&setting),
            },
            Message::from(format!(
                "[stages.{stage}] absent: {} {why}; remove {} from the list",
                self.who(p),
                self.roster.id(p)
            )),
        )
    }

    /// The players the settings name to settle the ties of `stage`
    /// ([`Rules::named_for`]), each once (a player listed twice is a
    /// warning, said by [`Event::say_named_twice`]; a name that is no
    /// player is an error of the settings, said by [`Event::finish`]).
    fn named_in_settings<'a>(&'a self, stage: &Stage) -> impl Iterator<Item = PlayerId> + 'a {
        let mut seen = std::collections::HashSet::new();
        self.rules
            .named_for(stage)
            .iter()
            .filter_map(|n| self.roster.find(n).ok())
            .filter(move |p| seen.insert(*p))
    }

    /// A player a `named` list (or an `absent` one) gives more than once
    /// (the same id twice, or their id and their name) is a warning at the
    /// setting, said once for the player: once names them, and the list
    /// may be missing the player the director meant to type.
    fn say_named_twice(&mut self) {
        let mut said = Vec::new();
        let mut lists = Vec::new();
        for (at, stage) in self.rules.stages.iter().enumerate() {
            let setting = match at {
                0 => "[qualifiers] named".to_string(),
                _ => format!("[stages.{stage}] named"),
            };
            lists.push((setting, self.rules.named_for(&Stage::new(stage))));
        }
        for (stage, names) in &self.rules.absent {
            lists.push((format!("[stages.{stage}] absent"), names.as_slice()));
        }
        for (setting, names) in lists {
            let found: Vec<(PlayerId, &String)> = names
                .iter()
                .filter_map(|n| self.roster.find(n).ok().map(|p| (p, n)))
                .collect();
            let mut done = Vec::new();
            for &(p, _) in &found {
                let written: Vec<String> = found
                    .iter()
                    .filter(|(q, _)| *q == p)
                    .map(|(_, n)| format!("{n:?}"))
                    .collect();
                if written.len() < 2 || done.contains(&p) {
                    continue;
                }
                done.push(p);
                let times = match written.len() {
                    2 => "twice".to_string(),
                    n => format!("{n} times"),
                };
                // at their second name in the list
                let second = names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| self.roster.find(n).ok() == Some(p))
                    .nth(1)
                    .map_or(0, |(i, _)| i);
                said.push((
                    self.rules.written_at.place_of_item(&setting, second),
                    format!(
                        "{setting}: {} is listed {times} ({}); naming them once is enough; was another player meant?",
                        self.who(p),
                        written.join(", ")
                    ),
                ));
            }
        }
        for (place, message) in said {
            self.problems.warning(place, message);
        }
    }

    /// A player the settings name to settle a tie (`[qualifiers] named`,
    /// `[stages.NAME] named`) who settles none of the stage's ties, in any
    /// age group, is a warning at the setting, said once: the name changes
    /// nothing. So under every rule: the top N takes no names (a tie at
    /// its cutoff follows `cutoff_ties`), and nobody goes on from the
    /// event's last stage. A stage with no cards yet has no ties to judge.
    fn say_names_in_no_tie(&mut self) {
        use crate::rules::advancement::names_in_no_tie;
        let played = self.stages();
        let mut said = Vec::new();
        for (at, name) in self.rules.stages.iter().enumerate() {
            let stage = Stage::new(name);
            let named: Vec<PlayerId> = self.named_in_settings(&stage).collect();
            if named.is_empty() {
                continue;
            }
            let setting = match at {
                0 => "[qualifiers] named".to_string(),
                _ => format!("[stages.{stage}] named"),
            };
            let last = at > 0 && at + 1 == self.rules.stages.len();
            let (unused, why) = if last {
                (
                    named,
                    format!("nobody goes on from the {stage}, the event's last stage"),
                )
            } else if !played.contains(&stage) {
                continue;
            } else if self.rules.going_on == GoingOn::TopOfStandings {
                (
                    named,
                    format!(
                        "the top {} of the {stage} standings go on, and a tie at the cutoff follows cutoff_ties, never a name",
                        self.rules.qualifiers
                    ),
                )
            } else {
                let lists = self.advance_all(&stage, &self.group_list(), &[]);
                (
                    names_in_no_tie(&named, lists.iter().flat_map(|l| &l.decisions)),
                    format!("they are in no tie for going on from the {stage}"),
                )
            };
            let names = self.rules.named_for(&stage);
            for p in unused {
                // at their name in the list
                let at = names
                    .iter()
                    .position(|n| self.roster.find(n).ok() == Some(p))
                    .unwrap_or(0);
                said.push((
                    self.rules.written_at.place_of_item(&setting, at),
                    format!("{setting}: naming {} changes nothing: {why}", self.who(p)),
                ));
            }
        }
        for (place, message) in said {
            self.problems.warning(place, message);
        }
    }

    /// The errors the answers of `stage` wait for: every error but those
    /// of a later stage's players (one who did not go on to it, one the
    /// settings call absent) and of its tables (a card of a table its
    /// seating does not have). The prelim's standings and who goes on from
    /// it do not depend on the final's cards: the director who finds a
    /// final card wrong once a correction changed the prelim's list needs
    /// that list to mend it. A stage the event does not play waits for
    /// every error.
    pub fn errors_of(&self, stage: &Stage) -> usize {
        self.problems.error_count() - self.later_errors(stage).map(|(_, n)| n).sum::<usize>()
    }

    /// Each stage after `stage` whose players were found wrong, with how
    /// many errors that made (what the answers of `stage` do not wait for,
    /// see [`Event::errors_of`]).
    pub fn later_errors<'a>(
        &'a self,
        stage: &Stage,
    ) -> impl Iterator<Item = (&'a Stage, usize)> + 'a {
        let order = |s: &Stage| self.rules.stages.iter().position(|r| r == s.as_str());
        let at = order(stage);
        self.judged_errors
            .iter()
            .filter(move |(s, _)| matches!((at, order(s)), (Some(a), Some(b)) if b > a))
            .map(|(s, n)| (s, *n))
    }

    /// Who of `list` takes a seat at the stage they go on to, and who does
    /// not: those `[stages.NAME] absent` names for it did not turn up, and
    /// a seating printed again keeps no seat for them.
    pub fn to_seat(&self, list: &AdvanceList) -> (Vec<PlayerId>, Vec<PlayerId>) {
        let absent: Vec<PlayerId> = self.absent_from(&list.to).collect();
        list.going
            .iter()
            .map(|a| a.player)
            .partition(|p| !absent.contains(p))
    }

    /// The players `[stages.NAME] absent` names for `stage`: they went on
    /// and did not turn up (a name that is no single player is an error
    /// of the event, said when it is read).
    pub fn absent_from(&self, stage: &Stage) -> impl Iterator<Item = PlayerId> + '_ {
        let names = self.rules.absent.get(stage.as_str());
        // each once (a player listed twice is a warning, said by
        // Event::say_named_twice)
        let mut seen = std::collections::HashSet::new();
        names
            .into_iter()
            .flatten()
            .filter_map(|n| self.roster.find(n).ok())
            .filter(move |p| seen.insert(*p))
    }

    /// What is wrong with the table of card `key` of `e`'s stage, when it
    /// is none of the tables its seating has (a later stage is seated from
    /// who went on: its tables are known once the stage before is
    /// complete, [`Entrants::tables`]; the first stage's are its
    /// schedule's, checked with the card). The card's key goes before it.
    pub fn table_off(e: &Entrants, key: &CardKey) -> Option<Said> {
        let (tables, seated) = e.tables?;
        if matches!(key.table, crate::domain::Label::Num(n) if (1..=tables).contains(&n)) {
            return None;
        }
        let (stage, seated, from) = (
            Part::Stage(e.stage.to_string()),
            Part::text(seated),
            Part::Stage(e.from.to_string()),
        );
        Some(match tables {
            1 => Said::new(Msg::TableOffSeatingOne, [stage, seated, from]),
            _ => Said::new(
                Msg::TableOffSeating,
                [stage, Part::text(tables), seated, from],
            ),
        })
    }

    /// What is wrong with stranger `p` on the cards of `e`'s stage (the
    /// card's key goes before it).
    /// (What to do is the desk's, a command to list who went on, or the
    /// table's, on a referee's phone: [`Part::Advice`].)
    pub fn stranger(&self, e: &Entrants, p: PlayerId) -> Said {
        let (who, stage, from) = (
            Part::Text(self.who(p)),
            Part::Stage(e.stage.to_string()),
            Part::Stage(e.from.to_string()),
        );
        let went_on = Part::text(e.went_on);
        let (finding, advice) = if !e.from_played {
            // no card of the stage before at all: who went on is not
            // known, whatever the card says
            (
                Msg::StrangerNoFrom,
                Part::advice(
                    Said::new(Msg::StrangerNoFromAtDesk, [from.clone(), stage.clone()]),
                    Said::new(Msg::StrangerNoFromAtTable, [from.clone()]),
                ),
            )
        } else if e.from_complete {
            let id = Part::text(self.roster.id(p));
            (
                Msg::Stranger,
                Part::advice(
                    Said::new(
                        Msg::StrangerAtDesk,
                        [went_on.clone(), Part::text(&e.from), id.clone()],
                    ),
                    Said::new(Msg::StrangerAtTable, [went_on, id]),
                ),
            )
        } else {
            (
                Msg::StrangerSoFar,
                Part::advice(
                    Said::new(
                        Msg::StrangerSoFarAtDesk,
                        [went_on.clone(), from.clone(), Part::text(&e.from)],
                    ),
                    Said::new(Msg::StrangerSoFarAtTable, [went_on, from.clone()]),
                ),
            )
        };
        Said::new(
            Msg::WithAdvice,
            [Part::said(finding, [who, stage, from]), advice],
        )
    }

    /// A player as a message names them: id and name (the id alone when
    /// no roster gives a name).
    fn who(&self, p: PlayerId) -> String {
        let (id, name) = (self.roster.id(p), self.roster.name(p));
        if id == name {
            id.to_string()
        } else {
            format!("{id} {name}")
        }
    }

    /// The stages that have cards, in the profile's order (then others by
    /// name).
    pub fn stages(&self) -> Vec<Stage> {
        let mut v: Vec<Stage> = self.tallies.stages().cloned().collect();
        v.sort_by(|a, b| {
            let rank = |s: &Stage| self.rules.stage_rank(s);
            rank(a).cmp(&rank(b)).then_with(|| a.cmp(b))
        });
        v.dedup();
        v
    }

    /// The roster as `stage` is ranked and played on from: a status
    /// (withdrawn, disqualified) counts from the last stage the player has
    /// cards of. A finalist marked withdrawn or disqualified after the
    /// final is listed apart in the final, and the stages before rank them
    /// as they played: they went on, and the final was played by that list
    /// (marked before it, with no card of it, they are apart from the
    /// prelim on, and the next in line goes on). The roster itself when no
    /// such player plays a stage after `stage` (always, with one stage).
    pub fn roster_in(&self, stage: &Stage) -> std::borrow::Cow<'_, Roster> {
        use crate::roster::Status;
        let at = self.rules.stage_rank(stage);
        let mut later = self
            .tallies
            .stages()
            .filter(|s| self.rules.stage_rank(s) > at)
            .flat_map(|s| self.tallies.each_of(s).map(|t| t.player))
            .filter(|&p| self.roster.status(p) != Status::Active)
            .peekable();
        if later.peek().is_none() {
            return std::borrow::Cow::Borrowed(&self.roster);
        }
        let mut roster = self.roster.clone();
        for p in later {
            roster.set_status(p, Status::Active);
        }
        std::borrow::Cow::Owned(roster)
    }

    /// The standings of one stage (RULES.md section 6).
    pub fn standings(&self, stage: &Stage) -> Standings {
        self.standings_in(stage, None)
    }

    /// The standings of one stage, of one age group when `group` is given.
    pub fn standings_in(&self, stage: &Stage, group: Option<&str>) -> Standings {
        use crate::rules::advancement::Carry;
        let order = self.rules.order.clone();
        if self.carry(stage) == Carry::None {
            // the sums read in place: no copy of them beside the standings
            let in_group = |t: &standings::Tally| {
                group.is_none_or(|g| self.groups.of.get(&t.player).is_some_and(|x| x == g))
            };
            return standings::rank_in(
                &self.tallies,
                in_group,
                stage,
                order,
                &self.roster_in(stage),
            );
        }
        let mut tallies = self.tallies(stage);
        if let Some(g) = group {
            tallies.retain(|t| self.groups.of.get(&t.player).is_some_and(|x| x == g));
        }
        standings::rank(tallies, stage, order, &self.roster_in(stage))
    }

    /// A stage's tallies, with what it carries over from the stage before
    /// (`[stages.NAME] carry`, RULES.md section 7): the players of this
    /// stage start from all, or half, of what they had there.
    fn tallies(&self, stage: &Stage) -> Vec<standings::Tally> {
        use crate::rules::advancement::add_carried;
        let own = self.tallies.of(stage);
        match self.starting(stage, &own) {
            None => own,
            Some(start) => add_carried(&start, own, self.tallies.lowest_is_best()),
        }
    }

    /// The points each player of `stage` carries into it from the stage
    /// before (`[stages.NAME] carry`): what the stage's standings add to
    /// the stage's own points, and so the table rules too (RULES.md
    /// section 7).
    fn carried(&self, stage: &Stage) -> crate::rules::advancement::Carried {
        let own = self.tallies.of(stage);
        self.starting(stage, &own)
            .unwrap_or_default()
            .into_iter()
            .map(|t| (t.player, t.total))
            .collect()
    }

    /// What the players of `own` (the stage's own tallies) start `stage`
    /// with, carried from the stage before; `None` when it carries nothing.
    fn starting(&self, stage: &Stage, own: &[standings::Tally]) -> Option<Vec<standings::Tally>> {
        use crate::rules::advancement::{starting_tallies, Carry};
        let carry = self.carry(stage);
        let stages = self.stages();
        let i = stages.iter().position(|s| s == stage)?;
        let previous = &stages[i.checked_sub(1)?];
        if carry == Carry::None {
            return None;
        }
        let players: Vec<PlayerId> = own.iter().map(|t| t.player).collect();
        Some(starting_tallies(&self.tallies(previous), &players, carry))
    }

    /// What `stage` carries over from the stage before.
    fn carry(&self, stage: &Stage) -> crate::rules::advancement::Carry {
        self.rules
            .carry
            .get(stage.as_str())
            .copied()
            .unwrap_or_default()
    }

    /// The standings of one stage (and group) down to the `n`th ranked
    /// player and those tied with them: the same entries and ranks as
    /// [`Event::standings_in`], without ranking everyone.
    pub fn standings_top(&self, stage: &Stage, group: Option<&str>, n: usize) -> Standings {
        use crate::rules::advancement::Carry;
        let order = self.rules.order.clone();
        if group.is_none() && self.carry(stage) == Carry::None {
            return standings::rank_top(
                &self.tallies.view(stage),
                n,
                stage,
                order,
                &self.roster_in(stage),
            );
        }
        let mut tallies = self.tallies(stage);
        if let Some(g) = group {
            tallies.retain(|t| self.groups.of.get(&t.player).is_some_and(|x| x == g));
        }
        standings::rank_top(&tallies[..], n, stage, order, &self.roster_in(stage))
    }

    /// The groups to report on: each group, or the whole event (`None`).
    pub fn group_list(&self) -> Vec<Option<String>> {
        if self.groups.names.is_empty() {
            vec![None]
        } else {
            self.groups.names.iter().cloned().map(Some).collect()
        }
    }

    /// The cards of one group's players (every player of a card is in the
    /// same group when groups run their own stages).
    pub fn cards_of(&self, group: Option<&str>) -> Vec<Card> {
        match group {
            None => self.cards.clone(),
            Some(g) => self
                .cards
                .iter()
                .filter(|c| {
                    c.seats
                        .iter()
                        .any(|s| self.groups.of.get(&s.player).is_some_and(|x| x == g))
                })
                .cloned()
                .collect(),
        }
    }
}

/// Puts every player in an age group (RULES.md section 8): the groups the
/// event configures, else `nvso`'s own by the number of players (the
/// roster's, else those on the cards); none for other profiles. A player no
/// group takes is an error. The group is written into the roster entry, so
/// that reports show the group the player plays in.
fn assign_groups(
    roster: &mut Roster,
    tallies: &Tallies,
    rules: &Rules,
    problems: &mut Problems,
) -> Groups {
    let groups: Vec<AgeGroup> = if !rules.age_groups.is_empty() {
        rules.age_groups.clone()
    } else if rules.age_scheme == AgeScheme::NvsoBySize {
        // the players: every active entry of the roster, and a withdrawn
        // or disqualified one who played a game (one who leaves, or is
        // disqualified, during the event does not merge two groups)
        let count = if roster.is_open() {
            tallies.players().len()
        } else {
            roster
                .iter()
                .filter(|(id, p)| p.status == crate::roster::Status::Active || tallies.played(*id))
                .count()
        };
        nvso_groups(count)
    } else {
        return Groups::default();
    };
    let mut out = Groups {
        names: groups.iter().map(|g| g.name.clone()).collect(),
        of: HashMap::new(),
    };
    let date = rules.event_date.clone();
    // No roster, several groups: no player's group can be chosen; said
    // once, not once a player (with the date, when it is missing too)
    if roster.is_open() && groups.len() > 1 {
        let names: Vec<String> = groups.iter().map(|g| g.name.to_string()).collect();
        problems.error(
            crate::place::Place::nowhere("tilerank"),
            Said::new(Msg::AgeGroupsNoRoster, [Part::text(names.join(", "))]),
        );
        if date.is_none() {
            problems.error(
                crate::place::Place::nowhere("tilerank"),
                Said::new(Msg::AgeGroupsNoDate, []),
            );
        }
        return out;
    }
    let mut missing_date = false;
    // (the lines whose birth date or age was typed wrong, that error said
    // at its cell: found when first needed)
    let mut typed_wrong = None;
    let ids: Vec<PlayerId> = roster.iter().map(|(id, _)| id).collect();
    for pid in ids {
        let player = roster.get(pid).into_owned();
        let result = match (&date, groups.len()) {
            (_, 1)
                if player.birth_date.is_none()
                    && player.age.is_none()
                    && player.group.is_none() =>
            {
                Ok(groups[0].name.clone())
            }
            (Some(d), _) => assign(&player, &groups, d),
            (None, _) => {
                missing_date = true;
                continue;
            }
        };
        match result {
            Ok(name) => {
                roster.set_group(pid, &name);
                out.of.insert(pid, name);
            }
            Err(e) => {
                let place = (player.place.clone())
                    .unwrap_or_else(|| crate::place::Place::nowhere("roster"));
                // a birth date or age typed that is none: said once, at
                // its cell, not again as none given
                if let (AgeError::NoAge { .. }, Some(row)) = (&e, place.row) {
                    let wrong = typed_wrong
                        .get_or_insert_with(|| ingest::roster::ages_typed_wrong(problems));
                    if wrong.contains(&(place.source.clone(), row)) {
                        continue;
                    }
                }
                problems.error(place, format!("{} ({}): {e}", player.id, player.name))
            }
        }
    }
    if missing_date {
        // (said of the run: the date is given on the command line or in
        // the event's tilerank.toml, never in a rules file)
        problems.error(
            crate::place::Place::nowhere("tilerank"),
            Said::new(Msg::AgeGroupsNoDate, []),
        );
    }
    out
}

/// Who goes on from a stage (RULES.md section 7): the one answer that
/// `qualifiers`, `advance`, `seating`, `explain`, the export and the
/// published pages present (in words by [`crate::report::going_on`]).
#[derive(Clone, Debug)]
pub struct AdvanceList {
    pub stage: Stage,
    /// Where they go: the next stage of the event (`final` when the
    /// profile lists no stage after this one).
    pub to: Stage,
    pub group: Option<String>,
    /// Best first, each with the reason.
    pub going: Vec<Advancer>,
    /// Under a table rule, every other player placed at a table, and why
    /// they do not go on (empty under the top `N`: the rank says it).
    pub staying: Vec<Stayer>,
    /// What the rules leave to the director, or tell them.
    pub decisions: Vec<Decision>,
    /// Nothing is left open: the list is final.
    pub settled: bool,
    /// The event's policy for ties the table rules cannot settle (how the
    /// decisions are worded).
    pub table_ties: TableTies,
    /// Where the director changes the settings that settle what the list
    /// waits for: the settings file the rules were read from (the event's
    /// `tilerank.toml`, or `--rules FILE`), `None` for a built-in profile's
    /// rules; and the profile, to start a rules file from.
    pub rules_file: Option<String>,
    pub profile: crate::profile::ProfileName,
    /// The standings of the stage and group: under a top-N rule, down to
    /// the cutoff and the players tied with the last within it
    /// ([`Event::standings_top`]) unless every player was asked for
    /// ([`Event::standings_going_on`], which keeps them beside the lists
    /// and leaves these empty); else all of them.
    pub standings: Standings,
    /// Where the top N ends, when the profile's rule is the top of the
    /// standings.
    pub cut: Option<Cut>,
}

/// A stage's standings and who goes on from them
/// ([`Event::standings_going_on`]).
#[derive(Clone, Debug)]
pub struct StandingsGoingOn {
    pub standings: Standings,
    /// Who goes on: one list per age group the standings hold (one for an
    /// event without groups, or for one group); none from the last stage.
    /// A list's own `standings` are not kept: they are `standings`, or a
    /// group's part of them.
    pub lists: Vec<AdvanceList>,
    /// Every player of the lists who goes on.
    pub going: PlayerSet,
    /// The players tied across a top-N cutoff (whether they go on is the
    /// policy's answer, in `going`).
    pub at_cutoff: PlayerSet,
}

/// A set of players, hashed fast (a view asks it of a million rows).
pub type PlayerSet = std::collections::HashSet<PlayerId, foldhash::fast::RandomState>;

impl StandingsGoingOn {
    /// Standings that mark nobody.
    pub fn unmarked(standings: Standings) -> StandingsGoingOn {
        StandingsGoingOn::of(Some(standings), Vec::new())
    }

    /// `standings` (else the one list's own) marked by `lists`, whose own
    /// standings are then let go.
    fn of(standings: Option<Standings>, mut lists: Vec<AdvanceList>) -> StandingsGoingOn {
        let going = lists
            .iter()
            .flat_map(|l| l.going.iter().map(|a| a.player))
            .collect();
        let at_cutoff = lists
            .iter()
            .flat_map(|l| {
                let rank = l
                    .cut
                    .as_ref()
                    .and_then(|c| c.straddle.as_ref())
                    .map(|s| s.rank);
                l.standings
                    .ranked
                    .iter()
                    .filter(move |e| rank.is_some() && e.rank == rank)
                    .map(|e| e.player())
            })
            .collect();
        let mut own = standings;
        for l in &mut lists {
            let emptied = Standings {
                stage: l.standings.stage.clone(),
                order: l.standings.order.clone(),
                ranked: Vec::new(),
                apart: Vec::new(),
            };
            let theirs = std::mem::replace(&mut l.standings, emptied);
            own.get_or_insert(theirs);
        }
        StandingsGoingOn {
            standings: own.unwrap_or_else(|| Standings {
                stage: Stage::prelim(),
                order: Vec::new(),
                ranked: Vec::new(),
                apart: Vec::new(),
            }),
            lists,
            going,
            at_cutoff,
        }
    }

    /// The list that sends `player` on, with the reason.
    /// Why `player` does not go on, under a table rule: what their list
    /// says.
    pub fn staying(&self, player: PlayerId) -> Option<&Staying> {
        self.lists.iter().find_map(|l| l.staying(player))
    }

    pub fn advancer(&self, player: PlayerId) -> Option<(&AdvanceList, &Advancer)> {
        self.lists
            .iter()
            .find_map(|l| l.going.iter().find(|a| a.player == player).map(|a| (l, a)))
    }
}

impl AdvanceList {
    pub fn goes_on(&self, player: PlayerId) -> bool {
        self.going.iter().any(|a| a.player == player)
    }

    /// Why `player` does not go on, under a table rule.
    pub fn staying(&self, player: PlayerId) -> Option<&Staying> {
        self.staying
            .iter()
            .find(|s| s.player == player)
            .map(|s| &s.reason)
    }

    /// The list waits for the director: exit 1 unless they settle it.
    pub fn is_refused(&self) -> bool {
        !self.settled
    }
}

impl Event {
    /// Who goes on from `stage` (in `group`) under the event's rule
    /// ([`GoingOn`]): the top N with the cutoff-tie policy, table winners
    /// and best seconds, or each table's lowest total. `named` are players
    /// the director named to settle ties, besides those the settings name
    /// for `stage`.
    pub fn advance(&self, stage: &Stage, group: Option<&str>, named: &[PlayerId]) -> AdvanceList {
        // a top-N list needs the standings down to its cutoff only
        let standings = match self.rules.going_on {
            GoingOn::TopOfStandings => {
                self.standings_top(stage, group, self.rules.qualifiers as usize)
            }
            _ => self.standings_in(stage, group),
        };
        self.advance_from(stage, group, named, standings)
    }

    /// The whole standings of `stage` (of `group`, or of the whole event)
    /// with who goes on from them: what every view of the standings marks
    /// (`standings`, the export, the published pages, `explain`), taken
    /// from the same lists as `qualifiers` and `advance` give. Nobody goes
    /// on from the event's last stage.
    pub fn standings_going_on(&self, stage: &Stage, group: Option<&str>) -> StandingsGoingOn {
        let standings = self.standings_in(stage, group);
        if self.rules.next_stage(stage).is_none() {
            return StandingsGoingOn::unmarked(standings);
        }
        if group.is_some() || self.groups.names.is_empty() {
            // one list, from these very standings (ranked once)
            let list = self.advance_from(stage, group, &[], standings);
            return StandingsGoingOn::of(None, vec![list]);
        }
        // the whole event's standings, while each age group has its own
        // list: a player goes on as their group's list says
        let lists = self.advance_all(stage, &self.group_list(), &[]);
        StandingsGoingOn::of(Some(standings), lists)
    }

    fn advance_from(
        &self,
        stage: &Stage,
        group: Option<&str>,
        named: &[PlayerId],
        standings: Standings,
    ) -> AdvanceList {
        use crate::rules::advancement::{best_at_each_table, names_in_no_tie, nvso, select};
        let asked = named;
        // the names that settle this stage's ties: `[qualifiers] named`
        // for the first stage, `[stages.NAME] named` for a later one
        let mut named = named.to_vec();
        named.extend(self.named_in_settings(stage));
        let named = &named[..];
        let (going, staying, mut decisions, cut) = match self.rules.going_on {
            GoingOn::TopOfStandings => {
                let cut = select(&standings, self.rules.qualifiers, self.rules.cutoff_ties);
                (
                    cut.advancers(&standings),
                    Vec::new(),
                    cut.decision().into_iter().collect(),
                    Some(cut),
                )
            }
            GoingOn::TableWinnersAndBestSeconds { .. } => {
                let cards = self.cards_of(group);
                let carried = self.carried(stage);
                let roster = self.roster_in(stage);
                let a = nvso(&cards, stage, &self.rules, &roster, named, &carried);
                (a.advancing, a.staying, a.decisions, None)
            }
            GoingOn::BestAtEachTable { per_table } => {
                let cards = self.cards_of(group);
                let carried = self.carried(stage);
                let roster = self.roster_in(stage);
                let a = best_at_each_table(
                    &cards,
                    stage,
                    &self.rules,
                    &roster,
                    named,
                    per_table,
                    &carried,
                );
                (a.advancing, a.staying, a.decisions, None)
            }
        };
        // a name this run gave (`--player`) that settles no tie of the
        // list, said last; the settings' are said once for the stage
        // (`say_names_in_no_tie`)
        let unused = names_in_no_tie(asked, &decisions);
        decisions.extend(
            unused
                .into_iter()
                .map(|player| Decision::NamedInNoTie { player }),
        );
        let table_ties = self.rules.table_ties;
        AdvanceList {
            stage: stage.clone(),
            to: self.next_stage(stage),
            group: group.map(str::to_string),
            settled: decisions.iter().all(|d| d.is_settled(table_ties)),
            going,
            staying,
            decisions,
            table_ties,
            rules_file: self.rules.written_at.file.clone(),
            profile: self.rules.profile,
            standings,
            cut,
        }
    }

    pub fn advance_all(
        &self,
        stage: &Stage,
        groups: &[Option<String>],
        named: &[PlayerId],
    ) -> Vec<AdvanceList> {
        groups
            .iter()
            .map(|g| self.advance(stage, g.as_deref(), named))
            .collect()
    }

    /// The stage after `stage` in this event (the profile's order; `final`
    /// after a stage it does not list).
    pub fn next_stage(&self, stage: &Stage) -> Stage {
        self.rules
            .next_stage(stage)
            .unwrap_or_else(|| Stage::new("final"))
    }

    /// The last stage of the event: its standings give the medals.
    pub fn final_stage(&self) -> Stage {
        Stage::new(self.rules.stages.last().map_or("final", String::as_str))
    }

    /// The first stage of the event: the one players qualify from.
    pub fn qualifying_stage(&self) -> Stage {
        self.rules.first_stage()
    }

    /// The medals of the final, one entry per group (RULES.md section 8);
    /// `None` until the final has cards.
    pub fn medals(&self) -> Option<Vec<crate::rules::medals::Medals>> {
        use crate::rules::medals::{award, award_group};
        let final_stage = self.final_stage();
        if !self.stages().contains(&final_stage) {
            return None;
        }
        Some(
            self.group_list()
                .into_iter()
                .map(|g| {
                    let s = self.standings_in(&final_stage, g.as_deref());
                    match &g {
                        Some(name) => award_group(name, &s),
                        None => award(&s),
                    }
                })
                .collect(),
        )
    }

    /// Everyone who went on from the qualifying stage (every group).
    pub fn qualified(&self) -> std::collections::HashSet<PlayerId> {
        let stage = self.qualifying_stage();
        self.advance_all(&stage, &self.group_list(), &[])
            .iter()
            .flat_map(|l| l.going.iter().map(|a| a.player))
            .collect()
    }

    /// The Super Family Award (RULES.md section 9), or why it is not
    /// decided (the profile gives none, no final yet, no event date).
    pub fn super_family(&self) -> Result<crate::rules::awards::SuperFamily, String> {
        use crate::report::words::Sentence as S;
        let final_stage = self.final_stage();
        if !self.rules.super_family_award {
            return Err(S::NoSuperFamily.en(&[&self.rules.profile]));
        }
        if !self.stages().contains(&final_stage) {
            return Err(S::NoFinalYet.text().to_string());
        }
        let Some(date) = self.rules.event_date.as_deref() else {
            return Err(S::NoEventDate.text().to_string());
        };
        Ok(crate::rules::awards::super_family(
            &self.roster,
            date,
            self.rules.family_ages,
            &self.qualified(),
            &self.standings(&final_stage),
        ))
    }

    /// The keys of the accepted cards, in the order read.
    pub fn accepted_keys(&self) -> Vec<crate::domain::CardKey> {
        (0..self.card_keys.len())
            .filter(|i| self.rejected.binary_search(i).is_err())
            .map(|i| self.card_keys.key(i))
            .collect()
    }

    /// Of the cards `missing` ([`Completeness::missing`]), those a card
    /// was given for and rejected (its errors are said), apart from those
    /// no card was given for: `(refused, absent)`, each in the order of
    /// `missing`.
    pub fn refused_of(
        &self,
        missing: &[crate::domain::CardKey],
    ) -> (Vec<crate::domain::CardKey>, Vec<crate::domain::CardKey>) {
        let rejected: std::collections::BTreeSet<crate::domain::CardKey> = self
            .rejected
            .iter()
            .map(|&i| self.card_keys.key(i))
            .collect();
        missing.iter().cloned().partition(|k| rejected.contains(k))
    }

    /// The first stage's cards its schedule names and that are not in.
    fn completeness_of_schedule(&self) -> Vec<crate::domain::CardKey> {
        match self.rules.schedule {
            Some(s) => missing_cards(
                &self.accepted_keys(),
                &self.qualifying_stage(),
                Some(s.sessions),
                Some(s.tables),
            ),
            None => Vec::new(),
        }
    }

    /// What the event expects and does not have: the prelim cards its
    /// schedule names, and the roster's players who played no game.
    pub fn completeness(&self) -> Completeness {
        // (a table the board holds back is said as held, not as missing)
        let mut missing = self.completeness_of_schedule();
        missing.retain(|k| !self.held.iter().any(|(h, _)| h == k));
        let waiting = self
            .entrants
            .iter()
            .filter(|e| !e.waiting.is_empty())
            .map(|e| (e.stage.clone(), e.waiting.clone()))
            .collect();
        let no_shows = if self.roster.is_open() {
            Vec::new()
        } else {
            (0..self.roster.len() as u32)
                .map(PlayerId)
                .filter(|&id| {
                    !self.tallies.played(id)
                        && self.roster.status(id) == crate::roster::Status::Active
                })
                .collect()
        };
        Completeness {
            missing,
            waiting,
            no_shows,
            held: self.held.clone(),
        }
    }

    /// What the answers of `stage` wait for: its standings, who goes on
    /// from it (`qualifiers`, `advance`, `seating --from`), and, of the
    /// last stage, the medals and the award. They wait for the cards the
    /// schedule expects (every stage goes on from the first), for the
    /// players who went on to `stage`, or to a stage before it, and have
    /// no card of it yet, and for the tables held back of `stage` or of a
    /// stage before it; not for a later stage's. The one rule of every
    /// command and of the export's sheets: [`Completeness::mark`] of it
    /// says PROVISIONAL.
    pub fn completeness_of(&self, stage: &Stage) -> Completeness {
        let mut c = self.completeness();
        let at = self.rules.stage_rank(stage);
        c.waiting.retain(|(s, _)| self.rules.stage_rank(s) <= at);
        c.held
            .retain(|(k, _)| self.rules.stage_rank(&k.stage) <= at);
        c
    }
}

/// What an event still lacks (see [`Event::completeness`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completeness {
    /// Cards the schedule expects, by session then table.
    pub missing: Vec<crate::domain::CardKey>,
    /// Of each later stage that has begun, the players who went on to it
    /// and have no card of it yet (by id).
    pub waiting: Vec<(Stage, Vec<PlayerId>)>,
    /// Players on the roster (not withdrawn or disqualified) with no game.
    pub no_shows: Vec<PlayerId>,
    /// The tables the live desk's board holds back ([`Event::held`]):
    /// the answers of their stage wait for them, and those of every later
    /// stage (who went on to it may change), not an earlier stage's
    /// ([`Event::completeness_of`]).
    pub held: Vec<(crate::domain::CardKey, Held)>,
}

impl Completeness {
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty() && self.waiting.is_empty() && self.held.is_empty()
    }

    /// The tables held back for `why`, in the board's order.
    pub fn held_for(&self, why: Held) -> impl Iterator<Item = &crate::domain::CardKey> {
        self.held
            .iter()
            .filter(move |(_, w)| *w == why)
            .map(|(k, _)| k)
    }

    /// What is still to come, in a few words for a title
    /// (`PROVISIONAL: 3 cards missing`, `... 117 players of the final
    /// still to play`); `None` when nothing is.
    pub fn still_to_come(&self) -> Option<String> {
        use crate::report::words::Sentence as S;
        let mut parts = Vec::new();
        match self.missing.len() {
            0 => {}
            1 => parts.push(S::OneCardMissing.text().to_string()),
            n => parts.push(S::CardsMissing.en(&[&n])),
        }
        for (stage, players) in &self.waiting {
            parts.push(match players.len() {
                1 => S::OneStillToPlay.en(&[stage]),
                n => S::PlayersStillToPlay.en(&[&n, stage]),
            });
        }
        parts.extend(self.still_to_come_held());
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The tables the board holds back, in a few words each kind (`1
    /// table in conflict on the board`).
    pub fn still_to_come_held(&self) -> Vec<String> {
        use crate::report::words::Sentence as S;
        let mut parts = Vec::new();
        match self.held_for(Held::Conflict).count() {
            0 => {}
            1 => parts.push(S::OneTableInConflict.text().to_string()),
            n => parts.push(S::TablesInConflict.en(&[&n])),
        }
        match self.held_for(Held::Waiting).count() {
            0 => {}
            1 => parts.push(S::OneTableForTheDesk.text().to_string()),
            n => parts.push(S::TablesForTheDesk.en(&[&n])),
        }
        match self.held_for(Held::TypedTwice).count() {
            0 => {}
            1 => parts.push(S::OneTableTypedTwice.text().to_string()),
            n => parts.push(S::TablesTypedTwice.en(&[&n])),
        }
        parts
    }

    /// `PROVISIONAL: 3 cards missing`, what marks an answer given while
    /// something is still to come ([`Completeness::still_to_come`]); `None`
    /// when nothing is.
    pub fn mark(&self) -> Option<String> {
        self.still_to_come()
            .map(|s| crate::report::words::Sentence::Provisional.en(&[&s]))
    }

    /// What ends the title of such an answer: ` (PROVISIONAL: 3 cards
    /// missing)`, or nothing.
    pub fn title_suffix(&self) -> String {
        self.mark().map(|m| format!(" ({m})")).unwrap_or_default()
    }

    /// The missing cards grouped by session, one line each, for a
    /// director to act on: `session S01: tables 3, 7, 9-11`, or
    /// `session S02: all 25 tables` when the schedule says how many it has.
    pub fn missing_by_session(&self, schedule: Option<crate::profile::Schedule>) -> Vec<String> {
        Completeness::by_session(&self.missing, schedule)
    }

    /// `keys`, cards of the first stage, grouped by session as
    /// [`Completeness::missing_by_session`] says them.
    pub fn by_session(
        keys: &[crate::domain::CardKey],
        schedule: Option<crate::profile::Schedule>,
    ) -> Vec<String> {
        use crate::domain::{CardKey, Label, SessionName};
        // (the missing cards are all of the first stage)
        CardKey::tables_by_session(keys)
            .into_iter()
            .map(|(key, tables)| {
                let session = format!("session {}", SessionName(&key.session));
                if schedule.is_some_and(|s| tables.len() as u64 == u64::from(s.tables)) {
                    return format!("{session}: all {} tables", tables.len());
                }
                let word = if tables.len() == 1 { "table" } else { "tables" };
                format!(
                    "{session}: {word} {}",
                    Label::ranges(tables.iter().copied())
                )
            })
            .collect()
    }
}

/// Each age group runs its own stages (RULES.md section 8): a card whose
/// players are in different groups is an error where who goes on is
/// judged table by table (`rules.going_on` other than the top of the
/// standings: a player of another group at the table would go on in the
/// wrong group's list), else a warning (each group's standings rank its
/// own players whoever sat with them). Gives the cards said in error and
/// their games.
fn mixed_groups(
    cards: &[Card],
    groups: &Groups,
    rules: &Rules,
    problems: &mut Problems,
) -> (usize, usize) {
    let by_tables = rules.going_on != GoingOn::TopOfStandings;
    let mut off = (0, 0);
    for card in cards {
        let mut seen: Vec<(crate::domain::Seat, &str)> = Vec::new();
        for s in &card.seats {
            if let Some(g) = groups.of.get(&s.player) {
                seen.push((s.seat, g));
            }
        }
        if seen.windows(2).any(|w| w[0].1 != w[1].1) {
            let list: Vec<String> = seen.iter().map(|(seat, g)| format!("{seat} {g}")).collect();
            let said = Said::new(
                Msg::MixedGroups,
                [card.key.said(), Part::Text(list.join(", "))],
            );
            match by_tables {
                true => {
                    problems.error(card.place.clone(), said);
                    off = (off.0 + 1, off.1 + card.games.len());
                }
                false => problems.warning(card.place.clone(), said),
            }
        }
    }
    off
}

/// [`missing_cards`] for a schedule too large for a table of flags.
fn missing_cards_by_set(
    keys: &[crate::domain::CardKey],
    first: &Stage,
    sessions: u32,
    tables: u32,
) -> Vec<crate::domain::CardKey> {
    use crate::domain::{CardKey, Label};
    let have: std::collections::HashSet<&CardKey> = keys.iter().collect();
    let mut missing = Vec::new();
    for s in 1..=sessions {
        for t in 1..=tables {
            let key = CardKey {
                stage: first.clone(),
                session: Label::Num(s),
                table: Label::Num(t),
            };
            if !have.contains(&key) {
                missing.push(key);
            }
        }
    }
    missing
}

/// The cards of the first stage (`first`) a schedule of `sessions`
/// sessions of `tables` tables expects that are not among `keys` (none
/// when no schedule is set).
pub fn missing_cards(
    keys: &[crate::domain::CardKey],
    first: &Stage,
    sessions: Option<u32>,
    tables: Option<u32>,
) -> Vec<crate::domain::CardKey> {
    use crate::domain::{CardKey, Label};
    let (Some(sessions), Some(tables)) = (sessions, tables) else {
        return Vec::new();
    };
    // the schedule's cards that are here, as a table of sessions by tables
    let (ns, nt) = (sessions as usize, tables as usize);
    let Some(cells) = ns.checked_mul(nt).filter(|&c| c <= 1 << 24) else {
        return missing_cards_by_set(keys, first, sessions, tables);
    };
    let mut have = vec![false; cells];
    let slot = |s: u32, t: u32| (s as usize - 1) * nt + (t as usize - 1);
    for key in keys.iter().filter(|k| k.stage == *first) {
        if let (Label::Num(s), Label::Num(t)) = (&key.session, &key.table) {
            if (1..=sessions).contains(s) && (1..=tables).contains(t) {
                if let Some(h) = have.get_mut(slot(*s, *t)) {
                    *h = true;
                }
            }
        }
    }
    let mut missing = Vec::new();
    for s in 1..=sessions {
        for t in 1..=tables {
            if !have.get(slot(s, t)).copied().unwrap_or(false) {
                missing.push(CardKey {
                    stage: first.clone(),
                    session: Label::Num(s),
                    table: Label::Num(t),
                });
            }
        }
    }
    missing
}
