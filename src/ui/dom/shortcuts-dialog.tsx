/**
 * The `?` dialog: every keyboard shortcut of the app, grouped, read from SHORTCUTS (the list
 * the handlers match key presses against), so it lists exactly what works.
 */
import { Button, Dialog, Heading, Modal } from 'react-aria-components';
import { SHORTCUTS, shortcutLabel, type ShortcutGroup, type ShortcutId } from './shortcuts';

interface ShortcutsDialogProps {
  onClose: () => void;
  labels: {
    title: string;
    close: string;
    groups: Record<ShortcutGroup, string>;
    /** What the shortcut does ("Next row"). */
    describe: (id: ShortcutId) => string;
  };
}

export function ShortcutsDialog({ onClose, labels }: ShortcutsDialogProps) {
  const groups = [...new Set(SHORTCUTS.map((item) => item.group))];
  return (
    <Modal isOpen onOpenChange={(open) => !open && onClose()} isDismissable className="modal">
      <Dialog className="dialog shortcuts-dialog">
        <Heading slot="title">{labels.title}</Heading>
        {groups.map((group) => (
          <section key={group} aria-labelledby={`shortcuts-${group}`}>
            <h3 id={`shortcuts-${group}`} className="shortcuts-group">
              {labels.groups[group]}
            </h3>
            <dl className="shortcut-list">
              {SHORTCUTS.filter((item) => item.group === group).map((item) => (
                <div key={item.id} className="shortcut">
                  <dt>
                    <kbd className="palette-kbd">{shortcutLabel(item.id)}</kbd>
                  </dt>
                  <dd>{labels.describe(item.id)}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <div className="dialog-actions">
          <Button className="button" slot="close" autoFocus>
            {labels.close}
          </Button>
        </div>
      </Dialog>
    </Modal>
  );
}
