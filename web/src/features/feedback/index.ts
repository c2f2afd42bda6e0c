/** The feedback feature's public entry: the widget the app frame shows. */
export { FeedbackWidget } from './FeedbackWidget'
