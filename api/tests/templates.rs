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
    let (status, entry) = call(app, Method::PUT, &format!("/api/template/entry?sharedTemplate={shared}"), Some(who), Some(body)).await;
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
    assert_eq!(
        ids(&group["entries"]),
        vec![b["id"].as_str().unwrap(), a["id"].as_str().unwrap(), hidden["id"].as_str().unwrap()],
        "the repeated entry is ignored"
    );
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
    let knee = create_entry(
        &app,
        &me,
        false,
        json!({"title": "Knieklachten", "description": "Na val", "text": "Zwelling en pijn bij flexie", "soepType": "SUBJECTIVE"}),
    )
    .await;
    let eczema = create_entry(
        &app,
        &me,
        false,
        json!({"title": "Eczeem", "description": "Cremes", "text": "Ëczeem aan beide handen, crème 2x daags", "soepType": "PLAN"}),
    )
    .await;
    create_entry(&app, &me, false, json!({"title": "Griep", "text": "Koorts en spierpijn", "soepType": "SUBJECTIVE"})).await;

    let find = |q: &str| {
        let q = q.to_owned();
        let app = &app;
        let me = &me;
        async move {
            let (_, list) =
                call(app, Method::GET, &format!("/api/template/entry/query?limit=100&query={}", urlencode(&q)), Some(me), None).await;
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
        created.push(
            create_entry(&app, &me, false, json!({"title": title, "text": format!("{i}"), "soepType": "PLAN"})).await["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let (_, total) = call(&app, Method::GET, "/api/template/entry/count?userTemplates=true", Some(&me), None).await;
    assert_eq!(total, 12);
    let mut paged = Vec::new();
    for offset in [0, 5, 10] {
        let (_, page) =
            call(&app, Method::GET, &format!("/api/template/entry/query?userTemplates=true&limit=5&offset={offset}"), Some(&me), None)
                .await;
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
    let (status, body) =
        call(&app, Method::PUT, "/api/template/entry?sharedTemplate=false", Some(&me), Some(json!({"title": "Zonder type"}))).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Kies Plan, Objectief of Subjectief.")));
    let (status, _) = call(&app, Method::POST, &path, Some(&me), Some(json!({"soepType": "DIAGNOSE"}))).await;
    assert_eq!(status, 400);
    let (status, body) = call(&app, Method::POST, &path, Some(&me), Some(json!({"title": "x".repeat(201)}))).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("De titel is te lang (hoogstens 200 tekens).")));
    let (_, unchanged) = call(&app, Method::GET, &path, Some(&me), None).await;
    assert_eq!(unchanged["codes"], json!(["T90", "K86", "R74"]), "a refused change changes nothing");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_search_takes_at_most_ten_words_of_two_hundred_characters(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let me = person(&app, "zoeker@praktijk.nl").await;
    create_entry(&app, &me, false, json!({"title": "een twee drie vier vijf zes zeven acht negen tien", "soepType": "PLAN"})).await;
    let ten = "een twee drie vier vijf zes zeven acht negen tien";
    let refusal = json!({"error": "query_too_long", "message": "Zoek op hoogstens 10 woorden (200 tekens)."});
    for path in ["/api/template/entry/query", "/api/template/entry/count", "/api/template/group/query", "/api/template/group/count"] {
        let (status, _) = call(&app, Method::GET, &format!("{path}?query={}", urlencode(ten)), Some(&me), None).await;
        assert_eq!(status, 200, "{path}");
        let eleven = format!("{ten} elf");
        let (status, body) = call(&app, Method::GET, &format!("{path}?query={}", urlencode(&eleven)), Some(&me), None).await;
        assert_eq!((status, &body), (400, &refusal), "{path}");
        // thousands of words are refused just the same, without a query of them
        let many: String = (0..5000).map(|i| format!("w{i} ")).collect();
        let (status, body) = call(&app, Method::GET, &format!("{path}?query={}", urlencode(&many)), Some(&me), None).await;
        assert_eq!((status, &body), (400, &refusal), "{path}");
    }
    // a word repeated counts once, but the characters count all
    let (_, found) =
        call(&app, Method::GET, &format!("/api/template/entry/query?query={}", urlencode(&"tien ".repeat(39))), Some(&me), None).await;
    assert_eq!(found.as_array().unwrap().len(), 1);
    let (status, _) =
        call(&app, Method::GET, &format!("/api/template/entry/query?query={}", urlencode(&"tien ".repeat(41))), Some(&me), None).await;
    assert_eq!(status, 400);
}

#[sqlx::test(migrations = "../migrations")]
async fn every_field_of_a_template_is_bounded_and_kind_is_a_short_code(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let me = person(&app, "schrijver@praktijk.nl").await;
    let entry = create_entry(&app, &me, false, json!({"soepType": "PLAN", "kind": " SOEP_regel-1 "})).await;
    assert_eq!(entry["kind"], "SOEP_regel-1");
    let path = format!("/api/template/entry/{}", entry["id"].as_str().unwrap());
    let refused = |body: Value| {
        let app = &app;
        let me = &me;
        let path = path.clone();
        async move {
            let (status, answer) = call(app, Method::POST, &path, Some(me), Some(body)).await;
            assert_eq!(status, 400, "{answer}");
            (answer["error"].as_str().unwrap().to_owned(), answer["message"].as_str().unwrap().to_owned())
        }
    };
    let (code, message) = refused(json!({"kind": "k".repeat(1_500_000)})).await;
    assert_eq!(
        (code.as_str(), message.as_str()),
        ("invalid_kind", "De soort is een korte code van letters, cijfers, '_' of '-' (hoogstens 50 tekens).")
    );
    assert_eq!(refused(json!({"kind": "twee woorden"})).await.0, "invalid_kind");
    assert_eq!(refused(json!({"kind": "k".repeat(51)})).await.0, "invalid_kind");
    assert_eq!(refused(json!({"title": "t".repeat(201)})).await.1, "De titel is te lang (hoogstens 200 tekens).");
    assert_eq!(refused(json!({"description": "o".repeat(1001)})).await.1, "De omschrijving is te lang (hoogstens 1000 tekens).");
    assert_eq!(refused(json!({"text": "x".repeat(20_001)})).await.1, "De tekst is te lang (hoogstens 20000 tekens).");
    let codes: Vec<String> = domain::icpc::embedded().iter().filter(|c| c.category != "-").take(21).map(|c| c.id()).collect();
    assert_eq!(refused(json!({"codes": codes})).await.1, "Te veel ICPC-codes (hoogstens 20).");
    let permissions: Vec<Value> = (0..51).map(|i| json!({"userId": format!("iemand-{i}")})).collect();
    assert_eq!(refused(json!({"permissions": permissions})).await.1, "Te veel deelrechten (hoogstens 50).");

    // within the bounds all is kept; an empty kind is none
    let (status, kept) = call(
        &app,
        Method::POST,
        &path,
        Some(&me),
        Some(json!({"title": "t".repeat(200), "text": "x".repeat(20_000), "codes": codes[..20], "kind": ""})),
    )
    .await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(kept["codes"].as_array().unwrap().len(), 20);
    assert_eq!(kept["kind"], Value::Null);

    // a group holds at most 100 entries, checked before any is looked up
    let entries: Vec<Value> = (0..101).map(|_| json!({"id": uuid::Uuid::new_v4()})).collect();
    let (status, body) =
        call(&app, Method::PUT, "/api/template/group?sharedTemplate=false", Some(&me), Some(json!({"title": "Groot", "entries": entries})))
            .await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Te veel entries in een groep (hoogstens 100).")));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_plain_lists_come_a_page_at_a_time(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let me = person(&app, "lijst@praktijk.nl").await;
    sqlx::query(
        "insert into template_entries (id, owner_id, title, soep_type, visibility, search, sort_title)
         select gen_random_uuid(), $1, 'Regel ' || lpad(n::text, 3, '0'), 'PLAN', 'PRIVATE', '', 'regel ' || lpad(n::text, 3, '0')
           from generate_series(1, 105) n",
    )
    .bind(&me.id)
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into template_groups (id, owner_id, title, visibility, search, sort_title)
         select gen_random_uuid(), $1, 'Groep ' || lpad(n::text, 2, '0'), 'PRIVATE', '', 'groep ' || lpad(n::text, 2, '0')
           from generate_series(1, 25) n",
    )
    .bind(&me.id)
    .execute(&pool)
    .await
    .unwrap();

    let titles = |list: &Value| list.as_array().unwrap().iter().map(|e| e["title"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    let (status, first) = call(&app, Method::GET, "/api/template/entry", Some(&me), None).await;
    assert_eq!(status, 200);
    assert_eq!(titles(&first).len(), 100, "a page of at most 100");
    assert_eq!(titles(&first)[0], "Regel 001");
    let (_, rest) = call(&app, Method::GET, "/api/template/entry?offset=100&limit=1000", Some(&me), None).await;
    assert_eq!(titles(&rest), ["Regel 101", "Regel 102", "Regel 103", "Regel 104", "Regel 105"]);
    let (_, small) = call(&app, Method::GET, "/api/template/entry?limit=2&offset=3", Some(&me), None).await;
    assert_eq!(titles(&small), ["Regel 004", "Regel 005"]);
    let (_, count) = call(&app, Method::GET, "/api/template/entry/count", Some(&me), None).await;
    assert_eq!(count, 105);

    let (_, groups) = call(&app, Method::GET, "/api/template/group", Some(&me), None).await;
    assert_eq!(titles(&groups).len(), 20, "a page of at most 20 groups");
    let (_, rest) = call(&app, Method::GET, "/api/template/group?offset=20", Some(&me), None).await;
    assert_eq!(titles(&rest).len(), 5);
    let (_, queried) = call(&app, Method::GET, "/api/template/group/query?limit=100", Some(&me), None).await;
    assert_eq!(titles(&queried).len(), 20);
}

#[sqlx::test(migrations = "../migrations")]
async fn others_see_a_templates_owner_by_preferred_name_or_as_collega_never_by_login_name(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let owner = person(&app, "eigenaar@praktijk.nl").await;
    let other = person(&app, "ander@praktijk.nl").await;
    let staff = person(&app, "staff@example.nl").await;
    let entry = create_entry(&app, &owner, true, json!({"title": "Openbaar", "soepType": "PLAN"})).await;
    let entry_path = format!("/api/template/entry/{}", entry["id"].as_str().unwrap());
    let (status, group) = call(
        &app,
        Method::PUT,
        "/api/template/group?sharedTemplate=true",
        Some(&owner),
        Some(json!({"title": "Openbare groep", "entries": [{"id": entry["id"]}]})),
    )
    .await;
    assert_eq!(status, 201);
    let group_path = format!("/api/template/group/{}", group["id"].as_str().unwrap());
    let paths = [
        "/api/template/entry",
        "/api/template/entry/query",
        "/api/template/group",
        "/api/template/group/query",
        entry_path.as_str(),
        group_path.as_str(),
    ];

    let seen_by = |who: &Person| {
        let app = &app;
        let token = who.token.clone();
        async move {
            let mut names = Vec::new();
            for path in paths {
                let response = app.http.get(app.url(path)).bearer_auth(&token).send().await.unwrap();
                assert_eq!(response.status(), 200, "{path}");
                let text = response.text().await.unwrap();
                assert!(!text.contains("eigenaar@praktijk.nl"), "{path} shows the login name: {text}");
                let body: Value = serde_json::from_str(&text).unwrap();
                let items = if body.is_array() { body.as_array().unwrap().clone() } else { vec![body] };
                for item in items {
                    names.push(item["owner"]["name"].as_str().unwrap().to_owned());
                    for inner in item["entries"].as_array().into_iter().flatten() {
                        names.push(inner["owner"]["name"].as_str().unwrap().to_owned());
                    }
                }
            }
            names.dedup();
            names
        }
    };
    assert_eq!(seen_by(&other).await, ["Collega"]);
    assert_eq!(seen_by(&staff).await, ["Collega"]);
    let (_, own) = call(&app, Method::GET, &entry_path, Some(&owner), None).await;
    assert_eq!(own["owner"]["id"], owner.id.as_str());
    assert_ne!(own["owner"]["name"], "Collega", "the owner sees their own name");

    let (status, _) =
        call(&app, Method::POST, "/api/user/onboarding/info", Some(&owner), Some(json!({"preferredUsername": "Dokter Jansen"}))).await;
    assert_eq!(status, 200);
    assert_eq!(seen_by(&other).await, ["Dokter Jansen"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_page_below_one_row_or_before_the_first_is_refused_on_every_list(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let me = person(&app, "pagina@praktijk.nl").await;
    let refusal = json!({"error": "invalid_page", "message": "Ongeldige pagina: limit is minstens 1 en offset is niet negatief."});
    for list in ["entry", "entry/query", "entry/count", "group", "group/query", "group/count"] {
        for page in ["offset=-1", "limit=0", "limit=-5&offset=2"] {
            let (status, body) = call(&app, Method::GET, &format!("/api/template/{list}?{page}"), Some(&me), None).await;
            assert_eq!((status, &body), (400, &refusal), "{list}?{page}");
        }
        let (status, _) = call(&app, Method::GET, &format!("/api/template/{list}?limit=1&offset=0"), Some(&me), None).await;
        assert_eq!(status, 200, "{list}");
    }
}
