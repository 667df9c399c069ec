// GET /v1/services: which optional model services the server has, read from its configuration.
import { describe, expect, it } from 'vitest';
import { servicesSchema, type Services } from '../contract/schemas';
import { dataOf, expectError, useTestApp } from './test-app';

describe('without ICON_RENDERER_URL and TEXTURE_PREDICTOR_URL', () => {
  const t = useTestApp();

  it('says neither service is there', async () => {
    const { token } = await t.loginAs('developer');
    const services = servicesSchema.parse(dataOf(await t.get('/v1/services', token)));
    expect(services).toEqual({
      iconRenderer: false,
      texturePredictor: false,
      trashRetentionDays: 30,
    });
  });

  it('answers only a signed-in caller', async () => {
    expectError(await t.get('/v1/services'), 401, 'UNAUTHORIZED');
  });
});

describe.each<{ title: string; env: Record<string, string>; says: string; services: Services }>([
  {
    title: 'with only ICON_RENDERER_URL',
    env: { ICON_RENDERER_URL: 'http://127.0.0.1:9/icon', TRASH_RETENTION_DAYS: '7' },
    says: 'says the icon renderer is there, the texture predictor is not, and the Trash keeps 7 days',
    services: { iconRenderer: true, texturePredictor: false, trashRetentionDays: 7 },
  },
  {
    title: 'with only TEXTURE_PREDICTOR_URL',
    env: { TEXTURE_PREDICTOR_URL: 'http://127.0.0.1:9/texture' },
    says: 'says the texture predictor is there and the icon renderer is not',
    services: { iconRenderer: false, texturePredictor: true, trashRetentionDays: 30 },
  },
])('$title', ({ env, says, services }) => {
  const t = useTestApp(env);

  it(says, async () => {
    const { token } = await t.loginAs('developer');
    expect(dataOf(await t.get('/v1/services', token))).toEqual(services);
  });
});
