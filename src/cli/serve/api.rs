//! The live desk's routes: a referee signs in with their link and enters
//! cards (`/entry`, `/api/check`, `/api/cards`); the director settles the
//! tables (`/board`). What a card is, and whether it is right, is the
//! event folder's to say ([`EventFolder::enter_card`]); this is only HTTP.
//!
//! Who may do what:
//! - A referee is known by their key: `Authorization: Bearer KEY` (any
//!   client), or the cookie their link set (the page). They may check and
//!   enter cards, nothing else.
//! - The director is known by this run's director key, through the cookie
//!   the board's link set.
//! - A request made with a cookie must also carry the form token of that
//!   cookie's key for this run ([`form_token`]: header `X-CSRF-Token`, or
//!   the form's `csrf` field; one phone's token is no use with another's
//!   cookie, and a referee's page never shows the board's), and come from
//!   this site (`Origin`, when the browser says it: this server's host, or
//!   the event's `site`, the address the phones open, which a proxy in
//!   front may not pass on as the host): another site's page cannot post
//!   for a signed-in phone. The cookies are `HttpOnly` and
//!   `SameSite=Strict`.

use super::{lang_of, small_page, Desk};
use axum::body::{Body, Bytes};
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use tilerank::domain::{CardKey, Label, SessionName, Stage};
use tilerank::event_folder::{
    entry_stage, Accept, Denied, Entered, EntryProblem, EventFolder, FolderError, Holder, Referee,
    Refusal, SeatName, ENTRY_MAX_BYTES,
};
use tilerank::lang::Lang;
use tilerank::report::site::entry::{self, EntryPage};

const REFEREE_COOKIE: &str = "tilerank_referee";
const DIRECTOR_COOKIE: &str = "tilerank_director";

pub(super) fn routes() -> Router<Arc<Desk>> {
    Router::new()
        .route("/entry", get(entry_page))
        .route("/api/check", post(check))
        .route("/api/cards", post(cards))
        .route("/board", get(board))
        .route("/board/accept", post(accept))
}

fn json_answer(status: StatusCode, value: Value) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        format!("{value}\n"),
    )
        .into_response()
}

/// A refusal to a referee's phone, said in the request's language
/// (`lang_of`, as the entry page).
pub(super) fn refused_in(
    status: StatusCode,
    why: Refusal,
    parts: &[&dyn std::fmt::Display],
    lang: Lang,
) -> Response {
    refused(status, &why.say(lang, parts))
}

pub(super) fn refused(status: StatusCode, message: &str) -> Response {
    let word = if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        "denied"
    } else {
        "refused"
    };
    json_answer(status, json!({"status": word, "message": message}))
}

/// A cookie's value.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

fn set_cookie(name: &str, value: &str) -> String {
    format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=604800")
}

/// The form token a signed-in key's pages carry, this run: a keyed hash
/// of the key (an HMAC's shape, on SHA-256), so a token is good with its
/// own cookie only. A referee sees their own on their page; the board's
/// is the director's, never shown to a referee.
pub(super) fn form_token(desk: &Desk, key: &str) -> String {
    use tilerank::event_folder::sha256_hex;
    let secret = &desk.csrf;
    let inner = sha256_hex(format!("{secret}\0{key}").as_bytes());
    sha256_hex(format!("{secret}\0{inner}").as_bytes())
}

/// Two secrets compared in full, whatever their first difference.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// A request from a page of another site: its `Origin` is neither this
/// server's host nor `site` (the origin of the event's `site`, when set).
fn cross_site(headers: &HeaderMap, site: Option<&str>) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    if site.is_some_and(|site| origin.eq_ignore_ascii_case(site)) {
        return false;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    host.is_empty() || !origin_host.eq_ignore_ascii_case(host)
}

/// The origin of the event's `site` (scheme and host, as a browser's
/// `Origin` says it: without the scheme's own port), when it is an
/// address ([`check_site_url`]).
pub(super) fn site_origin(site: &str) -> Option<String> {
    let site = tilerank::event_folder::check_site_url(site).ok()?;
    let (scheme, rest) = site.split_once("://")?;
    let host = rest.split('/').next()?;
    let own_port = if scheme.eq_ignore_ascii_case("https") {
        ":443"
    } else {
        ":80"
    };
    let host = host.strip_suffix(own_port).unwrap_or(host);
    Some(format!("{scheme}://{host}"))
}

/// The referee a request is from, and the key they are known by (for the
/// rate), or the answer that refuses it.
async fn referee(desk: &Arc<Desk>, headers: &HeaderMap) -> Result<(Referee, String), Response> {
    let lang = lang_of(headers, desk.lang);
    let refused = |status, why| refused_in(status, why, &[], lang);
    if cross_site(headers, desk.site_origin.as_deref()) {
        return Err(refused(StatusCode::FORBIDDEN, Refusal::CrossSite));
    }
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        // (the scheme's name in any case, as HTTP has it)
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, key)| key.trim());
    let key = match (bearer, cookie(headers, REFEREE_COOKIE)) {
        (Some(key), _) => key.to_string(),
        (None, Some(key)) => {
            let token = headers
                .get("x-csrf-token")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            if !same_secret(token, &form_token(desk, key)) {
                return Err(refused(StatusCode::FORBIDDEN, Refusal::OldFormToken));
            }
            key.to_string()
        }
        (None, None) => return Err(refused(StatusCode::UNAUTHORIZED, Refusal::NoKey)),
    };
    let folder = event(desk).map_err(|e| desk_error(&e, lang))?;
    let answer = authenticate(folder, &key, lang).await?;
    match answer {
        Ok(referee) => {
            if !desk.rate.allow(&key) {
                let mut answer = refused(StatusCode::TOO_MANY_REQUESTS, Refusal::TooManyRequests);
                answer
                    .headers_mut()
                    .insert(header::RETRY_AFTER, desk.rate.retry_after().into());
                return Err(answer);
            }
            Ok((referee, key))
        }
        Err(Denied::Revoked { name, revoked }) => Err(refused_in(
            StatusCode::FORBIDDEN,
            Refusal::KeyRevoked,
            &[&name, &revoked],
            lang,
        )),
        Err(_) => Err(refused(StatusCode::FORBIDDEN, Refusal::NotARefereeKey)),
    }
}

/// The live desk's event folder, read afresh.
fn event(desk: &Desk) -> Result<EventFolder, FolderError> {
    let dir = desk
        .event_dir
        .as_ref()
        .expect("the live desk has its event");
    EventFolder::open(dir)
}

/// The live desk's event folder, for the director's board: an error is
/// said as it is.
#[allow(clippy::result_large_err)]
fn board_event(desk: &Desk) -> Result<EventFolder, Response> {
    event(desk).map_err(|e| server_error(&format!("the event cannot be opened: {e}")))
}

/// The referee whose key this is, or why not (an error of the event
/// said in `lang`, the phone's language).
async fn authenticate(
    folder: EventFolder,
    key: &str,
    lang: Lang,
) -> Result<Result<Referee, Denied>, Response> {
    let key = key.to_string();
    tokio::task::spawn_blocking(move || folder.authenticate(&key))
        .await
        .map_err(|_| desk_failed("the key could not be checked", lang))?
        .map_err(|e| desk_error(&e, lang))
}

fn server_error(why: &str) -> Response {
    eprintln!("The live desk: {why}");
    refused(StatusCode::INTERNAL_SERVER_ERROR, why)
}

/// An error of the event folder while a referee's request is answered:
/// the desk's terminal says the error; the phone is told what to do, in
/// its language ([`Refusal::of_error`]): 503 while the event cannot take
/// cards yet (no roster) or is busy (then `Retry-After`), else 500.
fn desk_error(e: &FolderError, lang: Lang) -> Response {
    eprintln!("The live desk: {e}");
    let why = Refusal::of_error(e);
    let status = match why {
        Refusal::NoRoster | Refusal::EventBusy => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let mut answer = refused_in(status, why, &[], lang);
    if why == Refusal::EventBusy {
        answer.headers_mut().insert(header::RETRY_AFTER, 60.into());
    }
    answer
}

/// The work of a referee's request that failed without an error of the
/// event's (it stopped mid-way): said as [`desk_error`] says the others.
fn desk_failed(why: &str, lang: Lang) -> Response {
    eprintln!("The live desk: {why}");
    refused_in(
        StatusCode::INTERNAL_SERVER_ERROR,
        Refusal::DeskCannotStore,
        &[],
        lang,
    )
}

/// The card in a request's body: text, at most [`ENTRY_MAX_BYTES`].
async fn card_body(headers: &HeaderMap, body: Body, lang: Lang) -> Result<Bytes, Response> {
    let kind = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if !(kind.starts_with("text/csv") || kind.starts_with("text/plain")) {
        return Err(refused_in(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Refusal::NotCsv,
            &[],
            lang,
        ));
    }
    axum::body::to_bytes(body, ENTRY_MAX_BYTES)
        .await
        .map_err(|e| {
            let too_large = e
                .into_inner()
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some();
            if too_large {
                refused_in(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    Refusal::CardTooLarge,
                    &[&ENTRY_MAX_BYTES],
                    lang,
                )
            } else {
                // (the phone left the Wi-Fi, or stalled, mid-card)
                refused_in(StatusCode::BAD_REQUEST, Refusal::CardCutOff, &[], lang)
            }
        })
}

/// The problems of a posted card, each said in `lang`.
fn problems_json(problems: &[EntryProblem], lang: Lang) -> Value {
    Value::Array(
        problems
            .iter()
            .map(|p| {
                json!({
                    "severity": match p.severity {
                        tilerank::problem::Severity::Error => "error",
                        tilerank::problem::Severity::Warning => "warning",
                        tilerank::problem::Severity::Note => "note",
                    },
                    "game": p.game,
                    "seat": p.seat.map(|s| s.to_string()),
                    "field": p.field,
                    "message": p.message(lang),
                })
            })
            .collect(),
    )
}

fn players_json(players: &[SeatName]) -> Value {
    Value::Array(
        players
            .iter()
            .map(|p| json!({"seat": p.seat.to_string(), "id": p.id, "name": p.name}))
            .collect(),
    )
}

/// A card a referee posts: who, the card, and the event to take it; or
/// the answer that refuses it.
async fn posted_card(
    desk: &Arc<Desk>,
    headers: &HeaderMap,
    body: Body,
) -> Result<(Referee, Bytes, EventFolder), Response> {
    let (referee, _) = referee(desk, headers).await?;
    let lang = lang_of(headers, desk.lang);
    let body = card_body(headers, body, lang).await?;
    let folder = event(desk).map_err(|e| desk_error(&e, lang))?;
    Ok((referee, body, folder))
}

/// `POST /api/check`: what the checks say of a card as it is typed.
async fn check(State(desk): State<Arc<Desk>>, headers: HeaderMap, body: Body) -> Response {
    let (referee, body, folder) = match posted_card(&desk, &headers, body).await {
        Ok(posted) => posted,
        Err(answer) => return answer,
    };
    // (the page's fetch asks in the page's language)
    let lang = lang_of(&headers, desk.lang);
    let answer =
        tokio::task::spawn_blocking(move || folder.check_entry(&referee.name, &body)).await;
    match answer {
        Ok(Ok(check)) => json_answer(
            StatusCode::OK,
            json!({
                "ok": check.ok(),
                "problems": problems_json(&check.problems, lang),
                "players": players_json(&check.players),
            }),
        ),
        Ok(Err(e)) => desk_error(&e, lang),
        Err(_) => desk_failed("the card could not be checked", lang),
    }
}

/// `POST /api/cards`: stores a card (see docs/formats.md for the answers).
async fn cards(State(desk): State<Arc<Desk>>, headers: HeaderMap, body: Body) -> Response {
    let (referee, body, folder) = match posted_card(&desk, &headers, body).await {
        Ok(posted) => posted,
        Err(answer) => return answer,
    };
    let name = referee.name.clone();
    let lang = lang_of(&headers, desk.lang);
    let answer =
        tokio::task::spawn_blocking(move || folder.enter_card(&name, &body, &mut || {})).await;
    let entered = match answer {
        Ok(Ok(entered)) => entered,
        Ok(Err(e)) => return desk_error(&e, lang),
        Err(_) => return desk_failed("the card could not be stored", lang),
    };
    // (in the request's language, as the problems)
    let card = |key: &CardKey| key.said().say(lang);
    match entered {
        Entered::Stored {
            card: key,
            warnings,
        } => {
            eprintln!("{key}: entered by referee {}.", referee.name);
            desk.rebuild_soon();
            json_answer(
                StatusCode::CREATED,
                json!({"status": "stored", "card": card(&key), "problems": problems_json(&warnings, lang)}),
            )
        }
        Entered::Same { card: key } => json_answer(
            StatusCode::OK,
            json!({"status": "same", "card": card(&key), "problems": []}),
        ),
        Entered::Waiting {
            card: key,
            warnings,
        } => {
            eprintln!(
                "{key}: entered by referee {}; it counts once the desk's typing agrees.",
                referee.name
            );
            json_answer(
                StatusCode::ACCEPTED,
                json!({"status": "waiting", "card": card(&key), "problems": problems_json(&warnings, lang)}),
            )
        }
        Entered::Conflict {
            card: key,
            held_by,
            messages,
        } => {
            eprintln!(
                "{key}: referee {}'s entry differs from the event's card: the director decides on the board.",
                referee.name
            );
            let mut answer = json!({
                "status": "conflict",
                "card": card(&key),
                "held_by": held_by.word(),
                "message": messages[lang.index()],
            });
            if let Holder::Referee(name) = &held_by {
                answer["referee"] = json!(name);
            }
            json_answer(StatusCode::CONFLICT, answer)
        }
        Entered::Refused(problems) => json_answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"status": "problems", "problems": problems_json(&problems, lang)}),
        ),
    }
}

#[derive(Deserialize)]
struct KeyQuery {
    key: Option<String>,
    /// The entry page's stage (`/entry?stage=final`); none: the first
    /// with cards still to enter ([`entry_stage`]).
    stage: Option<String>,
}

/// An address of the desk whose query is none of its links' (a key or a
/// stage given twice): refused in words, not in the server's own.
fn not_a_link(_: QueryRejection) -> Response {
    small_page(
        StatusCode::BAD_REQUEST,
        "Not a link of this desk",
        "This address is not one of the desk's links: open your link again (scan its QR code), or the board's link that tilerank serve printed.",
    )
}

/// `GET /entry?key=KEY` signs a phone in (the key becomes a cookie, and
/// leaves the address bar); `GET /entry` is the page.
async fn entry_page(
    State(desk): State<Arc<Desk>>,
    query: Result<Query<KeyQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let query = match query {
        Ok(Query(query)) => query,
        Err(rejection) => return not_a_link(rejection),
    };
    let lang = lang_of(&headers, desk.lang);
    let folder = match event(&desk) {
        Ok(f) => f,
        Err(e) => return desk_error(&e, lang),
    };
    let (rules, event_name) = (folder.rules(), folder.config.event.name.clone());
    if let Some(key) = query.key {
        return match authenticate(folder, &key, lang).await {
            Ok(Ok(_)) => (
                [(header::SET_COOKIE, set_cookie(REFEREE_COOKIE, &key))],
                Redirect::to("/entry"),
            )
                .into_response(),
            Ok(Err(Denied::Revoked { name, .. })) => small_page(
                StatusCode::FORBIDDEN,
                "Key revoked",
                &format!(
                    "The key of referee {} was revoked. Ask the director for a new link.",
                    tilerank::report::site::html::esc(&name)
                ),
            ),
            Ok(Err(_)) => small_page(
                StatusCode::FORBIDDEN,
                "Unknown key",
                "This link is not a referee's of this event. Ask the director for yours.",
            ),
            Err(answer) => answer,
        };
    }
    let Some(key) = cookie(&headers, REFEREE_COOKIE) else {
        return small_page(
            StatusCode::UNAUTHORIZED,
            "Sign in",
            "Open the link the director gave you (its QR code) to sign in.",
        );
    };
    let referee = match authenticate(folder, key, lang).await {
        Ok(Ok(r)) => r,
        Ok(Err(_)) => {
            return small_page(
                StatusCode::FORBIDDEN,
                "Signed out",
                "Your key is no longer valid. Ask the director for a new link.",
            )
        }
        Err(answer) => return answer,
    };
    let stage = match query.stage {
        // the first stage with cards still to enter (the final, while
        // it is played), else the last
        None => {
            let folder = event(&desk);
            tokio::task::spawn_blocking(move || {
                folder.ok()?.load(&[], None).ok().map(|e| entry_stage(&e))
            })
            .await
            .ok()
            .flatten()
            .unwrap_or_else(|| rules.stages.first().cloned().unwrap_or_default())
        }
        Some(asked) => match rules.stages.iter().find(|s| **s == asked) {
            Some(stage) => stage.clone(),
            None => {
                return small_page(
                    StatusCode::NOT_FOUND,
                    "No such stage",
                    &format!(
                        "This event plays no stage \"{}\"; its stages are {}.",
                        tilerank::report::site::html::esc(&asked),
                        tilerank::report::site::html::esc(&rules.stages.join(", "))
                    ),
                )
            }
        },
    };
    // (the schedule is the first stage's; a later stage's session and
    // table are typed)
    let first = rules.stages.first() == Some(&stage);
    let (sessions, tables) = match rules.schedule.filter(|_| first) {
        Some(s) => (
            (1..=s.sessions.min(999))
                .map(|n| SessionName(&Label::Num(n)).to_string())
                .collect(),
            (1..=s.tables.min(999)).map(|n| n.to_string()).collect(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    let html = entry::page(&EntryPage {
        lang,
        event: &event_name,
        referee: &referee.name,
        stage: &stage,
        stages: &rules.stages,
        sessions: &sessions,
        tables: &tables,
        games: rules.games_for(&Stage::new(&stage)),
        scoring: rules.scoring,
        seats: &['A', 'B', 'C', 'D'],
        csrf: &form_token(&desk, key),
    });
    guarded_html(html)
}

/// A signed-in page: never cached, never framed, nothing from elsewhere.
fn guarded_html(html: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            ),
        ],
        html,
    )
        .into_response()
}

/// Whether a request carries the director's cookie.
fn is_director(desk: &Desk, headers: &HeaderMap) -> bool {
    cookie(headers, DIRECTOR_COOKIE).is_some_and(|k| same_secret(k, &desk.director))
}

/// `GET /board?key=KEY` signs the director in; `GET /board` is the board.
async fn board(
    State(desk): State<Arc<Desk>>,
    query: Result<Query<KeyQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let query = match query {
        Ok(Query(query)) => query,
        Err(rejection) => return not_a_link(rejection),
    };
    if let Some(key) = query.key {
        if !same_secret(&key, &desk.director) {
            return small_page(
                StatusCode::FORBIDDEN,
                "Wrong key",
                "This is not the director's link of this run of tilerank serve.",
            );
        }
        return (
            [(header::SET_COOKIE, set_cookie(DIRECTOR_COOKIE, &key))],
            Redirect::to("/board"),
        )
            .into_response();
    }
    if !is_director(&desk, &headers) {
        return small_page(
            StatusCode::UNAUTHORIZED,
            "Director only",
            "Open the board's link that tilerank serve printed.",
        );
    }
    let folder = match board_event(&desk) {
        Ok(f) => f,
        Err(answer) => return answer,
    };
    let csrf = form_token(&desk, &desk.director);
    let name = folder.config.event.name.clone();
    let double = folder.rules().double_entry;
    let answer = tokio::task::spawn_blocking(move || folder.board()).await;
    // (the files the pages leave out for their errors, and the players of
    // a later stage with no card yet, as the pages say them)
    let (site, _, left_out) = desk.site().await;
    let no_card = site
        .map(|s| s.completeness.waiting.clone())
        .unwrap_or_default();
    match answer {
        Ok(Ok(tables)) => guarded_html(tilerank::report::board::page(
            &tilerank::report::board::Board {
                // (as the entry page: the browser's language, else --lang)
                lang: lang_of(&headers, desk.lang),
                event: &name,
                tables: &tables,
                csrf: &csrf,
                double,
                left_out: &left_out,
                no_card: &no_card,
            },
        )),
        Ok(Err(e)) => server_error(&e.to_string()),
        Err(_) => server_error("the board could not be read"),
    }
}

/// The board's form. A field left out is empty: a form without its token
/// is refused as one with a wrong token is.
#[derive(Deserialize, Default)]
#[serde(default)]
struct AcceptForm {
    stage: String,
    session: String,
    table: String,
    /// `card` (the event's card stands) or an entry's number.
    choice: String,
    reason: String,
    csrf: String,
}

/// `POST /board/accept`: the director settles a table.
async fn accept(
    State(desk): State<Arc<Desk>>,
    headers: HeaderMap,
    form: Result<Form<AcceptForm>, FormRejection>,
) -> Response {
    let form = match form {
        Ok(Form(form)) => form,
        // not a form, or not one that reads: said in words (a form's body
        // too large or not a form keeps its status)
        Err(rejection) => {
            let status = match rejection.status() {
                s @ (StatusCode::UNSUPPORTED_MEDIA_TYPE | StatusCode::PAYLOAD_TOO_LARGE) => s,
                _ => StatusCode::BAD_REQUEST,
            };
            return small_page(
                status,
                "Refused",
                "This is not the board's form: reload the board and settle the table from it.",
            );
        }
    };
    if cross_site(&headers, desk.site_origin.as_deref())
        || !same_secret(&form.csrf, &form_token(&desk, &desk.director))
    {
        return small_page(
            StatusCode::FORBIDDEN,
            "Refused",
            "This form did not come from the board of this run: reload the board.",
        );
    }
    if !is_director(&desk, &headers) {
        return small_page(
            StatusCode::UNAUTHORIZED,
            "Director only",
            "Open the board's link that tilerank serve printed.",
        );
    }
    let choice = match form.choice.as_str() {
        "card" => Accept::EventCard,
        n => match n.parse() {
            Ok(id) => Accept::Entry(id),
            Err(_) => {
                return small_page(StatusCode::BAD_REQUEST, "Refused", "No such choice.");
            }
        },
    };
    let key = CardKey {
        stage: Stage::new(&form.stage),
        session: Label::session(&form.session).unwrap_or(Label::Text(form.session.clone())),
        table: Label::table(&form.table).unwrap_or(Label::Text(form.table.clone())),
    };
    let folder = match board_event(&desk) {
        Ok(f) => f,
        Err(answer) => return answer,
    };
    let reason = form.reason.clone();
    let shown = key.to_string();
    let answer =
        tokio::task::spawn_blocking(move || folder.accept(&key, choice, &reason, &mut || {})).await;
    match answer {
        Ok(Ok(())) => {
            eprintln!("{shown}: settled on the board ({}).", form.reason.trim());
            desk.rebuild_soon();
            Redirect::to("/board").into_response()
        }
        Ok(Err(e)) => small_page(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Not settled",
            &format!(
                "{} <a href=\"/board\">Back to the board</a>.",
                tilerank::report::site::html::esc(&e.to_string())
            ),
        ),
        Err(_) => server_error("the decision could not be stored"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn cookies_are_found_by_name() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; tilerank_referee=abc; b=2"),
        );
        assert_eq!(cookie(&h, REFEREE_COOKIE), Some("abc"));
        assert_eq!(cookie(&h, DIRECTOR_COOKIE), None);
    }

    #[test]
    fn another_sites_origin_is_cross_site() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        assert!(
            !cross_site(&h, None),
            "no Origin: not a browser's cross-site post"
        );
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        assert!(!cross_site(&h, None));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        assert!(cross_site(&h, None));
        assert!(cross_site(&h, Some("https://desk.example")));
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(cross_site(&h, None));
        // behind a proxy that passes on its own host: the event's site
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://desk.example"),
        );
        assert!(cross_site(&h, None));
        assert!(!cross_site(&h, Some("https://desk.example")));
        assert!(!cross_site(&h, Some("https://DESK.example")));
        assert!(
            cross_site(&h, Some("http://desk.example")),
            "another scheme"
        );
    }

    #[test]
    fn a_sites_origin_is_its_scheme_and_host() {
        for (site, origin) in [
            ("https://desk.example/hall-2/", Some("https://desk.example")),
            ("http://192.168.1.20:8080", Some("http://192.168.1.20:8080")),
            // the port a browser leaves out, and one it does not
            (
                "https://desk.example:443/hall",
                Some("https://desk.example"),
            ),
            ("http://desk.example:80", Some("http://desk.example")),
            ("http://desk.example:443", Some("http://desk.example:443")),
            ("desk.example", None),
        ] {
            assert_eq!(site_origin(site).as_deref(), origin, "{site}");
        }
    }

    /// A phone whose card meets a busy event is told when to send it
    /// again; one that meets any other error of the event, a 500.
    #[test]
    fn a_busy_event_is_a_503_with_when_to_send_again() {
        let busy = desk_error(
            &FolderError::Busy {
                path: "event/tilerank.db".into(),
            },
            Lang::ZhHant,
        );
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(busy.headers()[header::RETRY_AFTER], "60");
        let other = desk_error(&FolderError::Refused("x".into()), Lang::En);
        assert_eq!(other.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(other.headers().get(header::RETRY_AFTER).is_none());
    }

    #[test]
    fn secrets_are_compared_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }
}
