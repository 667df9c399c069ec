/** Uploads and stored files. */
import { z } from 'zod/mini';
import { uploadKindSchema, uploadResultSchema } from '../schemas';
import { bearer, open, ok, type Route } from './route';

/** A stored file's key: 24 hex digits and its type's extension (server/storage.ts KEY_PATTERN). */
export const fileKeySchema = z.string().check(z.regex(/^[0-9a-f]{24}\.([a-z]{3})$/));

/** Uploading a file, what a stored one is, and its bytes. */
export const fileRoutes: Route[] = [
  bearer('post', '/v1/uploads/{kind}', 'Files', 'Upload a file (its bytes as the body)', [], {
    params: { kind: uploadKindSchema },
    anyOf: [
      ['create', 'Asset'],
      ['update', 'Asset'],
    ],
    bodyType: 'application/octet-stream',
    answer: ok(uploadResultSchema),
    errors: [411, 413, 415, 422],
  }),
  bearer('get', '/v1/files/{key}', 'Files', 'What a stored file is', [], {
    params: { key: fileKeySchema },
    answer: ok(uploadResultSchema),
  }),
  open('get', '/files/{key}', 'Files', 'A stored file (unguessable keys; ranges; `?delivery`)', {
    params: { key: fileKeySchema },
    answerType: 'application/octet-stream',
    errors: [206, 304, 416],
  }),
];
