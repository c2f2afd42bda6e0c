/** The feedback feature's public entry: the widget the app frame shows, and what a page tells it. */
export { FeedbackWidget } from './FeedbackWidget'
export { setFeedbackConsult, showFeedbackHint } from './pageContext'
