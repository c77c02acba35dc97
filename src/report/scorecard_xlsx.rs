//! Printable score cards in the layout of the printed HK preliminary-round
//! sheet (docs/formats.md, "Score card layout"), one worksheet per table:
//!
//! ```text
//! Rummikub ... Preliminary Round Score Card
//! Date:            2026-03-28
//! Referee:         ...
//! Session number:  1
//! Table number:    7
//! Age group:       65-79        (only when the card has one)
//! Name   | Chan Tai Man (B:D merged) | Lee Siu Ming (E:G) | ... (H:J) | (D) (K:M)
//!        | Game Won (1/0) | Score (+/-) | Tiles on rack | ... for B, C, D
//!          (Penalty points in place of Score (+/-) under penalty points)
//! Game 1 | 1 | +30 | 0 | 0 | -5 | 1 | ...
//! Game 2 | ...
//! Game 3 | ...
//! Total  | =SUM(..) with its value saved
//! Participant Signature | ...
//! Remark:
//! ```
//!
//! The same writer serves filled cards (the scores of a session) and blank
//! cards (names only, or nothing at all): a seat without a player prints its
//! placeholder `(A)`..`(D)`, a game line that is `None` prints blank cells.
//! What came from input (names, referee, date) is always written as text,
//! so a name beginning with `=` never becomes a formula. The file is the same
//! byte for byte for the same cards: its creation time is taken from the
//! first card's date, not from the clock.

use super::words::{fill, Lang, Words};
use crate::domain::Label;
use crate::profile::Scoring;
use crate::score::Score;
use rust_xlsxwriter::{
    utility::cell_range, ColNum, DocProperties, ExcelDateTime, Format, FormatAlign, FormatBorder,
    Formula, Image, RowNum, Workbook, Worksheet, XlsxError,
};
use std::collections::HashSet;
use std::path::Path;

/// One seat's values in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintLine {
    pub won: bool,
    pub score: Score,
    /// Tiles left; `None` prints a blank cell (a knocked rack not counted).
    pub tiles: Option<u16>,
}

/// One table's card in one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintCard {
    /// The title line, e.g. "Rummikub 75th Anniversary Party & Player
    /// Tournament Preliminary Round Score Card".
    pub title: String,
    /// Written as given, e.g. "2026-03-28"; `None` leaves the line blank.
    pub date: Option<String>,
    pub referee: Option<String>,
    /// Written as a number when it is one ("1"), else as text.
    pub session: String,
    /// Written as a number when it is one ("7"), else as text.
    pub table: String,
    /// The age group, on its own line under the table number, for events
    /// whose groups play apart (NVSO); `None` prints no line.
    pub group: Option<String>,
    /// The player of each seat A..D as the Name row shows them (roster id or
    /// name); `None`: nobody sits there, the placeholder `(C)` is printed.
    pub seats: [Option<String>; 4],
    /// One row per game (`Game 1`, `Game 2`, ...), one entry per seat; `None`
    /// prints blank cells (the seat did not play that game, or a blank card).
    /// A blank card for 3 games has three rows of `None`.
    pub games: Vec<[Option<PrintLine>; 4]>,
    /// Write a `Total` row of `=SUM(..)` formulas (with their values saved).
    pub total: bool,
    /// A blank card of a seating made while who goes on can still change
    /// (`seating --allow-incomplete`): what is still to come (`275 cards
    /// missing`), said in bold under the title; `None` prints no line.
    pub provisional: Option<String>,
}

/// Rows (0-based) of the sheet's parts.
const TITLE_ROW: RowNum = 0;
const DATE_ROW: RowNum = 2;
const NAME_ROW: RowNum = 7;
const SUBHEADER_ROW: RowNum = 8;
const FIRST_GAME_ROW: RowNum = 9;
/// Column A holds the labels; seat `s` uses the three columns from `1 + 3s`.
const LAST_COL: ColNum = 12;

/// What printed cards carry besides their own lines.
#[derive(Clone, Debug, Default)]
pub struct CardExtras {
    /// The language of the labels (the words of [`Words`]).
    pub lang: Lang,
    /// How the event scores a game: under penalty points (`gwinnett`) the
    /// score's column says "Penalty points", not "Score (+/-)", and its
    /// values print without a sign.
    pub scoring: Scoring,
    /// Each card's table page on the results site (by the card's place
    /// in the list), printed as a QR code; none, no code.
    pub pages: Vec<Option<String>>,
}

/// Creation time used when no card has a `YYYY-MM-DD` date.
const FALLBACK_DATE: (u16, u8, u8) = (2026, 1, 1);

/// Writes `cards` to `path`, one worksheet per card, named `Table 07`, or
/// `S01 T07` when two cards of the workbook share a table number (in
/// Chinese `第7枱`, `第1節 第7枱`). The file
/// is written whole or not at all.
pub fn write_cards(cards: &[PrintCard], path: &Path) -> Result<(), XlsxError> {
    write_cards_with(cards, &CardExtras::default(), path)
}

/// [`write_cards`] in a language, with QR codes of the tables' pages.
pub fn write_cards_with(
    cards: &[PrintCard],
    extras: &CardExtras,
    path: &Path,
) -> Result<(), XlsxError> {
    let bytes = cards_workbook_with(cards, extras)?;
    super::output::write_atomically(path, &bytes).map_err(XlsxError::IoError)
}

/// The score cards' workbook, as bytes.
pub fn cards_workbook(cards: &[PrintCard]) -> Result<Vec<u8>, XlsxError> {
    cards_workbook_with(cards, &CardExtras::default())
}

/// [`cards_workbook`] in a language, with QR codes of the tables' pages.
pub fn cards_workbook_with(cards: &[PrintCard], extras: &CardExtras) -> Result<Vec<u8>, XlsxError> {
    let mut workbook = Workbook::new();
    let (y, m, d) = cards
        .iter()
        .find_map(|c| c.date.as_deref().and_then(parse_ymd))
        .unwrap_or(FALLBACK_DATE);
    let created = ExcelDateTime::from_ymd(y, m, d)?;
    let mut properties = DocProperties::new()
        .set_creation_datetime(&created)
        .set_author("tilerank");
    if let Some(first) = cards.first() {
        properties = properties.set_title(first.title.clone());
    }
    workbook.set_properties(&properties);

    let formats = Formats::new();
    let names = sheet_names(cards, extras.lang);
    let words = extras.lang.words();
    for (i, (card, name)) in cards.iter().zip(names).enumerate() {
        let sheet = workbook.add_worksheet();
        sheet.set_name(name)?;
        write_card(sheet, card, &formats, words, extras.scoring)?;
        if let Some(page) = extras.pages.get(i).and_then(Option::as_deref) {
            write_qr(sheet, page, &formats, words)?;
        }
    }
    workbook.save_to_buffer()
}

struct Formats {
    title: Format,
    label: Format,
    value: Format,
    name: Format,
    name_placeholder: Format,
    subheader: Format,
    row_label: Format,
    cell: Format,
    whole_score: Format,
    tenths_score: Format,
    fraction_score: Format,
    /// Penalty points: never minus, printed without a sign.
    whole_points: Format,
    tenths_points: Format,
    fraction_points: Format,
    signature: Format,
    remark: Format,
    qr_caption: Format,
    provisional: Format,
}

impl Formats {
    fn new() -> Formats {
        let boxed = Format::new()
            .set_border(FormatBorder::Thin)
            .set_align(FormatAlign::Center)
            .set_align(FormatAlign::VerticalCenter);
        Formats {
            title: Format::new()
                .set_bold()
                .set_font_size(14)
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter),
            label: Format::new()
                .set_bold()
                .set_align(FormatAlign::VerticalCenter),
            value: Format::new()
                .set_border_bottom(FormatBorder::Thin)
                .set_align(FormatAlign::Left)
                .set_align(FormatAlign::VerticalCenter),
            name: boxed.clone().set_bold().set_text_wrap(),
            name_placeholder: boxed.clone().set_font_color(rust_xlsxwriter::Color::Gray),
            subheader: boxed.clone().set_bold().set_text_wrap().set_font_size(9),
            row_label: Format::new()
                .set_bold()
                .set_border(FormatBorder::Thin)
                .set_align(FormatAlign::VerticalCenter)
                .set_text_wrap(),
            cell: boxed.clone().set_num_format("0"),
            whole_score: boxed.clone().set_num_format("+0;-0;0"),
            tenths_score: boxed.clone().set_num_format("+0.0;-0.0;0"),
            fraction_score: boxed.clone().set_num_format("+0.00;-0.00;0"),
            whole_points: boxed.clone().set_num_format("0"),
            tenths_points: boxed.clone().set_num_format("0.0"),
            fraction_points: boxed.clone().set_num_format("0.00"),
            signature: boxed,
            remark: Format::new().set_italic().set_font_size(9),
            qr_caption: Format::new()
                .set_align(FormatAlign::Right)
                .set_align(FormatAlign::Top)
                .set_font_size(9),
            provisional: Format::new()
                .set_bold()
                .set_font_size(12)
                .set_font_color(rust_xlsxwriter::Color::Red)
                .set_border(FormatBorder::Medium)
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter),
        }
    }

    /// `+30`, `+5.5`, `+3.33`: no more decimals than the score needs (a
    /// single `+0.##` format would print `+30.` in Excel); penalty points
    /// as they are, `34`.
    fn score(&self, score: &Score, scoring: Scoring) -> &Format {
        let h = score.hundredths();
        let decimals = if h % 100 == 0 {
            0
        } else if h % 10 == 0 {
            1
        } else {
            2
        };
        match (scoring, decimals) {
            (Scoring::ZeroSum, 0) => &self.whole_score,
            (Scoring::ZeroSum, 1) => &self.tenths_score,
            (Scoring::ZeroSum, _) => &self.fraction_score,
            (Scoring::PenaltyPoints, 0) => &self.whole_points,
            (Scoring::PenaltyPoints, 1) => &self.tenths_points,
            (Scoring::PenaltyPoints, _) => &self.fraction_points,
        }
    }
}

/// A seat with a player written in the Name row.
fn seated(card: &PrintCard, seat: usize) -> bool {
    card.seats[seat]
        .as_deref()
        .is_some_and(|p| !p.trim().is_empty())
}

fn seat_col(seat: usize) -> ColNum {
    1 + 3 * seat as ColNum
}

/// The QR code of `page` at the card's top right, with its caption.
fn write_qr(sheet: &mut Worksheet, page: &str, f: &Formats, w: &Words) -> Result<(), XlsxError> {
    let code = qrcode::QrCode::new(page.as_bytes())
        .map_err(|e| XlsxError::ParameterError(format!("{page}: no QR code: {e}")))?;
    // (at most about 125 pixels a side: the rows from the date to the
    // table number at 96 dots per inch)
    let png = super::qr::modules_png(code.width(), &code.to_colors(), 125);
    let image = Image::new_from_buffer(&png)?.set_alt_text(page);
    sheet.merge_range(DATE_ROW, 6, DATE_ROW, 9, w.card_qr, &f.qr_caption)?;
    sheet.insert_image_with_offset(DATE_ROW, 10, &image, 8, 0)?;
    Ok(())
}

fn write_card(
    sheet: &mut Worksheet,
    card: &PrintCard,
    f: &Formats,
    w: &Words,
    scoring: Scoring,
) -> Result<(), XlsxError> {
    // Page: one landscape A4 sheet.
    sheet
        .set_landscape()
        .set_paper_size(9)
        .set_print_fit_to_pages(1, 1)
        .set_print_center_horizontally(true)
        .set_margins(0.4, 0.4, 0.5, 0.5, 0.3, 0.3);
    sheet.set_screen_gridlines(false);
    sheet.set_formula_result_default("");
    sheet.set_column_width(0, 22)?;
    sheet.set_column_range_width(1, LAST_COL, 11)?;

    // Title.
    sheet.set_row_height(TITLE_ROW, 24)?;
    sheet.merge_range(TITLE_ROW, 0, TITLE_ROW, LAST_COL, &card.title, &f.title)?;
    // A provisional seating: said on the line under the title, in bold.
    if let Some(still) = &card.provisional {
        // (what is still to come is made in English, and said in the
        // card's language as the site says it)
        let still = super::site::said::say(w.lang, still);
        let text = fill(w.card_provisional, &[&still]);
        sheet.set_row_height(TITLE_ROW + 1, 20)?;
        sheet.merge_range(
            TITLE_ROW + 1,
            0,
            TITLE_ROW + 1,
            LAST_COL,
            &text,
            &f.provisional,
        )?;
    }

    // Date, referee, session, table: label in A, value in B (B:E merged).
    let labels: [(&str, Option<&str>); 4] = [
        (w.card_date, card.date.as_deref()),
        (w.card_referee, card.referee.as_deref()),
        (w.card_session, Some(card.session.as_str())),
        (w.card_table, Some(card.table.as_str())),
    ];
    let group = card.group.as_deref().filter(|g| !g.trim().is_empty());
    let labels = labels
        .into_iter()
        .chain(group.map(|g| (w.card_group, Some(g))));
    for (i, (label, value)) in labels.enumerate() {
        let row = DATE_ROW + i as RowNum;
        sheet.set_row_height(row, 20)?;
        sheet.write_string_with_format(row, 0, label, &f.label)?;
        let value = value.unwrap_or("");
        sheet.merge_range(row, 1, row, 4, "", &f.value)?;
        let numeric = (2..4).contains(&i) && is_number(value);
        if numeric {
            sheet.write_number_with_format(
                row,
                1,
                value.trim().parse::<f64>().unwrap_or(0.0),
                &f.value,
            )?;
        } else if !value.is_empty() {
            sheet.write_string_with_format(row, 1, value, &f.value)?;
        }
    }

    // Name row: each seat's player across its three columns.
    sheet.set_row_height(NAME_ROW, 34)?;
    sheet.write_string_with_format(NAME_ROW, 0, w.card_name, &f.row_label)?;
    for (s, seat) in card.seats.iter().enumerate() {
        let c = seat_col(s);
        match seat.as_deref().filter(|_| seated(card, s)) {
            Some(player) => sheet.merge_range(NAME_ROW, c, NAME_ROW, c + 2, player, &f.name)?,
            None => {
                let placeholder = format!("({})", (b'A' + s as u8) as char);
                sheet.merge_range(
                    NAME_ROW,
                    c,
                    NAME_ROW,
                    c + 2,
                    &placeholder,
                    &f.name_placeholder,
                )?
            }
        };
    }

    // Sub-header.
    sheet.set_row_height(SUBHEADER_ROW, 30)?;
    sheet.write_blank(SUBHEADER_ROW, 0, &f.row_label)?;
    for s in 0..4 {
        for (k, text) in w.card_subheaders_for(scoring).iter().enumerate() {
            sheet.write_string_with_format(
                SUBHEADER_ROW,
                seat_col(s) + k as ColNum,
                *text,
                &f.subheader,
            )?;
        }
    }

    // Games.
    for (g, lines) in card.games.iter().enumerate() {
        let row = FIRST_GAME_ROW + g as RowNum;
        sheet.set_row_height(row, 30)?;
        let n = g + 1;
        sheet.write_string_with_format(row, 0, fill(w.card_game, &[&n, &n]), &f.row_label)?;
        for (s, line) in lines.iter().enumerate() {
            let c = seat_col(s);
            match line {
                Some(line) => {
                    sheet.write_number_with_format(row, c, u8::from(line.won), &f.cell)?;
                    sheet.write_number_with_format(
                        row,
                        c + 1,
                        line.score.to_f64(),
                        f.score(&line.score, scoring),
                    )?;
                    match line.tiles {
                        Some(t) => sheet.write_number_with_format(row, c + 2, t, &f.cell)?,
                        None => sheet.write_blank(row, c + 2, &f.cell)?,
                    };
                }
                None => {
                    for k in 0..3 {
                        sheet.write_blank(row, c + k, &f.cell)?;
                    }
                }
            }
        }
    }
    let mut row = FIRST_GAME_ROW + card.games.len() as RowNum;

    // Total: formulas with their values saved, so that a reader that does
    // not compute formulas sees the values.
    if card.total {
        sheet.set_row_height(row, 30)?;
        sheet.write_string_with_format(row, 0, w.card_total, &f.row_label)?;
        for s in 0..4 {
            let c = seat_col(s);
            let lines: Vec<&PrintLine> = card.games.iter().filter_map(|g| g[s].as_ref()).collect();
            for k in 0..3 {
                if !seated(card, s) || card.games.is_empty() {
                    sheet.write_blank(row, c + k, &f.cell)?;
                    continue;
                }
                let range = cell_range(FIRST_GAME_ROW, c + k, row - 1, c + k);
                if lines.is_empty() {
                    // A blank card: the total appears once values are typed;
                    // until then its saved value is blank (not rust_xlsxwriter's
                    // default 0, see `set_formula_result_default` above).
                    let formula = Formula::new(format!("IF(COUNT({range})=0,\"\",SUM({range}))"));
                    sheet.write_formula_with_format(row, c + k, formula, &f.cell)?;
                    continue;
                }
                let (result, format) = match k {
                    0 => {
                        let won = lines.iter().filter(|l| l.won).count();
                        (won.to_string(), &f.cell)
                    }
                    1 => {
                        let total: Score = lines.iter().map(|l| l.score).sum();
                        (total.to_f64().to_string(), f.score(&total, scoring))
                    }
                    _ => {
                        let tiles: u32 = lines.iter().filter_map(|l| l.tiles).map(u32::from).sum();
                        (tiles.to_string(), &f.cell)
                    }
                };
                let formula = Formula::new(format!("SUM({range})")).set_result(result);
                sheet.write_formula_with_format(row, c + k, formula, format)?;
            }
        }
        row += 1;
    }

    // Signatures.
    sheet.set_row_height(row, 48)?;
    sheet.write_string_with_format(row, 0, w.card_signature, &f.row_label)?;
    for s in 0..4 {
        let c = seat_col(s);
        sheet.merge_range(row, c, row, c + 2, "", &f.signature)?;
    }
    row += 2;

    // Remark.
    sheet.write_string_with_format(row, 0, w.card_remark_label, &f.label)?;
    sheet.write_string_with_format(row + 1, 0, w.card_remark, &f.remark)?;

    sheet.set_print_area(0, 0, row + 1, LAST_COL)?;
    Ok(())
}

/// A whole number as people write one (`7`, `07`): written as a number.
fn is_number(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit())
}

/// `YYYY-MM-DD` (or `YYYY/MM/DD`) to a date, for the creation time.
fn parse_ymd(text: &str) -> Option<(u16, u8, u8)> {
    let mut parts = text.trim().split(['-', '/']);
    let y: u16 = parts.next()?.parse().ok()?;
    let m: u8 = parts.next()?.parse().ok()?;
    let d: u8 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1900..=9999).contains(&y) {
        return None;
    }
    ExcelDateTime::from_ymd(y, m, d).ok().map(|_| (y, m, d))
}

/// `07` for a numeric label (`7` without `pad`), else the label's text.
fn label_text(label: Option<Label>, raw: &str, pad: bool) -> String {
    match label {
        Some(Label::Num(n)) if pad => format!("{n:02}"),
        Some(Label::Num(n)) => n.to_string(),
        Some(Label::Text(t)) => t,
        None => raw.trim().to_string(),
    }
}

/// Sheet names in `lang`'s words: `Table 07` (`第7枱`); `S01 T07` (`第1節
/// 第7枱`) when a table number repeats in the workbook; always valid for
/// Excel (at most 31 characters, none of `[]:*?/\`, no leading or trailing
/// apostrophe) and unique. A number has two digits in English (`Table 07`)
/// and is as said in Chinese (`第7枱`, not `第07枱`).
fn sheet_names(cards: &[PrintCard], lang: Lang) -> Vec<String> {
    let w = lang.words();
    let pad = lang == Lang::En;
    let tables: Vec<Option<Label>> = cards.iter().map(|c| Label::table(&c.table)).collect();
    let mut seen = HashSet::new();
    let tables_unique = tables.iter().all(|t| seen.insert(t.clone()));
    let mut used: HashSet<String> = HashSet::new();
    cards
        .iter()
        .zip(tables)
        .map(|(card, table)| {
            let table = label_text(table, &card.table, pad);
            let base = if tables_unique {
                fill(w.card_sheet, &[&table])
            } else {
                let session = label_text(Label::session(&card.session), &card.session, pad);
                fill(w.card_sheet_session, &[&session, &table])
            };
            unique_sheet_name(&sanitize_sheet_name(&base), &mut used)
        })
        .collect()
}

fn sanitize_sheet_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| match c {
            '[' | ']' | ':' | '*' | '?' | '/' | '\\' => '-',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    let cleaned = cleaned.trim().trim_matches('\'').trim().to_string();
    if cleaned.is_empty() || cleaned.eq_ignore_ascii_case("history") {
        format!("Card {cleaned}").trim().to_string()
    } else {
        cleaned
    }
}

/// Cuts a name to at most `max` UTF-16 units (Excel's measure).
fn truncate_utf16(name: &str, max: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for c in name.chars() {
        len += c.len_utf16();
        if len > max {
            break;
        }
        out.push(c);
    }
    out.trim_end().trim_end_matches('\'').to_string()
}

fn unique_sheet_name(base: &str, used: &mut HashSet<String>) -> String {
    let mut n = 1;
    loop {
        let name = if n == 1 {
            truncate_utf16(base, 31)
        } else {
            let suffix = format!(" ({n})");
            format!("{}{suffix}", truncate_utf16(base, 31 - suffix.len()))
        };
        if used.insert(name.to_lowercase()) {
            return name;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Label, Seat};
    use crate::ingest::read_cards;
    use crate::problem::Problems;
    use crate::profile::Rules;
    use crate::roster::{Player, Roster};
    use crate::rules::card_checks::check_card;
    use std::path::PathBuf;

    fn temp_path(name: &str) -> PathBuf {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        std::env::temp_dir().join(format!(
            "tilerank-scorecard-{name}-{}-{nanos}.xlsx",
            std::process::id()
        ))
    }

    fn line(won: bool, score: Score, tiles: Option<u16>) -> Option<PrintLine> {
        Some(PrintLine { won, score, tiles })
    }

    fn w(n: i64) -> Score {
        Score::whole(n)
    }

    /// Game 1: docs/rules.md Example 2; game 2: someone went out, a knocked
    /// rack; game 3: a pot split three ways, seat D gone (withdrawn).
    fn sample_card() -> PrintCard {
        let third = Score::ratio(10, 3);
        PrintCard {
            title:
                "Rummikub 75th Anniversary Party & Player Tournament Preliminary Round Score Card"
                    .into(),
            date: Some("2026-03-28".into()),
            referee: Some("Karen Leung".into()),
            session: "1".into(),
            table: "7".into(),
            group: None,
            seats: [
                Some("Chan Tai Man".into()),
                Some("P0002".into()),
                Some("=Wong Ka Yan".into()),
                Some("李小明".into()),
            ],
            games: vec![
                [
                    line(false, w(11), Some(3)),
                    line(true, w(11), Some(1)),
                    line(false, w(-12), Some(2)),
                    line(false, w(-10), Some(4)),
                ],
                [
                    line(true, w(253), Some(0)),
                    line(false, w(-37), Some(3)),
                    line(false, w(-200), None),
                    line(false, w(-16), Some(2)),
                ],
                [
                    line(true, third, Some(2)),
                    line(true, third, Some(2)),
                    line(false, Score::ratio(-20, 3), Some(3)),
                    None,
                ],
            ],
            total: true,
            provisional: None,
        }
    }

    fn roster() -> Roster {
        let mut r = Roster::default();
        for (id, name) in [
            ("P0001", "Chan Tai Man"),
            ("P0002", "Lee Siu Ming"),
            ("P0003", "=Wong Ka Yan"),
            ("P0004", "李小明"),
        ] {
            r.add(Player::named(id, name)).unwrap();
        }
        r
    }

    #[test]
    fn a_filled_card_reads_back_through_the_crate_reader() {
        filled_card_reads_back(&CardExtras::default());
    }

    /// In Chinese, with a QR code: the reader still reads every label it
    /// needs, and the code is there, named by its page.
    #[test]
    fn a_chinese_card_with_a_qr_code_reads_back_too() {
        let page = "https://results.example.org/hk-2026/t/prelim-S01-T7.html";
        let extras = CardExtras {
            lang: Lang::ZhHant,
            pages: vec![Some(page.to_string())],
            ..CardExtras::default()
        };
        let path = filled_card_reads_back(&extras);
        let bytes = cards_workbook_with(&[sample_card()], &extras).unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let names: Vec<String> = (0..zip.len())
            .map(|i| zip.by_index(i).unwrap().name().unwrap().to_string())
            .collect();
        assert!(
            names.iter().any(|n| n == "xl/media/image1.png"),
            "{names:?}"
        );
        let mut drawing = String::new();
        std::io::Read::read_to_string(
            &mut zip.by_name("xl/drawings/drawing1.xml").unwrap(),
            &mut drawing,
        )
        .unwrap();
        assert!(drawing.contains(&format!("descr=\"{page}\"")), "{drawing}");
        let mut sheet = String::new();
        std::io::Read::read_to_string(
            &mut zip.by_name("xl/sharedStrings.xml").unwrap(),
            &mut sheet,
        )
        .unwrap();
        for word in [ZH.card_name, ZH.card_total, ZH.card_qr, ZH.card_remark] {
            assert!(sheet.contains(word), "{word} is not on the card");
        }
        // the table number in Hong Kong's word, which the reader reads back
        assert!(sheet.contains("Table number (枱號):") && !sheet.contains("桌號"));
        let _ = path;
    }

    use crate::report::words::ZH_HANT as ZH;

    /// Under penalty points (gwinnett) the score's column says "Penalty
    /// points" and its values print without a sign; the card reads back
    /// through the crate's reader and passes gwinnett's checks, line for
    /// line. A zero-sum card keeps "Score (+/-)".
    #[test]
    fn a_penalty_points_card_says_so_and_reads_back() {
        use std::io::Read;
        // The Gwinnett demo's prelim table 1 (A went out in game 3, B in
        // games 1 and 2).
        let p = |won: bool, points: i64, tiles: u16| line(won, w(points), Some(tiles));
        let card = PrintCard {
            title: "Gwinnett Preliminary Round Score Card".into(),
            seats: [
                Some("Chan Tai Man".into()),
                Some("P0002".into()),
                Some("=Wong Ka Yan".into()),
                None,
            ],
            games: vec![
                [p(false, 29, 5), p(true, 0, 0), p(false, 38, 5), None],
                [p(false, 2, 1), p(true, 0, 0), p(false, 64, 7), None],
                [p(true, 0, 0), p(false, 20, 6), p(false, 40, 4), None],
            ],
            ..sample_card()
        };
        let extras = CardExtras {
            scoring: Scoring::PenaltyPoints,
            ..CardExtras::default()
        };
        for (lang, header) in [
            (Lang::En, "Penalty points"),
            (Lang::ZhHant, "Penalty points (罰分)"),
        ] {
            let extras = CardExtras {
                lang,
                ..extras.clone()
            };
            let path = temp_path("penalty");
            write_cards_with(std::slice::from_ref(&card), &extras, &path).unwrap();
            use calamine::Reader;
            let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).unwrap();
            let sheet = book.sheet_names()[0].clone();
            let range = book.worksheet_range(&sheet).unwrap();
            for seat in 0..4 {
                let at = (SUBHEADER_ROW, seat_col(seat) as u32 + 1);
                assert_eq!(
                    range.get_value(at),
                    Some(&calamine::Data::String(header.into())),
                    "{lang} seat {seat}"
                );
            }
            let mut zip = zip::ZipArchive::new(std::fs::File::open(&path).unwrap()).unwrap();
            let mut styles = String::new();
            zip.by_name("xl/styles.xml")
                .unwrap()
                .read_to_string(&mut styles)
                .unwrap();
            assert!(!styles.contains("+0"), "a signed format: {styles}");

            let mut problems = Problems::new();
            let inputs = read_cards(std::slice::from_ref(&path), &mut problems).unwrap();
            assert!(!problems.has_errors(), "{:?}", problems.sorted());
            let mut r = roster();
            let rules = crate::profile::ProfileName::named("gwinnett").rules();
            let checked = check_card(&inputs.cards[0], &rules, &mut r, &mut problems);
            assert!(!problems.has_errors(), "{lang}: {:?}", problems.sorted());
            let checked = checked.expect("the card passes gwinnett's checks");
            for (g, want) in checked.games.iter().zip(&card.games) {
                for (s, line) in want.iter().enumerate() {
                    let Some(line) = line else { continue };
                    let got = g.results.iter().find(|r| r.seat == Seat::ALL[s]).unwrap();
                    assert_eq!(
                        (got.won, got.score, got.tiles),
                        (line.won, line.score, line.tiles)
                    );
                }
            }
            std::fs::remove_file(&path).ok();
        }
        // zero-sum: the sub-header as printed on HK's card
        let path = temp_path("zero-sum");
        write_cards(&[sample_card()], &path).unwrap();
        use calamine::Reader;
        let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).unwrap();
        let sheet = book.sheet_names()[0].clone();
        let range = book.worksheet_range(&sheet).unwrap();
        assert_eq!(
            range.get_value((SUBHEADER_ROW, 2)),
            Some(&calamine::Data::String("Score (+/-)".into()))
        );
        std::fs::remove_file(&path).ok();
    }

    /// A Chinese card's title is Chinese, and the reader takes the stage
    /// from it: a final's card read back is the final's.
    #[test]
    fn a_chinese_title_reads_back_as_its_stage() {
        let path = temp_path("zh-final");
        let mut card = sample_card();
        card.title = crate::report::cards::card_title_in(
            "Rummikub HK 2026",
            &crate::domain::Stage::new("final"),
            Lang::ZhHant,
            &["prelim".to_string(), "final".to_string()],
        );
        let extras = CardExtras {
            lang: Lang::ZhHant,
            ..CardExtras::default()
        };
        write_cards_with(std::slice::from_ref(&card), &extras, &path).unwrap();
        use calamine::Reader;
        let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).unwrap();
        let sheet = book.sheet_names()[0].clone();
        let range = book.worksheet_range(&sheet).unwrap();
        assert_eq!(
            range.get_value((0, 0)),
            Some(&calamine::Data::String(
                "Rummikub HK 2026 決賽計分卡".into()
            ))
        );
        let mut problems = Problems::new();
        let inputs = read_cards(std::slice::from_ref(&path), &mut problems).unwrap();
        assert!(!problems.has_errors(), "{:?}", problems.sorted());
        assert_eq!(inputs.cards[0].key.stage.as_str(), "final");
        std::fs::remove_file(&path).ok();
    }

    /// The round trip print → fill → read of an event's own stage
    /// (`quarter`): the title the tool prints is read back as the stage
    /// printed, in English and Chinese; a stage the event does not play is
    /// an error at the title's cell, unless the stage is given.
    #[test]
    fn an_events_own_stage_reads_back_from_the_title() {
        let stages: Vec<String> = ["prelim", "quarter", "final"].map(String::from).to_vec();
        let read = |title: &str, given: Option<&str>| {
            let path = temp_path("own-stage");
            let mut card = sample_card();
            card.title = title.to_string();
            write_cards_with(std::slice::from_ref(&card), &CardExtras::default(), &path).unwrap();
            let mut problems = Problems::new();
            let mut inputs = read_cards(std::slice::from_ref(&path), &mut problems).unwrap();
            inputs.set_stage(given, &stages, &mut problems);
            std::fs::remove_file(&path).ok();
            let errors: Vec<String> = problems.sorted().iter().map(|p| p.to_string()).collect();
            (inputs.cards[0].key.stage.to_string(), errors)
        };
        for (lang, event) in [Lang::En, Lang::ZhHant]
            .into_iter()
            .flat_map(|l| [(l, "Club Open"), (l, "Final of the quarter")])
        {
            for stage in ["prelim", "quarter", "final"] {
                let title = crate::report::cards::card_title_in(
                    event,
                    &crate::domain::Stage::new(stage),
                    lang,
                    &stages,
                );
                let (read, errors) = read(&title, None);
                assert_eq!(read, stage, "{title}");
                assert!(errors.is_empty(), "{title}: {errors:?}");
            }
        }
        assert_eq!(read("Club Quarter-final Score Card", None).0, "quarter");
        // no stage said: the event's first
        assert_eq!(read("Club Score Card", None).0, "prelim");
        let (_, errors) = read("Club Semi-final Score Card", None);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("[Table 07]!A1: error: the title \"Club Semi-final Score Card\" says \"Semi-final\", the semi stage, which is not one of this event's stages (prelim, quarter, final); correct the title, or import the card with --stage"),
            "{errors:?}"
        );
        assert_eq!(
            read("Club Semi-final Score Card", Some("quarter")),
            ("quarter".to_string(), vec![])
        );
    }

    /// Every title the tool prints reads back as the stage printed, for
    /// events of unusual stage names (a `quarter`, a `plate`, a stage
    /// named as the built-in words say another) and event names that say
    /// a stage, in English and Chinese.
    #[test]
    fn every_printed_title_reads_back_as_its_stage() {
        let events: [&[&str]; 4] = [
            &["prelim", "quarter", "final"],
            &["heat", "quarter", "semi", "final"],
            &["prelim", "plate", "final"],
            &["prelim", "semi", "final"],
        ];
        let names = [
            "Club Open",
            "Final of the quarter",
            "Quarter-finals Day",
            "Semi-final and Final Day",
            "Harbour Plate Final",
            "Rummikub HK 2026 Preliminary Round",
            "決賽週 Club",
            "",
        ];
        for stages in events {
            let owned: Vec<String> = stages.iter().map(|s| s.to_string()).collect();
            for name in names {
                for stage in stages {
                    for lang in [Lang::En, Lang::ZhHant] {
                        let stage = crate::domain::Stage::new(stage);
                        let title = crate::report::cards::card_title_in(name, &stage, lang, &owned);
                        // (the reader's own reading, as settle_stage
                        // takes it: a stage said, or none for the first)
                        let read = crate::ingest::scorecard::title_stage(&title, stages)
                            .unwrap_or_else(|| crate::domain::Stage::new(stages[0]));
                        assert_eq!(read, stage, "{title} in {stages:?}");
                    }
                }
            }
        }
    }

    fn filled_card_reads_back(extras: &CardExtras) -> PathBuf {
        let path = temp_path("filled");
        let card = sample_card();
        write_cards_with(std::slice::from_ref(&card), extras, &path).unwrap();

        let mut problems = Problems::new();
        let inputs = read_cards(std::slice::from_ref(&path), &mut problems).unwrap();
        assert!(!problems.has_errors(), "{:?}", problems.sorted());
        assert_eq!(inputs.cards.len(), 1);
        let raw = &inputs.cards[0];
        assert_eq!(raw.key.session, Label::Num(1));
        assert_eq!(raw.key.table, Label::Num(7));
        assert_eq!(raw.key.stage.as_str(), "prelim");
        let names: Vec<&str> = raw.seats.iter().map(|s| s.player.as_str()).collect();
        assert_eq!(names, ["Chan Tai Man", "P0002", "=Wong Ka Yan", "李小明"]);
        assert!(raw.total.is_some());

        let mut r = roster();
        let checked = check_card(raw, &Rules::hk(), &mut r, &mut problems);
        assert!(!problems.has_errors(), "{:?}", problems.sorted());
        let checked = checked.expect("card passes every check");
        assert_eq!(checked.games.len(), 3);
        for (g, want) in checked.games.iter().zip(&card.games) {
            let mut n = 0;
            for (s, line) in want.iter().enumerate() {
                let Some(line) = line else { continue };
                let got = g.results.iter().find(|r| r.seat == Seat::ALL[s]).unwrap();
                assert_eq!(got.player.0 as usize, s);
                assert_eq!(got.won, line.won, "game {} seat {s}", g.number);
                assert_eq!(got.score, line.score, "game {} seat {s}", g.number);
                assert_eq!(got.tiles, line.tiles, "game {} seat {s}", g.number);
                n += 1;
            }
            assert_eq!(g.results.len(), n);
        }
        // Seat D left before game 3: it played two games.
        assert_eq!(checked.games_played(checked.seats[3].player), 2);
        std::fs::remove_file(&path).ok();
        path
    }

    #[test]
    fn totals_are_formulas_with_saved_values() {
        let path = temp_path("totals");
        write_cards(&[sample_card()], &path).unwrap();
        let mut problems = Problems::new();
        let inputs = read_cards(std::slice::from_ref(&path), &mut problems).unwrap();
        let total = inputs.cards[0].total.clone().unwrap();
        let value = |seat: usize, k: usize| {
            let l = &total.lines[seat];
            [&l.won, &l.score, &l.tiles][k].value.clone()
        };
        use crate::ingest::cell::Cell;
        assert_eq!(value(0, 0), Cell::Number(2.0));
        assert_eq!(
            Score::from_f64(match value(0, 1) {
                Cell::Number(n) => n,
                _ => f64::NAN,
            })
            .unwrap()
            .snap(6),
            Some(w(264) + Score::ratio(10, 3))
        );
        assert_eq!(value(0, 2), Cell::Number(5.0));
        assert_eq!(
            value(2, 2),
            Cell::Number(5.0),
            "a knocked rack's blank tiles are not counted"
        );
        assert_eq!(value(3, 0), Cell::Number(0.0));
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_three_player_table_and_a_blank_card() {
        let path = temp_path("blank");
        let mut three = sample_card();
        three.seats[3] = None;
        three.games = vec![
            [
                line(true, w(30), Some(0)),
                line(false, w(-10), Some(2)),
                line(false, w(-20), Some(5)),
                None
            ];
            3
        ];
        let blank = PrintCard {
            title: "Rummikub Final Score Card".into(),
            date: None,
            referee: None,
            session: "Final".into(),
            table: "1".into(),
            group: Some("65-79".into()),
            seats: [None, None, None, None],
            games: vec![[None, None, None, None]; 3],
            total: true,
            provisional: None,
        };
        let names_only = PrintCard {
            seats: [
                Some("P0001".into()),
                Some("P0002".into()),
                Some("P0003".into()),
                Some(" ".into()),
            ],
            table: "2".into(),
            ..blank.clone()
        };
        write_cards(&[three.clone(), blank, names_only], &path).unwrap();
        let mut problems = Problems::new();
        let inputs = read_cards(std::slice::from_ref(&path), &mut problems).unwrap();
        // (the blank card and the one of names only are blank as printed,
        // their totals formulas with no saved value: each skipped, named)
        assert_eq!(inputs.cards.len(), 1);
        let raw = &inputs.cards[0];
        assert_eq!(raw.seats.len(), 3, "(D) is a placeholder");
        let skipped: Vec<String> = problems
            .iter()
            .map(|p| p.to_string())
            .filter(|p| p.contains("nothing typed yet"))
            .collect();
        for table in ["table 1", "table 2"] {
            let said = format!("{table}: nothing typed yet");
            assert!(
                skipped
                    .iter()
                    .any(|p| p.contains(": warning: final session") && p.contains(&said)),
                "{said}: {skipped:?}"
            );
        }
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        let mut problems = Problems::new();
        let mut r = roster();
        let checked = check_card(raw, &Rules::hk(), &mut r, &mut problems).unwrap();
        assert!(!problems.has_errors(), "{:?}", problems.sorted());
        assert!(checked.games.iter().all(|g| g.results.len() == 3));
        std::fs::remove_file(&path).ok();
    }

    /// A card of a provisional seating says so under its title, and reads
    /// back as the same card: filled in and typed, it is the final's card.
    #[test]
    fn a_provisional_card_says_so_and_reads_as_the_card() {
        let (plain, marked) = (temp_path("plain"), temp_path("provisional"));
        let mut card = sample_card();
        card.title = "Rummikub Final Score Card".into();
        write_cards(std::slice::from_ref(&card), &plain).unwrap();
        card.provisional = Some("275 cards missing".into());
        write_cards(std::slice::from_ref(&card), &marked).unwrap();
        let mut problems = Problems::new();
        let read = |path: &std::path::PathBuf, problems: &mut Problems| {
            let inputs = read_cards(std::slice::from_ref(path), problems).unwrap();
            assert_eq!(inputs.cards.len(), 1);
            let mut r = roster();
            check_card(&inputs.cards[0], &Rules::hk(), &mut r, problems).unwrap()
        };
        let (a, b) = (read(&plain, &mut problems), read(&marked, &mut problems));
        assert!(!problems.has_errors(), "{:?}", problems.sorted());
        assert_eq!(b.key, a.key);
        assert_eq!(b.key.stage.as_str(), "final");
        let lines = |c: &crate::domain::Card| -> Vec<(bool, Score, Option<u16>)> {
            c.games
                .iter()
                .flat_map(|g| g.results.iter().map(|r| (r.won, r.score, r.tiles)))
                .collect()
        };
        assert_eq!(lines(&b), lines(&a));
        use calamine::Reader;
        let mut book: calamine::Xlsx<_> = calamine::open_workbook(&marked).unwrap();
        let sheet = book.sheet_names()[0].clone();
        let range = book.worksheet_range(&sheet).unwrap();
        let under_title = range.get_value((1, 0)).cloned();
        assert_eq!(
            under_title,
            Some(calamine::Data::String("PROVISIONAL SEATING (275 cards missing): who goes on can still change. Check this table against the final seating before play.".into()))
        );
        // In Chinese, what is still to come is said in Chinese too.
        let zh = CardExtras {
            lang: Lang::ZhHant,
            ..CardExtras::default()
        };
        write_cards_with(std::slice::from_ref(&card), &zh, &marked).unwrap();
        let mut book: calamine::Xlsx<_> = calamine::open_workbook(&marked).unwrap();
        let range = book.worksheet_range("第7枱").unwrap();
        assert_eq!(
            range.get_value((1, 0)).cloned(),
            Some(calamine::Data::String("PROVISIONAL SEATING 臨時座位（欠交 275 張計分卡）：晉級名單仍可能改變，比賽前請核對最終座位。".into()))
        );
        std::fs::remove_file(&plain).ok();
        std::fs::remove_file(&marked).ok();
    }

    #[test]
    fn the_same_cards_write_the_same_bytes() {
        let (a, b) = (temp_path("same-a"), temp_path("same-b"));
        write_cards(&[sample_card()], &a).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1100));
        write_cards(&[sample_card()], &b).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        std::fs::remove_file(&a).ok();
        std::fs::remove_file(&b).ok();
    }

    #[test]
    fn sheet_names_are_unique_and_valid() {
        let card = |session: &str, table: &str| PrintCard {
            session: session.into(),
            table: table.into(),
            ..sample_card()
        };
        let en = |cards: &[PrintCard]| sheet_names(cards, Lang::En);
        assert_eq!(
            en(&[card("1", "1"), card("1", "2"), card("1", "25")]),
            ["Table 01", "Table 02", "Table 25"]
        );
        assert_eq!(
            en(&[card("1", "7"), card("2", "07"), card("S03", "T7")]),
            ["S01 T07", "S02 T07", "S03 T07"]
        );
        assert_eq!(
            en(&[card("1", "7"), card("1", "7")]),
            ["S01 T07", "S01 T07 (2)"]
        );
        let odd = en(&[card("1", "'Blue/Red: a very long table name indeed'")]);
        assert!(
            rust_xlsxwriter::utility::check_sheet_name(&odd[0]).is_ok(),
            "{odd:?}"
        );
        // In Chinese, as Hong Kong says a table: 第7枱, no zero added.
        let zh = |cards: &[PrintCard]| sheet_names(cards, Lang::ZhHant);
        assert_eq!(
            zh(&[card("1", "1"), card("1", "2"), card("1", "25")]),
            ["第1枱", "第2枱", "第25枱"]
        );
        assert_eq!(
            zh(&[card("1", "7"), card("2", "07"), card("S03", "T7")]),
            ["第1節 第7枱", "第2節 第7枱", "第3節 第7枱"]
        );
        assert_eq!(
            zh(&[card("1", "7"), card("1", "7")]),
            ["第1節 第7枱", "第1節 第7枱 (2)"]
        );
    }

    /// The Chinese cards' workbook imports back: each sheet, `第7枱`, is
    /// the card of that table, and its name reads as that table too.
    #[test]
    fn a_chinese_workbook_of_cards_reads_back_table_by_table() {
        let card = |session: &str, table: &str| PrintCard {
            session: session.into(),
            table: table.into(),
            ..sample_card()
        };
        let zh = CardExtras {
            lang: Lang::ZhHant,
            ..CardExtras::default()
        };
        for (cards, sheets) in [
            (
                vec![card("1", "1"), card("1", "7"), card("1", "12")],
                ["第1枱", "第7枱", "第12枱"],
            ),
            (
                vec![card("1", "7"), card("2", "7"), card("3", "7")],
                ["第1節 第7枱", "第2節 第7枱", "第3節 第7枱"],
            ),
        ] {
            let path = temp_path("zh-sheets");
            write_cards_with(&cards, &zh, &path).unwrap();
            let mut problems = Problems::new();
            let inputs = read_cards(std::slice::from_ref(&path), &mut problems).unwrap();
            std::fs::remove_file(&path).ok();
            assert!(!problems.has_errors(), "{:?}", problems.sorted());
            let read: Vec<(&str, Label, Label)> = inputs
                .cards
                .iter()
                .map(|c| {
                    (
                        c.source.sheet.as_deref().unwrap_or_default(),
                        c.key.session.clone(),
                        c.key.table.clone(),
                    )
                })
                .collect();
            let want: Vec<(&str, Label, Label)> = cards
                .iter()
                .zip(sheets)
                .map(|(c, sheet)| {
                    let session = Label::session(&c.session).unwrap();
                    (sheet, session, Label::table(&c.table).unwrap())
                })
                .collect();
            assert_eq!(read, want);
            for (sheet, _, table) in &read {
                let name = sheet.rsplit(' ').next().unwrap_or_default();
                assert_eq!(Label::table(name).as_ref(), Some(table), "{sheet}");
            }
        }
    }
}
