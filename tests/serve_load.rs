//! A bounded load on `ludus serve`: 2,000 requests over 8 kept-alive connections (the page, the games, games
//! walked move by move as the page does, and searches past the position budget), every one answered with what
//! it should get, and the server's resident memory flat across them.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use server::{Client, Server};

/// Connections at once, and requests on each.
const CONNECTIONS: usize = 8;
const REQUESTS_EACH: usize = 250;
/// The most the server's resident memory may grow over the load, in KiB.
const MAX_GROWTH_KIB: u64 = 8 * 1024;

/// A game walked as a person on the page walks it: each answer's moves give the next request's.
struct Walk {
    game: &'static str,
    moves: Vec<String>,
}

/// Sends request `index` of a connection and checks its answer: `(status, kind)` of what came back.
fn one_request(client: &mut Client, index: usize, walk: &mut Walk, random: &mut StdRng) -> (u16, String) {
    match index % 10 {
        0 => {
            let reply = client.get("/");
            assert!(reply.body.starts_with(b"<!doctype html>"));
            (reply.status, String::new())
        }
        1 => {
            let reply = client.get("/api/games");
            assert!(reply.json()["games"].as_array().unwrap().len() >= 8);
            (reply.status, String::new())
        }
        // Past the server's position budget: the only error expected.
        2 => {
            // The empty 6 x 5 board's analysis needs far more positions than the budget of 20,000 (5 x 4's no
            // longer does, with Connect Four's zugzwang rules).
            let reply = client.position("connect-four:width=6,height=5", None, &[]);
            (reply.status, reply.error_kind())
        }
        _ => {
            let moves: Vec<&str> = walk.moves.iter().map(String::as_str).collect();
            let reply = client.position(walk.game, None, &moves);
            assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
            let answer = reply.json();
            let legal = answer["analysis"]["moves"].as_array().unwrap();
            if legal.is_empty() {
                walk.moves.clear();
            } else {
                let next = &legal[random.gen_range(0..legal.len())]["move"];
                walk.moves.push(next.as_str().unwrap().to_string());
            }
            (200, String::new())
        }
    }
}

/// `count` requests on one connection, each answered as it should be.
fn load(server: &Server, seed: u64, count: usize) {
    let mut client = server.connect();
    let mut random = StdRng::seed_from_u64(seed);
    let game = ["tic-tac-toe", "dodgem:n=3", "three-mens-morris", "octal:code=0.07"][seed as usize % 4];
    let mut walk = Walk { game, moves: Vec::new() };
    for index in 0..count {
        let (status, kind) = one_request(&mut client, index, &mut walk, &mut random);
        match index % 10 {
            2 => assert_eq!((status, kind.as_str()), (422, "budget"), "request {index}"),
            _ => assert_eq!(status, 200, "request {index}"),
        }
    }
}

/// `each` requests on every one of [`CONNECTIONS`] connections at once.
fn concurrent_load(server: &Server, seed: u64, each: usize) {
    std::thread::scope(|scope| {
        for connection in 0..CONNECTIONS as u64 {
            scope.spawn(move || load(server, seed + connection, each));
        }
    });
}

#[test]
fn two_thousand_requests_over_eight_connections_are_all_answered_in_flat_memory() {
    let server = Server::start(&["--max-positions", "20000"]);
    // A warm-up as long as the load: the threads, the allocator's arenas (as many as the searches that overlap
    // on a busy machine) and the cache reach their working size.
    concurrent_load(&server, 100, REQUESTS_EACH);
    let before = server.resident_kib();
    let clock = std::time::Instant::now();
    concurrent_load(&server, 0, REQUESTS_EACH);
    let elapsed = clock.elapsed();
    let after = server.resident_kib();
    eprintln!(
        "{} requests over {CONNECTIONS} connections in {:.2} s; resident memory {before} KiB before, {after} KiB after",
        CONNECTIONS * REQUESTS_EACH,
        elapsed.as_secs_f64()
    );
    assert!(after <= before + MAX_GROWTH_KIB, "resident memory grew from {before} KiB to {after} KiB");
    // Still serving.
    assert_eq!(server.connect().get("/api/games").status, 200);
}
