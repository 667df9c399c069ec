import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CountCards } from './count-cards';

const labels = {
  heading: 'Assets by type',
  total: 'Total',
  empty: 'No assets yet.',
  loading: 'Loading',
};

describe('CountCards', () => {
  it('shows skeleton cards and a busy region while loading', () => {
    render(<CountCards counts={null} labels={labels} />);
    const region = screen.getByRole('region', { name: 'Assets by type' });
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(region.querySelectorAll('.count-card.skeleton')).toHaveLength(6);
  });

  it('shows each type with its count and the total', () => {
    render(
      <CountCards
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
    render(<CountCards counts={[]} labels={labels} />);
    expect(screen.getByText('No assets yet.')).toBeInTheDocument();
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
  });
});
