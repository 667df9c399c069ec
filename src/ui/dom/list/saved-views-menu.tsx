/**
 * The list toolbar's "Views" menu: save the list as it is under a name, open one of the user's
 * views, and, for the view on screen, copy its link, rename or delete it. Presentational: the
 * views and what each item does come as props (src/machines/saved-views.view.tsx binds them).
 */
import { useState } from 'react';
import {
  Button,
  Input,
  Label,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
  Header,
  TextField,
} from 'react-aria-components';
import { FormDialog } from './row-menu';
import './saved-views.css';

export interface SavedViewsMenuLabels {
  menu: string;
  save: string;
  saveTitle: string;
  saveButton: string;
  name: string;
  mine: string;
  none: string;
  copyLink: string;
  rename: string;
  renameTitle: string;
  renameButton: string;
  delete: string;
  cancel: string;
  /** The view on screen, e.g. "View: Recent avatars". */
  current: (name: string) => string;
}

interface Named {
  id: string;
  name: string;
}

interface SavedViewsMenuProps {
  /** The user's views of this list, in the order to show. */
  views: readonly Named[];
  /** The view on screen, if the list was opened from one; `mine` offers rename and delete. */
  current?: (Named & { mine: boolean }) | undefined;
  labels: SavedViewsMenuLabels;
  onApply: (id: string) => void;
  /** Resolves to an error to show in the dialog, or nothing once saved. */
  onSave: (name: string) => Promise<string | undefined>;
  onRename: (name: string) => Promise<string | undefined>;
  onCopyLink: () => void;
  onDelete: () => void;
}

type Asking = 'save' | 'rename' | null;

export function SavedViewsMenu(props: SavedViewsMenuProps) {
  const { labels, current } = props;
  const [asking, setAsking] = useState<Asking>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const ask = (what: Asking, initial: string) => {
    setName(initial);
    setError(undefined);
    setAsking(what);
  };
  const choose = (key: string) => {
    if (key === 'save') ask('save', '');
    else if (key === 'rename' && current) ask('rename', current.name);
    else if (key === 'copy') props.onCopyLink();
    else if (key === 'delete') props.onDelete();
    else if (key.startsWith('view:')) props.onApply(key.slice('view:'.length));
  };
  return (
    <>
      <MenuTrigger>
        <Button className="button saved-views-button">
          {current ? labels.current(current.name) : labels.menu}
          <span aria-hidden="true"> ▾</span>
        </Button>
        <Popover className="menu-popover" placement="bottom end">
          <Menu className="menu" aria-label={labels.menu} onAction={(key) => choose(String(key))}>
            <MenuItem id="save" className="menu-item">
              {labels.save}
            </MenuItem>
            <MenuSection>
              <Header className="menu-header">{labels.mine}</Header>
              {props.views.length === 0 ? (
                <MenuItem id="none" className="menu-item" isDisabled>
                  {labels.none}
                </MenuItem>
              ) : (
                props.views.map((view) => (
                  <MenuItem
                    key={view.id}
                    id={`view:${view.id}`}
                    textValue={view.name}
                    className="menu-item"
                  >
                    <span className="menu-icon" aria-hidden="true">
                      {current?.id === view.id ? '✓' : ''}
                    </span>
                    {view.name}
                  </MenuItem>
                ))
              )}
            </MenuSection>
            {current && <Separator className="menu-separator" />}
            {current && (
              <MenuItem id="copy" className="menu-item">
                {labels.copyLink}
              </MenuItem>
            )}
            {current?.mine && (
              <MenuItem id="rename" className="menu-item">
                {labels.rename}
              </MenuItem>
            )}
            {current?.mine && (
              <MenuItem id="delete" className="menu-item danger">
                {labels.delete}
              </MenuItem>
            )}
          </Menu>
        </Popover>
      </MenuTrigger>
      {asking && (
        <FormDialog
          isOpen
          onClose={() => setAsking(null)}
          title={asking === 'save' ? labels.saveTitle : labels.renameTitle}
          submitLabel={asking === 'save' ? labels.saveButton : labels.renameButton}
          cancelLabel={labels.cancel}
          onSubmit={() => {
            const trimmed = name.trim();
            if (trimmed === '') return false;
            const run = asking === 'save' ? props.onSave : props.onRename;
            void run(trimmed).then((failed) => {
              if (failed === undefined) setAsking(null);
              else setError(failed);
            });
            return false;
          }}
        >
          <TextField
            value={name}
            onChange={setName}
            className="field"
            autoFocus
            isRequired
            maxLength={80}
            isInvalid={error !== undefined}
          >
            <Label>{labels.name}</Label>
            <Input />
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
          </TextField>
        </FormDialog>
      )}
    </>
  );
}
