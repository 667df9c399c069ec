// The self-contained build (three bundled in): its module build wants three ^0.183, while
// the bench's three is the 0.166 visage pins.
import '@google/model-viewer/dist/model-viewer.min.js';
import { markMounted, markSpawned, MODELS, onSwitch } from './harness';

// Drag to rotate like the others; no interaction prompt (an endless hint animation).
const viewer = document.createElement('model-viewer');
viewer.setAttribute('camera-controls', '');
viewer.setAttribute('interaction-prompt', 'none');
viewer.style.width = viewer.style.height = '100%';
viewer.addEventListener('load', markSpawned);
viewer.setAttribute('src', MODELS[0]);
onSwitch((url) => viewer.setAttribute('src', url));
markMounted();
document.getElementById('root')!.append(viewer);
