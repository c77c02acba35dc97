//! What every fuzz target runs: the library's own entry points for bytes
//! ([`tilerank::ingest::cards_from_bytes`], [`tilerank::ingest::roster::from_bytes`]),
//! the same code as `tilerank check`, then the rules' checks of the cards.
//! A panic, abort, hang or runaway allocation anywhere is a finding.

use tilerank::ingest::limits::Limits;
use tilerank::problem::Problems;
use tilerank::profile::Rules;
use tilerank::roster::Roster;

/// Smaller than the defaults, so that one run stays fast and small; the
/// code paths are the same.
pub fn limits() -> Limits {
    Limits {
        cells: 200_000,
        zip_member_bytes: 16 * 1024 * 1024,
        shared_strings: 100_000,
        sheet_text_bytes: 4 * 1024 * 1024,
        read_seconds: 5,
        ..Limits::default()
    }
}

/// Reads `bytes` as the card file `name` (its extension says CSV or which
/// workbook), then scores rack cards and checks every card as an event does.
pub fn cards(name: &str, bytes: Vec<u8>) {
    let rules = Rules::hk();
    let mut problems = Problems::new();
    let inputs = tilerank::ingest::cards_from_bytes(name, bytes, &limits(), &mut problems);
    let mut raw = inputs.cards;
    for rack_card in inputs.rack_cards {
        raw.extend(tilerank::ingest::racks::score_card(rack_card, &rules, &mut problems));
    }
    let mut roster = Roster::open();
    let checked: Vec<_> = raw
        .iter()
        .filter_map(|r| tilerank::rules::card_checks::check_card(r, &rules, &mut roster, &mut problems))
        .collect();
    tilerank::rules::card_checks::check_clashes(&checked, &roster, &mut problems);
    report(&problems);
}

/// Formats every problem; a reader stopped at its deadline is contained
/// (no crash) but is printed, to be looked at.
pub fn report(problems: &Problems) {
    for p in problems.sorted() {
        let line = p.to_string();
        if line.contains("seconds and was stopped") {
            eprintln!("CONTAINED TIMEOUT: {line}");
        }
    }
}

/// `bytes` after a first line, for the targets of one CSV layout.
pub fn after(header: &str, data: &[u8]) -> Vec<u8> {
    let mut v = header.as_bytes().to_vec();
    v.extend_from_slice(data);
    v
}
