/**
 * Property-based fuzzing (fast-check) of every reader of untrusted input: the PNG, JPEG, PSD and
 * GLB readers of uploads, the GLB JSON reader of the viewer, the /embed message and address
 * parsers, and the list query parsers of the client and the server. Each target pairs inputs
 * that reach deep (real files with bytes flipped, cut, spliced and length fields overwritten,
 * plus valid-looking structures with random fields) with the outcomes its reader may have: a
 * result or one of its typed errors. Anything else (an exception, an error value that stands
 * for one, a case over CASE_LIMIT_MS) is a bug.
 *
 * Used by tests/fuzz/readers.test.ts (a few hundred cases each, FUZZ_RUNS) and bench/fuzz.ts
 * (100,000 each).
 */
import fc from 'fast-check';
import { z } from 'zod/mini';
import { assetListSpec } from '../../server/asset-store';
import { embedPreloadLinks } from '../../server/embed-preload';
import { filterFromJson, parseListQuery } from '../../server/list';
import { defineList, parseListSearch } from '../../src/api/list-url';
import { decodeOrder } from '../../contract/list-query';
import { checkGlbHeader } from '../../core/files/glb';
import { readImageHeader } from '../../core/files/image-header';
import { checkPngIntegrity } from '../../core/files/png-integrity';
import { checkPsdHeader } from '../../core/files/psd';
import { UPLOAD_RULES } from '../../core/files/rules';
import { validateFileContent, type FileError, type FileErrorKey } from '../../core/files/validate';
import { parseAllowedOrigins, parseRequest } from '../../src/routes/-embed/messages';
import { readSearch } from '../../src/routes/-embed/options';
import { glbExtensionsUsed } from '../../src/ui/canvas/decoders';
import { FILE_INPUTS } from './file-inputs';

/** The most one case may take, in milliseconds. */
export const CASE_LIMIT_MS = 50;

export interface FuzzTarget<T> {
  name: string;
  inputs: fc.Arbitrary<T>;
  /** Runs the reader on `input`; throws when the outcome is not one the reader may have. */
  check: (input: T) => Promise<void>;
}

const FILE_ERROR_KEYS: Record<FileErrorKey, true> = {
  'fileInput.imageSizeTooLarge': true,
  'fileInput.wrongColorType': true,
  'fileInput.wrongBitDepth': true,
  'fileInput.wrongColorSpace': true,
  'fileInput.corrupt': true,
  'fileInput.wrongType': true,
  'fileInput.wrongContent': true,
  'fileInput.tooLarge': true,
  'fileInput.tooSmall': true,
  'fileInput.notGlb': true,
  'fileInput.modelOverLimit': true,
  'fileInput.noMesh': true,
};

/**
 * A FileError the reader meant. "The file could not be read" is what a reader returns for an
 * exception it caught; an in-memory Blob always reads, so here it stands for a bug.
 */
function expectFileError(error: FileError | null): void {
  if (error === null) return;
  if (!Object.hasOwn(FILE_ERROR_KEYS, error.key)) throw new Error(`Unknown error key ${error.key}`);
  if (error.detail?.startsWith('The file could not be read')) {
    throw new Error(`The reader threw: ${error.detail}`);
  }
}

const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

/** The image readers, PNG checksums and the whole upload check on one file. */
async function checkImage(bytes: Uint8Array): Promise<void> {
  const file = blob(bytes);
  const header = await readImageHeader(file);
  if (header.ok !== true && header.ok !== false) throw new Error('readImageHeader: no result');
  if (!header.ok) expectFileError(header.error);
  expectFileError(await checkPngIntegrity(file));
  expectFileError(await validateFileContent(file, UPLOAD_RULES.texture));
}

async function checkGlb(bytes: Uint8Array): Promise<void> {
  const file = blob(bytes);
  expectFileError(await checkGlbHeader(file));
  expectFileError(await validateFileContent(file, UPLOAD_RULES.model));
  // Every input is a fresh array of its own buffer: no copy of a half-megabyte model per case.
  const extensions = glbExtensionsUsed(bytes.buffer as ArrayBuffer);
  if (!extensions.every((e) => typeof e === 'string')) throw new Error('glbExtensionsUsed');
}

async function checkPsd(bytes: Uint8Array): Promise<void> {
  const file = blob(bytes);
  expectFileError(await checkPsdHeader(file));
  expectFileError(await validateFileContent(file, UPLOAD_RULES.source));
}

/** The server's typed error: an ApiError (thrown by `fail`) answering 400. */
function expectBadRequest(error: unknown): void {
  const typed = error instanceof Error && error.name === 'ApiError';
  if (!typed || (error as { status?: unknown }).status !== 400) throw error;
}

// ---------------------------------------------------------------------------------------------
// Text inputs

/** Query keys a list or /embed reads, and a few it does not. */
const listKeys = fc.constantFrom(
  'page',
  'limit',
  'order',
  'search',
  'type',
  'gender',
  'locked',
  'filter',
  '__proto__',
  'constructor',
  'x',
);
const queryValue = fc.oneof(
  fc.string(),
  fc.constantFrom('', '0', '1', '-1', '1e3', '999999999', '10000000000', ' 1', '-name', '-', 'NaN'),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 300 }),
);
const queries = fc.dictionary(listKeys, fc.array(queryValue, { maxLength: 3 }), {
  noNullPrototype: false,
});

/** A filter schema as the app's lists declare them. */
const clientList = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    type: z.optional(z.array(z.enum(['top', 'bottom']))),
    locked: z.optional(z.boolean()),
  }),
  sortFields: ['name', 'createdAt'],
  defaultOrder: { name: 'asc' },
});

const embedKeys = fc.constantFrom(
  'modelSrc',
  'environment',
  'animationSrc',
  'spawnEffect',
  'emotion',
  'ao',
  'quality',
  'scale',
  'fit',
  'zoom',
  'spawnEffectLoop',
  'allowedOrigins',
  '__proto__',
);
const embedQueries = fc
  .array(fc.tuple(embedKeys, queryValue), { maxLength: 8 })
  .map((pairs) => new URLSearchParams(pairs).toString());

/** Messages shaped like /embed requests, with random values where the requests have theirs. */
const embedMessages = fc.oneof(
  fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }),
  fc.record(
    {
      type: fc.constantFrom('load', 'set', 'capture', 'x'),
      modelSrc: fc.oneof(
        fc.string(),
        fc.constant('/avatar.glb'),
        fc.array(
          fc.oneof(
            fc.string(),
            fc.constant('a.glb'),
            fc.uint8Array().map((b) => b.buffer),
          ),
        ),
        fc.uint8Array().map((b) => b.buffer),
        fc.anything(),
      ),
      mimeType: fc.oneof(fc.constantFrom('image/png', 'image/jpeg'), fc.anything()),
      quality: fc.oneof(fc.double(), fc.anything()),
      emotion: fc.oneof(fc.dictionary(fc.string(), fc.double()), fc.anything()),
      scale: fc.oneof(fc.double(), fc.anything()),
      ao: fc.anything(),
    },
    { requiredKeys: ['type'] },
  ),
);

// ---------------------------------------------------------------------------------------------
// The targets

/** A target whose input type is its own business. */
const target = <T>(t: FuzzTarget<T>) => t as FuzzTarget<unknown>;

export const FUZZ_TARGETS: FuzzTarget<unknown>[] = [
  target({
    name: 'PNG',
    inputs: FILE_INPUTS.png,
    check: checkImage,
  }),
  target({
    name: 'JPEG',
    inputs: FILE_INPUTS.jpeg,
    check: checkImage,
  }),
  target({
    name: 'PSD',
    inputs: FILE_INPUTS.psd,
    check: checkPsd,
  }),
  target({
    name: 'GLB',
    inputs: FILE_INPUTS.glb,
    check: checkGlb,
  }),
  target({
    name: 'embed message',
    inputs: embedMessages,
    check: (data) => {
      const parsed = parseRequest(data);
      if (!('request' in parsed) && typeof parsed.error !== 'string') throw new Error('no error');
      return Promise.resolve();
    },
  }),
  target({
    name: 'embed address',
    inputs: embedQueries,
    check: (query) => {
      const search = readSearch(query);
      parseAllowedOrigins(search.allowedOrigins);
      embedPreloadLinks(new URLSearchParams(query));
      return Promise.resolve();
    },
  }),
  target({
    name: 'list query (server)',
    inputs: fc.oneof(
      queries.map((query) => ({ query })),
      fc.jsonValue().map((json) => ({ json })),
    ),
    check: (input) => {
      const { query, json } = input as { query?: Record<string, string[]>; json?: unknown };
      try {
        if (query) parseListQuery(assetListSpec, query);
        else if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
          filterFromJson(assetListSpec, json as Record<string, unknown>);
        }
      } catch (error) {
        expectBadRequest(error);
      }
      return Promise.resolve();
    },
  }),
  target({
    name: 'list query (client)',
    inputs: fc.oneof(fc.dictionary(listKeys, queryValue), fc.dictionary(listKeys, fc.jsonValue())),
    check: (raw) => {
      const state = parseListSearch(raw, clientList.filterSchema, clientList);
      if (!Number.isInteger(state.page) || state.page < 1) throw new Error(`page ${state.page}`);
      clientList.validateSearch(raw);
      if (typeof raw.order === 'string') decodeOrder(raw.order);
      return Promise.resolve();
    },
  }),
];

/**
 * Runs `check` on `input`. A case over CASE_LIMIT_MS runs again (up to three times in all) and
 * counts its fastest run: a slow input is slow every time, a busy machine or a GC pause is not.
 */
export async function timedCase<T>(
  target: FuzzTarget<T>,
  input: T,
): Promise<{ ms: number; error?: unknown }> {
  let fastest = Infinity;
  for (let run = 0; run < 3 && fastest > CASE_LIMIT_MS; run++) {
    const started = performance.now();
    try {
      await target.check(input);
    } catch (error) {
      return { ms: performance.now() - started, error };
    }
    fastest = Math.min(fastest, performance.now() - started);
  }
  return { ms: fastest };
}
