import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { dateCell } from './cells';

export type Align = 'left' | 'center' | 'right';

/** Spec §3 column definition, plus how to render a cell. */
export interface ListColumn<Row> {
  field: string;
  headerName: string;
  width?: number;
  sortable?: boolean;
  tooltip?: string;
  headerAlign?: Align;
  cellAlign?: Align;
  render?: (row: Row) => ReactNode;
}

type DateField<Row> = {
  [K in keyof Row & string]: Row[K] extends string | null | undefined ? K : never;
}[keyof Row & string];

/** Column builders the list screens share: one definition of a date, position or model column. */
export const dateColumn = <Row,>(field: DateField<Row>, headerName: string): ListColumn<Row> => ({
  field,
  headerName,
  sortable: true,
  render: (row) => dateCell(row[field] as string | null | undefined),
});

/** Spec §3: the order a list is shown in, right-aligned like every number. */
export const positionColumn = <Row,>(t: TFunction, tooltip?: string): ListColumn<Row> => ({
  field: 'position',
  headerName: t('assets.position'),
  sortable: true,
  ...(tooltip ? { tooltip } : {}),
  headerAlign: 'right',
  cellAlign: 'right',
});

/** A download link to the row's stored model, or a dash when it has none. */
export const modelColumn = <Row extends { modelUrl: string | null }>(
  t: TFunction,
): ListColumn<Row> => ({
  field: 'modelUrl',
  headerName: t('cageMeshes.model'),
  render: (row) => (row.modelUrl ? <a href={row.modelUrl}>{t('cageMeshes.download')}</a> : '—'),
});
