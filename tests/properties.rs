//! Properties of the scoring rules over random legal racks (proptest):
//! every game sums to exactly zero, every computed card passes the checks of
//! RULES.md section 5 as a recorded card, and the order of the seats or of
//! the input lines changes nothing.

use proptest::prelude::*;
use tilerank::domain::{CardKey, Label, Seat, Stage};
use tilerank::ingest::cell::Cell;
use tilerank::ingest::raw::{Layout, RawCard, RawCell, RawGame, RawLine, RawSeat};
use tilerank::place::{At, Source};
use tilerank::problem::Problems;
use tilerank::profile::{PenaltyMode, Rules};
use tilerank::roster::Roster;
use tilerank::rules::card_checks::check_card;
use tilerank::rules::rack::{Penalty, Rack};
use tilerank::rules::scoring::{score_game, Outcome};
use tilerank::score::Score;

/// The 106 tiles: values 1..=13 twice in four colours, then two jokers (0).
fn set() -> Vec<u8> {
    let mut v: Vec<u8> = (0..8).flat_map(|_| 1..=13u8).collect();
    v.extend([0, 0]);
    v
}

/// One game's racks: 3 or 4 players, drawn from one shuffled set, at most
/// one player out, optional penalty charges on players who did not go out.
fn game() -> impl Strategy<Value = Vec<Rack>> {
    (3usize..=4)
        .prop_flat_map(|n| {
            (
                Just(set()).prop_shuffle(),
                proptest::collection::vec(1u16..=14, n),
                proptest::option::of(0..n),
                proptest::collection::vec(proptest::option::weighted(0.1, 0u8..3), n),
            )
        })
        .prop_map(|(tiles, counts, out, charges)| {
            let mut next = tiles.into_iter();
            counts
                .iter()
                .enumerate()
                .map(|(i, &count)| {
                    if out == Some(i) {
                        return Rack::out();
                    }
                    let held: Vec<u8> = next.by_ref().take(usize::from(count)).collect();
                    let jokers = held.iter().filter(|&&t| t == 0).count() as u8;
                    let points = held.iter().map(|&t| i64::from(t)).sum();
                    let rack = Rack::new(points, jokers, count);
                    match charges[i] {
                        Some(0) => rack.charged(Penalty::NoMeld),
                        Some(1) => rack.charged(Penalty::RefusedMeld),
                        Some(_) => rack.charged(Penalty::Knocked),
                        None => rack,
                    }
                })
                .collect()
        })
}

/// A recorded card of three games, as a volunteer would type the computed
/// results: scores printed with at most two decimals.
fn recorded(games: &[(Vec<Rack>, Vec<Outcome>)]) -> RawCard {
    let source = Source::file("computed.csv");
    let players = games[0].0.len();
    let seats: Vec<Seat> = Seat::ALL[..players].to_vec();
    let cell = |value: Cell, row: u32, col: u32| RawCell {
        value,
        at: At::cell(row, col),
    };
    RawCard {
        key: CardKey {
            stage: Stage::prelim(),
            session: Label::Num(1),
            table: Label::Num(1),
        },
        layout: Layout::Results,
        source: source.clone(),
        at: At::row(1),
        table_at: At::row(1),
        seats: seats
            .iter()
            .map(|&seat| RawSeat {
                seat,
                player: format!("P{seat}").into(),
                at: At::cell(1, 1),
            })
            .collect(),
        renamed: Vec::new(),
        agreeing: Vec::new(),
        games: games
            .iter()
            .enumerate()
            .map(|(g, (racks, outcomes))| {
                let row = g as u32 + 2;
                RawGame {
                    number: g as u32 + 1,
                    at: At::row(row),
                    lines: seats
                        .iter()
                        .zip(racks.iter().zip(outcomes))
                        .map(|(&seat, (rack, o))| RawLine {
                            seat,
                            won: cell(Cell::Number(f64::from(u8::from(o.won))), row, 1),
                            score: cell(Cell::text(&o.score.signed()), row, 2),
                            tiles: cell(Cell::Number(f64::from(rack.tiles)), row, 3),
                        })
                        .collect(),
                }
            })
            .collect(),
        total: None,
        defective: false,
        lost: Default::default(),
        title: None,
    }
}

fn rules(add: bool) -> Rules {
    let mut rules = Rules::hk();
    if add {
        rules.penalty_mode = PenaltyMode::Add;
    }
    rules
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_game_sums_to_exactly_zero(racks in game(), add in any::<bool>()) {
        let outcomes = score_game(&racks, &rules(add)).unwrap();
        prop_assert_eq!(outcomes.iter().map(|o| o.score).sum::<Score>(), Score::ZERO);
        prop_assert!(outcomes.iter().any(|o| o.won), "every game has a winner");
    }

    #[test]
    fn computed_cards_pass_the_recorded_checks(
        a in game(), b in game(), c in game(), add in any::<bool>(), by_tiles in any::<bool>()
    ) {
        let mut rules = rules(add);
        if by_tiles {
            rules.no_winner_by = tilerank::profile::NoWinnerBy::Tiles;
        }
        // The three games of a card have the same number of players.
        let n = a.len().min(b.len()).min(c.len());
        let games: Vec<(Vec<Rack>, Vec<Outcome>)> = [a, b, c]
            .into_iter()
            .map(|mut racks| {
                racks.truncate(n);
                let outcomes = score_game(&racks, &rules).unwrap();
                (racks, outcomes)
            })
            .collect();
        let mut problems = Problems::new();
        let card = check_card(&recorded(&games), &rules, &mut Roster::open(), &mut problems);
        let listed: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        prop_assert!(card.is_ok(), "{:#?}\n{:?}", listed, games);
    }

    #[test]
    fn the_order_of_the_seats_changes_nothing(racks in game(), rotate in 0usize..4) {
        let rules = Rules::hk();
        let before = score_game(&racks, &rules).unwrap();
        let mut turned = racks.clone();
        let k = rotate % racks.len();
        turned.rotate_left(k);
        let mut after = score_game(&turned, &rules).unwrap();
        after.rotate_right(k);
        prop_assert_eq!(before, after);
    }
}
