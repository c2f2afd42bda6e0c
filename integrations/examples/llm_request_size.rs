//! The longest request the language-model summariser sends, measured on the request it builds:
//! a consult of 60 minutes (the Dutch test set's consults one after the other until 60 × 130
//! words), five SOEP examples over their cap, the clinician's hint at its cap (1,000
//! characters) and high precision, for every flavour of the SOEP note; the tokens estimated as
//! the summariser does (a token per 3 characters, 8 per message for the chat template) and the
//! reserve it keeps for the answer. A dictation of the same length is shown beside it: its
//! answer gives the whole text back.
//!
//! `cargo run -p integrations --example llm_request_size [-- <minutes>]` (default 60).

use std::path::PathBuf;
use std::process::ExitCode;

use integrations::summarise::budget::{self, CHARS_PER_TOKEN};
use integrations::summarise::llm::{LlmConfig, LlmSummariser};
use integrations::summarise::rules::testset;
use integrations::summarise::{Flavour, Precision, SummaryRequest, Template, prompts};
use url::Url;

fn main() -> ExitCode {
    let minutes: usize = std::env::args().nth(1).and_then(|m| m.parse().ok()).unwrap_or(60);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/soep-testset");
    let consults = match testset::load(&dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("testset laden mislukt: {e}");
            return ExitCode::FAILURE;
        }
    };
    let config = LlmConfig::new(Url::parse("http://localhost:11434/v1").expect("url"), "qwen2.5:7b-instruct");
    let summariser = LlmSummariser::new(config).expect("summariser");

    let consult = testset::consult_of(&consults, minutes);
    let transcript = prompts::transcript(&consult);
    let words: usize = consult.transcript.iter().map(|l| l.sentence.split_whitespace().count()).sum();
    println!(
        "A consult of {minutes} minutes: {} sentences, {words} words, {} characters as the model reads it ({:.2} characters a word).\n",
        consult.transcript.len(),
        transcript.chars().count(),
        transcript.chars().count() as f64 / words as f64
    );
    println!(
        "| request | system prompt | examples (pairs) | transcript message | prompt, all messages | request body | prompt tokens (est.) | answer reserve | total tokens | window |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut longest = 0;
    let mut rows: Vec<(String, SummaryRequest)> = Vec::new();
    for flavour in [Flavour::Normal, Flavour::PohGgz] {
        let request = SummaryRequest {
            flavour,
            precision: Precision::High,
            examples: testset::examples_at_cap(&consults),
            user_suggestion: Some("Noem de bloeddruk en de medicatie apart. ".repeat(25).chars().take(1_000).collect()),
            ..consult.clone()
        };
        rows.push((format!("SOEP, {flavour:?}, 5 examples"), request));
    }
    rows.push((
        "dictation (the answer is the text again)".to_owned(),
        SummaryRequest { template: Template::Dictation, examples: Vec::new(), ..consult.clone() },
    ));
    for (name, request) in rows {
        let messages = prompts::messages(&request, false);
        let chars = |range: std::ops::Range<usize>| messages[range].iter().map(|m| m.content.chars().count()).sum::<usize>();
        let system = chars(0..1);
        let examples = chars(1..messages.len() - 1);
        let last = chars(messages.len() - 1..messages.len());
        let body = summariser.request_body(&request, &messages).len();
        let prompt_tokens = budget::prompt_tokens(&messages);
        let reserve = budget::answer_reserve(&request, None);
        let total = prompt_tokens + reserve;
        let window = total.next_power_of_two();
        println!(
            "| {name} | {system} | {examples} ({}) | {last} | {} | {body} B | {prompt_tokens} | {reserve} | {total} | {window} |",
            messages.len() / 2 - 1,
            system + examples + last,
        );
        if request.template == Template::Soap {
            longest = longest.max(total);
        }
    }
    println!(
        "\nTokens at {CHARS_PER_TOKEN} characters a token. The longest SOEP request with its answer: {longest} tokens; \
         the next power of two: {}.",
        longest.next_power_of_two()
    );
    ExitCode::SUCCESS
}
