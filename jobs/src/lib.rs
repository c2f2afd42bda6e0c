//! Background jobs.
//!
//! A job is a row in PostgreSQL ([`record`]), written in the same transaction as the business
//! change that causes it. Redis, through apalis, only carries "run job <id>" messages: the
//! [`Dispatcher`] pushes one after commit and [`wake`]s the idle workers of its kind, the
//! [`relay`] pushes what never arrived or got lost, and the worker's [`Runner`] moves the row
//! through its states. Each job kind lives in one file under [`kinds`]: its stable name, an
//! ids-only payload, the handler and its [`Policy`].

pub mod admin;
pub mod batch;
pub mod config;
pub mod dispatch;
pub mod health;
pub mod kind;
pub mod kinds;
pub mod live;
pub mod mail;
pub mod metrics;
pub mod ops;
pub mod record;
pub mod redis_conn;
pub mod relay;
pub mod runner;
pub mod told;
pub mod wake;

pub use config::JobsConfig;
pub use dispatch::{Dispatch, Dispatcher};
pub use kind::{Handler, Job, JobContext, JobError, Policy, Registry, StateChange};
pub use record::{JobRecord, JobState, NewJob, enqueue, enqueue_many, find};
pub use redis_conn::{RedisConfig, ping};
pub use relay::Relay;
pub use runner::{Ended, Runner, Taken};
