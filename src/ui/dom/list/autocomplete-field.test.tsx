import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { enBackOffice } from '../../../locales/en-back-office';
import { AutocompleteField, type AutocompleteOption } from './autocomplete-field';

// The product's own texts (the autocomplete binding passes these through i18n).
const { list: text } = enBackOffice;
const labels = {
  noResults: text.noResults,
  remove: (label: string) => text.removeValue.replace('{{label}}', label),
  more: (count: number) => text.moreValues.replace('{{count}}', String(count)),
  clear: text.clearValue,
};

function Harness(props: {
  options: AutocompleteOption[];
  noResults?: boolean;
  multiple?: boolean;
  limitTags?: number;
  initial?: AutocompleteOption[];
  onSearch?: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<AutocompleteOption[]>(props.initial ?? []);
  return (
    <AutocompleteField
      label="Application"
      options={props.options}
      inputValue={text}
      onInputChange={(next) => {
        setText(next);
        props.onSearch?.(next);
      }}
      selected={selected}
      onSelect={(id) => {
        const option = props.options.find((o) => o.id === id)!;
        setSelected((s) => (props.multiple ? [...s, option] : [option]));
      }}
      onRemove={(id) => setSelected((s) => s.filter((o) => o.id !== id))}
      multiple={props.multiple}
      limitTags={props.limitTags}
      noResults={props.noResults ?? false}
      labels={labels}
    />
  );
}

describe('AutocompleteField', () => {
  it('reports typed text and picks an offered option', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    render(
      <Harness options={[{ id: 'a1', label: 'Avatar Arena' }]} onSearch={onSearch} multiple />,
    );
    await user.type(screen.getByRole('combobox', { name: 'Application' }), 'Ava');
    expect(onSearch).toHaveBeenLastCalledWith('Ava');
    await user.click(await screen.findByRole('option', { name: 'Avatar Arena' }));
    await user.keyboard('{Escape}');
    // The popover may still hide the rest of the page from assistive tech while it closes.
    expect(
      await screen.findByRole('row', { name: /Avatar Arena/, hidden: true }),
    ).toBeInTheDocument();
  });

  it.each([false, true])(
    'closes the list on Escape and drops the typed text (multiple: %s)',
    async (multiple) => {
      const user = userEvent.setup();
      render(<Harness options={[{ id: 'a1', label: 'Avatar Arena' }]} multiple={multiple} />);
      const box = screen.getByRole('combobox', { name: 'Application' });
      await user.type(box, 'Ava');
      await screen.findByRole('option', { name: 'Avatar Arena' });
      expect(box).toHaveAttribute('aria-expanded', 'true');
      await user.keyboard('{Escape}');
      expect(box).toHaveAttribute('aria-expanded', 'false');
      expect(box).toHaveValue('');
    },
  );

  it('says "No Results" when the search found nothing', async () => {
    const user = userEvent.setup();
    render(<Harness options={[]} noResults />);
    await user.type(screen.getByRole('combobox', { name: 'Application' }), 'zzz');
    expect(await screen.findByText('No Results')).toBeInTheDocument();
  });

  it('shows chosen values as removable tags, at most limitTags of them', async () => {
    const user = userEvent.setup();
    const initial = [
      { id: 'a', label: 'Alpha' },
      { id: 'b', label: 'Beta' },
      { id: 'c', label: 'Gamma' },
    ];
    render(<Harness options={[]} multiple limitTags={2} initial={initial} />);
    expect(screen.getByText('+1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Remove Alpha/ }));
    expect(screen.queryByText('Alpha')).not.toBeInTheDocument();
    expect(screen.getByText('Gamma')).toBeInTheDocument();
  });
});
