import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useShownWhenIdle } from './use-shown-when-idle';

function Heavy({ touchWaitsForInput = false }: { touchWaitsForInput?: boolean }) {
  const [ref, shown] = useShownWhenIdle<HTMLDivElement>({ touchWaitsForInput });
  return <div ref={ref}>{shown ? 'viewer' : 'placeholder'}</div>;
}

/** A screen whose primary pointer is a finger (`coarse`) or a mouse. */
function stubPointer(coarse: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: coarse && query === '(pointer: coarse)',
    media: query,
  }));
}

/** An IntersectionObserver the test moves on and off screen. */
function stubObserver() {
  const callbacks: IntersectionObserverCallback[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: IntersectionObserverCallback) {
        callbacks.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
  return (isIntersecting: boolean) =>
    act(() => {
      for (const callback of callbacks) {
        callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver);
      }
    });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a heavy part shown when idle', () => {
  it('waits until it is on screen, then for an idle moment', async () => {
    vi.useFakeTimers();
    const scroll = stubObserver();
    render(<Heavy />);
    await act(() => vi.runAllTimersAsync());
    // Below the fold: the page's first paint and data go first.
    expect(screen.getByText('placeholder')).toBeTruthy();
    scroll(false);
    await act(() => vi.runAllTimersAsync());
    expect(screen.getByText('placeholder')).toBeTruthy();
    scroll(true);
    expect(screen.getByText('placeholder')).toBeTruthy();
    await act(() => vi.runAllTimersAsync());
    expect(screen.getByText('viewer')).toBeTruthy();
  });

  it('on a touch screen, waits for the first touch, key or scroll as well', async () => {
    vi.useFakeTimers();
    stubPointer(true);
    const scroll = stubObserver();
    render(<Heavy touchWaitsForInput />);
    scroll(true);
    await act(() => vi.runAllTimersAsync());
    // On screen, loaded and idle: a phone still keeps its CPU and data for the page.
    expect(screen.getByText('placeholder')).toBeTruthy();
    act(() => {
      window.dispatchEvent(new Event('pointerdown'));
    });
    await act(() => vi.runAllTimersAsync());
    expect(screen.getByText('viewer')).toBeTruthy();
  });

  it('with a mouse, does not wait for input', async () => {
    vi.useFakeTimers();
    stubPointer(false);
    const scroll = stubObserver();
    render(<Heavy touchWaitsForInput />);
    scroll(true);
    await act(() => vi.runAllTimersAsync());
    expect(screen.getByText('viewer')).toBeTruthy();
  });

  it('shows without IntersectionObserver once the browser is idle', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Heavy />);
    expect(screen.getByText('placeholder')).toBeTruthy();
    await act(() => vi.runAllTimersAsync());
    expect(screen.getByText('viewer')).toBeTruthy();
  });
});
