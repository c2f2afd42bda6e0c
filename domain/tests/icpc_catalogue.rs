//! The ICPC catalogue against a real database: served from memory while the list stays the same,
//! made again once an import (as `api icpc-import` does it, from another process) or any other
//! change to the list is committed.

use std::sync::Arc;

use domain::icpc::{self, CatalogueCache, Code};
use sqlx::PgPool;

fn code(id: &str, patient: &str, official: &str) -> Code {
    Code { category: id[..1].to_owned(), code: id[1..].to_owned(), patient_title: patient.to_owned(), official_title: official.to_owned() }
}

fn ids(suggestions: &[icpc::Suggestion<'_>]) -> Vec<String> {
    suggestions.iter().map(|s| s.code.id()).collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_cached_catalogue_serves_the_list_in_force_and_sees_an_import(pool: PgPool) {
    icpc::seed_if_empty(&pool).await.unwrap();
    let cache = CatalogueCache::new();
    let first = cache.get(&pool).await.unwrap();
    assert_eq!(first.codes(), icpc::embedded());
    assert_eq!(first.codes(), icpc::list(&pool).await.unwrap());
    assert!(ids(&first.predict("Komt voor controle van de hoge bloeddruk")).contains(&"K86".to_owned()));

    // the same list: the same catalogue, not made again
    let again = cache.get(&pool).await.unwrap();
    assert!(Arc::ptr_eq(&first, &again));

    // an import commits a new list: the next call has it
    let imported = vec![code("K86", "Hoge bloeddruk", "Hypertensie zonder orgaanschade"), code("Z99", "Zorgen om de buren", "Burenruzie")];
    icpc::import(&pool, &imported).await.unwrap();
    let after = cache.get(&pool).await.unwrap();
    assert!(!Arc::ptr_eq(&first, &after));
    assert_ne!(after.version(), first.version());
    assert_eq!(after.codes(), imported);
    assert_eq!(ids(&after.predict("Veel last van burenruzie")), ["Z99"]);
    assert_eq!(first.codes(), icpc::embedded(), "the old catalogue is left as it was");
    let mut episodes = vec![domain::summary::Episode { diagnosis: "Burenruzie.".into(), ..Default::default() }];
    after.code_episodes(&mut episodes, &["Er is al maanden burenruzie."]);
    assert_eq!(episodes[0].codes.iter().map(|c| c.code.as_str()).collect::<Vec<_>>(), ["Z99"]);

    // a change by hand counts too
    sqlx::query("update icpc_codes set patient_title = 'Ruzie met de buren' where category = 'Z'").execute(&pool).await.unwrap();
    let edited = cache.get(&pool).await.unwrap();
    assert_eq!(edited.codes()[1].patient_title, "Ruzie met de buren");
    assert!(Arc::ptr_eq(&edited, &cache.get(&pool).await.unwrap()));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_process_catalogue_tells_databases_apart(pool: PgPool) {
    // another database of the same process (each test has its own) keeps a list of its own
    let other = vec![code("R05", "Hoesten", "Hoest")];
    icpc::import(&pool, &other).await.unwrap();
    let catalogue = icpc::catalogue(&pool).await.unwrap();
    assert_eq!(catalogue.codes(), other);
    assert_eq!(catalogue.version(), icpc::version(&pool).await.unwrap());
    icpc::seed_if_empty(&pool).await.unwrap();
    assert_eq!(icpc::catalogue(&pool).await.unwrap().codes(), other, "not empty: the seed leaves it");
}
