/**
 * What the asset form and the cage mesh form do alike: a form (useSchemaForm) validated on
 * change, blur and submit by the shared create-body schema plus the upload fields' own errors; a blocked
 * submit focusing the first invalid field; the save machine with shared editing (only the
 * changed fields, on the version the edits started from; the stored record followed while
 * there are no edits); the file fields under the naming rule; and the props of EntityForm and
 * SaveBar. Each form keeps only its fields and their layout.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod/mini';
import type { StreamEvent } from '../../contract/schemas';
import type { FileError } from '../../core/files/validate';
import { changedLabels, fileErrorText, schemaErrors } from '../ui/dom/form-status';
import { useSchemaForm } from '../ui/dom/schema-form';
import type { SaveEntity, SaveRequest } from './entity-editor.machine';
import { saveRequestOf, useEntitySave, useOnSaved, type FileFieldDef } from './entity-editor.view';
import { useEditBase, useRemoteEvent } from './shared-edit.view';

interface EntityFormOptions<V, R> {
  entity: 'asset' | 'cageMesh';
  /** Saves the entity where the save machine does not itself (see useEntitySave). */
  save?: SaveEntity | undefined;
  /** Editing this record; absent: a new one. */
  record: R | undefined;
  /** Where a new record's save also says where it comes from (a template). */
  newTarget?: Partial<Extract<SaveRequest['target'], { templateId?: string }>>;
  defaultValues: V;
  /** The create body's schema, which the form's body (bodyOf) must pass. */
  schema: z.core.$ZodType;
  bodyOf: (values: V) => Record<string, unknown>;
  /** The upload fields, each `XFile` and `XUrl` in the values. */
  fileDefs: readonly FileFieldDef[];
  /** The fields of a record a change may send, as the save body names them. */
  fieldsOf: (record: R) => Record<string, unknown>;
  /** The form's values for a record. */
  valuesOf: (record: R) => V;
  /** The live events of this record: `assetId` or `cageMeshId`. */
  eventKey: keyof Pick<StreamEvent, 'assetId' | 'cageMeshId'>;
  /** Labels of every field a change may send (the save bar, the conflict panel). */
  labels: Record<string, string>;
  readOnly: boolean;
  /** After a save; the query cache already holds the stored record. */
  onSaved?: ((record: R) => void) | undefined;
}

export function useEntityForm<V extends object, R extends { id: string; version?: number }>(
  options: EntityFormOptions<V, R>,
) {
  const { record, fileDefs, bodyOf, readOnly } = options;
  const { t } = useTranslation();
  const [fileErrors, setFileErrors] = useState<Partial<Record<string, FileError>>>({});
  const [blocked, setBlocked] = useState(false);

  const validate = (value: V) => {
    const fields = schemaErrors(options.schema, bodyOf(value), t);
    for (const { field } of fileDefs) {
      const error = fileErrors[field];
      if (error) fields[`${field}File`] = fileErrorText(error, t);
    }
    return fields;
  };

  const saver = useEntitySave(options.save);
  const form = useSchemaForm({
    defaultValues: options.defaultValues,
    rules: validate,
    onSubmit: (value) => {
      setBlocked(false);
      const target = record
        ? { entity: options.entity, id: record.id, baseVersion: edit.baseVersion }
        : { entity: options.entity, ...options.newTarget };
      const request = saveRequestOf(
        target,
        { ...value } as Record<string, unknown>,
        bodyOf(value),
        fileDefs,
      );
      // A change sends only the fields the user changed since the form's base (docs/api.md
      // "Versions and conflicts"), so someone else's change of another field is kept.
      if (record) request.values = edit.changedOnly(request.values);
      saver.save(request);
    },
    onSubmitInvalid: () => setBlocked(true),
  });

  // The stored record changed elsewhere (another admin, another tab) while the form holds
  // unsaved edits: they are kept, and the form says who changed which fields.
  const edit = useEditBase(record, form, options);
  const remote = useRemoteEvent(options.eventKey, record?.id);
  useOnSaved(saver, (entity) => {
    const saved = entity as unknown as R;
    edit.adopt(saved);
    options.onSaved?.(saved);
  });
  // The field names are built from the file fields' names, which TypeScript cannot follow.
  const values = form.values as Record<string, unknown>;
  const setValue = form.setValue as (name: string, value: unknown) => void;
  const files = Object.fromEntries(
    fileDefs.map(({ field }) => [field, (values[`${field}File`] as File | null) ?? null]),
  );
  // A pending conflict holds the form as it was sent until the user chose (the panel).
  const locked = readOnly || saver.conflict !== null;

  return {
    form,
    saver,
    edit,
    remote,
    isDirty: form.isDirty,
    submitted: form.submitted,
    locked,
    /** The props of a field's labelled control (name, value, onChange, onBlur, error). */
    field: form.field,
    /** An upload field's file and stored address. */
    fileOf: (field: FileFieldDef['field']) => ({
      file: (values[`${field}File`] as File | null) ?? null,
      url: (values[`${field}Url`] as string | null) ?? null,
    }),
    /** A file field changed: its error kept for validation; removed, its stored address too. */
    fileChanged: (field: FileFieldDef['field'], file: File | null, error: FileError | null) => {
      setFileErrors((previous) => {
        const next = { ...previous };
        if (error) next[field] = error;
        else delete next[field];
        return next;
      });
      // Form naming rule: removing the file also clears its stored address.
      if (!file) setValue(`${field}Url`, null);
      setValue(`${field}File`, file);
    },
    /** EntityForm's props, but its label. */
    formProps: {
      formRef: form.formRef,
      onSubmit: () => form.handleSubmit(),
      isBlocking: () => !readOnly && form.isDirtyNow(),
      canSave: form.isDirty && !locked && !saver.isSaving,
    },
    /** SaveBar's props, but its submit label. */
    saveBarProps: {
      saver,
      files,
      blocked: blocked && !form.isValid,
      disabled: locked,
      isDirty: form.isDirty,
      changes: changedLabels(form.changed, options.labels),
      onDiscard: () => {
        setFileErrors({});
        setBlocked(false);
        // Back to the stored record as it is now, which may have changed since the edits began.
        if (record) edit.adopt(record);
        else form.reset();
      },
    },
  };
}
