import { describe, expect, it } from 'vitest';
import { safeRedirect } from './search-params';

const APP = 'https://studio.example';

/** Where a browser goes for `value`, as the sign-in page would send it there. */
const landsOn = (value: string) => new URL(value, `${APP}/signin`);

describe('the redirect after sign-in', () => {
  it('keeps a path of this app, its query and fragment included', () => {
    for (const path of ['/', '/assets?page=2&q=a%2Fb', '/users/u1/sessions#current']) {
      expect(safeRedirect.parse(path)).toBe(path);
      expect(landsOn(path).origin).toBe(APP);
    }
  });

  it('refuses whatever a browser would read as another site, and what a decoding would turn into one', () => {
    const offsite = [
      '//evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      '\\/evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      'https://evil.example',
      'javascript:alert(1)',
    ];
    // The attack: each of these leaves the app when a browser follows it.
    for (const value of offsite) {
      const url = landsOn(value);
      expect(url.origin === APP && url.protocol === 'https:', value).toBe(false);
    }
    // On this site as sent, but another once something decodes them before following them; and
    // a backslash or a control character, which no path of this app holds.
    const encoded = ['/%5Cevil.example', '/%5c/evil.example', '/%2F/evil.example'];
    for (const value of [...offsite, ...encoded, '/a\\b', '/\u0000/evil.example']) {
      expect(safeRedirect.parse(value), JSON.stringify(value)).toBeUndefined();
    }
  });
});
