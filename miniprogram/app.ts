/**
 * The mini-program (issue #23): the app itself holds no state; the login lives in storage
 * (platform/session-store.ts) and every page reads it there.
 */
App({});
