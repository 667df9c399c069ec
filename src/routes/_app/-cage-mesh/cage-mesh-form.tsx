/**
 * The cage mesh form (create and edit): name, gender, body type and the model upload, with the
 * same validation, save machine, unsaved-changes guard and shared editing (only changed fields
 * on the base version; a conflict's panel; who changed what meanwhile) as the asset form.
 */
import { useForm, useStore } from '@tanstack/react-form';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cageMeshCreateBodySchema, type CageMesh } from '../../../../contract/schemas';
import type { FileError } from '../../../../core/files/validate';
import type { SavedEntity } from '../../../machines/entity-editor.machine';
import { focusFirstInvalid, SelectField } from '../../../ui/dom/form-controls';
import { TextField } from '../../../ui/dom/text-field';
import { toOptions } from '../../../ui/dom/list/asset-filters';
import { GENDERS } from '../../../../contract/assets';
import { EditedElsewhere, useEditBase, useRemoteEvent } from '../../../machines/shared-edit.view';
import {
  fileErrorText,
  changedLabels,
  SaveBar,
  SaveConflict,
  saveRequestOf,
  schemaErrors,
  EntityForm,
  UploadField,
  useEntitySave,
  useOnSaved,
  type FileFieldDef,
  useFormStatus,
} from '../../../machines/entity-editor.view';

export interface CageMeshFormValues {
  name: string;
  gender: string;
  bodyType: string;
  modelFile: File | null;
  modelUrl: string | null;
}

const valuesOf = (mesh?: CageMesh): CageMeshFormValues => ({
  name: mesh?.name ?? '',
  gender: mesh?.gender ?? '',
  bodyType: mesh?.bodyType ?? '',
  modelFile: null,
  modelUrl: mesh?.modelUrl ?? null,
});

/** The fields of a cage mesh a change may send, as the form's save body holds them. */
const fieldsOf = (mesh: CageMesh): Record<string, unknown> => ({
  name: mesh.name,
  gender: mesh.gender,
  bodyType: mesh.bodyType,
  modelUrl: mesh.modelUrl,
});

interface CageMeshFormProps {
  /** Editing this cage mesh; absent: a new one. */
  cageMesh?: CageMesh | undefined;
  /** After a save; the query cache already holds the stored cage mesh. */
  onSaved?: (cageMesh: CageMesh) => void;
  /** Shown, not editable (a role that may not update cage meshes). */
  readOnly?: boolean;
}

export function CageMeshForm({ cageMesh, onSaved, readOnly = false }: CageMeshFormProps) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const modelError = useRef<FileError | null>(null);
  const [blocked, setBlocked] = useState(false);
  const modelDef = useMemo<FileFieldDef>(
    () => ({
      field: 'model',
      kind: 'model',
      label: t('cageMeshes.model'),
      description: t('assetEditor.modelRule'),
    }),
    [t],
  );

  const bodyOf = (values: CageMeshFormValues) => ({
    name: values.name.trim(),
    gender: values.gender,
    bodyType: values.bodyType.trim() || null,
  });
  const validate = ({ value }: { value: CageMeshFormValues }) => {
    const fields = schemaErrors(cageMeshCreateBodySchema, bodyOf(value), t);
    if (modelError.current) fields.modelFile = fileErrorText(modelError.current, t);
    return Object.keys(fields).length > 0 ? { fields } : undefined;
  };

  const saver = useEntitySave();
  const form = useForm({
    defaultValues: valuesOf(cageMesh),
    validators: { onChange: validate, onBlur: validate, onSubmit: validate },
    onSubmit: ({ value }) => {
      setBlocked(false);
      const target = cageMesh
        ? { entity: 'cageMesh' as const, id: cageMesh.id, baseVersion: edit.baseVersion }
        : { entity: 'cageMesh' as const };
      const request = saveRequestOf(target, { ...value }, bodyOf(value), [modelDef]);
      // Only the fields the user changed (README "Versions and conflicts").
      if (cageMesh) request.values = edit.changedOnly(request.values);
      saver.save(request);
    },
    onSubmitInvalid: () => {
      setBlocked(true);
      setTimeout(() => focusFirstInvalid(formRef.current), 0);
    },
  });
  const edit = useEditBase(cageMesh, form, { fieldsOf, valuesOf });
  const remote = useRemoteEvent('cageMeshId', cageMesh?.id);
  useOnSaved(saver, (entity: SavedEntity) => {
    const saved = entity as CageMesh;
    edit.adopt(saved);
    onSaved?.(saved);
  });
  const labels: Record<string, string> = {
    name: t('cageMeshes.name'),
    gender: t('cageMeshes.gender'),
    bodyType: t('cageMeshes.bodyType'),
    modelUrl: t('cageMeshes.model'),
  };
  const { isDirty, isValid, submitted, changed, bind } = useFormStatus(form);
  const modelFile = useStore(form.store, (state) => state.values.modelFile);
  // A pending conflict holds the form as it was sent until the user chose (the panel).
  const locked = readOnly || saver.conflict !== null;

  return (
    <EntityForm
      formRef={formRef}
      label={t('cageMeshes.title')}
      onSubmit={() => form.handleSubmit()}
      isBlocking={() => !readOnly && !form.state.isDefaultValue}
      canSave={!readOnly && isDirty && !locked && !saver.isSaving}
    >
      {cageMesh && (
        <EditedElsewhere
          fields={edit.changedElsewhere}
          labels={labels}
          remote={remote}
          record={t('live.cageMesh')}
          onDiscard={() => edit.adopt(cageMesh)}
        />
      )}
      <fieldset className="form-section" disabled={locked}>
        <legend>{t('assetEditor.details')}</legend>
        <form.Field name="name">
          {(field) => <TextField label={t('cageMeshes.name')} {...bind(field)} />}
        </form.Field>
        <div className="field-row">
          <form.Field name="gender">
            {(field) => (
              <SelectField
                label={t('cageMeshes.gender')}
                placeholder={t('assetEditor.choose')}
                options={toOptions(GENDERS)}
                {...bind(field)}
              />
            )}
          </form.Field>
          <form.Field name="bodyType">
            {(field) => <TextField label={t('cageMeshes.bodyType')} {...bind(field)} />}
          </form.Field>
        </div>
        <form.Field name="modelFile">
          {(field) => (
            <UploadField
              def={modelDef}
              file={field.state.value}
              url={form.getFieldValue('modelUrl')}
              submitted={submitted}
              disabled={locked || saver.isSaving}
              onChange={(file, error) => {
                modelError.current = error;
                // Form naming rule: removing the file also clears its stored address.
                if (!file) form.setFieldValue('modelUrl', null);
                field.handleChange(file);
                field.handleBlur();
              }}
            />
          )}
        </form.Field>
      </fieldset>
      <SaveConflict saver={saver} labels={labels} />
      {!readOnly && (
        <SaveBar
          saver={saver}
          submitLabel={cageMesh ? t('assetEditor.save') : t('cageMeshes.create')}
          files={{ model: modelFile }}
          blocked={blocked && !isValid}
          disabled={locked}
          isDirty={isDirty}
          changes={changedLabels(changed, labels)}
          onDiscard={() => {
            modelError.current = null;
            setBlocked(false);
            form.reset();
          }}
        />
      )}
    </EntityForm>
  );
}
