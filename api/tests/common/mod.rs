//! A running api on a random port, on the test's own database.
#![allow(dead_code)]

pub mod mollie;
/// A Redis server of the test's own, which it can restart (shared with the worker's tests).
#[path = "../../../worker/tests/common/redis_server.rs"]
pub mod redis_server;

use std::path::PathBuf;

use api::config::Config;
use api::state::AppState;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::env::Env;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;

pub struct TestApp {
    pub base: String,
    pub state: AppState,
    pub http: reqwest::Client,
    /// The variables the api was configured with.
    pub vars: Vec<(String, String)>,
}

/// A worker running in the test's process on the app's database and queues.
pub struct TestWorker {
    stop: tokio::sync::watch::Sender<bool>,
    handle: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl TestWorker {
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(30), self.handle).await;
    }
}

#[derive(Default)]
pub struct Options {
    pub env: Vec<(&'static str, String)>,
    pub web_dist: Option<PathBuf>,
}

impl TestApp {
    pub async fn spawn(pool: PgPool) -> Self {
        Self::spawn_with(pool, Options::default()).await
    }

    pub async fn spawn_with(pool: PgPool, options: Options) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let dist = options.web_dist.unwrap_or_else(|| PathBuf::from("/nonexistent-web-dist"));
        let mut vars: Vec<(String, String)> = vec![
            ("APP_ENV".into(), "development".into()),
            ("APP_PUBLIC_URL".into(), base.clone()),
            ("APP_WEB_DIST".into(), dist.display().to_string()),
            // a queue namespace of its own, so tests sharing one Redis never see each other's jobs
            ("APP_JOBS_NAMESPACE".into(), format!("test-{}", uuid::Uuid::new_v4().simple())),
        ];
        vars.extend(options.env.into_iter().map(|(k, v)| (k.to_owned(), v)));
        let config = Config::from_env(&Env::from_pairs(vars.clone())).expect("config");
        let state = api::state(config, pool).await.expect("state");
        let app = api::app(state.clone());
        let http = state.config.http.clone();
        tokio::spawn(async move { api::edge::conn::serve(listener, app, http, std::future::pending()).await.expect("serve") });
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
        Self { base, state, http, vars }
    }

    /// Starts a worker with the app's settings (its database, Redis and queue namespace), `extra`
    /// last.
    pub fn start_worker(&self, extra: &[(&str, &str)]) -> TestWorker {
        let mut vars = self.vars.clone();
        vars.push(("APP_DATABASE_URL".into(), domain::db::url_of(&self.state.db)));
        vars.push(("APP_WORKER_HTTP_ADDR".into(), "off".into()));
        vars.push(("APP_JOBS_RELAY_INTERVAL".into(), "200ms".into()));
        let outbox = std::env::temp_dir().join(format!("spreekkamer-test-outbox-{}", uuid::Uuid::new_v4().simple()));
        vars.push(("APP_MAIL_OUTBOX".into(), outbox.display().to_string()));
        vars.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        let config = worker::Config::from_env(&Env::from_pairs(vars)).expect("worker config");
        let (stop, mut rx) = tokio::sync::watch::channel(false);
        let handle = tokio::spawn(worker::run(config, async move {
            let _ = rx.wait_for(|s| *s).await;
        }));
        TestWorker { stop, handle }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn issuer(&self) -> String {
        format!("{}/oidc", self.base)
    }

    /// The seeded user who has not accepted the agreement; [`TestApp::tokens_for`] leaves them so.
    pub const UNACCEPTED: &'static str = "nieuw@example.nl";

    /// Tokens through the password grant (what scripts and tests use), for a user who has
    /// accepted the agreement: a user seen for the first time accepts it first, as the 'Welkom'
    /// screen would. Only [`TestApp::UNACCEPTED`] stays without (see
    /// [`TestApp::tokens_without_agreement`]).
    ///
    /// The user also has an active subscription (the seeded users their own, anyone else a
    /// month of 'Individueel'), so the gated calls answer; [`TestApp::tokens_unsubscribed`] gives
    /// tokens without one.
    pub async fn tokens_for(&self, email: &str) -> Value {
        let tokens = self.tokens_unsubscribed(email).await;
        if email != Self::UNACCEPTED {
            self.subscribe(email).await;
        }
        tokens
    }

    /// A month of 'Individueel' for the user with this e-mail address, unless they have an active
    /// subscription already.
    pub async fn subscribe(&self, email: &str) {
        sqlx::query(
            "insert into subscriptions (id, user_id, tier_id, description, is_active, is_individual, user_amount, interval_months,
                                        price_per_user, amount, valid_until)
             select gen_random_uuid(), u.id, '5b0e1a52-2f1c-4c57-9a6e-000000000002', 'Spreekkamer Individueel (maandelijks)', true, true,
                    1, 1, 4900, 4900, current_date + 30
               from users u
              where lower(u.email) = lower($1)
                and not exists (select 1 from subscriptions s where s.user_id = u.id and s.is_active)",
        )
        .bind(email)
        .execute(&self.state.db)
        .await
        .expect("subscribe");
    }

    /// [`TestApp::tokens_for`] without the subscription.
    pub async fn tokens_unsubscribed(&self, email: &str) -> Value {
        let tokens = self.tokens_without_agreement(email).await;
        let access = tokens["access_token"].as_str().expect("access_token");
        if email == Self::UNACCEPTED || claims_of(access).get("accepted-agreement").is_some() {
            return tokens;
        }
        let me = self.get_with_token("/api/user/me", access).await;
        assert_eq!(me.status(), 200, "first call of {email}");
        let accepted = self.http.post(self.url("/api/user/agreement")).bearer_auth(access).send().await.expect("accept");
        assert_eq!(accepted.status(), 200, "{email} accepts the agreement");
        self.tokens_without_agreement(email).await
    }

    /// Tokens through the password grant, as the user stands: a new user has not accepted the
    /// agreement.
    pub async fn tokens_without_agreement(&self, email: &str) -> Value {
        let response = self
            .http
            .post(self.url("/oidc/token"))
            .form(&[("grant_type", "password"), ("username", email), ("password", "test"), ("client_id", "spreekkamer-web")])
            .send()
            .await
            .expect("token request");
        assert_eq!(response.status(), 200, "password grant for {email}");
        response.json().await.expect("token json")
    }

    /// The refresh-token grant.
    pub async fn refresh(&self, refresh_token: &str) -> reqwest::Response {
        self.http
            .post(self.url("/oidc/token"))
            .form(&[("grant_type", "refresh_token"), ("refresh_token", refresh_token), ("client_id", "spreekkamer-web")])
            .send()
            .await
            .expect("refresh request")
    }

    pub async fn access_token_for(&self, email: &str) -> String {
        self.tokens_for(email).await["access_token"].as_str().expect("access_token").to_owned()
    }

    pub async fn access_token_unsubscribed(&self, email: &str) -> String {
        self.tokens_unsubscribed(email).await["access_token"].as_str().expect("access_token").to_owned()
    }

    pub async fn get_with_token(&self, path: &str, token: &str) -> reqwest::Response {
        self.http.get(self.url(path)).bearer_auth(token).send().await.expect("request")
    }

    /// The issuer's own signing key, so tests can sign tokens with any claims.
    pub async fn signing_key(&self) -> (String, EncodingKey, String) {
        let (kid, pem): (String, String) =
            sqlx::query_as("select kid, private_key_pem from dev_oidc_keys limit 1").fetch_one(&self.state.db).await.expect("dev key");
        let key = EncodingKey::from_rsa_pem(pem.as_bytes()).expect("pem");
        (kid, key, pem)
    }

    /// Claims of a valid access token for a seeded GP; tests change one thing at a time.
    pub fn valid_claims(&self) -> Value {
        let now = chrono::Utc::now().timestamp();
        json!({
            "iss": self.issuer(), "aud": ["spreekkamer-api"], "azp": "spreekkamer-web", "typ": "Bearer",
            "sub": "8d3c0f7e-5b1a-4c2e-9f10-0a1b2c3d4e01", "exp": now + 300, "iat": now,
            "email": "huisarts@example.nl", "preferred_username": "huisarts",
            "realm_access": {"roles": ["default-roles-spreekkamer"]}, "accepted-agreement": true
        })
    }

    pub async fn sign(&self, claims: &Value) -> String {
        let (kid, key, _) = self.signing_key().await;
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(kid);
        jsonwebtoken::encode(&header, claims, &key).expect("sign")
    }
}

/// The claims of a token, unchecked.
pub fn claims_of(jwt: &str) -> Value {
    let payload = jwt.split('.').nth(1).expect("a JWT");
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).expect("base64url")).expect("JSON claims")
}

/// A PKCE pair (verifier, S256 challenge).
pub fn pkce_pair() -> (String, String) {
    let verifier = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

/// A websocket client of the live consult.
pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a live session for a new consult: (session id, consult id).
pub async fn open_session(app: &TestApp, token: &str) -> (String, String) {
    let response = app.http.post(app.url("/api/consult/audio/session")).bearer_auth(token).send().await.expect("session");
    assert_eq!(response.status(), 201);
    let opened: Value = response.json().await.expect("session json");
    (opened["sessionId"].as_str().unwrap().to_owned(), opened["consultId"].as_str().unwrap().to_owned())
}

/// Opens a websocket at `path` the way the browser does: subprotocols `speech.v1` and, with a
/// token, `bearer.<token>`; the server must answer `speech.v1`.
pub async fn connect(app: &TestApp, path: &str, token: Option<&str>) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = app.url(path).replace("http://", "ws://");
    let mut request = url.into_client_request().unwrap();
    let protocols = match token {
        Some(token) => format!("speech.v1, bearer.{token}"),
        None => "speech.v1".to_owned(),
    };
    request.headers_mut().insert("sec-websocket-protocol", protocols.parse().unwrap());
    let (socket, response) = tokio_tungstenite::connect_async(request).await.expect("websocket handshake");
    assert_eq!(response.headers()["sec-websocket-protocol"], "speech.v1");
    socket
}

/// The socket of a session.
pub async fn socket(app: &TestApp, token: &str, session: &str) -> Socket {
    connect(app, &format!("/ws/speech/consult/{session}"), Some(token)).await
}

/// The next JSON message, skipping pings.
pub async fn next_json(socket: &mut Socket) -> Value {
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(30), socket.next()).await.expect("a message in time");
        match message.expect("socket open").expect("readable") {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("expected JSON, got {other:?}"),
        }
    }
}

/// The next JSON message of a type, skipping others.
pub async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let value = next_json(socket).await;
        if value["type"] == kind {
            return value;
        }
    }
}
