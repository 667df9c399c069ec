import { describe, expect, it } from 'vitest';
import { GPU_TIME_FRAMES, GpuTimer, TIMER_QUERY_EXTENSION, type TimerContext } from './gpu-timer';

const EXT = { TIME_ELAPSED_EXT: 0x88bf, GPU_DISJOINT_EXT: 0x8fbb };
const QUERY_RESULT = 0x8866;
const QUERY_RESULT_AVAILABLE = 0x8867;

/** A WebGL2 context whose timer queries finish when the test says, with the given times. */
function fakeContext({ extension = true } = {}) {
  type Query = { ns: number; available: boolean; deleted: boolean };
  const queries: Query[] = [];
  let active: Query | null = null;
  const gl = {
    disjoint: false,
    queries,
    log: [] as string[],
    QUERY_RESULT,
    QUERY_RESULT_AVAILABLE,
    getExtension: (name: string) => (extension && name === TIMER_QUERY_EXTENSION ? EXT : null),
    createQuery: () => {
      const query = { ns: 0, available: false, deleted: false };
      queries.push(query);
      return query;
    },
    beginQuery: (target: number, query: Query) => {
      expect(target).toBe(EXT.TIME_ELAPSED_EXT);
      expect(active).toBeNull();
      active = query;
      gl.log.push(`begin ${queries.indexOf(query)}`);
    },
    endQuery: (target: number) => {
      expect(target).toBe(EXT.TIME_ELAPSED_EXT);
      gl.log.push(`end ${queries.indexOf(active!)}`);
      active = null;
    },
    getQueryParameter: (query: Query, name: number) =>
      name === QUERY_RESULT_AVAILABLE ? query.available : query.ns,
    deleteQuery: (query: Query) => {
      query.deleted = true;
    },
    getParameter: (name: number) => (name === EXT.GPU_DISJOINT_EXT ? gl.disjoint : null),
    /** The GPU finishes query `index`, which took `ms`. */
    finish: (index: number, ms: number) => {
      queries[index]!.ns = ms * 1e6;
      queries[index]!.available = true;
    },
  };
  return gl;
}

const timerFor = (gl: ReturnType<typeof fakeContext>) =>
  GpuTimer.create(gl as unknown as TimerContext)!;

/** `n` frames measured. */
function frames(timer: GpuTimer, n: number) {
  for (let i = 0; i < n; i++) {
    timer.begin();
    timer.end();
  }
}

describe('GpuTimer', () => {
  it('is null without the timer-query extension or without WebGL2', () => {
    expect(GpuTimer.create(fakeContext({ extension: false }) as unknown as TimerContext)).toBe(
      null,
    );
    const webgl1 = { getExtension: () => EXT } as unknown as WebGLRenderingContext;
    expect(GpuTimer.create(webgl1)).toBeNull();
  });

  it('wraps each frame in one query and averages the results once available', () => {
    const gl = fakeContext();
    const timer = timerFor(gl);
    frames(timer, 3);
    expect(gl.log).toEqual(['begin 0', 'end 0', 'begin 1', 'end 1', 'begin 2', 'end 2']);
    expect(timer.poll()).toBeNull();
    gl.finish(0, 2);
    gl.finish(2, 9);
    // Query 1 is not ready: 2 is read only after it.
    expect(timer.poll()).toBe(2);
    expect(gl.queries.map((q) => q.deleted)).toEqual([true, false, false]);
    gl.finish(1, 4);
    expect(timer.poll()).toBe(5);
    expect(gl.queries.every((q) => q.deleted)).toBe(true);
  });

  it('begins no second query while one is running, and ends none it did not begin', () => {
    const gl = fakeContext();
    const timer = timerFor(gl);
    timer.end();
    timer.begin();
    timer.begin();
    timer.end();
    timer.end();
    expect(gl.log).toEqual(['begin 0', 'end 0']);
  });

  it(`averages the latest ${GPU_TIME_FRAMES} frames`, () => {
    const gl = fakeContext();
    const timer = timerFor(gl);
    frames(timer, GPU_TIME_FRAMES + 10);
    gl.queries.forEach((_, i) => gl.finish(i, i < 10 ? 100 : 1));
    expect(timer.poll()).toBe(1);
  });

  it('drops the results in flight when the GPU reports a disjoint operation', () => {
    const gl = fakeContext();
    const timer = timerFor(gl);
    frames(timer, 2);
    gl.finish(0, 50);
    gl.disjoint = true;
    expect(timer.poll()).toBeNull();
    expect(gl.queries.every((q) => q.deleted)).toBe(true);
    gl.disjoint = false;
    frames(timer, 1);
    gl.finish(2, 3);
    expect(timer.poll()).toBe(3);
  });

  it('deletes its queries when disposed', () => {
    const gl = fakeContext();
    const timer = timerFor(gl);
    frames(timer, 1);
    timer.begin();
    timer.dispose();
    expect(gl.log).toEqual(['begin 0', 'end 0', 'begin 1', 'end 1']);
    expect(gl.queries.every((q) => q.deleted)).toBe(true);
  });
});
