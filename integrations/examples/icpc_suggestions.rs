//! How often the ICPC suggestions of a note hold the code a GP would give, on the SOEP test set,
//! as a markdown table.
//!
//! `cargo run -p integrations --example icpc_suggestions [-- --verbose]`; `--verbose` also lists
//! every episode with its expected and suggested codes (`--split dev`: only the dev consults');
//! `--batch first` or `--batch new` (or a later batch by name, `--batch second` to `twenty-second`) scores only the first 33 consults or those written after them.

use std::path::PathBuf;
use std::process::ExitCode;

use integrations::summarise::coding;
use integrations::summarise::rules::testset;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose");
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let (batch, split) = (value("--batch"), value("--split"));
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut splits = std::collections::HashMap::new();
    let evaluation = testset::load(&data.join("soep-testset"))
        .and_then(|consults| testset::select(consults, batch.as_deref().unwrap_or("all")))
        .and_then(|consults| {
            splits = consults.iter().map(|c| (c.id.clone(), c.split.clone())).collect();
            let mut expected = coding::load_expected(&data.join("soep-icpc.json"))?;
            expected.retain(|id, _| splits.contains_key(id));
            Ok((consults, expected))
        })
        .and_then(|(consults, expected)| coding::evaluate(&consults, &expected));
    let evaluation = match evaluation {
        Ok(e) => e,
        Err(e) => {
            eprintln!("evaluatie mislukt: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{}", evaluation.markdown());
    if verbose {
        println!("| consult | episode | expected | suggested |\n|---|---|---|---|");
        let shown = |id: &String| split.as_ref().is_none_or(|s| splits.get(id) == Some(s));
        for (id, episode, expected, suggested) in evaluation.per_episode.iter().filter(|(id, ..)| shown(id)) {
            println!("| {id} | {episode} | {} | {} |", expected.join(" / "), suggested.join(", "));
        }
    }
    ExitCode::SUCCESS
}
