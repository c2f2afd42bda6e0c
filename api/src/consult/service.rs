//! What the live consult keeps for the whole process, made once when the api starts and held by
//! the shared state: the database, the job dispatcher, the consults' settings, the speech engines,
//! the live hub, the transcripts, the sockets' joins and leaves, the users' vocabularies, and the
//! counts of its running tasks and busy upload slots.
//!
//! It knows no handler: the socket, the session calls and the summary calls take what they need
//! from it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use domain::consults::ConsultConfig;
use integrations::speech::config::Engines;
use sqlx::PgPool;
use tokio::sync::{AcquireError, SemaphorePermit};

use crate::consult::live::LiveHub;
use crate::consult::presence::Presence;
use crate::consult::transcripts::Transcripts;

#[derive(Clone)]
pub struct ConsultService {
    pub db: PgPool,
    /// Pushes the summary jobs' messages; its Redis connection holds the transcripts.
    pub jobs: jobs::Dispatcher,
    pub config: ConsultConfig,
    /// How long a summary call waits for its job before it answers 202.
    pub summary_wait: Duration,
    /// Speech engines per audio model.
    pub speech: Engines,
    /// Live sessions' and waiting requests' end of the pub/sub channel.
    pub live: LiveHub,
    pub transcripts: Transcripts,
    /// Tasks running for live sockets.
    pub tasks: TaskCount,
    /// Slots for decoding uploaded recordings.
    pub recordings: RecordingSlots,
    /// Sockets joining and leaving their sessions, written in batches.
    pub presence: Presence,
    /// The words each user's engine streams are given to expect.
    pub vocabularies: Vocabularies,
    /// Places for live sockets in this process.
    pub places: LivePlaces,
}

impl ConsultService {
    /// Makes the service and starts listening to the live channel of the jobs' namespace.
    pub fn start(
        db: PgPool,
        redis: redis::Client,
        jobs: jobs::Dispatcher,
        config: ConsultConfig,
        summary_wait: Duration,
        speech: Engines,
    ) -> Self {
        let namespace = jobs.config().namespace.clone();
        let live = LiveHub::new(&namespace);
        live.listen(redis);
        let presence = Presence::start(db.clone(), config.session_ttl, config.resume_grace);
        let vocabularies = Vocabularies::new(db.clone());
        Self {
            db,
            jobs,
            config,
            summary_wait,
            speech,
            live,
            transcripts: Transcripts::new(&namespace),
            tasks: TaskCount::default(),
            recordings: RecordingSlots::default(),
            presence,
            vocabularies,
            places: LivePlaces::new(config.max_live_sessions),
        }
    }
}

/// Titles of the user's own template entries given to the engine as words to expect.
pub const VOCABULARY: i64 = 40;
/// How long a user's vocabulary is used before it is read again.
pub const VOCABULARY_FOR: Duration = Duration::from_secs(60);

/// The users' vocabularies, each read at most once a [`VOCABULARY_FOR`]: the sockets of a burst
/// of connects of one user (and those asking while it is read) share one read.
#[derive(Clone)]
pub struct Vocabularies {
    db: PgPool,
    cache: moka::future::Cache<String, Arc<Vec<String>>>,
}

impl Vocabularies {
    fn new(db: PgPool) -> Self {
        Self { db, cache: moka::future::Cache::builder().max_capacity(100_000).time_to_live(VOCABULARY_FOR).build() }
    }

    /// The user's vocabulary (at most [`VOCABULARY`] words); an error is not kept.
    pub async fn of(&self, user_id: &str) -> Result<Arc<Vec<String>>, Arc<sqlx::Error>> {
        let (db, user) = (self.db.clone(), user_id.to_owned());
        self.cache
            .try_get_with(user_id.to_owned(), async move { domain::templates::vocabulary(&db, &user, VOCABULARY).await.map(Arc::new) })
            .await
    }
}

/// Places for the live sockets of this process: a socket takes one before it starts and holds it
/// until it is gone; when none is free it is refused as busy.
#[derive(Clone)]
pub struct LivePlaces(Arc<tokio::sync::Semaphore>);

/// What a socket refused for want of a place is told to wait, in seconds: long enough for a
/// burst to pass, and the page adds up to as much again at random.
pub const FULL_RETRY_AFTER: u64 = 5;

impl LivePlaces {
    /// `max` places; 0 is no limit.
    pub fn new(max: usize) -> Self {
        let max = if max == 0 { tokio::sync::Semaphore::MAX_PERMITS } else { max };
        Self(Arc::new(tokio::sync::Semaphore::new(max)))
    }

    /// A free place, held until the permit is dropped; none when every place is taken.
    pub fn take(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.0.clone().try_acquire_owned().ok()
    }

    /// Places free now.
    pub fn free(&self) -> usize {
        self.0.available_permits()
    }
}

/// Uploads this process decodes and transcribes at once. A decoded recording is 16 kHz mono PCM16
/// (up to 230 MB for two hours) and stays in memory until the engine has it all; more uploads
/// wait (their bodies are on disk by then) for a slot.
pub const RECORDING_SLOTS: usize = 2;

/// Slots for decoding uploaded recordings, shared by the process's requests.
#[derive(Clone)]
pub struct RecordingSlots(Arc<tokio::sync::Semaphore>);

impl Default for RecordingSlots {
    fn default() -> Self {
        Self(Arc::new(tokio::sync::Semaphore::new(RECORDING_SLOTS)))
    }
}

impl RecordingSlots {
    /// Slots free now.
    pub fn available(&self) -> usize {
        self.0.available_permits()
    }

    /// Waits for a free slot, held until the permit is dropped.
    pub async fn acquire(&self) -> Result<SemaphorePermit<'_>, AcquireError> {
        self.0.acquire().await
    }
}

/// Tasks this process runs for sockets: the socket itself, its engine stream and the drain of
/// the engine's last sentences. Back to zero when every socket is gone and its engine finished.
#[derive(Clone, Default)]
pub struct TaskCount(Arc<AtomicUsize>);

impl TaskCount {
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    pub(crate) fn enter(&self, what: &'static str) -> TaskGuard {
        self.0.fetch_add(1, Ordering::SeqCst);
        metrics::gauge!("speech_tasks", "task" => what).increment(1.0);
        TaskGuard { count: self.clone(), what }
    }
}

pub(crate) struct TaskGuard {
    count: TaskCount,
    what: &'static str,
}

impl Drop for TaskGuard {
    fn drop(&mut self) {
        self.count.0.fetch_sub(1, Ordering::SeqCst);
        metrics::gauge!("speech_tasks", "task" => self.what).decrement(1.0);
    }
}
