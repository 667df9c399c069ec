// The /embed end of the postMessage protocol (types in src/embed-protocol.ts): validating what
// the embedding page posts, the origin allow-list, and the viewer options it all adds up to.
import { z } from 'zod/mini';
import type { EmbedOptions } from '../../embed-protocol';
import type { AvatarViewerOptions } from '../../ui/canvas/viewer-options';
import { isValidModelSource, type ModelSource } from '../../ui/canvas/model-source';
import { optionValues, type EmbedSearch } from './options';

/** Blob types taken as binary glTF: a download's Blob is often untyped or octet-stream. */
const GLB_BLOB_TYPES = new Set(['model/gltf-binary', 'application/octet-stream', '']);
const SOURCE_HINT =
  'expected a .glb/.fbx address, a binary glTF data URL, a model/gltf-binary Blob or an ArrayBuffer';

/** A source as the viewer takes it (Blobs typed model/gltf-binary), or why it is not one. */
function toModelSource(value: unknown): { source: ModelSource } | { error: string } {
  if (typeof value === 'string' && isValidModelSource(value)) return { source: value };
  // The viewer keys its model cache by Blob identity and never stores Blobs offline, so a
  // Blob is handed over as it is rather than as an object URL.
  if (value instanceof Blob && value.type === 'model/gltf-binary') return { source: value };
  if (value instanceof Blob && GLB_BLOB_TYPES.has(value.type)) {
    return { source: new Blob([value], { type: 'model/gltf-binary' }) };
  }
  if (value instanceof ArrayBuffer) {
    return { source: new Blob([value], { type: 'model/gltf-binary' }) };
  }
  if (value instanceof Blob) {
    return {
      error: `a Blob of type ${JSON.stringify(value.type)} is not binary glTF (model/gltf-binary)`,
    };
  }
  return { error: SOURCE_HINT };
}

/** One model source. */
const modelSource = z.pipe(
  z.unknown(),
  z.transform((value, ctx): ModelSource => {
    const result = toModelSource(value);
    if ('source' in result) return result.source;
    ctx.issues.push({ code: 'custom', input: value, message: result.error });
    return z.NEVER;
  }),
);

/** One model source or a non-empty list of them (combined into one avatar). */
const modelSources = z.pipe(
  z.unknown(),
  z.transform((value, ctx): ModelSource | ModelSource[] => {
    const list = Array.isArray(value) ? (value as unknown[]) : [value];
    if (list.length === 0) {
      ctx.issues.push({ code: 'custom', input: value, message: 'expected at least one source' });
    }
    const sources = list.flatMap((item, index) => {
      const result = toModelSource(item);
      if ('source' in result) return [result.source];
      const path = Array.isArray(value) ? [index] : [];
      ctx.issues.push({ code: 'custom', input: item, path, message: result.error });
      return [];
    });
    if (sources.length < list.length || list.length === 0) return z.NEVER;
    return Array.isArray(value) ? sources : sources[0]!;
  }),
);

/** An option change: a new value, or null for the option's default. */
const change = <T extends z.core.$ZodType>(schema: T) => z.optional(z.nullable(schema));

const optionChanges = {
  environment: change(optionValues.environment),
  animationSrc: change(modelSource),
  spawnEffect: change(modelSource),
  spawnEffectAnimation: change(modelSource),
  spawnEffectLoop: change(optionValues.spawnEffectLoop),
  spawnAnimation: change(modelSource),
  spawnAnimationLoop: change(optionValues.spawnAnimationLoop),
  emotion: change(optionValues.emotion),
  ao: change(optionValues.ao),
  quality: change(optionValues.quality),
  aoHalfResolution: change(z.boolean()),
  scale: change(optionValues.scale),
  fit: change(z.boolean()),
  float: change(z.boolean()),
  snap: change(z.boolean()),
  lockVertical: change(z.boolean()),
  shadows: change(z.boolean()),
  zoom: change(z.boolean()),
  fog: change(optionValues.fog),
  debug: change(z.boolean()),
} satisfies Record<keyof EmbedOptions, z.core.$ZodType>;

const requests = {
  load: z.strictObject({
    type: z.literal('load'),
    modelSrc: modelSources,
    ...optionChanges,
  }),
  set: z.strictObject({ type: z.literal('set'), ...optionChanges }),
  // Not strict: this request predates the others, and extra fields never hurt it.
  capture: z.object({
    type: z.literal('capture'),
    mimeType: z.optional(z.string()),
    quality: z.optional(z.number()),
  }),
};

/** A valid request, its sources as the viewer takes them. */
export type ParsedRequest = z.output<(typeof requests)[keyof typeof requests]>;

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown option ${issue.keys.join(', ')}`;
    case 'invalid_type':
      return `${at}expected ${issue.expected}`;
    case 'invalid_value':
      return `${at}expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
    case 'too_small':
      return `${at}must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
    default:
      return `${at}${issue.message}`;
  }
}

/** Validates a posted message: the request, or what was wrong with it (never throws). */
export function parseRequest(data: unknown): { request: ParsedRequest } | { error: string } {
  const type = typeof data === 'object' && data !== null && 'type' in data ? data.type : undefined;
  if (type !== 'load' && type !== 'set' && type !== 'capture') {
    return {
      error: 'Not an /embed request: expected an object with type "load", "set" or "capture"',
    };
  }
  const result = requests[type].safeParse(data);
  if (result.success) return { request: result.data };
  return {
    error: `Invalid "${type}" request: ${result.error.issues.map(describeIssue).join('; ')}`,
  };
}

/** The origins whose messages /embed takes: any ('*'), or exactly these. */
export type AllowedOrigins = '*' | readonly string[];

const originOf = (entry: string): string | undefined => {
  try {
    const url = new URL(entry);
    return /^https?:$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The `allowedOrigins` query parameter: comma-separated origins (or a JSON array of them);
 * missing or "*" means any. Invalid entries are dropped with a warning, and a list with no
 * valid entry allows nothing: a typo never opens the embed to every origin.
 */
export function parseAllowedOrigins(value: unknown): AllowedOrigins {
  if (value === undefined) return '*';
  const list: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(',')
      : [value];
  const entries = list
    .map((entry) => (typeof entry === 'string' ? entry.trim() : JSON.stringify(entry)))
    .filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === '*') return '*';
  const origins: string[] = [];
  for (const entry of entries) {
    const origin = originOf(entry);
    if (origin) origins.push(origin);
    else console.warn(`/embed: ignoring invalid allowedOrigins entry ${JSON.stringify(entry)}`);
  }
  return origins;
}

/** True when a message from `origin` may drive the viewer. */
export function isAllowedOrigin(origin: string, allowed: AllowedOrigins): boolean {
  return allowed === '*' || allowed.includes(origin);
}

/**
 * Where unsolicited events (ready, loading, loaded, ...) go: the one allowed origin when the
 * list names exactly one, otherwise any, since events carry nothing private.
 */
export function eventTargetOrigin(allowed: AllowedOrigins): string {
  return allowed !== '*' && allowed.length === 1 ? allowed[0]! : '*';
}

/** The targetOrigin of a reply: the sender's; an opaque (sandboxed) sender only takes '*'. */
export function replyTargetOrigin(senderOrigin: string): string {
  return senderOrigin === 'null' ? '*' : senderOrigin;
}

/** What the viewer shows: the address's options and model, or what messages have handed over. */
export interface EmbedSettings extends Omit<
  EmbedSearch,
  'modelSrc' | 'allowedOrigins' | SourceOption
> {
  modelSrc?: ModelSource | ModelSource[];
  animationSrc?: ModelSource;
  spawnEffect?: ModelSource;
  spawnEffectAnimation?: ModelSource;
  spawnAnimation?: ModelSource;
}
type SourceOption = 'animationSrc' | 'spawnEffect' | 'spawnEffectAnimation' | 'spawnAnimation';

/** What messages have changed so far: a value each, or null for the option's default. */
export type EmbedChanges = { [K in keyof EmbedSettings]?: EmbedSettings[K] | null };

/** `changes` with a load or set request's changes added (a later value wins). */
export function addChanges(changes: EmbedChanges, request: ParsedRequest): EmbedChanges {
  if (request.type === 'capture') return changes;
  const { type: _type, ...requested } = request;
  const added = Object.entries(requested).filter(([, value]) => value !== undefined);
  return { ...changes, ...(Object.fromEntries(added) as EmbedChanges) };
}

/** The viewer's settings: the address's, under the changes that messages have made. */
export function embedSettings(search: EmbedSearch, changes: EmbedChanges): EmbedSettings {
  const { allowedOrigins: _allowedOrigins, ...settings } = search;
  const merged: Record<string, unknown> = { ...settings };
  for (const [key, value] of Object.entries(changes)) merged[key] = value ?? undefined;
  return merged;
}

/** The viewer options for `settings` (the spawn parts and their loop counts as objects). */
export function viewerOptions(settings: EmbedSettings): Omit<AvatarViewerOptions, 'modelSrc'> {
  const {
    modelSrc: _modelSrc,
    spawnEffect,
    spawnEffectAnimation,
    spawnEffectLoop,
    spawnAnimation,
    spawnAnimationLoop,
    ...rest
  } = settings;
  return {
    ...rest,
    spawnEffect: spawnEffect
      ? { src: spawnEffect, animationSrc: spawnEffectAnimation, loop: spawnEffectLoop }
      : undefined,
    spawnAnimation: spawnAnimation ? { src: spawnAnimation, loop: spawnAnimationLoop } : undefined,
  };
}
