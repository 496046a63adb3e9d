//! The explorer on standard Connect Four (7 x 6) in a real browser (headless Chromium, as `browser.rs`): a
//! position past the opening book is drawn before any value arrives, its values arrive as each move's search
//! ends while a progress line says what is searched, and the perfect player's first move (from the opening
//! book, at once) is the centre column, a win. A screenshot of the board under way is taken.
//!
//! Needs Debian's `chromium` and `chromium-driver` (CI installs them); without them the test says so and passes
//! only outside CI.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;
mod webdriver;

use serde_json::Value;
use server::Server;
use std::time::{Duration, Instant};
use webdriver::{save_screenshot, Browser};

/// What the page shows now: the pieces on the board, the move markers and those with a value, the progress
/// line, and the moves played.
const LOOK: &str = "return { pieces: document.querySelectorAll('#board .pieces > *').length, \
    markers: document.querySelectorAll('#board .move').length, \
    valued: document.querySelectorAll('#board .move[data-value]').length, \
    progress: document.getElementById('progress').hidden ? '' : document.getElementById('progress').textContent, \
    played: document.getElementById('played').textContent, \
    busy: document.getElementById('status').classList.contains('busy') };";

#[test]
fn standard_connect_four_is_drawn_at_once_its_values_stream_in_and_the_perfect_player_opens_in_the_centre() {
    let Some((chromium, chromedriver)) = webdriver::tools() else { return };
    let server = Server::start(&["--game", "connect-four", "--table-mb", "256"]);
    let browser = Browser::start(&chromium, &chromedriver);
    let page = format!("http://127.0.0.1:{}/", server.port);

    // Seven plies in, at the book's edge (it holds the positions of up to 7 plies): the values of the moves, at
    // 8 plies, are searched (about 3 s on one core).
    browser.open(&format!("{page}#game=connect-four%3Awidth%3D7%2Cheight%3D6&moves=4+5+3+6+1+2+7"));
    let deadline = Instant::now() + Duration::from_secs(120);
    let (mut drawn_before_values, mut progress_shown, mut partly_valued, mut screenshot) = (false, false, false, false);
    loop {
        let look: Value = browser.run(LOOK);
        let (pieces, markers, valued) =
            (look["pieces"].as_u64().unwrap(), look["markers"].as_u64().unwrap(), look["valued"].as_u64().unwrap());
        if pieces == 7 && markers == 7 && valued == 0 {
            drawn_before_values = true;
        }
        if look["progress"].as_str().unwrap().starts_with("Searching") {
            progress_shown = true;
        }
        if valued > 0 && valued < 7 {
            partly_valued = true;
            if !screenshot {
                save_screenshot(&browser, "explorer-connect-four-7x6-streaming.png");
                screenshot = true;
            }
        }
        if valued == 7 && look["busy"] == false {
            break;
        }
        assert!(Instant::now() < deadline, "the values never all arrived: {look}");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(drawn_before_values, "the board and its seven drops were drawn before any value arrived");
    assert!(progress_shown, "a progress line showed the search under way");
    assert!(partly_valued, "some moves had their values before the others");
    assert_eq!(browser.run("return document.getElementById('progress').hidden;"), true);

    // The start, the perfect player first: its move comes from the book at once, the centre, a win.
    browser.open(&format!("{page}#game=connect-four%3Awidth%3D7%2Cheight%3D6&computer=first"));
    browser.wait_for(
        "return document.getElementById('played').textContent === 'Moves played: 4';",
        "the perfect player's first move",
    );
    let chip =
        browser.run("return [...document.querySelectorAll('#moves .move-chip')].map(chip => chip.textContent.trim());");
    let reply = browser.run("return location.hash;");
    assert!(reply.as_str().unwrap().contains("moves=4"), "{reply}");
    // After the centre, the second player's moves are valued from the book too: every one loses.
    let chips: Vec<String> = serde_json::from_value(chip).unwrap();
    assert_eq!(chips.len(), 7, "{chips:?}");
    assert!(chips.iter().all(|chip| chip.contains("loss") && chip.contains("book")), "{chips:?}");
}
