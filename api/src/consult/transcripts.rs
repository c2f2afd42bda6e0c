//! The transcript of a live session, in Redis, so that any api replica can continue the session
//! and the summary can be made from it. Each key lives only as long as its session can.

use std::time::Duration;

use integrations::speech::Speaker;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

/// One finished sentence, numbered from 0 in the order spoken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = TranscriptSentence)]
pub struct Line {
    pub idx: usize,
    pub sentence: String,
    #[schema(required = true)]
    pub speaker: Option<Speaker>,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    s: String,
    #[serde(default)]
    p: Option<Speaker>,
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

    /// Appends a sentence and keeps the transcript for `ttl`; returns the sentence's number.
    pub async fn append(
        &self,
        conn: &mut ConnectionManager,
        session_id: &str,
        sentence: &str,
        speaker: Option<Speaker>,
        ttl: Duration,
    ) -> redis::RedisResult<Line> {
        let body = serde_json::to_string(&Stored { s: sentence.to_owned(), p: speaker })
            .map_err(|e| redis::RedisError::from((redis::ErrorKind::Client, "cannot encode a line", e.to_string())))?;
        let key = self.key(session_id);
        let (len, _): (usize, i64) =
            redis::pipe().atomic().rpush(&key, body).pexpire(&key, ttl.as_millis() as i64).query_async(conn).await?;
        Ok(Line { idx: len - 1, sentence: sentence.to_owned(), speaker })
    }

    /// Every sentence so far, in order.
    pub async fn all(&self, conn: &mut ConnectionManager, session_id: &str) -> redis::RedisResult<Vec<Line>> {
        let raw: Vec<String> = redis::cmd("LRANGE").arg(self.key(session_id)).arg(0).arg(-1).query_async(conn).await?;
        Ok(raw
            .into_iter()
            .enumerate()
            .filter_map(|(idx, r)| serde_json::from_str::<Stored>(&r).ok().map(|s| Line { idx, sentence: s.s, speaker: s.p }))
            .collect())
    }

    /// Keeps the transcript `ttl` from now.
    pub async fn keep_for(&self, conn: &mut ConnectionManager, session_id: &str, ttl: Duration) -> redis::RedisResult<()> {
        redis::cmd("PEXPIRE").arg(self.key(session_id)).arg(ttl.as_millis() as i64).query_async::<i64>(conn).await?;
        Ok(())
    }

    pub async fn delete(&self, conn: &mut ConnectionManager, session_id: &str) -> redis::RedisResult<()> {
        redis::cmd("DEL").arg(self.key(session_id)).query_async::<i64>(conn).await?;
        Ok(())
    }
}
