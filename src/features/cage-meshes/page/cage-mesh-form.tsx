/**
 * The cage mesh form (create and edit): name, gender, body type and the model upload, with the
 * same validation, save machine, unsaved-changes guard and shared editing (only changed fields
 * on the base version; a conflict's panel; who changed what meanwhile) as the asset form:
 * both are useEntityForm.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { cageMeshCreateBodySchema, type CageMesh } from '../../../../contract/schemas';
import { SelectField } from '../../../ui/dom/form-controls';
import { TextField } from '../../../ui/dom/text-field';
import { toOptions } from '../../../ui/dom/list/asset-filters';
import { GENDERS } from '../../../../contract/assets';
import { EditedElsewhere } from '../../../machines/shared-edit.view';
import { SaveConflict } from '../../../machines/conflict-panel.view';
import {
  EntityForm,
  SaveBar,
  UploadField,
  type FileFieldDef,
} from '../../../machines/entity-editor.view';
import { useEntityForm } from '../../../machines/entity-form.view';
import { saveCageMeshTarget } from '../save-cage-mesh';

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

const bodyOf = (values: CageMeshFormValues) => ({
  name: values.name.trim(),
  gender: values.gender,
  bodyType: values.bodyType.trim() || null,
});

export function CageMeshForm({ cageMesh, onSaved, readOnly = false }: CageMeshFormProps) {
  const { t } = useTranslation();
  const modelDef = useMemo<FileFieldDef>(
    () => ({
      field: 'model',
      kind: 'model',
      label: t('cageMeshes.model'),
      description: t('assetEditor.modelRule'),
    }),
    [t],
  );
  const labels: Record<string, string> = {
    name: t('cageMeshes.name'),
    gender: t('cageMeshes.gender'),
    bodyType: t('cageMeshes.bodyType'),
    modelUrl: t('cageMeshes.model'),
  };
  const editor = useEntityForm({
    entity: 'cageMesh',
    save: saveCageMeshTarget,
    record: cageMesh,
    defaultValues: valuesOf(cageMesh),
    schema: cageMeshCreateBodySchema,
    bodyOf,
    fileDefs: [modelDef],
    fieldsOf,
    valuesOf,
    eventKey: 'cageMeshId',
    labels,
    readOnly,
    onSaved,
  });
  const { field, saver, edit } = editor;

  return (
    <EntityForm label={t('cageMeshes.title')} {...editor.formProps}>
      {cageMesh && (
        <EditedElsewhere
          fields={edit.changedElsewhere}
          labels={labels}
          remote={editor.remote}
          record={t('live.cageMesh')}
          onDiscard={() => edit.adopt(cageMesh)}
        />
      )}
      <fieldset className="form-section" disabled={editor.locked}>
        <legend>{t('assetEditor.details')}</legend>
        <TextField label={t('cageMeshes.name')} {...field('name')} />
        <div className="field-row">
          <SelectField
            label={t('cageMeshes.gender')}
            placeholder={t('assetEditor.choose')}
            options={toOptions(GENDERS)}
            {...field('gender')}
          />
          <TextField label={t('cageMeshes.bodyType')} {...field('bodyType')} />
        </div>
        <UploadField
          def={modelDef}
          {...editor.fileOf('model')}
          submitted={editor.submitted}
          disabled={editor.locked || saver.isSaving}
          onChange={(file, error) => editor.fileChanged('model', file, error)}
        />
      </fieldset>
      <SaveConflict saver={saver} labels={labels} />
      {!readOnly && (
        <SaveBar
          submitLabel={cageMesh ? t('assetEditor.save') : t('cageMeshes.create')}
          {...editor.saveBarProps}
        />
      )}
    </EntityForm>
  );
}
