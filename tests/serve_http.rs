//! `ludus serve`'s HTTP over real connections on a loopback port: a request names exactly one host, a body
//! comes only with one plain `Content-Length`, HTTP/1.1 only (HTTP/1.0 refused with 505), and a server listening
//! on every address says so and still checks the `Host` of the clients that reach it through loopback.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers: a failure should fail the test loudly

mod server;

use server::{Reply, Server};

/// `bytes` sent on a new connection, and the reply.
fn exchange(server: &Server, bytes: &str) -> Reply {
    let mut client = server.connect();
    client.send_raw(bytes.as_bytes());
    client.read_reply()
}

/// Checks an error reply: its status, kind and words of its message.
fn expect(reply: &Reply, status: u16, kind: &str, words: &str) {
    assert_eq!(reply.status, status, "{}", String::from_utf8_lossy(&reply.body));
    assert_eq!(reply.error_kind(), kind);
    let message = reply.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains(words), "`{message}` should say `{words}`");
}

#[test]
fn a_request_names_exactly_one_host() {
    let server = Server::start(&[]);
    for hosts in ["Host: 127.0.0.1\r\nHost: attacker.example\r\n", "Host: attacker.example\r\nHost: 127.0.0.1\r\n", ""]
    {
        let reply = exchange(&server, &format!("GET /api/games HTTP/1.1\r\n{hosts}\r\n"));
        expect(&reply, 400, "http", "exactly one Host header");
    }
    assert_eq!(exchange(&server, "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status, 200);
}

#[test]
fn a_post_without_content_length_gets_411_and_its_body_is_never_a_request() {
    let server = Server::start(&[]);
    let mut client = server.connect();
    client.send_raw(b"POST /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n{\"game\": \"tic-tac-toe\"}");
    expect(&client.read_reply(), 411, "body", "Content-Length");
    assert_eq!(client.read_to_end(), b"", "the connection closed after the 411, its body not read as a request");
}

#[test]
fn a_content_length_is_digits_only() {
    let server = Server::start(&[]);
    let body = r#"{"game": "tic-tac-toe"}"#;
    assert_eq!(body.len(), 23);
    for length in ["+23", "23 23", "0x17", "-0", "23,23", ""] {
        let request =
            format!("POST /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n{body}");
        expect(&exchange(&server, &request), 400, "body", "Content-Length");
    }
    let request = format!("POST /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 23\r\n\r\n{body}");
    assert_eq!(exchange(&server, &request).status, 200);
    // A length past every number is past the body's bound.
    let request = "POST /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999999\r\n\r\n";
    expect(&exchange(&server, request), 413, "body", "at most 65536 bytes");
}

#[test]
fn http_1_0_is_refused_with_505() {
    let server = Server::start(&[]);
    for version in ["HTTP/1.0", "HTTP/2.0"] {
        let mut client = server.connect();
        client.send_raw(format!("GET /api/games {version}\r\nHost: 127.0.0.1\r\n\r\n").as_bytes());
        expect(&client.read_reply(), 505, "http", "HTTP/1.1 only");
        assert_eq!(client.read_to_end(), b"", "{version}: the connection closed");
    }
}

#[test]
fn a_server_on_every_address_says_so() {
    for (bind, shown) in [("0.0.0.0", "http://0.0.0.0:"), ("::", "http://[::]:")] {
        let server = Server::start(&["--bind", bind]);
        assert!(server.banner.contains(shown), "--bind {bind}: {}", server.banner);
        assert_eq!(server.connect().get("/api/games").status, 200, "--bind {bind}: reached through 127.0.0.1");
        let (code, stderr) = server.interrupt();
        assert_eq!(code, Some(0));
        assert!(stderr.contains("warning: --bind") && stderr.contains("every network"), "--bind {bind}: {stderr}");
    }
}

#[test]
fn a_loopback_client_of_a_server_on_every_address_names_a_loopback_host() {
    // Listening on `::`, a client of 127.0.0.1 arrives at `::ffff:127.0.0.1`: a loopback address all the same.
    for bind in ["::", "0.0.0.0"] {
        let server = Server::start(&["--bind", bind]);
        let reply = exchange(&server, "GET /api/games HTTP/1.1\r\nHost: attacker.example\r\n\r\n");
        expect(&reply, 403, "host", "127.0.0.1");
        for host in ["localhost", "127.0.0.1:80", "[::1]", "[::ffff:127.0.0.1]:8080"] {
            let reply = exchange(&server, &format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n"));
            assert_eq!(reply.status, 200, "--bind {bind}, Host: {host}");
        }
    }
}
