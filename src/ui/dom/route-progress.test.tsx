import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteProgress } from './route-progress';

describe('the route-change progress bar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows nothing for a route change shorter than 200 ms', () => {
    const { rerender } = render(<RouteProgress pending label="Loading page" />);
    act(() => {
      vi.advanceTimersByTime(150);
    });
    expect(screen.queryByRole('progressbar')).toBeNull();
    rerender(<RouteProgress pending={false} label="Loading page" />);
    act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows a named progress bar once a route change lasts 200 ms, until it ends', () => {
    const { rerender } = render(<RouteProgress pending label="Loading page" />);
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.getByRole('progressbar', { name: 'Loading page' })).toBeInTheDocument();
    rerender(<RouteProgress pending={false} label="Loading page" />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    // The next change waits its own 200 ms again.
    rerender(<RouteProgress pending label="Loading page" />);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
