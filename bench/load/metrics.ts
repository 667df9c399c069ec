/**
 * The instances' /metrics as the load bench reads them: their memory now, a scrape of both
 * every SCRAPE_MS for the run's file, and the soak's memory verdict.
 */
import { randomBytes } from 'node:crypto';

export const METRICS_TOKEN = randomBytes(24).toString('hex');
export const SCRAPE_MS = 5000;

/** One instance's /metrics at `t` (ms since the epoch), cut to the lines the run keeps. */
interface Sample {
  t: number;
  instance: string;
  text: string;
}

async function scrape(instance: string): Promise<string> {
  const response = await fetch(`${instance}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return response.text();
}

const sampleOf = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);

export async function memory(instances: string[]): Promise<string> {
  const texts = await Promise.all(instances.map(scrape));
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  return texts
    .map(
      (text, i) =>
        `instance ${i + 1}: RSS ${mb(sampleOf(text, 'process_resident_memory_bytes'))}, ` +
        `heap used ${mb(sampleOf(text, 'nodejs_heap_size_used_bytes'))}`,
    )
    .join('; ');
}

/** Scrapes every instance every SCRAPE_MS until stopped; answers the samples. */
export function scrapeEvery(instances: string[]) {
  const samples: Sample[] = [];
  const keep = /^(http_request|process_|nodejs_eventloop_lag|nodejs_heap|event_stream_|db_)/;
  const take = async () => {
    const t = Date.now();
    const texts = await Promise.all(instances.map(scrape));
    texts.forEach((text, i) =>
      samples.push({
        t,
        instance: `instance-${i + 1}`,
        text: text
          .split('\n')
          .filter((line) => keep.test(line))
          .join('\n'),
      }),
    );
  };
  void take();
  const timer = setInterval(() => void take().catch(() => undefined), SCRAPE_MS);
  return () => {
    clearInterval(timer);
    return samples;
  };
}

/**
 * The soak's memory verdict, per instance, from the /metrics samples taken during it: each of
 * its first and last thirds is summed up by its lowest heap used and lowest RSS (the floor a
 * collection comes back to, not the sawtooth between collections). "growing" when either floor
 * of the last third is above the first third's by more than MEMORY_GROWTH: 10% and 16 MB for
 * the heap, 10% and 32 MB for RSS; else "flat". Fewer than 6 samples: "too short to tell".
 */
const MEMORY_GROWTH = { share: 0.1, heapBytes: 16 * 2 ** 20, rssBytes: 32 * 2 ** 20 };
/** A soak shorter than this gives thirds too short to hold a full collection each. */
const MEMORY_SOAK_MIN_S = 180;

function memoryVerdict(samples: Sample[]): string[] {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const instances = [...new Set(samples.map((sample) => sample.instance))].sort();
  return instances.map((instance) => {
    const points = samples
      .filter((sample) => sample.instance === instance)
      .map((sample) => ({
        heap: sampleOf(sample.text, 'nodejs_heap_size_used_bytes'),
        rss: sampleOf(sample.text, 'process_resident_memory_bytes'),
      }))
      .filter((point) => Number.isFinite(point.heap) && Number.isFinite(point.rss));
    if (points.length < 6) return `${instance}: too short to tell (${points.length} samples)`;
    const third = Math.floor(points.length / 3);
    const floor = (part: typeof points, key: 'heap' | 'rss') =>
      Math.min(...part.map((point) => point[key]));
    const first = points.slice(0, third);
    const last = points.slice(-third);
    const grew = (key: 'heap' | 'rss', bytes: number) => {
      const [from, to] = [floor(first, key), floor(last, key)];
      return { from, to, growing: to - from > Math.max(from * MEMORY_GROWTH.share, bytes) };
    };
    const heap = grew('heap', MEMORY_GROWTH.heapBytes);
    const rss = grew('rss', MEMORY_GROWTH.rssBytes);
    const verdict = heap.growing || rss.growing ? 'growing' : 'flat';
    return (
      `${instance}: ${verdict} (lowest heap used ${mb(heap.from)} -> ${mb(heap.to)}, ` +
      `lowest RSS ${mb(rss.from)} -> ${mb(rss.to)}, first third against last, ${points.length} samples)`
    );
  });
}

/** Prints the verdict per instance on a soak of `soak` seconds from `from` (ms since the epoch). */
export function printSoakVerdict(samples: Sample[], from: number, soak: number) {
  console.log(
    `Memory over the soak (samples every ${SCRAPE_MS / 1000} s; "growing" when the lowest ` +
      `heap used or RSS of its last third is above its first third's by over 10% and ` +
      `16 MB (heap) or 32 MB (RSS)):`,
  );
  for (const line of memoryVerdict(samples.filter((sample) => sample.t >= from))) {
    console.log(`  ${line}`);
  }
  if (soak < MEMORY_SOAK_MIN_S) {
    console.log(
      `  (a soak under ${MEMORY_SOAK_MIN_S} s may end between two full collections, ` +
        `which reads as growing: judge by a longer one, e.g. --soak 600)`,
    );
  }
}
