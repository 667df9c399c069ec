import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { AutocompleteField, autocompleteLabels } from './autocomplete-field';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});
afterEach(() => vi.restoreAllMocks());

const options = [
  { id: 'b1', label: 'Body one' },
  { id: 'b2', label: 'Body two' },
];

function Field() {
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <AutocompleteField
      label="Bodies"
      options={options}
      inputValue=""
      onInputChange={() => undefined}
      selected={options.filter((option) => chosen.includes(option.id))}
      onSelect={(id) => setChosen((ids) => [...ids, id])}
      onRemove={(id) => setChosen((ids) => ids.filter((other) => other !== id))}
      multiple
      noResults={false}
      labels={autocompleteLabels(i18next.t.bind(i18next))}
    />
  );
}

/** The field's box on screen at `top` (jsdom lays nothing out). */
function fieldAt(top: number) {
  const box = document.querySelector('.combo-input')!;
  vi.spyOn(box, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, top, 300, 38));
}

/** The page scrolls (the browser tells it with one scroll event at the document). */
const pageScrolls = () => act(() => void document.dispatchEvent(new Event('scroll')));

async function openList() {
  const user = userEvent.setup();
  render(<Field />);
  fieldAt(400);
  await user.click(screen.getByRole('button', { name: /^Show suggestions/ }));
  await screen.findByRole('listbox');
  return user;
}

describe('an open combo box list and a scroll of the page', () => {
  it('stays open, and picks, through a scroll that left its field where it was on screen', async () => {
    const user = await openList();
    // Content grew above the field and the browser scrolled by as much (scroll anchoring).
    pageScrolls();
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.click(screen.getByRole('option', { name: 'Body two' }));
    expect(screen.getByRole('row', { name: 'Body two', hidden: true })).toBeTruthy();
  });

  it('closes on a scroll that moved its field (the user scrolling the page)', async () => {
    await openList();
    fieldAt(280);
    pageScrolls();
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
