//! Waking idle workers when a job is pushed.
//!
//! apalis-redis puts every push in its scheduled set and tells no one (finding A): an idle stream
//! only sees new work when it next asks. So the dispatcher, after a push,
//! 1. wakes the streams of that queue in its own process at once ([`wake_local`]): the api and the
//!    worker share a process in `api all`, and the worker's own retries and the relay's pushes
//!    are made in the worker process;
//! 2. publishes the queue's kind on the namespace's wake channel ([`publish`]), where every other
//!    worker process listens ([`listen`]) and wakes its streams of that kind.
//!
//! A message due later (a retry's backoff) wakes this process's streams when it falls due
//! ([`wake_local_at`]); the others find it on their next poll. Polling stays as the safety net for
//! whatever a wake-up misses: a worker that was subscribing while the push happened, a publish
//! lost with a Redis restart, a message due later that another process pushed.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::Duration;

use futures::StreamExt;
use tokio::sync::Notify;

/// This process's wake-ups, by queue (`<namespace>:<kind>`).
static LOCAL: LazyLock<Mutex<HashMap<String, Arc<Notify>>>> = LazyLock::new(Mutex::default);

/// Tells this process's wake-ups from other processes' on the channel.
static PROCESS: LazyLock<String> = LazyLock::new(|| ulid::Ulid::generate().to_string());

/// The wake-up the streams of `queue` in this process wait on.
pub fn notifier(queue: &str) -> Arc<Notify> {
    LOCAL.lock().unwrap_or_else(PoisonError::into_inner).entry(queue.to_owned()).or_default().clone()
}

/// Wakes every stream of `queue` in this process that waits for work.
pub fn wake_local(queue: &str) {
    let notify = LOCAL.lock().unwrap_or_else(PoisonError::into_inner).get(queue).cloned();
    if let Some(notify) = notify {
        notify.notify_waiters();
    }
}

/// Wakes the streams of `queue` in this process after `delay` (a message that is due later).
pub fn wake_local_at(queue: &str, delay: Duration) {
    if !LOCAL.lock().unwrap_or_else(PoisonError::into_inner).contains_key(queue) {
        return;
    }
    let queue = queue.to_owned();
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        wake_local(&queue);
    });
}

/// The one wake channel of a namespace.
pub fn channel(namespace: &str) -> String {
    format!("{namespace}:wake")
}

/// Tells the other worker processes that `kind` has due work.
pub async fn publish(conn: &mut redis::aio::ConnectionManager, namespace: &str, kind: &str) -> redis::RedisResult<()> {
    redis::cmd("PUBLISH").arg(channel(namespace)).arg(format!("{} {kind}", *PROCESS)).query_async::<i64>(conn).await?;
    Ok(())
}

/// Listens to the namespace's wake channel until `stop` resolves, waking this process's streams
/// of each kind named there by another process; subscribes again after Redis errors.
pub async fn listen(client: redis::Client, namespace: String, stop: impl std::future::Future<Output = ()>) {
    tokio::pin!(stop);
    let channel = channel(&namespace);
    let mut backoff = Duration::from_millis(200);
    loop {
        let subscription = async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&channel).await?;
            Ok::<_, redis::RedisError>(pubsub)
        };
        let listened = async {
            match subscription.await {
                Ok(pubsub) => {
                    backoff = Duration::from_millis(200);
                    let mut messages = pubsub.into_on_message();
                    while let Some(message) = messages.next().await {
                        let Ok(text) = std::str::from_utf8(message.get_payload_bytes()) else { continue };
                        match text.split_once(' ') {
                            // this process woke its own streams when it pushed
                            Some((process, _)) if process == *PROCESS => {}
                            Some((_, kind)) => wake_local(&format!("{namespace}:{kind}")),
                            None => tracing::debug!(message = text, "unreadable wake-up"),
                        }
                    }
                    tracing::debug!("wake channel subscription ended; subscribing again");
                }
                Err(e) => tracing::debug!(error = %e, "cannot subscribe to the wake channel; polling meanwhile"),
            }
        };
        tokio::select! {
            () = &mut stop => return,
            () = listened => {}
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_wake_up_reaches_the_waiting_streams_of_its_queue_only() {
        let (a, b) = (notifier("wake-test:a"), notifier("wake-test:b"));
        let (woken_a, woken_b) = (a.notified(), b.notified());
        tokio::pin!(woken_a, woken_b);
        woken_a.as_mut().enable();
        woken_b.as_mut().enable();
        wake_local("wake-test:a");
        tokio::time::timeout(Duration::from_secs(1), woken_a).await.expect("queue a woken");
        assert!(tokio::time::timeout(Duration::from_millis(50), woken_b).await.is_err(), "queue b left alone");
        // a queue without streams in this process: nothing to wake, no timer
        wake_local("wake-test:none");
        wake_local_at("wake-test:none", Duration::from_millis(1));
        assert!(!LOCAL.lock().unwrap().contains_key("wake-test:none"));
    }
}
