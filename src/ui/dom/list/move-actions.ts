import type { TFunction } from 'i18next';
import type { ActionMenuItem } from './row-menu';

/** The "Move" submenu of reorderable lists: top, bottom (-1 means last place) or a position. */
export function moveActions<Row>(t: TFunction): ActionMenuItem<Row>[] {
  return [
    {
      type: 'submenu',
      title: t('list.move'),
      subMenuItems: [
        { type: 'setOrder', title: t('list.moveToTop'), value: 1 },
        { type: 'setOrder', title: t('list.moveToBottom'), value: -1 },
        { type: 'setOrder', title: t('list.moveToPosition') },
      ],
    },
  ];
}
