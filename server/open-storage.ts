/**
 * The storage the settings name: DATA_DIR/files by default, or the S3 bucket of the `S3_*`
 * settings (checked before use: server/s3-storage.ts). Used by the server and the scripts.
 */
import { join } from 'node:path';
import type { Config } from './config';
import { createLocalStorage, type Storage } from './storage';

export async function openStorage(config: Config): Promise<Storage> {
  if (!config.s3) return createLocalStorage(join(config.dataDir, 'files'));
  // Loaded only for a bucket: the AWS SDK takes seconds to load on a busy machine.
  const { openS3Storage } = await import('./s3-storage');
  return openS3Storage(config.s3);
}
