//! Background jobs. The api and the scheduler enqueue, the worker runs; Redis carries the queues.

pub mod redis_conn;

pub use redis_conn::{RedisConfig, ping};
