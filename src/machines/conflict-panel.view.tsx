/**
 * A save refused with 409 EDIT_CONFLICT (docs/api.md "Versions and conflicts"): per conflicting field
 * the user's value and theirs, who changed it and when, and "Save again".
 */
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { EditConflictError } from '../../contract/schemas';
import { ActionButton } from '../ui/dom/action-button';
import { bodyOf } from './entity-editor.machine';
import type { EntitySave } from './entity-editor.view';

/** "just now" or "3 minutes ago", from an ISO time. */
export function relativeTime(iso: string, t: TFunction, language: string, now = Date.now()) {
  const minutes = Math.floor(Math.max(0, now - Date.parse(iso)) / 60_000);
  return minutes < 1
    ? t('live.justNow')
    : new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(-minutes, 'minute');
}

const shown = (value: unknown, t: TFunction) =>
  value === null || value === undefined || value === ''
    ? t('conflict.empty')
    : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);

interface ConflictPanelProps {
  conflict: EditConflictError;
  /** The user's value of each field. */
  yours: Record<string, unknown>;
  /** The label of each field. */
  labels: Record<string, string>;
  /** Saves again; `theirs` are the fields where the user takes theirs. */
  onResolve: (theirs: string[]) => void;
}

/**
 * The conflict panel of a save refused with 409 EDIT_CONFLICT (nothing otherwise): the user's
 * values are those the refused save sent.
 */
export function SaveConflict({
  saver,
  labels,
}: {
  saver: EntitySave;
  labels: ConflictPanelProps['labels'];
}) {
  const { conflict, request } = saver;
  if (!conflict || !request) return null;
  return (
    <ConflictPanel
      key={conflict.version}
      conflict={conflict}
      yours={bodyOf(request, saver.stored)}
      labels={labels}
      onResolve={saver.resolve}
    />
  );
}

/**
 * A save refused with 409 EDIT_CONFLICT: per conflicting field, the user's value and theirs
 * (who changed it, when) side by side, with a choice; "Save again" sends the change based on
 * the current version. Fields without a conflict keep the user's edits.
 */
export function ConflictPanel({ conflict, yours, labels, onResolve }: ConflictPanelProps) {
  const { t, i18n } = useTranslation();
  const [choices, setChoices] = useState<Record<string, string>>({});
  const titleId = useId();
  const panelRef = useRef<HTMLElement>(null);
  // The panel appears below the whole form, which it holds still until the user chooses: the
  // choice comes to where the user pressed Save, with the focus on it.
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;
    panel.scrollIntoView?.({ block: 'start', behavior: still ? 'auto' : 'smooth' });
    panel.querySelector<HTMLInputElement>('input[type="radio"]')?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="conflict-panel" aria-labelledby={titleId} ref={panelRef}>
      <h3 id={titleId}>{t('conflict.title')}</h3>
      {conflict.conflicts.map(({ field, current, changedBy, changedAt }) => (
        <RadioGroup
          key={field}
          className="conflict-field"
          value={choices[field] ?? 'mine'}
          onChange={(choice) => setChoices((previous) => ({ ...previous, [field]: choice }))}
        >
          <Label className="conflict-label">{labels[field] ?? field}</Label>
          <div className="conflict-options">
            <Radio value="mine" className="conflict-option">
              {t('conflict.yours', { value: shown(yours[field], t) })}
            </Radio>
            <Radio value="theirs" className="conflict-option">
              {t('conflict.theirs', {
                value: shown(current, t),
                actor: changedBy?.email ?? t('live.someone'),
                when: relativeTime(changedAt, t, i18n.language),
              })}
            </Radio>
          </div>
        </RadioGroup>
      ))}
      <ActionButton
        variant="primary"
        onPress={() =>
          onResolve(
            conflict.conflicts
              .map(({ field }) => field)
              .filter((field) => choices[field] === 'theirs'),
          )
        }
      >
        {t('conflict.saveAgain')}
      </ActionButton>
    </section>
  );
}
