//! The referees of an event: who may type score cards into the live desk
//! (issue 21), each known by a key of their own.
//!
//! A key is 160 bits from the operating system's random source, written
//! as 32 characters of lowercase base32 (`a`-`z`, `2`-`7`: safe in a URL, a
//! QR code and a phone's keyboard). It is shown once, when the referee is
//! added; the database keeps only its SHA-256 (a key that random needs no
//! salt or slow hash: no one can guess it from its hash). A referee is
//! never deleted: revoking one marks the row, and a revoked key never
//! authenticates again (the database refuses to clear the mark).

use super::store::Store;
use super::{sha256_hex, utc_now, EventFolder, FolderError};
use rusqlite::params;
use std::fmt;

/// Random bytes of a key (160 bits: 32 base32 characters).
const KEY_BYTES: usize = 20;
/// The characters of a key, in base32 order (RFC 4648, lowercase).
const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
/// The length of a key as written.
pub const KEY_LEN: usize = KEY_BYTES * 8 / 5;
/// The longest name a referee may have, in characters.
const NAME_MAX: usize = 80;
/// Where the live desk is when no address is given (`tilerank serve`'s).
pub const DEFAULT_SITE: &str = "http://127.0.0.1:8080";

/// A referee as the event keeps them (never their key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Referee {
    pub name: String,
    /// When added, UTC (`2026-03-28T12:45:00Z`).
    pub added: String,
    /// When revoked, UTC; `None`: active.
    pub revoked: Option<String>,
}

/// A referee's key, as shown once. Its `Debug` does not show it.
#[derive(Clone, PartialEq, Eq)]
pub struct RefereeKey(String);

impl RefereeKey {
    /// A new key from the operating system's random source.
    pub fn generate() -> Result<RefereeKey, FolderError> {
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| {
            FolderError::Refused(format!(
                "no key made: the operating system's random source failed ({e})"
            ))
        })?;
        Ok(RefereeKey(base32(&bytes)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The SHA-256 of the key, hex: what the database keeps.
    fn hash(&self) -> String {
        sha256_hex(self.0.as_bytes())
    }

    /// A key as presented (typed, or from a link): spaces at its ends and
    /// capitals are forgiven; anything else but a key's 32 characters is
    /// not a key.
    pub fn parse(presented: &str) -> Option<RefereeKey> {
        let key = presented.trim().to_ascii_lowercase();
        (key.len() == KEY_LEN && key.bytes().all(|b| ALPHABET.contains(&b)))
            .then_some(RefereeKey(key))
    }
}

impl fmt::Display for RefereeKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for RefereeKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RefereeKey(..)")
    }
}

/// Bytes as lowercase base32 without padding (RFC 4648).
fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    let (mut buffer, mut bits) = (0u16, 0u32);
    for &b in bytes {
        buffer = (buffer << 8) | u16::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(ALPHABET[usize::from((buffer >> bits) & 31)]));
        }
        buffer &= (1 << bits) - 1;
    }
    if bits > 0 {
        out.push(char::from(
            ALPHABET[usize::from((buffer << (5 - bits)) & 31)],
        ));
    }
    out
}

/// Why a presented key lets no one in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    #[error("not a referee's key (expected {KEY_LEN} characters a-z and 2-7)")]
    Malformed,
    #[error("no referee of this event has this key")]
    Unknown,
    #[error("the key of referee {name} was revoked at {revoked}")]
    Revoked { name: String, revoked: String },
}

/// The address a referee opens to enter cards: `SITE/entry?key=KEY`
/// ([`check_site_url`]).
pub fn entry_link(site: &str, key: &RefereeKey) -> Result<String, FolderError> {
    Ok(format!("{}/entry?key={key}", check_site_url(site)?))
}

/// The live desk's address as links start with it: `http://` or
/// `https://`, a host (and a path), no `/` at its end.
pub fn check_site_url(site: &str) -> Result<&str, FolderError> {
    let site = site.trim().trim_end_matches('/');
    let rest = site
        .strip_prefix("http://")
        .or_else(|| site.strip_prefix("https://"));
    let fits = rest.is_some_and(|r| {
        !r.is_empty() && !r.contains(['?', '#']) && !r.contains(char::is_whitespace)
    });
    if fits {
        Ok(site)
    } else {
        Err(FolderError::Refused(format!(
            "--site-url {site:?}: expected the live desk's address, http:// or https:// then a host (and a path), as http://192.168.1.20:8080"
        )))
    }
}

/// A name as stored: its ends trimmed; empty, too long or with control
/// characters is refused.
fn clean_name(name: &str) -> Result<String, FolderError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(FolderError::Refused(
            "a referee's NAME is empty: expected the name the desk knows them by".into(),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(FolderError::Refused(format!(
            "referee name {name:?}: expected a name without control characters (tabs, line breaks)"
        )));
    }
    if name.chars().count() > NAME_MAX {
        return Err(FolderError::Refused(format!(
            "referee name {name:?}: expected at most {NAME_MAX} characters"
        )));
    }
    Ok(name.to_string())
}

/// Whether two referees' names are one name, as the roster compares
/// players' (case and spacing aside): `Ann Lee` and `ann  lee` are one
/// referee on the desk's lists and on the board, so never two at once.
fn same_name(a: &str, b: &str) -> bool {
    crate::roster::match_key(a) == crate::roster::match_key(b)
}

/// Two hashes compared in a time that does not depend on where they
/// differ.
fn same_hash(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// The referee whose key hashes to `hash`, among every stored one, each
/// compared in full ([`same_hash`]): the time taken says nothing of which
/// row, if any, matched.
fn find_by_hash<'a>(rows: &'a [(Referee, String)], hash: &str) -> Option<&'a Referee> {
    let mut found = None;
    for (referee, stored) in rows {
        if same_hash(stored.as_bytes(), hash.as_bytes()) {
            found = Some(referee);
        }
    }
    found
}

impl Store {
    /// Every referee, in the order added, with their key's hash.
    fn referee_rows(&self) -> Result<Vec<(Referee, String)>, FolderError> {
        let e = |e| self.error(e);
        let mut stmt = self
            .conn
            .prepare("SELECT name, added, revoked, key_hash FROM referees ORDER BY id")
            .map_err(e)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    Referee {
                        name: r.get(0)?,
                        added: r.get(1)?,
                        revoked: r.get(2)?,
                    },
                    r.get(3)?,
                ))
            })
            .map_err(e)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(e)
    }
}

impl EventFolder {
    /// Adds a referee with a new key, in one transaction. The key is
    /// returned to be shown once; only its hash is stored. A name an active
    /// referee has is refused.
    pub fn add_referee(
        &self,
        name: &str,
        on_wait: &mut dyn FnMut(),
    ) -> Result<(Referee, RefereeKey), FolderError> {
        let name = clean_name(name)?;
        let key = RefereeKey::generate()?;
        let store = self.writer()?;
        let tx = store.begin_write(on_wait)?;
        let rows = store.referee_rows()?;
        if let Some((same, _)) = rows
            .iter()
            .find(|(r, _)| same_name(&r.name, &name) && r.revoked.is_none())
        {
            let written = if same.name == name {
                String::new()
            } else {
                format!(" as {:?}", same.name)
            };
            return Err(FolderError::Refused(format!(
                "{}: referee {name:?} exists already{written} (added {}): give another name, or revoke theirs first (tilerank referee revoke NAME)",
                store.path.display(),
                same.added
            )));
        }
        let referee = Referee {
            name,
            added: utc_now(),
            revoked: None,
        };
        store
            .conn
            .execute(
                "INSERT INTO referees (name, key_hash, added) VALUES (?1, ?2, ?3)",
                params![referee.name, key.hash(), referee.added],
            )
            .map_err(|e| store.error(e))?;
        tx.commit().map_err(|e| store.error(e))?;
        Ok((referee, key))
    }

    /// Every referee, in the order added (none for a source folder).
    pub fn referees(&self) -> Result<Vec<Referee>, FolderError> {
        match self.reader()? {
            Some(store) => Ok(store.referee_rows()?.into_iter().map(|(r, _)| r).collect()),
            None => Ok(Vec::new()),
        }
    }

    /// Revokes the active referee of `name`, in one transaction: the row is
    /// kept, and their key never authenticates again. An unknown name is
    /// refused with the names that can be revoked.
    pub fn revoke_referee(
        &self,
        name: &str,
        on_wait: &mut dyn FnMut(),
    ) -> Result<Referee, FolderError> {
        let name = name.trim();
        let store = self.writer()?;
        let tx = store.begin_write(on_wait)?;
        let rows = store.referee_rows()?;
        let Some((referee, hash)) = rows
            .iter()
            .find(|(r, _)| same_name(&r.name, name) && r.revoked.is_none())
        else {
            let active: Vec<String> = rows
                .iter()
                .filter(|(r, _)| r.revoked.is_none())
                .map(|(r, _)| format!("{:?}", r.name))
                .collect();
            let was = rows
                .iter()
                .rev()
                .find(|(r, _)| same_name(&r.name, name))
                .and_then(|(r, _)| r.revoked.as_deref())
                .map(|at| format!(" (revoked already, at {at})"))
                .unwrap_or_default();
            let known = if active.is_empty() {
                "the event has no active referee (tilerank referee add NAME adds one)".to_string()
            } else {
                format!("expected one of {}", active.join(", "))
            };
            return Err(FolderError::Refused(format!(
                "{}: no active referee {name:?}{was}: {known}",
                store.path.display()
            )));
        };
        let at = utc_now();
        store
            .conn
            .execute(
                "UPDATE referees SET revoked = ?1 WHERE key_hash = ?2 AND revoked IS NULL",
                params![at, hash],
            )
            .map_err(|e| store.error(e))?;
        tx.commit().map_err(|e| store.error(e))?;
        Ok(Referee {
            revoked: Some(at),
            ..referee.clone()
        })
    }

    /// The active referee whose key was presented, or why there is none.
    /// The error is the database's (it cannot be read); the key's answer is
    /// the inner result.
    pub fn authenticate(&self, presented: &str) -> Result<Result<Referee, Denied>, FolderError> {
        let Some(key) = RefereeKey::parse(presented) else {
            return Ok(Err(Denied::Malformed));
        };
        let Some(store) = self.reader()? else {
            return Ok(Err(Denied::Unknown));
        };
        let rows = store.referee_rows()?;
        Ok(match find_by_hash(&rows, &key.hash()) {
            None => Err(Denied::Unknown),
            Some(Referee {
                name,
                revoked: Some(at),
                ..
            }) => Err(Denied::Revoked {
                name: name.clone(),
                revoked: at.clone(),
            }),
            Some(referee) => Ok(referee.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ProfileName;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tilerank-referees-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn event(dir: &std::path::Path) -> EventFolder {
        EventFolder::init(dir, ProfileName::default(), "Test Open", None).unwrap()
    }

    #[test]
    fn base32_is_rfc_4648() {
        // RFC 4648's test vectors, lowercase, without padding
        for (bytes, text) in [
            ("", ""),
            ("f", "my"),
            ("fo", "mzxq"),
            ("foo", "mzxw6"),
            ("foob", "mzxw6yq"),
            ("fooba", "mzxw6ytb"),
            ("foobar", "mzxw6ytboi"),
        ] {
            assert_eq!(base32(bytes.as_bytes()), text);
        }
        assert_eq!(base32(&[0xff; KEY_BYTES]).len(), KEY_LEN);
    }

    #[test]
    fn keys_are_random_url_safe_and_read_back() {
        let a = RefereeKey::generate().unwrap();
        let b = RefereeKey::generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), KEY_LEN);
        assert!(a.as_str().bytes().all(|c| ALPHABET.contains(&c)));
        assert_eq!(RefereeKey::parse(a.as_str()), Some(a.clone()));
        let typed = format!("  {}\n", a.as_str().to_uppercase());
        assert_eq!(RefereeKey::parse(&typed), Some(a.clone()));
        for bad in [
            "",
            "abc",
            &a.as_str()[1..],
            &format!("{a}a"),
            &a.as_str().replace(|_| true, "1"),
        ] {
            assert_eq!(RefereeKey::parse(bad), None, "{bad:?}");
        }
        assert!(!format!("{a:?}").contains(a.as_str()));
    }

    #[test]
    fn an_entry_link_needs_an_http_address() {
        let key = RefereeKey::parse(&"a".repeat(KEY_LEN)).unwrap();
        let link = |site| entry_link(site, &key);
        let want = format!("http://10.0.0.2:8080/entry?key={key}");
        assert_eq!(link("http://10.0.0.2:8080").unwrap(), want);
        assert_eq!(link(" http://10.0.0.2:8080/ ").unwrap(), want);
        assert!(link("https://desk.example.org/hk").is_ok());
        for bad in [
            "",
            "desk.example.org",
            "ftp://x",
            "http://",
            "http://x?y=1",
            "http://a b",
        ] {
            let e = link(bad).unwrap_err().to_string();
            assert!(
                e.contains("expected the live desk's address"),
                "{bad:?}: {e}"
            );
        }
    }

    #[test]
    fn hashes_compare_whole() {
        assert!(same_hash(b"abc", b"abc"));
        assert!(!same_hash(b"abc", b"abd"));
        assert!(!same_hash(b"abc", b"ab"));
        let r = |name: &str| Referee {
            name: name.into(),
            added: String::new(),
            revoked: None,
        };
        let rows = vec![(r("A"), "11".to_string()), (r("B"), "22".to_string())];
        assert_eq!(
            find_by_hash(&rows, "22").map(|r| r.name.as_str()),
            Some("B")
        );
        assert_eq!(find_by_hash(&rows, "33"), None);
    }

    #[test]
    fn a_key_authenticates_its_referee_until_revoked() {
        let dir = scratch("auth");
        let folder = event(&dir);
        let (ann, key) = folder.add_referee(" Ann Lee ", &mut || {}).unwrap();
        assert_eq!(ann.name, "Ann Lee");
        let (_, bob_key) = folder.add_referee("Bob", &mut || {}).unwrap();
        assert_eq!(folder.authenticate(key.as_str()).unwrap(), Ok(ann.clone()));
        assert_eq!(
            folder.authenticate(&key.as_str().to_uppercase()).unwrap(),
            Ok(ann.clone())
        );
        assert_eq!(
            folder.authenticate(&"a".repeat(KEY_LEN)).unwrap(),
            Err(Denied::Unknown)
        );
        assert_eq!(folder.authenticate("x").unwrap(), Err(Denied::Malformed));
        assert_eq!(folder.authenticate("").unwrap(), Err(Denied::Malformed));
        // a name in use is refused; another is not
        let e = folder.add_referee("Ann Lee", &mut || {}).unwrap_err();
        assert!(e.to_string().contains("exists already"), "{e}");
        // so is one that differs only in case and spacing, which says how
        // the one in use is written
        let e = folder
            .add_referee(" ann  LEE", &mut || {})
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("referee \"ann  LEE\" exists already as \"Ann Lee\" (added "),
            "{e}"
        );
        // revoked (as it is written or not): the key is refused, the row kept
        let revoked = folder.revoke_referee("ann lee", &mut || {}).unwrap();
        assert_eq!(revoked.name, "Ann Lee");
        let at = revoked.revoked.clone().unwrap();
        assert_eq!(
            folder.authenticate(key.as_str()).unwrap(),
            Err(Denied::Revoked {
                name: "Ann Lee".into(),
                revoked: at
            })
        );
        assert!(folder.authenticate(bob_key.as_str()).unwrap().is_ok());
        // revoking again names who can be revoked
        let e = folder
            .revoke_referee("Ann Lee", &mut || {})
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("revoked already") && e.contains("\"Bob\""),
            "{e}"
        );
        // the name is free again, with a new key; the old one stays revoked
        let (_, new_key) = folder.add_referee("Ann Lee", &mut || {}).unwrap();
        assert!(folder.authenticate(new_key.as_str()).unwrap().is_ok());
        assert!(folder.authenticate(key.as_str()).unwrap().is_err());
        let names: Vec<(String, bool)> = folder
            .referees()
            .unwrap()
            .into_iter()
            .map(|r| (r.name, r.revoked.is_some()))
            .collect();
        assert_eq!(
            names,
            [
                ("Ann Lee".to_string(), true),
                ("Bob".to_string(), false),
                ("Ann Lee".to_string(), false)
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_database_keeps_a_revoked_referee_revoked() {
        let dir = scratch("kept");
        let folder = event(&dir);
        folder.add_referee("Ann", &mut || {}).unwrap();
        folder.revoke_referee("Ann", &mut || {}).unwrap();
        let store = Store::open(&folder.db_path(), false).unwrap();
        for sql in [
            "UPDATE referees SET revoked = NULL",
            "UPDATE referees SET key_hash = 'x'",
            "DELETE FROM referees",
        ] {
            assert!(store.conn.execute(sql, []).is_err(), "{sql}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_names_are_refused() {
        for bad in ["", "  ", "a\tb", "a\nb", &"x".repeat(NAME_MAX + 1)] {
            let e = clean_name(bad).unwrap_err().to_string();
            assert!(e.contains("expected"), "{bad:?}: {e}");
        }
        assert_eq!(clean_name(" 陳大文 ").unwrap(), "陳大文");
    }
}
