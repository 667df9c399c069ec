/**
 * Original names of stored files. An upload may say what it was called (the `X-File-Name`
 * header, percent-encoded UTF-8); the name is cleaned, ends with the file's real type
 * (core/files/file-name.ts), is kept beside the random storage key and served with the file's
 * size, so the app shows "avatar.glb, 1.1 MB" rather than the key and downloads save under the
 * original name.
 */
import type { UploadResult } from '../contract/schemas';
import {
  cleanFileName as cleanName,
  nameForType,
  withoutFormatControls,
} from '../core/files/file-name';
import type { Db } from './db';
import { fileUrl, type Storage, type StoredFile } from './storage';

/** The request header that carries an upload's original name. */
export const FILE_NAME_HEADER = 'x-file-name';

/**
 * The file name an upload gave, as core/files/file-name.ts keeps it (last path segment, no
 * control or bidirectional characters), or undefined when there is none or it does not decode.
 */
export function cleanFileName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return cleanName(decodeURIComponent(header));
  } catch {
    return undefined;
  }
}

/** `base` with the extension of the storage key (`avatar icon` + `….webp`: `avatar icon.webp`). */
export function nameWithExtensionOf(base: string, key: string): string {
  return `${withoutFormatControls(base)}${key.slice(key.lastIndexOf('.'))}`;
}

/**
 * Records the original name of a file just stored (named after its kind when it had none), its
 * extension the file's real one; answers the file as an upload answers it.
 */
export async function recordStoredFile(
  db: Db,
  file: StoredFile,
  given: string,
  uploadedBy: string | null,
  now: Date,
): Promise<UploadResult> {
  const name = nameForType(given, file.contentType);
  await db.query(
    `INSERT INTO stored_files (key, original_name, size, content_type, uploaded_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (key) DO NOTHING`,
    [file.key, name, file.size, file.contentType, uploadedBy, now],
  );
  return { url: fileUrl(file.key), name, size: file.size, contentType: file.contentType };
}

/** A stored file's address, original name (its key when unknown), size and type. */
export async function storedFileInfo(
  db: Db,
  storage: Storage,
  key: string,
): Promise<UploadResult | undefined> {
  const file = await storage.stat(key);
  if (!file) return undefined;
  const { rows } = await db.query<{ original_name: string }>(
    'SELECT original_name FROM stored_files WHERE key = $1',
    [key],
  );
  return {
    url: fileUrl(key),
    // Names kept before bidirectional controls were dropped, or before a name ended with its
    // file's type, are shown and downloaded as they would be kept now.
    name: nameForType(withoutFormatControls(rows[0]?.original_name ?? key), file.contentType),
    size: file.size,
    contentType: file.contentType,
  };
}

/**
 * Forgets the names of deleted files, and the delivery versions of deleted models (whose files
 * nothing then refers to: the next sweep removes them).
 */
export async function forgetStoredFiles(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query('DELETE FROM stored_files WHERE key = ANY($1)', [keys]);
  await db.query('DELETE FROM model_deliveries WHERE model_key = ANY($1)', [keys]);
}
