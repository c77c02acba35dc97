//! Workbooks written by a real spreadsheet program (LibreOffice), not by our
//! own writer: merged Name cells, a SUM formula with its saved value in the
//! Total row, numbers stored as text, a `=10/3` score, a date cell, a notes
//! sheet. Made once by `tests/fixtures/workbooks/make.sh` from the
//! hand-written `card.fods`; the tests read only the committed files.
//!
//! Session 1 table 9: P0009 (by id: the name is shared), Lam Chi Keung,
//! Tsang Yuk Lan, Mak Siu Fung. Game 1: B went out (+35). Game 2: A leads
//! alone (+10). Game 3: A, B and C share a pot of 10 (3.33, 3.33 and =10/3);
//! A and B have 1 tile each, so both won.

use crate::test::Test;

const STANDINGS: &str = "\
rank,player,name,group,games,won,avg_score,total_score,tiles,status,note
1,P0010,Lam Chi Keung,,3,2,11.78,35.33,2,Q,
2,P0009,Wong Ka Yan,,3,2,1.78,5.33,6,Q,
3,P0011,Tsang Yuk Lan,,3,0,-4.22,-12.67,6,Q,
4,P0012,Mak Siu Fung,,3,0,-9.33,-28,12,Q,
";

#[test]
fn xlsx_xls_and_ods_written_by_libreoffice() {
    for book in [
        "workbooks/card.xlsx",
        "workbooks/card.xls",
        "workbooks/card.ods",
    ] {
        Test::new()
            .args(["standings", "--format", "csv"])
            .fixture(book)
            .roster()
            .run()
            .success()
            .errors(0)
            .stderr_has("1 file, 2 sheets: 1 card accepted, 3 games")
            .stdout_is(STANDINGS);
    }
}

/// The committed workbook is what the tests rely on: merged Name cells and
/// a SUM formula in the Total row with its result saved (read with
/// calamine directly, not through the tool).
#[test]
fn the_xlsx_fixture_has_merged_cells_and_saved_formulas() {
    use calamine::{open_workbook, Data, Reader, Xlsx};
    let path = crate::test::fixtures().join("workbooks/card.xlsx");
    let mut book: Xlsx<_> = open_workbook(&path).unwrap();
    let merged: Vec<String> = book
        .merge_cells_by_sheet_name("Table 9")
        .unwrap()
        .iter()
        .map(|d| format!("{:?}-{:?}", d.start, d.end))
        .collect();
    // B6:D6, the Name cell of seat A (0-based rows and columns)
    assert!(merged.contains(&"(5, 1)-(5, 3)".to_string()), "{merged:?}");
    let formulas = book.worksheet_formula("Table 9").unwrap();
    assert_eq!(
        formulas.get_value((10, 2)).map(String::as_str),
        Some("SUM(C8:C10)")
    );
    let values = book.worksheet_range("Table 9").unwrap();
    assert_eq!(values.get_value((10, 2)), Some(&Data::Float(5.33)));
    // seat A's won and tiles are numbers stored as text
    assert_eq!(values.get_value((7, 1)), Some(&Data::String("0".into())));
}

/// Places in a workbook print as `file[sheet]!CELL`.
#[test]
fn an_error_in_a_workbook_names_its_cell() {
    // "−10" typed as text in L10: the tool reads it as -10, the
    // spreadsheet's SUM skipped it, so the saved Total (-18) is wrong: the
    // cell to fix is L10.
    Test::new()
        .arg("check")
        .fixture("workbooks/total-skips-text.xlsx")
        .roster()
        .run()
        .failure(1)
        .errors(1)
        .error_at(
            "workbooks/total-skips-text.xlsx[Table 9]!L10",
            &[
                "score −10 is stored as text, not as a number",
                "the sheet's Total in L11 leaves it out (-18; the games add up to -28)",
            ],
        );
}

/// The same card in two workbooks: one table twice in a session, each card
/// named at the cell of its table number.
#[test]
fn the_same_card_in_two_workbooks_clashes() {
    Test::new()
        .arg("check")
        .fixture("workbooks/card.xlsx")
        .fixture("workbooks/card.ods")
        .roster()
        .run()
        .failure(1)
        .error_at(
            "workbooks/card.ods[Table 9]!B5",
            &[
                "session S01 table 9 is given twice",
                "also at workbooks/card.xlsx[Table 9]!B5",
            ],
        );
}

/// A card's number in a cell its template formats as a date: the same
/// error, naming the number, from the .xlsx (a serial number) and the .ods
/// LibreOffice saved from it (a date kept as text).
#[test]
fn a_number_formatted_as_a_date_is_the_same_error_in_xlsx_and_ods() {
    let roster = crate::test::fixtures().join("../../examples/hk-2026/roster.csv");
    for ext in ["xlsx", "ods"] {
        let book = format!("workbooks/date-formatted-tiles.{ext}");
        Test::new()
            .args(["check", "--roster"])
            .arg(&roster)
            .fixture(&book)
            .run()
            .failure(1)
            .errors(1)
            .error_at(
                &format!("{book}[Table 01]!D10"),
                &["tiles is 22 in a cell formatted as a date (format the cell as a number); expected a whole number of tiles from 0 to 106"],
            );
    }
}
