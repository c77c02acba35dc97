//! Headless Chromium driven through its DevTools protocol, over the pipe
//! Chromium opens with `--remote-debugging-pipe` (it reads commands on
//! file descriptor 3 and answers on 4, each message JSON ended by a NUL):
//! no WebSocket, no Node, nothing but the browser.
//!
//! What the tests need of it: a tab emulating a phone (a real 375 px
//! viewport through `Emulation.setDeviceMetricsOverride`: a headless
//! window is never narrower than 500 px), going to a page, running a
//! script in it, typing and clicking as a person does (key and mouse
//! events through `Input`), taking a screenshot.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

extern "C" {
    fn dup2(old: i32, new: i32) -> i32;
    fn fcntl(fd: i32, cmd: i32, ...) -> i32;
}

/// `fcntl`'s "duplicate to the lowest free descriptor at or above".
const F_DUPFD: i32 = 0;

/// Chromium on `PATH`, or `None` after saying on standard error that the
/// browser test did not run; under `CI=true` a missing Chromium fails the
/// test instead.
pub fn chromium_or_skip() -> Option<PathBuf> {
    let names = ["chromium", "chromium-browser"];
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file());
    if found.is_none() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is not installed: CI must run the browser test (.ci/run installs Debian's chromium)");
        }
        eprintln!("BROWSER TEST DID NOT RUN: no chromium on PATH (apt-get install chromium)");
    }
    found
}

pub struct Browser {
    child: Child,
    to: std::fs::File,
    from: Receiver<Value>,
    next: u64,
    session: String,
    /// Events read while waiting for an answer.
    events: Vec<Value>,
}

impl Browser {
    /// Starts `chromium` headless with a fresh profile in `profile`, and
    /// opens one tab.
    pub fn start(chromium: &Path, profile: &Path) -> Browser {
        let _ = std::fs::remove_dir_all(profile);
        let (in_read, in_write) = std::io::pipe().expect("a pipe");
        let (out_read, out_write) = std::io::pipe().expect("a pipe");
        // The ends the browser gets, kept open until it has them.
        let (theirs_in, theirs_out) = (OwnedFd::from(in_read), OwnedFd::from(out_write));
        let (r, w) = (theirs_in.as_raw_fd(), theirs_out.as_raw_fd());
        let mut cmd = Command::new(chromium);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--allow-file-access-from-files",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork
        // and exec. The two ends are first moved above 10 so that putting
        // one on 3 cannot overwrite the other.
        unsafe {
            cmd.pre_exec(move || {
                let (r2, w2) = (fcntl(r, F_DUPFD, 10), fcntl(w, F_DUPFD, 10));
                if r2 < 0 || w2 < 0 || dup2(r2, 3) < 0 || dup2(w2, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("chromium starts");
        // Our copies of the browser's ends: closed, so that its exit ends
        // the reader.
        drop((theirs_in, theirs_out));
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(out_read);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf) {
                            if tx.send(v).is_err() {
                                break;
                            }
                        }
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to: std::fs::File::from(OwnedFd::from(in_write)),
            from: rx,
            next: 0,
            session: String::new(),
            events: Vec::new(),
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"].as_str().expect("a tab").to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": id, "flatten": true}),
        );
        b.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        b.call("Page.enable", json!({}));
        b
    }

    /// Sends a command (to the tab once there is one) and waits for its
    /// answer.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).expect("the browser reads");
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(v) if v["id"].as_u64() == Some(id) => {
                    if let Some(e) = v.get("error") {
                        panic!("{method}: {e}");
                    }
                    return v["result"].clone();
                }
                Ok(v) => self.events.push(v),
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no answer in 120 s"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: the browser is gone"),
            }
        }
    }

    /// The viewport of a phone `width` CSS pixels wide (touch, mobile
    /// layout, `<meta name=viewport>` honoured), or of a screen when
    /// `mobile` is false.
    pub fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// Goes to `url` and waits until the page has loaded.
    pub fn go(&mut self, url: &str) {
        self.events.clear();
        let nav = self.call("Page.navigate", json!({"url": url}));
        if let Some(e) = nav.get("errorText") {
            panic!("{url}: {e}");
        }
        self.wait_event("Page.loadEventFired", url);
    }

    /// Runs `script` in the page; its value (awaited if a promise).
    pub fn eval(&mut self, script: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": script, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("the script failed: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Runs `script` in every document this tab loads from now on,
    /// before the document's own scripts.
    pub fn on_new_document(&mut self, script: &str) {
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": script }),
        );
    }

    /// Reloads the page and waits until it has loaded again.
    pub fn reload(&mut self) {
        self.events.clear();
        self.call("Page.reload", json!({}));
        self.wait_event("Page.loadEventFired", "the reload");
    }

    /// Waits for the event `method` (read since the last `go` or `reload`).
    fn wait_event(&mut self, method: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !self.events.iter().any(|e| e["method"] == method) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(v) => self.events.push(v),
                Err(_) => panic!("{what}: no {method} in 120 s"),
            }
        }
    }

    /// Waits until `script` is true in the page (polled every 50 ms);
    /// panics after `seconds`, saying `what` and what `show` evaluates to.
    pub fn wait_until(&mut self, script: &str, seconds: u64, what: &str, show: &str) {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        loop {
            if self.eval(script) == Value::Bool(true) {
                return;
            }
            if Instant::now() > deadline {
                let seen = self.eval(show);
                panic!("{what}: not so after {seconds} s ({script}); the page shows: {seen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Focuses the element `selector`.
    pub fn focus(&mut self, selector: &str) {
        let found = self.eval(&format!(
            "(function () {{ var e = document.querySelector({s}); if (!e) return false; e.focus(); return document.activeElement === e; }})()",
            s = serde_json::to_string(selector).unwrap()
        ));
        assert_eq!(found, Value::Bool(true), "cannot focus {selector}");
    }

    /// Types `text` into the focused element key by key, as a keyboard
    /// does (key down with its text, key up): key events, then `input`.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            let key = c.to_string();
            let code = match c {
                '0'..='9' => format!("Digit{c}"),
                'a'..='z' | 'A'..='Z' => format!("Key{}", c.to_ascii_uppercase()),
                '-' => "Minus".to_string(),
                ' ' => "Space".to_string(),
                _ => String::new(),
            };
            let vk = match c {
                '0'..='9' | 'A'..='Z' => c as u32,
                'a'..='z' => c.to_ascii_uppercase() as u32,
                '-' => 189,
                ' ' => 32,
                _ => 0,
            };
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": "keyDown", "key": key, "code": code, "text": key,
                       "unmodifiedText": key, "windowsVirtualKeyCode": vk}),
            );
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk}),
            );
        }
    }

    /// Presses a key without text: `Tab`, `Enter`, `Backspace`,
    /// `ArrowDown`...
    pub fn press(&mut self, key: &str) {
        let (vk, text) = match key {
            "Tab" => (9, ""),
            "Enter" => (13, "\r"),
            "Backspace" => (8, ""),
            "ArrowDown" => (40, ""),
            "ArrowUp" => (38, ""),
            "Home" => (36, ""),
            "End" => (35, ""),
            other => panic!("no key code for {other}"),
        };
        let mut down = json!({"type": if text.is_empty() { "rawKeyDown" } else { "keyDown" },
                              "key": key, "code": key, "windowsVirtualKeyCode": vk});
        if !text.is_empty() {
            down["text"] = json!(text);
        }
        self.call("Input.dispatchKeyEvent", down);
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": key, "windowsVirtualKeyCode": vk}),
        );
    }

    /// Clicks the middle of the element `selector` with the mouse (it is
    /// scrolled into view first).
    pub fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(function () {{ var e = document.querySelector({s}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); var r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }})()",
            s = serde_json::to_string(selector).unwrap()
        ));
        let (x, y) = match at.as_array() {
            Some(xy) => (xy[0].as_f64().unwrap(), xy[1].as_f64().unwrap()),
            None => panic!("nothing to click at {selector}"),
        };
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// A PNG of the viewport.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        base64(r["data"].as_str().expect("a screenshot"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64 to bytes.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGk="), b"hi");
    assert_eq!(base64("YWJj"), b"abc");
}
