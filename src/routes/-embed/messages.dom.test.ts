import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addChanges,
  embedSettings,
  eventTargetOrigin,
  isAllowedOrigin,
  parseAllowedOrigins,
  parseRequest,
  replyTargetOrigin,
  viewerOptions,
  type ParsedRequest,
} from './messages';
import { searchSchema } from './options';

const GLB_MAGIC = [0x67, 0x6c, 0x54, 0x46];
const glb = (type = 'model/gltf-binary') => new Blob([new Uint8Array(GLB_MAGIC)], { type });

/** A Blob's bytes (jsdom's Blob has no arrayBuffer()). */
const bytesOf = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(blob);
  });

/** The request of a message that must be valid. */
function valid(data: unknown): ParsedRequest {
  const parsed = parseRequest(data);
  if ('error' in parsed) throw new Error(`expected a valid request, got: ${parsed.error}`);
  return parsed.request;
}

/** The error text of a message that must be invalid. */
function invalid(data: unknown): string {
  const parsed = parseRequest(data);
  if (!('error' in parsed)) throw new Error(`expected an invalid request: ${JSON.stringify(data)}`);
  return parsed.error;
}

const search = (query: Record<string, unknown>) => searchSchema.parse(query);

afterEach(() => vi.restoreAllMocks());

describe('a load message hands over the model without the address bar', () => {
  it('takes a model/gltf-binary Blob as it is', () => {
    const blob = glb();
    expect(valid({ type: 'load', modelSrc: blob })).toMatchObject({ modelSrc: blob });
  });

  it('takes an ArrayBuffer as a binary glTF Blob with the same bytes', async () => {
    const bytes = new Uint8Array(GLB_MAGIC).buffer;
    const { modelSrc } = valid({ type: 'load', modelSrc: bytes }) as { modelSrc: Blob };
    expect(modelSrc).toBeInstanceOf(Blob);
    expect(modelSrc.type).toBe('model/gltf-binary');
    expect([...new Uint8Array(await bytesOf(modelSrc))]).toEqual(GLB_MAGIC);
  });

  it('takes an untyped or octet-stream Blob (a typical download) as binary glTF', () => {
    for (const type of ['', 'application/octet-stream']) {
      const { modelSrc } = valid({ type: 'load', modelSrc: glb(type) }) as { modelSrc: Blob };
      expect(modelSrc.type).toBe('model/gltf-binary');
    }
  });

  it('takes a .glb address, a binary glTF data URL and a list of sources', () => {
    expect(valid({ type: 'load', modelSrc: 'https://cdn.example/me.glb' })).toMatchObject({
      modelSrc: 'https://cdn.example/me.glb',
    });
    const dataUrl = 'data:model/gltf-binary;base64,Z2xURg==';
    expect(valid({ type: 'load', modelSrc: dataUrl })).toMatchObject({ modelSrc: dataUrl });
    const blob = glb();
    expect(valid({ type: 'load', modelSrc: ['/body.glb', blob] })).toMatchObject({
      modelSrc: ['/body.glb', blob],
    });
  });

  it('answers what is wrong with a source that is not a model', () => {
    expect(invalid({ type: 'load', modelSrc: 'https://cdn.example/readme.txt' })).toBe(
      'Invalid "load" request: modelSrc: expected a .glb/.fbx address, a binary glTF data URL, ' +
        'a model/gltf-binary Blob or an ArrayBuffer',
    );
    expect(invalid({ type: 'load', modelSrc: new Blob(['<html>'], { type: 'text/html' }) })).toBe(
      'Invalid "load" request: modelSrc: a Blob of type "text/html" is not binary glTF (model/gltf-binary)',
    );
    expect(invalid({ type: 'load' })).toContain('modelSrc: expected');
    expect(invalid({ type: 'load', modelSrc: [] })).toBe(
      'Invalid "load" request: modelSrc: expected at least one source',
    );
    expect(invalid({ type: 'load', modelSrc: ['/body.glb', 42] })).toContain(
      'modelSrc.1: expected a .glb/.fbx address',
    );
  });
});

describe('a set message changes viewer options', () => {
  it('takes the options of the query parameters, and null to unset one', () => {
    const message = {
      type: 'set',
      emotion: { mouthSmile: 0.6 },
      environment: 'studio',
      spawnEffectLoop: 3,
      spawnAnimationLoop: 2,
      ao: 'Combined',
      fit: true,
      animationSrc: null,
      fog: { type: 'exponential', color: '#ffffff', density: 0.2 },
      debug: true,
    };
    expect(valid(message)).toEqual(message);
  });

  it('names every invalid value and unknown option', () => {
    const error = invalid({
      type: 'set',
      fit: 'yes',
      ao: 'Sometimes',
      spawnEffectLoop: 1.5,
      spawnAnimationLoop: 0,
      emotion: { mouthOpen: 'wide' },
      fog: { type: 'radial', color: '#ffffff' },
      debug: 'on',
      colour: 'red',
    });
    expect(error).toMatch(/^Invalid "set" request: /);
    for (const part of [
      'fit: expected boolean',
      'ao: expected "Combined" or "AO" or "No AO" or "Split" or "Split AO"',
      'spawnEffectLoop: expected int',
      'spawnAnimationLoop: must be more than 0',
      'emotion.mouthOpen: expected number',
      'fog: unsupported fog type "radial": the supported types are "linear" and "exponential"',
      'debug: expected boolean',
      'unknown option colour',
    ]) {
      expect(error).toContain(part);
    }
  });

  it('does not take a model: that is what load is for', () => {
    expect(invalid({ type: 'set', modelSrc: '/me.glb' })).toContain('unknown option modelSrc');
  });
});

describe('optional zoom and half-resolution occlusion', () => {
  it('are off unless the address or a message turns them on', () => {
    const plain = viewerOptions(embedSettings(search({}), {}));
    expect([plain.zoom, plain.aoHalfResolution]).toEqual([undefined, undefined]);
    const address = search({ zoom: 'true', aoHalfResolution: true });
    expect(viewerOptions(embedSettings(address, {}))).toMatchObject({
      zoom: true,
      aoHalfResolution: true,
    });
    const changes = addChanges({}, valid({ type: 'set', zoom: false, aoHalfResolution: null }));
    const changed = viewerOptions(embedSettings(address, changes));
    expect([changed.zoom, changed.aoHalfResolution]).toEqual([false, undefined]);
    expect(invalid({ type: 'set', zoom: 'yes' })).toBe(
      'Invalid "set" request: zoom: expected boolean',
    );
  });
});

describe('messages that are not requests', () => {
  it.each([null, undefined, 42, 'load', [], {}, { type: 'reload' }, { type: 7 }])(
    'answers %j with an error and never throws',
    (data) => {
      expect(invalid(data)).toBe(
        'Not an /embed request: expected an object with type "load", "set" or "capture"',
      );
    },
  );

  it('still takes a capture request with extra fields (its older form)', () => {
    expect(valid({ type: 'capture', mimeType: 'image/jpeg', quality: 0.8, id: 1 })).toEqual({
      type: 'capture',
      mimeType: 'image/jpeg',
      quality: 0.8,
    });
  });
});

describe('the origin allow-list (allowedOrigins)', () => {
  it('allows any origin without the parameter or with "*"', () => {
    expect(parseAllowedOrigins(undefined)).toBe('*');
    expect(parseAllowedOrigins('*')).toBe('*');
    expect(isAllowedOrigin('https://anyone.example', '*')).toBe(true);
  });

  it('takes comma-separated origins (or a JSON array) and allows exactly those', () => {
    const allowed = parseAllowedOrigins('https://a.example, https://b.example:8443/');
    expect(allowed).toEqual(['https://a.example', 'https://b.example:8443']);
    expect(parseAllowedOrigins(['https://a.example'])).toEqual(['https://a.example']);
    expect(isAllowedOrigin('https://a.example', allowed)).toBe(true);
    expect(isAllowedOrigin('https://b.example:8443', allowed)).toBe(true);
    for (const other of [
      'https://b.example',
      'http://a.example',
      'https://a.example.evil.example',
      'null',
    ]) {
      expect(isAllowedOrigin(other, allowed)).toBe(false);
    }
  });

  it('drops invalid entries with a warning, and allows nothing when none is valid', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(parseAllowedOrigins('a.example,https://b.example')).toEqual(['https://b.example']);
    expect(warn).toHaveBeenCalledWith('/embed: ignoring invalid allowedOrigins entry "a.example"');
    const none = parseAllowedOrigins('ftp://files.example');
    expect(none).toEqual([]);
    expect(isAllowedOrigin('https://anyone.example', none)).toBe(false);
    expect(parseAllowedOrigins(123)).toEqual([]);
  });

  it('posts events to the one allowed origin, else to any; replies to the sender', () => {
    expect(eventTargetOrigin(['https://a.example'])).toBe('https://a.example');
    expect(eventTargetOrigin(['https://a.example', 'https://b.example'])).toBe('*');
    expect(eventTargetOrigin('*')).toBe('*');
    expect(replyTargetOrigin('https://a.example')).toBe('https://a.example');
    // A sandboxed (opaque-origin) sender can only be answered with '*'.
    expect(replyTargetOrigin('null')).toBe('*');
  });
});

describe('what the viewer shows: the address, under the messages', () => {
  it('a loaded model replaces the address one; set changes add up, later values win', () => {
    const fromAddress = search({ modelSrc: '/a.glb', environment: 'city', fit: 'true' });
    const blob = glb();
    let changes = addChanges({}, valid({ type: 'load', modelSrc: blob, environment: 'studio' }));
    changes = addChanges(changes, valid({ type: 'set', emotion: { mouthOpen: 1 } }));
    changes = addChanges(changes, valid({ type: 'set', environment: 'night' }));
    expect(embedSettings(fromAddress, changes)).toMatchObject({
      modelSrc: blob,
      environment: 'night',
      emotion: { mouthOpen: 1 },
      fit: true,
    });
  });

  it('null unsets an option of the address; a capture request changes nothing', () => {
    const fromAddress = search({ modelSrc: '/a.glb', spawnAnimation: '/wave.glb' });
    let changes = addChanges({}, valid({ type: 'set', spawnAnimation: null }));
    changes = addChanges(changes, valid({ type: 'capture' }));
    expect(embedSettings(fromAddress, changes).spawnAnimation).toBeUndefined();
    expect(embedSettings(fromAddress, changes).modelSrc).toBe('/a.glb');
  });

  it('plays the spawn effect and the spawn animation the given number of times (default once)', () => {
    const options = viewerOptions(
      embedSettings(
        search({
          spawnEffect: '/fx.glb',
          spawnEffectAnimation: '/fx-clip.glb',
          spawnEffectLoop: 3,
          spawnAnimation: '/wave.glb',
          spawnAnimationLoop: 2,
        }),
        {},
      ),
    );
    expect(options.spawnEffect).toEqual({ src: '/fx.glb', animationSrc: '/fx-clip.glb', loop: 3 });
    expect(options.spawnAnimation).toEqual({ src: '/wave.glb', loop: 2 });
    expect(viewerOptions(embedSettings(search({ spawnEffectLoop: 2 }), {})).spawnEffect).toBe(
      undefined,
    );
  });

  it('ignores an invalid loop count in the address with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(search({ spawnEffectLoop: 0, spawnAnimationLoop: 1.5 })).toMatchObject({
      spawnEffectLoop: undefined,
      spawnAnimationLoop: undefined,
    });
    expect(warn).toHaveBeenCalledWith('/embed: ignoring invalid spawnEffectLoop=0');
    expect(warn).toHaveBeenCalledWith('/embed: ignoring invalid spawnAnimationLoop=1.5');
  });
});
