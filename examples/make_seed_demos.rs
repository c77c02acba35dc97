//! Writes the two small demo events of the seed rules, as event folders:
//!
//! - `examples/nvso-2023/`: the NVSO 2023 senior olympics Rummikub event
//!   (seed `000`, profile `nvso`): 36 players aged 50 to 90 on 2023-09-13,
//!   so three age groups (50-64, 65-79, 80+); each group plays a qualifying
//!   stage of 3 rounds per table, then a championship table (`final`).
//! - `examples/gwinnett/`: the Gwinnett Senior Golden Games Rummikub event
//!   (seed `001`, profile `gwinnett`, penalty points, lower is better):
//!   27 players at nine prelim tables of 3 games, the table winners to a
//!   `semi` of two games, the semi winners to a one-game `final`.
//!
//! Run: `cargo run --example make_seed_demos [OUTPUT_DIR]` (default
//! `examples`). The output is the same byte for byte on every run (fixed
//! seeds, no clock). Each folder's README.md says what is in it and which
//! commands to try.
//!
//! Every game is dealt from a real tile set (104 numbered tiles and 2
//! jokers): the player who went out holds nothing, the others keep tiles
//! drawn from the set, and the scores are what
//! `tilerank::rules::scoring::score_game` gives for those racks (zero-sum
//! under `nvso`, rack values as penalty points under `gwinnett`). A table
//! is dealt again until it shows what the demo needs (a unique winner, or a
//! tie for it, ...); every condition is written next to the table it
//! concerns.
//!
//! The tables of every stage after the first are drawn exactly as
//! `tilerank seating --from STAGE --seed SEED` draws them, through the same
//! library calls, so the commands in the READMEs print the tables the cards
//! use. At the end the generator loads each event with the library and
//! checks every property the READMEs promise; it exits with status 1 if one
//! fails.

use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tilerank::domain::{PlayerId, Stage};
use tilerank::event::Event;
use tilerank::event_folder::EventFolder;
use tilerank::profile::Rules;
use tilerank::report::going_on::reason;
use tilerank::rules::medals::{award_group, Medal};
use tilerank::rules::rack::Rack;
use tilerank::rules::scoring::{score_game, Outcome};
use tilerank::rules::seating::{self, Seating};
use tilerank::score::Score;

/// The deals of the NVSO demo.
const NVSO_SEED: u64 = 0x2023_0913;
/// The deals of the Gwinnett demo.
const GWINNETT_SEED: u64 = 0x0067_7017;
/// `tilerank seating --seed` of the NVSO demo's tables.
const NVSO_SEATING_SEED: u64 = 2023;
/// `tilerank seating --seed` of the Gwinnett demo's semi and final.
const GWINNETT_SEATING_SEED: u64 = 27;
const NVSO_DATE: &str = "2023-09-13";
const GWINNETT_DATE: &str = "2024-05-14";

// ---------------------------------------------------------------- tiles

/// The tile set by value: 8 of each number 1..13 (four colours, two of
/// each), and two jokers (0 here).
fn tile_set() -> Vec<u8> {
    let mut set: Vec<u8> = (1..=13).flat_map(|n| [n; 8]).collect();
    set.extend([0, 0]);
    set
}

/// One game at a table of `seats`: someone went out with probability
/// `p_out` (else the pool ran dry and everyone holds tiles); the others
/// keep tiles dealt from a shuffled set.
fn deal(rng: &mut ChaCha8Rng, seats: usize, p_out: f64) -> Vec<Rack> {
    let mut set = tile_set();
    set.shuffle(rng);
    let out = rng.random_bool(p_out).then(|| rng.random_range(0..seats));
    (0..seats)
        .map(|s| {
            if out == Some(s) {
                return Rack::out();
            }
            let kept = if out.is_some() {
                rng.random_range(1..=5) + rng.random_range(0..=5)
            } else {
                rng.random_range(1..=6)
            };
            let tiles: Vec<u8> = set.drain(..kept).collect();
            let jokers = tiles.iter().filter(|&&t| t == 0).count() as u8;
            let points = tiles.iter().map(|&t| i64::from(t)).sum();
            Rack::new(points, jokers, kept as u16)
        })
        .collect()
}

// ---------------------------------------------------------------- cards

/// The deals of one demo: its random numbers, its rules, and how often
/// someone goes out.
struct Dealer<'a> {
    rng: ChaCha8Rng,
    rules: &'a Rules,
    p_out: f64,
}

struct Played {
    racks: Vec<Rack>,
    outcomes: Vec<Outcome>,
}

/// One table of one stage: its players in seat order (A, B, C, D) and its
/// games.
struct TableCard {
    stage: &'static str,
    table: u32,
    players: Vec<String>,
    games: Vec<Played>,
}

impl TableCard {
    /// Deals `games` games until `accept` takes the table.
    fn deal_until(
        dealer: &mut Dealer,
        stage: &'static str,
        table: u32,
        players: Vec<String>,
        games: usize,
        accept: impl Fn(&TableCard) -> bool,
    ) -> TableCard {
        let Dealer { rng, rules, p_out } = dealer;
        for _ in 0..2_000_000 {
            let card = TableCard {
                stage,
                table,
                games: (0..games)
                    .map(|_| {
                        let racks = deal(rng, players.len(), *p_out);
                        let outcomes = score_game(&racks, rules).expect("a legal game");
                        Played { racks, outcomes }
                    })
                    .collect(),
                players: players.clone(),
            };
            if accept(&card) {
                return card;
            }
        }
        panic!("{stage} table {table}: no deal met the condition");
    }

    fn totals(&self) -> Vec<Score> {
        (0..self.players.len())
            .map(|s| self.games.iter().map(|g| g.outcomes[s].score).sum())
            .collect()
    }

    fn wins(&self) -> Vec<u32> {
        (0..self.players.len())
            .map(|s| self.games.iter().filter(|g| g.outcomes[s].won).count() as u32)
            .collect()
    }

    /// Seats from best to worst: by total (`higher` or lower first), then
    /// games won.
    fn order(&self, higher: bool) -> Vec<usize> {
        let (t, w) = (self.totals(), self.wins());
        let mut v: Vec<usize> = (0..self.players.len()).collect();
        v.sort_by(|&a, &b| {
            let by_total = if higher {
                t[b].cmp(&t[a])
            } else {
                t[a].cmp(&t[b])
            };
            by_total.then(w[b].cmp(&w[a]))
        });
        v
    }

    /// The file an import would store the card in.
    fn file_name(&self) -> String {
        format!("{}-S01-T{:02}.csv", self.stage, self.table)
    }

    /// The card in the results layout (docs/formats.md), as an import stores it.
    fn csv(&self) -> String {
        let with_stage = self.stage != "prelim";
        let mut s = String::new();
        if with_stage {
            s.push_str("stage,");
        }
        s.push_str("session,table,game,seat,player,won,score,tiles\n");
        for (g, game) in self.games.iter().enumerate() {
            for (i, (rack, o)) in game.racks.iter().zip(&game.outcomes).enumerate() {
                if with_stage {
                    write!(s, "{},", self.stage).unwrap();
                }
                writeln!(
                    s,
                    "S01,{},{},{},{},{},{},{}",
                    self.table,
                    g + 1,
                    ["A", "B", "C", "D"][i],
                    self.players[i],
                    u8::from(o.won),
                    o.score,
                    rack.tiles
                )
                .unwrap();
            }
        }
        s
    }

    /// `table 3: NV07 +45 (2 won), NV12 +3 (1 won), ...`, best first.
    fn summary(&self, higher: bool, signed: bool) -> String {
        let (t, w) = (self.totals(), self.wins());
        let lines: Vec<String> = self
            .order(higher)
            .into_iter()
            .map(|s| {
                let total = if signed {
                    t[s].signed()
                } else {
                    t[s].to_string()
                };
                format!("{} {total} ({} won)", self.players[s], w[s])
            })
            .collect();
        format!("table {}: {}", self.table, lines.join(", "))
    }
}

// ---------------------------------------------------------------- roster

struct Person {
    id: String,
    name: String,
    birth: String,
}

const FIRST: [&str; 40] = [
    "Alice", "Arthur", "Barbara", "Bernard", "Carol", "Charles", "Dorothy", "Donald", "Edith",
    "Edward", "Frances", "Frank", "Gloria", "George", "Helen", "Harold", "Irene", "Howard", "Joan",
    "James", "Judith", "Kenneth", "Linda", "Lawrence", "Margaret", "Martin", "Nancy", "Norman",
    "Patricia", "Paul", "Ruth", "Raymond", "Shirley", "Richard", "Sandra", "Stanley", "Virginia",
    "Walter", "Wanda", "William",
];

const LAST: [&str; 40] = [
    "Adams", "Baker", "Bennett", "Brooks", "Campbell", "Carter", "Collins", "Cooper", "Davis",
    "Edwards", "Evans", "Fisher", "Foster", "Gray", "Green", "Hall", "Harris", "Hayes", "Hughes",
    "Jenkins", "Kelly", "King", "Lewis", "Long", "Marshall", "Miller", "Morgan", "Murphy",
    "Nelson", "Parker", "Perry", "Powell", "Reed", "Russell", "Sanders", "Stewart", "Turner",
    "Walker", "Ward", "Wood",
];

/// A birth date giving `age` on the event date `(year, month, day)`.
fn born_aged(rng: &mut ChaCha8Rng, age: u32, on: (i32, u32, u32)) -> String {
    let month = rng.random_range(1..=12u32);
    let day = rng.random_range(1..=28u32);
    let before_birthday = (on.1, on.2) < (month, day);
    let year = on.0 - age as i32 - i32::from(before_birthday);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `count` distinct names.
fn names(rng: &mut ChaCha8Rng, count: usize) -> Vec<String> {
    let mut all: Vec<String> = FIRST
        .iter()
        .flat_map(|f| LAST.iter().map(move |l| format!("{f} {l}")))
        .collect();
    all.shuffle(rng);
    let mut firsts = std::collections::HashSet::new();
    let mut lasts = std::collections::HashSet::new();
    all.into_iter()
        .filter(|n| {
            let (f, l) = n.split_once(' ').unwrap();
            // every first and last name once: nobody is a namesake
            let fresh = !firsts.contains(f) && !lasts.contains(l);
            if fresh {
                firsts.insert(f.to_string());
                lasts.insert(l.to_string());
            }
            fresh
        })
        .take(count)
        .collect()
}

fn roster_csv(people: &[Person]) -> String {
    let mut s = String::from("id,name,birth_date\n");
    for p in people {
        writeln!(s, "{},{},{}", p.id, p.name, p.birth).unwrap();
    }
    s
}

// ---------------------------------------------------------------- files

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Writes the cards of a stage, replacing that stage's files.
fn write_cards(dir: &Path, cards: &[TableCard]) {
    let cards_dir = dir.join("cards");
    std::fs::create_dir_all(&cards_dir).unwrap();
    for card in cards {
        write(&cards_dir.join(card.file_name()), &card.csv());
    }
}

/// A fresh event folder: settings and roster, no cards.
fn start_folder(dir: &Path, toml: &str, people: &[Person]) {
    if dir.join("cards").exists() {
        std::fs::remove_dir_all(dir.join("cards")).unwrap();
    }
    write(&dir.join("tilerank.toml"), toml);
    write(&dir.join("roster.csv"), &roster_csv(people));
}

/// The event as every reading command loads it.
fn load(dir: &Path) -> Event {
    let folder = EventFolder::open(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    folder
        .load(&[], None)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

fn id(event: &Event, p: PlayerId) -> String {
    event.roster.get(p).id.clone()
}

/// What `tilerank seating [--from FROM] [--group G] [--player ..] --seed SEED`
/// draws: the players who go on from `from` (every active roster player of
/// the group without it), former table-mates of `from` kept apart.
fn seat_like_the_cli(
    event: &Event,
    from: Option<&Stage>,
    group: Option<&str>,
    named: &[PlayerId],
    seed: u64,
) -> Seating {
    let players: Vec<PlayerId> = match from {
        Some(f) => {
            let list = event.advance(f, group, named);
            assert!(list.settled, "who goes on from {f} is settled");
            list.going.iter().map(|a| a.player).collect()
        }
        None => event
            .roster
            .iter()
            .filter(|(p, _)| {
                group.is_none_or(|g| event.groups.of.get(p).map(String::as_str) == Some(g))
            })
            .map(|(p, _)| p)
            .collect(),
    };
    let previous: HashMap<PlayerId, String> = event
        .cards
        .iter()
        .filter(|c| from.is_some_and(|f| &c.key.stage == f))
        .flat_map(|c| c.seats.iter().map(move |s| (s.player, c.key.to_string())))
        .collect();
    seating::random(&players, &previous, seed, |p| id(event, p)).expect("the players can be seated")
}

fn seat_ids(event: &Event, seating: &Seating) -> Vec<Vec<String>> {
    seating
        .tables
        .iter()
        .map(|t| t.players().map(|p| id(event, p)).collect())
        .collect()
}

/// Failed promises, for the exit status.
#[derive(Default)]
struct Verdict {
    failures: Vec<String>,
}

impl Verdict {
    fn expect(&mut self, ok: bool, what: impl Into<String>) {
        if !ok {
            self.failures.push(what.into());
        }
    }
}

// ---------------------------------------------------------------- NVSO

/// NVSO's groups, the players in each, and the qualifying tables (sizes
/// as `tilerank seating` draws them: 8 = 4+4, 16 = 4x4, 12 = 4x3).
const NVSO_GROUPS: [(&str, u32, u32, usize); 3] = [
    ("50-64", 50, 64, 8),
    ("65-79", 65, 79, 16),
    ("80+", 80, 90, 12),
];

fn nvso(root: &Path, verdict: &mut Verdict) {
    let dir = root.join("nvso-2023");
    let rules = tilerank::profile::by_name("nvso").unwrap();
    let mut dealer = Dealer {
        rng: ChaCha8Rng::seed_from_u64(NVSO_SEED),
        rules: &rules,
        p_out: 0.8,
    };
    let rng = &mut dealer.rng;
    let on = (2023, 9, 13);

    // The roster: ages drawn in each group's range, entered in a random
    // order. Two birthdays fall on the group edge: one player turns 65 on
    // the event day (65-79), one the day after (still 64: 50-64).
    let total: usize = NVSO_GROUPS.iter().map(|g| g.3).sum();
    let mut births: Vec<String> = Vec::new();
    for &(_, min, max, count) in &NVSO_GROUPS {
        for _ in 0..count {
            let age = rng.random_range(min..=max);
            births.push(born_aged(rng, age, on));
        }
    }
    births[0] = "1958-09-14".to_string(); // 64 on the day: 50-64
    births[8] = "1958-09-13".to_string(); // 65 on the day: 65-79
    births.shuffle(rng);
    let people: Vec<Person> = names(rng, total)
        .into_iter()
        .zip(births)
        .enumerate()
        .map(|(i, (name, birth))| Person {
            id: format!("NV{:02}", i + 1),
            name,
            birth,
        })
        .collect();
    let toml = format!(
        "# NVSO 2023 senior olympics Rummikub (demo data; see README.md).\n\
         [event]\n\
         name = \"NVSO 2023 Rummikub\"\n\
         date = \"{NVSO_DATE}\"\n\
         profile = \"nvso\"\n\n\
         # Each qualifying table plays 3 rounds (NVSO: a game of 3 or more\n\
         # rounds); so does the championship table.\n\
         [stages.prelim]\n\
         games = 3\n\n\
         [stages.final]\n\
         games = 3\n"
    );
    start_folder(&dir, &toml, &people);

    // The qualifying tables, drawn per group as `tilerank seating --seed`
    // draws them, numbered on through the groups (tables 1-2, 3-6, 7-9).
    let event = load(&dir);
    let mut prelim: Vec<TableCard> = Vec::new();
    let mut first_table = 1;
    for &(group, ..) in &NVSO_GROUPS {
        let seating = seat_like_the_cli(&event, None, Some(group), &[], NVSO_SEATING_SEED);
        let tables = seat_ids(&event, &seating);
        for (i, players) in tables.into_iter().enumerate() {
            let number = first_table + i as u32;
            let previous_second_behind = match (group, prelim.last()) {
                ("50-64", Some(t1)) => {
                    let o = t1.order(true);
                    Some(t1.totals()[o[0]] - t1.totals()[o[1]])
                }
                _ => None,
            };
            let card = TableCard::deal_until(&mut dealer, "prelim", number, players, 3, |t| {
                let tot = t.totals();
                let o = t.order(true);
                let (first, second, third) = (tot[o[0]], tot[o[1]], tot[o[2]]);
                match (group, i) {
                    // 80+ table 7: two players share the highest total
                    ("80+", 0) => first == second && second > third,
                    // 50-64 table 2: its second finishes closer to the
                    // winner than table 1's second, so the seconds' order
                    // (by distance) is not the table order
                    ("50-64", 1) => {
                        first > second
                            && second > third
                            && previous_second_behind.is_some_and(|d| first - second < d)
                    }
                    // 50-64 table 1: a second far enough behind to leave
                    // room for a closer one
                    ("50-64", 0) => {
                        first > second && second > third && first - second >= Score::whole(20)
                    }
                    // every other table: one winner, one second
                    _ => first > second && second > third,
                }
            });
            prelim.push(card);
        }
        first_table += seating.tables.len() as u32;
    }
    write_cards(&dir, &prelim);

    // The championship tables: who goes on, seated as `tilerank seating
    // --from prelim --seed` seats them; numbered 1, 2, 3 by group.
    let event = load(&dir);
    let mut finals: Vec<TableCard> = Vec::new();
    for (g, &(group, ..)) in NVSO_GROUPS.iter().enumerate() {
        let seating = seat_like_the_cli(
            &event,
            Some(&Stage::prelim()),
            Some(group),
            &[],
            NVSO_SEATING_SEED,
        );
        let players = seat_ids(&event, &seating).remove(0);
        let card = TableCard::deal_until(&mut dealer, "final", g as u32 + 1, players, 3, |t| {
            let (tot, w) = (t.totals(), t.wins());
            let o = t.order(true);
            let key = |i: usize| (tot[o[i]], w[o[i]]);
            if group == "65-79" {
                // two players tie for third on every key: a shared bronze
                key(0) != key(1) && key(1) != key(2) && key(2) == key(3)
            } else {
                key(0) != key(1) && key(1) != key(2) && key(2) != key(3)
            }
        });
        finals.push(card);
    }
    write_cards(&dir, &finals);

    // What the README promises.
    let event = load(&dir);
    verdict.expect(event.problems.is_empty(), "nvso-2023: no problems");
    verdict.expect(
        event.groups.names == ["50-64", "65-79", "80+"],
        "nvso-2023: three age groups",
    );
    let prelim_stage = Stage::prelim();
    let final_stage = Stage::new("final");
    let mut readme_groups = String::new();
    for (g, &(group, _, _, count)) in NVSO_GROUPS.iter().enumerate() {
        let members = event.groups.of.values().filter(|x| *x == group).count();
        verdict.expect(
            members == count,
            format!("nvso-2023: {count} players in {group}"),
        );
        let list = event.advance(&prelim_stage, Some(group), &[]);
        verdict.expect(
            list.settled && list.going.len() == 4,
            format!("nvso-2023: 4 go on in {group}"),
        );
        let tables: Vec<&TableCard> = prelim
            .iter()
            .filter(|t| {
                t.players.iter().all(|p| {
                    event
                        .roster
                        .find(p)
                        .ok()
                        .and_then(|x| event.groups.of.get(&x))
                        .map(String::as_str)
                        == Some(group)
                })
            })
            .collect();
        writeln!(
            readme_groups,
            "### Group {group} ({count} players, {} tables)\n",
            tables.len()
        )
        .unwrap();
        readme_groups.push_str("Qualifying totals, best first:\n\n");
        for t in &tables {
            writeln!(readme_groups, "- {}", t.summary(true, true)).unwrap();
        }
        readme_groups.push_str("\nGoing on to the championship table (`tilerank advance`):\n\n");
        for a in &list.going {
            let (p, reason) = (&a.player, reason(a));
            writeln!(
                readme_groups,
                "- {} {}: {reason}",
                id(&event, *p),
                event.roster.get(*p).name
            )
            .unwrap();
        }
        let fin = &finals[g];
        writeln!(
            readme_groups,
            "\nChampionship, final table {} (seats A-D: {}): {}\n",
            fin.table,
            fin.players.join(", "),
            fin.summary(true, true).split_once(": ").unwrap().1
        )
        .unwrap();
        let medals = award_group(group, &event.standings_in(&final_stage, Some(group)));
        for m in &medals.medalists {
            writeln!(
                readme_groups,
                "- {}: {} {}{}",
                m.medal,
                id(&event, m.player),
                event.roster.get(m.player).name,
                if m.shared { " (shared)" } else { "" }
            )
            .unwrap();
        }
        readme_groups.push('\n');
        let golds = medals.holders(Medal::Gold).len();
        let bronzes = medals.holders(Medal::Bronze).len();
        verdict.expect(golds == 1, format!("nvso-2023: one gold in {group}"));
        verdict.expect(
            bronzes == if group == "65-79" { 2 } else { 1 },
            format!("nvso-2023: bronzes in {group}"),
        );
        match group {
            "50-64" => {
                let seconds: Vec<String> = list
                    .going
                    .iter()
                    .map(reason)
                    .filter(|r| r.starts_with("best second"))
                    .collect();
                verdict.expect(
                    seconds.len() == 2
                        && seconds[0].ends_with("table 2")
                        && seconds[1].ends_with("table 1"),
                    "nvso-2023: 50-64's seconds go on in order of distance, table 2's first",
                );
            }
            "80+" => verdict.expect(
                list.going
                    .iter()
                    .filter(|a| reason(a).ends_with("(shared)"))
                    .count()
                    == 2,
                "nvso-2023: two share the highest total at table 7",
            ),
            _ => {}
        }
    }
    write(&dir.join("README.md"), &nvso_readme(&event, &readme_groups));
}

fn nvso_readme(event: &Event, groups: &str) -> String {
    let edge = |birth: &str| {
        event
            .roster
            .iter()
            .find(|(_, p)| p.birth_date.as_deref() == Some(birth))
            .map(|(pid, p)| format!("{} {} (group {})", p.id, p.name, event.groups.of[&pid]))
            .unwrap_or_default()
    };
    format!(
        r#"# NVSO 2023 demo event (profile `nvso`)

A made-up field for the NVSO 2023 senior olympics Rummikub event, held on
{NVSO_DATE}, under the rules NVSO published for it (age groups by the number
of players, rounds within a timed game, a championship table; tilerank's
profile `nvso`, see `docs/rules.md`). This folder is an event folder: every
reading command takes `--event examples/nvso-2023`. It holds the event as files, with no database: reading commands read them
as they are, and `roster` or `import` into it print the commands that build
a database event from it.

| file | what |
|---|---|
| `tilerank.toml` | `profile = "nvso"`, the event date (ages are taken on it), 3 rounds per table |
| `roster.csv` | 36 players aged 50 to 90 on the event date: `id,name,birth_date` |
| `cards/prelim-S01-T01.csv` .. `T09` | the qualifying tables (results layout, one file per card, as `tilerank dump` writes them) |
| `cards/final-S01-T01.csv` .. `T03` | the championship tables, one per age group |

Written by `cargo run --example make_seed_demos` (`examples/make_seed_demos.rs`;
do not edit by hand: rerun it, it writes the same bytes every time). Every
round was dealt from a real tile set and scored from the racks left by
`tilerank::rules::scoring::score_game` (zero-sum, jokers 30).

## The rules at work (`docs/rules.md`, sections 7 and 8)

- **Three age groups.** More than 32 players: `50-64`, `65-79`, `80+`, ages on
  the event date. On the edge: {turns65} turns 65 on the event day;
  {still64} turns 65 the day after and still plays in 50-64.
- **Each group runs its own stages.** The qualifying tables are drawn per
  group (8 players: 2 tables; 16: 4; 12: 3).
- **Table winners, then best seconds.** At each table every player with the
  highest total goes on; the second-placed players of the group's tables,
  by how few points they finished behind their winner, fill the
  championship table up to 4. In 50-64 (two tables) both seconds go, table
  2's first because it finished closer. In 80+, two players share the
  highest total of table 7 and both go on, so the group's three tables give
  four winners and no second is needed. 65-79 has four tables: four winners.
- **Medals per group** from the championship table: gold, silver, bronze. In
  65-79 two players finish level on every key (total, then rounds won) in
  third place: both get bronze.

## Try it

```sh
tilerank check     --event examples/nvso-2023
tilerank standings --event examples/nvso-2023                 # the qualifying stage; column group
tilerank advance   --event examples/nvso-2023                 # per group: table winners, best seconds
tilerank advance   --event examples/nvso-2023 --group 50-64 --format csv
tilerank seating   --event examples/nvso-2023 --seed {NVSO_SEATING_SEED}              # the qualifying tables, per group
tilerank seating   --event examples/nvso-2023 --from prelim --seed {NVSO_SEATING_SEED}  # the championship tables
tilerank standings --event examples/nvso-2023 --stage final
tilerank medals    --event examples/nvso-2023
tilerank medals    --event examples/nvso-2023 --group 80+ --format csv
```

Run them from the clone's root after `cargo install --path . --locked`
(or with `cargo run -q --` in place of `tilerank`).

The seating commands print exactly the tables the cards use, with one
difference: `tilerank seating` numbers each group's tables from 1, while the
cards number the tables of one session on through the groups (50-64:
tables 1-2, 65-79: 3-6, 80+: 7-9; the championship tables are 1, 2, 3 in
group order), since a session cannot have two tables 1.

`standings` ranks the stage's players all together (each line shows its
group); advancement, seating and medals are per group. `advance` and
`seating` print one table per group: for CSV, give one `--group`.

## What is in the data

{groups}"#,
        turns65 = edge("1958-09-13"),
        still64 = edge("1958-09-14"),
    )
}

// ---------------------------------------------------------------- Gwinnett

const GWINNETT_PLAYERS: usize = 27;
/// The prelim table (1-based) where two players share the lowest total.
const GWINNETT_TIE_TABLE: u32 = 6;

fn gwinnett(root: &Path, verdict: &mut Verdict) {
    let dir = root.join("gwinnett");
    let rules = tilerank::profile::by_name("gwinnett").unwrap();
    let mut dealer = Dealer {
        rng: ChaCha8Rng::seed_from_u64(GWINNETT_SEED),
        rules: &rules,
        p_out: 0.85,
    };
    let rng = &mut dealer.rng;
    let on = (2024, 5, 14);
    let people: Vec<Person> = names(rng, GWINNETT_PLAYERS)
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let age = rng.random_range(55..=88);
            Person {
                id: format!("GW{:02}", i + 1),
                name,
                birth: born_aged(rng, age, on),
            }
        })
        .collect();
    let toml = format!(
        "# Gwinnett Senior Golden Games Rummikub (demo data; see README.md).\n\
         [event]\n\
         name = \"Gwinnett Senior Golden Games Rummikub\"\n\
         date = \"{GWINNETT_DATE}\"\n\
         profile = \"gwinnett\"\n\n\
         # Each table plays three games; the table winners (lowest total)\n\
         # play two games; their winners play one game.\n\
         [stages.prelim]\n\
         games = 3\n\n\
         [stages.semi]\n\
         games = 2\n\n\
         [stages.final]\n\
         games = 1\n"
    );
    start_folder(&dir, &toml, &people);

    // The director's draw: nine tables of 3, so that the winners fill three
    // semi tables and the semi winners one final table of 3.
    let mut ids: Vec<String> = people.iter().map(|p| p.id.clone()).collect();
    ids.shuffle(rng);
    let prelim: Vec<TableCard> = ids
        .chunks(3)
        .enumerate()
        .map(|(i, players)| {
            let number = i as u32 + 1;
            TableCard::deal_until(&mut dealer, "prelim", number, players.to_vec(), 3, |t| {
                let (tot, w) = (t.totals(), t.wins());
                let o = t.order(false);
                if number == GWINNETT_TIE_TABLE {
                    // two share the lowest total; the one with more games
                    // won is the director's choice
                    tot[o[0]] == tot[o[1]] && tot[o[1]] < tot[o[2]] && w[o[0]] > w[o[1]]
                } else {
                    tot[o[0]] < tot[o[1]]
                }
            })
        })
        .collect();
    write_cards(&dir, &prelim);
    let tie = &prelim[GWINNETT_TIE_TABLE as usize - 1];
    let named_id = tie.players[tie.order(false)[0]].clone();
    let other_id = tie.players[tie.order(false)[1]].clone();

    // The semi: the table winners, the tie settled by the director.
    let event = load(&dir);
    let named = [event.roster.find(&named_id).unwrap()];
    let seating = seat_like_the_cli(
        &event,
        Some(&Stage::prelim()),
        None,
        &named,
        GWINNETT_SEATING_SEED,
    );
    let semi: Vec<TableCard> = seat_ids(&event, &seating)
        .into_iter()
        .enumerate()
        .map(|(i, players)| {
            TableCard::deal_until(&mut dealer, "semi", i as u32 + 1, players, 2, |t| {
                let tot = t.totals();
                let o = t.order(false);
                tot[o[0]] < tot[o[1]]
            })
        })
        .collect();
    write_cards(&dir, &semi);

    // The final: the semi winners, one game.
    let event = load(&dir);
    let seating = seat_like_the_cli(
        &event,
        Some(&Stage::new("semi")),
        None,
        &[],
        GWINNETT_SEATING_SEED,
    );
    let players = seat_ids(&event, &seating).remove(0);
    let fin = TableCard::deal_until(&mut dealer, "final", 1, players, 1, |t| {
        let tot = t.totals();
        let o = t.order(false);
        tot[o[0]] < tot[o[1]] && tot[o[1]] < tot[o[2]]
    });
    write_cards(&dir, std::slice::from_ref(&fin));

    // What the README promises.
    let event = load(&dir);
    verdict.expect(event.problems.is_empty(), "gwinnett: no problems");
    let prelim_stage = Stage::prelim();
    let open = event.advance(&prelim_stage, None, &[]);
    verdict.expect(
        open.settled && open.going.len() == 10 && open.decisions.len() == 1,
        "gwinnett: the tie is reported and both tied players go on",
    );
    let settled = event.advance(&prelim_stage, None, &named);
    verdict.expect(
        settled.settled && settled.going.len() == 9,
        "gwinnett: --player settles the tie",
    );
    let semi_list = event.advance(&Stage::new("semi"), None, &[]);
    verdict.expect(
        semi_list.settled && semi_list.going.len() == 3,
        "gwinnett: 3 semi winners",
    );
    let medals = tilerank::rules::medals::award(&event.standings(&Stage::new("final")));
    verdict.expect(
        medals.medalists.len() == 3 && Medal::ALL.iter().all(|m| medals.holders(*m).len() == 1),
        "gwinnett: one gold, one silver, one bronze",
    );

    let mut data = String::new();
    data.push_str("### Prelim (9 tables of 3, 3 games), lowest total first\n\n");
    for t in &prelim {
        writeln!(data, "- {}", t.summary(false, false)).unwrap();
    }
    data.push_str("\nGoing on to the semi, once the director named ");
    writeln!(
        data,
        "{named_id} (`tilerank advance --player {named_id}`):\n"
    )
    .unwrap();
    for a in &settled.going {
        let (p, reason) = (&a.player, reason(a));
        writeln!(
            data,
            "- {} {}: {reason}",
            id(&event, *p),
            event.roster.get(*p).name
        )
        .unwrap();
    }
    data.push_str("\n### Semi (3 tables of 3, 2 games)\n\n");
    for t in &semi {
        writeln!(data, "- {}", t.summary(false, false)).unwrap();
    }
    data.push_str("\n### Final (1 game)\n\n");
    writeln!(data, "- {}\n", fin.summary(false, false)).unwrap();
    for m in &medals.medalists {
        writeln!(
            data,
            "- {}: {} {}",
            m.medal,
            id(&event, m.player),
            event.roster.get(m.player).name
        )
        .unwrap();
    }
    write(
        &dir.join("README.md"),
        &gwinnett_readme(&named_id, &other_id, &data),
    );
}

fn gwinnett_readme(named: &str, other: &str, data: &str) -> String {
    format!(
        r#"# Gwinnett demo event (profile `gwinnett`)

A made-up field for the Gwinnett Senior Golden Games Rummikub event, under
the rules its organisers published (tables of 3 or 4, three games, the
lowest score of each table going on to a two-game round, then a one-game
final; tilerank's profile `gwinnett`, see `docs/rules.md`). Penalty points:
each player scores what is left on the rack (jokers 30), whoever went out
scores 0, and lower is better everywhere. This folder is an event folder:
every reading command takes `--event examples/gwinnett`. It holds the event as files, with no database: reading commands read them
as they are, and `roster` or `import` into it print the commands that build
a database event from it.

| file | what |
|---|---|
| `tilerank.toml` | `profile = "gwinnett"`; games per card: prelim 3, semi 2, final 1 |
| `roster.csv` | 27 players: `id,name,birth_date` |
| `cards/prelim-S01-T01.csv` .. `T09` | nine prelim tables of 3 players, 3 games |
| `cards/semi-S01-T01.csv` .. `T03` | three semi tables of 3, 2 games |
| `cards/final-S01-T01.csv` | the final, 1 game |

Written by `cargo run --example make_seed_demos` (`examples/make_seed_demos.rs`;
do not edit by hand: rerun it, it writes the same bytes every time). Every
game was dealt from a real tile set and scored from the racks left by
`tilerank::rules::scoring::score_game`.

## The rules at work (`docs/rules.md`, sections 4, 7 and 8)

- **Why 27 players at tables of 3.** Each table's winner goes on, so the
  final has as many players as the semi has tables, and the semi as many as
  the prelim has tables. A final of 3 (gold, silver, bronze) needs three semi
  tables, so nine prelim tables: the director seated 27 players at nine
  tables of 3 (the rules allow 3 or 4). With 24 players the prelim has at
  most eight tables, the semi at most two, and the final only 2 players.
- **A tie for a table's lowest total.** At prelim table {tie} {named} and
  {other} share the lowest total: ten players for nine semi seats. The rules
  send both on unless the director names one, and `tilerank advance` says
  so in a NOTE (exit 0); to keep three semi tables of 3 the director names
  {named} (more games won) with `--player {named}` (or `named = ["{named}"]`
  under `[qualifiers]` in `tilerank.toml`, which every command then
  applies), and the nine table winners play the semi.
- **Semi and final** start fresh (no carry-over): the semi's table winners
  play the one-game final; the lowest is gold, then silver and bronze.

## Try it

```sh
tilerank check     --event examples/gwinnett
tilerank standings --event examples/gwinnett                      # prelim, fewest points first
tilerank advance   --event examples/gwinnett                      # NOTE: the tie at table {tie}, both go on
tilerank advance   --event examples/gwinnett --player {named}
tilerank seating   --event examples/gwinnett --from prelim --player {named} --seed {seed}   # the semi tables
tilerank standings --event examples/gwinnett --stage semi
tilerank advance   --event examples/gwinnett --stage semi
tilerank seating   --event examples/gwinnett --from semi --seed {seed}                  # the final table
tilerank standings --event examples/gwinnett --stage final
tilerank medals    --event examples/gwinnett
```

Run them from the clone's root after `cargo install --path . --locked`
(or with `cargo run -q --` in place of `tilerank`). The seating commands
print exactly the tables the semi and final cards use. The prelim
seating is the director's own draw: `tilerank seating` seats as few tables
as it can (27 players: six tables of 4 and one of 3) and has no option for
tables of 3.

## What is in the data

{data}"#,
        tie = GWINNETT_TIE_TABLE,
        seed = GWINNETT_SEATING_SEED,
    )
}

fn main() -> ExitCode {
    let root = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("examples"));
    let mut verdict = Verdict::default();
    nvso(&root, &mut verdict);
    gwinnett(&root, &mut verdict);
    for f in &verdict.failures {
        eprintln!("demo check failed: {f}");
    }
    if verdict.failures.is_empty() {
        eprintln!(
            "wrote {} and {}",
            root.join("nvso-2023").display(),
            root.join("gwinnett").display()
        );
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
