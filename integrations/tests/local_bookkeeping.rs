//! The local bookkeeping on the real database: gapless yearly numbers under concurrency, one
//! invoice per reference however often it is asked for, contacts kept per customer, the PDF kept
//! with the invoice, invoices that can be neither deleted nor changed, and signed download links.

use domain::billing::Address;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chrono::NaiveDate;
use domain::billing::invoices::{Buyer, InvoiceDraft, InvoiceKind, InvoiceLine, Seller, Settlement};
use integrations::bookkeeping::local::{self, LinkSigner, LocalBookkeeping};
use integrations::bookkeeping::{Bookkeeping, BookkeepingError};
use sqlx::PgPool;

fn seller() -> Seller {
    Seller {
        name: "Spreekkamer B.V.".into(),
        address_lines: vec!["Domplein 1".into(), "3512 JC Utrecht".into()],
        kvk_number: "12345678".into(),
        btw_number: "NL123456789B01".into(),
        email: "facturen@spreekkamer.nl".into(),
        iban: "NL00 TEST 0000 0000 00".into(),
    }
}

fn buyer(customer: &str) -> Buyer {
    Buyer {
        customer_id: customer.into(),
        address: Address {
            practice_name: "Huisartsenpraktijk De Linde".into(),
            contact_name: "Anne de Vries".into(),
            street_address: "Lindelaan".into(),
            house_number: "12".into(),
            house_number_addition: "b".into(),
            postcode: "1234AB".into(),
            city: "Amsterdam".into(),
            phone_number: "0201234567".into(),
            kvk_number: "87654321".into(),
        },
        email: "factuur@delinde.nl".into(),
    }
}

fn draft(reference: &str, date: NaiveDate) -> InvoiceDraft {
    InvoiceDraft {
        kind: InvoiceKind::Invoice,
        reference: reference.into(),
        date,
        buyer: buyer("u-1"),
        lines: vec![InvoiceLine {
            description: "Spreekkamer Praktijk (2 gebruikers, maandelijks)".into(),
            quantity: 2,
            gross_cents: domain::billing::Cents(7800),
            period: Some((date, NaiveDate::from_ymd_opt(2026, 12, 24).unwrap())),
        }],
        paid: Some(Settlement { date, gross_cents: domain::billing::Cents(7800), transaction_id: "ltr_1".into() }),
        credits: None,
    }
}

fn books(db: &PgPool) -> Arc<LocalBookkeeping> {
    let links = LinkSigner::new(url::Url::parse("http://localhost:8080/").unwrap(), b"0123456789abcdef0123456789abcdef".to_vec());
    Arc::new(LocalBookkeeping::new(db.clone(), seller(), links))
}

fn day() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 25).unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn two_hundred_invoices_at_once_are_numbered_1_to_200(db: PgPool) {
    let books = books(&db);
    let contact = books.ensure_contact(&buyer("u-1")).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..200 {
        let (books, contact) = (books.clone(), contact.clone());
        tasks.push(tokio::spawn(async move { books.ensure_invoice(&contact, &draft(&format!("SPK-{i}"), day())).await.unwrap() }));
    }
    let mut numbers = BTreeSet::new();
    for task in tasks {
        assert!(numbers.insert(task.await.unwrap().number), "a number was given twice");
    }
    let expected: BTreeSet<String> = (1..=200).map(|n| format!("2026-{n:05}")).collect();
    assert_eq!(numbers, expected);
    // a new year starts at 1 again
    let next_year = books.ensure_invoice(&contact, &draft("SPK-2027", NaiveDate::from_ymd_opt(2027, 1, 1).unwrap())).await.unwrap();
    assert_eq!(next_year.number, "2027-00001");
    let pdfs: i64 = sqlx::query_scalar("select count(*) from local_invoices where pdf is not null").fetch_one(&db).await.unwrap();
    assert_eq!(pdfs, 201);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_same_reference_asked_for_at_once_is_one_invoice(db: PgPool) {
    let books = books(&db);
    let contact = books.ensure_contact(&buyer("u-1")).await.unwrap();
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (books, contact) = (books.clone(), contact.clone());
        tasks.push(tokio::spawn(async move { books.ensure_invoice(&contact, &draft("SPK-same", day())).await.unwrap() }));
    }
    let mut made = BTreeSet::new();
    for task in tasks {
        let invoice = task.await.unwrap();
        made.insert((invoice.id, invoice.number));
    }
    assert_eq!(made.len(), 1);
    assert_eq!(made.first().unwrap().1, "2026-00001");
    // the next invoice follows without a gap
    let next = books.ensure_invoice(&contact, &draft("SPK-next", day())).await.unwrap();
    assert_eq!(next.number, "2026-00002");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_contact_is_one_per_customer_and_kept_up_to_date(db: PgPool) {
    let books = books(&db);
    let first = books.ensure_contact(&buyer("u-1")).await.unwrap();
    let mut moved = buyer("u-1");
    moved.address.city = "Utrecht".into();
    let again = books.ensure_contact(&moved).await.unwrap();
    assert_eq!(first, again);
    let other = books.ensure_contact(&buyer("u-2")).await.unwrap();
    assert_ne!(first, other);
    let city: String = sqlx::query_scalar("select details->>'city' from local_bookkeeping_contacts where id = $1")
        .bind(&first)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(city, "Utrecht");
    // an invoice for a contact that does not exist is refused, and gives no number away
    let refused = books.ensure_invoice("lc_unknown", &draft("SPK-x", day())).await.unwrap_err();
    assert!(matches!(refused, BookkeepingError::Refused { .. }), "{refused:?}");
    let made = books.ensure_invoice(&first, &draft("SPK-y", day())).await.unwrap();
    assert_eq!(made.number, "2026-00001");
}

#[sqlx::test(migrations = "../migrations")]
async fn an_invoice_is_never_deleted_or_changed_and_its_pdf_is_kept(db: PgPool) {
    let books = books(&db);
    let contact = books.ensure_contact(&buyer("u-1")).await.unwrap();
    let invoice = books.ensure_invoice(&contact, &draft("SPK-keep", day())).await.unwrap();
    let pdf = local::pdf(&db, &invoice.id).await.unwrap().unwrap().bytes;
    assert!(pdf.starts_with(b"%PDF"));
    let deleted = sqlx::query("delete from local_invoices where id = $1").bind(&invoice.id).execute(&db).await;
    assert!(deleted.unwrap_err().to_string().contains("never deleted"));
    let renumbered = sqlx::query("update local_invoices set number = '2026-99999' where id = $1").bind(&invoice.id).execute(&db).await;
    assert!(renumbered.unwrap_err().to_string().contains("never changed"));
    let repdf = sqlx::query("update local_invoices set pdf = '\\x00' where id = $1").bind(&invoice.id).execute(&db).await;
    assert!(repdf.is_err());
    // a PDF lost between the invoice and its file is made again from the kept document
    sqlx::query("alter table local_invoices disable trigger local_invoices_keep").execute(&db).await.unwrap();
    sqlx::query("update local_invoices set pdf = null where id = $1").bind(&invoice.id).execute(&db).await.unwrap();
    sqlx::query("alter table local_invoices enable trigger local_invoices_keep").execute(&db).await.unwrap();
    let again = local::pdf(&db, &invoice.id).await.unwrap().unwrap().bytes;
    assert!(again.starts_with(b"%PDF"));
    let stored: Option<Vec<u8>> =
        sqlx::query_scalar("select pdf from local_invoices where id = $1").bind(&invoice.id).fetch_one(&db).await.unwrap();
    assert_eq!(stored.as_deref(), Some(again.as_slice()));
    assert_eq!(local::pdf(&db, "li_unknown").await.unwrap(), None);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_download_link_is_signed_and_expires(db: PgPool) {
    let books = books(&db);
    let contact = books.ensure_contact(&buyer("u-1")).await.unwrap();
    let invoice = books.ensure_invoice(&contact, &draft("SPK-link", day())).await.unwrap();
    let link = books.download_link(&invoice.id).await.unwrap();
    let url = url::Url::parse(&link).unwrap();
    assert_eq!(url.path(), format!("/payment/invoice/{}.pdf", invoice.id));
    let query: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    let expires: u64 = query["expires"].parse().unwrap();
    let now = SystemTime::now();
    assert_eq!(books.links().verify(&invoice.id, expires, &query["signature"], now), Ok(()));
    assert!(books.links().verify(&invoice.id, expires, &query["signature"], now + Duration::from_secs(301)).is_err());
    assert_eq!(books.download_link("li_unknown").await.unwrap_err(), BookkeepingError::NotFound);
}
