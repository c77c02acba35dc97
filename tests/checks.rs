//! RULES.md section 5, `hk`: one failing card per check, each error with
//! its exact place and the key words of its message; then that every error
//! of a run is listed at once and that nothing from a bad card counts.
//!
//! The results-layout fixtures in `bad/` are `good/went-out.csv` with one
//! thing changed (columns: 1 session, 2 table, 3 game, 4 seat, 5 player,
//! 6 won, 7 score, 8 tiles; line 1 is the header, game 1 is lines 2-5, game
//! 2 lines 6-9, game 3 lines 10-13). The score-card fixtures in `scorecard/`
//! are `scorecard/good.csv` with one thing changed (row 6 Name, 7 the
//! sub-header, 8-10 games 1-3, 11 Total; seat A in columns 2-4, B 5-7,
//! C 8-10, D 11-13).

use crate::test::{fixtures, Output, Test};

/// `tilerank check FIXTURE --roster roster.csv`, expected to fail with
/// exit status 1.
fn check(fixture: &str) -> Output {
    Test::new()
        .arg("check")
        .fixture(fixture)
        .roster()
        .run()
        .failure(1)
}

#[test]
fn the_base_cards_are_valid() {
    for fixture in ["good/went-out.csv", "scorecard/good.csv"] {
        Test::new()
            .arg("check")
            .fixture(fixture)
            .roster()
            .run()
            .success()
            .errors(0)
            .stderr_has("1 card accepted, 3 games; 0 errors");
    }
}

mod check_1_seats_and_players {
    use super::*;

    #[test]
    fn two_seats_at_a_table() {
        check("bad/check1-two-seats.csv")
            .error_at(
                "bad/check1-two-seats.csv:2",
                &[
                    "session S01 table 7",
                    "2 players seated (A and B)",
                    "3 or 4",
                ],
            )
            .error_at(
                "bad/check1-two-seats.csv:2",
                &["game 1", "2 players played", "3 or 4"],
            )
            .stderr_has("0 cards accepted, 0 games, 1 rejected");
    }

    #[test]
    fn two_seats_on_a_score_card() {
        // The Total line is right for the games written: no error of its own.
        check("scorecard/check1-two-seats.csv")
            .error_at(
                "scorecard/check1-two-seats.csv",
                &["session S01 table 7", "2 players seated (A and B)"],
            )
            .error_at(
                "scorecard/check1-two-seats.csv:8",
                &["game 1", "2 players played"],
            )
            .error_at(
                "scorecard/check1-two-seats.csv:10",
                &["game 3", "2 players played"],
            )
            .errors(4)
            .stderr_lacks("but the games add up");
    }

    #[test]
    fn the_same_player_at_two_seats() {
        check("bad/check1-same-player-twice.csv")
            .errors(1)
            .error_at(
                "bad/check1-same-player-twice.csv:3:5",
                &["P0001 (Chan Tai Man)", "seat A and at seat B"],
            );
    }

    #[test]
    fn the_same_player_at_two_seats_of_a_score_card() {
        // "chan  tai man" is P0001's name: case and spacing are ignored.
        check("scorecard/check1-same-player.csv")
            .errors(1)
            .error_at(
                "scorecard/check1-same-player.csv:6:5",
                &["P0001 (Chan Tai Man)", "seat A and at seat B"],
            );
    }

    #[test]
    fn an_unknown_player_with_a_roster() {
        check("bad/check1-unknown-player.csv").errors(1).error_at(
            "bad/check1-unknown-player.csv:4:5",
            &["\"P0099\"", "not on the roster"],
        );
    }

    #[test]
    fn a_blank_player_is_the_one_error_of_its_line() {
        // (its values still count in the game's sums: no sum is wrong)
        check("bad/check1-blank-player.csv")
            .errors(2)
            .error_at(
                "bad/check1-blank-player.csv:3:5",
                &["player is blank", "roster id or name"],
            )
            .error_at("bad/check1-blank-player.csv:7:5", &["player is blank"])
            .stderr_lacks("add up to")
            .stderr_has("0 cards accepted, 0 games, 1 rejected");
        // without a roster, no blank player is learned
        Test::new()
            .arg("check")
            .fixture("bad/check1-blank-player.csv")
            .run()
            .failure(1)
            .errors(2);
    }

    #[test]
    fn a_note_below_the_cards_is_one_error_at_its_cell() {
        // (a line of one value: not a blank table, game, seat and player)
        let good = std::fs::read_to_string(fixtures().join("good/hk-examples.csv")).unwrap();
        Test::new()
            .arg("check")
            .arg("-")
            .roster()
            .stdin(format!("{good}\nTyped by Ann 28/3\n"))
            .run()
            .failure(1)
            .errors(1)
            .error_at(
                "<stdin>:15:1",
                &[
                    "a line with one value only, \"Typed by Ann 28/3\"",
                    "a note? keep notes apart from the card lines",
                ],
            )
            .stderr_has("1 card accepted, 3 games; 1 error");
    }

    #[test]
    fn a_line_of_unreadable_seat_or_game_is_the_one_error_of_its_game() {
        // Game 1 without B's line and game 2 without C's would add up to
        // +5 and +12: that follows from the line not read, and is not said.
        check("bad/blank-seat-and-game.csv")
            .errors(2)
            .error_at(
                "bad/blank-seat-and-game.csv:3:4",
                &["seat is blank", "expected A, B, C or D"],
            )
            .error_at(
                "bad/blank-seat-and-game.csv:8:3",
                &["game is \"x\"", "expected a game number"],
            )
            .stderr_lacks("add up to")
            .stderr_lacks("played")
            .stderr_has("0 cards accepted, 0 games, 1 rejected");
    }

    #[test]
    fn a_line_of_blank_session_is_the_one_error_of_the_game_it_is_lost_from() {
        // Line 4 (seat C of game 1) has no session: its table and game are
        // those of the card above it, so game 1 is a line short, and its
        // sum (-7) and A's score for going out follow from that. Games 2
        // and 3 are missing whatever line 4 says: that is still said.
        Test::new()
            .arg("check")
            .fixture("bad/lost-line-blank-session.csv")
            .run()
            .failure(1)
            .errors(2)
            .error_at(
                "bad/lost-line-blank-session.csv:4:1",
                &["session is blank", "expected a session such as S01 or 1"],
            )
            .error_at(
                "bad/lost-line-blank-session.csv:2",
                &["session S01 table 1", "game 2, 3 missing"],
            )
            .stderr_lacks("add up to")
            .stderr_lacks("went out")
            .stderr_has("0 cards accepted, 0 games, 1 rejected");
    }

    #[test]
    fn a_line_of_blank_session_and_game_may_be_any_games_and_no_sum_is_said() {
        // Line 4 could be a line of any game of session S01 table 7: no
        // game's sum is said (game 1's +10, game 3's -1), but a cell wrong
        // in itself is (6:6 won 2).
        check("bad/lost-line-blank-session-and-game.csv")
            .errors(3)
            .error_at(
                "bad/lost-line-blank-session-and-game.csv:4:1",
                &["session is blank"],
            )
            .error_at(
                "bad/lost-line-blank-session-and-game.csv:4:3",
                &["game is blank", "expected a game number"],
            )
            .error_at(
                "bad/lost-line-blank-session-and-game.csv:6:6",
                &["game won is 2", "expected 1 or 0"],
            )
            .stderr_lacks("add up to")
            .stderr_lacks("missing")
            .stderr_has("0 cards accepted, 0 games, 1 rejected");
    }

    #[test]
    fn a_line_of_blank_session_that_is_not_the_cards_above_is_no_cards() {
        // Line 4 names table 8, or a game 4 the hk rules do not play: it is
        // not the card above it, and is put on none. That card's game 1 is
        // then a line short, as it is: seat C's line is said left out.
        for fixture in ["bad/lost-line-other-table.csv", "bad/lost-line-game-4.csv"] {
            check(fixture)
                .errors(2)
                .error_at(&format!("{fixture}:4:1"), &["session is blank"])
                .error_at(
                    &format!("{fixture}:2"),
                    &["game 1 has no line for seat C (P0003), who plays games 2 and 3 of this card, and its other scores add up to +10, not 0"],
                )
                .stderr_lacks("expected 0")
                .stderr_has("0 cards accepted, 0 games, 1 rejected");
        }
    }

    #[test]
    fn what_is_below_a_score_cards_signature_line_is_said_not_read() {
        for (fixture, row, words) in [
            (
                "scorecard/second-card-below.csv",
                "scorecard/second-card-below.csv:16",
                &[
                    "a second score card starts here",
                    "not read",
                    "one card per sheet",
                ][..],
            ),
            (
                "scorecard/game-below-signature.csv",
                "scorecard/game-below-signature.csv:13",
                &["game 4 is below the signature line", "not read"][..],
            ),
        ] {
            Test::new()
                .arg("check")
                .fixture(fixture)
                .roster()
                .run()
                .success()
                .errors(0)
                .warnings(1)
                .warning_at(row, words)
                .stderr_has("1 card accepted, 3 games");
        }
    }

    #[test]
    fn an_unknown_name_on_a_score_card() {
        check("scorecard/check1-unknown-player.csv")
            .errors(1)
            .error_at(
                "scorecard/check1-unknown-player.csv:6:11",
                &["\"Nobody Here\"", "not on the roster"],
            );
    }

    #[test]
    fn an_ambiguous_roster_name() {
        check("bad/check1-ambiguous-name.csv").errors(1).error_at(
            "bad/check1-ambiguous-name.csv:4:5",
            &[
                "\"wong  ka yan\"",
                "matches 2 roster entries (P0003, P0009)",
                "write the id",
            ],
        );
    }

    #[test]
    fn the_same_player_at_two_tables_in_one_session() {
        check("bad/check1-player-at-two-tables.csv")
            .errors(1)
            .error_at(
                "bad/check1-player-at-two-tables.csv:14:5",
                &[
                    "P0001 (Chan Tai Man)",
                    "table 8 and at table 7",
                    "(bad/check1-player-at-two-tables.csv:2:5)",
                    "session S01",
                ],
            )
            // both cards: the tool cannot tell which one is right
            .stderr_has("0 cards accepted, 0 games, 2 rejected");
    }

    #[test]
    fn a_table_twice_in_a_session() {
        check("bad/check1-table-twice")
            .errors(1)
            .error_at(
                "bad/check1-table-twice/b.csv:2",
                &[
                    "session S01 table 7 is given twice",
                    "also at bad/check1-table-twice/a.csv:2",
                ],
            )
            .stderr_has("2 files: 0 cards accepted, 0 games, 2 rejected");
    }

    /// Seat C of `good/went-out.csv` named `first` in game 1 and `then`
    /// in games 2 and 3, written in a scratch folder as `seat-c.csv`.
    fn seat_c_named(s: &crate::test::Scratch, first: &str, then: &str) -> String {
        let text = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
        let text = text.replacen("P0003", first, 1).replace("P0003", then);
        s.write("seat-c.csv", &text).display().to_string()
    }

    /// A seat written by its id in one game and by its name in another is
    /// one player when the roster says so (as `compare` and `import` take
    /// them): the card counts, read from a file (streamed) or from
    /// standard input (read whole) alike.
    #[test]
    fn an_id_in_one_game_and_the_name_in_another_are_one_player_by_the_roster() {
        let s = crate::test::Scratch::new("id-then-name");
        let card = seat_c_named(&s, "P0005", "陳大文");
        let text = std::fs::read_to_string(&card).unwrap();
        for input in [card.as_str(), "-"] {
            let out = Test::new()
                .args(["standings", input, "--format", "csv"])
                .roster()
                .stdin(text.clone())
                .run()
                .success()
                .errors(0);
            let players = out.column("player");
            assert!(players.contains(&"P0005".to_string()), "{players:?}");
            assert!(!players.contains(&"陳大文".to_string()), "{players:?}");
            let games = out.column("games");
            let at = players.iter().position(|p| p == "P0005").unwrap();
            assert_eq!(games[at], "3");
        }
    }

    /// Without a roster an id and a name are two players; with one that
    /// names two players, they are two: either way the seat changes its
    /// player, an error at the line that names another player than most
    /// of the seat's lines (here the first), naming those lines.
    #[test]
    fn a_seat_that_changes_its_player_is_an_error() {
        let s = crate::test::Scratch::new("seat-changes");
        let card = seat_c_named(&s, "P0005", "陳大文");
        let out = Test::new()
            .args(["check", &card])
            .run()
            .failure(1)
            .errors(1)
            .stderr_has("0 cards accepted");
        assert_eq!(
            out.problems("error"),
            [format!("{card}:4:5: error: seat C is \"P0005\" here but \"陳大文\" at {card}:8:5 and {card}:12:5; a seat keeps its player for the whole card")]
        );
        let card = seat_c_named(&s, "P0005", "李小明");
        let out = Test::new()
            .args(["check", &card])
            .roster()
            .run()
            .failure(1)
            .errors(1);
        assert_eq!(
            out.problems("error"),
            [format!("{card}:4:5: error: seat C is \"P0005\" here but \"李小明\" at {card}:8:5 and {card}:12:5; a seat keeps its player for the whole card")]
        );
    }

    /// `good/went-out.csv` with seat C's player typed `players[g]` in game
    /// `g + 1`, written in a scratch folder.
    fn seat_c_by_game(s: &crate::test::Scratch, players: [&str; 3]) -> String {
        let text = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
        let mut game = 0;
        let text: String = text
            .lines()
            .map(|l| match l.contains(",C,P0003,") {
                true => {
                    game += 1;
                    format!("{}\n", l.replace("P0003", players[game - 1]))
                }
                false => format!("{l}\n"),
            })
            .collect();
        s.write("seat-c-games.csv", &text).display().to_string()
    }

    /// One line of a seat mistyped is the error, whichever game it is in:
    /// the player most of the seat's lines give is the seat's, and the
    /// lines typed right are named, not blamed (before, the seat's first
    /// line was taken as right, and a mistyped first line blamed the
    /// others); read from a file (streamed) or from standard input (read
    /// whole) alike.
    #[test]
    fn the_line_that_differs_from_most_of_its_seat_is_the_error() {
        let s = crate::test::Scratch::new("seat-most");
        for (players, wrong, right) in [
            (["P0007", "P0003", "P0003"], 4, [8, 12]),
            (["P0003", "P0007", "P0003"], 8, [4, 12]),
            (["P0003", "P0003", "P0007"], 12, [4, 8]),
        ] {
            let card = seat_c_by_game(&s, players);
            let said = |file: &str| {
                format!(
                    "{file}:{wrong}:5: error: seat C is \"P0007\" here but \"P0003\" at {file}:{}:5 and {file}:{}:5; a seat keeps its player for the whole card",
                    right[0], right[1]
                )
            };
            let out = Test::new()
                .args(["check", &card])
                .roster()
                .run()
                .failure(1)
                .errors(1);
            assert_eq!(out.problems("error"), [said(&card)]);
            let text = std::fs::read_to_string(&card).unwrap();
            let out = Test::new()
                .args(["check", "-"])
                .roster()
                .stdin(text)
                .run()
                .failure(1)
                .errors(1);
            assert_eq!(out.problems("error"), [said("<stdin>")]);
        }
    }

    /// No player given by the most lines (each of three lines another):
    /// the one on the roster, when only one is; else the first line's. A
    /// player not on the roster is not the seat's, however many lines.
    #[test]
    fn a_seat_of_as_many_lines_for_each_player_keeps_the_roster_s_or_the_first() {
        let s = crate::test::Scratch::new("seat-tie");
        // the card with seat C's three lines naming `players`, and its errors
        let errors = |players| {
            let card = seat_c_by_game(&s, players);
            let out = Test::new()
                .args(["check", &card])
                .roster()
                .run()
                .failure(1)
                .errors(2);
            let said: Vec<String> = out
                .problems("error")
                .iter()
                .map(|l| l.to_string())
                .collect();
            (card, said)
        };
        let (card, said) = errors(["P0007", "P0008", "P0003"]);
        assert_eq!(
            said,
            [
                format!("{card}:8:5: error: seat C is \"P0008\" here but \"P0007\" at {card}:4:5; a seat keeps its player for the whole card"),
                format!("{card}:12:5: error: seat C is \"P0003\" here but \"P0007\" at {card}:4:5; a seat keeps its player for the whole card"),
            ]
        );
        let (card, said) = errors(["P0070", "P0003", "P0080"]);
        assert_eq!(
            said,
            [
                format!("{card}:4:5: error: player \"P0070\" is not on the roster: expected a roster id or name; did you mean P0007 (黃志強) or P0010 (Lam Chi Keung)?"),
                format!("{card}:12:5: error: seat C is \"P0080\" here but \"P0003\" at {card}:8:5; a seat keeps its player for the whole card"),
            ]
        );
        // (a player not on the roster is not the seat's, on any count)
        let (card, said) = errors(["P0003", "P0030", "P0030"]);
        assert_eq!(
            said,
            [
                format!("{card}:8:5: error: seat C is \"P0030\" here but \"P0003\" at {card}:4:5; a seat keeps its player for the whole card"),
                format!("{card}:12:5: error: seat C is \"P0030\" here but \"P0003\" at {card}:4:5; a seat keeps its player for the whole card"),
            ]
        );
    }

    /// `good/went-out.csv` (table 7: P0001 to P0004) with `more` lines
    /// after its own, written in a scratch folder as `name`.
    fn went_out_and(s: &crate::test::Scratch, name: &str, more: &[String]) -> String {
        let mut text = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
        for line in more {
            text.push_str(line);
            text.push('\n');
        }
        s.write(name, &text).display().to_string()
    }

    /// The twelve lines of `good/went-out.csv` (table 7's three games).
    fn table_7_lines() -> Vec<String> {
        let text = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
        text.lines().skip(1).map(str::to_string).collect()
    }

    /// A table's lines pasted twice (one slip): one error for the run of
    /// lines given again, naming both runs, not one per line; read from
    /// a file (streamed) or from standard input (read whole) alike.
    #[test]
    fn a_table_pasted_twice_is_one_error() {
        let s = crate::test::Scratch::new("pasted-twice");
        let card = went_out_and(&s, "twice.csv", &table_7_lines());
        let out = Test::new()
            .args(["check", &card])
            .roster()
            .run()
            .failure(1)
            .errors(1)
            .stderr_has("0 cards accepted, 0 games, 1 rejected");
        assert_eq!(
            out.problems("error"),
            [format!(
                "{card}:14: error: session S01 table 7: lines 14-25 give again the games and seats of lines 2-13 (a table pasted twice, or typed under another table's number?); expected one line per seat per game"
            )]
        );
        let text = std::fs::read_to_string(&card).unwrap();
        Test::new()
            .args(["check", "-"])
            .roster()
            .stdin(text)
            .run()
            .failure(1)
            .errors(1)
            .stderr_has(":14: error: session S01 table 7: lines 14-25 give again the games and seats of lines 2-13 (");
    }

    /// A line with its values typed and only its session of the card's
    /// head: each blank column of the head is said, as for any line, not
    /// that it is a note of one value, by every reader of the file (split
    /// where it lies, from standard input, or by the CSV reader when a
    /// quote is in the file). The fuzz target `stream_results` found the
    /// CSV reader's lines read blank once their values were taken.
    #[test]
    fn a_line_of_values_with_no_head_is_said_alike_by_every_reader() {
        let fixture = "bad/line-values-without-head.csv";
        let expected: Vec<String> = [
            "14:2: error: table is blank; expected a table number such as 7",
            "14:3: error: game is blank; expected a game number 1, 2, 3...",
            "14:4: error: seat is blank; expected A, B, C or D",
            "14:5: error: player is blank; expected a roster id or name",
        ]
        .iter()
        .map(|e| format!(":{e}"))
        .collect();
        let said = |out: &crate::test::Output| -> Vec<String> {
            out.problems("error")
                .iter()
                .map(|l| l[l.find(':').unwrap()..].to_string())
                .collect()
        };
        let out = Test::new().arg("check").fixture(fixture).run().failure(1);
        assert_eq!(said(&out), expected);
        let text = std::fs::read_to_string(fixtures().join(fixture)).unwrap();
        let out = Test::new()
            .args(["check", "-"])
            .stdin(text.clone())
            .run()
            .failure(1);
        assert_eq!(said(&out), expected);
        let s = crate::test::Scratch::new("values-no-head");
        let quoted = s.write("quoted.csv", &text.replace("S01,,,,,", "\"S01\",,,,,"));
        let out = Test::new()
            .args(["check", &quoted.display().to_string()])
            .run()
            .failure(1)
            .stderr_lacks("one value only");
        assert_eq!(said(&out), expected);
    }

    /// Another table's lines typed under this table's number: one error
    /// for the run, and not a "keeps its player" error at each of its
    /// lines for the players it names.
    #[test]
    fn a_table_typed_under_another_tables_number_is_one_error() {
        let s = crate::test::Scratch::new("under-another");
        let table_8: Vec<String> = table_7_lines()
            .iter()
            .map(|l| {
                l.replace("P0001", "P0005")
                    .replace("P0002", "P0006")
                    .replace("P0003", "P0007")
                    .replace("P0004", "P0008")
            })
            .collect();
        let card = went_out_and(&s, "under-7.csv", &table_8);
        let out = Test::new()
            .args(["check", &card])
            .roster()
            .run()
            .failure(1)
            .errors(1)
            .stderr_lacks("keeps its player");
        assert_eq!(
            out.problems("error"),
            [format!(
                "{card}:14: error: session S01 table 7: lines 14-25 give again the games and seats of lines 2-13 (a table pasted twice, or typed under another table's number?); expected one line per seat per game"
            )]
        );
    }

    /// One line given again (not a run of them) is said as it is, and the
    /// other player it names as well.
    #[test]
    fn one_line_given_twice_is_said_at_the_line() {
        let s = crate::test::Scratch::new("line-twice");
        let card = went_out_and(&s, "line-twice.csv", &["S01,7,1,D,P0008,0,-15,4".into()]);
        let out = Test::new()
            .args(["check", &card])
            .roster()
            .run()
            .failure(1)
            .errors(2);
        assert_eq!(
            out.problems("error"),
            [
                format!("{card}:14: error: seat D of game 1 is given twice (first at {card}:5); expected one line per seat per game"),
                format!("{card}:14:5: error: seat D is \"P0008\" here but \"P0004\" at {card}:5:5, {card}:9:5 and {card}:13:5; a seat keeps its player for the whole card"),
            ]
        );
    }

    /// A file may list the cards' games one after another (every table's
    /// game 1, then every table's game 2): its cards are read whole, no
    /// line said. A table pasted again after them is one error, naming
    /// the lines it repeats where they are.
    #[test]
    fn a_file_of_every_tables_game_1_then_game_2_is_read_whole() {
        let s = crate::test::Scratch::new("game-major");
        let table_7 = table_7_lines();
        let table_8: Vec<String> = table_7
            .iter()
            .map(|l| {
                l.replace("S01,7,", "S01,8,")
                    .replace("P0001", "P0005")
                    .replace("P0002", "P0006")
                    .replace("P0003", "P0007")
                    .replace("P0004", "P0008")
            })
            .collect();
        let mut text = String::from("session,table,game,seat,player,won,score,tiles\n");
        for game in 0..3 {
            for line in table_7[4 * game..4 * game + 4]
                .iter()
                .chain(&table_8[4 * game..4 * game + 4])
            {
                text.push_str(line);
                text.push('\n');
            }
        }
        let file = s.write("by-game.csv", &text).display().to_string();
        Test::new()
            .args(["check", &file])
            .roster()
            .run()
            .success()
            .errors(0)
            .stderr_has("2 cards accepted, 6 games");
        for line in &table_7 {
            text.push_str(line);
            text.push('\n');
        }
        let file = s.write("by-game-again.csv", &text).display().to_string();
        let out = Test::new()
            .args(["check", &file])
            .roster()
            .run()
            .failure(1)
            .errors(1);
        assert_eq!(
            out.problems("error"),
            [format!(
                "{file}:26: error: session S01 table 7: lines 26-37 give again the games and seats of lines 2-5, 10-13 and 18-21 (a table pasted twice, or typed under another table's number?); expected one line per seat per game"
            )]
        );
    }

    /// A name that matches several roster entries on one line of a seat,
    /// and one of them by its id on the seat's other lines (either way
    /// round): the id says who sits there, and the card counts for that
    /// player, nothing said.
    #[test]
    fn an_ambiguous_name_is_the_player_the_seats_id_names() {
        let s = crate::test::Scratch::new("ambiguous-id");
        for (first, then, player) in [
            ("Wong Ka Yan", "P0003", "P0003"),
            ("Wong Ka Yan", "P0009", "P0009"),
            ("P0009", "Wong Ka Yan", "P0009"),
        ] {
            let card = seat_c_named(&s, first, then);
            let out = Test::new()
                .args(["standings", &card, "--format", "csv"])
                .roster()
                .run()
                .success()
                .errors(0);
            let players = out.column("player");
            let at = players.iter().position(|p| p == player);
            let at = at.unwrap_or_else(|| panic!("{first}, {then}: {players:?}"));
            assert_eq!(out.column("games")[at], "3", "{first}, {then}");
        }
    }

    /// The seat's other lines name a player who is none of the name's
    /// entries: one error, at the name, not one a line.
    #[test]
    fn an_ambiguous_name_and_an_id_of_none_of_its_entries_is_one_error() {
        let s = crate::test::Scratch::new("ambiguous-other");
        let card = seat_c_named(&s, "Wong Ka Yan", "P0005");
        let out = Test::new()
            .args(["check", &card])
            .roster()
            .run()
            .failure(1)
            .errors(1);
        assert_eq!(
            out.problems("error"),
            [format!(
                "{card}:4:5: error: player name \"Wong Ka Yan\" matches 2 roster entries (P0003, P0009), but seat C's other lines give \"P0005\" (陳大文, at {card}:8:5), who is not one of them; a seat keeps its player for the whole card"
            )]
        );
        // the id first, the name on the lines after it
        let card = seat_c_named(&s, "P0005", "Wong Ka Yan");
        let out = Test::new()
            .args(["check", &card])
            .roster()
            .run()
            .failure(1)
            .errors(1);
        assert_eq!(
            out.problems("error"),
            [format!(
                "{card}:8:5: error: player name \"Wong Ka Yan\" matches 2 roster entries (P0003, P0009), but seat C's other lines give \"P0005\" (陳大文, at {card}:4:5), who is not one of them; a seat keeps its player for the whole card"
            )]
        );
    }

    #[test]
    fn a_table_twice_as_two_score_cards() {
        Test::new()
            .arg("check")
            .fixture("scorecard/good.csv")
            .fixture("scorecard/check6-total-wrong.csv")
            .fixture("scorecard/withdrawn.csv")
            .roster()
            .run()
            .failure(1)
            // each card named at the cell of its table number
            .error_at(
                "scorecard/withdrawn.csv:5:2",
                &[
                    "session S01 table 7 is given twice",
                    "also at scorecard/good.csv:5:2",
                ],
            )
            // a card with errors of its own is said twice too, at once
            // (not only once its own errors are mended)
            .error_at(
                "scorecard/check6-total-wrong.csv:5:2",
                &[
                    "session S01 table 7 is given twice",
                    "also at scorecard/good.csv:5:2",
                ],
            )
            .error_at("scorecard/check6-total-wrong.csv:11:3", &["Total score"])
            .errors(3);
    }
}

mod check_2_values {
    use super::*;

    /// `good/went-out.csv` with its numbers typed full-width, as a Chinese
    /// keyboard or a phone types them: a won `１`, scores `－１０`,
    /// `＋１１`, `１１．０`, tiles `３`.
    fn went_out_full_width() -> String {
        let text = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
        let wide = |t: &str| -> String {
            t.chars()
                .map(|c| match c {
                    '0'..='9' => char::from_u32(0xFF10 + (c as u32 - '0' as u32)).unwrap(),
                    '+' => '\u{FF0B}',
                    '-' => '\u{FF0D}',
                    '.' => '\u{FF0E}',
                    c => c,
                })
                .collect()
        };
        let mut lines: Vec<String> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
            if i > 0 {
                let game3 = f[2] == "3";
                for v in &mut f[5..8] {
                    // game 3's +11 as 11.0 (a full-width point)
                    let plain = if v == "+11" && game3 {
                        "11.0".to_string()
                    } else {
                        v.clone()
                    };
                    *v = wide(&plain);
                }
            }
            lines.push(f.join(","));
        }
        let wide_text = lines.join("\n") + "\n";
        assert!(wide_text.contains("\u{FF0D}\u{FF11}\u{FF10}"));
        assert!(wide_text.contains("\u{FF11}\u{FF11}\u{FF0E}\u{FF10}"));
        wide_text
    }

    /// Full-width digits, signs and point read as the plain ones, in a
    /// CSV file (streamed), from standard input (read whole), in a
    /// workbook's text cells, and from an event's store: the same
    /// standings as the card typed plainly.
    #[test]
    fn full_width_digits_signs_and_point_read_as_numbers() {
        let s = crate::test::Scratch::new("full-width");
        let text = went_out_full_width();
        let csv = s.write("wide.csv", &text);
        let standings = |args: &[&str], stdin: &str| {
            Test::new()
                .args(["standings", "--format", "csv"])
                .args(args)
                .roster()
                .stdin(stdin.to_string())
                .run()
                .success()
                .errors(0)
                .stdout
        };
        let plain = standings(&["good/went-out.csv"], "");
        assert!(plain.contains("P0003"), "{plain}");
        assert_eq!(standings(&[&csv.display().to_string()], ""), plain);
        assert_eq!(standings(&["-"], &text), plain);
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for (r, line) in text.lines().enumerate() {
            for (c, value) in line.split(',').enumerate() {
                sheet.write_string(r as u32, c as u16, value).unwrap();
            }
        }
        let xlsx = s.path("wide.xlsx");
        book.save(&xlsx).unwrap();
        assert_eq!(standings(&[&xlsx.display().to_string()], ""), plain);
        // imported, the event's store reads them back the same
        let event = s.path("event").display().to_string();
        let roster = fixtures().join("roster.csv").display().to_string();
        let run = |args: &[&str]| Test::new().args(args).run().success();
        run(&["init", &event, "--name", "Wide", "--date", "2026-03-28"]);
        run(&["roster", &roster, "--event", &event]);
        run(&["import", &csv.display().to_string(), "--event", &event]);
        let stored = Test::new()
            .args(["standings", "--format", "csv", "--event", &event])
            .run()
            .stdout;
        // (the event expects 300 cards: its standings say they are not final)
        assert_eq!(stored.replace("PROVISIONAL: 299 cards missing", ""), plain);
    }

    /// A value with full-width characters that is no number all the same
    /// is an error that says they are full-width.
    #[test]
    fn a_full_width_value_that_is_no_number_says_so() {
        let s = crate::test::Scratch::new("full-width-bad");
        let text = went_out_full_width().replacen(
            "\u{FF0D}\u{FF11}\u{FF10}",
            "\u{FF0D}\u{FF11}\u{FF10}\u{5206}",
            1,
        );
        let csv = s.write("wide.csv", &text).display().to_string();
        Test::new()
            .args(["check", &csv])
            .roster()
            .run()
            .failure(1)
            .error_at(
                &format!("{csv}:4:7"),
                &["score is \"\u{FF0D}\u{FF11}\u{FF10}\u{5206}\" (full-width characters: type the digits, +, - and . plainly)"],
            );
    }

    #[test]
    fn won_is_2() {
        check("bad/check2-won-2.csv").errors(1).error_at(
            "bad/check2-won-2.csv:6:6",
            &["game won is 2", "expected 1 or 0"],
        );
        check("scorecard/check2-won-2.csv").errors(1).error_at(
            "scorecard/check2-won-2.csv:9:5",
            &["game won is 2", "expected 1 or 0"],
        );
    }

    /// A spreadsheet's true-or-false cell saved as CSV is `TRUE` or
    /// `FALSE`: read as 1 and 0, the same standings as the card typed
    /// with numbers.
    #[test]
    fn won_as_true_or_false_reads_as_one_or_zero() {
        let s = crate::test::Scratch::new("won-true");
        let card = crate::test::fixtures().join("good/went-out.csv");
        let text = std::fs::read_to_string(&card).unwrap();
        let worded: String = text
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f[5] = match f[5] {
                    "1" => "TRUE",
                    "0" => "false",
                    w => w,
                };
                format!("{}\n", f.join(","))
            })
            .collect();
        assert!(worded.contains(",TRUE,") && worded.contains(",false,"));
        let path = s.0.join("worded.csv");
        std::fs::write(&path, worded).unwrap();
        let standings = |p: &std::path::Path| {
            Test::new()
                .args(["standings", &p.display().to_string(), "--format", "csv"])
                .roster()
                .run()
                .success()
                .stdout
        };
        assert_eq!(standings(&path), standings(&card));
    }

    #[test]
    fn tiles_107() {
        check("bad/check2-tiles-107.csv").errors(1).error_at(
            "bad/check2-tiles-107.csv:9:8",
            &["tiles is 107", "from 0 to 106"],
        );
        check("scorecard/check2-tiles-107.csv").errors(1).error_at(
            "scorecard/check2-tiles-107.csv:10:13",
            &["tiles is 107", "from 0 to 106"],
        );
    }

    #[test]
    fn tiles_x() {
        check("bad/check2-tiles-x.csv").errors(1).error_at(
            "bad/check2-tiles-x.csv:9:8",
            &["tiles is \"x\"", "whole number"],
        );
    }

    #[test]
    fn score_abc() {
        check("bad/check2-score-abc.csv").errors(1).error_at(
            "bad/check2-score-abc.csv:3:7",
            &["score is \"abc\"", "expected a number"],
        );
    }

    #[test]
    fn score_3_4_is_not_a_half_or_a_third() {
        check("bad/check2-score-3.4.csv").errors(1).error_at(
            "bad/check2-score-3.4.csv:7:7",
            &["score is 3.4", "whole number", "a half or a third"],
        );
    }
}

mod check_3_sum {
    use super::*;

    #[test]
    fn scores_do_not_add_up_to_zero() {
        check("bad/check3-sum-not-zero.csv").errors(1).error_at(
            "bad/check3-sum-not-zero.csv:10",
            &[
                "game 3",
                "add up to -1, expected 0",
                "A +11, B +11, C -13, D -10",
            ],
        );
        check("scorecard/check3-sum-not-zero.csv")
            .errors(1)
            .error_at(
                "scorecard/check3-sum-not-zero.csv:10",
                &["game 3", "add up to -1, expected 0"],
            );
    }
}

/// A game one sign away from passing (a minus lost, typed by mistake, or
/// typed on the line of another seat): its errors (when nobody went out,
/// only its sum and the sign at its cell: the leaders found from a lost
/// minus are the wrong seats), then one
/// hint naming the game, the seat and the value that makes it add up,
/// after all the errors; no hint when two changes would each do, nor
/// under penalty points (no signs), nor for a game wrong otherwise. The
/// hint counts as no error and changes no exit status.
mod sign_hints {
    use super::*;

    #[test]
    fn a_lost_minus_sign_is_one_hint_after_the_errors() {
        let out = check("bad/check3-lost-minus.csv")
            .errors(2)
            .error_at(
                "bad/check3-lost-minus.csv:6",
                &["game 2: the scores add up to +24, expected 0 (A +11, B +11, C +12, D -10)"],
            )
            .error_at(
                "bad/check3-lost-minus.csv:8:7",
                &["score is +12; with -12 the game adds up (see the hint)"],
            )
            .stderr_has("0 cards accepted, 0 games, 1 rejected; 2 errors");
        // nobody went out: C's lost minus made C the leader, and nothing
        // is said of the seats that would then be wrong (A and B's +11,
        // C's and B's won), which are right
        assert!(!out.stderr.contains("leader"), "{}", out.stderr);
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert_eq!(
            lines[lines.len() - 2],
            "hint: session S01 table 7 game 2: with seat C's score -12 instead of +12, the game adds up: did it lose its minus sign?",
            "{}",
            out.stderr
        );
        assert_eq!(out.stderr.matches("hint:").count(), 1, "{}", out.stderr);
        // as the README shows it
        let command = "tilerank check bad/check3-lost-minus.csv --roster roster.csv";
        assert_eq!(
            out.stderr,
            crate::test::doc_block_after("README.md", command),
            "{command}"
        );
    }

    #[test]
    fn a_minus_typed_by_mistake_or_on_another_seat() {
        check("bad/check3-stray-minus.csv").errors(2).stderr_has(
            "\nhint: session S01 table 7 game 3: with seat A's score +11 instead of -11, the game adds up: was its minus sign typed by mistake?\n",
        );
        check("bad/check3-minus-on-wrong-seat.csv").errors(3).stderr_has(
            "\nhint: session S01 table 7 game 1: with seat A's score +30 instead of -30 and seat B's -5 instead of +5, the game adds up: was the minus sign of seat B typed on seat A's line?\n",
        );
    }

    #[test]
    fn no_hint_when_two_changes_would_do_or_none() {
        // game 2 is A +5, B +5, C +5, D -5: A's or C's sign lost, who can say
        check("bad/check3-two-signs-would-do.csv")
            .errors(1)
            .stderr_lacks("hint:");
        check("bad/check3-sum-not-zero.csv").stderr_lacks("hint:");
        // penalty points have no sign to lose
        Test::new()
            .args(["check", "--profile", "gwinnett"])
            .fixture("bad/check3-lost-minus.csv")
            .roster()
            .run()
            .failure(1)
            .stderr_lacks("hint: session");
    }

    /// `import` says the hint too, after its errors: the card is refused
    /// as before.
    #[test]
    fn import_says_the_hint() {
        let s = crate::test::Scratch::new("sign-hint");
        let d = s.0.join("event").display().to_string();
        let roster = fixtures().join("roster.csv").display().to_string();
        Test::new()
            .args(["init", &d, "--name", "Sign Open"])
            .run()
            .success();
        Test::new()
            .args(["roster", &roster, "--event", &d])
            .run()
            .success();
        let card = fixtures().join("bad/check3-lost-minus.csv");
        let card = card.display().to_string();
        let out = Test::new()
            .args(["import", &card, "--event", &d])
            .run()
            .failure(1)
            .stderr_has("error: game 2: the scores add up to +24, expected 0")
            .stderr_has("\nhint: session S01 table 7 game 2: with seat C's score -12 instead of +12, the game adds up: did it lose its minus sign?\n")
            .stderr_has("nothing imported");
        assert_eq!(out.stderr.matches("hint:").count(), 1, "{}", out.stderr);
    }
}

mod check_4_someone_went_out {
    use super::*;

    #[test]
    fn two_seats_with_0_tiles() {
        check("bad/check4-two-out.csv").errors(1).error_at(
            "bad/check4-two-out.csv:2",
            &["game 1", "seats A and B", "0 tiles"],
        );
    }

    #[test]
    fn the_seat_that_went_out_did_not_win() {
        check("bad/check4-out-not-won.csv").errors(1).error_at(
            "bad/check4-out-not-won.csv:2:6",
            &["game won is 0, expected 1", "seat A went out"],
        );
    }

    /// D lost 15 with 4 tiles; the card says -4 with 15 tiles. The scores
    /// still add up (A's +19 takes the -4), so only the rack check sees it.
    #[test]
    fn swapped_score_and_tiles_columns() {
        check("bad/check4-swapped-columns.csv").errors(1).error_at(
            "bad/check4-swapped-columns.csv:5:7",
            &["score is -4 with 15 tiles", "loses 15 to", "swapped"],
        );
        check("scorecard/check4-swapped-columns.csv")
            .errors(1)
            .error_at(
                "scorecard/check4-swapped-columns.csv:8:12",
                &["score is -4 with 15 tiles", "swapped"],
            );
    }

    /// Game 1: A went out with +30; B lost 5 and C 10, typed without their
    /// minus signs. A's +30 is right: what the others lost is not worked
    /// out from losses that are wrong themselves, so only the sum and the
    /// two losses are said.
    #[test]
    fn losers_minus_signs_lost_do_not_blame_the_winner() {
        let f = "bad/check4-losers-minus-signs-lost.csv";
        check(f)
            .errors(3)
            .error_at(
                &format!("{f}:2"),
                &["game 1: the scores add up to +30, expected 0 (A +30, B +5, C +10, D -15)"],
            )
            .error_at(
                &format!("{f}:3:7"),
                &["score is +5; expected a loss (below 0): seat A went out"],
            )
            .error_at(
                &format!("{f}:4:7"),
                &["score is +10; expected a loss (below 0): seat A went out"],
            )
            .stderr_lacks(&format!("{f}:2:7"))
            .stderr_lacks("what the others lost");
        // one sign lost: the same, and the hint names the seat
        let f = "bad/check4-a-losers-minus-sign-lost.csv";
        check(f)
            .errors(2)
            .error_at(
                &format!("{f}:2"),
                &["game 1: the scores add up to +10, expected 0 (A +30, B +5, C -10, D -15)"],
            )
            .error_at(
                &format!("{f}:3:7"),
                &["score is +5; expected a loss (below 0): seat A went out"],
            )
            .stderr_lacks("what the others lost")
            .stderr_has("\nhint: session S01 table 7 game 1: with seat B's score -5 instead of +5, the game adds up: did it lose its minus sign?\n");
    }

    /// A winner's score that is no gain is said all the same, in words
    /// that do not lean on the others' wrong losses.
    #[test]
    fn a_winner_with_no_gain_beside_wrong_losses() {
        Test::new()
            .arg("check")
            .fixture("e2e/gwinnett/cards/final.csv")
            .run()
            .failure(1)
            .error_at(
                "e2e/gwinnett/cards/final.csv:2:8",
                &["score is 0; seat A went out (0 tiles), so expected a gain (above 0)"],
            )
            .stderr_lacks("what the others lost");
    }
}

/// A seat of the card with no line in a game (none, or its cells left
/// blank) whose other scores do not add up: the line left out is said,
/// at the game, with the seat, its player and the games it plays; the
/// game is a line short, so nothing is worked out from its other scores.
mod a_line_left_out {
    use super::*;

    #[test]
    fn a_line_left_out_is_said_plainly() {
        for (f, player) in [
            ("bad/line-left-out.csv", "P0004"),
            ("scorecard/line-left-out.csv", "Cheung Mei Ling"),
        ] {
            check(f)
                .errors(1)
                .error_at(
                    &format!("{f}:10"),
                    &[&format!("game 3 has no line for seat D ({player}), who plays games 1 and 2 of this card, and its other scores add up to +10, not 0: type seat D's line (when a player leaves early, the others' scores add up to 0 without theirs)")],
                )
                .stderr_lacks("expected 0")
                .stderr_lacks("Total")
                .stderr_lacks("hint:")
                .stderr_has("0 cards accepted, 0 games, 1 rejected; 1 error");
        }
    }

    /// A player who left early: the others' scores add up without theirs,
    /// and the card is accepted (the player is withdrawn).
    #[test]
    fn a_player_who_left_is_no_line_left_out() {
        let s = crate::test::Scratch::new("left-early");
        let text = std::fs::read_to_string(fixtures().join("good/went-out.csv"))
            .unwrap()
            .replace("S01,7,3,C,P0003,0,-12,2\n", "S01,7,3,C,P0003,0,-22,2\n")
            .replace("S01,7,3,D,P0004,0,-10,4\n", "");
        let card = s.write("left.csv", &text);
        Test::new()
            .arg("check")
            .arg(&card)
            .roster()
            .run()
            .success()
            .stderr_has("1 card accepted, 3 games; 0 errors");
    }
}

mod check_5_nobody_went_out {
    use super::*;

    /// Game 2 (RULES.md Example 2): A and B lead with +11, B has 1 tile
    /// and A 3, so B won; the card gives the flag to A.
    #[test]
    fn the_won_flag_on_the_wrong_leader() {
        for (file, a, b) in [
            ("bad/check5-wrong-leader-won.csv", "6:6", "7:6"),
            ("scorecard/check5-wrong-leader-won.csv", "9:2", "9:5"),
        ] {
            check(file)
                .errors(2)
                .error_at(
                    &format!("{file}:{a}"),
                    &[
                        "game won is 1, expected 0",
                        "seat A is a leader (+11) but has 3 tiles",
                    ],
                )
                .error_at(
                    &format!("{file}:{b}"),
                    &[
                        "game won is 0, expected 1",
                        "seat B is a leader (+11) with the fewest tiles",
                    ],
                );
        }
    }

    #[test]
    fn a_non_leader_with_a_positive_score() {
        check("bad/check5-non-leader-positive.csv")
            .errors(1)
            .error_at(
                "bad/check5-non-leader-positive.csv:12:7",
                &[
                    "score is +2",
                    "nobody went out",
                    "leaders (A and B) score +11",
                ],
            );
    }
}

mod check_6_total {
    use super::*;

    #[test]
    fn a_wrong_total_line() {
        check("scorecard/check6-total-wrong.csv")
            .errors(1)
            .error_at(
                "scorecard/check6-total-wrong.csv:11:3",
                &["Total score of seat A is +50, but the games add up to +52: check them against the signed card, and correct the Total or the game typed wrong"],
            );
    }

    /// A cell that cannot be read is one error; the Total of its seat is
    /// not reported as wrong too.
    #[test]
    fn an_unreadable_cell_is_not_also_a_wrong_total() {
        check("scorecard/check2-won-2.csv")
            .errors(1)
            .stderr_lacks("but the games add up");
    }

    /// A game row with a label the reader does not know ("Game 1 第一局") is
    /// one error at its label; the Total is not also reported for every seat.
    #[test]
    fn a_row_the_reader_could_not_place_is_not_also_a_wrong_total() {
        check("scorecard/row-label-not-a-game.csv")
            .error_at(
                "scorecard/row-label-not-a-game.csv:8:1",
                &[
                    "row label \"Game 1 第一局\" is not a game",
                    "Game 1, Game 2",
                ],
            )
            .error_at("scorecard/row-label-not-a-game.csv", &["game 1 missing"])
            .errors(2)
            .stderr_lacks("but the games add up");
    }
}

mod check_7_games {
    use super::*;

    #[test]
    fn a_card_with_only_2_games() {
        check("bad/check7-two-games.csv").errors(1).error_at(
            "bad/check7-two-games.csv:2",
            &[
                "session S01 table 7",
                "game 3 missing",
                "3 games per session",
            ],
        );
        check("scorecard/check7-two-games.csv")
            .errors(1)
            .error_at("scorecard/check7-two-games.csv", &["game 3 missing"]);
    }

    #[test]
    fn a_game_4() {
        check("bad/check7-game-4.csv").errors(1).error_at(
            "bad/check7-game-4.csv:14",
            &["game 4", "hk rules play 3 games per session"],
        );
        check("scorecard/check7-game-4.csv").errors(1).error_at(
            "scorecard/check7-game-4.csv:11",
            &["game 4", "3 games per session"],
        );
    }
}

/// A final's card read with no card of the prelim at all (files given
/// outside an event folder): who went on cannot be known, and each
/// command that reads it says so and what to do, not that the prelim is
/// not complete yet; with some of the prelim's cards given, the final is
/// judged on its list as it stands.
#[test]
fn a_final_card_without_any_prelim_card_says_none_was_given() {
    for command in ["check", "qualifiers", "standings"] {
        Test::new()
            .arg(command)
            .fixture("e2e/hk/cards/final.csv")
            .arg("--roster")
            .fixture("e2e/hk/roster.csv")
            .run()
            .failure(1)
            .stderr_has("e2e/hk/cards/final.csv:2:6: error: final session S01 table 1: H01 Chan Tai Man plays the final but no card of the prelim was given, so who went on from it cannot be known: give the prelim's cards with the final's, or work in the event folder that holds them (--event DIR)")
            .stderr_lacks("as it stands")
            .stderr_lacks("not complete yet");
    }
    Test::new()
        .arg("check")
        .fixture("e2e/hk/cards/prelim.csv")
        .fixture("e2e/hk/cards/final.csv")
        .arg("--roster")
        .fixture("e2e/hk/roster.csv")
        .run()
        .stderr_lacks("no card of the prelim was given");
}

/// A card whose stage the event does not play (a typo, `fianl`) is an
/// error at the card, naming the stages there are; so is an import whose
/// `--stage` is one.
#[test]
fn a_stage_the_event_does_not_play_is_an_error() {
    check("bad/stage-unknown.csv").errors(1).error_at(
        "bad/stage-unknown.csv:2",
        &[
            "fianl session S01 table 7: stage \"fianl\" is not one of this event's stages (prelim, final)",
            "[rules] stages",
        ],
    );
    let s = crate::test::Scratch::new("stage-unknown");
    let dir = s.0.join("event");
    let d = dir.display().to_string();
    let roster = crate::test::fixtures().join("roster.csv");
    Test::new()
        .args(["init", &d, "--name", "Stage Open"])
        .run()
        .success();
    Test::new()
        .args(["roster", &roster.display().to_string(), "--event", &d])
        .run()
        .success();
    let card = crate::test::fixtures().join("good/went-out.csv");
    Test::new()
        .args(["import", &card.display().to_string(), "--stage", "semi", "--event", &d])
        .run()
        .failure(1)
        .stderr_has("semi session S01 table 7: stage \"semi\" is not one of this event's stages (prelim, final)")
        .stderr_has("nothing imported");
    // "Finals" is the final: its card is judged as the final's, and with
    // no card of the prelim in, nobody can be known to have gone on to it
    Test::new()
        .args([
            "import",
            &card.display().to_string(),
            "--stage",
            "Finals",
            "--event",
            &d,
        ])
        .run()
        .failure(1)
        .stderr_has("plays the final but no card of the prelim was given, so who went on from it cannot be known: give the prelim's cards with the final's")
        .stderr_has("nothing imported");
    Test::new()
        .args(["import", &card.display().to_string(), "--event", &d])
        .run()
        .success();
    Test::new()
        .args([
            "import",
            &card.display().to_string(),
            "--stage",
            "Finals",
            "--event",
            &d,
        ])
        .run()
        .success()
        .stderr_has("1 card imported");
}

/// A file with three different errors in three games: three lines, sorted
/// by place, then the summary, exit 1.
#[test]
fn every_error_of_a_run_is_listed_at_once() {
    let out = check("bad/three-errors.csv")
        .errors(3)
        .stderr_has("0 cards accepted, 0 games, 1 rejected; 3 errors");
    let errors = out.problems("error");
    assert!(errors[0].starts_with("bad/three-errors.csv:3:8: error: tiles is \"x\""));
    assert!(errors[1].starts_with("bad/three-errors.csv:6:6: error: game won is 2"));
    assert!(errors[2].starts_with("bad/three-errors.csv:10: error: game 3: the scores add up"));
}

/// The errors of several files come in one run, file by file.
#[test]
fn errors_of_several_files_are_listed_together() {
    Test::new()
        .arg("check")
        .fixture("bad/check2-won-2.csv")
        .fixture("scorecard/check6-total-wrong.csv")
        .roster()
        .run()
        .failure(1)
        .errors(3)
        .error_at("bad/check2-won-2.csv:6:6", &["game won"])
        .error_at("scorecard/check6-total-wrong.csv:11:3", &["Total score"])
        // (two typings of one table, each with an error of its own)
        .error_at(
            "scorecard/check6-total-wrong.csv:5:2",
            &[
                "session S01 table 7 is given twice",
                "also at bad/check2-won-2.csv:2",
            ],
        )
        .stderr_has("2 files: 0 cards accepted, 0 games, 2 rejected; 3 errors");
}

/// A good card and a bad one: nothing is ranked (exit 1), and the good card
/// alone would have been.
#[test]
fn nothing_from_a_bad_card_counts() {
    for command in ["standings", "qualifiers"] {
        Test::new()
            .args([command, "--format", "csv"])
            .fixture("real-world/semicolon-decimal-comma.csv")
            .fixture("bad/three-errors.csv")
            .roster()
            .run()
            .failure(1)
            .stdout_is("")
            .errors(3)
            .stderr_has("1 card accepted, 3 games, 1 rejected; 3 errors")
            .stderr_has("Nothing ranked");
    }
    Test::new()
        .args(["standings", "--format", "csv"])
        .fixture("real-world/semicolon-decimal-comma.csv")
        .roster()
        .run()
        .success()
        .stdout_has("P0005");
}

/// A file of more errors than are listed for one file: the first 1,000
/// are listed, then one line says how many more (counted, not kept); the
/// file fails whole, with exit status 1, and the summary counts them all.
/// Another file's errors are listed as ever.
#[test]
fn a_files_errors_past_a_thousand_are_counted_not_listed() {
    let s = crate::test::Scratch::new("many-errors");
    let mut text = String::from("session,table,game,seat,player,won,score,tiles\n");
    for table in 1..=1_500 {
        // (one line a card: a game number that is none)
        text.push_str(&format!("S09,{table},x,A,P0001,1,+30,0\n"));
    }
    let many = s.write("many.csv", &text);
    let many = many.display().to_string();
    let out = Test::new()
        .args(["check", &many])
        .arg("bad/three-errors.csv")
        .run()
        .failure(1)
        .errors(1_000 + 1 + 3)
        .error_at(
            &many,
            &[
                "… and 500 more errors in ",
                "many.csv (the first 1000 are listed)",
            ],
        )
        .error_at(&format!("{many}:1001:3"), &["game is \"x\""])
        .stderr_has("0 cards accepted")
        .stderr_has("1503 errors");
    // the closing line is the file's last
    let lines = out.problems("error");
    let last = lines.iter().rposition(|l| l.starts_with(&many)).unwrap();
    assert!(lines[last].contains("more errors"), "{}", lines[last]);
}

/// A character nobody sees in a typed name (a zero width space pasted
/// from a web page, a no-break space) is named where it stands, readably,
/// in the message: never as Rust writes it (`\u{200b}`).
#[test]
fn an_invisible_character_is_named_readably() {
    let s = crate::test::Scratch::new("invisible");
    let card = std::fs::read_to_string(crate::test::fixtures().join("good/went-out.csv"))
        .unwrap()
        .replace("S01,7,1,C,P0003", "S01,7,1,C,P0003\u{200b}")
        .replace("score,tiles", "score,tiles,note\u{a0}1");
    let file = s.write("zw.csv", &card);
    let file = file.display().to_string();
    Test::new()
        .args(["check", &file])
        .roster()
        .run()
        .failure(1)
        .error_at(
            &format!("{file}:4:5"),
            &["player \"P0003<U+200B zero width space>\" is not on the roster"],
        )
        .warning_at(
            &format!("{file}:1:9"),
            &["unknown column \"note<U+00A0 no-break space>1\" ignored"],
        )
        .stderr_lacks("\\u{");
}

/// A Gwinnett event's cards (penalty points: the one who went out scores
/// 0, the others their racks) checked under the default `hk` rules: every
/// game's errors, then one hint naming the profile they add up under, the
/// last line before the summary. Under that profile they pass, and a
/// zero-sum card with a mistake of its own gets no hint.
#[test]
fn cards_of_another_profile_are_told_which_one() {
    let hint = "hint: the 13 cards rejected add up under the gwinnett profile, not under the hk rules: give --profile gwinnett";
    let out = Test::new()
        .args(["check", "e2e/gwinnett/cards"])
        .run()
        .failure(1);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(lines.len() > 100, "{}", out.stderr);
    assert_eq!(lines[lines.len() - 2], hint, "{}", out.stderr);
    assert_eq!(out.stderr.matches("hint:").count(), 1, "{}", out.stderr);
    Test::new()
        .args(["check", "--profile", "gwinnett", "e2e/gwinnett/cards"])
        .run()
        .success()
        .errors(0)
        .stderr_lacks("hint:");
    for fixture in ["bad/check3-sum-not-zero.csv", "bad/check7-game-4.csv"] {
        check(fixture).stderr_lacks("hint:");
    }
    // `import` says it too, in the event's terms: its rules are its
    // tilerank.toml (written from hk), which --profile does not change
    let scratch = crate::test::Scratch::new("other-profile-import");
    let event = scratch.0.join("event").display().to_string();
    Test::new()
        .args(["init", &event, "--name", "Club", "--profile", "hk"])
        .run()
        .success();
    let run = |args: &[&str]| Test::new().args(args).args(["--event", &event]).run();
    run(&["roster", "e2e/gwinnett/roster.csv"]).success();
    let out = run(&["import", "e2e/gwinnett/cards"]).failure(1);
    let hint = "hint: the 13 cards rejected add up under the gwinnett profile, not under this event's rules (tilerank.toml, written from hk): if the event plays gwinnett's rules, make its settings from that profile (tilerank profiles show gwinnett) and import again";
    assert_eq!(out.stderr.matches(hint).count(), 1, "{}", out.stderr);
    assert_eq!(out.stderr.matches("hint:").count(), 1, "{}", out.stderr);
    // as the README shows it
    let command = "tilerank check e2e/gwinnett/cards/final.csv";
    let out = Test::new()
        .args(["check", "e2e/gwinnett/cards/final.csv"])
        .run()
        .failure(1);
    assert_eq!(
        out.stderr,
        crate::test::doc_block_after("README.md", command),
        "{command}"
    );
}

/// An event's cards read with `--profile` naming another profile than the
/// event's (or `--rules FILE`): when the event's own settings fit the
/// cards, the hint says to drop the option, naming the event's
/// tilerank.toml, and names no other profile.
#[test]
fn cards_of_the_events_own_profile_are_told_to_drop_the_option() {
    let scratch = crate::test::Scratch::new("own-profile-hint");
    let init = |name: &str, profile: &str| {
        let event = scratch.0.join(name).display().to_string();
        Test::new()
            .args(["init", &event, "--name", "Club", "--profile", profile])
            .run()
            .success();
        event
    };
    let hints = |event: &str, args: &[&str]| {
        let out = Test::new()
            .args(args)
            .args(["--event", event, "e2e/gwinnett/cards"])
            .run()
            .failure(1);
        let hints: Vec<String> = out
            .stderr
            .lines()
            .filter(|l| l.starts_with("hint:"))
            .map(str::to_string)
            .collect();
        hints
    };
    let gwinnett = init("gwinnett", "gwinnett");
    let toml = std::path::Path::new(&gwinnett).join("tilerank.toml");
    let toml = toml.display();
    assert_eq!(
        hints(&gwinnett, &["check", "--profile", "hk"]),
        [format!("hint: the 13 cards rejected add up under the event's own settings ({toml}, the gwinnett profile), not under the hk rules: drop --profile hk")]
    );
    let club = scratch.write("club.toml", "extends = \"hk\"\nname = \"club\"\n");
    let club = club.display().to_string();
    assert_eq!(
        hints(&gwinnett, &["check", "--rules", &club]),
        [format!("hint: the 13 cards rejected add up under the event's own settings ({toml}, the gwinnett profile), not under the club rules: drop --rules {club}")]
    );
    // an event whose own settings do not fit the cards: the profile they
    // add up under, as before
    let hk = init("hk", "hk");
    assert_eq!(
        hints(&hk, &["check", "--profile", "pressman"]),
        ["hint: the 13 cards rejected add up under the gwinnett profile, not under the pressman rules: give --profile gwinnett"]
    );
}

/// In a workbook, a note right of the table on a row of its own (below
/// the card, "checked by Bob") is no line of the card: the card reads as
/// without it. Beside a line it was already a note.
#[test]
fn a_note_right_of_the_table_on_a_row_of_its_own_is_not_a_line() {
    let s = crate::test::Scratch::new("note-row");
    let text = std::fs::read_to_string(fixtures().join("good/went-out.csv")).unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let mut rows = 0;
    for (r, line) in text.lines().enumerate() {
        for (c, value) in line.split(',').enumerate() {
            sheet.write_string(r as u32, c as u16, value).unwrap();
        }
        rows = r as u32 + 1;
    }
    // beside the card's first line, below the card, and far below it
    sheet.write_string(1, 11, "typed by Mary").unwrap();
    sheet.write_string(rows + 1, 11, "checked by Bob").unwrap();
    sheet.write_string(rows + 5, 12, "total ok").unwrap();
    let xlsx = s.path("noted.xlsx");
    book.save(&xlsx).unwrap();
    let standings = |file: &str| {
        Test::new()
            .args(["standings", "--format", "csv", file])
            .roster()
            .run()
            .success()
            .errors(0)
            .stdout
    };
    assert_eq!(
        standings(&xlsx.display().to_string()),
        standings("good/went-out.csv")
    );
}
