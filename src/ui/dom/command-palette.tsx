/**
 * The command palette (Ctrl+K, Cmd+K on macOS): a modal dialog with a search field over a menu
 * of commands (the screens the role can open, the common actions, and the records the caller
 * found for the text), filtered as the user types, arrows to choose and Enter to run. React Aria's Autocomplete keeps focus in the field
 * and moves a virtual focus through the menu, so screen readers hear each command.
 */
import {
  Autocomplete,
  Dialog,
  Header,
  Heading,
  Input,
  Menu,
  MenuItem,
  MenuSection,
  Modal,
  SearchField,
} from 'react-aria-components';
import { fuzzyMatch } from './fuzzy-match';

/** One command: what it says, its group, words it is also found by, and what it does. */
export interface Command {
  id: string;
  label: string;
  group: string;
  keywords?: string;
  /** A shortcut that does the same, shown beside it ("/", "Ctrl+S"). */
  shortcut?: string;
  /** What tells it apart from another of the same label (a record's type and id), beside it. */
  detail?: string;
  run: () => void;
}

interface CommandPaletteProps {
  isOpen: boolean;
  onClose: () => void;
  commands: readonly Command[];
  labels: { title: string; search: string; placeholder: string; none: string };
  /** The text typed, as it changes (for searches of the caller's own). */
  onInputChange?: (text: string) => void;
  /** What the caller's search is doing ("Searching records…"), said under the field. */
  status?: string;
}

/** A command of this id is a record the caller found for the text: shown as it is, not filtered. */
export const RECORD_PREFIX = 'record:';

const matches = (textValue: string, inputValue: string, node: { key: unknown }) =>
  String(node.key).startsWith(RECORD_PREFIX) || fuzzyMatch(textValue, inputValue);

export function CommandPalette(props: CommandPaletteProps) {
  const { isOpen, onClose, commands, labels, onInputChange, status } = props;
  const groups = [...new Set(commands.map((command) => command.group))];
  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      isDismissable
      className="modal palette-modal"
    >
      <Dialog className="dialog command-palette" aria-label={labels.title}>
        <Heading slot="title" className="visually-hidden">
          {labels.title}
        </Heading>
        <Autocomplete filter={matches} {...(onInputChange ? { onInputChange } : {})}>
          <SearchField className="palette-search" aria-label={labels.search} autoFocus>
            <Input placeholder={labels.placeholder} />
          </SearchField>
          {/* Always there, so a change of what the search is doing is announced. */}
          <p className="palette-status" role="status">
            {status}
          </p>
          <Menu
            className="menu palette-menu"
            aria-label={labels.title}
            renderEmptyState={() => <p className="menu-empty">{labels.none}</p>}
            onAction={(key) => {
              const command = commands.find((candidate) => candidate.id === key);
              onClose();
              command?.run();
            }}
          >
            {groups.map((group) => (
              <MenuSection key={group} id={group} className="palette-section">
                <Header className="palette-group">{group}</Header>
                {commands
                  .filter((command) => command.group === group)
                  .map((command) => (
                    <MenuItem
                      key={command.id}
                      id={command.id}
                      className="menu-item"
                      textValue={`${command.label} ${command.keywords ?? ''}`}
                    >
                      <span>{command.label}</span>
                      {/* Part of the item's name, as shown: a screen reader hears what tells
                          two records apart too. */}
                      {command.detail && ' '}
                      {command.detail && <span className="palette-detail">{command.detail}</span>}
                      {command.shortcut && <kbd className="palette-kbd">{command.shortcut}</kbd>}
                    </MenuItem>
                  ))}
              </MenuSection>
            ))}
          </Menu>
        </Autocomplete>
      </Dialog>
    </Modal>
  );
}
