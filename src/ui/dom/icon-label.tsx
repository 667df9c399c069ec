import type { ReactNode } from 'react';
import { Label } from 'react-aria-components';

/** A field's label with its icon (spec §3 `icon`) before the text, for filters and forms. */
export function IconLabel({
  icon,
  label,
  className = 'filter-label',
}: {
  icon?: ReactNode;
  label: ReactNode;
  className?: string;
}) {
  return (
    <Label className={className}>
      {icon && (
        <span className="filter-icon" aria-hidden="true">
          {icon}
        </span>
      )}
      {label}
    </Label>
  );
}
