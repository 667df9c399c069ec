/** A timestamp as the API shows it (ISO 8601, UTC), from a Date or the text a driver returns. */
export function isoString(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/** An optional timestamp as the API shows it. */
export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : isoString(value);
}
