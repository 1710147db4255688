-- Up Migration
-- Credits (docs/api-behaviour.md#credits): a balance per creator, moved only by recorded operations. A balance may
-- go below zero down to -max_negative_balance (the creator's allowance), never further.
CREATE TABLE credit_accounts (
  creator_id text PRIMARY KEY REFERENCES creators (id) ON DELETE CASCADE,
  balance numeric(30, 6) NOT NULL DEFAULT 0,
  max_negative_balance numeric(30, 6) NOT NULL DEFAULT 0 CHECK (max_negative_balance >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (balance >= -max_negative_balance)
);

-- Every movement, with the balance it left; `idempotency_key` (client-supplied) makes a retried
-- request return the first result instead of moving the balance twice.
CREATE TABLE credit_operations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  creator_id text NOT NULL REFERENCES credit_accounts (creator_id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('ADD', 'SUBTRACT')),
  amount numeric(30, 6) NOT NULL CHECK (amount > 0),
  label text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 256),
  balance_after numeric(30, 6) NOT NULL,
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (creator_id, idempotency_key)
);
CREATE INDEX credit_operations_creator_idx ON credit_operations (creator_id, created_at DESC, id);
