//! The ICPC suggestions of the rules engine's notes on the SOEP test set (`summarise::coding`):
//! the expected code among them often enough, never a process code, never a code without a
//! sentence of the transcript behind it.

use std::path::PathBuf;

use integrations::summarise::coding;
use integrations::summarise::rules::testset;

#[test]
fn the_expected_code_is_among_the_suggestions_of_most_episodes() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    let consults = testset::load(&data.join("soep-testset")).unwrap();
    let expected = coding::load_expected(&data.join("soep-icpc.json")).unwrap();
    for id in expected.keys() {
        assert!(consults.iter().any(|c| &c.id == id), "soep-icpc.json names {id}, which the test set does not have");
    }
    let ev = coding::evaluate(&consults, &expected).unwrap();
    println!("{}", ev.markdown());
    assert!(ev.all.episodes >= 120, "{} episodes", ev.all.episodes);
    // measured (docs/benchmarks.md) on all 165 consults: among the suggestions 91 % dev, 76 %
    // holdout (the third batch's unseen holdout 56 %, the fourth's 72 %), 84 % over all; on the
    // first 33 alone 100 / 82 / 93 %; on all 357 (2026-11-30) 92 % dev, 73 % holdout, 82 % over
    // all; on all 421, with the synonym list grown (2026-11-30, later), 91 % dev, 78 % holdout,
    // 85 % over all, and first 82 / 67 / 74 %; on all 453, 90 / 79 / 85 % and first 81 / 66 / 73
    // %; on all 549 (the fourteenth to sixteenth batches; the sixteenth's held-out episodes, unseen,
    // 56 % among and 33 % first), 89 / 78 / 84 % and first 81 / 64 / 72 %; on all 645 (the
    // seventeenth to nineteenth batches, held out unseen 81 / 72 / 72 % among), 88 / 78 / 83 % and
    // first 79 / 63 / 71 %; on all 677 (the twentieth batch's held-out episodes, unseen, 64 %
    // among and 24 % first), 87 / 77 / 82 % and first 77 / 61 / 69 %; on all 709 (the
    // twenty-first batch's held-out episodes, unseen, 72 % among and 52 % first), 85 / 77 / 81 %
    // and first 76 / 62 / 69 %; on all 741 (the twenty-second batch's held-out episodes, unseen,
    // 80 % among and 72 % first), 87 / 79 / 83 % and first 77 / 65 / 71 %; on all 773 (the
    // twenty-third batch's held-out episodes, unseen, 72 % among and 56 % first), 87 / 79 / 83 %
    // and first 78 / 66 / 72 %; on all 805 (the twenty-fourth batch's held-out episodes, unseen,
    // 64 % among and 59 % first), 88 / 79 / 83 % and first 77 / 66 / 72 %; on all 837 (the
    // twenty-fifth batch's held-out episodes, unseen, 55 % among and 45 % first), 87 / 78 / 83 %
    // and first 77 / 66 / 71 %; on all 869 (the twenty-sixth batch's held-out episodes, unseen, 74 %
    // among and 58 % first), 87 / 78 / 83 % and first 76 / 66 / 71 %; on all 901 (the
    // twenty-seventh batch's held-out episodes, unseen, 75 % among and 55 % first), 87 / 78 / 83 %
    // and first 76 / 66 / 71 %; floors a few points below
    assert!(ev.all.found_rate() >= 0.81, "{:.2}", ev.all.found_rate());
    assert!(ev.holdout.found_rate() >= 0.77, "{:.2}", ev.holdout.found_rate());
    assert!(ev.holdout.first_rate() >= 0.63, "first {:.2}", ev.holdout.first_rate());
    let first: Vec<_> = consults.iter().filter(|c| c.number() <= testset::FIRST_SET).cloned().collect();
    let ev_first = coding::evaluate(&first, &expected).unwrap();
    assert!(ev_first.all.found_rate() >= 0.90, "first set {:.2}", ev_first.all.found_rate());
    assert_eq!(ev.all.process, 0, "a process code was suggested");
    assert_eq!(ev.all.unsupported, 0, "a code without evidence was suggested");
    for (id, episode, _, suggested) in &ev.per_episode {
        assert!(suggested.len() <= domain::summary::MAX_EPISODE_CODES, "{id} episode {episode}: {suggested:?}");
    }
}
