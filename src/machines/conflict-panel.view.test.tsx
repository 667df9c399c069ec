import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { EditConflictError } from '../../contract/schemas';
import { initI18n, loadBackOfficeTexts } from '../i18n';
import { ConflictPanel } from './conflict-panel.view';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

const CONFLICT: EditConflictError = {
  status: 409,
  code: 'EDIT_CONFLICT',
  message: 'Changed by someone else since version 1: name, description',
  version: 4,
  conflicts: [
    {
      field: 'name',
      current: 'Theirs',
      changedBy: { id: 'u2', email: 'dev@avatar.studio' },
      changedAt: new Date().toISOString(),
    },
    { field: 'description', current: '', changedBy: null, changedAt: new Date().toISOString() },
  ],
};

function renderPanel() {
  const onResolve = vi.fn();
  render(
    <ConflictPanel
      conflict={CONFLICT}
      yours={{ name: 'Mine', description: 'My words' }}
      labels={{ name: 'Name', description: 'Description' }}
      onResolve={onResolve}
    />,
  );
  return onResolve;
}

describe('ConflictPanel', () => {
  it('shows per conflicting field yours and theirs side by side, with who changed it', () => {
    renderPanel();
    const name = screen.getByRole('radiogroup', { name: 'Name' });
    expect(name).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Keep yours: Mine' })).toBeTruthy();
    expect(
      screen.getByRole('radio', {
        name: 'Take theirs (changed by dev@avatar.studio just now): Theirs',
      }),
    ).toBeTruthy();
    // Cleared by the system: "someone", and the empty value is said.
    expect(
      screen.getByRole('radio', { name: 'Take theirs (changed by someone just now): (empty)' }),
    ).toBeTruthy();
  });

  it('keeps the user\u2019s value by default and saves again with the fields where they take theirs', async () => {
    const onResolve = renderPanel();
    const user = userEvent.setup();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Keep yours: Mine' }).checked).toBe(
      true,
    );
    await user.click(screen.getByRole('button', { name: 'Save again' }));
    expect(onResolve).toHaveBeenLastCalledWith([]);
    await user.click(screen.getByRole('radio', { name: /^Take theirs .*: Theirs$/ }));
    await user.click(screen.getByRole('button', { name: 'Save again' }));
    expect(onResolve).toHaveBeenLastCalledWith(['name']);
  });

  it('comes into view when it appears and puts the focus on the first choice', () => {
    // The panel appears below a long form the save bar floats over: jsdom lays nothing out.
    const scrolled: Element[] = [];
    const scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    Object.assign(Element.prototype, { scrollIntoView });
    try {
      renderPanel();
      expect(scrolled).toEqual([
        screen.getByRole('region', {
          name: 'Someone else changed these fields since you opened the form',
        }),
      ]);
      expect(screen.getByRole('radio', { name: 'Keep yours: Mine' })).toHaveFocus();
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });
});
