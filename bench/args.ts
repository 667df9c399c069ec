import { parseArgs } from 'node:util';

type Values<D> = { [K in keyof D]: undefined extends D[K] ? string | undefined : string };

/**
 * A bench's `--name value` options, each a string: `defaults` names every option the bench
 * takes, with its default (undefined: none). Any other option, or one without its value, is
 * an error that names it.
 */
export function benchOptions<const D extends Record<string, string | undefined>>(
  args: string[],
  defaults: D,
): Values<D> {
  const options = Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => [
      name,
      value === undefined
        ? { type: 'string' as const }
        : { type: 'string' as const, default: value },
    ]),
  );
  return parseArgs({ args, options }).values as Values<D>;
}
