import { createRoot, extend, type ReconcilerRoot, type RenderProps } from '@react-three/fiber';
import {
  Component,
  Suspense,
  useInsertionEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { AmbientLight, DirectionalLight, Group, Mesh, PlaneGeometry, ShadowMaterial } from 'three';

/**
 * The three.js classes the viewer's JSX elements stand for. R3F's <Canvas> registers all of
 * three, which keeps every class in the bundle; registering only these lets the bundler leave
 * the rest of three out (about 40 KiB of gzip JS before the first picture). A new element in
 * the viewer's scene needs its class here.
 */
extend({ AmbientLight, DirectionalLight, Group, Mesh, PlaneGeometry, ShadowMaterial });

type CanvasConfig = Pick<
  RenderProps<HTMLCanvasElement>,
  'camera' | 'dpr' | 'frameloop' | 'gl' | 'onCreated' | 'shadows'
>;

export interface ViewerCanvasProps extends CanvasConfig {
  children: ReactNode;
  /** The renderer could not start, or a component in the scene threw. */
  onError: (error: Error) => void;
  style?: CSSProperties;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * The viewer's WebGL canvas: an R3F root (createRoot) sized to its box. Unlike R3F's <Canvas>
 * it wires no pointer events (the viewer handles its own drag and keys on the element around
 * it) and forwards no React context into the scene (the scene takes everything as props).
 */
export function ViewerCanvas({ children, onError, style, ...config }: ViewerCanvasProps) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const root = useRef<ReconcilerRoot<HTMLCanvasElement> | null>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [, settled] = useReducer((n: number) => n + 1, 0);
  // Listeners and promises outlive renders: they call the newest onError.
  const reportError = useRef(onError);
  useLayoutEffect(() => {
    reportError.current = onError;
  });

  useLayoutEffect(() => {
    const element = box.current!;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      setSize((old) => (old?.width === width && old.height === height ? old : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Every render configures the root (R3F applies only what changed) and renders the scene.
  useLayoutEffect(() => {
    if (!canvas.current || !size || size.width === 0 || size.height === 0) return;
    const current = (root.current ??= createRoot(canvas.current));
    current
      .configure({ ...config, size: { ...size, top: 0, left: 0 } })
      .then(undefined, (error: unknown) => reportError.current(asError(error)));
    if (current.ready.status === 'fulfilled') {
      current.render(
        <SceneBoundary onError={(error) => reportError.current(error)}>
          <Suspense fallback={null}>{children}</Suspense>
        </SceneBoundary>,
      );
    } else if (current.ready.status === 'pending') {
      // The renderer is still being made: render once it is there.
      void current.ready.then(settled, () => {});
    }
  });

  // Released on final removal only: insertion effects are not replayed by StrictMode.
  useInsertionEffect(
    () => () => {
      root.current?.unmount();
      root.current = null;
    },
    [],
  );

  return (
    <div ref={box} style={{ width: '100%', height: '100%', overflow: 'hidden', ...style }}>
      <canvas ref={canvas} style={{ display: 'block' }} />
    </div>
  );
}

/** Inside the R3F root: an error in the scene is reported instead of unmounting the page. */
class SceneBoundary extends Component<
  { onError: (error: Error) => void; children: ReactNode },
  { failed: boolean }
> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    this.props.onError(asError(error));
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}
