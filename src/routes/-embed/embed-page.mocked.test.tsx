// @vitest-environment jsdom
// What /embed tells its host page when the viewer fails: here a model with no mesh, which the
// viewer (a stand-in: jsdom has no WebGL) reports as it does after loading an animation clip.
import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { NoMeshError } from '../../ui/canvas/no-mesh';
import type { AvatarViewerProps } from '../../viewer';
import { EmbedPage } from './embed-page';

vi.mock('../../viewer', async () => {
  const { NoMeshError: Reported } = await import('../../ui/canvas/no-mesh');
  return {
    NoMeshError: Reported,
    AvatarViewer: ({ onLoading, onError }: AvatarViewerProps) => {
      useEffect(() => {
        onLoading?.();
        onError?.(new Reported());
      }, [onLoading, onError]);
      return null;
    },
  };
});

beforeAll(() => {
  initI18n();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('/embed given a model with no mesh', () => {
  it("posts the viewer's error with code noMesh, so the host can tell it from a failed load", () => {
    const host = { postMessage: vi.fn() };
    vi.spyOn(window, 'parent', 'get').mockReturnValue(host as unknown as Window);
    render(<EmbedPage search={{ modelSrc: 'https://cdn.example/idle.glb' }} />);
    expect(host.postMessage).toHaveBeenCalledWith(
      {
        type: 'error',
        cause: 'viewer',
        message: new NoMeshError().message,
        code: 'noMesh',
      },
      '*',
    );
  });
});
