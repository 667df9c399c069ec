/**
 * The asset form (create, create from a template, edit): name, type, gender, description,
 * template toggle, tags (new assets; existing ones tag from their page) and the five upload
 * fields under the form naming rule. TanStack Form validates on change, blur and submit with
 * the shared asset body schema plus the upload fields' own errors; a blocked submit moves
 * focus to the first invalid field. Saving is the asset editor machine (uploads, then save).
 */
import { useForm, useStore } from '@tanstack/react-form';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  assetCreateBodySchema,
  type Asset,
  type AssetCreateBody,
  type Gender,
} from '../../../../contract/schemas';
import type { FileError } from '../../../../core/files/validate';
import type { SavedEntity } from '../../../machines/entity-editor.machine';
import {
  CheckboxField,
  focusFirstInvalid,
  SelectField,
  TextAreaField,
} from '../../../ui/dom/form-controls';
import { TextField } from '../../../ui/dom/text-field';
import { toOptions } from '../../../ui/dom/list/asset-filters';
import { ASSET_TYPES, GENDERS } from '../../../../contract/assets';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { EditedElsewhere, useEditBase, useRemoteEvent } from '../../../machines/shared-edit.view';
import {
  changedLabels,
  fileErrorText,
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
  const formRef = useRef<HTMLFormElement>(null);
  const fileErrors = useRef<Partial<Record<FileFieldName, FileError>>>({});
  const [blocked, setBlocked] = useState(false);

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

  const validate = ({ value }: { value: AssetFormValues }) => {
    const fields: Record<string, string> = schemaErrors(assetCreateBodySchema, bodyOf(value), t);
    for (const name of FILE_FIELDS) {
      const error = fileErrors.current[name];
      if (error) fields[`${name}File`] = fileErrorText(error, t);
    }
    return Object.keys(fields).length > 0 ? { fields } : undefined;
  };

  const saver = useEntitySave();

  const form = useForm({
    // A copy of a template is not a template itself.
    defaultValues: asset
      ? assetFormValues(asset)
      : { ...assetFormValues(template), isTemplate: false },
    validators: { onChange: validate, onBlur: validate, onSubmit: validate },
    onSubmit: ({ value }) => {
      setBlocked(false);
      const body = bodyOf(value) as AssetCreateBody;
      const target = asset
        ? { entity: 'asset' as const, id: asset.id, baseVersion: edit.baseVersion }
        : { entity: 'asset' as const, ...(template ? { templateId: template.id } : {}) };
      const request = saveRequestOf(target, { ...value }, { ...body }, Object.values(fileDefs));
      // A change sends only the fields the user changed since the form's base (README
      // "Versions and conflicts"), so someone else's change of another field is kept.
      if (asset) request.values = edit.changedOnly(request.values);
      saver.save(request);
    },
    onSubmitInvalid: () => {
      setBlocked(true);
      // After React has rendered the errors the blocked submit revealed.
      setTimeout(() => focusFirstInvalid(formRef.current), 0);
    },
  });

  // The stored asset changed elsewhere (another admin, another tab) while this form holds
  // unsaved edits: they are kept, and the form says who changed which fields.
  const edit = useEditBase(asset, form, { fieldsOf: baseOf, valuesOf: assetFormValues });
  const remote = useRemoteEvent('assetId', asset?.id);
  useOnSaved(saver, (entity: SavedEntity) => {
    const saved = entity as Asset;
    edit.adopt(saved);
    onSaved?.(saved);
  });
  const { isDirty, isValid, submitted, changed, bind } = useFormStatus(form);
  const files = useStore(form.store, (state) =>
    Object.fromEntries(FILE_FIELDS.map((name) => [name, state.values[`${name}File`]])),
  );
  // A pending conflict holds the form as it was sent until the user chose (the panel).
  const locked = readOnly || saver.conflict !== null;
  const disabled = locked || saver.isSaving;

  return (
    <EntityForm
      formRef={formRef}
      label={t('assetEditor.details')}
      onSubmit={() => form.handleSubmit()}
      isBlocking={() => !readOnly && !form.state.isDefaultValue}
      canSave={isDirty && !locked && !saver.isSaving}
    >
      {asset && (
        <EditedElsewhere
          fields={edit.changedElsewhere}
          labels={labels}
          remote={remote}
          record={t('live.asset')}
          onDiscard={() => edit.adopt(asset)}
        />
      )}
      <fieldset disabled={locked} className="form-section">
        <legend>{t('assetEditor.details')}</legend>
        <form.Field name="name">
          {(field) => <TextField label={t('assetEditor.name')} {...bind(field)} />}
        </form.Field>
        <div className="field-row">
          <form.Field name="type">
            {(field) => (
              <SelectField
                label={t('assetEditor.type')}
                placeholder={t('assetEditor.choose')}
                options={toOptions(ASSET_TYPES)}
                {...bind(field)}
              />
            )}
          </form.Field>
          <form.Field name="gender">
            {(field) => (
              <SelectField
                label={t('assetEditor.gender')}
                placeholder={t('assetEditor.choose')}
                options={toOptions(GENDERS satisfies readonly Gender[])}
                {...bind(field)}
              />
            )}
          </form.Field>
        </div>
        <form.Field name="description">
          {(field) => <TextAreaField label={t('assetEditor.description')} {...bind(field)} />}
        </form.Field>
        <form.Field name="isTemplate">
          {(field) => (
            <CheckboxField
              name="isTemplate"
              label={t('assetEditor.isTemplate')}
              description={t('assetEditor.isTemplateHint')}
              checked={field.state.value}
              onChange={field.handleChange}
              onBlur={field.handleBlur}
            />
          )}
        </form.Field>
        {isNew && (
          <form.Field name="tagIds">
            {(field) => (
              <EntityPicker
                label={t('assetEditor.tags')}
                field="tagIds"
                endpoint={endpoint(ENDPOINTS.tags)}
                multiple
                value={field.state.value}
                onChange={field.handleChange}
              />
            )}
          </form.Field>
        )}
      </fieldset>
      <fieldset disabled={locked} className="form-section">
        <legend>{t('assetEditor.files')}</legend>
        <div className="file-grid">
          {FILE_FIELDS.map((name) => (
            <form.Field key={name} name={`${name}File`}>
              {(field) => (
                <UploadField
                  def={fileDefs[name]}
                  file={field.state.value}
                  url={form.getFieldValue(`${name}Url`)}
                  submitted={submitted}
                  disabled={disabled}
                  onChange={(file, error) => {
                    if (error) fileErrors.current[name] = error;
                    else delete fileErrors.current[name];
                    // Form naming rule: removing the file also clears its stored address.
                    if (!file) form.setFieldValue(`${name}Url`, null);
                    field.handleChange(file);
                    field.handleBlur();
                  }}
                />
              )}
            </form.Field>
          ))}
        </div>
      </fieldset>
      <SaveConflict saver={saver} labels={labels} />
      <SaveBar
        saver={saver}
        submitLabel={isNew ? t('assetEditor.create') : t('assetEditor.save')}
        files={files}
        blocked={blocked && !isValid}
        disabled={locked}
        isDirty={isDirty}
        changes={changedLabels(changed, labels)}
        onDiscard={() => {
          fileErrors.current = {};
          setBlocked(false);
          form.reset();
        }}
      />
    </EntityForm>
  );
}
