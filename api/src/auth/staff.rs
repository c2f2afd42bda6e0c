//! Staff: a signed-in user with the staff role, with what the audit log records of each of their
//! requests (the request id and the client's address).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::CurrentUser;
use crate::error::ApiError;
use crate::state::AppState;

/// A staff member's request: 401 without a sign-in, 403 without the staff role.
#[derive(Debug, Clone)]
pub struct Staff {
    pub user: CurrentUser,
    pub actor: domain::audit::Actor,
}

impl FromRequestParts<AppState> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        if !user.is_staff {
            return Err(ApiError::Forbidden);
        }
        let actor = actor_of(&user, parts, state);
        Ok(Self { user, actor })
    }
}

/// What the audit log records of a staff member's request: who, the request id and the client.
fn actor_of(user: &CurrentUser, parts: &Parts, state: &AppState) -> domain::audit::Actor {
    let request_id = parts.headers.get("x-request-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let client_addr =
        crate::edge::client::peer(&parts.extensions).map(|peer| state.config.http.trusted_proxies.client(peer, &parts.headers).to_string());
    domain::audit::Actor { user_id: user.id.clone(), email: user.email.clone(), request_id, client_addr }
}

/// A signed-in user of a call that serves both the user and staff (an invoice's download link, a
/// job's state), with the audit log's actor when the user is staff: a staff member reading
/// someone else's record there is audited as in the CMS.
#[derive(Debug, Clone)]
pub struct UserOrStaff {
    pub user: CurrentUser,
    /// `Some` for staff.
    pub staff: Option<domain::audit::Actor>,
}

impl FromRequestParts<AppState> for UserOrStaff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        let staff = user.is_staff.then(|| actor_of(&user, parts, state));
        Ok(Self { user, staff })
    }
}
