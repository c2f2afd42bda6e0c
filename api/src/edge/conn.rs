//! Serving connections (HTTP/1.1, with upgrades for the live consult's websocket) with bounds:
//!
//! - idle: a connection waiting for a request (a new one, or a kept-alive one after its last
//!   answer) is closed after `APP_HTTP_IDLE_TIMEOUT` (hyper's head timer, which starts whenever
//!   the connection waits for a request);
//! - header: once the first byte of a request head has arrived, the whole head must follow within
//!   `APP_HTTP_HEADER_TIMEOUT`, so a client that sends half a head and waits is dropped;
//! - body: see [`super::guard`] (`APP_HTTP_BODY_TIMEOUT`, longer for recording uploads);
//! - a connection upgraded to a websocket is left alone: the socket has its own keep-alive;
//! - the answers hyper writes itself, before any handler runs (414 for a request line over its
//!   64 KiB, 431 for a head over its buffer, 400 for a head it cannot parse), have no body: they
//!   are rewritten on their way out to the api's Dutch `{error, message}` JSON with the edge's
//!   headers ([`automatic_answer`]).
//!
//! Each request carries the peer's address as `ConnectInfo<SocketAddr>`.
//!
//! The socket listens with a queue of [`BACKLOG`] connections waiting to be accepted ([`listen`]),
//! not the 128 of `TcpListener::bind`: a burst of new connections (a thousand payment webhooks
//! at once) overflowed 128, and every connection the kernel dropped waited a second for its
//! client to try again.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;
use tower::ServiceExt;

use super::HttpConfig;

/// Connections the kernel keeps waiting for the api to accept; Linux caps it at
/// `net.core.somaxconn` (4096 by default since Linux 5.4).
pub const BACKLOG: u32 = 4096;

/// A socket listening on `addr` with a queue of [`BACKLOG`] connections.
pub fn listen(addr: std::net::SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    // as `TcpListener::bind`: a restarted api takes its port back at once
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// What the connection and its requests share.
#[derive(Default)]
struct ConnState {
    /// A request's head has been read and its answer is not finished.
    in_request: AtomicBool,
    /// The connection is a websocket now.
    upgraded: AtomicBool,
}

/// The socket, watching the time from a head's first byte to the head's end.
struct Watched {
    inner: TcpStream,
    state: Arc<ConnState>,
    header_timeout: Duration,
    /// Running from the first byte of a request head until the request starts.
    head_deadline: Option<Pin<Box<Sleep>>>,
    /// An answer of hyper's own being sent as JSON instead: its bytes, how many are sent, and
    /// how many of hyper's bytes it stands for.
    rewritten: Option<(Vec<u8>, usize, usize)>,
}

impl Watched {
    /// Whether hyper, not a handler, is answering: no request is in progress and the connection
    /// is not a websocket.
    fn between_requests(&self) -> bool {
        !self.state.in_request.load(Ordering::SeqCst) && !self.state.upgraded.load(Ordering::SeqCst)
    }

    /// Sends the rewritten answer; done, it reports hyper's bytes as written.
    fn poll_rewritten(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let Some((bytes, sent, stands_for)) = self.rewritten.as_mut() else { return Poll::Ready(Ok(0)) };
        while *sent < bytes.len() {
            let n = std::task::ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *sent += n;
        }
        let stands_for = *stands_for;
        self.rewritten = None;
        Poll::Ready(Ok(stands_for))
    }
}

/// The JSON answer for an answer hyper wrote itself: a response head alone (no body), without a
/// content type, of status 400, 414 or 431. The api's own answers of those statuses always carry
/// a JSON body (`edge::reject::json_errors`), and are written while their request is in progress.
pub fn automatic_answer(written: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(written).ok()?;
    let head = text.strip_suffix("\r\n\r\n").filter(|h| !h.contains("\r\n\r\n"))?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.strip_prefix("HTTP/1.1 ").and_then(|rest| rest.get(..3))?;
    let kind = match status {
        "400" => super::Refusal::Malformed,
        "414" => super::Refusal::UriTooLong,
        "431" => super::Refusal::HeadersTooLarge,
        _ => return None,
    };
    if lines.any(|line| line.to_ascii_lowercase().starts_with("content-type:")) {
        return None;
    }
    let crate::error::ApiError::Refused { status, code, message } = super::refusal(kind) else { return None };
    let body = serde_json::to_vec(&crate::error::ErrorBody { error: code, message }).ok()?;
    let mut answer = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\
         content-security-policy: default-src 'none'; frame-ancestors 'none'\r\nx-content-type-options: nosniff\r\n\
         x-frame-options: DENY\r\nreferrer-policy: strict-origin-when-cross-origin\r\ncache-control: no-store\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    Some(answer)
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let between_requests = !this.state.in_request.load(Ordering::SeqCst) && !this.state.upgraded.load(Ordering::SeqCst);
        if !between_requests {
            this.head_deadline = None;
        } else if let Some(deadline) = this.head_deadline.as_mut()
            && deadline.as_mut().poll(cx).is_ready()
        {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "request head not complete in time")));
        }
        let before = buf.filled().len();
        let read = Pin::new(&mut this.inner).poll_read(cx, buf);
        if between_requests && this.head_deadline.is_none() && matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            let mut deadline = Box::pin(tokio::time::sleep(this.header_timeout));
            // registers the waker, so the deadline wakes a connection waiting for the rest
            let _ = deadline.as_mut().poll(cx);
            this.head_deadline = Some(deadline);
        }
        read
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.rewritten.is_none()
            && this.between_requests()
            && let Some(answer) = automatic_answer(buf)
        {
            this.rewritten = Some((answer, 0, buf.len()));
        }
        if this.rewritten.is_some() {
            return this.poll_rewritten(cx);
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[io::IoSlice<'_>]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let total: usize = bufs.iter().map(|b| b.len()).sum();
        // an answer of hyper's own is a short head alone
        if this.rewritten.is_none()
            && total <= 1024
            && this.between_requests()
            && let Some(answer) = automatic_answer(&bufs.iter().flat_map(|b| b.iter().copied()).collect::<Vec<u8>>())
        {
            this.rewritten = Some((answer, 0, total));
        }
        if this.rewritten.is_some() {
            return this.poll_rewritten(cx);
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// An answer's body that marks the end of its request when it is done or dropped.
struct EndsRequest {
    inner: Body,
    state: Arc<ConnState>,
}

impl Drop for EndsRequest {
    fn drop(&mut self) {
        self.state.in_request.store(false, Ordering::SeqCst);
    }
}

impl http_body::Body for EndsRequest {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    http: HttpConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    // every connection holds a receiver; once they are all gone, every connection has ended
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // out of file descriptors and the like: wait instead of spinning
                    tracing::warn!(error = %e, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let state = Arc::new(ConnState::default());
        let io = Watched { inner: stream, state: state.clone(), header_timeout: http.header_timeout, head_deadline: None, rewritten: None };
        let app = app.clone();
        let service = hyper::service::service_fn(move |request: Request<Incoming>| {
            let (app, state) = (app.clone(), state.clone());
            async move {
                state.in_request.store(true, Ordering::SeqCst);
                let mut request = request.map(Body::new);
                request.extensions_mut().insert(ConnectInfo(peer));
                let response: Response<Body> = app.oneshot(request).await.unwrap_or_else(|never| match never {});
                if response.status() == StatusCode::SWITCHING_PROTOCOLS {
                    state.upgraded.store(true, Ordering::SeqCst);
                }
                Ok::<_, std::convert::Infallible>(response.map(|inner| Body::new(EndsRequest { inner, state })))
            }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(http.idle_timeout)
            .keep_alive(true)
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades();
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                _ = async { let _ = stop.wait_for(|s| *s).await; } => {
                    // answers the request in progress, then closes
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = ended {
                tracing::debug!(error = %e, %peer, "connection ended with an error");
            }
            drop(stop);
        });
    }
    drop(listener);
    drop(stop_rx);
    let _ = stop_tx.send(true);
    stop_tx.closed().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With nothing accepted, the queue holds 600 connections: each is made in the kernel at once.
    /// With `TcpListener::bind`'s 128, the 130th connection's SYN is dropped and its client waits
    /// a second before it tries again, which the 900 ms bound of each connection catches.
    #[tokio::test]
    async fn the_listening_queue_holds_a_burst_of_connections() {
        let listener = listen("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        let mut held = Vec::new();
        for n in 0..600 {
            let made = tokio::time::timeout(Duration::from_millis(900), TcpStream::connect(addr)).await;
            held.push(made.unwrap_or_else(|_| panic!("connection {n} was not made at once")).unwrap());
        }
        drop(listener);
    }

    #[test]
    fn hypers_own_bodiless_answers_become_json_and_the_apis_own_pass() {
        let hyper = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n";
        let answer = String::from_utf8(automatic_answer(hyper).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\n"), "{answer}");
        assert!(answer.ends_with(r#"{"error":"uri_too_long","message":"Het adres van de aanvraag is te lang."}"#), "{answer}");
        assert!(automatic_answer(b"HTTP/1.1 431 Request Header Fields Too Large\r\n\r\n").is_some());
        assert!(automatic_answer(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").is_some());
        // the api's own answers: a content type, a body, or another status
        assert!(automatic_answer(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n").is_none());
        assert!(automatic_answer(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}").is_none());
        assert!(automatic_answer(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(automatic_answer(b"{\"error\":\"x\"}").is_none());
    }
}
