//! The api's end of the live channel: one Redis subscription per process, handing each event to
//! the socket or request on this process that waits for it.
//!
//! Sockets register their session; a request that waits for a summary registers the summary.
//! Events for nobody here are dropped: another replica holds that socket.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::StreamExt;
use jobs::live::{self, LiveEvent};
use tokio::sync::{mpsc, oneshot};

/// Events queued for one socket before the hub drops newer ones (the socket is stuck).
const SOCKET_QUEUE: usize = 16;

#[derive(Clone)]
pub struct LiveHub {
    inner: Arc<Inner>,
}

struct Inner {
    namespace: String,
    sessions: Mutex<HashMap<String, Registration>>,
    summaries: Mutex<HashMap<String, Vec<oneshot::Sender<LiveEvent>>>>,
}

struct Registration {
    connection: String,
    tx: mpsc::Sender<LiveEvent>,
}

/// A socket's place in the hub; leaves it when dropped.
pub struct SessionSlot {
    hub: LiveHub,
    session_id: String,
    connection: String,
    pub events: mpsc::Receiver<LiveEvent>,
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        let mut sessions = self.hub.inner.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if sessions.get(&self.session_id).is_some_and(|r| r.connection == self.connection) {
            sessions.remove(&self.session_id);
        }
    }
}

/// A request's wait for one summary; leaves the hub when dropped.
pub struct SummaryWait {
    hub: LiveHub,
    summary_id: String,
    rx: Option<oneshot::Receiver<LiveEvent>>,
}

impl SummaryWait {
    /// The next event for the summary, or `None` when the hub went away.
    pub async fn next(&mut self) -> Option<LiveEvent> {
        let rx = self.rx.take()?;
        let event = rx.await.ok();
        if event.is_some() {
            let (tx, rx) = oneshot::channel();
            self.hub.inner.summaries.lock().unwrap_or_else(PoisonError::into_inner).entry(self.summary_id.clone()).or_default().push(tx);
            self.rx = Some(rx);
        }
        event
    }
}

impl Drop for SummaryWait {
    fn drop(&mut self) {
        // the receiver goes first, so that its sender reads as closed below
        drop(self.rx.take());
        let mut summaries = self.hub.inner.summaries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(waiters) = summaries.get_mut(&self.summary_id) {
            waiters.retain(|w| !w.is_closed());
            if waiters.is_empty() {
                summaries.remove(&self.summary_id);
            }
        }
    }
}

impl LiveHub {
    pub fn new(namespace: &str) -> Self {
        Self { inner: Arc::new(Inner { namespace: namespace.to_owned(), sessions: Mutex::default(), summaries: Mutex::default() }) }
    }

    /// Listens to the namespace's channel until the process ends, reconnecting after Redis
    /// errors. Holds the hub weakly: it stops when the last handle is gone.
    pub fn listen(&self, client: redis::Client) {
        let weak = Arc::downgrade(&self.inner);
        let channel = live::channel(&self.inner.namespace);
        tokio::spawn(async move {
            let mut backoff = Duration::from_millis(200);
            loop {
                match client.get_async_pubsub().await {
                    Ok(mut pubsub) => match pubsub.subscribe(&channel).await {
                        Ok(()) => {
                            backoff = Duration::from_millis(200);
                            let mut messages = pubsub.into_on_message();
                            while let Some(message) = messages.next().await {
                                let Some(inner) = weak.upgrade() else { return };
                                match serde_json::from_slice::<LiveEvent>(message.get_payload_bytes()) {
                                    Ok(event) => LiveHub { inner }.deliver(event),
                                    Err(e) => tracing::warn!(error = %e, "unreadable live event"),
                                }
                            }
                            tracing::warn!("live channel subscription ended; subscribing again");
                        }
                        Err(e) => tracing::warn!(error = %e, "cannot subscribe to the live channel"),
                    },
                    Err(e) => tracing::warn!(error = %e, "cannot connect for the live channel"),
                }
                if weak.strong_count() == 0 {
                    return;
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        });
    }

    /// Hands an event to whoever waits for it on this process.
    pub fn deliver(&self, event: LiveEvent) {
        match &event {
            LiveEvent::Summary { summary_id, session_id, .. } => {
                if let Some(waiters) = self.inner.summaries.lock().unwrap_or_else(PoisonError::into_inner).remove(summary_id) {
                    for waiter in waiters {
                        let _ = waiter.send(event.clone());
                    }
                }
                if let Some(session) = session_id {
                    self.to_session(session, None, event.clone());
                }
            }
            LiveEvent::Takeover { session_id, connection } => {
                self.to_session(session_id, Some(connection), event.clone());
            }
        }
    }

    /// Queues an event for a session's socket; `except` skips the connection that sent it.
    fn to_session(&self, session_id: &str, except: Option<&String>, event: LiveEvent) {
        let sessions = self.inner.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(registration) = sessions.get(session_id) {
            if except == Some(&registration.connection) {
                return;
            }
            if registration.tx.try_send(event).is_err() {
                tracing::warn!("live event dropped for a socket that does not keep up");
            }
        }
    }

    /// Registers a socket for its session. A socket of the same session on this process gets a
    /// takeover event at once; one on another process gets it through the channel.
    pub fn join(&self, session_id: &str, connection: &str) -> SessionSlot {
        let (tx, events) = mpsc::channel(SOCKET_QUEUE);
        let previous = self
            .inner
            .sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(session_id.to_owned(), Registration { connection: connection.to_owned(), tx });
        if let Some(previous) = previous {
            let _ = previous.tx.try_send(LiveEvent::Takeover { session_id: session_id.to_owned(), connection: connection.to_owned() });
        }
        SessionSlot { hub: self.clone(), session_id: session_id.to_owned(), connection: connection.to_owned(), events }
    }

    /// Starts waiting for a summary's events. Register before the job can finish.
    pub fn wait_for(&self, summary_id: &str) -> SummaryWait {
        let (tx, rx) = oneshot::channel();
        self.inner.summaries.lock().unwrap_or_else(PoisonError::into_inner).entry(summary_id.to_owned()).or_default().push(tx);
        SummaryWait { hub: self.clone(), summary_id: summary_id.to_owned(), rx: Some(rx) }
    }

    /// Sockets and waiting requests registered on this process (for tests and metrics).
    pub fn registered(&self) -> (usize, usize) {
        let sessions = self.inner.sessions.lock().unwrap_or_else(PoisonError::into_inner).len();
        let summaries = self.inner.summaries.lock().unwrap_or_else(PoisonError::into_inner).len();
        (sessions, summaries)
    }
}
