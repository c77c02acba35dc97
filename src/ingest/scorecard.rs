//! The printed HK preliminary-round score card (FORMATS.md), one table per
//! sheet or CSV file:
//!
//! ```text
//! Rummikub ... Preliminary Round Score Card
//! Session number:  1
//! Table number:    7
//! Name   | Chan Tai Man     | | | Lee Siu Ming | | | (C) | | | (D) | |
//!        | Game Won (1/0) | Score (+/-) | Tiles on rack | ... B, C, D
//! Game 1 | 1 | +30 | 0 | ...
//! Total  | ...
//! Participant Signature | ...
//! ```
//!
//! The seats' columns come from the sub-header (three columns per seat, in
//! any order); each seat's player is the first filled cell of its columns in
//! the `Name` row (merged cells hold it in the first). Rows and columns may
//! be offset by blank ones. Lines after the signature line are not read.

use super::cell::{Cell, Row};
use super::header::normalize;
use super::raw::{CardTitle, Layout, LostLines, RawCard, RawCell, RawGame, RawLine, RawSeat};
use super::text::RowError;
use super::workbook::Merge;
use crate::domain::{CardKey, Label, Seat, SessionName, Stage};
use crate::place::{column_name, At, Source};
use crate::problem::said::{Msg, Part, Said};
use crate::problem::Problems;
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Won,
    Score,
    Tiles,
}

fn field_of(text: &str) -> Option<Field> {
    // (`勝局 1/0`, `得分 +/-` written without brackets: what the card
    // says the value is, after the label)
    let n = normalize(text);
    let n = ["1/0", "+/", "±"]
        .iter()
        .find_map(|what| n.strip_suffix(what))
        .unwrap_or(&n);
    match n {
        "gamewon" | "won" | "game" | "win" | "gamewin" => Some(Field::Won),
        // (tilerank's cards under penalty points say "Penalty points")
        "score" | "scores" | "points" | "penaltypoints" | "penaltypoint" => Some(Field::Score),
        "tilesonrack" | "tileonrack" | "tiles" | "tilesleft" | "tilesonracks" | "tile" => {
            Some(Field::Tiles)
        }
        // the Chinese words of tilerank's own cards (`勝局`, `得分`,
        // `罰分`, `餘牌`), and those volunteers write for them
        "勝局" | "勝出" | "勝" | "贏" | "胜局" | "胜出" | "胜" | "赢" => {
            Some(Field::Won)
        }
        "得分" | "分數" | "分数" | "積分" | "积分" | "罰分" | "罚分" => {
            Some(Field::Score)
        }
        "餘牌" | "剩餘牌數" | "剩餘牌" | "剩牌" | "剩牌數" | "余牌" | "剩余牌数" | "剩余牌"
        | "剩牌数" => Some(Field::Tiles),
        _ => None,
    }
}

/// A label that only a score card has: `Session number`, `Table number`
/// (or their Chinese words, `場次:`, `枱號`), a title with `Score Card`
/// (`計分卡`).
pub fn is_marker(texts: &[String]) -> bool {
    let session = ["sessionnumber"];
    let table = ["tablenumber"];
    texts.iter().any(|t| {
        let n = normalize(t);
        let label = n.trim_end_matches([':', '：']);
        n.starts_with("sessionnumber")
            || n.starts_with("tablenumber")
            || n.contains("scorecard")
            || n.contains("計分卡")
            || n.contains("记分卡")
            || (label.chars().count() <= 4
                && (label_matches(label, &session) || label_matches(label, &table)))
    })
}

/// The label of the row of players' names: `Name`, or `姓名`.
pub fn is_name_row(texts: &[String]) -> bool {
    texts
        .iter()
        .find(|t| !t.trim().is_empty())
        .is_some_and(|t| matches!(normalize(t).as_str(), "name" | "姓名" | "名字"))
}

pub fn is_subheader(texts: &[String]) -> bool {
    texts.iter().filter(|t| field_of(t).is_some()).count() >= 3
}

/// A seat's three columns (0-based indexes into the rows' cells).
struct SeatColumns {
    seat: Seat,
    won: usize,
    score: usize,
    tiles: usize,
    first: usize,
    last: usize,
}

/// What a row of the card is, from its label.
#[derive(Debug, PartialEq, Eq)]
enum RowLabel {
    Game(u32),
    Total,
    End,
    Other(String),
    None,
}

fn row_label(text: &str) -> RowLabel {
    let n = normalize(text);
    if n.is_empty() {
        return RowLabel::None;
    }
    if ["total", "總計", "总计", "合計", "合计"]
        .iter()
        .any(|t| n.starts_with(t))
    {
        return RowLabel::Total;
    }
    if n.contains("signature")
        || n.starts_with("remark")
        || n.starts_with("organizer")
        || n.starts_with("organiser")
        || ["簽名", "签名", "備註", "备注"]
            .iter()
            .any(|t| n.contains(t))
    {
        return RowLabel::End;
    }
    // `第1局`, `第 1 局`, `第一局`: the card's own Chinese label
    if let Some(g) = Label::chinese(&n, &["局"]).filter(|g| (1..=99).contains(g)) {
        return RowLabel::Game(g);
    }
    let digits = n
        .strip_prefix("game")
        .or_else(|| n.strip_prefix("round"))
        .or_else(|| n.strip_prefix('g'))
        .unwrap_or(&n);
    let digits = digits.trim_start_matches(['#', ':']);
    let digits = digits.strip_suffix(".0").unwrap_or(digits);
    match digits.parse::<u32>() {
        Ok(g) if (1..=99).contains(&g) => RowLabel::Game(g),
        _ => RowLabel::Other(text.trim().to_string()),
    }
}

/// Reads the one card of a sheet (with its merged ranges, if a workbook's).
/// Problems name their cell.
pub fn read(
    source: &Source,
    rows: impl Iterator<Item = Result<Row, RowError>>,
    merged: &[Merge],
    problems: &mut Problems,
) -> Option<RawCard> {
    let mut grid = Vec::new();
    for row in rows {
        match row {
            Ok(row) => grid.push(row),
            Err(e) => {
                problems.error(source.place(e.at), e.message);
                return None;
            }
        }
    }
    Card::read(source, &grid, merged, problems)
}

struct Card<'a> {
    source: &'a Source,
}

impl<'a> Card<'a> {
    /// Lines after the signature line are not read; a second card there,
    /// or a game, is said (a warning), not lost without a word.
    fn after_end(
        &self,
        rows: &[Row],
        label_end: usize,
        seats_cols: &[SeatColumns],
        problems: &mut Problems,
    ) {
        let texts = |r: &Row| r.cells.iter().map(Cell::as_text).collect::<Vec<_>>();
        for row in rows {
            if is_name_row(&texts(row)) {
                problems.warning(
                    self.source.at(row.number, None),
                    Said::new(Msg::SecondCard, []),
                );
                return;
            }
            let label = (0..label_end.max(1))
                .find(|&i| !row.get(i).is_empty())
                .map(|i| row_label(&row.get(i).as_text()));
            let filled = seats_cols
                .iter()
                .any(|sc| !row.get(sc.won).is_empty() || !row.get(sc.score).is_empty());
            if let (Some(RowLabel::Game(n)), true) = (label, filled) {
                problems.warning(
                    self.source.at(row.number, None),
                    Said::new(Msg::GameBelowSignature, [Part::text(n)]),
                );
                return;
            }
        }
    }

    fn read(
        source: &'a Source,
        grid: &'a [Row],
        merged: &[Merge],
        problems: &mut Problems,
    ) -> Option<RawCard> {
        let card = Card { source };
        let texts = |r: &Row| r.cells.iter().map(Cell::as_text).collect::<Vec<_>>();
        let Some(name_row) = grid.iter().position(|r| is_name_row(&texts(r))) else {
            problems.error(source.whole(), "score card without a \"Name\" row: expected a row starting with Name, then each seat's player");
            return None;
        };
        let Some(sub_row) = (name_row + 1..grid.len()).find(|&i| is_subheader(&texts(&grid[i])))
        else {
            problems.error(
                source.at(grid[name_row].number, None),
                "no sub-header under the Name row: expected \"Game Won (1/0)\", \"Score (+/-)\" (or \"Penalty points\"), \"Tiles on rack\" for each seat",
            );
            return None;
        };

        let session = card.label(
            &grid[..name_row],
            &["sessionnumber", "session", "sessionno"],
        );
        let table = card.label(&grid[..name_row], &["tablenumber", "table", "tableno"]);
        // (no Stage: label: the title says the stage, read against the
        // event's stages by settle_stage; the built-in words meanwhile)
        let (stage, title) = match card.label(&grid[..name_row], &["stage", "round"]) {
            Some((c, _)) => (Stage::new(&c.as_text()), None),
            None => {
                let title = card.title(&grid[..name_row]);
                let stage = title_stage(&title.text, &[]).unwrap_or_else(Stage::prelim);
                (stage, Some(title))
            }
        };

        let mut ok = true;
        let session = match session
            .as_ref()
            .and_then(|(c, at)| Some((Label::session(&c.as_text())?, *at)))
        {
            Some((s, at)) => {
                card.session_against_file_name(&s, at, problems);
                Some(s)
            }
            None => {
                let at = session.map_or(At::WHOLE, |(_, at)| at);
                problems.error(source.place(at), "no session number: expected \"Session number:\" with its value, in the same cell after the colon or in the next cell");
                ok = false;
                None
            }
        };
        let table_at = table.as_ref().map_or(At::WHOLE, |(_, at)| *at);
        let table = match table.as_ref().and_then(|(c, _)| Label::table(&c.as_text())) {
            Some(t) => Some(t),
            None => {
                problems.error(
                    source.place(table_at),
                    "no table number
: expected \"Table number:\" with its value, in the same cell after the colon or in the next cell",
                );
                ok = false;
                None
            }
        };

        let seats_cols = card.seat_columns(&grid[sub_row], problems)?;
        let label_end = seats_cols.first().map_or(0, |s| s.first);
        let name = &grid[name_row];
        let mut seats = Vec::new();
        for sc in &seats_cols {
            let filled = (sc.first..=sc.last).find(|&i| !name.get(i).is_empty());
            if let Some(i) = filled {
                let player = name.get(i).clone().into_text();
                if !is_placeholder(&player) {
                    seats.push(RawSeat {
                        seat: sc.seat,
                        player,
                        at: name.at(i),
                    });
                }
            }
        }

        let mut games: Vec<RawGame> = Vec::new();
        let mut total = None;
        let mut defective = !ok;
        for (i, row) in grid.iter().enumerate().skip(sub_row + 1) {
            if row.is_blank() {
                continue;
            }
            let label_idx = (0..label_end.max(1)).find(|&i| !row.get(i).is_empty());
            let label = label_idx
                .map(|i| row_label(&row.get(i).as_text()))
                .unwrap_or(RowLabel::None);
            let lines = || card.lines(row, &seats_cols);
            match label {
                RowLabel::End => {
                    card.after_end(&grid[i + 1..], label_end, &seats_cols, problems);
                    break;
                }
                RowLabel::Game(n) => {
                    if let Some(first) = games.iter().find(|g| g.number == n) {
                        problems.error(
                            source.at(row.number, None),
                            format!("game {n} is written twice (first at {}); expected one row per game", source.place(first.at)),
                        );
                        defective = true;
                        continue;
                    }
                    games.push(RawGame {
                        number: n,
                        at: At::row(row.number),
                        lines: lines(),
                    });
                }
                RowLabel::Total => {
                    total = Some(RawGame {
                        number: 0,
                        at: At::row(row.number),
                        lines: lines(),
                    });
                }
                RowLabel::Other(text) => {
                    if seats_cols
                        .iter()
                        .any(|sc| !row.get(sc.won).is_empty() || !row.get(sc.score).is_empty())
                    {
                        let at = label_idx
                            .map(|i| row.place(source, i))
                            .unwrap_or_else(|| source.at(row.number, None));
                        problems.error(
                            at,
                            format!(
                                "row label {} is not a game: expected Game 1, Game 2, ... or Total",
                                super::cell::quoted(&text)
                            ),
                        );
                        defective = true;
                    }
                }
                RowLabel::None => {
                    problems.error(
                        source.at(row.number, None),
                        "row has scores but no label: expected Game 1, Game 2, ... or Total in the first column",
                    );
                    defective = true;
                }
            }
        }

        // A value cell inside a merged range (D10:D11) is blank: its value
        // is the range's first cell's. Named at the cell, read as it shows;
        // a game with such a cell is left to that error (its sums and its
        // leaders, checked with a value nobody typed there, would name
        // cells that are right).
        let mut lost = LostLines::default();
        let game_count = games.len();
        for (index, g) in games.iter_mut().chain(total.iter_mut()).enumerate() {
            let is_game = index < game_count;
            for line in &mut g.lines {
                for (what, cell) in [
                    ("game won", &mut line.won),
                    ("score", &mut line.score),
                    ("tiles", &mut line.tiles),
                ] {
                    if !cell.value.is_empty() {
                        continue;
                    }
                    let Some(m) = merged.iter().find(|m| m.covers(cell.at.row, cell.at.col)) else {
                        continue;
                    };
                    let shown = grid
                        .iter()
                        .find(|r| r.number == m.first.0)
                        .map(|r| r.get(m.first.1.wrapping_sub(r.first_col) as usize).clone())
                        .unwrap_or_default();
                    let across = if m.first.0 == m.last.0 {
                        "one column only"
                    } else {
                        "one row only"
                    };
                    problems.error(
                        source.place(cell.at),
                        format!(
                            "{} is merged, so {} shows here too, but a value belongs to {across}: unmerge {} and type the {what} of each {}",
                            m.name(),
                            if shown.is_empty() { "its value".to_string() } else { format!("the {} typed in {}{}", shown.describe(), column_name(m.first.1), m.first.0) },
                            m.name(),
                            if m.first.0 == m.last.0 { "cell" } else { "row" },
                        ),
                    );
                    cell.value = shown;
                    defective = true;
                    if is_game && !lost.game(g.number) {
                        lost.add(Some(g.number));
                    }
                }
            }
        }

        // A seat with no player must have no values. Its Total, when its
        // games are blank, may show what a template's `=SUM()` shows of
        // nothing (0, or a formula never calculated): that is no value.
        for sc in &seats_cols {
            if seats.iter().any(|s| s.seat == sc.seat) {
                continue;
            }
            let filled_in = |g: &RawGame| {
                g.lines
                    .iter()
                    .find(|l| l.seat == sc.seat && !l.is_blank())
                    .map(|l| (g.at, l.clone()))
            };
            let in_games = games.iter().find_map(filled_in);
            let in_total = total
                .iter()
                .find_map(filled_in)
                .filter(|(_, l)| in_games.is_some() || !sum_of_nothing(l));
            if let Some((at, line)) = in_games.or(in_total) {
                let filled = [&line.won, &line.score, &line.tiles]
                    .into_iter()
                    .find(|c| !c.is_blank());
                problems.error(
                    source.place(filled.map_or(at, |c| c.at)),
                    format!("seat {} has values but no player: write the player's id or name in the Name row at {}{}", sc.seat, column_name(name.col(sc.first)), name.number),
                );
                defective = true;
            }
        }
        for g in games.iter_mut().chain(total.iter_mut()) {
            g.lines.retain(|l| seats.iter().any(|s| s.seat == l.seat));
        }

        let (Some(session), Some(table)) = (session, table) else {
            return None;
        };
        Some(RawCard {
            key: CardKey {
                stage,
                session,
                table,
            },
            layout: Layout::ScoreCard,
            source: source.clone(),
            at: At::WHOLE,
            // (a table given twice is reported at the second one's number)
            table_at,
            seats,
            renamed: Vec::new(),
            agreeing: Vec::new(),
            games,
            total,
            defective,
            lost,
            title,
        })
    }

    /// The card's session against the session its file is named for
    /// ([`file_name_session`]): the card's own cell counts (the referee
    /// signed it), and where the two differ a warning at that cell says
    /// so.
    fn session_against_file_name(&self, session: &Label, at: At, problems: &mut Problems) {
        let Some(named) = file_name_session(&self.source.file) else {
            return;
        };
        if named == *session {
            return;
        }
        let file = std::path::Path::new(&self.source.file)
            .file_name()
            .map_or_else(
                || self.source.file.to_string(),
                |f| f.to_string_lossy().into_owned(),
            );
        let (said, named) = (
            SessionName(session).to_string(),
            SessionName(&named).to_string(),
        );
        problems.warning(
            self.source.place(at),
            Said::new(
                Msg::SessionNotFileName,
                [
                    Part::Text(said.clone()),
                    Part::Text(file),
                    Part::Text(named.clone()),
                    Part::Text(said),
                    Part::Text(named),
                ],
            ),
        );
    }

    /// A label's value: after the colon in the same cell, or the next filled
    /// cell of the row.
    fn label(&self, rows: &[Row], names: &[&str]) -> Option<(Cell, At)> {
        for row in rows {
            for (i, cell) in row.cells.iter().enumerate() {
                let Cell::Text(t) = cell else { continue };
                let (label, rest) = match t.split_once([':', '：']) {
                    Some((l, r)) => (l, r.trim()),
                    None => (t.as_str(), ""),
                };
                if !label_matches(label, names) {
                    continue;
                }
                if !rest.is_empty() && rest.chars().any(|c| c != '_') {
                    return Some((Cell::text(rest), row.at(i)));
                }
                let next = (i + 1..row.cells.len()).find(|&j| !row.get(j).is_empty());
                return Some(match next {
                    Some(j) => (row.get(j).clone(), row.at(j)),
                    None => (Cell::Empty, row.at(i)),
                });
            }
        }
        None
    }

    /// The card's title: the first cell that says "Score Card" (or
    /// 計分卡, "score sheet"); none, an empty text.
    fn title(&self, rows: &[Row]) -> CardTitle {
        for row in rows {
            for (i, cell) in row.cells.iter().enumerate() {
                let text = cell.as_text();
                if marker_at(&text.to_lowercase()).is_some() {
                    return CardTitle {
                        text: text.to_string(),
                        at: Some(row.at(i)),
                    };
                }
            }
        }
        CardTitle {
            text: String::new(),
            at: None,
        }
    }

    /// Groups the sub-header's cells into seats of three columns.
    fn seat_columns(&self, row: &Row, problems: &mut Problems) -> Option<Vec<SeatColumns>> {
        let mut groups: Vec<Vec<(Field, usize)>> = Vec::new();
        for (i, cell) in row.cells.iter().enumerate() {
            let Some(field) = field_of(&cell.as_text()) else {
                continue;
            };
            match groups.last_mut() {
                Some(g) if g.len() < 3 && !g.iter().any(|(f, _)| *f == field) => g.push((field, i)),
                _ => groups.push(vec![(field, i)]),
            }
        }
        if groups.len() > 4 {
            problems.error(
                self.source.at(row.number, Some(row.col(groups[4][0].1))),
                format!(
                    "{} seats in the sub-header; a table seats at most 4 (A, B, C, D)",
                    groups.len()
                ),
            );
            return None;
        }
        let mut out = Vec::new();
        for (g, seat) in groups.iter().zip(Seat::ALL) {
            let find = |f: Field| g.iter().find(|(x, _)| *x == f).map(|(_, i)| *i);
            let (Some(won), Some(score), Some(tiles)) =
                (find(Field::Won), find(Field::Score), find(Field::Tiles))
            else {
                problems.error(
                    self.source.at(row.number, Some(row.col(g[0].1))),
                    format!("seat {seat}'s columns are incomplete: expected Game Won (1/0), Score (+/-) (or Penalty points) and Tiles on rack"),
                );
                return None;
            };
            let first = g.iter().map(|(_, i)| *i).min().unwrap_or(won);
            let last = g.iter().map(|(_, i)| *i).max().unwrap_or(tiles);
            out.push(SeatColumns {
                seat,
                won,
                score,
                tiles,
                first,
                last,
            });
        }
        Some(out)
    }

    fn lines(&self, row: &Row, seats: &[SeatColumns]) -> Vec<RawLine> {
        let cell = |i: usize| RawCell {
            value: row.get(i).clone(),
            at: row.at(i),
        };
        seats
            .iter()
            .map(|sc| RawLine {
                seat: sc.seat,
                won: cell(sc.won),
                score: cell(sc.score),
                tiles: cell(sc.tiles),
            })
            .collect()
    }
}

/// "Score card" in Chinese, as a card's title says it (traditional and
/// simplified).
const CARD_WORDS_ZH: [&str; 4] = ["計分卡", "記分卡", "计分卡", "记分卡"];

/// Where "Score Card" (or 計分卡) begins in `lower`, a title in lower case.
fn marker_at(lower: &str) -> Option<usize> {
    ["score card", "scorecard", "score sheet"]
        .into_iter()
        .chain(CARD_WORDS_ZH)
        .filter_map(|m| lower.find(m))
        .min()
}

/// The stage a title says: the one said last before "Score Card" (or
/// 計分卡), so that an event's name saying another stage does not count
/// (`Semi-final and Final Day Final Score Card` is the final's, `HK 2026
/// Final 初賽計分卡` the prelim's); else any stage the title says (`Score
/// Card: Final`); else none. The stages are the built-in words
/// (`STAGE_WORDS`: `Quarter-final` is the quarter, 複賽 a stage of its own
/// name, whether the event plays them or not) and the names of `stages`
/// (an event's own: `plate Score Card` is the plate's when the event plays
/// a `plate`).
pub fn title_stage(title: &str, stages: &[&str]) -> Option<Stage> {
    stage_said(title, stages).map(|(stage, _)| stage)
}

/// [`title_stage`], with the words of the title that say the stage, as
/// written (`Quarter-final`).
fn stage_said(title: &str, stages: &[&str]) -> Option<(Stage, String)> {
    let t = title.to_lowercase();
    let own: Vec<(String, String)> = stages
        .iter()
        .map(|s| (s.to_lowercase(), s.to_string()))
        .collect();
    let words: Vec<(&str, &str)> = STAGE_WORDS
        .iter()
        .copied()
        .chain(own.iter().map(|(w, s)| (w.as_str(), s.as_str())))
        .collect();
    let (stage, at) = match marker_at(&t) {
        Some(at) => last_stage_said(&t[..at], &words).or_else(|| last_stage_said(&t, &words)),
        None => last_stage_said(&t, &words),
    }?;
    // (the title's own letters where lower case is as long: it always is,
    // but for a few letters outside English and Chinese)
    let said = if t.len() == title.len() {
        title.get(at.clone())
    } else {
        None
    };
    Some((stage, said.unwrap_or(&t[at]).to_string()))
}

/// Reads a printed card's stage from its title ([`RawCard::title`])
/// against the event's `stages`: the event's stage the title says; a
/// title that says no stage at all (or no title), the event's first
/// stage; a title that says a stage the event does not play, an error at
/// the title's cell naming the event's stages (the card is then the first
/// stage's, and refused). A card whose stage a `Stage:` label, a column
/// or `import --stage` gives has no title to read.
pub fn settle_stage(card: &mut RawCard, stages: &[String], problems: &mut Problems) {
    let Some(title) = card.title.take() else {
        return;
    };
    let names: Vec<&str> = stages.iter().map(String::as_str).collect();
    let first = Stage::new(names.first().copied().unwrap_or("prelim"));
    card.key.stage = match stage_said(&title.text, &names) {
        Some((s, _)) if names.contains(&s.as_str()) => s,
        None => first,
        Some((s, said)) => {
            problems.error(
                card.source.place(title.at.unwrap_or(At::WHOLE)),
                Said::new(
                    Msg::TitleStageNotPlayed,
                    [
                        Part::Text(title.text.clone()),
                        Part::Text(said),
                        Part::Stage(s.to_string()),
                        Part::Text(names.join(", ")),
                    ],
                ),
            );
            card.defective = true;
            first
        }
    };
}

/// The stages a card's title may say, in English (lower case) and Chinese:
/// the built-in three, and the stages other events play, so that a title
/// naming one (`Quarter-final`, 四分之一決賽, 複賽) is that stage, an error
/// where the event does not play it, never the first stage or the final
/// unsaid. A final said after "semi" (`semi-final`, `semifinal`) or 準/半/准
/// (準決賽) is the semi; after "quarter", the quarter.
const STAGE_WORDS: [(&str, &str); 24] = [
    ("preliminary", "prelim"),
    ("prelim", "prelim"),
    ("qualifying", "prelim"),
    ("初賽", "prelim"),
    ("預賽", "prelim"),
    ("初赛", "prelim"),
    ("预赛", "prelim"),
    ("quarter", "quarter"),
    ("1/4 final", "quarter"),
    ("1/4-final", "quarter"),
    ("四分之一決賽", "quarter"),
    ("四分之一决赛", "quarter"),
    ("八強", "quarter"),
    ("八强", "quarter"),
    ("複賽", "複賽"),
    ("复赛", "複賽"),
    ("semi", "semi"),
    ("final", "final"),
    ("決賽", "final"),
    ("决赛", "final"),
    ("準決賽", "semi"),
    ("准决赛", "semi"),
    ("四強", "semi"),
    ("四强", "semi"),
];

/// The stage said last in `text` (lower case) of `words` (a word and its
/// stage), and where its words are in `text`: the one whose words end
/// last, of those the longest (`1/4 final` rather than its `final`), of
/// those the last of `words` (an event's own name for the stage). The
/// final said right after another stage's word (`semi-final`,
/// `quarter-final`; 準決賽, 半決賽) is that stage. A word followed by "ly"
/// is no stage (`Quarterly`).
fn last_stage_said(text: &str, words: &[(&str, &str)]) -> Option<(Stage, Range<usize>)> {
    let mut last: Option<(Range<usize>, &str)> = None;
    for &(word, stage) in words {
        if word.is_empty() {
            continue;
        }
        for (i, _) in text.match_indices(word) {
            let end = i + word.len();
            if word.is_ascii() && text[end..].starts_with("ly") {
                continue;
            }
            let before = text[..i].trim_end_matches(['-', ' ']);
            let semi = ["準", "半", "准"].into_iter().find(|w| before.ends_with(w));
            let prefix = words.iter().find(|(w, s)| {
                stage == "final" && *s != stage && w.is_ascii() && before.ends_with(w)
            });
            let (stage, start) = match (semi, prefix) {
                (Some(w), _) if stage == "final" => ("semi", before.len() - w.len()),
                (_, Some((w, s))) => (*s, before.len() - w.len()),
                _ => (stage, i),
            };
            let later = last
                .as_ref()
                .is_none_or(|(at, _)| end > at.end || (end == at.end && start <= at.start));
            if later {
                last = Some((start..end, stage));
            }
        }
    }
    last.map(|(at, stage)| (Stage::new(stage), at))
}

/// A label cell names one of `names`: exactly, or as part of a bilingual
/// label (`場次 Session number`, `Table number 枱號`), or by its Chinese name.
fn label_matches(label: &str, names: &[&str]) -> bool {
    let n = normalize(label);
    if names.contains(&n.as_str()) {
        return true;
    }
    let long = names.iter().any(|name| name.len() >= 8 && n.contains(name));
    let chinese = if names.contains(&"sessionnumber") {
        ["場次", "场次", "節數", "节数"]
            .iter()
            .any(|c| n.contains(c))
    } else if names.contains(&"tablenumber") {
        ["枱號", "檯號", "桌號", "台號", "桌号", "台号"]
            .iter()
            .any(|c| n.contains(c))
    } else {
        false
    };
    long || chinese
}

/// The session a file is named for: its name (without the extension), or
/// the name's first word, read as a card's session cell is, when it says
/// "session" (`S01.xlsx`, `Session 1.xlsx`, `S01-T07.csv`, `第1節.xlsx`);
/// a name of digits alone (`1.xlsx`, `2026-03-28.xlsx`) or of any other
/// words names none.
pub fn file_name_session(file: &str) -> Option<Label> {
    let stem = std::path::Path::new(file).file_stem()?.to_str()?;
    let first = stem.split([' ', '-', '_', ',', '.']).next().unwrap_or(stem);
    [stem, first].into_iter().find_map(|name| {
        let t = name.trim();
        let digits = t.chars().all(|c| c.is_numeric() || matches!(c, '.' | '．'));
        match Label::session(t) {
            Some(Label::Num(n)) if !digits => Some(Label::Num(n)),
            _ => None,
        }
    })
}

/// The printed sheet's seat letters, left where no player sat (also a
/// results or racks line's player with no values: [`super::results`]).
pub(crate) fn is_placeholder(text: &str) -> bool {
    let t = text.trim().trim_start_matches('(').trim_end_matches(')');
    let t = t.strip_prefix("Player ").unwrap_or(t);
    matches!(t, "A" | "B" | "C" | "D" | "-" | "—" | "") || t.chars().all(|c| c == '_')
}

/// Whether the Total of a seat shows only what a formula summing blank
/// cells shows: 0, or a formula never calculated.
fn sum_of_nothing(line: &RawLine) -> bool {
    [&line.won, &line.score, &line.tiles].into_iter().all(|c| {
        c.is_blank()
            || matches!(c.value, Cell::FormulaWithoutValue(_))
            || matches!(c.value, Cell::Number(n) if n == 0.0)
    })
}

/// Whether a printed card is blank as printed: no game won, score or tiles
/// typed in any game, its `Total` showing only what its formulas show of
/// nothing (0, or a formula not calculated), and nothing the reader found
/// wrong. A workbook of a stage's blank cards (`seating -o`) is typed
/// table by table; such a sheet is no card yet, and is skipped (see
/// [`super::read_cards`]).
pub fn nothing_typed(card: &RawCard) -> bool {
    card.layout == Layout::ScoreCard
        && !card.defective
        && card
            .games
            .iter()
            .flat_map(|g| &g.lines)
            .all(RawLine::is_blank)
        && card.total.iter().flat_map(|g| &g.lines).all(sum_of_nothing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_row_labels() {
        assert_eq!(row_label("Game 1"), RowLabel::Game(1));
        assert_eq!(row_label("game3"), RowLabel::Game(3));
        assert_eq!(row_label("G2"), RowLabel::Game(2));
        assert_eq!(row_label("2"), RowLabel::Game(2));
        assert_eq!(row_label("Total"), RowLabel::Total);
        assert_eq!(row_label("Participant Signature"), RowLabel::End);
        assert_eq!(row_label("Remark:"), RowLabel::End);
        assert_eq!(row_label("Bonus"), RowLabel::Other("Bonus".into()));
    }

    /// The stage of a title: said last before "Score Card" or 計分卡.
    #[test]
    fn the_stage_a_title_says() {
        let stage = |title: &str| {
            let row = Row {
                number: 1,
                first_col: 1,
                cells: vec![Cell::text(title)],
            };
            let source = Source::file("t.csv");
            let title = Card { source: &source }.title(std::slice::from_ref(&row));
            title_stage(&title.text, &[])
                .unwrap_or_else(Stage::prelim)
                .as_str()
                .to_string()
        };
        for (title, want) in [
            ("Rummikub HK 2026 Preliminary Round Score Card", "prelim"),
            ("Rummikub HK 2026 Final Score Card", "final"),
            ("Gwinnett Semi-finals Score Card", "semi"),
            ("Gwinnett Semifinal Score Card", "semi"),
            (
                "Rummikub HK 2026 Final Preliminary Round Score Card",
                "prelim",
            ),
            ("Semi-final and Final Day Final Score Card", "final"),
            (
                "Preliminary Round Score Card (top 120 go to the Finals)",
                "prelim",
            ),
            ("Score Card: Final", "final"),
            ("Club Score Card", "prelim"),
            ("Rummikub HK 2026 初賽計分卡", "prelim"),
            ("Rummikub HK 2026 準決賽計分卡", "semi"),
            ("Rummikub HK 2026 決賽計分卡", "final"),
            ("HK 2026 Final 初賽計分卡", "prelim"),
            ("香港錦標賽準決賽 決賽計分卡", "final"),
            ("半決賽記分卡", "semi"),
            ("决赛计分卡", "final"),
            ("准決賽計分卡", "semi"),
            ("Grand Final Score Card", "final"),
            // stages other events play: said, never the prelim or the final
            ("Club Quarter-final Score Card", "quarter"),
            ("Club Quarterfinal Score Card", "quarter"),
            ("Club Quarter Final Score Card", "quarter"),
            ("Club Quarter Score Card", "quarter"),
            ("Club 1/4 Final Score Card", "quarter"),
            ("四分之一決賽計分卡", "quarter"),
            ("八強計分卡", "quarter"),
            ("複賽計分卡", "複賽"),
            ("复赛计分卡", "複賽"),
            ("四強計分卡", "semi"),
            // (a word followed by "ly" is no stage)
            ("Club Quarterly Score Card", "prelim"),
        ] {
            assert_eq!(stage(title), want, "{title}");
        }
        // an event's own stages are read too
        let quarter = ["prelim", "quarter", "final"];
        for (title, want) in [
            ("Club quarter Score Card", Some("quarter")),
            ("Club Quarter-final Score Card", Some("quarter")),
            ("Club Final Score Card", Some("final")),
            ("Club 決賽計分卡", Some("final")),
            ("Club quarter計分卡", Some("quarter")),
            ("Club Semi-final Score Card", Some("semi")),
            ("Club Score Card", None),
        ] {
            let said = title_stage(title, &quarter);
            assert_eq!(said.as_ref().map(Stage::as_str), want, "{title}");
        }
    }

    #[test]
    fn bilingual_labels() {
        let session = ["sessionnumber", "session", "sessionno"];
        let table = ["tablenumber", "table", "tableno"];
        assert!(label_matches("場次 Session number", &session));
        assert!(label_matches("Session number 場次", &session));
        assert!(label_matches("場次", &session));
        assert!(label_matches("Table number 枱號", &table));
        assert!(label_matches("檯號", &table));
        assert!(!label_matches("Session number", &table));
        assert!(!label_matches("Referee", &session));
    }

    /// What a template's `=SUM` shows for a seat with nothing in it: 0, or
    /// a formula never calculated; anything else is a value.
    #[test]
    fn a_sum_of_nothing() {
        let line = |value: Cell| RawLine {
            seat: Seat::D,
            won: RawCell {
                value: Cell::Empty,
                at: At::cell(13, 11),
            },
            score: RawCell {
                value,
                at: At::cell(13, 12),
            },
            tiles: RawCell {
                value: Cell::Empty,
                at: At::cell(13, 13),
            },
        };
        assert!(sum_of_nothing(&line(Cell::Number(0.0))));
        assert!(sum_of_nothing(&line(Cell::FormulaWithoutValue(
            "=SUM(L10:L12)".into()
        ))));
        assert!(!sum_of_nothing(&line(Cell::Number(-3.0))));
        assert!(!sum_of_nothing(&line(Cell::text("0"))));
    }

    /// `tests/fixtures/scorecard/good.csv` (session 1 table 7) as the rows
    /// of a sheet, its session cell (B4) `session`, `blank` the game row
    /// left blank (0: none), read from a sheet of `file`.
    fn good_card(file: &str, session: &str, blank: u32) -> (Option<RawCard>, Problems) {
        let text = include_str!("../../tests/fixtures/scorecard/good.csv");
        let rows = text.lines().enumerate().map(|(i, line)| {
            let mut cells: Vec<Cell> = line.split(',').map(Cell::text).collect();
            if i == 3 {
                cells[1] = Cell::text(session);
            }
            // (the Total, typed for the three games, left out with it)
            if blank > 0 && (i as u32 == 6 + blank || i == 10) {
                cells[1..].fill(Cell::Empty);
            }
            Ok(Row {
                number: i as u32 + 1,
                first_col: 1,
                cells,
            })
        });
        let mut problems = Problems::new();
        let card = read(&Source::sheet(file, "Table 07"), rows, &[], &mut problems);
        (card, problems)
    }

    /// A file named for a session (S01.xlsx): a card's session cell that
    /// says another counts, and a warning at the cell says so, in each
    /// language.
    #[test]
    fn a_session_other_than_the_file_names_is_said_at_its_cell() {
        use crate::lang::Lang;
        for (file, session) in [
            ("S01.xlsx", "1"),
            ("cards/S01.xlsx", "S01"),
            ("S02.xlsx", "第2節"),
            ("Session 2.xlsx", "第二節"),
            ("S02-T07.csv", "S2"),
            ("cards.xlsx", "2"),
            ("2.xlsx", "1"),
        ] {
            let (card, problems) = good_card(file, session, 0);
            assert!(problems.is_empty(), "{file} {session}: {problems:?}");
            assert!(card.is_some());
        }
        for session in ["2", "S2", "第2節", "第二節"] {
            let (card, problems) = good_card("cards/S01.xlsx", session, 0);
            assert_eq!(card.unwrap().key.session, Label::Num(2), "{session}");
            let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            assert_eq!(
                said,
                ["cards/S01.xlsx[Table 07]!B4: warning: session S02 here, but the file S01.xlsx is named for session S01: the card counts as S02, as its session cell says; correct this cell if the card is S01's, or move the card to a file of its own session"],
                "{session}"
            );
            assert_eq!(
                problems.iter().next().unwrap().message_in(Lang::ZhHant),
                "此處為場次 S02，但檔案 S01.xlsx 的名稱是場次 S01：此計分卡按其場次欄計為 S02；若此卡屬於 S01，請更正此儲存格，否則請把此卡移到其場次的檔案"
            );
        }
        // a session that is no number differs too
        let (_, problems) = good_card("S01.xlsx", "Blue", 0);
        assert_eq!(
            problems.iter().next().map(|p| p.place.to_string()),
            Some("S01.xlsx[Table 07]!B4".to_string())
        );
    }

    #[test]
    fn the_session_a_file_is_named_for() {
        for (file, want) in [
            ("S01.xlsx", Some(1)),
            ("dir/s3.csv", Some(3)),
            ("Session 2.xlsx", Some(2)),
            ("session_12.ods", Some(12)),
            ("S01-T07.csv", Some(1)),
            ("S01 cards.xlsx", Some(1)),
            ("第3節.xlsx", Some(3)),
            ("1.xlsx", None),
            ("2026-03-28.xlsx", None),
            ("Sheet1.xlsx", None),
            ("Scores 2026.xlsx", None),
            ("cards.xlsx", None),
            ("-", None),
        ] {
            assert_eq!(file_name_session(file), want.map(Label::Num), "{file}");
        }
    }

    /// A game row every seat left blank is said at its first cell, the
    /// cells to fill named, in each language.
    #[test]
    fn a_blank_game_row_is_said_at_its_first_cell() {
        use crate::lang::Lang;
        let (card, problems) = good_card("S01.xlsx", "1", 2);
        assert!(problems.is_empty(), "{problems:?}");
        let mut problems = Problems::new();
        let rules = crate::profile::Rules::hk();
        let values =
            crate::rules::card_checks::check_values(&card.unwrap(), &rules, false, &mut problems);
        assert!(values.is_none());
        let said: Vec<&crate::problem::Problem> = problems.iter().collect();
        assert_eq!(
            said.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            ["S01.xlsx[Table 07]!B9: error: session S01 table 7: game 2 is blank (nothing in B9:M9); the hk rules play 3 games per session: type each seat's game won, score and tiles (a player who left early is blank in the games not played)"]
        );
        assert_eq!(
            said[0].message_in(Lang::ZhHant),
            "場次 S01 第 7 枱：第 2 局空白（B9:M9 沒有填寫）；hk 規則每場次打 3 局：請填上各座位的勝局、得分和餘牌（提早離場的選手，未打的局留空）"
        );
        // a card with no game typed is said once, of the card (the reader
        // skips a blank card as printed: `nothing_typed`)
        let (card, _) = good_card("S01.xlsx", "1", 0);
        let mut card = card.unwrap();
        card.games
            .iter_mut()
            .flat_map(|g| &mut g.lines)
            .for_each(|l| {
                for c in [&mut l.won, &mut l.score, &mut l.tiles] {
                    c.value = Cell::Empty;
                }
            });
        card.total = None;
        let mut problems = Problems::new();
        crate::rules::card_checks::check_values(&card, &rules, false, &mut problems);
        assert_eq!(
            problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            ["S01.xlsx[Table 07]: error: session S01 table 7: game 1, 2, 3 missing; the hk rules play 3 games per session (a player who left early is blank in the games not played)"]
        );
    }

    #[test]
    fn knows_the_printed_placeholders() {
        assert!(is_placeholder("(C)"));
        assert!(is_placeholder("D"));
        assert!(is_placeholder("____"));
        assert!(!is_placeholder("Chan Tai Man"));
        assert!(!is_placeholder("P0001"));
    }

    #[test]
    fn chinese_labels_of_the_card() {
        assert_eq!(row_label("第1局"), RowLabel::Game(1));
        assert_eq!(row_label("第 2 局"), RowLabel::Game(2));
        assert_eq!(row_label("第三局"), RowLabel::Game(3));
        assert_eq!(row_label("Game 1 (第 1 局)"), RowLabel::Game(1));
        assert_eq!(row_label("總計"), RowLabel::Total);
        assert_eq!(row_label("參賽者簽名"), RowLabel::End);
        assert_eq!(row_label("第1節"), RowLabel::Other("第1節".into()));
        assert!(is_name_row(&["姓名".into(), "陳大文".into()]));
        assert!(is_marker(&["場次:".into(), "1".into()]));
        assert!(is_marker(&["枱號：".into(), "7".into()]));
        assert!(is_marker(&["初賽計分卡".into()]));
        assert!(!is_marker(&["陳大文".into()]));
        for (t, f) in [
            ("勝局 1/0", Field::Won),
            ("勝出 (1/0)", Field::Won),
            ("得分 +/-", Field::Score),
            ("分數 (+/-)", Field::Score),
            ("罰分", Field::Score),
            ("餘牌", Field::Tiles),
            ("剩餘牌數", Field::Tiles),
            ("Game Won 1/0", Field::Won),
        ] {
            assert_eq!(field_of(t), Some(f), "{t}");
        }
        // a game's row is no sub-header
        assert_eq!(field_of("Game 1"), None);
    }

    #[test]
    fn sub_header_spellings_of_real_sheets() {
        for t in [
            "Game Won (1/0)",
            "Game won",
            "Score (+/-)",
            "Score",
            "Tiles on rack",
            "Tile on Rack",
            "Penalty points",
            "Penalty points (罰分)",
            "Score (得分 +/-)",
        ] {
            assert!(field_of(t).is_some(), "{t}");
        }
        assert_eq!(field_of("Penalty points"), Some(Field::Score));
    }
}
