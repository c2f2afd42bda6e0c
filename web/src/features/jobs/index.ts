/** The jobs feature's public entry: a background job as the page follows it, and its state in Dutch. */
export { summaryOutcome, useJob, type JobState } from './api'
export { jobStateText } from './texts'
