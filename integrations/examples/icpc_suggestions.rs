//! How often the ICPC suggestions of a note hold the code a GP would give, on the SOEP test set,
//! as a markdown table.
//!
//! `cargo run -p integrations --example icpc_suggestions [-- --verbose]`; `--verbose` also lists
//! every episode with its expected and suggested codes.

use std::path::PathBuf;
use std::process::ExitCode;

use integrations::summarise::coding;
use integrations::summarise::rules::testset;

fn main() -> ExitCode {
    let verbose = std::env::args().any(|a| a == "--verbose");
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    let evaluation = testset::load(&data.join("soep-testset"))
        .and_then(|consults| Ok((consults, coding::load_expected(&data.join("soep-icpc.json"))?)))
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
        for (id, episode, expected, suggested) in &evaluation.per_episode {
            println!("| {id} | {episode} | {} | {} |", expected.join(" / "), suggested.join(", "));
        }
    }
    ExitCode::SUCCESS
}
