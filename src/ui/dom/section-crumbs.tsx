import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Breadcrumbs } from './breadcrumbs';

/** The list screens a detail or new screen sits under, with their titles' text keys. */
const SECTIONS = {
  '/assets': 'assets.title',
  '/cage-meshes': 'cageMeshes.title',
  '/users': 'users.title',
} as const;

/** "Assets › Olive Cyber": the section's list, then the screen itself. */
export function SectionCrumbs(props: { section: keyof typeof SECTIONS; current: string }) {
  const { t } = useTranslation();
  return (
    <Breadcrumbs
      label={t('nav.breadcrumb')}
      trail={[
        // Exact: a link to /assets would otherwise mark itself current on /assets/1 too.
        <Link to={props.section} activeOptions={{ exact: true }}>
          {t(SECTIONS[props.section])}
        </Link>,
      ]}
      current={props.current}
    />
  );
}
