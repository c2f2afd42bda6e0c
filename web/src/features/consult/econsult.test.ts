import { describe, expect, it } from 'vitest'
import { draftReply, econsultReducer, hasAdvice, initialEConsult, signedName, type EConsultAction, type EConsultState } from './econsult'
import type { Episode } from './result'

const empty: Episode = { subjective: '', objective: '', diagnosis: '', plan: '', codes: [] }

function run(state: EConsultState, ...actions: EConsultAction[]): EConsultState {
  return actions.reduce(econsultReducer, state)
}

describe('signedName', () => {
  it('takes the name after a closing formula', () => {
    expect(signedName('Kan ik langskomen?\nMet vriendelijke groet, Jan de Boer')).toBe('Jan de Boer')
    expect(signedName('Kan ik langskomen?\nGroetjes,\nFatima')).toBe('Fatima')
    expect(signedName('Kan ik langskomen? Mvg Piet Jansen.')).toBe('Piet Jansen')
  })

  it('is null without a closing formula or when what follows is no name', () => {
    expect(signedName('Kan ik langskomen?')).toBeNull()
    expect(signedName('Groeten, en ik hoop dat u snel kunt antwoorden want het is echt erg')).toBeNull()
    expect(signedName('met vriendelijke groet, de moeder')).toBeNull()
  })
})

describe('draftReply', () => {
  it('greets by the signed name, passes on each episode’s assessment and advice, and closes', () => {
    const reply = draftReply('Mijn neus zit dicht.\nGroet, Jan de Boer', [
      { ...empty, diagnosis: 'Waarschijnlijk sinusitis', plan: 'Neusspoelen met zout water' },
      { ...empty, plan: 'Bij koorts terugbellen.' },
    ])
    expect(reply).toBe(
      [
        'Beste Jan de Boer,',
        'Dank u voor uw bericht.',
        'Mijn beoordeling: Waarschijnlijk sinusitis.\nMijn advies: Neusspoelen met zout water.',
        'Mijn advies: Bij koorts terugbellen.',
        'Worden de klachten erger of heeft u nog vragen? Neem dan contact op met de praktijk.',
        'Met vriendelijke groet,\nUw huisarts',
      ].join('\n\n'),
    )
  })

  it('without a name or advice it is the greeting, the thanks and the closing only', () => {
    const reply = draftReply('Mijn neus zit dicht.', [{ ...empty, subjective: 'Verstopte neus.' }])
    expect(reply.split('\n\n')[0]).toBe('Beste meneer, mevrouw,')
    expect(reply).not.toMatch(/Mijn advies|Mijn beoordeling|Verstopte neus/)
  })
})

describe('hasAdvice', () => {
  it('is whether some episode has an assessment or a plan', () => {
    expect(hasAdvice([{ ...empty, subjective: 'Keelpijn' }])).toBe(false)
    expect(hasAdvice([empty, { ...empty, plan: 'Paracetamol' }])).toBe(true)
  })
})

describe('econsultReducer', () => {
  const note = { episodes: [{ subjective: 'Verstopte neus', objective: '', diagnosis: 'Sinusitis', plan: 'Zout water' }] }

  it('fills the note and drafts the reply from the question asked, once', () => {
    const asked = run(initialEConsult, { type: 'question', text: 'Neus dicht.\nGroet, Anna' }, { type: 'asked', now: 1 })
    expect(asked.summary.pending).toMatchObject({ jobId: null, done: false, transcriptLength: 'Neus dicht.\nGroet, Anna'.length })
    // typing on while waiting does not change whom the reply greets
    const done = run(asked, { type: 'question', text: 'iets anders' }, { type: 'note', note })
    expect(done.form?.episodes).toEqual(note.episodes.map((e) => ({ ...e, codes: [] })))
    expect(done.reply).toMatch(/^Beste Anna,/)
    expect(done.summary.pending?.done).toBe(true)
    // a second answer does not overwrite the reply the GP edits
    const edited = run(done, { type: 'reply', text: 'Mijn eigen antwoord' }, { type: 'note', note })
    expect(edited.reply).toBe('Mijn eigen antwoord')
  })

  it('follows the job the call named and ends with the message when it fails', () => {
    const waiting = run(initialEConsult, { type: 'question', text: 'Vraag' }, { type: 'asked', now: 1 }, { type: 'job', jobId: 'j1' })
    expect(waiting.summary.pending?.jobId).toBe('j1')
    expect(run(waiting, { type: 'jobState', jobId: 'j1', state: 'running' }).summary.pending?.jobState).toBe('running')
    const failed = run(waiting, { type: 'jobState', jobId: 'j1', state: 'dead' })
    expect(failed.summary).toMatchObject({ pending: null, failure: 'De samenvatting kon niet worden gemaakt.' })
    expect(run(waiting, { type: 'failed', message: 'Te veel aanvragen.' }).summary.failure).toBe('Te veel aanvragen.')
  })

  it('remembers that Samenvatten was pressed without a question until one is typed', () => {
    const empty = run(initialEConsult, { type: 'empty' })
    expect(empty.emptyAsked).toBe(true)
    expect(run(empty, { type: 'question', text: 'V' }).emptyAsked).toBe(false)
  })
})
