/**
 * A phone's sort control: the table's column headers are folded into cards there, so the
 * sortable columns and their two directions are offered in one select instead.
 */
import { sortOf, type ListOrder, type SortDirection } from '../../../../contract/list-query';
import { SelectBox } from '../select-box';

interface SortMenuProps {
  /** The sortable columns: field and the header's words. */
  columns: readonly { field: string; headerName: string }[];
  order: ListOrder;
  onChange: (order: ListOrder) => void;
  labels: { sortBy: string; direction: (field: string, direction: SortDirection) => string };
}

const DIRECTIONS: readonly SortDirection[] = ['asc', 'desc'];

/** "Name, ascending", "Name, descending", ... as one select; its value is the list's order. */
export function SortMenu({ columns, order, onChange, labels }: SortMenuProps) {
  const sort = sortOf(order);
  const options = columns.flatMap((column) =>
    DIRECTIONS.map((direction) => ({
      value: `${direction}:${column.field}`,
      label: labels.direction(column.headerName, direction),
    })),
  );
  return (
    <SelectBox
      className="sort-menu"
      label={labels.sortBy}
      placeholder={labels.sortBy}
      options={options}
      value={sort ? [`${sort.direction}:${sort.field}`] : []}
      onChange={([next]) => {
        const [direction, field] = (next ?? '').split(/:(.*)/s) as [SortDirection, string];
        if (field && DIRECTIONS.includes(direction)) onChange({ [field]: direction });
      }}
    />
  );
}
