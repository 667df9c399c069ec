/**
 * "Generate icon from model": the server's icon renderer when it has one (GET v1/services),
 * otherwise the browser renders the icon with the viewer, checks it against the icon upload
 * rules, uploads it and sets it as the asset's iconUrl (like the asset form's save).
 */
import { renderIconOnServer, saveAsset } from '../api/mutations';
import type { Asset } from '../../../../contract/schemas';
import { servicesQuery } from '../../../api/services';
import { deliveredModelUrl } from '../../../../core/model-delivery';
import { queryClient } from '../../../api/query';
import { uploadFile } from '../../../api/uploads';
import { UPLOAD_RULES } from '../../../../core/files/rules';
import { validateFileContent, type FileError } from '../../../../core/files/validate';

/** Where a browser-made icon is: drawn, sent (with the fraction sent), or stored on the asset. */
export type IconProgress =
  | { stage: 'server' }
  | { stage: 'rendering' }
  | { stage: 'uploading'; fraction: number }
  | { stage: 'saving' };

/** A step of the browser's icon that failed, and why (shown as "The icon could not be ..."). */
export class IconError extends Error {
  constructor(
    readonly step: 'render' | 'check',
    readonly reason: string,
    readonly fileError?: FileError,
  ) {
    super(reason);
    this.name = 'IconError';
  }
}

/** What the pipeline calls; tests replace the renderer. */
export interface IconSteps {
  render: (modelUrl: string, name: string) => Promise<File>;
}

/** Makes the asset's icon from its model and answers the asset with it (the cache updated). */
export async function generateIcon(
  asset: Asset,
  onProgress: (progress: IconProgress) => void,
  steps: IconSteps,
): Promise<Asset> {
  const { iconRenderer } = await queryClient.fetchQuery(servicesQuery());
  if (iconRenderer) {
    onProgress({ stage: 'server' });
    return renderIconOnServer(asset.id);
  }
  // The delivery version when it has one: the same picture from fewer bytes.
  const modelUrl = deliveredModelUrl(asset);
  if (!modelUrl) throw new IconError('render', 'The asset has no model');
  onProgress({ stage: 'rendering' });
  let file: File;
  try {
    file = await steps.render(modelUrl, `${asset.name} icon`);
  } catch (error) {
    throw new IconError('render', error instanceof Error ? error.message : String(error));
  }
  // The rules the server applies too: a picture they refuse is never sent.
  const problem = await validateFileContent(file, UPLOAD_RULES.icon);
  if (problem) throw new IconError('check', problem.detail ?? problem.key, problem);
  onProgress({ stage: 'uploading', fraction: 0 });
  const { url } = await uploadFile('icon', file, {
    onProgress: ({ fraction }) => onProgress({ stage: 'uploading', fraction }),
  });
  onProgress({ stage: 'saving' });
  return saveAsset(asset.id, { iconUrl: url });
}
