import type { ReactNode } from 'react';

interface AlertProps {
  tone: 'error' | 'info' | 'success';
  children: ReactNode;
}

/** A message box. Errors are assertive alerts; information is a polite status. */
export function Alert({ tone, children }: AlertProps) {
  return (
    <div className={`alert ${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
