import { useState, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  Heading,
  Input,
  Label,
  Menu,
  MenuItem,
  MenuTrigger,
  Modal,
  NumberField,
  Popover,
  SubmenuTrigger,
  TextField,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';

/** Spec §3 action menu item. `setOrder` moves the row to `value` (or asks for a position). */
export interface ActionMenuItem<Row> {
  type?: 'setOrder' | 'submenu';
  title: string;
  color?: 'default' | 'danger';
  icon?: ReactNode;
  value?: number;
  isDisabled?: boolean;
  subMenuItems?: ActionMenuItem<Row>[];
  /** `value` is what the user typed when the item has a `prompt`. */
  onAction?: (row: Row, value?: string) => void;
  /** Ask before running the action (deletions and the like). */
  confirm?: { title: string; body: string; confirmLabel: string };
  /** Ask for a text first (a rename, say); the action gets it. */
  prompt?: { title: string; label: string; defaultValue: string; confirmLabel: string };
}

interface RowMenuProps<Row> {
  label: string;
  items: ActionMenuItem<Row>[];
  row: Row;
  onSetOrder?: ((row: Row, position: number) => void) | undefined;
}

function renderItems<Row>(
  items: ActionMenuItem<Row>[],
  row: Row,
  choose: (item: ActionMenuItem<Row>) => void,
  path = '',
): ReactNode {
  return items.map((item, index) => {
    const id = `${path}${index}`;
    const content = (
      <>
        {item.icon && (
          <span className="menu-icon" aria-hidden="true">
            {item.icon}
          </span>
        )}
        {item.title}
      </>
    );
    if (item.type === 'submenu' && item.subMenuItems) {
      return (
        <SubmenuTrigger key={id}>
          <MenuItem
            id={id}
            textValue={item.title}
            isDisabled={item.isDisabled}
            className="menu-item"
          >
            {content}
            <span className="menu-chevron" aria-hidden="true">
              ›
            </span>
          </MenuItem>
          <Popover className="menu-popover">
            <Menu className="menu">{renderItems(item.subMenuItems, row, choose, `${id}.`)}</Menu>
          </Popover>
        </SubmenuTrigger>
      );
    }
    return (
      <MenuItem
        key={id}
        id={id}
        textValue={item.title}
        isDisabled={item.isDisabled}
        className={`menu-item ${item.color === 'danger' ? 'danger' : ''}`}
        onAction={() => choose(item)}
      >
        {content}
      </MenuItem>
    );
  });
}

/** A row's "⋯" menu: nested submenus, keyboard accessible, with a position prompt. */
export function RowMenu<Row>({ label, items, row, onSetOrder }: RowMenuProps<Row>) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [position, setPosition] = useState(1);
  const [confirming, setConfirming] = useState<ActionMenuItem<Row> | null>(null);
  const [prompting, setPrompting] = useState<ActionMenuItem<Row> | null>(null);
  const [text, setText] = useState('');

  const choose = (item: ActionMenuItem<Row>) => {
    if (item.confirm) return setConfirming(item);
    if (item.prompt) {
      setText(item.prompt.defaultValue);
      return setPrompting(item);
    }
    if (item.type !== 'setOrder') return item.onAction?.(row);
    if (item.value === undefined) return setAsking(true);
    onSetOrder?.(row, item.value);
  };

  return (
    <>
      <MenuTrigger>
        <Button className="button icon-button" aria-label={label}>
          ⋯
        </Button>
        <Popover className="menu-popover" placement="bottom end">
          <Menu className="menu">{renderItems(items, row, choose)}</Menu>
        </Popover>
      </MenuTrigger>
      <Modal isOpen={asking} onOpenChange={setAsking} isDismissable className="modal">
        <Dialog className="dialog">
          {({ close }) => (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                onSetOrder?.(row, position);
                close();
              }}
            >
              <Heading slot="title">{t('list.moveTitle')}</Heading>
              <NumberField
                value={position}
                onChange={setPosition}
                minValue={-1}
                step={1}
                className="field"
                autoFocus
              >
                <Label>{t('list.position')}</Label>
                <Input />
              </NumberField>
              <p className="field-description">{t('list.positionHint')}</p>
              <div className="dialog-actions">
                <Button className="button" onPress={close}>
                  {t('list.cancel')}
                </Button>
                <Button type="submit" className="button primary">
                  {t('list.move')}
                </Button>
              </div>
            </form>
          )}
        </Dialog>
      </Modal>
      <Modal
        isOpen={prompting !== null}
        onOpenChange={(open) => !open && setPrompting(null)}
        isDismissable
        className="modal"
      >
        <Dialog className="dialog">
          {({ close }) => (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (!text.trim()) return;
                prompting?.onAction?.(row, text.trim());
                close();
              }}
            >
              <Heading slot="title">{prompting?.prompt?.title}</Heading>
              <TextField value={text} onChange={setText} className="field" autoFocus isRequired>
                <Label>{prompting?.prompt?.label}</Label>
                <Input />
              </TextField>
              <div className="dialog-actions">
                <Button className="button" onPress={close}>
                  {t('list.cancel')}
                </Button>
                <Button type="submit" className="button primary">
                  {prompting?.prompt?.confirmLabel}
                </Button>
              </div>
            </form>
          )}
        </Dialog>
      </Modal>
      <Modal
        isOpen={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        isDismissable
        className="modal"
      >
        <Dialog className="dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title">{confirming?.confirm?.title}</Heading>
              <p>{confirming?.confirm?.body}</p>
              <div className="dialog-actions">
                <Button className="button" onPress={close} autoFocus>
                  {t('list.cancel')}
                </Button>
                <Button
                  className="button danger"
                  onPress={() => {
                    confirming?.onAction?.(row);
                    close();
                  }}
                >
                  {confirming?.confirm?.confirmLabel}
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </>
  );
}
