/** The bulk jobs feature's public surface: the admins' screen of everyone's jobs and its read. */
export { BulkJobsScreen } from './bulk-jobs-screen';
export { bulkJobsOfAnyoneQuery } from './api/jobs-of-anyone';
