import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBuildCurrent, recordBuild, summarizeBuild } from './build-if-changed';
import { tempDir } from '../tests/temp-dir';

function project() {
  const root = tempDir('build-if-changed-');
  mkdirSync(join(root, 'src/routes'), { recursive: true });
  mkdirSync(join(root, 'server'));
  mkdirSync(join(root, 'dist'));
  mkdirSync(join(root, 'dist-server'));
  writeFileSync(join(root, 'src/main.ts'), 'export const a = 1;');
  writeFileSync(join(root, 'server/main.ts'), 'export const b = 1;');
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'dist/index.html'), '<!doctype html>');
  writeFileSync(join(root, 'dist-server/main.js'), 'export const b = 1;');
  return root;
}

describe('npm start builds only when an input changed', () => {
  it('skips the build when nothing changed since the last one', () => {
    const root = project();
    expect(isBuildCurrent(root, {})).toBe(false);
    recordBuild(root, {});
    expect(isBuildCurrent(root, {})).toBe(true);
    // The route tree is the build's own output.
    writeFileSync(join(root, 'src/routeTree.gen.ts'), '// generated');
    expect(isBuildCurrent(root, {})).toBe(true);
  });

  it('builds again after a source, a lock file or a VITE_ variable changed', () => {
    const root = project();
    recordBuild(root, { VITE_API_BASE: '/' });
    expect(isBuildCurrent(root, { VITE_API_BASE: '/', PATH: '/bin' })).toBe(true);
    expect(isBuildCurrent(root, { VITE_API_BASE: 'https://api.example/' })).toBe(false);
    writeFileSync(join(root, 'src/routes/new.tsx'), 'export {};');
    expect(isBuildCurrent(root, { VITE_API_BASE: '/' })).toBe(false);
    recordBuild(root, { VITE_API_BASE: '/' });
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    expect(isBuildCurrent(root, { VITE_API_BASE: '/' })).toBe(false);
  });

  it('builds again after a server source changed, the server being built too', () => {
    const root = project();
    recordBuild(root, {});
    writeFileSync(join(root, 'server/main.ts'), 'export const b = 2;');
    expect(isBuildCurrent(root, {})).toBe(false);
  });

  it('builds when dist-server/ has no main.js', () => {
    const root = project();
    recordBuild(root, {});
    rmSync(join(root, 'dist-server/main.js'));
    expect(isBuildCurrent(root, {})).toBe(false);
  });

  it('builds when dist/ has no index.html', () => {
    const root = project();
    recordBuild(root, {});
    rmSync(join(root, 'dist/index.html'));
    expect(isBuildCurrent(root, {})).toBe(false);
  });
});

describe('npm start summarises the build', () => {
  it('in one line: the files written, the time, and the warnings by kind', () => {
    const report = [
      'vite v8.3.8 building client environment for production...',
      '[plugin x] [SOURCEMAP_BROKEN] Sourcemap is likely to be incorrect',
      '[plugin x] [SOURCEMAP_BROKEN] Sourcemap is likely to be incorrect',
      '[PLUGIN_TIMINGS] JavaScript callbacks ran for 743ms',
      'dist/index.html                 1.29 kB │ gzip:   0.51 kB',
      'dist/assets/main-abc.js        95.12 kB │ gzip:  30.10 kB │ map: 400.00 kB',
      '✓ built in 24.40s',
    ].join('\n');
    expect(summarizeBuild(report, 31_400)).toBe(
      'Built 2 files in 31 s (warnings: 2 × SOURCEMAP_BROKEN; npm run build shows them).',
    );
    expect(summarizeBuild('dist/index.html  1.29 kB', 9_000)).toBe('Built 1 file in 9 s.');
  });
});
