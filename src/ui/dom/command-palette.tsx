/**
 * The command palette (Ctrl+K, Cmd+K on macOS): a modal dialog with a search field over a menu
 * of commands (the screens the role can open and the common actions), filtered as the user
 * types, arrows to choose and Enter to run. React Aria's Autocomplete keeps focus in the field
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
  run: () => void;
}

interface CommandPaletteProps {
  isOpen: boolean;
  onClose: () => void;
  commands: readonly Command[];
  labels: { title: string; search: string; placeholder: string; none: string };
}

export function CommandPalette({ isOpen, onClose, commands, labels }: CommandPaletteProps) {
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
        <Autocomplete filter={fuzzyMatch}>
          <SearchField className="palette-search" aria-label={labels.search} autoFocus>
            <Input placeholder={labels.placeholder} />
          </SearchField>
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
