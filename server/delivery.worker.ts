/** The worker thread of deriveInThread (server/delivery.ts). */
import { deriveDelivery } from './delivery-derive';
import { serveThread } from './threads';

serveThread((bytes: Uint8Array) => deriveDelivery(bytes));
