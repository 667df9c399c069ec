/**
 * The activity log's public surface: the log's screen, and the titles and record cells of its
 * rows, which the user page shows too (ESLint keeps the rest of src/features/activity inside it).
 */
export { ActivityList } from './activity-list';
export { changeDetail, changeTitle } from './activity-rows';
export { recordCell } from './record-cell';
