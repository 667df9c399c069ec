/** The demo catalogue's data: deterministic, so every fresh database gets the same one. */

/** The demo account created with the demo catalogue (role user, verified). */
export const DEMO_USER = { email: 'demo@avatar.studio', password: 'avatar-studio-demo' };

type Gender = 'male' | 'female' | 'unisex';

const CATALOGUE: { type: string; count: number; genders: Gender[]; names: string[] }[] = [
  {
    type: 'outfit',
    count: 40,
    genders: ['male', 'female', 'unisex'],
    names: ['Street', 'Office', 'Festival', 'Sport', 'Winter', 'Cyber'],
  },
  {
    type: 'top',
    count: 45,
    genders: ['male', 'female', 'unisex'],
    names: ['Hoodie', 'T-Shirt', 'Blazer', 'Crop Top', 'Sweater', 'Jacket'],
  },
  {
    type: 'bottom',
    count: 35,
    genders: ['male', 'female', 'unisex'],
    names: ['Jeans', 'Cargo Pants', 'Skirt', 'Shorts', 'Joggers'],
  },
  {
    type: 'footwear',
    count: 30,
    genders: ['male', 'female', 'unisex'],
    names: ['Sneakers', 'Boots', 'Loafers', 'Sandals', 'High-Tops'],
  },
  {
    type: 'hair',
    count: 40,
    genders: ['male', 'female', 'unisex'],
    names: ['Bob', 'Buzz Cut', 'Braids', 'Ponytail', 'Curls', 'Undercut'],
  },
  {
    type: 'beard',
    count: 20,
    genders: ['male'],
    names: ['Stubble', 'Goatee', 'Full Beard', 'Mustache'],
  },
  {
    type: 'glasses',
    count: 20,
    genders: ['unisex'],
    names: ['Aviators', 'Round Frames', 'Cat Eye', 'Visor'],
  },
  {
    type: 'headwear',
    count: 25,
    genders: ['male', 'female', 'unisex'],
    names: ['Beanie', 'Cap', 'Bucket Hat', 'Beret', 'Headband'],
  },
  { type: 'facewear', count: 15, genders: ['unisex'], names: ['Mask', 'Face Paint', 'Bandana'] },
  {
    type: 'body',
    count: 30,
    genders: ['male', 'female'],
    names: ['Slim', 'Athletic', 'Average', 'Broad'],
  },
];
/** The colour words of the demo names, with the sRGB colour their demo files are drawn in. */
export const DEMO_COLOURS: Record<string, [number, number, number]> = {
  Black: [40, 40, 46],
  White: [235, 235, 235],
  Red: [200, 48, 48],
  Blue: [46, 94, 200],
  Olive: [110, 120, 50],
  Sand: [214, 190, 140],
  Neon: [60, 230, 120],
  Pastel: [240, 170, 200],
  Denim: [70, 100, 150],
  Gold: [212, 170, 50],
};
const COLOURS = Object.keys(DEMO_COLOURS);

/** Mulberry32: a tiny seeded PRNG so every fresh database gets the same demo catalogue. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 24-hex-digit id drawn from `random`, so seeded ids are the same on every database. */
export function hexId(random: () => number): string {
  return Array.from({ length: 24 }, () => Math.floor(random() * 16).toString(16)).join('');
}

export interface DemoAsset {
  id: string;
  name: string;
  type: string;
  gender: Gender;
  iconUrl: string;
  modelUrl: string;
  locked: boolean;
  position: number;
  createdAt: Date;
}

/** The demo catalogue (300 assets), identical on every call. */
export function demoAssets(): DemoAsset[] {
  const random = prng(20240719);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const base = Date.UTC(2024, 0, 1);
  const assets: DemoAsset[] = [];
  for (const entry of CATALOGUE) {
    for (let index = 1; index <= entry.count; index += 1) {
      const id = hexId(random);
      const slug = `${entry.type}-${String(index).padStart(3, '0')}`;
      assets.push({
        id,
        name: `${pick(COLOURS)} ${pick(entry.names)}`,
        type: entry.type,
        gender: pick(entry.genders),
        iconUrl: `/demo/icons/${slug}.png`,
        modelUrl: `/demo/models/${slug}.glb`,
        locked: random() < 0.1,
        // One global order 1..N (order updates move assets within it).
        position: assets.length + 1,
        createdAt: new Date(base + Math.floor(random() * 180 * 24 * 3600) * 1000),
      });
    }
  }
  return assets;
}
