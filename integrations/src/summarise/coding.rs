//! How well the ICPC suggestions of a note ([`domain::icpc::Catalogue::code_episodes`]) find the code a GP
//! would give, measured on the SOEP test set ([`super::rules::testset`]).
//!
//! `data/soep-icpc.json` names, per consult and episode, the codes a GP would accept for that
//! problem (the first is the usual one; an alternative is listed where Dutch practice codes the
//! problem either way, e.g. keelontsteking as R74 or R21). Each consult is summarised by the
//! rules engine as the worker does it, its episodes coded against the embedded ICPC list, and an
//! episode counts as found when one of its accepted codes is among its suggestions.

use std::collections::BTreeMap;
use std::path::Path;

use super::Template;
use super::rules::RulesSummariser;
use super::rules::testset::{SplitTable, TestConsult, ratio};

/// The expected codes: consult id → per episode, the codes a GP would accept.
pub type Expected = BTreeMap<String, Vec<Vec<String>>>;

/// Reads `data/soep-icpc.json` (or another file of that shape).
pub fn load_expected(path: &Path) -> Result<Expected, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Counts for one split.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeScores {
    pub episodes: usize,
    /// Episodes whose accepted code is among the suggestions.
    pub found: usize,
    /// Episodes whose first suggestion is an accepted code.
    pub first: usize,
    /// Episodes without any suggestion.
    pub none: usize,
    pub suggestions: usize,
    /// Suggestions without a sentence of evidence, or with a process code: both must stay 0.
    pub unsupported: usize,
    pub process: usize,
}

impl CodeScores {
    fn add(&mut self, other: &CodeScores) {
        self.episodes += other.episodes;
        self.found += other.found;
        self.first += other.first;
        self.none += other.none;
        self.suggestions += other.suggestions;
        self.unsupported += other.unsupported;
        self.process += other.process;
    }

    /// Episodes whose accepted code is among the (at most three) suggestions, as a fraction.
    pub fn found_rate(&self) -> f64 {
        ratio(self.found, self.episodes)
    }

    /// Episodes whose first suggestion is an accepted code, as a fraction.
    pub fn first_rate(&self) -> f64 {
        ratio(self.first, self.episodes)
    }
}

/// The scores per split, and per episode what was suggested.
#[derive(Clone, Debug, Default)]
pub struct CodeEvaluation {
    pub dev: CodeScores,
    pub holdout: CodeScores,
    pub all: CodeScores,
    /// Per episode: consult id, episode (1-based), the accepted codes, the suggested ones.
    pub per_episode: Vec<(String, usize, Vec<String>, Vec<String>)>,
}

/// Summarises and codes every SOAP consult of `consults` that `expected` names.
pub fn evaluate(consults: &[TestConsult], expected: &Expected) -> Result<CodeEvaluation, String> {
    let catalogue = domain::icpc::Catalogue::new(domain::icpc::embedded().to_vec());
    let summariser = RulesSummariser::new();
    let mut ev = CodeEvaluation::default();
    for consult in consults.iter().filter(|c| c.template == Template::Soap) {
        let Some(wanted) = expected.get(&consult.id) else { continue };
        let request = consult.request();
        let mut note = summariser.summarise_now(&request).map_err(|e| format!("{}: {e}", consult.id))?.result;
        let transcript: Vec<&str> = request.transcript.iter().map(|l| l.sentence.as_str()).collect();
        catalogue.code_episodes(&mut note.episodes, &transcript);
        let mut scores = CodeScores::default();
        for (i, accepted) in wanted.iter().enumerate() {
            let suggested: Vec<String> = note.episodes.get(i).map(|e| e.codes.iter().map(|c| c.code.clone()).collect()).unwrap_or_default();
            scores.episodes += 1;
            scores.found += usize::from(suggested.iter().any(|s| accepted.contains(s)));
            scores.first += usize::from(suggested.first().is_some_and(|s| accepted.contains(s)));
            scores.none += usize::from(suggested.is_empty());
            ev.per_episode.push((consult.id.clone(), i + 1, accepted.clone(), suggested));
        }
        for code in note.episodes.iter().flat_map(|e| &e.codes) {
            scores.suggestions += 1;
            scores.unsupported += usize::from(code.evidence.is_empty());
            scores.process += usize::from(code.code.starts_with('-') || code.code[1..].parse::<u8>().is_ok_and(|n| (30..=69).contains(&n)));
        }
        match consult.split.as_str() {
            "dev" => ev.dev.add(&scores),
            "holdout" => ev.holdout.add(&scores),
            other => return Err(format!("{}: onbekende split {other:?}", consult.id)),
        }
        ev.all.add(&scores);
    }
    Ok(ev)
}

impl CodeEvaluation {
    /// The table in markdown.
    pub fn markdown(&self) -> String {
        let pct = |x: f64| format!("{:.0}%", 100.0 * x);
        let mut table = SplitTable::new("", [&self.dev, &self.holdout, &self.all]);
        let mut row = |name: &str, f: &dyn Fn(&CodeScores) -> String| table.row(name, f);
        row("episodes", &|s| s.episodes.to_string());
        row("**expected code among the suggestions**", &|s| format!("**{} ({}/{})**", pct(s.found_rate()), s.found, s.episodes));
        row("expected code suggested first", &|s| format!("{} ({}/{})", pct(s.first_rate()), s.first, s.episodes));
        row("episodes without a suggestion", &|s| s.none.to_string());
        row("suggestions (per episode)", &|s| format!("{} ({:.1})", s.suggestions, ratio(s.suggestions, s.episodes)));
        row("without evidence / process codes", &|s| format!("{} / {}", s.unsupported, s.process));
        table.finish()
    }
}
