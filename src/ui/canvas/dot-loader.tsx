const DOTS = [0, 1, 2];

/** Three pulsing dots over the canvas while the model loads (static under reduced motion). */
export function DotLoader({ label }: { label: string }) {
  return (
    <div role="progressbar" aria-label={label} className="avatar-viewer-loader" style={loaderStyle}>
      <style>{KEYFRAMES}</style>
      {DOTS.map((i) => (
        <span key={i} style={{ ...dotStyle, animationDelay: `${i * 0.16}s` }} />
      ))}
    </div>
  );
}

const KEYFRAMES = `
@keyframes avatar-viewer-dot { 0%, 80%, 100% { opacity: .25 } 40% { opacity: 1 } }
@media (prefers-reduced-motion: reduce) { .avatar-viewer-loader span { animation: none !important } }
`;

const loaderStyle = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 8,
  pointerEvents: 'none',
} as const;

const dotStyle = {
  width: 10,
  height: 10,
  borderRadius: '50%',
  background: 'currentColor',
  opacity: 0.25,
  animation: 'avatar-viewer-dot 1.2s infinite ease-in-out',
} as const;
