// @vitest-environment jsdom
// The viewer's scene as it is built (spec §2, §9): a real R3F root in jsdom whose renderer is a
// stand-in (jsdom has no WebGL), so the tests read the camera, lights, materials and the
// avatar's transform from the scene the viewer made, and the root element from the DOM.
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { RootState } from '@react-three/fiber';
import type { ComponentProps } from 'react';
import {
  AmbientLight,
  Box3,
  DirectionalLight,
  Fog,
  FogExp2,
  Group,
  MathUtils,
  Mesh,
  MeshStandardMaterial,
  Sphere,
  Vector3,
  type Object3D,
  type PerspectiveCamera,
} from 'three';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEBUG_UNAVAILABLE_WARNING, TIMER_QUERY_EXTENSION } from './ui/canvas/gpu-timer';
import { AvatarViewer, type AvatarViewerHandle, type FogOptions } from './viewer';

const harness = vi.hoisted(() => ({
  /** The R3F root of the last viewer. */
  root: null as RootState | null,
  /** The ambient-occlusion pass of the last viewer that has one. */
  ao: null as AoPass | null,
  /** What the renderer's getContext() gives (default: a context with no extensions). */
  context: null as object | null,
  /** The pixel ratio R3F last gave the renderer. */
  pixelRatio: 0,
  /** The models are animation clips: a skeleton and no mesh. */
  clipsOnly: false,
}));

/** The part of n8ao's pass (N8AOPostPass) the tests read. */
interface AoPass {
  configuration: Record<string, unknown>;
  bluenoise: { image: { width: number; height: number } };
  writeTargetInternal: { width: number; height: number };
  depthDownsampleTarget: { width: number; height: number } | null;
}

/** n8ao's real pass, remembered when the viewer makes it. */
vi.mock('n8ao', async (importOriginal) => {
  const real = await importOriginal<typeof import('n8ao')>();
  class RememberedPass extends real.N8AOPostPass {
    constructor(...args: ConstructorParameters<typeof real.N8AOPostPass>) {
      super(...args);
      harness.ao = this as unknown as AoPass;
    }
  }
  return { ...real, N8AOPostPass: RememberedPass };
});

/** postprocessing's real composer, which draws nothing here (no WebGL). */
vi.mock('postprocessing', async (importOriginal) => {
  const real = await importOriginal<typeof import('postprocessing')>();
  class QuietComposer extends real.EffectComposer {
    override render() {}
  }
  return { ...real, EffectComposer: QuietComposer };
});

/** The real canvas, with a renderer that draws nothing and records nothing. */
vi.mock('./ui/canvas/viewer-canvas', async (importOriginal) => {
  const real = await importOriginal<typeof import('./ui/canvas/viewer-canvas')>();
  const fakeRenderer = ({ canvas }: { canvas: HTMLCanvasElement }) => ({
    domElement: canvas,
    render: () => {},
    setSize: () => {},
    setPixelRatio: (ratio: number) => {
      harness.pixelRatio = ratio;
    },
    getPixelRatio: () => harness.pixelRatio,
    // What postprocessing's composer asks of a renderer.
    getSize: (target: { set: (w: number, h: number) => unknown }) => target.set(200, 200),
    getDrawingBufferSize: (target: { set: (w: number, h: number) => unknown }) =>
      target.set(200, 200),
    getContext: () =>
      harness.context ?? {
        getContextAttributes: () => ({ alpha: true }),
        getExtension: () => null,
      },
    autoClear: true,
    debug: { checkShaderErrors: true },
    shadowMap: { enabled: false, type: 0 },
    outputColorSpace: '',
    toneMapping: 0,
    dispose: () => {},
    forceContextLoss: () => {},
  });
  return {
    ViewerCanvas: (props: ComponentProps<typeof real.ViewerCanvas>) => (
      <real.ViewerCanvas
        {...props}
        gl={fakeRenderer as unknown as ComponentProps<typeof real.ViewerCanvas>['gl']}
        onCreated={(state) => {
          harness.root = state;
          props.onCreated?.(state);
        }}
      />
    ),
  };
});

/** Every model is a stand-in: a glowing box and a plain one (no download, no parser). */
vi.mock('./ui/canvas/model-cache', async (importOriginal) => {
  const real = await importOriginal<typeof import('./ui/canvas/model-cache')>();
  const three = await import('three');
  return {
    ...real,
    acquireModel: () => {
      const scene = new three.Group();
      if (harness.clipsOnly) {
        scene.add(new three.Bone());
        return Promise.resolve({ scene, animations: [] });
      }
      const glow = new three.MeshStandardMaterial({ emissive: 0xff8800 });
      scene.add(new three.Mesh(new three.BoxGeometry(1, 2, 1), glow));
      scene.add(new three.Mesh(new three.BoxGeometry(1, 1, 1), new three.MeshStandardMaterial()));
      return Promise.resolve({ scene, animations: [] });
    },
    releaseModel: () => {},
  };
});

vi.mock('./ui/canvas/environment-lighting', () => ({
  EnvironmentLighting: () => null,
  environmentTexture: () => Promise.resolve(undefined),
}));

const SIZE = 200;
/** Every element's box (the viewer's canvas box among them), and who watches it change. */
const box = { width: SIZE, height: SIZE };
const resizeWatchers = new Set<() => void>();

/** Gives every box a new size and tells the viewers, as a ResizeObserver would. */
function resizeTo(width: number, height: number) {
  Object.assign(box, { width, height });
  act(() => resizeWatchers.forEach((watcher) => watcher()));
}

beforeEach(() => {
  harness.root = null;
  harness.ao = null;
  harness.context = null;
  harness.pixelRatio = 0;
  harness.clipsOnly = false;
  Object.assign(box, { width: SIZE, height: SIZE });
  resizeWatchers.clear();
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => ({
    ...box,
    top: 0,
    left: 0,
    right: box.width,
    bottom: box.height,
    x: 0,
    y: 0,
    toJSON: () => ({}),
  }));
  // jsdom has no pointer capture.
  if (!('setPointerCapture' in HTMLElement.prototype)) {
    Object.assign(HTMLElement.prototype, { setPointerCapture: () => {} });
  }
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly watcher: () => void) {}
      observe() {
        resizeWatchers.add(this.watcher);
      }
      disconnect() {
        resizeWatchers.delete(this.watcher);
      }
    },
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Renders the viewer and waits until its avatar is in the scene. */
async function spawned(props: Partial<ComponentProps<typeof AvatarViewer>> = {}) {
  const onSpawnFinished = vi.fn();
  const view = render(
    <AvatarViewer modelSrc="/avatar.glb" onSpawnFinished={onSpawnFinished} {...props} />,
  );
  await vi.waitFor(() => expect(onSpawnFinished).toHaveBeenCalled());
  await vi.waitFor(() => expect(avatarGroup()).toBeDefined());
  return { ...view, element: screen.getByRole('img', { name: '3D avatar viewer' }) };
}

const scene = () => harness.root!.scene;
const camera = () => harness.root!.camera as PerspectiveCamera;
const find = <T extends Object3D>(type: new (...args: never[]) => T): T[] => {
  const found: T[] = [];
  scene().traverse((object) => {
    if (object instanceof type) found.push(object);
  });
  return found;
};
/** The group that places the avatar (position and scale options). */
const avatarGroup = () =>
  harness.root ? find(Group).find((group) => group.parent === scene()) : undefined;
/** The group the user's drag turns (inside the placing group). */
const turnedGroup = () => avatarGroup()!.children[0] as Group;
/** One frame of the viewer's loop. */
const frame = () => act(() => new Promise((done) => requestAnimationFrame(() => done(null))));

describe('the viewer scene, in spec §9 values', () => {
  it('looks from (0, 0, 5) with a field of view of 50', async () => {
    await spawned();
    expect(camera().fov).toBe(50);
    expect(camera().position.toArray()).toEqual([0, 0, 5]);
  });

  it('lights the avatar with an ambient light of intensity 0.5', async () => {
    await spawned();
    expect(find(AmbientLight).map((light) => light.intensity)).toEqual([0.5]);
  });

  it('gives glowing materials an emissive intensity of 3.3 and leaves the others alone', async () => {
    await spawned();
    const materials = find(Mesh).map((mesh) => mesh.material as MeshStandardMaterial);
    expect(materials.map((material) => material.emissiveIntensity).sort()).toEqual([1, 3.3]);
  });

  it('casts shadows from a 512 x 512 shadow map when shadows are on, none otherwise', async () => {
    const view = await spawned();
    expect(find(DirectionalLight)).toEqual([]);
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" shadows />);
    await vi.waitFor(() => expect(find(DirectionalLight)).toHaveLength(1));
    const [light] = find(DirectionalLight);
    expect(light!.castShadow).toBe(true);
    expect(light!.shadow.mapSize.toArray()).toEqual([512, 512]);
  });

  it('turns the avatar 0.005 radians per pixel dragged', async () => {
    const { element } = await spawned();
    fireEvent.pointerDown(element, { pointerId: 1, clientX: 50, clientY: 50 });
    fireEvent.pointerMove(element, { pointerId: 1, clientX: 150, clientY: 50 });
    fireEvent.pointerUp(element, { pointerId: 1, clientX: 150, clientY: 50 });
    await frame();
    expect(turnedGroup().rotation.y).toBeCloseTo(0.5, 10);
    // A vertical drag tilts it by the same rate (40 px: 0.2 rad, under the tilt limit).
    fireEvent.pointerDown(element, { pointerId: 1, clientX: 50, clientY: 50 });
    fireEvent.pointerMove(element, { pointerId: 1, clientX: 50, clientY: 90 });
    fireEvent.pointerUp(element, { pointerId: 1, clientX: 50, clientY: 90 });
    await frame();
    expect(turnedGroup().rotation.x).toBeCloseTo(0.2, 10);
  });

  it.each([
    [1, 1],
    [1.5, 1.5],
    [3, 2],
  ])(
    'draws a screen of pixel ratio %d at %d: its own ratio, capped at 2 (spec §9)',
    async (device, drawn) => {
      vi.stubGlobal('devicePixelRatio', device);
      await spawned();
      expect(harness.pixelRatio).toBe(drawn);
    },
  );
});

describe('the viewer options', () => {
  /** The avatar's bounding sphere, by three.js, and how it sits in the camera's view. */
  const framing = () => {
    scene().updateMatrixWorld(true);
    const sphere = new Box3().setFromObject(turnedGroup()).getBoundingSphere(new Sphere());
    const towards = sphere.center.clone().sub(camera().position);
    return {
      radius: sphere.radius,
      // The angle from the view's centre to the sphere's edge: half the field of view.
      halfAngle: MathUtils.radToDeg(Math.asin(sphere.radius / towards.length())),
      aimedAtCentre: camera().getWorldDirection(new Vector3()).angleTo(towards),
      distance: towards.length(),
    };
  };

  it('scales the avatar by `scale`', async () => {
    await spawned({ scale: 0.4 });
    expect(avatarGroup()!.scale.toArray()).toEqual([0.4, 0.4, 0.4]);
  });

  it('stands the avatar at `position` (default: feet at y = -1)', async () => {
    const view = await spawned();
    expect(avatarGroup()!.position.toArray()).toEqual([0, -1, 0]);
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" position={[1, -2, 0.5]} />);
    await vi.waitFor(() => expect(avatarGroup()!.position.toArray()).toEqual([1, -2, 0.5]));
  });

  it('frames the avatar with `fit` (its bounding sphere fills the view, at any scale), else looks from (0, 0, 5)', async () => {
    const large = await spawned({ fit: true });
    const full = framing();
    expect(full.halfAngle).toBeCloseTo(25, 6);
    expect(full.aimedAtCentre).toBeCloseTo(0, 6);
    large.unmount();

    const small = await spawned({ fit: true, scale: 0.4 });
    const scaled = framing();
    expect(scaled.radius).toBeCloseTo(full.radius * 0.4, 6);
    expect(scaled.halfAngle).toBeCloseTo(25, 6);
    expect(scaled.aimedAtCentre).toBeCloseTo(0, 6);
    expect(scaled.distance).toBeCloseTo(full.distance * 0.4, 6);

    small.rerender(<AvatarViewer modelSrc="/avatar.glb" scale={0.4} />);
    await vi.waitFor(() => expect(camera().position.toArray()).toEqual([0, 0, 5]));
    expect(
      camera()
        .getWorldDirection(new Vector3())
        .angleTo(new Vector3(0, 0, -1)),
    ).toBe(0);
  });

  it('frames the avatar anew with `fit` when `scale` or `position` change on the same viewer', async () => {
    const view = await spawned({ fit: true });
    const full = framing();
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" fit scale={0.4} />);
    await vi.waitFor(() => expect(framing().distance).toBeCloseTo(full.distance * 0.4, 6));
    expect(framing().halfAngle).toBeCloseTo(25, 6);
    expect(framing().aimedAtCentre).toBeCloseTo(0, 6);

    view.rerender(<AvatarViewer modelSrc="/avatar.glb" fit scale={0.4} position={[1, -2, 0.5]} />);
    await vi.waitFor(() => expect(framing().aimedAtCentre).toBeCloseTo(0, 6));
    expect(framing().halfAngle).toBeCloseTo(25, 6);
  });

  it('frames the whole avatar with `fit` on a portrait canvas, and again when the canvas turns', async () => {
    // 100 x 200: the horizontal field (2 atan(tan 25° x 0.5), about 26°) is the narrower one.
    resizeTo(100, 200);
    await spawned({ fit: true });
    expect(camera().aspect).toBeCloseTo(0.5, 6);
    const horizontalHalf = MathUtils.radToDeg(Math.atan(Math.tan(MathUtils.degToRad(25)) * 0.5));
    expect(framing().halfAngle).toBeCloseTo(horizontalHalf, 6);
    expect(framing().aimedAtCentre).toBeCloseTo(0, 6);

    // Turned to landscape, the vertical 50° is the narrower field again.
    resizeTo(200, 100);
    await vi.waitFor(() => expect(framing().halfAngle).toBeCloseTo(25, 6));
    expect(camera().aspect).toBeCloseTo(2, 6);
    expect(framing().aimedAtCentre).toBeCloseTo(0, 6);
  });

  it('puts `className` and `style` on its root element, over its own style', async () => {
    const { element } = await spawned({
      className: 'profile-avatar',
      style: { width: '321px', borderRadius: '8px' },
    });
    expect(element).toHaveClass('profile-avatar');
    expect(element.style.width).toBe('321px');
    expect(element.style.borderRadius).toBe('8px');
    // Its own style stays where the option says nothing.
    expect(element.style.position).toBe('relative');
  });

  it('captures image/png by default, and quality 0.1 for lossy types only', async () => {
    const toDataURL = vi
      .spyOn(HTMLCanvasElement.prototype, 'toDataURL')
      .mockReturnValue('data:image/x-test,');
    const handle = { current: null as AvatarViewerHandle | null };
    await spawned({ ref: handle });
    handle.current!.capture();
    handle.current!.capture('image/jpeg');
    handle.current!.capture('image/webp', 0.8);
    handle.current!.capture('image/png', 0.8);
    expect(toDataURL.mock.calls).toEqual([
      ['image/png', undefined],
      ['image/jpeg', 0.1],
      ['image/webp', 0.8],
      ['image/png', undefined],
    ]);
  });
});

describe('optional zoom', () => {
  const wheel = (element: HTMLElement, deltaY: number) => {
    const event = new WheelEvent('wheel', { deltaY, bubbles: true, cancelable: true });
    element.dispatchEvent(event);
    return event;
  };

  it('is off by default: the wheel scrolls the page and the view keeps its framing', async () => {
    const { element } = await spawned();
    expect(wheel(element, -300).defaultPrevented).toBe(false);
    fireEvent.keyDown(element, { key: '+' });
    expect(camera().zoom).toBe(1);
  });

  it('zooms in on a wheel up, out on a wheel down, within 0.5 to 4 times', async () => {
    const { element } = await spawned({ zoom: true });
    expect(wheel(element, -100).defaultPrevented).toBe(true);
    expect(camera().zoom).toBeCloseTo(Math.exp(0.2));
    wheel(element, 100);
    expect(camera().zoom).toBeCloseTo(1);
    for (let i = 0; i < 20; i++) wheel(element, -500);
    expect(camera().zoom).toBe(4);
    for (let i = 0; i < 40; i++) wheel(element, 500);
    expect(camera().zoom).toBe(0.5);
  });

  it('zooms by the ratio of a two-finger pinch, and a pinch turns nothing', async () => {
    const { element } = await spawned({ zoom: true });
    fireEvent.pointerDown(element, { pointerId: 1, clientX: 80, clientY: 100 });
    fireEvent.pointerDown(element, { pointerId: 2, clientX: 120, clientY: 100 });
    // 40 px apart, then 80: twice as close.
    fireEvent.pointerMove(element, { pointerId: 2, clientX: 160, clientY: 100 });
    expect(camera().zoom).toBeCloseTo(2);
    fireEvent.pointerUp(element, { pointerId: 2 });
    fireEvent.pointerUp(element, { pointerId: 1 });
    await frame();
    expect(turnedGroup().rotation.y).toBe(0);
  });

  it('zooms with + and -, and goes back to the default view when switched off', async () => {
    const { element, rerender } = await spawned({ zoom: true });
    fireEvent.keyDown(element, { key: '+' });
    expect(camera().zoom).toBeCloseTo(1.25);
    fireEvent.keyDown(element, { key: '-' });
    fireEvent.keyDown(element, { key: '-' });
    expect(camera().zoom).toBeCloseTo(0.8);
    rerender(<AvatarViewer modelSrc="/avatar.glb" />);
    await vi.waitFor(() => expect(camera().zoom).toBe(1));
  });
});

describe('ambient occlusion (n8ao)', () => {
  /**
   * Checks the pass of a spawned viewer with these options once its lazy chunk is in: the
   * options reach the pass after it is made, so `check` is retried until it holds (or times out).
   */
  async function expectAoPass(
    props: Partial<ComponentProps<typeof AvatarViewer>>,
    check: (ao: AoPass) => void,
  ) {
    await spawned(props);
    await vi.waitFor(() => {
      expect(harness.ao).not.toBeNull();
      check(harness.ao!);
    });
  }

  it('runs with the §9 occlusion defaults and its 128 x 128 noise texture', async () => {
    await expectAoPass({ ao: 'Combined' }, (ao) => {
      expect(ao.configuration).toMatchObject({
        aoSamples: 16,
        aoRadius: 5,
        denoiseSamples: 8,
        denoiseRadius: 12,
        denoiseIterations: 2,
        intensity: 5,
        distanceFalloff: 1,
        halfRes: false,
      });
      expect([ao.bluenoise.image.width, ao.bluenoise.image.height]).toEqual([128, 128]);
      // Full resolution: the occlusion is as large as the drawing buffer (200 x 200 here).
      expect([ao.writeTargetInternal.width, ao.writeTargetInternal.height]).toEqual([200, 200]);
    });
  });

  it.each([
    ['Performance', 8, 4, 12],
    ['Low', 16, 4, 12],
    ['Medium', 16, 8, 12],
    ['High', 64, 8, 6],
    ['Ultra', 64, 16, 6],
  ] as const)('%s quality: %i samples, %i denoise samples, radius %i', async (quality, a, d, r) => {
    await expectAoPass({ ao: 'Combined', quality }, (ao) =>
      expect(ao.configuration).toMatchObject({
        aoSamples: a,
        denoiseSamples: d,
        denoiseRadius: r,
        aoRadius: 5,
      }),
    );
  });

  it('computes the occlusion at 0.5 scale in half-resolution mode', async () => {
    await expectAoPass({ ao: 'Combined', aoHalfResolution: true }, (ao) => {
      expect(ao.configuration.halfRes).toBe(true);
      expect([ao.writeTargetInternal.width, ao.writeTargetInternal.height]).toEqual([100, 100]);
      expect(ao.depthDownsampleTarget).toMatchObject({ width: 100, height: 100 });
    });
  });

  it.each([
    ['Combined', 0],
    ['AO', 1],
    ['No AO', 2],
    ['Split', 3],
    ['Split AO', 4],
  ] as const)('shows the %s display mode', async (mode, renderMode) => {
    await expectAoPass({ ao: mode }, (ao) => expect(ao.configuration.renderMode).toBe(renderMode));
  });
});

describe('fog', () => {
  it('is off by default; linear and exponential fog are three.js Fog and FogExp2', async () => {
    const view = await spawned();
    expect(scene().fog).toBeNull();
    view.rerender(
      <AvatarViewer modelSrc="/avatar.glb" fog={{ type: 'linear', color: '#ff0000', far: 6 }} />,
    );
    await vi.waitFor(() => expect(scene().fog).toBeInstanceOf(Fog));
    const linear = scene().fog as Fog;
    expect([linear.color.getHexString(), linear.near, linear.far]).toEqual(['ff0000', 1, 6]);
    view.rerender(
      <AvatarViewer modelSrc="/avatar.glb" fog={{ type: 'exponential', color: '#0000ff' }} />,
    );
    await vi.waitFor(() => expect(scene().fog).toBeInstanceOf(FogExp2));
    expect((scene().fog as FogExp2).density).toBe(0.1);
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" />);
    await vi.waitFor(() => expect(scene().fog).toBeNull());
  });

  it('draws without fog for an unsupported type, and says so once, not every render', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fog = { type: 'volumetric', color: '#ffffff' } as unknown as FogOptions;
    const view = await spawned({ fog });
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" fog={{ ...fog }} scale={2} />);
    await frame();
    expect(scene().fog).toBeNull();
    expect(error.mock.calls).toEqual([
      [
        'Avatar viewer: drawing without fog: unsupported fog type "volumetric": the supported types are "linear" and "exponential"',
      ],
    ]);
  });
});

describe('debug mode', () => {
  it('is disabled with one warning where the timer-query extension is unavailable', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const view = await spawned({ debug: true });
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" debug scale={2} />);
    await frame();
    // (R3F's own deprecation warning may come first.)
    const ours = warn.mock.calls.filter(([message]) => String(message).includes('debug'));
    expect(ours).toEqual([[DEBUG_UNAVAILABLE_WARNING]]);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the average GPU time per frame from timer queries', async () => {
    const ext = { TIME_ELAPSED_EXT: 1, GPU_DISJOINT_EXT: 2 };
    harness.context = {
      QUERY_RESULT: 3,
      QUERY_RESULT_AVAILABLE: 4,
      getExtension: (name: string) => (name === TIMER_QUERY_EXTENSION ? ext : null),
      createQuery: () => ({}),
      beginQuery: () => {},
      endQuery: () => {},
      // Every query is done at once and took 2.5 ms.
      getQueryParameter: (_: unknown, name: number) => (name === 4 ? true : 2_500_000),
      deleteQuery: () => {},
      getParameter: () => false,
    };
    const view = await spawned({ debug: true });
    // A frame drawn with the timer running.
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" debug scale={2} />);
    await frame();
    const time = await screen.findByRole('status', { name: 'GPU time per frame' });
    expect(time.textContent).toBe('GPU 2.50 ms');
    expect(view.element.getAttribute('aria-describedby')).toBe(time.id);
    view.rerender(<AvatarViewer modelSrc="/avatar.glb" scale={2} />);
    await vi.waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});

describe('a model with no mesh (an animation clip)', () => {
  it('says there is no mesh to show, without Retry, instead of spawning an empty scene', async () => {
    harness.clipsOnly = true;
    const onError = vi.fn();
    const onLoaded = vi.fn();
    render(<AvatarViewer modelSrc="/idle.glb" onError={onError} onLoaded={onLoaded} />);
    expect(
      await screen.findByText(
        'This model has no mesh to show: it holds only an animation or a skeleton.',
      ),
    ).toBeTruthy();
    const viewer = screen.getByRole('group', { name: '3D avatar viewer' });
    expect(viewer.getAttribute('data-state')).toBe('error');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'noMesh' }));
    expect(onLoaded).not.toHaveBeenCalled();
  });
});
