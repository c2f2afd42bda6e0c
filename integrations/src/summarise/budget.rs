//! How much of a model's context window a request takes, estimated before it is sent, so the
//! product can drop few-shot examples itself rather than have the engine drop them silently.
//!
//! The window (`APP_LLM_CONTEXT_TOKENS`, [`DEFAULT_CONTEXT_TOKENS`]) holds the prompt and the
//! answer. Ollama answers a prompt that does not fit by dropping the leading messages after the
//! system prompt (`server/prompt.go`, `chatPrompt`), which are the examples, without saying so;
//! vLLM refuses it with a 400. So the summariser drops examples, the last first, until the
//! estimate of the prompt plus a reserve for the answer ([`answer_reserve`]) fits; the transcript
//! is never shortened.
//!
//! The estimate is deliberately high: a token per [`CHARS_PER_TOKEN`] characters (Qwen2.5's and
//! Llama 3's tokenizers take about 3.5 to 4 characters of Dutch per token), plus
//! [`MESSAGE_OVERHEAD_TOKENS`] per message for the chat template's markers (ChatML:
//! `<|im_start|>role\n … <|im_end|>\n`, about 5 tokens).

use super::prompts::{self, Message};
use super::{SummaryRequest, Template};

/// Characters of Dutch text counted as one token.
pub const CHARS_PER_TOKEN: usize = 3;

/// Tokens counted per message for the chat template around its content.
pub const MESSAGE_OVERHEAD_TOKENS: usize = 8;

/// Tokens counted for the start of the answer the template adds after the last message
/// (`<|im_start|>assistant\n`).
pub const REPLY_PRIMER_TOKENS: usize = 4;

/// The context window assumed when `APP_LLM_CONTEXT_TOKENS` is not set: what the compose file
/// gives Ollama (`OLLAMA_CONTEXT_LENGTH`), measured to hold the longest request (a 60-minute
/// consult with five examples at their cap and the answer; docs/benchmarks.md, "The longest LLM
/// request").
pub const DEFAULT_CONTEXT_TOKENS: u32 = 32_768;

/// Tokens kept free for a note's answer when `APP_LLM_MAX_TOKENS` is not set: about 4,600
/// characters of JSON, room for a long SOEP note with several episodes or a specialist letter.
pub const NOTE_RESERVE_TOKENS: usize = 1_536;

/// Tokens kept free, beyond the cleaned text, for a dictation's short summary.
pub const SUMMARY_RESERVE_TOKENS: usize = 512;

/// Tokens of a text, estimated.
pub fn text_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(CHARS_PER_TOKEN)
}

/// Tokens of a prompt of these messages, estimated.
pub fn prompt_tokens(messages: &[Message]) -> usize {
    messages.iter().map(|m| text_tokens(&m.content) + MESSAGE_OVERHEAD_TOKENS).sum::<usize>() + REPLY_PRIMER_TOKENS
}

/// Tokens to keep free for the answer: `max_tokens` when it is set (the engine reserves that
/// much); otherwise, for a (radiology) dictation, which gives the whole text back cleaned, as
/// much as the transcript and [`SUMMARY_RESERVE_TOKENS`]; for any other note
/// [`NOTE_RESERVE_TOKENS`].
pub fn answer_reserve(request: &SummaryRequest, max_tokens: Option<u32>) -> usize {
    if let Some(max) = max_tokens {
        return max as usize;
    }
    match request.template {
        Template::Dictation | Template::Radiology => text_tokens(&prompts::transcript(request)) + SUMMARY_RESERVE_TOKENS,
        Template::Soap | Template::Report | Template::Specialist | Template::Meeting => NOTE_RESERVE_TOKENS,
    }
}

/// What a request would take of the window, with the examples that fit it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fitted {
    /// The messages to send.
    pub messages: Vec<Message>,
    /// Few-shot pairs in them, and how many the request brought (before any were dropped).
    pub examples: usize,
    pub examples_available: usize,
    /// The estimate of the prompt, and of the prompt with the answer's reserve.
    pub prompt_tokens: usize,
    pub total_tokens: usize,
}

impl Fitted {
    /// Whether the request fits a window of `context_tokens`.
    pub fn fits(&self, context_tokens: u32) -> bool {
        self.total_tokens <= context_tokens as usize
    }
}

/// The messages for `request` with as many of its examples as fit a window of `context_tokens`
/// (the last dropped first). When even none fit, the request goes without examples and the
/// engine decides (a transcript is never cut).
pub fn fit(request: &SummaryRequest, include_schema: bool, context_tokens: u32, max_tokens: Option<u32>) -> Fitted {
    let available = prompts::example_count(request);
    let reserve = answer_reserve(request, max_tokens);
    let mut keep = available;
    loop {
        let messages = prompts::messages_with(request, include_schema, keep);
        let prompt = prompt_tokens(&messages);
        let fitted =
            Fitted { messages, examples: keep, examples_available: available, prompt_tokens: prompt, total_tokens: prompt + reserve };
        if keep == 0 || fitted.fits(context_tokens) {
            return fitted;
        }
        keep -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summarise::{Flavour, SoapExample, TranscriptLine};

    fn request(template: Template, transcript_chars: usize, examples: usize) -> SummaryRequest {
        let sentence = "De patiënt heeft sinds drie dagen keelpijn en hoest 's nachts";
        let mut transcript = Vec::new();
        let mut chars = 0;
        while chars < transcript_chars {
            transcript.push(TranscriptLine { sentence: sentence.to_owned(), speaker: None });
            chars += sentence.chars().count() + 2;
        }
        let example = SoapExample {
            subjective: "Keelpijn sinds 3 dgn. ".repeat(40),
            objective: "Keel rood. ".repeat(30),
            evaluation: "Virale faryngitis.".into(),
            plan: "Paracetamol z.n. ".repeat(20),
        };
        SummaryRequest { template, flavour: Flavour::Normal, transcript, examples: vec![example; examples], ..SummaryRequest::default() }
    }

    #[test]
    fn tokens_are_counted_high() {
        assert_eq!(text_tokens(""), 0);
        assert_eq!(text_tokens("abc"), 1);
        assert_eq!(text_tokens("abcd"), 2);
        assert_eq!(text_tokens("ééé"), 1, "characters, not bytes");
        let messages = prompts::messages(&request(Template::Soap, 300, 0), false);
        let content: usize = messages.iter().map(|m| text_tokens(&m.content)).sum();
        assert_eq!(prompt_tokens(&messages), content + 2 * MESSAGE_OVERHEAD_TOKENS + REPLY_PRIMER_TOKENS);
    }

    #[test]
    fn the_answer_reserve_follows_the_template_and_max_tokens() {
        let soap = request(Template::Soap, 3_000, 0);
        assert_eq!(answer_reserve(&soap, None), NOTE_RESERVE_TOKENS);
        assert_eq!(answer_reserve(&soap, Some(700)), 700);
        let dictation = request(Template::Dictation, 3_000, 0);
        assert_eq!(answer_reserve(&dictation, None), text_tokens(&prompts::transcript(&dictation)) + SUMMARY_RESERVE_TOKENS);
        assert!(answer_reserve(&dictation, None) > 1_000);
    }

    #[test]
    fn examples_are_dropped_last_first_until_the_request_fits() {
        let r = request(Template::Soap, 2_000, 5);
        let all = fit(&r, false, DEFAULT_CONTEXT_TOKENS, None);
        assert_eq!((all.examples, all.examples_available), (5, 5));
        assert_eq!(all.messages, prompts::messages(&r, false));
        // a window just too small for five pairs keeps four, the first four
        let four = fit(&r, false, all.total_tokens as u32 - 1, None);
        assert_eq!(four.examples, 4);
        assert!(four.fits(all.total_tokens as u32 - 1));
        assert_eq!(four.messages, prompts::messages_with(&r, false, 4));
        assert!(four.messages[1].content.starts_with("Voorbeeld 1 van 4"));
        // a window that holds no pair sends none, and the transcript whole
        let none = fit(&r, false, 2_000, None);
        assert_eq!(none.examples, 0);
        assert!(!none.fits(2_000));
        assert_eq!(none.messages.last(), prompts::messages(&r, false).last());
        // a larger answer reserve leaves room for fewer pairs
        let reserved = fit(&r, false, all.total_tokens as u32, Some(NOTE_RESERVE_TOKENS as u32 + 800));
        assert!(reserved.examples < 5, "{}", reserved.examples);
    }
}
