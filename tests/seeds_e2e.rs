//! End to end, one small event per rules profile, from the first stage's
//! cards to the medals (RULES.md sections 3 to 9), through the command
//! line; then the NVSO age groups at their edges, seating, and the
//! advancement decisions left to the director.
//!
//! The events are hand-made (`tests/fixtures/e2e/`, see its README.md) and
//! every expected number is worked out by hand in the comments: a game is
//! written `A out: B 12/3, C 20/5` for "A went out; B was left with 12
//! points on 3 tiles, C with 20 on 5", or `nobody out: A 6/2 ...` for an
//! unfinished game (RULES.md section 3). Outputs are compared as CSV, each
//! written out beside the working that gives it as an inline snapshot
//! (insta): a change in an output fails with its diff, and once read, is
//! accepted with `cargo insta review`.

use crate::test::{Output, Test};
use std::collections::{BTreeMap, BTreeSet};

/// `tilerank ARGS... --event e2e/NAME`.
fn event(name: &str, args: &[&str]) -> Output {
    Test::new()
        .args(args)
        .arg("--event")
        .fixture(&format!("e2e/{name}"))
        .run()
}

// ------------------------------------------------------------------- hk

/// Prelim, session 1 (RULES.md section 3; hk keys: games won, average,
/// tiles).
///
/// Table 1, seats H01 H03 H05 H07:
/// - game 1, H01 out: H03 12/3, H05 20/5, H07 8/2 -> H01 +40, -12, -20, -8
/// - game 2, H03 out: H01 5/1, H05 15/4, H07 10/3 -> H03 +30, -5, -15, -10
/// - game 3, nobody out: H01 6/2, H03 9/3, H05 21/6, H07 14/4: H01 leads
///   at 6, the others lose 3, 15, 8 -> H01 +26 and wins
///
/// H01 won 2, 40 - 5 + 26 = 61 (avg 20.33), tiles 0+1+2 = 3;
/// H03 won 1, -12 + 30 - 3 = 15 (avg 5), tiles 3+0+3 = 6;
/// H05 won 0, -20 - 15 - 15 = -50 (avg -16.67), tiles 5+4+6 = 15;
/// H07 won 0, -8 - 10 - 8 = -26 (avg -8.67), tiles 2+3+4 = 9.
///
/// Table 2, seats H02 H04 H06 H08:
/// - game 1, H04 out: H02 7/2, H06 25/6, H08 11/3 -> H04 +43
/// - game 2, H02 out: H04 4/1, H06 18/5, H08 a joker 30/1 -> H02 +52
/// - game 3, RULES.md example 2: H02 8/3, H04 8/1, H06 20/2, H08 18/4 ->
///   +11 +11 -12 -10, H04 wins on fewer tiles
///
/// H02 won 1, -7 + 52 + 11 = 56 (avg 18.67), tiles 2+0+3 = 5;
/// H04 won 2, 43 - 4 + 11 = 50 (avg 16.67), tiles 0+1+1 = 2;
/// H06 won 0, -25 - 18 - 12 = -55 (avg -18.33), tiles 6+5+2 = 13;
/// H08 won 0, -11 - 30 - 10 = -51 (avg -17), tiles 3+1+4 = 8.
///
/// Standings: won 2: H01 (20.33) before H04 (16.67); won 1: H02 (18.67)
/// before H03 (5); won 0 by average: H07, H05, H08, H06.
#[test]
fn hk_prelim_to_final_medals_and_the_super_family_award() {
    event("hk", &["check"])
        .success()
        .errors(0)
        .stderr_has("2 files: 3 cards accepted, 9 games; 0 errors");

    let out = event("hk", &["standings", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,H01,Chan Tai Man,,3,2,20.33,61,3,Q,
    2,H04,Lee Ka Yan,,3,2,16.67,50,2,Q,
    3,H02,Chan Siu Ming,,3,1,18.67,56,5,Q,
    4,H03,Lee Mei Ling,,3,1,5,15,6,Q,
    5,H07,Ho Wing Sze,,3,0,-8.67,-26,9,,
    6,H05,Wong Chi Keung,,3,0,-16.67,-50,15,,
    7,H08,Lam Yuk Lan,,3,0,-17,-51,8,,
    8,H06,Wong Siu Fung,,3,0,-18.33,-55,13,,
    ");

    // tilerank.toml: [qualifiers] top = 4, no tie at the cutoff.
    let out = event("hk", &["qualifiers", "--format", "csv"])
        .success()
        .stderr_lacks("TIE AT THE CUTOFF");
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,H01,Chan Tai Man,,3,2,20.33,61,3,Q,
    2,H04,Lee Ka Yan,,3,2,16.67,50,2,Q,
    3,H02,Chan Siu Ming,,3,1,18.67,56,5,Q,
    4,H03,Lee Mei Ling,,3,1,5,15,6,Q,
    ");
    let out = event("hk", &["advance", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    group,player,name,reason
    ,H01,Chan Tai Man,rank 1 of the top 4
    ,H04,Lee Ka Yan,rank 2 of the top 4
    ,H02,Chan Siu Ming,rank 3 of the top 4
    ,H03,Lee Mei Ling,rank 4 of the top 4
    ");

    // Seated by standings: the best four at table 1, seat A for the best.
    // The final card uses these seats.
    let out = event(
        "hk",
        &[
            "seating",
            "--from",
            "prelim",
            "--by",
            "standings",
            "--format",
            "csv",
        ],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    session,table,seat,player,name,group
    1,1,A,H01,Chan Tai Man,
    1,1,B,H04,Lee Ka Yan,
    1,1,C,H02,Chan Siu Ming,
    1,1,D,H03,Lee Mei Ling,
    ");

    // The final starts fresh. Seats H01 H04 H02 H03:
    // - game 1, H02 out: H01 10/3, H04 6/2, H03 15/4 -> H02 +31
    // - game 2, H04 out: H01 9/2, H02 3/1, H03 20/5 -> H04 +32
    // - game 3, nobody out: H01 5/2, H04 12/4, H02 9/3, H03 5/2: H01 and
    //   H03 lead at 5 with 2 tiles each (both win, RULES.md example 3);
    //   H04 loses 7, H02 4, the pot of 11 is shared: +5.5 each
    // H01 won 1, -10 - 9 + 5.5 = -13.5 (avg -4.5), tiles 3+2+2 = 7;
    // H04 won 1, -6 + 32 - 7 = 19 (avg 6.33), tiles 2+0+4 = 6;
    // H02 won 1, 31 - 3 - 4 = 24 (avg 8), tiles 0+1+3 = 4;
    // H03 won 1, -15 - 20 + 5.5 = -29.5 (avg -9.83), tiles 4+5+2 = 11.
    // All won 1: the average decides.
    let out = event("hk", &["standings", "--stage", "final", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,H02,Chan Siu Ming,,3,1,8,24,4,,
    2,H04,Lee Ka Yan,,3,1,6.33,19,6,,
    3,H01,Chan Tai Man,,3,1,-4.5,-13.5,7,,
    4,H03,Lee Mei Ling,,3,1,-9.83,-29.5,11,,
    ");
    let out = event("hk", &["medals", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    group,medal,rank,player,name,note
    ,Champion,1,H02,Chan Siu Ming,
    ,1st runner-up,2,H04,Lee Ka Yan,
    ,2nd runner-up,3,H01,Chan Tai Man,
    ");

    // RULES.md section 9, ages on 2026-03-28. F1: H01 (45) and H02 (13);
    // F2: H03 (51) and H04 (16); F3: H05 (40) and H06 (11), neither
    // qualified. Sums of the final's keys:
    // F1 won 1+1 = 2, avg -4.5 + 8 = 3.5, tiles 7+4 = 11;
    // F2 won 1+1 = 2, avg -29.5/3 + 19/3 = -3.5, tiles 11+6 = 17.
    // Tied on games won, F1 wins on the summed average.
    let out = event("hk", &["awards", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    rank,family,parent,parent_name,child,child_name,won,avg_score,tiles
    1,F1,H01,Chan Tai Man,H02,Chan Siu Ming,2,3.5,11
    2,F2,H03,Lee Mei Ling,H04,Lee Ka Yan,2,-3.5,17
    ");
    // F3 is counted under the award, by reason; --all lists it, and why.
    event("hk", &["awards"])
        .success()
        .stdout_has("Super Family Award: family F1 (H01 Chan Tai Man and H02 Chan Siu Ming).")
        .stdout_has("1 family is not eligible for the award: neither member qualified for the final, 1 (F3). Each family and why: tilerank awards --all.");
    let out = event("hk", &["awards", "--all", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    Super Family Award
    rank,family,parent,parent_name,child,child_name,won,avg_score,tiles
    1,F1,H01,Chan Tai Man,H02,Chan Siu Ming,2,3.5,11
    2,F2,H03,Lee Mei Ling,H04,Lee Ka Yan,2,-3.5,17

    Not eligible
    family,members,reason
    F3,\"H05 Wong Chi Keung, H06 Wong Siu Fung\",neither H05 nor H06 qualified for the final
    ");
}

// ------------------------------------------------------------------ nvso

/// Qualifying stage (nvso: total, then games won), one group of 12
/// (`Open`: 16 players or fewer).
///
/// Table 1, N01 N02 N03 N04:
/// - N01 out: N02 10/3, N03 15/4, N04 20/5 -> N01 +45
/// - N02 out: N01 8/2, N03 12/3, N04 6/2 -> N02 +26
/// - N01 out: N02 5/2, N03 9/3, N04 11/3 -> N01 +25
///
/// N01 45 - 8 + 25 = 62 (won 2); N02 -10 + 26 - 5 = 11 (won 1);
/// N03 -15 - 12 - 9 = -36; N04 -20 - 6 - 11 = -37. Second N02, 51 behind.
///
/// Table 2, N05 N06 N07 N08:
/// - N06 out: N05 4/1, N07 16/4, N08 13/4 -> N06 +33
/// - N05 out: N06 7/2, N07 10/3, N08 14/4 -> N05 +31
/// - nobody out: N05 6/2, N06 3/1, N07 12/3, N08 9/3: N06 leads at 3, the
///   others lose 3, 9, 6 -> N06 +18
///
/// N05 -4 + 31 - 3 = 24 (won 1); N06 33 - 7 + 18 = 44 (won 2);
/// N07 -16 - 10 - 9 = -35; N08 -13 - 14 - 6 = -33. Second N05, 20 behind.
///
/// Table 3, N09 N10 N11 N12:
/// - N11 out: N09 9/3, N10 12/3, N12 5/2 -> N11 +26
/// - N12 out: N09 3/1, N10 20/5, N11 11/4 -> N12 +34
/// - N09 out: N10 6/2, N11 8/3, N12 10/3 -> N09 +24
///
/// N09 -9 - 3 + 24 = 12; N10 -12 - 20 - 6 = -38; N11 26 - 11 - 8 = 7;
/// N12 -5 + 34 - 10 = 19 (each won 1 but N10). Second N09, 7 behind.
///
/// Three table winners, one seat left: the closest second, N09 (7 behind,
/// against N05's 20 and N02's 51).
#[test]
fn nvso_qualifying_to_championship_medals() {
    event("nvso", &["check"])
        .success()
        .errors(0)
        .stderr_has("2 files: 4 cards accepted, 12 games; 0 errors");
    let out = event("nvso", &["standings", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,N01,Alice Archer,Open,3,2,20.67,62,2,Q,
    2,N06,Frank Fisher,Open,3,2,14.67,44,3,Q,
    3,N05,Eve Ellis,Open,3,1,8,24,3,,
    4,N12,Leo Lane,Open,3,1,6.33,19,5,Q,
    5,N09,Iris Irving,Open,3,1,4,12,4,Q,
    6,N02,Bob Baker,Open,3,1,3.67,11,5,,
    7,N11,Kate King,Open,3,1,2.33,7,7,,
    8,N08,Hank Hill,Open,3,0,-11,-33,11,,
    9,N07,Grace Gill,Open,3,0,-11.67,-35,10,,
    10,N03,Carol Carter,Open,3,0,-12,-36,10,,
    11,N04,Dan Dalton,Open,3,0,-12.33,-37,10,,
    12,N10,Jack Jones,Open,3,0,-12.67,-38,10,,
    ");
    // N05 is third in the standings but only second at its table: the
    // table, not the standings, decides.
    let out = event("nvso", &["advance", "--format", "csv"])
        .success()
        .stderr_lacks("DECISION");
    insta::assert_snapshot!(out.stdout, @"
    group,player,name,reason
    Open,N01,Alice Archer,table winner at table 1 with +62
    Open,N06,Frank Fisher,table winner at table 2 with +44
    Open,N12,Leo Lane,table winner at table 3 with +19
    Open,N09,Iris Irving,best second: 7 behind the winner of table 3
    ");
    // The championship card uses this draw's seats.
    let out = event(
        "nvso",
        &[
            "seating", "--from", "prelim", "--seed", "2023", "--format", "csv",
        ],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    session,table,seat,player,name,group
    1,1,A,N09,Iris Irving,Open
    1,1,B,N01,Alice Archer,Open
    1,1,C,N06,Frank Fisher,Open
    1,1,D,N12,Leo Lane,Open
    ");

    // Championship, N09 N01 N06 N12, fresh standings:
    // - N12 out: N09 11/3, N01 14/4, N06 9/3 -> N12 +34
    // - N09 out: N01 6/2, N06 15/4, N12 8/2 -> N09 +29
    // - N01 out: N09 5/1, N06 7/2, N12 12/4 -> N01 +24
    // N12 34 - 8 - 12 = 14; N09 -11 + 29 - 5 = 13; N01 -14 - 6 + 24 = 4;
    // N06 -9 - 15 - 7 = -31.
    let out = event(
        "nvso",
        &["standings", "--stage", "final", "--format", "csv"],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,N12,Leo Lane,Open,3,1,4.67,14,6,,
    2,N09,Iris Irving,Open,3,1,4.33,13,4,,
    3,N01,Alice Archer,Open,3,1,1.33,4,6,,
    4,N06,Frank Fisher,Open,3,0,-10.33,-31,9,,
    ");
    let out = event("nvso", &["medals", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    group,medal,rank,player,name,note
    Open,Gold,1,N12,Leo Lane,
    Open,Silver,2,N09,Iris Irving,
    Open,Bronze,3,N01,Alice Archer,
    ");
    // the one group asked for: the same placings
    event("nvso", &["medals", "--group", "open", "--format", "csv"])
        .success()
        .stdout_is(&out.stdout);
}

// -------------------------------------------------------------- pressman

/// Prelim (pressman: games won, then total), top 4.
///
/// Table 1, P01 P02 P03 P04:
/// - P01 out: P02 8/2, P03 13/4, P04 6/2 -> P01 +27
/// - P03 out: P01 10/3, P02 4/1, P04 9/2 -> P03 +23
/// - nobody out: P01 7/2, P02 7/2, P03 47/8, P04 12/3: P01 and P02 lead
///   at 7 with 2 tiles each (both win); P03 loses 40, P04 5; the pot of 45
///   is shared: +22.5 each
///
/// P01 won 2, 27 - 10 + 22.5 = 39.5; P02 won 1, -8 - 4 + 22.5 = 10.5;
/// P03 won 1, -13 + 23 - 40 = -30; P04 won 0, -6 - 9 - 5 = -20.
///
/// Table 2 (3 players), P05 P06 P07:
/// - P06 out: P05 11/3, P07 6/2 -> P06 +17
/// - P05 out: P06 9/3, P07 14/4 -> P05 +23
/// - P07 out: P05 5/1, P06 3/1 -> P07 +8
///
/// P05 won 1, -11 + 23 - 5 = 7; P06 won 1, 17 - 9 - 3 = 5;
/// P07 won 1, -6 - 14 + 8 = -12.
///
/// Games won first: P04 (-20, no win) ranks below P07 (-12) and P03
/// (-30), who won one each.
#[test]
fn pressman_prelim_to_final_with_a_shared_silver() {
    event("pressman", &["check"])
        .success()
        .errors(0)
        .stderr_has("2 files: 3 cards accepted, 9 games; 0 errors");
    let out = event("pressman", &["standings", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,P01,Ann Abbott,,3,2,13.17,39.5,5,Q,
    2,P02,Ben Brooks,,3,1,3.5,10.5,5,Q,
    3,P05,Ella Evans,,3,1,2.33,7,4,Q,
    4,P06,Finn Ford,,3,1,1.67,5,4,Q,
    5,P07,Gus Gray,,3,1,-4,-12,6,,
    6,P03,Cleo Cruz,,3,1,-10,-30,12,,
    7,P04,Dev Doyle,,3,0,-6.67,-20,7,,
    ");
    let out = event("pressman", &["advance", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    group,player,name,reason
    ,P01,Ann Abbott,rank 1 of the top 4
    ,P02,Ben Brooks,rank 2 of the top 4
    ,P05,Ella Evans,rank 3 of the top 4
    ,P06,Finn Ford,rank 4 of the top 4
    ");

    // Final, P01 P02 P05 P06:
    // - P01 out: P02 10/3, P05 10/3, P06 15/4 -> P01 +35
    // - P02 out: P01 12/3, P05 8/2, P06 6/2 -> P02 +26
    // - P05 out: P01 9/2, P02 8/2, P06 9/2 -> P05 +26
    // P01 won 1, 35 - 12 - 9 = 14; P02 won 1, -10 + 26 - 8 = 8;
    // P05 won 1, -10 - 8 + 26 = 8; P06 won 0, -15 - 6 - 9 = -30.
    // P02 and P05 are equal on both keys: they share rank 2 (1, 2, 2, 4),
    // both get silver, and no bronze is given (RULES.md section 8).
    let out = event(
        "pressman",
        &["standings", "--stage", "final", "--format", "csv"],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,P01,Ann Abbott,,3,1,4.67,14,5,,
    2,P02,Ben Brooks,,3,1,2.67,8,5,,shared rank 2
    2,P05,Ella Evans,,3,1,2.67,8,5,,shared rank 2
    4,P06,Finn Ford,,3,0,-10,-30,8,,
    ");
    let out = event("pressman", &["medals", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    group,medal,rank,player,name,note
    ,Gold,1,P01,Ann Abbott,
    ,Silver,2,P02,Ben Brooks,shared
    ,Silver,2,P05,Ella Evans,shared
    ");
    event("pressman", &["medals"])
        .success()
        .stdout_has("not awarded: Bronze");
}

/// RULES.md section 7: `carry = half` carries half of the prelim points,
/// rounded up, into the final: P01 39.5 -> 19.75 -> 20, P02 10.5 -> 5.25
/// -> 6, P05 7 -> 3.5 -> 4, P06 5 -> 2.5 -> 3 (games, wins and tiles start
/// at zero). Final totals: P01 14 + 20 = 34, P02 8 + 6 = 14, P05 8 + 4 =
/// 12, P06 -30 + 3 = -27; averages over the final's 3 games. The shared
/// silver of the fresh final is gone: P02 silver, P05 bronze.
#[test]

fn pressman_final_carrying_half_the_prelim_points() {
    let out = Test::new()
        .args([
            "standings",
            "--stage",
            "final",
            "--format",
            "csv",
            "--event",
        ])
        .fixture("e2e/pressman-carry")
        .fixture("e2e/pressman/cards")
        .run()
        .success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,P01,Ann Abbott,,3,1,11.33,34,5,,
    2,P02,Ben Brooks,,3,1,4.67,14,5,,
    3,P05,Ella Evans,,3,1,4,12,5,,
    4,P06,Finn Ford,,3,0,-9,-27,8,,
    ");
}

// -------------------------------------------------------------- gwinnett

/// Prelim (gwinnett: penalty points, fewer first; a table's lowest total
/// goes on), nine tables of 3, players G(3t-2) G(3t-1) G(3t) at table t,
/// the rack values of games 1, 2, 3 (0: went out):
///
/// | table | A | B | C | totals A, B, C | goes on |
/// |---|---|---|---|---|---|
/// | 1 | 0 8 0 | 12 0 20 | 25 14 9 | 8, 32, 48 | G01 |
/// | 2 | 15 0 6 | 0 11 9 | 7 19 0 | 21, 20, 26 | G05 |
/// | 3 | 0 22 10 | 30 0 4 | 18 5 0 | 32, 34, 23 | G09 |
/// | 4 | 9 0 11 | 0 7 0 | 13 16 6 | 20, 7, 35 | G11 |
/// | 5 | 0 5 14 | 17 0 3 | 21 12 0 | 19, 20, 33 | G13 |
/// | 6 | 0 16 4 | 10 0 10 | 24 8 0 | 20, 20, 32 | G16 and G17 tie |
/// | 7 | 12 0 7 | 0 9 13 | 30 11 0 | 19, 22, 41 | G19 |
/// | 8 | 0 18 3 | 6 0 8 | 15 22 0 | 21, 14, 37 | G23 |
/// | 9 | 27 0 6 | 0 13 5 | 11 9 0 | 33, 18, 20 | G26 |
///
/// The director names G17: nine players go on, three semi tables.
#[test]
fn gwinnett_prelim_semi_final_medals() {
    event("gwinnett", &["check"])
        .success()
        .errors(0)
        .stderr_has("3 files: 13 cards accepted, 34 games; 0 errors");

    // The head of the prelim standings: G11 7, G01 8 (both went out twice),
    // G23 14, G26 18, then G13 and G19 tied on 19 and one game won each.
    let out = event("gwinnett", &["standings", "--format", "csv"]).success();
    let rows = out.csv();
    assert_eq!(
        rows[..7],
        [
            "rank,player,name,group,games,won,avg_score,total_score,tiles,status,note",
            "1,G11,Kim Smith11,,3,2,2.33,7,1,Q,",
            "2,G01,Abe Smith1,,3,2,2.67,8,2,Q,",
            "3,G23,Walt Smith23,,3,1,4.67,14,3,Q,",
            "4,G26,Zoe Smith26,,3,1,6,18,3,Q,",
            "5,G13,Max Smith13,,3,1,6.33,19,3,Q,shared rank 5",
            "5,G19,Sal Smith19,,3,1,6.33,19,3,Q,shared rank 5",
        ]
        .map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
    );
    assert_eq!(rows.len(), 28, "27 players ranked");

    let out = event(
        "gwinnett",
        &["advance", "--player", "G17", "--format", "csv"],
    )
    .success()
    .stderr_has(
        "TIE at table 6: 2 players (G16, G17) share the lowest total 20; the director named G17",
    );
    insta::assert_snapshot!(out.stdout, @r#"
    group,player,name,reason
    ,G01,Abe Smith1,lowest total at table 1 with 8
    ,G05,Eli Smith5,lowest total at table 2 with 20
    ,G09,Ida Smith9,lowest total at table 3 with 23
    ,G11,Kim Smith11,lowest total at table 4 with 7
    ,G13,Max Smith13,lowest total at table 5 with 19
    ,G17,Quin Smith17,"lowest total at table 6 with 20 (shared), named by the director to settle a tie"
    ,G19,Sal Smith19,lowest total at table 7 with 19
    ,G23,Walt Smith23,lowest total at table 8 with 14
    ,G26,Zoe Smith26,lowest total at table 9 with 18
    "#);

    // The semi cards use this draw (tables of 3: 9 players).
    let out = event(
        "gwinnett",
        &[
            "seating", "--from", "prelim", "--player", "G17", "--seed", "2024", "--format", "csv",
        ],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    session,table,seat,player,name,group
    1,1,A,G17,Quin Smith17,
    1,1,B,G11,Kim Smith11,
    1,1,C,G26,Zoe Smith26,
    1,2,A,G01,Abe Smith1,
    1,2,B,G19,Sal Smith19,
    1,2,C,G09,Ida Smith9,
    1,3,A,G13,Max Smith13,
    1,3,B,G05,Eli Smith5,
    1,3,C,G23,Walt Smith23,
    ");

    // Semi, two games, fresh standings:
    // table 1: G17 0 + 12 = 12, G11 14 + 0 = 14, G26 9 + 6 = 15 -> G17
    // table 2: G01 10 + 0 = 10, G19 0 + 8 = 8, G09 21 + 17 = 38 -> G19
    // table 3: G13 0 + 5 = 5, G05 19 + 11 = 30, G23 7 + 0 = 7 -> G13
    // G23 (7) is second in the semi standings but not its table's winner.
    let out = event(
        "gwinnett",
        &["standings", "--stage", "semi", "--format", "csv"],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,G13,Max Smith13,,2,1,2.5,5,1,Q,
    2,G23,Walt Smith23,,2,1,3.5,7,1,,
    3,G19,Sal Smith19,,2,1,4,8,2,Q,
    4,G01,Abe Smith1,,2,1,5,10,2,,
    5,G17,Quin Smith17,,2,1,6,12,2,Q,
    6,G11,Kim Smith11,,2,1,7,14,2,,
    7,G26,Zoe Smith26,,2,0,7.5,15,3,,
    8,G05,Eli Smith5,,2,0,15,30,5,,
    9,G09,Ida Smith9,,2,0,19,38,6,,
    ");
    let out = event(
        "gwinnett",
        &["advance", "--stage", "semi", "--format", "csv"],
    )
    .success()
    .stderr_lacks("DECISION");
    insta::assert_snapshot!(out.stdout, @"
    group,player,name,reason
    ,G17,Quin Smith17,lowest total at semi table 1 with 12
    ,G19,Sal Smith19,lowest total at semi table 2 with 8
    ,G13,Max Smith13,lowest total at semi table 3 with 5
    ");
    let out = event(
        "gwinnett",
        &[
            "seating", "--from", "semi", "--seed", "2024", "--format", "csv",
        ],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    session,table,seat,player,name,group
    1,1,A,G19,Sal Smith19,
    1,1,B,G17,Quin Smith17,
    1,1,C,G13,Max Smith13,
    ");

    // Final, one game: G19 went out (0), G13 9, G17 17.
    let out = event(
        "gwinnett",
        &["standings", "--stage", "final", "--format", "csv"],
    )
    .success();
    insta::assert_snapshot!(out.stdout, @"
    rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
    1,G19,Sal Smith19,,1,1,0,0,0,,
    2,G13,Max Smith13,,1,0,9,9,2,,
    3,G17,Quin Smith17,,1,0,17,17,3,,
    ");
    let out = event("gwinnett", &["medals", "--format", "csv"]).success();
    insta::assert_snapshot!(out.stdout, @"
    group,medal,rank,player,name,note
    ,Gold,1,G19,Sal Smith19,
    ,Silver,2,G13,Max Smith13,
    ,Bronze,3,G17,Quin Smith17,
    ");
}

// ------------------------------------------------- decisions (section 7)

/// Gwinnett, prelim table 6: G16 0 + 16 + 4 = 20 and G17 10 + 0 + 10 = 20
/// share the lowest total: ten players for the semi's nine seats. RULES.md
/// section 7: the tie is reported (a NOTE, exit 0) and both go on unless
/// the director names one (`--player G17` sends G17 only); naming a player
/// in no tie changes nothing and says so.
#[test]
fn gwinnett_a_tie_for_the_lowest_total_is_reported_and_settled_by_name() {
    // (the fixture's cards as files, under the profile alone: its event
    // records the director's name, G17)
    let event = |_: &str, args: &[&str]| {
        Test::new()
            .args(args)
            .args(["--profile", "gwinnett", "--roster"])
            .fixture("e2e/gwinnett/roster.csv")
            .fixture("e2e/gwinnett/cards")
            .run()
    };
    let out = event("gwinnett", &["advance", "--format", "csv"])
        .success()
        .stderr_has(
            "NOTE: TIE at table 6: 2 players (G16, G17) share the lowest total 20; all of them go on, unless the director names who goes on (--player, or in a rules file given with --rules FILE (tilerank profiles show gwinnett prints the gwinnett rules to start it from): [qualifiers] named for the first stage, [stages.NAME] named for a later one)\n",
        );
    assert_eq!(
        out.stderr.matches("TIE at table 6").count(),
        1,
        "the decision is printed once"
    );
    assert_eq!(
        out.column("player"),
        ["G01", "G05", "G09", "G11", "G13", "G16", "G17", "G19", "G23", "G26"]
    );
    assert_eq!(
        out.column("reason")[5..7],
        [
            "lowest total at table 6 with 20 (shared)",
            "lowest total at table 6 with 20 (shared)"
        ]
    );

    let out = event(
        "gwinnett",
        &["advance", "--player", "G17", "--format", "csv"],
    )
    .success()
    .stderr_has("the director named G17");
    let going = out.column("player");
    assert_eq!(going.len(), 9);
    assert!(going.contains(&"G17".to_string()) && !going.contains(&"G16".to_string()));

    event(
        "gwinnett",
        &[
            "advance", "--player", "G17", "--player", "G01", "--format", "csv",
        ],
    )
    .success()
    .stderr_has("G01 was named but is in no tie: it changes nothing");

    event("gwinnett", &["advance", "--player", "G99"])
        .failure(2)
        .stderr_has("--player \"G99\" names no single player of this event");
}

/// A player the settings name to settle a tie who settles none is a
/// warning at the setting, under every rule, said once by every command;
/// the list is as without the name (exit 0). HK's top 4: H07 is fifth, and
/// the top N takes no names (a tie at its cutoff follows cutoff_ties);
/// nobody goes on from the final, the last stage. Gwinnett: G17 settles
/// prelim table 6's tie, G01 has table 1's lowest total alone.
#[test]
fn a_named_player_who_settles_no_tie_is_a_warning_at_the_setting_under_every_rule() {
    let s = crate::test::Scratch::new("named-in-no-tie");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_e2e_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let toml = std::path::Path::new(&d).join("tilerank.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    let settings = settings.replace("top = 4\n", "top = 4\nnamed = [\"H07\"]\n")
        + "\n[stages.final]\nnamed = [\"H01\"]\n";
    std::fs::write(&toml, &settings).unwrap();
    let prelim = from.join("cards/prelim.csv").display().to_string();
    run(&["import", &prelim]).success();
    let hk = "naming H07 Ho Wing Sze changes nothing: the top 4 of the prelim standings go on, and a tie at the cutoff follows cutoff_ties, never a name";
    let last = "[stages.final] named: naming H01 Chan Tai Man changes nothing: nobody goes on from the final, the event's last stage";
    for command in ["qualifiers", "standings", "check"] {
        run(&[command])
            .success()
            .warnings(2)
            .warning_at(
                &format!("{d}/tilerank.toml:10:10"),
                &["[qualifiers] named: ", hk],
            )
            .warning_at(&format!("{d}/tilerank.toml:18:10"), &[last]);
    }
    let out = run(&["qualifiers", "--format", "csv"]).success();
    assert_eq!(out.column("player"), ["H01", "H04", "H02", "H03"]);

    // gwinnett: the name that settles a tie is not said, the other is,
    // once, at the setting (not as a NOTE of the list)
    let from = crate::test::fixtures().join("e2e/gwinnett");
    let dir = s.0.join("gwinnett");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = std::fs::read_to_string(from.join("tilerank.toml")).unwrap();
    std::fs::write(
        dir.join("tilerank.toml"),
        settings.replace("named = [\"G17\"]", "named = [\"G17\", \"G01\"]"),
    )
    .unwrap();
    let g = dir.display().to_string();
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &g]).run();
    run(&["roster", &from.join("roster.csv").display().to_string()]).success();
    run(&[
        "import",
        &from.join("cards/prelim.csv").display().to_string(),
    ])
    .success();
    let out = run(&["advance", "--format", "csv"])
        .success()
        .warnings(1)
        .warning_at(
            &format!("{g}/tilerank.toml:12:17"),
            &["[qualifiers] named: naming G01 Abe Smith1 changes nothing: they are in no tie for going on from the prelim"],
        )
        .stderr_has("the director named G17")
        .stderr_lacks("G01 was named");
    assert_eq!(out.column("player").len(), 9);
}

/// The same names given by a rules file (`--rules FILE`) are warnings at
/// that file's line, not the event's `tilerank.toml` (which it replaces for
/// the run); `--player` under the top N of a rules file is refused naming
/// that file as where `cutoff_ties` is. In an event folder and without one.
#[test]
fn a_named_warning_and_the_player_refusal_name_the_rules_file_read() {
    let s = crate::test::Scratch::new("named-rules-file");
    let from = crate::test::fixtures().join("e2e/gwinnett");
    let rules = s.write(
        "club.toml",
        "extends = \"gwinnett\"\nname = \"club\"\n\n[rules]\nstages = [\"prelim\", \"semi\", \"final\"]\n\n[qualifiers]\nnamed = [\"G17\", \"G01\"]\n\n[stages.final]\nnamed = [\"G02\"]\n",
    );
    let rules = rules.display().to_string();
    let roster = from.join("roster.csv").display().to_string();
    let prelim = from.join("cards/prelim.csv").display().to_string();
    let g01 = "[qualifiers] named: naming G01 Abe Smith1 changes nothing: they are in no tie for going on from the prelim";
    let g02 = "[stages.final] named: naming G02 Bea Smith2 changes nothing: nobody goes on from the final, the event's last stage";
    // files alone
    Test::new()
        .args([
            "advance", "--format", "csv", "--rules", &rules, "--roster", &roster, &prelim,
        ])
        .run()
        .success()
        .warnings(2)
        .warning_at(&format!("{rules}:8:17"), &[g01])
        .warning_at(&format!("{rules}:11:10"), &[g02]);
    // an event folder, its settings replaced by the rules file for the run
    let d = hk_e2e_folder(&s);
    Test::new()
        .args([
            "advance", "--format", "csv", "--rules", &rules, "--roster", &roster, &prelim,
        ])
        .args(["--event", &d])
        .run()
        .success()
        .warnings(2)
        .warning_at(&format!("{rules}:8:17"), &[g01])
        .warning_at(&format!("{rules}:11:10"), &[g02])
        .stderr_lacks("tilerank.toml");

    let top = s.write(
        "top.toml",
        "extends = \"gwinnett\"\nname = \"tops\"\n\n[qualifiers]\nrule = \"top\"\ntop = 9\n",
    );
    let top = top.display().to_string();
    for event in [&[][..], &["--event", &d][..]] {
        Test::new()
            .args(["advance", "--player", "G01", "--rules", &top, "--roster", &roster, &prelim])
            .args(event.iter().copied())
            .run()
            .failure(2)
            .stderr_has(&format!("--player \"G01\": only for a rule decided at each table: who goes on here is the top 9 of the standings (tops rules), and a tie at its cutoff follows cutoff_ties in {top} (tilerank qualifiers --cutoff-ties for one run), never a name"));
    }
}

/// A player a `named` list gives twice (their id twice, or their id and
/// their name) is one warning at their second name in the list, and what
/// is said of the name (settles no tie) is said once, at their first: the
/// list is as with the name once.
#[test]
fn a_player_named_twice_is_one_warning_at_the_setting() {
    let s = crate::test::Scratch::new("named-twice");
    let from = crate::test::fixtures().join("e2e/gwinnett");
    let rules = s.write(
        "club.toml",
        "extends = \"gwinnett\"\nname = \"club\"\n\n[rules]\nstages = [\"prelim\", \"semi\", \"final\"]\n\n[qualifiers]\nnamed = [\"G17\", \"G01\", \"G17\", \"Abe Smith1\", \"G01\"]\n\n[stages.final]\nnamed = [\"G02\", \"G02\"]\n",
    );
    let rules = rules.display().to_string();
    let out = Test::new()
        .args(["advance", "--format", "csv", "--rules", &rules, "--roster"])
        .arg(from.join("roster.csv"))
        .arg(from.join("cards/prelim.csv"))
        .run()
        .success()
        .warnings(5)
        .warning_at(
            &format!("{rules}:8:24"),
            &["[qualifiers] named: G17 Quin Smith17 is listed twice (\"G17\", \"G17\"); naming them once is enough; was another player meant?"],
        )
        .warning_at(
            &format!("{rules}:8:31"),
            &["[qualifiers] named: G01 Abe Smith1 is listed 3 times (\"G01\", \"Abe Smith1\", \"G01\"); naming them once is enough; was another player meant?"],
        )
        .warning_at(
            &format!("{rules}:8:17"),
            &["[qualifiers] named: naming G01 Abe Smith1 changes nothing: they are in no tie for going on from the prelim"],
        )
        .warning_at(
            &format!("{rules}:11:17"),
            &["[stages.final] named: G02 Bea Smith2 is listed twice (\"G02\", \"G02\"); naming them once is enough; was another player meant?"],
        )
        .warning_at(
            &format!("{rules}:11:10"),
            &["[stages.final] named: naming G02 Bea Smith2 changes nothing: nobody goes on from the final, the event's last stage"],
        )
        .stderr_has("the director named G17");
    assert_eq!(out.column("player").len(), 9);
}

/// NVSO, five qualifying tables of 3 (`five-tables.csv`, no roster, so one
/// group, `Open`). At every table: A out (B 5/2, C 10/3) -> A +15; B out
/// (A 4/1, C 6/2) -> B +10; A out (B 3/1, C 7/2) -> A +10. A 15 - 4 + 10 =
/// 21, B -5 + 10 - 3 = 2, C -10 - 6 - 7 = -23. Five table winners for four
/// championship seats: a decision for the director, nobody is cut, no
/// second is added, and nothing is seated until the director decides.
#[test]
fn nvso_more_than_four_table_winners_is_a_decision_and_nobody_is_cut() {
    let out = Test::new()
        .args(["advance", "--profile", "nvso", "--format", "csv"])
        .fixture("e2e/nvso-decisions/five-tables.csv")
        .run()
        .failure(1)
        .stderr_has(
            "DECISION (Open): 5 table winners (X01, X04, X07, X10, X13) for 4 championship seats: all are listed as going on",
        );
    assert_eq!(out.column("player"), ["X01", "X04", "X07", "X10", "X13"]);
    for (i, reason) in out.column("reason").iter().enumerate() {
        assert_eq!(reason, &format!("table winner at table {} with +21", i + 1));
    }
    Test::new()
        .args(["advance", "--profile", "nvso"])
        .fixture("e2e/nvso-decisions/five-tables.csv")
        .run()
        .failure(1)
        .stdout_has("The list is not final until the director decides");
    Test::new()
        .args([
            "seating",
            "--profile",
            "nvso",
            "--from",
            "prelim",
            "--format",
            "csv",
        ])
        .fixture("e2e/nvso-decisions/five-tables.csv")
        .run()
        .failure(1)
        .stdout_is("")
        .stderr_has("Nothing seated: who goes on is not settled");
}

// ----------------------------------------------- NVSO age groups (sec. 8)

/// `standings` of the two cards of `nvso-groups/cards.csv` under the
/// roster of `nvso-groups/DIR`: each player's group. (With 33 players
/// those two tables would mix groups, an error under nvso: the roster of
/// 33 has its own cards, `cards-33.csv`, a table per group, E09 and E33
/// filling the tables of E01-E02 and E07-E08.)
fn groups_with(dir: &str) -> BTreeMap<String, String> {
    let cards = match dir {
        "33" => "e2e/nvso-groups/cards-33.csv",
        _ => "e2e/nvso-groups/cards.csv",
    };
    let out = Test::new()
        .args(["standings", "--format", "csv", "--event"])
        .fixture(&format!("e2e/nvso-groups/{dir}"))
        .fixture(cards)
        .run()
        .success()
        .errors(0);
    out.column("player")
        .into_iter()
        .zip(out.column("group"))
        .collect()
}

/// The card players' birth dates and their ages on 2023-09-13: E01
/// 1973-09-13 (50, that day), E02 1958-09-14 (64, 65 the next day), E03
/// 1958-09-13 (65 that day), E04 1948-09-14 (74), E05 1948-09-13 (75),
/// E06 1943-09-14 (79), E07 1943-09-13 (80), E08 1933-01-01 (90). The
/// other roster entries are aged 52 to 76 and play no card here (but for
/// the 33's E09, 52, and E33, 83).
fn expect_groups(dir: &str, groups: [&str; 8]) {
    let mut found = groups_with(dir);
    found.retain(|player, _| player.as_str() <= "E08");
    let expected: BTreeMap<String, String> = (1..=8)
        .map(|i| (format!("E{i:02}"), groups[i - 1].to_string()))
        .collect();
    assert_eq!(found, expected, "roster {dir}");
}

#[test]
fn nvso_16_players_are_one_group() {
    expect_groups("16", ["Open"; 8]);
}

#[test]
fn nvso_17_players_are_two_groups_split_at_75() {
    let two = [
        "50-74", "50-74", "50-74", "50-74", "75+", "75+", "75+", "75+",
    ];
    expect_groups("17", two);
}

#[test]
fn nvso_32_players_are_still_two_groups() {
    let two = [
        "50-74", "50-74", "50-74", "50-74", "75+", "75+", "75+", "75+",
    ];
    expect_groups("32", two);
}

#[test]
fn nvso_33_players_are_three_groups_split_at_65_and_80() {
    let three = [
        "50-64", "50-64", "65-79", "65-79", "65-79", "65-79", "80+", "80+",
    ];
    expect_groups("33", three);
}

/// 17 roster entries, one disqualified: 16 players are entered, one group.
#[test]
fn nvso_a_disqualified_entry_does_not_count_for_the_groups() {
    expect_groups("17-dq", ["Open"; 8]);
}

/// 17 roster entries, one disqualified after playing a game (E08 sits at
/// a card): still 17 players, still two groups.
#[test]
fn nvso_an_entry_disqualified_after_playing_still_counts_for_the_groups() {
    let found = groups_with("17-dq-played");
    assert_eq!(found["E01"], "50-74");
    assert_eq!(found["E07"], "75+");
}

/// `--group` takes only the groups the event has: 17 players give 50-74
/// and 75+, so 50-64 is a command-line error that lists them.
#[test]
fn nvso_group_option_names_the_groups() {
    Test::new()
        .args(["advance", "--group", "50-64", "--event"])
        .fixture("e2e/nvso-groups/17")
        .fixture("e2e/nvso-groups/cards.csv")
        .run()
        .failure(2)
        .stderr_has("no group \"50-64\": the event's groups are 50-74, 75+");
}

// ------------------------------------------------------------- seating

/// The seating CSV as (table, seat, player) lines, checked: every player
/// once, seats A.. in order at each table, tables of 3 or 4.
fn seated(out: &Output) -> Vec<(String, String, String)> {
    let rows: Vec<(String, String, String)> = out
        .column("table")
        .into_iter()
        .zip(out.column("seat"))
        .zip(out.column("player"))
        .map(|((t, s), p)| (t, s, p))
        .collect();
    let players: BTreeSet<&String> = rows.iter().map(|r| &r.2).collect();
    assert_eq!(
        players.len(),
        rows.len(),
        "a player seated twice:\n{}",
        out.stdout
    );
    let mut tables: BTreeMap<&String, Vec<&String>> = BTreeMap::new();
    for (t, s, _) in &rows {
        tables.entry(t).or_default().push(s);
    }
    for (t, seats) in &tables {
        assert!(
            (3..=4).contains(&seats.len()),
            "table {t} seats {}",
            seats.len()
        );
        let letters: Vec<&str> = seats.iter().map(|s| s.as_str()).collect();
        assert_eq!(letters, ["A", "B", "C", "D"][..seats.len()], "table {t}");
    }
    rows
}

fn players_of(rows: &[(String, String, String)]) -> BTreeSet<String> {
    rows.iter().map(|r| r.2.clone()).collect()
}

/// Every active roster player (no `--from`): the same seed gives the same
/// seating, another seed another one, and each player sits once.
#[test]
fn seating_is_reproducible_from_the_seed_and_seats_each_player_once() {
    let run = |seed: &str| event("hk", &["seating", "--seed", seed, "--format", "csv"]).success();
    let first = run("7");
    let again = run("7");
    assert_eq!(
        first.stdout, again.stdout,
        "the same seed, the same seating"
    );
    let rows = seated(&first);
    let roster: BTreeSet<String> = (1..=8).map(|i| format!("H{i:02}")).collect();
    assert_eq!(players_of(&rows), roster);
    let mut differ = 0;
    for seed in ["8", "9", "2026"] {
        let other = run(seed);
        let other_rows = seated(&other);
        assert_eq!(players_of(&other_rows), roster, "seed {seed}");
        if other.stdout != first.stdout {
            differ += 1;
        }
    }
    assert_eq!(differ, 3, "every other seed seats differently");
}

/// The players going on from a stage (`--from`), former table-mates kept
/// apart when there are enough tables: the nine gwinnett table winners were
/// each at a different prelim table, so no two meet again whatever the
/// seed; each seed's seating is reproducible.
#[test]
fn seating_from_a_stage_seats_exactly_those_going_on() {
    let going: BTreeSet<String> = [
        "G01", "G05", "G09", "G11", "G13", "G17", "G19", "G23", "G26",
    ]
    .map(String::from)
    .into();
    let run = |seed: &str| {
        event(
            "gwinnett",
            &[
                "seating", "--from", "prelim", "--player", "G17", "--seed", seed, "--format", "csv",
            ],
        )
        .success()
    };
    let mut outputs = BTreeSet::new();
    for seed in ["1", "2", "3", "2024"] {
        let out = run(seed);
        assert_eq!(out.stdout, run(seed).stdout, "seed {seed} again");
        let rows = seated(&out);
        assert_eq!(players_of(&rows), going, "seed {seed}");
        assert_eq!(rows.len(), 9);
        outputs.insert(out.stdout);
    }
    assert_eq!(outputs.len(), 4, "four seeds, four seatings");
}

/// An event with age groups is seated group by group; one group at a time
/// (`--group`), each group's players only, and nobody in two groups.
#[test]
fn seating_by_group_seats_each_group_apart() {
    let group = |g: &str| {
        let out = Test::new()
            .args([
                "seating", "--seed", "17", "--format", "csv", "--group", g, "--event",
            ])
            .fixture("e2e/nvso-groups/17")
            .run()
            .success();
        assert!(out.column("group").iter().all(|x| x == g), "{}", out.stdout);
        players_of(&seated(&out))
    };
    // 17 entries: E01-E04 and the 9 others (aged 52 to 60) are 50-74;
    // E05-E08 are 75+.
    let young = group("50-74");
    let old = group("75+");
    assert_eq!(young.len(), 13);
    assert_eq!(old, ["E05", "E06", "E07", "E08"].map(String::from).into());
    assert!(young.is_disjoint(&old));
}

/// One group seated while a group numbered before it cannot be (two
/// players, no table): its tables are numbered without that group, and a
/// warning says so and why; a group numbered after it changes nothing and
/// is not said.
#[test]
fn a_groups_seating_says_which_group_before_it_is_numbered_as_if_it_had_none() {
    let s = crate::test::Scratch::new("group-not-numbered");
    let fixture = crate::test::fixtures().join("e2e/nvso-groups/17");
    let with_roster = |name: &str, older: &[&str]| {
        let dir = s.path(name);
        crate::test::copy_dir(&fixture, &dir);
        let roster = std::fs::read_to_string(dir.join("roster.csv")).unwrap();
        let roster: Vec<String> = roster
            .lines()
            .map(|line| match line.split(',').collect::<Vec<_>>()[..] {
                [id, name, _, status] if older.contains(&id) => {
                    format!("{id},{name},1940-01-01,{status}")
                }
                _ => line.to_string(),
            })
            .collect();
        std::fs::write(dir.join("roster.csv"), roster.join("\n") + "\n").unwrap();
        dir
    };
    let seating = |dir: &std::path::Path, group: &str| {
        Test::new()
            .args([
                "seating", "--seed", "17", "--format", "csv", "--group", group, "--event",
            ])
            .arg(dir)
            .run()
            .success()
    };
    // all but E01 and E02 are 75+: group 50-74 cannot be seated
    let others: Vec<String> = (3..=17).map(|i| format!("E{i:02}")).collect();
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    let dir = with_roster("young-two", &others);
    let out = seating(&dir, "75+").stderr_has(
        "warning: the tables of group 75+ are numbered as if group 50-74 had none, which cannot be seated yet (group 50-74: 2 players cannot be seated: a table seats 3 or 4 (a game of 2 is not played at these events))",
    );
    assert_eq!(out.column("table").first().map(String::as_str), Some("1"));
    // only E05 and E06 made younger: group 75+ (after 50-74) has two
    let dir = with_roster("old-two", &[]);
    let roster = std::fs::read_to_string(dir.join("roster.csv")).unwrap();
    let roster = roster
        .replace("E05,Player 05,1948-09-13", "E05,Player 05,1960-09-13")
        .replace("E06,Player 06,1943-09-14", "E06,Player 06,1960-09-14");
    std::fs::write(dir.join("roster.csv"), roster).unwrap();
    seating(&dir, "50-74").stderr_lacks("numbered as if");
}

/// One group's seating is that group's part of the whole seating, its
/// tables numbered as there (the tables its cards are played at), not
/// from 1: the nvso demo's final, group 65-79 at table 2, 80+ at 3.
#[test]
fn a_groups_seating_numbers_its_tables_as_the_whole_seating_does() {
    let seating = |group: &[&str]| {
        let out = Test::new()
            .args(["seating", "--from", "prelim", "--format", "csv", "--event"])
            .arg(crate::publish::example("nvso-2023"))
            .args(group)
            .run()
            .success()
            .stderr_lacks("not the one they were played at");
        out.stdout
            .lines()
            .skip(1)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let whole = seating(&[]);
    for (g, table) in [("50-64", "1"), ("65-79", "2"), ("80+", "3")] {
        let rows = seating(&["--group", g]);
        let part: Vec<String> = whole
            .iter()
            .filter(|r| r.contains(&format!(",{g}")))
            .cloned()
            .collect();
        assert_eq!(rows, part, "group {g}");
        assert_eq!(rows.len(), 4, "group {g}");
        assert!(
            rows.iter().all(|r| r.split(',').nth(1) == Some(table)),
            "group {g} at table {table}: {rows:?}"
        );
    }
}

/// The same, all groups at once as CSV: every player of the roster once.
#[test]
fn seating_of_all_groups_as_one_csv() {
    let out = Test::new()
        .args(["seating", "--seed", "17", "--format", "csv", "--event"])
        .fixture("e2e/nvso-groups/17")
        .run()
        .success();
    for i in 1..=17 {
        let id = format!(",E{i:02},");
        assert_eq!(out.stdout.matches(&id).count(), 1, "{id}\n{}", out.stdout);
    }
}

/// The same as JSON: every group's tables, none lost.
#[test]

fn seating_of_all_groups_as_json_keeps_every_group() {
    let out = Test::new()
        .args(["seating", "--seed", "17", "--format", "json", "--event"])
        .fixture("e2e/nvso-groups/17")
        .run()
        .success();
    for i in 1..=17 {
        let id = format!("\"E{i:02}\"");
        assert_eq!(out.stdout.matches(&id).count(), 1, "{id}\n{}", out.stdout);
    }
}

// ----------------------------------------------------------- the demos

/// The committed demo events of `examples/` (written by `cargo run
/// --example make_seed_demos`, which checks them in depth) still read clean
/// and reach their medals.
#[test]
fn the_seed_demos_read_clean_and_give_their_medals() {
    let demo = |name: &str, args: &[&str]| {
        Test::new()
            .args(args)
            .arg("--event")
            .fixture(&format!("../../examples/{name}"))
            .run()
    };
    demo("nvso-2023", &["check"])
        .success()
        .errors(0)
        .warnings(0)
        .stderr_has("12 cards accepted, 36 games; 0 errors");
    let medals = demo("nvso-2023", &["medals", "--format", "csv"]).success();
    assert_eq!(
        medals.column("medal"),
        [
            "Gold", "Silver", "Bronze", "Gold", "Silver", "Bronze", "Bronze", "Gold", "Silver",
            "Bronze"
        ]
    );
    assert_eq!(
        medals.column("group"),
        ["50-64", "50-64", "50-64", "65-79", "65-79", "65-79", "65-79", "80+", "80+", "80+"]
    );
    for group in ["50-64", "65-79", "80+"] {
        let out = demo(
            "nvso-2023",
            &["advance", "--group", group, "--format", "csv"],
        )
        .success()
        .stderr_lacks("DECISION");
        assert_eq!(out.column("player").len(), 4, "{group}");
    }

    demo("gwinnett", &["check"])
        .success()
        .errors(0)
        .warnings(0)
        .stderr_has("13 cards accepted, 34 games; 0 errors");
    // (the demo's settings record the director's name: the semi was
    // played so)
    demo("gwinnett", &["advance"]).success().stderr_has(
        "NOTE: TIE at table 6: 2 players (GW07, GW16) share the lowest total 36; the director named GW07",
    );
    demo("gwinnett", &["advance", "--player", "GW07"])
        .success()
        .stderr_has("NOTE: TIE at table 6: 2 players (GW07, GW16) share the lowest total 36; the director named GW07");
    let medals = demo("gwinnett", &["medals", "--format", "csv"]).success();
    assert_eq!(medals.column("medal"), ["Gold", "Silver", "Bronze"]);
}

// ------------------------------------- a later stage's players (section 7)

/// A copy of `from` (a folder of files) in a scratch folder.
fn copy_of(scratch: &crate::test::Scratch, from: &std::path::Path) -> std::path::PathBuf {
    let dir = scratch.0.join("event");
    crate::test::copy_dir(from, &dir);
    dir
}

/// HK, the top 4 go on (H01 to H04): a final card with H05 typed for H03
/// is an error at that card, so nobody who did not go on wins a medal.
#[test]
fn a_final_player_who_did_not_go_on_is_an_error_at_the_card() {
    let s = crate::test::Scratch::new("stranger");
    let dir = copy_of(&s, &crate::test::fixtures().join("e2e/hk"));
    let final_cards = dir.join("cards/final.csv");
    let text = std::fs::read_to_string(&final_cards).unwrap();
    std::fs::write(&final_cards, text.replace(",H03,", ",H05,")).unwrap();
    let d = dir.display().to_string();
    let out = Test::new()
        .args(["check", "--event", &d])
        .run()
        .failure(1)
        .errors(1);
    let error = &out.problems("error")[0];
    assert!(
        error.starts_with(&format!(
            "{d}/cards/final.csv:5:6: error: final session S01 table 1: H05 "
        )),
        "{error}"
    );
    assert!(
        error.contains("plays the final but did not go on from the prelim (4 went on; tilerank qualifiers --stage prelim lists them)"),
        "{error}"
    );
    for command in [&["medals"][..], &["standings", "--stage", "final"]] {
        Test::new()
            .args(command)
            .args(["--event", &d])
            .run()
            .failure(1)
            .stdout_is("")
            .stderr_has("Nothing ranked");
    }
    // the command the error names lists them: the prelim's answers do not
    // wait for the final's cards (exit 1 all the same: the data has errors)
    let out = Test::new()
        .args(["qualifiers", "--stage", "prelim", "--format", "csv", "--event", &d])
        .run()
        .failure(1)
        .errors(1)
        .stderr_has("The final's cards have 1 error (above): the final's answers wait for them; the prelim's answers below do not depend on them.");
    let ids: Vec<&str> = out
        .stdout
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(1))
        .collect();
    assert_eq!(ids, ["H01", "H04", "H02", "H03"], "{}", out.stdout);
    // the views of the whole event wait, and say what to do
    let said = "the final's cards have 1 error (above): correct the card, or leave its file out, and run again; the prelim's answers are printed meanwhile (tilerank qualifiers --stage prelim).";
    let site = s.0.join("site");
    Test::new()
        .args(["publish", "--event", &d, "-o"])
        .arg(&site)
        .run()
        .failure(1)
        .stderr_has(&format!("Nothing published: {said}"));
    assert!(!site.exists());
    Test::new()
        .args(["export", "--event", &d, "-o"])
        .arg(s.0.join("x.xlsx"))
        .run()
        .failure(1)
        .stderr_has(&format!("Nothing exported: {said}"));
}

/// An event folder (`event` in `s`) of the e2e HK fixture's settings and
/// roster, no card yet: the folder as `--event` takes it.
pub fn hk_e2e_folder(s: &crate::test::Scratch) -> String {
    let from = crate::test::fixtures().join("e2e/hk");
    let dir = s.0.join("event");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(from.join("tilerank.toml"), dir.join("tilerank.toml")).unwrap();
    let d = dir.display().to_string();
    Test::new()
        .arg("roster")
        .arg(from.join("roster.csv"))
        .args(["--event", &d])
        .run()
        .success();
    d
}

/// When errors stop the answers, what to do is what is true of where the
/// cards were read: a stored card of an event folder cannot be left out of
/// the run, it is corrected (import --replace) or taken out (remove); a
/// file given is left out, and with both, both are said. HK's final is
/// stored, then the top 3 go on: H03 on it did not.
#[test]
fn errors_of_stored_cards_say_to_correct_or_remove_them() {
    let s = crate::test::Scratch::new("fix-stored");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_e2e_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    for card in ["prelim.csv", "final.csv"] {
        run(&[
            "import",
            &from.join("cards").join(card).display().to_string(),
        ])
        .success();
    }
    let toml = std::path::Path::new(&d).join("tilerank.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, settings.replace("top = 4", "top = 3")).unwrap();
    let stored = "a stored card is corrected with tilerank import --replace FILE --reason \"...\", or taken out with tilerank remove --stage STAGE --session S --table T --reason \"...\"";
    for command in [&["medals"][..], &["standings", "--stage", "final"]] {
        run(command)
            .failure(1)
            .errors(1)
            .stderr_has(&format!(
                "Nothing ranked: fix the errors above and run again ({stored}).\n"
            ))
            .stderr_lacks("leave their files out");
    }
    // a file given beside the stored cards, with errors of its own (a
    // session the schedule does not have, its players already seated in
    // the stored session): every error is the file's, none a stored
    // card's, so the file is what to mend or leave out
    let text = std::fs::read_to_string(from.join("cards/prelim.csv")).unwrap();
    let file = s.write("S02.csv", &text.replace("prelim,S01,", "prelim,S02,"));
    run(&["medals", &file.display().to_string()])
        .failure(1)
        .stderr_has(
            "Nothing ranked: fix the errors above (or leave their files out) and run again.\n",
        );
    // files alone, as before
    let bad = s.write("bad.csv", &text.replacen(",+40,", ",forty,", 1));
    Test::new()
        .arg("standings")
        .arg(&bad)
        .run()
        .failure(1)
        .stderr_has(
            "Nothing ranked: fix the errors above (or leave their files out) and run again.\n",
        );
    // an error of the settings alone: no card to correct or take out
    std::fs::write(
        &toml,
        settings + "\n[stages.final]\nabsent = [\"NOBODY\"]\n",
    )
    .unwrap();
    run(&["medals"])
        .failure(1)
        .errors(1)
        .stderr_has("Nothing ranked: fix the errors above and run again.\n");
}

/// The e2e HK roster's text, and a copy of it written where H03 is
/// withdrawn.
fn h03_withdrawn(s: &crate::test::Scratch, from: &std::path::Path) -> (String, std::path::PathBuf) {
    let roster = std::fs::read_to_string(from.join("roster.csv")).unwrap();
    let withdrawn = s.write(
        "withdrawn.csv",
        &roster.replace(
            "H03,Lee Mei Ling,1975-01-01,F2,,",
            "H03,Lee Mei Ling,1975-01-01,F2,W,",
        ),
    );
    assert!(std::fs::read_to_string(&withdrawn)
        .unwrap()
        .contains("H03,Lee Mei Ling,1975-01-01,F2,W,"));
    (roster, withdrawn)
}

/// A roster that changes who went on to a stage whose cards are stored is
/// refused, as an import or a remove that changes it is: H03 withdrew
/// before HK's final and H07 took the seat; a roster storing H03 as
/// playing again would put H03 back on the list and H07 off it.
#[test]
fn a_roster_that_changes_who_went_on_to_a_played_stage_is_refused() {
    let s = crate::test::Scratch::new("roster-went-on");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_e2e_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let (roster, withdrawn) = h03_withdrawn(&s, &from);
    run(&["roster", &withdrawn.display().to_string()]).success();
    run(&[
        "import",
        &from.join("cards/prelim.csv").display().to_string(),
    ])
    .success();
    let final_text = std::fs::read_to_string(from.join("cards/final.csv")).unwrap();
    let final_card = s.write("final.csv", &final_text.replace(",H03,", ",H07,"));
    run(&["import", &final_card.display().to_string()]).success();
    run(&["medals"]).success();
    // the roster as it was first, H03 playing: refused, nothing stored
    let again = s.write("roster.csv", &roster);
    run(&["roster", &again.display().to_string()])
        .failure(1)
        .errors(1)
        .stderr_has(&format!(
            "{}: error: with this roster, who went on changes, and H07, who plays the final, would no longer have gone on; H03 now goes on, with no card yet: nothing stored (the later stage was played by the list before; keep the roster as it was for the players who went on)",
            again.display()
        ));
    run(&["medals"]).success();
    run(&["roster", &withdrawn.display().to_string()]).success();
}

/// A roster that puts a player on the list of a played stage, nobody
/// leaving it, is refused too: H03 withdrew before HK's final, and H03
/// and H07 tie at the top-4 cutoff (both go on, under "include"), so
/// with H03 playing again the list grows to 5 and the final would wait
/// for a card of H03 never played. Naming H03 absent from the final
/// first lets the roster in, the final standing as played.
#[test]
fn a_roster_that_adds_a_player_to_a_played_stage_is_refused() {
    let s = crate::test::Scratch::new("roster-went-on-grows");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_e2e_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let (roster, withdrawn) = h03_withdrawn(&s, &from);
    run(&["roster", &withdrawn.display().to_string()]).success();
    // game 3 of table 1 won by H07: H03 and H07 both 1 won, 8 points,
    // 5 tiles left, tied for the 4th place
    let prelim_text = std::fs::read_to_string(from.join("cards/prelim.csv")).unwrap();
    let mut prelim_tied = prelim_text.clone();
    for (was, now) in [
        ("S01,1,3,A,H01,1,+26,2", "S01,1,3,A,H01,0,-6,1"),
        ("S01,1,3,B,H03,0,-3,3", "S01,1,3,B,H03,0,-10,2"),
        ("S01,1,3,C,H05,0,-15,6", "S01,1,3,C,H05,0,-10,3"),
        ("S01,1,3,D,H07,0,-8,4", "S01,1,3,D,H07,1,+26,0"),
    ] {
        assert!(prelim_tied.contains(was), "{was}");
        prelim_tied = prelim_tied.replace(was, now);
    }
    let prelim = s.write("prelim.csv", &prelim_tied);
    run(&["import", &prelim.display().to_string()]).success();
    let final_text = std::fs::read_to_string(from.join("cards/final.csv")).unwrap();
    let final_card = s.write("final.csv", &final_text.replace(",H03,", ",H07,"));
    run(&["import", &final_card.display().to_string()]).success();
    run(&["medals"]).success();
    // the roster as it was first, H03 playing: refused, nothing stored
    let again = s.write("roster.csv", &roster);
    run(&["roster", &again.display().to_string()])
        .failure(1)
        .errors(1)
        .stderr_has(&format!(
            "{}: error: with this roster, who went on changes, and H03 would go on to the final, with no card there: nothing stored (the later stage was played by the list before; keep the roster as it was for the players who went on, or, if they went on and did not play, first add H03 to [stages.final] absent in tilerank.toml, then store this roster)",
            again.display()
        ));
    run(&["medals"]).success();
    // H03 named absent from the final: the roster goes in, the medals
    // stand, and 5 went on
    let toml = std::path::Path::new(&d).join("tilerank.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, settings + "\n[stages.final]\nabsent = [\"H03\"]\n").unwrap();
    run(&["roster", &again.display().to_string()]).success();
    run(&["medals"])
        .success()
        .stdout_has("Champion          1  H02");
    run(&["qualifiers"])
        .success()
        .stdout_has("top 4 of the prelim standings (hk rules), 5 players");
}

/// [`hk_e2e_folder`] with the prelim's and the final's cards imported.
pub fn hk_played_folder(s: &crate::test::Scratch) -> String {
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_e2e_folder(s);
    Test::new()
        .arg("import")
        .arg(from.join("cards/prelim.csv"))
        .arg(from.join("cards/final.csv"))
        .args(["--event", &d])
        .run()
        .success();
    d
}

/// An event folder takes the same card as the reading commands judge it:
/// `import` refuses the file (exit 1, the same error at the same place,
/// nothing stored), and the card as it should be goes in.
#[test]
fn import_refuses_a_final_card_with_a_player_who_did_not_go_on() {
    let s = crate::test::Scratch::new("stranger-import");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_e2e_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    // a folder whose final.csv comes before its prelim.csv: the final's
    // card is judged once the prelim is in, and refuses the whole import
    let text = std::fs::read_to_string(from.join("cards/final.csv")).unwrap();
    let folder = s.0.join("both");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("final.csv"), text.replace(",H03,", ",H05,")).unwrap();
    std::fs::copy(from.join("cards/prelim.csv"), folder.join("prelim.csv")).unwrap();
    let both = folder.display().to_string();
    run(&["import", &both])
        .failure(1)
        .errors(2)
        .stderr_has(&format!(
            "{both}/final.csv:5:6: error: final session S01 table 1: H05 "
        ))
        .stderr_has("a later stage's card above has a player who did not go on, or a table its seating does not have: nothing imported (correct the card, or import the other files without it)")
        .stderr_has("2 files: 0 imported (0 cards), 2 with errors: nothing imported from them");
    run(&["standings"])
        .failure(1)
        .stderr_has("the event has no cards yet");
    run(&[
        "import",
        &from.join("cards/prelim.csv").display().to_string(),
    ])
    .success();
    let wrong = s.write("final.csv", &text.replace(",H03,", ",H05,"));
    let wrong = wrong.display().to_string();
    let out = run(&["import", &wrong]).failure(1).errors(1);
    let error = &out.problems("error")[0];
    assert!(
        error.starts_with(&format!(
            "{wrong}:5:6: error: final session S01 table 1: H05 "
        )),
        "{error}"
    );
    assert!(
        error.contains("plays the final but did not go on from the prelim (4 went on;"),
        "{error}"
    );
    out.stderr_has(&format!("{wrong}: nothing imported (errors above)"))
        .stderr_has("1 file: 0 imported (0 cards), 1 with errors");
    run(&["standings", "--stage", "final"])
        .failure(1)
        .stderr_has("the final is still to be played (no card of it yet");
    let right = s.write("final-right.csv", &text);
    let right = right.display().to_string();
    run(&["import", &right]).success();
    run(&["medals"]).success().errors(0);
    // the top 3 go on now: H03, fourth of the prelim, is a stranger on the
    // stored final card, named by the file it was imported from and when
    // (not by the database's cell of the seat)
    let toml = std::path::Path::new(&d).join("tilerank.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, settings.replace("top = 4", "top = 3")).unwrap();
    let out = run(&["check"]).failure(1).errors(1);
    let error = &out.problems("error")[0];
    assert!(
        error.starts_with(&format!("imported from {right} on 20"))
            && error.contains(" UTC: error: final session S01 table 1: H03 "),
        "{error}"
    );
}

/// HK's prelim card corrected after the final was played from it: table
/// 1's seats B and D were swapped as first typed, so by the correction H07
/// has H03's games and goes on fourth, while H03 played the final.
fn hk_prelim_corrected(s: &crate::test::Scratch) -> std::path::PathBuf {
    let from = crate::test::fixtures().join("e2e/hk");
    let prelim = std::fs::read_to_string(from.join("cards/prelim.csv")).unwrap();
    let swapped = prelim
        .replace(",B,H03,", ",B,H0x,")
        .replace(",D,H07,", ",D,H03,")
        .replace(",B,H0x,", ",B,H07,");
    assert_ne!(swapped, prelim);
    s.write("prelim-corrected.csv", &swapped)
}

/// A prelim card corrected after the final was played from it: when the
/// correction changes who went on, a player on the stored final card no
/// longer goes on, and the import is refused (nothing stored), naming that
/// player at the stored card; the correction goes in with the final's card
/// corrected beside it, in one import.
#[test]
fn a_correction_that_changes_who_went_on_to_a_stored_final_is_refused() {
    let s = crate::test::Scratch::new("went-on-changes");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_played_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let path = |p: std::path::PathBuf| p.display().to_string();
    let corrected = path(hk_prelim_corrected(&s));
    let replace = ["import", "--replace", "--reason", "B and D swapped"];
    let out = run(&[&replace[..], &[&corrected]].concat())
        .failure(1)
        .errors(2)
        .stderr_has("/tilerank.db: error: with the cards imported, who went on to the final changes, and a player on its stored cards no longer goes on (listed); H07 now goes on, with no card yet: nothing imported. Import them with the final's cards corrected (tilerank import --replace FILE CORRECTED-FILE --reason \"...\"); or, if the final stands as played, first mark H07 withdrawn on the roster (tilerank roster FILE), so that who went on stays as it was; or leave the cards as stored")
        .stderr_has(&format!("{corrected}: nothing imported (errors above)"));
    let error = &out.problems("error")[1];
    let final_csv = from.join("cards/final.csv").display().to_string();
    assert!(
        error.starts_with(&format!("imported from {final_csv} on 20"))
            && error.contains(" UTC: error: final session S01 table 1: H03 Lee Mei Ling plays the final but did not go on from the prelim (4 went on;"),
        "{error}"
    );
    // nothing stored: H03 still went on
    let qualifiers = run(&["qualifiers", "--format", "csv"]).success().stdout;
    assert!(qualifiers.contains(",H03,"), "{qualifiers}");
    // nor is a removal of the prelim's table 1 taken: the list as it
    // stands without it would not have H01 and H03, who played the final
    run(&["remove", "--session", "S01", "--table", "1", "--reason", "retyped"])
        .failure(1)
        .stderr_has("/tilerank.db: error: session S01 table 1: without this card, who went on changes, and H01 and H03, who play the final, would no longer have gone on; H06, H08 now go on, with no card yet: nothing removed (the later stage was played by the list before). To correct the card, replace it with the later stage's cards corrected, in one tilerank import --replace");
    run(&["check"]).success().errors(0);
    // with the final's card as it should have been seated, both go in
    let text = std::fs::read_to_string(from.join("cards/final.csv")).unwrap();
    let final_card = path(s.write("final-corrected.csv", &text.replace(",H03,", ",H07,")));
    run(&[&replace[..], &[&corrected, &final_card]].concat())
        .success()
        .errors(0);
    let qualifiers = run(&["qualifiers", "--format", "csv"]).success().stdout;
    assert!(
        qualifiers.contains(",H07,") && !qualifiers.contains(",H03,"),
        "{qualifiers}"
    );
    run(&["medals"]).success().errors(0);
}

/// The advice of that refusal, followed when the final stands as played:
/// the one who now goes on (H07, by the corrected card) is marked
/// withdrawn first, the roster is taken (who went on is unchanged), and
/// the correction then goes in with the final as it was played.
#[test]
fn a_final_that_stands_as_played_takes_the_correction_once_the_next_is_withdrawn() {
    let s = crate::test::Scratch::new("went-on-stands");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_played_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let path = |p: std::path::PathBuf| p.display().to_string();
    let corrected = path(hk_prelim_corrected(&s));
    let replace = ["import", "--replace", "--reason", "B and D swapped"];
    run(&[&replace[..], &[&corrected]].concat())
        .failure(1)
        .stderr_has("first mark H07 withdrawn on the roster");
    let roster = std::fs::read_to_string(from.join("roster.csv")).unwrap();
    let marked = roster.replace(
        "H07,Ho Wing Sze,1962-12-12,,,",
        "H07,Ho Wing Sze,1962-12-12,,W,",
    );
    assert_ne!(marked, roster);
    run(&["roster", &path(s.write("roster-w.csv", &marked))]).success();
    run(&[&replace[..], &[&corrected]].concat())
        .success()
        .errors(0);
    let qualifiers = run(&["qualifiers", "--format", "csv"]).success().stdout;
    assert!(
        qualifiers.contains(",H03,") && !qualifiers.contains(",H07,"),
        "{qualifiers}"
    );
    run(&["medals"]).success().errors(0);
}

/// A finalist marked withdrawn or disqualified on the roster after the
/// final (caught cheating in it, say) is listed apart in the final, with
/// no medal; the prelim ranks them as they played, so they still went on
/// and nobody else is waited for: the final was played by that list.
#[test]
fn a_finalist_disqualified_after_the_final_is_listed_apart_in_it() {
    let s = crate::test::Scratch::new("finalist-dq");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_played_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let path = |p: std::path::PathBuf| p.display().to_string();
    let before = run(&["qualifiers", "--format", "csv"]).success().stdout;
    let medals = run(&["medals", "--format", "csv"]).success().stdout;
    assert!(medals.contains(",H02,"), "{medals}");
    // H02 won the final; H05, who did not go on, withdrew after the prelim
    let roster = std::fs::read_to_string(from.join("roster.csv")).unwrap();
    let marked = roster
        .replace(
            "H02,Chan Siu Ming,2012-06-01,F1,,",
            "H02,Chan Siu Ming,2012-06-01,F1,DQ,",
        )
        .replace(
            "H05,Wong Chi Keung,1985-07-07,F3,,",
            "H05,Wong Chi Keung,1985-07-07,F3,W,",
        );
    run(&["roster", &path(s.write("roster-dq.csv", &marked))])
        .success()
        .errors(0);
    run(&["check"]).success().errors(0);
    // the prelim's list is as it was, H02 on it
    assert_eq!(
        run(&["qualifiers", "--format", "csv"]).success().stdout,
        before
    );
    let prelim = run(&["standings", "--stage", "prelim", "--format", "csv"])
        .success()
        .stdout;
    let line = |out: &str, id: &str| {
        out.lines()
            .find(|l| l.contains(&format!(",{id},")))
            .unwrap_or_else(|| panic!("{id} not in {out}"))
            .to_string()
    };
    assert!(!line(&prelim, "H02").contains(",DQ,"), "{prelim}");
    // (a status counts in the last stage a player played: H05's the prelim)
    assert!(line(&prelim, "H05").contains(",W,"), "{prelim}");
    let final_ = run(&["standings", "--stage", "final", "--format", "csv"])
        .success()
        .stdout;
    assert!(line(&final_, "H02").contains(",DQ,"), "{final_}");
    let medals = run(&["medals", "--format", "csv"]).success().stdout;
    assert!(!medals.contains(",H02,"), "{medals}");
    for id in ["H04", "H01", "H03"] {
        assert!(medals.contains(&format!(",{id},")), "{medals}");
    }
}

/// A player found on a stored final card who no longer goes on (the
/// settings changed after the final was stored) is said at that card,
/// named by the file it was imported from, by every command, those that
/// keep only the sums too.
#[test]
fn a_stranger_on_a_stored_final_card_is_named_at_the_seat_by_every_command() {
    let s = crate::test::Scratch::new("stranger-place-sums");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_played_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let toml = std::path::Path::new(&d).join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("top = 4", "top = 3")).unwrap();
    // H03, fourth in the prelim, sits at seat D of the final's table 1:
    // the card named by the file it was imported from, and when
    let from_file = format!(
        "imported from {} on 20",
        from.join("cards/final.csv").display()
    );
    let says = " UTC: error: final session S01 table 1: H03 Lee Mei Ling plays the final but did not go on from the prelim (3 went on;";
    for command in [
        &["qualifiers"][..],
        &["standings", "--stage", "prelim"],
        &["check"],
        &["medals"],
    ] {
        let out = run(command).failure(1);
        let errors = out.problems("error");
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with(&from_file) && e.contains(says)),
            "{command:?}: {errors:?}"
        );
    }
    // the same settings over the files, no event folder: the export that
    // waits for the final's card says to mend the file, not the store
    Test::new()
        .arg("export")
        .arg(from.join("cards/prelim.csv"))
        .arg(from.join("cards/final.csv"))
        .arg("--roster")
        .arg(from.join("roster.csv"))
        .arg("--rules")
        .arg(s.write(
            "top3.toml",
            "name = \"top 3\"\nextends = \"hk\"\n[qualifiers]\ntop = 3\n",
        ))
        .arg("-o")
        .arg(s.0.join("out.xlsx"))
        .run()
        .failure(1)
        .stderr_has("the final's cards have 1 error (above): correct the card, or leave its file out, and run again;")
        .stderr_lacks("tilerank remove");
}

/// A final played while the semi has no card yet (its cards left out, or a
/// stage added by a mistyped `[stages.NAME]`): nobody can be known to have
/// gone on to the final, so its card is refused by `import` (saying no
/// card of the semi was given) and its players are errors
/// of the final for the reading commands, as a card of a semi with some
/// cards in is; the medals wait rather than crown the final's card alone.
/// So with no card of any stage before the final.
#[test]
fn a_final_played_before_any_card_of_the_semi_is_refused_and_waits() {
    let s = crate::test::Scratch::new("semi-missing");
    let from = crate::test::fixtures().join("e2e/gwinnett");
    let dir = s.0.join("event");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(from.join("tilerank.toml"), dir.join("tilerank.toml")).unwrap();
    let d = dir.display().to_string();
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let path = |p: std::path::PathBuf| p.display().to_string();
    run(&["roster", &path(from.join("roster.csv"))]).success();
    let prelim = path(from.join("cards/prelim.csv"));
    let final_ = path(from.join("cards/final.csv"));
    // the final's card alone, no card of any stage before it: the same
    run(&["import", &final_])
        .failure(1)
        .stderr_has(&format!("{final_}:2:6: error: final session S01 table 1: G19 Sal Smith19 plays the final but no card of the semi was given, so who went on from it cannot be known: give the semi's cards with the final's, or work in the event folder that holds them (--event DIR)"));
    let out = run(&["medals", &final_]).failure(1);
    assert_eq!(out.problems("error").len(), 3, "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    run(&["import", &prelim, &final_])
        .failure(1)
        .stderr_has(&format!("{final_}:2:6: error: final session S01 table 1: G19 Sal Smith19 plays the final but no card of the semi was given, so who went on from it cannot be known"))
        .stderr_has(&format!("{final_}: nothing imported (errors above)"));
    run(&["import", &prelim]).success();
    // the files given beside the event: the final's answers wait
    let out = run(&["medals", &final_]).failure(1);
    assert_eq!(out.problems("error").len(), 3, "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    // with the semi in, the final goes in and the medals are given
    run(&["import", &path(from.join("cards/semi.csv")), &final_]).success();
    run(&["medals"]).success().errors(0).stdout_has("G19");
}

/// The same under a table rule (gwinnett): the semi's table still sends
/// its disqualified winner on, and the final's medals pass them by.
#[test]
fn a_finalist_disqualified_after_a_table_rule_final_is_listed_apart_in_it() {
    let s = crate::test::Scratch::new("finalist-dq-gwinnett");
    let from = crate::test::fixtures().join("e2e/gwinnett");
    let dir = s.0.join("event");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(from.join("tilerank.toml"), dir.join("tilerank.toml")).unwrap();
    let d = dir.display().to_string();
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    let roster = std::fs::read_to_string(from.join("roster.csv")).unwrap();
    let marked: String = roster
        .lines()
        .enumerate()
        .map(|(i, l)| match i {
            0 => format!("{l},status\n"),
            _ if l.starts_with("G19,") => format!("{l},DQ\n"),
            _ => format!("{l},\n"),
        })
        .collect();
    run(&[
        "roster",
        &s.write("roster.csv", &marked).display().to_string(),
    ])
    .success();
    run(&["import", &from.join("cards").display().to_string()])
        .success()
        .errors(0);
    let semi = run(&["advance", "--stage", "semi", "--format", "csv"])
        .success()
        .stdout;
    assert!(semi.contains("G19,"), "{semi}");
    let medals = run(&["medals", "--format", "csv"]).success().stdout;
    assert!(!medals.contains("G19"), "{medals}");
    assert!(
        medals.contains(",G13,") && medals.contains(",G17,"),
        "{medals}"
    );
}

/// A final card typed in while the prelim still has cards missing is
/// judged against the list of who goes on as it stands (the list its
/// seating was printed from): a player not on it refuses the card at
/// once, saying the prelim is not complete, rather than let it in to
/// block every answer once the prelim is (a referee who typed a prelim
/// card on the final's form). With the prelim complete, the card goes in.
#[test]
fn import_judges_a_final_card_on_the_prelim_as_it_stands() {
    let s = crate::test::Scratch::new("stranger-so-far");
    let from = crate::test::fixtures().join("e2e/hk");
    let d = hk_e2e_folder(&s);
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &d]).run();
    // the prelim's table 1 only: H01, H03, H05 and H07 are its top 4
    let prelim = std::fs::read_to_string(from.join("cards/prelim.csv")).unwrap();
    let (table_1, table_2): (Vec<&str>, Vec<&str>) = prelim
        .lines()
        .skip(1)
        .partition(|l| l.starts_with("prelim,S01,1,"));
    let header = "stage,session,table,game,seat,player,won,score,tiles\n";
    let part = |name: &str, lines: &[&str]| {
        let path = s.write(name, &format!("{header}{}\n", lines.join("\n")));
        path.display().to_string()
    };
    run(&["import", &part("table-1.csv", &table_1)]).success();
    let final_card = from.join("cards/final.csv").display().to_string();
    let out = run(&["import", &final_card]).failure(1).errors(2);
    let errors = out.problems("error");
    // each at the cell that names the player (their seat's first line)
    for (error, (line, who)) in errors.iter().zip([(3, "H04"), (4, "H02")]) {
        assert!(
            error.starts_with(&format!(
                "{final_card}:{line}:6: error: final session S01 table 1: {who} "
            )),
            "{errors:?}"
        );
    }
    assert!(
        errors.iter().all(|e| e.contains(
            "plays the final but is not among those going on from the prelim as it stands (4 going on; the prelim is not complete yet, tilerank qualifiers --stage prelim --allow-incomplete lists them): correct the card, or import the missing cards first"
        )),
        "{errors:?}"
    );
    out.stderr_has(&format!("{final_card}: nothing imported (errors above)"));
    run(&["import", &part("table-2.csv", &table_2)]).success();
    run(&["import", &final_card]).success().errors(0);
    run(&["medals"]).success().errors(0);
}

/// NVSO, three age groups, each with its championship table: with one
/// final card of three in, the medals wait (exit 1) and say who has not
/// played; `--allow-incomplete` gives the one group's medals marked
/// PROVISIONAL, the other groups none yet; the site says the same.
#[test]
fn the_medals_wait_for_every_player_who_went_on_to_the_final() {
    let s = crate::test::Scratch::new("final-waits");
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = copy_of(&s, &examples.join("nvso-2023"));
    for t in ["final-S01-T02.csv", "final-S01-T03.csv"] {
        std::fs::remove_file(dir.join("cards").join(t)).unwrap();
    }
    let d = dir.display().to_string();
    let waiting = "final: 8 of the 12 players who went on from the prelim have no card yet: NV10, NV15, NV20, NV26, NV28, NV34, NV35, NV36";
    // (the award waits the same way, by the same function: nvso gives none)
    for command in ["medals", "export"] {
        let mut args = vec![command, "--event", &d];
        if command == "export" {
            args.extend(["-o", "x.xlsx"]);
        }
        Test::new()
            .args(&args)
            .run()
            .failure(1)
            .stdout_is("")
            .stderr_has(waiting);
    }
    Test::new()
        .args(["medals", "--allow-incomplete", "--event", &d])
        .run()
        .success()
        .stdout_has("Medals (nvso rules) (PROVISIONAL: 8 players of the final still to play)")
        .stdout_has("NV01  Martin Nelson")
        .stdout_has("Group 65-79: no medal yet: no one is ranked in the final yet");
    Test::new()
        .args(["standings", "--stage", "final", "--event", &d])
        .run()
        .success()
        .stdout_has("(PROVISIONAL: 8 players of the final still to play)");
    // the prelim is complete: its standings are not provisional
    Test::new()
        .args(["standings", "--event", &d])
        .run()
        .success()
        .stdout_lacks("PROVISIONAL");
    let site = s.0.join("site");
    Test::new()
        .args(["publish", "--event", &d, "-o"])
        .arg(&site)
        .run()
        .success();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("Results so far: 8 players of the final still to come"),
        "{index}"
    );
    assert!(!index.contains("The final has been played"), "{index}");
    assert!(index.contains("8 players of the final: NV10 NV15 NV20 NV26 NV28 NV34 NV35 NV36"));
    // in Chinese, with the full-width colon
    let site = s.0.join("site-zh");
    Test::new()
        .args(["publish", "--lang", "zh-Hant", "--event", &d, "-o"])
        .arg(&site)
        .run()
        .success();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("8 名決賽選手：NV10 NV15 NV20 NV26 NV28 NV34 NV35 NV36"),
        "{index}"
    );
}
