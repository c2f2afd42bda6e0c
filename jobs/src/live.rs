//! Events for live sessions and waiting requests, carried over Redis pub/sub.
//!
//! A worker that finished a summary, or an api replica whose session was taken over by a new
//! socket, publishes one [`LiveEvent`] on the namespace's one channel. Every api replica listens
//! to it and hands each event to the socket or request on that replica that waits for it.

use redis::AsyncCommands;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The one pub/sub channel of a namespace.
pub fn channel(namespace: &str) -> String {
    format!("{namespace}:live")
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum LiveEvent {
    /// A summary job changed state; on `succeeded` it carries the template and the result.
    #[serde(rename_all = "camelCase")]
    Summary {
        summary_id: String,
        session_id: Option<String>,
        job_id: String,
        /// The job's state: running, succeeded, retrying, failed.
        state: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        template: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<Value>,
        /// Dutch, fit to show (failures).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// Another socket joined the session: the one in `connection` must close.
    #[serde(rename_all = "camelCase")]
    Takeover { session_id: String, connection: String },
}

/// Publishes an event. Returns how many api replicas received it.
pub async fn publish(conn: &mut redis::aio::ConnectionManager, namespace: &str, event: &LiveEvent) -> redis::RedisResult<usize> {
    let body = serde_json::to_string(event).map_err(|e| {
        redis::RedisError::from((redis::ErrorKind::Client, "cannot encode live event", e.to_string()))
    })?;
    conn.publish(channel(namespace), body).await
}
