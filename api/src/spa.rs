//! Serving the built SPA (`web/dist`) with history fallback.

use std::path::Path;

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse};
use axum::routing::any;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::error::ApiError;
use crate::state::AppState;

/// Unknown `/api/...` paths answer a JSON 404 instead of the SPA's page.
pub fn api_not_found() -> Router<AppState> {
    Router::new().route("/api/{*rest}", any(|| async { ApiError::NotFound }))
}

/// Static files from `dist`; any other path gets `index.html` so the SPA's router can take it.
/// Hashed assets are cached for a year, `index.html` never.
pub fn router(dist: &Path) -> Router<AppState> {
    let index = dist.join("index.html");
    if !index.is_file() {
        tracing::warn!(folder = %dist.display(), "the SPA is not built; run `make run` or `npm run build` in web/");
        return Router::new().fallback(|| async {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Html(
                    "<!doctype html><html lang=\"nl\"><meta charset=\"utf-8\"><title>Spreekkamer</title>\
                      <p>De webapp is nog niet gebouwd. Start Spreekkamer met <code>make run</code>.</p></html>",
                ),
            )
                .into_response()
        });
    }
    let assets = Router::new()
        .nest_service("/assets", ServeDir::new(dist.join("assets")))
        .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable")));
    let pages = ServeDir::new(dist).append_index_html_on_directories(true).fallback(ServeFile::new(index));
    let pages = Router::new()
        .fallback_service(pages)
        .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static("no-cache")));
    assets.merge(pages)
}
