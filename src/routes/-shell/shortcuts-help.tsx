/** The `?` dialog with the app's texts (loaded on the first `?`). */
import { useTranslation } from 'react-i18next';
import { ShortcutsDialog } from '../../ui/dom/shortcuts-dialog';

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShortcutsDialog
      onClose={onClose}
      labels={{
        title: t('shortcuts.title'),
        close: t('shortcuts.close'),
        groups: {
          general: t('shortcuts.general'),
          lists: t('shortcuts.lists'),
          forms: t('shortcuts.forms'),
        },
        describe: (id) => t(`shortcuts.${id}`),
      }}
    />
  );
}
