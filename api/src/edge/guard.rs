//! The request guard: refuses a NUL in the path or query string, and watches the body as a
//! handler reads it, for a NUL (in text and JSON bodies) and for a client that sends it too slowly.
//!
//! The body is scanned as it streams through, chunk by chunk, so nothing is buffered or parsed
//! twice; the extractor that reads it (`Json`, `Bytes`, `Form`) applies its own size bound and
//! fails on the guard's error, and the guard then answers for the whole request.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use tokio::time::Sleep;

use super::nul::{Grammar, Scanner, uri_part_has_nul};
use super::{Refusal, refusal};
use crate::state::AppState;

/// Whether a request's path is the recording upload, whose body is audio (never scanned, and
/// given the longer body bound).
pub fn is_recording_upload(method: &Method, path: &str) -> bool {
    method == Method::POST
        && path
            .strip_prefix("/api/consult/audio/session/")
            .and_then(|rest| rest.strip_suffix("/recording"))
            .is_some_and(|id| !id.contains('/'))
}

/// What a body's content type says about scanning it for a NUL: binary uploads (audio, octet
/// streams, multipart forms, images) are not scanned; everything else is text of some kind.
fn grammar_of(content_type: Option<&HeaderValue>) -> Option<Grammar> {
    let Some(value) = content_type else {
        return Some(Grammar::Text);
    };
    let essence = value.to_str().unwrap_or_default().split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let binary =
        essence == "application/octet-stream" || ["audio/", "video/", "image/", "multipart/"].iter().any(|p| essence.starts_with(p));
    if binary {
        None
    } else if essence == "application/json" || essence.ends_with("+json") {
        Some(Grammar::Json)
    } else if essence == "application/x-www-form-urlencoded" {
        Some(Grammar::Form)
    } else {
        Some(Grammar::Text)
    }
}

pub async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let uri = request.uri();
    if uri_part_has_nul(uri.path()) || uri.query().is_some_and(uri_part_has_nul) {
        return refusal(Refusal::Nul).into_response();
    }
    let http = &state.config.http;
    let recording = is_recording_upload(request.method(), uri.path());
    let scanner = if recording { None } else { grammar_of(request.headers().get(header::CONTENT_TYPE)).map(Scanner::new) };
    let bound = if recording { http.upload_body_timeout } else { http.body_timeout };
    let verdict = Arc::new(AtomicU8::new(FINE));
    let (parts, body) = request.into_parts();
    let body =
        Body::new(GuardedBody { inner: body, scanner, deadline: Box::pin(tokio::time::sleep(bound)), bound, verdict: verdict.clone() });
    let response = next.run(Request::from_parts(parts, body)).await;
    match verdict.load(Ordering::SeqCst) {
        NUL => refusal(Refusal::Nul).into_response(),
        TOO_SLOW => {
            let mut response = refusal(Refusal::BodyTimeout).into_response();
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
        _ => response,
    }
}

const FINE: u8 = 0;
const NUL: u8 = 1;
const TOO_SLOW: u8 = 2;

/// The error a guarded body fails with; the extractors' rejections carry it as their source.
#[derive(Debug, thiserror::Error)]
pub enum BodyRefused {
    #[error("the body holds a NUL character")]
    Nul,
    #[error("the body did not arrive within {0:?}")]
    TooSlow(Duration),
}

struct GuardedBody {
    inner: Body,
    scanner: Option<Scanner>,
    deadline: Pin<Box<Sleep>>,
    bound: Duration,
    verdict: Arc<AtomicU8>,
}

impl http_body::Body for GuardedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        if this.deadline.as_mut().poll(cx).is_ready() {
            this.verdict.store(TOO_SLOW, Ordering::SeqCst);
            return Poll::Ready(Some(Err(axum::Error::new(BodyRefused::TooSlow(this.bound)))));
        }
        let frame = std::task::ready!(Pin::new(&mut this.inner).poll_frame(cx));
        if let (Some(Ok(frame)), Some(scanner)) = (&frame, this.scanner.as_mut())
            && let Some(data) = frame.data_ref()
            && scanner.feed(data)
        {
            this.verdict.store(NUL, Ordering::SeqCst);
            return Poll::Ready(Some(Err(axum::Error::new(BodyRefused::Nul))));
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The first error of type `T` in a chain of error sources.
pub fn find_in_chain<'a, T: std::error::Error + 'static>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a T> {
    let mut current = Some(error);
    while let Some(e) = current {
        if let Some(found) = e.downcast_ref::<T>() {
            return Some(found);
        }
        current = e.source();
    }
    None
}

/// The guard's error in a chain of error sources (an extractor's rejection), if there is one.
pub fn body_refusal<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a BodyRefused> {
    find_in_chain::<BodyRefused>(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_recording_upload_is_taken_for_one() {
        assert!(is_recording_upload(&Method::POST, "/api/consult/audio/session/01J/recording"));
        assert!(!is_recording_upload(&Method::GET, "/api/consult/audio/session/01J/recording"));
        assert!(!is_recording_upload(&Method::POST, "/api/consult/audio/session/a/b/recording"));
        assert!(!is_recording_upload(&Method::POST, "/api/feedback"));
    }

    #[test]
    fn binary_uploads_are_not_scanned_and_text_is() {
        let of = |v: &'static str| grammar_of(Some(&HeaderValue::from_static(v)));
        assert_eq!(of("application/json; charset=utf-8"), Some(Grammar::Json));
        assert_eq!(of("application/merge-patch+json"), Some(Grammar::Json));
        assert_eq!(of("application/x-www-form-urlencoded"), Some(Grammar::Form));
        assert_eq!(of("text/plain"), Some(Grammar::Text));
        assert_eq!(grammar_of(None), Some(Grammar::Text));
        for binary in ["audio/webm", "application/octet-stream", "multipart/form-data; boundary=x", "image/png"] {
            assert_eq!(of(binary), None, "{binary}");
        }
    }
}
