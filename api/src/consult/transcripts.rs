//! The transcript of a live session, in Redis, so that any api replica can continue the session
//! and the summary can be made from it. Each key lives only as long as its session can.
//!
//! A sentence is kept or the socket says it was not: [`Transcripts::append`] tries again while
//! Redis is slow or away (a reply past the connection's 5 s, a dropped or refused connection), for
//! up to [`KEEP_TRYING`]. An attempt that timed out may still have been carried out, so each line
//! carries a key of its own and an append that finds its key among the last lines does not add it
//! twice.

use std::future::Future;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use integrations::speech::Speaker;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

/// One finished sentence, numbered from 0 in the order spoken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = TranscriptSentence)]
pub struct Line {
    pub idx: usize,
    pub sentence: String,
    /// The engine's speaker, or where it could not tell, the sentence's own guess.
    #[schema(required = true)]
    pub speaker: Option<Speaker>,
    /// The speaker is a guess from this sentence alone: the summary guesses it again, in the
    /// conversation's context (who asked, who examines), and never names the clinician on it.
    #[serde(skip)]
    #[schema(ignore)]
    pub guessed: bool,
}

impl Line {
    /// The line as the summariser takes it: a guessed speaker left for it to guess.
    pub fn told(self) -> integrations::summarise::TranscriptLine {
        integrations::summarise::TranscriptLine { sentence: self.sentence, speaker: if self.guessed { None } else { self.speaker } }
    }
}

#[derive(Serialize, Deserialize)]
struct Stored {
    s: String,
    #[serde(default)]
    p: Option<Speaker>,
    /// `p` is a guess ([`Line::guessed`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    g: bool,
    /// The line's own key, so that an append tried again adds it once.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    k: String,
}

/// How long an append goes on trying while Redis does not answer.
pub const KEEP_TRYING: Duration = Duration::from_secs(30);
/// The first wait between attempts; it doubles up to [`MAX_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(100);
const MAX_WAIT: Duration = Duration::from_secs(2);
/// How far back an append looks for its own key: further than the lines one session can add
/// while one of its appends is tried again.
const LOOK_BACK: usize = 64;

/// Pushes ARGV[1] onto the list KEYS[1] unless it is among its last ARGV[3] entries, keeps the
/// list ARGV[2] ms, and answers the line's position.
const APPEND_ONCE: &str = r"
local key, line, ttl, back = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3])
local len = redis.call('LLEN', key)
local tail = redis.call('LRANGE', key, -back, -1)
for i = #tail, 1, -1 do
  if tail[i] == line then
    redis.call('PEXPIRE', key, ttl)
    return len - #tail + i - 1
  end
end
len = redis.call('RPUSH', key, line)
redis.call('PEXPIRE', key, ttl)
return len - 1
";

/// The append, its digest computed once (it is sent by digest, and in full when Redis has not
/// seen it yet).
static APPEND: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(APPEND_ONCE));

/// Runs `attempt` until it succeeds, fails in a way that will not pass, or [`KEEP_TRYING`] is
/// spent: the waits between attempts start at [`FIRST_WAIT`] and double up to [`MAX_WAIT`].
async fn patiently<T, F, Fut>(what: &'static str, mut attempt: F) -> redis::RedisResult<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = redis::RedisResult<T>>,
{
    let started = Instant::now();
    let mut wait = FIRST_WAIT;
    let mut attempts = 0u32;
    loop {
        attempts += 1;
        match attempt().await {
            Ok(done) => {
                if attempts > 1 {
                    tracing::info!(what, attempts, waited_ms = started.elapsed().as_millis() as u64, "Redis answered again");
                }
                return Ok(done);
            }
            Err(e) if passing(&e) && started.elapsed() + wait < KEEP_TRYING => {
                metrics::counter!("speech_redis_retries_total", "what" => what).increment(1);
                tracing::debug!(what, error = %e, attempts, "tried again");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(MAX_WAIT);
            }
            Err(e) => return Err(e),
        }
    }
}

/// A failure that may pass: Redis slow, restarting, or the connection gone.
pub fn passing(e: &redis::RedisError) -> bool {
    use redis::{ErrorKind, ServerErrorKind};
    e.is_io_error()
        || e.is_timeout()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || e.is_unrecoverable_error()
        || matches!(e.kind(), ErrorKind::Server(ServerErrorKind::BusyLoading | ServerErrorKind::TryAgain | ServerErrorKind::MasterDown))
}

#[derive(Clone)]
pub struct Transcripts {
    namespace: String,
}

impl Transcripts {
    pub fn new(namespace: &str) -> Self {
        Self { namespace: namespace.to_owned() }
    }

    fn key(&self, session_id: &str) -> String {
        format!("{}:speech:{session_id}:lines", self.namespace)
    }

    /// Appends a sentence once and keeps the transcript for `ttl`; returns the sentence's number.
    /// Tries again for up to [`KEEP_TRYING`] while the failure may pass.
    pub async fn append(
        &self,
        conn: &mut ConnectionManager,
        session_id: &str,
        sentence: &str,
        by_engine: Option<Speaker>,
        ttl: Duration,
    ) -> redis::RedisResult<Line> {
        // where the engine could not tell, the summariser's cues guess the speaker for the page
        let guessed = by_engine.is_none();
        let speaker = by_engine.or_else(|| Some(integrations::summarise::guess_speaker(sentence)));
        let stored = Stored { s: sentence.to_owned(), p: speaker, g: guessed, k: domain::consults::new_id() };
        let body = serde_json::to_string(&stored)
            .map_err(|e| redis::RedisError::from((redis::ErrorKind::Client, "cannot encode a line", e.to_string())))?;
        let mut invocation = APPEND.key(self.key(session_id));
        invocation.arg(body).arg(ttl.as_millis() as u64).arg(LOOK_BACK);
        let idx = patiently("append", || {
            let (invocation, mut conn) = (&invocation, conn.clone());
            async move { invocation.invoke_async::<usize>(&mut conn).await }
        })
        .await?;
        Ok(Line { idx, sentence: stored.s, speaker, guessed })
    }

    /// Every sentence so far, in order.
    pub async fn all(&self, conn: &mut ConnectionManager, session_id: &str) -> redis::RedisResult<Vec<Line>> {
        let raw: Vec<String> = redis::cmd("LRANGE").arg(self.key(session_id)).arg(0).arg(-1).query_async(conn).await?;
        Ok(raw
            .into_iter()
            .enumerate()
            .filter_map(|(idx, r)| serde_json::from_str::<Stored>(&r).ok().map(|s| Line { idx, sentence: s.s, speaker: s.p, guessed: s.g }))
            .collect())
    }

    /// Keeps the transcript `ttl` from now (tried again like an append: a transcript left to live
    /// out the session's whole life is kept longer than it may be).
    pub async fn keep_for(&self, conn: &mut ConnectionManager, session_id: &str, ttl: Duration) -> redis::RedisResult<()> {
        let key = self.key(session_id);
        patiently("keep_for", || {
            let (key, mut conn) = (&key, conn.clone());
            async move { redis::cmd("PEXPIRE").arg(key).arg(ttl.as_millis() as i64).query_async::<i64>(&mut conn).await }
        })
        .await?;
        Ok(())
    }

    pub async fn delete(&self, conn: &mut ConnectionManager, session_id: &str) -> redis::RedisResult<()> {
        redis::cmd("DEL").arg(self.key(session_id)).query_async::<i64>(conn).await?;
        Ok(())
    }
}
