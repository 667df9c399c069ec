import { useEffect } from 'react';

const APP = 'Avatar Studio';

/**
 * Names the browser tab after what the screen shows, most specific first:
 * `useDocumentTitle('Olive Cyber', 'Assets')` gives "Olive Cyber · Assets · Avatar Studio".
 */
export function useDocumentTitle(...parts: (string | undefined)[]): void {
  const title = [...parts.filter(Boolean), APP].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
