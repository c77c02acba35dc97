//! Every setting of `tilerank.toml` takes effect. Each case starts from the
//! file `tilerank init` writes for a profile (every setting present at its
//! default), runs a command, changes one line, runs it again, and sees the
//! result change the way the setting says. The cards and rosters are given
//! as INPUTs, so the event folder holds only its settings.
//!
//! `[qualifiers] table_ties` and `named` are shown on the Gwinnett demo in
//! `one_model.rs` as well; the bad values of every setting, each naming its
//! line, are in `src/config.rs`.

use crate::test::{fixtures, Output, Test};
use std::path::{Path, PathBuf};

struct Event {
    dir: PathBuf,
}

impl Event {
    /// `tilerank init` for `profile`, then the default settings edited by
    /// `base` (pairs of line, replacement).
    fn new(name: &str, profile: &str, base: &[(&str, &str)]) -> Event {
        let dir =
            std::env::temp_dir().join(format!("tilerank-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Test::new()
            .args(["init", "--profile", profile, "--name", "Settings Open"])
            .args(["--date", "2026-03-28"])
            .arg(&dir)
            .run()
            .success();
        let event = Event { dir };
        event.edit(base);
        event
    }

    fn toml(&self) -> PathBuf {
        self.dir.join("tilerank.toml")
    }

    #[track_caller]
    fn edit(&self, changes: &[(&str, &str)]) {
        let mut text = std::fs::read_to_string(self.toml()).unwrap();
        for (from, to) in changes {
            assert!(
                text.contains(from),
                "the template has no line {from:?}:\n{text}"
            );
            text = text.replacen(from, to, 1);
        }
        std::fs::write(self.toml(), text).unwrap();
    }

    fn run(&self, args: &[&str]) -> Output {
        Test::new().args(args).arg("--event").arg(&self.dir).run()
    }

    /// The output before and after one change of the settings.
    fn before_after(&self, change: (&str, &str), args: &[&str]) -> (Output, Output) {
        let before = self.run(args);
        self.edit(&[change]);
        let after = self.run(args);
        assert_ne!(
            (&before.stdout, &before.stderr, before.status),
            (&after.stdout, &after.stderr, after.status),
            "{change:?} changed nothing for {args:?}"
        );
        (before, after)
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn fixture(path: &str) -> String {
    fixtures().join(path).display().to_string()
}

/// No schedule: the cards given are the whole event.
const UNSCHEDULED: (&str, &str) = ("# check = true", "check = false");

/// One table's racks: game 1 A out, B no-meld, C refused-meld, D knocked;
/// game 2 nobody out, A holds a joker, B has the lowest rack (8, 3 tiles)
/// and D the fewest tiles (10, 1 tile); game 3 C out.
const RACKS: &str = "session,table,game,seat,player,points,jokers,tiles,penalty
S01,1,1,A,P1,0,0,0,
S01,1,1,B,P2,12,0,3,no-meld
S01,1,1,C,P3,20,0,4,refused-meld
S01,1,1,D,P4,,,,knocked
S01,1,2,A,P1,5,1,2,
S01,1,2,B,P2,8,0,3,
S01,1,2,C,P3,20,0,3,
S01,1,2,D,P4,10,0,1,
S01,1,3,A,P1,6,0,2,
S01,1,3,B,P2,7,0,2,
S01,1,3,C,P3,0,0,0,
S01,1,3,D,P4,9,0,3,
";

fn racks(event: &Event) -> String {
    let path = event.dir.join("racks.csv");
    std::fs::write(&path, RACKS).unwrap();
    path.display().to_string()
}

/// A player's line of the standings CSV.
fn line_of<'a>(out: &'a Output, player: &str) -> &'a str {
    out.stdout
        .lines()
        .find(|l| l.split(',').nth(1) == Some(player))
        .unwrap_or_else(|| panic!("{player} not in\n{}", out.stdout))
}

#[test]
fn rules_joker_value_penalties_and_mode_change_the_computed_scores() {
    for (setting, to, player) in [
        ("joker_value = 30", "joker_value = 50", "P1"),
        ("no_meld = 100", "no_meld = 150", "P2"),
        ("refused_meld = 200", "refused_meld = 250", "P3"),
        ("knocked = 200", "knocked = 300", "P4"),
        ("penalty_mode = \"replace\"", "penalty_mode = \"add\"", "P2"),
    ] {
        let event = Event::new("racks", "hk", &[UNSCHEDULED]);
        let input = racks(&event);
        let (before, after) =
            event.before_after((setting, to), &["standings", &input, "--format", "csv"]);
        assert_ne!(
            line_of(&before, player),
            line_of(&after, player),
            "{setting} -> {to}"
        );
    }
}

#[test]
fn rules_no_winner_by_picks_the_leader_of_an_unfinished_game() {
    let event = Event::new("nowinner", "hk", &[UNSCHEDULED]);
    let input = racks(&event);
    let (before, after) = event.before_after(
        ("no_winner_by = \"value\"", "no_winner_by = \"tiles\""),
        &["standings", &input, "--format", "csv"],
    );
    // Game 2: B leads on value (8), D on tiles (1 tile).
    let won = |out: &Output, p: &str| line_of(out, p).split(',').nth(5).unwrap().to_string();
    assert_eq!(won(&before, "P4"), "0");
    assert_eq!(won(&after, "P4"), "1");
}

#[test]
fn rules_games_per_session_and_stage_games_are_checked() {
    let prelim = fixture("e2e/hk/cards/prelim.csv");
    let final_cards = fixture("e2e/hk/cards/final.csv");
    let event = Event::new("games", "hk", &[UNSCHEDULED]);
    let (before, after) = event.before_after(
        ("games_per_session = 3", "games_per_session = 2"),
        &["check", &prelim],
    );
    assert_eq!(before.status, Some(0));
    assert_eq!(after.status, Some(1), "{}", after.stderr);

    let event = Event::new("stagegames", "hk", &[UNSCHEDULED]);
    let (before, after) = event.before_after(
        ("[stages.final]\ngames = 3", "[stages.final]\ngames = 2"),
        &["check", &prelim, &final_cards],
    );
    assert_eq!(before.status, Some(0));
    assert_eq!(after.status, Some(1), "{}", after.stderr);
    assert!(after.stderr.contains("final.csv"), "{}", after.stderr);
}

#[test]
fn rules_min_age_and_the_event_date_check_the_roster() {
    let roster = fixture("e2e/hk/roster.csv");
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let args = ["check", cards.as_str(), "--roster", roster.as_str()];
    let event = Event::new("minage", "hk", &[UNSCHEDULED]);
    let (before, after) = event.before_after(("min_age = 7", "min_age = 16"), &args);
    assert_eq!(before.status, Some(0));
    assert!(after.stderr.contains("H02"), "{}", after.stderr);

    let event = Event::new("date", "hk", &[UNSCHEDULED]);
    let (_, after) = event.before_after(("date = \"2026-03-28\"", "date = \"2016-03-28\""), &args);
    assert_eq!(after.status, Some(1), "{}", after.stderr);
}

#[test]
fn qualifiers_top_and_cutoff_ties() {
    let cards = fixture("ties/shared-rank.csv");
    let event = Event::new("top", "hk", &[UNSCHEDULED]);
    let (before, after) = event.before_after(
        ("top = 120", "top = 1"),
        &["qualifiers", &cards, "--format", "csv"],
    );
    assert_eq!(before.stdout.lines().count(), 5);
    assert_eq!(after.stdout.lines().count(), 2);

    let event = Event::new("cutoff", "hk", &[UNSCHEDULED, ("top = 120", "top = 2")]);
    let (before, after) = event.before_after(
        ("cutoff_ties = \"include\"", "cutoff_ties = \"exclude\""),
        &["qualifiers", &cards, "--format", "csv"],
    );
    assert_eq!(before.stdout.lines().count(), 4, "P0001, P0002, P0003");
    assert_eq!(after.stdout.lines().count(), 2, "P0001 alone");
    event.edit(&[("cutoff_ties = \"exclude\"", "cutoff_ties = \"error\"")]);
    event
        .run(&["qualifiers", &cards])
        .failure(1)
        .stderr_has("TIE AT THE CUTOFF");
}

#[test]
fn qualifiers_table_ties_and_named() {
    let five = fixture("e2e/nvso-decisions/five-tables.csv");
    let event = Event::new("tableties", "nvso", &[]);
    let (before, after) = event.before_after(
        ("table_ties = \"decide\"", "table_ties = \"all\""),
        &["advance", &five],
    );
    assert_eq!(before.status, Some(1));
    assert_eq!(after.status, Some(0), "{}", after.stderr);

    let cards = fixture("e2e/gwinnett/cards");
    let roster = fixture("e2e/gwinnett/roster.csv");
    // gwinnett (RULES.md section 7): the tied players all go on, the tie a
    // NOTE, until the director names one
    let event = Event::new("named", "gwinnett", &[]);
    let (before, after) = event.before_after(
        ("named = []", "named = [\"G17\"]"),
        &["advance", &cards, "--roster", &roster, "--format", "csv"],
    );
    assert_eq!(before.status, Some(0), "{}", before.stderr);
    assert!(before.stdout.contains("G17") && before.stdout.contains("G16"));
    assert!(before.stderr.contains("NOTE: TIE at"), "{}", before.stderr);
    assert_eq!(after.status, Some(0), "{}", after.stderr);
    assert!(after.stdout.contains("G17") && !after.stdout.contains("G16"));
    // a name that is no player is an error of the event, at the name in
    // tilerank.toml
    event.edit(&[("named = [\"G17\"]", "named = [\"G99\"]")]);
    let text = std::fs::read_to_string(event.toml()).unwrap();
    let line = 1 + text.lines().position(|l| l == "named = [\"G99\"]").unwrap();
    event
        .run(&["advance", &cards, "--roster", &roster, "--format", "csv"])
        .failure(1)
        .stderr_has(&format!(
            "tilerank.toml:{line}:10: error: [qualifiers] named: \"G99\" names no single player of this event"
        ));
    // ... and table_ties = "decide" makes the tie wait for the director
    let event = Event::new("decide", "gwinnett", &[]);
    let (before, after) = event.before_after(
        ("table_ties = \"all\"", "table_ties = \"decide\""),
        &["advance", &cards, "--roster", &roster, "--format", "csv"],
    );
    assert_eq!(before.status, Some(0), "{}", before.stderr);
    assert_eq!(after.status, Some(1), "{}", after.stderr);
    assert!(
        after.stderr.contains("DECISION: TIE at"),
        "{}",
        after.stderr
    );
}

/// The advice under a list that waits for the director names the settings
/// file the rules were read from: the event's tilerank.toml, the rules file
/// of --rules, or, for a built-in profile's rules, a rules file to write.
#[test]
fn the_advice_names_the_settings_file_read() {
    let five = fixture("e2e/nvso-decisions/five-tables.csv");
    let last = |out: Output| out.stdout.lines().last().unwrap_or("").to_string();
    let event = Event::new("advice", "nvso", &[]);
    let toml = event.toml().display().to_string();
    assert_eq!(
        last(event.run(&["advance", &five]).failure(1)),
        format!("The list is not final until the director decides: set [qualifiers] table_ties = \"all\" in {toml}; naming players does not settle it.")
    );
    let s = crate::test::Scratch::new("advice");
    let club = s.write("club.toml", "extends = \"nvso\"\nname = \"club\"\n");
    let club = club.display().to_string();
    let out = Test::new()
        .args(["advance", "--rules", &club, &five])
        .run()
        .failure(1);
    assert_eq!(
        last(out),
        format!("The list is not final until the director decides: set [qualifiers] table_ties = \"all\" in {club}; naming players does not settle it.")
    );
    let out = Test::new()
        .args(["advance", "--profile", "nvso", &five])
        .run()
        .failure(1);
    assert_eq!(
        last(out),
        "The list is not final until the director decides: set [qualifiers] table_ties = \"all\" in a rules file given with --rules FILE (tilerank profiles show nvso prints the nvso rules to start it from); naming players does not settle it."
    );
    // a --profile other than the event's: its tilerank.toml is not read
    let out = event.run(&["advance", "--profile", "pressman", &five]);
    assert!(!out.stdout.contains(&toml), "{}", out.stdout);
    // no settings at all: the hk rules, a tie at the cutoff
    let out = Test::new()
        .args(["qualifiers", "--top", "2", "--cutoff-ties", "error"])
        .fixture("ties/shared-rank.csv")
        .roster()
        .run()
        .failure(1);
    assert_eq!(
        last(out),
        "The list is not final until the director decides: set [qualifiers] cutoff_ties = \"include\" (all the players tied at the cutoff go on) or \"exclude\" (none of them do) in a rules file given with --rules FILE (tilerank profiles show hk prints the hk rules to start it from), or give --cutoff-ties include or exclude to qualifiers, export or publish; naming players (--player, [qualifiers] named) does not settle a tie at the cutoff."
    );
    // a tie at a table: named in the event's tilerank.toml
    let event = Event::new(
        "advice-named",
        "gwinnett",
        &[("table_ties = \"all\"", "table_ties = \"decide\"")],
    );
    let toml = event.toml().display().to_string();
    let cards = fixture("e2e/gwinnett/cards");
    let roster = fixture("e2e/gwinnett/roster.csv");
    assert_eq!(
        last(event.run(&["advance", &cards, "--roster", &roster]).failure(1)),
        format!("The list is not final until the director decides: name who goes on (tilerank advance --player, or in {toml}: [qualifiers] named for the first stage, [stages.NAME] named for a later one), or set table_ties = \"all\" there.")
    );
}

/// A tie at a table that all the tied players go on from names, for the
/// names that would settle it, the settings file the rules were read
/// from: the event's tilerank.toml, or the rules file of --rules.
#[test]
fn a_tie_at_a_table_names_the_settings_file_read() {
    let cards = fixture("e2e/gwinnett/cards");
    let roster = fixture("e2e/gwinnett/roster.csv");
    let tie = |file: &str| {
        format!("NOTE: TIE at table 6: 2 players (G16, G17) share the lowest total 20; all of them go on, unless the director names who goes on (--player, or in {file}: [qualifiers] named for the first stage, [stages.NAME] named for a later one)\n")
    };
    let event = Event::new("tie-named-file", "gwinnett", &[]);
    let toml = event.toml().display().to_string();
    event
        .run(&["advance", &cards, "--roster", &roster])
        .success()
        .stderr_has(&tie(&toml));
    let s = crate::test::Scratch::new("tie-named-file");
    let club = s.write("club.toml", "extends = \"gwinnett\"\nname = \"club\"\n");
    let club = club.display().to_string();
    Test::new()
        .args(["advance", "--rules", &club, &cards, "--roster", &roster])
        .run()
        .success()
        .stderr_has(&tie(&club));
}

#[test]
fn sessions_name_the_missing_cards() {
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let event = Event::new(
        "sessions",
        "hk",
        &[
            ("\ncount = 12\n", "\ncount = 1\n"),
            ("\ntables = 25\n", "\ntables = 2\n"),
        ],
    );
    let (before, after) = event.before_after(
        ("\ncount = 1\n", "\ncount = 2\n"),
        &["qualifiers", &cards, "--format", "csv"],
    );
    assert_eq!(before.status, Some(0), "{}", before.stderr);
    assert_eq!(after.status, Some(1));
    assert!(
        after.stderr.contains("session S02: all 2 tables"),
        "{}",
        after.stderr
    );
}

/// A first-stage card the schedule does not name (a session or table
/// typed wrong: S13, 7.5) is an error at the card, never games counted
/// beside the card it was meant to be.
#[test]
fn sessions_refuse_a_card_the_schedule_does_not_name() {
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let event = Event::new(
        "schedule",
        "hk",
        &[
            ("\ncount = 12\n", "\ncount = 1\n"),
            ("\ntables = 25\n", "\ntables = 2\n"),
        ],
    );
    let (before, after) = event.before_after(
        ("\ntables = 2\n", "\ntables = 1\n"),
        &["standings", &cards, "--format", "csv"],
    );
    assert_eq!(before.status, Some(0), "{}", before.stderr);
    after.failure(1).error_at(
        &format!("{cards}:14"),
        &["table 2 of session S01 is not on this event's schedule (tables 1 to 1 in each session: [sessions] tables = 1 in tilerank.toml); correct the card's table"],
    );
    // a session past the schedule's, and one that is no number
    let typed = event.dir.join("typed.csv");
    let text = std::fs::read_to_string(&cards).unwrap();
    let s13 = text.replacen("prelim,S01,1,", "prelim,S13,1,", 12);
    std::fs::write(&typed, s13.replace("prelim,S01,2,", "prelim,Round 1,2,")).unwrap();
    let typed = typed.display().to_string();
    event
        .run(&["check", &typed])
        .failure(1)
        .error_at(
            &format!("{typed}:2"),
            &["session S13 is not on this event's schedule (sessions S01 to S01: [sessions] count = 1 in tilerank.toml)"],
        )
        .error_at(
            &format!("{typed}:14"),
            &["session Round 1 is not on this event's schedule"],
        );
}

/// `[sessions] per_player`: session S01's table 1 typed again as session
/// S02's gives its four players two sessions where each plays one: an
/// error at each seat, naming the first card, and nothing ranked; allowed
/// two, the same cards are ranked.
#[test]
fn sessions_per_player_refuses_a_player_in_more_sessions() {
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let event = Event::new(
        "per-player",
        "hk",
        &[
            ("\ncount = 12\n", "\ncount = 2\n"),
            ("\ntables = 25\n", "\ntables = 2\n"),
        ],
    );
    let text = std::fs::read_to_string(&cards).unwrap();
    let again: String = text
        .lines()
        .filter(|l| l.starts_with("prelim,S01,1,"))
        .map(|l| format!("{}\n", l.replacen("prelim,S01,1,", "prelim,S02,1,", 1)))
        .collect();
    let typed = event.dir.join("twice.csv");
    std::fs::write(&typed, format!("{text}{again}")).unwrap();
    let typed = typed.display().to_string();
    let args = ["standings", &typed, "--format", "csv"];
    let (before, after) = event.before_after(("\nper_player = 1\n", "\nper_player = 2\n"), &args);
    before.failure(1).errors(4).error_at(
        &format!("{typed}:26:6"),
        &["H01 (", ") plays in session S02 table 1 and in session S01 table 1 (", "twice.csv:2:6); each player plays 1 session of the prelim ([sessions] per_player): the same card typed under two sessions, or a wrong id?"],
    );
    assert_eq!(after.status, Some(0), "{}", after.stderr);
    assert!(after.stdout.contains("H01"), "{}", after.stdout);
    // not a number of sessions: an error at its line
    event.edit(&[("\nper_player = 2\n", "\nper_player = 0\n")]);
    let text = std::fs::read_to_string(event.toml()).unwrap();
    let line = text.lines().position(|l| l == "per_player = 0").unwrap() + 1;
    event
        .run(&["standings", &typed])
        .failure(2)
        .stderr_has(&format!("tilerank.toml:{line}:"))
        .stderr_has("[sessions] per_player = 0: expected 1 to 1000");
}

/// A schedule of more cards than a million is refused at its line: every
/// card it names missing is held in memory.
#[test]
fn sessions_of_too_many_cards_are_refused_at_their_line() {
    let event = Event::new("huge", "hk", &[]);
    event.edit(&[
        ("count = 12", "count = 10000"),
        ("tables = 25", "tables = 10000"),
    ]);
    let text = std::fs::read_to_string(event.toml()).unwrap();
    let line = text.lines().position(|l| l == "[sessions]").unwrap() + 1;
    for command in ["standings", "qualifiers"] {
        event
            .run(&[command])
            .failure(2)
            .stderr_has(&format!("tilerank.toml:{line}:"))
            .stderr_has("[sessions]: 10000 sessions of 10000 tables is 100000000 cards; expected at most 1000000 (or check = false: no card is expected)");
    }
}

/// The first stage may have another name than prelim: it is the stage
/// `standings` ranks by default, and the one the schedule names cards of.
#[test]
fn the_first_stage_is_whatever_stages_names_first() {
    let event = Event::new(
        "heats",
        "hk",
        &[
            (
                "stages = [\"prelim\", \"final\"]",
                "stages = [\"heats\", \"final\"]",
            ),
            ("\ncount = 12\n", "\ncount = 1\n"),
            ("\ntables = 25\n", "\ntables = 3\n"),
        ],
    );
    let text = std::fs::read_to_string(fixture("e2e/hk/cards/prelim.csv")).unwrap();
    let heats = event.dir.join("heats.csv");
    std::fs::write(&heats, text.replace("prelim,", "heats,")).unwrap();
    let heats = heats.display().to_string();
    let out = event.run(&["standings", &heats, "--format", "csv"]);
    assert!(out.stdout.starts_with("rank,player"), "{}", out.stderr);
    // the cards of tables 1 and 2 are in, table 3's is missing
    assert!(
        out.stderr.contains("session S01: table 3") && !out.stderr.contains("tables 1"),
        "{}",
        out.stderr
    );
    event
        .run(&["standings", &heats, "--stage", "prelim"])
        .failure(2)
        .stderr_has("stage prelim is not one of this event's stages (heats, final: [rules] stages in tilerank.toml)");
}

#[test]
fn standings_order_decides_the_ranking() {
    let cards = fixture("ties/shared-rank.csv");
    let event = Event::new("order", "hk", &[UNSCHEDULED]);
    let (before, after) = event.before_after(
        (
            "order = [\"games_won:higher\", \"average_score:higher\", \"tiles_left:lower\"]",
            "order = [\"total_score:lower\"]",
        ),
        &["standings", &cards, "--format", "csv"],
    );
    let first = |out: &Output| out.stdout.lines().nth(1).unwrap().to_string();
    assert!(first(&before).starts_with("1,P0001,"));
    // The lowest total first: P0004 with -26.
    assert!(first(&after).starts_with("1,P0004,"), "{}", after.stdout);
}

#[test]
fn stages_carry_brings_points_into_the_final() {
    let prelim = fixture("e2e/hk/cards/prelim.csv");
    let final_cards = fixture("e2e/hk/cards/final.csv");
    let event = Event::new("carry", "hk", &[UNSCHEDULED, ("top = 120", "top = 4")]);
    let (before, after) = event.before_after(
        (
            "[stages.final]\ngames = 3\ncarry = \"none\"",
            "[stages.final]\ngames = 3\ncarry = \"all\"",
        ),
        &[
            "standings",
            &prelim,
            &final_cards,
            "--stage",
            "final",
            "--format",
            "csv",
        ],
    );
    // With everything carried, each finalist has the prelim's 3 games too.
    assert!(before.stdout.lines().nth(1).unwrap().contains(",3,"));
    assert!(after.stdout.lines().nth(1).unwrap().contains(",6,"));
}

/// Carry-over counts at the tables (RULES.md section 7): with `carry =
/// "all"` into the Gwinnett demo's semi, semi table 2 is GW25 30 + 0 + 44 =
/// 74, GW15 0 + 20 + 24 = 44, GW01 46 + 18 + 0 = 64 (prelim + the semi's two
/// games): GW15 has the lowest total and goes on, not GW01 (18, the
/// semi's games alone). `advance`, the standings' Q and `explain` agree.
#[test]
fn stages_carry_counts_in_each_tables_totals() {
    let s = crate::test::Scratch::new("carry-tables");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    crate::test::copy_dir(&demo, &s.0);
    // (the demo's final was played by those the semi sent on without carry)
    std::fs::remove_file(s.path("cards/final-S01-T01.csv")).unwrap();
    let event = Event { dir: s.0.clone() };
    let semi = ["advance", "--stage", "semi", "--format", "csv"];
    let (before, after) = event.before_after(
        ("[stages.semi]\n", "[stages.semi]\ncarry = \"all\"\n"),
        &semi,
    );
    assert!(before
        .success()
        .stdout
        .contains("GW01,Barbara Wood,lowest total at semi table 2 with 18"));
    let after = after.success();
    assert!(
        after
            .stdout
            .contains("GW15,Harold Baker,lowest total at semi table 2 with 44"),
        "{}",
        after.stdout
    );
    assert!(!after.column("player").contains(&"GW01".to_string()));
    let standings = event
        .run(&["standings", "--stage", "semi", "--format", "csv"])
        .success();
    assert!(line_of(&standings, "GW15").starts_with("1,GW15,Harold Baker,,5,3,8.8,44,6,Q,"));
    assert!(!line_of(&standings, "GW01").contains(",Q,"));
    event
        .run(&["explain", "GW15", "--stage", "semi"])
        .success()
        .stdout_has("Goes on to the final: lowest total at semi table 2 with 44.");
}

/// Under penalty points a player's best game is their lowest score
/// (RULES.md section 6): in the Gwinnett demo's semi GW25 scored 0 and 44,
/// GW15 20 and 24, both 44 in all. With `best_game:lower` after the total,
/// GW25's 0 is the better best game; with `best_game:higher`, GW15's 20.
#[test]
fn best_game_under_penalty_points_is_the_lowest_score() {
    let s = crate::test::Scratch::new("best-game-penalty");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    crate::test::copy_dir(&demo, &s.0);
    let event = Event { dir: s.0.clone() };
    let settings = s.path("tilerank.toml");
    let toml = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        format!("{toml}\n[standings]\norder = [\"total_score:lower\", \"best_game:lower\"]\n"),
    )
    .unwrap();
    let semi = ["standings", "--stage", "semi", "--format", "csv"];
    let (before, after) = event.before_after(("best_game:lower", "best_game:higher"), &semi);
    let before = before.success();
    assert!(
        line_of(&before, "GW25").starts_with("4,GW25,"),
        "{}",
        before.stdout
    );
    assert!(line_of(&before, "GW15").starts_with("5,GW15,"));
    let after = after.success();
    assert!(
        line_of(&after, "GW15").starts_with("4,GW15,"),
        "{}",
        after.stdout
    );
    assert!(line_of(&after, "GW25").starts_with("5,GW25,"));
    event
        .run(&["explain", "GW25", "--stage", "semi"])
        .success()
        .stdout_has("GW15 (Harold Baker) is above GW25 (William Campbell) on best single game (higher first): 20 against 0.");
}

/// A finalist who did not turn up: the final's medals wait for them
/// (exit status 1) until `[stages.final] absent` names them; naming one
/// who plays the final, or did not go on, or is no player, is an error of
/// the settings.
#[test]
fn stages_absent_lets_the_final_end_without_a_no_show() {
    let prelim = fixture("e2e/hk/cards/prelim.csv");
    let event = Event::new("absent", "hk", &[UNSCHEDULED, ("top = 120", "top = 4")]);
    // H03 did not turn up: the final is played at a table of three
    let three = event.dir.join("final.csv");
    std::fs::write(
        &three,
        "stage,session,table,game,seat,player,won,score,tiles
final,S01,1,1,A,H01,0,-10,3
final,S01,1,1,B,H04,0,-6,2
final,S01,1,1,C,H02,1,+16,0
final,S01,1,2,A,H01,0,-9,2
final,S01,1,2,B,H04,1,+12,0
final,S01,1,2,C,H02,0,-3,1
final,S01,1,3,A,H01,1,+11,0
final,S01,1,3,B,H04,0,-7,4
final,S01,1,3,C,H02,0,-4,3
",
    )
    .unwrap();
    let three = three.display().to_string();
    let medals = ["medals", &prelim, &three, "--format", "csv"];
    let (before, after) =
        event.before_after(("# absent = [\"P0007\"]", "absent = [\"H03\"]"), &medals);
    before
        .failure(1)
        .stderr_has("final: 1 of the 4 players who went on from the prelim has no card yet: H03")
        .stderr_has("No medals yet");
    let after = after.success().errors(0);
    assert_eq!(after.column("player"), ["H02", "H04", "H01"]);
    // (each said at the name, the list's second item: column 18)
    for (absent, says) in [
        ("H02", "[stages.final] absent: H02 plays it (final session S01 table 1); remove H02 from the list"),
        ("H05", "[stages.final] absent: H05 did not go on to it from the prelim; remove H05 from the list"),
        ("H99", "[stages.final] absent: \"H99\" names no single player of this event"),
    ] {
        event.edit(&[("absent = [\"H03\"]", &format!("absent = [\"H03\", \"{absent}\"]"))]);
        event
            .run(&medals)
            .failure(1)
            .stderr_has(&format!("tilerank.toml:124:18: error: {says}"));
        if absent == "H02" {
            // a command that keeps only the sums says the same, the card
            // named too
            event
                .run(&["standings", &prelim, &three, "--stage", "final"])
                .failure(1)
                .stderr_has(&format!("tilerank.toml:124:18: error: {says}"));
        }
        event.edit(&[(&format!("absent = [\"H03\", \"{absent}\"]"), "absent = [\"H03\"]")]);
    }
    // Every error of the list at once, each at its name: a name that is
    // no player does not hide one who plays the final, nor one who did
    // not go on; a player listed twice is named once, and a warning says
    // so at the second name.
    let wrong = "absent = [\"H03\", \"H99\", \"H02\", \"H05\", \"H03\", \"H02\"]";
    event.edit(&[("absent = [\"H03\"]", wrong)]);
    event
        .run(&medals)
        .failure(1)
        .errors(3)
        .stderr_has("tilerank.toml:124:18: error: [stages.final] absent: \"H99\" names no single player of this event\n")
        .stderr_has("tilerank.toml:124:25: error: [stages.final] absent: H02 plays it (final session S01 table 1); remove H02 from the list\n")
        .stderr_has("tilerank.toml:124:32: error: [stages.final] absent: H05 did not go on to it from the prelim; remove H05 from the list\n")
        .stderr_has("tilerank.toml:124:39: warning: [stages.final] absent: H03 is listed twice (\"H03\", \"H03\"); naming them once is enough; was another player meant?\n")
        .stderr_has("tilerank.toml:124:46: warning: [stages.final] absent: H02 is listed twice (\"H02\", \"H02\"); naming them once is enough; was another player meant?\n");
    event.edit(&[(wrong, "absent = [\"H03\"]")]);
    // The final's seating, printed again, keeps no seat for H03.
    let seating = event
        .run(&["seating", &prelim, "--from", "prelim", "--format", "csv"])
        .success()
        .stderr_has("Not seated: H03 (")
        .stderr_has(") goes on but is named absent from the final ([stages.final] absent in tilerank.toml).");
    let mut seated = seating.column("player");
    seated.sort();
    assert_eq!(seated, ["H01", "H02", "H04"]);
}

/// The Gwinnett demo (RULES.md section 7): `[qualifiers] named` settles
/// the prelim's ties only; a tie in the semi's results is settled by
/// `[stages.semi] named`, and until then all the tied players go on
/// (`table_ties = "all"`). The demo names GW07 for prelim table 6; with
/// GW07 at 29 at semi table 1, level with GW10, both go on to the final
/// until the director names GW07 for the semi.
#[test]
fn stages_named_settles_a_tie_of_that_stage_only() {
    let s = crate::test::Scratch::new("stage-named");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    crate::test::copy_dir(&demo, &s.0);
    // (the demo's final is played by those the semi sends on as played:
    // without it, the semi's list is the answer)
    std::fs::remove_file(s.path("cards/final-S01-T01.csv")).unwrap();
    let card = s.path("cards/semi-S01-T01.csv");
    let text = std::fs::read_to_string(&card).unwrap();
    assert!(text.contains("semi,S01,1,2,C,GW07,0,70,8"));
    std::fs::write(
        &card,
        text.replace("semi,S01,1,2,C,GW07,0,70,8", "semi,S01,1,2,C,GW07,0,29,8"),
    )
    .unwrap();
    let event = Event { dir: s.0.clone() };
    let semi = ["advance", "--stage", "semi", "--format", "csv"];
    let (before, after) = event.before_after(
        ("[stages.semi]\n", "[stages.semi]\nnamed = [\"GW07\"]\n"),
        &semi,
    );
    let before = before.success();
    assert_eq!(before.column("player"), ["GW07", "GW10", "GW01", "GW26"]);
    assert!(
        before
            .stderr
            .contains("NOTE: TIE at semi table 1: 2 players (GW07, GW10)"),
        "{}",
        before.stderr
    );
    assert!(!before.stderr.contains("in no tie"), "{}", before.stderr);
    let after = after.success();
    assert_eq!(after.column("player"), ["GW07", "GW01", "GW26"]);
    assert!(
        after.stderr.contains("the director named GW07"),
        "{}",
        after.stderr
    );
    // the prelim's tie is still settled by [qualifiers] named alone
    let prelim = event.run(&["advance", "--format", "csv"]).success();
    assert!(prelim.column("player").contains(&"GW07".to_string()));
    assert!(!prelim.column("player").contains(&"GW16".to_string()));
    // a name that is no player is an error of the settings, at its line
    event.edit(&[("named = [\"GW07\"]\n", "named = [\"GW99\"]\n")]);
    event.run(&semi).failure(1).stderr_has(
        "tilerank.toml:13:10: error: [stages.semi] named: \"GW99\" names no single player of this event",
    );
    // a value that is no list names its line
    event.edit(&[("named = [\"GW99\"]\n", "named = \"GW07\"\n")]);
    let text = std::fs::read_to_string(event.toml()).unwrap();
    let line = text.lines().position(|l| l == "named = \"GW07\"").unwrap() + 1;
    event
        .run(&semi)
        .failure(2)
        .stderr_has(&format!("tilerank.toml:{line}:"))
        .stderr_has("[stages.semi] named = \"GW07\": expected a list in brackets");
}

/// A tie of a later stage names its stage wherever it is said (standard
/// error, the export's Problems sheet, the site's index, in Chinese too);
/// the first stage's ties are said at their table alone, as always.
#[test]
fn a_later_stages_tie_names_its_stage() {
    let s = crate::test::Scratch::new("stage-tie-said");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    crate::test::copy_dir(&demo, &s.0);
    std::fs::remove_file(s.path("cards/final-S01-T01.csv")).unwrap();
    let card = s.path("cards/semi-S01-T01.csv");
    let text = std::fs::read_to_string(&card).unwrap();
    std::fs::write(
        &card,
        text.replace("semi,S01,1,2,C,GW07,0,70,8", "semi,S01,1,2,C,GW07,0,29,8"),
    )
    .unwrap();
    let event = Event { dir: s.0.clone() };
    // (table_ties is the event's, in [qualifiers]: no stage's own setting)
    event.edit(&[("[qualifiers]\n", "[qualifiers]\ntable_ties = \"decide\"\n")]);
    let semi = event.run(&["advance", "--stage", "semi", "--format", "csv"]);
    semi.failure(1)
        .stderr_has("DECISION: TIE at semi table 1: 2 players (GW07, GW10) share the lowest total");
    // the prelim's tie, as it always was
    event
        .run(&["advance", "--format", "csv"])
        .success()
        .stderr_has("NOTE: TIE at table 6: ")
        .stderr_lacks("prelim table");
    // (the export and the site wait while a decision does: the gwinnett
    // default, table_ties = "all", makes the tie a NOTE)
    event.edit(&[("table_ties = \"decide\"\n", "")]);
    let export = event
        .run(&["export", "--format", "csv", "--allow-incomplete"])
        .success();
    let problems = export.stdout.split("\nProblems").nth(1).unwrap_or_default();
    for said in [
        "note,,\"TIE at semi table 1: 2 players (GW07, GW10) share the lowest total 29; all of them go on",
        "note,,\"TIE at table 6: 2 players (GW07, GW16) share the lowest total 36; the director named GW07\"",
    ] {
        assert!(problems.contains(said), "{said}: {}", export.stdout);
    }
    for (lang, said) in [
        ("en", "TIE at semi table 1: 2 players (GW07, GW10)"),
        ("zh-Hant", "準決賽第 1 枱同分：2 名選手（GW07、GW10）"),
    ] {
        let site = s.path(&format!("site-{lang}"));
        Test::new()
            .args(["publish", "--lang", lang, "--event"])
            .arg(&s.0)
            .arg("-o")
            .arg(&site)
            .run();
        let index = std::fs::read_to_string(site.join("index.html")).unwrap();
        assert!(index.contains(said), "{lang}: {index}");
    }
}

/// A printed score card's title says its stage by the event's own stage
/// names (`[rules] stages`): a `quarter` card is the quarter's, not the
/// prelim's; a title saying a stage the event does not play is an error at
/// the title's cell naming the event's stages, unless `import --stage`
/// gives the stage.
#[test]
fn a_scorecard_title_says_the_events_own_stage() {
    let event = Event::new(
        "card-stage",
        "hk",
        &[
            (
                "stages = [\"prelim\", \"final\"]",
                "stages = [\"prelim\", \"quarter\", \"final\"]",
            ),
            UNSCHEDULED,
        ],
    );
    let good = std::fs::read_to_string(fixtures().join("scorecard/good.csv")).unwrap();
    // (at table 1: the 4 who go on from the prelim's card sit at one
    // table, and a later stage's card of a table past it is an error)
    let card = |name: &str, title: &str| {
        let path = event.dir.join(name);
        let text = good
            .replace(
                "Rummikub Hong Kong 2026 Preliminary Round Score Card",
                title,
            )
            .replace("Table number:,7,", "Table number:,1,");
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let roster = fixture("roster.csv");
    let quarter = card("quarter.csv", "Settings Open quarter Score Card");
    // (the prelim's card too: a quarter-final is played by those who went
    // on from it)
    let prelim = fixture("scorecard/good.csv");
    let export = event
        .run(&[
            "export",
            &prelim,
            &quarter,
            "--roster",
            &roster,
            "--format",
            "csv",
            "--allow-incomplete",
        ])
        .success();
    assert!(
        export
            .stdout
            .contains("\nquarter,S01,1,1,A,P0001,Chan Tai Man,"),
        "{}",
        export.stdout
    );
    // the quarter's card is not read as the prelim's: the prelim has the
    // prelim card's 12 lines only
    assert_eq!(
        export.stdout.matches("\nprelim,S01,7,").count(),
        12,
        "{}",
        export.stdout
    );
    let semi = card("semi.csv", "Settings Open Semi-final Score Card");
    event
        .run(&["check", &semi, "--roster", &roster])
        .failure(1)
        .stderr_has("semi.csv:1:1: error: the title \"Settings Open Semi-final Score Card\" says \"Semi-final\", the semi stage, which is not one of this event's stages (prelim, quarter, final); correct the title, or import the card with --stage");
    event.run(&["roster", &roster]).success();
    event
        .run(&["import", &semi])
        .failure(1)
        .stderr_has("says \"Semi-final\", the semi stage, which is not one of this event's stages");
    event
        .run(&["import", &semi, "--stage", "prelim"])
        .success()
        .stderr_has("1 card imported");
    let standings = event.run(&["standings", "--format", "csv"]).success();
    assert_eq!(
        standings.column("player")[0],
        "P0001",
        "{}",
        standings.stdout
    );
}

/// A title naming a stage the event does not play is an error at the
/// title's cell naming the words and the event's stages, whatever the
/// words (a quarter-final in English or Chinese, 複賽): never read as the
/// first stage, nor as the final its words end with.
#[test]
fn a_scorecard_title_naming_a_stage_not_played_is_an_error() {
    let event = Event::new("card-not-played", "hk", &[UNSCHEDULED]);
    let good = std::fs::read_to_string(fixtures().join("scorecard/good.csv")).unwrap();
    let roster = fixture("roster.csv");
    // (checked beside the prelim's card: a final is played by those who
    // went on from it)
    let prelim = fixture("scorecard/good.csv");
    // (at table 1: the 4 who go on from the prelim's card sit at one
    // table, and a final card of a table past it is an error)
    let check = |title: &str| {
        let path = event.dir.join("card.csv");
        let text = good
            .replace(
                "Rummikub Hong Kong 2026 Preliminary Round Score Card",
                title,
            )
            .replace("Table number:,7,", "Table number:,1,");
        std::fs::write(&path, text).unwrap();
        let path = path.display().to_string();
        let files: &[&str] = match title.contains("初賽") {
            true => &[&path],
            false => &[&prelim, &path],
        };
        let mut args = vec!["check"];
        args.extend_from_slice(files);
        args.extend(["--roster", &roster]);
        event.run(&args)
    };
    for (title, words, stage) in [
        ("Club Quarter-final Score Card", "Quarter-final", "quarter"),
        ("Club Quarterfinal Score Card", "Quarterfinal", "quarter"),
        ("Club 1/4 Final Score Card", "1/4 Final", "quarter"),
        ("Club Quarter Score Card", "Quarter", "quarter"),
        ("Club 四分之一決賽計分卡", "四分之一決賽", "quarter"),
        ("Club 複賽計分卡", "複賽", "複賽"),
        ("Club 准決賽計分卡", "准決賽", "semi"),
    ] {
        check(title).failure(1).stderr_has(&format!(
            "card.csv:1:1: error: the title \"{title}\" says \"{words}\", the {stage} stage, which is not one of this event's stages (prelim, final); correct the title, or import the card with --stage"
        ));
    }
    // the event's own stages, in either language
    for title in [
        "Club 決賽計分卡",
        "Club Final Score Card",
        "Club 初賽計分卡",
    ] {
        check(title).success();
    }
}

#[test]
fn age_groups_split_the_standings() {
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let roster = fixture("e2e/hk/roster.csv");
    let event = Event::new("groups", "hk", &[UNSCHEDULED]);
    let (before, after) = event.before_after(
        (
            "# [[age_groups]]\n# name = \"50-64\"\n# min = 50\n# max = 64",
            "[[age_groups]]\nname = \"young\"\nmin = 7\nmax = 17\n[[age_groups]]\nname = \"adult\"\nmin = 18",
        ),
        &[
            "standings",
            &cards,
            "--roster",
            &roster,
            "--by-group",
            "--format",
            "csv",
        ],
    );
    assert!(!before.stdout.contains(",young,"));
    assert!(after.stdout.contains(",young,") && after.stdout.contains(",adult,"));
}

#[test]
fn the_event_name_and_profile() {
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let event = Event::new("name", "hk", &[UNSCHEDULED]);
    let (_, after) = event.before_after(
        ("name = \"Settings Open\"", "name = \"Harbour Cup\""),
        &["export", &cards, "--format", "csv"],
    );
    assert!(
        after
            .stdout
            .contains("[event] name,\"\"\"Harbour Cup\"\"\","),
        "{}",
        after.stdout
    );

    // The same cards under nvso's rule: table winners, not the top 120.
    // (The file gives every setting: the rule is one of them.)
    let event = Event::new("profile", "hk", &[UNSCHEDULED]);
    let (before, after) = event.before_after(
        (
            "rule = \"top\"",
            "rule = \"table_winners_and_best_seconds\"",
        ),
        &["qualifiers", &cards, "--format", "csv"],
    );
    assert!(before.stdout.starts_with("rank,player"));
    assert!(
        after.stdout.contains("table winner at table"),
        "{}",
        after.stdout
    );
}

/// A wrong value stops every command with its line, exit 2.
#[test]
fn a_bad_value_names_its_line() {
    let event = Event::new("bad", "hk", &[]);
    event.edit(&[("knocked = 200", "knocked = -5")]);
    let text = std::fs::read_to_string(event.toml()).unwrap();
    let line = text.lines().position(|l| l == "knocked = -5").unwrap() + 1;
    event
        .run(&["standings"])
        .failure(2)
        .stderr_has(&format!("tilerank.toml:{line}:"))
        .stderr_has("[rules] knocked = -5: expected a whole number from 0 to 1000000");
}

/// Every mistake of tilerank.toml is said at once, in the file's order,
/// one line each at its place, naming the setting where the file gives it
/// and the value as written; every command stops, exit 2. A rules file
/// (`--rules FILE`, `init --rules FILE`) is read the same way.
#[test]
fn every_wrong_setting_is_said_at_once_naming_its_key() {
    let event = Event::new("three", "hk", &[]);
    event.edit(&[
        ("knocked = 200", "knocked = -5"),
        ("top = 120", "top = 0"),
        ("tables = 25", "tables = \"x\""),
    ]);
    let text = std::fs::read_to_string(event.toml()).unwrap();
    let line = |l: &str| text.lines().position(|t| t == l).unwrap() + 1;
    let toml = event.toml().display().to_string();
    let expected = format!(
        "tilerank: {toml}:{}:11: [rules] knocked = -5: expected a whole number from 0 to 1000000\n\
         tilerank: {toml}:{}:7: [qualifiers] top = 0: expected 1 to 1000000\n\
         tilerank: {toml}:{}:10: [sessions] tables = \"x\": expected a whole number\n",
        line("knocked = -5"),
        line("top = 0"),
        line("tables = \"x\""),
    );
    for command in ["standings", "check", "qualifiers"] {
        let out = event.run(&[command]).failure(2);
        assert_eq!(out.stderr, expected, "{command}");
    }
    // a rules file: every mistake of it, whatever the command
    let s = crate::test::Scratch::new("rules-three");
    let rules = s.path("club.toml");
    std::fs::write(
        &rules,
        "extends = \"hk\"\nname = \"club\"\n[rules]\njoker_value = \"x\"\n[medals]\nnames = \"tin\"\n[stages.final]\ngames = 0\n",
    )
    .unwrap();
    let file = rules.display().to_string();
    let expected = format!(
        "tilerank: {file}:4:15: [rules] joker_value = \"x\": expected a whole number from 0 to 1000000\n\
         tilerank: {file}:6:9: [medals] names = \"tin\": expected \"metals\" or \"runners_up\"\n\
         tilerank: {file}:8:9: [stages.final] games = 0: expected 1 to 100\n"
    );
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let out = Test::new()
        .args(["standings", &cards, "--rules", &file])
        .run()
        .failure(2);
    assert_eq!(out.stderr, expected);
    let out = Test::new()
        .args(["init", "--name", "x", "--rules", &file])
        .arg(s.path("event"))
        .run()
        .failure(2);
    assert_eq!(out.stderr, expected);
    assert!(!s.path("event").exists());
}

/// A settings file is read up to a cap: a path given by mistake (a
/// device that never ends, a huge file) is refused at once, with small
/// memory, naming the file; a file that is not UTF-8 names its line.
#[test]
fn a_settings_file_too_big_or_not_text_is_refused_naming_it() {
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let out = Test::new()
        .args(["standings", &cards, "--rules", "/dev/zero"])
        .run()
        .failure(2);
    assert_eq!(
        out.stderr,
        "tilerank: /dev/zero: cannot be read: it holds more than 1048576 bytes, and a settings file holds a few thousand: is it the right file?\n"
    );
    let s = crate::test::Scratch::new("rules-big");
    let event = s.path("event");
    std::fs::create_dir_all(&event).unwrap();
    let toml = event.join("tilerank.toml");
    std::fs::write(&toml, "# x\n".repeat(300_000)).unwrap();
    let out = Test::new()
        .args(["standings", "--event"])
        .arg(&event)
        .run()
        .failure(2);
    assert!(
        out.stderr
            .contains("tilerank.toml: cannot be read: it holds more than 1048576 bytes"),
        "{}",
        out.stderr
    );
    let rules = s.path("latin1.toml");
    std::fs::write(&rules, b"extends = \"hk\"\nname = \"caf\xe9\"\n".as_slice()).unwrap();
    let file = rules.display().to_string();
    let out = Test::new()
        .args(["standings", &cards, "--rules", &file])
        .run()
        .failure(2);
    assert_eq!(
        out.stderr,
        format!("tilerank: {file}: cannot be read: line 2 is not UTF-8 text (a settings file is saved as UTF-8)\n")
    );
}

/// Age groups with no event date: the error says how to give the date,
/// on the command line or in the event's settings, and blames no
/// `tilerank.toml` when none was read.
#[test]
fn age_groups_with_no_date_say_to_give_date() {
    let nvso = crate::publish::example("nvso-2023");
    let cards = nvso.join("cards").display().to_string();
    let roster = nvso.join("roster.csv").display().to_string();
    let standings = |date: &[&str]| {
        Test::new()
            .args([
                "standings",
                &cards,
                "--roster",
                &roster,
                "--profile",
                "nvso",
            ])
            .args(date)
            .run()
    };
    let out = standings(&[]).failure(1);
    assert!(
        out.stderr.contains(
            "tilerank: error: the event has age groups but no date: give --date YYYY-MM-DD, or set [event] date = \"YYYY-MM-DD\" in the event's tilerank.toml; ages are taken on the event date\n"
        ),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("tilerank.toml: error"),
        "{}",
        out.stderr
    );
    let out = standings(&["--date", "2023-09-13"]).success();
    assert!(!out.stderr.contains("no date"), "{}", out.stderr);
}

/// Age groups with no roster: no player's group can be chosen, said once
/// (not once a player, as `roster:` errors of a roster never given), with
/// the groups and how to give the roster; the missing date beside it, so
/// that both are said at once.
#[test]
fn age_groups_with_no_roster_say_to_give_one_once() {
    let cards = crate::publish::example("nvso-2023").join("cards");
    let cards = cards.display().to_string();
    let medals = |date: &[&str]| {
        Test::new()
            .args(["medals", &cards, "--profile", "nvso"])
            .args(date)
            .run()
            .failure(1)
    };
    let no_roster = "tilerank: error: the event has age groups (50-64, 65-79, 80+), chosen by each player's birth date or age, but no roster: give one with a birth_date or age column (--roster FILE; in an event folder, tilerank roster FILE)\n";
    let out = medals(&["--date", "2023-09-13"])
        .stderr_has(no_roster)
        .stderr_lacks("roster: error")
        .stderr_lacks("no date")
        .stderr_has("12 files: 12 cards accepted, 36 games; 1 error\n");
    assert_eq!(out.problems("error").len(), 1, "{}", out.stderr);
    medals(&[])
        .stderr_has(no_roster)
        .stderr_has("tilerank: error: the event has age groups but no date")
        .errors(2);
}

/// A count of 0 is never a silent switch: `[sessions] count = 0`,
/// `tables = 0` and `[qualifiers] top = 0` stop every command at their
/// line, exit 2, saying what is allowed (and `check = false` for the
/// schedule); `--top 0` is refused by the command line.
#[test]
fn a_zero_count_is_an_error_not_a_switch() {
    for (from, to, says) in [
        (
            "count = 12",
            "count = 0",
            "[sessions] count = 0: expected 1 to 1000000 (to expect no sessions and tables, write check = false)",
        ),
        (
            "tables = 25",
            "tables = 0",
            "[sessions] tables = 0: expected 1 to 100000 (to expect no sessions and tables, write check = false)",
        ),
        (
            "top = 120",
            "top = 0",
            "[qualifiers] top = 0: expected 1 to 1000000",
        ),
    ] {
        let event = Event::new("zero", "hk", &[]);
        event.edit(&[(from, to)]);
        let text = std::fs::read_to_string(event.toml()).unwrap();
        let line = text.lines().position(|l| l == to).unwrap() + 1;
        for command in ["qualifiers", "standings", "export"] {
            event
                .run(&[command])
                .failure(2)
                .stderr_has(&format!("tilerank.toml:{line}:"))
                .stderr_has(says);
        }
    }
    let event = Event::new("top0", "hk", &[]);
    event
        .run(&["qualifiers", "--top", "0"])
        .failure(2)
        .stderr_has("--top");
}

/// `[sessions] check = false` is the one key that turns the schedule off:
/// with one card of the HK schedule's 300 imported, `qualifiers` waits
/// (exit 1, the missing cards named) until the key says not to check.
#[test]
fn only_check_false_turns_the_schedule_off() {
    let event = Event::new("check", "hk", &[]);
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let roster = fixture("e2e/hk/roster.csv");
    event.run(&["roster", &roster]).success();
    event.run(&["import", &cards]).success();
    event
        .run(&["qualifiers"])
        .failure(1)
        .stderr_has("No qualifier list: the event is not complete");
    event.edit(&[("# check = true", "check = false")]);
    event
        .run(&["qualifiers"])
        .success()
        .stdout_has("Qualifiers for the final");
}

/// One date syntax everywhere: what `tilerank.toml` reads, the command
/// line reads too, and a wrong date is refused the same way.
#[test]
fn the_command_line_reads_dates_as_the_settings_do() {
    let cards = fixture("e2e/hk/cards/prelim.csv");
    let roster = fixture("e2e/hk/roster.csv");
    for date in ["2026-3-28", "2026/03/28", "2026-03-28"] {
        Test::new()
            .args(["check", &cards, "--roster", &roster, "--date", date])
            .run()
            .success();
    }
    Test::new()
        .args(["check", &cards, "--date", "2026-02-30"])
        .run()
        .failure(2)
        .stderr_has("\"2026-02-30\" is not a date: no such day: February 2026 has 28 days");
    Test::new()
        .args(["init", "--name", "x", "--date", "28/03/2026"])
        .arg(std::env::temp_dir().join("tilerank-settings-never-made"))
        .run()
        .failure(2)
        .stderr_has("\"28/03/2026\" is not a date: write it as YYYY-MM-DD: 2026-03-28");
}

/// `profiles` lists every built-in profile with its line; `profiles show
/// NAME` prints it as a rules file that, saved under another file name and
/// given as `--rules`, answers every reading command byte for byte as
/// `--profile NAME` does, but for advice on a setting, which names the
/// file.
#[test]
fn each_built_in_given_as_a_file_answers_as_the_profile() {
    let list = Test::new().args(["profiles"]).run().success();
    for name in ["hk", "nvso", "pressman", "gwinnett"] {
        assert!(
            list.stdout.lines().any(|l| l.starts_with(name)),
            "{}",
            list.stdout
        );
    }
    let demos = [
        (
            "hk",
            "examples/hk-2026/cards",
            "examples/hk-2026/roster.csv",
        ),
        (
            "nvso",
            "examples/nvso-2023/cards",
            "examples/nvso-2023/roster.csv",
        ),
        (
            "gwinnett",
            "examples/gwinnett/cards",
            "examples/gwinnett/roster.csv",
        ),
        (
            "pressman",
            "tests/fixtures/e2e/hk/cards/prelim.csv",
            "tests/fixtures/e2e/hk/roster.csv",
        ),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, cards, roster) in demos {
        let shown = Test::new().args(["profiles", "show", name]).run().success();
        assert!(shown.stdout.contains(&format!("\nname = \"{name}\"\n")));
        let file = std::env::temp_dir().join(format!(
            "tilerank-settings-{name}-copy-{}.toml",
            std::process::id()
        ));
        std::fs::write(&file, &shown.stdout).unwrap();
        let cards = root.join(cards).display().to_string();
        let roster = root.join(roster).display().to_string();
        for command in [
            &["standings", "--format", "csv"][..],
            &["qualifiers", "--format", "csv"],
            &["advance", "--format", "csv"],
            &["medals", "--format", "csv"],
        ] {
            let run = |how: &[&str]| {
                Test::new()
                    .args(command)
                    .args([cards.as_str(), "--roster", roster.as_str()])
                    .args(how)
                    .run()
            };
            let by_name = run(&["--profile", name]);
            let by_file = run(&["--rules", file.to_str().unwrap()]);
            // (advice on a setting names the file, where the profile's
            // names a rules file to write)
            let stderr = by_file.stderr.replace(
                file.to_str().unwrap(),
                &format!("a rules file given with --rules FILE (tilerank profiles show {name} prints the {name} rules to start it from)"),
            );
            assert_eq!(
                (by_name.status, &by_name.stdout, &by_name.stderr),
                (by_file.status, &by_file.stdout, &stderr),
                "{name} {command:?}"
            );
        }
        let _ = std::fs::remove_file(&file);
    }
}

/// A director's own rules: a file that starts from gwinnett and changes the
/// medal names changes the medals every command prints, and `init --rules`
/// makes an event whose tilerank.toml starts from it and reads back the
/// same rules.
#[test]
fn a_rules_file_of_the_directors_own() {
    let dir = std::env::temp_dir().join(format!("tilerank-settings-own-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("club.toml");
    std::fs::write(
        &rules,
        // (the demo's own settings name GW07 to settle a tie: this file
        // does too, as the semi was played so)
        "extends = \"gwinnett\"\nname = \"club\"\n[medals]\nnames = \"runners_up\"\n[qualifiers]\nnamed = [\"GW07\"]\n",
    )
    .unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gwinnett");
    let medals = |how: &[&str]| {
        Test::new()
            .args(["medals", "--format", "csv", "--event"])
            .arg(&demo)
            .args(how)
            .run()
            .success()
    };
    assert!(medals(&[]).stdout.contains(",Gold,"));
    let own = medals(&["--rules", rules.to_str().unwrap()]);
    assert!(own.stdout.contains(",Champion,"), "{}", own.stdout);
    // an event made from the file
    let event = dir.join("event");
    Test::new()
        .args([
            "init",
            "--name",
            "Club Open",
            "--rules",
            rules.to_str().unwrap(),
        ])
        .arg(&event)
        .run()
        .success()
        .stderr_has("(club rules)");
    let toml = std::fs::read_to_string(event.join("tilerank.toml")).unwrap();
    assert!(toml.contains("profile = \"club\""), "{toml}");
    assert!(toml.contains("names = \"runners_up\""), "{toml}");
    // without an event folder too, for every command (seating plans from
    // the file's rules; it once asked for a built-in profile of its name)
    let cards = demo.join("cards");
    let roster = demo.join("roster.csv");
    Test::new()
        .args([
            "seating", "--from", "prelim", "--seed", "7", "--format", "csv",
        ])
        .arg(&cards)
        .arg("--roster")
        .arg(&roster)
        .args(["--rules", rules.to_str().unwrap()])
        .run()
        .success()
        .stdout_has("session,table,seat");
    // a wrong rules file stops the command at its place, exit 2
    std::fs::write(
        &rules,
        "extends = \"gwinnett\"\nname = \"club\"\n[medals]\nnames = \"tin\"\n",
    )
    .unwrap();
    Test::new()
        .args(["standings", "--event"])
        .arg(&demo)
        .args(["--rules", rules.to_str().unwrap()])
        .run()
        .failure(2)
        .stderr_has(
            "club.toml:4:9: [medals] names = \"tin\": expected \"metals\" or \"runners_up\"",
        );
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/rules.md's worked example of a club's own rules is the file in
/// examples/club/, and each command it shows prints what it shows.
#[test]
fn the_club_example_runs_as_the_docs_show_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/rules.md")).unwrap();
    let file = std::fs::read_to_string(root.join("examples/club/club.toml")).unwrap();
    assert!(
        doc.contains(&format!("```toml\n{file}```")),
        "docs/rules.md shows examples/club/club.toml as it is"
    );
    for command in [
        "tilerank advance examples/club/cards --roster examples/club/roster.csv --rules examples/club/club.toml --date 2026-05-09",
        "tilerank medals examples/club/cards --roster examples/club/roster.csv --rules examples/club/club.toml --date 2026-05-09",
    ] {
        // (the tests run in tests/fixtures)
        let args: Vec<String> = command
            .split(' ')
            .skip(1)
            .map(|a| match a.strip_prefix("examples/") {
                Some(rest) => format!("../../examples/{rest}"),
                None => a.to_string(),
            })
            .collect();
        let out = Test::new().args(&args).run().success();
        assert_eq!(
            out.stdout,
            crate::test::doc_block_after("docs/rules.md", command),
            "{command}"
        );
    }
}

/// The medals and awards are of the event's last stage whatever it is
/// called: the club's example with its final named `grand` gives the same
/// medals, and says the `grand` is still to be played before its cards.
#[test]
fn medals_are_of_the_last_stage_whatever_its_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/club");
    let dir = std::env::temp_dir().join(format!("tilerank-grand-{}", std::process::id()));
    let cards = dir.join("cards");
    std::fs::create_dir_all(&cards).unwrap();
    let rules = std::fs::read_to_string(root.join("club.toml"))
        .unwrap()
        .replace(
            "stages = [\"prelim\", \"final\"]",
            "stages = [\"prelim\", \"grand\"]",
        )
        .replace("[stages.final]", "[stages.grand]");
    assert!(rules.contains("\"grand\"]") && rules.contains("[stages.grand]"));
    std::fs::write(dir.join("club.toml"), rules).unwrap();
    let mut finals = Vec::new();
    for f in std::fs::read_dir(root.join("cards")).unwrap() {
        let path = f.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        if let Some(rest) = name.strip_prefix("final-") {
            finals.push(format!("grand-{rest}"));
            let text = text.replace("\nfinal,", "\ngrand,");
            std::fs::write(cards.join(format!("grand-{rest}")), text).unwrap();
        } else {
            std::fs::write(cards.join(&name), text).unwrap();
        }
    }
    let run = |what: &str| {
        Test::new()
            .arg(what)
            .arg(&cards)
            .arg("--roster")
            .arg(root.join("roster.csv"))
            .arg("--rules")
            .arg(dir.join("club.toml"))
            .args(["--date", "2026-05-09"])
            .run()
    };
    let medals = run("medals").success();
    let demo = Test::new()
        .args(["medals", "../../examples/club/cards", "--roster"])
        .args(["../../examples/club/roster.csv", "--rules"])
        .args(["../../examples/club/club.toml", "--date", "2026-05-09"])
        .run()
        .success();
    // (the stage's name said once, not once an age group)
    assert_eq!(
        medals.stdout,
        format!(
            "{}These are the standings of the grand stage, not of a final.\n",
            demo.stdout
        )
    );
    // (past the stage: the club gives no award, and says so)
    run("awards")
        .failure(2)
        .stderr_has("The Super Family Award is not given under the club rules");
    // before the grand's cards: still to be played (exit 1), not a
    // stage the event does not play (2)
    for f in &finals {
        std::fs::remove_file(cards.join(f)).unwrap();
    }
    run("medals")
        .failure(1)
        .stderr_has("Nothing ranked yet: the grand is still to be played");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each setting a rules file adds to what `tilerank.toml` had changes what
/// a command prints when it is changed (a rules file that starts from the
/// fixture's profile and changes that one setting, given as `--rules`).
#[test]
fn every_setting_of_a_rules_file_changes_the_answer() {
    let dir = std::env::temp_dir().join(format!("tilerank-settings-each-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: &[(&str, &str, &[&str], &str)] = &[
        (
            "hk",
            "[awards]\nfamily_child_ages = [7, 10]\n",
            // (a rules file of its own has the profile's schedule, not the
            // fixture's: the award is then provisional; --all says why
            // each family is not a unit)
            &["awards", "--allow-incomplete", "--all"],
            "a child is aged 7 to 10",
        ),
        (
            "hk",
            "[awards]\nfamily_parent_min_age = 50\n",
            // (a rules file of its own has the profile's schedule, not the
            // fixture's: the award is then provisional; --all says why
            // each family is not a unit)
            &["awards", "--allow-incomplete", "--all"],
            "a parent is aged 50 or over",
        ),
        (
            "hk",
            "[awards]\nsuper_family = false\n",
            // (a rules file of its own has the profile's schedule, not the
            // fixture's: the award is then provisional)
            &["awards", "--allow-incomplete"],
            "[awards] super_family = false",
        ),
        (
            "gwinnett",
            "[qualifiers]\nper_table = 2\n",
            &["advance"],
            "2nd lowest total at table",
        ),
        (
            "nvso",
            "[qualifiers]\nseats = 6\n",
            &["advance"],
            "best second",
        ),
        (
            "gwinnett",
            "[rules]\nscoring = \"zero_sum\"\n",
            &["check"],
            "13 rejected",
        ),
        (
            "gwinnett",
            "[qualifiers]\nrule = \"top\"\ntop = 3\n",
            &["qualifiers"],
            // (the fixture's semi was played by the table winners: under
            // the top 3 most of its players did not go on)
            "plays the semi but did not go on from the prelim (3 went on;",
        ),
        (
            "pressman",
            "[rules]\nage_scheme = \"nvso_by_size\"\n",
            &["standings"],
            "Open",
        ),
        (
            "gwinnett",
            "[rules]\nstages = [\"prelim\", \"final\"]\n",
            &["advance"],
            // (the fixture's semi-final cards are of no stage it plays now)
            "stage \"semi\" is not one of this event's stages (prelim, final)",
        ),
        (
            "gwinnett",
            "[medals]\nnames = [\"Gold\", \"Silver\", \"Bronze\"]\n",
            // (a rules file of its own does not name G17 as the fixture's
            // settings do: its semi then lacks G16, the medals provisional)
            &["medals", "--allow-incomplete"],
            "Gold",
        ),
    ];
    for (profile, change, command, says) in cases {
        let event = fixture(&format!("e2e/{profile}"));
        let rules = dir.join("r.toml");
        std::fs::write(
            &rules,
            format!("extends = \"{profile}\"\nname = \"{profile}\"\n{change}"),
        )
        .unwrap();
        let run = |extra: &[&str]| {
            Test::new()
                .args(*command)
                .args(["--event", &event])
                .args(extra)
                .run()
        };
        let before = run(&[]);
        let after = run(&["--rules", rules.to_str().unwrap()]);
        assert_ne!(
            (&before.stdout, &before.stderr, before.status),
            (&after.stdout, &after.stderr, after.status),
            "{change:?} changed nothing for {command:?}"
        );
        assert!(
            after.stdout.contains(says) || after.stderr.contains(says),
            "{change:?}: {}{}",
            after.stdout,
            after.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
