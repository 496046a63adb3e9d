//! `ludus serve`'s answers over real HTTP on a loopback port: each request gets the answer of exactly what it
//! asked (no two requests share a cached answer because their texts join alike), a search that outlives the
//! time budget keeps its answer for the request asked again, errors included, and identical requests share one
//! search rather than taking a slot each.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;

use server::{Reply, Server};
use std::time::{Duration, Instant};

/// The status and error kind of a reply (the kind empty for an answer).
fn outcome(reply: &Reply) -> (u16, String) {
    let kind = if reply.status == 200 { String::new() } else { reply.error_kind() };
    (reply.status, kind)
}

#[test]
fn requests_whose_texts_join_alike_get_their_own_answers() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    // Position `5` then move `1`, and a position whose text holds both with a control character between.
    assert_eq!(outcome(&client.position("tic-tac-toe", Some("5"), &["1"])), (200, String::new()));
    let joined = client.position("tic-tac-toe", Some("5\u{1f}1"), &[]);
    assert_eq!(outcome(&joined), (400, "position".into()), "{}", String::from_utf8_lossy(&joined.body));
    // The start (no position) then move `5`, and a position written as a control character.
    assert_eq!(outcome(&client.position("tic-tac-toe", None, &["5"])), (200, String::new()));
    let control = client.position("tic-tac-toe", Some("\u{1e}"), &["5"]);
    assert_eq!(outcome(&control), (400, "position".into()), "{}", String::from_utf8_lossy(&control.body));
    // A cached answer is that of its own request: its position and moves as asked.
    let again = client.position("tic-tac-toe", Some("5"), &["1"]).json();
    assert_eq!((again["position"].as_str(), again["moves"][0].as_str()), (Some("5"), Some("1")));
}

#[test]
fn a_search_past_the_time_budget_keeps_its_error_for_the_request_asked_again() {
    // The empty 7 x 6 board within 10,000,000 positions: a budget error after some seconds (more than one).
    let server = Server::start(&["--searches", "1", "--max-seconds", "1", "--max-positions", "10000000", "--no-book"]);
    let first = server.connect().position("connect-four", None, &[]);
    assert_eq!(outcome(&first), (503, "time".into()));
    // Asked again, as the page's "Ask again" does: each request waits for the same search (never for a slot,
    // nor starting a search anew), until its answer comes.
    let clock = Instant::now();
    let answer = loop {
        let reply = server.connect().position("connect-four", None, &[]);
        if outcome(&reply) != (503, "time".into()) {
            break reply;
        }
        assert!(clock.elapsed() < Duration::from_secs(60), "the search's answer never came");
    };
    assert_eq!(outcome(&answer), (422, "budget".into()), "{}", String::from_utf8_lossy(&answer.body));
    // Kept: the same request, its game named with its parameters in another order, is answered at once.
    let clock = Instant::now();
    let again = server.connect().position("connect-four:height=6,width=7", None, &[]);
    assert_eq!(outcome(&again), (422, "budget".into()));
    assert!(clock.elapsed() < Duration::from_millis(500), "answered from a new search: {:?}", clock.elapsed());
}

#[test]
fn identical_requests_share_one_search() {
    // A search of the empty 7 x 6 board runs far past the one second a request waits (the server is stopped first).
    let server = Server::start(&["--searches", "2", "--max-seconds", "1", "--no-book"]);
    let replies: Vec<Reply> = std::thread::scope(|scope| {
        let waiting: Vec<_> = (0..3)
            .map(|_| scope.spawn(|| server.connect().position("connect-four:width=7,height=6", None, &[])))
            .collect();
        waiting.into_iter().map(|request| request.join().unwrap()).collect()
    });
    for reply in &replies {
        assert_eq!(outcome(reply), (503, "time".into()), "each waited for the one search");
    }
    // The other slot is free: another request's search runs at once.
    let clock = Instant::now();
    let other = server.connect().position("tic-tac-toe", None, &[]);
    assert_eq!(outcome(&other), (200, String::new()), "{}", String::from_utf8_lossy(&other.body));
    assert!(clock.elapsed() < Duration::from_millis(900), "waited for a slot: {:?}", clock.elapsed());
}

#[test]
fn a_server_searching_on_two_threads_answers_as_one_on_one_thread_does() {
    // `--threads` reaches each search (Lazy SMP for Connect Four): every move's value is the same exact one.
    let one = Server::start(&["--no-book"]);
    let two = Server::start(&["--no-book", "--threads", "2"]);
    assert_eq!(one.connect().get("/api/games").json()["limits"]["threads"], 1);
    assert_eq!(two.connect().get("/api/games").json()["limits"]["threads"], 2);
    let values = |server: &Server, moves: &[&str]| {
        let answer = server.connect().position("connect-four:width=5,height=4", None, moves).json();
        let analysis = &answer["analysis"];
        let moves: Vec<(String, String)> = analysis["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|mv| (mv["move"].to_string(), mv["value"].to_string()))
            .collect();
        (analysis["value"].to_string(), moves)
    };
    for moves in [&[][..], &["3"][..], &["3", "3", "2"][..]] {
        let (value, by_move) = values(&one, moves);
        assert_eq!(by_move.len(), 5, "{moves:?}");
        assert_eq!((value, by_move), values(&two, moves), "{moves:?}");
    }
}
