//! Groups concurrent requests into one database statement.
//!
//! Requests queue on a channel; one task takes whatever has queued up (up to `max`) and runs it
//! as one batch, with up to [`IN_FLIGHT`] batches running at once. An idle system runs each
//! request alone at once, a busy one gets larger batches by itself: no timer, no added latency.
//!
//! One request that the database refuses must not take the others down with it: a batch that
//! fails is run again one request at a time, so only the refused one gets the error. A batch
//! that panics answers its requests with an error and the task goes on.

use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::FutureExt;

use tokio::sync::{Semaphore, mpsc, oneshot};

/// Times the batching task steps aside before it writes a batch.
const YIELDS: usize = 4;

/// Statements of one batcher running at once: while one is written, the next batch collects and
/// goes out on a second connection (the drain's attempts wait on these statements, not on CPU).
const IN_FLIGHT: usize = 2;

type Request<Req, Resp> = (Req, oneshot::Sender<Result<Resp, String>>);

pub struct Batcher<Req, Resp> {
    tx: mpsc::UnboundedSender<Request<Req, Resp>>,
}

impl<Req, Resp> Clone for Batcher<Req, Resp> {
    fn clone(&self) -> Self {
        Self { tx: self.tx.clone() }
    }
}

impl<Req: Clone + Send + 'static, Resp: Send + 'static> Batcher<Req, Resp> {
    /// `run` answers a batch with one response per request, in order, or fails the whole batch.
    pub fn spawn<F, Fut>(max: usize, run: F) -> Self
    where
        F: Fn(Vec<Req>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<Resp>, String>> + Send,
    {
        let (tx, mut rx) = mpsc::unbounded_channel::<Request<Req, Resp>>();
        let run = std::sync::Arc::new(run);
        let statements = std::sync::Arc::new(Semaphore::new(IN_FLIGHT));
        tokio::spawn(async move {
            let mut waiting = Vec::with_capacity(max);
            loop {
                // a statement's turn first, then whatever has queued up meanwhile
                let Ok(turn) = statements.clone().acquire_owned().await else { return };
                if rx.recv_many(&mut waiting, max).await == 0 {
                    return;
                }
                // Let the tasks that are ready run first: under load they add their requests to
                // this batch (a statement per row costs several times a row of a larger one);
                // on an idle runtime a yield returns at once.
                for _ in 0..YIELDS {
                    if waiting.len() >= max {
                        break;
                    }
                    tokio::task::yield_now().await;
                    while waiting.len() < max
                        && let Ok(request) = rx.try_recv()
                    {
                        waiting.push(request);
                    }
                }
                let batch = std::mem::replace(&mut waiting, Vec::with_capacity(max));
                let run = run.clone();
                tokio::spawn(async move {
                    answer(&*run, batch).await;
                    drop(turn);
                });
            }
        });
        Self { tx }
    }

    /// Sends a request and waits for its answer.
    pub async fn call(&self, request: Req) -> Result<Resp, String> {
        let (reply, answer) = oneshot::channel();
        self.tx.send((request, reply)).map_err(|_| "the batcher stopped".to_owned())?;
        answer.await.map_err(|_| "the batcher stopped".to_owned())?
    }
}

/// Runs a batch and answers its requests: one by one should the batch be refused, so only the
/// refused request gets the error.
async fn answer<Req, Resp, F, Fut>(run: &F, batch: Vec<Request<Req, Resp>>)
where
    Req: Clone,
    F: Fn(Vec<Req>) -> Fut,
    Fut: Future<Output = Result<Vec<Resp>, String>>,
{
    let (requests, replies): (Vec<Req>, Vec<_>) = batch.into_iter().unzip();
    let alone = if requests.len() > 1 { Some(requests.clone()) } else { None };
    match guarded(run, requests).await {
        Ok(responses) if responses.len() == replies.len() => {
            for (reply, response) in replies.into_iter().zip(responses) {
                let _ = reply.send(Ok(response));
            }
        }
        Ok(_) => {
            for reply in replies {
                let _ = reply.send(Err("the batch answered a different number of requests".to_owned()));
            }
        }
        Err(e) => match alone {
            // some request in it was refused: find out which, one at a time
            Some(requests) => {
                tracing::warn!(error = %e, size = requests.len(), "batch refused; writing its requests one by one");
                for (request, reply) in requests.into_iter().zip(replies) {
                    let answer = guarded(run, vec![request]).await.and_then(|mut r| r.pop().ok_or_else(|| "no answer".to_owned()));
                    let _ = reply.send(answer);
                }
            }
            None => {
                for reply in replies {
                    let _ = reply.send(Err(e.clone()));
                }
            }
        },
    }
}

/// Runs a batch with its panic turned into an error, so the batcher outlives it.
async fn guarded<Req, Resp, F, Fut>(run: &F, requests: Vec<Req>) -> Result<Vec<Resp>, String>
where
    F: Fn(Vec<Req>) -> Fut,
    Fut: Future<Output = Result<Vec<Resp>, String>>,
{
    match AssertUnwindSafe(run(requests)).catch_unwind().await {
        Ok(result) => result,
        Err(_) => Err("the batch statement panicked".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_refused_request_fails_alone_and_the_others_in_its_batch_succeed() {
        // refuses any batch that holds 0; panics on 13
        let batcher = Batcher::spawn(64, |xs: Vec<u32>| async move {
            assert!(!xs.contains(&13), "unlucky");
            if xs.contains(&0) { Err("zero refused".to_owned()) } else { Ok(xs.into_iter().map(|x| x * 2).collect()) }
        });
        let calls = (0..20u32).map(|x| {
            let b = batcher.clone();
            async move { b.call(x).await }
        });
        let answers = futures::future::join_all(calls).await;
        assert_eq!(answers[0], Err("zero refused".to_owned()));
        assert_eq!(answers[13], Err("the batch statement panicked".to_owned()));
        for (x, answer) in answers.iter().enumerate().filter(|(x, _)| *x != 0 && *x != 13) {
            assert_eq!(answer, &Ok(x as u32 * 2));
        }
        // the batcher lives on
        assert_eq!(batcher.call(4).await, Ok(8));
    }
}
