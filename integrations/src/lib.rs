//! The outside world. Each concern is a client for the real service; the embedded defaults that
//! work on a fresh machine live beside them.

pub mod bookkeeping;
pub mod keycloak;
pub mod oidc;
pub mod payments;
pub mod speech;
pub mod summarise;
