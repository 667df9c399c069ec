// The viewer's loading and error states, drawn over (or instead of) the canvas.
import { useEffect, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import type { AvatarViewerTexts } from './viewer-options';
import { NoMeshError } from './no-mesh';

export const DEFAULT_TEXTS: AvatarViewerTexts = {
  loading: 'Loading avatar',
  failed: 'The avatar could not be loaded.',
  retry: 'Try again',
  noMesh: 'This model has no mesh to show: it holds only an animation or a skeleton.',
};
/** The longest reason shown under the error message. */
const MAX_REASON_LENGTH = 200;

/**
 * Calls `onDrawn` once the frame that first draws the avatar is on screen: that frame runs
 * this callback before it renders (shader compiles, and prefiltering an .exr/.hdr environment),
 * and the next animation frame starts only after it was shown. So `loaded`, the spawn and
 * `spawnFinished` are never announced before the avatar can be seen.
 */
export function FirstFrame({ onDrawn }: { onDrawn: () => void }) {
  const drawn = useRef(false);
  const latest = useRef(onDrawn);
  useEffect(() => {
    latest.current = onDrawn;
  });
  useFrame(() => {
    if (drawn.current) return;
    drawn.current = true;
    requestAnimationFrame(() => latest.current());
  });
  return null;
}

/** A short reason for the error state: the error's message, cut to MAX_REASON_LENGTH. */
function errorReason(error: unknown): string {
  const message = (
    error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  ).trim();
  return message.length > MAX_REASON_LENGTH
    ? `${message.slice(0, MAX_REASON_LENGTH - 1)}…`
    : message;
}

/**
 * The error state: what went wrong, and a button that loads the model again; a model with no
 * mesh only says so (loading it again would not give it one).
 */
export function ErrorState(props: {
  texts: AvatarViewerTexts;
  error: unknown;
  onRetry: () => void;
}) {
  if (props.error instanceof NoMeshError) {
    return (
      <div style={errorStyle}>
        <p role="status" style={{ margin: 0 }}>
          {props.texts.noMesh}
        </p>
      </div>
    );
  }
  const reason = errorReason(props.error);
  return (
    <div style={errorStyle}>
      <p role="alert" style={{ margin: 0 }}>
        {props.texts.failed}
        {reason && (
          <>
            <br />
            <small style={{ overflowWrap: 'anywhere' }}>{reason}</small>
          </>
        )}
      </p>
      <button type="button" className="avatar-viewer-retry" onClick={props.onRetry}>
        {props.texts.retry}
      </button>
    </div>
  );
}

const errorStyle = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 12,
  padding: 16,
  textAlign: 'center',
  cursor: 'auto',
} as const;
