//! The standings and qualifier tables, with FORMATS.md's columns:
//! `rank, player, name, group, games, won, avg_score, total_score, tiles,
//! status, note`. Status is `Q` (qualified), `W` (withdrawn) or `DQ`.

use super::words::Sentence as S;
use super::{Chunks, Collected, Column, Given, RowSink, Table, Value, CHUNK_ROWS};
use crate::domain::PlayerId;
use crate::event::{PlayerSet, StandingsGoingOn};
use crate::ingest::cell::Text;
use crate::profile::vocabulary::SortKey;
use crate::profile::Scoring;
use crate::roster::Roster;
use crate::rules::advancement::Cut;
use crate::rules::standings::{deciding_key, tallies, Apart, Entry, Key, Standings, Tally};
use compact_str::ToCompactString;

pub const COLUMNS: [Column; 11] = [
    Column::int("rank"),
    Column::text("player"),
    Column::text("name"),
    Column::text("group"),
    Column::int("games"),
    Column::int("won"),
    Column::score("avg_score"),
    Column::score("total_score"),
    Column::int("tiles"),
    Column::text("status"),
    Column::text("note"),
];

/// The standings' columns, the keys of `s`'s order marked
/// ([`keyed`]), headed as `scoring` scores ([`headed`]).
pub fn columns(s: &Standings, scoring: Scoring) -> Vec<Column> {
    headed(keyed(&COLUMNS, &s.order), scoring)
}

/// `columns` headed in the words of `scoring`: under penalty points the
/// scores are penalty points ("Average penalty points", "Total penalty
/// points", a game's "Penalty points"); their machine names (CSV, JSON)
/// stay `avg_score`, `total_score` and `score`.
pub fn headed(columns: Vec<Column>, scoring: Scoring) -> Vec<Column> {
    columns
        .into_iter()
        .map(|c| match (scoring, c.name) {
            (Scoring::PenaltyPoints, "avg_score") => c.headed_as("avg_penalty"),
            (Scoring::PenaltyPoints, "total_score") => c.headed_as("total_penalty"),
            (Scoring::PenaltyPoints, "score") => c.headed_as("penalty"),
            _ => c,
        })
        .collect()
}

/// `columns` with those that hold a key of `order` (the rules' tie-breaks)
/// marked as that key ([`Column::key`]): the columns that decide a
/// table's order.
pub fn keyed(columns: &[Column], order: &[SortKey]) -> Vec<Column> {
    columns
        .iter()
        .map(
            |c| match order.iter().position(|k| key_column(k.key).name == c.name) {
                Some(at) => c.clone().as_key(u8::try_from(at).unwrap_or(u8::MAX)),
                None => c.clone(),
            },
        )
        .collect()
}

fn row(e: &Entry, roster: &Roster, status: &str, note: Text) -> Vec<Value> {
    let p = e.player();
    let player = (roster.id(p), roster.name(p), roster.group(p));
    let mut made = Collected::default();
    row_into(e, &e.tally(), player, status, &note, &mut made);
    made.rows.pop().unwrap_or_default()
}

/// The row of entry `e`, whose sums are `t` and whose roster id, name and
/// group are `player`, given value by value to `sink`.
fn row_into(
    e: &Entry,
    t: &Tally,
    (id, name, group): (&str, &str, Option<&str>),
    status: &str,
    note: &str,
    sink: &mut dyn RowSink,
) {
    fn text(s: &str) -> Given<'_> {
        if s.is_empty() {
            Given::Empty
        } else {
            Given::Text(s)
        }
    }
    for value in [
        e.rank.map_or(Given::Empty, |r| Given::Int(i64::from(r))),
        Given::Text(id),
        text(name),
        text(group.unwrap_or("")),
        Given::Int(i64::from(t.games)),
        Given::Int(i64::from(t.won)),
        Given::Score(t.average()),
        Given::Score(t.total),
        Given::Int(i64::from(t.tiles)),
        text(status),
        text(note),
    ] {
        sink.value(value);
    }
    sink.end_row();
}

/// Standings rows are made one at a time, but their players' roster ids
/// and sums are read this many at a time, one after the other: the
/// players being in ranking order, these reads are scattered over the
/// roster and the book of sums, and so they overlap instead of each
/// waiting for memory.
const AHEAD: usize = 256;

/// The rows of `entries` to `sink`, `how` giving each one's status and
/// note.
fn rows_into(
    entries: &[Entry],
    roster: &Roster,
    mut how: impl FnMut(&Entry) -> (&'static str, Text),
    sink: &mut dyn RowSink,
) {
    for ahead in entries.chunks(AHEAD) {
        let players: Vec<PlayerId> = ahead.iter().map(Entry::player).collect();
        let names = roster.ids_and_names(&players);
        for ((e, (id, name)), t) in ahead.iter().zip(names).zip(tallies(ahead)) {
            let (status, note) = how(e);
            let player = (id, name, roster.group(e.player()));
            row_into(e, &t, player, status, &note, sink);
        }
    }
}

fn apart_status(e: &Entry) -> &'static str {
    match e.apart {
        Some(Apart::Withdrawn) => "W",
        Some(Apart::Disqualified) => "DQ",
        None => "",
    }
}

fn shared_note(e: &Entry) -> Text {
    if e.shared {
        // (a million rows may say it: no formatting machinery, and no
        // allocation: the note is held in its value)
        let (before, after) = S::SharedRank.around();
        let mut note = Text::new(before);
        note.push_str(itoa::Buffer::new().format(e.rank.unwrap_or(0)));
        note.push_str(after);
        note
    } else {
        Text::default()
    }
}

/// A ranked row's note when the player is tied at the cutoff.
fn at_cutoff(note: &str) -> Text {
    let (before, after) = S::TieAtCutoffNote.around();
    let mut said = Text::new(before);
    said.push_str(note);
    said.push_str(after);
    said
}

fn order_note(s: &Standings, scoring: Scoring) -> String {
    super::words::order(&s.order, scoring)
}

/// Every player of the stage: the ranking, then those listed apart, `Q`
/// marking who goes on ([`Event::standings_going_on`]).
///
/// [`Event::standings_going_on`]: crate::event::Event::standings_going_on
pub fn standings_table(
    s: &StandingsGoingOn,
    roster: &Roster,
    title: &str,
    scoring: Scoring,
) -> Table {
    Table {
        name: standings_name(&s.standings),
        title: title.to_string(),
        columns: columns(&s.standings, scoring),
        rows: standings_rows(s, roster, None).collect(),
        notes: standings_notes(s, scoring),
    }
}

/// The sentences under the standings: the order, who is listed apart, a
/// tie at the cutoff, a list of who goes on that waits for the director.
pub fn standings_notes(s: &StandingsGoingOn, scoring: Scoring) -> Vec<String> {
    let mut notes = vec![order_note(&s.standings, scoring)];
    if !s.standings.apart.is_empty() {
        notes.push(S::ListedApart.en(&[&s.standings.apart.len()]));
    }
    for list in &s.lists {
        let group = list.group.as_ref().filter(|_| s.lists.len() > 1).cloned();
        let in_group = |said| S::in_group(group.as_ref(), said);
        if let Some(tie) = list.cut.as_ref().and_then(super::going_on::cutoff_tie) {
            notes.push(in_group(tie));
        }
        if let Some(wait) = super::stages::not_final(list) {
            notes.push(in_group(wait));
        }
    }
    notes
}

/// The standings table's name (a workbook's sheet, a JSON key).
pub fn standings_name(s: &Standings) -> String {
    format!("Standings {}", s.stage)
}

/// What a ranked row says beside its sums: `Q` for a player who goes on,
/// and its note (a shared rank, a tie at the cutoff), begun by what marks
/// standings that are not final in a file
/// ([`super::stages::mark_rows`]).
struct Marks<'a> {
    going: &'a PlayerSet,
    at_cutoff: &'a PlayerSet,
    not_final: Option<&'a str>,
}

impl<'a> Marks<'a> {
    fn of(s: &'a StandingsGoingOn, not_final: Option<&'a str>) -> Marks<'a> {
        Marks {
            going: &s.going,
            at_cutoff: &s.at_cutoff,
            not_final,
        }
    }

    /// `note` begun by the mark of standings that are not final.
    fn marked(&self, note: Text) -> Text {
        match (self.not_final, note.is_empty()) {
            (None, _) => note,
            (Some(mark), true) => mark.to_compact_string(),
            (Some(mark), false) => compact_str::format_compact!("{mark}; {note}"),
        }
    }

    fn apart(&self, e: &Entry) -> (&'static str, Text) {
        let (status, note) = apart_marks(e);
        (status, self.marked(note))
    }

    fn ranked(&self, e: &Entry) -> (&'static str, Text) {
        let mut note = shared_note(e);
        // (most standings mark nobody, or a hundred players of a million:
        // an empty set is not hashed into)
        if !self.at_cutoff.is_empty() && self.at_cutoff.contains(&e.player()) {
            note = at_cutoff(&note);
        }
        (self.status(e), self.marked(note))
    }

    /// A row's status: `W` or `DQ` for a player listed apart, `Q` for one
    /// who goes on, else none.
    fn status(&self, e: &Entry) -> &'static str {
        if e.apart.is_some() {
            apart_status(e)
        } else if !self.going.is_empty() && self.going.contains(&e.player()) {
            "Q"
        } else {
            ""
        }
    }
}

fn apart_marks(e: &Entry) -> (&'static str, Text) {
    (apart_status(e), Text::default())
}

/// The rows of [`standings_table`], a chunk of them made when the first of
/// it is asked for: the ranking, then those listed apart; `not_final`
/// (`PROVISIONAL: 3 cards missing`) begins every note, for a file whose
/// reader sees no title.
pub fn standings_rows<'a>(
    s: &'a StandingsGoingOn,
    roster: &'a Roster,
    not_final: Option<&'a str>,
) -> impl Iterator<Item = Vec<Value>> + 'a {
    let marks = Marks::of(s, not_final);
    let standings = &s.standings;
    let rows = standings.ranked.len() + standings.apart.len();
    (0..rows.div_ceil(CHUNK_ROWS)).flat_map(move |chunk| {
        let range = chunk * CHUNK_ROWS..rows.min((chunk + 1) * CHUNK_ROWS);
        let mut made = Collected::default();
        rows_of(standings, roster, &marks, range, &mut made);
        made.rows
    })
}

/// Rows `rows` of [`standings_rows`] (the ranked players, then those
/// listed apart) to `sink`, `marks` saying the ranked ones' status and
/// note.
fn rows_of(
    s: &Standings,
    roster: &Roster,
    marks: &Marks,
    rows: std::ops::Range<usize>,
    sink: &mut dyn RowSink,
) {
    let ranked = s.ranked.len();
    let in_ranked = rows.start.min(ranked)..rows.end.min(ranked);
    let in_apart = rows.start.max(ranked) - ranked..rows.end.max(ranked) - ranked;
    rows_into(&s.ranked[in_ranked], roster, |e| marks.ranked(e), sink);
    rows_into(&s.apart[in_apart], roster, |e| marks.apart(e), sink);
}

/// The rows of [`standings_rows`], any range of them made on any thread
/// (a writer makes and writes a long table's chunks on two threads).
pub fn standings_chunks<'a>(
    s: &'a StandingsGoingOn,
    roster: &'a Roster,
    not_final: Option<&'a str>,
) -> Chunks<'a> {
    let marks = Marks::of(s, not_final);
    let standings = &s.standings;
    Chunks {
        rows: standings.ranked.len() + standings.apart.len(),
        make: Box::new(move |rows, sink| rows_of(standings, roster, &marks, rows, sink)),
    }
}

/// Only the players who go on.
pub fn qualifiers_table(
    s: &Standings,
    q: &Cut,
    roster: &Roster,
    title: &str,
    scoring: Scoring,
) -> Table {
    let straddle_rank = q.straddle.as_ref().map(|s| s.rank);
    let rows = q
        .qualified(s)
        .iter()
        .map(|e| {
            let mut note = shared_note(e);
            if straddle_rank.is_some() && e.rank == straddle_rank {
                note = at_cutoff(&note);
            }
            row(e, roster, "Q", note)
        })
        .collect();
    let mut notes = vec![order_note(s, scoring)];
    notes.extend(super::going_on::cutoff_tie(q));
    Table {
        name: "Qualifiers".to_string(),
        title: title.to_string(),
        columns: columns(s, scoring),
        rows,
        notes,
    }
}

/// A key's value for the player, as the explanation says it.
pub fn key_value(e: &Entry, key: Key) -> String {
    let t = &e.tally();
    match key {
        Key::GamesWon => t.won.to_string(),
        Key::AverageScore => t.average().to_string(),
        Key::TotalScore => t.total.to_string(),
        Key::TilesLeft => t.tiles.to_string(),
        Key::BestGame => t.best_game.map(|b| b.to_string()).unwrap_or_default(),
    }
}

/// A key's column, named as the standings name it (FORMATS.md).
fn key_column(key: Key) -> Column {
    match key {
        Key::GamesWon => Column::int("won"),
        Key::AverageScore => Column::score("avg_score"),
        Key::TotalScore => Column::score("total_score"),
        Key::TilesLeft => Column::int("tiles"),
        Key::BestGame => Column::score("best_game"),
    }
}

fn key_cell(e: &Entry, key: Key) -> Value {
    let t = &e.tally();
    match key {
        Key::GamesWon => Value::Int(i64::from(t.won)),
        Key::AverageScore => Value::Score(t.average()),
        Key::TotalScore => Value::Score(t.total),
        Key::TilesLeft => Value::Int(i64::from(t.tiles)),
        Key::BestGame => t.best_game.map_or(Value::Empty, Value::Score),
    }
}

/// Why `upper` ranks above `lower`: the deciding key and both values.
fn why(upper: &Entry, lower: &Entry, s: &Standings, roster: &Roster, scoring: Scoring) -> String {
    let (a, b) = (roster.get(upper.player()), roster.get(lower.player()));
    match deciding_key(&upper.tally(), &lower.tally(), &s.order) {
        Some(k) => format!(
            "{} ({}) is above {} ({}) on {}: {} against {}.",
            a.id,
            a.name,
            b.id,
            b.name,
            super::words::sort_key(&super::words::EN, k, scoring),
            key_value(upper, k.key),
            key_value(lower, k.key)
        ),
        None => format!(
            "{} ({}) and {} ({}) are equal on every key and share rank {}; they are listed by roster id.",
            a.id,
            a.name,
            b.id,
            b.name,
            upper.rank.unwrap_or(0)
        ),
    }
}

/// A player's keys, the players just above and below, and which key
/// decided each of those two places, each row's status (`Q`, `W`, `DQ`)
/// as the standings mark it ([`standings_table`]): the same answer, who
/// goes on, in every format. `None` when the player has no games in the
/// stage.
pub fn explain_table(
    marked: &StandingsGoingOn,
    roster: &Roster,
    player: PlayerId,
    scoring: Scoring,
) -> Option<Table> {
    let s = &marked.standings;
    let marks = Marks::of(marked, None);
    let mut columns = vec![
        Column::int("rank"),
        Column::text("player"),
        Column::text("name"),
    ];
    let mut keys: Vec<Key> = s.order.iter().map(|k| k.key).collect();
    for k in [
        Key::GamesWon,
        Key::AverageScore,
        Key::TotalScore,
        Key::TilesLeft,
        Key::BestGame,
    ] {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    columns.extend(keys.iter().map(|&k| key_column(k)));
    columns.push(Column::text("status"));
    let line = |e: &Entry| {
        let p = roster.get(e.player());
        let mut row = vec![
            e.rank.map_or(Value::Empty, |r| Value::Int(i64::from(r))),
            Value::text(&p.id),
            Value::text(&p.name),
        ];
        row.extend(keys.iter().map(|&k| key_cell(e, k)));
        row.push(match marks.status(e) {
            "" => Value::Empty,
            st => Value::text(st),
        });
        row
    };
    let p = roster.get(player);
    let mut notes = vec![order_note(s, scoring)];
    let rows = if let Some(i) = s.ranked.iter().position(|e| e.player() == player) {
        let mut rows = Vec::new();
        if i > 0 {
            rows.push(line(&s.ranked[i - 1]));
            notes.push(why(&s.ranked[i - 1], &s.ranked[i], s, roster, scoring));
        }
        rows.push(line(&s.ranked[i]));
        if let Some(next) = s.ranked.get(i + 1) {
            rows.push(line(next));
            notes.push(why(&s.ranked[i], next, s, roster, scoring));
        }
        rows
    } else {
        let e = s.apart.iter().find(|e| e.player() == player)?;
        let en = &super::words::EN;
        let said = match e.apart {
            Some(Apart::Withdrawn) => withdrawn_why(en, roster, player),
            _ => en.disqualified_why,
        };
        notes.push(super::words::fill(said, &[&p.id]));
        vec![line(e)]
    };
    Some(Table {
        name: "Explain".into(),
        title: format!("{} ({}) in the {} standings", p.id, p.name, s.stage),
        columns: headed(keyed(&columns, &s.order), scoring),
        rows,
        notes,
    })
}

/// Why `player`, withdrawn, is not ranked, in the words `w`: the roster
/// marks them withdrawn, else they played fewer games than a card has
/// (what [`crate::rules::standings`] sets apart as withdrawn).
pub fn withdrawn_why(w: &super::words::Words, roster: &Roster, player: PlayerId) -> &'static str {
    match roster.status(player) {
        crate::roster::Status::Withdrawn => w.withdrawn_roster_why,
        _ => w.withdrawn_short_why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Stage;
    use crate::roster::{Player, Status};
    use crate::rules::standings::rank;
    use crate::score::Score;

    /// The standings' columns say which of them decide the order, as the
    /// profile's tie-breaks name them (the terminal keeps those longest).
    #[test]
    fn the_key_columns_are_the_profiles_tie_breaks() {
        let keys = |profile: &str| -> Vec<(&str, u8)> {
            let order = crate::profile::by_name(profile).unwrap().order;
            let s = rank(
                std::iter::empty(),
                &Stage::prelim(),
                order,
                &Roster::default(),
            );
            let table = standings_table(
                &StandingsGoingOn::unmarked(s),
                &Roster::default(),
                "",
                Scoring::ZeroSum,
            );
            let keys = table
                .columns
                .iter()
                .filter_map(|c| c.key.map(|k| (c.name, k)));
            keys.collect()
        };
        assert_eq!(keys("hk"), [("won", 0), ("avg_score", 1), ("tiles", 2)]);
        assert_eq!(keys("nvso"), [("won", 1), ("total_score", 0)]);
    }

    /// A large table's rows made in chunks on two threads are the rows
    /// made on one, in the same order, the ranked ones and those listed
    /// apart, the last chunk short and one chunk holding both.
    #[test]
    fn rows_made_on_two_threads_are_the_rows_made_on_one() {
        use crate::report::{CHUNK_ROWS, TWO_THREADS_FROM};
        let n = TWO_THREADS_FROM + CHUNK_ROWS / 2 + 7;
        let mut roster = Roster::default();
        for i in 0..n {
            let mut player = Player::named(&format!("P{i:06}"), &format!("Player {i}"));
            if i % 97 == 0 {
                player.status = Status::Withdrawn;
            }
            roster.add(player).unwrap();
        }
        let tallies = (0..n as u32).map(|i| Tally {
            player: PlayerId(i),
            games: 3,
            won: i % 4,
            total: Score::whole(i64::from(i % 301) - 150),
            tiles: i % 40,
            withdrawn: false,
            best_game: None,
        });
        let order = crate::profile::by_name("hk").unwrap().order;
        let s = rank(tallies, &Stage::prelim(), order, &roster);
        assert!(!s.apart.is_empty() && s.ranked.len() % CHUNK_ROWS != 0);
        let s = StandingsGoingOn::unmarked(s);
        let one: Vec<Vec<Value>> = standings_rows(&s, &roster, None).collect();
        let chunks = standings_chunks(&s, &roster, None);
        assert_eq!(chunks.rows, n);
        let two: Vec<Vec<Value>> = std::thread::scope(|scope| {
            let rows = chunks.rows_in(scope);
            assert_eq!(rows.size_hint(), (n, Some(n)));
            rows.collect()
        });
        assert_eq!(one.len(), n);
        assert!(one == two, "the rows differ");
        // any range, as the chunks of a writer ask for them
        let ranked = s.standings.ranked.len();
        for range in [
            0..0,
            0..n,
            5..CHUNK_ROWS + 9,
            ranked - 3..ranked + 4,
            ranked..n,
        ] {
            let made = chunks.made(range.clone());
            assert!(made == one[range.clone()], "rows {range:?} differ");
        }
    }
}
