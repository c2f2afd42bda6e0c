//! Groups concurrent requests into one database statement.
//!
//! Requests queue on a channel; one task takes whatever has queued up (up to `max`) and runs it
//! as one batch. An idle system runs each request alone at once, a busy one gets larger batches
//! by itself: no timer, no added latency.

use std::future::Future;

use tokio::sync::{mpsc, oneshot};

type Request<Req, Resp> = (Req, oneshot::Sender<Result<Resp, String>>);

pub struct Batcher<Req, Resp> {
    tx: mpsc::UnboundedSender<Request<Req, Resp>>,
}

impl<Req, Resp> Clone for Batcher<Req, Resp> {
    fn clone(&self) -> Self {
        Self { tx: self.tx.clone() }
    }
}

impl<Req: Send + 'static, Resp: Send + 'static> Batcher<Req, Resp> {
    /// `run` answers a batch with one response per request, in order, or fails the whole batch.
    pub fn spawn<F, Fut>(max: usize, run: F) -> Self
    where
        F: Fn(Vec<Req>) -> Fut + Send + 'static,
        Fut: Future<Output = Result<Vec<Resp>, String>> + Send,
    {
        let (tx, mut rx) = mpsc::unbounded_channel::<Request<Req, Resp>>();
        tokio::spawn(async move {
            let mut waiting = Vec::with_capacity(max);
            while rx.recv_many(&mut waiting, max).await > 0 {
                let (requests, replies): (Vec<Req>, Vec<_>) = waiting.drain(..).unzip();
                match run(requests).await {
                    Ok(responses) => {
                        for (reply, response) in replies.into_iter().zip(responses) {
                            let _ = reply.send(Ok(response));
                        }
                    }
                    Err(e) => {
                        for reply in replies {
                            let _ = reply.send(Err(e.clone()));
                        }
                    }
                }
            }
        });
        Self { tx }
    }

    pub async fn call(&self, request: Req) -> Result<Resp, String> {
        let (reply, answer) = oneshot::channel();
        self.tx.send((request, reply)).map_err(|_| "the batcher stopped".to_owned())?;
        answer.await.map_err(|_| "the batcher stopped".to_owned())?
    }
}
