//! The framework's refusals as the Dutch `{error, message}` JSON.
//!
//! The extractors in [`crate::extract`] map their rejections here with the detail they know (which
//! field is missing or of the wrong type, by its JSON name); [`json_errors`] catches whatever
//! still answers in plain text (the router's 405, a `Bytes` body over its limit, a websocket
//! upgrade refused) and answers the same JSON by status. No Rust type name reaches a client.

use axum::extract::Request;
use axum::extract::rejection::{
    BytesRejection, FailedToBufferBody, FormRejection, JsonRejection, PathRejection, QueryRejection, StringRejection,
};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::guard::{BodyRefused, body_refusal, find_in_chain};
use super::{Refusal, refusal};
use crate::error::ApiError;

/// Whether a field (in a JSON body) or a parameter (in the query string) is meant.
#[derive(Debug, Clone, Copy)]
pub enum Place {
    Body,
    Query,
}

/// A Dutch message for a serde error at `path` (`episodes[0].plan`, `.` for the whole value).
/// serde's messages are English and may name Rust types; only field names and allowed values
/// (both as the client writes them) are kept.
pub fn shape_message(place: Place, path: &str, serde_message: &str) -> String {
    let path = path.trim_start_matches('.');
    let quoted = |s: &str| -> Vec<String> { s.split('`').skip(1).step_by(2).map(str::to_owned).collect() };
    let join = |name: &str| {
        if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") }
    };
    let noun = match place {
        Place::Body => "Het veld",
        Place::Query => "De parameter",
    };
    if let Some(rest) = serde_message.strip_prefix("missing field ") {
        let name = quoted(rest).into_iter().next().unwrap_or_default();
        return format!("{noun} '{}' ontbreekt.", join(&name));
    }
    if let Some(rest) = serde_message.strip_prefix("unknown field ") {
        let name = quoted(rest).into_iter().next().unwrap_or_default();
        return format!("{noun} '{}' is onbekend.", join(&name));
    }
    if path.is_empty() {
        return match place {
            Place::Body => "De aanvraag heeft niet de verwachte vorm.".to_owned(),
            Place::Query => "De parameters in het adres kloppen niet.".to_owned(),
        };
    }
    if let Some(rest) = serde_message.strip_prefix("unknown variant ") {
        let allowed = quoted(rest).into_iter().skip(1).collect::<Vec<_>>();
        if !allowed.is_empty() {
            return format!("{noun} '{path}' heeft een onbekende waarde; toegestaan: {}.", allowed.join(", "));
        }
        return format!("{noun} '{path}' heeft een onbekende waarde.");
    }
    if serde_message.starts_with("invalid type") {
        return format!("{noun} '{path}' heeft het verkeerde type.");
    }
    format!("{noun} '{path}' heeft een ongeldige waarde.")
}

fn unprocessable(message: String) -> ApiError {
    ApiError::Refused { status: StatusCode::UNPROCESSABLE_ENTITY, code: "invalid_body", message }
}

fn from_buffer_error(error: &FailedToBufferBody) -> ApiError {
    match body_refusal(error) {
        Some(BodyRefused::Nul) => refusal(Refusal::Nul),
        Some(BodyRefused::TooSlow(_)) => refusal(Refusal::BodyTimeout),
        None if matches!(error, FailedToBufferBody::LengthLimitError(_)) => refusal(Refusal::TooLarge),
        None => refusal(Refusal::BodyUnreadable),
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => refusal(Refusal::MediaType),
            JsonRejection::JsonSyntaxError(_) => refusal(Refusal::JsonSyntax),
            JsonRejection::JsonDataError(e) => match find_in_chain::<serde_path_to_error::Error<serde_json::Error>>(&e) {
                Some(detail) => unprocessable(shape_message(Place::Body, &detail.path().to_string(), &detail.inner().to_string())),
                None => unprocessable(shape_message(Place::Body, "", "")),
            },
            JsonRejection::BytesRejection(BytesRejection::FailedToBufferBody(e)) => from_buffer_error(&e),
            _ => refusal(Refusal::BodyUnreadable),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        let message = match &rejection {
            QueryRejection::FailedToDeserializeQueryString(e) => {
                find_in_chain::<serde_path_to_error::Error<serde_urlencoded::de::Error>>(e)
                    .map(|d| shape_message(Place::Query, &d.path().to_string(), &d.inner().to_string()))
            }
            _ => None,
        };
        ApiError::BadRequest {
            code: "invalid_query",
            message: message.unwrap_or_else(|| "De parameters in het adres kloppen niet.".to_owned()),
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        match rejection {
            PathRejection::FailedToDeserializePathParams(_) => {
                ApiError::BadRequest { code: "invalid_path", message: "Het adres bevat een ongeldige waarde.".to_owned() }
            }
            other => ApiError::Internal(anyhow::anyhow!("path parameters: {other}")),
        }
    }
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        match rejection {
            BytesRejection::FailedToBufferBody(e) => from_buffer_error(&e),
            _ => refusal(Refusal::BodyUnreadable),
        }
    }
}

impl From<StringRejection> for ApiError {
    fn from(rejection: StringRejection) -> Self {
        match rejection {
            StringRejection::FailedToBufferBody(e) => from_buffer_error(&e),
            StringRejection::InvalidUtf8(_) => {
                ApiError::BadRequest { code: "invalid_body", message: "De aanvraag is geen geldige UTF-8-tekst.".to_owned() }
            }
            _ => refusal(Refusal::BodyUnreadable),
        }
    }
}

impl From<FormRejection> for ApiError {
    fn from(rejection: FormRejection) -> Self {
        match rejection {
            FormRejection::InvalidFormContentType(_) => ApiError::Refused {
                status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
                code: "unsupported_media_type",
                message: "De aanvraag heeft een verkeerd type; stuur een formulier (application/x-www-form-urlencoded).".to_owned(),
            },
            FormRejection::BytesRejection(BytesRejection::FailedToBufferBody(e)) => from_buffer_error(&e),
            _ => ApiError::BadRequest { code: "invalid_form", message: "Het formulier klopt niet.".to_owned() },
        }
    }
}

/// Headers of a plain-text refusal that the JSON answer keeps.
const KEPT: [header::HeaderName; 5] =
    [header::ALLOW, header::WWW_AUTHENTICATE, header::RETRY_AFTER, header::CONNECTION, header::SEC_WEBSOCKET_VERSION];

fn is_plain(headers: &HeaderMap) -> bool {
    match headers.get(header::CONTENT_TYPE) {
        None => true,
        Some(value) => value.to_str().unwrap_or_default().starts_with("text/plain"),
    }
}

/// The Dutch answer for an error status that reached the edge in plain text.
fn by_status(status: StatusCode) -> ApiError {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => refusal(Refusal::MethodNotAllowed),
        StatusCode::PAYLOAD_TOO_LARGE => refusal(Refusal::TooLarge),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => refusal(Refusal::MediaType),
        StatusCode::REQUEST_TIMEOUT => refusal(Refusal::BodyTimeout),
        StatusCode::NOT_FOUND => ApiError::NotFound,
        StatusCode::FORBIDDEN => ApiError::Forbidden,
        StatusCode::UNAUTHORIZED => {
            ApiError::Refused { status, code: "unauthorized", message: crate::error::UNAUTHORIZED_MESSAGE.to_owned() }
        }
        StatusCode::UNPROCESSABLE_ENTITY => unprocessable("De gegevens in de aanvraag kloppen niet.".to_owned()),
        StatusCode::UPGRADE_REQUIRED => {
            ApiError::Refused { status, code: "upgrade_required", message: "Dit adres is alleen bereikbaar via een websocket.".to_owned() }
        }
        s if s.is_server_error() => ApiError::Internal(anyhow::anyhow!("a plain-text {s} answer")),
        s => ApiError::Refused { status: s, code: "bad_request", message: "De aanvraag is ongeldig.".to_owned() },
    }
}

/// Turns every error answered in plain text (or with no body type) into the Dutch JSON.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || !is_plain(response.headers()) {
        return response;
    }
    let mut answer = by_status(status).into_response();
    for name in KEPT {
        if let Some(value) = response.headers().get(&name) {
            answer.headers_mut().insert(name, value.clone());
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_become_dutch_without_type_names() {
        assert_eq!(shape_message(Place::Body, ".", "missing field `text` at line 1 column 2"), "Het veld 'text' ontbreekt.");
        assert_eq!(shape_message(Place::Body, "episodes[0]", "missing field `plan`"), "Het veld 'episodes[0].plan' ontbreekt.");
        assert_eq!(
            shape_message(Place::Body, "episodeCount", "invalid type: string \"drie\", expected u8 at line 1 column 20"),
            "Het veld 'episodeCount' heeft het verkeerde type."
        );
        assert_eq!(
            shape_message(Place::Query, "flavour", "unknown variant `x`, expected one of `GP`, `SPECIALIST`"),
            "De parameter 'flavour' heeft een onbekende waarde; toegestaan: GP, SPECIALIST."
        );
        assert_eq!(
            shape_message(Place::Body, ".", "invalid type: integer `3`, expected struct ConsultInput"),
            "De aanvraag heeft niet de verwachte vorm."
        );
        assert_eq!(shape_message(Place::Query, "rows", "invalid digit found in string"), "De parameter 'rows' heeft een ongeldige waarde.");
    }
}
