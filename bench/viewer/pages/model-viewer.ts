// <model-viewer> with the model and the .hdr file every viewer gets, its camera set to the
// framing of our viewer's `fit` (look at the bounding sphere's centre, level, from the
// distance at which the sphere fills the vertical field of view). The self-contained build
// (three bundled in), as a page that does not bundle three itself would use it.
import '@google/model-viewer/dist/model-viewer.min.js';
import { markFailed, markLoaded, onSwitch, params } from './harness';

const { target, distance, fov } = params;
const viewer = document.createElement('model-viewer');
viewer.setAttribute('environment-image', params.environment);
viewer.setAttribute('camera-target', target.map((v) => `${v}m`).join(' '));
viewer.setAttribute('camera-orbit', `0deg 90deg ${distance}m`);
// The limits would otherwise clamp the orbit and field of view to model-viewer's own framing.
viewer.setAttribute('min-camera-orbit', 'auto auto 0m');
viewer.setAttribute('max-camera-orbit', `auto auto ${distance * 2}m`);
viewer.setAttribute('field-of-view', `${fov}deg`);
viewer.setAttribute('max-field-of-view', `${fov}deg`);
// Drag to rotate like the others; no interaction prompt (an endless hint animation).
viewer.setAttribute('camera-controls', '');
viewer.setAttribute('interaction-prompt', 'none');
viewer.style.width = '100%';
viewer.style.height = '100%';
viewer.addEventListener('load', markLoaded);
viewer.addEventListener('error', (event: Event) =>
  markFailed(`model-viewer error: ${JSON.stringify((event as CustomEvent).detail)}`),
);
viewer.setAttribute('src', params.modelSrc);
onSwitch((url) => viewer.setAttribute('src', url));
document.getElementById('root')!.append(viewer);
