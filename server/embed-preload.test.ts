import { describe, expect, it } from 'vitest';
import { embedPreloadLinks } from './embed-preload';

const links = (query: Record<string, string>, origins?: string[]) =>
  embedPreloadLinks(new URLSearchParams(query), origins);
const preload = (address: string) => `<${address}>; rel=preload; as=fetch; crossorigin=anonymous`;

describe("/embed's preload links", () => {
  it('names the model and the default environment, so both are fetched with the page', () => {
    expect(links({ modelSrc: '/models/avatar.glb' })).toBe(
      [preload('/models/avatar.glb'), preload('/environments/city.pmrem')].join(', '),
    );
  });

  it("names no other site's address, a model's or an environment's: only the studio's own", () => {
    const origins = ['https://studio.example'];
    for (const modelSrc of [
      'https://elsewhere.example/a.glb',
      'http://studio.example/a.glb',
      'https://studio.example.evil.example/a.glb',
      JSON.stringify(['https://elsewhere.example/a.glb', 'https://cdn.example/b.glb']),
    ]) {
      expect(links({ modelSrc }, origins), modelSrc).toBeUndefined();
    }
    expect(
      links({ modelSrc: '/a.glb', environment: 'https://elsewhere.example/soft.pmrem' }, origins),
    ).toBe(preload('/a.glb'));
    expect(links({ modelSrc: 'https://studio.example/a.glb' }, origins)).toBe(
      [preload('https://studio.example/a.glb'), preload('/environments/city.pmrem')].join(', '),
    );
  });

  it('names a model this studio stores as its delivery version, as the page loads it', () => {
    expect(links({ modelSrc: '/files/0123456789abcdef01234567.glb' })).toBe(
      [
        preload('/files/0123456789abcdef01234567.glb?delivery'),
        preload('/environments/city.pmrem'),
      ].join(', '),
    );
  });

  it("names a stored model's absolute address on the studio's origins as its delivery version", () => {
    const origins = ['http://127.0.0.1:3000', 'https://studio.example'];
    const at = (modelSrc: string) => links({ modelSrc }, origins)?.split(', ')[0];
    const key = '0123456789abcdef01234567.glb';
    expect(at(`https://studio.example/files/${key}`)).toBe(
      preload(`https://studio.example/files/${key}?delivery`),
    );
    expect(at(`http://127.0.0.1:3000/files/${key}`)).toBe(
      preload(`http://127.0.0.1:3000/files/${key}?delivery`),
    );
    // Another path, or an address that already asks for something: as given.
    for (const other of [
      `https://studio.example/models/${key}`,
      `https://studio.example/files/${key}?v=2`,
    ]) {
      expect(at(other)).toBe(preload(other));
    }
  });

  it('maps a preset to its file and keeps a custom .pmrem address', () => {
    expect(links({ modelSrc: '/a.glb', environment: 'hub' })).toBe(
      [preload('/a.glb'), preload('/environments/hall.pmrem')].join(', '),
    );
    expect(links({ modelSrc: '/a.glb', environment: '/env/soft.pmrem?v=2' })).toBe(
      [preload('/a.glb'), preload('/env/soft.pmrem?v=2')].join(', '),
    );
  });

  it('leaves .hdr and .exr environments to the prefilter worker, which fetches them itself', () => {
    for (const environment of ['/env/soft.hdr?v=2', 'https://studio.example/studio.EXR'])
      expect(links({ modelSrc: '/a.glb', environment }, ['https://studio.example'])).toBe(
        preload('/a.glb'),
      );
  });

  it('names a few models of a list, and nothing that is not an http(s) or path address', () => {
    const list = JSON.stringify(['/1.glb', 'data:model/gltf-binary;base64,AA', '/2.glb']);
    expect(links({ modelSrc: list, environment: 'javascript:alert(1)' })).toBe(
      [preload('/1.glb'), preload('/2.glb')].join(', '),
    );
    expect(links({})).toBeUndefined();
    expect(links({ modelSrc: 'data:model/gltf-binary;base64,AA' })).toBeUndefined();
    expect(links({ modelSrc: '//evil.example/x.glb' })).toBeUndefined();
    expect(links({ modelSrc: '[not json' })).toBeUndefined();
    // Nothing the viewer would refuse to load (not a .glb/.fbx) is fetched for it.
    expect(links({ modelSrc: '/readme.txt' })).toBeUndefined();
    expect(links({ modelSrc: '["/a.txt", 3]' })).toBeUndefined();
  });

  it('cannot break out of the header value', () => {
    const header = links({ modelSrc: '/a.glb?>; rel=stylesheet, </x.glb' })!;
    expect(header).toBe(
      [
        preload('/a.glb?%3E;%20rel=stylesheet,%20%3C/x.glb'),
        preload('/environments/city.pmrem'),
      ].join(', '),
    );
  });
});
