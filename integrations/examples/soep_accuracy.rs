//! The rules engine's SOEP scores on the Dutch test set, as markdown tables: the sentence
//! placement per field, and the note-level checks (expected facts per field and episode, and the
//! style breaches), per split.
//!
//! `cargo run -p integrations --example soep_accuracy [-- <test-set folder>] [--verbose]`
//! (default folder: `integrations/data/soep-testset`). `--verbose` also lists the misplaced
//! sentences and the note's missing or misplaced facts and style breaches, per consult
//! (`--split dev` lists only the dev consults': what tuning may look at); `--batch first` or
//! `--batch new` (or a later batch by name, `--batch second` to `twenty-second`) scores only the first 33 consults or those written after them;
//! `--notes` prints every consult's note; `--time` times the note of an hour's consult (the
//! test set's consults one after the other until a thousand sentences, three episodes).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use integrations::summarise::SummaryRequest;
use integrations::summarise::rules::{RulesSummariser, classify, testset};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose");
    let notes = args.iter().any(|a| a == "--notes");
    let time = args.iter().any(|a| a == "--time");
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let (batch, split) = (value("--batch"), value("--split"));
    let dir = args
        .iter()
        .enumerate()
        .find(|(i, a)| !(a.starts_with("--") || (*i > 0 && matches!(args[i - 1].as_str(), "--batch" | "--split"))))
        .map(|(_, a)| a)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/soep-testset"));
    let consults = match testset::load(&dir).and_then(|c| testset::select(c, batch.as_deref().unwrap_or("all"))) {
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
    println!("{}", evaluation.note_markdown());
    println!("| consult | split | correct |\n|---|---|---|");
    for (id, split, n, correct) in &evaluation.per_consult {
        println!("| {id} | {split} | {correct}/{n} |");
    }
    if verbose {
        for c in consults.iter().filter(|c| split.as_ref().is_none_or(|s| &c.split == s)) {
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
        let shown = |id: &str| split.as_ref().is_none_or(|s| consults.iter().any(|c| c.id == id && &c.split == s));
        for (id, misses) in evaluation.note_misses.iter().filter(|(id, _)| shown(id)) {
            for m in misses {
                println!("{id}: note {m}");
            }
        }
    }
    if notes {
        for c in &consults {
            let Ok(summary) = RulesSummariser::new().summarise_now(&c.request()) else { continue };
            println!("\n## {} ({})", c.id, c.split);
            for (i, e) in summary.result.episodes.iter().enumerate() {
                println!("Episode {}\nS: {}\nO: {}\nE: {}\nP: {}", i + 1, e.subjective, e.objective, e.diagnosis, e.plan);
            }
        }
    }
    if time {
        let mut hour = SummaryRequest { episode_count: 3, ..Default::default() };
        while hour.transcript.len() < 1_000 {
            for c in &consults {
                hour.transcript.extend(c.request().transcript);
            }
        }
        let summariser = RulesSummariser::new();
        let runs = 20;
        let start = Instant::now();
        for _ in 0..runs {
            if summariser.summarise_now(&hour).is_err() {
                eprintln!("geen notitie");
                return ExitCode::FAILURE;
            }
        }
        let each = start.elapsed().as_secs_f64() * 1000.0 / f64::from(runs);
        println!("\nAn hour's consult ({} sentences, 3 episodes): {each:.1} ms per note", hour.transcript.len());
    }
    ExitCode::SUCCESS
}
