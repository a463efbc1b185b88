-- Issue #17: the web console's sign-in. One row per sign-in ticket, kept in the database so that several API
-- instances share them (src/auth/web-login.ts):
-- - kind 'scan': made by POST /api/auth/web-login with a mini-program code (scene `w=<scene_key>`), pending until
--   an administrator or manager confirms it in the mini-program; 2 minutes;
-- - kind 'link': a one-time console link of `npm run cli -- console-link`, confirmed from the start; 10 minutes.
-- The console holds the secret ticket; only its SHA-256 is stored. Handing out the token consumes the row.
CREATE TABLE web_login_tickets (
  ticket_hash  text PRIMARY KEY,
  kind         text        NOT NULL CHECK (kind IN ('scan', 'link')),
  scene_key    text UNIQUE,
  status       text        NOT NULL CHECK (status IN ('pending', 'confirmed', 'consumed')),
  phone        text,
  role         text CHECK (role IN ('admin', 'manager')),
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  confirmed_at timestamptz,
  consumed_at  timestamptz,
  content_type text CHECK (content_type IN ('image/png', 'image/jpeg')),
  image        bytea,
  CHECK (status = 'pending' OR (phone IS NOT NULL AND role IS NOT NULL)),
  CHECK (kind = 'link' OR (scene_key IS NOT NULL AND image IS NOT NULL))
);
CREATE INDEX web_login_tickets_expiry ON web_login_tickets (expires_at);
