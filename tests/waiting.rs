//! What waits for what: every answer of a stage (its standings, who goes
//! on from it, the medals and the award of the last) waits by one rule,
//! `Event::completeness_of`: for the cards the event expects and for the
//! players who went on to the stage, or to one before it, and have not
//! played it. Each command that gives such an answer waits (exit 1, what
//! is missing named) or, with `--allow-incomplete`, marks it PROVISIONAL.

use crate::one_model::copy_dir;
use crate::test::{fixtures, sheets, Output, Scratch, Test};
use std::path::{Path, PathBuf};

/// A copy of the fixture event `e2e/NAME` in `scratch`.
fn copy(scratch: &Scratch, name: &str) -> PathBuf {
    let dir = scratch.0.join(name);
    copy_dir(&fixtures().join("e2e").join(name), &dir);
    dir
}

/// Keeps the lines of a card file that `keep` takes (and its header).
fn keep_lines(file: &Path, keep: impl Fn(&str) -> bool) {
    let text = std::fs::read_to_string(file).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || keep(l))
        .map(|(_, l)| l)
        .collect();
    std::fs::write(file, kept.join("\n") + "\n").unwrap();
}

fn on(event: &Path, args: &[&str]) -> Output {
    Test::new().args(args).arg("--event").arg(event).run()
}

/// The e2e HK event (one session of two tables expected, the top 4 to the
/// final) with the prelim's table 2 not in yet and no final.
fn hk_one_card_missing(s: &Scratch) -> PathBuf {
    let dir = copy(s, "hk");
    keep_lines(&dir.join("cards/prelim.csv"), |l| {
        l.starts_with("prelim,S01,1,")
    });
    std::fs::remove_file(dir.join("cards/final.csv")).unwrap();
    dir
}

/// `advance` and `seating --from` wait as `qualifiers` does, by the same
/// gate: exit 1 naming the missing card, nothing written; with
/// `--allow-incomplete` the list is PROVISIONAL, and so is each printed
/// card of the seating.
#[test]
fn advance_and_seating_wait_for_missing_cards_as_qualifiers_does() {
    let s = Scratch::new("missing");
    let dir = hk_one_card_missing(&s);
    let missing = "1 card missing:\n  session S01: table 2\n";
    on(&dir, &["qualifiers"])
        .failure(1)
        .stdout_is("")
        .stderr_has(missing)
        .stderr_has("No qualifier list: cards are missing. Import them, or give --allow-incomplete for a provisional list.");
    on(&dir, &["advance"])
        .failure(1)
        .stdout_is("")
        .stderr_has(missing)
        .stderr_has("No list of who goes on from the prelim: cards are missing. Import them, or give --allow-incomplete for a provisional list.");
    let cards = s.path("final-cards.xlsx");
    on(
        &dir,
        &["seating", "--from", "prelim", "-o", cards.to_str().unwrap()],
    )
    .failure(1)
    .stderr_has(missing)
    .stderr_has(
        "Nothing seated: who goes on from the prelim is not known while cards are missing.",
    );
    assert!(!cards.exists(), "no cards printed while the list waits");

    let title = "(PROVISIONAL: 1 card missing)";
    on(&dir, &["qualifiers", "--allow-incomplete"])
        .success()
        .stdout_has(title);
    on(&dir, &["advance", "--allow-incomplete"])
        .success()
        .stderr_has(missing)
        .stdout_has(&format!(
            "Going on from the prelim stage to the final: 4 players {title}"
        ));
    on(&dir, &["seating", "--from", "prelim", "--allow-incomplete"])
        .success()
        .stdout_has(&format!(
            "Seating of the final stage: 4 players at 1 table (seed 1) {title}"
        ));
    on(
        &dir,
        &[
            "seating",
            "--from",
            "prelim",
            "--allow-incomplete",
            "-o",
            cards.to_str().unwrap(),
        ],
    )
    .success()
    .stderr_has("1 score card of the final stage, one a sheet, players' names filled in, to print (Date 2026-03-28), each marked PROVISIONAL: 1 card missing");
    let printed = sheets(&cards);
    assert_eq!(printed.len(), 1);
    for (name, rows) in &printed {
        assert_eq!(
            rows[1][0],
            "PROVISIONAL SEATING (1 card missing): who goes on can still change. Check this table against the final seating before play.",
            "{name}: {rows:?}"
        );
    }
    // (the flag seats who goes on from a stage: --from)
    on(&dir, &["seating", "--allow-incomplete"]).failure(2);

    // Once the card is in, nothing says PROVISIONAL.
    let whole = Scratch::new("whole");
    let whole = copy(&whole, "hk");
    std::fs::remove_file(whole.join("cards/final.csv")).unwrap();
    on(&whole, &["advance", "--format", "csv"])
        .success()
        .stdout_lacks("PROVISIONAL");
    on(
        &whole,
        &["seating", "--from", "prelim", "-o", cards.to_str().unwrap()],
    )
    .success()
    .stderr_lacks("PROVISIONAL");
    assert_eq!(
        sheets(&cards)[0].1[1]
            .iter()
            .filter(|c| !c.is_empty())
            .count(),
        0
    );
}

/// A later stage waits for the players who went on to it (Gwinnett: the
/// semi's table 3 not in): who goes on from the semi, and its seating,
/// wait as the medals do; the final's standings, which the medals are,
/// say PROVISIONAL as the medals do; the prelim, complete, says nothing.
#[test]
fn a_later_stage_waits_for_the_players_who_went_on_to_it() {
    let s = Scratch::new("semi");
    let dir = copy(&s, "gwinnett");
    keep_lines(&dir.join("cards/semi.csv"), |l| !l.starts_with("semi,1,3,"));
    let waiting =
        "semi: 3 of the 9 players who went on from the prelim have no card yet: G05, G13, G23";
    on(&dir, &["advance", "--stage", "semi"])
        .failure(1)
        .stdout_is("")
        .stderr_has(waiting)
        .stderr_has("No list of who goes on from the semi");
    on(&dir, &["qualifiers", "--stage", "semi"])
        .failure(1)
        .stderr_has(waiting);
    on(&dir, &["seating", "--from", "semi"])
        .failure(1)
        .stdout_is("")
        .stderr_has(waiting)
        .stderr_has("Nothing seated");
    on(&dir, &["medals"]).failure(1).stderr_has(waiting);
    let title = "(PROVISIONAL: 3 players of the semi still to play)";
    on(&dir, &["advance", "--stage", "semi", "--allow-incomplete"])
        .success()
        .stdout_has(title);
    on(&dir, &["medals", "--allow-incomplete"])
        .success()
        .stdout_has(title);
    on(&dir, &["standings", "--stage", "final"])
        .success()
        .stdout_has(title);
    on(&dir, &["standings", "--stage", "semi"])
        .success()
        .stdout_has(title);
    // the prelim is complete: who goes on from it is final
    on(&dir, &["advance"])
        .success()
        .stdout_lacks("PROVISIONAL")
        .stderr_lacks("semi:");
    on(&dir, &["standings"])
        .success()
        .stdout_lacks("PROVISIONAL");
}
