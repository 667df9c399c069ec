-- Delivery versions of models (server/delivery.ts): one row per uploaded model file,
-- keyed by its storage key (not a `*_url` column, so the row does not keep the original from
-- the file sweep). `delivery_url` is a `*_url` column: it keeps the delivery file while the row
-- exists, and the sweep forgets the row with its original (server/stored-files.ts), after which
-- the delivery file is swept too.
--   pending   being derived since claimed_at (a claim older than the lease may be taken again)
--   ready     delivery_url holds the delivery version, delivery_size its bytes
--   original  the derivation could not improve on the upload: the original is delivered (reason)
--   failed    the derivation failed (reason, shown on the asset page): the original is delivered
CREATE TABLE model_deliveries (
  model_key text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('pending', 'ready', 'original', 'failed')),
  original_size bigint NOT NULL,
  delivery_url text,
  delivery_size bigint,
  reason text,
  claimed_at timestamptz,
  updated_at timestamptz NOT NULL,
  CHECK ((status = 'ready') = (delivery_url IS NOT NULL AND delivery_size IS NOT NULL))
);
