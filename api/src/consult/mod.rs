//! The live consult: a session is opened over HTTP, talked into on the websocket (or given a
//! recording), and summarised by a job whose outcome comes back over the live channel.
//!
//! - [`session`]: the session's HTTP calls (open one, upload a recording into it);
//! - [`socket`]: the websocket `/ws/speech/{service}/{sessionId}`;
//! - [`summaries`]: starting and awaiting a summary, shared with the summary calls
//!   (`crate::routes::summary_calls`);
//! - [`live`]: this process's end of the pub/sub channel;
//! - [`presence`]: the sockets' joins and leaves, written in batches;
//! - [`transcripts`]: a session's transcript in Redis;
//! - [`service`]: what the above share for the whole process, held by [`crate::state::AppState`].
//!
//! The service imports none of the handlers; they reach it through the state.

pub mod live;
pub mod presence;
pub mod service;
pub mod session;
pub mod socket;
pub mod summaries;
pub mod transcripts;

use axum::Router;
use axum::routing::{get, post};

use crate::edge::limit::{LimitName, Limited};
use crate::state::AppState;

/// The live session's calls and its socket.
/// The socket is not behind the gate: it takes its token from the subprotocol, and it joins only
/// a session that the gated calls opened.
pub fn router(state: &AppState) -> Router<AppState> {
    let sessions = Router::new()
        .route("/api/consult/audio/session", post(session::open_session))
        .route("/api/consult/beta", post(session::open_beta_session))
        .route("/api/consult/audio/session/{session_id}/recording", post(session::recording).limited(state, LimitName::Upload));
    Router::new().route("/ws/speech/{service}/{session_id}", get(socket::upgrade)).merge(crate::auth::gate::gated(sessions, state))
}
