//! One connection as a worker serves it: its requests read and answered in order (kept alive, pipelined)
//! until it closes or a bound ends it. Every bound is one of time or count, so that no client holds a worker
//! for long: each response is written within `--response-seconds` in all (a client reading slower is
//! dropped), a connection is served at most [`REQUESTS_PER_CONNECTION`] requests and `--connection-seconds`
//! (the response under way then is its last, with `Connection: close`), and a kept-alive connection gives its
//! worker up, between requests, to a connection waiting in the queue.

use super::http::{self, Connection, ReadEnd, Response};
use super::queue::Queue;
use super::routes::{self, State};
use super::shapes::ApiError;
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Requests served on one kept-alive connection before it is closed; requests pipelined past them are not
/// read (the client sends them again on a new connection).
pub const REQUESTS_PER_CONNECTION: usize = 100;

/// How long a client may take: to receive one response, and to be served on one connection.
#[derive(Clone, Copy, Debug)]
pub struct ClientTimes {
    /// The most time one response may take to be written, in all (`--response-seconds`).
    pub response: Duration,
    /// The most time a connection is served (`--connection-seconds`).
    pub connection: Duration,
}

/// What a worker serves a connection with.
pub struct Worker<'server> {
    /// What requests are answered from.
    pub state: &'server Arc<State>,
    /// The connections waiting for a worker.
    pub queue: &'server Queue,
    /// Set by Ctrl-C.
    pub stopping: &'server AtomicBool,
    /// The clients' time bounds.
    pub times: ClientTimes,
}

impl Worker<'_> {
    /// Serves the requests of one connection, in order, until it closes, idles, breaks a bound, or the server
    /// stops.
    pub fn serve(&self, stream: TcpStream) {
        let local = stream.local_addr().ok();
        let Ok(mut connection) = Connection::new(stream) else { return };
        let ends = Instant::now() + self.times.connection;
        let stopping = || self.stopping.load(Ordering::SeqCst);
        // Between requests, and after a response: a connection that another is waiting for ends.
        let yields = || stopping() || self.queue.is_waiting();
        for served in 1..=REQUESTS_PER_CONNECTION {
            let request = match connection.read_request(&yields, &stopping) {
                Ok(request) => request,
                Err(ReadEnd::Closed) => return,
                Err(ReadEnd::Refused(error)) => {
                    let deadline = Instant::now() + self.times.response;
                    let _ = connection.write_response(&Response::error(&error), true, deadline);
                    return;
                }
            };
            let response = match check_host(&request.host, local) {
                Ok(()) => answer(self.state, &request),
                Err(error) => Response::error(&error),
            };
            let close = request.close || served == REQUESTS_PER_CONNECTION || Instant::now() >= ends || yields();
            let deadline = Instant::now() + self.times.response;
            if connection.write_response(&response, close, deadline).is_err() || close {
                return;
            }
        }
    }
}

/// The response to `request`; a panic in the routes (a bug) is a 500, and the worker goes on.
fn answer(state: &Arc<State>, request: &http::Request) -> Response {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| routes::respond(state, request))).unwrap_or_else(|_| {
        note!("ludus serve: internal error answering {} {}", request.method, request.path);
        Response::error(&ApiError::new(500, "internal", "internal error (a bug: see the server's log)"))
    })
}

/// A server listening on a loopback address answers only requests addressed to it by a loopback name, so
/// that a page of another site cannot reach it through a name of its own that resolves here (DNS rebinding).
fn check_host(host: &str, local: Option<SocketAddr>) -> Result<(), ApiError> {
    // A client of 127.0.0.1 reaching a server that listens on `::` arrives at `::ffff:127.0.0.1`.
    let Some(local) = local.filter(|local| local.ip().to_canonical().is_loopback()) else { return Ok(()) };
    let name = host.rsplit_once(':').filter(|(_, port)| port.parse::<u16>().is_ok()).map_or(host, |(name, _)| name);
    let address = name.strip_prefix('[').and_then(|name| name.strip_suffix(']')).unwrap_or(name);
    let loopback = address.parse::<IpAddr>().is_ok_and(|ip| ip.to_canonical().is_loopback());
    if loopback || name.eq_ignore_ascii_case("localhost") {
        Ok(())
    } else {
        Err(ApiError::new(
            403,
            "host",
            format!("this server answers requests to 127.0.0.1:{0} or localhost:{0} only", local.port()),
        ))
    }
}
