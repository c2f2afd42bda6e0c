//! Security headers on every answer.
//!
//! - `Content-Security-Policy` on HTML pages: the SPA's scripts, styles, fonts and images come
//!   from this origin only (Vite writes no inline script or style; React's `style` props are set
//!   through the DOM, which CSP does not govern); it talks to this origin, its websocket and the
//!   sign-in issuer; forms go to this origin and to the record system's hand-off origins; nobody
//!   may frame it. The development issuer's pages allow their one inline stylesheet by hash and
//!   may send the browser back to the issuer's redirect origins. The api's JSON answers get
//!   `default-src 'none'`; scripts, the issuer's JSON and PDFs get none (a policy on those stopped
//!   the agreement screen's silent renew in Chromium; PDF viewers need none).
//! - `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
//!   `Referrer-Policy: strict-origin-when-cross-origin` (a hand-off page's address holds its id:
//!   other origins see only our origin; `no-referrer` would also make browsers send
//!   `Origin: null` with the hand-off's form post).
//! - `Cache-Control: no-store` on every `/api/...` answer (medical data) and on the issuer's.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use url::Url;

use crate::config::Config;

/// The policies, built once from the configuration.
#[derive(Debug, Clone)]
pub struct Policies {
    spa: HeaderValue,
    issuer_pages: HeaderValue,
    other: HeaderValue,
}

fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

fn websocket_origin(url: &Url) -> Option<String> {
    let scheme = match url.scheme() {
        "https" => "wss",
        "http" => "ws",
        _ => return None,
    };
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

fn join_unique(items: impl IntoIterator<Item = String>) -> String {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out.join(" ")
}

impl Policies {
    pub fn new(config: &Config) -> Self {
        let public = origin(&config.public_url);
        let connect = join_unique(
            ["'self'".to_owned(), public.clone()]
                .into_iter()
                .chain(websocket_origin(&config.public_url))
                .chain([origin(&config.auth.issuer)]),
        );
        let form = join_unique(["'self'".to_owned(), public].into_iter().chain(config.record_system.redirect_origins.iter().map(origin)));
        let spa = format!(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; \
             connect-src {connect}; media-src 'self' blob:; worker-src 'self'; frame-src 'none'; object-src 'none'; \
             base-uri 'self'; form-action {form}; frame-ancestors 'none'"
        );
        #[cfg(feature = "dev-oidc")]
        let issuer_pages = {
            let back = config.dev_oidc.iter().flat_map(|d| d.redirect_origins.iter().map(origin));
            format!(
                "default-src 'none'; style-src {}; img-src data:; base-uri 'none'; form-action {}; frame-ancestors 'none'",
                crate::dev_oidc::style_source(),
                join_unique(["'self'".to_owned()].into_iter().chain(back))
            )
        };
        #[cfg(not(feature = "dev-oidc"))]
        let issuer_pages = "default-src 'none'; frame-ancestors 'none'".to_owned();
        let value = |s: String| HeaderValue::from_str(&s).expect("a CSP is ASCII");
        Self {
            spa: value(spa),
            issuer_pages: value(issuer_pages),
            other: HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
        }
    }

    fn for_answer(&self, path: &str, headers: &HeaderMap) -> Option<&HeaderValue> {
        let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if content_type.starts_with("application/pdf") {
            None
        } else if !content_type.starts_with("text/html") {
            // JSON from the api; the SPA's scripts and the issuer's answers get none (a policy on
            // them stopped the agreement screen's silent renew in Chromium)
            (path.starts_with("/api/") || path.starts_with("/payment/")).then_some(&self.other)
        } else if path.starts_with("/oidc/") {
            Some(&self.issuer_pages)
        } else {
            Some(&self.spa)
        }
    }
}

pub async fn security_headers(State(policies): State<Arc<Policies>>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    if let Some(csp) = policies.for_answer(&path, response.headers()).cloned() {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    if path.starts_with("/api/") || path == "/api" || path.starts_with("/oidc/") || path.starts_with("/payment/") {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}
