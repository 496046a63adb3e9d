//! What the tests of `ludus serve` share: the real binary started on a free loopback port (the port read from
//! its first line, the process stopped when dropped), and a small blocking HTTP/1.1 client over one kept-alive
//! connection, opened anew when it has been idle for nearly the server's 5 s or the server said it closes it
//! (also what speaks WebDriver to chromedriver). Written here rather than taken from a crate: the
//! tests need a raw connection anyway (pipelined and malformed requests), and a dozen lines of client keep the
//! test build from compiling an HTTP stack.

#![allow(dead_code)] // each test crate uses part of it

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `ludus serve`, stopped (killed) when dropped.
pub struct Server {
    child: Child,
    /// Its standard output, kept open.
    _stdout: BufReader<std::process::ChildStdout>,
    /// Its port (on 127.0.0.1, whatever address it listens on).
    pub port: u16,
    /// Its first line, which gives its address.
    pub banner: String,
}

impl Server {
    /// Starts `ludus serve --port 0` with `arguments`, and waits for the line that gives its address.
    pub fn start(arguments: &[&str]) -> Server {
        Server::start_in(std::path::Path::new("."), arguments)
    }

    /// [`Server::start`], run in `directory` (where it looks for `db/`).
    pub fn start_in(directory: &std::path::Path, arguments: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .current_dir(directory)
            .args(["serve", "--port", "0"])
            .args(arguments)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ludus serve starts");
        let stdout = child.stdout.take().expect("its standard output");
        let mut line = String::new();
        let mut stdout = BufReader::new(stdout);
        stdout.read_line(&mut line).expect("ludus serve prints its address");
        let port = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|address| address.rsplit_once(':'))
            .and_then(|(_, port)| port.parse().ok())
            .unwrap_or_else(|| panic!("no address in `{line}`"));
        Server { child, _stdout: stdout, port, banner: line }
    }

    /// A new connection to the server.
    pub fn connect(&self) -> Client {
        Client::connect(self.port)
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's resident memory in KiB (Linux).
    pub fn resident_kib(&self) -> u64 {
        self.status_field("VmRSS:")
    }

    /// The server's threads (Linux).
    pub fn threads(&self) -> u64 {
        self.status_field("Threads:")
    }

    /// The number of a line of the server's `/proc/PID/status`, `field` its start.
    fn status_field(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).expect("/proc/PID/status");
        let line = status.lines().find(|line| line.starts_with(field)).unwrap_or_else(|| panic!("no {field} line"));
        line.split_whitespace().nth(1).and_then(|number| number.parse().ok()).expect("a number")
    }

    /// Sends Ctrl-C (SIGINT) and waits for the process: its status code and standard error.
    pub fn interrupt(mut self) -> (Option<i32>, String) {
        let status = Command::new("kill").args(["-INT", &self.pid().to_string()]).status().expect("kill runs");
        assert!(status.success(), "kill -INT failed");
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let code = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status.code();
            }
            assert!(std::time::Instant::now() < deadline, "ludus serve did not stop within 20 s of Ctrl-C");
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        (code, stderr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status and body.
#[derive(Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// Its headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|error| panic!("not JSON ({error}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The error kind of a JSON error body.
    pub fn error_kind(&self) -> String {
        self.json()["error"]["kind"].as_str().unwrap_or_default().to_string()
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(known, _)| known == name).map(|(_, value)| value.as_str())
    }
}

/// A blocking HTTP/1.1 client over one kept-alive connection.
pub struct Client {
    reader: BufReader<TcpStream>,
    port: u16,
    /// When the connection last carried a request.
    used: Instant,
    /// Whether the server said it closes the connection (`Connection: close`).
    closing: bool,
}

/// How long a connection may stay idle before a request opens a new one: under the server's 5 s, after which
/// it closes an idle connection.
const IDLE: Duration = Duration::from_secs(4);

impl Client {
    /// A connection to 127.0.0.1:`port`.
    pub fn connect(port: u16) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
        stream.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
        Client { reader: BufReader::new(stream), port, used: Instant::now(), closing: false }
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.reader.get_mut().write_all(bytes).expect("sends");
    }

    /// `method path` with `body` (JSON when given).
    pub fn request(&mut self, method: &str, path: &str, body: Option<&[u8]>) -> Reply {
        if self.used.elapsed() > IDLE || self.closing {
            *self = Client::connect(self.port);
        }
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n", self.port);
        if let Some(body) = body {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body.unwrap_or_default());
        self.send_raw(&bytes);
        let reply = self.read_reply();
        self.used = Instant::now();
        self.closing = reply.header("connection") == Some("close");
        reply
    }

    /// `GET path`.
    pub fn get(&mut self, path: &str) -> Reply {
        self.request("GET", path, None)
    }

    /// `POST path` of `json`.
    pub fn post(&mut self, path: &str, json: &serde_json::Value) -> Reply {
        self.request("POST", path, Some(json.to_string().as_bytes()))
    }

    /// `POST /api/position` of a game, a position and moves.
    pub fn position(&mut self, game: &str, position: Option<&str>, moves: &[&str]) -> Reply {
        self.post("/api/position", &serde_json::json!({"game": game, "position": position, "moves": moves}))
    }

    /// Everything the server sends until it closes the connection (empty if it closes at once).
    pub fn read_to_end(&mut self) -> Vec<u8> {
        let mut rest = Vec::new();
        let _ = self.reader.read_to_end(&mut rest);
        rest
    }

    /// Reads one response (a body by `Content-Length` or chunked).
    pub fn read_reply(&mut self) -> Reply {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("a status line");
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("status line `{line}`"));
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            self.reader.read_line(&mut header).expect("a header");
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
            }
        }
        let find = |name: &str| headers.iter().find(|(known, _)| known == name).map(|(_, value)| value.clone());
        let mut body = Vec::new();
        if let Some(length) = find("content-length") {
            body.resize(length.parse().expect("a length"), 0);
            self.reader.read_exact(&mut body).expect("the body");
        } else if find("transfer-encoding").is_some_and(|coding| coding.contains("chunked")) {
            loop {
                let mut size = String::new();
                self.reader.read_line(&mut size).expect("a chunk size");
                let size = usize::from_str_radix(size.trim(), 16).expect("a hexadecimal chunk size");
                let mut chunk = vec![0; size + 2];
                self.reader.read_exact(&mut chunk).expect("a chunk");
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else {
            self.reader.read_to_end(&mut body).expect("the body to the end");
        }
        Reply { status, headers, body }
    }
}
