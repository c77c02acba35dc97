//! RULES.md section 2: what a rack is worth when a game ends.
//!
//! rack value = face values of the numbered tiles left + joker value × jokers
//! left; a penalty charge replaces that value (`penalty_mode = replace`) or
//! is added to it (`add`). At most one charge per player per game.

use crate::profile::{PenaltyMode, Rules};
use std::fmt;

/// A penalty charge (RULES.md section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Penalty {
    /// Never made the initial meld because unable.
    NoMeld,
    /// Could have melded but chose not to.
    RefusedMeld,
    /// Knocked down the rack so it cannot be counted.
    Knocked,
}

impl Penalty {
    pub fn parse(text: &str) -> Option<Penalty> {
        match crate::ingest::header::normalize(text).as_str() {
            "nomeld" => Some(Penalty::NoMeld),
            "refusedmeld" => Some(Penalty::RefusedMeld),
            "knocked" => Some(Penalty::Knocked),
            _ => None,
        }
    }

    pub fn charge(self, rules: &Rules) -> i64 {
        match self {
            Penalty::NoMeld => rules.penalties.no_meld,
            Penalty::RefusedMeld => rules.penalties.refused_meld,
            Penalty::Knocked => rules.penalties.knocked,
        }
    }
}

impl fmt::Display for Penalty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Penalty::NoMeld => "no-meld",
            Penalty::RefusedMeld => "refused-meld",
            Penalty::Knocked => "knocked",
        })
    }
}

/// What one player holds when a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rack {
    /// Face-value sum of the numbered tiles left (jokers excluded).
    pub points: i64,
    /// Jokers left, 0..=2.
    pub jokers: u8,
    /// Tiles left, jokers included; 0 means the player went out.
    pub tiles: u16,
    pub penalty: Option<Penalty>,
}

impl Rack {
    pub fn new(points: i64, jokers: u8, tiles: u16) -> Rack {
        Rack {
            points,
            jokers,
            tiles,
            penalty: None,
        }
    }

    pub fn out() -> Rack {
        Rack::new(0, 0, 0)
    }

    pub fn charged(self, penalty: Penalty) -> Rack {
        Rack {
            penalty: Some(penalty),
            ..self
        }
    }

    pub fn went_out(&self) -> bool {
        self.tiles == 0
    }

    /// The rack's value under `rules`, charges applied.
    pub fn value(&self, rules: &Rules) -> i64 {
        let counted = self.points + i64::from(self.jokers) * rules.joker_value;
        match (self.penalty, rules.penalty_mode) {
            (None, _) => counted,
            (Some(p), PenaltyMode::Replace) => p.charge(rules),
            (Some(p), PenaltyMode::Add) => counted + p.charge(rules),
        }
    }
}

/// The set: 13 numbers in 4 colours, each tile twice, and 2 jokers.
pub const COPIES_PER_TILE: u8 = 2;
pub const JOKERS_IN_SET: u8 = 2;
pub const TILES_IN_SET: u16 = 106;

/// A tile as written in a `rack` list: colour letter and number (`R5`,
/// `B13`, `K7`, `O1`; `Y` for orange/yellow) or `J` for a joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tile {
    Numbered { colour: char, number: u8 },
    Joker,
}

impl Tile {
    pub fn parse(text: &str) -> Option<Tile> {
        let t = text.trim().to_ascii_uppercase();
        if t == "J" || t == "JOKER" {
            return Some(Tile::Joker);
        }
        let mut chars = t.chars();
        let colour = match chars.next()? {
            'Y' | 'O' => 'O',
            c @ ('R' | 'B' | 'K') => c,
            _ => return None,
        };
        let number: u8 = chars.as_str().parse().ok()?;
        (1..=13)
            .contains(&number)
            .then_some(Tile::Numbered { colour, number })
    }
}

/// How a `rack` cell says the rack is empty (the player went out): a
/// blank cell is a rack not given, which is an error, so that a line
/// forgotten is never read as a player who went out.
pub const EMPTY_RACK: [&str; 5] = ["-", "–", "—", "0", "none"];

/// The tiles a `rack` column lists, counted: points, jokers, tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileList {
    pub tiles: Vec<Tile>,
}

impl TileList {
    /// Parses `R5 B13 K7 O1 J` (spaces or commas between tiles). Every
    /// problem is listed: an unknown tile, more than two jokers, a tile more
    /// often than the set has it. [`EMPTY_RACK`]'s words are a rack with
    /// no tile (the player went out).
    pub fn parse(text: &str) -> Result<TileList, Vec<String>> {
        let mut tiles = Vec::new();
        let mut errors = Vec::new();
        if EMPTY_RACK.contains(&text.trim()) {
            return Ok(TileList { tiles });
        }
        for word in text.split([' ', ',', ';']).filter(|w| !w.trim().is_empty()) {
            match Tile::parse(word) {
                Some(t) => tiles.push(t),
                None => errors.push(format!(
                    "{} is not a tile: expected a colour letter (R, B, K, O or Y) and a number 1 to 13, or J for a joker",
                    crate::ingest::cell::quoted(word)
                )),
            }
        }
        let list = TileList { tiles };
        errors.extend(list.over_the_set());
        if errors.is_empty() {
            Ok(list)
        } else {
            Err(errors)
        }
    }

    pub fn jokers(&self) -> u8 {
        self.tiles.iter().filter(|t| **t == Tile::Joker).count() as u8
    }

    pub fn points(&self) -> i64 {
        self.tiles
            .iter()
            .map(|t| match t {
                Tile::Numbered { number, .. } => i64::from(*number),
                Tile::Joker => 0,
            })
            .sum()
    }

    /// Tiles that appear more often than the set has them.
    pub fn over_the_set(&self) -> Vec<String> {
        let mut counts: std::collections::BTreeMap<Tile, u8> = std::collections::BTreeMap::new();
        for t in &self.tiles {
            *counts.entry(*t).or_default() += 1;
        }
        counts
            .into_iter()
            .filter_map(|(t, n)| match t {
                Tile::Joker if n > JOKERS_IN_SET => {
                    Some(format!("{n} jokers; the set has {JOKERS_IN_SET}"))
                }
                Tile::Numbered { colour, number } if n > COPIES_PER_TILE => Some(format!(
                    "{colour}{number} {n} times; the set has each tile {COPIES_PER_TILE} times"
                )),
                _ => None,
            })
            .collect()
    }
}

/// What one rack can hold: at most two jokers; between 1 and 13 points per
/// numbered tile; no charge on a player who went out.
pub fn rack_problems(rack: &Rack) -> Vec<String> {
    let mut errors = Vec::new();
    let numbered = i64::from(rack.tiles) - i64::from(rack.jokers);
    if rack.jokers > JOKERS_IN_SET {
        errors.push(format!(
            "{} jokers; a rack holds at most {JOKERS_IN_SET}",
            rack.jokers
        ));
    } else if numbered < 0 {
        errors.push(format!(
            "{} jokers but {} tiles; the tile count includes the jokers",
            rack.jokers, rack.tiles
        ));
    } else if !(numbered..=numbered * 13).contains(&rack.points) {
        errors.push(format!(
            "points {} with {} numbered tiles; they are worth {} to {}",
            rack.points,
            numbered,
            numbered,
            numbered * 13
        ));
    }
    if rack.tiles > TILES_IN_SET {
        errors.push(format!("{} tiles; the set has {TILES_IN_SET}", rack.tiles));
    }
    if rack.went_out() && rack.penalty.is_some() {
        errors.push(format!(
            "a {} charge on a player who went out (0 tiles); a charge and going out exclude each other",
            rack.penalty.map(|p| p.to_string()).unwrap_or_default()
        ));
    }
    errors
}

/// What the racks of one game can hold together: at most one player out,
/// at most the 106 tiles of the set, and (where tiles are listed) no tile
/// more often than the set has it.
pub fn game_problems(racks: &[Rack], lists: &[Option<&TileList>]) -> Vec<String> {
    let mut errors = Vec::new();
    let out = racks.iter().filter(|r| r.went_out()).count();
    if out > 1 {
        errors.push(format!(
            "{out} players have 0 tiles; only one player can go out"
        ));
    }
    let tiles: u32 = racks.iter().map(|r| u32::from(r.tiles)).sum();
    if tiles > u32::from(TILES_IN_SET) {
        errors.push(format!(
            "the racks hold {tiles} tiles together; the set has {TILES_IN_SET}"
        ));
    }
    let jokers: u32 = racks.iter().map(|r| u32::from(r.jokers)).sum();
    if jokers > u32::from(JOKERS_IN_SET) {
        errors.push(format!(
            "the racks hold {jokers} jokers together; the set has {JOKERS_IN_SET}"
        ));
    }
    let all = TileList {
        tiles: lists
            .iter()
            .flatten()
            .flat_map(|l| l.tiles.iter().copied())
            .collect(),
    };
    errors.extend(
        all.over_the_set()
            .into_iter()
            .filter(|e| !e.contains("jokers"))
            .map(|e| format!("the racks hold {e}")),
    );
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_lists_count_points_and_jokers() {
        let list = TileList::parse("R5 B13 K7 O1 J").unwrap();
        assert_eq!((list.points(), list.jokers(), list.tiles.len()), (26, 1, 5));
        assert_eq!(TileList::parse("y12, r1").unwrap().points(), 13);
        assert_eq!(TileList::parse("").unwrap().tiles.len(), 0);
        // a rack written empty, as a volunteer marks a player who went out
        for empty in ["-", " – ", "—", "0", "none"] {
            assert_eq!(
                TileList::parse(empty),
                Ok(TileList { tiles: vec![] }),
                "{empty}"
            );
        }
        assert!(TileList::parse("- R5").is_err());
    }

    #[test]
    fn tile_lists_name_every_problem() {
        let errors = TileList::parse("R14 G3 J J J B2 B2 B2").unwrap_err();
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(errors[0].starts_with("\"R14\" is not a tile"));
        assert!(errors[1].starts_with("\"G3\" is not a tile"));
        assert!(errors.contains(&"B2 3 times; the set has each tile 2 times".to_string()));
        assert!(errors.contains(&"3 jokers; the set has 2".to_string()));
    }

    #[test]
    fn a_rack_holds_what_its_tiles_can_be_worth() {
        assert!(rack_problems(&Rack::new(26, 1, 5)).is_empty());
        assert_eq!(
            rack_problems(&Rack::new(5, 3, 4)),
            vec!["3 jokers; a rack holds at most 2"]
        );
        assert_eq!(
            rack_problems(&Rack::new(60, 0, 4)),
            vec!["points 60 with 4 numbered tiles; they are worth 4 to 52"]
        );
        assert_eq!(
            rack_problems(&Rack::new(0, 2, 1)),
            vec!["2 jokers but 1 tiles; the tile count includes the jokers"]
        );
        assert!(
            rack_problems(&Rack::out().charged(Penalty::NoMeld))[0].contains("exclude each other")
        );
    }

    #[test]
    fn a_game_holds_one_set() {
        let racks = [Rack::out(), Rack::out(), Rack::new(3, 0, 1)];
        assert_eq!(
            game_problems(&racks, &[]),
            vec!["2 players have 0 tiles; only one player can go out"]
        );
        let big = [
            Rack::new(400, 0, 40),
            Rack::new(400, 0, 40),
            Rack::new(300, 0, 30),
        ];
        assert_eq!(
            game_problems(&big, &[]),
            vec!["the racks hold 110 tiles together; the set has 106"]
        );
        let a = TileList::parse("R5 R5").unwrap();
        let b = TileList::parse("R5 J").unwrap();
        let c = TileList::parse("J J").unwrap();
        let racks = [Rack::new(10, 0, 2), Rack::new(5, 1, 2), Rack::new(0, 2, 2)];
        let errors = game_problems(&racks, &[Some(&a), Some(&b), Some(&c)]);
        assert_eq!(
            errors,
            vec![
                "the racks hold 3 jokers together; the set has 2",
                "the racks hold R5 3 times; the set has each tile 2 times"
            ]
        );
    }

    #[test]
    fn jokers_count_the_profile_value() {
        let mut rules = Rules::hk();
        let rack = Rack::new(12, 1, 4);
        assert_eq!(rack.value(&rules), 42);
        rules.joker_value = 50;
        assert_eq!(rack.value(&rules), 62);
        rules.joker_value = 25;
        assert_eq!(Rack::new(0, 2, 2).value(&rules), 50);
    }

    #[test]
    fn charges_replace_or_add() {
        let mut rules = Rules::hk();
        let rack = Rack::new(23, 1, 5);
        assert_eq!(rack.charged(Penalty::NoMeld).value(&rules), 100);
        assert_eq!(rack.charged(Penalty::RefusedMeld).value(&rules), 200);
        assert_eq!(rack.charged(Penalty::Knocked).value(&rules), 200);
        rules.penalty_mode = PenaltyMode::Add;
        assert_eq!(rack.charged(Penalty::NoMeld).value(&rules), 153);
        assert_eq!(rack.charged(Penalty::RefusedMeld).value(&rules), 253);
    }

    #[test]
    fn pressman_has_no_charges() {
        let rules = crate::profile::by_name("pressman").unwrap();
        assert_eq!(
            Rack::new(23, 0, 5).charged(Penalty::NoMeld).value(&rules),
            0
        );
    }

    #[test]
    fn penalty_codes() {
        assert_eq!(Penalty::parse("no-meld"), Some(Penalty::NoMeld));
        assert_eq!(Penalty::parse("Refused Meld"), Some(Penalty::RefusedMeld));
        assert_eq!(Penalty::parse("knocked"), Some(Penalty::Knocked));
        assert_eq!(Penalty::parse("late"), None);
        assert_eq!(Penalty::Knocked.to_string(), "knocked");
    }
}
