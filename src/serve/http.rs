//! HTTP/1.1 on one connection, every read and write bounded: requests parsed by `httparse` from a buffer of at
//! most [`MAX_HEAD_BYTES`], bodies only with a `Content-Length` of at most [`MAX_BODY_BYTES`], the target at most
//! [`MAX_TARGET_BYTES`], each within its time; a request that breaks a bound is answered with its status and the
//! connection closed; a response is written by a deadline for the whole of it, not for each write.
//! Keep-alive and pipelined requests are served in order on the connection. HTTP/1.1 only: an HTTP/1.0
//! request is refused with 505 rather than served by its other rules (no `Host`, closing by default), which
//! no client of the page needs. A request has exactly one `Host`, and a body only with one `Content-Length` of
//! digits: whatever a proxy in front might read otherwise, this server refuses.

use super::shapes::ApiError;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The most bytes of a request's line and headers.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 32;
/// The longest request target (path and query).
pub const MAX_TARGET_BYTES: usize = 2048;
/// The largest request body.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// How long a request may take to arrive once its first byte has (a slow client holds a worker no longer).
const REQUEST_TIME: Duration = Duration::from_secs(10);
/// How long a kept-alive connection may stay idle before it is closed.
const IDLE_TIME: Duration = Duration::from_secs(5);
/// How often a waiting read wakes to see whether the server is stopping, or the connection should leave.
const POLL: Duration = Duration::from_millis(250);

/// A request as the routes see it.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The `Host` header.
    pub host: String,
    /// The body (empty without `Content-Length`).
    pub body: Vec<u8>,
    /// Whether the client asked to close the connection after this request.
    pub close: bool,
}

/// A response: status, content type, body and extra headers.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// Headers besides those every response gets.
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    /// A JSON response.
    pub fn json(status: u16, body: Vec<u8>) -> Response {
        Response { status, content_type: "application/json", body, headers: vec![("Cache-Control", "no-store".into())] }
    }

    /// The JSON response of an error.
    pub fn error(error: &ApiError) -> Response {
        let mut response = Response::json(error.status, error.to_json());
        if error.status == 503 {
            response.headers.push(("Retry-After", "1".into()));
        }
        response
    }
}

/// Why no request was read.
#[derive(Debug)]
pub enum ReadEnd {
    /// The client closed the connection, stayed idle too long, or the server is stopping: close quietly.
    Closed,
    /// A request that breaks a bound or is not HTTP: answer it with this error, then close.
    Refused(ApiError),
}

/// One connection: its stream and the bytes read past the last request (a pipelined request's start).
pub struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Connection {
    /// A connection over `stream`.
    pub fn new(stream: TcpStream) -> std::io::Result<Connection> {
        stream.set_read_timeout(Some(POLL))?;
        stream.set_nodelay(true)?;
        Ok(Connection { stream, buffer: Vec::new() })
    }

    /// Reads more bytes into the buffer: `Ok(false)` when the client closed, or when `stopping()` or the
    /// deadline came first.
    fn fill(&mut self, deadline: Instant, stopping: &dyn Fn() -> bool) -> Result<bool, ReadEnd> {
        let mut chunk = [0u8; 4096];
        loop {
            if stopping() || Instant::now() >= deadline {
                return Ok(false);
            }
            match self.stream.read(&mut chunk) {
                Ok(0) => return Ok(false),
                Ok(read) => {
                    self.buffer.extend_from_slice(&chunk[..read]);
                    return Ok(true);
                }
                Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => continue,
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return Err(ReadEnd::Closed),
            }
        }
    }

    /// The next request, or why there is none. Waits at most [`IDLE_TIME`] for its first byte, and not once
    /// `leave_idle()`; then [`REQUEST_TIME`] for the rest, unless `stopping()`.
    pub fn read_request(
        &mut self,
        leave_idle: &dyn Fn() -> bool,
        stopping: &dyn Fn() -> bool,
    ) -> Result<Request, ReadEnd> {
        let idle_deadline = Instant::now() + IDLE_TIME;
        while self.buffer.is_empty() {
            if !self.fill(idle_deadline, leave_idle)? {
                return Err(ReadEnd::Closed);
            }
        }
        let deadline = Instant::now() + REQUEST_TIME;
        let (head_length, mut request, content_length) = loop {
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut parsed = httparse::Request::new(&mut headers);
            match parsed.parse(&self.buffer) {
                Ok(httparse::Status::Complete(length)) => {
                    break (length, head_of(&parsed)?, content_length_of(&parsed)?);
                }
                Ok(httparse::Status::Partial) if self.buffer.len() >= MAX_HEAD_BYTES => {
                    return Err(refused(431, "headers", format!("a request's head is at most {MAX_HEAD_BYTES} bytes")))
                }
                Ok(httparse::Status::Partial) => {}
                Err(httparse::Error::TooManyHeaders) => {
                    return Err(refused(431, "headers", format!("a request has at most {MAX_HEADERS} headers")))
                }
                Err(httparse::Error::Version) if names_a_version(&self.buffer) => return Err(http_1_1_only()),
                Err(error) => return Err(refused(400, "http", format!("not an HTTP/1.1 request: {error}"))),
            }
            if !self.fill(deadline, stopping)? {
                return Err(ReadEnd::Closed);
            }
        };
        if head_length > MAX_HEAD_BYTES {
            return Err(refused(431, "headers", format!("a request's head is at most {MAX_HEAD_BYTES} bytes")));
        }
        if content_length > MAX_BODY_BYTES {
            return Err(refused(413, "body", format!("a request body is at most {MAX_BODY_BYTES} bytes")));
        }
        while self.buffer.len() < head_length + content_length {
            if !self.fill(deadline, stopping)? {
                return Err(ReadEnd::Closed);
            }
        }
        request.body = self.buffer[head_length..head_length + content_length].to_vec();
        self.buffer.drain(..head_length + content_length);
        Ok(request)
    }

    /// Writes `response` by `deadline`; `close` says the connection ends after it. Past the deadline the write
    /// fails (with `TimedOut`), the response cut short: the connection is then only to be closed.
    pub fn write_response(&mut self, response: &Response, close: bool, deadline: Instant) -> std::io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: {}\r\n\
             X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n",
            response.status,
            reason(response.status),
            response.content_type,
            response.body.len(),
            if close { "close" } else { "keep-alive" }
        );
        for (name, value) in &response.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(&response.body);
        let mut left = &bytes[..];
        while !left.is_empty() {
            // Each write waits at most until the deadline: a client taking a little at a time gets no more.
            let time = deadline.saturating_duration_since(Instant::now());
            if time.is_zero() {
                return Err(ErrorKind::TimedOut.into());
            }
            self.stream.set_write_timeout(Some(time))?;
            match self.stream.write(left) {
                Ok(0) => return Err(ErrorKind::WriteZero.into()),
                Ok(written) => left = &left[written..],
                Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }
}

/// The error of a request refused before it is routed.
fn refused(status: u16, kind: &'static str, message: String) -> ReadEnd {
    ReadEnd::Refused(ApiError { status, kind, message })
}

/// The refusal of a request of another version than HTTP/1.1.
fn http_1_1_only() -> ReadEnd {
    refused(505, "http", "this server speaks HTTP/1.1 only".into())
}

/// Whether a request line that `httparse` found no HTTP/1.x in names another version of HTTP (`HTTP/2.0`),
/// rather than being no HTTP at all.
fn names_a_version(buffer: &[u8]) -> bool {
    let line = buffer.split(|&byte| byte == b'\n').next().unwrap_or_default();
    line.split(|&byte| byte == b' ').nth(2).is_some_and(|version| version.starts_with(b"HTTP/"))
}

/// The values of the headers named `name` in a parsed head (a value that is not UTF-8 as an empty one).
fn headers<'head>(parsed: &'head httparse::Request<'_, '_>, name: &str) -> Vec<&'head str> {
    parsed
        .headers
        .iter()
        .filter(|header| header.name.eq_ignore_ascii_case(name))
        .map(|header| std::str::from_utf8(header.value).unwrap_or_default())
        .collect()
}

/// The method, path, host and connection wish of a parsed head (the body is read after).
fn head_of(parsed: &httparse::Request<'_, '_>) -> Result<Request, ReadEnd> {
    let (Some(method), Some(target)) = (parsed.method, parsed.path) else {
        return Err(refused(400, "http", "a request without a method or target".into()));
    };
    if parsed.version != Some(1) {
        return Err(http_1_1_only());
    }
    if target.len() > MAX_TARGET_BYTES {
        return Err(refused(414, "target", format!("a request target is at most {MAX_TARGET_BYTES} bytes")));
    }
    // Two would let whatever reads one of them (a proxy, the check of the host) disagree with what reads the
    // other.
    let [host] = headers(parsed, "host")[..] else {
        return Err(refused(400, "http", "a request has exactly one Host header".into()));
    };
    if !headers(parsed, "transfer-encoding").is_empty() {
        return Err(refused(411, "body", "send a body with Content-Length (no Transfer-Encoding)".into()));
    }
    // Without a length its body would be read as the next request.
    if matches!(method, "POST" | "PUT" | "PATCH") && headers(parsed, "content-length").is_empty() {
        return Err(refused(411, "body", format!("a {method} request sends its body with Content-Length")));
    }
    let path = target.split_once('?').map_or(target, |(path, _)| path);
    let close = headers(parsed, "connection")
        .iter()
        .flat_map(|value| value.split(','))
        .any(|option| option.trim().eq_ignore_ascii_case("close"));
    Ok(Request { method: method.to_string(), path: path.to_string(), host: host.to_string(), body: Vec::new(), close })
}

/// The `Content-Length` of a parsed head (0 without one): one header of digits only (no sign, no list).
fn content_length_of(parsed: &httparse::Request<'_, '_>) -> Result<usize, ReadEnd> {
    let length = match headers(parsed, "content-length")[..] {
        [] => return Ok(0),
        [text] => Some(text.trim_matches([' ', '\t']))
            .filter(|digits| !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())),
        _ => None,
    };
    let digits = length.ok_or_else(|| refused(400, "body", "a Content-Length that is not one number".into()))?;
    // Digits past every number are past the body's bound as well.
    Ok(digits.parse::<usize>().unwrap_or(usize::MAX))
}

/// The reason phrase of a status.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Writes more than the socket buffers of both ends hold to a client that reads `chunk` bytes every
    /// 50 ms (none if 0), with a deadline 300 ms away: how the write ended, and when.
    fn write_to_a_slow_reader(chunk: usize) -> (std::io::Result<()>, Duration) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let mut connection = Connection::new(listener.accept().unwrap().0).unwrap();
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut buffer = vec![0; chunk];
                while chunk > 0 && !done.load(Ordering::SeqCst) && client.read(&mut buffer).is_ok_and(|read| read > 0) {
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
            let response = Response::json(200, vec![b' '; 64 * 1024 * 1024]);
            let clock = Instant::now();
            let written = connection.write_response(&response, true, clock + Duration::from_millis(300));
            let took = clock.elapsed();
            done.store(true, Ordering::SeqCst);
            drop(connection);
            (written, took)
        })
    }

    #[test]
    fn a_response_is_written_by_its_deadline_or_not_at_all() {
        // A client that reads nothing, and one that reads a little at a time: each write makes some progress,
        // but the whole response does not arrive by its deadline.
        for chunk in [0, 4096] {
            let (written, took) = write_to_a_slow_reader(chunk);
            assert_eq!(written.map_err(|error| error.kind()), Err(ErrorKind::TimedOut), "reading {chunk} bytes");
            assert!(took >= Duration::from_millis(300) && took < Duration::from_secs(2), "failed after {took:?}");
        }
    }
}
