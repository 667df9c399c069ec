/**
 * Shared editing in a form (docs/api.md "Versions and conflicts"): what the user's edits started
 * from, the fields they changed since, and the notice naming who changed which fields while
 * the form held unsaved edits. The save itself, and a conflict's panel, are the entity editor's
 * (entity-editor.machine.ts, ConflictPanel).
 */
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onLiveEvent } from '../api/live-cache';
import type { StreamEvent } from '../../contract/schemas';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { selectUser } from './app-session';
import { relativeTime } from './conflict-panel.view';
import { useSessionActor } from './session.view';

/** The record a live event names. */
type EventRecord = Pick<StreamEvent, 'assetId' | 'cageMeshId'>;

/** The latest live event of the record (`assetId` or `cageMeshId` `id`) made by someone else. */
export function useRemoteEvent(key: keyof EventRecord, id: string | undefined): StreamEvent | null {
  const session = useSessionActor();
  const me = useSelector(session, (s) => selectUser(s)._id);
  const [event, setEvent] = useState<StreamEvent | null>(null);
  useEffect(
    () =>
      onLiveEvent((next) => {
        if (id === undefined || next[key] !== id || next.actorId === me) return;
        setEvent(next);
      }),
    [key, id, me],
  );
  return event;
}

/** The entries of `values` that differ from `base`. */
export const changedSince = (values: Record<string, unknown>, base: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(values).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(base[key]),
    ),
  );

/** What useEditBase reads from and does to a form (useSchemaForm). */
interface EditedForm<V> {
  isDirty: boolean;
  isDirtyNow: () => boolean;
  reset: (values: V) => void;
}

interface EditBaseOptions<R, V> {
  /** The fields of the record a change may send, as the save body names them. */
  fieldsOf: (record: R) => Record<string, unknown>;
  /** The form's values for the record. */
  valuesOf: (record: R) => V;
}

/**
 * The base of a form's edits of `record` (the stored record, which the live stream keeps up to
 * date): without unsaved edits the form follows it; with them, `base` stays what they started
 * from, its version goes with the save, and `changedElsewhere` names the fields someone else
 * changed since. `changedOnly` keeps the fields of a save body the user changed, so another
 * user's change of another field is kept; `adopt` starts afresh from a record.
 */
export function useEditBase<R extends { version?: number }, V>(
  record: R | undefined,
  form: EditedForm<V>,
  options: EditBaseOptions<R, V>,
) {
  const { fieldsOf, valuesOf } = options;
  const valuesOfRef = useRef(valuesOf);
  useEffect(() => {
    valuesOfRef.current = valuesOf;
  });
  const [base, setBase] = useState(record);
  const isDefault = !form.isDirty;
  if (isDefault && base !== record) setBase(record);
  // Without unsaved edits the form shows the stored record (someone else's save, a lock, or
  // the user's own edits undone after the record changed).
  const { isDirtyNow, reset } = form;
  useEffect(() => {
    if (record && !isDirtyNow()) reset(valuesOfRef.current(record));
  }, [record, isDefault, isDirtyNow, reset]);
  const changedElsewhere =
    record && base && !isDefault ? Object.keys(changedSince(fieldsOf(record), fieldsOf(base))) : [];
  return {
    baseVersion: base?.version,
    changedElsewhere,
    changedOnly: (body: Record<string, unknown>) =>
      base ? changedSince(body, fieldsOf(base)) : body,
    adopt: (next: R) => {
      form.reset(valuesOf(next));
      setBase(next);
    },
  };
}

interface EditedElsewhereProps {
  /** The fields someone else changed (useEditBase's changedElsewhere); nothing shows without. */
  fields: readonly string[];
  labels: Record<string, string>;
  /** The live event of that change, when the stream brought it (who, when). */
  remote: StreamEvent | null;
  /** What the stored record is called ("asset"). */
  record: string;
  /** Drops the user's edits for the stored record. */
  onDiscard: () => void;
}

/** Says who changed which fields while the form held unsaved edits, which are kept. */
export function EditedElsewhere({
  fields,
  labels,
  remote,
  record,
  onDiscard,
}: EditedElsewhereProps) {
  const { t, i18n } = useTranslation();
  if (fields.length === 0) return null;
  return (
    <Alert tone="info">
      {t('live.conflictBy', {
        actor: remote?.actorEmail ?? t('live.someone'),
        when: remote ? relativeTime(remote.createdAt, t, i18n.language) : '',
        fields: fields.map((field) => labels[field] ?? field).join(', '),
      })}{' '}
      <ActionButton variant="link" onPress={onDiscard}>
        {t('live.discardMine', { record })}
      </ActionButton>
    </Alert>
  );
}
