//! The explorer's page in a real browser: headless Chromium driven by chromedriver over the WebDriver protocol
//! (JSON over HTTP), against the real `ludus serve`. The page is loaded, Connect Four 5 x 4 and tic-tac-toe
//! are picked and played by clicks on the board, and what the page shows (each move's value and colour, the
//! value history and its mistakes, the perfect player's move, undo and redo, the link) is checked against the
//! API; a screenshot of each game is taken (into `LUDUS_SCREENSHOTS` if set, else the target directory).
//!
//! Needs Debian's `chromium` and `chromium-driver` (CI installs them); without them the test says so and passes
//! only outside CI.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;

use serde_json::{json, Value};
use server::{Client, Server};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian puts the browser and its driver (else they are looked for on the PATH).
const CHROMIUM: [&str; 2] = ["/usr/bin/chromium", "chromium"];
const CHROMEDRIVER: [&str; 2] = ["/usr/bin/chromedriver", "chromedriver"];
/// The key of an element reference in WebDriver's JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// The hue of each value word on the page (green wins, yellow draws, red losses).
const HUES: [(&str, f64); 3] = [("win", 135.0), ("draw", 48.0), ("loss", 2.0)];

/// The first of `candidates` that runs (`--version` succeeds).
fn found(candidates: [&str; 2]) -> Option<String> {
    candidates
        .into_iter()
        .find(|program| Command::new(program).arg("--version").output().is_ok_and(|output| output.status.success()))
        .map(str::to_string)
}

/// chromedriver on a free port, and a browser session through it; both ended when dropped.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

impl Browser {
    fn start(chromium: &str, chromedriver: &str) -> Browser {
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
        let profile = std::env::temp_dir().join(format!("ludus-browser-{}", std::process::id()));
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
    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let bytes = body.map(|body| body.to_string().into_bytes());
        let reply = Client::connect(self.port).request(method, &path, bytes.as_deref());
        assert_eq!(reply.status, 200, "{method} {path}: {}", String::from_utf8_lossy(&reply.body));
        reply.json()["value"].clone()
    }

    fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({"url": url})));
    }

    /// Runs `script` (a function body) in the page and returns what it returns.
    fn run(&self, script: &str) -> Value {
        self.command("POST", "/execute/sync", Some(json!({"script": script, "args": []})))
    }

    /// Clicks the element that `selector` finds, as a person would.
    fn click(&self, selector: &str) {
        let found = self.command("POST", "/element", Some(json!({"using": "css selector", "value": selector})));
        let element = found[ELEMENT].as_str().unwrap_or_else(|| panic!("no element {selector}")).to_string();
        self.command("POST", &format!("/element/{element}/click"), Some(json!({})));
    }

    /// Waits until `script` returns true, for 60 s at most.
    fn wait_for(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.run(script) != json!(true) {
            assert!(Instant::now() < deadline, "waited 60 s for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the page shows `moves` played, its answer drawn and the value history complete.
    fn wait_for_moves(&self, moves: &[&str]) {
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
    fn screenshot(&self) -> Vec<u8> {
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
fn base64_decode(text: &str) -> Vec<u8> {
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
fn hue_and_lightness(colour: &str) -> (f64, f64) {
    let inner = colour.trim_start_matches("hsl(").trim_end_matches(')');
    let numbers: Vec<f64> = inner.split_whitespace().map(|part| part.trim_end_matches('%').parse().unwrap()).collect();
    (numbers[0], numbers[2])
}

/// Checks the move markers on the board against the API's answer for the same position: every legal move
/// drawn once, with its value, in its value's hue, a faster win (or loss) darker than a slower one.
fn check_move_colours(browser: &Browser, answer: &Value) {
    let drawn = browser.run(
        "return [...document.querySelectorAll('#board .move')].map(node => ({move: node.dataset.move, \
         value: node.dataset.value, remoteness: node.dataset.remoteness, fill: node.querySelector('circle').getAttribute('fill')}));",
    );
    let drawn = drawn.as_array().unwrap();
    let moves = answer["analysis"]["moves"].as_array().unwrap();
    assert_eq!(drawn.len(), moves.len(), "one marker a legal move: {drawn:?}");
    let mut shades = Vec::new();
    for mv in moves {
        let marker =
            drawn.iter().find(|marker| marker["move"] == mv["move"]).unwrap_or_else(|| panic!("no marker for {mv}"));
        assert_eq!(marker["value"], mv["value"], "{mv}");
        let remoteness = mv["remoteness"].as_u64().map_or(String::new(), |plies| plies.to_string());
        assert_eq!(marker["remoteness"].as_str(), Some(remoteness.as_str()), "{mv}");
        let (hue, lightness) = hue_and_lightness(marker["fill"].as_str().unwrap());
        let word = mv["value"].as_str().unwrap();
        assert_eq!(
            Some(hue),
            HUES.iter().find(|(known, _)| *known == word).map(|(_, hue)| *hue),
            "{mv}: {}",
            marker["fill"]
        );
        shades.push((word.to_string(), mv["remoteness"].as_u64(), lightness));
    }
    for (word, remoteness, lightness) in &shades {
        for (other_word, other_remoteness, other_lightness) in &shades {
            if word == other_word && remoteness.is_some() && remoteness < other_remoteness {
                assert!(
                    lightness < other_lightness,
                    "a {word} in {remoteness:?} is darker than one in {other_remoteness:?}"
                );
            }
        }
    }
}

/// The rank of a value word for the player it is the value of.
fn rank(word: &Value) -> u8 {
    match word.as_str() {
        Some("win") => 2,
        Some("draw") => 1,
        _ => 0,
    }
}

/// Checks the value history against the API: one point a position with its value (for the player to move and
/// for the first player), and the mistakes marked where a move's value is worse than its position's. Returns
/// the plies of the mistakes.
fn check_history(browser: &Browser, client: &mut Client, game: &str, moves: &[&str]) -> Vec<u64> {
    let points = browser.run(
        "return [...document.querySelectorAll('#chart .point')].map(node => ({ply: Number(node.dataset.ply), \
         value: node.dataset.value, first: node.dataset.first}));",
    );
    let marked =
        browser.run("return [...document.querySelectorAll('#chart .mistake')].map(node => Number(node.dataset.ply));");
    let points = points.as_array().unwrap();
    assert_eq!(points.len(), moves.len() + 1);
    let mut mistakes = Vec::new();
    for (ply, point) in points.iter().enumerate() {
        let answer = client.position(game, None, &moves[..ply]).json();
        let value = &answer["analysis"]["value"];
        assert_eq!((point["ply"].as_u64(), &point["value"]), (Some(ply as u64), value), "ply {ply}");
        let for_first = match (answer["board"]["to_move"].as_str(), value.as_str()) {
            (Some("second"), Some("win")) => "loss",
            (Some("second"), Some("loss")) => "win",
            (_, word) => word.unwrap(),
        };
        assert_eq!(point["first"], for_first, "ply {ply}");
        if let Some(played) = moves.get(ply) {
            let mv = answer["analysis"]["moves"].as_array().unwrap().iter().find(|mv| mv["move"] == *played).unwrap();
            if rank(&mv["value"]) < rank(value) {
                mistakes.push(ply as u64);
            }
        }
    }
    let mut marked: Vec<u64> = marked.as_array().unwrap().iter().map(|ply| ply.as_u64().unwrap()).collect();
    marked.sort_unstable();
    assert_eq!(marked, mistakes, "the mistakes marked are the moves worse than their positions");
    mistakes
}

/// Plays `moves` by clicks on the board, one after another, checking the colours after each.
fn play_by_clicks(
    browser: &Browser,
    client: &mut Client,
    game: &str,
    played: &mut Vec<&'static str>,
    moves: &[&'static str],
) {
    for mv in moves {
        browser.click(&format!("#board .move[data-move=\"{mv}\"]"));
        played.push(mv);
        browser.wait_for_moves(played);
        check_move_colours(browser, &client.position(game, None, played).json());
    }
}

/// Where the screenshots go: `LUDUS_SCREENSHOTS`, else the target directory.
fn screenshot_path(name: &str) -> PathBuf {
    let directory = std::env::var_os("LUDUS_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    std::fs::create_dir_all(&directory).unwrap();
    directory.join(name)
}

fn save_screenshot(browser: &Browser, name: &str) {
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000, "a PNG of the page");
    std::fs::write(screenshot_path(name), png).unwrap();
}

#[test]
fn the_explorer_plays_connect_four_and_tic_tac_toe_in_a_real_browser() {
    let (Some(chromium), Some(chromedriver)) = (found(CHROMIUM), found(CHROMEDRIVER)) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium and chromedriver are needed (apt-get install chromium chromium-driver)"
        );
        eprintln!("chromium or chromedriver is not installed: the browser test is skipped");
        return;
    };
    let server = Server::start(&["--game", "connect-four:width=5,height=4"]);
    let mut client = server.connect();
    let browser = Browser::start(&chromium, &chromedriver);
    let page = format!("http://127.0.0.1:{}/", server.port);

    // Connect Four 5 x 4, the game the server opens with: every drop's value, then three drops by clicks.
    let game = "connect-four:width=5,height=4";
    browser.open(&page);
    browser.wait_for_moves(&[]);
    assert_eq!(browser.run("return document.getElementById('game-select').value;"), "connect-four");
    assert_eq!(browser.run("return document.querySelector('[data-parameter=width]').value;"), "5");
    check_move_colours(&browser, &client.position(game, None, &[]).json());
    let mut played = Vec::new();
    play_by_clicks(&browser, &mut client, game, &mut played, &["3", "3", "2"]);
    // The first player's 2 after 3 3 throws the draw away: the history marks it.
    assert_eq!(check_history(&browser, &mut client, game, &played), vec![2]);
    let hash = browser.run("return location.hash;");
    assert!(hash.as_str().unwrap().contains("moves=3+3+2"), "the URL holds the moves: {hash}");
    // Undo and redo.
    browser.click("#undo");
    browser.wait_for_moves(&["3", "3"]);
    browser.click("#redo");
    browser.wait_for_moves(&["3", "3", "2"]);
    save_screenshot(&browser, "explorer-connect-four.png");
    // The perfect player takes the second player's side: it moves at once, a best move.
    browser.click("#computer option[value=second]");
    browser.wait_for(
        "return document.getElementById('played').textContent.split(' ').length === 6;",
        "the perfect player's move",
    );
    let reply: String =
        browser.run("return document.getElementById('played').textContent;").as_str().unwrap().to_string();
    let answer = reply.rsplit(' ').next().unwrap().to_string();
    let before = client.position(game, None, &played).json();
    let best: Vec<&Value> = before["analysis"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|mv| mv["best"] == true)
        .map(|mv| &mv["move"])
        .collect();
    assert!(best.contains(&&json!(answer)), "the perfect player's {answer} is a best move ({best:?})");
    let answer: &'static str = Box::leak(answer.into_boxed_str());
    played.push(answer);
    browser.wait_for_moves(&played);
    check_move_colours(&browser, &client.position(game, None, &played).json());
    check_history(&browser, &mut client, game, &played);
    // A person's move, and the perfect player answers it.
    let ours =
        client.position(game, None, &played).json()["analysis"]["moves"][0]["move"].as_str().unwrap().to_string();
    browser.click(&format!("#board .move[data-move=\"{ours}\"]"));
    browser.wait_for(
        "return document.getElementById('played').textContent.split(' ').length === 8;",
        "the perfect player's answer",
    );
    browser.click("#computer option[value=none]");
    browser.click("#undo");
    browser.click("#undo");
    browser.wait_for_moves(&played);

    // Tic-tac-toe, picked from the page: X takes the centre, O an edge (a mistake: it loses), X a corner.
    browser.click("#game-select option[value=tic-tac-toe]");
    browser.click("#new-game");
    browser.wait_for_moves(&[]);
    let game = "tic-tac-toe";
    check_move_colours(&browser, &client.position(game, None, &[]).json());
    let mut played = Vec::new();
    play_by_clicks(&browser, &mut client, game, &mut played, &["5", "2"]);
    assert_eq!(check_history(&browser, &mut client, game, &played), vec![1], "O's edge is the mistake");
    save_screenshot(&browser, "explorer-tic-tac-toe.png");
    play_by_clicks(&browser, &mut client, game, &mut played, &["1"]);
    let status = browser.run("return document.getElementById('status').textContent;");
    let value = client.position(game, None, &played).json()["analysis"].clone();
    let expected =
        format!("Second player to move: {} in {} for them.", value["value"].as_str().unwrap(), value["remoteness"]);
    assert_eq!(status, json!(expected), "the status says the position's value");

    // A link opens the position it holds.
    browser.open(&format!("{page}#game=dodgem:n=3&moves=a2b2+c1c2"));
    browser.wait_for_moves(&["a2b2", "c1c2"]);
    // A piece that steps is selected first: its moves are drawn, each in its value's colour; then its target.
    let mut answer = client.position("dodgem:n=3", None, &["a2b2", "c1c2"]).json();
    let step = answer["board"]["moves"][0].clone();
    let from = step["place"]["from"].clone();
    browser.click(&format!("#board .ring[data-from=\"{from}\"]"));
    let from_here: Vec<Value> = answer["board"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|mv| mv["place"]["from"] == from)
        .map(|mv| mv["move"].clone())
        .collect();
    answer["analysis"]["moves"].as_array_mut().unwrap().retain(|mv| from_here.contains(&mv["move"]));
    check_move_colours(&browser, &answer);
    let text = step["move"].as_str().unwrap();
    browser.click(&format!("#board .move[data-move=\"{text}\"]"));
    browser.wait_for_moves(&["a2b2", "c1c2", text]);
}
