/**
 * The asset form (create, create from a template, edit): name, type, gender, description,
 * template toggle, tags (new assets; existing ones tag from their page) and the five upload
 * fields under the form naming rule. Validation (the shared asset body schema plus the upload
 * fields' own errors), saving (the entity editor machine: uploads, then save) and shared editing
 * are useEntityForm's, as in the cage mesh form.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { assetCreateBodySchema, type Asset, type Gender } from '../../../../contract/schemas';
import { CheckboxField, SelectField, TextAreaField } from '../../../ui/dom/form-controls';
import { TextField } from '../../../ui/dom/text-field';
import { toOptions } from '../../../ui/dom/list/asset-filters';
import { ASSET_TYPES, GENDERS } from '../../../../contract/assets';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { EditedElsewhere } from '../../../machines/shared-edit.view';
import { SaveConflict } from '../../../machines/conflict-panel.view';
import {
  EntityForm,
  SaveBar,
  UploadField,
  type FileFieldDef,
} from '../../../machines/entity-editor.view';
import { useEntityForm } from '../../../machines/entity-form.view';
import { saveAssetTarget } from '../save-asset';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

const FILE_FIELDS = ['model', 'icon', 'texture', 'normalMap', 'source'] as const;
type FileFieldName = (typeof FILE_FIELDS)[number];

/** The fields of an asset a change may send, as the form's save body holds them. */
const baseOf = (asset: Asset): Record<string, unknown> => ({
  name: asset.name,
  type: asset.type,
  gender: asset.gender,
  description: asset.description,
  isTemplate: asset.isTemplate,
  ...Object.fromEntries(FILE_FIELDS.map((name) => [`${name}Url`, asset[`${name}Url`]])),
});

export interface AssetFormValues {
  name: string;
  type: string;
  gender: string;
  description: string;
  isTemplate: boolean;
  tagIds: string[];
  modelFile: File | null;
  modelUrl: string | null;
  iconFile: File | null;
  iconUrl: string | null;
  textureFile: File | null;
  textureUrl: string | null;
  normalMapFile: File | null;
  normalMapUrl: string | null;
  sourceFile: File | null;
  sourceUrl: string | null;
}

/** The form's values for an asset (or a template copied into a new asset, or a blank one). */
export function assetFormValues(asset?: Asset): AssetFormValues {
  return {
    name: asset?.name ?? '',
    type: asset?.type ?? '',
    gender: asset?.gender ?? '',
    description: asset?.description ?? '',
    isTemplate: asset?.isTemplate ?? false,
    tagIds: asset?.tags.map((tag) => tag.id) ?? [],
    modelFile: null,
    modelUrl: asset?.modelUrl ?? null,
    iconFile: null,
    iconUrl: asset?.iconUrl ?? null,
    textureFile: null,
    textureUrl: asset?.textureUrl ?? null,
    normalMapFile: null,
    normalMapUrl: asset?.normalMapUrl ?? null,
    sourceFile: null,
    sourceUrl: asset?.sourceUrl ?? null,
  };
}

interface AssetFormProps {
  /** Editing this asset; absent: a new one. */
  asset?: Asset | undefined;
  /** Creating from this template (private using-template call, then the form's values). */
  template?: Asset | undefined;
  /** Read-only (a locked asset). */
  readOnly?: boolean;
  /** After a save; the query cache already holds the stored asset. */
  onSaved?: (asset: Asset) => void;
}

export function AssetForm({ asset, template, readOnly = false, onSaved }: AssetFormProps) {
  const { t } = useTranslation();
  const isNew = asset === undefined;

  const fileDefs = useMemo<Record<FileFieldName, FileFieldDef>>(
    () => ({
      model: {
        field: 'model',
        kind: 'model',
        label: t('assetEditor.model'),
        description: t('assetEditor.modelRule'),
      },
      icon: {
        field: 'icon',
        kind: 'icon',
        label: t('assetEditor.icon'),
        description: t('assetEditor.iconRule'),
        preview: { width: 128, height: 128 },
      },
      texture: {
        field: 'texture',
        kind: 'texture',
        label: t('assetEditor.texture'),
        description: t('assetEditor.textureRule'),
        preview: { width: 128, height: 128 },
      },
      normalMap: {
        field: 'normalMap',
        kind: 'texture',
        label: t('assetEditor.normalMap'),
        description: t('assetEditor.textureRule'),
        preview: { width: 128, height: 128 },
      },
      source: {
        field: 'source',
        kind: 'source',
        label: t('assetEditor.source'),
        description: t('assetEditor.sourceRule'),
      },
    }),
    [t],
  );

  /** The label of each field a change may send. */
  const labels: Record<string, string> = {
    name: t('assetEditor.name'),
    type: t('assetEditor.type'),
    gender: t('assetEditor.gender'),
    description: t('assetEditor.description'),
    isTemplate: t('assetEditor.isTemplate'),
    tagIds: t('assetEditor.tags'),
    ...Object.fromEntries(FILE_FIELDS.map((name) => [`${name}Url`, fileDefs[name].label])),
  };

  const bodyOf = (values: AssetFormValues): Record<string, unknown> => ({
    name: values.name.trim(),
    type: values.type,
    gender: values.gender,
    description: values.description,
    isTemplate: values.isTemplate,
    ...(isNew ? { tagIds: values.tagIds } : {}),
  });

  const editor = useEntityForm({
    entity: 'asset',
    save: saveAssetTarget,
    record: asset,
    ...(template ? { newTarget: { templateId: template.id } } : {}),
    // A copy of a template is not a template itself.
    defaultValues: asset
      ? assetFormValues(asset)
      : { ...assetFormValues(template), isTemplate: false },
    schema: assetCreateBodySchema,
    bodyOf,
    fileDefs: Object.values(fileDefs),
    fieldsOf: baseOf,
    valuesOf: assetFormValues,
    eventKey: 'assetId',
    labels,
    readOnly,
    onSaved,
  });
  const { field, saver, edit } = editor;
  const disabled = editor.locked || saver.isSaving;

  return (
    <EntityForm label={t('assetEditor.details')} {...editor.formProps}>
      {asset && (
        <EditedElsewhere
          fields={edit.changedElsewhere}
          labels={labels}
          remote={editor.remote}
          record={t('live.asset')}
          onDiscard={() => edit.adopt(asset)}
        />
      )}
      <fieldset disabled={editor.locked} className="form-section">
        <legend>{t('assetEditor.details')}</legend>
        <TextField label={t('assetEditor.name')} {...field('name')} />
        <div className="field-row">
          <SelectField
            label={t('assetEditor.type')}
            placeholder={t('assetEditor.choose')}
            options={toOptions(ASSET_TYPES)}
            {...field('type')}
          />
          <SelectField
            label={t('assetEditor.gender')}
            placeholder={t('assetEditor.choose')}
            options={toOptions(GENDERS satisfies readonly Gender[])}
            {...field('gender')}
          />
        </div>
        <TextAreaField label={t('assetEditor.description')} {...field('description')} />
        <CheckboxField
          name="isTemplate"
          label={t('assetEditor.isTemplate')}
          description={t('assetEditor.isTemplateHint')}
          checked={field('isTemplate').value}
          onChange={field('isTemplate').onChange}
          onBlur={field('isTemplate').onBlur}
        />
        {isNew && (
          <EntityPicker
            label={t('assetEditor.tags')}
            field="tagIds"
            endpoint={endpoint(ENDPOINTS.tags)}
            multiple
            value={field('tagIds').value}
            onChange={field('tagIds').onChange}
          />
        )}
      </fieldset>
      <fieldset disabled={editor.locked} className="form-section">
        <legend>{t('assetEditor.files')}</legend>
        <div className="file-grid">
          {FILE_FIELDS.map((name) => (
            <UploadField
              key={name}
              def={fileDefs[name]}
              {...editor.fileOf(name)}
              submitted={editor.submitted}
              disabled={disabled}
              onChange={(file, error) => editor.fileChanged(name, file, error)}
            />
          ))}
        </div>
      </fieldset>
      <SaveConflict saver={saver} labels={labels} />
      <SaveBar
        submitLabel={isNew ? t('assetEditor.create') : t('assetEditor.save')}
        {...editor.saveBarProps}
      />
    </EntityForm>
  );
}
