import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AvatarViewer } from '../../../src/viewer';
import { markMounted, markSpawned, MODELS, onSwitch } from './harness';

function Bench() {
  const [url, setUrl] = useState<string>(MODELS[0]);
  onSwitch(setUrl);
  return <AvatarViewer modelSrc={url} fit environment="city" onSpawnFinished={markSpawned} />;
}

markMounted();
createRoot(document.getElementById('root')!).render(<Bench />);
