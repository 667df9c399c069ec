/**
 * Changes of records, one function per change: each sends its request, then brings the cache up
 * to date with what it changed (a record takes the answer; the reads and lists showing it are
 * read again), and answers what the request answered. A failed request leaves the cache as it
 * was and rejects with its error. Screens and machines change records through these, never by
 * pairing a request with a cache update themselves. (The Trash, users, sessions and invitations
 * update the cache in their own request functions; an asset's, a cage mesh's and a user's
 * changes are their features', src/features/<name>/api/mutations.ts.)
 */
import { applicationsChanged, createApplication, renameApplication } from './applications';
import { createTag, deleteTag, renameTag, tagsChanged } from './tags';

/** Answers what `request` answered once `cacheFollows` has brought the cache up to date with it. */
export async function change<T>(
  request: Promise<T>,
  cacheFollows: (answer: T) => Promise<unknown>,
): Promise<T> {
  const answer = await request;
  await cacheFollows(answer);
  return answer;
}

// ---------------------------------------------------------------- tags and applications

/** Creates a tag. */
export const addTag = (name: string) => change(createTag(name), tagsChanged);

/** Renames a tag (see renameTag for `baseVersion`). */
export const changeTagName = (id: string, name: string, baseVersion?: number) =>
  change(renameTag(id, name, baseVersion), tagsChanged);

/** Deletes a tag: it goes to the Trash and off every asset. */
export const trashTag = (id: string) => change(deleteTag(id), tagsChanged);

/** Creates an application (admins; a name in use answers 409). */
export const addApplication = (name: string) =>
  change(createApplication(name), applicationsChanged);

/** Renames an application (see renameApplication for `baseVersion`). */
export const changeApplicationName = (id: string, name: string, baseVersion?: number) =>
  change(renameApplication(id, name, baseVersion), applicationsChanged);
