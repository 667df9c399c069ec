/**
 * The shell's shortcuts as a user meets them: `?` lists every shortcut (read from the list the
 * handlers match against), and on a list j, k and Enter move through the rows and open one,
 * beside React Aria's own keys and never while the user types.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import {
  Button,
  Cell,
  Column,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  Row,
  Table,
  TableBody,
  TableHeader,
} from 'react-aria-components';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { SHORTCUTS, shortcutLabel, useShellShortcuts } from '../../ui/dom/shortcuts';
import { ShortcutsHelp } from './shortcuts-help';

beforeAll(() => {
  initI18n();
});

const NAMES = ['Alpha', 'Bravo', 'Juno'];

/** A screen with a search field and a list whose names link to their records, under the shell's keys. */
function Screen({ open }: { open: (name: string) => void }) {
  const [help, setHelp] = useState(false);
  const [palette, setPalette] = useState(false);
  useShellShortcuts({ openPalette: () => setPalette(true), openHelp: () => setHelp(true) });
  return (
    <main id="main">
      <input type="search" aria-label="Search" />
      {/* As the lists' DataTable sets it up: the checkboxes select, a press on a row does not. */}
      <Table
        aria-label="Assets"
        selectionMode="multiple"
        selectionBehavior="toggle"
        onRowAction={() => undefined}
      >
        <TableHeader>
          <Column isRowHeader>Name</Column>
        </TableHeader>
        <TableBody>
          {NAMES.map((name) => (
            <Row key={name} id={name} textValue={name}>
              <Cell>
                <a
                  href={`/assets/${name}`}
                  onClick={(event) => {
                    event.preventDefault();
                    open(name);
                  }}
                >
                  {name}
                </a>
              </Cell>
            </Row>
          ))}
        </TableBody>
      </Table>
      {palette && <p>Palette open</p>}
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
    </main>
  );
}

const focusedRow = () => document.activeElement?.closest('[role="row"]')?.textContent;

describe('`?`: the list of shortcuts', () => {
  it('lists every shortcut the handlers know, grouped, each with what it does', async () => {
    const user = userEvent.setup();
    render(<Screen open={vi.fn()} />);
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const group of ['Everywhere', 'Lists', 'Forms'])
      expect(within(dialog).getByRole('heading', { name: group })).toBeInTheDocument();
    const listed = within(dialog)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(listed).toEqual(
      SHORTCUTS.map(({ id }): unknown[] => [
        shortcutLabel(id),
        expect.stringMatching(/^[A-Z].{3,}/),
      ]),
    );
    expect(listed).toContainEqual(['j', 'Next row']);
    expect(listed).toContainEqual(['Ctrl+K', expect.stringContaining('command palette')]);

    // Escape closes it; focus is back where it was.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is not opened by a `?` typed in a field', async () => {
    const user = userEvent.setup();
    render(<Screen open={vi.fn()} />);
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await user.click(search);
    await user.keyboard('why?');
    expect(search).toHaveValue('why?');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('j, k and Enter on a list', () => {
  it('j and k move the focus from row to row, and Enter opens the focused row', async () => {
    const open = vi.fn();
    const user = userEvent.setup();
    render(<Screen open={open} />);
    await user.keyboard('j');
    expect(focusedRow()).toBe('Alpha');
    // React Aria's type-ahead would jump to "Juno" on a j: the row below comes instead.
    await user.keyboard('j');
    expect(focusedRow()).toBe('Bravo');
    await user.keyboard('jj');
    expect(focusedRow()).toBe('Juno');
    await user.keyboard('k');
    expect(focusedRow()).toBe('Bravo');
    // The focused row shows it (React Aria marks keyboard focus) and is what a reader reads.
    expect(document.activeElement).toHaveAttribute('data-focus-visible', 'true');
    expect(document.activeElement).toHaveAttribute('role', 'row');
    // React Aria's arrows go on from the row j and k chose.
    await user.keyboard('{ArrowDown}');
    expect(focusedRow()).toBe('Juno');

    await user.keyboard('{Enter}');
    expect(open).toHaveBeenCalledWith('Juno');
    // Enter did not select the row.
    expect(screen.queryAllByRole('row', { selected: true }).map((r) => r.textContent)).toEqual([]);
  });

  it('leaves j and k to a text field, and does nothing while a dialog is open', async () => {
    const user = userEvent.setup();
    render(<Screen open={vi.fn()} />);
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await user.click(search);
    await user.keyboard('jk');
    expect(search).toHaveValue('jk');
    expect(focusedRow()).toBeUndefined();

    await user.click(document.body);
    await user.keyboard('?');
    await screen.findByRole('dialog');
    await user.keyboard('j');
    expect(focusedRow()).toBeUndefined();
  });

  it("leaves j and k to an open menu's own letters (a popover is a dialog)", async () => {
    const user = userEvent.setup();
    render(
      <>
        <Screen open={vi.fn()} />
        <MenuTrigger>
          <Button>Actions</Button>
          <Popover>
            <Menu aria-label="Actions">
              <MenuItem>Keep</MenuItem>
              <MenuItem>Jump</MenuItem>
            </Menu>
          </Popover>
        </MenuTrigger>
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await screen.findByRole('menu');
    await user.keyboard('j');
    expect(focusedRow()).toBeUndefined();
    expect(document.activeElement?.textContent).toBe('Jump');
  });
});
