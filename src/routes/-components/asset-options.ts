/** The asset types and genders the platform knows, as filter options. */
export const ASSET_TYPES = [
  'beard',
  'body',
  'bottom',
  'facewear',
  'footwear',
  'glasses',
  'hair',
  'headwear',
  'outfit',
  'top',
] as const;

export const GENDERS = ['male', 'female', 'unisex'] as const;

const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
export const toOptions = (values: readonly string[]) =>
  values.map((value) => ({ value, label: label(value) }));
