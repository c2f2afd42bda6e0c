//! Template entries and groups: who sees and changes what, search, pagination, duplicates.

mod common;

use common::TestApp;
use reqwest::Method;
use serde_json::{Value, json};
use sqlx::PgPool;

struct Person {
    id: String,
    token: String,
}

async fn person(app: &TestApp, email: &str) -> Person {
    let token = app.access_token_for(email).await;
    let me: Value = app.get_with_token("/api/user/me", &token).await.json().await.unwrap();
    Person { id: me["id"].as_str().unwrap().to_owned(), token }
}

async fn call(app: &TestApp, method: Method, path: &str, who: Option<&Person>, body: Option<Value>) -> (u16, Value) {
    let mut request = app.http.request(method, app.url(path));
    if let Some(who) = who {
        request = request.bearer_auth(&who.token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn create_entry(app: &TestApp, who: &Person, shared: bool, body: Value) -> Value {
    let (status, entry) =
        call(app, Method::PUT, &format!("/api/template/entry?sharedTemplate={shared}"), Some(who), Some(body)).await;
    assert_eq!(status, 201, "{entry}");
    entry
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_access_matrix_of_entries(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let owner = person(&app, "eigenaar@praktijk.nl").await;
    let colleague = person(&app, "collega@praktijk.nl").await;
    let admin = person(&app, "beheerder@praktijk.nl").await;
    let sister = person(&app, "zusterpraktijk@zorggroep.nl").await;
    let stranger = person(&app, "vreemde@elders.nl").await;
    let staff = person(&app, "staff@example.nl").await;

    // a care group with two practices; owner, colleague and admin work at the first
    let group = domain::organisations::create(&pool, "Zorggroep Noord").await.unwrap();
    let practice = domain::organisations::create_level(&pool, group, "Praktijk De Linde").await.unwrap();
    let other_practice = domain::organisations::create_level(&pool, group, "Praktijk Het Anker").await.unwrap();
    for (who, is_admin) in [(&owner, false), (&colleague, false), (&admin, true)] {
        domain::organisations::add_member(&pool, practice, &who.id, is_admin).await.unwrap();
    }
    domain::organisations::add_member(&pool, other_practice, &sister.id, false).await.unwrap();

    let private = create_entry(&app, &owner, false, json!({"title": "Eigen", "soepType": "PLAN"})).await;
    let public = create_entry(&app, &owner, true, json!({"title": "Voor iedereen", "soepType": "SUBJECTIVE"})).await;
    let practice_entry = create_entry(
        &app,
        &owner,
        false,
        json!({"title": "Praktijk", "soepType": "OBJECTIVE", "permissions": [{"organizationLevel": {"organizationName": "Praktijk De Linde"}}]}),
    )
    .await;
    let care_group_entry = create_entry(
        &app,
        &owner,
        false,
        json!({"title": "Zorggroep", "soepType": "PLAN", "permissions": [{"organizationName": "Zorggroep Noord"}]}),
    )
    .await;
    assert_eq!(private["visibilityType"], "PRIVATE");
    assert_eq!(public["visibilityType"], "PUBLIC");
    assert_eq!(practice_entry["permissions"], json!([{"organizationLevel": {"organizationName": "Praktijk De Linde"}}]));
    assert_eq!(private["owner"]["id"], owner.id.as_str());
    assert_eq!(private["canEdit"], true);

    let path = |e: &Value| format!("/api/template/entry/{}", e["id"].as_str().unwrap());
    // (who, entry, may read, may write)
    let matrix: Vec<(&Person, &Value, bool, bool)> = vec![
        (&owner, &private, true, true),
        (&stranger, &private, false, false),
        (&colleague, &private, false, false),
        (&staff, &private, true, true),
        (&stranger, &public, true, false),
        (&colleague, &practice_entry, true, false),
        (&admin, &practice_entry, true, true),
        (&sister, &practice_entry, false, false),
        (&stranger, &practice_entry, false, false),
        (&sister, &care_group_entry, true, false),
        (&admin, &care_group_entry, true, true),
        (&stranger, &care_group_entry, false, false),
    ];
    for (who, entry, may_read, may_write) in matrix {
        let (status, body) = call(&app, Method::GET, &path(entry), Some(who), None).await;
        if may_read {
            assert_eq!(status, 200, "{} reads {}", who.id, entry["title"]);
            assert_eq!(body["canEdit"], may_write, "{} canEdit {}", who.id, entry["title"]);
        } else {
            assert_eq!(status, 403, "{} reads {}", who.id, entry["title"]);
            assert_eq!(body["message"], "Geen toegang tot template");
        }
        let (status, _) = call(&app, Method::POST, &path(entry), Some(who), Some(json!({"text": "gewijzigd"}))).await;
        let expected = if may_write { 200 } else { 403 };
        assert_eq!(status, expected, "{} changes {}", who.id, entry["title"]);
    }

    // lists show what a user may read
    let (_, listed) = call(&app, Method::GET, "/api/template/entry/query?limit=100", Some(&sister), None).await;
    let mut seen = ids(&listed);
    seen.sort();
    let mut expected = vec![public["id"].as_str().unwrap().to_owned(), care_group_entry["id"].as_str().unwrap().to_owned()];
    expected.sort();
    assert_eq!(seen, expected);
    let (_, own) = call(&app, Method::GET, "/api/template/entry/count?userTemplates=true", Some(&owner), None).await;
    assert_eq!(own, 4);
    let (_, none) = call(&app, Method::GET, "/api/template/entry/count?userTemplates=true", Some(&stranger), None).await;
    assert_eq!(none, 0);

    // deleting: not by a reader, yes by the organisation's admin
    let (status, _) = call(&app, Method::DELETE, &path(&practice_entry), Some(&colleague), None).await;
    assert_eq!(status, 403);
    let (status, _) = call(&app, Method::DELETE, &path(&practice_entry), Some(&admin), None).await;
    assert_eq!(status, 204);
    let (status, body) = call(&app, Method::GET, &path(&practice_entry), Some(&owner), None).await;
    assert_eq!((status, body["message"].as_str()), (404, Some("Template niet gevonden")));

    // no token, unknown ids
    let (status, _) = call(&app, Method::GET, &path(&public), None, None).await;
    assert_eq!(status, 401);
    for missing in ["/api/template/entry/00000000-0000-0000-0000-000000000000", "/api/template/entry/geen-id"] {
        let (status, _) = call(&app, Method::GET, missing, Some(&owner), None).await;
        assert_eq!(status, 404, "{missing}");
    }
    // sharing with an organisation one does not belong to is refused
    let (status, body) = call(
        &app,
        Method::PUT,
        "/api/template/entry?sharedTemplate=false",
        Some(&stranger),
        Some(json!({"soepType": "PLAN", "permissions": [{"organizationName": "Zorggroep Noord"}]})),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["message"], "Onbekende organisatie of gebruiker: Zorggroep Noord");
}

#[sqlx::test(migrations = "../migrations")]
async fn groups_hold_ordered_entries_and_follow_the_same_rules(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let owner = person(&app, "eigenaar@praktijk.nl").await;
    let stranger = person(&app, "vreemde@elders.nl").await;
    let a = create_entry(&app, &owner, true, json!({"title": "A", "soepType": "PLAN", "codes": ["K86"]})).await;
    let b = create_entry(&app, &owner, true, json!({"title": "B", "soepType": "PLAN"})).await;
    let hidden = create_entry(&app, &owner, false, json!({"title": "Verborgen", "soepType": "PLAN"})).await;

    let (status, group) = call(
        &app,
        Method::PUT,
        "/api/template/group?sharedTemplate=true",
        Some(&owner),
        Some(json!({"title": "Hypertensie", "description": "Controle", "entries": [{"id": b["id"]}, {"id": a["id"]}, {"id": b["id"]}, {"id": hidden["id"]}]})),
    )
    .await;
    assert_eq!(status, 201, "{group}");
    assert_eq!(ids(&group["entries"]), vec![b["id"].as_str().unwrap(), a["id"].as_str().unwrap(), hidden["id"].as_str().unwrap()], "the repeated entry is ignored");
    let path = format!("/api/template/group/{}", group["id"].as_str().unwrap());

    // another user sees the public group, but not the private entry in it, and cannot change it
    let (status, seen) = call(&app, Method::GET, &path, Some(&stranger), None).await;
    assert_eq!(status, 200);
    assert_eq!(ids(&seen["entries"]), vec![b["id"].as_str().unwrap(), a["id"].as_str().unwrap()]);
    assert_eq!(seen["canEdit"], false);
    let (status, _) = call(&app, Method::POST, &path, Some(&stranger), Some(json!({"title": "Van mij"}))).await;
    assert_eq!(status, 403);
    // nor put a private entry of someone else in a group of their own
    let (status, body) = call(
        &app,
        Method::PUT,
        "/api/template/group?sharedTemplate=false",
        Some(&stranger),
        Some(json!({"title": "Mijn groep", "entries": [{"id": hidden["id"]}]})),
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("Onbekende template entry"));

    // someone who may change the group but not see an entry in it keeps that entry when saving
    let staff = person(&app, "staff@example.nl").await;
    let (status, _) = call(&app, Method::POST, &path, Some(&staff), Some(json!({"entries": [{"id": a["id"]}, {"id": b["id"]}]}))).await;
    assert_eq!(status, 200);
    let (_, kept) = call(&app, Method::GET, &path, Some(&owner), None).await;
    assert_eq!(ids(&kept["entries"]), vec![a["id"].as_str().unwrap(), b["id"].as_str().unwrap(), hidden["id"].as_str().unwrap()]);

    // the owner reorders and removes
    let (status, changed) = call(&app, Method::POST, &path, Some(&owner), Some(json!({"entries": [{"id": a["id"]}]}))).await;
    assert_eq!(status, 200);
    assert_eq!(ids(&changed["entries"]), vec![a["id"].as_str().unwrap()]);
    assert_eq!(changed["title"], "Hypertensie", "fields left out stay");

    // the icpc filter finds groups with an entry of that code
    let (_, found) = call(&app, Method::GET, "/api/template/group/query?icpc=k86", Some(&stranger), None).await;
    assert_eq!(ids(&found), vec![group["id"].as_str().unwrap()]);
    let (_, found) = call(&app, Method::GET, "/api/template/group/query?icpc=T90", Some(&stranger), None).await;
    assert_eq!(found, json!([]));
    let (_, count) = call(&app, Method::GET, "/api/template/group/count?icpc=K86", Some(&stranger), None).await;
    assert_eq!(count, 1);

    // deleting an entry takes it out of the group; deleting the group keeps the entries
    call(&app, Method::DELETE, &format!("/api/template/entry/{}", a["id"].as_str().unwrap()), Some(&owner), None).await;
    let (_, after) = call(&app, Method::GET, &path, Some(&owner), None).await;
    assert_eq!(after["entries"], json!([]));
    let (status, _) = call(&app, Method::DELETE, &path, Some(&owner), None).await;
    assert_eq!(status, 204);
    let (status, _) = call(&app, Method::GET, &format!("/api/template/entry/{}", b["id"].as_str().unwrap()), Some(&owner), None).await;
    assert_eq!(status, 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn search_ignores_case_and_accents_and_needs_every_word(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let me = person(&app, "zoeker@praktijk.nl").await;
    let knee = create_entry(&app, &me, false, json!({"title": "Knieklachten", "description": "Na val", "text": "Zwelling en pijn bij flexie", "soepType": "SUBJECTIVE"})).await;
    let eczema = create_entry(&app, &me, false, json!({"title": "Eczeem", "description": "Cremes", "text": "Ëczeem aan beide handen, crème 2x daags", "soepType": "PLAN"})).await;
    create_entry(&app, &me, false, json!({"title": "Griep", "text": "Koorts en spierpijn", "soepType": "SUBJECTIVE"})).await;

    let find = |q: &str| {
        let q = q.to_owned();
        let app = &app;
        let me = &me;
        async move {
            let (_, list) = call(app, Method::GET, &format!("/api/template/entry/query?limit=100&query={}", urlencode(&q)), Some(me), None).await;
            let (_, count) = call(app, Method::GET, &format!("/api/template/entry/count?query={}", urlencode(&q)), Some(me), None).await;
            assert_eq!(count.as_u64().unwrap() as usize, list.as_array().unwrap().len(), "count and query agree for {q}");
            ids(&list)
        }
    };
    let knee_id = knee["id"].as_str().unwrap().to_owned();
    let eczema_id = eczema["id"].as_str().unwrap().to_owned();
    assert_eq!(find("KNIE").await, vec![knee_id.clone()]);
    assert_eq!(find("zwelling flexie").await, vec![knee_id.clone()]);
    assert_eq!(find("zwelling koorts").await, Vec::<String>::new(), "every word must occur");
    assert_eq!(find("CRÈME eczeem").await, vec![eczema_id.clone()]);
    assert_eq!(find("creme handen").await, vec![eczema_id.clone()], "accents aside");
    assert_eq!(find("na val").await, vec![knee_id], "the description counts");
    assert_eq!(find("100%").await, Vec::<String>::new(), "like wildcards are plain text");
    assert_eq!(find("").await.len(), 3);
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn pages_never_repeat_or_skip_rows_with_equal_titles(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let me = person(&app, "pagineer@praktijk.nl").await;
    let mut created = Vec::new();
    for i in 0..12 {
        let title = if i % 3 == 0 { "Anders".to_owned() } else { "Zelfde titel".to_owned() };
        created.push(create_entry(&app, &me, false, json!({"title": title, "text": format!("{i}"), "soepType": "PLAN"})).await["id"].as_str().unwrap().to_owned());
    }
    let (_, total) = call(&app, Method::GET, "/api/template/entry/count?userTemplates=true", Some(&me), None).await;
    assert_eq!(total, 12);
    let mut paged = Vec::new();
    for offset in [0, 5, 10] {
        let (_, page) =
            call(&app, Method::GET, &format!("/api/template/entry/query?userTemplates=true&limit=5&offset={offset}"), Some(&me), None).await;
        paged.extend(ids(&page));
    }
    assert_eq!(paged.len(), 12);
    let mut unique = paged.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 12, "no row twice");
    created.sort();
    assert_eq!(unique, created, "none skipped");
    // and the same pages again in the same order
    let (_, first) = call(&app, Method::GET, "/api/template/entry/query?userTemplates=true&limit=5&offset=0", Some(&me), None).await;
    assert_eq!(ids(&first), paged[..5]);
}

#[sqlx::test(migrations = "../migrations")]
async fn codes_are_checked_and_kept_once_and_soep_types_are_required(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let me = person(&app, "codeur@praktijk.nl").await;
    let entry = create_entry(&app, &me, false, json!({"soepType": "plan", "codes": ["K86", "k86", " T90 "]})).await;
    assert_eq!(entry["codes"], json!(["K86", "T90"]));
    assert_eq!(entry["soepType"], "PLAN");
    let path = format!("/api/template/entry/{}", entry["id"].as_str().unwrap());
    let (status, changed) = call(&app, Method::POST, &path, Some(&me), Some(json!({"codes": ["T90", "K86", "T90", "R74"]}))).await;
    assert_eq!(status, 200);
    assert_eq!(changed["codes"], json!(["T90", "K86", "R74"]));

    let (status, body) = call(&app, Method::POST, &path, Some(&me), Some(json!({"codes": ["Q99"]}))).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Onbekende ICPC-code: Q99")));
    let (status, body) = call(&app, Method::PUT, "/api/template/entry?sharedTemplate=false", Some(&me), Some(json!({"title": "Zonder type"}))).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Kies Plan, Objectief of Subjectief.")));
    let (status, _) = call(&app, Method::POST, &path, Some(&me), Some(json!({"soepType": "DIAGNOSE"}))).await;
    assert_eq!(status, 400);
    let (status, body) = call(&app, Method::POST, &path, Some(&me), Some(json!({"title": "x".repeat(201)}))).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("De titel is te lang (hoogstens 200 tekens).")));
    let (_, unchanged) = call(&app, Method::GET, &path, Some(&me), None).await;
    assert_eq!(unchanged["codes"], json!(["T90", "K86", "R74"]), "a refused change changes nothing");
}
