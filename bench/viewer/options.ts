// The viewer bench's options: from the command line (viewerOptionsFromArgs) or a caller, and
// the defaults that fill in the rest.
import { AVATARS, CASES, VIEWERS, type Avatar, type Case, type Viewer } from './config';

export interface BenchViewerOptions {
  /** Runs per viewer, avatar and case (viewers alternated run by run). */
  runs?: number;
  /** Model switches in the memory measurement. */
  switches?: number;
  viewers?: readonly Viewer[];
  cases?: readonly Case[];
  avatars?: readonly Avatar[];
  /** Frames with draws are counted over this long, the avatar standing still. */
  stillMs?: number;
  /** Longest wait for a viewer's first painted frame and loaded signal, in ms. */
  timeoutMs?: number;
  /** Run `npm install --prefix bench/viewer` when the peers are missing. */
  install?: boolean;
  screenshots?: boolean;
  /** Also record one Chrome trace per viewer and avatar and print where the time goes. */
  trace?: boolean;
  /** A git commit whose /embed is measured too, as `ours-before`. */
  before?: string;
}
export type Options = Required<Omit<BenchViewerOptions, 'before'>> &
  Pick<BenchViewerOptions, 'before'>;

/** Reads `--runs 3 --switches 50 --cases throttled --viewers ours,visage --avatars halfBodyAPIv2.glb`. */
export function viewerOptionsFromArgs(args: readonly string[]): BenchViewerOptions {
  const options: BenchViewerOptions = {};
  const list = <T extends string>(value: string, allowed: readonly T[], flag: string): T[] => {
    const items = value.split(',').filter(Boolean);
    const wrong = items.filter((item) => !(allowed as readonly string[]).includes(item));
    if (wrong.length || !items.length)
      throw new Error(`${flag}: expected some of ${allowed.join(', ')}, got "${value}"`);
    return items as T[];
  };
  const count = (value: string, flag: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${flag}: expected a whole number`);
    return n;
  };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value = ''] = [args[i]!, args[i + 1]];
    if (flag === '--runs') options.runs = Math.max(1, count(value, flag));
    else if (flag === '--switches') options.switches = count(value, flag);
    else if (flag === '--viewers') options.viewers = list(value, VIEWERS, flag);
    else if (flag === '--cases') options.cases = list(value, CASES, flag);
    else if (flag === '--avatars') options.avatars = list(value, AVATARS, flag);
    else if (flag === '--no-screenshots') {
      options.screenshots = false;
      i--;
    } else if (flag === '--trace') {
      options.trace = true;
      i--;
    } else if (flag === '--before') {
      if (!value) throw new Error('--before: expected a git commit (a hash, tag or branch)');
      options.before = value;
    } else
      throw new Error(
        `unknown option ${flag} (--runs N, --switches N, --viewers ${VIEWERS.join(',')}, --cases ${CASES.join(',')}, --avatars ${AVATARS.join(',')}, --no-screenshots, --trace, --before REF)`,
      );
  }
  return options;
}

/** `options` with the defaults for what it leaves out. */
export function withDefaults(options: BenchViewerOptions): Options {
  return {
    runs: 5,
    switches: 50,
    viewers: VIEWERS,
    cases: CASES,
    avatars: AVATARS,
    stillMs: 3000,
    timeoutMs: 180_000,
    install: true,
    screenshots: true,
    trace: false,
    ...options,
  };
}
