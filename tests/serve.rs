//! `ludus serve` over real HTTP on a loopback port: the games, positions (their values equal to `ludus
//! analyze`'s and `ludus db query`'s), the boards, every bound of a request (bad game, bad position,
//! over-long input, body, target, headers, host), the search budgets (positions, time), concurrent requests,
//! keep-alive and pipelining, a served database (read, never written), and Ctrl-C.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;

use serde_json::{json, Value};
use server::Server;
use std::process::Command;

/// `ludus ARGS` and its standard output as JSON.
fn ludus_json(arguments: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_ludus")).args(arguments).output().expect("ludus runs");
    assert!(output.status.success(), "ludus {arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// An analysis without its statistics (the search's counts, which depend on the table's history).
fn values_of(analysis: &Value) -> Value {
    let mut analysis = analysis.clone();
    analysis.as_object_mut().expect("an object").remove("stats");
    analysis
}

#[test]
fn the_games_are_the_registry_s_with_their_parameters() {
    let server = Server::start(&["--game", "connect-four:height=4,width=5"]);
    let mut client = server.connect();
    let reply = client.get("/api/games");
    assert_eq!(reply.status, 200);
    let games = reply.json();
    let listed = ludus_json(&["games", "--format", "json"]);
    let names = |games: &Value| -> Vec<String> {
        games.as_array().unwrap().iter().map(|game| game["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names(&games["games"]), names(&listed), "every registered game, in the registry's order");
    for (served, known) in games["games"].as_array().unwrap().iter().zip(listed.as_array().unwrap()) {
        assert_eq!(served["parameters"], known["parameters"], "{}", known["name"]);
        assert_eq!(served["served"], json!([]), "no database served");
    }
    assert_eq!(games["start_game"], "connect-four:width=5,height=4", "the page's game, by its canonical name");
    assert_eq!(games["limits"]["max_positions"], 20_000_000);
    // The page and its files, embedded, with their types.
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/api.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let reply = client.get(path);
        assert_eq!(reply.status, 200, "{path}");
        assert!(reply.header("content-type").unwrap().starts_with(kind), "{path}");
        assert!(!reply.body.is_empty(), "{path}");
    }
    assert!(client.get("/").header("content-security-policy").unwrap().contains("script-src 'self'"));
}

#[test]
fn positions_have_the_values_ludus_analyze_gives() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    // (game, a position as `ludus analyze` reads it, moves from the start, the position they reach as text)
    let cases: [(&str, &str, &[&str], &str); 7] = [
        ("tic-tac-toe", "15", &["1", "5"], "15"),
        ("connect-four:width=5,height=4", "3322", &["3", "3", "2", "2"], "3322"),
        ("dodgem:n=3", "a2b2", &["a2b2"], "a2b2"),
        ("three-mens-morris", "b2 a1 c3", &["b2", "a1", "c3"], "b2 a1 c3"),
        ("quixo:size=3", "a1c1", &["a1c1"], "a1c1"),
        ("nim:heaps=3-5-7", "3,5,7", &["2:5"], "3,0,7"),
        ("octal:code=0.77", "10,3", &["1:2+6"], "2,6"),
    ];
    for (game, position, moves, reached) in cases {
        let analyzed = ludus_json(&["analyze", game, position, "--format", "json"]);
        let by_position = client.position(game, Some(position), &[]);
        assert_eq!(by_position.status, 200, "{game} {position}: {}", String::from_utf8_lossy(&by_position.body));
        let answer = by_position.json();
        assert_eq!(answer["source"], "search");
        assert_eq!(answer["position"], position);
        assert_eq!(values_of(&answer["analysis"]), values_of(&analyzed), "{game} {position}");
        // Moves from the start: the values `ludus analyze` gives of the position they reach.
        let by_moves = client.position(game, None, moves).json();
        let analyzed = ludus_json(&["analyze", game, reached, "--format", "json"]);
        assert_eq!(values_of(&by_moves["analysis"]), values_of(&analyzed), "{game} after {moves:?}");
        assert_eq!(by_moves["moves"], json!(moves));
        // Every legal move has a place on the board, in the analysis's order.
        let places: Vec<&Value> = answer["board"]["moves"].as_array().unwrap().iter().map(|mv| &mv["move"]).collect();
        let analysed: Vec<&Value> =
            answer["analysis"]["moves"].as_array().unwrap().iter().map(|mv| &mv["move"]).collect();
        assert_eq!(places, analysed, "{game}: the board's moves are the analysis's");
    }
}

#[test]
fn boards_show_the_pieces_where_the_moves_put_them() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let answer = client.position("connect-four:width=5,height=4", None, &["1", "1", "3"]).json();
    let board = &answer["board"];
    assert_eq!((board["kind"].as_str(), board["style"].as_str()), (Some("grid"), Some("columns")));
    assert_eq!((board["rows"].as_u64(), board["columns"].as_u64()), (Some(4), Some(5)));
    let cells = board["cells"].as_array().unwrap();
    // Row by row from the top: the bottom row is cells 15..20.
    assert_eq!(cells[15], json!({"player": "first", "shape": "disc"}));
    assert_eq!(cells[10], json!({"player": "second", "shape": "disc"}));
    assert_eq!(cells[17], json!({"player": "first", "shape": "disc"}));
    assert_eq!(cells.iter().filter(|cell| !cell.is_null()).count(), 3);
    assert_eq!(board["to_move"], "second");
    assert_eq!(board["moves"][0], json!({"move": "1", "place": {"kind": "drop", "column": 0}}));

    let board = client.position("tic-tac-toe", None, &["1", "5"]).json()["board"].clone();
    assert_eq!(board["cells"][0], json!({"player": "first", "shape": "cross"}));
    assert_eq!(board["cells"][4], json!({"player": "second", "shape": "nought"}));
    assert_eq!(board["moves"].as_array().unwrap().len(), 7);
    assert_eq!(board["moves"][0], json!({"move": "2", "place": {"kind": "place", "cell": 1}}));

    // Dodgem: Blue's cars on the left column but the bottom corner, pointing right; a step from a car.
    let board = client.position("dodgem:n=3", None, &[]).json()["board"].clone();
    assert_eq!(board["cells"][0], json!({"player": "first", "shape": "arrow-right"}));
    assert_eq!(board["cells"][7], json!({"player": "second", "shape": "arrow-up"}));
    assert_eq!(board["row_labels"], json!(["3", "2", "1"]));
    assert!(board["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|mv| mv["move"] == "a3b3" && mv["place"] == json!({"kind": "step", "from": 0, "to": 1})));

    // Heaps, and what each move leaves of its heap.
    let board = client.position("octal:code=0.77", Some("4"), &[]).json()["board"].clone();
    assert_eq!(
        board,
        json!({"kind": "heaps", "heaps": [4], "to_move": null, "moves": [
            {"move": "1:3", "place": {"kind": "take", "heap": 0, "parts": [3]}},
            {"move": "1:1+2", "place": {"kind": "take", "heap": 0, "parts": [1, 2]}},
            {"move": "1:2", "place": {"kind": "take", "heap": 0, "parts": [2]}},
            {"move": "1:1+1", "place": {"kind": "take", "heap": 0, "parts": [1, 1]}},
        ]})
    );
}

#[test]
fn bad_requests_get_clear_json_errors() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let expect = |reply: server::Reply, status: u16, kind: &str, words: &str| {
        assert_eq!(reply.status, status, "{}", String::from_utf8_lossy(&reply.body));
        assert_eq!(reply.error_kind(), kind);
        let message = reply.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains(words), "`{message}` should say `{words}`");
        assert_eq!(reply.header("content-type"), Some("application/json"));
    };
    expect(client.position("chess", None, &[]), 400, "game", "no game `chess` (available: tic-tac-toe");
    expect(client.position("connect-four:width=12", None, &[]), 400, "game", "`width` is a whole number from 1 to 9");
    expect(client.position("tic-tac-toe", Some("1x"), &[]), 400, "position", "tic-tac-toe: not a position");
    expect(client.position("tic-tac-toe", None, &["1", "1"]), 400, "position", "move 2 (`1`): cell 1 is taken");
    expect(client.position("dodgem:n=3", None, &["a2a3"]), 400, "position", "move 1");
    expect(client.post("/api/position", &json!({"game": "tic-tac-toe", "depth": 3})), 400, "json", "unknown field");
    expect(client.request("POST", "/api/position", Some(b"{\"game\": ")), 400, "json", "expected {\"game\"");
    expect(client.get("/api/position"), 405, "method", "POST /api/position");
    expect(client.get("/etc/passwd"), 404, "route", "no such route");
    expect(client.get("/../../etc/passwd"), 404, "route", "no such route");
    // Over-long input: each bound is its own error, and the connection still serves the next request.
    let long = "1".repeat(5000);
    expect(client.position("tic-tac-toe", Some(&long), &[]), 413, "too-long", "a position, in bytes, is at most 4096");
    let moves = vec!["1"; 1001];
    expect(
        client.position("tic-tac-toe", None, &moves),
        413,
        "too-long",
        "the number of moves after a position is at most 1000",
    );
    expect(client.position(&"x".repeat(300), None, &[]), 413, "too-long", "a game's name");
    assert_eq!(client.position("tic-tac-toe", None, &[]).status, 200, "the connection still serves");
    // Bounds of HTTP itself: each answered, then the connection closed.
    let body = vec![b' '; 70_000];
    expect(server.connect().request("POST", "/api/position", Some(&body)), 413, "body", "at most 65536 bytes");
    expect(server.connect().get(&format!("/{}", "a".repeat(3000))), 414, "target", "at most 2048 bytes");
    let mut client = server.connect();
    client.send_raw(format!("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: {}\r\n\r\n", "a".repeat(20_000)).as_bytes());
    expect(client.read_reply(), 431, "headers", "at most 16384 bytes");
    let mut client = server.connect();
    client.send_raw(b"POST /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n");
    expect(client.read_reply(), 411, "body", "Content-Length");
    let mut client = server.connect();
    client.send_raw(b"NOT HTTP AT ALL\r\n\r\n");
    expect(client.read_reply(), 400, "http", "not an HTTP/1.1 request");
    // A name of another site that resolves here (DNS rebinding) is refused.
    let mut client = server.connect();
    client.send_raw(b"GET /api/games HTTP/1.1\r\nHost: attacker.example:80\r\n\r\n");
    expect(client.read_reply(), 403, "host", "127.0.0.1");
    let mut client = server.connect();
    client.send_raw(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!(client.read_reply().status, 200, "localhost is a loopback name");
}

#[test]
fn searches_stop_at_their_budgets() {
    let server = Server::start(&["--max-positions", "1000"]);
    let reply = server.connect().position("connect-four:width=5,height=4", None, &[]);
    assert_eq!((reply.status, reply.error_kind().as_str()), (422, "budget"));
    assert!(reply.json()["error"]["message"].as_str().unwrap().contains("--max-positions"), "names the flag");
    // Small positions still fit.
    assert_eq!(server.connect().position("tic-tac-toe", Some("15"), &[]).status, 200);
    // Past the time budget: a 503 that says so, then the server goes on answering.
    let server = Server::start(&["--max-seconds", "1", "--max-positions", "2000000000", "--no-book"]);
    let clock = std::time::Instant::now();
    let reply = server.connect().position("connect-four", None, &[]);
    assert_eq!((reply.status, reply.error_kind().as_str()), (503, "time"), "{}", String::from_utf8_lossy(&reply.body));
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert!(clock.elapsed() < std::time::Duration::from_secs(8), "answered at the time budget");
    // The one slot busy with that search (the default is 2): another request gets the other.
    assert_eq!(server.connect().position("tic-tac-toe", None, &[]).status, 200);
}

#[test]
fn concurrent_requests_get_the_answers_of_one_at_a_time() {
    let server = Server::start(&[]);
    let positions: Vec<String> = ["", "1", "15", "159", "5", "52", "528", "9", "91", "913", "2", "27"]
        .iter()
        .map(|moves| moves.to_string())
        .collect();
    let one_at_a_time: Vec<Value> = positions
        .iter()
        .map(|position| values_of(&server.connect().position("tic-tac-toe", Some(position), &[]).json()["analysis"]))
        .collect();
    std::thread::scope(|scope| {
        for thread in 0..8 {
            let (server, positions, expected) = (&server, &positions, &one_at_a_time);
            scope.spawn(move || {
                let mut client = server.connect();
                for round in 0..3 {
                    for index in 0..positions.len() {
                        let index = (index + thread + round) % positions.len();
                        let reply = client.position("tic-tac-toe", Some(&positions[index]), &[]);
                        assert_eq!(reply.status, 200);
                        assert_eq!(values_of(&reply.json()["analysis"]), expected[index]);
                    }
                }
            });
        }
    });
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    let body = json!({"game": "tic-tac-toe", "moves": ["5"]}).to_string();
    let host = format!("Host: 127.0.0.1:{}", server.port);
    let post = format!("POST /api/position HTTP/1.1\r\n{host}\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    client.send_raw(
        format!("GET /api/games HTTP/1.1\r\n{host}\r\n\r\n{post}GET /nothing HTTP/1.1\r\n{host}\r\n\r\n").as_bytes(),
    );
    assert!(client.read_reply().json()["games"].is_array());
    assert_eq!(client.read_reply().json()["moves"], json!(["5"]));
    assert_eq!(client.read_reply().status, 404);
}

#[test]
fn a_served_database_gives_the_values_and_is_never_written() {
    let directory = std::env::temp_dir().join(format!("ludus-serve-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let db = directory.to_str().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", "connect-four:width=4,height=4", "--db", db])
        .output()
        .expect("ludus db solve runs");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let files_before = tier_files(&directory);
    let server = Server::start(&["--db", db]);
    let mut client = server.connect();
    let games = client.get("/api/games").json();
    let connect_four = games["games"].as_array().unwrap().iter().find(|game| game["name"] == "connect-four").unwrap();
    assert_eq!(connect_four["served"], json!(["connect-four:width=4,height=4"]));
    for moves in [&[][..], &["1", "2", "2"][..], &["2", "3", "3", "2"][..]] {
        let answer = client.position("connect-four:height=4,width=4", None, moves).json();
        assert_eq!(answer["source"], "database", "values read from the files");
        let position = moves.concat();
        let queried =
            ludus_json(&["db", "query", "connect-four:width=4,height=4", &position, "--db", db, "--format", "json"]);
        assert_eq!(answer["analysis"], queried, "`ludus db query` {position}");
        let searched = ludus_json(&["analyze", "connect-four:width=4,height=4", &position, "--format", "json"]);
        assert_eq!(values_of(&answer["analysis"]), values_of(&searched), "the database's values are the search's");
    }
    drop(client);
    let (code, _) = server.interrupt();
    assert_eq!(code, Some(0));
    assert_eq!(tier_files(&directory), files_before, "the database's files are as they were, and no file was added");
    // A directory without tier files, or of an unknown game, stops the server before it listens.
    let empty = std::env::temp_dir().join(format!("ludus-serve-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--port", "0", "--db", empty.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("no tier file"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // An endgame database is probed (`--endgame`), not served: the error says which flag takes it.
    let solved = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["db", "solve", "kalah:pits=3,seeds=2", "--up-to", "4", "--db", empty.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let output = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--port", "0", "--db", empty.to_str().unwrap()])
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(error.contains(&format!("give it with `--endgame {}`", empty.display())), "{error}");
    std::fs::remove_dir_all(&empty).unwrap();
    std::fs::remove_dir_all(&directory).unwrap();
}

/// The files of a directory with their bytes, sorted by name.
fn tier_files(directory: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap())
        .map(|entry| (entry.file_name().to_string_lossy().into_owned(), std::fs::read(entry.path()).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    assert_eq!(client.get("/api/games").status, 200);
    let (code, stderr) = server.interrupt();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("ludus serve: stopped"), "{stderr}");
    // Its port is closed.
    drop(client);
}

#[test]
fn serve_refuses_bad_flags_before_it_listens() {
    for (arguments, words) in [
        (&["--game", "chess"][..], "no game `chess`"),
        (&["--table-mb", "64", "--memory-mb", "32"][..], "--table-mb (64) is more than --memory-mb (32)"),
        (&["--bind", "example.org"][..], "invalid value 'example.org'"),
    ] {
        let output =
            Command::new(env!("CARGO_BIN_EXE_ludus")).args(["serve", "--port", "0"]).args(arguments).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{arguments:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(words), "{arguments:?}: {stderr}");
    }
}

#[test]
fn random_requests_never_stop_the_server() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let server = Server::start(&["--max-positions", "100000", "--max-seconds", "2"]);
    let mut random = StdRng::seed_from_u64(23);
    // Bytes that are not HTTP, or HTTP cut short: each connection answered or closed.
    for _ in 0..100 {
        let length = random.gen_range(0..600);
        let mut bytes: Vec<u8> = (0..length).map(|_| random.gen()).collect();
        if random.gen_bool(0.5) {
            let mut head = b"POST /api/position HTTP/1.1\r\nContent-Length: 5\r\n".to_vec();
            head.append(&mut bytes);
            bytes = head;
        }
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        use std::io::{Read, Write};
        let _ = stream.write_all(&bytes);
        let _ = stream.shutdown(std::net::Shutdown::Write);
        stream.set_read_timeout(Some(std::time::Duration::from_secs(15))).unwrap();
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        assert!(reply.is_empty() || reply.starts_with(b"HTTP/1.1 "), "{}", String::from_utf8_lossy(&reply));
    }
    // Positions and moves of every game made of characters the games write, and of others.
    let games = [
        "tic-tac-toe",
        "connect-four:width=5,height=4",
        "nim",
        "octal:code=0.137",
        "dodgem:n=4",
        "three-mens-morris",
        "quixo:size=3",
        "teeko",
        "othello:size=4",
        "kalah:pits=3,seeds=2",
        "pig:goal=10",
        "hog:goal=10,dice=3",
    ];
    let alphabet: Vec<char> = "0123456789abcdexo/.:+-, \u{1f}\u{e9}".chars().collect();
    let mut client = server.connect();
    for _ in 0..300 {
        let game = games[random.gen_range(0..games.len())];
        let mut text = |most: usize| -> String {
            let length = random.gen_range(0..most);
            (0..length).map(|_| alphabet[random.gen_range(0..alphabet.len())]).collect()
        };
        let position = text(12);
        let moves: Vec<String> = (0..3).map(|_| text(6)).collect();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let reply = client.position(game, Some(&position), &moves);
        assert!(
            reply.status == 200 || (reply.status >= 400 && !reply.error_kind().is_empty()),
            "{game} {position:?} {moves:?}: {} {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        );
        assert_ne!(reply.status, 500, "{game} {position:?} {moves:?}: {}", String::from_utf8_lossy(&reply.body));
    }
    assert_eq!(server.connect().get("/api/games").status, 200, "still serving");
}
