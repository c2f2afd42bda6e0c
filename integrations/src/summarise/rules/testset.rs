//! The annotated Dutch SOEP test set and the rules engine's accuracy on it.
//!
//! Each file of `data/soep-testset/` is one consult: the transcript lines with the field each
//! belongs to (`S`, `O`, `E`, `P`, or `-` for nowhere) and its episode. [`evaluate`] runs
//! [`classify`] on every consult and counts, per split (`dev`, `holdout`), the placements per
//! class and the episode assignments; [`Evaluation::markdown`] prints the table.

use std::path::Path;

use serde::Deserialize;

use super::{Section, classify};
use crate::speech::Speaker;
use crate::summarise::{Flavour, SummaryRequest, Template, TranscriptLine};

/// One annotated consult.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestConsult {
    pub id: String,
    #[serde(default)]
    pub template: Template,
    #[serde(default)]
    pub flavour: Flavour,
    pub episode_count: u8,
    /// "dev" or "holdout".
    pub split: String,
    pub lines: Vec<TestLine>,
}

/// One annotated transcript line.
#[derive(Clone, Debug, Deserialize)]
pub struct TestLine {
    pub speaker: Option<Speaker>,
    pub sentence: String,
    /// "S", "O", "E", "P" or "-".
    pub expected: String,
    /// 1-based.
    pub episode: usize,
}

impl TestConsult {
    /// The consult as a summary request.
    pub fn request(&self) -> SummaryRequest {
        SummaryRequest {
            template: self.template,
            flavour: self.flavour,
            episode_count: self.episode_count,
            transcript: self.lines.iter().map(|l| TranscriptLine { sentence: l.sentence.clone(), speaker: l.speaker }).collect(),
            ..Default::default()
        }
    }
}

/// Reads every `*.json` consult of `dir`, sorted by file name.
pub fn load(dir: &Path) -> Result<Vec<TestConsult>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<_> =
        entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
        })
        .collect()
}

/// The classes in table order.
pub const CLASSES: [char; 5] = ['S', 'O', 'E', 'P', '-'];

/// Counts for one split.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    pub consults: usize,
    pub sentences: usize,
    /// `confusion[expected][predicted]`, indices as in [`CLASSES`].
    pub confusion: [[usize; 5]; 5],
    /// Clinical lines (expected not `-`) of consults with more than one episode, and how many of
    /// them went to the right episode.
    pub episode_lines: usize,
    pub episode_correct: usize,
}

impl Scores {
    /// Sentences placed in the right field (or rightly nowhere), as a fraction.
    pub fn accuracy(&self) -> f64 {
        let correct: usize = (0..5).map(|i| self.confusion[i][i]).sum();
        ratio(correct, self.sentences)
    }

    /// Precision of class `c` (index into [`CLASSES`]).
    pub fn precision(&self, c: usize) -> f64 {
        ratio(self.confusion[c][c], (0..5).map(|e| self.confusion[e][c]).sum())
    }

    /// Recall of class `c`.
    pub fn recall(&self, c: usize) -> f64 {
        ratio(self.confusion[c][c], self.confusion[c].iter().sum())
    }

    /// Episode assignment accuracy over the multi-episode consults.
    pub fn episode_accuracy(&self) -> f64 {
        ratio(self.episode_correct, self.episode_lines)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// The scores per split and over all.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    pub dev: Scores,
    pub holdout: Scores,
    pub all: Scores,
    /// Per consult: id, split, sentences, correct placements.
    pub per_consult: Vec<(String, String, usize, usize)>,
}

fn class_index(c: char) -> Option<usize> {
    CLASSES.iter().position(|x| *x == c)
}

fn predicted(section: Option<Section>) -> usize {
    match section {
        Some(s) => class_index(s.letter()).unwrap_or(4),
        None => 4,
    }
}

/// Runs the classifier over the consults.
pub fn evaluate(consults: &[TestConsult]) -> Result<Evaluation, String> {
    let mut ev = Evaluation::default();
    for c in consults {
        let placements = classify(&c.request());
        let mut s = Scores { consults: 1, ..Default::default() };
        for (line, p) in c.lines.iter().zip(&placements) {
            let expected = line
                .expected
                .chars()
                .next()
                .and_then(class_index)
                .ok_or_else(|| format!("{}: onbekende klasse {:?}", c.id, line.expected))?;
            s.sentences += 1;
            s.confusion[expected][predicted(p.section)] += 1;
            if c.episode_count > 1 && expected != 4 {
                s.episode_lines += 1;
                s.episode_correct += usize::from(p.episode + 1 == line.episode);
            }
        }
        let correct = (0..5).map(|i| s.confusion[i][i]).sum();
        ev.per_consult.push((c.id.clone(), c.split.clone(), s.sentences, correct));
        let split = match c.split.as_str() {
            "dev" => &mut ev.dev,
            "holdout" => &mut ev.holdout,
            other => return Err(format!("{}: onbekende split {other:?}", c.id)),
        };
        add(split, &s);
        add(&mut ev.all, &s);
    }
    Ok(ev)
}

fn add(into: &mut Scores, s: &Scores) {
    into.consults += s.consults;
    into.sentences += s.sentences;
    into.episode_lines += s.episode_lines;
    into.episode_correct += s.episode_correct;
    for e in 0..5 {
        for p in 0..5 {
            into.confusion[e][p] += s.confusion[e][p];
        }
    }
}

impl Evaluation {
    /// The accuracy table in markdown.
    pub fn markdown(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let splits = [("dev", &self.dev), ("holdout", &self.holdout), ("all", &self.all)];
        let mut out = String::from("| | dev | holdout | all |\n|---|---|---|---|\n");
        let row = |out: &mut String, name: &str, f: &dyn Fn(&Scores) -> String| {
            out.push_str(&format!("| {name} |"));
            for (_, s) in &splits {
                out.push_str(&format!(" {} |", f(s)));
            }
            out.push('\n');
        };
        row(&mut out, "consults / sentences", &|s| format!("{} / {}", s.consults, s.sentences));
        row(&mut out, "**placement accuracy**", &|s| format!("**{}**", pct(s.accuracy())));
        for (i, c) in CLASSES.iter().enumerate() {
            row(&mut out, &format!("{c} precision / recall"), &|s| format!("{} / {}", pct(s.precision(i)), pct(s.recall(i))));
        }
        row(&mut out, "episode accuracy (multi-problem consults)", &|s| {
            format!("{} ({} lines)", pct(s.episode_accuracy()), s.episode_lines)
        });
        out
    }
}
