/**
 * The entry of /embed (embed.html): the viewer page alone, without the back office's router,
 * session or data layer, so an embedder's first frame waits for none of them. The viewer's
 * chunks are static imports, which the built page preloads next to this one.
 */
import { StrictMode, useMemo, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { deliverySources } from '../core/model-delivery';
import { initI18n } from './i18n';
import { EmbedPage } from './routes/-embed/embed-page';
import { embedSettings, viewerOptions } from './routes/-embed/messages';
import { readSearch } from './routes/-embed/options';
import { startTheme } from './ui/theme';
import { preloadAvatar } from './viewer';
import './ui/styles.css';

// The model and environment named in the address start loading before anything renders.
const first = embedSettings(readSearch(window.location.search), {});
if (first.modelSrc !== undefined)
  preloadAvatar({
    ...viewerOptions(first),
    modelSrc: deliverySources(first.modelSrc, [window.location.origin]),
  });
startTheme();
initI18n();

/** The page follows its address through the frame's history (back and forward). */
function subscribe(onChange: () => void) {
  window.addEventListener('popstate', onChange);
  return () => window.removeEventListener('popstate', onChange);
}

function Embed() {
  const query = useSyncExternalStore(subscribe, () => window.location.search);
  const search = useMemo(() => readSearch(query), [query]);
  return <EmbedPage search={search} />;
}

const root = document.getElementById('root');
if (!root) throw new Error('embed.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <Embed />
  </StrictMode>,
);
