// npm run build:viewer, as another React app sees it: the package manifest names the peers,
// and the type declarations let a consumer use AvatarViewer and its props type (and refuse
// an option that does not exist), and type the /embed iframe's messages.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const OUT = resolve('dist-viewer');
const CONSUMER_DIR = resolve('node_modules', '.tmp', 'viewer-consumer');

const CONSUMER = `
import { useRef } from 'react';
import {
  AvatarViewer,
  type AvatarViewerHandle,
  type AvatarViewerProps,
  type EmbedEvent,
  type EmbedRequest,
} from '${OUT}';

const props: AvatarViewerProps = {
  modelSrc: 'https://cdn.example/me.glb',
  environment: 'studio',
  position: [0, -1.2, 0],
  zoom: true,
  ao: 'Combined',
  quality: 'High',
  aoHalfResolution: true,
  onSpawnFinished: () => {},
};

// A page that embeds /embed: what it posts, and what it hears back.
export const load: EmbedRequest = {
  type: 'load',
  modelSrc: new Blob([], { type: 'model/gltf-binary' }),
  spawnEffectLoop: 2,
};
export const set: EmbedRequest = { type: 'set', emotion: { mouthSmile: 0.6 }, environment: null };
export const zoom: EmbedRequest = { type: 'set', zoom: true, aoHalfResolution: null };
// @ts-expect-error not a request of /embed
export const reload: EmbedRequest = { type: 'reload' };
export const onEvent = (event: EmbedEvent): string =>
  event.type === 'error' ? event.cause + event.message : event.type;

export function App() {
  const viewer = useRef<AvatarViewerHandle>(null);
  const png: string | null | undefined = viewer.current?.capture();
  return (
    <>
      <AvatarViewer ref={viewer} {...props} float snap label={png ?? 'avatar'} />
      {/* @ts-expect-error not an option of the viewer */}
      <AvatarViewer modelSrc="me.glb" notAnOption />
    </>
  );
}
`;

beforeAll(() => {
  execFileSync('npm', ['run', 'build:viewer'], { stdio: 'pipe', timeout: 120_000 });
}, 150_000);

describe('the viewer library (npm run build:viewer)', () => {
  it('names react, react-dom and three as peer dependencies and points at its types', () => {
    const manifest = JSON.parse(readFileSync(resolve(OUT, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
      exports: { '.': { types: string; import: string } };
    };
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['react', 'react-dom', 'three']);
    const entry = manifest.exports['.'];
    expect(readFileSync(resolve(OUT, entry.import), 'utf8')).toMatch(/export\s*{[^}]*AvatarViewer/);
    expect(readFileSync(resolve(OUT, entry.types), 'utf8')).toContain(
      'export declare function AvatarViewer(',
    );
  });

  it('types a consumer of AvatarViewer, its props and the /embed messages, and refuses unknown options', () => {
    mkdirSync(CONSUMER_DIR, { recursive: true });
    const file = resolve(CONSUMER_DIR, 'app.tsx');
    writeFileSync(file, CONSUMER);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      jsx: ts.JsxEmit.ReactJSX,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
