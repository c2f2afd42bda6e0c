//! Text analysis: annotations with UTF-16 offsets, the shortage list upload (staff only, all or
//! nothing) and the flagging of medicines on it.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

async fn upload(app: &TestApp, token: &str, csv: &str) -> reqwest::Response {
    app.http
        .put(app.url("/api/cms/medicineShortages"))
        .bearer_auth(token)
        .header("content-type", "text/csv")
        .body(csv.to_owned())
        .send()
        .await
        .unwrap()
}

/// `text.slice(start, end)` as JavaScript does it.
fn js_slice(text: &str, start: u64, end: u64) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    String::from_utf16(&units[start as usize..end as usize]).unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn medicines_and_problems_come_with_codes_and_js_offsets(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let text = "👍🏽 Patiënte (83 jr) met hoofdpijn 🤕 en koorts; gebruikt Augmentin en metformine. Geen suikerziekte.";
    let response = app.http.post(app.url("/api/medcat/medcatify")).bearer_auth(&token).json(&json!({"text": text})).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let found: Vec<(String, String, String, String)> = body["annotations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            assert_eq!(js_slice(text, a["start"].as_u64().unwrap(), a["end"].as_u64().unwrap()), a["text"].as_str().unwrap());
            (
                a["text"].as_str().unwrap().into(),
                a["kind"].as_str().unwrap().into(),
                a["code"].as_str().unwrap().into(),
                a["label"].as_str().unwrap().into(),
            )
        })
        .collect();
    let expected = |t: &str, k: &str, c: &str, l: &str| (t.to_owned(), k.to_owned(), c.to_owned(), l.to_owned());
    assert_eq!(found[0], expected("hoofdpijn", "problem", "N01", "Hoofdpijn (cefalgie)"));
    assert_eq!(found[1].0, "koorts");
    assert_eq!(found[1].2, "A03");
    assert_eq!(found[2], expected("Augmentin", "medication", "J01CR02", "amoxicilline/clavulaanzuur"));
    assert_eq!(found[3], expected("metformine", "medication", "A10BA02", "metformine"));
    // negations are not detected: "geen suikerziekte" still names it
    assert_eq!((found[4].0.as_str(), found[4].2.as_str()), ("suikerziekte", "T90"));
    assert_eq!(found.len(), 5);
    // the emoji count two units each, é one
    assert_eq!(
        body["annotations"][0]["start"],
        text.encode_utf16().collect::<Vec<_>>().len()
            - "hoofdpijn 🤕 en koorts; gebruikt Augmentin en metformine. Geen suikerziekte.".encode_utf16().count()
    );

    let long = "a".repeat(20_001);
    let response = app.http.post(app.url("/api/medcat/medcatify")).bearer_auth(&token).json(&json!({"text": long})).send().await.unwrap();
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>().await.unwrap()["message"], "De tekst is te lang om te analyseren (hoogstens 20.000 tekens).");
    let response = app.http.post(app.url("/api/medcat/medcatify")).json(&json!({"text": "paracetamol"})).send().await.unwrap();
    assert_eq!(response.status(), 401);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_shortage_list_is_uploaded_by_staff_and_flags_medicines(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let gp = app.access_token_for("huisarts@example.nl").await;
    let csv = "naam;atc;status;sinds;advies\n\
               Amoxicilline/clavulaanzuur 500/125 mg tablet;J01CR02;tekort;2025-11-03;\"Overweeg; eerst amoxicilline\"\n\
               Zeldzamol 10 mg;;beperkt leverbaar;01-10-2025;\n";

    // ordinary users neither read nor replace the list
    assert_eq!(upload(&app, &gp, csv).await.status(), 403);
    assert_eq!(app.get_with_token("/api/cms/medicineShortages", &gp).await.status(), 403);

    let response = upload(&app, &staff, csv).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap()["count"], 2);
    let list: Value = app.get_with_token("/api/cms/medicineShortages", &staff).await.json().await.unwrap();
    assert_eq!(list["entries"][0]["medicine"], "Amoxicilline/clavulaanzuur 500/125 mg tablet");
    assert_eq!(list["entries"][0]["advice"], "Overweeg; eerst amoxicilline");
    assert_eq!(list["entries"][1]["since"], "2025-10-01");
    assert_eq!(list["entries"][1]["atc"], Value::Null);
    assert!(list["uploadedAt"].is_string());

    let text = "Éénmalig 🙂 Augmentin voorgeschreven, eerder zeldzamol; paracetamol zo nodig.";
    let response =
        app.http.post(app.url("/api/medcat/medcatMedicineShortage")).bearer_auth(&gp).json(&json!({"text": text})).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let shortages = body["shortages"].as_array().unwrap();
    assert_eq!(shortages.len(), 2, "{body}");
    assert_eq!(shortages[0]["medicine"], "Amoxicilline/clavulaanzuur 500/125 mg tablet");
    assert_eq!(shortages[0]["atc"], "J01CR02");
    assert_eq!(shortages[0]["status"], "tekort");
    assert_eq!(shortages[0]["since"], "2025-11-03");
    assert_eq!(js_slice(text, shortages[0]["start"].as_u64().unwrap(), shortages[0]["end"].as_u64().unwrap()), "Augmentin");
    assert_eq!(shortages[1]["medicine"], "Zeldzamol 10 mg");
    assert_eq!(js_slice(text, shortages[1]["start"].as_u64().unwrap(), shortages[1]["end"].as_u64().unwrap()), "zeldzamol");

    // a file with bad lines replaces nothing and names each line
    let bad = "naam,atc,status,sinds,advies\nIbuprofen,M01AE01,tekort,2025-01-01,\n,ZZ,tekort,2025-01-01,\nNaproxen,M01AE02,,31-02-2025,\n";
    let response = upload(&app, &staff, bad).await;
    assert_eq!(response.status(), 400);
    let refusal: Value = response.json().await.unwrap();
    assert_eq!(refusal["error"], "invalid_shortage_list");
    let lines: Vec<u64> = refusal["lines"].as_array().unwrap().iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [3, 4]);
    let message = refusal["message"].as_str().unwrap();
    assert!(message.starts_with("De lijst is niet ingelezen; er is niets vervangen."), "{message}");
    assert!(message.contains("regel 3: de naam ontbreekt; 'ZZ' is geen ATC-code") && message.contains("regel 4:"), "{message}");
    let kept: i64 = sqlx::query_scalar("select count(*) from medicine_shortages").fetch_one(&pool).await.unwrap();
    assert_eq!(kept, 2, "the list in force stays");

    let response = upload(&app, &staff, "geneesmiddel;code\nIbuprofen;M01AE01\n").await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>().await.unwrap()["lines"][0]["line"], 1);

    // a new list replaces the old one entirely
    let response = upload(&app, &staff, "naam;atc;status;sinds;advies\nIbuprofen;M01AE01;tekort;2025-01-01;\n").await;
    assert_eq!(response.json::<Value>().await.unwrap()["count"], 1);
    let body: Value = app
        .http
        .post(app.url("/api/medcat/medcatMedicineShortage"))
        .bearer_auth(&gp)
        .json(&json!({"text": text}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["shortages"], json!([]));
}
