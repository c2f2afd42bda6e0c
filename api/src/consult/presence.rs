//! Live sockets joining and leaving their sessions, written to the database in batches.
//!
//! A socket that joins must find its session (the user's own, not expired) and give it its whole
//! life back; one that leaves pulls the session's expiry forward to the resume grace. Written one
//! statement per socket, a burst of connects (every open consult of a practice reconnecting after
//! an outage) asked for a connection each and emptied the pool. Here every join and leave goes
//! through one queue to one writer task, which takes all that waits (up to [`BATCH`]) and writes
//! it in one statement ([`domain::consults::record_presence`]) on one connection; a joining socket
//! waits for its batch's commit before it is ready. So a burst costs one connection and a few
//! round trips, whatever its size.
//!
//! Nothing is dropped: a batch that cannot be written is written again (after 0.1 s, doubling up
//! to 5 s) until it is, the joins of sockets that gave up excepted. A join waits at most
//! [`JOIN_WAIT`]; when the queue is full, or the wait is over, the socket is refused as busy with
//! a retry delay ([`Busy`]), and the page tries again after it. A leave waits for its batch
//! however long that takes.
//!
//! The writer is alone, so joins and leaves are written in the order they were asked. A leave is
//! not asked for at all when a newer socket of the same session joined on this process since
//! (a reconnect that overtook the old socket's end, or a takeover): the session is live.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use domain::consults::{self, JoinAnswer, Session};
use sqlx::PgPool;
use tokio::sync::{mpsc, oneshot};

/// Joins and leaves one statement takes at most.
pub const BATCH: usize = 1_000;
/// Joins and leaves waiting for the writer before a new socket is refused as busy.
pub const QUEUE: usize = 10_000;
/// How long a joining socket waits for its batch before it is refused as busy.
pub const JOIN_WAIT: Duration = Duration::from_secs(10);
/// Longest wait between two tries of a batch that could not be written.
const RETRY_MAX: Duration = Duration::from_secs(5);

/// The socket could not join now: it is to try again after `retry_after` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy {
    pub retry_after: u64,
}

enum Op {
    Join { session_id: String, user_id: String, answer: oneshot::Sender<JoinAnswer> },
    Leave { session_id: String, done: oneshot::Sender<()> },
}

/// What a join found.
pub enum Joined {
    /// The session is live and the user's: the socket holds it until [`Membership::leave`].
    Session(Session, Membership),
    Expired,
    NotFound,
}

#[derive(Clone)]
pub struct Presence {
    queue: mpsc::Sender<Op>,
    inner: Arc<Inner>,
}

struct Inner {
    next: AtomicU64,
    /// Per session, the joins asked on this process (their numbers, oldest first) whose socket
    /// still holds it or waits for its join.
    members: Mutex<HashMap<String, Vec<u64>>>,
}

impl Presence {
    /// Starts the writer on the current runtime. It ends when the last handle is gone.
    pub fn start(db: PgPool, ttl: Duration, grace: Duration) -> Self {
        let (queue, arriving) = mpsc::channel(QUEUE);
        tokio::spawn(write(db, ttl, grace, arriving));
        Self { queue, inner: Arc::new(Inner { next: AtomicU64::new(1), members: Mutex::default() }) }
    }

    /// Joins `session_id` for `user_id`, once the join is committed.
    pub async fn join(&self, session_id: &str, user_id: &str) -> Result<Joined, Busy> {
        // Marked before it is queued: an older socket of the session that ends from now on does
        // not pull the session's expiry forward.
        let membership = self.mark(session_id);
        let (answer, answered) = oneshot::channel();
        let op = Op::Join { session_id: session_id.to_owned(), user_id: user_id.to_owned(), answer };
        if self.queue.try_send(op).is_err() {
            metrics::counter!("speech_join_busy_total", "why" => "queue").increment(1);
            return Err(self.busy());
        }
        match tokio::time::timeout(JOIN_WAIT, answered).await {
            Ok(Ok(JoinAnswer::Joined(session))) => Ok(Joined::Session(session, membership)),
            Ok(Ok(JoinAnswer::Expired)) => Ok(Joined::Expired),
            Ok(Ok(JoinAnswer::NotFound)) => Ok(Joined::NotFound),
            // the writer is gone (the process stops) or the batch was not written in time
            Ok(Err(_)) | Err(_) => {
                metrics::counter!("speech_join_busy_total", "why" => "wait").increment(1);
                Err(self.busy())
            }
        }
    }

    /// The retry delay for a refused socket: a second for every thousand joins and leaves
    /// waiting, at least 1 and at most 10 (the page adds up to as much again at random).
    fn busy(&self) -> Busy {
        let waiting = (QUEUE - self.queue.capacity()) as u64;
        Busy { retry_after: (1 + waiting / 1_000).min(10) }
    }

    /// Joins and leaves waiting for the writer (for tests and metrics).
    pub fn waiting(&self) -> usize {
        QUEUE - self.queue.capacity()
    }

    fn mark(&self, session_id: &str) -> Membership {
        let number = self.inner.next.fetch_add(1, Ordering::Relaxed);
        self.inner.members.lock().unwrap_or_else(PoisonError::into_inner).entry(session_id.to_owned()).or_default().push(number);
        Membership { presence: self.clone(), session_id: session_id.to_owned(), number, done: false }
    }

    /// Forgets a membership; true when no newer one of the session is left on this process.
    fn forget(&self, session_id: &str, number: u64) -> bool {
        let mut members = self.inner.members.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(numbers) = members.get_mut(session_id) else { return true };
        numbers.retain(|n| *n != number);
        let newest = numbers.iter().all(|n| *n < number);
        if numbers.is_empty() {
            members.remove(session_id);
        }
        newest
    }

    /// Sessions held or being joined on this process (for tests).
    pub fn held(&self) -> usize {
        self.inner.members.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

/// A socket's hold on its session, from its join on.
pub struct Membership {
    presence: Presence,
    session_id: String,
    number: u64,
    done: bool,
}

impl Membership {
    /// The socket left: once written, the session can be resumed within the grace. Nothing is
    /// written when a newer socket of the session joined on this process meanwhile.
    pub async fn leave(mut self) {
        self.done = true;
        if !self.presence.forget(&self.session_id, self.number) {
            return;
        }
        let (done, written) = oneshot::channel();
        if self.presence.queue.send(Op::Leave { session_id: self.session_id.clone(), done }).await.is_ok() {
            let _ = written.await;
        }
    }
}

impl Drop for Membership {
    /// Dropped without [`Membership::leave`] (taken over, or the join failed): nothing is written.
    fn drop(&mut self) {
        if !self.done {
            self.presence.forget(&self.session_id, self.number);
        }
    }
}

async fn write(db: PgPool, ttl: Duration, grace: Duration, mut arriving: mpsc::Receiver<Op>) {
    while let Some(first) = arriving.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match arriving.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let mut pause = Duration::from_millis(100);
        loop {
            // a socket that stopped waiting is refused already; its join is not written
            batch.retain(|op| !matches!(op, Op::Join { answer, .. } if answer.is_closed()));
            if batch.is_empty() {
                break;
            }
            match write_batch(&db, ttl, grace, &batch).await {
                Ok(answers) => {
                    answer(batch, answers);
                    break;
                }
                Err(e) => {
                    let joins = batch.iter().filter(|op| matches!(op, Op::Join { .. })).count();
                    metrics::counter!("speech_presence_retries_total").increment(1);
                    tracing::warn!(joins, leaves = batch.len() - joins, error = %e, "joins and leaves not written yet; trying again");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(RETRY_MAX);
                }
            }
        }
    }
}

async fn write_batch(db: &PgPool, ttl: Duration, grace: Duration, batch: &[Op]) -> sqlx::Result<Vec<JoinAnswer>> {
    let mut joins = Vec::new();
    let mut leaves = Vec::new();
    for op in batch {
        match op {
            Op::Join { session_id, user_id, .. } => joins.push((session_id.clone(), user_id.clone())),
            Op::Leave { session_id, .. } => leaves.push(session_id.clone()),
        }
    }
    let mut conn = db.acquire().await?;
    let answers = consults::record_presence(&mut conn, &joins, &leaves, ttl, grace).await?;
    metrics::histogram!("speech_presence_batch").record(batch.len() as f64);
    Ok(answers)
}

fn answer(batch: Vec<Op>, answers: Vec<JoinAnswer>) {
    let mut answers = answers.into_iter();
    for op in batch {
        match op {
            Op::Join { answer, .. } => {
                if let Some(found) = answers.next() {
                    let _ = answer.send(found);
                }
            }
            Op::Leave { done, .. } => {
                let _ = done.send(());
            }
        }
    }
}
