// GET /v1/services: which optional model services the server has, read from its configuration.
import { describe, expect, it } from 'vitest';
import { servicesSchema } from '../src/api/schemas';
import { dataOf, expectError, useTestApp } from './test-app';

describe('without ICON_RENDERER_URL and TEXTURE_PREDICTOR_URL', () => {
  const t = useTestApp();

  it('says neither service is there', async () => {
    const { token } = await t.loginAs('developer');
    const services = servicesSchema.parse(dataOf(await t.get('/v1/services', token)));
    expect(services).toEqual({ iconRenderer: false, texturePredictor: false });
  });

  it('answers only a signed-in caller', async () => {
    expectError(await t.get('/v1/services'), 401, 'UNAUTHORIZED');
  });
});

describe('with only ICON_RENDERER_URL', () => {
  const t = useTestApp({ ICON_RENDERER_URL: 'http://127.0.0.1:9/icon' });

  it('says the icon renderer is there and the texture predictor is not', async () => {
    const { token } = await t.loginAs('developer');
    expect(dataOf(await t.get('/v1/services', token))).toEqual({
      iconRenderer: true,
      texturePredictor: false,
    });
  });
});

describe('with only TEXTURE_PREDICTOR_URL', () => {
  const t = useTestApp({ TEXTURE_PREDICTOR_URL: 'http://127.0.0.1:9/texture' });

  it('says the texture predictor is there and the icon renderer is not', async () => {
    const { token } = await t.loginAs('developer');
    expect(dataOf(await t.get('/v1/services', token))).toEqual({
      iconRenderer: false,
      texturePredictor: true,
    });
  });
});
