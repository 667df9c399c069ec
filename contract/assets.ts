/** The asset types the platform knows. */
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

/** The genders an asset is made for. */
export const GENDERS = ['male', 'female', 'unisex'] as const;
export type Gender = (typeof GENDERS)[number];
