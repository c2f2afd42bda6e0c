//! Summaries as jobs: from the socket's `summarize` through the worker back to the same socket
//! and to `GET /api/jobs/{id}`; the summary calls; the clinician's examples; a failing language
//! model.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::routing::post;
use common::{Options, Socket, TestApp, next_json, next_of, open_session, socket};
use futures::SinkExt;
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio_tungstenite::tungstenite::Message;

const CONSULT: &str = "Goedemorgen, wat kan ik voor u doen? Ik heb al drie dagen keelpijn en ik slik moeilijk. \
    Heeft u koorts gehad? Nee, geen koorts. Ik kijk even in uw keel. De keel is rood, de amandelen zijn niet gezwollen. \
    Temperatuur 37,2. Het is waarschijnlijk een virale keelontsteking. U mag paracetamol nemen, drie keer per dag 1000 mg. \
    Als het na een week niet beter is, komt u terug.";

/// Opens a session and its socket for `token`, waits for `ready` and asks for a SOEP note of
/// [`CONSULT`]; the socket, to hear what follows.
async fn summarize_on_a_socket(app: &TestApp, token: &str) -> Socket {
    let (sid, _) = open_session(app, token).await;
    let mut ws = socket(app, token, &sid).await;
    next_of(&mut ws, "ready").await;
    ws.send(Message::Text(json!({"type": "summarize", "request": {"template": "soap", "transcript": CONSULT}}).to_string().into()))
        .await
        .unwrap();
    ws
}

#[sqlx::test(migrations = "../migrations")]
async fn a_summary_asked_on_the_socket_comes_back_on_it_and_through_the_job(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[]);
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;
    let (sid, consult) = open_session(&app, &anna).await;
    let mut ws = socket(&app, &anna, &sid).await;
    next_of(&mut ws, "ready").await;

    ws.send(Message::Text(
        json!({"type": "summarize", "request": {"template": "soap", "episodeCount": 1, "transcript": CONSULT}}).to_string().into(),
    ))
    .await
    .unwrap();
    let queued = next_of(&mut ws, "job").await;
    assert_eq!(queued["state"], "queued");
    let job_id = queued["id"].as_str().unwrap().to_owned();
    // A state heard on the socket is committed: the job's row, read the moment the message
    // arrives, is in that state or past it (the socket once said `succeeded` while the row still
    // said `running`, because the event went out before the outcome was written).
    let committed = |announced: &str, recorded: &str| {
        let rank = |s: &str| match s {
            "queued" => 0,
            "running" | "retrying" => 1,
            _ => 2,
        };
        assert!(rank(recorded) >= rank(announced), "the socket said {announced} while the job's row said {recorded}");
    };
    let (mut summary, mut done) = (None, false);
    while summary.is_none() || !done {
        let message = next_json(&mut ws).await;
        let announced = match message["type"].as_str() {
            Some("job") => message["state"].as_str().unwrap().to_owned(),
            Some("summarization") => "succeeded".to_owned(),
            _ => continue,
        };
        let row: Value = app.get_with_token(&format!("/api/jobs/{job_id}"), &anna).await.json().await.unwrap();
        committed(&announced, row["state"].as_str().unwrap());
        if message["type"] == "summarization" {
            summary = Some(message);
        } else if announced == "succeeded" {
            done = true;
        } else {
            assert_eq!(announced, "running", "{message}");
        }
    }
    let summary = summary.expect("the note came");
    assert_eq!(summary["template"], "soap");
    assert_eq!(summary["jobId"], job_id.as_str());
    let episode = &summary["result"]["episodes"][0];
    for part in ["subjective", "objective", "diagnosis", "plan"] {
        assert!(!episode[part].as_str().unwrap().is_empty(), "{part} is filled: {episode}");
    }
    assert!(episode["subjective"].as_str().unwrap().contains("keelpijn"), "{episode}");
    assert!(episode["objective"].as_str().unwrap().contains("37,2"), "{episode}");
    assert!(episode["plan"].as_str().unwrap().to_lowercase().contains("paracetamol"), "{episode}");

    // pollable: the owner gets the note through the job, anyone else not the job at all
    let view: Value = app.get_with_token(&format!("/api/jobs/{job_id}"), &anna).await.json().await.unwrap();
    assert_eq!(view["state"], "succeeded");
    assert_eq!(view["result"]["note"], summary["result"]);
    assert_eq!(view["result"]["engine"], "rules");
    assert_eq!(view["result"]["consultId"], consult.as_str());
    assert_eq!(app.get_with_token(&format!("/api/jobs/{job_id}"), &bram).await.status(), 404);
    // and kept with the consult
    let stored: Value = app.get_with_token(&format!("/api/consult/{consult}"), &anna).await.json().await.unwrap();
    assert_eq!(stored["content"]["result"], summary["result"]);
    assert_eq!(stored["content"]["template"], "soap");
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_summary_calls_answer_with_a_list_whose_first_item_holds_the_episodes(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[]);
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let call = |path: &str, body: reqwest::Body, json: bool| {
        let mut request = app.http.post(app.url(path)).bearer_auth(&anna).body(body);
        request = request.header("content-type", if json { "application/json" } else { "text/plain" });
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    for (path, route, size, precision) in [
        ("/api/audio/consult/generative/v1?episodeCount=1&flavour=normal", "v1", "large", "high"),
        ("/api/audio/consult/generative/v2?episodeCount=1", "v2", "medium", "medium"),
        ("/api/audio/consult/generative/v2-turbo?flavour=poh-ggz", "v2-turbo", "small", "medium"),
    ] {
        let (status, body) = call(path, CONSULT.into(), false).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert!(body[0]["episodes"][0]["plan"].as_str().unwrap().to_lowercase().contains("paracetamol"), "{path}: {body}");
        let request: Value =
            sqlx::query_scalar("select request from summaries where route = $1").bind(route).fetch_one(&pool).await.unwrap();
        assert_eq!((request["modelSize"].as_str(), request["precision"].as_str()), (Some(size), Some(precision)), "{route}");
    }
    let flavour: Value =
        sqlx::query_scalar("select request->'flavour' from summaries where route = 'v2-turbo'").fetch_one(&pool).await.unwrap();
    assert_eq!(flavour, "poh-ggz");

    // every flavour the document offers is taken, the empty one (normal) included
    let document: Value = serde_json::from_str(&api::openapi::document()).unwrap();
    let offered: Vec<&str> =
        document["components"]["schemas"]["FlavourParam"]["enum"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(offered, ["", "normal", "poh-ggz", "kinderarts-allergoloog", "kinderarts-orthopeed"]);
    for flavour in offered {
        let (status, body) = call(&format!("/api/audio/consult/generative/v2-turbo?flavour={flavour}"), CONSULT.into(), false).await;
        assert_eq!(status, 200, "flavour={flavour}: {body}");
    }

    // a JSON string body is a transcript too; examples come in the JSON body of withExamples
    let (status, body) = call("/api/audio/consult/generative/v2", serde_json::to_string(CONSULT).unwrap().into(), true).await;
    assert_eq!(status, 200, "{body}");
    let with_examples = json!({"transcript": CONSULT, "examples": [{"subjective": "Keelpijn 3d", "objective": "Keel rood", "evaluation": "Faryngitis", "plan": "1. Paracetamol\n2. Controle na 1 week"}]});
    let (status, body) = call("/api/audio/consult/generative/v1/withExamples?episodeCount=1", with_examples.to_string().into(), true).await;
    assert_eq!(status, 200, "{body}");
    assert!(body[0]["episodes"][0]["plan"].as_str().unwrap().starts_with("1. "), "the example's numbered plan: {body}");
    let (status, body) = call("/api/electronic/consult/generative", json!({"text": CONSULT}).to_string().into(), true).await;
    assert_eq!(status, 200, "{body}");
    let source: String =
        sqlx::query_scalar("select c.source from summaries s join consults c on c.id = s.consult_id where s.route = 'electronic'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(source, "electronic");

    // nothing to summarise, or a bad parameter: a Dutch refusal and no job
    let jobs_before: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'summarise_consult'").fetch_one(&pool).await.unwrap();
    let (status, body) = call("/api/audio/consult/generative/v2", "  ".into(), false).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Er is nog geen transcript om samen te vatten.")));
    let (status, body) = call("/api/audio/consult/generative/v1?flavour=tandarts", CONSULT.into(), false).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_flavour")));
    // the query's hint wins over the body's, but a body's hint past the limit is refused all the same
    let long = json!({"transcript": CONSULT, "userSuggestion": "x".repeat(1001)});
    let (status, body) = call("/api/audio/consult/generative/v1/withExamples?userSuggestion=kort", long.to_string().into(), true).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("suggestion_too_long")), "{body}");
    let (status, body) = call("/api/audio/consult/generative/v2?episodeCount=11", CONSULT.into(), false).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_episode_count")));
    let (status, _) = call("/api/electronic/consult/generative", json!({"text": ""}).to_string().into(), true).await;
    assert_eq!(status, 400);
    let jobs_after: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'summarise_consult'").fetch_one(&pool).await.unwrap();
    assert_eq!(jobs_before, jobs_after);
    let electronic_consults: i64 =
        sqlx::query_scalar("select count(*) from consults where source = 'electronic'").fetch_one(&pool).await.unwrap();
    assert_eq!(electronic_consults, 1, "a refused e-consult is not kept");
    assert_eq!(app.http.post(app.url("/api/audio/consult/generative/v2")).body(CONSULT).send().await.unwrap().status(), 401);
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_summary_call_that_outlasts_its_wait_answers_202_with_the_job(pool: PgPool) {
    let options = Options { env: vec![("APP_SUMMARY_WAIT", "300ms".into())], ..Default::default() };
    let app = TestApp::spawn_with(pool.clone(), options).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let response = app.http.post(app.url("/api/audio/consult/generative/v2")).bearer_auth(&anna).body(CONSULT).send().await.unwrap();
    assert_eq!(response.status(), 202);
    let accepted: Value = response.json().await.unwrap();
    let job = accepted["jobId"].as_str().unwrap().to_owned();

    // no worker yet: it waits; with one, it is done
    let worker = app.start_worker(&[]);
    let mut view = Value::Null;
    for _ in 0..200 {
        view = app.get_with_token(&format!("/api/jobs/{job}"), &anna).await.json().await.unwrap();
        if view["state"] == "succeeded" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(view["state"], "succeeded", "{view}");
    assert!(view["result"]["note"]["episodes"][0]["plan"].as_str().unwrap().to_lowercase().contains("paracetamol"));
    worker.stop().await;
}

/// A chat-completions double: answers with the queued contents, records the requests.
#[derive(Clone, Default)]
struct Llm {
    answers: Arc<Mutex<Vec<String>>>,
    requests: Arc<Mutex<Vec<Value>>>,
}

async fn completions(State(llm): State<Llm>, Json(body): Json<Value>) -> Json<Value> {
    llm.requests.lock().unwrap().push(body);
    let content = {
        let mut answers = llm.answers.lock().unwrap();
        if answers.len() > 1 { answers.remove(0) } else { answers[0].clone() }
    };
    Json(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1_763_700_000, "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
    }))
}

async fn llm_double(answers: Vec<String>) -> (String, Llm) {
    let llm = Llm { answers: Arc::new(Mutex::new(answers)), ..Default::default() };
    let app = axum::Router::new().route("/v1/chat/completions", post(completions)).with_state(llm.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, llm)
}

#[sqlx::test(migrations = "../migrations")]
async fn the_language_model_gets_the_clinicians_own_examples_and_a_useless_answer_fails_in_dutch(pool: PgPool) {
    let good = json!({"episodes": [{"subjective": "Keelpijn sinds 3d.", "objective": "Keel rood. T 37,2.", "diagnosis": "Virale faryngitis.", "plan": "Paracetamol 3dd 1000 mg."}]}).to_string();
    let (url, llm) = llm_double(vec![good]).await;
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[("APP_LLM_URL", &url), ("APP_LLM_MODEL", "test-model")]);
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let saved = json!({"subjective": "Hoest 1w; geen koorts", "objective": "Pulm: VAG", "evaluation": "Acute bronchitis", "plan": "1. Uitleg beloop"});
    app.http.post(app.url("/api/user/personalized/soap")).bearer_auth(&anna).json(&saved).send().await.unwrap();

    let response = app.http.post(app.url("/api/audio/consult/generative/v2")).bearer_auth(&anna).body(CONSULT).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let notes: Value = response.json().await.unwrap();
    assert_eq!(notes[0]["episodes"][0]["diagnosis"], "Virale faryngitis.");
    let sent = llm.requests.lock().unwrap()[0].to_string();
    assert!(sent.contains("Hoest 1w; geen koorts") && sent.contains("1. Uitleg beloop"), "the saved example is a few-shot pair");
    assert!(sent.contains("keelpijn"), "the transcript went along");

    // an answer that stays unusable: the job fails with the summariser's Dutch message
    *llm.answers.lock().unwrap() = vec!["geen json".to_owned()];
    let mut ws = summarize_on_a_socket(&app, &anna).await;
    let failed = loop {
        let job = next_of(&mut ws, "job").await;
        if job["state"] == "failed" {
            break job;
        }
    };
    assert!(failed["message"].as_str().unwrap().starts_with("De samenvatting kon niet worden gemaakt"), "{failed}");
    let response = app.http.post(app.url("/api/audio/consult/generative/v2")).bearer_auth(&anna).body(CONSULT).send().await.unwrap();
    assert_eq!(response.status(), 502);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"], "summary_failed");
    worker.stop().await;
}

/// The runner decides a job's state and the socket hears that state: a summariser out of reach
/// is retried, and after the last attempt the job is `dead` on the socket as in its row (the
/// kind once announced `failed` while the row said `dead`).
#[sqlx::test(migrations = "../migrations")]
async fn a_summariser_out_of_reach_ends_dead_and_the_socket_says_so_as_the_row_does(pool: PgPool) {
    // a port that was just free: nothing listens there, so every call is refused
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let url = format!("http://{closed}/v1");
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[("APP_LLM_URL", &url), ("APP_LLM_MODEL", "test-model")]);
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let mut ws = summarize_on_a_socket(&app, &anna).await;
    let mut heard = Vec::new();
    let dead = loop {
        let job = next_of(&mut ws, "job").await;
        let state = job["state"].as_str().unwrap().to_owned();
        assert_ne!(state, "failed", "a retryable error never ends `failed`: {job}");
        heard.push(state);
        if job["state"] == "dead" {
            break job;
        }
    };
    assert_eq!(dead["message"], "De samenvatter is niet bereikbaar.", "{dead}");
    assert_eq!(heard.iter().filter(|s| *s == "retrying").count(), 2, "{heard:?}");
    let view: Value = app.get_with_token(&format!("/api/jobs/{}", dead["id"].as_str().unwrap()), &anna).await.json().await.unwrap();
    assert_eq!((view["state"].as_str(), view["attempts"].as_i64()), (Some("dead"), Some(3)), "{view}");
    assert!(view["result"].is_null(), "{view}");
    worker.stop().await;
}

/// An Ollama still pulling its model: 404 as `openai.NewError` wraps `ChatHandler`'s "model 'X'
/// not found" (ollama `fb30760`, `server/routes.go:2485`, `openai/openai.go:225-237`) for the
/// first `pulling` requests, then the note.
#[derive(Clone)]
struct PullingOllama {
    pulling: Arc<Mutex<usize>>,
    note: String,
}

async fn pulling_completions(State(ollama): State<PullingOllama>, Json(body): Json<Value>) -> axum::response::Response {
    use axum::response::IntoResponse;
    {
        let mut pulling = ollama.pulling.lock().unwrap();
        if *pulling > 0 {
            *pulling -= 1;
            let message = format!("model '{}' not found", body["model"].as_str().unwrap_or_default());
            let error = json!({"error": {"message": message, "type": "not_found_error", "param": null, "code": null}});
            return (axum::http::StatusCode::NOT_FOUND, Json(error)).into_response();
        }
    }
    Json(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1_763_700_000, "model": "qwen2.5:7b-instruct",
        "system_fingerprint": "fp_ollama",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": ollama.note}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
    }))
    .into_response()
}

/// While Ollama is still pulling the model (the first start of the compose stack), the summary
/// waits instead of failing: the socket hears `retrying` with 'Het taalmodel wordt nog geladen; …'
/// as often as the model is missing, more often than the job has attempts, and the note comes
/// once the model is there, on the job's first attempt (the waits used none up).
#[sqlx::test(migrations = "../migrations")]
async fn a_summary_waits_for_a_model_still_being_pulled_and_says_so(pool: PgPool) {
    let note = json!({"episodes": [{"subjective": "Keelpijn sinds 3d.", "objective": "Keel rood.", "diagnosis": "Virale faryngitis.", "plan": "Paracetamol."}]}).to_string();
    let ollama = PullingOllama { pulling: Arc::new(Mutex::new(3)), note };
    let router = axum::Router::new().route("/v1/chat/completions", post(pulling_completions)).with_state(ollama.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });

    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[("APP_LLM_URL", &url), ("APP_LLM_MODEL", "qwen2.5:7b-instruct")]);
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let mut ws = summarize_on_a_socket(&app, &anna).await;
    let (mut waits, mut summary, mut job_id) = (0, None, String::new());
    while summary.is_none() {
        let message = tokio::time::timeout(Duration::from_secs(60), next_json(&mut ws)).await.expect("the summary keeps moving");
        match (message["type"].as_str(), message["state"].as_str()) {
            (Some("job"), Some("retrying")) => {
                assert_eq!(
                    message["message"], "Het taalmodel wordt nog geladen; de samenvatting wordt zo opnieuw geprobeerd.",
                    "{message}"
                );
                waits += 1;
            }
            (Some("job"), Some(state)) => {
                assert!(["queued", "running", "succeeded"].contains(&state), "{message}");
                job_id = message["id"].as_str().unwrap().to_owned();
            }
            (Some("summarization"), _) => summary = Some(message),
            _ => {}
        }
    }
    assert_eq!(waits, 3, "one wait per 404");
    assert_eq!(summary.unwrap()["result"]["episodes"][0]["diagnosis"], "Virale faryngitis.");
    let view: Value = app.get_with_token(&format!("/api/jobs/{job_id}"), &anna).await.json().await.unwrap();
    assert_eq!((view["state"].as_str(), view["attempts"].as_i64()), (Some("succeeded"), Some(1)), "{view}");
    worker.stop().await;
}
