//! The roster: who may play, and how the cards name them.
//!
//! A card names a player by roster id, or by roster name when the name
//! matches exactly one entry; case and spacing are ignored (FORMATS.md).
//! Without a roster, players are known by what the cards say.

use crate::domain::PlayerId;
use crate::place::{Place, Source};
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Status {
    #[default]
    Active,
    Withdrawn,
    Disqualified,
}

/// The words a roster's `status` cell is read as, for each status (case,
/// spaces, `_`, `-` and `.` ignored: `W.D.` is `WD`): the one list that
/// both [`Status::parse`] and the message of a status that is none say.
/// (A blank cell is active too.)
pub const STATUS_WORDS: [(Status, &[&str]); 3] = [
    (Status::Active, &["active", "OK"]),
    (
        Status::Withdrawn,
        &["withdrawn", "W", "WD", "withdrew", "退出", "已退出"],
    ),
    (
        Status::Disqualified,
        &["disqualified", "DQ", "取消資格", "取消资格", "已取消資格"],
    ),
];

impl Status {
    pub fn parse(text: &str) -> Option<Status> {
        let n = crate::ingest::header::normalize(text);
        if n.is_empty() {
            return Some(Status::Active);
        }
        // (the words hold no space, `_`, `-` or `.`, and their letters are
        // ASCII: `n`, lower case, is compared to each as it is)
        STATUS_WORDS
            .iter()
            .find(|(_, words)| words.iter().any(|w| w.eq_ignore_ascii_case(&n)))
            .map(|(status, _)| *status)
    }

    /// What a roster's `status` cell may hold, for a message: `blank,
    /// withdrawn (or W, WD, ...) or disqualified (or DQ, ...)`, from
    /// [`STATUS_WORDS`].
    pub fn accepted() -> String {
        let each: Vec<String> = STATUS_WORDS
            .iter()
            .map(|(_, words)| format!("{} (or {})", words[0], words[1..].join(", ")))
            .collect();
        format!("blank, {}, {} or {}", each[0], each[1], each[2])
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: String,
    pub name: String,
    pub birth_date: Option<String>,
    pub age: Option<u32>,
    pub family: Option<String>,
    pub status: Status,
    pub group: Option<String>,
    /// Where the roster lists the player (none for players known by cards).
    pub place: Option<Place>,
}

impl Player {
    pub fn named(id: &str, name: &str) -> Player {
        Player {
            id: id.to_string(),
            name: name.to_string(),
            birth_date: None,
            age: None,
            family: None,
            status: Status::Active,
            group: None,
            place: None,
        }
    }
}

/// Why a name on a card does not name one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    Unknown,
    Ambiguous(Vec<PlayerId>),
}

/// Whether a text is its words with one space between them: no space
/// first or last, no two together, no other blank (`blank` says which
/// characters are).
fn spaced_once(chars: impl Iterator<Item = char>, blank: impl Fn(char) -> bool) -> bool {
    // (a space first is one space too many)
    let mut after_space = true;
    let mut any = false;
    for c in chars {
        any = true;
        if c == ' ' {
            if after_space {
                return false;
            }
            after_space = true;
        } else if blank(c) {
            return false;
        } else {
            after_space = false;
        }
    }
    !(any && after_space)
}

/// The text two names are compared by: lower case, no spaces at all.
pub fn match_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    match_key_into(text, &mut key);
    key
}

/// Whether `text` is its own match key (no spaces, no capitals, ASCII):
/// most ids.
fn is_own_key(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_graphic() && !b.is_ascii_uppercase())
}

/// [`match_key`] written into `key` (cleared first).
fn match_key_into(text: &str, key: &mut String) {
    key.clear();
    if is_own_key(text) {
        key.push_str(text); // already its own key
    } else if text.bytes().all(|b| b.is_ascii_graphic()) {
        key.push_str(text);
        key.make_ascii_lowercase();
    } else if text.is_ascii() {
        key.extend(
            text.bytes()
                .filter(|b| !b.is_ascii_whitespace() && *b != 0x0b)
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
    } else {
        key.extend(
            text.chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_lowercase),
        );
    }
}

/// The index of players by id: a table of player indexes only (4 bytes a
/// player; a million players' table is 10 MB, not the 19 it was with 32
/// bits of each hash beside the index). A look-up compares the ids the
/// table's 7-bit tag picks, nearly always the one looked for; growing the
/// table hashes each id again ([`IdIndex::hash_of`]), which room reserved
/// up front avoids for a roster read whole.
#[derive(Clone, Default)]
struct IdIndex {
    table: hashbrown::HashTable<PlayerId>,
    hasher: foldhash::fast::RandomState,
}

impl IdIndex {
    /// The table's hash of player `pid`, an entry or a learned player:
    /// its id's match key's, as [`NameHasher::hash`] makes it.
    fn hash_of(
        hasher: &foldhash::fast::RandomState,
        entries: &Entries,
        learned: &Learned,
        pid: PlayerId,
    ) -> u64 {
        key_hash(hasher, id_of(entries, learned, pid))
    }
}

impl std::fmt::Debug for IdIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IdIndex({} players)", self.table.len())
    }
}

/// The hash of `text`'s match key, as [`NameHasher::hash`] makes it (a
/// text not its own key: its key built in a text of its own).
fn key_hash(hasher: &foldhash::fast::RandomState, text: &str) -> u64 {
    key_hash_in(hasher, text, &mut String::new())
}

/// The hash of `text`'s match key, the key built in `scratch` only when
/// the text has a space or is not ASCII: a text of printable ASCII (every
/// id nearly, `P0000001`) is its key once lowered, and is lowered as it
/// is hashed.
fn key_hash_in(hasher: &foldhash::fast::RandomState, text: &str, scratch: &mut String) -> u64 {
    if text.bytes().all(|b| b.is_ascii_graphic()) {
        return hash_key_bytes(hasher, text.as_bytes(), true);
    }
    match_key_into(text, scratch);
    hash_key(hasher, scratch)
}

/// The hash of a match key.
fn hash_key(hasher: &foldhash::fast::RandomState, key: &str) -> u64 {
    hash_key_bytes(hasher, key.as_bytes(), false)
}

/// The one hash of a match key (of an id or a name): its bytes a word at
/// a time, and its length, by the roster's hasher. `lower`: the bytes are
/// printable ASCII, lowered first (their match key's bytes then). Made
/// word by word, not by hashing the key as a text: an id's key made in a
/// text of its own and then read was most of its hashing's cost (and the
/// processor waited to read it back whole: perf annotate).
fn hash_key_bytes(hasher: &foldhash::fast::RandomState, key: &[u8], lower: bool) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let lowered = |w: u64| if lower { lower_ascii_word(w) } else { w };
    let mut h = hasher.build_hasher();
    let (words, tail) = key.as_chunks::<8>();
    for w in words {
        h.write_u64(lowered(u64::from_le_bytes(*w)));
    }
    if !tail.is_empty() {
        let w = tail.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b));
        h.write_u64(lowered(w));
    }
    h.write_usize(key.len());
    h.finish()
}

/// The eight bytes of `w`, each ASCII (below 128), lowered: each of `A` to
/// `Z` gets the bit of its lower case (a byte at `A` or past it, and not
/// past `Z`, has its top bit set by the first sum and not by the second;
/// no sum carries into the next byte).
fn lower_ascii_word(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let from_a = w + (0x80 - u64::from(b'A')) * ONES;
    let past_z = w + (0x80 - u64::from(b'Z') - 1) * ONES;
    let upper = from_a & !past_z & (0x80 * ONES);
    w | (upper >> 2)
}

/// Whether `match_key(text) == key`, without building the match key.
fn key_matches(text: &str, key: &str) -> bool {
    if !text.is_ascii() {
        return match_key(text) == key;
    }
    let mut k = key.bytes();
    text.bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != 0x0b)
        .all(|b| k.next() == Some(b.to_ascii_lowercase()))
        && k.next().is_none()
}

/// Whether two texts have the same match key, without building them.
fn same_key(a: &str, b: &str) -> bool {
    // (an id is short: its bytes compared a word at a time, not by a call)
    if crate::ingest::lines::same_short_bytes(a.as_bytes(), b.as_bytes()) {
        return true;
    }
    if !(a.is_ascii() && b.is_ascii()) {
        return match_key(a) == match_key(b);
    }
    let keep = |x: &u8| !x.is_ascii_whitespace() && *x != 0x0b;
    let mut bs = b.bytes().filter(keep);
    a.bytes()
        .filter(keep)
        .all(|x| bs.next().is_some_and(|y| x.eq_ignore_ascii_case(&y)))
        && bs.next().is_none()
}

/// How a roster hashes names (see [`Roster::hasher`]).
#[derive(Clone)]
pub struct NameHasher(foldhash::fast::RandomState);

impl NameHasher {
    /// The hash of `text`'s match key (built in `scratch`).
    pub fn hash(&self, text: &str, scratch: &mut String) -> u64 {
        key_hash_in(&self.0, text, scratch)
    }
}

/// Which of `runs` (each from the entry it names on, in order) hold
/// entries of `range`.
fn runs_in<T>(runs: &[(u32, T)], range: &std::ops::Range<usize>) -> std::ops::Range<usize> {
    let from = runs.partition_point(|(first, _)| *first as usize <= range.start);
    from.saturating_sub(1)..runs.partition_point(|(first, _)| (*first as usize) < range.end)
}

/// Players an open roster learned from the cards: their ids (also their
/// names), one after another in one text, and the age group each was put
/// in. A million players cost some 20 bytes each, not a record each; a
/// full [`Player`] is made when one is asked for ([`Roster::get`]).
#[derive(Clone, Debug, Default)]
struct Learned {
    text: String,
    ends: Vec<u64>,
    groups: std::collections::HashMap<u32, String>,
}

impl Learned {
    fn id(&self, k: usize) -> &str {
        &self.text[self.span(k)]
    }

    /// Where player `k`'s id is in `text`.
    fn span(&self, k: usize) -> std::ops::Range<usize> {
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        start..self.ends[k] as usize
    }

    fn len(&self) -> usize {
        self.ends.len()
    }
}

/// The texts of an entry, in the order they follow each other in
/// [`Entries::text`].
const ID: usize = 0;
const NAME: usize = 1;
const BIRTH: usize = 2;
const FAMILY: usize = 3;
const GROUP: usize = 4;

/// One roster entry, packed: where its texts are, its birth date, age and
/// status (16 bytes; its texts follow each other in one shared text). What
/// does not fit (a text of 255 bytes or more, an age past 253, a shared
/// text past 4 GiB) is kept beside the records, in [`Wide`]; the line it
/// is listed on is kept in runs ([`Entries::lines`]).
#[derive(Clone, Copy, Debug)]
struct Rec {
    /// Where its texts begin in the shared text, less the 4 GiB steps
    /// [`Wide::steps`] counts.
    start: u32,
    /// The day of its birth date ([`date_day`]); [`IN_TEXT`]
    /// when the birth date is with its texts (or not given).
    born: u32,
    /// Byte lengths of the id, name, birth date, family and group; all
    /// [`LONG`] when one of them is that long or longer (the lengths are
    /// then in [`Wide::lens`]).
    lens: [u8; 5],
    /// Which of `lens` are given (a given text may be empty).
    given: u8,
    /// [`NO_AGE`]: no age given; [`WIDE_AGE`]: the age is in
    /// [`Wide::ages`].
    age: u8,
    status: Status,
}

const _: () = assert!(std::mem::size_of::<Rec>() == 16);

/// A [`Rec`]'s lengths are in [`Wide::lens`].
const LONG: u8 = u8::MAX;
/// A [`Rec`] without an age.
const NO_AGE: u8 = u8::MAX;
/// A [`Rec`] whose age is in [`Wide::ages`].
const WIDE_AGE: u8 = u8::MAX - 1;
/// A [`Rec`] whose birth date is with its texts, or not given.
const IN_TEXT: u32 = u32::MAX;

/// Birth dates written `YYYY-MM-DD` from 1900 to 2100 (as the roster's
/// reader writes every date it reads) are kept as the number of their day
/// ([`date_day`]), not as ten bytes each: the number says the text back
/// exactly ([`day_text`]), and is the same whoever reads it first, so the
/// threads that read a roster number its dates apart. A date written any
/// other way stays with the entry's texts.
const DATE_LEN: usize = 10;
const FIRST_YEAR: u32 = 1900;
const YEARS: u32 = 201;
/// Days a year has room for: 12 months of 31 (a day that no month has,
/// such as `2014-02-30`, still has a number, and reads back as written).
const YEAR_DAYS: u32 = 12 * 31;

/// The number of the day written `text`, when it is written `YYYY-MM-DD`
/// with a year, month and day in range.
fn date_day(text: &str) -> Option<u32> {
    let (y, m, d) = crate::rules::age_groups::written_ymd(text)?;
    let in_range = (FIRST_YEAR..FIRST_YEAR + YEARS).contains(&y)
        && (1..=12).contains(&m)
        && (1..=31).contains(&d);
    in_range.then(|| (y - FIRST_YEAR) * YEAR_DAYS + (m - 1) * 31 + (d - 1))
}

/// The text of day number `day` (of [`date_day`]): every day's ten bytes,
/// in one text made the first time a date is read back (730 KiB).
fn day_text(day: u32) -> &'static str {
    static DAYS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let days = DAYS.get_or_init(|| {
        // (digit by digit: the formatting machinery took 10 ms for these)
        let mut text = Vec::with_capacity((YEARS * YEAR_DAYS) as usize * DATE_LEN);
        let digit = |n: u32| b'0' + (n % 10) as u8;
        for y in FIRST_YEAR..FIRST_YEAR + YEARS {
            for m in 1..=12 {
                for d in 1..=31 {
                    text.extend_from_slice(&[
                        digit(y / 1000),
                        digit(y / 100),
                        digit(y / 10),
                        digit(y),
                        b'-',
                        digit(m / 10),
                        digit(m),
                        b'-',
                        digit(d / 10),
                        digit(d),
                    ]);
                }
            }
        }
        String::from_utf8(text).unwrap_or_default()
    });
    let start = day as usize * DATE_LEN;
    &days[start..start + DATE_LEN]
}

/// What the entries' records do not hold, for the few entries it concerns,
/// by entry in order (entries are only ever added at the end).
#[derive(Clone, Debug, Default)]
struct Wide {
    /// For each 4 GiB of the shared text, the first entry whose texts begin
    /// past it.
    steps: Vec<u32>,
    /// The byte lengths of the entries with a long text.
    lens: Vec<(u32, [u32; 5])>,
    /// The ages that do not fit a record.
    ages: Vec<(u32, u32)>,
}

/// The roster's entries, in its order: every text of every entry in one
/// text, and a fixed record each. A million players cost some 47 bytes
/// each (an id and a name, a record, the id index; their birth dates are
/// kept once for all who share them), not a record of strings each; a
/// full [`Player`] is made when one is asked for.
#[derive(Clone, Debug, Default)]
struct Entries {
    text: String,
    recs: Vec<Rec>,
    wide: Wide,
    /// The source of the entries from each index on (a roster may have
    /// several sheets): the file, sheet, of each entry's line.
    sources: Vec<(u32, Source)>,
    /// The lines the entries are listed on, in runs: from entry `first`
    /// on, entry `first + i` is on line `line + i` (line 0: the run's
    /// entries are on no line). A roster read from a file is one run, or
    /// a few where it has blank lines.
    lines: Vec<(u32, u32)>,
    /// The age groups the players were put in ([`Roster::set_group`]).
    groups: std::collections::HashMap<u32, String>,
}

impl Entries {
    fn len(&self) -> usize {
        self.recs.len()
    }

    /// Text `field` of entry `k`, when given.
    fn field(&self, k: usize, field: usize) -> Option<&str> {
        let born = self.recs[k].born;
        if field == BIRTH && born != IN_TEXT {
            return Some(day_text(born));
        }
        Some(&self.text[self.span(k, field)?])
    }

    /// The line entry `k` is listed on (0: none).
    fn line(&self, k: usize) -> u32 {
        let run = self
            .lines
            .partition_point(|&(first, _)| first as usize <= k);
        match run.checked_sub(1).map(|run| self.lines[run]) {
            Some((_, 0)) | None => 0,
            // (no overflow: a run goes on only while its lines do)
            Some((first, line)) => line + (k as u32 - first),
        }
    }

    /// Where text `field` of entry `k` is in `text`, when given.
    fn span(&self, k: usize, field: usize) -> Option<std::ops::Range<usize>> {
        let r = &self.recs[k];
        if r.given & (1 << field) == 0 {
            return None;
        }
        let (before, len) = if r.lens[0] == LONG {
            let lens = self.wide_lens(k);
            let before: usize = lens[..field].iter().map(|&l| l as usize).sum();
            (before, lens[field] as usize)
        } else {
            let before: usize = r.lens[..field].iter().map(|&l| usize::from(l)).sum();
            (before, usize::from(r.lens[field]))
        };
        let start = self.start(k) + before;
        Some(start..start + len)
    }

    /// Where entry `k`'s texts begin in `text`.
    fn start(&self, k: usize) -> usize {
        let low = self.recs[k].start as usize;
        if self.wide.steps.is_empty() {
            return low;
        }
        let steps = self
            .wide
            .steps
            .partition_point(|&first| first as usize <= k);
        ((steps as u64) << 32 | low as u64) as usize
    }

    /// The byte lengths of entry `k`'s texts.
    fn lens(&self, k: usize) -> [u32; 5] {
        let r = &self.recs[k];
        if r.lens[0] == LONG {
            self.wide_lens(k)
        } else {
            r.lens.map(u32::from)
        }
    }

    /// The lengths of entry `k`, one with a long text.
    fn wide_lens(&self, k: usize) -> [u32; 5] {
        let lens = &self.wide.lens;
        lens[lens.partition_point(|&(e, _)| (e as usize) < k)].1
    }

    /// The age of entry `k`, when given.
    fn age(&self, k: usize) -> Option<u32> {
        match self.recs[k].age {
            NO_AGE => None,
            WIDE_AGE => {
                let ages = &self.wide.ages;
                Some(ages[ages.partition_point(|&(e, _)| (e as usize) < k)].1)
            }
            age => Some(u32::from(age)),
        }
    }

    fn id(&self, k: usize) -> &str {
        self.first_text(k, ID)
    }

    fn name(&self, k: usize) -> &str {
        self.first_text(k, NAME)
    }

    /// Entry `k`'s id or name (`field`, one of the first two texts),
    /// blank when not given: read from its record alone when the record
    /// holds its lengths and start (nearly every entry), else by
    /// [`Entries::field`]. The id is read for every id looked up: by
    /// `field`, which sums the lengths before a field known only when it
    /// runs, it was 7% of the instructions of reading a roster.
    #[inline]
    fn first_text(&self, k: usize, field: usize) -> &str {
        debug_assert!(field == ID || field == NAME);
        let r = &self.recs[k];
        if r.lens[0] == LONG || !self.wide.steps.is_empty() {
            return self.field(k, field).unwrap_or_default();
        }
        if r.given & (1 << field) == 0 {
            return "";
        }
        let start = r.start as usize
            + if field == NAME {
                usize::from(r.lens[ID])
            } else {
                0
            };
        self.text
            .get(start..start + usize::from(r.lens[field]))
            .unwrap_or_default()
    }

    fn push(&mut self, p: Player) {
        let place = p.place.as_ref().map(|at| (&at.source, at.row.unwrap_or(0)));
        self.push_fields(&PlayerFields::of(&p), place);
    }

    /// Pushes an entry of values `p`, listed on line `row` of `source`
    /// (0: no line).
    fn push_fields(&mut self, p: &PlayerFields<'_>, place: Option<(&Source, u32)>) {
        let start = self.text.len();
        let born = p.birth_date.and_then(date_day);
        let birth_date = p.birth_date.filter(|_| born.is_none());
        let texts = [Some(p.id), Some(p.name), birth_date, p.family, p.group];
        let mut lens = [0u32; 5];
        let mut given = u8::from(born.is_some()) << BIRTH;
        for (i, t) in texts.iter().enumerate() {
            if let Some(t) = t {
                self.text.push_str(t);
                // (a text is one cell: well under 4 GiB)
                lens[i] = u32::try_from(t.len()).unwrap_or(u32::MAX);
                given |= 1 << i;
            }
        }
        let row = match place {
            Some((source, row)) => {
                self.note_source(self.recs.len() as u32, source);
                row
            }
            None => 0,
        };
        self.push_rec(start, lens, given, born, row, p.age, p.status);
    }

    /// Appends entry `k` of `other`, its texts copied as they lie.
    fn push_from(&mut self, other: &Entries, k: usize) {
        let r = other.recs[k];
        let lens = other.lens(k);
        let from = other.start(k);
        let len: usize = lens.iter().map(|&l| l as usize).sum();
        let start = self.text.len();
        self.text.push_str(&other.text[from..from + len]);
        if let Some((source, _)) = other.listed(k) {
            self.note_source(self.recs.len() as u32, source);
        }
        let born = (r.born != IN_TEXT).then_some(r.born);
        self.push_rec(
            start,
            lens,
            r.given,
            born,
            other.line(k),
            other.age(k),
            r.status,
        );
    }

    /// Notes that entry `k` (the next) is listed on line `row` (0: none),
    /// which goes on the last run of lines or begins one.
    fn note_line(&mut self, k: u32, row: u32) {
        let follows = self.lines.last().is_some_and(|&(first, line)| match line {
            0 => row == 0,
            line => u64::from(line) + u64::from(k - first) == u64::from(row),
        });
        if !follows {
            self.lines.push((k, row));
        }
    }

    /// Notes that entry `k` (the next) is listed in `source`.
    fn note_source(&mut self, k: u32, source: &Source) {
        if self.sources.last().is_none_or(|(_, s)| s != source) {
            self.sources.push((k, source.clone()));
        }
    }

    /// Whether [`Entries::append`] can append entries of `other`: neither
    /// has a text past 4 GiB, and `other` no long text or large age.
    fn appends(&self, other: &Entries) -> bool {
        let wide = &other.wide;
        wide.steps.is_empty()
            && wide.lens.is_empty()
            && wide.ages.is_empty()
            && (self.text.len() as u64 + other.text.len() as u64) < 1 << 32
    }

    /// Appends entries `range` of `other` (which [`Entries::appends`]) as
    /// they lie: their texts in one copy, their records moved along, their
    /// runs of lines and sources joined to these.
    fn append(&mut self, other: &Entries, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        let from = other.start(range.start);
        let to = match other.recs.get(range.end) {
            Some(_) => other.start(range.end),
            None => other.text.len(),
        };
        // (both texts under 4 GiB: a start is its offset)
        let moved = (self.text.len() as u32).wrapping_sub(from as u32);
        self.text.push_str(&other.text[from..to]);
        let k0 = self.recs.len();
        // the entry of `other` that begins each of its runs within range
        let at = |first: u32| (first as usize).max(range.start);
        for &(first, line) in &other.lines[runs_in(&other.lines, &range)] {
            let k = at(first);
            let row = if line == 0 {
                0
            } else {
                line + (k as u32 - first)
            };
            self.note_line((k0 + k - range.start) as u32, row);
        }
        for (first, source) in &other.sources[runs_in(&other.sources, &range)] {
            self.note_source((k0 + at(*first) - range.start) as u32, source);
        }
        self.recs.extend(other.recs[range].iter().map(|r| Rec {
            start: r.start.wrapping_add(moved),
            ..*r
        }));
    }

    /// Appends the record of an entry whose texts, of byte lengths `lens`,
    /// begin at `start` in `text`, and whose birth date is day `born`
    /// ([`date_day`]; `None`: with its texts, or not given).
    #[allow(clippy::too_many_arguments)]
    fn push_rec(
        &mut self,
        start: usize,
        lens: [u32; 5],
        given: u8,
        born: Option<u32>,
        row: u32,
        age: Option<u32>,
        status: Status,
    ) {
        let k = self.recs.len() as u32;
        self.note_line(k, row);
        while (self.wide.steps.len() as u64) < (start as u64 >> 32) {
            self.wide.steps.push(k);
        }
        let lens = if lens.iter().all(|&l| l < u32::from(LONG)) {
            lens.map(|l| l as u8)
        } else {
            self.wide.lens.push((k, lens));
            [LONG; 5]
        };
        let age = match age {
            None => NO_AGE,
            Some(age) if age < u32::from(WIDE_AGE) => age as u8,
            Some(age) => {
                self.wide.ages.push((k, age));
                WIDE_AGE
            }
        };
        self.recs.push(Rec {
            // the low 32 bits: the rest are counted by `wide.steps`
            start: start as u32,
            born: born.unwrap_or(IN_TEXT),
            lens,
            given,
            age,
            status,
        });
    }

    /// Entry `k`'s values, borrowed.
    fn fields(&self, k: usize) -> PlayerFields<'_> {
        let r = &self.recs[k];
        PlayerFields {
            id: self.id(k),
            name: self.name(k),
            birth_date: self.field(k, BIRTH),
            age: self.age(k),
            family: self.field(k, FAMILY),
            status: r.status,
            group: match self.groups.get(&(k as u32)) {
                Some(g) => Some(g),
                None => self.field(k, GROUP),
            },
        }
    }

    /// Where entry `k` is listed: its source and line, when it has one.
    fn listed(&self, k: usize) -> Option<(&Source, u32)> {
        let line = self.line(k);
        (line > 0).then(|| {
            let at = self
                .sources
                .partition_point(|(first, _)| *first as usize <= k);
            (&self.sources[at - 1].1, line)
        })
    }

    fn player(&self, k: usize) -> Player {
        let place = self.listed(k).map(|(source, row)| source.at(row, None));
        self.fields(k).player(place)
    }
}

/// A player's values as the roster holds them, borrowed (what a
/// [`Player`] is made of, without its place).
#[derive(Clone, Copy, Debug)]
pub struct PlayerFields<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub birth_date: Option<&'a str>,
    pub age: Option<u32>,
    pub family: Option<&'a str>,
    pub status: Status,
    pub group: Option<&'a str>,
}

impl<'a> PlayerFields<'a> {
    /// The values of `p`, borrowed.
    pub fn of(p: &'a Player) -> PlayerFields<'a> {
        PlayerFields {
            id: &p.id,
            name: &p.name,
            birth_date: p.birth_date.as_deref(),
            age: p.age,
            family: p.family.as_deref(),
            status: p.status,
            group: p.group.as_deref(),
        }
    }

    fn player(&self, place: Option<Place>) -> Player {
        Player {
            id: self.id.to_string(),
            name: self.name.to_string(),
            birth_date: self.birth_date.map(str::to_string),
            age: self.age,
            family: self.family.map(str::to_string),
            status: self.status,
            group: self.group.map(str::to_string),
            place,
        }
    }
}

/// Roster entries by the match key of their name: a table of the first
/// entry of each name, and for each entry the next of the same name. Built
/// when a name is first looked up: cards that name players by id never
/// need it.
#[derive(Clone, Debug, Default)]
struct NameIndex {
    first: hashbrown::HashTable<u32>,
    next: Vec<u32>,
}

/// No next entry of the same name.
const END: u32 = u32::MAX;

impl NameIndex {
    fn build(entries: &Entries, hasher: &foldhash::fast::RandomState) -> NameIndex {
        let mut index = NameIndex {
            first: hashbrown::HashTable::with_capacity(entries.len()),
            next: vec![END; entries.len()],
        };
        let mut key = String::new();
        // from the last entry to the first, each put before the others of
        // its name: each name's entries in the roster's order
        for k in (0..entries.len()).rev() {
            match_key_into(entries.name(k), &mut key);
            let hash = hash_key(hasher, &key);
            match index
                .first
                .find_mut(hash, |&f| key_matches(entries.name(f as usize), &key))
            {
                Some(first) => {
                    index.next[k] = *first;
                    *first = k as u32;
                }
                None => {
                    index.first.insert_unique(hash, k as u32, |&f| {
                        hash_key(hasher, &match_key(entries.name(f as usize)))
                    });
                }
            }
        }
        index
    }

    /// The entries whose name has the match key `key`, in roster order.
    fn get(
        &self,
        entries: &Entries,
        hasher: &foldhash::fast::RandomState,
        key: &str,
    ) -> Vec<PlayerId> {
        let Some(&first) = self.first.find(hash_key(hasher, key), |&f| {
            key_matches(entries.name(f as usize), key)
        }) else {
            return Vec::new();
        };
        let mut found = vec![PlayerId(first)];
        let mut k = first;
        while self.next[k as usize] != END {
            k = self.next[k as usize];
            found.push(PlayerId(k));
        }
        found
    }
}

/// Players read, packed as a roster keeps them, to be added in order by
/// [`Roster::add_batch`]: threads read a roster into batches, their ids
/// hashed, while another adds them, and what moves between them is a few
/// buffers a batch, not a text per field.
pub struct Batch {
    entries: Entries,
    /// The hash of each player's id, by the roster's [`NameHasher`].
    hashes: Vec<u64>,
    hasher: NameHasher,
    scratch: String,
}

impl Batch {
    /// An empty batch for a roster that hashes ids by `hasher` (its
    /// [`Roster::hasher`]).
    pub fn new(hasher: NameHasher) -> Batch {
        Batch {
            entries: Entries::default(),
            hashes: Vec::new(),
            hasher,
            scratch: String::new(),
        }
    }

    /// Adds a player of values `player`, listed on line `row` of `source`.
    pub fn push(&mut self, player: &PlayerFields<'_>, source: &Source, row: u32) {
        self.hashes
            .push(self.hasher.hash(player.id, &mut self.scratch));
        self.entries.push_fields(player, Some((source, row)));
    }

    /// Makes room for the players of `bytes` bytes of lines (some 16
    /// bytes a line, or more: it grows if there are more).
    pub fn reserve(&mut self, bytes: usize) {
        self.entries.text.reserve(bytes);
        self.entries.recs.reserve(bytes / 16);
        self.hashes.reserve(bytes / 16);
    }

    /// Empties the batch, keeping its room (a batch used again is not
    /// memory the system must give and clear again).
    pub fn clear(&mut self) {
        let e = &mut self.entries;
        let (mut text, mut recs) = (std::mem::take(&mut e.text), std::mem::take(&mut e.recs));
        text.clear();
        recs.clear();
        *e = Entries {
            text,
            recs,
            ..Entries::default()
        };
        self.hashes.clear();
    }

    /// Moves the batch's players down `by` lines: a part of a file read
    /// with its lines counted from the part's start, listed where they are
    /// in the file.
    pub fn move_lines(&mut self, by: u32) {
        for (_, line) in &mut self.entries.lines {
            if *line > 0 {
                *line = line.saturating_add(by);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Player `k` of the batch, as pushed.
    pub fn player(&self, k: usize) -> Player {
        self.entries.player(k)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Roster {
    /// The roster's entries, in its order; the players an open roster
    /// learned come after them (ids `entries.len()..`).
    entries: Entries,
    learned: Learned,
    /// Players by the match key of their id. The table holds indexes only:
    /// the key is the player's own id, compared without a copy.
    by_id: IdIndex,
    /// Roster entries by name, built when first needed. Players an open
    /// roster learns from the cards are not here: their name is their id,
    /// found by `by_id`.
    by_name: std::sync::OnceLock<NameIndex>,
    /// No roster was given: any name on a card is a player.
    open: bool,
    /// A roster was given and could not be read (or held no roster): open,
    /// and nothing that needs the roster is checked ([`Roster::unread`]).
    unread: bool,
    /// A buffer for match keys.
    scratch: String,
}

impl Roster {
    /// A roster that grows from the cards.
    pub fn open() -> Roster {
        Roster {
            open: true,
            ..Roster::default()
        }
    }

    /// The roster of a roster file given that could not be read, or held
    /// no roster (said at the file): open, so that the cards' own checks
    /// still run, their players known by what the cards say; nothing that
    /// needs the roster is checked (a player on it, ages and age groups,
    /// the players the settings name), as that would only repeat that the
    /// roster could not be read, a player at a time (docs/formats.md).
    pub fn unread() -> Roster {
        Roster {
            unread: true,
            ..Roster::open()
        }
    }

    /// Whether this is the roster of a roster file that could not be read
    /// ([`Roster::unread`]).
    pub fn is_unread(&self) -> bool {
        self.unread
    }

    /// The player whose id has the match key `key`.
    fn find_id(&self, key: &str) -> Option<PlayerId> {
        self.by_id
            .table
            .find(hash_key(&self.by_id.hasher, key), |&p| {
                key_matches(self.id(p), key)
            })
            .copied()
    }

    /// Indexes the player `pid` (already an entry or learned) by its id's
    /// match key's hash `hash`.
    fn index_id(&mut self, hash: u64, pid: PlayerId) {
        let Roster {
            by_id,
            entries,
            learned,
            ..
        } = self;
        by_id.table.insert_unique(hash, pid, |&p| {
            IdIndex::hash_of(&by_id.hasher, entries, learned, p)
        });
    }

    /// Roster entries whose name has the match key `key`.
    fn named(&self, key: &str) -> Vec<PlayerId> {
        if self.entries.len() == 0 {
            return Vec::new();
        }
        self.by_name
            .get_or_init(|| NameIndex::build(&self.entries, &self.by_id.hasher))
            .get(&self.entries, &self.by_id.hasher, key)
    }

    /// Makes room for `additional` more players without regrowing (an
    /// open roster: players it will learn, of some `id_bytes` each).
    pub fn reserve(&mut self, additional: usize) {
        if self.open {
            self.learned.ends.reserve(additional);
        } else {
            self.entries.recs.reserve(additional);
        }
        let Roster {
            by_id,
            entries,
            learned,
            ..
        } = self;
        by_id.table.reserve(additional, |&p| {
            IdIndex::hash_of(&by_id.hasher, entries, learned, p)
        });
    }

    /// Gives back the room the entries grew into and do not use (a roster
    /// read whole, to be kept while the cards are read, or copied).
    pub fn shrink_to_fit(&mut self) {
        self.entries.text.shrink_to_fit();
        self.entries.recs.shrink_to_fit();
    }

    /// Makes room for `bytes` more bytes of the entries' texts, exactly (a
    /// stored roster, whose size is known before it is read; its birth
    /// dates are counted, though most are kept apart: room never touched
    /// is never in memory).
    pub fn reserve_entry_text(&mut self, bytes: usize) {
        self.entries.text.reserve_exact(bytes);
    }

    /// Makes room for `bytes` more bytes of learned ids.
    pub fn reserve_text(&mut self, bytes: usize) {
        if self.open {
            self.learned.text.reserve(bytes);
        }
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Adds a player; `Err` with the one already there when the id is taken.
    pub fn add(&mut self, player: Player) -> Result<PlayerId, PlayerId> {
        let place = player
            .place
            .as_ref()
            .map(|at| (&at.source, at.row.unwrap_or(0)));
        self.add_fields(&PlayerFields::of(&player), place)
    }

    /// As [`Roster::add`], the player's values borrowed (no [`Player`] of
    /// texts made for each of a stored roster's million) and listed on line
    /// `row` of `source`, when `place` is given.
    pub fn add_fields(
        &mut self,
        player: &PlayerFields<'_>,
        place: Option<(&Source, u32)>,
    ) -> Result<PlayerId, PlayerId> {
        let mut id_key = std::mem::take(&mut self.scratch);
        let hash = self.hasher().hash(player.id, &mut id_key);
        self.scratch = id_key;
        self.add_fields_hashed(player, place, hash)
    }

    /// As [`Roster::add_fields`], `hash` being the hash of the player's id
    /// by [`Roster::hasher`] (hashed ahead, so that the index is read for
    /// a few players at once: see [`Roster::warm`]).
    pub fn add_fields_hashed(
        &mut self,
        player: &PlayerFields<'_>,
        place: Option<(&Source, u32)>,
        hash: u64,
    ) -> Result<PlayerId, PlayerId> {
        self.add_hashed(player.id, hash, |entries| {
            entries.push_fields(player, place)
        })
    }

    /// Adds the players of `batch` in order, as [`Roster::add`] adds each:
    /// `taken(k, first)` for each player `k` whose id is taken (that player
    /// is not added), `first` being the player who has it.
    pub fn add_batch(&mut self, batch: &Batch, mut taken: impl FnMut(usize, Cow<'_, Player>)) {
        self.entries.recs.reserve(batch.len());
        let mut k = 0;
        while k < batch.len() {
            // the players up to one whose id is taken, added together
            let till = self.index_batch(batch, k);
            if till > k {
                self.entries.append(&batch.entries, k..till);
                self.by_name.take();
                k = till;
                continue;
            }
            // one by one: a player whose id is taken (not added), or any
            // that cannot be appended as it lies
            let added = self.add_hashed(batch.entries.id(k), batch.hashes[k], |entries| {
                entries.push_from(&batch.entries, k)
            });
            if let Err(first) = added {
                taken(k, self.get(first));
            }
            k += 1;
        }
    }

    /// Indexes the players of `batch` from `from` on as if appended after
    /// the entries, up to one whose id is taken (by an entry or one of
    /// them): where that one is, or the batch's end. `from` when the batch
    /// cannot be appended as it lies ([`Entries::appends`]), or players
    /// learned from cards are to become entries first.
    fn index_batch(&mut self, batch: &Batch, from: usize) -> usize {
        if self.learned.len() > 0 || !self.entries.appends(&batch.entries) {
            return from;
        }
        let n = self.entries.len();
        let Roster {
            by_id: IdIndex { table, hasher },
            entries,
            ..
        } = self;
        // (player `n + i` is the batch's `from + i`)
        let id_at = |p: &PlayerId| match p.index().checked_sub(n) {
            None => entries.id(p.index()),
            Some(i) => batch.entries.id(from + i),
        };
        for k in from..batch.len() {
            warm_ahead(k, &batch.hashes, |&h| {
                std::hint::black_box(table.find(h, |_| true).copied());
            });
            // (the id is read only to compare with one of the same hash's
            // tag: read for every player, it waited on the reading thread's
            // writes, a cache away)
            let found = table.entry(
                batch.hashes[k],
                |p| same_key(id_at(p), batch.entries.id(k)),
                |p| key_hash(hasher, id_at(p)),
            );
            match found {
                hashbrown::hash_table::Entry::Occupied(_) => return k,
                hashbrown::hash_table::Entry::Vacant(vacant) => {
                    vacant.insert(PlayerId((n + k - from) as u32));
                }
            }
        }
        batch.len()
    }

    /// Adds a player of id `id` (its hash `hash`) by `push`, which appends
    /// its entry; `Err` with the one already there when the id is taken.
    /// The one way a player is added.
    fn add_hashed(
        &mut self,
        id: &str,
        hash: u64,
        push: impl FnOnce(&mut Entries),
    ) -> Result<PlayerId, PlayerId> {
        let Roster {
            by_id: IdIndex { table, hasher },
            entries,
            learned,
            by_name,
            ..
        } = self;
        // (one look in the index, which says where the id goes when it is
        // not there)
        let found = table.entry(
            hash,
            |&p| same_key(id_of(entries, learned, p), id),
            |&p| IdIndex::hash_of(hasher, entries, learned, p),
        );
        let vacant = match found {
            hashbrown::hash_table::Entry::Occupied(taken) => return Err(*taken.get()),
            hashbrown::hash_table::Entry::Vacant(vacant) => vacant,
        };
        if learned.len() > 0 {
            // entries come first: the learned players become entries
            let learned = std::mem::take(learned);
            for k in 0..learned.len() {
                let mut p = Player::named(learned.id(k), learned.id(k));
                p.group = learned.groups.get(&(k as u32)).cloned();
                entries.push(p);
            }
        }
        by_name.take();
        let pid = PlayerId(entries.len() as u32);
        push(entries);
        vacant.insert(pid);
        Ok(pid)
    }

    /// The player a text names: an id, else a name that matches one entry,
    /// else a name with its id as printed cards have it, `Chan Tai Man
    /// (P0314)`.
    pub fn find(&self, text: &str) -> Result<PlayerId, Unresolved> {
        match self.find_key(&match_key(text)) {
            Err(Unresolved::Unknown) => self.find_name_with_id(text).ok_or(Unresolved::Unknown),
            found => found,
        }
    }

    fn find_key(&self, key: &str) -> Result<PlayerId, Unresolved> {
        if let Some(pid) = self.find_id(key) {
            return Ok(pid);
        }
        one_of(self.named(key))
    }

    /// The player a card's text names, as [`Roster::find`]; an open roster
    /// adds a player it does not know.
    pub fn resolve(&mut self, text: &str) -> Result<PlayerId, Unresolved> {
        let mut key = std::mem::take(&mut self.scratch);
        let hash = self.hasher().hash(text, &mut key);
        self.scratch = key;
        self.resolve_hashed(text, hash)
    }

    /// How this roster hashes names: threads that prepare names hash them
    /// beforehand for [`Roster::resolve_hashed`].
    pub fn hasher(&self) -> NameHasher {
        NameHasher(self.by_id.hasher.clone())
    }

    /// Reads the id index where a name of hash `hash` (by
    /// [`Roster::hasher`]) is looked for, and changes nothing: called for
    /// a batch of names before they are resolved one by one, its reads of
    /// a large index (a million players: far past the processor's caches)
    /// wait for memory together rather than one after another.
    pub fn warm(&self, hash: u64) {
        // (the player found is read, not only where it is: the index's
        // entries lie apart from its control bytes)
        std::hint::black_box(self.by_id.table.find(hash, |_| true).copied());
    }

    /// As [`Roster::resolve`], `hash` being the name's hash by
    /// [`Roster::hasher`].
    pub fn resolve_hashed(&mut self, text: &str, hash: u64) -> Result<PlayerId, Unresolved> {
        let by_id = self.by_id.table.find(hash, |&p| same_key(self.id(p), text));
        let found = match by_id {
            Some(&pid) => Ok(pid),
            // no entries, no name to match (and no key to make: an open
            // roster learns a million ids this way)
            None if self.entries.len() == 0 => {
                self.find_name_with_id(text).ok_or(Unresolved::Unknown)
            }
            None => match one_of(self.named(&match_key(text))) {
                Err(Unresolved::Unknown) => self.find_name_with_id(text).ok_or(Unresolved::Unknown),
                found => found,
            },
        };
        if !(self.open && found == Err(Unresolved::Unknown)) {
            return found;
        }
        // spaces as one: the common case, a text without any, is copied as is
        // (one pass: a million names learned, where a search for two
        // spaces cost a quarter of the learning)
        let single = if text.is_ascii() {
            spaced_once(text.bytes().map(char::from), |c| c.is_ascii_whitespace())
        } else {
            spaced_once(text.chars(), char::is_whitespace)
        };
        let pid = PlayerId((self.entries.len() + self.learned.len()) as u32);
        if single {
            self.learned.text.push_str(text);
        } else {
            let mut words = text.split_whitespace();
            if let Some(first) = words.next() {
                self.learned.text.push_str(first);
            }
            for w in words {
                self.learned.text.push(' ');
                self.learned.text.push_str(w);
            }
        }
        self.learned.ends.push(self.learned.text.len() as u64);
        self.index_id(hash, pid);
        Ok(pid)
    }

    /// How a printed card names the player, for people and so that it
    /// reads back: the name when no other roster entry shares it, else the
    /// name with the id, `Chan Tai Man (P0314)` (see [`Roster::find`]).
    pub fn card_name(&self, pid: PlayerId) -> String {
        let p = self.get(pid);
        let key = match_key(&p.name);
        if key.is_empty() {
            return p.id.clone();
        }
        if match_key(&p.id) == key {
            // A player known by what the cards say: the name is the id.
            return p.name.clone();
        }
        match self.named(&key).len() {
            1 if self.find_id(&key).is_none_or(|other| other == pid) => p.name.clone(),
            _ => format!("{} ({})", p.name.trim(), p.id),
        }
    }

    /// `Chan Tai Man (P0314)`: the player of that id, when the name is that
    /// player's.
    fn find_name_with_id(&self, text: &str) -> Option<PlayerId> {
        // (the common case at once: a text that ends in a printable ASCII
        // character other than the parenthesis, an id such as `P0314`)
        if text
            .as_bytes()
            .last()
            .is_some_and(|&c| c != b')' && c.is_ascii_graphic())
        {
            return None;
        }
        if !text.trim_end().ends_with(')') {
            return None;
        }
        let (name, id) = text.trim().strip_suffix(')')?.rsplit_once('(')?;
        let pid = self.find_id(&match_key(id))?;
        (match_key(&self.get(pid).name) == match_key(name)).then_some(pid)
    }

    /// Records the age group the player plays in.
    pub fn set_group(&mut self, pid: PlayerId, group: &str) {
        match pid.index().checked_sub(self.entries.len()) {
            None => {
                self.entries.groups.insert(pid.0, group.to_string());
            }
            Some(k) => {
                self.learned.groups.insert(k as u32, group.to_string());
            }
        }
    }

    /// The player's entry, made from the roster's record, or for a player
    /// the cards taught an open roster (its id is its name).
    pub fn get(&self, pid: PlayerId) -> Cow<'_, Player> {
        match pid.index().checked_sub(self.entries.len()) {
            None => Cow::Owned(self.entries.player(pid.index())),
            Some(_) => Cow::Owned(self.fields(pid).player(None)),
        }
    }

    /// The player's values, borrowed: as [`Roster::get`] gives them,
    /// without the place, and without making an entry.
    pub fn fields(&self, pid: PlayerId) -> PlayerFields<'_> {
        match pid.index().checked_sub(self.entries.len()) {
            None => self.entries.fields(pid.index()),
            Some(k) => {
                let id = self.learned.id(k);
                PlayerFields {
                    id,
                    name: id,
                    birth_date: None,
                    age: None,
                    family: None,
                    status: Status::Active,
                    group: self.learned.groups.get(&(k as u32)).map(String::as_str),
                }
            }
        }
    }

    /// The player's id, without making an entry.
    pub fn id(&self, pid: PlayerId) -> &str {
        id_of(&self.entries, &self.learned, pid)
    }

    /// The player's name, without making an entry.
    pub fn name(&self, pid: PlayerId) -> &str {
        match pid.index().checked_sub(self.entries.len()) {
            None => self.entries.name(pid.index()),
            Some(k) => self.learned.id(k),
        }
    }

    /// The ids and names of `pids`, as [`Roster::id`] and [`Roster::name`]
    /// give them, read together: where each player's texts are first, then
    /// the texts, so that the reads of players far apart in the roster
    /// overlap instead of each waiting for the one before.
    pub fn ids_and_names(&self, pids: &[PlayerId]) -> Vec<(&str, &str)> {
        type Span = Option<std::ops::Range<usize>>;
        let spans: Vec<(bool, Span, Span)> = pids
            .iter()
            .map(|&pid| match pid.index().checked_sub(self.entries.len()) {
                None => (
                    false,
                    self.entries.span(pid.index(), ID),
                    self.entries.span(pid.index(), NAME),
                ),
                Some(k) => (true, Some(self.learned.span(k)), Some(self.learned.span(k))),
            })
            .collect();
        spans
            .into_iter()
            .map(|(learned, id, name)| {
                let text = if learned {
                    &self.learned.text
                } else {
                    &self.entries.text
                };
                let of = |span: Span| span.map_or("", |s| &text[s]);
                (of(id), of(name))
            })
            .collect()
    }

    /// The age group the player plays in (as [`Roster::set_group`] put
    /// them, else as the roster gives it), without making an entry.
    pub fn group(&self, pid: PlayerId) -> Option<&str> {
        match pid.index().checked_sub(self.entries.len()) {
            None => match self.entries.groups.get(&pid.0) {
                Some(g) => Some(g),
                None => self.entries.field(pid.index(), GROUP),
            },
            Some(k) => self.learned.groups.get(&(k as u32)).map(String::as_str),
        }
    }

    /// Sets a roster player's status (a player the cards taught an open
    /// roster has none to set).
    pub fn set_status(&mut self, pid: PlayerId, status: Status) {
        if let Some(r) = self.entries.recs.get_mut(pid.index()) {
            r.status = status;
        }
    }

    /// The player's status, without making an entry.
    pub fn status(&self, pid: PlayerId) -> Status {
        self.entries
            .recs
            .get(pid.index())
            .map_or(Status::Active, |r| r.status)
    }

    pub fn len(&self) -> usize {
        self.entries.len() + self.learned.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, Cow<'_, Player>)> {
        (0..self.len() as u32).map(|i| (PlayerId(i), self.get(PlayerId(i))))
    }
}

/// One player, or why the players found are not one.
fn one_of(found: Vec<PlayerId>) -> Result<PlayerId, Unresolved> {
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(Unresolved::Unknown),
        _ => Err(Unresolved::Ambiguous(found)),
    }
}

/// The id of `pid`: an entry's, or a learned player's.
fn id_of<'a>(entries: &'a Entries, learned: &'a Learned, pid: PlayerId) -> &'a str {
    match pid.index().checked_sub(entries.len()) {
        None => entries.id(pid.index()),
        Some(k) => learned.id(k),
    }
}

/// How many items ahead of the one named [`warm_ahead`] reads the index
/// for, and how many it reads for at once.
pub const WARM_AHEAD: usize = 16;

/// Before item `i` of `items` is named, reads the id index for those some
/// [`WARM_AHEAD`] after it, by `warm` (see [`Roster::warm`]): at the first
/// item for the first two bursts, then at every [`WARM_AHEAD`]th for the
/// next. A burst's reads are made one right after another, so that they
/// wait for memory together: a read made between two items' work waits
/// alone (a million players, profiled: the reads of a roster's index were
/// most of the time its thread spent adding them, till they came in
/// bursts).
#[inline]
pub fn warm_ahead<T>(i: usize, items: &[T], mut warm: impl FnMut(&T)) {
    if !i.is_multiple_of(WARM_AHEAD) {
        return;
    }
    let from = if i == 0 { 0 } else { i + WARM_AHEAD };
    for item in items.iter().skip(from).take(i + 2 * WARM_AHEAD - from) {
        warm(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text hashes as its match key does, whatever its length, case,
    /// spaces or script: the lowering a word at a time is the key's.
    #[test]
    fn a_text_hashes_as_its_match_key() {
        let hasher = foldhash::fast::RandomState::default();
        let mut scratch = String::new();
        let mut texts: Vec<String> = ["", "P0000001", "p0000001", "HK-2026-0001", "Chan Tai Man"]
            .map(String::from)
            .to_vec();
        texts.extend(
            ["陳大文", "ÉLODIE", "a\tb", "AZaz@[`{", "ZZZZZZZZZZZZZZZZZ"].map(String::from),
        );
        // every length about the words, capitals at every place
        texts.extend((0..20).map(|n| (0..n).map(|i| if i % 3 == 0 { 'Q' } else { '7' }).collect()));
        for t in &texts {
            assert_eq!(
                key_hash_in(&hasher, t, &mut scratch),
                hash_key(&hasher, &match_key(t)),
                "{t:?}"
            );
        }
        assert_ne!(key_hash(&hasher, "P1"), key_hash(&hasher, "P10"));
        assert_ne!(key_hash(&hasher, "P1"), key_hash(&hasher, "P1\0"));
    }

    /// A word's bytes are lowered as each byte is, for every ASCII byte at
    /// every place in the word.
    #[test]
    fn a_word_is_lowered_as_its_bytes_are() {
        for b in 0u8..128 {
            for at in 0..8 {
                let mut bytes = [b'q'; 8];
                bytes[at] = b;
                let lowered = lower_ascii_word(u64::from_le_bytes(bytes)).to_le_bytes();
                assert_eq!(
                    lowered,
                    bytes.map(|c| c.to_ascii_lowercase()),
                    "{b} at {at}"
                );
            }
        }
    }

    #[test]
    fn a_learned_name_is_copied_as_is_only_when_its_spaces_are_single() {
        // the meaning spelled out: no blank first or last, no two spaces,
        // no blank but a space (ASCII text: the ASCII blanks only)
        let by_the_letter = |t: &str| {
            if t.is_ascii() {
                !t.bytes().any(|b| b.is_ascii_whitespace() && b != b' ')
                    && !t.starts_with(' ')
                    && !t.ends_with(' ')
                    && !t.contains("  ")
            } else {
                !t.starts_with(char::is_whitespace)
                    && !t.ends_with(char::is_whitespace)
                    && !t.contains(|c: char| c.is_whitespace() && c != ' ')
                    && !t.contains("  ")
            }
        };
        for t in [
            "",
            " ",
            "  ",
            "a",
            "a b",
            "a  b",
            " a",
            "a ",
            "a\tb",
            "a\x0bb",
            "P0000001",
            "Ana María",
            "Ana  María",
            " Ana María",
            "Ana María ",
            "Ana\u{3000}María",
            "Ana\u{a0}María",
            "Ana\x0bMaría",
            "陳大文",
        ] {
            let spaced = if t.is_ascii() {
                spaced_once(t.bytes().map(char::from), |c| c.is_ascii_whitespace())
            } else {
                spaced_once(t.chars(), char::is_whitespace)
            };
            assert_eq!(spaced, by_the_letter(t), "{t:?}");
        }
    }

    #[test]
    fn warm_ahead_reads_for_every_item_once_and_before_it_is_named() {
        for n in [0, 1, 15, 16, 17, 31, 32, 33, 100, 1024] {
            let items: Vec<usize> = (0..n).collect();
            let mut warmed = vec![0; n];
            for i in 0..n {
                warm_ahead(i, &items, |&k| warmed[k] += 1);
                assert_eq!(warmed[i], 1, "item {i} of {n} named before it was read for");
                // never more than two bursts ahead
                assert!(warmed.iter().skip(i + 2 * WARM_AHEAD).all(|&w| w == 0));
            }
            assert!(warmed.iter().all(|&w| w == 1), "{n}: {warmed:?}");
        }
    }

    fn roster() -> Roster {
        let mut r = Roster::default();
        r.add(Player::named("P0001", "Chan Tai Man")).unwrap();
        r.add(Player::named("P0002", "李小明")).unwrap();
        r.add(Player::named("P0003", "Wong Ka Yan")).unwrap();
        r.add(Player::named("P0004", "wong  ka yan")).unwrap();
        r
    }

    #[test]
    fn resolves_ids_and_unique_names_ignoring_case_and_spacing() {
        let mut r = roster();
        assert_eq!(r.resolve("P0001"), Ok(PlayerId(0)));
        assert_eq!(r.resolve("p0001"), Ok(PlayerId(0)));
        assert_eq!(r.resolve("chan taiman"), Ok(PlayerId(0)));
        assert_eq!(r.resolve(" 李 小明 "), Ok(PlayerId(1)));
    }

    #[test]
    fn a_shared_name_is_ambiguous_and_a_stranger_unknown() {
        let mut r = roster();
        assert_eq!(
            r.resolve("Wong Ka Yan"),
            Err(Unresolved::Ambiguous(vec![PlayerId(2), PlayerId(3)]))
        );
        assert_eq!(r.resolve("Nobody"), Err(Unresolved::Unknown));
    }

    #[test]
    fn printed_cards_name_a_namesake_with_the_id_and_read_back() {
        let mut r = roster();
        assert_eq!(r.card_name(PlayerId(0)), "Chan Tai Man");
        assert_eq!(r.card_name(PlayerId(2)), "Wong Ka Yan (P0003)");
        assert_eq!(r.card_name(PlayerId(3)), "wong  ka yan (P0004)");
        for pid in [PlayerId(0), PlayerId(1), PlayerId(2), PlayerId(3)] {
            let printed = r.card_name(pid);
            assert_eq!(r.resolve(&printed), Ok(pid), "{printed}");
        }
        assert_eq!(r.resolve("Wong Ka Yan (p0004)"), Ok(PlayerId(3)));
        // The id of someone else, or a name that is not the id's: unknown.
        assert_eq!(r.resolve("Chan Tai Man (P0003)"), Err(Unresolved::Unknown));
        assert_eq!(r.resolve("Nobody (P9999)"), Err(Unresolved::Unknown));
    }

    #[test]
    fn an_open_roster_learns_from_the_cards() {
        let mut r = Roster::open();
        let a = r.resolve("Chan Tai Man").unwrap();
        assert_eq!(r.resolve("chan tai man"), Ok(a));
        assert_ne!(r.resolve("Lee Siu Ming"), Ok(a));
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn a_namesake_added_after_a_look_up_is_found_too() {
        let mut r = roster();
        assert_eq!(r.resolve("Chan Tai Man"), Ok(PlayerId(0)));
        r.add(Player::named("P0005", "CHAN TAI MAN")).unwrap();
        assert_eq!(
            r.resolve("chan tai man"),
            Err(Unresolved::Ambiguous(vec![PlayerId(0), PlayerId(4)]))
        );
        assert_eq!(r.card_name(PlayerId(4)), "CHAN TAI MAN (P0005)");
    }

    #[test]
    fn an_entry_reads_back_as_it_was_added() {
        let source = Source::sheet("roster.xlsx", "Players");
        let other = Source::file("more.csv");
        let full = Player {
            id: "P0007".into(),
            name: "李小明".into(),
            birth_date: Some("2014-09-30".into()),
            age: Some(11),
            family: Some(String::new()),
            status: Status::Withdrawn,
            group: Some("U12".into()),
            place: Some(source.at(8, None)),
        };
        let mut plain = Player::named("P0008", "Wong Ka Yan");
        plain.place = Some(other.at(2, None));
        let bare = Player::named("P0009", "Lee");
        let mut r = Roster::default();
        for p in [&full, &plain, &bare] {
            r.add(p.clone()).unwrap();
        }
        assert_eq!(*r.get(PlayerId(0)), full);
        assert_eq!(*r.get(PlayerId(1)), plain);
        assert_eq!(*r.get(PlayerId(2)), bare);
        assert_eq!(r.status(PlayerId(0)), Status::Withdrawn);
        assert_eq!(
            (r.id(PlayerId(1)), r.name(PlayerId(1))),
            ("P0008", "Wong Ka Yan")
        );
        assert_eq!(r.group(PlayerId(0)), Some("U12"));
        assert_eq!(r.group(PlayerId(2)), None);
        r.set_group(PlayerId(2), "60+");
        assert_eq!(r.get(PlayerId(2)).group.as_deref(), Some("60+"));
        assert_eq!(r.group(PlayerId(2)), Some("60+"));
    }

    /// A roster of `players`, each added as it is, then each again (its
    /// id ending in `b`) from a batch read from `source`, as a roster
    /// file's reader adds them; and that batch.
    fn added_and_copied(players: &[Player], source: &Source) -> (Roster, Batch) {
        let mut r = Roster::default();
        let mut batch = Batch::new(r.hasher());
        for p in players {
            r.add(p.clone()).unwrap();
            let mut again = p.clone();
            again.id.push('b');
            let line = p.place.as_ref().and_then(|at| at.row).unwrap_or(0);
            batch.push(&PlayerFields::of(&again), source, line);
        }
        r.add_batch(&batch, |_, _| unreachable!("no id is taken"));
        (r, batch)
    }

    #[test]
    fn birth_dates_and_lines_read_back_however_written() {
        let source = Source::file("roster.csv");
        // (a date kept once for all who share it, one written any other
        // way kept as written; lines in runs, with gaps and none)
        let dates = [
            Some("1953-02-07"),
            Some("1900-01-01"),
            Some("2100-12-31"),
            Some("1953-02-07"),
            Some("1899-12-31"),
            Some("2101-01-01"),
            Some("2014-13-01"),
            Some("2014-02-30"),
            Some("2014/9/30"),
            Some("2014-9-30 "),
            Some("２０１４-09-30"),
            Some(""),
            None,
            Some("1970-06-14"),
        ];
        let lines = [2, 3, 4, 6, 0, 0, 7, 8, 8, 1, 0, 9, u32::MAX, 10];
        let players: Vec<Player> = dates
            .iter()
            .zip(lines)
            .enumerate()
            .map(|(i, (date, line))| Player {
                birth_date: date.map(str::to_string),
                family: (i % 3 == 0).then(|| format!("F{i}")),
                place: (line > 0).then(|| source.at(line, None)),
                ..Player::named(&format!("P{i}"), &format!("名 {i}"))
            })
            .collect();
        let (r, batch) = added_and_copied(&players, &source);
        let n = players.len();
        for (i, p) in players.iter().enumerate() {
            assert_eq!(*r.get(PlayerId(i as u32)), *p, "entry {i}");
            let copied = r.get(PlayerId((n + i) as u32));
            assert_eq!(copied.birth_date, p.birth_date, "copied entry {i}");
            assert_eq!(copied.family, p.family, "copied entry {i}");
            let line = p.place.as_ref().and_then(|at| at.row);
            let copied_line = copied.place.as_ref().and_then(|at| at.row);
            assert_eq!(copied_line, line, "copied entry {i}");
        }
        // a date written as the reader writes it is kept as its day, the
        // same in a batch and in the roster that copies it; one written
        // any other way, with the entry's texts
        assert_eq!(r.entries.recs[0].born, r.entries.recs[3].born);
        assert_eq!(day_text(r.entries.recs[0].born), "1953-02-07");
        assert_eq!(r.entries.recs[4].born, IN_TEXT);
        assert_eq!(batch.entries.recs[0].born, r.entries.recs[0].born);
        assert_eq!(r.entries.recs[n].born, r.entries.recs[0].born);
        assert_eq!(r.entries.recs[n + 4].born, IN_TEXT);
        // a day no month has reads back as written
        assert_eq!(day_text(date_day("2014-02-30").unwrap()), "2014-02-30");
        let mut r = r;
        r.shrink_to_fit();
        let mut late = players[0].clone();
        late.id = "P-late".into();
        let pid = r.add(late.clone()).unwrap();
        assert_eq!(*r.get(pid), late);
        assert_eq!(*r.get(PlayerId(0)), players[0]);
    }

    /// Every day from 1900 to 2100 (and the days no month has) reads back
    /// as written, and nothing else is a day.
    #[test]
    fn every_day_reads_back_as_written() {
        for y in 1900..=2100 {
            for m in 1..=12 {
                for d in 1..=31 {
                    let text = format!("{y:04}-{m:02}-{d:02}");
                    assert_eq!(date_day(&text).map(day_text), Some(text.as_str()));
                }
            }
        }
        for text in [
            "1899-12-31",
            "2101-01-01",
            "2014-13-01",
            "2014-00-01",
            "2014-01-00",
            "2014-01-32",
            "2014/01/01",
            "2014-1-01",
            "2014-01-1 ",
            "２０１４-01-01",
            "",
        ] {
            assert_eq!(date_day(text), None, "{text}");
        }
    }

    #[test]
    fn long_texts_and_large_ages_read_back() {
        let mut players = Vec::new();
        for (i, age) in [
            None,
            Some(0),
            Some(253),
            Some(254),
            Some(255),
            Some(u32::MAX),
        ]
        .into_iter()
        .enumerate()
        {
            let mut p = Player::named(&format!("P{i}"), &"名".repeat(40 + 20 * i));
            p.age = age;
            p.family = (i % 2 == 1).then(|| "x".repeat(300 * i));
            p.place = Some(Source::file("roster.csv").at(i as u32 + 2, None));
            players.push(p);
        }
        let (r, _) = added_and_copied(&players, &Source::file("roster.csv"));
        for (i, p) in players.iter().enumerate() {
            assert_eq!(*r.get(PlayerId(i as u32)), *p);
            let copied = r.get(PlayerId((i + players.len()) as u32));
            assert_eq!(
                (copied.id.trim_end_matches('b'), &copied.name),
                (&*p.id, &p.name)
            );
            assert_eq!((copied.age, &copied.family), (p.age, &p.family));
        }
        assert_eq!(r.find("P5b"), Ok(PlayerId(11)));
    }

    #[test]
    fn ids_are_unique() {
        let mut r = roster();
        assert_eq!(r.add(Player::named("p0002", "Someone")), Err(PlayerId(1)));
    }

    #[test]
    fn ids_match_as_their_match_keys_do() {
        for (text, key) in [
            ("P0001", "p0001"),
            (" P 0001 ", "p0001"),
            ("P\u{b}0001", "p0001"),
            ("李 小明", "李小明"),
            ("P0001", "p001"),
            ("P0001", "p00011"),
            ("Ärger", "ärger"),
        ] {
            assert_eq!(
                key_matches(text, key),
                match_key(text) == key,
                "{text:?} {key:?}"
            );
        }
        let mut r = Roster::open();
        r.reserve(10);
        let a = r.resolve("  Chan   Tai Man ").unwrap();
        assert_eq!(r.get(a).id, "Chan Tai Man");
        assert_eq!(r.card_name(a), "Chan Tai Man");
        assert_eq!(r.find("chantaiman"), Ok(a));
        let clone = r.clone();
        assert_eq!(clone.find("CHAN TAI MAN"), Ok(a));
    }

    /// The id index keeps player numbers only: growing, it hashes each id
    /// again, by its match key (not its text), for entries and for the
    /// players an open roster learned alike.
    #[test]
    fn ids_are_found_after_the_index_grows_past_its_room() {
        let id = |k: u32| match k % 3 {
            0 => format!("P{k:05}"),
            1 => format!("Chan {k} Tai"),
            _ => format!("李 {k}"),
        };
        let asked = |k: u32| match k % 3 {
            0 => format!("p{k:05}"),
            1 => format!(" CHAN{k}tai "),
            _ => format!("李{k}"),
        };
        let mut closed = Roster::default();
        for k in 0..5_000 {
            closed.add(Player::named(&id(k), "Someone")).unwrap();
        }
        let mut open = Roster::open();
        for k in 0..5_000 {
            assert_eq!(open.resolve(&id(k)), Ok(PlayerId(k)));
        }
        for k in 0..5_000 {
            assert_eq!(closed.find(&asked(k)), Ok(PlayerId(k)), "{}", id(k));
            assert_eq!(open.resolve(&asked(k)), Ok(PlayerId(k)), "{}", id(k));
        }
        assert_eq!(open.len(), 5_000);
        // a roster added to an open one that learned players first: the
        // learned become entries, and are still found
        assert_eq!(
            open.add(Player::named("P99999", "Late")),
            Ok(PlayerId(5_000))
        );
        open.reserve(100_000);
        assert_eq!(open.find("p99999"), Ok(PlayerId(5_000)));
        assert_eq!(open.find(&asked(4_999)), Ok(PlayerId(4_999)));
        assert_eq!(
            open.add(Player::named(&asked(7), "Again")),
            Err(PlayerId(7))
        );
    }
}
