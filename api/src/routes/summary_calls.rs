//! The summary calls of the spec. Each enqueues the same `summarise_consult` job as the
//! websocket, then keeps the spec's synchronous shape: it waits for the job up to
//! `APP_SUMMARY_WAIT` and answers with a list whose first item is the note, or, when the job is
//! still running then, 202 with the job to poll (`GET /api/jobs/{id}`).
//!
//! Routing (§7 "Summarise routing"): `v1` asks for high precision on the large model; `v2` the
//! medium model; `v2-turbo` the small one; the websocket's `summarize` brings its own template,
//! flavour and model size. Requests without examples get the clinician's saved ones.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use domain::consults::{self, Source};
use integrations::summarise::{Flavour, ModelSize, Precision, SummaryRequest, Template};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};

use crate::auth::CurrentUser;
use crate::auth::gate;
use crate::consult::summaries::{self, Accepted, SummarizeWithExamples, SummaryOptions, Waited};
use crate::edge::limit::{LimitName, Limited};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;
#[allow(unused_imports)] // named by the annotations alone
use domain::summary::ConsultResult;

pub fn router(state: &AppState) -> Router<AppState> {
    let calls = Router::new()
        .route("/api/audio/consult/generative/v1", post(v1))
        .route("/api/audio/consult/generative/v1/withExamples", post(v1_with_examples))
        .route("/api/audio/consult/generative/v2", post(v2))
        .route("/api/audio/consult/generative/v2-turbo", post(v2_turbo))
        .route("/api/electronic/consult/generative", post(electronic))
        .limited(state, LimitName::Summary);
    gate::gated(calls, state)
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SummaryQuery {
    /// Episodes expected, 1 to 10 (default 1).
    #[param(minimum = 1, maximum = 10)]
    pub episode_count: Option<u8>,
    /// The variant of the note; normal when left out or empty.
    #[param(value_type = Option<FlavourParam>)]
    pub flavour: Option<String>,
    /// A hint from the clinician for this summary (at most 1000 characters).
    #[param(max_length = 1000)]
    pub user_suggestion: Option<String>,
}

/// The `flavour` query parameter: empty (normal) or a [`Flavour`] by its name on the wire. The
/// document's list is made from `Flavour` itself, the type `SummaryQuery::flavour` parses.
pub struct FlavourParam;

impl utoipa::PartialSchema for FlavourParam {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let names = Flavour::ALL.iter().filter_map(|f| serde_json::to_value(f).ok()?.as_str().map(str::to_owned));
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("The variant of the note: empty (normal) or a flavour."))
            .enum_values(Some(std::iter::once(String::new()).chain(names)))
            .into()
    }
}

impl ToSchema for FlavourParam {}

/// A transcript sent as the whole body (`text/plain`, or a JSON string): at most 200,000
/// characters, not only white space.
pub struct TranscriptText;

impl utoipa::PartialSchema for TranscriptText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .max_length(Some(domain::summary::MAX_TRANSCRIPT_CHARS))
            .pattern(Some(crate::fields::NOT_BLANK))
            .into()
    }
}

impl ToSchema for TranscriptText {}

impl SummaryQuery {
    fn flavour(&self) -> Result<Flavour, ApiError> {
        match self.flavour.as_deref() {
            None | Some("") => Ok(Flavour::Normal),
            Some(f) => serde_json::from_value(json!(f)).map_err(|_| ApiError::BadRequest {
                code: "invalid_flavour",
                message: "Onbekende variant; kies normal, poh-ggz, kinderarts-allergoloog of kinderarts-orthopeed.".into(),
            }),
        }
    }

    fn options(&self, precision: Precision, model_size: ModelSize) -> Result<SummaryOptions, ApiError> {
        Ok(SummaryOptions {
            template: Template::Soap,
            flavour: self.flavour()?,
            model_size,
            precision,
            episode_count: self.episode_count,
            examples: Vec::new(),
            user_suggestion: self.user_suggestion.clone(),
        })
    }
}

/// The transcript of a text body: plain text, or a JSON string.
fn transcript_of(body: &Bytes) -> Result<String, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::BadRequest { code: "invalid_transcript", message: "Het transcript is geen geldige UTF-8-tekst.".into() })?;
    Ok(match serde_json::from_str::<Value>(text) {
        Ok(Value::String(s)) => s,
        _ => text.to_owned(),
    })
}

/// Starts the summary and answers with the note, or 202 with the job when it takes longer.
async fn summarise(
    state: &AppState,
    user: &CurrentUser,
    consult_id: Option<&str>,
    route: &str,
    request: &SummaryRequest,
) -> Result<Response, ApiError> {
    let mut started = summaries::start(&state.consult, &user.id, consult_id, None, route, request).await?;
    match summaries::wait(&state.consult, &mut started, state.consult.summary_wait).await? {
        Waited::Done(result) => Ok(Json(vec![result]).into_response()),
        Waited::Failed(message) => Err(ApiError::summary_failed(message)),
        Waited::Pending => {
            Ok((StatusCode::ACCEPTED, Json(Accepted { job_id: started.job_id, summary_id: started.summary_id })).into_response())
        }
    }
}

/// A SOEP note from a transcript with high precision (the large model).
#[utoipa::path(post, path = "/api/audio/consult/generative/v1", tag = "summaries", security(("bearer" = [])),
    params(SummaryQuery), request_body(content = TranscriptText, content_type = "text/plain"),
    responses((status = 200, body = Vec<ConsultResult>, description = "a list whose one item is the note"), (status = 202, body = Accepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 502, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn v1(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(q): Query<SummaryQuery>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request = q.options(Precision::High, ModelSize::Large)?.into_typed_request(&transcript_of(&body)?);
    summarise(&state, &user, None, "v1", &request).await
}

/// As v1, with the examples (and the transcript) in a JSON body.
#[utoipa::path(post, path = "/api/audio/consult/generative/v1/withExamples", tag = "summaries", security(("bearer" = [])),
    params(SummaryQuery), request_body = SummarizeWithExamples,
    responses((status = 200, body = Vec<ConsultResult>, description = "a list whose one item is the note"), (status = 202, body = Accepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 502, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn v1_with_examples(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(q): Query<SummaryQuery>,
    Json(body): Json<SummarizeWithExamples>,
) -> Result<Response, ApiError> {
    let SummarizeWithExamples { options: sent, transcript } = body;
    let mut options = q.options(Precision::High, ModelSize::Large)?;
    options.examples = sent.examples;
    options.template = sent.template;
    // an empty `flavour` in the query names none: the body's then counts
    if q.flavour.as_deref().unwrap_or_default().is_empty() {
        options.flavour = sent.flavour;
    }
    options.episode_count = q.episode_count.or(sent.episode_count);
    // the query's hint wins, but the body's is held to the same limit
    domain::summary::check_suggestion(sent.user_suggestion.as_deref())?;
    options.user_suggestion = q.user_suggestion.or(sent.user_suggestion);
    summarise(&state, &user, None, "v1-examples", &options.into_typed_request(&transcript)).await
}

/// A SOEP note from a transcript on the medium model.
#[utoipa::path(post, path = "/api/audio/consult/generative/v2", tag = "summaries", security(("bearer" = [])),
    params(SummaryQuery), request_body(content = TranscriptText, content_type = "text/plain"),
    responses((status = 200, body = Vec<ConsultResult>, description = "a list whose one item is the note"), (status = 202, body = Accepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 502, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn v2(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(q): Query<SummaryQuery>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request = q.options(Precision::Medium, ModelSize::Medium)?.into_typed_request(&transcript_of(&body)?);
    summarise(&state, &user, None, "v2", &request).await
}

/// A SOEP note from a transcript on the small, fast model.
#[utoipa::path(post, path = "/api/audio/consult/generative/v2-turbo", tag = "summaries", security(("bearer" = [])),
    params(SummaryQuery), request_body(content = TranscriptText, content_type = "text/plain"),
    responses((status = 200, body = Vec<ConsultResult>, description = "a list whose one item is the note"), (status = 202, body = Accepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 502, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn v2_turbo(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(q): Query<SummaryQuery>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request = q.options(Precision::Medium, ModelSize::Small)?.into_typed_request(&transcript_of(&body)?);
    summarise(&state, &user, None, "v2-turbo", &request).await
}

/// An e-consult: the patient's written question and the exchange, as JSON.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ElectronicConsult {
    /// The written exchange (the patient's question, the answers): at most 200,000 characters,
    /// not only white space.
    #[schema(max_length = 200000, pattern = "[^\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]")]
    pub text: String,
    /// Episodes expected, 1 to 10 (default 1).
    #[serde(default, deserialize_with = "crate::fields::whole_number")]
    #[schema(minimum = 1, maximum = 10)]
    pub episode_count: Option<u8>,
}

/// A SOEP note of an e-consult; the e-consult is kept as a consult of the user.
#[utoipa::path(post, path = "/api/electronic/consult/generative", tag = "summaries", security(("bearer" = [])),
    request_body = ElectronicConsult,
    responses((status = 200, body = Vec<ConsultResult>, description = "a list whose one item is the note"), (status = 202, body = Accepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 502, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn electronic(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<ElectronicConsult>,
) -> Result<Response, ApiError> {
    let query = SummaryQuery { episode_count: body.episode_count, ..Default::default() };
    let request = query.options(Precision::Medium, ModelSize::Medium)?.into_typed_request(&body.text);
    // refused before the e-consult is kept
    request.check()?;
    let mut conn = state.db.acquire().await?;
    let content = json!({ "kind": "e-consult", "text": body.text });
    let consult = consults::create(&mut conn, &user.id, Source::Electronic, &content, state.consult.config.retention).await?;
    drop(conn);
    summarise(&state, &user, Some(&consult.id), "electronic", &request).await
}
