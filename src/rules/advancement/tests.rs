//! Known answers of the table rules and carry-over.

use super::*;
use crate::domain::{Card, Label};
use crate::domain::{Game, Seat, SeatPlayer, SeatResult};
use crate::place::Place;
use crate::profile::{GoingOn, Rules};
use crate::roster::{Player, Roster, Status};
use crate::rules::standings::Tally;

/// [`super::nvso`] with nothing carried into the stage.
fn nvso(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    named: &[PlayerId],
) -> Advancement {
    super::nvso(cards, stage, rules, roster, named, &Carried::new())
}

/// [`super::best_at_each_table`] with nothing carried into the stage.
fn best_at_each_table(
    cards: &[Card],
    stage: &Stage,
    rules: &Rules,
    roster: &Roster,
    named: &[PlayerId],
    per_table: usize,
) -> Advancement {
    super::best_at_each_table(
        cards,
        stage,
        rules,
        roster,
        named,
        per_table,
        &Carried::new(),
    )
}

/// Reasons and decisions in the words `report::going_on` says them in.
trait Said {
    fn said(&self) -> String;
}

impl Said for Advancer {
    fn said(&self) -> String {
        crate::report::going_on::reason(self)
    }
}

trait SaidTo {
    fn said_to(&self, roster: &Roster, policy: TableTies) -> String;
}

impl SaidTo for Decision {
    fn said_to(&self, roster: &Roster, policy: TableTies) -> String {
        crate::report::going_on::decision(self, roster, policy, crate::config::FILE_NAME)
    }
}

/// Table `n` of the first stage, of its only session.
fn table(n: u32) -> TableName {
    TableName {
        table: Label::Num(n),
        session: None,
        later_stage: None,
    }
}

fn roster(n: usize) -> Roster {
    let mut r = Roster::default();
    for i in 0..n {
        r.add(Player::named(&format!("P{i:02}"), &format!("Player {i}")))
            .unwrap();
    }
    r
}

/// A card of `games` games; each seat is (player, score per game).
fn card_in(stage: &str, session: u32, table: u32, seats: &[(u32, &[i64])]) -> Card {
    scored_card(stage, session, table, seats, false)
}

fn scored_card(
    stage: &str,
    session: u32,
    table: u32,
    seats: &[(u32, &[i64])],
    penalty: bool,
) -> Card {
    let place = Place::nowhere("test");
    let games = seats.iter().map(|(_, s)| s.len()).max().unwrap_or(0);
    Card {
        key: CardKey {
            stage: Stage::new(stage),
            session: Label::Num(session),
            table: Label::Num(table),
        },
        place: place.clone(),
        seats: seats
            .iter()
            .enumerate()
            .map(|(i, (p, _))| SeatPlayer {
                seat: Seat::ALL[i],
                player: PlayerId(*p),
                place: place.clone(),
            })
            .collect(),
        games: (0..games)
            .map(|g| Game {
                number: g as u32 + 1,
                results: seats
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, s))| g < s.len())
                    .map(|(i, (p, s))| SeatResult {
                        seat: Seat::ALL[i],
                        player: PlayerId(*p),
                        // zero-sum: a positive score; penalty points: 0
                        won: s[g] > 0 || (penalty && s[g] == 0),
                        score: Score::whole(s[g]),
                        tiles: Some(if s[g] > 0 { 0 } else { 3 }),
                        place: place.clone(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn card(table: u32, seats: &[(u32, &[i64])]) -> Card {
    card_in("prelim", 1, table, seats)
}

/// A `gwinnett` card: penalty points, 0 for the player who went out.
fn gw_card(table: u32, seats: &[(u32, &[i64])]) -> Card {
    scored_card("prelim", 1, table, seats, true)
}

/// A zero-sum table of four, with the given totals (one game each is
/// enough for the rules; three games are played: total, 0, 0).
fn table4(table: u32, players: [u32; 4], totals: [i64; 4]) -> Card {
    let s: Vec<[i64; 3]> = totals.iter().map(|&t| [t, 0, 0]).collect();
    card(
        table,
        &[
            (players[0], &s[0]),
            (players[1], &s[1]),
            (players[2], &s[2]),
            (players[3], &s[3]),
        ],
    )
}

fn nvso_rules() -> Rules {
    crate::profile::by_name("nvso").unwrap()
}

fn gw_rules() -> Rules {
    crate::profile::by_name("gwinnett").unwrap()
}

fn ids(a: &Advancement) -> Vec<u32> {
    a.players().iter().map(|p| p.0).collect()
}

#[test]
fn nvso_table_winners_then_the_closest_seconds_fill_four_seats() {
    // Three tables: winners 0, 4, 8; seconds 1 (-10 behind 40 = 50),
    // 5 (45 - 42 = 3 behind), 9 (60 - 30 = 30 behind).
    let cards = vec![
        table4(1, [0, 1, 2, 3], [40, -10, -10, -20]),
        table4(2, [4, 5, 6, 7], [45, 42, -40, -47]),
        table4(3, [8, 9, 10, 11], [60, 30, -40, -50]),
    ];
    let r = roster(12);
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
    assert_eq!(ids(&a), vec![0, 4, 8, 5]);
    assert!(a.decisions.is_empty());
    assert!(a.is_settled());
    assert_eq!(a.advancing[0].said(), "table winner at table 1 with +40");
    assert_eq!(
        a.advancing[3].said(),
        "best second: 3 behind the winner of table 2"
    );
    assert_eq!(a.advancing[3].place, 2);
    assert!(!a.advances(PlayerId(9)) && !a.advances(PlayerId(1)));
}

#[test]
fn nvso_seconds_fill_in_order_of_distance() {
    let cards = vec![
        table4(1, [0, 1, 2, 3], [50, 10, -20, -40]), // 1 is 40 behind
        table4(2, [4, 5, 6, 7], [30, 25, -20, -35]), // 5 is 5 behind
    ];
    // two winners (0, 4); seconds 5 (5 behind), then 1 (40 behind)
    let r = roster(8);
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
    assert_eq!(ids(&a), vec![0, 4, 5, 1]);
    match &a.advancing[3].reason {
        Reason::BestSecond { behind, order, .. } => {
            assert_eq!(*behind, Score::whole(40));
            assert_eq!(*order, 2);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn nvso_tied_table_winners_all_go_on() {
    let cards = vec![
        table4(1, [0, 1, 2, 3], [20, 20, -10, -30]),
        table4(2, [4, 5, 6, 7], [30, 5, -15, -20]),
    ];
    let r = roster(8);
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
    // winners 0, 1 (shared) and 4; one seat for the best second:
    // table 1's second is 2 (30 behind), table 2's is 5 (25 behind)
    assert_eq!(ids(&a), vec![0, 1, 4, 5]);
    assert_eq!(
        a.advancing[1].said(),
        "table winner at table 1 with +20 (shared)"
    );
    assert_eq!(a.tables[0].lines[2].place, Some(3));
}

#[test]
fn nvso_more_than_four_table_winners_is_a_decision_not_a_cut() {
    let cards: Vec<Card> = (0..5)
        .map(|t| {
            table4(
                t + 1,
                [4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3],
                [30, 0, -10, -20],
            )
        })
        .collect();
    let r = roster(20);
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
    assert_eq!(ids(&a), vec![0, 4, 8, 12, 16]);
    assert_eq!(
        a.decisions,
        vec![Decision::TooManyTableWinners {
            winners: [0, 4, 8, 12, 16].map(PlayerId).to_vec(),
            seats: 4
        }]
    );
    assert!(!a.is_settled());
    assert!(a.decisions[0]
        .said_to(&r, a.policy)
        .starts_with("5 table winners (P00, P04, P08, P12, P16) for 4 championship seats"));
}

#[test]
fn nvso_a_tie_for_the_last_seat_is_reported_and_the_director_names() {
    // winners 0, 4, 8; seconds 1 and 5 both 10 behind, 9 is 50 behind
    let cards = vec![
        table4(1, [0, 1, 2, 3], [30, 20, -20, -30]),
        table4(2, [4, 5, 6, 7], [25, 15, -10, -30]),
        table4(3, [8, 9, 10, 11], [60, 10, -30, -40]),
    ];
    let r = roster(12);
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
    assert_eq!(ids(&a), vec![0, 4, 8]);
    assert_eq!(
        a.decisions,
        vec![Decision::TieForLastSeats {
            tied: vec![PlayerId(1), PlayerId(5)],
            behind: Score::whole(10),
            seats: 1,
            named: vec![]
        }]
    );
    assert!(!a.is_settled());
    assert!(a.decisions[0]
        .said_to(&r, a.policy)
        .starts_with("TIE FOR THE LAST seat: 2 seconds (P01, P05) are each 10 behind"));
    // the director names P05
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[PlayerId(5)]);
    assert_eq!(ids(&a), vec![0, 4, 8, 5]);
    assert!(a.advancing[3].named_by_director);
    assert!(a.is_settled());
    assert!(a.advancing[3]
        .said()
        .ends_with("named by the director to settle a tie"));
    assert!(names_in_no_tie(&[PlayerId(5)], &a.decisions).is_empty());
    // naming both for one seat settles nothing and sends neither
    let a = nvso(
        &cards,
        &Stage::prelim(),
        &nvso_rules(),
        &r,
        &[PlayerId(1), PlayerId(5)],
    );
    assert_eq!(ids(&a), vec![0, 4, 8]);
    assert!(!a.is_settled());
}

#[test]
fn nvso_tied_seconds_that_all_fit_all_go_on() {
    // two winners, two seconds both 5 behind: two seats, both go
    let cards = vec![
        table4(1, [0, 1, 2, 3], [20, 15, -15, -20]),
        table4(2, [4, 5, 6, 7], [10, 5, -5, -10]),
    ];
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &roster(8), &[]);
    assert_eq!(ids(&a), vec![0, 4, 1, 5]);
    assert!(a.decisions.is_empty());
}

#[test]
fn nvso_a_single_table_of_four_sends_everyone_in_order() {
    let cards = vec![table4(1, [0, 1, 2, 3], [40, -5, -15, -20])];
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &roster(4), &[]);
    // one winner; the only table's second (45 behind) fills a seat; the
    // table has no further seconds, so only 2 go on, and that is said
    assert_eq!(ids(&a), vec![0, 1]);
    assert_eq!(
        a.decisions,
        vec![Decision::EmptySeats {
            filled: 2,
            seats: 4
        }]
    );
    assert!(!a.is_settled());
}

#[test]
fn nvso_withdrawn_and_disqualified_players_take_no_place() {
    let mut r = roster(8);
    let mut dq = Player::named("P08", "Cheat");
    dq.status = Status::Disqualified;
    r.add(dq).unwrap(); // PlayerId(8)
    let cards = vec![
        // 8 has the highest total but is disqualified: 0 wins table 1
        table4(1, [8, 0, 1, 2], [50, 10, -20, -40]),
        // 3 left after two games: withdrawn; 4 wins table 2
        card(
            2,
            &[
                (3, &[60, 0]),
                (4, &[-10, 20, 0]),
                (5, &[-20, -5, 0]),
                (6, &[-30, -15, 0]),
            ],
        ),
    ];
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
    assert_eq!(
        a.tables[0].lines.last().unwrap().apart,
        Some(Apart::Disqualified)
    );
    assert_eq!(
        a.tables[1].lines.last().unwrap().apart,
        Some(Apart::Withdrawn)
    );
    // winners 0 (+10) and 4 (+10); seconds 1 (30 behind) and 5 (35 behind)
    assert_eq!(ids(&a), vec![0, 4, 1, 5]);
}

#[test]
fn no_cards_no_one_goes_on_and_nothing_to_decide() {
    let a = nvso(&[], &Stage::prelim(), &nvso_rules(), &roster(0), &[]);
    assert!(a.advancing.is_empty() && a.decisions.is_empty() && a.tables.is_empty());
    let g = best_at_each_table(&[], &Stage::prelim(), &gw_rules(), &roster(0), &[], 1);
    assert!(g.advancing.is_empty() && g.is_settled());
}

#[test]
fn only_the_stage_asked_for_counts() {
    let cards = vec![table4(1, [0, 1, 2, 3], [40, -10, -10, -20]), {
        let mut c = table4(1, [0, 1, 2, 3], [-40, 10, 10, 20]);
        c.key.stage = Stage::new("final");
        c
    }];
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &roster(4), &[]);
    assert_eq!(a.tables.len(), 1);
    assert_eq!(a.advancing[0].player, PlayerId(0));
    let f = nvso(&cards, &Stage::new("final"), &nvso_rules(), &roster(4), &[]);
    assert_eq!(f.advancing[0].player, PlayerId(3));
}

#[test]
fn a_player_at_two_tables_is_reported() {
    let cards = vec![
        card_in(
            "prelim",
            1,
            1,
            &[(0, &[10, 0, 0]), (1, &[-5, 0, 0]), (2, &[-5, 0, 0])],
        ),
        card_in(
            "prelim",
            2,
            1,
            &[(0, &[-10, 0, 0]), (3, &[5, 0, 0]), (4, &[5, 0, 0])],
        ),
    ];
    let r = roster(5);
    let a = nvso(&cards, &Stage::prelim(), &nvso_rules(), &r, &[]);
    assert_eq!(
        a.decisions[0],
        Decision::SeveralTables {
            player: PlayerId(0),
            tables: vec![
                TableName {
                    session: Some(Label::Num(1)),
                    ..table(1)
                },
                TableName {
                    session: Some(Label::Num(2)),
                    ..table(1)
                }
            ]
        }
    );
    assert!(a.decisions[0].said_to(&r, TableTies::Decide).starts_with(
        "P00 played at 2 tables of the stage (table 1 (session S01), table 1 (session S02))"
    ));
    assert_eq!(ids(&a)[..3], [0, 3, 4]);
}

#[test]
fn gwinnett_lowest_total_goes_on_and_ties_all_go_unless_named() {
    let cards = vec![
        gw_card(1, &[(0, &[0, 12, 5]), (1, &[20, 0, 9]), (2, &[35, 8, 0])]),
        gw_card(
            2,
            &[
                (3, &[14, 0, 0]),
                (4, &[0, 7, 7]),
                (5, &[3, 11, 0]),
                (6, &[40, 2, 12]),
            ],
        ),
    ];
    let r = roster(7);
    // table 1: 0 has 17, 1 has 29, 2 has 43 -> 0
    // table 2: 3 has 14, 4 has 14, 5 has 14, 6 has 54 -> tie of three,
    // listed by games won (3 went out twice) then roster id
    let a = best_at_each_table(&cards, &Stage::prelim(), &gw_rules(), &r, &[], 1);
    assert_eq!(ids(&a), vec![0, 3, 4, 5]);
    assert_eq!(a.advancing[0].said(), "lowest total at table 1 with 17");
    assert_eq!(
        a.advancing[1].said(),
        "lowest total at table 2 with 14 (shared)"
    );
    assert_eq!(
        a.decisions,
        vec![Decision::TieAtTable {
            table: table(2),
            place: 1,
            lowest: true,
            tied: vec![PlayerId(3), PlayerId(4), PlayerId(5)],
            total: Score::whole(14),
            named: vec![]
        }]
    );
    // RULES.md section 7: all tied players go on unless the director
    // names one; the tie is reported, and the list is final
    assert!(a.is_settled(), "all tied go on by default");
    assert!(a.decisions[0].said_to(&r, a.policy).ends_with(
        "all of them go on, unless the director names who goes on (--player, or in tilerank.toml: [qualifiers] named for the first stage, [stages.NAME] named for a later one)"
    ));
    // the policy "decide" makes the tie wait for the director
    let decide = Rules {
        table_ties: TableTies::Decide,
        ..gw_rules()
    };
    let a = best_at_each_table(&cards, &Stage::prelim(), &decide, &r, &[], 1);
    assert_eq!(ids(&a), vec![0, 3, 4, 5]);
    assert!(!a.is_settled());
    assert!(a.decisions[0].said_to(&r, a.policy).ends_with(
        "until the director names who goes on (--player), or sets table_ties = \"all\""
    ));
    // the director names 4; naming 1 (in no tie) changes nothing
    let a = best_at_each_table(
        &cards,
        &Stage::prelim(),
        &gw_rules(),
        &r,
        &[PlayerId(4), PlayerId(1)],
        1,
    );
    assert_eq!(ids(&a), vec![0, 4]);
    assert!(a.advancing[1].named_by_director);
    assert!(a.is_settled());
    assert_eq!(
        names_in_no_tie(&[PlayerId(4), PlayerId(1)], &a.decisions),
        vec![PlayerId(1)]
    );
}

#[test]
fn gwinnett_winner_is_the_lowest_not_the_highest() {
    let cards = vec![gw_card(5, &[(0, &[30, 20]), (1, &[0, 0]), (2, &[10, 5])])];
    let rules = Rules {
        games_per_session: 2,
        ..gw_rules()
    };
    let a = best_at_each_table(&cards, &Stage::new("semi"), &rules, &roster(3), &[], 1);
    assert!(a.tables.is_empty() && a.advancing.is_empty());
    let a = best_at_each_table(&cards, &Stage::prelim(), &rules, &roster(3), &[], 1);
    assert_eq!(ids(&a), vec![1]);
    assert_eq!(
        a.tables[0]
            .lines
            .iter()
            .map(|l| (l.player.0, l.place))
            .collect::<Vec<_>>(),
        vec![(1, Some(1)), (2, Some(2)), (0, Some(3))]
    );
}

/// The two best at each table: the lowest totals under penalty points,
/// the highest under zero-sum scoring; players sharing the second place
/// all go on (a tie reported) until the director names one.
#[test]
fn the_two_best_at_each_table_go_on() {
    // penalty points, lowest first: 1 (5), 2 (12), 0 (20), 3 (31)
    let cards = vec![gw_card(
        1,
        &[
            (0, &[10, 5, 5]),
            (1, &[0, 0, 5]),
            (2, &[4, 4, 4]),
            (3, &[11, 10, 10]),
        ],
    )];
    let r = roster(4);
    let a = best_at_each_table(&cards, &Stage::prelim(), &gw_rules(), &r, &[], 2);
    assert_eq!(ids(&a), vec![1, 2]);
    assert!(a.decisions.is_empty() && a.is_settled());
    assert_eq!(a.advancing[1].said(), "2nd lowest total at table 1 with 12");
    // zero-sum, highest first (table4: totals 40, -10, -10, -20): the
    // winner, then two sharing the second place for one seat
    let zero_sum = Rules {
        going_on: GoingOn::BestAtEachTable { per_table: 2 },
        ..nvso_rules()
    };
    let cards = vec![table4(1, [0, 1, 2, 3], [40, -10, -10, -20])];
    let a = best_at_each_table(&cards, &Stage::prelim(), &zero_sum, &r, &[], 2);
    assert_eq!(ids(&a), vec![0, 1, 2]);
    assert_eq!(a.advancing[0].said(), "highest total at table 1 with +40");
    assert_eq!(
        a.decisions,
        vec![Decision::TieAtTable {
            table: table(1),
            place: 2,
            lowest: false,
            tied: vec![PlayerId(1), PlayerId(2)],
            total: Score::whole(-10),
            named: vec![],
        }]
    );
    assert!(a.decisions[0]
        .said_to(&r, a.policy)
        .starts_with("TIE at table 1: 2 players (P01, P02) share the 2nd highest total -10"));
    let a = best_at_each_table(&cards, &Stage::prelim(), &zero_sum, &r, &[PlayerId(2)], 2);
    assert_eq!(ids(&a), vec![0, 2]);
    assert!(a.is_settled());
}

#[test]
fn rounded_up_means_towards_plus_infinity() {
    let w = Score::whole;
    assert_eq!(round_up(Score::ratio(45, 2)), w(23));
    assert_eq!(round_up(Score::ratio(-45, 2)), w(-22));
    assert_eq!(round_up(Score::ratio(5, 3)), w(2));
    assert_eq!(round_up(Score::ratio(-5, 3)), w(-1));
    assert_eq!(round_up(Score::ratio(-1, 2)), w(0));
    assert_eq!(round_up(w(7)), w(7));
    assert_eq!(round_up(w(-7)), w(-7));
    assert_eq!(round_up(Score::ratio(1, 1000)), w(1));
}

#[test]
fn carry_none_all_half() {
    let w = Score::whole;
    assert_eq!(carried_points(w(45), Carry::None), w(0));
    assert_eq!(carried_points(w(45), Carry::All), w(45));
    assert_eq!(carried_points(w(45), Carry::Half), w(23));
    assert_eq!(carried_points(w(44), Carry::Half), w(22));
    assert_eq!(carried_points(w(-45), Carry::Half), w(-22));
    assert_eq!(carried_points(w(-1), Carry::Half), w(0));
    assert_eq!(carried_points(Score::ratio(10, 3), Carry::Half), w(2));
    assert_eq!(carried_points(Score::ratio(-10, 3), Carry::Half), w(-1));
    assert_eq!(
        carried_points(Score::ratio(10, 3), Carry::All),
        Score::ratio(10, 3)
    );
    assert_eq!("HALF".parse::<Carry>(), Ok(Carry::Half));
    assert_eq!(" all ".parse::<Carry>(), Ok(Carry::All));
    assert_eq!(Carry::default(), Carry::None);
    assert_eq!(
        "most".parse::<Carry>().unwrap_err(),
        "expected \"none\", \"all\" or \"half\""
    );
}

#[test]
fn starting_tallies_for_the_next_stage() {
    let prev = vec![
        Tally {
            games: 3,
            won: 2,
            total: Score::whole(-45),
            tiles: 7,
            ..Tally::new(PlayerId(0))
        },
        Tally {
            games: 3,
            won: 1,
            total: Score::whole(31),
            tiles: 4,
            ..Tally::new(PlayerId(1))
        },
    ];
    let go = [PlayerId(1), PlayerId(0), PlayerId(5)];
    let half = starting_tallies(&prev, &go, Carry::Half);
    assert_eq!(
        half.iter()
            .map(|t| (t.player.0, t.total, t.games, t.won, t.tiles))
            .collect::<Vec<_>>(),
        vec![
            (0, Score::whole(-22), 0, 0, 0),
            (1, Score::whole(16), 0, 0, 0),
            (5, Score::ZERO, 0, 0, 0)
        ]
    );
    let all = starting_tallies(&prev, &go[..1], Carry::All);
    assert_eq!(all, vec![prev[1].clone()]);
    assert_eq!(all[0].total, Score::whole(31));
    let none = starting_tallies(&prev, &go[..1], Carry::None);
    assert_eq!(
        (none[0].total, none[0].games, none[0].won),
        (Score::ZERO, 0, 0)
    );
    // added to the next stage's own tallies
    let stage = vec![Tally {
        games: 2,
        won: 1,
        total: Score::whole(-6),
        tiles: 5,
        withdrawn: true,
        ..Tally::new(PlayerId(1))
    }];
    let merged = add_carried(&all, stage, false);
    assert_eq!(
        merged,
        vec![Tally {
            games: 5,
            won: 2,
            total: Score::whole(25),
            tiles: 9,
            withdrawn: true,
            ..Tally::new(PlayerId(1))
        }]
    );
}

/// A later stage's reasons and ties name its stage ("semi table 2"), so
/// that they do not read as the first stage's table 2; with several
/// sessions, the session too.
#[test]
fn a_later_stages_tables_are_said_with_their_stage() {
    let semi = |session: u32, table: u32, seats: &[(u32, &[i64])]| {
        scored_card("semi", session, table, seats, true)
    };
    let r = roster(6);
    let cards = vec![
        semi(1, 1, &[(0, &[0, 12]), (1, &[20, 0]), (2, &[35, 8])]),
        semi(1, 2, &[(3, &[5, 0]), (4, &[0, 5]), (5, &[40, 2])]),
    ];
    let a = best_at_each_table(&cards, &Stage::new("semi"), &gw_rules(), &r, &[], 1);
    assert_eq!(
        a.advancing[0].said(),
        "lowest total at semi table 1 with 12"
    );
    assert_eq!(
        a.decisions[0].said_to(&r, a.policy),
        "TIE at semi table 2: 2 players (P03, P04) share the lowest total 5; all of them go on, unless the director names who goes on (--player, or in tilerank.toml: [qualifiers] named for the first stage, [stages.NAME] named for a later one)"
    );
    assert_eq!(
        a.advancing[1].said(),
        "lowest total at semi table 2 with 5 (shared)"
    );
    // two sessions of the semi
    let cards = vec![
        semi(1, 1, &[(0, &[0, 12]), (1, &[20, 0]), (2, &[35, 8])]),
        semi(2, 1, &[(3, &[9, 0]), (4, &[0, 5]), (5, &[40, 2])]),
    ];
    let a = best_at_each_table(&cards, &Stage::new("semi"), &gw_rules(), &r, &[], 1);
    assert_eq!(
        a.advancing[1].said(),
        "lowest total at semi table 1 (session S02) with 5"
    );
    // the first stage's, at their table alone
    let a = best_at_each_table(
        &[gw_card(2, &[(0, &[0, 12, 0]), (1, &[20, 0, 5])])],
        &Stage::prelim(),
        &gw_rules(),
        &r,
        &[],
        1,
    );
    assert_eq!(a.advancing[0].said(), "lowest total at table 2 with 12");
}
