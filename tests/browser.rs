//! The explorer's page in a real browser: headless Chromium driven by chromedriver over the WebDriver protocol
//! (JSON over HTTP, `webdriver/mod.rs`), against the real `ludus serve`. The page is loaded, Connect Four 5 x 4
//! and tic-tac-toe are picked and played by clicks on the board, and what the page shows (each move's value
//! and colour, the value history and its mistakes, the perfect player's move, undo and redo, the link) is
//! checked against the API; then Kalah (its pits, an extra move), Pig (its buttons, a chance node's outcomes
//! picked and rolled, the perfect player rolling its own dice); Dots and Boxes is `browser_edges.rs`. A
//! screenshot of each game is taken (into `LUDUS_SCREENSHOTS` if set, else the target directory).
//!
//! Needs Debian's `chromium` and `chromium-driver` (CI installs them); without them the test says so and passes
//! only outside CI.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod page_checks;
mod server;
mod webdriver;

use page_checks::{check_history, check_scored_moves, HUES};
use serde_json::{json, Value};
use server::{Client, Server};
use webdriver::{hue_and_lightness, save_screenshot, Browser};

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

#[test]
fn the_explorer_plays_connect_four_and_tic_tac_toe_in_a_real_browser() {
    let Some((chromium, chromedriver)) = webdriver::tools() else { return };
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

/// Checks Kalah's pits and stores on the page against the API's board.
fn check_pits(browser: &Browser, answer: &Value) {
    let pits =
        browser.run("return [...document.querySelectorAll('#board .pit')].map(node => Number(node.dataset.seeds));");
    let stores =
        browser.run("return [...document.querySelectorAll('#board .store')].map(node => Number(node.dataset.seeds));");
    let board = &answer["board"];
    let expected: Vec<Value> =
        board["pits"].as_array().unwrap().iter().flat_map(|row| row.as_array().unwrap().clone()).collect();
    assert_eq!(pits, json!(expected), "the pits, the first player's row then the second's");
    assert_eq!(stores, board["stores"], "the stores");
}

/// The moves the page shows played (its `Moves played:` line).
fn moves_shown(browser: &Browser) -> Vec<String> {
    let text = browser.run("return document.getElementById('played').textContent;");
    let text = text.as_str().unwrap();
    text.strip_prefix("Moves played: ").map_or(Vec::new(), |moves| moves.split(' ').map(str::to_string).collect())
}

#[test]
fn the_explorer_plays_kalah_and_pig_in_a_real_browser() {
    let Some((chromium, chromedriver)) = webdriver::tools() else { return };
    let server = Server::start(&["--game", "kalah:pits=3,seeds=2"]);
    let mut client = server.connect();
    let browser = Browser::start(&chromium, &chromedriver);
    let page = format!("http://127.0.0.1:{}/", server.port);

    // Kalah 3 x 2: pits and stores, each sowable pit's marker in its score's colour.
    let game = "kalah:pits=3,seeds=2";
    browser.open(&page);
    browser.wait_for_moves(&[]);
    let answer = client.position(game, None, &[]).json();
    check_pits(&browser, &answer);
    check_scored_moves(&browser, &answer);
    // South sows pit 2 by a click on the pit itself: its last seed falls in South's store, so South moves again.
    browser.click("#board .pit[data-side=\"0\"][data-pit=\"1\"]");
    browser.wait_for_moves(&["2"]);
    let answer = client.position(game, None, &["2"]).json();
    assert_eq!(answer["board"]["to_move"], "first", "an extra move");
    check_pits(&browser, &answer);
    check_scored_moves(&browser, &answer);
    let status = browser.run("return document.getElementById('status').textContent;");
    assert!(status.as_str().unwrap().starts_with("First player to move: win by 4"), "{status}");
    // Then pit 1 by its marker, a mistake (a draw where a win by 4 was possible), and North's first move.
    let mut played = vec!["2", "1"];
    browser.click("#board .move[data-move=\"1\"]");
    browser.wait_for_moves(&played);
    let answer = client.position(game, None, &played).json();
    assert_eq!(answer["board"]["to_move"], "second");
    check_pits(&browser, &answer);
    check_scored_moves(&browser, &answer);
    let best = answer["analysis"]["moves"].as_array().unwrap().iter().find(|mv| mv["best"] == true).unwrap();
    let north: &'static str = best["move"].as_str().unwrap().to_string().leak();
    browser.click(&format!("#board .move[data-move=\"{north}\"]"));
    played.push(north);
    browser.wait_for_moves(&played);
    check_pits(&browser, &client.position(game, None, &played).json());
    assert_eq!(check_history(&browser, &mut client, game, &played), vec![1], "the draw after the extra move");
    save_screenshot(&browser, "explorer-kalah.png");

    // Pig to 10, picked from the page: roll is a button; at the die's chance node the six faces, each 1/6.
    browser.click("#game-select option[value=pig]");
    browser.run("document.querySelector('[data-parameter=goal]').value = '10';");
    browser.click("#new-game");
    browser.wait_for_moves(&[]);
    let game = "pig:goal=10";
    let answer = client.position(game, None, &[]).json();
    let counters = browser.run(
        "return [...document.querySelectorAll('#board .counter')].map(node => ({name: node.dataset.name, \
         value: Number(node.dataset.value)}));",
    );
    let expected: Vec<Value> = answer["board"]["counters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|counter| json!({"name": counter["name"], "value": counter["value"]}))
        .collect();
    assert_eq!(counters, json!(expected));
    check_scored_moves(&browser, &answer);
    browser.click("#board .move[data-move=\"roll\"]");
    browser.wait_for_moves(&["roll"]);
    check_scored_moves(&browser, &client.position(game, None, &["roll"]).json());
    assert_eq!(browser.run("return document.querySelectorAll('#board .roll').length;"), 1, "the roll button");
    // A 4 picked by hand, roll again, and chance decides: the page plays one of the six faces.
    browser.click("#board .move[data-move=\"4\"]");
    browser.wait_for_moves(&["roll", "4"]);
    check_scored_moves(&browser, &client.position(game, None, &["roll", "4"]).json());
    browser.click("#board .move[data-move=\"roll\"]");
    browser.wait_for_moves(&["roll", "4", "roll"]);
    save_screenshot(&browser, "explorer-pig.png");
    browser.click("#board .roll");
    browser.wait_for("return document.getElementById('played').textContent.split(' ').length === 6;", "a roll");
    let rolled = moves_shown(&browser);
    assert!(["1", "2", "3", "4", "5", "6"].contains(&rolled[3].as_str()), "a face: {rolled:?}");
    let rolled: Vec<&str> = rolled.iter().map(String::as_str).collect();
    browser.wait_for_moves(&rolled);
    assert_eq!(check_history(&browser, &mut client, game, &rolled), Vec::<u64>::new(), "an outcome is no mistake");

    // The perfect player as the second player: after the first player's 1 it rolls, lets chance decide at its
    // own chance nodes (it never chooses a face) and chooses a best move at its decisions, until its turn ends.
    browser.open(&format!("{page}#game=pig:goal=10&moves=roll+1&computer=second"));
    browser.wait_for(
        "const status = document.getElementById('status'); return !status.classList.contains('busy') && \
         /^(First player|Game over)/.test(status.textContent) && \
         document.getElementById('played').textContent.startsWith('Moves played: roll 1 roll') && \
         document.querySelectorAll('#chart .point').length === \
         document.getElementById('played').textContent.split(' ').length - 1;",
        "the perfect player's turn to end",
    );
    let played = moves_shown(&browser);
    assert!(played.len() > 3, "the perfect player moved: {played:?}");
    for ply in 2..played.len() {
        let before: Vec<&str> = played[..ply].iter().map(String::as_str).collect();
        let answer = client.position(game, None, &before).json();
        assert_eq!(answer["board"]["to_move"], "second", "ply {ply}: the perfect player's turn");
        let mv = answer["analysis"]["moves"].as_array().unwrap().iter().find(|mv| mv["move"] == played[ply]).unwrap();
        assert!(mv["best"] == true || mv["chance"].is_string(), "ply {ply}: {mv} is a best move or an outcome");
    }
}
