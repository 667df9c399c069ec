/**
 * How many rows a page shows (10, 25, 50 or 100): the choice is kept in the address and
 * remembered per list screen in this browser, so the list opens with it next time.
 */
import { LIST_PAGE_SIZES } from '../../../../contract/list-query';
import { remember, remembered } from '../../remembered';
import { SelectBox } from '../select-box';

const KEY = 'avatar-studio:page-size:';

/** The page size last chosen for a list in this browser, if it is one the lists offer. */
export function rememberedPageSize(list: string): number | undefined {
  const stored = Number(remembered(KEY + list));
  return LIST_PAGE_SIZES.find((size) => size === stored);
}

function rememberPageSize(list: string, size: number) {
  remember(KEY + list, String(size));
}

interface PageSizeProps {
  /** Which list the choice is remembered for. */
  list: string;
  value: number;
  onChange: (size: number) => void;
  label: string;
}

/** The page-size choice of a paged list. */
export function PageSize({ list, value, onChange, label }: PageSizeProps) {
  return (
    <SelectBox
      className="page-size"
      label={label}
      placeholder={String(value)}
      options={LIST_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
      value={[String(value)]}
      onChange={([next]) => {
        const size = Number(next);
        if (!LIST_PAGE_SIZES.some((allowed) => allowed === size)) return;
        rememberPageSize(list, size);
        onChange(size);
      }}
    />
  );
}
