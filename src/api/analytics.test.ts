import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module, so its default sink is chosen under the current env. */
const load = async () => {
  vi.resetModules();
  return import('./analytics');
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('analytics', () => {
  it('logs events with console.debug in development', async () => {
    vi.stubEnv('DEV', true);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { track } = await load();
    track('file selected', { kind: 'icon', size: 120 });
    expect(debug).toHaveBeenCalledWith('[analytics] file selected', { kind: 'icon', size: 120 });
  });

  it('sends nothing in production until a sink is set', async () => {
    vi.stubEnv('DEV', false);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { track, setAnalyticsSink } = await load();
    track('file removed', { kind: 'model' });
    expect(debug).not.toHaveBeenCalled();

    const sink = vi.fn();
    setAnalyticsSink(sink);
    track('file removed', { kind: 'model' });
    expect(sink).toHaveBeenCalledExactlyOnceWith('file removed', { kind: 'model' });
    expect(debug).not.toHaveBeenCalled();
  });

  it('replaces the sink and turns tracking off with null', async () => {
    vi.stubEnv('DEV', true);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { track, setAnalyticsSink } = await load();
    const sink = vi.fn();
    setAnalyticsSink(sink);
    track('file error', { kind: 'icon', size: 5, error: 'fileInput.tooSmall' });
    setAnalyticsSink(null);
    track('file error', { kind: 'icon', size: 5, error: 'fileInput.tooSmall' });
    expect(sink).toHaveBeenCalledTimes(1);
    expect(debug).not.toHaveBeenCalled();
  });

  it('survives a failing sink', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { track, setAnalyticsSink } = await load();
    setAnalyticsSink(() => {
      throw new Error('provider down');
    });
    expect(() => track('file selected', { kind: 'icon', size: 1 })).not.toThrow();
    expect(warn).toHaveBeenCalledWith(
      'Analytics sink failed on "file selected"',
      expect.any(Error),
    );
  });
});
