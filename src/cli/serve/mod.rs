//! `tilerank serve`: the pages of `publish`, served live from memory and
//! rebuilt when the event's data changes; with `--entry`, also the live
//! desk: referees enter the signed cards at the table on their phones
//! (`/entry`, `POST /api/cards`), and the director settles the tables on
//! a board (`/board`).
//!
//! The server is axum on tokio: phones on a hall's Wi-Fi come and go in
//! the middle of a request, and one slow connection must not hold up the
//! others or the projector. The event's work (reading the database,
//! checking and storing a card, building the pages) runs on tokio's
//! blocking threads; the database's own lock orders the writers, here and
//! in an `import` typed at the desk at the same moment.

mod api;
mod limits;

use super::answers::Again;
use super::publish::{Built, SiteEventArgs};
use super::Outcome;
use anyhow::{anyhow, Result};
use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use clap::Args;
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};
use tilerank::event_folder::Refusal;
use tilerank::event_folder::{EventFolder, RefereeKey};
use tilerank::report::site::html::esc;
use tilerank::report::site::{Lang, Site};

/// Serve the results website live, rebuilt when a card is imported; with --entry, referees enter cards on their phones (Ctrl-C stops)
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank serve --event my-event                 then open http://127.0.0.1:8080/\n  tilerank serve --event my-event --bind 0.0.0.0 --port 8080   the hall's network (the projector: /projector.html)\n  tilerank serve --event my-event --entry --bind 0.0.0.0       referees enter cards at the table\n\nThe pages are those of tilerank publish. At most once a second, on a request, the event's files are looked at (their times and sizes); when any changed, the event is read again and every page rebuilt. While the cards have errors, the last good pages stay up, each page naming the files not in yet and their errors, until they are saved right (serve reads them again by itself); an event folder or file that is not there at the start stops it (exit status 2), as every command. Open pages reload themselves within seconds of a new card.\n\nWith --entry, each referee opens the link `tilerank referee add NAME` printed (their phone keeps a cookie, not the link); the director's board link is printed at start and changes at every start. API: POST /api/cards with Authorization: Bearer KEY and a text/csv card (see docs/formats.md)."
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

    /// The live desk: referees enter cards at /entry (their links come from `tilerank referee add`), the director settles tables at /board
    #[arg(long)]
    pub entry: bool,
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
    site: Option<Arc<Site>>,
    /// Why the latest build gave no site (shown while there is none).
    refused: Option<String>,
    /// The files whose errors refused the latest build, each with its
    /// errors: every page says so while the last good pages stand.
    left_out: BTreeMap<String, usize>,
    seen: Fingerprint,
    checked: Instant,
    /// Counts the builds that gave pages: open pages ask for it, and
    /// reload when it changes.
    version: Arc<AtomicU64>,
}

impl Live {
    fn rebuild(&mut self) {
        if let Err(e) = self.try_rebuild() {
            let said = super::said_once(&e);
            eprintln!("Pages not rebuilt: {said}; the last good pages stay up.");
            self.refused = Some(said);
        }
    }

    /// Builds the pages; `Err` when the event cannot be read at all (a
    /// folder or file not there, a wrong tilerank.toml), which stops the
    /// command at its start, as every command stops (exit status 2). Data
    /// errors keep the last good pages up (the director fixes them live).
    fn try_rebuild(&mut self) -> Result<()> {
        self.seen = fingerprint(&self.args);
        match self.args.build(Again::Saved)? {
            Built::Site(site) => {
                eprintln!("Pages rebuilt: {} files.", site.files.len());
                self.site = Some(Arc::new(site));
                self.refused = None;
                self.left_out.clear();
                self.version.fetch_add(1, Ordering::SeqCst);
            }
            Built::Refused {
                why,
                public,
                errors,
            } => {
                eprintln!("Pages not rebuilt: {why}; the last good pages stay up.");
                self.refused = Some(public.to_string());
                if errors != self.left_out {
                    self.left_out = errors;
                    // (open pages reload, and say it)
                    self.version.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
        Ok(())
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

/// Everything the handlers share.
pub(crate) struct Desk {
    live: Mutex<Live>,
    version: Arc<AtomicU64>,
    /// The event folder of the live desk (`--entry`), opened afresh for
    /// each request (its settings may change while the server runs).
    event_dir: Option<PathBuf>,
    /// This run's secret that the form tokens are made from
    /// ([`api::form_token`]): each signed-in key's token is sent back with
    /// every form and every request its pages make; a request from another
    /// site cannot know it.
    csrf: String,
    /// The director's key for this run.
    director: String,
    /// The origin of the event's `site` ([`api::site_origin`]): the
    /// address the phones open, which a proxy in front may not pass on
    /// as the host; a page from it is this site's.
    site_origin: Option<String>,
    rate: limits::Rate,
    lang: Lang,
    /// How long a request's head and body may take to arrive.
    deadlines: limits::Deadlines,
}

/// What [`Desk::site`] gives: the pages, why there are none, and the
/// files left out of them.
type Shown = (Option<Arc<Site>>, Option<String>, BTreeMap<String, usize>);

impl Desk {
    /// The pages, refreshed if the event changed (on a blocking thread:
    /// reading the event takes a while).
    async fn site(self: &Arc<Self>) -> Shown {
        let desk = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut live = desk.live.lock().unwrap_or_else(|e| e.into_inner());
            live.refresh();
            (
                live.site.clone(),
                live.refused.clone(),
                live.left_out.clone(),
            )
        })
        .await
        .unwrap_or((
            None,
            Some("the pages could not be built".to_string()),
            BTreeMap::new(),
        ))
    }

    /// Builds the pages again now (a card was just stored), in the
    /// background.
    fn rebuild_soon(self: &Arc<Self>) {
        let desk = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut live = desk.live.lock().unwrap_or_else(|e| e.into_inner());
            live.rebuild();
            live.checked = Instant::now();
        });
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// The page a request's path names: `/` is `index.html`.
fn page_path(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = path.trim_start_matches('/');
    if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    }
}

/// An HTML page of a few words (an error, a note).
pub(crate) fn small_page(status: StatusCode, title: &str, text: &str) -> Response {
    let body = format!(
        "<!DOCTYPE html><html><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title><p>{}</p></html>\n",
        esc(title),
        text
    );
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

async fn page(
    axum::extract::State(desk): axum::extract::State<Arc<Desk>>,
    request: Request<Body>,
) -> Response {
    use axum::http::Method;
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        if request.uri().path().starts_with("/api/") {
            // (the live desk's address, on a server that has it off)
            return (
                StatusCode::METHOD_NOT_ALLOWED,
                [(header::ALLOW, "GET, HEAD")],
                "the live desk is off: the director starts it with tilerank serve --entry\n",
            )
                .into_response();
        }
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "only GET\n",
        )
            .into_response();
    }
    let path = page_path(request.uri().path());
    let (site, refused, left_out) = desk.site().await;
    // (the files whose errors keep them out, said on every page)
    let notice = tilerank::report::site::html::refused_notice(desk.lang, &left_out);
    match site {
        Some(site) => match site.files.get(&path) {
            Some(bytes) => (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, content_type(&path)),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                match notice.is_empty() {
                    true => bytes.clone(),
                    false => tilerank::report::site::html::with_notice(bytes, &notice)
                        .unwrap_or_else(|| bytes.clone()),
                },
            )
                .into_response(),
            None => small_page(
                StatusCode::NOT_FOUND,
                "Not found",
                &format!(
                    "No page {}. <a href=\"/index.html\">The index</a>.",
                    esc(&path)
                ),
            ),
        },
        None => small_page(
            StatusCode::SERVICE_UNAVAILABLE,
            "No results yet",
            &format!(
                "No results to show: {}.</p>{notice}<p>This page shows the results as soon as the event's data is right (it reloads itself every 5 seconds).<meta http-equiv=\"refresh\" content=\"5\">",
                esc(refused.as_deref().unwrap_or("the event was not read"))
            ),
        ),
    }
}

/// The pages' version: open pages ask for it every few seconds and reload
/// when it changes (a card was imported at the desk or entered at a
/// table).
async fn version(axum::extract::State(desk): axum::extract::State<Arc<Desk>>) -> Response {
    let _ = desk.site().await;
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        format!("{{\"version\":{}}}\n", desk.version.load(Ordering::SeqCst)),
    )
        .into_response()
}

/// Headers every answer carries.
async fn guard_headers(request: Request<Body>, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    response
}

/// A request's body that does not arrive within the deadline
/// ([`limits::BODY`]) fails as it is read, and the request is answered
/// 408, its connection closed: a client that trickles a body gives its
/// place back.
async fn body_deadline(
    axum::extract::State(desk): axum::extract::State<Arc<Desk>>,
    request: Request<Body>,
    next: axum::middleware::Next,
) -> Response {
    let passed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let api = request.uri().path().starts_with("/api/");
    let lang = lang_of(request.headers(), desk.lang);
    let within = desk.deadlines.body;
    let request =
        request.map(|body| Body::new(limits::BodyDeadline::new(body, within, Arc::clone(&passed))));
    let response = next.run(request).await;
    if !passed.load(Ordering::SeqCst) {
        return response;
    }
    let seconds = within.as_secs();
    let mut answer = if api {
        api::refused_in(
            StatusCode::REQUEST_TIMEOUT,
            Refusal::TooSlow,
            &[&seconds],
            lang,
        )
    } else {
        let why = Refusal::TooSlow.say(Lang::En, &[&seconds]);
        small_page(StatusCode::REQUEST_TIMEOUT, "Too slow", &esc(&why))
    };
    answer
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    answer
}

/// A new random key (a director's, a form's), as a referee's is made.
fn new_secret() -> Result<String> {
    Ok(RefereeKey::generate()
        .map_err(|e| anyhow!("{e}"))?
        .as_str()
        .to_string())
}

/// The languages a request prefers: Chinese when it asks for it first.
pub(crate) fn lang_of(headers: &HeaderMap, default: Lang) -> Lang {
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    match accept
        .split(',')
        .next()
        .map(|l| l.trim().to_ascii_lowercase())
    {
        Some(l) if l.starts_with("zh") => Lang::ZhHant,
        Some(l) if l.starts_with("en") => Lang::En,
        _ => default,
    }
}

pub fn run(args: ServeArgs) -> Result<Outcome> {
    let deadlines = limits::Deadlines::from_env()?;
    let (event_dir, site_origin) = if args.entry {
        let folder = args.event.event.folder()?.ok_or_else(|| {
            anyhow!("--entry needs an event folder (--event DIR, or run it inside one): the cards entered are stored in its database")
        })?;
        let dir = folder.dir.clone();
        if folder.storage != tilerank::event_folder::Storage::Database {
            return Err(anyhow!(
                "{}: --entry stores cards in the event's database, and this event keeps its cards as files: {}",
                dir.display(),
                folder.convert_message(&["cards"])
            ));
        }
        let site = folder
            .config
            .event
            .site
            .as_deref()
            .and_then(api::site_origin);
        (Some(folder.dir), site)
    } else {
        (None, None)
    };
    let version = Arc::new(AtomicU64::new(0));
    let lang = args.event.lang;
    let mut live = Live {
        args: args.event,
        site: None,
        refused: None,
        left_out: BTreeMap::new(),
        seen: Vec::new(),
        checked: Instant::now(),
        version: Arc::clone(&version),
    };
    live.try_rebuild()?;
    let desk = Arc::new(Desk {
        live: Mutex::new(live),
        version,
        event_dir,
        csrf: new_secret()?,
        director: new_secret()?,
        site_origin,
        rate: limits::Rate::new(limits::BURST, limits::PER_SECOND),
        lang,
        deadlines,
    });

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| anyhow!("cannot start the server: {e}"))?;
    runtime.block_on(serve(desk, args.bind, args.port))
}

async fn serve(desk: Arc<Desk>, bind: IpAddr, port: u16) -> Result<Outcome> {
    let listener = tokio::net::TcpListener::bind((bind, port))
        .await
        .map_err(|e| anyhow!("cannot listen on {bind} port {port}: {e}"))?;
    let address = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| format!("{bind}:{port}"));
    let mut app = Router::new().route("/api/version", get(version));
    if desk.event_dir.is_some() {
        app = app.merge(api::routes());
    }
    let app = app
        .fallback(page)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&desk),
            body_deadline,
        ))
        .layer(axum::middleware::from_fn(guard_headers))
        .with_state(Arc::clone(&desk));

    let stop = Arc::new(tokio::sync::Notify::new());
    {
        let stop = Arc::clone(&stop);
        ctrlc::set_handler(move || stop.notify_one())
            .map_err(|e| anyhow!("cannot catch Ctrl-C: {e}"))?;
    }
    eprintln!("Serving http://{address}/ (the projector: /projector.html). Ctrl-C stops.");
    if desk.event_dir.is_some() {
        eprintln!(
            "Referees enter cards at http://{address}/entry: each opens the link `tilerank referee add NAME` printed."
        );
        eprintln!(
            "The director's board: http://{address}/board?key={} (this run only; keep it to yourself).",
            desk.director
        );
    }
    let listener = limits::Limited::new(listener, limits::MAX_CONNECTIONS, limits::IDLE);
    connections(listener, app, desk.deadlines.head, stop).await;
    eprintln!("Stopped.");
    Ok(Outcome::Done)
}

/// Serves each connection `listener` accepts, as axum::serve does, with a
/// deadline for each request's head (`head`: hyper's own, on tokio's
/// timer); once `stop` is told, takes no more, lets the requests under
/// way finish, and returns when every connection has closed.
async fn connections(
    mut listener: limits::Limited,
    app: Router,
    head: Duration,
    stop: Arc<tokio::sync::Notify>,
) {
    use axum::serve::Listener;
    use hyper_util::rt::{TokioIo, TokioTimer};
    // (told to every connection when the server stops; each holds a
    // receiver until it closes)
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    loop {
        let (io, _) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stop.notified() => break,
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(head);
            let connection = builder.serve_connection(TokioIo::new(io), service);
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stopped.changed() => connection.as_mut().graceful_shutdown(),
            }
            let _ = connection.await;
        });
    }
    drop(listener);
    drop(stopped);
    let _ = stopping.send(true);
    stopping.closed().await;
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

    #[test]
    fn chinese_first_gives_the_chinese_pages() {
        let mut h = HeaderMap::new();
        assert_eq!(lang_of(&h, Lang::En), Lang::En);
        h.insert(
            header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("zh-HK,zh;q=0.9,en;q=0.8"),
        );
        assert_eq!(lang_of(&h, Lang::En), Lang::ZhHant);
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("en-GB"));
        assert_eq!(lang_of(&h, Lang::ZhHant), Lang::En);
    }
}
