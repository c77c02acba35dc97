//! `tilerank serve`: the pages of `publish`, served live from memory over
//! HTTP (tiny_http), rebuilt when the event's data changes, so that a
//! newly imported card shows without a restart. One thread answers one
//! request at a time: a scoring desk's few readers and a projector.

use super::publish::{Built, SiteEventArgs};
use super::Outcome;
use anyhow::{anyhow, Result};
use clap::Args;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use tilerank::event_folder::EventFolder;
use tilerank::report::site::html::esc;
use tilerank::report::site::Site;

/// Serve the results website live, rebuilt when a card is imported (Ctrl-C stops)
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank serve --event hk-2026                 then open http://127.0.0.1:8080/\n  tilerank serve --event hk-2026 --bind 0.0.0.0 --port 80   the hall's network (the projector: /projector.html)\n\nThe pages are those of tilerank publish. At most once a second, on a request, the event's files are looked at (their times and sizes); when any changed, the event is read again and every page rebuilt. While the cards have errors, the last good pages stay up."
)]
pub struct ServeArgs {
    #[command(flatten)]
    pub event: SiteEventArgs,

    /// The port to listen on (0: any free port, printed at start)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,

    /// The address to listen on; 0.0.0.0 serves every network of the machine
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
}

/// How long a look at the event's files holds.
const RECHECK: Duration = Duration::from_secs(1);

/// What the event's data looks like on disk: each file with its time and
/// size. A different fingerprint means the event must be read again.
/// This is the one place that knows where an event keeps its data.
type Fingerprint = Vec<(PathBuf, Option<SystemTime>, u64)>;

fn fingerprint(args: &SiteEventArgs) -> Fingerprint {
    let mut roots: Vec<PathBuf> = args.event.inputs.clone();
    roots.extend(args.event.roster.clone());
    match &args.event.event {
        Some(dir) => roots.push(dir.clone()),
        None => roots.extend(EventFolder::find(None)),
    }
    let mut files = Vec::new();
    for root in roots {
        walk(&root, &mut files);
    }
    files.sort();
    files
}

fn walk(path: &Path, out: &mut Fingerprint) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if meta.is_dir() {
        if let Ok(entries) = std::fs::read_dir(path) {
            for entry in entries.flatten() {
                walk(&entry.path(), out);
            }
        }
    } else {
        out.push((path.to_path_buf(), meta.modified().ok(), meta.len()));
    }
}

/// The pages being served, and when the data was last looked at.
struct Live {
    args: SiteEventArgs,
    site: Option<Site>,
    /// Why the latest build gave no site (shown while there is none).
    refused: Option<String>,
    seen: Fingerprint,
    checked: Instant,
}

impl Live {
    fn rebuild(&mut self) {
        self.seen = fingerprint(&self.args);
        match self.args.build() {
            Ok(Built::Site(site)) => {
                eprintln!("Pages rebuilt: {} files.", site.files.len());
                self.site = Some(site);
                self.refused = None;
            }
            Ok(Built::Refused(why)) => {
                eprintln!("Pages not rebuilt: {why}; the last good pages stay up.");
                self.refused = Some(why);
            }
            Err(e) => {
                eprintln!("Pages not rebuilt: {e:#}; the last good pages stay up.");
                self.refused = Some(format!("{e:#}"));
            }
        }
    }

    /// Reads the event again if its files changed (looked at once a
    /// second at most).
    fn refresh(&mut self) {
        if self.checked.elapsed() < RECHECK {
            return;
        }
        self.checked = Instant::now();
        if fingerprint(&self.args) != self.seen {
            self.rebuild();
        }
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The page a request's URL names: `/` is `index.html`.
fn page_path(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = path.trim_start_matches('/');
    if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    }
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn answer(live: &mut Live, request: tiny_http::Request) {
    use tiny_http::{Method, Response};
    if !matches!(request.method(), Method::Get | Method::Head) {
        let _ = request.respond(Response::from_string("only GET\n").with_status_code(405));
        return;
    }
    live.refresh();
    let path = page_path(request.url());
    let (status, kind, body) = match &live.site {
        Some(site) => match site.files.get(&path) {
            Some(bytes) => (200, content_type(&path), bytes.clone()),
            None => (
                404,
                content_type("x.html"),
                format!(
                    "<!DOCTYPE html><meta charset=\"utf-8\"><title>Not found</title><p>No page {}. <a href=\"/index.html\">The index</a>.</p>\n",
                    esc(&path)
                )
                .into_bytes(),
            ),
        },
        None => (
            503,
            content_type("x.html"),
            format!(
                "<!DOCTYPE html><meta charset=\"utf-8\"><title>No results yet</title><p>No results to show: {}.</p><p>This page shows the results as soon as the event's data is right; reload it.</p>\n",
                esc(live.refused.as_deref().unwrap_or("the event was not read"))
            )
            .into_bytes(),
        ),
    };
    let response = Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", kind))
        .with_header(header("Cache-Control", "no-cache"));
    let _ = request.respond(response);
}

pub fn run(args: ServeArgs) -> Result<Outcome> {
    let port = args.port;
    let bind = args.bind;
    let mut live = Live {
        args: args.event,
        site: None,
        refused: None,
        seen: Vec::new(),
        checked: Instant::now(),
    };
    live.rebuild();
    let server = tiny_http::Server::http((bind, port))
        .map_err(|e| anyhow!("cannot listen on {bind} port {port}: {e}"))?;
    let server = Arc::new(server);
    let address = server
        .server_addr()
        .to_ip()
        .map(|a| a.to_string())
        .unwrap_or_else(|| format!("{bind}:{port}"));
    {
        let server = Arc::clone(&server);
        ctrlc::set_handler(move || server.unblock())
            .map_err(|e| anyhow!("cannot catch Ctrl-C: {e}"))?;
    }
    eprintln!("Serving http://{address}/ (the projector: /projector.html). Ctrl-C stops.");
    for request in server.incoming_requests() {
        answer(&mut live, request);
    }
    eprintln!("Stopped.");
    Ok(Outcome::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_pages() {
        assert_eq!(page_path("/"), "index.html");
        assert_eq!(page_path("/index.html?q=%E9%83%AD"), "index.html");
        assert_eq!(page_path("/p/P0001.html#games"), "p/P0001.html");
        assert_eq!(page_path("/t/"), "t/index.html");
        assert_eq!(content_type("site.css"), "text/css; charset=utf-8");
    }
}
