//! The lists' SQL filter is the twin of `templates::access`: for every kind of viewer and every
//! way a template can be shared, a template is in a viewer's lists exactly when `access` lets
//! them read it. Staff read any template by id, but their lists show what they would read as a
//! user, so for them the lists follow `access` without the staff role.

use std::collections::BTreeSet;

use domain::organisations;
use domain::templates::{self as t, Access, EntryFields, Filter, Grant, GroupFields, Kind, Viewer, Visibility};
use sqlx::PgPool;
use uuid::Uuid;

async fn user(db: &PgPool, id: &str) {
    sqlx::query("insert into users (id, email, preferred_username) values ($1, $2, $1)")
        .bind(id)
        .bind(format!("{id}@example.nl"))
        .execute(db)
        .await
        .unwrap();
}

/// A template: its kind and id, its owner, visibility and grants.
type Template = (Kind, Uuid, Option<String>, Visibility, Vec<Grant>);

struct World {
    viewers: Vec<Viewer>,
    templates: Vec<Template>,
}

async fn world(db: &PgPool) -> World {
    for id in ["owner", "member", "colleague", "outsider", "admin", "lone", "staff"] {
        user(db, id).await;
    }
    let north = organisations::create(db, "Zorggroep Noord").await.unwrap();
    let south = organisations::create(db, "Zorggroep Zuid").await.unwrap();
    let linde = organisations::create_level(db, north, "Praktijk De Linde").await.unwrap();
    let eik = organisations::create_level(db, north, "Praktijk De Eik").await.unwrap();
    let duin = organisations::create_level(db, south, "Praktijk Duin").await.unwrap();
    organisations::add_member(db, linde, "member", false).await.unwrap();
    organisations::add_member(db, eik, "colleague", false).await.unwrap();
    organisations::add_member(db, duin, "outsider", false).await.unwrap();
    organisations::add_member(db, linde, "admin", true).await.unwrap();

    let shares = [
        vec![],
        vec![Grant::User("member".into())],
        vec![Grant::User("lone".into())],
        vec![Grant::Level { id: linde, name: "Praktijk De Linde".into() }],
        vec![Grant::Level { id: duin, name: "Praktijk Duin".into() }],
        vec![Grant::Organisation { id: north, name: "Zorggroep Noord".into() }],
        vec![Grant::Organisation { id: south, name: "Zorggroep Zuid".into() }],
        vec![Grant::Level { id: duin, name: "Praktijk Duin".into() }, Grant::User("colleague".into())],
    ];
    let mut templates = Vec::new();
    let mut tx = db.begin().await.unwrap();
    for owner in ["owner", "member", "staff"] {
        for visibility in [Visibility::Public, Visibility::Private] {
            for grants in &shares {
                let entry = EntryFields::new(Some("PLAN")).unwrap();
                let id = t::create_entry(&mut tx, owner, visibility, &entry, grants).await.unwrap();
                templates.push((Kind::Entry, id, Some(owner.to_owned()), visibility, grants.clone()));
                let id = t::create_group(&mut tx, owner, visibility, &GroupFields::default(), grants).await.unwrap();
                templates.push((Kind::Group, id, Some(owner.to_owned()), visibility, grants.clone()));
            }
        }
    }
    tx.commit().await.unwrap();
    // a template whose owner left (`on delete set null`)
    sqlx::query("delete from users where id = 'owner'").execute(db).await.unwrap();
    for template in &mut templates {
        if template.2.as_deref() == Some("owner") {
            template.2 = None;
        }
    }

    let mut viewers = Vec::new();
    for id in ["member", "colleague", "outsider", "admin", "lone", "staff"] {
        viewers.push(Viewer::load(db, id, id == "staff").await.unwrap());
    }
    World { viewers, templates }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_lists_show_exactly_what_access_lets_a_viewer_read(db: PgPool) {
    let world = world(&db).await;
    assert_eq!(world.templates.len(), 2 * 3 * 2 * 8);
    for viewer in &world.viewers {
        let as_user = Viewer { is_staff: false, ..viewer.clone() };
        for kind in [Kind::Entry, Kind::Group] {
            let expected: BTreeSet<Uuid> = world
                .templates
                .iter()
                .filter(|(k, ..)| *k == kind)
                .filter(|(_, _, owner, visibility, grants)| t::access(&as_user, owner.as_deref(), *visibility, grants).allows(Access::Read))
                .map(|(_, id, ..)| *id)
                .collect();
            let listed: BTreeSet<Uuid> = match kind {
                Kind::Entry => t::query_entries(&db, viewer, &Filter::default(), 1_000, 0).await.unwrap().iter().map(|e| e.id).collect(),
                Kind::Group => t::query_groups(&db, viewer, &Filter::default(), 1_000, 0).await.unwrap().iter().map(|g| g.id).collect(),
            };
            assert_eq!(listed, expected, "{kind:?} listed for {}", viewer.user_id);
            let counted = t::count(&db, kind, viewer, &Filter::default()).await.unwrap();
            assert_eq!(counted, expected.len() as i64, "{kind:?} counted for {}", viewer.user_id);
            // the viewer reads something private of someone else's, so neither side is trivially everything
            assert!(expected.len() < world.templates.len() / 2, "{} reads every {kind:?}", viewer.user_id);
        }
    }
    // the rule lets the admin change what is shared with their practice and its main organisation
    let admin = world.viewers.iter().find(|v| v.user_id == "admin").unwrap();
    let writable = world
        .templates
        .iter()
        .filter(|(_, _, owner, visibility, grants)| t::access(admin, owner.as_deref(), *visibility, grants) == Access::Write)
        .count();
    assert_eq!(writable, 2 * 3 * 2 * 2, "shared with De Linde or Zorggroep Noord, by any owner, either visibility");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_group_keeps_only_entries_its_viewer_may_read_and_refuses_others_alike(db: PgPool) {
    let world = world(&db).await;
    let lone = world.viewers.iter().find(|v| v.user_id == "lone").unwrap();
    let readable = world
        .templates
        .iter()
        .find(|(k, _, _, v, g)| *k == Kind::Entry && *v == Visibility::Private && g.len() == 1 && g[0] == Grant::User("lone".into()))
        .unwrap()
        .1;
    let hidden = world.templates.iter().find(|(k, _, _, v, g)| *k == Kind::Entry && *v == Visibility::Private && g.is_empty()).unwrap().1;
    assert_eq!(t::checked_group_entries(&db, lone, &[readable, readable]).await.unwrap(), vec![readable]);
    let refused = |e: t::Refused| match e {
        t::Refused::Invalid(invalid) => invalid.message,
        t::Refused::Db(db) => panic!("{db}"),
    };
    let missing = Uuid::new_v4();
    assert_eq!(
        refused(t::checked_group_entries(&db, lone, &[readable, hidden]).await.unwrap_err()),
        format!("Onbekende template entry: {hidden}")
    );
    assert_eq!(refused(t::checked_group_entries(&db, lone, &[missing]).await.unwrap_err()), format!("Onbekende template entry: {missing}"));
}
