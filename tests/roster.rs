//! Roster matching (FORMATS.md): a card names a player by roster id, or by
//! roster name when it matches exactly one entry, case and spacing ignored.

use crate::test::{Scratch, Test};

#[test]
fn players_by_id() {
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("good/went-out.csv")
        .roster()
        .run()
        .success();
    assert_eq!(
        out.column("name"),
        [
            "Chan Tai Man",
            "Lee Siu Ming",
            "Wong Ka Yan",
            "Cheung Mei Ling"
        ]
    );
}

/// `chan  TAI man`, `LEE SIU MING`, `p0003` (an id in lower case) and
/// `Cheung Mei Ling` name P0001 to P0004.
#[test]
fn players_by_name_ignoring_case_and_spacing() {
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("roster/cards-by-name.csv")
        .roster()
        .run()
        .success()
        .errors(0);
    assert_eq!(out.column("player"), ["P0001", "P0002", "P0003", "P0004"]);
}

/// Two roster entries are called Wong Ka Yan (P0003 and P0009).
#[test]
fn an_ambiguous_name_names_the_candidate_ids() {
    Test::new()
        .arg("check")
        .fixture("bad/check1-ambiguous-name.csv")
        .roster()
        .run()
        .failure(1)
        .error_at(
            "bad/check1-ambiguous-name.csv:4:5",
            &["matches 2 roster entries", "P0003", "P0009", "write the id"],
        );
}

#[test]
fn an_unknown_player() {
    Test::new()
        .arg("check")
        .fixture("bad/check1-unknown-player.csv")
        .roster()
        .run()
        .failure(1)
        .error_at(
            "bad/check1-unknown-player.csv:4:5",
            &["P0099", "not on the roster"],
        );
}

/// Without a roster, every name on a card is a player: the same card
/// passes.
#[test]
fn without_a_roster_the_cards_name_the_players() {
    Test::new()
        .arg("check")
        .fixture("bad/check1-unknown-player.csv")
        .run()
        .success()
        .errors(0);
}

/// `p0002` repeats `P0002` (ids compare like names): the error names both
/// lines.
#[test]
fn a_duplicate_roster_id_names_both_places() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("roster/duplicate-id.csv")
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            "roster/duplicate-id.csv:6:1",
            &[
                "\"p0002\"",
                "already used at roster/duplicate-id.csv:3",
                "Lee Siu Ming",
                "unique",
            ],
        );
}

#[test]
fn a_bad_birth_date() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("roster/bad-birth-date.csv")
        .run()
        .failure(1)
        .errors(2)
        .error_at(
            "roster/bad-birth-date.csv:3:3",
            &["birth_date is \"30/09/2014\"", "YYYY-MM-DD"],
        )
        .error_at(
            "roster/bad-birth-date.csv:4:3",
            &["birth_date is \"1970-02-30\"; no such day: February 1970 has 28 days"],
        );
}

/// A birth date written as a date, of a day the calendar does not have,
/// says why it is none (not that a date is written YYYY-MM-DD, as it is).
#[test]
fn a_birth_date_of_no_day_says_why() {
    let scratch = Scratch::new("no-such-day");
    let roster = scratch.write(
        "roster.csv",
        "id,name,birth_date\nP0001,Chan Tai Man,2014-02-30\nP0002,Lee Siu Ming,2016/2/30\nP0003,Wong Ka Yan,1970-04-31\nP0004,Ho Wing,2014-13-01\nP0005,Lam Mei,2014-02-00\n",
    );
    let at = |line: u32| format!("{}:{line}:3", roster.display());
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .arg(&roster)
        .run()
        .failure(1)
        .errors(5)
        .error_at(
            &at(2),
            &["birth_date is \"2014-02-30\"; no such day: February 2014 has 28 days"],
        )
        .error_at(
            &at(3),
            &["birth_date is \"2016/2/30\"; no such day: February 2016 has 29 days"],
        )
        .error_at(
            &at(4),
            &["birth_date is \"1970-04-31\"; no such day: April 1970 has 30 days"],
        )
        .error_at(
            &at(5),
            &["birth_date is \"2014-13-01\"; no month 13: months are numbered 1 to 12 (expected a date YYYY-MM-DD)"],
        )
        .error_at(
            &at(6),
            &["birth_date is \"2014-02-00\"; no such day: a month's days are numbered from 1"],
        )
        .stderr_lacks("expected a date YYYY-MM-DD\n");
}

/// A date of a year no player is born in says the years taken; digits
/// typed full-width (a phone's or a Chinese keyboard's) are said to be,
/// in a roster's date as in a card's value that is no number all the same
/// (a card's full-width number reads as the plain one).
#[test]
fn a_birth_date_out_of_the_years_or_in_full_width_digits_says_why() {
    let scratch = Scratch::new("birth-years");
    let roster = scratch.write(
        "roster.csv",
        "id,name,birth_date\nP0001,Chan Tai Man,1850-01-01\nP0002,Lee Siu Ming,\u{FF12}\u{FF10}\u{FF11}\u{FF10}-01-01\nP0003,Wong Ka Yan,1970-01-01\nP0004,Ho Wing,1971-01-01\n",
    );
    let card = scratch.write(
        "card.csv",
        "session,table,game,seat,player,won,score,tiles\nS01,1,1,A,P0001,1,\u{FF11}\u{FF10}\u{5206},0\n",
    );
    let at = |file: &std::path::Path, place: &str| format!("{}:{place}", file.display());
    Test::new()
        .arg("check")
        .arg(&card)
        .arg("--roster")
        .arg(&roster)
        .run()
        .failure(1)
        .error_at(
            &at(&roster, "2:3"),
            &["birth_date is \"1850-01-01\"; expected a date from 1900 to 2100"],
        )
        .error_at(
            &at(&roster, "3:3"),
            &["(full-width characters: type the digits, +, - and . plainly); expected a date YYYY-MM-DD"],
        )
        .error_at(
            &at(&card, "2:7"),
            &["score is \"\u{FF11}\u{FF10}\u{5206}\" (full-width characters: type the digits, +, - and . plainly); expected a number such as +30, -5 or 5.5"],
        );
}

/// A roster with errors ranks nobody.
#[test]
fn a_roster_with_errors_ranks_nobody() {
    Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("roster/duplicate-id.csv")
        .run()
        .failure(1)
        .stdout_is("")
        .stderr_has("Nothing ranked");
}

#[test]
fn a_file_that_is_no_roster() {
    Test::new()
        .arg("check")
        .fixture("good/went-out.csv")
        .arg("--roster")
        .fixture("good/hk-examples.csv")
        .run()
        .failure(1)
        .error_at("good/hk-examples.csv", &["no roster found", "id and name"]);
}

/// A roster far larger than the cards: the players who did not play are
/// counted, and only the first few named (a million ids is no line to read).
#[test]
fn many_players_who_did_not_play_are_counted_not_all_listed() {
    let scratch = crate::test::Scratch::new("no-shows");
    let mut roster = String::from("id,name\n");
    for i in 1..=5000 {
        roster.push_str(&format!("P{i:04},Player {i}\n"));
    }
    let roster = scratch.write("roster.csv", &roster);
    let out = Test::new()
        .args(["qualifiers", "--top", "2", "--roster"])
        .arg(&roster)
        .fixture("good/went-out.csv")
        .run()
        .success()
        .stderr_has("4996 players on the roster played no game: P0005, P0006, P0007,")
        .stderr_has(", P0024, and 4976 more\n");
    assert!(!out.stderr.contains("P0025"), "{}", out.stderr);
}

/// `explain` of a roster player who has not played the stage says so, as
/// an answer (exit 0), not as a mistyped command line.
#[test]
fn explain_of_a_roster_player_who_did_not_play_says_so() {
    let s = crate::test::Scratch::new("explain-no-show");
    let roster = s.path("roster.csv");
    let mut text =
        std::fs::read_to_string(crate::test::fixtures().join("e2e/hk/roster.csv")).unwrap();
    text.push_str("H09,Lam Kit Yee,1985-02-03,,,\n");
    std::fs::write(&roster, text).unwrap();
    crate::test::Test::new()
        .args(["explain", "H09"])
        .fixture("e2e/hk/cards/prelim.csv")
        .arg("--roster")
        .arg(&roster)
        .run()
        .success()
        .stdout_is("")
        .stderr_has("H09 (Lam Kit Yee) is on the roster and has no games in the prelim stage: not ranked in it.");
}
