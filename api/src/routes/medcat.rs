//! Text analysis (`/api/medcat/...`): medicines and problems in a text, medicines on the
//! shortage list; and the staff upload of that list (`/api/cms/medicineShortages`).
//!
//! The finding is `domain::medcat`'s lexicon lookup; positions are UTF-16 code units, as
//! JavaScript strings count them. Negations ("geen koorts") are not detected.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::{DateTime, NaiveDate, Utc};
use domain::medcat::{self, Kind, LineError, MAX_TEXT_CHARS, Shortage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::gate;
use crate::auth::{CurrentUser, Staff};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Json;
use crate::state::AppState;

pub fn router(state: &AppState) -> Router<AppState> {
    let analysis =
        Router::new().route("/api/medcat/medcatify", post(medcatify)).route("/api/medcat/medcatMedicineShortage", post(medicine_shortage));
    Router::new().route("/api/cms/medicineShortages", get(list_shortages).put(upload_shortages)).merge(gate::gated(analysis, state))
}

/// A text to analyse: at most 20,000 characters.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TextRequest {
    #[schema(max_length = 20000)]
    pub text: String,
}

impl TextRequest {
    fn checked(&self) -> Result<&str, ApiError> {
        if self.text.chars().count() > MAX_TEXT_CHARS {
            return Err(ApiError::BadRequest {
                code: "text_too_long",
                message: "De tekst is te lang om te analyseren (hoogstens 20.000 tekens).".into(),
            });
        }
        Ok(&self.text)
    }
}

/// A medicine or problem found in the text. `start` and `end` count UTF-16 code units (as
/// JavaScript strings do), so `text.slice(start, end)` in the SPA is the match; `end` is exclusive.
#[derive(Debug, Serialize, ToSchema)]
pub struct Annotation {
    pub start: usize,
    pub end: usize,
    /// The matched text as written.
    pub text: String,
    /// medication or problem
    #[schema(example = "medication")]
    pub kind: String,
    /// The ATC code of a medicine (`N02BE01`), the ICPC code of a problem (`K86`).
    pub code: String,
    /// The generic name of a medicine, the ICPC title of a problem.
    pub label: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Annotations {
    pub annotations: Vec<Annotation>,
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Medication => "medication",
        Kind::Problem => "problem",
    }
}

/// The medicines (with their ATC code) and problems (with their ICPC code) named in a text, in
/// order and without overlaps: a curated lexicon, case and accents aside, whole words, the longest
/// term first. Negations are not detected.
#[utoipa::path(post, path = "/api/medcat/medcatify", tag = "medcat", security(("bearer" = [])),
    request_body = TextRequest,
    responses((status = 200, body = Annotations), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn medcatify(_user: CurrentUser, Json(input): Json<TextRequest>) -> Result<Json<Annotations>, ApiError> {
    let text = input.checked()?;
    let annotations = medcat::annotate(text)
        .into_iter()
        .map(|a| Annotation { start: a.start, end: a.end, text: a.text, kind: kind_name(a.kind).to_owned(), code: a.code, label: a.label })
        .collect();
    Ok(Json(Annotations { annotations }))
}

/// A medicine of the text that is on the shortage list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShortageFound {
    /// The name as the shortage list gives it.
    pub medicine: String,
    pub atc: Option<String>,
    pub status: String,
    pub since: NaiveDate,
    pub advice: String,
    /// Where the medicine is in the text, in UTF-16 code units.
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShortagesFound {
    pub shortages: Vec<ShortageFound>,
}

/// The medicines of a text that are on the current shortage list: matched by ATC code through
/// the lexicon, and by the list's own name.
#[utoipa::path(post, path = "/api/medcat/medcatMedicineShortage", tag = "medcat", security(("bearer" = [])),
    request_body = TextRequest,
    responses((status = 200, body = ShortagesFound), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn medicine_shortage(
    State(state): State<AppState>,
    _user: CurrentUser,
    Json(input): Json<TextRequest>,
) -> Result<Json<ShortagesFound>, ApiError> {
    let text = input.checked()?;
    let (list, _) = medcat::shortages(&state.db).await?;
    let shortages = medcat::find_shortages(text, &list)
        .into_iter()
        .map(|hit| ShortageFound {
            medicine: hit.entry.name.clone(),
            atc: hit.entry.atc.clone(),
            status: hit.entry.status.clone(),
            since: hit.entry.since,
            advice: hit.entry.advice.clone(),
            start: hit.start,
            end: hit.end,
        })
        .collect();
    Ok(Json(ShortagesFound { shortages }))
}

/// An entry of the shortage list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShortageEntry {
    pub medicine: String,
    pub atc: Option<String>,
    pub status: String,
    pub since: NaiveDate,
    pub advice: String,
}

impl From<Shortage> for ShortageEntry {
    fn from(s: Shortage) -> Self {
        Self { medicine: s.name, atc: s.atc, status: s.status, since: s.since, advice: s.advice }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShortageList {
    /// When the list was uploaded; none before the first upload.
    pub uploaded_at: Option<DateTime<Utc>>,
    pub entries: Vec<ShortageEntry>,
}

/// Staff: the shortage list in force, in the order of its file.
#[utoipa::path(get, path = "/api/cms/medicineShortages", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = ShortageList), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_shortages(State(state): State<AppState>, _staff: Staff) -> Result<Json<ShortageList>, ApiError> {
    let (entries, uploaded_at) = medcat::shortages(&state.db).await?;
    Ok(Json(ShortageList { uploaded_at, entries: entries.into_iter().map(Into::into).collect() }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShortagesReplaced {
    /// How many medicines the list now holds.
    pub count: usize,
}

/// What is wrong with an uploaded list: every bad line, with its number.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShortageUploadError {
    /// `invalid_shortage_list`
    pub error: &'static str,
    /// A Dutch summary naming the lines.
    pub message: String,
    pub lines: Vec<ShortageLineError>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShortageLineError {
    /// The line number in the file (the header is line 1).
    pub line: usize,
    /// In Dutch.
    pub reason: String,
}

fn upload_refused(errors: Vec<LineError>) -> Response {
    let shown: Vec<String> = errors.iter().take(20).map(|e| format!("regel {}: {}", e.line, e.reason)).collect();
    let more = if errors.len() > shown.len() { format!(" (en {} regels meer)", errors.len() - shown.len()) } else { String::new() };
    let message = format!("De lijst is niet ingelezen; er is niets vervangen. {}{more}.", shown.join("; "));
    let lines = errors.into_iter().map(|e| ShortageLineError { line: e.line, reason: e.reason }).collect();
    (StatusCode::BAD_REQUEST, Json(ShortageUploadError { error: "invalid_shortage_list", message, lines })).into_response()
}

/// Staff: replaces the whole shortage list with a CSV file (`text/csv`, UTF-8 or Windows-1252).
/// The first line names the columns `naam;atc;status;sinds;advies` (any order; `;` or `,`
/// between fields; quotes where a field holds the separator). `sinds` is `YYYY-MM-DD` or
/// `DD-MM-YYYY`, `atc` and `advies` may be empty. Any bad line: 400 naming every bad line, and the
/// list in force stays as it was.
#[utoipa::path(put, path = "/api/cms/medicineShortages", tag = "cms", security(("bearer" = [])),
    request_body(content = String, content_type = "text/csv", description = "naam;atc;status;sinds;advies, then one medicine per line"),
    responses((status = 200, body = ShortagesReplaced), (status = 400, body = ShortageUploadError), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn upload_shortages(State(state): State<AppState>, staff: Staff, body: Bytes) -> Result<Response, ApiError> {
    let user = &staff.user;
    let text = medcat::decode_upload(&body);
    let entries = match medcat::parse_shortages(&text) {
        Ok(entries) => entries,
        Err(errors) => return Ok(upload_refused(errors)),
    };
    let mut tx = state.db.begin().await?;
    let before: i64 = sqlx::query_scalar!(r#"select count(*) as "count!" from medicine_shortages"#).fetch_one(&mut *tx).await?;
    medcat::replace_shortages(&mut tx, &entries, &user.id).await?;
    let entry = domain::audit::Entry {
        action: domain::audit::Action::ReplaceShortageList,
        subject_type: "medicine_shortages",
        subject_id: "list".to_owned(),
        concerns_user_id: None,
        concerns_organisation_id: None,
        changes: serde_json::json!({ "before": { "count": before }, "after": { "count": entries.len() } }),
        about: format!("({before} → {} geneesmiddelen)", entries.len()),
    };
    domain::audit::record(&mut tx, &staff.actor, &entry).await?;
    tx.commit().await?;
    tracing::info!(staff = %user.id, count = entries.len(), "medicine shortage list replaced");
    Ok(Json(ShortagesReplaced { count: entries.len() }).into_response())
}
