//! Cards entered at the table by referees (`tilerank serve --entry`), and
//! the director's board that settles a referee's card against the desk's.
//!
//! A card a referee posts is read by the reader every file goes through
//! (`ingest`), and checked and stored by the one import
//! ([`EventFolder::store_read`]): the same checks, the same "differs from
//! the event's card", in one transaction with the record of the entry. So
//! a card entered here and the same card imported from a file make the same
//! event.
//!
//! - Single entry (`[entry] double = false`): the referee's card is the
//!   event's card at once. The referee may correct it (it is replaced, and
//!   the log says so) until the director settles the table on the board.
//! - Double entry (`[entry] double = true`): the referee's card is checked
//!   and kept as an entry only; the desk's typing of the paper (`import`)
//!   is what counts, once it agrees with the referee's. A typing that
//!   differs is refused by the import, as under single entry, and kept
//!   beside the referee's: the board shows the two side by side, and the
//!   director accepts one with a reason. A second referee whose card
//!   differs from a first one's entry still waiting is told so at once
//!   (a conflict, `held_by` the first referee); both entries wait.
//!
//! Every entry is kept (`entries`, append-only), and so is every decision
//! of the board (`decisions`), each with its log row when it changed a
//! card.

use super::store::{LogEntry, Store, StoredLine};
use super::{
    card_lines, csv_line, line_fields, sha256_hex, utc_now, EventFolder, FolderError, How,
    ImportReport, ReadFile, Replace, ToImport, CARD_HEADER,
};
use crate::domain::{CardKey, Label, Seat, SessionName, Stage};
use crate::ingest::raw::RawCard;
use crate::ingest::{self, limits::Limits};
use crate::lang::Lang;
use crate::place::{At, Place, Source};
use crate::problem::said::{Msg, Part, Said};
use crate::problem::{Problem, Problems, Severity};
use crate::report::words::{fill, Sentence as S};
use crate::rules::card_checks::check_card;
use rusqlite::{params, OptionalExtension};

/// The most a posted card may be: a card of 3 games at 4 seats is under
/// 1 KiB; 64 KiB is plenty for any card.
pub const ENTRY_MAX_BYTES: usize = 64 * 1024;

/// One problem of a posted card, where the referee typed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryProblem {
    pub severity: Severity,
    pub game: Option<u32>,
    pub seat: Option<Seat>,
    /// `player`, `won`, `score` or `tiles`.
    pub field: Option<&'static str>,
    /// As `check` words it (without the place), in each language, in
    /// the order of [`Lang::ALL`] ([`EntryProblem::message`]); what to do
    /// as a referee is told it, not the desk's commands ([`Part::Advice`]).
    pub messages: [String; Lang::ALL.len()],
}

impl EntryProblem {
    /// The message in `lang`'s words (a message the card's checks did not
    /// make is in English in every language).
    pub fn message(&self, lang: Lang) -> &str {
        &self.messages[lang.index()]
    }
}

crate::lang::catalog! {
    /// What the live desk answers a phone it refuses (`serve --entry`),
    /// said in the phone's language ([`Refusal::say`]).
    pub enum Refusal {
        CrossSite => "a request from another site's page is refused",
            "來自其他網站頁面的要求，已拒絕";
        OldFormToken => "the page's form token is missing or old: reload the entry page",
            "頁面的表單憑證遺失或已過期：請重新載入輸入頁面";
        NoKey => "no key: give Authorization: Bearer KEY, or open your entry link",
            "沒有金鑰：請提供 Authorization: Bearer KEY，或開啟您的輸入連結";
        TooManyRequests => "too many requests with this key: wait a few seconds",
            "此金鑰的要求太多：請稍候數秒";
        KeyRevoked => "the key of referee {} was revoked at {}",
            "裁判 {} 的金鑰已於 {} 撤銷";
        NotARefereeKey => "this key is not a referee's of this event",
            "此金鑰不屬於本賽事的裁判";
        NotCsv => "a card is sent as Content-Type: text/csv (the results layout)",
            "計分卡須以 Content-Type: text/csv（賽果格式）送出";
        CardTooLarge => "a card is at most {} bytes", "每張計分卡最多 {} 位元組";
        CardCutOff => "the card did not arrive whole (the connection stalled or dropped): send it again",
            "計分卡未完整送達（連線停頓或中斷）：請再送出一次";
        TooSlow => "the request's body did not arrive within {} seconds (the connection is too slow): send it again",
            "要求的內容未在 {} 秒內送達（連線太慢）：請再送出一次";
        NoRoster => "the event has no roster yet, so no card can be checked or stored: tell the desk (the director stores the roster first)",
            "賽事尚未儲存名冊，無法檢查或儲存計分卡：請告知記分台（裁判長須先儲存名冊）";
        EventBusy => "the event is busy (the desk is storing cards): send the card again in a minute; if this goes on, tell the desk",
            "賽事正忙（記分台正在儲存計分卡）：請於一分鐘後再送出一次；若情況持續，請告知記分台";
        DeskCannotStore => "the desk cannot take cards just now (its screen says why): tell the desk, and send the card again once they say so",
            "記分台暫時無法接收計分卡（原因顯示在記分台的畫面上）：請告知記分台，待其通知後再送出一次";
    }
}

impl Refusal {
    /// What a referee's phone is told of an error of the event folder
    /// while its card is checked or stored: what to do, never the error
    /// itself (a path or a command of the desk's, in English), which the
    /// desk's terminal says.
    pub fn of_error(e: &FolderError) -> Refusal {
        match e {
            FolderError::NoRoster { .. } => Refusal::NoRoster,
            FolderError::Busy { .. } => Refusal::EventBusy,
            _ => Refusal::DeskCannotStore,
        }
    }
}

impl Refusal {
    /// The refusal in `lang`'s words, its places filled by `parts`.
    pub fn say(self, lang: Lang, parts: &[&dyn std::fmt::Display]) -> String {
        crate::lang::fill(self.words(lang), parts)
    }
}

/// A player as the roster knows them, at a seat of a posted card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatName {
    pub seat: Seat,
    pub id: String,
    pub name: String,
}

/// What the checks say of a card as it is typed.
#[derive(Clone, Debug, Default)]
pub struct EntryCheck {
    pub problems: Vec<EntryProblem>,
    pub players: Vec<SeatName>,
}

impl EntryCheck {
    pub fn ok(&self) -> bool {
        !self.problems.iter().any(|p| p.severity == Severity::Error)
    }
}

/// What became of a posted card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entered {
    /// The event's card now (new, or the referee's own corrected).
    Stored {
        card: CardKey,
        warnings: Vec<EntryProblem>,
    },
    /// The event holds this very card already: nothing added.
    Same { card: CardKey },
    /// Double entry: kept, and counts once the desk's typing agrees.
    Waiting {
        card: CardKey,
        warnings: Vec<EntryProblem>,
    },
    /// The event holds another version of this card (`held_by` holds
    /// it): kept as an entry for the director to decide.
    /// (`messages` in each language, in the order of [`Lang::ALL`]: who
    /// holds the other version and what to do, then what differs)
    Conflict {
        card: CardKey,
        held_by: Holder,
        messages: [String; Lang::ALL.len()],
    },
    /// The card has errors: nothing kept.
    Refused(Vec<EntryProblem>),
}

/// How the board names the desk's typing of a card kept beside a
/// referee's: `desk: S01.xlsx`.
const DESK: &str = "desk: ";

/// The reason of the decision the desk's typing makes when it agrees with
/// a referee's card (`the desk's typing agrees (S01.xlsx)`), and of one
/// it makes with `--replace` (`replaced at the desk (S01.xlsx): REASON`).
const DESK_AGREES: &str = "the desk's typing agrees";
const DESK_REPLACED: &str = "replaced at the desk";

/// A decision's reason as a referee's phone is told it: the director's
/// words as typed; the desk's in the phone's words, without the file the
/// desk imported (a path of the server's).
fn reason_for_phone(reason: &str) -> Part {
    match decider(reason) {
        Decider::DeskAgrees { .. } => Part::said(Msg::DeskAgreed, []),
        Decider::DeskReplaced { reason, .. } | Decider::Board { reason } => Part::text(reason),
    }
}

/// Who made a decision, as its stored reason says.
enum Decider<'a> {
    /// The desk's typing of `file` agreed with the referee's entry.
    DeskAgrees { file: &'a str },
    /// The desk imported `file` with `--replace --reason REASON`.
    DeskReplaced { file: &'a str, reason: &'a str },
    /// The director, on the board, with the reason as typed.
    Board { reason: &'a str },
}

fn decider(reason: &str) -> Decider<'_> {
    fn in_brackets(rest: &str) -> Option<&str> {
        rest.strip_prefix(" (")
    }
    if let Some(rest) = reason.strip_prefix(DESK_AGREES) {
        let file = in_brackets(rest).and_then(|r| r.strip_suffix(')'));
        return Decider::DeskAgrees {
            file: file.unwrap_or_default(),
        };
    }
    match (reason.strip_prefix(DESK_REPLACED))
        .and_then(in_brackets)
        .and_then(|rest| rest.split_once("): "))
    {
        Some((file, typed)) => Decider::DeskReplaced {
            file,
            reason: typed,
        },
        None => Decider::Board { reason },
    }
}

/// How the log and the messages name a referee's entries (and the desk's
/// typing kept for the board): `entry by referee Ann Lee`, stored so in
/// the log and as the card's file.
pub fn entry_source(referee: &str) -> String {
    match referee.strip_prefix(DESK) {
        Some(file) => format!("{file}{DESK_TYPING}"),
        None => format!("{BY_REFEREE}{referee}"),
    }
}

/// The words [`entry_source`] puts around a referee's name, and after
/// the file of the desk's typing.
const BY_REFEREE: &str = "entry by referee ";
const DESK_TYPING: &str = " (the desk's typing)";

/// A card's file (or the log's) in `lang`'s words: an entry's name
/// ([`entry_source`]) in the page's language, the referee's name and the
/// file as written; any other file's name as written.
pub fn source_in(lang: Lang, file: &str) -> String {
    let w = lang.words();
    if let Some(referee) = file.strip_prefix(BY_REFEREE) {
        fill(w.entry_by_referee, &[&referee])
    } else if let Some(desk) = file.strip_suffix(DESK_TYPING) {
        fill(w.entry_desk_typing, &[&desk])
    } else {
        file.to_string()
    }
}

/// Where a stored card came from, in words: `imported from
/// S07.xlsx[Table 03] on 2026-03-14 22:31 UTC` ([`Msg::ImportedFrom`]),
/// or `entered by referee Ann Lee on ...` ([`Msg::EnteredBy`]). `source`
/// is the card's file as stored (a file's name and sheet, or
/// [`entry_source`]'s words), `time` its import's (UTC,
/// `2026-03-14T22:31:05Z`). `None` when no file is stored for it.
pub fn origin_said(source: &str, time: &str) -> Option<Said> {
    if source.is_empty() {
        return None;
    }
    let when = match (time.get(..10), time.get(11..16)) {
        (Some(day), Some(minute)) if time.as_bytes().get(10) == Some(&b'T') => {
            format!("{day} {minute} UTC")
        }
        _ => time.to_string(),
    };
    Some(match source.strip_prefix(BY_REFEREE) {
        Some(referee) => Said::new(Msg::EnteredBy, [Part::text(referee), Part::Text(when)]),
        None => Said::new(Msg::ImportedFrom, [Part::text(source), Part::Text(when)]),
    })
}

/// Who made an entry of the board, in `lang`'s words: a referee's name
/// as written; the desk's typing as `desk: S01.xlsx`, the file as written.
pub fn entry_by_in(lang: Lang, referee: &str) -> String {
    match referee.strip_prefix(DESK) {
        Some(file) => fill(lang.words().entry_desk, &[&file]),
        None => referee.to_string(),
    }
}

/// The stage the entry page opens on: the first with cards still to
/// enter, else (every stage complete) the last. The first stage has cards
/// to enter while its schedule misses some (with no schedule, until a
/// later stage has begun); a later stage until it has begun, and while
/// players who went on to it have no card of it.
pub fn entry_stage(event: &crate::event::Event) -> String {
    let stages = &event.rules.stages;
    let played = event.stages();
    let begun = |name: &String| played.contains(&Stage::new(name));
    let missing = event.completeness();
    let to_enter = |i: usize, name: &String| match i {
        0 if event.rules.schedule.is_some() => !missing.missing.is_empty(),
        0 => !stages[1..].iter().any(begun),
        _ => !begun(name) || missing.waiting.iter().any(|(s, _)| s.as_str() == name),
    };
    (stages.iter().enumerate())
        .find(|&(i, name)| to_enter(i, name))
        .map(|(_, name)| name)
        .or(stages.last())
        .cloned()
        .unwrap_or_default()
}

/// A posted card, read.
struct Posted {
    name: String,
    sha256: String,
    cards: Vec<RawCard>,
    problems: Problems,
}

impl Posted {
    fn read(referee: &str, body: &[u8], rules: &crate::profile::Rules) -> Posted {
        let name = entry_source(referee);
        let mut problems = Problems::new();
        let mut cards = Vec::new();
        if body.len() > ENTRY_MAX_BYTES {
            problems.error(
                Place::nowhere(&name),
                Said::new(
                    Msg::EntryTooLarge,
                    [Part::text(body.len()), Part::text(ENTRY_MAX_BYTES)],
                ),
            );
        } else {
            let inputs =
                ingest::cards_from_bytes(&name, body.to_vec(), &Limits::default(), &mut problems);
            cards = inputs.cards;
            for rc in inputs.rack_cards {
                cards.extend(ingest::racks::score_card(&rc, rules, &mut problems));
            }
            if !problems.has_errors() && cards.len() != 1 {
                problems.error(
                    Place::nowhere(&name),
                    Said::new(Msg::EntryOneCard, [Part::text(cards.len())]),
                );
            }
        }
        Posted {
            name,
            sha256: sha256_hex(body),
            cards,
            problems,
        }
    }

    fn key(&self) -> Option<&CardKey> {
        match self.cards.as_slice() {
            [card] => Some(&card.key),
            _ => None,
        }
    }

    /// Each problem at the game, seat and field it is about, its message
    /// naming places as the entry page says them ([`Posted::said_here`]).
    fn located(&self, problems: &[&Problem], stored: &StoredNames) -> Vec<EntryProblem> {
        problems
            .iter()
            .map(|p| {
                let of_card = !p.message.starts_with("game ");
                self.located_one(
                    p.severity,
                    &p.place,
                    of_card,
                    p.said.as_ref(),
                    &p.message,
                    stored,
                )
            })
            .collect()
    }

    /// Every problem of `problems` where the referee typed it
    /// ([`Posted::located`]), then the hints of the games refused (one
    /// sign that makes a game pass: `check`'s `hint:` lines), as notes at
    /// their games.
    fn located_all(&self, problems: &Problems, stored: &StoredNames) -> Vec<EntryProblem> {
        let mut out = self.located(&problems.sorted(), stored);
        let (hints, _) = problems.hints();
        out.extend(hints.into_iter().map(|h| {
            let message = h.said.to_string();
            self.located_one(
                Severity::Note,
                &h.place,
                false,
                Some(&h.said),
                &message,
                stored,
            )
        }));
        out
    }

    /// One problem, at its place ([`Posted::locate`]). A problem at a
    /// place of a stored card (a card the posted one makes a player sit
    /// at twice, or a later stage's card whose players it changes) is at
    /// no game or seat of the page, whose games are the posted card's: its
    /// message names that card first, and its seat or game
    /// (`final session S01 table 1, seat D: ...`).
    fn located_one(
        &self,
        severity: Severity,
        place: &Place,
        of_card: bool,
        said: Option<&Said>,
        message: &str,
        stored: &StoredNames,
    ) -> EntryProblem {
        let (game, seat, field) = self.locate(place, of_card);
        let other = stored.card_at(place, self.key());
        EntryProblem {
            severity,
            game,
            seat,
            field,
            messages: Lang::ALL.map(|lang| {
                let here = match said {
                    Some(said) => Part::Said(self.said_here(said, lang, stored)),
                    None => Part::Text(self.in_words(message, lang, stored)),
                };
                let Some((key, words)) = &other else {
                    return here.say(lang);
                };
                // (a message of the card already, `final session S01
                // table 1: ...`, names it once, with the seat)
                let what = match here {
                    Part::Said(ref s)
                        if s.msg == Msg::OfCard && s.parts.first() == Some(&key.said()) =>
                    {
                        s.parts[1].clone()
                    }
                    other => other,
                };
                Said::new(Msg::OfCard, [words.clone(), what]).say(lang)
            }),
        }
    }

    /// A message of the checks with each place it names (a part that is a
    /// place: `first at S01.csv:4`) said as the entry page says places,
    /// and its advice as a referee is given it ([`Part::Advice`]),
    /// before the message is put together, so that the language's words
    /// set the part as they set any part of theirs (Chinese: no space
    /// before a Chinese part, [`crate::lang::fill_with`]).
    fn said_here(&self, said: &Said, lang: Lang, stored: &StoredNames) -> Said {
        let part = |p: &Part| self.part_here(p, lang, stored);
        Said {
            msg: said.msg,
            parts: said.parts.iter().map(part).collect(),
        }
    }

    fn part_here(&self, part: &Part, lang: Lang, stored: &StoredNames) -> Part {
        match part {
            Part::Text(text) => match self.place_here(text, stored) {
                Some((place, used)) if used == text.len() => place,
                _ => Part::Text(self.in_words(text, lang, stored)),
            },
            Part::Said(said) => Part::Said(self.said_here(said, lang, stored)),
            Part::List(parts, by) => Part::List(
                parts
                    .iter()
                    .map(|p| self.part_here(p, lang, stored))
                    .collect(),
                *by,
            ),
            Part::Each(parts, by) => Part::Each(
                parts
                    .iter()
                    .map(|p| self.part_here(p, lang, stored))
                    .collect(),
                *by,
            ),
            Part::Stage(_) => part.clone(),
            // a phone is told what a referee can do (tell the desk), not
            // the commands the desk runs
            Part::Advice { table, .. } => Part::Said(self.said_here(table, lang, stored)),
        }
    }

    /// A message with each place it names in its text said as the entry
    /// page says places: a line of this entry (a file's message names
    /// another line so: `first at S01.csv:4`) as `game 1, seat C` (the
    /// page has no lines and columns, and the entry's name is the
    /// referee's); a value of a stored card (`EVENT/tilerank.db[prelim-S01-T07]!F2`)
    /// as `session S01 table 7, seat A`: a phone never sees the server's
    /// files.
    fn in_words(&self, message: &str, lang: Lang, stored: &StoredNames) -> String {
        let mut out = String::new();
        let mut rest = message;
        loop {
            let own = rest.find(&self.name);
            let db = stored.find(rest);
            let at = match (own, db) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => break,
            };
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            match self.place_here(rest, stored) {
                Some((place, used)) => {
                    out.push_str(&place.say(lang));
                    rest = &rest[used..];
                }
                None => {
                    // (a name with no line after it, said as it is)
                    let name = if own == Some(at) {
                        &self.name
                    } else {
                        &stored.db
                    };
                    out.push_str(name);
                    rest = &rest[name.len()..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// The place `text` begins with, in words, and how much of `text` it
    /// takes: a line of this entry (`NAME:ROW` or `NAME:ROW:COL`), or a
    /// stored card's cell, row or whole card (`DB[SHEET]!F2`, `DB[SHEET]
    /// row 2`, `DB[SHEET]`).
    fn place_here(&self, text: &str, stored: &StoredNames) -> Option<(Part, usize)> {
        if let Some(after) = text.strip_prefix(self.name.as_str()) {
            let mut numbers = [None, None];
            let mut used = 0;
            for n in &mut numbers {
                let Some(tail) = after[used..].strip_prefix(':') else {
                    break;
                };
                let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
                let Ok(v) = tail[..digits].parse::<u32>() else {
                    break;
                };
                *n = Some(v);
                used += 1 + digits;
            }
            let row = numbers[0]?;
            let place = Place {
                source: Source::file(&self.name),
                row: Some(row),
                col: numbers[1],
            };
            // (as a line's place: the game and seat it is on)
            let said = match self.locate(&place, false) {
                (Some(game), Some(seat), _) => {
                    Said::new(Msg::GameSeat, [Part::text(game), Part::text(seat)])
                }
                (Some(game), None, _) => Said::new(Msg::Game, [Part::text(game)]),
                _ => Said::new(Msg::Line, [Part::text(row)]),
            };
            return Some((Part::Said(said), self.name.len() + used));
        }
        stored.place(text, self.key())
    }

    /// The game, seat and field a problem is about, from its place: a cell
    /// is a seat's value; a whole line where a game begins is the game (or,
    /// where the card begins and `of_card`, as for a message that names no
    /// game, the card); another whole line is its seat.
    fn locate(
        &self,
        place: &Place,
        of_card: bool,
    ) -> (Option<u32>, Option<Seat>, Option<&'static str>) {
        let Some(row) = place.row else {
            return (None, None, None);
        };
        // (a place of another card, a stored one, is none of the page's,
        // whatever its row and column)
        let cards = || self.cards.iter().filter(|c| c.source == place.source);
        let Some(col) = place.col else {
            for card in cards() {
                if card.at.row == row && of_card {
                    return (None, None, None);
                }
                for game in &card.games {
                    if game.at.row == row {
                        return (Some(game.number), None, None);
                    }
                    if let Some(line) = game.lines.iter().find(|l| l.won.at.row == row) {
                        return (Some(game.number), Some(line.seat), None);
                    }
                }
            }
            return (None, None, None);
        };
        let here = |at: At| at.row == row && at.col == col;
        for card in cards() {
            for game in &card.games {
                for line in &game.lines {
                    if line.won.at.row != row && line.score.at.row != row {
                        continue;
                    }
                    let field = if here(line.won.at) {
                        Some("won")
                    } else if here(line.score.at) {
                        Some("score")
                    } else if here(line.tiles.at) {
                        Some("tiles")
                    } else if card
                        .seats
                        .iter()
                        .any(|s| s.seat == line.seat && s.at.col == col)
                    {
                        Some("player")
                    } else {
                        None
                    };
                    return (Some(game.number), Some(line.seat), field);
                }
                if game.at.row == row {
                    return (Some(game.number), None, None);
                }
            }
        }
        (None, None, None)
    }
}

/// The stored cards as the checks name their places: the database's path
/// and a sheet per card (`EVENT/tilerank.db[prelim-S01-T07]!F2`), said
/// in a referee's words instead ([`StoredNames::place`]).
struct StoredNames<'a> {
    /// The database as the checks name it (empty: no stored card named).
    db: String,
    store: Option<&'a Store>,
}

impl<'a> StoredNames<'a> {
    /// Before the store is open: no place of a stored card to say.
    fn none() -> StoredNames<'static> {
        StoredNames {
            db: String::new(),
            store: None,
        }
    }

    fn of(store: &'a Store) -> StoredNames<'a> {
        StoredNames {
            // (as the import's reader of the stored cards names it)
            db: store.path.display().to_string(),
            store: Some(store),
        }
    }

    /// Where in `text` a stored card's place begins.
    fn find(&self, text: &str) -> Option<usize> {
        if self.db.is_empty() {
            return None;
        }
        let mut from = 0;
        while let Some(i) = text[from..].find(&self.db) {
            let at = from + i;
            if text[at + self.db.len()..].starts_with('[') {
                return Some(at);
            }
            from = at + self.db.len();
        }
        None
    }

    /// The stored card's place `text` begins with, in words, and how much
    /// of `text` it takes: `session S01 table 7, seat A` for its player's
    /// cell (the seat's player for the whole card), `session S01 table 7,
    /// game 2, seat A` for another of its cells or lines, `session S01
    /// table 7` for the whole card. `near` is the posted card: a card
    /// whose name cannot be read back is looked for in its session.
    fn place(&self, text: &str, near: Option<&CardKey>) -> Option<(Part, usize)> {
        let rest = text
            .strip_prefix(self.db.as_str())
            .filter(|_| !self.db.is_empty())?
            .strip_prefix('[')?;
        let close = rest.find(']')?;
        let sheet = &rest[..close];
        let after = &rest[close + 1..];
        let mut used = self.db.len() + 1 + close + 1;
        let (mut row, mut col) = (None, None);
        if let Some(cell) = after.strip_prefix('!') {
            let letters = cell.bytes().take_while(u8::is_ascii_uppercase).count();
            let digits = cell[letters..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if letters > 0 && digits > 0 {
                col = Some(cell[..letters].bytes().fold(0u32, |n, b| {
                    n.saturating_mul(26).saturating_add(u32::from(b - b'A') + 1)
                }));
                row = cell[letters..letters + digits].parse::<u32>().ok();
                used += 1 + letters + digits;
            }
        } else if let Some(r) = after.strip_prefix(" row ") {
            let digits = r.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                row = r[..digits].parse::<u32>().ok();
                used += " row ".len() + digits;
            }
        }
        let Some(key) = self.key_named(sheet, near) else {
            // (a name not read back: the card's name, never the path)
            return Some((Part::text(sheet), used));
        };
        let line = match (self.store, row) {
            (Some(store), Some(row)) if row >= 2 => store
                .card_of_key(&key)
                .ok()
                .flatten()
                .and_then(|card| card.lines.get(row as usize - 2).cloned()),
            _ => None,
        };
        // (the player's column of the results layout, as the stored
        // cards are read: the seat's player)
        let player_col = CARD_HEADER.iter().position(|h| *h == "player").unwrap_or(5) as u32 + 1;
        let said = match line {
            Some(line) if col == Some(player_col) => {
                Part::said(Msg::CardSeat, [key.said(), Part::text(line.seat)])
            }
            Some(line) => Part::said(
                Msg::CardGameSeat,
                [key.said(), Part::text(line.game), Part::text(line.seat)],
            ),
            None => key.said(),
        };
        Some((said, used))
    }

    /// The stored card `place` is in, and the place in words
    /// ([`StoredNames::place`]); `None` for a place of no stored card.
    fn card_at(&self, place: &Place, near: Option<&CardKey>) -> Option<(CardKey, Part)> {
        let sheet = place.source.sheet.as_deref()?;
        if self.db.is_empty() || place.source.file != self.db {
            return None;
        }
        let key = self.key_named(sheet, near)?;
        let (words, _) = self.place(&place.to_string(), near)?;
        Some((key, words))
    }

    /// The card a stored card's sheet is named after ([`CardKey::name`]):
    /// read back from its name (`prelim-S01-T07`), or, for a name with
    /// characters written `_`, one of the stored cards of `near`'s
    /// session that goes by it.
    fn key_named(&self, sheet: &str, near: Option<&CardKey>) -> Option<CardKey> {
        let read = sheet.rsplit_once("-T").and_then(|(head, table)| {
            let (stage, session) = head.rsplit_once('-')?;
            Some(key_of(stage.into(), session.into(), table.into()))
        });
        if let Some(key) = read.filter(|k| k.is_named(sheet)) {
            return Some(key);
        }
        let (store, near) = (self.store?, near?);
        store
            .session_keys(near)
            .ok()?
            .into_iter()
            .find(|k| k.is_named(sheet))
    }
}

/// Who holds the event's card of a table that a referee's card differs
/// from: what the referee's phone is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holder {
    /// The desk: a card imported from a file, typed from the signed paper
    /// card (or the desk's typing the director accepted).
    Desk,
    /// Another referee's entry: the referee's name as the desk added them
    /// (`tilerank referee add NAME`).
    Referee(String),
    /// The referee's own entry, checked since (the desk's typing agreed,
    /// or the director decided the table): no longer changed from the
    /// phone.
    Own,
}

impl Holder {
    /// `desk`, `referee` or `own`, as the answer's `held_by` says it.
    pub fn word(&self) -> &'static str {
        match self {
            Holder::Desk => "desk",
            Holder::Referee(_) => "referee",
            Holder::Own => "own",
        }
    }
}

/// The fields of a [`CardRow`]'s values, in order.
pub const ROW_FIELDS: [&str; 4] = ["player", "won", "score", "tiles"];

/// A line of a card as the board and a referee's phone compare versions:
/// its game and seat, and its values as the results layout writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardRow {
    pub game: u32,
    pub seat: Seat,
    /// Player, won, score and tiles left ([`ROW_FIELDS`]).
    pub values: [String; 4],
}

/// A value that differs between two versions of a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub game: u32,
    pub seat: Seat,
    /// The field, as its place in [`ROW_FIELDS`].
    pub field: usize,
    /// The value in each version (`None`: the version has no line for
    /// this game and seat).
    pub values: [Option<String>; 2],
}

/// The values that differ between two versions of a card, by game, seat
/// and field.
pub fn differences(one: &[CardRow], other: &[CardRow]) -> Vec<Difference> {
    let mut places: Vec<(u32, Seat)> = one.iter().chain(other).map(|r| (r.game, r.seat)).collect();
    places.sort_unstable();
    places.dedup();
    let mut out = Vec::new();
    for (game, seat) in places {
        let find = |rows: &[CardRow]| {
            rows.iter()
                .find(|r| r.game == game && r.seat == seat)
                .map(|r| r.values.clone())
        };
        let (a, b) = (find(one), find(other));
        for field in 0..ROW_FIELDS.len() {
            let values = [
                a.as_ref().map(|v| v[field].clone()),
                b.as_ref().map(|v| v[field].clone()),
            ];
            if values[0] != values[1] {
                out.push(Difference {
                    game,
                    seat,
                    field,
                    values,
                });
            }
        }
    }
    out
}

/// A card's stored lines as rows to compare.
pub(super) fn rows_of(key: &CardKey, lines: &[StoredLine]) -> Vec<CardRow> {
    lines
        .iter()
        .map(|l| {
            let [_, _, _, _, _, player, won, score, tiles] = line_fields(key, l);
            CardRow {
                game: l.game,
                seat: l.seat,
                values: [player, won, score, tiles],
            }
        })
        .collect()
}

/// What a referee's phone is told of a card that differs from the event's
/// card of its table (held by `held_by`): who holds the other version and
/// what to do, then what differs, in `lang`'s words.
fn conflict_message(key: &CardKey, held_by: &Holder, differs: &[Difference], lang: Lang) -> String {
    let (held, whose) = match held_by {
        Holder::Desk => (
            Said::new(Msg::HeldByDesk, [key.said()]),
            Part::said(Msg::DesksCard, []),
        ),
        Holder::Referee(name) => (
            Said::new(Msg::HeldByReferee, [Part::text(name), key.said()]),
            Part::said(Msg::RefereesCard, [Part::text(name)]),
        ),
        Holder::Own => (
            Said::new(Msg::HeldByYou, [key.said()]),
            Part::said(Msg::YourCheckedCard, []),
        ),
    };
    let mut out = held.say(lang);
    if differs.is_empty() {
        return out;
    }
    out.push('\n');
    out.push_str(&Said::new(Msg::WhatDiffers, [whose]).say(lang));
    for said in differs_said(differs) {
        out.push('\n');
        out.push_str(&said.say(lang));
    }
    out
}

/// What differs between two versions of a card, a line per game and
/// seat: `game 3, seat A: won 1 vs 0 and score 137 vs -31`, the first
/// version's value first.
pub(super) fn differs_said(differs: &[Difference]) -> Vec<Said> {
    let mut out = Vec::new();
    for line in differs.chunk_by(|a, b| (a.game, a.seat) == (b.game, b.seat)) {
        let values = line
            .iter()
            .map(|d| {
                let [a, b] = d
                    .values
                    .clone()
                    .map(|v| Part::Text(v.unwrap_or_else(|| "—".into())));
                let field = [
                    Msg::FieldPlayer,
                    Msg::FieldWon,
                    Msg::FieldScore,
                    Msg::FieldTiles,
                ][d.field];
                Part::said(Msg::ValuesDiffer, [Part::said(field, []), a, b])
            })
            .collect();
        let said = Said::new(
            Msg::GameSeatSays,
            [
                Part::text(line[0].game),
                Part::text(line[0].seat),
                Part::List(values, Msg::And),
            ],
        );
        out.push(said);
    }
    out
}

/// A referee's entry as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardEntry {
    pub id: i64,
    pub referee: String,
    pub time: String,
    /// The card's lines, to compare (none: it no longer passes its
    /// checks).
    pub rows: Vec<CardRow>,
    /// It is the event's card, line for line.
    pub agrees: bool,
}

/// The event's card of a table, as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardCard {
    /// Where it came from: a file's name, or a referee's entry.
    pub from: String,
    pub time: String,
    pub rows: Vec<CardRow>,
}

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableState {
    /// No card and no entry.
    Missing,
    /// A referee's entry waits for the desk's typing (double entry).
    Waiting,
    /// The event has its card, and every entry agrees with it.
    In,
    /// An entry differs from the event's card, or (double entry) two
    /// referees' entries differ: the director decides.
    Conflict,
    /// The desk typed it twice and the two typings differ (`import
    /// --second-entry` held it back), and no entry waits or differs: the
    /// desk compares them with the signed card and imports the right one.
    /// A card the event held before (`--replace`) counts meanwhile.
    TypedTwice,
}

/// One table of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardTable {
    pub key: CardKey,
    pub state: TableState,
    pub card: Option<BoardCard>,
    /// Each referee's latest entry since the director last decided.
    pub entries: Vec<BoardEntry>,
    /// The director's last decision, with its reason.
    pub decided: Option<String>,
}

/// What the director accepts for a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accept {
    /// The event's card stands; the entries that differ are set aside.
    EventCard,
    /// This entry becomes the event's card.
    Entry(i64),
}

/// A row of the log of an entry or a decision ([`Store::log_with_desk`]):
/// the import it made (`log`), an import made after it (`before`), and
/// the last entry made before it (a decision's: the last of its table).
struct DeskLine {
    id: i64,
    log: Option<i64>,
    before: Option<i64>,
    after_entry: i64,
    line: LogEntry,
}

/// A table as the log's row of an entry or a decision names it: `table 7
/// (session S01)` (the row's stage beside it).
fn table_said(session: &str, table: &str) -> String {
    let key = key_of(String::new(), session.to_string(), table.to_string());
    crate::report::going_on::table_name(&crate::rules::advancement::TableName {
        table: key.table,
        session: Some(key.session),
        later_stage: None,
    })
}

/// The import log's rows (with their ids), the entries' and the
/// decisions' (each oldest first), as one log in time order: of the rows
/// ready to come next (an entry or a decision after the import it made,
/// a decision after the entries it settled, an import a decision made
/// after those entries too, an import a referee's card made after the
/// entries before it, and the import that stored a table's card after
/// the entries of it held for the desk's typing), the oldest; in a tie, the import log's first,
/// then the decisions' (an entry of a table after its decision: made
/// after it), then the entries'. (Rows that cannot all be ready, as in a
/// database edited by hand, come oldest first.)
fn in_time_order(
    log: Vec<(i64, LogEntry)>,
    entries: Vec<DeskLine>,
    decisions: Vec<DeskLine>,
) -> Vec<LogEntry> {
    // the last entry each import comes after
    let mut after: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
    for d in entries.iter().chain(&decisions) {
        let made_after = [(d.log, d.after_entry), (d.before, d.id)];
        for (l, entry) in made_after {
            if let Some(l) = l {
                let at = after.entry(l).or_default();
                *at = (*at).max(entry);
            }
        }
    }
    let mut out = Vec::with_capacity(log.len() + entries.len() + decisions.len());
    let (mut log, mut entries, mut decisions) = (
        log.into_iter().peekable(),
        entries.into_iter().peekable(),
        decisions.into_iter().peekable(),
    );
    let (mut last_log, mut last_entry) = (0, 0);
    loop {
        let made = |d: &DeskLine| d.log.is_none_or(|l| l <= last_log);
        // (the time, which stream, whether it is ready)
        let heads = [
            log.peek()
                .map(|(id, l)| (&l.time, 0, after.get(id).is_none_or(|&e| e <= last_entry))),
            decisions
                .peek()
                .map(|d| (&d.line.time, 1, made(d) && d.after_entry <= last_entry)),
            entries.peek().map(|d| (&d.line.time, 2, made(d))),
        ];
        let first = |ready: bool| {
            (heads.iter().flatten())
                .filter(|h| h.2 || !ready)
                .min_by_key(|h| (h.0, h.1))
                .map(|h| h.1)
        };
        let next = first(true).or_else(|| first(false));
        match next {
            Some(0) => {
                let (id, line) = log.next().expect("a head");
                last_log = id;
                out.push(line);
            }
            Some(1) => out.push(decisions.next().expect("a head").line),
            Some(_) => {
                let d = entries.next().expect("a head");
                last_entry = d.id;
                out.push(d.line);
            }
            None => return out,
        }
    }
}

/// A row of `entries`.
struct EntryRow {
    id: i64,
    time: String,
    referee: String,
    key: CardKey,
    body: Vec<u8>,
}

fn key_of(stage: String, session: String, table: String) -> CardKey {
    CardKey {
        stage: Stage::new(&stage),
        session: Label::session(&session).unwrap_or(Label::Text(session)),
        table: Label::table(&table).unwrap_or(Label::Text(table)),
    }
}

pub(super) fn key_fields(key: &CardKey) -> (String, String, String) {
    (
        key.stage.to_string(),
        SessionName(&key.session).to_string(),
        key.table.to_string(),
    )
}

impl Store {
    fn record_entry(
        &self,
        referee: &str,
        key: &CardKey,
        body: &[u8],
        outcome: &str,
        stored: bool,
    ) -> Result<(), FolderError> {
        let (stage, session, table) = key_fields(key);
        self.conn
            .execute(
                "INSERT INTO entries (time, referee, stage, session, tbl, body, outcome, log)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,
                         CASE WHEN ?8 THEN (SELECT max(id) FROM log) END)",
                params![
                    utc_now(),
                    referee,
                    stage,
                    session,
                    table,
                    body,
                    outcome,
                    stored
                ],
            )
            .map_err(|e| self.error(e))?;
        Ok(())
    }

    /// The referee whose entry made the event's card of `key`, unless the
    /// director has decided the table since.
    pub(super) fn entered_by(&self, key: &CardKey) -> Result<Option<String>, FolderError> {
        let (stage, session, table) = key_fields(key);
        self.conn
            .query_row(
                "SELECT e.referee FROM cards c JOIN entries e ON e.log = c.log
                  WHERE c.stage = ?1 AND c.session = ?2 AND c.tbl = ?3 AND c.replaced_by IS NULL
                    AND e.stage = ?1 AND e.session = ?2 AND e.tbl = ?3
                    AND NOT EXISTS (SELECT 1 FROM decisions d
                         WHERE d.stage = ?1 AND d.session = ?2 AND d.tbl = ?3)",
                params![stage, session, table],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Who holds the event's card of `key`, as told to `referee`, whose
    /// card differs from it: the referee whose entry made it (entered, or
    /// accepted on the board), else the desk (an import).
    fn holder(&self, key: &CardKey, referee: &str) -> Result<Holder, FolderError> {
        let (stage, session, table) = key_fields(key);
        let by: Option<Option<String>> = self
            .conn
            .query_row(
                "SELECT coalesce(
                        (SELECT e.referee FROM entries e
                          WHERE e.log = c.log AND e.stage = ?1 AND e.session = ?2 AND e.tbl = ?3
                          ORDER BY e.id DESC LIMIT 1),
                        (SELECT e.referee FROM decisions d JOIN entries e ON e.id = d.entry
                          WHERE d.log = c.log ORDER BY d.id DESC LIMIT 1))
                   FROM cards c
                  WHERE c.stage = ?1 AND c.session = ?2 AND c.tbl = ?3 AND c.replaced_by IS NULL",
                params![stage, session, table],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        Ok(match by.flatten() {
            Some(name) if name.starts_with(DESK) => Holder::Desk,
            Some(name) if name == referee => Holder::Own,
            Some(name) => Holder::Referee(name),
            None => Holder::Desk,
        })
    }

    /// The answer to `referee`, whose card `body` of `key` differs from
    /// the event's card (held by `held_by`): who holds that version and
    /// what to do, then what differs, in each language.
    fn conflict(
        &self,
        key: &CardKey,
        held_by: Holder,
        referee: &str,
        body: &[u8],
        rules: &crate::profile::Rules,
    ) -> Result<Entered, FolderError> {
        let was = self
            .card_of_key(key)?
            .map(|card| rows_of(key, &card.lines))
            .unwrap_or_default();
        let mut roster = self.roster()?;
        let now = entry_lines(body, referee, rules, roster.as_mut())
            .map(|lines| rows_of(key, &lines))
            .unwrap_or_default();
        let differs = differences(&was, &now);
        Ok(Entered::Conflict {
            card: key.clone(),
            messages: Lang::ALL.map(|lang| conflict_message(key, &held_by, &differs, lang)),
            held_by,
        })
    }

    /// Double entry: a posted card that differs from another referee's
    /// entry of its table waiting for the desk's typing, said as the
    /// conflict the board shows (the post is kept as waiting, as the
    /// other is: the desk's typing, or the director, settles the table).
    fn differs_from_waiting(
        &self,
        key: &CardKey,
        referee: &str,
        body: &[u8],
        rules: &crate::profile::Rules,
    ) -> Result<Option<Entered>, FolderError> {
        let mut roster = self.roster()?;
        let Some(now) = entry_lines(body, referee, rules, roster.as_mut()) else {
            return Ok(None);
        };
        for (other, other_body) in self.waiting_entries(key)? {
            if other == referee {
                continue;
            }
            let Some(was) = entry_lines(&other_body, &other, rules, roster.as_mut()) else {
                continue;
            };
            if was != now {
                let differs = differences(&rows_of(key, &was), &rows_of(key, &now));
                let held_by = Holder::Referee(other);
                return Ok(Some(Entered::Conflict {
                    card: key.clone(),
                    messages: Lang::ALL.map(|lang| conflict_message(key, &held_by, &differs, lang)),
                    held_by,
                }));
            }
        }
        Ok(None)
    }

    /// The keys of the stored cards of `near`'s stage and session.
    fn session_keys(&self, near: &CardKey) -> Result<Vec<CardKey>, FolderError> {
        let (stage, session, _) = key_fields(near);
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT stage, session, tbl FROM cards
                  WHERE stage = ?1 AND session = ?2 AND replaced_by IS NULL",
            )
            .map_err(e)?;
        let rows = stmt
            .query_map(params![stage, session], |r| {
                Ok(key_of(r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }

    /// Double entry: each referee's latest entry of `key`, when it waits
    /// for the desk's typing (posted after the director last decided the
    /// table): who entered it, and the card as posted.
    pub(super) fn waiting_entries(
        &self,
        key: &CardKey,
    ) -> Result<Vec<(String, Vec<u8>)>, FolderError> {
        self.latest_entries(key, true)
    }

    /// Each referee's latest entry of `key` since the director last
    /// decided the table (the desk's typing kept for the board too),
    /// whatever its outcome: who entered it, and the card as posted.
    pub(super) fn undecided_entries(
        &self,
        key: &CardKey,
    ) -> Result<Vec<(String, Vec<u8>)>, FolderError> {
        self.latest_entries(key, false)
    }

    /// Each referee's latest entry of `key` posted after the director last
    /// decided the table, only those waiting for the desk's typing when
    /// `waiting`, in the order posted.
    fn latest_entries(
        &self,
        key: &CardKey,
        waiting: bool,
    ) -> Result<Vec<(String, Vec<u8>)>, FolderError> {
        let (stage, session, table) = key_fields(key);
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT e.referee, e.body FROM entries e
                  WHERE e.stage = ?1 AND e.session = ?2 AND e.tbl = ?3
                    AND (?4 = 0 OR e.outcome = 'waiting')
                    AND e.id > coalesce((SELECT d.last_entry FROM decisions d
                         WHERE d.stage = ?1 AND d.session = ?2 AND d.tbl = ?3
                         ORDER BY d.id DESC LIMIT 1), 0)
                    AND e.id = (SELECT max(f.id) FROM entries f
                         WHERE f.stage = ?1 AND f.session = ?2 AND f.tbl = ?3
                           AND f.referee = e.referee)
                  ORDER BY e.id",
            )
            .map_err(e)?;
        let rows = stmt
            .query_map(params![stage, session, table, waiting], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }

    /// The desk imported again, with `--replace` (from `file`, for
    /// `reason`), the card the event holds of `key`, which is in conflict
    /// with entries that differ from it: the table is settled for the
    /// event's card, as the director settles it on the board.
    pub(super) fn settle_for_event_card(
        &self,
        key: &CardKey,
        file: &str,
        reason: &str,
    ) -> Result<(), FolderError> {
        self.desk_decision(key, &format!("{DESK_REPLACED} ({file}): {reason}"), None)
    }

    /// Every entry and every decision as rows of a dump's `entries.csv`
    /// and `decisions.csv` (with their headers).
    pub(super) fn entries_for_dump(&self) -> Result<[Vec<Vec<String>>; 2], FolderError> {
        let e = |e| self.error(e);
        let rows = |sql: &str, header: &[&str]| -> Result<Vec<Vec<String>>, FolderError> {
            let mut stmt = self.conn.prepare(sql).map_err(e)?;
            let n = stmt.column_count();
            let mut out = vec![header.iter().map(|h| h.to_string()).collect()];
            let mut q = stmt.query([]).map_err(e)?;
            while let Some(r) = q.next().map_err(e)? {
                let mut row = Vec::with_capacity(n);
                for i in 0..n {
                    row.push(match r.get_ref(i).map_err(e)? {
                        rusqlite::types::ValueRef::Null => String::new(),
                        rusqlite::types::ValueRef::Integer(v) => v.to_string(),
                        rusqlite::types::ValueRef::Real(v) => v.to_string(),
                        rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => {
                            String::from_utf8_lossy(t).into_owned()
                        }
                    });
                }
                out.push(row);
            }
            Ok(out)
        };
        Ok([
            rows(
                "SELECT id, time, referee, stage, session, tbl, outcome, coalesce(log, ''), body FROM entries ORDER BY id",
                &["id", "time", "referee", "stage", "session", "table", "outcome", "log", "card"],
            )?,
            rows(
                "SELECT id, time, stage, session, tbl, coalesce(entry, ''), last_entry, reason, coalesce(log, '') FROM decisions ORDER BY id",
                &["id", "time", "stage", "session", "table", "entry", "last_entry", "reason", "log"],
            )?,
        ])
    }

    /// The event's log: the import log's rows, and a row for every entry
    /// (who entered which table, and what became of it) and every
    /// decision (who settled which table, and why), in time order
    /// ([`in_time_order`]).
    pub(super) fn log_with_desk(
        &self,
        rules: &crate::profile::Rules,
    ) -> Result<Vec<LogEntry>, FolderError> {
        let read = self.begin_read()?;
        let log = self.log_rows()?;
        let (entries, decisions) = self.desk_lines(rules)?;
        read.commit().map_err(|e| self.error(e))?;
        Ok(in_time_order(log, entries, decisions))
    }

    /// The log's rows of every entry and every decision, oldest first.
    fn desk_lines(
        &self,
        rules: &crate::profile::Rules,
    ) -> Result<(Vec<DeskLine>, Vec<DeskLine>), FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, time, referee, stage, session, tbl, outcome, log, body
                   FROM entries ORDER BY id",
            )
            .map_err(e)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    [r.get::<_, String>(3)?, r.get(4)?, r.get(5)?],
                    r.get::<_, String>(6)?,
                    r.get::<_, Option<i64>>(7)?,
                    r.get::<_, Vec<u8>>(8)?,
                ))
            })
            .map_err(e)?;
        let mut entries = Vec::new();
        for row in rows {
            let (id, time, referee, [stage, session, table], outcome, log, body) =
                row.map_err(e)?;
            let at = table_said(&session, &table);
            let reason = match outcome.as_str() {
                "stored" => S::EnteredStored.en(&[&at]),
                "same" => S::EnteredSame.en(&[&at]),
                "waiting" => S::EnteredHeld.en(&[&at]),
                "conflict" => S::EnteredInConflict.en(&[&at]),
                other => format!("{at}: {other}"),
            };
            let posted = Posted::read(&referee, &body, rules);
            let games = posted.cards.first().map_or(0, |c| c.games.len());
            // an entry held for the desk's typing came before the import
            // that stored the table's card next
            let before = match outcome.as_str() {
                "waiting" => self
                    .conn
                    .prepare_cached(
                        "SELECT min(c.log) FROM cards c JOIN log l ON l.id = c.log
                          WHERE c.stage = ?1 AND c.session = ?2 AND c.tbl = ?3 AND l.time >= ?4",
                    )
                    .and_then(|mut s| {
                        s.query_row(params![stage, session, table, time], |r| r.get(0))
                    })
                    .map_err(e)?,
                _ => None,
            };
            entries.push(DeskLine {
                id,
                log,
                before,
                after_entry: id - 1,
                line: LogEntry {
                    time,
                    action: "entry".into(),
                    file: entry_source(&referee),
                    sha256: posted.sha256,
                    stage,
                    cards: 1,
                    games: games as i64,
                    reason,
                },
            });
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT d.id, d.time, d.stage, d.session, d.tbl, a.referee, d.last_entry,
                        d.reason, d.log
                   FROM decisions d LEFT JOIN entries a ON a.id = d.entry ORDER BY d.id",
            )
            .map_err(e)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    [r.get::<_, String>(2)?, r.get(3)?, r.get(4)?],
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, String>(7)?,
                    r.get::<_, Option<i64>>(8)?,
                ))
            })
            .map_err(e)?;
        let mut decisions = Vec::new();
        for row in rows {
            let (id, time, [stage, session, table], accepted, last_entry, reason, log) =
                row.map_err(e)?;
            let at = table_said(&session, &table);
            let (file, said) = match (decider(&reason), accepted) {
                (Decider::DeskAgrees { file }, _) => (file, S::SettledDeskAgrees.en(&[&at])),
                (Decider::DeskReplaced { file, reason }, _) => {
                    (file, S::SettledDeskReplace.en(&[&at, &reason]))
                }
                (Decider::Board { reason }, None) => ("", S::DecidedCardStands.en(&[&at, &reason])),
                (Decider::Board { reason }, Some(by)) => match by.strip_prefix(DESK) {
                    Some(file) => ("", S::DecidedForDeskTyping.en(&[&at, &file, &reason])),
                    None => ("", S::DecidedForReferee.en(&[&at, &by, &reason])),
                },
            };
            decisions.push(DeskLine {
                id,
                log,
                before: None,
                after_entry: last_entry,
                line: LogEntry {
                    time,
                    action: "decision".into(),
                    file: file.to_string(),
                    sha256: String::new(),
                    stage,
                    cards: 1,
                    games: 0,
                    reason: said,
                },
            });
        }
        Ok((entries, decisions))
    }

    /// Keeps the desk's typing of a card a referee entered, refused by its
    /// import because the two differ, as an entry for the board.
    pub(super) fn keep_desk_version(
        &self,
        key: &CardKey,
        file: &str,
        lines: &[StoredLine],
    ) -> Result<(), FolderError> {
        if self.entered_by(key)?.is_none() && self.waiting_entries(key)?.is_empty() {
            return Ok(());
        }
        let mut body = shown(key, lines).join("\n");
        body.push('\n');
        self.record_entry(
            &format!("{DESK}{file}"),
            key,
            body.as_bytes(),
            "conflict",
            false,
        )
    }

    /// Whether any card was ever entered at a table.
    pub(super) fn has_entries(&self) -> Result<bool, FolderError> {
        self.conn
            .query_row("SELECT EXISTS (SELECT 1 FROM entries)", [], |r| r.get(0))
            .map_err(|e| self.error(e))
    }

    /// A decision of the desk on the table of `key`, for `reason` (made
    /// by the import of log row `log`, when one was): the event's card
    /// stands, and every entry of the table so far is settled by it.
    fn desk_decision(
        &self,
        key: &CardKey,
        reason: &str,
        log: Option<i64>,
    ) -> Result<(), FolderError> {
        let (stage, session, table) = key_fields(key);
        self.conn
            .execute(
                "INSERT INTO decisions (time, stage, session, tbl, entry, last_entry, reason, log)
                 VALUES (?1, ?2, ?3, ?4, NULL,
                         (SELECT coalesce(max(id), 0) FROM entries WHERE stage = ?2 AND session = ?3 AND tbl = ?4),
                         ?5, ?6)",
                params![utc_now(), stage, session, table, reason, log],
            )
            .map_err(|e| self.error(e))?;
        Ok(())
    }

    /// The desk's typing (`file`) agrees with the card a referee entered:
    /// the table is settled, and the referee can no longer change it.
    pub(super) fn confirm_entry(&self, key: &CardKey, file: &str) -> Result<(), FolderError> {
        if self.entered_by(key)?.is_none() {
            return Ok(());
        }
        self.desk_decision(key, &format!("{DESK_AGREES} ({file})"), None)
    }

    /// The reason of the director's last decision of `key`, when `body`
    /// is a version of the card entered before that decision and not the
    /// one it accepted (set aside then).
    pub(super) fn set_aside_before(
        &self,
        key: &CardKey,
        body: &[u8],
    ) -> Result<Option<String>, FolderError> {
        let (stage, session, table) = key_fields(key);
        self.conn
            .query_row(
                "SELECT d.reason FROM decisions d
                  WHERE d.id = (SELECT max(id) FROM decisions
                                 WHERE stage = ?1 AND session = ?2 AND tbl = ?3)
                    AND EXISTS (SELECT 1 FROM entries g
                                 WHERE g.stage = ?1 AND g.session = ?2 AND g.tbl = ?3
                                   AND g.body = ?4 AND g.id <= d.last_entry)
                    AND NOT EXISTS (SELECT 1 FROM entries a
                                     WHERE a.id = d.entry AND a.body = ?4)",
                params![stage, session, table, body],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// The desk put its card of `key` in with `--replace` (the import of
    /// log row `log`, from `file`, for `reason`) over the referees'
    /// entries of the table since it was last decided: the table is
    /// settled, for the event's card, as the director settles it on the
    /// board. Returns the referees whose entries were set aside (none:
    /// nothing to settle, nothing recorded).
    pub(super) fn settle_by_desk(
        &self,
        key: &CardKey,
        file: &str,
        reason: &str,
        log: i64,
    ) -> Result<Vec<String>, FolderError> {
        let (stage, session, table) = key_fields(key);
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT DISTINCT e.referee FROM entries e
                  WHERE e.stage = ?1 AND e.session = ?2 AND e.tbl = ?3
                    AND e.referee NOT LIKE ?4
                    AND e.id > coalesce((SELECT d.last_entry FROM decisions d
                         WHERE d.stage = ?1 AND d.session = ?2 AND d.tbl = ?3
                         ORDER BY d.id DESC LIMIT 1), 0)
                  ORDER BY e.id",
            )
            .map_err(e)?;
        let referees = stmt
            .query_map(params![stage, session, table, format!("{DESK}%")], |r| {
                r.get(0)
            })
            .map_err(e)?
            .collect::<Result<Vec<String>, _>>()
            .map_err(e)?;
        if referees.is_empty() {
            return Ok(referees);
        }
        self.desk_decision(
            key,
            &format!("{DESK_REPLACED} ({file}): {reason}"),
            Some(log),
        )?;
        Ok(referees)
    }

    fn entry_rows(&self) -> Result<Vec<EntryRow>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare("SELECT id, time, referee, stage, session, tbl, body FROM entries ORDER BY id")
            .map_err(e)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(EntryRow {
                    id: r.get(0)?,
                    time: r.get(1)?,
                    referee: r.get(2)?,
                    key: key_of(r.get(3)?, r.get(4)?, r.get(5)?),
                    body: r.get(6)?,
                })
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }

    /// Each table's last decision: the entry id it was made after, and
    /// its words.
    fn decision_rows(&self) -> Result<Vec<(CardKey, i64, String)>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT stage, session, tbl, last_entry, time, reason FROM decisions ORDER BY id",
            )
            .map_err(e)?;
        let rows = stmt
            .query_map([], |r| {
                let time: String = r.get(4)?;
                let reason: String = r.get(5)?;
                Ok((
                    key_of(r.get(0)?, r.get(1)?, r.get(2)?),
                    r.get(3)?,
                    format!("{time}: {reason}"),
                ))
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }

    /// The event's card of `key`: its row, where it came from and when.
    fn card_origin(&self, key: &CardKey) -> Result<Option<(i64, String, String)>, FolderError> {
        let (stage, session, table) = key_fields(key);
        self.conn
            .query_row(
                "SELECT c.id, l.file, l.time FROM cards c JOIN log l ON l.id = c.log
                  WHERE c.stage = ?1 AND c.session = ?2 AND c.tbl = ?3 AND c.replaced_by IS NULL",
                params![stage, session, table],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| self.error(e))
    }
}

impl EventFolder {
    /// Checks a card as it is typed: every check an import makes (read by
    /// the same reader, checked against the stored cards), nothing kept.
    pub fn check_entry(&self, referee: &str, body: &[u8]) -> Result<EntryCheck, FolderError> {
        let rules = self.rules();
        let posted = Posted::read(referee, body, &rules);
        let store = self.writer()?;
        let players = self.seat_names(&store, &posted)?;
        // (a card read with errors is still checked, as `check` does: every
        // problem is listed at once; a post of other than one card is not)
        let names = StoredNames::of(&store);
        if posted.key().is_none() {
            return Ok(EntryCheck {
                problems: posted.located_all(&posted.problems, &names),
                players,
            });
        }
        // (single entry: the referee's own card, not yet settled, is
        // checked as the correction that posting it makes)
        let own = (!rules.double_entry).then_some(referee);
        let report =
            self.import_posted(&store, &posted, true, own, &mut || {}, &mut |_, _| Ok(()))?;
        Ok(EntryCheck {
            problems: posted.located_all(&report.problems, &names),
            players,
        })
    }

    /// Stores a card a referee posted, in one transaction with the record
    /// of the entry (see the module's words for single and double entry).
    pub fn enter_card(
        &self,
        referee: &str,
        body: &[u8],
        on_wait: &mut dyn FnMut(),
    ) -> Result<Entered, FolderError> {
        let rules = self.rules();
        let double = rules.double_entry;
        let posted = Posted::read(referee, body, &rules);
        let Some(key) = posted.key().cloned() else {
            // (a post of other than one card is an error of its reading)
            return Ok(Entered::Refused(
                posted.located_all(&posted.problems, &StoredNames::none()),
            ));
        };
        let store = self.writer()?;
        // (single entry: the referee's own card, not yet settled, is
        // corrected in place)
        let own = !double;
        let mut entered = None;
        let report = self.import_posted(
            &store,
            &posted,
            double,
            own.then_some(referee),
            on_wait,
            &mut |store, report| {
                let names = StoredNames::of(store);
                let outcome = match outcome(&posted, report, double, &key, &names) {
                    Some(outcome) => outcome,
                    None => {
                        let held_by = store.holder(&key, referee)?;
                        // a version the director saw and set aside, sent
                        // again (a phone keeps its draft): not kept, so
                        // that the table does not open again on the board
                        if let Some(reason) = store.set_aside_before(&key, body)? {
                            let said = Said::new(Msg::DecidedBefore, [reason_for_phone(&reason)]);
                            entered = Some(Entered::Conflict {
                                card: key.clone(),
                                held_by,
                                messages: Lang::ALL.map(|lang| said.say(lang)),
                            });
                            return Ok(());
                        }
                        store.conflict(&key, held_by, referee, body, &rules)?
                    }
                };
                // (another referee's waiting entry differs: the post waits
                // too, and the referee is told of the other version)
                let outcome = match outcome {
                    Entered::Waiting { .. } => {
                        match store.differs_from_waiting(&key, referee, body, &rules)? {
                            Some(conflict) => {
                                store.record_entry(referee, &key, body, "waiting", false)?;
                                entered = Some(conflict);
                                return Ok(());
                            }
                            None => outcome,
                        }
                    }
                    outcome => outcome,
                };
                let kept = match &outcome {
                    Entered::Stored { .. } => Some(("stored", true)),
                    Entered::Same { .. } => Some(("same", false)),
                    Entered::Waiting { .. } => Some(("waiting", false)),
                    Entered::Conflict { .. } => Some(("conflict", false)),
                    Entered::Refused(_) => None,
                };
                if let Some((word, stored)) = kept {
                    store.record_entry(referee, &key, body, word, stored)?;
                }
                entered = Some(outcome);
                Ok(())
            },
        )?;
        // (no outcome: the import refused everything before this card, as
        // when the event's stored cards have errors under today's settings)
        Ok(entered.unwrap_or_else(|| {
            Entered::Refused(posted.located_all(&report.problems, &StoredNames::of(&store)))
        }))
    }

    /// The one import, for one posted card.
    fn import_posted(
        &self,
        store: &Store,
        posted: &Posted,
        trial: bool,
        own: Option<&str>,
        on_wait: &mut dyn FnMut(),
        then: &mut dyn FnMut(&Store, &ImportReport) -> Result<(), FolderError>,
    ) -> Result<ImportReport, FolderError> {
        let read = ReadFile {
            name: posted.name.clone(),
            sha256: posted.sha256.clone(),
            cards: posted.cards.clone(),
            // (the reading's problems too: a card read with errors is
            // refused, with every problem its checks find)
            problems: posted.problems.clone(),
        };
        let how = How {
            stage: None,
            replace: own.map_or(Replace::No, Replace::OwnEntry),
            reason: Some("corrected by the referee who entered it"),
            trial,
            desk: false,
        };
        self.store_read(store, vec![ToImport::Read(read)], &how, on_wait, then)
    }

    /// The players a posted card names, as the roster knows them.
    fn seat_names(&self, store: &Store, posted: &Posted) -> Result<Vec<SeatName>, FolderError> {
        let Some(roster) = store.roster()? else {
            return Ok(Vec::new());
        };
        let mut names = Vec::new();
        for card in &posted.cards {
            for seat in &card.seats {
                if let Ok(pid) = roster.find(&seat.player) {
                    names.push(SeatName {
                        seat: seat.seat,
                        id: roster.id(pid).to_string(),
                        name: roster.name(pid).to_string(),
                    });
                }
            }
        }
        Ok(names)
    }

    /// The tables the board holds back, as [`EventFolder::board`] shows
    /// them: a referee's entry waiting for the desk's typing
    /// ([`TableState::Waiting`]), and the tables in conflict that the
    /// director decides ([`TableState::Conflict`]), and those a double
    /// entry held back ([`TableState::TypedTwice`]). When no referee has
    /// entered a card, only those, at once (the cards are not read again).
    pub fn held_back(&self) -> Result<Vec<BoardTable>, FolderError> {
        let Some(store) = self.reader()? else {
            return Ok(Vec::new());
        };
        let any: bool = store
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM entries)", [], |r| r.get(0))
            .map_err(|e| store.error(e))?;
        if !any {
            return Ok((store.typed_twice()?.into_iter())
                .map(|h| BoardTable {
                    key: h.key,
                    state: TableState::TypedTwice,
                    card: None,
                    entries: Vec::new(),
                    decided: None,
                })
                .collect());
        }
        drop(store);
        let mut board = self.board()?;
        board.retain(|t| {
            matches!(
                t.state,
                TableState::Waiting | TableState::Conflict | TableState::TypedTwice
            )
        });
        Ok(board)
    }

    /// The tables of the event's first stage as the board shows them: those
    /// the schedule expects, and any other with a card or an entry.
    pub fn board(&self) -> Result<Vec<BoardTable>, FolderError> {
        let rules = self.rules();
        let Some(store) = self.reader()? else {
            return Ok(Vec::new());
        };
        let mut roster = store.roster()?;
        let entries = store.entry_rows()?;
        let decisions = store.decision_rows()?;
        let typed_twice: Vec<CardKey> = (store.typed_twice()?.into_iter()).map(|h| h.key).collect();
        let mut keys: Vec<CardKey> = Vec::new();
        if let Some(s) = rules.schedule {
            for session in 1..=s.sessions.min(1_000) {
                for table in 1..=s.tables.min(1_000) {
                    keys.push(CardKey {
                        stage: rules.first_stage(),
                        session: Label::Num(session),
                        table: Label::Num(table),
                    });
                }
            }
        }
        let mut stored = std::collections::HashMap::new();
        store.each_card(&mut |card| {
            stored.insert(card.key.clone(), card.lines);
        })?;
        keys.extend(stored.keys().cloned());
        keys.extend(entries.iter().map(|e| e.key.clone()));
        keys.extend(typed_twice.iter().cloned());
        keys.sort();
        keys.dedup();
        let mut board = Vec::new();
        for key in keys {
            let last = decisions.iter().rev().find(|d| d.0 == key);
            let since = last.map_or(0, |d| d.1);
            let card_lines_now = stored.get(&key);
            let card = match (card_lines_now, store.card_origin(&key)?) {
                (Some(lines), Some((_, from, time))) => Some(BoardCard {
                    from,
                    time,
                    rows: rows_of(&key, lines),
                }),
                _ => None,
            };
            // each referee's latest entry after the last decision
            let mut latest: Vec<&EntryRow> = Vec::new();
            for e in entries.iter().filter(|e| e.key == key && e.id > since) {
                latest.retain(|l| l.referee != e.referee);
                latest.push(e);
            }
            let mut shown_entries = Vec::new();
            for e in latest {
                let lines = entry_lines(&e.body, &e.referee, &rules, roster.as_mut());
                let agrees = card_lines_now.is_some_and(|c| Some(c) == lines.as_ref());
                shown_entries.push(BoardEntry {
                    id: e.id,
                    referee: e.referee.clone(),
                    time: e.time.clone(),
                    rows: lines.map(|l| rows_of(&key, &l)).unwrap_or_default(),
                    agrees,
                });
            }
            let state = if card.is_some() {
                if !shown_entries.iter().all(|e| e.agrees) {
                    TableState::Conflict
                } else if typed_twice.binary_search(&key).is_ok() {
                    // (its replacement held back by a double entry: the
                    // event's card counts meanwhile)
                    TableState::TypedTwice
                } else {
                    TableState::In
                }
            } else if shown_entries.is_empty() && typed_twice.binary_search(&key).is_ok() {
                TableState::TypedTwice
            } else if shown_entries.is_empty() {
                TableState::Missing
            } else if shown_entries.windows(2).any(|w| w[0].rows != w[1].rows) {
                TableState::Conflict
            } else {
                TableState::Waiting
            };
            board.push(BoardTable {
                key,
                state,
                card,
                entries: shown_entries,
                decided: last.map(|d| d.2.clone()),
            });
        }
        Ok(board)
    }

    /// The director settles a table: the event's card stands, or an entry
    /// becomes the event's card (replacing it), with a reason the log and
    /// the board keep.
    pub fn accept(
        &self,
        key: &CardKey,
        choice: Accept,
        reason: &str,
        on_wait: &mut dyn FnMut(),
    ) -> Result<(), FolderError> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(FolderError::Refused(
                "a decision needs a reason (the log keeps it)".to_string(),
            ));
        }
        let store = self.writer()?;
        let tx = store.begin_write(on_wait)?;
        let entries = store.entry_rows()?;
        let last_entry = entries
            .iter()
            .filter(|e| &e.key == key)
            .map(|e| e.id)
            .max()
            .unwrap_or(0);
        drop(tx);
        let record = |store: &Store, entry: Option<i64>, changed: bool| {
            let (stage, session, table) = key_fields(key);
            store
                .conn
                .execute(
                    "INSERT INTO decisions (time, stage, session, tbl, entry, last_entry, reason, log)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CASE WHEN ?8 THEN (SELECT max(id) FROM log) END)",
                    params![utc_now(), stage, session, table, entry, last_entry, reason, changed],
                )
                .map_err(|e| store.error(e))?;
            Ok(())
        };
        match choice {
            Accept::EventCard => {
                let tx = store.begin_write(on_wait)?;
                if store.card_origin(key)?.is_none() {
                    return Err(FolderError::Refused(format!(
                        "{key}: the event has no card of this table to keep; accept an entry instead"
                    )));
                }
                record(&store, None, false)?;
                tx.commit().map_err(|e| store.error(e))?;
                Ok(())
            }
            Accept::Entry(id) => {
                let Some(entry) = entries.iter().find(|e| e.id == id && &e.key == key) else {
                    return Err(FolderError::Refused(format!(
                        "{key}: no entry {id} of this table"
                    )));
                };
                let rules = self.rules();
                let posted = Posted::read(&entry.referee, &entry.body, &rules);
                let read = ReadFile {
                    name: format!("{} (accepted on the board)", posted.name),
                    sha256: posted.sha256.clone(),
                    cards: posted.cards.clone(),
                    problems: posted.problems.clone(),
                };
                let how = How {
                    stage: None,
                    replace: Replace::Yes,
                    reason: Some(reason),
                    trial: false,
                    desk: false,
                };
                let report = self.store_read(
                    &store,
                    vec![ToImport::Read(read)],
                    &how,
                    on_wait,
                    &mut |store, report| {
                        if report.problems.has_errors() {
                            return Ok(()); // (refused: said below)
                        }
                        let changed = report
                            .files
                            .iter()
                            .flat_map(|f| &f.1)
                            .any(|(_, fate)| *fate != super::CardFate::Unchanged);
                        record(store, Some(id), changed)
                    },
                )?;
                // (refused whether the import's last step ran or not: a
                // later stage's player found wrong refuses it before)
                if report.problems.has_errors() || !report.refused.is_empty() {
                    let why = report
                        .problems
                        .sorted()
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join("\n");
                    return Err(FolderError::Refused(format!(
                        "{key}: entry {id} cannot be the event's card now:\n{why}"
                    )));
                }
                Ok(())
            }
        }
    }
}

/// What an import of one posted card says of it; `None` when the card
/// differs from the event's card of its table, and from nothing else (a
/// conflict: [`Store::conflict`] says it).
fn outcome(
    posted: &Posted,
    report: &ImportReport,
    double: bool,
    key: &CardKey,
    names: &StoredNames,
) -> Option<Entered> {
    let card = key.clone();
    let sorted = report.problems.sorted();
    let errors = report.problems.error_count();
    if errors > 0 {
        if !report.conflicts.is_empty() && errors == report.conflicts.len() {
            return None;
        }
        return Some(Entered::Refused(
            posted.located_all(&report.problems, names),
        ));
    }
    let warnings = posted.located(&sorted, names);
    let fate = report
        .files
        .iter()
        .flat_map(|f| &f.1)
        .map(|(_, f)| f)
        .next();
    Some(match fate {
        Some(super::CardFate::Unchanged) => Entered::Same { card },
        _ if double => Entered::Waiting { card, warnings },
        _ => Entered::Stored { card, warnings },
    })
}

/// A posted card's lines as the store keeps them, or `None` when it no
/// longer passes its checks (the roster or settings changed).
pub(super) fn entry_lines(
    body: &[u8],
    referee: &str,
    rules: &crate::profile::Rules,
    roster: Option<&mut crate::roster::Roster>,
) -> Option<Vec<StoredLine>> {
    let roster = roster?;
    // (an open roster learns the players a card names: each entry is then
    // checked against a copy of it; a closed one, the stored roster,
    // changes nothing and is not copied, whatever its size)
    let mut copy;
    let roster = if roster.is_open() {
        copy = roster.clone();
        &mut copy
    } else {
        roster
    };
    let posted = Posted::read(referee, body, rules);
    let raw = posted.cards.first()?;
    let mut problems = Problems::new();
    let card = check_card(raw, rules, roster, &mut problems).ok()?;
    Some(card_lines(&card, roster))
}

/// A card's lines as results-layout CSV lines (with the header first).
fn shown(key: &CardKey, lines: &[StoredLine]) -> Vec<String> {
    let mut out = vec![csv_line(CARD_HEADER)];
    out.extend(lines.iter().map(|l| csv_line(line_fields(key, l))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_cards_origin_is_its_file_or_its_referee_and_when() {
        let said =
            |source: &str| origin_said(source, "2026-03-14T22:31:05Z").map(|s| s.to_string());
        assert_eq!(
            said("../cards/S07.xlsx[Table 03]").as_deref(),
            Some("imported from ../cards/S07.xlsx[Table 03] on 2026-03-14 22:31 UTC")
        );
        assert_eq!(
            said(&entry_source("Ann Lee")).as_deref(),
            Some("entered by referee Ann Lee on 2026-03-14 22:31 UTC")
        );
        assert_eq!(
            origin_said("S07.csv", "2026-03-14T22:31:05Z")
                .unwrap()
                .say(Lang::ALL[1]),
            "於 2026-03-14 22:31 UTC 從 S07.csv 匯入"
        );
        // (no file stored: not known)
        assert_eq!(said(""), None);
    }

    #[test]
    fn every_refusal_takes_the_same_parts_in_every_language() {
        for &why in Refusal::ALL {
            crate::lang::assert_same_parts(&format!("{why:?}"), |lang| why.words(lang));
        }
        assert_eq!(
            Refusal::KeyRevoked.say(Lang::ZhHant, &[&"Ann", &"2026-03-28 10:00"]),
            "裁判 Ann 的金鑰已於 2026-03-28 10:00 撤銷"
        );
    }

    /// An error of the event folder is said to a phone as what to do: no
    /// roster, or a busy event, each its own; any other, tell the desk.
    #[test]
    fn an_error_of_the_event_is_said_to_a_phone_as_what_to_do() {
        let busy = FolderError::Busy {
            path: "event/tilerank.db".into(),
        };
        assert_eq!(Refusal::of_error(&busy), Refusal::EventBusy);
        let no_roster = FolderError::NoRoster {
            dir: "event".into(),
        };
        assert_eq!(Refusal::of_error(&no_roster), Refusal::NoRoster);
        let full = FolderError::Database {
            path: "event/tilerank.db".into(),
            reason: "the disk is full".into(),
        };
        assert_eq!(Refusal::of_error(&full), Refusal::DeskCannotStore);
        assert!(Refusal::EventBusy
            .say(Lang::En, &[])
            .starts_with("the event is busy"));
    }
}
