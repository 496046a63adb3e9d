//! A bounded load on `ludus serve`: 2,000 requests over 8 kept-alive connections (the page, the games, games
//! walked move by move as the page does, and searches past the position budget), every one answered with what
//! it should get, the server's resident memory flat across them, and no thread left behind by the desks that
//! the load replaces again and again; and clients that hold what they can:
//! pipelining requests and reading their answers slowly, keeping a connection, sending half a request. None of
//! them keeps a new client waiting more than a few seconds for an answer.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use server::{Client, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    // A desk for each of the load's five games, so that the memory measured is the desks' (their tables fixed
    // in size) and what the requests leave behind; with fewer desks than games, whether a sample finds the
    // Connect Four desk's table alive is chance (the test below checks what the desks' turnover leaves).
    let server = Server::start(&["--max-positions", "20000", "--searches", "8"]);
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

/// The server's threads once their number has stayed the same for a second (at most 10 s).
fn settled_threads(server: &Server) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(10);
    let (mut threads, mut since) = (server.threads(), Instant::now());
    while since.elapsed() < Duration::from_secs(1) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        let now = server.threads();
        if now != threads {
            (threads, since) = (now, Instant::now());
        }
    }
    threads
}

#[test]
fn desks_replaced_under_load_leave_no_thread_behind() {
    // Two desks (the default) for five games: a game's desk is replaced again and again (hundreds of times a
    // load), and its thread must end after its search, as must every request's search thread. The first load
    // brings the connections' workers and the desks to their number.
    let server = Server::start(&["--max-positions", "20000"]);
    concurrent_load(&server, 100, REQUESTS_EACH);
    let first = settled_threads(&server);
    for seed in [0, 200] {
        concurrent_load(&server, seed, REQUESTS_EACH);
        let again = settled_threads(&server);
        assert!(again <= first, "{again} threads after another load, {first} after the first");
    }
    assert_eq!(server.connect().get("/api/games").status, 200);
}

/// A client that keeps opening connections (one every 250 ms) until `stop` or 20 s pass, pipelines `count`
/// requests for the page's largest file on each, and reads each one's answers slowly (4 KiB a second).
fn slow_reader(port: u16, count: usize, stop: &AtomicBool) {
    let started = Instant::now();
    let request = format!("GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").repeat(count);
    let mut streams: Vec<TcpStream> = Vec::new();
    let mut chunk = [0; 4096];
    while !stop.load(Ordering::SeqCst) && started.elapsed() < Duration::from_secs(20) {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_nonblocking(true).unwrap();
        // The server may close before it has read them all, or take them only in part for now.
        let _ = stream.write(request.as_bytes());
        streams.push(stream);
        if streams.len().is_multiple_of(4) {
            for stream in &mut streams {
                let _ = stream.read(&mut chunk);
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn slow_readers_pipelining_requests_keep_no_new_client_waiting() {
    // What frees the workers: the bound of requests on a connection, a connection giving its worker up to one
    // waiting, and (where the socket buffers hold less than the answers) the response's deadline.
    let server = Server::start(&["--connections", "4", "--response-seconds", "1"]);
    let stop = AtomicBool::new(false);
    let probes = std::thread::scope(|scope| {
        // Twice as many as the workers, each opening more connections: without bounds, they would hold every
        // worker, and keep the queue full.
        for _ in 0..8 {
            scope.spawn(|| slow_reader(server.port, 300, &stop));
        }
        let probes: Vec<(u16, Duration)> = (0..4)
            .map(|_| {
                std::thread::sleep(Duration::from_millis(500));
                let clock = Instant::now();
                let status = server.connect().get("/api/games").status;
                (status, clock.elapsed())
            })
            .collect();
        stop.store(true, Ordering::SeqCst);
        probes
    });
    eprintln!("new clients among slow readers: {probes:?}");
    for (status, waited) in probes {
        assert_eq!(status, 200);
        assert!(waited < Duration::from_secs(3), "a new client waited {waited:?}");
    }
}

/// A connection that sends the start of a request and no more.
fn half_request(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.write_all(b"POST /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{").unwrap();
    stream
}

#[test]
fn connections_waiting_for_a_worker_get_a_503_within_seconds() {
    let server = Server::start(&["--connections", "2"]);
    // Half-sent requests hold both workers (a request may take 10 s to arrive) ...
    let _held: Vec<TcpStream> = (0..2).map(|_| half_request(server.port)).collect();
    std::thread::sleep(Duration::from_millis(300));
    // ... and more wait in the queue: each is answered 503 when it has waited its short time, not when a worker
    // frees.
    let clock = Instant::now();
    let waiting: Vec<TcpStream> = (0..30).map(|_| half_request(server.port)).collect();
    for mut stream in waiting {
        stream.set_read_timeout(Some(Duration::from_secs(8))).unwrap();
        let mut reply = Vec::new();
        // The server closes it with its request unread: a reset after the 503.
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply);
        assert!(reply.starts_with("HTTP/1.1 503 ") && reply.contains("\r\nRetry-After: 1\r\n"), "`{reply}`");
    }
    assert!(clock.elapsed() < Duration::from_secs(5), "answered after {:?}", clock.elapsed());
    let clock = Instant::now();
    let reply = server.connect().get("/api/games");
    assert_eq!((reply.status, reply.error_kind().as_str()), (503, "busy"));
    assert!(clock.elapsed() < Duration::from_secs(4), "a new client waited {:?}", clock.elapsed());
}

#[test]
fn a_connection_serves_a_bounded_number_of_pipelined_requests() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let request = format!("GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", server.port);
    client.send_raw(request.repeat(150).as_bytes());
    for index in 1..=100 {
        let reply = client.read_reply();
        assert_eq!(reply.status, 404);
        let closing = if index == 100 { "close" } else { "keep-alive" };
        assert_eq!(reply.header("connection"), Some(closing), "response {index}");
    }
    assert_eq!(client.read_to_end(), b"", "the requests past the hundredth are not answered");
}

#[test]
fn a_connection_is_served_for_a_bounded_time() {
    let server = Server::start(&["--connection-seconds", "2"]);
    let mut client = server.connect();
    let clock = Instant::now();
    let closed = loop {
        let reply = client.get("/api/games");
        assert_eq!(reply.status, 200);
        if reply.header("connection") == Some("close") {
            break clock.elapsed();
        }
        assert!(clock.elapsed() < Duration::from_secs(4), "still kept alive after {:?}", clock.elapsed());
        std::thread::sleep(Duration::from_millis(300));
    };
    assert!(closed >= Duration::from_secs(2), "closed after {closed:?}");
    assert_eq!(client.read_to_end(), b"", "and then closed");
}
