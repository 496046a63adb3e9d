//! The explorer's page in a real browser on a game played on edges (as `browser.rs`: headless Chromium driven by
//! chromedriver, against the real `ludus serve`): Dots and Boxes' dots, edges and boxes, an edge drawn by a
//! click on its line, a box taken and the extra move, checked against the API. A screenshot is taken.
//!
//! Needs Debian's `chromium` and `chromium-driver` (CI installs them); without them the test says so and passes
//! only outside CI.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod page_checks;
mod server;
mod webdriver;

use page_checks::{check_history, check_scored_moves};
use serde_json::{json, Value};
use server::Server;
use webdriver::{save_screenshot, Browser};

/// Checks Dots and Boxes' board on the page against the API's: the dots, who drew each edge drawn, who took
/// each box taken, and one move on each edge not drawn yet.
fn check_edges(browser: &Browser, answer: &Value) {
    let board = &answer["board"];
    let (rows, columns) = (board["rows"].as_u64().unwrap(), board["columns"].as_u64().unwrap());
    let dots = browser.run("return document.querySelectorAll('#board .dot').length;");
    assert_eq!(dots, json!((rows + 1) * (columns + 1)), "the dots");
    let drawn = browser.run(
        "return [...document.querySelectorAll('#board .edge.drawn')].map(node => [Number(node.dataset.edge), \
         node.dataset.player]);",
    );
    let expected: Vec<Value> = board["edges"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, player)| !player.is_null())
        .map(|(edge, player)| json!([edge, player]))
        .collect();
    assert_eq!(drawn, json!(expected), "the edges drawn and who drew them");
    let taken = browser.run(
        "return [...document.querySelectorAll('#board .box')].map(node => [Number(node.dataset.box), \
         node.dataset.owner]);",
    );
    let expected: Vec<Value> = board["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, owner)| !owner.is_null())
        .map(|(square, owner)| json!([square, owner]))
        .collect();
    assert_eq!(taken, json!(expected), "the boxes taken and whose they are");
    let open = browser.run(
        "return [...document.querySelectorAll('#board .move')].map(node => [Number(node.dataset.edge), \
         node.dataset.move]);",
    );
    let expected: Vec<Value> =
        board["moves"].as_array().unwrap().iter().map(|mv| json!([mv["place"]["edge"], mv["move"]])).collect();
    assert_eq!(open, json!(expected), "a move on each edge not drawn yet");
}

/// Clicks the line of the edge of `mv` a quarter of the way along it, away from its marker, as a person would
/// (a pointer pressed and released there).
fn click_edge_line(browser: &Browser, mv: &str) {
    let point = browser.run(&format!(
        "const box = document.querySelector('#board .move[data-move=\"{mv}\"] .edge-hit').getBoundingClientRect(); \
         return [Math.round(box.left + box.width / 4), Math.round(box.top + box.height / 4)];"
    ));
    let (x, y) = (point[0].as_i64().unwrap(), point[1].as_i64().unwrap());
    let under = browser.run(&format!("return document.elementFromPoint({x}, {y}).getAttribute('class');"));
    assert_eq!(under, "edge-hit", "the line takes the click at ({x}, {y})");
    let pointer = json!({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
        {"type": "pointerMove", "origin": "viewport", "x": x, "y": y},
        {"type": "pointerDown", "button": 0},
        {"type": "pointerUp", "button": 0},
    ]});
    browser.command("POST", "/actions", Some(json!({"actions": [pointer]})));
}

#[test]
fn the_explorer_plays_dots_and_boxes_in_a_real_browser() {
    let Some((chromium, chromedriver)) = webdriver::tools() else { return };
    let server = Server::start(&["--game", "dots-and-boxes"]);
    let mut client = server.connect();
    let browser = Browser::start(&chromium, &chromedriver);

    // The default board, 2 x 3 boxes: 12 dots, 17 edges to draw, each with its score.
    let game = "dots-and-boxes:rows=2,columns=3";
    browser.open(&format!("http://127.0.0.1:{}/", server.port));
    browser.wait_for_moves(&[]);
    let answer = client.position(game, None, &[]).json();
    assert_eq!(answer["board"]["kind"], "edges");
    check_edges(&browser, &answer);
    check_scored_moves(&browser, &answer);
    // The first player draws a1b1 by a click on its line; the edge is drawn in the first player's colour.
    click_edge_line(&browser, "a1b1");
    browser.wait_for_moves(&["a1b1"]);
    let answer = client.position(game, None, &["a1b1"]).json();
    assert_eq!(answer["board"]["edges"][0], "first");
    check_edges(&browser, &answer);
    check_scored_moves(&browser, &answer);
    // Then a1a2, b1b2 by their markers, and the second player's a2b2 closes the top left box: it is the
    // second player's, who moves again.
    let mut played = vec!["a1b1"];
    for mv in ["a1a2", "b1b2", "a2b2"] {
        browser.click(&format!("#board .move[data-move=\"{mv}\"]"));
        played.push(mv);
        browser.wait_for_moves(&played);
    }
    let answer = client.position(game, None, &played).json();
    assert_eq!((&answer["board"]["boxes"][0], &answer["board"]["to_move"]), (&json!("second"), &json!("second")));
    check_edges(&browser, &answer);
    check_scored_moves(&browser, &answer);
    let status = browser.run("return document.getElementById('status').textContent;");
    assert!(status.as_str().unwrap().starts_with("Second player to move"), "the extra move: {status}");
    check_history(&browser, &mut client, game, &played);
    save_screenshot(&browser, "explorer-dots-and-boxes.png");
}
