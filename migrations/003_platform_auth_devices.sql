-- Issue #4: platform accounts (openids for notifications), login rate limits and tickets, device code images.

-- The platform account (openid) a phone last logged in with; issue #6's notification reactor reads it.
CREATE TABLE platform_accounts (
  phone      text PRIMARY KEY,
  openid     text NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX platform_accounts_openid ON platform_accounts (openid);

-- Login attempts counted per fixed window and bucket (`ip:<address>`, `openid:<openid>`); old windows purged.
CREATE TABLE login_attempts (
  bucket       text        NOT NULL,
  window_start timestamptz NOT NULL,
  attempts     integer     NOT NULL CHECK (attempts > 0),
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX login_attempts_window ON login_attempts (window_start);

-- Login tickets (choose phone / role) are single-use: the id of each one used, kept until it expires.
CREATE TABLE login_tickets_used (
  jti        text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX login_tickets_used_expiry ON login_tickets_used (expires_at);

-- The latest mini-program code image of each device, served without a token at /api/device-codes/<key>.png.
CREATE TABLE device_codes (
  device_no    text PRIMARY KEY,
  device_key   text        NOT NULL UNIQUE,
  scene        text        NOT NULL,
  page         text        NOT NULL,
  env_version  text        NOT NULL CHECK (env_version IN ('release', 'trial', 'develop')),
  content_type text        NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  image        bytea       NOT NULL,
  generated_at timestamptz NOT NULL,
  generated_by text        NOT NULL
);
