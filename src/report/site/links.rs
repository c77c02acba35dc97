//! Where each page is, and which cells link to it.
//!
//! File names come from ids, groups, sessions and tables, which come from
//! the input: [`slug`] keeps what is safe in a file name and a URL on
//! every system and adds a short hash whenever it had to change anything,
//! so two different texts never share a page.

use crate::domain::{Card, CardKey, SessionName};
use crate::report::{Table, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// `text` as a file name part: ASCII letters, digits, `-` and `_` kept;
/// anything else makes it `safe_part-1a2b3c4d` (8 hex digits of the
/// text's SHA-256).
pub fn slug(text: &str) -> String {
    let safe: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    if safe == text && !text.is_empty() {
        return safe;
    }
    let hash = Sha256::digest(text.as_bytes());
    let hex: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
    let safe = safe.trim_matches('_');
    if safe.is_empty() {
        format!("x-{hex}")
    } else {
        format!("{safe}-{hex}")
    }
}

/// A player's page, from the site's root.
pub fn player_page(id: &str) -> String {
    format!("p/{}.html", slug(id))
}

/// A card's page, from the site's root: `t/prelim-S01-T07.html`.
pub fn card_page(key: &CardKey) -> String {
    format!(
        "t/{}.html",
        slug(&format!(
            "{}-{}-T{}",
            key.stage,
            SessionName(&key.session),
            key.table
        ))
    )
}

/// The address of a card's page on the site published at `base` (a URL
/// or a path; a `/` is put between them when it has none).
pub fn card_url(base: &str, key: &CardKey) -> String {
    let base = base.trim();
    let sep = if base.is_empty() || base.ends_with('/') {
        ""
    } else {
        "/"
    };
    format!("{base}{sep}{}", card_page(key))
}

/// How the Games table shows a card's stage, session and table.
fn card_cells(key: &CardKey) -> (String, String, String) {
    (
        key.stage.to_string(),
        SessionName(&key.session).to_string(),
        key.table.to_string(),
    )
}

/// The pages a cell can link to.
pub struct Links<'a> {
    /// From the page being written to the site's root.
    pub root: &'a str,
    /// Roster id to player page.
    pub players: &'a HashMap<String, String>,
    /// (stage, session, table) as the Games table shows them, to card page.
    pub cards: &'a HashMap<(String, String, String), String>,
}

/// The columns holding a player's id, and the name columns that go with
/// them.
const ID_COLUMNS: [(&str, &str); 3] = [
    ("player", "name"),
    ("parent", "parent_name"),
    ("child", "child_name"),
];

impl Links<'_> {
    /// Every card's page, keyed as the Games table shows the card.
    pub fn card_map(cards: &[Card]) -> HashMap<(String, String, String), String> {
        cards
            .iter()
            .map(|c| (card_cells(&c.key), card_page(&c.key)))
            .collect()
    }

    /// Where the cell at column `col` of `row` links to, if anywhere: a
    /// player id or name to the player's page, a table number (beside its
    /// stage and session) to the card's page.
    pub fn cell(&self, table: &Table, row: &[Value], col: usize) -> Option<String> {
        let name = table.columns[col].name;
        let text_of = |column: &str| {
            let i = table.columns.iter().position(|c| c.name == column)?;
            match row.get(i)? {
                Value::Empty => None,
                v => Some(v.to_string()),
            }
        };
        for (id_col, name_col) in ID_COLUMNS {
            if name == id_col || name == name_col {
                let id = text_of(id_col)?;
                return self.players.get(&id).map(|p| format!("{}{p}", self.root));
            }
        }
        if name == "table" {
            let key = (text_of("stage")?, text_of("session")?, text_of("table")?);
            return self.cards.get(&key).map(|p| format!("{}{p}", self.root));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_never_shared() {
        assert_eq!(slug("P0003"), "P0003");
        assert_eq!(slug("prelim-S01-T7"), "prelim-S01-T7");
        let a = slug("<script>alert(1)</script>");
        assert!(a
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(slug("a b"), slug("a_b"));
        assert_ne!(slug("a/b"), slug("a_b"));
        assert!(slug("陳大文").starts_with("x-"));
        assert!(slug("../etc").len() > 4 && !slug("../etc").contains('.'));
        assert_ne!(slug(""), "");
    }
}
