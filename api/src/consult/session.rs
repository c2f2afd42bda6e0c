//! A live session's HTTP calls: opening one (for a new consult or one of the user's own, on the
//! usual or the new model) and uploading a recording into it. The session is talked into on the
//! socket ([`super::socket`]).

use std::collections::HashMap;

use axum::extract::State;
use axum::http::header::CONTENT_LENGTH;
use axum::http::{HeaderMap, StatusCode};
use chrono::{DateTime, Utc};
use domain::consults::{self, Source};
use futures::StreamExt;
use integrations::speech::{AudioFrame, SpeechEvent, StreamOptions, decode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use utoipa::ToSchema;

use crate::auth::CurrentUser;
#[allow(unused_imports)] // named by the upload's documentation alone
use crate::consult::service::RECORDING_SLOTS;
use crate::consult::socket::{AUDIO_QUEUE, EVENT_QUEUE, EXPIRED, NO_ENGINE, audio_model};
use crate::consult::transcripts::Line;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionInput {
    /// Continue one of the user's consults; a new consult when absent.
    pub consult_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionOpened {
    pub session_id: String,
    pub consult_id: String,
    pub expires_at: DateTime<Utc>,
}

/// Opens a live audio session for the websocket; with no consult id, for a new consult.
#[utoipa::path(post, path = "/api/consult/audio/session", tag = "consult", security(("bearer" = [])),
    request_body(content = SessionInput, description = "optional: without a body (or a `consultId`), a new consult"),
    responses((status = 201, body = SessionOpened), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn open_session(
    State(state): State<AppState>,
    user: CurrentUser,
    body: Option<Json<SessionInput>>,
) -> Result<(StatusCode, Json<SessionOpened>), ApiError> {
    open(&state, &user, body.map(|b| b.0).unwrap_or_default(), false).await
}

/// Opens a live audio session on the new model (the `beta` segment of the consult page).
#[utoipa::path(post, path = "/api/consult/beta", tag = "consult", security(("bearer" = [])),
    request_body(content = SessionInput, description = "optional: without a body (or a `consultId`), a new consult"),
    responses((status = 201, body = SessionOpened), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn open_beta_session(
    State(state): State<AppState>,
    user: CurrentUser,
    body: Option<Json<SessionInput>>,
) -> Result<(StatusCode, Json<SessionOpened>), ApiError> {
    open(&state, &user, body.map(|b| b.0).unwrap_or_default(), true).await
}

async fn open(
    state: &AppState,
    user: &CurrentUser,
    input: SessionInput,
    new_model: bool,
) -> Result<(StatusCode, Json<SessionOpened>), ApiError> {
    let mut tx = state.db.begin().await?;
    let consult_id = match input.consult_id {
        Some(id) => consults::get(&state.db, &user.id, &id).await?.ok_or(ApiError::NotFound)?.id,
        None => {
            consults::create(&mut tx, &user.id, Source::App, &Value::Object(Default::default()), state.consult.config.retention).await?.id
        }
    };
    let session = consults::create_session(&mut tx, &user.id, &consult_id, new_model, state.consult.config.session_ttl).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(SessionOpened { session_id: session.id, consult_id, expires_at: session.expires_at })))
}

/// The largest uploaded recording: 128 MiB. Two hours of any compressed format up to 128 kbit/s
/// (webm/opus at 24–32 kbit/s is about 30 MB, mp3 or m4a at 128 kbit/s 115 MB); wav at 16 kHz mono
/// fits about 70 minutes, so a longer wav recording is to be compressed first.
pub const MAX_RECORDING_BYTES: u64 = 128 * 1024 * 1024;

/// An uploaded recording goes to the engine in frames as long as the browser's (500 ms).
const FRAME_SAMPLES: usize = 8_000;

const TOO_LARGE: &str = "De opname is te groot: hoogstens 128 MB. Verklein of comprimeer het bestand (bijvoorbeeld webm, ogg of mp3).";
const NOT_RECEIVED: &str = "De opname kon niet volledig worden ontvangen. Probeer het opnieuw.";

/// What an uploaded recording added to the session's transcript.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordingTranscript {
    /// The new sentences, numbered after those the session already had.
    pub completed: Vec<Line>,
    /// Parts the engine could not transcribe (Dutch messages).
    #[schema(value_type = Vec<Object>)]
    pub problems: Vec<Value>,
}

/// The `model` query parameter of an upload (what [`audio_model`] takes).
#[derive(ToSchema)]
#[allow(dead_code)] // the document's shape of `model`
#[schema(rename_all = "lowercase")]
pub enum AudioModelName {
    Multilingual,
    /// The same as multilingual.
    Generic,
    Radiology,
}

/// An uploaded recording: the file's bytes.
#[derive(ToSchema)]
#[allow(dead_code)] // the document's shape of the body
#[schema(value_type = String, format = Binary)]
pub struct RecordingFile(Vec<u8>);

/// Transcribes an uploaded recording (wav, webm/opus, ogg, mp3, m4a) into the session, through
/// the same engine and transcript as live audio.
///
/// The session (404 when unknown or someone else's), the model and the engine are checked before
/// any of the body is read. The body (at most 128 MiB, else 413 as soon as it is passed) goes to
/// a temporary file, which the decoder reads; at most [`RECORDING_SLOTS`] uploads decode and
/// transcribe at once, the others wait.
#[utoipa::path(post, path = "/api/consult/audio/session/{session_id}/recording", tag = "consult", security(("bearer" = [])),
    params(("session_id" = String, Path), ("model" = Option<AudioModelName>, Query, description = "multilingual when left out")),
    request_body(content = RecordingFile, content_type = "application/octet-stream", description = "The recording, at most 128 MiB"),
    responses((status = 200, body = RecordingTranscript), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 502, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn recording(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(session_id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Result<Json<RecordingTranscript>, ApiError> {
    let session = consults::find_session(&state.db, &session_id).await?.filter(|s| s.user_id == user.id).ok_or(ApiError::NotFound)?;
    if session.expired() {
        return Err(ApiError::Missing(EXPIRED.reason));
    }
    let model = audio_model(query.get("model").map(String::as_str))
        .ok_or_else(|| ApiError::BadRequest { code: "invalid_model", message: "Onbekend model; kies multilingual of radiology.".into() })?;
    let engine = state.consult.speech.for_upload(model).ok_or(ApiError::Conflict { code: "no_engine", message: NO_ENGINE })?;
    let declared = headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_RECORDING_BYTES) {
        return Err(too_large());
    }
    let file = receive(body).await?;
    // held until the decoded samples are gone
    let _slot = state.consult.recordings.acquire().await.map_err(|e| ApiError::Internal(e.into()))?;
    let samples = tokio::task::spawn_blocking(move || decode::decode_recording_file(file))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| ApiError::BadRequest { code: "bad_recording", message: e.to_string() })?;
    let (audio_tx, audio_rx) = mpsc::channel::<AudioFrame>(AUDIO_QUEUE);
    let (event_tx, mut events) = mpsc::channel::<SpeechEvent>(EVENT_QUEUE);
    let vocabulary = state.consult.vocabularies.of(&user.id).await.map_err(|e| match *e {
        sqlx::Error::PoolTimedOut => ApiError::Overloaded,
        _ => ApiError::Internal(anyhow::anyhow!("reading the vocabulary: {e}")),
    })?;
    let run = engine.run(StreamOptions { model, vocabulary: vocabulary.to_vec() }, audio_rx, event_tx);
    let feed = tokio::spawn(async move {
        for frame in samples.chunks(FRAME_SAMPLES) {
            if audio_tx.send(frame.to_vec()).await.is_err() {
                break;
            }
        }
    });
    let collect = async {
        let mut conn = state.jobs.connection().await?;
        let (mut completed, mut problems) = (Vec::new(), Vec::new());
        while let Some(event) = events.recv().await {
            match event {
                SpeechEvent::Completed { sentence, speaker } => {
                    let ttl = state.consult.config.session_ttl;
                    completed.push(
                        state
                            .consult
                            .transcripts
                            .append(&mut conn, &session.id, &sentence, speaker, ttl)
                            .await
                            .map_err(anyhow::Error::from)?,
                    );
                }
                // One problem of a kind is enough: an engine that refuses one utterance refuses them all.
                SpeechEvent::Trouble { code, message } => {
                    if !problems.iter().any(|p: &serde_json::Value| p["code"] == code) {
                        problems.push(json!({ "code": code, "message": message }));
                    }
                }
                SpeechEvent::Buffer(_) => {}
            }
        }
        Ok::<_, ApiError>((completed, problems))
    };
    let (ran, collected) = tokio::join!(run, collect);
    feed.abort();
    let (completed, problems) = collected?;
    if let Err(e) = ran {
        tracing::warn!(error = %e, "the speech engine could not take the recording");
        return Err(ApiError::speech_unavailable("De spraakherkenning is niet bereikbaar. Probeer het later opnieuw."));
    }
    Ok(Json(RecordingTranscript { completed, problems }))
}

fn too_large() -> ApiError {
    ApiError::TooLarge { code: "recording_too_large", message: TOO_LARGE.to_owned() }
}

/// Streams an upload's body into an unnamed temporary file, refusing it (413) as soon as it
/// passes [`MAX_RECORDING_BYTES`]; the rest is never read. Returns the file at its start.
async fn receive(body: axum::body::Body) -> Result<std::fs::File, ApiError> {
    use tokio::io::{AsyncSeekExt, AsyncWriteExt};
    let mut file = tokio::fs::File::from_std(anonymous_file().await?);
    let mut received: u64 = 0;
    let mut chunks = body.into_data_stream();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|e| {
            tracing::info!(error = %e, bytes = received, "a recording upload broke off");
            ApiError::BadRequest { code: "recording_incomplete", message: NOT_RECEIVED.to_owned() }
        })?;
        received += chunk.len() as u64;
        if received > MAX_RECORDING_BYTES {
            return Err(too_large());
        }
        file.write_all(&chunk).await.map_err(|e| ApiError::Internal(anyhow::Error::from(e).context("writing an upload")))?;
    }
    file.flush().await.map_err(|e| ApiError::Internal(e.into()))?;
    file.rewind().await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(file.into_std().await)
}

/// A new file in the temporary directory that has no name any more: it goes when it is closed,
/// even when the process dies.
async fn anonymous_file() -> Result<std::fs::File, ApiError> {
    let path = std::env::temp_dir().join(format!("spreekkamer-recording-{}", uuid::Uuid::new_v4().simple()));
    let opened = tokio::task::spawn_blocking(move || {
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(&path)?;
        #[cfg(unix)]
        std::fs::remove_file(&path)?;
        Ok::<_, std::io::Error>(file)
    })
    .await
    .map_err(|e| ApiError::Internal(e.into()))?;
    opened.map_err(|e| ApiError::Internal(anyhow::Error::from(e).context("a temporary file for an upload")))
}
