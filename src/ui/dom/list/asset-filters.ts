import type { TFunction } from 'i18next';
import { ASSET_TYPES, GENDERS } from '../../../../contract/assets';
import type { FilterDef } from './filter-bar';
import { personIcon, searchIcon, typeIcon } from './filter-icons';

/** A stored value as people read it: "male" shows as "Male". */
export const displayLabel = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
/** Options labelled by their capitalised value. */
export const toOptions = (values: readonly string[]) =>
  values.map((value) => ({ value, label: displayLabel(value) }));

/** Filter definitions several list screens share. */
export const searchFilter = (t: TFunction): FilterDef => ({
  field: 'search',
  type: 'text',
  label: t('list.search'),
  icon: searchIcon,
  visibleOnMobile: true,
});
export const typeFilter = (t: TFunction): FilterDef => ({
  field: 'type',
  type: 'multi-select',
  label: t('assets.type'),
  icon: typeIcon,
  options: toOptions(ASSET_TYPES),
});
export const genderFilter = (t: TFunction): FilterDef => ({
  field: 'gender',
  type: 'multi-select',
  label: t('assets.gender'),
  icon: personIcon,
  options: toOptions(GENDERS),
});
