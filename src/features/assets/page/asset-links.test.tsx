import { screen } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Asset } from '../../../../contract/schemas';
import { queryClient } from '../../../api/query';
import { serveApi } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { loadPermissions } from '../../../machines/permissions.view';
import { renderScreen } from '../../../machines/testing/render-screen.view';
import { AssetDetails } from './asset-details';
import { AssetTags } from './asset-tags';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const asset = {
  id: 'a1',
  name: 'Jacket',
  type: 'outfit',
  gender: 'female',
  description: '',
  isTemplate: false,
  iconUrl: null,
  modelUrl: '/files/model-key',
  textureUrl: null,
  normalMapUrl: null,
  sourceUrl: null,
  tags: [{ id: 't1', name: 'Vintage' }],
} as unknown as Asset;
const USER_RULES = [
  ['read', 'Asset'],
  ['read', 'Tag'],
];

describe('an asset read by a role that may not change it', () => {
  it('lists its details as text with its files to download, and no form controls', async () => {
    serveApi({});
    renderScreen(() => <AssetDetails asset={asset} />, { rules: USER_RULES });
    const name = await screen.findByText('Jacket');
    expect(name.tagName).toBe('DD');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    const model = screen.getByRole('link', { name: 'Download Model (.glb)' });
    expect(model.getAttribute('href')).toBe('/files/model-key?download');
    expect(screen.getAllByText('None')).toHaveLength(4);
  });

  it('shows each tag as a link to it', async () => {
    serveApi({});
    renderScreen(() => <AssetTags asset={asset} readOnly />, { rules: USER_RULES });
    const tag = await screen.findByRole('link', { name: 'Vintage' });
    expect(decodeURIComponent(tag.getAttribute('href')!)).toBe('/tags?filter={"search":"Vintage"}');
  });

  it('names a tag without a link for a role that cannot open the tags (a guest)', async () => {
    serveApi({});
    renderScreen(() => <AssetTags asset={asset} readOnly />, { rules: [['read', 'Asset']] });
    expect(await screen.findByText('Vintage')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Vintage' })).toBeNull();
  });
});
