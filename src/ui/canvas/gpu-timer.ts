// Debug mode (spec §8): the GPU time of each frame, measured with the WebGL2 timer-query
// extension, read asynchronously, averaged over the recent frames.

export const TIMER_QUERY_EXTENSION = 'EXT_disjoint_timer_query_webgl2';
export const DEBUG_UNAVAILABLE_WARNING = `Avatar viewer: debug mode is disabled: the WebGL2 timer-query extension ${TIMER_QUERY_EXTENSION} is unavailable in this browser`;
/** How many of the latest frames the average covers. */
export const GPU_TIME_FRAMES = 30;

/** The part of EXT_disjoint_timer_query_webgl2 used here. */
interface TimerQueryExtension {
  TIME_ELAPSED_EXT: number;
  GPU_DISJOINT_EXT: number;
}

/** The part of a WebGL2 context used here. */
export type TimerContext = Pick<
  WebGL2RenderingContext,
  | 'getExtension'
  | 'createQuery'
  | 'beginQuery'
  | 'endQuery'
  | 'getQueryParameter'
  | 'deleteQuery'
  | 'getParameter'
  | 'QUERY_RESULT'
  | 'QUERY_RESULT_AVAILABLE'
>;

/** Measures frames with timer queries: begin() before a frame is drawn, end() after. */
export class GpuTimer {
  /** Queries ended, oldest first, whose results have not been read yet. */
  private pending: WebGLQuery[] = [];
  private active: WebGLQuery | null = null;
  /** The latest frames' GPU times (ms). */
  private samples: number[] = [];

  private constructor(
    private readonly gl: TimerContext,
    private readonly extension: TimerQueryExtension,
  ) {}

  /** A timer for this context, or null where the extension (or WebGL2) is unavailable. */
  static create(gl: TimerContext | WebGLRenderingContext): GpuTimer | null {
    if (!('createQuery' in gl)) return null;
    const extension = gl.getExtension(TIMER_QUERY_EXTENSION) as TimerQueryExtension | null;
    return extension ? new GpuTimer(gl, extension) : null;
  }

  begin() {
    if (this.active) return;
    const query = this.gl.createQuery();
    if (!query) return;
    this.gl.beginQuery(this.extension.TIME_ELAPSED_EXT, query);
    this.active = query;
  }

  end() {
    if (!this.active) return;
    this.gl.endQuery(this.extension.TIME_ELAPSED_EXT);
    this.pending.push(this.active);
    this.active = null;
  }

  /**
   * Reads the results that are available (in order: a later query is never ready before an
   * earlier one) and returns the average GPU time (ms) of the latest frames, or null before
   * the first. A disjoint operation (e.g. a GPU frequency change) makes every result in flight
   * meaningless: those are dropped.
   */
  poll(): number | null {
    const disjoint = Boolean(this.gl.getParameter(this.extension.GPU_DISJOINT_EXT));
    while (this.pending.length > 0) {
      const query = this.pending[0]!;
      if (!disjoint && !this.gl.getQueryParameter(query, this.gl.QUERY_RESULT_AVAILABLE)) break;
      this.pending.shift();
      if (!disjoint) {
        const nanoseconds = this.gl.getQueryParameter(query, this.gl.QUERY_RESULT) as number;
        this.samples = [...this.samples, nanoseconds / 1e6].slice(-GPU_TIME_FRAMES);
      }
      this.gl.deleteQuery(query);
    }
    return this.samples.length === 0
      ? null
      : this.samples.reduce((sum, ms) => sum + ms, 0) / this.samples.length;
  }

  dispose() {
    if (this.active) this.end();
    this.pending.forEach((query) => this.gl.deleteQuery(query));
    this.pending = [];
  }
}
