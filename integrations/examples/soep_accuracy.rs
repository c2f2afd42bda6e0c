//! The rules engine's SOEP placement accuracy on the Dutch test set, as a markdown table.
//!
//! `cargo run -p integrations --example soep_accuracy [-- <test-set folder>] [--verbose]`
//! (default folder: `integrations/data/soep-testset`). `--verbose` also lists the
//! misplaced sentences, per consult.

use std::path::PathBuf;
use std::process::ExitCode;

use integrations::summarise::rules::{classify, testset};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose");
    let dir = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/soep-testset"));
    let consults = match testset::load(&dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("testset laden mislukt: {e}");
            return ExitCode::FAILURE;
        }
    };
    let evaluation = match testset::evaluate(&consults) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("evaluatie mislukt: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{}", evaluation.markdown());
    println!("| consult | split | correct |\n|---|---|---|");
    for (id, split, n, correct) in &evaluation.per_consult {
        println!("| {id} | {split} | {correct}/{n} |");
    }
    if verbose {
        for c in &consults {
            for (line, p) in c.lines.iter().zip(classify(&c.request())) {
                let got = p.section.map_or('-', |s| s.letter());
                let wrong_ep = c.episode_count > 1 && line.expected != "-" && p.episode + 1 != line.episode;
                if !line.expected.starts_with(got) || wrong_ep {
                    println!(
                        "{}: expected {} (ep {}), got {got} (ep {}) [{:?}] {}",
                        c.id,
                        line.expected,
                        line.episode,
                        p.episode + 1,
                        p.speaker,
                        line.sentence
                    );
                }
            }
        }
    }
    ExitCode::SUCCESS
}
