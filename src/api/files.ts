/**
 * GET `v1/files/{key}`: a stored file's original name and size, for the file fields that show
 * a stored file (the address itself is a random key). Every failure carries `service: 'files'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { uploadResultSchema, type UploadResult } from '../../contract/schemas';

const filesService = tagService('files');
/** The address of a file this server stores: `/files/<key>`. */
const STORED_FILE = /^\/files\/([0-9a-f]+\.[a-z0-9]+)$/;

/** The storage key of a `/files/<key>` address, or undefined for any other address. */
export function storedFileKey(url: string): string | undefined {
  return STORED_FILE.exec(url)?.[1];
}

/** What is known about the stored file `key`. */
export function getStoredFile(
  key: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<UploadResult> {
  return filesService(() =>
    apiRequest(
      endpoint(ENDPOINTS.file, { key }),
      uploadResultSchema,
      signal === undefined ? {} : { signal },
    ),
  );
}

/** A stored file's name and size; a key names one file for ever, so it never goes stale. */
export const storedFileQuery = (key: string) =>
  queryOptions({
    queryKey: ['files', key] as const,
    queryFn: ({ signal }) => getStoredFile(key, { signal }),
    staleTime: Infinity,
  });
