import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './locales/en';

/** Initialises i18next with the English texts; every user-visible string goes through it. */
export function initI18n() {
  if (i18next.isInitialized) return i18next;
  void i18next.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return i18next;
}

let backOffice: Promise<void> | undefined;

/**
 * Adds the back-office texts (lists, assets, uploads, ...) to the English resources. The
 * signed-in area loads them before it renders (src/routes/_app.tsx), so the sign-in page
 * never downloads them.
 */
export function loadBackOfficeTexts(): Promise<void> {
  backOffice ??= import('./locales/en-back-office').then(({ enBackOffice }) => {
    initI18n().addResourceBundle('en', 'translation', enBackOffice, true, false);
  });
  // A failed download (offline) is tried again on the next navigation.
  backOffice.catch(() => (backOffice = undefined));
  return backOffice;
}
