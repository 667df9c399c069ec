import { useTranslation } from 'react-i18next';

/** A list's number of items: exact, or "about N" when the server estimated a large total. */
export function ListTotal({ total, estimate }: { total: number; estimate: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="count">
      {t(estimate ? 'list.totalAbout' : 'list.total', { count: total })}
    </span>
  );
}
