/** English back-office texts: the admins' screen of everyone's bulk jobs. */
export const enBulkJobs = {
  // /bulk-jobs: every user's queued and running jobs, then the latest that ended.
  bulkJobs: {
    title: 'Bulk jobs',
    intro:
      'Changes to every asset a filter matches, running in the background for whoever started them. Cancel stops a job after the batch in hand; what it changed so far stays changed.',
    starter: 'Started by',
    what: 'Change',
    progress: 'Progress',
    state: 'State',
    started: 'Started',
    empty: 'No bulk jobs',
    deletedAccount: 'A deleted account',
    actions: {
      lock: 'Lock',
      unlock: 'Unlock',
      setTag: 'Add tag',
      removeTag: 'Remove tag',
      delete: 'Delete',
      restore: 'Restore',
    },
    // A tag job with its tag's name (left out while it loads, or once the tag is deleted).
    withTag: '{{action}} “{{tag}}”',
    // The filter the job's list had, in words: "Lock · search “hoodie” · type Top".
    filter: {
      all: 'every asset',
      allTrash: 'everything in the Trash',
      search: 'search “{{text}}”',
      field: '{{field}} {{values}}',
      locked: 'locked only',
      unlocked: 'unlocked only',
      tags_one: '{{count}} tag',
      tags_other: '{{count}} tags',
      applications_one: '{{count}} application',
      applications_other: '{{count}} applications',
      deletedBy_one: 'deleted by {{count}} person',
      deletedBy_other: 'deleted by {{count}} people',
    },
    fields: { type: 'type', gender: 'gender', kind: 'kind' },
    states: {
      queued: 'Queued',
      running: 'Running',
      done: 'Done',
      cancelled: 'Cancelled',
      failed: 'Failed',
    },
    cancelledByYou: 'Cancelled by you',
    cancelledByStarter: 'Cancelled by its starter',
    cancel: 'Cancel',
    cancelLabel: 'Cancel the job of {{email}}',
    cancelTitle: 'Cancel this bulk job?',
    cancelBody:
      '“{{what}}”, started by {{email}}, stops after the batch in hand. What it changed so far stays changed.',
    confirmCancel: 'Cancel job',
    keepRunning: 'Keep it running',
    cancelling: 'Cancelling…',
    cancelled: 'Bulk job of {{email}} cancelled',
  },
} as const;
