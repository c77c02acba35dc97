//! Ranking ties (RULES.md sections 6 and 7). `ties/shared-rank.csv`: P0001
//! won 2 games; P0002 and P0003 won 1 each, both scored -5 -5 +5 and kept 5
//! tiles in all: tied on every `hk` key; P0004 won none.

use crate::test::Test;

#[test]
fn tied_players_share_a_rank_and_the_next_skips() {
    let out = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("ties/shared-rank.csv")
        .roster()
        .run()
        .success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,P0001,Chan Tai Man,,3,2,12,36,2,Q,
    2,P0002,Lee Siu Ming,,3,1,-1.67,-5,5,Q,shared rank 2
    2,P0003,Wong Ka Yan,,3,1,-1.67,-5,5,Q,shared rank 2
    4,P0004,Cheung Mei Ling,,3,0,-8.67,-26,9,Q,
    ");
}

#[test]
fn the_terminal_table_shows_the_shared_rank_too() {
    Test::new()
        .arg("standings")
        .fixture("ties/shared-rank.csv")
        .roster()
        .run()
        .success()
        .stdout_has("shared rank 2");
}

fn qualifiers(policy: &str) -> crate::test::Output {
    Test::new()
        .args([
            "qualifiers",
            "--top",
            "2",
            "--cutoff-ties",
            policy,
            "--format",
            "csv",
        ])
        .fixture("ties/shared-rank.csv")
        .roster()
        .run()
}

/// The tie for rank 2 straddles a top-2 cutoff: one place, two players.
#[test]
fn a_tie_at_the_cutoff_under_include() {
    let out = qualifiers("include")
        .success()
        .stderr_has("TIE AT THE CUTOFF")
        .stderr_has("2 players share rank 2 across the top-2 cutoff")
        .stderr_has("policy include");
    assert_eq!(out.column("player"), ["P0001", "P0002", "P0003"]);
    assert_eq!(out.column("status"), ["Q", "Q", "Q"]);
    let notes = out.column("note");
    assert!(
        notes[1].contains("tie at cutoff") && notes[2].contains("tie at cutoff"),
        "{notes:?}"
    );
}

#[test]
fn a_tie_at_the_cutoff_under_exclude() {
    let out = qualifiers("exclude")
        .success()
        .stderr_has("TIE AT THE CUTOFF")
        .stderr_has("policy exclude");
    assert_eq!(out.column("player"), ["P0001"]);
}

#[test]
fn a_tie_at_the_cutoff_under_error() {
    // the list above the tie, marked not final, as `advance` shows it
    let out = qualifiers("error")
        .failure(1)
        .stderr_has("DECISION: TIE AT THE CUTOFF")
        .stderr_has("--cutoff-ties include or exclude")
        .stderr_has("The list is not final: the director decides");
    assert_eq!(out.column("player"), ["P0001"]);
}

/// The line under the list says what settles a tie at the cutoff (the
/// policy), not what settles a tie at a table (naming players).
#[test]
fn the_list_waiting_on_a_cutoff_tie_says_the_policy_settles_it() {
    let advice = "set [qualifiers] cutoff_ties = \"include\" (all the players tied at the cutoff go on) or \"exclude\" (none of them do)";
    let out = Test::new()
        .args(["qualifiers", "--top", "2", "--cutoff-ties", "error"])
        .fixture("ties/shared-rank.csv")
        .roster()
        .run()
        .failure(1)
        .stdout_has(advice)
        .stdout_has(
            "naming players (--player, [qualifiers] named) does not settle a tie at the cutoff",
        );
    assert!(
        !out.stdout.contains("(tilerank advance --player"),
        "{}",
        out.stdout
    );
    // More table winners than seats: only the table_ties policy settles it.
    Test::new()
        .args(["advance", "--profile", "nvso"])
        .fixture("e2e/nvso-decisions/five-tables.csv")
        .run()
        .failure(1)
        .stdout_has("set [qualifiers] table_ties = \"all\"")
        .stdout_lacks("cutoff_ties");
}

/// A cutoff between two ranks needs no policy: the error policy passes.
#[test]
fn a_clean_cutoff() {
    let out = Test::new()
        .args([
            "qualifiers",
            "--top",
            "3",
            "--cutoff-ties",
            "error",
            "--format",
            "csv",
        ])
        .fixture("ties/shared-rank.csv")
        .roster()
        .run()
        .success()
        .stderr_lacks("TIE AT THE CUTOFF");
    assert_eq!(out.column("player"), ["P0001", "P0002", "P0003"]);
}

/// The ranking does not depend on the order of the input lines.
#[test]
fn ranking_is_independent_of_input_order() {
    let text =
        std::fs::read_to_string(crate::test::fixtures().join("ties/shared-rank.csv")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let reversed = lines.join("\n") + "\n";
    let forward = Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("ties/shared-rank.csv")
        .roster()
        .run()
        .success();
    Test::new()
        .args(["standings", "--format", "csv", "-"])
        .roster()
        .stdin(reversed)
        .run()
        .success()
        .stdout_is(&forward.stdout);
}

/// `tilerank COMMAND` of the family-tie cards and roster (`hk`).
fn family_tie(command: &str) -> Test {
    let mut test = Test::new().arg(command);
    for card in [
        "prelim-1", "prelim-2", "prelim-3", "final-1", "final-2", "final-3",
    ] {
        test = test.fixture(&format!("family-tie/{card}.csv"));
    }
    test.arg("--roster").fixture("family-tie/roster.csv").args([
        "--profile",
        "hk",
        "--date",
        "2026-03-28",
    ])
}

/// Families F1 and F5 tie on every `hk` key in the final: the tie is
/// reported, no decision waits for the director (exit status 0, no
/// `DECISION` line).
#[test]
fn a_tie_for_the_super_family_award_is_reported_not_a_decision() {
    family_tie("awards")
        .run()
        .success()
        .stdout_has("Families F1, F5 tie for the Super Family Award: a tie for the best is reported, not broken.")
        .stdout_lacks("the director decides")
        .stdout_lacks("DECISION");
}

/// The site's Chinese page lists the tied families as Chinese lists
/// them, with the enumeration comma; the English page as the report.
#[test]
fn the_award_tie_is_listed_in_the_pages_words() {
    let scratch = crate::test::Scratch::new("family-tie");
    for (lang, line) in [
        ("en", "Families F1, F5 tie for the Super Family Award: a tie for the best is reported, not broken."),
        ("zh-Hant", "家庭 F1、F5 同分並列超級家庭獎首位：同分只作報告，不作拆分。"),
    ] {
        let site = scratch.0.join(lang);
        family_tie("publish")
            .args(["--lang", lang, "-o"])
            .arg(&site)
            .run()
            .success();
        let page = std::fs::read_to_string(site.join("super-family-award.html")).unwrap();
        assert!(page.contains(line), "{lang}: {line}\n{page}");
    }
}
