//! The connections accepted and waiting for a worker: at most [`QUEUED_CONNECTIONS`], each for at most
//! [`QUEUE_TIME`]. A connection past either bound is answered `503 busy` (with `Retry-After`) at once and
//! closed: by the accepting thread when the queue is full, by the queue's keeper thread when it has waited too
//! long; so a client of a server whose workers are all held learns it within seconds rather than when a worker
//! frees. Workers see whether a connection has been waiting a moment, so that a kept-alive connection gives its
//! worker up to it.

use super::http::{Connection, Response};
use super::shapes::ApiError;
use std::collections::VecDeque;
use std::net::TcpStream;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Connections accepted and waiting for a worker, at most.
const QUEUED_CONNECTIONS: usize = 64;
/// How long a connection may wait for a worker before it is answered `503 busy`.
pub const QUEUE_TIME: Duration = Duration::from_secs(2);
/// How long a connection waits in the queue before a kept-alive connection gives its worker up to it (one
/// that has waited less is about to be taken by a worker that is free, or just freed).
const YIELD_TIME: Duration = Duration::from_millis(200);
/// How long a refusal may take to be written (a few hundred bytes on a new connection: at once, unless the
/// client is gone).
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// The connections waiting, each with when it was accepted (oldest first), and whether the server is
/// stopping.
#[derive(Default)]
struct Waiting {
    connections: VecDeque<(TcpStream, Instant)>,
    closed: bool,
}

/// The queue between the accepting thread and the workers.
#[derive(Default)]
pub struct Queue {
    waiting: Mutex<Waiting>,
    /// Wakes a worker: a connection arrived, or the queue closed.
    arrived: Condvar,
    /// Wakes the keeper: the oldest connection may have changed, or the queue closed.
    changed: Condvar,
}

impl Queue {
    /// The waiting connections (a panic never happens while they are held, so a poisoned lock is whole).
    fn waiting(&self) -> MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a connection just accepted, or refuses it if the queue is full.
    pub fn push(&self, stream: TcpStream) {
        let mut waiting = self.waiting();
        if waiting.connections.len() >= QUEUED_CONNECTIONS {
            drop(waiting);
            return refuse_busy(stream);
        }
        waiting.connections.push_back((stream, Instant::now()));
        self.arrived.notify_one();
        self.changed.notify_one();
    }

    /// The next connection for a worker, waiting for one; `None` once the queue is closed and empty.
    pub fn pop(&self) -> Option<TcpStream> {
        let mut waiting = self.waiting();
        loop {
            if let Some((stream, _)) = waiting.connections.pop_front() {
                self.changed.notify_one();
                return Some(stream);
            }
            if waiting.closed {
                return None;
            }
            waiting = self.arrived.wait(waiting).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Whether a connection has waited [`YIELD_TIME`] for a worker.
    pub fn is_waiting(&self) -> bool {
        self.waiting().connections.front().is_some_and(|(_, accepted)| accepted.elapsed() >= YIELD_TIME)
    }

    /// Closes the queue: the workers serve what is left and end, the keeper ends.
    pub fn close(&self) {
        self.waiting().closed = true;
        self.arrived.notify_all();
        self.changed.notify_all();
    }

    /// The keeper: answers each connection that has waited [`QUEUE_TIME`] with `503 busy`, as its time comes,
    /// until the queue closes.
    pub fn keep(&self) {
        let mut waiting = self.waiting();
        while !waiting.closed {
            let now = Instant::now();
            let mut expired = Vec::new();
            while waiting.connections.front().is_some_and(|(_, accepted)| now >= *accepted + QUEUE_TIME) {
                expired.extend(waiting.connections.pop_front().map(|(stream, _)| stream));
            }
            if !expired.is_empty() {
                drop(waiting);
                expired.into_iter().for_each(refuse_busy);
                waiting = self.waiting();
                continue;
            }
            waiting = match waiting.connections.front() {
                Some(&(_, accepted)) => {
                    let left = (accepted + QUEUE_TIME).saturating_duration_since(now);
                    self.changed.wait_timeout(waiting, left).unwrap_or_else(PoisonError::into_inner).0
                }
                None => self.changed.wait(waiting).unwrap_or_else(PoisonError::into_inner),
            };
        }
    }
}

/// Answers a connection that no worker can take with `503 busy`, and closes it.
fn refuse_busy(stream: TcpStream) {
    let error = ApiError::new(503, "busy", "every connection is taken (--connections): retry");
    if let Ok(mut connection) = Connection::new(stream) {
        let _ = connection.write_response(&Response::error(&error), true, Instant::now() + REFUSAL_TIME);
    }
}
