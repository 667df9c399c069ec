/**
 * One wording for each thing: counted texts go through i18next's plural rules, and
 * no text appears twice with different casing ("Clear filters" beside "Clear Filters").
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { enBackOffice } from './en-back-office';

type Texts = { readonly [key: string]: string | Texts };

function flatten(texts: Texts, prefix = ''): [string, string][] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : flatten(value, `${prefix}${key}.`),
  );
}

const bundles = { en, enBackOffice } as Record<string, Texts>;
const all = Object.entries(bundles).flatMap(([name, texts]) =>
  flatten(texts).map(([key, value]) => [`${name}:${key}`, value] as const),
);
const PLURAL = /_(zero|one|two|few|many|other)$/;

describe.each(Object.keys(bundles))('the %s texts', (name) => {
  const texts = flatten(bundles[name]!);
  const keys = new Set(texts.map(([key]) => key));

  it('count things only through plural keys (a "{{count}}" beside a noun needs _one/_other)', () => {
    const unplural = texts.filter(
      ([key, value]) =>
        !PLURAL.test(key) &&
        // A bare number ("+{{count}}") has no noun to agree with.
        /\{\{count\}\}/.test(value) &&
        /[a-z]/i.test(value.replace(/\{\{[^}]*\}\}/g, '')),
    );
    expect(unplural).toEqual([]);
  });

  it('give every plural its _one and _other form', () => {
    const stems = [...keys].filter((key) => PLURAL.test(key)).map((k) => k.replace(PLURAL, ''));
    const missing = stems.flatMap((stem) =>
      [`${stem}_one`, `${stem}_other`].filter((key) => !keys.has(key)),
    );
    expect(missing).toEqual([]);
  });
});

it('no text is written twice with other capitals past its first letter', () => {
  // The first letter may differ (a word used alone and inside a sentence); the rest must not.
  const tail = (value: string) => value.slice(1);
  const seen = new Map<string, string>();
  const clashes: string[] = [];
  for (const [, value] of all) {
    const folded = tail(value).toLowerCase();
    const other = seen.get(folded);
    if (other !== undefined && tail(other) !== tail(value)) clashes.push(`${other} / ${value}`);
    seen.set(folded, value);
  }
  expect(clashes).toEqual([]);
});

it('says "1 item" and "2 items" through the plural rules', async () => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: { ...en, ...enBackOffice } } },
  });
  expect(i18n.t('list.total', { count: 1 })).toBe('1 item');
  expect(i18n.t('list.total', { count: 2 })).toBe('2 items');
  expect(i18n.t('list.total', { count: 0 })).toBe('0 items');
});
