/** The worker thread of validateGlb (server/model-validator.ts). */
import { runValidator } from './model-validator';
import { serveThread } from './threads';

serveThread(({ bytes, uri }: { bytes: Uint8Array; uri: string }) => runValidator(bytes, uri));
