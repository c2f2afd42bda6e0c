//! The issuer's endpoints, mounted under `/oidc`.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{FromRef, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{MethodRouter, get};
use axum::{Form, Json, Router};
use serde::Deserialize;
use serde_json::json;
use url::Url;

use super::page::{self, AuthorizeParams};
use super::{CODE_LIFETIME, DevIssuer, PendingCode, Session, pkce_matches};
use crate::auth::{Authenticator, bearer_token};
use crate::state::AppState;

type Issuer = Arc<DevIssuer>;

/// The issuer, and the api's authenticator for the userinfo endpoint.
#[derive(Clone)]
pub struct DevState {
    issuer: Issuer,
    auth: Arc<Authenticator>,
}

impl FromRef<DevState> for Issuer {
    fn from_ref(state: &DevState) -> Self {
        state.issuer.clone()
    }
}

impl FromRef<DevState> for Arc<Authenticator> {
    fn from_ref(state: &DevState) -> Self {
        state.auth.clone()
    }
}

/// The issuer's routes; `sign_in` limits the calls that sign in (the form's post and the token
/// call).
pub fn router(
    issuer: Issuer,
    auth: Arc<Authenticator>,
    sign_in: impl Fn(MethodRouter<DevState>) -> MethodRouter<DevState>,
) -> axum::Router<AppState> {
    Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/auth", get(authorize_page).merge(sign_in(axum::routing::post(authorize_submit))))
        .route("/token", sign_in(axum::routing::post(token)))
        .route("/userinfo", get(userinfo).post(userinfo))
        .route("/jwks", get(jwks))
        .route("/logout", get(end_session).post(end_session))
        .route("/revoke", axum::routing::post(revoke))
        .with_state(DevState { issuer, auth })
}

async fn discovery(State(issuer): State<Issuer>) -> Json<serde_json::Value> {
    let base = issuer.issuer();
    Json(json!({
        "issuer": base,
        "authorization_endpoint": format!("{base}/auth"),
        "token_endpoint": format!("{base}/token"),
        "userinfo_endpoint": format!("{base}/userinfo"),
        "jwks_uri": format!("{base}/jwks"),
        "end_session_endpoint": format!("{base}/logout"),
        "revocation_endpoint": format!("{base}/revoke"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token", "password"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "code_challenge_methods_supported": ["S256"],
        "scopes_supported": ["openid", "profile", "email"],
        "token_endpoint_auth_methods_supported": ["none"],
        "claims_supported": ["sub", "iss", "aud", "exp", "iat", "email", "email_verified", "preferred_username", "realm_access", "accepted-agreement"],
    }))
}

/// A validated authorization request, or the response that refuses it.
#[allow(clippy::result_large_err)]
fn check_request(issuer: &DevIssuer, params: &AuthorizeParams) -> Result<Url, Response> {
    if params.client_id.as_deref() != Some(issuer.client_id.as_str()) {
        let page = page::problem("Onbekende applicatie", "Deze inlogaanvraag komt van een onbekende applicatie (client_id).");
        return Err((StatusCode::BAD_REQUEST, Html(page)).into_response());
    }
    let redirect = params.redirect_uri.as_deref().filter(|u| issuer.redirect_allowed(u)).and_then(|u| Url::parse(u).ok());
    let Some(redirect) = redirect else {
        let page =
            page::problem("Ongeldig terugkeeradres", "Het adres waar de applicatie naar terug wil (redirect_uri) is niet toegestaan.");
        return Err((StatusCode::BAD_REQUEST, Html(page)).into_response());
    };
    let error = if params.response_type.as_deref() != Some("code") {
        Some(("unsupported_response_type", "only the authorization code flow is supported"))
    } else if params.code_challenge.as_deref().is_none_or(str::is_empty) || params.code_challenge_method.as_deref() != Some("S256") {
        Some(("invalid_request", "PKCE with code_challenge_method=S256 is required"))
    } else {
        None
    };
    match error {
        Some((code, description)) => {
            Err(redirect_with(&redirect, &[("error", code), ("error_description", description)], params.state.as_deref()))
        }
        None => Ok(redirect),
    }
}

fn redirect_with(target: &Url, pairs: &[(&str, &str)], state: Option<&str>) -> Response {
    let mut url = target.clone();
    {
        let mut query = url.query_pairs_mut();
        for (k, v) in pairs {
            query.append_pair(k, v);
        }
        if let Some(state) = state {
            query.append_pair("state", state);
        }
    }
    Redirect::to(url.as_str()).into_response()
}

fn no_store(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    response
}

async fn authorize_page(State(issuer): State<Issuer>, Query(params): Query<AuthorizeParams>) -> Response {
    if let Err(refused) = check_request(&issuer, &params) {
        return refused;
    }
    let typed = params.login_hint.clone().unwrap_or_default();
    no_store(Html(page::sign_in(&params, None, &typed)).into_response())
}

/// A plausible e-mail address: one `@`, something on both sides, a dot in the domain, no spaces.
fn normalise_email(raw: &str) -> Option<String> {
    let email = raw.trim().to_lowercase();
    let (local, domain) = email.split_once('@')?;
    let ok = !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !email.chars().any(char::is_whitespace)
        && email.len() <= 254;
    ok.then_some(email)
}

async fn authorize_submit(State(issuer): State<Issuer>, Form(params): Form<AuthorizeParams>) -> Response {
    let redirect = match check_request(&issuer, &params) {
        Ok(redirect) => redirect,
        Err(refused) => return refused,
    };
    let raw = params.login_hint.as_deref().or(params.email.as_deref()).unwrap_or_default();
    let Some(email) = normalise_email(raw) else {
        let html = page::sign_in(&params, Some("Vul een geldig e-mailadres in, bijvoorbeeld naam@praktijk.nl."), raw);
        return no_store((StatusCode::UNPROCESSABLE_ENTITY, Html(html)).into_response());
    };
    let who = issuer.identity(&email);
    tracing::info!(user.id = %who.sub, "development sign-in");
    let code = issuer.issue_code(PendingCode {
        who,
        redirect_uri: redirect.to_string(),
        code_challenge: params.code_challenge.clone().unwrap_or_default(),
        nonce: params.nonce.clone(),
        scope: params.scope.clone().unwrap_or_else(|| "openid".to_owned()),
        expires: Instant::now() + CODE_LIFETIME,
    });
    let iss = issuer.issuer().to_owned();
    redirect_with(&redirect, &[("code", &code), ("iss", &iss)], params.state.as_deref())
}

#[derive(Debug, Default, Deserialize)]
struct TokenForm {
    grant_type: Option<String>,
    client_id: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    refresh_token: Option<String>,
    username: Option<String>,
    password: Option<String>,
    scope: Option<String>,
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    no_store((status, Json(json!({ "error": error, "error_description": description }))).into_response())
}

async fn token(State(issuer): State<Issuer>, Form(form): Form<TokenForm>) -> Response {
    if form.client_id.as_deref() != Some(issuer.client_id.as_str()) {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "unknown client");
    }
    let grant = match form.grant_type.as_deref() {
        Some("authorization_code") => {
            let Some(code) = form.code.as_deref().and_then(|c| issuer.take_code(c)) else {
                return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "the code is unknown, used or expired");
            };
            if form.redirect_uri.as_deref() != Some(code.redirect_uri.as_str()) {
                return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "redirect_uri does not match");
            }
            if !form.code_verifier.as_deref().is_some_and(|v| pkce_matches(v, &code.code_challenge)) {
                return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "code_verifier does not match");
            }
            (code.who, Session::start(), code.scope, code.nonce)
        }
        Some("refresh_token") => {
            let redeemed = match form.refresh_token.as_deref() {
                Some(token) => issuer.redeem_refresh_token(token).await,
                None => Ok(None),
            };
            match redeemed {
                Ok(Some((who, session, scope))) => (who, session, scope, None),
                Ok(None) => {
                    return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "the refresh token is unknown, used, revoked or expired");
                }
                Err(error) => {
                    tracing::error!(error = %format!("{error:#}"), "cannot redeem a refresh token");
                    return oauth_error(StatusCode::INTERNAL_SERVER_ERROR, "server_error", "cannot issue tokens");
                }
            }
        }
        Some("password") => match (form.username.as_deref().and_then(normalise_email), form.password.as_deref()) {
            (Some(email), Some(password)) if !password.is_empty() => {
                let scope = form.scope.clone().unwrap_or_else(|| "openid profile email".to_owned());
                (issuer.identity(&email), Session::start(), scope, None)
            }
            _ => return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "username must be an e-mail address and password non-empty"),
        },
        _ => return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type", "unsupported grant_type"),
    };
    let (who, session, scope, nonce) = grant;
    match issuer.issue_tokens(&who, &session, &scope, nonce.as_deref()).await {
        Ok(tokens) => no_store(Json(tokens).into_response()),
        Err(error) => {
            tracing::error!(error = %format!("{error:#}"), "cannot issue tokens");
            oauth_error(StatusCode::INTERNAL_SERVER_ERROR, "server_error", "cannot issue tokens")
        }
    }
}

async fn userinfo(State(auth): State<Arc<Authenticator>>, headers: HeaderMap) -> Response {
    let token = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer_token);
    let claims = match token {
        Some(token) => auth.validate(token).await.ok(),
        None => None,
    };
    let Some(claims) = claims else {
        let mut response = oauth_error(StatusCode::UNAUTHORIZED, "invalid_token", "the access token is invalid");
        response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer error=\"invalid_token\""));
        return response;
    };
    let mut body = json!({
        "sub": claims.sub,
        "email": claims.email,
        "email_verified": true,
        "preferred_username": claims.preferred_username,
        "realm_access": {"roles": claims.roles()},
    });
    if claims.has_accepted_agreement() {
        body["accepted-agreement"] = json!(true);
    }
    no_store(Json(body).into_response())
}

async fn jwks(State(issuer): State<Issuer>) -> Response {
    let set = issuer.key_set();
    let set = set.read().map(|s| s.clone()).unwrap_or_else(|p| p.into_inner().clone());
    Json(set).into_response()
}

#[derive(Debug, Default, Deserialize)]
struct EndSessionParams {
    id_token_hint: Option<String>,
    post_logout_redirect_uri: Option<String>,
    state: Option<String>,
}

/// Ends the session: the user's refresh tokens stop working, and the browser goes back to the
/// application when it named an allowed address.
async fn end_session(State(issuer): State<Issuer>, Query(params): Query<EndSessionParams>) -> Response {
    if let Some(sub) = params.id_token_hint.as_deref().and_then(|t| issuer.id_token_subject(t))
        && let Err(error) = issuer.revoke_all_for(&sub).await
    {
        tracing::error!(error = %format!("{error:#}"), "cannot revoke refresh tokens");
    }
    match params.post_logout_redirect_uri.as_deref().filter(|u| issuer.redirect_allowed(u)).and_then(|u| Url::parse(u).ok()) {
        Some(target) => redirect_with(&target, &[], params.state.as_deref()),
        None => Html(page::problem("Je bent uitgelogd", "Je bent uitgelogd bij Spreekkamer. Je kunt dit venster sluiten.")).into_response(),
    }
}

#[derive(Debug, Default, Deserialize)]
struct RevokeForm {
    token: Option<String>,
}

/// RFC 7009: always 200, whether or not the token was known.
async fn revoke(State(issuer): State<Issuer>, Form(form): Form<RevokeForm>) -> Response {
    if let Some(token) = form.token.as_deref()
        && let Err(error) = issuer.revoke_refresh_token(token).await
    {
        tracing::error!(error = %format!("{error:#}"), "cannot revoke a refresh token");
        return oauth_error(StatusCode::SERVICE_UNAVAILABLE, "temporarily_unavailable", "try again");
    }
    StatusCode::OK.into_response()
}
