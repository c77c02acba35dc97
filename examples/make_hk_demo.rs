//! Writes the HK 2026 demo event: a roster of 1,200 players and the score
//! cards of the 12 preliminary sessions (25 tables each, 3 games a table),
//! as the HK organiser's printed cards would be typed in.
//!
//! Run: `cargo run --release --example make_hk_demo [OUTPUT_DIR]`
//! (default `examples/hk-2026`). The output is the same byte for byte on
//! every run (a fixed seed, no clock).
//!
//! Every game is played out from a real tile set (104 numbered tiles and 2
//! jokers, 14 tiles dealt each) until someone goes out, the pool runs dry or
//! the game's 20 minutes are up; the scores are what
//! `tilerank::rules::scoring::score_game` gives for the racks left. On top
//! of the natural data a few situations are forced, because the tool must
//! show them: unfinished games with two leaders tied on value (docs/rules.md
//! examples 2 and 3), a pot split three ways, two players who left before
//! game 3, penalty charges, and a tie on every key straddling the top-120
//! cutoff (a table of another session replays the card of the player ranked
//! about 120th, so that its player ties with them on every key).
//!
//! At the end the generator loads what it wrote with `Event::load` and
//! checks every one of those properties; it exits with status 1 if one
//! fails.

use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tilerank::domain::{Card, CardKey, Game, Label, PlayerId, Seat, SeatPlayer, SeatResult, Stage};
use tilerank::event::{Event, Request};
use tilerank::place::Place;
use tilerank::profile::{CutoffTies, Rules};
use tilerank::report::scorecard_xlsx::{write_cards, PrintCard, PrintLine};
use tilerank::roster::{match_key, Player, Roster, Status};
use tilerank::rules::advancement::select;
use tilerank::rules::rack::{Penalty, Rack};
use tilerank::rules::scoring::{score_game, Outcome};
use tilerank::rules::standings::{self, Apart, Standings};

const SEED: u64 = 0x2026_0328_0075;
const PLAYERS: usize = 1200;
const SESSIONS: usize = 12;
const TABLES: usize = 25;
const GAMES: usize = 3;
const CUTOFF: u32 = 120;
const FAMILIES: usize = 60;
/// Players booked who never came (their sessions have one 3-player table).
const NO_SHOW_SESSIONS: [usize; 2] = [5, 10];
/// Ages are taken on the first competition day.
const EVENT_DATE: Ymd = (2026, 3, 28);
/// Each game may last 20 minutes (60 minutes for 3 games).
const GAME_SECONDS: u32 = 20 * 60;
const TITLE: &str =
    "Rummikub 75th Anniversary Party & Player Tournament Preliminary Round Score Card";

type Ymd = (i32, u32, u32);

// ---------------------------------------------------------------- names

/// HK surnames: romanisation, character, weight (how common).
const SURNAMES: [(&str, &str, u32); 48] = [
    ("Chan", "陳", 10),
    ("Wong", "黃", 9),
    ("Lee", "李", 7),
    ("Cheung", "張", 5),
    ("Lau", "劉", 4),
    ("Ng", "吳", 4),
    ("Ho", "何", 3),
    ("Leung", "梁", 4),
    ("Lam", "林", 4),
    ("Tsang", "曾", 2),
    ("Chow", "周", 2),
    ("Yeung", "楊", 2),
    ("Tang", "鄧", 2),
    ("Fung", "馮", 2),
    ("Kwok", "郭", 2),
    ("Mak", "麥", 1),
    ("Lai", "黎", 2),
    ("Tse", "謝", 2),
    ("Yip", "葉", 2),
    ("Chu", "朱", 2),
    ("Lo", "盧", 2),
    ("Choi", "蔡", 2),
    ("Cheng", "鄭", 2),
    ("Poon", "潘", 1),
    ("Law", "羅", 1),
    ("Kwan", "關", 1),
    ("Siu", "蕭", 1),
    ("Yu", "余", 1),
    ("So", "蘇", 1),
    ("Wan", "溫", 1),
    ("Tam", "譚", 2),
    ("Hui", "許", 2),
    ("Shum", "岑", 1),
    ("Lui", "呂", 1),
    ("Au", "區", 1),
    ("Pang", "彭", 1),
    ("Kong", "江", 1),
    ("Tong", "唐", 1),
    ("Chung", "鍾", 1),
    ("Sze", "施", 1),
    ("Liu", "廖", 1),
    ("Man", "文", 1),
    ("Fong", "方", 1),
    ("Wu", "胡", 1),
    ("Yuen", "袁", 1),
    ("Chiu", "趙", 1),
    ("Ma", "馬", 1),
    ("Cheuk", "卓", 1),
];

type Syllable = (&'static str, &'static str);

const MALE_FIRST: [Syllable; 30] = [
    ("Chi", "志"),
    ("Ka", "家"),
    ("Wing", "永"),
    ("Kwok", "國"),
    ("Chun", "俊"),
    ("Tsz", "子"),
    ("Ho", "浩"),
    ("Siu", "兆"),
    ("Wai", "偉"),
    ("Kin", "健"),
    ("Sai", "世"),
    ("Man", "文"),
    ("Yat", "逸"),
    ("Hon", "漢"),
    ("Chung", "頌"),
    ("Kai", "啟"),
    ("Tak", "德"),
    ("Shing", "成"),
    ("Hok", "學"),
    ("Pak", "柏"),
    ("Cheuk", "卓"),
    ("Lok", "樂"),
    ("Hin", "軒"),
    ("Yiu", "耀"),
    ("Kwan", "君"),
    ("Fai", "輝"),
    ("Ming", "明"),
    ("Tai", "大"),
    ("Kam", "錦"),
    ("Sun", "信"),
];

const MALE_SECOND: [Syllable; 30] = [
    ("Man", "文"),
    ("Ming", "明"),
    ("Keung", "強"),
    ("Kit", "傑"),
    ("Wah", "華"),
    ("Hung", "雄"),
    ("Fai", "輝"),
    ("Lun", "倫"),
    ("Hin", "軒"),
    ("Lok", "樂"),
    ("Yin", "賢"),
    ("Long", "朗"),
    ("Ho", "豪"),
    ("Chung", "聰"),
    ("Kei", "基"),
    ("Tak", "德"),
    ("Wai", "偉"),
    ("Yip", "業"),
    ("Shing", "昇"),
    ("Hei", "熙"),
    ("Chun", "進"),
    ("Kwong", "光"),
    ("Leung", "亮"),
    ("On", "安"),
    ("Hong", "康"),
    ("Sing", "星"),
    ("Pan", "斌"),
    ("Tung", "東"),
    ("Yuen", "源"),
    ("Fung", "峰"),
];

const FEMALE_FIRST: [Syllable; 30] = [
    ("Ka", "嘉"),
    ("Wing", "詠"),
    ("Mei", "美"),
    ("Hoi", "凱"),
    ("Yuk", "玉"),
    ("Wai", "慧"),
    ("Pui", "佩"),
    ("Hiu", "曉"),
    ("Siu", "少"),
    ("Shuk", "淑"),
    ("Chi", "芷"),
    ("Hei", "晞"),
    ("Lai", "麗"),
    ("Suet", "雪"),
    ("Man", "敏"),
    ("Yan", "欣"),
    ("Sze", "詩"),
    ("Ching", "靜"),
    ("Oi", "愛"),
    ("Yee", "綺"),
    ("Wan", "韻"),
    ("Kit", "潔"),
    ("Pik", "碧"),
    ("Lok", "樂"),
    ("Tsz", "紫"),
    ("Sin", "倩"),
    ("Cheuk", "卓"),
    ("Nga", "雅"),
    ("Fung", "鳳"),
    ("Hoi", "海"),
];

const FEMALE_SECOND: [Syllable; 30] = [
    ("Yan", "欣"),
    ("Sze", "詩"),
    ("Ling", "玲"),
    ("Ting", "婷"),
    ("Lan", "蘭"),
    ("Man", "敏"),
    ("Shan", "珊"),
    ("Tung", "彤"),
    ("Yiu", "瑤"),
    ("Fong", "芳"),
    ("Fan", "芬"),
    ("Ying", "瑩"),
    ("Yu", "瑜"),
    ("Kei", "琪"),
    ("Wai", "慧"),
    ("Yee", "儀"),
    ("Wa", "華"),
    ("Kwan", "君"),
    ("Lam", "琳"),
    ("Ching", "晴"),
    ("Hung", "紅"),
    ("Mei", "薇"),
    ("Suen", "璇"),
    ("Yi", "怡"),
    ("Lok", "樂"),
    ("Chi", "芝"),
    ("Na", "娜"),
    ("Wing", "穎"),
    ("Hei", "希"),
    ("Yin", "妍"),
];

const MALE_ENGLISH: [&str; 24] = [
    "Jason", "Kelvin", "Ivan", "Eric", "Alan", "Tommy", "Raymond", "Kenneth", "Patrick", "Vincent",
    "Ethan", "Lucas", "Marcus", "Dickson", "Wilson", "Samuel", "Jacky", "Ryan", "Aaron", "Gordon",
    "Isaac", "Nathan", "Felix", "Kingsley",
];

const FEMALE_ENGLISH: [&str; 24] = [
    "Mary", "Karen", "Winnie", "Cindy", "Carmen", "Joyce", "Fiona", "Vivian", "Chloe", "Sharon",
    "Cherry", "Connie", "Janice", "Phoebe", "Hazel", "Queenie", "Agnes", "Yvonne", "Bonnie",
    "Candy", "Elaine", "Natalie", "Renee", "Tiffany",
];

/// The organiser's staff; each referee supervises two tables.
const REFEREES: [&str; 18] = [
    "Karen Leung",
    "Tommy Ho",
    "Ivy Chan",
    "Alex Wong",
    "Joyce Lam",
    "Kelvin Tsang",
    "Fiona Cheung",
    "Ricky Lau",
    "Winnie Ng",
    "Dennis Yip",
    "Cindy Mak",
    "Gary Chow",
    "Helen Kwok",
    "Jacky Tang",
    "Mandy Lai",
    "Peter Fung",
    "Sandy Tse",
    "Vincent Chu",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    /// `Chan Tai Man`
    Roman,
    /// `陳大文`
    Chinese,
    /// `Mary Chan Mei Ling`
    EnglishFull,
    /// `Ethan Chan`
    EnglishShort,
}

fn pick_weighted(rng: &mut ChaCha8Rng, weights: &[f64]) -> usize {
    let total: f64 = weights.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

fn pick_surname(rng: &mut ChaCha8Rng) -> usize {
    let w: Vec<f64> = SURNAMES.iter().map(|s| f64::from(s.2)).collect();
    pick_weighted(rng, &w)
}

fn make_name(rng: &mut ChaCha8Rng, surname: usize, female: bool, style: Style) -> String {
    let (first, second) = if female {
        (&FEMALE_FIRST, &FEMALE_SECOND)
    } else {
        (&MALE_FIRST, &MALE_SECOND)
    };
    let a = *first.choose(rng).unwrap();
    let mut b = *second.choose(rng).unwrap();
    while b.0 == a.0 {
        b = *second.choose(rng).unwrap();
    }
    let (sr, sc, _) = SURNAMES[surname];
    let english = if female {
        *FEMALE_ENGLISH.choose(rng).unwrap()
    } else {
        *MALE_ENGLISH.choose(rng).unwrap()
    };
    match style {
        Style::Roman => format!("{sr} {} {}", a.0, b.0),
        Style::Chinese => format!("{sc}{}{}", a.1, b.1),
        Style::EnglishFull => format!("{english} {sr} {} {}", a.0, b.0),
        Style::EnglishShort => format!("{english} {sr}"),
    }
}

// ---------------------------------------------------------------- dates

/// Days since 1970-01-01 (Howard Hinnant's algorithm).
fn days_from_civil((y, m, d): Ymd) -> i64 {
    let y = i64::from(if m <= 2 { y - 1 } else { y });
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> Ymd {
    let (y, m, d) = tilerank::ingest::cell::civil_from_days(z);
    (y as i32, m, d)
}

fn age_on(birth: Ymd, on: Ymd) -> i32 {
    use tilerank::rules::age_groups::{age_between, Date};
    let date = |(year, month, day): Ymd| Date { year, month, day };
    age_between(date(birth), date(on)).map_or(-1, |a| a as i32)
}

/// A birth date giving exactly `age` on the event date.
fn birth_for_age(rng: &mut ChaCha8Rng, age: i32) -> Ymd {
    let (y, m, d) = EVENT_DATE;
    let latest = days_from_civil((y - age, m, d));
    let earliest = days_from_civil((y - age - 1, m, d)) + 1;
    let day = rng.random_range(earliest..=latest);
    let birth = civil_from_days(day);
    assert_eq!(age_on(birth, EVENT_DATE), age);
    birth
}

/// Ages of players who came on their own: mostly adults, plenty of young.
fn random_age(rng: &mut ChaCha8Rng) -> i32 {
    const BUCKETS: [(i32, i32, f64); 10] = [
        (7, 12, 7.0),
        (13, 17, 9.0),
        (18, 24, 8.0),
        (25, 34, 14.0),
        (35, 44, 18.0),
        (45, 54, 17.0),
        (55, 64, 14.0),
        (65, 74, 9.0),
        (75, 84, 3.5),
        (85, 90, 0.5),
    ];
    let w: Vec<f64> = BUCKETS.iter().map(|b| b.2).collect();
    let (lo, hi, _) = BUCKETS[pick_weighted(rng, &w)];
    rng.random_range(lo..=hi)
}

// ---------------------------------------------------------------- roster

#[derive(Clone, Debug)]
struct Person {
    id: String,
    name: String,
    birth: Ymd,
    age: i32,
    female: bool,
    style: Style,
    family: Option<String>,
    disqualified: bool,
    no_show: bool,
}

fn make_roster(rng: &mut ChaCha8Rng) -> Vec<Person> {
    let mut people: Vec<Person> = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    let mut unique_name = |rng: &mut ChaCha8Rng, surname: usize, female: bool, style: Style| loop {
        let n = make_name(rng, surname, female, style);
        // `Chan Tai Man` and `Wong Ka Yan` are kept for the namesakes below.
        if n != "Chan Tai Man" && n != "Wong Ka Yan" && names.insert(match_key(&n)) {
            return n;
        }
    };
    let adult_style = |rng: &mut ChaCha8Rng| {
        [
            Style::Roman,
            Style::Chinese,
            Style::EnglishFull,
            Style::EnglishShort,
        ][pick_weighted(rng, &[62.0, 26.0, 10.0, 2.0])]
    };
    let young_style = |rng: &mut ChaCha8Rng| {
        [
            Style::Roman,
            Style::Chinese,
            Style::EnglishFull,
            Style::EnglishShort,
        ][pick_weighted(rng, &[40.0, 25.0, 20.0, 15.0])]
    };

    // Families: a child of 7 to 18 and a parent.
    for f in 0..FAMILIES {
        let family = format!("F{:03}", f + 1);
        let child_age = rng.random_range(7..=18);
        let parent_age = (child_age + rng.random_range(22..=45)).min(88);
        let father = rng.random_bool(0.65);
        let parent_surname = pick_surname(rng);
        let child_surname = if father {
            parent_surname
        } else {
            pick_surname(rng)
        };
        let parent_style = adult_style(rng);
        let child_style = if parent_style == Style::Chinese && rng.random_bool(0.75) {
            Style::Chinese
        } else {
            young_style(rng)
        };
        let child_female = rng.random_bool(0.5);
        let parent_name = unique_name(rng, parent_surname, !father, parent_style);
        let child_name = unique_name(rng, child_surname, child_female, child_style);
        people.push(Person {
            id: String::new(),
            name: parent_name,
            birth: birth_for_age(rng, parent_age),
            age: parent_age,
            female: !father,
            style: parent_style,
            family: Some(family.clone()),
            disqualified: false,
            no_show: false,
        });
        people.push(Person {
            id: String::new(),
            name: child_name,
            birth: birth_for_age(rng, child_age),
            age: child_age,
            female: child_female,
            style: child_style,
            family: Some(family),
            disqualified: false,
            no_show: false,
        });
    }
    // Everyone else.
    while people.len() < PLAYERS {
        let age = match people.len() {
            // the youngest allowed and the oldest player
            n if n == 2 * FAMILIES => 7,
            n if n == 2 * FAMILIES + 1 => 90,
            _ => random_age(rng),
        };
        let female = rng.random_bool(0.52);
        let style = if age < 18 {
            young_style(rng)
        } else {
            adult_style(rng)
        };
        let surname = pick_surname(rng);
        let name = unique_name(rng, surname, female, style);
        people.push(Person {
            id: String::new(),
            name,
            birth: birth_for_age(rng, age),
            age,
            female,
            style,
            family: None,
            disqualified: false,
            no_show: false,
        });
    }

    // Namesakes: real rosters have them; the cards then name them by id.
    let singles: Vec<usize> = (2 * FAMILIES + 2..PLAYERS)
        .filter(|&i| people[i].style == Style::Roman && people[i].age >= 18)
        .collect();
    let mut chosen: Vec<usize> = singles.sample(rng, 10).copied().collect();
    chosen.sort_unstable();
    chosen.shuffle(rng);
    let pairs: Vec<(usize, usize)> = chosen.chunks(2).map(|c| (c[0], c[1])).collect();
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let name = match k {
            0 => "Chan Tai Man".to_string(),
            1 => "Wong Ka Yan".to_string(),
            _ => people[a].name.clone(),
        };
        people[a].female = k == 1 || (k > 1 && people[a].female);
        people[b].female = people[a].female;
        people[a].name = name.clone();
        people[b].name = name;
    }

    // Registration order: ids P0001.. in a shuffled order.
    people.shuffle(rng);
    for (i, p) in people.iter_mut().enumerate() {
        p.id = format!("P{:04}", i + 1);
    }
    people
}

fn write_roster(people: &[Person], path: &Path) -> std::io::Result<()> {
    let mut w = csv::Writer::from_path(path)?;
    w.write_record(["id", "name", "birth_date", "family", "status", "group"])?;
    for p in people {
        let (y, m, d) = p.birth;
        w.write_record([
            p.id.as_str(),
            p.name.as_str(),
            &format!("{y:04}-{m:02}-{d:02}"),
            p.family.as_deref().unwrap_or(""),
            if p.disqualified { "disqualified" } else { "" },
            "",
        ])?;
    }
    w.flush()
}

fn library_roster(people: &[Person]) -> Roster {
    let mut roster = Roster::default();
    for p in people {
        let (y, m, d) = p.birth;
        let mut player = Player::named(&p.id, &p.name);
        player.birth_date = Some(format!("{y:04}-{m:02}-{d:02}"));
        player.family = p.family.clone();
        if p.disqualified {
            player.status = Status::Disqualified;
        }
        roster.add(player).expect("ids are unique");
    }
    roster
}

// ---------------------------------------------------------------- tiles

/// 0..104: numbered tiles (4 colours x 1..13 x 2); 104, 105: jokers.
type Tile = u8;
const JOKER_FIRST: Tile = 104;
const SET_SIZE: Tile = 106;

fn number(t: Tile) -> Option<i64> {
    (t < JOKER_FIRST).then(|| i64::from(t % 13) + 1)
}

fn face_sum(tiles: &[Tile]) -> i64 {
    tiles.iter().filter_map(|&t| number(t)).sum()
}

#[derive(Clone, Debug)]
struct SeatEnd {
    tiles: Vec<Tile>,
    penalty: Option<Penalty>,
    /// The tiles cell is left blank (a knocked rack that was not counted).
    blank_tiles: bool,
}

impl SeatEnd {
    fn rack(&self) -> Rack {
        Rack {
            points: face_sum(&self.tiles),
            jokers: self.tiles.iter().filter(|&&t| t >= JOKER_FIRST).count() as u8,
            tiles: self.tiles.len() as u16,
            penalty: self.penalty,
        }
    }

    fn value(&self, rules: &Rules) -> i64 {
        self.rack().value(rules)
    }
}

#[derive(Clone, Debug)]
struct GameRec {
    seats: [Option<SeatEnd>; 4],
}

impl GameRec {
    fn unfinished(&self) -> bool {
        self.seats.iter().flatten().all(|s| !s.tiles.is_empty())
    }

    fn played(&self) -> usize {
        self.seats.iter().flatten().count()
    }

    /// Tiles on the racks; the rest is on the table or in the pool.
    fn free_tiles(&self) -> Vec<Tile> {
        let held: HashSet<Tile> = self
            .seats
            .iter()
            .flatten()
            .flat_map(|s| s.tiles.clone())
            .collect();
        (0..SET_SIZE).filter(|t| !held.contains(t)).collect()
    }

    fn outcomes(&self, rules: &Rules) -> [Option<Outcome>; 4] {
        let seats: Vec<usize> = (0..4).filter(|&s| self.seats[s].is_some()).collect();
        let racks: Vec<Rack> = seats
            .iter()
            .map(|&s| self.seats[s].as_ref().unwrap().rack())
            .collect();
        let o = score_game(&racks, rules).expect("a game of 3 or 4 players, one out at most");
        let mut out = [None; 4];
        for (k, &s) in seats.iter().enumerate() {
            out[s] = Some(o[k]);
        }
        out
    }
}

/// Plays one game out: tiles dealt from a shuffled set, turns until someone
/// goes out, the pool is exhausted, or time is up. Players who never made
/// the initial meld are charged `no-meld`.
fn play_game(rng: &mut ChaCha8Rng, n: usize) -> Vec<SeatEnd> {
    let mut set: Vec<Tile> = (0..SET_SIZE).collect();
    set.shuffle(rng);
    let mut racks: Vec<Vec<Tile>> = (0..n).map(|i| set[14 * i..14 * (i + 1)].to_vec()).collect();
    let mut pool: Vec<Tile> = set[14 * n..].to_vec();
    let mut melded = vec![false; n];
    // A player with a poor hand who cannot meld for a long while.
    let cold: Vec<bool> = (0..n).map(|_| rng.random_bool(0.003)).collect();
    let mut turns = vec![0u32; n];
    let mut elapsed = 0u32;
    let mut passes = 0usize;
    let mut p = rng.random_range(0..n);
    // How fast this table plays.
    let pace = rng.random_range(0.75..1.3);
    loop {
        let secs =
            (f64::from(rng.random_range(4..=39u32) + rng.random_range(0..=16u32)) * pace) as u32;
        elapsed += secs.min(60);
        if elapsed > GAME_SECONDS {
            break; // time is up
        }
        let rack = &mut racks[p];
        let mut played = false;
        if !melded[p] {
            let chance = if cold[p] {
                if turns[p] >= 14 {
                    0.3
                } else {
                    0.0
                }
            } else {
                (0.45 + 0.2 * f64::from(turns[p])).min(0.97)
            };
            let mut values: Vec<i64> = rack.iter().map(|&t| number(t).unwrap_or(30)).collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            let strong = values.iter().take(5).sum::<i64>() >= 30;
            if strong && rng.random_bool(chance) {
                melded[p] = true;
                played = true;
                // the initial meld: 30 points or more, higher tiles first
                let k = rng.random_range(3..=6).min(rack.len());
                remove_tiles(rng, rack, k, |t| number(t).map_or(6.0, |v| v as f64));
            }
        } else if rng.random_bool(0.6) {
            played = true;
            let mut k = [1, 2, 3, 4][pick_weighted(rng, &[45.0, 30.0, 17.0, 8.0])];
            if rack.len() <= 3 && rng.random_bool(0.45) {
                k = rack.len();
            }
            let k = k.min(rack.len());
            remove_tiles(rng, rack, k, |t| if t >= JOKER_FIRST { 10.0 } else { 1.0 });
        }
        if played {
            passes = 0;
        } else if let Some(t) = pool.pop() {
            rack.push(t);
            passes = 0;
        } else {
            passes += 1;
            if passes >= n {
                break; // pool exhausted and nobody can play
            }
        }
        if rack.is_empty() {
            break; // Rummikub!
        }
        turns[p] += 1;
        p = (p + 1) % n;
    }
    racks
        .into_iter()
        .zip(melded)
        .map(|(tiles, melded)| SeatEnd {
            penalty: (!melded && !tiles.is_empty()).then_some(Penalty::NoMeld),
            tiles,
            blank_tiles: false,
        })
        .collect()
}

fn remove_tiles(
    rng: &mut ChaCha8Rng,
    rack: &mut Vec<Tile>,
    k: usize,
    weight: impl Fn(Tile) -> f64,
) {
    for _ in 0..k {
        let w: Vec<f64> = rack.iter().map(|&t| weight(t)).collect();
        let i = pick_weighted(rng, &w);
        rack.remove(i);
    }
}

/// `k` numbered tiles out of `free` worth exactly `value`, or `None`.
fn craft_rack(rng: &mut ChaCha8Rng, free: &[Tile], value: i64, k: usize) -> Option<Vec<Tile>> {
    let k64 = k as i64;
    if k == 0 || value < k64 || value > 13 * k64 {
        return None;
    }
    for _ in 0..200 {
        let mut left: Vec<Tile> = free.iter().copied().filter(|&t| t < JOKER_FIRST).collect();
        let mut out = Vec::new();
        let mut need = value;
        for slot in (0..k64).rev() {
            // this tile's face value, leaving a reachable rest
            let lo = (need - 13 * slot).max(1);
            let hi = (need - slot).min(13);
            let options: Vec<usize> = (0..left.len())
                .filter(|&i| (lo..=hi).contains(&number(left[i]).unwrap()))
                .collect();
            let Some(&i) = options.choose(rng) else {
                break;
            };
            need -= number(left[i]).unwrap();
            out.push(left.swap_remove(i));
        }
        if out.len() == k && need == 0 {
            out.sort_unstable();
            return Some(out);
        }
    }
    None
}

// ---------------------------------------------------------------- cards

#[derive(Clone, Debug)]
struct CardRec {
    session: usize,
    table: usize,
    players: [Option<usize>; 4],
    games: Vec<GameRec>,
    /// Something was forced on this card: leave it alone.
    special: Option<&'static str>,
}

fn date_of(session: usize) -> &'static str {
    match session {
        1..=4 => "2026-03-28",
        5..=8 => "2026-04-06",
        _ => "2026-04-07",
    }
}

/// Seats everyone: 100 players a session (99 where someone did not come),
/// a family's two members in the same session at different tables.
fn seat_players(rng: &mut ChaCha8Rng, people: &[Person]) -> Vec<CardRec> {
    let mut capacity = [100usize; SESSIONS];
    for s in NO_SHOW_SESSIONS {
        capacity[s - 1] -= 1;
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); SESSIONS];
    let mut family_of: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, p) in people.iter().enumerate() {
        if let Some(f) = &p.family {
            family_of.entry(f.as_str()).or_default().push(i);
        }
    }
    let mut families: Vec<&str> = family_of.keys().copied().collect();
    families.sort_unstable();
    for f in families {
        let open: Vec<usize> = (0..SESSIONS)
            .filter(|&s| members[s].len() + 2 <= capacity[s])
            .collect();
        let s = *open.choose(rng).unwrap();
        members[s].extend(&family_of[f]);
    }
    let mut singles: Vec<usize> = (0..people.len())
        .filter(|&i| people[i].family.is_none() && !people[i].no_show)
        .collect();
    singles.shuffle(rng);
    for i in singles {
        let s = (0..SESSIONS)
            .find(|&s| members[s].len() < capacity[s])
            .unwrap();
        members[s].push(i);
    }

    let mut cards = Vec::new();
    for (s, list) in members.iter_mut().enumerate() {
        list.shuffle(rng);
        let three = (list.len() < 4 * TABLES).then(|| rng.random_range(0..TABLES));
        let mut tables: Vec<[Option<usize>; 4]> = Vec::new();
        let mut it = list.iter().copied();
        for t in 0..TABLES {
            let n = if Some(t) == three { 3 } else { 4 };
            let mut seats = [None; 4];
            for seat in seats.iter_mut().take(n) {
                *seat = it.next();
            }
            tables.push(seats);
        }
        // Family members sit at different tables.
        loop {
            let clash = (0..TABLES).find_map(|t| {
                let fams: Vec<(usize, &str)> = (0..4)
                    .filter_map(|k| tables[t][k].map(|p| (k, p)))
                    .filter_map(|(k, p)| people[p].family.as_deref().map(|f| (k, f)))
                    .collect();
                fams.iter()
                    .enumerate()
                    .find_map(|(i, a)| fams[i + 1..].iter().find(|b| b.1 == a.1).map(|b| (t, b.0)))
            });
            let Some((t, k)) = clash else { break };
            let u = (t + 1 + rng.random_range(0..TABLES - 1)) % TABLES;
            let v = rng.random_range(0..3);
            let tmp = tables[t][k];
            tables[t][k] = tables[u][v];
            tables[u][v] = tmp;
        }
        for (t, players) in tables.into_iter().enumerate() {
            cards.push(CardRec {
                session: s + 1,
                table: t + 1,
                players,
                games: Vec::new(),
                special: None,
            });
        }
    }
    cards
}

fn play_card(rng: &mut ChaCha8Rng, card: &mut CardRec, withdraws: Option<usize>) {
    let seated: Vec<usize> = (0..4).filter(|&s| card.players[s].is_some()).collect();
    for g in 0..GAMES {
        let playing: Vec<usize> = seated
            .iter()
            .copied()
            .filter(|&s| !(g == GAMES - 1 && Some(s) == withdraws))
            .collect();
        let ends = play_game(rng, playing.len());
        let mut seats: [Option<SeatEnd>; 4] = Default::default();
        for (end, &s) in ends.into_iter().zip(&playing) {
            seats[s] = Some(end);
        }
        card.games.push(GameRec { seats });
    }
}

// ---------------------------------------------------------------- forcing

/// Kinds of unfinished game with leaders tied on value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tie {
    /// docs/rules.md example 2: two leaders, the one with fewer tiles wins.
    FewerTilesWins,
    /// Example 3: two leaders with as many tiles: both win.
    BothWin,
    /// Three leaders share the pot in thirds.
    Thirds,
}

/// Makes one unfinished 4-player game of a plain card end in `tie`:
/// other seats' racks are redrawn from the tiles not on any rack so that
/// they are worth what the leader's is.
fn force_tie(rng: &mut ChaCha8Rng, cards: &mut [CardRec], tie: Tie, rules: &Rules) -> bool {
    let mut order: Vec<usize> = (0..cards.len()).collect();
    order.shuffle(rng);
    for ci in order {
        if cards[ci].special.is_some() {
            continue;
        }
        for g in 0..GAMES {
            let game = &cards[ci].games[g];
            if game.played() != 4 || !game.unfinished() {
                continue;
            }
            let ends: Vec<&SeatEnd> = game.seats.iter().flatten().collect();
            if ends.iter().any(|e| e.penalty.is_some()) {
                continue;
            }
            let values: Vec<i64> = ends.iter().map(|e| e.value(rules)).collect();
            let m = *values.iter().min().unwrap();
            let leaders: Vec<usize> = (0..4).filter(|&s| values[s] == m).collect();
            if leaders.len() != 1 || ends[leaders[0]].tiles.iter().any(|&t| t >= JOKER_FIRST) {
                continue;
            }
            let l = leaders[0];
            let lt = ends[l].tiles.len();
            let mut others: Vec<usize> = (0..4).filter(|&s| s != l).collect();
            others.shuffle(rng);
            let (copies, counts): (usize, Vec<usize>) = match tie {
                Tie::BothWin => (1, vec![lt]),
                Tie::FewerTilesWins => {
                    let k = if rng.random_bool(0.5) && lt > 1 {
                        lt - 1
                    } else {
                        lt + 1
                    };
                    (1, vec![k])
                }
                Tie::Thirds => {
                    let rest = others[2];
                    let pot = values[rest] - m;
                    if pot % 3 == 0 {
                        continue;
                    }
                    let k1 = rng.random_range(lt.saturating_sub(1).max(1)..=lt + 1);
                    let k2 = rng.random_range(lt.saturating_sub(1).max(1)..=lt + 1);
                    (2, vec![k1, k2])
                }
            };
            let mut game = cards[ci].games[g].clone();
            let mut ok = true;
            for (&s, &k) in others.iter().take(copies).zip(&counts) {
                game.seats[s].as_mut().unwrap().tiles.clear();
                let free = game.free_tiles();
                match craft_rack(rng, &free, m, k) {
                    Some(tiles) => game.seats[s].as_mut().unwrap().tiles = tiles,
                    None => ok = false,
                }
            }
            if !ok {
                continue;
            }
            // check the outcome is the wanted one
            let o = game.outcomes(rules);
            let winners = o.iter().flatten().filter(|o| o.won).count();
            let leaders = o
                .iter()
                .flatten()
                .filter(|x| x.score == o.iter().flatten().map(|o| o.score).max().unwrap())
                .count();
            let want = match tie {
                Tie::FewerTilesWins => leaders == 2 && winners == 1,
                Tie::BothWin => leaders == 2 && winners == 2,
                Tie::Thirds => leaders == 3 && o.iter().flatten().any(|o| o.score.denom() == 3),
            };
            if want {
                cards[ci].games[g] = game;
                cards[ci].special = Some(match tie {
                    Tie::FewerTilesWins => "example 2",
                    Tie::BothWin => "example 3",
                    Tie::Thirds => "thirds",
                });
                return true;
            }
        }
    }
    false
}

/// One rare charge on a plain card where someone went out: a refused meld
/// (a player who never melded, though able to: 200 instead of 100) or a
/// knocked rack (200, tiles left blank).
fn force_charge(rng: &mut ChaCha8Rng, cards: &mut [CardRec], penalty: Penalty) -> bool {
    let mut order: Vec<usize> = (0..cards.len()).collect();
    order.shuffle(rng);
    for ci in order {
        if cards[ci].special.is_some() {
            continue;
        }
        for g in 0..GAMES {
            let game = &mut cards[ci].games[g];
            if game.unfinished() || game.played() != 4 {
                continue;
            }
            let candidates: Vec<usize> = (0..4)
                .filter(|&s| {
                    let e = game.seats[s].as_ref().unwrap();
                    match penalty {
                        // a player who never melded, though able to
                        Penalty::RefusedMeld => e.penalty == Some(Penalty::NoMeld),
                        _ => e.penalty.is_none() && e.tiles.len() >= 5,
                    }
                })
                .collect();
            let Some(&s) = candidates.choose(rng) else {
                continue;
            };
            let e = game.seats[s].as_mut().unwrap();
            e.penalty = Some(penalty);
            e.blank_tiles = penalty == Penalty::Knocked;
            cards[ci].special = Some(match penalty {
                Penalty::Knocked => "knocked",
                Penalty::RefusedMeld => "refused-meld",
                Penalty::NoMeld => "no-meld",
            });
            return true;
        }
    }
    false
}

// ---------------------------------------------------------------- standings

/// The cards as the library's checked cards, for its own tally.
fn domain_cards(cards: &[CardRec], rules: &Rules) -> Vec<Card> {
    let nowhere = Place::nowhere("generated");
    cards
        .iter()
        .map(|c| Card {
            key: CardKey {
                stage: Stage::prelim(),
                session: Label::Num(c.session as u32),
                table: Label::Num(c.table as u32),
            },
            place: nowhere.clone(),
            seats: (0..4)
                .filter_map(|s| {
                    c.players[s].map(|p| SeatPlayer {
                        seat: Seat::ALL[s],
                        player: PlayerId(p as u32),
                        place: nowhere.clone(),
                    })
                })
                .collect(),
            games: c
                .games
                .iter()
                .enumerate()
                .map(|(g, game)| {
                    let o = game.outcomes(rules);
                    Game {
                        number: g as u32 + 1,
                        results: (0..4)
                            .filter_map(|s| {
                                let end = game.seats[s].as_ref()?;
                                let o = o[s]?;
                                Some(SeatResult {
                                    seat: Seat::ALL[s],
                                    player: PlayerId(c.players[s]? as u32),
                                    won: o.won,
                                    score: o.score,
                                    tiles: (!end.blank_tiles).then_some(end.tiles.len() as u16),
                                    place: nowhere.clone(),
                                })
                            })
                            .collect(),
                    }
                })
                .collect(),
        })
        .collect()
}

fn rank(cards: &[CardRec], roster: &Roster, rules: &Rules) -> Standings {
    standings::rank(
        standings::tally(&domain_cards(cards, rules), &Stage::prelim(), rules),
        &Stage::prelim(),
        tilerank::profile::by_name("hk").unwrap().order,
        roster,
    )
}

/// Super Family Award candidates: for `n` families, each member who is not
/// well inside the top 120 trades places with a player of the same session
/// who is (a different seating plan of that session; no game changes).
/// Returns the families made eligible.
fn force_families(
    rng: &mut ChaCha8Rng,
    cards: &mut [CardRec],
    people: &[Person],
    roster: &Roster,
    rules: &Rules,
    n: usize,
) -> Vec<String> {
    let st = rank(cards, roster, rules);
    let top: Vec<usize> = st.ranked[..100]
        .iter()
        .map(|e| e.player().index())
        .collect();
    let locate = |cards: &[CardRec], p: usize| {
        cards.iter().enumerate().find_map(|(ci, c)| {
            c.players
                .iter()
                .position(|&x| x == Some(p))
                .map(|s| (ci, s))
        })
    };
    let mut families: Vec<&str> = people.iter().filter_map(|p| p.family.as_deref()).collect();
    families.sort_unstable();
    families.dedup();
    families.shuffle(rng);
    let mut done = Vec::new();
    for f in families {
        if done.len() == n {
            break;
        }
        let members: Vec<usize> = (0..people.len())
            .filter(|&i| people[i].family.as_deref() == Some(f))
            .collect();
        let places: Vec<(usize, usize)> =
            members.iter().filter_map(|&m| locate(cards, m)).collect();
        if places.len() != 2 || places.iter().any(|&(ci, _)| cards[ci].special.is_some()) {
            continue;
        }
        let session = cards[places[0].0].session;
        let mut plan = cards.to_vec();
        let mut taken: HashSet<usize> = HashSet::new();
        let mut ok = true;
        for (k, &m) in members.iter().enumerate() {
            if top.contains(&m) {
                continue;
            }
            let other_card = locate(&plan, members[1 - k]).unwrap().0;
            let (mc, ms) = locate(&plan, m).unwrap();
            let partner = top.iter().copied().find(|&q| {
                let Some((qc, _)) = locate(&plan, q) else {
                    return false;
                };
                plan[qc].session == session
                    && people[q].family.is_none()
                    && plan[qc].special.is_none()
                    && qc != other_card
                    && qc != mc
                    && !taken.contains(&q)
            });
            let Some(q) = partner else {
                ok = false;
                break;
            };
            taken.insert(q);
            let (qc, qs) = locate(&plan, q).unwrap();
            plan[mc].players[ms] = Some(q);
            plan[qc].players[qs] = Some(m);
        }
        if ok {
            cards.clone_from_slice(&plan);
            done.push(f.to_string());
        }
    }
    done
}

/// The tie across the cutoff, if any: (shared rank, the tied players).
fn straddle_of(st: &Standings) -> Option<(u32, Vec<usize>)> {
    let q = select(st, CUTOFF, CutoffTies::Include);
    let s = q.straddle?;
    let players = st
        .ranked
        .iter()
        .filter(|e| e.rank == Some(s.rank))
        .map(|e| e.player().index())
        .collect();
    Some((s.rank, players))
}

/// The engineered tie at the cutoff: a plain card of another session
/// replays the card of a player ranked near 120, seat for seat, so that the
/// replaying player ties with them on every key. Returns (original card,
/// replaying card, the two players).
fn force_straddle(
    rng: &mut ChaCha8Rng,
    cards: &mut [CardRec],
    roster: &Roster,
    rules: &Rules,
) -> Option<(usize, usize, usize, usize)> {
    let st = rank(cards, roster, rules);
    let position: HashMap<usize, usize> = st
        .ranked
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player().index(), i))
        .collect();
    let card_of: HashMap<usize, usize> = cards
        .iter()
        .enumerate()
        .flat_map(|(ci, c)| c.players.iter().flatten().map(move |&p| (p, ci)))
        .collect();
    // Cards far below the cutoff, to be replaced by the replay.
    let mut targets: Vec<usize> = (0..cards.len())
        .filter(|&ci| {
            let c = &cards[ci];
            c.special.is_none()
                && c.players.iter().all(|p| p.is_some())
                && c.players
                    .iter()
                    .flatten()
                    .all(|p| position.get(p).is_some_and(|&i| i >= 400))
        })
        .collect();
    targets.shuffle(rng);
    for idx in (100..=125).rev() {
        let x = st.ranked[idx].player().index();
        let cx = card_of[&x];
        if cards[cx].special.is_some() || cards[cx].players.iter().any(|p| p.is_none()) {
            continue;
        }
        let session = cards[cx].session;
        let chosen: Vec<usize> = targets
            .iter()
            .copied()
            .filter(|&ct| cards[ct].session != session)
            .take(20)
            .collect();
        for ct in chosen {
            let saved = cards[ct].clone();
            cards[ct].games = cards[cx].games.clone();
            let st2 = rank(cards, roster, rules);
            let seat = cards[cx]
                .players
                .iter()
                .position(|&p| p == Some(x))
                .unwrap();
            let twin = cards[ct].players[seat].unwrap();
            if let Some((_, tied)) = straddle_of(&st2) {
                if tied.contains(&x) && tied.contains(&twin) {
                    cards[ct].special = Some("replay");
                    cards[cx].special = Some("replayed");
                    return Some((cx, ct, x, twin));
                }
            }
            cards[ct] = saved;
        }
    }
    None
}

// ---------------------------------------------------------------- output

fn print_card(
    card: &CardRec,
    people: &[Person],
    unique: &HashSet<String>,
    rules: &Rules,
    referee: &str,
) -> PrintCard {
    let seats = card.players.map(|p| {
        p.map(|p| {
            let person = &people[p];
            if unique.contains(&match_key(&person.name)) {
                person.name.clone()
            } else {
                person.id.clone()
            }
        })
    });
    let games = card
        .games
        .iter()
        .map(|g| {
            let o = g.outcomes(rules);
            let mut lines: [Option<PrintLine>; 4] = Default::default();
            for s in 0..4 {
                if let (Some(end), Some(o)) = (&g.seats[s], o[s]) {
                    lines[s] = Some(PrintLine {
                        won: o.won,
                        score: o.score,
                        tiles: (!end.blank_tiles).then_some(end.tiles.len() as u16),
                    });
                }
            }
            lines
        })
        .collect();
    PrintCard {
        title: TITLE.to_string(),
        date: Some(date_of(card.session).to_string()),
        referee: Some(referee.to_string()),
        session: card.session.to_string(),
        table: card.table.to_string(),
        group: None,
        seats,
        games,
        total: true,
        provisional: None,
    }
}

fn write_all(
    out: &Path,
    people: &[Person],
    cards: &[CardRec],
    referees: &[Vec<&str>],
    rules: &Rules,
) -> Result<Vec<PathBuf>, String> {
    let cards_dir = out.join("cards");
    std::fs::create_dir_all(&cards_dir).map_err(|e| format!("{}: {e}", cards_dir.display()))?;
    write_roster(people, &out.join("roster.csv")).map_err(|e| format!("roster.csv: {e}"))?;
    let mut count: HashMap<String, usize> = HashMap::new();
    for p in people {
        *count.entry(match_key(&p.name)).or_default() += 1;
    }
    let unique: HashSet<String> = count
        .into_iter()
        .filter(|(_, n)| *n == 1)
        .map(|(k, _)| k)
        .collect();
    let mut files = Vec::new();
    for s in 1..=SESSIONS {
        let day = (s - 1) / 4;
        let printed: Vec<PrintCard> = cards
            .iter()
            .filter(|c| c.session == s)
            .map(|c| print_card(c, people, &unique, rules, referees[day][(c.table - 1) / 2]))
            .collect();
        let path = cards_dir.join(format!("S{s:02}.xlsx"));
        write_cards(&printed, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push(path);
    }
    Ok(files)
}

/// `README.md` beside the roster: what the data set is, how it was made,
/// the summary, and where the unusual cards are.
fn write_readme(
    out: &Path,
    summary: &[String],
    cards: &[CardRec],
    people: &[Person],
) -> std::io::Result<()> {
    let mut text = String::from(
        "# HK 2026 demo event\n\n\
         A made-up preliminary round of the Hong Kong 2026 tournament (rules profile `hk`):\n\
         `roster.csv` (1,200 players) and `cards/S01.xlsx` .. `cards/S12.xlsx`, one workbook per\n\
         session, one printed score card per table (sheets `Table 01` .. `Table 25`).\n\n\
         The rules are the tournament's published competition rules and its printed\n\
         preliminary-round score card (3 games a session, ranking by games won, average score,\n\
         then tiles left, the top 120 to the final), as tilerank applies them: `docs/rules.md`.\n\n\
         Written by `cargo run --release --example make_hk_demo` (see `examples/make_hk_demo.rs`);\n\
         do not edit by hand: rerun it, it writes the same bytes every time. Every game was played\n\
         out from a real tile set and scored by `tilerank::rules::scoring::score_game`.\n\n\
         ## Try it\n\n\
         From the clone's root, after `cargo install --path . --locked` (or with\n\
         `cargo run --release --` in place of `tilerank`):\n\n\
         ```sh\n\
         tilerank check      examples/hk-2026/cards --roster examples/hk-2026/roster.csv\n\
         tilerank qualifiers examples/hk-2026/cards --roster examples/hk-2026/roster.csv\n\
         tilerank explain P1200 examples/hk-2026/cards --roster examples/hk-2026/roster.csv\n\
         tilerank export     examples/hk-2026/cards --roster examples/hk-2026/roster.csv -o hk-2026.xlsx\n\
         ```\n\n\
         ## Summary\n\n```text\n",
    );
    for line in summary {
        text.push_str(line.trim_start());
        text.push('\n');
    }
    text.push_str("```\n\n## Cards worth a look\n\n| session | table | what |\n|---|---|---|\n");
    for c in cards {
        let mut what: Vec<String> = Vec::new();
        if let Some(s) = c.special {
            what.push(match s {
                "example 2" => "an unfinished game like the rules' example 2 (leaders tied on value, fewer tiles wins)".into(),
                "example 3" => "an unfinished game like the rules' example 3 (leaders tied on value and tiles: both win)".into(),
                "thirds" => "a pot split three ways (thirds)".into(),
                "withdrawal" => "a player left before game 3 (blank cells, withdrawn)".into(),
                "knocked" => "a knocked rack (charged 200, tiles blank)".into(),
                "refused-meld" => "a refused-meld charge (200)".into(),
                "replay" => "replays another card seat for seat: the tie at the cutoff".into(),
                "replayed" => "the card replayed elsewhere (tie at the cutoff)".into(),
                "disqualified player" => "a disqualified player (roster status)".into(),
                other => other.to_string(),
            });
        }
        if c.players.iter().any(|p| p.is_none()) {
            what.push("3-player table (someone booked did not come)".into());
        }
        let named_by_id: Vec<&str> = c
            .players
            .iter()
            .flatten()
            .filter(|&&p| {
                people
                    .iter()
                    .filter(|q| match_key(&q.name) == match_key(&people[p].name))
                    .count()
                    > 1
            })
            .map(|&p| people[p].id.as_str())
            .collect();
        if !named_by_id.is_empty() {
            what.push(format!("namesakes named by id: {}", named_by_id.join(", ")));
        }
        if !what.is_empty() {
            text.push_str(&format!(
                "| {} | {} | {} |\n",
                c.session,
                c.table,
                what.join("; ")
            ));
        }
    }
    std::fs::write(out.join("README.md"), text)
}

// ---------------------------------------------------------------- main

fn main() -> ExitCode {
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("examples/hk-2026"));
    match run(&out) {
        Ok(failures) if failures.is_empty() => ExitCode::SUCCESS,
        Ok(failures) => {
            for f in failures {
                eprintln!("FAILED: {f}");
            }
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("make_hk_demo: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(out: &Path) -> Result<Vec<String>, String> {
    let rules = Rules::hk();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);

    // Roster, with one disqualified player and two who never came.
    let mut people = make_roster(&mut rng);
    let adults: Vec<usize> = (0..PLAYERS)
        .filter(|&i| people[i].family.is_none() && people[i].age >= 18)
        .collect();
    let picked: Vec<usize> = adults.sample(&mut rng, 3).copied().collect();
    people[picked[0]].disqualified = true;
    people[picked[1]].no_show = true;
    people[picked[2]].no_show = true;
    let roster = library_roster(&people);

    // Seating and play.
    let mut cards = seat_players(&mut rng, &people);
    let four: Vec<usize> = (0..cards.len())
        .filter(|&ci| cards[ci].players.iter().all(|p| p.is_some()))
        .collect();
    let mut leaving: Vec<usize> = Vec::new();
    while leaving.len() < 2 {
        let ci = *four.choose(&mut rng).unwrap();
        if leaving
            .iter()
            .all(|&o| cards[o].session != cards[ci].session)
        {
            leaving.push(ci);
        }
    }
    for (ci, card) in cards.iter_mut().enumerate() {
        let withdraws = leaving.contains(&ci).then(|| rng.random_range(0..4));
        play_card(&mut rng, card, withdraws);
        if withdraws.is_some() {
            card.special = Some("withdrawal");
        }
        if card
            .players
            .iter()
            .flatten()
            .any(|&p| people[p].disqualified)
        {
            card.special = Some("disqualified player");
        }
    }

    // Forced situations.
    let mut failures = Vec::new();
    for (tie, n) in [
        (Tie::FewerTilesWins, 6),
        (Tie::BothWin, 6),
        (Tie::Thirds, 2),
    ] {
        for _ in 0..n {
            if !force_tie(&mut rng, &mut cards, tie, &rules) {
                failures.push(format!(
                    "could not force an unfinished game of kind {tie:?}"
                ));
            }
        }
    }
    for penalty in [Penalty::RefusedMeld, Penalty::Knocked] {
        if !force_charge(&mut rng, &mut cards, penalty) {
            failures.push(format!("could not force a {penalty} charge"));
        }
    }
    let families = force_families(&mut rng, &mut cards, &people, &roster, &rules, 3);
    if families.len() < 3 {
        failures.push(format!(
            "only {} families seated for the Super Family Award",
            families.len()
        ));
    }
    let straddle = force_straddle(&mut rng, &mut cards, &roster, &rules);
    if straddle.is_none() {
        failures.push("could not engineer a tie across the cutoff".into());
    }

    // Referees: thirteen a day, one per pair of tables.
    let referees: Vec<Vec<&str>> = (0..3)
        .map(|_| REFEREES.sample(&mut rng, 13).copied().collect())
        .collect();

    let files = write_all(out, &people, &cards, &referees, &rules)?;

    // ------------------------------------------------------------ verify
    let request = Request {
        keep: tilerank::event::Keep::Cards,
        inputs: vec![out.join("cards")],
        roster: Some(out.join("roster.csv")),
        rules: rules.clone(),
    };
    let event = Event::load(&request).map_err(|e| e.to_string())?;
    for p in event.problems.sorted() {
        eprintln!("{p}");
    }
    if event.problems.has_errors() {
        failures.push(format!(
            "{} errors loading the event",
            event.problems.error_count()
        ));
    }
    let c = &event.counts;
    let expected_cards = SESSIONS * TABLES;
    if c.cards_read != expected_cards
        || c.cards_rejected != 0
        || event.cards.len() != expected_cards
    {
        failures.push(format!(
            "cards: {} read, {} rejected, {} kept; expected {expected_cards}",
            c.cards_read,
            c.cards_rejected,
            event.cards.len()
        ));
    }
    let st = event.standings(&Stage::prelim());
    let q = select(&st, CUTOFF, CutoffTies::Include);

    // What the generator meant is what the library reads.
    let mine = rank(&cards, &roster, &rules);
    let as_pairs = |s: &Standings| -> Vec<(u32, Option<u32>)> {
        s.ranked.iter().map(|e| (e.player().0, e.rank)).collect()
    };
    if as_pairs(&mine) != as_pairs(&st) {
        failures.push("the standings read back differ from the generated ones".into());
    }

    // Games: unfinished, shared leaders, thirds, charges.
    let games: Vec<&Game> = event.cards.iter().flat_map(|c| &c.games).collect();
    let mut unfinished = 0;
    let mut example2 = 0;
    let mut example3 = 0;
    let mut thirds = 0;
    let mut shared_winner_games = 0;
    let mut three_player_games = 0;
    for g in &games {
        if g.results.len() == 3 {
            three_player_games += 1;
        }
        if g.results.iter().any(|r| r.score.denom() == 3) {
            thirds += 1;
        }
        if g.results.iter().all(|r| r.tiles != Some(0)) {
            unfinished += 1;
            let top = g.results.iter().map(|r| r.score).max().unwrap();
            let leaders = g.results.iter().filter(|r| r.score == top).count();
            let winners = g.results.iter().filter(|r| r.won).count();
            if winners > 1 {
                shared_winner_games += 1;
            }
            if leaders >= 2 && winners == 1 {
                example2 += 1;
            }
            if leaders >= 2 && winners >= 2 {
                example3 += 1;
            }
        }
    }
    let finished: Vec<&&Game> = games
        .iter()
        .filter(|g| g.results.iter().any(|r| r.tiles == Some(0)))
        .collect();
    let losers: Vec<u32> = finished
        .iter()
        .flat_map(|g| g.results.iter().filter(|r| !r.won))
        .filter_map(|r| r.tiles.map(u32::from))
        .collect();
    let mean_loser_tiles = f64::from(losers.iter().sum::<u32>()) / losers.len().max(1) as f64;
    let winner_scores: Vec<f64> = finished
        .iter()
        .flat_map(|g| g.results.iter().filter(|r| r.won))
        .map(|r| r.score.to_f64())
        .collect();
    let mean_winner_score = winner_scores.iter().sum::<f64>() / winner_scores.len().max(1) as f64;
    let mut charges: HashMap<String, usize> = HashMap::new();
    for card in &cards {
        for g in &card.games {
            for e in g.seats.iter().flatten() {
                if let Some(p) = e.penalty {
                    *charges.entry(p.to_string()).or_default() += 1;
                }
            }
        }
    }
    let jokers_left = cards
        .iter()
        .flat_map(|c| &c.games)
        .flat_map(|g| g.seats.iter().flatten())
        .filter(|e| e.tiles.iter().any(|&t| t >= JOKER_FIRST))
        .count();
    if example2 < 3 {
        failures.push(format!(
            "only {example2} unfinished games like docs/rules.md example 2"
        ));
    }
    if example3 < 3 {
        failures.push(format!(
            "only {example3} unfinished games like docs/rules.md example 3"
        ));
    }
    if thirds < 1 {
        failures.push("no pot split three ways".into());
    }

    // Standings: shared ranks, withdrawn players, the straddle.
    let mut shared_groups = 0;
    let mut i = 0;
    while i < st.ranked.len() {
        let n = st.ranked[i..]
            .iter()
            .take_while(|e| e.rank == st.ranked[i].rank)
            .count();
        if n > 1 {
            shared_groups += 1;
        }
        i += n;
    }
    if shared_groups < 2 {
        failures.push(format!("only {shared_groups} shared ranks"));
    }
    let withdrawn: Vec<&standings::Entry> = st
        .apart
        .iter()
        .filter(|e| e.apart == Some(Apart::Withdrawn))
        .collect();
    let disqualified = st
        .apart
        .iter()
        .filter(|e| e.apart == Some(Apart::Disqualified))
        .count();
    if withdrawn.is_empty() {
        failures.push("no withdrawn player".into());
    }
    let withdrawal_cards = event
        .cards
        .iter()
        .filter(|c| {
            c.seats.len() == 4
                && c.games
                    .iter()
                    .any(|g| g.number == 3 && g.results.len() == 3)
        })
        .count();
    if withdrawal_cards == 0 {
        failures.push("no 4-player card with a 3-player game 3".into());
    }
    let straddle_ok = q
        .straddle
        .as_ref()
        .is_some_and(|s| s.rank <= CUTOFF && s.rank as usize + s.tied - 1 > CUTOFF as usize);
    if !straddle_ok {
        failures.push(format!(
            "no tie across the top-{CUTOFF} cutoff: {:?}",
            q.straddle
        ));
    }

    // Roster facts.
    let ages: Vec<i32> = people.iter().map(|p| age_on(p.birth, EVENT_DATE)).collect();
    let (youngest, oldest) = (*ages.iter().min().unwrap(), *ages.iter().max().unwrap());
    if youngest != 7 || oldest != 90 {
        failures.push(format!("ages run {youngest} to {oldest}, expected 7 to 90"));
    }
    let young = ages.iter().filter(|&&a| a < 18).count();
    let mut family_members: HashMap<&str, Vec<i32>> = HashMap::new();
    for (p, a) in people.iter().zip(&ages) {
        if let Some(f) = &p.family {
            family_members.entry(f).or_default().push(*a);
        }
    }
    for (f, a) in &family_members {
        let child = a.iter().filter(|&&x| (7..=18).contains(&x)).count();
        let parent = a.iter().filter(|&&x| x >= 18).count();
        if a.len() != 2 || child < 1 || parent < 1 || (a[0] - a[1]).abs() < 18 {
            failures.push(format!(
                "family {f} is not a child and a parent: ages {a:?}"
            ));
        }
    }
    let qualified: HashSet<usize> = q
        .qualified(&st)
        .iter()
        .map(|e| e.player().index())
        .collect();
    let mut both_families: Vec<&str> = family_members
        .keys()
        .copied()
        .filter(|f| {
            people
                .iter()
                .enumerate()
                .filter(|(_, p)| p.family.as_deref() == Some(*f))
                .all(|(i, _)| qualified.contains(&i))
        })
        .collect();
    both_families.sort_unstable();
    if both_families.len() < 2 {
        failures.push(format!(
            "only {} families with both members qualified",
            both_families.len()
        ));
    }
    let mut name_count: HashMap<String, Vec<&str>> = HashMap::new();
    for p in &people {
        name_count
            .entry(match_key(&p.name))
            .or_default()
            .push(&p.id);
    }
    let namesakes: Vec<String> = {
        let mut v: Vec<String> = people
            .iter()
            .filter(|p| name_count[&match_key(&p.name)].len() > 1)
            .map(|p| format!("{} {}", p.id, p.name))
            .collect();
        v.sort();
        v
    };

    // Files: sizes, and the same bytes when written again.
    let mut total_size = 0u64;
    let mut largest = 0u64;
    for f in files.iter().chain([&out.join("roster.csv")]) {
        let size = std::fs::metadata(f).map(|m| m.len()).unwrap_or(0);
        total_size += size;
        if f.extension().is_some_and(|e| e == "xlsx") {
            largest = largest.max(size);
        }
    }
    if largest >= 1_000_000 {
        failures.push(format!(
            "a workbook is {largest} bytes; expected well under 1 MB"
        ));
    }

    // ------------------------------------------------------------ summary
    let no_shows: Vec<String> = people
        .iter()
        .filter(|p| p.no_show)
        .map(|p| format!("{} {}", p.id, p.name))
        .collect();
    println!("HK 2026 demo event written to {}", out.display());
    let mut summary: Vec<String> = Vec::new();
    macro_rules! say {
        ($($t:tt)*) => {{
            let line = format!($($t)*);
            println!("{line}");
            summary.push(line);
        }};
    }
    say!(
        "  roster: {} players ({} under 18, ages {youngest} to {oldest}), {} families, {} disqualified, {} namesakes named by id on the cards: {}",
        people.len(),
        young,
        family_members.len(),
        people.iter().filter(|p| p.disqualified).count(),
        namesakes.len(),
        namesakes.join(", ")
    );
    say!(
        "  no-shows (booked, never came; their sessions have one 3-player table): {}",
        no_shows.join(", ")
    );
    say!(
        "  cards: {} in {} workbooks ({} sheets), {} games ({} with 3 players), {} bytes in all (largest workbook {} bytes)",
        event.cards.len(),
        c.files,
        c.sheets,
        c.games,
        three_player_games,
        total_size,
        largest
    );
    say!(
        "  unfinished games: {unfinished} ({:.0}%); with leaders tied on value: {} like example 2 (fewer tiles wins), {} like example 3 (shared winners); games with shared winners: {shared_winner_games}; pots split in thirds: {thirds}",
        100.0 * unfinished as f64 / games.len() as f64,
        example2,
        example3
    );
    say!(
        "  when someone went out: the others held {mean_loser_tiles:.1} tiles on average, the winner scored {mean_winner_score:.0} on average"
    );
    let mut charge_list: Vec<String> = charges.iter().map(|(k, v)| format!("{k} {v}")).collect();
    charge_list.sort();
    say!(
        "  racks with a joker left: {jokers_left}; penalty charges: {}",
        charge_list.join(", ")
    );
    say!(
        "  standings: {} ranked, {} shared ranks, apart: {} withdrawn ({}), {} disqualified",
        st.ranked.len(),
        shared_groups,
        withdrawn.len(),
        withdrawn
            .iter()
            .map(|e| event.roster.get(e.player()).id.clone())
            .collect::<Vec<_>>()
            .join(", "),
        disqualified
    );
    if let Some(s) = &q.straddle {
        say!(
            "  tie at the cutoff: {} players share rank {} across the top-{CUTOFF} cutoff ({} within it, {} beyond); cutoff ties included",
            s.tied,
            s.rank,
            s.within,
            s.tied - s.within
        );
    }
    if let Some(s) = &q.straddle {
        for e in st.ranked.iter().filter(|e| e.rank == Some(s.rank)) {
            let p = event.roster.get(e.player());
            let t = &e.tally();
            say!(
                "    rank {:>3}: {} {} (won {}, average {}, tiles {})",
                s.rank,
                p.id,
                p.name,
                t.won,
                t.average().signed(),
                t.tiles
            );
        }
    }
    if let Some((cx, ct, x, twin)) = straddle {
        say!(
            "    engineered: session {} table {} replays session {} table {} ({} ties {})",
            cards[ct].session,
            cards[ct].table,
            cards[cx].session,
            cards[cx].table,
            people[twin].id,
            people[x].id
        );
    }
    say!(
        "  qualifiers: {} (top {CUTOFF}, cutoff ties included); families with both members qualified (Super Family Award): {} ({})",
        q.taken,
        both_families.len(),
        both_families.join(", ")
    );
    if failures.is_empty() {
        println!("  verified: loaded with Event::load, no errors, every property holds");
        write_readme(out, &summary, &cards, &people).map_err(|e| format!("README.md: {e}"))?;
    }
    Ok(failures)
}
