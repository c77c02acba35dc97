//! The command line: exit status 2 with a clear message when a file cannot
//! be read or the command line is wrong; help with examples.

use crate::test::{fixtures, Test};

#[test]
fn a_missing_file() {
    Test::new()
        .args(["check", "no-such-card.csv"])
        .run()
        .failure(2)
        .stderr_has("no-such-card.csv: no such file or folder")
        .stderr_lacks("panicked");
}

#[test]
fn a_missing_roster() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .args(["--roster", "no-such-roster.csv"])
        .run()
        .failure(2)
        .stderr_has("no-such-roster.csv: no such file or folder");
}

/// A missing file among good ones stops the run: nothing half-read.
#[test]
fn a_missing_file_among_others() {
    Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("good/went-out.csv")
        .arg("no-such-card.csv")
        .run()
        .failure(2)
        .stdout_is("")
        .stderr_has("no-such-card.csv: no such file or folder");
}

#[test]
fn an_empty_folder() {
    let empty = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-folder");
    std::fs::create_dir_all(&empty).unwrap();
    Test::new()
        .arg("check")
        .arg(&empty)
        .run()
        .failure(2)
        .stderr_has("the folder holds no CSV or workbook file");
}

/// A file given that is a symbolic link to nothing, or one of links that
/// lead round in a loop, is said so, not "no such file".
#[cfg(unix)]
#[test]
fn a_broken_link_is_said_for_what_it_is() {
    let s = crate::test::Scratch::new("broken-links");
    let (one, two) = (s.path("loop1"), s.path("loop2"));
    std::os::unix::fs::symlink("loop2", &one).unwrap();
    std::os::unix::fs::symlink("loop1", &two).unwrap();
    Test::new()
        .arg("check")
        .arg(&one)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{}: a symbolic link that leads round in a loop (back to itself through links): no file or folder to read\n",
            one.display()
        ))
        .stderr_lacks("no such file");
    let to_nothing = s.path("gone.csv");
    std::os::unix::fs::symlink("nowhere.csv", &to_nothing).unwrap();
    Test::new()
        .arg("check")
        .arg(&to_nothing)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{}: a symbolic link to nowhere.csv, where there is no file or folder\n",
            to_nothing.display()
        ));
}

/// A folder whose cards all lie deeper than the folders read says so,
/// with how many and the first, not that it holds none.
#[test]
fn cards_deeper_than_the_folders_read_are_said() {
    let s = crate::test::Scratch::new("deep-folders");
    let deep = s.path("deep");
    let twelve = (1..=12).fold(deep.clone(), |d, n| d.join(n.to_string()));
    std::fs::create_dir_all(&twelve).unwrap();
    let card = std::fs::read_to_string(fixtures().join("good/hk-examples.csv")).unwrap();
    std::fs::write(twelve.join("S01-T7.csv"), &card).unwrap();
    Test::new()
        .arg("check")
        .arg(&deep)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{}: the folder holds no CSV or workbook file, in it or in its folders up to 8 deep; 1 file lies deeper and was not read ({}): move the cards up, or give their folder\n",
            deep.display(),
            twelve.join("S01-T7.csv").display()
        ));
    // its folder given: read
    Test::new().arg("check").arg(&twelve).run().success();
    // a card above them too: none is read, the deep ones said
    std::fs::write(deep.join("S01-T8.csv"), card.replace(",7,", ",8,")).unwrap();
    Test::new()
        .arg("check")
        .arg(&deep)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{}: 1 file lies more than 8 folders deep in it and would not be read ({}): move the cards up, or give their folder\n",
            deep.display(),
            twelve.join("S01-T7.csv").display()
        ))
        .stderr_lacks("accepted");
}

/// A link that leads nowhere, met in a folder where a card file or a
/// folder of cards could be, is said as when it is given (every one at
/// once); one named otherwise, or hidden, is not a card's.
#[cfg(unix)]
#[test]
fn a_link_to_nothing_in_a_folder_is_said() {
    let s = crate::test::Scratch::new("links-in-folder");
    let cards = s.path("cards");
    std::fs::create_dir_all(&cards).unwrap();
    std::fs::copy(
        fixtures().join("good/hk-examples.csv"),
        cards.join("S01.csv"),
    )
    .unwrap();
    std::os::unix::fs::symlink("/nonexistent/S03.xlsx", cards.join("S03.xlsx")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/S04", cards.join("S04")).unwrap();
    std::os::unix::fs::symlink("loop.csv", cards.join("loop.csv")).unwrap();
    // not a card's: an editor's lock, a photo
    std::os::unix::fs::symlink("user@host.1234", cards.join(".#S01.csv")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/p.jpg", cards.join("photo.jpg")).unwrap();
    let c = |name: &str| cards.join(name).display().to_string();
    Test::new()
        .arg("check")
        .arg(&cards)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{}: error: a symbolic link to /nonexistent/S03.xlsx, where there is no file or folder\n",
            c("S03.xlsx")
        ))
        .stderr_has(&format!(
            "{}: error: a symbolic link to /nonexistent/S04, where there is no file or folder\n",
            c("S04")
        ))
        .stderr_has(&format!(
            "{}: error: a symbolic link that leads round in a loop (back to itself through links): no file or folder to read\n",
            c("loop.csv")
        ))
        .stderr_has("tilerank: 3 inputs could not be read (see above); nothing was decided")
        .stderr_lacks(".#S01")
        .stderr_lacks("photo");
    // the links gone: the folder's card is read
    for name in ["S03.xlsx", "S04", "loop.csv"] {
        std::fs::remove_file(cards.join(name)).unwrap();
    }
    Test::new().arg("check").arg(&cards).run().success();
}

/// An event folder's tilerank.toml that is a symbolic link is followed
/// to a settings file; one to a device (or to nothing) is said, not taken
/// for a folder with no settings.
#[cfg(unix)]
#[test]
fn a_linked_tilerank_toml_is_followed_to_a_file() {
    let s = crate::test::Scratch::new("linked-settings");
    let settings = fixtures().join("e2e/hk/tilerank.toml");
    let roster = fixtures().join("e2e/hk/roster.csv");
    let linked = s.path("linked");
    std::fs::create_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(&settings, linked.join("tilerank.toml")).unwrap();
    Test::new()
        .arg("roster")
        .arg(&roster)
        .arg("--event")
        .arg(&linked)
        .run()
        .success()
        .stderr_has("Roster stored: 8 players.");
    let zero = s.path("evz");
    std::fs::create_dir_all(&zero).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero.join("tilerank.toml")).unwrap();
    Test::new()
        .args(["standings", "--event"])
        .arg(&zero)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{}: not an event folder: its tilerank.toml is a symbolic link to /dev/zero, a device, not a file; make it the event's settings file (a symbolic link to a file is followed)\n",
            zero.display()
        ));
    let dangling = s.path("evl");
    std::fs::create_dir_all(&dangling).unwrap();
    std::os::unix::fs::symlink("../nothing.toml", dangling.join("tilerank.toml")).unwrap();
    Test::new()
        .args(["roster"])
        .arg(&roster)
        .arg("--event")
        .arg(&dangling)
        .run()
        .failure(2)
        .stderr_has(&format!(
            "{}: not an event folder: its tilerank.toml is a symbolic link to ../nothing.toml, where there is no file or folder; make it the event's settings file",
            dangling.display()
        ));
}

/// A folder is read with the folders in it (a session's cards in a
/// folder of their own); a hidden folder is not (here a copy of a card,
/// which would be given twice), and a link back up is not followed again.
#[test]
fn a_folder_is_read_with_its_folders() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("nested-folders");
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["late", ".old"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let card = std::fs::read_to_string(fixtures().join("good/hk-examples.csv")).unwrap();
    std::fs::write(dir.join("S01-T7.csv"), &card).unwrap();
    std::fs::write(dir.join(".old/S01-T7.csv"), &card).unwrap();
    let other = card
        .replace("S01,7,", "S01,8,")
        .replace("P0001", "P0005")
        .replace("P0002", "P0006")
        .replace("P0003", "P0007")
        .replace("P0004", "P0008");
    std::fs::write(dir.join("late/S01-T8.csv"), other).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&dir, dir.join("late/up")).unwrap();
    Test::new()
        .arg("check")
        .arg(&dir)
        .run()
        .success()
        .stderr_has("2 files: 2 cards accepted, 6 games; 0 errors");
}

/// The closing line counts in words that agree with the numbers: one
/// game is `1 game`; CSV files have no sheets, so only a workbook's are
/// counted; nothing read says no `0 files`.
#[test]
fn the_summary_counts_games_and_sheets_as_read() {
    let s = crate::test::Scratch::new("summary-words");
    let card: String = std::fs::read_to_string(fixtures().join("good/went-out.csv"))
        .unwrap()
        .lines()
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect();
    let card = s.write("one-game.csv", &card);
    let rules = s.write(
        "one.toml",
        "extends = \"hk\"\nname = \"one\"\n\n[stages.prelim]\ngames = 1\n",
    );
    Test::new()
        .arg("check")
        .arg(&card)
        .arg("--rules")
        .arg(&rules)
        .run()
        .success()
        .stderr_has("1 file: 1 card accepted, 1 game; 0 errors\n");
    // a CSV file and a workbook of two sheets (a card and notes)
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .fixture("workbooks/card.xlsx")
        .run()
        .stderr_has("\n2 files, 2 sheets: ");
}

/// No INPUT and no event folder (tests/fixtures has no tilerank.toml).
#[test]
fn no_input_given() {
    Test::new()
        .arg("check")
        .run()
        .failure(2)
        .stderr_has("INPUT");
}

#[test]
fn an_unknown_command() {
    Test::new()
        .arg("rank")
        .run()
        .failure(2)
        .stderr_has("unrecognized subcommand 'rank'");
}

#[test]
fn an_unknown_profile() {
    Test::new()
        .args(["check", "--profile", "vegas"])
        .fixture("good/went-out.csv")
        .run()
        .failure(2)
        .stderr_has("unknown rules profile \"vegas\"")
        .stderr_has("hk, nvso, pressman or gwinnett");
}

#[test]
fn an_unknown_option() {
    Test::new()
        .args(["standings", "--colour"])
        .fixture("good/went-out.csv")
        .run()
        .failure(2)
        .stderr_has("--colour");
}

#[test]
fn a_bad_cutoff_policy_and_top() {
    Test::new()
        .args(["qualifiers", "--cutoff-ties", "maybe"])
        .fixture("good/went-out.csv")
        .run()
        .failure(2)
        .stderr_has("maybe")
        .stderr_has("include");
    Test::new()
        .args(["qualifiers", "--top", "ten"])
        .fixture("good/went-out.csv")
        .run()
        .failure(2)
        .stderr_has("ten");
}

/// A top N larger than the players ranked takes every one of them, and
/// the list says so under its table (the title counts the players only).
#[test]
fn a_top_larger_than_the_field_says_every_ranked_player_goes_on() {
    let said = "Every ranked player goes on: 8 are ranked, fewer than the top 120 asked for.";
    Test::new()
        .args(["qualifiers", "--top", "120"])
        .fixture("e2e/hk/cards/prelim.csv")
        .run()
        .success()
        .stdout_has("top 120 of the prelim standings (hk rules), 8 players")
        .stdout_has(said);
    let out = Test::new()
        .args(["qualifiers", "--top", "8"])
        .fixture("e2e/hk/cards/prelim.csv")
        .run()
        .success();
    assert!(
        !out.stdout.contains("Every ranked player"),
        "{}",
        out.stdout
    );
}

/// Under a rule decided at each table (gwinnett: each table's lowest
/// total; nvso: table winners and best seconds) no cutoff is made:
/// `--top` and `--cutoff-ties` are refused (exit 2, nothing read), as a
/// setting of another rule is, by every command that takes them; they
/// were ignored, and the list given as without them.
#[test]
fn a_cutoff_under_a_table_rule_is_refused() {
    let gwinnett = "only for a rule of the top N of the standings ([qualifiers] rule = \"top\"): who goes on here is each table's lowest total (gwinnett rules), and no cutoff is made";
    for command in ["qualifiers", "export", "publish"] {
        let out =
            std::env::temp_dir().join(format!("tilerank-cutoff-{}-{command}", std::process::id()));
        for (given, said) in [
            (&["--top", "3"][..], "--top 3: "),
            (&["--cutoff-ties", "exclude"], "--cutoff-ties: "),
            (&["--top", "3", "--cutoff-ties", "error"], "--top 3: "),
        ] {
            Test::new()
                .arg(command)
                .args(given.iter().copied())
                .args(["--profile", "gwinnett", "-o"])
                .arg(&out)
                .fixture("e2e/gwinnett/cards")
                .run()
                .failure(2)
                .stderr_has(&format!("{said}{gwinnett}"));
            assert!(!out.exists(), "{command}: nothing is written");
        }
    }
    Test::new()
        .args(["qualifiers", "--top", "2", "--profile", "nvso"])
        .fixture("e2e/nvso-decisions/five-tables.csv")
        .run()
        .failure(2)
        .stderr_has("--top 2: only for a rule of the top N of the standings ([qualifiers] rule = \"top\"): who goes on here is each table's highest total, then the best seconds up to 4 seats (nvso rules), and no cutoff is made");
    // without them, the list of the table rule
    Test::new()
        .args(["qualifiers", "--profile", "gwinnett", "--format", "csv"])
        .fixture("e2e/gwinnett/cards")
        .run()
        .success();
    // and a name under the top N, which takes none: it said the player
    // was in no tie, also of one at the cutoff
    for command in ["advance", "seating"] {
        let from: &[&str] = if command == "seating" {
            &["--from", "prelim"]
        } else {
            &[]
        };
        Test::new()
            .arg(command)
            .args(from.iter().copied())
            .args(["--player", "H07"])
            .fixture("e2e/hk/cards/prelim.csv")
            .run()
            .failure(2)
            .stderr_has("--player \"H07\": only for a rule decided at each table: who goes on here is the top 120 of the standings (hk rules), and a tie at its cutoff follows cutoff_ties in tilerank.toml (tilerank qualifiers --cutoff-ties for one run), never a name");
    }
}

/// `--top`, guessed from `qualifiers` on a command that has none, says
/// what the command gives and where --top is, as the command line's error
/// (exit 2, nothing read); not clap's tip of a similar argument,
/// `--output`. The commands still have no --top: --help does not list it.
#[test]
fn top_on_a_command_without_it_says_where_it_is() {
    for (command, gives) in [
        ("medals", "places 1 to 3 of the final in each age group"),
        (
            "standings",
            "every player of the stage, Q marking who goes on",
        ),
        ("advance", "who goes on by the event's rule"),
        ("awards", "Super Family Award"),
        ("seating", "with --from STAGE those who go on"),
        ("explain", "one player's place"),
    ] {
        for top in [&["--top", "3"][..], &["--top"], &["--top=120"]] {
            let mut test = Test::new().arg(command);
            if command == "explain" {
                test = test.arg("P0001");
            }
            // (a file not there: nothing is read before the refusal)
            test.args(top)
                .arg("no-such-cards.csv")
                .run()
                .failure(2)
                .stderr_has(&format!("error: {command} has no --top: it"))
                .stderr_has(gives)
                .stderr_has(&format!("see tilerank {command} --help"))
                .stderr_has("tilerank qualifiers --top N")
                .stderr_has("[qualifiers] top = N in tilerank.toml")
                .stderr_lacks("--output")
                .stderr_lacks("no-such-cards");
        }
        let help = Test::new().args([command, "--help"]).run().success();
        assert!(!help.stdout.contains("--top"), "{command}: {}", help.stdout);
    }
    // qualifiers has it, and says how many
    Test::new()
        .args(["qualifiers", "--help"])
        .run()
        .success()
        .stdout_has("--top <N>");
}

#[test]
fn an_unknown_stage() {
    // a stage the rules do not play: the command line is wrong
    Test::new()
        .args(["standings", "--stage", "semi"])
        .fixture("good/went-out.csv")
        .run()
        .failure(2)
        .stderr_has(
            "tilerank: stage semi is not one of this event's stages (prelim, final: [rules] stages in tilerank.toml)",
        );
    // the final, before its cards: still to come, as missing cards are
    Test::new()
        .args(["standings", "--stage", "final"])
        .fixture("good/went-out.csv")
        .run()
        .failure(1)
        .stderr_has(
            "Nothing ranked yet: the final is still to be played (no card of it yet; the cards so far are of the prelim).\n",
        );
}

#[test]
fn an_event_with_no_cards_yet_is_incomplete_not_a_wrong_command() {
    let s = crate::test::Scratch::new("no-cards-yet");
    let dir = s.path("e0");
    Test::new()
        .args(["init"])
        .arg(&dir)
        .args(["--name", "x", "--date", "2026-03-28"])
        .run()
        .success();
    for command in ["standings", "qualifiers", "medals"] {
        Test::new()
            .arg(command)
            .arg("--event")
            .arg(&dir)
            .run()
            .failure(1)
            .stderr_has("Nothing ranked: the event has no cards yet");
    }
    let out = s.path("x.xlsx");
    Test::new()
        .args(["export", "-o"])
        .arg(&out)
        .arg("--event")
        .arg(&dir)
        .run()
        .failure(1)
        .stderr_has("Nothing exported: the event has no cards yet");
    assert!(!out.exists());
}

#[test]
fn every_command_has_help_with_an_example() {
    for (command, example) in [
        ("check", "tilerank check "),
        ("standings", "tilerank standings "),
        ("qualifiers", "tilerank qualifiers "),
    ] {
        Test::new()
            .args([command, "--help"])
            .run()
            .success()
            .stdout_has("Examples:")
            .stdout_has(example)
            .stdout_has("--roster");
    }
    Test::new()
        .arg("--help")
        .run()
        .success()
        .stdout_has("Exit status")
        .stdout_has("check")
        .stdout_has("standings")
        .stdout_has("qualifiers");
}

/// `-o FILE` writes the report whole; its format comes from the extension.
#[test]
fn output_to_a_file() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("standings-out.csv");
    let _ = std::fs::remove_file(&path);
    Test::new()
        .arg("standings")
        .fixture("good/hk-examples.csv")
        .arg("-o")
        .arg(&path)
        .run()
        .success()
        .stdout_is("");
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        written.starts_with(
            "rank,player,name,group,games,won,avg_score,total_score,tiles,status,note\n1,P0001,"
        ),
        "{written}"
    );
}
