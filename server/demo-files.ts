/**
 * Real files for the seeded demo data. The seed writes `/demo/...` placeholders; on start this
 * stores a small generated file for each one (an icon per colour, a model per asset type, a
 * body per cage mesh) and points the rows at it, so previews, validation and the morph worker
 * work on the demo catalogue as on uploads. Each distinct file is stored once and shared
 * (except a morphed asset's, which the morph worker may replace and delete). `npm run
 * seed:scale` stores the same files itself and writes its rows with them (storeDemoFiles).
 */
import { deflateSync } from 'node:zlib';
import { Document, NodeIO } from '@gltf-transform/core';
import { concat } from '../core/files/bytes';
import { ihdrChunk, pngChunk, pngFile } from '../core/files/png-writer';
import type { Db } from './db';
import { DEMO_COLOURS } from './seed-data';
import type { Storage } from './storage';
import { nameWithExtensionOf, recordStoredFile } from './stored-files';

const DEMO_FILES_LOCK_KEY = 7_314_159_267;
const DEMO_PREFIX = '/demo/';

const FALLBACK_COLOUR: [number, number, number] = [150, 150, 160];

/** Where each asset type sits on a 1.8 m avatar: box size and centre height, in metres. */
const SHAPES: Record<string, { size: [number, number, number]; y: number }> = {
  outfit: { size: [0.5, 1.2, 0.3], y: 0.9 },
  top: { size: [0.5, 0.6, 0.3], y: 1.2 },
  bottom: { size: [0.4, 0.8, 0.25], y: 0.5 },
  footwear: { size: [0.35, 0.12, 0.3], y: 0.06 },
  hair: { size: [0.26, 0.2, 0.26], y: 1.75 },
  beard: { size: [0.18, 0.1, 0.1], y: 1.55 },
  glasses: { size: [0.2, 0.05, 0.05], y: 1.65 },
  headwear: { size: [0.3, 0.15, 0.3], y: 1.85 },
  facewear: { size: [0.2, 0.12, 0.05], y: 1.6 },
  body: { size: [0.45, 1.8, 0.25], y: 0.9 },
};
const FALLBACK_SHAPE = { size: [0.3, 0.3, 0.3] as [number, number, number], y: 1 };

/** A 128 × 128 RGBA icon: a disc of `colour` on a transparent background. */
function demoIcon([r, g, b]: [number, number, number]): Uint8Array {
  const size = 128;
  const rows = new Uint8Array(size * (1 + size * 4));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 4);
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2);
      // One pixel of soft edge, and a darker 3-pixel rim so light colours stand out too.
      const alpha = Math.round(255 * Math.min(1, Math.max(0, size / 2 - 6 - distance)));
      const shade = distance > size / 2 - 9 ? 0.7 : 1;
      rows.set([r * shade, g * shade, b * shade, alpha], row + 1 + x * 4);
    }
  }
  return pngFile([
    ihdrChunk({ width: size, height: size, bitDepth: 8, colorType: 6 }),
    pngChunk('IDAT', new Uint8Array(deflateSync(rows))),
    pngChunk('IEND'),
  ]);
}

/** A binary glTF of one box of `size`, centred at height `y`, in `colour`. */
async function demoModel(
  name: string,
  { size, y }: { size: [number, number, number]; y: number },
  [r, g, b]: [number, number, number],
): Promise<Uint8Array> {
  const document = new Document();
  const buffer = document.createBuffer();
  const { positions, normals, indices } = box(size);
  const accessor = (type: 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array) =>
    document.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const material = document
    .createMaterial(name)
    .setBaseColorFactor([(r / 255) ** 2.2, (g / 255) ** 2.2, (b / 255) ** 2.2, 1])
    .setMetallicFactor(0)
    .setRoughnessFactor(0.8);
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', positions))
    .setAttribute('NORMAL', accessor('VEC3', normals))
    .setIndices(accessor('SCALAR', indices))
    .setMaterial(material);
  const node = document
    .createNode(name)
    .setMesh(document.createMesh(name).addPrimitive(primitive))
    .setTranslation([0, y, 0]);
  document.createScene('Scene').addChild(node);
  return new NodeIO().writeBinary(document);
}

/** A box's 24 vertices (4 per face, each with its face normal) and 36 indices. */
function box([w, h, d]: [number, number, number]) {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const half = [w / 2, h / 2, d / 2] as const;
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [1, -1]) {
      const [u, v] = [(axis + 1) % 3, (axis + 2) % 3];
      const first = positions.length / 3;
      for (const [su, sv] of [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ] as const) {
        const corner = [0, 0, 0];
        corner[axis] = sign * half[axis]!;
        corner[u] = su * sign * half[u]!;
        corner[v] = sv * half[v]!;
        positions.push(...corner);
        const normal = [0, 0, 0];
        normal[axis] = sign;
        normals.push(...normal);
      }
      indices.push(first, first + 1, first + 2, first, first + 2, first + 3);
    }
  }
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    indices: new Uint16Array(indices),
  };
}

/** The first word of a demo record's name: its colour ("Olive Hoodie 12"). */
const colourWordOf = (name: string) => name.split(' ')[0] ?? '';

/**
 * The file a placeholder stands for, the key that shares it with other placeholders, and what
 * its bytes are. A morphed asset owns its file (the morph worker deletes it when it replaces
 * the model), so each gets its own, of the same bytes as others of its kind.
 */
function fileFor(
  url: string,
  row: { id: string; name: string },
): { key: string; content: string; make: () => Promise<Uint8Array> } {
  const colourWord = colourWordOf(row.name);
  const colour = DEMO_COLOURS[colourWord] ?? FALLBACK_COLOUR;
  if (url.startsWith('/demo/icons/')) {
    const key = `icon:${colourWord}`;
    return { key, content: key, make: () => Promise.resolve(demoIcon(colour)) };
  }
  // models/<type>-NNN.glb, cage-meshes/<gender>-<body>.glb, morphed/NNN.glb
  const type = url.startsWith('/demo/models/')
    ? (/^\/demo\/models\/([a-z]+)-/.exec(url)?.[1] ?? '')
    : url.startsWith('/demo/cage-meshes/')
      ? 'body'
      : 'outfit';
  const shape = SHAPES[type] ?? FALLBACK_SHAPE;
  const owned = url.startsWith('/demo/morphed/');
  return {
    key: owned ? `morphed:${row.id}` : `model:${type}:${colourWord}`,
    content: `model:${type}:${colourWord}`,
    make: () => demoModel(type || 'demo', shape, colour),
  };
}

/**
 * Stores demo files as placeholders ask for them, each shared file once across calls (see
 * fileFor), inside `tx`, which records their names.
 */
function demoFileStore(tx: Db, storage: Storage) {
  const stored = new Map<string, string>();
  // Owned files of the same content are made once and stored once each.
  const made = new Map<string, Promise<Uint8Array>>();
  return {
    /** How many files were stored. */
    get count() {
      return stored.size;
    },
    /** The `/files/` address standing for each placeholder, in order. */
    async addressesOf(placeholders: readonly DemoPlaceholder[]): Promise<string[]> {
      const files = placeholders.map((row) => fileFor(row.url, row));
      const missing = new Map(
        files.filter((file) => !stored.has(file.key)).map((file) => [file.key, file]),
      );
      // Stored 16 at a time: a million seeded assets come with ten thousand morphed assets,
      // each owning a file, and a store's write waits on its disk or network.
      const batches = [...missing.values()];
      for (let start = 0; start < batches.length; start += 16) {
        const batch = batches.slice(start, start + 16);
        const saved = await Promise.all(
          batch.map(async (file) => {
            let making = made.get(file.content);
            if (!making) made.set(file.content, (making = file.make()));
            const bytes = await making;
            return storage.put(new Blob([concat([bytes])]).stream(), { maxBytes: bytes.length });
          }),
        );
        for (const [index, file] of batch.entries()) {
          const put = saved[index]!;
          // "icon:Olive" is stored as olive-icon.png, "model:outfit:Olive" as olive-outfit.glb.
          const base = file.key.split(':').reverse().join('-').toLowerCase();
          await recordStoredFile(tx, put, nameWithExtensionOf(base, put.key), null, new Date());
          stored.set(file.key, `/files/${put.key}`);
        }
      }
      return files.map((file) => stored.get(file.key)!);
    },
  };
}

/** A `/demo/` placeholder, on the row (its id and name) that holds it. */
export interface DemoPlaceholder {
  url: string;
  id: string;
  name: string;
}

/**
 * Stores the files that `placeholders` stand for (a shared one once, a morphed asset's its
 * own) and answers their addresses, in order: for rows written with their real files, as
 * `npm run seed:scale` writes them. Call inside the transaction that writes the rows.
 * @internal The scale seed's, not the server's.
 */
export async function storeDemoFiles(
  tx: Db,
  storage: Storage,
  placeholders: readonly DemoPlaceholder[],
): Promise<string[]> {
  return demoFileStore(tx, storage).addressesOf(placeholders);
}

/**
 * The tables and columns that may hold a `/demo/` placeholder. A morphed asset owns its file
 * (see fileFor), so its rows are pointed at their files one by one.
 * @internal Exported for the test of their plans.
 */
export const PLACEHOLDER_COLUMNS = [
  { table: 'assets', column: 'icon_url', owned: false },
  { table: 'assets', column: 'model_url', owned: false },
  { table: 'cage_meshes', column: 'model_url', owned: false },
  { table: 'morphed_assets', column: 'model_url', owned: true },
] as const;

/**
 * A placeholder, written as the partial indexes of migration 046 are (a literal pattern, not a
 * parameter), so that finding the placeholders left reads those indexes, not the table.
 */
const isPlaceholder = (column: string) => `${column} LIKE '${DEMO_PREFIX}%'`;

/**
 * The placeholders left in `column`: a morphed asset's each, a shared file's once per
 * placeholder and colour word.
 * @internal Exported for its plan's test.
 */
export const placeholdersSql = (table: string, column: string, owned: boolean) =>
  owned
    ? `SELECT id, name, ${column} AS url FROM ${table} WHERE ${isPlaceholder(column)}`
    : `SELECT min(id) AS id, min(name) AS name, ${column} AS url FROM ${table}
       WHERE ${isPlaceholder(column)} GROUP BY ${column}, split_part(name, ' ', 1)`;

/**
 * Stores a file for every `/demo/` placeholder left in the database and points its rows at
 * it; answers how many files were stored (0 once done). Safe on parallel starts.
 *
 * A shared file depends only on the placeholder and the first word of the row's name (its
 * colour), so the rows are read a group at a time and pointed at their files by one statement
 * a column. `npm run seed:scale` leaves none: it writes its rows with their files.
 */
export async function provideDemoFiles(db: Db, storage: Storage): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [DEMO_FILES_LOCK_KEY]);
    const files = demoFileStore(tx, storage);
    for (const { table, column, owned } of PLACEHOLDER_COLUMNS) {
      const { rows } = await tx.query<DemoPlaceholder>(placeholdersSql(table, column, owned));
      if (rows.length === 0) continue;
      const addresses = await files.addressesOf(rows);
      await (owned
        ? tx.query(
            `UPDATE ${table} t SET ${column} = m.file
             FROM unnest($1::text[], $2::text[]) AS m(id, file) WHERE t.id = m.id`,
            [rows.map((row) => row.id), addresses],
          )
        : tx.query(
            `UPDATE ${table} t SET ${column} = m.file
             FROM unnest($1::text[], $2::text[], $3::text[]) AS m(url, colour, file)
             WHERE t.${column} = m.url AND ${isPlaceholder(`t.${column}`)}
               AND split_part(t.name, ' ', 1) = m.colour`,
            [rows.map((row) => row.url), rows.map((row) => colourWordOf(row.name)), addresses],
          ));
    }
    return files.count;
  });
}
