import { Avatar } from '@readyplayerme/visage';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { markMounted, markSpawned, MODELS, onSwitch } from './harness';

// visage re-fires onLoaded whenever the callback's identity changes: keep it stable.
const onLoaded = () => markSpawned();

function Bench() {
  const [url, setUrl] = useState<string>(MODELS[0]);
  onSwitch(setUrl);
  // The same lighting file as ours (the "city" preset), served locally: visage's presets
  // live on its CDN, which the bench does not reach.
  return <Avatar modelSrc={url} environment="/city.exr" onLoaded={onLoaded} />;
}

markMounted();
createRoot(document.getElementById('root')!).render(<Bench />);
