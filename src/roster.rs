//! The roster: who may play, and how the cards name them.
//!
//! A card names a player by roster id, or by roster name when the name
//! matches exactly one entry; case and spacing are ignored (FORMATS.md).
//! Without a roster, players are known by what the cards say.

use crate::domain::PlayerId;
use crate::place::Place;
use std::collections::HashMap;

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
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

#[derive(Clone, Debug, Default)]
pub struct Roster {
    players: Vec<Player>,
    by_id: HashMap<String, PlayerId>,
    by_name: HashMap<String, Vec<PlayerId>>,
    /// No roster was given: any name on a card is a player.
    open: bool,
}

impl Roster {
    /// A roster that grows from the cards.
    pub fn open() -> Roster {
        Roster {
            open: true,
            ..Roster::default()
        }
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Adds a player; `Err` with the one already there when the id is taken.
    pub fn add(&mut self, player: Player) -> Result<PlayerId, PlayerId> {
        let id_key = match_key(&player.id);
        if let Some(&existing) = self.by_id.get(&id_key) {
            return Err(existing);
        }
        let pid = PlayerId(self.players.len() as u32);
        self.by_id.insert(id_key, pid);
        self.by_name
            .entry(match_key(&player.name))
            .or_default()
            .push(pid);
        self.players.push(player);
        Ok(pid)
    }

    /// The player a text names: an id, else a name that matches one entry,
    /// else a name with its id as printed cards have it, `Chan Tai Man
    /// (P0314)`.
    pub fn find(&self, text: &str) -> Result<PlayerId, Unresolved> {
        let key = match_key(text);
        if let Some(&pid) = self.by_id.get(&key) {
            return Ok(pid);
        }
        match self.by_name.get(&key).map(Vec::as_slice) {
            Some([one]) => Ok(*one),
            Some(many) if many.len() > 1 => Err(Unresolved::Ambiguous(many.to_vec())),
            _ => self.find_name_with_id(text).ok_or(Unresolved::Unknown),
        }
    }

    /// The player a card's text names, as [`Roster::find`]; an open roster
    /// adds a player it does not know.
    pub fn resolve(&mut self, text: &str) -> Result<PlayerId, Unresolved> {
        match self.find(text) {
            Err(Unresolved::Unknown) => {}
            found => return found,
        }
        if self.open {
            let trimmed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            return Ok(self
                .add(Player::named(&trimmed, &trimmed))
                .unwrap_or_else(|p| p));
        }
        Err(Unresolved::Unknown)
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
        match self.by_name.get(&key).map(Vec::len) {
            Some(1) if self.by_id.get(&key).is_none_or(|&other| other == pid) => p.name.clone(),
            _ => format!("{} ({})", p.name.trim(), p.id),
        }
    }

    /// `Chan Tai Man (P0314)`: the player of that id, when the name is that
    /// player's.
    fn find_name_with_id(&self, text: &str) -> Option<PlayerId> {
        let (name, id) = text.trim().strip_suffix(')')?.rsplit_once('(')?;
        let &pid = self.by_id.get(&match_key(id))?;
        (match_key(&self.get(pid).name) == match_key(name)).then_some(pid)
    }

    /// Records the age group the player plays in.
    pub fn set_group(&mut self, pid: PlayerId, group: &str) {
        self.players[pid.index()].group = Some(group.to_string());
    }

    pub fn get(&self, pid: PlayerId) -> &Player {
        &self.players[pid.index()]
    }

    pub fn len(&self) -> usize {
        self.players.len()
    }

    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, &Player)> {
        self.players
            .iter()
            .enumerate()
            .map(|(i, p)| (PlayerId(i as u32), p))
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
}
