import { render, screen } from '@testing-library/react';
import { beforeAll, expect, it } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { ListTotal } from './list-total';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

it('shows an exact total as it is', () => {
  render(<ListTotal total={9876} estimate={false} />);
  expect(screen.getByText('9876 items')).toBeInTheDocument();
});

it('shows an estimated total as "about" a rounded figure', () => {
  render(<ListTotal total={1_234_567} estimate />);
  expect(screen.getByText('about 1.2 million items')).toBeInTheDocument();
});
