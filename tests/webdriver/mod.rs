//! A WebDriver client for the browser tests: chromedriver on a free port driving headless Chromium (JSON over
//! HTTP through the tests' own client), the page's elements found, clicked and read by scripts, screenshots
//! saved; and whether the browser is installed (needed in CI, else the test is skipped).

#![allow(dead_code)] // each test crate uses part of it

use crate::server::Client;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian puts the browser and its driver (else they are looked for on the PATH).
pub const CHROMIUM: [&str; 2] = ["/usr/bin/chromium", "chromium"];
pub const CHROMEDRIVER: [&str; 2] = ["/usr/bin/chromedriver", "chromedriver"];
/// The key of an element reference in WebDriver's JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// The first of `candidates` that runs (`--version` succeeds).
pub fn found(candidates: [&str; 2]) -> Option<String> {
    candidates
        .into_iter()
        .find(|program| Command::new(program).arg("--version").output().is_ok_and(|output| output.status.success()))
        .map(str::to_string)
}

/// chromedriver on a free port, and a browser session through it; both ended when dropped.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

impl Browser {
    pub fn start(chromium: &str, chromedriver: &str) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen within 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = std::env::temp_dir().join(format!("ludus-browser-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let arguments = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,1400",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": arguments}}}});
        let reply = Client::connect(port).post("/session", &capabilities);
        assert_eq!(reply.status, 200, "a session: {}", String::from_utf8_lossy(&reply.body));
        let session = reply.json()["value"]["sessionId"].as_str().expect("a session id").to_string();
        Browser { driver, port, session, profile }
    }

    /// A WebDriver command: `method` on the session's `path`, its `value`.
    pub fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let bytes = body.map(|body| body.to_string().into_bytes());
        let reply = Client::connect(self.port).request(method, &path, bytes.as_deref());
        assert_eq!(reply.status, 200, "{method} {path}: {}", String::from_utf8_lossy(&reply.body));
        reply.json()["value"].clone()
    }

    pub fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({"url": url})));
    }

    /// Runs `script` (a function body) in the page and returns what it returns.
    pub fn run(&self, script: &str) -> Value {
        self.command("POST", "/execute/sync", Some(json!({"script": script, "args": []})))
    }

    /// Clicks the element that `selector` finds, as a person would.
    pub fn click(&self, selector: &str) {
        let found = self.command("POST", "/element", Some(json!({"using": "css selector", "value": selector})));
        let element = found[ELEMENT].as_str().unwrap_or_else(|| panic!("no element {selector}")).to_string();
        self.command("POST", &format!("/element/{element}/click"), Some(json!({})));
    }

    /// Waits until `script` returns true, for 60 s at most.
    pub fn wait_for(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.run(script) != json!(true) {
            assert!(Instant::now() < deadline, "waited 60 s for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the page shows `moves` played, its answer drawn and the value history complete.
    pub fn wait_for_moves(&self, moves: &[&str]) {
        let played = if moves.is_empty() {
            "No move played yet.".to_string()
        } else {
            format!("Moves played: {}", moves.join(" "))
        };
        let script = format!(
            "return document.getElementById('played').textContent === {played:?} \
             && !document.getElementById('status').classList.contains('busy') \
             && document.querySelectorAll('#chart .point').length === {};",
            moves.len() + 1
        );
        self.wait_for(&script, &format!("the page to show {moves:?}"));
    }

    /// A screenshot of the page, as PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let encoded = self.command("GET", "/screenshot", None);
        base64_decode(encoded.as_str().expect("base64 text"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = Client::connect(self.port).request("DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64 (what WebDriver sends screenshots in).
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |byte: u8| match byte {
        b'A'..=b'Z' => byte - b'A',
        b'a'..=b'z' => byte - b'a' + 26,
        b'0'..=b'9' => byte - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {byte}"),
    };
    let symbols: Vec<u8> = text.bytes().filter(|byte| !byte.is_ascii_whitespace() && *byte != b'=').collect();
    let mut bytes = Vec::with_capacity(symbols.len() * 3 / 4);
    for chunk in symbols.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |bits, (index, &symbol)| bits | u32::from(value(symbol)) << (18 - 6 * index));
        bytes.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    bytes
}

/// The hue and lightness of a colour written `hsl(H S% L%)`.
pub fn hue_and_lightness(colour: &str) -> (f64, f64) {
    let inner = colour.trim_start_matches("hsl(").trim_end_matches(')');
    let numbers: Vec<f64> = inner.split_whitespace().map(|part| part.trim_end_matches('%').parse().unwrap()).collect();
    (numbers[0], numbers[2])
}

/// Where the screenshots go: `LUDUS_SCREENSHOTS`, else the target directory.
pub fn screenshot_path(name: &str) -> PathBuf {
    let directory = std::env::var_os("LUDUS_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    std::fs::create_dir_all(&directory).unwrap();
    directory.join(name)
}

pub fn save_screenshot(browser: &Browser, name: &str) {
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000, "a PNG of the page");
    std::fs::write(screenshot_path(name), png).unwrap();
}

/// The browser and its driver, or `None` (the test is then skipped) when they are not installed outside CI;
/// in CI their absence fails the test.
pub fn tools() -> Option<(String, String)> {
    let (Some(chromium), Some(chromedriver)) = (found(CHROMIUM), found(CHROMEDRIVER)) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium and chromedriver are needed (apt-get install chromium chromium-driver)"
        );
        eprintln!("chromium or chromedriver is not installed: the browser test is skipped");
        return None;
    };
    Some((chromium, chromedriver))
}
