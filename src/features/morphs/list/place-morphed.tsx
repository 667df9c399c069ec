import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { placeMorphedAssets } from '../../../api/morphs';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import { EntityPicker } from '../../../machines/autocomplete.view';
import type { ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';

/**
 * The selected morphed assets put in an application picked by name, in one call: all or none,
 * so one already there places nothing and the server's words say why.
 */
export function PlaceMorphedAssets({ ids, list }: { ids: string[]; list: ListControls }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string[]>([]);
  const applicationId = picked[0];
  const place = () => {
    if (!applicationId) return;
    void list
      .run(() => placeMorphedAssets(applicationId, ids), {
        done: t('morphs.placed', { count: ids.length }),
      })
      .then((ok) => ok && setPicked([]));
  };
  return (
    <div className="bulk-actions" role="toolbar" aria-label={t('morphs.placeLabel')}>
      <EntityPicker
        label={t('morphs.application')}
        placeholder={t('morphs.application')}
        field="morphApplication"
        endpoint={endpoint(ENDPOINTS.applications)}
        value={picked}
        onChange={setPicked}
      />
      <ActionButton isDisabled={!applicationId} onPress={place}>
        {t('morphs.place')}
      </ActionButton>
    </div>
  );
}
