// The /embed query parameters, read by the page's own entry (src/embed-main.tsx).
import { z } from 'zod/mini';
import { fogProblem, type FogOptions } from '../../ui/canvas/fog';
import type { AoMode, Quality } from '../../ui/canvas/quality';

/**
 * A query parameter that is dropped with a console warning when malformed (with the reason,
 * for options checked by their own rules): an embed with one bad option still shows the
 * avatar, never an error page.
 */
const param = <T extends z.core.$ZodType>(name: string, schema: T) =>
  z.catch(z.optional(schema), (ctx) => {
    const reason = ctx.error.issues.find((issue) => issue.code === 'custom')?.message;
    console.warn(
      `/embed: ignoring invalid ${name}=${JSON.stringify(ctx.input)}${reason ? `: ${reason}` : ''}`,
    );
    return undefined;
  });

/** The address is read as JSON first (readSearch), so "true" and "1" arrive as boolean / number. */
const flag = (name: string) =>
  param(
    name,
    z.union([
      z.boolean(),
      z.pipe(
        z.enum(['true', 'false']),
        z.transform((v) => v === 'true'),
      ),
    ]),
  );
const source = z.string().check(z.minLength(1));
// Literal tuples for z.enum; `satisfies` keeps them in step with quality.ts.
const presets = ['Combined', 'AO', 'No AO', 'Split', 'Split AO'] as const satisfies AoMode[];
const qualities = ['Performance', 'Low', 'Medium', 'High', 'Ultra'] as const satisfies Quality[];

/** The options that take the same values in the address and in messages. */
export const optionValues = {
  environment: source,
  // Arrives parsed when it is valid JSON; anything else fails the record check.
  emotion: z.record(z.string(), z.number()),
  ao: z.enum(presets),
  quality: z.enum(qualities),
  scale: z.number().check(z.positive()),
  /** Spec §9: the spawn effect and animation play once by default. */
  spawnEffectLoop: z.int().check(z.positive()),
  spawnAnimationLoop: z.int().check(z.positive()),
  // Arrives parsed when it is valid JSON; checked by the viewer's own rules (fog.ts).
  fog: z.custom<FogOptions>((value) => fogProblem(value) === null, {
    error: (issue) => fogProblem(issue.input) ?? undefined,
  }),
};

export const searchSchema = z.object({
  modelSrc: param('modelSrc', z.union([source, z.array(source)])),
  environment: param('environment', optionValues.environment),
  animationSrc: param('animationSrc', source),
  spawnEffect: param('spawnEffect', source),
  spawnEffectAnimation: param('spawnEffectAnimation', source),
  spawnEffectLoop: param('spawnEffectLoop', optionValues.spawnEffectLoop),
  spawnAnimation: param('spawnAnimation', source),
  spawnAnimationLoop: param('spawnAnimationLoop', optionValues.spawnAnimationLoop),
  emotion: param('emotion', optionValues.emotion),
  ao: param('ao', optionValues.ao),
  quality: param('quality', optionValues.quality),
  aoHalfResolution: flag('aoHalfResolution'),
  scale: param('scale', optionValues.scale),
  fit: flag('fit'),
  float: flag('float'),
  snap: flag('snap'),
  lockVertical: flag('lockVertical'),
  shadows: flag('shadows'),
  zoom: flag('zoom'),
  fog: param('fog', optionValues.fog),
  debug: flag('debug'),
  // Read by messages.ts (parseAllowedOrigins), which fails closed on a malformed list.
  allowedOrigins: z.optional(z.unknown()),
});

export type EmbedSearch = z.output<typeof searchSchema>;

/** Text that reads as JSON: what TanStack Router's default search parser tries JSON.parse on. */
const JSON_START = /^(?:\s|["[{\d-]|fa|nu|tr)/;

/** One address value as the router reads it: "true", "false" and plain numbers typed. */
function typed(value: string): unknown {
  if (!value) return '';
  if (value === 'false') return false;
  if (value === 'true') return true;
  const number = +value;
  const plain = number * 0 === 0 && String(number) === value ? number : value;
  if (typeof plain !== 'string' || !JSON_START.test(plain)) return plain;
  try {
    return JSON.parse(plain) as unknown;
  } catch {
    return plain;
  }
}

/**
 * The /embed address's parameters, read exactly as the app's router reads a search (values
 * typed, then JSON when they look like it; a repeated key becomes a list), without loading the
 * router: /embed is a page of its own.
 */
export function readSearch(search: string): EmbedSearch {
  const query: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const previous = query[key];
    const next = typed(value);
    if (previous === undefined) query[key] = next;
    else if (Array.isArray(previous)) previous.push(next);
    else query[key] = [previous, next];
  }
  return z.parse(searchSchema, query);
}
