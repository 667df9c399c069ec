// The /embed query parameters. This module is part of the route's configuration, which loads
// with the app's start-up bundle (see README "Sign-in page budget"): message handling lives in
// messages.ts, which loads with the route's component only.
import { z } from 'zod/mini';
import type { AoMode, Quality } from '../../ui/canvas/quality';

/**
 * A query parameter that is dropped with a console warning when malformed: an embed with
 * one bad option still shows the avatar, never an error page.
 */
const param = <T extends z.core.$ZodType>(name: string, schema: T) =>
  z.catch(z.optional(schema), (ctx) => {
    console.warn(`/embed: ignoring invalid ${name}=${JSON.stringify(ctx.input)}`);
    return undefined;
  });

/** TanStack Router parses values as JSON first, so "true" and "1" arrive as boolean / number. */
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
// Not imported from ui/canvas/quality: that module would come into the start-up bundle.
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
  // Read by messages.ts (parseAllowedOrigins), which fails closed on a malformed list.
  allowedOrigins: z.optional(z.unknown()),
});

export type EmbedSearch = z.output<typeof searchSchema>;
