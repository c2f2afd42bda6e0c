//! `sqlx::migrate!` embeds the migrations in this crate (`db::MIGRATOR`) when it compiles; cargo
//! does not know that the folder is an input, so a new or changed migration would leave a build
//! with the old set (the api then starts on a schema without it). Told here, it rebuilds.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
