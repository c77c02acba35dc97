//! The outputs people read, whole, as reviewed snapshots (insta): a change
//! in what a command prints is one diff in `tests/snapshots/`, accepted
//! with `cargo insta review` (or `INSTA_UPDATE=always cargo test
//! snapshots`) after reading it. Each snapshot holds the exit status,
//! standard output and standard error of one command, as the director
//! types it (paths relative to `tests/fixtures`).

use crate::test::{Output, Test};

/// The whole of a run, as one text.
fn whole(out: &Output) -> String {
    format!(
        "$ {}\nexit status: {:?}\n--- stdout\n{}--- stderr\n{}",
        out.command, out.status, out.stdout, out.stderr
    )
}

fn run(args: &[&str]) -> String {
    whole(&Test::new().args(args).run())
}

const HK: [&str; 4] = [
    "../../examples/hk-2026/cards",
    "--roster",
    "../../examples/hk-2026/roster.csv",
    "--profile",
];

#[test]
fn hk_demo_qualifiers() {
    let mut args = vec!["qualifiers"];
    args.extend(HK);
    args.push("hk");
    insta::assert_snapshot!(run(&args));
}

#[test]
fn hk_demo_qualifiers_as_csv() {
    let mut args = vec!["qualifiers", "--format", "csv"];
    args.extend(HK);
    args.push("hk");
    insta::assert_snapshot!(run(&args));
}

#[test]
fn nvso_demo_advance() {
    insta::assert_snapshot!(run(&["advance", "--event", "../../examples/nvso-2023"]));
}

#[test]
fn nvso_demo_medals() {
    insta::assert_snapshot!(run(&["medals", "--event", "../../examples/nvso-2023"]));
}

#[test]
fn gwinnett_demo_advance() {
    insta::assert_snapshot!(run(&["advance", "--event", "../../examples/gwinnett"]));
}

#[test]
fn standings_with_ties() {
    insta::assert_snapshot!(run(&[
        "standings",
        "--roster",
        "roster.csv",
        "ties/shared-rank.csv"
    ]));
}

#[test]
fn every_card_error_listed_at_once() {
    insta::assert_snapshot!(run(&[
        "check",
        "--roster",
        "roster.csv",
        "bad/check1-unknown-player.csv",
        "bad/check2-won-2.csv",
        "bad/check2-score-abc.csv",
        "bad/check3-sum-not-zero.csv",
        "bad/check4-two-out.csv",
        "bad/check5-wrong-leader-won.csv",
        "bad/check7-game-4.csv"
    ]));
}

/// A minus sign lost where nobody went out: the sum and the sign at its
/// cell (nothing of the seats the wrong leader would make wrong), then one hint
/// after them naming the game, the seat and the score that adds up.
#[test]
fn a_lost_minus_sign_is_hinted() {
    insta::assert_snapshot!(run(&[
        "check",
        "--roster",
        "roster.csv",
        "bad/check3-lost-minus.csv"
    ]));
}

/// A second typing with two seats' lines exchanged in one game (a card
/// that still passes every check): the values that differ, then the
/// question whether the seats are swapped, with the game's places.
#[test]
fn compare_says_two_seats_swapped() {
    insta::assert_snapshot!(run(&[
        "compare",
        "good/went-out.csv",
        "good/went-out-b-c-swapped.csv",
        "--roster",
        "roster.csv"
    ]));
}
