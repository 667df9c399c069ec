/**
 * POST /v1/uploads/{kind}: the request body is the file's raw bytes (not multipart), streamed
 * into the storage as it arrives, never buffered whole. The kind's rule (core/files/rules.ts)
 * bounds the size (413 as soon as it is exceeded, from Content-Length when given) and lists the
 * accepted types, sniffed from the bytes (415); the client's Content-Type is ignored, and its
 * file name (X-File-Name) is only kept as the name shown and downloaded (server/stored-files.ts). Once stored, the file passes the same content checks as in the upload control
 * (core/files/validate.ts: glTF and PSD headers, image headers and the kind's image rules) or
 * is deleted again (400).
 */
import { Hono, type Context } from 'hono';
import type { UploadKind, UploadResult } from '../../contract/schemas';
import { uploadKindSchema } from '../../contract/schemas';
import { UPLOAD_RULES, type UploadRule } from '../../core/files/rules';
import { contentMismatch, describeContent, type SniffedType } from '../../core/files/sniff';
import { validateFileContent } from '../../core/files/validate';
import type { AppAbility } from '../../contract/ability';
import type { AuthEnv } from '../auth/middleware';
import { deliverModel, DELIVERY_UPLOAD_WAIT_MS } from '../deliveries';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { readParam } from '../http/validate';
import { StorageLimitError, type Storage, type StoredFile } from '../storage';
import {
  FILE_NAME_HEADER,
  cleanFileName,
  nameWithExtensionOf,
  recordStoredFile,
} from '../stored-files';
import { log } from '../log';

/** Who may upload a kind: asset editors, and for models also cage-mesh editors. */
function mayUpload(ability: AppAbility, kind: UploadKind): boolean {
  const subjects = kind === 'model' ? (['Asset', 'CageMesh'] as const) : (['Asset'] as const);
  return subjects.some(
    (subject) => ability.can('create', subject) || ability.can('update', subject),
  );
}

/** How messages name an upload of each kind. */
const KIND_NAMES: Record<UploadKind, string> = {
  model: 'A model',
  icon: 'An icon',
  texture: 'A texture',
  source: 'A source file',
};

/**
 * Streams `body` (of `declaredSize` bytes when the sender said) into `storage` under the rule
 * of `kind`: 413 past the size limit, 415 for a
 * type the kind does not accept, 400 below the minimum size or when the content checks fail.
 * A refused file is never kept.
 */
export async function storeUpload(
  storage: Storage,
  kind: UploadKind,
  body: ReadableStream<Uint8Array>,
  declaredSize?: number,
): Promise<StoredFile> {
  const rule = UPLOAD_RULES[kind];
  const accepted = Object.keys(rule.accept) as SniffedType[];
  let stored: StoredFile;
  try {
    stored = await storage.put(body, {
      maxBytes: rule.maxSize,
      size: declaredSize,
      // Refused from its first bytes, before the rest is written.
      accept: (contentType, head) => {
        if (head.byteLength === 0) fail(400, 'VALIDATION_ERROR', 'The file is empty');
        if (!accepted.includes(contentType)) {
          // Says what the file really is, in the upload control's words.
          fail(415, 'UNSUPPORTED_MEDIA_TYPE', contentMismatch(describeContent(head), accepted));
        }
      },
    });
  } catch (error) {
    if (error instanceof StorageLimitError) tooLarge(kind, rule.maxSize);
    throw error;
  }
  const problem =
    stored.size < rule.minSize
      ? `${KIND_NAMES[kind]} is at least ${rule.minSize} bytes; this file has ${stored.size}`
      : await contentProblem(storage, stored, rule);
  if (problem !== undefined) {
    await storage.delete(stored.key);
    fail(400, 'VALIDATION_ERROR', problem);
  }
  return stored;
}

/**
 * What the shared content checks (core/files/validate.ts: GLB and PSD headers, image headers,
 * PNG checksums, the kind's image rules) find wrong with a stored file, as a message that
 * starts with the translation key of the failure; undefined when the file passes.
 */
async function contentProblem(
  storage: Storage,
  stored: StoredFile,
  rule: UploadRule,
): Promise<string | undefined> {
  const blob = await storage.blob(stored.key);
  if (!blob) return 'The stored file disappeared';
  const error = await validateFileContent(blob, rule);
  if (!error) return undefined;
  const values = Object.entries(error.values ?? {}).map(([name, value]) => `${name} ${value}`);
  return [error.key, error.detail, values.length > 0 ? values.join(', ') : undefined]
    .filter((part) => part !== undefined)
    .join(': ');
}

function tooLarge(kind: UploadKind, maxBytes: number): never {
  const mb = maxBytes / (1024 * 1024);
  fail(413, 'PAYLOAD_TOO_LARGE', `${KIND_NAMES[kind]} is at most ${mb} MB (${maxBytes} bytes)`);
}

/**
 * Derives the delivery version of an uploaded model before the upload answers (so the asset
 * saved with it shows it), in its uploader's turn and for at most DELIVERY_UPLOAD_WAIT_MS
 * (then it stays queued). Derivation problems are recorded on the model; should the database
 * or storage fail meanwhile, the upload still stands and the backfill derives it later.
 */
async function deliverUploadedModel(deps: Deps, key: string, uploader: string): Promise<void> {
  try {
    await deliverModel(deps, key, { requestedBy: uploader, waitMs: DELIVERY_UPLOAD_WAIT_MS });
  } catch (error) {
    log.error({ err: error, modelKey: key }, `Deriving the delivery version of ${key} failed`);
  }
}

/** Content-Length as a number, or undefined when absent or not a plain integer. */
function contentLength(c: Context): number | undefined {
  const raw = c.req.header('content-length');
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Routes mounted at /v1/uploads (outside the global JSON body limit, see app.ts), from their
 * declaration (contract/routes.ts): the body is the file's bytes, read here as a stream.
 */
export function uploadRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/uploads');

  on('post', '/v1/uploads/{kind}', undefined, async (c) => {
    const kind = readParam(uploadKindSchema, c.req.param('kind'), 'kind');
    if (!mayUpload(c.get('auth').ability, kind)) {
      fail(403, 'FORBIDDEN', `Your role may not upload a ${kind}`);
    }
    const rule = UPLOAD_RULES[kind];
    const declared = contentLength(c);
    if (declared !== undefined && declared > rule.maxSize) tooLarge(kind, rule.maxSize);
    const body = c.req.raw.body;
    if (!body || declared === 0) fail(400, 'VALIDATION_ERROR', 'The file is empty');
    const stored = await storeUpload(deps.storage, kind, body, declared);
    const name =
      cleanFileName(c.req.header(FILE_NAME_HEADER)) ?? nameWithExtensionOf(kind, stored.key);
    const data: UploadResult = await recordStoredFile(
      deps.db,
      stored,
      name,
      c.get('auth').userId,
      deps.now(),
    );
    if (kind === 'model') await deliverUploadedModel(deps, stored.key, c.get('auth').userId);
    return c.json({ data });
  });

  return app;
}
