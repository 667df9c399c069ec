// visage's Avatar with the model and the .hdr file every viewer gets, its camera as close to
// our viewer's `fit` as visage allows: it looks at the bounding sphere's centre from the same
// distance with the same field of view, but its orbit controls hold the camera at a polar
// angle of 1.4 rad (about 10 degrees above level), which no prop changes.
import { Avatar } from '@readyplayerme/visage';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { markLoaded, onSwitch, params } from './harness';

// visage re-fires onLoaded whenever the callback's identity changes: keep it stable.
const onLoaded = () => markLoaded();
const { target, distance, fov } = params;

function Page() {
  const [url, setUrl] = useState(params.modelSrc);
  onSwitch(setUrl);
  return (
    <Avatar
      modelSrc={url}
      environment={params.environment}
      onLoaded={onLoaded}
      fov={fov}
      // visage lowers its target by 0.6 m x (distance - min) / (max - min) (its min is the
      // given one + 0.1): a range ending at our distance keeps the camera there (the controls
      // clamp it) and the target exactly 0.6 m below the one given.
      cameraTarget={target[1] + 0.6}
      cameraInitialDistance={distance}
      controlsMinDistance={distance - 1.1}
      controlsMaxDistance={distance}
      style={{ width: '100%', height: '100%' }}
    />
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
