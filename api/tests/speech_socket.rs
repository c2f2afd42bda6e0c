//! The live consult websocket without a speech engine: who gets in, what bad input gets, that
//! nothing is left behind, takeover and resume.

mod common;

use std::time::Duration;

use common::{Options, Socket, TestApp, connect, next_json, open_session};
use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio_tungstenite::tungstenite::Message;

/// The close code and reason the server sent.
async fn closed_with(socket: &mut Socket) -> (u16, String) {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(15), socket.next()).await.expect("a close in time");
        match message {
            Some(Ok(Message::Close(Some(frame)))) => return (frame.code.into(), frame.reason.to_string()),
            Some(Ok(Message::Close(None))) | None => return (1005, String::new()),
            Some(Ok(_)) => continue,
            Some(Err(e)) => panic!("socket error before close: {e}"),
        }
    }
}

/// Waits until every socket task has ended and the hub holds nothing.
async fn nothing_left(app: &TestApp) {
    for _ in 0..200 {
        if app.state.consult.tasks.get() == 0 && app.state.consult.live.registered() == (0, 0) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("left behind: {} tasks, {:?} registrations", app.state.consult.tasks.get(), app.state.consult.live.registered());
}

#[sqlx::test(migrations = "../migrations")]
async fn refused_sockets_are_closed_with_a_code_and_a_reason(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let path = format!("/ws/speech/consult/{sid}?model=multilingual");

    let mut socket = connect(&app, &path, None).await;
    assert_eq!(closed_with(&mut socket).await.0, 4401, "no token");
    let mut socket = connect(&app, &path, Some("not-a-jwt")).await;
    let (code, reason) = closed_with(&mut socket).await;
    assert_eq!((code, reason.as_str()), (4401, "Niet ingelogd of de inlog is verlopen."));
    let mut socket = connect(&app, &path, Some(&bram)).await;
    assert_eq!(closed_with(&mut socket).await, (4404, "Deze sessie bestaat niet.".to_owned()), "another user's session");
    let mut socket = connect(&app, "/ws/speech/consult/01jzzzzzzzzzzzzzzzzzzzzzzz", Some(&anna)).await;
    assert_eq!(closed_with(&mut socket).await.0, 4404, "no such session");
    let mut socket = connect(&app, &format!("/ws/speech/consult/{sid}?model=dolfijn"), Some(&anna)).await;
    assert_eq!(closed_with(&mut socket).await.0, 4400, "unknown model");

    sqlx::query("update consult_sessions set expires_at = now() - interval '1 second' where id = $1")
        .bind(&sid)
        .execute(&pool)
        .await
        .unwrap();
    let mut socket = connect(&app, &path, Some(&anna)).await;
    assert_eq!(closed_with(&mut socket).await, (4410, "Deze sessie is verlopen. Start een nieuwe opname.".to_owned()));
    nothing_left(&app).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn without_an_engine_the_socket_says_so_and_bad_messages_get_errors(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, consult) = open_session(&app, &anna).await;
    let mut socket = connect(&app, &format!("/ws/speech/consult/{sid}"), Some(&anna)).await;

    let ready = next_json(&mut socket).await;
    assert_eq!(ready["type"], "ready");
    assert_eq!(ready["sessionId"], sid.as_str());
    assert_eq!(ready["consultId"], consult.as_str());
    assert_eq!(ready["engine"], Value::Null);
    assert_eq!(ready["resumed"], false);
    let no_engine = next_json(&mut socket).await;
    assert_eq!(no_engine["type"], "error");
    assert_eq!(no_engine["code"], "no_engine");
    assert!(no_engine["message"].as_str().unwrap().contains("Typ of plak"));

    // audio with nowhere to go is ignored; bad messages are answered and the socket stays open
    socket.send(Message::Binary(vec![0u8; 16_000].into())).await.unwrap();
    socket.send(Message::Text("{niet: json".into())).await.unwrap();
    assert_eq!(next_json(&mut socket).await["code"], "invalid_message");
    socket.send(Message::Text(r#"{"type":"dans"}"#.into())).await.unwrap();
    assert_eq!(next_json(&mut socket).await["code"], "unknown_type");
    socket.send(Message::Text(r#"{"type":"summarize","request":{"episodeCount":"veel"}}"#.into())).await.unwrap();
    assert_eq!(next_json(&mut socket).await["code"], "invalid_message");
    socket.send(Message::Text(r#"{"type":"ping"}"#.into())).await.unwrap();
    assert_eq!(next_json(&mut socket).await["type"], "pong");
    // a NUL character never reaches the database: refused like the HTTP edge refuses it
    socket.send(Message::Text(r#"{"type":"summarize","request":{"template":"soap","transcript":"keel\u0000pijn"}}"#.into())).await.unwrap();
    let nul = next_json(&mut socket).await;
    assert_eq!(
        (nul["code"].as_str(), nul["message"].as_str()),
        (Some("invalid_character"), Some("Het bericht bevat een ongeldig teken (NUL)."))
    );

    // nothing said, nothing to summarise: no job
    socket.send(Message::Text(json!({"type": "summarize", "request": {"template": "soap"}}).to_string().into())).await.unwrap();
    let empty = next_json(&mut socket).await;
    assert_eq!(
        (empty["code"].as_str(), empty["message"].as_str()),
        (Some("empty_transcript"), Some("Er is nog geen transcript om samen te vatten."))
    );
    let jobs: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'summarise_consult'").fetch_one(&pool).await.unwrap();
    assert_eq!(jobs, 0);

    // a typed transcript is summarised the same way: a job for this consult
    let typed = "Ik heb al drie dagen keelpijn. Geen koorts gehad. Keel is rood, geen beslag. Waarschijnlijk een virale keelontsteking. Paracetamol zo nodig.";
    socket.send(Message::Text(json!({"type": "summarize", "request": {"template": "soap", "flavour": "normal", "modelSize": "large", "episodeCount": 1, "transcript": typed}}).to_string().into())).await.unwrap();
    let job = next_json(&mut socket).await;
    assert_eq!((job["type"].as_str(), job["state"].as_str()), (Some("job"), Some("queued")), "{job}");
    let (consult_of, route, sentences): (Option<String>, String, i64) =
        sqlx::query_as("select consult_id, route, jsonb_array_length(request->'transcript')::bigint from summaries where session_id = $1")
            .bind(&sid)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((consult_of.as_deref(), route.as_str(), sentences), (Some(consult.as_str()), "ws", 5));
    let view: Value = app.get_with_token(&format!("/api/jobs/{}", job["id"].as_str().unwrap()), &anna).await.json().await.unwrap();
    assert_eq!(view["kind"], "summarise_consult");

    socket.close(None).await.unwrap();
    nothing_left(&app).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn oversized_messages_and_abrupt_disconnects_leave_nothing_behind(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let path = format!("/ws/speech/consult/{sid}");

    let mut socket = connect(&app, &path, Some(&anna)).await;
    next_json(&mut socket).await;
    let _ = socket.send(Message::Binary(vec![0u8; 2 << 20].into())).await;
    let (code, _) = closed_with(&mut socket).await;
    assert!(code == 1009 || code == 1005, "an oversized frame ends the socket, got {code}");
    nothing_left(&app).await;

    // twenty sockets dropped without a close frame
    let mut sockets = Vec::new();
    for _ in 0..20 {
        let (sid, _) = open_session(&app, &anna).await;
        let mut socket = connect(&app, &format!("/ws/speech/consult/{sid}"), Some(&anna)).await;
        next_json(&mut socket).await;
        sockets.push(socket);
    }
    assert!(app.state.consult.tasks.get() >= 20);
    drop(sockets);
    nothing_left(&app).await;

    // and the api carries on
    assert_eq!(app.http.get(app.url("/healthz")).send().await.unwrap().status(), 200);
    let mut socket = connect(&app, &path, Some(&anna)).await;
    assert_eq!(next_json(&mut socket).await["type"], "ready");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_second_socket_takes_the_session_over_and_a_dropped_one_resumes_within_the_grace(pool: PgPool) {
    let options = Options { env: vec![("APP_SPEECH_RESUME_GRACE", "2s".into())], ..Default::default() };
    let app = TestApp::spawn_with(pool.clone(), options).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let path = format!("/ws/speech/consult/{sid}");

    let mut first = connect(&app, &path, Some(&anna)).await;
    next_json(&mut first).await;
    let mut second = connect(&app, &path, Some(&anna)).await;
    assert_eq!(next_json(&mut second).await["type"], "ready");
    assert_eq!(closed_with(&mut first).await, (4409, "Deze sessie is op een andere plek geopend.".to_owned()));

    // what was said before the drop comes back on resume
    let mut conn = app.state.jobs.connection().await.unwrap();
    for sentence in ["Goedemorgen.", "Ik heb last van mijn rug."] {
        app.state.consult.transcripts.append(&mut conn, &sid, sentence, None, Duration::from_secs(60)).await.unwrap();
    }
    drop(second);
    nothing_left(&app).await;
    let mut again = connect(&app, &path, Some(&anna)).await;
    let ready = next_json(&mut again).await;
    assert_eq!(ready["resumed"], true);
    let transcript = next_json(&mut again).await;
    assert_eq!(transcript["type"], "transcript");
    // the engine told no speaker: the page shows the sentence's own guess, and the summary
    // guesses again in the conversation's context
    assert_eq!(transcript["completed"][1], json!({"idx": 1, "sentence": "Ik heb last van mijn rug.", "speaker": "patient"}));
    let lines = app.state.consult.transcripts.all(&mut conn, &sid).await.unwrap();
    assert!(lines.iter().all(|l| l.guessed), "{lines:?}");
    assert_eq!(lines[1].clone().told().speaker, None);
    drop(again);
    nothing_left(&app).await;

    // past the grace the session has expired
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let mut late = connect(&app, &path, Some(&anna)).await;
    assert_eq!(closed_with(&mut late).await.0, 4410);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_socket_s_summaries_count_against_the_summary_limit(pool: PgPool) {
    let env = vec![("APP_RATE_LIMIT_SUMMARY", "1/1h".to_owned())];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let mut socket = connect(&app, &format!("/ws/speech/consult/{sid}"), Some(&anna)).await;
    assert_eq!(next_json(&mut socket).await["type"], "ready");
    assert_eq!(next_json(&mut socket).await["code"], "no_engine");

    let typed = "Ik heb al drie dagen keelpijn. Keel is rood. Virale keelontsteking. Paracetamol zo nodig.";
    let summarize = json!({"type": "summarize", "request": {"template": "soap", "transcript": typed}}).to_string();
    socket.send(Message::Text(summarize.clone().into())).await.unwrap();
    assert_eq!(next_json(&mut socket).await["state"], "queued");
    socket.send(Message::Text(summarize.into())).await.unwrap();
    let refused = next_json(&mut socket).await;
    assert_eq!(refused["code"], "too_many_requests", "{refused}");
    assert!(refused["message"].as_str().unwrap().starts_with("Te veel verzoeken. Probeer het over "), "{refused}");
    let jobs: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'summarise_consult'").fetch_one(&pool).await.unwrap();
    assert_eq!(jobs, 1, "the refused summary made no job");
    // the socket stays open
    socket.send(Message::Text(r#"{"type":"ping"}"#.into())).await.unwrap();
    assert_eq!(next_json(&mut socket).await["type"], "pong");
}

/// Opens the session's socket as the page does: refused as busy (1013, after an `error` with the
/// code `busy` and a `retryAfter`), it waits that long and tries again. The socket once ready, and
/// how many busy refusals it waited out.
async fn ready_socket(app: &TestApp, token: &str, session: &str) -> (Socket, u32) {
    let mut busy = 0;
    loop {
        let mut socket = connect(app, &format!("/ws/speech/consult/{session}"), Some(token)).await;
        let first = next_json(&mut socket).await;
        if first["type"] == "ready" {
            return (socket, busy);
        }
        assert_eq!((first["type"].as_str(), first["code"].as_str()), (Some("error"), Some("busy")), "{first}");
        assert!(first["message"].as_str().unwrap().starts_with("Het is even te druk op de server."), "{first}");
        let retry_after = first["retryAfter"].as_u64().expect("a retry delay");
        assert_eq!(closed_with(&mut socket).await, (1013, "Het is even te druk. Probeer het zo opnieuw.".to_owned()));
        busy += 1;
        tokio::time::sleep(Duration::from_secs(retry_after)).await;
    }
}

/// A pool of two connections to the test's database, waiting as long for one as the api's own.
async fn two_connections(pool: &PgPool) -> PgPool {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with((*pool.connect_options()).clone())
        .await
        .unwrap()
}

/// Sessions of `ids` whose expiry is what a join gives (their whole life from their opening).
async fn joined(pool: &PgPool, app: &TestApp, ids: &[String]) -> i64 {
    sqlx::query_scalar(
        "select count(*) from consult_sessions where id = any($1) and expires_at = created_at + $2 * interval '1 millisecond'",
    )
    .bind(ids)
    .bind(app.state.consult.config.session_ttl.as_millis() as f64)
    .fetch_one(pool)
    .await
    .unwrap()
}

/// Sessions of `ids` whose expiry is what a leave gives (within the resume grace from now).
async fn left(pool: &PgPool, app: &TestApp, ids: &[String]) -> i64 {
    sqlx::query_scalar("select count(*) from consult_sessions where id = any($1) and expires_at <= now() + $2 * interval '1 millisecond'")
        .bind(ids)
        .bind(app.state.consult.config.resume_grace.as_millis() as f64)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_burst_of_sockets_on_a_pool_of_two_connections_has_every_join_and_leave_recorded(pool: PgPool) {
    // the api gets two connections, and the test holds one of them during the burst
    let two = two_connections(&pool).await;
    let app = TestApp::spawn(two.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let mut ids = Vec::new();
    for _ in 0..300 {
        ids.push(open_session(&app, &anna).await.0);
    }
    // as if every socket had dropped a while ago: an hour left, not the four hours a join gives
    sqlx::query("update consult_sessions set expires_at = now() + interval '1 hour'").execute(&pool).await.unwrap();
    assert_eq!(joined(&pool, &app, &ids).await, 0);
    let held = two.acquire().await.unwrap();

    let sockets = futures::future::join_all(ids.iter().map(|id| ready_socket(&app, &anna, id))).await;
    assert_eq!(joined(&pool, &app, &ids).await, 300, "every join is recorded");
    assert_eq!(app.state.consult.presence.held(), 300);

    drop(sockets);
    nothing_left(&app).await;
    assert_eq!(left(&pool, &app, &ids).await, 300, "every leave is recorded");
    assert_eq!(app.state.consult.presence.held(), 0);
    drop(held);
}

#[sqlx::test(migrations = "../migrations")]
async fn without_a_database_connection_a_socket_is_refused_as_busy_and_joins_when_it_tries_again(pool: PgPool) {
    let two = two_connections(&pool).await;
    let app = TestApp::spawn(two.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    sqlx::query("update consult_sessions set expires_at = now() + interval '1 hour'").execute(&pool).await.unwrap();

    // both connections are taken: the join cannot be written within its wait
    let held = (two.acquire().await.unwrap(), two.acquire().await.unwrap());
    let mut socket = connect(&app, &format!("/ws/speech/consult/{sid}"), Some(&anna)).await;
    let busy = next_json(&mut socket).await;
    assert_eq!((busy["type"].as_str(), busy["code"].as_str()), (Some("error"), Some("busy")), "{busy}");
    assert!(busy["retryAfter"].as_u64().is_some_and(|s| (1..=10).contains(&s)), "{busy}");
    assert_eq!(closed_with(&mut socket).await.0, 1013);
    assert_eq!(joined(&pool, &app, std::slice::from_ref(&sid)).await, 0);
    assert_eq!(app.state.consult.presence.held(), 0, "a refused socket holds nothing");

    // the page tries again once the database has room, and joins
    drop(held);
    let (mut socket, _) = ready_socket(&app, &anna, &sid).await;
    assert_eq!(joined(&pool, &app, std::slice::from_ref(&sid)).await, 1);
    socket.close(None).await.unwrap();
    nothing_left(&app).await;
    assert_eq!(left(&pool, &app, std::slice::from_ref(&sid)).await, 1);
}

/// Redis answers nothing for longer than a reply may take (`DEBUG SLEEP` past the connection's
/// 5 s): the sentence spoken meanwhile is tried again and kept once, after the one before it,
/// although the attempt that timed out was carried out when Redis woke; and the transcript's life
/// is still cut to the grace when the socket ends.
#[tokio::test]
async fn a_sentence_finished_while_redis_does_not_answer_is_kept_once() {
    use api::consult::transcripts::Transcripts;
    use integrations::speech::Speaker;

    let server = common::redis_server::RedisServer::start().await;
    let client = redis::Client::open(server.url()).unwrap();
    let mut conn = jobs::redis_conn::connection_manager(&client).await.unwrap();
    let transcripts = Transcripts::new("kept-once");
    let ttl = Duration::from_secs(60);
    let first = transcripts.append(&mut conn, "s1", "Ik heb al drie dagen hoofdpijn.", Some(Speaker::Patient), ttl).await.unwrap();
    assert_eq!(first.idx, 0);

    let mut sleeper = server.connection().await;
    // (the sleeper's own connection gives up on its answer long before; the server sleeps on)
    let sleeping = tokio::spawn(async move { redis::cmd("DEBUG").arg("SLEEP").arg(7).query_async::<()>(&mut sleeper).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let asked = std::time::Instant::now();
    let second = transcripts.append(&mut conn, "s1", "Waar zit de pijn precies?", Some(Speaker::Zorgverlener), ttl).await.unwrap();
    assert!(asked.elapsed() > Duration::from_secs(5), "Redis was asleep past the first attempt's 5 s: {:?}", asked.elapsed());
    let _ = sleeping.await;
    assert_eq!(second.idx, 1);

    let lines = transcripts.all(&mut conn, "s1").await.unwrap();
    let sentences: Vec<&str> = lines.iter().map(|l| l.sentence.as_str()).collect();
    assert_eq!(sentences, ["Ik heb al drie dagen hoofdpijn.", "Waar zit de pijn precies?"]);
    assert_eq!(lines[1].speaker, Some(Speaker::Zorgverlener));
    // the engine's own speaker is told to the summary as it is
    assert!(!lines[1].guessed);
    assert_eq!(lines[1].clone().told().speaker, Some(Speaker::Zorgverlener));
    let ttl_left: i64 = redis::cmd("PTTL").arg("kept-once:speech:s1:lines").query_async(&mut conn).await.unwrap();
    assert!(ttl_left > 0, "the transcript still ends: {ttl_left}");

    // the socket's end pulls the transcript's life forward to the resume grace, also when Redis
    // sleeps through the first attempt
    let mut sleeper = server.connection().await;
    let sleeping = tokio::spawn(async move { redis::cmd("DEBUG").arg("SLEEP").arg(6).query_async::<()>(&mut sleeper).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    transcripts.keep_for(&mut conn, "s1", Duration::from_secs(5)).await.unwrap();
    let _ = sleeping.await;
    let ttl_left: i64 = redis::cmd("PTTL").arg("kept-once:speech:s1:lines").query_async(&mut conn).await.unwrap();
    assert!((1..=5_000).contains(&ttl_left), "the grace, not the session's life: {ttl_left} ms");
}

/// With every live place of the process taken, one more socket is refused as busy with a retry
/// delay, holds nothing, and gets in once a place is free again.
#[sqlx::test(migrations = "../migrations")]
async fn past_the_process_s_live_places_a_socket_is_refused_as_busy_until_one_is_free(pool: PgPool) {
    let app = TestApp::spawn_with(pool.clone(), Options { env: vec![("APP_SPEECH_MAX_SESSIONS", "1".into())], ..Default::default() }).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;
    let (first, _) = open_session(&app, &anna).await;
    let (second, _) = open_session(&app, &bram).await;
    sqlx::query("update consult_sessions set expires_at = now() + interval '1 hour'").execute(&pool).await.unwrap();

    let (mut held, _) = ready_socket(&app, &anna, &first).await;
    assert_eq!(app.state.consult.places.free(), 0);
    let mut socket = connect(&app, &format!("/ws/speech/consult/{second}"), Some(&bram)).await;
    let busy = next_json(&mut socket).await;
    assert_eq!((busy["type"].as_str(), busy["code"].as_str()), (Some("error"), Some("busy")), "{busy}");
    assert_eq!(busy["retryAfter"].as_u64(), Some(api::consult::service::FULL_RETRY_AFTER), "{busy}");
    assert_eq!(closed_with(&mut socket).await.0, 1013);
    assert_eq!(joined(&pool, &app, std::slice::from_ref(&second)).await, 0, "a refused socket joins nothing");

    held.close(None).await.unwrap();
    nothing_left(&app).await;
    assert_eq!(app.state.consult.places.free(), 1, "a socket that is gone gives its place back");
    let (mut socket, _) = ready_socket(&app, &bram, &second).await;
    assert_eq!(joined(&pool, &app, std::slice::from_ref(&second)).await, 1);
    socket.close(None).await.unwrap();
    nothing_left(&app).await;
}
