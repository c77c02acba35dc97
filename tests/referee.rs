//! The referees of an event (`tilerank referee add | list | revoke`): a
//! key shown once and never stored, a link and its QR code, and a revoked
//! key that lets no one in.

use crate::test::{Output, Scratch, Test};
use std::path::{Path, PathBuf};
use tilerank::event_folder::{Denied, EventFolder};

/// A new event folder in `scratch`.
fn event(scratch: &Scratch) -> PathBuf {
    let dir = scratch.path("event");
    Test::new()
        .args(["init", "--name", "Referee Open"])
        .arg(&dir)
        .run()
        .success();
    dir
}

/// `tilerank referee ARGS --event DIR`.
fn referee(dir: &Path, args: &[&str]) -> Output {
    Test::new()
        .arg("referee")
        .args(args)
        .arg("--event")
        .arg(dir)
        .run()
}

/// The key and the link an `add` printed.
fn key_and_link(out: &Output) -> (String, String) {
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    let key = lines[0].strip_prefix("key: ").expect("a key: line");
    let link = lines[1].strip_prefix("link: ").expect("a link: line");
    (key.to_string(), link.to_string())
}

#[test]
fn add_prints_a_key_and_its_link_and_stores_only_its_hash() {
    let scratch = Scratch::new("add");
    let dir = event(&scratch);
    let out = referee(&dir, &["add", "Ann Lee"])
        .success()
        .stderr_has("Referee \"Ann Lee\" added")
        .stderr_has("shown this once")
        .stderr_has("warning: the link points at this computer itself (http://127.0.0.1:8080): a referee's phone cannot open it. Revoke this referee (tilerank referee revoke \"Ann Lee\") and add them again with --site-url and this computer's address on the hall's network");
    let (key, link) = key_and_link(&out);
    assert!(key.len() >= 26, "at least 128 bits: {key}");
    assert!(
        key.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
        "{key}"
    );
    assert_eq!(link, format!("http://127.0.0.1:8080/entry?key={key}"));
    // the database holds the key's hash, never the key (in any case)
    let bytes = std::fs::read(dir.join("tilerank.db")).unwrap();
    let holds = |text: &str| bytes.windows(text.len()).any(|w| w == text.as_bytes());
    assert!(!holds(&key) && !holds(&key.to_uppercase()));
    assert!(holds(&tilerank::event_folder::sha256_hex(key.as_bytes())));
    let db = rusqlite::Connection::open(dir.join("tilerank.db")).unwrap();
    let all: String = db
        .query_row(
            "SELECT group_concat(name || added || key_hash || coalesce(revoked, '')) FROM referees",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!all.contains(&key), "{all}");
    // a second referee has another key
    let (other, _) = key_and_link(&referee(&dir, &["add", "Bob"]).success());
    assert_ne!(key, other);
    // the address given, with or without its last /
    let out = referee(
        &dir,
        &["add", "Chan", "--site-url", "https://desk.example.org/hk/"],
    )
    .success();
    let (key, link) = key_and_link(&out);
    assert_eq!(link, format!("https://desk.example.org/hk/entry?key={key}"));
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
    for (site, here) in [
        ("http://localhost:8080", true),
        ("http://[::1]:8080", true),
        ("http://127.0.1.1", true),
        ("http://192.168.1.20:8080", false),
        ("http://desk.local", false),
    ] {
        let out = referee(&dir, &["add", site, "--site-url", site]).success();
        assert_eq!(
            out.stderr.contains("points at this computer"),
            here,
            "{site}"
        );
    }
}

#[test]
fn list_shows_who_and_when_never_a_key() {
    let scratch = Scratch::new("list");
    let dir = event(&scratch);
    // none yet: the table says how to add one; the CSV is its header alone
    referee(&dir, &["list"])
        .success()
        .stdout_has("No referee yet: add one with tilerank referee add NAME");
    let rows = referee(&dir, &["list", "--format", "csv"]).success().csv();
    assert_eq!(rows, [["name", "status", "added", "revoked"]]);
    let (ann, _) = key_and_link(&referee(&dir, &["add", "Ann Lee"]).success());
    let (bob, _) = key_and_link(&referee(&dir, &["add", "Bob"]).success());
    referee(&dir, &["revoke", "Bob"]).success();
    let table = referee(&dir, &["list"]).success();
    let csv = referee(&dir, &["list", "--format", "csv"]).success();
    for out in [&table, &csv] {
        assert!(!out.stdout.contains(&ann) && !out.stdout.contains(&bob));
        assert!(!out.stderr.contains(&ann) && !out.stderr.contains(&bob));
    }
    let rows = csv.csv();
    assert_eq!(rows[0], ["name", "status", "added", "revoked"]);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(rows[1][..2], ["Ann Lee", "active"]);
    assert_eq!(rows[1][3], "");
    assert_eq!(rows[2][..2], ["Bob", "revoked"]);
    assert!(rows[2][3].ends_with('Z'), "{rows:?}");
    assert!(table.stdout.contains("Ann Lee") && table.stdout.contains("revoked"));
    assert!(!table.stdout.contains("No referee yet"), "{}", table.stdout);
}

#[test]
fn a_revoked_key_no_longer_authenticates() {
    let scratch = Scratch::new("revoke");
    let dir = event(&scratch);
    let (key, _) = key_and_link(&referee(&dir, &["add", "Ann Lee"]).success());
    let folder = EventFolder::open(&dir).unwrap();
    let ann = folder.authenticate(&key).unwrap().unwrap();
    assert_eq!(ann.name, "Ann Lee");
    referee(&dir, &["revoke", "Ann Lee"])
        .success()
        .stderr_has("Referee \"Ann Lee\" revoked at");
    match folder.authenticate(&key).unwrap() {
        Err(Denied::Revoked { name, .. }) => assert_eq!(name, "Ann Lee"),
        other => panic!("{other:?}"),
    }
    // a new key under the same name; the old one stays revoked
    let (new, _) = key_and_link(&referee(&dir, &["add", "Ann Lee"]).success());
    assert!(folder.authenticate(&new).unwrap().is_ok());
    assert!(folder.authenticate(&key).unwrap().is_err());
}

#[test]
fn a_name_in_use_and_an_unknown_name_are_refused() {
    let scratch = Scratch::new("refused");
    let dir = event(&scratch);
    referee(&dir, &["add", "Ann Lee"]).success();
    referee(&dir, &["add", "Bob"]).success();
    referee(&dir, &["add", " Ann Lee "])
        .failure(2)
        .stdout_is("")
        .stderr_has("referee \"Ann Lee\" exists already");
    referee(&dir, &["revoke", "Zed"])
        .failure(2)
        .stderr_has("tilerank.db: no active referee \"Zed\": expected one of \"Ann Lee\", \"Bob\"");
    referee(&dir, &["revoke", "Bob"]).success();
    referee(&dir, &["revoke", "Bob"])
        .failure(2)
        .stderr_has("no active referee \"Bob\" (revoked already, at ")
        .stderr_has("expected one of \"Ann Lee\"");
    // a wrong address or output stores nothing
    referee(&dir, &["add", "Chan", "--site-url", "desk.local"])
        .failure(2)
        .stdout_is("")
        .stderr_has("--site-url \"desk.local\": expected the live desk's address");
    referee(&dir, &["add", "Chan", "-o", "chan.pdf"])
        .failure(2)
        .stderr_has("chan.pdf: expected a file name ending in .png");
    referee(&dir, &["add", " "])
        .failure(2)
        .stderr_has("a referee's NAME is empty");
    let names = referee(&dir, &["list", "--format", "csv"])
        .success()
        .column("name");
    assert_eq!(names, ["Ann Lee", "Bob"]);
}

#[test]
fn the_qr_code_written_is_a_png_of_printable_size() {
    let scratch = Scratch::new("png");
    let dir = event(&scratch);
    let png = scratch.path("ann.png");
    let out = Test::new()
        .args(["referee", "add", "Ann Lee", "-o"])
        .arg(&png)
        .arg("--event")
        .arg(&dir)
        .run()
        .success()
        .stderr_has("ann.png written");
    key_and_link(&out);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[8..16], b"\0\0\0\x0dIHDR");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!(width, height);
    assert!((400..=600).contains(&width), "{width} px");
    // the key is in the picture, not in the file's bytes as text
    let (key, _) = key_and_link(&out);
    assert!(!bytes.windows(key.len()).any(|w| w == key.as_bytes()));
}

/// An event of the first schema takes referees once opened (migrated to
/// the current schema).
#[test]
fn an_event_of_the_first_schema_takes_referees() {
    let scratch = Scratch::new("schema1");
    let dir = scratch.path("event");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["tilerank.toml", "tilerank.db"] {
        let from = crate::test::fixtures().join("schema1-event").join(f);
        std::fs::copy(from, dir.join(f)).unwrap();
    }
    referee(&dir, &["list", "--format", "csv"])
        .success()
        .stdout_is("name,status,added,revoked\n");
    let (key, _) = key_and_link(&referee(&dir, &["add", "Ann Lee"]).success());
    let folder = EventFolder::open(&dir).unwrap();
    assert_eq!(folder.authenticate(&key).unwrap().unwrap().name, "Ann Lee");
}

/// A folder whose event is files (no database) is refused for a write, as
/// every writing command refuses it; listing shows nobody.
#[test]
fn a_source_folder_is_refused() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/nvso-2023");
    referee(&demo, &["add", "Ann Lee"])
        .failure(2)
        .stdout_is("")
        .stderr_has("does not write into it");
    referee(&demo, &["list", "--format", "csv"])
        .success()
        .stdout_is("name,status,added,revoked\n");
}

#[test]
fn the_events_site_setting_is_the_links_address_and_a_bad_one_names_its_line() {
    let scratch = Scratch::new("site");
    let dir = event(&scratch);
    let toml = dir.join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(
        text.contains("# site = \"http://192.168.1.20:8080\""),
        "{text}"
    );
    std::fs::write(
        &toml,
        text.replace(
            "# site = \"http://192.168.1.20:8080\"",
            "site = \"http://10.0.0.5:8080/\"",
        ),
    )
    .unwrap();
    let (key, link) = key_and_link(&referee(&dir, &["add", "Ann Lee"]).success());
    assert_eq!(link, format!("http://10.0.0.5:8080/entry?key={key}"));
    // --site-url still says where, for one referee
    let (key, link) =
        key_and_link(&referee(&dir, &["add", "Bob", "--site-url", "http://10.0.0.9"]).success());
    assert_eq!(link, format!("http://10.0.0.9/entry?key={key}"));
    let text = std::fs::read_to_string(&toml).unwrap();
    let line = text.lines().position(|l| l.starts_with("site = ")).unwrap() + 1;
    std::fs::write(&toml, text.replace("http://10.0.0.5:8080/", "192.168.1.20")).unwrap();
    referee(&dir, &["list"])
        .failure(2)
        .stderr_has(&format!("tilerank.toml:{line}:"))
        .stderr_has("[event] site = \"192.168.1.20\": expected an address starting http://");
}
