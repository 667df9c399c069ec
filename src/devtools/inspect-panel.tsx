/**
 * Opens the in-app inspector panel over any page of a development build: Ctrl+Alt+I toggles it
 * (Ctrl+Shift+I is the browser's developer tools), `?inspect=panel` opens it on load. Loaded
 * lazily by the root route, and only when `import.meta.env.DEV`.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { inspection } from './inspect';
import { InspectorPanel } from './inspector-panel';
import type { InspectionStore } from './inspection';

const INSPECTOR_SHORTCUT = 'Ctrl+Alt+I';

/** Ctrl+Alt+I by physical key, so that it works on every keyboard layout. */
const isShortcut = (event: KeyboardEvent) =>
  event.ctrlKey && event.altKey && !event.shiftKey && !event.metaKey && event.code === 'KeyI';

export default function InspectorPanelHost() {
  const [open, setOpen] = useState(
    () => new URLSearchParams(window.location.search).get('inspect') === 'panel',
  );
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcut(event)) return;
      event.preventDefault();
      setOpen((wasOpen) => !wasOpen);
    };
    window.addEventListener('keydown', onKeyDown);
    // Says the shortcut listens (the panel's code loads lazily): tests wait for it.
    document.documentElement.dataset.inspector = 'ready';
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      delete document.documentElement.dataset.inspector;
    };
  }, []);
  if (!open || !inspection) return null;
  return <LivePanel store={inspection} onClose={() => setOpen(false)} />;
}

function LivePanel({ store, onClose }: { store: InspectionStore; onClose: () => void }) {
  const { actors, events } = useSyncExternalStore(store.subscribe, store.getState);
  return (
    <InspectorPanel
      actors={actors}
      events={events}
      shortcut={INSPECTOR_SHORTCUT}
      onClose={onClose}
    />
  );
}
