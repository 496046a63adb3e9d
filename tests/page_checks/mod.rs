//! What the browser tests check on the explorer's page against the API's answers, whatever the game: the value
//! history and its mistakes, and a scored game's moves (their badges and shades).

#![allow(clippy::expect_used, clippy::unwrap_used, dead_code)] // test helpers, each test crate uses part of them

use super::server::Client;
use super::webdriver::{hue_and_lightness, Browser};
use serde_json::Value;

/// The hue of each value word on the page (green wins, yellow draws, red losses).
pub const HUES: [(&str, f64); 3] = [("win", 135.0), ("draw", 48.0), ("loss", 2.0)];

/// The rank of a value word for the player it is the value of.
fn rank(word: &Value) -> u8 {
    match word.as_str() {
        Some("win") => 2,
        Some("draw") => 1,
        _ => 0,
    }
}

/// Whether a move of value `played` is worse than its position's value `position` (both for the player to
/// move): a worse word, or a lower score or probability of winning. An outcome of chance is nobody's mistake.
fn is_mistake(position: &Value, played: &Value) -> bool {
    if played.get("chance").is_some() {
        return false;
    }
    if rank(&played["value"]) < rank(&position["value"]) {
        return true;
    }
    if let (Some(before), Some(after)) = (position["score"].as_i64(), played["score"].as_i64()) {
        return after < before;
    }
    if let (Some(before), Some(after)) = (position["probability"].as_f64(), played["probability"].as_f64()) {
        return after < before - 1e-9;
    }
    false
}

/// Checks the value history against the API: one point a position with its value (for the player to move and
/// for the first player, the mover as the board says), and the mistakes marked where a move's value is worse
/// than its position's. Returns the plies of the mistakes.
pub fn check_history(browser: &Browser, client: &mut Client, game: &str, moves: &[&str]) -> Vec<u64> {
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
            if is_mistake(&answer["analysis"], mv) {
                mistakes.push(ply as u64);
            }
        }
    }
    let mut marked: Vec<u64> = marked.as_array().unwrap().iter().map(|ply| ply.as_u64().unwrap()).collect();
    marked.sort_unstable();
    assert_eq!(marked, mistakes, "the mistakes marked are the moves worse than their positions");
    mistakes
}

/// The badge a scored move shows: its score (`+4`, `0`, `-8`), or its probability of winning in percent.
fn scored_badge(value: &Value) -> String {
    match (value["score"].as_i64(), value["probability"].as_f64()) {
        (Some(score), _) if score > 0 => format!("+{score}"),
        (Some(score), _) => score.to_string(),
        (None, Some(probability)) => format!("{}%", (probability * 100.0).round()),
        _ => panic!("neither a score nor a probability: {value}"),
    }
}

/// Checks the moves drawn for a scored game or a game with chance against the API's answer: one marker or
/// button a move, its badge (and an outcome's probability), and its colour: a score in its word's hue, a
/// bigger margin darker; a probability of winning from red (0) through yellow to green (1), never a lower
/// probability in a greener hue.
pub fn check_scored_moves(browser: &Browser, answer: &Value) {
    let drawn = browser.run(
        "return [...document.querySelectorAll('#board .move')].map(node => ({move: node.dataset.move, \
         value: node.dataset.value, fill: node.querySelector('[data-fill]').dataset.fill, \
         badge: node.querySelector('.badge, .choice-note').textContent}));",
    );
    let drawn = drawn.as_array().unwrap();
    let moves = answer["analysis"]["moves"].as_array().unwrap();
    assert_eq!(drawn.len(), moves.len(), "one marker or button a legal move: {drawn:?}");
    let mut shades = Vec::new();
    for mv in moves {
        let shown = drawn.iter().find(|shown| shown["move"] == mv["move"]).unwrap_or_else(|| panic!("no {mv}"));
        assert_eq!(shown["value"], mv["value"], "{mv}");
        let badge = shown["badge"].as_str().unwrap();
        assert!(badge.ends_with(&scored_badge(mv)), "{mv}: the badge `{badge}`");
        if let Some(chance) = mv["chance"].as_str() {
            assert!(badge.starts_with(chance), "{mv}: an outcome shows its probability: `{badge}`");
        }
        let (hue, lightness) = hue_and_lightness(shown["fill"].as_str().unwrap());
        if let Some(score) = mv["score"].as_i64() {
            let word = mv["value"].as_str().unwrap();
            let expected = HUES.iter().find(|(known, _)| *known == word).map(|(_, hue)| *hue);
            assert_eq!(Some(hue), expected, "{mv}: {}", shown["fill"]);
            shades.push((score.signum() as f64, score.unsigned_abs() as f64, lightness));
        } else {
            let probability = mv["probability"].as_f64().unwrap();
            assert!((2.0..=135.0).contains(&hue), "{mv}: a hue from red to green, {hue}");
            shades.push((0.0, probability, hue));
        }
    }
    for (sign, size, shade) in &shades {
        for (other_sign, other_size, other_shade) in &shades {
            if *sign != 0.0 && sign == other_sign && size > other_size {
                assert!(shade < other_shade, "a margin of {size} is darker than one of {other_size}");
            }
            if *sign == 0.0 && *other_sign == 0.0 && size > other_size {
                assert!(shade >= other_shade, "a probability {size} is no redder than {other_size}");
            }
        }
    }
}
