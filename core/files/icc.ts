/**
 * The name of an ICC colour profile: its description tag (`desc`), which is what image
 * editors show as the colour space, e.g. "sRGB IEC61966-2.1" or "Adobe RGB (1998)".
 * Version 2 profiles store it as textDescriptionType (ASCII), version 4 as
 * multiLocalizedUnicodeType (`mluc`, UTF-16BE per language).
 */
import { fourCC, view } from './bytes';

const HEADER_BYTES = 128;
const TAG_ENTRY_BYTES = 12;
const MLUC_RECORD_BYTES = 12;

/** The profile's description, or null when the bytes are not a profile with a readable one. */
export function iccDescription(profile: Uint8Array): string | null {
  if (profile.length < HEADER_BYTES + 4 || fourCC(profile, 36) !== 'acsp') return null;
  const data = view(profile);
  const tagCount = data.getUint32(HEADER_BYTES);
  for (let i = 0; i < tagCount; i++) {
    const entry = HEADER_BYTES + 4 + i * TAG_ENTRY_BYTES;
    if (entry + TAG_ENTRY_BYTES > profile.length) return null;
    if (fourCC(profile, entry) !== 'desc') continue;
    const offset = data.getUint32(entry + 4);
    const size = data.getUint32(entry + 8);
    if (offset + size > profile.length || size < 12) return null;
    return readText(profile.subarray(offset, offset + size));
  }
  return null;
}

/** A `desc` or `mluc` tag's text (English preferred), trimmed; null when unreadable or empty. */
function readText(tag: Uint8Array): string | null {
  const data = view(tag);
  const type = fourCC(tag, 0);
  let text: string | undefined;
  if (type === 'desc') {
    const count = data.getUint32(8);
    if (12 + count > tag.length) return null;
    text = new TextDecoder('latin1').decode(tag.subarray(12, 12 + count));
  } else if (type === 'mluc') {
    const records = data.getUint32(8);
    const recordSize = data.getUint32(12);
    if (recordSize < MLUC_RECORD_BYTES || 16 + records * recordSize > tag.length) return null;
    const entries = Array.from({ length: records }, (_, i) => {
      const at = 16 + i * recordSize;
      return {
        language: fourCC(tag, at),
        length: data.getUint32(at + 4),
        offset: data.getUint32(at + 8),
      };
    });
    const chosen =
      entries.find((e) => e.language === 'enUS') ??
      entries.find((e) => e.language.startsWith('en')) ??
      entries[0];
    if (!chosen || chosen.offset + chosen.length > tag.length) return null;
    text = new TextDecoder('utf-16be').decode(
      tag.subarray(chosen.offset, chosen.offset + chosen.length),
    );
  }
  const name = text?.replace(/\0[\s\S]*$/, '').trim();
  return name ? name : null;
}
