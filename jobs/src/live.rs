//! Events for live sessions and waiting requests, carried over Redis pub/sub.
//!
//! A worker that finished a summary, or an api replica whose session was taken over by a new
//! socket, publishes one [`LiveEvent`] on the namespace's one channel. Every api replica listens
//! to it and hands each event to the socket or request on that replica that waits for it.

use domain::jobs::JobState;
use domain::summary::{ConsultResult, Template};
use redis::AsyncCommands;
use serde::{Deserialize, Serialize};

/// The one pub/sub channel of a namespace.
pub fn channel(namespace: &str) -> String {
    format!("{namespace}:live")
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum LiveEvent {
    /// A summary job's state changed, as the runner committed it (never `queued`); on
    /// `succeeded` it carries the note.
    #[serde(rename_all = "camelCase")]
    Summary {
        summary_id: String,
        session_id: Option<String>,
        job_id: String,
        /// The job's state: running, succeeded, retrying, failed or dead.
        state: JobState,
        template: Template,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<ConsultResult>,
        /// Dutch, fit to show (retrying, failed, dead).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// Another socket joined the session: the one in `connection` must close.
    #[serde(rename_all = "camelCase")]
    Takeover { session_id: String, connection: String },
}

/// Publishes an event. Returns how many api replicas received it.
pub async fn publish(conn: &mut redis::aio::ConnectionManager, namespace: &str, event: &LiveEvent) -> redis::RedisResult<usize> {
    let body = serde_json::to_string(event)
        .map_err(|e| redis::RedisError::from((redis::ErrorKind::Client, "cannot encode live event", e.to_string())))?;
    conn.publish(channel(namespace), body).await
}
