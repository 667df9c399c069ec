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
  confirm?: { title: string; body: ReactNode; confirmLabel: string };
  /** Ask for a text first (a rename, say); the action gets it. */
  prompt?: { title: string; label: string; defaultValue: string; confirmLabel: string };
}

interface RowMenuProps<Row> {
  label: string;
  /** The menu's items, asked for when it opens (a closed menu costs its row nothing). */
  items: () => ActionMenuItem<Row>[];
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

export interface FormDialogProps {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  cancelLabel: string;
  /** Answer `false` to keep the dialog open (nothing valid to submit). */
  onSubmit: () => unknown;
  /** `danger` makes it an alert dialog with a red confirm button that starts on Cancel. */
  tone?: 'default' | 'danger';
  /** The content offers its own way forward for now (a conflict's "Save again"). */
  isSubmitHidden?: boolean;
  children: ReactNode;
}

/** The modal the row menu asks its questions in: a title, fields, Cancel and a submit button. */
export function FormDialog(props: FormDialogProps) {
  const danger = props.tone === 'danger';
  return (
    <Modal
      isOpen={props.isOpen}
      onOpenChange={(open) => !open && props.onClose()}
      isDismissable
      className="modal"
    >
      <Dialog className="dialog" role={danger ? 'alertdialog' : 'dialog'}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            // The dialog is portalled out of the page, but React passes its submit on to the
            // components it sits in: a form there (an editor's, whose save bar opened it) would
            // submit too.
            event.stopPropagation();
            if (props.onSubmit() !== false) props.onClose();
          }}
        >
          <Heading slot="title">{props.title}</Heading>
          {props.children}
          <div className="dialog-actions">
            <Button className="button" onPress={props.onClose} autoFocus={danger}>
              {props.cancelLabel}
            </Button>
            {!props.isSubmitHidden && (
              <Button type="submit" className={danger ? 'button danger' : 'button primary'}>
                {props.submitLabel}
              </Button>
            )}
          </div>
        </form>
      </Dialog>
    </Modal>
  );
}

/** The open menu: rendered only while its popover is. */
function OpenMenu<Row>(props: {
  items: () => ActionMenuItem<Row>[];
  row: Row;
  choose: (item: ActionMenuItem<Row>) => void;
}) {
  return <Menu className="menu">{renderItems(props.items(), props.row, props.choose)}</Menu>;
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
          <OpenMenu items={items} row={row} choose={choose} />
        </Popover>
      </MenuTrigger>
      {/* Each question is rendered only while it is asked: a row carries no closed modals. */}
      {asking && (
        <FormDialog
          isOpen
          onClose={() => setAsking(false)}
          title={t('list.moveTitle')}
          submitLabel={t('list.move')}
          cancelLabel={t('list.cancel')}
          onSubmit={() => onSetOrder?.(row, position)}
        >
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
        </FormDialog>
      )}
      {prompting && (
        <FormDialog
          isOpen
          onClose={() => setPrompting(null)}
          title={prompting.prompt?.title ?? ''}
          submitLabel={prompting.prompt?.confirmLabel ?? ''}
          cancelLabel={t('list.cancel')}
          onSubmit={() => {
            if (!text.trim()) return false;
            return prompting.onAction?.(row, text.trim());
          }}
        >
          <TextField value={text} onChange={setText} className="field" autoFocus isRequired>
            <Label>{prompting.prompt?.label}</Label>
            <Input />
          </TextField>
        </FormDialog>
      )}
      {confirming && (
        <FormDialog
          isOpen
          onClose={() => setConfirming(null)}
          title={confirming.confirm?.title ?? ''}
          submitLabel={confirming.confirm?.confirmLabel ?? ''}
          cancelLabel={t('list.cancel')}
          tone="danger"
          onSubmit={() => confirming.onAction?.(row)}
        >
          <p>{confirming.confirm?.body}</p>
        </FormDialog>
      )}
    </>
  );
}
