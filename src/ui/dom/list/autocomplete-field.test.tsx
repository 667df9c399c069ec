import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import {
  AutocompleteField,
  autocompleteLabels,
  type AutocompleteOption,
} from './autocomplete-field';

/**
 * The product's own texts, through i18n as the autocomplete binding
 * (src/machines/autocomplete.view.tsx) passes them; `clearButtonText` as a filter sets it.
 */
const labelsOf = (clearButtonText?: string) =>
  autocompleteLabels(i18next.t.bind(i18next), clearButtonText);

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

function Harness(props: {
  options: AutocompleteOption[];
  noResults?: boolean;
  multiple?: boolean;
  limitTags?: number;
  initial?: AutocompleteOption[];
  onSearch?: (text: string) => void;
  clearButtonText?: string;
  placeholder?: string;
}) {
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<AutocompleteOption[]>(props.initial ?? []);
  return (
    <>
      {/* What a form beside the field would use (e.g. "Add to application"). */}
      <output aria-label="Chosen">{selected.map((option) => option.label).join(', ')}</output>
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
        labels={labelsOf(props.clearButtonText)}
        placeholder={props.placeholder}
      />
    </>
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

  it('keeps the typed text when the list closes without a pick and nothing is selected', async () => {
    const user = userEvent.setup();
    render(<Harness options={[{ id: 'a1', label: 'Avatar Arena' }]} />);
    const box = screen.getByRole('combobox', { name: 'Application' });
    await user.type(box, 'Ava');
    await screen.findByRole('option', { name: 'Avatar Arena' });
    // Focus leaves (or the page scrolls the open list away): React Aria commits "no pick".
    await user.tab();
    expect(box).toHaveValue('Ava');
  });

  it('says "No Results" when the search found nothing', async () => {
    const user = userEvent.setup();
    render(<Harness options={[]} noResults />);
    await user.type(screen.getByRole('combobox', { name: 'Application' }), 'zzz');
    expect(await screen.findByText('No Results')).toBeInTheDocument();
  });

  it('shows its placeholder (spec §3) only while nothing is chosen', async () => {
    const user = userEvent.setup();
    render(<Harness options={[{ id: 'a1', label: 'Avatar Arena' }]} placeholder="Any app" />);
    const box = screen.getByRole('combobox', { name: 'Application' });
    expect(box).toHaveAttribute('placeholder', 'Any app');
    await user.type(box, 'Av');
    await user.click(await screen.findByRole('option', { name: 'Avatar Arena' }));
    expect(screen.getByRole('status', { name: 'Chosen' })).toHaveTextContent('Avatar Arena');
    expect(box).not.toHaveAttribute('placeholder');
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

  it('drops a single chosen value when the user empties the text, and blur does not bring it back', async () => {
    const user = userEvent.setup();
    render(<Harness options={[{ id: 'a1', label: 'Avatar Arena' }]} />);
    const box = screen.getByRole('combobox', { name: 'Application' });
    const chosen = screen.getByRole('status', { name: 'Chosen' });
    await user.type(box, 'Ava');
    await user.click(await screen.findByRole('option', { name: 'Avatar Arena' }));
    expect(chosen).toHaveTextContent('Avatar Arena');
    await user.clear(box);
    expect(chosen).toBeEmptyDOMElement();
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
    await user.tab();
    expect(chosen).toBeEmptyDOMElement();
    expect(box).toHaveValue('');
  });

  it('keeps the chosen values of a multiple field when the text is emptied', async () => {
    const user = userEvent.setup();
    const initial = [{ id: 'a', label: 'Alpha' }];
    render(<Harness options={[{ id: 'b', label: 'Beta' }]} multiple initial={initial} />);
    const box = screen.getByRole('combobox', { name: 'Application' });
    const chosen = screen.getByRole('status', { name: 'Chosen' });
    await user.type(box, 'Be');
    await user.clear(box);
    expect(chosen).toHaveTextContent('Alpha');
  });

  it('clears a single chosen value with "Clear", or the filter\'s clearButtonText', async () => {
    const user = userEvent.setup();
    const chosen = [{ id: 'a1', label: 'Avatar Arena' }];
    const { unmount } = render(<Harness options={chosen} initial={chosen} />);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    // Nothing chosen any more, so nothing to clear.
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
    unmount();
    render(<Harness options={chosen} initial={chosen} clearButtonText="Reset" />);
    expect(screen.getByRole('button', { name: 'Reset' })).toBeInTheDocument();
  });
});
