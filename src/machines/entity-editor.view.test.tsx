import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../i18n';
import { SaveBar, useEntitySave } from './entity-editor.view';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

/** A form's save bar with unsaved changes to its name and description. */
function Bar({ onDiscard }: { onDiscard: () => void }) {
  const saver = useEntitySave();
  return (
    <SaveBar
      saver={saver}
      submitLabel="Save"
      changes={['Name', 'Description']}
      onDiscard={onDiscard}
      files={{}}
      blocked={false}
      isDirty
    />
  );
}

describe('SaveBar', () => {
  it('asks before discarding the changes, and keeps them when the user keeps editing', async () => {
    const onDiscard = vi.fn();
    const user = userEvent.setup();
    render(<Bar onDiscard={onDiscard} />);
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    expect(dialog).toHaveTextContent('Name and Description');
    expect(onDiscard).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(onDiscard).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(onDiscard).toHaveBeenCalledOnce();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('discards without submitting the form the bar belongs to', async () => {
    const onDiscard = vi.fn();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const user = userEvent.setup();
    render(
      <form onSubmit={onSubmit}>
        <Bar onDiscard={onDiscard} />
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(onDiscard).toHaveBeenCalledOnce();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
