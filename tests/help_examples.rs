//! Every example line of every command's `--help` ("Example:" and
//! "Examples:") runs, as written, on a copy of the demo events of
//! `examples/`: each line is run in the folder it is written for (below),
//! and must end with exit status 0. A line that needs what the demos do
//! not have (a corrected card of one's own, a second typing, a server that
//! runs until Ctrl-C) is named with the reason it is not run, so that a
//! new example is either run or skipped on purpose.

use crate::publish::example;
use crate::test::{copy_dir, shell_words as words, Scratch, Test};
use std::path::{Path, PathBuf};

/// Where an example runs.
enum Run {
    /// In this folder of the scratch (see [`setup`]).
    In(&'static str),
    /// Not run, for this reason.
    Skip(&'static str),
}

/// Each example line (up to its comment), where it runs.
///
/// The folders: `.` holds `examples/` (a copy: `examples/nvso-2023` and
/// `examples/gwinnett` are event folders, as in a clone) and `my-event`
/// (the event folder the README's walk-through makes: `init`, the demo's
/// roster, every card imported; S01.xlsx and S02.xlsx beside it);
/// `examples/hk-2026` has S01.xlsx beside its cards/ and roster.csv; `nvso` and `gw` are the demos' cards and rosters alone
/// (no tilerank.toml); `new` is an empty folder.
const WHERE: &[(&str, Run)] = &[
    ("tilerank init my-event --profile hk --name \"Rummikub HK 2026 Preliminary Round\" --date 2026-03-28", Run::In("new")),
    ("tilerank roster roster.xlsx", Run::Skip("a roster workbook of one's own")),
    ("tilerank import S01.xlsx S02.xlsx", Run::In("my-event")),
    ("tilerank import S03-table7.csv --replace --reason \"score of seat B corrected by the referee\"", Run::Skip("a corrected card of one's own")),
    ("tilerank log", Run::In("my-event")),
    ("tilerank log --format csv -o log.csv", Run::In("my-event")),
    ("tilerank referee add \"Ann Lee\" --site-url http://192.168.1.20:8080 -o ann.png", Run::In("my-event")),
    ("tilerank referee list", Run::In("my-event")),
    ("tilerank referee list --format csv", Run::In("my-event")),
    ("tilerank referee revoke \"Ann Lee\"", Run::In("my-event")),
    ("tilerank dump backup-2026-03-28", Run::In("my-event")),
    ("tilerank check S01.xlsx --roster roster.csv", Run::In("examples/hk-2026")),
    ("tilerank check cards/ --roster roster.csv", Run::In("examples/hk-2026")),
    ("tilerank check session3.csv", Run::Skip("a card file of one's own")),
    ("tilerank compare S03.xlsx S03-second.csv --roster roster.csv", Run::Skip("a second typing of one's own")),
    ("tilerank compare typed-by-ann/ typed-by-ben/ --roster roster.csv", Run::Skip("two typings of one's own")),
    ("tilerank profiles", Run::In("gw")),
    ("tilerank profiles show gwinnett > club.toml", Run::In("gw")),
    ("tilerank standings cards/ --rules club.toml", Run::In("gw")),
    ("tilerank init club-2026 --name \"Club Open\" --rules club.toml", Run::In("gw")),
    ("tilerank standings cards/ --roster roster.csv", Run::In("examples/hk-2026")),
    ("tilerank standings cards/ --roster roster.csv -o standings.xlsx", Run::In("examples/hk-2026")),
    ("tilerank standings cards/ --roster roster.csv --format csv > standings.csv", Run::In("examples/hk-2026")),
    ("tilerank qualifiers cards/ --roster roster.csv", Run::In("examples/hk-2026")),
    ("tilerank qualifiers cards/ --roster roster.csv --top 120 --cutoff-ties exclude -o qualifiers.xlsx", Run::In("examples/hk-2026")),
    ("tilerank qualifiers --event examples/nvso-2023", Run::In(".")),
    ("tilerank score racks-S01.csv -o S01-results.csv", Run::In("racks")),
    ("tilerank score racks-S01.csv --roster roster.csv -o S01-cards.xlsx", Run::In("racks")),
    ("tilerank explain P0117 cards/ --roster roster.csv", Run::In("examples/hk-2026")),
    ("tilerank explain \"Lucas Shum\" --event my-event", Run::In(".")),
    ("tilerank export --event my-event -o results.xlsx", Run::In(".")),
    ("tilerank export cards/ --roster roster.csv --name \"HK Open 2026\" -o results.xlsx", Run::In("examples/hk-2026")),
    ("tilerank export cards/ --roster roster.csv --format csv > results.csv", Run::In("examples/hk-2026")),
    ("tilerank advance --event my-event", Run::In(".")),
    ("tilerank advance cards/ --roster roster.csv --profile nvso --date 2023-09-13", Run::In("nvso")),
    ("tilerank advance --event examples/gwinnett --player GW07", Run::In(".")),
    ("tilerank seating --event my-event --from prelim --seed 2026 -o final-cards.xlsx", Run::In(".")),
    ("tilerank seating cards/ --roster roster.csv --from prelim --by standings", Run::In("examples/hk-2026")),
    ("tilerank seating --roster roster.csv --seed 7 -o prelim-seating.csv", Run::In("examples/hk-2026")),
    ("tilerank medals --event examples/nvso-2023", Run::In(".")),
    ("tilerank medals cards/ --roster roster.csv --profile nvso --date 2023-09-13 -o medals.xlsx", Run::In("nvso")),
    ("tilerank awards --event my-event", Run::Skip("the HK demo has no final yet, and the award is decided on the final")),
    ("tilerank awards --event my-event --all --format csv > families.csv", Run::Skip("the HK demo has no final yet, and the award is decided on the final")),
    ("tilerank awards prelim-cards/ final-cards/ --roster roster.csv --date 2026-04-12", Run::Skip("an HK event's prelim and final cards of one's own")),
    ("tilerank publish examples/hk-2026/cards --roster examples/hk-2026/roster.csv --name \"HK Open 2026\" -o site", Run::In(".")),
    ("tilerank publish --event my-event -o site", Run::In(".")),
    ("tilerank publish --event my-event --lang zh-Hant -o site-zh", Run::In(".")),
    ("tilerank serve --event my-event", Run::Skip("serves until Ctrl-C (tests/publish.rs runs serve)")),
    ("tilerank serve --event my-event --bind 0.0.0.0 --port 8080", Run::Skip("serves until Ctrl-C, on the hall's network")),
    ("tilerank serve --event my-event --entry --bind 0.0.0.0", Run::Skip("serves until Ctrl-C, on the hall's network")),
    ("tilerank man | man -l -", Run::Skip("a pipe into man(1)")),
    ("tilerank man check | man -l -", Run::Skip("a pipe into man(1)")),
    ("tilerank man --dir ~/.local/share/man/man1", Run::Skip("installs into the home folder")),
    // (last: a card of the demo event taken out)
    ("tilerank remove --stage final --session S01 --table 40 --reason \"a prelim card typed on the final's form\"", Run::Skip("the HK demo has no final yet")),
    ("tilerank remove --session S02 --table 7 --reason \"typed as table 7, was table 17\"", Run::In("my-event")),
];

/// The help of `tilerank ARGS --help`, its lines not wrapped.
fn help(args: &[&str]) -> String {
    Test::new()
        .args(args)
        .arg("--help")
        .env("COLUMNS", "10000")
        .run()
        .success()
        .stdout
}

/// The subcommands a help lists under "Commands:" (not `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

/// The example lines of a help: the lines of its "Example:" and
/// "Examples:" blocks that begin with `tilerank`, a line the help wrapped
/// joined again, up to the comment after it (a `#`, or a run of spaces).
fn examples(help: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut block = false;
    for line in help.lines() {
        if matches!(line, "Example:" | "Examples:") {
            block = true;
            continue;
        }
        if line.trim().is_empty() {
            block = false;
            continue;
        }
        if !block {
            continue;
        }
        // (not a line of the block that is no tilerank command: `cd ...`)
        if let Some(command) = line.strip_prefix("  tilerank ") {
            out.push(without_comment(&format!("tilerank {command}")));
        }
    }
    out
}

/// A line up to its comment: a `#`, or three spaces and what follows.
fn without_comment(line: &str) -> String {
    let mut quoted = false;
    let chars: Vec<char> = line.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return line[..i].trim().to_string(),
            ' ' if !quoted && chars[i..].iter().take(3).all(|c| *c == ' ') => {
                return chars[..i].iter().collect::<String>().trim().to_string()
            }
            _ => {}
        }
    }
    line.trim().to_string()
}

/// The folders of [`WHERE`], in `root`.
fn setup(root: &Path) {
    copy_dir(&example(""), &root.join("examples"));
    for (plain, demo) in [("nvso", "nvso-2023"), ("gw", "gwinnett")] {
        copy_dir(
            &example(&format!("{demo}/cards")),
            &root.join(plain).join("cards"),
        );
        std::fs::copy(
            example(&format!("{demo}/roster.csv")),
            root.join(plain).join("roster.csv"),
        )
        .unwrap();
    }
    let hk = root.join("examples/hk-2026");
    std::fs::copy(hk.join("cards/S01.xlsx"), hk.join("S01.xlsx")).unwrap();
    std::fs::create_dir_all(root.join("new")).unwrap();
    // The racks of a session, and the roster they name.
    let racks = root.join("racks");
    std::fs::create_dir_all(&racks).unwrap();
    std::fs::copy(
        crate::test::fixtures().join("racks/s01.csv"),
        racks.join("racks-S01.csv"),
    )
    .unwrap();
    std::fs::copy(
        crate::test::fixtures().join("roster.csv"),
        racks.join("roster.csv"),
    )
    .unwrap();
    // The walk-through's event.
    Test::new()
        .in_dir(root)
        .args([
            "init",
            "my-event",
            "--profile",
            "hk",
            "--name",
            "HK Open 2026",
        ])
        .args(["--date", "2026-03-28"])
        .run()
        .success();
    let event = root.join("my-event");
    Test::new()
        .in_dir(&event)
        .arg("roster")
        .arg(hk.join("roster.csv"))
        .run()
        .success();
    Test::new()
        .in_dir(&event)
        .arg("import")
        .arg(hk.join("cards"))
        .run()
        .success();
    for s in ["S01.xlsx", "S02.xlsx"] {
        std::fs::copy(hk.join("cards").join(s), event.join(s)).unwrap();
    }
}

#[test]
fn every_example_of_every_help_runs_on_the_demos() {
    // Every command's examples, and its subcommands' (`referee add`).
    let mut lines: Vec<String> = Vec::new();
    let mut todo: Vec<Vec<String>> = subcommands(&help(&[]))
        .into_iter()
        .map(|c| vec![c])
        .collect();
    while let Some(command) = todo.pop() {
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let text = help(&args);
        for sub in subcommands(&text) {
            let mut deeper = command.clone();
            deeper.push(sub);
            todo.push(deeper);
        }
        for line in examples(&text) {
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
    }
    let known: Vec<&str> = WHERE.iter().map(|(l, _)| *l).collect();
    let new: Vec<&String> = lines
        .iter()
        .filter(|l| !known.contains(&l.as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "examples the test does not know where to run (add them to WHERE): {new:#?}"
    );
    let gone: Vec<&&str> = known
        .iter()
        .filter(|k| !lines.iter().any(|l| l == *k))
        .collect();
    assert!(
        gone.is_empty(),
        "WHERE has examples no help shows: {gone:#?}"
    );

    let scratch = Scratch::new("help-examples");
    let root = scratch.path("demos");
    setup(&root);
    let mut ran = 0;
    // In the order of WHERE: a rules file is written before it is used.
    for (line, run) in WHERE {
        let dir = match run {
            Run::Skip(why) => {
                eprintln!("not run: {line}: {why}");
                continue;
            }
            Run::In(dir) => root.join(dir),
        };
        let mut args = words(line);
        assert_eq!(args.remove(0), "tilerank");
        let to: Option<PathBuf> = match args.iter().position(|a| a == ">") {
            Some(at) => {
                let file = args[at + 1].clone();
                args.truncate(at);
                Some(dir.join(file))
            }
            None => None,
        };
        let out = Test::new().in_dir(&dir).args(&args).run().success();
        if let Some(to) = to {
            std::fs::write(to, &out.stdout).unwrap();
        }
        ran += 1;
    }
    assert!(ran >= 30, "only {ran} examples ran");
}
