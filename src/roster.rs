//! The roster: who may play, and how the cards name them.
//!
//! A card names a player by roster id, or by roster name when the name
//! matches exactly one entry; case and spacing are ignored (FORMATS.md).
//! Without a roster, players are known by what the cards say.

use crate::domain::PlayerId;
use crate::place::Place;
use std::borrow::Cow;

/// Names to players: a fast hash (foldhash, the one hashbrown uses), since
/// an open roster interns every player of a large results file.
type Map<V> = std::collections::HashMap<String, V, foldhash::fast::RandomState>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Status {
    #[default]
    Active,
    Withdrawn,
    Disqualified,
}

impl Status {
    pub fn parse(text: &str) -> Option<Status> {
        match crate::ingest::header::normalize(text).as_str() {
            "" | "active" | "ok" => Some(Status::Active),
            "withdrawn" | "w" | "wd" | "withdrew" => Some(Status::Withdrawn),
            "disqualified" | "dq" => Some(Status::Disqualified),
            _ => None,
        }
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

/// The text two names are compared by: lower case, no spaces at all.
pub fn match_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    match_key_into(text, &mut key);
    key
}

/// [`match_key`] written into `key` (cleared first).
fn match_key_into(text: &str, key: &mut String) {
    key.clear();
    if text
        .bytes()
        .all(|b| b.is_ascii_graphic() && !b.is_ascii_uppercase())
    {
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

/// The index of players by id: a table of player indexes.
#[derive(Clone, Default)]
struct IdIndex {
    table: hashbrown::HashTable<PlayerId>,
    hasher: foldhash::fast::RandomState,
}

impl std::fmt::Debug for IdIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IdIndex({} players)", self.table.len())
    }
}

fn hash_key(hasher: &foldhash::fast::RandomState, key: &str) -> u64 {
    use std::hash::BuildHasher;
    hasher.hash_one(key)
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
    if a == b {
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
        match_key_into(text, scratch);
        hash_key(&self.0, scratch)
    }
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
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.text[start..self.ends[k] as usize]
    }

    fn len(&self) -> usize {
        self.ends.len()
    }
}

#[derive(Clone, Debug, Default)]
pub struct Roster {
    /// The roster's entries, in its order; the players an open roster
    /// learned come after them (ids `players.len()..`).
    players: Vec<Player>,
    learned: Learned,
    /// Players by the match key of their id. The table holds indexes only:
    /// the key is the player's own id, compared without a copy.
    by_id: IdIndex,
    /// Roster entries by name. Players an open roster learns from the
    /// cards are not here: their name is their id, found by `by_id`.
    by_name: Map<Vec<PlayerId>>,
    /// No roster was given: any name on a card is a player.
    open: bool,
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

    /// The player whose id has the match key `key`.
    fn find_id(&self, key: &str) -> Option<PlayerId> {
        self.by_id
            .table
            .find(hash_key(&self.by_id.hasher, key), |&p| {
                key_matches(self.id(p), key)
            })
            .copied()
    }

    /// Indexes the player `pid` (already in `players`) by its id's `key`.
    fn index_id(&mut self, key: &str, pid: PlayerId) {
        let (players, learned) = (&self.players, &self.learned);
        let hasher = &self.by_id.hasher;
        self.by_id
            .table
            .insert_unique(hash_key(hasher, key), pid, |&p| {
                hash_key(hasher, &match_key(id_of(players, learned, p)))
            });
    }

    /// Makes room for `additional` more players without regrowing (an
    /// open roster: players it will learn, of some `id_bytes` each).
    pub fn reserve(&mut self, additional: usize) {
        if self.open {
            self.learned.ends.reserve(additional);
        } else {
            self.players.reserve(additional);
        }
        let (players, learned) = (&self.players, &self.learned);
        let hasher = &self.by_id.hasher;
        self.by_id.table.reserve(additional, |&p| {
            hash_key(hasher, &match_key(id_of(players, learned, p)))
        });
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
        let id_key = match_key(&player.id);
        if let Some(existing) = self.find_id(&id_key) {
            return Err(existing);
        }
        if self.learned.len() > 0 {
            // entries come first: the learned players become entries
            let learned = std::mem::take(&mut self.learned);
            for k in 0..learned.len() {
                let mut p = Player::named(learned.id(k), learned.id(k));
                p.group = learned.groups.get(&(k as u32)).cloned();
                self.players.push(p);
            }
        }
        let pid = PlayerId(self.players.len() as u32);
        self.by_name
            .entry(match_key(&player.name))
            .or_default()
            .push(pid);
        self.players.push(player);
        self.index_id(&id_key, pid);
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
        match self.by_name.get(key).map(Vec::as_slice) {
            Some([one]) => Ok(*one),
            Some(many) if many.len() > 1 => Err(Unresolved::Ambiguous(many.to_vec())),
            _ => Err(Unresolved::Unknown),
        }
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

    /// As [`Roster::resolve`], `hash` being the name's hash by
    /// [`Roster::hasher`].
    pub fn resolve_hashed(&mut self, text: &str, hash: u64) -> Result<PlayerId, Unresolved> {
        let by_id = self.by_id.table.find(hash, |&p| same_key(self.id(p), text));
        let found = match by_id {
            Some(&pid) => Ok(pid),
            None if self.by_name.is_empty() => {
                self.find_name_with_id(text).ok_or(Unresolved::Unknown)
            }
            None => match self.by_name.get(&match_key(text)).map(Vec::as_slice) {
                Some([one]) => Ok(*one),
                Some(many) if many.len() > 1 => Err(Unresolved::Ambiguous(many.to_vec())),
                _ => self.find_name_with_id(text).ok_or(Unresolved::Unknown),
            },
        };
        if !(self.open && found == Err(Unresolved::Unknown)) {
            return found;
        }
        // spaces as one: the common case, a text without any, is copied as is
        let single = if text.is_ascii() {
            !text.bytes().any(|b| b.is_ascii_whitespace() && b != b' ')
                && !text.starts_with(' ')
                && !text.ends_with(' ')
                && !text.contains("  ")
        } else {
            !text.starts_with(char::is_whitespace)
                && !text.ends_with(char::is_whitespace)
                && !text.contains(|c: char| c.is_whitespace() && c != ' ')
                && !text.contains("  ")
        };
        let pid = PlayerId((self.players.len() + self.learned.len()) as u32);
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
        let (players, learned) = (&self.players, &self.learned);
        let hasher = &self.by_id.hasher;
        self.by_id.table.insert_unique(hash, pid, |&p| {
            hash_key(hasher, &match_key(id_of(players, learned, p)))
        });
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
        match self.by_name.get(&key).map(Vec::len) {
            Some(1) if self.find_id(&key).is_none_or(|other| other == pid) => p.name.clone(),
            _ => format!("{} ({})", p.name.trim(), p.id),
        }
    }

    /// `Chan Tai Man (P0314)`: the player of that id, when the name is that
    /// player's.
    fn find_name_with_id(&self, text: &str) -> Option<PlayerId> {
        if !text.trim_end().ends_with(')') {
            return None;
        }
        let (name, id) = text.trim().strip_suffix(')')?.rsplit_once('(')?;
        let pid = self.find_id(&match_key(id))?;
        (match_key(&self.get(pid).name) == match_key(name)).then_some(pid)
    }

    /// Records the age group the player plays in.
    pub fn set_group(&mut self, pid: PlayerId, group: &str) {
        match pid.index().checked_sub(self.players.len()) {
            None => self.players[pid.index()].group = Some(group.to_string()),
            Some(k) => {
                self.learned.groups.insert(k as u32, group.to_string());
            }
        }
    }

    /// The player's entry: the roster's own, or one made for a player the
    /// cards taught an open roster (its id is its name).
    pub fn get(&self, pid: PlayerId) -> Cow<'_, Player> {
        match pid.index().checked_sub(self.players.len()) {
            None => Cow::Borrowed(&self.players[pid.index()]),
            Some(k) => {
                let id = self.learned.id(k);
                let mut p = Player::named(id, id);
                p.group = self.learned.groups.get(&(k as u32)).cloned();
                Cow::Owned(p)
            }
        }
    }

    /// The player's id, without making an entry.
    pub fn id(&self, pid: PlayerId) -> &str {
        id_of(&self.players, &self.learned, pid)
    }

    /// The player's status, without making an entry.
    pub fn status(&self, pid: PlayerId) -> Status {
        self.players
            .get(pid.index())
            .map_or(Status::Active, |p| p.status)
    }

    pub fn len(&self) -> usize {
        self.players.len() + self.learned.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, Cow<'_, Player>)> {
        (0..self.len() as u32).map(|i| (PlayerId(i), self.get(PlayerId(i))))
    }
}

/// The id of `pid`: an entry's, or a learned player's.
fn id_of<'a>(players: &'a [Player], learned: &'a Learned, pid: PlayerId) -> &'a str {
    match pid.index().checked_sub(players.len()) {
        None => &players[pid.index()].id,
        Some(k) => learned.id(k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
