/**
 * The local-disk storage on its own: a refused upload leaves no file even when the disk is slow
 * to open it, and the listing and partial-upload clean-up the file sweeper relies on.
 */
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createLocalStorage,
  StorageLimitError,
  StorageUnavailableError,
  withStoppableWrites,
} from './storage';

/** How late a slow disk opens a file. */
const OPEN_DELAY_MS = 50;

/**
 * Write streams whose file opens late: with `slowOpen.next` set, the next write stream opens
 * its file OPEN_DELAY_MS later, as a busy disk (or thread pool) would; `opened` resolves once
 * the file exists.
 */
const slowOpen = vi.hoisted(() => ({ next: false, opened: Promise.resolve() }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const createWriteStream: typeof fs.createWriteStream = (path, options) => {
    if (!slowOpen.next) return fs.createWriteStream(path, options);
    slowOpen.next = false;
    let created!: () => void;
    slowOpen.opened = new Promise<void>((resolve) => (created = resolve));
    // How a write stream opens its file: fs.open(path, flags, mode, callback).
    const open = (
      file: import('node:fs').PathLike,
      flags: import('node:fs').OpenMode,
      mode: import('node:fs').Mode | undefined,
      callback: (error: NodeJS.ErrnoException | null, fd: number) => void,
    ) => {
      setTimeout(() => {
        fs.open(file, flags, mode, (error, fd) => {
          created();
          callback(error, fd);
        });
      }, OPEN_DELAY_MS);
    };
    const custom = { open, write: fs.write, writev: fs.writev, close: fs.close };
    return fs.createWriteStream(path, {
      ...(typeof options === 'object' ? options : {}),
      fs: custom,
    });
  };
  return { ...fs, default: { ...fs, createWriteStream }, createWriteStream };
});

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avatar-studio-storage-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Everything `list` yields (Array.fromAsync needs Node 22). */
async function listed(storage: ReturnType<typeof createLocalStorage>) {
  const files = [];
  for await (const file of storage.list()) files.push(file);
  return files;
}

const bytes = (length: number, first = 0x89) => {
  const array = new Uint8Array(length);
  array[0] = first;
  return new Blob([array]).stream();
};

describe('put', () => {
  it('leaves no partial file when the file is refused before the disk opened it', async () => {
    const storage = createLocalStorage(dir);
    slowOpen.next = true;
    await expect(
      storage.put(bytes(100), {
        maxBytes: 1000,
        accept: () => {
          throw new Error('refused from its first bytes');
        },
      }),
    ).rejects.toThrow('refused from its first bytes');
    // The refusal came before the open; the open must not create the file after put returned.
    await slowOpen.opened;
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves no partial file past the byte limit', async () => {
    const storage = createLocalStorage(dir);
    await expect(storage.put(bytes(64 * 1024 * 3), { maxBytes: 100_000 })).rejects.toBeInstanceOf(
      StorageLimitError,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('withStoppableWrites', () => {
  it('lets a write in progress finish, then refuses new ones, leaving no partial file', async () => {
    const storage = withStoppableWrites(createLocalStorage(dir));
    // A body whose second half arrives only when the test says: the write is under way.
    let finish!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(4096).fill(0x89, 0, 1));
        finish = () => {
          controller.enqueue(new Uint8Array(4096));
          controller.close();
        };
      },
    });
    const write = storage.put(body, { maxBytes: 100_000 });
    let stopped = false;
    const stopping = storage.stopWrites().then(() => (stopped = true));
    await vi.waitFor(async () => expect(await readdir(dir)).toHaveLength(1));
    expect(stopped).toBe(false);
    finish();
    const stored = await write;
    await stopping;
    expect(await readdir(dir)).toEqual([stored.key]);
    expect(stored.size).toBe(8192);
    await expect(storage.put(bytes(100), { maxBytes: 1000 })).rejects.toBeInstanceOf(
      StorageUnavailableError,
    );
    expect(await readdir(dir)).toEqual([stored.key]);
  });
});

describe('list and removeIncomplete', () => {
  it('lists complete files with when they were stored, never partial uploads', async () => {
    const storage = createLocalStorage(dir);
    expect(await listed(storage)).toEqual([]);
    const png = await storage.put(bytes(100), { maxBytes: 1000 });
    await writeFile(join(dir, '.upload-0123456789abcdef01234567'), 'partial');
    await writeFile(join(dir, 'notes.txt'), 'not a stored file');
    const storedAt = new Date('2030-01-01T00:00:00.000Z');
    await utimes(join(dir, png.key), storedAt, storedAt);
    expect(await listed(storage)).toEqual([{ ...png, storedAt }]);
  });

  it('removes partial uploads last written before the given time, and nothing else', async () => {
    const storage = createLocalStorage(dir);
    const stored = await storage.put(bytes(100), { maxBytes: 1000 });
    const old = join(dir, '.upload-old');
    const fresh = join(dir, '.upload-fresh');
    await writeFile(old, 'left by a crash');
    await writeFile(fresh, 'being written');
    const hourAgo = new Date(Date.now() - 3600_000);
    await utimes(old, hourAgo, hourAgo);
    await utimes(join(dir, stored.key), hourAgo, hourAgo);

    expect(await storage.removeIncomplete(new Date(Date.now() - 60_000))).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['.upload-fresh', stored.key].sort());
    expect(await storage.removeIncomplete(new Date(Date.now() + 60_000))).toBe(1);
    expect(await readdir(dir)).toEqual([stored.key]);
  });

  it('lists nothing for a folder that does not exist yet', async () => {
    const storage = createLocalStorage(join(dir, 'missing'));
    expect(await listed(storage)).toEqual([]);
    expect(await storage.removeIncomplete(new Date())).toBe(0);
  });
});
