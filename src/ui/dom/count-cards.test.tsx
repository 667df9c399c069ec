import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CountCards } from './count-cards';

const labels = {
  heading: 'Assets by type',
  total: 'Total',
  empty: 'No assets yet.',
  loading: 'Loading',
};

const skeletons = () =>
  screen.getByRole('region', { name: 'Assets by type' }).querySelectorAll('.count-card.skeleton');

describe('CountCards', () => {
  afterEach(() => localStorage.clear());

  it('shows skeleton cards and a busy region while loading', () => {
    render(<CountCards counts={null} expected={11} labels={labels} />);
    const region = screen.getByRole('region', { name: 'Assets by type' });
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(skeletons()).toHaveLength(11);
  });

  it('loads next time with as many skeleton cards as it last showed, so nothing below moves', () => {
    const counts = [
      { type: 'hair', count: 1 },
      { type: 'top', count: 2 },
    ];
    const { unmount } = render(<CountCards counts={counts} expected={11} labels={labels} />);
    unmount();
    render(<CountCards counts={null} expected={11} labels={labels} />);
    // The total and the two types.
    expect(skeletons()).toHaveLength(3);
  });

  it('shows each type with its count and the total', () => {
    render(
      <CountCards
        expected={11}
        counts={[
          { type: 'hair', count: 1200 },
          { type: 'top', count: 5 },
        ]}
        labels={labels}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Total1,205', 'Hair1,200', 'Top5']);
    expect(within(items[0]!).getByText('1,205')).toBeInTheDocument();
  });

  it('says so when there are no assets', () => {
    render(<CountCards counts={[]} expected={11} labels={labels} />);
    expect(screen.getByText('No assets yet.')).toBeInTheDocument();
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
  });
});
